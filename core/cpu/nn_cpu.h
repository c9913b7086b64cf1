/*
 * nn_cpu.h — the CPU backend's kernels (core/cpu/), one nn_cpu_<name> per line
 * of core/kernels.def, and the table that lists them (core/cpu/backend.c).
 * Only backends include it: the loopback device runs these same kernels.
 */
#ifndef NN_CPU_H
#define NN_CPU_H

#include "backend.h"
#include "nn_data.h"
#include "nn_parallel.h"

#define KERNEL(name, params, args) int nn_cpu_##name params;
#include "kernels.def"
#undef KERNEL

/* The host loop (core/cpu/foreach.c): runs fn over every element of the nt
   operands, which all have ts[0]'s shape (broadcast operands carry stride 0),
   in host memory. Dims are coalesced so contiguous operands get one call over
   all elements. */
void nn_foreach(int nt, const nn_tensor *const *ts, nn_loop_fn fn, void *ctx);

/* nn_foreach, split over threads when it is safe and worth it: fn must be
   elementwise (output element i depends only on the operands' element i).
   Splits when ts[0] is contiguous, every other operand is contiguous of the
   same shape or a single value broadcast (stride 0), and there are more than
   NN_GRAIN elements; otherwise it is nn_foreach. */
void nn_foreach_parallel(int nt, const nn_tensor *const *ts, nn_loop_fn fn, void *ctx);

/* The gemm kernel's BLAS call on addresses in the CPU's memory (the kernels
   that run GEMMs on their own scratch buffers, as conv2d's, call it). */
int nn_cpu_blas_gemm(nn_dtype dt, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const void *a, int64_t lda,
                     const void *b, int64_t ldb, double beta, void *c, int64_t ldc);

/* float32 conv2d and its gradients for a geometry marked onednn, in oneDNN's
   order (cpu/conv2d_onednn.c); gx, gw, gb NULL when not wanted. 0, or -1 with
   nn_malloc's error set. */
int nn_cpu_conv2d_onednn(const nn_conv_geom *s, const float *x, const float *w, const float *b, float *y);
int nn_cpu_conv2d_onednn_backward(const nn_conv_geom *s, const float *x, const float *w, const float *gy, float *gx,
                                  float *gw, float *gb);

/* NN_MATH_special of the math kernel (cpu/special.c) */
int nn_cpu_special(nn_special_op op, nn_kernel_args *a);
/* The math kernel's NN_MATH_gcd/lcm and NN_MATH_logcumsumexp (cpu/math_int.c) */
int nn_cpu_math_int(nn_math_op op, nn_kernel_args *a);
int nn_cpu_logcumsumexp(nn_kernel_args *a);
/* The math kernel's vmath codes (NN_MATH_vmath_map ...: core/cpu/vmath_ops.c). */
int nn_cpu_math_vmath(nn_math_op op, nn_kernel_args *a);
/* NN_SAMPLE_GAMMA_GRAD / NN_SAMPLE_DIRICHLET_GRAD of the sample kernel (cpu/gamma_grad_kernel.c) */
int nn_cpu_standard_gamma_grad(nn_kernel_args *a);
int nn_cpu_dirichlet_grad(nn_kernel_args *a);
/* NN_SAMPLE_CAUCHY / GEOMETRIC / LOG_NORMAL (cpu/sample_more.c) */
int nn_cpu_sample_more(nn_sample_op op, nn_kernel_args *a);
/* group_norm's forward on bfloat16 data [N, C, HW] (cpu/norm_bf16.c); w, b may be NULL. 0 or -1. */
int nn_cpu_group_norm_bf16(const uint16_t *x, const uint16_t *w, const uint16_t *b, uint16_t *y, int64_t N, int64_t C,
                           int64_t G, int64_t HW, double eps);
/* at::normal_distribution<double>'s draw (cpu/random.c): the generator's cached normal first */
double nn_cpu_normal_double(nn_generator *g, double mean, double std);

#endif
