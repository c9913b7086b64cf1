/*
 * cpu/conv2d.c — Conv2d's float32 and float64 kernels (nn_conv.h): im2col, one
 * GEMM per group through OpenBLAS, and the layout passes around it, each pass
 * split over the batch on the pool's threads (parallel.c).
 *
 * Layout: cols [C*KH*KW, N*OH*OW] holds every receptive field of the whole
 * batch, row (c, k, l), column (n, i, j); group g's rows are one slice of it.
 *   forward   Y[O, N*P]    = W[O, K] @ cols             then y[n, o, p] = Y[o, n*P + p] + b[o]
 *   weight    gW[O, K]    += gY[n][O, P] @ cols[n]^T   sample after sample
 *   input     gcols[n]     = W^T @ gY[n]               then col2im adds gcols back into gx[n]
 * (per group; K = C/groups*KH*KW, P = OH*OW): the backward one sample at a time
 * as ATen's slow_conv2d (PyTorch 1.13's path for float64, and for float32 where
 * it does not call oneDNN), so its bits; a float32 geometry marked onednn runs
 * cpu/conv2d_onednn.c instead. Each sample's pass writes only its own columns
 * or its own gx[n], and each GEMM splits over output elements only, so no
 * result depends on the thread count.
 */
#include <string.h>

#include "nn_conv_rows.h"
#include "nn_cpu.h"

typedef struct conv_job {
    const nn_conv_geom *s;
    int64_t P, NP, rows; /* OH*OW, N*P, C*KH*KW */
    int64_t n0;          /* the first sample of the block that cols and t hold (NP = its samples * P) */
    const void *x, *b;
    void *cols;          /* im2col's output, col2im's input */
    void *t;             /* [O, N*P]: Y or gY */
    void *y;
    void *gx;
} conv_job;

#define DEFINE_PASSES(SUFFIX, T)                                                                                   \
    /* cols[:, n*P ...] for the samples [begin, end) */                                                           \
    static void im2col_##SUFFIX(void *vctx, int64_t begin, int64_t end)                                          \
    {                                                                                                             \
        const conv_job *j = vctx;                                                                                 \
        const nn_conv_geom *s = j->s;                                                                             \
        const T *x = j->x;                                                                                        \
        T *cols = j->cols;                                                                                        \
        /* row by row, each row's samples in turn: one sequential stream of stores */                           \
        for (int64_t r = 0; r < j->rows; r++)                                                                     \
            for (int64_t n = begin; n < end; n++) {                                                               \
                int64_t c = r / (s->kh * s->kw), k = r / s->kw % s->kh, l = r % s->kw;                            \
                const T *plane = x + ((j->n0 + n) * s->c + c) * s->h * s->w;                                      \
                T *dst = cols + r * j->NP + n * j->P;                                                             \
                for (int64_t i = 0; i < s->oh; i++) {                                                             \
                    int64_t row = i * s->stride[0] - s->padding[0] + k * s->dilation[0];                          \
                    conv_gather_row_##SUFFIX(dst + i * s->ow, row < 0 || row >= s->h ? NULL : plane + row * s->w, \
                                             s->ow, s->w, s->stride[1], l * s->dilation[1] - s->padding[1]);      \
                }                                                                                                 \
            }                                                                                                     \
    }                                                                                                             \
    /* gx[n] = the sum of cols' entries that came from each input element, samples [begin, end) */               \
    static void col2im_##SUFFIX(void *vctx, int64_t begin, int64_t end)                                          \
    {                                                                                                             \
        const conv_job *j = vctx;                                                                                 \
        const nn_conv_geom *s = j->s;                                                                             \
        const T *cols = j->cols;                                                                                  \
        T *gx = j->gx;                                                                                            \
        for (int64_t n = begin; n < end; n++) {                                                                   \
            memset(gx + n * s->c * s->h * s->w, 0, sizeof(T) * (size_t)(s->c * s->h * s->w));                   \
            for (int64_t r = 0; r < j->rows; r++) {                                                               \
                int64_t c = r / (s->kh * s->kw), k = r / s->kw % s->kh, l = r % s->kw;                            \
                T *plane = gx + (n * s->c + c) * s->h * s->w;                                                     \
                const T *src = cols + r * j->NP + n * j->P;                                                       \
                for (int64_t i = 0; i < s->oh; i++) {                                                             \
                    int64_t row = i * s->stride[0] - s->padding[0] + k * s->dilation[0];                          \
                    if (row < 0 || row >= s->h) continue;                                                         \
                    conv_scatter_row_##SUFFIX(plane + row * s->w, src + i * s->ow, s->ow, s->w, s->stride[1],     \
                                              l * s->dilation[1] - s->padding[1]);                                \
                }                                                                                                 \
            }                                                                                                     \
        }                                                                                                         \
    }                                                                                                             \
    /* y[n, o, :] = t[o, n*P ...] + b[o], samples [begin, end) */                                                 \
    static void from_rows_##SUFFIX(void *vctx, int64_t begin, int64_t end)                                       \
    {                                                                                                             \
        const conv_job *j = vctx;                                                                                 \
        conv_rows_to_samples_##SUFFIX(j->y, j->t, j->b, j->s->o, j->NP, j->P, j->n0, begin, end);                 \
    }

DEFINE_PASSES(f32, float)
DEFINE_PASSES(f64, double)

/* c[m, n] (ld ldc) = op(a) @ op(b), op a transpose when ta/tb, in dt: the one GEMM site. */
static void gemm(nn_dtype dt, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const void *a, int64_t lda,
                 const void *b, int64_t ldb, void *c, int64_t ldc)
{
    nn_cpu_blas_gemm(dt, ta, tb, m, n, k, a, lda, b, ldb, 0.0, c, ldc);
}

/* Runs a per-sample pass over the batch. */
static void over_batch(conv_job *j, nn_range_fn f32, nn_range_fn f64, nn_dtype dt, int64_t per_sample)
{
    conv_over_samples(j, j->s->n, f32, f64, dt, per_sample);
}

/* A job for s with its sizes; cols (rows x N*P) and t (O x N*P) allocated. */
static int job_init(conv_job *j, const nn_conv_geom *s, nn_dtype dt)
{
    memset(j, 0, sizeof *j);
    j->s = s;
    j->P = s->oh * s->ow;
    j->NP = s->n * j->P;
    j->rows = s->c * s->kh * s->kw;
    return conv_scratch_alloc(&j->cols, &j->t, j->rows, s->o, j->NP, nn_dtype_size(dt));
}

static void job_free(conv_job *j)
{
    nn_free(j->cols);
    nn_free(j->t);
}

/* The forward runs over blocks of samples whose columns take about this many
   bytes, so that im2col's output is still in the cache when the GEMM packs it
   (the whole batch's columns are megabytes, written to memory and read back). */
#define FORWARD_BLOCK_BYTES (256 * 1024)

int nn_cpu_conv2d(const nn_conv_geom *s, const nn_tensor *xt, const nn_tensor *wt, const nn_tensor *bt, nn_tensor *yt)
{
    nn_dtype dt = yt->dtype;
    const void *x = nn_data_ptr(xt), *w = nn_data_ptr(wt), *b = bt ? nn_data_ptr(bt) : NULL;
    void *y = nn_data_ptr(yt);
    if (s->onednn && dt == NN_FLOAT32) return nn_cpu_conv2d_onednn(s, x, w, b, y);
    conv_job j;
    size_t es = nn_dtype_size(dt);
    const nn_blas *blas = nn_blas_get();
    if (!blas) return -1;
    int64_t per_sample = s->c * s->kh * s->kw * s->oh * s->ow * (int64_t)es;
    int64_t block = per_sample > 0 && per_sample < FORWARD_BLOCK_BYTES ? FORWARD_BLOCK_BYTES / per_sample : 1;
    if (block > s->n) block = s->n;
    if (!blas->columns_blockable) block = 1; /* a sample's product alone, as PyTorch's */
    nn_conv_geom bs = *s; /* one block's geometry: its sizes, the same image strides */
    bs.n = block;
    if (job_init(&j, &bs, dt) < 0) return -1;
    j.x = x, j.b = b, j.y = y;
    int64_t og = s->o / s->groups, K = j.rows / s->groups;
    for (int64_t n0 = 0; n0 < s->n; n0 += block) {
        /* each output element is the same dot product over K whatever the block */
        bs.n = s->n - n0 < block ? s->n - n0 : block;
        j.n0 = n0, j.NP = bs.n * j.P;
        over_batch(&j, im2col_f32, im2col_f64, dt, j.rows * j.P);
        for (int64_t g = 0; g < s->groups; g++)
            gemm(dt, false, false, og, j.NP, K, (const char *)w + (size_t)(g * og * K) * es, K,
                 (char *)j.cols + (size_t)(g * K * j.NP) * es, j.NP, (char *)j.t + (size_t)(g * og * j.NP) * es, j.NP);
        over_batch(&j, from_rows_f32, from_rows_f64, dt, s->o * j.P);
    }
    job_free(&j);
    return 0;
}

int nn_cpu_conv2d_backward(const nn_conv_geom *s, const nn_tensor *xt, const nn_tensor *wt, const nn_tensor *gyt,
                           nn_tensor *gxt, nn_tensor *gwt, nn_tensor *gbt)
{
    nn_dtype dt = xt->dtype;
    const void *x = nn_data_ptr(xt), *w = nn_data_ptr(wt), *gy = nn_data_ptr(gyt);
    void *gx = gxt ? nn_data_ptr(gxt) : NULL, *gw = gwt ? nn_data_ptr(gwt) : NULL;
    if ((s->onednn_input_grad || s->onednn_weight_grad) && dt == NN_FLOAT32) { /* others through the GEMM below */
        int rc = nn_cpu_conv2d_onednn_backward(s, x, w, gy, s->onednn_input_grad ? gx : NULL,
                                               s->onednn_weight_grad ? gw : NULL, gbt ? nn_data_ptr(gbt) : NULL);
        if (s->onednn_input_grad) gx = NULL;
        if (s->onednn_weight_grad) gw = NULL;
        if (rc < 0 || (!gx && !gw)) return rc;
    } else if (gbt) {
        return nn_error_set(NN_ERR_RUNTIME, "conv2d_backward: a bias gradient only in oneDNN's order");
    }
    /* ATen's slow_conv2d order, one sample at a time: gx[n] = col2im(W^T @ gy[n]); gW += gy[n] @ cols[n]^T
       (each sample's product added to the sum so far, as its beta-1 GEMM) */
    conv_job j;
    nn_conv_geom one = *s;
    one.n = 1;
    if (!nn_blas_get() || job_init(&j, &one, dt) < 0) return -1;
    j.x = x;
    size_t es = nn_dtype_size(dt);
    int64_t og = s->o / s->groups, K = j.rows / s->groups;
    if (gw) memset(gw, 0, (size_t)(s->o * K) * es);
    for (int64_t n = 0; n < s->n; n++) {
        const char *gyn = (const char *)gy + (size_t)(n * s->o * j.P) * es;
        if (gw) {
            j.n0 = n;
            (dt == NN_FLOAT32 ? im2col_f32 : im2col_f64)(&j, 0, 1);
            for (int64_t g = 0; g < s->groups; g++)
                nn_cpu_blas_gemm(dt, false, true, og, K, j.P, gyn + (size_t)(g * og * j.P) * es, j.P,
                                 (char *)j.cols + (size_t)(g * K * j.P) * es, j.P, 1.0,
                                 (char *)gw + (size_t)(g * og * K) * es, K);
        }
        if (gx) {
            for (int64_t g = 0; g < s->groups; g++)
                gemm(dt, true, false, K, j.P, og, (const char *)w + (size_t)(g * og * K) * es, K,
                     gyn + (size_t)(g * og * j.P) * es, j.P, (char *)j.cols + (size_t)(g * K * j.P) * es, j.P);
            j.gx = (char *)gx + (size_t)(n * s->c * s->h * s->w) * es;
            (dt == NN_FLOAT32 ? col2im_f32 : col2im_f64)(&j, 0, 1);
        }
    }
    job_free(&j);
    return 0;
}
