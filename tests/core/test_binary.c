/*
 * test_binary.c — elementwise binary ops: PyTorch's type promotion table and
 * values (from tests/fixtures/binary.txt, made by gen_binary.py), broadcasting,
 * in-place rules and errors.
 */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static nn_tensor *make_operand(const char *kind, nn_dtype dt)
{
    if (strcmp(kind, "dim") == 0) return TU_OK(nn_ones(1, TU_SHAPE(2), dt));
    if (strcmp(kind, "zero") == 0) return TU_OK(nn_scalar(1, dt));
    nn_tensor *w = dt == NN_BOOL ? TU_OK(nn_scalar(1, NN_BOOL)) : TU_OK(nn_wrapped_number(2, dt == NN_INT64));
    w->is_wrapped_number = true;
    return w;
}

static nn_tensor *apply(const char *op, nn_tensor *a, nn_tensor *b)
{
    if (!strcmp(op, "add")) return nn_add(a, b);
    if (!strcmp(op, "sub")) return nn_sub(a, b);
    if (!strcmp(op, "mul")) return nn_mul(a, b);
    if (!strcmp(op, "div")) return nn_div(a, b);
    if (!strcmp(op, "pow")) return nn_pow(a, b);
    if (!strcmp(op, "maximum")) return nn_maximum(a, b);
    if (!strcmp(op, "minimum")) return nn_minimum(a, b);
    if (!strcmp(op, "lt")) return nn_compare(a, b, NN_LT);
    fail_msg("unknown op %s", op);
    return NULL;
}

/* parses "DTYPE v v v" up to '|' or end into a tensor */
static nn_tensor *parse_values(char **cursor, nn_dtype *dt_out)
{
    char *tok = strtok_r(NULL, " \n", cursor);
    nn_dtype dt = tu_dtype(tok);
    double vals[16];
    int n = 0;
    while ((tok = strtok_r(NULL, " \n", cursor)) && strcmp(tok, "|") != 0) vals[n++] = strtod(tok, NULL);
    *dt_out = dt;
    return tu_tensor(dt, 1, (int64_t[]){n}, vals);
}

static void test_fixture_promotion_and_values(void **state)
{
    (void)state;
    char *text = tu_read_file("fixtures/binary.txt");
    int promotions = 0, values = 0;
    char *line_save, *line = strtok_r(text, "\n", &line_save);
    for (; line; line = strtok_r(NULL, "\n", &line_save)) {
        char buf[1024], *cur;
        snprintf(buf, sizeof buf, "%s", line);
        char *kind = strtok_r(buf, " ", &cur);
        if (!strcmp(kind, "promote")) {
            char *op = strtok_r(NULL, " ", &cur), *ka = strtok_r(NULL, " ", &cur), *da = strtok_r(NULL, " ", &cur);
            char *kb = strtok_r(NULL, " ", &cur), *db = strtok_r(NULL, " ", &cur), *want = strtok_r(NULL, " ", &cur);
            nn_tensor *a = make_operand(ka, tu_dtype(da)), *b = make_operand(kb, tu_dtype(db));
            nn_tensor *r = apply(op, a, b);
            if (!r) fail_msg("%s: %s", line, nn_error_message());
            if (r->dtype != tu_dtype(want)) fail_msg("%s: got %s", line, nn_dtype_short_name(r->dtype));
            NN_RELEASE(a); NN_RELEASE(b); NN_RELEASE(r);
            promotions++;
        } else {
            char *op = strtok_r(NULL, " ", &cur);
            nn_dtype da, db, dr;
            nn_tensor *a = parse_values(&cur, &da), *b = parse_values(&cur, &db), *want = parse_values(&cur, &dr);
            nn_tensor *r = apply(op, a, b);
            if (!r) fail_msg("%s: %s", line, nn_error_message());
            assert_int_equal(r->dtype, dr);
            double expect[16];
            nn_to_doubles(want, expect);
            tu_assert_values(r, 1, want->sizes, expect, 0);
            NN_RELEASE(a); NN_RELEASE(b); NN_RELEASE(r); NN_RELEASE(want);
            values++;
        }
    }
    free(text);
    assert_true(promotions > 400);
    assert_true(values >= 10);
}

static void test_broadcasting(void **state)
{
    (void)state;
    nn_tensor *a = tu_tensor(NN_FLOAT32, 2, TU_SHAPE(2, 1), TU_VALUES(1, 2));
    nn_tensor *b = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(3), TU_VALUES(10, 20, 30));
    nn_tensor *c = TU_OK(nn_add(a, b));
    tu_assert_values(c, 2, TU_SHAPE(2, 3), TU_VALUES(11, 21, 31, 12, 22, 32), 0);
    nn_tensor *bad = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(4), TU_VALUES(1, 2, 3, 4));
    assert_null(nn_mul(c, bad));
    tu_assert_error(NN_ERR_RUNTIME, "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
    NN_RELEASE(a); NN_RELEASE(b); NN_RELEASE(c); NN_RELEASE(bad);
}

static void test_inplace_errors_leave_input_unchanged(void **state)
{
    (void)state;
    nn_tensor *a = tu_tensor(NN_INT64, 1, TU_SHAPE(2), TU_VALUES(1, 2));
    nn_tensor *f = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(2), TU_VALUES(0.5, 0.5));
    assert_int_equal(nn_add_(a, f, 1.0), -1);
    tu_assert_error(NN_ERR_RUNTIME, "result type Float can't be cast to the desired output type Long");
    tu_assert_values(a, 1, TU_SHAPE(2), TU_VALUES(1, 2), 0);
    nn_tensor *small = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(2), TU_VALUES(1, 2));
    nn_tensor *big = tu_tensor(NN_FLOAT32, 2, TU_SHAPE(2, 2), TU_VALUES(1, 2, 3, 4));
    assert_int_equal(nn_mul_(small, big), -1);
    tu_assert_error(NN_ERR_RUNTIME, "output with shape [2] doesn't match the broadcast shape [2, 2]");
    tu_assert_values(small, 1, TU_SHAPE(2), TU_VALUES(1, 2), 0);
    uint64_t v = small->storage->version;
    tu_check(nn_mul_(small, f));
    assert_int_equal(small->storage->version, v + 1);
    tu_assert_values(small, 1, TU_SHAPE(2), TU_VALUES(0.5, 1), 0);
    NN_RELEASE(a); NN_RELEASE(f); NN_RELEASE(small); NN_RELEASE(big);
}

static void test_integer_pow_and_where(void **state)
{
    (void)state;
    nn_tensor *a = tu_tensor(NN_INT64, 1, TU_SHAPE(2), TU_VALUES(2, 3));
    nn_tensor *e = tu_tensor(NN_INT64, 1, TU_SHAPE(2), TU_VALUES(-1, 2));
    assert_null(nn_pow(a, e));
    tu_assert_error(NN_ERR_RUNTIME, "Integers to negative integer powers are not allowed.");
    nn_tensor *cond = tu_tensor(NN_BOOL, 1, TU_SHAPE(2), TU_VALUES(1, 0));
    nn_tensor *f = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(1), TU_VALUES(0.5));
    nn_tensor *w = TU_OK(nn_where(cond, a, f));
    assert_int_equal(w->dtype, NN_FLOAT32);
    tu_assert_values(w, 1, TU_SHAPE(2), TU_VALUES(2, 0.5), 0);
    assert_null(nn_where(a, a, f));
    tu_assert_error(NN_ERR_RUNTIME, "where expected condition to be a boolean tensor");
    NN_RELEASE(a); NN_RELEASE(e); NN_RELEASE(cond); NN_RELEASE(f); NN_RELEASE(w);
}

static void test_bool_subtraction_refused(void **state)
{
    (void)state;
    nn_tensor *a = tu_tensor(NN_BOOL, 1, TU_SHAPE(2), TU_VALUES(1, 0));
    assert_null(nn_sub(a, a));
    tu_assert_error(NN_ERR_RUNTIME, "Subtraction, the `-` operator, with two bool tensors is not supported.");
    NN_RELEASE(a);
}

static void test_strided_operands(void **state)
{
    (void)state;
    nn_tensor *a = tu_tensor(NN_FLOAT64, 2, TU_SHAPE(2, 3), TU_VALUES(1, 2, 3, 4, 5, 6));
    nn_tensor *t = TU_OK(nn_transpose(a, 0, 1));
    nn_tensor *s = TU_OK(nn_slice(a, 1, 0, 3, 2)); /* [[1, 3], [4, 6]], stride 2 */
    nn_tensor *st = TU_OK(nn_t(s));
    nn_tensor *r = TU_OK(nn_sub(s, st));
    tu_assert_values(r, 2, TU_SHAPE(2, 2), TU_VALUES(0, -1, 1, 0), 0);
    nn_tensor *r2 = TU_OK(nn_mul(t, t));
    tu_assert_values(r2, 2, TU_SHAPE(3, 2), TU_VALUES(1, 16, 4, 25, 9, 36), 0);
    NN_RELEASE(a); NN_RELEASE(t); NN_RELEASE(s); NN_RELEASE(st); NN_RELEASE(r); NN_RELEASE(r2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_promotion_and_values),
        cmocka_unit_test(test_broadcasting),
        cmocka_unit_test(test_inplace_errors_leave_input_unchanged),
        cmocka_unit_test(test_integer_pow_and_where),
        cmocka_unit_test(test_bool_subtraction_refused),
        cmocka_unit_test(test_strided_operands),
    };
    return cmocka_run_group_tests_name("binary", tests, NULL, NULL);
}
