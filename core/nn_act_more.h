/*
 * nn_act_more.h — more activations (core/act_more.c): ops with their
 * backwards, and the module classes built on them. New references or NULL.
 */
#ifndef NN_ACT_MORE_H
#define NN_ACT_MORE_H

#include "nn.h"
#include "nn_module.h"

nn_tensor *nn_hardtanh(nn_tensor *x, double min_val, double max_val);
nn_tensor *nn_hardswish(nn_tensor *x);
nn_tensor *nn_hardsigmoid(nn_tensor *x);
nn_tensor *nn_mish(nn_tensor *x);
nn_tensor *nn_logsigmoid(nn_tensor *x);
nn_tensor *nn_hardshrink(nn_tensor *x, double lambd);
nn_tensor *nn_softshrink(nn_tensor *x, double lambd);
nn_tensor *nn_celu(nn_tensor *x, double alpha);
/* One of the above by kind (0 hardtanh .. 7 celu, in that order), or 100 relu6,
   101 softsign, 102 tanhshrink, 103 softmin (a = dim), with numbers a, b. */
nn_tensor *nn_activation_more(int kind, nn_tensor *x, double a, double b);
/* Its in-place form: x (returned, retained) takes the values and a grad_fn. */
nn_tensor *nn_activation_more_(int kind, nn_tensor *x, double a, double b);
/* ReLU6, Hardtanh, Hardswish, Hardsigmoid, Mish, LogSigmoid, Hardshrink,
   Softshrink, CELU, Softsign, Tanhshrink, Softmin, in this order. */
extern const nn_module_class nn_act_more_classes[];
/* A module of the class named; a, b borrowed (NULL: PyTorch's default). */
nn_module *nn_activation_module_new(const char *name, nn_object *a, nn_object *b, bool inplace);

#endif
