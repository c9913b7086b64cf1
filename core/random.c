/* PLACEHOLDER — replaced by the real implementation; every function here fails. */
#include "nn_int.h"

nn_generator * nn_default_generator(void) {  nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_default_generator is not implemented yet"); return NULL; }
void nn_generator_seed(nn_generator *g, uint64_t seed) { (void)g; (void)seed; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_generator_seed is not implemented yet");  }
uint64_t nn_generator_initial_seed(const nn_generator *g) { (void)g; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_generator_initial_seed is not implemented yet"); return 0; }
uint32_t nn_generator_random(nn_generator *g) { (void)g; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_generator_random is not implemented yet"); return 0; }
uint64_t nn_generator_random64(nn_generator *g) { (void)g; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_generator_random64 is not implemented yet"); return 0; }
size_t nn_generator_state_size(void) {  nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_generator_state_size is not implemented yet"); return 0; }
void nn_generator_get_state(const nn_generator *g, void *out) { (void)g; (void)out; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_generator_get_state is not implemented yet");  }
int nn_generator_set_state(nn_generator *g, const void *in, size_t n) { (void)g; (void)in; (void)n; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_generator_set_state is not implemented yet"); return -1; }
nn_tensor * nn_rand(int ndim, const int64_t *sizes, nn_dtype dtype) { (void)ndim; (void)sizes; (void)dtype; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_rand is not implemented yet"); return NULL; }
nn_tensor * nn_randn(int ndim, const int64_t *sizes, nn_dtype dtype) { (void)ndim; (void)sizes; (void)dtype; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_randn is not implemented yet"); return NULL; }
nn_tensor * nn_randint(int64_t low, int64_t high, int ndim, const int64_t *sizes, nn_dtype dtype) { (void)low; (void)high; (void)ndim; (void)sizes; (void)dtype; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_randint is not implemented yet"); return NULL; }
nn_tensor * nn_randperm(int64_t n, nn_dtype dtype) { (void)n; (void)dtype; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_randperm is not implemented yet"); return NULL; }
int nn_uniform_(nn_tensor *t, double from, double to) { (void)t; (void)from; (void)to; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_uniform_ is not implemented yet"); return -1; }
int nn_normal_(nn_tensor *t, double mean, double std) { (void)t; (void)mean; (void)std; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_normal_ is not implemented yet"); return -1; }
int nn_bernoulli_(nn_tensor *t, double p) { (void)t; (void)p; nn_error_set(NN_ERR_NOT_IMPLEMENTED, "nn_bernoulli_ is not implemented yet"); return -1; }
