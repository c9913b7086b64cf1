/*
 * mod_green.c — the module _green: cooperative green threads on the
 * generators' coroutines (coro.c), under the modules threading, queue and
 * concurrent.futures (repl/lib/threading.py). The interpreter is single-threaded:
 * a green thread runs on a stack of its own until it suspends (at a blocking
 * point: join, Lock.acquire, Event.wait, Queue.get, time.sleep) or ends, and
 * the main thread resumes the others while it waits. Each green thread has its
 * own frame stack, recursion depth and handled exception, swapped in while it
 * runs; no two ever run at once, so there is no parallel speed-up.
 *
 *   spawn(fn) -> id     a thread that will call fn() when first resumed
 *   resume(id) -> bool  runs it until it suspends (False) or ends (True); an
 *                       exception fn() let out is raised here
 *   suspend()           from inside a green thread: back to its resumer
 *   current() -> id     the running green thread, 0 in the main thread
 *   running(id) -> bool whether it is on the chain of resumed threads now
 *   at_exit(fn)         fn() is called when a script ends (main.c)
 */
#include "coro.h"
#include "stdlib_int.h"

typedef struct green {
    coro *co;
    nn_object *fn;       /* owned until it has run */
    frame *top;          /* its frame stack while suspended */
    int depth;
    nn_object *handling; /* owned while suspended */
    bool finished, failed, running;
    long resumer;        /* the id that resumed it, while it runs */
} green;

static green **threads; /* by id - 1; NULL once ended */
static long n_threads, cap_threads;
static long current_id;
static nn_object *exit_hook;

static green *lookup(nn_object *o, long *idp)
{
    int64_t id;
    if (repl_mod_int(o, &id) < 0) return NULL;
    *idp = (long)id;
    if (id < 1 || id > n_threads || !threads[id - 1]) {
        repl_raise_exc(EXC_ValueError, "no green thread %lld", (long long)id);
        return NULL;
    }
    return threads[id - 1];
}

static void green_entry(void *arg)
{
    green *g = arg;
    nn_object *r = repl_call_object(g->fn, NULL, 0, NULL);
    g->failed = r == NULL;
    NN_RELEASE(r);
    NN_SET(g->fn, NULL);
    g->finished = true;
    repl_coro_suspend(g->co); /* never resumed */
}

static nn_object *gr_spawn(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("spawn", args, kwargs, 1, 1) < 0) return NULL;
    if (n_threads == cap_threads) {
        long cap = cap_threads ? cap_threads * 2 : 16;
        green **t = nn_realloc(threads, (size_t)cap * sizeof *t);
        if (!t) return NULL;
        threads = t;
        cap_threads = cap;
    }
    green *g = nn_calloc(1, sizeof *g);
    if (!g) return NULL;
    g->fn = nn_retain(nn_tuple_get(args, 0));
    threads[n_threads++] = g;
    return nn_int_new(n_threads);
}

static nn_object *gr_resume(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("resume", args, kwargs, 1, 1) < 0) return NULL;
    long id;
    green *g = lookup(nn_tuple_get(args, 0), &id);
    if (!g) return NULL;
    if (g->running) {
        repl_raise_exc(EXC_RuntimeError, "cannot resume a running green thread");
        return NULL;
    }
    if (!g->co && !(g->co = repl_coro_new(green_entry, g))) return NULL;
    repl_interp *in = repl_current;
    frame *top = in->top;
    int depth = in->depth;
    nn_object *handling = in->handling;
    in->top = g->top;
    in->depth = g->depth;
    in->handling = g->handling;
    g->handling = NULL;
    g->running = true;
    g->resumer = current_id;
    current_id = id;
    repl_coro_resume(g->co);
    current_id = g->resumer;
    g->running = false;
    g->top = in->top;
    g->depth = in->depth;
    g->handling = in->handling;
    in->top = top;
    in->depth = depth;
    in->handling = handling;
    if (!g->finished) return nn_bool_new(false);
    bool failed = g->failed;
    repl_coro_free(g->co);
    NN_RELEASE(g->handling);
    nn_free(g);
    threads[id - 1] = NULL;
    return failed ? NULL : nn_bool_new(true);
}

static nn_object *gr_suspend(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("suspend", args, kwargs, 0, 0) < 0) return NULL;
    if (!current_id) {
        repl_raise_exc(EXC_RuntimeError, "suspend() outside a green thread");
        return NULL;
    }
    repl_coro_suspend(threads[current_id - 1]->co);
    return nn_retain(nn_none());
}

static nn_object *gr_current(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("current", args, kwargs, 0, 0) < 0) return NULL;
    return nn_int_new(current_id);
}

static nn_object *gr_running(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("running", args, kwargs, 1, 1) < 0) return NULL;
    int64_t id;
    if (repl_mod_int(nn_tuple_get(args, 0), &id) < 0) return NULL;
    return nn_bool_new(id >= 1 && id <= n_threads && threads[id - 1] && threads[id - 1]->running);
}

static nn_object *gr_at_exit(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("at_exit", args, kwargs, 1, 1) < 0) return NULL;
    NN_SET(exit_hook, nn_retain(nn_tuple_get(args, 0)));
    return nn_retain(nn_none());
}

void repl_green_at_exit(void)
{
    if (!exit_hook) return;
    nn_object *hook = exit_hook;
    exit_hook = NULL;
    nn_object *r = repl_call_object(hook, NULL, 0, NULL);
    if (!r) { /* the hook reports the threads' own errors: this is only a failed report */
        NN_RELEASE(repl_take_exception());
        nn_error_clear();
    }
    NN_RELEASE(r);
    NN_RELEASE(hook);
}

static const repl_mod_fn green_functions[] = {
    {"spawn", gr_spawn, "spawn(fn)\nA green thread that calls fn() when first resumed; its id."},
    {"resume", gr_resume, "resume(id)\nRuns the green thread until it suspends (False) or ends (True)."},
    {"suspend", gr_suspend, "suspend()\nBack to the resumer of the running green thread."},
    {"current", gr_current, "current()\nThe running green thread's id, 0 in the main thread."},
    {"running", gr_running, "running(id)\nWhether the green thread is running (resumed and not suspended)."},
    {"at_exit", gr_at_exit, "at_exit(fn)\nfn() is called when the script ends."},
};

nn_object *repl_mod_green(void)
{
    nn_object *m = repl_module_new("_green");
    if (m && repl_mod_add_fns(m, green_functions, sizeof green_functions / sizeof *green_functions) < 0)
        NN_SET(m, NULL);
    return m;
}
