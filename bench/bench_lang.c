/*
 * bench_lang.c — the language's figures: nnscope (the build's own, beside this
 * program: $(BUILD)/nnscope) against CPython running the very same code:
 *   startup_ms         `nnscope -c pass`
 *   cpython_startup_ms `python3 -c pass`
 *   torch_startup_ms   `python3 -c 'import torch'` (only when torch imports)
 *   repl_small_add_us  per `c = a + b` of two 4x4 float32 tensors in a language loop
 *   torch_repl_small_add_us  the same script under python3 with PyTorch
 *   loop_us            per iteration of a plain `for i in range(1000000)` arithmetic loop
 *   cpython_loop_us    the same script under python3
 *   loop_ratio         loop_us / cpython_loop_us
 *   gen_us, cpython_gen_us, gen_ratio   per item of `sum(x * x for x in range(N))`
 *   call_us, cpython_call_us, call_ratio  per call of a small Python function in a loop
 * Times are CPU seconds (user + system) of the child, from wait4: this machine is
 * shared, and wall time there mostly measures the wait for a core. Each figure is
 * the median of REPS runs, ours and the peer's interleaved. The loop figures
 * subtract the same script run with a zero count (startup, import, setup), so they
 * are the loop's cost alone, for us and for the peer alike.
 * Figures are appended to $NNSCOPE_BENCH_FILE, as bench_core's and bench_module's.
 */
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_util.h"

#define REPS 5
#define PYTHON "/usr/bin/python3"
#define ADDS 200000
#define LOOPS 1000000

/* Runs program -c code (nnscope with --no-record) with its output to /dev/null; the child's CPU seconds, or
   NaN when it could not run or did not exit 0. */
static double run_cpu_s(const char *program, const char *code)
{
    pid_t pid = fork();
    if (pid < 0) return NAN;
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, 1), dup2(null, 2);
        if (strcmp(program, PYTHON) == 0) execl(program, program, "-c", code, (char *)NULL);
        else execl(program, program, "--no-record", "-c", code, (char *)NULL); /* the language alone */
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return NAN;
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
           (double)ru.ru_stime.tv_usec * 1e-6;
}

/* A benchmark script: its code with count iterations; code has one %d. */
static char *script(const char *code, int count)
{
    char *s = malloc(strlen(code) + 16);
    if (!s) exit(1);
    sprintf(s, code, count);
    return s;
}

/* One figure for each program (NULL: skipped, NaN): the median over REPS runs of
   seconds per iteration of code with `count` iterations minus the same with 0
   (count 0: plain seconds per run). Runs interleave the programs. */
static void measure(const char *code, int count, const char *const programs[2], double out[2])
{
    char *full = script(code, count), *empty = script(code, 0);
    double t[2][REPS];
    for (int r = 0; r < REPS; r++)
        for (int p = 0; p < 2; p++) {
            if (!programs[p]) continue;
            double s = run_cpu_s(programs[p], full);
            t[p][r] = count ? (s - run_cpu_s(programs[p], empty)) / count : s;
        }
    for (int p = 0; p < 2; p++) out[p] = programs[p] ? bench_median(t[p], REPS) : NAN;
    free(full);
    free(empty);
}

static const char ADD_CODE[] = "import torch\n"
                               "a = torch.randn(4, 4)\n"
                               "b = torch.randn(4, 4)\n"
                               "for i in range(%d):\n"
                               "    c = a + b\n";
static const char LOOP_CODE[] = "s = 0\n"
                                "for i in range(%d):\n"
                                "    s = s + i * 3 %% 7\n"
                                "print(s)\n";

static const char GEN_CODE[] = "print(sum(x * x for x in range(%d)))\n";
static const char CALL_CODE[] = "def f(a, b):\n"
                                "    return a + b\n"
                                "s = 0\n"
                                "for i in range(%d):\n"
                                "    s = f(s, i)\n"
                                "print(s)\n";

/* name_us (ours), cpython_name_us and name_ratio for code run count times. */
static void compare(const char *name, const char *code, int count, const char *nnscope, bool python)
{
    double t[2];
    char key[64];
    measure(code, count, (const char *[]){nnscope, python ? PYTHON : NULL}, t);
    snprintf(key, sizeof key, "%s_us", name);
    bench_report(key, t[0] * 1e6);
    if (!python) return;
    snprintf(key, sizeof key, "cpython_%s_us", name);
    bench_report(key, t[1] * 1e6);
    snprintf(key, sizeof key, "%s_ratio", name);
    bench_report(key, t[0] / t[1]);
}

int main(int argc, char **argv)
{
    (void)argc;
    bench_open("bench_lang", "a");

    /* the nnscope of the same build: $(BUILD)/bench/bench_lang -> $(BUILD)/nnscope */
    char self[4096], nnscope[4200];
    snprintf(self, sizeof self, "%s", argv[0]);
    snprintf(nnscope, sizeof nnscope, "%s/../nnscope", dirname(self));
    if (access(nnscope, X_OK) != 0) {
        fprintf(stderr, "bench_lang: %s not found: build it first (make bench does)\n", nnscope);
        return 1;
    }
    bool python = access(PYTHON, X_OK) == 0;
    bool torch = python && !isnan(run_cpu_s(PYTHON, "import torch"));
    if (!python) printf("# bench_lang: %s not found: CPython figures skipped\n", PYTHON);
    else if (!torch) printf("# bench_lang: PyTorch not found: torch figures skipped\n");

    double startup[2], torch_startup[2], add[2], loop[2];
    measure("pass", 0, (const char *[]){nnscope, python ? PYTHON : NULL}, startup);
    bench_report("startup_ms", startup[0] * 1e3);
    if (python) bench_report("cpython_startup_ms", startup[1] * 1e3);
    if (torch) {
        measure("import torch", 0, (const char *[]){NULL, PYTHON}, torch_startup);
        bench_report("torch_startup_ms", torch_startup[1] * 1e3);
    }

    measure(ADD_CODE, ADDS, (const char *[]){nnscope, torch ? PYTHON : NULL}, add);
    bench_report("repl_small_add_us", add[0] * 1e6);
    if (torch) bench_report("torch_repl_small_add_us", add[1] * 1e6);

    measure(LOOP_CODE, LOOPS, (const char *[]){nnscope, python ? PYTHON : NULL}, loop);
    bench_report("loop_us", loop[0] * 1e6);
    if (python) {
        bench_report("cpython_loop_us", loop[1] * 1e6);
        bench_report("loop_ratio", loop[0] / loop[1]);
    }
    compare("gen", GEN_CODE, LOOPS, nnscope, python);
    compare("call", CALL_CODE, LOOPS, nnscope, python);
    bench_close();
    return 0;
}
