/*
 * mathfn.c — the elementwise math of torch that unary.c lacks: sin, cos, tan,
 * asin, acos, atan, sinh, cosh, asinh, acosh, atanh, log2, log10, log1p,
 * expm1, exp2, erf, erfc, erfinv, rsqrt, reciprocal, trunc, frac,
 * nan_to_num, clamp_min/clamp_max (scalar bounds), the binary atan2, hypot,
 * logaddexp, xlogy, lerp (scalar or tensor weight) and the reduction
 * logsumexp; each forward with its backward beside it.
 *
 * The forwards lay out a contiguous copy in the compute dtype (float32 or
 * float64; integers compute in float32, bfloat16 in float32 and rounds once)
 * on the input's device and call the `math` kernel (core/cpu/math.c: SLEEF's
 * AVX2 functions on float32 where ATen's vml kernels use them, ATen's erfinv).
 * Backwards are PyTorch's derivatives.yaml formulas built from differentiable
 * ops, so higher-order gradients work.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "backend.h"
#include "nn_half.h"
#include "nn_int.h"
#include "nn_scratch.h"
#include "nn_select_more.h"

/* ------------------------------------------------------------- helpers */

/* Temporaries of a backward formula, released together: E(expr) evaluates expr
   only while nothing has failed and keeps its result. */
typedef struct arena {
    nn_tensor *t[16];
    int n;
    bool failed;
} arena;

static nn_tensor *keep(arena *s, nn_tensor *t)
{
    if (!t || s->n == 16) {
        NN_RELEASE(t);
        s->failed = true;
        return NULL;
    }
    return s->t[s->n++] = t;
}
#define E(expr) (s.failed ? NULL : keep(&s, (expr)))

/* Releases the arena; *slot gets r (retained) summed to input i's shape. */
static int finish(arena *s, nn_node *n, int i, nn_tensor *r, nn_tensor **slot)
{
    int rc = -1;
    if (!s->failed && r) {
        const nn_input_meta *m = &n->input_meta[i];
        nn_tensor *g = nn_sum_to_size(r, m->ndim, m->sizes);
        if (g && g->dtype != m->dtype) {
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

static nn_tensor *scalar_like(const nn_tensor *t, double v) { return nn_scalar(v, t->dtype); }

/* The float dtype these ops compute and return: integers and bool give float32. */
static nn_dtype float_result(nn_dtype dt) { return nn_dtype_is_floating(dt) ? dt : nn_default_dtype(); }

/* t converted to dtype cd, contiguous, no autograd; new reference. */
static nn_tensor *compute_copy(nn_tensor *t, nn_dtype cd)
{
    nn_tensor *c = NULL, *r = NULL;
    NN_WITH_GRAD_MODE(false, c = nn_to_dtype(t, cd); r = c ? nn_contiguous(c) : NULL);
    NN_RELEASE(c);
    return r;
}

/* kernel NULL: PyTorch 1.13's CPU kernel takes float16 (computes in float32, rounds once) */
static int refuse_half(const char *kernel, nn_dtype dt)
{
    if (dt != NN_FLOAT16 || !kernel) return 0;
    return nn_error_set(NN_ERR_RUNTIME, "\"%s\" not implemented for 'Half'", kernel);
}

/* ------------------------------------------------------ unary kernels */

/* a complex a's f(a) (core/complex.c), for the functions it computes */
static nn_tensor *complex_unary(nn_tensor *a, nn_math_op code)
{
    static const struct { nn_math_op code; nn_complex_fn f; } fns[] = {
        {NN_MATH_sin, NN_CX_SIN},   {NN_MATH_cos, NN_CX_COS},     {NN_MATH_tan, NN_CX_TAN},
        {NN_MATH_sinh, NN_CX_SINH}, {NN_MATH_cosh, NN_CX_COSH},   {NN_MATH_log2, NN_CX_LOG2},
        {NN_MATH_log10, NN_CX_LOG10}, {NN_MATH_rsqrt, NN_CX_RSQRT}, {NN_MATH_reciprocal, NN_CX_RECIPROCAL},
    };
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++)
        if (fns[i].code == code) return nn_complex_math(fns[i].f, a);
    nn_error_set(NN_ERR_NOT_IMPLEMENTED, "this function does not support complex tensors in nnscope yet");
    return NULL;
}

/* out = f(a) elementwise in a's float result type; records op saving a (or the
   output when save_out). */
static nn_tensor *unary(nn_tensor *a, nn_math_op code, nn_op_id op, bool save_out, const char *kernel)
{
    if (!a) return NULL; /* an operand a nested call failed to make (its error is current) */
    if (nn_dtype_is_complex(a->dtype)) return complex_unary(a, code);
    if (refuse_half(kernel, a->dtype) < 0) return NULL;
    nn_dtype rt = float_result(a->dtype), cd = rt == NN_FLOAT64 ? NN_FLOAT64 : NN_FLOAT32;
    nn_tensor *c = compute_copy(a, cd), *out = c ? nn_empty_on(nn_device_of(c), a->ndim, a->sizes, cd) : NULL;
    if (!out) {
        NN_RELEASE(c);
        return NULL;
    }
    nn_kernel_args ka = {.t = {out, c}};
    /* i[0]: a's rows as ATen's loop sees them (0: contiguous, -1: strided rows), for the kernels that
       vectorize only dense rows (sinh, cosh) */
    if (!nn_is_contiguous(a)) ka.i[0] = nn_dense_row(a) > 0 ? nn_dense_row(a) : -1;
    if (NN_KERNEL(nn_backend_of(c), math, (code, &ka)) < 0) NN_SET(out, NULL);
    NN_RELEASE(c);
    if (!out) return NULL;
    if (rt != cd) {
        nn_tensor *r = nn_to_dtype(out, rt);
        NN_SET(out, r);
        if (!out) return NULL;
    }
    if (nn_record(op, 1, &a, 1, &out, 1, save_out ? &out : &a, NULL) < 0) NN_SET(out, NULL);
    return out;
}

#define UNARY_OP(name, save_out, kernel)                                                         \
    nn_tensor *nn_##name(nn_tensor *a) { return unary(a, NN_MATH_##name, NN_OP_##name, save_out, kernel); }
UNARY_OP(sin, false, "sin_vml_cpu")
UNARY_OP(cos, false, "cos_vml_cpu")
UNARY_OP(tan, true, "tan_vml_cpu")
UNARY_OP(asin, false, "asin_vml_cpu")
UNARY_OP(acos, false, "acos_vml_cpu")
UNARY_OP(atan, false, "atan_vml_cpu")
UNARY_OP(sinh, false, "sinh_cpu")
UNARY_OP(cosh, false, "cosh_cpu")
UNARY_OP(asinh, false, "asinh_cpu")
UNARY_OP(acosh, false, "acosh_cpu")
UNARY_OP(atanh, false, "atanh_cpu")
UNARY_OP(log2, false, "log2_vml_cpu")
UNARY_OP(log10, false, "log10_vml_cpu")
UNARY_OP(log1p, false, "log1p_vml_cpu")
UNARY_OP(expm1, true, "expm1_vml_cpu")
UNARY_OP(exp2, true, NULL)
UNARY_OP(erf, false, "erf_vml_cpu")
UNARY_OP(erfc, false, "erfc_vml_cpu")
UNARY_OP(erfinv, false, "erfinv_vml_cpu")
UNARY_OP(reciprocal, true, NULL)

/* bfloat16: PyTorch's scalar loop (small tensors, row tails) computes 1 / sqrt rounded to bfloat16 */
nn_tensor *nn_rsqrt(nn_tensor *a)
{
    if (a->dtype != NN_BFLOAT16) return unary(a, NN_MATH_rsqrt, NN_OP_rsqrt, true, "rsqrt_cpu");
    nn_tensor *v = NULL;
    NN_WITH_GRAD_MODE(false, v = unary(a, NN_MATH_rsqrt, NN_OP_rsqrt, true, NULL));
    nn_tensor *out = v ? nn_bf16_rsqrt_value(a, v) : NULL;
    NN_RELEASE(v);
    if (out && nn_record(NN_OP_rsqrt, 1, &a, 1, &out, 1, &out, NULL) < 0) NN_SET(out, NULL);
    return out;
}

/* trunc and frac keep integer dtypes: trunc of an integer is a copy, frac
   refuses one (PyTorch's "frac_cpu" not implemented for 'Long'). */
nn_tensor *nn_trunc(nn_tensor *a)
{
    if (!nn_dtype_is_floating(a->dtype)) {
        if (a->dtype == NN_BOOL) return nn_error_set(NN_ERR_RUNTIME, "\"trunc_vml_cpu\" not implemented for 'Bool'"), NULL;
        return nn_clone(a);
    }
    return unary(a, NN_MATH_trunc, NN_OP_trunc, false, "trunc_vml_cpu");
}

nn_tensor *nn_frac(nn_tensor *a)
{
    if (!nn_dtype_is_floating(a->dtype))
        return nn_error_set(NN_ERR_RUNTIME, "\"frac_cpu\" not implemented for '%s'", nn_dtype_scalar_name(a->dtype)), NULL;
    return unary(a, NN_MATH_frac, NN_OP_frac, false, NULL);
}

/* ----------------------------------------------------- unary backwards */

#define SAVED nn_node_saved(n, 0)
#define G gout[0]

int nn_sin_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    return finish(&s, n, 0, E(nn_mul(G, E(nn_cos(SAVED)))), &gin[0]);
}

int nn_cos_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    return finish(&s, n, 0, E(nn_mul(G, E(nn_neg(E(nn_sin(SAVED)))))), &gin[0]);
}

/* grad * (1 + result^2) */
int nn_tan_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    return finish(&s, n, 0, E(nn_mul(G, E(nn_add_scalar(E(nn_pow_scalar(SAVED, 2)), 1)))), &gin[0]);
}

/* grad * (1 - x^2).rsqrt(), negated for acos */
static int asin_like(nn_node *n, nn_tensor **gout, nn_tensor **gin, bool negate)
{
    arena s = {0};
    nn_tensor *x = SAVED, *sq = E(nn_mul(E(nn_neg(x)), x)), *r = E(nn_rsqrt(E(nn_add_scalar(sq, 1))));
    nn_tensor *g = E(nn_mul(G, r));
    return finish(&s, n, 0, negate ? E(nn_neg(g)) : g, &gin[0]);
}
int nn_asin_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return asin_like(n, gout, gin, false); }
int nn_acos_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return asin_like(n, gout, gin, true); }

/* grad / (x^2 + 1) */
int nn_atan_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    return finish(&s, n, 0, E(nn_div(G, E(nn_add_scalar(E(nn_mul(SAVED, SAVED)), 1)))), &gin[0]);
}

int nn_sinh_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    return finish(&s, n, 0, E(nn_mul(G, E(nn_cosh(SAVED)))), &gin[0]);
}

int nn_cosh_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    return finish(&s, n, 0, E(nn_mul(G, E(nn_sinh(SAVED)))), &gin[0]);
}

/* grad * (x^2 + 1).rsqrt() and grad * (x^2 - 1).rsqrt() */
int nn_asinh_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    return finish(&s, n, 0, E(nn_mul(G, E(nn_rsqrt(E(nn_add_scalar(E(nn_pow_scalar(SAVED, 2)), 1)))))), &gin[0]);
}

int nn_acosh_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    return finish(&s, n, 0, E(nn_mul(G, E(nn_rsqrt(E(nn_add_scalar(E(nn_pow_scalar(SAVED, 2)), -1)))))), &gin[0]);
}

/* grad / (1 - x^2) */
int nn_atanh_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    return finish(&s, n, 0, E(nn_div(G, E(nn_rsub_scalar(E(nn_pow_scalar(SAVED, 2)), 1)))), &gin[0]);
}

/* grad / (x * ln b) */
static int log_base_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin, double ln_b)
{
    arena s = {0};
    return finish(&s, n, 0, E(nn_div(G, E(nn_mul_scalar(SAVED, ln_b)))), &gin[0]);
}
int nn_log2_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return log_base_backward(n, gout, gin, M_LN2); }
int nn_log10_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return log_base_backward(n, gout, gin, M_LN10); }

int nn_log1p_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    return finish(&s, n, 0, E(nn_div(G, E(nn_add_scalar(SAVED, 1)))), &gin[0]);
}

/* grad * (result + 1) */
int nn_expm1_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    return finish(&s, n, 0, E(nn_mul(G, E(nn_add_scalar(SAVED, 1)))), &gin[0]);
}

/* grad * result * ln 2 */
int nn_exp2_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    return finish(&s, n, 0, E(nn_mul_scalar(E(nn_mul(G, SAVED)), M_LN2)), &gin[0]);
}

/* +-2/sqrt(pi) * exp(-x^2) * grad */
static int erf_like(nn_node *n, nn_tensor **gout, nn_tensor **gin, double k)
{
    arena s = {0};
    nn_tensor *e = E(nn_exp(E(nn_neg(E(nn_pow_scalar(SAVED, 2))))));
    return finish(&s, n, 0, E(nn_mul(E(nn_mul_scalar(e, k)), G)), &gin[0]);
}
int nn_erf_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return erf_like(n, gout, gin, M_2_SQRTPI); }
int nn_erfc_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return erf_like(n, gout, gin, -M_2_SQRTPI); }

/* 0.5 * sqrt(pi) * exp(erfinv(x)^2) * grad */
int nn_erfinv_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    nn_tensor *e = E(nn_exp(E(nn_pow_scalar(E(nn_erfinv(SAVED)), 2))));
    return finish(&s, n, 0, E(nn_mul(E(nn_mul_scalar(e, 0.5 * sqrt(M_PI))), G)), &gin[0]);
}

/* -0.5 * grad * result^3 */
int nn_rsqrt_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    return finish(&s, n, 0, E(nn_mul(E(nn_mul_scalar(G, -0.5)), E(nn_pow_scalar(SAVED, 3)))), &gin[0]);
}

/* -grad * result^2 */
int nn_reciprocal_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    return finish(&s, n, 0, E(nn_mul(E(nn_neg(G)), E(nn_mul(SAVED, SAVED)))), &gin[0]);
}

int nn_trunc_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    return finish(&s, n, 0, E(nn_zeros_like(G)), &gin[0]);
}

int nn_frac_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    NN_RETAIN(G);
    return finish(&s, n, 0, E(G), &gin[0]);
}

/* ------------------------------------------------------- nan_to_num */

/* a bool tensor: each element of t finite (no autograd) */
static nn_tensor *finite_mask(nn_tensor *t)
{
    nn_tensor *c = compute_copy(t, NN_FLOAT64), *m = c ? nn_empty_on(nn_device_of(c), t->ndim, t->sizes, NN_BOOL) : NULL;
    nn_kernel_args ka = {.t = {m, c}};
    if (m && NN_KERNEL(nn_backend_of(c), math, (NN_MATH_isfinite, &ka)) < 0) NN_SET(m, NULL);
    NN_RELEASE(c);
    return m;
}

nn_tensor *nn_nan_to_num(nn_tensor *a, double nan, const double *posinf, const double *neginf)
{
    if (!nn_dtype_is_floating(a->dtype)) return nn_clone(a);
    double hi = a->dtype == NN_FLOAT64    ? DBL_MAX
                : a->dtype == NN_BFLOAT16 ? 0x1.fep127
                : a->dtype == NN_FLOAT16  ? 65504.0
                                          : FLT_MAX;
    double pinf = posinf ? *posinf : hi, ninf = neginf ? *neginf : -hi;
    nn_dtype cd = a->dtype == NN_FLOAT64 ? NN_FLOAT64 : NN_FLOAT32;
    nn_tensor *c = compute_copy(a, cd), *out = c ? nn_empty_on(nn_device_of(c), a->ndim, a->sizes, cd) : NULL;
    if (!out) {
        NN_RELEASE(c);
        return NULL;
    }
    nn_kernel_args ka = {.t = {out, c}, .d = {nan, pinf, ninf}};
    if (NN_KERNEL(nn_backend_of(c), math, (NN_MATH_nan_to_num, &ka)) < 0) NN_SET(out, NULL);
    NN_RELEASE(c);
    if (!out) return NULL;
    if (cd != a->dtype) {
        nn_tensor *r = nn_to_dtype(out, a->dtype);
        NN_SET(out, r);
        if (!out) return NULL;
    }
    if (nn_record(NN_OP_nan_to_num, 1, &a, 1, &out, 1, &a, NULL) < 0) NN_SET(out, NULL);
    return out;
}

/* grad where the input was finite, else 0 */
int nn_nan_to_num_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    nn_tensor *m = E(finite_mask(SAVED));
    return finish(&s, n, 0, E(nn_where(m, G, E(scalar_like(G, 0)))), &gin[0]);
}

/* ------------------------------------------------ clamp_min, clamp_max */

static nn_tensor *clamp_one(nn_tensor *a, double bound, bool is_min, nn_op_id op)
{
    if (!a) return NULL; /* an operand a nested call failed to make (its error is current) */
    nn_tensor *out = NULL;
    NN_WITH_GRAD_MODE(false, out = nn_clamp(a, bound, is_min, bound, !is_min));
    nn_op_params p = {.f = {bound}};
    if (out && nn_record(op, 1, &a, 1, &out, 1, &a, &p) < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_clamp_min(nn_tensor *a, double min) { return clamp_one(a, min, true, NN_OP_clamp_min); }
nn_tensor *nn_clamp_max(nn_tensor *a, double max) { return clamp_one(a, max, false, NN_OP_clamp_max); }

/* grad where self >= min (<= max), else 0 */
static int clamp_one_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin, nn_cmp cmp)
{
    arena s = {0};
    nn_tensor *m = E(nn_compare(SAVED, E(nn_wrapped_number(n->p.f[0], false)), cmp));
    return finish(&s, n, 0, E(nn_where(m, G, E(scalar_like(G, 0)))), &gin[0]);
}
int nn_clamp_min_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return clamp_one_backward(n, gout, gin, NN_GE); }
int nn_clamp_max_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return clamp_one_backward(n, gout, gin, NN_LE); }

/* ------------------------------------------------------ binary ops */

/* The n tensors broadcast to one shape, converted to cd, contiguous (new
   references into c[]); the shape into nd/sizes. 0 or -1. */
static int broadcast_all(int k, nn_tensor *const *in, nn_dtype cd, nn_tensor **c, int *nd, int64_t *sizes)
{
    *nd = in[0]->ndim;
    memcpy(sizes, in[0]->sizes, sizeof(int64_t) * (size_t)in[0]->ndim);
    for (int i = 1; i < k; i++) {
        int64_t prev[NN_MAX_DIMS];
        int pn = *nd;
        memcpy(prev, sizes, sizeof prev);
        if (nn_broadcast_shapes(pn, prev, in[i]->ndim, in[i]->sizes, nd, sizes) < 0) return -1;
    }
    for (int i = 0; i < k; i++) c[i] = NULL;
    for (int i = 0; i < k; i++) {
        nn_tensor *e = NULL;
        NN_WITH_GRAD_MODE(false, e = nn_expand(in[i], *nd, sizes));
        c[i] = e ? compute_copy(e, cd) : NULL;
        NN_RELEASE(e);
        if (!c[i]) {
            for (int j = 0; j < i; j++) NN_RELEASE(c[j]);
            return -1;
        }
    }
    return 0;
}

/* out = f(a, b), broadcast, in the promoted float type; records op saving a, b
   (and the output when save_out). */
static nn_tensor *binary(nn_tensor *a, nn_tensor *b, nn_math_op code, nn_op_id op, bool save_out,
                         const char *kernel)
{
    nn_dtype rt = float_result(nn_result_type(a, b)), cd = rt == NN_FLOAT64 ? NN_FLOAT64 : NN_FLOAT32;
    if (refuse_half(kernel, rt) < 0) return NULL;
    nn_tensor *c[2], *ab[2] = {a, b};
    int nd;
    int64_t sizes[NN_MAX_DIMS];
    /* a half type: TensorIterator casts both operands (a Python number too) to it first */
    nn_tensor *h[2] = {NULL, NULL};
    nn_device dev = nn_device_of(a);
    if (rt != cd && nn_common_device(2, ab, &dev) < 0) return NULL;
    for (int i = 0; i < 2; i++) /* a 0-dim CPU operand moves to the op's device by value */
        if (rt != cd && rt != ab[i]->dtype && !(h[i] = nn_to_op_device(compute_copy(ab[i], rt), dev))) {
            NN_RELEASE(h[0]);
            return NULL;
        }
    nn_tensor *hab[2] = {h[0] ? h[0] : a, h[1] ? h[1] : b};
    int brc = broadcast_all(2, hab, cd, c, &nd, sizes);
    NN_RELEASE(h[0]);
    NN_RELEASE(h[1]);
    if (brc < 0) return NULL;
    nn_tensor *out = nn_empty_on(nn_device_of(c[0]), nd, sizes, cd);
    nn_kernel_args ka = {.t = {out, c[0], c[1]}};
    if (out && NN_KERNEL(nn_backend_of(c[0]), math, (code, &ka)) < 0) NN_SET(out, NULL);
    NN_RELEASE(c[0]);
    NN_RELEASE(c[1]);
    if (out && rt != cd) {
        nn_tensor *r = nn_to_dtype(out, rt);
        NN_SET(out, r);
    }
    nn_tensor *save[3] = {a, b, out};
    if (out && nn_record(op, 2, ab, 1, &out, save_out ? 3 : 2, save, NULL) < 0) NN_SET(out, NULL);
    return out;
}

/* hypot and logaddexp keep integer inputs integer, as PyTorch's, whose kernels refuse them */
static int refuse_integer(const char *kernel, nn_tensor *a, nn_tensor *b)
{
    nn_dtype rt = nn_result_type(a, b);
    if (nn_dtype_is_floating(rt)) return 0;
    return nn_error_set(NN_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel, nn_dtype_scalar_name(rt));
}

nn_tensor *nn_atan2(nn_tensor *a, nn_tensor *b) { return binary(a, b, NN_MATH_atan2, NN_OP_atan2, false, "atan2_cpu"); }
nn_tensor *nn_hypot(nn_tensor *a, nn_tensor *b)
{
    if (refuse_integer("hypot_cpu", a, b) < 0) return NULL;
    return binary(a, b, NN_MATH_hypot, NN_OP_hypot, true, "hypot_cpu");
}
nn_tensor *nn_logaddexp(nn_tensor *a, nn_tensor *b)
{
    if (refuse_integer("logaddexp_cpu", a, b) < 0) return NULL;
    return binary(a, b, NN_MATH_logaddexp, NN_OP_logaddexp, false, "logaddexp_cpu");
}
/* a Python number as b records XlogyBackward2, as PyTorch's Scalar overload */
nn_tensor *nn_xlogy(nn_tensor *a, nn_tensor *b)
{
    nn_op_id op = b->is_wrapped_number ? NN_OP_xlogy_scalar : NN_OP_xlogy;
    if (nn_result_type(a, b) != NN_BFLOAT16) return binary(a, b, NN_MATH_xlogy, op, false, NULL);
    /* bfloat16: the scalar kernel's log rounds to bfloat16 before the product */
    nn_tensor *ab[2] = {a, b}, *c[2] = {NULL, NULL}, *out = NULL;
    nn_device dev;
    if (nn_common_device(2, ab, &dev) < 0) return NULL;
    for (int i = 0; i < 2; i++) NN_WITH_GRAD_MODE(false, c[i] = nn_to_op_device(nn_to_dtype(ab[i], NN_BFLOAT16), dev));
    if (c[0] && c[1]) out = nn_bf16_xlogy_value(c[0], c[1]); /* its ops broadcast */
    NN_RELEASE(c[0]);
    NN_RELEASE(c[1]);
    if (out && nn_record(op, 2, ab, 1, &out, 2, ab, NULL) < 0) NN_SET(out, NULL);
    return out;
}

#define A nn_node_saved(n, 0)
#define B nn_node_saved(n, 1)

/* self: grad * other / (self^2 + other^2); other: grad * -self / (...) */
int nn_atan2_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    int rc = 0;
    for (int i = 0; i < 2 && rc == 0; i++)
        if (nn_node_needs_input_grad(n, i)) {
            arena s = {0};
            nn_tensor *den = E(nn_add(E(nn_mul(A, A)), E(nn_mul(B, B))));
            nn_tensor *num = i == 0 ? E(nn_mul(G, B)) : E(nn_mul(G, E(nn_neg(A))));
            rc = finish(&s, n, i, E(nn_div(num, den)), &gin[i]);
        }
    return rc;
}

/* grad * self / result, grad * other / result */
int nn_hypot_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    int rc = 0;
    for (int i = 0; i < 2 && rc == 0; i++)
        if (nn_node_needs_input_grad(n, i)) {
            arena s = {0};
            rc = finish(&s, n, i, E(nn_div(E(nn_mul(G, nn_node_saved(n, i))), nn_node_saved(n, 2))), &gin[i]);
        }
    return rc;
}

/* grad / (1 + exp(other - self)), grad / (1 + exp(self - other)) */
int nn_logaddexp_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    int rc = 0;
    for (int i = 0; i < 2 && rc == 0; i++)
        if (nn_node_needs_input_grad(n, i)) {
            arena s = {0};
            nn_tensor *d = E(nn_sub(nn_node_saved(n, 1 - i), nn_node_saved(n, i)));
            rc = finish(&s, n, i, E(nn_div(G, E(nn_add_scalar(E(nn_exp(d)), 1)))), &gin[i]);
        }
    return rc;
}

/* PyTorch 1.13's: self: xlogy(grad, other), 0 where self == 0 and other <= 0;
   other: grad * self / other */
int nn_xlogy_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    int rc = 0;
    if (nn_node_needs_input_grad(n, 0)) {
        arena s = {0};
        nn_tensor *zero = E(nn_wrapped_number(0, false));
        nn_tensor *off = E(nn_bitwise_and(E(nn_compare(A, zero, NN_EQ)), E(nn_compare(B, zero, NN_LE))));
        nn_tensor *g = E(nn_xlogy(G, B));
        rc = finish(&s, n, 0, E(nn_where(off, E(scalar_like(g ? g : G, 0)), g)), &gin[0]);
    }
    if (rc == 0 && nn_node_needs_input_grad(n, 1)) {
        arena s = {0};
        rc = finish(&s, n, 1, E(nn_div(E(nn_mul(G, A)), B)), &gin[1]);
    }
    return rc;
}

int nn_xlogy_scalar_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return nn_xlogy_backward(n, gout, gin); }

/* ------------------------------------------------------------- lerp */

/* C++'s name of a scalar type ("float", "double") from its title. */
static void lower(char *out, const char *title)
{
    size_t i = 0;
    for (; title[i] && i < 15; i++) out[i] = (char)(title[i] >= 'A' && title[i] <= 'Z' ? title[i] + 32 : title[i]);
    out[i] = '\0';
}

/* ATen's lerp formula: exact at both ends */
/* lerp(self, end, weight): weight a tensor (LerpBackward1) or, when NULL, the
   number w (LerpBackward0). */
nn_tensor *nn_lerp(nn_tensor *a, nn_tensor *end, nn_tensor *weight, double w)
{
    if (!a || !end) return NULL; /* an operand a nested call failed to make (its error is current) */
    if (a->dtype != end->dtype || (weight && weight->dtype != a->dtype))
    {
        char want[16], got[16];
        lower(want, nn_dtype_scalar_name(a->dtype));
        lower(got, nn_dtype_scalar_name(weight && end->dtype == a->dtype ? weight->dtype : end->dtype));
        nn_error_set(NN_ERR_RUNTIME, "expected dtype %s for `%s` but got dtype %s", want,
                     end->dtype == a->dtype ? "weight" : "end", got);
        return NULL;
    }
    if (!nn_dtype_is_floating(a->dtype) || a->dtype == NN_FLOAT16)
        return nn_error_set(NN_ERR_RUNTIME, "\"lerp_kernel_%s\" not implemented for '%s'", weight ? "tensor" : "scalar",
                            nn_dtype_scalar_name(a->dtype)), NULL;
    nn_dtype cd = a->dtype == NN_FLOAT64 ? NN_FLOAT64 : NN_FLOAT32;
    nn_tensor *in[3] = {a, end, weight}, *c[3] = {0};
    int nd;
    int64_t sizes[NN_MAX_DIMS];
    if (broadcast_all(weight ? 3 : 2, in, cd, c, &nd, sizes) < 0) return NULL;
    nn_tensor *out = nn_empty_on(nn_device_of(c[0]), nd, sizes, cd);
    nn_kernel_args ka = {.t = {out, c[0], c[1], weight ? c[2] : NULL}, .d = {w}};
    if (out && NN_KERNEL(nn_backend_of(c[0]), math, (NN_MATH_lerp, &ka)) < 0) NN_SET(out, NULL);
    for (int i = 0; i < 3; i++) NN_RELEASE(c[i]);
    if (out && cd != a->dtype) {
        nn_tensor *r = nn_to_dtype(out, a->dtype);
        NN_SET(out, r);
    }
    nn_op_params p = {.f = {w}};
    if (out && nn_record(weight ? NN_OP_lerp_tensor : NN_OP_lerp, weight ? 3 : 2, in, 1, &out, weight ? 3 : 2, in, &p) < 0)
        NN_SET(out, NULL);
    return out;
}

int nn_lerp_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    int rc = 0;
    if (nn_node_needs_input_grad(n, 0)) {
        arena s = {0};
        rc = finish(&s, n, 0, E(nn_mul_scalar(G, 1 - n->p.f[0])), &gin[0]);
    }
    if (rc == 0 && nn_node_needs_input_grad(n, 1)) {
        arena s = {0};
        rc = finish(&s, n, 1, E(nn_mul_scalar(G, n->p.f[0])), &gin[1]);
    }
    return rc;
}

/* self: grad * (1 - weight); end: grad * weight; weight: grad * (end - self) */
int nn_lerp_tensor_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *w = nn_node_saved(n, 2);
    int rc = 0;
    if (nn_node_needs_input_grad(n, 0)) {
        arena s = {0};
        rc = finish(&s, n, 0, E(nn_mul(G, E(nn_rsub_scalar(w, 1)))), &gin[0]);
    }
    if (rc == 0 && nn_node_needs_input_grad(n, 1)) {
        arena s = {0};
        rc = finish(&s, n, 1, E(nn_mul(G, w)), &gin[1]);
    }
    if (rc == 0 && nn_node_needs_input_grad(n, 2)) {
        arena s = {0};
        rc = finish(&s, n, 2, E(nn_mul(G, E(nn_sub(B, A)))), &gin[2]);
    }
    return rc;
}

/* ------------------------------------------------------ addcmul, addcdiv */

/* The composed form, for dtypes the fused kernel does not take (integers, mixed
   dtypes): (value * t1) op t2 + a, recorded as its three ops. */
static nn_tensor *addc_composed(nn_tensor *a, nn_tensor *t1, nn_tensor *t2, double value, bool divide)
{
    nn_tensor *v = nn_wrapped_number(value, value == floor(value) && fabs(value) < 0x1p53);
    nn_tensor *scaled = v ? nn_mul(t1, v) : NULL;
    nn_tensor *term = scaled ? (divide ? nn_div(scaled, t2) : nn_mul(scaled, t2)) : NULL;
    nn_tensor *r = term ? nn_add(a, term) : NULL;
    NN_RELEASE(v);
    NN_RELEASE(scaled);
    NN_RELEASE(term);
    return r;
}

/* a + value * t1 * t2 (addcmul) or a + value * t1 / t2 (addcdiv), broadcast: for
   one float dtype, ATen's kernel (one fused multiply-add for addcmul) and one
   AddcmulBackward0/AddcdivBackward0 node. */
nn_tensor *nn_addc(nn_tensor *a, nn_tensor *t1, nn_tensor *t2, double value, bool divide)
{
    nn_dtype cd = a->dtype;
    if (nn_refuse_half(divide ? "addcdiv_cpu_out" : "addcmul_cpu_out", a->dtype, false) < 0)
        return NULL;
    /* bfloat16: computed in float32 and rounded once, as 1.13's kernel */
    bool bf16 = cd == NN_BFLOAT16 && t1->dtype == cd && t2->dtype == cd;
    if ((cd != NN_FLOAT32 && cd != NN_FLOAT64 && !bf16) || t1->dtype != cd || t2->dtype != cd)
        return addc_composed(a, t1, t2, value, divide);
    nn_dtype kd = bf16 ? NN_FLOAT32 : cd;
    nn_tensor *in[3] = {a, t1, t2}, *c[3] = {0};
    int nd;
    int64_t sizes[NN_MAX_DIMS];
    if (broadcast_all(3, in, kd, c, &nd, sizes) < 0) return NULL;
    nn_tensor *out = nn_empty_on(nn_device_of(c[0]), nd, sizes, kd);
    nn_kernel_args ka = {.t = {out, c[0], c[1], c[2]}, .d = {value}};
    if (out && NN_KERNEL(nn_backend_of(c[0]), math, (divide ? NN_MATH_addcdiv : NN_MATH_addcmul, &ka)) < 0)
        NN_SET(out, NULL);
    for (int i = 0; i < 3; i++) NN_RELEASE(c[i]);
    if (out && bf16) NN_WITH_GRAD_MODE(false, NN_SET(out, nn_to_dtype(out, NN_BFLOAT16)));
    nn_op_params p = {.f = {value}};
    if (out && nn_record(divide ? NN_OP_addcdiv : NN_OP_addcmul, 3, in, 1, &out, 2, in + 1, &p) < 0)
        NN_SET(out, NULL);
    return out;
}

/* self: grad; tensor1: grad * tensor2 * value; tensor2: grad * tensor1 * value */
int nn_addcmul_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    int rc = 0;
    for (int i = 0; i < 3 && rc == 0; i++)
        if (nn_node_needs_input_grad(n, i)) {
            arena s = {0};
            nn_tensor *g = i == 0 ? (nn_tensor *)nn_retain(&G->ob)
                                  : nn_mul(G, E(nn_mul_scalar(nn_node_saved(n, 2 - i), n->p.f[0])));
            rc = finish(&s, n, i, E(g), &gin[i]);
        }
    return rc;
}

/* self: grad; tensor1: grad * (value / tensor2); tensor2: -grad * (value * tensor1 / tensor2^2) */
int nn_addcdiv_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    int rc = 0;
    for (int i = 0; i < 3 && rc == 0; i++)
        if (nn_node_needs_input_grad(n, i)) {
            arena s = {0};
            nn_tensor *t1 = nn_node_saved(n, 0), *t2 = nn_node_saved(n, 1), *g;
            if (i == 0) g = (nn_tensor *)nn_retain(&G->ob);
            else if (i == 1) g = nn_mul(G, E(nn_div(E(nn_wrapped_number(n->p.f[0], false)), t2)));
            else g = nn_mul(E(nn_neg(G)), E(nn_div(E(nn_mul_scalar(t1, n->p.f[0])), E(nn_mul(t2, t2)))));
            rc = finish(&s, n, i, E(g), &gin[i]);
        }
    return rc;
}

/* -------------------------------------------------------- logsumexp */

/* ATen's steps: m = amax(a, dims, keepdim=True), 0 where infinite; log(sum(exp(a - m), dims)) + m,
   each step the op nnscope computes with PyTorch's bits (Sleef's exp and log, ATen's sum order). */
static nn_tensor *logsumexp_steps(nn_tensor *a, int n_dims, const int *dims, bool keepdim)
{
    nn_scratch s = {0};
    nn_tensor *m = NN_KEEP(&s, nn_amax(a, n_dims, dims, true));
    nn_tensor *inf = NN_KEEP(&s, nn_scalar(INFINITY, a->dtype)), *zero = NN_KEEP(&s, nn_scalar(0, a->dtype));
    nn_tensor *infinite = s.failed ? NULL : NN_KEEP(&s, nn_compare(NN_KEEP(&s, nn_abs(m)), inf, NN_EQ));
    nn_tensor *finite_m = s.failed ? NULL : NN_KEEP(&s, nn_where(infinite, zero, m));
    nn_tensor *e = s.failed ? NULL : NN_KEEP(&s, nn_exp(NN_KEEP(&s, nn_sub(a, finite_m))));
    nn_tensor *l = s.failed ? NULL : NN_KEEP(&s, nn_log(NN_KEEP(&s, nn_sum(e, n_dims, dims, keepdim))));
    nn_tensor *ms = s.failed || keepdim ? finite_m : NN_KEEP(&s, nn_reshape(finite_m, l->ndim, l->sizes));
    nn_tensor *r = s.failed ? NULL : nn_add(l, ms);
    nn_scratch_free(&s);
    return r;
}

nn_tensor *nn_logsumexp(nn_tensor *a, int n_dims, const int *dims, bool keepdim)
{
    if (refuse_half("exp_vml_cpu", a->dtype) < 0) return NULL;
    nn_dtype rt = float_result(a->dtype), cd = rt == NN_FLOAT64 ? NN_FLOAT64 : NN_FLOAT32;
    nn_tensor *ac = compute_copy(a, cd), *out = NULL;
    if (!ac) return NULL;
    nn_reduction_layout l;
    if (nn_reduction_layout_make(ac, n_dims, dims, keepdim, &l) < 0) {
        NN_RELEASE(ac);
        return NULL;
    }
    if (nn_numel(ac) > 0) {
        NN_WITH_GRAD_MODE(false, out = logsumexp_steps(ac, n_dims, dims, keepdim));
    } else { /* nothing to take the max of: log(sum(exp(a))) = -inf, the kernel's */
        out = nn_empty_on(nn_device_of(l.data), l.out_ndim, l.out_shape, cd);
        nn_kernel_args ka = {.t = {out, l.data}, .i = {l.outer, l.inner}};
        if (out && NN_KERNEL(nn_backend_of(l.data), math, (NN_MATH_logsumexp, &ka)) < 0) NN_SET(out, NULL);
    }
    NN_RELEASE(ac);
    NN_RELEASE(l.data);
    if (out && rt != cd) {
        nn_tensor *c = nn_to_dtype(out, rt);
        NN_SET(out, c);
    }
    nn_op_params p = {0};
    nn_reduction_params(&l, keepdim, a->ndim, &p);
    nn_tensor *save[2] = {a, out};
    if (out && nn_record(NN_OP_logsumexp, 1, &a, 1, &out, 2, save, &p) < 0) NN_SET(out, NULL);
    return out;
}

/* grad * exp(self - result), both brought back to self's shape */
int nn_logsumexp_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    arena s = {0};
    nn_tensor *g = E(nn_reduction_grad_expand(n, G)), *r = E(nn_reduction_grad_expand(n, B));
    return finish(&s, n, 0, E(nn_mul(g, E(nn_exp(E(nn_sub(A, r)))))), &gin[0]);
}

/* --------------------------------------------------------- in place */

static const struct {
    nn_tensor *(*fn)(nn_tensor *);
    nn_op_id op;
    bool save_out;
} inplace_ops[] = {
    {nn_sin, NN_OP_sin, false},       {nn_cos, NN_OP_cos, false},     {nn_tan, NN_OP_tan, true},
    {nn_asin, NN_OP_asin, false},     {nn_acos, NN_OP_acos, false},   {nn_atan, NN_OP_atan, false},
    {nn_sinh, NN_OP_sinh, false},     {nn_cosh, NN_OP_cosh, false},   {nn_asinh, NN_OP_asinh, false},
    {nn_acosh, NN_OP_acosh, false},   {nn_atanh, NN_OP_atanh, false}, {nn_log2, NN_OP_log2, false},
    {nn_log10, NN_OP_log10, false},   {nn_log1p, NN_OP_log1p, false}, {nn_expm1, NN_OP_expm1, true},
    {nn_exp2, NN_OP_exp2, true},      {nn_erf, NN_OP_erf, false},     {nn_erfc, NN_OP_erfc, false},
    {nn_erfinv, NN_OP_erfinv, false}, {nn_rsqrt, NN_OP_rsqrt, true},  {nn_reciprocal, NN_OP_reciprocal, true},
    {nn_trunc, NN_OP_trunc, false},   {nn_frac, NN_OP_frac, false},
};

int nn_math_inplace(nn_tensor *a, nn_tensor *(*fn)(nn_tensor *))
{
    size_t k = 0, n = sizeof inplace_ops / sizeof inplace_ops[0];
    while (k < n && inplace_ops[k].fn != fn) k++;
    if (k == n) return nn_error_set(NN_ERR_RUNTIME, "no in-place form of this op");
    if (nn_check_inplace(a) < 0) return -1;
    bool track = nn_needs_grad(1, &a);
    if (track && nn_check_inplace_record(a, 1, &a) < 0) return -1;
    nn_tensor *original = NULL, *r = NULL;
    if (track && !inplace_ops[k].save_out) {
        NN_WITH_GRAD_MODE(false, original = nn_clone(a));
        if (!original) return -1;
    }
    NN_WITH_GRAD_MODE(false, r = fn(a));
    int rc = r ? 0 : -1;
    if (rc == 0 && r->dtype != a->dtype)
        rc = nn_error_set(NN_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
                          nn_dtype_scalar_name(r->dtype), nn_dtype_scalar_name(a->dtype));
    if (rc == 0) NN_WITH_GRAD_MODE(false, rc = nn_copy_(a, r));
    if (rc == 0 && track) {
        nn_tensor *save = original ? original : a;
        rc = nn_record_inplace(inplace_ops[k].op, a, 1, &a, 1, &save, NULL);
    }
    NN_RELEASE(original);
    NN_RELEASE(r);
    return rc;
}
