/* PLACEHOLDER — replaced by the real implementation; every function here fails. */
#include "nn_int.h"

nn_tensor * nn_softmax(nn_tensor *a, int dim) { (void)a; (void)dim; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_softmax is not implemented yet"); return NULL; }
nn_tensor * nn_log_softmax(nn_tensor *a, int dim) { (void)a; (void)dim; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_log_softmax is not implemented yet"); return NULL; }
nn_tensor * nn_cat(int n, nn_tensor *const *ts, int dim) { (void)n; (void)ts; (void)dim; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_cat is not implemented yet"); return NULL; }
nn_tensor * nn_stack(int n, nn_tensor *const *ts, int dim) { (void)n; (void)ts; (void)dim; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_stack is not implemented yet"); return NULL; }
nn_tensor * nn_dropout(nn_tensor *a, double p, bool training) { (void)a; (void)p; (void)training; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_dropout is not implemented yet"); return NULL; }
nn_tensor * nn_mse_loss(nn_tensor *input, nn_tensor *target, nn_reduction reduction) { (void)input; (void)target; (void)reduction; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_mse_loss is not implemented yet"); return NULL; }
nn_tensor * nn_l1_loss(nn_tensor *input, nn_tensor *target, nn_reduction reduction) { (void)input; (void)target; (void)reduction; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_l1_loss is not implemented yet"); return NULL; }
nn_tensor * nn_cross_entropy(nn_tensor *input, nn_tensor *target, nn_reduction reduction,
                            int64_t ignore_index, double label_smoothing) { (void)input; (void)target; (void)reduction; (void)ignore_index; (void)label_smoothing; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_cross_entropy is not implemented yet"); return NULL; }
nn_tensor * nn_layer_norm(nn_tensor *input, int n_norm, const int64_t *normalized_shape,
                         nn_tensor *weight, nn_tensor *bias, double eps) { (void)input; (void)n_norm; (void)normalized_shape; (void)weight; (void)bias; (void)eps; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_layer_norm is not implemented yet"); return NULL; }
nn_tensor * nn_embedding(nn_tensor *weight, nn_tensor *indices, int64_t padding_idx) { (void)weight; (void)indices; (void)padding_idx; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_embedding is not implemented yet"); return NULL; }
int nn_softmax_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "softmax backward"); }
int nn_log_softmax_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "log_softmax backward"); }
int nn_cat_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "cat backward"); }
int nn_stack_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "stack backward"); }
int nn_mse_loss_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "mse_loss backward"); }
int nn_nll_loss_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nll_loss backward"); }
int nn_layer_norm_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "layer_norm backward"); }
int nn_embedding_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "embedding backward"); }
