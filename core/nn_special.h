/*
 * nn_special.h — torch's special functions (core/special.c): lgamma, digamma,
 * polygamma, mvlgamma, i0, sinc and torch.special's i0e, i1, i1e, ndtr, ndtri,
 * log_ndtr, erfcx, entr, xlog1py, zeta. Each returns a new tensor (float32 for
 * integer inputs) recording its backward, or NULL with the error set.
 */
#ifndef NN_SPECIAL_H
#define NN_SPECIAL_H

#include "nn.h"

nn_tensor *nn_lgamma(nn_tensor *a);
nn_tensor *nn_digamma(nn_tensor *a);
nn_tensor *nn_polygamma(int64_t n, nn_tensor *a); /* RuntimeError for n < 0 */
nn_tensor *nn_mvlgamma(nn_tensor *a, int64_t p);  /* RuntimeError for p < 1 or a bool tensor */
nn_tensor *nn_i0(nn_tensor *a);
nn_tensor *nn_sinc(nn_tensor *a);
nn_tensor *nn_special_i0e(nn_tensor *a);
nn_tensor *nn_special_i1(nn_tensor *a);
nn_tensor *nn_special_i1e(nn_tensor *a);
nn_tensor *nn_special_ndtr(nn_tensor *a);
nn_tensor *nn_special_ndtri(nn_tensor *a);
nn_tensor *nn_special_log_ndtr(nn_tensor *a);
nn_tensor *nn_special_erfcx(nn_tensor *a);
nn_tensor *nn_special_entr(nn_tensor *a);
nn_tensor *nn_special_xlog1py(nn_tensor *a, nn_tensor *b); /* a wrapped number b: SpecialXlog1PyBackward2 */
nn_tensor *nn_special_zeta(nn_tensor *a, nn_tensor *b);

/* a = fn(a, arg) in place (lgamma_, polygamma_, mvlgamma_ ...): PyTorch's errors for a
   leaf that requires grad or a result dtype a cannot hold; NotImplementedError while a
   needs grad (the out-of-place form records the history). 0 or -1. */
int nn_special_inplace(nn_tensor *a, nn_tensor *(*fn)(nn_tensor *, int64_t), int64_t arg);

#endif
