/*
 * loopback/loopback.c — a test device: the CPU's kernels over memory that host
 * code outside kernels may not touch. It stands in for CUDA (it registers for
 * NN_CUDA, so tensors on it print as device='cuda:0' and mixed-device errors
 * read as PyTorch's), and only tests register it (nn_loopback_register;
 * `nnscope` does when NNSCOPE_TEST_DEVICE=loopback).
 *
 * Its blocks are host memory of their own (never the CPU's storage blocks).
 * With poisoning on (nn_loopback_register(true)) under AddressSanitizer, every
 * block is poisoned except while one of its kernels or transfers runs, so a
 * dereference of a device pointer anywhere else (an op computing inline
 * through nn_data_ptr, the inspector, printing) stops the program with ASan's
 * use-after-poison report: the proof that such code goes through the kernels
 * or the host-access contract. Without ASan the poisoning is a no-op.
 */
#include <string.h>

#include "cpu/nn_cpu.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/* A block: this header, then the data (64-byte offset keeps it aligned). */
typedef struct block {
    struct block *prev, *next;
    size_t nbytes;
} block;
#define HEADER 64

static struct {
    block *first;  /* every live block, for the kernels' unpoisoning */
    int depth;     /* kernels running (a kernel may call a kernel) */
    bool poison;
} lb;

static block *block_of(const void *data) { return (block *)((char *)data - HEADER); }

static void set_poison(bool on)
{
    if (!lb.poison) return;
    for (block *b = lb.first; b; b = b->next) {
        if (on) POISON((char *)b + HEADER, b->nbytes);
        else UNPOISON((char *)b + HEADER, b->nbytes);
    }
}

static void enter(void)
{
    if (lb.depth++ == 0) set_poison(false);
}

static void leave(void)
{
    if (--lb.depth == 0) set_poison(true);
}

static void *lb_alloc(size_t nbytes)
{
    block *b = nn_malloc(HEADER + nbytes);
    if (!b) return NULL;
    b->nbytes = nbytes;
    b->prev = NULL;
    b->next = lb.first;
    if (lb.first) lb.first->prev = b;
    lb.first = b;
    if (lb.poison && lb.depth == 0) POISON((char *)b + HEADER, nbytes);
    return (char *)b + HEADER;
}

static void lb_free(void *data, size_t nbytes)
{
    (void)nbytes;
    block *b = block_of(data);
    UNPOISON(data, b->nbytes);
    if (b->prev) b->prev->next = b->next;
    else lb.first = b->next;
    if (b->next) b->next->prev = b->prev;
    nn_free(b);
}

static int lb_to_host(void *host_dst, const void *src, size_t nbytes)
{
    enter();
    if (nbytes) memcpy(host_dst, src, nbytes);
    leave();
    return 0;
}

static int lb_from_host(void *dst, const void *host_src, size_t nbytes)
{
    enter();
    if (nbytes) memcpy(dst, host_src, nbytes);
    leave();
    return 0;
}

static int lb_synchronize(void) { return 0; }

/* Each kernel: the CPU's, with the device's memory reachable while it runs. */
#define KERNEL(name, params, args)                                                                                    \
    static int lb_##name params                                                                                       \
    {                                                                                                                 \
        enter();                                                                                                      \
        int rc = nn_cpu_##name args;                                                                                  \
        leave();                                                                                                      \
        return rc;                                                                                                    \
    }
#include "kernels.def"
#undef KERNEL

static const nn_backend loopback_backend = {
    .name = "loopback",
    .type = NN_CUDA,
    .alloc = lb_alloc,
    .free = lb_free,
    .to_host = lb_to_host,
    .from_host = lb_from_host,
    .synchronize = lb_synchronize,
    .supports = NULL, /* set below: the CPU's claims */
#define KERNEL(name, params, args) .name = lb_##name,
#include "kernels.def"
#undef KERNEL
};

void nn_loopback_register(bool poison)
{
    static nn_backend b;
    b = loopback_backend;
    b.supports = nn_cpu_backend.supports;
    lb.poison = poison;
    nn_backend_register(&b);
}

void nn_loopback_unregister(void)
{
    if (nn_backend_for_type(NN_CUDA) && !strcmp(nn_backend_for_type(NN_CUDA)->name, "loopback"))
        nn_backend_unregister(NN_CUDA);
}
