/*
 * bind_act.c — the activation modules and functions of core/act_more.c as
 * torch.nn classes (ReLU6, Hardtanh, Hardswish, Hardsigmoid, Mish,
 * LogSigmoid, Hardshrink, Softshrink, CELU, Softsign, Tanhshrink, Softmin)
 * and their torch.nn.functional forms.
 */
#include <stdio.h>
#include <string.h>

#include "bind_int.h"

#define ARGS(n) nn_object *a[n] = {0}

/* kinds of nn_activation_more (core/act_more.c) */
enum { K_HARDTANH, K_HARDSWISH, K_HARDSIGMOID, K_MISH, K_LOGSIGMOID, K_HARDSHRINK, K_SOFTSHRINK, K_CELU };
enum { C_RELU6 = 100, C_SOFTSIGN, C_TANHSHRINK, C_SOFTMIN };

/* Module(a=, b=, inplace=) with the parameter names in spec. */
static nn_object *make(const char *cls, const char *spec, int n_numbers, bool has_inplace, nn_object *args,
                       nn_object *kwargs)
{
    ARGS(3);
    char f[64];
    snprintf(f, sizeof f, "%s.__init__", cls);
    if (repl_parse_args(f, spec, args, kwargs, a)) return NULL;
    bool inplace = false;
    if (has_inplace && repl_arg_bool(f, "inplace", n_numbers + 1, a[n_numbers], &inplace)) return NULL;
    for (int k = 0; k < n_numbers; k++)
        if (a[k] && !nn_is_none(a[k]) && !nn_is_int(a[k]) && !nn_is_float(a[k]) && !nn_is_bool(a[k]) && strcmp(cls, "Softmin"))
            return nn_error_set(NN_ERR_TYPE, "%s: argument %d must be a number, not %s", f, k + 1, repl_type_name(a[k])),
                   NULL;
    return (nn_object *)nn_activation_module_new(cls, n_numbers > 0 ? a[0] : NULL, n_numbers > 1 ? a[1] : NULL, inplace);
}

#define CTOR(name, spec, nn, inpl)                                                                                     \
    static nn_object *c_##name(void *ud, nn_object *args, nn_object *kwargs)                                            \
    {                                                                                                                  \
        return make(#name, spec, nn, inpl, args, kwargs);                                                              \
    }
CTOR(ReLU6, "self, inplace=", 0, true)
CTOR(Hardtanh, "self, min_val=, max_val=, inplace=", 2, true)
CTOR(Hardswish, "self, inplace=", 0, true)
CTOR(Hardsigmoid, "self, inplace=", 0, true)
CTOR(Mish, "self, inplace=", 0, true)
CTOR(LogSigmoid, "self", 0, false)
CTOR(Hardshrink, "self, lambd=", 1, false)
CTOR(Softshrink, "self, lambd=", 1, false)
CTOR(CELU, "self, alpha=, inplace=", 1, true)
CTOR(Softsign, "self", 0, false)
CTOR(Tanhshrink, "self", 0, false)
CTOR(Softmin, "self, dim=", 1, false)
#undef CTOR

#define NNCLASS(N, I, DOC) {#N, "torch.nn.modules.activation." #N, c_##N, NULL, &nn_act_more_classes[I], DOC, repl_module_method_at}
static const repl_class_def classes[] = {
    NNCLASS(ReLU6, 0, "ReLU6(inplace=False)\nApplies the element-wise function ReLU6(x) = min(max(0, x), 6)."),
    NNCLASS(Hardtanh, 1, "Hardtanh(min_val=-1.0, max_val=1.0, inplace=False)\nApplies the HardTanh function element-wise."),
    NNCLASS(Hardswish, 2, "Hardswish(inplace=False)\nApplies the Hardswish function, element-wise, as described in the paper: Searching for MobileNetV3."),
    NNCLASS(Hardsigmoid, 3, "Hardsigmoid(inplace=False)\nApplies the Hardsigmoid function element-wise."),
    NNCLASS(Mish, 4, "Mish(inplace=False)\nApplies the Mish function, element-wise: x * tanh(softplus(x))."),
    NNCLASS(LogSigmoid, 5, "LogSigmoid()\nApplies the element-wise function LogSigmoid(x) = log(1 / (1 + exp(-x)))."),
    NNCLASS(Hardshrink, 6, "Hardshrink(lambd=0.5)\nApplies the Hard Shrinkage (Hardshrink) function element-wise."),
    NNCLASS(Softshrink, 7, "Softshrink(lambd=0.5)\nApplies the soft shrinkage function elementwise."),
    NNCLASS(CELU, 8, "CELU(alpha=1.0, inplace=False)\nApplies the element-wise function CELU(x) = max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."),
    NNCLASS(Softsign, 9, "Softsign()\nApplies the element-wise function SoftSign(x) = x / (1 + |x|)."),
    NNCLASS(Tanhshrink, 10, "Tanhshrink()\nApplies the element-wise function Tanhshrink(x) = x - tanh(x)."),
    NNCLASS(Softmin, 11, "Softmin(dim=None)\nApplies the Softmin function to an n-dimensional input Tensor rescaling them so that the elements lie in the range [0, 1] and sum to 1."),
};
#undef NNCLASS

int repl_act_classes(nn_object *nn)
{
    return repl_namespace_add_classes(nn, classes, sizeof classes / sizeof classes[0]);
}

/* F.<name>(input, numbers..., inplace=) */
static nn_object *apply(const char *f, const char *spec, int kind, int n_numbers, double da, double db, bool has_inplace,
                        nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_tensor *x = NULL;
    double v[2] = {da, db};
    bool inplace = false;
    if (repl_parse_args(f, spec, args, kwargs, a) || repl_arg_tensor(f, "input", 1, a[0], &x)) return NULL;
    for (int k = 0; k < n_numbers; k++)
        if (repl_arg_double(f, k == 0 ? "a" : "b", k + 2, a[k + 1], &v[k])) return NULL;
    if (has_inplace && repl_arg_bool(f, "inplace", n_numbers + 2, a[n_numbers + 1], &inplace)) return NULL;
    return (nn_object *)(inplace ? nn_activation_more_(kind, x, v[0], v[1]) : nn_activation_more(kind, x, v[0], v[1]));
}

#define FN(name) static nn_object *F_##name(void *ud, nn_object *args, nn_object *kwargs)
FN(relu6) { return apply("relu6", "input, inplace=", C_RELU6, 0, 0, 0, true, args, kwargs); }
FN(hardtanh) { return apply("hardtanh", "input, min_val=, max_val=, inplace=", K_HARDTANH, 2, -1, 1, true, args, kwargs); }
FN(hardswish) { return apply("hardswish", "input, inplace=", K_HARDSWISH, 0, 0, 0, true, args, kwargs); }
FN(hardsigmoid) { return apply("hardsigmoid", "input, inplace=", K_HARDSIGMOID, 0, 0, 0, true, args, kwargs); }
FN(mish) { return apply("mish", "input, inplace=", K_MISH, 0, 0, 0, true, args, kwargs); }
FN(logsigmoid) { return apply("logsigmoid", "input", K_LOGSIGMOID, 0, 0, 0, false, args, kwargs); }
FN(hardshrink) { return apply("hardshrink", "input, lambd=", K_HARDSHRINK, 1, 0.5, 0, false, args, kwargs); }
FN(softshrink) { return apply("softshrink", "input, lambd=", K_SOFTSHRINK, 1, 0.5, 0, false, args, kwargs); }
FN(celu) { return apply("celu", "input, alpha=, inplace=", K_CELU, 1, 1.0, 0, true, args, kwargs); }
FN(softsign) { return apply("softsign", "input", C_SOFTSIGN, 0, 0, 0, false, args, kwargs); }
FN(tanhshrink) { return apply("tanhshrink", "input", C_TANHSHRINK, 0, 0, 0, false, args, kwargs); }
FN(softmin)
{
    ARGS(4);
    nn_tensor *x = NULL;
    int64_t dim = 0;
    if (repl_parse_args("softmin", "input, dim=, _stacklevel=, dtype=", args, kwargs, a) ||
        repl_arg_tensor("softmin", "input", 1, a[0], &x))
        return NULL;
    if (!a[1] || nn_is_none(a[1])) {
        if ((dim = nn_implicit_softmax_dim("softmin", x->ndim)) < 0) return NULL;
    }
    else if (repl_arg_dim("softmin", "dim", 2, a[1], x->ndim, &dim))
        return NULL;
    if (a[3] && !nn_is_none(a[3])) return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "softmin: dtype= is not supported"), NULL;
    return (nn_object *)nn_activation_more(C_SOFTMIN, x, (double)dim, 0);
}
#undef FN

static const repl_function_def functional[] = {
    {"relu6", F_relu6, "relu6(input, inplace=False) -> Tensor\nApplies the element-wise function ReLU6(x) = min(max(0, x), 6)."},
    {"hardtanh", F_hardtanh, "hardtanh(input, min_val=-1., max_val=1., inplace=False) -> Tensor\nApplies the HardTanh function element-wise."},
    {"hardswish", F_hardswish, "hardswish(input, inplace=False) -> Tensor\nApplies the hardswish function, element-wise."},
    {"hardsigmoid", F_hardsigmoid, "hardsigmoid(input, inplace=False) -> Tensor\nApplies the Hardsigmoid function element-wise."},
    {"mish", F_mish, "mish(input, inplace=False) -> Tensor\nApplies the Mish function, element-wise."},
    {"logsigmoid", F_logsigmoid, "logsigmoid(input) -> Tensor\nApplies element-wise LogSigmoid(x) = log(1 / (1 + exp(-x)))."},
    {"hardshrink", F_hardshrink, "hardshrink(input, lambd=0.5) -> Tensor\nApplies the hard shrinkage function element-wise."},
    {"softshrink", F_softshrink, "softshrink(input, lambd=0.5) -> Tensor\nApplies the soft shrinkage function elementwise."},
    {"celu", F_celu, "celu(input, alpha=1., inplace=False) -> Tensor\nApplies element-wise CELU(x) = max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."},
    {"softsign", F_softsign, "softsign(input) -> Tensor\nApplies element-wise, the function SoftSign(x) = x / (1 + |x|)."},
    {"tanhshrink", F_tanhshrink, "tanhshrink(input) -> Tensor\nApplies element-wise, Tanhshrink(x) = x - Tanh(x)."},
    {"softmin", F_softmin, "softmin(input, dim=None, _stacklevel=3, dtype=None) -> Tensor\nApplies a softmin function."},
};

int repl_act_functional(nn_object *fns)
{
    return repl_namespace_add_fns(fns, functional, sizeof functional / sizeof functional[0]);
}
