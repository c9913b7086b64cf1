/*
 * storage_view.c — what the language's storages (repl/mod_torch_storage.c:
 * x.storage(), torch.FloatStorage, x.set_(storage)) need from core: views of a
 * tensor's whole storage (in its dtype or another), resize_, from_file's mappings
 * and share_memory_. (Their data_ptr() is core/backend.c's nn_data_address.)
 * Storage code: it may replace a storage's memory (storage_repoint), on any device
 * (a CUDA storage resizes as a CPU one does in PyTorch).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend.h"
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

nn_tensor *nn_storage_view_dtype(nn_tensor *t, nn_dtype dt)
{
    int64_t n = (int64_t)(t->storage->nbytes / nn_dtype_size(dt)), one = 1;
    nn_tensor *d = nn_detach(t), *v = d ? nn_tensor_new_view(d, 1, &n, &one, 0) : NULL;
    NN_RELEASE(d);
    if (v) v->dtype = dt;
    return v;
}

/* The RuntimeError of a view(dtype) that the layout does not allow: "what to view
   Float as Double (different element sizes)[, but got got]". */
static nn_tensor *view_dtype_error(const char *what, const nn_tensor *t, nn_dtype dt, bool with_got, int64_t got)
{
    char tail[48] = "";
    if (with_got) snprintf(tail, sizeof tail, ", but got %lld", (long long)got);
    nn_error_set(NN_ERR_RUNTIME, "%s to view %s as %s (different element sizes)%s", what,
                 nn_dtype_scalar_name(t->dtype), nn_dtype_scalar_name(dt), tail);
    return NULL;
}

nn_tensor *nn_view_dtype(nn_tensor *t, nn_dtype dt)
{
    int64_t from = (int64_t)nn_dtype_size(t->dtype), to = (int64_t)nn_dtype_size(dt), last = t->ndim - 1;
    int64_t sizes[NN_MAX_DIMS], strides[NN_MAX_DIMS], offset = t->offset;
    for (int d = 0; d < t->ndim; d++) sizes[d] = t->sizes[d], strides[d] = t->strides[d];
    char what[64];
    if (from != to && t->ndim == 0) return view_dtype_error("self.dim() cannot be 0", t, dt, false, 0);
    if (from > to) {
        /* each element becomes several: the last dim stretches, the others' strides scale */
        int64_t ratio = from / to;
        if (strides[last] != 1) return view_dtype_error("self.stride(-1) must be 1", t, dt, true, strides[last]);
        for (int d = 0; d < last; d++) strides[d] *= ratio;
        sizes[last] *= ratio;
        offset *= ratio;
    } else if (from < to) {
        /* several elements become one: the last dim, the offset and every stride must divide */
        int64_t ratio = to / from;
        snprintf(what, sizeof what, "self.size(-1) must be divisible by %lld", (long long)ratio);
        if (sizes[last] % ratio) return view_dtype_error(what, t, dt, true, sizes[last]);
        snprintf(what, sizeof what, "self.storage_offset() must be divisible by %lld", (long long)ratio);
        if (offset % ratio) return view_dtype_error(what, t, dt, true, offset);
        if (strides[last] != 1) return view_dtype_error("self.stride(-1) must be 1", t, dt, true, strides[last]);
        for (int d = 0; d < last; d++) {
            snprintf(what, sizeof what, "self.stride(%d) must be divisible by %lld", d, (long long)ratio);
            if (strides[d] % ratio) return view_dtype_error(what, t, dt, true, strides[d]);
            strides[d] /= ratio;
        }
        sizes[last] /= ratio;
        offset /= ratio;
    }
    nn_tensor *d = nn_detach(t), *v = d ? nn_tensor_new_view(d, t->ndim, sizes, strides, offset) : NULL;
    NN_RELEASE(d);
    if (v) v->dtype = dt;
    return v;
}

/* The storage that owns the memory s uses: its owner's (an alias's) replacement,
   or that owner itself. */
static const nn_storage *memory_of(const nn_storage *s)
{
    const nn_storage *root = nn_storage_root(s);
    return root->held ? root->held : root;
}

bool nn_storage_is_shared(const nn_tensor *t) { return memory_of(t->storage)->mapped; }

/* t's storage takes fresh's memory, as PyTorch replaces a StorageImpl's data: its
   owner (the storage itself, or the one a tensor.data alias shares) holds fresh's
   storage from now on, and the owner and every alias of it point at that memory,
   so that every tensor over any of them sees it. The owner's first memory goes
   now when it is a device block; a CPU storage's stays in its header's block. */
static void storage_repoint(nn_storage *s, nn_tensor *fresh)
{
    nn_storage *owner = s->owner ? s->owner : s, *ns = fresh->storage;
    ns->refcount++;
    if (owner->held) nn_storage_release(owner->held);
    else if (owner->device.type != NN_CPU) nn_backend_for_type(owner->device.type)->free(owner->data, owner->nbytes);
    owner->held = ns;
    for (nn_storage *a = owner; a; a = a->alias_link) {
        a->data = ns->data;
        a->nbytes = ns->nbytes;
        a->version++;
    }
}

/* Copies the first nbytes of src's storage into dst's (both flat uint8 views). */
static int copy_prefix(nn_tensor *dst, nn_tensor *src, int64_t nbytes)
{
    if (nbytes <= 0) return 0;
    int64_t one = 1;
    nn_tensor *a = nn_tensor_new_view(dst, 1, &nbytes, &one, 0), *b = a ? nn_tensor_new_view(src, 1, &nbytes, &one, 0) : NULL;
    int rc = -1;
    if (b) NN_WITH_GRAD_MODE(false, rc = nn_copy_(a, b));
    NN_RELEASE(a);
    NN_RELEASE(b);
    return rc;
}

int nn_storage_resize(nn_tensor *t, int64_t nbytes)
{
    nn_storage *s = t->storage;
    if (nbytes < 0)
        return nn_error_set(NN_ERR_RUNTIME,
                            "[enforce fail at alloc_cpu.cpp:52] ((ptrdiff_t)nbytes) >= 0. alloc_cpu() seems to have "
                            "been called with negative number: %llu",
                            (unsigned long long)nbytes);
    if (memory_of(s)->mapped || memory_of(s)->give_back)
        return nn_error_set(NN_ERR_RUNTIME, "Trying to resize storage that is not resizable");
    nn_tensor *fresh = nn_zeros_on(s->device, 1, &nbytes, NN_UINT8), *old = fresh ? nn_storage_view_dtype(t, NN_UINT8) : NULL;
    int rc = old ? copy_prefix(fresh, old, (int64_t)s->nbytes < nbytes ? (int64_t)s->nbytes : nbytes) : -1;
    if (rc == 0) {
        storage_repoint(s, fresh);
        nn_storage_view_refit(t);
    }
    NN_RELEASE(fresh);
    NN_RELEASE(old);
    return rc;
}

void nn_storage_view_refit(nn_tensor *t)
{
    if (t->ndim == 1 && t->offset == 0 && t->strides[0] == 1)
        t->sizes[0] = (int64_t)(t->storage->nbytes / nn_dtype_size(t->dtype));
}

nn_tensor *nn_storage_from_file(const char *path, bool shared, int64_t nbytes, nn_dtype dt)
{
    int fd = open(path, shared ? O_RDWR | O_CREAT : O_RDONLY, 0600);
    if (fd < 0) {
        int e = errno;
        return nn_error_set(NN_ERR_RUNTIME, "unable to open file <%s> in %s mode: %s (%d)", path,
                            shared ? "read-write" : "read-only", strerror(e), e),
               NULL;
    }
    struct stat st;
    const char *fail = NULL;
    int e = 0;
    if (nbytes < 0) {
        fail = "mmap", e = ENOMEM;
    } else if (fstat(fd, &st) < 0) {
        fail = "stat", e = errno;
    } else if (st.st_size < nbytes) {
        if (!shared) {
            close(fd);
            return nn_error_set(NN_ERR_RUNTIME, "file <%s> size is smaller than the required mapping size <%lld>", path,
                                (long long)nbytes),
                   NULL;
        }
        if (ftruncate(fd, nbytes) < 0) fail = "resize", e = errno; /* the file grows to the mapping */
    }
    void *data = MAP_FAILED;
    if (!fail) { /* a zero-byte storage maps one anonymous page: mmap refuses a length of 0 */
        data = nbytes ? mmap(NULL, (size_t)nbytes, PROT_READ | PROT_WRITE, shared ? MAP_SHARED : MAP_PRIVATE, fd, 0)
                      : mmap(NULL, 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (data == MAP_FAILED) fail = "mmap", e = errno;
    }
    close(fd);
    if (fail)
        return nn_error_set(NN_ERR_RUNTIME, "unable to %s %lld bytes from file <%s>: %s (%d)", fail, (long long)nbytes,
                            path, strerror(e), e),
               NULL;
    return nn_tensor_over_mapping(data, (size_t)nbytes, dt);
}

int nn_storage_sync(const nn_tensor *t)
{
    const nn_storage *s = nn_storage_root(t->storage);
    if (!s->mapped || !s->nbytes || msync(s->data, s->nbytes, MS_SYNC) == 0) return 0;
    return nn_error_set(NN_ERR_RUNTIME, "unable to sync a mapping of %zu bytes: %s", s->nbytes, strerror(errno));
}

int nn_storage_share(nn_tensor *t)
{
    nn_storage *s = t->storage;
    if (memory_of(s)->mapped || s->device.type != NN_CPU) return 0;
    size_t n = s->nbytes;
    void *data = mmap(NULL, n ? n : 1, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (data == MAP_FAILED)
        return nn_error_set(NN_ERR_RUNTIME, "unable to move a storage of %zu bytes to shared memory: %s", n,
                            strerror(errno));
    if (n) memcpy(data, s->data, n); /* the CPU storage code: host memory on both sides */
    nn_tensor *fresh = nn_tensor_over_mapping(data, n, NN_UINT8);
    if (!fresh) return -1;
    storage_repoint(s, fresh);
    NN_RELEASE(fresh);
    return 0;
}
