/*
 * cpu/vmath_f64.c — float64 exp, log, tanh and sigmoid as PyTorch 1.13 computes
 * them on an AVX2 CPU (nn_vmath.h): exp, log and tanh are ATen's vml kernels,
 * vec::map of Vectorized<double> (SLEEF's 4-wide u10 functions) over every
 * element, a last partial vector padded; sigmoid is cpu_kernel_vec, the
 * vectorized formula (1 + (0 - x).exp()).reciprocal() on each run's multiples
 * of 8 elements and the scalar 1 / (1 + std::exp(-x)) on the rest. Without
 * AVX2 and FMA every entry returns false and the caller computes with libm.
 */
#include <math.h>
#include <string.h>

#include "nn_cpu.h"
#include "nn_vmath.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#include <immintrin.h>
#include <sleef.h>

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

#pragma GCC pop_options

static bool have_avx2_fma(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

bool nn_vmath_map_f64(nn_vfn f, double *y, const double *x, int64_t n)
{
    vec_fn_d fn = f == NN_VFN_EXP ? Sleef_expd4_u10avx2 : f == NN_VFN_LOG ? Sleef_logd4_u10avx2
                  : f == NN_VFN_TANH ? Sleef_tanhd4_u10avx2 : NULL;
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

#else
bool nn_vmath_map_f64(nn_vfn f, double *y, const double *x, int64_t n) { return false; }
bool nn_vmath_sigmoid_f64(double *y, const double *x, int64_t n, int64_t row) { return false; }
#endif
