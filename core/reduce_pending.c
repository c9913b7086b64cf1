/* PLACEHOLDER — replaced by the real implementation; every function here fails. */
#include "nn_int.h"

nn_tensor * nn_var(nn_tensor *a, int n_dims, const int *dims, bool unbiased, bool keepdim) { (void)a; (void)n_dims; (void)dims; (void)unbiased; (void)keepdim; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_var is not implemented yet"); return NULL; }
nn_tensor * nn_std(nn_tensor *a, int n_dims, const int *dims, bool unbiased, bool keepdim) { (void)a; (void)n_dims; (void)dims; (void)unbiased; (void)keepdim; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_std is not implemented yet"); return NULL; }
nn_tensor * nn_max_all(nn_tensor *a) { (void)a; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_max_all is not implemented yet"); return NULL; }
nn_tensor * nn_min_all(nn_tensor *a) { (void)a; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_min_all is not implemented yet"); return NULL; }
int nn_max_dim(nn_tensor *a, int dim, bool keepdim, nn_tensor **values, nn_tensor **indices) { (void)a; (void)dim; (void)keepdim; (void)values; (void)indices; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_max_dim is not implemented yet"); return -1; }
int nn_min_dim(nn_tensor *a, int dim, bool keepdim, nn_tensor **values, nn_tensor **indices) { (void)a; (void)dim; (void)keepdim; (void)values; (void)indices; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_min_dim is not implemented yet"); return -1; }
nn_tensor * nn_argmax(nn_tensor *a, int dim, bool has_dim, bool keepdim) { (void)a; (void)dim; (void)has_dim; (void)keepdim; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_argmax is not implemented yet"); return NULL; }
nn_tensor * nn_norm(nn_tensor *a, double p, int n_dims, const int *dims, bool keepdim) { (void)a; (void)p; (void)n_dims; (void)dims; (void)keepdim; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_norm is not implemented yet"); return NULL; }
int nn_var_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "var backward"); }
int nn_std_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "std backward"); }
int nn_max_all_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "max_all backward"); }
int nn_min_all_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "min_all backward"); }
int nn_max_dim_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "max_dim backward"); }
int nn_min_dim_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "min_dim backward"); }
int nn_norm_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "norm backward"); }
