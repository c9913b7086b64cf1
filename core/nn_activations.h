/*
 * nn_activations.h — the activation modules of torch.nn (activations.c):
 * ReLU, GELU, PReLU, Sigmoid, Tanh, Threshold, LeakyReLU, ELU, SiLU,
 * Softplus, Softmax and LogSoftmax, and the in-place activations
 * (torch.relu_, F.leaky_relu_, ...) their inplace=True forwards run.
 * Included by nn.h.
 *
 * A module keeps its configuration in its attrs under PyTorch's attribute
 * names (inplace, approximate, num_parameters, threshold, value,
 * negative_slope, alpha, beta, dim), as value objects, and its forward reads
 * them on every call, as PyTorch's does: nn_module_setattr(m, "inplace", ...)
 * changes what the next call does and what repr prints.
 *
 * Numbers PyTorch prints as the user gave them (Softplus(beta=1) prints
 * "beta=1", Softplus(beta=1.0) prints "beta=1.0") are passed as value
 * objects: an int, float or bool, which the constructor borrows (retains);
 * NULL means PyTorch's default, with PyTorch's type (Softplus's beta is the
 * int 1, LeakyReLU's negative_slope the float 0.01). Like PyTorch's, the
 * constructors do not check these values' types: a str stored as
 * negative_slope fails at forward with PyTorch's TypeError
 * ("leaky_relu(): argument 'negative_slope' (position 2) must be Number, not str").
 *
 * Every module's forward takes exactly one argument, `input` (positionally or
 * as a keyword), and fails with Python's TypeError otherwise
 * ("ReLU.forward() takes 2 positional arguments but 3 were given"); call it
 * through nn_module_call / nn_module_call1 so hooks run. With inplace true the
 * result is the input tensor itself (a new reference to it), written in place
 * with its version bumped once.
 *
 * The constructors return a new reference, or NULL with PyTorch's error.
 */
#ifndef NN_ACTIVATIONS_H
#define NN_ACTIVATIONS_H

extern const nn_module_class nn_relu_class, nn_gelu_class, nn_prelu_class, nn_sigmoid_class, nn_tanh_class,
    nn_threshold_class, nn_leaky_relu_class, nn_elu_class, nn_silu_class, nn_softplus_class, nn_softmax_class,
    nn_log_softmax_class;

/* nn.ReLU(inplace=False). repr "ReLU()" or "ReLU(inplace=True)". */
nn_module *nn_relu_new(bool inplace);

/* nn.GELU(approximate='none'); approximate NULL means 'none'. Any string is
   accepted (as PyTorch's constructor does); forward fails with RuntimeError
   "approximate argument must be either none or tanh." for others.
   repr "GELU(approximate='none')". */
nn_module *nn_gelu_new(const char *approximate);

/* nn.PReLU(num_parameters=1, init=0.25, dtype=None): a Parameter "weight" of
   shape [num_parameters] filled with init. dtype < 0 means float32 (the
   default dtype). Errors as PyTorch's: RuntimeError "Trying to create tensor
   with negative dimension -1: [-1]", "value cannot be converted to type float
   without overflow", "Only Tensors of floating point and complex dtype can
   require gradients". repr "PReLU(num_parameters=1)". */
nn_module *nn_prelu_new(int64_t num_parameters, double init, int dtype);

/* nn.Sigmoid(), nn.Tanh(): repr "Sigmoid()", "Tanh()". */
nn_module *nn_sigmoid_new(void);
nn_module *nn_tanh_new(void);

/* nn.Threshold(threshold, value, inplace=False): both numbers required (NULL
   fails with TypeError "Threshold.__init__() missing 1 required positional
   argument: 'value'", as Python's). repr "Threshold(threshold=0.1, value=20)". */
nn_module *nn_threshold_new(nn_object *threshold, nn_object *value, bool inplace);

/* nn.LeakyReLU(negative_slope=0.01, inplace=False): repr
   "LeakyReLU(negative_slope=0.01)" (", inplace=True" appended when set). */
nn_module *nn_leaky_relu_new(nn_object *negative_slope, bool inplace);

/* nn.ELU(alpha=1.0, inplace=False): repr "ELU(alpha=1.0)". */
nn_module *nn_elu_new(nn_object *alpha, bool inplace);

/* nn.SiLU(inplace=False): repr "SiLU()" or "SiLU(inplace=True)". */
nn_module *nn_silu_new(bool inplace);

/* nn.Softplus(beta=1, threshold=20) (both ints by default): repr
   "Softplus(beta=1, threshold=20)". */
nn_module *nn_softplus_new(nn_object *beta, nn_object *threshold);

/* nn.Softmax(dim=None), nn.LogSoftmax(dim=None): dim an int, or NULL / None.
   Without a dim, forward picks PyTorch's legacy implicit one (0 for inputs of
   0, 1 or 3 dims, else 1; PyTorch's deprecation warning is not printed).
   repr "Softmax(dim=1)", "LogSoftmax(dim=None)". */
nn_module *nn_softmax_new(nn_object *dim);
nn_module *nn_log_softmax_new(nn_object *dim);

/* In-place activations: torch.relu_(a), F.leaky_relu_(a, negative_slope),
   F.elu_(a, alpha), F.silu(a, inplace=True), F.threshold_(a, threshold, value).
   a (borrowed) is overwritten with the result and its version bumped; with
   autograd its grad_fn becomes PyTorch's (ReluBackward0, LeakyReluBackward1,
   EluBackward1, SiluBackward0, ThresholdBackward1). Errors as PyTorch's: a leaf
   that requires grad, a tensor whose elements share memory (an expanded one;
   threshold_ allows it, as PyTorch's does), the dtypes the op refuses. A view
   of a tensor that requires grad is refused with NotImplementedError (PyTorch
   rebases the view's history; nnscope's autograd has no CopySlices for that).
   0, or -1 with an error and a unchanged. */
int nn_relu_(nn_tensor *a);
int nn_leaky_relu_(nn_tensor *a, double negative_slope);
int nn_elu_(nn_tensor *a, double alpha);
int nn_silu_(nn_tensor *a);
int nn_threshold_(nn_tensor *a, double threshold, double value);

#endif
