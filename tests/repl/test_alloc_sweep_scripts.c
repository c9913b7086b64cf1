/*
 * test_alloc_sweep_scripts.c — every script of tests/scripts under failing
 * allocations (issue 22): the script runs once with every allocation counted,
 * and at the allocations swept the run forks; the child sees that allocation
 * fail (a NULL from the allocator, as when memory runs out) and runs on to the
 * end of the script: it must end with its own output or an exception (never a
 * crash, a hang or a status that is neither), and the interpreter must then still
 * run a statement. The parent goes on with the allocation granted, so a script of
 * A allocations costs one run plus A short tails, not A runs from the start.
 *
 * `make test` sweeps the scripts in name order at a stride (the first
 * SWEEP_FIRST = 10 allocations of each, then every SWEEP_STRIDE = 4999th) for
 * SWEEP_SECONDS = 60 and says how far it got; `make sweep` sweeps every
 * allocation of every script (SWEEP_STRIDE=1; the whole of tests/scripts takes
 * hours on one core: SWEEP_SECONDS bounds it, SWEEP_ONLY picks one script).
 * Under `make asan` each child that ends runs LeakSanitizer's check, at the
 * stride SWEEP_LEAK_EVERY (every child with 1): nothing that the failure left
 * unreachable may stay allocated.
 * Environment: SWEEP_STRIDE, SWEEP_FIRST, SWEEP_FROM (strided allocations
 * below it are skipped: a sweep cut short goes on where it stopped),
 * SWEEP_SECONDS, SWEEP_LEAK_EVERY, SWEEP_ONLY (one script's name, e.g. basics.py).
 */
#include "test_util.h"

#include <dirent.h>
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "repl/bind.h"
#include "repl/repl.h"

/* LeakSanitizer's check, where the build has it (make asan) */
int __lsan_do_recoverable_leak_check(void) __attribute__((weak));

static long stride = 4999, first = 10, from = 0, leak_every = 50;
static double seconds = 60;
static bool verbose; /* SWEEP_VERBOSE: the children print */

static long n_alloc;          /* allocations of the current run */
static bool in_child;         /* this process is a child whose allocation failed */
static long failed_at;        /* in a child: the allocation that failed */
static long forks, crashes;   /* over the whole sweep */
static char report[4096];     /* the first failures, for the message */
static size_t report_len;
static double deadline;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void note(const char *fmt, const char *script, long n, int status)
{
    crashes++;
    if (report_len < sizeof report - 200)
        report_len += (size_t)snprintf(report + report_len, sizeof report - report_len, fmt, script, n, status);
}

static const char *current_script;

/* Whether allocation n of a run is swept. */
static bool swept(long n) { return n <= first || (n >= from && n % stride == 0); }

/* The allocator: counts; at an allocation swept, forks, and the child gets NULL. */
/* In a child, a crash is reported as the signal it is (cmocka's own handlers
   would turn it into a failed test, exit status 1); SWEEP_VERBOSE prints where. */
static void child_crash(int sig)
{
    if (verbose) {
        void *frames[64];
        backtrace_symbols_fd(frames, backtrace(frames, 64), 2);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void *sweep_alloc(void *ud, void *ptr, size_t size)
{
    (void)ud;
    if (size == 0) {
        free(ptr);
        return NULL;
    }
    ++n_alloc;
    if (!in_child && swept(n_alloc) && now_s() < deadline) {
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            in_child = true;
            failed_at = n_alloc;
            alarm(20); /* a hang is a failure too */
            signal(SIGSEGV, child_crash), signal(SIGBUS, child_crash), signal(SIGABRT, child_crash),
                signal(SIGFPE, child_crash), signal(SIGILL, child_crash), signal(SIGALRM, SIG_DFL);
            return NULL;
        }
        if (pid > 0) {
            int status;
            while (waitpid(pid, &status, 0) < 0) {}
            forks++;
            if (WIFSIGNALED(status))
                note("%s: allocation %ld failing: killed by signal %d\n", current_script, n_alloc, WTERMSIG(status));
            else if (WEXITSTATUS(status) != 0)
                note("%s: allocation %ld failing: the run's check failed (%d)\n", current_script, n_alloc,
                     WEXITSTATUS(status));
        }
    }
    return realloc(ptr, size);
}

static void discard(void *ud, const char *s, size_t n)
{
    (void)ud, (void)s, (void)n;
}

/* In a child, once the run ended: its status was one the interpreter gives, an
   exception is set where it failed, the next statement runs, nothing leaked. */
static void child_end(repl_interp *in, int rc)
{
    int code = 0;
    if (rc != 0 && rc != -1) code = 2;
    else if (rc < 0 && !repl_exception_name(in) && nn_error_current() != NN_ERR_MEMORY) code = 3;
    nn_error_clear();
    if (!code && repl_exec(in, "_sweep_ok = 1 + 1", "<after>", REPL_PARSE_FILE, NULL) != 0) code = 4;
    if (!code && __lsan_do_recoverable_leak_check && failed_at % leak_every == 0 && __lsan_do_recoverable_leak_check())
        code = 5;
    fflush(NULL);
    _exit(code);
}

/* One script: a run with the sweep's allocator; the allocations it made. */
static long sweep_script(const char *name, const char *source)
{
    repl_interp *in = repl_interp_new();
    assert_non_null(in);
    repl_set_writer(in, discard, NULL);
    current_script = name;
    n_alloc = 0;
    nn_alloc_fn old_fn;
    void *old_ud;
    nn_get_allocator(&old_fn, &old_ud);
    /* what the script or core prints past the writer (warnings on stderr) is not the test's */
    fflush(NULL);
    int saved_out = dup(1), saved_err = dup(2), null_fd = verbose ? -1 : open("/dev/null", O_WRONLY);
    if (null_fd >= 0) dup2(null_fd, 1), dup2(null_fd, 2), close(null_fd);
    nn_set_allocator(sweep_alloc, NULL);
    int rc = repl_exec(in, source, name, REPL_PARSE_FILE, NULL);
    if (in_child) child_end(in, rc);
    nn_set_allocator(old_fn, old_ud);
    fflush(NULL);
    dup2(saved_out, 1), dup2(saved_err, 2), close(saved_out), close(saved_err);
    nn_error_clear();
    repl_interp_free(in);
    nn_error_clear();
    return n_alloc;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void test_every_script(void **state)
{
    (void)state;
    const char *e;
    if ((e = getenv("SWEEP_STRIDE"))) stride = atol(e) > 0 ? atol(e) : 1;
    if ((e = getenv("SWEEP_FIRST"))) first = atol(e);
    if ((e = getenv("SWEEP_FROM"))) from = atol(e);
    if ((e = getenv("SWEEP_SECONDS"))) seconds = atof(e);
    if ((e = getenv("SWEEP_LEAK_EVERY"))) leak_every = atol(e) > 0 ? atol(e) : 1;
    const char *only = getenv("SWEEP_ONLY");
    verbose = getenv("SWEEP_VERBOSE") != NULL;
    nn_set_num_threads(1); /* a child of a fork has only the thread that forked */
    assert_int_equal(chdir("scripts"), 0);
    DIR *d = opendir(".");
    assert_non_null(d);
    char *names[2048];
    size_t n = 0;
    for (struct dirent *de; (de = readdir(d)) && n < 2048;) {
        size_t len = strlen(de->d_name);
        if (len > 3 && !strcmp(de->d_name + len - 3, ".py") && (!only || !strcmp(only, de->d_name)))
            names[n++] = strdup(de->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    double start = now_s();
    deadline = start + seconds;
    long allocations = 0, done = 0;
    for (size_t i = 0; i < n; i++) {
        if (now_s() < deadline) {
            char *source = tu_read_file(names[i]);
            allocations += sweep_script(names[i], source);
            free(source);
            if (now_s() < deadline) done++;
        }
        free(names[i]);
    }
    assert_int_equal(chdir(".."), 0);
    printf("# alloc sweep: %ld of %zu scripts swept whole (stride %ld after the first %ld), %ld allocations "
           "failed one at a time out of %ld, %ld failures, %.0f s\n",
           done, n, stride, first, forks, allocations, crashes, now_s() - start);
    if (crashes) fail_msg("%s", report);
    assert_true(forks > 0);
}

int main(void)
{
    repl_bindings_install();
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_every_script)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
