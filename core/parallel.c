/*
 * parallel.c — the CPU's parallel-for (nn_parallel.h) and the one thread
 * budget it shares with OpenBLAS (nn_set_num_threads / nn_get_num_threads).
 *
 * A small pool of our own rather than OpenMP: libgomp's idle workers spin
 * (GOMP_SPINCOUNT, up to OMP_WAIT_POLICY read once at load, before any code
 * of ours runs), which on a 2-core machine steals the core the inspector and
 * the REPL run on; a pool of our own sleeps on a condition variable the moment
 * it has no chunk left, keeps the chunking (and so every reduction's order)
 * independent of the thread count, survives fork(), and keeps signals (Ctrl-C)
 * on the main thread. Workers start on the first loop that is worth splitting,
 * so a process that never sees a large tensor never starts one.
 *
 * One job at a time: a second thread that calls nn_parallel_for while a job
 * runs (or a chunk that calls it) runs its loop inline.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "nn_parallel.h"

#define MAX_THREADS NN_MAX_THREADS

static struct pool {
    pthread_mutex_t lock;    /* guards the job's fields and the sleep/wake handshake */
    pthread_cond_t wake;     /* a new job for the workers */
    pthread_cond_t done;     /* the job's last chunk finished */
    pthread_mutex_t job;     /* held by the one caller whose job is running */
    int threads;             /* the budget, caller included (>= 1) */
    int started;             /* workers started so far */
    /* the current job: written under lock before its generation is published */
    uint32_t generation;
    nn_range_fn fn;
    void *ctx;
    int64_t n, grain, chunks;
    int helpers;
    /* (generation << 32) | the next chunk to hand out: a worker that wakes after
       its job ended (or another began) fails to claim and goes back to sleep */
    atomic_uint_least64_t next;
    atomic_llong finished;   /* chunks of the current job done */
} pool = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .wake = PTHREAD_COND_INITIALIZER,
    .done = PTHREAD_COND_INITIALIZER,
    .job = PTHREAD_MUTEX_INITIALIZER,
};

static _Thread_local bool in_chunk; /* this thread is running a chunk */
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

/* The cores this process may run on. */
static int core_count(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* After fork() the child has only the forking thread: it starts its own workers. */
static void after_fork_child(void)
{
    pthread_mutex_init(&pool.lock, NULL);
    pthread_mutex_init(&pool.job, NULL);
    pthread_cond_init(&pool.wake, NULL);
    pthread_cond_init(&pool.done, NULL);
    pool.started = 0;
}

/* A positive integer in environment variable name, else fallback. */
static int env_threads(const char *name, int fallback)
{
    const char *env = getenv(name);
    char *end = NULL;
    long v = env ? strtol(env, &end, 10) : 0;
    return env && end != env && *end == '\0' && v > 0 ? (int)(v < MAX_THREADS ? v : MAX_THREADS) : fallback;
}

/* The default budget, as PyTorch 1.13's intraop_default_num_threads: MKL_NUM_THREADS,
   else OMP_NUM_THREADS, when a positive integer; else c10's defaultNumThreads,
   std::thread::hardware_concurrency() (the online processors) halved on x86-64,
   at least 1. On a 2-processor machine that is 1 thread, as torch.get_num_threads()
   says there, and whole-tensor sums then add in the order PyTorch's do by default. */
static void init(void)
{
    int fallback = core_count();
#if defined(__x86_64__) || defined(_M_X64)
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    fallback = online > 1 ? (int)(online / 2 < MAX_THREADS ? online / 2 : MAX_THREADS) : 1;
#endif
    pool.threads = env_threads("MKL_NUM_THREADS", env_threads("OMP_NUM_THREADS", fallback));
    pthread_atfork(NULL, NULL, after_fork_child);
}

/* A job as a thread saw it when it woke. */
typedef struct job_view {
    uint32_t generation;
    nn_range_fn fn;
    void *ctx;
    int64_t n, grain, chunks;
    int helpers; /* workers 0 .. helpers-1 take part (the budget, less the caller) */
} job_view;

/* Claims and runs chunks of job j until none is left or j is over; the thread
   that finishes the last chunk wakes the caller. */
static void run_chunks(const job_view *j)
{
    in_chunk = true;
    uint64_t v = atomic_load_explicit(&pool.next, memory_order_acquire);
    for (;;) {
        if ((uint32_t)(v >> 32) != j->generation || (int64_t)(v & 0xffffffffu) >= j->chunks) break;
        if (!atomic_compare_exchange_weak_explicit(&pool.next, &v, v + 1, memory_order_acq_rel, memory_order_acquire))
            continue; /* v reloaded */
        int64_t c = (int64_t)(v & 0xffffffffu), begin = c * j->grain, end = begin + j->grain;
        j->fn(j->ctx, begin, end < j->n ? end : j->n);
        if (atomic_fetch_add_explicit(&pool.finished, 1, memory_order_acq_rel) + 1 == j->chunks) {
            pthread_mutex_lock(&pool.lock);
            pthread_cond_signal(&pool.done);
            pthread_mutex_unlock(&pool.lock);
        }
        v = atomic_load_explicit(&pool.next, memory_order_acquire);
    }
    in_chunk = false;
}

static void *worker_main(void *arg)
{
    int index = (int)(intptr_t)arg; /* 0 for the first worker */
    uint32_t seen = 0;
    pthread_mutex_lock(&pool.lock);
    seen = pool.generation;
    for (;;) {
        while (pool.generation == seen) pthread_cond_wait(&pool.wake, &pool.lock); /* asleep, not spinning */
        job_view j = {pool.generation, pool.fn, pool.ctx, pool.n, pool.grain, pool.chunks, pool.helpers};
        seen = j.generation;
        pthread_mutex_unlock(&pool.lock);
        if (index < j.helpers) run_chunks(&j);
        pthread_mutex_lock(&pool.lock);
    }
    return NULL;
}

/* Starts workers until there are want of them (fewer if the system refuses);
   called with pool.lock held. Workers block every signal: Ctrl-C stays with
   the thread that runs the language. */
static void start_workers(int want)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    while (pool.started < want) {
        pthread_t th;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        int rc = pthread_create(&th, &attr, worker_main, (void *)(intptr_t)pool.started);
        pthread_attr_destroy(&attr);
        if (rc != 0) break;
        pool.started++;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* The caller runs chunks beside the workers and waits only for chunks that a
   worker has claimed: a worker the scheduler wakes late (a loaded machine)
   finds the job over and costs the caller nothing. */
void nn_parallel_for(int64_t n, int64_t grain, nn_range_fn fn, void *ctx)
{
    if (n <= 0) return;
    if (grain < 1) grain = 1;
    pthread_once(&init_once, init);
    int64_t chunks = nn_chunk_count(n, grain);
    if (chunks < 2 || chunks > 0xffffffffLL || pool.threads < 2 || in_chunk || pthread_mutex_trylock(&pool.job) != 0) {
        for (int64_t c = 0; c < chunks; c++) {
            int64_t begin = c * grain, end = begin + grain;
            fn(ctx, begin, end < n ? end : n);
        }
        return;
    }
    pthread_mutex_lock(&pool.lock);
    int want = pool.threads - 1;
    if (want > chunks - 1) want = (int)(chunks - 1);
    if (pool.started < want) start_workers(want);
    job_view j = {pool.generation + 1, fn, ctx, n, grain, chunks, want};
    pool.generation = j.generation;
    pool.fn = fn, pool.ctx = ctx, pool.n = n, pool.grain = grain, pool.chunks = chunks, pool.helpers = want;
    atomic_store_explicit(&pool.finished, 0, memory_order_relaxed);
    atomic_store_explicit(&pool.next, (uint64_t)j.generation << 32, memory_order_release);
    if (pool.started) pthread_cond_broadcast(&pool.wake);
    pthread_mutex_unlock(&pool.lock);
    run_chunks(&j);
    pthread_mutex_lock(&pool.lock);
    while (atomic_load_explicit(&pool.finished, memory_order_acquire) < chunks) pthread_cond_wait(&pool.done, &pool.lock);
    pthread_mutex_unlock(&pool.lock);
    pthread_mutex_unlock(&pool.job);
}

int nn_get_num_threads(void)
{
    pthread_once(&init_once, init);
    return pool.threads;
}

int64_t nn_aten_range_length(int64_t n)
{
    int64_t threads = nn_get_num_threads(), need = (n + NN_GRAIN - 1) / NN_GRAIN;
    if (n < NN_GRAIN || threads <= 1) return n > 0 ? n : 1; /* a grain is never 0 */
    if (threads > need) threads = need;
    return (n + threads - 1) / threads;
}

int nn_set_num_threads(int n)
{
    if (n < 1) return nn_error_set(NN_ERR_RUNTIME, "set_num_threads expects a positive integer");
    pthread_once(&init_once, init);
    pthread_mutex_lock(&pool.job); /* not while a job runs */
    pool.threads = n < MAX_THREADS ? n : MAX_THREADS;
    pthread_mutex_unlock(&pool.job);
    return 0;
}

/* (nn_foreach_parallel, the CPU's elementwise host loop over threads: core/cpu/foreach.c) */

bool nn_parallel_in_chunk(void) { return in_chunk; }
