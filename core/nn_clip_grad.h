/*
 * nn_clip_grad.h — torch.nn.utils: gradient clipping and parameters as one
 * vector (clip_grad.c). Included by nn.h. params are borrowed arrays of n tensors.
 */
#ifndef NN_CLIP_GRAD_H
#define NN_CLIP_GRAD_H

/* clip_grad_norm_: the norm_type-norm (inf allowed) of all the .grads together, a new
   float32 [] tensor (tensor(0.) when none has a grad); each .grad is scaled in place by
   min(1, max_norm / (total + 1e-6)). error_if_nonfinite: RuntimeError (PyTorch's
   words) for a NaN or infinite total, grads untouched. */
nn_tensor *nn_clip_grad_norm_(nn_tensor *const *params, size_t n, double max_norm, double norm_type,
                              bool error_if_nonfinite);
/* clip_grad_value_: each .grad clamped in place to [-clip_value, clip_value]. 0 or -1. */
int nn_clip_grad_value_(nn_tensor *const *params, size_t n, double clip_value);
/* parameters_to_vector: cat of each parameter viewed as 1-D (autograd-recorded). New reference. */
nn_tensor *nn_parameters_to_vector(nn_tensor *const *params, size_t n);
/* vector_to_parameters: each parameter's data becomes the next slice of vec (sharing
   vec's storage, as `param.data = ...`). 0 or -1. */
int nn_vector_to_parameters(nn_tensor *vec, nn_tensor *const *params, size_t n);

#endif
