/*
 * nn_misc_ops.h — torch functions beyond the common ones (issue 16's tail):
 * clamp with tensor bounds, sgn, copysign, heaviside, gcd/lcm
 * (elementwise_more.c); logcumsumexp, renorm, the trapezoid rules
 * (scan_more.c); select/slice/diagonal_scatter (scatter_views.c); the window
 * functions (windows.c). Every function returns a new reference, or NULL with
 * the error set; dims may be negative. Differentiable where PyTorch 1.13's are,
 * with its grad_fn names.
 */
#ifndef NN_MISC_OPS_H
#define NN_MISC_OPS_H

#include "nn.h"

/* clamp(a, min, max) with tensor bounds, either NULL (not both), broadcast, in the
   promoted dtype: ClampBackward0. The one-bound functions record ClampMin/MaxBackward1. */
nn_tensor *nn_clamp_tensor(nn_tensor *a, nn_tensor *min, nn_tensor *max);
nn_tensor *nn_clamp_min_tensor(nn_tensor *a, nn_tensor *min);
nn_tensor *nn_clamp_max_tensor(nn_tensor *a, nn_tensor *max);
/* sign of a real tensor (bool stays bool), recorded as SgnBackward0 */
nn_tensor *nn_sgn(nn_tensor *a);
/* |a| with b's sign (b's -0.0 counts as negative), broadcast; integers give the default
   dtype; a wrapped-number b records CopysignBackward1 */
nn_tensor *nn_copysign(nn_tensor *a, nn_tensor *b);
/* a = mantissa * 2 ** exponent with |mantissa| in [0.5, 1): the mantissa in a's dtype (FrexpBackward0) and
   the exponent int32; 0, or -1 (RuntimeError for an integer a) */
int nn_frexp(nn_tensor *a, nn_tensor **mantissa, nn_tensor **exponent);
/* values where a == 0, else (a > 0); one dtype for both, broadcast */
nn_tensor *nn_heaviside(nn_tensor *a, nn_tensor *values);
/* gcd (lcm: least common multiple) of integer tensors, broadcast, in their promoted dtype */
nn_tensor *nn_gcd_lcm(nn_tensor *a, nn_tensor *b, bool lcm);

/* a * number as ATen's mul.Scalar (MulBackward1) */
nn_tensor *nn_mul_number(nn_tensor *a, double s);
/* log of the running sum of exp along dim (float32, float64, bfloat16) */
nn_tensor *nn_logcumsumexp(nn_tensor *a, int dim);
/* each slice along dim whose p-norm exceeds maxnorm scaled to norm maxnorm (a: >= 2 dims) */
nn_tensor *nn_renorm(nn_tensor *a, double p, int dim, double maxnorm);
/* the trapezoid rule along dim over samples y at x (or, x NULL, spacing dx); cumulative:
   the running integral (cumulative_trapezoid) */
nn_tensor *nn_trapezoid(nn_tensor *y, nn_tensor *x, double dx, int dim, bool cumulative);

/* a copy of a with one view replaced by src (of the view's shape): select(dim, index),
   slice(dim, start, stop, step) (Python's clamping; step > 0), diagonal(offset, dim1, dim2) */
nn_tensor *nn_select_scatter(nn_tensor *a, nn_tensor *src, int dim, int64_t index);
nn_tensor *nn_slice_scatter(nn_tensor *a, nn_tensor *src, int dim, int64_t start, int64_t stop, int64_t step);
nn_tensor *nn_diagonal_scatter(nn_tensor *a, nn_tensor *src, int64_t offset, int dim1, int dim2);

typedef enum nn_window_kind {
    NN_WINDOW_HANN, NN_WINDOW_HAMMING, NN_WINDOW_BLACKMAN, NN_WINDOW_BARTLETT, NN_WINDOW_KAISER,
} nn_window_kind;
/* the window of length values (periodic: the first length of length + 1) in a float
   dtype; alpha, beta: hamming's coefficients, beta: kaiser's shape */
nn_tensor *nn_window(nn_window_kind kind, int64_t length, bool periodic, double alpha, double beta, nn_dtype dtype);

#endif
