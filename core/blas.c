/*
 * blas.c — OpenBLAS, opened on the first matrix product rather than at load.
 *
 * OpenBLAS starts its worker threads when it is loaded, and each worker spins
 * (sched_yield) for a while before it sleeps. Linked normally, every nnscope
 * process pays that spin, even one that never multiplies a matrix; opened here,
 * only a process that reaches a BLAS product does (and `nnscope -c pass` skips
 * OpenBLAS's start-up altogether). It also counts the products running, so
 * that optional background work can keep out of their way (nn_blas_busy).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>

#include "nn_int.h"

/* Debian's runtime package provides the versioned name; the unversioned one is
 * the -dev symlink, a fallback for other layouts. */
static const char *const library_names[] = {"libopenblas.so.0", "libopenblas.so"};

static nn_blas loaded;
static bool load_ok;
static bool threaded; /* OpenBLAS runs products on more than one thread */
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
    int (*thread_count)(void);
    *(void **)&thread_count = dlsym(lib, "openblas_get_num_threads");
    threaded = !thread_count || thread_count() > 1;
    load_ok = ok; /* the library stays open for the life of the process */
}

/* Products running now, on every thread; only counted when OpenBLAS has threads
   of its own (with one, a product takes one core and leaves the others free).
   Threads in nn_blas_wait_idle sleep on idle_cond; the last product to end wakes
   them. (Sequentially consistent atomics: a waiter counted after the last product
   looked for waiters sees running at 0, so no wake-up is lost.) */
static atomic_int running, idle_waiters;
static pthread_mutex_t idle_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t idle_cond = PTHREAD_COND_INITIALIZER;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

void nn_blas_enter(void)
{
    if (threaded) atomic_fetch_add(&running, 1);
}

void nn_blas_leave(void)
{
    if (!threaded || atomic_fetch_sub(&running, 1) != 1 || atomic_load(&idle_waiters) == 0) return;
    pthread_mutex_lock(&idle_lock);
    pthread_cond_broadcast(&idle_cond);
    pthread_mutex_unlock(&idle_lock);
}

bool nn_blas_busy(void) { return atomic_load(&running) > 0; }

/* A forked child has none of the parent's waiters, and maybe a copy of the lock
   taken by one of them. */
static void idle_child(void)
{
    pthread_mutex_init(&idle_lock, NULL);
    pthread_cond_init(&idle_cond, NULL);
    atomic_store(&idle_waiters, 0);
}
static void register_fork_handler(void) { pthread_atfork(NULL, NULL, idle_child); }

void nn_blas_wait_idle(void)
{
    if (!nn_blas_busy()) return;
    pthread_once(&fork_once, register_fork_handler);
    atomic_fetch_add(&idle_waiters, 1);
    pthread_mutex_lock(&idle_lock);
    while (nn_blas_busy()) pthread_cond_wait(&idle_cond, &idle_lock);
    pthread_mutex_unlock(&idle_lock);
    atomic_fetch_sub(&idle_waiters, 1);
}

const nn_blas *nn_blas_get(void)
{
    pthread_once(&load_once, load);
    if (load_ok) return &loaded;
    nn_error_set(NN_ERR_RUNTIME, "%s", load_error);
    return NULL;
}
