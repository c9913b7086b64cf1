/*
 * cpu/pool.c — the CPU's `pool` kernel (core/kernels.def, nn_pool_op): 2-d max
 * pooling with indices (a branch-free loop where every window is inside the
 * image), average, adaptive average and adaptive max pooling, and their
 * backwards, as PyTorch's CPU kernels compute them for contiguous inputs: a
 * window's max takes the first largest element and any NaN; a float32 average
 * sums the window in float32 in row order and divides once (adaptive: by kh,
 * then by kw). pool.c validates, allocates and records.
 */
#include <math.h>
#include <string.h>

#include "nn_cpu.h"

typedef nn_pool_geom geom;

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
static void scatter_by_index(const geom *g, int64_t in_plane, int64_t out_plane, nn_tensor *gin, const nn_tensor *gout,
                             const nn_tensor *idx)
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

/* PyTorch's start_index / end_index of adaptive pooling. */
static int64_t a_start(int64_t o, int64_t out, int64_t in) { return (o * in) / out; }
static int64_t a_end(int64_t o, int64_t out, int64_t in) { return ((o + 1) * in + out - 1) / out; }

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

int nn_cpu_pool(nn_pool_op op, const nn_pool_geom *g, nn_kernel_args *a)
{
    nn_tensor *out = a->t[0], *idx = a->t[1];
    const nn_tensor *in = a->t[2];
    bool f32 = out->dtype == NN_FLOAT32;
    void *o = nn_data_ptr(out), *ix = idx ? nn_data_ptr(idx) : NULL;
    const void *x = nn_data_ptr(in);
    switch (op) {
    case NN_POOL_MAX:
        if (f32) max_pool_fwd_float(g, x, o, ix);
        else max_pool_fwd_double(g, x, o, ix);
        return 0;
    case NN_POOL_ADAPTIVE_MAX:
        if (f32) adaptive_max_fwd_float(g, x, o, ix);
        else adaptive_max_fwd_double(g, x, o, ix);
        return 0;
    case NN_POOL_MAX_BACKWARD: scatter_by_index(g, a->i[0], a->i[1], out, in, idx); return 0;
    case NN_POOL_AVG:
        if (f32) avg_pool_fwd_float(g, a->i[0], a->i[1], x, o);
        else avg_pool_fwd_double(g, a->i[0], a->i[1], x, o);
        return 0;
    case NN_POOL_AVG_BACKWARD:
        if (f32) avg_pool_bwd_float(g, a->i[0], a->i[1], x, o);
        else avg_pool_bwd_double(g, a->i[0], a->i[1], x, o);
        return 0;
    case NN_POOL_ADAPTIVE_AVG:
        if (f32) adaptive_avg_fwd_float(g, x, o);
        else adaptive_avg_fwd_double(g, x, o);
        return 0;
    case NN_POOL_ADAPTIVE_AVG_BACKWARD:
        if (f32) adaptive_avg_bwd_float(g, x, o);
        else adaptive_avg_bwd_double(g, x, o);
        return 0;
    }
    return nn_error_set(NN_ERR_RUNTIME, "pool kernel: unknown op code %d", (int)op);
}
