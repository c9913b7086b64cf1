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
    int64_t z0, zb;      /* a depth block's first output depth and depth count (vol2col_depths) */
    const void *x, *b;
    void *cols, *t, *y, *gx;
} vol_job;

#define DEFINE_VOL_PASSES(SUFFIX, T)                                                                               \
    /* dst[...] = row r of the columns of sample n over output depths [z0, z1) */                                 \
    static inline void vol2col_row_##SUFFIX(const nn_conv3d_geom *s, const T *x, int64_t n, int64_t r, int64_t z0, \
                                            int64_t z1, T *dst)                                                   \
    {                                                                                                             \
        int64_t kvol = s->kd * s->kh * s->kw, plane = s->h * s->w;                                                \
        int64_t c = r / kvol, a = r / (s->kh * s->kw) % s->kd, k = r / s->kw % s->kh, l = r % s->kw;              \
        const T *vol = x + (n * s->c + c) * s->d * plane;                                                         \
        for (int64_t z = z0; z < z1; z++) {                                                                       \
            int64_t dz = z * s->stride[0] - s->padding[0] + a * s->dilation[0];                                   \
            for (int64_t i = 0; i < s->oh; i++) {                                                                 \
                int64_t row = i * s->stride[1] - s->padding[1] + k * s->dilation[1];                              \
                bool out = dz < 0 || dz >= s->d || row < 0 || row >= s->h;                                        \
                conv_gather_row_##SUFFIX(dst + ((z - z0) * s->oh + i) * s->ow,                                    \
                                         out ? NULL : vol + dz * plane + row * s->w, s->ow, s->w, s->stride[2],   \
                                         l * s->dilation[2] - s->padding[2]);                                     \
            }                                                                                                     \
        }                                                                                                         \
    }                                                                                                             \
    /* cols[:, n*P ...] for the block's samples [begin, end) */                                                   \
    static void vol2col_##SUFFIX(void *vctx, int64_t begin, int64_t end)                                         \
    {                                                                                                             \
        const vol_job *j = vctx;                                                                                  \
        for (int64_t r = 0; r < j->rows; r++)                                                                     \
            for (int64_t n = begin; n < end; n++)                                                                 \
                vol2col_row_##SUFFIX(j->s, j->x, j->n0 + n, r, 0, j->s->od, (T *)j->cols + r * j->NP + n * j->P); \
    }                                                                                                             \
    /* cols[r, :] for rows [begin, end) of one sample (j->n0) and output depths [z0, z0 + zb): the columns  \
       of a depth block (nn_cpu_conv3d), split over rows */                                                    \
    static void vol2col_depths_##SUFFIX(void *vctx, int64_t begin, int64_t end)                                  \
    {                                                                                                             \
        const vol_job *j = vctx;                                                                                  \
        for (int64_t r = begin; r < end; r++)                                                                     \
            vol2col_row_##SUFFIX(j->s, j->x, j->n0, r, j->z0, j->z0 + j->zb, (T *)j->cols + r * j->NP);           \
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

/* A job whose blocks have np columns: cols (rows x np) and t (O x np) allocated. */
static int vol_job_init_np(vol_job *j, const nn_conv3d_geom *s, int64_t np, nn_dtype dt)
{
    memset(j, 0, sizeof *j);
    j->s = s;
    j->P = s->od * s->oh * s->ow;
    j->NP = np;
    j->rows = s->c * s->kd * s->kh * s->kw;
    return conv_scratch_alloc(&j->cols, &j->t, j->rows, s->o, j->NP, nn_dtype_size(dt));
}

/* A job over blocks of nb samples: cols (rows x nb*P) and t (O x nb*P) allocated. */
static int vol_job_init(vol_job *j, const nn_conv3d_geom *s, int64_t nb, nn_dtype dt)
{
    return vol_job_init_np(j, s, nb * s->od * s->oh * s->ow, dt);
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

/* Columns per GEMM of a depth block: at least this many (see conv3d_by_depths). */
#define DEPTH_BLOCK_COLS 1024
#define DEPTH_BLOCK_MNK (1 << 23)

static void add_bias(nn_dtype dt, char *y, const char *b, int64_t o, int64_t P, int64_t p0, int64_t np)
{
    for (int64_t r = 0; r < o; r++)
        if (dt == NN_FLOAT32) {
            float *row = (float *)y + r * P + p0, bias = ((const float *)b)[r];
            for (int64_t q = 0; q < np; q++) row[q] = row[q] + bias;
        } else {
            double *row = (double *)y + r * P + p0, bias = ((const double *)b)[r];
            for (int64_t q = 0; q < np; q++) row[q] = row[q] + bias;
        }
}

/* The forward of large samples, a block of output depths at a time: a sample's
   columns (rows x P, 28 MB for C=16, k=3 over 16x32x32) would leave the caches
   between vol2col writing them and the GEMM reading them; a depth block's
   (rows x zb*OH*OW) stay nearer. Each block's GEMM writes y[n, :, block]
   directly (ldc P), the bias added after, as vol_from_rows adds it: y = t + b.
   Each output element is still one dot product over the same K, and OpenBLAS
   takes the path the whole sample's product takes (it picks one by the sizes:
   its small-matrix kernels below about M*N*K = 10^6, so a block keeps
   M*N*K >= DEPTH_BLOCK_MNK; its single-threaded driver when M or N is under
   threads * SWITCH_RATIO, so a block keeps N >= M: if M is over, N is too), so
   the bits are the unblocked forward's (test_conv3d_blocks). vol2col of a
   block splits over rows on the pool's threads. */
static int conv3d_by_depths(const nn_conv3d_geom *s, const nn_tensor *x, const nn_tensor *w, const nn_tensor *b,
                            nn_tensor *y, int64_t zb)
{
    nn_dtype dt = x->dtype;
    size_t es = nn_dtype_size(dt);
    int64_t plane = s->oh * s->ow;
    vol_job j;
    if (vol_job_init_np(&j, s, (2 * zb - 1) * plane, dt) < 0) return -1; /* the largest block: 2 zb - 1 depths */
    j.x = nn_data_ptr((nn_tensor *)x);
    const char *wd = nn_data_ptr((nn_tensor *)w), *bd = b ? nn_data_ptr((nn_tensor *)b) : NULL;
    char *yd = nn_data_ptr(y);
    int64_t og = s->o / s->groups, K = j.rows / s->groups;
    int rc = 0;
    for (int64_t n = 0; n < s->n && rc == 0; n++) {
        char *yn = yd + (size_t)(n * s->o * j.P) * es;
        for (int64_t z0 = 0; z0 < s->od && rc == 0; z0 += j.zb) {
            j.n0 = n, j.z0 = z0, j.zb = s->od - z0 < 2 * zb ? s->od - z0 : zb, j.NP = j.zb * plane; /* the last takes the rest */
            nn_parallel_for(j.rows, j.rows * j.NP * (int64_t)es >= 2 * VOL_BLOCK_BYTES ? (j.rows + 7) / 8 : j.rows,
                            dt == NN_FLOAT32 ? vol2col_depths_f32 : vol2col_depths_f64, &j);
            for (int64_t g = 0; g < s->groups && rc == 0; g++)
                rc = gemm(dt, false, false, og, j.NP, K, wd + (size_t)(g * og * K) * es, K,
                          (char *)j.cols + (size_t)(g * K * j.NP) * es, j.NP, 0.0,
                          yn + (size_t)(g * og * j.P + z0 * plane) * es, j.P);
            if (rc == 0 && bd) add_bias(dt, yn, bd, s->o, j.P, z0 * plane, j.NP);
        }
    }
    vol_job_free(&j);
    return rc;
}

int nn_cpu_conv3d(const nn_conv3d_geom *s, const nn_tensor *x, const nn_tensor *w, const nn_tensor *b, nn_tensor *y)
{
    nn_dtype dt = x->dtype;
    size_t es = nn_dtype_size(dt);
    const nn_blas *blas = nn_blas_get();
    if (!blas) return -1;
    int64_t per_sample = s->c * s->kd * s->kh * s->kw * s->od * s->oh * s->ow * (int64_t)es;
    int64_t block = per_sample > 0 && per_sample < VOL_BLOCK_BYTES ? VOL_BLOCK_BYTES / per_sample : 1;
    if (block > s->n) block = s->n;
    if (!blas->columns_blockable) block = 1; /* each sample's whole product, as PyTorch's */
    /* a block's GEMM: N >= DEPTH_BLOCK_COLS, and M*N*K >= DEPTH_BLOCK_MNK per group (OpenBLAS takes
       its small-matrix kernels, another order of the sums, for products below about 10^6) */
    int64_t plane = s->oh * s->ow, mk = (s->o / s->groups) * (s->c / s->groups * s->kd * s->kh * s->kw);
    int64_t cols = mk > 0 && DEPTH_BLOCK_MNK / mk > DEPTH_BLOCK_COLS ? DEPTH_BLOCK_MNK / mk : DEPTH_BLOCK_COLS;
    if (cols < s->o / s->groups) cols = s->o / s->groups;
    int64_t zb = plane > 0 ? (cols + plane - 1) / plane : 0;
    if (blas->columns_blockable && block == 1 && plane > 0 && 2 * zb <= s->od) return conv3d_by_depths(s, x, w, b, y, zb);
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
