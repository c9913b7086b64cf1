/*
 * pool_modules.c — torch.nn's pooling modules (MaxPool1d/2d, AvgPool1d/2d,
 * AdaptiveAvgPool1d/2d, AdaptiveMaxPool2d) and the one entry point their
 * forwards and torch.nn.functional's pooling functions share
 * (nn_pool_call), which reads the sizes as Python objects (an int, or a
 * tuple/list of ints; None in an adaptive output size keeps the input's).
 * The ops themselves are in pool.c.
 */
#include <string.h>

#include "nn_int.h"
#include "nn_layers.h"

/* Python's bool(o) for the values a pooling flag takes. */
static bool truthy(const nn_object *o)
{
    if (!o || nn_is_none(o)) return false;
    if (nn_is_bool(o) || nn_is_int(o)) return nn_int_value(o) != 0;
    if (nn_is_float(o)) return nn_float_value(o) != 0;
    return true;
}

static const char *type_name(const nn_object *o) { return nn_is_none(o) ? "NoneType" : o->type->name; }

/* An int, or a tuple/list of 1 or n ints (None entries allowed when none_ok: -1),
   into out[n]. 0, or -1 with TypeError. */
static int sizes_of(const char *fn, const char *name, nn_object *o, int n, bool none_ok, int64_t *out)
{
    if (nn_is_int(o) || nn_is_bool(o)) {
        for (int i = 0; i < n; i++) out[i] = nn_int_value(o);
        return 0;
    }
    bool tuple = o && o->type == &nn_tuple_type, list = nn_is_list(o);
    size_t len = tuple ? nn_tuple_len(o) : list ? nn_list_len(o) : 0;
    if ((!tuple && !list) || (len != 1 && len != (size_t)n))
        return nn_error_set(NN_ERR_TYPE, "%s(): argument '%s' must be tuple of %d ints, but got %s", fn, name, n,
                            tuple || list ? "a sequence of another length" : type_name(o));
    for (int i = 0; i < n; i++) {
        nn_object *v = tuple ? nn_tuple_get(o, len == 1 ? 0 : (size_t)i) : nn_list_get(o, len == 1 ? 0 : (size_t)i);
        if (none_ok && nn_is_none(v)) out[i] = -1;
        else if (nn_is_int(v) || nn_is_bool(v)) out[i] = nn_int_value(v);
        else
            return nn_error_set(NN_ERR_TYPE, "%s(): argument '%s' must be tuple of ints, but found element of type %s "
                                "at pos %d", fn, name, type_name(v), i + 1);
    }
    return 0;
}

/* stride=None (or an empty sequence) means the kernel size. */
static bool absent(const nn_object *o)
{
    return !o || nn_is_none(o) || (o->type == &nn_tuple_type && nn_tuple_len(o) == 0) ||
           (nn_is_list(o) && nn_list_len(o) == 0);
}

/* (out, indices) when indices is set, else out; takes both. */
static nn_object *result(nn_tensor *out, nn_tensor *indices, bool with_indices)
{
    if (!out) {
        NN_RELEASE(indices);
        return NULL;
    }
    if (!with_indices) {
        NN_RELEASE(indices);
        return &out->ob;
    }
    nn_object *t = nn_tuple_pack(2, &out->ob, &indices->ob);
    NN_RELEASE(out);
    NN_RELEASE(indices);
    return t;
}

static const char *const fn_names[] = {
    [NN_POOL_MAX1D] = "max_pool1d", [NN_POOL_MAX2D] = "max_pool2d", [NN_POOL_AVG1D] = "avg_pool1d",
    [NN_POOL_AVG2D] = "avg_pool2d", [NN_POOL_ADAPTIVE_AVG1D] = "adaptive_avg_pool1d",
    [NN_POOL_ADAPTIVE_AVG2D] = "adaptive_avg_pool2d", [NN_POOL_ADAPTIVE_MAX2D] = "adaptive_max_pool2d",
};

nn_object *nn_pool_call(nn_pool_kind kind, nn_tensor *x, const nn_pool_args *a)
{
    const char *fn = fn_names[kind];
    int n = kind == NN_POOL_MAX1D || kind == NN_POOL_AVG1D || kind == NN_POOL_ADAPTIVE_AVG1D ? 1 : 2;
    int64_t k[2] = {0, 0}, s[2], p[2] = {0, 0}, d[2] = {1, 1};
    nn_tensor *indices = NULL, *out = NULL;
    if (kind == NN_POOL_ADAPTIVE_AVG1D || kind == NN_POOL_ADAPTIVE_AVG2D || kind == NN_POOL_ADAPTIVE_MAX2D) {
        if (sizes_of(fn, "output_size", a->kernel_size, n, true, k) < 0) return NULL;
        if (n == 1 && k[0] < 0)
            return nn_error_set(NN_ERR_TYPE, "%s(): argument 'output_size' must be tuple of ints, but found element of "
                                "type NoneType at pos 1", fn), NULL;
        if (n == 2 && x->ndim >= 2)
            for (int i = 0; i < 2; i++)
                if (k[i] < 0) k[i] = x->sizes[x->ndim - 2 + i];
        if (kind == NN_POOL_ADAPTIVE_AVG1D || kind == NN_POOL_ADAPTIVE_AVG2D) {
            nn_tensor *y = kind == NN_POOL_ADAPTIVE_AVG1D ? nn_adaptive_avg_pool1d(x, k[0]) : nn_adaptive_avg_pool2d(x, k);
            return y ? &y->ob : NULL;
        }
        out = nn_adaptive_max_pool2d(x, k, &indices);
        return result(out, indices, a->return_indices);
    }
    if (sizes_of(fn, "kernel_size", a->kernel_size, n, false, k) < 0 ||
        sizes_of(fn, "stride", absent(a->stride) ? a->kernel_size : a->stride, n, false, s) < 0 ||
        (a->padding && sizes_of(fn, "padding", a->padding, n, false, p) < 0) ||
        (a->dilation && sizes_of(fn, "dilation", a->dilation, n, false, d) < 0))
        return NULL;
    switch (kind) {
    case NN_POOL_MAX1D:
        out = nn_max_pool1d(x, k[0], s[0], p[0], d[0], a->ceil_mode, &indices);
        return result(out, indices, a->return_indices);
    case NN_POOL_MAX2D:
        out = nn_max_pool2d(x, k, s, p, d, a->ceil_mode, &indices);
        return result(out, indices, a->return_indices);
    case NN_POOL_AVG1D:
        return (nn_object *)nn_avg_pool1d(x, k[0], s[0], p[0], a->ceil_mode, a->count_include_pad);
    default:
        if (a->divisor_override == 0) return nn_error_set(NN_ERR_RUNTIME, "divisor must be not zero"), NULL;
        return (nn_object *)nn_avg_pool2d(x, k, s, p, a->ceil_mode, a->count_include_pad,
                                          a->divisor_override < 0 ? 0 : a->divisor_override);
    }
}

/* ----------------------------------------------------------------- modules */

static nn_object *attr(nn_module *m, const char *name)
{
    return nn_dict_get_str(m->attrs, name);
}

static nn_object *pool_forward(nn_module *m, nn_object *args, nn_object *kwargs, nn_pool_kind kind)
{
    nn_object *in = args && nn_tuple_len(args) == 1 ? nn_tuple_get(args, 0) : kwargs ? nn_dict_get_str(kwargs, "input") : NULL;
    size_t given = (args ? nn_tuple_len(args) : 0) + (kwargs ? nn_dict_len(kwargs) : 0);
    if (!in || given != 1)
        return nn_error_set(NN_ERR_TYPE, "forward() takes 2 positional arguments but %zu were given", given + 1), NULL;
    if (!nn_is_tensor(in))
        return nn_error_set(NN_ERR_TYPE, "%s(): argument 'input' (position 1) must be Tensor, not %s", fn_names[kind],
                            type_name(in)), NULL;
    nn_pool_args a = {.kernel_size = attr(m, kind >= NN_POOL_ADAPTIVE_AVG1D ? "output_size" : "kernel_size"),
                      .stride = attr(m, "stride"), .padding = attr(m, "padding"), .dilation = attr(m, "dilation"),
                      .ceil_mode = truthy(attr(m, "ceil_mode")), .return_indices = truthy(attr(m, "return_indices")),
                      .count_include_pad = truthy(attr(m, "count_include_pad")), .divisor_override = -1};
    nn_object *dv = attr(m, "divisor_override");
    if (dv && (nn_is_int(dv) || nn_is_bool(dv))) a.divisor_override = nn_int_value(dv);
    if (!a.kernel_size) return nn_error_set(NN_ERR_ATTRIBUTE, "pooling module without its sizes"), NULL;
    return nn_pool_call(kind, NN_TENSOR(in), &a);
}

/* extra_repr from a format of attribute names: "kernel_size={kernel_size}, ..." */
static char *attrs_repr(nn_module *m, const char *const *names)
{
    nn_text t = {0};
    for (int i = 0; names[i]; i++) {
        nn_object *v = attr(m, names[i]);
        nn_text_printf(&t, "%s%s=", i ? ", " : "", names[i]);
        if (v) nn_text_take(&t, nn_repr(v));
        else nn_text_puts(&t, "None");
    }
    return nn_text_finish(&t);
}

static const char *const max_names[] = {"kernel_size", "stride", "padding", "dilation", "ceil_mode", NULL};
static const char *const avg_names[] = {"kernel_size", "stride", "padding", NULL};
static const char *const adaptive_names[] = {"output_size", NULL};
static char *max_repr(nn_module *m) { return attrs_repr(m, max_names); }
static char *avg_repr(nn_module *m) { return attrs_repr(m, avg_names); }
static char *adaptive_repr(nn_module *m) { return attrs_repr(m, adaptive_names); }

#define POOL_CLASS(var, NAME, kind, repr, BASE)                                                  \
    static nn_object *var##_forward(nn_module *m, nn_object *args, nn_object *kwargs)           \
    {                                                                                            \
        return pool_forward(m, args, kwargs, kind);                                              \
    }                                                                                            \
    const nn_module_class var = {.name = NAME, .forward = var##_forward, .extra_repr = repr, .base = BASE};
POOL_CLASS(nn_max_pool1d_class, "MaxPool1d", NN_POOL_MAX1D, max_repr, &nn_max_poolnd_class)
POOL_CLASS(nn_max_pool2d_class, "MaxPool2d", NN_POOL_MAX2D, max_repr, &nn_max_poolnd_class)
POOL_CLASS(nn_avg_pool1d_class, "AvgPool1d", NN_POOL_AVG1D, avg_repr, &nn_avg_poolnd_class)
POOL_CLASS(nn_avg_pool2d_class, "AvgPool2d", NN_POOL_AVG2D, avg_repr, &nn_avg_poolnd_class)
POOL_CLASS(nn_adaptive_avg_pool1d_class, "AdaptiveAvgPool1d", NN_POOL_ADAPTIVE_AVG1D, adaptive_repr,
           &nn_adaptive_avg_poolnd_class)
POOL_CLASS(nn_adaptive_avg_pool2d_class, "AdaptiveAvgPool2d", NN_POOL_ADAPTIVE_AVG2D, adaptive_repr,
           &nn_adaptive_avg_poolnd_class)
POOL_CLASS(nn_adaptive_max_pool2d_class, "AdaptiveMaxPool2d", NN_POOL_ADAPTIVE_MAX2D, adaptive_repr,
           &nn_adaptive_max_poolnd_class)

nn_module *nn_pool_module_new(const nn_module_class *cls, int n, const char *const *names, nn_object *const *values)
{
    nn_module *m = nn_module_new(cls);
    for (int i = 0; m && i < n; i++)
        if (nn_module_setattr(m, names[i], values[i] ? values[i] : nn_none()) < 0) NN_SET(m, NULL);
    return m;
}
