/*
 * act_more.c — the activations of torch.nn beyond activations.c's: hardtanh
 * (ReLU6 is hardtanh(0, 6)), hardswish, hardsigmoid, mish, logsigmoid,
 * hardshrink, softshrink and celu as ops with their backwards beside them,
 * and their module classes (ReLU6, Hardtanh, Hardswish, Hardsigmoid, Mish,
 * LogSigmoid, Hardshrink, Softshrink, CELU, Softsign, Tanhshrink, Softmin)
 * with PyTorch's reprs. Softsign, Tanhshrink and Softmin are compositions, as
 * in torch.nn.functional.
 *
 * The forwards are codes of the `math` kernel (core/cpu/math.c), in the
 * input's floating dtype with PyTorch's scalar formulas; mish and logsigmoid use the C library's exp/log1p/tanh, so their
 * float32 results may be an ulp away from ATen's vectorized (Sleef) ones.
 * Backwards are compositions of differentiable ops.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "nn_int.h"

typedef enum act_kind { K_HARDTANH, K_HARDSWISH, K_HARDSIGMOID, K_MISH, K_LOGSIGMOID, K_HARDSHRINK, K_SOFTSHRINK, K_CELU } act_kind;

static const nn_op_id kind_op[] = {
    [K_HARDTANH] = NN_OP_hardtanh,     [K_HARDSWISH] = NN_OP_hardswish,   [K_HARDSIGMOID] = NN_OP_hardsigmoid,
    [K_MISH] = NN_OP_mish,             [K_LOGSIGMOID] = NN_OP_log_sigmoid, [K_HARDSHRINK] = NN_OP_hardshrink,
    [K_SOFTSHRINK] = NN_OP_softshrink, [K_CELU] = NN_OP_celu,
};
static const char *const kind_kernel[] = {
    [K_HARDTANH] = "hardtanh",        [K_HARDSWISH] = "hardswish_cpu",  [K_HARDSIGMOID] = "hardsigmoid_cpu",
    [K_MISH] = "mish_cpu",            [K_LOGSIGMOID] = "log_sigmoid_cpu", [K_HARDSHRINK] = "hardshrink_cpu",
    [K_SOFTSHRINK] = "softshrink_cpu", [K_CELU] = "elu_cpu",
};


static nn_tensor *act(act_kind k, nn_tensor *x, double a, double b)
{
    if (!x) return NULL; /* an operand a nested call failed to make (its error is current) */
    /* bfloat16 (not mish): PyTorch computes in float32 and rounds once; float16: hardtanh is its clamp */
    bool bf16 = x->dtype == NN_BFLOAT16 && k != K_MISH;
    if (x->dtype != NN_FLOAT32 && x->dtype != NN_FLOAT64 && !bf16) {
        nn_error_set(NN_ERR_RUNTIME, "\"%s\" not implemented for '%s'",
                     k == K_HARDTANH && x->dtype == NN_FLOAT16 ? "clamp_scalar_cpu" : kind_kernel[k],
                     nn_dtype_scalar_name(x->dtype));
        return NULL;
    }
    nn_tensor *c = NULL;
    NN_WITH_GRAD_MODE(false, c = bf16 ? nn_to_dtype(x, NN_FLOAT32) : nn_contiguous(x); if (c && bf16) NN_SET(c, nn_contiguous(c)));
    nn_tensor *out = c ? nn_empty_on(nn_device_of(c), x->ndim, x->sizes, c->dtype) : NULL;
    if (!out) {
        NN_RELEASE(c);
        return NULL;
    }
    static const nn_math_op codes[] = {
        [K_HARDTANH] = NN_MATH_hardtanh,     [K_HARDSWISH] = NN_MATH_hardswish,   [K_HARDSIGMOID] = NN_MATH_hardsigmoid,
        [K_MISH] = NN_MATH_mish,             [K_LOGSIGMOID] = NN_MATH_logsigmoid, [K_HARDSHRINK] = NN_MATH_hardshrink,
        [K_SOFTSHRINK] = NN_MATH_softshrink, [K_CELU] = NN_MATH_celu,
    };
    nn_kernel_args ka = {.t = {out, c}, .d = {a, b}};
    if (NN_KERNEL(nn_backend_of(c), math, (codes[k], &ka)) < 0) NN_SET(out, NULL);
    NN_RELEASE(c);
    if (out && bf16) NN_WITH_GRAD_MODE(false, NN_SET(out, nn_to_dtype(out, NN_BFLOAT16)));
    if (!out) return NULL;
    nn_op_params p = {0};
    p.f[0] = a;
    p.f[1] = b;
    if (nn_record(kind_op[k], 1, &x, 1, &out, 1, &x, &p) < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_hardtanh(nn_tensor *x, double min_val, double max_val) { return act(K_HARDTANH, x, min_val, max_val); }
nn_tensor *nn_hardswish(nn_tensor *x) { return act(K_HARDSWISH, x, 0, 0); }
nn_tensor *nn_hardsigmoid(nn_tensor *x) { return act(K_HARDSIGMOID, x, 0, 0); }
nn_tensor *nn_mish(nn_tensor *x) { return act(K_MISH, x, 0, 0); }
nn_tensor *nn_logsigmoid(nn_tensor *x) { return act(K_LOGSIGMOID, x, 0, 0); }
nn_tensor *nn_hardshrink(nn_tensor *x, double lambd) { return act(K_HARDSHRINK, x, lambd, 0); }
nn_tensor *nn_softshrink(nn_tensor *x, double lambd)
{
    if (lambd < 0) {
        nn_error_set(NN_ERR_RUNTIME, "lambda must be greater or equal to 0, but found to be %g.", lambd);
        return NULL;
    }
    return act(K_SOFTSHRINK, x, lambd, 0);
}
nn_tensor *nn_celu(nn_tensor *x, double alpha)
{
    if (alpha == 0) {
        nn_error_set(NN_ERR_RUNTIME, "ZeroDivisionError: alpha cannot be 0 for CELU");
        return NULL;
    }
    return act(K_CELU, x, alpha, 0);
}

/* ------------------------------------------------------------ backwards */

/* Temporaries of one backward formula, released together. */
typedef struct pool {
    nn_tensor *t[12];
    int n;
    bool failed;
} pool;

static nn_tensor *keep(pool *s, nn_tensor *t)
{
    if (!t || s->n == 12) {
        NN_RELEASE(t);
        s->failed = true;
        return NULL;
    }
    return s->t[s->n++] = t;
}
#define E(expr) (s.failed ? NULL : keep(&s, (expr)))

static int done(pool *s, nn_tensor *r, nn_tensor **slot)
{
    int rc = -1;
    if (!s->failed && r) {
        *slot = (nn_tensor *)nn_retain(&r->ob);
        rc = 0;
    }
    for (int k = 0; k < s->n; k++) NN_RELEASE(s->t[k]);
    return rc;
}

/* grad where cond, else zero */
static nn_tensor *masked_grad(pool *sp, nn_tensor *cond, nn_tensor *g)
{
    pool s = *sp;
    nn_tensor *z = E(nn_scalar(0.0, g->dtype));
    nn_tensor *r = z && cond ? nn_where(cond, g, z) : NULL;
    *sp = s;
    return r;
}

static nn_tensor *cmp_scalar(nn_tensor *x, nn_cmp op, double v)
{
    if (!x) return NULL; /* an operand a nested call failed to make (its error is current) */
    nn_tensor *s = nn_scalar(v, x->dtype), *r = s ? nn_compare(x, s, op) : NULL;
    NN_RELEASE(s);
    return r;
}

int nn_hardtanh_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    pool s = {0};
    nn_tensor *x = nn_node_saved(n, 0);
    nn_tensor *lo = E(cmp_scalar(x, NN_GT, n->p.f[0])), *hi = E(cmp_scalar(x, NN_LT, n->p.f[1]));
    nn_tensor *inner = hi ? E(masked_grad(&s, hi, gout[0])) : NULL;
    nn_tensor *r = lo && inner ? E(masked_grad(&s, lo, inner)) : NULL;
    return done(&s, r, &gin[0]);
}

int nn_hardswish_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    pool s = {0};
    nn_tensor *x = nn_node_saved(n, 0), *g = gout[0];
    /* x < -3: 0; x <= 3: g * (x / 3 + 0.5); else g */
    nn_tensor *mid = E(nn_add_scalar(E(nn_mul_scalar(x, 1.0 / 3.0)), 0.5));
    nn_tensor *gm = E(nn_mul(g, mid));
    nn_tensor *le3 = E(cmp_scalar(x, NN_LE, 3.0)), *lt = E(cmp_scalar(x, NN_LT, -3.0));
    nn_tensor *upper = le3 ? E(nn_where(le3, gm, g)) : NULL;
    nn_tensor *z = E(nn_scalar(0.0, g->dtype));
    nn_tensor *r = lt && upper && z ? E(nn_where(lt, z, upper)) : NULL;
    return done(&s, r, &gin[0]);
}

int nn_hardsigmoid_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    pool s = {0};
    nn_tensor *x = nn_node_saved(n, 0);
    nn_tensor *lo = E(cmp_scalar(x, NN_GT, -3.0)), *hi = E(cmp_scalar(x, NN_LT, 3.0));
    nn_tensor *g6 = E(nn_mul_scalar(gout[0], 1.0 / 6.0));
    nn_tensor *inner = hi && g6 ? E(masked_grad(&s, hi, g6)) : NULL;
    nn_tensor *r = lo && inner ? E(masked_grad(&s, lo, inner)) : NULL;
    return done(&s, r, &gin[0]);
}

/* d/dx x tanh(softplus(x)) = tanh(sp) + x sigmoid(x) (1 - tanh(sp)^2) */
int nn_mish_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    pool s = {0};
    nn_tensor *x = nn_node_saved(n, 0);
    nn_tensor *t = E(nn_tanh(E(nn_softplus(x, 1.0, 20.0))));
    nn_tensor *one_minus = t ? E(nn_rsub_scalar(E(nn_mul(t, t)), 1.0)) : NULL;
    nn_tensor *xs = E(nn_mul(x, E(nn_sigmoid(x))));
    nn_tensor *d = one_minus && xs ? E(nn_add(t, E(nn_mul(xs, one_minus)))) : NULL;
    nn_tensor *r = d ? E(nn_mul(gout[0], d)) : NULL;
    return done(&s, r, &gin[0]);
}

/* d/dx log sigmoid(x) = sigmoid(-x) */
int nn_log_sigmoid_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    pool s = {0};
    nn_tensor *x = nn_node_saved(n, 0);
    nn_tensor *r = E(nn_mul(gout[0], E(nn_sigmoid(E(nn_neg(x))))));
    return done(&s, r, &gin[0]);
}

static int shrink_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    pool s = {0};
    nn_tensor *x = nn_node_saved(n, 0);
    nn_tensor *out = E(cmp_scalar(E(nn_abs(x)), NN_GT, n->p.f[0]));
    nn_tensor *r = out ? E(masked_grad(&s, out, gout[0])) : NULL;
    return done(&s, r, &gin[0]);
}

int nn_hardshrink_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return shrink_backward(n, gout, gin); }
int nn_softshrink_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return shrink_backward(n, gout, gin); }

/* x > 0: g; else g * exp(x / alpha) */
int nn_celu_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    pool s = {0};
    nn_tensor *x = nn_node_saved(n, 0);
    nn_tensor *e = E(nn_exp(E(nn_mul_scalar(x, 1.0 / n->p.f[0]))));
    nn_tensor *ge = e ? E(nn_mul(gout[0], e)) : NULL;
    nn_tensor *pos = E(cmp_scalar(x, NN_GT, 0.0));
    nn_tensor *r = ge && pos ? E(nn_where(pos, gout[0], ge)) : NULL;
    return done(&s, r, &gin[0]);
}

/* ---------------------------------------------------------------- modules */

enum { C_RELU6 = 100, C_SOFTSIGN, C_TANHSHRINK, C_SOFTMIN };

/* Runs activation kind on x with the numbers a, b (dim for Softmin). */
nn_tensor *nn_activation_more(int kind, nn_tensor *x, double a, double b)
{
    nn_tensor *t = NULL, *u = NULL, *r = NULL;
    switch (kind) {
    case C_RELU6: return nn_hardtanh(x, 0.0, 6.0);
    case C_SOFTSIGN: /* input / (input.abs() + 1) */
        t = nn_abs(x);
        u = t ? nn_add_scalar(t, 1.0) : NULL;
        r = u ? nn_div(x, u) : NULL;
        break;
    case C_TANHSHRINK: /* input - input.tanh() */
        t = nn_tanh(x);
        r = t ? nn_sub(x, t) : NULL;
        break;
    case C_SOFTMIN: /* softmax(-input, dim) */
        t = nn_neg(x);
        r = t ? nn_softmax(t, (int)a) : NULL;
        break;
    case K_SOFTSHRINK: return nn_softshrink(x, a);
    case K_CELU: return nn_celu(x, a);
    default: return act((act_kind)kind, x, a, b);
    }
    NN_RELEASE(t);
    NN_RELEASE(u);
    return r;
}

/* The in-place form: x takes the result and its history; the op runs on a copy
   of x (recorded as a clone), so what its backward saves is not overwritten. */
nn_tensor *nn_activation_more_(int kind, nn_tensor *x, double a, double b)
{
    nn_tensor *c = nn_clone(x), *r = c ? nn_activation_more(kind, c, a, b) : NULL;
    NN_RELEASE(c);
    if (!r) return NULL;
    int rc = nn_inplace_from(x, r);
    NN_RELEASE(r);
    return rc < 0 ? NULL : (nn_tensor *)nn_retain(&x->ob);
}

typedef struct act_spec {
    const char *name;
    int kind;
    const char *a, *b;   /* attribute names of the numbers (NULL: none) */
    bool inplace;        /* has an inplace attribute */
    int repr;            /* 0 "", 1 "a=A, b=B", 2 "A" (the shrinks), 3 "inplace=True" only */
} act_spec;

static const act_spec specs[] = {
    {"ReLU6", C_RELU6, NULL, NULL, true, 3},
    {"Hardtanh", K_HARDTANH, "min_val", "max_val", true, 1},
    {"Hardswish", K_HARDSWISH, NULL, NULL, true, 0},
    {"Hardsigmoid", K_HARDSIGMOID, NULL, NULL, true, 0},
    {"Mish", K_MISH, NULL, NULL, true, 3},
    {"LogSigmoid", K_LOGSIGMOID, NULL, NULL, false, 0},
    {"Hardshrink", K_HARDSHRINK, "lambd", NULL, false, 2},
    {"Softshrink", K_SOFTSHRINK, "lambd", NULL, false, 2},
    {"CELU", K_CELU, "alpha", NULL, true, 1},
    {"Softsign", C_SOFTSIGN, NULL, NULL, false, 0},
    {"Tanhshrink", C_TANHSHRINK, NULL, NULL, false, 0},
    {"Softmin", C_SOFTMIN, "dim", NULL, false, 1},
};
#define N_SPECS (sizeof specs / sizeof specs[0])

static nn_object *act_forward(nn_module *m, nn_object *args, nn_object *kwargs);
static char *act_extra_repr(nn_module *m);

#define CLS(N) {.name = N, .forward = act_forward, .extra_repr = act_extra_repr}
const nn_module_class nn_act_more_classes[] = {
    CLS("ReLU6"), CLS("Hardtanh"), CLS("Hardswish"), CLS("Hardsigmoid"), CLS("Mish"), CLS("LogSigmoid"),
    CLS("Hardshrink"), CLS("Softshrink"), CLS("CELU"), CLS("Softsign"), CLS("Tanhshrink"), CLS("Softmin"),
};
#undef CLS
#define classes nn_act_more_classes

static const act_spec *spec_of(const nn_module *m)
{
    for (size_t i = 0; i < N_SPECS; i++)
        if (nn_module_core_class(m) == &classes[i]) return &specs[i];
    return NULL;
}

static bool attr_true(nn_module *m, const char *name)
{
    nn_object *o = nn_module_getattr(m, name);
    if (!o) {
        nn_error_clear();
        return false;
    }
    return nn_is_bool(o) || nn_is_int(o) ? nn_int_value(o) != 0 : !nn_is_none(o);
}

static int attr_number(nn_module *m, const char *name, double *out)
{
    nn_object *o = nn_module_getattr(m, name);
    if (!o) return -1;
    if (nn_is_none(o)) {
        *out = NAN;
        return 0;
    }
    if (!nn_is_int(o) && !nn_is_float(o) && !nn_is_bool(o))
        return nn_error_set(NN_ERR_TYPE, "%s: %s must be a number", nn_module_name(m), name);
    *out = nn_is_float(o) ? nn_float_value(o) : (double)nn_int_value(o);
    return 0;
}

/* the torch function whose argument parser a module's forward reaches */
static const char *op_name(const act_spec *sp)
{
    switch (sp->kind) {
    case C_RELU6: case K_HARDTANH: return "hardtanh";
    case K_HARDSWISH: return "hardswish";
    case K_HARDSIGMOID: return "hardsigmoid";
    case K_MISH: return "mish";
    case K_LOGSIGMOID: return "log_sigmoid";
    case K_HARDSHRINK: return "hardshrink";
    case K_SOFTSHRINK: return "softshrink";
    case K_CELU: return "celu";
    case C_SOFTMIN: return "softmin";
    default: return "abs";
    }
}

static nn_object *act_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    const act_spec *sp = spec_of(m);
    size_t nargs = args ? nn_tuple_len(args) : 0;
    nn_object *in = nargs ? nn_tuple_get(args, 0) : kwargs ? nn_dict_get_str(kwargs, "input") : NULL;
    if (!sp) return nn_error_set(NN_ERR_RUNTIME, "not an activation module"), NULL;
    if (nargs > 1 || (nargs == 1 && kwargs && nn_dict_len(kwargs) > 0))
        return nn_error_set(NN_ERR_TYPE, "%s.forward() takes 2 positional arguments but %zu were given", sp->name, nargs + 1),
               NULL;
    if (!in) return nn_error_set(NN_ERR_TYPE, "%s.forward() missing 1 required positional argument: 'input'", sp->name), NULL;
    if (!nn_is_tensor(in))
        return nn_error_set(NN_ERR_TYPE, "%s(): argument 'input' (position 1) must be Tensor, not %s", op_name(sp),
                            in->type->name),
               NULL;
    double a = 0, b = 0;
    if (sp->a && attr_number(m, sp->a, &a) < 0) return NULL;
    if (sp->b && attr_number(m, sp->b, &b) < 0) return NULL;
    if (sp->kind == C_SOFTMIN && isnan(a)) {
        int dim = nn_implicit_softmax_dim("softmin", NN_TENSOR(in)->ndim);
        if (dim < 0) return NULL;
        a = dim;
    }
    nn_tensor *x = NN_TENSOR(in);
    if (sp->inplace && attr_true(m, "inplace")) return (nn_object *)nn_activation_more_(sp->kind, x, a, b);
    return (nn_object *)nn_activation_more(sp->kind, x, a, b);
}

static char *act_extra_repr(nn_module *m)
{
    const act_spec *sp = spec_of(m);
    char buf[256] = "";
    bool inplace = sp && sp->inplace && attr_true(m, "inplace");
    if (!sp) return nn_strdup("");
    if (sp->repr == 1 || sp->repr == 2) {
        int o = 0;
        const char *names[2] = {sp->a, sp->b};
        for (int k = 0; k < 2 && names[k]; k++) {
            nn_object *v = nn_module_getattr(m, names[k]);
            char *text = v ? nn_str(v) : NULL;
            if (!text) return NULL;
            if (sp->repr == 1)
                o += snprintf(buf + o, sizeof buf - (size_t)o, "%s%s=%s", k ? ", " : "", names[k], text);
            else
                o += snprintf(buf + o, sizeof buf - (size_t)o, "%s", text);
            nn_free(text);
            if (o >= (int)sizeof buf) o = (int)sizeof buf - 1;
        }
        if (inplace) snprintf(buf + o, sizeof buf - (size_t)o, ", inplace=True");
    } else if (sp->repr == 3 && inplace) {
        snprintf(buf, sizeof buf, "inplace=True");
    }
    return nn_strdup(buf);
}

/* A module of the named class; a and b (borrowed, NULL: the class's default)
   are its numbers, inplace its flag. */
nn_module *nn_activation_module_new(const char *name, nn_object *a, nn_object *b, bool inplace)
{
    size_t i = 0;
    while (i < N_SPECS && strcmp(specs[i].name, name)) i++;
    if (i == N_SPECS) {
        nn_error_set(NN_ERR_RUNTIME, "no activation module %s", name);
        return NULL;
    }
    const act_spec *sp = &specs[i];
    nn_module *m = nn_module_new(&classes[i]);
    if (!m) return NULL;
    int rc = 0;
    const char *names[2] = {sp->a, sp->b};
    nn_object *given[2] = {a, b};
    for (int k = 0; k < 2 && rc == 0 && names[k]; k++) {
        nn_object *v = given[k] ? nn_retain(given[k]) : NULL;
        if (!v) {
            if (sp->kind == K_HARDTANH) v = nn_float_new(k ? 1.0 : -1.0);
            else if (sp->kind == K_CELU) v = nn_float_new(1.0);
            else if (sp->kind == C_SOFTMIN) v = nn_retain(nn_none());
            else v = nn_float_new(0.5);
        }
        rc = v ? nn_module_setattr(m, names[k], v) : -1;
        NN_RELEASE(v);
    }
    if (rc == 0 && sp->inplace) {
        nn_object *v = nn_bool_new(inplace);
        rc = v ? nn_module_setattr(m, "inplace", v) : -1;
        NN_RELEASE(v);
    }
    if (rc < 0) NN_SET(m, NULL);
    return m;
}

int nn_implicit_softmax_dim(const char *name, int ndim)
{
    if (nn_warn("UserWarning", "Implicit dimension choice for %s has been deprecated. Change the call to include "
                               "dim=X as an argument.", name) < 0)
        return -1;
    return ndim == 0 || ndim == 1 || ndim == 3 ? 0 : 1;
}
