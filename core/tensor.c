/*
 * tensor.c — storages and tensor headers, factories, fills, copies and
 * element access. Views live in view.c, printing in print.c.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "backend.h"

/* ---------------------------------------------------------------- storage */

/* The header and the data share one allocation. The data starts at the first
   64-byte boundary after the header, as PyTorch's CPU allocator aligns it
   (c10's gAlignment): malloc only promises 16, and a 32-byte vector load
   from 16 bytes past a cache line straddles two lines every other time
   (a whole-tensor sum read 10% slower). */
#define STORAGE_HEADER 128 /* a multiple of STORAGE_ALIGN that holds an nn_storage */
#define STORAGE_ALIGN 64

/* Storages of HUGE_MIN_BYTES or more start on a 2 MiB boundary instead, and ask
   the kernel for transparent huge pages over their whole 2 MiB pieces
   (MADV_HUGEPAGE: Debian's default THP setting, "madvise", gives them only where
   asked). A kernel streaming over megabytes then walks 2 MiB pages: fewer TLB
   misses, and the hardware prefetcher no longer stops at every 4 KiB page (x + y
   of two 1M float32 tensors, fastest of 300 rounds: 0.155 -> 0.138 ms). Only the
   address space grows (by up to 2 MiB, never touched); the bytes are the same. */
#define HUGE_PAGE_BYTES ((size_t)2 << 20)
#define HUGE_MIN_BYTES HUGE_PAGE_BYTES

/* Their data starts some cache lines past that boundary, a "color" that moves
   by 19 lines (of the 64 in a 4 KiB page) from one new storage to the next.
   An elementwise kernel stores its output while it loads its inputs ahead;
   when the streams sit at the same offset in their pages, a load looks as if
   it read a pending store (the CPU compares the low 12 address bits: "4K
   aliasing") and waits for it. Storages made one after another (an op's
   inputs, then its output) now sit 19, 38, ... lines apart: x + y of two 1M
   float32 (bench_core's add, fastest of 300 rounds of 10, alternating with the
   aligned build): 0.172 -> 0.161-0.163 ms. PyTorch's malloc'd blocks differ by
   chance. */
#define COLOR_STEP (19 * STORAGE_ALIGN)
#define COLOR_SPAN ((size_t)4096)

static size_t next_color(void)
{
    static _Atomic unsigned counter;
    return (size_t)counter++ * COLOR_STEP % COLOR_SPAN;
}

static size_t physical_memory(void)
{
    static size_t cached;
    if (!cached) {
        long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
        cached = pages > 0 && page > 0 ? (size_t)pages * (size_t)page : (size_t)1 << 40;
    }
    return cached;
}

/* Large storages freed in a training loop come back at the same sizes on the
   next step; handing the memory back to the OS and faulting it in again costs
   more than the arithmetic. So freed blocks of at least CACHE_MIN_BYTES are kept
   (up to CACHE_MAX_BYTES in all) and reused for an exact size match. */
#define CACHE_MIN_BYTES ((size_t)64 << 10)
#define CACHE_MAX_BYTES ((size_t)256 << 20)
#define CACHE_SLOTS 64

static struct {
    nn_storage *blocks[CACHE_SLOTS];
    size_t n, bytes;
} cache;

static nn_storage *cache_take(size_t nbytes)
{
    for (size_t i = cache.n; i-- > 0;) {
        nn_storage *s = cache.blocks[i];
        if (s->nbytes != nbytes) continue;
        cache.blocks[i] = cache.blocks[--cache.n];
        cache.bytes -= nbytes;
        return s;
    }
    return NULL;
}

static bool cache_put(nn_storage *s)
{
    if (s->nbytes < CACHE_MIN_BYTES || s->nbytes > CACHE_MAX_BYTES / 4) return false;
    /* make room by dropping the oldest blocks */
    while (cache.n && (cache.n == CACHE_SLOTS || cache.bytes + s->nbytes > CACHE_MAX_BYTES)) {
        nn_storage *old = cache.blocks[0];
        cache.bytes -= old->nbytes;
        memmove(cache.blocks, cache.blocks + 1, --cache.n * sizeof cache.blocks[0]);
        nn_free(old);
    }
    cache.blocks[cache.n++] = s;
    cache.bytes += s->nbytes;
    return true;
}

void nn_storage_cache_flush(void)
{
    while (cache.n) nn_free(cache.blocks[--cache.n]);
    cache.bytes = 0;
}

_Static_assert(sizeof(nn_storage) <= STORAGE_HEADER, "the storage header must fit before its data");

static nn_storage *storage_new(size_t nbytes)
{
    if (nbytes > physical_memory()) {
        /* PyTorch's text for a size the machine cannot hold, bracket part included (its
           Linux allocator's words), so scripts print and catch what PyTorch gives */
        nn_error_set(NN_ERR_RUNTIME,
                     "[enforce fail at alloc_cpu.cpp:75] err == 0. DefaultCPUAllocator: can't allocate memory: you "
                     "tried to allocate %zu bytes. Error code 12 (Cannot allocate memory)",
                     nbytes);
        return NULL;
    }
    nn_storage *s = nbytes >= CACHE_MIN_BYTES ? cache_take(nbytes) : NULL;
    bool fresh = !s;
    bool huge = nbytes >= HUGE_MIN_BYTES;
    size_t align = huge ? HUGE_PAGE_BYTES : STORAGE_ALIGN;
    if (!s) s = nn_malloc(STORAGE_HEADER + align + (huge ? COLOR_SPAN : 0) + nbytes);
    if (!s) {
        nn_error_set(NN_ERR_MEMORY, "DefaultCPUAllocator: not enough memory: you tried to allocate %zu bytes.",
                     nbytes);
        return NULL;
    }
    s->refcount = 1;
    if (fresh) { /* a cached block keeps its data where it was */
        char *base = (char *)s + STORAGE_HEADER + (-((uintptr_t)s + STORAGE_HEADER) & (align - 1));
        size_t color = huge ? next_color() : 0;
        s->data = base + color;
#ifdef MADV_HUGEPAGE
        /* a hint: where the kernel refuses it (THP "never"), the pages stay 4 KiB */
        if (huge) (void)madvise(base, (color + nbytes) & ~(HUGE_PAGE_BYTES - 1), MADV_HUGEPAGE);
#endif
    }
    s->nbytes = nbytes;
    s->device = NN_DEVICE_CPU;
    s->version = 0;
    s->owner = s->alias_link = s->held = NULL;
    s->mapped = false;
    s->give_back = NULL;
    s->lender = NULL;
    s->inference = nn_inference_mode();
    return s;
}

nn_storage *nn_storage_new_on(nn_device device, size_t nbytes)
{
    if (device.type == NN_CPU) return storage_new(nbytes);
    const nn_backend *b = nn_backend_for_type(device.type);
    if (!b) {
        nn_error_set(NN_ERR_RUNTIME, "no backend is registered for this device");
        return NULL;
    }
    nn_storage *s = nn_malloc(sizeof *s);
    if (!s) return NULL;
    /* an empty storage gets a block too: its data is never NULL (NULL + 0 is undefined in C) */
    s->data = b->alloc(nbytes);
    if (!s->data) {
        nn_free(s);
        return NULL;
    }
    s->refcount = 1;
    s->nbytes = nbytes;
    s->device = device;
    s->version = 0;
    s->owner = s->alias_link = s->held = NULL;
    s->mapped = false;
    s->give_back = NULL;
    s->lender = NULL;
    s->inference = nn_inference_mode();
    return s;
}

void nn_storage_release(nn_storage *s)
{
    if (!s || --s->refcount != 0) return;
    if (s->owner) { /* an alias: the memory is its owner's */
        nn_storage **p = &s->owner->alias_link;
        while (*p != s) p = &(*p)->alias_link;
        *p = s->alias_link;
        nn_storage_release(s->owner);
        nn_free(s);
    } else if (s->held) { /* its memory replaced: that memory's storage goes, then the header (and own block) */
        nn_storage_release(s->held);
        nn_free(s);
    } else if (s->give_back) { /* lent memory: given back */
        s->give_back(s->lender);
        nn_free(s);
    } else if (s->mapped) { /* header and mapping apart */
        munmap(s->data, s->nbytes ? s->nbytes : 1);
        nn_free(s);
    } else if (s->device.type != NN_CPU) { /* header and device memory apart */
        if (s->data) nn_backend_for_type(s->device.type)->free(s->data, s->nbytes);
        nn_free(s);
    } else if (!cache_put(s)) {
        nn_free(s);
    }
}

/* ------------------------------------------------------------ tensor type */

static void tensor_dealloc(nn_object *self)
{
    nn_tensor *t = NN_TENSOR(self);
    if (t->retains_grad && t->grad_fn && t->grad_fn->retained) t->grad_fn->retained[t->output_nr] = NULL;
    nn_storage_release(t->storage);
    NN_RELEASE(t->grad);
    NN_RELEASE(t->grad_fn);
    NN_RELEASE(t->base);
    if (t->hooks) {
        for (nn_hook *h = t->hooks->first, *next; h; h = next) {
            next = h->next;
            NN_RELEASE(h->fn);
            nn_free(h);
        }
        nn_free(t->hooks);
    }
    nn_free(t);
}

static char *tensor_repr(nn_object *self) { return nn_tensor_repr(NN_TENSOR(self)); }

const nn_type nn_tensor_type = {.name = "Tensor", .dealloc = tensor_dealloc, .repr = tensor_repr};
const nn_type nn_parameter_type = {
    .name = "Parameter", .dealloc = tensor_dealloc, .repr = tensor_repr, .base = &nn_tensor_type};

static nn_tensor *header_new(nn_storage *storage, int ndim, nn_dtype dtype)
{
    nn_tensor *t = nn_malloc(sizeof *t);
    if (!t) return NULL;
    nn_object_init(&t->ob, &nn_tensor_type);
    t->storage = storage;
    t->offset = 0;
    t->ndim = ndim;
    t->dtype = dtype;
    t->requires_grad = false;
    t->retains_grad = false;
    t->is_wrapped_number = false;
    t->output_nr = 0;
    t->grad = NULL;
    t->grad_fn = NULL;
    t->hooks = NULL;
    t->base = NULL;
    t->multi_output_view = false;
    return t;
}

void nn_contiguous_strides(int ndim, const int64_t *sizes, int64_t *strides)
{
    uint64_t s = 1; /* wraps as PyTorch's when a size-0 tensor has huge dims: (0, 2**62, 2**62) */
    for (int d = ndim - 1; d >= 0; d--) {
        strides[d] = (int64_t)s;
        s *= sizes[d] > 1 ? (uint64_t)sizes[d] : 1;
    }
}

const char *nn_shape_str(int ndim, const int64_t *sizes, char *buf, size_t n)
{
    size_t len = (size_t)snprintf(buf, n, "[");
    for (int d = 0; d < ndim && len < n; d++)
        len += (size_t)snprintf(buf + len, n - len, "%s%lld", d ? ", " : "", (long long)sizes[d]);
    if (len < n) snprintf(buf + len, n - len, "]");
    return buf;
}

/* The device the factories without a device allocate on (torch.set_default_device's
   state in PyTorch 2): the CPU unless a test reruns everything on another device. */
static nn_device default_device = {NN_CPU, 0};

void nn_set_default_device(nn_device d) { default_device = d; }
nn_device nn_default_device(void) { return default_device; }

int nn_check_new_sizes(int ndim, const int64_t *sizes, nn_dtype dtype, int64_t *nbytes_out)
{
    /* PyTorch's storage size check: the sizes' product left to right in 64 unsigned
       bits, an overflow on the way counting even when a later 0 makes it 0
       ((2**62, 2**62, 0) fails, (2**62, 0) does not), then the bytes, within int64 */
    uint64_t numel = 1, nbytes;
    bool overflow = false;
    char buf[256];
    for (int d = 0; d < ndim; d++) {
        if (sizes[d] < 0)
            return nn_error_set(NN_ERR_RUNTIME, "Trying to create tensor with negative dimension %lld: %s",
                                (long long)sizes[d], nn_shape_str(ndim, sizes, buf, sizeof buf));
        overflow |= __builtin_mul_overflow(numel, (uint64_t)sizes[d], &numel);
    }
    overflow |= __builtin_mul_overflow(numel, (uint64_t)nn_dtype_size(dtype), &nbytes) || nbytes > INT64_MAX;
    if (overflow)
        return nn_error_set(NN_ERR_RUNTIME, "Storage size calculation overflowed with sizes=%s",
                            nn_shape_str(ndim, sizes, buf, sizeof buf));
    if (nbytes_out) *nbytes_out = (int64_t)nbytes;
    return 0;
}

nn_tensor *nn_empty(int ndim, const int64_t *sizes, nn_dtype dtype) { return nn_empty_on(default_device, ndim, sizes, dtype); }

nn_tensor *nn_empty_on(nn_device device, int ndim, const int64_t *sizes, nn_dtype dtype)
{
    if (ndim < 0 || ndim > NN_MAX_DIMS) {
        nn_error_set(NN_ERR_RUNTIME, "tensors have at most %d dimensions, got %d", NN_MAX_DIMS, ndim);
        return NULL;
    }
    int64_t nbytes = 0;
    if (nn_check_new_sizes(ndim, sizes, dtype, &nbytes) < 0) return NULL;
    nn_storage *s = nn_storage_new_on(device, (size_t)nbytes);
    if (!s) return NULL;
    nn_tensor *t = header_new(s, ndim, dtype);
    if (!t) {
        nn_storage_release(s);
        return NULL;
    }
    for (int d = 0; d < ndim; d++) t->sizes[d] = sizes[d];
    nn_contiguous_strides(ndim, sizes, t->strides);
    return t;
}

nn_tensor *nn_tensor_new_view(nn_tensor *src, int ndim, const int64_t *sizes, const int64_t *strides,
                              int64_t offset)
{
    /* PyTorch's numel check (expand(2**62, 4) fails): the sizes' product left to right
       in 64 unsigned bits, an overflow on the way counting, the result within int64 */
    uint64_t numel = 1;
    bool overflow = false;
    for (int d = 0; d < ndim; d++) overflow |= __builtin_mul_overflow(numel, (uint64_t)sizes[d], &numel);
    if (overflow || numel > INT64_MAX) {
        nn_error_set(NN_ERR_RUNTIME, "numel: integer multiplication overflow");
        return NULL;
    }
    nn_tensor *t = header_new(src->storage, ndim, src->dtype);
    if (!t) return NULL;
    src->storage->refcount++;
    t->offset = offset;
    t->multi_output_view = src->multi_output_view;
    for (int d = 0; d < ndim; d++) {
        t->sizes[d] = sizes[d];
        t->strides[d] = strides[d];
    }
    return t;
}

int64_t nn_numel(const nn_tensor *t)
{
    int64_t n = 1;
    for (int d = 0; d < t->ndim; d++) n = nn_wrapping_mul(n, t->sizes[d]);
    return n;
}

bool nn_is_contiguous(const nn_tensor *t)
{
    if (nn_numel(t) == 0) return true; /* as PyTorch: no elements, no layout */
    int64_t expected = 1;
    for (int d = t->ndim - 1; d >= 0; d--) {
        if (t->sizes[d] == 1) continue;
        if (t->strides[d] != expected) return false;
        expected *= t->sizes[d];
    }
    return true;
}

bool nn_is_leaf(const nn_tensor *t) { return t->grad_fn == NULL; }

nn_tensor *nn_grad(const nn_tensor *t)
{
    NN_RETAIN(t->grad);
    return t->grad;
}

int nn_wrap_dim(int dim, int ndim, int *out)
{
    int n = ndim > 0 ? ndim : 1;
    if (dim < -n || dim >= n)
        return nn_error_set(NN_ERR_INDEX, "Dimension out of range (expected to be in range of [%d, %d], but got %d)",
                            -n, n - 1, dim);
    *out = dim < 0 ? dim + n : dim;
    return 0;
}

/* -------------------------------------------------------------- iteration */

/* (nn_foreach, the host loop over CPU tensors: core/cpu/foreach.c) */

int nn_broadcast_shapes(int na, const int64_t *a, int nb, const int64_t *b, int *nout, int64_t *out)
{
    int n = na > nb ? na : nb;
    for (int i = n - 1; i >= 0; i--) { /* from the last dim, so a mismatch names the last one, as ATen */
        int ia = na - n + i, ib = nb - n + i;
        int64_t sa = ia >= 0 ? a[ia] : 1, sb = ib >= 0 ? b[ib] : 1;
        if (sa != sb && sa != 1 && sb != 1)
            return nn_error_set(NN_ERR_RUNTIME,
                                "The size of tensor a (%lld) must match the size of tensor b (%lld) at non-singleton "
                                "dimension %d",
                                (long long)sa, (long long)sb, i);
        out[i] = sa == 1 ? sb : sa;
    }
    *nout = n;
    return 0;
}

void nn_broadcast_into(const nn_tensor *t, int ndim, const int64_t *sizes, nn_tensor *view)
{
    *view = *t;
    view->ndim = ndim;
    for (int i = 0; i < ndim; i++) {
        int src = t->ndim - ndim + i;
        view->sizes[i] = sizes[i];
        view->strides[i] = src >= 0 && t->sizes[src] == sizes[i] ? t->strides[src] : 0;
    }
}

/* ---------------------------------------------------------- element access */

double nn_get_double(const nn_tensor *t, const int64_t *index)
{
    char buf[8];
    return nn_load_double(nn_host_element(t, index, buf), t->dtype);
}

int64_t nn_get_int64(const nn_tensor *t, const int64_t *index)
{
    char buf[8];
    return nn_load_int64(nn_host_element(t, index, buf), t->dtype);
}

int nn_item(const nn_tensor *t, double *out)
{
    int64_t n = nn_numel(t);
    if (n != 1)
        return nn_error_set(NN_ERR_RUNTIME, "a Tensor with %lld elements cannot be converted to Scalar", (long long)n);
    int64_t index[NN_MAX_DIMS] = {0};
    *out = nn_get_double(t, index);
    return 0;
}

void nn_to_doubles(const nn_tensor *t, double *out)
{
    nn_tensor *hold = NULL;
    int64_t n = nn_numel(t);
    /* the host contract: t's elements row-major in host memory */
    const char *p = n ? nn_host_read(t, &hold) : NULL;
    if (!p && n) nn_error_clear();
    size_t es = nn_dtype_size(t->dtype);
    for (int64_t i = 0; i < n; i++) out[i] = p ? nn_load_double(p + (size_t)i * es, t->dtype) : 0;
    NN_RELEASE(hold);
}

/* -------------------------------------------------------------- factories */

/* The factories without a device make their tensor on the default device: each
   is its _on form with nn_default_device(). */
nn_tensor *nn_zeros(int ndim, const int64_t *sizes, nn_dtype dtype) { return nn_zeros_on(default_device, ndim, sizes, dtype); }

nn_tensor *nn_zeros_on(nn_device device, int ndim, const int64_t *sizes, nn_dtype dtype)
{
    if (device.type != NN_CPU) return nn_full_on(device, ndim, sizes, 0, dtype);
    nn_tensor *t = nn_empty_on(device, ndim, sizes, dtype);
    if (t && nn_cpu_backend.fill(t, 0) < 0) NN_SET(t, NULL); /* the CPU's fill: a memset */
    return t;
}

nn_tensor *nn_full(int ndim, const int64_t *sizes, double value, nn_dtype dtype)
{
    return nn_full_on(default_device, ndim, sizes, value, dtype);
}

nn_tensor *nn_ones(int ndim, const int64_t *sizes, nn_dtype dtype) { return nn_full(ndim, sizes, 1.0, dtype); }
nn_tensor *nn_ones_on(nn_device device, int ndim, const int64_t *sizes, nn_dtype dtype)
{
    return nn_full_on(device, ndim, sizes, 1.0, dtype);
}
/* The _like factories keep t's device, as PyTorch's do. */
nn_tensor *nn_empty_like(const nn_tensor *t) { return nn_empty_on(nn_device_of(t), t->ndim, t->sizes, t->dtype); }
nn_tensor *nn_zeros_like(const nn_tensor *t) { return nn_full_like(t, 0.0); }
nn_tensor *nn_ones_like(const nn_tensor *t) { return nn_full_like(t, 1.0); }
nn_tensor *nn_full_like(const nn_tensor *t, double v) { return nn_full_on(nn_device_of(t), t->ndim, t->sizes, v, t->dtype); }

nn_tensor *nn_full_on(nn_device device, int ndim, const int64_t *sizes, double value, nn_dtype dtype)
{
    nn_tensor *t = nn_empty_on(device, ndim, sizes, dtype);
    if (t && nn_fill_(t, value) < 0) NN_SET(t, NULL);
    if (t) t->storage->version = 0;
    return t;
}

nn_tensor *nn_scalar(double v, nn_dtype dtype) { return nn_full_on(NN_DEVICE_CPU, 0, NULL, v, dtype); }

/* A 0-dim CPU tensor, as PyTorch wraps a Python number: it goes to any device by
   value (nn_common_device), so it mixes with CPU tensors whatever the default device. */
nn_tensor *nn_wrapped_number(double v, bool is_integer)
{
    nn_tensor *t = nn_full_on(NN_DEVICE_CPU, 0, NULL, v, is_integer ? NN_INT64 : NN_FLOAT64);
    if (t) t->is_wrapped_number = true;
    return t;
}

nn_tensor *nn_from_data(const void *data, int ndim, const int64_t *sizes, nn_dtype dtype)
{
    return nn_from_data_on(default_device, data, ndim, sizes, dtype);
}

nn_tensor *nn_from_data_on(nn_device device, const void *data, int ndim, const int64_t *sizes, nn_dtype dtype)
{
    nn_tensor *t = nn_empty_on(device, ndim, sizes, dtype);
    if (t && nn_host_write(t, data) < 0) NN_SET(t, NULL);
    return t;
}

nn_tensor *nn_arange(double start, double end, double step, bool is_integer, int dtype)
{
    return nn_arange_on(default_device, start, end, step, is_integer, dtype);
}

nn_tensor *nn_arange_on(nn_device device, double start, double end, double step, bool is_integer, int dtype)
{
    if (step == 0) {
        nn_error_set(NN_ERR_RUNTIME, "step must be nonzero");
        return NULL;
    }
    if (!isfinite(start) || !isfinite(end)) {
        nn_error_set(NN_ERR_RUNTIME, "unsupported range: %g -> %g", start, end);
        return NULL;
    }
    if ((step > 0 && end < start) || (step < 0 && end > start)) {
        nn_error_set(NN_ERR_RUNTIME, "upper bound and larger bound inconsistent with step sign");
        return NULL;
    }
    double n = ceil((end - start) / step);
    if (!(n >= 0 && n < 9223372036854775807.0)) { /* a step too small for the range: PyTorch's check */
        nn_error_set(NN_ERR_RUNTIME, "invalid size, possible overflow?");
        return NULL;
    }
    nn_dtype dt = dtype >= 0 ? (nn_dtype)dtype : is_integer ? NN_INT64 : nn_default_dtype();
    int64_t size = (int64_t)n;
    nn_tensor *t = nn_empty_on(device, 1, &size, dt);
    if (t && NN_KERNEL(nn_backend_of(t), arange, (t, start, step)) < 0) NN_SET(t, NULL);
    return t;
}

nn_tensor *nn_linspace(double start, double end, int64_t steps, nn_dtype dtype)
{
    return nn_linspace_on(default_device, start, end, steps, dtype);
}

nn_tensor *nn_linspace_on(nn_device device, double start, double end, int64_t steps, nn_dtype dtype)
{
    if (steps < 0) {
        nn_error_set(NN_ERR_RUNTIME, "number of steps must be non-negative");
        return NULL;
    }
    nn_tensor *t = nn_empty_on(device, 1, &steps, dtype);
    if (t && NN_KERNEL(nn_backend_of(t), linspace, (t, start, end)) < 0) NN_SET(t, NULL);
    return t;
}

nn_tensor *nn_logspace_on(nn_device device, double start, double end, int64_t steps, double base, nn_dtype dtype)
{
    if (steps < 0) {
        nn_error_set(NN_ERR_RUNTIME, "number of steps must be non-negative");
        return NULL;
    }
    nn_tensor *t = nn_empty_on(device, 1, &steps, dtype);
    if (t && NN_KERNEL(nn_backend_of(t), logspace, (t, start, end, base)) < 0) NN_SET(t, NULL);
    return t;
}

nn_tensor *nn_eye(int64_t n, int64_t m, nn_dtype dtype) { return nn_eye_on(default_device, n, m, dtype); }

nn_tensor *nn_eye_on(nn_device device, int64_t n, int64_t m, nn_dtype dtype)
{
    if (m < 0) m = n;
    if (n < 0 || m < 0) {
        nn_error_set(NN_ERR_RUNTIME, "n must be greater or equal to 0, got %lld", (long long)(n < 0 ? n : m));
        return NULL;
    }
    int64_t sizes[2] = {n, m};
    nn_tensor *t = nn_zeros_on(device, 2, sizes, dtype);
    if (!t) return NULL;
    /* the diagonal: a view of min(n, m) elements m + 1 apart, filled with 1 */
    nn_tensor diag = *t;
    diag.ndim = 1;
    diag.sizes[0] = n < m ? n : m;
    diag.strides[0] = m + 1;
    if (NN_KERNEL(nn_backend_of(t), fill, (&diag, 1.0)) < 0) NN_SET(t, NULL);
    return t;
}

/* ------------------------------------------------------------------ fills */

int nn_fill_(nn_tensor *t, double value)
{
    if (nn_check_inplace(t) < 0 || nn_check_int_value(value, t->dtype, true) < 0) return -1;
    if (NN_KERNEL(nn_backend_of(t), fill, (t, value)) < 0) return -1;
    nn_bump_version(t);
    return 0;
}

int nn_zero_(nn_tensor *t) { return nn_fill_(t, 0.0); }

/* ------------------------------------------------------------------ copies */

/* Raw copy with broadcasting and dtype conversion; no autograd, no version bump. */
static int copy_raw(nn_tensor *dst, const nn_tensor *src)
{
    int nd;
    int64_t shape[NN_MAX_DIMS];
    if (nn_broadcast_shapes(dst->ndim, dst->sizes, src->ndim, src->sizes, &nd, shape) < 0) return -1;
    if (nd != dst->ndim || memcmp(shape, dst->sizes, sizeof(int64_t) * (size_t)nd) != 0) {
        char a[256], b[256];
        return nn_error_set(NN_ERR_RUNTIME, "The expanded size of the tensor %s must match the existing size %s",
                            nn_shape_str(src->ndim, src->sizes, a, sizeof a),
                            nn_shape_str(dst->ndim, dst->sizes, b, sizeof b));
    }
    static bool warned; /* ATen's copy_: TORCH_WARN_ONCE */
    if (nn_dtype_is_complex(src->dtype) && !nn_dtype_is_complex(dst->dtype) && !warned && (warned = true) &&
        nn_warn("UserWarning", "Casting complex values to real discards the imaginary part (Triggered internally at  "
                               "./aten/src/ATen/native/Copy.cpp:250.)") < 0)
        return -1;
    if (!nn_same_device(nn_device_of(dst), nn_device_of(src))) return nn_copy_across_devices(dst, src);
    nn_tensor view;
    nn_broadcast_into(src, dst->ndim, dst->sizes, &view);
    return NN_KERNEL(nn_backend_of(dst), copy, (dst, &view));
}

int nn_copy_(nn_tensor *dst, nn_tensor *src)
{
    if (nn_check_inplace(dst) < 0) return -1;
    if (copy_raw(dst, src) < 0) return -1;
    nn_bump_version(dst);
    return 0;
}

/* A contiguous copy of t in dtype, without autograd. */
static nn_tensor *copy_as(nn_tensor *t, nn_dtype dtype)
{
    nn_tensor *out = nn_empty_on(nn_device_of(t), t->ndim, t->sizes, dtype);
    if (out && copy_raw(out, t) < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_clone(nn_tensor *t)
{
    if (!t) return NULL; /* an operand a nested call failed to make (its error is current) */
    nn_tensor *out = copy_as(t, t->dtype);
    if (out && nn_record(NN_OP_clone, 1, &t, 1, &out, 0, NULL, NULL) < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_contiguous(nn_tensor *t)
{
    if (!t) return NULL; /* an operand a nested call failed to make (its error is current) */
    if (nn_is_contiguous(t)) {
        NN_RETAIN(t);
        return t;
    }
    return nn_clone(t);
}

nn_tensor *nn_to_dtype(nn_tensor *t, nn_dtype dtype)
{
    if (!t) return NULL; /* an operand a nested call failed to make (its error is current) */
    if (t->dtype == dtype) {
        NN_RETAIN(t);
        return t;
    }
    nn_tensor *out = copy_as(t, dtype);
    if (!out) return NULL;
    if ((nn_dtype_is_floating(dtype) || nn_dtype_is_complex(dtype)) && nn_record(NN_OP_to_copy, 1, &t, 1, &out, 0, NULL, NULL) < 0)
        NN_SET(out, NULL);
    return out;
}

/* A flat dt tensor over all of s (which it takes); NULL when the header fails (s released). */
static nn_tensor *flat_over(nn_storage *s, nn_dtype dt)
{
    nn_tensor *t = header_new(s, 1, dt);
    if (!t) {
        nn_storage_release(s);
        return NULL;
    }
    t->sizes[0] = (int64_t)(s->nbytes / nn_dtype_size(dt));
    t->strides[0] = 1;
    return t;
}

nn_tensor *nn_tensor_over_mapping(void *data, size_t nbytes, nn_dtype dt)
{
    nn_storage *s = nn_malloc(sizeof *s);
    if (!s) {
        munmap(data, nbytes ? nbytes : 1);
        return NULL;
    }
    *s = (nn_storage){.refcount = 1, .data = data, .nbytes = nbytes, .device = NN_DEVICE_CPU, .mapped = true};
    return flat_over(s, dt);
}

nn_tensor *nn_tensor_over_lent(void *data, size_t nbytes, nn_dtype dt, void (*give_back)(void *), void *lender)
{
    nn_storage *s = nn_malloc(sizeof *s);
    if (!s) {
        give_back(lender);
        return NULL;
    }
    *s = (nn_storage){.refcount = 1, .data = data, .nbytes = nbytes, .device = NN_DEVICE_CPU, .give_back = give_back,
                      .lender = lender};
    return flat_over(s, dt);
}

nn_tensor *nn_data_alias(nn_tensor *t)
{
    nn_storage *s = nn_malloc(sizeof *s), *root = t->storage->owner ? t->storage->owner : t->storage;
    if (!s) return NULL;
    *s = *root;
    s->refcount = 1;
    s->version = 0;
    s->owner = root;
    s->held = NULL;
    s->mapped = false; /* the mapping (or lent memory) is root's */
    s->give_back = NULL;
    s->lender = NULL;
    s->alias_link = root->alias_link;
    root->alias_link = s;
    root->refcount++;
    nn_tensor *holder = header_new(s, t->ndim, t->dtype);
    if (!holder) {
        nn_storage_release(s);
        return NULL;
    }
    holder->offset = t->offset;
    for (int d = 0; d < t->ndim; d++) {
        holder->sizes[d] = t->sizes[d];
        holder->strides[d] = t->strides[d];
    }
    return holder;
}

nn_tensor *nn_detach(nn_tensor *t)
{
    return nn_tensor_new_view(t, t->ndim, t->sizes, t->strides, t->offset);
}

int nn_clone_backward(nn_node *node, nn_tensor **gout, nn_tensor **gin)
{
    (void)node;
    NN_RETAIN(gout[0]);
    gin[0] = gout[0];
    return 0;
}

int nn_to_copy_backward(nn_node *node, nn_tensor **gout, nn_tensor **gin)
{
    /* a complex gradient of a real input: its real part (_to_copy_backward), no cast warning */
    nn_dtype dt = node->input_meta[0].dtype;
    gin[0] = nn_dtype_is_complex(gout[0]->dtype) && !nn_dtype_is_complex(dt) ? nn_real(gout[0]) : nn_to_dtype(gout[0], dt);
    if (gin[0] && gin[0]->dtype != dt) NN_SET(gin[0], nn_to_dtype(gin[0], dt));
    if (gin[0] && (node->p.flags & 1)) { /* nn_to_device: back to the input's device */
        nn_device d = {(nn_device_type)node->p.i[0], (int)node->p.i[1]};
        nn_tensor *moved = nn_to_device(gin[0], d);
        NN_SET(gin[0], moved);
    }
    return gin[0] ? 0 : -1;
}
