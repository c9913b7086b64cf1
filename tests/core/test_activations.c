/*
 * test_activations.c — the activation modules of core/activations.c against
 * fixtures/activations.txt (written by fixtures/gen_activations.py with
 * PyTorch 1.13): for each module and configuration its repr, state_dict
 * keys, forward values, grad_fn, in-place behaviour (the same tensor, one
 * version bump) and gradients in float32 and float64; then the failures,
 * constructing, calling and differentiating, with PyTorch's exception and
 * message. Then what the fixture cannot say: hooks fire, attributes drive
 * forward and repr, the config values keep their types, PReLU's parameter.
 */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- helpers */

#define MAX_VALUES 64
#define MAX_KWARGS 8

/* Python's bool(o) for the fixture's literals */
static bool truthy(const nn_object *o)
{
    if (!o || nn_is_none(o)) return false;
    if (nn_is_bool(o) || nn_is_int(o)) return nn_int_value(o) != 0;
    if (nn_is_float(o)) return nn_float_value(o) != 0;
    if (nn_is_str(o)) return nn_str_len(o) > 0;
    return true;
}


/* A Python literal as the fixture writes it: a new reference. */
static nn_object *parse_literal(const char *s)
{
    if (s[0] == '\'') return TU_OK(nn_str_from(s + 1, strlen(s) - 2));
    if (!strcmp(s, "True")) return nn_bool_new(true);
    if (!strcmp(s, "False")) return nn_bool_new(false);
    if (!strcmp(s, "None")) return nn_retain(nn_none());
    if (strpbrk(s, ".eEn")) return TU_OK(nn_float_new(strtod(s, NULL)));
    return TU_OK(nn_int_new(strtoll(s, NULL, 10)));
}

typedef struct ctor_spec {
    char cls[32];
    int n;
    char keys[MAX_KWARGS][32];
    nn_object *values[MAX_KWARGS]; /* owned; NULL for a dtype */
    int dtype;                     /* -1: none given */
} ctor_spec;

static void ctor_parse(ctor_spec *c, char *text)
{
    memset(c, 0, sizeof *c);
    c->dtype = -1;
    char *save = NULL;
    char *tok = strtok_r(text, " ", &save);
    snprintf(c->cls, sizeof c->cls, "%s", tok);
    while ((tok = strtok_r(NULL, " ", &save))) {
        char *eq = strchr(tok, '=');
        assert_non_null(eq);
        *eq = '\0';
        if (!strcmp(tok, "dtype")) {
            c->dtype = (int)tu_dtype(eq + 1);
            continue;
        }
        assert_true(c->n < MAX_KWARGS);
        snprintf(c->keys[c->n], sizeof c->keys[c->n], "%s", tok);
        c->values[c->n++] = parse_literal(eq + 1);
    }
}

static void ctor_free(ctor_spec *c)
{
    for (int i = 0; i < c->n; i++) NN_RELEASE(c->values[i]);
}

static nn_object *ctor_get(const ctor_spec *c, const char *key)
{
    for (int i = 0; i < c->n; i++)
        if (!strcmp(c->keys[i], key)) return c->values[i];
    return NULL;
}

/* The module the spec names, through the typed constructors; NULL with the error. */
static nn_module *build_module(const ctor_spec *c)
{
    const char *k = c->cls;
    bool inplace = truthy(ctor_get(c, "inplace"));
    if (!strcmp(k, "ReLU")) return nn_relu_new(inplace);
    if (!strcmp(k, "GELU")) {
        nn_object *a = ctor_get(c, "approximate");
        if (!a || nn_is_str(a)) return nn_gelu_new(a ? nn_str_cstr(a) : NULL);
        /* GELU(approximate=5): the C constructor takes a string; set the attribute */
        nn_module *m = nn_gelu_new(NULL);
        if (m && nn_module_setattr(m, "approximate", a) < 0) NN_SET(m, NULL);
        return m;
    }
    if (!strcmp(k, "PReLU")) {
        nn_object *n = ctor_get(c, "num_parameters"), *init = ctor_get(c, "init");
        return nn_prelu_new(n ? nn_int_value(n) : 1, init ? nn_float_value(init) : 0.25, c->dtype);
    }
    if (!strcmp(k, "Sigmoid")) return nn_sigmoid_new();
    if (!strcmp(k, "Tanh")) return nn_tanh_new();
    if (!strcmp(k, "Threshold")) return nn_threshold_new(ctor_get(c, "threshold"), ctor_get(c, "value"), inplace);
    if (!strcmp(k, "LeakyReLU")) return nn_leaky_relu_new(ctor_get(c, "negative_slope"), inplace);
    if (!strcmp(k, "ELU")) return nn_elu_new(ctor_get(c, "alpha"), inplace);
    if (!strcmp(k, "SiLU")) return nn_silu_new(inplace);
    if (!strcmp(k, "Softplus")) return nn_softplus_new(ctor_get(c, "beta"), ctor_get(c, "threshold"));
    if (!strcmp(k, "Softmax")) return nn_softmax_new(ctor_get(c, "dim"));
    if (!strcmp(k, "LogSoftmax")) return nn_log_softmax_new(ctor_get(c, "dim"));
    fail_msg("fixture: unknown class %s", k);
    return NULL;
}

/* repr(m) must be want */
static void check_repr(const char *name, nn_module *m, const char *want)
{
    char *r = TU_OK(nn_repr(&m->ob));
    if (strcmp(r, want) != 0) fail_msg("%s: repr %s, want %s", name, r, want);
    nn_free(r);
}

/* "Kind message" of the current error with newlines as \n; clears it */
static void error_text(char *buf, size_t n)
{
    size_t len = (size_t)snprintf(buf, n, "%s ", nn_error_kind_name(nn_error_current()));
    for (const char *p = nn_error_message(); *p && len + 3 < n; p++) {
        if (*p == '\n') {
            buf[len++] = '\\';
            buf[len++] = 'n';
        } else {
            buf[len++] = *p;
        }
    }
    buf[len] = '\0';
    nn_error_clear();
}

static int parse_values(char *text, double *out)
{
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(text, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        assert_true(n < MAX_VALUES);
        out[n++] = strtod(tok, NULL);
    }
    return n;
}

static void check_values(const char *name, const char *what, const nn_tensor *t, const double *want, int n,
                         double rtol, double atol)
{
    if (!t) fail_msg("%s: %s missing", name, what);
    if (nn_numel(t) != n) fail_msg("%s: %s has %lld values, want %d", name, what, (long long)nn_numel(t), n);
    double got[MAX_VALUES];
    nn_to_doubles(t, got);
    for (int i = 0; i < n; i++) {
        /* the fixture's 9 digits name one float32 value */
        double w = t->dtype == NN_FLOAT32 ? (double)(float)want[i] : want[i];
        bool ok = (isnan(w) && isnan(got[i])) || got[i] == w || fabs(got[i] - w) <= atol + rtol * fabs(w);
        if (!ok) fail_msg("%s: %s[%d] = %.17g, want %.17g", name, what, i, got[i], w);
    }
}

/* ------------------------------------------------------------- the fixture */

/* A line's tag and the rest of it (after one space, "" if none). */
static char *split_tag(char *line, char **rest)
{
    char *sp = strchr(line, ' ');
    if (sp) {
        *sp = '\0';
        *rest = sp + 1;
    } else {
        *rest = line + strlen(line);
    }
    return line;
}

typedef struct block {
    char kind[8]; /* "case" or "error" */
    char name[96];
    char *ctor, *repr, *keys, *run, *x, *y, *grad_fn, *same, *w, *gx, *gw, *stage, *call, *expect;
} block;

/* state_dict keys joined by spaces */
static void state_keys(nn_module *m, char *buf, size_t n)
{
    nn_object *sd = TU_OK(nn_module_state_dict(m, "", false));
    size_t pos = 0, len = 0;
    nn_object *k, *v;
    buf[0] = '\0';
    while (nn_dict_next(sd, &pos, &k, &v))
        len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? " " : "", nn_str_cstr(k));
    NN_RELEASE(sd);
}

static void run_case(block *b)
{
    ctor_spec c;
    ctor_parse(&c, b->ctor);
    nn_module *m = build_module(&c);
    if (!m) fail_msg("%s: constructor: %s", b->name, nn_error_message());
    check_repr(b->name, m, b->repr);
    char keys[256];
    state_keys(m, keys, sizeof keys);
    if (strcmp(keys, b->keys) != 0) fail_msg("%s: state_dict keys '%s', want '%s'", b->name, keys, b->keys);

    /* run DTYPE GRAD NDIM SIZES... RTOL ATOL */
    char *save = NULL;
    nn_dtype dt = tu_dtype(strtok_r(b->run, " ", &save));
    bool grad = atoi(strtok_r(NULL, " ", &save)) != 0;
    int ndim = atoi(strtok_r(NULL, " ", &save));
    int64_t sizes[NN_MAX_DIMS];
    for (int d = 0; d < ndim; d++) sizes[d] = atoll(strtok_r(NULL, " ", &save));
    double rtol = strtod(strtok_r(NULL, " ", &save), NULL), atol = strtod(strtok_r(NULL, " ", &save), NULL);

    double x[MAX_VALUES], y[MAX_VALUES], w[MAX_VALUES], gx[MAX_VALUES], gw[MAX_VALUES];
    parse_values(b->x, x);
    int ny = parse_values(b->y, y);
    nn_tensor *base = tu_tensor(dt, ndim, sizes, x), *leaf = NULL, *inp;
    if (grad) {
        leaf = base;
        tu_check(nn_set_requires_grad(leaf, true));
        inp = TU_OK(nn_mul_scalar(leaf, 1.0));
    } else {
        inp = base;
    }
    uint64_t v0 = inp->storage->version;
    nn_tensor *out = nn_module_call1(m, inp);
    if (!out) fail_msg("%s: forward: %s", b->name, nn_error_message());
    assert_int_equal(out->dtype, dt);
    check_values(b->name, "output", out, y, ny, rtol, atol);
    const char *fn = nn_grad_fn_name(out);
    if (strcmp(fn ? fn : "None", b->grad_fn) != 0) fail_msg("%s: grad_fn %s, want %s", b->name, fn ? fn : "None", b->grad_fn);
    int same, dv;
    assert_int_equal(sscanf(b->same, "%d %d", &same, &dv), 2);
    if ((out == inp) != (same != 0)) fail_msg("%s: result is%s the input", b->name, out == inp ? "" : " not");
    if ((int)(inp->storage->version - v0) != dv)
        fail_msg("%s: version grew by %d, want %d", b->name, (int)(inp->storage->version - v0), dv);
    if (grad) {
        int nw = parse_values(b->w, w), ngx = parse_values(b->gx, gx);
        nn_tensor *wt = tu_tensor(out->dtype, out->ndim, out->sizes, w);
        assert_int_equal(nw, nn_numel(wt));
        if (nn_backward(out, wt, false, false) < 0) fail_msg("%s: backward: %s", b->name, nn_error_message());
        check_values(b->name, "input grad", leaf->grad, gx, ngx, rtol, atol);
        if (b->gw) {
            int ngw = parse_values(b->gw, gw);
            nn_tensor *weight = NN_TENSOR(TU_OK(nn_module_getattr(m, "weight")));
            check_values(b->name, "weight grad", weight->grad, gw, ngw, rtol, atol);
        }
        NN_RELEASE(wt);
        NN_RELEASE(inp);
    }
    NN_RELEASE(out);
    NN_RELEASE(base);
    NN_RELEASE(m);
    ctor_free(&c);
}

/* ------------------------------------------------------- call arguments */

static const double VALS_2x3[] = {-1.5, 0.0, 2.0, 0.5, -0.25, 3.0};

/* x * 1 for a leaf of the values that requires grad; new reference */
static nn_tensor *nonleaf(nn_dtype dt, int ndim, const int64_t *sizes, const double *v)
{
    nn_tensor *leaf = tu_tensor(dt, ndim, sizes, v);
    tu_check(nn_set_requires_grad(leaf, true));
    nn_tensor *r = TU_OK(nn_mul_scalar(leaf, 1.0));
    NN_RELEASE(leaf);
    return r;
}

/* The argument a fixture spec names (as gen_activations.py's arg()); new reference. */
static nn_object *build_arg(const char *spec)
{
    if (!strcmp(spec, "x")) return &nonleaf(NN_FLOAT32, 2, TU_SHAPE(2, 3), VALS_2x3)->ob;
    if (!strcmp(spec, "x64")) return &nonleaf(NN_FLOAT64, 2, TU_SHAPE(2, 3), VALS_2x3)->ob;
    if (!strcmp(spec, "x1d")) return &nonleaf(NN_FLOAT32, 1, TU_SHAPE(3), VALS_2x3)->ob;
    if (!strcmp(spec, "x0d")) return &nonleaf(NN_FLOAT32, 0, NULL, TU_VALUES(0.5))->ob;
    if (!strcmp(spec, "leaf") || !strcmp(spec, "plain")) {
        nn_tensor *t = tu_tensor(NN_FLOAT32, 2, TU_SHAPE(2, 3), VALS_2x3);
        if (!strcmp(spec, "leaf")) tu_check(nn_set_requires_grad(t, true));
        return &t->ob;
    }
    if (!strcmp(spec, "i64")) return &tu_tensor(NN_INT64, 1, TU_SHAPE(3), TU_VALUES(2, -1, 0))->ob;
    if (!strcmp(spec, "f16")) return &tu_tensor(NN_FLOAT16, 1, TU_SHAPE(2), TU_VALUES(1, -2))->ob;
    if (!strcmp(spec, "bool")) return &tu_tensor(NN_BOOL, 1, TU_SHAPE(2), TU_VALUES(1, 0))->ob;
    if (!strcmp(spec, "expand") || !strcmp(spec, "expand2")) {
        bool two = !strcmp(spec, "expand2");
        nn_tensor *z = TU_OK(two ? nn_zeros(2, TU_SHAPE(3, 1), NN_FLOAT32) : nn_zeros(1, TU_SHAPE(1), NN_FLOAT32));
        nn_tensor *e = TU_OK(two ? nn_expand(z, 2, TU_SHAPE(3, 3)) : nn_expand(z, 1, TU_SHAPE(3)));
        NN_RELEASE(z);
        return &e->ob;
    }
    if (!strcmp(spec, "leafview")) {
        nn_tensor *z = TU_OK(nn_zeros(1, TU_SHAPE(4), NN_FLOAT32));
        tu_check(nn_set_requires_grad(z, true));
        nn_tensor *v = TU_OK(nn_slice(z, 0, 1, 4, 1));
        NN_RELEASE(z);
        return &v->ob;
    }
    if (!strcmp(spec, "int3")) return TU_OK(nn_int_new(3));
    if (!strcmp(spec, "none")) return nn_retain(nn_none());
    fail_msg("fixture: unknown argument %s", spec);
    return NULL;
}

static void run_error(block *b)
{
    ctor_spec c;
    ctor_parse(&c, b->ctor);
    nn_module *m = build_module(&c);
    char got[4096];
    if (!strcmp(b->stage, "ctor")) {
        if (m) fail_msg("%s: constructor succeeded, want %s", b->name, b->expect);
        error_text(got, sizeof got);
        if (strcmp(got, b->expect) != 0) fail_msg("%s: got\n  %s\nwant\n  %s", b->name, got, b->expect);
        ctor_free(&c);
        return;
    }
    if (!m) fail_msg("%s: constructor: %s", b->name, nn_error_message());
    check_repr(b->name, m, b->repr);
    /* call ARG ... kw:NAME=ARG ... */
    nn_object *list = TU_OK(nn_list_new(0)), *kwargs = TU_OK(nn_dict_new());
    char *save = NULL;
    for (char *tok = strtok_r(b->call, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        if (!strncmp(tok, "kw:", 3)) {
            char *eq = strchr(tok, '=');
            *eq = '\0';
            nn_object *v = build_arg(eq + 1);
            tu_check(nn_dict_set_str(kwargs, tok + 3, v));
            NN_RELEASE(v);
        } else {
            nn_object *v = build_arg(tok);
            tu_check(nn_list_append(list, v));
            NN_RELEASE(v);
        }
    }
    nn_object *args = TU_OK(nn_tuple_new(nn_list_len(list)));
    for (size_t i = 0; i < nn_list_len(list); i++) nn_tuple_set(args, i, nn_retain(nn_list_get(list, i)));
    nn_object *out = nn_module_call(m, args, nn_dict_len(kwargs) ? kwargs : NULL);
    bool ok = out != NULL;
    if (ok && !strcmp(b->stage, "backward")) {
        nn_tensor *s = TU_OK(nn_sum(NN_TENSOR(out), 0, NULL, false));
        ok = nn_backward(s, NULL, false, false) == 0;
        NN_RELEASE(s);
    }
    if (ok) snprintf(got, sizeof got, "ok");
    else error_text(got, sizeof got);
    if (strcmp(got, b->expect) != 0) fail_msg("%s: got\n  %s\nwant\n  %s", b->name, got, b->expect);
    NN_RELEASE(out);
    NN_RELEASE(args);
    NN_RELEASE(list);
    NN_RELEASE(kwargs);
    NN_RELEASE(m);
    ctor_free(&c);
}

static void test_fixture(void **state)
{
    (void)state;
    char *text = tu_read_file("fixtures/activations.txt");
    int n_cases = 0, n_errors = 0;
    block b;
    bool open = false;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#') continue;
        char *rest;
        char *tag = split_tag(line, &rest);
        if (!strcmp(tag, "case") || !strcmp(tag, "error")) {
            assert_false(open);
            memset(&b, 0, sizeof b);
            snprintf(b.kind, sizeof b.kind, "%s", tag);
            snprintf(b.name, sizeof b.name, "%s", rest);
            open = true;
            continue;
        }
        assert_true(open);
        if (!strcmp(tag, "end")) {
            if (!strcmp(b.kind, "case")) {
                run_case(&b);
                n_cases++;
            } else {
                run_error(&b);
                n_errors++;
            }
            open = false;
            continue;
        }
        static const char *const tags[] = {"ctor", "repr", "keys", "run", "x", "y", "grad_fn", "same",
                                           "w", "gx", "gw", "stage", "call", "expect"};
        char **slots[] = {&b.ctor, &b.repr, &b.keys, &b.run, &b.x, &b.y, &b.grad_fn, &b.same,
                          &b.w, &b.gx, &b.gw, &b.stage, &b.call, &b.expect};
        bool known = false;
        for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++)
            if (!strcmp(tag, tags[i])) {
                *slots[i] = rest;
                known = true;
            }
        if (!known) fail_msg("fixture: %s: unknown line %s", b.name, tag);
    }
    assert_false(open);
    print_message("%d runs, %d failures checked\n", n_cases, n_errors);
    assert_true(n_cases > 50 && n_errors > 100);
    free(text);
}

/* ----------------------------------------------------------------- hooks */

static int n_pre, n_fwd;

static nn_object *pre_hook(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)ud;
    (void)kwargs;
    n_pre++;
    /* double the input: hook(module, args) -> new args */
    nn_tensor *x = NN_TENSOR(nn_tuple_get(nn_tuple_get(args, 1), 0));
    return (nn_object *)nn_mul_scalar(x, 2.0);
}

static nn_object *fwd_hook(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)ud;
    (void)kwargs;
    n_fwd++;
    assert_true(nn_is_module(nn_tuple_get(args, 0)));
    /* hook(module, args, output) -> output + 100 */
    return (nn_object *)nn_add_scalar(NN_TENSOR(nn_tuple_get(args, 2)), 100.0);
}

static void test_hooks_fire(void **state)
{
    (void)state;
    nn_object *slope = TU_OK(nn_float_new(0.5)), *th = TU_OK(nn_float_new(2.5)), *val = TU_OK(nn_int_new(-7));
    nn_module *mods[] = {nn_relu_new(false), nn_leaky_relu_new(slope, true), nn_gelu_new("tanh"),
                         nn_prelu_new(1, 0.25, -1), nn_sigmoid_new(), nn_tanh_new(), nn_elu_new(NULL, false),
                         nn_silu_new(true), nn_softplus_new(NULL, NULL), nn_softmax_new(NULL),
                         nn_log_softmax_new(NULL), nn_threshold_new(th, val, true)};
    NN_RELEASE(slope);
    NN_RELEASE(th);
    NN_RELEASE(val);
    nn_object *pre = TU_OK(nn_cfunction_new("pre", pre_hook, NULL, NULL));
    nn_object *fwd = TU_OK(nn_cfunction_new("fwd", fwd_hook, NULL, NULL));
    for (size_t i = 0; i < sizeof mods / sizeof mods[0]; i++) {
        nn_module *m = TU_OK(mods[i]);
        n_pre = n_fwd = 0;
        nn_object *h1 = TU_OK(nn_module_register_hook(m, NN_HOOK_FORWARD_PRE, pre, (nn_hook_options){0}));
        nn_object *h2 = TU_OK(nn_module_register_hook(m, NN_HOOK_FORWARD, fwd, (nn_hook_options){0}));
        nn_tensor *x = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(3), TU_VALUES(1.0, 2.0, 3.0));
        nn_tensor *out = TU_OK(nn_module_call1(m, x));
        assert_int_equal(n_pre, 1);
        assert_int_equal(n_fwd, 1);
        /* the forward saw 2x, and the hook added 100: compare with the module on 2x, unhooked */
        nn_hook_handle_remove(h1);
        nn_hook_handle_remove(h2);
        nn_tensor *x2 = TU_OK(nn_mul_scalar(x, 2.0));
        nn_tensor *plain = TU_OK(nn_module_call1(m, x2));
        nn_tensor *want = TU_OK(nn_add_scalar(plain, 100.0));
        double got_v[3], want_v[3];
        nn_to_doubles(out, got_v);
        nn_to_doubles(want, want_v);
        for (int k = 0; k < 3; k++) assert_float_equal(got_v[k], want_v[k], 1e-6);
        assert_int_equal(n_pre, 1);
        NN_RELEASE(x); NN_RELEASE(x2); NN_RELEASE(out); NN_RELEASE(plain); NN_RELEASE(want);
        NN_RELEASE(h1); NN_RELEASE(h2); NN_RELEASE(m);
    }
    NN_RELEASE(pre);
    NN_RELEASE(fwd);
}

/* ------------------------------------------------------------- attributes */

static void assert_repr(nn_module *m, const char *want)
{
    char *r = TU_OK(nn_repr(&m->ob));
    assert_string_equal(r, want);
    nn_free(r);
}

static void test_attributes_drive_forward_and_repr(void **state)
{
    (void)state;
    nn_module *m = TU_OK(nn_relu_new(false));
    assert_true(nn_is_bool(TU_OK(nn_module_getattr(m, "inplace"))));
    nn_tensor *x = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(3), TU_VALUES(-1, 0, 2));
    nn_tensor *y = TU_OK(nn_module_call1(m, x));
    assert_ptr_not_equal(y, x);
    NN_RELEASE(y);
    /* m.inplace = 1: Python's truth value; repr and forward follow */
    nn_object *one = TU_OK(nn_int_new(1));
    tu_check(nn_module_setattr(m, "inplace", one));
    NN_RELEASE(one);
    assert_repr(m, "ReLU(inplace=True)");
    y = TU_OK(nn_module_call1(m, x));
    assert_ptr_equal(y, x);
    tu_assert_values(x, 1, TU_SHAPE(3), TU_VALUES(0, 0, 2), 0);
    NN_RELEASE(y);
    /* a deleted attribute: AttributeError from forward and repr */
    tu_check(nn_module_delattr(m, "inplace"));
    assert_null(nn_module_call1(m, x));
    tu_assert_error(NN_ERR_ATTRIBUTE, "'ReLU' object has no attribute 'inplace'");
    assert_null(nn_repr(&m->ob));
    tu_assert_error(NN_ERR_ATTRIBUTE, "'ReLU' object has no attribute 'inplace'");
    NN_RELEASE(m);

    /* the defaults keep PyTorch's types */
    m = TU_OK(nn_softplus_new(NULL, NULL));
    assert_true(nn_is_int(TU_OK(nn_module_getattr(m, "beta"))));
    assert_true(nn_is_int(TU_OK(nn_module_getattr(m, "threshold"))));
    nn_object *b = TU_OK(nn_float_new(2.0));
    tu_check(nn_module_setattr(m, "beta", b));
    NN_RELEASE(b);
    assert_repr(m, "Softplus(beta=2.0, threshold=20)");
    NN_RELEASE(m);
    m = TU_OK(nn_leaky_relu_new(NULL, false));
    assert_true(nn_is_float(TU_OK(nn_module_getattr(m, "negative_slope"))));
    NN_RELEASE(m);
    m = TU_OK(nn_elu_new(NULL, false));
    assert_true(nn_is_float(TU_OK(nn_module_getattr(m, "alpha"))));
    NN_RELEASE(m);
    m = TU_OK(nn_softmax_new(NULL));
    assert_true(nn_is_none(TU_OK(nn_module_getattr(m, "dim"))));
    /* dim set later is used */
    nn_object *d = TU_OK(nn_int_new(0));
    tu_check(nn_module_setattr(m, "dim", d));
    NN_RELEASE(d);
    assert_repr(m, "Softmax(dim=0)");
    nn_tensor *x2 = tu_tensor(NN_FLOAT32, 2, TU_SHAPE(2, 1), TU_VALUES(0, 0));
    y = TU_OK(nn_module_call1(m, x2));
    tu_assert_values(y, 2, TU_SHAPE(2, 1), TU_VALUES(0.5, 0.5), 1e-7);
    NN_RELEASE(y);
    NN_RELEASE(x2);
    NN_RELEASE(m);
    m = TU_OK(nn_gelu_new(NULL));
    assert_string_equal(nn_str_cstr(TU_OK(nn_module_getattr(m, "approximate"))), "none");
    NN_RELEASE(m);
    NN_RELEASE(x);
}

static void test_prelu_parameter(void **state)
{
    (void)state;
    nn_module *m = TU_OK(nn_prelu_new(3, -0.5, -1));
    nn_object *params = TU_OK(nn_module_named_parameters(m, "", true, true));
    assert_int_equal(nn_list_len(params), 1);
    assert_string_equal(nn_str_cstr(nn_tuple_get(nn_list_get(params, 0), 0)), "weight");
    nn_tensor *w = NN_TENSOR(nn_tuple_get(nn_list_get(params, 0), 1));
    assert_true(nn_is_parameter(&w->ob));
    assert_true(w->requires_grad);
    assert_int_equal(w->dtype, NN_FLOAT32);
    tu_assert_values(w, 1, TU_SHAPE(3), TU_VALUES(-0.5, -0.5, -0.5), 0);
    NN_RELEASE(params);
    assert_true(nn_is_int(TU_OK(nn_module_getattr(m, "num_parameters"))));
    assert_null(nn_module_getattr(m, "init")); /* PyTorch 1.13 keeps no init attribute */
    tu_assert_error(NN_ERR_ATTRIBUTE, "'PReLU' object has no attribute 'init'");
    /* .double() then a float64 input */
    tu_check(nn_module_to_dtype(m, NN_FLOAT64));
    nn_tensor *x = tu_tensor(NN_FLOAT64, 2, TU_SHAPE(1, 3), TU_VALUES(-2, 1, -4));
    nn_tensor *y = TU_OK(nn_module_call1(m, x));
    tu_assert_values(y, 2, TU_SHAPE(1, 3), TU_VALUES(1, 1, 2), 0);
    NN_RELEASE(x);
    NN_RELEASE(y);
    /* weight = None: prelu's argument parser */
    tu_check(nn_module_setattr(m, "weight", nn_none()));
    x = tu_tensor(NN_FLOAT64, 1, TU_SHAPE(3), TU_VALUES(-2, 1, -4));
    assert_null(nn_module_call1(m, x));
    tu_assert_error(NN_ERR_TYPE, "prelu(): argument 'weight' (position 2) must be Tensor, not NoneType");
    NN_RELEASE(x);
    NN_RELEASE(m);
}

static void test_inplace_functions(void **state)
{
    (void)state;
    /* without autograd: written in place, version bumped once */
    nn_tensor *t = tu_tensor(NN_FLOAT64, 1, TU_SHAPE(4), TU_VALUES(-2, -0.5, 0.5, 2));
    uint64_t v = t->storage->version;
    tu_check(nn_leaky_relu_(t, 0.1));
    tu_assert_values(t, 1, TU_SHAPE(4), TU_VALUES(-0.2, -0.05, 0.5, 2), 1e-15);
    assert_int_equal(t->storage->version, v + 1);
    tu_check(nn_threshold_(t, 0.0, 7.0));
    tu_assert_values(t, 1, TU_SHAPE(4), TU_VALUES(7, 7, 0.5, 2), 0);
    assert_null(t->grad_fn);
    NN_RELEASE(t);

    /* a view of a non-leaf that requires grad: the base's grad_fn becomes CopySlices, the view's
       AsStridedBackward0, as PyTorch's */
    nn_tensor *leaf = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(4), TU_VALUES(-1, -2, 3, 4));
    tu_check(nn_set_requires_grad(leaf, true));
    nn_tensor *y = TU_OK(nn_mul_scalar(leaf, 1.0)), *view = TU_OK(nn_slice(y, 0, 1, 3, 1));
    tu_check(nn_relu_(view));
    tu_assert_values(y, 1, TU_SHAPE(4), TU_VALUES(-1, 0, 3, 4), 0);
    assert_string_equal(nn_grad_fn_name(y), "CopySlices");
    assert_string_equal(nn_grad_fn_name(view), "AsStridedBackward0");
    nn_tensor *total = TU_OK(nn_sum(y, 0, NULL, false));
    tu_check(nn_backward(total, NULL, false, false));
    tu_assert_values(leaf->grad, 1, TU_SHAPE(4), TU_VALUES(1, 0, 1, 1), 0);
    NN_RELEASE(total);
    NN_RELEASE(view);
    /* under no_grad a leaf that requires grad may be written */
    bool prev = nn_set_grad_enabled(false);
    tu_check(nn_silu_(leaf));
    nn_set_grad_enabled(prev);
    assert_null(leaf->grad_fn);
    NN_RELEASE(y);
    NN_RELEASE(leaf);

    /* silu_ and threshold_ save the input as it was: the gradient is the
       out-of-place one even though the input was overwritten */
    leaf = tu_tensor(NN_FLOAT64, 1, TU_SHAPE(3), TU_VALUES(-1, 0.05, 2));
    tu_check(nn_set_requires_grad(leaf, true));
    y = TU_OK(nn_mul_scalar(leaf, 1.0));
    tu_check(nn_threshold_(y, 0.1, 20.0));
    assert_string_equal(nn_grad_fn_name(y), "ThresholdBackward1");
    nn_tensor *s = TU_OK(nn_sum(y, 0, NULL, false));
    tu_check(nn_backward(s, NULL, false, false));
    tu_assert_values(leaf->grad, 1, TU_SHAPE(3), TU_VALUES(0, 0, 1), 0);
    NN_RELEASE(s);
    NN_RELEASE(y);
    NN_RELEASE(leaf);

    /* second derivatives through elu_ (whose backward reads the result) match
       elu's: d2/dx2 sum(elu(x)) = alpha * exp(x) for x <= 0, else 0 */
    leaf = tu_tensor(NN_FLOAT64, 1, TU_SHAPE(3), TU_VALUES(-1, -0.25, 2));
    tu_check(nn_set_requires_grad(leaf, true));
    y = TU_OK(nn_mul_scalar(leaf, 1.0));
    tu_check(nn_elu_(y, 1.5));
    assert_string_equal(nn_grad_fn_name(y), "EluBackward1");
    s = TU_OK(nn_sum(y, 0, NULL, false));
    tu_check(nn_backward(s, NULL, true, true));
    nn_tensor *g1 = TU_OK(nn_grad(leaf));
    tu_assert_values(g1, 1, TU_SHAPE(3), TU_VALUES(1.5 * exp(-1), 1.5 * exp(-0.25), 1), 1e-15);
    NN_SET(leaf->grad, NULL);
    nn_tensor *s1 = TU_OK(nn_sum(g1, 0, NULL, false));
    tu_check(nn_backward(s1, NULL, false, false));
    tu_assert_values(leaf->grad, 1, TU_SHAPE(3), TU_VALUES(1.5 * exp(-1), 1.5 * exp(-0.25), 0), 1e-15);
    NN_RELEASE(s1);
    NN_RELEASE(g1);
    NN_RELEASE(s);
    NN_RELEASE(y);
    NN_RELEASE(leaf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture),
        cmocka_unit_test(test_hooks_fire),
        cmocka_unit_test(test_attributes_drive_forward_and_repr),
        cmocka_unit_test(test_prelu_parameter),
        cmocka_unit_test(test_inplace_functions),
    };
    return cmocka_run_group_tests_name("activations", tests, NULL, NULL);
}
