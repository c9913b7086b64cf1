/*
 * test_vmath.c — PyTorch's exact float32 bits from the vectorized CPU math
 * (core/cpu/vmath.c): the SLEEF functions behind sin, cos, tan, asin, acos,
 * atan, log2, log10, log1p, expm1, erf, erfc, and the last-dim softmax and
 * log_softmax, over the dense inputs of fixtures/vmath.txt (written by
 * fixtures/gen_vmath.py from PyTorch 1.13, which explains the inputs and the
 * block checksums). Without AVX2 (nn_vmath_available false) the portable loops
 * run and bit-identity is not claimed: the test then checks nothing but the
 * shapes and is skipped.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "cpu/nn_vmath.h"

typedef nn_tensor *(*unary_fn)(nn_tensor *);

/* UNARY's first VML_OPS ops are ATen's vml kernels (Sleef on every element);
   the others are cpu_kernel_vec kernels with a scalar tail */
#define VML_OPS 15

static nn_tensor *elu1(nn_tensor *a) { return nn_elu(a, 1.0); }

static const struct {
    const char *name;
    unary_fn fn;
} UNARY[] = {
    {"sin", nn_sin},     {"cos", nn_cos},     {"tan", nn_tan},     {"asin", nn_asin},
    {"acos", nn_acos},   {"atan", nn_atan},   {"log2", nn_log2},   {"log10", nn_log10},
    {"log1p", nn_log1p}, {"expm1", nn_expm1}, {"erf", nn_erf},     {"erfc", nn_erfc},
    {"exp", nn_exp},     {"log", nn_log},     {"tanh", nn_tanh},   {"sigmoid", nn_sigmoid},
    {"silu", nn_silu},   {"elu", elu1},
};

static uint32_t golden(uint64_t i) { return (uint32_t)((i * 2654435761u) & 0xffffffffu); }

/* fixtures/gen_vmath.py's elementwise input */
static nn_tensor *elementwise_input(int64_t n)
{
    assert_int_equal(n, (1 << 20) + (1 << 17));
    nn_tensor *x = TU_OK(nn_empty(1, TU_SHAPE(n), NN_FLOAT32));
    float *p = nn_data_ptr(x);
    for (int64_t i = 0; i < (1 << 20); i++) {
        uint32_t b = golden((uint64_t)i);
        memcpy(&p[i], &b, sizeof b);
    }
    for (int64_t j = 0; j < (1 << 17); j++) p[(1 << 20) + j] = (float)(j - (1 << 16)) * 0x1p-12f;
    return x;
}

static nn_tensor *softmax_input(int64_t rows, int64_t cols)
{
    nn_tensor *x = TU_OK(nn_empty(2, TU_SHAPE(rows, cols), NN_FLOAT32));
    float *p = nn_data_ptr(x);
    for (int64_t i = 0; i < rows * cols; i++) p[i] = (float)(golden((uint64_t)i) >> 8) * 0x1p-20f - 8.0f;
    return x;
}

/* Compares y's block checksums with the fixture's (text after the block size);
   returns the number of differing blocks. */
static int check_blocks(const char *what, const nn_tensor *y, int64_t block, char *sums)
{
    const float *p = nn_data_ptr((nn_tensor *)y);
    int64_t n = nn_numel(y);
    int bad = 0;
    char *save = NULL;
    char *tok = strtok_r(sums, " \n", &save);
    for (int64_t b = 0; b < n; b += block, tok = strtok_r(NULL, " \n", &save)) {
        if (!tok) fail_msg("%s: the fixture has too few blocks", what);
        uint64_t want = strtoull(tok, NULL, 16), got = 0;
        for (int64_t i = b; i < n && i < b + block; i++) {
            uint32_t bits;
            memcpy(&bits, &p[i], sizeof bits);
            if (isnan(p[i])) bits = 0x7fc00000u;
            got += (uint64_t)bits * (uint64_t)(2 * (i - b) + 1);
        }
        if (got != want) {
            print_message("  %s: block %lld (elements %lld..) differs from PyTorch\n", what, (long long)(b / block),
                          (long long)b);
            bad++;
        }
    }
    return bad;
}

/* op over the fixture's SHAPE of the elementwise input ex: N (all of it),
   N@T (its first N elements under T threads), s (the strided view
   ex.view(1152, 1024)[:, 3:1020]) or e (ex[::2]) */
static nn_tensor *elementwise_case(unary_fn op, nn_tensor *ex, const char *shape)
{
    long long n;
    int threads, saved = nn_get_num_threads();
    nn_tensor *x, *y;
    if (strcmp(shape, "s") == 0) {
        nn_tensor *head = TU_OK(nn_slice(ex, 0, 0, 1152 * 1024, 1));
        nn_tensor *m = TU_OK(nn_view(head, 2, TU_SHAPE(1152, 1024)));
        x = TU_OK(nn_slice(m, 1, 3, 1020, 1));
        NN_RELEASE(m);
        NN_RELEASE(head);
    } else if (strcmp(shape, "e") == 0) {
        x = TU_OK(nn_slice(ex, 0, 0, nn_numel(ex), 2));
    } else if (sscanf(shape, "%lld@%d", &n, &threads) == 2) {
        tu_check(nn_set_num_threads(threads));
        x = TU_OK(nn_slice(ex, 0, 0, n, 1));
    } else {
        assert_int_equal(atoll(shape), nn_numel(ex));
        return op(ex);
    }
    y = op(x);
    tu_check(nn_set_num_threads(saved));
    NN_RELEASE(x);
    if (y && !nn_is_contiguous(y)) NN_SET(y, nn_contiguous(y));
    return y;
}

static unary_fn unary_named(const char *name)
{
    for (size_t k = 0; k < sizeof UNARY / sizeof *UNARY; k++)
        if (strcmp(UNARY[k].name, name) == 0) return UNARY[k].fn;
    fail_msg("fixture: unknown op %s", name);
    return NULL;
}

static void test_fixture(void **state)
{
    (void)state;
    if (!nn_vmath_available()) skip();
    char *text = tu_read_file("fixtures/vmath.txt");
    int cases = 0, bad = 0;
    nn_tensor *ex = NULL;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#') continue;
        char op[32], shape[32];
        long long block;
        int used = 0;
        if (sscanf(line, "%31s %31s %lld %n", op, shape, &block, &used) != 3) fail_msg("fixture: bad line %s", line);
        char what[80];
        snprintf(what, sizeof what, "%s %s", op, shape);
        nn_tensor *y;
        if (strstr(op, "softmax")) {
            long long rows, cols;
            if (sscanf(shape, "%lldx%lld", &rows, &cols) != 2) fail_msg("fixture: bad shape %s", shape);
            nn_tensor *x = softmax_input(rows, cols);
            y = TU_OK(strcmp(op, "softmax") == 0 ? nn_softmax(x, -1) : nn_log_softmax(x, -1));
            NN_RELEASE(x);
        } else {
            if (!ex) ex = elementwise_input((1 << 20) + (1 << 17));
            y = TU_OK(elementwise_case(unary_named(op), ex, shape));
        }
        bad += check_blocks(what, y, block, line + used);
        NN_RELEASE(y);
        cases++;
    }
    NN_RELEASE(ex);
    free(text);
    print_message("  %d fixture cases, every float32 bit compared with PyTorch's\n", cases);
    assert_true(cases >= 20);
    assert_int_equal(bad, 0);
}

/* A strided input gives the bits of its contiguous copy (ATen's vml kernels
   run the vector function on every element, strided or not), and so does a
   length that leaves a partial last vector. */
static void test_strided_and_tails(void **state)
{
    (void)state;
    nn_tensor *x = softmax_input(301, 2); /* column 0 is a stride-2 view */
    nn_tensor *col = TU_OK(nn_select(x, 1, 0));
    nn_tensor *dense = TU_OK(nn_contiguous(col));
    for (size_t k = 0; k < VML_OPS; k++) {
        nn_tensor *a = TU_OK(UNARY[k].fn(col)), *b = TU_OK(UNARY[k].fn(dense));
        assert_memory_equal(nn_data_ptr(a), nn_data_ptr(b), 301 * sizeof(float));
        /* every prefix length ends in a different partial vector */
        for (int64_t len = 1; len <= 17; len++) {
            nn_tensor *part = TU_OK(nn_slice(dense, 0, 0, len, 1));
            nn_tensor *c = TU_OK(UNARY[k].fn(part));
            assert_memory_equal(nn_data_ptr(c), nn_data_ptr(b), (size_t)len * sizeof(float));
            NN_RELEASE(c);
            NN_RELEASE(part);
        }
        NN_RELEASE(a);
        NN_RELEASE(b);
    }
    NN_RELEASE(dense);
    NN_RELEASE(col);
    NN_RELEASE(x);
}

/* Softmax rows with NaN and infinities: a NaN anywhere in a row makes the row
   NaN, +inf gives NaN (inf - inf), -inf gives zeros there, as PyTorch's. */
static void test_softmax_special(void **state)
{
    (void)state;
    for (int64_t n = 1; n <= 19; n++) {
        nn_tensor *x = softmax_input(3, n);
        float *p = nn_data_ptr(x);
        p[0 * n + (n - 1)] = NAN;
        p[1 * n + n / 2] = -INFINITY;
        p[2 * n] = INFINITY;
        nn_tensor *y = TU_OK(nn_softmax(x, -1)), *ly = TU_OK(nn_log_softmax(x, -1));
        const float *q = nn_data_ptr(y), *lq = nn_data_ptr(ly);
        for (int64_t i = 0; i < n; i++) {
            assert_true(isnan(q[i]) && isnan(lq[i]));
            assert_true(isnan(q[2 * n + i]));
        }
        if (n > 1) {
            assert_true(q[n + n / 2] == 0.0f);
            assert_true(isinf(lq[n + n / 2]) && lq[n + n / 2] < 0);
        }
        NN_RELEASE(y);
        NN_RELEASE(ly);
        NN_RELEASE(x);
    }
}

/* Whole-tensor sum and mean, float32 and float64, 1 to 10^7 elements, under
   PyTorch's thread counts 1, 2 and 3 (fixtures/sum.txt, from gen_sum.py). */
static void test_sum_all(void **state)
{
    (void)state;
    char *text = tu_read_file("fixtures/sum.txt");
    int saved = nn_get_num_threads(), cases = 0, bad = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#') continue;
        int threads;
        char dt[16];
        long long n;
        unsigned long long want_sum, want_mean;
        if (sscanf(line, "%d %15s %lld %llx %llx", &threads, dt, &n, &want_sum, &want_mean) != 5)
            fail_msg("fixture: bad line %s", line);
        tu_check(nn_set_num_threads(threads));
        nn_tensor *x32 = softmax_input(1, n), *x = TU_OK(nn_to_dtype(x32, tu_dtype(dt)));
        nn_tensor *s = TU_OK(nn_sum(x, 0, NULL, false)), *m = TU_OK(nn_mean(x, 0, NULL, false));
        unsigned long long got_sum = 0, got_mean = 0;
        memcpy(&got_sum, nn_data_ptr(s), nn_dtype_size(s->dtype));
        memcpy(&got_mean, nn_data_ptr(m), nn_dtype_size(m->dtype));
        if (got_sum != want_sum || got_mean != want_mean) {
            print_message("  %d threads, %s, n=%lld: sum %llx mean %llx, PyTorch %llx %llx\n", threads, dt, n, got_sum,
                          got_mean, want_sum, want_mean);
            bad++;
        }
        NN_RELEASE(s);
        NN_RELEASE(m);
        NN_RELEASE(x);
        NN_RELEASE(x32);
        cases++;
    }
    tu_check(nn_set_num_threads(saved));
    free(text);
    print_message("  %d sums and means compared bit for bit with PyTorch's\n", cases);
    assert_true(cases >= 90);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture),
        cmocka_unit_test(test_strided_and_tails),
        cmocka_unit_test(test_softmax_special),
        cmocka_unit_test(test_sum_all),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
