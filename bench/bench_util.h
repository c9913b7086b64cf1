/*
 * bench_util.h — what the benchmark programs share (each is one .c file, so
 * these are static inline): a monotonic clock, the median of repetitions, and
 * the figures, printed as `name value` lines and appended to the file named by
 * $NNSCOPE_BENCH_FILE (default $TMPDIR/nnscope-bench-$UID.txt, TMPDIR
 * defaulting to /tmp), where bench/peer_torch.py reads them for its ratios.
 */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "nn.h"

static FILE *bench_results;   /* the figures file, or NULL: stdout only */
static const char *bench_name = "bench"; /* the program, for messages (bench_open sets it) */

/* Opens the figures file: mode "w" starts it (the first benchmark), "a" adds to it. */
static inline void bench_open(const char *program, const char *mode)
{
    char path[4096];
    const char *env = getenv("NNSCOPE_BENCH_FILE"), *tmp = getenv("TMPDIR");
    if (env && *env) snprintf(path, sizeof path, "%s", env);
    else snprintf(path, sizeof path, "%s/nnscope-bench-%u.txt", tmp && *tmp ? tmp : "/tmp", (unsigned)getuid());
    bench_name = program;
    bench_results = fopen(path, mode);
    if (!bench_results) fprintf(stderr, "# %s: cannot write %s; figures go to stdout only\n", program, path);
}

/* Stops the program on a failed core call: what failed and the error. */
static inline void bench_die(const char *what)
{
    fprintf(stderr, "%s: %s: %s: %s\n", bench_name, what, nn_error_kind_name(nn_error_current()), nn_error_message());
    exit(1);
}

static inline void bench_close(void)
{
    if (bench_results) fclose(bench_results);
    bench_results = NULL;
}

/* One figure: on stdout and in the figures file. */
static inline void bench_report(const char *name, double value)
{
    printf("%s %.4g\n", name, value);
    if (bench_results) fprintf(bench_results, "%s %.6g\n", name, value);
}

/* Seconds on the monotonic clock. */
static inline double bench_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts v ascending (no NaN in it). */
static inline void bench_sort(double *v, int n) { qsort(v, (size_t)n, sizeof *v, bench_cmp_double); }

/* The median of v (sorted in place); NaN when any repetition is NaN (failed). */
static inline double bench_median(double *v, int n)
{
    for (int i = 0; i < n; i++)
        if (isnan(v[i])) return NAN;
    bench_sort(v, n);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#endif
