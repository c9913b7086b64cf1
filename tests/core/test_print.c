/*
 * test_print.c — repr(tensor) against PyTorch 1.13: rebuilds every case of
 * fixtures/print_cases.txt (written by fixtures/gen_print.py) and compares the
 * strings exactly; plus print options, errors and allocation failures.
 */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FAILURES_SHOWN 5

typedef struct parsed_case {
    char name[128];
    nn_print_options opts;
    nn_tensor *t;   /* owned */
    char *expect;   /* malloc'd, unescaped */
} parsed_case;

static nn_dtype dtype_by_name(const char *name)
{
    for (int d = 0; d < NN_DTYPE_COUNT; d++)
        if (strcmp(nn_dtype_short_name((nn_dtype)d), name) == 0) return (nn_dtype)d;
    fail_msg("unknown dtype %s", name);
    return NN_FLOAT32;
}

/* Stores value v (given as double, or as int64 for integer dtypes) at element i of buf. */
static void store(char *buf, nn_dtype dt, int64_t i, double v, int64_t iv)
{
    switch (dt) {
    case NN_FLOAT32: ((float *)buf)[i] = (float)v; break;
    case NN_FLOAT64: ((double *)buf)[i] = v; break;
    case NN_FLOAT16: ((uint16_t *)buf)[i] = nn_float_to_half((float)v); break;
    case NN_BFLOAT16: ((uint16_t *)buf)[i] = nn_float_to_bfloat16((float)v); break;
    case NN_INT64: ((int64_t *)buf)[i] = iv; break;
    case NN_INT32: ((int32_t *)buf)[i] = (int32_t)iv; break;
    case NN_BOOL: ((uint8_t *)buf)[i] = iv != 0; break;
    default: fail_msg("bad dtype");
    }
}

/* The "values" tokens: V, V*N, A..B. */
static void parse_values(char *line, nn_dtype dt, int64_t numel, char *buf)
{
    bool floating = nn_dtype_is_floating(dt);
    int64_t i = 0;
    for (char *tok = strtok(line, " "); tok; tok = strtok(NULL, " ")) {
        char *dots = strstr(tok, "..");
        if (dots) {
            long long a = strtoll(tok, NULL, 10), b = strtoll(dots + 2, NULL, 10);
            for (long long v = a; v <= b; v++, i++) {
                assert_true(i < numel);
                store(buf, dt, i, (double)v, v);
            }
            continue;
        }
        int64_t repeat = 1;
        char *star = strchr(tok, '*');
        if (star) {
            *star = '\0';
            repeat = strtoll(star + 1, NULL, 10);
        }
        char *end;
        double v = floating ? strtod(tok, &end) : 0;
        int64_t iv = floating ? 0 : strtoll(tok, &end, 10);
        if (*end != '\0') fail_msg("bad value token '%s'", tok);
        for (int64_t k = 0; k < repeat; k++, i++) {
            assert_true(i < numel);
            store(buf, dt, i, v, iv);
        }
    }
    if (i != numel) fail_msg("%lld values for %lld elements", (long long)i, (long long)numel);
}

static nn_tensor *apply_op(nn_tensor *t, char *line)
{
    char *name = strtok(line, " ");
    long long a[NN_MAX_DIMS];
    int n = 0;
    for (char *tok = strtok(NULL, " "); tok && n < NN_MAX_DIMS; tok = strtok(NULL, " ")) a[n++] = strtoll(tok, NULL, 10);
    nn_tensor *r = NULL;
    if (strcmp(name, "requires_grad") == 0) {
        tu_check(nn_set_requires_grad(t, true));
        NN_RETAIN(t);
        r = t;
    } else if (strcmp(name, "parameter") == 0 || strcmp(name, "parameter_nograd") == 0) {
        if (strcmp(name, "parameter") == 0) tu_check(nn_set_requires_grad(t, true));
        t->ob.type = &nn_parameter_type;
        NN_RETAIN(t);
        r = t;
    } else if (strcmp(name, "add_zeros") == 0) {
        nn_tensor *z = TU_OK(nn_zeros_like(t));
        r = nn_add(t, z);
        NN_RELEASE(z);
    } else if (strcmp(name, "mul_one") == 0) {
        r = nn_mul_scalar(t, 1.0);
    } else if (strcmp(name, "sum") == 0) {
        r = nn_sum(t, 0, NULL, false);
    } else if (strcmp(name, "view") == 0) {
        int64_t sizes[NN_MAX_DIMS];
        for (int i = 0; i < n; i++) sizes[i] = a[i];
        r = nn_view(t, n, sizes);
    } else if (strcmp(name, "transpose") == 0) {
        r = nn_transpose(t, (int)a[0], (int)a[1]);
    } else if (strcmp(name, "slice") == 0) {
        r = nn_slice(t, (int)a[0], a[1], a[2], a[3]);
    } else {
        fail_msg("unknown op %s", name);
    }
    TU_OK(r);
    NN_RELEASE(t);
    return r;
}

static char *unescape(const char *s)
{
    char *out = malloc(strlen(s) + 1), *o = out;
    for (; *s; s++) {
        if (*s == '\\' && s[1]) {
            s++;
            *o++ = *s == 'n' ? '\n' : *s;
        } else {
            *o++ = *s;
        }
    }
    *o = '\0';
    return out;
}

/* Reads the next case from *cursor (advancing it); false at the end of the file. */
static bool next_case(char **cursor, parsed_case *c)
{
    memset(c, 0, sizeof *c);
    c->opts = (nn_print_options){4, 1000, 3, 80, -1};
    nn_dtype dt = NN_FLOAT32;
    int ndim = 0;
    int64_t sizes[NN_MAX_DIMS];
    bool started = false;
    while (**cursor) {
        char *line = *cursor, *nl = strchr(line, '\n');
        if (nl) {
            *nl = '\0';
            *cursor = nl + 1;
        } else {
            *cursor = line + strlen(line);
        }
        if (line[0] == '#' || line[0] == '\0') continue;
        if (strncmp(line, "case ", 5) == 0) {
            snprintf(c->name, sizeof c->name, "%s", line + 5);
            started = true;
        } else if (strncmp(line, "opts ", 5) == 0) {
            long long th;
            int sci;
            if (sscanf(line + 5, "%d %lld %d %d %d", &c->opts.precision, &th, &c->opts.edgeitems, &c->opts.linewidth,
                       &sci) != 5)
                fail_msg("%s: bad opts", c->name);
            c->opts.threshold = th;
            c->opts.sci_mode = sci;
        } else if (strncmp(line, "tensor ", 7) == 0) {
            char *tok = strtok(line + 7, " ");
            dt = dtype_by_name(tok);
            ndim = atoi(strtok(NULL, " "));
            for (int d = 0; d < ndim; d++) sizes[d] = strtoll(strtok(NULL, " "), NULL, 10);
        } else if (strncmp(line, "values", 6) == 0) {
            c->t = TU_OK(nn_empty(ndim, sizes, dt));
            int64_t numel = nn_numel(c->t);
            char *buf = malloc(nn_dtype_size(dt) * (size_t)(numel ? numel : 1));
            parse_values(line + 6, dt, numel, buf);
            NN_RELEASE(c->t);
            c->t = TU_OK(nn_from_data(buf, ndim, sizes, dt));
            free(buf);
        } else if (strncmp(line, "op ", 3) == 0) {
            if (!c->t) fail_msg("%s: op before values", c->name);
            c->t = apply_op(c->t, line + 3);
        } else if (strncmp(line, "expect ", 7) == 0) {
            c->expect = unescape(line + 7);
        } else if (strcmp(line, "end") == 0) {
            if (!c->t || !c->expect) fail_msg("%s: incomplete case", c->name);
            return true;
        } else {
            fail_msg("bad fixture line: %.60s", line);
        }
    }
    if (started) fail_msg("%s: no end", c->name);
    return false;
}

static void test_fixture_cases(void **state)
{
    (void)state;
    char *text = tu_read_file("fixtures/print_cases.txt");
    char *cursor = text;
    nn_print_options *o = nn_print_options_get();
    const nn_print_options saved = *o;
    int n = 0, failures = 0;
    parsed_case c;
    while (next_case(&cursor, &c)) {
        n++;
        *o = c.opts;
        char *got = nn_tensor_repr(c.t);
        *o = saved;
        if (!got) {
            failures++;
            print_error("%s: error %s: %s\n", c.name, nn_error_kind_name(nn_error_current()), nn_error_message());
            nn_error_clear();
        } else if (strcmp(got, c.expect) != 0) {
            if (failures++ < MAX_FAILURES_SHOWN)
                print_error("%s:\n--- expected\n%s\n--- got\n%s\n", c.name, c.expect, got);
        }
        nn_free(got);
        NN_RELEASE(c.t);
        free(c.expect);
    }
    free(text);
    if (failures) fail_msg("%d of %d print cases differ", failures, n);
    assert_true(n >= 100);
}

static void test_options_defaults(void **state)
{
    (void)state;
    nn_print_options *o = nn_print_options_get();
    assert_non_null(o);
    assert_int_equal(o->precision, 4);
    assert_int_equal(o->threshold, 1000);
    assert_int_equal(o->edgeitems, 3);
    assert_int_equal(o->linewidth, 80);
    assert_int_equal(o->sci_mode, -1);
    assert_ptr_equal(o, nn_print_options_get());
}

static void test_repr_through_object(void **state)
{
    (void)state;
    nn_tensor *t = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(2), TU_VALUES(1, 2));
    char *s = TU_OK(nn_repr(&t->ob));
    assert_string_equal(s, "tensor([1., 2.])");
    nn_free(s);
    t->ob.type = &nn_parameter_type;
    s = TU_OK(nn_str(&t->ob));
    assert_string_equal(s, "Parameter containing:\ntensor([1., 2.])");
    nn_free(s);
    NN_RELEASE(t);
}

static void test_option_errors(void **state)
{
    (void)state;
    nn_print_options *o = nn_print_options_get();
    const nn_print_options saved = *o;
    nn_tensor *t = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(2), TU_VALUES(1.5, 2));
    o->precision = -1; /* Python: '{:.-1f}' */
    assert_null(nn_tensor_repr(t));
    tu_assert_error(NN_ERR_VALUE, "Format specifier missing precision");
    *o = saved;
    /* edgeitems 0 makes get_summarized_data stack an empty list (2-D and up) */
    nn_tensor *m = TU_OK(nn_zeros(2, TU_SHAPE(3, 3), NN_FLOAT32));
    o->threshold = 4;
    o->edgeitems = 0;
    assert_null(nn_tensor_repr(m));
    tu_assert_error(NN_ERR_RUNTIME, "stack expects a non-empty TensorList");
    o->edgeitems = -5; /* treated as 0 */
    assert_null(nn_tensor_repr(m));
    tu_assert_error(NN_ERR_RUNTIME, "stack expects a non-empty TensorList");
    *o = saved;
    NN_RELEASE(t);
    NN_RELEASE(m);
}

/* An allocator that fails once the budget of allocations is spent. */
static int alloc_budget;
static void *failing_alloc(void *ud, void *p, size_t n)
{
    (void)ud;
    if (n == 0) {
        free(p);
        return NULL;
    }
    if (alloc_budget-- <= 0) return NULL;
    return realloc(p, n);
}

static void test_allocation_failure(void **state)
{
    (void)state;
    nn_tensor *t = TU_OK(nn_arange(0, 3000, 1, false, NN_FLOAT32));
    nn_tensor *v = TU_OK(nn_view(t, 2, TU_SHAPE(30, 100)));
    char *want = TU_OK(nn_tensor_repr(v));
    nn_alloc_fn fn;
    void *ud;
    nn_get_allocator(&fn, &ud);
    bool succeeded = false;
    for (int budget = 0; budget < 50 && !succeeded; budget++) {
        alloc_budget = budget;
        nn_set_allocator(failing_alloc, NULL);
        char *s = nn_tensor_repr(v);
        nn_set_allocator(fn, ud);
        if (s) {
            assert_string_equal(s, want);
            free(s); /* allocated by failing_alloc, i.e. realloc */
            succeeded = true;
        } else {
            tu_assert_error(NN_ERR_MEMORY, NULL);
        }
    }
    assert_true(succeeded);
    nn_free(want);
    NN_RELEASE(v);
    NN_RELEASE(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_cases),
        cmocka_unit_test(test_options_defaults),
        cmocka_unit_test(test_repr_through_object),
        cmocka_unit_test(test_option_errors),
        cmocka_unit_test(test_allocation_failure),
    };
    return cmocka_run_group_tests_name("print", tests, NULL, NULL);
}
