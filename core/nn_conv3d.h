/*
 * nn_conv3d.h — 3-d convolutions: the geometry shared by core/conv3d.c and the
 * conv3d kernels of core/kernels.def (the CPU's: core/cpu/conv3d.c), and the ops.
 */
#ifndef NN_CONV3D_H
#define NN_CONV3D_H

#include "nn.h"

/* One convolution: x [N, C, D, H, W] * w [O, C/groups, KD, KH, KW] -> y [N, O, OD, OH, OW]. */
typedef struct nn_conv3d_geom {
    int64_t n, c, d, h, w;   /* input */
    int64_t o, kd, kh, kw;   /* weight */
    int64_t od, oh, ow;      /* output */
    int64_t stride[3], padding[3], dilation[3], groups;
} nn_conv3d_geom;

/* F.conv3d(input [N, C, D, H, W] or unbatched [C, D, H, W], weight [O, C/groups, KD, KH, KW],
   bias [O] or NULL) with numeric padding: one ConvolutionBackward0 op, twice differentiable.
   New reference, or NULL with PyTorch's RuntimeError. */
nn_tensor *nn_conv3d(nn_tensor *input, nn_tensor *weight, nn_tensor *bias, const int64_t stride[3],
                     const int64_t padding[3], const int64_t dilation[3], int64_t groups);
/* F.conv_transpose3d(input, weight [C, O/groups, KD, KH, KW], bias, stride, padding,
   output_padding, groups, dilation): ConvolutionBackward0. New reference or NULL. */
nn_tensor *nn_conv_transpose3d(nn_tensor *input, nn_tensor *weight, nn_tensor *bias, const int64_t stride[3],
                               const int64_t padding[3], const int64_t output_padding[3], int64_t groups,
                               const int64_t dilation[3]);
/* For conv_grad_graph.c's double backward, as differentiable ops (p: this file's
   params): a conv3d's (transposed: conv_transpose3d's) input and weight gradients
   gin[0], gin[1] for g, as needed (0 or -1); and the op itself without bias. */
struct nn_op_params;
int nn_conv3d_backward_graph(bool transposed, nn_tensor *x, nn_tensor *w, nn_tensor *g, const struct nn_op_params *p,
                             bool need_x, bool need_w, nn_tensor **gin);
nn_tensor *nn_conv3d_forward_graph(bool transposed, nn_tensor *x, nn_tensor *w, const struct nn_op_params *p);

#endif
