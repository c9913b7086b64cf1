/*
 * nn_cpu.h — the CPU backend's kernels (core/cpu/), one nn_cpu_<name> per line
 * of core/kernels.def, and the table that lists them (core/cpu/backend.c).
 * Only backends include it: the loopback device runs these same kernels.
 */
#ifndef NN_CPU_H
#define NN_CPU_H

#include "backend.h"
#include "nn_parallel.h"

#define KERNEL(name, params, args) int nn_cpu_##name params;
#include "kernels.def"
#undef KERNEL

/* NN_MATH_special of the math kernel (cpu/special.c) */
int nn_cpu_special(nn_special_op op, nn_kernel_args *a);
/* The math kernel's vmath codes (NN_MATH_vmath_map ...: core/cpu/vmath_ops.c). */
int nn_cpu_math_vmath(nn_math_op op, nn_kernel_args *a);
/* NN_SAMPLE_GAMMA_GRAD / NN_SAMPLE_DIRICHLET_GRAD of the sample kernel (cpu/gamma_grad_kernel.c) */
int nn_cpu_standard_gamma_grad(nn_kernel_args *a);
int nn_cpu_dirichlet_grad(nn_kernel_args *a);
/* NN_SAMPLE_CAUCHY / GEOMETRIC / LOG_NORMAL (cpu/sample_more.c) */
int nn_cpu_sample_more(nn_sample_op op, nn_kernel_args *a);
/* at::normal_distribution<double>'s draw (cpu/random.c): the generator's cached normal first */
double nn_cpu_normal_double(nn_generator *g, double mean, double std);

#endif
