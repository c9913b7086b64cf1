/*
 * cpu/reduce.c — the CPU's row reductions (kernels.def `reduce`): sum (mean
 * is a scaled sum), var, std, max/min with their indices, and p-norms, over a
 * contiguous tensor viewed as [outer, inner] (core/reduce.c lays reductions
 * out so, checks them and allocates the results).
 */
#include <math.h>
#include <string.h>

#include "nn_cpu.h"
#include "nn_vmath.h"

/* Sums over float32 rows in double, eight independent accumulators so the
   loop vectorizes (one accumulator is one long chain of dependent adds). */
#define LANES 8
/* built for AVX2 too (4 doubles a vector), picked at load time */
#define WIDE __attribute__((target_clones("avx2", "default")))

WIDE static double sum_f32(const float *x, int64_t n)
{
    double acc[LANES] = {0};
    int64_t i = 0;
    for (; i + LANES <= n; i += LANES)
        for (int l = 0; l < LANES; l++) acc[l] += x[i + l];
    double total = 0;
    for (; i < n; i++) total += x[i];
    for (int l = 0; l < LANES; l++) total += acc[l];
    return total;
}

/* The same sum, faster, for the chunks of one long row (sum_chunk): blocks of
   256 floats summed in float32 over 32 lanes (8 adds a lane, vectorized 8
   wide), each lane's block sum then added in double. Within 8 roundings of
   float32 per block of the double sum; the order is fixed, not the threads'. */
typedef float v8f __attribute__((vector_size(32)));
typedef float v8f_unaligned __attribute__((vector_size(32), aligned(4), may_alias));
typedef double v4d __attribute__((vector_size(32)));
WIDE static double sum_f32_blocked(const float *x, int64_t n)
{
    v4d acc[8] = {0}; /* lanes 0-3, 4-7, ..., 28-31 */
    int64_t i = 0;
    for (; i + 256 <= n; i += 256) {
        v8f lane[4];
        for (int v = 0; v < 4; v++) lane[v] = *(const v8f_unaligned *)(x + i + 8 * v);
        for (int k = 1; k < 8; k++)
            for (int v = 0; v < 4; v++) lane[v] += *(const v8f_unaligned *)(x + i + 32 * k + 8 * v);
        for (int v = 0; v < 4; v++) {
            acc[2 * v] += __builtin_convertvector(__builtin_shufflevector(lane[v], lane[v], 0, 1, 2, 3), v4d);
            acc[2 * v + 1] += __builtin_convertvector(__builtin_shufflevector(lane[v], lane[v], 4, 5, 6, 7), v4d);
        }
    }
    double total = sum_f32(x + i, n - i);
    for (int v = 0; v < 8; v++)
        for (int l = 0; l < 4; l++) total += acc[v][l];
    return total;
}

/* sum of (x - mean)^2, or of x^2 with mean 0 */
WIDE static double squares_f32(const float *x, int64_t n, double mean)
{
    double acc[LANES] = {0};
    int64_t i = 0;
    for (; i + LANES <= n; i += LANES)
        for (int l = 0; l < LANES; l++) {
            double d = x[i + l] - mean;
            acc[l] += d * d;
        }
    double total = 0;
    for (; i < n; i++) total += (x[i] - mean) * (x[i] - mean);
    for (int l = 0; l < LANES; l++) total += acc[l];
    return total;
}


typedef struct sum_job {
    const nn_reduction_layout *l;
    nn_tensor *out;
    double scale;
    double *partial; /* one sum per chunk of a single long float row */
} sum_job;

/* out[o] = scale * sum of row o, for the rows [begin, end). */
static void sum_row_range(void *vctx, int64_t begin, int64_t end)
{
    const sum_job *j = vctx;
    const nn_reduction_layout *l = j->l;
    const char *src = nn_data_ptr(l->data);
    nn_dtype in = l->data->dtype, od = j->out->dtype;
    size_t ies = nn_dtype_size(in), oes = nn_dtype_size(od);
    char *dst = j->out->storage->data;
    for (int64_t o = begin; o < end; o++) {
        const char *row = src + (size_t)(o * l->inner) * ies;
        if (!nn_dtype_is_floating(in)) {
            uint64_t acc = 0; /* wrapping, as PyTorch's integer sum */
            for (int64_t i = 0; i < l->inner; i++) acc += (uint64_t)nn_load_int64(row + (size_t)i * ies, in);
            ((int64_t *)dst)[o] = (int64_t)acc;
            continue;
        }
        double acc = 0;
        if (in == NN_FLOAT32) {
            acc = sum_f32((const float *)row, l->inner);
        } else if (in == NN_FLOAT64) {
            const double *f = (const double *)row;
            for (int64_t i = 0; i < l->inner; i++) acc += f[i];
        } else {
            for (int64_t i = 0; i < l->inner; i++) acc += nn_load_double(row + (size_t)i * ies, in);
        }
        nn_store_double(dst + (size_t)o * oes, od, acc * j->scale);
    }
}

/* partial[chunk] = the sum of elements [begin, end) of the one float row. */
static void sum_chunk(void *vctx, int64_t begin, int64_t end)
{
    const sum_job *j = vctx;
    const char *row = nn_data_ptr(j->l->data);
    double acc = 0;
    if (j->l->data->dtype == NN_FLOAT32) {
        acc = sum_f32_blocked((const float *)row + begin, end - begin);
    } else {
        const double *f = (const double *)row;
        for (int64_t i = begin; i < end; i++) acc += f[i];
    }
    j->partial[begin / NN_GRAIN] = acc;
}

/* out[o] = the sum of row o divided by divisor (mean: inner; a sum: 1).
   A whole-tensor float sum (one row, out of the row's dtype) in PyTorch's
   order (cpu/sum.c), a mean then divided by the count in its own precision;
   other rows in parallel (each row summed as on one thread); one long float32
   or float64 row of another kind as NN_GRAIN-element chunks added in chunk
   order. */
static int sum_rows(const nn_reduction_layout *l, nn_tensor *out, double divisor)
{
    double scale = 1.0 / divisor;
    sum_job j = {l, out, scale, NULL};
    nn_dtype in = l->data->dtype;
    if (l->outer == 1 && (in == NN_FLOAT32 || in == NN_FLOAT64) && out->dtype == in) {
        const void *x = nn_data_ptr(l->data);
        void *o = out->storage->data;
        if (in == NN_FLOAT32) {
            float s = nn_cpu_sum_all_f32(x, l->inner);
            *(float *)o = divisor == 1.0 ? s : s / (float)divisor;
        } else {
            double s = nn_cpu_sum_all_f64(x, l->inner);
            *(double *)o = divisor == 1.0 ? s : s / divisor;
        }
        return 0;
    }
    if (l->outer == 1 && l->inner > NN_GRAIN && (in == NN_FLOAT32 || in == NN_FLOAT64)) {
        int64_t chunks = nn_chunk_count(l->inner, NN_GRAIN);
        if (!(j.partial = nn_malloc((size_t)chunks * sizeof *j.partial))) return -1;
        nn_parallel_for(l->inner, NN_GRAIN, sum_chunk, &j);
        double acc = 0;
        for (int64_t c = 0; c < chunks; c++) acc += j.partial[c];
        nn_free(j.partial);
        nn_store_double(out->storage->data, out->dtype, acc * scale);
        return 0;
    }
    int64_t rows = l->inner > 0 ? NN_GRAIN / l->inner : l->outer;
    nn_parallel_for(l->outer, rows > 0 ? rows : 1, sum_row_range, &j);
    return 0;
}

/* Row o of a reduction layout's data. */
static const char *layout_row(const nn_reduction_layout *l, int64_t o)
{
    return (const char *)nn_data_ptr(l->data) + (size_t)(o * l->inner) * nn_dtype_size(l->data->dtype);
}

static double load_at(const char *row, int64_t i, nn_dtype dt)
{
    switch (dt) {
    case NN_FLOAT32: return ((const float *)row)[i];
    case NN_FLOAT64: return ((const double *)row)[i];
    default: return nn_load_double(row + (size_t)i * nn_dtype_size(dt), dt);
    }
}

/* Two-pass variance (sum of squared deviations) of a row, in double, around
   mean rounded to dt first: PyTorch's CPU all-reduce takes self.mean().item(). */
static double row_m2_two_pass(const char *row, int64_t n, nn_dtype dt)
{
    if (dt == NN_FLOAT32) {
        float mean = (float)(sum_f32((const float *)row, n) / (double)n);
        return squares_f32((const float *)row, n, mean);
    }
    double sum = 0;
    for (int64_t i = 0; i < n; i++) sum += load_at(row, i, dt);
    char rounded[8];
    nn_store_double(rounded, dt, sum / (double)n);
    double mean = nn_load_double(rounded, dt), m2 = 0;
    for (int64_t i = 0; i < n; i++) {
        double dx = load_at(row, i, dt) - mean;
        m2 += dx * dx;
    }
    return m2;
}

/* Welford's update in double (PyTorch's WelfordOps for the dim reductions, and
   for torch.var_mean's every reduction); the row's mean into *mean_out. */
static double row_m2_welford(const char *row, int64_t n, nn_dtype dt, double *mean_out)
{
    double mean = 0, m2 = 0;
    for (int64_t i = 0; i < n; i++) {
        double x = load_at(row, i, dt);
        double delta = x - mean;
        mean += delta / (double)(i + 1);
        m2 += delta * (x - mean);
    }
    *mean_out = mean;
    return m2;
}

/* var (or std, take_sqrt) of each row, divided by inner - correction; with
   means (torch.var_mean), every row by Welford and its mean stored there too. */
static void var_rows(const nn_reduction_layout *l, double correction, bool take_sqrt, nn_tensor *out, nn_tensor *means)
{
    nn_dtype dt = l->data->dtype;
    double divisor = (double)l->inner - correction;
    size_t oes = nn_dtype_size(dt);
    char *dst = out->storage->data;
    for (int64_t o = 0; o < l->outer; o++) {
        double var = NAN, mean = NAN; /* an empty row, or no degrees of freedom: NaN */
        if (l->inner > 0) {
            /* everything in one row: the all-reduce path (two passes); else Welford */
            const char *row = layout_row(l, o);
            double m2 = l->outer == 1 && !means ? row_m2_two_pass(row, l->inner, dt)
                                                : row_m2_welford(row, l->inner, dt, &mean);
            if (divisor > 0) var = m2 / divisor;
        }
        nn_store_double(dst + (size_t)o * oes, dt, take_sqrt ? sqrt(var) : var);
        if (means) nn_store_double((char *)means->storage->data + (size_t)o * oes, dt, mean);
    }
}

/* Index of a row's largest (is_max) or smallest element: the first NaN if
   there is one, else the first occurrence of the extreme value (as PyTorch). */
#define EXTREME_LOOP(T, IS_NAN)                                        \
    do {                                                               \
        const T *x = (const T *)row;                                   \
        T best = x[0];                                                 \
        if (IS_NAN(best)) return 0;                                    \
        for (int64_t i = 1; i < n; i++) {                              \
            T v = x[i];                                                \
            if (IS_NAN(v)) return i;                                   \
            if (is_max ? v > best : v < best) {                        \
                best = v;                                              \
                bi = i;                                                \
            }                                                          \
        }                                                              \
    } while (0)
#define NEVER_NAN(v) ((void)(v), 0)

static int64_t row_extreme(const char *row, int64_t n, nn_dtype dt, bool is_max)
{
    int64_t bi = 0;
    switch (dt) {
    case NN_FLOAT32: EXTREME_LOOP(float, isnan); break;
    case NN_FLOAT64: EXTREME_LOOP(double, isnan); break;
    case NN_INT64: EXTREME_LOOP(int64_t, NEVER_NAN); break;
    case NN_INT32: EXTREME_LOOP(int32_t, NEVER_NAN); break;
    case NN_BOOL: case NN_UINT8: EXTREME_LOOP(uint8_t, NEVER_NAN); break;
    case NN_INT8: EXTREME_LOOP(int8_t, NEVER_NAN); break;
    case NN_INT16: EXTREME_LOOP(int16_t, NEVER_NAN); break;
    default: {
        /* half types: exact as doubles */
        double best = load_at(row, 0, dt);
        if (isnan(best)) return 0;
        for (int64_t i = 1; i < n; i++) {
            double v = load_at(row, i, dt);
            if (isnan(v)) return i;
            if (is_max ? v > best : v < best) {
                best = v;
                bi = i;
            }
        }
    }
    }
    return bi;
}
#undef EXTREME_LOOP
#undef NEVER_NAN

/* Fills values (a's dtype, may be NULL) and indices (int64, may be NULL) from
   the rows of l; every row is non-empty. */
static void extreme_rows(const nn_reduction_layout *l, bool is_max, nn_tensor *values, nn_tensor *indices)
{
    nn_dtype dt = l->data->dtype;
    size_t es = nn_dtype_size(dt);
    for (int64_t o = 0; o < l->outer; o++) {
        const char *row = layout_row(l, o);
        int64_t i = row_extreme(row, l->inner, dt, is_max);
        if (values) memcpy((char *)values->storage->data + (size_t)o * es, row + (size_t)i * es, es);
        if (indices) ((int64_t *)indices->storage->data)[o] = i;
    }
}

static double row_norm(const char *row, int64_t n, nn_dtype dt, double p)
{
    double acc = 0;
    if (p == 0) {
        for (int64_t i = 0; i < n; i++) acc += load_at(row, i, dt) != 0;
        return acc;
    }
    if (p == 1) {
        for (int64_t i = 0; i < n; i++) acc += fabs(load_at(row, i, dt));
        return acc;
    }
    if (p == 2 && dt == NN_FLOAT32) return sqrt(squares_f32((const float *)row, n, 0));
    if (p == 2) {
        for (int64_t i = 0; i < n; i++) {
            double v = load_at(row, i, dt);
            acc += v * v;
        }
        return sqrt(acc);
    }
    if (isinf(p)) {
        /* max |x| (p = inf) or min |x| (p = -inf); NaN wins */
        acc = fabs(load_at(row, 0, dt));
        for (int64_t i = 1; i < n && !isnan(acc); i++) {
            double v = fabs(load_at(row, i, dt));
            if (isnan(v) || (p > 0 ? v > acc : v < acc)) acc = v;
        }
        return acc;
    }
    for (int64_t i = 0; i < n; i++) acc += pow(fabs(load_at(row, i, dt)), p);
    return pow(acc, 1.0 / p);
}

static void norm_rows(const nn_reduction_layout *l, double p, nn_tensor *out)
{
    nn_dtype dt = l->data->dtype;
    size_t oes = nn_dtype_size(dt);
    for (int64_t o = 0; o < l->outer; o++) {
        /* the norm of nothing is 0 for every p, as in PyTorch */
        double v = l->inner > 0 ? row_norm(layout_row(l, o), l->inner, dt, p) : 0.0;
        nn_store_double((char *)out->storage->data + (size_t)o * oes, dt, v);
    }
}

/* at::sum over a contiguous float32 row as PyTorch 1.13's cascade_sum runs it
   (AVX2): rows of 4 vectors of 8 summed per lane in a 4-level cascade
   (multi_row_sum), leftover vectors, the 4 partial vectors combined, then the
   scalar remainder plus the 8 lanes in order. Fewer than 8 elements: the
   scalar form, 4 partial sums. */
static void add_row_f32(float acc[4][8], const float *row, int lanes)
{
    for (int k = 0; k < 4; k++)
        for (int l = 0; l < lanes; l++) acc[k][l] += row[k * lanes + l];
}

static float torch_sum_f32(const float *x, int64_t n)
{
    const int lanes = n >= 8 ? 8 : 1;
    const int64_t nvec = n / lanes, rows = nvec / 4;
    int ceil_log2 = 1;
    while (((int64_t)1 << ceil_log2) < rows) ceil_log2++;
    const int level_power = ceil_log2 / 4 > 4 ? ceil_log2 / 4 : 4;
    const int64_t level_step = (int64_t)1 << level_power, level_mask = level_step - 1;
    float acc[4][4][8] = {{{0}}}; /* [level][row element][lane] */
    int64_t i = 0;
    while (i + level_step <= rows) {
        for (int64_t j = 0; j < level_step; j++, i++) add_row_f32(acc[0], x + i * 4 * lanes, lanes);
        for (int j = 1; j < 4; j++) {
            for (int k = 0; k < 4; k++)
                for (int l = 0; l < lanes; l++) {
                    acc[j][k][l] += acc[j - 1][k][l];
                    acc[j - 1][k][l] = 0;
                }
            if ((i & (level_mask << (j * level_power))) != 0) break;
        }
    }
    for (; i < rows; i++) add_row_f32(acc[0], x + i * 4 * lanes, lanes);
    for (int j = 1; j < 4; j++)
        for (int k = 0; k < 4; k++)
            for (int l = 0; l < lanes; l++) acc[0][k][l] += acc[j][k][l];
    for (int64_t v = rows * 4; v < nvec; v++)
        for (int l = 0; l < lanes; l++) acc[0][0][l] += x[v * lanes + l];
    for (int k = 1; k < 4; k++)
        for (int l = 0; l < lanes; l++) acc[0][0][l] += acc[0][k][l];
    if (lanes == 1) return acc[0][0][0];
    float total = 0;
    for (int64_t t = nvec * lanes; t < n; t++) total += x[t];
    for (int l = 0; l < lanes; l++) total += acc[0][0][l];
    return total;
}

/* The loss reductions' sum (or mean, when mean): float32 as at::sum's cascade,
   other dtypes in double, rounded to the dtype, then divided by the count in
   the dtype, as PyTorch's sum(...).div_(n). */
static void cascade_sum(const nn_tensor *t, int64_t n, bool mean, nn_tensor *out)
{
    const char *p = nn_data_ptr(t);
    size_t es = nn_dtype_size(t->dtype);
    double acc = 0;
    if (t->dtype == NN_FLOAT32)
        acc = torch_sum_f32((const float *)p, n);
    else
        for (int64_t i = 0; i < n; i++) acc += nn_load_double(p + (size_t)i * es, t->dtype);
    char buf[8];
    nn_store_double(buf, t->dtype, acc);
    double v = nn_load_double(buf, t->dtype);
    if (mean) {
        nn_store_double(buf, t->dtype, v / (double)n);
        v = t->dtype == NN_FLOAT32 ? (double)((float)v / (float)n) : nn_load_double(buf, t->dtype);
    }
    nn_store_double(nn_data_ptr(out), t->dtype, v);
}

/* ---- PyTorch's column sums (at::sum_to of the bias gradient) ----
   The sum over dim 0 of a contiguous [n, m] matrix as PyTorch 1.13's
   cascade_sum computes it (SumKernel.cpp, AVX2: V lanes of 8 floats or 4
   doubles): a column is either summed in one cascade (multi_row_sum: 16 rows
   into level 0, levels carried up every 16^k rows) or as row_sum's four
   interleaved cascades; a single column is a contiguous inner sum. */

static int64_t ceil_log2(int64_t x)
{
    if (x <= 2) return 1;
    int64_t bits = 0;
    for (uint64_t v = (uint64_t)x - 1; v; v >>= 1) bits++;
    return bits;
}

#define DEFINE_COLUMN_SUMS(SUF, T, V)                                                                           \
    static T cascade_##SUF(const T *x, int64_t stride, int64_t size)                                           \
    {                                                                                                          \
        int64_t power = ceil_log2(size) / 4 > 4 ? ceil_log2(size) / 4 : 4, step = (int64_t)1 << power;         \
        int64_t mask = step - 1, i = 0;                                                                        \
        T acc[4] = {0, 0, 0, 0};                                                                               \
        while (i + step <= size) {                                                                             \
            for (int64_t j = 0; j < step; j++, i++) acc[0] += x[i * stride];                                   \
            for (int j = 1; j < 4; j++) {                                                                      \
                acc[j] += acc[j - 1];                                                                          \
                acc[j - 1] = 0;                                                                                \
                if ((i & (mask << (j * power))) != 0) break;                                                   \
            }                                                                                                  \
        }                                                                                                      \
        for (; i < size; i++) acc[0] += x[i * stride];                                                         \
        for (int j = 1; j < 4; j++) acc[0] += acc[j];                                                          \
        return acc[0];                                                                                         \
    }                                                                                                          \
    /* row_sum: four interleaved cascades, the tail, then the four combined */                               \
    static T ilp_sum_##SUF(const T *x, int64_t stride, int64_t size)                                           \
    {                                                                                                          \
        int64_t quarter = size / 4;                                                                            \
        T part[4];                                                                                             \
        for (int k = 0; k < 4; k++) part[k] = cascade_##SUF(x + k * stride, 4 * stride, quarter);              \
        for (int64_t i = quarter * 4; i < size; i++) part[0] += x[i * stride];                                 \
        for (int k = 1; k < 4; k++) part[0] += part[k];                                                        \
        return part[0];                                                                                        \
    }                                                                                                          \
    /* cascade_ of 4*V adjacent columns at once: each column gets the very additions, in the very order,  \
       of its own cascade_, and a row of the block is one contiguous load (not 4*V strided walks) */          \
    WIDE static void cascade_block_##SUF(const T *x, int64_t stride, int64_t size, T *out)                     \
    {                                                                                                          \
        enum { W = 4 * V };                                                                                    \
        int64_t power = ceil_log2(size) / 4 > 4 ? ceil_log2(size) / 4 : 4, step = (int64_t)1 << power;         \
        int64_t mask = step - 1, i = 0;                                                                        \
        T acc[4][W];                                                                                           \
        memset(acc, 0, sizeof acc);                                                                            \
        while (i + step <= size) {                                                                             \
            for (int64_t j = 0; j < step; j++, i++)                                                            \
                for (int w = 0; w < W; w++) acc[0][w] += x[i * stride + w];                                    \
            for (int j = 1; j < 4; j++) {                                                                      \
                for (int w = 0; w < W; w++) {                                                                  \
                    acc[j][w] += acc[j - 1][w];                                                                \
                    acc[j - 1][w] = 0;                                                                         \
                }                                                                                              \
                if ((i & (mask << (j * power))) != 0) break;                                                   \
            }                                                                                                  \
        }                                                                                                      \
        for (; i < size; i++)                                                                                  \
            for (int w = 0; w < W; w++) acc[0][w] += x[i * stride + w];                                        \
        for (int j = 1; j < 4; j++)                                                                            \
            for (int w = 0; w < W; w++) acc[0][w] += acc[j][w];                                                \
        memcpy(out, acc[0], sizeof acc[0]);                                                                    \
    }                                                                                                          \
    static void column_sums_##SUF(const T *x, int64_t n, int64_t m, T *out)                                    \
    {                                                                                                          \
        if (m == 1 && n >= V) { /* vectorized_inner_sum */                                                     \
            int64_t chunks = n / V;                                                                            \
            T total = 0;                                                                                       \
            for (int64_t k = chunks * V; k < n; k++) total += x[k];                                            \
            for (int l = 0; l < V; l++) total += ilp_sum_##SUF(x + l, V, chunks);                              \
            out[0] = total;                                                                                    \
            return;                                                                                            \
        }                                                                                                      \
        int64_t grouped = m >= V ? (4 * V) * (m / (4 * V)) : 4 * (m / 4), c = 0;                               \
        if (m >= V)                                                                                            \
            for (; c < grouped; c += 4 * V) cascade_block_##SUF(x + c, m, n, out + c);                         \
        for (; c < m; c++) out[c] = c < grouped ? cascade_##SUF(x + c, m, n) : ilp_sum_##SUF(x + c, m, n);     \
    }

DEFINE_COLUMN_SUMS(f32, float, 8)
DEFINE_COLUMN_SUMS(f64, double, 4)

int nn_cpu_reduce(nn_reduce_op op, const nn_tensor *x, int64_t outer, int64_t inner, double p, nn_tensor *values,
                  nn_tensor *indices)
{
    nn_reduction_layout l = {.data = (nn_tensor *)x, .outer = outer, .inner = inner};
    switch (op) {
    case NN_REDUCE_SUM: return sum_rows(&l, values, p);
    case NN_REDUCE_VAR: var_rows(&l, p, false, values, indices); return 0;
    case NN_REDUCE_STD: var_rows(&l, p, true, values, indices); return 0;
    case NN_REDUCE_MAX: extreme_rows(&l, true, values, indices); return 0;
    case NN_REDUCE_MIN: extreme_rows(&l, false, values, indices); return 0;
    case NN_REDUCE_NORM: norm_rows(&l, p, values); return 0;
    case NN_REDUCE_CASCADE_SUM: cascade_sum(x, inner, p != 0, values); return 0;
    case NN_REDUCE_ROWS:
        if (x->dtype != NN_FLOAT32 || values->dtype != NN_FLOAT32) return sum_rows(&l, values, p);
        nn_cpu_sum_rows_f32(nn_data_ptr(x), outer, inner, (float)p, nn_data_ptr(values));
        return 0;
    case NN_REDUCE_STRIDED: {
        bool reduced[NN_MAX_DIMS];
        int64_t bits = (int64_t)p;
        for (int d = 0; d < x->ndim; d++) reduced[d] = (bits >> d) & 1;
        float *o = nn_data_ptr(values);
        nn_cpu_sum_strided_f32(nn_data_ptr(x), x->ndim, x->sizes, x->strides, reduced, o);
        if (bits & 65536)
            for (int64_t i = 0; i < outer; i++) o[i] /= (float)inner;
        return 0;
    }
    case NN_REDUCE_VAR_ALL_F32:
    case NN_REDUCE_STD_ALL_F32: {
        bool all[NN_MAX_DIMS];
        for (int d = 0; d < x->ndim; d++) all[d] = true;
        float sum;
        if (nn_is_contiguous(x)) /* the same order as the strided walk, in fewer steps */
            sum = nn_cpu_sum_all_f32(nn_data_ptr(x), nn_numel(x));
        else
            nn_cpu_sum_strided_f32(nn_data_ptr(x), x->ndim, x->sizes, x->strides, all, &sum);
        double mean = sum / (float)inner;
        double dof = (double)inner - p;
        /* a bounded estimate decides the float almost always (cpu/var_bound.c) */
        if (nn_is_contiguous(x) && nn_cpu_var_all_f32_bounded(nn_data_ptr(x), inner, mean, dof,
                                                               op == NN_REDUCE_STD_ALL_F32, nn_data_ptr(values)))
            return 0;
        double m2 = nn_cpu_sq_dev_sum_f32(nn_data_ptr(x), x->ndim, x->sizes, x->strides, mean);
        double var = m2 / (dof > 0 ? dof : 0);
        *(float *)nn_data_ptr(values) = (float)(op == NN_REDUCE_STD_ALL_F32 ? sqrt(var) : var);
        return 0;
    }
    case NN_REDUCE_PROD_STRIDED_F32: {
        bool reduced[NN_MAX_DIMS] = {true};
        int64_t bits = (int64_t)p, one = 1;
        for (int d = 0; d < x->ndim; d++) reduced[d] = (bits >> d) & 1;
        nn_cpu_prod_strided_f32(nn_data_ptr(x), x->ndim ? x->ndim : 1, x->ndim ? x->sizes : &one,
                                x->ndim ? x->strides : &one, reduced, nn_data_ptr(values));
        return 0;
    }
    case NN_REDUCE_NORM_SEQ_F32:
    case NN_REDUCE_NORM2_LASTDIM_F32: {
        const float *xs = nn_data_ptr(x);
        float *o = nn_data_ptr(values);
        for (int64_t r = 0; r < outer; r++)
            o[r] = op == NN_REDUCE_NORM2_LASTDIM_F32 ? nn_cpu_norm2_lastdim_f32(xs + r * inner, inner)
                                                     : nn_cpu_norm_seq_f32(xs + r * inner, inner, p, outer == 1);
        return 0;
    }
    case NN_REDUCE_COLUMNS:
        /* a mean (p != 0) divides by the row count in the dtype's precision */
        if (x->dtype == NN_FLOAT32) {
            float *o = nn_data_ptr(values);
            column_sums_f32(nn_data_ptr(x), outer, inner, o);
            if (p != 0)
                for (int64_t c = 0; c < inner; c++) o[c] /= (float)outer;
        } else {
            double *o = nn_data_ptr(values);
            column_sums_f64(nn_data_ptr(x), outer, inner, o);
            if (p != 0)
                for (int64_t c = 0; c < inner; c++) o[c] /= (double)outer;
        }
        return 0;
    }
    return 0;
}
