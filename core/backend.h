/*
 * backend.h — core's private kernel boundary: one table of function pointers
 * per device type (ggml's backend interface in spirit). Memory (allocate,
 * free, copies to and from the host, synchronize) and the compute kernels of
 * core/kernels.def go through it; nothing else in core touches a non-host
 * device's memory.
 *
 * How an op reaches a kernel: an op file (core/binary.c, core/matmul.c, ...)
 * validates its arguments, checks that they share a device
 * (nn_check_same_device), promotes and broadcasts, allocates its outputs on
 * that device (nn_empty_on / nn_empty_like), then calls
 * NN_KERNEL(nn_backend_of(t), name, (args)), which runs the backend's kernel or
 * raises NotImplementedError naming the kernel and the backend. The backends:
 *   core/cpu/       the CPU (always registered; kernels nn_cpu_<name>)
 *   core/loopback/  a test device: CPU kernels over memory host code may not
 *                   read (poisoned under AddressSanitizer), registered by tests
 *   core/cuda/      the CUDA backend, compiled only with `make CUDA=1`
 * Only kernels, this file's transfer helpers (core/backend.c) and the
 * host-access contract in nn.h (nn_host_read and friends) dereference a
 * storage's data pointer.
 */
#ifndef NN_BACKEND_H
#define NN_BACKEND_H

#include "nn_conv.h"

/* The elementwise binary kernel's op codes. */
typedef enum nn_binop {
    NN_BINOP_ADD, NN_BINOP_SUB, NN_BINOP_MUL, NN_BINOP_DIV, NN_BINOP_POW, NN_BINOP_MAX, NN_BINOP_MIN,
    NN_BINOP_FLOORDIV, NN_BINOP_MOD,
    NN_BINOP_AND, NN_BINOP_OR, NN_BINOP_XOR, /* integer operands (float ones: on their truncated values) */
    NN_BINOP_EQ, NN_BINOP_NE, NN_BINOP_LT, NN_BINOP_LE, NN_BINOP_GT, NN_BINOP_GE,
    NN_BINOP_FMOD, /* C's fmod: the dividend's sign (torch.fmod) */
    NN_BINOP_COUNT
} nn_binop;

/* What the random kernel draws. */
typedef enum nn_random_dist {
    NN_RANDOM_UNIFORM,     /* [a, b) */
    NN_RANDOM_NORMAL,      /* mean a, std b */
    NN_RANDOM_BERNOULLI,   /* 1 with probability a */
    NN_RANDOM_INT,         /* base + draw % range, draws of 64 bits when wide */
    NN_RANDOM_PERMUTATION, /* a random permutation of 0..n-1 */
} nn_random_dist;

typedef struct nn_random_params {
    nn_random_dist dist;
    double a, b;
    int64_t base;
    uint64_t range;
    bool wide;
} nn_random_params;

/* The reduce kernel's op codes. */
typedef enum nn_reduce_op {
    NN_REDUCE_SUM, NN_REDUCE_VAR, NN_REDUCE_STD, NN_REDUCE_MAX, NN_REDUCE_MIN, NN_REDUCE_NORM,
    NN_REDUCE_CASCADE_SUM, /* the losses' sum of one row (outer 1), at::sum's cascade order; mean when p != 0 */
    NN_REDUCE_COLUMNS,     /* values[i] = the sum of column i (float32/float64), at::sum_to's cascade order; mean when p != 0 */
} nn_reduce_op;

/* The unary kernel's op codes (core/unary_ops.def) and parameters. */
typedef enum nn_unary_op {
    NN_UNARY_NONE = -1,
#define UNARY_OP(name) NN_UNARY_##name,
#include "unary_ops.def"
#undef UNARY_OP
} nn_unary_op;

typedef struct nn_unary_params {
    int k;           /* the formula (an nn_unary_op), as PyTorch's scalar loop computes it */
    int vec;         /* its vectorized loop's variant for a dense run, or NN_UNARY_NONE */
    bool vec_all;    /* vec covers every element (oneDNN), not only multiples of 16 */
    double d[2];     /* the op's parameters as double ... */
    float f[2];      /* ... as float ... */
    int64_t i[2];    /* ... and as int64 */
} nn_unary_params;

typedef enum nn_kernel_id {
#define KERNEL(name, params, args) NN_KERNEL_##name,
#include "kernels.def"
#undef KERNEL
    NN_KERNEL_COUNT
} nn_kernel_id;
extern const char *const nn_kernel_names[NN_KERNEL_COUNT];

typedef struct nn_backend {
    const char *name;           /* "cpu", "loopback", "cuda": in NotImplementedError messages */
    nn_device_type type;
    /* Memory. alloc returns device memory for nbytes (> 0), or NULL with MemoryError;
       free releases it; to_host/from_host copy nbytes between it and host memory;
       synchronize waits for queued work. */
    void *(*alloc)(size_t nbytes);
    void (*free)(void *data, size_t nbytes);
    int (*to_host)(void *host_dst, const void *src, size_t nbytes);
    int (*from_host)(void *dst, const void *host_src, size_t nbytes);
    int (*synchronize)(void);
    /* (copies within the device are the copy kernel) */
    /* Does the kernel run for tensors of this dtype? (NULL entries never do.) */
    bool (*supports)(nn_kernel_id kernel, nn_dtype dtype);
    /* The kernels (NULL: not provided by this backend). */
#define KERNEL(name, params, args) int (*name) params;
#include "kernels.def"
#undef KERNEL
} nn_backend;

/* The CPU backend (core/cpu/backend.c). */
extern const nn_backend nn_cpu_backend;

/* Registers b for its device type (replacing any); the CPU one is built in. */
void nn_backend_register(const nn_backend *b);
/* Forgets the backend of a device type (tests; the CPU's stays). */
void nn_backend_unregister(nn_device_type type);
/* The backend registered for a device type, or NULL. */
const nn_backend *nn_backend_for_type(nn_device_type type);
/* The backend of t's storage (never NULL: a storage exists only on a registered device). */
static inline const nn_backend *nn_backend_of(const nn_tensor *t)
{
    return t->storage->device.type == NN_CPU ? &nn_cpu_backend : nn_backend_for_type(t->storage->device.type);
}
/* NotImplementedError for a kernel a backend lacks ("Could not run 'gemm' with
   arguments from the 'cuda' backend."); returns -1. */
int nn_kernel_missing(const nn_backend *b, const char *kernel);

/* Calls backend b's kernel name with the parenthesized args: its status, or -1 with
   NotImplementedError when b does not provide it (no fallback to the host). */
#define NN_KERNEL(b, name, args) ((b)->name ? (b)->name args : nn_kernel_missing((b), #name))

/* Storage on a device: the CPU's keeps header and data in one block (the data
   pointer is host memory); other devices' data come from their backend's alloc. */
nn_storage *nn_storage_new_on(nn_device device, size_t nbytes);

/* dst = src (src broadcast to dst's shape, dtype converted) when they live on
   different devices: laid out and converted on the host, one transfer. 0 or -1. */
int nn_copy_across_devices(nn_tensor *dst, const nn_tensor *src);

#endif
