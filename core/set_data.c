/*
 * set_data.c — `t.data = src` (PyTorch's Tensor.set_data): t takes src's
 * storage, offset, shape, strides and dtype, keeping its own autograd state
 * (requires_grad, grad, hooks). Nothing is recorded and no version is bumped,
 * as in PyTorch: `p.data = w` swaps a parameter's values behind autograd's back.
 */
#include <string.h>

#include "nn_int.h"

int nn_set_data(nn_tensor *t, nn_tensor *src)
{
    if (t == src) return 0;
    if (t->requires_grad && !nn_dtype_is_floating(src->dtype))
        return nn_error_set(NN_ERR_RUNTIME, "data set to a tensor that requires gradients must be floating point or complex dtype");
    nn_tensor_take_data(t, src);
    return 0;
}

void nn_tensor_take_data(nn_tensor *t, nn_tensor *src)
{
    src->storage->refcount++;
    nn_storage_release(t->storage);
    t->storage = src->storage;
    t->offset = src->offset;
    t->ndim = src->ndim;
    t->dtype = src->dtype;
    memcpy(t->sizes, src->sizes, sizeof t->sizes);
    memcpy(t->strides, src->strides, sizeof t->strides);
}
