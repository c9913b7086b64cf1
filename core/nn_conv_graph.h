/*
 * nn_conv_graph.h — a 2-d convolution's gradients as differentiable ops
 * (core/conv_grad_graph.c), for backwards run with create_graph=True.
 */
#ifndef NN_CONV_GRAPH_H
#define NN_CONV_GRAPH_H

#include "nn_int.h"

/* gx of y = conv2d(x, w) for gy, x of sizes xsizes (4 dims); p in conv.c's layout
   (stride[2], padding[2], dilation[2], groups). New reference, or NULL with the error set. */
nn_tensor *nn_conv2d_grad_input_graph(nn_tensor *gy, nn_tensor *w, const int64_t *xsizes, const nn_op_params *p);
/* gw of y = conv2d(x, w) for gy, w of sizes wsizes (4 dims). New reference, or NULL. */
nn_tensor *nn_conv2d_grad_weight_graph(nn_tensor *x, nn_tensor *gy, const int64_t *wsizes, const nn_op_params *p);
/* The input and weight gradients (gin[0], gin[1], as needed) of a conv1d/conv2d (transposed
   false) or conv_transpose1d/2d (true) of x and w for g, dims 1 or 2; 0 or -1. */
int nn_conv_backward_graph(int dims, bool transposed, nn_tensor *x, nn_tensor *w, nn_tensor *g, const nn_op_params *p,
                           bool need_x, bool need_w, nn_tensor **gin);
/* The bias gradient of those under create_graph: g summed over dims (n of them), its node named as
   PyTorch's (ConvolutionBackwardBackward0). New reference, or NULL. */
nn_tensor *nn_conv_bias_grad_graph(nn_tensor *g, int n, const int *dims);
/* conv2d's gradients gin[0..3) (x, w, bias; NULL where not made), computed for g,
   recorded as one ConvolutionBackwardBackward0 node with edges to g, x and w as
   PyTorch's (create_graph); on failure they are released. 0 or -1. */
int nn_conv2d_backward_node(nn_tensor *x, nn_tensor *w, nn_tensor *g, const nn_op_params *p, nn_tensor **gin);

#endif
