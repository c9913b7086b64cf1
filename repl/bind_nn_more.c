/*
 * bind_nn_more.c — more of torch.nn in the language: the pooling modules and
 * their torch.nn.functional forms, and the legacy size_average= / reduce=
 * arguments of the losses. Modules and ops live in core (pool.c,
 * pool_modules.c); this file parses PyTorch's constructor and function
 * signatures into them.
 */
#include <stdio.h>
#include <string.h>

#include "bind_int.h"

#define ARGS(n) nn_object *a[n] = {0}
#define CTOR(name) static nn_object *c_##name(void *ud, nn_object *args, nn_object *kwargs)
#define FN(name) static nn_object *F_##name(void *ud, nn_object *args, nn_object *kwargs)

/* ------------------------------------------------------- legacy reduction */

static bool flag(nn_object *o)
{
    if (nn_is_bool(o) || nn_is_int(o)) return nn_int_value(o) != 0;
    if (nn_is_float(o)) return nn_float_value(o) != 0;
    return !nn_is_none(o);
}

int repl_legacy_reduction(nn_object *size_average, nn_object *reduce, const char **red)
{
    bool has_sa = size_average && !nn_is_none(size_average), has_r = reduce && !nn_is_none(reduce);
    if (!has_sa && !has_r) return 0;
    bool sa = has_sa ? flag(size_average) : true, r = has_r ? flag(reduce) : true;
    *red = sa && r ? "mean" : r ? "sum" : "none";
    /* warnings.warn in PyTorch 1.13's torch/nn/_reduction.py (legacy_get_string), so the
       default filter shows it once per run and "error" raises it */
    static const nn_warn_place reduction_py = {"torch.nn._reduction", "torch/nn/_reduction.py", 42};
    return nn_warn_at(&reduction_py, "UserWarning",
                      "size_average and reduce args will be deprecated, please use reduction='%s' instead.", *red) < 0
               ? -1
               : 0;
}

/* ------------------------------------------------------------- pooling */

/* A pooling module of cls from n values (new references, NULL = None), which it releases. */
static nn_object *pool_module(const nn_module_class *cls, int n, const char *const *names, nn_object **values)
{
    bool ok = true;
    for (int i = 0; i < n; i++) ok &= values[i] != NULL;
    nn_module *m = ok ? nn_pool_module_new(cls, n, names, values) : NULL;
    for (int i = 0; i < n; i++) NN_RELEASE(values[i]);
    return (nn_object *)m;
}

/* o retained, or a new int v when o is absent */
static nn_object *or_int(nn_object *o, int64_t v) { return o ? nn_retain(o) : nn_int_new(v); }
static nn_object *or_bool(nn_object *o, bool v) { return o ? nn_retain(o) : nn_bool_new(v); }
/* stride=None stores the kernel size */
static nn_object *stride_of(nn_object *stride, nn_object *kernel)
{
    return nn_retain(stride && !nn_is_none(stride) ? stride : kernel);
}

/* torch.nn.modules.utils._single: a sequence as a tuple, a number as a 1-tuple. */
static nn_object *single(nn_object *o)
{
    if (o->type == &nn_tuple_type) return nn_retain(o);
    if (nn_is_list(o)) {
        size_t n = nn_list_len(o);
        nn_object *t = nn_tuple_new(n);
        for (size_t i = 0; t && i < n; i++) nn_tuple_set(t, i, nn_retain(nn_list_get(o, i)));
        return t;
    }
    return nn_tuple_pack(1, o);
}

static nn_object *max_pool_ctor(const char *f, const nn_module_class *cls, nn_object *args, nn_object *kwargs)
{
    ARGS(6);
    if (repl_parse_args(f, "self, kernel_size, stride=, padding=, dilation=, return_indices=, ceil_mode=", args, kwargs,
                        a))
        return NULL;
    static const char *const names[] = {"kernel_size", "stride", "padding", "dilation", "return_indices", "ceil_mode"};
    nn_object *v[6] = {nn_retain(a[0]), stride_of(a[1], a[0]), or_int(a[2], 0), or_int(a[3], 1), or_bool(a[4], false),
                       or_bool(a[5], false)};
    return pool_module(cls, 6, names, v);
}

CTOR(MaxPool1d) { return max_pool_ctor("MaxPool1d.__init__", &nn_max_pool1d_class, args, kwargs); }
CTOR(MaxPool2d) { return max_pool_ctor("MaxPool2d.__init__", &nn_max_pool2d_class, args, kwargs); }

CTOR(AvgPool1d)
{
    ARGS(5);
    if (repl_parse_args("AvgPool1d.__init__", "self, kernel_size, stride=, padding=, ceil_mode=, count_include_pad=",
                        args, kwargs, a))
        return NULL;
    static const char *const names[] = {"kernel_size", "stride", "padding", "ceil_mode", "count_include_pad"};
    nn_object *stride = stride_of(a[1], a[0]), *pad = or_int(a[2], 0);
    nn_object *v[5] = {single(a[0]), stride ? single(stride) : NULL, pad ? single(pad) : NULL, or_bool(a[3], false),
                       or_bool(a[4], true)};
    NN_RELEASE(stride);
    NN_RELEASE(pad);
    return pool_module(&nn_avg_pool1d_class, 5, names, v);
}

CTOR(AvgPool2d)
{
    ARGS(6);
    if (repl_parse_args("AvgPool2d.__init__",
                        "self, kernel_size, stride=, padding=, ceil_mode=, count_include_pad=, divisor_override=", args,
                        kwargs, a))
        return NULL;
    static const char *const names[] = {"kernel_size", "stride", "padding", "ceil_mode", "count_include_pad",
                                        "divisor_override"};
    nn_object *v[6] = {nn_retain(a[0]), stride_of(a[1], a[0]), or_int(a[2], 0), or_bool(a[3], false),
                       or_bool(a[4], true), nn_retain(a[5] ? a[5] : nn_none())};
    return pool_module(&nn_avg_pool2d_class, 6, names, v);
}

static nn_object *adaptive_ctor(const char *f, const nn_module_class *cls, bool with_indices, nn_object *args,
                                nn_object *kwargs)
{
    ARGS(2);
    if (repl_parse_args(f, with_indices ? "self, output_size, return_indices=" : "self, output_size", args, kwargs, a))
        return NULL;
    static const char *const names[] = {"output_size", "return_indices"};
    nn_object *v[2] = {nn_retain(a[0]), with_indices ? or_bool(a[1], false) : NULL};
    return pool_module(cls, with_indices ? 2 : 1, names, v);
}

CTOR(AdaptiveAvgPool1d)
{
    return adaptive_ctor("AdaptiveAvgPool1d.__init__", &nn_adaptive_avg_pool1d_class, false, args, kwargs);
}
CTOR(AdaptiveAvgPool2d)
{
    return adaptive_ctor("AdaptiveAvgPool2d.__init__", &nn_adaptive_avg_pool2d_class, false, args, kwargs);
}
CTOR(AdaptiveMaxPool2d)
{
    return adaptive_ctor("AdaptiveMaxPool2d.__init__", &nn_adaptive_max_pool2d_class, true, args, kwargs);
}

#define NNCLASS(N, Q, C, DOC) {#N, "torch.nn.modules." Q "." #N, c_##N, NULL, &C, DOC, repl_module_method_at}
static const repl_class_def classes[] = {
    NNCLASS(MaxPool1d, "pooling", nn_max_pool1d_class,
            "MaxPool1d(kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False)\n"
            "Applies a 1D max pooling over an input signal composed of several input planes."),
    NNCLASS(MaxPool2d, "pooling", nn_max_pool2d_class,
            "MaxPool2d(kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False)\n"
            "Applies a 2D max pooling over an input signal composed of several input planes."),
    NNCLASS(AvgPool1d, "pooling", nn_avg_pool1d_class,
            "AvgPool1d(kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True)\n"
            "Applies a 1D average pooling over an input signal composed of several input planes."),
    NNCLASS(AvgPool2d, "pooling", nn_avg_pool2d_class,
            "AvgPool2d(kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None)\n"
            "Applies a 2D average pooling over an input signal composed of several input planes."),
    NNCLASS(AdaptiveAvgPool1d, "pooling", nn_adaptive_avg_pool1d_class,
            "AdaptiveAvgPool1d(output_size)\n"
            "Applies a 1D adaptive average pooling over an input signal composed of several input planes."),
    NNCLASS(AdaptiveAvgPool2d, "pooling", nn_adaptive_avg_pool2d_class,
            "AdaptiveAvgPool2d(output_size)\n"
            "Applies a 2D adaptive average pooling over an input signal composed of several input planes."),
    NNCLASS(AdaptiveMaxPool2d, "pooling", nn_adaptive_max_pool2d_class,
            "AdaptiveMaxPool2d(output_size, return_indices=False)\n"
            "Applies a 2D adaptive max pooling over an input signal composed of several input planes."),
};
#undef NNCLASS

int repl_namespace_add_classes(nn_object *ns, const repl_class_def *defs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        nn_object *c = repl_class_new(&defs[i]);
        int rc = c ? repl_namespace_set(ns, defs[i].name, c) : -1;
        NN_RELEASE(c);
        if (rc) return -1;
    }
    return 0;
}

int repl_nn_more_classes(nn_object *nn)
{
    return repl_namespace_add_classes(nn, classes, sizeof classes / sizeof classes[0]);
}

/* F.<kind>(input, ...) with PyTorch's signature spec; the flags parsed by name. */
static nn_object *fpool(const char *f, const char *spec, nn_pool_kind kind, nn_object *args, nn_object *kwargs)
{
    ARGS(8);
    nn_tensor *x = NULL;
    if (repl_parse_args(f, spec, args, kwargs, a) || repl_arg_tensor(f, "input", 1, a[0], &x)) return NULL;
    nn_pool_args p = {.kernel_size = a[1], .divisor_override = -1, .count_include_pad = true};
    bool flags[3] = {false, false, true}; /* ceil_mode, return_indices, count_include_pad */
    switch (kind) {
    case NN_POOL_MAX1D: case NN_POOL_MAX2D: /* input, kernel_size, stride, padding, dilation, ceil_mode, return_indices */
        p.stride = a[2], p.padding = a[3], p.dilation = a[4];
        if (repl_arg_bool(f, "ceil_mode", 6, a[5], &flags[0]) || repl_arg_bool(f, "return_indices", 7, a[6], &flags[1]))
            return NULL;
        break;
    case NN_POOL_AVG1D: case NN_POOL_AVG2D: /* input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor */
        p.stride = a[2], p.padding = a[3];
        if (repl_arg_bool(f, "ceil_mode", 5, a[4], &flags[0]) ||
            repl_arg_bool(f, "count_include_pad", 6, a[5], &flags[2]) ||
            repl_arg_int(f, "divisor_override", 7, a[6], &p.divisor_override))
            return NULL;
        break;
    case NN_POOL_ADAPTIVE_MAX2D:
        if (repl_arg_bool(f, "return_indices", 3, a[2], &flags[1])) return NULL;
        break;
    default:
        break;
    }
    p.ceil_mode = flags[0], p.return_indices = flags[1], p.count_include_pad = flags[2];
    return nn_pool_call(kind, x, &p);
}

#define MAXSPEC "input, kernel_size, stride=, padding=, dilation=, ceil_mode=, return_indices="
#define AVGSPEC "input, kernel_size, stride=, padding=, ceil_mode=, count_include_pad="
FN(max_pool1d) { return fpool("max_pool1d", MAXSPEC, NN_POOL_MAX1D, args, kwargs); }
FN(max_pool2d) { return fpool("max_pool2d", MAXSPEC, NN_POOL_MAX2D, args, kwargs); }
FN(avg_pool1d) { return fpool("avg_pool1d", AVGSPEC, NN_POOL_AVG1D, args, kwargs); }
FN(avg_pool2d) { return fpool("avg_pool2d", AVGSPEC ", divisor_override=", NN_POOL_AVG2D, args, kwargs); }
FN(adaptive_avg_pool1d) { return fpool("adaptive_avg_pool1d", "input, output_size", NN_POOL_ADAPTIVE_AVG1D, args, kwargs); }
FN(adaptive_avg_pool2d) { return fpool("adaptive_avg_pool2d", "input, output_size", NN_POOL_ADAPTIVE_AVG2D, args, kwargs); }
FN(adaptive_max_pool2d)
{
    return fpool("adaptive_max_pool2d", "input, output_size, return_indices=", NN_POOL_ADAPTIVE_MAX2D, args, kwargs);
}

static const repl_function_def functional[] = {
    {"max_pool1d", F_max_pool1d,
     "max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False)\n"
     "Applies a 1D max pooling over an input signal composed of several input planes."},
    {"max_pool2d", F_max_pool2d,
     "max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False)\n"
     "Applies a 2D max pooling over an input signal composed of several input planes."},
    {"avg_pool1d", F_avg_pool1d,
     "avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True) -> Tensor\n"
     "Applies a 1D average pooling over an input signal composed of several input planes."},
    {"avg_pool2d", F_avg_pool2d,
     "avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None) -> Tensor\n"
     "Applies 2D average-pooling operation in kH x kW regions by step size sH x sW steps."},
    {"adaptive_avg_pool1d", F_adaptive_avg_pool1d,
     "adaptive_avg_pool1d(input, output_size) -> Tensor\n"
     "Applies a 1D adaptive average pooling over an input signal composed of several input planes."},
    {"adaptive_avg_pool2d", F_adaptive_avg_pool2d,
     "adaptive_avg_pool2d(input, output_size)\n"
     "Applies a 2D adaptive average pooling over an input signal composed of several input planes."},
    {"adaptive_max_pool2d", F_adaptive_max_pool2d,
     "adaptive_max_pool2d(input, output_size, return_indices=False)\n"
     "Applies a 2D adaptive max pooling over an input signal composed of several input planes."},
};

int repl_nn_more_functional(nn_object *fns)
{
    return repl_namespace_add_fns(fns, functional, sizeof functional / sizeof functional[0]);
}
