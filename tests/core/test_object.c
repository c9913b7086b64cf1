/*
 * test_object.c — the object model (refcounts, None, tuples, C functions),
 * errors as Python exception kinds, and dtype conversions (float16/bfloat16
 * bits checked against PyTorch's in tests/fixtures/dtype.txt).
 */
#include "test_util.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_error_kinds_map_to_python_names(void **state)
{
    (void)state;
    assert_int_equal(nn_error_set(NN_ERR_INDEX, "index %d is out of range", 7), -1);
    assert_int_equal(nn_error_current(), NN_ERR_INDEX);
    assert_string_equal(nn_error_message(), "index 7 is out of range");
    assert_string_equal(nn_error_kind_name(NN_ERR_INDEX), "IndexError");
    assert_string_equal(nn_error_kind_name(NN_ERR_MEMORY), "MemoryError");
    assert_string_equal(nn_error_kind_name(NN_ERR_KEYBOARD_INTERRUPT), "KeyboardInterrupt");
    nn_error_clear();
    assert_int_equal(nn_error_current(), NN_OK);
    assert_string_equal(nn_error_message(), "");
    nn_interrupt_requested = 1;
    assert_int_equal(nn_check_interrupt(), -1);
    tu_assert_error(NN_ERR_KEYBOARD_INTERRUPT, NULL);
    assert_int_equal(nn_check_interrupt(), 0);
}

static nn_object *count_args(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)kwargs;
    *(size_t *)ud = nn_tuple_len(args);
    return nn_retain(nn_none());
}

static void test_tuples_none_and_cfunctions(void **state)
{
    (void)state;
    nn_tensor *t = tu_tensor(NN_INT64, 1, TU_SHAPE(2), TU_VALUES(1, 2));
    nn_object *tup = TU_OK(nn_tuple_pack(2, (nn_object *)t, nn_none()));
    assert_int_equal(t->ob.refcount, 2);
    char *r = TU_OK(nn_repr(tup));
    assert_string_equal(r, "(tensor([1, 2]), None)");
    nn_free(r);
    nn_object *one = TU_OK(nn_tuple_pack(1, nn_none()));
    r = TU_OK(nn_repr(one));
    assert_string_equal(r, "(None,)");
    nn_free(r);
    size_t seen = 0;
    nn_object *fn = TU_OK(nn_cfunction_new("count", count_args, &seen, NULL));
    nn_object *res = TU_OK(nn_call(fn, tup, NULL));
    assert_true(nn_is_none(res));
    assert_int_equal(seen, 2);
    assert_null(nn_call(tup, tup, NULL));
    tu_assert_error(NN_ERR_TYPE, "'tuple' object is not callable");
    NN_RELEASE(res); NN_RELEASE(fn); NN_RELEASE(one); NN_RELEASE(tup);
    assert_int_equal(t->ob.refcount, 1);
    NN_RELEASE(t);
}

static void test_half_conversions_match_pytorch(void **state)
{
    (void)state;
    char *text = tu_read_file("fixtures/dtype.txt");
    int n = 0;
    char *save, *line = strtok_r(text, "\n", &save);
    for (; line; line = strtok_r(NULL, "\n", &save), n++) {
        unsigned fbits, hbits, bbits;
        long long i32;
        int b;
        assert_int_equal(sscanf(line, "%x %x %x %lld %d", &fbits, &hbits, &bbits, &i32, &b), 5);
        float f;
        memcpy(&f, &fbits, 4);
        if (nn_float_to_half(f) != hbits) fail_msg("%s: half bits %04x", line, nn_float_to_half(f));
        if (nn_float_to_bfloat16(f) != bbits) fail_msg("%s: bfloat16 bits %04x", line, nn_float_to_bfloat16(f));
        /* and back: the 16-bit value widens exactly */
        float h = nn_half_to_float((uint16_t)hbits);
        if (isfinite(h)) assert_true(nn_float_to_half(h) == hbits);
        nn_tensor *t = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(1), (double[]){f});
        nn_tensor *bt = TU_OK(nn_to_dtype(t, NN_BOOL));
        assert_int_equal(*(uint8_t *)bt->storage->data, b);
        if (fabsf(f) < 2e9f) {
            nn_tensor *it = TU_OK(nn_to_dtype(t, NN_INT32));
            assert_int_equal(*(int32_t *)it->storage->data, i32);
            NN_RELEASE(it);
        }
        NN_RELEASE(t); NN_RELEASE(bt);
    }
    free(text);
    assert_true(n > 80);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_error_kinds_map_to_python_names),
        cmocka_unit_test(test_tuples_none_and_cfunctions),
        cmocka_unit_test(test_half_conversions_match_pytorch),
    };
    return cmocka_run_group_tests_name("object", tests, NULL, NULL);
}
