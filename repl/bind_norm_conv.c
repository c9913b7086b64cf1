/*
 * bind_norm_conv.c — torch.nn classes and functional forms of
 * core/norms_more.c, conv_more.c, upsample.c and unpool.c: GroupNorm,
 * InstanceNorm1d/2d/3d, Conv1d, ConvTranspose1d/2d, Upsample,
 * UpsamplingNearest2d, UpsamplingBilinear2d, MaxUnpool2d; F.group_norm,
 * F.instance_norm, F.batch_norm, F.conv1d, F.conv_transpose1d/2d,
 * F.interpolate, F.upsample, F.upsample_nearest, F.upsample_bilinear,
 * F.max_unpool2d. Constructors check and store their arguments as PyTorch's
 * __init__ does.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bind_int.h"
#include "nn_mod_more.h"

#define ARGS(n) nn_object *a[n] = {0}
#define CTOR(name) static nn_object *c_##name(void *ud, nn_object *args, nn_object *kwargs)
#define FN(name) static nn_object *F_##name(void *ud, nn_object *args, nn_object *kwargs)

static nn_dtype dtype_or_default(int dt) { return dt < 0 ? nn_default_dtype() : (nn_dtype)dt; }

/* an optional tensor argument (None or absent: NULL) */
static int opt_tensor(const char *f, const char *name, int pos, nn_object *o, nn_tensor **out)
{
    *out = NULL;
    if (!o || nn_is_none(o)) return 0;
    return repl_arg_tensor(f, name, pos, o, out);
}

/* ---------------------------------------------------------------- norms */

CTOR(GroupNorm)
{
    ARGS(6);
    const char *f = "GroupNorm.__init__";
    int64_t groups = 0, channels = 0;
    double eps = 1e-5;
    bool affine = true;
    int dt = -1;
    if (repl_parse_args(f, "self, num_groups, num_channels, eps=, affine=, device=, dtype=", args, kwargs, a) ||
        repl_arg_int(f, "num_groups", 1, a[0], &groups) || repl_arg_int(f, "num_channels", 2, a[1], &channels) ||
        repl_arg_double(f, "eps", 3, a[2], &eps) || repl_arg_bool(f, "affine", 4, a[3], &affine) ||
        repl_arg_device(f, a[4]) || repl_arg_dtype(f, "dtype", 0, a[5], &dt))
        return NULL;
    return (nn_object *)nn_group_norm_new(groups, channels, eps, affine, dtype_or_default(dt));
}

static nn_object *instance_norm_ctor(int nd, nn_object *args, nn_object *kwargs)
{
    ARGS(7);
    char f[64];
    snprintf(f, sizeof f, "InstanceNorm%dd.__init__", nd);
    int64_t features = 0;
    double eps = 1e-5, momentum = 0.1;
    bool affine = false, track = false;
    int dt = -1;
    if (repl_parse_args(f, "self, num_features, eps=, momentum=, affine=, track_running_stats=, device=, dtype=", args,
                        kwargs, a) ||
        repl_arg_int(f, "num_features", 1, a[0], &features) || repl_arg_double(f, "eps", 2, a[1], &eps) ||
        repl_arg_double(f, "momentum", 3, a[2], &momentum) || repl_arg_bool(f, "affine", 4, a[3], &affine) ||
        repl_arg_bool(f, "track_running_stats", 5, a[4], &track) || repl_arg_device(f, a[5]) ||
        repl_arg_dtype(f, "dtype", 0, a[6], &dt))
        return NULL;
    if (a[2] && nn_is_none(a[2])) momentum = NAN;
    return (nn_object *)nn_instance_norm_new(nd, features, eps, momentum, affine, track, dtype_or_default(dt));
}
CTOR(InstanceNorm1d) { return instance_norm_ctor(1, args, kwargs); }
CTOR(InstanceNorm2d) { return instance_norm_ctor(2, args, kwargs); }
CTOR(InstanceNorm3d) { return instance_norm_ctor(3, args, kwargs); }

FN(group_norm)
{
    ARGS(5);
    const char *f = "group_norm";
    nn_tensor *x = NULL, *w = NULL, *b = NULL;
    int64_t groups = 0;
    double eps = 1e-5;
    if (repl_parse_args(f, "input, num_groups, weight=, bias=, eps=", args, kwargs, a) ||
        repl_arg_tensor(f, "input", 1, a[0], &x) || repl_arg_int(f, "num_groups", 2, a[1], &groups) ||
        opt_tensor(f, "weight", 3, a[2], &w) || opt_tensor(f, "bias", 4, a[3], &b) || repl_arg_double(f, "eps", 5, a[4], &eps))
        return NULL;
    if (x->ndim < 2)
        return nn_error_set(NN_ERR_RUNTIME, "Expected at least 2 dimensions for input tensor but received %d", x->ndim),
               NULL;
    /* _verify_batch_size([N * C // G, G] + spatial) */
    int64_t prod = groups ? x->sizes[0] * x->sizes[1] / groups : 0;
    for (int d = 2; d < x->ndim; d++) prod *= x->sizes[d];
    if (prod == 1) {
        char s[128] = "[", *p = s + 1;
        int64_t v[NN_MAX_DIMS + 1];
        v[0] = x->sizes[0] * x->sizes[1] / groups, v[1] = groups;
        for (int d = 2; d < x->ndim; d++) v[d] = x->sizes[d];
        for (int d = 0; d < x->ndim; d++) p += snprintf(p, sizeof s - (size_t)(p - s), "%s%lld", d ? ", " : "", (long long)v[d]);
        snprintf(p, sizeof s - (size_t)(p - s), "]");
        return nn_error_set(NN_ERR_VALUE, "Expected more than 1 value per channel when training, got input size %s", s),
               NULL;
    }
    return (nn_object *)nn_group_norm(x, groups, w, b, eps);
}

FN(instance_norm)
{
    ARGS(8);
    const char *f = "instance_norm";
    nn_tensor *x = NULL, *rm = NULL, *rv = NULL, *w = NULL, *b = NULL;
    bool use = true;
    double momentum = 0.1, eps = 1e-5;
    if (repl_parse_args(f, "input, running_mean=, running_var=, weight=, bias=, use_input_stats=, momentum=, eps=", args,
                        kwargs, a) ||
        repl_arg_tensor(f, "input", 1, a[0], &x) || opt_tensor(f, "running_mean", 2, a[1], &rm) ||
        opt_tensor(f, "running_var", 3, a[2], &rv) || opt_tensor(f, "weight", 4, a[3], &w) ||
        opt_tensor(f, "bias", 5, a[4], &b) || repl_arg_bool(f, "use_input_stats", 6, a[5], &use) ||
        repl_arg_double(f, "momentum", 7, a[6], &momentum) || repl_arg_double(f, "eps", 8, a[7], &eps))
        return NULL;
    return (nn_object *)nn_instance_norm(x, rm, rv, w, b, use, momentum, eps);
}

FN(batch_norm)
{
    ARGS(8);
    const char *f = "batch_norm";
    nn_tensor *x = NULL, *rm = NULL, *rv = NULL, *w = NULL, *b = NULL;
    bool training = false;
    double momentum = 0.1, eps = 1e-5;
    if (repl_parse_args(f, "input, running_mean, running_var, weight=, bias=, training=, momentum=, eps=", args, kwargs,
                        a) ||
        repl_arg_tensor(f, "input", 1, a[0], &x) || opt_tensor(f, "running_mean", 2, a[1], &rm) ||
        opt_tensor(f, "running_var", 3, a[2], &rv) || opt_tensor(f, "weight", 4, a[3], &w) ||
        opt_tensor(f, "bias", 5, a[4], &b) || repl_arg_bool(f, "training", 6, a[5], &training) ||
        repl_arg_double(f, "momentum", 7, a[6], &momentum) || repl_arg_double(f, "eps", 8, a[7], &eps))
        return NULL;
    if (!training && (!rm || !rv))
        return nn_error_set(NN_ERR_RUNTIME, "%s must be defined in evaluation mode", rm ? "running_var" : "running_mean"),
               NULL;
    if (training) {
        /* _verify_batch_size(input.size()) */
        int64_t prod = x->ndim > 0 ? x->sizes[0] : 1;
        for (int d = 2; d < x->ndim; d++) prod *= x->sizes[d];
        if (prod == 1 && x->ndim >= 2) {
            char s[128];
            return nn_error_set(NN_ERR_VALUE, "Expected more than 1 value per channel when training, got input size "
                                "torch.Size(%s)", nn_shape_str(x->ndim, x->sizes, s, sizeof s)),
                   NULL;
        }
    }
    return (nn_object *)nn_batch_norm(x, rm, rv, w, b, training, momentum, eps);
}

/* ----------------------------------------------------------------- conv */

/* an int or a sequence of n ints (conv's _single/_pair) into v */
static int int_tuple(const char *f, const char *name, int pos, nn_object *o, int n, int64_t *v)
{
    if (!o) return 0;
    if (nn_is_int(o) && !nn_is_bool(o)) {
        if (repl_arg_int(f, name, pos, o, &v[0])) return -1;
        for (int i = 1; i < n; i++) v[i] = v[0];
        return 0;
    }
    int k = 0;
    int64_t sizes[NN_MAX_DIMS];
    if (repl_arg_shape(f, name, o, &k, sizes)) return -1;
    if (k != n)
        return nn_error_set(NN_ERR_RUNTIME, "expected %s to be a single integer value or a list of %d values to match "
                            "the convolution dimensions, but got %s=[%d values]", name, n, name, k);
    for (int i = 0; i < n; i++) v[i] = sizes[i];
    return 0;
}

static nn_object *conv_ctor(int which, nn_object *args, nn_object *kwargs)
{
    /* which: conv_more.c's Conv1d (0), ConvTranspose1d (1), ConvTranspose2d (2); 3 for Conv2d */
    static const char *const names[4] = {"Conv1d", "ConvTranspose1d", "ConvTranspose2d", "Conv2d"};
    static const int dims_of[4] = {1, 1, 2, 2};
    ARGS(12);
    char f[64];
    snprintf(f, sizeof f, "%s.__init__", names[which]);
    int n = dims_of[which];
    bool transposed = which == 1 || which == 2;
    nn_conv_spec s = {.groups = 1, .stride = {1, 1}, .dilation = {1, 1}, .padding_mode = "zeros", .bias = true};
    int dt = -1;
    int rc = transposed ? repl_parse_args(f, "self, in_channels, out_channels, kernel_size, stride=, padding=, "
                                             "output_padding=, groups=, bias=, dilation=, padding_mode=, device=, dtype=",
                                          args, kwargs, a)
                        : repl_parse_args(f, "self, in_channels, out_channels, kernel_size, stride=, padding=, dilation=, "
                                             "groups=, bias=, padding_mode=, device=, dtype=",
                                          args, kwargs, a);
    if (rc) return NULL;
    /* the argument slots of the two signatures */
    nn_object *a_out = transposed ? a[5] : NULL, *a_groups = a[6], *a_bias = a[7];
    nn_object *a_dil = transposed ? a[8] : a[5], *a_mode = transposed ? a[9] : a[8], *a_dev = transposed ? a[10] : a[9];
    nn_object *a_dt = transposed ? a[11] : a[10];
    if (repl_arg_int(f, "in_channels", 1, a[0], &s.in) || repl_arg_int(f, "out_channels", 2, a[1], &s.out) ||
        int_tuple(f, "kernel_size", 3, a[2], n, s.kernel) || int_tuple(f, "stride", 4, a[3], n, s.stride) ||
        int_tuple(f, "dilation", 0, a_dil, n, s.dilation) || int_tuple(f, "output_padding", 0, a_out, n, s.output_padding) ||
        repl_arg_int(f, "groups", 0, a_groups, &s.groups) || repl_arg_bool(f, "bias", 0, a_bias, &s.bias) ||
        repl_arg_str(f, "padding_mode", 0, a_mode, &s.padding_mode) || repl_arg_device(f, a_dev) ||
        repl_arg_dtype(f, "dtype", 0, a_dt, &dt))
        return NULL;
    if (!transposed && a[4] && nn_is_str(a[4])) s.padding_str = nn_str_cstr(a[4]);
    else if (int_tuple(f, "padding", 5, a[4], n, s.padding)) return NULL;
    s.dtype = dtype_or_default(dt);
    return (nn_object *)(which == 3 ? nn_conv2d_module_new(&s) : nn_conv_more_new(which, &s));
}
CTOR(Conv1d) { return conv_ctor(0, args, kwargs); }
CTOR(ConvTranspose1d) { return conv_ctor(1, args, kwargs); }
CTOR(ConvTranspose2d) { return conv_ctor(2, args, kwargs); }
CTOR(Conv2d) { return conv_ctor(3, args, kwargs); }

/* F.conv1d / F.conv2d (dims 1 or 2): padding numbers, or 'valid' / 'same' */
static nn_object *conv_fn(int dims, nn_object *args, nn_object *kwargs)
{
    ARGS(7);
    const char *f = dims == 1 ? "conv1d" : "conv2d";
    nn_tensor *x = NULL, *w = NULL, *b = NULL;
    int64_t stride[3] = {1, 1, 1}, padding[3] = {0, 0, 0}, dilation[3] = {1, 1, 1}, groups = 1; /* 3: nn_conv_nd's */
    if (repl_parse_args(f, "input, weight, bias=, stride=, padding=, dilation=, groups=", args, kwargs, a) ||
        repl_arg_tensor(f, "input", 1, a[0], &x) || repl_arg_tensor(f, "weight", 2, a[1], &w) ||
        opt_tensor(f, "bias", 3, a[2], &b) || int_tuple(f, "stride", 4, a[3], dims, stride) ||
        int_tuple(f, "dilation", 6, a[5], dims, dilation) || repl_arg_int(f, "groups", 7, a[6], &groups))
        return NULL;
    if (a[4] && nn_is_str(a[4]))
        return (nn_object *)nn_conv_str(dims, x, w, b, nn_str_cstr(a[4]), stride, dilation, groups);
    if (int_tuple(f, "padding", 5, a[4], dims, padding)) return NULL;
    return (nn_object *)nn_conv_nd(dims, x, w, b, stride, padding, dilation, groups);
}
FN(conv1d) { return conv_fn(1, args, kwargs); }
FN(conv2d) { return conv_fn(2, args, kwargs); }

static nn_object *conv_transpose(int dims, nn_object *args, nn_object *kwargs)
{
    ARGS(8);
    const char *f = dims == 1 ? "conv_transpose1d" : "conv_transpose2d";
    nn_tensor *x = NULL, *w = NULL, *b = NULL;
    int64_t stride[2] = {1, 1}, padding[2] = {0, 0}, outpad[2] = {0, 0}, dilation[2] = {1, 1}, groups = 1;
    if (repl_parse_args(f, "input, weight, bias=, stride=, padding=, output_padding=, groups=, dilation=", args, kwargs,
                        a) ||
        repl_arg_tensor(f, "input", 1, a[0], &x) || repl_arg_tensor(f, "weight", 2, a[1], &w) ||
        opt_tensor(f, "bias", 3, a[2], &b) || int_tuple(f, "stride", 4, a[3], dims, stride) ||
        int_tuple(f, "padding", 5, a[4], dims, padding) || int_tuple(f, "output_padding", 6, a[5], dims, outpad) ||
        repl_arg_int(f, "groups", 7, a[6], &groups) || int_tuple(f, "dilation", 8, a[7], dims, dilation))
        return NULL;
    return (nn_object *)nn_conv_transpose(dims, x, w, b, stride, padding, outpad, groups, dilation);
}
FN(conv_transpose1d) { return conv_transpose(1, args, kwargs); }
FN(conv_transpose2d) { return conv_transpose(2, args, kwargs); }

/* ------------------------------------------------------------- upsample */

static nn_object *upsample_ctor(const char *cls, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    char f[64];
    snprintf(f, sizeof f, "%s.__init__", cls);
    bool full = !strcmp(cls, "Upsample");
    if (repl_parse_args(f, full ? "self, size=, scale_factor=, mode=, align_corners=, recompute_scale_factor="
                                : "self, size=, scale_factor=",
                        args, kwargs, a))
        return NULL;
    nn_object *sf = a[1];
    nn_object *scale = NULL;
    if (sf && nn_is_instance(sf, &nn_tuple_type)) {
        size_t n = nn_tuple_len(sf);
        scale = nn_tuple_new(n);
        for (size_t i = 0; scale && i < n; i++) {
            double v = 0;
            if (repl_arg_double(f, "scale_factor", 0, nn_tuple_get(sf, i), &v)) {
                NN_RELEASE(scale);
                return NULL;
            }
            nn_object *e = nn_float_new(v);
            if (!e) NN_SET(scale, NULL);
            else nn_tuple_set(scale, i, e);
        }
    } else if (sf && !nn_is_none(sf) && (nn_is_bool(sf) || nn_is_int(sf) ? nn_int_value(sf) != 0 : !nn_is_float(sf) || nn_float_value(sf) != 0)) {
        /* float(scale_factor) if scale_factor else None */
        double v = 0;
        if (repl_arg_double(f, "scale_factor", 0, sf, &v)) return NULL;
        scale = nn_float_new(v);
    } else {
        scale = nn_retain(nn_none());
    }
    const char *mode = !strcmp(cls, "UpsamplingBilinear2d") ? "bilinear" : "nearest";
    if (full && a[2] && repl_arg_str(f, "mode", 3, a[2], &mode)) {
        NN_RELEASE(scale);
        return NULL;
    }
    static const char *const names[] = {"name", "size", "scale_factor", "mode", "align_corners", "recompute_scale_factor"};
    nn_object *v[] = {nn_str_new(cls),
                      a[0] ? nn_retain(a[0]) : nn_retain(nn_none()),
                      scale,
                      nn_str_new(mode),
                      full ? (a[3] ? nn_retain(a[3]) : nn_retain(nn_none()))
                           : !strcmp(cls, "UpsamplingBilinear2d") ? nn_bool_new(true) : nn_retain(nn_none()),
                      full && a[4] ? nn_retain(a[4]) : nn_retain(nn_none())};
    bool ok = true;
    for (int i = 0; i < 6; i++) ok &= v[i] != NULL;
    nn_module *m = ok ? nn_more_module_new(cls, 6, names, v) : NULL;
    for (int i = 0; i < 6; i++) NN_RELEASE(v[i]);
    return (nn_object *)m;
}
CTOR(Upsample) { return upsample_ctor("Upsample", args, kwargs); }
CTOR(UpsamplingNearest2d) { return upsample_ctor("UpsamplingNearest2d", args, kwargs); }
CTOR(UpsamplingBilinear2d) { return upsample_ctor("UpsamplingBilinear2d", args, kwargs); }

FN(interpolate)
{
    ARGS(7);
    const char *f = "interpolate", *mode = "nearest";
    nn_tensor *x = NULL;
    bool antialias = false;
    if (repl_parse_args(f, "input, size=, scale_factor=, mode=, align_corners=, recompute_scale_factor=, antialias=",
                        args, kwargs, a) ||
        repl_arg_tensor(f, "input", 1, a[0], &x) || repl_arg_str(f, "mode", 4, a[3], &mode) ||
        repl_arg_bool(f, "antialias", 7, a[6], &antialias))
        return NULL;
    if (antialias) return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "interpolate: antialias=True is not supported"), NULL;
    return (nn_object *)nn_interpolate(x, a[1], a[2], mode, a[4], a[5]);
}

FN(upsample)
{
    ARGS(5);
    const char *f = "upsample", *mode = "nearest";
    nn_tensor *x = NULL;
    if (repl_parse_args(f, "input, size=, scale_factor=, mode=, align_corners=", args, kwargs, a) ||
        repl_arg_tensor(f, "input", 1, a[0], &x) || repl_arg_str(f, "mode", 4, a[3], &mode))
        return NULL;
    static const nn_warn_place upsample_py = {"torch.nn.functional", "torch/nn/functional.py", 3734}; /* PyTorch's */
    if (nn_warn_at(&upsample_py, "UserWarning",
                   "nn.functional.upsample is deprecated. Use nn.functional.interpolate instead.") < 0)
        return NULL;
    return (nn_object *)nn_interpolate(x, a[1], a[2], mode, a[4], NULL);
}

static nn_object *upsample_fixed(const char *f, const char *mode, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL;
    if (repl_parse_args(f, "input, size=, scale_factor=", args, kwargs, a) || repl_arg_tensor(f, "input", 1, a[0], &x))
        return NULL;
    char msg[128];
    snprintf(msg, sizeof msg, "nn.functional.%s is deprecated. Use nn.functional.interpolate instead.", f);
    /* torch/nn/functional.py's upsample_nearest / upsample_bilinear, PyTorch 1.13's lines */
    nn_warn_place place = {"torch.nn.functional", "torch/nn/functional.py", strcmp(mode, "bilinear") ? 4014 : 4070};
    if (nn_warn_at(&place, "UserWarning", "%s", msg) < 0) return NULL;
    nn_object *align = strcmp(mode, "bilinear") ? NULL : nn_bool_new(true);
    nn_object *r = (nn_object *)nn_interpolate(x, a[1], a[2], mode, align, NULL);
    NN_RELEASE(align);
    return r;
}
FN(upsample_nearest) { return upsample_fixed("upsample_nearest", "nearest", args, kwargs); }
FN(upsample_bilinear) { return upsample_fixed("upsample_bilinear", "bilinear", args, kwargs); }

/* --------------------------------------------------------------- unpool */

CTOR(MaxUnpool2d)
{
    ARGS(3);
    const char *f = "MaxUnpool2d.__init__";
    int64_t k[2], s[2], p[2] = {0, 0};
    if (repl_parse_args(f, "self, kernel_size, stride=, padding=", args, kwargs, a) ||
        int_tuple(f, "kernel_size", 1, a[0], 2, k))
        return NULL;
    s[0] = k[0], s[1] = k[1];
    if ((a[1] && !nn_is_none(a[1]) && int_tuple(f, "stride", 2, a[1], 2, s)) || int_tuple(f, "padding", 3, a[2], 2, p))
        return NULL;
    return (nn_object *)nn_max_unpool2d_module_new(k, s, p);
}

FN(max_unpool2d)
{
    ARGS(6);
    const char *f = "max_unpool2d";
    nn_tensor *x = NULL, *idx = NULL;
    int64_t k[2], s[2], p[2] = {0, 0};
    if (repl_parse_args(f, "input, indices, kernel_size, stride=, padding=, output_size=", args, kwargs, a) ||
        repl_arg_tensor(f, "input", 1, a[0], &x) || repl_arg_tensor(f, "indices", 2, a[1], &idx) ||
        int_tuple(f, "kernel_size", 3, a[2], 2, k))
        return NULL;
    s[0] = k[0], s[1] = k[1];
    if ((a[3] && !nn_is_none(a[3]) && int_tuple(f, "stride", 4, a[3], 2, s)) || int_tuple(f, "padding", 5, a[4], 2, p))
        return NULL;
    return (nn_object *)nn_max_unpool2d_sized(x, idx, k, s, p, a[5]);
}

#define NNCLASS(N, MOD, DOC) {#N, "torch.nn.modules." MOD "." #N, c_##N, NULL, NULL, DOC, repl_module_method_at}
static repl_class_def classes[] = {
    NNCLASS(GroupNorm, "normalization", "GroupNorm(num_groups, num_channels, eps=1e-05, affine=True, device=None, dtype=None)\nApplies Group Normalization over a mini-batch of inputs."),
    NNCLASS(InstanceNorm1d, "instancenorm", "InstanceNorm1d(num_features, eps=1e-05, momentum=0.1, affine=False, track_running_stats=False, device=None, dtype=None)\nApplies Instance Normalization over a 2D (unbatched) or 3D (batched) input."),
    NNCLASS(InstanceNorm2d, "instancenorm", "InstanceNorm2d(num_features, eps=1e-05, momentum=0.1, affine=False, track_running_stats=False, device=None, dtype=None)\nApplies Instance Normalization over a 4D input."),
    NNCLASS(InstanceNorm3d, "instancenorm", "InstanceNorm3d(num_features, eps=1e-05, momentum=0.1, affine=False, track_running_stats=False, device=None, dtype=None)\nApplies Instance Normalization over a 5D input."),
    NNCLASS(Conv1d, "conv", "Conv1d(in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True, padding_mode='zeros', device=None, dtype=None)\nApplies a 1D convolution over an input signal composed of several input planes."),
    NNCLASS(Conv2d, "conv", "Conv2d(in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True, padding_mode='zeros', device=None, dtype=None)\nApplies a 2D convolution over an input signal composed of several input planes."),
    NNCLASS(ConvTranspose1d, "conv", "ConvTranspose1d(in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1, bias=True, dilation=1, padding_mode='zeros', device=None, dtype=None)\nApplies a 1D transposed convolution operator over an input image composed of several input planes."),
    NNCLASS(ConvTranspose2d, "conv", "ConvTranspose2d(in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1, bias=True, dilation=1, padding_mode='zeros', device=None, dtype=None)\nApplies a 2D transposed convolution operator over an input image composed of several input planes."),
    NNCLASS(Upsample, "upsampling", "Upsample(size=None, scale_factor=None, mode='nearest', align_corners=None, recompute_scale_factor=None)\nUpsamples a given multi-channel 1D (temporal) or 2D (spatial) data."),
    NNCLASS(UpsamplingNearest2d, "upsampling", "UpsamplingNearest2d(size=None, scale_factor=None)\nApplies a 2D nearest neighbor upsampling to an input signal composed of several input channels."),
    NNCLASS(UpsamplingBilinear2d, "upsampling", "UpsamplingBilinear2d(size=None, scale_factor=None)\nApplies a 2D bilinear upsampling to an input signal composed of several input channels."),
    NNCLASS(MaxUnpool2d, "pooling", "MaxUnpool2d(kernel_size, stride=None, padding=0)\nComputes a partial inverse of MaxPool2d."),
};
#undef NNCLASS
#define N_CLASSES (sizeof classes / sizeof classes[0])

int repl_norm_conv_classes(nn_object *nn)
{
    for (size_t i = 0; i < N_CLASSES; i++)
        if (!(classes[i].module_class = nn_more_class(classes[i].name)))
            return nn_error_set(NN_ERR_RUNTIME, "no core class for %s", classes[i].name);
    return repl_namespace_add_classes(nn, classes, N_CLASSES);
}

static const repl_function_def functional[] = {
    {"group_norm", F_group_norm, "group_norm(input, num_groups, weight=None, bias=None, eps=1e-05) -> Tensor\nApplies Group Normalization for last certain number of dimensions."},
    {"instance_norm", F_instance_norm, "instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True, momentum=0.1, eps=1e-05) -> Tensor\nApplies Instance Normalization for each channel in each data sample in a batch."},
    {"batch_norm", F_batch_norm, "batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-05) -> Tensor\nApplies Batch Normalization for each channel across a batch of data."},
    {"conv1d", F_conv1d, "conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1) -> Tensor\nApplies a 1D convolution over an input signal composed of several input planes."},
    {"conv2d", F_conv2d, "conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1) -> Tensor\nApplies a 2D convolution over an input image composed of several input planes."},
    {"conv_transpose1d", F_conv_transpose1d, "conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1) -> Tensor\nApplies a 1D transposed convolution operator over an input signal composed of several input planes."},
    {"conv_transpose2d", F_conv_transpose2d, "conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1) -> Tensor\nApplies a 2D transposed convolution operator over an input image composed of several input planes."},
    {"interpolate", F_interpolate, "interpolate(input, size=None, scale_factor=None, mode='nearest', align_corners=None, recompute_scale_factor=None, antialias=False) -> Tensor\nDown/up samples the input to either the given size or the given scale_factor."},
    {"upsample", F_upsample, "upsample(input, size=None, scale_factor=None, mode='nearest', align_corners=None) -> Tensor\nUpsamples the input (deprecated: interpolate)."},
    {"upsample_nearest", F_upsample_nearest, "upsample_nearest(input, size=None, scale_factor=None) -> Tensor\nUpsamples the input, using nearest neighbours' pixel values (deprecated: interpolate)."},
    {"upsample_bilinear", F_upsample_bilinear, "upsample_bilinear(input, size=None, scale_factor=None) -> Tensor\nUpsamples the input, using bilinear upsampling (deprecated: interpolate)."},
    {"max_unpool2d", F_max_unpool2d, "max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None) -> Tensor\nComputes a partial inverse of MaxPool2d."},
};

int repl_norm_conv_functional(nn_object *fns)
{
    return repl_namespace_add_fns(fns, functional, sizeof functional / sizeof functional[0]);
}
