/*
 * quantile.c — quantile and nanquantile as ATen 1.13 composes them
 * (Sorting.cpp's quantile_impl): sort along the dim (or the flattened input),
 * ranks q * (n - 1) in the input's dtype (a NaN row: the last rank; for
 * nanquantile the count of non-NaN values), gather below and above, lerp
 * for 'linear' and 'midpoint', then squeeze_ the last dim in place, so the
 * result's grad_fn is SqueezeBackward3 as in PyTorch.
 */
#include <math.h>
#include <string.h>

#include "nn_int.h"
#include "nn_math.h"
#include "nn_ops_extra.h"
#include "nn_scratch.h"
#include "nn_select.h"
#include "nn_select_more.h"

static const char *const modes[] = {"linear", "lower", "higher", "midpoint", "nearest"};

int nn_quantile_mode(const char *name)
{
    for (int i = 0; i < 5; i++)
        if (!strcmp(modes[i], name)) return i;
    return nn_error_set(NN_ERR_RUNTIME, "quantile() interpolation must be one of linear, lower, higher, midpoint or "
                                        "nearest, but got %s", name);
}

/* r (a fresh tensor whose last dim is 1) loses that dim in place: squeeze_(-1), SqueezeBackward3 */
static int squeeze_last_(nn_tensor *r)
{
    nn_op_params p = {.n_i = 0, .flags = 0};
    if (nn_record_inplace(NN_OP_squeeze_inplace, r, 1, &r, 0, NULL, &p) < 0) return -1;
    r->ndim--;
    nn_bump_version(r);
    if (r->grad_fn) {
        nn_input_meta *m = &r->grad_fn->output_meta[0];
        m->ndim = r->ndim;
    }
    return 0;
}

nn_tensor *nn_quantile(nn_tensor *a, nn_tensor *q, bool has_dim, int dim, bool keepdim, int mode, bool ignore_nan)
{
    const char *f = ignore_nan ? "nanquantile()" : "quantile()";
    if (a->dtype != NN_FLOAT32 && a->dtype != NN_FLOAT64) {
        nn_error_set(NN_ERR_RUNTIME, "%s input tensor must be either float or double dtype", f);
        return NULL;
    }
    if (q->ndim > 1) {
        nn_error_set(NN_ERR_RUNTIME, "%s q must be a scalar or 1D tensor", f);
        return NULL;
    }
    if (q->dtype != a->dtype) {
        nn_error_set(NN_ERR_RUNTIME, "%s q tensor must be same dtype as the input tensor", f);
        return NULL;
    }
    if (!nn_same_device(nn_device_of(q), nn_device_of(a))) {
        nn_error_set(NN_ERR_RUNTIME, "%s q tensor must be on the same device as the input tensor", f);
        return NULL;
    }
    /* q's values, through the host contract (a copy when q is on a device) */
    int64_t nq = nn_numel(q);
    nn_tensor *qhold = NULL;
    const char *qh = nq ? nn_host_read(q, &qhold) : NULL;
    if (nq && !qh) return NULL;
    for (int64_t i = 0; i < nq; i++) {
        double v = nn_load_double(qh + (size_t)i * nn_dtype_size(q->dtype), q->dtype);
        if (!(v >= 0 && v <= 1)) {
            if (q->ndim == 0)
                nn_error_set(NN_ERR_RUNTIME, "%s q must be in the range [0, 1] but got %g", f, v);
            else
                nn_error_set(NN_ERR_RUNTIME, "%s q values must be in the range [0, 1]", f);
            NN_RELEASE(qhold);
            return NULL;
        }
    }
    NN_RELEASE(qhold);
    int d = 0;
    if (has_dim && nn_select_wrap_dim(dim, a, &d) < 0) return NULL;
    if (a->ndim == 0) has_dim = false;
    /* the sorted values, the reduced dim last, viewed as [...rest, n] */
    nn_scratch s = {0};
    nn_tensor *v = NULL, *ix = NULL, *src = NULL;
    int64_t rest[NN_MAX_DIMS + 1];
    int nr = 0;
    if (!has_dim) {
        int64_t all = -1;
        src = NN_KEEP(&s, nn_reshape(a, 1, &all));
        for (int i = 0; keepdim && i < a->ndim; i++) rest[nr++] = 1;
    } else {
        src = d == a->ndim - 1 ? a : NN_KEEP(&s, nn_transpose(NN_KEEP(&s, nn_unsqueeze(a, -1)), d, -1));
        for (int i = 0; i < a->ndim; i++)
            if (i != d) rest[nr++] = a->sizes[i];
            else if (keepdim) rest[nr++] = 1;
    }
    if (s.failed) return nn_scratch_free(&s), NULL;
    if (nn_sort(src, -1, false, &v, &ix) < 0) return nn_scratch_free(&s), NULL;
    NN_KEEP(&s, v);
    NN_KEEP(&s, ix);
    int64_t n = v->ndim ? v->sizes[v->ndim - 1] : 1;
    rest[nr] = n;
    nn_tensor *sorted = NN_KEEP(&s, nn_view(v, nr + 1, rest));
    nn_tensor *ranks = NULL;
    bool prev = nn_set_grad_enabled(false);
    int last = -1;
    nn_tensor *qd = NN_KEEP(&s, nn_detach(q));
    nn_tensor *nan = NN_KEEP(&s, nn_compare(sorted, sorted, NN_NE));
    if (ignore_nan) {
        nn_tensor *cnt = NN_KEEP(&s, nn_sum(NN_KEEP(&s, nn_bitwise_not(nan)), 1, &last, true));
        nn_tensor *cm1 = NN_KEEP(&s, nn_add_scalar(cnt, -1));
        ranks = NN_KEEP(&s, nn_mul(qd, cm1));
        nn_tensor *zero = NN_KEEP(&s, nn_scalar(0, a->dtype));
        ranks = NN_KEEP(&s, nn_where(NN_KEEP(&s, nn_compare(ranks, zero, NN_LT)), zero, ranks));
    } else {
        nn_tensor *r0 = NN_KEEP(&s, nn_mul_scalar(qd, (double)(n - 1)));
        nn_tensor *any = NN_KEEP(&s, nn_amax(nan, 1, &last, true));
        nn_tensor *li = NN_KEEP(&s, nn_scalar((double)(n - 1), a->dtype));
        ranks = NN_KEEP(&s, nn_where(any, li, r0)); /* broadcasts q with the rows: [...rest, nq] */
    }
    if (mode == 1) ranks = NN_KEEP(&s, nn_floor(ranks));
    else if (mode == 2) ranks = NN_KEEP(&s, nn_ceil(ranks));
    else if (mode == 4) ranks = NN_KEEP(&s, nn_round(ranks));
    nn_tensor *below = NN_KEEP(&s, nn_to_dtype(ranks, NN_INT64));
    nn_tensor *above = mode == 0 || mode == 3 ? NN_KEEP(&s, nn_to_dtype(NN_KEEP(&s, nn_ceil(ranks)), NN_INT64)) : NULL;
    nn_tensor *weights = mode == 3 ? NN_KEEP(&s, nn_full_like(ranks, 0.5)) : mode == 0 ? NN_KEEP(&s, nn_sub(ranks, below)) : NULL;
    nn_set_grad_enabled(prev);
    if (s.failed) return nn_scratch_free(&s), NULL;
    /* q broadcast against a row of ranks: expand the indices to the rows' shape */
    nn_tensor *vb = NN_KEEP(&s, nn_gather(sorted, -1, below));
    nn_tensor *res = vb;
    if (above) res = NN_KEEP(&s, nn_lerp(vb, NN_KEEP(&s, nn_gather(sorted, -1, above)), weights, 0));
    if (s.failed) return nn_scratch_free(&s), NULL;
    nn_tensor *out = NULL;
    if (q->ndim == 0) {
        out = (NN_RETAIN(res), res);
    } else {
        nn_tensor *t = NN_KEEP(&s, nn_transpose(NN_KEEP(&s, nn_unsqueeze(res, 0)), 0, -1));
        out = t ? nn_contiguous(t) : NULL;
        if (out == t) NN_SET(out, nn_clone(t));
    }
    nn_scratch_free(&s);
    if (out && squeeze_last_(out) < 0) NN_SET(out, NULL);
    return out;
}
