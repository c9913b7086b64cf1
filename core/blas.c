/*
 * blas.c — OpenBLAS, opened on the first matrix product rather than at load.
 *
 * OpenBLAS starts its worker threads when it is loaded, and each worker spins
 * (sched_yield) for a while before it sleeps. Linked normally, every nnscope
 * process pays that spin, even one that never multiplies a matrix; opened here,
 * only a process that reaches a BLAS product does (and `nnscope -c pass` skips
 * OpenBLAS's start-up altogether).
 *
 * Its thread count is OpenBLAS's own (OPENBLAS_NUM_THREADS, else every processor),
 * never the pool's budget: PyTorch 1.13 links the same library and leaves it so,
 * and a product's bits depend on it (OpenBLAS takes other kernels single-threaded:
 * x.mm(w) of [64, 1000] @ [1000, 100] differs with OPENBLAS_NUM_THREADS=1, in
 * PyTorch too, while torch.set_num_threads changes nothing there).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

#include "nn_parallel.h"

/* Debian's runtime package provides the versioned name; the unversioned one is
 * the -dev symlink, a fallback for other layouts. */
static const char *const library_names[] = {"libopenblas.so.0", "libopenblas.so"};

static nn_blas loaded;
static bool load_ok;
static char load_error[256];
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void *symbol(void *lib, const char *name, bool *ok)
{
    void *p = dlsym(lib, name);
    if (!p && *ok) {
        snprintf(load_error, sizeof load_error, "OpenBLAS has no %s", name);
        *ok = false;
    }
    return p;
}

/* OpenBLAS's kernel family, as it chose it for this CPU (or OPENBLAS_CORETYPE named it):
   the cores whose GEMM kernels were checked to give a column block the whole product's
   bits (test_conv3d_blocks on an AVX-512 CPU). */
static bool columns_blockable(void *lib)
{
    static const char *const checked[] = {"SkylakeX", "Cooperlake"};
    const char *(*corename)(void);
    *(void **)&corename = dlsym(lib, "openblas_get_corename");
    const char *core = corename ? corename() : NULL;
    for (size_t i = 0; core && i < sizeof checked / sizeof *checked; i++)
        if (strcmp(core, checked[i]) == 0) return true;
    return false;
}

static void load(void)
{
    void *lib = NULL;
    for (size_t i = 0; !lib && i < sizeof library_names / sizeof *library_names; i++)
        lib = dlopen(library_names[i], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "cannot load OpenBLAS: %s", why ? why : "not found");
        return;
    }
    bool ok = true;
    /* POSIX guarantees object and function pointers convert through dlsym */
    *(void **)&loaded.sgemm = symbol(lib, "cblas_sgemm", &ok);
    *(void **)&loaded.dgemm = symbol(lib, "cblas_dgemm", &ok);
    *(void **)&loaded.sgemv = symbol(lib, "cblas_sgemv", &ok);
    *(void **)&loaded.dgemv = symbol(lib, "cblas_dgemv", &ok);
    *(void **)&loaded.sdot = symbol(lib, "cblas_sdot", &ok);
    *(void **)&loaded.ddot = symbol(lib, "cblas_ddot", &ok);
    load_ok = ok; /* the library stays open for the life of the process */
    loaded.columns_blockable = columns_blockable(lib);
}

const nn_blas *nn_blas_get(void)
{
    pthread_once(&load_once, load);
    if (load_ok) return &loaded;
    nn_error_set(NN_ERR_RUNTIME, "%s", load_error);
    return NULL;
}
