/*
 * coro.c — stackful coroutines for generators: a generator's body runs on a
 * stack of its own, so the tree-walking evaluator can suspend it in the middle
 * of a statement (at a `yield`) and resume it later. x86-64 switches with a few
 * instructions of its own (no system call); other machines use ucontext.
 * Stacks are mmap'd with a guard page, their pages committed as touched, and a
 * few freed ones are kept for the next generator.
 */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "coro.h"

#if defined(__SANITIZE_ADDRESS__)
#define CORO_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CORO_ASAN 1
#endif
#endif
#ifdef CORO_ASAN
void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom, size_t size);
void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old, size_t *size_old);
void __asan_unpoison_memory_region(const volatile void *addr, size_t size);
#endif

#if defined(__x86_64__)
/* coro_switch(&save_sp, sp): pushes the callee-saved registers, stores the stack
   pointer into *save_sp, loads sp and pops the registers saved there. */
void repl_coro_switch(void **save_sp, void *sp);
__asm__(".text\n"
        ".globl repl_coro_switch\n"
        ".type repl_coro_switch,@function\n"
        "repl_coro_switch:\n"
        "    pushq %rbp\n    pushq %rbx\n    pushq %r12\n    pushq %r13\n    pushq %r14\n    pushq %r15\n"
        "    movq %rsp, (%rdi)\n"
        "    movq %rsi, %rsp\n"
        "    popq %r15\n    popq %r14\n    popq %r13\n    popq %r12\n    popq %rbx\n    popq %rbp\n"
        "    ret\n"
        ".size repl_coro_switch, .-repl_coro_switch\n"
        /* a new coroutine's first return lands here: entry in rbx, its argument in r12 */
        ".globl repl_coro_start\n"
        ".type repl_coro_start,@function\n"
        "repl_coro_start:\n"
        "    subq $8, %rsp\n"
        "    movq %r12, %rdi\n"
        "    call *%rbx\n"
        "    ud2\n"
        ".size repl_coro_start, .-repl_coro_start\n");
void repl_coro_start(void);
#else
#include <ucontext.h>
#endif

struct coro {
    void *mem;
    size_t size; /* mapping, guard page included */
#if defined(__x86_64__)
    void *sp, *caller_sp;
#else
    ucontext_t ctx, caller;
#endif
    void (*entry)(void *);
    void *arg;
#ifdef CORO_ASAN
    void *fake_stack;
    const void *caller_bottom;
    size_t caller_size;
#endif
};

#define CORO_STACK (8u << 20) /* as the main thread's: the recursion limit applies inside */
#define CORO_CACHE 8

static void *cache[CORO_CACHE];
static int n_cache;

static size_t page_size(void)
{
    static size_t size;
    if (!size) {
        long p = sysconf(_SC_PAGESIZE);
        size = p > 0 ? (size_t)p : 4096;
    }
    return size;
}

#if defined(__x86_64__)
static void first_run(void *p);
#else
static void uc_trampoline(unsigned hi, unsigned lo)
{
    coro *c = (coro *)(((uintptr_t)hi << 32) | (uintptr_t)lo);
    c->entry(c->arg);
}
#endif

coro *repl_coro_new(void (*entry)(void *), void *arg)
{
    coro *c = nn_calloc(1, sizeof *c);
    if (!c) return NULL;
    c->size = CORO_STACK + page_size();
    if (n_cache) c->mem = cache[--n_cache];
    else {
        c->mem = mmap(NULL, c->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
        if (c->mem == MAP_FAILED) {
            nn_free(c);
            nn_error_set(NN_ERR_MEMORY, "%s", "");
            return NULL;
        }
        mprotect(c->mem, page_size(), PROT_NONE); /* the guard page: overflow faults, not corrupts */
    }
    c->entry = entry;
    c->arg = arg;
#if defined(__x86_64__)
    uintptr_t top = ((uintptr_t)c->mem + c->size) & ~(uintptr_t)15;
    void **sp = (void **)(top - 16); /* the return address slot, 16-aligned */
    sp[0] = (void *)repl_coro_start;
    sp -= 6; /* r15 r14 r13 r12 rbx rbp */
    memset(sp, 0, 6 * sizeof *sp);
    sp[3] = c;                 /* r12: first_run's argument */
    sp[4] = (void *)first_run; /* rbx: what repl_coro_start calls */
    c->sp = sp;
#else
    getcontext(&c->ctx);
    c->ctx.uc_stack.ss_sp = (char *)c->mem + page_size();
    c->ctx.uc_stack.ss_size = CORO_STACK;
    c->ctx.uc_link = NULL;
    makecontext(&c->ctx, (void (*)(void))uc_trampoline, 2, (unsigned)((uintptr_t)c >> 32), (unsigned)(uintptr_t)c);
#endif
    return c;
}

#if defined(__x86_64__)
/* the first run: entry(arg) through this, so that r12 can carry the coroutine */
static void first_run(void *p)
{
    coro *c = p;
#ifdef CORO_ASAN
    __sanitizer_finish_switch_fiber(NULL, &c->caller_bottom, &c->caller_size);
#endif
    c->entry(c->arg);
}
#endif

void repl_coro_resume(coro *c)
{
    /* the recursion check measures this stack while c runs (a quarter kept for C calls below) */
    uintptr_t floor = nn_stack_set_floor((uintptr_t)c->mem + page_size() + CORO_STACK / 4);
#if defined(__x86_64__)
#ifdef CORO_ASAN
    void *fake = NULL;
    __sanitizer_start_switch_fiber(&fake, (char *)c->mem + page_size(), CORO_STACK);
#endif
    repl_coro_switch(&c->caller_sp, c->sp);
#ifdef CORO_ASAN
    __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
#else
    swapcontext(&c->caller, &c->ctx);
#endif
    nn_stack_set_floor(floor);
}

void repl_coro_suspend(coro *c)
{
#if defined(__x86_64__)
#ifdef CORO_ASAN
    __sanitizer_start_switch_fiber(&c->fake_stack, c->caller_bottom, c->caller_size);
#endif
    repl_coro_switch(&c->sp, c->caller_sp);
#ifdef CORO_ASAN
    __sanitizer_finish_switch_fiber(c->fake_stack, &c->caller_bottom, &c->caller_size);
#endif
#else
    swapcontext(&c->ctx, &c->caller);
#endif
}

void repl_coro_free(coro *c)
{
    if (!c) return;
#ifdef CORO_ASAN
    /* a body abandoned while suspended left its frames' shadow poisoned: the next
       generator on this stack would read as use-after-scope */
    __asan_unpoison_memory_region((char *)c->mem + page_size(), CORO_STACK);
#endif
    if (n_cache < CORO_CACHE) cache[n_cache++] = c->mem;
    else munmap(c->mem, c->size);
    nn_free(c);
}
