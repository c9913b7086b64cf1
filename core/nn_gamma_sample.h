/*
 * nn_gamma_sample.h — torch._standard_gamma and torch._sample_dirichlet
 * (core/gamma_sample.c): PyTorch's draws from the current generator; new
 * tensors, or NULL with the error set (RuntimeError for a dtype other than
 * float32/float64).
 */
#ifndef NN_GAMMA_SAMPLE_H
#define NN_GAMMA_SAMPLE_H

#include "nn.h"

nn_tensor *nn_standard_gamma(nn_tensor *alpha);
nn_tensor *nn_sample_dirichlet(nn_tensor *alpha); /* normalized over the last dim */
nn_tensor *nn_binomial(nn_tensor *count, nn_tensor *prob); /* broadcast; one dtype; no autograd */
/* The reparameterized gradients (core/gamma_grad.c; no autograd): d x / d alpha of
   standard gamma draws x, and torch._dirichlet_grad; operands broadcast, one float
   dtype (RuntimeError "Found dtype Double but expected Float" otherwise). */
nn_tensor *nn_standard_gamma_grad(nn_tensor *alpha, nn_tensor *x);
nn_tensor *nn_dirichlet_grad(nn_tensor *x, nn_tensor *alpha, nn_tensor *total);

#endif
