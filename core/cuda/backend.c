/*
 * cuda/backend.c — the CUDA backend's skeleton (issue 14 fills it in): device
 * memory through the CUDA runtime, transfers, synchronize, and a table whose
 * kernels are all NULL, so every op on a CUDA tensor raises NotImplementedError
 * ("Could not run 'binary' with arguments from the 'cuda' backend.") until its
 * kernel lands. C over the CUDA runtime's C API; compiled only by `make CUDA=1`
 * (with -DNN_HAVE_CUDA; .cu kernel files go through nvcc), never by default and
 * never in CI; nothing here has run on a GPU yet.
 *
 * Adding a kernel, e.g. gelu once it is a line of core/kernels.def: write
 * nn_cuda_<name> in its own file core/cuda/<name>.cu (an extern "C" launcher
 * with the params of that line), declare it in core/cuda/nn_cuda.h, and set
 * `cuda_backend.<name> = nn_cuda_<name>` below (and claim its dtypes in
 * cuda_supports).
 */
#include <cuda_runtime.h>

#include "cuda/nn_cuda.h"

/* A CUDA failure as the current error (RuntimeError, PyTorch's "CUDA error: ..."); -1. */
static int cuda_fail(cudaError_t e)
{
    return nn_error_set(NN_ERR_RUNTIME, "CUDA error: %s", cudaGetErrorString(e));
}

static void *cuda_alloc(size_t nbytes)
{
    void *p = NULL;
    cudaError_t e = cudaMalloc(&p, nbytes);
    if (e != cudaSuccess) {
        nn_error_set(NN_ERR_MEMORY, "CUDA out of memory. Tried to allocate %zu bytes (%s)", nbytes,
                     cudaGetErrorString(e));
        return NULL;
    }
    return p;
}

static void cuda_free(void *data, size_t nbytes)
{
    (void)nbytes;
    cudaFree(data);
}

static int cuda_to_host(void *host_dst, const void *src, size_t nbytes)
{
    cudaError_t e = cudaMemcpy(host_dst, src, nbytes, cudaMemcpyDeviceToHost);
    return e == cudaSuccess ? 0 : cuda_fail(e);
}

static int cuda_from_host(void *dst, const void *host_src, size_t nbytes)
{
    cudaError_t e = cudaMemcpy(dst, host_src, nbytes, cudaMemcpyHostToDevice);
    return e == cudaSuccess ? 0 : cuda_fail(e);
}

static int cuda_synchronize(void)
{
    cudaError_t e = cudaDeviceSynchronize();
    return e == cudaSuccess ? 0 : cuda_fail(e);
}

static bool cuda_supports(nn_kernel_id kernel, nn_dtype dtype)
{
    (void)kernel;
    (void)dtype;
    return false; /* no kernel yet */
}

static nn_backend cuda_backend;

int nn_cuda_register(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) return 0; /* no GPU: CUDA stays unavailable */
    cuda_backend.name = "cuda";
    cuda_backend.type = NN_CUDA;
    cuda_backend.alloc = cuda_alloc;
    cuda_backend.free = cuda_free;
    cuda_backend.to_host = cuda_to_host;
    cuda_backend.from_host = cuda_from_host;
    cuda_backend.synchronize = cuda_synchronize;
    cuda_backend.supports = cuda_supports;
    /* kernels: none yet (NULL: NotImplementedError, no host fallback) */
    nn_backend_register(&cuda_backend);
    return count;
}
