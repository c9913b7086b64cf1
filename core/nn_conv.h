/*
 * nn_conv.h — the geometry of a 2-d convolution, shared by conv.c and the
 * conv2d kernels of core/kernels.def (the CPU's: core/cpu/conv2d.c).
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
    bool onednn;            /* float32 forward summed in the order of PyTorch 1.13's oneDNN kernels (cpu/conv2d_onednn.c);
                               false: im2col and the one GEMM site */
    bool onednn_input_grad; /* the input gradient in that order (oneDNN runs some through its GEMM) */
    bool onednn_weight_grad; /* the weight and bias gradients in that order (not with a dilation: oneDNN's GEMM) */
} nn_conv_geom;

#endif
