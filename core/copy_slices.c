/*
 * copy_slices.c — PyTorch's CopySlices: an in-place op on a view of a tensor with history
 * (x[0] += 1, x[:, 1].zero_(), y[1].mul_(w)) becomes the base's grad_fn. Its backward lays the
 * base's gradient out as the base, runs the op's own backward on the view's part of it, writes the
 * op's gradient for the view back into that part and passes the op's other gradients on. The
 * written view's grad_fn becomes AsStridedBackward0 of the base (1.13's, where no view replay
 * applies): its gradient goes to the view's place in zeros of the base's shape.
 * The recording is autograd.c's (record_on_view); the view's geometry is kept here.
 */
#include <string.h>

#include "nn_int.h"

typedef struct view_geometry {
    nn_node *fn;                  /* owned: the op's node (CopySlices), or NULL (AsStridedBackward0) */
    int ndim, base_ndim;
    int64_t sizes[NN_MAX_DIMS], strides[NN_MAX_DIMS];
    int64_t offset;               /* the view's storage offset past the base's */
    int64_t base_sizes[NN_MAX_DIMS];
} view_geometry;

bool nn_copy_slices_fits(const nn_tensor *view, int n_in, nn_tensor *const *inputs)
{
    const nn_tensor *base = view->base;
    return base && n_in > 0 && inputs[0] == view && view->dtype == base->dtype && nn_is_contiguous(base) &&
           view->storage == base->storage;
}

static void geometry_free(void *p)
{
    view_geometry *g = p;
    if (g) NN_RELEASE(g->fn);
    nn_free(g);
}

int nn_copy_slices_attach(nn_node *n, nn_node *fn, const nn_tensor *view)
{
    view_geometry *g = nn_calloc(1, sizeof *g);
    if (!g) return -1;
    const nn_tensor *base = view->base;
    g->fn = fn ? (nn_node *)nn_retain(&fn->ob) : NULL;
    g->ndim = view->ndim;
    memcpy(g->sizes, view->sizes, sizeof(int64_t) * (size_t)view->ndim);
    memcpy(g->strides, view->strides, sizeof(int64_t) * (size_t)view->ndim);
    g->offset = view->offset - base->offset;
    g->base_ndim = base->ndim;
    memcpy(g->base_sizes, base->sizes, sizeof(int64_t) * (size_t)base->ndim);
    n->extra = g;
    n->free_extra = geometry_free;
    return 0;
}

/* The view's place in r, a new contiguous tensor of the base's shape */
static nn_tensor *place(const view_geometry *geo, nn_tensor *r)
{
    return nn_tensor_new_view(r, geo->ndim, geo->sizes, geo->strides, r->offset + geo->offset);
}

static int create_graph_unsupported(void)
{
    return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "a double backward through an in-place operation on a view "
                                                "(CopySlices) is not supported in nnscope");
}

int nn_view_copy_slices_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    const view_geometry *geo = n->extra;
    nn_node *fn = geo->fn;
    if (!gout[0]) return 0;
    if (nn_grad_enabled()) return create_graph_unsupported();
    for (int i = 0; i < fn->n_saved; i++)
        if (nn_saved_check(&fn->saved[i]) < 0) return -1;
    nn_tensor *result = nn_clone(gout[0]); /* the base's gradient laid out as the base */
    if (result && !nn_is_contiguous(result)) NN_SET(result, nn_contiguous(result));
    nn_tensor *part = result ? place(geo, result) : NULL;
    nn_tensor *slice = part ? nn_clone(part) : NULL; /* the op's backward gets a tensor of its own */
    nn_tensor *small[4] = {0}, **fgin = fn->n_inputs <= 4 ? small : nn_calloc((size_t)fn->n_inputs, sizeof *fgin);
    int rc = slice && fgin ? nn_backward_table[fn->op](fn, &slice, fgin) : -1;
    if (rc == 0) rc = fgin[0] ? nn_copy_(part, fgin[0]) : nn_fill_(part, 0.0);
    if (rc == 0 && nn_node_needs_input_grad(n, 0)) gin[0] = (nn_tensor *)nn_retain(&result->ob);
    for (int i = 1; rc == 0 && i < n->n_inputs; i++)
        if (nn_node_needs_input_grad(n, i)) gin[i] = fgin[i], fgin[i] = NULL;
    for (int i = 0; fgin && i < fn->n_inputs; i++) NN_RELEASE(fgin[i]);
    if (fgin != small) nn_free(fgin);
    NN_RELEASE(slice);
    NN_RELEASE(part);
    NN_RELEASE(result);
    return rc;
}

int nn_view_as_strided_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    const view_geometry *geo = n->extra;
    if (!gout[0] || !nn_node_needs_input_grad(n, 0)) return 0;
    if (nn_grad_enabled()) return create_graph_unsupported();
    nn_tensor *result = nn_zeros_on(nn_device_of(gout[0]), geo->base_ndim, geo->base_sizes, gout[0]->dtype);
    nn_tensor *part = result ? place(geo, result) : NULL;
    int rc = part ? nn_copy_(part, gout[0]) : -1;
    NN_RELEASE(part);
    if (rc == 0) gin[0] = result;
    else NN_RELEASE(result);
    return rc;
}
