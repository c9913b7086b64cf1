/*
 * test_device_factories.c — every core factory's _on form makes its tensor on
 * the device it is given, through that device's backend (the loopback test
 * device, poisoned: under AddressSanitizer a host write to its memory outside
 * its kernels and transfers crashes), with the values the CPU form gives (the
 * random ones from the same generator state); the forms without _on use the
 * default device; the _like factories keep their argument's device.
 */
#include "test_util.h"

#include <stdlib.h>

static const nn_device CUDA0 = {NN_CUDA, 0};

/* dev is on the device, cpu on the CPU, and they hold the same elements. */
static void assert_same(nn_tensor *dev, nn_tensor *cpu)
{
    if (!dev || !cpu) fail_msg("factory failed: %s", nn_error_message());
    assert_int_equal(nn_device_of(dev).type, NN_CUDA);
    assert_int_equal(nn_device_of(cpu).type, NN_CPU);
    assert_int_equal(dev->dtype, cpu->dtype);
    int64_t n = nn_numel(cpu);
    double *want = malloc(sizeof(double) * (size_t)(n ? n : 1));
    nn_to_doubles(cpu, want);
    tu_assert_values(dev, cpu->ndim, cpu->sizes, want, 0);
    free(want);
    NN_RELEASE(dev);
    NN_RELEASE(cpu);
}

static void test_factories_on_a_device(void **state)
{
    (void)state;
    const nn_device CPU = NN_DEVICE_CPU;
    int64_t s[] = {2, 3}, s0[] = {0, 4};
    assert_same(nn_zeros_on(CUDA0, 2, s, NN_FLOAT32), nn_zeros_on(CPU, 2, s, NN_FLOAT32));
    assert_same(nn_zeros_on(CUDA0, 2, s0, NN_FLOAT32), nn_zeros_on(CPU, 2, s0, NN_FLOAT32));
    assert_same(nn_ones_on(CUDA0, 2, s, NN_INT64), nn_ones_on(CPU, 2, s, NN_INT64));
    assert_same(nn_full_on(CUDA0, 0, NULL, 2.5, NN_FLOAT64), nn_full_on(CPU, 0, NULL, 2.5, NN_FLOAT64));
    assert_same(nn_arange_on(CUDA0, 1, 7, 1.5, false, -1), nn_arange_on(CPU, 1, 7, 1.5, false, -1));
    assert_same(nn_arange_on(CUDA0, 0, 5, 1, true, -1), nn_arange_on(CPU, 0, 5, 1, true, -1));
    assert_same(nn_linspace_on(CUDA0, -1, 1, 5, NN_FLOAT32), nn_linspace_on(CPU, -1, 1, 5, NN_FLOAT32));
    assert_same(nn_eye_on(CUDA0, 3, 4, NN_FLOAT32), nn_eye_on(CPU, 3, 4, NN_FLOAT32));
    double v[] = {1, -2, 3.5, 4, 0, 6};
    assert_same(nn_from_data_on(CUDA0, (float[]){1, -2, 3.5, 4, 0, 6}, 2, s, NN_FLOAT32), tu_tensor(NN_FLOAT32, 2, s, v));

    /* the random factories: the same draws from the same generator state */
    nn_generator_seed(nn_current_generator(), 3);
    nn_tensor *r = nn_rand_on(CUDA0, 2, s, NN_FLOAT32);
    nn_generator_seed(nn_current_generator(), 3);
    assert_same(r, nn_rand_on(CPU, 2, s, NN_FLOAT32));
    nn_generator_seed(nn_current_generator(), 4);
    r = nn_randn_on(CUDA0, 2, s, NN_FLOAT64);
    nn_generator_seed(nn_current_generator(), 4);
    assert_same(r, nn_randn_on(CPU, 2, s, NN_FLOAT64));
    nn_generator_seed(nn_current_generator(), 5);
    r = nn_randint_on(CUDA0, -3, 9, 2, s, NN_INT64);
    nn_generator_seed(nn_current_generator(), 5);
    assert_same(r, nn_randint_on(CPU, -3, 9, 2, s, NN_INT64));
    nn_generator_seed(nn_current_generator(), 6);
    r = nn_randperm_on(CUDA0, 10, NN_INT64);
    nn_generator_seed(nn_current_generator(), 6);
    assert_same(r, nn_randperm_on(CPU, 10, NN_INT64));

    /* errors are the CPU's, and nothing is made */
    assert_null(nn_arange_on(CUDA0, 0, 1, 0, false, -1));
    tu_assert_error(NN_ERR_RUNTIME, "step must be nonzero");
    assert_null(nn_eye_on(CUDA0, -2, 3, NN_FLOAT32));
    tu_assert_error(NN_ERR_RUNTIME, "n must be greater or equal to 0");
    nn_error_clear();
}

/* Without _on: the default device; _like: the argument's device. */
static void test_default_device_and_like(void **state)
{
    (void)state;
    int64_t s[] = {3};
    nn_tensor *c = tu_ok(nn_zeros(1, s, NN_FLOAT32));
    assert_int_equal(nn_device_of(c).type, NN_CPU);
    nn_set_default_device(CUDA0);
    nn_tensor *d = tu_ok(nn_ones(1, s, NN_FLOAT32)), *a = tu_ok(nn_arange(0, 3, 1, true, -1));
    nn_tensor *r = tu_ok(nn_randn(1, s, NN_FLOAT32));
    nn_set_default_device(NN_DEVICE_CPU);
    assert_int_equal(nn_device_of(d).type, NN_CUDA);
    assert_int_equal(nn_device_of(a).type, NN_CUDA);
    assert_int_equal(nn_device_of(r).type, NN_CUDA);
    nn_tensor *likes[] = {tu_ok(nn_empty_like(d)), tu_ok(nn_zeros_like(d)), tu_ok(nn_ones_like(d)),
                          tu_ok(nn_full_like(d, 7)), tu_ok(nn_zeros_like(c))};
    for (int k = 0; k < 4; k++) assert_int_equal(nn_device_of(likes[k]).type, NN_CUDA);
    assert_int_equal(nn_device_of(likes[4]).type, NN_CPU);
    double sevens[] = {7, 7, 7};
    tu_assert_values(likes[3], 1, s, sevens, 0);
    for (int k = 0; k < 5; k++) NN_RELEASE(likes[k]);
    NN_RELEASE(r);
    NN_RELEASE(a);
    NN_RELEASE(d);
    NN_RELEASE(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_factories_on_a_device),
        cmocka_unit_test(test_default_device_and_like),
    };
    return cmocka_run_group_tests_name("device_factories", tests, tu_loopback_setup, tu_loopback_teardown);
}
