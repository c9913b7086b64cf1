/*
 * guard.c — limits that keep user-controlled recursion off the end of the C
 * stack: a stack-depth check for recursive walkers (the evaluator, repr,
 * equality, hashing) and the deferred release of deeply nested objects
 * (CPython's "trashcan"), so freeing [[[...]]] 400000 deep never recurses
 * more than a fixed number of levels.
 */
#include <pthread.h>
#include <stdint.h>

#include "death_watch.h"
#include "nn.h"

/* ------------------------------------------------------------ stack depth */

/* the lowest address this thread's recursion may reach (0: not yet known) */
static _Thread_local uintptr_t stack_floor;

static void find_stack_floor(uintptr_t here)
{
    /* keep a quarter of the stack (at most 2 MiB, at least 128 KiB) for the
       work below the last checked frame: C library calls, BLAS, SQLite */
    size_t size = 0;
    void *addr = NULL;
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        if (pthread_attr_getstack(&attr, &addr, &size) != 0) size = 0;
        pthread_attr_destroy(&attr);
    }
    uintptr_t low = (uintptr_t)addr;
    if (size == 0 || here < low || here - low > size) {
        /* unknown: assume the default 8 MiB below the first checked frame */
        size = (size_t)8 << 20;
        low = here > size ? here - size : 0;
        size = here - low;
    }
    size_t margin = size / 4;
    if (margin > ((size_t)2 << 20)) margin = (size_t)2 << 20;
    if (margin < ((size_t)128 << 10)) margin = (size_t)128 << 10;
    stack_floor = low + margin;
}

int nn_stack_check(void)
{
    char here;
    uintptr_t sp = (uintptr_t)&here;
    if (!stack_floor) find_stack_floor(sp);
    if (sp < stack_floor) return nn_error_set(NN_ERR_RECURSION, "maximum recursion depth exceeded");
    return 0;
}

uintptr_t nn_stack_set_floor(uintptr_t floor)
{
    uintptr_t prev = stack_floor;
    stack_floor = floor;
    return prev;
}

/* ------------------------------------------------------ walkers' nesting */

static _Thread_local int walk_depth;
static int (*base_depth)(void);
static int walk_limit = 1000;

void nn_set_recursion_base(int (*depth)(void), int limit)
{
    base_depth = depth;
    walk_limit = limit;
}

int nn_recursion_enter(const char *where)
{
    if (nn_stack_check() < 0) return -1;
    int base = base_depth ? base_depth() : 0;
    if (base + walk_depth >= walk_limit)
        return nn_error_set(NN_ERR_RECURSION, "maximum recursion depth exceeded%s", where);
    walk_depth++;
    return 0;
}

void nn_recursion_leave(void) { walk_depth--; }

/* -------------------------------------------------------- deferred release */

/* Deallocation nests one level per contained object. Past TRASH_DEPTH levels
   an object whose count reached zero waits in a list (linked through its
   unused refcount field, so deferring never allocates) and is freed by the
   outermost deallocation, which starts again from depth 0. */
#define TRASH_DEPTH 64
static _Thread_local int dealloc_depth;
static _Thread_local nn_object *trash;

void nn_object_dealloc(nn_object *o)
{
    if (!o->type->dealloc) return;
    if (nn_death_watch_count) nn_death_notify(o); /* weak references die first */
    if (o->type->traverse) nn_gc_untrack(o);
    if (dealloc_depth >= TRASH_DEPTH) {
        o->refcount = (intptr_t)trash;
        trash = o;
        return;
    }
    dealloc_depth++;
    o->type->dealloc(o);
    dealloc_depth--;
    if (dealloc_depth) return;
    while (trash) {
        nn_object *t = trash;
        trash = (nn_object *)t->refcount;
        t->refcount = 0;
        dealloc_depth++;
        t->type->dealloc(t);
        dealloc_depth--;
    }
}
