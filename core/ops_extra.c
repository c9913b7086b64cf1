/*
 * ops_extra.c — more tensor functions: logit, nansum/nanmean, rot90, trace, repeat, take,
 * take_along_dim, cummax/cummin, cross, kron, tensordot, diff, atleast_Nd,
 * dstack, column_stack, searchsorted/bucketize (fmod is binary.c's).
 *
 * Where ATen composes an op from others (kron, tensordot, diff, nanmean,
 * take_along_dim, atleast_Nd, dstack, column_stack) it is composed here the
 * same way, so the grad_fn is the last op's as in PyTorch. Where ATen has a
 * node of its own (LogitBackward0, NansumBackward0, Rot90Backward0,
 * TraceBackward0, RepeatBackward0, TakeBackward0, CummaxBackward0, LinalgCrossBackward0), the forward is
 * computed from existing ops (their kernels) without history and the node
 * recorded; its backward is PyTorch 1.13's formula (FunctionsManual.cpp,
 * derivatives.yaml) built from differentiable ops. cummax/cummin and
 * searchsorted are host loops over a contiguous copy.
 */
#include <math.h>
#include <string.h>

#include "backend.h"
#include "nn_half.h"
#include "nn_int.h"
#include "nn_ops_extra.h"
#include "nn_scratch.h"
#include "nn_select.h"
#include "nn_select_more.h"
#include "nn_autocast.h"

nn_tensor *nn_unsafe_view_of(nn_tensor *t, int ndim, const int64_t *sizes); /* matmul.c */

static nn_tensor *nan_mask(nn_tensor *a) { return nn_compare(a, a, NN_NE); }

/* ---------------------------------------------------------------- logit */

nn_tensor *nn_logit(nn_tensor *a, double eps, bool has_eps)
{
    if (nn_refuse_half("logit_cpu", a->dtype, false) < 0) return NULL;
    nn_dtype dt = nn_dtype_is_floating(a->dtype) ? a->dtype : nn_default_dtype();
    nn_tensor *out = NULL;
    nn_scratch s = {0};
    NN_WITH_GRAD_MODE(false, {
        nn_tensor *x = NN_KEEP(&s, nn_to_dtype(a, dt));
        if (has_eps) x = NN_KEEP(&s, nn_clamp(x, eps, true, 1 - eps, true));
        nn_tensor *q = NN_KEEP(&s, nn_div(x, NN_KEEP(&s, nn_rsub_scalar(x, 1))));
        out = s.failed ? NULL : nn_log(q);
    });
    nn_scratch_free(&s);
    nn_op_params p = {.f = {eps}, .flags = has_eps};
    if (out && nn_record(NN_OP_logit, 1, &a, 1, &out, 1, &a, &p) < 0) NN_SET(out, NULL);
    return out;
}

/* grad / (x (1 - x)); outside [eps, 1 - eps] 0 (with eps), outside [0, 1] NaN (without) */
int nn_logit_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    nn_tensor *x = nn_node_saved(n, 0);
    bool has_eps = n->p.flags;
    double lo = has_eps ? n->p.f[0] : 0, hi = has_eps ? 1 - n->p.f[0] : 1;
    nn_scratch s = {0};
    nn_tensor *den = NN_KEEP(&s, nn_mul(x, NN_KEEP(&s, nn_rsub_scalar(x, 1))));
    nn_tensor *q = NN_KEEP(&s, nn_div(gout[0], den));
    nn_tensor *l = NN_KEEP(&s, nn_scalar(lo, x->dtype)), *h = NN_KEEP(&s, nn_scalar(hi, x->dtype));
    nn_tensor *out_of = NN_KEEP(&s, nn_bitwise_or(NN_KEEP(&s, nn_compare(x, l, NN_LT)), NN_KEEP(&s, nn_compare(x, h, NN_GT))));
    nn_tensor *fill = NN_KEEP(&s, nn_scalar(has_eps ? 0.0 : NAN, q ? q->dtype : x->dtype));
    nn_tensor *r = NN_KEEP(&s, nn_where(out_of, fill, q));
    if (r) NN_RETAIN(r);
    nn_scratch_free(&s);
    gin[0] = r;
    return r ? 0 : -1;
}

/* ------------------------------------------------------- nansum/nanmean */

nn_tensor *nn_nansum(nn_tensor *a, int n_dims, const int *dims, bool keepdim, int dtype)
{
    nn_op_params p = {.n_i = a->ndim, .flags = keepdim};
    for (int i = 0; i < n_dims; i++) {
        int d = 0;
        if (nn_wrap_dim(dims[i], a->ndim ? a->ndim : 1, &d) < 0) return NULL;
        if (a->ndim) p.i[d] = 1;
    }
    for (int d = 0; n_dims == 0 && d < a->ndim; d++) p.i[d] = 1;
    nn_tensor *out = NULL;
    nn_scratch s = {0};
    NN_WITH_GRAD_MODE(false, {
        nn_tensor *x = dtype >= 0 ? NN_KEEP(&s, nn_to_dtype(a, (nn_dtype)dtype)) : a;
        if (nn_dtype_is_floating(x->dtype)) {
            nn_tensor *z = NN_KEEP(&s, nn_scalar(0, x->dtype));
            x = NN_KEEP(&s, nn_where(NN_KEEP(&s, nan_mask(x)), z, x));
        }
        out = s.failed ? NULL : nn_sum(x, n_dims, dims, keepdim);
    });
    nn_scratch_free(&s);
    if (out && nn_record(NN_OP_nansum, 1, &a, 1, &out, 1, &a, &p) < 0) NN_SET(out, NULL);
    return out;
}

/* sum's gradient, zero where the input was NaN */
int nn_nansum_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    nn_tensor *x = nn_node_saved(n, 0);
    nn_scratch s = {0};
    nn_tensor *g = NN_KEEP(&s, nn_reduction_grad_expand(n, gout[0]));
    nn_tensor *keep = NN_KEEP(&s, nn_compare(x, x, NN_EQ));
    nn_tensor *r = NN_KEEP(&s, nn_mul(g, keep));
    if (r && r->dtype != x->dtype) r = NN_KEEP(&s, nn_to_dtype(r, x->dtype));
    if (r) NN_RETAIN(r);
    nn_scratch_free(&s);
    gin[0] = r;
    return r ? 0 : -1;
}

nn_tensor *nn_nanmean(nn_tensor *a, int n_dims, const int *dims, bool keepdim)
{
    if (!nn_dtype_is_floating(a->dtype)) {
        nn_error_set(NN_ERR_RUNTIME, "nanmean(): expected input to have floating point dtype but got %s",
                     nn_dtype_scalar_name(a->dtype));
        return NULL;
    }
    nn_scratch s = {0};
    nn_tensor *count = NULL;
    NN_WITH_GRAD_MODE(false, {
        nn_tensor *keep = NN_KEEP(&s, nn_compare(a, a, NN_EQ));
        count = NN_KEEP(&s, nn_sum(keep, n_dims, dims, keepdim));
    });
    nn_tensor *sum = NN_KEEP(&s, nn_nansum(a, n_dims, dims, keepdim, -1));
    nn_tensor *r = NN_KEEP(&s, nn_div(sum, count));
    if (r) NN_RETAIN(r);
    nn_scratch_free(&s);
    return r;
}

/* ---------------------------------------------------------------- rot90 */

/* t with dims d0, d1 swapped as a plain tensor over the same storage (no view
   history, as ATen's transpose_ on its own fresh result) */
static nn_tensor *swapped(nn_tensor *t, int d0, int d1)
{
    int64_t sizes[NN_MAX_DIMS], strides[NN_MAX_DIMS];
    memcpy(sizes, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
    memcpy(strides, t->strides, sizeof(int64_t) * (size_t)t->ndim);
    sizes[d0] = t->sizes[d1], sizes[d1] = t->sizes[d0];
    strides[d0] = t->strides[d1], strides[d1] = t->strides[d0];
    return nn_tensor_new_view(t, t->ndim, sizes, strides, t->offset);
}

nn_tensor *nn_rot90(nn_tensor *a, int64_t k, int n_dims, const int *dims)
{
    if (n_dims != 2) {
        nn_error_set(NN_ERR_RUNTIME, "expected total rotation dims == 2, but got dims = %d", n_dims);
        return NULL;
    }
    if (a->ndim < 2) {
        nn_error_set(NN_ERR_RUNTIME, "expected total dims >= 2, but got total dims = %d", a->ndim);
        return NULL;
    }
    int d0, d1;
    if (nn_wrap_dim(dims[0], a->ndim, &d0) < 0 || nn_wrap_dim(dims[1], a->ndim, &d1) < 0) return NULL;
    if (d0 == d1) {
        nn_error_set(NN_ERR_RUNTIME, "expected rotation dims to be different, but got dim0 = %d and dim1 = %d", d0, d1);
        return NULL;
    }
    int64_t q = ((k % 4) + 4) % 4;
    nn_tensor *out = NULL;
    NN_WITH_GRAD_MODE(false, {
        if (q == 0) {
            out = nn_clone(a);
        } else if (q == 2) {
            out = nn_flip(a, 2, (const int[]){d0, d1});
        } else {
            nn_tensor *f = nn_flip(a, 1, q == 1 ? &d1 : &d0);
            out = f ? swapped(f, d0, d1) : NULL;
            NN_RELEASE(f);
        }
    });
    nn_op_params p = {.i = {k, d0, d1}, .n_i = 3};
    if (out && nn_record(NN_OP_rot90, 1, &a, 1, &out, 0, NULL, &p) < 0) NN_SET(out, NULL);
    return out;
}

int nn_rot90_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    int dims[2] = {(int)n->p.i[1], (int)n->p.i[2]};
    gin[0] = nn_rot90(gout[0], -n->p.i[0], 2, dims);
    return gin[0] ? 0 : -1;
}

/* ---------------------------------------------------------------- trace */

nn_tensor *nn_trace(nn_tensor *a)
{
    NN_AUTOCAST(FP32, nn_trace(ac_[0]), a);
    if (a->ndim != 2) {
        nn_error_set(NN_ERR_RUNTIME, "trace: expected a matrix, but got tensor with dim %d", a->ndim);
        return NULL;
    }
    if (a->dtype == NN_FLOAT16 || a->dtype == NN_BFLOAT16) { /* 1.13's CPU trace lacks both */
        nn_error_set(NN_ERR_RUNTIME, "\"trace\" not implemented for '%s'", nn_dtype_scalar_name(a->dtype));
        return NULL;
    }
    nn_tensor *out = NULL;
    NN_WITH_GRAD_MODE(false, {
        nn_tensor *d = nn_diagonal(a, 0, 0, 1);
        out = d ? nn_sum(d, 0, NULL, false) : NULL;
        NN_RELEASE(d);
    });
    if (out && nn_record(NN_OP_trace, 1, &a, 1, &out, 0, NULL, NULL) < 0) NN_SET(out, NULL);
    return out;
}

/* ATen's trace_backward: zeros of the input's shape with the gradient on the
   diagonal (a copy into a view: under create_graph it records CopySlices) */
int nn_trace_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    const nn_input_meta *m = &n->input_meta[0];
    nn_tensor *z = nn_zeros_on(nn_device_of(gout[0]), m->ndim, m->sizes, gout[0]->dtype);
    nn_tensor *d = z ? nn_diagonal(z, 0, 0, 1) : NULL;
    if (!d || nn_copy_(d, gout[0]) < 0) NN_SET(z, NULL);
    NN_RELEASE(d);
    gin[0] = z;
    return z ? 0 : -1;
}

/* --------------------------------------------------------------- repeat */

nn_tensor *nn_repeat(nn_tensor *a, int nd, const int64_t *reps)
{
    if (nd < a->ndim) {
        nn_error_set(NN_ERR_RUNTIME, "Number of dimensions of repeat dims can not be smaller than number of "
                                     "dimensions of tensor");
        return NULL;
    }
    if (2 * nd > NN_MAX_DIMS) {
        nn_error_set(NN_ERR_RUNTIME, "repeat() supports at most %d dimensions here", NN_MAX_DIMS / 2);
        return NULL;
    }
    /* a view [1, s0, 1, s1, ...] expanded to [r0, s0, r1, s1, ...], copied into [r0*s0, r1*s1, ...] */
    int64_t pairs[NN_MAX_DIMS], tiled[NN_MAX_DIMS], sizes[NN_MAX_DIMS];
    for (int i = 0; i < nd; i++) {
        int64_t s = i < nd - a->ndim ? 1 : a->sizes[i - (nd - a->ndim)];
        pairs[2 * i] = 1, pairs[2 * i + 1] = s;
        tiled[2 * i] = reps[i], tiled[2 * i + 1] = s;
        sizes[i] = (int64_t)((uint64_t)reps[i] * (uint64_t)s); /* wraps as PyTorch's does: its empty() then refuses */
    }
    if (nn_check_new_sizes(nd, sizes, a->dtype, NULL) < 0) return NULL;
    nn_tensor *out = NULL;
    NN_WITH_GRAD_MODE(false, {
        nn_tensor *v = nn_reshape(a, 2 * nd, pairs);
        nn_tensor *e = v ? nn_expand(v, 2 * nd, tiled) : NULL;
        nn_tensor *c = e ? nn_contiguous(e) : NULL;
        out = c ? nn_reshape(c, nd, sizes) : NULL;
        if (out && out->storage == a->storage) NN_SET(out, nn_clone(out)); /* repeat always copies */
        NN_RELEASE(v);
        NN_RELEASE(e);
        NN_RELEASE(c);
    });
    nn_op_params p = {.n_i = nd};
    memcpy(p.i, reps, sizeof(int64_t) * (size_t)nd);
    if (out && nn_record(NN_OP_repeat, 1, &a, 1, &out, 0, NULL, &p) < 0) NN_SET(out, NULL);
    return out;
}

/* the gradient's tiles summed: [r0*s0, ...] viewed as [r0, s0, r1, s1, ...], summed over the r dims */
int nn_repeat_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    const nn_input_meta *m = &n->input_meta[0];
    int nd = n->p.n_i, dims[NN_MAX_DIMS];
    int64_t pairs[NN_MAX_DIMS];
    for (int i = 0; i < nd; i++) {
        pairs[2 * i] = n->p.i[i];
        pairs[2 * i + 1] = i < nd - m->ndim ? 1 : m->sizes[i - (nd - m->ndim)];
        dims[i] = 2 * i;
    }
    nn_tensor *g = nn_reshape(gout[0], 2 * nd, pairs);
    nn_tensor *s = g ? nn_sum(g, nd, dims, false) : NULL;
    gin[0] = s ? nn_reshape(s, m->ndim, m->sizes) : NULL;
    NN_RELEASE(g);
    NN_RELEASE(s);
    return gin[0] ? 0 : -1;
}

/* ----------------------------------------------------------------- take */

nn_tensor *nn_take(nn_tensor *a, nn_tensor *index)
{
    if (index->dtype != NN_INT64) {
        nn_error_set(NN_ERR_RUNTIME, "take(): Expected a long tensor for index, but got %s",
                     nn_dtype_scalar_name(index->dtype));
        return NULL;
    }
    int64_t n = nn_numel(a), m = nn_numel(index), all = -1;
    if (n == 0 && m > 0) {
        nn_error_set(NN_ERR_INDEX, "cannot do a non-empty take from an empty axes.");
        return NULL;
    }
    nn_tensor *ix = nn_plain_as(index, NN_INT64);
    nn_tensor *flat = ix ? nn_reshape(ix, 1, &m) : NULL;
    nn_tensor *wrapped = flat ? nn_clone(flat) : NULL;
    NN_RELEASE(ix);
    NN_RELEASE(flat);
    if (!wrapped) return NULL;
    nn_kernel_args wa = {.t = {wrapped}, .i = {n, 1}};
    if (NN_KERNEL(nn_backend_of(wrapped), index, (NN_INDEX_WRAP_NEGATIVE, &wa)) < 0 || wa.i[2]) {
        if (wa.i[2])
            nn_error_set(NN_ERR_INDEX, "out of range: tried to access index %lld on a tensor of %lld elements.",
                         (long long)wa.i[3], (long long)n);
        NN_RELEASE(wrapped);
        return NULL;
    }
    nn_tensor *out = NULL;
    NN_WITH_GRAD_MODE(false, {
        nn_tensor *af = nn_reshape(a, 1, &all);
        nn_tensor *sel = af ? nn_index_select(af, 0, wrapped) : NULL;
        out = sel ? nn_reshape(sel, index->ndim, index->sizes) : NULL;
        if (out && out->base) NN_SET(out, nn_clone(out)); /* a tensor of its own */
        NN_RELEASE(af);
        NN_RELEASE(sel);
    });
    if (out && nn_record(NN_OP_take, 1, &a, 1, &out, 1, &wrapped, NULL) < 0) NN_SET(out, NULL);
    NN_RELEASE(wrapped);
    return out;
}

/* zeros of the input's shape with the gradient accumulated at the indices */
int nn_take_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    const nn_input_meta *m = &n->input_meta[0];
    int64_t all = -1, numel = 1;
    for (int d = 0; d < m->ndim; d++) numel *= m->sizes[d];
    nn_scratch s = {0};
    nn_tensor *z = NN_KEEP(&s, nn_zeros_on(nn_device_of(gout[0]), 1, &numel, gout[0]->dtype));
    nn_tensor *g = NN_KEEP(&s, nn_reshape(gout[0], 1, &all));
    nn_tensor *acc = NN_KEEP(&s, nn_index_add(z, 0, nn_node_saved(n, 0), g, 1.0));
    nn_tensor *r = NN_KEEP(&s, nn_reshape(acc, m->ndim, m->sizes));
    if (r) NN_RETAIN(r);
    nn_scratch_free(&s);
    gin[0] = r;
    return r ? 0 : -1;
}

nn_tensor *nn_take_along_dim(nn_tensor *a, nn_tensor *index, bool has_dim, int dim)
{
    if (index->dtype != NN_INT64) {
        nn_error_set(NN_ERR_RUNTIME, "torch.take_along_dim(): dtype of indices should be Long but got %s",
                     nn_dtype_scalar_name(index->dtype));
        return NULL;
    }
    int64_t all = -1;
    if (!has_dim) {
        nn_tensor *af = nn_reshape(a, 1, &all), *ifl = af ? nn_reshape(index, 1, &all) : NULL;
        nn_tensor *r = ifl ? nn_take_along_dim(af, ifl, true, 0) : NULL;
        NN_RELEASE(af);
        NN_RELEASE(ifl);
        return r;
    }
    if (a->ndim != index->ndim) {
        nn_error_set(NN_ERR_RUNTIME,
                     "torch.take_along_dim(): input and indices should have the same number of dimensions, but got "
                     "%d dimensions for input, and %d dimensions for indices",
                     a->ndim, index->ndim);
        return NULL;
    }
    int d;
    if (nn_select_wrap_dim(dim, a, &d) < 0) return NULL;
    int64_t sa[NN_MAX_DIMS], si[NN_MAX_DIMS];
    for (int i = 0; i < a->ndim; i++) {
        int nd;
        int64_t b[1];
        if (i == d) {
            sa[i] = a->sizes[i], si[i] = index->sizes[i];
            continue;
        }
        if (nn_broadcast_shapes(1, &a->sizes[i], 1, &index->sizes[i], &nd, b) < 0) return NULL;
        sa[i] = si[i] = b[0];
    }
    nn_tensor *ea = nn_expand(a, a->ndim, sa), *ei = ea ? nn_expand(index, index->ndim, si) : NULL;
    nn_tensor *r = ei ? nn_gather(ea, d, ei) : NULL;
    NN_RELEASE(ea);
    NN_RELEASE(ei);
    return r;
}

/* ------------------------------------------------------- cummax/cummin */

int nn_cumextreme(nn_tensor *a, int dim, bool is_max, nn_tensor **values, nn_tensor **indices)
{
    int d;
    *values = *indices = NULL;
    if (nn_refuse_half(is_max ? "cummax_cpu" : "cummin_cpu", a->dtype, false) < 0) return -1;
    if (nn_select_wrap_dim(dim, a, &d) < 0) return -1;
    nn_tensor *c = nn_plain_as(a, a->dtype);
    nn_tensor *v = c ? nn_empty_on(nn_device_of(c), a->ndim, a->sizes, a->dtype) : NULL;
    nn_tensor *ix = v ? nn_empty_on(nn_device_of(c), a->ndim, a->sizes, NN_INT64) : NULL;
    int64_t outer = 1, len = a->ndim ? a->sizes[d] : 1, inner = 1;
    for (int i = 0; i < d; i++) outer *= a->sizes[i];
    for (int i = d + 1; i < a->ndim; i++) inner *= a->sizes[i];
    nn_kernel_args ka = {.t = {v, ix, c}, .i = {outer, len, inner, is_max}};
    if (!ix || NN_KERNEL(nn_backend_of(c), index, (NN_INDEX_CUMEXTREME, &ka)) < 0) {
        NN_RELEASE(c);
        NN_RELEASE(v);
        NN_RELEASE(ix);
        return -1;
    }
    NN_RELEASE(c);
    nn_op_params p = {.i = {d}, .n_i = 1};
    if (nn_record(is_max ? NN_OP_cummax : NN_OP_cummin, 1, &a, 1, &v, 1, &ix, &p) < 0) {
        NN_RELEASE(v);
        NN_RELEASE(ix);
        return -1;
    }
    *values = v;
    *indices = ix;
    return 0;
}

/* zeros_like(self).scatter_add(dim, indices, grad) */
static int cumextreme_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    const nn_input_meta *m = &n->input_meta[0];
    if (m->ndim == 0) {
        gin[0] = nn_clone(gout[0]);
        return gin[0] ? 0 : -1;
    }
    nn_tensor *z = nn_zeros_on(nn_device_of(gout[0]), m->ndim, m->sizes, gout[0]->dtype);
    gin[0] = z ? nn_scatter_add(z, (int)n->p.i[0], nn_node_saved(n, 0), gout[0]) : NULL;
    NN_RELEASE(z);
    return gin[0] ? 0 : -1;
}

int nn_cummax_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return cumextreme_backward(n, gout, gin); }
int nn_cummin_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return cumextreme_backward(n, gout, gin); }

/* ---------------------------------------------------------------- cross */

static nn_tensor *cross_values(nn_tensor *a, nn_tensor *b, int d)
{
    int64_t three = 3;
    nn_scratch s = {0};
    nn_tensor *p = NN_KEEP(&s, nn_from_data_on(nn_device_of(a), (const int64_t[]){1, 2, 0}, 1, &three, NN_INT64));
    nn_tensor *q = NN_KEEP(&s, nn_from_data_on(nn_device_of(a), (const int64_t[]){2, 0, 1}, 1, &three, NN_INT64));
    if (s.failed) return NULL;
    /* r_i = a_p(i) b_q(i) - a_q(i) b_p(i): ATen's a1 b2 - a2 b1, a2 b0 - a0 b2, a0 b1 - a1 b0 */
    nn_tensor *ap = NN_KEEP(&s, nn_index_select(a, d, p)), *aq = NN_KEEP(&s, nn_index_select(a, d, q));
    nn_tensor *bp = NN_KEEP(&s, nn_index_select(b, d, p)), *bq = NN_KEEP(&s, nn_index_select(b, d, q));
    nn_tensor *l = NN_KEEP(&s, nn_mul(ap, bq)), *r = NN_KEEP(&s, nn_mul(aq, bp));
    nn_tensor *out = s.failed ? NULL : nn_sub(l, r);
    nn_scratch_free(&s);
    return out;
}

nn_tensor *nn_cross(nn_tensor *a, nn_tensor *b, bool has_dim, int dim, bool linalg)
{
    if (nn_refuse_half("cross", nn_result_type(a, b), false) < 0) return NULL;
    if (a->ndim != b->ndim) {
        nn_error_set(NN_ERR_RUNTIME, "linalg.cross: inputs must have the same number of dimensions.");
        return NULL;
    }
    if (!has_dim) {
        dim = -1;
        for (int i = 0; i < a->ndim && dim < 0; i++)
            if (a->sizes[i] == 3) dim = i;
        if (dim < 0) {
            nn_error_set(NN_ERR_RUNTIME, "no dimension of size 3 in input");
            return NULL;
        }
    }
    (void)linalg;
    int d;
    if (nn_wrap_dim(dim, a->ndim, &d) < 0) return NULL;
    if (a->sizes[d] != 3 || b->sizes[d] != 3) {
        nn_error_set(NN_ERR_RUNTIME, "linalg.cross: inputs dimension %d must have length 3. Got %lld and %lld", dim,
                     (long long)a->sizes[d], (long long)b->sizes[d]);
        return NULL;
    }
    int nd;
    int64_t shape[NN_MAX_DIMS];
    if (nn_broadcast_shapes(a->ndim, a->sizes, b->ndim, b->sizes, &nd, shape) < 0) return NULL;
    nn_tensor *out = NULL;
    bool prev = nn_set_grad_enabled(false);
    nn_tensor *ea = nn_expand(a, nd, shape), *eb = ea ? nn_expand(b, nd, shape) : NULL;
    out = eb ? cross_values(ea, eb, d) : NULL;
    NN_RELEASE(ea);
    NN_RELEASE(eb);
    nn_set_grad_enabled(prev);
    nn_tensor *in[2] = {a, b};
    nn_op_params p = {.i = {d}, .n_i = 1};
    if (out && nn_record(NN_OP_cross, 2, in, 1, &out, 2, in, &p) < 0) NN_SET(out, NULL);
    return out;
}

/* self: cross(other, grad), other: cross(grad, self), each summed to its shape */
int nn_cross_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    int d = (int)n->p.i[0];
    for (int i = 0; i < 2; i++) {
        if (!nn_node_needs_input_grad(n, i)) continue;
        nn_tensor *x = nn_node_saved(n, 1 - i);
        nn_tensor *c = i == 0 ? nn_cross(x, gout[0], true, d, true) : nn_cross(gout[0], x, true, d, true);
        const nn_input_meta *m = &n->input_meta[i];
        gin[i] = c ? nn_sum_to_size(c, m->ndim, m->sizes) : NULL;
        NN_RELEASE(c);
        if (!gin[i]) return -1;
    }
    return 0;
}

/* ----------------------------------------------------------------- kron */

nn_tensor *nn_kron(nn_tensor *a, nn_tensor *b)
{
    int maxdim = a->ndim > b->ndim ? a->ndim : b->ndim, pa = maxdim - a->ndim, pb = maxdim - b->ndim;
    if (2 * maxdim > NN_MAX_DIMS) {
        nn_error_set(NN_ERR_RUNTIME, "kron: tensors have at most %d dimensions here", NN_MAX_DIMS / 2);
        return NULL;
    }
    int64_t ra[NN_MAX_DIMS], rb[NN_MAX_DIMS], res[NN_MAX_DIMS];
    for (int i = 0; i < maxdim; i++) {
        ra[2 * i] = i >= pa ? a->sizes[i - pa] : 1;
        ra[2 * i + 1] = 1;
        rb[2 * i] = 1;
        rb[2 * i + 1] = i >= pb ? b->sizes[i - pb] : 1;
        res[i] = ra[2 * i] * rb[2 * i + 1];
    }
    nn_scratch s = {0};
    nn_tensor *va = NN_KEEP(&s, nn_reshape(a, 2 * maxdim, ra)), *vb = NN_KEEP(&s, nn_reshape(b, 2 * maxdim, rb));
    nn_tensor *m = NN_KEEP(&s, nn_mul(va, vb));
    nn_tensor *r = s.failed ? NULL : nn_unsafe_view_of(m, maxdim, res);
    nn_scratch_free(&s);
    return r;
}

/* ------------------------------------------------------------ tensordot */

nn_tensor *nn_tensordot(nn_tensor *a, nn_tensor *b, int n, const int *da, const int *db)
{
    bool ca[NN_MAX_DIMS] = {0}, cb[NN_MAX_DIMS] = {0};
    int pa[NN_MAX_DIMS], pb[NN_MAX_DIMS], na = 0, nb = 0, nr = 0;
    int64_t size1 = 1, size2 = 1, csize = 1, rs[NN_MAX_DIMS];
    for (int i = 0; i < n; i++) {
        int x, y;
        if (nn_wrap_dim(da[i], a->ndim, &x) < 0 || nn_wrap_dim(db[i], b->ndim, &y) < 0) return NULL;
        if (a->sizes[x] != b->sizes[y]) {
            nn_error_set(NN_ERR_RUNTIME,
                         "contracted dimensions need to match, but first has size %lld in dim %d and second has size "
                         "%lld in dim %d",
                         (long long)a->sizes[x], da[i], (long long)b->sizes[y], db[i]);
            return NULL;
        }
        if (ca[x] || cb[y]) {
            nn_error_set(NN_ERR_RUNTIME, "dim %d appears multiple times in the list of dims", ca[x] ? x : y);
            return NULL;
        }
        ca[x] = cb[y] = true;
        csize *= a->sizes[x];
    }
    for (int i = 0; i < a->ndim; i++)
        if (!ca[i]) pa[na++] = i, size1 *= a->sizes[i], rs[nr++] = a->sizes[i];
    for (int i = 0; i < n; i++) {
        int x, y;
        nn_wrap_dim(da[i], a->ndim, &x);
        nn_wrap_dim(db[i], b->ndim, &y);
        pa[na++] = x;
        pb[nb++] = y;
    }
    for (int i = 0; i < b->ndim; i++)
        if (!cb[i]) pb[nb++] = i, size2 *= b->sizes[i], rs[nr++] = b->sizes[i];
    nn_scratch s = {0};
    nn_tensor *t1 = NN_KEEP(&s, nn_reshape(NN_KEEP(&s, nn_permute(a, a->ndim, pa)), 2, (int64_t[]){size1, csize}));
    nn_tensor *t2 = NN_KEEP(&s, nn_reshape(NN_KEEP(&s, nn_permute(b, b->ndim, pb)), 2, (int64_t[]){csize, size2}));
    nn_tensor *m = NN_KEEP(&s, nn_mm(t1, t2));
    nn_tensor *r = s.failed ? NULL : nn_reshape(m, nr, rs);
    nn_scratch_free(&s);
    return r;
}

/* ----------------------------------------------------------------- diff */

nn_tensor *nn_diff(nn_tensor *a, int64_t n, int dim, nn_tensor *prepend, nn_tensor *append)
{
    if (a->ndim < 1) {
        nn_error_set(NN_ERR_RUNTIME, "diff expects input to be at least one-dimensional");
        return NULL;
    }
    int d;
    if (nn_wrap_dim(dim, a->ndim, &d) < 0) return NULL;
    nn_tensor *parts[3];
    int np = 0;
    for (int i = 0; i < 2; i++) {
        nn_tensor *x = i ? append : prepend;
        if (x && x->ndim != a->ndim) {
            nn_error_set(NN_ERR_RUNTIME, "diff expects prepend or append to be the same dimension as input");
            return NULL;
        }
    }
    if (prepend) parts[np++] = prepend;
    parts[np++] = a;
    if (append) parts[np++] = append;
    nn_tensor *x = np > 1 ? nn_cat(np, parts, d) : (NN_RETAIN(a), a);
    if (!x) return NULL;
    if (n == 0) { /* ATen: zeros_like(x).copy_(x), a CopyBackwards node */
        nn_tensor *r = nn_zeros_like(x);
        if (r && nn_copy_recorded_(r, x) < 0) NN_SET(r, NULL);
        NN_RELEASE(x);
        return r;
    }
    int64_t len = x->sizes[d] - 1;
    if (n > x->sizes[d]) n = x->sizes[d];
    for (int64_t i = 0; i < n && x; i++, len--) {
        nn_tensor *hi = nn_narrow(x, d, 1, len), *lo = hi ? nn_narrow(x, d, 0, len) : NULL;
        nn_tensor *r = !lo ? NULL : x->dtype == NN_BOOL ? nn_bitwise_xor(hi, lo) : nn_sub(hi, lo);
        NN_RELEASE(hi);
        NN_RELEASE(lo);
        NN_SET(x, r);
    }
    return x;
}

/* ------------------------------------------ Tensor.copy_ / fill_ / zero_ */

/* The language's t.copy_(src), t.fill_(v), t.zero_(), recorded as PyTorch records
   them (CopyBackwards with edges to dst's old history and src, FillBackward2,
   ZeroBackward0); a view with history is refused before the write. */
int nn_copy_recorded_(nn_tensor *dst, nn_tensor *src)
{
    nn_tensor *in[2] = {dst, src};
    if (nn_check_inplace_record(dst, 2, in) < 0 || nn_copy_(dst, src) < 0) return -1;
    return nn_record_inplace(NN_OP_copy_from, dst, 2, in, 0, NULL, NULL);
}

static int fill_recorded(nn_op_id op, nn_tensor *t, double value)
{
    if (nn_check_inplace_record(t, 1, &t) < 0 || nn_fill_(t, value) < 0) return -1;
    return nn_record_inplace(op, t, 1, &t, 0, NULL, NULL);
}
int nn_fill_recorded_(nn_tensor *t, double value) { return fill_recorded(NN_OP_fill, t, value); }
int nn_zero_recorded_(nn_tensor *t) { return fill_recorded(NN_OP_zero, t, 0.0); }

int nn_fill_tensor_recorded_(nn_tensor *t, nn_tensor *value)
{
    if (value->ndim != 0)
        return nn_error_set(NN_ERR_RUNTIME, "fill_ only supports 0-dimension value tensor but got tensor with %d "
                                            "dimensions.", value->ndim);
    nn_tensor *in[2] = {t, value};
    if (nn_check_inplace_record(t, 2, in) < 0 || nn_copy_(t, value) < 0) return -1;
    return nn_record_inplace(NN_OP_fill_tensor, t, 2, in, 0, NULL, NULL);
}

/* zeros for the overwritten value; src's gradient in its dtype, summed to its shape */
int nn_copy_from_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    if (nn_node_needs_input_grad(n, 0) && !(gin[0] = nn_zeros_like(gout[0]))) return -1;
    if (nn_node_needs_input_grad(n, 1)) {
        const nn_input_meta *m = &n->input_meta[1];
        nn_tensor *g = nn_to_dtype(gout[0], m->dtype);
        gin[1] = g ? nn_sum_to_size(g, m->ndim, m->sizes) : NULL;
        NN_RELEASE(g);
        if (!gin[1]) return -1;
    }
    return 0;
}

static int overwritten_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    gin[0] = nn_zeros_like(gout[0]);
    return gin[0] ? 0 : -1;
}
int nn_fill_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return overwritten_backward(n, gout, gin); }
/* as copy_'s: zeros for the old value, the gradient summed to the 0-dim value in its dtype */
int nn_fill_tensor_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return nn_copy_from_backward(n, gout, gin); }
int nn_zero_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return overwritten_backward(n, gout, gin); }

/* -------------------------------------------------- atleast_Nd / stacks */

nn_tensor *nn_atleast(nn_tensor *a, int nd)
{
    if (a->ndim >= nd) {
        NN_RETAIN(a);
        return a;
    }
    if (a->ndim == 0) return nn_reshape(a, nd, (const int64_t[]){1, 1, 1});
    if (nd == 2 || a->ndim == 2) return nn_unsqueeze(a, a->ndim == 2 ? -1 : 0);
    nn_tensor *u = nn_unsqueeze(a, 0), *r = u ? nn_unsqueeze(u, -1) : NULL; /* 1-d into 3-d */
    NN_RELEASE(u);
    return r;
}

static nn_tensor *stack_reshaped(const char *name, int n, nn_tensor *const *ts, bool columns)
{
    if (n == 0) {
        nn_error_set(NN_ERR_RUNTIME, "%s expects a non-empty TensorList", name);
        return NULL;
    }
    nn_tensor **r = nn_calloc((size_t)n, sizeof *r), *out = NULL;
    if (!r) return NULL;
    int i = 0;
    for (; i < n; i++) {
        if (columns && ts[i]->ndim <= 1)
            r[i] = nn_reshape(ts[i], 2, (const int64_t[]){nn_numel(ts[i]), 1});
        else if (columns)
            r[i] = (NN_RETAIN(ts[i]), ts[i]);
        else
            r[i] = nn_atleast(ts[i], 3);
        if (!r[i]) break;
    }
    if (i == n) out = nn_cat(n, r, columns ? 1 : 2);
    for (int j = 0; j < i; j++) NN_RELEASE(r[j]);
    nn_free(r);
    return out;
}

nn_tensor *nn_dstack(int n, nn_tensor *const *ts) { return stack_reshaped("dstack", n, ts, false); }
nn_tensor *nn_column_stack(int n, nn_tensor *const *ts) { return stack_reshaped("column_stack", n, ts, true); }

/* --------------------------------------------------------- searchsorted */

nn_tensor *nn_searchsorted(nn_tensor *sorted, nn_tensor *values, bool right, bool out_int32, nn_tensor *sorter)
{
    char s1[256], s2[256];
    if (sorted->ndim == 0) {
        nn_error_set(NN_ERR_RUNTIME, "torch.searchsorted(): boundaries tensor should have positive dimension, but got "
                                     "0 dimension");
        return NULL;
    }
    bool leading_ok = sorted->ndim == 1 || (sorted->ndim == values->ndim &&
                                            !memcmp(sorted->sizes, values->sizes, sizeof(int64_t) * (size_t)(values->ndim - 1)));
    if (!leading_ok) {
        nn_error_set(NN_ERR_RUNTIME,
                     "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of "
                     "boundaries tensor and input value tensor must match, but we got boundaries tensor %s and input "
                     "value tensor %s",
                     nn_shape_str(sorted->ndim, sorted->sizes, s1, sizeof s1),
                     nn_shape_str(values->ndim, values->sizes, s2, sizeof s2));
        return NULL;
    }
    if (sorter && (sorter->dtype != NN_INT64 || sorter->ndim != sorted->ndim ||
                   memcmp(sorter->sizes, sorted->sizes, sizeof(int64_t) * (size_t)sorted->ndim))) {
        nn_error_set(NN_ERR_RUNTIME, sorter->dtype != NN_INT64
                                         ? "torch.searchsorted(): sorter must be a tensor of long dtype but got dtype %s"
                                         : "torch.searchsorted(): boundary and sorter must have the same size, but got "
                                           "boundary tensor %s and got sorter tensor %s",
                     sorter->dtype != NN_INT64 ? nn_dtype_scalar_name(sorter->dtype)
                                               : nn_shape_str(sorted->ndim, sorted->sizes, s1, sizeof s1),
                     nn_shape_str(sorter->ndim, sorter->sizes, s2, sizeof s2));
        return NULL;
    }
    if (!nn_same_device(nn_device_of(sorted), nn_device_of(values)) ||
        (sorter && !nn_same_device(nn_device_of(sorter), nn_device_of(sorted)))) {
        bool v = !nn_same_device(nn_device_of(sorted), nn_device_of(values));
        nn_device_str(v ? nn_device_of(sorted) : nn_device_of(sorter), s1, sizeof s1);
        nn_device_str(v ? nn_device_of(values) : nn_device_of(sorted), s2, sizeof s2);
        nn_error_set(NN_ERR_RUNTIME, v ? "torch.searchsorted(): boundaries and input value tensors should have same device "
                                         "type, but got boundaries tensor device type %s and input value tensor device type %s"
                                       : "torch.searchsorted(): sorter and boundary tensors should have same device type, "
                                         "but got sorter tensor device type %s and input value tensor device type %s",
                     s1, s2);
        return NULL;
    }
    int64_t len = sorted->sizes[sorted->ndim - 1], rows = nn_numel(sorted) / (len ? len : 1);
    int64_t nv = nn_numel(values), per_row = sorted->ndim == 1 ? nv : (values->ndim ? values->sizes[values->ndim - 1] : 1);
    nn_tensor *bc = nn_plain_as(sorted, NN_FLOAT64), *vc = bc ? nn_plain_as(values, NN_FLOAT64) : NULL;
    nn_tensor *sc = sorter && vc ? nn_plain_as(sorter, NN_INT64) : NULL;
    nn_tensor *out = vc && (!sorter || sc)
                         ? nn_empty_on(nn_device_of(vc), values->ndim, values->sizes, out_int32 ? NN_INT32 : NN_INT64)
                         : NULL;
    nn_kernel_args ka = {.t = {out, bc, vc, sc}, .i = {len, per_row, right, sorted->ndim == 1}};
    if (out && NN_KERNEL(nn_backend_of(vc), index, (NN_INDEX_SEARCHSORTED, &ka)) < 0) NN_SET(out, NULL);
    NN_RELEASE(bc);
    NN_RELEASE(vc);
    (void)rows;
    NN_RELEASE(sc);
    return out;
}
