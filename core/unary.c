/*
 * unary.c — elementwise unary ops and activations: neg, exp, log, sqrt, abs,
 * floor, ceil, round, sign, tanh, sigmoid, relu, gelu (erf and tanh forms), leaky_relu, elu, silu,
 * softplus, threshold, prelu and clamp, each forward with its backward beside it.
 *
 * Numerics follow what PyTorch 1.13 computes on an x86-64 CPU with AVX2:
 *  - float32 is computed in float32, in PyTorch's order of operations and
 *    with the fused multiply-adds its kernels are compiled with (this file
 *    relies on -std=c11, which turns off implicit contraction: every fma is
 *    written out);
 *  - float32 exp, log and tanh (ATen's vml kernels: SLEEF on every element)
 *    and sigmoid, silu and elu (cpu_kernel_vec around SLEEF's exp, with
 *    glibc's expf in its scalar tail) run cpu/vmath.c's kernels, PyTorch's
 *    bits (unary_sleef below); elsewhere (softplus, the gelu tanh form, a CPU
 *    without AVX2) where PyTorch calls SLEEF we round the double-precision
 *    result, which agrees with it to the bit on 90-99% of inputs and is
 *    otherwise one ulp away; where PyTorch runs its scalar loop
 *    (non-contiguous inputs, and the last n % 16 elements of a contiguous
 *    one) we call the same libm float functions it does;
 *  - gelu (erf form) of a contiguous float32 tensor of more than one element
 *    goes through oneDNN in PyTorch: we evaluate oneDNN's formula (an
 *    Abramowitz-Stegun erf with oneDNN's own exp), forward and backward;
 *  - bfloat16 computes in float32 and rounds once, except gelu and silu,
 *    which PyTorch rounds to bfloat16 after every step; float16 is refused
 *    where PyTorch 1.13 refuses it on the CPU; integer inputs of exp, log,
 *    sqrt, tanh and sigmoid compute in float32.
 * The float kernels are compiled twice, for AVX2+FMA and for baseline x86-64,
 * and picked at run time; large tensors are split over the pool's threads (parallel.c).
 *
 * Backwards are built from differentiable nn_* ops, which reproduce PyTorch's
 * fused backward kernels where the order of operations allows (all but tanh,
 * gelu and silu, whose kernels fuse a multiply-add or use oneDNN). Those three
 * run a direct kernel when grad mode is off during the backward (the usual
 * case) and the composition with create_graph, so higher-order gradients
 * work; the erf inside gelu's derivative is then a gelu node in "cdf" mode
 * (p.flags), whose own derivative is the normal pdf. On bfloat16 the
 * compositions run in float32 and round once, as PyTorch's kernels do.
 */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "nn_parallel.h"
#include "cpu/nn_vmath.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define HAVE_AVX2_CLONE 1
#include <immintrin.h>
#endif

/* The kernel loops are compiled for vectorization whatever -O the build uses
   (-O2's cost model leaves them scalar); no-trapping-math lets the compiler
   evaluate both sides of a select. The attribute goes on every function the
   loops inline, or GCC keeps the callers' options for the inlined code. */
#if defined(__GNUC__) && !defined(__clang__)
#define HOT __attribute__((optimize("O3", "no-trapping-math")))
#else
#define HOT
#endif
#define INLINE static inline __attribute__((always_inline)) HOT

/* p.flags of a gelu node */
#define GELU_TANH 1 /* the tanh approximation */
#define GELU_CDF 2  /* an internal node computing 0.5 * (1 + erf(x / sqrt 2)) */

/* p.flags of a clamp node */
#define CLAMP_MIN 1
#define CLAMP_MAX 2


/* ------------------------------------------------------------------ kernels */

/* Every kernel computes out = f(a) or out = f(a, b), one formula each. Where
   PyTorch's vectorized loop and its scalar loop round differently, the two
   are separate kernels ("_VEC" the vectorized one). */
typedef enum kern {
    K_NONE = -1,
    /* f(a) */
    K_NEG, K_ABS, K_SIGN, K_EXP, K_LOG, K_SQRT, K_TANH, K_SIGMOID, K_RELU,
    K_GELU_DNNL, K_GELU, K_GELU_BF16, K_GELU_CDF,
    K_GELU_TANH_VEC, K_GELU_TANH, K_GELU_TANH_BF16,
    K_LEAKY_RELU, K_ELU, K_SILU, K_SILU_BF16, K_SOFTPLUS, K_THRESHOLD,
    K_CLAMP_MIN, K_CLAMP_MAX, K_CLAMP, K_FLOOR, K_CEIL, K_ROUND,
    /* f(a, b) */
    K_PRELU,              /* a: input, b: weight */
    K_TANH_GRAD,          /* a: grad, b: output */
    K_GELU_GRAD_DNNL, K_GELU_GRAD, K_GELU_TANH_GRAD_VEC, K_GELU_TANH_GRAD,
    K_SILU_GRAD_VEC, K_SILU_GRAD, /* a: grad, b: input */
    K_GELU_GRAD_BF16, K_GELU_TANH_GRAD_BF16, K_SILU_GRAD_BF16,
} kern;

static bool kern_binary(kern k) { return k >= K_PRELU; }

/* Parameters of a kernel run, in the kernel's precision. */
typedef struct kctx {
    kern k;          /* the kernel */
    kern vec;        /* the vectorized variant for a contiguous run, or K_NONE */
    bool vec_all;    /* vec covers every element (oneDNN), not only multiples of 16 */
    double d[2];     /* parameters as double ... */
    float f[2];      /* ... as float ... */
    int64_t i[2];    /* ... and as int64 */
} kctx;

/* float constants as PyTorch's kernels round them */
#define SQRT1_2F 0x1.6a09e6p-1f    /* (float)M_SQRT1_2 */
#define PDF_F 0x1.988454p-2f       /* (float)(M_2_SQRTPI * M_SQRT1_2 * 0.5) */
#define BETA_F 0x1.988454p-1f      /* (float)(M_SQRT2 * M_2_SQRTPI * 0.5) */
#define KAPPA_F 0x1.6e4e26p-5f     /* 0.044715f */
#define BF16_SQRT1_2F 0.70703125f  /* the same constants as bfloat16 */
#define BF16_BETA_F 0.796875f
#define BF16_KAPPA_F 0.044677734375f
#define BF16_PDF_F 0.3984375f
#define PDF_D (M_2_SQRTPI * M_SQRT1_2 * 0.5)
#define BETA_D (M_SQRT2 * M_2_SQRTPI * 0.5)
#define KAPPA_D 0.044715

INLINE float bits_to_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

INLINE uint32_t float_to_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* y with its sign flipped where x is negative (an xor of sign bits). */
INLINE float xor_sign(float y, float x) { return bits_to_float(float_to_bits(y) ^ (float_to_bits(x) & 0x80000000u)); }

/* v rounded to bfloat16 (nearest even; NaN to the canonical NaN), as a float. */
INLINE float round_bf16(float v)
{
    uint32_t u = float_to_bits(v);
    u = v != v ? 0x7fc00000u : (u + 0x7fffu + ((u >> 16) & 1u)) & 0xffff0000u;
    return bits_to_float(u);
}

INLINE double bits_to_double(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

INLINE uint64_t double_to_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* exp, expm1, log and log1p in double precision, written so that the
   compiler vectorizes them: rounded to float they give the correctly rounded
   results (checked against libm on millions of float inputs), which is what
   SLEEF's float functions in PyTorch's vectorized loops give almost always.

   e^y = 2^k (1 + m) with m = expm1(r), r = y - k ln 2, |r| <= ln 2 / 2
   (Taylor to degree 13); scale = 2^k. |y| <= 200. */
INLINE double exp_parts(double y, double *scale)
{
    const double shift = 0x1.8p52; /* adding it rounds to an integer, kept in the low bits */
    double kd = y * 0x1.71547652b82fep0 + shift;
    int64_t k = (int64_t)(double_to_bits(kd) & 0xfffffffffffffull) - (int64_t)0x8000000000000ull;
    kd -= shift;
    double r = fma(-kd, 0x1.62e42fefa39efp-1, y);
    r = fma(-kd, 0x1.abc9e3b39803fp-56, r);
    double p = 1.0 / 6227020800.0;
    p = fma(p, r, 1.0 / 479001600.0);
    p = fma(p, r, 1.0 / 39916800.0);
    p = fma(p, r, 1.0 / 3628800.0);
    p = fma(p, r, 1.0 / 362880.0);
    p = fma(p, r, 1.0 / 40320.0);
    p = fma(p, r, 1.0 / 5040.0);
    p = fma(p, r, 1.0 / 720.0);
    p = fma(p, r, 1.0 / 120.0);
    p = fma(p, r, 1.0 / 24.0);
    p = fma(p, r, 1.0 / 6.0);
    p = fma(p, r, 0.5);
    *scale = bits_to_double((uint64_t)(k + 1023) << 52);
    return fma(p * r, r, r);
}

/* beyond +-200 a float's exp has long overflowed or underflowed; NaN passes */
INLINE double clamp_exp_arg(double y)
{
    y = y > 200.0 ? 200.0 : y;
    return y < -200.0 ? -200.0 : y;
}

INLINE double exp_d(double y)
{
    double scale, m = exp_parts(clamp_exp_arg(y), &scale);
    return fma(scale, m, scale);
}

INLINE double expm1_d(double y)
{
    double scale, m = exp_parts(clamp_exp_arg(y), &scale);
    return fma(scale, m, scale - 1.0);
}

/* log x = e ln 2 + 2 atanh(s), x = 2^e m, m in [sqrt(1/2), sqrt 2),
   s = (m - 1) / (m + 1); for the doubles floats convert to */
INLINE double log_d(double x)
{
    uint64_t u = double_to_bits(x);
    int32_t e = (int32_t)(u >> 52) - 1023;
    double m = bits_to_double((u & 0xfffffffffffffull) | 0x3ff0000000000000ull);
    bool big = m > 0x1.6a09e667f3bcdp0;
    m = big ? m * 0.5 : m;
    double ed = (double)(big ? e + 1 : e);
    double s = (m - 1.0) / (m + 1.0), s2 = s * s;
    double p = 2.0 / 23;
    p = fma(p, s2, 2.0 / 21);
    p = fma(p, s2, 2.0 / 19);
    p = fma(p, s2, 2.0 / 17);
    p = fma(p, s2, 2.0 / 15);
    p = fma(p, s2, 2.0 / 13);
    p = fma(p, s2, 2.0 / 11);
    p = fma(p, s2, 2.0 / 9);
    p = fma(p, s2, 2.0 / 7);
    p = fma(p, s2, 2.0 / 5);
    p = fma(p, s2, 2.0 / 3);
    double r = fma(ed, 0x1.62e42fefa39efp-1, fma(ed, 0x1.abc9e3b39803fp-56, fma(s * s2, p, 2.0 * s)));
    r = x == 0.0 ? -INFINITY : r;
    r = x == INFINITY ? INFINITY : r;
    return x < 0.0 || x != x ? NAN : r;
}

/* log(1 + z) = log(u) z / (u - 1), u = 1 + z rounded (the factor undoes
   the rounding) */
INLINE double log1p_d(double z)
{
    double u = 1.0 + z, r = log_d(u) * (z / (u - 1.0));
    r = u == 1.0 ? z : r;
    return z == INFINITY ? z : r;
}

INLINE float exp_vec(float x) { return (float)exp_d(x); }
INLINE float log_vec(float x) { return (float)log_d(x); }

/* tanh |x| = -t / (t + 2), t = expm1(-2|x|); SLEEF's tanhf saturates to 1
   beyond 8.66 */
INLINE float tanh_vec(float x)
{
    float ax = fabsf(x);
    double t = expm1_d(-2.0 * (double)ax);
    float r = (float)(-t / (t + 2.0));
    r = ax > 0x1.154246p+3f ? 1.0f : r;
    return copysignf(r, x);
}

/* oneDNN's exp inside its gelu kernels: 2^n times a degree-5 polynomial,
   zero below log(FLT_MIN). */
INLINE float dnnl_exp(float x)
{
    const float lo = -0x1.5d58a0p+6f, hi = 0x1.62e430p+6f;
    bool under = x < lo;
    x = x < hi ? x : hi; /* NaN becomes hi, as vminps does */
    x = x > lo ? x : lo;
    float fx = floorf(x * 0x1.715476p+0f + 0.5f);
    float r = fmaf(-fx, 0x1.62e430p-1f, x);
    float scale = bits_to_float((uint32_t)((int32_t)fx + 127) << 23);
    float p = fmaf(0x1.0f9f9cp-7f, r, 0x1.573a1ap-5f);
    p = fmaf(p, r, 0x1.555a80p-3f);
    p = fmaf(p, r, 0x1.fffdc6p-2f);
    p = fmaf(p, r, 0x1.fffff6p-1f);
    p = fmaf(p, r, 1.0f);
    return under ? 0.0f : p * scale;
}

/* oneDNN's erf(x) without its sign: 1 - poly(t) * t * e, t = 1 / (1 + p|x|),
   e = exp(-x^2) given; Abramowitz and Stegun 7.1.26. */
INLINE float dnnl_erf_abs(float x, float e)
{
    float t = 1.0f / fmaf(0x1.4f740ap-2f, fabsf(x), 1.0f);
    float r = fmaf(0x1.0fb844p+0f, t, -0x1.7401c6p+0f);
    r = fmaf(r, t, 0x1.6be1c6p+0f);
    r = fmaf(r, t, -0x1.23531cp-2f);
    r = fmaf(r, t, 0x1.04f20cp-2f);
    return fmaf(-e * t, r, 1.0f);
}

/* gelu(s) as oneDNN's forward kernel computes it */
INLINE float gelu_dnnl(float s)
{
    float x = s * SQRT1_2F;
    float erf = xor_sign(dnnl_erf_abs(x, dnnl_exp(-(x * x))), x);
    float half = s * 0.5f;
    return fmaf(erf, half, half);
}

/* gelu'(s) as oneDNN's backward kernel computes it */
INLINE float gelu_grad_dnnl(float s)
{
    float x = s * SQRT1_2F;
    float e = dnnl_exp(-(x * x));
    float t = x * 0x1.20dd74p-1f * e; /* x / sqrt(pi) * e */
    float erf = xor_sign(dnnl_erf_abs(x, e), x);
    return fmaf(erf, 0.5f, t + 0.5f);
}

/* PyTorch's scalar gelu; with bf every step rounds to bfloat16 */
INLINE float gelu_erf(float x, bool bf)
{
    if (!bf) return x * 0.5f * (1.0f + erff(x * SQRT1_2F));
    float e = round_bf16(erff(round_bf16(x * BF16_SQRT1_2F)));
    return round_bf16(round_bf16(x * 0.5f) * round_bf16(1.0f + e));
}

INLINE float gelu_grad_erf(float g, float x)
{
    float cdf = 0.5f * (1.0f + erff(x * SQRT1_2F));
    float pdf = PDF_F * expf(x * x * -0.5f);
    return g * (cdf + x * pdf);
}

/* 0.5 * x * (1 + tanh(beta * (x + kappa x^3))); vec: SLEEF's tanh */
INLINE float gelu_tanh(float x, bool vec)
{
    float inner = BETA_F * fmaf(KAPPA_F, x * x * x, x);
    return 0.5f * x * (1.0f + (vec ? tanh_vec(inner) : tanhf(inner)));
}

INLINE float gelu_tanh_bf16(float x)
{
    float cube = round_bf16(round_bf16(x * x) * x);
    float inner = round_bf16(BF16_BETA_F * round_bf16(x + round_bf16(BF16_KAPPA_F * cube)));
    float t = round_bf16(tanhf(inner));
    return round_bf16(round_bf16(0.5f * x) * round_bf16(1.0f + t));
}

INLINE float gelu_tanh_grad(float g, float x, bool vec)
{
    float x_sq = x * x;
    float inner = BETA_F * fmaf(KAPPA_F, x_sq * x, x);
    float t = vec ? tanh_vec(inner) : tanhf(inner);
    float left = 0.5f * x, right = 1.0f + t;
    float left_d = 0.5f * right;
    float tanh_d = fmaf(-t, t, 1.0f);
    float inner_d = BETA_F * fmaf(3.0f * KAPPA_F, x_sq, 1.0f);
    return g * (left_d + left * tanh_d * inner_d);
}

/* The backward formulas on bfloat16, rounding every step as PyTorch's
   Vectorized<BFloat16> does (constants rounded too). */
INLINE float gelu_grad_bf16(float g, float x)
{
    float cdf = round_bf16(0.5f * round_bf16(1.0f + round_bf16(erff(round_bf16(x * BF16_SQRT1_2F)))));
    float e = round_bf16(expf(round_bf16(round_bf16(x * x) * -0.5f)));
    float pdf = round_bf16(BF16_PDF_F * e);
    return round_bf16(g * round_bf16(cdf + round_bf16(x * pdf)));
}

INLINE float gelu_tanh_grad_bf16(float g, float x)
{
    float x_sq = round_bf16(x * x), cube = round_bf16(x_sq * x);
    float inner = round_bf16(BF16_BETA_F * round_bf16(x + round_bf16(BF16_KAPPA_F * cube)));
    float t = round_bf16(tanhf(inner));
    float left = round_bf16(0.5f * x), right = round_bf16(1.0f + t);
    float left_d = round_bf16(0.5f * right);
    float tanh_d = round_bf16(1.0f - round_bf16(t * t));
    float inner_d = round_bf16(BF16_BETA_F * round_bf16(1.0f + round_bf16(round_bf16(3.0f * BF16_KAPPA_F) * x_sq)));
    float right_d = round_bf16(round_bf16(left * tanh_d) * inner_d);
    return round_bf16(g * round_bf16(left_d + right_d));
}

INLINE float silu_grad_bf16(float g, float x)
{
    float s = round_bf16(1.0f / round_bf16(1.0f + round_bf16(expf(-x))));
    return round_bf16(round_bf16(g * s) * round_bf16(1.0f + round_bf16(x * round_bf16(1.0f - s))));
}

INLINE float silu_grad(float g, float x, bool vec)
{
    float s = 1.0f / (1.0f + (vec ? exp_vec(-x) : expf(-x)));
    return g * s * fmaf(x, 1.0f - s, 1.0f);
}

/* the same formulas in double (PyTorch's double kernels use SLEEF's double
   functions, which agree with libm's) */
INLINE double gelu_tanh_d(double x)
{
    double inner = BETA_D * fma(KAPPA_D, x * x * x, x);
    return 0.5 * x * (1.0 + tanh(inner));
}

INLINE double gelu_tanh_grad_d(double g, double x)
{
    double x_sq = x * x;
    double t = tanh(BETA_D * fma(KAPPA_D, x_sq * x, x));
    double left = 0.5 * x, right = 1.0 + t;
    double tanh_d = fma(-t, t, 1.0);
    double inner_d = BETA_D * fma(3.0 * KAPPA_D, x_sq, 1.0);
    return g * (0.5 * right + left * tanh_d * inner_d);
}

INLINE double silu_grad_d(double g, double x)
{
    double s = 1.0 / (1.0 + exp(-x));
    return g * s * fma(x, 1.0 - s, 1.0);
}

/* clamp: lo, then hi (so hi wins when lo > hi); NaN stays NaN, a NaN bound is ignored */
INLINE float clamp_f(float a, float lo, float hi)
{
    a = a < lo ? lo : a;
    return a > hi ? hi : a;
}

INLINE double clamp_d(double a, double lo, double hi)
{
    a = a < lo ? lo : a;
    return a > hi ? hi : a;
}

INLINE int64_t clamp_i(int64_t a, int64_t lo, int64_t hi)
{
    a = a < lo ? lo : a;
    return a > hi ? hi : a;
}

INLINE double gelu_grad_erf_d(double g, double x)
{
    double cdf = 0.5 * (1.0 + erf(x * M_SQRT1_2));
    double pdf = PDF_D * exp(x * x * -0.5);
    return g * (cdf + x * pdf);
}

/* Formulas, one line each: a and b are the inputs, c the kctx. */
#define F32_UNARY(X)                                                                       \
    X(K_NEG, -a)                                                                           \
    X(K_ABS, fabsf(a))                                                                     \
    X(K_SIGN, a > 0.0f ? 1.0f : a < 0.0f ? -1.0f : 0.0f)                                   \
    X(K_EXP, exp_vec(a))                                                                   \
    X(K_LOG, log_vec(a))                                                                   \
    X(K_SQRT, sqrtf(a))                                                                    \
    X(K_TANH, tanh_vec(a))                                                                 \
    X(K_SIGMOID, 1.0f / (1.0f + exp_vec(-a)))                                              \
    X(K_RELU, a < 0.0f ? 0.0f : a)                                                         \
    X(K_GELU_DNNL, gelu_dnnl(a))                                                           \
    X(K_GELU, gelu_erf(a, false))                                                          \
    X(K_GELU_BF16, gelu_erf(a, true))                                                      \
    X(K_GELU_CDF, 0.5f * (1.0f + erff(a * SQRT1_2F)))                                      \
    X(K_GELU_TANH_VEC, gelu_tanh(a, true))                                                 \
    X(K_GELU_TANH, gelu_tanh(a, false))                                                    \
    X(K_GELU_TANH_BF16, gelu_tanh_bf16(a))                                                 \
    X(K_LEAKY_RELU, a > 0.0f ? a : a * c->f[0])                                            \
    X(K_ELU, a > 0.0f ? a : (exp_vec(a) - 1.0f) * c->f[0])                                 \
    X(K_SILU, a / (1.0f + exp_vec(-a)))                                                    \
    X(K_SILU_BF16, round_bf16(a / round_bf16(1.0f + round_bf16(exp_vec(-a)))))             \
    X(K_SOFTPLUS, a * c->f[0] > c->f[1] ? a : (float)log1p_d(exp_vec(a * c->f[0])) / c->f[0]) \
    X(K_THRESHOLD, a <= c->f[0] ? c->f[1] : a)                                             \
    X(K_CLAMP_MIN, a < c->f[0] ? c->f[0] : a)                                              \
    X(K_CLAMP_MAX, a > c->f[1] ? c->f[1] : a)                                              \
    X(K_CLAMP, clamp_f(a, c->f[0], c->f[1]))                                               \
    X(K_FLOOR, floorf(a))                                                                  \
    X(K_CEIL, ceilf(a))                                                                    \
    X(K_ROUND, nearbyintf(a)) /* halves to even, as PyTorch's round */

#define F32_BINARY(X)                                                                      \
    X(K_PRELU, a > 0.0f ? a : b * a)                                                       \
    X(K_TANH_GRAD, a * fmaf(-b, b, 1.0f))                                                   \
    X(K_GELU_GRAD_DNNL, a * gelu_grad_dnnl(b))                                             \
    X(K_GELU_GRAD, gelu_grad_erf(a, b))                                                    \
    X(K_GELU_TANH_GRAD_VEC, gelu_tanh_grad(a, b, true))                                    \
    X(K_GELU_TANH_GRAD, gelu_tanh_grad(a, b, false))                                       \
    X(K_SILU_GRAD_VEC, silu_grad(a, b, true))                                              \
    X(K_SILU_GRAD, silu_grad(a, b, false))                                                 \
    X(K_GELU_GRAD_BF16, gelu_grad_bf16(a, b))                                              \
    X(K_GELU_TANH_GRAD_BF16, gelu_tanh_grad_bf16(a, b))                                    \
    X(K_SILU_GRAD_BF16, silu_grad_bf16(a, b))

#define F64_UNARY(X)                                                                       \
    X(K_NEG, -a)                                                                           \
    X(K_ABS, fabs(a))                                                                      \
    X(K_SIGN, a > 0.0 ? 1.0 : a < 0.0 ? -1.0 : 0.0)                                        \
    X(K_EXP, exp(a))                                                                       \
    X(K_LOG, log(a))                                                                       \
    X(K_SQRT, sqrt(a))                                                                     \
    X(K_TANH, tanh(a))                                                                     \
    X(K_SIGMOID, 1.0 / (1.0 + exp(-a)))                                                    \
    X(K_RELU, a < 0.0 ? 0.0 : a)                                                           \
    X(K_GELU, a * 0.5 * (1.0 + erf(a * M_SQRT1_2)))                                        \
    X(K_GELU_CDF, 0.5 * (1.0 + erf(a * M_SQRT1_2)))                                        \
    X(K_GELU_TANH, gelu_tanh_d(a))                                                         \
    X(K_LEAKY_RELU, a > 0.0 ? a : a * c->d[0])                                             \
    X(K_ELU, a > 0.0 ? a : (exp(a) - 1.0) * c->d[0])                                       \
    X(K_SILU, a / (1.0 + exp(-a)))                                                         \
    X(K_SOFTPLUS, a * c->d[0] > c->d[1] ? a : log1p(exp(a * c->d[0])) / c->d[0])           \
    X(K_THRESHOLD, a <= c->d[0] ? c->d[1] : a)                                             \
    X(K_CLAMP_MIN, a < c->d[0] ? c->d[0] : a)                                              \
    X(K_CLAMP_MAX, a > c->d[1] ? c->d[1] : a)                                              \
    X(K_CLAMP, clamp_d(a, c->d[0], c->d[1]))                                               \
    X(K_FLOOR, floor(a))                                                                   \
    X(K_CEIL, ceil(a))                                                                     \
    X(K_ROUND, nearbyint(a))

#define F64_BINARY(X)                                                                      \
    X(K_PRELU, a > 0.0 ? a : b * a)                                                        \
    X(K_TANH_GRAD, a * fma(-b, b, 1.0))                                                    \
    X(K_GELU_GRAD, gelu_grad_erf_d(a, b))                                                  \
    X(K_GELU_TANH_GRAD, gelu_tanh_grad_d(a, b))                                            \
    X(K_SILU_GRAD, silu_grad_d(a, b))

/* int64 (int32 and bool compute in int64; negation wraps as in PyTorch) */
#define I64_UNARY(X)                                                                       \
    X(K_NEG, (int64_t)(0u - (uint64_t)a))                                                  \
    X(K_ABS, a < 0 ? (int64_t)(0u - (uint64_t)a) : a)                                      \
    X(K_SIGN, (int64_t)(a > 0) - (int64_t)(a < 0))                                         \
    X(K_RELU, a < 0 ? 0 : a)                                                               \
    X(K_THRESHOLD, a <= c->i[0] ? c->i[1] : a)                                             \
    X(K_CLAMP_MIN, a < c->i[0] ? c->i[0] : a)                                              \
    X(K_CLAMP_MAX, a > c->i[1] ? c->i[1] : a)                                              \
    X(K_CLAMP, clamp_i(a, c->i[0], c->i[1]))

/* One case per kernel: a contiguous loop the compiler vectorizes, a loop for
   a broadcast first operand (a gradient of a sum), and a strided loop. */
#define UNARY_CASE(K, EXPR)                                                                \
    case K:                                                                                \
        if (s[0] == es && s[1] == es) {                                                    \
            for (int64_t i = 0; i < n; i++) { T a = A[i]; O[i] = (EXPR); }                 \
        } else {                                                                           \
            for (int64_t i = 0; i < n; i++) {                                              \
                T a = *(const T *)(d[1] + i * s[1]);                                       \
                *(T *)(d[0] + i * s[0]) = (EXPR);                                          \
            }                                                                              \
        }                                                                                  \
        break;

#define BINARY_CASE(K, EXPR)                                                               \
    case K:                                                                                \
        if (s[0] == es && s[1] == es && s[2] == es) {                                      \
            for (int64_t i = 0; i < n; i++) { T a = A[i], b = B[i]; O[i] = (EXPR); }       \
        } else if (s[0] == es && s[1] == 0 && s[2] == es) {                                \
            T a = A[0];                                                                    \
            for (int64_t i = 0; i < n; i++) { T b = B[i]; O[i] = (EXPR); }                 \
        } else {                                                                           \
            for (int64_t i = 0; i < n; i++) {                                              \
                T a = *(const T *)(d[1] + i * s[1]), b = *(const T *)(d[2] + i * s[2]);    \
                *(T *)(d[0] + i * s[0]) = (EXPR);                                          \
            }                                                                              \
        }                                                                                  \
        break;

#define KERNEL_BODY(TYPE, UNARY, BINARY)                                                   \
    typedef TYPE T;                                                                        \
    const kctx local = *c_; /* no store can alias the parameters */                       \
    const kctx *const c = &local;                                                          \
    const int64_t es = (int64_t)sizeof(T);                                                 \
    T *O = (T *)d[0];                                                                      \
    const T *A = (const T *)d[1], *B = (const T *)d[2];                                    \
    (void)B;                                                                               \
    switch (c->k) {                                                                        \
        UNARY(UNARY_CASE)                                                                  \
        BINARY(BINARY_CASE)                                                                \
    default: break;                                                                        \
    }

#define NO_BINARY(X)

/* The float bodies are inlined into two copies: baseline x86-64 and AVX2+FMA. */
INLINE void f32_body(char **d, const int64_t *s, int64_t n, const kctx *c_) { KERNEL_BODY(float, F32_UNARY, F32_BINARY) }
INLINE void f64_body(char **d, const int64_t *s, int64_t n, const kctx *c_) { KERNEL_BODY(double, F64_UNARY, F64_BINARY) }
HOT static void i64_run(char **d, const int64_t *s, int64_t n, const kctx *c_) { KERNEL_BODY(int64_t, I64_UNARY, NO_BINARY) }

HOT static void f32_generic(char **d, const int64_t *s, int64_t n, const kctx *c) { f32_body(d, s, n, c); }
HOT static void f64_generic(char **d, const int64_t *s, int64_t n, const kctx *c) { f64_body(d, s, n, c); }

#ifdef HAVE_AVX2_CLONE
/* sqrt with the vector instruction: libm's sqrtf may set errno, which keeps
   the compiler from vectorizing it (and per-function no-math-errno does not
   reach builtins) */
HOT __attribute__((target("avx2,fma"))) static void sqrt_avx2(float *o, const float *a, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(o + i, _mm256_sqrt_ps(_mm256_loadu_ps(a + i)));
    for (; i < n; i++) _mm_store_ss(o + i, _mm_sqrt_ss(_mm_load_ss(a + i)));
}

HOT __attribute__((target("avx2,fma"))) static void f32_avx2(char **d, const int64_t *s, int64_t n, const kctx *c)
{
    if (c->k == K_SQRT && s[0] == 4 && s[1] == 4) {
        sqrt_avx2((float *)d[0], (const float *)d[1], n);
        return;
    }
    f32_body(d, s, n, c);
}
HOT __attribute__((target("avx2,fma"))) static void f64_avx2(char **d, const int64_t *s, int64_t n, const kctx *c)
{
    f64_body(d, s, n, c);
}

static bool have_avx2_fma(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
#endif

typedef void (*run_fn)(char **d, const int64_t *s, int64_t n, const kctx *c);

static void f32_run(char **d, const int64_t *s, int64_t n, const kctx *c)
{
#ifdef HAVE_AVX2_CLONE
    if (have_avx2_fma()) {
        f32_avx2(d, s, n, c);
        return;
    }
#endif
    f32_generic(d, s, n, c);
}

static void f64_run(char **d, const int64_t *s, int64_t n, const kctx *c)
{
#ifdef HAVE_AVX2_CLONE
    if (have_avx2_fma()) {
        f64_avx2(d, s, n, c);
        return;
    }
#endif
    f64_generic(d, s, n, c);
}

/* ---------------------------------------------------------------- threads */

typedef struct chunk {
    run_fn run;
    int nops;
    char *d[3];
    const int64_t *s;
    const kctx *c;
} chunk;

static void run_chunk(void *vctx, int64_t begin, int64_t end)
{
    const chunk *ch = vctx;
    char *d[3];
    for (int k = 0; k < ch->nops; k++) d[k] = ch->d[k] + begin * ch->s[k];
    ch->run(d, ch->s, end - begin, ch->c);
}

/* run over n elements, in NN_GRAIN chunks over the pool's threads when n is
   large (parallel.c): a multiple of 64, so the chunks' ends never change
   which elements the vectorized kernel covers. */
static void split_run(run_fn run, int nops, char **d, const int64_t *s, int64_t n, const kctx *c)
{
    chunk ch = {run, nops, {d[0], d[1], nops > 2 ? d[2] : NULL}, s, c};
    nn_parallel_for(n, NN_GRAIN, run_chunk, &ch);
}

/* The nn_foreach body: the vectorized kernel over the part of a contiguous run
   PyTorch's vectorized loop covers (all but the last n % 16 elements, or all
   of it for oneDNN), the scalar kernel elsewhere. */
static void kernel_loop(char **d, const int64_t *s, int64_t n, void *vctx, run_fn run, int64_t es)
{
    const kctx *c = vctx;
    int nops = kern_binary(c->k) ? 3 : 2;
    bool dense = true;
    for (int k = 0; k < nops; k++) dense = dense && (s[k] == es || (k == 1 && nops == 3 && s[k] == 0));
    kctx v = *c;
    int64_t nv = 0;
    if (c->vec != K_NONE && dense) {
        nv = c->vec_all ? n : n & ~(int64_t)15;
        v.k = c->vec;
        split_run(run, nops, d, s, nv, &v);
    }
    if (nv == n) return;
    char *rest[3];
    for (int k = 0; k < nops; k++) rest[k] = d[k] + nv * s[k];
    v.k = c->k;
    split_run(run, nops, rest, s, n - nv, &v);
}

static void loop_f32(char **d, const int64_t *s, int64_t n, void *c) { kernel_loop(d, s, n, c, f32_run, 4); }
static void loop_f64(char **d, const int64_t *s, int64_t n, void *c) { kernel_loop(d, s, n, c, f64_run, 8); }
static void loop_i64(char **d, const int64_t *s, int64_t n, void *c) { i64_run(d, s, n, c); }

/* ------------------------------------------------------------- running ops */

/* PyTorch's ScalarType names, as "not implemented for 'Long'" prints them. */
static const char *type_title(nn_dtype dt)
{
    static const char *const names[NN_DTYPE_COUNT] = {
        [NN_FLOAT32] = "Float", [NN_FLOAT64] = "Double", [NN_FLOAT16] = "Half", [NN_BFLOAT16] = "BFloat16",
        [NN_INT64] = "Long",    [NN_INT32] = "Int",      [NN_BOOL] = "Bool",
    };
    return names[dt];
}

static nn_tensor *not_implemented(const char *kernel, nn_dtype dt)
{
    nn_error_set(NN_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel, type_title(dt));
    return NULL;
}

/* The kernels that exist for an op, per compute precision. */
typedef struct kset {
    kern f32, f32_vec, bf16, f64, i64;
    bool vec_all;
} kset;

/* A no-grad conversion to dtype (the tensor itself, retained, when it has it). */
static nn_tensor *as_dtype(nn_tensor *t, nn_dtype dt)
{
    bool prev = nn_set_grad_enabled(false);
    nn_tensor *r = nn_to_dtype(t, dt);
    nn_set_grad_enabled(prev);
    return r;
}

static nn_dtype compute_dtype(nn_dtype dt)
{
    switch (dt) {
    case NN_FLOAT64: return NN_FLOAT64;
    case NN_FLOAT32: case NN_FLOAT16: case NN_BFLOAT16: return NN_FLOAT32;
    default: return NN_INT64;
    }
}

/* Contiguous, or one value broadcast everywhere (PyTorch's vectorized loops
   take both). */
static bool dense_or_scalar(const nn_tensor *t)
{
    if (nn_is_contiguous(t)) return true;
    for (int d = 0; d < t->ndim; d++)
        if (t->sizes[d] != 1 && t->strides[d] != 0) return false;
    return true;
}

/* Runs the kernel of ks for out_dt over in[0..nin), which broadcast to in[0]'s
   shape, into a new tensor of dtype out_dt; vec: PyTorch runs its vectorized
   loop (a contiguous input). No autograd; inputs borrowed; new reference. */
static nn_tensor *run_kernel(const kset *ks, kctx c, int nin, nn_tensor *const *in, nn_dtype out_dt, bool vec)
{
    nn_tensor *shape = in[0];
    nn_dtype cd = compute_dtype(out_dt);
    nn_loop_fn loop = cd == NN_FLOAT32 ? loop_f32 : cd == NN_FLOAT64 ? loop_f64 : loop_i64;
    c.k = cd == NN_FLOAT64 ? ks->f64 : cd == NN_INT64 ? ks->i64 : out_dt == NN_BFLOAT16 && ks->bf16 != K_NONE ? ks->bf16 : ks->f32;
    c.vec = vec && cd == NN_FLOAT32 && out_dt == NN_FLOAT32 ? ks->f32_vec : K_NONE;
    c.vec_all = ks->vec_all;
    if (c.k == K_NONE) return not_implemented("unary", out_dt);
    nn_tensor *conv[2] = {NULL, NULL}, *out = NULL, *tmp = NULL;
    for (int k = 0; k < nin; k++) {
        if (!(conv[k] = as_dtype(in[k], cd))) goto done;
        if (c.vec != K_NONE && c.vec_all && !dense_or_scalar(conv[k])) {
            /* oneDNN takes every operand dense */
            nn_tensor *dense = NULL;
            NN_WITH_GRAD_MODE(false, dense = nn_contiguous(conv[k]));
            NN_SET(conv[k], dense);
            if (!dense) goto done;
        }
    }
    nn_device device;
    if (nn_common_device(nin, conv, &device) < 0) goto done;
    out = nn_empty_on(device, shape->ndim, shape->sizes, out_dt);
    nn_tensor *target = out;
    if (out && out_dt != cd) target = tmp = nn_empty_on(device, shape->ndim, shape->sizes, cd);
    if (!target) {
        NN_SET(out, NULL);
        goto done;
    }
    nn_tensor views[2];
    const nn_tensor *ops[3] = {target, NULL, NULL};
    for (int k = 0; k < nin; k++) {
        nn_broadcast_into(conv[k], shape->ndim, shape->sizes, &views[k]);
        ops[k + 1] = &views[k];
    }
    if (NN_KERNEL(nn_backend_of(target), map, (nin + 1, ops, loop, &c, false)) < 0) { /* the loop splits itself */
        NN_SET(out, NULL);
        goto done;
    }
    if (tmp) {
        bool prev = nn_set_grad_enabled(false);
        if (nn_copy_(out, tmp) < 0) NN_SET(out, NULL);
        nn_set_grad_enabled(prev);
    }
done:
    NN_RELEASE(conv[0]);
    NN_RELEASE(conv[1]);
    NN_RELEASE(tmp);
    return out;
}

static nn_tensor *run1(const kset *ks, kctx c, nn_tensor *a, nn_dtype out_dt, bool vec)
{
    return run_kernel(ks, c, 1, &a, out_dt, vec);
}

/* True when t's elements fill one block of its storage, in some order of its
   dims (a transposed or permuted contiguous tensor). */
static bool dense_permuted(const nn_tensor *t)
{
    int64_t expected = 1;
    bool used[NN_MAX_DIMS] = {false};
    for (int k = 0; k < t->ndim; k++) {
        int best = -1; /* the unused dim of size > 1 with the smallest stride */
        for (int d = 0; d < t->ndim; d++)
            if (!used[d] && t->sizes[d] > 1 && (best < 0 || t->strides[d] < t->strides[best])) best = d;
        if (best < 0) break;
        if (t->strides[best] != expected) return false;
        used[best] = true;
        expected *= t->sizes[best];
    }
    return true;
}

/* For a dense but permuted a: PyTorch lays its result out like a and walks
   both in memory order, vectorized (the order decides which elements fall in
   the scalar tail). We compute over the block in memory order, then lay the
   result out row-major. No autograd; new reference. */
static nn_tensor *run1_in_memory_order(const kset *ks, nn_tensor *a)
{
    int64_t n = nn_numel(a), one = 1;
    nn_tensor *flat = nn_tensor_new_view(a, 1, &n, &one, a->offset);
    nn_tensor *r = flat ? run1(ks, (kctx){0}, flat, a->dtype, true) : NULL;
    nn_tensor *laid = r ? nn_tensor_new_view(r, a->ndim, a->sizes, a->strides, 0) : NULL, *out = NULL;
    if (laid) NN_WITH_GRAD_MODE(false, out = nn_contiguous(laid));
    NN_RELEASE(flat);
    NN_RELEASE(r);
    NN_RELEASE(laid);
    return out;
}

/* A scalar parameter converted to the type a kernel computes in, with
   PyTorch's overflow check (Scalar::to<T>). */
static int param(double v, nn_dtype dt, double *d, float *f, int64_t *i)
{
    const char *name = NULL;
    switch (dt) {
    case NN_FLOAT32: case NN_FLOAT16:
        if (isfinite(v) && fabs(v) > 0x1.fffffep+127) name = "float";
        break;
    case NN_BFLOAT16:
        if (isfinite(v) && fabs(v) > 0x1.fep+127) name = "c10::BFloat16";
        break;
    case NN_INT32:
        if (!(v >= -2147483648.0 && v <= 2147483647.0)) name = "int";
        break;
    case NN_INT64: case NN_BOOL:
        if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) name = "int64_t";
        break;
    default: break;
    }
    if (name) return nn_error_set(NN_ERR_RUNTIME, "value cannot be converted to type %s without overflow", name);
    *d = v;
    *f = (float)v;
    /* integers truncate toward zero, as static_cast does */
    *i = dt == NN_INT32 || dt == NN_INT64 || dt == NN_BOOL ? (int64_t)v : 0;
    return 0;
}

static bool is_float(nn_dtype dt) { return dt == NN_FLOAT32 || dt == NN_FLOAT64 || dt == NN_BFLOAT16; }

/* The float result type of exp, log, ...: integers and bool become float32. */
static nn_dtype float_result(nn_dtype dt) { return nn_dtype_is_floating(dt) ? dt : NN_FLOAT32; }

/* t as float32 when it is bfloat16, else t itself; new reference. PyTorch's
   bfloat16 backward kernels compute in float32 and round once, which the
   gradient's cast back to the input's dtype (by the engine) does here. */
static nn_tensor *widen(nn_tensor *t)
{
    if (t->dtype == NN_BFLOAT16) return nn_to_dtype(t, NN_FLOAT32);
    NN_RETAIN(t);
    return t;
}

/* Stores r (taken) into *slot: 0, or -1 when r is NULL. */
static int give(nn_tensor *r, nn_tensor **slot)
{
    *slot = r;
    return r ? 0 : -1;
}

/* g where cond is keep, else 0 (cond, g borrowed); new reference. */
static nn_tensor *masked(nn_tensor *cond, bool keep, nn_tensor *g)
{
    nn_tensor *zero = cond ? nn_scalar(0.0, g->dtype) : NULL;
    nn_tensor *r = zero ? (keep ? nn_where(cond, g, zero) : nn_where(cond, zero, g)) : NULL;
    NN_RELEASE(zero);
    return r;
}

/* a <op> v for a tensor and a number, as a bool tensor (no autograd). */
static nn_tensor *compare_scalar(nn_tensor *a, double v, nn_cmp op)
{
    nn_tensor *w = nn_wrapped_number(v, false);
    nn_tensor *r = w ? nn_compare(a, w, op) : NULL;
    NN_RELEASE(w);
    return r;
}

/* --------------------------------------------------------------- neg, abs */

nn_tensor *nn_neg(nn_tensor *a)
{
    if (a->dtype == NN_BOOL) {
        nn_error_set(NN_ERR_RUNTIME, "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
                                     "to invert a mask, use the `~` or `logical_not()` operator instead.");
        return NULL;
    }
    static const kset ks = {K_NEG, K_NONE, K_NONE, K_NEG, K_NEG, false};
    nn_tensor *out = run1(&ks, (kctx){0}, a, a->dtype, false);
    if (out && nn_record(NN_OP_neg, 1, &a, 1, &out, 0, NULL, NULL) < 0) NN_SET(out, NULL);
    return out;
}

int nn_neg_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    (void)n;
    return give(nn_neg(gout[0]), &gin[0]);
}

nn_tensor *nn_abs(nn_tensor *a)
{
    if (a->dtype == NN_BOOL) return not_implemented("abs_cpu", a->dtype);
    static const kset ks = {K_ABS, K_NONE, K_NONE, K_ABS, K_ABS, false};
    nn_tensor *out = run1(&ks, (kctx){0}, a, a->dtype, false);
    if (out && nn_record(NN_OP_abs, 1, &a, 1, &out, 1, &a, NULL) < 0) NN_SET(out, NULL);
    return out;
}

/* grad * sgn(a) */
int nn_abs_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    static const kset ks = {K_SIGN, K_NONE, K_NONE, K_SIGN, K_NONE, false};
    nn_tensor *a = nn_node_saved(n, 0);
    nn_tensor *sign = run1(&ks, (kctx){0}, a, a->dtype, false);
    int rc = give(sign ? nn_mul(gout[0], sign) : NULL, &gin[0]);
    NN_RELEASE(sign);
    return rc;
}

/* ------------------------------------------------ floor, ceil, round, sign */

/* The step functions: exact in every dtype (half types compute in float32 and
   round once, which changes nothing) and flat, so their gradient is zero.
   Integers: floor, ceil and round return a copy, sign computes; PyTorch's CPU
   kernels refuse bool and float16 but for sign. */
static nn_tensor *step_op(nn_tensor *a, kern k, const char *kernel, nn_op_id op)
{
    if (k != K_SIGN && (a->dtype == NN_BOOL || a->dtype == NN_FLOAT16)) return not_implemented(kernel, a->dtype);
    if (k != K_SIGN && !nn_dtype_is_floating(a->dtype)) return nn_clone(a);
    kset ks = {k, K_NONE, K_NONE, k, k == K_SIGN ? K_SIGN : K_NONE, false};
    nn_tensor *out = run1(&ks, (kctx){0}, a, a->dtype, false);
    if (out && nn_record(op, 1, &a, 1, &out, 0, NULL, NULL) < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_floor(nn_tensor *a) { return step_op(a, K_FLOOR, "floor_vml_cpu", NN_OP_floor); }
nn_tensor *nn_ceil(nn_tensor *a) { return step_op(a, K_CEIL, "ceil_vml_cpu", NN_OP_ceil); }
nn_tensor *nn_round(nn_tensor *a) { return step_op(a, K_ROUND, "round_vml_cpu", NN_OP_round); }
nn_tensor *nn_sign(nn_tensor *a) { return step_op(a, K_SIGN, "sign_cpu", NN_OP_sign); }

static int zero_grad(nn_tensor **gout, nn_tensor **gin) { return give(nn_zeros_like(gout[0]), &gin[0]); }
int nn_floor_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return zero_grad(gout, gin); }
int nn_ceil_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return zero_grad(gout, gin); }
int nn_round_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return zero_grad(gout, gin); }
int nn_sign_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return zero_grad(gout, gin); }

/* ----------------------------------------------- exp, log, sqrt, tanh, sigmoid */

/* The length of t's rows as TensorIterator's inner loop sees them (its
   trailing dims that lie densely in memory, after the last one of stride 1),
   or 0 when the last dim of size > 1 is strided. */
static int64_t dense_row(const nn_tensor *t)
{
    int64_t row = 1;
    for (int d = t->ndim - 1; d >= 0; d--) {
        if (t->sizes[d] == 1) continue;
        if (t->strides[d] != row) break;
        row *= t->sizes[d];
    }
    return row > 1 ? row : 0;
}

/* A float32 result on the CPU with AVX2+FMA, as ATen computes it (cpu/vmath.c):
   exp, log and tanh are its vml kernels (Sleef on every element, strided or
   not); sigmoid, silu and elu (p: their parameters) its cpu_kernel_vec
   kernels, vectorized over a dense operand (in memory order, and row by row
   for a strided one with dense rows). 1 with *out set, 0 when another path
   computes, -1 on error. No autograd. */
static int unary_sleef(nn_tensor *a, nn_vact act, int vfn, const float *p, nn_tensor **out)
{
    *out = NULL;
    if (float_result(a->dtype) != NN_FLOAT32 || a->dtype == NN_BFLOAT16 || nn_device_of(a).type != NN_CPU ||
        !nn_vmath_available())
        return 0;
    int64_t n = nn_numel(a), one = 1, row = 0;
    bool vec = true, permuted = false;
    nn_tensor *x = NULL, *y = NULL;
    if (a->dtype == NN_FLOAT32 && !nn_is_contiguous(a) && vfn < 0) {
        if (dense_permuted(a)) { /* memory order, laid out row-major after */
            x = nn_tensor_new_view(a, 1, &n, &one, a->offset);
            permuted = true;
        } else {
            row = dense_row(a);
            vec = row > 0;
        }
    }
    if (!x) NN_WITH_GRAD_MODE(false, x = nn_to_dtype(a, NN_FLOAT32); if (x) NN_SET(x, nn_contiguous(x)));
    if (x) y = nn_empty(x->ndim, x->sizes, NN_FLOAT32);
    if (!y) {
        NN_RELEASE(x);
        return -1;
    }
    const float *xs = nn_data_ptr(x);
    float *ys = nn_data_ptr(y);
    if (n > 0) {
        if (vfn >= 0) nn_vmath_map_f32((nn_vfn)vfn, ys, xs, n);
        else nn_vmath_act_f32(act, ys, xs, n, row, p, vec);
    }
    NN_RELEASE(x);
    if (permuted) {
        nn_tensor *laid = nn_tensor_new_view(y, a->ndim, a->sizes, a->strides, 0);
        NN_RELEASE(y);
        if (laid) NN_WITH_GRAD_MODE(false, y = nn_contiguous(laid));
        NN_RELEASE(laid);
        if (!y) return -1;
    }
    *out = y;
    return 1;
}

/* The float ops of PyTorch's unary_float family: integers compute in float32. */
static nn_tensor *float_op(nn_tensor *a, kern k, const char *kernel, nn_op_id op, bool save_output)
{
    if (a->dtype == NN_FLOAT16) return not_implemented(kernel, a->dtype);
    kset ks = {k, K_NONE, K_NONE, k, K_NONE, false};
    nn_tensor *out = NULL;
    int vfn = k == K_EXP ? NN_VFN_EXP : k == K_LOG ? NN_VFN_LOG : k == K_TANH ? NN_VFN_TANH : -1;
    int taken = vfn >= 0 || k == K_SIGMOID ? unary_sleef(a, NN_VACT_SIGMOID, vfn, NULL, &out) : 0;
    if (taken < 0) return NULL;
    if (!taken) out = run1(&ks, (kctx){0}, a, float_result(a->dtype), false);
    if (out && nn_record(op, 1, &a, 1, &out, 1, save_output ? &out : &a, NULL) < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_exp(nn_tensor *a) { return float_op(a, K_EXP, "exp_vml_cpu", NN_OP_exp, true); }

/* grad * out (while a graph is built, the engine gives the saved output its
   grad_fn back, so the gradient of this one flows on through the node) */
int nn_exp_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    return give(nn_mul(gout[0], nn_node_saved(n, 0)), &gin[0]);
}

nn_tensor *nn_log(nn_tensor *a) { return float_op(a, K_LOG, "log_vml_cpu", NN_OP_log, false); }

int nn_log_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    return give(nn_div(gout[0], nn_node_saved(n, 0)), &gin[0]);
}

nn_tensor *nn_sqrt(nn_tensor *a) { return float_op(a, K_SQRT, "sqrt_vml_cpu", NN_OP_sqrt, true); }

/* grad / (2 * out) */
int nn_sqrt_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *twice = nn_mul_scalar(nn_node_saved(n, 0), 2.0);
    int rc = give(twice ? nn_div(gout[0], twice) : NULL, &gin[0]);
    NN_RELEASE(twice);
    return rc;
}

nn_tensor *nn_tanh(nn_tensor *a) { return float_op(a, K_TANH, "tanh_vml_cpu", NN_OP_tanh, true); }

/* grad * (1 - out^2); PyTorch's kernel fuses 1 - out * out */
int nn_tanh_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *out = nn_node_saved(n, 0), *g = gout[0];
    if (!nn_grad_enabled()) {
        static const kset ks = {K_TANH_GRAD, K_NONE, K_NONE, K_TANH_GRAD, K_NONE, false};
        nn_tensor *in[2] = {g, out};
        return give(run_kernel(&ks, (kctx){0}, 2, in, out->dtype, false), &gin[0]);
    }
    nn_tensor *y = widen(out), *gw = y ? widen(g) : NULL;
    nn_tensor *sq = gw ? nn_mul(y, y) : NULL, *d = sq ? nn_rsub_scalar(sq, 1.0) : NULL;
    int rc = give(d ? nn_mul(gw, d) : NULL, &gin[0]);
    NN_RELEASE(y);
    NN_RELEASE(gw);
    NN_RELEASE(sq);
    NN_RELEASE(d);
    return rc;
}

nn_tensor *nn_sigmoid(nn_tensor *a) { return float_op(a, K_SIGMOID, "sigmoid_cpu", NN_OP_sigmoid, true); }

/* grad * (1 - out) * out, in PyTorch's order */
int nn_sigmoid_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *y = widen(nn_node_saved(n, 0)), *g = y ? widen(gout[0]) : NULL;
    nn_tensor *d = g ? nn_rsub_scalar(y, 1.0) : NULL, *t = d ? nn_mul(g, d) : NULL;
    int rc = give(t ? nn_mul(t, y) : NULL, &gin[0]);
    NN_RELEASE(y);
    NN_RELEASE(g);
    NN_RELEASE(d);
    NN_RELEASE(t);
    return rc;
}

/* ------------------------------------------------------------------ relu */

nn_tensor *nn_relu(nn_tensor *a)
{
    if (a->dtype == NN_BOOL) {
        nn_error_set(NN_ERR_RUNTIME, "Boolean inputs not supported for relu");
        return NULL;
    }
    if (a->dtype == NN_FLOAT16) return not_implemented("clamp_min_cpu", a->dtype);
    static const kset ks = {K_RELU, K_NONE, K_NONE, K_RELU, K_RELU, false};
    nn_tensor *out = run1(&ks, (kctx){0}, a, a->dtype, false);
    if (out && nn_record(NN_OP_relu, 1, &a, 1, &out, 1, &out, NULL) < 0) NN_SET(out, NULL);
    return out;
}

/* 0 where out <= 0, else grad (PyTorch's threshold_backward on the result) */
int nn_relu_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *off = compare_scalar(nn_node_saved(n, 0), 0.0, NN_LE);
    int rc = give(off ? masked(off, false, gout[0]) : NULL, &gin[0]);
    NN_RELEASE(off);
    return rc;
}

/* ------------------------------------------------------------------ gelu */

nn_tensor *nn_gelu(nn_tensor *a, nn_gelu_approx approximate)
{
    if (approximate != NN_GELU_NONE && approximate != NN_GELU_TANH) {
        nn_error_set(NN_ERR_RUNTIME, "approximate argument must be either none or tanh.");
        return NULL;
    }
    if (!is_float(a->dtype)) return not_implemented("GeluKernelImpl", a->dtype);
    static const kset erf_ks = {K_GELU, K_GELU_DNNL, K_GELU_BF16, K_GELU, K_NONE, true};
    static const kset tanh_ks = {K_GELU_TANH, K_GELU_TANH_VEC, K_GELU_TANH_BF16, K_GELU_TANH, K_NONE, false};
    bool tanh_form = approximate == NN_GELU_TANH;
    nn_tensor *out;
    if (tanh_form && !nn_is_contiguous(a) && dense_permuted(a)) {
        out = run1_in_memory_order(&tanh_ks, a);
    } else {
        /* PyTorch hands contiguous float32 tensors of 2+ elements to oneDNN (erf form) */
        bool vec = nn_is_contiguous(a) && (tanh_form || nn_numel(a) > 1);
        out = run1(tanh_form ? &tanh_ks : &erf_ks, (kctx){0}, a, a->dtype, vec);
    }
    nn_op_params p = {.flags = tanh_form ? GELU_TANH : 0};
    if (out && nn_record(NN_OP_gelu, 1, &a, 1, &out, 1, &a, &p) < 0) NN_SET(out, NULL);
    return out;
}

/* 0.5 * (1 + erf(a / sqrt 2)) as a gelu node in cdf mode, so that it can be
   differentiated again (used by gelu's backward with create_graph). */
static nn_tensor *gelu_cdf(nn_tensor *a)
{
    static const kset ks = {K_GELU_CDF, K_NONE, K_NONE, K_GELU_CDF, K_NONE, false};
    nn_tensor *out = run1(&ks, (kctx){0}, a, a->dtype, false);
    nn_op_params p = {.flags = GELU_CDF};
    if (out && nn_record(NN_OP_gelu, 1, &a, 1, &out, 1, &a, &p) < 0) NN_SET(out, NULL);
    return out;
}

/* The standard normal density exp(-a^2 / 2) / sqrt(2 pi), differentiably. */
static nn_tensor *normal_pdf(nn_tensor *a)
{
    nn_tensor *sq = nn_mul(a, a), *h = sq ? nn_mul_scalar(sq, -0.5) : NULL, *e = h ? nn_exp(h) : NULL;
    nn_tensor *r = e ? nn_mul_scalar(e, PDF_D) : NULL;
    NN_RELEASE(sq);
    NN_RELEASE(h);
    NN_RELEASE(e);
    return r;
}

/* gelu'(a) = cdf(a) + a * pdf(a), built from differentiable ops */
static nn_tensor *gelu_erf_grad_graph(nn_tensor *a)
{
    nn_tensor *cdf = gelu_cdf(a), *pdf = cdf ? normal_pdf(a) : NULL, *t = pdf ? nn_mul(a, pdf) : NULL;
    nn_tensor *r = t ? nn_add(cdf, t) : NULL;
    NN_RELEASE(cdf);
    NN_RELEASE(pdf);
    NN_RELEASE(t);
    return r;
}

/* The tanh form's derivative as PyTorch's scalar backward writes it:
   0.5 (1 + t) + 0.5 a (1 - t^2) beta (1 + 3 kappa a^2), t = tanh(beta (a + kappa a^3)) */
static nn_tensor *gelu_tanh_grad_graph(nn_tensor *a)
{
    nn_tensor *tmp[14] = {NULL};
    nn_tensor *r = NULL;
    nn_tensor *sq = tmp[0] = nn_mul(a, a);
    nn_tensor *cube = sq ? (tmp[1] = nn_mul(sq, a)) : NULL;
    nn_tensor *kc = cube ? (tmp[2] = nn_mul_scalar(cube, KAPPA_D)) : NULL;
    nn_tensor *sum = kc ? (tmp[3] = nn_add(a, kc)) : NULL;
    nn_tensor *inner = sum ? (tmp[4] = nn_mul_scalar(sum, BETA_D)) : NULL;
    nn_tensor *t = inner ? (tmp[5] = nn_tanh(inner)) : NULL;
    nn_tensor *right = t ? (tmp[6] = nn_add_scalar(t, 1.0)) : NULL;
    nn_tensor *left_d = right ? (tmp[7] = nn_mul_scalar(right, 0.5)) : NULL;
    nn_tensor *t2 = left_d ? (tmp[8] = nn_mul(t, t)) : NULL;
    nn_tensor *tanh_d = t2 ? (tmp[9] = nn_rsub_scalar(t2, 1.0)) : NULL;
    nn_tensor *k3 = tanh_d ? (tmp[10] = nn_mul_scalar(sq, 3.0 * KAPPA_D)) : NULL;
    nn_tensor *k31 = k3 ? (tmp[11] = nn_add_scalar(k3, 1.0)) : NULL;
    nn_tensor *left = k31 ? (tmp[12] = nn_mul_scalar(a, 0.5)) : NULL;
    nn_tensor *lt = left ? (tmp[13] = nn_mul(left, tanh_d)) : NULL;
    nn_tensor *inner_d = lt ? nn_mul_scalar(k31, BETA_D) : NULL;
    nn_tensor *right_d = inner_d ? nn_mul(lt, inner_d) : NULL;
    if (right_d) r = nn_add(left_d, right_d);
    NN_RELEASE(inner_d);
    NN_RELEASE(right_d);
    for (int i = 0; i < 14; i++) NN_RELEASE(tmp[i]);
    return r;
}

int nn_gelu_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *a = nn_node_saved(n, 0), *g = gout[0];
    nn_tensor *d = NULL;
    if (n->p.flags & GELU_CDF) {
        d = normal_pdf(a);
    } else if (!nn_grad_enabled()) {
        static const kset erf_ks = {K_GELU_GRAD, K_GELU_GRAD_DNNL, K_GELU_GRAD_BF16, K_GELU_GRAD, K_NONE, true};
        static const kset tanh_ks = {K_GELU_TANH_GRAD, K_GELU_TANH_GRAD_VEC, K_GELU_TANH_GRAD_BF16, K_GELU_TANH_GRAD,
                                     K_NONE, false};
        bool tanh_form = n->p.flags & GELU_TANH;
        nn_tensor *in[2] = {g, a};
        bool vec = nn_is_contiguous(a) && (tanh_form ? dense_or_scalar(g) : nn_numel(a) > 1);
        return give(run_kernel(tanh_form ? &tanh_ks : &erf_ks, (kctx){0}, 2, in, a->dtype, vec), &gin[0]);
    } else {
        nn_tensor *wide = widen(a);
        d = !wide ? NULL : n->p.flags & GELU_TANH ? gelu_tanh_grad_graph(wide) : gelu_erf_grad_graph(wide);
        NN_RELEASE(wide);
    }
    int rc = give(d ? nn_mul(g, d) : NULL, &gin[0]);
    NN_RELEASE(d);
    return rc;
}

/* ------------------------------------------------- leaky_relu, elu, silu */

/* The activations PyTorch only has for float32, float64 and bfloat16, with
   scalar parameters checked against the tensor's type. */
static nn_tensor *activation(nn_tensor *a, const kset *ks, const char *kernel, int nparams, const double *params,
                             nn_op_id op, nn_op_params *p)
{
    if (!is_float(a->dtype)) return not_implemented(kernel, a->dtype);
    kctx c = {0};
    for (int i = 0; i < nparams; i++) {
        if (param(params[i], a->dtype, &c.d[i], &c.f[i], &c.i[i]) < 0) return NULL;
        p->f[i] = params[i];
    }
    nn_tensor *out = NULL;
    if (ks->f32 == K_SILU || ks->f32 == K_ELU) { /* negcoef, poscoef, negiptcoef (scale 1) */
        float coef[3] = {c.f[0], 1.0f, 1.0f};
        if (unary_sleef(a, ks->f32 == K_SILU ? NN_VACT_SILU : NN_VACT_ELU, -1, coef, &out) < 0) return NULL;
    }
    if (!out) out = run1(ks, c, a, a->dtype, false);
    if (out && nn_record(op, 1, &a, 1, &out, 1, &a, p) < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_leaky_relu(nn_tensor *a, double negative_slope)
{
    static const kset ks = {K_LEAKY_RELU, K_NONE, K_NONE, K_LEAKY_RELU, K_NONE, false};
    nn_op_params p = {0};
    return activation(a, &ks, "leaky_relu_cpu", 1, &negative_slope, NN_OP_leaky_relu, &p);
}

/* grad where a > 0, else grad * slope */
int nn_leaky_relu_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *a = nn_node_saved(n, 0), *g = gout[0];
    nn_tensor *pos = compare_scalar(a, 0.0, NN_GT), *scaled = pos ? nn_mul_scalar(g, n->p.f[0]) : NULL;
    int rc = give(scaled ? nn_where(pos, g, scaled) : NULL, &gin[0]);
    NN_RELEASE(pos);
    NN_RELEASE(scaled);
    return rc;
}

nn_tensor *nn_elu(nn_tensor *a, double alpha)
{
    static const kset ks = {K_ELU, K_NONE, K_NONE, K_ELU, K_NONE, false};
    nn_op_params p = {0};
    return activation(a, &ks, "elu_cpu", 1, &alpha, NN_OP_elu, &p);
}

/* grad where a > 0, else grad * alpha * exp(a) */
int nn_elu_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *a = widen(nn_node_saved(n, 0)), *g = a ? widen(gout[0]) : NULL;
    nn_tensor *pos = g ? compare_scalar(a, 0.0, NN_GT) : NULL, *ga = pos ? nn_mul_scalar(g, n->p.f[0]) : NULL;
    nn_tensor *e = ga ? nn_exp(a) : NULL, *neg = e ? nn_mul(ga, e) : NULL;
    int rc = give(neg ? nn_where(pos, g, neg) : NULL, &gin[0]);
    NN_RELEASE(a);
    NN_RELEASE(g);
    NN_RELEASE(pos);
    NN_RELEASE(ga);
    NN_RELEASE(e);
    NN_RELEASE(neg);
    return rc;
}

nn_tensor *nn_silu(nn_tensor *a)
{
    static const kset ks = {K_SILU, K_NONE, K_SILU_BF16, K_SILU, K_NONE, false};
    nn_op_params p = {0};
    return activation(a, &ks, "silu_cpu", 0, NULL, NN_OP_silu, &p);
}

/* grad * s * (1 + a * (1 - s)), s = sigmoid(a); PyTorch's kernel fuses the inner multiply-add */
int nn_silu_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *a = nn_node_saved(n, 0), *g = gout[0];
    if (!nn_grad_enabled()) {
        static const kset ks = {K_SILU_GRAD, K_SILU_GRAD_VEC, K_SILU_GRAD_BF16, K_SILU_GRAD, K_NONE, false};
        nn_tensor *in[2] = {g, a};
        bool vec = nn_is_contiguous(a) && dense_or_scalar(g);
        return give(run_kernel(&ks, (kctx){0}, 2, in, a->dtype, vec), &gin[0]);
    }
    nn_tensor *x = widen(a), *gw = x ? widen(g) : NULL;
    nn_tensor *s = gw ? nn_sigmoid(x) : NULL, *oms = s ? nn_rsub_scalar(s, 1.0) : NULL, *t = oms ? nn_mul(x, oms) : NULL;
    nn_tensor *t1 = t ? nn_add_scalar(t, 1.0) : NULL, *gs = t1 ? nn_mul(gw, s) : NULL;
    int rc = give(gs ? nn_mul(gs, t1) : NULL, &gin[0]);
    NN_RELEASE(x);
    NN_RELEASE(gw);
    NN_RELEASE(s);
    NN_RELEASE(oms);
    NN_RELEASE(t);
    NN_RELEASE(t1);
    NN_RELEASE(gs);
    return rc;
}

/* ------------------------------------------------------- softplus, threshold */

nn_tensor *nn_softplus(nn_tensor *a, double beta, double threshold)
{
    static const kset ks = {K_SOFTPLUS, K_NONE, K_NONE, K_SOFTPLUS, K_NONE, false};
    double params[2] = {beta, threshold};
    nn_op_params p = {0};
    return activation(a, &ks, "softplus_cpu", 2, params, NN_OP_softplus, &p);
}

/* grad where a * beta > threshold, else grad * z / (z + 1), z = exp(a * beta) */
int nn_softplus_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *a = widen(nn_node_saved(n, 0)), *g = a ? widen(gout[0]) : NULL;
    nn_tensor *ab = g ? nn_mul_scalar(a, n->p.f[0]) : NULL, *linear = ab ? compare_scalar(ab, n->p.f[1], NN_GT) : NULL;
    nn_tensor *z = linear ? nn_exp(ab) : NULL, *gz = z ? nn_mul(g, z) : NULL;
    nn_tensor *z1 = gz ? nn_add_scalar(z, 1.0) : NULL, *q = z1 ? nn_div(gz, z1) : NULL;
    int rc = give(q ? nn_where(linear, g, q) : NULL, &gin[0]);
    NN_RELEASE(a);
    NN_RELEASE(g);
    NN_RELEASE(ab);
    NN_RELEASE(linear);
    NN_RELEASE(z);
    NN_RELEASE(gz);
    NN_RELEASE(z1);
    NN_RELEASE(q);
    return rc;
}

nn_tensor *nn_threshold(nn_tensor *a, double threshold, double value)
{
    if (a->dtype == NN_BOOL || a->dtype == NN_FLOAT16) return not_implemented("threshold_cpu", a->dtype);
    static const kset ks = {K_THRESHOLD, K_NONE, K_NONE, K_THRESHOLD, K_THRESHOLD, false};
    kctx c = {0};
    if (param(threshold, a->dtype, &c.d[0], &c.f[0], &c.i[0]) < 0 || param(value, a->dtype, &c.d[1], &c.f[1], &c.i[1]) < 0)
        return NULL;
    nn_tensor *out = run1(&ks, c, a, a->dtype, false);
    nn_op_params p = {.f = {threshold, value}};
    if (out && nn_record(NN_OP_threshold, 1, &a, 1, &out, 1, &a, &p) < 0) NN_SET(out, NULL);
    return out;
}

/* 0 where a <= threshold, else grad */
int nn_threshold_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *off = compare_scalar(nn_node_saved(n, 0), n->p.f[0], NN_LE);
    int rc = give(off ? masked(off, false, gout[0]) : NULL, &gin[0]);
    NN_RELEASE(off);
    return rc;
}

/* ------------------------------------------------------------------ prelu */

/* weight viewed so that it broadcasts along dim 1 of a ([1, C, 1, ...]), or
   as a 0-dim tensor when it has one element; new reference. */
static nn_tensor *prelu_weight_view(nn_tensor *a, nn_tensor *weight)
{
    if (nn_numel(weight) == 1 || a->ndim < 2) return nn_view(weight, 0, NULL);
    int64_t sizes[NN_MAX_DIMS];
    for (int d = 0; d < a->ndim; d++) sizes[d] = d == 1 ? a->sizes[1] : 1;
    return nn_view(weight, a->ndim, sizes);
}

nn_tensor *nn_prelu(nn_tensor *a, nn_tensor *weight)
{
    if (weight->ndim > 1) {
        nn_error_set(NN_ERR_RUNTIME, "prelu: Expected `weight` to be a scalar or 1D tensor, but got ndim = %d",
                     weight->ndim);
        return NULL;
    }
    int64_t nw = nn_numel(weight), channels = a->ndim >= 2 ? a->sizes[1] : 1;
    if (nw != 1) {
        if (a->ndim == 0) {
            nn_error_set(NN_ERR_RUNTIME, "Not allow zero-dim input tensor.");
            return NULL;
        }
        if (nw != channels) {
            nn_error_set(NN_ERR_RUNTIME,
                         "Mismatch of parameter numbers and input channel size. Found parameter numbers = %lld and "
                         "channel size = %lld.",
                         (long long)nw, (long long)channels);
            return NULL;
        }
    }
    if (weight->dtype != a->dtype) {
        nn_error_set(NN_ERR_RUNTIME, "Found dtype %s but expected %s", type_title(weight->dtype), type_title(a->dtype));
        return NULL;
    }
    if (!is_float(a->dtype)) return not_implemented("prelu_cpu", a->dtype);
    static const kset ks = {K_PRELU, K_NONE, K_NONE, K_PRELU, K_NONE, false};
    nn_tensor *w = NULL;
    NN_WITH_GRAD_MODE(false, w = prelu_weight_view(a, weight));
    if (!w) return NULL;
    nn_tensor *in[2] = {a, w};
    nn_tensor *out = run_kernel(&ks, (kctx){0}, 2, in, a->dtype, false);
    NN_RELEASE(w);
    nn_tensor *inputs[2] = {a, weight};
    if (out && nn_record(NN_OP_prelu, 2, inputs, 1, &out, 2, inputs, NULL) < 0) NN_SET(out, NULL);
    return out;
}

/* input: grad where a > 0, else weight * grad;
   weight: the sum of a * grad where a <= 0 over all dims but the channel dim */
int nn_prelu_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *a = nn_node_saved(n, 0), *weight = nn_node_saved(n, 1), *g = gout[0];
    nn_tensor *pos = compare_scalar(a, 0.0, NN_GT), *w = pos ? prelu_weight_view(a, weight) : NULL;
    int rc = w ? 0 : -1;
    if (rc == 0 && nn_node_needs_input_grad(n, 0)) {
        nn_tensor *wg = nn_mul(w, g);
        rc = give(wg ? nn_where(pos, g, wg) : NULL, &gin[0]);
        NN_RELEASE(wg);
    }
    if (rc == 0 && nn_node_needs_input_grad(n, 1)) {
        nn_tensor *ag = nn_mul(a, g), *zero = ag ? nn_scalar(0.0, ag->dtype) : NULL;
        nn_tensor *contrib = zero ? nn_where(pos, zero, ag) : NULL, *sum = NULL;
        if (contrib) {
            int dims[NN_MAX_DIMS], nd = 0;
            bool per_channel = nn_numel(weight) != 1 && a->ndim >= 2;
            for (int d = 0; d < a->ndim; d++)
                if (!(per_channel && d == 1)) dims[nd++] = d;
            /* a 0-dim input: nothing to reduce */
            if (nd == 0) {
                NN_RETAIN(contrib);
                sum = contrib;
            } else {
                sum = nn_sum(contrib, nd, dims, false);
            }
        }
        rc = give(sum ? nn_reshape(sum, weight->ndim, weight->sizes) : NULL, &gin[1]);
        NN_RELEASE(ag);
        NN_RELEASE(zero);
        NN_RELEASE(contrib);
        NN_RELEASE(sum);
    }
    NN_RELEASE(pos);
    NN_RELEASE(w);
    return rc;
}

/* ------------------------------------------------------------------ clamp */

/* A bound as PyTorch sees a Python number: integral values are ints. */
static bool integral(double v) { return v == floor(v) && fabs(v) < 0x1p53; }

nn_tensor *nn_clamp(nn_tensor *a, double min, bool has_min, double max, bool has_max)
{
    if (!has_min && !has_max) {
        nn_error_set(NN_ERR_RUNTIME, "torch.clamp: At least one of 'min' or 'max' must not be None");
        return NULL;
    }
    /* result_type(a, min, max): a float bound makes an integer tensor float32,
       an int bound makes a bool tensor int64 */
    nn_dtype dt = a->dtype;
    bool float_bound = (has_min && !integral(min)) || (has_max && !integral(max));
    if (!nn_dtype_is_floating(dt) && float_bound) dt = NN_FLOAT32;
    else if (dt == NN_BOOL) dt = NN_INT64;
    const char *kernel = has_min && has_max ? "clamp_scalar_cpu" : has_min ? "clamp_min_cpu" : "clamp_max_scalar_cpu";
    if (dt == NN_FLOAT16) return not_implemented(kernel, dt);
    kctx c = {0};
    if ((has_min && param(min, dt, &c.d[0], &c.f[0], &c.i[0]) < 0) ||
        (has_max && param(max, dt, &c.d[1], &c.f[1], &c.i[1]) < 0))
        return NULL;
    kern k = has_min && has_max ? K_CLAMP : has_min ? K_CLAMP_MIN : K_CLAMP_MAX;
    kset ks = {k, K_NONE, K_NONE, k, k, false};
    nn_tensor *out = run1(&ks, c, a, dt, false);
    nn_op_params p = {.f = {min, max}, .flags = (has_min ? CLAMP_MIN : 0) | (has_max ? CLAMP_MAX : 0)};
    if (out && nn_record(NN_OP_clamp, 1, &a, 1, &out, 1, &a, &p) < 0) NN_SET(out, NULL);
    return out;
}

/* grad where min <= a <= max (the bounds given), else 0 */
int nn_clamp_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *a = nn_node_saved(n, 0), *g = gout[0];
    nn_tensor *r = g;
    NN_RETAIN(r);
    static const nn_cmp keep[2] = {NN_GE, NN_LE};
    for (int b = 0; b < 2 && r; b++) {
        if (!(n->p.flags & (b == 0 ? CLAMP_MIN : CLAMP_MAX))) continue;
        nn_tensor *mask = compare_scalar(a, n->p.f[b], keep[b]);
        nn_tensor *next = mask ? masked(mask, true, r) : NULL;
        NN_RELEASE(mask);
        NN_SET(r, next);
    }
    return give(r, &gin[0]);
}
