/*
 * test_module.c — nn.Module in C: the scenario of tests/fixtures/gen_module.py
 * played with the same two classes (Affine, Net) must print PyTorch's
 * transcript line for line; then what PyTorch 1.13 lacks and the seeds define
 * (prepend, with_kwargs, always_call, backward pre-hooks, set_submodule,
 * load_state_dict changing nothing on failure) and state-dict hooks.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------ transcript */

/* "[1.0000 -2.0000]" as gen_module.py's fmt() */
static const char *fmt_tensor(const nn_tensor *t, char *buf, size_t n)
{
    if (!t) return snprintf(buf, n, "None"), buf;
    double v[64];
    nn_to_doubles(t, v);
    size_t len = (size_t)snprintf(buf, n, "[");
    for (int64_t i = 0; i < nn_numel(t); i++) len += (size_t)snprintf(buf + len, n - len, "%s%.4f", i ? " " : "", v[i]);
    snprintf(buf + len, n - len, "]");
    return buf;
}

/* "['a', 'b']" from a list of (name, x) pairs or of str */
static const char *fmt_names(nn_object *list, char *buf, size_t n)
{
    size_t len = (size_t)snprintf(buf, n, "[");
    for (size_t i = 0; i < nn_list_len(list); i++) {
        nn_object *item = nn_list_get(list, i);
        if (item->type == &nn_tuple_type) item = nn_tuple_get(item, 0);
        len += (size_t)snprintf(buf + len, n - len, "%s'%s'", i ? ", " : "", nn_str_cstr(item));
    }
    snprintf(buf + len, n - len, "]");
    return buf;
}

/* Logs the current error as "Kind message" with \n and \t escaped, or "ok". */
static void log_status(int failed)
{
    if (!failed) {
        tu_logf("ok");
        return;
    }
    char msg[2048];
    size_t len = 0;
    for (const char *p = nn_error_message(); *p && len < sizeof msg - 3; p++) {
        if (*p == '\n') len += (size_t)snprintf(msg + len, sizeof msg - len, "\\n");
        else if (*p == '\t') len += (size_t)snprintf(msg + len, sizeof msg - len, "\\t");
        else msg[len++] = *p;
    }
    msg[len] = '\0';
    tu_logf("%s %s", nn_error_kind_name(nn_error_current()), msg);
    nn_error_clear();
}

/* ------------------------------------------------------- the two classes */

static char *affine_extra_repr(nn_module *m)
{
    char buf[64];
    snprintf(buf, sizeof buf, "n=%lld", (long long)nn_int_value(nn_module_getattr(m, "n")));
    return nn_strdup(buf);
}

static nn_object *affine_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    (void)kwargs;
    nn_tensor *x = NN_TENSOR(nn_tuple_get(args, 0));
    nn_tensor *xw = nn_mul(x, NN_TENSOR(nn_module_getattr(m, "weight")));
    nn_tensor *y = xw ? nn_add(xw, NN_TENSOR(nn_module_getattr(m, "bias"))) : NULL;
    NN_RELEASE(xw);
    return (nn_object *)y;
}

static const nn_module_class affine_class = {.name = "Affine", .forward = affine_forward, .extra_repr = affine_extra_repr};

static nn_module *affine_new(int64_t n)
{
    nn_module *m = TU_OK(nn_module_new(&affine_class));
    nn_object *nobj = TU_OK(nn_int_new(n));
    tu_check(nn_module_setattr(m, "n", nobj));
    NN_RELEASE(nobj);
    nn_tensor *w = TU_OK(nn_arange(1, (double)n + 1, 1, false, NN_FLOAT32));
    nn_tensor *b = TU_OK(nn_full(1, &n, 0.5, NN_FLOAT32));
    nn_tensor *pw = TU_OK(nn_parameter_new(w, true)), *pb = TU_OK(nn_parameter_new(b, true));
    tu_check(nn_module_setattr(m, "weight", &pw->ob));
    tu_check(nn_module_setattr(m, "bias", &pb->ob));
    nn_tensor *running = TU_OK(nn_zeros(1, &n, NN_FLOAT32)), *scratch = TU_OK(nn_ones(1, &n, NN_FLOAT32));
    tu_check(nn_module_register_buffer(m, "running", running, true));
    tu_check(nn_module_register_buffer(m, "scratch", scratch, false));
    NN_RELEASE(w); NN_RELEASE(b); NN_RELEASE(pw); NN_RELEASE(pb); NN_RELEASE(running); NN_RELEASE(scratch);
    return m;
}

static nn_object *net_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    (void)kwargs;
    nn_object *h = nn_module_call(NN_MODULE(nn_module_getattr(m, "a")), args, NULL);
    if (!h) return NULL;
    nn_object *hargs = nn_tuple_pack(1, h);
    NN_RELEASE(h);
    nn_object *y = hargs ? nn_module_call(NN_MODULE(nn_module_getattr(m, "b")), hargs, NULL) : NULL;
    NN_RELEASE(hargs);
    return y;
}

static const nn_module_class net_class = {.name = "Net", .forward = net_forward};

static nn_module *net_new(void)
{
    nn_module *net = TU_OK(nn_module_new(&net_class));
    nn_module *a = affine_new(3), *b = affine_new(3);
    tu_check(nn_module_setattr(net, "a", &a->ob));
    tu_check(nn_module_setattr(net, "b", &b->ob));
    tu_check(nn_module_setattr(net, "again", &a->ob));
    NN_RELEASE(a); NN_RELEASE(b);
    return net;
}

/* ----------------------------------------------------------------- hooks */

typedef enum { EV_PRE, EV_FWD, EV_BWD, EV_DOUBLE_INPUT, EV_REPLACE_OUTPUT, EV_SCALE_GRAD_INPUT } event_kind;
typedef struct hook_spec {
    const char *name;
    event_kind kind;
} hook_spec;

static char events[64][512];
static int n_events;

static void fmt_grads(nn_object *tuple, char *buf, size_t n)
{
    size_t len = (size_t)snprintf(buf, n, "[");
    for (size_t i = 0; i < nn_tuple_len(tuple); i++) {
        char t[256];
        nn_object *g = nn_tuple_get(tuple, i);
        len += (size_t)snprintf(buf + len, n - len, "%s'%s'", i ? ", " : "",
                                fmt_tensor(nn_is_none(g) ? NULL : NN_TENSOR(g), t, sizeof t));
    }
    snprintf(buf + len, n - len, "]");
}

static nn_object *hook_fn(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)kwargs;
    const hook_spec *h = ud;
    nn_module *m = NN_MODULE(nn_tuple_get(args, 0));
    char a[200], b[240], c[240];
    char *ev = events[n_events++];
    switch (h->kind) {
    case EV_PRE:
        snprintf(ev, 512, "%s pre %s %s", h->name, nn_module_name(m),
                 fmt_tensor(NN_TENSOR(nn_tuple_get(nn_tuple_get(args, 1), 0)), a, sizeof a));
        break;
    case EV_FWD:
        snprintf(ev, 512, "%s fwd %s %s", h->name, nn_module_name(m), fmt_tensor(NN_TENSOR(nn_tuple_get(args, 2)), a, sizeof a));
        break;
    case EV_BWD:
        fmt_grads(nn_tuple_get(args, 1), b, sizeof b);
        fmt_grads(nn_tuple_get(args, 2), c, sizeof c);
        snprintf(ev, 512, "%s bwd %s in=%s out=%s", h->name, nn_module_name(m), b, c);
        break;
    case EV_DOUBLE_INPUT:
        snprintf(ev, 512, "double input");
        return (nn_object *)nn_mul_scalar(NN_TENSOR(nn_tuple_get(nn_tuple_get(args, 1), 0)), 2);
    case EV_REPLACE_OUTPUT:
        snprintf(ev, 512, "replace output");
        return (nn_object *)nn_add_scalar(NN_TENSOR(nn_tuple_get(args, 2)), 100);
    case EV_SCALE_GRAD_INPUT: {
        snprintf(ev, 512, "scale grad_input");
        nn_object *gin = nn_tuple_get(args, 1), *out = nn_tuple_new(nn_tuple_len(gin));
        for (size_t i = 0; i < nn_tuple_len(gin); i++)
            if (!nn_is_none(nn_tuple_get(gin, i)))
                nn_tuple_set(out, i, (nn_object *)nn_mul_scalar(NN_TENSOR(nn_tuple_get(gin, i)), 10));
        return out;
    }
    }
    return nn_retain(nn_none());
}

static nn_object *hook(const hook_spec *spec) { return TU_OK(nn_cfunction_new(spec->name, hook_fn, (void *)spec, NULL)); }

static nn_object *reg(nn_module *m, nn_hook_kind kind, const hook_spec *spec)
{
    nn_object *h = hook(spec);
    nn_object *handle = TU_OK(nn_module_register_hook(m, kind, h, (nn_hook_options){0}));
    NN_RELEASE(h);
    return handle;
}

static void flush_events(void)
{
    for (int i = 0; i < n_events; i++) tu_logf("event %s", events[i]);
    n_events = 0;
}

/* -------------------------------------------------------------- scenario */

static void play_scenario(void)
{
    char b1[4096], b2[1024];
    nn_module *net = net_new();
    char *r = TU_OK(nn_repr(&net->ob));
    size_t len = 0;
    for (char *p = r; *p; p++) len += (size_t)snprintf(b1 + len, sizeof b1 - len, *p == '\n' ? "\\n" : "%c", *p);
    tu_logf("repr %s", b1);
    nn_free(r);
    nn_object *l;
    l = TU_OK(nn_module_named_children(net)); tu_logf("named_children %s", fmt_names(l, b1, sizeof b1)); NN_RELEASE(l);
    l = TU_OK(nn_module_named_modules(net, "", true)); tu_logf("named_modules %s", fmt_names(l, b1, sizeof b1)); NN_RELEASE(l);
    l = TU_OK(nn_module_named_modules(net, "", false)); tu_logf("named_modules dup %s", fmt_names(l, b1, sizeof b1)); NN_RELEASE(l);
    l = TU_OK(nn_module_named_parameters(net, "", true, true)); tu_logf("named_parameters %s", fmt_names(l, b1, sizeof b1)); NN_RELEASE(l);
    l = TU_OK(nn_module_named_parameters(net, "net", true, true)); tu_logf("named_parameters prefix %s", fmt_names(l, b1, sizeof b1)); NN_RELEASE(l);
    l = TU_OK(nn_module_named_buffers(net, "", true, true)); tu_logf("named_buffers %s", fmt_names(l, b1, sizeof b1)); NN_RELEASE(l);
    nn_module *a = NN_MODULE(nn_module_getattr(net, "a")), *b = NN_MODULE(nn_module_getattr(net, "b"));
    l = TU_OK(nn_module_parameters(a, false)); tu_logf("parameters nonrecurse %zu", nn_list_len(l)); NN_RELEASE(l);
    nn_object *sd = TU_OK(nn_module_state_dict(net, "", false));
    l = TU_OK(nn_list_new(0));
    size_t pos = 0;
    nn_object *k, *v;
    while (nn_dict_next(sd, &pos, &k, &v)) nn_list_append(l, k);
    tu_logf("state_dict %s", fmt_names(l, b1, sizeof b1));
    NN_RELEASE(l);
    nn_object *sda = TU_OK(nn_module_state_dict(a, "p.", false));
    l = TU_OK(nn_list_new(0));
    pos = 0;
    while (nn_dict_next(sda, &pos, &k, &v)) nn_list_append(l, k);
    tu_logf("state_dict prefix %s", fmt_names(l, b1, sizeof b1));
    NN_RELEASE(l);
    NN_RELEASE(sda);

    nn_tensor *ones2 = TU_OK(nn_ones(1, TU_SHAPE(2), NN_FLOAT32));
    log_status(nn_module_register_parameter(a, "x.y", NULL));
    log_status(nn_module_register_parameter(a, "", NULL));
    log_status(nn_module_register_parameter(a, "forward", NULL));
    log_status(nn_module_register_parameter(a, "running", NULL));
    log_status(nn_module_register_parameter(a, "p", ones2));
    log_status(nn_module_register_buffer(a, "x.y", NULL, true));
    log_status(nn_module_register_buffer(a, "weight", NULL, true));
    log_status(nn_module_add_module(a, "x.y", NULL));
    log_status(nn_module_add_module(a, "", NULL));
    log_status(nn_module_get_submodule(net, "a.zz") == NULL);
    log_status(nn_module_get_submodule(net, "a.weight") == NULL);
    log_status(nn_module_get_parameter(net, "a.zz") == NULL);
    log_status(nn_module_get_parameter(net, "a.running") == NULL);
    log_status(nn_module_get_buffer(net, "a.weight") == NULL);
    tu_logf("get_parameter %s", fmt_tensor(TU_OK(nn_module_get_parameter(net, "b.weight")), b1, sizeof b1));
    tu_logf("get_buffer %s", fmt_tensor(TU_OK(nn_module_get_buffer(net, "a.running")), b1, sizeof b1));
    NN_RELEASE(ones2);

    nn_tensor *w987 = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(3), TU_VALUES(9, 8, 7));
    tu_check(nn_dict_set_str(sd, "a.weight", &w987->ob));
    nn_object *bad = TU_OK(nn_dict_new());
    pos = 0;
    while (nn_dict_next(sd, &pos, &k, &v)) nn_dict_set(bad, k, v);
    nn_tensor *z4 = TU_OK(nn_zeros(1, TU_SHAPE(4), NN_FLOAT32)), *z1 = TU_OK(nn_zeros(1, TU_SHAPE(1), NN_FLOAT32));
    tu_check(nn_dict_set_str(bad, "b.bias", &z4->ob));
    tu_check(nn_dict_set_str(bad, "extra.thing", &z1->ob));
    tu_check(nn_dict_del_str(bad, "b.running"));
    log_status(nn_module_load_state_dict(net, bad, true, false) == NULL);
    /* nnscope: a failed load changes nothing (PyTorch had copied a.weight already) */
    fmt_tensor(NN_TENSOR(nn_module_getattr(a, "weight")), b1, sizeof b1);
    assert_string_equal(b1, "[1.0000 2.0000 3.0000]");
    nn_object *partial = TU_OK(nn_dict_new());
    tu_check(nn_dict_set_str(partial, "a.weight", &w987->ob));
    tu_check(nn_dict_set_str(partial, "zz", &z1->ob));
    nn_object *res = TU_OK(nn_module_load_state_dict(net, partial, false, false));
    fmt_names(nn_tuple_get(res, 0), b1, sizeof b1);
    fmt_names(nn_tuple_get(res, 1), b2, sizeof b2);
    tu_logf("strict=False %s %s", b1, b2);
    NN_RELEASE(res);
    tu_logf("after load %s", fmt_tensor(NN_TENSOR(nn_module_getattr(a, "weight")), b1, sizeof b1));
    res = TU_OK(nn_module_load_state_dict(net, sd, true, false));
    assert_int_equal(nn_list_len(nn_tuple_get(res, 0)) + nn_list_len(nn_tuple_get(res, 1)), 0);
    tu_logf("loaded all <All keys matched successfully>");
    NN_RELEASE(res); NN_RELEASE(partial); NN_RELEASE(bad); NN_RELEASE(z4); NN_RELEASE(z1); NN_RELEASE(w987); NN_RELEASE(sd);

    static const hook_spec g_pre = {"global", EV_PRE}, g_fwd = {"global", EV_FWD}, g_bwd = {"global", EV_BWD},
                           n_pre = {"net", EV_PRE}, n_fwd = {"net", EV_FWD}, n_bwd = {"net", EV_BWD},
                           dbl = {"double", EV_DOUBLE_INPUT}, a_fwd = {"a", EV_FWD}, repl = {"replace", EV_REPLACE_OUTPUT},
                           b_bwd = {"b", EV_BWD}, scale = {"scale", EV_SCALE_GRAD_INPUT}, old = {"old", EV_BWD};
    nn_object *handles[] = {
        reg(NULL, NN_HOOK_FORWARD_PRE, &g_pre), reg(NULL, NN_HOOK_FORWARD, &g_fwd), reg(NULL, NN_HOOK_FULL_BACKWARD, &g_bwd),
        reg(net, NN_HOOK_FORWARD_PRE, &n_pre),  reg(net, NN_HOOK_FORWARD, &n_fwd),  reg(net, NN_HOOK_FULL_BACKWARD, &n_bwd),
        reg(a, NN_HOOK_FORWARD_PRE, &dbl),      reg(a, NN_HOOK_FORWARD, &a_fwd),    reg(b, NN_HOOK_FORWARD, &repl),
        reg(b, NN_HOOK_FULL_BACKWARD, &b_bwd),  reg(a, NN_HOOK_FULL_BACKWARD, &scale),
    };
    nn_tensor *x = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(3), TU_VALUES(1, -2, 3));
    tu_check(nn_set_requires_grad(x, true));
    nn_tensor *y = TU_OK(nn_module_call1(net, x));
    snprintf(events[n_events++], 512, "y %s", fmt_tensor(y, b1, sizeof b1));
    nn_tensor *s = TU_OK(nn_sum(y, 0, NULL, false));
    tu_check(nn_backward(s, NULL, false, false));
    snprintf(events[n_events++], 512, "x.grad %s", fmt_tensor(x->grad, b1, sizeof b1));
    snprintf(events[n_events++], 512, "a.weight.grad %s", fmt_tensor(NN_TENSOR(nn_module_getattr(a, "weight"))->grad, b1, sizeof b1));
    flush_events();
    for (size_t i = 0; i < sizeof handles / sizeof handles[0]; i++) {
        nn_hook_handle_remove(handles[i]);
        nn_hook_handle_remove(handles[i]);
        NN_RELEASE(handles[i]);
    }
    NN_RELEASE(x); NN_RELEASE(y); NN_RELEASE(s);
    tu_check(nn_module_zero_grad(net, true));
    assert_null(NN_TENSOR(nn_module_getattr(a, "weight"))->grad);

    nn_object *h = reg(b, NN_HOOK_FULL_BACKWARD, &b_bwd);
    x = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(3), TU_VALUES(1, 2, 3));
    y = TU_OK(nn_module_call1(net, x));
    s = TU_OK(nn_sum(y, 0, NULL, false));
    tu_check(nn_backward(s, NULL, false, false));
    flush_events();
    nn_hook_handle_remove(h);
    NN_RELEASE(h); NN_RELEASE(x); NN_RELEASE(y); NN_RELEASE(s);

    nn_object *oldhook = hook(&old);
    log_status(nn_module_register_hook(b, NN_HOOK_BACKWARD, oldhook, (nn_hook_options){0}) == NULL);
    nn_module *single = affine_new(3);
    h = TU_OK(nn_module_register_hook(single, NN_HOOK_BACKWARD, oldhook, (nn_hook_options){0}));
    x = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(3), TU_VALUES(1, 2, 3));
    tu_check(nn_set_requires_grad(x, true));
    y = TU_OK(nn_module_call1(single, x));
    s = TU_OK(nn_sum(y, 0, NULL, false));
    tu_check(nn_backward(s, NULL, false, false));
    flush_events();
    log_status(nn_module_register_hook(single, NN_HOOK_FULL_BACKWARD, oldhook, (nn_hook_options){0}) == NULL);
    nn_hook_handle_remove(h);
    NN_RELEASE(h); NN_RELEASE(x); NN_RELEASE(y); NN_RELEASE(s); NN_RELEASE(oldhook); NN_RELEASE(single);

    tu_check(nn_module_train(net, false));
    tu_logf("training %s %s", net->training ? "True" : "False", a->training ? "True" : "False");
    tu_check(nn_module_train(net, true));
    tu_logf("training %s %s", net->training ? "True" : "False", b->training ? "True" : "False");
    nn_object *w = nn_module_getattr(a, "weight");
    tu_check(nn_module_to_dtype(net, NN_FLOAT64));
    tu_logf("double %s %s %s", nn_module_getattr(a, "weight") == w ? "True" : "False",
              nn_dtype_name(NN_TENSOR(nn_module_getattr(a, "weight"))->dtype),
              nn_dtype_name(NN_TENSOR(nn_module_getattr(a, "running"))->dtype));
    NN_RELEASE(net);
}


/* ----------------------------------------- what the seeds add to 1.13 */

static char order[256];

static nn_object *order_hook(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)args;
    (void)kwargs;
    strncat(order, (const char *)ud, sizeof order - strlen(order) - 1);
    return nn_retain(nn_none());
}

static nn_object *named_hook(const char *tag) { return TU_OK(nn_cfunction_new(tag, order_hook, (void *)tag, NULL)); }

static void test_prepend_orders_hooks(void **state)
{
    (void)state;
    nn_module *m = affine_new(2);
    nn_object *a = named_hook("a"), *b = named_hook("b"), *c = named_hook("c"), *g = named_hook("g");
    nn_object *h1 = TU_OK(nn_module_register_hook(m, NN_HOOK_FORWARD, a, (nn_hook_options){0}));
    nn_object *h2 = TU_OK(nn_module_register_hook(m, NN_HOOK_FORWARD, b, (nn_hook_options){.prepend = true}));
    nn_object *h3 = TU_OK(nn_module_register_hook(m, NN_HOOK_FORWARD_PRE, c, (nn_hook_options){.prepend = true}));
    nn_object *h4 = TU_OK(nn_module_register_hook(NULL, NN_HOOK_FORWARD, g, (nn_hook_options){.prepend = true}));
    order[0] = '\0';
    nn_tensor *x = TU_OK(nn_ones(1, TU_SHAPE(2), NN_FLOAT32));
    nn_tensor *y = TU_OK(nn_module_call1(m, x));
    /* pre-hook first; global forward hooks before the module's own, prepended b before a */
    assert_string_equal(order, "cgba");
    assert_true(nn_hook_handle_id(h2) == nn_hook_handle_id(h1) + 1);
    nn_object *handles[] = {h1, h2, h3, h4};
    for (int i = 0; i < 4; i++) {
        nn_hook_handle_remove(handles[i]);
        NN_RELEASE(handles[i]);
    }
    order[0] = '\0';
    NN_RELEASE(y);
    y = TU_OK(nn_module_call1(m, x));
    assert_string_equal(order, "");
    NN_RELEASE(y); NN_RELEASE(x); NN_RELEASE(a); NN_RELEASE(b); NN_RELEASE(c); NN_RELEASE(g); NN_RELEASE(m);
}

/* with_kwargs pre-hook: returns (args, kwargs) with a new kwarg "scale" */
static nn_object *kwargs_pre(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)ud;
    (void)kwargs;
    nn_object *kw = nn_tuple_get(args, 2);
    assert_true(nn_is_dict(kw));
    nn_object *newkw = nn_dict_new(), *three = nn_float_new(3.0);
    nn_dict_set_str(newkw, "scale", three);
    nn_object *r = nn_tuple_pack(2, nn_tuple_get(args, 1), newkw);
    NN_RELEASE(newkw);
    NN_RELEASE(three);
    return r;
}

static nn_object *scaled_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    (void)m;
    double scale = 1.0;
    if (kwargs && nn_dict_get_str(kwargs, "scale")) scale = nn_float_value(nn_dict_get_str(kwargs, "scale"));
    return (nn_object *)nn_mul_scalar(NN_TENSOR(nn_tuple_get(args, 0)), scale);
}

static const nn_module_class scaled_class = {.name = "Scaled", .forward = scaled_forward};

static nn_object *kwargs_post(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)kwargs;
    /* hook(module, args, kwargs, output) */
    assert_int_equal(nn_tuple_len(args), 4);
    assert_true(nn_is_dict(nn_tuple_get(args, 2)));
    *(int *)ud += 1;
    return nn_retain(nn_none());
}

static void test_with_kwargs_hooks(void **state)
{
    (void)state;
    nn_module *m = TU_OK(nn_module_new(&scaled_class));
    int post_calls = 0;
    nn_object *pre = TU_OK(nn_cfunction_new("pre", kwargs_pre, NULL, NULL));
    nn_object *post = TU_OK(nn_cfunction_new("post", kwargs_post, &post_calls, NULL));
    nn_object *h1 = TU_OK(nn_module_register_hook(m, NN_HOOK_FORWARD_PRE, pre, (nn_hook_options){.with_kwargs = true}));
    nn_object *h2 = TU_OK(nn_module_register_hook(m, NN_HOOK_FORWARD, post, (nn_hook_options){.with_kwargs = true}));
    nn_tensor *x = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(2), TU_VALUES(1, 2));
    nn_tensor *y = TU_OK(nn_module_call1(m, x));
    tu_assert_values(y, 1, TU_SHAPE(2), TU_VALUES(3, 6), 0);
    assert_int_equal(post_calls, 1);
    NN_RELEASE(h1); NN_RELEASE(h2); NN_RELEASE(pre); NN_RELEASE(post); NN_RELEASE(x); NN_RELEASE(y); NN_RELEASE(m);
}

static nn_object *failing_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    (void)m;
    (void)args;
    (void)kwargs;
    nn_error_set(NN_ERR_VALUE, "forward failed");
    return NULL;
}

static const nn_module_class failing_class = {.name = "Failing", .forward = failing_forward};

static void test_always_call_runs_on_errors(void **state)
{
    (void)state;
    nn_module *m = TU_OK(nn_module_new(&failing_class));
    nn_object *always = named_hook("A"), *normal = named_hook("N");
    nn_object *h1 = TU_OK(nn_module_register_hook(m, NN_HOOK_FORWARD, always, (nn_hook_options){.always_call = true}));
    nn_object *h2 = TU_OK(nn_module_register_hook(m, NN_HOOK_FORWARD, normal, (nn_hook_options){0}));
    order[0] = '\0';
    nn_tensor *x = TU_OK(nn_ones(1, TU_SHAPE(2), NN_FLOAT32));
    assert_null(nn_module_call1(m, x));
    tu_assert_error(NN_ERR_VALUE, "forward failed"); /* the forward's error survives the hook */
    assert_string_equal(order, "A");
    NN_RELEASE(h1); NN_RELEASE(h2); NN_RELEASE(always); NN_RELEASE(normal); NN_RELEASE(x); NN_RELEASE(m);
}

static nn_object *halve_grad_output(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)ud;
    (void)kwargs;
    nn_object *go = nn_tuple_get(args, 1);
    nn_object *out = nn_tuple_new(nn_tuple_len(go));
    nn_tuple_set(out, 0, (nn_object *)nn_mul_scalar(NN_TENSOR(nn_tuple_get(go, 0)), 0.5));
    return out;
}

static void test_backward_pre_hook_replaces_grad_output(void **state)
{
    (void)state;
    nn_module *m = affine_new(3); /* y = x * [1, 2, 3] + 0.5 */
    nn_object *hook = TU_OK(nn_cfunction_new("halve", halve_grad_output, NULL, NULL));
    nn_object *h = TU_OK(nn_module_register_hook(m, NN_HOOK_BACKWARD_PRE, hook, (nn_hook_options){0}));
    nn_tensor *x = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(3), TU_VALUES(1, 1, 1));
    tu_check(nn_set_requires_grad(x, true));
    nn_tensor *y = TU_OK(nn_module_call1(m, x));
    nn_tensor *s = TU_OK(nn_sum(y, 0, NULL, false));
    tu_check(nn_backward(s, NULL, false, false));
    tu_assert_values(x->grad, 1, TU_SHAPE(3), TU_VALUES(0.5, 1, 1.5), 0);
    tu_assert_values(NN_TENSOR(nn_module_getattr(m, "bias"))->grad, 1, TU_SHAPE(3), TU_VALUES(0.5, 0.5, 0.5), 0);
    NN_RELEASE(h); NN_RELEASE(hook); NN_RELEASE(x); NN_RELEASE(y); NN_RELEASE(s); NN_RELEASE(m);
}

static void test_set_submodule(void **state)
{
    (void)state;
    nn_module *net = net_new(), *c = affine_new(2);
    /* strict=False creates, strict=True only replaces */
    tu_check(nn_module_set_submodule(net, "a.extra", c, false));
    assert_ptr_equal(nn_module_get_submodule(net, "a.extra"), c);
    assert_int_equal(nn_module_set_submodule(net, "b.missing", c, true), -1);
    tu_assert_error(NN_ERR_ATTRIBUTE, "Affine has no attribute `missing`");
    tu_check(nn_module_set_submodule(net, "b", c, true));
    assert_ptr_equal(nn_module_get_submodule(net, "b"), c);
    assert_int_equal(nn_module_set_submodule(net, "a.weight", c, false), -1);
    tu_assert_error(NN_ERR_ATTRIBUTE, "`weight` is not an nn.Module");
    assert_int_equal(nn_module_set_submodule(net, "", c, false), -1);
    tu_assert_error(NN_ERR_VALUE, "Cannot set the submodule without a target name!");
    assert_int_equal(nn_module_set_submodule(net, "zz.q", c, false), -1);
    tu_assert_error(NN_ERR_ATTRIBUTE, "Net has no attribute `zz`");
    NN_RELEASE(c); NN_RELEASE(net);
}

/* state-dict post hook: adds a key; load post hook: clears missing keys */
static nn_object *add_key_hook(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)ud;
    (void)kwargs;
    nn_object *sd = nn_tuple_get(args, 1), *prefix = nn_tuple_get(args, 2);
    char key[64];
    snprintf(key, sizeof key, "%sstep", nn_str_cstr(prefix));
    nn_tensor *one = nn_scalar(1, NN_INT64);
    nn_dict_set_str(sd, key, &one->ob);
    NN_RELEASE(one);
    return nn_retain(nn_none());
}

static nn_object *clear_missing_hook(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)ud;
    (void)kwargs;
    nn_object *keys = nn_tuple_get(args, 1), *missing = nn_tuple_get(keys, 0);
    while (nn_list_len(missing)) NN_RELEASE(nn_list_pop(missing, 0));
    return nn_retain(nn_none());
}

static nn_object *extra_state_get(nn_module *m)
{
    (void)m;
    return nn_str_new("extra!");
}

static int extra_state_set(nn_module *m, nn_object *st)
{
    return nn_module_setattr(m, "loaded_extra", st);
}

static const nn_module_class extra_class = {
    .name = "Extra", .forward = affine_forward, .get_extra_state = extra_state_get, .set_extra_state = extra_state_set};

static void test_state_dict_hooks_and_extra_state(void **state)
{
    (void)state;
    nn_module *m = affine_new(2);
    nn_object *add = TU_OK(nn_cfunction_new("add", add_key_hook, NULL, NULL));
    nn_object *h = TU_OK(nn_module_register_hook(m, NN_HOOK_STATE_DICT_POST, add, (nn_hook_options){0}));
    nn_object *sd = TU_OK(nn_module_state_dict(m, "m.", false));
    assert_non_null(nn_dict_get_str(sd, "m.step"));
    assert_int_equal(nn_dict_len(sd), 4);
    /* load with a missing key: a post hook that clears missing_keys makes strict pass */
    nn_object *small = TU_OK(nn_dict_new());
    nn_tensor *w = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(2), TU_VALUES(5, 6));
    tu_check(nn_dict_set_str(small, "weight", &w->ob));
    assert_null(nn_module_load_state_dict(m, small, true, false));
    tu_assert_error(NN_ERR_RUNTIME, "Missing key(s) in state_dict: \"bias\", \"running\". ");
    tu_assert_values(NN_TENSOR(nn_module_getattr(m, "weight")), 1, TU_SHAPE(2), TU_VALUES(1, 2), 0);
    nn_object *clear = TU_OK(nn_cfunction_new("clear", clear_missing_hook, NULL, NULL));
    nn_object *h2 = TU_OK(nn_module_register_hook(m, NN_HOOK_LOAD_POST, clear, (nn_hook_options){0}));
    nn_object *res = TU_OK(nn_module_load_state_dict(m, small, true, false));
    tu_assert_values(NN_TENSOR(nn_module_getattr(m, "weight")), 1, TU_SHAPE(2), TU_VALUES(5, 6), 0);
    NN_RELEASE(res);
    /* assign=True swaps in the tensor itself, as a Parameter */
    nn_object *res2 = TU_OK(nn_module_load_state_dict(m, small, false, true));
    nn_object *wp = nn_module_getattr(m, "weight");
    assert_true(nn_is_parameter(wp));
    assert_ptr_equal(NN_TENSOR(wp)->storage, w->storage);
    assert_true(NN_TENSOR(wp)->requires_grad);
    NN_RELEASE(res2);
    /* extra state */
    nn_module *e = TU_OK(nn_module_new(&extra_class));
    nn_object *esd = TU_OK(nn_module_state_dict(e, "", false));
    assert_string_equal(nn_str_cstr(nn_dict_get_str(esd, "_extra_state")), "extra!");
    nn_object *eres = TU_OK(nn_module_load_state_dict(e, esd, true, false));
    assert_string_equal(nn_str_cstr(nn_module_getattr(e, "loaded_extra")), "extra!");
    nn_object *empty = TU_OK(nn_dict_new());
    assert_null(nn_module_load_state_dict(e, empty, true, false));
    tu_assert_error(NN_ERR_RUNTIME, "Missing key(s) in state_dict: \"_extra_state\".");
    NN_RELEASE(empty); NN_RELEASE(eres); NN_RELEASE(esd); NN_RELEASE(e);
    NN_RELEASE(h); NN_RELEASE(h2); NN_RELEASE(add); NN_RELEASE(clear); NN_RELEASE(sd); NN_RELEASE(small); NN_RELEASE(w);
    NN_RELEASE(m);
}

static nn_object *count_apply(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)kwargs;
    strncat((char *)ud, nn_module_name(NN_MODULE(nn_tuple_get(args, 0))), 63);
    return nn_retain(nn_none());
}

static void test_modes_devices_apply(void **state)
{
    (void)state;
    nn_module *net = net_new();
    char seen[256] = "";
    nn_object *fn = TU_OK(nn_cfunction_new("fn", count_apply, seen, NULL));
    tu_check(nn_module_apply(net, fn));
    assert_string_equal(seen, "AffineAffineNet"); /* children first, the shared one once */
    NN_RELEASE(fn);
    assert_int_equal(nn_module_to_device(net, "cuda"), -1);
    tu_assert_error(NN_ERR_RUNTIME, "CUDA");
    assert_int_equal(nn_module_to_device(net, "xpu"), -1);
    tu_assert_error(NN_ERR_RUNTIME, "xpu");
    tu_check(nn_module_to_device(net, "cpu"));
    /* named_modules with a memo: modules already in it are skipped */
    nn_object *memo = TU_OK(nn_dict_new());
    tu_check(nn_dict_set(memo, nn_module_getattr(net, "b"), NULL));
    nn_object *named = TU_OK(nn_module_named_modules_memo(net, memo, "", true));
    assert_int_equal(nn_list_len(named), 2); /* "" and "a" */
    assert_int_equal(nn_dict_len(memo), 3);
    NN_RELEASE(named);
    NN_RELEASE(memo);
    tu_check(nn_module_requires_grad_(net, false));
    nn_tensor *w = NN_TENSOR(nn_module_getattr(NN_MODULE(nn_module_getattr(net, "a")), "weight"));
    assert_false(w->requires_grad);
    tu_check(nn_module_requires_grad_(net, true));
    /* zero_grad(set_to_none=False) zeroes in place */
    nn_tensor *g = TU_OK(nn_ones(1, TU_SHAPE(3), NN_FLOAT32));
    w->grad = g;
    tu_check(nn_module_zero_grad(net, false));
    assert_ptr_equal(w->grad, g);
    tu_assert_values(g, 1, TU_SHAPE(3), TU_VALUES(0, 0, 0), 0);
    tu_check(nn_module_to_empty(net, "cpu"));
    assert_int_equal(nn_module_to_dtype(net, NN_INT64), -1);
    tu_assert_error(NN_ERR_TYPE, "nn.Module.to only accepts floating point");
    tu_check(nn_module_type_(net, NN_FLOAT16));
    assert_int_equal(w->dtype, NN_FLOAT16);
    NN_RELEASE(net);
}

static void test_state_dict_through_safetensors(void **state)
{
    (void)state;
    nn_module *src = net_new(), *dst = net_new();
    nn_tensor *w = NN_TENSOR(nn_module_getattr(NN_MODULE(nn_module_getattr(src, "b")), "weight"));
    nn_tensor *v = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(3), TU_VALUES(-1, 0.25, 7));
    bool prev = nn_set_grad_enabled(false);
    tu_check(nn_copy_(w, v));
    nn_set_grad_enabled(prev);
    nn_object *sd = TU_OK(nn_module_state_dict(src, "", false)), *meta = TU_OK(nn_dict_new());
    nn_object *cell = TU_OK(nn_str_new("3"));
    tu_check(nn_dict_set_str(meta, "cell", cell));
    char path[] = "/tmp/nnscope-test-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    tu_check(nn_state_dict_save_file(sd, path, meta));
    nn_object *meta_back = NULL;
    nn_object *loaded = TU_OK(nn_state_dict_load_file(path, &meta_back));
    assert_string_equal(nn_str_cstr(nn_dict_get_str(meta_back, "cell")), "3");
    nn_object *res = TU_OK(nn_module_load_state_dict(dst, loaded, true, false));
    nn_tensor *w2 = NN_TENSOR(nn_module_getattr(NN_MODULE(nn_module_getattr(dst, "b")), "weight"));
    tu_assert_values(w2, 1, TU_SHAPE(3), TU_VALUES(-1, 0.25, 7), 0);
    /* a truncated file is refused and nothing changes */
    assert_int_equal(truncate(path, 20), 0);
    assert_null(nn_state_dict_load_file(path, NULL));
    tu_assert_error(NN_ERR_RUNTIME, "invalid safetensors file");
    tu_assert_values(w2, 1, TU_SHAPE(3), TU_VALUES(-1, 0.25, 7), 0);
    close(fd);
    unlink(path);
    NN_RELEASE(res); NN_RELEASE(loaded); NN_RELEASE(meta_back); NN_RELEASE(cell); NN_RELEASE(meta); NN_RELEASE(sd);
    NN_RELEASE(v); NN_RELEASE(src); NN_RELEASE(dst);
}

static void test_transcript_matches_pytorch(void **state)
{
    (void)state;
    play_scenario();
    tu_transcript_compare("fixtures/module_transcript.txt", 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_transcript_matches_pytorch),
        cmocka_unit_test(test_prepend_orders_hooks),
        cmocka_unit_test(test_with_kwargs_hooks),
        cmocka_unit_test(test_always_call_runs_on_errors),
        cmocka_unit_test(test_backward_pre_hook_replaces_grad_output),
        cmocka_unit_test(test_set_submodule),
        cmocka_unit_test(test_state_dict_hooks_and_extra_state),
        cmocka_unit_test(test_modes_devices_apply),
        cmocka_unit_test(test_state_dict_through_safetensors),
    };
    return cmocka_run_group_tests_name("module", tests, NULL, NULL);
}
