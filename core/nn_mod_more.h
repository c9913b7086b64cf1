/*
 * nn_mod_more.h — more of torch.nn in core: selu, glu, rrelu (act_extra.c),
 * F.pad's modes (pad.c), channel and alpha dropout (dropout_more.c) and the
 * module classes over them (modules_more.c). Inputs borrowed; results are new
 * references, or NULL with PyTorch's error set.
 */
#ifndef NN_MOD_MORE_H
#define NN_MOD_MORE_H

#include "nn_int.h"

nn_tensor *nn_selu(nn_tensor *x);
nn_tensor *nn_selu_(nn_tensor *x); /* in place: x (retained) takes the result and its history */
nn_tensor *nn_glu(nn_tensor *x, int dim);
/* training: slopes drawn from the current generator; else (lower + upper) / 2 */
nn_tensor *nn_rrelu(nn_tensor *x, double lower, double upper, bool training);
/* in place: x (retained) takes the result and its history */
nn_tensor *nn_rrelu_(nn_tensor *x, double lower, double upper, bool training);

/* pad: n_pad numbers in F.pad's order (last dim's left, right, then the dim before ...) */
typedef enum nn_pad_mode { NN_PAD_CONSTANT, NN_PAD_REFLECT, NN_PAD_REPLICATE, NN_PAD_CIRCULAR } nn_pad_mode;
nn_tensor *nn_pad(nn_tensor *x, int n_pad, const int64_t *pad, nn_pad_mode mode, double value);
nn_tensor *nn_constant_pad_nd(nn_tensor *x, int n_pad, const int64_t *pad, double value);
/* reflection (reflect) or replication padding of the last k (1..3) dims */
nn_tensor *nn_index_pad(nn_tensor *x, int k, const int64_t *pad, bool reflect);
nn_tensor *nn_circular_pad(nn_tensor *x, int k, const int64_t *pad);

/* _VF.feature_dropout / alpha_dropout / feature_alpha_dropout (inplace: the
   trailing-underscore forms, x retained and returned) */
nn_tensor *nn_dropout_kind(nn_tensor *x, double p, bool training, bool feature, bool alpha, bool inplace);
/* F.dropout1d/2d/3d (nd 1..3): their input checks and warnings, then feature dropout */
nn_tensor *nn_dropout_nd(nn_tensor *x, int nd, double p, bool training, bool inplace);

/* Module classes: SELU, GLU, RReLU, Softmax2d, Unflatten, Dropout1d, Dropout2d,
   Dropout3d, AlphaDropout, FeatureAlphaDropout, the padding modules. A module
   keeps its settings as attributes (set by the caller from PyTorch's
   constructor arguments, normalised as PyTorch stores them); forward reads them. */
extern const nn_module_class nn_more_classes[];
/* The class named (NULL if none of them). */
const nn_module_class *nn_more_class(const char *name);
/* A module of class name with n attributes (values borrowed). */
nn_module *nn_more_module_new(const char *name, int n, const char *const *names, nn_object *const *values);

#endif
