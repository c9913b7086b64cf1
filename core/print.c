/* PLACEHOLDER — replaced by the real implementation; every function here fails. */
#include "nn_int.h"

char * nn_tensor_repr(nn_tensor *t) { (void)t; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_tensor_repr is not implemented yet"); return NULL; }
nn_print_options * nn_print_options_get(void) {  nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_print_options_get is not implemented yet"); return NULL; }
