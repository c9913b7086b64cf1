/*
 * backend.c — the device registry behind core/backend.h, the same-device rule,
 * copies between devices, and the host-access contract of nn.h (nn_host_read,
 * nn_host_write): the one place outside kernels where a device's memory meets
 * the host's, always through the backend's to_host/from_host.
 */
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "nn_data.h"

const char *const nn_kernel_names[NN_KERNEL_COUNT] = {
#define KERNEL(name, params, args) #name,
#include "kernels.def"
#undef KERNEL
};

static const nn_backend *registered[NN_CUDA + 1];

void nn_backend_register(const nn_backend *b)
{
    if (b && b->type != NN_CPU) registered[b->type] = b;
}

#ifdef NN_HAVE_CUDA
#include "cuda/nn_cuda.h"
#endif

const nn_backend *nn_backend_for_type(nn_device_type type)
{
    if (type == NN_CPU) return &nn_cpu_backend;
#ifdef NN_HAVE_CUDA /* make CUDA=1: the CUDA backend registers itself on first use when there is a GPU */
    static bool cuda_tried;
    if (type == NN_CUDA && !cuda_tried) {
        cuda_tried = true;
        nn_cuda_register();
    }
#endif
    return (unsigned)type < sizeof registered / sizeof registered[0] ? registered[type] : NULL;
}

bool nn_device_available(nn_device_type type) { return nn_backend_for_type(type) != NULL; }

void nn_backend_unregister(nn_device_type type)
{
    if (type != NN_CPU && (unsigned)type < sizeof registered / sizeof registered[0]) registered[type] = NULL;
}

int nn_kernel_missing(const nn_backend *b, const char *kernel)
{
    return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "Could not run '%s' with arguments from the '%s' backend.", kernel,
                        b->name);
}

const char *nn_device_str(nn_device d, char *buf, size_t n)
{
    if (d.type == NN_CPU) snprintf(buf, n, "cpu");
    else snprintf(buf, n, "cuda:%d", d.index);
    return buf;
}

int nn_common_device(int n, nn_tensor *const *ts, nn_device *out)
{
    /* the first tensor that is not a 0-dim CPU tensor sets the device; 0-dim CPU
       tensors go anywhere by value (PyTorch's rule for CPU scalars) */
    const nn_tensor *first = NULL;
    for (int i = 0; i < n; i++) {
        const nn_tensor *t = ts[i];
        if (!t) continue;
        if (!first) first = t;
        if (t->ndim == 0 && t->storage->device.type == NN_CPU) continue;
        if (first->ndim == 0 && first->storage->device.type == NN_CPU) first = t;
        if (!nn_same_device(nn_device_of(t), nn_device_of(first))) {
            char a[32], b[32];
            return nn_error_set(NN_ERR_RUNTIME,
                                "Expected all tensors to be on the same device, but found at least two devices, %s and "
                                "%s!",
                                nn_device_str(nn_device_of(first), a, sizeof a), nn_device_str(nn_device_of(t), b, sizeof b));
        }
    }
    *out = first ? nn_device_of(first) : NN_DEVICE_CPU;
    return 0;
}

nn_tensor *nn_to_op_device(nn_tensor *t, nn_device d)
{
    if (!t || nn_same_device(nn_device_of(t), d)) return t;
    nn_tensor *r = NULL;
    NN_WITH_GRAD_MODE(false, r = nn_to_device(t, d));
    NN_RELEASE(t);
    return r;
}

int nn_same_device_all(int n, nn_tensor *const *ts)
{
    const nn_tensor *first = NULL;
    for (int i = 0; i < n; i++) {
        if (!ts[i]) continue;
        if (!first) first = ts[i];
        else if (!nn_same_device(nn_device_of(ts[i]), nn_device_of(first))) {
            char a[32], b[32];
            return nn_error_set(NN_ERR_RUNTIME,
                                "Expected all tensors to be on the same device, but found at least two devices, %s and "
                                "%s!",
                                nn_device_str(nn_device_of(first), a, sizeof a), nn_device_str(nn_device_of(ts[i]), b, sizeof b));
        }
    }
    return 0;
}

/* t's elements, row-major and contiguous, in a new CPU tensor (no autograd). */
static nn_tensor *host_contiguous(const nn_tensor *t)
{
    nn_tensor *out = nn_empty_on(NN_DEVICE_CPU, t->ndim, t->sizes, t->dtype);
    if (!out) return NULL;
    if (t->storage->device.type == NN_CPU) {
        if (nn_cpu_backend.copy(out, t) < 0) NN_SET(out, NULL);
        return out;
    }
    const nn_backend *b = nn_backend_of(t);
    nn_tensor *c = (nn_tensor *)t;
    if (!nn_is_contiguous(t)) { /* made contiguous on its own device first */
        c = nn_empty_like(t);
        if (!c || NN_KERNEL(b, copy, (c, t)) < 0) {
            NN_RELEASE(c);
            NN_RELEASE(out);
            return NULL;
        }
    } else {
        NN_RETAIN(c);
    }
    size_t nbytes = (size_t)nn_numel(t) * nn_dtype_size(t->dtype);
    if (b->to_host(nn_data_ptr(out), nn_data_ptr(c), nbytes) < 0) NN_SET(out, NULL);
    NN_RELEASE(c);
    return out;
}

int nn_copy_across_devices(nn_tensor *dst, const nn_tensor *src)
{
    nn_tensor *hs = host_contiguous(src);
    if (!hs) return -1;
    nn_tensor view;
    nn_broadcast_into(hs, dst->ndim, dst->sizes, &view);
    int rc;
    if (dst->storage->device.type == NN_CPU) {
        rc = nn_cpu_backend.copy(dst, &view);
    } else {
        /* converted and laid out on the host, then one transfer (and a device copy when dst is strided) */
        const nn_backend *b = nn_backend_of(dst);
        nn_tensor *tmp = nn_empty_on(NN_DEVICE_CPU, dst->ndim, dst->sizes, dst->dtype);
        nn_tensor *dev = tmp && !nn_is_contiguous(dst) ? nn_empty_like(dst) : NULL;
        nn_tensor *target = nn_is_contiguous(dst) ? dst : dev;
        rc = tmp && target ? nn_cpu_backend.copy(tmp, &view) : -1;
        if (rc == 0) rc = b->from_host(nn_data_ptr(target), nn_data_ptr(tmp), (size_t)nn_numel(dst) * nn_dtype_size(dst->dtype));
        if (rc == 0 && dev) rc = NN_KERNEL(b, copy, (dst, dev));
        NN_RELEASE(tmp);
        NN_RELEASE(dev);
    }
    NN_RELEASE(hs);
    return rc;
}

nn_tensor *nn_to_device(nn_tensor *t, nn_device device)
{
    if (nn_same_device(nn_device_of(t), device)) {
        NN_RETAIN(t);
        return t;
    }
    if (!nn_backend_for_type(device.type)) {
        nn_error_set(NN_ERR_RUNTIME, "no backend is registered for this device");
        return NULL;
    }
    nn_tensor *out = nn_empty_on(device, t->ndim, t->sizes, t->dtype);
    if (out && nn_copy_across_devices(out, t) < 0) NN_SET(out, NULL);
    if (!out) return NULL;
    /* differentiable, as PyTorch's to(device): the gradient goes back to t's device */
    nn_op_params p = {.flags = 1, .n_i = 2};
    p.i[0] = t->storage->device.type;
    p.i[1] = t->storage->device.index;
    if (nn_record(NN_OP_to_copy, 1, &t, 1, &out, 0, NULL, &p) < 0) NN_SET(out, NULL);
    return out;
}

const void *nn_host_read(const nn_tensor *t, nn_tensor **hold)
{
    *hold = NULL;
    if (t->storage->device.type == NN_CPU && nn_is_contiguous(t)) return nn_data_ptr(t);
    *hold = host_contiguous(t);
    return *hold ? nn_data_ptr(*hold) : NULL;
}

const void *nn_host_read_storage(const nn_tensor *t, void **owned)
{
    const nn_storage *s = t->storage;
    *owned = NULL;
    if (s->device.type == NN_CPU) return s->data;
    void *copy = nn_malloc(s->nbytes ? s->nbytes : 1);
    if (!copy) return NULL;
    if (s->nbytes && nn_backend_of(t)->to_host(copy, s->data, s->nbytes) < 0) {
        nn_free(copy);
        return NULL;
    }
    *owned = copy;
    return copy;
}

void *nn_host_borrow(nn_tensor *t)
{
    if (t->storage->device.type == NN_CPU) return nn_data_ptr(t);
    char d[32];
    nn_error_set(NN_ERR_RUNTIME, "expected a tensor in host memory (on the CPU), got one on %s",
                 nn_device_str(t->storage->device, d, sizeof d));
    return NULL;
}

uintptr_t nn_data_address(const nn_tensor *t)
{
    if (!t->storage->nbytes) return 0; /* PyTorch's data_ptr() of an empty storage */
    return (uintptr_t)t->storage->data + (uintptr_t)t->offset * nn_dtype_size(t->dtype);
}

const char *nn_host_element(const nn_tensor *t, const int64_t *index, char buf[8])
{
    int64_t off = t->offset;
    for (int d = 0; d < t->ndim; d++) off += index[d] * t->strides[d];
    const char *p = (const char *)t->storage->data + off * (int64_t)nn_dtype_size(t->dtype);
    if (t->storage->device.type == NN_CPU) return p;
    memset(buf, 0, 8);
    if (nn_backend_of(t)->to_host(buf, p, nn_dtype_size(t->dtype)) < 0) nn_error_clear();
    return buf;
}

int nn_host_write(nn_tensor *t, const void *data)
{
    size_t nbytes = (size_t)nn_numel(t) * nn_dtype_size(t->dtype);
    if (nn_is_contiguous(t)) return nn_backend_of(t)->from_host(nn_data_ptr(t), data, nbytes);
    nn_tensor *tmp = nn_empty_on(NN_DEVICE_CPU, t->ndim, t->sizes, t->dtype);
    if (tmp && nbytes) memcpy(nn_data_ptr(tmp), data, nbytes);
    int rc = tmp ? nn_copy_across_devices(t, tmp) : -1;
    NN_RELEASE(tmp);
    return rc;
}
