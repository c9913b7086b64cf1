/*
 * act_extra.c — selu, glu and rrelu as ops with their backwards (grad_fn
 * EluBackward0, GluBackward0, RreluWithNoiseBackward0 as PyTorch 1.13 names
 * them). RReLU in training draws one slope per non-positive element from the
 * current generator, in memory order, as ATen's CPU kernel does (a double
 * uniform in [lower, upper) from random64), so a seeded run gives PyTorch's
 * slopes. Forwards compute in the input's dtype with ATen's scalar formulas;
 * backwards are compositions of differentiable ops.
 */
#include <math.h>
#include <string.h>

#include "backend.h"
#include "nn_mod_more.h"
#include "nn_scratch.h"

static int check_floating(const nn_tensor *x, const char *kernel)
{
    if (x->dtype == NN_FLOAT32 || x->dtype == NN_FLOAT64) return 0;
    return nn_error_set(NN_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel, nn_dtype_scalar_name(x->dtype));
}

/* A contiguous no-grad copy or view of x; new reference. */
static nn_tensor *dense(nn_tensor *x)
{
    nn_tensor *c = NULL;
    NN_WITH_GRAD_MODE(false, c = nn_contiguous(x));
    return c;
}

/* ------------------------------------------------------------------ selu */

#define SELU_ALPHA 1.6732632423543772848170429916717
#define SELU_SCALE 1.0507009873554804934193349852946

/* bfloat16: ATen's elu kernel computes in float and rounds once */
nn_tensor *nn_selu(nn_tensor *x)
{
    bool bf16 = x->dtype == NN_BFLOAT16;
    if (!bf16 && check_floating(x, "elu_cpu") < 0) return NULL;
    nn_tensor *c = NULL;
    if (bf16) NN_WITH_GRAD_MODE(false, c = nn_to_dtype(x, NN_FLOAT32));
    else c = dense(x);
    nn_tensor *y = c ? nn_empty_on(nn_device_of(c), x->ndim, x->sizes, c->dtype) : NULL;
    if (!y) {
        NN_RELEASE(c);
        return NULL;
    }
    nn_kernel_args ka = {.t = {y, c}};
    if (NN_KERNEL(nn_backend_of(c), math, (NN_MATH_selu, &ka)) < 0) NN_SET(y, NULL);
    NN_RELEASE(c);
    if (y && bf16) NN_WITH_GRAD_MODE(false, NN_SET(y, nn_to_dtype(y, NN_BFLOAT16)));
    if (y && nn_record(NN_OP_selu, 1, &x, 1, &y, 1, &x, NULL) < 0) NN_SET(y, NULL);
    return y;
}

/* elu_backward(grad, alpha, scale, 1, false, x): x <= 0 ? g * alpha * scale * exp(x) : g * scale */
int nn_selu_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_scratch s = {0};
    nn_tensor *x = nn_node_saved(n, 0), *g = gout[0];
    nn_tensor *zero = NN_KEEP(&s, nn_scalar(0.0, x->dtype)), *pos = NN_KEEP(&s, zero ? nn_compare(x, zero, NN_GT) : NULL);
    nn_tensor *gp = NN_KEEP(&s, nn_mul_scalar(g, SELU_SCALE)), *gn = NN_KEEP(&s, nn_mul_scalar(g, SELU_ALPHA * SELU_SCALE));
    nn_tensor *e = NN_KEEP(&s, nn_exp(x)), *ge = NN_KEEP(&s, nn_mul(gn, e));
    gin[0] = s.failed ? NULL : nn_where(pos, gp, ge);
    nn_scratch_free(&s);
    return gin[0] ? 0 : -1;
}

/* ------------------------------------------------------------------- glu */

nn_tensor *nn_glu(nn_tensor *x, int dim)
{
    if (x->ndim == 0)
        return nn_error_set(NN_ERR_RUNTIME, "glu does not support scalars because halving size must be even"), NULL;
    int d = dim < 0 ? dim + x->ndim : dim;
    if (d < 0 || d >= x->ndim)
        return nn_error_set(NN_ERR_INDEX, "Dimension out of range (expected to be in range of [%d, %d], but got %d)",
                            -x->ndim, x->ndim - 1, dim),
               NULL;
    if (x->sizes[d] % 2)
        return nn_error_set(NN_ERR_RUNTIME, "Halving dimension must be even, but dimension %d is size %lld", d,
                            (long long)x->sizes[d]),
               NULL;
    if (check_floating(x, "glu_cpu") < 0) return NULL;
    int64_t h = x->sizes[d] / 2;
    nn_tensor *y = NULL;
    nn_scratch s = {0};
    bool prev = nn_set_grad_enabled(false);
    nn_tensor *a = NN_KEEP(&s, nn_narrow(x, d, 0, h)), *b = NN_KEEP(&s, nn_narrow(x, d, h, h));
    nn_tensor *sg = NN_KEEP(&s, b ? nn_sigmoid(b) : NULL);
    y = s.failed ? NULL : nn_mul(a, sg);
    nn_set_grad_enabled(prev);
    nn_scratch_free(&s);
    nn_op_params p = {.n_i = 1};
    p.i[0] = d;
    if (y && nn_record(NN_OP_glu, 1, &x, 1, &y, 1, &x, &p) < 0) NN_SET(y, NULL);
    return y;
}

/* d/da = g * sigmoid(b), d/db = g * a * sigmoid(b) * (1 - sigmoid(b)), joined along dim */
int nn_glu_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_scratch s = {0};
    nn_tensor *x = nn_node_saved(n, 0), *g = gout[0];
    int d = (int)n->p.i[0];
    int64_t h = x->sizes[d] / 2;
    nn_tensor *a = NN_KEEP(&s, nn_narrow(x, d, 0, h)), *b = NN_KEEP(&s, nn_narrow(x, d, h, h));
    nn_tensor *sg = NN_KEEP(&s, b ? nn_sigmoid(b) : NULL), *ga = NN_KEEP(&s, sg ? nn_mul(g, sg) : NULL);
    nn_tensor *one_minus = NN_KEEP(&s, sg ? nn_rsub_scalar(sg, 1.0) : NULL);
    nn_tensor *t1 = NN_KEEP(&s, ga ? nn_mul(ga, a) : NULL), *gb = NN_KEEP(&s, t1 ? nn_mul(t1, one_minus) : NULL);
    nn_tensor *parts[2] = {ga, gb};
    gin[0] = s.failed ? NULL : nn_cat(2, parts, d);
    nn_scratch_free(&s);
    return gin[0] ? 0 : -1;
}

/* ----------------------------------------------------------------- rrelu */

nn_tensor *nn_rrelu(nn_tensor *x, double lower, double upper, bool training)
{
    if (check_floating(x, "rrelu_with_noise_out_cpu") < 0) return NULL;
    if (upper < lower) {
        nn_error_set(NN_ERR_RUNTIME, "Lower bound should be less than or equal to the upper bound");
        return NULL;
    }
    nn_tensor *c = dense(x), *y = c ? nn_empty_on(nn_device_of(c), x->ndim, x->sizes, x->dtype) : NULL;
    nn_tensor *noise = y && training ? nn_empty_on(nn_device_of(c), x->ndim, x->sizes, x->dtype) : NULL;
    if (!y || (training && !noise)) {
        NN_RELEASE(c);
        NN_RELEASE(y);
        return NULL;
    }
    nn_kernel_args ka = {.t = {y, c, noise}, .d = {lower, upper}, .i = {training}, .gen = nn_current_generator()};
    if (NN_KERNEL(nn_backend_of(c), math, (NN_MATH_rrelu, &ka)) < 0) {
        NN_RELEASE(c);
        NN_RELEASE(y);
        NN_RELEASE(noise);
        return NULL;
    }
    NN_RELEASE(c);
    nn_op_params p = {0};
    p.f[0] = lower;
    p.f[1] = upper;
    p.flags = training;
    nn_tensor *save[2] = {x, noise};
    if (nn_record(NN_OP_rrelu, 1, &x, 1, &y, 2, save, &p) < 0) NN_SET(y, NULL);
    NN_RELEASE(noise);
    return y;
}

/* training with upper - lower > 1e-6: g * noise; else leaky_relu's backward with the mean slope */
int nn_rrelu_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *x = nn_node_saved(n, 0), *noise = nn_node_saved(n, 1), *g = gout[0];
    double lower = n->p.f[0], upper = n->p.f[1];
    if (n->p.flags && upper - lower > 1e-6) {
        gin[0] = nn_mul(g, noise);
        return gin[0] ? 0 : -1;
    }
    nn_scratch s = {0};
    nn_tensor *zero = NN_KEEP(&s, nn_scalar(0.0, x->dtype)), *pos = NN_KEEP(&s, zero ? nn_compare(x, zero, NN_GT) : NULL);
    nn_tensor *gn = NN_KEEP(&s, nn_mul_scalar(g, (lower + upper) / 2));
    gin[0] = s.failed ? NULL : nn_where(pos, g, gn);
    nn_scratch_free(&s);
    return gin[0] ? 0 : -1;
}

/* x takes r's values and history (r computed from a clone of x); x retained, or NULL */
static nn_tensor *inplace_result(nn_tensor *x, nn_tensor *r)
{
    if (!r) return NULL;
    int rc = nn_inplace_from(x, r);
    NN_RELEASE(r);
    return rc < 0 ? NULL : (nn_tensor *)nn_retain(&x->ob);
}

nn_tensor *nn_rrelu_(nn_tensor *x, double lower, double upper, bool training)
{
    if (nn_check_inplace(x) < 0) return NULL;
    nn_tensor *c = nn_clone(x), *r = c ? nn_rrelu(c, lower, upper, training) : NULL;
    NN_RELEASE(c);
    return inplace_result(x, r);
}

nn_tensor *nn_selu_(nn_tensor *x)
{
    if (nn_check_inplace(x) < 0) return NULL;
    nn_tensor *c = nn_clone(x), *r = c ? nn_selu(c) : NULL;
    NN_RELEASE(c);
    return inplace_result(x, r);
}
