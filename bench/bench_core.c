/*
 * bench_core.c — core's speed figures, one `name value` line each on stdout
 * (see bench/README.md for what each means and its target):
 *
 *   small_add_us        nn_add of two 4x4 float32 tensors, allocation and release included
 *   sgemm1024_ms        nn_mm of two 1024x1024 float32 matrices
 *   cblas_sgemm1024_ms  cblas_sgemm on the same data, into a preallocated result
 *   sgemm1024_ratio     sgemm1024_ms / cblas_sgemm1024_ms
 *   gelu_1M_ms          nn_gelu over 1M float32 (nan while nn_gelu fails)
 *   add_1M_ms           nn_add of two 1M float32 tensors, the result allocated each time
 *   sum_1M_ms           nn_sum of all of a 1M float32 tensor
 *   sin_1M_ms           nn_sin over 1M float32
 *   softmax_1M_ms       nn_softmax over the last dim of a [1024, 1024] float32 tensor
 *
 * Each figure is the median of several timed repetitions after warm-up runs:
 * the machine is shared and noisy. The same lines also go to the file named
 * by $NNSCOPE_BENCH_FILE (default $TMPDIR/nnscope-bench-$UID.txt, TMPDIR
 * defaulting to /tmp), where bench/peer_torch.py reads them for its ratios.
 * `bench_core --serve` times one round of a 1M op per request, for
 * peer_torch.py's paired rounds (see serve below).
 */
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nn.h"
#include "nn_data.h" /* core's private nn_data_ptr, to fill inputs */
#include "bench_util.h"

#define REPS 9

/* float32 values in [-1, 1) from a fixed LCG (independent of core's generator) */
static nn_tensor *random_tensor(int ndim, const int64_t *sizes)
{
    nn_tensor *t = nn_empty(ndim, sizes, NN_FLOAT32);
    if (!t) bench_die("nn_empty");
    static uint32_t state = 12345;
    float *d = nn_data_ptr(t);
    for (int64_t i = 0; i < nn_numel(t); i++) {
        state = state * 1664525u + 1013904223u;
        d[i] = (float)(state >> 8) / 8388608.0f - 1.0f;
    }
    return t;
}

/* ------------------------------------------------------------- small add */

static double small_add_us(void)
{
    const int64_t shape[2] = {4, 4};
    nn_tensor *a = random_tensor(2, shape), *b = random_tensor(2, shape);
    const int iters = 200000;
    double reps[REPS];
    for (int r = -2; r < REPS; r++) { /* two warm-up rounds */
        double t0 = bench_now_s();
        for (int i = 0; i < iters; i++) {
            nn_tensor *c = nn_add(a, b);
            if (!c) bench_die("nn_add");
            NN_RELEASE(c);
        }
        if (r >= 0) reps[r] = (bench_now_s() - t0) / iters * 1e6;
    }
    NN_RELEASE(a);
    NN_RELEASE(b);
    return bench_median(reps, REPS);
}

/* ------------------------------------------------------------------ sgemm */

static void sgemm1024(double *ours_ms, double *direct_ms)
{
    const int n = 1024;
    const int64_t shape[2] = {n, n};
    nn_tensor *a = random_tensor(2, shape), *b = random_tensor(2, shape);
    float *c = malloc(sizeof(float) * (size_t)n * n);
    if (!c) bench_die("malloc");
    const float *pa = nn_data_ptr(a), *pb = nn_data_ptr(b);
    double ours[REPS], direct[REPS];
    /* interleaved, so drifting machine load hits both alike */
    for (int r = -1; r < REPS; r++) {
        double t0 = bench_now_s();
        nn_tensor *p = nn_mm(a, b);
        if (!p) bench_die("nn_mm");
        NN_RELEASE(p);
        double t1 = bench_now_s();
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, pa, n, pb, n, 0.0f, c, n);
        double t2 = bench_now_s();
        if (r >= 0) {
            ours[r] = (t1 - t0) * 1e3;
            direct[r] = (t2 - t1) * 1e3;
        }
    }
    free(c);
    NN_RELEASE(a);
    NN_RELEASE(b);
    *ours_ms = bench_median(ours, REPS);
    *direct_ms = bench_median(direct, REPS);
}

/* ------------------------------------------------------------------- gelu */

static double gelu_1M_ms(void)
{
    const int64_t n = 1 << 20;
    const int calls = 10; /* per repetition, as peer_torch.py times it */
    nn_tensor *x = random_tensor(1, &n);
    double reps[REPS];
    double result = NAN;
    for (int r = -2; r < REPS; r++) {
        double t0 = bench_now_s();
        for (int c = 0; c < calls; c++) {
            nn_tensor *y = nn_gelu(x, NN_GELU_NONE);
            if (!y) {
                fprintf(stderr, "# gelu_1M_ms: nn_gelu failed: %s\n", nn_error_message());
                nn_error_clear();
                goto done;
            }
            NN_RELEASE(y);
        }
        if (r >= 0) reps[r] = (bench_now_s() - t0) * 1e3 / calls;
    }
    result = bench_median(reps, REPS);
done:
    NN_RELEASE(x);
    return result;
}

/* ------------------------------------------------------------ add, sum */

/* milliseconds per call of nn_add (sum: false) or nn_sum over 1M float32, as
   peer_torch.py times torch.add / torch.sum: 10 calls a repetition */
static double big_1M_ms(bool sum)
{
    const int64_t n = 1 << 20;
    const int calls = 10;
    nn_tensor *x = random_tensor(1, &n), *y = random_tensor(1, &n);
    double reps[REPS];
    for (int r = -2; r < REPS; r++) {
        double t0 = bench_now_s();
        for (int c = 0; c < calls; c++) {
            nn_tensor *z = sum ? nn_sum(x, 0, NULL, false) : nn_add(x, y);
            if (!z) bench_die(sum ? "nn_sum" : "nn_add");
            NN_RELEASE(z);
        }
        if (r >= 0) reps[r] = (bench_now_s() - t0) * 1e3 / calls;
    }
    NN_RELEASE(x);
    NN_RELEASE(y);
    return bench_median(reps, REPS);
}

/* ------------------------------------------------------------ sin, softmax */

/* milliseconds per call of nn_sin (softmax: false) over 1M float32, or of
   nn_softmax over the rows of a [1024, 1024], 10 calls a repetition as
   peer_torch.py times torch.sin / torch.softmax */
static double elementwise_1M_ms(bool softmax)
{
    const int64_t sizes[2] = {1024, 1024}, n = 1 << 20;
    const int calls = 10;
    nn_tensor *x = softmax ? random_tensor(2, sizes) : random_tensor(1, &n);
    double reps[REPS];
    for (int r = -2; r < REPS; r++) {
        double t0 = bench_now_s();
        for (int c = 0; c < calls; c++) {
            nn_tensor *z = softmax ? nn_softmax(x, -1) : nn_sin(x);
            if (!z) bench_die(softmax ? "nn_softmax" : "nn_sin");
            NN_RELEASE(z);
        }
        if (r >= 0) reps[r] = (bench_now_s() - t0) * 1e3 / calls;
    }
    NN_RELEASE(x);
    return bench_median(reps, REPS);
}

/* ------------------------------------------------------ paired rounds */

/* `bench_core --serve`: bench/peer_torch.py runs this program beside PyTorch and
   alternates rounds of the two, so that both sides of a ratio are measured in the
   same seconds of a shared machine. Each line read names an op (gelu, add, sum, sin,
   softmax); the answer is one line, milliseconds per call over a round of 10 calls,
   as in the figures above. Ends at end of input; an unknown name answers nan. */
static int serve(void)
{
    const int64_t n = 1 << 20, sizes[2] = {1024, 1024};
    nn_tensor *x = random_tensor(1, &n), *y = random_tensor(1, &n), *rows = random_tensor(2, sizes);
    static const char *const names[] = {"gelu", "add", "sum", "sin", "softmax"};
    char line[64];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        int kind = -1;
        for (int k = 0; k < 5; k++)
            if (strcmp(line, names[k]) == 0) kind = k;
        double ms = NAN;
        if (kind >= 0) {
            const int calls = 10;
            double t0 = bench_now_s();
            for (int c = 0; c < calls; c++) {
                nn_tensor *z = kind == 0   ? nn_gelu(x, NN_GELU_NONE)
                               : kind == 1 ? nn_add(x, y)
                               : kind == 2 ? nn_sum(x, 0, NULL, false)
                               : kind == 3 ? nn_sin(x)
                                           : nn_softmax(rows, -1);
                if (!z) bench_die(names[kind]);
                NN_RELEASE(z);
            }
            ms = (bench_now_s() - t0) * 1e3 / calls;
        }
        printf("%.6g\n", ms);
        fflush(stdout);
    }
    NN_RELEASE(x);
    NN_RELEASE(y);
    NN_RELEASE(rows);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--serve") == 0) return serve();
    bench_open("bench_core", "w");

    bench_report("small_add_us", small_add_us());
    double ours, direct;
    sgemm1024(&ours, &direct);
    bench_report("sgemm1024_ms", ours);
    bench_report("cblas_sgemm1024_ms", direct);
    bench_report("sgemm1024_ratio", ours / direct);
    bench_report("gelu_1M_ms", gelu_1M_ms());
    bench_report("add_1M_ms", big_1M_ms(false));
    bench_report("sum_1M_ms", big_1M_ms(true));
    bench_report("sin_1M_ms", elementwise_1M_ms(false));
    bench_report("softmax_1M_ms", elementwise_1M_ms(true));
    bench_close();
    return 0;
}
