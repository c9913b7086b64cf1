/*
 * test_tensor.c — tensors: factories (checked against PyTorch fixtures),
 * views and their storage sharing, indexing and index assignment, dtype
 * conversion, and bad input (negative sizes, absurd sizes, failing
 * allocations) which must give errors, never crashes or changed inputs.
 */
#include "test_util.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_factories_match_pytorch(void **state)
{
    (void)state;
    char *text = tu_read_file("fixtures/factories.txt");
    int cases = 0;
    char *save, *line = strtok_r(text, "\n", &save);
    for (; line; line = strtok_r(NULL, "\n", &save), cases++) {
        char name[16], dtype[16];
        /* a line can hold up to 100 values */
        double a, b, c = 0;
        char *bar1 = strchr(line, '|'), *bar2 = strchr(bar1 + 1, '|');
        int nargs = sscanf(line, "%15s %lf %lf %lf", name, &a, &b, &c);
        char *dot = strchr(line, '.');
        bool integer = !dot || dot > bar1;
        int64_t shape[2] = {0, 1};
        int ndim = sscanf(bar1 + 1, "%15s %" SCNd64 ",%" SCNd64, dtype, &shape[0], &shape[1]) - 1;
        double values[128];
        int n = 0;
        for (char *p = bar2 + 1; *p;) {
            char *end;
            double v = strtod(p, &end);
            if (end == p) break;
            values[n++] = v;
            p = end;
        }
        nn_tensor *t = NULL;
        if (!strcmp(name, "arange")) t = nn_arange(a, b, c, integer, -1);
        else if (!strcmp(name, "linspace")) t = nn_linspace(a, b, (int64_t)c, NN_FLOAT32);
        else if (!strcmp(name, "linspace64")) t = nn_linspace(a, b, (int64_t)c, NN_FLOAT64);
        else if (!strcmp(name, "eye")) t = nn_eye((int64_t)a, (int64_t)b, NN_FLOAT32);
        assert_true(nargs >= 3);
        if (!t) fail_msg("%s: %s", line, nn_error_message());
        assert_string_equal(nn_dtype_short_name(t->dtype), dtype);
        tu_assert_values(t, ndim, shape, values, 0);
        NN_RELEASE(t);
    }
    free(text);
    assert_int_equal(cases, 23);
}

static void test_fill_zeros_ones_full(void **state)
{
    (void)state;
    nn_tensor *z = TU_OK(nn_zeros(2, TU_SHAPE(2, 2), NN_INT32));
    tu_assert_values(z, 2, TU_SHAPE(2, 2), TU_VALUES(0, 0, 0, 0), 0);
    nn_tensor *f = TU_OK(nn_full(1, TU_SHAPE(3), 2.5, NN_FLOAT16));
    tu_assert_values(f, 1, TU_SHAPE(3), TU_VALUES(2.5, 2.5, 2.5), 0);
    nn_tensor *col = TU_OK(nn_select(z, 1, 1));
    tu_check(nn_fill_(col, 7));
    tu_assert_values(z, 2, TU_SHAPE(2, 2), TU_VALUES(0, 7, 0, 7), 0);
    nn_tensor *o = TU_OK(nn_ones_like(z));
    assert_int_equal(o->dtype, NN_INT32);
    assert_int_equal(nn_copy_(z, f), -1); /* [3] does not broadcast to [2, 2] */
    tu_assert_error(NN_ERR_RUNTIME, "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1");
    NN_RELEASE(z); NN_RELEASE(f); NN_RELEASE(col); NN_RELEASE(o);
}

static void test_copy_broadcast_and_convert(void **state)
{
    (void)state;
    nn_tensor *dst = TU_OK(nn_zeros(2, TU_SHAPE(2, 3), NN_INT64));
    nn_tensor *row = tu_tensor(NN_FLOAT64, 1, TU_SHAPE(3), TU_VALUES(1.9, -2.7, 3));
    tu_check(nn_copy_(dst, row));
    tu_assert_values(dst, 2, TU_SHAPE(2, 3), TU_VALUES(1, -2, 3, 1, -2, 3), 0);
    nn_tensor *bad = tu_tensor(NN_FLOAT64, 1, TU_SHAPE(2), TU_VALUES(1, 2));
    assert_int_equal(nn_copy_(dst, bad), -1);
    tu_assert_error(NN_ERR_RUNTIME, "must match the size");
    tu_assert_values(dst, 2, TU_SHAPE(2, 3), TU_VALUES(1, -2, 3, 1, -2, 3), 0);
    nn_tensor *h = TU_OK(nn_to_dtype(row, NN_BFLOAT16));
    tu_assert_values(h, 1, TU_SHAPE(3), TU_VALUES(1.8984375, -2.703125, 3), 0);
    NN_RELEASE(dst); NN_RELEASE(row); NN_RELEASE(bad); NN_RELEASE(h);
}

static void test_views_share_storage(void **state)
{
    (void)state;
    nn_tensor *a = TU_OK(nn_arange(0, 24, 1, true, NN_FLOAT32));
    nn_tensor *v = TU_OK(nn_view(a, 3, TU_SHAPE(2, -1, 4)));
    assert_int_equal(v->sizes[1], 3);
    assert_ptr_equal(v->storage, a->storage);
    nn_tensor *p = TU_OK(nn_permute(v, 3, (const int[]){2, 0, 1}));
    tu_assert_values(p, 3, TU_SHAPE(4, 2, 3), (const double[]){0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21,
                                                                2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23}, 0);
    assert_null(nn_view(p, 1, TU_SHAPE(24)));
    tu_assert_error(NN_ERR_RUNTIME, "view size is not compatible with input tensor's size and stride");
    assert_null(nn_view(a, 2, TU_SHAPE(5, -1)));
    tu_assert_error(NN_ERR_RUNTIME, "shape '[5, -1]' is invalid for input of size 24");
    nn_tensor *r = TU_OK(nn_reshape(p, 2, TU_SHAPE(4, 6)));
    assert_ptr_equal(r->storage, a->storage); /* the last two dims merge: still a view */
    NN_RELEASE(r);
    r = TU_OK(nn_reshape(p, 1, TU_SHAPE(24)));
    assert_ptr_not_equal(r->storage, a->storage); /* had to copy */
    nn_tensor *f = TU_OK(nn_flatten(v, 1, -1));
    assert_int_equal(f->ndim, 2);
    assert_int_equal(f->sizes[1], 12);
    nn_tensor *u = TU_OK(nn_unsqueeze(f, -1));
    assert_int_equal(u->ndim, 3);
    nn_tensor *s = TU_OK(nn_squeeze(u));
    assert_int_equal(s->ndim, 2);
    nn_tensor *e = TU_OK(nn_expand(u, 3, TU_SHAPE(-1, -1, 5)));
    assert_int_equal(e->strides[2], 0);
    assert_null(nn_expand(f, 2, TU_SHAPE(3, 12)));
    tu_assert_error(NN_ERR_RUNTIME, "The expanded size of the tensor (3) must match the existing size (2) at non-singleton dimension 0");
    nn_tensor *rev = TU_OK(nn_T(v)); /* [2, 3, 4] -> [4, 3, 2] */
    assert_int_equal(rev->sizes[0], 4);
    assert_int_equal(rev->sizes[2], 2);
    assert_int_equal(rev->strides[0], 1);
    NN_RELEASE(rev);
    assert_null(nn_transpose(f, 0, 2));
    tu_assert_error(NN_ERR_INDEX, "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
    NN_RELEASE(a); NN_RELEASE(v); NN_RELEASE(p); NN_RELEASE(r); NN_RELEASE(f); NN_RELEASE(u); NN_RELEASE(s);
    NN_RELEASE(e);
}

static void test_basic_indexing(void **state)
{
    (void)state;
    nn_tensor *a = TU_OK(nn_arange(0, 12, 1, true, NN_FLOAT32));
    nn_tensor *m = TU_OK(nn_view(a, 2, TU_SHAPE(3, 4)));
    /* m[-1] */
    nn_index_item last[1] = {{.kind = NN_INDEX_INT, .start = -1}};
    nn_tensor *r = TU_OK(nn_index(m, 1, last));
    tu_assert_values(r, 1, TU_SHAPE(4), TU_VALUES(8, 9, 10, 11), 0);
    /* m[:, 1] */
    nn_index_item col[2] = {{.kind = NN_INDEX_SLICE}, {.kind = NN_INDEX_INT, .start = 1}};
    nn_tensor *c = TU_OK(nn_index(m, 2, col));
    tu_assert_values(c, 1, TU_SHAPE(3), TU_VALUES(1, 5, 9), 0);
    /* m[1:, ::2] */
    nn_index_item sl[2] = {{.kind = NN_INDEX_SLICE, .start = 1, .has_start = true},
                           {.kind = NN_INDEX_SLICE, .step = 2}};
    nn_tensor *s = TU_OK(nn_index(m, 2, sl));
    tu_assert_values(s, 2, TU_SHAPE(2, 2), TU_VALUES(4, 6, 8, 10), 0);
    /* m[None, ..., -2:] */
    nn_index_item ne[3] = {{.kind = NN_INDEX_NONE}, {.kind = NN_INDEX_ELLIPSIS},
                           {.kind = NN_INDEX_SLICE, .start = -2, .has_start = true}};
    nn_tensor *n = TU_OK(nn_index(m, 3, ne));
    tu_assert_values(n, 3, TU_SHAPE(1, 3, 2), TU_VALUES(2, 3, 6, 7, 10, 11), 0);
    /* errors */
    nn_index_item oob[1] = {{.kind = NN_INDEX_INT, .start = 3}};
    assert_null(nn_index(m, 1, oob));
    tu_assert_error(NN_ERR_INDEX, "index 3 is out of bounds for dimension 0 with size 3");
    nn_index_item many[3] = {{.kind = NN_INDEX_INT}, {.kind = NN_INDEX_INT}, {.kind = NN_INDEX_INT}};
    assert_null(nn_index(m, 3, many));
    tu_assert_error(NN_ERR_INDEX, "too many indices for tensor of dimension 2");
    NN_RELEASE(a); NN_RELEASE(m); NN_RELEASE(r); NN_RELEASE(c); NN_RELEASE(s); NN_RELEASE(n);
}

static void test_advanced_indexing(void **state)
{
    (void)state;
    nn_tensor *m = tu_tensor(NN_FLOAT32, 2, TU_SHAPE(2, 3), TU_VALUES(1, -2, 3, -4, 5, -6));
    nn_tensor *zero = TU_OK(nn_scalar(0, NN_FLOAT32));
    nn_tensor *mask = TU_OK(nn_compare(m, zero, NN_GT));
    nn_index_item bymask[1] = {{.kind = NN_INDEX_TENSOR, .tensor = mask}};
    nn_tensor *pos = TU_OK(nn_index(m, 1, bymask));
    tu_assert_values(pos, 1, TU_SHAPE(3), TU_VALUES(1, 3, 5), 0);
    nn_tensor *idx = tu_tensor(NN_INT64, 2, TU_SHAPE(2, 2), TU_VALUES(2, 0, -1, 1));
    nn_index_item cols[2] = {{.kind = NN_INDEX_SLICE}, {.kind = NN_INDEX_TENSOR, .tensor = idx}};
    nn_tensor *g = TU_OK(nn_index(m, 2, cols));
    tu_assert_values(g, 3, TU_SHAPE(2, 2, 2), TU_VALUES(3, 1, 3, -2, -6, -4, -6, 5), 0);
    /* assignment: m[m > 0] = 0, then m[:, [0, 2]] = [10, 20] */
    tu_check(nn_index_put_(m, 1, bymask, zero));
    tu_assert_values(m, 2, TU_SHAPE(2, 3), TU_VALUES(0, -2, 0, -4, 0, -6), 0);
    nn_tensor *two = tu_tensor(NN_INT64, 1, TU_SHAPE(2), TU_VALUES(0, 2));
    nn_tensor *vals = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(2), TU_VALUES(10, 20));
    nn_index_item cols2[2] = {{.kind = NN_INDEX_SLICE}, {.kind = NN_INDEX_TENSOR, .tensor = two}};
    tu_check(nn_index_put_(m, 2, cols2, vals));
    tu_assert_values(m, 2, TU_SHAPE(2, 3), TU_VALUES(10, -2, 20, 10, 0, 20), 0);
    /* a failing assignment changes nothing */
    nn_tensor *three = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(3), TU_VALUES(1, 2, 3));
    assert_int_equal(nn_index_put_(m, 2, cols2, three), -1);
    tu_assert_error(NN_ERR_RUNTIME, NULL);
    nn_tensor *badidx = tu_tensor(NN_INT64, 1, TU_SHAPE(2), TU_VALUES(0, 3));
    nn_index_item cols3[2] = {{.kind = NN_INDEX_SLICE}, {.kind = NN_INDEX_TENSOR, .tensor = badidx}};
    assert_int_equal(nn_index_put_(m, 2, cols3, vals), -1);
    tu_assert_error(NN_ERR_INDEX, "index 3 is out of bounds for dimension 1 with size 3");
    tu_assert_values(m, 2, TU_SHAPE(2, 3), TU_VALUES(10, -2, 20, 10, 0, 20), 0);
    nn_tensor *badmask = tu_tensor(NN_BOOL, 1, TU_SHAPE(3), TU_VALUES(1, 0, 1));
    nn_index_item bm[1] = {{.kind = NN_INDEX_TENSOR, .tensor = badmask}};
    assert_null(nn_index(m, 1, bm));
    tu_assert_error(NN_ERR_INDEX, "The shape of the mask [3] at index 0 does not match the shape of the indexed tensor [2] at index 0");
    NN_RELEASE(m); NN_RELEASE(zero); NN_RELEASE(mask); NN_RELEASE(pos); NN_RELEASE(idx); NN_RELEASE(g);
    NN_RELEASE(two); NN_RELEASE(vals); NN_RELEASE(three); NN_RELEASE(badidx); NN_RELEASE(badmask);
}

static void test_bad_sizes(void **state)
{
    (void)state;
    assert_null(nn_zeros(2, TU_SHAPE(2, -1), NN_FLOAT32));
    tu_assert_error(NN_ERR_RUNTIME, "Trying to create tensor with negative dimension -1: [2, -1]");
    /* PyTorch's RuntimeErrors for sizes beyond the machine and beyond int64 bytes */
    assert_null(nn_empty(1, TU_SHAPE(1000000000000000LL), NN_FLOAT32));
    tu_assert_error(NN_ERR_RUNTIME, "DefaultCPUAllocator: can't allocate memory: you tried to allocate 4000000000000000 bytes.");
    assert_null(nn_empty(3, TU_SHAPE(1LL << 40, 1LL << 40, 1LL << 40), NN_FLOAT64));
    tu_assert_error(NN_ERR_RUNTIME, "Storage size calculation overflowed with sizes=[1099511627776, 1099511627776, 1099511627776]");
    assert_null(nn_arange(0, 1, 0, false, -1));
    tu_assert_error(NN_ERR_RUNTIME, "step must be nonzero");
    assert_null(nn_arange(0, 10, -1, true, -1));
    tu_assert_error(NN_ERR_RUNTIME, "upper bound and larger bound inconsistent with step sign");
    nn_tensor *t = TU_OK(nn_zeros(1, TU_SHAPE(3), NN_FLOAT32));
    double v;
    assert_int_equal(nn_item(t, &v), -1);
    tu_assert_error(NN_ERR_RUNTIME, "a Tensor with 3 elements cannot be converted to Scalar");
    NN_RELEASE(t);
}


/* A small autograd workload: every allocation in it may fail. */
static int workload(void)
{
    int rc = -1;
    nn_tensor *a = nn_ones(2, TU_SHAPE(2, 3), NN_FLOAT32), *b = NULL, *c = NULL, *s = NULL;
    if (!a || nn_set_requires_grad(a, true) < 0) goto out;
    if (!(b = nn_transpose(a, 0, 1)) || !(c = nn_mul(b, b)) || !(s = nn_sum(c, 0, NULL, false))) goto out;
    rc = nn_backward(s, NULL, false, false);
out:
    NN_RELEASE(a); NN_RELEASE(b); NN_RELEASE(c); NN_RELEASE(s);
    return rc;
}

static void test_failing_allocations_report_memory_error(void **state)
{
    (void)state;
    tu_allocator old;
    tu_install_failing_alloc(&old);
    assert_int_equal(workload(), 0);
    long total = tu_alloc_count;
    assert_true(total > 5);
    for (tu_fail_at = 1; tu_fail_at <= total; tu_fail_at++) {
        tu_alloc_count = 0;
        nn_error_clear();
        int rc = workload();
        assert_int_equal(rc, -1);
        assert_int_equal(nn_error_current(), NN_ERR_MEMORY);
    }
    nn_error_clear();
    tu_restore_allocator(&old);
}

/* Storage data starts on a 64-byte boundary, as PyTorch's CPU allocator
   aligns it: fresh blocks of every size class, and blocks the storage cache
   hands back for reuse. */
static void test_storage_data_is_64_byte_aligned(void **state)
{
    (void)state;
    const int64_t sizes[] = {0, 1, 3, 16, 1000, 16384 + 1, 1 << 20};
    for (int round = 0; round < 2; round++) {
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            nn_tensor *t = TU_OK(nn_empty(1, &sizes[i], NN_FLOAT32));
            assert_int_equal((uintptr_t)nn_data_ptr(t) % 64, 0);
            NN_RELEASE(t); /* the large ones come back from the cache in round 1 */
        }
    }
}

/* storages of 2 MiB or more start within the first 4 KiB past a 2 MiB boundary
   (core/tensor.c asks for transparent huge pages over them), at a cache-line
   "color" that differs between storages made one after another (no 4K aliasing
   between an op's inputs and output), fresh and from the storage cache alike, and
   hold their values */
static void test_large_storage_is_2mib_aligned(void **state)
{
    (void)state;
    const int64_t sizes[] = {1 << 19, 1 << 20, 3 << 19};
    for (int round = 0; round < 2; round++) {
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            nn_tensor *t = TU_OK(nn_full(1, &sizes[i], 1.5, NN_FLOAT32));
            uintptr_t offset = (uintptr_t)nn_data_ptr(t) % ((uintptr_t)2 << 20);
            assert_true(offset < 4096);
            assert_int_equal(offset % 64, 0);
            nn_tensor *s = TU_OK(nn_sum(t, 0, NULL, false));
            double v;
            nn_to_doubles(s, &v);
            assert_true(v == 1.5 * (double)sizes[i]);
            NN_RELEASE(s);
            NN_RELEASE(t);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_factories_match_pytorch),
        cmocka_unit_test(test_fill_zeros_ones_full),
        cmocka_unit_test(test_copy_broadcast_and_convert),
        cmocka_unit_test(test_views_share_storage),
        cmocka_unit_test(test_basic_indexing),
        cmocka_unit_test(test_advanced_indexing),
        cmocka_unit_test(test_bad_sizes),
        cmocka_unit_test(test_failing_allocations_report_memory_error),
        cmocka_unit_test(test_storage_data_is_64_byte_aligned),
        cmocka_unit_test(test_large_storage_is_2mib_aligned),
    };
    return cmocka_run_group_tests_name("tensor", tests, NULL, NULL);
}
