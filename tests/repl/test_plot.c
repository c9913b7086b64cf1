/*
 * test_plot.c — repl_plot's renders and samples. The golden files
 * tests/fixtures/plot_*.txt were produced by this code (PLOT_REGEN=1 rewrites
 * them) after their curves, ticks and legends were checked by eye; the property
 * tests below hold whatever the renders: ReLU's derivative by autograd, line
 * widths, legend, hooks and the random stream left as they were, errors and
 * allocation failures.
 */
#include "test_util.h"
#include "repl/plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* C callbacks: a constant 2, log(x) (NaN left of 0, -inf at 0), a wrong size, an error. */
static nn_tensor *const_fn(void *ud, nn_tensor *x) { return nn_full_like(x, 2.0); }
static nn_tensor *log_fn(void *ud, nn_tensor *x) { return nn_log(x); }
static nn_tensor *square_fn(void *ud, nn_tensor *x) { return nn_mul(x, x); }
static nn_tensor *short_fn(void *ud, nn_tensor *x) { return nn_zeros(1, TU_SHAPE(3), NN_FLOAT32); }
static nn_tensor *fail_fn(void *ud, nn_tensor *x)
{
    nn_error_set(NN_ERR_RUNTIME, "boom");
    return NULL;
}

static void check_golden(const char *name, const repl_plot_func *f, size_t n, const repl_plot_options *o)
{
    char *got = TU_OK(repl_plot(f, n, o));
    char path[128];
    snprintf(path, sizeof path, "fixtures/plot_%s.txt", name);
    if (getenv("PLOT_REGEN")) {
        FILE *fp = fopen(path, "w");
        assert_non_null(fp);
        fputs(got, fp);
        fclose(fp);
    }
    char *want = tu_read_file(path);
    if (strcmp(got, want)) fail_msg("plot %s differs:\n--- got\n%s\n--- want\n%s", name, got, want);
    free(want);
    nn_free(got);
}

static void test_golden_activations(void **s)
{
    (void)s;
    nn_module *r = TU_OK(nn_relu_new(false)), *g = TU_OK(nn_gelu_new(NULL)), *t = TU_OK(nn_tanh_new());
    repl_plot_func f[3] = {{.module = r}, {.module = g}, {.module = t}};
    check_golden("activations", f, 3, NULL);
    repl_plot_options o;
    repl_plot_options_default(&o);
    o.grad = true, o.width = 60, o.height = 12;
    check_golden("relu_grad", f, 1, &o);
    o.color = true;
    check_golden("gelu_grad_color", f + 1, 1, &o);
    NN_RELEASE(r);
    NN_RELEASE(g);
    NN_RELEASE(t);
}

static void test_golden_callbacks(void **s)
{
    (void)s;
    repl_plot_options o;
    repl_plot_options_default(&o);
    o.width = 40, o.height = 8;
    repl_plot_func c = {.fn = const_fn, .name = "two"};
    check_golden("constant", &c, 1, &o);
    o.lo = -1, o.hi = 3;
    repl_plot_func l[2] = {{.fn = log_fn, .name = "log"}, {.fn = square_fn}};
    check_golden("log_nan", l, 2, &o);
    o.grad = true;
    check_golden("square_grad", l + 1, 1, &o);
}

/* ReLU' by autograd: 0 left of 0, 1 right of it, at every sample point. */
static void test_relu_derivative(void **s)
{
    (void)s;
    nn_module *r = TU_OK(nn_relu_new(false));
    repl_plot_func f = {.module = r};
    double y[101], dy[101];
    tu_check(repl_plot_sample(&f, -3, 3, 101, y, dy));
    for (int i = 0; i < 101; i++) {
        double x = (float)(-3 + 6.0 * i / 100);
        if (x < 0) assert_true(dy[i] == 0 && y[i] == 0);
        if (x > 0) assert_true(dy[i] == 1 && fabs(y[i] - x) < 1e-6);
    }
    repl_plot_func sq = {.fn = square_fn};
    tu_check(repl_plot_sample(&sq, -2, 2, 5, y, dy));
    for (int i = 0; i < 5; i++) assert_true(fabs(dy[i] - 2 * (-2 + i)) < 1e-6);
    NN_RELEASE(r);
}

static size_t code_points(const char *s, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80) k++;
    return k;
}

/* Every line fits the width; the legend names every function (and its derivative). */
static void test_widths_and_legend(void **s)
{
    (void)s;
    nn_module *g = TU_OK(nn_gelu_new("tanh"));
    repl_plot_func f[2] = {{.module = g}, {.fn = const_fn, .name = "a very long name that cannot fit in a small plot"}};
    int widths[] = {20, 33, 72, 120};
    for (int w = 0; w < 4; w++)
        for (int h = 4; h <= 24; h += 10) {
            repl_plot_options o;
            repl_plot_options_default(&o);
            o.width = widths[w], o.height = h, o.grad = true;
            char *text = TU_OK(repl_plot(f, 2, &o));
            int lines = 0;
            for (char *p = text; *p; lines++) {
                char *nl = strchr(p, '\n');
                assert_non_null(nl);
                assert_true(code_points(p, (size_t)(nl - p)) <= (size_t)o.width);
                p = nl + 1;
            }
            assert_int_equal(lines, h + 2 + 4);
            if (o.width >= 72) {
                assert_non_null(strstr(text, "GELU(approximate='tanh')"));
                assert_non_null(strstr(text, "d/dx GELU(approximate='tanh')"));
            }
            nn_free(text);
        }
    NN_RELEASE(g);
}

static nn_object *count_hook(void *ud, nn_object *args, nn_object *kwargs)
{
    (*(int *)ud)++;
    return nn_retain(nn_none());
}

/* The module's hooks stay as they were (and run: the call is the module's
   __call__); the default generator and grad mode are untouched. */
static void test_leaves_state_alone(void **s)
{
    (void)s;
    nn_module *r = TU_OK(nn_relu_new(false));
    int calls = 0;
    nn_object *fn = TU_OK(nn_cfunction_new("count", count_hook, &calls, NULL));
    nn_object *h = TU_OK(nn_module_register_hook(r, NN_HOOK_FORWARD, fn, (nn_hook_options){0}));
    nn_generator_seed(nn_default_generator(), 3);
    size_t n = nn_generator_state_size();
    unsigned char *before = malloc(n), *after = malloc(n);
    nn_generator_get_state(nn_default_generator(), before);
    nn_set_grad_enabled(false);
    repl_plot_func f = {.module = r};
    repl_plot_options o;
    repl_plot_options_default(&o);
    o.grad = true;
    char *text = TU_OK(repl_plot(&f, 1, &o));
    nn_free(text);
    assert_false(nn_grad_enabled());
    nn_set_grad_enabled(true);
    assert_int_equal(calls, 1);
    assert_int_equal(nn_dict_len(r->forward_hooks), 1);
    assert_int_equal(nn_dict_len(r->forward_pre_hooks), 0);
    assert_int_equal(nn_dict_len(r->backward_hooks), 0);
    nn_generator_get_state(nn_default_generator(), after);
    assert_memory_equal(before, after, n);
    free(before);
    free(after);
    nn_hook_handle_remove(h);
    NN_RELEASE(h);
    NN_RELEASE(fn);
    NN_RELEASE(r);
}

static void test_errors(void **s)
{
    (void)s;
    repl_plot_func f = {.fn = const_fn};
    repl_plot_options o;
    repl_plot_options_default(&o);
    o.lo = 1, o.hi = 1;
    assert_null(repl_plot(&f, 1, &o));
    tu_assert_error(NN_ERR_VALUE, "plot: lo must be less than hi");
    o.lo = NAN;
    assert_null(repl_plot(&f, 1, &o));
    tu_assert_error(NN_ERR_VALUE, "plot: lo must be less than hi");
    repl_plot_options_default(&o);
    o.width = 19;
    assert_null(repl_plot(&f, 1, &o));
    tu_assert_error(NN_ERR_VALUE, "width");
    o.width = 72, o.height = 3;
    assert_null(repl_plot(&f, 1, &o));
    tu_assert_error(NN_ERR_VALUE, "height");
    assert_null(repl_plot(&f, 0, NULL));
    tu_assert_error(NN_ERR_VALUE, "no functions");
    repl_plot_func bad = {.fn = short_fn};
    assert_null(repl_plot(&bad, 1, NULL));
    tu_assert_error(NN_ERR_VALUE, "one value per sample");
    repl_plot_func boom = {.fn = fail_fn};
    assert_null(repl_plot(&boom, 1, NULL));
    tu_assert_error(NN_ERR_RUNTIME, "boom");
}


static void test_failing_allocations(void **s)
{
    (void)s;
    nn_module *g = TU_OK(nn_gelu_new(NULL));
    repl_plot_func f[2] = {{.module = g}, {.fn = square_fn}};
    repl_plot_options o;
    repl_plot_options_default(&o);
    o.grad = true, o.width = 40, o.height = 6;
    tu_allocator old;
    tu_install_failing_alloc(&old);
    char *ok = repl_plot(f, 2, &o);
    long total = tu_alloc_count;
    assert_non_null(ok);
    for (tu_fail_at = 1; tu_fail_at <= total; tu_fail_at++) {
        tu_alloc_count = 0;
        nn_error_clear();
        char *text = repl_plot(f, 2, &o);
        if (text) {
            assert_string_equal(text, ok);
            nn_free(text);
            continue;
        }
        assert_int_equal(nn_error_current(), NN_ERR_MEMORY);
        assert_true(nn_grad_enabled());
    }
    tu_restore_allocator(&old);
    nn_error_clear();
    nn_free(ok);
    NN_RELEASE(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_activations),
        cmocka_unit_test(test_golden_callbacks),
        cmocka_unit_test(test_relu_derivative),
        cmocka_unit_test(test_widths_and_legend),
        cmocka_unit_test(test_leaves_state_alone),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_failing_allocations),
    };
    return cmocka_run_group_tests_name("plot", tests, NULL, NULL);
}
