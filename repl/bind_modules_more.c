/*
 * bind_modules_more.c — torch.nn classes and torch.nn.functional forms of
 * core/modules_more.c, act_extra.c, pad.c and dropout_more.c: SELU, GLU,
 * RReLU, Softmax2d, Unflatten, Dropout1d/2d/3d, AlphaDropout,
 * FeatureAlphaDropout, the padding modules, F.selu, F.glu, F.rrelu, F.pad,
 * F.dropout1d/2d/3d, F.alpha_dropout, F.feature_alpha_dropout. Constructors
 * check and store their arguments as PyTorch's __init__ does.
 */
#include <stdio.h>
#include <string.h>

#include "bind_int.h"
#include "nn_mod_more.h"

#define ARGS(n) nn_object *a[n] = {0}
#define CTOR(name) static nn_object *c_##name(void *ud, nn_object *args, nn_object *kwargs)
#define FN(name) static nn_object *F_##name(void *ud, nn_object *args, nn_object *kwargs)

/* A module of cls from n attributes; the values are new references (NULL: failed), released here. */
static nn_object *module(const char *cls, int n, const char *const *names, nn_object **values)
{
    bool ok = true;
    for (int i = 0; i < n; i++) ok &= values[i] != NULL;
    nn_module *m = ok ? nn_more_module_new(cls, n, names, values) : NULL;
    for (int i = 0; i < n; i++) NN_RELEASE(values[i]);
    return (nn_object *)m;
}

static nn_object *or_bool(nn_object *o, bool v) { return o && !nn_is_none(o) ? nn_retain(o) : nn_bool_new(v); }
static nn_object *or_float(nn_object *o, double v) { return o ? nn_retain(o) : nn_float_new(v); }

static bool is_number(nn_object *o) { return nn_is_int(o) || nn_is_float(o) || nn_is_bool(o); }

/* ------------------------------------------------------------ activations */

CTOR(SELU)
{
    ARGS(1);
    if (repl_parse_args("SELU.__init__", "self, inplace=", args, kwargs, a)) return NULL;
    static const char *const names[] = {"inplace"};
    nn_object *v[] = {or_bool(a[0], false)};
    return module("SELU", 1, names, v);
}

CTOR(GLU)
{
    ARGS(1);
    if (repl_parse_args("GLU.__init__", "self, dim=", args, kwargs, a)) return NULL;
    static const char *const names[] = {"dim"};
    nn_object *v[] = {a[0] ? nn_retain(a[0]) : nn_int_new(-1)};
    return module("GLU", 1, names, v);
}

CTOR(RReLU)
{
    ARGS(3);
    if (repl_parse_args("RReLU.__init__", "self, lower=, upper=, inplace=", args, kwargs, a)) return NULL;
    for (int i = 0; i < 2; i++)
        if (a[i] && !is_number(a[i]))
            return nn_error_set(NN_ERR_TYPE, "rrelu(): argument '%s' must be Number, not %s", i ? "upper" : "lower",
                                repl_type_name(a[i])),
                   NULL;
    static const char *const names[] = {"lower", "upper", "inplace"};
    nn_object *v[] = {or_float(a[0], 1.0 / 8), or_float(a[1], 1.0 / 3), or_bool(a[2], false)};
    return module("RReLU", 3, names, v);
}

CTOR(Softmax2d)
{
    ARGS(1);
    if (repl_parse_args("Softmax2d.__init__", "self", args, kwargs, a)) return NULL;
    return module("Softmax2d", 0, NULL, NULL);
}

/* ------------------------------------------------------------- Unflatten */

CTOR(Unflatten)
{
    ARGS(2);
    if (repl_parse_args("Unflatten.__init__", "self, dim, unflattened_size", args, kwargs, a)) return NULL;
    if (nn_is_str(a[0]))
        return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "Unflatten: named dimensions are not supported"), NULL;
    if (!nn_is_int(a[0])) return nn_error_set(NN_ERR_TYPE, "invalid argument type for dim parameter"), NULL;
    nn_object *s = a[1];
    bool tuple = nn_is_instance(s, &nn_tuple_type);
    if (!tuple && !nn_is_list(s))
        return nn_error_set(NN_ERR_TYPE, "unflattened_size must be a tuple of ints, but found type %s",
                            repl_type_name(s)),
               NULL;
    size_t n = tuple ? nn_tuple_len(s) : nn_list_len(s);
    for (size_t i = 0; i < n; i++) {
        nn_object *e = tuple ? nn_tuple_get(s, i) : nn_list_get(s, i);
        if (!nn_is_int(e) || nn_is_bool(e))
            return nn_error_set(NN_ERR_TYPE, "unflattened_size must be tuple of ints, but found element of type %s at "
                                "pos %zu", repl_type_name(e), i),
                   NULL;
    }
    static const char *const names[] = {"dim", "unflattened_size"};
    nn_object *v[] = {nn_retain(a[0]), nn_retain(s)};
    return module("Unflatten", 2, names, v);
}

/* --------------------------------------------------------------- dropout */

/* "dropout probability has to be between 0 and 1, but got 1.5" (str(p)) */
static int check_p(nn_object *p)
{
    double v = 0;
    if (repl_arg_double("dropout", "p", 0, p, &v)) return -1;
    if (!(v < 0 || v > 1)) return 0;
    char *s = nn_str(p);
    if (!s) return -1;
    nn_error_set(NN_ERR_VALUE, "dropout probability has to be between 0 and 1, but got %s", s);
    nn_free(s);
    return -1;
}

static nn_object *dropout_ctor(const char *cls, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    char f[64];
    snprintf(f, sizeof f, "%s.__init__", cls);
    if (repl_parse_args(f, "self, p=, inplace=", args, kwargs, a)) return NULL;
    if (a[0] && check_p(a[0]) < 0) return NULL;
    static const char *const names[] = {"p", "inplace"};
    nn_object *v[] = {or_float(a[0], 0.5), a[1] ? nn_retain(a[1]) : nn_bool_new(false)};
    return module(cls, 2, names, v);
}
CTOR(Dropout1d) { return dropout_ctor("Dropout1d", args, kwargs); }
CTOR(Dropout2d) { return dropout_ctor("Dropout2d", args, kwargs); }
CTOR(Dropout3d) { return dropout_ctor("Dropout3d", args, kwargs); }
CTOR(AlphaDropout) { return dropout_ctor("AlphaDropout", args, kwargs); }
CTOR(FeatureAlphaDropout) { return dropout_ctor("FeatureAlphaDropout", args, kwargs); }

/* --------------------------------------------------------------- padding */

/* torch.nn.modules.utils._ntuple(n): an iterable as a tuple, anything else repeated n times */
static nn_object *ntuple(nn_object *o, int n)
{
    if (o->type == &nn_tuple_type) return nn_retain(o);
    if (nn_is_instance(o, &nn_tuple_type) || nn_is_list(o)) { /* a list or torch.Size: tuple(o) */
        size_t k = nn_is_list(o) ? nn_list_len(o) : nn_tuple_len(o);
        nn_object *t = nn_tuple_new(k);
        for (size_t i = 0; t && i < k; i++) nn_tuple_set(t, i, nn_retain(nn_is_list(o) ? nn_list_get(o, i) : nn_tuple_get(o, i)));
        return t;
    }
    nn_object *t = nn_tuple_new((size_t)n);
    for (int i = 0; t && i < n; i++) nn_tuple_set(t, (size_t)i, nn_retain(o));
    return t;
}

static nn_object *pad_ctor(const char *cls, int n, bool has_value, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    char f[64];
    snprintf(f, sizeof f, "%s.__init__", cls);
    if (repl_parse_args(f, has_value ? "self, padding, value" : "self, padding", args, kwargs, a)) return NULL;
    static const char *const names[] = {"padding", "value"};
    bool zero = !strcmp(cls, "ZeroPad2d");
    nn_object *v[] = {ntuple(a[0], n), has_value ? nn_retain(a[1]) : zero ? nn_float_new(0.0) : NULL};
    return module(cls, has_value || zero ? 2 : 1, names, v);
}
CTOR(ConstantPad1d) { return pad_ctor("ConstantPad1d", 2, true, args, kwargs); }
CTOR(ConstantPad2d) { return pad_ctor("ConstantPad2d", 4, true, args, kwargs); }
CTOR(ConstantPad3d) { return pad_ctor("ConstantPad3d", 6, true, args, kwargs); }
CTOR(ZeroPad2d) { return pad_ctor("ZeroPad2d", 4, false, args, kwargs); }
CTOR(ReflectionPad1d) { return pad_ctor("ReflectionPad1d", 2, false, args, kwargs); }
CTOR(ReflectionPad2d) { return pad_ctor("ReflectionPad2d", 4, false, args, kwargs); }
CTOR(ReflectionPad3d) { return pad_ctor("ReflectionPad3d", 6, false, args, kwargs); }
CTOR(ReplicationPad1d) { return pad_ctor("ReplicationPad1d", 2, false, args, kwargs); }
CTOR(ReplicationPad2d) { return pad_ctor("ReplicationPad2d", 4, false, args, kwargs); }
CTOR(ReplicationPad3d) { return pad_ctor("ReplicationPad3d", 6, false, args, kwargs); }

#define NNCLASS(N, MOD, DOC) {#N, "torch.nn.modules." MOD "." #N, c_##N, NULL, NULL, DOC, repl_module_method_at}
static repl_class_def classes[] = {
    NNCLASS(SELU, "activation", "SELU(inplace=False)\nApplied element-wise: scale * (max(0,x) + min(0, alpha * (exp(x) - 1)))."),
    NNCLASS(GLU, "activation", "GLU(dim=-1)\nApplies the gated linear unit function a * sigmoid(b) over halves of dim."),
    NNCLASS(RReLU, "activation", "RReLU(lower=0.125, upper=0.3333333333333333, inplace=False)\nApplies the randomized leaky rectified liner unit function, element-wise."),
    NNCLASS(Softmax2d, "activation", "Softmax2d()\nApplies SoftMax over features to each spatial location."),
    NNCLASS(Unflatten, "flatten", "Unflatten(dim, unflattened_size)\nUnflattens a tensor dim expanding it to a desired shape."),
    NNCLASS(Dropout1d, "dropout", "Dropout1d(p=0.5, inplace=False)\nRandomly zero out entire channels (1D feature maps)."),
    NNCLASS(Dropout2d, "dropout", "Dropout2d(p=0.5, inplace=False)\nRandomly zero out entire channels (2D feature maps)."),
    NNCLASS(Dropout3d, "dropout", "Dropout3d(p=0.5, inplace=False)\nRandomly zero out entire channels (3D feature maps)."),
    NNCLASS(AlphaDropout, "dropout", "AlphaDropout(p=0.5, inplace=False)\nApplies Alpha Dropout over the input."),
    NNCLASS(FeatureAlphaDropout, "dropout", "FeatureAlphaDropout(p=0.5, inplace=False)\nRandomly masks out entire channels with SELU's negative saturation value."),
    NNCLASS(ConstantPad1d, "padding", "ConstantPad1d(padding, value)\nPads the input tensor boundaries with a constant value."),
    NNCLASS(ConstantPad2d, "padding", "ConstantPad2d(padding, value)\nPads the input tensor boundaries with a constant value."),
    NNCLASS(ConstantPad3d, "padding", "ConstantPad3d(padding, value)\nPads the input tensor boundaries with a constant value."),
    NNCLASS(ZeroPad2d, "padding", "ZeroPad2d(padding)\nPads the input tensor boundaries with zero."),
    NNCLASS(ReflectionPad1d, "padding", "ReflectionPad1d(padding)\nPads the input tensor using the reflection of the input boundary."),
    NNCLASS(ReflectionPad2d, "padding", "ReflectionPad2d(padding)\nPads the input tensor using the reflection of the input boundary."),
    NNCLASS(ReflectionPad3d, "padding", "ReflectionPad3d(padding)\nPads the input tensor using the reflection of the input boundary."),
    NNCLASS(ReplicationPad1d, "padding", "ReplicationPad1d(padding)\nPads the input tensor using replication of the input boundary."),
    NNCLASS(ReplicationPad2d, "padding", "ReplicationPad2d(padding)\nPads the input tensor using replication of the input boundary."),
    NNCLASS(ReplicationPad3d, "padding", "ReplicationPad3d(padding)\nPads the input tensor using replication of the input boundary."),
};
#undef NNCLASS
#define N_CLASSES (sizeof classes / sizeof classes[0])

int repl_modules_more_classes(nn_object *nn)
{
    for (size_t i = 0; i < N_CLASSES; i++)
        if (!(classes[i].module_class = nn_more_class(classes[i].name)))
            return nn_error_set(NN_ERR_RUNTIME, "no core class for %s", classes[i].name);
    return repl_namespace_add_classes(nn, classes, N_CLASSES);
}

/* ------------------------------------------------------------ functional */

FN(selu)
{
    ARGS(2);
    nn_tensor *x = NULL;
    bool inplace = false;
    if (repl_parse_args("selu", "input, inplace=", args, kwargs, a) || repl_arg_tensor("selu", "input", 1, a[0], &x) ||
        repl_arg_bool("selu", "inplace", 2, a[1], &inplace))
        return NULL;
    return (nn_object *)(inplace ? nn_selu_(x) : nn_selu(x));
}

FN(selu_)
{
    ARGS(1);
    nn_tensor *x = NULL;
    if (repl_parse_args("selu_", "input", args, kwargs, a) || repl_arg_tensor("selu_", "input", 1, a[0], &x)) return NULL;
    return (nn_object *)nn_selu_(x);
}

FN(glu)
{
    ARGS(2);
    nn_tensor *x = NULL;
    int64_t dim = -1;
    if (repl_parse_args("glu", "input, dim=", args, kwargs, a) || repl_arg_tensor("glu", "input", 1, a[0], &x) ||
        repl_arg_int("glu", "dim", 2, a[1], &dim))
        return NULL;
    return (nn_object *)nn_glu(x, (int)dim);
}

static nn_object *rrelu(const char *f, bool inplace_fn, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    nn_tensor *x = NULL;
    double lo = 1.0 / 8, hi = 1.0 / 3;
    bool training = false, inplace = inplace_fn;
    if (repl_parse_args(f, inplace_fn ? "input, lower=, upper=, training=" : "input, lower=, upper=, training=, inplace=",
                        args, kwargs, a) ||
        repl_arg_tensor(f, "input", 1, a[0], &x) || repl_arg_double(f, "lower", 2, a[1], &lo) ||
        repl_arg_double(f, "upper", 3, a[2], &hi) || repl_arg_bool(f, "training", 4, a[3], &training) ||
        repl_arg_bool(f, "inplace", 5, a[4], &inplace))
        return NULL;
    return (nn_object *)(inplace ? nn_rrelu_(x, lo, hi, training) : nn_rrelu(x, lo, hi, training));
}
FN(rrelu) { return rrelu("rrelu", false, args, kwargs); }
FN(rrelu_) { return rrelu("rrelu_", true, args, kwargs); }

FN(pad)
{
    ARGS(4);
    nn_tensor *x = NULL;
    const char *mode = "constant";
    double value = 0;
    if (repl_parse_args("pad", "input, pad, mode=, value=", args, kwargs, a) || repl_arg_tensor("pad", "input", 1, a[0], &x) ||
        repl_arg_str("pad", "mode", 3, a[2], &mode))
        return NULL;
    nn_object *p = a[1];
    bool tuple = nn_is_instance(p, &nn_tuple_type);
    if (!tuple && !nn_is_list(p))
        return nn_error_set(NN_ERR_TYPE, "pad(): argument 'pad' (position 2) must be tuple of ints, not %s",
                            repl_type_name(p)),
               NULL;
    size_t n = tuple ? nn_tuple_len(p) : nn_list_len(p);
    int64_t pads[2 * NN_MAX_DIMS + 2];
    if (n > 2 * NN_MAX_DIMS + 2) return nn_error_set(NN_ERR_RUNTIME, "Padding length too large"), NULL;
    for (size_t i = 0; i < n; i++) {
        nn_object *e = tuple ? nn_tuple_get(p, i) : nn_list_get(p, i);
        if (!nn_is_int(e))
            return nn_error_set(NN_ERR_TYPE, "pad(): argument 'pad' (position 2) must be tuple of ints, not %s",
                                repl_type_name(p)),
                   NULL;
        pads[i] = nn_int_value(e);
    }
    nn_pad_mode m;
    if (!strcmp(mode, "constant")) m = NN_PAD_CONSTANT;
    else if (!strcmp(mode, "reflect")) m = NN_PAD_REFLECT;
    else if (!strcmp(mode, "replicate")) m = NN_PAD_REPLICATE;
    else if (!strcmp(mode, "circular")) m = NN_PAD_CIRCULAR;
    else return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "Unrecognised padding mode %s", mode), NULL;
    bool has_value = a[3] && !nn_is_none(a[3]);
    if (has_value && m != NN_PAD_CONSTANT)
        return nn_error_set(NN_ERR_RUNTIME, "Padding mode \"%s\" doesn't take in value argument", mode), NULL;
    if (has_value && repl_arg_double("pad", "value", 4, a[3], &value)) return NULL;
    return (nn_object *)nn_pad(x, (int)n, pads, m, value);
}

/* F.dropout1d/2d/3d(input, p=0.5, training=True, inplace=False) and
   F.alpha_dropout/feature_alpha_dropout(input, p=0.5, training=False, inplace=False) */
static nn_object *dropout(const char *f, int kind, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_tensor *x = NULL;
    double p = 0.5;
    bool training = kind <= 3, inplace = false;
    if (repl_parse_args(f, "input, p=, training=, inplace=", args, kwargs, a) || repl_arg_tensor(f, "input", 1, a[0], &x) ||
        (a[1] && check_p(a[1]) < 0) || repl_arg_double(f, "p", 2, a[1], &p) ||
        repl_arg_bool(f, "training", 3, a[2], &training) || repl_arg_bool(f, "inplace", 4, a[3], &inplace))
        return NULL;
    if (kind <= 3) return (nn_object *)nn_dropout_nd(x, kind, p, training, inplace);
    return (nn_object *)nn_dropout_kind(x, p, training, kind == 5, true, inplace);
}
FN(dropout1d) { return dropout("dropout1d", 1, args, kwargs); }
FN(dropout2d) { return dropout("dropout2d", 2, args, kwargs); }
FN(dropout3d) { return dropout("dropout3d", 3, args, kwargs); }
FN(alpha_dropout) { return dropout("alpha_dropout", 4, args, kwargs); }
FN(feature_alpha_dropout) { return dropout("feature_alpha_dropout", 5, args, kwargs); }

static const repl_function_def functional[] = {
    {"selu", F_selu, "selu(input, inplace=False) -> Tensor\nApplies element-wise SELU(x) = scale * (max(0,x) + min(0, alpha * (exp(x) - 1)))."},
    {"selu_", F_selu_, "selu_(input) -> Tensor\nIn-place version of selu()."},
    {"glu", F_glu, "glu(input, dim=-1) -> Tensor\nThe gated linear unit: a * sigmoid(b), a and b the halves of input along dim."},
    {"rrelu", F_rrelu, "rrelu(input, lower=1./8, upper=1./3, training=False, inplace=False) -> Tensor\nRandomized leaky ReLU."},
    {"rrelu_", F_rrelu_, "rrelu_(input, lower=1./8, upper=1./3, training=False) -> Tensor\nIn-place version of rrelu()."},
    {"pad", F_pad, "pad(input, pad, mode=\"constant\", value=None) -> Tensor\nPads tensor (modes constant, reflect, replicate, circular)."},
    {"dropout1d", F_dropout1d, "dropout1d(input, p=0.5, training=True, inplace=False) -> Tensor\nRandomly zero out entire channels (1D feature maps)."},
    {"dropout2d", F_dropout2d, "dropout2d(input, p=0.5, training=True, inplace=False) -> Tensor\nRandomly zero out entire channels (2D feature maps)."},
    {"dropout3d", F_dropout3d, "dropout3d(input, p=0.5, training=True, inplace=False) -> Tensor\nRandomly zero out entire channels (3D feature maps)."},
    {"alpha_dropout", F_alpha_dropout, "alpha_dropout(input, p=0.5, training=False, inplace=False) -> Tensor\nApplies alpha dropout to the input."},
    {"feature_alpha_dropout", F_feature_alpha_dropout, "feature_alpha_dropout(input, p=0.5, training=False, inplace=False) -> Tensor\nRandomly masks out entire channels with SELU's negative saturation value."},
};

int repl_modules_more_functional(nn_object *fns)
{
    return repl_namespace_add_fns(fns, functional, sizeof functional / sizeof functional[0]);
}
