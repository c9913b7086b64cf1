/*
 * sum.c — the sum of all elements of a contiguous float32 or float64 array in
 * the order PyTorch 1.13's CPU kernel adds them (ATen's cascade_sum, AVX2
 * build), so that torch.sum / torch.mean of a whole tensor carry its bits.
 *
 * That order, for one range of n elements (vectorized_inner_sum):
 *  - the range is read as vectors of L lanes (8 floats, 4 doubles), the
 *    vectors as rows of 4 (row_sum's instruction-level parallelism); each of
 *    the 4 columns accumulates its rows in a cascade of 4 levels
 *    (multi_row_sum): level 0 takes 2^p rows (p = max(4, ceil_log2(rows) / 4)),
 *    then is added into level 1, level 1 into 2 every 2^p of those, and so on;
 *  - the rows left over (fewer than 4 vectors) go into column 0, then columns
 *    1..3 are added to column 0;
 *  - the last n % L elements are added in order to a scalar 0, then the L
 *    lanes of column 0 in lane order, and the output (0) gets that total.
 *  A range of fewer than L elements is summed the same way with L = 1.
 * Across threads (two_pass_reduction, when n >= 32768 and the thread budget T
 * is above 1): min(T, ceil(n / 32768)) ranges of ceil(n / that) elements, each
 * summed as above into a buffer of T zeros, then the buffer summed as a range.
 * The result therefore depends on the thread budget, as PyTorch's does on
 * torch.get_num_threads(): nnscope's budget (nn_set_num_threads) plays that part.
 * Lanes are plain arrays the compiler vectorizes: the order of the adds is
 * the one above whatever instructions carry them.
 */
#include <string.h>

#include "cpu/nn_vmath.h"
#include "nn_parallel.h"

#if defined(__GNUC__) && !defined(__clang__) && (defined(__x86_64__) || defined(__i386__))
#define WIDE __attribute__((target_clones("avx2", "default"), optimize("O3")))
#else
#define WIDE
#endif

/* ATen's CeilLog2 */
static int64_t ceil_log2(int64_t x)
{
    if (x <= 2) return 1;
    return 64 - __builtin_clzll((unsigned long long)(x - 1));
}

/* One precision T with vectors of L lanes: cascade_T_L(x, rows, out) is
   multi_row_sum over `rows` rows of 4 vectors (4 * L elements a row) followed
   by row_sum's leftover rows and column fold, out getting the L lanes;
   range_T sums a range as vectorized_inner_sum (or as scalars when short). */
typedef float v8f __attribute__((vector_size(32)));
typedef double v4d __attribute__((vector_size(32)));

/* One vector V of L lanes of T (V is T itself when L is 1), read unaligned. */
#define LOADV(V, p) ({ V v_; memcpy(&v_, (p), sizeof v_); v_; })

#define DEFINE_CASCADE(T, V, L, NAME)                                                                \
    WIDE static void NAME(const T *x, int64_t nvec, T out[L])                                        \
    {                                                                                                \
        int64_t size = nvec / 4;                                                                     \
        int64_t power = ceil_log2(size) / 4;                                                         \
        if (power < 4) power = 4;                                                                    \
        const int64_t step = (int64_t)1 << power, mask = step - 1;                                   \
        V acc[4][4]; /* [level][column] */                                                           \
        memset(acc, 0, sizeof acc);                                                                  \
        int64_t i = 0;                                                                               \
        while (i + step <= size) {                                                                   \
            V a0 = acc[0][0], a1 = acc[0][1], a2 = acc[0][2], a3 = acc[0][3];                        \
            for (int64_t j = 0; j < step; j++, i++) {                                                \
                const T *r = x + i * 4 * L;                                                          \
                a0 += LOADV(V, r), a1 += LOADV(V, r + L), a2 += LOADV(V, r + 2 * L);                 \
                a3 += LOADV(V, r + 3 * L);                                                           \
            }                                                                                        \
            acc[0][0] = a0, acc[0][1] = a1, acc[0][2] = a2, acc[0][3] = a3;                          \
            for (int j = 1; j < 4; j++) {                                                            \
                for (int k = 0; k < 4; k++) {                                                        \
                    acc[j][k] += acc[j - 1][k];                                                      \
                    acc[j - 1][k] -= acc[j - 1][k]; /* zero, in V's own type */                      \
                }                                                                                    \
                if ((i & (mask << (j * power))) != 0) break;                                         \
            }                                                                                        \
        }                                                                                            \
        for (; i < size; i++) {                                                                      \
            const T *r = x + i * 4 * L;                                                              \
            for (int k = 0; k < 4; k++) acc[0][k] += LOADV(V, r + k * L);                            \
        }                                                                                            \
        for (int j = 1; j < 4; j++)                                                                  \
            for (int k = 0; k < 4; k++) acc[0][k] += acc[j][k];                                      \
        /* row_sum: the vectors after the last full row into column 0, then the columns */          \
        for (int64_t v = size * 4; v < nvec; v++) acc[0][0] += LOADV(V, x + v * L);                  \
        for (int k = 1; k < 4; k++) acc[0][0] += acc[0][k];                                          \
        memcpy(out, &acc[0][0], sizeof(V));                                                          \
    }

DEFINE_CASCADE(float, v8f, 8, cascade_f32_8)
DEFINE_CASCADE(float, float, 1, cascade_f32_1)
DEFINE_CASCADE(double, v4d, 4, cascade_f64_4)
DEFINE_CASCADE(double, double, 1, cascade_f64_1)

#define DEFINE_RANGE(T, L, NAME, VEC, ONE)                                                           \
    static T NAME(const T *x, int64_t n)                                                             \
    {                                                                                                \
        T lanes[L], total = 0;                                                                       \
        if (n < L) {                                                                                 \
            ONE(x, n, lanes);                                                                        \
            return (T)0 + lanes[0];                                                                  \
        }                                                                                            \
        int64_t nvec = n / L;                                                                        \
        VEC(x, nvec, lanes);                                                                         \
        for (int64_t k = nvec * L; k < n; k++) total += x[k];                                        \
        for (int l = 0; l < L; l++) total += lanes[l];                                               \
        return (T)0 + total;                                                                         \
    }

DEFINE_RANGE(float, 8, range_f32, cascade_f32_8, cascade_f32_1)
DEFINE_RANGE(double, 4, range_f64, cascade_f64_4, cascade_f64_1)

typedef struct rows_job {
    const float *x;
    float *out;
    int64_t n;
    float divisor;
} rows_job;

static void rows_chunk(void *vctx, int64_t begin, int64_t end)
{
    const rows_job *j = vctx;
    for (int64_t r = begin; r < end; r++) {
        float s = range_f32(j->x + r * j->n, j->n);
        j->out[r] = j->divisor == 1.0f ? s : s / j->divisor;
    }
}

void nn_cpu_sum_rows_f32(const float *x, int64_t rows, int64_t n, float divisor, float *out)
{
    rows_job j = {x, out, n, divisor};
    int64_t grain = n > 0 && n < NN_GRAIN ? NN_GRAIN / n : 1;
    nn_parallel_for(rows, grain, rows_chunk, &j);
}

typedef struct sum_all_job {
    const void *x;
    bool f64;
    void *partial; /* one range sum per chunk */
    int64_t chunk;
} sum_all_job;

static void sum_all_chunk(void *vctx, int64_t begin, int64_t end)
{
    const sum_all_job *j = vctx;
    int64_t c = begin / j->chunk;
    if (j->f64)
        ((double *)j->partial)[c] = range_f64((const double *)j->x + begin, end - begin);
    else
        ((float *)j->partial)[c] = range_f32((const float *)j->x + begin, end - begin);
}

#define MAX_PARTIALS NN_MAX_THREADS

#define DEFINE_SUM_ALL(T, NAME, RANGE, F64)                                                          \
    T NAME(const T *x, int64_t n)                                                                    \
    {                                                                                                \
        int threads = nn_get_num_threads();                                                          \
        if (threads > MAX_PARTIALS) threads = MAX_PARTIALS;                                          \
        if (n < NN_GRAIN || threads == 1) return RANGE(x, n);                                        \
        T partial[MAX_PARTIALS] = {0};                                                               \
        sum_all_job j = {x, F64, partial, nn_aten_range_length(n)};                                  \
        nn_parallel_for(n, j.chunk, sum_all_chunk, &j);                                              \
        return RANGE(partial, threads);                                                              \
    }

DEFINE_SUM_ALL(float, nn_cpu_sum_all_f32, range_f32, false)
DEFINE_SUM_ALL(double, nn_cpu_sum_all_f64, range_f64, true)
