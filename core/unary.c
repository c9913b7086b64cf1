/* PLACEHOLDER — replaced by the real implementation; every function here fails. */
#include "nn_int.h"

nn_tensor * nn_neg(nn_tensor *a) { (void)a; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_neg is not implemented yet"); return NULL; }
nn_tensor * nn_exp(nn_tensor *a) { (void)a; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_exp is not implemented yet"); return NULL; }
nn_tensor * nn_log(nn_tensor *a) { (void)a; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_log is not implemented yet"); return NULL; }
nn_tensor * nn_sqrt(nn_tensor *a) { (void)a; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_sqrt is not implemented yet"); return NULL; }
nn_tensor * nn_abs(nn_tensor *a) { (void)a; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_abs is not implemented yet"); return NULL; }
nn_tensor * nn_tanh(nn_tensor *a) { (void)a; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_tanh is not implemented yet"); return NULL; }
nn_tensor * nn_sigmoid(nn_tensor *a) { (void)a; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_sigmoid is not implemented yet"); return NULL; }
nn_tensor * nn_relu(nn_tensor *a) { (void)a; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_relu is not implemented yet"); return NULL; }
nn_tensor * nn_gelu(nn_tensor *a, nn_gelu_approx approximate) { (void)a; (void)approximate; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_gelu is not implemented yet"); return NULL; }
nn_tensor * nn_leaky_relu(nn_tensor *a, double negative_slope) { (void)a; (void)negative_slope; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_leaky_relu is not implemented yet"); return NULL; }
nn_tensor * nn_elu(nn_tensor *a, double alpha) { (void)a; (void)alpha; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_elu is not implemented yet"); return NULL; }
nn_tensor * nn_silu(nn_tensor *a) { (void)a; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_silu is not implemented yet"); return NULL; }
nn_tensor * nn_softplus(nn_tensor *a, double beta, double threshold) { (void)a; (void)beta; (void)threshold; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_softplus is not implemented yet"); return NULL; }
nn_tensor * nn_threshold(nn_tensor *a, double threshold, double value) { (void)a; (void)threshold; (void)value; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_threshold is not implemented yet"); return NULL; }
nn_tensor * nn_prelu(nn_tensor *a, nn_tensor *weight) { (void)a; (void)weight; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_prelu is not implemented yet"); return NULL; }
nn_tensor * nn_clamp(nn_tensor *a, double min, bool has_min, double max, bool has_max) { (void)a; (void)min; (void)has_min; (void)max; (void)has_max; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_clamp is not implemented yet"); return NULL; }
int nn_neg_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "neg backward"); }
int nn_exp_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "exp backward"); }
int nn_log_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "log backward"); }
int nn_sqrt_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "sqrt backward"); }
int nn_abs_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "abs backward"); }
int nn_tanh_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "tanh backward"); }
int nn_sigmoid_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "sigmoid backward"); }
int nn_relu_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "relu backward"); }
int nn_gelu_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "gelu backward"); }
int nn_leaky_relu_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "leaky_relu backward"); }
int nn_elu_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "elu backward"); }
int nn_silu_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "silu backward"); }
int nn_softplus_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "softplus backward"); }
int nn_threshold_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "threshold backward"); }
int nn_prelu_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "prelu backward"); }
int nn_clamp_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "clamp backward"); }
