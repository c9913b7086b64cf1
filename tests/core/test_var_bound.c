/*
 * test_var_bound.c — core/cpu/var_bound.c decides var/std of a whole float32
 * tensor from an estimate of the sequential double sum and its error bound.
 * Whenever it answers, the answer must be the float the sequential sum gives
 * (the plain loop, written out here: PyTorch 1.13's std_var_all_cpu; the
 * script test reduce_var_norm checks torch.var/std against PyTorch itself);
 * where the bound straddles a float's rounding boundary it must decline. The
 * inputs: normal, ties-prone (few mantissa bits), integers, constants, huge,
 * tiny and subnormal values, NaN and infinities, lengths on both sides of the
 * chunked path; results made to fall exactly on a rounding boundary.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "cpu/nn_vmath.h"
#include "nn_parallel.h"

static float exact(const float *x, int64_t n, double mean, double dof, bool take_sqrt)
{
    double acc = 0;
    for (int64_t i = 0; i < n; i++) {
        double dx = (double)x[i] - mean;
        acc += dx * dx;
    }
    double var = acc / dof;
    return (float)(take_sqrt ? sqrt(var) : var);
}

static uint64_t state = 0x2545F4914F6CDD1Du;
static double uniform(void) { return (double)(tu_xorshift64(&state) >> 11) * 0x1p-53; }
static double normal(void) { return sqrt(-2 * log(uniform() + 0x1p-60)) * cos(6.283185307179586 * uniform()); }

static int answered, declined;

/* an answer is the exact float; returns whether it answered */
static bool check(const char *what, const float *x, int64_t n, double mean, double dof, bool take_sqrt)
{
    float got = -1;
    if (!nn_cpu_var_all_f32_bounded(x, n, mean, dof, take_sqrt, &got)) {
        declined += dof > 0; /* no degrees of freedom: always the caller's */
        assert_true(got == -1); /* nothing written */
        return false;
    }
    answered++;
    float want = exact(x, n, mean, dof, take_sqrt);
    if (memcmp(&want, &got, sizeof want) != 0)
        fail_msg("%s (n=%lld, mean=%a, dof=%g, sqrt=%d): sequential %a, bounded %a", what, (long long)n, mean, dof,
                 take_sqrt, (double)want, (double)got);
    return true;
}

static double mean_of(const float *x, int64_t n)
{
    double s = 0;
    for (int64_t i = 0; i < n; i++) s += x[i];
    return (double)(float)(s / (double)n);
}

static void test_random_inputs(void **st)
{
    (void)st;
    static const int64_t lengths[] = {1, 2, 15, 16, 17, 100, 4096, 32768, 65536, 65537, 200003};
    float *x = malloc(sizeof(float) * 200003);
    assert_non_null(x);
    answered = declined = 0;
    for (int kind = 0; kind < 6; kind++)
        for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++)
            for (int rep = 0; rep < 4; rep++) {
                int64_t n = lengths[l];
                for (int64_t i = 0; i < n; i++) {
                    double g = normal(), v;
                    switch (kind) {
                    case 0: v = g; break;
                    case 1: v = floor(g * 16) / 8; break;         /* few mantissa bits */
                    case 2: v = (double)(int)(g * 100); break;    /* integers */
                    case 3: v = 0.75; break;                      /* a constant: a zero sum */
                    case 4: v = ldexp(g, (int)(i % 61) - 30); break;
                    default: v = g > 0 ? g : 0; break;            /* ReLU's output */
                    }
                    x[i] = (float)(v * (rep == 1 ? 1e-3 : rep == 2 ? 3e4 : 1) + (rep == 3 ? 1 : 0));
                }
                char what[64];
                snprintf(what, sizeof what, "kind %d rep %d", kind, rep);
                double m = mean_of(x, n);
                check(what, x, n, m, (double)n - 1, true);
                check(what, x, n, m, (double)n, false);
                check(what, x, n, 0.0, (double)n - 1, true);
            }
    /* the estimate must decide nearly always, or it saves nothing */
    assert_true(answered > 0);
    assert_true(declined * 100 < answered);
    free(x);
}

/* the same answers whatever the thread budget (the chunked path's partials) */
static void test_thread_counts(void **st)
{
    (void)st;
    int64_t n = 300001;
    float *x = malloc(sizeof(float) * (size_t)n);
    assert_non_null(x);
    for (int64_t i = 0; i < n; i++) x[i] = (float)(normal() * 2 + 0.5);
    double m = mean_of(x, n);
    int keep = nn_get_num_threads();
    for (int t = 1; t <= 4; t++) {
        nn_set_num_threads(t);
        check("threads", x, n, m, (double)n - 1, true);
    }
    nn_set_num_threads(keep);
    free(x);
}

/* Results on a rounding boundary: x = {v, 0}, mean 0, dof 1 gives the sum v^2
   exactly; v = 1 + 2^-12 makes var = 1 + 2^-11 + 2^-24, halfway between two
   floats, and the bound must not pick one. */
static void test_boundaries(void **st)
{
    (void)st;
    float x[2] = {1.0f + 0x1p-12f, 0};
    assert_false(check("halfway var", x, 2, 0.0, 1.0, false));
    /* one float step away from halfway: decided, and right */
    x[0] = 1.0f + 0x1p-11f;
    assert_true(check("clear var", x, 2, 0.0, 1.0, false));
    /* a sum exactly on a float (an integer's square): both answers agree */
    x[0] = 3.0f;
    assert_true(check("exact square", x, 2, 0.0, 1.0, true));
}

static void test_special_values(void **st)
{
    (void)st;
    float x[300];
    for (int i = 0; i < 300; i++) x[i] = (float)normal();
    static const float specials[] = {NAN, INFINITY, -INFINITY, FLT_MAX, -FLT_MAX, FLT_MIN, 0x1p-149f, 0.0f, -0.0f};
    for (size_t s = 0; s < sizeof specials / sizeof specials[0]; s++) {
        float keep = x[77];
        x[77] = specials[s];
        char what[64];
        snprintf(what, sizeof what, "special %zu", s);
        check(what, x, 300, mean_of(x, 300), 299, true);
        check(what, x, 300, 0.0, 299, false);
        x[77] = keep;
    }
    /* NaN or infinite means, no degrees of freedom, nothing: declined */
    float got = -1;
    assert_false(nn_cpu_var_all_f32_bounded(x, 300, NAN, 299, true, &got));
    assert_false(nn_cpu_var_all_f32_bounded(x, 300, INFINITY, 299, true, &got));
    assert_false(nn_cpu_var_all_f32_bounded(x, 300, 0.0, 0, true, &got));
    assert_false(nn_cpu_var_all_f32_bounded(x, 300, 0.0, -1, true, &got));
    assert_false(nn_cpu_var_all_f32_bounded(x, 0, 0.0, 1, true, &got));
    assert_true(got == -1);
    /* huge and subnormal values, all of one kind */
    for (int i = 0; i < 300; i++) x[i] = (float)ldexp(normal(), 120);
    check("huge", x, 300, mean_of(x, 300), 299, true);
    for (int i = 0; i < 300; i++) x[i] = (float)ldexp(normal(), -140);
    check("subnormal", x, 300, mean_of(x, 300), 299, true);
    check("subnormal var", x, 300, 0.0, 299, false);
}

/* torch.std of a whole tensor (core's entry) still gives the sequential loop's float */
static void test_std_of_tensor(void **st)
{
    (void)st;
    int64_t n = 40000;
    nn_tensor *x = nn_randn(1, &n, NN_FLOAT32);
    assert_non_null(x);
    nn_tensor *hold = NULL;
    const float *data = nn_host_read(x, &hold);
    assert_non_null(data);
    nn_tensor *m = nn_mean(x, 0, NULL, false), *s = nn_std(x, 0, NULL, true, false);
    assert_non_null(m);
    assert_non_null(s);
    double mean_d, std_d;
    assert_int_equal(nn_item(m, &mean_d), 0);
    assert_int_equal(nn_item(s, &std_d), 0);
    float got = (float)std_d, want = exact(data, n, (float)mean_d, (double)(n - 1), true);
    assert_memory_equal(&want, &got, sizeof got);
    NN_RELEASE(m);
    NN_RELEASE(s);
    NN_RELEASE(hold);
    NN_RELEASE(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_inputs),
        cmocka_unit_test(test_thread_counts),
        cmocka_unit_test(test_boundaries),
        cmocka_unit_test(test_special_values),
        cmocka_unit_test(test_std_of_tensor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
