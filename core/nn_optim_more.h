/*
 * nn_optim_more.h — the per-parameter updates of torch.optim's RMSprop, Adagrad
 * and Adadelta (optim_more.c), as PyTorch 1.13's single-tensor CPU path computes
 * them, bit for bit. The optimizer objects themselves (param groups, state
 * dicts) are the language's (repl/bind_optim_more.c); each update here takes the
 * parameter, its grad and its state tensors.
 */
#ifndef NN_OPTIM_MORE_H
#define NN_OPTIM_MORE_H

#include "nn.h"

typedef struct nn_rmsprop_args {
    double lr, alpha, eps, weight_decay, momentum;
    bool centered, maximize;
} nn_rmsprop_args;

typedef struct nn_adagrad_args {
    double clr; /* lr / (1 + (step - 1) * lr_decay), as the caller computes it */
    double eps, weight_decay;
    bool maximize;
} nn_adagrad_args;

typedef struct nn_adadelta_args {
    double lr, rho, eps, weight_decay;
    bool maximize;
} nn_adadelta_args;

/* One step of _single_tensor_rmsprop for param (float32 or float64; updated in
   place, its version bumped once). grad (borrowed) is cast to param's dtype. The
   state tensors (borrowed, updated in place) must be contiguous tensors of
   param's shape and dtype: square_avg always, grad_avg when centered, buf when
   momentum > 0 (the others may be NULL). RuntimeError otherwise. 0 or -1. */
int nn_rmsprop_update(nn_tensor *param, nn_tensor *grad, nn_tensor *square_avg, nn_tensor *grad_avg, nn_tensor *buf,
                      const nn_rmsprop_args *a);
/* _single_tensor_adagrad's dense update (the step counter is the caller's). */
int nn_adagrad_update(nn_tensor *param, nn_tensor *grad, nn_tensor *sum, const nn_adagrad_args *a);
/* _single_tensor_adadelta. */
int nn_adadelta_update(nn_tensor *param, nn_tensor *grad, nn_tensor *square_avg, nn_tensor *acc_delta,
                       const nn_adadelta_args *a);

#endif
