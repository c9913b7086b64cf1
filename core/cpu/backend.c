/*
 * cpu/backend.c — the CPU backend's table (core/backend.h): host memory (the
 * storage block itself, tensor.c), memcpy transfers and the nn_cpu_* kernels.
 */
#include <string.h>

#include "nn_cpu.h"

/* The CPU's storages keep header and data in one block (tensor.c's
   storage_new); these serve backends that borrow the CPU's memory functions. */
static void *cpu_alloc(size_t nbytes) { return nn_malloc(nbytes); }
static void cpu_free(void *data, size_t nbytes) { (void)nbytes; nn_free(data); }
static int cpu_memcpy(void *dst, const void *src, size_t nbytes)
{
    if (nbytes) memcpy(dst, src, nbytes);
    return 0;
}
static int cpu_synchronize(void) { return 0; }

static bool cpu_supports(nn_kernel_id kernel, nn_dtype dtype)
{
    switch (kernel) {
    case NN_KERNEL_binary: case NN_KERNEL_unary: return dtype == NN_FLOAT32 || dtype == NN_FLOAT64 || dtype == NN_INT64;
    case NN_KERNEL_gemm: case NN_KERNEL_gemv: case NN_KERNEL_dot: case NN_KERNEL_conv2d: case NN_KERNEL_softmax: case NN_KERNEL_conv2d_backward:
    case NN_KERNEL_conv3d: case NN_KERNEL_conv3d_backward:
    case NN_KERNEL_loss: case NN_KERNEL_norm: case NN_KERNEL_math: case NN_KERNEL_optim_step:
    case NN_KERNEL_pool: case NN_KERNEL_sample: case NN_KERNEL_linalg: case NN_KERNEL_resample:
        return dtype == NN_FLOAT32 || dtype == NN_FLOAT64;
    case NN_KERNEL_matmul_loop: return dtype != NN_BOOL;
    default: return true;
    }
}

const nn_backend nn_cpu_backend = {
    .name = "cpu",
    .type = NN_CPU,
    .alloc = cpu_alloc,
    .free = cpu_free,
    .to_host = cpu_memcpy,
    .from_host = cpu_memcpy,
    .synchronize = cpu_synchronize,
    .supports = cpu_supports,
#define KERNEL(name, params, args) .name = nn_cpu_##name,
#include "kernels.def"
#undef KERNEL
};
