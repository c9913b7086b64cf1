/*
 * cpu/norm.c — the CPU's `norm` kernel (core/kernels.def, nn_norm_op):
 * layer_norm forward and backward as PyTorch 1.13's AVX2 CPU kernels compute
 * them (rowwise moments, lane sums, fused steps), rows over the pool's threads.
 * nnfunc.c validates, lays the operands out contiguous, allocates and records.
 */
#include <math.h>
#include <string.h>

#include "nn_cpu.h"
#include "nn_lanes.h"

/* Rows of this many elements (row_len) per chunk: about NN_GRAIN elements. */
static int64_t rows_grain(int64_t row_len) { return row_len > 0 && row_len < NN_GRAIN ? NN_GRAIN / row_len : 1; }

/* PyTorch's utils::RowwiseMoments as its AVX2 kernel computes it: a Welford
   update per vector lane over chunks of 16 vectors, chunks merged in a binary
   cascade, the remainder in a scalar Welford, then the lanes merged in order;
   all in the tensor's precision. Returns the mean and the biased variance.
   Emulating it (rather than computing exact moments) reproduces PyTorch's
   numbers bit for bit, and they differ visibly for rows with a large offset.
   Which steps PyTorch's compiler fused into multiply-adds was found against
   the fixture: none here, both in the normalisation below. */
#define MOMENTS_CHUNK 16
#define MOMENTS_MAX_DEPTH 64
#define DEFINE_MOMENTS(SUFFIX, T, LANES)                                                                 \
    static void add_moments_##SUFFIX(int64_t m0_add, const T *m1_add, const T *m2_add, int64_t *m0, T *m1,     \
                                     T *m2, int lanes)                                                        \
    {                                                                                                         \
        int64_t n = *m0 + m0_add;                                                                             \
        T c = n == 0 ? (T)0 : (T)m0_add / (T)n;                                                               \
        for (int l = 0; l < lanes; l++) {                                                                     \
            T delta = m1_add[l] - m1[l];                                                                      \
            m1[l] += c * delta;                                                                               \
            m2[l] += m2_add[l] + delta * delta * c * (T)(*m0);                                                \
        }                                                                                                     \
        *m0 = n;                                                                                              \
    }                                                                                                         \
    static void rowwise_moments_##SUFFIX(const T *x, int64_t N, T *mean, T *var)                             \
    {                                                                                                         \
        const int64_t n = N / LANES, m = (n + MOMENTS_CHUNK - 1) / MOMENTS_CHUNK;                             \
        int depth = 1;                                                                                        \
        while (((int64_t)1 << depth) < m) depth++;                                                            \
        int64_t m0_stk[MOMENTS_MAX_DEPTH] = {0};                                                              \
        T m1_stk[MOMENTS_MAX_DEPTH][LANES] = {{0}}, m2_stk[MOMENTS_MAX_DEPTH][LANES] = {{0}};                  \
        for (int64_t i = 0; i < m; i++) {                                                                     \
            const T *xp = x + i * MOMENTS_CHUNK * LANES;                                                      \
            const int64_t m0 = n - i * MOMENTS_CHUNK < MOMENTS_CHUNK ? n - i * MOMENTS_CHUNK : MOMENTS_CHUNK;  \
            T m1v[LANES] = {0}, m2v[LANES] = {0};                                                             \
            for (int64_t j = 0; j < m0; j++) {                                                                \
                T c = (T)1 / (T)(j + 1);                                                                      \
                for (int l = 0; l < LANES; l++) {                                                             \
                    T xv = xp[j * LANES + l], delta = xv - m1v[l];                                            \
                    m1v[l] += delta * c;                                                                      \
                    m2v[l] += delta * (xv - m1v[l]);                                                          \
                }                                                                                             \
            }                                                                                                 \
            add_moments_##SUFFIX(m0, m1v, m2v, &m0_stk[0], m1_stk[0], m2_stk[0], LANES);                      \
            int64_t mask = i + 1;                                                                             \
            for (int j = 1; j < depth && (mask & 1) == 0; j++) {                                              \
                add_moments_##SUFFIX(m0_stk[j - 1], m1_stk[j - 1], m2_stk[j - 1], &m0_stk[j], m1_stk[j],      \
                                     m2_stk[j], LANES);                                                       \
                m0_stk[j - 1] = 0;                                                                            \
                memset(m1_stk[j - 1], 0, sizeof m1_stk[j - 1]);                                               \
                memset(m2_stk[j - 1], 0, sizeof m2_stk[j - 1]);                                               \
                mask >>= 1;                                                                                   \
            }                                                                                                 \
        }                                                                                                     \
        for (int i = 1; i < depth; i++)                                                                       \
            add_moments_##SUFFIX(m0_stk[i], m1_stk[i], m2_stk[i], &m0_stk[0], m1_stk[0], m2_stk[0], LANES);    \
        int64_t m0 = 0;                                                                                       \
        T m1 = 0, m2 = 0;                                                                                     \
        for (int64_t i = n * LANES; i < N; i++) {                                                             \
            T delta = x[i] - m1;                                                                              \
            ++m0;                                                                                             \
            m1 += delta / (T)m0;                                                                              \
            m2 += delta * (x[i] - m1);                                                                        \
        }                                                                                                     \
        for (int l = 0; l < LANES; l++) add_moments_##SUFFIX(n, &m1_stk[0][l], &m2_stk[0][l], &m0, &m1, &m2, 1); \
        *mean = m1;                                                                                           \
        *var = m2 / (T)N;                                                                                     \
    }

DEFINE_MOMENTS(f32, float, 8)
DEFINE_MOMENTS(f64, double, 4)

/* for group_norm (norms_more.c), which ATen computes with the same RowwiseMoments */
void nn_rowwise_moments_f32(const float *x, int64_t n, float *mean, float *var);
void nn_rowwise_moments_f64(const double *x, int64_t n, double *mean, double *var);
void nn_rowwise_moments_f32(const float *x, int64_t n, float *mean, float *var) { rowwise_moments_f32(x, n, mean, var); }
void nn_rowwise_moments_f64(const double *x, int64_t n, double *mean, double *var) { rowwise_moments_f64(x, n, mean, var); }


/* Forward as PyTorch: eps in the tensor's precision, rstd = 1 / sqrt(var + eps),
   y = (x * rstd + (-rstd * mean)) * w + b with both steps fused. */
#define DEFINE_LAYER_NORM(SUFFIX, T, FMA, SQRT)                                                                     \
    static void layer_norm_fwd_##SUFFIX(const T *x, const T *w, const T *b, T *y, T *mean, T *rstd, int64_t M, \
                                        int64_t N, double eps)                                                \
    {                                                                                                         \
        for (int64_t i = 0; i < M; i++) {                                                                     \
            const T *xr = x + i * N;                                                                          \
            T *yr = y + i * N;                                                                                \
            T mean_t = 0, var_t = 0;                                                                          \
            if (N) rowwise_moments_##SUFFIX(xr, N, &mean_t, &var_t);                                          \
            T r = (T)1 / SQRT(var_t + (T)eps);                                                                \
            T bias = -r * mean_t;                                                                             \
            for (int64_t j = 0; j < N; j++) {                                                                 \
                T gv = w ? w[j] : (T)1, bv = b ? b[j] : (T)0;                                                 \
                yr[j] = FMA(FMA(xr[j], r, bias), gv, bv);                                                     \
            }                                                                                                 \
            mean[i] = mean_t;                                                                                 \
            rstd[i] = r;                                                                                      \
        }                                                                                                     \
    }                                                                                                         \
    /* Backward as PyTorch's LayerNormBackwardKernelImplInternal (AVX2 build):          \
       ds = sum((dy * x) * w), db = sum(dy * w) as lane sums, then per row                 \
       b = (db * mean - ds) * a^3 / N, c = -b * mean - db * a / N, dx = a * dy * w + b * x + c. */ \
    static void layer_norm_bwd_##SUFFIX(const T *g, const T *x, const T *w, const T *mean, const T *rstd,     \
                                        T *dx, T *dw, T *db, int64_t M, int64_t N)                             \
    {                                                                                                         \
        T scale = (T)1 / (T)N;                                                                                \
        if (dw) memset(dw, 0, sizeof(T) * (size_t)N);                                                         \
        if (db) memset(db, 0, sizeof(T) * (size_t)N);                                                         \
        for (int64_t i = 0; i < M; i++) {                                                                     \
            const T *gr = g + i * N, *xr = x + i * N;                                                         \
            T a = rstd[i], mu = mean[i];                                                                      \
            if (dw) {                                                                                         \
                T bb = -a * mu;                                                                               \
                for (int64_t j = 0; j < N; j++) dw[j] = FMA(gr[j], FMA(a, xr[j], bb), dw[j]);                 \
            }                                                                                                 \
            if (db)                                                                                           \
                for (int64_t j = 0; j < N; j++) db[j] = db[j] + gr[j];                                        \
            if (!dx) continue;                                                                                \
            T ds = lane_sum_##SUFFIX(gr, xr, w, N), dbs = lane_sum_##SUFFIX(gr, w, NULL, N);                  \
            T bc = FMA(dbs, mu, -ds) * a * a * a * scale;                                                     \
            T c = FMA(-bc, mu, -(dbs * a * scale));                                                           \
            T *dxr = dx + i * N;                                                                              \
            for (int64_t j = 0; j < N; j++) dxr[j] = FMA(bc, xr[j], w ? a * gr[j] * w[j] : a * gr[j]) + c;    \
        }                                                                                                     \
    }

DEFINE_LAYER_NORM(f32, float, fmaf, sqrtf)
DEFINE_LAYER_NORM(f64, double, fma, sqrt)

/* layer_norm's row kernels over the pool's threads: the forward and dx by
   blocks of rows (each row as on one thread); dw and db, which sum over rows,
   in one pass in row order afterwards, so no result depends on the threads. */
typedef struct layer_norm_job {
    bool f32;
    const char *g, *x, *w, *b;
    char *y, *mean, *rstd, *dx;
    int64_t N;
    double eps;
} layer_norm_job;

static void layer_norm_rows(void *vctx, int64_t begin, int64_t end)
{
    const layer_norm_job *j = vctx;
    size_t es = j->f32 ? sizeof(float) : sizeof(double), row = (size_t)(begin * j->N) * es, stat = (size_t)begin * es;
    int64_t M = end - begin;
    if (j->dx && j->f32)
        layer_norm_bwd_f32((const float *)(j->g + row), (const float *)(j->x + row), (const float *)j->w,
                           (const float *)(j->mean + stat), (const float *)(j->rstd + stat), (float *)(j->dx + row), NULL,
                           NULL, M, j->N);
    else if (j->dx)
        layer_norm_bwd_f64((const double *)(j->g + row), (const double *)(j->x + row), (const double *)j->w,
                           (const double *)(j->mean + stat), (const double *)(j->rstd + stat), (double *)(j->dx + row),
                           NULL, NULL, M, j->N);
    else if (j->f32)
        layer_norm_fwd_f32((const float *)(j->x + row), (const float *)j->w, (const float *)j->b, (float *)(j->y + row),
                           (float *)(j->mean + stat), (float *)(j->rstd + stat), M, j->N, j->eps);
    else
        layer_norm_fwd_f64((const double *)(j->x + row), (const double *)j->w, (const double *)j->b,
                           (double *)(j->y + row), (double *)(j->mean + stat), (double *)(j->rstd + stat), M, j->N, j->eps);
}

static void *ptr(const nn_tensor *t) { return t ? nn_data_ptr(t) : NULL; }

static int layer_norm(nn_norm_op op, nn_kernel_args *a)
{
    nn_tensor *const *t = a->t;
    int64_t M = a->i[0], N = a->i[1];
    bool f32 = t[3]->dtype == NN_FLOAT32;
    if (op == NN_NORM_LAYER) {
        layer_norm_job job = {f32, NULL, ptr(t[3]), ptr(t[4]), ptr(t[5]), ptr(t[0]), ptr(t[1]), ptr(t[2]), NULL, N, a->d[0]};
        nn_parallel_for(M, rows_grain(N), layer_norm_rows, &job);
        return 0;
    }
    if (t[0]) { /* dx by rows over the threads, then dw and db in row order */
        layer_norm_job job = {f32, ptr(t[5]), ptr(t[3]), ptr(t[4]), NULL, NULL, ptr(t[1]), ptr(t[2]), ptr(t[0]), N, 0};
        nn_parallel_for(M, rows_grain(N), layer_norm_rows, &job);
    }
    if (t[6] || t[7]) {
        if (f32)
            layer_norm_bwd_f32(ptr(t[5]), ptr(t[3]), ptr(t[4]), ptr(t[1]), ptr(t[2]), NULL, ptr(t[6]), ptr(t[7]), M, N);
        else
            layer_norm_bwd_f64(ptr(t[5]), ptr(t[3]), ptr(t[4]), ptr(t[1]), ptr(t[2]), NULL, ptr(t[6]), ptr(t[7]), M, N);
    }
    return 0;
}

int nn_cpu_norm(nn_norm_op op, nn_kernel_args *a)
{
    switch (op) {
    case NN_NORM_LAYER:
    case NN_NORM_LAYER_BACKWARD: return layer_norm(op, a);
    }
    return nn_error_set(NN_ERR_RUNTIME, "norm kernel: unknown op code %d", (int)op);
}
