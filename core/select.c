/*
 * select.c — sorting, scans and index-driven selection along a dim: sort,
 * topk, kthvalue, cumsum, cumprod, flip, roll, tril/triu, gather, scatter
 * (tensor or number source), scatter_add, index_select and masked_select,
 * each forward with its backward beside it.
 *
 * Kernels work on a contiguous copy seen as [outer, len, inner] around the
 * dim; moves copy element bytes, so every dtype keeps its bits. Sorting is
 * stable, NaN above everything (PyTorch's order; its unstable std::sort may
 * order equal keys differently on rows longer than 16). cumsum/cumprod
 * accumulate in double for floating dtypes and in int64 for integers, as
 * ATen's CPU scan (acc_type) does. Backwards are built from these ops
 * (scatter_add, gather, flip, roll, ...), so they are differentiable again.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "nn_half.h"
#include "nn_int.h"
#include "nn_custom_fn.h"
#include "nn_select_more.h"

/* ------------------------------------------------------------- helpers */

typedef struct along {
    int64_t outer, len, inner;
} along;

static along along_dim(const nn_tensor *t, int d)
{
    along a = {1, t->ndim ? t->sizes[d] : 1, 1};
    for (int i = 0; i < d; i++) a.outer *= t->sizes[i];
    for (int i = d + 1; i < t->ndim; i++) a.inner *= t->sizes[i];
    return a;
}

/* A contiguous copy of t without history; new reference. */
static nn_tensor *plain(nn_tensor *t)
{
    nn_tensor *c = NULL;
    NN_WITH_GRAD_MODE(false, c = nn_contiguous(t));
    return c;
}

/* dim wrapped for t, where a 0-dim tensor takes dim 0 or -1 (PyTorch's wrap_dim). */
static int wrap(int dim, const nn_tensor *t, int *d)
{
    if (t->ndim == 0) {
        if (dim != 0 && dim != -1)
            return nn_error_set(NN_ERR_INDEX, "Dimension out of range (expected to be in range of [-1, 0], but got %d)",
                                dim);
        *d = 0;
        return 0;
    }
    return nn_wrap_dim(dim, t->ndim, d);
}

/* ---------------------------------------------------------------- sort */

/* The first `take` of each row of a sorted along dim d: values (the input's
   dtype and bits) and int64 indices, both of a's shape with d of size take. */
static int sorted_rows(nn_tensor *a, int d, bool desc, int64_t take, nn_tensor **values, nn_tensor **indices)
{
    nn_tensor *c = plain(a);
    if (!c) return -1;
    along g = along_dim(c, d);
    int64_t sizes[NN_MAX_DIMS];
    memcpy(sizes, a->sizes, sizeof(int64_t) * (size_t)a->ndim);
    if (a->ndim) sizes[d] = take;
    nn_device dev = nn_device_of(c);
    nn_tensor *v = nn_empty_on(dev, a->ndim, sizes, a->dtype), *ix = v ? nn_empty_on(dev, a->ndim, sizes, NN_INT64) : NULL;
    nn_kernel_args ka = {.t = {v, ix, c}, .i = {g.outer, g.len, g.inner, take, desc}};
    if (!ix || NN_KERNEL(nn_backend_of(c), index, (NN_INDEX_SORT, &ka)) < 0) {
        NN_RELEASE(c);
        NN_RELEASE(v);
        NN_RELEASE(ix);
        return -1;
    }
    NN_RELEASE(c);
    *values = v;
    *indices = ix;
    return 0;
}

/* Records a value-selecting op (sort, topk, kthvalue) on values; the backward
   scatters the gradient back by the saved indices. */
static int record_selecting(nn_op_id op, nn_tensor *a, nn_tensor *values, nn_tensor *indices, int d, bool keepdim)
{
    nn_op_params p = {0};
    p.i[0] = d;
    p.i[1] = keepdim;
    p.n_i = 2;
    return nn_record(op, 1, &a, 1, &values, 1, &indices, &p);
}

static int selecting_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    int d = (int)n->p.i[0];
    bool keepdim = n->p.i[1];
    const nn_input_meta *m = &n->input_meta[0];
    nn_tensor *idx = nn_node_saved(n, 0), *g = gout[0], *gu = NULL, *iu = NULL;
    if (!keepdim && m->ndim > 0) {
        gu = nn_unsqueeze(g, d);
        iu = nn_unsqueeze(idx, d);
        if (!gu || !iu) {
            NN_RELEASE(gu);
            NN_RELEASE(iu);
            return -1;
        }
        g = gu;
        idx = iu;
    }
    /* value_selecting_reduction_backward: zeros.scatter(dim, indices, grad) (ScatterBackward0) */
    nn_tensor *z = nn_zeros_on(nn_device_of(g), m->ndim, m->sizes, m->dtype);
    gin[0] = z ? nn_scatter(z, m->ndim ? d : 0, idx, g) : NULL;
    NN_RELEASE(z);
    NN_RELEASE(gu);
    NN_RELEASE(iu);
    return gin[0] ? 0 : -1;
}

int nn_sort(nn_tensor *a, int dim, bool descending, nn_tensor **values, nn_tensor **indices)
{
    int d = 0;
    if (wrap(dim, a, &d) < 0) return -1;
    if (sorted_rows(a, d, descending, a->ndim ? a->sizes[d] : 1, values, indices) < 0) return -1;
    if (record_selecting(NN_OP_sort, a, *values, *indices, d, true) < 0) {
        NN_SET(*values, NULL);
        NN_SET(*indices, NULL);
        return -1;
    }
    return 0;
}

int nn_sort_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return selecting_backward(n, gout, gin); }

int nn_topk(nn_tensor *a, int64_t k, int dim, bool largest, nn_tensor **values, nn_tensor **indices)
{
    int d = 0;
    if (nn_refuse_half("topk_cpu", a->dtype, false) < 0) return -1;
    if (wrap(dim, a, &d) < 0) return -1;
    int64_t len = a->ndim ? a->sizes[d] : 1;
    if (k < 0 || k > len) return nn_error_set(NN_ERR_RUNTIME, "selected index k out of range");
    if (sorted_rows(a, d, largest, k, values, indices) < 0) return -1;
    if (record_selecting(NN_OP_topk, a, *values, *indices, d, true) < 0) {
        NN_SET(*values, NULL);
        NN_SET(*indices, NULL);
        return -1;
    }
    return 0;
}

int nn_topk_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return selecting_backward(n, gout, gin); }

int nn_kthvalue(nn_tensor *a, int64_t k, int dim, bool keepdim, nn_tensor **values, nn_tensor **indices)
{
    int d = 0;
    if (nn_refuse_half("kthvalue_cpu", a->dtype, false) < 0) return -1;
    if (wrap(dim, a, &d) < 0) return -1;
    int64_t len = a->ndim ? a->sizes[d] : 1;
    if (k < 1 || k > len)
        return nn_error_set(NN_ERR_RUNTIME, "kthvalue(): selected number k out of range for dimension %d", d);
    nn_tensor *v = NULL, *ix = NULL;
    if (sorted_rows(a, d, false, k, &v, &ix) < 0) return -1;
    nn_tensor *v1 = NULL, *i1 = NULL;
    NN_WITH_GRAD_MODE(false, {
        v1 = nn_narrow(v, d, k - 1, 1);
        i1 = v1 ? nn_narrow(ix, d, k - 1, 1) : NULL;
    });
    NN_RELEASE(v);
    NN_RELEASE(ix);
    if (v1 && i1 && (!keepdim && a->ndim)) {
        nn_tensor *vs = NULL, *is = NULL;
        NN_WITH_GRAD_MODE(false, {
            vs = nn_squeeze_dim(v1, d);
            is = vs ? nn_squeeze_dim(i1, d) : NULL;
        });
        NN_SET(v1, vs);
        NN_SET(i1, is);
    }
    nn_tensor *vc = v1 ? plain(v1) : NULL, *ic = i1 ? plain(i1) : NULL;
    NN_RELEASE(v1);
    NN_RELEASE(i1);
    if (!vc || !ic || record_selecting(NN_OP_kthvalue, a, vc, ic, d, keepdim) < 0) {
        NN_RELEASE(vc);
        NN_RELEASE(ic);
        return -1;
    }
    *values = vc;
    *indices = ic;
    return 0;
}

int nn_kthvalue_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return selecting_backward(n, gout, gin); }

/* ---------------------------------------------------------------- scans */

/* cumsum/cumprod's result dtype: integers and bool become int64 unless dtype says */
static nn_dtype scan_dtype(nn_dtype in, int dtype)
{
    if (dtype >= 0) return (nn_dtype)dtype;
    return nn_dtype_is_floating(in) ? in : NN_INT64;
}

static nn_tensor *scan(nn_tensor *a, int dim, int dtype, bool prod, nn_op_id op)
{
    int d = 0;
    if (wrap(dim, a, &d) < 0) return NULL;
    nn_dtype od = scan_dtype(a->dtype, dtype);
    if (nn_refuse_half(prod ? "cumprod_out_cpu" : "cumsum_out_cpu", od, false) < 0) return NULL;
    nn_tensor *c = NULL;
    NN_WITH_GRAD_MODE(false, {
        nn_tensor *cv = nn_to_dtype(a, od);
        c = cv ? nn_contiguous(cv) : NULL;
        NN_RELEASE(cv);
    });
    if (!c) return NULL;
    nn_tensor *out = nn_empty_on(nn_device_of(c), a->ndim, a->sizes, od);
    if (!out) {
        NN_RELEASE(c);
        return NULL;
    }
    along g = along_dim(c, d);
    nn_kernel_args ka = {.t = {out, c}, .i = {g.outer, g.len, g.inner}};
    if (NN_KERNEL(nn_backend_of(c), math, (prod ? NN_MATH_cumprod : NN_MATH_cumsum, &ka)) < 0) NN_SET(out, NULL);
    NN_RELEASE(c);
    if (!out) return NULL;
    nn_op_params p = {0};
    p.i[0] = d;
    p.n_i = 1;
    if (nn_record(op, 1, &a, 1, &out, prod ? 1 : 0, prod ? &a : NULL, &p) < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_cumsum(nn_tensor *a, int dim, int dtype)
{
    if (!nn_dtype_is_complex(a->dtype) || dtype >= 0) return scan(a, dim, dtype, false, NN_OP_cumsum);
    /* complex: each part's running sum (ATen's complex<double> accumulator adds the parts apart) */
    int d;
    if (nn_wrap_dim(dim, a->ndim > 0 ? a->ndim : 1, &d) < 0) return NULL;
    nn_tensor *r = a->ndim ? nn_view_as_real(a) : NULL, *s = r ? scan(r, d, -1, false, NN_OP_cumsum) : NULL;
    nn_tensor *out = s ? nn_view_as_complex(s) : a->ndim ? NULL : nn_clone(a);
    NN_RELEASE(r);
    NN_RELEASE(s);
    return out;
}
nn_tensor *nn_cumprod(nn_tensor *a, int dim, int dtype) { return scan(a, dim, dtype, true, NN_OP_cumprod); }

/* the sum from each position to the end: flip(cumsum(flip(g))) */
static nn_tensor *reverse_cumsum(nn_tensor *g, int d)
{
    nn_tensor *f = nn_flip(g, 1, &d), *c = f ? nn_cumsum(f, d, -1) : NULL, *r = c ? nn_flip(c, 1, &d) : NULL;
    NN_RELEASE(f);
    NN_RELEASE(c);
    return r;
}

static nn_tensor *to_input_dtype(nn_node *n, nn_tensor *g)
{
    if (!g || g->dtype == n->input_meta[0].dtype) return g;
    nn_tensor *c = nn_to_dtype(g, n->input_meta[0].dtype);
    NN_RELEASE(g);
    return c;
}

int nn_cumsum_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    gin[0] = to_input_dtype(n, n->input_meta[0].ndim ? reverse_cumsum(gout[0], (int)n->p.i[0]) : nn_clone(gout[0]));
    return gin[0] ? 0 : -1;
}

/* d out_j / d x_i = prod_{k <= j, k != i} x_k for j >= i: summed against g as
   reverse_cumsum(g * out) / x where x has no zero (PyTorch's fast path); rows
   with a zero take the exact products (O(len^2), not differentiable again). */
int nn_cumprod_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    nn_tensor *x = nn_node_saved(n, 0);
    int d = (int)n->p.i[0];
    if (x->ndim == 0) {
        gin[0] = to_input_dtype(n, nn_clone(gout[0]));
        return gin[0] ? 0 : -1;
    }
    nn_tensor *xc = plain(x), *gc = plain(gout[0]);
    int64_t n_el = xc ? nn_numel(xc) : 0;
    nn_kernel_args cnt = {.t = {NULL, xc}};
    if (!xc || !gc || NN_KERNEL(nn_backend_of(xc), index, (NN_INDEX_COUNT_SET, &cnt)) < 0) {
        NN_RELEASE(xc);
        NN_RELEASE(gc);
        return -1;
    }
    bool has_zero = (int64_t)cnt.host[0] < n_el;
    if (!has_zero) {
        NN_RELEASE(xc);
        NN_RELEASE(gc);
        nn_tensor *out = nn_cumprod(x, d, -1), *go = out ? nn_mul(gout[0], out) : NULL;
        nn_tensor *rc = go ? reverse_cumsum(go, d) : NULL;
        gin[0] = rc ? to_input_dtype(n, nn_div(rc, x)) : NULL;
        NN_RELEASE(out);
        NN_RELEASE(go);
        NN_RELEASE(rc);
        return gin[0] ? 0 : -1;
    }
    nn_tensor *r = nn_empty_on(nn_device_of(xc), xc->ndim, xc->sizes, xc->dtype);
    along g = along_dim(xc, d);
    nn_kernel_args ka = {.t = {r, xc, gc}, .i = {g.outer, g.len, g.inner}};
    if (r && NN_KERNEL(nn_backend_of(xc), index, (NN_INDEX_CUMPROD_GRAD, &ka)) < 0) NN_SET(r, NULL);
    NN_RELEASE(xc);
    NN_RELEASE(gc);
    gin[0] = to_input_dtype(n, r);
    return gin[0] ? 0 : -1;
}

/* -------------------------------------------------------- flip and roll */

nn_tensor *nn_flip(nn_tensor *a, int n_dims, const int *dims)
{
    bool flip[NN_MAX_DIMS] = {0};
    for (int k = 0; k < n_dims; k++) {
        int d = 0;
        if (wrap(dims[k], a, &d) < 0) return NULL;
        if (flip[d]) {
            nn_error_set(NN_ERR_RUNTIME, "dim %d appears multiple times in the list of dims", d);
            return NULL;
        }
        flip[d] = true;
    }
    nn_tensor *c = plain(a);
    nn_tensor *out = c ? nn_empty_on(nn_device_of(c), a->ndim, a->sizes, a->dtype) : NULL;
    if (!out) {
        NN_RELEASE(c);
        return NULL;
    }
    nn_kernel_args ka = {.t = {out, c}};
    for (int k = 0; k < a->ndim; k++) ka.i[0] |= (int64_t)flip[k] << k;
    if (NN_KERNEL(nn_backend_of(c), index, (NN_INDEX_FLIP, &ka)) < 0) NN_SET(out, NULL);
    NN_RELEASE(c);
    if (!out) return NULL;
    nn_op_params p = {0};
    for (int k = 0; k < a->ndim; k++) p.i[k] = flip[k];
    p.n_i = a->ndim;
    if (nn_record(NN_OP_flip, 1, &a, 1, &out, 0, NULL, &p) < 0) NN_SET(out, NULL);
    return out;
}

int nn_flip_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    int dims[NN_MAX_DIMS], k = 0;
    for (int i = 0; i < n->p.n_i; i++)
        if (n->p.i[i]) dims[k++] = i;
    gin[0] = nn_flip(gout[0], k, dims);
    return gin[0] ? 0 : -1;
}

/* roll: shifts[k] along dims[k]; n_dims == 0 rolls the flattened tensor by shifts[0]. */
nn_tensor *nn_roll(nn_tensor *a, int n_shifts, const int64_t *shifts, int n_dims, const int *dims)
{
    if (n_dims == 0 && n_shifts != 1) {
        nn_error_set(NN_ERR_RUNTIME, "shifts and dimensions must align. shifts: %d, dims:%d", n_shifts, n_dims);
        return NULL;
    }
    if (n_dims && n_shifts != n_dims) {
        nn_error_set(NN_ERR_RUNTIME, "shifts and dimensions must align. shifts: %d, dims:%d", n_shifts, n_dims);
        return NULL;
    }
    int64_t shift[NN_MAX_DIMS] = {0};
    for (int k = 0; k < n_dims; k++) {
        int d = 0;
        if (wrap(dims[k], a, &d) < 0) return NULL;
        shift[d] += shifts[k];
    }
    nn_tensor *c = plain(a);
    nn_tensor *out = c ? nn_empty_on(nn_device_of(c), a->ndim, a->sizes, a->dtype) : NULL;
    if (!out) {
        NN_RELEASE(c);
        return NULL;
    }
    int64_t n = nn_numel(c);
    nn_kernel_args ka = {.t = {out, c}};
    nn_tensor *flat_c = NULL, *flat_out = NULL;
    if (n_dims == 0) { /* the flattened tensor: a 1-dim view of both */
        NN_WITH_GRAD_MODE(false, {
            flat_c = nn_reshape(c, 1, &n);
            flat_out = flat_c ? nn_reshape(out, 1, &n) : NULL;
        });
        ka.t[0] = flat_out, ka.t[1] = flat_c;
        ka.i[0] = n ? ((shifts[0] % n) + n) % n : 0;
    } else {
        for (int k = 0; k < a->ndim; k++) {
            int64_t len = a->sizes[k], s = len ? ((shift[k] % len) + len) % len : 0;
            if (k < 8) ka.i[k] = s;
            else ka.d[k - 8] = (double)s;
        }
    }
    int rc = n_dims == 0 && !flat_out ? -1 : NN_KERNEL(nn_backend_of(c), index, (NN_INDEX_ROLL, &ka));
    NN_RELEASE(flat_c);
    NN_RELEASE(flat_out);
    if (rc < 0) {
        NN_RELEASE(c);
        NN_RELEASE(out);
        return NULL;
    }
    NN_RELEASE(c);
    nn_op_params p = {0};
    p.flags = n_dims == 0;
    if (n_dims == 0)
        p.i[0] = shifts[0];
    else
        for (int k = 0; k < a->ndim; k++) p.i[k] = shift[k];
    p.n_i = n_dims == 0 ? 1 : a->ndim;
    if (nn_record(NN_OP_roll, 1, &a, 1, &out, 0, NULL, &p) < 0) NN_SET(out, NULL);
    return out;
}

int nn_roll_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    int64_t shifts[NN_MAX_DIMS];
    int dims[NN_MAX_DIMS];
    for (int i = 0; i < n->p.n_i; i++) shifts[i] = -n->p.i[i], dims[i] = i;
    gin[0] = nn_roll(gout[0], n->p.n_i, shifts, n->p.flags ? 0 : n->p.n_i, dims);
    return gin[0] ? 0 : -1;
}

/* ------------------------------------------------------------ tril, triu */

static nn_tensor *triangle(nn_tensor *a, int64_t diagonal, bool lower, nn_op_id op)
{
    if (a->ndim < 2) {
        nn_error_set(NN_ERR_INDEX, "Dimension out of range (expected to be in range of [%d, %d], but got -2)",
                     a->ndim ? -a->ndim : -1, a->ndim ? a->ndim - 1 : 0);
        return NULL;
    }
    nn_tensor *c = plain(a);
    nn_tensor *out = c ? nn_empty_on(nn_device_of(c), a->ndim, a->sizes, a->dtype) : NULL;
    if (!out) {
        NN_RELEASE(c);
        return NULL;
    }
    int64_t R = a->sizes[a->ndim - 2], C = a->sizes[a->ndim - 1];
    nn_kernel_args ka = {.t = {out, c}, .i = {R, C, diagonal, lower}};
    if (NN_KERNEL(nn_backend_of(c), index, (NN_INDEX_TRIANGLE, &ka)) < 0) NN_SET(out, NULL);
    NN_RELEASE(c);
    if (!out) return NULL;
    nn_op_params p = {0};
    p.i[0] = diagonal;
    p.n_i = 1;
    if (nn_record(op, 1, &a, 1, &out, 0, NULL, &p) < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_tril(nn_tensor *a, int64_t diagonal) { return triangle(a, diagonal, true, NN_OP_tril); }
nn_tensor *nn_triu(nn_tensor *a, int64_t diagonal) { return triangle(a, diagonal, false, NN_OP_triu); }

int nn_tril_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    gin[0] = nn_tril(gout[0], n->p.i[0]);
    return gin[0] ? 0 : -1;
}

int nn_triu_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    gin[0] = nn_triu(gout[0], n->p.i[0]);
    return gin[0] ? 0 : -1;
}

/* ------------------------------------------------- gather and scatter */

/* PyTorch's gather_shape_check / scatter_shape_check: index has self's ndim
   and is no larger than self (and src) in every dim but d (gather: src's dim
   d free too). */
static int check_index(const char *op, const nn_tensor *self, int d, const nn_tensor *index, const nn_tensor *src)
{
    if (index->dtype != NN_INT64)
        return nn_error_set(NN_ERR_RUNTIME, "%s(): Expected dtype int64 for index", op);
    int self_dims = self->ndim ? self->ndim : 1, index_dims = index->ndim ? index->ndim : 1;
    if (nn_numel(index) == 0) return 0;
    if (self_dims != index_dims)
        return nn_error_set(NN_ERR_RUNTIME, "Index tensor must have the same number of dimensions as %s tensor",
                            strcmp(op, "gather") ? "self" : "input");
    for (int k = 0; k < index->ndim; k++) {
        if (k != d && index->sizes[k] > self->sizes[k]) {
            char a[128], b[128];
            return nn_error_set(NN_ERR_RUNTIME, "Size does not match at dimension %d expected index %s to be smaller than "
                                "self %s apart from dimension %d",
                                k, nn_shape_str(index->ndim, index->sizes, a, sizeof a),
                                nn_shape_str(self->ndim, self->sizes, b, sizeof b), d);
        }
        if (src && index->sizes[k] > src->sizes[k]) {
            char a[128], b[128];
            return nn_error_set(NN_ERR_RUNTIME, "Size does not match at dimension %d expected index %s to be smaller than "
                                "src %s",
                                k, nn_shape_str(index->ndim, index->sizes, a, sizeof a),
                                nn_shape_str(src->ndim, src->sizes, b, sizeof b));
        }
    }
    return 0;
}

/* Runs the index kernel's gather (t[2] out), scatter or scatter_add (t[2] src,
   or the number value when src is NULL) along dim d of self by index, all
   contiguous on self's device. */
static int index_walk(nn_index_op op, nn_tensor *self, int d, nn_tensor *index, nn_tensor *other, double value)
{
    /* every tensor on self's device, as ATen's generated device check (no CPU-scalar exception here) */
    nn_tensor *ts[3] = {self, index, other};
    if (nn_same_device_all(3, ts) < 0) return -1;
    nn_kernel_args ka = {.t = {self, index, other}, .i = {d}, .d = {value}};
    return NN_KERNEL(nn_backend_of(self), index, (op, &ka));
}

nn_tensor *nn_gather(nn_tensor *a, int dim, nn_tensor *index)
{
    if (!a || !index) return NULL; /* an operand a nested call failed to make (its error is current) */
    int d = 0;
    if (wrap(dim, a, &d) < 0 || check_index("gather", a, d, index, NULL) < 0) return NULL;
    nn_tensor *c = plain(a), *ic = plain(index);
    nn_tensor *out = c && ic ? nn_empty_on(nn_device_of(c), index->ndim, index->sizes, a->dtype) : NULL;
    if (out && index_walk(NN_INDEX_GATHER, c, d, ic, out, 0) < 0) NN_SET(out, NULL);
    NN_RELEASE(c);
    if (out) {
        nn_op_params p = {0};
        p.i[0] = d;
        p.n_i = 1;
        if (nn_record(NN_OP_gather, 1, &a, 1, &out, 1, &ic, &p) < 0) NN_SET(out, NULL);
    }
    NN_RELEASE(ic);
    return out;
}

int nn_gather_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    const nn_input_meta *m = &n->input_meta[0];
    nn_tensor *z = nn_zeros_on(nn_device_of(gout[0]), m->ndim, m->sizes, gout[0]->dtype);
    gin[0] = z ? nn_scatter_add(z, (int)n->p.i[0], nn_node_saved(n, 0), gout[0]) : NULL;
    NN_RELEASE(z);
    return gin[0] ? 0 : -1;
}

/* scatter (src a tensor, or the number value when src is NULL) and scatter_add. */
static nn_tensor *scatter_common(nn_tensor *a, int dim, nn_tensor *index, nn_tensor *src, double value, bool add)
{
    if (!a || !index) return NULL; /* an operand a nested call failed to make (its error is current) */
    const char *op = add ? "scatter_add" : "scatter";
    int d = 0;
    if (wrap(dim, a, &d) < 0 || check_index(op, a, d, index, src) < 0) return NULL;
    if (src && src->dtype != a->dtype) {
        nn_error_set(NN_ERR_RUNTIME, "%s(): Expected self.dtype to be equal to src.dtype", op);
        return NULL;
    }
    nn_tensor *out = NULL, *sc = src ? plain(src) : NULL, *ic = plain(index);
    NN_WITH_GRAD_MODE(false, out = nn_clone(a));
    if (out) {
        nn_tensor *oc = plain(out);
        NN_SET(out, oc);
    }
    if (!out || !ic || (src && !sc) ||
        index_walk(add ? NN_INDEX_SCATTER_ADD : NN_INDEX_SCATTER, out, d, ic, sc, value) < 0) {
        NN_RELEASE(out);
        NN_RELEASE(sc);
        NN_RELEASE(ic);
        return NULL;
    }
    NN_RELEASE(sc);
    nn_op_params p = {0};
    p.i[0] = d;
    p.n_i = 1;
    nn_tensor *in[2] = {a, src};
    nn_op_id opid = add ? NN_OP_scatter_add : src ? NN_OP_scatter : NN_OP_scatter_value;
    if (nn_record(opid, src ? 2 : 1, in, 1, &out, 1, &ic, &p) < 0) NN_SET(out, NULL);
    NN_RELEASE(ic);
    return out;
}

nn_tensor *nn_scatter(nn_tensor *a, int dim, nn_tensor *index, nn_tensor *src)
{
    return scatter_common(a, dim, index, src, 0, false);
}
nn_tensor *nn_scatter_value(nn_tensor *a, int dim, nn_tensor *index, double value)
{
    return scatter_common(a, dim, index, NULL, value, false);
}
nn_tensor *nn_scatter_add(nn_tensor *a, int dim, nn_tensor *index, nn_tensor *src)
{
    return scatter_common(a, dim, index, src, 0, true);
}

/* scatter: self's gradient is zero where it was overwritten; src's is the
   gradient gathered at the index. */
static int scatter_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin, bool add)
{
    if (!gout[0]) return 0;
    int d = (int)n->p.i[0];
    nn_tensor *idx = nn_node_saved(n, 0);
    if (nn_node_needs_input_grad(n, 0)) {
        gin[0] = add ? nn_clone(gout[0]) : nn_scatter_value(gout[0], d, idx, 0.0);
        if (!gin[0]) return -1;
    }
    if (n->n_inputs > 1 && nn_node_needs_input_grad(n, 1)) {
        gin[1] = nn_gather(gout[0], d, idx);
        if (!gin[1]) return -1;
    }
    return 0;
}

int nn_scatter_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return scatter_backward(n, gout, gin, false); }
int nn_scatter_value_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return scatter_backward(n, gout, gin, false); }
int nn_scatter_add_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return scatter_backward(n, gout, gin, true); }

/* ---------------------------------------------------------- index_select */

nn_tensor *nn_index_select(nn_tensor *a, int dim, nn_tensor *index)
{
    int d = 0;
    if (wrap(dim, a, &d) < 0) return NULL;
    if (index->ndim > 1) {
        nn_error_set(NN_ERR_INDEX, "index_select(): Index is supposed to be a vector");
        return NULL;
    }
    if (index->dtype != NN_INT64 && index->dtype != NN_INT32) {
        nn_error_set(NN_ERR_RUNTIME, "index_select(): Expected dtype int32 or int64 for index");
        return NULL;
    }
    nn_tensor *ic = NULL;
    NN_WITH_GRAD_MODE(false, {
        nn_tensor *i64 = nn_to_dtype(index, NN_INT64);
        ic = i64 ? nn_contiguous(i64) : NULL;
        NN_RELEASE(i64);
    });
    nn_tensor *c = plain(a);
    if (!ic || !c) {
        NN_RELEASE(ic);
        NN_RELEASE(c);
        return NULL;
    }
    int64_t k = nn_numel(ic), sizes[NN_MAX_DIMS];
    memcpy(sizes, a->sizes, sizeof(int64_t) * (size_t)a->ndim);
    if (a->ndim) sizes[d] = k;
    along g = along_dim(c, d);
    nn_tensor *out = nn_empty_on(nn_device_of(c), a->ndim, sizes, a->dtype);
    nn_kernel_args ka = {.t = {out, c, ic}, .i = {g.outer, g.len, g.inner}};
    if (out && NN_KERNEL(nn_backend_of(c), index, (NN_INDEX_SELECT, &ka)) < 0) NN_SET(out, NULL);
    if (out) {
        nn_op_params p = {0};
        p.i[0] = d;
        p.n_i = 1;
        if (nn_record(NN_OP_index_select, 1, &a, 1, &out, 1, &ic, &p) < 0) NN_SET(out, NULL);
    }
    NN_RELEASE(c);
    NN_RELEASE(ic);
    return out;
}

/* zeros.index_add_(d, index, grad) as a scatter_add with the index spread
   over grad's shape */
int nn_index_select_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    const nn_input_meta *m = &n->input_meta[0];
    int d = (int)n->p.i[0];
    nn_tensor *idx = nn_node_saved(n, 0), *g = gout[0];
    int64_t vs[NN_MAX_DIMS];
    for (int k = 0; k < g->ndim; k++) vs[k] = k == d ? g->sizes[k] : 1;
    nn_tensor *iv = g->ndim ? nn_view(idx, g->ndim, vs) : (nn_tensor *)nn_retain(&idx->ob), *ie = iv ? nn_expand(iv, g->ndim, g->sizes) : NULL;
    nn_tensor *ic = ie ? nn_contiguous(ie) : NULL, *z = ic ? nn_zeros_on(nn_device_of(g), m->ndim, m->sizes, g->dtype) : NULL;
    /* negative indices count from the end */
    nn_kernel_args ka = {.t = {ic}, .i = {m->ndim ? m->sizes[d] : 1}};
    if (z && NN_KERNEL(nn_backend_of(ic), index, (NN_INDEX_WRAP_NEGATIVE, &ka)) < 0) NN_SET(z, NULL);
    gin[0] = z ? nn_scatter_add(z, d, ic, g) : NULL;
    /* under create_graph: PyTorch's one node for it (zeros.index_add(d, index, grad)) */
    if (gin[0] && gin[0]->grad_fn && nn_node_set_name(gin[0]->grad_fn, "IndexAddBackward0") < 0) NN_SET(gin[0], NULL);
    NN_RELEASE(iv);
    NN_RELEASE(ie);
    NN_RELEASE(ic);
    NN_RELEASE(z);
    return gin[0] ? 0 : -1;
}

/* --------------------------------------------------------- masked_select */

nn_tensor *nn_masked_select(nn_tensor *a, nn_tensor *mask)
{
    if (mask->dtype != NN_BOOL) {
        nn_error_set(NN_ERR_RUNTIME, "masked_select: expected BoolTensor or ByteTensor for mask");
        return NULL;
    }
    int ndim = 0;
    int64_t sizes[NN_MAX_DIMS];
    if (nn_broadcast_shapes(a->ndim, a->sizes, mask->ndim, mask->sizes, &ndim, sizes) < 0) return NULL;
    nn_tensor *ae = NULL, *me = NULL, *ac = NULL, *mc = NULL;
    NN_WITH_GRAD_MODE(false, {
        ae = nn_expand(a, ndim, sizes);
        me = ae ? nn_expand(mask, ndim, sizes) : NULL;
        ac = me ? nn_contiguous(ae) : NULL;
        mc = ac ? nn_contiguous(me) : NULL;
    });
    NN_RELEASE(ae);
    NN_RELEASE(me);
    nn_tensor *out = NULL;
    if (mc) {
        const nn_backend *be = nn_backend_of(mc);
        nn_kernel_args cnt = {.t = {NULL, mc}};
        if (NN_KERNEL(be, index, (NN_INDEX_COUNT_SET, &cnt)) == 0) {
            int64_t k = (int64_t)cnt.host[0];
            out = nn_empty_on(nn_device_of(ac), 1, &k, a->dtype);
        }
        nn_kernel_args ka = {.t = {out, ac, mc}};
        if (out && NN_KERNEL(be, index, (NN_INDEX_MASKED_SELECT, &ka)) < 0) NN_SET(out, NULL);
        if (out) {
            nn_op_params p = {0};
            p.n_i = ndim;
            for (int q = 0; q < ndim; q++) p.i[q] = sizes[q];
            if (nn_record(NN_OP_masked_select, 1, &a, 1, &out, 1, &mc, &p) < 0) NN_SET(out, NULL);
        }
    }
    NN_RELEASE(ac);
    NN_RELEASE(mc);
    return out;
}

/* zeros of the broadcast shape with grad written where the mask is set, then
   summed back to the input's shape */
int nn_masked_select_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    nn_tensor *mask = nn_node_saved(n, 0);
    int64_t sizes[NN_MAX_DIMS];
    for (int q = 0; q < n->p.n_i; q++) sizes[q] = n->p.i[q];
    if (nn_grad_enabled() && gout[0]->requires_grad) {
        /* create_graph: zeros.masked_scatter(mask, grad) as PyTorch's one differentiable node */
        nn_tensor *z = nn_zeros_on(nn_device_of(gout[0]), n->p.n_i, sizes, gout[0]->dtype);
        nn_index_item it = {.kind = NN_INDEX_TENSOR, .tensor = mask};
        if (z && nn_index_put_(z, 1, &it, gout[0]) < 0) NN_SET(z, NULL);
        if (z && z->grad_fn && nn_node_set_name(z->grad_fn, "MaskedScatterBackward0") < 0) NN_SET(z, NULL);
        gin[0] = z ? nn_sum_to_size(z, n->input_meta[0].ndim, n->input_meta[0].sizes) : NULL;
        NN_RELEASE(z);
        return gin[0] ? 0 : -1;
    }
    nn_tensor *flat_mask = nn_reshape(mask, 1, (int64_t[]){nn_numel(mask)});
    nn_tensor *pos = NULL, *z = NULL, *s = NULL, *r = NULL;
    if (flat_mask) {
        /* the positions of the set elements, in order */
        int64_t k = nn_numel(gout[0]);
        pos = nn_empty_on(nn_device_of(flat_mask), 1, &k, NN_INT64);
        nn_kernel_args ka = {.t = {pos, flat_mask}};
        if (pos && NN_KERNEL(nn_backend_of(flat_mask), index, (NN_INDEX_MASK_POSITIONS, &ka)) < 0) NN_SET(pos, NULL);
    }
    int64_t total = nn_numel(mask);
    if (pos) z = nn_zeros_on(nn_device_of(gout[0]), 1, &total, gout[0]->dtype);
    if (z) s = nn_scatter_add(z, 0, pos, gout[0]);
    if (s) r = nn_reshape(s, n->p.n_i, sizes);
    if (r) gin[0] = nn_sum_to_size(r, n->input_meta[0].ndim, n->input_meta[0].sizes);
    NN_RELEASE(flat_mask);
    NN_RELEASE(pos);
    NN_RELEASE(z);
    NN_RELEASE(s);
    NN_RELEASE(r);
    return gin[0] ? 0 : -1;
}

/* ---------------------------------------------------------- masked_fill */

/* a with value where mask is set, a broadcast with the mask (PyTorch's
   expand_outplace + clone + masked_fill_). MaskedFillBackward0 on a number
   (value == NULL), MaskedFillBackward1 with an edge to a 0-dim value tensor. */
nn_tensor *nn_masked_fill(nn_tensor *a, nn_tensor *mask, nn_tensor *value, double number)
{
    if (!a || !mask) return NULL;
    nn_tensor *v = value ? nn_to_dtype(value, a->dtype) : nn_scalar(number, a->dtype);
    nn_tensor *out = NULL;
    if (v) NN_WITH_GRAD_MODE(false, out = nn_where(mask, v, a));
    NN_RELEASE(v);
    if (out) {
        nn_tensor *in[2] = {a, value};
        if (nn_record(value ? NN_OP_masked_fill_tensor : NN_OP_masked_fill, value ? 2 : 1, in, 1, &out, 1, &mask,
                      NULL) < 0)
            NN_SET(out, NULL);
    }
    return out;
}

/* self: grad.masked_fill(mask, 0); value (a tensor): grad.masked_select(mask).sum(),
   as derivatives.yaml and FunctionsManual's masked_fill_backward. */
static int masked_fill_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin, bool has_value)
{
    nn_tensor *mask = nn_node_saved(n, 0), *g = gout[0];
    if (nn_node_needs_input_grad(n, 0)) {
        nn_tensor *r = nn_masked_fill(g, mask, NULL, 0.0);
        gin[0] = r ? nn_sum_to_size(r, n->input_meta[0].ndim, n->input_meta[0].sizes) : NULL;
        NN_RELEASE(r);
        if (!gin[0]) return -1;
    }
    if (has_value && nn_node_needs_input_grad(n, 1)) {
        nn_tensor *sel = nn_masked_select(g, mask), *s = sel ? nn_sum(sel, 0, NULL, false) : NULL;
        gin[1] = s ? nn_to_dtype(s, n->input_meta[1].dtype) : NULL;
        NN_RELEASE(sel);
        NN_RELEASE(s);
        if (!gin[1]) return -1;
    }
    return 0;
}
int nn_masked_fill_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    return masked_fill_backward(n, gout, gin, false);
}
int nn_masked_fill_tensor_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    return masked_fill_backward(n, gout, gin, true);
}

/* --------------------------------------------------------------- one_hot */

nn_tensor *nn_one_hot(nn_tensor *a, int64_t num_classes)
{
    if (a->dtype != NN_INT64) {
        nn_error_set(NN_ERR_RUNTIME, "one_hot is only applicable to index tensor.");
        return NULL;
    }
    nn_tensor *c = plain(a);
    if (!c) return NULL;
    int64_t n = nn_numel(c);
    if (num_classes == -1 && n == 0) {
        NN_RELEASE(c);
        nn_error_set(NN_ERR_RUNTIME, "Can not infer total number of classes from empty tensor.");
        return NULL;
    }
    if (n) { /* PyTorch's checks: the least class, then the greatest */
        nn_kernel_args r = {.t = {NULL, c}};
        if (NN_KERNEL(nn_backend_of(c), index, (NN_INDEX_INT_RANGE, &r)) < 0) {
            NN_RELEASE(c);
            return NULL;
        }
        const char *bad = r.i[0] < 0 ? "Class values must be non-negative."
                          : num_classes != -1 && r.i[1] >= num_classes ? "Class values must be smaller than num_classes."
                                                                       : NULL;
        if (bad) {
            NN_RELEASE(c);
            nn_error_set(NN_ERR_RUNTIME, "%s", bad);
            return NULL;
        }
        if (num_classes == -1) num_classes = r.i[1] + 1;
    }
    if (a->ndim >= NN_MAX_DIMS) {
        NN_RELEASE(c);
        nn_error_set(NN_ERR_RUNTIME, "one_hot: too many dimensions");
        return NULL;
    }
    /* zeros of [..., num_classes] with ones scattered at the classes (PyTorch's way) */
    int64_t sizes[NN_MAX_DIMS], isizes[NN_MAX_DIMS];
    memcpy(sizes, a->sizes, sizeof(int64_t) * (size_t)a->ndim);
    memcpy(isizes, a->sizes, sizeof(int64_t) * (size_t)a->ndim);
    sizes[a->ndim] = num_classes;
    isizes[a->ndim] = 1;
    nn_tensor *out = nn_zeros_on(nn_device_of(c), a->ndim + 1, sizes, NN_INT64), *ic = NULL;
    if (out) NN_WITH_GRAD_MODE(false, ic = nn_reshape(c, a->ndim + 1, isizes));
    if (out && (!ic || index_walk(NN_INDEX_SCATTER, out, a->ndim, ic, NULL, 1) < 0)) NN_SET(out, NULL);
    NN_RELEASE(ic);
    NN_RELEASE(c);
    return out;
}

/* ------------------------------------------------------- in-place forms */

int nn_inplace_from(nn_tensor *a, nn_tensor *r)
{
    if (nn_check_inplace(a) < 0) return -1;
    if (r->ndim != a->ndim || memcmp(r->sizes, a->sizes, sizeof(int64_t) * (size_t)a->ndim) != 0) {
        char s1[256], s2[256];
        return nn_error_set(NN_ERR_RUNTIME, "output with shape %s doesn't match the broadcast shape %s",
                            nn_shape_str(a->ndim, a->sizes, s1, sizeof s1), nn_shape_str(r->ndim, r->sizes, s2, sizeof s2));
    }
    if (r->dtype != a->dtype)
        return nn_error_set(NN_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
                            nn_dtype_scalar_name(r->dtype), nn_dtype_scalar_name(a->dtype));
    if (r->grad_fn && a->base && (!nn_copy_slices_fits(a, 1, &a) || r->grad_fn->n_outputs != 1))
        return nn_error_set(NN_ERR_NOT_IMPLEMENTED,
                            "in-place operations on views of tensors that require grad are not supported; "
                            "use an out-of-place operation");
    int rc = 0;
    NN_WITH_GRAD_MODE(false, rc = nn_copy_(a, r));
    if (rc < 0) return -1;
    if (r->grad_fn && a->base) return nn_rebase_view_history(a, r->grad_fn); /* CopySlices */
    if (r->grad_fn) {
        nn_retain(&r->grad_fn->ob);
        if (a->grad_fn) nn_release(&a->grad_fn->ob);
        a->grad_fn = r->grad_fn;
        a->output_nr = r->output_nr;
        a->requires_grad = true;
    }
    return 0;
}

/* For select_more.c's median and mode: the same node and backward as sort's. */
int nn_record_selecting(int op, nn_tensor *a, nn_tensor *values, nn_tensor *indices, int d, bool keepdim)
{
    return record_selecting((nn_op_id)op, a, values, indices, d, keepdim);
}
int nn_selecting_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return selecting_backward(n, gout, gin); }
int nn_select_wrap_dim(int dim, const nn_tensor *t, int *d) { return wrap(dim, t, d); }
