/*
 * nn_sampling_more.h — Tensor.cauchy_, geometric_ and log_normal_ (core/sampling_more.c):
 * PyTorch 1.13's draws from the current generator, in place; 0, or -1 with the
 * error set (RuntimeError with PyTorch's message for a bad argument or dtype).
 */
#ifndef NN_SAMPLING_MORE_H
#define NN_SAMPLING_MORE_H

#include "nn.h"

int nn_cauchy_(nn_tensor *t, double median, double sigma);
int nn_geometric_(nn_tensor *t, double p); /* any dtype but bool */
int nn_log_normal_(nn_tensor *t, double mean, double std);

#endif
