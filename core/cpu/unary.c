/*
 * cpu/unary.c — the CPU's `unary` kernel (core/kernels.def): one formula per
 * op code of core/unary_ops.def, out = f(a) or f(a, b), over operands of
 * out's shape. core/unary.c picks the codes (which of PyTorch's loops a
 * tensor takes), converts, broadcasts and allocates, and records autograd.
 *
 * Numerics follow what PyTorch 1.13 computes on an x86-64 CPU with AVX2
 * (core/unary.c's header says how); the float kernels are compiled twice, for
 * AVX2+FMA and for baseline x86-64, and picked at run time; large tensors are
 * split over the pool's threads (parallel.c).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "nn_cpu.h"
#include "nn_unary_codes.h"

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

static bool kern_binary(kern k) { return k >= K_PRELU; }

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

/* gelu_dnnl and gelu_grad_dnnl on 8 values, written out in AVX2 operations:
   each C operation of the scalar functions becomes the one instruction that
   rounds the same way (x < hi ? x : hi is vminps, the select of 0 an and-not,
   fmaf(-a, b, c) a negated fma), so each lane has their bits. The compiler's
   own vectorization of the scalar loop kept compares and blends for the
   clamps and spilled constants: 0.95 ms for 1M values on Zen 3, where
   PyTorch's oneDNN JIT takes about 0.9. */
#define AVX2_FN HOT __attribute__((target("avx2,fma"))) static inline
AVX2_FN __m256 dnnl_exp8(__m256 x)
{
    const __m256 lo = _mm256_set1_ps(-0x1.5d58a0p+6f), hi = _mm256_set1_ps(0x1.62e430p+6f);
    __m256 under = _mm256_cmp_ps(x, lo, _CMP_LT_OQ);
    x = _mm256_max_ps(_mm256_min_ps(x, hi), lo);
    __m256 fx = _mm256_floor_ps(_mm256_add_ps(_mm256_mul_ps(x, _mm256_set1_ps(0x1.715476p+0f)), _mm256_set1_ps(0.5f)));
    __m256 r = _mm256_fnmadd_ps(fx, _mm256_set1_ps(0x1.62e430p-1f), x);
    __m256i e = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvttps_epi32(fx), _mm256_set1_epi32(127)), 23);
    __m256 p = _mm256_fmadd_ps(_mm256_set1_ps(0x1.0f9f9cp-7f), r, _mm256_set1_ps(0x1.573a1ap-5f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(0x1.555a80p-3f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(0x1.fffdc6p-2f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(0x1.fffff6p-1f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f));
    return _mm256_andnot_ps(under, _mm256_mul_ps(p, _mm256_castsi256_ps(e)));
}

/* xor_sign(dnnl_erf_abs(x, e), x) */
AVX2_FN __m256 dnnl_erf8(__m256 x, __m256 e)
{
    const __m256 sign = _mm256_set1_ps(-0.0f), one = _mm256_set1_ps(1.0f);
    __m256 t = _mm256_div_ps(one, _mm256_fmadd_ps(_mm256_set1_ps(0x1.4f740ap-2f), _mm256_andnot_ps(sign, x), one));
    __m256 r = _mm256_fmadd_ps(_mm256_set1_ps(0x1.0fb844p+0f), t, _mm256_set1_ps(-0x1.7401c6p+0f));
    r = _mm256_fmadd_ps(r, t, _mm256_set1_ps(0x1.6be1c6p+0f));
    r = _mm256_fmadd_ps(r, t, _mm256_set1_ps(-0x1.23531cp-2f));
    r = _mm256_fmadd_ps(r, t, _mm256_set1_ps(0x1.04f20cp-2f));
    __m256 v = _mm256_fnmadd_ps(_mm256_mul_ps(e, t), r, one);
    return _mm256_xor_ps(v, _mm256_and_ps(x, sign));
}

AVX2_FN __m256 neg_square(__m256 x) { return _mm256_xor_ps(_mm256_mul_ps(x, x), _mm256_set1_ps(-0.0f)); }

HOT __attribute__((target("avx2,fma"))) static void gelu_dnnl_avx2(float *o, const float *a, int64_t n)
{
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) { /* two independent vectors a step: 0.645 ms for 1M instead of 0.706 */
        __m256 s = _mm256_loadu_ps(a + i), x = _mm256_mul_ps(s, _mm256_set1_ps(SQRT1_2F));
        __m256 s2 = _mm256_loadu_ps(a + i + 8), x2 = _mm256_mul_ps(s2, _mm256_set1_ps(SQRT1_2F));
        __m256 e = dnnl_exp8(neg_square(x)), e2 = dnnl_exp8(neg_square(x2));
        __m256 half = _mm256_mul_ps(s, _mm256_set1_ps(0.5f)), half2 = _mm256_mul_ps(s2, _mm256_set1_ps(0.5f));
        __m256 r = dnnl_erf8(x, e), r2 = dnnl_erf8(x2, e2);
        _mm256_storeu_ps(o + i, _mm256_fmadd_ps(r, half, half));
        _mm256_storeu_ps(o + i + 8, _mm256_fmadd_ps(r2, half2, half2));
    }
    for (; i < n; i++) o[i] = gelu_dnnl(a[i]);
}

HOT __attribute__((target("avx2,fma"))) static void gelu_grad_dnnl_avx2(float *o, const float *g, const float *a, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 x = _mm256_mul_ps(_mm256_loadu_ps(a + i), _mm256_set1_ps(SQRT1_2F)), e = dnnl_exp8(neg_square(x));
        __m256 t = _mm256_mul_ps(_mm256_mul_ps(x, _mm256_set1_ps(0x1.20dd74p-1f)), e);
        __m256 d = _mm256_fmadd_ps(dnnl_erf8(x, e), _mm256_set1_ps(0.5f), _mm256_add_ps(t, _mm256_set1_ps(0.5f)));
        _mm256_storeu_ps(o + i, _mm256_mul_ps(_mm256_loadu_ps(g + i), d));
    }
    for (; i < n; i++) o[i] = g[i] * gelu_grad_dnnl(a[i]);
}

HOT __attribute__((target("avx2,fma"))) static void f32_avx2(char **d, const int64_t *s, int64_t n, const kctx *c)
{
    if (c->k == K_SQRT && s[0] == 4 && s[1] == 4) {
        sqrt_avx2((float *)d[0], (const float *)d[1], n);
        return;
    }
    if (c->k == K_GELU_DNNL && s[0] == 4 && s[1] == 4) {
        gelu_dnnl_avx2((float *)d[0], (const float *)d[1], n);
        return;
    }
    if (c->k == K_GELU_GRAD_DNNL && s[0] == 4 && s[1] == 4 && s[2] == 4) {
        gelu_grad_dnnl_avx2((float *)d[0], (const float *)d[1], (const float *)d[2], n);
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

/* gelu (erf form) and its gradient as oneDNN's avx512_core JIT runs them,
   16 lanes at a time, where the CPU has AVX-512 (PyTorch's oneDNN picks
   that ISA by itself, whatever ATen's capability): each lane is the same
   formula in the same float operations as the AVX2 copy, so the same bits,
   with 32 vector registers the constants need no spills. Contiguous
   operands only; the rest goes to the AVX2 copy. */
#define AVX512_TARGET "avx512f,avx512vl,avx512dq,avx2,fma"
HOT __attribute__((target(AVX512_TARGET))) static void gelu_dnnl_avx512(float *o, const float *a, int64_t n)
{
    for (int64_t i = 0; i < n; i++) o[i] = gelu_dnnl(a[i]);
}

HOT __attribute__((target(AVX512_TARGET))) static void gelu_grad_dnnl_avx512(float *o, const float *g, const float *a,
                                                                          int64_t n)
{
    for (int64_t i = 0; i < n; i++) o[i] = g[i] * gelu_grad_dnnl(a[i]);
}

static bool have_avx512(void)
{
    static int known = -1; /* read once, as oneDNN reads its cap once */
    if (known < 0) {
        __builtin_cpu_init();
        known = have_avx2_fma() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
                __builtin_cpu_supports("avx512dq") && nn_onednn_allows_avx512();
    }
    return known;
}

/* the AVX-512 copy when it applies (k, contiguous operands, the CPU) */
static bool f32_avx512(char **d, const int64_t *s, int64_t n, const kctx *c)
{
    if (c->k == K_GELU_DNNL && s[0] == 4 && s[1] == 4 && have_avx512()) {
        gelu_dnnl_avx512((float *)d[0], (const float *)d[1], n);
        return true;
    }
    if (c->k == K_GELU_GRAD_DNNL && s[0] == 4 && s[1] == 4 && s[2] == 4 && have_avx512()) {
        gelu_grad_dnnl_avx512((float *)d[0], (const float *)d[1], (const float *)d[2], n);
        return true;
    }
    return false;
}
#endif

typedef void (*run_fn)(char **d, const int64_t *s, int64_t n, const kctx *c);

static void f32_run(char **d, const int64_t *s, int64_t n, const kctx *c)
{
#ifdef HAVE_AVX2_CLONE
    if (f32_avx512(d, s, n, c)) return;
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

int nn_cpu_unary(const nn_unary_params *p, int nt, const nn_tensor *const *ts)
{
    nn_dtype dt = ts[0]->dtype;
    nn_loop_fn loop = dt == NN_FLOAT32 ? loop_f32 : dt == NN_FLOAT64 ? loop_f64 : loop_i64;
    nn_foreach(nt, ts, loop, (void *)p); /* the loop splits itself over the pool's threads */
    return 0;
}
