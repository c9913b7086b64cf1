/*
 * nn_linalg.h — torch.linalg's LU-based functions over OpenBLAS's LAPACK and
 * vector_norm (core/linalg.c). New references, or NULL / -1 with the error
 * set; inputs are float32/float64 batches [..., n, n]. Differentiable (for
 * invertible matrices) with PyTorch 1.13's grad_fn names.
 */
#ifndef NN_LINALG_H
#define NN_LINALG_H

#include "nn.h"

nn_tensor *nn_linalg_det(nn_tensor *a);
/* sign and log|det| (only logabsdet carries a gradient) */
int nn_linalg_slogdet(nn_tensor *a, nn_tensor **sign, nn_tensor **logabsdet);
/* log(det), NaN for a negative determinant */
nn_tensor *nn_logdet(nn_tensor *a);
/* RuntimeError for a singular matrix, as PyTorch's */
nn_tensor *nn_linalg_inv(nn_tensor *a);
/* X with A X = B (B a vector or a batch of them when its shape says so), batch dims broadcast */
nn_tensor *nn_linalg_solve(nn_tensor *a, nn_tensor *b);
/* L with A = L L^T (upper: L^T); legacy: torch.cholesky's warning and node */
nn_tensor *nn_linalg_cholesky(nn_tensor *a, bool upper, bool legacy);
/* the ord-norm over dims (n_dims 0: all) */
nn_tensor *nn_linalg_vector_norm(nn_tensor *a, double ord, int n_dims, const int *dims, bool keepdim);

#endif
