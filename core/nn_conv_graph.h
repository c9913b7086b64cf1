/*
 * nn_conv_graph.h — a convolution's backward under create_graph=True as one
 * ConvolutionBackwardBackward0 node (core/conv_grad_graph.c).
 */
#ifndef NN_CONV_GRAPH_H
#define NN_CONV_GRAPH_H

#include "nn_int.h"

/* The gradients gin[0..3) (x, w, bias; NULL where not made) of a convolution of x and
   w for g, computed by its kernels, recorded as one ConvolutionBackwardBackward0 node
   with edges to g, x and w as PyTorch's (create_graph). dims 1-3, transposed for
   conv_transposeNd; p in the convolution's layout (conv.c's for 1 and 2 dims with
   conv_transpose's output_padding at p->i[7], conv3d.c's for 3). On failure they
   are released. 0 or -1. */
int nn_conv_backward_node(int dims, bool transposed, nn_tensor *x, nn_tensor *w, nn_tensor *g, const nn_op_params *p,
                          nn_tensor **gin);
/* A convolution node n's backward: kernels(n, gout, gin) run without grad, then under
   create_graph (grad mode on, float32/float64 saved input) nn_conv_backward_node. 0 or -1. */
int nn_conv_kernel_grads(nn_node *n, nn_tensor **gout, nn_tensor **gin, int dims, bool transposed,
                         int (*kernels)(nn_node *, nn_tensor **, nn_tensor **));

#endif
