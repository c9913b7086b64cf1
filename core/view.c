/*
 * view.c — strided views that share storage (view, reshape, transpose,
 * permute, squeeze, expand, select, slice), indexing x[...] and index
 * assignment x[...] = v, each with its backward.
 */
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "nn_int.h"
#include "nn_custom_fn.h"
#include "nn_select_more.h"

/* A view of t with the given geometry; records op with params when tracking. */
static nn_tensor *make_view(nn_tensor *t, int ndim, const int64_t *sizes, const int64_t *strides, int64_t offset,
                            nn_op_id op, const nn_op_params *p)
{
    nn_tensor *v = nn_tensor_new_view(t, ndim, sizes, strides, offset);
    if (!v) return NULL;
    nn_tensor *root = t->base ? t->base : t;
    NN_RETAIN(root);
    v->base = root;
    if (nn_record(op, 1, &t, 1, &v, 0, NULL, p) < 0) NN_SET(v, NULL);
    return v;
}

static const char *shape_list(int ndim, const int64_t *sizes, char *buf, size_t n)
{
    return nn_shape_str(ndim, sizes, buf, n);
}

/* Resolves one -1 in sizes against numel; RuntimeError as PyTorch words it. */
static int infer_size(const nn_tensor *t, int ndim, const int64_t *sizes, int64_t *out)
{
    int64_t numel = nn_numel(t), known = 1;
    int infer = -1;
    bool overflow = false, zero = false; /* a product past int64 cannot be numel, unless a size is 0 */
    for (int d = 0; d < ndim; d++) {
        if (sizes[d] == -1) {
            if (infer >= 0) return nn_error_set(NN_ERR_RUNTIME, "only one dimension can be inferred");
            infer = d;
        } else if (sizes[d] < 0) {
            return nn_error_set(NN_ERR_RUNTIME, "invalid shape dimension %lld", (long long)sizes[d]);
        } else {
            zero |= sizes[d] == 0;
            overflow |= __builtin_mul_overflow(known, sizes[d], &known);
        }
        out[d] = sizes[d];
    }
    if (zero) known = 0;
    char buf[256];
    if (overflow && !zero)
        return nn_error_set(NN_ERR_RUNTIME, "shape '%s' is invalid for input of size %lld",
                            shape_list(ndim, sizes, buf, sizeof buf), (long long)numel);
    if (infer >= 0) {
        if (known == 0 || numel % known != 0)
            return nn_error_set(NN_ERR_RUNTIME, "shape '%s' is invalid for input of size %lld",
                                shape_list(ndim, sizes, buf, sizeof buf), (long long)numel);
        out[infer] = numel / known;
    } else if (known != numel) {
        return nn_error_set(NN_ERR_RUNTIME, "shape '%s' is invalid for input of size %lld",
                            shape_list(ndim, sizes, buf, sizeof buf), (long long)numel);
    }
    return 0;
}

/* PyTorch's computeStride: strides for viewing t as sizes without a copy, or false. */
static bool view_strides(const nn_tensor *t, int ndim, const int64_t *sizes, int64_t *strides)
{
    if (nn_numel(t) == 0 || t->ndim == 0) {
        nn_contiguous_strides(ndim, sizes, strides);
        return true;
    }
    int view_d = ndim - 1;
    int64_t chunk_base_stride = t->strides[t->ndim - 1], tensor_numel = 1, view_numel = 1;
    for (int td = t->ndim - 1; td >= 0; td--) {
        tensor_numel *= t->sizes[td];
        if (td == 0 || (t->sizes[td - 1] != 1 && t->strides[td - 1] != tensor_numel * chunk_base_stride)) {
            while (view_d >= 0 && (view_numel < tensor_numel || sizes[view_d] == 1)) {
                strides[view_d] = view_numel * chunk_base_stride;
                view_numel *= sizes[view_d];
                view_d--;
            }
            if (view_numel != tensor_numel) return false;
            if (td > 0) {
                chunk_base_stride = t->strides[td - 1];
                tensor_numel = 1;
                view_numel = 1;
            }
        }
    }
    return view_d == -1;
}

static void save_sizes(nn_op_params *p, const nn_tensor *t)
{
    p->n_i = t->ndim;
    memcpy(p->i, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
}

nn_tensor *nn_view(nn_tensor *t, int ndim, const int64_t *sizes)
{
    if (!t) return NULL; /* an operand a nested call failed to make (its error is current) */
    int64_t shape[NN_MAX_DIMS], strides[NN_MAX_DIMS];
    if (ndim > NN_MAX_DIMS) {
        nn_error_set(NN_ERR_RUNTIME, "tensors have at most %d dimensions", NN_MAX_DIMS);
        return NULL;
    }
    if (infer_size(t, ndim, sizes, shape) < 0) return NULL;
    if (!view_strides(t, ndim, shape, strides)) {
        nn_error_set(NN_ERR_RUNTIME,
                     "view size is not compatible with input tensor's size and stride (at least one dimension spans "
                     "across two contiguous subspaces). Use .reshape(...) instead.");
        return NULL;
    }
    return make_view(t, ndim, shape, strides, t->offset, NN_OP_view, NULL);
}

nn_tensor *nn_reshape(nn_tensor *t, int ndim, const int64_t *sizes)
{
    if (!t) return NULL; /* an operand a nested call failed to make (its error is current) */
    int64_t shape[NN_MAX_DIMS], strides[NN_MAX_DIMS];
    if (ndim > NN_MAX_DIMS) {
        nn_error_set(NN_ERR_RUNTIME, "tensors have at most %d dimensions", NN_MAX_DIMS);
        return NULL;
    }
    if (infer_size(t, ndim, sizes, shape) < 0) return NULL;
    if (view_strides(t, ndim, shape, strides))
        return make_view(t, ndim, shape, strides, t->offset, NN_OP_reshape_alias, NULL);
    /* a copy: clone, then an "unsafe" view of the copy, as PyTorch's reshape */
    nn_tensor *copy = nn_clone(t);
    if (!copy) return NULL;
    nn_contiguous_strides(ndim, shape, strides);
    nn_tensor *out = nn_tensor_new_view(copy, ndim, shape, strides, copy->offset);
    if (out && nn_record(NN_OP_unsafe_view, 1, &copy, 1, &out, 0, NULL, NULL) < 0) NN_SET(out, NULL);
    NN_RELEASE(copy);
    return out;
}

nn_tensor *nn_flatten(nn_tensor *t, int start_dim, int end_dim)
{
    int s, e;
    if (nn_wrap_dim(start_dim, t->ndim, &s) < 0 || nn_wrap_dim(end_dim, t->ndim, &e) < 0) return NULL;
    if (s > e) {
        nn_error_set(NN_ERR_RUNTIME, "flatten() has invalid args: start_dim cannot come after end_dim");
        return NULL;
    }
    if (t->ndim == 0) {
        int64_t one = 1;
        return nn_reshape(t, 1, &one);
    }
    if (s == e) {
        NN_RETAIN(t);
        return t;
    }
    int64_t shape[NN_MAX_DIMS];
    int nd = 0;
    for (int d = 0; d < s; d++) shape[nd++] = t->sizes[d];
    int64_t n = 1;
    for (int d = s; d <= e; d++) n *= t->sizes[d];
    shape[nd++] = n;
    for (int d = e + 1; d < t->ndim; d++) shape[nd++] = t->sizes[d];
    return nn_reshape(t, nd, shape);
}

nn_tensor *nn_transpose(nn_tensor *t, int dim0, int dim1)
{
    if (!t) return NULL; /* an operand a nested call failed to make (its error is current) */
    int a, b;
    if (nn_wrap_dim(dim0, t->ndim, &a) < 0 || nn_wrap_dim(dim1, t->ndim, &b) < 0) return NULL;
    int64_t sizes[NN_MAX_DIMS], strides[NN_MAX_DIMS];
    memcpy(sizes, t->sizes, sizeof sizes);
    memcpy(strides, t->strides, sizeof strides);
    if (t->ndim > 0) {
        sizes[a] = t->sizes[b];
        sizes[b] = t->sizes[a];
        strides[a] = t->strides[b];
        strides[b] = t->strides[a];
    }
    nn_op_params p = {.i = {a, b}, .n_i = 2};
    return make_view(t, t->ndim, sizes, strides, t->offset, NN_OP_transpose, &p);
}

nn_tensor *nn_t(nn_tensor *t)
{
    if (!t) return NULL; /* an operand a nested call failed to make (its error is current) */
    if (t->ndim > 2) {
        nn_error_set(NN_ERR_RUNTIME, "t() expects a tensor with <= 2 dimensions, but self is %dD", t->ndim);
        return NULL;
    }
    int64_t sizes[2], strides[2];
    for (int d = 0; d < t->ndim; d++) {
        sizes[d] = t->sizes[t->ndim - 1 - d];
        strides[d] = t->strides[t->ndim - 1 - d];
    }
    return make_view(t, t->ndim, sizes, strides, t->offset, NN_OP_t, NULL);
}

nn_tensor *nn_T(nn_tensor *t)
{
    int dims[NN_MAX_DIMS];
    for (int d = 0; d < t->ndim; d++) dims[d] = t->ndim - 1 - d;
    return nn_permute(t, t->ndim, dims);
}

nn_tensor *nn_permute(nn_tensor *t, int ndim, const int *dims)
{
    if (!t) return NULL; /* an operand a nested call failed to make (its error is current) */
    if (ndim != t->ndim) {
        nn_error_set(NN_ERR_RUNTIME,
                     "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the "
                     "desired ordering of dimensions i.e. input.dim() = %d is not equal to len(dims) = %d",
                     t->ndim, ndim);
        return NULL;
    }
    int64_t sizes[NN_MAX_DIMS], strides[NN_MAX_DIMS];
    bool seen[NN_MAX_DIMS] = {false};
    nn_op_params p = {.n_i = ndim};
    for (int d = 0; d < ndim; d++) {
        int w;
        if (nn_wrap_dim(dims[d], ndim, &w) < 0) return NULL;
        if (seen[w]) {
            nn_error_set(NN_ERR_RUNTIME, "permute(): duplicate dims are not allowed.");
            return NULL;
        }
        seen[w] = true;
        sizes[d] = t->sizes[w];
        strides[d] = t->strides[w];
        p.i[d] = w;
    }
    return make_view(t, ndim, sizes, strides, t->offset, NN_OP_permute, &p);
}

nn_tensor *nn_unsqueeze(nn_tensor *t, int dim)
{
    if (!t) return NULL; /* an operand a nested call failed to make (its error is current) */
    int d;
    if (nn_wrap_dim(dim, t->ndim + 1, &d) < 0) return NULL;
    if (t->ndim + 1 > NN_MAX_DIMS) {
        nn_error_set(NN_ERR_RUNTIME, "tensors have at most %d dimensions", NN_MAX_DIMS);
        return NULL;
    }
    int64_t sizes[NN_MAX_DIMS], strides[NN_MAX_DIMS];
    for (int i = 0, j = 0; i <= t->ndim; i++) {
        if (i == d) {
            sizes[i] = 1;
            strides[i] = j < t->ndim ? t->sizes[j] * t->strides[j] : 1;
        } else {
            sizes[i] = t->sizes[j];
            strides[i] = t->strides[j];
            j++;
        }
    }
    nn_op_params p = {.i = {d}, .n_i = 1};
    return make_view(t, t->ndim + 1, sizes, strides, t->offset, NN_OP_unsqueeze, &p);
}

static nn_tensor *squeeze_impl(nn_tensor *t, int only_dim, nn_op_id op)
{
    int64_t sizes[NN_MAX_DIMS], strides[NN_MAX_DIMS];
    int nd = 0;
    for (int d = 0; d < t->ndim; d++) {
        bool drop = t->sizes[d] == 1 && (only_dim < 0 || only_dim == d);
        if (drop) continue;
        sizes[nd] = t->sizes[d];
        strides[nd++] = t->strides[d];
    }
    nn_op_params p;
    save_sizes(&p, t);
    p.flags = only_dim;
    return make_view(t, nd, sizes, strides, t->offset, op, &p);
}

nn_tensor *nn_squeeze(nn_tensor *t) { return squeeze_impl(t, -1, NN_OP_squeeze); }

nn_tensor *nn_squeeze_dim(nn_tensor *t, int dim)
{
    if (!t) return NULL; /* an operand a nested call failed to make (its error is current) */
    int d;
    if (nn_wrap_dim(dim, t->ndim, &d) < 0) return NULL;
    return squeeze_impl(t, t->ndim == 0 ? -2 : d, NN_OP_squeeze_dim);
}

nn_tensor *nn_expand(nn_tensor *t, int ndim, const int64_t *sizes)
{
    if (!t) return NULL; /* an operand a nested call failed to make (its error is current) */
    if (ndim < t->ndim) {
        nn_error_set(NN_ERR_RUNTIME,
                     "expand(torch.FloatTensor{%d dims}, size=[%d]): the number of sizes provided (%d) must be greater "
                     "or equal to the number of dimensions in the tensor (%d)",
                     t->ndim, ndim, ndim, t->ndim);
        return NULL;
    }
    int64_t shape[NN_MAX_DIMS], strides[NN_MAX_DIMS];
    for (int i = 0; i < ndim; i++) {
        int src = t->ndim - ndim + i;
        int64_t want = sizes[i];
        if (src < 0) {
            if (want < 0) {
                nn_error_set(NN_ERR_RUNTIME,
                             "The expanded size of the tensor (%lld) isn't allowed in a leading, non-existing "
                             "dimension %d",
                             (long long)want, i);
                return NULL;
            }
            shape[i] = want;
            strides[i] = 0;
            continue;
        }
        int64_t have = t->sizes[src];
        if (want == -1) want = have;
        if (have == want) {
            shape[i] = have;
            strides[i] = t->strides[src];
        } else if (have == 1 && want >= 0) {
            shape[i] = want;
            strides[i] = 0;
        } else {
            char a[256];
            nn_error_set(NN_ERR_RUNTIME,
                         "The expanded size of the tensor (%lld) must match the existing size (%lld) at non-singleton "
                         "dimension %d.  Target sizes: %s.  Tensor sizes: %s",
                         (long long)want, (long long)have, i, shape_list(ndim, sizes, a, sizeof a),
                         nn_shape_str(t->ndim, t->sizes, (char[256]){0}, 256));
            return NULL;
        }
    }
    nn_op_params p;
    save_sizes(&p, t);
    return make_view(t, ndim, shape, strides, t->offset, NN_OP_expand, &p);
}

nn_tensor *nn_select(nn_tensor *t, int dim, int64_t index)
{
    if (t->ndim == 0) {
        nn_error_set(NN_ERR_INDEX, "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                                   "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
        return NULL;
    }
    int d;
    if (nn_wrap_dim(dim, t->ndim, &d) < 0) return NULL;
    int64_t size = t->sizes[d];
    if (index < -size || index >= size) {
        nn_error_set(NN_ERR_INDEX, "index %lld is out of bounds for dimension %d with size %lld", (long long)index, d,
                     (long long)size);
        return NULL;
    }
    if (index < 0) index += size;
    int64_t sizes[NN_MAX_DIMS], strides[NN_MAX_DIMS];
    for (int i = 0, j = 0; i < t->ndim; i++) {
        if (i == d) continue;
        sizes[j] = t->sizes[i];
        strides[j++] = t->strides[i];
    }
    nn_op_params p = {.i = {d, index}, .n_i = 2};
    return make_view(t, t->ndim - 1, sizes, strides, t->offset + index * t->strides[d], NN_OP_select, &p);
}

nn_tensor *nn_slice(nn_tensor *t, int dim, int64_t start, int64_t stop, int64_t step)
{
    if (t->ndim == 0) {
        nn_error_set(NN_ERR_INDEX, "slice() cannot be applied to a 0-dim tensor.");
        return NULL;
    }
    int d;
    if (nn_wrap_dim(dim, t->ndim, &d) < 0) return NULL;
    if (step <= 0) {
        nn_error_set(NN_ERR_VALUE, "step must be greater than zero");
        return NULL;
    }
    int64_t size = t->sizes[d];
    if (start < 0) start += size;
    if (stop < 0) stop += size;
    if (start < 0) start = 0;
    if (start > size) start = size;
    if (stop < start) stop = start;
    if (stop > size) stop = size;
    int64_t sizes[NN_MAX_DIMS], strides[NN_MAX_DIMS];
    memcpy(sizes, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
    memcpy(strides, t->strides, sizeof(int64_t) * (size_t)t->ndim);
    sizes[d] = (stop - start + step - 1) / step;
    strides[d] = t->strides[d] * step;
    nn_op_params p = {.i = {d, start, stop, step}, .n_i = 4};
    return make_view(t, t->ndim, sizes, strides, t->offset + start * t->strides[d], NN_OP_slice, &p);
}

nn_tensor *nn_narrow(nn_tensor *t, int dim, int64_t start, int64_t length)
{
    if (!t) return NULL; /* an operand a nested call failed to make (its error is current) */
    int d;
    if (nn_wrap_dim(dim, t->ndim, &d) < 0) return NULL;
    if (start < 0) start += t->sizes[d];
    if (start < 0 || length < 0 || start + length > t->sizes[d]) {
        nn_error_set(NN_ERR_INDEX, "start (%lld) + length (%lld) exceeds dimension size (%lld).", (long long)start,
                     (long long)length, (long long)t->sizes[d]);
        return NULL;
    }
    return nn_slice(t, d, start, start + length, 1);
}

/* ------------------------------------------------------- view backwards */

/* zeros shaped like input 0, on the device of its gradient g (not the default device) */
static nn_tensor *grad_zeros_for_input(nn_node *n, const nn_tensor *g)
{
    return nn_zeros_on(nn_device_of(g), n->input_meta[0].ndim, n->input_meta[0].sizes, n->input_meta[0].dtype);
}

static int reshape_back(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    gin[0] = nn_reshape(gout[0], n->input_meta[0].ndim, n->input_meta[0].sizes);
    return gin[0] ? 0 : -1;
}

int nn_view_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return reshape_back(n, gout, gin); }
int nn_unsafe_view_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return reshape_back(n, gout, gin); }
int nn_squeeze_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return reshape_back(n, gout, gin); }
int nn_squeeze_dim_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return reshape_back(n, gout, gin); }
int nn_squeeze_inplace_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return reshape_back(n, gout, gin); }
int nn_reshape_alias_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return reshape_back(n, gout, gin); }

int nn_transpose_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    gin[0] = nn_transpose(gout[0], (int)n->p.i[0], (int)n->p.i[1]);
    return gin[0] ? 0 : -1;
}

int nn_t_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    (void)n;
    gin[0] = nn_t(gout[0]);
    return gin[0] ? 0 : -1;
}

int nn_permute_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    int inverse[NN_MAX_DIMS];
    for (int d = 0; d < n->p.n_i; d++) inverse[n->p.i[d]] = d;
    gin[0] = nn_permute(gout[0], n->p.n_i, inverse);
    return gin[0] ? 0 : -1;
}

int nn_unsqueeze_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    gin[0] = nn_squeeze_dim(gout[0], (int)n->p.i[0]);
    return gin[0] ? 0 : -1;
}

int nn_expand_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    gin[0] = nn_sum_to_size(gout[0], n->input_meta[0].ndim, n->input_meta[0].sizes);
    return gin[0] ? 0 : -1;
}

/* zeros like the input with grad written into the part the view selected; under
   create_graph (a gradient with history) a Select/SliceBackwardBackward0 node, so that a
   double backward flows through select and slicing */
static int scatter_back(nn_node *n, nn_tensor *g, nn_tensor **gin, bool is_select)
{
    nn_tensor *z = grad_zeros_for_input(n, g);
    if (!z) return -1;
    nn_tensor *part = is_select ? nn_select(z, (int)n->p.i[0], n->p.i[1])
                                : nn_slice(z, (int)n->p.i[0], n->p.i[1], n->p.i[2], n->p.i[3]);
    bool prev = nn_set_grad_enabled(false);
    int rc = part ? nn_copy_(part, g) : -1;
    nn_set_grad_enabled(prev);
    NN_RELEASE(part);
    /* under create_graph the result has history, as PyTorch's Select/SliceBackwardBackward0 */
    if (rc == 0) rc = nn_record(is_select ? NN_OP_select_backward : NN_OP_slice_backward, 1, &g, 1, &z, 0, NULL, &n->p);
    if (rc < 0) {
        NN_RELEASE(z);
        return -1;
    }
    gin[0] = z;
    return 0;
}

/* ------------------------------------------- unbind, split: views with one node */

/* The n views of x in outs (under no grad: each with x's base), then one node for
   all of them, as PyTorch's multi-output view ops record (UnbindBackward0,
   SplitBackward0, SplitWithSizesBackward0): piece k is output k. */
static int record_pieces(nn_op_id op, nn_tensor *x, int dim, int n, nn_tensor **outs)
{
    nn_op_params p = {.i = {dim}, .n_i = 1};
    if (nn_record(op, 1, &x, n, outs, 0, NULL, &p) == 0) {
        for (int k = 0; k < n; k++) outs[k]->multi_output_view |= outs[k]->grad_fn != NULL;
        return 0;
    }
    for (int k = 0; k < n; k++) NN_SET(outs[k], NULL);
    return -1;
}

int nn_unbind(nn_tensor *x, int dim, nn_tensor **outs)
{
    int d;
    if (nn_wrap_dim(dim, x->ndim, &d) < 0) return -1;
    if (x->sizes[d] > INT32_MAX) return nn_error_set(NN_ERR_RUNTIME, "unbind: too many pieces");
    int n = (int)x->sizes[d], done = 0;
    NN_WITH_GRAD_MODE(false, {
        for (; done < n && (outs[done] = nn_select(x, d, done)); done++) {}
    });
    if (done < n) {
        for (int k = 0; k < done; k++) NN_SET(outs[k], NULL);
        return -1;
    }
    return record_pieces(NN_OP_unbind, x, d, n, outs);
}

int nn_split_views(nn_tensor *x, int dim, int n, const int64_t *lens, bool with_sizes, nn_tensor **outs)
{
    int d;
    if (nn_wrap_dim(dim, x->ndim, &d) < 0) return -1;
    int done = 0;
    int64_t at = 0;
    NN_WITH_GRAD_MODE(false, {
        for (; done < n && (outs[done] = nn_narrow(x, d, at, lens[done])); done++) at += lens[done];
    });
    if (done < n) {
        for (int k = 0; k < done; k++) NN_SET(outs[k], NULL);
        return -1;
    }
    return record_pieces(with_sizes ? NN_OP_split_with_sizes : NN_OP_split, x, d, n, outs);
}

/* The pieces' gradients (zeros for a piece that got none) stacked (unbind) or
   concatenated (split) along the node's dim: ATen's unbind_backward and
   split_backward. */
static int join_pieces(nn_node *n, nn_tensor **gout, nn_tensor **gin, bool stack)
{
    if (!nn_node_needs_input_grad(n, 0)) return 0;
    nn_device dev = nn_default_device(); /* the device of the gradients that came */
    for (int i = n->n_outputs; i-- > 0;)
        if (gout[i]) dev = nn_device_of(gout[i]);
    nn_tensor **parts = nn_calloc((size_t)n->n_outputs, sizeof *parts);
    int rc = parts ? 0 : -1;
    for (int i = 0; rc == 0 && i < n->n_outputs; i++) {
        const nn_input_meta *m = &n->output_meta[i];
        parts[i] = gout[i] ? (NN_RETAIN(gout[i]), gout[i]) : nn_zeros_on(dev, m->ndim, m->sizes, m->dtype);
        if (!parts[i]) rc = -1;
    }
    int dim = (int)n->p.i[0];
    if (rc == 0 && !(gin[0] = stack ? nn_stack(n->n_outputs, parts, dim) : nn_cat(n->n_outputs, parts, dim))) rc = -1;
    for (int i = 0; parts && i < n->n_outputs; i++) NN_RELEASE(parts[i]);
    nn_free(parts);
    return rc;
}

int nn_unbind_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return join_pieces(n, gout, gin, true); }
int nn_split_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return join_pieces(n, gout, gin, false); }
int nn_split_with_sizes_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return join_pieces(n, gout, gin, false); }

int nn_select_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return scatter_back(n, gout[0], gin, true); }
int nn_slice_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return scatter_back(n, gout[0], gin, false); }
/* The gradient of a scatter_back: the part of it the view selected. */
int nn_select_backward_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    gin[0] = nn_select(gout[0], (int)n->p.i[0], n->p.i[1]);
    return gin[0] ? 0 : -1;
}
int nn_slice_backward_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    gin[0] = nn_slice(gout[0], (int)n->p.i[0], n->p.i[1], n->p.i[2], n->p.i[3]);
    return gin[0] ? 0 : -1;
}

/* ------------------------------------------------------------- indexing */

/* The index items kept for a backward: a copy of the array with its tensors retained. */
typedef struct saved_index {
    int n;
    nn_index_item items[];
} saved_index;

static void saved_index_free(void *p)
{
    saved_index *s = p;
    for (int i = 0; i < s->n; i++) NN_RELEASE(s->items[i].tensor);
    nn_free(s);
}

static saved_index *saved_index_new(int n, const nn_index_item *items)
{
    saved_index *s = nn_malloc(sizeof *s + sizeof(nn_index_item) * (size_t)n);
    if (!s) return NULL;
    s->n = n;
    if (n) memcpy(s->items, items, sizeof(nn_index_item) * (size_t)n); /* items may be NULL when n is 0 */
    for (int i = 0; i < n; i++) NN_RETAIN(s->items[i].tensor);
    return s;
}

/* The basic part of an index: applies ints, slices, None and ... as views.
   Stops at a tensor item, reporting its position in *tensor_item (or -1) and
   the dim of the result it applies to in *tensor_dim. New reference. */
static nn_tensor *basic_index(nn_tensor *t, int n, const nn_index_item *items, int *tensor_item, int *tensor_dim)
{
    int consumed = 0, ellipsis = -1;
    *tensor_item = -1;
    for (int i = 0; i < n; i++) {
        switch (items[i].kind) {
        case NN_INDEX_INT: case NN_INDEX_SLICE: consumed++; break;
        case NN_INDEX_TENSOR:
            consumed += items[i].tensor->dtype == NN_BOOL ? items[i].tensor->ndim : 1;
            if (*tensor_item >= 0) {
                nn_error_set(NN_ERR_NOT_IMPLEMENTED, "indexing with more than one tensor is not supported");
                return NULL;
            }
            *tensor_item = i;
            break;
        case NN_INDEX_ELLIPSIS:
            if (ellipsis >= 0) {
                nn_error_set(NN_ERR_INDEX, "an index can only have a single ellipsis ('...')");
                return NULL;
            }
            ellipsis = i;
            break;
        case NN_INDEX_NONE: break;
        }
    }
    if (consumed > t->ndim) {
        nn_error_set(NN_ERR_INDEX, "too many indices for tensor of dimension %d", t->ndim);
        return NULL;
    }
    NN_RETAIN(t);
    nn_tensor *cur = t;
    int dim = 0;
    *tensor_dim = -1;
    for (int i = 0; i < n && cur; i++) {
        const nn_index_item *it = &items[i];
        nn_tensor *next = NULL;
        switch (it->kind) {
        case NN_INDEX_INT: next = nn_select(cur, dim, it->start); break;
        case NN_INDEX_SLICE: {
            int64_t size = cur->ndim ? cur->sizes[dim] : 0;
            next = nn_slice(cur, dim, it->has_start ? it->start : 0, it->has_stop ? it->stop : size,
                            it->step ? it->step : 1);
            dim++;
            break;
        }
        case NN_INDEX_NONE: next = nn_unsqueeze(cur, dim); dim++; break;
        case NN_INDEX_ELLIPSIS: dim += t->ndim - consumed; continue;
        case NN_INDEX_TENSOR:
            *tensor_dim = dim;
            dim += it->tensor->dtype == NN_BOOL ? it->tensor->ndim : 1;
            continue;
        }
        NN_RELEASE(cur);
        cur = next;
    }
    return cur;
}

/* Flat positions selected by an index tensor over dims [dim, dim+m) of t;
   *k receives their count, and out_shape/out_ndim the shape they stand for. */
static int64_t *index_positions(const nn_tensor *t, const nn_tensor *index, int dim, int64_t *k, int *out_ndim,
                                int64_t *out_shape)
{
    if (index->dtype == NN_BOOL) {
        for (int d = 0; d < index->ndim; d++) {
            if (index->sizes[d] != t->sizes[dim + d]) {
                nn_error_set(NN_ERR_INDEX,
                             "The shape of the mask [%lld] at index %d does not match the shape of the indexed tensor "
                             "[%lld] at index %d",
                             (long long)index->sizes[d], d, (long long)t->sizes[dim + d], dim + d);
                return NULL;
            }
        }
        int64_t n = nn_numel(index), count = 0;
        double *vals = nn_malloc(sizeof(double) * (size_t)(n ? n : 1));
        int64_t *pos = vals ? nn_malloc(sizeof(int64_t) * (size_t)(n ? n : 1)) : NULL;
        if (!pos) {
            nn_free(vals);
            return NULL;
        }
        nn_to_doubles(index, vals);
        for (int64_t i = 0; i < n; i++)
            if (vals[i] != 0) pos[count++] = i;
        nn_free(vals);
        *k = count;
        *out_ndim = 1;
        out_shape[0] = count;
        return pos;
    }
    if (nn_dtype_is_floating(index->dtype)) {
        nn_error_set(NN_ERR_INDEX, "tensors used as indices must be long, int, byte or bool tensors");
        return NULL;
    }
    int64_t n = nn_numel(index), size = t->sizes[dim];
    int64_t *pos = nn_malloc(sizeof(int64_t) * (size_t)(n ? n : 1));
    double *vals = pos ? nn_malloc(sizeof(double) * (size_t)(n ? n : 1)) : NULL;
    if (!vals) {
        nn_free(pos);
        return NULL;
    }
    nn_to_doubles(index, vals);
    for (int64_t i = 0; i < n; i++) {
        int64_t v = (int64_t)vals[i];
        if (v < -size || v >= size) {
            nn_error_set(NN_ERR_INDEX, "index %lld is out of bounds for dimension %d with size %lld", (long long)v, dim,
                         (long long)size);
            nn_free(vals);
            nn_free(pos);
            return NULL;
        }
        pos[i] = v < 0 ? v + size : v;
    }
    nn_free(vals);
    *k = n;
    *out_ndim = index->ndim;
    memcpy(out_shape, index->sizes, sizeof(int64_t) * (size_t)index->ndim);
    return pos;
}

/* The [P, D, Q] decomposition of t around the indexed dims [dim, dim+m). */
static void pdq(const nn_tensor *t, int dim, int m, int64_t *P, int64_t *D, int64_t *Q)
{
    *P = *D = *Q = 1;
    for (int d = 0; d < t->ndim; d++) {
        if (d < dim) *P *= t->sizes[d];
        else if (d < dim + m) *D *= t->sizes[d];
        else *Q *= t->sizes[d];
    }
}

/* Rows of [P, D, Q] moved by the index kernel (mode 0: dst[p, j] = src[p, pos[j]];
   1: dst[p, pos[j]] = src[p, j]; 2: dst[p, pos[j]] += src[p, j]), the k positions
   (host memory) copied to dst's device first. 0 or -1. */
static int move_rows(nn_tensor *dst, const nn_tensor *src, const int64_t *pos, int64_t k, int64_t P, int64_t D, int64_t Q,
                     int mode)
{
    static const nn_index_op codes[3] = {NN_INDEX_GATHER_ROWS, NN_INDEX_SCATTER_ROWS, NN_INDEX_ADD_ROWS};
    nn_tensor *pt = nn_empty_on(nn_device_of(dst), 1, &k, NN_INT64);
    int rc = pt && k ? nn_host_write(pt, pos) : pt ? 0 : -1;
    nn_kernel_args ka = {.t = {dst, (nn_tensor *)src, pt}, .i = {P, D, Q}};
    if (rc == 0) rc = NN_KERNEL(nn_backend_of(dst), index, (codes[mode], &ka));
    NN_RELEASE(pt);
    return rc;
}

/* t[positions] along dim for an index tensor; records IndexBackward0 on out. */
static nn_tensor *advanced_index(nn_tensor *t, const nn_tensor *index, int dim)
{
    int m = index->dtype == NN_BOOL ? index->ndim : 1;
    int64_t k, idx_shape[NN_MAX_DIMS];
    int idx_ndim;
    int64_t *pos = index_positions(t, index, dim, &k, &idx_ndim, idx_shape);
    if (!pos) return NULL;
    int64_t shape[NN_MAX_DIMS];
    int nd = 0;
    for (int d = 0; d < dim; d++) shape[nd++] = t->sizes[d];
    for (int d = 0; d < idx_ndim; d++) shape[nd++] = idx_shape[d];
    for (int d = dim + m; d < t->ndim; d++) shape[nd++] = t->sizes[d];
    nn_tensor *src = NULL, *out = NULL;
    if (nd > NN_MAX_DIMS) {
        nn_error_set(NN_ERR_RUNTIME, "tensors have at most %d dimensions", NN_MAX_DIMS);
        goto done;
    }
    NN_WITH_GRAD_MODE(false, src = nn_contiguous(t));
    out = src ? nn_empty_on(nn_device_of(src), nd, shape, t->dtype) : NULL;
    if (!out) goto done;
    int64_t P, D, Q;
    pdq(t, dim, m, &P, &D, &Q);
    if (move_rows(out, src, pos, k, P, D, Q, 0) < 0) {
        NN_SET(out, NULL);
        goto done;
    }
    nn_op_params p = {.i = {dim, m}, .n_i = 2};
    if (nn_record(NN_OP_index, 1, &t, 1, &out, 0, NULL, &p) < 0) {
        NN_SET(out, NULL);
        goto done;
    }
    if (out->grad_fn) {
        /* the backward needs the positions */
        out->grad_fn->extra = pos;
        out->grad_fn->free_extra = nn_free;
        out->grad_fn->p.i[2] = k;
        pos = NULL;
    }
done:
    nn_free(pos);
    NN_RELEASE(src);
    return out;
}

/* Under create_graph (a gradient with history): the gradient added into zeros by index_add
   along the indexed rows, differentiable, so that a double backward flows through x[mask] and
   x[idx]; the node takes PyTorch's name for it (IndexPutImplBackward0). 0 or -1. */
static int index_backward_graph(nn_node *n, nn_tensor *g, int64_t P, int64_t D, int64_t Q, nn_tensor **gin)
{
    int64_t k = n->p.i[2], zs[3] = {P, D, Q}, gs[3] = {P, k, Q};
    const nn_input_meta *m = &n->input_meta[0];
    nn_tensor *z = grad_zeros_for_input(n, g), *z3 = z ? nn_reshape(z, 3, zs) : NULL;
    nn_tensor *idx = z3 ? nn_from_data_on(nn_device_of(z), n->extra, 1, &k, NN_INT64) : NULL;
    nn_tensor *g3 = idx ? nn_reshape(g, 3, gs) : NULL;
    nn_tensor *r3 = g3 ? nn_index_add(z3, 1, idx, g3, 1.0) : NULL;
    nn_tensor *r = r3 ? nn_reshape(r3, m->ndim, m->sizes) : NULL;
    int rc = r ? 0 : -1;
    if (rc == 0 && r->grad_fn) rc = nn_node_set_name(r->grad_fn, "IndexPutImplBackward0");
    NN_RELEASE(z);
    NN_RELEASE(z3);
    NN_RELEASE(idx);
    NN_RELEASE(g3);
    NN_RELEASE(r3);
    if (rc < 0) NN_SET(r, NULL);
    gin[0] = r;
    return rc;
}

int nn_index_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (nn_grad_enabled() && gout[0]->requires_grad && n->p.i[2] > 0) {
        const nn_input_meta *m = &n->input_meta[0];
        int dim = (int)n->p.i[0], mm = (int)n->p.i[1];
        int64_t P = 1, D = 1, Q = 1;
        for (int d = 0; d < m->ndim; d++) {
            if (d < dim) P *= m->sizes[d];
            else if (d < dim + mm) D *= m->sizes[d];
            else Q *= m->sizes[d];
        }
        return index_backward_graph(n, gout[0], P, D, Q, gin);
    }
    nn_tensor *z = grad_zeros_for_input(n, gout[0]);
    nn_tensor *g = z ? nn_contiguous(gout[0]) : NULL;
    if (!g) {
        NN_RELEASE(z);
        return -1;
    }
    const nn_input_meta *m = &n->input_meta[0];
    int dim = (int)n->p.i[0], mm = (int)n->p.i[1];
    int64_t k = n->p.i[2], P = 1, D = 1, Q = 1;
    for (int d = 0; d < m->ndim; d++) {
        if (d < dim) P *= m->sizes[d];
        else if (d < dim + mm) D *= m->sizes[d];
        else Q *= m->sizes[d];
    }
    /* accumulate: repeated indices add up */
    if (move_rows(z, g, n->extra, k, P, D, Q, 2) < 0) {
        NN_RELEASE(g);
        NN_RELEASE(z);
        return -1;
    }
    NN_RELEASE(g);
    gin[0] = z;
    return 0;
}

nn_tensor *nn_index(nn_tensor *t, int n, const nn_index_item *items)
{
    if (nn_index_tensor_count(n, items) > 1) return nn_index_multi(t, n, items);
    int tensor_item, tensor_dim;
    nn_tensor *view = basic_index(t, n, items, &tensor_item, &tensor_dim);
    if (!view || tensor_item < 0) return view;
    nn_tensor *out = advanced_index(view, items[tensor_item].tensor, tensor_dim);
    NN_RELEASE(view);
    return out;
}

/* ---------------------------------------------------------- assignment */

/* Writes value into t[items] without autograd; t unchanged on error. */
static int index_put_raw(nn_tensor *t, int n, const nn_index_item *items, nn_tensor *value)
{
    if (nn_index_tensor_count(n, items) > 1) return nn_index_put_multi_raw(t, n, items, value);
    int tensor_item, tensor_dim;
    nn_tensor *view = NULL;
    NN_WITH_GRAD_MODE(false, view = basic_index(t, n, items, &tensor_item, &tensor_dim));
    if (!view) return -1;
    int rc;
    if (tensor_item < 0) {
        /* copy_ checks the broadcast before writing; grad mode off makes it a raw write */
        NN_WITH_GRAD_MODE(false, rc = nn_copy_(view, value));
        NN_RELEASE(view);
        return rc;
    }
    const nn_tensor *index = items[tensor_item].tensor;
    int m = index->dtype == NN_BOOL ? index->ndim : 1;
    int64_t k, idx_shape[NN_MAX_DIMS];
    int idx_ndim;
    int64_t *pos = index_positions(view, index, tensor_dim, &k, &idx_ndim, idx_shape);
    if (!pos) {
        NN_RELEASE(view);
        return -1;
    }
    /* the values, broadcast to the shape t[items] has, made contiguous */
    int64_t shape[NN_MAX_DIMS];
    int nd = 0;
    for (int d = 0; d < tensor_dim; d++) shape[nd++] = view->sizes[d];
    for (int d = 0; d < idx_ndim; d++) shape[nd++] = idx_shape[d];
    for (int d = tensor_dim + m; d < view->ndim; d++) shape[nd++] = view->sizes[d];
    nn_tensor *vals = nn_empty_on(nn_device_of(view), nd, shape, view->dtype);
    rc = vals ? 0 : -1;
    if (rc == 0) {
        bool prev = nn_set_grad_enabled(false);
        rc = nn_copy_(vals, value);
        nn_set_grad_enabled(prev);
    }
    if (rc == 0) {
        /* write through a contiguous staging copy when the view isn't contiguous */
        nn_tensor *stage = NULL;
        NN_WITH_GRAD_MODE(false, stage = nn_is_contiguous(view) ? (NN_RETAIN(view), view) : nn_clone(view));
        rc = stage ? 0 : -1;
        if (rc == 0) {
            int64_t P, D, Q;
            pdq(view, tensor_dim, m, &P, &D, &Q);
            rc = move_rows(stage, vals, pos, k, P, D, Q, 1);
            if (rc == 0 && stage != view) NN_WITH_GRAD_MODE(false, rc = nn_copy_(view, stage));
        }
        NN_RELEASE(stage);
    }
    NN_RELEASE(vals);
    nn_free(pos);
    NN_RELEASE(view);
    return rc;
}

/* The grad_fn name of the view that PyTorch's setitem writes through when items
   index t (applySlicing: a select per integer, a slice per slice other than an
   explicit start 0, stop = the size, step 1, an unsqueeze per None; the last one
   made names the view; a Python bool, here a 0-dim bool tensor, unsqueezes too), or
   NULL when it makes none and writes into t itself. */
static const char *setitem_view_name(const nn_tensor *t, int n, const nn_index_item *items)
{
    int consumed = 0, dim = 0; /* dims of t the items index; t's dim the next item indexes */
    for (int i = 0; i < n; i++)
        if (items[i].kind == NN_INDEX_INT || items[i].kind == NN_INDEX_SLICE) consumed++;
        else if (items[i].kind == NN_INDEX_TENSOR) consumed += items[i].tensor->dtype == NN_BOOL ? items[i].tensor->ndim : 1;
    const char *name = NULL;
    for (int i = 0; i < n; i++) {
        const nn_index_item *it = &items[i];
        switch (it->kind) {
        case NN_INDEX_INT: name = "SelectBackward0"; dim++; break;
        case NN_INDEX_SLICE: {
            int64_t start = it->has_start ? it->start : 0;
            if (!(start == 0 && it->has_stop && dim < t->ndim && it->stop == t->sizes[dim] && it->step == 1))
                name = "SliceBackward0";
            dim++;
            break;
        }
        case NN_INDEX_NONE: name = "UnsqueezeBackward0"; break;
        case NN_INDEX_ELLIPSIS: dim += t->ndim - consumed; break;
        case NN_INDEX_TENSOR: /* a Python bool comes as a 0-dim bool tensor: an unsqueeze */
            if (it->tensor->dtype == NN_BOOL && it->tensor->ndim == 0) name = "UnsqueezeBackward0";
            dim += it->tensor->dtype == NN_BOOL ? it->tensor->ndim : 1;
            break;
        }
    }
    return name;
}

int nn_index_put_(nn_tensor *t, int n, const nn_index_item *items, nn_tensor *value)
{
    const char *through = t->multi_output_view && t->grad_fn && nn_grad_enabled() ? setitem_view_name(t, n, items) : NULL;
    if (through) return nn_multi_output_inplace_error(through, 0);
    if (nn_check_inplace(t) < 0) return -1;
    int ones = 0; /* PyTorch drops the value's leading 1s (slicePrefix1sSize): x[i] = row[None] works */
    while (ones < value->ndim && value->sizes[ones] == 1) ones++;
    if (ones) {
        nn_tensor *v = nn_reshape(value, value->ndim - ones, value->sizes + ones);
        int rc = v ? nn_index_put_(t, n, items, v) : -1;
        NN_RELEASE(v);
        return rc;
    }
    /* the copies inside count as one write, as PyTorch's setitem counts it */
    uint64_t version = t->storage->version;
    if (index_put_raw(t, n, items, value) < 0) return -1;
    t->storage->version = version;
    nn_bump_version(t);
    nn_tensor *in[2] = {t, value};
    if (!nn_needs_grad(2, in)) return 0;
    saved_index *s = saved_index_new(n, items);
    if (!s) return -1;
    return nn_record_inplace_extra(NN_OP_copy_slices, t, 2, in, 0, NULL, NULL, s, saved_index_free);
}

int nn_copy_slices_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    saved_index *s = n->extra;
    nn_tensor *g = gout[0];
    if (nn_node_needs_input_grad(n, 1)) {
        nn_tensor *part = nn_index(g, s->n, s->items);
        if (!part) return -1;
        gin[1] = nn_sum_to_size(part, n->input_meta[1].ndim, n->input_meta[1].sizes);
        NN_RELEASE(part);
        if (!gin[1]) return -1;
    }
    if (nn_node_needs_input_grad(n, 0) && nn_grad_enabled() && g->requires_grad) {
        /* create_graph: where(kept, g, 0), so the assigned region passes no second derivative either */
        nn_tensor *keep = NULL, *no = NULL, *zeros = NULL;
        NN_WITH_GRAD_MODE(false, keep = nn_full_like(g, 1.0));
        nn_tensor *kb = keep ? nn_to_dtype(keep, NN_BOOL) : NULL;
        no = kb ? nn_scalar(0.0, NN_BOOL) : NULL;
        int rc = no ? index_put_raw(kb, s->n, s->items, no) : -1;
        if (rc == 0 && !(zeros = nn_zeros_like(g))) rc = -1;
        if (rc == 0 && !(gin[0] = nn_where(kb, g, zeros))) rc = -1;
        NN_RELEASE(keep);
        NN_RELEASE(kb);
        NN_RELEASE(no);
        NN_RELEASE(zeros);
        return rc;
    }
    if (nn_node_needs_input_grad(n, 0)) {
        /* the assigned region got no gradient from the old value */
        nn_tensor *copy = nn_clone(g), *zero = copy ? nn_scalar(0.0, g->dtype) : NULL;
        int rc = zero ? index_put_raw(copy, s->n, s->items, zero) : -1;
        NN_RELEASE(zero);
        if (rc < 0) {
            NN_RELEASE(copy);
            return -1;
        }
        gin[0] = copy;
    }
    return 0;
}
