/*
 * cpu/conv3d.c — Conv3d's float32 and float64 kernels (nn_conv3d.h): vol2col,
 * one GEMM per group through the one GEMM site (the gemm kernel), and col2vol,
 * the layout passes split over the batch on the pool's threads (parallel.c).
 *
 * Layout, as cpu/conv2d.c's: cols [C*KD*KH*KW, NB*P] holds every receptive field
 * of a block of NB samples, row (c, a, k, l), column (n, i, j, q); P = OD*OH*OW.
 *   forward   Y[O, NB*P] = W[O, K] @ cols              then y[n, o, p] = Y[o, n*P + p] + b[o]
 *   weight    gW[O, K]  += gY_n[O, P] @ cols_n^T        sample by sample, as ATen's slow_conv3d
 *   input     gcols      = W^T @ gY                     then col2vol adds gcols back into gx
 * (per group; K = C/groups*KD*KH*KW). Each output element is one dot product
 * whatever the blocking, so no result depends on the thread count.
 */
#include <string.h>

#include <stdbool.h>

#include "nn_conv3d.h"
#include "nn_conv_rows.h"
#include "nn_cpu.h"

typedef struct vol_job {
    const nn_conv3d_geom *s;
    int64_t P, NP, rows; /* OD*OH*OW, the block's samples * P, C*KD*KH*KW */
    int64_t n0;          /* the block's first sample */
    const void *x, *b;
    void *cols, *t, *y, *gx;
} vol_job;

#define DEFINE_VOL_PASSES(SUFFIX, T)                                                                               \
    /* cols[:, n*P ...] for the block's samples [begin, end) */                                                   \
    static void vol2col_##SUFFIX(void *vctx, int64_t begin, int64_t end)                                         \
    {                                                                                                             \
        const vol_job *j = vctx;                                                                                  \
        const nn_conv3d_geom *s = j->s;                                                                           \
        const T *x = j->x;                                                                                        \
        T *cols = j->cols;                                                                                        \
        int64_t kvol = s->kd * s->kh * s->kw, plane = s->h * s->w;                                                \
        for (int64_t r = 0; r < j->rows; r++)                                                                     \
            for (int64_t n = begin; n < end; n++) {                                                               \
                int64_t c = r / kvol, a = r / (s->kh * s->kw) % s->kd, k = r / s->kw % s->kh, l = r % s->kw;      \
                const T *vol = x + ((j->n0 + n) * s->c + c) * s->d * plane;                                       \
                T *dst = cols + r * j->NP + n * j->P;                                                             \
                for (int64_t z = 0; z < s->od; z++) {                                                             \
                    int64_t dz = z * s->stride[0] - s->padding[0] + a * s->dilation[0];                           \
                    for (int64_t i = 0; i < s->oh; i++) {                                                         \
                        int64_t row = i * s->stride[1] - s->padding[1] + k * s->dilation[1];                      \
                        bool out = dz < 0 || dz >= s->d || row < 0 || row >= s->h;                                \
                        conv_gather_row_##SUFFIX(dst + (z * s->oh + i) * s->ow,                                   \
                                                 out ? NULL : vol + dz * plane + row * s->w, s->ow, s->w,         \
                                                 s->stride[2], l * s->dilation[2] - s->padding[2]);               \
                    }                                                                                             \
                }                                                                                                 \
            }                                                                                                     \
    }                                                                                                             \
    /* gx[n] = the sum of cols' entries that came from each input element, samples [begin, end) */               \
    static void col2vol_##SUFFIX(void *vctx, int64_t begin, int64_t end)                                         \
    {                                                                                                             \
        const vol_job *j = vctx;                                                                                  \
        const nn_conv3d_geom *s = j->s;                                                                           \
        const T *cols = j->cols;                                                                                  \
        T *gx = j->gx;                                                                                            \
        int64_t kvol = s->kd * s->kh * s->kw, plane = s->h * s->w, per = s->c * s->d * plane;                    \
        for (int64_t n = begin; n < end; n++) {                                                                   \
            memset(gx + n * per, 0, sizeof(T) * (size_t)per);                                                     \
            for (int64_t r = 0; r < j->rows; r++) {                                                               \
                int64_t c = r / kvol, a = r / (s->kh * s->kw) % s->kd, k = r / s->kw % s->kh, l = r % s->kw;      \
                T *vol = gx + (n * s->c + c) * s->d * plane;                                                      \
                const T *src = cols + r * j->NP + n * j->P;                                                       \
                for (int64_t z = 0; z < s->od; z++) {                                                             \
                    int64_t dz = z * s->stride[0] - s->padding[0] + a * s->dilation[0];                           \
                    if (dz < 0 || dz >= s->d) continue;                                                           \
                    for (int64_t i = 0; i < s->oh; i++) {                                                         \
                        int64_t row = i * s->stride[1] - s->padding[1] + k * s->dilation[1];                      \
                        if (row < 0 || row >= s->h) continue;                                                     \
                        conv_scatter_row_##SUFFIX(vol + dz * plane + row * s->w, src + (z * s->oh + i) * s->ow,   \
                                                  s->ow, s->w, s->stride[2], l * s->dilation[2] - s->padding[2]); \
                    }                                                                                             \
                }                                                                                                 \
            }                                                                                                     \
        }                                                                                                         \
    }                                                                                                             \
    /* y[n, o, :] = t[o, n*P ...] + b[o], samples [begin, end) */                                                 \
    static void vol_from_rows_##SUFFIX(void *vctx, int64_t begin, int64_t end)                                   \
    {                                                                                                             \
        const vol_job *j = vctx;                                                                                  \
        conv_rows_to_samples_##SUFFIX(j->y, j->t, j->b, j->s->o, j->NP, j->P, j->n0, begin, end);                 \
    }

DEFINE_VOL_PASSES(f32, float)
DEFINE_VOL_PASSES(f64, double)

static void run_pass(vol_job *j, int64_t n, nn_range_fn f32, nn_range_fn f64, nn_dtype dt, int64_t per_sample)
{
    conv_over_samples(j, n, f32, f64, dt, per_sample);
}

/* A job over blocks of nb samples: cols (rows x nb*P) and t (O x nb*P) allocated. */
static int vol_job_init(vol_job *j, const nn_conv3d_geom *s, int64_t nb, nn_dtype dt)
{
    memset(j, 0, sizeof *j);
    j->s = s;
    j->P = s->od * s->oh * s->ow;
    j->NP = nb * j->P;
    j->rows = s->c * s->kd * s->kh * s->kw;
    return conv_scratch_alloc(&j->cols, &j->t, j->rows, s->o, j->NP, nn_dtype_size(dt));
}

static void vol_job_free(vol_job *j)
{
    nn_free(j->cols);
    nn_free(j->t);
}

/* c = op(a) @ op(b) + beta * c in dt: the one GEMM site (the gemm kernel). */
static int gemm(nn_dtype dt, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const void *a, int64_t lda,
                const void *b, int64_t ldb, double beta, void *c, int64_t ldc)
{
    return nn_cpu_blas_gemm(dt, ta, tb, m, n, k, a, lda, b, ldb, beta, c, ldc);
}

/* Samples per forward block: their columns take about this many bytes (cpu/conv2d.c's reason). */
#define VOL_BLOCK_BYTES (256 * 1024)

int nn_cpu_conv3d(const nn_conv3d_geom *s, const nn_tensor *x, const nn_tensor *w, const nn_tensor *b, nn_tensor *y)
{
    nn_dtype dt = x->dtype;
    size_t es = nn_dtype_size(dt);
    int64_t per_sample = s->c * s->kd * s->kh * s->kw * s->od * s->oh * s->ow * (int64_t)es;
    int64_t block = per_sample > 0 && per_sample < VOL_BLOCK_BYTES ? VOL_BLOCK_BYTES / per_sample : 1;
    if (block > s->n) block = s->n;
    vol_job j;
    if (vol_job_init(&j, s, block, dt) < 0) return -1;
    j.x = nn_data_ptr((nn_tensor *)x), j.b = b ? nn_data_ptr((nn_tensor *)b) : NULL, j.y = nn_data_ptr(y);
    const char *wd = nn_data_ptr((nn_tensor *)w);
    int64_t og = s->o / s->groups, K = j.rows / s->groups;
    int rc = 0;
    for (int64_t n0 = 0; n0 < s->n && rc == 0; n0 += block) {
        int64_t nb = s->n - n0 < block ? s->n - n0 : block;
        j.n0 = n0, j.NP = nb * j.P;
        run_pass(&j, nb, vol2col_f32, vol2col_f64, dt, j.rows * j.P);
        for (int64_t g = 0; g < s->groups && rc == 0; g++)
            rc = gemm(dt, false, false, og, j.NP, K, wd + (size_t)(g * og * K) * es, K,
                      (char *)j.cols + (size_t)(g * K * j.NP) * es, j.NP, 0.0, (char *)j.t + (size_t)(g * og * j.NP) * es,
                      j.NP);
        if (rc == 0) run_pass(&j, nb, vol_from_rows_f32, vol_from_rows_f64, dt, s->o * j.P);
    }
    vol_job_free(&j);
    return rc;
}

int nn_cpu_conv3d_backward(const nn_conv3d_geom *s, const nn_tensor *x, const nn_tensor *w, const nn_tensor *gy,
                           nn_tensor *gx, nn_tensor *gw)
{
    nn_dtype dt = x->dtype;
    size_t es = nn_dtype_size(dt);
    vol_job j;
    if (vol_job_init(&j, s, 1, dt) < 0) return -1; /* one sample at a time, as ATen's slow_conv3d */
    j.x = nn_data_ptr((nn_tensor *)x);
    const char *wd = nn_data_ptr((nn_tensor *)w), *gyd = nn_data_ptr((nn_tensor *)gy);
    char *gxd = gx ? nn_data_ptr(gx) : NULL, *gwd = gw ? nn_data_ptr(gw) : NULL;
    int64_t og = s->o / s->groups, K = j.rows / s->groups, per_x = s->c * s->d * s->h * s->w;
    int rc = 0;
    if (gw) memset(gwd, 0, (size_t)(s->o * K) * es);
    for (int64_t n = 0; n < s->n && rc == 0; n++) {
        const char *gyn = gyd + (size_t)(n * s->o * j.P) * es; /* gy[n] is [O, P] already */
        j.n0 = n;
        if (gw) {
            run_pass(&j, 1, vol2col_f32, vol2col_f64, dt, j.rows * j.P);
            for (int64_t g = 0; g < s->groups && rc == 0; g++)
                rc = gemm(dt, false, true, og, K, j.P, gyn + (size_t)(g * og * j.P) * es, j.P,
                          (char *)j.cols + (size_t)(g * K * j.P) * es, j.P, 1.0, gwd + (size_t)(g * og * K) * es, K);
        }
        if (gx && rc == 0) {
            for (int64_t g = 0; g < s->groups && rc == 0; g++)
                rc = gemm(dt, true, false, K, j.P, og, wd + (size_t)(g * og * K) * es, K,
                          gyn + (size_t)(g * og * j.P) * es, j.P, 0.0, (char *)j.cols + (size_t)(g * K * j.P) * es, j.P);
            j.gx = gxd + (size_t)(n * per_x) * es;
            if (rc == 0) run_pass(&j, 1, col2vol_f32, col2vol_f64, dt, j.rows * j.P);
        }
    }
    vol_job_free(&j);
    return rc;
}
