/*
 * nn_math.h — elementwise math and logsumexp (mathfn.c), included by nn.h.
 * Each borrows its inputs and returns a new reference (float result type:
 * integers give float32), or NULL with PyTorch's error; all are
 * differentiable as in PyTorch 1.13.
 */
#ifndef NN_MATH_H
#define NN_MATH_H

nn_tensor *nn_sin(nn_tensor *a);
nn_tensor *nn_cos(nn_tensor *a);
nn_tensor *nn_tan(nn_tensor *a);
nn_tensor *nn_asin(nn_tensor *a);
nn_tensor *nn_acos(nn_tensor *a);
nn_tensor *nn_atan(nn_tensor *a);
nn_tensor *nn_sinh(nn_tensor *a);
nn_tensor *nn_cosh(nn_tensor *a);
nn_tensor *nn_asinh(nn_tensor *a);
nn_tensor *nn_acosh(nn_tensor *a);
nn_tensor *nn_atanh(nn_tensor *a);
nn_tensor *nn_log2(nn_tensor *a);
nn_tensor *nn_log10(nn_tensor *a);
nn_tensor *nn_log1p(nn_tensor *a);
nn_tensor *nn_expm1(nn_tensor *a);
nn_tensor *nn_exp2(nn_tensor *a);
nn_tensor *nn_erf(nn_tensor *a);
nn_tensor *nn_erfc(nn_tensor *a);
nn_tensor *nn_erfinv(nn_tensor *a);
nn_tensor *nn_rsqrt(nn_tensor *a);
nn_tensor *nn_reciprocal(nn_tensor *a);
nn_tensor *nn_trunc(nn_tensor *a);   /* integers: a copy */
nn_tensor *nn_frac(nn_tensor *a);    /* a - trunc(a); floats only */
/* NaN -> nan, +inf -> *posinf, -inf -> *neginf (NULL: the dtype's largest/lowest) */
nn_tensor *nn_nan_to_num(nn_tensor *a, double nan, const double *posinf, const double *neginf);
nn_tensor *nn_clamp_min(nn_tensor *a, double min);
nn_tensor *nn_clamp_max(nn_tensor *a, double max);
/* broadcast binary ops */
nn_tensor *nn_atan2(nn_tensor *a, nn_tensor *b);
nn_tensor *nn_hypot(nn_tensor *a, nn_tensor *b);
nn_tensor *nn_logaddexp(nn_tensor *a, nn_tensor *b);
nn_tensor *nn_xlogy(nn_tensor *a, nn_tensor *b);
/* a + weight * (end - a); weight a tensor, or NULL for the number w */
nn_tensor *nn_lerp(nn_tensor *a, nn_tensor *end, nn_tensor *weight, double w);
/* a + value * t1 * t2 (addcmul), or a + value * t1 / t2 when divide (addcdiv), broadcast */
nn_tensor *nn_addc(nn_tensor *a, nn_tensor *t1, nn_tensor *t2, double value, bool divide);
/* log(sum(exp(a))) over dims (n_dims >= 1), computed stably */
nn_tensor *nn_logsumexp(nn_tensor *a, int n_dims, const int *dims, bool keepdim);
/* a.fn_(): a = fn(a) in place for the unary ops above (sin ... frac), with
   their backward when a requires grad; 0 or -1 (RuntimeError when the result
   type can't be written into a, as an integer's sin_). */
int nn_math_inplace(nn_tensor *a, nn_tensor *(*fn)(nn_tensor *));

#endif
