/*
 * reduce.c — reductions over dims: sum, mean, var, std, max, min, argmax,
 * norm, each with its backward. All use one layout: the reduced dims moved
 * last and made contiguous, so the device's `reduce` kernel (core/cpu/reduce.c
 * on the CPU) reduces rows of `inner` elements.
 */
#include <math.h>
#include <string.h>

#include "backend.h"
#include "nn_reduce_exact.h"


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
        l->outer = nn_wrapping_mul(l->outer, a->sizes[d]);
        l->out_shape[l->out_ndim++] = a->sizes[d];
    }
    for (int d = 0; d < a->ndim; d++)
        if (l->reduced[d]) {
            perm[np++] = d;
            l->inner = nn_wrapping_mul(l->inner, a->sizes[d]);
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
    if (!grad) return NULL; /* an operand a nested call failed to make (its error is current) */
    const nn_input_meta *m = &n->input_meta[0];
    NN_RETAIN(grad);
    nn_tensor *g = grad;
    if (!n->p.flags && g->ndim > 0) {
        /* put the reduced dims back as size 1, one unsqueeze each in increasing order as
           PyTorch's unsqueeze_multiple (a graph made with create_graph shows its nodes);
           a 0-dim gradient expands as it is */
        for (int d = 0; d < m->ndim && g; d++) {
            if (!n->p.i[d]) continue;
            nn_tensor *r = nn_unsqueeze(g, d);
            NN_RELEASE(g);
            g = r;
        }
        if (!g) return NULL;
    }
    nn_tensor *e = nn_expand(g, m->ndim, m->sizes);
    NN_RELEASE(g);
    return e;
}

/* ---------------------------------------------------------------- sum/mean */

/* out[o] = the sum of row o of l over divisor (the reduce kernel's NN_REDUCE_SUM). */
static int sum_rows(const nn_reduction_layout *l, nn_tensor *out, double divisor)
{
    return NN_KERNEL(nn_backend_of(out), reduce, (NN_REDUCE_SUM, l->data, l->outer, l->inner, divisor, out, NULL));
}

/* A float32 sum or mean over the leading dims of a contiguous tensor (x.sum(0),
   x.mean((0, 1))), as PyTorch sums columns (the reduce kernel's NN_REDUCE_COLUMNS),
   then the mean's division in float32. 1 when done, 0 when the reduction is not of
   that kind, -1 on a kernel error. */
static int leading_columns(nn_tensor *a, const nn_reduction_layout *l, nn_tensor *out, bool mean)
{
    if (a->dtype != NN_FLOAT32 || out->dtype != NN_FLOAT32 || !nn_is_contiguous(a))
        return 0;
    int k = 0;
    while (k < a->ndim && l->reduced[k]) k++;
    if (k == 0 || k == a->ndim) return 0;
    for (int d = k; d < a->ndim; d++)
        if (l->reduced[d]) return 0;
    int64_t n = 1, m = 1;
    for (int d = 0; d < a->ndim; d++) *(d < k ? &n : &m) *= a->sizes[d];
    if (n == 0 || m == 0) return 0;
    return NN_KERNEL(nn_backend_of(a), reduce, (NN_REDUCE_COLUMNS, a, n, m, mean, out, NULL)) < 0 ? -1 : 1;
}

/* A float32 sum or mean over the trailing dims of a contiguous tensor
   (x.sum(-1), x.mean((1, 2)) of a 3-d x), each row in PyTorch's order (the
   reduce kernel's NN_REDUCE_ROWS). 1 when done, 0 when not of that kind, -1. */
static int trailing_rows(nn_tensor *a, const nn_reduction_layout *l, nn_tensor *out, bool mean)
{
    if (a->dtype != NN_FLOAT32 || out->dtype != NN_FLOAT32 || !nn_is_contiguous(a) || a->ndim < 2 || l->outer < 2 ||
        l->inner < 1)
        return 0;
    int k = 0;
    while (k < a->ndim && !l->reduced[k]) k++;
    if (k == 0) return 0;
    for (int d = k; d < a->ndim; d++)
        if (!l->reduced[d]) return 0;
    double divisor = mean ? (double)(float)l->inner : 1.0;
    return NN_KERNEL(nn_backend_of(a), reduce, (NN_REDUCE_ROWS, a, l->outer, l->inner, divisor, out, NULL)) < 0 ? -1 : 1;
}

/* Any other float32 sum or mean on the CPU (a middle dim, non-contiguous input)
   in PyTorch's order: TensorIterator's layout and cascade_sum's loops
   (cpu/sum_iter.c), then the mean's division in float32. A contiguous
   whole-tensor sum stays with the kernel (the same order). 1 when done, else 0. */
static int strided_sum(nn_tensor *a, const nn_reduction_layout *l, nn_tensor *out, bool mean)
{
    if (a->dtype != NN_FLOAT32 || out->dtype != NN_FLOAT32 || a->ndim == 0 || (l->outer == 1 && nn_is_contiguous(a)))
        return 0;
    /* the reduce kernel's STRIDED code: the reduced dims' bits, 2^16 for a mean */
    double bits = mean ? 65536 : 0;
    for (int d = 0; d < a->ndim; d++)
        if (l->reduced[d]) bits += (double)(1 << d);
    return NN_KERNEL(nn_backend_of(a), reduce, (NN_REDUCE_STRIDED, a, l->outer, l->inner, bits, out, NULL)) < 0 ? -1 : 1;
}

static nn_tensor *sum_or_mean(nn_tensor *a, int n_dims, const int *dims, bool keepdim, bool mean)
{
    if (mean && !nn_dtype_is_floating(a->dtype)) {
        static const char *const title[NN_DTYPE_COUNT] = {[NN_INT64] = "Long", [NN_INT32] = "Int", [NN_BOOL] = "Bool",
                                                          [NN_UINT8] = "Byte", [NN_INT8] = "Char", [NN_INT16] = "Short"};
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
        int done = leading_columns(a, &l, out, mean);
        if (done == 0) done = trailing_rows(a, &l, out, mean);
        if (done == 0) done = strided_sum(a, &l, out, mean);
        /* a half type's mean, as 1.13's CPU mean: the sum rounded to it, then divided in it */
        bool half_mean = mean && (od == NN_FLOAT16 || od == NN_BFLOAT16);
        if (done < 0 || (done == 0 && sum_rows(&l, out, mean && !half_mean ? (double)l.inner : 1.0) < 0)) NN_SET(out, NULL);
        if (out && half_mean && l.inner > 0) {
            nn_tensor *count = nn_wrapped_number((double)l.inner, true), *q = NULL;
            NN_WITH_GRAD_MODE(false, q = count ? nn_div(out, count) : NULL);
            NN_RELEASE(count);
            NN_SET(out, q);
        }
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
    if (!a) return NULL; /* an operand a nested call failed to make (its error is current) */
    if (nn_dtype_is_complex(a->dtype)) return nn_complex_sum(a, n_dims, dims, keepdim, false);
    return sum_or_mean(a, n_dims, dims, keepdim, false);
}

nn_tensor *nn_mean(nn_tensor *a, int n_dims, const int *dims, bool keepdim)
{
    if (nn_dtype_is_complex(a->dtype)) return nn_complex_sum(a, n_dims, dims, keepdim, true);
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

/* PyTorch's sgn of a real tensor (-1, 0 or 1; 0 for NaN) in x's dtype, as a
   constant: its derivative is 0, so it never needs a graph. New reference. */
static nn_tensor *sign_of(nn_tensor *x)
{
    nn_tensor *out = nn_empty_like(x);
    if (!out) return NULL;
    nn_kernel_args ka = {.t = {out, x}};
    if (NN_KERNEL(nn_backend_of(out), math, (NN_MATH_sign, &ka)) < 0) NN_SET(out, NULL);
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


/* ----------------------------------------------------------------- var/std */


static nn_tensor *var_std(nn_tensor *a, int n_dims, const int *dims, bool unbiased, bool keepdim, bool take_sqrt)
{
    if (nn_dtype_is_complex(a->dtype)) { /* as ATen: var(real) + var(imag), a real result (std: its sqrt) */
        nn_tensor *re = nn_real(a), *im = re ? nn_imag(a) : NULL;
        nn_tensor *vr = im ? var_std(re, n_dims, dims, unbiased, keepdim, false) : NULL;
        nn_tensor *vi = vr ? var_std(im, n_dims, dims, unbiased, keepdim, false) : NULL;
        nn_tensor *v = vi ? nn_add(vr, vi) : NULL, *out = v && take_sqrt ? nn_sqrt(v) : v;
        if (out != v) NN_RELEASE(v);
        NN_RELEASE(re);
        NN_RELEASE(im);
        NN_RELEASE(vr);
        NN_RELEASE(vi);
        return out;
    }
    if (!nn_dtype_is_floating(a->dtype)) {
        nn_error_set(NN_ERR_RUNTIME, "std and var only support floating point and complex dtypes");
        return NULL;
    }
    nn_reduction_layout l;
    if (nn_reduction_layout_make(a, n_dims, dims, keepdim, &l) < 0) return NULL;
    nn_tensor *out = nn_empty_on(nn_device_of(l.data), l.out_ndim, l.out_shape, a->dtype);
    if (out) {
        double correction = unbiased ? 1.0 : 0.0;
        /* on the CPU, PyTorch's order (reduce_exact.c): one output in float32, or Welford in memory order */
        nn_reduction_layout l2;
        int made = nn_device_of(a).type == NN_CPU ? nn_reduce_memory_layout(a, &l, &l2) : 0;
        int exact = made < 0 ? -1 : nn_var_all_f32_exact(a, &l, correction, take_sqrt, out);
        if (exact < 0 || (exact == 0 &&
                         NN_KERNEL(nn_backend_of(out), reduce,
                                   (take_sqrt ? NN_REDUCE_STD : NN_REDUCE_VAR, made ? l2.data : l.data, l.outer,
                                    l.inner, correction, out, NULL)) < 0))
            NN_SET(out, NULL);
        if (made > 0) NN_RELEASE(l2.data);
        nn_op_params p = {0};
        nn_reduction_params(&l, keepdim, a->ndim, &p);
        p.f[0] = correction;
        p.f[1] = n_dims == 0 || a->ndim == 0; /* PyTorch's "no dim" branch of var_backward */
        p.f[2] = (double)l.inner;
        nn_tensor *save[2] = {a, out};
        if (out && nn_record(take_sqrt ? NN_OP_std : NN_OP_var, 1, &a, 1, &out, take_sqrt ? 2 : 1, save, &p) < 0)
            NN_SET(out, NULL);
    }
    NN_RELEASE(l.data);
    return out;
}

int nn_var_mean(nn_tensor *a, int n_dims, const int *dims, bool unbiased, bool keepdim, bool take_sqrt,
                nn_tensor **var_out, nn_tensor **mean_out)
{
    *var_out = *mean_out = NULL;
    if (!nn_dtype_is_floating(a->dtype))
        return nn_error_set(NN_ERR_RUNTIME, "%s only support floating point and complex dtypes",
                            take_sqrt ? "std_mean" : "var_mean");
    nn_reduction_layout l;
    if (nn_reduction_layout_make(a, n_dims, dims, keepdim, &l) < 0) return -1;
    nn_tensor *out = nn_empty_on(nn_device_of(l.data), l.out_ndim, l.out_shape, a->dtype);
    nn_tensor *mean = out ? nn_empty_on(nn_device_of(l.data), l.out_ndim, l.out_shape, a->dtype) : NULL;
    int rc = mean ? 0 : -1;
    double correction = unbiased ? 1.0 : 0.0;
    if (rc == 0) {
        /* Welford for every reduction, in memory order on the CPU, as ATen's std_var_mean */
        nn_reduction_layout l2;
        int made = nn_device_of(a).type == NN_CPU ? nn_reduce_memory_layout(a, &l, &l2) : 0;
        if (made < 0 || NN_KERNEL(nn_backend_of(out), reduce,
                                  (take_sqrt ? NN_REDUCE_STD : NN_REDUCE_VAR, made ? l2.data : l.data, l.outer,
                                   l.inner, correction, out, mean)) < 0)
            rc = -1;
        if (made > 0) NN_RELEASE(l2.data);
    }
    if (rc == 0) {
        nn_op_params p = {0};
        nn_reduction_params(&l, keepdim, a->ndim, &p);
        p.f[0] = correction;
        p.f[1] = n_dims == 0 || a->ndim == 0;
        p.f[2] = (double)l.inner;
        nn_tensor *outs[2] = {out, mean}, *save[2] = {a, out};
        rc = nn_record(take_sqrt ? NN_OP_std_mean : NN_OP_var_mean, 1, &a, 2, outs, take_sqrt ? 2 : 1, save, &p);
    }
    NN_RELEASE(l.data);
    if (rc < 0) {
        NN_RELEASE(out);
        NN_RELEASE(mean);
        return -1;
    }
    *var_out = out;
    *mean_out = mean;
    return 0;
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

/* std's gradient for g: var_grad of (g / (2 * std)).masked_fill(std == 0, 0). New reference. */
static nn_tensor *std_grad(nn_node *n, nn_tensor *g)
{
    nn_tensor *result = result_for_backward(n, std_redo);
    if (!result) return NULL;
    nn_tensor *twice = nn_mul_scalar(result, 2.0);
    nn_tensor *q = twice ? nn_div(g, twice) : NULL;
    nn_tensor *is_zero = q ? equals_scalar(result, 0.0) : NULL;
    nn_tensor *gv = is_zero ? zero_where(is_zero, q) : NULL;
    nn_tensor *r = gv ? var_grad(n, gv) : NULL;
    NN_RELEASE(result);
    NN_RELEASE(twice);
    NN_RELEASE(q);
    NN_RELEASE(is_zero);
    NN_RELEASE(gv);
    return r;
}

int nn_std_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0; /* no incoming gradient: none to pass on */
    gin[0] = std_grad(n, gout[0]);
    return gin[0] ? 0 : -1;
}

/* ATen's var_mean_backward / std_mean_backward: the var (std) gradient of the
   first output's plus the mean gradient of the second's, either may be absent. */
static int moments_mean_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin, bool is_std)
{
    nn_tensor *gs = NULL, *gm = NULL;
    if (gout[0] && !(gs = is_std ? std_grad(n, gout[0]) : var_grad(n, gout[0]))) return -1;
    if (gout[1]) {
        nn_tensor *ge = nn_reduction_grad_expand(n, gout[1]);
        gm = ge ? nn_div_scalar(ge, n->p.f[2]) : NULL;
        NN_RELEASE(ge);
        if (!gm) {
            NN_RELEASE(gs);
            return -1;
        }
    }
    if (gs && gm) {
        gin[0] = nn_add(gs, gm);
        NN_RELEASE(gs);
        NN_RELEASE(gm);
        return gin[0] ? 0 : -1;
    }
    gin[0] = gs ? gs : gm;
    return 0;
}

int nn_var_mean_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return moments_mean_backward(n, gout, gin, false); }
int nn_std_mean_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return moments_mean_backward(n, gout, gin, true); }

/* ----------------------------------------------------------------- max/min */


/* Fills values (a's dtype, may be NULL) and indices (int64, may be NULL) from
   the rows of l, every one non-empty: the reduce kernel's NN_REDUCE_MAX/MIN. */
static int extreme_rows(const nn_reduction_layout *l, bool is_max, nn_tensor *values, nn_tensor *indices)
{
    nn_tensor *any = values ? values : indices;
    return NN_KERNEL(nn_backend_of(any), reduce,
                     (is_max ? NN_REDUCE_MAX : NN_REDUCE_MIN, l->data, l->outer, l->inner, 0, values, indices));
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
        if (extreme_rows(&l, is_max, out, NULL) < 0) NN_SET(out, NULL);
        nn_tensor *save[2] = {a, out};
        if (out && nn_record(is_max ? NN_OP_max_all : NN_OP_min_all, 1, &a, 1, &out, 2, save, NULL) < 0) NN_SET(out, NULL);
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
    if (idx && extreme_rows(&l, is_max, vals, idx) == 0) {
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

static nn_tensor *arg_extreme(nn_tensor *a, int dim, bool has_dim, bool keepdim, bool is_max)
{
    const char *name = is_max ? "argmax" : "argmin";
    int d = 0;
    if (has_dim) {
        if (nn_wrap_dim(dim, a->ndim, &d) < 0) return NULL;
        if (a->ndim > 0 && a->sizes[d] == 0) {
            nn_error_set(NN_ERR_INDEX, "%s(): Expected reduction dim %d to have non-zero size.", name, d);
            return NULL;
        }
    } else if (nn_numel(a) == 0) {
        nn_error_set(NN_ERR_INDEX, "%s(): Expected reduction dim to be specified for input.numel() == 0.", name);
        return NULL;
    }
    nn_reduction_layout l;
    if (nn_reduction_layout_make(a, has_dim ? 1 : 0, &d, keepdim, &l) < 0) return NULL;
    nn_tensor *out = nn_empty_on(nn_device_of(l.data), l.out_ndim, l.out_shape, NN_INT64);
    if (out) {
        if (has_dim && a->ndim > 0 && a->sizes[d] == 1) {
            /* PyTorch answers a size-1 dim with zeros before looking at the dtype */
            if (nn_fill_(out, 0) < 0) NN_SET(out, NULL);
        } else if (a->dtype == NN_BOOL && nn_numel(a) > 0) {
            nn_error_set(NN_ERR_RUNTIME, "\"%s_cpu\" not implemented for 'Bool'", name);
            NN_SET(out, NULL);
        } else if (extreme_rows(&l, is_max, NULL, out) < 0) {
            NN_SET(out, NULL);
        }
    }
    NN_RELEASE(l.data);
    return out;
}

nn_tensor *nn_argmax(nn_tensor *a, int dim, bool has_dim, bool keepdim) { return arg_extreme(a, dim, has_dim, keepdim, true); }
nn_tensor *nn_argmin(nn_tensor *a, int dim, bool has_dim, bool keepdim) { return arg_extreme(a, dim, has_dim, keepdim, false); }

/* -------------------------------------------------------------------- norm */


nn_tensor *nn_norm(nn_tensor *a, double p, int n_dims, const int *dims, bool keepdim)
{
    if (!nn_dtype_is_floating(a->dtype)) {
        static const char *const title[NN_DTYPE_COUNT] = {[NN_INT64] = "Long", [NN_INT32] = "Int", [NN_BOOL] = "Bool",
                                                          [NN_UINT8] = "Byte", [NN_INT8] = "Char", [NN_INT16] = "Short"};
        nn_error_set(NN_ERR_RUNTIME, "norm(): input dtype should be either floating point or complex. Got %s instead.",
                     title[a->dtype]);
        return NULL;
    }
    nn_reduction_layout l;
    if (nn_reduction_layout_make(a, n_dims, dims, keepdim, &l) < 0) return NULL;
    nn_tensor *out = nn_empty_on(nn_device_of(l.data), l.out_ndim, l.out_shape, a->dtype);
    if (out) {
        int done = nn_norm_f32_exact(a, &l, p, out); /* the CPU's float32 in PyTorch's order */
        if (done < 0 || (done == 0 && NN_KERNEL(nn_backend_of(out), reduce,
                                                (NN_REDUCE_NORM, l.data, l.outer, l.inner, p, out, NULL)) < 0))
            NN_SET(out, NULL);
        nn_op_params prm = {0};
        nn_reduction_params(&l, keepdim, a->ndim, &prm);
        prm.f[0] = p;
        nn_tensor *save[2] = {a, out};
        if (out && nn_record(NN_OP_norm, 1, &a, 1, &out, 2, save, &prm) < 0) NN_SET(out, NULL);
    }
    NN_RELEASE(l.data);
    return out;
}

/* p = ±inf: sgn(self) * (grad / count) * mask, where mask marks the elements
   whose |x| is the norm (or NaN) and count how many share each row. */
static nn_tensor *norm_inf_grad(int nd, const int *dims, nn_tensor *self, nn_tensor *sgn, nn_tensor *g, nn_tensor *norm)
{
    nn_tensor *mask = nn_empty_on(nn_device_of(self), self->ndim, self->sizes, NN_BOOL);
    if (!mask) return NULL;
    nn_kernel_args ka = {.t = {mask, self, norm}};
    if (NN_KERNEL(nn_backend_of(mask), math, (NN_MATH_abs_eq, &ka)) < 0) {
        NN_RELEASE(mask);
        return NULL;
    }
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

/* PyTorch's norm_backward, branch by branch; g and norm come expanded to self's shape,
   dims[nd] the reduced dims. */
nn_tensor *nn_norm_grad(int nd, const int *dims, nn_tensor *self, nn_tensor *g, nn_tensor *norm, double p)
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
        r = norm_inf_grad(nd, dims, self, sgn, g, norm);
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
    int dims[NN_MAX_DIMS], nd = node_dims(n, dims);
    gin[0] = norm ? nn_norm_grad(nd, dims, self, g, norm, p) : NULL;
    NN_RELEASE(result);
    NN_RELEASE(g);
    NN_RELEASE(norm);
    return gin[0] ? 0 : -1;
}
