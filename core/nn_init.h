/*
 * nn_init.h — torch.nn.init (init.c): fills a tensor in place with PyTorch's
 * initialisation schemes, drawing from the default generator exactly as
 * PyTorch 1.13 does (tensor.uniform_ / normal_ under no_grad), so a seeded
 * program gets PyTorch's numbers. Included by nn.h.
 *
 * Every fill runs with grad mode off (a leaf Parameter can be filled), bumps
 * the tensor's version, and returns 0, or -1 with PyTorch's error (the tensor
 * unchanged). All borrow their tensor.
 */
#ifndef NN_INIT_H
#define NN_INIT_H

/* init.uniform_(t, a, b): U(a, b). */
int nn_init_uniform_(nn_tensor *t, double a, double b);
/* init.normal_(t, mean, std): N(mean, std^2). */
int nn_init_normal_(nn_tensor *t, double mean, double std);
/* init.constant_(t, val), ones_(t), zeros_(t). */
int nn_init_constant_(nn_tensor *t, double val);
int nn_init_ones_(nn_tensor *t);
int nn_init_zeros_(nn_tensor *t);

/* init._calculate_fan_in_and_fan_out(t): fan_in = size(1) * receptive field,
   fan_out = size(0) * receptive field (receptive field: the product of dims 2..).
   ValueError "Fan in and fan out can not be computed for tensor with fewer than
   2 dimensions" below 2-D. 0 or -1. */
int nn_init_calculate_fan_in_and_fan_out(const nn_tensor *t, int64_t *fan_in, int64_t *fan_out);

/* init.calculate_gain(nonlinearity, param): 1 for linear, conv*, conv_transpose*
   and sigmoid (a Python int), 5/3 for tanh, sqrt(2) for relu, 3/4 for selu,
   sqrt(2 / (1 + slope^2)) for leaky_relu with slope = param (None: 0.01).
   param is borrowed, NULL for None; leaky_relu takes an int or a float (a bool
   or anything else: ValueError "negative_slope True not a valid number").
   Another name: ValueError "Unsupported nonlinearity foo".
   Returns a new reference to an int or float object, or NULL. */
nn_object *nn_init_calculate_gain(const char *nonlinearity, nn_object *param);

/* init.xavier_uniform_(t, gain): U(-a, a), a = gain * sqrt(6 / (fan_in + fan_out)).
   init.xavier_normal_(t, gain): N(0, std^2), std = gain * sqrt(2 / (fan_in + fan_out)). */
int nn_init_xavier_uniform_(nn_tensor *t, double gain);
int nn_init_xavier_normal_(nn_tensor *t, double gain);

/* init.kaiming_uniform_(t, a, mode, nonlinearity): U(-bound, bound),
   bound = sqrt(3) * gain / sqrt(fan); init.kaiming_normal_: N(0, (gain / sqrt(fan))^2).
   a is the negative slope given to calculate_gain (borrowed; NULL: 0), mode
   "fan_in" (NULL) or "fan_out", any case (ValueError "Mode fan_avg not supported,
   please use one of ['fan_in', 'fan_out']"), nonlinearity NULL: "leaky_relu".
   A tensor with a zero-sized dim is left as is (PyTorch warns "Initializing
   zero-element tensors is a no-op"; the warning goes to stderr). */
int nn_init_kaiming_uniform_(nn_tensor *t, nn_object *a, const char *mode, const char *nonlinearity);
int nn_init_kaiming_normal_(nn_tensor *t, nn_object *a, const char *mode, const char *nonlinearity);

/* The reset_parameters of Linear and _ConvNd: kaiming_uniform_(weight, a=sqrt(5)),
   then bias (NULL: none) from U(-1/sqrt(fan_in), 1/sqrt(fan_in)), the same draws. */
int nn_init_reset_weight_bias(nn_tensor *weight, nn_tensor *bias);

#endif
