/*
 * var_bound.c — var/std of a whole contiguous float32 tensor without the
 * sequential double sum, when a bound proves which float it gives.
 *
 * PyTorch 1.13's std_var_all_cpu adds (x - mean)^2 in double, one term after
 * another (cpu/seq_sum.c reproduces that sum bit for bit, about 1 cycle a
 * term), then returns (float)sqrt(sum / dof) or (float)(sum / dof). The
 * result has 24 bits; the sum 53. So:
 *  - S, the same terms summed in any order (here 16 accumulators of fused
 *    multiply-adds, about 0.25 cycle a term), differs from the sequential sum
 *    by at most B = S (4n + 256) 2^-53 (the two summations' error bounds,
 *    gamma_{n-1} and gamma_{n/16 + 4} for terms that are never negative, the
 *    terms' own rounding, and a factor of two to spare; n 2^-1070 more for
 *    underflow);
 *  - the result is a non-decreasing function of the sum (each of /, sqrt and
 *    the conversion to float rounds monotonically);
 * hence when S - B and S + B give the same float, the sequential sum gives it
 * too. They differ about once in 10^4 tensors (when the result lies within
 * ~1e-11 of a float's rounding boundary); the caller then runs the exact sum.
 * NaN, infinities and overflow also go to the caller.
 */
#include <math.h>
#include <string.h>

#include "cpu/nn_vmath.h"
#include "nn_parallel.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_FMA_KERNEL 1
#endif

/* The sum of (x[i] - mean)^2 over i < n in no set order. */
static double sq_dev_any_order(const float *x, int64_t n, double mean)
{
    double acc[8] = {0};
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        for (int l = 0; l < 8; l++) {
            double dx = (double)x[i + l] - mean;
            acc[l] += dx * dx;
        }
    for (; i < n; i++) {
        double dx = (double)x[i] - mean;
        acc[0] += dx * dx;
    }
    return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
}

#ifdef HAVE_FMA_KERNEL
__attribute__((target("avx2,fma"))) static double sq_dev_any_order_fma(const float *x, int64_t n, double mean)
{
    const __m256d m = _mm256_set1_pd(mean);
    __m256d a0 = _mm256_setzero_pd(), a1 = a0, a2 = a0, a3 = a0;
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m256d d0 = _mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(x + i)), m);
        __m256d d1 = _mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(x + i + 4)), m);
        __m256d d2 = _mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(x + i + 8)), m);
        __m256d d3 = _mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(x + i + 12)), m);
        a0 = _mm256_fmadd_pd(d0, d0, a0);
        a1 = _mm256_fmadd_pd(d1, d1, a1);
        a2 = _mm256_fmadd_pd(d2, d2, a2);
        a3 = _mm256_fmadd_pd(d3, d3, a3);
    }
    double lanes[4];
    _mm256_storeu_pd(lanes, _mm256_add_pd(_mm256_add_pd(a0, a1), _mm256_add_pd(a2, a3)));
    double s = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
    for (; i < n; i++) {
        double dx = (double)x[i] - mean;
        s += dx * dx;
    }
    return s;
}
#endif

static double sq_dev_estimate(const float *x, int64_t n, double mean)
{
#ifdef HAVE_FMA_KERNEL
    static int fma = -1; /* a benign race: every thread finds the same */
    if (fma < 0) {
        __builtin_cpu_init();
        fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    }
    if (fma) return sq_dev_any_order_fma(x, n, mean);
#endif
    return sq_dev_any_order(x, n, mean);
}

/* Large tensors: chunks of CHUNK_MIN elements or more, at most MAX_CHUNKS of them,
   one partial each (their order does not matter: the bound covers any order). */
#define CHUNK_MIN 65536
#define MAX_CHUNKS 64

typedef struct est_job {
    const float *x;
    int64_t n, chunk;
    double mean;
    double partial[MAX_CHUNKS];
} est_job;

static void est_chunk(void *ctx, int64_t begin, int64_t end)
{
    est_job *j = ctx;
    j->partial[begin / j->chunk] = sq_dev_estimate(j->x + begin, end - begin, j->mean);
}

static float result_of(double sum, double dof, bool take_sqrt)
{
    double var = sum / dof;
    return (float)(take_sqrt ? sqrt(var) : var);
}

bool nn_cpu_var_all_f32_bounded(const float *x, int64_t n, double mean, double dof, bool take_sqrt, float *out)
{
    if (!(dof > 0) || n <= 0 || !isfinite(mean)) return false;
    double s;
    if (n <= CHUNK_MIN) {
        s = sq_dev_estimate(x, n, mean);
    } else {
        est_job j = {.x = x, .n = n, .mean = mean};
        j.chunk = (n + MAX_CHUNKS - 1) / MAX_CHUNKS;
        if (j.chunk < CHUNK_MIN) j.chunk = CHUNK_MIN;
        int64_t chunks = nn_chunk_count(n, j.chunk);
        nn_parallel_for(n, j.chunk, est_chunk, &j);
        s = 0;
        for (int64_t c = 0; c < chunks; c++) s += j.partial[c];
    }
    if (!isfinite(s)) return false;
    double bound = s * ((4.0 * (double)n + 256.0) * 0x1p-53) + (double)n * 0x1p-1070;
    double lo = s - bound, hi = s + bound;
    if (lo < 0) lo = 0; /* the sequential sum of squares is never negative */
    if (!isfinite(hi)) return false;
    float a = result_of(lo, dof, take_sqrt), b = result_of(hi, dof, take_sqrt);
    if (memcmp(&a, &b, sizeof a) != 0) return false;
    *out = a;
    return true;
}
