/*
 * view_inplace.c — the in-place forms of the view ops (t.unsqueeze_(0),
 * t.squeeze_(), t.t_(), t.transpose_(0, 1)) and t.detach_(): the tensor object
 * itself changes its shape and strides, or drops its history, so that every
 * name bound to it sees the change, as in PyTorch. The view is made by the
 * out-of-place op first (its checks and errors are the op's), then t takes it.
 * nn_take_result_: the same for an op's values and history (x.exp_() where only
 * the out-of-place op exists).
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

nn_tensor *nn_inplace_source(nn_tensor *t)
{
    nn_tensor *c = NULL;
    NN_WITH_GRAD_MODE(false, c = nn_clone(t));
    if (c && t->grad_fn) { /* the op's edge leads to t's node, as PyTorch's in-place op's does */
        c->grad_fn = (nn_node *)nn_retain((nn_object *)t->grad_fn);
        c->output_nr = t->output_nr;
    }
    if (c) c->requires_grad = t->requires_grad;
    return c;
}

int nn_take_result_(nn_tensor *t, nn_tensor *r)
{
    if (t->base) return nn_error_set(NN_ERR_RUNTIME, "in-place result: t is a view");
    if (nn_check_inplace(t) < 0) return -1;
    int rc;
    NN_WITH_GRAD_MODE(false, rc = nn_copy_(t, r));
    if (rc < 0 || !r->grad_fn) return rc;
    NN_SET(t->grad_fn, (nn_node *)nn_retain((nn_object *)r->grad_fn));
    t->output_nr = r->output_nr;
    t->requires_grad = true;
    return 0;
}
