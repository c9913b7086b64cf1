/*
 * nn_conv.h — core's private 2-d convolution kernels through im2col and one
 * GEMM per group (core/conv_gemm.c), used by conv.c for float32 and float64.
 */
#ifndef NN_CONV_H
#define NN_CONV_H

#include "nn_int.h"

/* The geometry of one convolution: x [N, C, H, W] * w [O, C/groups, KH, KW] -> y [N, O, OH, OW]. */
typedef struct nn_conv_geom {
    int64_t n, c, h, w;      /* input */
    int64_t o, kh, kw;       /* weight */
    int64_t oh, ow;          /* output */
    int64_t stride[2], padding[2], dilation[2], groups;
} nn_conv_geom;

/* y = conv(x, w) + b over contiguous row-major float32 or float64 arrays (dt);
   b may be NULL. Borrows every array; writes y [N, O, OH, OW]. 0, or -1 with
   MemoryError or OpenBLAS's RuntimeError. */
int nn_conv2d_gemm(const nn_conv_geom *s, nn_dtype dt, const void *x, const void *w, const void *b, void *y);

/* The gradients of that convolution for gy [N, O, OH, OW]: gx [N, C, H, W] and
   gw [O, C/groups, KH, KW] (either NULL when not wanted), overwritten. 0 or -1
   as nn_conv2d_gemm. */
int nn_conv2d_gemm_backward(const nn_conv_geom *s, nn_dtype dt, const void *x, const void *w, const void *gy,
                            void *gx, void *gw);

#endif
