/*
 * view_inplace.c — the in-place forms of the view ops (t.unsqueeze_(0),
 * t.squeeze_(), t.t_(), t.transpose_(0, 1)) and t.detach_(): the tensor object
 * itself changes its shape and strides, or drops its history, so that every
 * name bound to it sees the change, as in PyTorch. The view is made by the
 * out-of-place op first (its checks and errors are the op's), then t takes it.
 */
#include <string.h>

#include "nn_int.h"

int nn_become_view_(nn_tensor *t, nn_tensor *v)
{
    if (v->storage != t->storage || v->dtype != t->dtype)
        return nn_error_set(NN_ERR_RUNTIME, "in-place view: the result is not a view of the tensor");
    if (nn_check_inplace(t) < 0) return -1;
    t->ndim = v->ndim;
    t->offset = v->offset;
    memcpy(t->sizes, v->sizes, sizeof t->sizes);
    memcpy(t->strides, v->strides, sizeof t->strides);
    if (v->grad_fn) { /* the view op's node, with t's old history behind it */
        NN_SET(t->grad_fn, (nn_node *)nn_retain((nn_object *)v->grad_fn));
        t->output_nr = v->output_nr;
        t->requires_grad = true;
    }
    return 0;
}

int nn_detach_(nn_tensor *t)
{
    NN_SET(t->grad_fn, NULL);
    t->output_nr = 0;
    t->requires_grad = false;
    return 0;
}
