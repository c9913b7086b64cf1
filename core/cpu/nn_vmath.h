/*
 * nn_vmath.h — the CPU's vectorized float32 math (core/cpu/vmath.c): SLEEF's
 * 8-wide AVX2 u10 functions, which PyTorch 1.13's Vectorized<float> calls on
 * this kind of machine, so that results carry PyTorch's exact bits; and the
 * row kernels built on them (softmax and log_softmax over a contiguous last
 * dim, as ATen's vec_softmax_lastdim / vec_log_softmax_lastdim).
 *
 * Every entry returns false, having done nothing, when the CPU lacks AVX2 and
 * FMA: the caller then runs its portable loop.
 */
#ifndef NN_VMATH_H
#define NN_VMATH_H

#include <stdbool.h>
#include <stdint.h>

/* The functions, each PyTorch's Vectorized<float>::name (erfc is SLEEF's u15,
   as ATen's). */
typedef enum nn_vfn {
    NN_VFN_SIN, NN_VFN_COS, NN_VFN_TAN, NN_VFN_ASIN, NN_VFN_ACOS, NN_VFN_ATAN,
    NN_VFN_SINH, NN_VFN_COSH, NN_VFN_TANH,
    NN_VFN_EXP, NN_VFN_EXPM1, NN_VFN_LOG, NN_VFN_LOG2, NN_VFN_LOG10, NN_VFN_LOG1P,
    NN_VFN_ERF, NN_VFN_ERFC,
    NN_VFN_COUNT
} nn_vfn;

/* True when the vector entries below run (AVX2 and FMA present). */
bool nn_vmath_available(void);

/* y[i] = f(x[i]) for i < n, every element through the vector function (a last
   partial vector padded, as ATen's vec::map): what PyTorch computes for a
   contiguous float32 tensor, and for a strided one of the vml ops. Large n is
   split over the pool's threads. y may equal x. */
bool nn_vmath_map_f32(nn_vfn f, float *y, const float *x, int64_t n);

/* The same on elements [0, n - n % 16) only (ATen's cpu_kernel_vec covers the
   rest with its scalar loop, which the caller runs). */
bool nn_vmath_map_f32_vec16(nn_vfn f, float *y, const float *x, int64_t n);

/* Softmax (or log_softmax) of `rows` contiguous rows of n >= 1 float32 each, as
   ATen's AVX2 lastdim kernels compute them: a vector max, Sleef exp, a vector
   sum reduced by VecReduceAllSIMD's shuffle tree, times 1 / sum (log_softmax:
   x - max - Sleef log(sum)). Rows are split over the pool's threads. */
bool nn_vmath_softmax_lastdim_f32(const float *x, float *y, int64_t rows, int64_t n, bool is_log);

/* The activations ATen computes with cpu_kernel_vec around Vectorized<float>::exp
   (Sleef's expf8_u10): sigmoid ((0 - x).exp() + 1).reciprocal(), silu
   x / (1 + x.neg().exp()), elu (p: negcoef = alpha * scale, poscoef = scale,
   negiptcoef = input_scale) blendv(((x * negipt).exp() - 1) * negcoef,
   x * poscoef, x > 0). */
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

/* y[i] = k(x[i]) for i < n as PyTorch computes it: vec (a contiguous operand)
   runs cpu_kernel_vec's vectorized loop over each thread range's multiples of
   16 elements and its scalar formula (glibc's expf) on the range's rest, the
   ranges cut as at::parallel_for cuts them for torch.get_num_threads()
   (nn_get_num_threads here); !vec runs the scalar formula on every element.
   row > 0: x holds rows of that many elements (TensorIterator's inner loop,
   a strided tensor whose last dims are dense), and the vectorized loop also
   restarts at every row. p: the parameters (NULL when k has none). */
bool nn_vmath_act_f32(nn_vact k, float *y, const float *x, int64_t n, int64_t row, const float p[3], bool vec);

/* y[i] = k(g[i], x[i]) for a gradient kind k (grad g, input x, both contiguous):
   as nn_vmath_act_f32 without rows. false when the CPU lacks AVX2+FMA. */
bool nn_vmath_act_grad_f32(nn_vact k, float *y, const float *g, const float *x, int64_t n, bool vec);

/* x ** e for a contiguous float32 x as PyTorch 1.13's pow_tensor_scalar_optimized_kernel
   computes it for an exponent other than 2, 3, -2, 0.5, -0.5 and -1: cpu_kernel_vec
   with Sleef_powf8_u10 (the exponent rounded to float) on pairs of vectors and
   std::pow(float, double) — pow in double, rounded — on the rest, the ranges of
   nn_vmath_act_f32. false when the CPU lacks AVX2+FMA. */
bool nn_vmath_pow_f32(float *y, const float *x, int64_t n, double e);

/* The sum of x[0..n) in PyTorch 1.13's order for a whole-tensor sum
   (cpu/sum.c explains it), which depends on the thread budget as PyTorch's
   does on torch.get_num_threads(). Portable: no AVX2 needed. */
float nn_cpu_sum_all_f32(const float *x, int64_t n);
double nn_cpu_sum_all_f64(const double *x, int64_t n);

/* out[r] = the sum of row r of x [rows, n] (contiguous) in PyTorch 1.13's
   order for a reduction over a contiguous last dim (vectorized_inner_sum: one
   row on one thread, the order of a whole-tensor sum on one thread), divided
   by divisor in float32 when it is not 1 (a mean: sum, then div_). Rows are
   split over the pool's threads; no result depends on the thread count. */
void nn_cpu_sum_rows_f32(const float *x, int64_t rows, int64_t n, float divisor, float *out);

/* out = x summed over the dims marked in reduced, x of ndim dims with these
   sizes and strides (elements, any layout), out contiguous over the kept dims
   in their order: PyTorch 1.13's order for the same reduction (TensorIterator's
   layout and cascade_sum's loops, cpu/sum_iter.c), thread budget included. */
/* A float32 vector norm of x[0..n) as PyTorch 1.13's CPU kernel computes it
   (cpu/norm_f32.c): _lastdim is p = 2 over one contiguous innermost dim (its
   vectorized loop), _seq every other case, x in memory order; single_output:
   the whole result is this one value (then split over threads as PyTorch's
   binary_kernel_reduce splits it). */
float nn_cpu_norm2_lastdim_f32(const float *x, int64_t n);
float nn_cpu_norm_seq_f32(const float *x, int64_t n, double p, bool single_output);

/* sum((x - mean)^2) in double over a strided float32 tensor in PyTorch
   1.13's order for var/std of a whole tensor (std_var_all_cpu, cpu/sum_iter.c). */
double nn_cpu_sq_dev_sum_f32(const float *x, int ndim, const int64_t *sizes, const int64_t *strides, double mean);

/* acc + (x[0] - mean)^2 + ... + (x[n-1] - mean)^2 in double with every product
   and addition rounded as that left-to-right loop rounds them (the same bits),
   added a block at a time where that is exact (cpu/seq_sum.c). */
double nn_cpu_seq_sq_dev_f32(const float *x, int64_t n, double mean, double acc);

void nn_cpu_sum_strided_f32(const float *x, int ndim, const int64_t *sizes, const int64_t *strides,
                            const bool *reduced, float *out);

/* The float32 product of x over the dims flagged in reduced, as
   nn_cpu_sum_strided_f32 lays it out, in the order of 1.13's prod_kernel_impl
   (binary_kernel_reduce_vec: reduction128's 4 x 8 lanes along a contiguous
   reduced dim or down 32 contiguous columns, one by one elsewhere), out
   filled with 1 first; the same thread split. */
void nn_cpu_prod_strided_f32(const float *x, int ndim, const int64_t *sizes, const int64_t *strides,
                             const bool *reduced, float *out);

#endif
