/*
 * reduce.c — reductions over dims: sum, mean, var, std, max, min, argmax,
 * norm, each with its backward. All use one layout: the reduced dims moved
 * last and made contiguous, so a kernel reduces rows of `inner` elements.
 */
#include <math.h>
#include <string.h>

#include "backend.h"
#include "nn_parallel.h"
#include "cpu/nn_vmath.h"

/* Sums over float32 rows in double, eight independent accumulators so the
   loop vectorizes (one accumulator is one long chain of dependent adds). */
#define LANES 8
/* built for AVX2 too (4 doubles a vector), picked at load time */
#define WIDE __attribute__((target_clones("avx2", "default")))

WIDE static double sum_f32(const float *x, int64_t n)
{
    double acc[LANES] = {0};
    int64_t i = 0;
    for (; i + LANES <= n; i += LANES)
        for (int l = 0; l < LANES; l++) acc[l] += x[i + l];
    double total = 0;
    for (; i < n; i++) total += x[i];
    for (int l = 0; l < LANES; l++) total += acc[l];
    return total;
}

/* The same sum, faster, for the chunks of one long row (sum_chunk): blocks of
   256 floats summed in float32 over 32 lanes (8 adds a lane, vectorized 8
   wide), each lane's block sum then added in double. Within 8 roundings of
   float32 per block of the double sum; the order is fixed, not the threads'. */
typedef float v8f __attribute__((vector_size(32)));
typedef float v8f_unaligned __attribute__((vector_size(32), aligned(4), may_alias));
typedef double v4d __attribute__((vector_size(32)));
WIDE static double sum_f32_blocked(const float *x, int64_t n)
{
    v4d acc[8] = {0}; /* lanes 0-3, 4-7, ..., 28-31 */
    int64_t i = 0;
    for (; i + 256 <= n; i += 256) {
        v8f lane[4];
        for (int v = 0; v < 4; v++) lane[v] = *(const v8f_unaligned *)(x + i + 8 * v);
        for (int k = 1; k < 8; k++)
            for (int v = 0; v < 4; v++) lane[v] += *(const v8f_unaligned *)(x + i + 32 * k + 8 * v);
        for (int v = 0; v < 4; v++) {
            acc[2 * v] += __builtin_convertvector(__builtin_shufflevector(lane[v], lane[v], 0, 1, 2, 3), v4d);
            acc[2 * v + 1] += __builtin_convertvector(__builtin_shufflevector(lane[v], lane[v], 4, 5, 6, 7), v4d);
        }
    }
    double total = sum_f32(x + i, n - i);
    for (int v = 0; v < 8; v++)
        for (int l = 0; l < 4; l++) total += acc[v][l];
    return total;
}

/* sum of (x - mean)^2, or of x^2 with mean 0 */
WIDE static double squares_f32(const float *x, int64_t n, double mean)
{
    double acc[LANES] = {0};
    int64_t i = 0;
    for (; i + LANES <= n; i += LANES)
        for (int l = 0; l < LANES; l++) {
            double d = x[i + l] - mean;
            acc[l] += d * d;
        }
    double total = 0;
    for (; i < n; i++) total += (x[i] - mean) * (x[i] - mean);
    for (int l = 0; l < LANES; l++) total += acc[l];
    return total;
}


int nn_reduction_layout_make(nn_tensor *a, int n_dims, const int *dims, bool keepdim, nn_reduction_layout *l)
{
    memset(l, 0, sizeof *l);
    for (int i = 0; i < n_dims; i++) {
        int d;
        if (nn_wrap_dim(dims[i], a->ndim, &d) < 0) return -1;
        if (a->ndim == 0) continue;
        if (l->reduced[d])
            return nn_error_set(NN_ERR_RUNTIME, "dim %d appears multiple times in the list of dims", d);
        l->reduced[d] = true;
    }
    if (n_dims == 0)
        for (int d = 0; d < a->ndim; d++) l->reduced[d] = true;
    int perm[NN_MAX_DIMS], np = 0;
    l->outer = l->inner = 1;
    for (int d = 0; d < a->ndim; d++) {
        if (l->reduced[d]) {
            if (keepdim) l->out_shape[l->out_ndim++] = 1;
            continue;
        }
        perm[np++] = d;
        l->outer *= a->sizes[d];
        l->out_shape[l->out_ndim++] = a->sizes[d];
    }
    for (int d = 0; d < a->ndim; d++)
        if (l->reduced[d]) {
            perm[np++] = d;
            l->inner *= a->sizes[d];
        }
    /* a raw view, no autograd: the op records its own node */
    bool prev = nn_set_grad_enabled(false);
    nn_tensor *p = nn_permute(a, a->ndim, perm);
    l->data = p ? nn_contiguous(p) : NULL;
    nn_set_grad_enabled(prev);
    NN_RELEASE(p);
    return l->data ? 0 : -1;
}

void nn_reduction_params(const nn_reduction_layout *l, bool keepdim, int ndim, nn_op_params *p)
{
    p->n_i = ndim;
    for (int d = 0; d < ndim; d++) p->i[d] = l->reduced[d];
    p->flags = keepdim;
}

nn_tensor *nn_reduction_grad_expand(nn_node *n, nn_tensor *grad)
{
    const nn_input_meta *m = &n->input_meta[0];
    NN_RETAIN(grad);
    nn_tensor *g = grad;
    if (!n->p.flags) {
        /* put the reduced dims back as size 1 */
        int64_t shape[NN_MAX_DIMS] = {0};
        for (int d = 0; d < m->ndim; d++) shape[d] = n->p.i[d] ? 1 : m->sizes[d];
        nn_tensor *r = nn_reshape(g, m->ndim, shape);
        NN_RELEASE(g);
        if (!r) return NULL;
        g = r;
    }
    nn_tensor *e = nn_expand(g, m->ndim, m->sizes);
    NN_RELEASE(g);
    return e;
}

/* ---------------------------------------------------------------- sum/mean */

typedef struct sum_job {
    const nn_reduction_layout *l;
    nn_tensor *out;
    double scale;
    double *partial; /* one sum per chunk of a single long float row */
} sum_job;

/* out[o] = scale * sum of row o, for the rows [begin, end). */
static void sum_row_range(void *vctx, int64_t begin, int64_t end)
{
    const sum_job *j = vctx;
    const nn_reduction_layout *l = j->l;
    const char *src = nn_data_ptr(l->data);
    nn_dtype in = l->data->dtype, od = j->out->dtype;
    size_t ies = nn_dtype_size(in), oes = nn_dtype_size(od);
    char *dst = j->out->storage->data;
    for (int64_t o = begin; o < end; o++) {
        const char *row = src + (size_t)(o * l->inner) * ies;
        if (in == NN_INT64 || in == NN_INT32 || in == NN_BOOL) {
            int64_t acc = 0;
            for (int64_t i = 0; i < l->inner; i++) acc += (int64_t)nn_load_double(row + (size_t)i * ies, in);
            ((int64_t *)dst)[o] = acc;
            continue;
        }
        double acc = 0;
        if (in == NN_FLOAT32) {
            acc = sum_f32((const float *)row, l->inner);
        } else if (in == NN_FLOAT64) {
            const double *f = (const double *)row;
            for (int64_t i = 0; i < l->inner; i++) acc += f[i];
        } else {
            for (int64_t i = 0; i < l->inner; i++) acc += nn_load_double(row + (size_t)i * ies, in);
        }
        nn_store_double(dst + (size_t)o * oes, od, acc * j->scale);
    }
}

/* partial[chunk] = the sum of elements [begin, end) of the one float row. */
static void sum_chunk(void *vctx, int64_t begin, int64_t end)
{
    const sum_job *j = vctx;
    const char *row = nn_data_ptr(j->l->data);
    double acc = 0;
    if (j->l->data->dtype == NN_FLOAT32) {
        acc = sum_f32_blocked((const float *)row + begin, end - begin);
    } else {
        const double *f = (const double *)row;
        for (int64_t i = begin; i < end; i++) acc += f[i];
    }
    j->partial[begin / NN_GRAIN] = acc;
}

/* Rows in parallel (each row summed as on one thread); one long float32 or
   float64 row as NN_GRAIN-element chunks added in chunk order, so the result
   never depends on the thread count. */
static int sum_rows(const nn_reduction_layout *l, nn_tensor *out, double scale)
{
    sum_job j = {l, out, scale, NULL};
    nn_dtype in = l->data->dtype;
    if (l->outer == 1 && (in == NN_FLOAT32 || in == NN_FLOAT64) && out->dtype == in) {
        /* a whole-tensor sum (mean divides it by the count in its own precision) in
           PyTorch's order: cpu/sum.c */
        const void *x = nn_data_ptr(l->data);
        void *o = out->storage->data;
        if (in == NN_FLOAT32) {
            float s = nn_cpu_sum_all_f32(x, l->inner);
            *(float *)o = scale == 1.0 ? s : s / (float)l->inner;
        } else {
            double s = nn_cpu_sum_all_f64(x, l->inner);
            *(double *)o = scale == 1.0 ? s : s / (double)l->inner;
        }
        return 0;
    }
    if (l->outer == 1 && l->inner > NN_GRAIN && (in == NN_FLOAT32 || in == NN_FLOAT64)) {
        int64_t chunks = nn_chunk_count(l->inner, NN_GRAIN);
        if (!(j.partial = nn_malloc((size_t)chunks * sizeof *j.partial))) return -1;
        nn_parallel_for(l->inner, NN_GRAIN, sum_chunk, &j);
        double acc = 0;
        for (int64_t c = 0; c < chunks; c++) acc += j.partial[c];
        nn_free(j.partial);
        nn_store_double(out->storage->data, out->dtype, acc * scale);
        return 0;
    }
    int64_t rows = l->inner > 0 ? NN_GRAIN / l->inner : l->outer;
    nn_parallel_for(l->outer, rows > 0 ? rows : 1, sum_row_range, &j);
    return 0;
}

/* A float32 sum or mean over the leading dims of a contiguous CPU tensor (x.sum(0),
   x.mean((0, 1))), as PyTorch sums columns (nn_torch_column_sums_f32), then the mean's
   division in float32. false when the reduction is not of that kind. */
static bool leading_columns(nn_tensor *a, const nn_reduction_layout *l, nn_tensor *out, bool mean)
{
    if (a->dtype != NN_FLOAT32 || out->dtype != NN_FLOAT32 || nn_device_of(a).type != NN_CPU || !nn_is_contiguous(a))
        return false;
    int k = 0;
    while (k < a->ndim && l->reduced[k]) k++;
    if (k == 0 || k == a->ndim) return false;
    for (int d = k; d < a->ndim; d++)
        if (l->reduced[d]) return false;
    int64_t n = 1, m = 1;
    for (int d = 0; d < a->ndim; d++) *(d < k ? &n : &m) *= a->sizes[d];
    if (n == 0 || m == 0) return false;
    float *o = out->storage->data;
    nn_torch_column_sums_f32(nn_data_ptr(a), n, m, o);
    if (mean)
        for (int64_t c = 0; c < m; c++) o[c] /= (float)n;
    return true;
}

static nn_tensor *sum_or_mean(nn_tensor *a, int n_dims, const int *dims, bool keepdim, bool mean)
{
    if (mean && !nn_dtype_is_floating(a->dtype)) {
        static const char *const title[NN_DTYPE_COUNT] = {[NN_INT64] = "Long", [NN_INT32] = "Int", [NN_BOOL] = "Bool"};
        nn_error_set(NN_ERR_RUNTIME,
                     "mean(): could not infer output dtype. Input dtype must be either a floating point or complex "
                     "dtype. Got: %s",
                     title[a->dtype]);
        return NULL;
    }
    nn_reduction_layout l;
    if (nn_reduction_layout_make(a, n_dims, dims, keepdim, &l) < 0) return NULL;
    nn_dtype od = nn_dtype_is_floating(a->dtype) ? a->dtype : NN_INT64;
    nn_tensor *out = nn_empty_on(nn_device_of(l.data), l.out_ndim, l.out_shape, od);
    if (out) {
        if (leading_columns(a, &l, out, mean)) {
        } else if (sum_rows(&l, out, mean ? 1.0 / (double)l.inner : 1.0) < 0) NN_SET(out, NULL);
        if (out && mean && l.inner == 0) nn_fill_(out, NAN);
        nn_op_params p;
        nn_reduction_params(&l, keepdim, a->ndim, &p);
        p.f[0] = (double)l.inner;
        nn_op_id op = n_dims == 0 ? (mean ? NN_OP_mean_all : NN_OP_sum_all) : (mean ? NN_OP_mean : NN_OP_sum);
        if (out && nn_record(op, 1, &a, 1, &out, 0, NULL, &p) < 0) NN_SET(out, NULL);
    }
    NN_RELEASE(l.data);
    return out;
}

nn_tensor *nn_sum(nn_tensor *a, int n_dims, const int *dims, bool keepdim)
{
    return sum_or_mean(a, n_dims, dims, keepdim, false);
}

nn_tensor *nn_mean(nn_tensor *a, int n_dims, const int *dims, bool keepdim)
{
    return sum_or_mean(a, n_dims, dims, keepdim, true);
}

static int sum_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin, bool mean)
{
    nn_tensor *g = nn_reduction_grad_expand(n, gout[0]);
    if (!g) return -1;
    if (!mean) {
        gin[0] = g;
        return 0;
    }
    gin[0] = nn_div_scalar(g, n->p.f[0]);
    NN_RELEASE(g);
    return gin[0] ? 0 : -1;
}

int nn_sum_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return sum_backward(n, gout, gin, false); }
int nn_sum_all_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return sum_backward(n, gout, gin, false); }
int nn_mean_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return sum_backward(n, gout, gin, true); }
int nn_mean_all_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return sum_backward(n, gout, gin, true); }

/* ----------------------------------------------------------------- helpers */

/* The reduced dims a node's params record (nn_reduction_params) into dims; returns how many. */
static int node_dims(const nn_node *n, int *dims)
{
    int nd = 0;
    for (int d = 0; d < n->p.n_i; d++)
        if (n->p.i[d]) dims[nd++] = d;
    return nd;
}

/* An op's result for its own backward: the saved output, or, when the backward
   is itself recorded (create_graph), the forward redone on the saved input, so
   that the result's dependence on the input is in the new graph (a saved output
   is kept without history). Returns a new reference. */
static nn_tensor *result_for_backward(nn_node *n, nn_tensor *(*redo)(nn_node *n, nn_tensor *self))
{
    nn_tensor *self = nn_node_saved(n, 0), *result = nn_node_saved(n, 1);
    if (nn_grad_enabled() && self->requires_grad) return redo(n, self);
    NN_RETAIN(result);
    return result;
}

static void sign_loop(char **d, const int64_t *s, int64_t n, void *ctx)
{
    nn_dtype dt = *(const nn_dtype *)ctx;
    for (int64_t i = 0; i < n; i++) {
        double v = nn_load_double(d[1] + i * s[1], dt);
        nn_store_double(d[0] + i * s[0], dt, (double)((v > 0) - (v < 0)));
    }
}

/* PyTorch's sgn of a real tensor (-1, 0 or 1; 0 for NaN) in x's dtype, as a
   constant: its derivative is 0, so it never needs a graph. New reference. */
static nn_tensor *sign_of(nn_tensor *x)
{
    nn_tensor *out = nn_empty_like(x);
    if (!out) return NULL;
    const nn_tensor *ops[2] = {out, x};
    nn_dtype dt = x->dtype;
    if (NN_KERNEL(nn_backend_of(out), map, (2, ops, sign_loop, &dt, false)) < 0) NN_SET(out, NULL);
    return out;
}

/* |x| as x * sgn(x) + 0 (the + 0 turns -0 into 0): the same values and the same
   derivative as abs, built from binary ops only. sgn is borrowed; new reference. */
static nn_tensor *abs_of(nn_tensor *x, nn_tensor *sgn)
{
    nn_tensor *m = nn_mul(x, sgn);
    nn_tensor *r = m ? nn_add_scalar(m, 0.0) : NULL;
    NN_RELEASE(m);
    return r;
}

/* where(cond, 0, x) — PyTorch's x.masked_fill(cond, 0) in differentiable form. New reference. */
static nn_tensor *zero_where(nn_tensor *cond, nn_tensor *x)
{
    nn_tensor *zero = nn_scalar(0.0, x->dtype);
    nn_tensor *r = zero ? nn_where(cond, zero, x) : NULL;
    NN_RELEASE(zero);
    return r;
}

/* t == value (a bool tensor). t borrowed; new reference. */
static nn_tensor *equals_scalar(nn_tensor *t, double value)
{
    nn_tensor *s = nn_scalar(value, t->dtype);
    nn_tensor *r = s ? nn_compare(t, s, NN_EQ) : NULL;
    NN_RELEASE(s);
    return r;
}

/* Row o of a reduction layout's data. */
static const char *layout_row(const nn_reduction_layout *l, int64_t o)
{
    return (const char *)nn_data_ptr(l->data) + (size_t)(o * l->inner) * nn_dtype_size(l->data->dtype);
}

static double load_at(const char *row, int64_t i, nn_dtype dt)
{
    switch (dt) {
    case NN_FLOAT32: return ((const float *)row)[i];
    case NN_FLOAT64: return ((const double *)row)[i];
    default: return nn_load_double(row + (size_t)i * nn_dtype_size(dt), dt);
    }
}

/* ----------------------------------------------------------------- var/std */

/* Two-pass variance (sum of squared deviations) of a row, in double, around
   mean rounded to dt first: PyTorch's CPU all-reduce takes self.mean().item(). */
static double row_m2_two_pass(const char *row, int64_t n, nn_dtype dt)
{
    if (dt == NN_FLOAT32) {
        float mean = (float)(sum_f32((const float *)row, n) / (double)n);
        return squares_f32((const float *)row, n, mean);
    }
    double sum = 0;
    for (int64_t i = 0; i < n; i++) sum += load_at(row, i, dt);
    char rounded[8];
    nn_store_double(rounded, dt, sum / (double)n);
    double mean = nn_load_double(rounded, dt), m2 = 0;
    for (int64_t i = 0; i < n; i++) {
        double dx = load_at(row, i, dt) - mean;
        m2 += dx * dx;
    }
    return m2;
}

/* Welford's update in double (PyTorch's WelfordOps for the dim reductions). */
static double row_m2_welford(const char *row, int64_t n, nn_dtype dt)
{
    double mean = 0, m2 = 0;
    for (int64_t i = 0; i < n; i++) {
        double x = load_at(row, i, dt);
        double delta = x - mean;
        mean += delta / (double)(i + 1);
        m2 += delta * (x - mean);
    }
    return m2;
}

static nn_tensor *var_std(nn_tensor *a, int n_dims, const int *dims, bool unbiased, bool keepdim, bool take_sqrt)
{
    if (!nn_dtype_is_floating(a->dtype)) {
        nn_error_set(NN_ERR_RUNTIME, "std and var only support floating point and complex dtypes");
        return NULL;
    }
    nn_reduction_layout l;
    if (nn_reduction_layout_make(a, n_dims, dims, keepdim, &l) < 0) return NULL;
    nn_tensor *out = nn_empty_on(nn_device_of(l.data), l.out_ndim, l.out_shape, a->dtype);
    if (out) {
        double correction = unbiased ? 1.0 : 0.0, divisor = (double)l.inner - correction;
        size_t oes = nn_dtype_size(a->dtype);
        char *dst = out->storage->data;
        for (int64_t o = 0; o < l.outer; o++) {
            double var = NAN; /* an empty row, or no degrees of freedom: NaN */
            if (l.inner > 0) {
                /* everything in one row: the all-reduce path (two passes); else Welford */
                const char *row = layout_row(&l, o);
                double m2 = l.outer == 1 ? row_m2_two_pass(row, l.inner, a->dtype)
                                         : row_m2_welford(row, l.inner, a->dtype);
                if (divisor > 0) var = m2 / divisor;
            }
            nn_store_double(dst + (size_t)o * oes, a->dtype, take_sqrt ? sqrt(var) : var);
        }
        nn_op_params p = {0};
        nn_reduction_params(&l, keepdim, a->ndim, &p);
        p.f[0] = correction;
        p.f[1] = n_dims == 0 || a->ndim == 0; /* PyTorch's "no dim" branch of var_backward */
        p.f[2] = (double)l.inner;
        nn_tensor *save[2] = {a, out};
        if (nn_record(take_sqrt ? NN_OP_std : NN_OP_var, 1, &a, 1, &out, take_sqrt ? 2 : 1, save, &p) < 0)
            NN_SET(out, NULL);
    }
    NN_RELEASE(l.data);
    return out;
}

nn_tensor *nn_var(nn_tensor *a, int n_dims, const int *dims, bool unbiased, bool keepdim)
{
    return var_std(a, n_dims, dims, unbiased, keepdim, false);
}

nn_tensor *nn_std(nn_tensor *a, int n_dims, const int *dims, bool unbiased, bool keepdim)
{
    return var_std(a, n_dims, dims, unbiased, keepdim, true);
}

/* PyTorch's var_backward: (2 / (N - correction)) * grad * (self - mean).
   With no dims and N == correction it is INFINITY * grad, unexpanded, as in
   PyTorch (whose engine then rejects the [] gradient for a [1] input; ours too).
   g borrowed; new reference. */
static nn_tensor *var_grad(nn_node *n, nn_tensor *g)
{
    nn_tensor *self = nn_node_saved(n, 0);
    double correction = n->p.f[0];
    nn_tensor *scaled, *mean;
    if (n->p.f[1] != 0) {
        double count = (double)nn_numel(self);
        if (count == correction) return nn_mul_scalar(g, INFINITY);
        scaled = nn_mul_scalar(g, 2.0 / (count - correction));
        mean = scaled ? nn_mean(self, 0, NULL, false) : NULL;
    } else {
        double rnumel = n->p.f[2];
        nn_tensor *ge = nn_reduction_grad_expand(n, g);
        scaled = ge ? nn_mul_scalar(ge, rnumel == correction ? INFINITY : 2.0 / (rnumel - correction)) : NULL;
        NN_RELEASE(ge);
        int dims[NN_MAX_DIMS], nd = node_dims(n, dims);
        mean = scaled ? nn_mean(self, nd, dims, true) : NULL;
    }
    nn_tensor *diff = mean ? nn_sub(self, mean) : NULL;
    nn_tensor *r = diff ? nn_mul(scaled, diff) : NULL;
    NN_RELEASE(scaled);
    NN_RELEASE(mean);
    NN_RELEASE(diff);
    return r;
}

int nn_var_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0; /* no incoming gradient: none to pass on */
    gin[0] = var_grad(n, gout[0]);
    return gin[0] ? 0 : -1;
}

/* std_backward: var_backward of (grad / (2 * result)).masked_fill(result == 0, 0). */
static nn_tensor *std_redo(nn_node *n, nn_tensor *self)
{
    int dims[NN_MAX_DIMS], nd = n->p.f[1] != 0 ? 0 : node_dims(n, dims);
    return nn_std(self, nd, dims, n->p.f[0] != 0, n->p.flags);
}

int nn_std_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0; /* no incoming gradient: none to pass on */
    nn_tensor *result = result_for_backward(n, std_redo);
    if (!result) return -1;
    nn_tensor *twice = nn_mul_scalar(result, 2.0);
    nn_tensor *q = twice ? nn_div(gout[0], twice) : NULL;
    nn_tensor *is_zero = q ? equals_scalar(result, 0.0) : NULL;
    nn_tensor *gv = is_zero ? zero_where(is_zero, q) : NULL;
    gin[0] = gv ? var_grad(n, gv) : NULL;
    NN_RELEASE(result);
    NN_RELEASE(twice);
    NN_RELEASE(q);
    NN_RELEASE(is_zero);
    NN_RELEASE(gv);
    return gin[0] ? 0 : -1;
}

/* ----------------------------------------------------------------- max/min */

/* Index of a row's largest (is_max) or smallest element: the first NaN if
   there is one, else the first occurrence of the extreme value (as PyTorch). */
#define EXTREME_LOOP(T, IS_NAN)                                        \
    do {                                                               \
        const T *x = (const T *)row;                                   \
        T best = x[0];                                                 \
        if (IS_NAN(best)) return 0;                                    \
        for (int64_t i = 1; i < n; i++) {                              \
            T v = x[i];                                                \
            if (IS_NAN(v)) return i;                                   \
            if (is_max ? v > best : v < best) {                        \
                best = v;                                              \
                bi = i;                                                \
            }                                                          \
        }                                                              \
    } while (0)
#define NEVER_NAN(v) ((void)(v), 0)

static int64_t row_extreme(const char *row, int64_t n, nn_dtype dt, bool is_max)
{
    int64_t bi = 0;
    switch (dt) {
    case NN_FLOAT32: EXTREME_LOOP(float, isnan); break;
    case NN_FLOAT64: EXTREME_LOOP(double, isnan); break;
    case NN_INT64: EXTREME_LOOP(int64_t, NEVER_NAN); break;
    case NN_INT32: EXTREME_LOOP(int32_t, NEVER_NAN); break;
    case NN_BOOL: EXTREME_LOOP(uint8_t, NEVER_NAN); break;
    default: {
        /* half types: exact as doubles */
        double best = load_at(row, 0, dt);
        if (isnan(best)) return 0;
        for (int64_t i = 1; i < n; i++) {
            double v = load_at(row, i, dt);
            if (isnan(v)) return i;
            if (is_max ? v > best : v < best) {
                best = v;
                bi = i;
            }
        }
    }
    }
    return bi;
}
#undef EXTREME_LOOP
#undef NEVER_NAN

/* Fills values (a's dtype, may be NULL) and indices (int64, may be NULL) from
   the rows of l; every row is non-empty. */
static void extreme_rows(const nn_reduction_layout *l, bool is_max, nn_tensor *values, nn_tensor *indices)
{
    nn_dtype dt = l->data->dtype;
    size_t es = nn_dtype_size(dt);
    for (int64_t o = 0; o < l->outer; o++) {
        const char *row = layout_row(l, o);
        int64_t i = row_extreme(row, l->inner, dt, is_max);
        if (values) memcpy((char *)values->storage->data + (size_t)o * es, row + (size_t)i * es, es);
        if (indices) ((int64_t *)indices->storage->data)[o] = i;
    }
}

static nn_tensor *extreme_all(nn_tensor *a, bool is_max)
{
    if (nn_numel(a) == 0) {
        nn_error_set(NN_ERR_RUNTIME,
                     "%s(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim "
                     "with the 'dim' argument.",
                     is_max ? "max" : "min");
        return NULL;
    }
    nn_reduction_layout l;
    if (nn_reduction_layout_make(a, 0, NULL, false, &l) < 0) return NULL;
    nn_tensor *out = nn_empty_on(nn_device_of(a), 0, NULL, a->dtype);
    if (out) {
        extreme_rows(&l, is_max, out, NULL);
        nn_tensor *save[2] = {a, out};
        if (nn_record(is_max ? NN_OP_max_all : NN_OP_min_all, 1, &a, 1, &out, 2, save, NULL) < 0) NN_SET(out, NULL);
    }
    NN_RELEASE(l.data);
    return out;
}

nn_tensor *nn_max_all(nn_tensor *a) { return extreme_all(a, true); }
nn_tensor *nn_min_all(nn_tensor *a) { return extreme_all(a, false); }

/* evenly_distribute_backward: grad / (number of elements equal to the result)
   to each of them (to the NaNs when the result is NaN), 0 elsewhere. */
static int extreme_all_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0; /* no incoming gradient: none to pass on */
    nn_tensor *self = nn_node_saved(n, 0), *value = nn_node_saved(n, 1);
    double v = 0;
    if (nn_item(value, &v) < 0) return -1;
    nn_tensor *mask = isnan(v) ? nn_compare(self, self, NN_NE) : nn_compare(self, value, NN_EQ);
    nn_tensor *count = mask ? nn_sum(mask, 0, NULL, false) : NULL;
    nn_tensor *share = count ? nn_div(gout[0], count) : NULL;
    nn_tensor *zero = share ? nn_scalar(0.0, share->dtype) : NULL;
    gin[0] = zero ? nn_where(mask, share, zero) : NULL;
    NN_RELEASE(mask);
    NN_RELEASE(count);
    NN_RELEASE(share);
    NN_RELEASE(zero);
    return gin[0] ? 0 : -1;
}

int nn_max_all_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return extreme_all_backward(n, gout, gin); }
int nn_min_all_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return extreme_all_backward(n, gout, gin); }

static int extreme_dim(nn_tensor *a, int dim, bool keepdim, bool is_max, nn_tensor **values, nn_tensor **indices)
{
    *values = *indices = NULL;
    const char *name = is_max ? "max" : "min";
    int d;
    if (nn_wrap_dim(dim, a->ndim, &d) < 0) return -1;
    if (a->ndim > 0 && a->sizes[d] == 0)
        return nn_error_set(NN_ERR_INDEX, "%s(): Expected reduction dim %d to have non-zero size.", name, d);
    nn_reduction_layout l;
    if (nn_reduction_layout_make(a, 1, &d, keepdim, &l) < 0) return -1;
    nn_tensor *vals = nn_empty_on(nn_device_of(l.data), l.out_ndim, l.out_shape, a->dtype);
    nn_tensor *idx = vals ? nn_empty_on(nn_device_of(l.data), l.out_ndim, l.out_shape, NN_INT64) : NULL;
    int rc = -1;
    if (idx) {
        extreme_rows(&l, is_max, vals, idx);
        nn_op_params p = {0};
        nn_reduction_params(&l, keepdim, a->ndim, &p);
        p.f[0] = d;
        /* the node goes on the values only: indices never require grad */
        rc = nn_record(is_max ? NN_OP_max_dim : NN_OP_min_dim, 1, &a, 1, &vals, 1, &idx, &p);
    }
    NN_RELEASE(l.data);
    if (rc < 0) {
        NN_RELEASE(vals);
        NN_RELEASE(idx);
        return -1;
    }
    *values = vals;
    *indices = idx;
    return 0;
}

int nn_max_dim(nn_tensor *a, int dim, bool keepdim, nn_tensor **values, nn_tensor **indices)
{
    return extreme_dim(a, dim, keepdim, true, values, indices);
}

int nn_min_dim(nn_tensor *a, int dim, bool keepdim, nn_tensor **values, nn_tensor **indices)
{
    return extreme_dim(a, dim, keepdim, false, values, indices);
}

/* value_selecting_reduction_backward: the gradient goes to the index position
   along dim; zeros elsewhere. Built as where(index == arange, grad, 0). */
static int extreme_dim_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0; /* no incoming gradient: none to pass on */
    const nn_input_meta *m = &n->input_meta[0];
    if (m->ndim == 0) {
        NN_RETAIN(gout[0]);
        gin[0] = gout[0];
        return 0;
    }
    int dim = (int)n->p.f[0];
    int64_t keep[NN_MAX_DIMS], line[NN_MAX_DIMS];
    for (int d = 0; d < m->ndim; d++) {
        keep[d] = d == dim ? 1 : m->sizes[d];
        line[d] = d == dim ? m->sizes[d] : 1;
    }
    nn_tensor *g = nn_reshape(gout[0], m->ndim, keep);
    nn_tensor *idx = g ? nn_reshape(nn_node_saved(n, 0), m->ndim, keep) : NULL;
    nn_tensor *ar = idx ? nn_arange(0, (double)m->sizes[dim], 1, true, -1) : NULL;
    nn_tensor *arl = ar ? nn_reshape(ar, m->ndim, line) : NULL;
    nn_tensor *mask = arl ? nn_compare(idx, arl, NN_EQ) : NULL;
    nn_tensor *zero = mask ? nn_scalar(0.0, g->dtype) : NULL;
    gin[0] = zero ? nn_where(mask, g, zero) : NULL;
    NN_RELEASE(g);
    NN_RELEASE(idx);
    NN_RELEASE(ar);
    NN_RELEASE(arl);
    NN_RELEASE(mask);
    NN_RELEASE(zero);
    return gin[0] ? 0 : -1;
}

int nn_max_dim_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return extreme_dim_backward(n, gout, gin); }
int nn_min_dim_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return extreme_dim_backward(n, gout, gin); }

nn_tensor *nn_argmax(nn_tensor *a, int dim, bool has_dim, bool keepdim)
{
    int d = 0;
    if (has_dim) {
        if (nn_wrap_dim(dim, a->ndim, &d) < 0) return NULL;
        if (a->ndim > 0 && a->sizes[d] == 0) {
            nn_error_set(NN_ERR_INDEX, "argmax(): Expected reduction dim %d to have non-zero size.", d);
            return NULL;
        }
    } else if (nn_numel(a) == 0) {
        nn_error_set(NN_ERR_INDEX, "argmax(): Expected reduction dim to be specified for input.numel() == 0.");
        return NULL;
    }
    nn_reduction_layout l;
    if (nn_reduction_layout_make(a, has_dim ? 1 : 0, &d, keepdim, &l) < 0) return NULL;
    nn_tensor *out = nn_empty_on(nn_device_of(l.data), l.out_ndim, l.out_shape, NN_INT64);
    if (out) {
        if (has_dim && a->ndim > 0 && a->sizes[d] == 1) {
            /* PyTorch answers a size-1 dim with zeros before looking at the dtype */
            memset(out->storage->data, 0, out->storage->nbytes);
        } else if (a->dtype == NN_BOOL && nn_numel(a) > 0) {
            nn_error_set(NN_ERR_RUNTIME, "\"argmax_cpu\" not implemented for 'Bool'");
            NN_SET(out, NULL);
        } else {
            extreme_rows(&l, true, NULL, out);
        }
    }
    NN_RELEASE(l.data);
    return out;
}

/* -------------------------------------------------------------------- norm */

static double row_norm(const char *row, int64_t n, nn_dtype dt, double p)
{
    double acc = 0;
    if (p == 0) {
        for (int64_t i = 0; i < n; i++) acc += load_at(row, i, dt) != 0;
        return acc;
    }
    if (p == 1) {
        for (int64_t i = 0; i < n; i++) acc += fabs(load_at(row, i, dt));
        return acc;
    }
    if (p == 2 && dt == NN_FLOAT32) return sqrt(squares_f32((const float *)row, n, 0));
    if (p == 2) {
        for (int64_t i = 0; i < n; i++) {
            double v = load_at(row, i, dt);
            acc += v * v;
        }
        return sqrt(acc);
    }
    if (isinf(p)) {
        /* max |x| (p = inf) or min |x| (p = -inf); NaN wins */
        acc = fabs(load_at(row, 0, dt));
        for (int64_t i = 1; i < n && !isnan(acc); i++) {
            double v = fabs(load_at(row, i, dt));
            if (isnan(v) || (p > 0 ? v > acc : v < acc)) acc = v;
        }
        return acc;
    }
    for (int64_t i = 0; i < n; i++) acc += pow(fabs(load_at(row, i, dt)), p);
    return pow(acc, 1.0 / p);
}

nn_tensor *nn_norm(nn_tensor *a, double p, int n_dims, const int *dims, bool keepdim)
{
    if (!nn_dtype_is_floating(a->dtype)) {
        static const char *const title[NN_DTYPE_COUNT] = {[NN_INT64] = "Long", [NN_INT32] = "Int", [NN_BOOL] = "Bool"};
        nn_error_set(NN_ERR_RUNTIME, "norm(): input dtype should be either floating point or complex. Got %s instead.",
                     title[a->dtype]);
        return NULL;
    }
    nn_reduction_layout l;
    if (nn_reduction_layout_make(a, n_dims, dims, keepdim, &l) < 0) return NULL;
    nn_tensor *out = nn_empty_on(nn_device_of(l.data), l.out_ndim, l.out_shape, a->dtype);
    if (out) {
        size_t oes = nn_dtype_size(a->dtype);
        for (int64_t o = 0; o < l.outer; o++) {
            /* the norm of nothing is 0 for every p, as in PyTorch */
            double v = l.inner > 0 ? row_norm(layout_row(&l, o), l.inner, a->dtype, p) : 0.0;
            nn_store_double((char *)out->storage->data + (size_t)o * oes, a->dtype, v);
        }
        nn_op_params prm = {0};
        nn_reduction_params(&l, keepdim, a->ndim, &prm);
        prm.f[0] = p;
        nn_tensor *save[2] = {a, out};
        if (nn_record(NN_OP_norm, 1, &a, 1, &out, 2, save, &prm) < 0) NN_SET(out, NULL);
    }
    NN_RELEASE(l.data);
    return out;
}

static void argmax_mask_loop(char **d, const int64_t *s, int64_t n, void *ctx)
{
    nn_dtype dt = *(const nn_dtype *)ctx;
    for (int64_t i = 0; i < n; i++) {
        double x = nn_load_double(d[1] + i * s[1], dt), nrm = nn_load_double(d[2] + i * s[2], dt);
        *(uint8_t *)(d[0] + i * s[0]) = fabs(x) == nrm || isnan(x);
    }
}

/* p = ±inf: sgn(self) * (grad / count) * mask, where mask marks the elements
   whose |x| is the norm (or NaN) and count how many share each row. */
static nn_tensor *norm_inf_grad(nn_node *n, nn_tensor *self, nn_tensor *sgn, nn_tensor *g, nn_tensor *norm)
{
    nn_tensor *mask = nn_empty_on(nn_device_of(self), self->ndim, self->sizes, NN_BOOL);
    if (!mask) return NULL;
    const nn_tensor *ops[3] = {mask, self, norm};
    nn_dtype dt = self->dtype;
    if (NN_KERNEL(nn_backend_of(mask), map, (3, ops, argmax_mask_loop, &dt, false)) < 0) {
        NN_RELEASE(mask);
        return NULL;
    }
    int dims[NN_MAX_DIMS], nd = node_dims(n, dims);
    /* a 0-dim input reduces no dim: its count is the mask itself */
    nn_tensor *count = nd ? nn_sum(mask, nd, dims, true) : nn_sum(mask, 0, NULL, false);
    nn_tensor *share = count ? nn_div(g, count) : NULL;
    nn_tensor *masked = share ? nn_mul(share, mask) : NULL;
    nn_tensor *r = masked ? nn_mul(sgn, masked) : NULL;
    NN_RELEASE(mask);
    NN_RELEASE(count);
    NN_RELEASE(share);
    NN_RELEASE(masked);
    return r;
}

/* PyTorch's norm_backward, branch by branch; g and norm come expanded to self's shape. */
static nn_tensor *norm_grad(nn_node *n, nn_tensor *self, nn_tensor *g, nn_tensor *norm, double p)
{
    nn_tensor *sgn = sign_of(self);
    if (!sgn) return NULL;
    nn_tensor *r = NULL, *norm0 = NULL, *absx = NULL, *pw = NULL, *scaled = NULL, *t = NULL, *u = NULL;
    if (p == 1) {
        r = nn_mul(sgn, g);
    } else if (p == 2) {
        /* grad * (self / norm).masked_fill(norm == 0, 0) */
        t = nn_div(self, norm);
        norm0 = t ? equals_scalar(norm, 0.0) : NULL;
        u = norm0 ? zero_where(norm0, t) : NULL;
        r = u ? nn_mul(g, u) : NULL;
    } else if (isinf(p)) {
        r = norm_inf_grad(n, self, sgn, g, norm);
    } else if (p < 1) {
        /* sgn * |x|^(p-1) (0 where x == 0) * grad * norm^(1-p) */
        absx = abs_of(self, sgn);
        pw = absx ? nn_pow_scalar(absx, p - 1) : NULL;
        norm0 = pw ? equals_scalar(self, 0.0) : NULL;
        t = norm0 ? zero_where(norm0, pw) : NULL;
        scaled = t ? nn_mul(sgn, t) : NULL;
        NN_SET(t, scaled ? nn_mul(scaled, g) : NULL);
        u = t ? nn_pow_scalar(norm, 1 - p) : NULL;
        r = u ? nn_mul(t, u) : NULL;
    } else {
        /* (p < 2 ? sgn * |x|^(p-1) : self * |x|^(p-2)) * (grad / norm^(p-1)).masked_fill(norm == 0, 0) */
        absx = abs_of(self, sgn);
        pw = absx ? nn_pow_scalar(absx, p < 2 ? p - 1 : p - 2) : NULL;
        scaled = pw ? nn_mul(p < 2 ? sgn : self, pw) : NULL;
        t = scaled ? nn_pow_scalar(norm, p - 1) : NULL;
        NN_SET(t, t ? nn_div(g, t) : NULL);
        norm0 = t ? equals_scalar(norm, 0.0) : NULL;
        u = norm0 ? zero_where(norm0, t) : NULL;
        r = u ? nn_mul(scaled, u) : NULL;
    }
    NN_RELEASE(sgn);
    NN_RELEASE(norm0);
    NN_RELEASE(absx);
    NN_RELEASE(pw);
    NN_RELEASE(scaled);
    NN_RELEASE(t);
    NN_RELEASE(u);
    return r;
}

static nn_tensor *norm_redo(nn_node *n, nn_tensor *self)
{
    int dims[NN_MAX_DIMS], nd = node_dims(n, dims);
    return nn_norm(self, n->p.f[0], nd, dims, n->p.flags);
}

int nn_norm_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0; /* no incoming gradient: none to pass on */
    double p = n->p.f[0];
    if (p == 0) {
        /* PyTorch returns an undefined gradient: a leaf input's grad stays None.
           Our engine would hand a NULL gradient on to the next node's backward,
           so an input with history gets zeros instead (the same sum). */
        if (n->next[0].leaf) return 0;
        gin[0] = nn_full_on(nn_device_of(gout[0]), n->input_meta[0].ndim, n->input_meta[0].sizes, 0,
                            n->input_meta[0].dtype);
        return gin[0] ? 0 : -1;
    }
    nn_tensor *self = nn_node_saved(n, 0);
    nn_tensor *result = result_for_backward(n, norm_redo);
    nn_tensor *g = result ? nn_reduction_grad_expand(n, gout[0]) : NULL;
    nn_tensor *norm = g ? nn_reduction_grad_expand(n, result) : NULL;
    gin[0] = norm ? norm_grad(n, self, g, norm, p) : NULL;
    NN_RELEASE(result);
    NN_RELEASE(g);
    NN_RELEASE(norm);
    return gin[0] ? 0 : -1;
}
