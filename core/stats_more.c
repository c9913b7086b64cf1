/*
 * stats_more.c — cov, corrcoef and cdist. cov and corrcoef are ATen's
 * compositions (Correlation.cpp: mean-centred mm over the observations,
 * true_divide, squeeze; corrcoef divides by the standard deviations and clips),
 * so their grad_fns are SqueezeBackward0 and ClampBackward1. cdist has
 * ATen's node (CdistBackward0, _cdist_backward's formula built from
 * differentiable ops) and, for p = 2 with more than 25 rows, ATen's
 * _euclidean_dist composition through a matrix product (ViewBackward0).
 */
#include <math.h>
#include <string.h>

#include "nn_int.h"
#include "nn_ops_extra.h"
#include "nn_scratch.h"
#include "nn_select.h"
#include "nn_select_more.h"
#include "nn_autocast.h"

/* ------------------------------------------------------------ cov */

nn_tensor *nn_cov(nn_tensor *a, int64_t correction)
{
    if (a->ndim > 2) {
        nn_error_set(NN_ERR_RUNTIME, "cov(): expected input to have two or fewer dimensions but got an input with %d "
                                     "dimensions", a->ndim);
        return NULL;
    }
    if (a->dtype == NN_BOOL) {
        nn_error_set(NN_ERR_RUNTIME, "cov(): bool dtype is not supported for input");
        return NULL;
    }
    nn_scratch s = {0};
    int64_t all[2] = {1, -1};
    nn_tensor *in = a->ndim < 2 ? NN_KEEP(&s, nn_view(a, 2, all)) : a;
    if (!in) return NULL;
    int64_t nobs = in->sizes[1];
    nn_tensor *w_sum = NN_KEEP(&s, nn_scalar((double)nobs, NN_INT64));
    nn_tensor *avg = NN_KEEP(&s, nn_div(NN_KEEP(&s, nn_sum(in, 1, (const int[]){1}, false)), w_sum));
    nn_tensor *norm = NN_KEEP(&s, nn_scalar((double)(nobs - correction), NN_INT64));
    if (!s.failed && nobs - correction <= 0) {
        if (nn_warn("UserWarning", "cov(): degrees of freedom is <= 0 (Triggered internally at  "
                                   "./aten/src/ATen/native/Correlation.cpp:100.)") < 0)
            s.failed = true;
        norm = NN_KEEP(&s, nn_scalar(0, NN_INT64));
    }
    nn_tensor *centred = NN_KEEP(&s, nn_sub(in, NN_KEEP(&s, nn_unsqueeze(avg, 1))));
    nn_tensor *c = NN_KEEP(&s, nn_mm(centred, NN_KEEP(&s, nn_t(centred))));
    nn_tensor *q = NN_KEEP(&s, nn_div(c, norm));
    nn_tensor *r = s.failed ? NULL : nn_squeeze(q);
    nn_scratch_free(&s);
    return r;
}

nn_tensor *nn_corrcoef(nn_tensor *a)
{
    if (a->ndim > 2) {
        nn_error_set(NN_ERR_RUNTIME, "corrcoef(): expected input to have two or fewer dimensions but got an input "
                                     "with %d dimensions", a->ndim);
        return NULL;
    }
    nn_tensor *c = nn_cov(a, 1);
    if (!c) return NULL;
    if (c->ndim == 0) {
        nn_tensor *r = nn_div(c, c);
        NN_RELEASE(c);
        return r;
    }
    nn_scratch s = {0};
    NN_KEEP(&s, c);
    nn_tensor *sd = NN_KEEP(&s, nn_sqrt(NN_KEEP(&s, nn_diagonal(c, 0, 0, 1))));
    nn_tensor *c1 = NN_KEEP(&s, nn_div(c, NN_KEEP(&s, nn_view(sd, 2, (const int64_t[]){-1, 1}))));
    nn_tensor *c2 = NN_KEEP(&s, nn_div(c1, NN_KEEP(&s, nn_view(sd, 2, (const int64_t[]){1, -1}))));
    nn_tensor *r = s.failed ? NULL : nn_clamp(c2, -1, true, 1, true);
    nn_scratch_free(&s);
    return r;
}

/* ----------------------------------------------------------- cdist */

/* x1[..., :, None, :] - x2[..., None, :, :] */
static nn_tensor *pair_diffs(nn_scratch *s, nn_tensor *x1, nn_tensor *x2)
{
    return NN_KEEP(s, nn_sub(NN_KEEP(s, nn_unsqueeze(x1, -2)), NN_KEEP(s, nn_unsqueeze(x2, -3))));
}

/* ATen's _euclidean_dist: |x1|^2 - 2 x1.x2 + |x2|^2 as one product, clamped at 0 and rooted */
static nn_tensor *euclidean_dist(nn_tensor *x1, nn_tensor *x2)
{
    nn_scratch s = {0};
    int last = -1;
    nn_tensor *n1 = NN_KEEP(&s, nn_sum(NN_KEEP(&s, nn_pow_scalar(x1, 2)), 1, &last, true));
    nn_tensor *n2 = NN_KEEP(&s, nn_sum(NN_KEEP(&s, nn_pow_scalar(x2, 2)), 1, &last, true));
    nn_tensor *p1 = NN_KEEP(&s, nn_ones_like(n1)), *p2 = NN_KEEP(&s, nn_ones_like(n2));
    nn_tensor *m2 = NN_KEEP(&s, nn_mul_scalar(x1, -2));
    nn_tensor *a = s.failed ? NULL : NN_KEEP(&s, nn_cat(3, (nn_tensor *[]){m2, n1, p1}, -1));
    nn_tensor *b = s.failed ? NULL : NN_KEEP(&s, nn_cat(3, (nn_tensor *[]){x2, p2, n2}, -1));
    nn_tensor *r = NN_KEEP(&s, nn_matmul(a, NN_KEEP(&s, nn_transpose(b, -1, -2))));
    nn_tensor *out = s.failed ? NULL : nn_clamp_min(r, 0); /* 1.13 clamps at 0 */
    nn_tensor *root = out ? nn_sqrt(out) : NULL;
    NN_RELEASE(out);
    nn_scratch_free(&s);
    return root;
}

nn_tensor *nn_cdist(nn_tensor *x1, nn_tensor *x2, double p)
{
    NN_AUTOCAST(FP32, nn_cdist(ac_[0], ac_[1], p), x1, x2);
    if (x1->ndim < 2 || x2->ndim < 2) {
        nn_error_set(NN_ERR_RUNTIME, "cdist only supports at least 2D tensors, X%d got: %dD", x1->ndim < 2 ? 1 : 2,
                     x1->ndim < 2 ? x1->ndim : x2->ndim);
        return NULL;
    }
    int64_t c1 = x1->sizes[x1->ndim - 1], c2 = x2->sizes[x2->ndim - 1];
    if (c1 != c2) {
        nn_error_set(NN_ERR_RUNTIME, "X1 and X2 must have the same number of columns. X1: %lld X2: %lld", (long long)c1,
                     (long long)c2);
        return NULL;
    }
    if (!nn_dtype_is_floating(x1->dtype)) {
        nn_error_set(NN_ERR_RUNTIME, "cdist only supports floating-point dtypes, X1 got: %s", nn_dtype_scalar_name(x1->dtype));
        return NULL;
    }
    if (!(p >= 0)) {
        nn_error_set(NN_ERR_RUNTIME, "cdist only supports non-negative p values");
        return NULL;
    }
    int64_t r1 = x1->sizes[x1->ndim - 2], r2 = x2->sizes[x2->ndim - 2];
    if (p == 2 && (r1 > 25 || r2 > 25) && nn_numel(x1) > 0 && nn_numel(x2) > 0) {
        nn_tensor *d = euclidean_dist(x1, x2);
        if (!d) return NULL;
        nn_tensor *v = nn_view(d, d->ndim, d->sizes); /* cdist_impl's view to the output shape */
        NN_RELEASE(d);
        return v;
    }
    nn_tensor *out = NULL;
    nn_scratch s = {0};
    NN_WITH_GRAD_MODE(false, {
        nn_tensor *diff = pair_diffs(&s, x1, x2);
        int last = -1;
        out = s.failed ? NULL : nn_norm(diff, p, 1, &last, false);
    });
    nn_scratch_free(&s);
    nn_tensor *in[2] = {x1, x2};
    nn_op_params prm = {.f = {p}};
    if (out && nn_record(NN_OP_cdist, 2, in, 1, &out, 3, (nn_tensor *[]){x1, x2, out}, &prm) < 0) NN_SET(out, NULL);
    return out;
}

/* _cdist_backward for x1: the gradient of each pair's p-norm of x1_i - x2_j
   (g and dist [..., r1, r2]), summed over j; x2's is the same with the roles
   swapped, as ATen calls it with the transposes */
static nn_tensor *cdist_grad(nn_tensor *x1, nn_tensor *x2, nn_tensor *grad, nn_tensor *dist, double p)
{
    nn_scratch s = {0};
    nn_tensor *diff = pair_diffs(&s, x1, x2);
    nn_tensor *g = NN_KEEP(&s, nn_unsqueeze(grad, -1)), *d = NN_KEEP(&s, nn_unsqueeze(dist, -1));
    nn_tensor *zero = NN_KEEP(&s, nn_scalar(0, x1->dtype));
    nn_tensor *term = NULL;
    if (p == 1) {
        term = NN_KEEP(&s, nn_mul(g, NN_KEEP(&s, nn_sign(diff))));
    } else if (isinf(p)) {
        nn_tensor *hit = NN_KEEP(&s, nn_compare(NN_KEEP(&s, nn_abs(diff)), d, NN_EQ));
        term = NN_KEEP(&s, nn_mul(NN_KEEP(&s, nn_mul(g, NN_KEEP(&s, nn_sign(diff)))), hit));
    } else {
        /* diff |diff|^(p-2) g / dist^(p-1), 0 where dist is 0 */
        nn_tensor *num = p == 2 ? diff : NN_KEEP(&s, nn_mul(diff, NN_KEEP(&s, nn_pow_scalar(NN_KEEP(&s, nn_abs(diff)), p - 2))));
        nn_tensor *den = p == 2 ? d : NN_KEEP(&s, nn_pow_scalar(d, p - 1));
        nn_tensor *q = NN_KEEP(&s, nn_div(NN_KEEP(&s, nn_mul(num, g)), den));
        term = NN_KEEP(&s, nn_where(NN_KEEP(&s, nn_compare(d, zero, NN_EQ)), zero, q));
    }
    int dim = -2;
    nn_tensor *r = s.failed ? NULL : nn_sum(term, 1, &dim, false);
    nn_scratch_free(&s);
    return r;
}

int nn_cdist_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    nn_tensor *x1 = nn_node_saved(n, 0), *x2 = nn_node_saved(n, 1), *dist = nn_node_saved(n, 2);
    double p = n->p.f[0];
    for (int i = 0; i < 2; i++) {
        if (!nn_node_needs_input_grad(n, i)) continue;
        if (p == 0) { /* no gradient: zeros */
            gin[i] = nn_zeros_like(i ? x2 : x1);
        } else if (i == 0) {
            gin[0] = cdist_grad(x1, x2, gout[0], dist, p);
        } else {
            nn_tensor *gt = nn_transpose(gout[0], -1, -2), *dt = gt ? nn_transpose(dist, -1, -2) : NULL;
            gin[1] = dt ? cdist_grad(x2, x1, gt, dt, p) : NULL;
            NN_RELEASE(gt);
            NN_RELEASE(dt);
        }
        if (!gin[i]) return -1;
    }
    return 0;
}
