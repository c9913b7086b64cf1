/*
 * upsample.c — F.interpolate's nearest, nearest-exact and (bi)linear modes over 1 or 2
 * spatial dims, as ATen's CPU kernels compute them: the source index of each
 * output position (and, for linear, its two neighbours' weights) per dim, in
 * the tensor's precision, from the scale factor when one is given and the
 * sizes' ratio otherwise; align_corners as ATen's area_pixel_compute_scale.
 * grad_fn UpsampleNearest1DBackward1, UpsampleNearest2DBackward1,
 * UpsampleLinear1DBackward1, UpsampleBilinear2DBackward1,
 * UpsampleNearestExact1DBackward1, UpsampleNearestExact2DBackward1 (the scale-vector
 * overloads F.interpolate reaches). The backward scatters the gradient
 * through the same indices and weights (no graph of its own). Mode 'area'
 * is adaptive average pooling (pool.c), as F.interpolate calls it.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nn_mod_more.h"

/* one spatial dim's source positions: i0/i1 and weights l0/l1 per output position */
typedef struct axis {
    int64_t in, out;
    int64_t *i0, *i1;
    double *l0, *l1; /* the weights, already rounded to the tensor's precision */
} axis;

static void axis_free(axis *a)
{
    nn_free(a->i0);
    nn_free(a->i1);
    nn_free(a->l0);
    nn_free(a->l1);
}

#define AXIS_MAKER(SUF, T, FLOOR)                                                                                    \
    /* compute_scales_value */                                                                                       \
    static T scale_value_##SUF(double scale, int64_t in, int64_t out)                                                \
    {                                                                                                                \
        return !isnan(scale) && scale > 0 ? (T)(1.0 / scale) : (T)in / (T)out;                                       \
    }                                                                                                                \
    static void axis_fill_##SUF(axis *a, bool linear, bool align, double scale, bool exact)                          \
    {                                                                                                                \
        for (int64_t o = 0; o < a->out; o++) {                                                                       \
            if (!linear) {                                                                                           \
                int64_t src;                                                                                         \
                if (exact) { /* nearest-exact: the centre's source, as in nearest_neighbor_exact_compute_source_index */ \
                    float s = (float)scale_value_##SUF(scale, a->in, a->out);                                        \
                    src = (int64_t)floorf(((float)o + 0.5f) * s);                                                    \
                    if (src > a->in - 1) src = a->in - 1;                                                            \
                } else if (a->out == a->in) src = o;                                                                 \
                else if (a->out == 2 * a->in) src = o >> 1;                                                          \
                else {                                                                                               \
                    float s = (float)scale_value_##SUF(scale, a->in, a->out);                                        \
                    src = (int64_t)floorf((float)o * s);                                                             \
                    if (src > a->in - 1) src = a->in - 1;                                                            \
                }                                                                                                    \
                a->i0[o] = a->i1[o] = src;                                                                           \
                a->l0[o] = 1, a->l1[o] = 0;                                                                          \
                continue;                                                                                            \
            }                                                                                                        \
            if (a->out == a->in) {                                                                                   \
                a->i0[o] = a->i1[o] = o;                                                                             \
                a->l0[o] = 1, a->l1[o] = 0;                                                                          \
                continue;                                                                                            \
            }                                                                                                        \
            T ratio = align ? (a->out > 1 ? (T)(a->in - 1) / (T)(a->out - 1) : (T)0)                                 \
                            : scale_value_##SUF(scale, a->in, a->out);                                               \
            T real = align ? ratio * (T)o : ratio * ((T)o + (T)0.5) - (T)0.5;                                        \
            if (!align && real < 0) real = 0;                                                                        \
            int64_t i0 = (int64_t)real;                                                                              \
            T l1 = real - (T)i0;                                                                                     \
            l1 = l1 < 0 ? 0 : l1 > 1 ? 1 : l1;                                                                       \
            a->i0[o] = i0;                                                                                           \
            a->i1[o] = i0 + (i0 < a->in - 1 ? 1 : 0);                                                                \
            a->l1[o] = l1;                                                                                           \
            a->l0[o] = (T)1 - l1;                                                                                    \
        }                                                                                                            \
    }                                                                                                                \
    /* forward (gx NULL) or backward over [B, H, W] planes; H = 1 for one spatial dim */                            \
    static void run_##SUF(const axis *h, const axis *w, bool linear, int64_t B, const T *x, T *y, const T *g, T *gx)              \
    {                                                                                                                \
        int64_t isz = h->in * w->in, osz = h->out * w->out;                                                          \
        for (int64_t b = 0; b < B; b++)                                                                              \
            for (int64_t oh = 0; oh < h->out; oh++)                                                                  \
                for (int64_t ow = 0; ow < w->out; ow++) {                                                            \
                    int64_t h0 = h->i0[oh], h1 = h->i1[oh], w0 = w->i0[ow], w1 = w->i1[ow];                          \
                    T a0 = (T)h->l0[oh], a1 = (T)h->l1[oh], c0 = (T)w->l0[ow], c1 = (T)w->l1[ow];                    \
                    if (gx) {                                                                                        \
                        T gv = g[b * osz + oh * w->out + ow];                                                        \
                        T *p = gx + b * isz;                                                                         \
                        if (!linear) {                                                                               \
                            p[h0 * w->in + w0] += gv;                                                                \
                            continue;                                                                                \
                        }                                                                                            \
                        p[h0 * w->in + w0] += a0 * c0 * gv;                                                          \
                        p[h0 * w->in + w1] += a0 * c1 * gv;                                                          \
                        p[h1 * w->in + w0] += a1 * c0 * gv;                                                          \
                        p[h1 * w->in + w1] += a1 * c1 * gv;                                                          \
                        continue;                                                                                    \
                    }                                                                                                \
                    const T *p = x + b * isz;                                                                        \
                    if (!linear) {                                                                                   \
                        y[b * osz + oh * w->out + ow] = p[h0 * w->in + w0];                                          \
                        continue;                                                                                    \
                    }                                                                                                \
                    T t0 = p[h0 * w->in + w0] * c0 + p[h0 * w->in + w1] * c1;                                        \
                    T t1 = p[h1 * w->in + w0] * c0 + p[h1 * w->in + w1] * c1;                                        \
                    y[b * osz + oh * w->out + ow] = h->out == 1 && h->in == 1 ? t0 : t0 * a0 + t1 * a1;              \
                }                                                                                                    \
    }
AXIS_MAKER(f32, float, floorf)
AXIS_MAKER(f64, double, floor)

static int axis_init(axis *a, int64_t in, int64_t out, bool linear, bool align, double scale, bool f32, bool exact)
{
    memset(a, 0, sizeof *a);
    a->in = in, a->out = out;
    size_t n = (size_t)(out > 0 ? out : 1);
    a->i0 = nn_malloc(n * sizeof(int64_t)), a->i1 = nn_malloc(n * sizeof(int64_t));
    a->l0 = nn_malloc(n * sizeof(double)), a->l1 = nn_malloc(n * sizeof(double));
    if (!a->i0 || !a->i1 || !a->l0 || !a->l1) {
        axis_free(a);
        return -1;
    }
    if (f32) axis_fill_f32(a, linear, align, scale, exact);
    else axis_fill_f64(a, linear, align, scale, exact);
    return 0;
}

static const nn_op_id ops[3][2] = {{NN_OP_upsample_nearest1d, NN_OP_upsample_nearest2d},
                                   {NN_OP_upsample_linear1d, NN_OP_upsample_bilinear2d},
                                   {NN_OP_upsample_nearest_exact1d, NN_OP_upsample_nearest_exact2d}};

/* p.i: in sizes [2], out sizes [2]; p.f: scales [2]; flags: linear | align << 1 | nearest-exact << 2 */
static int run(const nn_op_params *p, int dims, int64_t B, nn_tensor *x, nn_tensor *y, nn_tensor *g, nn_tensor *gx)
{
    bool linear = p->flags & 1, align = p->flags & 2, exact = p->flags & 4, f32 = (x ? x : g)->dtype == NN_FLOAT32;
    axis h, w;
    int64_t hi = dims == 2 ? p->i[0] : 1, ho = dims == 2 ? p->i[2] : 1;
    if (axis_init(&h, hi, ho, linear, align, dims == 2 ? p->f[0] : NAN, f32, exact) < 0) return -1;
    if (axis_init(&w, p->i[1], p->i[3], linear, align, p->f[1], f32, exact) < 0) {
        axis_free(&h);
        return -1;
    }
    if (f32)
        run_f32(&h, &w, linear, B, x ? nn_data_ptr(x) : NULL, y ? nn_data_ptr(y) : NULL, g ? nn_data_ptr(g) : NULL,
                gx ? nn_data_ptr(gx) : NULL);
    else
        run_f64(&h, &w, linear, B, x ? nn_data_ptr(x) : NULL, y ? nn_data_ptr(y) : NULL, g ? nn_data_ptr(g) : NULL,
                gx ? nn_data_ptr(gx) : NULL);
    axis_free(&h);
    axis_free(&w);
    return 0;
}

/* x [N, C, L] (dims 1) or [N, C, H, W] (dims 2) to out sizes; scales NAN where not given */
nn_tensor *nn_upsample(nn_tensor *x, int dims, const int64_t *out, const double *scales, bool linear, bool align)
{
    return nn_upsample_mode(x, dims, out, scales, linear ? NN_UPSAMPLE_LINEAR : NN_UPSAMPLE_NEAREST, align);
}

nn_tensor *nn_upsample_mode(nn_tensor *x, int dims, const int64_t *out, const double *scales, nn_upsample_kind kind,
                            bool align)
{
    bool linear = kind == NN_UPSAMPLE_LINEAR, exact = kind == NN_UPSAMPLE_NEAREST_EXACT;
    char s[128];
    if (x->ndim != dims + 2)
        return nn_error_set(NN_ERR_RUNTIME, "Expected %dD input, but got input of size: %s", dims + 2,
                            nn_shape_str(x->ndim, x->sizes, s, sizeof s)),
               NULL;
    for (int d = 0; d < dims; d++)
        if (x->sizes[2 + d] <= 0 || out[d] <= 0) {
            /* ATen's upsample_2d_common_check words it without the "and" */
            if (dims == 2)
                return nn_error_set(NN_ERR_RUNTIME, "Input and output sizes should be greater than 0, but got input (H: "
                                    "%lld, W: %lld) output (H: %lld, W: %lld)", (long long)x->sizes[2],
                                    (long long)x->sizes[3], (long long)out[0], (long long)out[1]),
                       NULL;
            return nn_error_set(NN_ERR_RUNTIME, "Input and output sizes should be greater than 0, but got input (W: %lld) "
                                "and output (W: %lld)", (long long)x->sizes[2], (long long)out[0]),
                   NULL;
        }
    if (x->dtype != NN_FLOAT32 && x->dtype != NN_FLOAT64)
        return nn_error_set(NN_ERR_RUNTIME, "\"%s\" not implemented for '%s'",
                            linear ? (dims == 1 ? "upsample_linear1d_channels_last" : "upsample_bilinear2d_channels_last")
                                   : "compute_indices_weights_nearest",
                            nn_dtype_scalar_name(x->dtype)),
               NULL;
    nn_op_params p = {.n_i = 4, .flags = (linear ? 1 : 0) | (align ? 2 : 0) | (exact ? 4 : 0)};
    p.i[0] = dims == 2 ? x->sizes[2] : 1, p.i[1] = x->sizes[1 + dims];
    p.i[2] = dims == 2 ? out[0] : 1, p.i[3] = out[dims - 1];
    p.f[0] = dims == 2 ? scales[0] : NAN, p.f[1] = scales[dims - 1];
    int64_t sizes[4] = {x->sizes[0], x->sizes[1], out[0], dims == 2 ? out[1] : 0};
    nn_tensor *c = NULL;
    NN_WITH_GRAD_MODE(false, c = nn_contiguous(x));
    nn_tensor *y = c ? nn_empty(dims + 2, sizes, x->dtype) : NULL;
    if (y && run(&p, dims, x->sizes[0] * x->sizes[1], c, y, NULL, NULL) < 0) NN_SET(y, NULL);
    NN_RELEASE(c);
    if (y && nn_record(ops[kind][dims - 1], 1, &x, 1, &y, 0, NULL, &p) < 0) NN_SET(y, NULL);
    return y;
}

static int upsample_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin, int dims)
{
    nn_tensor *g = gout[0], *gc = NULL;
    NN_WITH_GRAD_MODE(false, gc = nn_contiguous(g));
    int64_t sizes[4] = {g->sizes[0], g->sizes[1], dims == 2 ? n->p.i[0] : n->p.i[1], n->p.i[1]};
    nn_tensor *gx = gc ? nn_zeros(dims + 2, sizes, g->dtype) : NULL;
    int rc = gx ? run(&n->p, dims, g->sizes[0] * g->sizes[1], NULL, NULL, gc, gx) : -1;
    NN_RELEASE(gc);
    if (rc < 0) NN_SET(gx, NULL);
    gin[0] = gx;
    return gx ? 0 : -1;
}

int nn_upsample_nearest1d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return upsample_backward(n, gout, gin, 1); }
int nn_upsample_nearest2d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return upsample_backward(n, gout, gin, 2); }
int nn_upsample_linear1d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return upsample_backward(n, gout, gin, 1); }
int nn_upsample_bilinear2d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return upsample_backward(n, gout, gin, 2); }
int nn_upsample_nearest_exact1d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return upsample_backward(n, gout, gin, 1); }
int nn_upsample_nearest_exact2d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return upsample_backward(n, gout, gin, 2); }

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
    bool linear = !strcmp(mode, "linear") || !strcmp(mode, "bilinear");
    if (!strcmp(mode, "linear") && dims != 1)
        return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "Got %dD input, but linear mode needs 3D input", x->ndim), NULL;
    if (!strcmp(mode, "bilinear") && dims != 2)
        return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "Got %dD input, but bilinear mode needs 4D input", x->ndim), NULL;
    if ((!strcmp(mode, "nearest") || linear) && dims <= 2) return nn_upsample(x, dims, out, sv, linear, align);
    if (!strcmp(mode, "nearest-exact") && dims <= 2)
        return nn_upsample_mode(x, dims, out, sv, NN_UPSAMPLE_NEAREST_EXACT, false);
    /* area: adaptive average pooling to the output size, as F.interpolate calls it */
    if (!strcmp(mode, "area") && dims == 1) return nn_adaptive_avg_pool1d(x, out[0]);
    if (!strcmp(mode, "area") && dims == 2) return nn_adaptive_avg_pool2d(x, out);
    return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "interpolate: mode '%s' for %dD input is not supported", mode, x->ndim),
           NULL;
}
