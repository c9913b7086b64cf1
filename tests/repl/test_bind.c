/*
 * test_bind.c — the bindings (repl/bind_*.c) called from C the way the evaluator
 * calls them (ops->import_module, ops->getattr, nn_call with an args tuple and a
 * kwargs dict, ops->binary/getitem/...), against PyTorch 1.13's reprs and error
 * messages in fixtures/bind.txt (tests/fixtures/gen_bind.py), plus failing allocations.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repl/bind.h"

/* ------------------------------------------------------------ fixture */

static char *fixture;

static const char *expected(const char *name, char *buf, size_t cap)
{
    if (!fixture) fixture = tu_read_file("fixtures/bind.txt");
    char key[128];
    snprintf(key, sizeof key, "@@ %s\n", name);
    const char *p = strstr(fixture, key);
    if (!p) fail_msg("no fixture record %s", name);
    p += strlen(key);
    const char *e = strstr(p, "\n@@ ");
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n && p[n - 1] == '\n' && !e) n--;
    if (n >= cap) n = cap - 1;
    memcpy(buf, p, n);
    buf[n] = 0;
    return buf;
}

static void check(const char *name, const char *got)
{
    char buf[8192];
    const char *want = expected(name, buf, sizeof buf);
    if (strcmp(want, got)) fail_msg("%s:\n--- want\n%s\n--- got\n%s", name, want, got);
}

/* ------------------------------------------------------------ object pool */

static nn_object *pool[8192];
static char *reprs[1024]; /* R()'s strings */
static int nreprs;
static int npool;
static const repl_native_ops *ops;

static nn_object *O(nn_object *o)
{
    if (!o) fail_msg("unexpected error: %s: %s", nn_error_kind_name(nn_error_current()), nn_error_message());
    assert_true(npool < 8192);
    pool[npool++] = o;
    return o;
}

static int setup(void **state)
{
    (void)state;
    repl_bindings_install();
    ops = repl_get_native_ops();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    while (npool) nn_release(pool[--npool]);
    while (nreprs) nn_free(reprs[--nreprs]);
    repl_bindings_shutdown();
    nn_set_grad_enabled(true);
    return 0;
}

static nn_object *I(int64_t v) { return O(nn_int_new(v)); }
static nn_object *Fl(double v) { return O(nn_float_new(v)); }
static nn_object *S(const char *s) { return O(nn_str_new(s)); }
static nn_object *B(bool b) { return O(nn_bool_new(b)); }
static nn_object *imp(const char *name) { return O(ops->import_module(name)); }
static nn_object *ga(nn_object *o, const char *name) { return O(ops->getattr(o, name)); }
static nn_object *mod(const char *dotted, const char *name) { return ga(imp(dotted), name); }

#define T(...) O(nn_tuple_pack(__VA_ARGS__))
#define T0 O(nn_tuple_new(0))

/* kwargs: key, value, ..., NULL */
static nn_object *KW(const char *k, ...)
{
    nn_object *d = O(nn_dict_new());
    va_list ap;
    va_start(ap, k);
    for (; k; k = va_arg(ap, const char *)) tu_check(nn_dict_set_str(d, k, va_arg(ap, nn_object *)));
    va_end(ap);
    return d;
}

static nn_object *call(nn_object *f, nn_object *args, nn_object *kwargs) { return O(nn_call(f, args, kwargs)); }
static nn_object *mcall(nn_object *o, const char *m, nn_object *args, nn_object *kwargs)
{
    return call(ga(o, m), args, kwargs);
}

/* The error of a call that must fail, as "Kind: message". */
static char errbuf[1024];
static const char *err_of(nn_object *r)
{
    if (r) {
        pool[npool++] = r;
        fail_msg("expected an error, got a result");
    }
    snprintf(errbuf, sizeof errbuf, "%s: %s", nn_error_kind_name(nn_error_current()), nn_error_message());
    nn_error_clear();
    return errbuf;
}

/* buf = (reset ? "" : buf) + pre + s + post, truncated to cap. */
static void add(char *buf, size_t cap, bool reset, const char *pre, const char *s, const char *post)
{
    if (reset) buf[0] = 0;
    const char *parts[3] = {pre, s, post};
    size_t len = strlen(buf);
    for (int i = 0; i < 3; i++) {
        size_t n = strlen(parts[i]);
        if (len + n >= cap) n = cap - 1 - len;
        memcpy(buf + len, parts[i], n);
        len += n;
        buf[len] = 0;
    }
}

/* repr(o), kept until the test's teardown. */
static const char *R(nn_object *o)
{
    char *s = nn_repr(o);
    assert_non_null(s);
    assert_true(nreprs < 1024);
    reprs[nreprs++] = s;
    return s;
}

static void seed0(void) { call(mod("torch", "manual_seed"), T(1, I(0)), NULL); }

/* [[1., 2.], [3., 4.]] as a tensor */
static nn_object *X(void)
{
    nn_object *r1 = T(2, Fl(1), Fl(2)), *r2 = T(2, Fl(3), Fl(4));
    nn_object *l = O(nn_list_new(2));
    tu_check(nn_list_append(l, r1));
    tu_check(nn_list_append(l, r2));
    return call(mod("torch", "tensor"), T(1, l), NULL);
}

/* torch.arange(12).reshape(3, 4) */
static nn_object *A(void)
{
    nn_object *a = call(mod("torch", "arange"), T(1, I(12)), NULL);
    return mcall(a, "reshape", T(2, I(3), I(4)), NULL);
}

/* ------------------------------------------------------------ tests */

static void test_factories(void **state)
{
    (void)state;
    seed0();
    check("randn", R(call(mod("torch", "randn"), T(2, I(2), I(3)), NULL)));
    check("shape", R(ga(call(mod("torch", "zeros"), T(2, I(2), I(3)), NULL), "shape")));
    nn_object *ones = call(mod("torch", "ones"), T(1, T(2, I(4), I(1))), NULL);
    check("shape_tuple", R(mcall(ones, "size", T0, NULL)));
    check("size_dim", R(mcall(call(mod("torch", "ones"), T(2, I(4), I(5)), NULL), "size", T(1, I(-1)), NULL)));
    check("full", R(call(mod("torch", "full"), T(2, T(2, I(2), I(2)), I(7)), NULL)));
    char buf[512];
    snprintf(buf, sizeof buf, "%s", R(call(mod("torch", "arange"), T(1, I(5)), NULL)));
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " %s",
             R(call(mod("torch", "arange"), T(3, I(0), I(1), Fl(0.25)), NULL)));
    check("arange", buf);
    nn_object *d = call(mod("torch", "ones"), T(2, I(2), I(2)), KW("dtype", mod("torch", "float64"), NULL));
    check("zeros_like", R(call(mod("torch", "zeros_like"), T(1, d), NULL)));
    nn_object *l = O(nn_list_new(2));
    tu_check(nn_list_append(l, call(mod("torch", "ones"), T(2, I(1), I(2)), NULL)));
    tu_check(nn_list_append(l, call(mod("torch", "zeros"), T(2, I(1), I(2)), NULL)));
    check("cat", R(call(mod("torch", "cat"), T(1, l), KW("dim", I(0), NULL))));
    nn_object *a6 = call(mod("torch", "arange"), T(1, I(6)), NULL);
    snprintf(buf, sizeof buf, "%s", R(mcall(a6, "view", T(2, I(2), I(3)), NULL)));
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " %s",
             R(ga(mcall(a6, "view", T(2, I(-1), I(2)), NULL), "shape")));
    check("view", buf);
    /* dtypes */
    snprintf(buf, sizeof buf, "%s", R(mod("torch", "float32")));
    nn_object *z = call(mod("torch", "zeros"), T(1, I(2)), KW("dtype", mod("torch", "int64"), NULL));
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " %s", R(z));
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " %s",
             R(ga(call(mod("torch", "ones"), T(1, I(2)), NULL), "dtype")));
    check("dtype", buf);
    check("device", R(ga(call(mod("torch", "ones"), T(1, I(1)), NULL), "device")));
    check("cuda", R(call(mod("torch.cuda", "is_available"), T0, NULL)));
    /* torch.cuda is also torch.cuda as an attribute */
    assert_ptr_equal(ga(imp("torch"), "cuda"), imp("torch.cuda"));
    /* manual_seed returns a Generator */
    const char *g = R(call(mod("torch", "manual_seed"), T(1, I(1)), NULL));
    assert_true(!strncmp(g, "<torch._C.Generator object at 0x", 32));
}

static void test_errors(void **state)
{
    (void)state;
    nn_object *lin = mod("torch.nn", "Linear");
    check("linear_missing", err_of(nn_call(lin, T(1, I(3)), NULL)));
    check("linear_kw", err_of(nn_call(lin, T(2, I(3), I(4)), KW("x", I(1), NULL))));
    nn_object *none = nn_none();
    check("linear_many", err_of(nn_call(lin, T(6, I(1), I(2), B(true), none, none, I(5)), NULL)));
    check("sum_type", err_of(nn_call(mod("torch", "sum"), T(1, I(1)), NULL)));
    check("truth", err_of(ops->truth(call(mod("torch", "ones"), T(1, I(2)), NULL)) < 0 ? NULL : nn_none()));
    int64_t n;
    nn_object *zero_d = call(mod("torch", "tensor"), T(1, Fl(1)), NULL);
    assert_int_equal(ops->len(zero_d, &n), -1);
    check("len0", err_of(NULL));
    assert_null(ops->getattr(zero_d, "nope"));
    tu_assert_error(NN_ERR_ATTRIBUTE, "'Tensor' object has no attribute 'nope'");
    assert_null(ops->getattr(imp("torch"), "nope"));
    tu_assert_error(NN_ERR_ATTRIBUTE, "module 'torch' has no attribute 'nope'");
    assert_null(ops->import_module("numpy"));
    assert_int_equal(nn_error_current(), NN_OK);
}

static void test_reductions(void **state)
{
    (void)state;
    seed0();
    nn_object *x = call(mod("torch", "randn"), T(2, I(3), I(4)), NULL);
    check("sum", R(mcall(x, "sum", T0, KW("dim", I(1), NULL))));
    check("sum_keep", R(call(mod("torch", "sum"), T(2, x, I(1)), KW("keepdim", B(true), NULL))));
    check("mean", R(mcall(x, "mean", T0, NULL)));
    nn_object *mx = mcall(X(), "max", T0, KW("dim", I(1), NULL));
    char buf[512] = "";
    add(buf, sizeof buf, true, "", R(mx), "\n");
    add(buf, sizeof buf, false, "", R(ga(mcall(X(), "min", T(1, I(1)), NULL), "indices")), "");
    check("max_dim", buf);
}

static void test_operators(void **state)
{
    (void)state;
    nn_object *x = X();
    check("rsub", R(O(ops->binary(REPL_SUB, I(2), x))));
    check("pow", R(O(ops->binary(REPL_POW, x, I(2)))));
    check("rpow", R(O(ops->binary(REPL_POW, I(2), x))));
    check("rdiv", R(O(ops->binary(REPL_DIV, I(1), x))));
    check("matmul", R(O(ops->binary(REPL_MATMUL, x, x))));
    check("gt", R(O(ops->binary(REPL_GT, x, I(2)))));
    check("neg", R(O(ops->unary(REPL_NEG, x))));
    /* unsupported: NULL without an error */
    assert_null(ops->binary(REPL_ADD, x, S("a")));
    assert_int_equal(nn_error_current(), NN_OK);
}

static void test_indexing(void **state)
{
    (void)state;
    check("idx_int", R(O(ops->getitem(A(), I(1)))));
    nn_object *all = O(repl_slice_new(NULL, NULL, NULL));
    nn_object *s13 = O(repl_slice_new(I(1), I(3), NULL));
    check("idx_slice", R(O(ops->getitem(A(), T(2, all, s13)))));
    check("idx_none", R(ga(O(ops->getitem(A(), T(2, repl_ellipsis(), nn_none()))), "shape")));
    nn_object *l = O(nn_list_new(2));
    tu_check(nn_list_append(l, I(0)));
    tu_check(nn_list_append(l, I(2)));
    check("idx_list", R(O(ops->getitem(A(), l))));
    nn_object *a = A();
    check("idx_mask", R(O(ops->getitem(a, O(ops->binary(REPL_GT, a, I(5)))))));
    check("idx_pair", R(O(ops->getitem(A(), T(2, I(1), I(-1))))));
    check("idx_step", R(O(ops->getitem(A(), T(2, O(repl_slice_new(NULL, NULL, I(2))), I(1))))));
    a = A();
    tu_check(ops->setitem(a, I(0), I(5)));
    nn_object *v = call(mod("torch", "tensor"), T(1, T(2, I(-1), I(-2))), NULL);
    tu_check(ops->setitem(a, T(2, I(1), s13), v));
    check("setitem", R(a));
    int64_t n;
    tu_check(ops->len(call(mod("torch", "zeros"), T(2, I(5), I(2)), NULL), &n));
    assert_int_equal(n, 5);
    check("iter", R(O(ops->iterate(call(mod("torch", "tensor"), T(1, T(2, I(1), I(2))), NULL)))));
    assert_int_equal(ops->truth(call(mod("torch", "zeros"), T(1, I(1)), NULL)), 0);
}

static void test_autograd(void **state)
{
    (void)state;
    seed0();
    nn_object *lin = call(mod("torch.nn", "Linear"), T(2, I(3), I(2)), NULL);
    nn_object *out = mcall(call(lin, T(1, call(mod("torch", "ones"), T(2, I(1), I(3)), NULL)), NULL), "sum", T0, NULL);
    mcall(out, "backward", T0, NULL);
    char buf[1024];
    snprintf(buf, sizeof buf, "%s\n", R(ga(ga(lin, "weight"), "grad")));
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s\n",
             nn_str_cstr(mcall(ga(out, "grad_fn"), "name", T0, NULL)));
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s\n", R(ga(out, "requires_grad")));
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s", R(ga(ga(lin, "weight"), "is_leaf")));
    check("grad", buf);
    const char *gf = R(ga(out, "grad_fn"));
    assert_true(!strncmp(gf, "<SumBackward0 object at 0x", 26));
    /* no_grad as a context manager */
    nn_object *x = call(mod("torch", "ones"), T(1, I(2)), KW("requires_grad", B(true), NULL));
    nn_object *ctx = call(mod("torch", "no_grad"), T0, NULL);
    mcall(ctx, "__enter__", T0, NULL);
    nn_object *y = O(ops->binary(REPL_MUL, x, I(2)));
    mcall(ctx, "__exit__", T(3, nn_none(), nn_none(), nn_none()), NULL);
    snprintf(buf, sizeof buf, "%s", R(ga(y, "requires_grad")));
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " %s", R(ga(O(ops->binary(REPL_MUL, x, I(2))), "requires_grad")));
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " %s", R(call(mod("torch", "is_grad_enabled"), T0, NULL)));
    check("no_grad", buf);
    /* items */
    snprintf(buf, sizeof buf, "%s", R(mcall(call(mod("torch", "tensor"), T(1, Fl(3.5)), NULL), "item", T0, NULL)));
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " %s",
             R(mcall(call(mod("torch", "tensor"), T(1, I(7)), NULL), "item", T0, NULL)));
    nn_object *m = call(mod("torch", "tensor"), T(1, T(2, T(2, I(1), I(2)), T(2, I(3), I(4)))), NULL);
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " %s", R(mcall(m, "tolist", T0, NULL)));
    check("item", buf);
}

static void test_modules(void **state)
{
    (void)state;
    seed0();
    nn_object *nn = imp("torch.nn");
    nn_object *seq = call(ga(nn, "Sequential"),
                          T(3, call(ga(nn, "Linear"), T(2, I(4), I(8)), NULL),
                            call(ga(nn, "GELU"), T0, KW("approximate", S("tanh"), NULL)),
                            call(ga(nn, "Linear"), T(2, I(8), I(1)), NULL)),
                          NULL);
    check("seq", R(seq));
    assert_int_equal(repl_bind_isinstance(seq, ga(nn, "Sequential")), 1);
    assert_int_equal(repl_bind_isinstance(seq, ga(nn, "Module")), 1);
    assert_int_equal(repl_bind_isinstance(seq, ga(nn, "Linear")), 0);
    assert_ptr_equal(ops->module_class_of(ga(nn, "Linear")), &nn_linear_class);
    seed0();
    nn_object *s2 = call(ga(nn, "Sequential"),
                         T(3, call(ga(nn, "Linear"), T(2, I(2), I(2)), NULL), call(ga(nn, "ReLU"), T0, NULL),
                           call(ga(nn, "Linear"), T(2, I(2), I(1)), NULL)),
                         NULL);
    nn_object *np = O(repl_iterable_to_list(mcall(s2, "named_parameters", T0, NULL))); /* a generator */
    nn_object *names = O(nn_list_new(4));
    for (size_t i = 0; i < nn_list_len(np); i++) tu_check(nn_list_append(names, nn_tuple_get(nn_list_get(np, i), 0)));
    check("named", R(names));
    check("seq_index", R(O(ops->getitem(s2, O(repl_slice_new(I(1), NULL, NULL))))));
    check("linear_repr", R(call(ga(nn, "Linear"), T(2, I(2), I(3)), KW("bias", B(false), NULL))));
    check("parameter", R(call(ga(nn, "Parameter"), T(1, call(mod("torch", "ones"), T(1, I(2)), NULL)), NULL)));
    check("softplus_repr", R(call(ga(nn, "Softplus"), T0, KW("beta", Fl(2.0), NULL))));
    nn_object *d = call(ga(nn, "Dropout"), T(1, Fl(0.2)), NULL);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", R(ga(mcall(d, "eval", T0, NULL), "training")));
    nn_object *d2 = call(ga(nn, "Dropout"), T(1, Fl(0.2)), NULL);
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " %s", R(ga(d2, "training")));
    check("module_train", buf);
    /* load_state_dict */
    seed0();
    nn_object *lin = call(ga(nn, "Linear"), T(2, I(2), I(2)), NULL);
    nn_object *sd = mcall(lin, "state_dict", T0, NULL);
    char out[512];
    snprintf(out, sizeof out, "%s\n", R(mcall(lin, "load_state_dict", T(1, sd), NULL)));
    tu_check(nn_dict_del_str(sd, "bias"));
    tu_check(nn_dict_set_str(sd, "extra", call(mod("torch", "zeros"), T(1, I(1)), NULL)));
    snprintf(out + strlen(out), sizeof out - strlen(out), "%s",
             R(mcall(lin, "load_state_dict", T(1, sd), KW("strict", B(false), NULL))));
    check("load", out);
    /* attributes and setattr */
    assert_int_equal(nn_int_value(ga(lin, "in_features")), 2);
    tu_check(ops->setattr(lin, "training", B(false)));
    assert_false(nn_is_true(ga(lin, "training")));
    /* hooks: handle with remove() */
    nn_object *h = mcall(lin, "register_forward_hook", T(1, mod("torch", "relu")), NULL);
    assert_int_equal(nn_dict_len(ga(lin, "_forward_hooks")), 1);
    mcall(h, "remove", T0, NULL);
    assert_int_equal(nn_dict_len(ga(lin, "_forward_hooks")), 0);
    /* type(m) == nn.Linear; type(p) is nn.Parameter */
    assert_ptr_equal(O(repl_bind_type_of(lin)), ga(nn, "Linear"));
    assert_string_equal(R(O(repl_bind_type_of(ga(lin, "weight")))), "<class 'torch.nn.parameter.Parameter'>");
    assert_string_equal(R(O(repl_bind_type_of(call(mod("torch", "ones"), T(1, I(1)), NULL)))), "<class 'torch.Tensor'>");
    /* devices */
    nn_object *dev = call(mod("torch", "device"), T(1, S("cuda:1")), NULL);
    assert_string_equal(R(dev), "device(type='cuda', index=1)");
    assert_null(nn_call(ga(lin, "to"), T(1, dev), NULL));
    nn_error_clear();
    assert_ptr_equal(call(ga(lin, "to"), T(1, call(mod("torch", "device"), T(1, S("cpu")), NULL)), NULL), lin);
    /* @torch.no_grad() on a function */
    nn_object *dec = call(call(mod("torch", "no_grad"), T0, NULL), T(1, mod("torch", "is_grad_enabled")), NULL);
    assert_false(nn_is_true(call(dec, T0, NULL)));
    assert_true(nn_is_true(call(mod("torch", "is_grad_enabled"), T0, NULL)));
    /* the seeds' import paths */
    assert_true(!strncmp(R(mod("torchrl.data", "MultiStep")), "<class '", 8));
    call(mod("darts.models.components.feed_forward", "FeedForward"), T(2, I(4), I(8)), NULL);
    call(mod("labml_nn.transformers.feed_forward", "FeedForward"), T(2, I(4), I(8)), NULL);
    ga(imp("tensordict"), "TensorDict");
    ga(imp("torch.nn.modules.module"), "register_module_forward_hook");
}

static void test_functional(void **state)
{
    (void)state;
    nn_object *F = imp("torch.nn.functional");
    check("softmax", R(call(ga(F, "softmax"), T(1, X()), KW("dim", I(1), NULL))));
    nn_object *tgt = call(mod("torch", "tensor"), T(1, T(2, I(0), I(1))), NULL);
    check("cross_entropy", R(call(ga(F, "cross_entropy"), T(2, X(), tgt), KW("label_smoothing", Fl(0.1), NULL))));
    check("gelu_tanh", R(call(ga(F, "gelu"), T(1, X()), KW("approximate", S("tanh"), NULL))));
    seed0();
    nn_object *w = call(mod("torch", "empty"), T(2, I(3), I(4)), NULL);
    check("xavier", R(call(mod("torch.nn.init", "xavier_uniform_"), T(1, w), NULL)));
}

static void test_optim(void **state)
{
    (void)state;
    seed0();
    nn_object *lin = call(mod("torch.nn", "Linear"), T(2, I(2), I(1)), NULL);
    nn_object *opt = call(mod("torch.optim", "SGD"), T(1, mcall(lin, "parameters", T0, NULL)),
                          KW("lr", Fl(0.1), "momentum", Fl(0.9), NULL));
    for (int i = 0; i < 2; i++) {
        mcall(opt, "zero_grad", T0, NULL);
        nn_object *y = call(lin, T(1, call(mod("torch", "ones"), T(2, I(4), I(2)), NULL)), NULL);
        nn_object *loss = mcall(O(ops->binary(REPL_POW, y, I(2))), "mean", T0, NULL);
        mcall(loss, "backward", T0, NULL);
        mcall(opt, "step", T0, NULL);
    }
    char buf[2048];
    snprintf(buf, sizeof buf, "%s\n", R(ga(lin, "weight")));
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s\n", R(opt));
    nn_object *groups = ga(opt, "param_groups");
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s", R(nn_dict_get_str(nn_list_get(groups, 0), "lr")));
    check("optim", buf);
    seed0();
    nn_object *a = call(mod("torch.nn", "Linear"), T(2, I(2), I(2)), NULL);
    nn_object *b = call(mod("torch.nn", "Linear"), T(2, I(2), I(1)), NULL);
    nn_object *l = O(nn_list_new(2));
    tu_check(nn_list_append(l, KW("params", mcall(a, "parameters", T0, NULL), NULL)));
    tu_check(nn_list_append(l, KW("params", mcall(b, "parameters", T0, NULL), "lr", I(1), NULL)));
    nn_object *adam = call(mod("torch.optim", "Adam"), T(1, l), KW("betas", T(2, Fl(0.8), Fl(0.9)), NULL));
    check("adam_groups", R(adam));
    assert_int_equal(repl_bind_isinstance(adam, mod("torch.optim", "Adam")), 1);
    assert_int_equal(repl_bind_isinstance(adam, mod("torch.optim", "SGD")), 0);
    /* torch.optim.Optimizer is the language's class (bind_optim_more.c; isinstance in
       tests/scripts/optim_more.py): here, core's base type */
    assert_true(nn_is_instance(adam, &nn_optimizer_type));
}

/* ------------------------------------------------------ failing allocations */

static long alloc_budget = -1;
static void *failing_alloc(void *ud, void *p, size_t n)
{
    (void)ud;
    if (n == 0) {
        free(p);
        return NULL;
    }
    if (alloc_budget == 0) return NULL;
    if (alloc_budget > 0) alloc_budget--;
    return realloc(p, n);
}

/* import torch; torch.manual_seed(0); m = nn.Sequential(nn.Linear(3, 2), nn.ReLU());
   y = m(torch.randn(4, 3)); y.sum().backward(); repr(y[0]) */
static int sequence(void)
{
    nn_object *objs[32];
    int n = 0, rc = -1;
#define K(e) do { if (!(objs[n++] = (e))) goto out; } while (0)
    K(repl_bind_import("torch"));
    nn_object *torch = objs[0];
    K(ops->getattr(torch, "nn"));
    nn_object *nn = objs[1];
    K(nn_tuple_new(0));
    K(ops->getattr(nn, "Linear"));
    K(nn_int_new(3));
    K(nn_int_new(2));
    K(nn_tuple_pack(2, objs[4], objs[5]));
    K(nn_call(objs[3], objs[6], NULL)); /* 7: Linear */
    K(ops->getattr(nn, "ReLU"));
    K(nn_call(objs[8], objs[2], NULL)); /* 9: ReLU */
    K(ops->getattr(nn, "Sequential"));
    K(nn_tuple_pack(2, objs[7], objs[9]));
    K(nn_call(objs[10], objs[11], NULL)); /* 12: m */
    K(ops->getattr(torch, "randn"));
    K(nn_int_new(4));
    K(nn_tuple_pack(2, objs[14], objs[4]));
    K(nn_call(objs[13], objs[15], NULL)); /* 16: x */
    K(nn_tuple_pack(1, objs[16]));
    K(nn_call(objs[12], objs[17], NULL)); /* 18: y */
    K(ops->getattr(objs[18], "sum"));
    K(nn_call(objs[19], objs[2], NULL));
    K(ops->getattr(objs[20], "backward"));
    K(nn_call(objs[21], objs[2], NULL));
    K(nn_int_new(0));
    K(ops->getitem(objs[18], objs[23]));
    char *s = nn_repr(objs[24]);
    if (!s) goto out;
    nn_free(s);
    rc = 0;
#undef K
out:
    while (n) nn_release(objs[--n]);
    repl_bindings_shutdown();
    return rc;
}

static void test_alloc_failures(void **state)
{
    (void)state;
    nn_alloc_fn old_fn;
    void *old_ud;
    nn_get_allocator(&old_fn, &old_ud);
    int failures = 0;
    for (long budget = 0; budget < 100000; budget++) {
        alloc_budget = budget;
        nn_set_allocator(failing_alloc, NULL);
        int rc = sequence();
        nn_set_allocator(old_fn, old_ud);
        alloc_budget = -1;
        if (rc == 0) break;
        assert_int_not_equal(nn_error_current(), NN_OK);
        nn_error_clear();
        nn_set_grad_enabled(true);
        failures++;
    }
    assert_true(failures > 10);
    nn_error_clear();
    assert_int_equal(sequence(), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_factories, setup, teardown),
        cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reductions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_operators, setup, teardown),
        cmocka_unit_test_setup_teardown(test_indexing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_autograd, setup, teardown),
        cmocka_unit_test_setup_teardown(test_modules, setup, teardown),
        cmocka_unit_test_setup_teardown(test_functional, setup, teardown),
        cmocka_unit_test_setup_teardown(test_optim, setup, teardown),
        cmocka_unit_test_setup_teardown(test_alloc_failures, setup, teardown),
    };
    int rc = cmocka_run_group_tests_name("bind", tests, NULL, NULL);
    free(fixture);
    return rc;
}
