/* PLACEHOLDER — replaced by the real implementation; every function here fails. */
#include "nn_int.h"

nn_tensor * nn_mm(nn_tensor *a, nn_tensor *b) { (void)a; (void)b; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_mm is not implemented yet"); return NULL; }
nn_tensor * nn_bmm(nn_tensor *a, nn_tensor *b) { (void)a; (void)b; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_bmm is not implemented yet"); return NULL; }
nn_tensor * nn_matmul(nn_tensor *a, nn_tensor *b) { (void)a; (void)b; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_matmul is not implemented yet"); return NULL; }
int nn_mm_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "mm backward"); }
int nn_bmm_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "bmm backward"); }
int nn_dot_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "dot backward"); }
int nn_mv_backward(nn_node *n, nn_tensor **go, nn_tensor **gi) { (void)n; (void)go; (void)gi; return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "mv backward"); }
