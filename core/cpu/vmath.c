/*
 * vmath.c — the CPU's vectorized float32 math (nn_vmath.h): SLEEF's 8-wide
 * AVX2 u10 functions (Debian's libsleef), the very functions PyTorch 1.13's
 * Vectorized<float> calls in its AVX2 build, so the bits are PyTorch's; and
 * softmax / log_softmax rows in ATen's vectorized order.
 *
 * The AVX2 code is compiled for AVX2+FMA by a target pragma and runs only
 * after __builtin_cpu_supports says the CPU has both; otherwise every entry
 * returns false and the caller keeps its portable loop.
 */
#include <math.h>
#include <string.h>

#include "cpu/nn_vmath.h"
#include "nn_parallel.h"

#define GELU_BETA 0x1.988454p-1f  /* (float)(M_SQRT2 * M_2_SQRTPI * 0.5) */
#define GELU_KAPPA 0x1.6e4e26p-5f /* (float)0.044715 */

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define HAVE_VMATH 1
#endif

#ifdef HAVE_VMATH
#ifdef __clang__
/* clang ignores GCC's target pragma: the attribute is put on each function
   below instead, and sleef.h, which declares its __m256 entry points only under
   __AVX__, is shown that macro while it is read */
#include <immintrin.h>
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#ifndef __AVX__
#define __AVX__ 1
#define VMATH_SHOWED_AVX
#endif
#include <sleef.h>
#ifdef VMATH_SHOWED_AVX
#undef __AVX__
#endif
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#include <immintrin.h>
#include <sleef.h> /* declares the __m256 entry points only under AVX */
#endif

typedef __typeof__(&Sleef_sinf8_u10avx2) vec_fn; /* as sleef.h declares them (clang reads its CONST as a qualifier) */

static const vec_fn vec_fns[NN_VFN_COUNT] = {
    [NN_VFN_SIN] = Sleef_sinf8_u10avx2,     [NN_VFN_COS] = Sleef_cosf8_u10avx2,
    [NN_VFN_TAN] = Sleef_tanf8_u10avx2,     [NN_VFN_ASIN] = Sleef_asinf8_u10avx2,
    [NN_VFN_ACOS] = Sleef_acosf8_u10avx2,   [NN_VFN_ATAN] = Sleef_atanf8_u10avx2,
    [NN_VFN_SINH] = Sleef_sinhf8_u10avx2,   [NN_VFN_COSH] = Sleef_coshf8_u10avx2,
    [NN_VFN_TANH] = Sleef_tanhf8_u10avx2,   [NN_VFN_EXP] = Sleef_expf8_u10avx2,
    [NN_VFN_EXPM1] = Sleef_expm1f8_u10avx2, [NN_VFN_LOG] = Sleef_logf8_u10avx2,
    [NN_VFN_LOG2] = Sleef_log2f8_u10avx2,   [NN_VFN_LOG10] = Sleef_log10f8_u10avx2,
    [NN_VFN_LOG1P] = Sleef_log1pf8_u10avx2, [NN_VFN_ERF] = Sleef_erff8_u10avx2,
    [NN_VFN_ERFC] = Sleef_erfcf8_u15avx2,
};

/* ATen's Vectorized<float>::loadu(p, count): count elements, zeros after. */
static inline __m256 load_part(const float *p, int64_t count)
{
    float buf[8] = {0};
    memcpy(buf, p, (size_t)count * sizeof(float));
    return _mm256_loadu_ps(buf);
}

static inline void store_part(float *p, __m256 v, int64_t count)
{
    float buf[8];
    _mm256_storeu_ps(buf, v);
    memcpy(p, buf, (size_t)count * sizeof(float));
}

/* Vectorized<float>::set(a, b, count): b's first count lanes, a's after. */
static inline __m256 set_first(__m256 a, __m256 b, int64_t count)
{
    static const int32_t ones[16] = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};
    __m256 mask = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)(ones + 8 - count)));
    return _mm256_blendv_ps(a, b, mask);
}

/* vec::maximum: a NaN in either operand gives a NaN lane (all ones). */
static inline __m256 vmax(__m256 a, __m256 b)
{
    return _mm256_or_ps(_mm256_max_ps(a, b), _mm256_cmp_ps(a, b, _CMP_UNORD_Q));
}

/* VecReduceAllSIMD<float>: 128-bit, 64-bit and 32-bit shuffles. */
static inline float tree_sum(__m256 v)
{
    v = _mm256_add_ps(v, _mm256_permute2f128_ps(v, v, 0x1));
    v = _mm256_add_ps(v, _mm256_shuffle_ps(v, v, 0x4E));
    v = _mm256_add_ps(v, _mm256_shuffle_ps(v, v, 0xB1));
    return _mm256_cvtss_f32(v);
}

static inline float tree_max(__m256 v)
{
    v = vmax(v, _mm256_permute2f128_ps(v, v, 0x1));
    v = vmax(v, _mm256_shuffle_ps(v, v, 0x4E));
    v = vmax(v, _mm256_shuffle_ps(v, v, 0xB1));
    return _mm256_cvtss_f32(v);
}

/* vec_reduce_all with a size below one vector: lane 0, then lanes 1.. in order. */
static inline float ordered_sum(__m256 v, int64_t size)
{
    float a[8];
    _mm256_storeu_ps(a, v);
    float r = a[0];
    for (int64_t i = 1; i < size; i++) r += a[i];
    return r;
}

static inline float ordered_max(__m256 v, int64_t size)
{
    float a[8];
    _mm256_storeu_ps(a, v);
    __m256 r = _mm256_set1_ps(a[0]);
    for (int64_t i = 1; i < size; i++) r = vmax(r, _mm256_set1_ps(a[i]));
    return _mm256_cvtss_f32(r);
}

static void map_range(vec_fn f, float *y, const float *x, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, f(_mm256_loadu_ps(x + i)));
    if (i < n) store_part(y + i, f(load_part(x + i, n - i)), n - i);
}

/* vec::reduce_all(maximum) over a row */
static float row_max(const float *x, int64_t n)
{
    if (n < 8) return ordered_max(load_part(x, n), n);
    __m256 acc = _mm256_loadu_ps(x);
    int64_t d = 8;
    for (; d + 8 <= n; d += 8) acc = vmax(acc, _mm256_loadu_ps(x + d));
    if (d < n) acc = set_first(acc, vmax(acc, load_part(x + d, n - d)), n - d);
    return tree_max(acc);
}

/* y = exp(x - mx) (stored unless y is NULL), returning vec::reduce_all(+) of
   those values; reduce_all over the stored y and map_reduce_all over x give
   the same sum, lane by lane. */
static float row_exp_sum(const float *x, float *y, int64_t n, float mx)
{
    __m256 m = _mm256_set1_ps(mx);
    if (n < 8) {
        __m256 e = Sleef_expf8_u10avx2(_mm256_sub_ps(load_part(x, n), m));
        if (y) store_part(y, e, n);
        return ordered_sum(e, n);
    }
    __m256 acc = Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_loadu_ps(x), m));
    if (y) _mm256_storeu_ps(y, acc);
    int64_t d = 8;
    for (; d + 8 <= n; d += 8) {
        __m256 e = Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_loadu_ps(x + d), m));
        if (y) _mm256_storeu_ps(y + d, e);
        acc = _mm256_add_ps(acc, e);
    }
    if (d < n) {
        __m256 e = Sleef_expf8_u10avx2(_mm256_sub_ps(load_part(x + d, n - d), m));
        if (y) store_part(y + d, e, n - d);
        acc = set_first(acc, _mm256_add_ps(acc, e), n - d);
    }
    return tree_sum(acc);
}

/* y = x * s, or y = (x - a) - b */
static void row_scale(float *y, const float *x, int64_t n, float s)
{
    __m256 v = _mm256_set1_ps(s);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, _mm256_mul_ps(_mm256_loadu_ps(x + i), v));
    if (i < n) store_part(y + i, _mm256_mul_ps(load_part(x + i, n - i), v), n - i);
}

static void row_sub2(float *y, const float *x, int64_t n, float a, float b)
{
    __m256 va = _mm256_set1_ps(a), vb = _mm256_set1_ps(b);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, _mm256_sub_ps(_mm256_sub_ps(_mm256_loadu_ps(x + i), va), vb));
    if (i < n) store_part(y + i, _mm256_sub_ps(_mm256_sub_ps(load_part(x + i, n - i), va), vb), n - i);
}

static void softmax_row(const float *x, float *y, int64_t n, bool is_log)
{
    float mx = row_max(x, n);
    if (is_log) {
        float sum = row_exp_sum(x, NULL, n, mx);
        float ls = _mm256_cvtss_f32(Sleef_logf8_u10avx2(_mm256_set1_ps(sum)));
        row_sub2(y, x, n, mx, ls);
    } else {
        float sum = row_exp_sum(x, y, n, mx);
        row_scale(y, y, n, 1 / sum);
    }
}

/* ATen's cpu_kernel_vec formulas built on Vectorized<float>::exp, on 8 lanes
   (vectorized loop) and on one float (its scalar loop, glibc's expf as
   std::exp). p: the kernel's float parameters. */
static __m256 act_vec(nn_vact k, __m256 a, __m256 b, const float *p)
{
    const __m256 one = _mm256_set1_ps(1.0f);
    switch (k) {
    case NN_VACT_GELU_TANH: { /* 0.5 * a * (1 + (beta * (a + kappa * a^3)).tanh()) */
        __m256 inner = _mm256_mul_ps(_mm256_set1_ps(GELU_BETA), _mm256_fmadd_ps(_mm256_set1_ps(GELU_KAPPA),
                                                                                _mm256_mul_ps(_mm256_mul_ps(a, a), a), a));
        return _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(0.5f), a), _mm256_add_ps(one, Sleef_tanhf8_u10avx2(inner)));
    }
    case NN_VACT_GELU_TANH_GRAD: { /* a: grad, b: input */
        __m256 x_sq = _mm256_mul_ps(b, b);
        __m256 inner = _mm256_mul_ps(_mm256_set1_ps(GELU_BETA),
                                     _mm256_fmadd_ps(_mm256_set1_ps(GELU_KAPPA), _mm256_mul_ps(b, x_sq), b));
        __m256 t = Sleef_tanhf8_u10avx2(inner);
        __m256 left = _mm256_mul_ps(_mm256_set1_ps(0.5f), b), right = _mm256_add_ps(one, t);
        __m256 left_d = _mm256_mul_ps(_mm256_set1_ps(0.5f), right);
        __m256 tanh_d = _mm256_fnmadd_ps(t, t, one);
        __m256 inner_d = _mm256_mul_ps(_mm256_set1_ps(GELU_BETA),
                                       _mm256_fmadd_ps(_mm256_set1_ps(3.0f * GELU_KAPPA), x_sq, one));
        return _mm256_mul_ps(a, _mm256_add_ps(left_d, _mm256_mul_ps(_mm256_mul_ps(left, tanh_d), inner_d)));
    }
    case NN_VACT_SILU_GRAD: { /* a: grad, b: input; s = 1 / (1 + b.neg().exp()); a * s * (1 + b * (1 - s)) */
        __m256 sg = _mm256_div_ps(one, _mm256_add_ps(one, Sleef_expf8_u10avx2(_mm256_xor_ps(b, _mm256_set1_ps(-0.0f)))));
        return _mm256_mul_ps(_mm256_mul_ps(a, sg), _mm256_fmadd_ps(b, _mm256_sub_ps(one, sg), one));
    }
    case NN_VACT_SIGMOID: /* ((0 - a).exp() + 1).reciprocal() */
        return _mm256_div_ps(one, _mm256_add_ps(Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_setzero_ps(), a)), one));
    case NN_VACT_SILU: /* a / (1 + a.neg().exp()) */
        return _mm256_div_ps(a, _mm256_add_ps(one, Sleef_expf8_u10avx2(_mm256_xor_ps(a, _mm256_set1_ps(-0.0f)))));
    case NN_VACT_ELU: { /* blendv(((a * negipt).exp() - 1) * negcoef, a * poscoef, a > 0) */
        __m256 pos = _mm256_mul_ps(a, _mm256_set1_ps(p[1]));
        __m256 gt = _mm256_cmp_ps(a, _mm256_setzero_ps(), _CMP_GT_OQ);
        if (_mm256_movemask_ps(gt) == 0xff) return pos;
        __m256 e = Sleef_expf8_u10avx2(_mm256_mul_ps(a, _mm256_set1_ps(p[2])));
        return _mm256_blendv_ps(_mm256_mul_ps(_mm256_sub_ps(e, one), _mm256_set1_ps(p[0])), pos, gt);
    }
    case NN_VACT_POW: /* base.pow(float(exp)) */
        return Sleef_powf8_u10avx2(a, _mm256_set1_ps(p[0]));
    case NN_VACT_SOFTPLUS: { /* blendv((a * beta).exp().log1p() / beta, a, (a * beta) > threshold) */
        __m256 ab = _mm256_mul_ps(a, _mm256_set1_ps(p[0]));
        __m256 r = _mm256_div_ps(Sleef_log1pf8_u10avx2(Sleef_expf8_u10avx2(ab)), _mm256_set1_ps(p[0]));
        return _mm256_blendv_ps(r, a, _mm256_cmp_ps(ab, _mm256_set1_ps(p[1]), _CMP_GT_OQ));
    }
    case NN_VACT_SINH: return Sleef_sinhf8_u10avx2(a);
    case NN_VACT_COSH: return Sleef_coshf8_u10avx2(a);
    default: return a;
    }
}

static float act_scalar(nn_vact k, float a, float b, const float *p, double e)
{
    switch (k) {
    case NN_VACT_GELU_TANH: return 0.5f * a * (1.0f + tanhf(GELU_BETA * fmaf(GELU_KAPPA, a * a * a, a)));
    case NN_VACT_GELU_TANH_GRAD: {
        float x_sq = b * b, t = tanhf(GELU_BETA * fmaf(GELU_KAPPA, b * x_sq, b));
        float left_d = 0.5f * (1.0f + t), tanh_d = fmaf(-t, t, 1.0f);
        float inner_d = GELU_BETA * fmaf(3.0f * GELU_KAPPA, x_sq, 1.0f);
        return a * (left_d + 0.5f * b * tanh_d * inner_d);
    }
    case NN_VACT_SILU_GRAD: {
        float sg = 1.0f / (1.0f + expf(-b));
        return a * sg * fmaf(b, 1.0f - sg, 1.0f);
    }
    case NN_VACT_POW: return (float)pow(a, e); /* std::pow(float, double) */
    case NN_VACT_SOFTPLUS: return a * p[0] > p[1] ? a : log1pf(expf(a * p[0])) / p[0];
    case NN_VACT_SINH: return sinhf(a);
    case NN_VACT_COSH: return coshf(a);
    case NN_VACT_SIGMOID: return 1.0f / (1.0f + expf(-a));
    case NN_VACT_SILU: return a / (1.0f + expf(-a));
    case NN_VACT_ELU: return a <= 0.0f ? (expf(a * p[2]) - 1.0f) * p[0] : a * p[1];
    default: return a;
    }
}

/* One range of cpu_kernel_vec's loop: pairs of vectors from its start while
   16 elements remain (vectorized_loop), the scalar formula after; vec false:
   the scalar formula throughout (basic_loop, a strided operand). */
static void act_range(nn_vact k, float *y, const float *x, const float *x2, int64_t n, const float *p, double e,
                      bool vec)
{
    int64_t i = 0;
    if (vec)
        for (; i + 16 <= n; i += 16) {
            __m256 b0 = x2 ? _mm256_loadu_ps(x2 + i) : _mm256_setzero_ps();
            __m256 b1 = x2 ? _mm256_loadu_ps(x2 + i + 8) : _mm256_setzero_ps();
            _mm256_storeu_ps(y + i, act_vec(k, _mm256_loadu_ps(x + i), b0, p));
            _mm256_storeu_ps(y + i + 8, act_vec(k, _mm256_loadu_ps(x + i + 8), b1, p));
        }
    for (; i < n; i++) y[i] = act_scalar(k, x[i], x2 ? x2[i] : 0.0f, p, e);
}
#ifdef __clang__
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

static bool have_avx2_fma(void)
{
    static int known = -1; /* a benign race: every thread computes the same answer */
    if (known < 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    }
    return known;
}
#endif /* HAVE_VMATH */

bool nn_vmath_available(void)
{
#ifdef HAVE_VMATH
    return have_avx2_fma();
#else
    return false;
#endif
}

#ifdef HAVE_VMATH
typedef struct map_job {
    nn_vfn f;
    float *y;
    const float *x;
    const float *rx; /* softmax: rows */
    int64_t n;
    bool is_log;
} map_job;

/* Chunks are multiples of 8 elements (the grain is), so only the last one
   has a partial vector, exactly where ATen's has it. */
static void map_chunk(void *vctx, int64_t begin, int64_t end)
{
    const map_job *j = vctx;
    map_range(vec_fns[j->f], j->y + begin, j->x + begin, end - begin);
}

static void softmax_chunk(void *vctx, int64_t begin, int64_t end)
{
    const map_job *j = vctx;
    for (int64_t r = begin; r < end; r++) softmax_row(j->rx + r * j->n, j->y + r * j->n, j->n, j->is_log);
}

typedef struct act_job {
    nn_vact k;
    float *y;
    const float *x, *x2; /* x2: the second operand of the gradients (the input), else NULL */
    float p[3];
    double e; /* pow's exponent */
    int64_t row;
    bool vec;
} act_job;

/* A thread's range: the inner loop restarts at each row */
static void act_chunk(void *vctx, int64_t begin, int64_t end)
{
    const act_job *j = vctx;
    for (int64_t s = begin, e; s < end; s = e) {
        e = (s / j->row + 1) * j->row;
        if (e > end) e = end;
        act_range(j->k, j->y + s, j->x + s, j->x2 ? j->x2 + s : NULL, e - s, j->p, j->e, j->vec);
    }
}
#endif

/* Elements per chunk of an elementwise map: ATen's grain (2048) would wake the
   pool for every small tensor; a few thousand keep the wake-up cost under the
   work. A multiple of 8. */
#define MAP_GRAIN 8192

bool nn_vmath_map_f32(nn_vfn f, float *y, const float *x, int64_t n)
{
#ifdef HAVE_VMATH
    if (!have_avx2_fma() || (int)f < 0 || (int)f >= NN_VFN_COUNT) return false;
    map_job j = {.f = f, .y = y, .x = x};
    nn_parallel_for(n, MAP_GRAIN, map_chunk, &j);
    return true;
#else
    (void)f, (void)y, (void)x, (void)n;
    return false;
#endif
}

bool nn_vmath_map_f32_vec16(nn_vfn f, float *y, const float *x, int64_t n)
{
    return nn_vmath_map_f32(f, y, x, n & ~(int64_t)15);
}

bool nn_vmath_softmax_lastdim_f32(const float *x, float *y, int64_t rows, int64_t n, bool is_log)
{
#ifdef HAVE_VMATH
    if (!have_avx2_fma() || n < 1) return false;
    map_job j = {.y = y, .rx = x, .n = n, .is_log = is_log};
    int64_t grain = n < NN_GRAIN ? NN_GRAIN / n : 1;
    nn_parallel_for(rows, grain, softmax_chunk, &j);
    return true;
#else
    (void)x, (void)y, (void)rows, (void)n, (void)is_log;
    return false;
#endif
}

static bool act_run(nn_vact k, float *y, const float *x, const float *x2, int64_t n, int64_t row, const float p[3],
                    double e, bool vec)
{
#ifdef HAVE_VMATH
    if (!have_avx2_fma() || (int)k < 0 || (int)k >= NN_VACT_COUNT || n < 1) return false;
    act_job j = {.k = k, .y = y, .x = x, .x2 = x2, .e = e, .row = row > 0 ? row : n, .vec = vec};
    if (p) memcpy(j.p, p, sizeof j.p);
    /* TensorIterator::for_each: one range below the grain or on one thread,
       else at::parallel_for's min(T, ceil(n / grain)) ranges of ceil(n / ranges);
       gelu's forward passes the grain n / T above 16384 elements: T ranges */
    int64_t t = nn_get_num_threads();
    bool gelu = k == NN_VACT_GELU_TANH && n > 16384 && t > 1;
    nn_parallel_for(n, gelu ? (n + t - 1) / t : nn_aten_range_length(n), act_chunk, &j);
    return true;
#else
    (void)k, (void)y, (void)x, (void)x2, (void)n, (void)row, (void)p, (void)e, (void)vec;
    return false;
#endif
}

bool nn_vmath_act_f32(nn_vact k, float *y, const float *x, int64_t n, int64_t row, const float p[3], bool vec)
{
    return k != NN_VACT_POW && k < NN_VACT_SILU_GRAD && act_run(k, y, x, NULL, n, row, p, 0, vec);
}

bool nn_vmath_act_grad_f32(nn_vact k, float *y, const float *g, const float *x, int64_t n, bool vec)
{
    return k >= NN_VACT_SILU_GRAD && act_run(k, y, g, x, n, 0, NULL, 0, vec);
}

bool nn_vmath_pow_f32(float *y, const float *x, int64_t n, double e)
{
    const float p[3] = {(float)e, 0, 0};
    return act_run(NN_VACT_POW, y, x, NULL, n, 0, p, e, true);
}
