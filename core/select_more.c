/*
 * select_more.c — reductions and diagonal/index ops beyond select.c: prod,
 * amax/amin, median (all and along a dim), mode, diag, diagonal (a view),
 * diag_embed and index_add, each forward with its backward beside it.
 *
 * Forwards are host loops over a contiguous copy seen as [outer, len, inner]
 * (or core's reduction layout); backwards are PyTorch 1.13's formulas
 * (FunctionsManual.cpp) built from differentiable ops, so they differentiate
 * again where those do.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "nn_custom_fn.h"
#include "nn_half.h"
#include "nn_int.h"
#include "nn_scratch.h"
#include "nn_select.h"
#include "nn_select_more.h"
#include "nn_autocast.h"

/* ------------------------------------------------------------- helpers */

#define wrap0 nn_select_wrap_dim

nn_tensor *nn_plain_as(nn_tensor *t, nn_dtype dt)
{
    nn_tensor *c = NULL;
    NN_WITH_GRAD_MODE(false, {
        nn_tensor *x = nn_to_dtype(t, dt);
        c = x ? nn_contiguous(x) : NULL;
        NN_RELEASE(x);
    });
    return c;
}

static void along(const nn_tensor *t, int d, int64_t *outer, int64_t *len, int64_t *inner)
{
    *outer = *inner = 1;
    *len = t->ndim ? t->sizes[d] : 1;
    for (int i = 0; i < d; i++) *outer *= t->sizes[i];
    for (int i = d + 1; i < t->ndim; i++) *inner *= t->sizes[i];
}

/* t's shape with dim d dropped (or kept as 1); returns the ndim. */
static int reduced_shape(const nn_tensor *t, int d, bool keepdim, int64_t *sizes)
{
    int n = 0;
    for (int i = 0; i < t->ndim; i++) {
        if (i == d && !keepdim) continue;
        sizes[n++] = i == d ? 1 : t->sizes[i];
    }
    return n;
}

/* --------------------------------------------------------------- prod */

nn_tensor *nn_prod(nn_tensor *a, bool has_dim, int dim, bool keepdim, int dtype)
{
    NN_AUTOCAST(FP32, nn_prod(ac_[0], has_dim, dim, keepdim, dtype), a);
    nn_dtype dt = dtype >= 0 ? (nn_dtype)dtype : nn_dtype_is_floating(a->dtype) ? a->dtype : NN_INT64;
    if (nn_refuse_half("prod_cpu", dt, true) < 0) return NULL;
    int d = 0;
    if (has_dim && wrap0(dim, a, &d) < 0) return NULL;
    nn_tensor *c = nn_plain_as(a, dt);
    if (!c) return NULL;
    int64_t outer, len, inner, sizes[NN_MAX_DIMS];
    int ndim = 0;
    if (has_dim) {
        along(c, d, &outer, &len, &inner);
        ndim = reduced_shape(c, d, keepdim || a->ndim == 0, sizes);
        if (a->ndim == 0) ndim = 0;
    } else {
        outer = inner = 1;
        len = nn_numel(c);
    }
    nn_tensor *out = nn_empty_on(nn_device_of(c), ndim, sizes, dt);
    if (out && dt == NN_FLOAT32 && nn_device_of(c).type == NN_CPU) { /* PyTorch's order (cpu/sum_iter.c) */
        nn_tensor *x = a->dtype == NN_FLOAT32 ? a : c;
        double bits = 0; /* the reduced dims (a 0-dim tensor as one element) */
        for (int i = 0; i < x->ndim; i++)
            if (!has_dim || i == d) bits += (double)(1 << i);
        if (NN_KERNEL(nn_backend_of(x), reduce, (NN_REDUCE_PROD_STRIDED_F32, x, outer, len, bits, out, NULL)) < 0)
            NN_SET(out, NULL);
    } else if (out) {
        nn_kernel_args ka = {.t = {out, c}, .i = {outer, len, inner}};
        if (NN_KERNEL(nn_backend_of(c), index, (NN_INDEX_PROD, &ka)) < 0) NN_SET(out, NULL);
    }
    if (out) {
        nn_op_params p = {.i = {d, keepdim}, .n_i = 2};
        nn_tensor *save[2] = {a, out};
        if (nn_record(has_dim ? NN_OP_prod_dim : NN_OP_prod_all, 1, &a, 1, &out, 2, save, &p) < 0) NN_SET(out, NULL);
    }
    NN_RELEASE(c);
    return out;
}

/* prod_safe_zeros_backward: grad times the product of every other element
   along d, as exclusive cumprods from both ends. */
static nn_tensor *prod_safe_zeros(nn_scratch *s, nn_tensor *grad, nn_tensor *inp, int d)
{
    int64_t n = inp->sizes[d], one[NN_MAX_DIMS];
    memcpy(one, inp->sizes, sizeof(int64_t) * (size_t)inp->ndim);
    one[d] = 1;
    nn_tensor *ones = NN_KEEP(s, nn_ones_on(nn_device_of(inp), inp->ndim, one, inp->dtype));
    nn_tensor *head = NN_KEEP(s, nn_narrow(inp, d, 0, n - 1));
    nn_tensor *l = NN_KEEP(s, nn_cat(2, (nn_tensor *[]){ones, head}, d));
    nn_tensor *lc = NN_KEEP(s, nn_cumprod(l, d, -1));
    nn_tensor *tail = NN_KEEP(s, nn_narrow(inp, d, 1, n - 1));
    nn_tensor *tf = NN_KEEP(s, nn_flip(tail, 1, &d));
    nn_tensor *r = NN_KEEP(s, nn_cat(2, (nn_tensor *[]){ones, tf}, d));
    nn_tensor *rc = NN_KEEP(s, nn_cumprod(r, d, -1));
    nn_tensor *rf = NN_KEEP(s, nn_flip(rc, 1, &d));
    nn_tensor *both = NN_KEEP(s, nn_mul(lc, rf));
    return NN_KEEP(s, nn_mul(grad, both));
}

static int64_t count_zeros(nn_tensor *t)
{
    nn_tensor *c = nn_plain_as(t, NN_FLOAT64);
    if (!c) return -1;
    nn_kernel_args ka = {.t = {NULL, c}};
    int64_t z = NN_KERNEL(nn_backend_of(c), index, (NN_INDEX_COUNT_SET, &ka)) < 0 ? -1 : nn_numel(c) - (int64_t)ka.host[0];
    NN_RELEASE(c);
    return z;
}

static int prod_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin, bool has_dim)
{
    if (!gout[0]) return 0;
    nn_tensor *in = nn_node_saved(n, 0), *res = nn_node_saved(n, 1), *g = gout[0];
    if (in->ndim == 0) {
        gin[0] = (nn_tensor *)nn_retain(&g->ob);
        return 0;
    }
    int d = (int)n->p.i[0];
    nn_scratch s = {0};
    if (has_dim && !n->p.i[1]) {
        g = NN_KEEP(&s, nn_unsqueeze(g, d));
        res = NN_KEEP(&s, nn_unsqueeze(res, d));
    }
    int64_t zeros = s.failed ? -1 : count_zeros(in);
    nn_tensor *r = NULL;
    if (zeros == 0) {
        nn_tensor *q = NN_KEEP(&s, nn_div(res, in));
        r = NN_KEEP(&s, nn_mul(g, q));
    } else if (zeros > 0 && has_dim) {
        r = prod_safe_zeros(&s, g, in, d);
    } else if (zeros > 0) {
        nn_tensor *c = NN_KEEP(&s, nn_contiguous(in));
        nn_tensor *flat = NN_KEEP(&s, nn_reshape(c, 1, (int64_t[]){-1}));
        nn_tensor *f = flat ? prod_safe_zeros(&s, g, flat, 0) : NULL;
        r = NN_KEEP(&s, f ? nn_reshape(f, in->ndim, in->sizes) : NULL);
    }
    if (r) NN_RETAIN(r);
    nn_scratch_free(&s);
    gin[0] = r;
    return r ? 0 : -1;
}

int nn_prod_all_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return prod_backward(n, gout, gin, false); }
int nn_prod_dim_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return prod_backward(n, gout, gin, true); }

/* --------------------------------------------------------- amax / amin */

static nn_tensor *extreme_dims(nn_tensor *a, int n_dims, const int *dims, bool keepdim, bool is_max)
{
    const char *name = is_max ? "amax" : "amin";
    if (n_dims == 0 && nn_numel(a) == 0) {
        nn_error_set(NN_ERR_RUNTIME,
                     "%s(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim "
                     "with the 'dim' argument.",
                     name);
        return NULL;
    }
    nn_reduction_layout l;
    if (nn_reduction_layout_make(a, n_dims, dims, keepdim, &l) < 0) return NULL;
    if (l.inner == 0 && nn_numel(a) == 0 && l.outer != 0) {
        int zd = 0;
        for (int d = 0; d < a->ndim; d++)
            if (l.reduced[d] && a->sizes[d] == 0) {
                zd = d;
                break;
            }
        NN_RELEASE(l.data);
        nn_error_set(NN_ERR_INDEX, "%s(): Expected reduction dim %d to have non-zero size.", name, zd);
        return NULL;
    }
    nn_tensor *out = nn_empty_on(nn_device_of(l.data), l.out_ndim, l.out_shape, a->dtype);
    nn_kernel_args ka = {.t = {out, l.data}, .i = {l.outer, l.inner, is_max}};
    if (out && NN_KERNEL(nn_backend_of(l.data), index, (NN_INDEX_EXTREME, &ka)) < 0) NN_SET(out, NULL);
    if (out) {
        nn_op_params p = {0};
        nn_reduction_params(&l, keepdim, a->ndim, &p);
        nn_tensor *save[2] = {a, out};
        if (nn_record(is_max ? NN_OP_amax : NN_OP_amin, 1, &a, 1, &out, 2, save, &p) < 0) NN_SET(out, NULL);
    }
    NN_RELEASE(l.data);
    return out;
}

nn_tensor *nn_amax(nn_tensor *a, int n_dims, const int *dims, bool keepdim)
{
    return extreme_dims(a, n_dims, dims, keepdim, true);
}
nn_tensor *nn_amin(nn_tensor *a, int n_dims, const int *dims, bool keepdim)
{
    return extreme_dims(a, n_dims, dims, keepdim, false);
}

/* scale_grad_by_count: grad / (how many equal the result in its group) at
   each element equal to it. */
static int extreme_dims_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    nn_tensor *in = nn_node_saved(n, 0), *res = nn_node_saved(n, 1);
    int dims[NN_MAX_DIMS], nd = 0;
    for (int d = 0; d < in->ndim; d++)
        if (n->p.i[d]) dims[nd++] = d;
    nn_scratch s = {0};
    nn_tensor *g = NN_KEEP(&s, nn_reduction_grad_expand(n, gout[0]));
    nn_tensor *r = NN_KEEP(&s, nn_reduction_grad_expand(n, res));
    nn_tensor *mask = NN_KEEP(&s, nn_compare(r, in, NN_EQ));
    nn_tensor *m = NN_KEEP(&s, nn_to_dtype(mask, g ? g->dtype : NN_FLOAT32));
    nn_tensor *count = NN_KEEP(&s, in->ndim ? nn_sum(m, nd, dims, true) : nn_clone(m));
    nn_tensor *share = NN_KEEP(&s, nn_div(g, count));
    nn_tensor *out = NN_KEEP(&s, nn_mul(share, m));
    if (out) NN_RETAIN(out);
    nn_scratch_free(&s);
    gin[0] = out;
    return out ? 0 : -1;
}

int nn_amax_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return extreme_dims_backward(n, gout, gin); }
int nn_amin_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return extreme_dims_backward(n, gout, gin); }

/* ------------------------------------------------------ median / mode */

nn_tensor *nn_median_all(nn_tensor *a)
{
    if (nn_refuse_half("median_cpu", a->dtype, false) < 0) return NULL;
    int64_t n = nn_numel(a);
    nn_tensor *c = nn_plain_as(a, a->dtype);
    nn_tensor *out = c ? nn_empty_on(nn_device_of(c), 0, NULL, a->dtype) : NULL;
    nn_kernel_args ka = {.t = {out, NULL, c}, .i = {1, n, 1}};
    if (out && NN_KERNEL(nn_backend_of(c), index, (NN_INDEX_MEDIAN, &ka)) < 0) NN_SET(out, NULL);
    if (out) {
        nn_tensor *save[2] = {a, out};
        if (nn_record(NN_OP_median_all, 1, &a, 1, &out, 2, save, NULL) < 0) NN_SET(out, NULL);
    }
    NN_RELEASE(c);
    return out;
}

/* evenly_distribute_backward: grad / (how many equal the result) to each of
   them (to the NaNs when the result is NaN). */
int nn_median_all_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    nn_tensor *in = nn_node_saved(n, 0), *res = nn_node_saved(n, 1);
    double v = 0;
    if (nn_item(res, &v) < 0) return -1;
    nn_scratch s = {0};
    nn_tensor *mask = NN_KEEP(&s, isnan(v) ? nn_compare(in, in, NN_NE) : nn_compare(in, res, NN_EQ));
    nn_tensor *count = NN_KEEP(&s, nn_sum(mask, 0, NULL, false));
    nn_tensor *share = NN_KEEP(&s, nn_div(gout[0], count));
    nn_tensor *zero = NN_KEEP(&s, nn_scalar(0.0, share ? share->dtype : NN_FLOAT32));
    nn_tensor *out = NN_KEEP(&s, nn_where(mask, share, zero));
    if (out) NN_RETAIN(out);
    nn_scratch_free(&s);
    gin[0] = out;
    return out ? 0 : -1;
}

/* median (is_mode false) or mode along d of each row */
static int select_rows(nn_tensor *a, int dim, bool keepdim, bool is_mode, nn_tensor **values, nn_tensor **indices)
{
    *values = *indices = NULL;
    const char *name = is_mode ? "mode" : "median";
    int d = 0;
    if (!is_mode && nn_refuse_half("median_out", a->dtype, false) < 0) return -1;
    if (wrap0(dim, a, &d) < 0) return -1;
    if (a->ndim > 0 && a->sizes[d] == 0)
        return nn_error_set(NN_ERR_INDEX, "%s(): Expected reduction dim %d to have non-zero size.", name, d);
    nn_tensor *c = nn_plain_as(a, a->dtype);
    if (!c) return -1;
    int64_t outer, len, inner, sizes[NN_MAX_DIMS];
    along(c, d, &outer, &len, &inner);
    int ndim = a->ndim ? reduced_shape(c, d, keepdim, sizes) : 0;
    nn_device dev = nn_device_of(c);
    nn_tensor *v = nn_empty_on(dev, ndim, sizes, a->dtype), *ix = v ? nn_empty_on(dev, ndim, sizes, NN_INT64) : NULL;
    nn_kernel_args ka = {.t = {v, ix, c}, .i = {outer, len, inner}};
    if (!ix || NN_KERNEL(nn_backend_of(c), index, (is_mode ? NN_INDEX_MODE : NN_INDEX_MEDIAN, &ka)) < 0) {
        NN_RELEASE(c);
        NN_RELEASE(v);
        NN_RELEASE(ix);
        return -1;
    }
    NN_RELEASE(c);
    if (nn_record_selecting(is_mode ? NN_OP_mode : NN_OP_median_dim, a, v, ix, d, keepdim) < 0) {
        NN_RELEASE(v);
        NN_RELEASE(ix);
        return -1;
    }
    *values = v;
    *indices = ix;
    return 0;
}

int nn_median_dim(nn_tensor *a, int dim, bool keepdim, nn_tensor **values, nn_tensor **indices)
{
    return select_rows(a, dim, keepdim, false, values, indices);
}
int nn_mode(nn_tensor *a, int dim, bool keepdim, nn_tensor **values, nn_tensor **indices)
{
    return select_rows(a, dim, keepdim, true, values, indices);
}
int nn_median_dim_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return nn_selecting_backward(n, gout, gin); }
int nn_mode_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return nn_selecting_backward(n, gout, gin); }

/* ----------------------------------------------------------- diagonals */

/* The diagonal's geometry: sizes/strides of the view and its offset. */
static int diagonal_geometry(const nn_tensor *a, int64_t offset, int dim1, int dim2, int *d1, int *d2, int64_t *sizes,
                             int64_t *strides, int64_t *off)
{
    if (nn_wrap_dim(dim1, a->ndim, d1) < 0 || nn_wrap_dim(dim2, a->ndim, d2) < 0) return -1;
    if (*d1 == *d2) return nn_error_set(NN_ERR_RUNTIME, "diagonal dimensions cannot be identical %d, %d", dim1, dim2);
    int64_t s1 = a->sizes[*d1], s2 = a->sizes[*d2], n;
    n = offset >= 0 ? (s2 - offset < s1 ? s2 - offset : s1) : (s1 + offset < s2 ? s1 + offset : s2);
    if (n < 0) n = 0;
    *off = a->offset;
    if (n > 0) *off += offset >= 0 ? offset * a->strides[*d2] : -offset * a->strides[*d1];
    int k = 0;
    for (int i = 0; i < a->ndim; i++) {
        if (i == *d1 || i == *d2) continue;
        sizes[k] = a->sizes[i];
        strides[k++] = a->strides[i];
    }
    sizes[k] = n;
    strides[k] = a->strides[*d1] + a->strides[*d2];
    return 0;
}

/* The diagonal view of a without history (for writing into). */
static nn_tensor *raw_diagonal(nn_tensor *a, int64_t offset, int dim1, int dim2)
{
    int d1, d2;
    int64_t sizes[NN_MAX_DIMS], strides[NN_MAX_DIMS], off = 0;
    if (diagonal_geometry(a, offset, dim1, dim2, &d1, &d2, sizes, strides, &off) < 0) return NULL;
    return nn_tensor_new_view(a, a->ndim - 1, sizes, strides, off);
}

nn_tensor *nn_diagonal(nn_tensor *a, int64_t offset, int dim1, int dim2)
{
    if (a->ndim == 0) {
        nn_error_set(NN_ERR_INDEX, "Dimension out of range (expected to be in range of [-1, 0], but got %d)", dim1);
        return NULL;
    }
    int d1, d2;
    int64_t sizes[NN_MAX_DIMS], strides[NN_MAX_DIMS], off = 0;
    if (diagonal_geometry(a, offset, dim1, dim2, &d1, &d2, sizes, strides, &off) < 0) return NULL;
    nn_tensor *v = nn_tensor_new_view(a, a->ndim - 1, sizes, strides, off);
    if (!v) return NULL;
    nn_tensor *root = a->base ? a->base : a;
    NN_RETAIN(root);
    v->base = root;
    nn_op_params p = {.i = {offset, d1, d2}, .n_i = 3};
    if (nn_record(NN_OP_diagonal, 1, &a, 1, &v, 0, NULL, &p) < 0) NN_SET(v, NULL);
    return v;
}

nn_tensor *nn_unfold_dim(nn_tensor *a, int dim, int64_t size, int64_t step)
{
    int nd = a->ndim ? a->ndim : 1;
    if (dim < -nd || dim >= nd) {
        nn_error_set(NN_ERR_INDEX, "Dimension out of range (expected to be in range of [%d, %d], but got %d)", -nd, nd - 1, dim);
        return NULL;
    }
    if (dim < 0) dim += nd;
    int64_t length = a->ndim ? a->sizes[dim] : 1, stride = a->ndim ? a->strides[dim] : 1;
    if (size > length) {
        nn_error_set(NN_ERR_RUNTIME, "maximum size for tensor at dimension %d is %lld but size is %lld", dim,
                     (long long)length, (long long)size);
        return NULL;
    }
    if (step <= 0) {
        nn_error_set(NN_ERR_RUNTIME, "step is %lld but must be > 0", (long long)step);
        return NULL;
    }
    if (a->ndim + 1 > NN_MAX_DIMS) {
        nn_error_set(NN_ERR_RUNTIME, "unfold: too many dimensions");
        return NULL;
    }
    int64_t sizes[NN_MAX_DIMS], strides[NN_MAX_DIMS];
    memcpy(sizes, a->sizes, sizeof(int64_t) * (size_t)a->ndim);
    memcpy(strides, a->strides, sizeof(int64_t) * (size_t)a->ndim);
    int out_nd = a->ndim + 1;
    if (a->ndim) {
        sizes[dim] = (length - size) / step + 1;
        strides[dim] = stride * step;
    } else {
        out_nd = 1; /* a 0-dim tensor's one window */
    }
    sizes[out_nd - 1] = size;
    strides[out_nd - 1] = stride;
    nn_tensor *v = nn_tensor_new_view(a, out_nd, sizes, strides, a->offset);
    if (!v) return NULL;
    nn_tensor *root = a->base ? a->base : a;
    NN_RETAIN(root);
    v->base = root;
    nn_op_params p = {.i = {dim, size, step}, .n_i = 3};
    if (nn_record(NN_OP_unfold_dim, 1, &a, 1, &v, 0, NULL, &p) < 0) NN_SET(v, NULL);
    return v;
}

/* The input's gradient: each window's gradient added back where the window was, the
   windows in order (index_add over the positions the windows cover). */
int nn_unfold_dim_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    const nn_input_meta *m = &n->input_meta[0];
    int dim = (int)n->p.i[0];
    int64_t size = n->p.i[1], step = n->p.i[2];
    nn_tensor *g = gout[0];
    if (m->ndim == 0) {
        gin[0] = nn_reshape(g, 0, NULL);
        return gin[0] ? 0 : -1;
    }
    int64_t windows = g->sizes[dim];
    /* (..., windows, ..., size) -> (..., windows * size, ...): window w's element j at w * size + j */
    int perm[NN_MAX_DIMS], k = 0;
    for (int d = 0; d < g->ndim - 1; d++) {
        perm[k++] = d;
        if (d == dim) perm[k++] = g->ndim - 1;
    }
    int64_t flat[NN_MAX_DIMS];
    for (int d = 0; d < m->ndim; d++) flat[d] = d == dim ? windows * size : m->sizes[d];
    nn_tensor *moved = nn_permute(g, g->ndim, perm);
    nn_tensor *src = moved ? nn_reshape(moved, m->ndim, flat) : NULL;
    nn_tensor *index = nn_empty_on(nn_device_of(g), 1, (int64_t[]){windows * size}, NN_INT64);
    nn_tensor *zeros = index ? nn_zeros_on(nn_device_of(g), m->ndim, m->sizes, g->dtype) : NULL;
    if (zeros) {
        int64_t count = windows * size;
        int64_t *pos = nn_malloc(sizeof(int64_t) * (size_t)(count > 0 ? count : 1));
        if (pos) {
            for (int64_t w = 0; w < windows; w++)
                for (int64_t j = 0; j < size; j++) pos[w * size + j] = w * step + j;
            if (nn_host_write(index, pos) < 0) NN_SET(zeros, NULL);
            nn_free(pos);
        } else {
            NN_SET(zeros, NULL);
        }
    }
    gin[0] = zeros && src ? nn_index_add(zeros, dim, index, src, 1.0) : NULL;
    NN_RELEASE(moved);
    NN_RELEASE(src);
    NN_RELEASE(index);
    NN_RELEASE(zeros);
    return gin[0] ? 0 : -1;
}

/* zeros shaped like input 0 with g written on its diagonal */
static nn_tensor *zeros_with_diagonal(const nn_input_meta *m, nn_tensor *g, int64_t offset, int d1, int d2)
{
    nn_tensor *z = nn_zeros_on(nn_device_of(g), m->ndim, m->sizes, g->dtype);
    nn_tensor *dv = z ? raw_diagonal(z, offset, d1, d2) : NULL;
    int rc = dv ? nn_copy_(dv, g) : -1;
    NN_RELEASE(dv);
    if (rc < 0) NN_SET(z, NULL);
    return z;
}

int nn_diagonal_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    const nn_input_meta *m = &n->input_meta[0];
    if (nn_grad_enabled() && gout[0]->requires_grad) {
        /* create_graph: differentiable, as 1.13's DiagonalBackwardBackward0 (diag_embed when it has the input's shape) */
        nn_tensor *r = nn_diag_embed(gout[0], n->p.i[0], (int)n->p.i[1], (int)n->p.i[2]);
        if (!r) return -1;
        if (r->ndim == m->ndim && memcmp(r->sizes, m->sizes, sizeof(int64_t) * (size_t)m->ndim) == 0) {
            if (r->grad_fn && nn_node_set_name(r->grad_fn, "DiagonalBackwardBackward0") < 0) {
                NN_RELEASE(r);
                return -1;
            }
            gin[0] = r;
            return 0;
        }
        NN_RELEASE(r);
    }
    gin[0] = zeros_with_diagonal(m, gout[0], n->p.i[0], (int)n->p.i[1], (int)n->p.i[2]);
    return gin[0] ? 0 : -1;
}

nn_tensor *nn_diag(nn_tensor *a, int64_t diagonal)
{
    if (nn_refuse_half("diag", a->dtype, false) < 0) return NULL;
    if (a->ndim != 1 && a->ndim != 2) {
        nn_error_set(NN_ERR_RUNTIME, "matrix or a vector expected");
        return NULL;
    }
    nn_tensor *out = NULL;
    if (a->ndim == 1) {
        int64_t n = a->sizes[0] + (diagonal < 0 ? -diagonal : diagonal);
        out = nn_zeros_on(nn_device_of(a), 2, (int64_t[]){n, n}, a->dtype);
        nn_tensor *dv = out ? raw_diagonal(out, diagonal, 0, 1) : NULL;
        int rc = -1;
        if (dv) NN_WITH_GRAD_MODE(false, rc = nn_copy_(dv, a));
        NN_RELEASE(dv);
        if (rc < 0) NN_SET(out, NULL);
    } else {
        nn_tensor *dv = raw_diagonal(a, diagonal, 0, 1);
        if (dv) NN_WITH_GRAD_MODE(false, out = nn_clone(dv));
        NN_RELEASE(dv);
    }
    nn_op_params p = {.i = {diagonal}, .n_i = 1};
    if (out && nn_record(NN_OP_diag, 1, &a, 1, &out, 0, NULL, &p) < 0) NN_SET(out, NULL);
    return out;
}

int nn_diag_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    const nn_input_meta *m = &n->input_meta[0];
    if (m->ndim == 1) {
        nn_tensor *dv = nn_diagonal(gout[0], n->p.i[0], 0, 1);
        gin[0] = dv ? nn_clone(dv) : NULL;
        NN_RELEASE(dv);
    } else {
        gin[0] = zeros_with_diagonal(m, gout[0], n->p.i[0], 0, 1);
    }
    return gin[0] ? 0 : -1;
}

nn_tensor *nn_diag_embed(nn_tensor *a, int64_t offset, int dim1, int dim2)
{
    int nd = a->ndim + 1, d1, d2;
    if (nn_wrap_dim(dim1, nd, &d1) < 0 || nn_wrap_dim(dim2, nd, &d2) < 0) return NULL;
    if (d1 == d2) {
        nn_error_set(NN_ERR_RUNTIME, "diagonal dimensions cannot be identical %d, %d", dim1, dim2);
        return NULL;
    }
    int64_t n = (a->ndim ? a->sizes[a->ndim - 1] : 1) + (offset < 0 ? -offset : offset), sizes[NN_MAX_DIMS];
    int lo = d1 < d2 ? d1 : d2, hi = d1 < d2 ? d2 : d1;
    for (int i = 0, k = 0; i < nd; i++) sizes[i] = i == lo || i == hi ? n : a->sizes[k++];
    nn_tensor *out = nn_zeros_on(nn_device_of(a), nd, sizes, a->dtype);
    nn_tensor *dv = out ? raw_diagonal(out, offset, d1, d2) : NULL;
    int rc = -1;
    if (dv) NN_WITH_GRAD_MODE(false, rc = nn_copy_(dv, a));
    NN_RELEASE(dv);
    nn_op_params p = {.i = {offset, d1, d2}, .n_i = 3};
    if (rc < 0 || nn_record(NN_OP_diag_embed, 1, &a, 1, &out, 0, NULL, &p) < 0) NN_SET(out, NULL);
    return out;
}

int nn_diag_embed_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    nn_tensor *dv = nn_diagonal(gout[0], n->p.i[0], (int)n->p.i[1], (int)n->p.i[2]);
    gin[0] = dv ? nn_clone(dv) : NULL;
    NN_RELEASE(dv);
    return gin[0] ? 0 : -1;
}

/* ----------------------------------------------------------- index_add */

nn_tensor *nn_index_add(nn_tensor *a, int dim, nn_tensor *index, nn_tensor *src, double alpha)
{
    int d = 0;
    if (wrap0(dim, a, &d) < 0) return NULL;
    if (index->ndim > 1) {
        char s[256];
        nn_error_set(NN_ERR_INDEX, "index_add_(): Index is supposed to be a vector, but got dim: %d with type: %s and size: %s",
                     index->ndim, nn_dtype_scalar_name(index->dtype), nn_shape_str(index->ndim, index->sizes, s, sizeof s));
        return NULL;
    }
    if (index->dtype != NN_INT64 && index->dtype != NN_INT32) {
        nn_error_set(NN_ERR_RUNTIME, "index_add_(): Expected dtype int32/int64 for index but got: %s",
                     nn_dtype_scalar_name(index->dtype));
        return NULL;
    }
    if (src->dtype != a->dtype) {
        nn_error_set(NN_ERR_RUNTIME, "index_add_(): self (%s) and source (%s) must have the same scalar type",
                     nn_dtype_scalar_name(a->dtype), nn_dtype_scalar_name(src->dtype));
        return NULL;
    }
    int64_t k = nn_numel(index);
    if ((src->ndim ? src->sizes[d] : 1) != k) {
        nn_error_set(NN_ERR_RUNTIME,
                     "index_add_(): Number of indices (%lld) should be equal to source.size(dim): (%lld), for dim: %d",
                     (long long)k, (long long)(src->ndim ? src->sizes[d] : 1), d);
        return NULL;
    }
    if (src->ndim != a->ndim && !(a->ndim == 0 && src->ndim <= 1)) {
        char s1[256], s2[256];
        nn_error_set(NN_ERR_RUNTIME,
                     "source tensor shape must match self tensor shape, excluding the specified dimension. Got "
                     "self.shape = %s source.shape = %s",
                     nn_shape_str(a->ndim, a->sizes, s1, sizeof s1), nn_shape_str(src->ndim, src->sizes, s2, sizeof s2));
        return NULL;
    }
    for (int i = 0; i < a->ndim; i++)
        if (i != d && src->sizes[i] != a->sizes[i]) {
            nn_error_set(NN_ERR_RUNTIME,
                         "The size of tensor a (%lld) must match the size of tensor b (%lld) at non-singleton dimension %d",
                         (long long)a->sizes[i], (long long)src->sizes[i], i - (i > d));
            return NULL;
        }
    nn_tensor *ic = nn_plain_as(index, NN_INT64), *sc = ic ? nn_plain_as(src, a->dtype) : NULL;
    nn_tensor *base = sc ? nn_plain_as(a, a->dtype) : NULL, *out = NULL;
    if (base) NN_WITH_GRAD_MODE(false, out = nn_clone(base)); /* never write into a */
    NN_RELEASE(base);
    int64_t outer = 0, len = 0, inner = 0;
    if (out) along(out, d, &outer, &len, &inner);
    nn_kernel_args ka = {.t = {out, sc, ic}, .i = {outer, len, inner}, .d = {alpha}};
    if (out && NN_KERNEL(nn_backend_of(out), index, (NN_INDEX_ADD, &ka)) < 0) NN_SET(out, NULL);
    if (out) {
        nn_op_params p = {.i = {d}, .n_i = 1, .f = {alpha}};
        nn_tensor *ins[2] = {a, src};
        if (nn_record(NN_OP_index_add, 2, ins, 1, &out, 1, &ic, &p) < 0) NN_SET(out, NULL);
    }
    NN_RELEASE(ic);
    NN_RELEASE(sc);
    return out;
}

int nn_index_add_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    const nn_input_meta *sm = &n->input_meta[1];
    gin[0] = (nn_tensor *)nn_retain(&gout[0]->ob);
    nn_scratch s = {0};
    nn_tensor *g = gout[0];
    if (g->ndim == 0) g = NN_KEEP(&s, nn_reshape(g, 1, (int64_t[]){1}));
    nn_tensor *sel = NN_KEEP(&s, g ? nn_index_select(g, (int)n->p.i[0], nn_node_saved(n, 0)) : NULL);
    nn_tensor *sc = n->p.f[0] == 1 ? sel : NN_KEEP(&s, nn_mul_scalar(sel, n->p.f[0]));
    nn_tensor *r = NN_KEEP(&s, sc ? nn_reshape(sc, sm->ndim, sm->sizes) : NULL);
    if (r) NN_RETAIN(r);
    nn_scratch_free(&s);
    gin[1] = r;
    return r ? 0 : -1;
}

/* ------------------------------------------------------------- aminmax */

int nn_aminmax(nn_tensor *a, bool has_dim, int dim, bool keepdim, nn_tensor **min, nn_tensor **max)
{
    *min = *max = NULL;
    if (!has_dim && nn_numel(a) == 0)
        return nn_error_set(NN_ERR_RUNTIME, "aminmax(): cannot compute aminmax over an empty dimension as the "
                                            "operation has no identity.");
    nn_tensor *lo = NULL, *hi = NULL;
    NN_WITH_GRAD_MODE(false, {
        lo = nn_amin(a, has_dim, &dim, keepdim);
        hi = lo ? nn_amax(a, has_dim, &dim, keepdim) : NULL;
    });
    nn_tensor *outs[2] = {lo, hi};
    /* recorded as PyTorch 1.13 records it: without a derivative */
    if (!hi || nn_record(NN_OP_aminmax, 1, &a, 2, outs, 0, NULL, NULL) < 0) {
        NN_RELEASE(lo);
        NN_RELEASE(hi);
        return -1;
    }
    *min = lo;
    *max = hi;
    return 0;
}

int nn_aminmax_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    return nn_error_set(NN_ERR_RUNTIME, "derivative for aten::aminmax is not implemented");
}

/* ------------------------------------------------------- scatter reduce */

/* scatter(a, dim, index, src or value, reduce='add'|'multiply'): a copy of a
   with each src element (or the value) added into / multiplied onto the place
   index names. Recorded without a derivative, as PyTorch 1.13. */
nn_tensor *nn_scatter_reduce_op(nn_tensor *a, int dim, nn_tensor *index, nn_tensor *src, double value, bool multiply)
{
    int d = 0;
    if (wrap0(dim, a, &d) < 0) return NULL;
    if (index->dtype != NN_INT64) {
        nn_error_set(NN_ERR_RUNTIME, "scatter(): Expected dtype int64 for index");
        return NULL;
    }
    if (index->ndim != (a->ndim ? a->ndim : 1) && !(a->ndim == 0 && index->ndim == 0)) {
        nn_error_set(NN_ERR_RUNTIME, "Index tensor must have the same number of dimensions as self tensor");
        return NULL;
    }
    if (src && src->ndim != index->ndim) {
        nn_error_set(NN_ERR_RUNTIME, "Index tensor must have the same number of dimensions as src tensor");
        return NULL;
    }
    for (int i = 0; i < index->ndim; i++)
        if ((src && index->sizes[i] > src->sizes[i]) || (i != d && a->ndim && index->sizes[i] > a->sizes[i])) {
            char s1[256], s2[256];
            nn_error_set(NN_ERR_RUNTIME, "Expected index %s to be smaller than self %s apart from dimension %d%s%s",
                         nn_shape_str(index->ndim, index->sizes, s1, sizeof s1),
                         nn_shape_str(a->ndim, a->sizes, s2, sizeof s2), d, src ? " and to be smaller size than src " : "",
                         src ? nn_shape_str(src->ndim, src->sizes, (char[256]){0}, 256) : "");
            return NULL;
        }
    if (src && src->dtype != a->dtype) {
        nn_error_set(NN_ERR_RUNTIME, "scatter(): Expected self.dtype to be equal to src.dtype");
        return NULL;
    }
    nn_tensor *ic = nn_plain_as(index, NN_INT64), *sc = ic && src ? nn_plain_as(src, a->dtype) : NULL;
    nn_tensor *base = ic && (!src || sc) ? nn_plain_as(a, a->dtype) : NULL, *out = NULL;
    if (base) NN_WITH_GRAD_MODE(false, out = nn_clone(base));
    NN_RELEASE(base);
    nn_kernel_args ka = {.t = {out, ic, sc}, .i = {d, multiply}, .d = {value}};
    if (out && NN_KERNEL(nn_backend_of(out), index, (NN_INDEX_SCATTER_COMBINE, &ka)) < 0) NN_SET(out, NULL);
    if (out) {
        nn_tensor *ins[2] = {a, src};
        if (out && nn_record(NN_OP_scatter_reduce, src ? 2 : 1, ins, 1, &out, 0, NULL, NULL) < 0) NN_SET(out, NULL);
    }
    NN_RELEASE(ic);
    NN_RELEASE(sc);
    return out;
}

int nn_scatter_reduce_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    return nn_error_set(NN_ERR_RUNTIME, "derivative for aten::scatter is not implemented");
}

/* ---------------------------------------------------------- as_strided */

nn_tensor *nn_as_strided(nn_tensor *a, int ndim, const int64_t *sizes, const int64_t *strides, int64_t offset)
{
    if (offset == INT64_MIN) offset = a->offset;
    for (int d = 0; d < ndim; d++)
        if (strides[d] < 0) {
            char s[256];
            nn_error_set(NN_ERR_RUNTIME, "as_strided: Negative strides are not supported at the moment, got strides: %s",
                         nn_shape_str(ndim, strides, s, sizeof s));
            return NULL;
        }
    for (int d = 0; d < ndim; d++)
        if (sizes[d] < 0) {
            char s1[256], s2[256];
            nn_error_set(NN_ERR_RUNTIME, "Storage size calculation overflowed with sizes=%s and strides=%s",
                         nn_shape_str(ndim, sizes, s1, sizeof s1), nn_shape_str(ndim, strides, s2, sizeof s2));
            return NULL;
        }
    nn_tensor *checked = nn_storage_view_as(a, ndim, sizes, strides, offset); /* setStorage's bounds and errors */
    if (!checked) return NULL;
    NN_RELEASE(checked);
    nn_tensor *v = nn_tensor_new_view(a, ndim, sizes, strides, offset);
    if (!v) return NULL;
    nn_tensor *root = a->base ? a->base : a;
    NN_RETAIN(root);
    v->base = root;
    /* the input's strides and offset, then the view's strides and offset */
    nn_op_params p = {.n_i = 2 * NN_MAX_DIMS + 2};
    memcpy(p.i, a->strides, sizeof(int64_t) * (size_t)a->ndim);
    p.i[NN_MAX_DIMS] = a->offset;
    memcpy(p.i + NN_MAX_DIMS + 1, strides, sizeof(int64_t) * (size_t)ndim);
    p.i[2 * NN_MAX_DIMS + 1] = offset;
    if (nn_record(NN_OP_as_strided, 1, &a, 1, &v, 0, NULL, &p) < 0) NN_SET(v, NULL);
    return v;
}

/* The storage positions (past base) of a geometry's elements in row-major order, into pos (numel long);
   the largest into *top. */
static void strided_positions(int ndim, const int64_t *sizes, const int64_t *strides, int64_t offset, int64_t *pos,
                              int64_t numel, int64_t *top)
{
    int64_t idx[NN_MAX_DIMS] = {0};
    for (int64_t k = 0; k < numel; k++) {
        int64_t at = offset;
        for (int d = 0; d < ndim; d++) at += idx[d] * strides[d];
        pos[k] = at;
        if (at > *top) *top = at;
        for (int d = ndim - 1; d >= 0 && ++idx[d] == sizes[d]; d--) idx[d] = 0;
    }
}

static nn_tensor *index_tensor(nn_device dev, const int64_t *pos, int64_t n)
{
    nn_tensor *t = nn_empty_on(dev, 1, &n, NN_INT64);
    if (t && n && nn_host_write(t, pos) < 0) NN_SET(t, NULL);
    return t;
}

/* ATen's as_strided_backward: the gradient added into a buffer over the storage both geometries reach, at
   the view's places, then read at the input's places (divided by how often the input reaches each one). */
int nn_as_strided_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    const nn_input_meta *m = &n->input_meta[0];
    nn_tensor *g = gout[0];
    const int64_t *in_strides = n->p.i, *out_strides = n->p.i + NN_MAX_DIMS + 1;
    int64_t in_off = n->p.i[NN_MAX_DIMS], out_off = n->p.i[2 * NN_MAX_DIMS + 1];
    int64_t low = in_off < out_off ? in_off : out_off, in_n = 1, out_n = 1, top = 0;
    for (int d = 0; d < m->ndim; d++) in_n *= m->sizes[d];
    for (int d = 0; d < g->ndim; d++) out_n *= g->sizes[d];
    int64_t *in_pos = nn_malloc(sizeof(int64_t) * (size_t)(in_n + out_n + 1)), *out_pos = in_pos ? in_pos + in_n : NULL;
    if (!in_pos) return -1;
    strided_positions(m->ndim, m->sizes, in_strides, in_off - low, in_pos, in_n, &top);
    strided_positions(g->ndim, g->sizes, out_strides, out_off - low, out_pos, out_n, &top);
    int64_t buf_n = top + 1, *count = nn_calloc((size_t)buf_n, sizeof(int64_t));
    bool overlap = false;
    for (int64_t k = 0; count && k < in_n; k++) overlap |= ++count[in_pos[k]] > 1;
    nn_device dev = nn_device_of(g);
    nn_scratch s = {0};
    nn_tensor *flat_g = NN_KEEP(&s, nn_reshape(g, 1, &out_n));
    nn_tensor *buf = NN_KEEP(&s, nn_zeros_on(dev, 1, &buf_n, g->dtype));
    nn_tensor *oi = NN_KEEP(&s, index_tensor(dev, out_pos, out_n)), *ii = NN_KEEP(&s, index_tensor(dev, in_pos, in_n));
    if (!count) s.failed = true;
    nn_tensor *summed = s.failed ? NULL : NN_KEEP(&s, nn_index_add(buf, 0, oi, flat_g, 1.0));
    nn_tensor *r = summed ? NN_KEEP(&s, nn_index_select(summed, 0, ii)) : NULL;
    if (r && overlap) { /* each place's share */
        for (int64_t k = 0; k < in_n; k++) in_pos[k] = count[in_pos[k]];
        nn_tensor *c = NN_KEEP(&s, nn_empty_on(dev, 1, &in_n, NN_INT64));
        if (c && nn_host_write(c, in_pos) < 0) s.failed = true;
        r = s.failed ? NULL : NN_KEEP(&s, nn_div(r, c));
    }
    gin[0] = r && !s.failed ? nn_reshape(r, m->ndim, m->sizes) : NULL;
    nn_scratch_free(&s);
    nn_free(count);
    nn_free(in_pos);
    return gin[0] ? 0 : -1;
}
