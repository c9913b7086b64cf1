/*
 * test_value.c — core's value types: str, int, float, bool, list and the
 * insertion-ordered dict, with Python's reprs, hashing and equality; the
 * small-int cache and the number free list, and how both meet the allocator hook.
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

/* An ordered dict is a dict (every nn_dict_* function) with CPython's OrderedDict
   repr; move_to_end moves either way, also after deletions, and leaves the dict
   as it was when the key is missing or the allocation fails; reprs of containers
   that contain themselves end, as CPython's, in ... */
static void test_ordered_dict(void **state)
{
    (void)state;
    nn_object *d = TU_OK(nn_ordered_dict_new());
    assert_true(nn_is_dict(d));
    assert_true(nn_dict_is_ordered(d));
    assert_repr(d, "OrderedDict()");
    const char *keys[] = {"a", "b", "c", "d"};
    for (int i = 0; i < 4; i++) {
        nn_object *v = TU_OK(nn_int_new(i));
        tu_check(nn_dict_set_str(d, keys[i], v));
        NN_RELEASE(v);
    }
    tu_check(nn_dict_del_str(d, "b")); /* a deleted entry before the moved ones */
    assert_repr(d, "OrderedDict([('a', 0), ('c', 2), ('d', 3)])");
    nn_object *a = TU_OK(nn_str_new("a")), *d_key = TU_OK(nn_str_new("d")), *missing = TU_OK(nn_str_new("zz"));
    tu_check(nn_dict_move_to_end(d, a, true));
    assert_repr(d, "OrderedDict([('c', 2), ('d', 3), ('a', 0)])");
    tu_check(nn_dict_move_to_end(d, d_key, false));
    assert_repr(d, "OrderedDict([('d', 3), ('c', 2), ('a', 0)])");
    assert_int_equal(nn_int_value(nn_dict_get_str(d, "c")), 2); /* lookups still find every key */
    assert_int_equal(nn_int_value(nn_dict_get(d, a)), 0);
    assert_int_equal(nn_dict_move_to_end(d, missing, true), -1);
    tu_assert_error(NN_ERR_KEY, "'zz'");
    tu_check(nn_dict_del_str(d, "c"));
    nn_set_allocator(tu_failing_alloc, NULL);
    tu_fail_at = tu_alloc_count + 1;
    assert_int_equal(nn_dict_move_to_end(d, d_key, true), -1);
    tu_assert_error(NN_ERR_MEMORY, "out of memory");
    tu_fail_at = -1;
    nn_set_allocator(NULL, NULL);
    assert_repr(d, "OrderedDict([('d', 3), ('a', 0)])");
    nn_object *copy = TU_OK(nn_dict_copy(d)), *plain = TU_OK(nn_dict_new());
    assert_true(nn_dict_is_ordered(copy));
    assert_repr(copy, "OrderedDict([('d', 3), ('a', 0)])");
    tu_check(nn_dict_set_str(plain, "x", a));
    nn_object *plain_copy = TU_OK(nn_dict_copy(plain));
    assert_false(nn_dict_is_ordered(plain_copy));
    assert_repr(plain_copy, "{'x': 'a'}");
    tu_check(nn_dict_set_str(plain, "inner", d));
    nn_object *outer = TU_OK(nn_ordered_dict_new());
    tu_check(nn_dict_set(outer, a, plain));
    assert_repr(outer, "OrderedDict([('a', {'x': 'a', 'inner': OrderedDict([('d', 3), ('a', 0)])})])");
    assert_int_equal(nn_hash(outer), -1);
    tu_assert_error(NN_ERR_TYPE, "unhashable type: 'collections.OrderedDict'");
    /* containers that contain themselves: CPython's ..., {...} and [...] */
    nn_object *self_ref = TU_OK(nn_ordered_dict_new()), *list = TU_OK(nn_list_new(0));
    tu_check(nn_dict_set_str(self_ref, "self", self_ref));
    tu_check(nn_list_append(list, list));
    tu_check(nn_dict_set_str(plain, "list", list));
    tu_check(nn_dict_set_str(plain, "plain", plain));
    tu_check(nn_list_append(list, self_ref));
    assert_repr(list, "[[...], OrderedDict([('self', ...)])]");
    assert_repr(plain, "{'x': 'a', 'inner': OrderedDict([('d', 3), ('a', 0)]), 'list': [[...], OrderedDict([('self', ...)])], 'plain': {...}}");
    nn_dict_clear(self_ref); /* break the cycles */
    NN_RELEASE(nn_list_pop(list, 0));
    tu_check(nn_dict_del_str(plain, "plain"));
    NN_RELEASE(self_ref); NN_RELEASE(list);
    NN_RELEASE(outer); NN_RELEASE(plain_copy); NN_RELEASE(plain); NN_RELEASE(copy);
    NN_RELEASE(a); NN_RELEASE(d_key); NN_RELEASE(missing); NN_RELEASE(d);
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

/* -5..256 are preallocated and shared, as in CPython; others are made fresh. */
static void test_small_ints_are_shared(void **state)
{
    (void)state;
    nn_alloc_fn old_fn;
    void *old_ud;
    nn_get_allocator(&old_fn, &old_ud);
    nn_set_allocator(tu_failing_alloc, NULL);
    tu_fail_at = -1;
    tu_alloc_count = 0;
    for (int64_t v = -5; v <= 256; v++) {
        nn_object *a = TU_OK(nn_int_new(v)), *b = TU_OK(nn_int_new(v));
        assert_ptr_equal(a, b);
        assert_int_equal(nn_int_value(a), v);
        NN_RELEASE(a);
        NN_RELEASE(b);
    }
    assert_int_equal(tu_alloc_count, 0); /* none of them allocated */
    int64_t outside[] = {-6, 257, INT64_MIN, INT64_MAX};
    for (size_t i = 0; i < sizeof outside / sizeof outside[0]; i++) {
        nn_object *a = TU_OK(nn_int_new(outside[i])), *b = TU_OK(nn_int_new(outside[i]));
        assert_ptr_not_equal(a, b);
        assert_int_equal(nn_int_value(a), outside[i]);
        assert_int_equal(nn_equal(a, b), 1);
        NN_RELEASE(a);
        NN_RELEASE(b);
    }
    assert_int_equal(tu_alloc_count, 8);
    nn_set_allocator(old_fn, old_ud);
    nn_object *minus5 = TU_OK(nn_int_new(-5));
    assert_repr(minus5, "-5");
    NN_RELEASE(minus5);
}

static long frees_seen;
/* tu_failing_alloc that also counts frees. */
static void *counting_alloc(void *ud, void *ptr, size_t n)
{
    if (n == 0 && ptr) frees_seen++;
    return tu_failing_alloc(ud, ptr, n);
}

/* Freed ints and floats are reused under the default allocator; a custom
   allocator sees every allocation and free of them, so the Nth can fail. */
static void test_number_free_list_and_allocator_hook(void **state)
{
    (void)state;
    nn_alloc_fn old_fn;
    void *old_ud;
    nn_get_allocator(&old_fn, &old_ud);
    nn_set_allocator(NULL, NULL);
    /* default allocator: a released number's block is the next number's */
    nn_object *big = TU_OK(nn_int_new(1000));
    void *block = big;
    NN_RELEASE(big);
    nn_object *f = TU_OK(nn_float_new(2.5));
    assert_ptr_equal(f, block);
    assert_true(nn_float_value(f) == 2.5);
    assert_repr(f, "2.5");
    nn_object *kept[40];
    for (int i = 0; i < 40; i++) kept[i] = TU_OK(nn_int_new(10000 + i));
    NN_RELEASE(f);
    for (int i = 0; i < 40; i++) NN_RELEASE(kept[i]);

    /* the 41 blocks just listed belong to the default allocator: installing another
       gives them back to it, and from then on every number goes through the hook */
    tu_fail_at = -1;
    tu_alloc_count = 0;
    frees_seen = 0;
    nn_set_allocator(counting_alloc, NULL);
    assert_int_equal(frees_seen, 0);
    for (int i = 0; i < 10; i++) {
        nn_object *a = TU_OK(nn_int_new(5000 + i)), *b = TU_OK(nn_float_new(i + 0.5));
        assert_int_equal(nn_int_value(a), 5000 + i);
        assert_true(nn_float_value(b) == i + 0.5);
        NN_RELEASE(a);
        NN_RELEASE(b);
    }
    assert_int_equal(tu_alloc_count, 20);
    assert_int_equal(frees_seen, 20);
    /* so fault injection reaches them */
    tu_fail_at = tu_alloc_count + 1;
    assert_null(nn_int_new(123456));
    tu_assert_error(NN_ERR_MEMORY, "out of memory");
    tu_fail_at = tu_alloc_count + 1;
    assert_null(nn_float_new(0.25));
    tu_assert_error(NN_ERR_MEMORY, "out of memory");
    nn_object *small = nn_int_new(7); /* allocates nothing: cannot fail */
    assert_non_null(small);
    assert_int_equal(nn_int_value(small), 7);
    NN_RELEASE(small);
    tu_fail_at = -1;

    /* back to the default: reuse resumes */
    nn_set_allocator(NULL, NULL);
    big = TU_OK(nn_int_new(-1000));
    block = big;
    NN_RELEASE(big);
    f = TU_OK(nn_float_new(-0.0));
    assert_ptr_equal(f, block);
    assert_repr(f, "-0.0");
    NN_RELEASE(f);
    nn_set_allocator(old_fn, old_ud);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reprs_as_python),
        cmocka_unit_test(test_dict_order_replace_delete),
        cmocka_unit_test(test_ordered_dict),
        cmocka_unit_test(test_equality),
        cmocka_unit_test(test_small_ints_are_shared),
        cmocka_unit_test(test_number_free_list_and_allocator_hook),
    };
    return cmocka_run_group_tests_name("value", tests, NULL, NULL);
}
