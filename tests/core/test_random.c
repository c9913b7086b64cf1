/*
 * test_random.c — the generator and sampling ops against PyTorch: replays
 * tests/fixtures/random.txt (made by gen_random.py) on the default generator,
 * then state round trips, memory-order filling and the error cases.
 */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* "3x4" -> {3, 4}; "scalar" -> 0 dims. */
static int parse_shape(const char *s, int64_t *sizes)
{
    if (strcmp(s, "scalar") == 0) return 0;
    int n = 0;
    for (const char *p = s; *p;) {
        char *end;
        sizes[n++] = strtoll(p, &end, 10);
        p = *end == 'x' ? end + 1 : end;
    }
    return n;
}

/* Hex text to bytes; returns a malloc'd buffer and its length. */
static unsigned char *parse_hex(const char *hex, size_t *n)
{
    size_t len = strlen(hex) / 2;
    unsigned char *b = malloc(len ? len : 1);
    for (size_t i = 0; i < len; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1) fail_msg("bad hex at %zu", i);
        b[i] = (unsigned char)v;
    }
    *n = len;
    return b;
}

static bool is_normal_op(const char *op)
{
    return !strcmp(op, "randn") || !strcmp(op, "normal") || !strcmp(op, "normal_t");
}

/* Unit in the last place of v in dtype (at the smallest normal for tiny v). */
static double ulp_in(double v, nn_dtype dt)
{
    int digits = dt == NN_FLOAT64 ? 53 : dt == NN_FLOAT16 ? 11 : dt == NN_BFLOAT16 ? 8 : 24;
    int e;
    frexp(fabs(v) > 1e-30 ? v : 1e-30, &e);
    return ldexp(1.0, e - digits);
}

typedef struct tally {
    int lines, values, exact, rounded;
} tally;

/* Runs one op line of the script: OP DTYPE SHAPE ARGS... : VALUES */
static void run_op_line(const char *line, int lineno, tally *tl)
{
    char *copy = strdup(line), *cur;
    char *op = strtok_r(copy, " ", &cur);
    nn_dtype dt = tu_dtype(strtok_r(NULL, " ", &cur));
    int64_t sizes[NN_MAX_DIMS];
    int ndim = parse_shape(strtok_r(NULL, " ", &cur), sizes);
    char *args[4];
    int nargs = 0;
    char *tok;
    while ((tok = strtok_r(NULL, " ", &cur)) && strcmp(tok, ":") != 0) args[nargs++] = tok;
    assert_non_null(tok);

    nn_tensor *t = NULL, *owner = NULL;
    bool transposed = op[strlen(op) - 1] == 't' && op[strlen(op) - 2] == '_';
    if (!strcmp(op, "rand")) t = nn_rand(ndim, sizes, dt);
    else if (!strcmp(op, "randn")) t = nn_randn(ndim, sizes, dt);
    else if (!strcmp(op, "randint")) t = nn_randint(strtoll(args[0], NULL, 10), strtoll(args[1], NULL, 10), ndim, sizes, dt);
    else if (!strcmp(op, "randperm")) t = nn_randperm(sizes[0], dt);
    else {
        if (transposed) {
            owner = TU_OK(nn_empty(2, TU_SHAPE(sizes[1], sizes[0]), dt));
            t = TU_OK(nn_t(owner));
            assert_false(nn_is_contiguous(t));
        } else {
            t = TU_OK(nn_empty(ndim, sizes, dt));
        }
        double a = nargs > 0 ? strtod(args[0], NULL) : 0, b = nargs > 1 ? strtod(args[1], NULL) : 0;
        int status = -1;
        if (!strncmp(op, "uniform", 7)) status = nn_uniform_(t, a, b);
        else if (!strncmp(op, "normal", 6)) status = nn_normal_(t, a, b);
        else if (!strcmp(op, "bernoulli")) status = nn_bernoulli_(t, a);
        else if (!strcmp(op, "dropout")) status = nn_bernoulli_(t, 1 - a); /* CPU dropout's noise */
        else fail_msg("line %d: unknown op %s", lineno, op);
        if (status < 0) fail_msg("line %d: %s", lineno, nn_error_message());
    }
    if (!t) fail_msg("line %d (%s): %s", lineno, op, nn_error_message());
    assert_int_equal(t->dtype, dt);
    assert_int_equal(t->ndim, ndim);
    for (int d = 0; d < ndim; d++) assert_int_equal(t->sizes[d], sizes[d]);

    int64_t n = nn_numel(t);
    double *got = malloc(sizeof(double) * (size_t)(n ? n : 1));
    nn_to_doubles(t, got);
    const int64_t *got_int = dt == NN_INT64 ? nn_data_ptr(t) : NULL; /* exact beyond 2^53 */
    if (got_int) assert_true(nn_is_contiguous(t));
    int64_t count = 0;
    while ((tok = strtok_r(NULL, " ", &cur))) {
        if (count >= n) fail_msg("line %d: more values than elements", lineno);
        if (got_int) {
            long long want = strtoll(tok, NULL, 10);
            if (got_int[count] != want)
                fail_msg("line %d (%s): element %lld: got %lld, want %lld", lineno, op, (long long)count,
                         (long long)got_int[count], want);
            tl->exact++;
        } else {
            double want = strtod(tok, NULL), g = got[count];
            if (!strcmp(op, "dropout")) g = g != 0;
            if (g == want) {
                tl->exact++;
            } else if (is_normal_op(op) && fabs(g - want) <= ulp_in(want, dt)) {
                tl->rounded++; /* a libm result one rounding away */
            } else {
                fail_msg("line %d (%s %s): element %lld: got %.17g, want %.17g", lineno, op,
                         nn_dtype_short_name(dt), (long long)count, g, want);
            }
        }
        count++;
    }
    assert_int_equal(count, n);
    tl->values += (int)n;
    tl->lines++;
    free(got);
    NN_RELEASE(t);
    NN_RELEASE(owner);
    free(copy);
}

/* The tensor an in-place op of an error line works on: OP_x is expanded,
   OP_grad a leaf that requires grad. New reference. */
static nn_tensor *error_target(const char *op, nn_dtype dt, int ndim, const int64_t *sizes)
{
    if (strstr(op, "_x")) {
        int64_t base[NN_MAX_DIMS];
        for (int d = 0; d < ndim; d++) base[d] = d == 0 ? 1 : sizes[d];
        nn_tensor *b = TU_OK(nn_empty(ndim, base, dt));
        nn_tensor *t = TU_OK(nn_expand(b, ndim, sizes));
        NN_RELEASE(b);
        return t;
    }
    nn_tensor *t = TU_OK(nn_zeros(ndim, sizes, dt));
    if (strstr(op, "_grad")) tu_check(nn_set_requires_grad(t, true));
    return t;
}

/* error OP DTYPE SHAPE ARGS... : MESSAGE — fails with exactly PyTorch's
   RuntimeError and leaves the generator as it was. */
static void run_error_line(const char *line, int lineno)
{
    char *copy = strdup(line), *cur;
    strtok_r(copy, " ", &cur); /* "error" */
    char *op = strtok_r(NULL, " ", &cur);
    nn_dtype dt = tu_dtype(strtok_r(NULL, " ", &cur));
    int64_t sizes[NN_MAX_DIMS];
    int ndim = parse_shape(strtok_r(NULL, " ", &cur), sizes);
    char *args[4], *tok;
    int nargs = 0;
    while ((tok = strtok_r(NULL, " ", &cur)) && strcmp(tok, ":") != 0) args[nargs++] = tok;
    assert_non_null(tok);
    const char *want = strstr(line, " : ") + 3;
    double a = nargs > 0 ? strtod(args[0], NULL) : 0, b = nargs > 1 ? strtod(args[1], NULL) : 0;

    nn_generator *g = nn_default_generator();
    size_t size = nn_generator_state_size();
    unsigned char *before = malloc(size), *after = malloc(size);
    nn_generator_get_state(g, before);
    nn_error_clear();
    bool failed = false;
    nn_tensor *r = NULL, *t = NULL;
    if (!strcmp(op, "rand")) failed = !(r = nn_rand(ndim, sizes, dt));
    else if (!strcmp(op, "randn")) failed = !(r = nn_randn(ndim, sizes, dt));
    else if (!strcmp(op, "randint"))
        failed = !(r = nn_randint(strtoll(args[0], NULL, 10), strtoll(args[1], NULL, 10), ndim, sizes, dt));
    else if (!strcmp(op, "randperm")) failed = !(r = nn_randperm(sizes[0], dt));
    else if (!strcmp(op, "set_state")) {
        unsigned char *zeros = calloc(1, (size_t)sizes[0]);
        failed = nn_generator_set_state(g, zeros, (size_t)sizes[0]) < 0;
        free(zeros);
    } else {
        t = error_target(op, dt, ndim, sizes);
        if (!strncmp(op, "uniform", 7)) failed = nn_uniform_(t, a, b) < 0;
        else if (!strncmp(op, "normal", 6)) failed = nn_normal_(t, a, b) < 0;
        else if (!strncmp(op, "bernoulli", 9)) failed = nn_bernoulli_(t, a) < 0;
        else fail_msg("line %d: unknown op %s", lineno, op);
    }
    if (!failed) fail_msg("line %d: %s did not fail", lineno, op);
    if (nn_error_current() != NN_ERR_RUNTIME || strcmp(nn_error_message(), want) != 0)
        fail_msg("line %d: got %s: '%s'\nwant RuntimeError: '%s'", lineno, nn_error_kind_name(nn_error_current()),
                 nn_error_message(), want);
    nn_error_clear();
    nn_generator_get_state(g, after);
    assert_memory_equal(before, after, size);
    NN_RELEASE(r);
    NN_RELEASE(t);
    free(before);
    free(after);
    free(copy);
}

static void test_fixture_script(void **state)
{
    (void)state;
    char *text = tu_read_file("fixtures/random.txt");
    nn_generator *g = nn_default_generator();
    tally tl = {0};
    int lineno = 0, states = 0, seeds = 0, errors = 0;
    char *save, *line;
    for (char *p = text; (line = strtok_r(p, "\n", &save)); p = NULL) {
        lineno++; /* (blank lines are skipped by strtok_r; the file has none) */
        if (line[0] == '#') continue;
        if (!strncmp(line, "seed ", 5)) {
            nn_generator_seed(g, strtoull(line + 5, NULL, 10));
            seeds++;
        } else if (!strncmp(line, "initial_seed ", 13)) {
            assert_true(nn_generator_initial_seed(g) == strtoull(line + 13, NULL, 10));
        } else if (!strncmp(line, "state ", 6)) {
            size_t n;
            unsigned char *want = parse_hex(line + 6, &n);
            assert_int_equal(n, nn_generator_state_size());
            unsigned char *got = malloc(n);
            nn_generator_get_state(g, got);
            for (size_t i = 0; i < n; i++)
                if (got[i] != want[i]) fail_msg("line %d: state byte %zu: got %02x, want %02x", lineno, i, got[i], want[i]);
            free(got);
            free(want);
            states++;
        } else if (!strncmp(line, "set_state ", 10)) {
            size_t n;
            unsigned char *blob = parse_hex(line + 10, &n);
            tu_check(nn_generator_set_state(g, blob, n));
            free(blob);
        } else if (!strncmp(line, "error ", 6)) {
            run_error_line(line, lineno);
            errors++;
        } else {
            run_op_line(line, lineno, &tl);
        }
    }
    free(text);
    assert_true(tl.lines > 100 && states > 20 && seeds > 10 && errors > 40);
    print_message("random.txt: %d ops, %d values: %d bit-exact, %d one rounding off; %d states byte-exact; "
                  "%d errors\n", tl.lines, tl.values, tl.exact, tl.rounded, states, errors);
}

/* A tensor's elements as doubles (row-major); malloc'd. */
static double *values_of(const nn_tensor *t)
{
    int64_t n = nn_numel(t);
    double *v = malloc(sizeof(double) * (size_t)(n ? n : 1));
    nn_to_doubles(t, v);
    return v;
}

static void assert_same_values(const nn_tensor *a, const nn_tensor *b)
{
    assert_int_equal(nn_numel(a), nn_numel(b));
    double *va = values_of(a), *vb = values_of(b);
    assert_memory_equal(va, vb, sizeof(double) * (size_t)nn_numel(a));
    free(va);
    free(vb);
}

/* get_state / set_state bring back every draw, the cached normals included. */
static void test_state_round_trip(void **state)
{
    (void)state;
    nn_generator *g = nn_default_generator();
    assert_ptr_equal(g, nn_default_generator());
    nn_generator_seed(g, 1234);
    assert_true(nn_generator_initial_seed(g) == 1234);
    nn_tensor *warm = TU_OK(nn_randn(1, TU_SHAPE(3), NN_FLOAT64));
    assert_true(g->has_next_double_normal); /* 3 small-path samples leave one cached */
    g->has_next_float_normal = true;        /* CPU ops never set it; the blob keeps it anyway */
    g->next_float_normal = 0.25f;
    size_t size = nn_generator_state_size();
    unsigned char *blob = malloc(size), *end1 = malloc(size), *end2 = malloc(size);
    nn_generator_get_state(g, blob);

    nn_tensor *a[4] = {
        TU_OK(nn_randn(1, TU_SHAPE(5), NN_FLOAT64)), TU_OK(nn_rand(1, TU_SHAPE(700), NN_FLOAT32)),
        TU_OK(nn_randint(-50, 50, 2, TU_SHAPE(3, 4), NN_INT64)), TU_OK(nn_randperm(30, NN_INT64)),
    };
    nn_generator_get_state(g, end1);
    nn_generator_seed(g, 99); /* clears both caches */
    assert_false(g->has_next_double_normal || g->has_next_float_normal);
    tu_check(nn_generator_set_state(g, blob, size));
    assert_true(g->has_next_double_normal && g->has_next_float_normal && g->next_float_normal == 0.25f);
    assert_true(nn_generator_initial_seed(g) == 1234);
    nn_tensor *b[4] = {
        TU_OK(nn_randn(1, TU_SHAPE(5), NN_FLOAT64)), TU_OK(nn_rand(1, TU_SHAPE(700), NN_FLOAT32)),
        TU_OK(nn_randint(-50, 50, 2, TU_SHAPE(3, 4), NN_INT64)), TU_OK(nn_randperm(30, NN_INT64)),
    };
    nn_generator_get_state(g, end2);
    assert_memory_equal(end1, end2, size);
    for (int i = 0; i < 4; i++) {
        assert_same_values(a[i], b[i]);
        NN_RELEASE(a[i]);
        NN_RELEASE(b[i]);
    }
    NN_RELEASE(warm);
    g->has_next_float_normal = false;
    free(blob);
    free(end1);
    free(end2);
}

/* random64 is two draws, the first one high; any generator works, not only the default. */
static void test_random64_and_own_generators(void **state)
{
    (void)state;
    nn_generator a, b;
    nn_generator_seed(&a, 2718281828u);
    nn_generator_seed(&b, 2718281828u);
    for (int i = 0; i < 1000; i++) { /* crosses several twists */
        uint64_t hi = nn_generator_random(&b), lo = nn_generator_random(&b);
        assert_true(nn_generator_random64(&a) == (hi << 32 | lo));
    }
    /* the default generator draws the same sequence from the same seed */
    nn_generator *g = nn_default_generator();
    nn_generator_seed(g, 77);
    nn_generator_seed(&a, 77);
    for (int i = 0; i < 700; i++) assert_true(nn_generator_random(g) == nn_generator_random(&a));
    /* and only the seed's low 32 bits reach mt19937 (the full seed is kept) */
    nn_generator_seed(&a, 5);
    nn_generator_seed(&b, ((uint64_t)1 << 40) + 5);
    assert_true(nn_generator_initial_seed(&b) == ((uint64_t)1 << 40) + 5);
    for (int i = 0; i < 10; i++) assert_true(nn_generator_random(&a) == nn_generator_random(&b));
}

/* Non-contiguous outputs are filled in memory order, as PyTorch's TensorIterator does. */
static void test_memory_order(void **state)
{
    (void)state;
    nn_generator *g = nn_default_generator();
    for (int k = 0; k < 2; k++) {
        nn_generator_seed(g, 8);
        nn_tensor *flat = TU_OK(nn_empty(1, TU_SHAPE(12), NN_FLOAT64));
        if (k == 0) tu_check(nn_bernoulli_(flat, 0.4));
        else tu_check(nn_uniform_(flat, -1, 1));
        nn_generator_seed(g, 8);
        nn_tensor *owner = TU_OK(nn_empty(2, TU_SHAPE(3, 4), NN_FLOAT64));
        nn_tensor *tr = TU_OK(nn_t(owner));
        if (k == 0) tu_check(nn_bernoulli_(tr, 0.4));
        else tu_check(nn_uniform_(tr, -1, 1));
        assert_memory_equal(owner->storage->data, flat->storage->data, 12 * sizeof(double));
        NN_RELEASE(flat); NN_RELEASE(owner); NN_RELEASE(tr);
    }
    /* a strided slice: every other column */
    nn_generator_seed(g, 9);
    nn_tensor *wide = TU_OK(nn_zeros(2, TU_SHAPE(2, 8), NN_FLOAT32));
    nn_tensor *cols = TU_OK(nn_slice(wide, 1, 0, 8, 2));
    tu_check(nn_uniform_(cols, 0, 1));
    nn_generator_seed(g, 9);
    nn_tensor *dense = TU_OK(nn_rand(2, TU_SHAPE(2, 4), NN_FLOAT32));
    assert_same_values(cols, dense);
    /* the skipped columns are untouched */
    const float *w = wide->storage->data;
    for (int i = 1; i < 16; i += 2) assert_true(w[i] == 0.0f);
    NN_RELEASE(wide); NN_RELEASE(cols); NN_RELEASE(dense);
}

/* Factories return version 0; the in-place ops bump it once; failures leave it. */
static void test_versions(void **state)
{
    (void)state;
    nn_tensor *t = TU_OK(nn_rand(1, TU_SHAPE(4), NN_FLOAT32));
    assert_int_equal(t->storage->version, 0);
    nn_tensor *n = TU_OK(nn_randn(1, TU_SHAPE(20), NN_FLOAT32));
    nn_tensor *i = TU_OK(nn_randint(0, 3, 1, TU_SHAPE(4), NN_INT64));
    nn_tensor *p = TU_OK(nn_randperm(4, NN_INT64));
    assert_true(n->storage->version == 0 && i->storage->version == 0 && p->storage->version == 0);
    tu_check(nn_uniform_(t, 0, 1));
    tu_check(nn_normal_(t, 0, 1));
    tu_check(nn_bernoulli_(t, 0.5));
    assert_int_equal(t->storage->version, 3);
    assert_int_equal(nn_bernoulli_(t, 2.0), -1);
    nn_error_clear();
    assert_int_equal(t->storage->version, 3);
    NN_RELEASE(t); NN_RELEASE(n); NN_RELEASE(i); NN_RELEASE(p);
}

/* PyTorch takes any (left, next) with 0 < left <= 624 and next <= 624; draws
   only ever produce left + next == 625 (or 1 and 0 right after seeding), and
   nnscope keeps just next, so other pairs are refused (a documented
   deviation for hand-made blobs) and leave the generator as it was. */
static void test_set_state_refuses_unreachable(void **state)
{
    (void)state;
    nn_generator g;
    nn_generator_seed(&g, 3);
    size_t size = nn_generator_state_size();
    unsigned char *blob = malloc(size), *now = malloc(size);
    nn_generator_get_state(&g, blob);
    blob[8] = 5;  /* left = 5 */
    blob[16] = 3; /* next = 3 */
    assert_int_equal(nn_generator_set_state(&g, blob, size), -1);
    tu_assert_error(NN_ERR_RUNTIME, "Invalid mt19937 state");
    nn_generator_get_state(&g, now);
    blob[8] = 1;
    blob[16] = 0;
    assert_memory_equal(blob, now, size);
    free(blob);
    free(now);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_script),
        cmocka_unit_test(test_state_round_trip),
        cmocka_unit_test(test_random64_and_own_generators),
        cmocka_unit_test(test_memory_order),
        cmocka_unit_test(test_versions),
        cmocka_unit_test(test_set_state_refuses_unreachable),
    };
    return cmocka_run_group_tests_name("random", tests, NULL, NULL);
}
