/*
 * nn_conv_rows.h — the layout steps that cpu/conv2d.c and cpu/conv3d.c share
 * (private to core/cpu/, static inline): one row of im2col's gather, one row of
 * col2im's scatter-add, the copy of the GEMM's [O, N*P] rows into y with the
 * bias, the scratch buffers and the per-sample parallel pass.
 *
 * A row is the ow outputs along the last spatial dimension for one kernel tap:
 * output q stands for input column q*stride + off (off = tap*dilation - padding),
 * zero where that column lies outside [0, w).
 */
#ifndef NN_CONV_ROWS_H
#define NN_CONV_ROWS_H

#include <stdint.h>
#include <string.h>

#include "nn_cpu.h"

#define NN_DEFINE_CONV_ROWS(SUFFIX, T)                                                                           \
    /* d[q] = src[q*stride + off], zero outside the row; src NULL (a padding row): all zeros */                  \
    static inline void conv_gather_row_##SUFFIX(T *d, const T *src, int64_t ow, int64_t w, int64_t stride,     \
                                                int64_t off)                                                    \
    {                                                                                                           \
        if (!src) {                                                                                             \
            for (int64_t q = 0; q < ow; q++) d[q] = 0;                                                          \
            return;                                                                                             \
        }                                                                                                       \
        if (stride == 1) { /* one contiguous run, zeros either side */                                         \
            int64_t q0 = off < 0 ? -off : 0, q1 = w - off;                                                      \
            if (q0 > ow) q0 = ow;                                                                               \
            if (q1 > ow) q1 = ow;                                                                               \
            if (q1 < q0) q1 = q0;                                                                               \
            for (int64_t q = 0; q < q0; q++) d[q] = 0;                                                          \
            for (int64_t q = q0; q < q1; q++) d[q] = src[q + off]; /* short runs: no call */                   \
            for (int64_t q = q1; q < ow; q++) d[q] = 0;                                                         \
            return;                                                                                             \
        }                                                                                                       \
        for (int64_t q = 0; q < ow; q++) {                                                                      \
            int64_t col = q * stride + off;                                                                     \
            d[q] = col >= 0 && col < w ? src[col] : 0;                                                          \
        }                                                                                                       \
    }                                                                                                           \
    /* dst[q*stride + off] += ps[q] where that lies inside the row */                                           \
    static inline void conv_scatter_row_##SUFFIX(T *dst, const T *ps, int64_t ow, int64_t w, int64_t stride,   \
                                                 int64_t off)                                                   \
    {                                                                                                           \
        if (stride == 1) { /* one run: distinct elements, so it vectorizes */                                  \
            int64_t q0 = off < 0 ? -off : 0, q1 = w - off;                                                      \
            if (q1 > ow) q1 = ow;                                                                               \
            T *restrict pd = dst + off;                                                                         \
            const T *restrict pq = ps;                                                                          \
            for (int64_t q = q0; q < q1; q++) pd[q] += pq[q];                                                   \
            return;                                                                                             \
        }                                                                                                       \
        for (int64_t q = 0; q < ow; q++) {                                                                      \
            int64_t col = q * stride + off;                                                                     \
            if (col >= 0 && col < w) dst[col] += ps[q];                                                         \
        }                                                                                                       \
    }                                                                                                           \
    /* y[n0 + n, o, :] = t[o, n*P ...] + b[o] (b NULL: no bias) for the samples [begin, end) of t's block */     \
    static inline void conv_rows_to_samples_##SUFFIX(T *y, const T *t, const T *b, int64_t o_count, int64_t np, \
                                                     int64_t p, int64_t n0, int64_t begin, int64_t end)         \
    {                                                                                                           \
        for (int64_t n = begin; n < end; n++)                                                                   \
            for (int64_t o = 0; o < o_count; o++) {                                                             \
                const T *src = t + o * np + n * p;                                                              \
                T *dst = y + ((n0 + n) * o_count + o) * p, bias = b ? b[o] : 0;                                 \
                if (b)                                                                                          \
                    for (int64_t i = 0; i < p; i++) dst[i] = src[i] + bias;                                     \
                else                                                                                            \
                    memcpy(dst, src, sizeof(T) * (size_t)p);                                                    \
            }                                                                                                   \
    }

NN_DEFINE_CONV_ROWS(f32, float)
NN_DEFINE_CONV_ROWS(f64, double)

/* Allocates the scratch of one block: *cols (rows x np) and *t (o x np) elements
   of es bytes. Returns 0, or -1 with nothing held (nn_malloc's error set). */
static inline int conv_scratch_alloc(void **cols, void **t, int64_t rows, int64_t o, int64_t np, size_t es)
{
    *cols = nn_malloc((size_t)(rows * np + 1) * es);
    *t = *cols ? nn_malloc((size_t)(o * np + 1) * es) : NULL;
    if (*t) return 0;
    nn_free(*cols);
    *cols = NULL;
    return -1;
}

/* Runs a per-sample pass over n samples, about NN_GRAIN elements a chunk. */
static inline void conv_over_samples(void *job, int64_t n, nn_range_fn f32, nn_range_fn f64, nn_dtype dt,
                                     int64_t per_sample)
{
    int64_t grain = per_sample > 0 && per_sample < NN_GRAIN ? NN_GRAIN / per_sample : 1;
    nn_parallel_for(n, grain, dt == NN_FLOAT32 ? f32 : f64, job);
}

#endif
