/*
 * modules_more.c — module classes over act_extra.c, pad.c and
 * dropout_more.c, and the view-only Softmax2d and Unflatten: each keeps its
 * settings as attributes, as PyTorch's module does, and its forward reads them
 * (so `m.p = 0.2` after construction counts). Reprs are PyTorch 1.13's
 * extra_repr formats.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nn_mod_more.h"
#include "nn_layers.h"

typedef nn_tensor *(*more_fn)(nn_module *m, nn_tensor *x);

typedef struct more_spec {
    const char *name;
    const char *fn;   /* the torch function a non-tensor input's TypeError names */
    const char *repr; /* str.format of the attributes; NULL: "" */
    more_fn run;
    char *(*repr_fn)(nn_module *m); /* instead of repr when set */
    nn_tensor *(*run2)(nn_module *m, nn_tensor *x1, nn_tensor *x2); /* forward(x1, x2) instead of run */
} more_spec;

static int attr_number(nn_module *m, const char *name, double *out)
{
    nn_object *o = nn_module_getattr(m, name);
    if (!o) return -1;
    if (!nn_is_int(o) && !nn_is_float(o) && !nn_is_bool(o))
        return nn_error_set(NN_ERR_TYPE, "%s: %s must be a number, not %s", nn_module_name(m), name, o->type->name);
    *out = nn_is_float(o) ? nn_float_value(o) : (double)nn_int_value(o);
    return 0;
}

static bool attr_flag(nn_module *m, const char *name)
{
    nn_object *o = nn_module_getattr(m, name);
    if (!o) {
        nn_error_clear();
        return false;
    }
    return nn_is_true(o);
}

/* a tuple or list of ints attribute into v (at most max); its length, or -1 */
static int attr_ints(nn_module *m, const char *name, int64_t *v, int max)
{
    nn_object *o = nn_module_getattr(m, name);
    if (!o) return -1;
    bool tuple = nn_is_instance(o, &nn_tuple_type);
    if (!tuple && !nn_is_list(o))
        return nn_error_set(NN_ERR_TYPE, "%s: %s must be a tuple of ints", nn_module_name(m), name);
    size_t n = tuple ? nn_tuple_len(o) : nn_list_len(o);
    if ((int)n > max) return nn_error_set(NN_ERR_VALUE, "%s: %s has too many values", nn_module_name(m), name);
    for (size_t i = 0; i < n; i++) {
        nn_object *e = tuple ? nn_tuple_get(o, i) : nn_list_get(o, i);
        if (!nn_is_int(e)) return nn_error_set(NN_ERR_TYPE, "%s: %s must be a tuple of ints", nn_module_name(m), name);
        v[i] = nn_int_value(e);
    }
    return (int)n;
}

static nn_tensor *run_selu(nn_module *m, nn_tensor *x) { return attr_flag(m, "inplace") ? nn_selu_(x) : nn_selu(x); }

static nn_tensor *run_glu(nn_module *m, nn_tensor *x)
{
    int64_t dim;
    nn_object *o = nn_module_getattr(m, "dim");
    if (!o) return NULL;
    if (!nn_is_int(o)) return nn_error_set(NN_ERR_TYPE, "glu(): argument 'dim' must be int, not %s", o->type->name), NULL;
    dim = nn_int_value(o);
    return nn_glu(x, (int)dim);
}

static nn_tensor *run_rrelu(nn_module *m, nn_tensor *x)
{
    double lo = 0, hi = 0;
    if (attr_number(m, "lower", &lo) < 0 || attr_number(m, "upper", &hi) < 0) return NULL;
    if (attr_flag(m, "inplace")) return nn_rrelu_(x, lo, hi, m->training);
    return nn_rrelu(x, lo, hi, m->training);
}

static nn_tensor *run_softmax2d(nn_module *m, nn_tensor *x)
{
    (void)m;
    if (x->ndim != 3 && x->ndim != 4)
        return nn_error_set(NN_ERR_ASSERTION, "Softmax2d requires a 3D or 4D tensor as input"), NULL;
    return nn_softmax(x, -3);
}

/* input.unflatten(dim, unflattened_size): a view with dim split into the sizes (one may be -1) */
static nn_tensor *run_unflatten(nn_module *m, nn_tensor *x)
{
    double dv;
    int64_t sizes[NN_MAX_DIMS], inner[NN_MAX_DIMS];
    if (attr_number(m, "dim", &dv) < 0) return NULL;
    int k = attr_ints(m, "unflattened_size", inner, NN_MAX_DIMS);
    if (k < 0) return NULL;
    int dim = (int)dv;
    if (x->ndim == 0) return nn_error_set(NN_ERR_RUNTIME, "unflatten: Cannot unflatten a scalar tensor"), NULL;
    if (dim < -x->ndim || dim >= x->ndim)
        return nn_error_set(NN_ERR_INDEX, "Dimension out of range (expected to be in range of [%d, %d], but got %d)",
                            -x->ndim, x->ndim - 1, dim),
               NULL;
    if (dim < 0) dim += x->ndim;
    if (k == 0) return nn_error_set(NN_ERR_RUNTIME, "unflatten: sizes must be non-empty"), NULL;
    if (x->ndim - 1 + k > NN_MAX_DIMS) return nn_error_set(NN_ERR_RUNTIME, "unflatten: too many dimensions"), NULL;
    int64_t known = 1, infer = -1;
    for (int i = 0; i < k; i++) {
        if (inner[i] == -1 && infer < 0) infer = i;
        else known *= inner[i];
    }
    if (infer >= 0 && known != 0 && x->sizes[dim] % known == 0) inner[infer] = x->sizes[dim] / known;
    else if (infer < 0 && known != x->sizes[dim]) {
        char shape[128] = "[", *p = shape + 1;
        for (int i = 0; i < k; i++)
            p += snprintf(p, sizeof shape - (size_t)(p - shape), "%s%lld", i ? ", " : "", (long long)inner[i]);
        snprintf(p, sizeof shape - (size_t)(p - shape), "]");
        return nn_error_set(NN_ERR_RUNTIME, "unflatten: Provided sizes %s don't multiply up to the size of dim %d "
                            "(%lld) in the input tensor", shape, dim, (long long)x->sizes[dim]),
               NULL;
    }
    int n = 0;
    for (int d = 0; d < x->ndim; d++) {
        if (d != dim) sizes[n++] = x->sizes[d];
        else
            for (int i = 0; i < k; i++) sizes[n++] = inner[i];
    }
    return nn_view(x, n, sizes);
}

/* p and inplace of a dropout module, with Python's range check */
static int dropout_attrs(nn_module *m, double *p, bool *inplace)
{
    if (attr_number(m, "p", p) < 0) return -1;
    if (*p < 0 || *p > 1) {
        char buf[64];
        nn_format_float(*p, buf, sizeof buf);
        return nn_error_set(NN_ERR_VALUE, "dropout probability has to be between 0 and 1, but got %s", buf);
    }
    *inplace = attr_flag(m, "inplace");
    return 0;
}

/* F.dropout1d/2d/3d's checks and warnings around _VF.feature_dropout */
nn_tensor *nn_dropout_nd(nn_tensor *x, int nd, double p, bool training, bool inplace)
{
    char msg[512];
    if (nd == 1 && x->ndim != 2 && x->ndim != 3)
        return nn_error_set(NN_ERR_RUNTIME, "dropout1d: Expected 2D or 3D input, but received a %dD input. Note that "
                            "dropout1d exists to provide channel-wise dropout on inputs with 1 spatial dimension, a "
                            "channel dimension, and an optional batch dimension (i.e. 2D or 3D inputs).", x->ndim),
               NULL;
    if (nd > 1 && x->ndim != nd + 1 && x->ndim != nd + 2) {
        snprintf(msg, sizeof msg, "dropout%dd: Received a %d-D input to dropout%dd, which is deprecated and will result "
                 "in an error in a future release. To retain the behavior and silence this warning, please use dropout "
                 "instead. Note that dropout%dd exists to provide channel-wise dropout on inputs with %d spatial "
                 "dimensions, a channel dimension, and an optional batch dimension (i.e. %dD or %dD inputs).", nd, x->ndim,
                 nd, nd, nd, nd + 1, nd + 2);
        /* warnings.warn in PyTorch 1.13's torch/nn/functional.py (dropout2d's, dropout3d's) */
        nn_warn_place place = {"torch.nn.functional", "torch/nn/functional.py", nd == 2 ? 1331 : 1375};
        if (nn_warn_at(&place, "UserWarning", "%s", msg) < 0) return NULL;
    }
    static const nn_warn_place dropout2d_3d = {"torch.nn.functional", "torch/nn/functional.py", 1338};
    if (nd == 2 && x->ndim == 3 &&
        nn_warn_at(&dropout2d_3d, "UserWarning", "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout "
                "behavior is desired - input is interpreted as shape (N, C, L), where C is the channel dim. This "
                "behavior will change in a future release to interpret the input as one without a batch dimension, i.e. "
                "shape (C, H, W). To maintain the 1D channel-wise dropout behavior, please switch to using dropout1d "
                "instead.") < 0)
        return NULL;
    bool unbatched = nd != 2 && x->ndim == nd + 1;
    if (!unbatched) return nn_dropout_kind(x, p, training, true, false, inplace);
    nn_tensor *u = nn_unsqueeze(x, 0), *r = u ? nn_dropout_kind(u, p, training, true, false, inplace) : NULL;
    NN_RELEASE(u);
    if (!r) return NULL;
    if (inplace) { /* the unsqueezed view was written: x holds the result */
        NN_RELEASE(r);
        return (nn_tensor *)nn_retain(&x->ob);
    }
    nn_tensor *s = nn_squeeze_dim(r, 0);
    NN_RELEASE(r);
    return s;
}

static nn_tensor *run_dropout_nd(nn_module *m, nn_tensor *x, int nd)
{
    double p = 0;
    bool inplace = false;
    if (dropout_attrs(m, &p, &inplace) < 0) return NULL;
    return nn_dropout_nd(x, nd, p, m->training, inplace);
}
static nn_tensor *run_dropout1d(nn_module *m, nn_tensor *x) { return run_dropout_nd(m, x, 1); }
static nn_tensor *run_dropout2d(nn_module *m, nn_tensor *x) { return run_dropout_nd(m, x, 2); }
static nn_tensor *run_dropout3d(nn_module *m, nn_tensor *x) { return run_dropout_nd(m, x, 3); }

static nn_tensor *run_alpha(nn_module *m, nn_tensor *x, bool feature)
{
    double p = 0;
    bool inplace = false;
    if (dropout_attrs(m, &p, &inplace) < 0) return NULL;
    return nn_dropout_kind(x, p, m->training, feature, true, inplace);
}
static nn_tensor *run_alpha_dropout(nn_module *m, nn_tensor *x) { return run_alpha(m, x, false); }
static nn_tensor *run_feature_alpha_dropout(nn_module *m, nn_tensor *x) { return run_alpha(m, x, true); }

/* F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners, recompute_scale_factor=...) */
static nn_tensor *run_upsample(nn_module *m, nn_tensor *x)
{
    static const char *const names[5] = {"size", "scale_factor", "mode", "align_corners", "recompute_scale_factor"};
    nn_object *v[5];
    for (int i = 0; i < 5; i++)
        if (!(v[i] = nn_module_getattr(m, names[i]))) return NULL;
    if (!nn_is_str(v[2])) return nn_error_set(NN_ERR_TYPE, "Upsample.mode must be a str"), NULL;
    return nn_interpolate(x, v[0], v[1], nn_str_cstr(v[2]), v[3], v[4]);
}

/* Upsample.extra_repr: scale_factor= (or size=) as str(), then mode= */
static char *upsample_repr(nn_module *m)
{
    nn_object *sf = nn_module_getattr(m, "scale_factor");
    if (!sf) return NULL;
    return nn_module_format_attrs(m, nn_is_none(sf) ? "size={size}, mode={mode}" : "scale_factor={scale_factor}, mode={mode}");
}

static nn_tensor *run_cosine(nn_module *m, nn_tensor *a, nn_tensor *b)
{
    double dim = 1, eps = 1e-8;
    if (attr_number(m, "dim", &dim) < 0 || attr_number(m, "eps", &eps) < 0) return NULL;
    return nn_cosine_similarity(a, b, (int64_t)dim, eps);
}

static nn_tensor *run_pairwise(nn_module *m, nn_tensor *a, nn_tensor *b)
{
    double p = 2, eps = 1e-6;
    if (attr_number(m, "norm", &p) < 0 || attr_number(m, "eps", &eps) < 0) return NULL;
    return nn_pairwise_distance(a, b, p, eps, attr_flag(m, "keepdim"));
}

static nn_tensor *run_pixel_shuffle(nn_module *m, nn_tensor *x)
{
    double r = 1;
    return attr_number(m, "upscale_factor", &r) < 0 ? NULL : nn_pixel_shuffle(x, (int64_t)r);
}

static nn_tensor *run_pixel_unshuffle(nn_module *m, nn_tensor *x)
{
    double r = 1;
    return attr_number(m, "downscale_factor", &r) < 0 ? NULL : nn_pixel_unshuffle(x, (int64_t)r);
}

static nn_tensor *run_lrn(nn_module *m, nn_tensor *x)
{
    double size = 1, alpha = 0, beta = 0, k = 0;
    if (attr_number(m, "size", &size) < 0 || attr_number(m, "alpha", &alpha) < 0 || attr_number(m, "beta", &beta) < 0 ||
        attr_number(m, "k", &k) < 0)
        return NULL;
    return nn_local_response_norm(x, (int64_t)size, alpha, beta, k);
}

/* F.pad(input, self.padding, mode, value) */
static nn_tensor *run_pad(nn_module *m, nn_tensor *x, nn_pad_mode mode)
{
    int64_t pad[6];
    double value = 0;
    int n = attr_ints(m, "padding", pad, 6);
    if (n < 0 || (mode == NN_PAD_CONSTANT && attr_number(m, "value", &value) < 0)) return NULL;
    return nn_pad(x, n, pad, mode, value);
}
static nn_tensor *run_constant_pad(nn_module *m, nn_tensor *x) { return run_pad(m, x, NN_PAD_CONSTANT); }
static nn_tensor *run_reflection_pad(nn_module *m, nn_tensor *x) { return run_pad(m, x, NN_PAD_REFLECT); }
static nn_tensor *run_replication_pad(nn_module *m, nn_tensor *x) { return run_pad(m, x, NN_PAD_REPLICATE); }

static const more_spec specs[] = {
    {"SELU", "selu", NULL, run_selu, NULL, NULL},
    {"GLU", "glu", "dim={dim}", run_glu, NULL, NULL},
    {"RReLU", "rrelu", "lower={lower}, upper={upper}", run_rrelu, NULL, NULL},
    {"Softmax2d", "dim", NULL, run_softmax2d, NULL, NULL},
    {"Unflatten", "unflatten", "dim={dim}, unflattened_size={unflattened_size}", run_unflatten, NULL, NULL},
    {"Dropout1d", "dim", "p={p}, inplace={inplace}", run_dropout1d, NULL, NULL},
    {"Dropout2d", "dim", "p={p}, inplace={inplace}", run_dropout2d, NULL, NULL},
    {"Dropout3d", "dim", "p={p}, inplace={inplace}", run_dropout3d, NULL, NULL},
    {"AlphaDropout", "alpha_dropout", "p={p}, inplace={inplace}", run_alpha_dropout, NULL, NULL},
    {"FeatureAlphaDropout", "feature_alpha_dropout", "p={p}, inplace={inplace}", run_feature_alpha_dropout, NULL, NULL},
    {"ConstantPad1d", "pad", "padding={padding}, value={value}", run_constant_pad, NULL, NULL},
    {"ConstantPad2d", "pad", "padding={padding}, value={value}", run_constant_pad, NULL, NULL},
    {"ConstantPad3d", "pad", "padding={padding}, value={value}", run_constant_pad, NULL, NULL},
    {"ZeroPad2d", "pad", "{padding}", run_constant_pad, NULL, NULL},
    {"ReflectionPad1d", "pad", "{padding}", run_reflection_pad, NULL, NULL},
    {"ReflectionPad2d", "pad", "{padding}", run_reflection_pad, NULL, NULL},
    {"ReflectionPad3d", "pad", "{padding}", run_reflection_pad, NULL, NULL},
    {"ReplicationPad1d", "pad", "{padding}", run_replication_pad, NULL, NULL},
    {"ReplicationPad2d", "pad", "{padding}", run_replication_pad, NULL, NULL},
    {"ReplicationPad3d", "pad", "{padding}", run_replication_pad, NULL, NULL},
    {"Upsample", "interpolate", NULL, run_upsample, upsample_repr, NULL},
    {"UpsamplingNearest2d", "interpolate", NULL, run_upsample, upsample_repr, NULL},
    {"UpsamplingBilinear2d", "interpolate", NULL, run_upsample, upsample_repr, NULL},
    {"CosineSimilarity", "cosine_similarity", NULL, NULL, NULL, run_cosine},
    {"PairwiseDistance", "pairwise_distance", NULL, NULL, NULL, run_pairwise},
    {"PixelShuffle", "pixel_shuffle", "upscale_factor={upscale_factor}", run_pixel_shuffle, NULL, NULL},
    {"PixelUnshuffle", "pixel_unshuffle", "downscale_factor={downscale_factor}", run_pixel_unshuffle, NULL, NULL},
    {"LocalResponseNorm", "local_response_norm", "{size}, alpha={alpha}, beta={beta}, k={k}", run_lrn, NULL, NULL},
};
#define N_SPECS (sizeof specs / sizeof specs[0])

static nn_object *more_forward(nn_module *m, nn_object *args, nn_object *kwargs);
static char *more_extra_repr(nn_module *m);

#define CLS(N) {.name = N, .forward = more_forward, .extra_repr = more_extra_repr}
#define CLSB(N, B) {.name = N, .forward = more_forward, .extra_repr = more_extra_repr, .base = &B}
const nn_module_class nn_more_classes[] = {
    CLS("SELU"),
    CLS("GLU"),
    CLS("RReLU"),
    CLS("Softmax2d"),
    CLS("Unflatten"),
    CLSB("Dropout1d", nn_dropoutnd_class),
    CLSB("Dropout2d", nn_dropoutnd_class),
    CLSB("Dropout3d", nn_dropoutnd_class),
    CLSB("AlphaDropout", nn_dropoutnd_class),
    CLSB("FeatureAlphaDropout", nn_dropoutnd_class),
    CLSB("ConstantPad1d", nn_constant_padnd_class),
    CLSB("ConstantPad2d", nn_constant_padnd_class),
    CLSB("ConstantPad3d", nn_constant_padnd_class),
    CLSB("ZeroPad2d", nn_more_classes[11]), /* ConstantPad2d */
    CLSB("ReflectionPad1d", nn_reflection_padnd_class),
    CLSB("ReflectionPad2d", nn_reflection_padnd_class),
    CLSB("ReflectionPad3d", nn_reflection_padnd_class),
    CLSB("ReplicationPad1d", nn_replication_padnd_class),
    CLSB("ReplicationPad2d", nn_replication_padnd_class),
    CLSB("ReplicationPad3d", nn_replication_padnd_class),
    CLS("Upsample"),
    CLS("UpsamplingNearest2d"),
    CLS("UpsamplingBilinear2d"),
    CLS("CosineSimilarity"),
    CLS("PairwiseDistance"),
    CLS("PixelShuffle"),
    CLS("PixelUnshuffle"),
    CLS("LocalResponseNorm"),
};
#undef CLS
#undef CLSB

static const more_spec *spec_of(const nn_module *m)
{
    for (size_t i = 0; i < N_SPECS; i++)
        if (m->cls == &nn_more_classes[i] || nn_module_class_slot_owner(m->cls, offsetof(nn_module_class, forward)) ==
                                                 &nn_more_classes[i])
            return &specs[i];
    return NULL;
}

const nn_module_class *nn_more_class(const char *name)
{
    for (size_t i = 0; i < N_SPECS; i++)
        if (!strcmp(specs[i].name, name)) return &nn_more_classes[i];
    const nn_module_class *const others[] = {&nn_group_norm_class,     &nn_instance_norm_classes[0],
                                             &nn_instance_norm_classes[1], &nn_instance_norm_classes[2],
                                             &nn_conv_more_classes[0], &nn_conv_more_classes[1],
                                             &nn_conv_more_classes[2], &nn_conv2d_class,
                                             &nn_max_unpool2d_class};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        if (!strcmp(others[i]->name, name)) return others[i];
    return NULL;
}

/* forward(self, x1, x2) */
static nn_tensor *two_inputs(nn_module *m, const more_spec *sp, const char *f, nn_object *args, nn_object *kwargs)
{
    static const char *const names[2] = {"x1", "x2"};
    size_t n = args ? nn_tuple_len(args) : 0;
    nn_object *v[2] = {NULL, NULL};
    if (n > 2) return nn_error_set(NN_ERR_TYPE, "%s() takes 3 positional arguments but %zu were given", f, n + 1), NULL;
    for (size_t i = 0; i < n; i++) v[i] = nn_tuple_get(args, i);
    for (int i = 0; i < 2 && kwargs; i++) {
        nn_object *o = nn_dict_get_str(kwargs, names[i]);
        if (o && v[i]) return nn_error_set(NN_ERR_TYPE, "%s() got multiple values for argument '%s'", f, names[i]), NULL;
        if (o) v[i] = o;
    }
    for (int i = 0; i < 2; i++) {
        if (!v[i]) return nn_error_set(NN_ERR_TYPE, "%s() missing 1 required positional argument: '%s'", f, names[i]), NULL;
        if (!nn_is_tensor(v[i]))
            return nn_error_set(NN_ERR_TYPE, "%s(): argument '%s' (position %d) must be Tensor, not %s", sp->fn, names[i],
                                i + 1, v[i]->type->name),
                   NULL;
    }
    return sp->run2(m, NN_TENSOR(v[0]), NN_TENSOR(v[1]));
}

static nn_object *more_forward(nn_module *m, nn_object *args, nn_object *kwargs)
{
    const more_spec *sp = spec_of(m);
    if (!sp) return nn_error_set(NN_ERR_RUNTIME, "not a module of modules_more.c"), NULL;
    char f[64];
    snprintf(f, sizeof f, "%s.forward", sp->name);
    if (sp->run2) return (nn_object *)two_inputs(m, sp, f, args, kwargs);
    nn_tensor *x = nn_forward_tensor_arg(f, args, kwargs, sp->fn, "input", 1);
    return x ? (nn_object *)sp->run(m, x) : NULL;
}

static char *more_extra_repr(nn_module *m)
{
    const more_spec *sp = spec_of(m);
    if (sp && sp->repr_fn) return sp->repr_fn(m);
    if (!sp || !sp->repr) return nn_strdup(!strcmp(sp ? sp->name : "", "SELU") && attr_flag(m, "inplace") ? "inplace=True" : "");
    char *r = nn_module_format_attrs(m, sp->repr);
    if (r && !strcmp(sp->name, "RReLU") && attr_flag(m, "inplace")) {
        size_t n = strlen(r);
        char *t = nn_malloc(n + 16);
        if (t) snprintf(t, n + 16, "%s, inplace=True", r);
        nn_free(r);
        r = t;
    }
    return r;
}

nn_module *nn_more_module_new(const char *name, int n, const char *const *names, nn_object *const *values)
{
    const nn_module_class *cls = nn_more_class(name);
    if (!cls) return nn_error_set(NN_ERR_RUNTIME, "no module class %s", name), NULL;
    nn_module *m = nn_module_new(cls);
    for (int i = 0; m && i < n; i++)
        if (!values[i] || nn_module_setattr(m, names[i], values[i]) < 0) NN_SET(m, NULL);
    return m;
}
