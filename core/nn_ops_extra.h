/*
 * nn_ops_extra.h — more tensor functions (core/ops_extra.c; nn_fmod in
 * binary.c): logit, nansum/nanmean, fmod, rot90, take, take_along_dim,
 * cummax/cummin, cross, kron, tensordot, diff, atleast_Nd, dstack,
 * column_stack, searchsorted/bucketize. Every function returns new
 * references (or NULL / -1 with the error set); dims may be negative.
 * Differentiable where PyTorch's are, with its grad_fn names.
 */
#ifndef NN_OPS_EXTRA_H
#define NN_OPS_EXTRA_H

#include "nn.h"

/* C's fmod (the dividend's sign), broadcast; a wrapped-number b: FmodBackward0. */
nn_tensor *nn_fmod(nn_tensor *a, nn_tensor *b);
/* log(x / (1 - x)), x clamped to [eps, 1 - eps] when has_eps; ints give float32. */
nn_tensor *nn_logit(nn_tensor *a, double eps, bool has_eps);
/* sum over dims (n_dims 0: all) with NaNs counted as zero; dtype -1: sum's. */
nn_tensor *nn_nansum(nn_tensor *a, int n_dims, const int *dims, bool keepdim, int dtype);
/* nansum / the count of non-NaN elements (floating inputs only). */
nn_tensor *nn_nanmean(nn_tensor *a, int n_dims, const int *dims, bool keepdim);
/* k quarter turns from dims[0] towards dims[1]. */
nn_tensor *nn_rot90(nn_tensor *a, int64_t k, int n_dims, const int *dims);
/* a flattened, at index (int64, any shape; negative counts from the end). */
nn_tensor *nn_take(nn_tensor *a, nn_tensor *index);
/* torch.trace: the sum of a 2-d a's diagonal (TraceBackward0); PyTorch's errors for
   another rank and for float16/bfloat16. */
nn_tensor *nn_trace(nn_tensor *a);
/* a.repeat(*reps): a (left-padded with size-1 dims to nd) tiled reps[i] times along
   dim i, a copy (RepeatBackward0); nd <= NN_MAX_DIMS / 2. */
nn_tensor *nn_repeat(nn_tensor *a, int nd, const int64_t *reps);
/* gather along dim with index broadcast against a (has_dim false: a flattened). */
nn_tensor *nn_take_along_dim(nn_tensor *a, nn_tensor *index, bool has_dim, int dim);
/* Running max (is_max) or min along dim, NaN sticking, with int64 indices. */
int nn_cumextreme(nn_tensor *a, int dim, bool is_max, nn_tensor **values, nn_tensor **indices);
/* Cross products of 3-vectors along dim (broadcast); has_dim false: the first
   dim of size 3 (torch.cross's deprecated default). */
nn_tensor *nn_cross(nn_tensor *a, nn_tensor *b, bool has_dim, int dim, bool linalg);
/* Kronecker product. */
nn_tensor *nn_kron(nn_tensor *a, nn_tensor *b);
/* Contracts a's dims da[i] with b's db[i] (n pairs). */
nn_tensor *nn_tensordot(nn_tensor *a, nn_tensor *b, int n, const int *da, const int *db);
/* n-th forward difference along dim, prepend/append (NULL: none) joined first. */
/* Tensor.copy_(src) / fill_(value) / fill_(0-dim tensor) / zero_() with their autograd nodes
   (CopyBackwards, FillBackward2, FillBackward3 with an edge to the value, ZeroBackward0); a view
   with history: NotImplementedError, unwritten. */
int nn_copy_recorded_(nn_tensor *dst, nn_tensor *src);
int nn_fill_recorded_(nn_tensor *t, double value);
int nn_fill_tensor_recorded_(nn_tensor *t, nn_tensor *value);
int nn_zero_recorded_(nn_tensor *t);
nn_tensor *nn_diff(nn_tensor *a, int64_t n, int dim, nn_tensor *prepend, nn_tensor *append);
/* a viewed with at least nd (1, 2, 3) dims, as torch.atleast_Nd. */
nn_tensor *nn_atleast(nn_tensor *a, int nd);
/* Stacks along the third dim (after atleast_3d) / as columns (1-d and 0-d as [n, 1]). */
nn_tensor *nn_dstack(int n, nn_tensor *const *ts);
nn_tensor *nn_column_stack(int n, nn_tensor *const *ts);
/* A Poisson draw for each rate from the current generator, in PyTorch's stream (core/poisson.c). */
nn_tensor *nn_poisson(nn_tensor *rates);
/* 1.13's scatter_reduce: code 0 sum, 1 prod, 2 mean, 3 amax, 4 amin (nn_scatter_reduce_code
   maps the name, or sets PyTorch's error and returns -1); core/scatter_reduce.c. */
int nn_scatter_reduce_code(const char *name);
nn_tensor *nn_scatter_reduce2(nn_tensor *a, int dim, nn_tensor *index, nn_tensor *src, int code, bool include_self);
/* core/stats_more.c: cov (rows are variables; correction as torch.cov), corrcoef, and
   cdist (the p-norm of every row pair of x1 [..., r1, c] and x2 [..., r2, c]) */
nn_tensor *nn_cov(nn_tensor *a, int64_t correction);
nn_tensor *nn_corrcoef(nn_tensor *a);
nn_tensor *nn_cdist(nn_tensor *x1, nn_tensor *x2, double p);
/* quantile / nanquantile (ignore_nan) of a (float or double) at q (0-d or 1-d, a's dtype)
   over dim (has_dim) or all; mode 0 linear, 1 lower, 2 higher, 3 midpoint, 4 nearest
   (nn_quantile_mode maps the name or sets PyTorch's error and returns -1); core/quantile.c */
int nn_quantile_mode(const char *name);
nn_tensor *nn_quantile(nn_tensor *a, nn_tensor *q, bool has_dim, int dim, bool keepdim, int mode, bool ignore_nan);
/* Indices where values would go in the sorted last dim of sorted (sorter: its
   argsort, or NULL); right: after equal values; out_int32: int32 results. */
nn_tensor *nn_searchsorted(nn_tensor *sorted, nn_tensor *values, bool right, bool out_int32, nn_tensor *sorter);

#endif
