/*
 * cpu/norm.c — the CPU's `norm` kernel (core/kernels.def, nn_norm_op):
 * layer_norm forward and backward as PyTorch 1.13's AVX2 CPU kernels compute
 * them (rowwise moments, lane sums, fused steps), rows over the pool's threads;
 * group_norm's forward; batch_norm forward (statistics, running statistics,
 * transform) and backward
 * as its batch_norm_kernel.cpp computes them, one thread.
 * nnfunc.c and layers.c validate, lays the operands out contiguous, allocates and records.
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

/* group_norm's forward as ATen's CPU kernel: each (sample, group) row's moments by
   RowwiseMoments (above), rstd = 1 / sqrt(max(var, 0) + eps), then per channel
   y = scale * x + bias with scale = rstd * weight, bias = beta - scale * mean (fused). */
#define GROUP_NORM(SUF, T, FMA, SQRT)                                                                              \
    static void group_norm_##SUF(const T *x, const T *w, const T *b, T *y, int64_t N, int64_t C, int64_t G,      \
                                 int64_t HW, double eps)                                                         \
    {                                                                                                            \
        int64_t D = C / G, inner = D * HW;                                                                       \
        for (int64_t i = 0; i < N * G; i++) {                                                                    \
            const T *xp = x + i * inner;                                                                         \
            T *yp = y + i * inner, mean = 0, var = 0;                                                            \
            if (inner) rowwise_moments_##SUF(xp, inner, &mean, &var);                                         \
            T r = (T)1 / SQRT((var > 0 ? var : (T)0) + (T)eps);                                                  \
            if (!w && !b) {                                                                                      \
                for (int64_t j = 0; j < inner; j++) yp[j] = (xp[j] - mean) * r;                                  \
                continue;                                                                                        \
            }                                                                                                    \
            int64_t g = i % G;                                                                                   \
            for (int64_t j = 0; j < D; j++) {                                                                    \
                int64_t c = g * D + j;                                                                           \
                T scale = r * (w ? w[c] : (T)1), bias = FMA(-scale, mean, b ? b[c] : (T)0);                      \
                for (int64_t k = 0; k < HW; k++) yp[j * HW + k] = FMA(scale, xp[j * HW + k], bias);              \
            }                                                                                                    \
        }                                                                                                        \
    }
GROUP_NORM(f32, float, fmaf, sqrtf)
GROUP_NORM(f64, double, fma, sqrt)

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

/* PyTorch's CPU kernels (aten/native/cpu/batch_norm_kernel.cpp, built with FMA
   contraction; Normalization.cpp without), one thread. For x contiguous
   [nb, C, L]: L == 1 runs the channels-last kernels (float accumulation over
   rows), L > 1 the contiguous ones (double accumulation, vectorized sums of 8
   floats or 4 doubles). T is float or double. */
#define DEFINE_BN_KERNELS(SUF, T, FMA, SQRT, LANES, VAR_ACC, DX_ROWS)                                                     \
    /* mean and sum of squared deviations per channel */                                                       \
    static void bn_stats_##SUF(const T *x, int64_t nb, int64_t C, int64_t L, T *mean, T *var_sum)              \
    {                                                                                                          \
        int64_t N = nb * L;                                                                                    \
        for (int64_t c = 0; c < C; c++) {                                                                      \
            if (L == 1) {                                                                                      \
                T s = 0, v = 0;                                                                                \
                for (int64_t i = 0; i < nb; i++) s = s + x[i * C + c];                                         \
                T mu = (T)((double)s / (double)N);                                                             \
                for (int64_t i = 0; i < nb; i++) {                                                             \
                    T d = x[i * C + c] - mu;                                                                   \
                    v = FMA(d, d, v);                                                                          \
                }                                                                                              \
                mean[c] = mu;                                                                                  \
                var_sum[c] = v;                                                                                \
            } else {                                                                                           \
                double s = 0, v = 0;                                                                           \
                for (int64_t i = 0; i < nb; i++)                                                               \
                    for (int64_t l = 0; l < L; l++) s += x[(i * C + c) * L + l];                               \
                T mu = (T)(s / (double)N);                                                                     \
                for (int64_t i = 0; i < nb; i++)                                                               \
                    for (int64_t l = 0; l < L; l++) {                                                          \
                        T d = x[(i * C + c) * L + l] - mu;                                                     \
                        VAR_ACC(v, d);                                                                         \
                    }                                                                                          \
                mean[c] = mu;                                                                                  \
                var_sum[c] = (T)v;                                                                             \
            }                                                                                                  \
        }                                                                                                      \
    }                                                                                                          \
    /* batch_norm_cpu_update_stats_template: invstd, running statistics */                                     \
    static void bn_update_##SUF(const T *var_sum, const T *mean, int64_t C, int64_t N, double momentum,         \
                                double eps, T *invstd, T *rm, T *rv)                                           \
    {                                                                                                          \
        T m = (T)momentum;                                                                                     \
        for (int64_t c = 0; c < C; c++) {                                                                      \
            double var = (double)(var_sum[c] / (T)N);                                                          \
            invstd[c] = (T)(var != 0 || eps != 0 ? 1 / sqrt(var + eps) : 0);                                   \
            if (rm) {                                                                                          \
                T a = m * mean[c], b = (1 - m) * rm[c];                                                        \
                rm[c] = a + b;                                                                                 \
            }                                                                                                  \
            if (rv) {                                                                                          \
                double unbiased = (double)(var_sum[c] / (T)(N - 1));                                           \
                T b = (1 - m) * rv[c];                                                                         \
                rv[c] = (T)((double)m * unbiased + (double)b);                                                 \
            }                                                                                                  \
        }                                                                                                      \
    }                                                                                                          \
    /* out = x * alpha + beta per channel */                                                                   \
    static void bn_transform_##SUF(const T *x, T *out, int64_t nb, int64_t C, int64_t L, const T *mean,         \
                                   const T *invstd, const T *rv, const T *w, const T *b, double eps)           \
    {                                                                                                          \
        for (int64_t c = 0; c < C; c++) {                                                                      \
            T is = invstd ? invstd[c] : 1 / SQRT(rv[c] + (T)eps);                                              \
            T alpha = is * (w ? w[c] : 1);                                                                     \
            T beta = FMA(-mean[c], alpha, b ? b[c] : 0);                                                       \
            for (int64_t i = 0; i < nb; i++) {                                                                 \
                const T *xp = x + (i * C + c) * L;                                                             \
                T *op = out + (i * C + c) * L;                                                                 \
                for (int64_t l = 0; l < L; l++) op[l] = FMA(xp[l], alpha, beta);                               \
            }                                                                                                  \
        }                                                                                                      \
    }                                                                                                          \
    /* vec::reduce_all / map2_reduce_all of one feature plane: sum of dy and of (x - mu) * dy */               \
    static void bn_plane_sums_##SUF(const T *x, const T *dy, int64_t L, T mu, T *sum, T *dotp)                 \
    {                                                                                                          \
        T acc[LANES], dp[LANES];                                                                               \
        if (L < LANES) {                                                                                       \
            T s = dy[0], p = (x[0] - mu) * dy[0];                                                              \
            for (int64_t i = 1; i < L; i++) {                                                                  \
                s = s + dy[i];                                                                                 \
                p = p + (x[i] - mu) * dy[i];                                                                   \
            }                                                                                                  \
            *sum = s;                                                                                          \
            *dotp = p;                                                                                         \
            return;                                                                                            \
        }                                                                                                      \
        for (int j = 0; j < LANES; j++) {                                                                      \
            acc[j] = dy[j];                                                                                    \
            dp[j] = (x[j] - mu) * dy[j];                                                                       \
        }                                                                                                      \
        int64_t d = LANES;                                                                                     \
        for (; d < L - (L % LANES); d += LANES)                                                                \
            for (int j = 0; j < LANES; j++) {                                                                  \
                acc[j] = acc[j] + dy[d + j];                                                                   \
                dp[j] = FMA(x[d + j] - mu, dy[d + j], dp[j]);                                                  \
            }                                                                                                  \
        for (int j = 0; j < L - d; j++) {                                                                      \
            acc[j] = acc[j] + dy[d + j];                                                                       \
            dp[j] = FMA(x[d + j] - mu, dy[d + j], dp[j]);                                                      \
        }                                                                                                      \
        *sum = lanes_##SUF(acc);                                                                               \
        *dotp = lanes_##SUF(dp);                                                                               \
    }                                                                                                          \
    /* grad_input, grad_weight, grad_bias (each may be NULL) */                                                \
    static void bn_backward_##SUF(const T *dy, const T *x, int64_t nb, int64_t C, int64_t L, const T *w,       \
                                  const T *mean, const T *invstd, const T *rv, bool train, double eps, T *gx,  \
                                  T *gw, T *gb)                                                                \
    {                                                                                                          \
        int64_t N = nb * L;                                                                                    \
        for (int64_t c = 0; c < C; c++) {                                                                      \
            T mu = mean[c], is = train ? invstd[c] : (T)(1 / sqrt((double)rv[c] + eps));                       \
            T wc = w ? w[c] : 1;                                                                               \
            if (L == 1) {                                                                                      \
                T s = 0, p = 0;                                                                                \
                for (int64_t i = 0; i < nb; i++) {                                                             \
                    s = s + dy[i * C + c];                                                                     \
                    p = FMA(x[i * C + c] - mu, dy[i * C + c], p);                                              \
                }                                                                                              \
                if (gx && train) {                                                                             \
                    T k = p * is * is / (T)N, grad_mean = s / (T)N;                                            \
                    for (int64_t i = 0; i < nb; i++)                                                           \
                        gx[i * C + c] = DX_ROWS(x[i * C + c] - mu, k, dy[i * C + c] - grad_mean) * is * wc;    \
                } else if (gx) {                                                                               \
                    for (int64_t i = 0; i < nb; i++) gx[i * C + c] = dy[i * C + c] * is * wc;                  \
                }                                                                                              \
                if (gw) gw[c] = p * is;                                                                        \
                if (gb) gb[c] = s;                                                                             \
                continue;                                                                                      \
            }                                                                                                  \
            double sum = 0, dotp = 0;                                                                          \
            for (int64_t i = 0; i < nb; i++) {                                                                 \
                T ps, pd;                                                                                      \
                bn_plane_sums_##SUF(x + (i * C + c) * L, dy + (i * C + c) * L, L, mu, &ps, &pd);               \
                sum += ps;                                                                                     \
                dotp += pd;                                                                                    \
            }                                                                                                  \
            if (gx && train) {                                                                                 \
                T k = (T)dotp * is * is / (T)N, grad_mean = (T)(sum / (double)N);                              \
                for (int64_t i = 0; i < nb; i++)                                                               \
                    for (int64_t l = 0; l < L; l++) {                                                          \
                        int64_t at = (i * C + c) * L + l;                                                      \
                        gx[at] = FMA(-(x[at] - mu), k, dy[at] - grad_mean) * is * wc;                          \
                    }                                                                                          \
            } else if (gx) {                                                                                   \
                for (int64_t i = 0; i < nb; i++)                                                               \
                    for (int64_t l = 0; l < L; l++) {                                                          \
                        int64_t at = (i * C + c) * L + l;                                                      \
                        gx[at] = dy[at] * is * wc;                                                             \
                    }                                                                                          \
            }                                                                                                  \
            if (gw) gw[c] = (T)(dotp * is);                                                                    \
            if (gb) gb[c] = (T)sum;                                                                            \
        }                                                                                                      \
    }

/* (lanes_f32/lanes_f64: the horizontal sums of nn_lanes.h) */

/* _var_sum += (x - mean) * (x - mean): a float product widened, or one fma in double */
#define VAR_ACC_F32(v, d) ((v) += (double)((d) * (d)))
#define VAR_ACC_F64(v, d) ((v) = fma((d), (d), (v)))

/* (dy - grad_mean) - (x - mean) * k in the channels-last kernel: one fma for
   floats, two roundings for doubles (the contiguous kernel fuses both) */
#define DX_F32(xm, k, dyg) fmaf(-(xm), (k), (dyg))
#define DX_F64(xm, k, dyg) ((dyg) - (xm) * (k))

DEFINE_BN_KERNELS(f32, float, fmaf, sqrtf, 8, VAR_ACC_F32, DX_F32)
DEFINE_BN_KERNELS(f64, double, fma, sqrt, 4, VAR_ACC_F64, DX_F64)


/* batch_norm forward: statistics (training), running statistics, transform */
#define DEFINE_BATCH_NORM(SUF, T)                                                                            \
    static int batch_norm_##SUF(nn_kernel_args *a)                                                          \
    {                                                                                                       \
        nn_tensor *const *t = a->t;                                                                         \
        int64_t nb = a->i[0], C = a->i[1], L = a->i[2];                                                     \
        bool training = a->i[3];                                                                            \
        double momentum = a->d[0], eps = a->d[1];                                                           \
        T *save_mean = ptr(t[1]), *save_invstd = ptr(t[2]), *rm = ptr(t[6]), *rv = ptr(t[7]);               \
        if (training) {                                                                                     \
            T *var_sum = nn_malloc(sizeof(T) * (size_t)(C ? C : 1));                                        \
            if (!var_sum) return -1;                                                                        \
            bn_stats_##SUF(ptr(t[3]), nb, C, L, save_mean, var_sum);                                        \
            bn_update_##SUF(var_sum, save_mean, C, nb * L, momentum, eps, save_invstd, rm, rv);             \
            nn_free(var_sum);                                                                               \
        }                                                                                                   \
        bn_transform_##SUF(ptr(t[3]), ptr(t[0]), nb, C, L, training ? save_mean : rm, save_invstd, rv,      \
                           ptr(t[4]), ptr(t[5]), eps);                                                      \
        return 0;                                                                                           \
    }                                                                                                       \
    /* training: t[1], t[2] the batch mean and invstd; eval: the running mean and var */                   \
    static int batch_norm_backward_##SUF(nn_kernel_args *a)                                                 \
    {                                                                                                       \
        nn_tensor *const *t = a->t;                                                                         \
        bool train = a->i[3];                                                                               \
        bn_backward_##SUF(ptr(t[5]), ptr(t[3]), a->i[0], a->i[1], a->i[2], ptr(t[4]), ptr(t[1]),            \
                          train ? ptr(t[2]) : NULL, train ? NULL : ptr(t[2]), train, a->d[1], ptr(t[0]),     \
                          ptr(t[6]), ptr(t[7]));                                                            \
        return 0;                                                                                           \
    }

DEFINE_BATCH_NORM(f32, float)
DEFINE_BATCH_NORM(f64, double)

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
    case NN_NORM_GROUP: {
        nn_tensor *const *t = a->t;
        void *w = t[4] ? nn_data_ptr(t[4]) : NULL, *b = t[5] ? nn_data_ptr(t[5]) : NULL;
        if (t[3]->dtype == NN_BFLOAT16)
            return nn_cpu_group_norm_bf16(nn_data_ptr(t[3]), w, b, nn_data_ptr(t[0]), a->i[0], a->i[1], a->i[2], a->i[3],
                                          a->d[0]);
        if (t[3]->dtype == NN_FLOAT32)
            group_norm_f32(nn_data_ptr(t[3]), w, b, nn_data_ptr(t[0]), a->i[0], a->i[1], a->i[2], a->i[3], a->d[0]);
        else
            group_norm_f64(nn_data_ptr(t[3]), w, b, nn_data_ptr(t[0]), a->i[0], a->i[1], a->i[2], a->i[3], a->d[0]);
        return 0;
    }
    case NN_NORM_BATCH: return a->t[3]->dtype == NN_FLOAT32 ? batch_norm_f32(a) : batch_norm_f64(a);
    case NN_NORM_BATCH_BACKWARD: return a->t[3]->dtype == NN_FLOAT32 ? batch_norm_backward_f32(a) : batch_norm_backward_f64(a);
    }
    return nn_error_set(NN_ERR_RUNTIME, "norm kernel: unknown op code %d", (int)op);
}
