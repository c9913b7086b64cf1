/*
 * test_containers.c — torch.nn's containers in C: the scenario of
 * tests/fixtures/gen_containers.py played with the same two classes (Scale,
 * Plain) must print PyTorch's transcript (containers.txt) line for line; then
 * what the transcript leaves out (insert's checks, slices, the object protocol,
 * MemoryError paths) and, from containers_ff.txt, seeded Linear Sequentials and
 * the labml FeedForward against PyTorch's numbers.
 */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Objects made during a scenario, released at its end. */
static nn_object *pool[8192];
static int n_pool;
static void *keep(void *o)
{
    if (!o) fail_msg("unexpected failure: %s: %s", nn_error_kind_name(nn_error_current()), nn_error_message());
    assert_true(n_pool < (int)(sizeof pool / sizeof pool[0]));
    pool[n_pool++] = o;
    return o;
}
static void release_pool(void)
{
    while (n_pool) NN_RELEASE(pool[--n_pool]);
}
#define KEEP(x) ((__typeof__(x))keep((void *)(x)))
#define O(m) (&(m)->ob)

static nn_object *I(int64_t v) { return KEEP(nn_int_new(v)); }
static nn_object *S(const char *s) { return KEEP(nn_str_new(s)); }

/* Logs "ok" or "Kind message" (newlines escaped) and clears the error. */
static void status(int failed)
{
    if (!failed) {
        tu_logf("ok");
        return;
    }
    char msg[4096];
    size_t len = 0;
    for (const char *p = nn_error_message(); *p && len < sizeof msg - 3; p++) {
        if (*p == '\n') len += (size_t)snprintf(msg + len, sizeof msg - len, "\\n");
        else msg[len++] = *p;
    }
    msg[len] = '\0';
    tu_logf("%s %s", nn_error_kind_name(nn_error_current()), msg);
    nn_error_clear();
}
#define ERR_RC(expr) status((expr) != 0)
#define ERR_PTR(expr) do { void *p__ = (void *)(expr); if (p__) { KEEP(p__); } status(p__ == NULL); } while (0)

/* Rotating buffers so several formatted values fit in one log line. */
static char bufs[16][8192];
static int buf_i;
static char *next_buf(void) { return bufs[buf_i++ % 16]; }

/* repr(o) with newlines as \n */
static const char *R(nn_object *o)
{
    char *b = next_buf(), *r = nn_repr(o);
    if (!r) fail_msg("repr failed: %s", nn_error_message());
    size_t len = 0;
    for (char *p = r; *p && len < 8000; p++) len += (size_t)snprintf(b + len, 8192 - len, *p == '\n' ? "\\n" : "%c", *p);
    b[len] = '\0';
    nn_free(r);
    return b;
}
#define RM(m) R(O(m))

/* "['a', 'b']" from a list of str or of (str, x) tuples, or a dict's keys */
static const char *L(nn_object *list)
{
    char *b = next_buf();
    size_t len = (size_t)snprintf(b, 8192, "[");
    if (nn_is_dict(list)) {
        size_t pos = 0, i = 0;
        nn_object *k;
        while (nn_dict_next(list, &pos, &k, NULL)) len += (size_t)snprintf(b + len, 8192 - len, "%s'%s'", i++ ? ", " : "", nn_str_cstr(k));
    } else {
        for (size_t i = 0; i < nn_list_len(list); i++) {
            nn_object *item = nn_list_get(list, i);
            if (item->type == &nn_tuple_type) item = nn_tuple_get(item, 0);
            len += (size_t)snprintf(b + len, 8192 - len, "%s'%s'", i ? ", " : "", nn_str_cstr(item));
        }
    }
    snprintf(b + len, 8192 - len, "]");
    return b;
}
#define K(m) L((m)->modules)

/* type(v).__name__ as gen_containers.py's T() */
static const char *tname(nn_object *v)
{
    if (nn_is_none(v)) return "NoneType";
    if (nn_is_module(v)) return nn_module_name(NN_MODULE(v));
    return v->type->name;
}
static const char *T(nn_object *list)
{
    char *b = next_buf();
    size_t len = (size_t)snprintf(b, 8192, "[");
    for (size_t i = 0; i < nn_list_len(list); i++) len += (size_t)snprintf(b + len, 8192 - len, "%s%s", i ? ", " : "", tname(nn_list_get(list, i)));
    snprintf(b + len, 8192 - len, "]");
    return b;
}

/* "[1.0000 -2.0000]" */
static const char *V(nn_object *o)
{
    char *b = next_buf();
    nn_tensor *t = NN_TENSOR(o);
    double v[256];
    nn_to_doubles(t, v);
    size_t len = (size_t)snprintf(b, 8192, "[");
    for (int64_t i = 0; i < nn_numel(t); i++) len += (size_t)snprintf(b + len, 8192 - len, "%s%.4f", i ? " " : "", v[i]);
    snprintf(b + len, 8192 - len, "]");
    return b;
}

static const char *B(bool v) { return v ? "True" : "False"; }

/* slices */
static const nn_slice_spec *SL(bool has_start, int64_t start, bool has_stop, int64_t stop, bool has_step, int64_t step)
{
    static nn_slice_spec s[16];
    static int i;
    nn_slice_spec *p = &s[i++ % 16];
    *p = (nn_slice_spec){start, stop, step, has_start, has_stop, has_step};
    return p;
}
#define ALL SL(false, 0, false, 0, false, 0)
#define FROM(a) SL(true, a, false, 0, false, 0)
#define STEP(c) SL(false, 0, false, 0, true, c)
#define RANGE(a, b) SL(true, a, true, b, false, 0)

/* --------------------------------------------------------- the two classes */

static char *scale_extra_repr(nn_module *m)
{
    char buf[64];
    snprintf(buf, sizeof buf, "k=%lld", (long long)nn_int_value(nn_module_getattr(m, "k")));
    return nn_strdup(buf);
}

static nn_object *scale_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    (void)kwargs;
    return (nn_object *)nn_mul(NN_TENSOR(nn_tuple_get(args, 0)), NN_TENSOR(nn_module_getattr(m, "weight")));
}

static const nn_module_class scale_class = {.name = "Scale", .forward = scale_forward, .extra_repr = scale_extra_repr};

/* Scale(k): y = x * [k, k]; new reference */
static nn_module *scale_new(int64_t k)
{
    nn_module *m = TU_OK(nn_module_new(&scale_class));
    nn_object *kobj = TU_OK(nn_int_new(k));
    tu_check(nn_module_setattr(m, "k", kobj));
    nn_tensor *w = TU_OK(nn_full(1, TU_SHAPE(2), (double)k, NN_FLOAT32));
    nn_tensor *p = TU_OK(nn_parameter_new(w, true));
    tu_check(nn_module_setattr(m, "weight", O(p)));
    NN_RELEASE(kobj); NN_RELEASE(w); NN_RELEASE(p);
    return m;
}

static nn_object *plain_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    (void)m; (void)kwargs;
    return (nn_object *)nn_add_scalar(NN_TENSOR(nn_tuple_get(args, 0)), 1);
}

static const nn_module_class plain_class = {.name = "Plain", .forward = plain_forward};

static nn_module *plain_new(void) { return TU_OK(nn_module_new(&plain_class)); }

/* pooled constructors */
static nn_object *Sc(int64_t k) { return O(KEEP(scale_new(k))); }
static nn_object *Pl(void) { return O(KEEP(plain_new())); }

/* ------------------------------------------------------------------ hooks */

static char events[16][512];
static int n_events;

static nn_object *fwd_hook(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)kwargs;
    snprintf(events[n_events++], 512, "%s fwd %s %s", (const char *)ud, nn_module_name(NN_MODULE(nn_tuple_get(args, 0))),
             V(nn_tuple_get(args, 2)));
    return nn_retain(nn_none());
}

static void flush(void)
{
    for (int i = 0; i < n_events; i++) tu_logf("event %s", events[i]);
    n_events = 0;
}

/* m(x) through the call path; new reference (pooled) or NULL */
static nn_object *call(nn_module *m, nn_object *x)
{
    nn_object *args = KEEP(nn_tuple_pack(1, x));
    nn_object *y = nn_module_call(m, args, NULL);
    return y ? KEEP(y) : NULL;
}

/* m(*args, **kwargs) logging ok/error */
static void call_status(nn_module *m, size_t nargs, nn_object *const *args, const char *kw, nn_object *kwv)
{
    nn_object *a = KEEP(nn_tuple_new(nargs));
    for (size_t i = 0; i < nargs; i++) nn_tuple_set(a, i, nn_retain(args[i]));
    nn_object *kwargs = NULL;
    if (kw) {
        kwargs = KEEP(nn_dict_new());
        tu_check(nn_dict_set_str(kwargs, kw, kwv));
    }
    nn_object *y = nn_module_call(m, a, kwargs);
    if (y) KEEP(y);
    status(y == NULL);
}

/* ---------------------------------------------------------------- scenario */

static void play_sequential(nn_object *x)
{
    tu_logf("== sequential");
    nn_module *a = KEEP(scale_new(1)), *b = KEEP(scale_new(2)), *c = KEEP(scale_new(3));
    nn_module *s = KEEP(nn_sequential_new(3, (nn_module *[]){a, b, c}));
    tu_logf("repr %s", RM(s));
    tu_logf("len %lld keys %s", (long long)nn_container_len(s), K(s));
    nn_object *hf1 = KEEP(nn_cfunction_new("b", fwd_hook, "b", NULL)), *hf2 = KEEP(nn_cfunction_new("s", fwd_hook, "s", NULL));
    nn_object *hb = KEEP(nn_module_register_hook(b, NN_HOOK_FORWARD, hf1, (nn_hook_options){0}));
    nn_object *hs = KEEP(nn_module_register_hook(s, NN_HOOK_FORWARD, hf2, (nn_hook_options){0}));
    tu_logf("forward %s", V(call(s, x)));
    flush();
    nn_hook_handle_remove(hb);
    nn_hook_handle_remove(hs);
    tu_logf("getitem %s %s %s", R(nn_sequential_getitem(s, 0)), R(nn_sequential_getitem(s, -1)),
              B(nn_sequential_getitem(s, 1) == O(b)));
    ERR_PTR(nn_retain(nn_sequential_getitem(s, 3)));
    ERR_PTR(nn_retain(nn_sequential_getitem(s, -4)));
    ERR_PTR(nn_container_getitem(s, S("a")));
    ERR_PTR(nn_container_getitem(s, KEEP(nn_float_new(1.5))));
    nn_module *sl = KEEP(nn_sequential_getslice(s, FROM(1)));
    tu_logf("slice 1: %s %s", K(sl), RM(sl));
    tu_logf("slice ::-1 %s", K(KEEP(nn_sequential_getslice(s, STEP(-1)))));
    tu_logf("slice ::2 %s", K(KEEP(nn_sequential_getslice(s, STEP(2)))));
    tu_logf("slice 5: %s", RM(KEEP(nn_sequential_getslice(s, FROM(5)))));
    tu_logf("slice shares %s", B(nn_sequential_getitem(sl, 0) == O(b)));
    ERR_PTR(nn_sequential_getslice(s, STEP(0)));
    tu_logf("iter %s", T(KEEP(nn_container_iter(s))));

    nn_object *od = KEEP(nn_dict_new());
    tu_check(nn_dict_set_str(od, "first", O(a)));
    tu_check(nn_dict_set_str(od, "second", O(b)));
    tu_check(nn_dict_set_str(od, "third", O(c)));
    nn_module *o = KEEP(nn_sequential_new_from_dict(od));
    tu_logf("named repr %s", RM(o));
    tu_logf("named slice %s %s", K(KEEP(nn_sequential_getslice(o, FROM(1)))), K(KEEP(nn_sequential_getslice(o, STEP(-1)))));
    tu_logf("named getitem %s", R(nn_sequential_getitem(o, 1)));
    tu_check(nn_sequential_setitem(o, 1, Pl()));
    tu_logf("named setitem %s %s", K(o), RM(o));
    ERR_RC(nn_sequential_insert(o, 0, Sc(9)));
    tu_logf("named after insert %s", K(o));
    tu_check(nn_sequential_insert(o, 3, Sc(8)));
    tu_logf("named insert at end %s", K(o));
    tu_check(nn_sequential_delitem(o, 0));
    tu_logf("named del %s %s", K(o), RM(o));

    s = KEEP(nn_sequential_new_from_objects(3, (nn_object *[]){Sc(1), Sc(2), Sc(3)}));
    tu_check(nn_sequential_setitem(s, 1, Sc(5)));
    tu_check(nn_sequential_setitem(s, -1, Pl()));
    tu_logf("setitem %s %s", K(s), RM(s));
    ERR_RC(nn_sequential_setitem(s, 0, I(5)));
    ERR_RC(nn_sequential_setitem(s, 3, Pl()));
    tu_check(nn_sequential_setitem(s, 0, NULL));
    tu_logf("setitem None %s", RM(s));
    ERR_PTR(call(s, x));

    s = KEEP(nn_sequential_new_from_objects(5, (nn_object *[]){Sc(1), Sc(2), Sc(3), Sc(4), Sc(5)}));
    tu_check(nn_sequential_delitem(s, 0));
    tu_logf("del 0 %s %s", K(s), RM(s));
    tu_check(nn_sequential_delitem(s, -1));
    tu_logf("del -1 %s %s", K(s), RM(s));
    ERR_RC(nn_sequential_delitem(s, 7));
    tu_check(nn_sequential_delslice(s, STEP(2)));
    tu_logf("del ::2 %s", RM(s));
    tu_check(nn_sequential_delslice(s, ALL));
    tu_logf("del : %s %lld", RM(s), (long long)nn_container_len(s));

    s = KEEP(nn_sequential_new_from_objects(1, (nn_object *[]){Sc(1)}));
    tu_check(nn_sequential_append(s, Sc(2)));
    tu_logf("append %s", RM(s));
    ERR_RC(nn_sequential_append(s, O(KEEP(nn_zeros(1, TU_SHAPE(2), NN_FLOAT32)))));
    ERR_RC(nn_sequential_append(s, I(5)));
    tu_check(nn_sequential_insert(s, 0, Sc(0)));
    tu_check(nn_sequential_insert(s, -1, Sc(7)));
    tu_check(nn_sequential_insert(s, nn_container_len(s), Sc(9)));
    tu_logf("insert %s %s", K(s), RM(s));
    ERR_RC(nn_sequential_insert(s, 9, Sc(1)));
    ERR_RC(nn_sequential_insert(s, -9, Sc(1)));
    tu_check(nn_sequential_extend(s, O(KEEP(nn_sequential_new_from_objects(1, (nn_object *[]){Pl()})))));
    nn_object *lst = KEEP(nn_list_new(0));
    tu_check(nn_list_append(lst, Sc(4)));
    tu_check(nn_sequential_extend(s, lst));
    tu_logf("extend %s %s", K(s), RM(s));
    lst = KEEP(nn_list_new(0));
    tu_check(nn_list_append(lst, Pl()));
    tu_check(nn_list_append(lst, I(5)));
    ERR_RC(nn_sequential_extend(s, lst));
    tu_logf("extend partial %s", K(s));
    ERR_RC(nn_sequential_extend(s, I(5)));
    ERR_RC(nn_sequential_extend(s, Sc(1)));
    ERR_RC(nn_sequential_extend(s, O(KEEP(nn_zeros(0, NULL, NN_FLOAT32)))));
    ERR_RC(nn_sequential_extend(s, O(KEEP(nn_zeros(1, TU_SHAPE(2), NN_FLOAT32)))));
    ERR_RC(nn_sequential_extend(s, S("ab")));
    nn_object *p = KEEP(nn_sequential_pop(s, 0));
    tu_logf("pop 0 %s %s", R(p), K(s));
    p = KEEP(nn_sequential_pop(s, -1));
    tu_logf("pop -1 %s %s", R(p), K(s));
    nn_module *ps = KEEP(nn_sequential_pop_slice(s, RANGE(1, 3)));
    tu_logf("pop 1:3 %s %s", RM(ps), RM(s));
    ERR_PTR(nn_sequential_pop(s, 20));

    s = KEEP(nn_sequential_new_from_objects(2, (nn_object *[]){Sc(1), Sc(2)}));
    od = KEEP(nn_dict_new());
    tu_check(nn_dict_set_str(od, "z", Pl()));
    nn_module *t = KEEP(nn_sequential_new_from_dict(od));
    nn_module *u = KEEP(nn_sequential_add(s, O(t)));
    tu_logf("add %s %s %s", RM(u), B(nn_sequential_getitem(u, 0) == nn_sequential_getitem(s, 0)),
              B(nn_sequential_getitem(u, 2) == nn_sequential_getitem(t, 0)));
    ERR_PTR(nn_sequential_add(s, I(5)));
    ERR_PTR(nn_sequential_add(s, O(KEEP(nn_module_list_new(NULL)))));
    tu_check(nn_sequential_iadd(s, O(t)));
    tu_logf("iadd %s", RM(s));
    nn_module *m = KEEP(nn_sequential_mul(s, I(2)));
    tu_logf("mul %s %s", K(m), B(nn_sequential_getitem(m, 0) == nn_sequential_getitem(m, 3)));
    m = KEEP(nn_sequential_mul(s, I(2)));
    tu_logf("rmul %s", K(m));
    m = KEEP(nn_sequential_mul(s, KEEP(nn_bool_new(true))));
    tu_logf("mul bool %s", K(m));
    ERR_PTR(nn_sequential_mul(s, I(0)));
    ERR_PTR(nn_sequential_mul(s, I(-1)));
    ERR_PTR(nn_sequential_mul(s, KEEP(nn_float_new(1.5))));
    ERR_PTR(nn_sequential_mul(s, nn_none()));
    tu_check(nn_sequential_imul(s, I(2)));
    tu_logf("imul %s %s", K(s), B(nn_sequential_getitem(s, 0) == nn_sequential_getitem(s, 3)));

    nn_module *e = KEEP(nn_sequential_new(0, NULL));
    tu_logf("empty %s %s", RM(e), V(call(e, x)));
    s = KEEP(nn_sequential_new_from_objects(2, (nn_object *[]){Sc(2), Pl()}));
    nn_object *kw = KEEP(nn_dict_new());
    tu_check(nn_dict_set_str(kw, "input", x));
    tu_logf("forward kw %s", V(KEEP(nn_module_call(s, KEEP(nn_tuple_new(0)), kw))));
    call_status(s, 0, NULL, NULL, NULL);
    call_status(s, 2, (nn_object *[]){x, x}, NULL, NULL);
    call_status(s, 1, (nn_object *[]){x}, "foo", I(1));
    call_status(s, 1, (nn_object *[]){x}, "input", x);
    ERR_PTR(nn_sequential_new_from_objects(2, (nn_object *[]){Sc(1), I(5)}));
    const char *bad[] = {"append", "a.b", ""};
    for (int i = 0; i < 3; i++) {
        od = KEEP(nn_dict_new());
        tu_check(nn_dict_set_str(od, bad[i], Pl()));
        ERR_PTR(nn_sequential_new_from_dict(od));
    }
    od = KEEP(nn_dict_new());
    tu_check(nn_dict_set_str(od, "keys", Pl()));
    tu_logf("keys name %s", RM(KEEP(nn_sequential_new_from_dict(od))));
}

/* [m1, m2, ...] as a new pooled list */
static nn_object *list_of(size_t n, nn_object *const *items)
{
    nn_object *l = KEEP(nn_list_new(n));
    for (size_t i = 0; i < n; i++) tu_check(nn_list_append(l, items[i]));
    return l;
}
#define LIST(...) list_of(sizeof((nn_object *[]){__VA_ARGS__}) / sizeof(nn_object *), (nn_object *[]){__VA_ARGS__})

static void play_module_list(nn_object *x)
{
    tu_logf("== modulelist");
    nn_module *ml = KEEP(nn_module_list_new(LIST(Sc(1), Sc(2))));
    tu_logf("repr %s %lld", RM(ml), (long long)nn_container_len(ml));
    tu_check(nn_module_list_append(ml, Sc(3)));
    tu_check(nn_module_list_extend(ml, LIST(Pl())));
    tu_check(nn_module_list_insert(ml, 1, Sc(9)));
    tu_logf("grown %s %s", K(ml), RM(ml));
    ERR_RC(nn_module_list_append(ml, O(KEEP(nn_zeros(1, TU_SHAPE(2), NN_FLOAT32)))));
    ERR_RC(nn_module_list_append(ml, I(5)));
    ERR_RC(nn_module_list_extend(ml, I(5)));
    ERR_RC(nn_module_list_extend(ml, Sc(1)));
    ERR_RC(nn_module_list_extend(ml, LIST(Pl(), I(5))));
    tu_logf("partial %s", K(ml));
    tu_logf("getitem %s %s", R(nn_module_list_getitem(ml, 0)), R(nn_module_list_getitem(ml, -1)));
    ERR_PTR(nn_retain(nn_module_list_getitem(ml, 10)));
    ERR_PTR(nn_container_getitem(ml, S("a")));
    nn_module *sl = KEEP(nn_module_list_getslice(ml, SL(true, 1, true, 4, true, 2)));
    tu_logf("slice %s %s %s", K(sl), RM(sl), RM(KEEP(nn_module_list_getslice(ml, STEP(-2)))));
    tu_logf("iter %s", T(KEEP(nn_container_iter(ml))));
    tu_check(nn_module_list_setitem(ml, 0, Pl()));
    tu_check(nn_module_list_setitem(ml, -1, NULL));
    tu_logf("setitem %s", RM(ml));
    ERR_RC(nn_module_list_setitem(ml, 0, I(3)));
    ERR_RC(nn_module_list_setitem(ml, 10, Pl()));
    tu_check(nn_module_list_delitem(ml, 1));
    tu_logf("del 1 %s %s", K(ml), RM(ml));
    tu_check(nn_module_list_delslice(ml, STEP(2)));
    tu_logf("del ::2 %s", RM(ml));
    ERR_RC(nn_module_list_delitem(ml, 5));
    nn_object *p = KEEP(nn_module_list_pop(ml, 0));
    tu_logf("pop %s %s", R(p), RM(ml));
    nn_module *ml2 = KEEP(nn_module_list_new(LIST(Sc(1), Sc(2), Sc(3))));
    nn_module *q = KEEP(nn_module_list_pop_slice(ml2, RANGE(0, 2)));
    tu_logf("pop slice %s %s", RM(q), RM(ml2));
    ERR_PTR(call(ml2, x));
    tu_logf("add %s %s", RM(KEEP(nn_module_list_add(ml2, LIST(Pl())))),
              RM(KEEP(nn_module_list_add(ml2, O(KEEP(nn_module_list_new(LIST(Sc(4)))))))));
    ERR_PTR(nn_module_list_add(ml2, I(5)));
    tu_check(nn_module_list_extend(ml2, O(KEEP(nn_module_list_new(LIST(Pl()))))));
    tu_logf("iadd %s", RM(ml2));
    nn_module *ml3 = KEEP(nn_module_list_new(LIST(Sc(1), Sc(2), Sc(3))));
    ERR_RC(nn_module_list_insert(ml3, -1, Pl()));
    tu_logf("insert -1 %s %s", K(ml3), T(KEEP(nn_module_dict_values(ml3))));
    nn_module *ml4 = KEEP(nn_module_list_new(LIST(Sc(1))));
    tu_check(nn_module_list_insert(ml4, 5, Pl()));
    tu_logf("insert 5 %s %lld", K(ml4), (long long)nn_container_len(ml4));
    ERR_PTR(nn_retain(nn_module_list_getitem(ml4, 1)));
    ERR_PTR(nn_module_list_new(I(5)));
    ERR_PTR(nn_module_list_new(Sc(1)));
    ERR_PTR(nn_module_list_new(O(KEEP(nn_zeros(0, NULL, NN_FLOAT32)))));
    ERR_PTR(nn_module_list_new(O(KEEP(nn_zeros(1, TU_SHAPE(2), NN_FLOAT32)))));
    tu_logf("empty %s", RM(KEEP(nn_module_list_new(NULL))));
}

/* [('a', 'Scale'), ...] */
static const char *pair_types(nn_object *items)
{
    char *b = next_buf();
    size_t len = (size_t)snprintf(b, 8192, "[");
    for (size_t i = 0; i < nn_list_len(items); i++) {
        nn_object *it = nn_list_get(items, i);
        len += (size_t)snprintf(b + len, 8192 - len, "%s('%s', '%s')", i ? ", " : "", nn_str_cstr(nn_tuple_get(it, 0)),
                                tname(nn_tuple_get(it, 1)));
    }
    snprintf(b + len, 8192 - len, "]");
    return b;
}

static nn_object *pair(nn_object *k, nn_object *v) { return KEEP(nn_tuple_pack(2, k, v)); }

static void play_module_dict(nn_object *x)
{
    tu_logf("== moduledict");
    nn_object *d = KEEP(nn_dict_new());
    tu_check(nn_dict_set_str(d, "b", Sc(2)));
    tu_check(nn_dict_set_str(d, "a", Sc(1)));
    nn_module *md = KEEP(nn_module_dict_new(d));
    tu_logf("repr %s %s", RM(md), K(md));
    tu_check(nn_module_dict_setitem(md, "c", Pl()));
    tu_logf("setitem %s %s", K(md), R(nn_module_dict_getitem(md, "a")));
    ERR_PTR(nn_retain(nn_module_dict_getitem(md, "zz")));
    ERR_PTR(nn_container_getitem(md, I(0)));
    tu_check(nn_module_dict_delitem(md, "b"));
    tu_logf("del %s", K(md));
    ERR_RC(nn_module_dict_delitem(md, "zz"));
    tu_logf("contains %s %s %s", B(nn_module_dict_contains(md, "a")), B(nn_module_dict_contains(md, "zz")),
              B(nn_container_contains(md, I(0)) == 1));
    tu_logf("keys %s %s %s", L(KEEP(nn_module_dict_keys(md))), T(KEEP(nn_module_dict_values(md))),
              pair_types(KEEP(nn_module_dict_items(md))));
    nn_object *pl = KEEP(nn_list_new(0));
    tu_check(nn_list_append(pl, pair(S("d"), Sc(4))));
    tu_check(nn_list_append(pl, LIST(S("a"), Pl())));
    tu_check(nn_module_dict_update(md, pl));
    tu_logf("update pairs %s", RM(md));
    d = KEEP(nn_dict_new());
    tu_check(nn_dict_set_str(d, "e", Pl()));
    tu_check(nn_module_dict_update(md, O(KEEP(nn_module_dict_new(d)))));
    d = KEEP(nn_dict_new());
    tu_check(nn_dict_set_str(d, "g", Pl()));
    tu_check(nn_dict_set_str(d, "f", Pl()));
    tu_check(nn_module_dict_update(md, d));
    tu_logf("update dicts %s", K(md));
    ERR_RC(nn_module_dict_update(md, I(5)));
    ERR_RC(nn_module_dict_update(md, LIST(I(5))));
    ERR_RC(nn_module_dict_update(md, LIST(KEEP(nn_tuple_pack(3, I(1), I(2), I(3))))));
    ERR_RC(nn_module_dict_update(md, LIST(S("ab"))));
    ERR_RC(nn_module_dict_setitem(md, "keys", Pl()));
    ERR_RC(nn_module_dict_setitem(md, "x.y", Pl()));
    ERR_RC(nn_module_dict_setitem(md, "", Pl()));
    ERR_RC(nn_module_dict_setitem(md, "q", I(5)));
    ERR_RC(nn_container_setitem(md, I(1), Pl()));
    nn_object *p = KEEP(nn_module_dict_pop(md, "a"));
    tu_logf("pop %s %s", R(p), K(md));
    ERR_PTR(nn_module_dict_pop(md, "zz"));
    tu_logf("len iter %lld %s", (long long)nn_container_len(md), L(KEEP(nn_container_iter(md))));
    ERR_PTR(call(md, x));
    nn_module_dict_clear(md);
    tu_logf("clear %s %lld", RM(md), (long long)nn_container_len(md));
}

static nn_object *tensor1(double v) { return O(KEEP(nn_full(1, TU_SHAPE(1), v, NN_FLOAT32))); }

static void play_parameter_list(nn_object *x)
{
    tu_logf("== parameterlist");
    nn_tensor *ones3 = KEEP(nn_ones(1, TU_SHAPE(3), NN_FLOAT32));
    nn_module *pl = KEEP(nn_parameter_list_new(
        LIST(O(KEEP(nn_zeros(2, TU_SHAPE(2, 3), NN_FLOAT32))), O(KEEP(nn_parameter_new(ones3, true))))));
    tu_logf("repr %s %lld", RM(pl), (long long)nn_container_len(pl));
    tu_check(nn_parameter_list_append(pl, O(KEEP(nn_ones(1, TU_SHAPE(3), NN_FLOAT64)))));
    tu_check(nn_parameter_list_append(pl, I(5)));
    tu_check(nn_parameter_list_append(pl, Pl()));
    tu_check(nn_parameter_list_append(pl, O(KEEP(nn_scalar(1, NN_FLOAT32)))));
    tu_check(nn_parameter_list_append(pl, NULL));
    tu_logf("mixed %s %lld", RM(pl), (long long)nn_container_len(pl));
    tu_logf("dicts %s %s", L(pl->parameters), K(pl));
    nn_object *p0 = nn_parameter_list_getitem(pl, 0);
    tu_logf("items %s %s %s %s", tname(p0), B(NN_TENSOR(p0)->requires_grad), R(nn_parameter_list_getitem(pl, 3)),
              R(nn_parameter_list_getitem(pl, -1)));
    ERR_PTR(nn_retain(nn_parameter_list_getitem(pl, 10)));
    ERR_PTR(nn_container_getitem(pl, S("a")));
    nn_tensor *q = KEEP(nn_parameter_new(KEEP(nn_zeros(1, TU_SHAPE(1), NN_FLOAT32)), true));
    tu_check(nn_parameter_list_setitem(pl, 1, O(q)));
    tu_check(nn_parameter_list_setitem(pl, 0, tensor1(1)));
    tu_logf("setitem %s %s", B(nn_parameter_list_getitem(pl, 1) == O(q)), RM(pl));
    ERR_RC(nn_parameter_list_setitem(pl, 10, O(q)));
    nn_module *pl2 = KEEP(nn_parameter_list_getslice(pl, RANGE(1, 3)));
    tu_logf("slice %s %s %lld", RM(pl2), B(nn_parameter_list_getitem(pl2, 0) == O(q)), (long long)nn_container_len(pl2));
    tu_logf("iter %s", T(KEEP(nn_container_iter(pl))));
    ERR_RC(nn_parameter_list_append(pl, O(KEEP(nn_zeros(1, TU_SHAPE(2), NN_INT64)))));
    tu_logf("failed append %lld", (long long)nn_container_len(pl));
    ERR_PTR(nn_retain(nn_parameter_list_getitem(pl, nn_container_len(pl) - 1)));
    ERR_PTR(call(pl, x));
    ERR_PTR(nn_parameter_list_new(O(KEEP(nn_zeros(1, TU_SHAPE(2), NN_FLOAT32)))));
    ERR_PTR(nn_parameter_list_new(I(5)));
    nn_module *one = KEEP(nn_parameter_list_new(LIST(O(KEEP(nn_zeros(1, TU_SHAPE(2), NN_FLOAT32))))));
    tu_logf("one %s", RM(one));
    tu_logf("scalar %s", RM(KEEP(nn_parameter_list_new(LIST(O(KEEP(nn_scalar(2, NN_FLOAT32))))))));
    tu_logf("empty %s", RM(KEEP(nn_parameter_list_new(NULL))));
    nn_object *sd = KEEP(nn_module_state_dict(one, "", false));
    tu_logf("named %s %s", L(KEEP(nn_module_named_parameters(one, "", true, true))), L(sd));
}

static void play_parameter_dict(nn_object *x)
{
    tu_logf("== parameterdict");
    nn_object *d = KEEP(nn_dict_new());
    tu_check(nn_dict_set_str(d, "b", O(KEEP(nn_zeros(1, TU_SHAPE(2), NN_FLOAT32)))));
    tu_check(nn_dict_set_str(d, "a", O(KEEP(nn_parameter_new(KEEP(nn_ones(2, TU_SHAPE(3, 2), NN_FLOAT64)), true)))));
    nn_module *pd = KEEP(nn_parameter_dict_new(d, false));
    tu_logf("repr %s %s", RM(pd), L(KEEP(nn_parameter_dict_keys(pd))));
    tu_check(nn_parameter_dict_setitem(pd, "x", I(5)));
    tu_check(nn_parameter_dict_setitem(pd, "m", Pl()));
    tu_logf("mixed %s %lld", RM(pd), (long long)nn_container_len(pd));
    ERR_PTR(nn_retain(nn_parameter_dict_getitem(pd, "zz")));
    ERR_PTR(nn_container_getitem(pd, I(0)));
    ERR_RC(nn_parameter_dict_delitem(pd, "zz"));
    tu_logf("contains %s %s", B(nn_parameter_dict_contains(pd, "a")), B(nn_parameter_dict_contains(pd, "zz")));
    tu_logf("get %s %s %s", R(KEEP(nn_parameter_dict_get(pd, "zz", NULL))), R(KEEP(nn_parameter_dict_get(pd, "zz", I(3)))),
              tname(KEEP(nn_parameter_dict_get(pd, "a", NULL))));
    nn_object *sd = KEEP(nn_parameter_dict_setdefault(pd, "q", O(KEEP(nn_zeros(1, TU_SHAPE(2), NN_FLOAT32)))));
    tu_logf("setdefault %s %s", tname(sd), B(NN_TENSOR(sd)->requires_grad));
    KEEP(nn_parameter_dict_setdefault(pd, "r", NULL));
    tu_logf("setdefault None %s %s", L(KEEP(nn_parameter_dict_keys(pd))), L(pd->parameters));
    nn_object *p = KEEP(nn_parameter_dict_pop(pd, "b"));
    tu_logf("pop %s %s", tname(p), L(KEEP(nn_parameter_dict_keys(pd))));
    ERR_PTR(nn_parameter_dict_pop(pd, "zz"));
    nn_object *kv = KEEP(nn_parameter_dict_popitem(pd));
    tu_logf("popitem %s %s %s", nn_str_cstr(nn_tuple_get(kv, 0)), tname(nn_tuple_get(kv, 1)), L(KEEP(nn_parameter_dict_keys(pd))));
    nn_module *cp = KEEP(nn_parameter_dict_copy(pd));
    tu_logf("copy %s %s", RM(cp), B(nn_parameter_dict_getitem(cp, "a") == nn_parameter_dict_getitem(pd, "a")));
    tu_check(nn_parameter_dict_update(pd, LIST(pair(S("z"), tensor1(1)), pair(S("y"), tensor1(1))), false));
    d = KEEP(nn_dict_new());
    tu_check(nn_dict_set_str(d, "w", tensor1(1)));
    tu_check(nn_dict_set_str(d, "v", tensor1(1)));
    tu_check(nn_parameter_dict_update(pd, d, true));
    d = KEEP(nn_dict_new());
    tu_check(nn_dict_set_str(d, "u2", tensor1(1)));
    tu_check(nn_dict_set_str(d, "u1", tensor1(1)));
    tu_check(nn_parameter_dict_update(pd, d, false));
    d = KEEP(nn_dict_new());
    tu_check(nn_dict_set_str(d, "t2", tensor1(1)));
    tu_check(nn_dict_set_str(d, "t1", tensor1(1)));
    tu_check(nn_parameter_dict_update(pd, O(KEEP(nn_parameter_dict_new(d, true))), false));
    tu_logf("update %s", L(KEEP(nn_parameter_dict_keys(pd))));
    ERR_RC(nn_parameter_dict_update(pd, I(5), false));
    ERR_RC(nn_parameter_dict_update(pd, LIST(I(5)), false));
    ERR_RC(nn_parameter_dict_update(pd, LIST(KEEP(nn_tuple_pack(3, I(1), I(2), I(3)))), false));
    d = KEEP(nn_dict_new());
    tu_check(nn_dict_set_str(d, "new", tensor1(1)));
    nn_module *u = KEEP(nn_parameter_dict_or(pd, KEEP(nn_parameter_dict_new(d, false))));
    tu_logf("or %s", L(KEEP(nn_parameter_dict_keys(u))));
    nn_module *fk = KEEP(nn_parameter_dict_fromkeys(LIST(S("k2"), S("k1")), tensor1(0)));
    tu_logf("fromkeys %s %s %s %s", L(KEEP(nn_parameter_dict_keys(fk))),
              B(nn_parameter_dict_getitem(fk, "k1") == nn_parameter_dict_getitem(fk, "k2")),
              tname(nn_parameter_dict_getitem(fk, "k1")), RM(KEEP(nn_parameter_dict_fromkeys(S("ab"), NULL))));
    tu_logf("values items %s %s", T(KEEP(nn_parameter_dict_values(pd))), L(KEEP(nn_parameter_dict_items(pd))));
    tu_logf("named %s %s", L(KEEP(nn_module_named_parameters(pd, "", true, true))), L(KEEP(nn_module_state_dict(pd, "", false))));
    call_status(pd, 0, NULL, NULL, NULL);
    call_status(pd, 1, (nn_object *[]){I(1)}, NULL, NULL);
    call_status(pd, 2, (nn_object *[]){I(1), I(2)}, NULL, NULL);
    tu_check(nn_parameter_dict_clear(pd));
    tu_logf("clear %s %lld", RM(pd), (long long)nn_container_len(pd));
    ERR_PTR(nn_parameter_dict_popitem(pd));
    nn_module *odd = KEEP(nn_parameter_dict_new(NULL, false));
    ERR_RC(nn_parameter_dict_setitem(odd, "keys", tensor1(0)));
    ERR_RC(nn_container_setitem(odd, I(1), tensor1(0)));
    tu_logf("odd %lld %s", (long long)nn_container_len(odd), L(odd->parameters));
    tu_logf("empty %s", RM(KEEP(nn_parameter_dict_new(NULL, false))));
    (void)x;
}

static nn_object *od_of(size_t n, const char *const *keys, nn_object *const *values)
{
    nn_object *d = KEEP(nn_dict_new());
    for (size_t i = 0; i < n; i++) tu_check(nn_dict_set_str(d, keys[i], values[i]));
    return d;
}

static void play_nested(nn_object *x)
{
    tu_logf("== nested");
    nn_object *plist = O(KEEP(nn_parameter_list_new(
        LIST(O(KEEP(nn_zeros(1, TU_SHAPE(2), NN_FLOAT32))), O(KEEP(nn_ones(1, TU_SHAPE(1), NN_FLOAT32)))))));
    nn_object *pdict = O(KEEP(nn_parameter_dict_new(od_of(1, (const char *[]){"w"}, (nn_object *[]){tensor1(1)}), false)));
    nn_object *feat = O(KEEP(nn_sequential_new_from_objects(2, (nn_object *[]){Sc(1), Sc(2)})));
    nn_module *net = KEEP(nn_sequential_new_from_dict(od_of(
        5, (const char *[]){"feat", "heads", "table", "plist", "pdict"},
        (nn_object *[]){feat, O(KEEP(nn_module_list_new(LIST(Sc(3), Pl())))),
                        O(KEEP(nn_module_dict_new(od_of(1, (const char *[]){"p"}, (nn_object *[]){Sc(4)})))), plist, pdict})));
    tu_logf("repr %s", RM(net));
    tu_logf("named_parameters %s", L(KEEP(nn_module_named_parameters(net, "", true, true))));
    tu_logf("state_dict %s", L(KEEP(nn_module_state_dict(net, "", false))));
    tu_logf("named_modules %s", L(KEEP(nn_module_named_modules(net, "", true))));
    tu_logf("feat forward %s", V(call(NN_MODULE(feat), x)));
    nn_object *shared = Sc(7);
    nn_module *s = KEEP(nn_sequential_new_from_objects(2, (nn_object *[]){shared, shared}));
    tu_logf("shared %s %s %s", L(KEEP(nn_module_named_modules(s, "", true))),
              L(KEEP(nn_module_named_parameters(s, "", true, true))), L(KEEP(nn_module_state_dict(s, "", false))));
    tu_logf("shared forward %s", V(call(s, x)));
}

static void play_protocol(void)
{
    tu_logf("== protocol");
    nn_module *sc = KEEP(scale_new(1));
    status(nn_container_len(sc) < 0);
    ERR_PTR(nn_container_getitem(sc, I(0)));
    ERR_RC(nn_container_setitem(sc, I(0), I(1)));
    ERR_RC(nn_container_delitem(sc, I(0)));
    status(nn_container_contains(sc, I(1)) < 0);
    ERR_PTR(nn_container_iter(sc));
    nn_object *a = Sc(1);
    nn_module *s = KEEP(nn_sequential_new_from_objects(2, (nn_object *[]){a, Pl()}));
    nn_module *ml = KEEP(nn_module_list_new(LIST(a)));
    nn_module *md = KEEP(nn_module_dict_new(od_of(1, (const char *[]){"a"}, (nn_object *[]){a})));
    nn_module *pl = KEEP(nn_parameter_list_new(LIST(O(KEEP(nn_zeros(1, TU_SHAPE(1), NN_FLOAT32))), I(5))));
    nn_module *pd = KEEP(nn_parameter_dict_new(od_of(1, (const char *[]){"w"}, (nn_object *[]){tensor1(0)}), false));
    tu_logf("contains %s %s %s %s %s %s %s %s %s", B(nn_container_contains(s, a) == 1), B(nn_container_contains(s, Sc(1)) == 1),
              B(nn_container_contains(ml, a) == 1), B(nn_container_contains(md, S("a")) == 1),
              B(nn_container_contains(md, I(0)) == 1), B(nn_container_contains(pl, I(5)) == 1),
              B(nn_container_contains(pl, I(6)) == 1), B(nn_container_contains(pd, S("w")) == 1),
              B(nn_container_contains(pd, I(0)) == 1));
    status(nn_container_contains(md, KEEP(nn_list_new(0))) < 0);
    ERR_RC(nn_container_delitem(pl, I(0)));
    ERR_RC(nn_container_delitem(md, I(0)));
    ERR_RC(nn_container_delitem(pd, I(0)));
    ERR_RC(nn_container_setitem(s, S("a"), Pl()));
    ERR_PTR(nn_container_getitem(md, KEEP(nn_list_new(0))));
    tu_logf("getitem %s %s %s %s", R(KEEP(nn_container_getitem(s, KEEP(nn_bool_new(true))))), R(KEEP(nn_container_getitem(md, S("a")))),
              tname(KEEP(nn_container_getitem(pl, I(1)))), tname(KEEP(nn_container_getitem(pd, S("w")))));
    tu_check(nn_container_setitem(md, S("b"), Pl()));
    tu_check(nn_container_setitem(pl, I(1), I(6)));
    tu_logf("setitem %s %s", K(md), R(KEEP(nn_container_getitem(pl, I(1)))));
    tu_check(nn_container_delitem(s, I(0)));
    tu_check(nn_container_delitem(md, S("a")));
    tu_logf("delitem %s %s", RM(s), K(md));

    /* slices: the indices PyTorch's containers use, against Python's list slicing */
    const int64_t NONE = INT64_MIN;
    const int64_t ns[] = {0, 5}, starts[] = {NONE, -7, -1, 0, 2, 9}, stops[] = {NONE, -2, 0, 3, 9}, steps[] = {NONE, 1, 2, -1, -3};
    for (int a1 = 0; a1 < 2; a1++)
        for (int a2 = 0; a2 < 6; a2++)
            for (int a3 = 0; a3 < 5; a3++)
                for (int a4 = 0; a4 < 5; a4++) {
                    int64_t n = ns[a1], st = starts[a2], sp = stops[a3], sg = steps[a4];
                    nn_slice_spec sl = {st, sp, sg, st != NONE, sp != NONE, sg != NONE};
                    int64_t start, step, count;
                    tu_check(nn_slice_spec_indices(&sl, n, &start, &step, &count));
                    char num[3][24], out[256];
                    int64_t v[3] = {st, sp, sg};
                    for (int k = 0; k < 3; k++)
                        if (v[k] == NONE) snprintf(num[k], sizeof num[k], "None");
                        else snprintf(num[k], sizeof num[k], "%lld", (long long)v[k]);
                    size_t len = (size_t)snprintf(out, sizeof out, "[");
                    for (int64_t i = 0; i < count; i++)
                        len += (size_t)snprintf(out + len, sizeof out - len, "%s%lld", i ? ", " : "", (long long)(start + i * step));
                    snprintf(out + len, sizeof out - len, "]");
                    tu_logf("slice %lld %s %s %s %s", (long long)n, num[0], num[1], num[2], out);
                }
}

static void test_transcript_matches_pytorch(void **state)
{
    (void)state;
    tu_transcript_reset();
    nn_object *x = O(KEEP(tu_tensor(NN_FLOAT32, 1, TU_SHAPE(2), TU_VALUES(1, -2))));
    play_sequential(x);
    play_module_list(x);
    play_module_dict(x);
    play_parameter_list(x);
    play_parameter_dict(x);
    play_nested(x);
    play_protocol();
    release_pool();
    tu_transcript_compare("fixtures/containers.txt", 0);
}

/* ------------------------------------------------ what the transcript leaves out */

static void test_checks_pytorch_skips(void **state)
{
    (void)state;
    nn_module *s = KEEP(nn_sequential_new_from_objects(1, (nn_object *[]){Pl()}));
    /* PyTorch: AssertionError (core has no such kind) */
    assert_int_equal(nn_sequential_insert(s, 0, I(5)), -1);
    tu_assert_error(NN_ERR_TYPE, "module should be of type: <class 'torch.nn.modules.module.Module'>");
    assert_int_equal(nn_sequential_insert(s, 0, NULL), -1);
    tu_assert_error(NN_ERR_TYPE, "module should be of type");
    /* PyTorch stores any object; core's traversal needs modules */
    nn_module *ml = KEEP(nn_module_list_new(NULL));
    assert_int_equal(nn_module_list_insert(ml, 0, I(5)), -1);
    tu_assert_error(NN_ERR_TYPE, "int is not a Module subclass");
    tu_check(nn_module_list_insert(ml, 0, NULL));
    assert_true(nn_is_none(nn_module_list_getitem(ml, 0)));
    /* nn_sequential_new with NULL entries registers None */
    nn_module *n = KEEP(nn_sequential_new(2, (nn_module *[]){NULL, NN_MODULE(Pl())}));
    assert_string_equal(RM(n), "Sequential(\\n  (0): None\\n  (1): Plain()\\n)");
    /* from_dict: non-str keys and non-dicts */
    nn_object *d = KEEP(nn_dict_new());
    tu_check(nn_dict_set(d, I(1), Pl()));
    assert_null(nn_sequential_new_from_dict(d));
    tu_assert_error(NN_ERR_TYPE, "module name should be a string. Got int");
    assert_null(nn_sequential_new_from_dict(I(3)));
    tu_assert_error(NN_ERR_TYPE, "int is not a Module subclass");
    release_pool();
}

/* A class written in the language deriving from Sequential: the functions take
   it, and a slice keeps its class (self.__class__). */
static void test_subclass(void **state)
{
    (void)state;
    /* core's call path reads the class's own forward slot: a subclass copies its base's */
    static nn_module_class my_seq = {.name = "MySeq", .base = &nn_sequential_class};
    my_seq.forward = nn_sequential_class.forward;
    static const nn_module_class my_plist = {.name = "MyList", .base = &nn_parameter_list_class};
    nn_module *m = KEEP(nn_module_new(&my_seq));
    assert_true(nn_module_is_a(O(m), &nn_sequential_class));
    assert_false(nn_module_is_a(O(m), &nn_module_list_class));
    assert_false(nn_module_is_a(I(1), &nn_sequential_class));
    tu_check(nn_sequential_append(m, Sc(2)));
    tu_check(nn_sequential_append(m, Pl()));
    nn_module *sl = KEEP(nn_sequential_getslice(m, FROM(1)));
    assert_string_equal(nn_module_name(sl), "MySeq");
    assert_string_equal(RM(sl), "MySeq(\\n  (1): Plain()\\n)");
    nn_object *x = O(KEEP(tu_tensor(NN_FLOAT32, 1, TU_SHAPE(2), TU_VALUES(1, -2))));
    tu_assert_values(NN_TENSOR(call(m, x)), 1, TU_SHAPE(2), TU_VALUES(3, -3), 0);
    /* the class name in messages is the subclass's */
    assert_null(nn_sequential_mul(m, I(0)));
    tu_assert_error(NN_ERR_VALUE, "Non-positive multiplication factor 0 for <class '__main__.MySeq'>");
    /* a ParameterList subclass that did not run ParameterList's __init__ */
    nn_module *pl = KEEP(nn_module_new(&my_plist));
    assert_int_equal(nn_container_len(pl), 0);
    tu_check(nn_parameter_list_append(pl, tensor1(1)));
    assert_int_equal(nn_container_len(pl), 1);
    assert_true(nn_is_parameter(nn_parameter_list_getitem(pl, 0)));
    assert_true(nn_module_is_a(O(KEEP(nn_parameter_list_getslice(pl, ALL))), &my_plist));
    /* a method name of the base class is refused for a parameter */
    nn_module *pd = KEEP(nn_parameter_dict_new(NULL, true));
    assert_int_equal(nn_parameter_dict_setitem(pd, "update", tensor1(1)), -1);
    tu_assert_error(NN_ERR_KEY, "attribute 'update' already exists");
    release_pool();
}


#define TRY(expr) do { if (!(expr)) goto out; } while (0)
#define TRY_RC(expr) do { if ((expr) < 0) goto out; } while (0)

/* Every container operation that allocates, each allocation allowed to fail. */
static int workload(void)
{
    int rc = -1;
    nn_module *a = NULL, *b = NULL, *s = NULL, *sl = NULL, *ml = NULL, *md = NULL, *pl = NULL, *pd = NULL, *cp = NULL,
              *ff = NULL;
    nn_object *x = NULL, *y = NULL, *args = NULL, *d = NULL, *lst = NULL, *item = NULL, *t = NULL;
    char *r = NULL;
    TRY(a = nn_module_new(&plain_class));
    TRY(b = nn_module_new(&plain_class));
    TRY(s = nn_sequential_new(2, (nn_module *[]){a, b}));
    TRY_RC(nn_sequential_append(s, O(a)));
    TRY_RC(nn_sequential_insert(s, 1, O(b)));
    TRY(sl = nn_sequential_getslice(s, STEP(-1)));
    TRY_RC(nn_sequential_delitem(s, 0));
    TRY_RC(nn_sequential_delslice(s, STEP(2)));
    TRY(r = nn_repr(O(sl)));
    TRY(x = (nn_object *)nn_ones(1, TU_SHAPE(2), NN_FLOAT32));
    TRY(args = nn_tuple_pack(1, x));
    TRY(y = nn_module_call(sl, args, NULL));
    TRY(lst = nn_container_iter(sl));
    TRY(ml = nn_module_list_new(lst));
    TRY_RC(nn_module_list_delitem(ml, 1));
    TRY(d = nn_dict_new());
    TRY_RC(nn_dict_set_str(d, "p", O(a)));
    TRY(md = nn_module_dict_new(d));
    TRY(item = nn_module_dict_pop(md, "p"));
    TRY(t = (nn_object *)nn_zeros(1, TU_SHAPE(2), NN_FLOAT32));
    TRY_RC(nn_dict_set_str(d, "w", t));
    TRY_RC(nn_dict_set_str(d, "v", t));
    TRY(pl = nn_parameter_list_new(NULL));
    TRY_RC(nn_parameter_list_append(pl, t));
    TRY_RC(nn_parameter_list_append(pl, O(a)));
    nn_free(r);
    TRY(r = nn_repr(O(pl)));
    TRY(pd = nn_parameter_dict_new(d, false));
    TRY(cp = nn_parameter_dict_copy(pd));
    nn_free(r);
    TRY(r = nn_repr(O(cp)));
    TRY_RC(nn_parameter_dict_clear(cp));
    NN_RELEASE(y);
    y = NULL;
    TRY(ff = nn_feed_forward_new(2, 3, &(nn_feed_forward_options){.dropout = 0.5, .is_gated = true, .bias1 = true}));
    TRY(y = nn_module_call(ff, args, NULL));
    rc = 0;
out:
    nn_free(r);
    NN_RELEASE(a); NN_RELEASE(b); NN_RELEASE(s); NN_RELEASE(sl); NN_RELEASE(ml); NN_RELEASE(md); NN_RELEASE(pl);
    NN_RELEASE(pd); NN_RELEASE(cp); NN_RELEASE(ff); NN_RELEASE(x); NN_RELEASE(y); NN_RELEASE(args); NN_RELEASE(d); NN_RELEASE(lst);
    NN_RELEASE(item); NN_RELEASE(t);
    return rc;
}

static void test_failing_allocations_report_memory_error(void **state)
{
    (void)state;
    nn_alloc_fn old_fn;
    void *old_ud;
    nn_get_allocator(&old_fn, &old_ud);
    NN_RELEASE(TU_OK(nn_feed_forward_new(2, 3, NULL))); /* makes the shared default ReLU first */
    nn_set_allocator(tu_failing_alloc, NULL);
    tu_fail_at = -1;
    tu_alloc_count = 0;
    int rc = workload();
    long total = tu_alloc_count;
    for (tu_fail_at = 1; rc == 0 && tu_fail_at <= total; tu_fail_at++) {
        tu_alloc_count = 0;
        nn_error_clear();
        if (workload() != -1 || nn_error_current() != NN_ERR_MEMORY) {
            rc = -1;
            break;
        }
    }
    nn_set_allocator(old_fn, old_ud);
    if (rc) fail_msg("allocation %ld of %ld: %s %s", tu_fail_at, total, nn_error_kind_name(nn_error_current()), nn_error_message());
    assert_true(total > 50);
    nn_error_clear();
}

/* ------------------------------------------------- seeded layers and FeedForward */

static void VV(const char *label, nn_tensor *t)
{
    if (!t) fail_msg("%s: no tensor", label);
    int64_t n = nn_numel(t);
    double *v = malloc(sizeof(double) * (size_t)(n ? n : 1));
    nn_to_doubles(t, v);
    char *b = malloc((size_t)n * 24 + 64);
    size_t len = (size_t)sprintf(b, "[");
    for (int64_t i = 0; i < n; i++) len += (size_t)sprintf(b + len, "%s%.9g", i ? " " : "", v[i]);
    sprintf(b + len, "]");
    tu_logf("values %s %s", label, b);
    free(b);
    free(v);
}

static void grads(const char *label, nn_module *m)
{
    nn_object *ps = KEEP(nn_module_named_parameters(m, "", true, true));
    for (size_t i = 0; i < nn_list_len(ps); i++) {
        char name[128];
        nn_object *pair = nn_list_get(ps, i);
        snprintf(name, sizeof name, "%s grad %s", label, nn_str_cstr(nn_tuple_get(pair, 0)));
        VV(name, NN_TENSOR(nn_tuple_get(pair, 1))->grad);
    }
}

static void backward_sum(nn_tensor *y)
{
    nn_tensor *s = KEEP(nn_sum(y, 0, NULL, false));
    tu_check(nn_backward(s, NULL, false, false));
}

static void seed(uint64_t s) { nn_generator_seed(nn_default_generator(), s); }

static nn_module *ff_new(int64_t d_model, int64_t d_ff, bool gated)
{
    nn_feed_forward_options o;
    nn_feed_forward_options_default(&o);
    o.is_gated = gated;
    return KEEP(nn_feed_forward_new(d_model, d_ff, &o));
}

static void test_feed_forward_matches_pytorch(void **state)
{
    (void)state;
    tu_transcript_reset();
    tu_logf("== seeded sequential");
    seed(0);
    nn_module *seq = KEEP(nn_sequential_new(3, (nn_module *[]){KEEP(nn_linear_new(3, 4, true, NN_FLOAT32)),
                                                                 KEEP(nn_relu_new(false)),
                                                                 KEEP(nn_linear_new(4, 2, true, NN_FLOAT32))}));
    nn_tensor *x = KEEP(nn_randn(2, TU_SHAPE(5, 3), NN_FLOAT32));
    tu_logf("repr %s", RM(seq));
    tu_logf("state_dict %s", L(KEEP(nn_module_state_dict(seq, "", false))));
    nn_object *ps = KEEP(nn_module_named_parameters(seq, "", true, true));
    for (size_t i = 0; i < nn_list_len(ps); i++) {
        char name[64];
        snprintf(name, sizeof name, "param %s", nn_str_cstr(nn_tuple_get(nn_list_get(ps, i), 0)));
        VV(name, NN_TENSOR(nn_tuple_get(nn_list_get(ps, i), 1)));
    }
    nn_tensor *y = NN_TENSOR(call(seq, O(x)));
    VV("forward", y);
    backward_sum(y);
    grads("seq", seq);
    nn_module *tail = KEEP(nn_sequential_getslice(seq, FROM(1)));
    tu_logf("slice %s", RM(tail));
    VV("slice forward", NN_TENSOR(call(tail, O(KEEP(nn_ones(2, TU_SHAPE(2, 4), NN_FLOAT32))))));

    tu_logf("== feedforward");
    seed(1);
    nn_module *ff = ff_new(4, 8, false);
    tu_logf("repr %s", RM(ff));
    tu_logf("state_dict %s", L(KEEP(nn_module_state_dict(ff, "", false))));
    tu_logf("named_modules %s", L(KEEP(nn_module_named_modules(ff, "", true))));
    x = KEEP(nn_randn(3, TU_SHAPE(2, 3, 4), NN_FLOAT32));
    tu_check(nn_set_requires_grad(x, true));
    tu_check(nn_module_train(ff, false));
    y = NN_TENSOR(call(ff, O(x)));
    VV("eval forward", y);
    backward_sum(KEEP(nn_mul(y, y)));
    grads("eval", ff);
    VV("eval grad x", x->grad);
    tu_check(nn_module_train(ff, true));
    tu_check(nn_module_zero_grad(ff, false));
    seed(5);
    y = NN_TENSOR(call(ff, O(x)));
    VV("train forward", y);
    backward_sum(y);
    VV("train grad layer1.weight", NN_TENSOR(nn_module_get_parameter(ff, "layer1.weight"))->grad);

    tu_logf("== gated");
    seed(2);
    nn_feed_forward_options o;
    nn_feed_forward_options_default(&o);
    o.dropout = 0.0;
    o.activation = O(KEEP(nn_gelu_new("none")));
    o.is_gated = true;
    o.bias1 = false;
    o.bias_gate = false;
    nn_module *gf = KEEP(nn_feed_forward_new(4, 6, &o));
    tu_logf("repr %s", RM(gf));
    tu_logf("state_dict %s", L(KEEP(nn_module_state_dict(gf, "", false))));
    x = KEEP(nn_randn(2, TU_SHAPE(3, 4), NN_FLOAT32));
    y = NN_TENSOR(call(gf, O(x)));
    VV("forward", y);
    backward_sum(y);
    grads("gated", gf);

    tu_logf("== stacked");
    seed(3);
    nn_module *f0 = ff_new(4, 8, false), *f1 = ff_new(4, 8, true);
    nn_module *stack = KEEP(nn_sequential_new(2, (nn_module *[]){f0, f1}));
    tu_logf("repr %s", RM(stack));
    tu_logf("named_modules %s", L(KEEP(nn_module_named_modules(stack, "", true))));
    tu_logf("state_dict %s", L(KEEP(nn_module_state_dict(stack, "", false))));
    tu_logf("shared activation %s", B(nn_module_getattr(f0, "activation") == nn_module_getattr(f1, "activation")));
    tu_check(nn_module_train(stack, false));
    x = KEEP(nn_randn(2, TU_SHAPE(2, 4), NN_FLOAT32));
    VV("forward", NN_TENSOR(call(stack, O(x))));
    release_pool();
    tu_transcript_compare("fixtures/containers_ff.txt", 1e-5);
}

/* FeedForward's own checks: arguments, a callable activation, a replaced child. */
static void test_feed_forward_details(void **state)
{
    (void)state;
    nn_module *ff = ff_new(2, 3, false);
    nn_object *x = O(KEEP(nn_ones(1, TU_SHAPE(2), NN_FLOAT32)));
    tu_transcript_reset();
    call_status(ff, 0, NULL, NULL, NULL);
    assert_string_equal(tu_transcript(), "TypeError FeedForward.forward() missing 1 required positional argument: 'x'\n");
    tu_transcript_reset();
    /* forward(x=...) binds by keyword */
    nn_object *kw = KEEP(nn_dict_new());
    tu_check(nn_dict_set_str(kw, "x", x));
    KEEP(TU_OK(nn_module_call(ff, KEEP(nn_tuple_new(0)), kw)));
    /* replacing the activation by any module takes effect at the next call */
    tu_check(nn_module_train(ff, false));
    tu_check(nn_module_setattr(ff, "activation", Pl()));
    nn_tensor *w1 = NN_TENSOR(nn_module_get_parameter(ff, "layer1.weight"));
    nn_tensor *b1 = NN_TENSOR(nn_module_get_parameter(ff, "layer1.bias"));
    nn_tensor *w2 = NN_TENSOR(nn_module_get_parameter(ff, "layer2.weight"));
    nn_tensor *b2 = NN_TENSOR(nn_module_get_parameter(ff, "layer2.bias"));
    nn_tensor *h = KEEP(nn_add_scalar(KEEP(nn_linear(NN_TENSOR(x), w1, b1)), 1));
    nn_tensor *want = KEEP(nn_linear(h, w2, b2));
    double wv[2];
    nn_to_doubles(want, wv);
    tu_assert_values(NN_TENSOR(call(ff, x)), 1, TU_SHAPE(2), wv, 1e-6);
    /* a bad dropout probability is Dropout's ValueError */
    nn_feed_forward_options o;
    nn_feed_forward_options_default(&o);
    o.dropout = 1.5;
    assert_null(nn_feed_forward_new(2, 3, &o));
    tu_assert_error(NN_ERR_VALUE, "dropout probability has to be between 0 and 1, but got 1.5");
    /* NULL options are the defaults: not gated, dropout 0.1 */
    nn_module *d = KEEP(nn_feed_forward_new(2, 3, NULL));
    assert_false(nn_is_true(nn_module_getattr(d, "is_gated")));
    assert_string_equal(R(nn_module_getattr(d, "dropout")), "Dropout(p=0.1, inplace=False)");
    release_pool();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_transcript_matches_pytorch),
        cmocka_unit_test(test_checks_pytorch_skips),
        cmocka_unit_test(test_subclass),
        cmocka_unit_test(test_failing_allocations_report_memory_error),
        cmocka_unit_test(test_feed_forward_matches_pytorch),
        cmocka_unit_test(test_feed_forward_details),
    };
    return cmocka_run_group_tests_name("containers", tests, NULL, NULL);
}
