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
/* The inverse through A's own LU (nn_linalg_inv factors a contiguous A's transpose,
   as ATen's linalg_solve): LU's backward keeps the numbers its tests pin. */
nn_tensor *nn_linalg_inv_direct(nn_tensor *a);
/* torch.linalg.lu_solve's values, LAPACK's getrs as ATen calls it: X with A X = B (adjoint:
   A^T X = B) for A = P L U given as lu_factor's LU and pivots (int32), real float32/float64,
   B [..., n, k] of LU's batch shape (the caller broadcasts). Not differentiable (the caller's
   composition carries the gradient). */
nn_tensor *nn_linalg_lu_solve_getrs(nn_tensor *lu, nn_tensor *pivots, nn_tensor *b, bool adjoint);
/* X with A X = B (B a vector or a batch of them when its shape says so), batch dims broadcast */
nn_tensor *nn_linalg_solve(nn_tensor *a, nn_tensor *b);
/* L with A = L L^T (upper: L^T); legacy: torch.cholesky's warning and node */
nn_tensor *nn_linalg_cholesky(nn_tensor *a, bool upper, bool legacy);
/* torch.linalg.cholesky_ex: L as cholesky's, and info (int32, the batch shape) LAPACK's
   potrf info of each matrix (0, or the order of its first leading minor that is not
   positive-definite; L then holds potrf's partial factor). check_errors: the
   function's name for PyTorch's error on such a matrix, or NULL. 0 or -1. */
int nn_linalg_cholesky_ex(nn_tensor *a, bool upper, const char *check_errors, nn_tensor **L, nn_tensor **info);
/* the ord-norm over dims (n_dims 0: all) */
nn_tensor *nn_linalg_vector_norm(nn_tensor *a, double ord, int n_dims, const int *dims, bool keepdim);

/* Q and R (mode "reduced", "complete" or "r": Q empty) */
int nn_linalg_qr(nn_tensor *a, const char *mode, nn_tensor **q, nn_tensor **r);
/* U, S, Vh (full: square U and Vh); !uv: S only (U, Vh empty, as svdvals) */
int nn_linalg_svd(nn_tensor *a, bool full, bool uv, nn_tensor **u, nn_tensor **s, nn_tensor **vh);
/* eigenvalues (ascending) and eigenvectors of symmetric matrices, read from the
   upper or lower triangle; !vectors: v empty (eigvalsh) */
int nn_linalg_eigh(nn_tensor *a, bool upper, bool vectors, nn_tensor **w, nn_tensor **v);
/* torch.linalg.eig (vectors) / eigvals of a real float32/float64 batch: *w the
   complex eigenvalues [..., n] and *v the eigenvectors [..., n, n] (columns, unit
   norm, LAPACK's order and phases, as PyTorch's), of the complex dtype of a's;
   *v NULL for eigvals. No autograd (NotImplementedError when a requires grad).
   0 or -1. */
int nn_linalg_eig(nn_tensor *a, bool vectors, nn_tensor **w, nn_tensor **v);
/* Moore-Penrose inverse / numerical rank with tolerance max(atol, rtol * largest
   singular value); NaN for PyTorch's defaults */
nn_tensor *nn_linalg_pinv(nn_tensor *a, double atol, double rtol, bool hermitian);
nn_tensor *nn_linalg_matrix_rank(nn_tensor *a, double atol, double rtol, bool hermitian);
/* out: solution, residuals, rank, singular_values; driver 0 gels, 1 gelsy, 2 gelsd,
   3 gelss; rcond NaN: the default */
int nn_linalg_lstsq(nn_tensor *a, nn_tensor *b, double rcond, int driver, nn_tensor **out);
/* A ** e by products (e < 0: of the inverse) */
nn_tensor *nn_linalg_matrix_power(nn_tensor *a, int64_t e);

/* The LU decomposition of square matrices (linalg_lu.c). getrf of every matrix of a: lu
   its column-major copy factored, pivots int32 [batch, n] (1-based); first_singular
   LAPACK's first positive info (0: none) and singular_at that matrix's batch index. */
int nn_lu_factor_batch(nn_tensor *a, nn_tensor **lu, nn_tensor **pivots, int *first_singular, int64_t *singular_at);
/* torch.linalg.lu_factor: LU packed (a's shape) and int32 pivots [..., n]; check_errors:
   the function's name ("torch.linalg.lu_factor") for PyTorch's error on a singular
   matrix, or NULL to factor it anyway (torch.lu). 0 or -1. */
int nn_linalg_lu_factor(nn_tensor *a, bool pivot, const char *check_errors, nn_tensor **lu, nn_tensor **pivots);
/* LAPACK getrf's info of each matrix of a packed LU (lu_factor's): the 1-based index
   of its first zero pivot U[i,i], 0 when there is none; int32 of the batch shape. */
nn_tensor *nn_lu_info(nn_tensor *lu);
/* torch.lu_unpack: P, L (unit lower), U of a packed LU and its pivots. 0 or -1. */
int nn_lu_unpack(nn_tensor *lu, nn_tensor *pivots, nn_tensor **P, nn_tensor **L, nn_tensor **U);
/* torch.linalg.lu: A = P L U. 0 or -1. */
int nn_linalg_lu(nn_tensor *a, bool pivot, nn_tensor **P, nn_tensor **L, nn_tensor **U);

#endif
