/*
 * test_autograd.c — the backward walk: accumulation, graph freeing, hooks,
 * retain_grad, in-place checks and version counters.
 */
#include "test_util.h"

#include <string.h>

static nn_tensor *leaf(int ndim, const int64_t *sizes, const double *values)
{
    nn_tensor *t = tu_tensor(NN_FLOAT32, ndim, sizes, values);
    tu_check(nn_set_requires_grad(t, true));
    return t;
}

static void test_add_mul_backward(void **state)
{
    (void)state;
    nn_tensor *a = leaf(1, TU_SHAPE(3), TU_VALUES(1, 2, 3));
    nn_tensor *b = leaf(1, TU_SHAPE(3), TU_VALUES(4, 5, 6));
    nn_tensor *c = TU_OK(nn_mul(a, b));
    nn_tensor *d = TU_OK(nn_add(c, a));
    nn_tensor *s = TU_OK(nn_sum(d, 0, NULL, false));
    assert_string_equal(nn_grad_fn_name(s), "SumBackward0");
    assert_string_equal(nn_grad_fn_name(d), "AddBackward0");
    assert_string_equal(nn_grad_fn_name(c), "MulBackward0");
    tu_check(nn_backward(s, NULL, false, false));
    tu_assert_values(a->grad, 1, TU_SHAPE(3), TU_VALUES(5, 6, 7), 0);
    tu_assert_values(b->grad, 1, TU_SHAPE(3), TU_VALUES(1, 2, 3), 0);
    /* a second backward through the freed graph is an error */
    assert_int_equal(nn_backward(s, NULL, false, false), -1);
    tu_assert_error(NN_ERR_RUNTIME, "Trying to backward through the graph a second time");
    NN_RELEASE(a); NN_RELEASE(b); NN_RELEASE(c); NN_RELEASE(d); NN_RELEASE(s);
}

static void test_broadcast_grad_accumulates(void **state)
{
    (void)state;
    nn_tensor *a = leaf(2, TU_SHAPE(2, 3), TU_VALUES(1, 2, 3, 4, 5, 6));
    nn_tensor *b = leaf(1, TU_SHAPE(3), TU_VALUES(1, 1, 1));
    for (int k = 0; k < 2; k++) {
        nn_tensor *c = TU_OK(nn_mul(a, b));
        nn_tensor *s = TU_OK(nn_sum(c, 0, NULL, false));
        tu_check(nn_backward(s, NULL, false, false));
        NN_RELEASE(c); NN_RELEASE(s);
    }
    /* two passes accumulate */
    tu_assert_values(b->grad, 1, TU_SHAPE(3), TU_VALUES(10, 14, 18), 0);
    tu_assert_values(a->grad, 2, TU_SHAPE(2, 3), TU_VALUES(2, 2, 2, 2, 2, 2), 0);
    NN_RELEASE(a); NN_RELEASE(b);
}

static void test_retain_graph_and_nonscalar(void **state)
{
    (void)state;
    nn_tensor *a = leaf(1, TU_SHAPE(2), TU_VALUES(1, 2));
    nn_tensor *c = TU_OK(nn_mul(a, a));
    assert_int_equal(nn_backward(c, NULL, false, false), -1);
    tu_assert_error(NN_ERR_RUNTIME, "grad can be implicitly created only for scalar outputs");
    nn_tensor *g = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(2), TU_VALUES(1, 1));
    tu_check(nn_backward(c, g, true, false));
    tu_check(nn_backward(c, g, false, false));
    tu_assert_values(a->grad, 1, TU_SHAPE(2), TU_VALUES(4, 8), 0);
    NN_RELEASE(a); NN_RELEASE(c); NN_RELEASE(g);
}

static nn_object *double_hook(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)kwargs;
    int *calls = ud;
    (*calls)++;
    return (nn_object *)nn_mul_scalar(NN_TENSOR(nn_tuple_get(args, 0)), 2.0);
}

static void test_hooks_and_retain_grad(void **state)
{
    (void)state;
    int calls = 0;
    nn_object *hook = TU_OK(nn_cfunction_new("double", double_hook, &calls, NULL));
    nn_tensor *a = leaf(1, TU_SHAPE(2), TU_VALUES(1, 2));
    nn_tensor *b = TU_OK(nn_mul_scalar(a, 3.0));
    tu_check(nn_retain_grad(b));
    int64_t h = nn_tensor_register_hook(b, hook);
    assert_true(h > 0);
    assert_true(nn_tensor_register_hook(a, hook) > 0);
    nn_tensor *s = TU_OK(nn_sum(b, 0, NULL, false));
    tu_check(nn_backward(s, NULL, false, false));
    assert_int_equal(calls, 2);
    /* retain_grad came before the hook: as 1.13, b.grad is the raw gradient; the leaf hook doubled again */
    tu_assert_values(b->grad, 1, TU_SHAPE(2), TU_VALUES(1, 1), 0);
    tu_assert_values(a->grad, 1, TU_SHAPE(2), TU_VALUES(12, 12), 0);
    nn_tensor_remove_hook(b, h);
    nn_tensor_remove_hook(b, h); /* idempotent */
    NN_RELEASE(a); NN_RELEASE(b); NN_RELEASE(s); NN_RELEASE(hook);
}

/* backward(inputs=[x]): only x.grad changes; the other leaf keeps its .grad and
   its hook does not run. A backward run after it accumulates everywhere again. */
static void test_backward_inputs(void **state)
{
    (void)state;
    int calls = 0;
    nn_object *hook = TU_OK(nn_cfunction_new("double", double_hook, &calls, NULL));
    nn_tensor *x = leaf(1, TU_SHAPE(2), TU_VALUES(1, 2)), *w = leaf(1, TU_SHAPE(2), TU_VALUES(3, 4));
    assert_true(nn_tensor_register_hook(w, hook) > 0);
    nn_tensor *y = TU_OK(nn_mul(x, w)), *s = TU_OK(nn_sum(y, 0, NULL, false));
    tu_check(nn_backward_inputs(s, NULL, 1, &x));
    tu_assert_values(x->grad, 1, TU_SHAPE(2), TU_VALUES(3, 4), 0);
    assert_null(w->grad);
    assert_int_equal(calls, 0);
    nn_tensor *y2 = TU_OK(nn_mul(x, w)), *s2 = TU_OK(nn_sum(y2, 0, NULL, false));
    tu_check(nn_backward(s2, NULL, false, false));
    tu_assert_values(x->grad, 1, TU_SHAPE(2), TU_VALUES(6, 8), 0);
    tu_assert_values(w->grad, 1, TU_SHAPE(2), TU_VALUES(2, 4), 0); /* doubled by its hook */
    assert_int_equal(calls, 1);
    NN_RELEASE(x); NN_RELEASE(w); NN_RELEASE(y); NN_RELEASE(s); NN_RELEASE(y2); NN_RELEASE(s2); NN_RELEASE(hook);
}

static void test_inplace_rules(void **state)
{
    (void)state;
    nn_tensor *a = leaf(1, TU_SHAPE(2), TU_VALUES(1, 2));
    nn_tensor *one = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(2), TU_VALUES(1, 1));
    assert_int_equal(nn_add_(a, one, 1.0), -1);
    tu_assert_error(NN_ERR_RUNTIME, "a leaf Variable that requires grad is being used in an in-place operation.");
    tu_assert_values(a, 1, TU_SHAPE(2), TU_VALUES(1, 2), 0);
    /* a saved tensor modified in place */
    nn_tensor *b = TU_OK(nn_mul_scalar(a, 1.0));
    nn_tensor *c = TU_OK(nn_mul(b, b));
    tu_check(nn_add_(b, one, 1.0));
    assert_string_equal(nn_grad_fn_name(b), "AddBackward0");
    nn_tensor *s = TU_OK(nn_sum(c, 0, NULL, false));
    assert_int_equal(nn_backward(s, NULL, false, false), -1);
    tu_assert_error(NN_ERR_RUNTIME, "[torch.FloatTensor [2]], which is output 0 of AddBackward0, is at version 1; "
                                    "expected version 0 instead.");
    NN_RELEASE(a); NN_RELEASE(one); NN_RELEASE(b); NN_RELEASE(c); NN_RELEASE(s);
}

static void test_no_grad(void **state)
{
    (void)state;
    nn_tensor *a = leaf(1, TU_SHAPE(2), TU_VALUES(1, 2));
    bool prev = nn_set_grad_enabled(false);
    nn_tensor *b = TU_OK(nn_mul_scalar(a, 2.0));
    nn_set_grad_enabled(prev);
    assert_false(b->requires_grad);
    assert_null(b->grad_fn);
    assert_int_equal(nn_backward(b, NULL, false, false), -1);
    tu_assert_error(NN_ERR_RUNTIME, "element 0 of tensors does not require grad and does not have a grad_fn");
    nn_tensor *i = tu_tensor(NN_INT64, 1, TU_SHAPE(1), TU_VALUES(1));
    assert_int_equal(nn_set_requires_grad(i, true), -1);
    tu_assert_error(NN_ERR_RUNTIME, "only Tensors of floating point");
    NN_RELEASE(a); NN_RELEASE(b); NN_RELEASE(i);
}

static void test_views_backward(void **state)
{
    (void)state;
    nn_tensor *a = leaf(2, TU_SHAPE(2, 3), TU_VALUES(1, 2, 3, 4, 5, 6));
    nn_tensor *t = TU_OK(nn_transpose(a, 0, 1));
    assert_false(nn_is_contiguous(t));
    nn_tensor *r = TU_OK(nn_reshape(t, 1, TU_SHAPE(6)));
    assert_string_equal(nn_grad_fn_name(r), "UnsafeViewBackward0");
    tu_assert_values(r, 1, TU_SHAPE(6), TU_VALUES(1, 4, 2, 5, 3, 6), 0);
    nn_tensor *w = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(6), TU_VALUES(1, 2, 3, 4, 5, 6));
    nn_tensor *m = TU_OK(nn_mul(r, w));
    nn_tensor *s = TU_OK(nn_sum(m, 0, NULL, false));
    tu_check(nn_backward(s, NULL, false, false));
    tu_assert_values(a->grad, 2, TU_SHAPE(2, 3), TU_VALUES(1, 3, 5, 2, 4, 6), 0);
    NN_RELEASE(a); NN_RELEASE(t); NN_RELEASE(r); NN_RELEASE(w); NN_RELEASE(m); NN_RELEASE(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_mul_backward),
        cmocka_unit_test(test_broadcast_grad_accumulates),
        cmocka_unit_test(test_retain_graph_and_nonscalar),
        cmocka_unit_test(test_hooks_and_retain_grad),
        cmocka_unit_test(test_backward_inputs),
        cmocka_unit_test(test_inplace_rules),
        cmocka_unit_test(test_no_grad),
        cmocka_unit_test(test_views_backward),
    };
    return cmocka_run_group_tests_name("autograd", tests, NULL, NULL);
}
