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

#include "nn_vmath_codes.h"

/* (nn_vfn: core/nn_vmath_codes.h) */

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
/* (nn_vact: core/nn_vmath_codes.h) */

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

/* var (take_sqrt false) or std of the n contiguous float32 x, as
   (float)(sum / dof) or (float)sqrt(sum / dof) of std_var_all_cpu's sequential
   double sum of (x[i] - mean)^2: true with the result in *out when an estimate
   of that sum and its error bound decide the float (cpu/var_bound.c); false,
   having written nothing, when the caller must run the exact sum. */
bool nn_cpu_var_all_f32_bounded(const float *x, int64_t n, double mean, double dof, bool take_sqrt, float *out);

void nn_cpu_sum_strided_f32(const float *x, int ndim, const int64_t *sizes, const int64_t *strides,
                            const bool *reduced, float *out);

/* The float32 product of x over the dims flagged in reduced, as
   nn_cpu_sum_strided_f32 lays it out, in the order of 1.13's prod_kernel_impl
   (binary_kernel_reduce_vec: reduction128's 4 x 8 lanes along a contiguous
   reduced dim or down 32 contiguous columns, one by one elsewhere), out
   filled with 1 first; the same thread split. */
void nn_cpu_prod_strided_f32(const float *x, int ndim, const int64_t *sizes, const int64_t *strides,
                             const bool *reduced, float *out);

/* float64 (cpu/vmath_f64.c): y = f(x) for exp, log and tanh through SLEEF's
   4-wide u10 functions on every element, as ATen's vml kernels; sigmoid as
   cpu_kernel_vec, vectorized over each row's multiples of 8 (row <= 0: one
   row of n) and libm on the rest. false, having done nothing, without AVX2+FMA
   or for another function. */
bool nn_vmath_map_f64(nn_vfn f, double *y, const double *x, int64_t n);
bool nn_vmath_sigmoid_f64(double *y, const double *x, int64_t n, int64_t row);
/* float64 sinh (is_sinh) or cosh as cpu_kernel_vec: rows as nn_vmath_sigmoid_f64 */
bool nn_vmath_hyper_f64(bool is_sinh, double *y, const double *x, int64_t n, int64_t row);

/* lgamma as ATen's vml kernel (Sleef's u10 lgamma on every element, a last partial
   vector padded): the count of elements done, n, or 0 without AVX2+FMA (the caller
   then computes with libm). */
int64_t nn_vmath_lgamma_vec(bool f64, void *y, const void *x, int64_t n);

/* Vectorized<c10::complex<T>>'s exp (NN_VCX_EXP: exp(re) * (cos(im), sin(im)) from
   Sleef's u10 exp and sincos; NN_VCX_EXP1 that + 1 as ATen's sigmoid fuses it) or angle
   ((atan2(im, re), 0), Sleef's u10 atan2) of n complex64 (complex128 when f64) numbers,
   every element through the vector function, a last partial vector padded. n, or 0
   without AVX2+FMA (the caller then computes with libm). (nn_vcx: core/nn_vmath_codes.h) */
int64_t nn_vmath_complex(nn_vcx k, bool f64, void *y, const void *x, int64_t n);

#endif
