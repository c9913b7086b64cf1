/*
 * scan_more.c — logcumsumexp, renorm, trapezoid and cumulative_trapezoid.
 *
 * logcumsumexp runs the math kernel's scan (ATen's accumulate types) and
 * records LogcumsumexpBackward0; renorm is ATen's renorm_out (a vector norm
 * over every dim but one, a scale factor where it exceeds maxnorm) recorded as
 * RenormBackward0. The trapezoid rules are ATen's composites, op for op, so
 * their grad_fn and bits are PyTorch's. Backwards are PyTorch 1.13's
 * FunctionsManual formulas built from differentiable ops.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "backend.h"
#include "nn_int.h"
#include "nn_linalg.h"
#include "nn_losses.h"
#include "nn_misc_ops.h"
#include "nn_scratch.h"
#include "nn_select.h"


/* ------------------------------------------------------- mul_number */

nn_tensor *nn_mul_number(nn_tensor *a, double s)
{
    nn_tensor *out = NULL;
    NN_WITH_GRAD_MODE(false, out = nn_mul_scalar(a, s));
    nn_op_params p = {.f = {s}};
    if (out && nn_record(NN_OP_mul_number, 1, &a, 1, &out, 0, NULL, &p) < 0) NN_SET(out, NULL);
    return out;
}

int nn_mul_number_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    const nn_input_meta *m = &n->input_meta[0];
    nn_tensor *g = nn_mul_scalar(gout[0], n->p.f[0]);
    if (g && g->dtype != m->dtype) NN_SET(g, nn_to_dtype(g, m->dtype));
    gin[0] = g;
    return g ? 0 : -1;
}

/* ----------------------------------------------------- logcumsumexp */

nn_tensor *nn_logcumsumexp(nn_tensor *a, int dim)
{
    int d = 0;
    if (nn_wrap_dim(dim, a->ndim ? a->ndim : 1, &d) < 0) return NULL;
    if (!nn_dtype_is_floating(a->dtype) || a->dtype == NN_FLOAT16)
        return nn_error_set(NN_ERR_RUNTIME, "\"logcumsumexp_out_cpu\" not implemented for '%s'",
                            nn_dtype_scalar_name(a->dtype)), NULL;
    int64_t outer = 1, len = a->ndim ? a->sizes[d] : 1, inner = 1;
    for (int k = 0; k < a->ndim; k++) {
        if (k < d) outer *= a->sizes[k];
        if (k > d) inner *= a->sizes[k];
    }
    nn_tensor *c = NULL, *out = NULL;
    NN_WITH_GRAD_MODE(false, c = nn_contiguous(a));
    if (c) out = nn_empty_on(nn_device_of(c), a->ndim, a->sizes, a->dtype);
    nn_kernel_args ka = {.t = {out, c}, .i = {outer, len, inner}};
    if (out && nn_numel(out) && NN_KERNEL(nn_backend_of(c), math, (NN_MATH_logcumsumexp, &ka)) < 0) NN_SET(out, NULL);
    NN_RELEASE(c);
    nn_op_params p = {.i = {d}};
    nn_tensor *save[2] = {a, out};
    if (out && nn_record(NN_OP_logcumsumexp, 1, &a, 1, &out, 2, save, &p) < 0) NN_SET(out, NULL);
    return out;
}

/* flip(logcumsumexp(flip(x, dim), dim), dim) */
static nn_tensor *reverse_lcse(nn_scratch *s, nn_tensor *x, int dim)
{
    nn_tensor *f = NN_KEEP(s, nn_flip(x, 1, &dim));
    nn_tensor *l = f ? NN_KEEP(s, nn_logcumsumexp(f, dim)) : NULL;
    return l ? NN_KEEP(s, nn_flip(l, 1, &dim)) : NULL;
}

/* logcumsumexp_backward: the positive and negative parts of grad in log space,
   each reverse-scanned against the result */
int nn_logcumsumexp_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *g = gout[0], *x = nn_node_saved(n, 0), *res = nn_node_saved(n, 1);
    int dim = (int)n->p.i[0];
    if (g->ndim == 0 || nn_numel(g) == 0) {
        gin[0] = (nn_tensor *)nn_retain(&g->ob);
        return 0;
    }
    nn_scratch s = {0};
    nn_tensor *lowest = NN_KEEP(&s, nn_scalar(g->dtype == NN_FLOAT64 ? -DBL_MAX : -FLT_MAX, g->dtype));
    nn_tensor *zero = NN_KEEP(&s, nn_scalar(0, g->dtype));
    nn_tensor *log_abs = NN_KEEP(&s, nn_log(NN_KEEP(&s, nn_abs(g))));
    nn_tensor *lpos = NN_KEEP(&s, nn_where(NN_KEEP(&s, nn_compare(g, zero, NN_GT)), log_abs, lowest));
    nn_tensor *lneg = NN_KEEP(&s, nn_where(NN_KEEP(&s, nn_compare(g, zero, NN_LT)), log_abs, lowest));
    nn_tensor *ppos = s.failed ? NULL : reverse_lcse(&s, NN_KEEP(&s, nn_sub(lpos, res)), dim);
    nn_tensor *opos = NN_KEEP(&s, nn_exp(NN_KEEP(&s, nn_add(ppos, x))));
    nn_tensor *pneg = s.failed ? NULL : reverse_lcse(&s, NN_KEEP(&s, nn_sub(lneg, res)), dim);
    nn_tensor *oneg = NN_KEEP(&s, nn_exp(NN_KEEP(&s, nn_add(pneg, x))));
    nn_tensor *r = NN_KEEP(&s, nn_sub(opos, oneg));
    if (r) NN_RETAIN(r);
    nn_scratch_free(&s);
    gin[0] = r;
    return r ? 0 : -1;
}

/* ----------------------------------------------------------- renorm */

/* every dim of an ndim tensor but d, into dims; their count */
static int other_dims(int ndim, int d, int *dims)
{
    int nd = 0;
    for (int k = 0; k < ndim; k++)
        if (k != d) dims[nd++] = k;
    return nd;
}

/* the vector norm over every dim but d (keepdim) in the accumulate type (float32
   for the half types); no history */
static nn_tensor *renorm_norm(nn_scratch *s, nn_tensor *x, double p, int d)
{
    int dims[NN_MAX_DIMS], nd = other_dims(x->ndim, d, dims);
    bool half = x->dtype == NN_FLOAT16 || x->dtype == NN_BFLOAT16;
    nn_tensor *xc = half ? NN_KEEP(s, nn_to_dtype(x, NN_FLOAT32)) : x;
    return xc ? NN_KEEP(s, nn_norm(xc, p, nd, dims, true)) : NULL;
}

nn_tensor *nn_renorm(nn_tensor *a, double p, int dim, double maxnorm)
{
    if (!(p > 0)) return nn_error_set(NN_ERR_RUNTIME, "renorm: non-positive-norm not supported"), NULL;
    if (!(maxnorm >= 0))
        return nn_error_set(NN_ERR_RUNTIME, "renorm: expected maxnorm to be >= 0 but got %g", maxnorm), NULL;
    if (a->ndim <= 1)
        return nn_error_set(NN_ERR_RUNTIME, "renorm: input needs at least 2 dimensions, got %d dimensions", a->ndim), NULL;
    int d = 0;
    if (nn_wrap_dim(dim, a->ndim, &d) < 0) return NULL;
    if (!nn_dtype_is_floating(a->dtype))
        return nn_error_set(NN_ERR_RUNTIME, "linalg.vector_norm: Expected a floating point or complex tensor as input. Got %s",
                            nn_dtype_scalar_name(a->dtype)), NULL;
    nn_tensor *out = NULL;
    nn_scratch s = {0};
    NN_WITH_GRAD_MODE(false, {
        /* ATen's renorm_scale_factor: norm > maxnorm ? maxnorm / (norm + 1e-7) : 1, in the norm's type */
        nn_tensor *norm = renorm_norm(&s, a, p, d);
        nn_tensor *lim = NN_KEEP(&s, nn_wrapped_number(maxnorm, false));
        nn_tensor *q = NN_KEEP(&s, nn_div(lim, NN_KEEP(&s, nn_add_scalar(norm, 1e-7))));
        nn_tensor *one = norm ? NN_KEEP(&s, nn_scalar(1, norm->dtype)) : NULL;
        nn_tensor *factor = NN_KEEP(&s, nn_where(NN_KEEP(&s, nn_compare(norm, lim, NN_GT)), q, one));
        factor = NN_KEEP(&s, nn_to_dtype(factor, a->dtype));
        if (!s.failed) out = nn_mul(a, factor);
    });
    nn_scratch_free(&s);
    nn_op_params prm = {.f = {p, maxnorm}, .i = {d}};
    if (out && nn_record(NN_OP_renorm, 1, &a, 1, &out, 1, &a, &prm) < 0) NN_SET(out, NULL);
    return out;
}

/* renorm_backward: where(norm > maxnorm, factor * (grad - invnorm * nb), grad), with
   invnorm = 1 / (norm + 1e-7), factor = invnorm * maxnorm and nb the norm's gradient
   of sum(self * grad) over the reduced dims */
int nn_renorm_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *x = nn_node_saved(n, 0), *g = gout[0];
    double p = n->p.f[0], maxnorm = n->p.f[1];
    int d = (int)n->p.i[0], dims[NN_MAX_DIMS], nd = other_dims(x->ndim, d, dims);
    nn_scratch s = {0};
    bool half = x->dtype == NN_FLOAT16 || x->dtype == NN_BFLOAT16;
    nn_tensor *xc = half ? NN_KEEP(&s, nn_to_dtype(x, NN_FLOAT32)) : x;
    nn_tensor *norm = NN_KEEP(&s, nn_linalg_vector_norm(xc, p, nd, dims, true));
    nn_tensor *go = NN_KEEP(&s, nn_sum(NN_KEEP(&s, nn_mul(x, g)), nd, dims, true));
    if (go && norm && go->dtype != norm->dtype) go = NN_KEEP(&s, nn_to_dtype(go, norm->dtype));
    nn_tensor *ge = NN_KEEP(&s, nn_expand(go, x->ndim, x->sizes)), *ne = NN_KEEP(&s, nn_expand(norm, x->ndim, x->sizes));
    nn_tensor *nb = s.failed ? NULL : NN_KEEP(&s, nn_norm_grad(nd, dims, xc, ge, ne, p));
    nn_tensor *invnorm = NN_KEEP(&s, nn_reciprocal(NN_KEEP(&s, nn_add_scalar(norm, 1e-7))));
    nn_tensor *factor = NN_KEEP(&s, nn_mul_scalar(invnorm, maxnorm));
    nn_tensor *inner = NN_KEEP(&s, nn_sub(g, NN_KEEP(&s, nn_mul(invnorm, nb))));
    nn_tensor *scaled = NN_KEEP(&s, nn_mul(factor, inner));
    nn_tensor *lim = NN_KEEP(&s, nn_wrapped_number(maxnorm, false));
    nn_tensor *r = NN_KEEP(&s, nn_where(NN_KEEP(&s, nn_compare(norm, lim, NN_GT)), scaled, g));
    if (r && r->dtype != x->dtype) r = NN_KEEP(&s, nn_to_dtype(r, x->dtype));
    if (r) NN_RETAIN(r);
    nn_scratch_free(&s);
    gin[0] = r;
    return r ? 0 : -1;
}

/* ------------------------------------------------ trapezoid rules */

static int check_not_bool(const char *f, const nn_tensor *y, const nn_tensor *x)
{
    if (y->dtype != NN_BOOL && (!x || x->dtype != NN_BOOL)) return 0;
    if (x) return nn_error_set(NN_ERR_RUNTIME, "%s: received a bool input for `x` or `y`, but bool is not supported", f);
    return nn_error_set(NN_ERR_RUNTIME, "%s: received a bool input for `y`, but bool is not supported", f);
}

/* x viewed to broadcast against y along dim (ATen's x_viewed), then its differences */
static nn_tensor *x_steps(nn_scratch *s, const char *f, nn_tensor *y, nn_tensor *x, int d)
{
    int64_t sizes[NN_MAX_DIMS];
    nn_tensor *xv = x;
    if (x->ndim == 1) {
        if (x->sizes[0] != y->sizes[d]) {
            nn_error_set(NN_ERR_RUNTIME, "%s: There must be one `x` value for each sample point", f);
            s->failed = true;
            return NULL;
        }
        for (int k = 0; k < y->ndim; k++) sizes[k] = k == d ? x->sizes[0] : 1;
        xv = NN_KEEP(s, nn_view(x, y->ndim, sizes));
    } else if (x->ndim < y->ndim) {
        int pad = y->ndim - x->ndim;
        for (int k = 0; k < y->ndim; k++) sizes[k] = k < pad ? 1 : x->sizes[k - pad];
        xv = NN_KEEP(s, nn_view(x, y->ndim, sizes));
    }
    if (!xv) return NULL;
    nn_tensor *left = NN_KEEP(s, nn_slice(xv, d, 0, -1, 1)), *right = NN_KEEP(s, nn_slice(xv, d, 1, INT64_MAX, 1));
    return NN_KEEP(s, nn_sub(right, left));
}

/* y's left + right neighbours along d */
static nn_tensor *pair_sums(nn_scratch *s, nn_tensor *y, int d)
{
    nn_tensor *left = NN_KEEP(s, nn_slice(y, d, 0, -1, 1)), *right = NN_KEEP(s, nn_slice(y, d, 1, INT64_MAX, 1));
    return NN_KEEP(s, nn_add(left, right));
}

nn_tensor *nn_trapezoid(nn_tensor *y, nn_tensor *x, double dx, int dim, bool cumulative)
{
    const char *f = cumulative ? "cumulative_trapezoid" : "trapezoid";
    int d = 0;
    if (nn_wrap_dim(dim, y->ndim ? y->ndim : 1, &d) < 0) return NULL;
    if (y->ndim == 0) /* ATen's slice of a 0-dim tensor */
        return nn_error_set(NN_ERR_INDEX, "slice() cannot be applied to a 0-dim tensor."), NULL;
    if (!cumulative && y->sizes[d] == 0) {
        int64_t sizes[NN_MAX_DIMS];
        int nd = 0;
        for (int k = 0; k < y->ndim; k++)
            if (k != d) sizes[nd++] = y->sizes[k];
        return nn_zeros(nd, sizes, y->dtype);
    }
    if (check_not_bool(f, y, x) < 0) return NULL;
    nn_scratch s = {0};
    nn_tensor *r = NULL;
    if (x) {
        nn_tensor *steps = x_steps(&s, f, y, x, d);
        nn_tensor *area = NN_KEEP(&s, nn_mul(pair_sums(&s, y, d), steps));
        nn_tensor *total = cumulative ? NN_KEEP(&s, nn_cumsum(area, d, -1)) : NN_KEEP(&s, nn_sum(area, 1, &d, false));
        r = s.failed ? NULL : nn_div_number(total, 2.);
    } else if (cumulative) {
        nn_tensor *area = NN_KEEP(&s, nn_mul_number(pair_sums(&s, y, d), dx / 2.));
        r = s.failed ? NULL : nn_cumsum(area, d, -1);
    } else {
        /* dx * (sum(y) - (y[0] + y[-1]) / 2) */
        nn_tensor *ends = NN_KEEP(&s, nn_add(NN_KEEP(&s, nn_select(y, d, 0)), NN_KEEP(&s, nn_select(y, d, -1))));
        nn_tensor *inner = NN_KEEP(&s, nn_sub(NN_KEEP(&s, nn_sum(y, 1, &d, false)), NN_KEEP(&s, nn_mul_number(ends, 0.5))));
        r = s.failed ? NULL : nn_mul_number(inner, dx);
    }
    nn_scratch_free(&s);
    return r;
}
