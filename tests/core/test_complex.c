/*
 * test_complex.c — complex tensors in core (core/complex.c, core/complex_value.c):
 * the dtype's promotion, view_as_real / view_as_complex sharing memory, the
 * elementwise arithmetic against C's complex numbers, the printer, items and the
 * Python complex value's repr, hash and equality. The PyTorch-made comparisons
 * are tests/scripts/complex_tensors.py and complex_eig.py.
 */
#include "test_util.h"

#include <complex.h>
#include <math.h>
#include <string.h>

static nn_tensor *cvec(nn_dtype dt, int n, const double *parts)
{
    int64_t s = n;
    nn_tensor *t = TU_OK(nn_empty(1, &s, dt));
    nn_tensor *r = TU_OK(nn_view_as_real(t));
    nn_tensor *v = TU_OK(tu_tensor(NN_FLOAT64, 2, (const int64_t[]){n, 2}, parts));
    tu_check(nn_copy_(r, v));
    NN_RELEASE(r);
    NN_RELEASE(v);
    return t;
}

static void test_promotion(void **state)
{
    (void)state;
    assert_int_equal(nn_promote_types(NN_COMPLEX64, NN_FLOAT64), NN_COMPLEX128);
    assert_int_equal(nn_promote_types(NN_COMPLEX64, NN_INT64), NN_COMPLEX64);
    assert_int_equal(nn_promote_types(NN_FLOAT32, NN_COMPLEX128), NN_COMPLEX128);
    assert_false(nn_dtype_is_floating(NN_COMPLEX64));
    assert_false(nn_dtype_is_integer(NN_COMPLEX128));
    assert_int_equal(nn_dtype_size(NN_COMPLEX64), 8);
    assert_string_equal(nn_dtype_name(NN_COMPLEX128), "torch.complex128");
    /* a float32 tensor times a Python complex: complex64; a float64 one: complex128 */
    nn_tensor *f = TU_OK(nn_ones(1, (const int64_t[]){2}, NN_FLOAT32)), *g = TU_OK(nn_ones(1, (const int64_t[]){2}, NN_FLOAT64));
    nn_tensor *j = TU_OK(nn_wrapped_complex(0, 1));
    assert_int_equal(nn_result_type(f, j), NN_COMPLEX64);
    assert_int_equal(nn_result_type(g, j), NN_COMPLEX128);
    NN_RELEASE(f), NN_RELEASE(g), NN_RELEASE(j);
}

static void test_views_share_memory(void **state)
{
    (void)state;
    const double p[4] = {1, 2, 3, -4};
    nn_tensor *z = cvec(NN_COMPLEX64, 2, p);
    nn_tensor *im = TU_OK(nn_imag(z));
    assert_int_equal(im->dtype, NN_FLOAT32);
    tu_check(nn_fill_(im, 7));
    double re, ii;
    nn_tensor *z1 = TU_OK(nn_select(z, 0, 1));
    tu_check(nn_complex_item(z1, &re, &ii));
    assert_true(re == 3 && ii == 7);
    nn_tensor *r = TU_OK(nn_view_as_real(z)), *back = TU_OK(nn_view_as_complex(r));
    assert_true(back->storage == z->storage && back->dtype == NN_COMPLEX64);
    nn_tensor *odd = TU_OK(nn_slice(r, 1, 1, 2, 1)); /* stride 2, offset 1: not a complex view */
    assert_null(nn_view_as_complex(odd));
    assert_int_equal(nn_error_current(), NN_ERR_RUNTIME);
    nn_error_clear();
    NN_RELEASE(im), NN_RELEASE(z1), NN_RELEASE(r), NN_RELEASE(back), NN_RELEASE(odd), NN_RELEASE(z);
}

static void test_arithmetic(void **state)
{
    (void)state;
    const double pa[6] = {1, 2, -0.5, 3, 4, -1}, pb[6] = {2, -1, 0.25, 0.5, -3, 2};
    nn_tensor *a = cvec(NN_COMPLEX128, 3, pa), *b = cvec(NN_COMPLEX128, 3, pb);
    nn_tensor *ops[4] = {TU_OK(nn_add(a, b)), TU_OK(nn_sub(a, b)), TU_OK(nn_mul(a, b)), TU_OK(nn_div(a, b))};
    for (int k = 0; k < 3; k++) {
        /* finite parts, so re + im * I is exact (CMPLX is glibc's for GCC only: clang builds would not link) */
        double complex x = pa[2 * k] + pa[2 * k + 1] * I, y = pb[2 * k] + pb[2 * k + 1] * I;
        double complex want[4] = {x + y, x - y, x * y, x / y};
        for (int o = 0; o < 4; o++) {
            nn_tensor *e = TU_OK(nn_select(ops[o], 0, k));
            double re, im;
            tu_check(nn_complex_item(e, &re, &im));
            assert_true(fabs(re - creal(want[o])) < 1e-14 && fabs(im - cimag(want[o])) < 1e-14);
            NN_RELEASE(e);
        }
    }
    nn_tensor *lt = nn_compare(a, b, NN_LT);
    assert_null(lt);
    assert_string_equal(nn_error_message(), "\"lt_cpu\" not implemented for 'ComplexDouble'");
    nn_error_clear();
    nn_tensor *mag = TU_OK(nn_abs(a));
    assert_int_equal(mag->dtype, NN_FLOAT64);
    assert_true(fabs(nn_get_double(mag, (const int64_t[NN_MAX_DIMS]){2}) - hypot(4, -1)) < 1e-15);
    for (int o = 0; o < 4; o++) NN_RELEASE(ops[o]);
    NN_RELEASE(mag), NN_RELEASE(a), NN_RELEASE(b);
}

static void test_print_and_values(void **state)
{
    (void)state;
    const double p[4] = {1, 2, 3, -4};
    nn_tensor *z = cvec(NN_COMPLEX64, 2, p);
    char *s = TU_OK(nn_tensor_repr(z));
    assert_string_equal(s, "tensor([1.+2.j, 3.-4.j])");
    nn_free(s);
    nn_object *c = TU_OK(nn_complex_new(1, -0.5)), *j = TU_OK(nn_complex_new(0, 2)), *two = TU_OK(nn_complex_new(2, 0));
    nn_object *f = TU_OK(nn_float_new(2));
    char *r1 = nn_repr(c), *r2 = nn_repr(j);
    assert_string_equal(r1, "(1-0.5j)");
    assert_string_equal(r2, "2j");
    assert_int_equal(nn_equal(two, f), 1);
    assert_int_equal(nn_hash(two), nn_hash(f));
    nn_free(r1), nn_free(r2);
    NN_RELEASE(c), NN_RELEASE(j), NN_RELEASE(two), NN_RELEASE(f), NN_RELEASE(z);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_promotion),
        cmocka_unit_test(test_views_share_memory),
        cmocka_unit_test(test_arithmetic),
        cmocka_unit_test(test_print_and_values),
    };
    return cmocka_run_group_tests_name("complex", tests, NULL, NULL);
}
