/*
 * fuzz.h — what the libFuzzer targets (fuzz/fuzz_*.c) share: a per-allocation
 * cap so that a fuzzed size is a MemoryError rather than the fuzzer's own
 * out-of-memory report, a watchdog that raises Ctrl-C (nn_interrupt_requested)
 * when one input runs past its time, and a scratch directory to run in.
 * Included once by each target; `make test` builds the targets without the
 * fuzzer through tests/repl/test_fuzz_regress.c, which replays tests/fuzz/.
 */
#ifndef NNSCOPE_FUZZ_H
#define NNSCOPE_FUZZ_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nn.h"

/* No single allocation above this: a fuzzed `torch.zeros(10**9)` fails with MemoryError. */
#define FUZZ_ALLOC_MAX ((size_t)256 << 20)

static void *fuzz_alloc(void *ud, void *ptr, size_t n)
{
    (void)ud;
    if (n == 0) {
        free(ptr);
        return NULL;
    }
    if (n > FUZZ_ALLOC_MAX) return NULL;
    return realloc(ptr, n);
}

/* The watchdog: while an input runs past its deadline, Ctrl-C is requested every
   50 ms (a loop that swallows one KeyboardInterrupt gets the next). */
static volatile double fuzz_deadline; /* CLOCK_MONOTONIC seconds; 0: none */

static double fuzz_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *fuzz_watchdog(void *arg)
{
    (void)arg;
    for (;;) {
        usleep(50000);
        double d = fuzz_deadline;
        if (d > 0 && fuzz_now() > d) nn_interrupt_requested = 1;
    }
    return NULL;
}

static char fuzz_dir[64];

/* At exit: the working directory goes if it is empty. */
static void fuzz_cleanup(void)
{
    if (chdir("/") == 0) rmdir(fuzz_dir);
}

/* Once per process: the allocator cap, the watchdog, a private working directory
   (what a fuzzed program writes lands there). */
static void fuzz_setup(void)
{
    static int done;
    if (done) return;
    done = 1;
    nn_set_allocator(fuzz_alloc, NULL);
    pthread_t t;
    if (pthread_create(&t, NULL, fuzz_watchdog, NULL) == 0) pthread_detach(t);
    /* in memory where there is /dev/shm: SQLite's syncs then cost nothing */
    snprintf(fuzz_dir, sizeof fuzz_dir, "%s/nnscope-fuzz-XXXXXX", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    if (!mkdtemp(fuzz_dir)) return;
    if (chdir(fuzz_dir) == 0) atexit(fuzz_cleanup);
}

/* Runs the next input for at most seconds. */
static void fuzz_start(double seconds)
{
    nn_interrupt_requested = 0;
    fuzz_deadline = fuzz_now() + seconds;
}

static void fuzz_stop(void)
{
    fuzz_deadline = 0;
    nn_interrupt_requested = 0;
    nn_error_clear();
}

/* A NUL-terminated malloc'd copy of the input. */
__attribute__((unused)) static char *fuzz_cstr(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s) abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

#endif
