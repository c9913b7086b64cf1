/*
 * test_value.c — core's value types: str, int, float, bool, list and the
 * insertion-ordered dict, with Python's reprs, hashing and equality.
 */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void assert_repr(nn_object *o, const char *want)
{
    char *r = TU_OK(nn_repr(o));
    assert_string_equal(r, want);
    nn_free(r);
}

static void test_reprs_as_python(void **state)
{
    (void)state;
    struct { double v; const char *repr; } floats[] = {
        {1.0, "1.0"}, {0.1, "0.1"}, {-2.5, "-2.5"}, {1e16, "1e+16"}, {1e15, "1000000000000000.0"},
        {1.5e-5, "1.5e-05"}, {0.0001, "0.0001"}, {123456789.125, "123456789.125"}, {1.0 / 3, "0.3333333333333333"},
        {NAN, "nan"}, {-INFINITY, "-inf"}, {-0.0, "-0.0"}, {2e-308, "2e-308"}, {1.7976931348623157e308, "1.7976931348623157e+308"},
    };
    for (size_t i = 0; i < sizeof floats / sizeof floats[0]; i++) {
        nn_object *f = TU_OK(nn_float_new(floats[i].v));
        assert_repr(f, floats[i].repr);
        NN_RELEASE(f);
    }
    nn_object *s = TU_OK(nn_str_new("it's"));
    assert_repr(s, "\"it's\"");
    NN_RELEASE(s);
    s = TU_OK(nn_str_new("a'b\"c\n\\"));
    assert_repr(s, "'a\\'b\"c\\n\\\\'");
    NN_RELEASE(s);
    nn_object *l = TU_OK(nn_list_new(0));
    nn_object *i = TU_OK(nn_int_new(-3)), *t = nn_bool_new(true), *n = nn_none();
    tu_check(nn_list_append(l, i));
    tu_check(nn_list_append(l, t));
    tu_check(nn_list_append(l, n));
    assert_repr(l, "[-3, True, None]");
    NN_RELEASE(l); NN_RELEASE(i); NN_RELEASE(t);
}

static void test_dict_order_replace_delete(void **state)
{
    (void)state;
    nn_object *d = TU_OK(nn_dict_new());
    char key[16];
    for (int k = 0; k < 100; k++) {
        snprintf(key, sizeof key, "k%d", k);
        nn_object *v = TU_OK(nn_int_new(k));
        tu_check(nn_dict_set_str(d, key, v));
        NN_RELEASE(v);
    }
    assert_int_equal(nn_dict_len(d), 100);
    for (int k = 0; k < 100; k += 2) {
        snprintf(key, sizeof key, "k%d", k);
        tu_check(nn_dict_del_str(d, key));
    }
    nn_object *v = TU_OK(nn_float_new(0.5));
    tu_check(nn_dict_set_str(d, "k1", v)); /* replacing keeps the position */
    NN_RELEASE(v);
    size_t pos = 0;
    nn_object *k, *val;
    int expect = 1;
    while (nn_dict_next(d, &pos, &k, &val)) {
        snprintf(key, sizeof key, "k%d", expect);
        assert_string_equal(nn_str_cstr(k), key);
        expect += 2;
    }
    assert_int_equal(expect, 101);
    assert_true(nn_is_float(nn_dict_get_str(d, "k1")));
    assert_null(nn_dict_get_str(d, "k0"));
    assert_int_equal(nn_dict_del_str(d, "k0"), -1);
    tu_assert_error(NN_ERR_KEY, "'k0'");
    /* numbers that compare equal are the same key */
    nn_object *two = TU_OK(nn_int_new(2)), *two_f = TU_OK(nn_float_new(2.0)), *x = TU_OK(nn_str_new("x"));
    tu_check(nn_dict_set(d, two, x));
    assert_ptr_equal(nn_dict_get(d, two_f), x);
    nn_object *lst = TU_OK(nn_list_new(0));
    assert_int_equal(nn_dict_set(d, lst, x), -1);
    tu_assert_error(NN_ERR_TYPE, "unhashable type: 'list'");
    nn_object *small = TU_OK(nn_dict_new());
    tu_check(nn_dict_set_str(small, "a", two));
    assert_repr(small, "{'a': 2}");
    NN_RELEASE(small); NN_RELEASE(lst); NN_RELEASE(two); NN_RELEASE(two_f); NN_RELEASE(x); NN_RELEASE(d);
}

static void test_equality(void **state)
{
    (void)state;
    nn_object *a = TU_OK(nn_str_new("abc")), *b = TU_OK(nn_str_from("abcd", 3));
    assert_int_equal(nn_equal(a, b), 1);
    assert_int_equal(nn_hash(a), nn_hash(b));
    nn_object *t1 = TU_OK(nn_tuple_pack(2, a, nn_none())), *t2 = TU_OK(nn_tuple_pack(2, b, nn_none()));
    assert_int_equal(nn_equal(t1, t2), 1);
    assert_int_equal(nn_hash(t1), nn_hash(t2));
    nn_object *one = TU_OK(nn_int_new(1)), *yes = nn_bool_new(true);
    assert_int_equal(nn_equal(one, yes), 1);
    assert_int_equal(nn_equal(one, a), 0);
    NN_RELEASE(a); NN_RELEASE(b); NN_RELEASE(t1); NN_RELEASE(t2); NN_RELEASE(one); NN_RELEASE(yes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reprs_as_python),
        cmocka_unit_test(test_dict_order_replace_delete),
        cmocka_unit_test(test_equality),
    };
    return cmocka_run_group_tests_name("value", tests, NULL, NULL);
}
