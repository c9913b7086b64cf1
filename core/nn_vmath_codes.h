/*
 * nn_vmath_codes.h — the codes of the math kernel's vmath entries (core/backend.h's
 * NN_MATH_vmath_*): which vector function (nn_vfn) or activation (nn_vact) the
 * CPU's Sleef kernels (core/cpu/nn_vmath.h) compute. Op files name them here,
 * without reaching into core/cpu/.
 */
#ifndef NN_VMATH_CODES_H
#define NN_VMATH_CODES_H

/* The functions, each PyTorch's Vectorized<float>::name (erfc is SLEEF's u15,
   as ATen's). */
typedef enum nn_vfn {
    NN_VFN_SIN, NN_VFN_COS, NN_VFN_TAN, NN_VFN_ASIN, NN_VFN_ACOS, NN_VFN_ATAN,
    NN_VFN_SINH, NN_VFN_COSH, NN_VFN_TANH,
    NN_VFN_EXP, NN_VFN_EXPM1, NN_VFN_LOG, NN_VFN_LOG2, NN_VFN_LOG10, NN_VFN_LOG1P,
    NN_VFN_ERF, NN_VFN_ERFC,
    NN_VFN_COUNT
} nn_vfn;

/* softplus: p = {beta, threshold}; sinh, cosh: Vectorized's Sleef u10 functions, std:: on the rest */
typedef enum nn_vact {
    NN_VACT_SIGMOID,
    NN_VACT_SILU,
    NN_VACT_ELU,
    NN_VACT_POW,
    NN_VACT_SOFTPLUS,
    NN_VACT_SINH,
    NN_VACT_COSH,
    NN_VACT_GELU_TANH, /* 0.5 x (1 + tanh(beta (x + kappa x^3))), Sleef's tanh */
    /* the gradients (nn_vmath_act_grad_f32), of grad and input: */
    NN_VACT_SILU_GRAD,      /* grad * s * (1 + x * (1 - s)), s = 1 / (1 + exp(-x)) */
    NN_VACT_GELU_TANH_GRAD, /* GeluBackwardKernelImpl's tanh form */
    NN_VACT_COUNT
} nn_vact;

/* complex64 / complex128 operands (vmath_map): Vectorized<c10::complex<T>>'s exp, its
   exp + 1 fused as ATen's sigmoid computes it, and angle */
typedef enum nn_vcx { NN_VCX_EXP, NN_VCX_EXP1, NN_VCX_ANGLE } nn_vcx;

#endif
