/*
 * nn_select.h — sorting, scans and index-driven selection (core/select.c).
 * Every function returns new references (or NULL / -1 with the error set);
 * dims may be negative. Differentiable where PyTorch's are.
 */
#ifndef NN_SELECT_H
#define NN_SELECT_H

#include "nn.h"

/* Stable sorts along dim (NaN above every number): values and int64 indices. */
int nn_sort(nn_tensor *a, int dim, bool descending, nn_tensor **values, nn_tensor **indices);
/* The k largest (or smallest) along dim, in sorted order. */
int nn_topk(nn_tensor *a, int64_t k, int dim, bool largest, nn_tensor **values, nn_tensor **indices);
/* The k-th smallest (1-based) along dim. */
int nn_kthvalue(nn_tensor *a, int64_t k, int dim, bool keepdim, nn_tensor **values, nn_tensor **indices);
/* Scans; dtype -1: the input's (integers and bool: int64). */
nn_tensor *nn_cumsum(nn_tensor *a, int dim, int dtype);
nn_tensor *nn_cumprod(nn_tensor *a, int dim, int dtype);
nn_tensor *nn_flip(nn_tensor *a, int n_dims, const int *dims);
/* n_dims == 0: the flattened tensor rolled by shifts[0], reshaped back. */
nn_tensor *nn_roll(nn_tensor *a, int n_shifts, const int64_t *shifts, int n_dims, const int *dims);
nn_tensor *nn_tril(nn_tensor *a, int64_t diagonal);
nn_tensor *nn_triu(nn_tensor *a, int64_t diagonal);
/* index: int64 with a's ndim. */
nn_tensor *nn_gather(nn_tensor *a, int dim, nn_tensor *index);
nn_tensor *nn_scatter(nn_tensor *a, int dim, nn_tensor *index, nn_tensor *src);
nn_tensor *nn_scatter_value(nn_tensor *a, int dim, nn_tensor *index, double value);
nn_tensor *nn_scatter_add(nn_tensor *a, int dim, nn_tensor *index, nn_tensor *src);
/* index: a 0-d or 1-d int64/int32 tensor. */
nn_tensor *nn_index_select(nn_tensor *a, int dim, nn_tensor *index);
/* mask: bool, broadcast with a; a 1-d result. */
nn_tensor *nn_masked_select(nn_tensor *a, nn_tensor *mask);
/* a with value (a 0-dim tensor, or number when value is NULL) where the bool mask
   is set; a broadcast with mask. */
nn_tensor *nn_masked_fill(nn_tensor *a, nn_tensor *mask, nn_tensor *value, double number);
/* int64 classes into [..., num_classes] int64 (num_classes -1: max + 1). */
nn_tensor *nn_one_hot(nn_tensor *a, int64_t num_classes);
/* The in-place form of an op: a takes r's values (r computed from a with
   history) and r's grad_fn. 0 or -1. */
int nn_inplace_from(nn_tensor *a, nn_tensor *r);
/* A value-selecting op's node on values (backward: the gradient scattered back
   to the saved indices along d) and that backward; core-private. */
int nn_record_selecting(int op, nn_tensor *a, nn_tensor *values, nn_tensor *indices, int d, bool keepdim);
int nn_selecting_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin);
/* dim wrapped for t, where a 0-dim tensor takes dim 0 or -1 (PyTorch's wrap_dim); 0 or -1. */
int nn_select_wrap_dim(int dim, const nn_tensor *t, int *d);

#endif
