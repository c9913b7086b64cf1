/*
 * special.c — torch's special functions: lgamma, digamma, polygamma, mvlgamma,
 * i0 and torch.special's i0e, i1, i1e, ndtr, ndtri, log_ndtr, erfcx, sinc,
 * entr, xlog1py and zeta; each forward with its backward beside it.
 *
 * The forwards lay out a contiguous copy in the compute dtype (float32 or
 * float64; integers and bool compute in float32) and run the math kernel's
 * NN_MATH_special (core/cpu/special.c: ATen's scalar formulas). ndtr is
 * PyTorch 1.13's composite (1 + erf(x / sqrt 2)) * 0.5 of differentiable ops,
 * and mvlgamma sums lgamma over arange(-p/2 + 1/2, 1/2, 1/2) + x as PyTorch's
 * does. Backwards are derivatives.yaml's formulas built from differentiable
 * ops, so higher-order gradients work (zeta's first argument has none, as in
 * PyTorch).
 */
#include <float.h>
#include <math.h>

#include "backend.h"
#include "nn_int.h"
#include "nn_special.h"

/* t converted to cd, contiguous, without autograd; new reference. */
static nn_tensor *laid_out(nn_tensor *t, nn_dtype cd)
{
    nn_tensor *c = NULL, *r = NULL;
    NN_WITH_GRAD_MODE(false, c = nn_to_dtype(t, cd); r = c ? nn_contiguous(c) : NULL);
    NN_RELEASE(c);
    return r;
}

static const char *const kernel_names[] = {
    [NN_SPECIAL_LGAMMA] = "lgamma_vml_cpu",     [NN_SPECIAL_DIGAMMA] = "digamma",
    [NN_SPECIAL_POLYGAMMA] = "polygamma",       [NN_SPECIAL_I0] = "i0_cpu",
    [NN_SPECIAL_I0E] = "i0e_cpu",               [NN_SPECIAL_I1] = "i1_cpu",
    [NN_SPECIAL_I1E] = "i1e_cpu",               [NN_SPECIAL_NDTR] = "ndtr_cpu",
    [NN_SPECIAL_NDTRI] = "ndtri_cpu",           [NN_SPECIAL_LOG_NDTR] = "log_ndtr_cpu",
    [NN_SPECIAL_SINC] = "sinc_cpu",             [NN_SPECIAL_ENTR] = "entr_cpu",
    [NN_SPECIAL_ERFCX] = "erfcx_cpu",           [NN_SPECIAL_XLOG1PY] = "xlog1py_cpu",
    [NN_SPECIAL_ZETA] = "zeta_cpu",
};

static int refuse_half(nn_special_op sop, nn_dtype dt)
{
    if (dt != NN_FLOAT16) return 0;
    return nn_error_set(NN_ERR_RUNTIME, "\"%s\" not implemented for 'Half'", kernel_names[sop]);
}

/* f(a) (or f(a, b), broadcast) in the float result dtype, by the kernel; no autograd. */
static nn_tensor *compute(nn_special_op sop, nn_tensor *a, nn_tensor *b, int64_t order)
{
    nn_device dev = nn_device_of(a);
    if (b && nn_common_device(2, (nn_tensor *const[]){a, b}, &dev) < 0) return NULL;
    nn_dtype rt = b ? nn_result_type(a, b) : a->dtype;
    if (!nn_dtype_is_floating(rt)) rt = nn_default_dtype();
    if (refuse_half(sop, rt) < 0) return NULL;
    nn_dtype cd = rt == NN_FLOAT64 ? NN_FLOAT64 : NN_FLOAT32;
    int nd = a->ndim;
    int64_t sizes[NN_MAX_DIMS];
    for (int d = 0; d < nd; d++) sizes[d] = a->sizes[d];
    if (b && nn_broadcast_shapes(a->ndim, a->sizes, b->ndim, b->sizes, &nd, sizes) < 0) return NULL;
    nn_tensor *ea = NULL, *eb = NULL, *ca = NULL, *cb = NULL, *out = NULL;
    NN_WITH_GRAD_MODE(false, ea = nn_expand(a, nd, sizes); eb = b && ea ? nn_expand(b, nd, sizes) : NULL);
    if (ea) ca = nn_to_op_device(laid_out(ea, cd), dev);
    if (eb) cb = nn_to_op_device(laid_out(eb, cd), dev);
    if (ca && (!b || cb)) out = nn_empty_on(dev, nd, sizes, cd);
    if (out) {
        nn_kernel_args ka = {.t = {out, ca, cb}, .i = {sop, order}};
        if (NN_KERNEL(nn_backend_of(ca), math, (NN_MATH_special, &ka)) < 0) NN_SET(out, NULL);
    }
    NN_RELEASE(ea);
    NN_RELEASE(eb);
    NN_RELEASE(ca);
    NN_RELEASE(cb);
    if (out && rt != cd) {
        nn_tensor *r = NULL;
        NN_WITH_GRAD_MODE(false, r = nn_to_dtype(out, rt));
        NN_SET(out, r);
    }
    return out;
}

/* the forward of a unary op: records op, saving the input and the output */
static nn_tensor *unary(nn_special_op sop, nn_op_id op, nn_tensor *a, int64_t order)
{
    if (!a) return NULL; /* an operand a nested call failed to make (its error is current) */
    nn_tensor *out = compute(sop, a, NULL, order);
    nn_op_params p = {.i = {order}, .n_i = 1};
    nn_tensor *save[2] = {a, out};
    if (out && nn_record(op, 1, &a, 1, &out, 2, save, &p) < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_lgamma(nn_tensor *a) { return unary(NN_SPECIAL_LGAMMA, NN_OP_lgamma, a, 0); }
nn_tensor *nn_digamma(nn_tensor *a) { return unary(NN_SPECIAL_DIGAMMA, NN_OP_digamma, a, 0); }
nn_tensor *nn_i0(nn_tensor *a) { return unary(NN_SPECIAL_I0, NN_OP_i0, a, 0); }
nn_tensor *nn_special_i0e(nn_tensor *a) { return unary(NN_SPECIAL_I0E, NN_OP_special_i0e, a, 0); }
nn_tensor *nn_special_i1(nn_tensor *a) { return unary(NN_SPECIAL_I1, NN_OP_special_i1, a, 0); }
nn_tensor *nn_special_i1e(nn_tensor *a) { return unary(NN_SPECIAL_I1E, NN_OP_special_i1e, a, 0); }
nn_tensor *nn_special_ndtri(nn_tensor *a) { return unary(NN_SPECIAL_NDTRI, NN_OP_special_ndtri, a, 0); }
nn_tensor *nn_special_log_ndtr(nn_tensor *a) { return unary(NN_SPECIAL_LOG_NDTR, NN_OP_special_log_ndtr, a, 0); }
nn_tensor *nn_sinc(nn_tensor *a) { return unary(NN_SPECIAL_SINC, NN_OP_sinc, a, 0); }
nn_tensor *nn_special_entr(nn_tensor *a) { return unary(NN_SPECIAL_ENTR, NN_OP_special_entr, a, 0); }
nn_tensor *nn_special_erfcx(nn_tensor *a) { return unary(NN_SPECIAL_ERFCX, NN_OP_special_erfcx, a, 0); }

nn_tensor *nn_polygamma(int64_t n, nn_tensor *a)
{
    if (n < 0) {
        nn_error_set(NN_ERR_RUNTIME, "polygamma(n, x) does not support negative n.");
        return NULL;
    }
    if (n > 1000000) { /* far past where the series says anything: keep the int cast sane */
        nn_error_set(NN_ERR_RUNTIME, "polygamma(n, x): n = %lld is too large", (long long)n);
        return NULL;
    }
    return unary(NN_SPECIAL_POLYGAMMA, NN_OP_polygamma, a, n);
}

/* (1 + erf(x / sqrt 2)) * 0.5, PyTorch 1.13's composite (its grad_fn is MulBackward1, a
   C++ Scalar product, which nnscope names MulBackward0) */
nn_tensor *nn_special_ndtr(nn_tensor *a)
{
    nn_tensor *x = a, *owned = NULL;
    if (!nn_dtype_is_floating(a->dtype)) {
        if (!(x = owned = nn_to_dtype(a, nn_default_dtype()))) return NULL;
    }
    nn_tensor *t = nn_mul_scalar(x, M_SQRT1_2), *e = t ? nn_erf(t) : NULL, *s = e ? nn_add_scalar(e, 1) : NULL;
    nn_tensor *r = s ? nn_mul_scalar(s, 0.5) : NULL;
    NN_RELEASE(owned);
    NN_RELEASE(t);
    NN_RELEASE(e);
    NN_RELEASE(s);
    return r;
}

/* a Python number as b records SpecialXlog1PyBackward2, as PyTorch's Scalar overload */
nn_tensor *nn_special_xlog1py(nn_tensor *a, nn_tensor *b)
{
    nn_tensor *out = compute(NN_SPECIAL_XLOG1PY, a, b, 0);
    nn_tensor *in[2] = {a, b};
    nn_op_id op = b->is_wrapped_number ? NN_OP_special_xlog1py_scalar : NN_OP_special_xlog1py;
    if (out && nn_record(op, 2, in, 1, &out, 2, in, NULL) < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_special_zeta(nn_tensor *a, nn_tensor *b)
{
    if (!a || !b) return NULL; /* an operand a nested call failed to make (its error is current) */
    nn_tensor *out = compute(NN_SPECIAL_ZETA, a, b, 0);
    nn_tensor *in[2] = {a, b};
    if (out && nn_record(NN_OP_special_zeta, 2, in, 1, &out, 2, in, NULL) < 0) NN_SET(out, NULL);
    return out;
}

/* arange(-p/2 + 1/2, 1/2, 1/2) + x[..., None] in x's float dtype (with history
   while grad mode is on: a backward with create_graph) */
static nn_tensor *mvlgamma_args(nn_tensor *x, int64_t p)
{
    nn_tensor *r = NULL, *u = NULL, *c = NULL;
    nn_dtype dt = nn_dtype_is_floating(x->dtype) ? x->dtype : nn_default_dtype();
    NN_WITH_GRAD_MODE(false, c = nn_arange_on(nn_device_of(x), -(double)p * 0.5 + 0.5, 0.5, 0.5, false, dt));
    u = c ? nn_unsqueeze(x, x->ndim) : NULL;
    r = u ? nn_add(c, u) : NULL;
    NN_RELEASE(c);
    NN_RELEASE(u);
    return r;
}

nn_tensor *nn_mvlgamma(nn_tensor *x, int64_t p)
{
    if (p < 1) {
        nn_error_set(NN_ERR_RUNTIME, "p has to be greater than or equal to 1");
        return NULL;
    }
    if (p > 1000000) {
        nn_error_set(NN_ERR_RUNTIME, "mvlgamma: p = %lld is too large", (long long)p);
        return NULL;
    }
    if (x->dtype == NN_BOOL) {
        nn_error_set(NN_ERR_RUNTIME, "The input tensor may not be a boolean tensor.");
        return NULL;
    }
    nn_tensor *args = NULL, *lg = NULL, *sum = NULL, *out = NULL;
    NN_WITH_GRAD_MODE(false, {
        args = mvlgamma_args(x, p);
        lg = args ? compute(NN_SPECIAL_LGAMMA, args, NULL, 0) : NULL;
        sum = lg ? nn_sum(lg, 1, (const int[]){-1}, false) : NULL;
        out = sum ? nn_add_scalar(sum, (double)(p * (p - 1)) * log(M_PI) * 0.25) : NULL;
    });
    NN_RELEASE(args);
    NN_RELEASE(lg);
    NN_RELEASE(sum);
    nn_op_params prm = {.i = {p}, .n_i = 1};
    if (out && nn_record(NN_OP_mvlgamma, 1, &x, 1, &out, 1, &x, &prm) < 0) NN_SET(out, NULL);
    return out;
}

/* --------------------------------------------------------------- backwards */

/* Temporaries of a backward formula, released together: E(expr) evaluates expr
   only while nothing has failed and keeps its result. */
typedef struct arena {
    nn_tensor *t[20];
    int n;
    bool failed;
} arena;

static nn_tensor *keep(arena *s, nn_tensor *t)
{
    if (!t || s->n == 20) {
        NN_RELEASE(t);
        s->failed = true;
        return NULL;
    }
    return s->t[s->n++] = t;
}
#define E(expr) (s.failed ? NULL : keep(&s, (expr)))
#define G gout[0]
#define X nn_node_saved(n, 0)
#define Y nn_node_saved(n, 1)

/* Releases the arena; *slot gets r (retained) summed to input i's shape, in its dtype. */
static int finish(arena *s, nn_node *n, int i, nn_tensor *r, nn_tensor **slot)
{
    int rc = -1;
    if (!s->failed && r) {
        const nn_input_meta *m = &n->input_meta[i];
        nn_tensor *g = nn_sum_to_size(r, m->ndim, m->sizes);
        if (g && g->dtype != m->dtype && nn_dtype_is_floating(m->dtype)) {
            nn_tensor *c = nn_to_dtype(g, m->dtype);
            NN_SET(g, c);
        }
        *slot = g;
        rc = g ? 0 : -1;
    }
    for (int k = 0; k < s->n; k++) NN_RELEASE(s->t[k]);
    s->n = 0;
    return rc;
}

static nn_tensor *num(nn_tensor *like, double v) { return nn_scalar(v, like->dtype); }

/* grad * digamma(self) */
int nn_lgamma_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    return finish(&s, n, 0, E(nn_mul(G, E(nn_digamma(X)))), &gin[0]);
}

/* grad * polygamma(1, self) */
int nn_digamma_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    return finish(&s, n, 0, E(nn_mul(G, E(nn_polygamma(1, X)))), &gin[0]);
}

/* grad * polygamma(n + 1, self) */
int nn_polygamma_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    return finish(&s, n, 0, E(nn_mul(G, E(nn_polygamma(n->p.i[0] + 1, X)))), &gin[0]);
}

/* grad * i1(self) */
int nn_i0_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    return finish(&s, n, 0, E(nn_mul(G, E(nn_special_i1(X)))), &gin[0]);
}

/* grad * (i1e(self) - sgn(self) * result) */
int nn_special_i0e_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    nn_tensor *d = E(nn_sub(E(nn_special_i1e(X)), E(nn_mul(E(nn_sign(X)), Y))));
    return finish(&s, n, 0, E(nn_mul(G, d)), &gin[0]);
}

/* i1: grad * (i0(x) - result / x), i1e: grad * (i0e(x) - result * (sgn(x) + 1 / x)); 0.5
   where |x| <= eps (x replaced by eps there, as PyTorch's safe_self) */
static int i1_grad(nn_node *n, nn_tensor **gout, nn_tensor **gin, bool scaled)
{
    arena s = {0};
    double eps = X->dtype == NN_FLOAT64 ? DBL_EPSILON : FLT_EPSILON;
    nn_tensor *big = E(nn_compare(E(nn_abs(X)), E(num(X, eps)), NN_GT));
    nn_tensor *safe = E(nn_where(big, X, E(num(X, eps))));
    nn_tensor *gx;
    if (scaled)
        gx = E(nn_sub(E(nn_special_i0e(safe)), E(nn_mul(Y, E(nn_add(E(nn_sign(safe)), E(nn_reciprocal(safe))))))));
    else
        gx = E(nn_sub(E(nn_i0(safe)), E(nn_mul(Y, E(nn_reciprocal(safe))))));
    nn_tensor *w = E(nn_where(big, gx, E(num(X, 0.5))));
    return finish(&s, n, 0, E(nn_mul(G, w)), &gin[0]);
}

int nn_special_i1_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return i1_grad(n, gout, gin, false); }
int nn_special_i1e_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return i1_grad(n, gout, gin, true); }

/* grad * sqrt(2 pi) * exp(result^2 / 2) */
int nn_special_ndtri_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    nn_tensor *e = E(nn_exp(E(nn_div_scalar(E(nn_mul(Y, Y)), 2))));
    return finish(&s, n, 0, E(nn_mul(E(nn_mul_scalar(G, sqrt(2 * M_PI))), e)), &gin[0]);
}

/* grad / sqrt(2 pi) * exp(-(result + self^2 / 2)) */
int nn_special_log_ndtr_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    nn_tensor *e = E(nn_exp(E(nn_neg(E(nn_add(Y, E(nn_div_scalar(E(nn_pow_scalar(X, 2)), 2))))))));
    return finish(&s, n, 0, E(nn_mul(E(nn_div_scalar(G, sqrt(2 * M_PI))), e)), &gin[0]);
}

/* grad * (pi x cos(pi x) - sin(pi x)) / (pi x^2), 0 where x == 0 */
int nn_sinc_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    nn_tensor *px = E(nn_mul_scalar(X, M_PI));
    nn_tensor *sq = E(nn_mul_scalar(E(nn_mul(X, X)), M_PI));
    nn_tensor *top = E(nn_sub(E(nn_mul(px, E(nn_cos(px)))), E(nn_sin(px))));
    nn_tensor *out = E(nn_div(E(nn_mul(G, top)), sq));
    nn_tensor *zero = E(nn_compare(sq, E(num(sq ? sq : X, 0)), NN_EQ));
    return finish(&s, n, 0, E(nn_where(zero, E(num(out ? out : X, 0)), out)), &gin[0]);
}

/* grad * -(1 + log(self)) */
int nn_special_entr_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    return finish(&s, n, 0, E(nn_mul(G, E(nn_neg(E(nn_add_scalar(E(nn_log(X)), 1)))))), &gin[0]);
}

/* (2 self result - 2 / sqrt(pi)) * grad */
int nn_special_erfcx_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    nn_tensor *d = E(nn_add_scalar(E(nn_mul_scalar(E(nn_mul(X, Y)), 2.0)), -2.0 / sqrt(M_PI)));
    return finish(&s, n, 0, E(nn_mul(d, G)), &gin[0]);
}

/* self: grad * xlog1py(self != 0, other); other: grad * self / (other + 1) */
int nn_special_xlog1py_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    int rc = 0;
    if (nn_node_needs_input_grad(n, 0)) {
        arena s = {0};
        nn_tensor *nz = E(nn_compare(X, E(nn_wrapped_number(0, false)), NN_NE));
        nn_tensor *d; /* xlog1py(self != 0, other): a number other in double, as PyTorch's Scalar */
        if (Y->is_wrapped_number) {
            double y = 0;
            d = nn_item(Y, &y) < 0 ? NULL : E(nn_mul_scalar(E(nn_to_dtype(nz, G->dtype)), log1p(y)));
        } else {
            d = E(nn_special_xlog1py(nz, Y));
        }
        rc = finish(&s, n, 0, E(nn_mul(G, d)), &gin[0]);
    }
    if (rc == 0 && nn_node_needs_input_grad(n, 1)) {
        arena s = {0};
        rc = finish(&s, n, 1, E(nn_div(E(nn_mul(G, X)), E(nn_add_scalar(Y, 1)))), &gin[1]);
    }
    return rc;
}

int nn_special_xlog1py_scalar_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    return nn_special_xlog1py_backward(n, gout, gin);
}

/* self: not implemented (PyTorch's error); other: grad * -self * zeta(self + 1, other) */
int nn_special_zeta_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (nn_node_needs_input_grad(n, 0))
        return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "the derivative for 'zeta' is not implemented.");
    if (!nn_node_needs_input_grad(n, 1)) return 0;
    arena s = {0};
    nn_tensor *z = E(nn_special_zeta(E(nn_add_scalar(X, 1)), Y));
    return finish(&s, n, 1, E(nn_mul(G, E(nn_mul(E(nn_neg(X)), z)))), &gin[1]);
}

/* grad * sum(digamma(arange(-p/2 + 1/2, 1/2, 1/2) + self[..., None]), -1) */
int nn_mvlgamma_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    nn_tensor *args = E(mvlgamma_args(X, n->p.i[0]));
    nn_tensor *d = E(nn_sum(E(nn_digamma(args)), 1, (const int[]){-1}, false));
    return finish(&s, n, 0, E(nn_mul(G, d)), &gin[0]);
}

/* ---------------------------------------------------------------- in place */

int nn_special_inplace(nn_tensor *a, nn_tensor *(*fn)(nn_tensor *, int64_t), int64_t arg)
{
    if (nn_check_inplace(a) < 0) return -1;
    if (nn_needs_grad(1, &a))
        return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "in-place special functions of a tensor that requires grad are "
                                                    "not supported; use the out-of-place form");
    nn_tensor *r = fn(a, arg);
    int rc = r ? 0 : -1;
    if (rc == 0 && r->dtype != a->dtype)
        rc = nn_error_set(NN_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
                          nn_dtype_scalar_name(r->dtype), nn_dtype_scalar_name(a->dtype));
    if (rc == 0) rc = nn_copy_(a, r);
    NN_RELEASE(r);
    return rc;
}
