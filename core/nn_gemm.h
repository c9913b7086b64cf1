/*
 * nn_gemm.h — matrix products issued to BLAS exactly as PyTorch 1.13 issues
 * them (core/gemm_aten.c), so that OpenBLAS picks the same kernel and sums in
 * the same order: the operand order, transpose flags and leading dims of
 * ATen's addmm_impl_cpu_ (with cpublas::gemm's normalize_last_dims), and the
 * ?gemv call of its addmv_out_cpu.
 */
#ifndef NN_GEMM_H
#define NN_GEMM_H

#include "nn_int.h"

/* c = beta * c + a @ b for c a contiguous [N, M] float32/float64 matrix, a
   [N, K] and b [K, M] of c's dtype on c's device, any strides (an operand ATen
   would copy is copied); beta 0 or 1. N, M, K >= 1. 0, or -1 with the error set. */
int nn_gemm_as_aten(nn_tensor *c, nn_tensor *a, nn_tensor *b, double beta);

/* y = a @ x for y a contiguous [N] float32/float64 vector on the CPU, a
   [N, K], x [K] of its dtype: BLAS ?gemv as addmv_out_cpu calls it.
   0; 1 when y is not on the CPU (the caller computes); -1 with the error set. */
int nn_gemv_as_aten(nn_tensor *y, nn_tensor *a, nn_tensor *x);

#endif
