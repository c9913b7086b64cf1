/*
 * test_util.h — helpers shared by the cmocka test programs.
 */
#ifndef TEST_UTIL_H
#define TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "nn.h"
#include "nn_data.h" /* core's private nn_data_ptr: tests check kernels' bytes */

/* A float32 (or dtype) tensor from values, shaped by sizes; new reference; fails the test on error. */
nn_tensor *tu_tensor(nn_dtype dtype, int ndim, const int64_t *sizes, const double *values);
#define TU_SHAPE(...) ((const int64_t[]){__VA_ARGS__})
#define TU_VALUES(...) ((const double[]){__VA_ARGS__})
/* Asserts t has the shape and values (within tol, relative+absolute). */
void tu_assert_values(const nn_tensor *t, int ndim, const int64_t *sizes, const double *values, double tol);
/* Asserts the current error has kind and its message contains needle; clears it. */
void tu_assert_error(nn_error_kind kind, const char *needle);
/* Fails the test with the current error message when ptr is NULL (returns ptr). */
void *tu_ok(void *ptr);
#define TU_OK(expr) tu_ok((void *)(expr))
/* Asserts a status is 0, printing the current error otherwise. */
void tu_check(int status);
/* The dtype named "float32" or "torch.float32" (fixtures); fails the test otherwise. */
nn_dtype tu_dtype(const char *name);
/* A fixture tensor written "DTYPE NDIM SIZES... VALUES..." at *p (advanced past
   it); a new reference; fails the test when the text is short. */
nn_tensor *tu_parse_tensor(char **p);
/* Fault injection: an allocator (install with nn_set_allocator) that counts
   allocations in tu_alloc_count and fails the one numbered tu_fail_at (from 1;
   -1 or 0: none), so a test can fail every allocation of a workload in turn. */
extern long tu_fail_at, tu_alloc_count;
void *tu_failing_alloc(void *ud, void *ptr, size_t n);
/* Saves the current allocator in *saved and installs tu_failing_alloc with its
   counters reset (nothing fails yet); tu_restore_allocator puts *saved back. */
typedef struct tu_allocator {
    nn_alloc_fn fn;
    void *ud;
} tu_allocator;
void tu_install_failing_alloc(tu_allocator *saved);
void tu_restore_allocator(const tu_allocator *saved);
/* Transcripts: tu_logf appends a printf-formatted line; tu_transcript_compare
   checks them line by line against a fixture ("values" lines numerically within
   tol, the rest exactly) and resets; tu_transcript_reset drops them. */
void tu_logf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tu_transcript_compare(const char *path, double tol);
void tu_transcript_reset(void);
/* The lines logged since the last reset (borrowed). */
const char *tu_transcript(void);
/* Reads a whole file (from tests/) into a new malloc'd string; fails when missing. */
char *tu_read_file(const char *path);
/* Output capture: tu_capture_write is a writer callback (repl_set_writer's
   shape) appending to c->buf, kept NUL-terminated; start from {0}, free(buf). */
typedef struct tu_capture {
    char *buf;
    size_t len, cap;
} tu_capture;
void tu_capture_write(void *ud, const char *s, size_t n);
/* Empties c (buf becomes ""). */
void tu_capture_reset(tu_capture *c);
/* kill -9 tests: runs child(path, notify_fd) in a new process, waits for its
   notification byte, lets it run up to max_us more microseconds and kills it
   with SIGKILL (asserting that it died of the signal). */
void tu_run_and_kill(void (*child)(const char *path, int notify_fd), const char *path, unsigned max_us);

/* cmocka group setup/teardown: the loopback test device registered (poisoned) in
   CUDA's place for the group, then forgotten. */
int tu_loopback_setup(void **state);
int tu_loopback_teardown(void **state);

/* A xorshift64 step: the next of a test's own fixed pseudo-random sequence
   (*state nonzero), independent of core's generator. */
static inline uint64_t tu_xorshift64(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

#endif
