/*
 * norm_f32.c — float32 vector norms in the order and roundings of PyTorch
 * 1.13's CPU kernels (ReduceOpsKernel.cpp's norm_kernel_tensor_iterator_impl,
 * AVX2 build, compiled by GCC with floating-point contraction):
 *  - p = 2 over one contiguous innermost dim (is_reduce_lastdim): 8 lanes,
 *    each `acc = fma(x, x, acc)`; the lanes added in order into lane 0; the
 *    n % 8 tail elements then added in order, the first multiple of 4 of them
 *    as `acc + x * x` (GCC's 4-wide epilogue), the rest as fma; sqrtf;
 *  - every other p and layout (binary_kernel_reduce with NormTwoOps,
 *    NormOneOps, NormOps, AbsMaxOps, AbsMinOps, NormZeroOps): one float
 *    accumulator over the elements in memory order — p = 2 as fma(x, x, acc),
 *    p = 1 as acc + |x|, other p as acc + powf(|x|, p) — then sqrtf, or
 *    powf(acc, 1 / p) with 1 / p in float; inf / -inf the largest / smallest
 *    |x| (NaN propagates); 0 the count of nonzeros. A single output of
 *    32768 elements or more on T > 1 threads is cut into at::parallel_for's
 *    ranges, one accumulator each, combined in order from the identity.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "cpu/nn_vmath.h"
#include "nn_parallel.h"

/* The fmaf below is one instruction on a CPU with FMA and a slow exact libm
   routine without; both give the same bits. Each loop is compiled twice: for
   FMA, taken when the CPU has it (a run-time check: target_clones' "arch=haswell"
   would test the CPU model and leave AMD's on the slow one), and plain. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define HAVE_FMA_COPY 1
#define FMA_TARGET __attribute__((target("fma")))
static bool cpu_has_fma(void)
{
    static int known = -1; /* a benign race: every thread computes the same answer */
    if (known < 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("fma");
    }
    return known;
}
#endif
#define INLINE_BODY static inline __attribute__((always_inline))

INLINE_BODY float norm2_lastdim(const float *x, int64_t n)
{
    float acc[8] = {0};
    int64_t d = 0;
    for (; d + 8 <= n; d += 8)
        for (int l = 0; l < 8; l++) acc[l] = fmaf(x[d + l], x[d + l], acc[l]);
    float total = acc[0];
    for (int l = 1; l < 8; l++) total += acc[l];
    int64_t plain = d + (n - d) / 4 * 4;
    for (; d < plain; d++) {
        float sq = x[d] * x[d];
        total += sq;
    }
    for (; d < n; d++) total = fmaf(x[d], x[d], total);
    return sqrtf(total);
}

#ifdef HAVE_FMA_COPY
FMA_TARGET static float norm2_lastdim_fma(const float *x, int64_t n) { return norm2_lastdim(x, n); }
#endif

float nn_cpu_norm2_lastdim_f32(const float *x, int64_t n)
{
#ifdef HAVE_FMA_COPY
    if (cpu_has_fma()) return norm2_lastdim_fma(x, n);
#endif
    return norm2_lastdim(x, n);
}

typedef enum norm_kind { NORM_ZERO, NORM_ONE, NORM_TWO, NORM_MAX, NORM_MIN, NORM_P } norm_kind;

static norm_kind kind_of(double p)
{
    if (p == 0) return NORM_ZERO;
    if (p == 1) return NORM_ONE;
    if (p == 2) return NORM_TWO;
    if (isinf(p)) return p > 0 ? NORM_MAX : NORM_MIN;
    return NORM_P;
}

static float identity(norm_kind k) { return k == NORM_MIN ? INFINITY : 0.0f; }

/* The accumulator after x[0..n), starting from acc. */
INLINE_BODY float accumulate_body(norm_kind k, float p, const float *x, int64_t n, float acc)
{
    switch (k) {
    case NORM_ZERO:
        for (int64_t i = 0; i < n; i++) acc += x[i] == 0 ? 0.0f : 1.0f;
        break;
    case NORM_ONE:
        for (int64_t i = 0; i < n; i++) acc += fabsf(x[i]);
        break;
    case NORM_TWO:
        for (int64_t i = 0; i < n; i++) acc = fmaf(x[i], x[i], acc);
        break;
    case NORM_MAX: /* AbsMaxOps: max_propagate_nan */
        for (int64_t i = 0; i < n; i++) {
            float a = fabsf(x[i]);
            acc = isnan(acc) ? acc : isnan(a) ? a : (a > acc ? a : acc);
        }
        break;
    case NORM_MIN:
        for (int64_t i = 0; i < n; i++) {
            float a = fabsf(x[i]);
            acc = isnan(acc) ? acc : isnan(a) ? a : (a < acc ? a : acc);
        }
        break;
    case NORM_P:
        for (int64_t i = 0; i < n; i++) acc += powf(fabsf(x[i]), p);
        break;
    }
    return acc;
}

#ifdef HAVE_FMA_COPY
FMA_TARGET static float accumulate_fma(norm_kind k, float p, const float *x, int64_t n, float acc)
{
    return accumulate_body(k, p, x, n, acc);
}
#endif

static float accumulate(norm_kind k, float p, const float *x, int64_t n, float acc)
{
#ifdef HAVE_FMA_COPY
    if (cpu_has_fma()) return accumulate_fma(k, p, x, n, acc);
#endif
    return accumulate_body(k, p, x, n, acc);
}

static float combine(norm_kind k, float a, float b)
{
    switch (k) {
    case NORM_MAX: return isnan(a) ? a : isnan(b) ? b : (a > b ? a : b);
    case NORM_MIN: return isnan(a) ? a : isnan(b) ? b : (a < b ? a : b);
    default: return a + b;
    }
}

static float project(norm_kind k, float p, float acc)
{
    switch (k) {
    case NORM_TWO: return sqrtf(acc);
    case NORM_P: return powf(acc, 1.0f / p);
    default: return acc;
    }
}

typedef struct norm_job {
    norm_kind k;
    float p;
    const float *x;
    int64_t n, chunk;
    float *partial;
} norm_job;

static void norm_chunk(void *vctx, int64_t c, int64_t c_end)
{
    const norm_job *j = vctx;
    for (; c < c_end; c++) {
        int64_t b = c * j->chunk, e = b + j->chunk < j->n ? b + j->chunk : j->n;
        j->partial[c] = accumulate(j->k, j->p, j->x + b, e - b, identity(j->k));
    }
}

#define MAX_PARTIALS NN_MAX_THREADS

float nn_cpu_norm_seq_f32(const float *x, int64_t n, double p, bool single_output)
{
    norm_kind k = kind_of(p);
    float fp = (float)p;
    int threads = nn_get_num_threads();
    if (threads > MAX_PARTIALS) threads = MAX_PARTIALS;
    if (!single_output || n < NN_GRAIN || threads == 1) return project(k, fp, accumulate(k, fp, x, n, identity(k)));
    float partial[MAX_PARTIALS];
    for (int t = 0; t < threads; t++) partial[t] = identity(k);
    norm_job j = {k, fp, x, n, nn_aten_range_length(n), partial};
    nn_parallel_for(nn_chunk_count(n, j.chunk), 1, norm_chunk, &j);
    float total = identity(k);
    for (int i = 0; i < threads; i++) total = combine(k, total, partial[i]);
    return project(k, fp, total);
}
