/*
 * nn_conv_onednn.h — the job that cpu/conv2d_onednn.c (the order, the portable
 * loops, the dispatch) shares with cpu/conv2d_onednn_avx2.c (the same sums in
 * AVX2 registers: 8 channels to a vector, as oneDNN's own kernels hold them).
 */
#ifndef NN_CONV_ONEDNN_H
#define NN_CONV_ONEDNN_H

#include "nn_cpu.h"

#define NN_CONV_BLOCK 8 /* oneDNN's channel block on AVX2 */

typedef struct nn_conv_job {
    const nn_conv_geom *s;
    const float *x, *w, *b, *gy;
    float *y, *gx;
    float *part;      /* a group's part of gx (NULL when there is one group) */
    int64_t group;    /* output channels a part of gx sums */
    const float *gyt; /* gy as [N*OH*OW, lanes], zeros past O */
    float *acc;       /* the weight gradient as [C, KH*KW, lanes] */
    int64_t lanes;    /* O rounded up to a multiple of 8 */
    /* the AVX2 kernels' layouts (zeros past O or C): */
    /* w as [lanes / 8, C*KH*KW, 8] (forward) and [clanes / 8, O*KH*KW, 8] (input
       gradient), a lane block's terms in the order its sums take them: block of
       8 summed channels (input channels; output channels), kh, kw, channel */
    const float *wt, *wtc;
    const float *bp;  /* b as [lanes] */
} nn_conv_job;

/* The outputs [*lo, *hi) of a dim of `out` whose input q*stride + off lies inside [0, size). */
static inline void nn_conv_inside(int64_t off, int64_t stride, int64_t size, int64_t out, int64_t *lo, int64_t *hi)
{
    int64_t a = off >= 0 ? 0 : (-off + stride - 1) / stride;
    int64_t b = size - 1 - off < 0 ? 0 : (size - 1 - off) / stride + 1;
    if (b > out) b = out;
    *lo = a < b ? a : b, *hi = b;
}

/* Whether this CPU runs the AVX2 kernels (and this build has them). */
bool nn_conv_onednn_avx2(void);
/* The AVX2 kernels, nn_range_fn's over: samples (forward, input gradient) and
   (output block, pair of input channels) units (weight gradient: false when
   KW > 7, which they do not cover). */
void nn_conv_onednn_forward_avx2(void *job, int64_t begin, int64_t end);
void nn_conv_onednn_input_grad_avx2(void *job, int64_t begin, int64_t end);
void nn_conv_onednn_weight_grad_avx2(void *job, int64_t begin, int64_t end);
/* A 1x1 kernel without padding in jit_1x1's blocks (cpu/conv2d_1x1_avx2.c):
   y; gx; the weight gradient as acc [C, lanes] from gyt [N*OH*OW, lanes]. Each
   0, or -1 when out of memory (or in a build without the AVX2 kernels). */
int nn_conv_1x1_forward_avx2(const nn_conv_geom *s, const float *x, const float *w, const float *b, float *y);
int nn_conv_1x1_input_grad_avx2(const nn_conv_geom *s, const float *w, const float *gy, float *gx);
int nn_conv_1x1_weight_grad_avx2(const nn_conv_geom *s, const float *x, const float *gyt, int64_t lanes, float *acc);

#endif
