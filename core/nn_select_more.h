/*
 * nn_select_more.h — more reductions and diagonal/index ops (core/select_more.c)
 * and counting ops (core/histo.c), einsum (core/einsum.c). Every function
 * returns new references (or NULL / -1 with the error set); dims may be
 * negative. Differentiable where PyTorch's are.
 */
#ifndef NN_SELECT_MORE_H
#define NN_SELECT_MORE_H

#include "nn.h"

/* prod of all elements (has_dim false) or along dim; dtype -1: the input's
   (integers and bool: int64). */
nn_tensor *nn_prod(nn_tensor *a, bool has_dim, int dim, bool keepdim, int dtype);
/* amax / amin over dims (n_dims 0: all), NaN propagating. */
nn_tensor *nn_amax(nn_tensor *a, int n_dims, const int *dims, bool keepdim);
nn_tensor *nn_amin(nn_tensor *a, int n_dims, const int *dims, bool keepdim);
/* amin and amax at once (dim as amin's when has_dim); not differentiable. */
int nn_aminmax(nn_tensor *a, bool has_dim, int dim, bool keepdim, nn_tensor **min, nn_tensor **max);
/* The lower median of all elements (NaN when one is). */
nn_tensor *nn_median_all(nn_tensor *a);
/* The lower median along dim, with its index (ties: the lowest index). */
int nn_median_dim(nn_tensor *a, int dim, bool keepdim, nn_tensor **values, nn_tensor **indices);
/* The most frequent value along dim (ties: the smallest), with its last index. */
int nn_mode(nn_tensor *a, int dim, bool keepdim, nn_tensor **values, nn_tensor **indices);
/* diag: a 1-d tensor into a square matrix, or a 2-d tensor's diagonal (a copy). */
nn_tensor *nn_diag(nn_tensor *a, int64_t diagonal);
/* The diagonal of dims dim1, dim2 as a view, moved to the last dim. */
nn_tensor *nn_diagonal(nn_tensor *a, int64_t offset, int dim1, int dim2);
/* Tensor.unfold(dim, size, step): the windows of size elements of dim, step apart,
   as a view whose dim counts the windows and whose new last dim runs along one. */
nn_tensor *nn_unfold_dim(nn_tensor *a, int dim, int64_t size, int64_t step);
/* torch.as_strided: a view of a's storage with these sizes, strides and storage offset (INT64_MIN: a's
   own), recorded as AsStridedBackward0; PyTorch's errors for negative strides or sizes and out-of-bounds views. */
nn_tensor *nn_as_strided(nn_tensor *a, int ndim, const int64_t *sizes, const int64_t *strides, int64_t offset);
/* a's last dim written on the diagonal of two new dims dim1, dim2 of zeros. */
nn_tensor *nn_diag_embed(nn_tensor *a, int64_t offset, int dim1, int dim2);
/* a copy of a with alpha * src's slices added along dim at index (1-d int64/int32). */
nn_tensor *nn_index_add(nn_tensor *a, int dim, nn_tensor *index, nn_tensor *src, double alpha);

/* A contiguous copy of t in dtype without history (t itself, retained, when it
   already is one); new reference. */
nn_tensor *nn_plain_as(nn_tensor *t, nn_dtype dt);

/* einsum.c: the equation over n operands (letters, "..."), by diagonals,
   sums, permutes, bmm and mul: differentiable through those ops. */
nn_tensor *nn_einsum(const char *equation, int n, nn_tensor *const *operands);

/* scatter(..., reduce='add' or 'multiply') of src (NULL: the number value);
   recorded without a derivative, as PyTorch 1.13. */
nn_tensor *nn_scatter_reduce_op(nn_tensor *a, int dim, nn_tensor *index, nn_tensor *src, double value, bool multiply);

/* histo.c: counting (no gradients) */
/* torch.unique / unique_consecutive over the flattened tensor (dim < 0 with
   has_dim false) or along dim: sorted values, and when asked the inverse
   indices (a's shape, or [size(dim)]) and the counts. */
int nn_unique(nn_tensor *a, bool consecutive, bool has_dim, int dim, nn_tensor **values, nn_tensor **inverse,
              nn_tensor **counts);
/* bincount of a 1-d non-negative integer tensor (weights may be NULL). */
nn_tensor *nn_bincount(nn_tensor *a, nn_tensor *weights, int64_t minlength);
/* histc: bins equal bins over [min, max] (both 0: the data's range). */
nn_tensor *nn_histc(nn_tensor *a, int64_t bins, double min, double max);
/* histogram: counts (or summed weights, density-normalised) and the bin edges:
   edges given (a 1-d tensor) or bins equal bins over range (has_range) or the
   data's range. */
int nn_histogram(nn_tensor *a, nn_tensor *edges_in, int64_t bins, bool has_range, double lo, double hi,
                 nn_tensor *weight, bool density, nn_tensor **hist, nn_tensor **edges);
/* The indices of the non-zero elements: [n, ndim] int64. */
nn_tensor *nn_nonzero(nn_tensor *a);

#endif
