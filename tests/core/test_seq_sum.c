/*
 * test_seq_sum.c — core/cpu/seq_sum.c adds squared deviations a group at a time
 * and must give the bits of the plain left-to-right loop (PyTorch 1.13's
 * std_var_all_cpu, which torch.var/std of a whole float32 tensor use; the
 * script test reduce_var_norm checks those bits against PyTorch itself). The
 * reference here is that loop, written out; the inputs are made to hit every
 * way a group can leave the fast path: halfway terms (values with few mantissa
 * bits: ties), binade crossings (the early terms, sums near powers of two),
 * NaN and infinities, huge and tiny and subnormal values, zero terms, a
 * starting sum, lengths around the group size.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "cpu/nn_vmath.h"

static double plain(const float *x, int64_t n, double mean, double acc)
{
    for (int64_t i = 0; i < n; i++) {
        double dx = (double)x[i] - mean;
        acc += dx * dx;
    }
    return acc;
}

static uint64_t state = 0x9E3779B97F4A7C15u;
static uint64_t next_u64(void) { return tu_xorshift64(&state); }
static double uniform(void) { return (double)(next_u64() >> 11) * 0x1p-53; }
static double normal(void) { return sqrt(-2 * log(uniform() + 0x1p-60)) * cos(6.283185307179586 * uniform()); }

/* the same bits, or a message naming the case */
static void check(const char *what, const float *x, int64_t n, double mean, double acc)
{
    double want = plain(x, n, mean, acc), got = nn_cpu_seq_sq_dev_f32(x, n, mean, acc);
    if (memcmp(&want, &got, sizeof want) != 0 && !(isnan(want) && isnan(got)))
        fail_msg("%s (n=%lld, mean=%a, acc=%a): plain loop %a, seq_sum %a", what, (long long)n, mean, acc, want, got);
}

/* x[i] drawn by kind: 0 normal, 1 few mantissa bits (multiples of 1/8 in
   [-8, 8]: many ties), 2 normal times 2^(-60..60), 3 integers, 4 a constant */
static void fill(float *x, int64_t n, int kind, double scale, double shift)
{
    for (int64_t i = 0; i < n; i++) {
        double v;
        switch (kind) {
        case 0: v = normal(); break;
        case 1: v = floor(normal() * 8 * 2) / 8; break;
        case 2: v = ldexp(normal(), (int)(next_u64() % 121) - 60); break;
        case 3: v = (double)(int)(normal() * 100); break;
        default: v = 0.75; break;
        }
        x[i] = (float)(v * scale + shift);
    }
}

/* float32 mean as var/std take it (sum / n in float), or a double one */
static double mean_of(const float *x, int64_t n, bool float_mean)
{
    double s = 0;
    for (int64_t i = 0; i < n; i++) s += x[i];
    return float_mean ? (double)(float)(s / (double)n) : s / (double)n;
}

static void test_random_inputs(void **st)
{
    (void)st;
    static const int64_t lengths[] = {0, 1, 7, 31, 32, 33, 63, 64, 65, 100, 1000, 4096, 32768, 100003};
    float *x = malloc(sizeof(float) * 100003);
    assert_non_null(x);
    for (int kind = 0; kind < 5; kind++)
        for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++)
            for (int rep = 0; rep < 3; rep++) {
                int64_t n = lengths[l];
                double scale = rep == 0 ? 1 : rep == 1 ? 1e-3 : 3e4, shift = rep == 2 ? 1 : 0;
                fill(x, n, kind, scale, shift);
                char what[64];
                snprintf(what, sizeof what, "kind %d rep %d", kind, rep);
                check(what, x, n, mean_of(x, n, true), 0);
                check(what, x, n, mean_of(x, n, false), 0);
                check(what, x, n, 0.0, 0);
                check(what, x, n, 0.125, 1e6);        /* a starting sum much larger than the terms */
                check(what, x, n, -3.0, ldexp(1.0, 20)); /* the start at a power of two */
            }
    free(x);
}

/* sums that cross powers of two within a group, again and again: terms of
   exactly 1, 2 and 0.5 (every sum is a grid point, every term on the grid) */
static void test_crossings_and_ties(void **st)
{
    (void)st;
    float x[4096];
    for (int i = 0; i < 4096; i++) x[i] = (float)(i % 3 == 0 ? 1.0 : i % 3 == 1 ? sqrt(2.0) : sqrt(0.5));
    check("grid terms", x, 4096, 0.0, 0);
    check("grid terms from 3", x, 4096, 0.0, 3);
    /* terms of 3/2^k: ties against almost every grid once the sum is large */
    for (int i = 0; i < 4096; i++) x[i] = (float)ldexp(3.0, -(i % 40));
    check("three over powers of two", x, 4096, 0.0, 0);
    check("three over powers of two, started", x, 4096, 0.0, 1.0 + 0x1p-30);
    for (int i = 0; i < 4096; i++) x[i] = 1.5f;
    for (double acc = 1; acc < 1e6; acc = acc * 3 + 0.5) check("a constant 1.5", x, 4096, 0.25, acc);
}

static void test_special_values(void **st)
{
    (void)st;
    float x[300];
    fill(x, 300, 0, 1, 0);
    static const float specials[] = {NAN, INFINITY, -INFINITY, FLT_MAX, -FLT_MAX, FLT_MIN, 0x1p-149f, 0.0f, -0.0f};
    for (size_t s = 0; s < sizeof specials / sizeof specials[0]; s++)
        for (int at = 0; at < 300; at += 37) {
            float keep = x[at];
            x[at] = specials[s];
            char what[64];
            snprintf(what, sizeof what, "special %zu at %d", s, at);
            check(what, x, 300, 0.5, 0);
            check(what, x, 300, 0.5, 10);
            x[at] = keep;
        }
    /* starting sums at the ends of the fast path's range and beyond */
    static const double starts[] = {0x1p-401, 0x1p-400, 0x1p-399, 0x1p899, 0x1p900, 0x1p1000, DBL_MAX, INFINITY, NAN, -1.0, -0.0, 0x1p-1074};
    for (size_t s = 0; s < sizeof starts / sizeof starts[0]; s++) check("start", x, 300, 0.0, starts[s]);
    /* huge and tiny terms: squares that overflow, or underflow to subnormals */
    for (int i = 0; i < 300; i++) x[i] = (float)ldexp(normal(), i % 2 ? 120 : -140);
    check("huge and tiny", x, 300, 0.0, 0);
    check("huge and tiny, started", x, 300, 0.0, 1e-300);
    for (int i = 0; i < 300; i++) x[i] = (float)ldexp(normal(), -149 + i % 30);
    check("subnormal inputs", x, 300, 0.0, 0);
    check("subnormal inputs, started", x, 300, 0.0, 0x1p-300);
}

/* what torch.var/std of a whole tensor return is built on it: the plain loop's value */
static void test_var_of_tensor(void **st)
{
    (void)st;
    int64_t n = 50000;
    nn_tensor *x = nn_randn(1, &n, NN_FLOAT32);
    assert_non_null(x);
    nn_tensor *hold = NULL;
    const float *data = nn_host_read(x, &hold);
    assert_non_null(data);
    nn_tensor *m = nn_mean(x, 0, NULL, false), *v = nn_var(x, 0, NULL, true, false);
    assert_non_null(m);
    assert_non_null(v);
    double mean_d, var_d;
    assert_int_equal(nn_item(m, &mean_d), 0);
    assert_int_equal(nn_item(v, &var_d), 0);
    float mean = (float)mean_d, var = (float)var_d; /* float32 values: exact */
    float want = (float)(plain(data, n, mean, 0) / (double)(n - 1));
    assert_memory_equal(&want, &var, sizeof var);
    NN_RELEASE(m);
    NN_RELEASE(v);
    NN_RELEASE(hold);
    NN_RELEASE(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_inputs),
        cmocka_unit_test(test_crossings_and_ties),
        cmocka_unit_test(test_special_values),
        cmocka_unit_test(test_var_of_tensor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
