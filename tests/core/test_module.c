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

/* ------------------------------------------------------------ transcript */

static char *transcript;
static size_t transcript_len;

static void logf_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logf_line(const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    size_t n = strlen(buf);
    transcript = realloc(transcript, transcript_len + n + 2);
    memcpy(transcript + transcript_len, buf, n);
    transcript_len += n;
    transcript[transcript_len++] = '\n';
    transcript[transcript_len] = '\0';
}

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
        logf_line("ok");
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
    logf_line("%s %s", nn_error_kind_name(nn_error_current()), msg);
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
    for (int i = 0; i < n_events; i++) logf_line("event %s", events[i]);
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
    logf_line("repr %s", b1);
    nn_free(r);
    nn_object *l;
    l = TU_OK(nn_module_named_children(net)); logf_line("named_children %s", fmt_names(l, b1, sizeof b1)); NN_RELEASE(l);
    l = TU_OK(nn_module_named_modules(net, "", true)); logf_line("named_modules %s", fmt_names(l, b1, sizeof b1)); NN_RELEASE(l);
    l = TU_OK(nn_module_named_modules(net, "", false)); logf_line("named_modules dup %s", fmt_names(l, b1, sizeof b1)); NN_RELEASE(l);
    l = TU_OK(nn_module_named_parameters(net, "", true, true)); logf_line("named_parameters %s", fmt_names(l, b1, sizeof b1)); NN_RELEASE(l);
    l = TU_OK(nn_module_named_parameters(net, "net", true, true)); logf_line("named_parameters prefix %s", fmt_names(l, b1, sizeof b1)); NN_RELEASE(l);
    l = TU_OK(nn_module_named_buffers(net, "", true, true)); logf_line("named_buffers %s", fmt_names(l, b1, sizeof b1)); NN_RELEASE(l);
    nn_module *a = NN_MODULE(nn_module_getattr(net, "a")), *b = NN_MODULE(nn_module_getattr(net, "b"));
    l = TU_OK(nn_module_parameters(a, false)); logf_line("parameters nonrecurse %zu", nn_list_len(l)); NN_RELEASE(l);
    nn_object *sd = TU_OK(nn_module_state_dict(net, "", false));
    l = TU_OK(nn_list_new(0));
    size_t pos = 0;
    nn_object *k, *v;
    while (nn_dict_next(sd, &pos, &k, &v)) nn_list_append(l, k);
    logf_line("state_dict %s", fmt_names(l, b1, sizeof b1));
    NN_RELEASE(l);
    nn_object *sda = TU_OK(nn_module_state_dict(a, "p.", false));
    l = TU_OK(nn_list_new(0));
    pos = 0;
    while (nn_dict_next(sda, &pos, &k, &v)) nn_list_append(l, k);
    logf_line("state_dict prefix %s", fmt_names(l, b1, sizeof b1));
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
    logf_line("get_parameter %s", fmt_tensor(TU_OK(nn_module_get_parameter(net, "b.weight")), b1, sizeof b1));
    logf_line("get_buffer %s", fmt_tensor(TU_OK(nn_module_get_buffer(net, "a.running")), b1, sizeof b1));
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
    logf_line("strict=False %s %s", b1, b2);
    NN_RELEASE(res);
    logf_line("after load %s", fmt_tensor(NN_TENSOR(nn_module_getattr(a, "weight")), b1, sizeof b1));
    res = TU_OK(nn_module_load_state_dict(net, sd, true, false));
    assert_int_equal(nn_list_len(nn_tuple_get(res, 0)) + nn_list_len(nn_tuple_get(res, 1)), 0);
    logf_line("loaded all <All keys matched successfully>");
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
    logf_line("training %s %s", net->training ? "True" : "False", a->training ? "True" : "False");
    tu_check(nn_module_train(net, true));
    logf_line("training %s %s", net->training ? "True" : "False", b->training ? "True" : "False");
    nn_object *w = nn_module_getattr(a, "weight");
    tu_check(nn_module_to_dtype(net, NN_FLOAT64));
    logf_line("double %s %s %s", nn_module_getattr(a, "weight") == w ? "True" : "False",
              nn_dtype_name(NN_TENSOR(nn_module_getattr(a, "weight"))->dtype),
              nn_dtype_name(NN_TENSOR(nn_module_getattr(a, "running"))->dtype));
    NN_RELEASE(net);
}

static void test_transcript_matches_pytorch(void **state)
{
    (void)state;
    play_scenario();
    char *want = tu_read_file("fixtures/module_transcript.txt");
    /* compare line by line for a readable failure */
    char *wsave, *gsave;
    char *wl = strtok_r(want, "\n", &wsave), *gl = strtok_r(transcript, "\n", &gsave);
    int line = 1;
    for (; wl && gl; wl = strtok_r(NULL, "\n", &wsave), gl = strtok_r(NULL, "\n", &gsave), line++)
        if (strcmp(wl, gl) != 0) fail_msg("line %d:\n  want: %s\n  got:  %s", line, wl, gl);
    if (wl || gl) fail_msg("line %d: transcript lengths differ (%s)", line, wl ? "ours is short" : "ours is long");
    free(want);
    free(transcript);
    transcript = NULL;
    transcript_len = 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_transcript_matches_pytorch),
    };
    return cmocka_run_group_tests_name("module", tests, NULL, NULL);
}
