/*
 * test_init.c — torch.nn.init (core/init.c) against PyTorch 1.13: the cases of
 * fixtures/layers_init.txt (written by fixtures/gen_layers.py) replayed line by
 * line: every fill's values bit for bit after seeding, the random stream left
 * where PyTorch leaves it, calculate_gain's values and reprs, the fans, and
 * PyTorch's error kinds and messages; then grad mode and versions around a fill.
 */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --------------------------------------------------------------- parsing */



/* Asserts t equals the fixture tensor (shape, dtype, values within tol; 0: bit for bit). */
static void expect_tensor(const char *what, const nn_tensor *t, char *text, double tol)
{
    nn_tensor *want = tu_parse_tensor(&text);
    if (t->ndim != want->ndim || t->dtype != want->dtype) fail_msg("%s: dtype or ndim differs", what);
    for (int d = 0; d < t->ndim; d++)
        if (t->sizes[d] != want->sizes[d]) fail_msg("%s: shape differs at dim %d", what, d);
    int64_t n = nn_numel(t);
    double *a = malloc(sizeof(double) * (size_t)(n ? n : 1)), *b = malloc(sizeof(double) * (size_t)(n ? n : 1));
    nn_to_doubles(t, a);
    nn_to_doubles(want, b);
    for (int64_t i = 0; i < n; i++) {
        bool same = a[i] == b[i] || (isnan(a[i]) && isnan(b[i]));
        if (!same && !(tol > 0 && fabs(a[i] - b[i]) <= tol * (1 + fabs(b[i]))))
            fail_msg("%s: element %lld is %.17g, PyTorch %.17g", what, (long long)i, a[i], b[i]);
    }
    free(a);
    free(b);
    NN_RELEASE(want);
}

/* A Python literal of the fixture (None, True, 'str', int, float): a new
   object, NULL for None. */
static nn_object *parse_value(const char *s)
{
    if (!strcmp(s, "None")) return NULL;
    if (!strcmp(s, "True") || !strcmp(s, "False")) return nn_bool_new(s[0] == 'T');
    if (s[0] == '\'') return nn_str_from(s + 1, strlen(s) - 2);
    if (strpbrk(s, ".en")) return nn_float_new(strtod(s, NULL));
    return nn_int_new(strtoll(s, NULL, 10));
}

/* key=value of a "call" line into value (a new object or NULL); false when absent. */
static bool arg_value(const char *args, const char *key, nn_object **value)
{
    char pat[64];
    snprintf(pat, sizeof pat, "%s=", key);
    for (const char *p = args; (p = strstr(p, pat)); p++) {
        if (p != args && p[-1] != ' ') continue;
        char v[128];
        size_t n = strcspn(p + strlen(pat), " ");
        snprintf(v, sizeof v, "%.*s", (int)n, p + strlen(pat));
        *value = parse_value(v);
        return true;
    }
    *value = NULL;
    return false;
}

static double arg_double(const char *args, const char *key, double dflt)
{
    nn_object *v;
    if (!arg_value(args, key, &v)) return dflt;
    double d = nn_float_value(v);
    NN_RELEASE(v);
    return d;
}

/* A str argument, into buf; NULL when absent. */
static const char *arg_str(const char *args, const char *key, char *buf, size_t n)
{
    nn_object *v;
    if (!arg_value(args, key, &v)) return NULL;
    snprintf(buf, n, "%s", nn_str_cstr(v));
    NN_RELEASE(v);
    return buf;
}

/* ---------------------------------------------------------------- replay */

typedef struct replay {
    const char *name;
    nn_tensor *t;
    bool failed;        /* the last command failed; an "error" line must follow */
    nn_error_kind kind;
    char message[1024];
} replay;

static void record_status(replay *r, int rc)
{
    r->failed = rc < 0;
    if (r->failed) {
        r->kind = nn_error_current();
        snprintf(r->message, sizeof r->message, "%s", nn_error_message());
        nn_error_clear();
    }
}

static int call_init(nn_tensor *t, const char *fn, const char *args)
{
    char mode[32], nonlin[32];
    if (!strcmp(fn, "uniform_")) return nn_init_uniform_(t, arg_double(args, "a", 0), arg_double(args, "b", 1));
    if (!strcmp(fn, "normal_")) return nn_init_normal_(t, arg_double(args, "mean", 0), arg_double(args, "std", 1));
    if (!strcmp(fn, "constant_")) return nn_init_constant_(t, arg_double(args, "val", 0));
    if (!strcmp(fn, "ones_")) return nn_init_ones_(t);
    if (!strcmp(fn, "zeros_")) return nn_init_zeros_(t);
    if (!strcmp(fn, "xavier_uniform_")) return nn_init_xavier_uniform_(t, arg_double(args, "gain", 1));
    if (!strcmp(fn, "xavier_normal_")) return nn_init_xavier_normal_(t, arg_double(args, "gain", 1));
    bool uniform = !strcmp(fn, "kaiming_uniform_");
    if (!uniform && strcmp(fn, "kaiming_normal_") != 0) fail_msg("fixture: unknown init %s", fn);
    nn_object *a;
    arg_value(args, "a", &a);
    const char *m = arg_str(args, "mode", mode, sizeof mode), *nl = arg_str(args, "nonlinearity", nonlin, sizeof nonlin);
    int rc = uniform ? nn_init_kaiming_uniform_(t, a, m, nl) : nn_init_kaiming_normal_(t, a, m, nl);
    NN_RELEASE(a);
    return rc;
}

/* Runs one fixture line. */
static void step(replay *r, char *line)
{
    char *rest = strchr(line, ' ');
    rest = rest ? rest + 1 : line + strlen(line);
    size_t n = strcspn(line, " ");
    char cmd[32];
    snprintf(cmd, sizeof cmd, "%.*s", (int)n, line);
    if (!strcmp(cmd, "error")) {
        if (!r->failed) fail_msg("%s: expected an error: %s", r->name, rest);
        char kind[64];
        size_t k = strcspn(rest, " ");
        snprintf(kind, sizeof kind, "%.*s", (int)k, rest);
        const char *msg = rest[k] ? rest + k + 1 : "";
        if (strcmp(kind, nn_error_kind_name(r->kind)) != 0 || strcmp(msg, r->message) != 0)
            fail_msg("%s: error %s: %s\n  PyTorch: %s: %s", r->name, nn_error_kind_name(r->kind), r->message, kind, msg);
        r->failed = false;
        return;
    }
    if (r->failed) fail_msg("%s: %s: %s", r->name, nn_error_kind_name(r->kind), r->message);
    if (!strcmp(cmd, "case")) {
        r->name = rest;
    } else if (!strcmp(cmd, "seed")) {
        nn_generator_seed(nn_default_generator(), strtoull(rest, NULL, 10));
    } else if (!strcmp(cmd, "tensor")) {
        bool rg = rest[0] == '1';
        char *p = rest + 2;
        NN_SET(r->t, tu_parse_tensor(&p));
        if (rg) tu_check(nn_set_requires_grad(r->t, true));
    } else if (!strcmp(cmd, "call")) {
        char fn[32];
        size_t k = strcspn(rest, " ");
        snprintf(fn, sizeof fn, "%.*s", (int)k, rest);
        bool grad_mode = nn_grad_enabled();
        record_status(r, call_init(r->t, fn, rest + k));
        assert_true(nn_grad_enabled() == grad_mode);
    } else if (!strcmp(cmd, "values")) {
        expect_tensor(r->name, r->t, rest, 0);
    } else if (!strcmp(cmd, "rand")) {
        char *p = rest;
        nn_tensor *shape = tu_parse_tensor(&p);
        nn_tensor *drawn = TU_OK(nn_rand(shape->ndim, shape->sizes, NN_FLOAT32));
        expect_tensor("the random stream after the call", drawn, rest, 0);
        NN_RELEASE(shape);
        NN_RELEASE(drawn);
    } else if (!strcmp(cmd, "gain")) {
        char nl[64], param[64];
        if (sscanf(rest, "%63s %63s", nl, param) != 2) fail_msg("fixture: bad gain line");
        nn_object *p = parse_value(param);
        nn_object *g = nn_init_calculate_gain(nl, p);
        NN_RELEASE(p);
        record_status(r, g ? 0 : -1);
        if (g) {
            NN_SET(r->t, NULL);
            r->t = (nn_tensor *)g; /* held until the "result" line */
        }
    } else if (!strcmp(cmd, "result")) {
        char *s = nn_repr((nn_object *)r->t);
        if (strcmp(s, rest) != 0) fail_msg("%s: gain %s, PyTorch %s", r->name, s, rest);
        nn_free(s);
        NN_SET(r->t, NULL);
    } else if (!strcmp(cmd, "fan")) {
        char *p = rest;
        NN_SET(r->t, tu_parse_tensor(&p));
        int64_t fi = -1, fo = -1;
        record_status(r, nn_init_calculate_fan_in_and_fan_out(r->t, &fi, &fo));
        if (!r->failed) snprintf(r->message, sizeof r->message, "%lld %lld", (long long)fi, (long long)fo);
    } else if (!strcmp(cmd, "fans")) {
        if (strcmp(r->message, rest) != 0) fail_msg("%s: fans %s, PyTorch %s", r->name, r->message, rest);
    } else if (!strcmp(cmd, "end")) {
        NN_SET(r->t, NULL);
    } else {
        fail_msg("fixture: unknown command %s", cmd);
    }
}

static void test_fixture(void **state)
{
    (void)state;
    char *text = tu_read_file("fixtures/layers_init.txt");
    replay r = {.name = "?"};
    int cases = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#') continue;
        cases += !strncmp(line, "case ", 5);
        step(&r, line);
    }
    if (r.failed) fail_msg("%s: %s", r.name, r.message);
    print_message("  %d init cases match PyTorch\n", cases);
    assert_true(cases > 50);
    free(text);
}

/* ------------------------------------------------------------ behaviour */

static void test_fills_leave_grad_mode_and_bump_versions(void **state)
{
    (void)state;
    nn_tensor *w = TU_OK(nn_empty(2, TU_SHAPE(3, 4), NN_FLOAT32));
    tu_check(nn_set_requires_grad(w, true));
    uint64_t v0 = w->storage->version;
    tu_check(nn_init_kaiming_uniform_(w, NULL, NULL, NULL));
    assert_true(nn_grad_enabled());
    assert_true(w->storage->version > v0);
    assert_null(w->grad_fn);
    assert_true(w->requires_grad);
    /* with grad mode off the fill is the same */
    nn_set_grad_enabled(false);
    tu_check(nn_init_zeros_(w));
    assert_false(nn_grad_enabled());
    nn_set_grad_enabled(true);
    double v;
    nn_tensor *s = TU_OK(nn_sum(w, 0, NULL, false));
    tu_check(nn_item(s, &v));
    assert_true(v == 0);
    NN_RELEASE(s);
    NN_RELEASE(w);
}

static void test_gain_returns_int_or_float(void **state)
{
    (void)state;
    nn_object *g = TU_OK(nn_init_calculate_gain("conv2d", NULL));
    assert_true(nn_is_int(g) && nn_int_value(g) == 1);
    NN_RELEASE(g);
    nn_object *slope = TU_OK(nn_float_new(0.2));
    g = TU_OK(nn_init_calculate_gain("leaky_relu", slope));
    assert_true(nn_is_float(g));
    assert_true(nn_float_value(g) == sqrt(2.0 / (1 + 0.2 * 0.2)));
    NN_RELEASE(g);
    NN_RELEASE(slope);
    nn_object *list = TU_OK(nn_list_new(0));
    assert_null(nn_init_calculate_gain("leaky_relu", list));
    tu_assert_error(NN_ERR_VALUE, "negative_slope [] not a valid number");
    NN_RELEASE(list);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture),
        cmocka_unit_test(test_fills_leave_grad_mode_and_bump_versions),
        cmocka_unit_test(test_gain_returns_int_or_float),
    };
    return cmocka_run_group_tests_name("init", tests, NULL, NULL);
}
