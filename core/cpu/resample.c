/*
 * cpu/resample.c — the resample kernel (core/kernels.def): F.interpolate's
 * nearest, nearest-exact, linear (1-3 dims) and cubic modes and reflect /
 * replicate padding, forward and backward, as ATen's CPU kernels compute them.
 *
 * Each resampled dim gets a table of taps: for every output position the input
 * positions it reads (1 for nearest and padding, 2 for linear, 4 for cubic) and
 * their weights, computed in the tensor's precision. The forward interpolates
 * the innermost dim first (ATen's Interpolate: t0 * w0, then += t_j * w_j); the
 * backward adds w_outer * ... * w_inner * grad into each tap, output positions
 * in memory order, taps in lexicographic order (outer dim first; for cubic, as
 * upsample_bicubic2d_backward, the width's tap outside the height's). bfloat16
 * (forward only) rounds every product and sum to bfloat16, as ATen's.
 */
#include <math.h>
#include <string.h>

#include "nn_cpu.h"

#define MAX_TAPS 4

typedef struct taps {
    int n;              /* taps per output position */
    int64_t in, out;
    int64_t *idx;       /* [out * n] */
    double *w;          /* [out * n], rounded to the tensor's precision */
} taps;

/* The input position output position o of a padded dim reads. */
static int64_t pad_source(int64_t o, int64_t in, int64_t left, bool reflect)
{
    int64_t p = o - left;
    if (reflect) {
        if (p < 0) p = -p;
        if (p >= in) p = 2 * (in - 1) - p;
        return p;
    }
    return p < 0 ? 0 : p >= in ? in - 1 : p;
}

#define TAPS_MAKER(SUF, T)                                                                                             \
    /* compute_scales_value */                                                                                         \
    static T scale_value_##SUF(double scale, int64_t in, int64_t out)                                                  \
    {                                                                                                                  \
        return !isnan(scale) && scale > 0 ? (T)(1.0 / scale) : (T)in / (T)out;                                         \
    }                                                                                                                  \
    /* area_pixel_compute_scale */                                                                                     \
    static T area_scale_##SUF(int64_t in, int64_t out, bool align, double scale)                                       \
    {                                                                                                                  \
        return align ? (out > 1 ? (T)(in - 1) / (T)(out - 1) : (T)0) : scale_value_##SUF(scale, in, out);              \
    }                                                                                                                  \
    static T cubic1_##SUF(T x, T A) { return ((A + 2) * x - (A + 3)) * x * x + 1; }                                    \
    static T cubic2_##SUF(T x, T A) { return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A; }                              \
    static void taps_fill_##SUF(taps *a, const nn_resample_geom *g, int d)                                             \
    {                                                                                                                  \
        double scale = g->scale[d];                                                                                    \
        bool align = g->align;                                                                                         \
        for (int64_t o = 0; o < a->out; o++) {                                                                         \
            int64_t *ix = a->idx + o * a->n;                                                                           \
            double *w = a->w + o * a->n;                                                                               \
            switch (g->mode) {                                                                                         \
            case NN_RESAMPLE_REFLECT: case NN_RESAMPLE_REPLICATE:                                                      \
                ix[0] = pad_source(o, a->in, g->pad[d], g->mode == NN_RESAMPLE_REFLECT), w[0] = 1;                      \
                break;                                                                                                 \
            case NN_RESAMPLE_NEAREST_EXACT: { /* nearest_neighbor_exact_compute_source_index */                        \
                float s = (float)scale_value_##SUF(scale, a->in, a->out);                                              \
                int64_t src = (int64_t)floorf(((float)o + 0.5f) * s);                                                  \
                ix[0] = src > a->in - 1 ? a->in - 1 : src, w[0] = 1;                                                   \
                break;                                                                                                 \
            }                                                                                                          \
            case NN_RESAMPLE_NEAREST: {                                                                                \
                int64_t src;                                                                                           \
                if (a->out == a->in) src = o;                                                                          \
                else if (a->out == 2 * a->in) src = o >> 1;                                                            \
                else {                                                                                                 \
                    float s = (float)scale_value_##SUF(scale, a->in, a->out);                                          \
                    src = (int64_t)floorf((float)o * s);                                                               \
                    if (src > a->in - 1) src = a->in - 1;                                                              \
                }                                                                                                      \
                ix[0] = src, w[0] = 1;                                                                                 \
                break;                                                                                                 \
            }                                                                                                          \
            case NN_RESAMPLE_LINEAR: {                                                                                 \
                if (a->out == a->in) {                                                                                 \
                    ix[0] = ix[1] = o, w[0] = 1, w[1] = 0;                                                             \
                    break;                                                                                             \
                }                                                                                                      \
                T ratio = area_scale_##SUF(a->in, a->out, align, scale);                                               \
                T real = align ? ratio * (T)o : ratio * ((T)o + (T)0.5) - (T)0.5;                                      \
                if (!align && real < 0) real = 0;                                                                      \
                int64_t i0 = (int64_t)real;                                                                            \
                T l1 = real - (T)i0;                                                                                   \
                l1 = l1 < 0 ? 0 : l1 > 1 ? 1 : l1;                                                                     \
                ix[0] = i0, ix[1] = i0 + (i0 < a->in - 1 ? 1 : 0);                                                     \
                w[0] = (T)1 - l1, w[1] = l1;                                                                           \
                break;                                                                                                 \
            }                                                                                                          \
            case NN_RESAMPLE_CUBIC: { /* area_pixel_compute_source_index(cubic), get_cubic_upsample_coefficients */   \
                T ratio = area_scale_##SUF(a->in, a->out, align, scale);                                               \
                T real = align ? ratio * (T)o : (T)((double)ratio * ((double)o + 0.5) - 0.5);                          \
                int64_t i0 = (int64_t)floor(real);                                                                     \
                T t = real - (T)i0, A = (T)-0.75;                                                                      \
                T c[4] = {cubic2_##SUF(t + (T)1, A), cubic1_##SUF(t, A), cubic1_##SUF((T)1 - t, A),                    \
                          cubic2_##SUF((T)1 - t + (T)1, A)};                                                           \
                for (int j = 0; j < 4; j++) {                                                                          \
                    int64_t p = i0 - 1 + j;                                                                            \
                    ix[j] = p < 0 ? 0 : p > a->in - 1 ? a->in - 1 : p;                                                 \
                    w[j] = c[j];                                                                                       \
                }                                                                                                      \
                break;                                                                                                 \
            }                                                                                                          \
            }                                                                                                          \
        }                                                                                                              \
    }                                                                                                                  \
    /* the value at output position o of dims k.. of one plane (x its base), ATen's Interpolate */                     \
    static T interp_##SUF(const taps *a, int dims, int k, const int64_t *o, const T *x, const int64_t *istride)        \
    {                                                                                                                  \
        if (k > 2) return 0; /* never: dims <= 3 (tells the compiler) */                                               \
        const taps *t = &a[k];                                                                                         \
        const int64_t *ix = t->idx + o[k] * t->n;                                                                      \
        const double *w = t->w + o[k] * t->n;                                                                          \
        if (k == dims - 1) {                                                                                           \
            if (t->n == 1) return x[ix[0]];                                                                            \
            T v = x[ix[0]] * (T)w[0];                                                                                  \
            for (int j = 1; j < t->n; j++) v += x[ix[j]] * (T)w[j];                                                    \
            return v;                                                                                                  \
        }                                                                                                              \
        if (t->n == 1) return interp_##SUF(a, dims, k + 1, o, x + ix[0] * istride[k], istride);                        \
        T v = interp_##SUF(a, dims, k + 1, o, x + ix[0] * istride[k], istride) * (T)w[0];                              \
        for (int j = 1; j < t->n; j++) v += interp_##SUF(a, dims, k + 1, o, x + ix[j] * istride[k], istride) * (T)w[j]; \
        return v;                                                                                                      \
    }                                                                                                                  \
    /* gx (one plane) += (w_0 * ... * w_k-1 =) wacc * w_k * ... * g at output position o, taps outer dim first */   \
    static void scatter_##SUF(const taps *a, int dims, int k, const int64_t *o, T *gx, const int64_t *istride, T wacc,  \
                              T g)                                                                                     \
    {                                                                                                                  \
        if (k > 2) return; /* never: dims <= 3 (tells the compiler) */                                                 \
        const taps *t = &a[k];                                                                                         \
        const int64_t *ix = t->idx + o[k] * t->n;                                                                      \
        const double *w = t->w + o[k] * t->n;                                                                          \
        for (int j = 0; j < t->n; j++) {                                                                               \
            T wj = k == 0 ? (T)w[j] : wacc * (T)w[j];                                                                  \
            if (k == dims - 1) gx[ix[j] * istride[k]] += wj * g;                                                       \
            else scatter_##SUF(a, dims, k + 1, o, gx + ix[j] * istride[k], istride, wj, g);                            \
        }                                                                                                              \
    }                                                                                                                  \
    static void cubic2d_backward_##SUF(const taps *a, const int64_t *o, T *gx, int64_t W, T g)                         \
    {                                                                                                                  \
        const int64_t *iy = a[0].idx + o[0] * 4, *ix = a[1].idx + o[1] * 4;                                            \
        const double *wy = a[0].w + o[0] * 4, *wx = a[1].w + o[1] * 4;                                                 \
        for (int i = 0; i < 4; i++)                                                                                    \
            for (int j = 0; j < 4; j++) gx[iy[j] * W + ix[i]] += g * (T)wy[j] * (T)wx[i];                              \
    }                                                                                                                  \
    static void run_##SUF(const nn_resample_geom *g, const taps *a, bool backward, T *out, const T *in)               \
    {                                                                                                                  \
        int dims = g->dims;                                                                                            \
        int64_t istride[3], isz = 1, osz = 1;                                                                          \
        for (int d = dims - 1; d >= 0; d--) istride[d] = isz, isz *= g->in[d], osz *= g->out[d];                       \
        bool cubic2d = g->mode == NN_RESAMPLE_CUBIC && dims == 2;                                                      \
        for (int64_t b = 0; b < g->planes; b++) {                                                                      \
            int64_t o[3] = {0, 0, 0};                                                                                  \
            for (int64_t i = 0; i < osz; i++) {                                                                        \
                if (!backward) out[b * osz + i] = interp_##SUF(a, dims, 0, o, in + b * isz, istride);                 \
                else if (cubic2d) cubic2d_backward_##SUF(a, o, out + b * isz, g->in[1], in[b * osz + i]);              \
                else scatter_##SUF(a, dims, 0, o, out + b * isz, istride, 1, in[b * osz + i]);            \
                for (int d = dims - 1; d >= 0; d--) {                                                                  \
                    if (++o[d] < g->out[d]) break;                                                                     \
                    o[d] = 0;                                                                                          \
                }                                                                                                      \
            }                                                                                                          \
        }                                                                                                              \
    }
TAPS_MAKER(f32, float)
TAPS_MAKER(f64, double)

/* bfloat16 (forward): the taps computed in bfloat16 arithmetic (1.13's templates over scalar_t:
   each operation of two bfloat16 values rounded to bfloat16, one with a double in double, then
   stored as bfloat16), and every product and sum of the interpolation rounded to bfloat16, as
   c10::BFloat16's operators in ATen's Interpolate */
static float bf16_round(double v) { return nn_bfloat16_to_float(nn_float_to_bfloat16((float)v)); }
#define B(x) bf16_round(x)

static float cubic1_bf16(float x, float A) { return B(B(B(B(B(B(A + 2) * x) - B(A + 3)) * x) * x) + 1); }
static float cubic2_bf16(float x, float A)
{
    return B(B(B(B(B(B(B(A * x) - B(5 * A)) * x) + B(8 * A)) * x)) - B(4 * A));
}

static void taps_fill_bf16(taps *a, const nn_resample_geom *g, int d)
{
    if (g->mode != NN_RESAMPLE_LINEAR && g->mode != NN_RESAMPLE_CUBIC) {
        taps_fill_f32(a, g, d); /* weights 1 */
        return;
    }
    int64_t in = a->in, out = a->out;
    double s = g->scale[d];
    bool align = g->align;
    /* area_pixel_compute_scale<BFloat16>: an int64 operand becomes a bfloat16 first */
    float ratio = align ? (out > 1 ? B(B((double)(in - 1)) / B((double)(out - 1))) : 0)
                        : (!isnan(s) && s > 0 ? B(1.0 / s) : B(B((double)in) / B((double)out)));
    for (int64_t o = 0; o < out; o++) {
        int64_t *ix = a->idx + o * a->n;
        double *w = a->w + o * a->n;
        float real = align ? B(ratio * B((double)o)) : B((double)ratio * ((double)o + 0.5) - 0.5);
        if (g->mode == NN_RESAMPLE_LINEAR) {
            if (out == in) {
                ix[0] = ix[1] = o, w[0] = 1, w[1] = 0;
                continue;
            }
            if (!align && real < 0) real = 0;
            int64_t i0 = (int64_t)real;
            float l1 = B(real - B((double)i0));
            ix[0] = i0, ix[1] = i0 + (i0 < in - 1 ? 1 : 0);
            w[0] = B(1 - l1), w[1] = l1;
        } else {
            int64_t i0 = (int64_t)floorf(real);
            float t = B(real - B((double)i0)), A = -0.75f;
            float c[4] = {cubic2_bf16(B((double)t + 1.0), A), cubic1_bf16(t, A), cubic1_bf16(B(1.0 - t), A),
                          cubic2_bf16(B(B(1.0 - t) + 1.0), A)};
            for (int j = 0; j < 4; j++) {
                int64_t p = i0 - 1 + j;
                ix[j] = p < 0 ? 0 : p > in - 1 ? in - 1 : p;
                w[j] = c[j];
            }
        }
    }
}
#undef B

static float interp_bf16(const taps *a, int dims, int k, const int64_t *o, const uint16_t *x, const int64_t *istride)
{
    if (k > 2) return 0; /* never: dims <= 3 (tells the compiler) */
    const taps *t = &a[k];
    const int64_t *ix = t->idx + o[k] * t->n;
    const double *w = t->w + o[k] * t->n;
    float v = 0;
    for (int j = 0; j < t->n; j++) {
        float tj = k == dims - 1 ? nn_bfloat16_to_float(x[ix[j]])
                                 : interp_bf16(a, dims, k + 1, o, x + ix[j] * istride[k], istride);
        if (t->n == 1) return tj;
        float p = bf16_round(tj * (float)w[j]);
        v = j ? bf16_round(v + p) : p;
    }
    return v;
}

static void run_bf16(const nn_resample_geom *g, const taps *a, uint16_t *out, const uint16_t *in)
{
    int dims = g->dims;
    int64_t istride[3], isz = 1, osz = 1;
    for (int d = dims - 1; d >= 0; d--) istride[d] = isz, isz *= g->in[d], osz *= g->out[d];
    for (int64_t b = 0; b < g->planes; b++) {
        int64_t o[3] = {0, 0, 0};
        for (int64_t i = 0; i < osz; i++) {
            out[b * osz + i] = nn_float_to_bfloat16(interp_bf16(a, dims, 0, o, in + b * isz, istride));
            for (int d = dims - 1; d >= 0; d--) {
                if (++o[d] < g->out[d]) break;
                o[d] = 0;
            }
        }
    }
}

int nn_cpu_resample(const nn_resample_geom *g, bool backward, nn_tensor *out, const nn_tensor *in)
{
    int n = g->mode == NN_RESAMPLE_LINEAR ? 2 : g->mode == NN_RESAMPLE_CUBIC ? 4 : 1;
    taps a[3];
    memset(a, 0, sizeof a);
    int rc = 0;
    for (int d = 0; d < g->dims && rc == 0; d++) {
        a[d].n = n, a[d].in = g->in[d], a[d].out = g->out[d];
        size_t len = (size_t)(g->out[d] > 0 ? g->out[d] : 1) * (size_t)n;
        a[d].idx = nn_malloc(len * sizeof(int64_t));
        a[d].w = nn_malloc(len * sizeof(double));
        if (!a[d].idx || !a[d].w) rc = -1;
        else if (out->dtype == NN_FLOAT32) taps_fill_f32(&a[d], g, d);
        else if (out->dtype == NN_BFLOAT16) taps_fill_bf16(&a[d], g, d);
        else taps_fill_f64(&a[d], g, d);
    }
    if (rc == 0) {
        if (out->dtype == NN_FLOAT32) run_f32(g, a, backward, nn_data_ptr(out), nn_data_ptr(in));
        else if (out->dtype == NN_BFLOAT16 && !backward) run_bf16(g, a, nn_data_ptr(out), nn_data_ptr(in));
        else run_f64(g, a, backward, nn_data_ptr(out), nn_data_ptr(in));
    }
    for (int d = 0; d < 3; d++) nn_free(a[d].idx), nn_free(a[d].w);
    return rc;
}
