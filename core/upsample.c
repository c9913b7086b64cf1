/*
 * upsample.c — F.interpolate's nearest, nearest-exact, linear, bilinear, trilinear
 * and bicubic modes over 1, 2 or 3 spatial dims (nearest, nearest-exact, linear),
 * 2 (bicubic), as ATen's CPU kernels compute them (the resample kernel,
 * core/cpu/resample.c): the source taps of each output position and their
 * weights per dim, in the tensor's precision, from the scale factor when one is
 * given and the sizes' ratio otherwise; align_corners as ATen's
 * area_pixel_compute_scale. grad_fn Upsample{Nearest,NearestExact}{1,2,3}DBackward1,
 * UpsampleLinear1DBackward1, UpsampleBilinear2DBackward1, UpsampleTrilinear3DBackward1,
 * UpsampleBicubic2DBackward1 (the scale-vector overloads F.interpolate reaches). The
 * backward scatters the gradient through the same taps, an op of its own for double backward
 * (resample_grad.c: Upsample...BackwardBackward1). Mode
 * 'area' is adaptive average pooling (pool.c), as F.interpolate calls it.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "nn_mod_more.h"
#include "nn_resample.h"

static const nn_op_id ops[4][3] = {
    {NN_OP_upsample_nearest1d, NN_OP_upsample_nearest2d, NN_OP_upsample_nearest3d},
    {NN_OP_upsample_linear1d, NN_OP_upsample_bilinear2d, NN_OP_upsample_trilinear3d},
    {NN_OP_upsample_nearest_exact1d, NN_OP_upsample_nearest_exact2d, NN_OP_upsample_nearest_exact3d},
    {NN_OP_COUNT, NN_OP_upsample_bicubic2d, NN_OP_COUNT}};

static const nn_resample_mode modes[4] = {NN_RESAMPLE_NEAREST, NN_RESAMPLE_LINEAR, NN_RESAMPLE_NEAREST_EXACT,
                                          NN_RESAMPLE_CUBIC};

/* p.i: dims, in sizes [3], out sizes [3]; p.f: scales [3]; flags: kind | align << 2 */
static void geom_of(const nn_op_params *p, int64_t planes, nn_resample_geom *g)
{
    memset(g, 0, sizeof *g);
    g->mode = modes[p->flags & 3], g->align = p->flags & 4, g->dims = (int)p->i[0], g->planes = planes;
    for (int d = 0; d < g->dims; d++) g->in[d] = p->i[1 + d], g->out[d] = p->i[4 + d], g->scale[d] = p->f[d];
}

static void params_of(nn_op_params *p, int dims, const int64_t *in, const int64_t *out, const double *scales,
                      nn_upsample_kind kind, bool align)
{
    memset(p, 0, sizeof *p);
    p->n_i = 7, p->flags = (int)kind | (align ? 4 : 0);
    p->i[0] = dims;
    for (int d = 0; d < dims; d++) p->i[1 + d] = in[d], p->i[4 + d] = out[d], p->f[d] = scales[d];
}

/* x [N, C, L] (dims 1), [N, C, H, W] (dims 2) or [N, C, D, H, W] (dims 3) to out sizes; scales NAN where not given */
nn_tensor *nn_upsample(nn_tensor *x, int dims, const int64_t *out, const double *scales, bool linear, bool align)
{
    return nn_upsample_mode(x, dims, out, scales, linear ? NN_UPSAMPLE_LINEAR : NN_UPSAMPLE_NEAREST, align);
}

/* ATen 1.13's kernel that refuses dtype for this mode: the channels-last kernels of the
   nearest and linear modes (4-d and 5-d inputs already in that format), else the tap tables'
   dispatch (upsample_generic_Nd) */
static const char *kernel_name(nn_upsample_kind kind, int dims, bool channels_last)
{
    static const char *const nearest_cl[3] = {"", "upsample_nearest2d_channels_last", "upsample_nearest3d_channels_last"};
    static const char *const linear_cl[3] = {"", "upsample_bilinear2d_channels_last",
                                             "upsample_trilinear3d_channels_last"};
    if (kind == NN_UPSAMPLE_CUBIC) return "compute_indices_weights_cubic";
    if (kind == NN_UPSAMPLE_LINEAR) return channels_last ? linear_cl[dims - 1] : "compute_indices_weights_linear";
    return channels_last ? nearest_cl[dims - 1] : "compute_indices_weights_nearest";
}

nn_tensor *nn_upsample_mode(nn_tensor *x, int dims, const int64_t *out, const double *scales, nn_upsample_kind kind,
                            bool align)
{
    char s[128];
    if (dims < 1 || dims > 3 || (kind == NN_UPSAMPLE_CUBIC && dims != 2))
        return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "upsample: %d spatial dims are not supported for this mode", dims),
               NULL;
    if (x->ndim != dims + 2)
        return nn_error_set(NN_ERR_RUNTIME, "Expected %dD input, but got input of size: %s", dims + 2,
                            nn_shape_str(x->ndim, x->sizes, s, sizeof s)),
               NULL;
    for (int d = 0; d < dims; d++)
        if (x->sizes[2 + d] <= 0 || out[d] <= 0) {
            /* ATen's upsample_2d_common_check words it without the "and" */
            if (dims == 3)
                return nn_error_set(NN_ERR_RUNTIME, "Input and output sizes should be greater than 0, but got input (D: "
                                    "%lld, H: %lld, W: %lld) output (D: %lld, H: %lld, W: %lld)", (long long)x->sizes[2],
                                    (long long)x->sizes[3], (long long)x->sizes[4], (long long)out[0],
                                    (long long)out[1], (long long)out[2]),
                       NULL;
            if (dims == 2)
                return nn_error_set(NN_ERR_RUNTIME, "Input and output sizes should be greater than 0, but got input (H: "
                                    "%lld, W: %lld) output (H: %lld, W: %lld)", (long long)x->sizes[2],
                                    (long long)x->sizes[3], (long long)out[0], (long long)out[1]),
                       NULL;
            return nn_error_set(NN_ERR_RUNTIME, "Input and output sizes should be greater than 0, but got input (W: %lld) "
                                "and output (W: %lld)", (long long)x->sizes[2], (long long)out[0]),
                   NULL;
        }
    /* bfloat16: every mode but nearest-exact (whose tap tables ATen 1.13 builds for float and double only) */
    bool cl = nn_is_contiguous_as(x, x->ndim == 4 ? NN_CHANNELS_LAST : NN_CHANNELS_LAST_3D);
    if (x->dtype != NN_FLOAT32 && x->dtype != NN_FLOAT64 &&
        !(x->dtype == NN_BFLOAT16 && kind != NN_UPSAMPLE_NEAREST_EXACT))
        return nn_error_set(NN_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel_name(kind, dims, cl),
                            nn_dtype_scalar_name(x->dtype)),
               NULL;
    nn_op_params p;
    params_of(&p, dims, x->sizes + 2, out, scales, kind, align);
    int64_t sizes[5] = {x->sizes[0], x->sizes[1]};
    for (int d = 0; d < dims; d++) sizes[2 + d] = out[d];
    nn_resample_geom g;
    geom_of(&p, x->sizes[0] * x->sizes[1], &g);
    /* bfloat16: the nearest modes copy (in float32, exact); the others in bfloat16 arithmetic */
    nn_tensor *c = NULL;
    bool copy = kind == NN_UPSAMPLE_NEAREST;
    NN_WITH_GRAD_MODE(false, c = x->dtype == NN_BFLOAT16 && copy ? nn_to_dtype(x, NN_FLOAT32) : nn_contiguous(x));
    nn_tensor *y = c ? nn_empty_on(nn_device_of(x), dims + 2, sizes, c->dtype) : NULL;
    if (y && NN_KERNEL(nn_backend_of(c), resample, (&g, false, y, c)) < 0) NN_SET(y, NULL);
    NN_RELEASE(c);
    if (y && y->dtype != x->dtype) NN_WITH_GRAD_MODE(false, NN_SET(y, nn_to_dtype(y, x->dtype)));
    if (y && nn_record(ops[kind][dims - 1], 1, &x, 1, &y, 0, NULL, &p) < 0) NN_SET(y, NULL);
    return y;
}

static const nn_op_id grad_ops[4][3] = {
    {NN_OP_upsample_nearest1d_backward, NN_OP_upsample_nearest2d_backward, NN_OP_upsample_nearest3d_backward},
    {NN_OP_upsample_linear1d_backward, NN_OP_upsample_bilinear2d_backward, NN_OP_upsample_trilinear3d_backward},
    {NN_OP_upsample_nearest_exact1d_backward, NN_OP_upsample_nearest_exact2d_backward,
     NN_OP_upsample_nearest_exact3d_backward},
    {NN_OP_COUNT, NN_OP_upsample_bicubic2d_backward, NN_OP_COUNT}};

/* the gradient for g of an upsampling of an input of sizes (N, C and p's in sizes) */
static nn_tensor *grad_of(nn_tensor *g, const nn_op_params *p)
{
    nn_resample_geom geom;
    geom_of(p, g->sizes[0] * g->sizes[1], &geom);
    int64_t sizes[5] = {g->sizes[0], g->sizes[1]};
    for (int d = 0; d < geom.dims; d++) sizes[2 + d] = geom.in[d];
    return nn_resample_backward(g, &geom, geom.dims + 2, sizes, grad_ops[p->flags & 3][geom.dims - 1], p);
}

nn_tensor *nn_upsample_grad(nn_tensor *g, const int64_t *in_sizes, int dims, const int64_t *out, const double *scales,
                            nn_upsample_kind kind, bool align)
{
    if (dims < 1 || dims > 3 || g->ndim != dims + 2 || grad_ops[kind][dims - 1] == NN_OP_COUNT)
        return nn_error_set(NN_ERR_RUNTIME, "upsample backward: a gradient of %d dims for %d spatial dims", g->ndim, dims),
               NULL;
    nn_op_params p;
    params_of(&p, dims, in_sizes + 2, out, scales, kind, align);
    return grad_of(g, &p);
}

static int upsample_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *g = gout[0];
    if (g->dtype != NN_BFLOAT16) {
        gin[0] = grad_of(g, &n->p);
        return gin[0] ? 0 : -1;
    }
    nn_tensor *g32 = nn_to_dtype(g, NN_FLOAT32), *r = g32 ? grad_of(g32, &n->p) : NULL;
    gin[0] = r ? nn_to_dtype(r, NN_BFLOAT16) : NULL;
    NN_RELEASE(g32);
    NN_RELEASE(r);
    return gin[0] ? 0 : -1;
}

int nn_upsample_nearest1d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return upsample_backward(n, gout, gin); }
int nn_upsample_nearest2d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return upsample_backward(n, gout, gin); }
int nn_upsample_nearest3d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return upsample_backward(n, gout, gin); }
int nn_upsample_linear1d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return upsample_backward(n, gout, gin); }
int nn_upsample_bilinear2d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return upsample_backward(n, gout, gin); }
int nn_upsample_trilinear3d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return upsample_backward(n, gout, gin); }
int nn_upsample_bicubic2d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return upsample_backward(n, gout, gin); }
int nn_upsample_nearest_exact1d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return upsample_backward(n, gout, gin); }
int nn_upsample_nearest_exact2d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return upsample_backward(n, gout, gin); }
int nn_upsample_nearest_exact3d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return upsample_backward(n, gout, gin); }

/* ------------------------------------------------------- F.interpolate */

/* a number or a sequence of numbers (n of them, or one repeated) into v; 1 if given, 0 if None, -1 error */
static int numbers(nn_object *o, int n, double *v, const char *what, const nn_tensor *x, bool ints)
{
    if (!o || nn_is_none(o)) return 0;
    bool tuple = nn_is_instance(o, &nn_tuple_type), seq = tuple || nn_is_list(o);
    if (!seq) {
        if (!nn_is_int(o) && !nn_is_float(o)) return nn_error_set(NN_ERR_TYPE, "%s must be a number or a sequence", what);
        if (ints && !nn_is_int(o)) return nn_error_set(NN_ERR_TYPE, "expected size to be an int, got %s", o->type->name);
        for (int i = 0; i < n; i++) v[i] = nn_is_int(o) ? (double)nn_int_value(o) : nn_float_value(o);
        return 1;
    }
    size_t k = tuple ? nn_tuple_len(o) : nn_list_len(o);
    if ((int)k != n) {
        char in[128], given[128] = "";
        char *text = nn_repr(o);
        nn_shape_str(x->ndim - 2, x->sizes + 2, in, sizeof in);
        snprintf(given, sizeof given, "%s", text ? text : "?");
        nn_free(text);
        if (ints)
            return nn_error_set(NN_ERR_VALUE, "Input and output must have the same number of spatial dimensions, but got "
                                "input with spatial dimensions of %s and output size of %s. Please provide input tensor in "
                                "(N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.", in, given);
        return nn_error_set(NN_ERR_VALUE, "Input and scale_factor must have the same number of spatial dimensions, but got "
                            "input with spatial dimensions of %s and scale_factor of shape %s. Please provide input tensor "
                            "in (N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.", in, given);
    }
    for (size_t i = 0; i < k; i++) {
        nn_object *e = tuple ? nn_tuple_get(o, i) : nn_list_get(o, i);
        if (!nn_is_int(e) && !nn_is_float(e)) return nn_error_set(NN_ERR_TYPE, "%s must contain numbers", what);
        v[i] = nn_is_int(e) ? (double)nn_int_value(e) : nn_float_value(e);
    }
    return 1;
}

nn_tensor *nn_interpolate(nn_tensor *x, nn_object *size, nn_object *scale_factor, const char *mode,
                          nn_object *align_corners, nn_object *recompute_scale_factor)
{
    bool nearest = !strcmp(mode, "nearest") || !strcmp(mode, "area") || !strcmp(mode, "nearest-exact");
    bool has_align = align_corners && !nn_is_none(align_corners), align = has_align && nn_is_true(align_corners);
    if (nearest && has_align)
        return nn_error_set(NN_ERR_VALUE, "align_corners option can only be set with the interpolating modes: linear | "
                            "bilinear | bicubic | trilinear"),
               NULL;
    int dims = x->ndim - 2;
    bool has_size = size && !nn_is_none(size), has_scale = scale_factor && !nn_is_none(scale_factor);
    if (has_size && has_scale) return nn_error_set(NN_ERR_VALUE, "only one of size or scale_factor should be defined"), NULL;
    if (!has_size && !has_scale) return nn_error_set(NN_ERR_VALUE, "either size or scale_factor should be defined"), NULL;
    bool recompute = recompute_scale_factor && !nn_is_none(recompute_scale_factor) && nn_is_true(recompute_scale_factor);
    if (recompute && has_size)
        return nn_error_set(NN_ERR_VALUE, "recompute_scale_factor is not meaningful with an explicit size."), NULL;
    if (dims < 1 || dims > 3)
        return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "Input Error: Only 3D, 4D and 5D input Tensors supported (got %dD) "
                            "for the modes: nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact (got %s)",
                            x->ndim, mode),
               NULL;
    double sv[3] = {NAN, NAN, NAN}, ov[3] = {0, 0, 0};
    if (numbers(size, dims, ov, "size", x, true) < 0 || numbers(scale_factor, dims, sv, "scale_factor", x, false) < 0)
        return NULL;
    int64_t out[3];
    for (int d = 0; d < dims; d++) {
        out[d] = has_size ? (int64_t)ov[d] : (int64_t)floor((double)x->sizes[2 + d] * sv[d]);
        if (recompute) sv[d] = NAN;
    }
    static const char *const interp[3] = {"linear", "bilinear", "trilinear"};
    for (int d = 1; d <= 3; d++)
        if (!strcmp(mode, interp[d - 1]) && dims != d)
            return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "Got %dD input, but %s mode needs %dD input", x->ndim, mode, d + 2),
                   NULL;
    if (!strcmp(mode, "bicubic") && dims != 2) /* F.interpolate's last resort, as PyTorch 1.13 words it */
        return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "Input Error: Only 3D, 4D and 5D input Tensors supported (got %dD) "
                            "for the modes: nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact "
                            "(got bicubic)", x->ndim),
               NULL;
    bool linear = !strcmp(mode, "linear") || !strcmp(mode, "bilinear") || !strcmp(mode, "trilinear");
    if (!strcmp(mode, "nearest") || linear) return nn_upsample(x, dims, out, sv, linear, align);
    if (!strcmp(mode, "bicubic")) return nn_upsample_mode(x, dims, out, sv, NN_UPSAMPLE_CUBIC, align);
    if (!strcmp(mode, "nearest-exact")) return nn_upsample_mode(x, dims, out, sv, NN_UPSAMPLE_NEAREST_EXACT, false);
    /* area: adaptive average pooling to the output size, as F.interpolate calls it */
    if (!strcmp(mode, "area") && dims == 1) return nn_adaptive_avg_pool1d(x, out[0]);
    if (!strcmp(mode, "area") && dims == 2) return nn_adaptive_avg_pool2d(x, out);
    return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "interpolate: mode '%s' for %dD input is not supported", mode, x->ndim),
           NULL;
}
