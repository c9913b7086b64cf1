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

/* The sizes and strides of a matrix m as the mm backwards below take them:
   layout[0..1] sizes, layout[2..3] strides. */
void nn_mm_layout(const nn_tensor *m, int64_t layout[4]);

/* PyTorch's mm_mat1_backward and mm_mat2_backward (core/matmul.c): the
   gradient of one matrix of a product, from grad, the other matrix and the
   layout the matrix had in the forward. grad @ mat2^T and mat1^T @ grad, but a
   column-major matrix gets a column-major gradient, computed as the transposed
   product, which sums in another order. Operands borrowed; a new reference,
   or NULL with the error set. */
nn_tensor *nn_mm_mat1_backward(nn_tensor *g, nn_tensor *mat2, const int64_t layout1[4]);
nn_tensor *nn_mm_mat2_backward(nn_tensor *g, nn_tensor *mat1, const int64_t layout2[4]);

#endif
