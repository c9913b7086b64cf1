/*
 * seq_sum.c — a left-to-right double sum of squared deviations, bit for bit
 * as the plain loop `acc += (x[i] - mean) * (x[i] - mean)` rounds it, without
 * waiting on each addition: std_var_all_cpu's loop in PyTorch 1.13, which
 * var/std of a whole float32 tensor reproduce (cpu/sum_iter.c).
 *
 * The plain loop is one chain of dependent additions (3-4 cycles each). The
 * same value, a group of terms at a time where that is exact:
 *  - while the running sum stays in one binade [2^(e-1), 2^e), every rounded
 *    sum is a multiple of u = 2^(e-53), and s + t rounds to s + round(t / u) u
 *    unless t / u is halfway between two integers (a tie, which alone would
 *    depend on s: to even);
 *  - the rounded terms are multiples of u, so they add up exactly, in any
 *    order, while their sum stays below 2^53 u;
 *  - the terms are never negative, so the running sum only grows: if a
 *    group's last sum is still below 2^e, every sum in it was.
 * A group of GROUP terms that meets these (no tie, no NaN or infinity, the sum
 * below the binade's end) is added at once; a group that does not runs the
 * plain loop, and the next group starts on the new sum's grid. On typical data
 * a few groups per binade (and the first terms, while the sum is small) do.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "cpu/nn_vmath.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_FMA_KERNEL 1
#endif

#define GROUP 32

/* A term t rounded to the grid of u: r = (t + 2^(e-1)) - 2^(e-1) while
   t < 2^(e-1); a larger, infinite or NaN t gives r >= 2^(e-1) or NaN, more
   than any room left. A tie leaves t - r = +-u/2 (|t - r| <= u/2 always);
   (t - r)^2 is then u^2/4 exactly, and a product that rounds up to u^2/4
   only sends its group to the plain loop. */
typedef struct grid {
    double mean;
    double half_top; /* 2^(e-1) */
    double half_u;   /* u / 2 */
    double tie_sq;   /* u^2 / 4 */
    double room;     /* 2^e - the running sum: what the group's sum must stay below */
} grid;

/* GCC/Clang vector extensions: 4 doubles a vector (two SSE2 registers on a
   plain x86-64 build) */
typedef double v4d __attribute__((vector_size(32)));
typedef float v4f __attribute__((vector_size(16)));
typedef long long v4i __attribute__((vector_size(32)));

/* The groups of x[0..n) from the first, while none holds a tie and their sum
   stays below the room: returns how many terms they hold, their sum (exact)
   in *total. */
static int64_t groups_on_grid(const float *x, int64_t n, const grid *g, double *total)
{
    v4d sum = {0};
    int64_t i = 0;
    for (; i + GROUP <= n; i += GROUP) {
        v4d next = sum;
        v4i tie = {0};
        for (int k = 0; k < GROUP; k += 4) {
            v4f a;
            memcpy(&a, x + i + k, sizeof a);
            v4d t = __builtin_convertvector(a, v4d) - g->mean;
            t = t * t;
            v4d r = (t + g->half_top) - g->half_top, d = t - r;
            tie |= d * d == g->tie_sq;
            next += r;
        }
        if ((tie[0] | tie[1] | tie[2] | tie[3]) || !((next[0] + next[1]) + (next[2] + next[3]) < g->room)) break;
        sum = next;
    }
    *total = (sum[0] + sum[1]) + (sum[2] + sum[3]);
    return i;
}

#ifdef HAVE_FMA_KERNEL
/* The same with AVX2 and FMA. Two of the subtractions run as fma(a, 1, -b)
   (a * 1 is exact and the one rounding is the subtraction's: the same value)
   to share the work between the adder and multiplier units; the group's
   terms are summed as a tree; a tie shows as max |t - r| = u/2. */
__attribute__((target("avx2,fma"))) static int64_t groups_on_grid_fma(const float *x, int64_t n, const grid *g,
                                                                      double *total)
{
    const __m256d one = _mm256_set1_pd(1.0), mean = _mm256_set1_pd(g->mean), half_top = _mm256_set1_pd(g->half_top),
                  half_u = _mm256_set1_pd(g->half_u), abs_mask = _mm256_castsi256_pd(_mm256_set1_epi64x(INT64_MAX));
    __m256d sum = _mm256_setzero_pd();
    double lanes[4];
    int64_t i = 0;
    for (; i + GROUP <= n; i += GROUP) {
        __m256d r[GROUP / 4], far = _mm256_setzero_pd();
#pragma GCC unroll 8
        for (int k = 0; k < GROUP / 4; k++) {
            __m256d t = _mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(x + i + 4 * k)), mean);
            t = _mm256_mul_pd(t, t);
            r[k] = _mm256_fmsub_pd(_mm256_add_pd(t, half_top), one, half_top);
            far = _mm256_max_pd(far, _mm256_and_pd(_mm256_fnmadd_pd(r[k], one, t), abs_mask));
        }
        __m256d next = _mm256_add_pd(sum, _mm256_add_pd(_mm256_add_pd(_mm256_add_pd(r[0], r[1]), _mm256_add_pd(r[2], r[3])),
                                                        _mm256_add_pd(_mm256_add_pd(r[4], r[5]), _mm256_add_pd(r[6], r[7]))));
        _mm256_storeu_pd(lanes, next);
        if (_mm256_movemask_pd(_mm256_cmp_pd(far, half_u, _CMP_EQ_OQ)) ||
            !((lanes[0] + lanes[1]) + (lanes[2] + lanes[3]) < g->room))
            break;
        sum = next;
    }
    _mm256_storeu_pd(lanes, sum);
    *total = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
    return i;
}
_Static_assert(GROUP == 32, "groups_on_grid_fma's tree adds 8 vectors");
#endif

static int64_t on_grid(const float *x, int64_t n, const grid *g, double *total)
{
#ifdef HAVE_FMA_KERNEL
    static int fma = -1; /* a benign race: every thread finds the same */
    if (fma < 0) {
        __builtin_cpu_init();
        fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    }
    if (fma) return groups_on_grid_fma(x, n, g, total);
#endif
    return groups_on_grid(x, n, g, total);
}

double nn_cpu_seq_sq_dev_f32(const float *x, int64_t n, double mean, double acc)
{
    int64_t i = 0;
    while (i < n) {
        /* acc's binade, when acc is a positive normal number far from both ends
           (u^2 / 4 is then a normal number too), and doubles round as doubles */
        if (FLT_EVAL_METHOD == 0 && n - i >= GROUP && acc >= 0x1p-400 && acc < 0x1p900) {
            int e;
            frexp(acc, &e);
            grid g = {mean, ldexp(1.0, e - 1), ldexp(1.0, e - 54), ldexp(1.0, 2 * (e - 54)), ldexp(1.0, e) - acc};
            double total;
            i += on_grid(x + i, n - i, &g, &total);
            acc += total; /* exact: a multiple of u below 2^e */
        }
        /* the group with a tie or the binade's end, or the last terms: the plain loop */
        int64_t end = n - i < GROUP ? n : i + GROUP;
        for (; i < end; i++) {
            double dx = (double)x[i] - mean;
            acc += dx * dx;
        }
    }
    return acc;
}
