/*
 * cpu/vmath_f64.c — float64 exp, log, tanh and sigmoid as PyTorch 1.13 computes
 * them on an AVX2 CPU (nn_vmath.h): exp, log and tanh are ATen's vml kernels,
 * vec::map of Vectorized<double> (SLEEF's 4-wide u10 functions) over every
 * element, a last partial vector padded; sigmoid is cpu_kernel_vec, the
 * vectorized formula (1 + (0 - x).exp()).reciprocal() on each run's multiples
 * of 8 elements and the scalar 1 / (1 + std::exp(-x)) on the rest; sinh and cosh
 * the same way; and lgamma (SLEEF's, float32 and float64, on every element). Without
 * AVX2 and FMA every entry returns false and the caller computes with libm.
 */
#include <math.h>
#include <string.h>

#include "nn_cpu.h"
#include "nn_vmath.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#ifdef __clang__
/* as in vmath.c: clang ignores GCC's target pragma, so each function below gets
   the attribute, and sleef.h is shown __AVX__ while it is read (the Makefile
   also compiles this file with -mavx2 -mfma under clang) */
#include <immintrin.h>
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#ifndef __AVX__
#define __AVX__ 1
#define VMATH_F64_SHOWED_AVX
#endif
#include <sleef.h>
#ifdef VMATH_F64_SHOWED_AVX
#undef __AVX__
#endif
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#include <immintrin.h>
#include <sleef.h>
#endif

typedef __typeof__(&Sleef_expd4_u10avx2) vec_fn_d;

static inline __m256d load_part_d(const double *p, int64_t count)
{
    double buf[4] = {0};
    memcpy(buf, p, (size_t)count * sizeof(double));
    return _mm256_loadu_pd(buf);
}

static void map_d(vec_fn_d f, double *y, const double *x, int64_t n)
{
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) _mm256_storeu_pd(y + i, f(_mm256_loadu_pd(x + i)));
    if (i < n) {
        double buf[4];
        _mm256_storeu_pd(buf, f(load_part_d(x + i, n - i)));
        memcpy(y + i, buf, (size_t)(n - i) * sizeof(double));
    }
}

static inline __m256d sigmoid_vec(__m256d x)
{
    __m256d e = Sleef_expd4_u10avx2(_mm256_sub_pd(_mm256_setzero_pd(), x));
    return _mm256_div_pd(_mm256_set1_pd(1.0), _mm256_add_pd(_mm256_set1_pd(1.0), e));
}

/* one run of cpu_kernel_vec's loop: two vectors at a time, then the scalar formula */
static void sigmoid_run(double *y, const double *x, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        _mm256_storeu_pd(y + i, sigmoid_vec(_mm256_loadu_pd(x + i)));
        _mm256_storeu_pd(y + i + 4, sigmoid_vec(_mm256_loadu_pd(x + i + 4)));
    }
    for (; i < n; i++) y[i] = 1.0 / (1.0 + exp(-x[i]));
}

/* sinh, cosh: cpu_kernel_vec's runs, Sleef on pairs of vectors and libm on the rest */
static void hyper_run(bool is_sinh, double *y, const double *x, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256d a = _mm256_loadu_pd(x + i), b = _mm256_loadu_pd(x + i + 4);
        _mm256_storeu_pd(y + i, is_sinh ? Sleef_sinhd4_u10avx2(a) : Sleef_coshd4_u10avx2(a));
        _mm256_storeu_pd(y + i + 4, is_sinh ? Sleef_sinhd4_u10avx2(b) : Sleef_coshd4_u10avx2(b));
    }
    for (; i < n; i++) y[i] = is_sinh ? sinh(x[i]) : cosh(x[i]);
}

/* lgamma is a vml kernel: Vectorized<T>::lgamma (SLEEF's u10 lgamma) mapped over every element */
static void lgamma_vec_f32(float *y, const float *x, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, Sleef_lgammaf8_u10avx2(_mm256_loadu_ps(x + i)));
    if (i < n) { /* the last partial vector, padded with zeros as vec::map loads it */
        float in[8] = {0}, out[8];
        memcpy(in, x + i, (size_t)(n - i) * sizeof(float));
        _mm256_storeu_ps(out, Sleef_lgammaf8_u10avx2(_mm256_loadu_ps(in)));
        memcpy(y + i, out, (size_t)(n - i) * sizeof(float));
    }
}

static void lgamma_vec_f64(double *y, const double *x, int64_t n) { map_d(Sleef_lgammad4_u10avx2, y, x, n); }

/* Vectorized<c10::complex<float|double>>: exp, exp(a) * (cos(b), sin(b)) with Sleef's exp
   and sincos (NN_VCX_EXP1: + 1, which GCC fused into the product in ATen's sigmoid:
   fma(exp(a), (cos(b), sin(b)), (1, 0))), and angle, (atan2(b, a), 0) with Sleef's atan2 */
static __m256 cvec_f32(nn_vcx k, __m256 v)
{
    if (k == NN_VCX_ANGLE) {
        __m256 at = _mm256_permute_ps(Sleef_atan2f8_u10avx2(v, _mm256_permute_ps(v, 0xB1)), 0xB1);
        return _mm256_blend_ps(at, _mm256_setzero_ps(), 0xAA);
    }
    __m256 e = Sleef_expf8_u10avx2(v);                        /* exp(a) exp(b) */
    e = _mm256_blend_ps(e, _mm256_permute_ps(e, 0xB1), 0xAA); /* exp(a) exp(a) */
    Sleef___m256_2 sc = Sleef_sincosf8_u10avx2(v);
    __m256 cs = _mm256_blend_ps(_mm256_permute_ps(sc.y, 0xB1), sc.x, 0xAA); /* cos(b) sin(b) */
    if (k == NN_VCX_EXP1) return _mm256_fmadd_ps(e, cs, _mm256_setr_ps(1, 0, 1, 0, 1, 0, 1, 0));
    return _mm256_mul_ps(e, cs);
}

static __m256d cvec_f64(nn_vcx k, __m256d v)
{
    if (k == NN_VCX_ANGLE) {
        __m256d at = _mm256_permute_pd(Sleef_atan2d4_u10avx2(v, _mm256_permute_pd(v, 0x05)), 0x05);
        return _mm256_blend_pd(at, _mm256_setzero_pd(), 0x0A);
    }
    __m256d e = Sleef_expd4_u10avx2(v);
    e = _mm256_blend_pd(e, _mm256_permute_pd(e, 0x05), 0x0A);
    Sleef___m256d_2 sc = Sleef_sincosd4_u10avx2(v);
    __m256d cs = _mm256_blend_pd(_mm256_permute_pd(sc.y, 0x05), sc.x, 0x0A);
    if (k == NN_VCX_EXP1) return _mm256_fmadd_pd(e, cs, _mm256_setr_pd(1, 0, 1, 0));
    return _mm256_mul_pd(e, cs);
}

static void cvec_run(nn_vcx k, bool f64, void *y, const void *x, int64_t n)
{
    int64_t parts = 2 * n, i = 0, lanes = f64 ? 4 : 8;
    size_t size = f64 ? sizeof(double) : sizeof(float);
    for (; i + lanes <= parts; i += lanes) {
        if (f64) _mm256_storeu_pd((double *)y + i, cvec_f64(k, _mm256_loadu_pd((const double *)x + i)));
        else _mm256_storeu_ps((float *)y + i, cvec_f32(k, _mm256_loadu_ps((const float *)x + i)));
    }
    if (i < parts) { /* a last partial vector, padded with zeros */
        char in[32] = {0}, out[32];
        memcpy(in, (const char *)x + (size_t)i * size, (size_t)(parts - i) * size);
        if (f64) _mm256_storeu_pd((double *)out, cvec_f64(k, _mm256_loadu_pd((const double *)in)));
        else _mm256_storeu_ps((float *)out, cvec_f32(k, _mm256_loadu_ps((const float *)in)));
        memcpy((char *)y + (size_t)i * size, out, (size_t)(parts - i) * size);
    }
}

#ifdef __clang__
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

static bool have_avx2_fma(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

/* Vectorized<double>'s SLEEF function of each nn_vfn that ATen's vml kernels map over
   every element (sinh and cosh are cpu_kernel_vec kernels: not here) */
static const vec_fn_d vec_fns_d[NN_VFN_COUNT] = {
    [NN_VFN_SIN] = Sleef_sind4_u10avx2,     [NN_VFN_COS] = Sleef_cosd4_u10avx2,
    [NN_VFN_TAN] = Sleef_tand4_u10avx2,     [NN_VFN_ASIN] = Sleef_asind4_u10avx2,
    [NN_VFN_ACOS] = Sleef_acosd4_u10avx2,   [NN_VFN_ATAN] = Sleef_atand4_u10avx2,
    [NN_VFN_TANH] = Sleef_tanhd4_u10avx2,   [NN_VFN_EXP] = Sleef_expd4_u10avx2,
    [NN_VFN_EXPM1] = Sleef_expm1d4_u10avx2, [NN_VFN_LOG] = Sleef_logd4_u10avx2,
    [NN_VFN_LOG2] = Sleef_log2d4_u10avx2,   [NN_VFN_LOG10] = Sleef_log10d4_u10avx2,
    [NN_VFN_LOG1P] = Sleef_log1pd4_u10avx2, [NN_VFN_ERF] = Sleef_erfd4_u10avx2,
    [NN_VFN_ERFC] = Sleef_erfcd4_u15avx2,
};

bool nn_vmath_map_f64(nn_vfn f, double *y, const double *x, int64_t n)
{
    vec_fn_d fn = f >= 0 && f < NN_VFN_COUNT ? vec_fns_d[f] : NULL;
    if (!fn || !have_avx2_fma()) return false;
    map_d(fn, y, x, n);
    return true;
}

bool nn_vmath_sigmoid_f64(double *y, const double *x, int64_t n, int64_t row)
{
    if (!have_avx2_fma()) return false;
    if (row <= 0 || row > n) row = n;
    for (int64_t i = 0; i < n; i += row) sigmoid_run(y + i, x + i, n - i < row ? n - i : row);
    return true;
}

bool nn_vmath_hyper_f64(bool is_sinh, double *y, const double *x, int64_t n, int64_t row)
{
    if (!have_avx2_fma()) return false;
    if (row <= 0 || row > n) row = n;
    for (int64_t i = 0; i < n; i += row) hyper_run(is_sinh, y + i, x + i, n - i < row ? n - i : row);
    return true;
}

int64_t nn_vmath_lgamma_vec(bool f64, void *y, const void *x, int64_t n)
{
    if (!have_avx2_fma()) return 0;
    if (f64) lgamma_vec_f64(y, x, n);
    else lgamma_vec_f32(y, x, n);
    return n;
}

int64_t nn_vmath_complex(nn_vcx k, bool f64, void *y, const void *x, int64_t n)
{
    if (!have_avx2_fma()) return 0;
    cvec_run(k, f64, y, x, n);
    return n;
}

#else
bool nn_vmath_hyper_f64(bool is_sinh, double *y, const double *x, int64_t n, int64_t row) { return false; }
int64_t nn_vmath_lgamma_vec(bool f64, void *y, const void *x, int64_t n) { return 0; }
int64_t nn_vmath_complex(nn_vcx k, bool f64, void *y, const void *x, int64_t n) { return 0; }
bool nn_vmath_map_f64(nn_vfn f, double *y, const double *x, int64_t n) { return false; }
bool nn_vmath_sigmoid_f64(double *y, const double *x, int64_t n, int64_t row) { return false; }
#endif
