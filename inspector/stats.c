/*
 * stats.c — the inspector's statistics kernel: count, mean, std, min, max, L2 norm,
 * exact zeros, saturation, NaN/Inf counts and per-unit "ever nonzero" in one fused
 * loop over contiguous float32/float64 data (other dtypes and layouts through a
 * double copy), then the [min, max] histogram (it needs the range) over the same
 * data. Not here: where the numbers are kept (session.c) or drawn (render.c).
 */
#include "insp_int.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------ module kinds */

insp_saturation insp_saturation_of(const char *c)
{
    if (!strcmp(c, "Tanh") || !strcmp(c, "Hardtanh") || !strcmp(c, "Softsign")) return INSP_SAT_TANH;
    if (!strcmp(c, "Sigmoid") || !strcmp(c, "Hardsigmoid")) return INSP_SAT_SIGMOID;
    return INSP_SAT_NONE;
}

bool insp_is_relu_like(const char *c)
{
    return !strcmp(c, "ReLU") || !strcmp(c, "ReLU6") || !strcmp(c, "Threshold");
}

int64_t insp_units_of(const nn_tensor *t)
{
    return t->ndim >= 2 ? t->sizes[1] : t->ndim == 1 ? t->sizes[0] : 1;
}

/* ------------------------------------------------------------- the kernel */

/* Running sums of the fused pass. Moments are taken about `shift` (the first
   finite value) so that std keeps its digits when |mean| >> std. */
typedef struct acc {
    int64_t count, finite, zeros, sat, nan, inf;
    double shift, s1, s2, q, min, max;
    bool has_shift;
} acc;

/* One contiguous run of values, [outer, units, inner] for the unit map. */
typedef struct source {
    const void *data;
    bool f64;
    int64_t n, outer, units, inner;
    double *copy; /* owned when the data had to be converted */
} source;

/* acc over n contiguous values with GCC/Clang vector extensions: W double lanes
   (2 with SSE2, 4 in the AVX2 versions chosen at run time), so the sums keep double
   precision, and no branches: a non-finite value is replaced by the shift k, which
   adds 0 to the moments and cannot move min/max. Macros rather than inline
   functions, so that wide vectors never cross a call (their ABI differs). */
typedef double vd2 __attribute__((vector_size(16)));
typedef long long vl2 __attribute__((vector_size(16)));
typedef float vf2 __attribute__((vector_size(8)));
typedef double vd4 __attribute__((vector_size(32)));
typedef long long vl4 __attribute__((vector_size(32)));
typedef float vf4 __attribute__((vector_size(16)));

#define SEL(VL, VD, m, a, b) ((VD)((((VL)(a)) & (m)) | (((VL)(b)) & ~(m))))

/* The scalar step, for the tail. */
#define SCALAR_STEP(SAT_EXPR)                                                        \
    do {                                                                             \
        bool f = v - v == 0;                                                         \
        double vf_ = f ? v : k, v0 = f ? v : 0, d = vf_ - k;                         \
        a->s1 += d, a->s2 += d * d, a->q += v0 * v0;                                 \
        a->min = vf_ < a->min ? vf_ : a->min, a->max = vf_ > a->max ? vf_ : a->max;  \
        a->finite += f, a->zeros += v == 0, a->nan += v != v, a->sat += (SAT_EXPR);  \
    } while (0)

/* LOAD(dst, p): W values at p into the VD dst. VSAT: a VL mask of saturated lanes. */
#define FUSED_KERNEL(ATTR, NAME, T, W, VD, VL, LOAD, VSAT, SSAT)                       \
    ATTR static void NAME(acc *a, const T *x, int64_t n)                               \
    {                                                                                  \
        const double k = a->shift;                                                     \
        VD K, Z, C99, C01, s1, s2, q, mn, mx;                                          \
        VL fin, zer, nan, sat, absmask;                                                \
        for (int j = 0; j < W; j++) {                                                  \
            K[j] = k, Z[j] = 0, C99[j] = 0.99, C01[j] = 0.01;                          \
            s1[j] = s2[j] = q[j] = 0, mn[j] = mx[j] = k;                               \
            fin[j] = zer[j] = nan[j] = sat[j] = 0, absmask[j] = INT64_MAX;             \
        }                                                                              \
        int64_t i = 0;                                                                 \
        for (; i + W <= n; i += W) {                                                   \
            VD v;                                                                      \
            LOAD(v, x + i);                                                            \
            VL f = (v - v) == Z;                                                       \
            VD vf_ = SEL(VL, VD, f, v, K), v0 = SEL(VL, VD, f, v, Z), d = vf_ - K;      \
            s1 += d, s2 += d * d, q += v0 * v0;                                        \
            mn = SEL(VL, VD, vf_ < mn, vf_, mn), mx = SEL(VL, VD, vf_ > mx, vf_, mx);  \
            fin -= f, zer -= v == Z, nan -= v != v, sat -= (VSAT);                      \
        }                                                                              \
        (void)C99, (void)C01, (void)absmask;                                           \
        for (int j = 0; j < W; j++) {                                                  \
            a->s1 += s1[j], a->s2 += s2[j], a->q += q[j];                              \
            a->min = mn[j] < a->min ? mn[j] : a->min;                                  \
            a->max = mx[j] > a->max ? mx[j] : a->max;                                  \
            a->finite += fin[j], a->zeros += zer[j], a->nan += nan[j], a->sat += sat[j]; \
        }                                                                              \
        for (; i < n; i++) {                                                           \
            double v = (double)x[i];                                                   \
            SCALAR_STEP(SSAT);                                                         \
        }                                                                              \
        a->count += n;                                                                 \
    }
#define LOAD_F32_2(dst, p) do { vf2 t_; memcpy(&t_, (p), sizeof t_); dst = __builtin_convertvector(t_, vd2); } while (0)
#define LOAD_F64_2(dst, p) memcpy(&(dst), (p), sizeof(dst))
#define LOAD_F32_4(dst, p) do { vf4 t_; memcpy(&t_, (p), sizeof t_); dst = __builtin_convertvector(t_, vd4); } while (0)
#define LOAD_F64_4(dst, p) memcpy(&(dst), (p), sizeof(dst))
#define VNONE (Z != Z)
#define VTANH(VD, VL) (((VD)((VL)v & absmask)) > C99)
#define VSIGM ((v < C01) | (v > C99))
#define STANH (fabs(v) > 0.99)
#define SSIGM ((v < 0.01) | (v > 0.99))
#define AVX2 __attribute__((target("avx2")))

/* saturation: |x| > 0.99 (tanh-like), x < 0.01 or x > 0.99 (sigmoid-like); NaN never */
FUSED_KERNEL(, fused_f32, float, 2, vd2, vl2, LOAD_F32_2, VNONE, 0)
FUSED_KERNEL(, fused_f64, double, 2, vd2, vl2, LOAD_F64_2, VNONE, 0)
FUSED_KERNEL(, fused_f32_tanh, float, 2, vd2, vl2, LOAD_F32_2, VTANH(vd2, vl2), STANH)
FUSED_KERNEL(, fused_f64_tanh, double, 2, vd2, vl2, LOAD_F64_2, VTANH(vd2, vl2), STANH)
FUSED_KERNEL(, fused_f32_sigm, float, 2, vd2, vl2, LOAD_F32_2, VSIGM, SSIGM)
FUSED_KERNEL(, fused_f64_sigm, double, 2, vd2, vl2, LOAD_F64_2, VSIGM, SSIGM)
FUSED_KERNEL(AVX2, fused_f32_avx2, float, 4, vd4, vl4, LOAD_F32_4, VNONE, 0)
FUSED_KERNEL(AVX2, fused_f64_avx2, double, 4, vd4, vl4, LOAD_F64_4, VNONE, 0)
FUSED_KERNEL(AVX2, fused_f32_tanh_avx2, float, 4, vd4, vl4, LOAD_F32_4, VTANH(vd4, vl4), STANH)
FUSED_KERNEL(AVX2, fused_f64_tanh_avx2, double, 4, vd4, vl4, LOAD_F64_4, VTANH(vd4, vl4), STANH)
FUSED_KERNEL(AVX2, fused_f32_sigm_avx2, float, 4, vd4, vl4, LOAD_F32_4, VSIGM, SSIGM)
FUSED_KERNEL(AVX2, fused_f64_sigm_avx2, double, 4, vd4, vl4, LOAD_F64_4, VSIGM, SSIGM)

static bool have_avx2(void)
{
    static int known = -1;
    if (known < 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx2") != 0;
    }
    return known;
}

static void fused(acc *a, const void *x, bool f64, int64_t n, insp_saturation sat)
{
    if (have_avx2()) {
        switch (sat) {
        case INSP_SAT_NONE: f64 ? fused_f64_avx2(a, x, n) : fused_f32_avx2(a, x, n); break;
        case INSP_SAT_TANH: f64 ? fused_f64_tanh_avx2(a, x, n) : fused_f32_tanh_avx2(a, x, n); break;
        case INSP_SAT_SIGMOID: f64 ? fused_f64_sigm_avx2(a, x, n) : fused_f32_sigm_avx2(a, x, n); break;
        }
        return;
    }
    switch (sat) {
    case INSP_SAT_NONE: f64 ? fused_f64(a, x, n) : fused_f32(a, x, n); break;
    case INSP_SAT_TANH: f64 ? fused_f64_tanh(a, x, n) : fused_f32_tanh(a, x, n); break;
    case INSP_SAT_SIGMOID: f64 ? fused_f64_sigm(a, x, n) : fused_f32_sigm(a, x, n); break;
    }
}

/* Folds "some value is nonzero" of a run into *flag. */
#define NONZERO_KERNEL(NAME, T)                                                 \
    static void NAME(const T *x, int64_t n, uint8_t *flag)                      \
    {                                                                           \
        int any = 0;                                                            \
        for (int64_t i = 0; i < n; i++) any |= x[i] != 0;                       \
        *flag |= (uint8_t)any;                                                  \
    }
NONZERO_KERNEL(nonzero_f32, float)
NONZERO_KERNEL(nonzero_f64, double)
/* alive[u] |= row[u] != 0 over one row of units. */
#define ROW_KERNEL(NAME, T)                                                     \
    static void NAME(const T *x, int64_t n, uint8_t *alive)                     \
    {                                                                           \
        for (int64_t u = 0; u < n; u++) alive[u] |= (uint8_t)(x[u] != 0);       \
    }
ROW_KERNEL(row_f32, float)
ROW_KERNEL(row_f64, double)

/* The fused pass over one source: the moments, and the unit map while each row
   (or [unit, inner] block) is still in cache. */
static void fused_source(acc *a, const source *s, uint8_t *alive, insp_saturation sat)
{
    size_t es = s->f64 ? sizeof(double) : sizeof(float);
    if (!alive) {
        fused(a, s->data, s->f64, s->n, sat);
        return;
    }
    for (int64_t o = 0; o < s->outer; o++) {
        const char *row = (const char *)s->data + (size_t)(o * s->units * s->inner) * es;
        fused(a, row, s->f64, s->units * s->inner, sat);
        if (s->inner == 1) {
            if (s->f64) row_f64((const double *)row, s->units, alive);
            else row_f32((const float *)row, s->units, alive);
        } else {
            for (int64_t u = 0; u < s->units; u++) {
                const char *blk = row + (size_t)(u * s->inner) * es;
                if (s->f64) nonzero_f64((const double *)blk, s->inner, &alive[u]);
                else nonzero_f32((const float *)blk, s->inner, &alive[u]);
            }
        }
    }
}

/* The histogram over [lo, lo + BINS/scale] (the maximum falls in the last bin):
   bin indices for a chunk in a loop the compiler vectorizes (index BINS takes the
   non-finite values and is dropped), then counted into four interleaved copies so
   that neighbouring equal bins do not wait on each other. */
#define HIST_CHUNK 512
typedef int32_t vi2 __attribute__((vector_size(8)));
typedef int32_t vi4 __attribute__((vector_size(16)));
#define HIST_KERNEL(ATTR, NAME, T, W, VD, VL, VI, LOAD)                                      \
    ATTR static void NAME(uint32_t *hist, const T *x, int64_t n, double lo, double scale)    \
    {                                                                                       \
        uint32_t h[4][INSP_HIST_BINS + 1];                                                  \
        int32_t idx[HIST_CHUNK];                                                            \
        VD Z, LO, SC, TOP, NB;                                                              \
        for (int j = 0; j < W; j++) Z[j] = 0, LO[j] = lo, SC[j] = scale, TOP[j] = INSP_HIST_BINS - 1, NB[j] = INSP_HIST_BINS; \
        memset(h, 0, sizeof h);                                                             \
        for (int64_t i0 = 0; i0 < n; i0 += HIST_CHUNK) {                                    \
            int m = n - i0 < HIST_CHUNK ? (int)(n - i0) : HIST_CHUNK, j = 0;                \
            for (; j + W <= m; j += W) {                                                    \
                VD v;                                                                       \
                LOAD(v, x + i0 + j);                                                        \
                VL f = (v - v) == Z;                                                        \
                VD t = (v - LO) * SC;                                                       \
                t = SEL(VL, VD, t < TOP, t, TOP);                                           \
                t = SEL(VL, VD, f, t, NB);                                                  \
                VI ti = __builtin_convertvector(t, VI);                                     \
                memcpy(idx + j, &ti, sizeof ti);                                            \
            }                                                                               \
            for (; j < m; j++) {                                                            \
                double v = (double)x[i0 + j], t = (v - lo) * scale;                         \
                t = v - v == 0 ? (t < INSP_HIST_BINS - 1 ? t : INSP_HIST_BINS - 1) : INSP_HIST_BINS; \
                idx[j] = (int32_t)t;                                                        \
            }                                                                               \
            for (j = 0; j < m; j++) h[j & 3][idx[j]]++;                                     \
        }                                                                                   \
        for (int b = 0; b < INSP_HIST_BINS; b++) hist[b] += h[0][b] + h[1][b] + h[2][b] + h[3][b]; \
    }
HIST_KERNEL(, hist_f32, float, 2, vd2, vl2, vi2, LOAD_F32_2)
HIST_KERNEL(, hist_f64, double, 2, vd2, vl2, vi2, LOAD_F64_2)
HIST_KERNEL(AVX2, hist_f32_avx2, float, 4, vd4, vl4, vi4, LOAD_F32_4)
HIST_KERNEL(AVX2, hist_f64_avx2, double, 4, vd4, vl4, vi4, LOAD_F64_4)

static void histogram(uint32_t *hist, const source *s, double lo, double scale)
{
    if (have_avx2()) s->f64 ? hist_f64_avx2(hist, s->data, s->n, lo, scale) : hist_f32_avx2(hist, s->data, s->n, lo, scale);
    else s->f64 ? hist_f64(hist, s->data, s->n, lo, scale) : hist_f32(hist, s->data, s->n, lo, scale);
}

/* The first finite value of a source, for the shift; false when none. */
static bool first_finite(const source *src, double *v)
{
    for (int64_t i = 0; i < src->n; i++) {
        double x = src->f64 ? ((const double *)src->data)[i] : ((const float *)src->data)[i];
        if (isfinite(x)) {
            *v = x;
            return true;
        }
    }
    return false;
}

/* Fills src for t (borrowed); a contiguous double copy when t is not contiguous
   float32/float64. 0 or -1 with MemoryError. */
static int source_of(nn_tensor *t, source *src)
{
    memset(src, 0, sizeof *src);
    src->n = nn_numel(t);
    if (nn_is_contiguous(t) && (t->dtype == NN_FLOAT32 || t->dtype == NN_FLOAT64)) {
        src->data = nn_data_ptr(t);
        src->f64 = t->dtype == NN_FLOAT64;
    } else {
        if (!(src->copy = nn_malloc((size_t)(src->n ? src->n : 1) * sizeof(double)))) return -1;
        if (src->n) nn_to_doubles(t, src->copy);
        src->data = src->copy;
        src->f64 = true;
    }
    src->outer = src->n ? 1 : 0;
    src->units = 1;
    src->inner = src->n;
    return 0;
}

/* Shapes the first source as [outer, units, inner] for the unit map. */
static void set_units(source *src, const nn_tensor *t)
{
    int64_t units = insp_units_of(t);
    if (src->n == 0 || units == 0) return;
    int64_t inner = 1;
    for (int d = 2; d < t->ndim; d++) inner *= t->sizes[d];
    src->units = units;
    src->inner = t->ndim >= 2 ? inner : 1;
    src->outer = src->n / (src->units * src->inner);
}

static void finish(acc *a, uint32_t *hist, insp_stats *out)
{
    a->inf = a->count - a->finite - a->nan;
    out->count = a->count;
    out->nan_count = a->nan;
    out->inf_count = a->inf;
    out->zero_frac = a->count ? (double)a->zeros / (double)a->count : 0;
    out->sat_frac = a->count ? (double)a->sat / (double)a->count : 0;
    if (a->finite) {
        double n = (double)a->finite, m1 = a->s1 / n;
        out->mean = a->shift + m1;
        double var = a->finite > 1 ? (a->s2 - n * m1 * m1) / (n - 1) : 0;
        out->std = var > 0 ? sqrt(var) : 0;
        out->min = a->min;
        out->max = a->max;
    } else {
        out->mean = out->std = out->min = out->max = a->count ? NAN : 0;
    }
    out->l2 = a->nan ? NAN : a->inf ? INFINITY : sqrt(a->q);
    memcpy(out->hist, hist, sizeof out->hist);
}

/* Pools the sources into out. */
static void stats_of_sources(source *srcs, size_t n, uint8_t *alive, insp_saturation sat, bool with_hist, insp_stats *out)
{
    acc a = {.min = INFINITY, .max = -INFINITY};
    for (size_t i = 0; i < n && !a.has_shift; i++) a.has_shift = first_finite(&srcs[i], &a.shift);
    for (size_t i = 0; i < n; i++) fused_source(&a, &srcs[i], i == 0 ? alive : NULL, sat);
    uint32_t hist[INSP_HIST_BINS] = {0};
    if (a.finite && with_hist) {
        double scale = a.max > a.min ? INSP_HIST_BINS / (a.max - a.min) : 0;
        for (size_t i = 0; i < n; i++) histogram(hist, &srcs[i], a.min, scale);
    }
    finish(&a, hist, out);
}

nn_tensor *insp_first_tensor(nn_object *o)
{
    if (nn_is_tensor(o)) return NN_TENSOR(o);
    if (o && o->type == &nn_tuple_type) {
        for (size_t i = 0; i < nn_tuple_len(o); i++)
            if (nn_is_tensor(nn_tuple_get(o, i))) return NN_TENSOR(nn_tuple_get(o, i));
    } else if (nn_is_list(o)) {
        for (size_t i = 0; i < nn_list_len(o); i++)
            if (nn_is_tensor(nn_list_get(o, i))) return NN_TENSOR(nn_list_get(o, i));
    }
    return NULL;
}

static void record_shape(const nn_tensor *t, insp_stats *out)
{
    out->ndim = t ? t->ndim : 0;
    for (int d = 0; d < out->ndim && d < INSP_MAX_SHAPE; d++) out->sizes[d] = t->sizes[d];
    if (out->ndim > INSP_MAX_SHAPE) out->ndim = INSP_MAX_SHAPE;
}

int insp_object_stats(nn_object *o, insp_saturation sat, uint8_t *alive, int64_t n_units, bool with_hist,
                      insp_stats *out)
{
    memset(out, 0, sizeof *out);
    size_t n_items = nn_is_tensor(o) ? 1 : o && o->type == &nn_tuple_type ? nn_tuple_len(o)
                                        : nn_is_list(o)                   ? nn_list_len(o)
                                                                          : 0;
    nn_tensor *first = insp_first_tensor(o);
    record_shape(first, out);
    if (!first) return 0;
    source one, *srcs = n_items <= 1 ? &one : nn_calloc(n_items, sizeof *srcs);
    if (!srcs) return -1;
    size_t n = 0;
    int rc = 0;
    for (size_t i = 0; i < n_items && rc == 0; i++) {
        nn_object *item = nn_is_tensor(o) ? o : o->type == &nn_tuple_type ? nn_tuple_get(o, i) : nn_list_get(o, i);
        if (!nn_is_tensor(item)) continue;
        rc = source_of(NN_TENSOR(item), &srcs[n]);
        if (rc == 0) n++;
    }
    if (rc == 0) {
        if (alive && n_units == insp_units_of(first)) set_units(&srcs[0], first);
        else alive = NULL;
        stats_of_sources(srcs, n, alive, sat, with_hist, out);
    }
    for (size_t i = 0; i < n; i++) nn_free(srcs[i].copy);
    if (srcs != &one) nn_free(srcs);
    return rc;
}

int insp_tensor_stats(nn_tensor *t, insp_saturation sat, insp_stats *out)
{
    return insp_object_stats(&t->ob, sat, NULL, 0, true, out);
}
