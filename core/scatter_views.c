/*
 * scatter_views.c — select_scatter, slice_scatter and diagonal_scatter: a copy
 * of the input with one view of it (a select, a slice or a diagonal) replaced
 * by src, as ATen's (clone, view, check the sizes, copy_). Each records its
 * own node (SelectScatterBackward0, ...); the backward scatters zeros into the
 * gradient for the input and takes the same view of it for src.
 */
#include <stdio.h>
#include <string.h>

#include "nn_int.h"
#include "nn_misc_ops.h"
#include "nn_select.h"
#include "nn_select_more.h"

/* p.i: the view's arguments (select: dim, index; slice: dim, start, stop, step;
   diagonal: offset, dim1, dim2) */
static nn_tensor *view_of(nn_op_id op, nn_tensor *t, const int64_t *v)
{
    switch (op) {
    case NN_OP_select_scatter: return nn_select(t, (int)v[0], v[1]);
    case NN_OP_slice_scatter: return nn_slice(t, (int)v[0], v[1], v[2], v[3]);
    default: return nn_diagonal(t, v[0], (int)v[1], (int)v[2]);
    }
}

static nn_tensor *scatter_into(nn_op_id op, nn_tensor *a, nn_tensor *src, const int64_t *v)
{
    if (op == NN_OP_slice_scatter && v[3] <= 0)
        return nn_error_set(NN_ERR_RUNTIME, "slice step must be positive"), NULL;
    nn_tensor *out = NULL, *view = NULL;
    int rc = -1;
    bool prev = nn_set_grad_enabled(false);
    out = nn_clone(a);
    view = out ? view_of(op, out, v) : NULL;
    if (view && (view->ndim != src->ndim || memcmp(view->sizes, src->sizes, sizeof(int64_t) * (size_t)src->ndim))) {
        char ss[128], vs[128];
        nn_error_set(NN_ERR_RUNTIME, "expected src to have a size equal to the slice of self. src size = %s, slice size = %s",
                     nn_shape_str(src->ndim, src->sizes, ss, sizeof ss), nn_shape_str(view->ndim, view->sizes, vs, sizeof vs));
    } else if (view) {
        rc = nn_copy_(view, src);
    }
    nn_set_grad_enabled(prev);
    NN_RELEASE(view);
    if (rc < 0) NN_SET(out, NULL);
    nn_op_params p = {.n_i = 4};
    memcpy(p.i, v, sizeof(int64_t) * 4);
    nn_tensor *in[2] = {a, src};
    if (out && nn_record(op, 2, in, 1, &out, 0, NULL, &p) < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_select_scatter(nn_tensor *a, nn_tensor *src, int dim, int64_t index)
{
    int d = 0;
    if (nn_wrap_dim(dim, a->ndim ? a->ndim : 1, &d) < 0) return NULL;
    int64_t size = a->ndim ? a->sizes[d] : 1;
    if (a->ndim && (index < -size || index >= size)) { /* ATen's select(), not Python's indexing */
        char buf[128];
        return nn_error_set(NN_ERR_INDEX, "select(): index %lld out of range for tensor of size %s at dimension %d",
                            (long long)index, nn_shape_str(a->ndim, a->sizes, buf, sizeof buf), dim), NULL;
    }
    return scatter_into(NN_OP_select_scatter, a, src, (const int64_t[]){dim, index, 0, 0});
}

nn_tensor *nn_slice_scatter(nn_tensor *a, nn_tensor *src, int dim, int64_t start, int64_t stop, int64_t step)
{
    return scatter_into(NN_OP_slice_scatter, a, src, (const int64_t[]){dim, start, stop, step});
}

nn_tensor *nn_diagonal_scatter(nn_tensor *a, nn_tensor *src, int64_t offset, int dim1, int dim2)
{
    return scatter_into(NN_OP_diagonal_scatter, a, src, (const int64_t[]){offset, dim1, dim2, 0});
}

/* self: the scatter of zeros into grad; src: grad's view */
static int scatter_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *g = gout[0];
    const int64_t *v = n->p.i;
    if (nn_node_needs_input_grad(n, 1)) {
        const nn_input_meta *m = &n->input_meta[1];
        nn_tensor *view = view_of(n->op, g, v);
        gin[1] = view && view->dtype != m->dtype ? nn_to_dtype(view, m->dtype) : view;
        if (gin[1] != view) NN_RELEASE(view);
        if (!gin[1]) return -1;
    }
    if (nn_node_needs_input_grad(n, 0)) {
        const nn_input_meta *m = &n->input_meta[1];
        nn_tensor *zeros = nn_full_on(nn_device_of(g), m->ndim, m->sizes, 0, g->dtype);
        gin[0] = zeros ? scatter_into(n->op, g, zeros, v) : NULL;
        NN_RELEASE(zeros);
        if (!gin[0]) return -1;
    }
    return 0;
}
int nn_select_scatter_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return scatter_backward(n, gout, gin); }
int nn_slice_scatter_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return scatter_backward(n, gout, gin); }
int nn_diagonal_scatter_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return scatter_backward(n, gout, gin); }
