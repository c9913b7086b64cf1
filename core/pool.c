/*
 * pool.c — 2-d pooling over the last two dims of [C, H, W] or [N, C, H, W]:
 * max pooling with indices (kernel, stride, padding, dilation, ceil_mode),
 * average pooling (count_include_pad, divisor_override), adaptive average and
 * adaptive max pooling, each forward with its backward beside it. The 1-d
 * forms are these with a height of 1, as PyTorch 1.13 computes them
 * (unsqueeze(-2), pool, squeeze(-2)).
 *
 * Numerics are PyTorch's CPU kernels for contiguous inputs: a window's max
 * takes the first largest element and any NaN; a float32 average sums the
 * window in float32 in row order and divides once (adaptive: by kh, then by kw).
 * Backwards are direct kernels (a max pool's gradient goes to the recorded
 * index, an average's is spread over the window); they are not themselves
 * differentiable (no double backward through pooling).
 * Not here: channels-last layouts, bfloat16/float16, 3-d pooling.
 */
#include <math.h>
#include <string.h>

#include "nn_int.h"

/* The geometry of one 2-d pooling: planes = N*C images of H x W into OH x OW. */
typedef struct geom {
    int64_t planes, H, W, OH, OW;
    int64_t k[2], s[2], p[2], d[2];
} geom;

/* PyTorch's pooling_output_shape: the output length of one dim. 0 or -1. */
static int out_len(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil_mode, int64_t *out)
{
    if (stride == 0) return nn_error_set(NN_ERR_RUNTIME, "stride should not be zero");
    if (pad < 0) return nn_error_set(NN_ERR_RUNTIME, "pad must be non-negative, but got pad: %lld", (long long)pad);
    if (pad > k / 2)
        return nn_error_set(NN_ERR_RUNTIME, "pad should be at most half of kernel size, but got pad=%lld and kernel_size=%lld",
                            (long long)pad, (long long)k);
    int64_t num = in + 2 * pad - dil * (k - 1) - 1 + (ceil_mode ? stride - 1 : 0);
    int64_t q = num / stride;
    if ((num % stride != 0) && ((num < 0) != (stride < 0))) q--; /* div_rtn: toward -inf */
    int64_t o = q + 1;
    if (ceil_mode && (o - 1) * stride >= in + pad) o--;
    *out = o;
    return 0;
}

/* Fills g from x's shape and the window; checks as PyTorch's pool2d_shape_check. */
static int make_geom(const char *name, const nn_tensor *x, const int64_t k[2], const int64_t s[2], const int64_t p[2],
                     const int64_t d[2], bool ceil_mode, geom *g)
{
    if (x->ndim != 3 && x->ndim != 4)
        return nn_error_set(NN_ERR_RUNTIME, "non-empty 3D or 4D (batch mode) tensor expected for input");
    g->H = x->sizes[x->ndim - 2];
    g->W = x->sizes[x->ndim - 1];
    g->planes = x->sizes[x->ndim - 3] * (x->ndim == 4 ? x->sizes[0] : 1);
    for (int i = 0; i < 2; i++) g->k[i] = k[i], g->s[i] = s[i], g->p[i] = p[i], g->d[i] = d[i];
    if (out_len(g->H, k[0], p[0], s[0], d[0], ceil_mode, &g->OH) < 0 ||
        out_len(g->W, k[1], p[1], s[1], d[1], ceil_mode, &g->OW) < 0)
        return -1;
    if (k[0] <= 0 || k[1] <= 0)
        return nn_error_set(NN_ERR_RUNTIME, "kernel size should be greater than zero, but got kH: %lld kW: %lld",
                            (long long)k[0], (long long)k[1]);
    if (s[0] <= 0 || s[1] <= 0)
        return nn_error_set(NN_ERR_RUNTIME, "stride should be greater than zero, but got dH: %lld dW: %lld",
                            (long long)s[0], (long long)s[1]);
    if (d[0] <= 0 || d[1] <= 0)
        return nn_error_set(NN_ERR_RUNTIME, "dilation should be greater than zero, but got dilationH: %lld dilationW: %lld",
                            (long long)d[0], (long long)d[1]);
    for (int i = 0; i < x->ndim - 2; i++)
        if (x->sizes[i] == 0 && !(x->ndim == 4 && i == 0))
            return nn_error_set(NN_ERR_RUNTIME, "non-empty 3D or 4D (batch mode) tensor expected for input");
    if (g->OH < 1 || g->OW < 1)
        return nn_error_set(NN_ERR_RUNTIME, "Given input size: (%lldx%lldx%lld). Calculated output size: (%lldx%lldx%lld). "
                            "Output size is too small", (long long)x->sizes[x->ndim - 3], (long long)g->H, (long long)g->W,
                            (long long)x->sizes[x->ndim - 3], (long long)g->OH, (long long)g->OW);
    return 0;
}

/* x's sizes with the last two replaced by oh, ow (into sizes); the ndim. */
static int out_shape(const nn_tensor *x, int64_t oh, int64_t ow, int64_t *sizes)
{
    memcpy(sizes, x->sizes, sizeof(int64_t) * (size_t)x->ndim);
    sizes[x->ndim - 2] = oh;
    sizes[x->ndim - 1] = ow;
    return x->ndim;
}

static int check_float(const char *kernel, const nn_tensor *x)
{
    if (x->dtype == NN_FLOAT32 || x->dtype == NN_FLOAT64) return 0;
    return nn_error_set(NN_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel, nn_dtype_scalar_name(x->dtype));
}

/* ------------------------------------------------------------- max pool */

/* Windows that never leave the image (no padding, no dilation, the last window
   inside): the same comparisons in the same order, the bounds hoisted. A window's
   first element starts the max (v > -inf || isnan(v) would take it, or keep
   best at it when it is -inf). */
/* select_T(mask, a, b): mask (all ones or zero) ? a : b, through the bits (U: T's bits) */
#define DEFINE_SELECT(T, U)                                                                         \
    static inline T select_##T(int64_t mask, T a, T b)                                              \
    {                                                                                               \
        U ua, ub;                                                                                   \
        memcpy(&ua, &a, sizeof ua);                                                                 \
        memcpy(&ub, &b, sizeof ub);                                                                 \
        ua = (ua & (U)mask) | (ub & ~(U)mask);                                                      \
        memcpy(&a, &ua, sizeof a);                                                                  \
        return a;                                                                                   \
    }
DEFINE_SELECT(float, uint32_t)
DEFINE_SELECT(double, uint64_t)

#define MAX_POOL_FWD_INSIDE(T)                                                                      \
    static void max_pool_fwd_inside_##T(const geom *g, const T *in, T *out, int64_t *idx)           \
    {                                                                                               \
        const int64_t H = g->H, W = g->W, kh = g->k[0], kw = g->k[1], sh = g->s[0], sw = g->s[1];     \
        for (int64_t c = 0; c < g->planes; c++) {                                                   \
            const T *ip = in + c * H * W;                                                           \
            T *op = out + c * g->OH * g->OW;                                                        \
            int64_t *xp = idx + c * g->OH * g->OW;                                                  \
            for (int64_t oh = 0; oh < g->OH; oh++)                                                  \
                for (int64_t ow = 0; ow < g->OW; ow++) {                                            \
                    int64_t first = oh * sh * W + ow * sw, best = first;                            \
                    T m = ip[first];                                                                \
                    for (int64_t h = 0; h < kh; h++)                                                \
                        for (int64_t w = h == 0; w < kw; w++) {                                     \
                            int64_t at = first + h * W + w;                                         \
                            T v = ip[at];                                                           \
                            /* masks, not a branch: the data decide, and they are random */       \
                            int64_t take = -(int64_t)((v > m) | (v != v));                          \
                            m = select_##T(take, v, m);                                             \
                            best = (at & take) | (best & ~take);                                    \
                        }                                                                           \
                    op[oh * g->OW + ow] = m;                                                        \
                    xp[oh * g->OW + ow] = best;                                                     \
                }                                                                                   \
        }                                                                                           \
    }
MAX_POOL_FWD_INSIDE(float)
MAX_POOL_FWD_INSIDE(double)

static bool windows_inside(const geom *g)
{
    return g->p[0] == 0 && g->p[1] == 0 && g->d[0] == 1 && g->d[1] == 1 && (g->OH - 1) * g->s[0] + g->k[0] <= g->H &&
           (g->OW - 1) * g->s[1] + g->k[1] <= g->W;
}

#define MAX_POOL_FWD(T)                                                                             \
    static void max_pool_fwd_##T(const geom *g, const T *in, T *out, int64_t *idx)                  \
    {                                                                                               \
        if (windows_inside(g)) {                                                                    \
            max_pool_fwd_inside_##T(g, in, out, idx);                                               \
            return;                                                                                 \
        }                                                                                           \
        for (int64_t c = 0; c < g->planes; c++) {                                                   \
            const T *ip = in + c * g->H * g->W;                                                     \
            for (int64_t oh = 0; oh < g->OH; oh++)                                                  \
                for (int64_t ow = 0; ow < g->OW; ow++) {                                            \
                    int64_t h0 = oh * g->s[0] - g->p[0], w0 = ow * g->s[1] - g->p[1];               \
                    int64_t h1 = h0 + (g->k[0] - 1) * g->d[0] + 1, w1 = w0 + (g->k[1] - 1) * g->d[1] + 1; \
                    if (h1 > g->H) h1 = g->H;                                                       \
                    if (w1 > g->W) w1 = g->W;                                                       \
                    while (h0 < 0) h0 += g->d[0];                                                   \
                    while (w0 < 0) w0 += g->d[1];                                                   \
                    int64_t best = h0 * g->W + w0;                                                  \
                    T m = -INFINITY;                                                                \
                    for (int64_t h = h0; h < h1; h += g->d[0])                                      \
                        for (int64_t w = w0; w < w1; w += g->d[1]) {                                \
                            T v = ip[h * g->W + w];                                                 \
                            if (v > m || isnan(v)) m = v, best = h * g->W + w;                      \
                        }                                                                           \
                    int64_t o = (c * g->OH + oh) * g->OW + ow;                                      \
                    out[o] = m;                                                                     \
                    idx[o] = best;                                                                  \
                }                                                                                   \
        }                                                                                           \
    }
MAX_POOL_FWD(float)
MAX_POOL_FWD(double)

/* gin (zeroed, planes of in_plane elements) [idx] += gout, plane by plane. */
static void scatter_by_index(const geom *g, int64_t in_plane, int64_t out_plane, nn_tensor *gin, nn_tensor *gout,
                             nn_tensor *idx)
{
    const int64_t *ix = nn_data_ptr(idx);
    if (gin->dtype == NN_FLOAT32) {
        float *gi = nn_data_ptr(gin);
        const float *go = nn_data_ptr(gout);
        for (int64_t c = 0; c < g->planes; c++, gi += in_plane, go += out_plane, ix += out_plane)
            for (int64_t o = 0; o < out_plane; o++) gi[ix[o]] += go[o];
    } else {
        double *gi = nn_data_ptr(gin);
        const double *go = nn_data_ptr(gout);
        for (int64_t c = 0; c < g->planes; c++, gi += in_plane, go += out_plane, ix += out_plane)
            for (int64_t o = 0; o < out_plane; o++) gi[ix[o]] += go[o];
    }
}

typedef void (*index_fwd_f)(const geom *, const float *, float *, int64_t *);
typedef void (*index_fwd_d)(const geom *, const double *, double *, int64_t *);

/* A pooling that records each maximum's index (max, adaptive max): runs ff or
   fd over x's planes and records op saving the indices. */
static nn_tensor *index_pool(nn_tensor *x, const geom *g, nn_op_id op, index_fwd_f ff, index_fwd_d fd,
                             nn_tensor **indices)
{
    int64_t sizes[NN_MAX_DIMS];
    int nd = out_shape(x, g->OH, g->OW, sizes);
    nn_tensor *xc = nn_contiguous(x), *out = xc ? nn_empty(nd, sizes, x->dtype) : NULL,
              *idx = out ? nn_empty(nd, sizes, NN_INT64) : NULL;
    if (!idx) goto fail;
    if (x->dtype == NN_FLOAT32) ff(g, nn_data_ptr(xc), nn_data_ptr(out), nn_data_ptr(idx));
    else fd(g, nn_data_ptr(xc), nn_data_ptr(out), nn_data_ptr(idx));
    if (nn_record(op, 1, &x, 1, &out, 1, &idx, NULL) < 0) goto fail;
    NN_RELEASE(xc);
    if (indices) *indices = idx;
    else NN_RELEASE(idx);
    return out;
fail:
    NN_RELEASE(xc);
    NN_RELEASE(out);
    NN_RELEASE(idx);
    return NULL;
}

nn_tensor *nn_max_pool2d(nn_tensor *x, const int64_t k[2], const int64_t s[2], const int64_t p[2], const int64_t d[2],
                         bool ceil_mode, nn_tensor **indices)
{
    geom g;
    if (make_geom("max_pool2d", x, k, s, p, d, ceil_mode, &g) < 0 || check_float("max_pool2d", x) < 0) return NULL;
    return index_pool(x, &g, NN_OP_max_pool2d, max_pool_fwd_float, max_pool_fwd_double, indices);
}

/* The input's shape from the node, the gradient scattered to the saved indices. */
static int index_pool_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    const nn_input_meta *m = &n->input_meta[0];
    nn_tensor *idx = nn_node_saved(n, 0), *gc = nn_contiguous(gout[0]);
    nn_tensor *gi = gc ? nn_zeros(m->ndim, m->sizes, m->dtype) : NULL;
    if (gi) {
        geom g = {.planes = 1};
        for (int i = 0; i < m->ndim - 2; i++) g.planes *= m->sizes[i];
        int64_t in_plane = m->sizes[m->ndim - 2] * m->sizes[m->ndim - 1];
        int64_t out_plane = gc->sizes[gc->ndim - 2] * gc->sizes[gc->ndim - 1];
        nn_tensor *gt = nn_to_dtype(gc, m->dtype);
        if (gt) scatter_by_index(&g, in_plane, out_plane, gi, gt, idx);
        else NN_SET(gi, NULL);
        NN_RELEASE(gt);
    }
    NN_RELEASE(gc);
    gin[0] = gi;
    return gi ? 0 : -1;
}

int nn_max_pool2d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return index_pool_backward(n, gout, gin); }

/* ------------------------------------------------------------- avg pool */

/* One output's window [h0, h1) x [w0, w1) clipped to the image, and its divisor. */
static void avg_window(const geom *g, int64_t oh, int64_t ow, bool count_pad, int64_t divisor, int64_t *h0, int64_t *h1,
                       int64_t *w0, int64_t *w1, int64_t *div)
{
    *h0 = oh * g->s[0] - g->p[0];
    *w0 = ow * g->s[1] - g->p[1];
    *h1 = *h0 + g->k[0] < g->H + g->p[0] ? *h0 + g->k[0] : g->H + g->p[0];
    *w1 = *w0 + g->k[1] < g->W + g->p[1] ? *w0 + g->k[1] : g->W + g->p[1];
    int64_t pool = (*h1 - *h0) * (*w1 - *w0);
    if (*h0 < 0) *h0 = 0;
    if (*w0 < 0) *w0 = 0;
    if (*h1 > g->H) *h1 = g->H;
    if (*w1 > g->W) *w1 = g->W;
    *div = divisor ? divisor : count_pad ? pool : (*h1 - *h0) * (*w1 - *w0);
}

#define AVG_POOL(T)                                                                                 \
    static void avg_pool_fwd_##T(const geom *g, bool cp, int64_t dv, const T *in, T *out)           \
    {                                                                                               \
        for (int64_t c = 0; c < g->planes; c++)                                                     \
            for (int64_t oh = 0; oh < g->OH; oh++)                                                  \
                for (int64_t ow = 0; ow < g->OW; ow++) {                                            \
                    int64_t h0, h1, w0, w1, div;                                                    \
                    avg_window(g, oh, ow, cp, dv, &h0, &h1, &w0, &w1, &div);                        \
                    T sum = 0;                                                                      \
                    for (int64_t h = h0; h < h1; h++)                                               \
                        for (int64_t w = w0; w < w1; w++) sum += in[(c * g->H + h) * g->W + w];     \
                    out[(c * g->OH + oh) * g->OW + ow] = sum / (T)div;                              \
                }                                                                                   \
    }                                                                                               \
    static void avg_pool_bwd_##T(const geom *g, bool cp, int64_t dv, const T *gout, T *gin)         \
    {                                                                                               \
        for (int64_t c = 0; c < g->planes; c++)                                                     \
            for (int64_t oh = 0; oh < g->OH; oh++)                                                  \
                for (int64_t ow = 0; ow < g->OW; ow++) {                                            \
                    int64_t h0, h1, w0, w1, div;                                                    \
                    avg_window(g, oh, ow, cp, dv, &h0, &h1, &w0, &w1, &div);                        \
                    T delta = gout[(c * g->OH + oh) * g->OW + ow] / (T)div;                         \
                    for (int64_t h = h0; h < h1; h++)                                               \
                        for (int64_t w = w0; w < w1; w++) gin[(c * g->H + h) * g->W + w] += delta;  \
                }                                                                                   \
    }
AVG_POOL(float)
AVG_POOL(double)

nn_tensor *nn_avg_pool2d(nn_tensor *x, const int64_t k[2], const int64_t s[2], const int64_t p[2], bool ceil_mode,
                         bool count_include_pad, int64_t divisor_override)
{
    static const int64_t one[2] = {1, 1};
    geom g;
    if (make_geom("avg_pool2d", x, k, s, p, one, ceil_mode, &g) < 0 || check_float("avg_pool2d", x) < 0) return NULL;
    int64_t sizes[NN_MAX_DIMS];
    int nd = out_shape(x, g.OH, g.OW, sizes);
    nn_tensor *xc = nn_contiguous(x), *out = xc ? nn_empty(nd, sizes, x->dtype) : NULL;
    if (out) {
        if (x->dtype == NN_FLOAT32) avg_pool_fwd_float(&g, count_include_pad, divisor_override, nn_data_ptr(xc), nn_data_ptr(out));
        else avg_pool_fwd_double(&g, count_include_pad, divisor_override, nn_data_ptr(xc), nn_data_ptr(out));
        nn_op_params prm = {.n_i = 9, .flags = count_include_pad};
        for (int i = 0; i < 2; i++) prm.i[i] = k[i], prm.i[2 + i] = s[i], prm.i[4 + i] = p[i];
        prm.i[6] = divisor_override;
        if (nn_record(NN_OP_avg_pool2d, 1, &x, 1, &out, 0, NULL, &prm) < 0) NN_SET(out, NULL);
    }
    NN_RELEASE(xc);
    return out;
}

int nn_avg_pool2d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    const nn_input_meta *m = &n->input_meta[0];
    const int64_t *pi = n->p.i;
    geom g = {.planes = 1, .H = m->sizes[m->ndim - 2], .W = m->sizes[m->ndim - 1]};
    for (int i = 0; i < m->ndim - 2; i++) g.planes *= m->sizes[i];
    for (int i = 0; i < 2; i++) g.k[i] = pi[i], g.s[i] = pi[2 + i], g.p[i] = pi[4 + i], g.d[i] = 1;
    nn_tensor *gc = nn_contiguous(gout[0]), *gt = gc ? nn_to_dtype(gc, m->dtype) : NULL;
    nn_tensor *gi = gt ? nn_zeros(m->ndim, m->sizes, m->dtype) : NULL;
    if (gi) {
        g.OH = gt->sizes[gt->ndim - 2];
        g.OW = gt->sizes[gt->ndim - 1];
        if (m->dtype == NN_FLOAT32) avg_pool_bwd_float(&g, n->p.flags, pi[6], nn_data_ptr(gt), nn_data_ptr(gi));
        else avg_pool_bwd_double(&g, n->p.flags, pi[6], nn_data_ptr(gt), nn_data_ptr(gi));
    }
    NN_RELEASE(gc);
    NN_RELEASE(gt);
    gin[0] = gi;
    return gi ? 0 : -1;
}

/* ---------------------------------------------------------- adaptive pools */

/* PyTorch's start_index / end_index of adaptive pooling. */
static int64_t a_start(int64_t o, int64_t out, int64_t in) { return (o * in) / out; }
static int64_t a_end(int64_t o, int64_t out, int64_t in) { return ((o + 1) * in + out - 1) / out; }

static int adaptive_check(const char *name, const nn_tensor *x, const int64_t osz[2], geom *g)
{
    if (x->ndim != 3 && x->ndim != 4) {
        char buf[128];
        return nn_error_set(NN_ERR_RUNTIME, "%s(): Expected 3D or 4D tensor, but got %s", name,
                            nn_shape_str(x->ndim, x->sizes, buf, sizeof buf));
    }
    for (int i = 1; i < x->ndim; i++)
        if (x->sizes[i] == 0)
            return nn_error_set(NN_ERR_RUNTIME, "%s(): Expected input to have non-zero size for non-batch dimensions, "
                                "but input has sizes with dimension %d being empty", name, i);
    if (osz[0] < 0 || osz[1] < 0)
        return nn_error_set(NN_ERR_RUNTIME, "%s: elements of output_size must be greater than or equal to 0 but received "
                            "{%lld, %lld}", name, (long long)osz[0], (long long)osz[1]);
    memset(g, 0, sizeof *g);
    g->H = x->sizes[x->ndim - 2];
    g->W = x->sizes[x->ndim - 1];
    g->planes = x->sizes[x->ndim - 3] * (x->ndim == 4 ? x->sizes[0] : 1);
    g->OH = osz[0];
    g->OW = osz[1];
    return check_float(name, x);
}

#define ADAPTIVE(T)                                                                                 \
    static void adaptive_avg_fwd_##T(const geom *g, const T *in, T *out)                            \
    {                                                                                               \
        for (int64_t c = 0; c < g->planes; c++)                                                     \
            for (int64_t oh = 0; oh < g->OH; oh++) {                                                \
                int64_t h0 = a_start(oh, g->OH, g->H), h1 = a_end(oh, g->OH, g->H);                 \
                for (int64_t ow = 0; ow < g->OW; ow++) {                                            \
                    int64_t w0 = a_start(ow, g->OW, g->W), w1 = a_end(ow, g->OW, g->W);             \
                    T sum = 0;                                                                      \
                    for (int64_t h = h0; h < h1; h++)                                               \
                        for (int64_t w = w0; w < w1; w++) sum += in[(c * g->H + h) * g->W + w];     \
                    out[(c * g->OH + oh) * g->OW + ow] = sum / (T)(h1 - h0) / (T)(w1 - w0);         \
                }                                                                                   \
            }                                                                                       \
    }                                                                                               \
    static void adaptive_avg_bwd_##T(const geom *g, const T *gout, T *gin)                          \
    {                                                                                               \
        for (int64_t c = 0; c < g->planes; c++)                                                     \
            for (int64_t oh = 0; oh < g->OH; oh++) {                                                \
                int64_t h0 = a_start(oh, g->OH, g->H), h1 = a_end(oh, g->OH, g->H);                 \
                for (int64_t ow = 0; ow < g->OW; ow++) {                                            \
                    int64_t w0 = a_start(ow, g->OW, g->W), w1 = a_end(ow, g->OW, g->W);             \
                    T delta = gout[(c * g->OH + oh) * g->OW + ow] / (T)(h1 - h0) / (T)(w1 - w0);    \
                    for (int64_t h = h0; h < h1; h++)                                               \
                        for (int64_t w = w0; w < w1; w++) gin[(c * g->H + h) * g->W + w] += delta;  \
                }                                                                                   \
            }                                                                                       \
    }                                                                                               \
    static void adaptive_max_fwd_##T(const geom *g, const T *in, T *out, int64_t *idx)              \
    {                                                                                               \
        for (int64_t c = 0; c < g->planes; c++)                                                     \
            for (int64_t oh = 0; oh < g->OH; oh++) {                                                \
                int64_t h0 = a_start(oh, g->OH, g->H), h1 = a_end(oh, g->OH, g->H);                 \
                for (int64_t ow = 0; ow < g->OW; ow++) {                                            \
                    int64_t w0 = a_start(ow, g->OW, g->W), w1 = a_end(ow, g->OW, g->W);             \
                    int64_t best = h0 * g->W + w0;                                                  \
                    T m = -INFINITY;                                                                \
                    for (int64_t h = h0; h < h1; h++)                                               \
                        for (int64_t w = w0; w < w1; w++) {                                         \
                            T v = in[(c * g->H + h) * g->W + w];                                    \
                            if (v > m || isnan(v)) m = v, best = h * g->W + w;                      \
                        }                                                                           \
                    out[(c * g->OH + oh) * g->OW + ow] = m;                                         \
                    idx[(c * g->OH + oh) * g->OW + ow] = best;                                      \
                }                                                                                   \
            }                                                                                       \
    }
ADAPTIVE(float)
ADAPTIVE(double)

nn_tensor *nn_adaptive_avg_pool2d(nn_tensor *x, const int64_t osz[2])
{
    geom g;
    if (adaptive_check("adaptive_avg_pool2d", x, osz, &g) < 0) return NULL;
    if (osz[0] == 1 && osz[1] == 1) /* ATen takes the mean (MeanBackward1) */
        return nn_mean(x, 2, (const int[]){-1, -2}, true);
    int64_t sizes[NN_MAX_DIMS];
    int nd = out_shape(x, g.OH, g.OW, sizes);
    nn_tensor *xc = nn_contiguous(x), *out = xc ? nn_empty(nd, sizes, x->dtype) : NULL;
    if (out) {
        if (x->dtype == NN_FLOAT32) adaptive_avg_fwd_float(&g, nn_data_ptr(xc), nn_data_ptr(out));
        else adaptive_avg_fwd_double(&g, nn_data_ptr(xc), nn_data_ptr(out));
        if (nn_record(NN_OP_adaptive_avg_pool2d, 1, &x, 1, &out, 0, NULL, NULL) < 0) NN_SET(out, NULL);
    }
    NN_RELEASE(xc);
    return out;
}

int nn_adaptive_avg_pool2d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    const nn_input_meta *m = &n->input_meta[0];
    geom g = {.planes = 1, .H = m->sizes[m->ndim - 2], .W = m->sizes[m->ndim - 1]};
    for (int i = 0; i < m->ndim - 2; i++) g.planes *= m->sizes[i];
    nn_tensor *gc = nn_contiguous(gout[0]), *gt = gc ? nn_to_dtype(gc, m->dtype) : NULL;
    nn_tensor *gi = gt ? nn_zeros(m->ndim, m->sizes, m->dtype) : NULL;
    if (gi) {
        g.OH = gt->sizes[gt->ndim - 2];
        g.OW = gt->sizes[gt->ndim - 1];
        if (m->dtype == NN_FLOAT32) adaptive_avg_bwd_float(&g, nn_data_ptr(gt), nn_data_ptr(gi));
        else adaptive_avg_bwd_double(&g, nn_data_ptr(gt), nn_data_ptr(gi));
    }
    NN_RELEASE(gc);
    NN_RELEASE(gt);
    gin[0] = gi;
    return gi ? 0 : -1;
}

nn_tensor *nn_adaptive_max_pool2d(nn_tensor *x, const int64_t osz[2], nn_tensor **indices)
{
    geom g;
    if (adaptive_check("adaptive_max_pool2d", x, osz, &g) < 0) return NULL;
    return index_pool(x, &g, NN_OP_adaptive_max_pool2d, adaptive_max_fwd_float, adaptive_max_fwd_double, indices);
}

int nn_adaptive_max_pool2d_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    return index_pool_backward(n, gout, gin);
}

/* ------------------------------------------------------------- 1-d forms */

/* f over x with a height-1 dim inserted before the last (removed again). */
static nn_tensor *squeezed(nn_tensor *pooled, nn_tensor **indices)
{
    nn_tensor *r = pooled ? nn_squeeze_dim(pooled, -2) : NULL;
    NN_RELEASE(pooled);
    if (indices && *indices) {
        nn_tensor *i = r ? nn_squeeze_dim(*indices, -2) : NULL;
        NN_RELEASE(*indices);
        *indices = i;
        if (!i) NN_SET(r, NULL);
    }
    return r;
}

static int check_1d(const char *name, const nn_tensor *x)
{
    if (x->ndim == 2 || x->ndim == 3) return 0;
    char buf[128];
    return nn_error_set(NN_ERR_RUNTIME, "%s: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                        "input, but got:%s", name, nn_shape_str(x->ndim, x->sizes, buf, sizeof buf));
}

nn_tensor *nn_max_pool1d(nn_tensor *x, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil_mode, nn_tensor **indices)
{
    if (indices) *indices = NULL;
    if (check_1d("max_pool1d", x) < 0) return NULL;
    nn_tensor *u = nn_unsqueeze(x, -2);
    nn_tensor *r = u ? nn_max_pool2d(u, (int64_t[]){1, k}, (int64_t[]){1, s}, (int64_t[]){0, p}, (int64_t[]){1, d},
                                     ceil_mode, indices)
                     : NULL;
    NN_RELEASE(u);
    return squeezed(r, indices);
}

nn_tensor *nn_avg_pool1d(nn_tensor *x, int64_t k, int64_t s, int64_t p, bool ceil_mode, bool count_include_pad)
{
    if (check_1d("avg_pool1d", x) < 0) return NULL;
    nn_tensor *u = nn_unsqueeze(x, -2);
    nn_tensor *r = u ? nn_avg_pool2d(u, (int64_t[]){1, k}, (int64_t[]){1, s}, (int64_t[]){0, p}, ceil_mode,
                                     count_include_pad, 0)
                     : NULL;
    NN_RELEASE(u);
    return squeezed(r, NULL);
}

nn_tensor *nn_adaptive_avg_pool1d(nn_tensor *x, int64_t osz)
{
    if (x->ndim != 2 && x->ndim != 3) {
        char buf[128];
        nn_error_set(NN_ERR_RUNTIME, "adaptive_avg_pool1d(): Expected 2D or 3D tensor, but got %s",
                     nn_shape_str(x->ndim, x->sizes, buf, sizeof buf));
        return NULL;
    }
    nn_tensor *u = nn_unsqueeze(x, -2);
    nn_tensor *r = u ? nn_adaptive_avg_pool2d(u, (int64_t[]){1, osz}) : NULL;
    NN_RELEASE(u);
    return squeezed(r, NULL);
}
