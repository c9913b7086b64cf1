/*
 * storage_view.c — what the language's storages (repl/mod_torch_storage.c:
 * x.storage(), torch.FloatStorage, x.set_(storage)) need from core: views of a
 * tensor's whole storage. (Their data_ptr() is core/backend.c's nn_data_address.)
 */
#include "nn_int.h"

nn_tensor *nn_storage_view_as(nn_tensor *t, int ndim, const int64_t *sizes, const int64_t *strides, int64_t offset)
{
    size_t item = nn_dtype_size(t->dtype);
    int64_t need = offset + 1, numel = 1; /* elements the view reaches */
    for (int d = 0; d < ndim; d++) {
        if (sizes[d] < 0 || strides[d] < 0)
            return nn_error_set(NN_ERR_RUNTIME, "setStorage: negative sizes and strides are not supported"), NULL;
        numel *= sizes[d];
        need += (sizes[d] - 1) * strides[d];
    }
    if (offset < 0) return nn_error_set(NN_ERR_RUNTIME, "Tensor: invalid storage offset %lld", (long long)offset), NULL;
    if (numel > 0 && (uint64_t)need * item > t->storage->nbytes) {
        char s1[128], s2[128];
        return nn_error_set(NN_ERR_RUNTIME,
                            "setStorage: sizes %s, strides %s, storage offset %lld, and itemsize %zu requiring a "
                            "storage size of %lld are out of bounds for storage of size %zu",
                            nn_shape_str(ndim, sizes, s1, sizeof s1), nn_shape_str(ndim, strides, s2, sizeof s2),
                            (long long)offset, item, (long long)need * (long long)item, t->storage->nbytes),
               NULL;
    }
    nn_tensor *d = nn_detach(t), *v = d ? nn_tensor_new_view(d, ndim, sizes, strides, offset) : NULL;
    NN_RELEASE(d);
    return v;
}

nn_tensor *nn_storage_view(nn_tensor *t)
{
    int64_t n = (int64_t)(t->storage->nbytes / nn_dtype_size(t->dtype)), one = 1;
    return nn_storage_view_as(t, 1, &n, &one, 0);
}
