/*
 * test_summary.c — repl_summary against torchinfo 1.8.0's tables: the expected
 * text of each model is tests/fixtures/summary_<name>.txt, printed by
 * tests/fixtures/gen_summary.py (torchinfo's table logic ported over the same
 * models in PyTorch 1.13). Then what the summary must leave alone (hooks,
 * training flags, grad mode, the random stream), errors and allocation failures.
 */
#include "test_util.h"
#include "repl/summary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static nn_module *seq(size_t n, nn_module **mods)
{
    nn_module *s = TU_OK(nn_sequential_new(n, mods));
    for (size_t i = 0; i < n; i++) NN_RELEASE(mods[i]);
    return s;
}

static nn_module *linear(int64_t in, int64_t out) { return TU_OK(nn_linear_new(in, out, true, NN_FLOAT32)); }

/* Shared: fc(act(fc(x))), one Linear called twice (a "(recursive)" row). */
static nn_object *shared_forward(nn_module *self, nn_object *args, nn_object *kwargs)
{
    nn_module *fc = NN_MODULE(nn_module_getattr(self, "fc")), *act = NN_MODULE(nn_module_getattr(self, "act"));
    nn_tensor *a = nn_module_call1(fc, NN_TENSOR(nn_tuple_get(args, 0)));
    if (!a) return NULL;
    nn_tensor *b = nn_module_call1(act, a);
    NN_RELEASE(a);
    if (!b) return NULL;
    nn_tensor *c = nn_module_call1(fc, b);
    NN_RELEASE(b);
    return (nn_object *)c;
}
static const nn_module_class shared_class = {.name = "Shared", .forward = shared_forward};

static nn_module *build(const char *name)
{
    if (!strcmp(name, "gelu_mlp"))
        return seq(3, (nn_module *[]){linear(4, 8), TU_OK(nn_gelu_new("tanh")), linear(8, 1)});
    if (!strcmp(name, "relu_dropout"))
        return seq(7, (nn_module *[]){linear(784, 256), TU_OK(nn_relu_new(false)), TU_OK(nn_dropout_new(0.2, false)),
                                      linear(256, 128), TU_OK(nn_relu_new(false)), TU_OK(nn_dropout_new(0.2, false)),
                                      linear(128, 10)});
    if (!strcmp(name, "nested_ln")) {
        nn_module *inner = seq(2, (nn_module *[]){linear(32, 32), TU_OK(nn_tanh_new())});
        nn_module *mid = seq(3, (nn_module *[]){TU_OK(nn_layer_norm_new(1, TU_SHAPE(32), 1e-5, true, NN_FLOAT32)),
                                                TU_OK(nn_relu_new(false)), inner});
        return seq(3, (nn_module *[]){linear(16, 32), mid, linear(32, 4)});
    }
    if (!strcmp(name, "feed_forward")) return TU_OK(nn_feed_forward_new(512, 2048, NULL));
    if (!strcmp(name, "shared")) {
        nn_module *m = TU_OK(nn_module_new(&shared_class)), *fc = linear(8, 8), *act = TU_OK(nn_tanh_new());
        tu_check(nn_module_add_module(m, "fc", fc));
        tu_check(nn_module_add_module(m, "act", act));
        NN_RELEASE(fc);
        NN_RELEASE(act);
        return m;
    }
    if (!strcmp(name, "frozen")) {
        nn_module *m = seq(2, (nn_module *[]){linear(3, 2), linear(2, 2)});
        nn_module *first = NN_MODULE(nn_sequential_getitem(m, 0));
        tu_check(nn_module_requires_grad_(first, false));
        return m;
    }
    fail_msg("unknown model %s", name);
    return NULL;
}

static void check_golden(const char *name, int ndim, const int64_t *sizes, int depth, const char *fixture)
{
    nn_module *m = build(name);
    char *got = TU_OK(repl_summary(m, ndim, sizes, depth));
    char path[128];
    snprintf(path, sizeof path, "fixtures/summary_%s.txt", fixture);
    char *want = tu_read_file(path);
    size_t n = strlen(want);
    if (n && want[n - 1] == '\n') want[n - 1] = '\0'; /* the script's print() newline */
    if (strcmp(got, want)) fail_msg("summary %s differs:\n--- got\n%s\n--- want\n%s", fixture, got, want);
    nn_free(got);
    free(want);
    NN_RELEASE(m);
}

static void test_gelu_mlp(void **s) { (void)s; check_golden("gelu_mlp", 2, TU_SHAPE(1, 4), 3, "gelu_mlp"); }
static void test_relu_dropout(void **s) { (void)s; check_golden("relu_dropout", 2, TU_SHAPE(32, 784), 3, "relu_dropout"); }
static void test_nested_ln(void **s) { (void)s; check_golden("nested_ln", 3, TU_SHAPE(2, 5, 16), 3, "nested_ln"); }
static void test_nested_ln_depth1(void **s)
{
    (void)s;
    check_golden("nested_ln", 3, TU_SHAPE(2, 5, 16), 1, "nested_ln_depth1");
}
static void test_feed_forward(void **s) { (void)s; check_golden("feed_forward", 3, TU_SHAPE(1, 10, 512), 3, "feed_forward"); }
static void test_shared_recursive(void **s) { (void)s; check_golden("shared", 2, TU_SHAPE(4, 8), 3, "shared"); }
static void test_frozen(void **s) { (void)s; check_golden("frozen", 2, TU_SHAPE(1, 3), 3, "frozen"); }

static nn_object *user_hook(void *ud, nn_object *args, nn_object *kwargs)
{
    (*(int *)ud)++;
    return nn_retain(nn_none());
}

/* The model's hook dicts, training flags, grad mode and the generator are as before. */
static void test_leaves_model_alone(void **s)
{
    (void)s;
    nn_module *m = build("relu_dropout");
    nn_module *first = NN_MODULE(nn_sequential_getitem(m, 0));
    int calls = 0;
    nn_object *fn = TU_OK(nn_cfunction_new("user_hook", user_hook, &calls, NULL));
    nn_object *h = TU_OK(nn_module_register_hook(first, NN_HOOK_FORWARD, fn, (nn_hook_options){0}));
    tu_check(nn_module_train(NN_MODULE(nn_sequential_getitem(m, 2)), false)); /* mixed modes */
    nn_generator_seed(nn_default_generator(), 7);
    size_t state_size = nn_generator_state_size();
    unsigned char *before = malloc(state_size), *after = malloc(state_size);
    nn_generator_get_state(nn_default_generator(), before);

    char *text = TU_OK(repl_summary(m, 2, TU_SHAPE(3, 784), 3));
    nn_free(text);
    assert_int_equal(calls, 1); /* the user's hook ran in the forward, and stays */
    assert_int_equal(nn_dict_len(first->forward_hooks), 1);
    assert_int_equal(nn_dict_len(first->forward_pre_hooks), 0);
    nn_object *mods = TU_OK(nn_module_modules(m));
    for (size_t i = 0; i < nn_list_len(mods); i++) {
        nn_module *sub = NN_MODULE(nn_list_get(mods, i));
        assert_int_equal(nn_dict_len(sub->forward_pre_hooks), 0);
        assert_int_equal(nn_dict_len(sub->forward_hooks), sub == first ? 1 : 0);
        assert_int_equal(sub->training, i == 3 ? false : true);
    }
    NN_RELEASE(mods);
    assert_true(nn_grad_enabled());
    nn_generator_get_state(nn_default_generator(), after);
    assert_memory_equal(before, after, state_size);
    free(before);
    free(after);
    nn_hook_handle_remove(h);
    NN_RELEASE(h);
    NN_RELEASE(fn);
    NN_RELEASE(m);
}

static void test_errors(void **s)
{
    (void)s;
    nn_module *m = build("gelu_mlp");
    assert_null(repl_summary(m, 2, TU_SHAPE(1, 0), 3));
    tu_assert_error(NN_ERR_VALUE, "Input_data is invalid");
    assert_null(repl_summary(m, 0, NULL, 3));
    tu_assert_error(NN_ERR_VALUE, "Input_data is invalid");
    assert_null(repl_summary(m, 2, TU_SHAPE(1, 4), -1));
    tu_assert_error(NN_ERR_VALUE, "depth");
    /* a forward that fails: its error comes back, hooks are gone */
    assert_null(repl_summary(m, 2, TU_SHAPE(1, 5), 3));
    assert_int_equal(nn_error_current(), NN_ERR_RUNTIME);
    nn_error_clear();
    assert_int_equal(nn_dict_len(m->forward_hooks), 0);
    assert_int_equal(nn_dict_len(NN_MODULE(nn_sequential_getitem(m, 0))->forward_pre_hooks), 0);
    assert_true(m->training);
    assert_true(nn_grad_enabled());
    NN_RELEASE(m);
}


static void test_failing_allocations(void **s)
{
    (void)s;
    nn_module *m = build("nested_ln");
    tu_allocator old;
    tu_install_failing_alloc(&old);
    char *ok = repl_summary(m, 3, TU_SHAPE(2, 5, 16), 3);
    long total = tu_alloc_count;
    assert_non_null(ok);
    for (tu_fail_at = 1; tu_fail_at <= total; tu_fail_at++) {
        tu_alloc_count = 0;
        nn_error_clear();
        char *text = repl_summary(m, 3, TU_SHAPE(2, 5, 16), 3);
        if (text) { /* a failure some path absorbed: the result must still be right */
            assert_string_equal(text, ok);
            nn_free(text);
            continue;
        }
        assert_int_equal(nn_error_current(), NN_ERR_MEMORY);
        tu_restore_allocator(&old);
        nn_object *mods = TU_OK(nn_module_modules(m));
        for (size_t i = 0; i < nn_list_len(mods); i++) {
            nn_module *sub = NN_MODULE(nn_list_get(mods, i));
            assert_int_equal(nn_dict_len(sub->forward_pre_hooks) + nn_dict_len(sub->forward_hooks), 0);
            assert_true(sub->training);
        }
        NN_RELEASE(mods);
        assert_true(nn_grad_enabled());
        nn_set_allocator(tu_failing_alloc, NULL);
    }
    tu_restore_allocator(&old);
    nn_error_clear();
    nn_free(ok);
    NN_RELEASE(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gelu_mlp),
        cmocka_unit_test(test_relu_dropout),
        cmocka_unit_test(test_nested_ln),
        cmocka_unit_test(test_nested_ln_depth1),
        cmocka_unit_test(test_feed_forward),
        cmocka_unit_test(test_shared_recursive),
        cmocka_unit_test(test_frozen),
        cmocka_unit_test(test_leaves_model_alone),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_failing_allocations),
    };
    return cmocka_run_group_tests_name("summary", tests, NULL, NULL);
}
