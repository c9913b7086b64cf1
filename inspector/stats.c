/*
 * stats.c — the inspector's statistics kernel: count, mean, std, min, max, L2 norm,
 * exact zeros, saturation, NaN/Inf counts and per-unit "ever nonzero" in one fused
 * loop over contiguous float32/float64 data (other dtypes and layouts through a
 * double copy), then the [min, max] histogram (it needs the range) over the same
 * data. Large tensors are cut into chunks that this thread and one helper thread
 * share (the hooks run while the other core mostly waits), or copied by a hook
 * and computed by the helper later (deferred jobs, numbered so that readers know
 * which passes are complete); the helper steps aside while an OpenBLAS product
 * runs. Not here: where the numbers are kept (session.c) or drawn (render.c).
 */
#include "insp_int.h"

#include <immintrin.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
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
/* The common case, every value finite, without the selects: the moments go to
   locals first, and when some value was not finite (v - v is NaN for NaN and
   inf) the kernel returns false with *a untouched, for the general one to run. */
#define FINITE_KERNEL(ATTR, NAME, T, W, VD, VL, LOAD, VSAT, SSAT)                      \
    ATTR static bool NAME(acc *a, const T *x, int64_t n)                               \
    {                                                                                  \
        const double k = a->shift;                                                     \
        VD K, Z, C99, C01, s1, s2, q, mn, mx, bad;                                     \
        VL zer, sat, absmask;                                                          \
        for (int j = 0; j < W; j++) {                                                  \
            K[j] = k, Z[j] = 0, C99[j] = 0.99, C01[j] = 0.01;                          \
            s1[j] = s2[j] = q[j] = bad[j] = 0, mn[j] = mx[j] = k;                      \
            zer[j] = sat[j] = 0, absmask[j] = INT64_MAX;                               \
        }                                                                              \
        int64_t i = 0;                                                                 \
        for (; i + W <= n; i += W) {                                                   \
            VD v;                                                                      \
            LOAD(v, x + i);                                                            \
            VD d = v - K;                                                              \
            s1 += d, s2 += d * d, q += v * v, bad += v - v;                            \
            mn = SEL(VL, VD, v < mn, v, mn), mx = SEL(VL, VD, v > mx, v, mx);          \
            zer -= v == Z, sat -= (VSAT);                                              \
        }                                                                              \
        (void)C99, (void)C01, (void)absmask;                                           \
        for (int j = 0; j < W; j++)                                                    \
            if (bad[j] != 0) return false;                                             \
        for (int64_t t = i; t < n; t++)                                                \
            if (!isfinite((double)x[t])) return false;                                 \
        for (int j = 0; j < W; j++) {                                                  \
            a->s1 += s1[j], a->s2 += s2[j], a->q += q[j];                              \
            a->min = mn[j] < a->min ? mn[j] : a->min;                                  \
            a->max = mx[j] > a->max ? mx[j] : a->max;                                  \
            a->zeros += zer[j], a->sat += sat[j];                                      \
        }                                                                              \
        a->finite += i;                                                                \
        for (; i < n; i++) {                                                           \
            double v = (double)x[i];                                                   \
            SCALAR_STEP(SSAT);                                                         \
        }                                                                              \
        a->count += n;                                                                 \
        return true;                                                                   \
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
FINITE_KERNEL(, finite_f32, float, 2, vd2, vl2, LOAD_F32_2, VNONE, 0)
FINITE_KERNEL(, finite_f64, double, 2, vd2, vl2, LOAD_F64_2, VNONE, 0)
FINITE_KERNEL(, finite_f32_tanh, float, 2, vd2, vl2, LOAD_F32_2, VTANH(vd2, vl2), STANH)
FINITE_KERNEL(, finite_f64_tanh, double, 2, vd2, vl2, LOAD_F64_2, VTANH(vd2, vl2), STANH)
FINITE_KERNEL(, finite_f32_sigm, float, 2, vd2, vl2, LOAD_F32_2, VSIGM, SSIGM)
FINITE_KERNEL(, finite_f64_sigm, double, 2, vd2, vl2, LOAD_F64_2, VSIGM, SSIGM)
FINITE_KERNEL(AVX2, finite_f64_avx2, double, 4, vd4, vl4, LOAD_F64_4, VNONE, 0)
FINITE_KERNEL(AVX2, finite_f64_tanh_avx2, double, 4, vd4, vl4, LOAD_F64_4, VTANH(vd4, vl4), STANH)
FINITE_KERNEL(AVX2, finite_f64_sigm_avx2, double, 4, vd4, vl4, LOAD_F64_4, VSIGM, SSIGM)

/* float32 with AVX2, the case every hook of a float32 model hits: written with
   intrinsics, so that min, max and the counts stay in 8 float lanes (vminps,
   vmaxps, compares) and only the sums widen to double. Saturation is tested in
   float with thresholds that give the double tests' answers for every float:
   v > 0.99 exactly when v >= 0.99f (the nearest float above 0.99), and v < 0.01
   exactly when v <= 0.01f (the nearest float below 0.01). */
#define F32_BLOCK 65536 /* values per block: the int32 lane counts cannot overflow */
AVX2 static inline __attribute__((always_inline)) bool finite_f32_v8(acc *a, const float *x, int64_t n,
                                                                      insp_saturation sat)
{
    const __m256d K = _mm256_set1_pd(a->shift);
    const __m256 zero = _mm256_setzero_ps(), hi = _mm256_set1_ps(0.99f), lo = _mm256_set1_ps(0.01f);
    const __m256 sign = _mm256_set1_ps(-0.0f);
    __m256d s1 = _mm256_setzero_pd(), s2 = s1, q = s1;
    __m256 mn = _mm256_set1_ps((float)a->shift), mx = mn, bad = zero;
    int64_t zeros = 0, sats = 0, i = 0;
    while (i + 8 <= n) {
        __m256i zer = _mm256_setzero_si256(), satc = zer;
        for (int64_t end = i + F32_BLOCK < n ? i + F32_BLOCK : n; i + 8 <= end; i += 8) {
            __m256 v = _mm256_loadu_ps(x + i);
            bad = _mm256_add_ps(bad, _mm256_sub_ps(v, v)); /* NaN from here on if v is NaN or inf */
            mn = _mm256_min_ps(mn, v);
            mx = _mm256_max_ps(mx, v);
            zer = _mm256_sub_epi32(zer, _mm256_castps_si256(_mm256_cmp_ps(v, zero, _CMP_EQ_OQ)));
            if (sat == INSP_SAT_TANH)
                satc = _mm256_sub_epi32(satc, _mm256_castps_si256(_mm256_cmp_ps(_mm256_andnot_ps(sign, v), hi,
                                                                                 _CMP_GE_OQ)));
            else if (sat == INSP_SAT_SIGMOID)
                satc = _mm256_sub_epi32(satc, _mm256_castps_si256(_mm256_or_ps(_mm256_cmp_ps(v, lo, _CMP_LE_OQ),
                                                                               _mm256_cmp_ps(v, hi, _CMP_GE_OQ))));
            __m256d v0 = _mm256_cvtps_pd(_mm256_castps256_ps128(v)), v1 = _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1));
            __m256d d0 = _mm256_sub_pd(v0, K), d1 = _mm256_sub_pd(v1, K);
            s1 = _mm256_add_pd(s1, _mm256_add_pd(d0, d1));
            s2 = _mm256_add_pd(s2, _mm256_add_pd(_mm256_mul_pd(d0, d0), _mm256_mul_pd(d1, d1)));
            q = _mm256_add_pd(q, _mm256_add_pd(_mm256_mul_pd(v0, v0), _mm256_mul_pd(v1, v1)));
        }
        int32_t zl[8], sl[8];
        _mm256_storeu_si256((__m256i *)zl, zer);
        _mm256_storeu_si256((__m256i *)sl, satc);
        for (int j = 0; j < 8; j++) zeros += zl[j], sats += sl[j];
    }
    float badl[8], mnl[8], mxl[8];
    _mm256_storeu_ps(badl, bad);
    for (int j = 0; j < 8; j++)
        if (badl[j] != 0) return false;
    for (int64_t t = i; t < n; t++)
        if (!isfinite(x[t])) return false;
    double s1l[4], s2l[4], ql[4];
    _mm256_storeu_pd(s1l, s1);
    _mm256_storeu_pd(s2l, s2);
    _mm256_storeu_pd(ql, q);
    _mm256_storeu_ps(mnl, mn);
    _mm256_storeu_ps(mxl, mx);
    for (int j = 0; j < 4; j++) a->s1 += s1l[j], a->s2 += s2l[j], a->q += ql[j];
    for (int j = 0; j < 8; j++) {
        a->min = mnl[j] < a->min ? mnl[j] : a->min;
        a->max = mxl[j] > a->max ? mxl[j] : a->max;
    }
    a->zeros += zeros, a->sat += sats, a->finite += i;
    const double k = a->shift;
    for (; i < n; i++) {
        double v = (double)x[i];
        SCALAR_STEP(sat == INSP_SAT_TANH ? STANH : sat == INSP_SAT_SIGMOID ? SSIGM : 0);
    }
    a->count += n;
    return true;
}
AVX2 static bool finite_f32_avx2(acc *a, const float *x, int64_t n) { return finite_f32_v8(a, x, n, INSP_SAT_NONE); }
AVX2 static bool finite_f32_tanh_avx2(acc *a, const float *x, int64_t n)
{
    return finite_f32_v8(a, x, n, INSP_SAT_TANH);
}
AVX2 static bool finite_f32_sigm_avx2(acc *a, const float *x, int64_t n)
{
    return finite_f32_v8(a, x, n, INSP_SAT_SIGMOID);
}

/* Asked by both threads, the first time maybe at once: the answer is atomic
   (libgcc's constructor has filled in the CPU model before any of this runs). */
static bool have_avx2(void)
{
    static atomic_int known = -1;
    int k = atomic_load_explicit(&known, memory_order_relaxed);
    if (k < 0) {
        k = __builtin_cpu_supports("avx2") != 0;
        atomic_store_explicit(&known, k, memory_order_relaxed);
    }
    return k;
}

/* The finite kernel first; the general one when some value is not finite. */
#define FIRST_FINITE(F, G) ((F)(a, x, n) || ((G)(a, x, n), true))
static void fused(acc *a, const void *x, bool f64, int64_t n, insp_saturation sat)
{
    if (have_avx2()) {
        switch (sat) {
        case INSP_SAT_NONE:
            f64 ? FIRST_FINITE(finite_f64_avx2, fused_f64_avx2) : FIRST_FINITE(finite_f32_avx2, fused_f32_avx2);
            break;
        case INSP_SAT_TANH:
            f64 ? FIRST_FINITE(finite_f64_tanh_avx2, fused_f64_tanh_avx2)
                : FIRST_FINITE(finite_f32_tanh_avx2, fused_f32_tanh_avx2);
            break;
        case INSP_SAT_SIGMOID:
            f64 ? FIRST_FINITE(finite_f64_sigm_avx2, fused_f64_sigm_avx2)
                : FIRST_FINITE(finite_f32_sigm_avx2, fused_f32_sigm_avx2);
            break;
        }
        return;
    }
    switch (sat) {
    case INSP_SAT_NONE: f64 ? FIRST_FINITE(finite_f64, fused_f64) : FIRST_FINITE(finite_f32, fused_f32); break;
    case INSP_SAT_TANH:
        f64 ? FIRST_FINITE(finite_f64_tanh, fused_f64_tanh) : FIRST_FINITE(finite_f32_tanh, fused_f32_tanh);
        break;
    case INSP_SAT_SIGMOID:
        f64 ? FIRST_FINITE(finite_f64_sigm, fused_f64_sigm) : FIRST_FINITE(finite_f32_sigm, fused_f32_sigm);
        break;
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

/* Values between two chances for the helper thread to step aside (give_way, a
   few microseconds of work), so that a product starting meanwhile waits no longer. */
#define PIECE_VALUES 4096
static void give_way(void);

/* The fused pass over one source: the moments, and the unit map while each row
   (or [unit, inner] block) is still in cache. */
static void fused_source(acc *a, const source *s, uint8_t *alive, insp_saturation sat)
{
    size_t es = s->f64 ? sizeof(double) : sizeof(float);
    if (!alive) {
        for (int64_t i = 0; i < s->n; i += PIECE_VALUES) {
            if (i) give_way();
            fused(a, (const char *)s->data + (size_t)i * es, s->f64, s->n - i < PIECE_VALUES ? s->n - i : PIECE_VALUES,
                  sat);
        }
        return;
    }
    for (int64_t o = 0, since = 0; o < s->outer; o++) {
        if ((since += s->units * s->inner) >= PIECE_VALUES) {
            give_way();
            since = 0;
        }
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
   bin indices of 2W values at a time in vector lanes (index BINS takes the
   non-finite values and is dropped), each lane counted into its own copy of the
   bins, so that neighbouring equal bins do not wait on each other. */
typedef int32_t vi2 __attribute__((vector_size(8)));
typedef int32_t vi4 __attribute__((vector_size(16)));
#define HIST_KERNEL(ATTR, NAME, T, W, VD, VL, VI, LOAD)                                      \
    ATTR static void NAME(uint32_t *hist, const T *x, int64_t n, double lo, double scale)    \
    {                                                                                       \
        uint32_t h[8][INSP_HIST_BINS + 1];                                                  \
        VD Z, LO, SC, TOP, NB;                                                              \
        for (int j = 0; j < W; j++) Z[j] = 0, LO[j] = lo, SC[j] = scale, TOP[j] = INSP_HIST_BINS - 1, NB[j] = INSP_HIST_BINS; \
        memset(h, 0, sizeof h);                                                             \
        int64_t i = 0;                                                                      \
        for (; i + 2 * W <= n; i += 2 * W) {                                                \
            VD v, u;                                                                        \
            LOAD(v, x + i);                                                                 \
            LOAD(u, x + i + W);                                                             \
            VL f = (v - v) == Z, g = (u - u) == Z;                                          \
            VD t = (v - LO) * SC, s = (u - LO) * SC;                                        \
            t = SEL(VL, VD, t < TOP, t, TOP);                                               \
            s = SEL(VL, VD, s < TOP, s, TOP);                                               \
            t = SEL(VL, VD, f, t, NB);                                                      \
            s = SEL(VL, VD, g, s, NB);                                                      \
            VI ti = __builtin_convertvector(t, VI), si = __builtin_convertvector(s, VI);    \
            for (int j = 0; j < W; j++) h[j][ti[j]]++, h[W + j][si[j]]++;                   \
        }                                                                                   \
        for (; i < n; i++) {                                                                \
            double v = (double)x[i], t = (v - lo) * scale;                                  \
            t = v - v == 0 ? (t < INSP_HIST_BINS - 1 ? t : INSP_HIST_BINS - 1) : INSP_HIST_BINS; \
            h[0][(int32_t)t]++;                                                             \
        }                                                                                   \
        for (int b = 0; b < INSP_HIST_BINS; b++)                                            \
            for (int c = 0; c < 8; c++) hist[b] += h[c][b];                                  \
    }
HIST_KERNEL(, hist_f32, float, 2, vd2, vl2, vi2, LOAD_F32_2)
HIST_KERNEL(, hist_f64, double, 2, vd2, vl2, vi2, LOAD_F64_2)
HIST_KERNEL(AVX2, hist_f32_avx2, float, 4, vd4, vl4, vi4, LOAD_F32_4)
HIST_KERNEL(AVX2, hist_f64_avx2, double, 4, vd4, vl4, vi4, LOAD_F64_4)

/* The histogram of float32 values that are all finite, with AVX2: bin indices
   computed 8 at a time exactly as above (in double), then counted into 8 copies
   of the bins from a small array, which the compiler turns into plain
   increments (the count is what bounds this loop). */
AVX2 static void hist_f32_finite_avx2(uint32_t *hist, const float *x, int64_t n, double lo, double scale)
{
    uint32_t h[8][INSP_HIST_BINS];
    memset(h, 0, sizeof h);
    const __m256d LO = _mm256_set1_pd(lo), SC = _mm256_set1_pd(scale), TOP = _mm256_set1_pd(INSP_HIST_BINS - 1);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 v = _mm256_loadu_ps(x + i);
        __m256d t0 = _mm256_mul_pd(_mm256_sub_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(v)), LO), SC);
        __m256d t1 = _mm256_mul_pd(_mm256_sub_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)), LO), SC);
        int32_t bin[8];
        _mm_storeu_si128((__m128i *)bin, _mm256_cvttpd_epi32(_mm256_min_pd(t0, TOP)));
        _mm_storeu_si128((__m128i *)(bin + 4), _mm256_cvttpd_epi32(_mm256_min_pd(t1, TOP)));
        for (int j = 0; j < 8; j++) h[j][bin[j]]++;
    }
    for (; i < n; i++) {
        double t = ((double)x[i] - lo) * scale;
        h[0][(int32_t)(t < INSP_HIST_BINS - 1 ? t : INSP_HIST_BINS - 1)]++;
    }
    for (int b = 0; b < INSP_HIST_BINS; b++)
        for (int c = 0; c < 8; c++) hist[b] += h[c][b];
}

/* all_finite: the fused pass found no NaN or inf in s. In pieces, for give_way. */
static void histogram(uint32_t *hist, const source *s, double lo, double scale, bool all_finite)
{
    size_t es = s->f64 ? sizeof(double) : sizeof(float);
    for (int64_t i = 0; i < s->n; i += PIECE_VALUES) {
        if (i) give_way();
        const void *x = (const char *)s->data + (size_t)i * es;
        int64_t n = s->n - i < PIECE_VALUES ? s->n - i : PIECE_VALUES;
        if (have_avx2()) {
            if (s->f64) hist_f64_avx2(hist, x, n, lo, scale);
            else if (all_finite) hist_f32_finite_avx2(hist, x, n, lo, scale);
            else hist_f32_avx2(hist, x, n, lo, scale);
        } else {
            s->f64 ? hist_f64(hist, x, n, lo, scale) : hist_f32(hist, x, n, lo, scale);
        }
    }
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

/* ------------------------------------------------- the helper thread */

/* A parallel loop: chunks 0..n_chunks-1 of run(ctx, chunk), claimed one at a
   time by the calling thread and the helper, so a helper that is slow to wake
   costs nothing: the caller then runs every chunk itself. */
typedef struct par_loop {
    void (*run)(void *ctx, int chunk);
    void *ctx;
    int n_chunks;
    atomic_int next;  /* the next unclaimed chunk */
    bool helper_done; /* under par_lock: the helper took the loop and left it */
} par_loop;

static pthread_mutex_t par_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t par_wake = PTHREAD_COND_INITIALIZER; /* a loop is posted */
static pthread_cond_t par_left = PTHREAD_COND_INITIALIZER; /* the helper left a loop */
static par_loop *par_posted;                               /* under par_lock */
static enum { PAR_NONE, PAR_RUNNING, PAR_FAILED } par_helper; /* under par_lock */
static bool par_helper_waiting; /* under par_lock: asleep on par_wake, so posting must signal */
static _Thread_local bool on_helper; /* this thread is the helper */
static atomic_int jobs_len;          /* deferred jobs queued: changed under par_lock, give_way reads it without */

/* Wakes the helper if it sleeps (under par_lock): a busy helper finds the new work
   itself, and a signal costs a system call. */
static void par_wake_helper(void)
{
    if (par_helper_waiting) pthread_cond_signal(&par_wake);
}

/* The helper's statistics are work done beside the model's: while an OpenBLAS
   product runs (on every core), the helper sleeps between pieces of its work,
   since a product thread it displaced would stall the whole product. Only while
   its backlog is short, though: past that, waiting would leave the work to the
   model's thread (readers and a full queue run jobs themselves). */
#define GIVE_WAY_BACKLOG 16
static void give_way(void)
{
    if (on_helper && atomic_load_explicit(&jobs_len, memory_order_relaxed) < GIVE_WAY_BACKLOG) nn_blas_wait_idle();
}

static void par_claim(par_loop *l)
{
    for (int c; (c = atomic_fetch_add(&l->next, 1)) < l->n_chunks;) l->run(l->ctx, c);
}

/* Deferred statistics (insp_object_stats_deferred): a job per pass, in order. */
typedef struct stats_job stats_job;
static stats_job *jobs_head, *jobs_tail; /* under par_lock */
static int jobs_running;                 /* taken off the queue, not delivered yet; under par_lock */
static stats_job *helper_job;            /* the one the helper runs, or NULL; under par_lock */
static uint64_t jobs_queued;             /* sequence number of the last job queued; under par_lock */
static pthread_cond_t job_finished = PTHREAD_COND_INITIALIZER;
static void job_run_locked(stats_job *j);
static void job_requeue_running(void);

static void *par_helper_main(void *unused)
{
    (void)unused;
    on_helper = true;
    pthread_mutex_lock(&par_lock);
    for (;;) {
        while (!par_posted && !jobs_head) {
            par_helper_waiting = true;
            pthread_cond_wait(&par_wake, &par_lock);
            par_helper_waiting = false;
        }
        if (par_posted) {
            par_loop *l = par_posted;
            par_posted = NULL;
            pthread_mutex_unlock(&par_lock);
            par_claim(l);
            pthread_mutex_lock(&par_lock);
            l->helper_done = true;
            pthread_cond_signal(&par_left);
        } else {
            job_run_locked(jobs_head);
            pthread_cond_broadcast(&job_finished);
        }
    }
    return NULL;
}

/* A fork while the helper holds the lock would leave the child's lock taken: hold
   it across fork; the child starts without a helper (made again on demand). */
static void par_prepare(void) { pthread_mutex_lock(&par_lock); }
static void par_parent(void) { pthread_mutex_unlock(&par_lock); }
static void par_child(void)
{
    pthread_mutex_init(&par_lock, NULL);
    pthread_cond_init(&par_wake, NULL);
    pthread_cond_init(&par_left, NULL);
    pthread_cond_init(&job_finished, NULL);
    par_posted = NULL;
    par_helper = PAR_NONE;
    par_helper_waiting = false;
    job_requeue_running();
}

/* Starts the helper once (under par_lock); false when there is none. */
static bool par_start(void)
{
    if (par_helper == PAR_NONE) {
        static bool registered;
        pthread_attr_t attr;
        pthread_t t;
        par_helper = PAR_FAILED;
        if ((registered || pthread_atfork(par_prepare, par_parent, par_child) == 0) && pthread_attr_init(&attr) == 0) {
            registered = true;
            pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
            if (pthread_create(&t, &attr, par_helper_main, NULL) == 0) par_helper = PAR_RUNNING;
            pthread_attr_destroy(&attr);
        }
    }
    return par_helper == PAR_RUNNING;
}

/* Runs every chunk of l, with the helper's help when there is a helper. */
static void par_run(par_loop *l)
{
    atomic_init(&l->next, 0);
    l->helper_done = false;
    pthread_mutex_lock(&par_lock);
    bool posted = par_start() && !par_posted;
    if (posted) {
        par_posted = l;
        par_wake_helper();
    }
    pthread_mutex_unlock(&par_lock);
    par_claim(l);
    if (!posted) return;
    /* l lives on our stack: wait until the helper left it, unless it never came */
    pthread_mutex_lock(&par_lock);
    if (par_posted == l) par_posted = NULL;
    else
        while (!l->helper_done) pthread_cond_wait(&par_left, &par_lock);
    pthread_mutex_unlock(&par_lock);
}

/* ------------------------------------------------------- pooled statistics */

/* Below this many values one thread does it all (waking the helper costs more). */
#define PAR_MIN_VALUES 16384
#define PAR_CHUNKS 8

/* The sources cut into PAR_CHUNKS runs of about equal length, each run's moments
   (first) and histogram (then) computed into its own slot. */
typedef struct chunked {
    const source *srcs;
    size_t n_srcs;
    int64_t total;
    insp_saturation sat;
    bool hist_phase, all_finite;
    double shift, lo, scale;
    acc part[PAR_CHUNKS];
    uint32_t hist[PAR_CHUNKS][INSP_HIST_BINS];
} chunked;

static void chunk_run(void *ctx, int c)
{
    chunked *k = ctx;
    int64_t begin = k->total * c / PAR_CHUNKS, end = k->total * (c + 1) / PAR_CHUNKS, base = 0;
    acc *a = &k->part[c];
    if (!k->hist_phase) *a = (acc){.min = INFINITY, .max = -INFINITY, .shift = k->shift};
    for (size_t i = 0; i < k->n_srcs && base < end; base += k->srcs[i].n, i++) {
        const source *s = &k->srcs[i];
        int64_t from = begin > base ? begin - base : 0, to = end - base < s->n ? end - base : s->n;
        if (to <= from) continue;
        const char *p = (const char *)s->data + (size_t)from * (s->f64 ? sizeof(double) : sizeof(float));
        source run = {.data = p, .f64 = s->f64, .n = to - from};
        if (k->hist_phase) histogram(k->hist[c], &run, k->lo, k->scale, k->all_finite);
        else fused(a, p, s->f64, to - from, k->sat);
    }
}

/* Pools the sources into out; shared: the helper may take chunks (not from the helper itself). */
static void stats_of_sources(source *srcs, size_t n, uint8_t *alive, insp_saturation sat, bool with_hist,
                             bool shared, insp_stats *out)
{
    acc a = {.min = INFINITY, .max = -INFINITY};
    for (size_t i = 0; i < n && !a.has_shift; i++) a.has_shift = first_finite(&srcs[i], &a.shift);
    chunked k = {.srcs = srcs, .n_srcs = n, .sat = sat, .shift = a.shift};
    for (size_t i = 0; i < n; i++) k.total += srcs[i].n;
    /* the unit map folds rows into shared bytes: one thread */
    bool parallel = shared && !alive && k.total >= PAR_MIN_VALUES;
    if (parallel) {
        par_loop loop = {.run = chunk_run, .ctx = &k, .n_chunks = PAR_CHUNKS};
        par_run(&loop);
        for (int c = 0; c < PAR_CHUNKS; c++) {
            const acc *p = &k.part[c];
            a.count += p->count, a.finite += p->finite, a.zeros += p->zeros, a.sat += p->sat, a.nan += p->nan;
            a.s1 += p->s1, a.s2 += p->s2, a.q += p->q;
            a.min = p->min < a.min ? p->min : a.min;
            a.max = p->max > a.max ? p->max : a.max;
        }
    } else {
        for (size_t i = 0; i < n; i++) fused_source(&a, &srcs[i], i == 0 ? alive : NULL, sat);
    }
    uint32_t hist[INSP_HIST_BINS] = {0};
    if (a.finite && with_hist) {
        give_way();
        double scale = a.max > a.min ? INSP_HIST_BINS / (a.max - a.min) : 0;
        bool all_finite = a.finite == a.count;
        if (parallel) {
            k.hist_phase = true, k.all_finite = all_finite, k.lo = a.min, k.scale = scale;
            memset(k.hist, 0, sizeof k.hist);
            par_loop loop = {.run = chunk_run, .ctx = &k, .n_chunks = PAR_CHUNKS};
            par_run(&loop);
            for (int c = 0; c < PAR_CHUNKS; c++)
                for (int b = 0; b < INSP_HIST_BINS; b++) hist[b] += k.hist[c][b];
        } else {
            for (size_t i = 0; i < n; i++) histogram(hist, &srcs[i], a.min, scale, all_finite);
        }
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
    source few[4], *srcs = n_items <= 4 ? few : nn_calloc(n_items, sizeof *srcs);
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
        stats_of_sources(srcs, n, alive, sat, with_hist, true, out);
    }
    for (size_t i = 0; i < n; i++) nn_free(srcs[i].copy);
    if (srcs != few) nn_free(srcs);
    return rc;
}

/* The only tensor of o (a tensor, or a tuple/list holding one tensor and Nones), or NULL. */
static nn_tensor *sole_tensor(nn_object *o)
{
    if (nn_is_tensor(o)) return NN_TENSOR(o);
    bool tuple = o && o->type == &nn_tuple_type;
    if (!tuple && !nn_is_list(o)) return NULL;
    nn_tensor *sole = NULL;
    for (size_t i = 0, n = tuple ? nn_tuple_len(o) : nn_list_len(o); i < n; i++) {
        nn_object *item = tuple ? nn_tuple_get(o, i) : nn_list_get(o, i);
        if (!nn_is_tensor(item)) continue;
        if (sole) return NULL;
        sole = NN_TENSOR(item);
    }
    return sole;
}

/* Same values: the same view of the same storage, unmodified since. */
static bool same_values(const insp_cached_stats *e, const nn_tensor *t)
{
    const nn_tensor *v = e->view;
    if (v->storage != t->storage || v->offset != t->offset || v->dtype != t->dtype || v->ndim != t->ndim ||
        t->storage->version != e->version)
        return false;
    for (int d = 0; d < t->ndim; d++)
        if (v->sizes[d] != t->sizes[d] || v->strides[d] != t->strides[d]) return false;
    return true;
}

/* ---------------------------------------------------- deferred statistics */

/* Below this many values a pass is summed at once (a job costs more). */
#define DEFER_MIN_VALUES 4096
/* Jobs waiting at most; past that the caller runs the oldest itself. */
#define DEFER_MAX_JOBS 64

/* A pass's statistics to compute from a copy of its values, delivered to dest[]
   (ring slots, the cache entry) under par_lock. */
struct stats_job {
    stats_job *next;
    size_t capacity; /* bytes of values[] */
    insp_saturation sat;
    bool with_hist, f64;
    insp_stats *dest[INSP_STATS_CACHE + 4];
    int n_dest;
    insp_cached_stats *entry; /* the cache entry waiting on it, or NULL */
    uint64_t seq;             /* jobs_queued when it was queued */
    uint8_t *alive;           /* the unit map to fold into at delivery (borrowed), or NULL */
    uint64_t *alive_passes;   /* its pass count, incremented then */
    int64_t outer, units, inner; /* the values as [outer, units, inner] for it */
    int ndim;
    int64_t sizes[INSP_MAX_SHAPE];
    int64_t n;
    double values[]; /* n float32 or float64 values */
};

/* Freed jobs kept for the next ones (a training loop queues the same sizes every
   step): a buffer that large would come fresh from mmap each time, and its page
   faults cost more than its statistics. At most JOB_POOL jobs and JOB_POOL_BYTES. */
#define JOB_POOL 8
#define JOB_POOL_BYTES ((size_t)16 << 20)
static stats_job *job_pool[JOB_POOL]; /* under par_lock */
static int job_pool_len;
static size_t job_pool_bytes;

/* A job with room for bytes of values: the smallest pooled one that fits, else new
   (libc, not nn_malloc: jobs are freed on either thread). NULL when out of memory. */
static stats_job *job_alloc(size_t bytes)
{
    stats_job *j = NULL;
    pthread_mutex_lock(&par_lock);
    int best = -1;
    for (int i = 0; i < job_pool_len; i++)
        if (job_pool[i]->capacity >= bytes && (best < 0 || job_pool[i]->capacity < job_pool[best]->capacity)) best = i;
    if (best >= 0) {
        j = job_pool[best];
        job_pool[best] = job_pool[--job_pool_len];
        job_pool_bytes -= j->capacity;
    }
    pthread_mutex_unlock(&par_lock);
    if (!j && (j = malloc(sizeof *j + bytes))) j->capacity = bytes;
    return j;
}

/* Back to the pool, or freed when the pool is full (under par_lock). */
static void job_release_locked(stats_job *j)
{
    if (job_pool_len < JOB_POOL && job_pool_bytes + j->capacity <= JOB_POOL_BYTES) {
        job_pool[job_pool_len++] = j;
        job_pool_bytes += j->capacity;
    } else {
        free(j);
    }
}

/* alive[u] |= units[u], one more pass folded (under par_lock). */
static void fold_units_locked(uint8_t *alive, const uint8_t *units, int64_t n, uint64_t *passes)
{
    for (int64_t u = 0; u < n; u++) alive[u] |= units[u];
    ++*passes;
}

/* Takes j (the head of the queue) off it, computes it without the lock and
   delivers it. Called and returns with par_lock held. */
static void job_run_locked(stats_job *j)
{
    jobs_head = j->next;
    if (!jobs_head) jobs_tail = NULL;
    jobs_len--;
    jobs_running++;
    if (on_helper) helper_job = j;
    pthread_mutex_unlock(&par_lock);
    give_way();
    source src = {.data = j->values, .f64 = j->f64, .n = j->n, .outer = j->outer, .units = j->units, .inner = j->inner};
    /* the job's own unit map (after its values), folded into the module's at delivery */
    uint8_t *units = j->alive ? (uint8_t *)j->values + j->capacity - j->units : NULL;
    if (units) memset(units, 0, (size_t)j->units);
    insp_stats r;
    memset(&r, 0, sizeof r);
    stats_of_sources(&src, 1, units, j->sat, j->with_hist, false, &r);
    r.ndim = j->ndim;
    memcpy(r.sizes, j->sizes, sizeof r.sizes);
    pthread_mutex_lock(&par_lock);
    for (int i = 0; i < j->n_dest; i++) *j->dest[i] = r;
    if (j->entry) j->entry->pending = NULL;
    if (units) fold_units_locked(j->alive, units, j->units, j->alive_passes);
    jobs_running--;
    if (helper_job == j) helper_job = NULL;
    job_release_locked(j);
}

/* In a forked child: the job the parent's helper had taken off the queue runs
   again (the forking thread was not running one: fork and jobs share par_lock). */
static void job_requeue_running(void)
{
    jobs_running = 0;
    if (!helper_job) return;
    helper_job->next = jobs_head;
    jobs_head = helper_job;
    if (!jobs_tail) jobs_tail = helper_job;
    jobs_len++;
    helper_job = NULL;
}

/* A job for t's values, queued (the helper wakes), or run at once when there is
   no helper; NULL when out of memory (the caller then computes in place). entry:
   the cache entry to fill too, or NULL; alive: the unit map of insp_unit_stats,
   or NULL. */
static stats_job *job_queue(nn_tensor *t, insp_saturation sat, bool with_hist, insp_stats *out,
                            insp_cached_stats *entry, uint8_t *alive, uint64_t *alive_passes)
{
    int64_t n = nn_numel(t);
    bool native = nn_is_contiguous(t) && (t->dtype == NN_FLOAT32 || t->dtype == NN_FLOAT64);
    bool f64 = !native || t->dtype == NN_FLOAT64;
    size_t bytes = (size_t)n * (f64 ? sizeof(double) : sizeof(float));
    source shape = {.n = n, .outer = 1, .units = 1, .inner = n};
    if (alive) set_units(&shape, t);
    stats_job *j = job_alloc(bytes + (alive ? (size_t)shape.units : 0));
    if (!j) return NULL;
    if (native) memcpy(j->values, nn_data_ptr(t), bytes);
    else nn_to_doubles(t, j->values);
    memset(out, 0, sizeof *out);
    record_shape(t, out);
    *j = (stats_job){.capacity = j->capacity, .sat = sat, .with_hist = with_hist, .f64 = f64, .n_dest = 1,
                     .entry = entry, .alive = alive, .alive_passes = alive_passes, .outer = shape.outer,
                     .units = shape.units, .inner = shape.inner, .n = n, .ndim = out->ndim};
    memcpy(j->sizes, out->sizes, sizeof j->sizes);
    j->dest[0] = out;
    if (entry) j->dest[j->n_dest++] = &entry->stats;
    pthread_mutex_lock(&par_lock);
    j->seq = ++jobs_queued;
    if (entry) entry->pending = j;
    if (jobs_tail) jobs_tail->next = j;
    else jobs_head = j;
    jobs_tail = j;
    jobs_len++;
    if (!par_start()) job_run_locked(j);
    else if (jobs_len > DEFER_MAX_JOBS) job_run_locked(jobs_head);
    else par_wake_helper();
    pthread_mutex_unlock(&par_lock);
    return j;
}

void insp_stats_wait(void)
{
    pthread_mutex_lock(&par_lock);
    while (jobs_head || jobs_running) {
        if (jobs_head) job_run_locked(jobs_head);
        else pthread_cond_wait(&job_finished, &par_lock);
    }
    pthread_cond_broadcast(&job_finished);
    pthread_mutex_unlock(&par_lock);
}

/* The entry's statistics into out: now, or when its job delivers. */
static void cache_answer(insp_cached_stats *e, bool with_hist, insp_stats *out)
{
    pthread_mutex_lock(&par_lock);
    stats_job *j = e->pending;
    bool later = j && with_hist == j->with_hist && j->n_dest < (int)(sizeof j->dest / sizeof j->dest[0]);
    if (later) {
        memset(out, 0, sizeof *out);
        j->dest[j->n_dest++] = out;
    }
    pthread_mutex_unlock(&par_lock);
    if (later) return;
    if (j) insp_stats_wait();
    *out = e->stats;
    if (!with_hist) memset(out->hist, 0, sizeof out->hist);
}

/* Empties the entry; a job still computing for it no longer delivers there. */
static void cache_evict(insp_cached_stats *e)
{
    pthread_mutex_lock(&par_lock);
    stats_job *j = e->pending;
    if (j) {
        for (int i = 0; i < j->n_dest; i++)
            if (j->dest[i] == &e->stats) j->dest[i--] = j->dest[--j->n_dest];
        j->entry = NULL;
        e->pending = NULL;
    }
    pthread_mutex_unlock(&par_lock);
    NN_SET(e->view, NULL);
}

int insp_object_stats_cached(insp_stats_cache *c, nn_object *o, insp_saturation sat, bool with_hist, bool defer,
                             insp_stats *out)
{
    nn_tensor *t = sole_tensor(o);
    if (!t) return insp_object_stats(o, sat, NULL, 0, with_hist, out);
    for (int i = 0; i < INSP_STATS_CACHE; i++) {
        insp_cached_stats *e = &c->entries[i];
        if (e->view && e->sat == sat && (e->with_hist || !with_hist) && same_values(e, t)) {
            cache_answer(e, with_hist, out);
            return 0;
        }
    }
    nn_tensor *view = nn_detach(t);
    if (!view) return -1;
    insp_cached_stats *e = &c->entries[c->next];
    cache_evict(e);
    if (!(defer && nn_numel(t) >= DEFER_MIN_VALUES && job_queue(t, sat, with_hist, out, e, NULL, NULL))) {
        if (insp_object_stats(&t->ob, sat, NULL, 0, with_hist, out) < 0) {
            NN_RELEASE(view);
            return -1;
        }
        e->stats = *out;
    }
    c->next = (c->next + 1) % INSP_STATS_CACHE;
    e->view = view;
    e->version = t->storage->version;
    e->sat = sat;
    e->with_hist = with_hist;
    return 0;
}

int insp_unit_stats(nn_object *o, insp_saturation sat, uint8_t *alive, uint64_t *alive_passes, int64_t n_units,
                    bool defer, insp_stats *out)
{
    nn_tensor *t = sole_tensor(o);
    if (defer && t && n_units == insp_units_of(t) && nn_numel(t) >= DEFER_MIN_VALUES &&
        job_queue(t, sat, true, out, NULL, alive, alive_passes))
        return 0;
    /* at once, into a map of its own: the helper may be folding a job into alive */
    uint8_t *units = nn_calloc((size_t)(n_units ? n_units : 1), 1);
    if (!units || insp_object_stats(o, sat, units, n_units, true, out) < 0) {
        nn_free(units);
        return -1;
    }
    pthread_mutex_lock(&par_lock);
    fold_units_locked(alive, units, n_units, alive_passes);
    pthread_mutex_unlock(&par_lock);
    nn_free(units);
    return 0;
}

int64_t insp_dead_count(const uint8_t *alive, int64_t n_units, uint64_t *alive_passes, uint64_t *passes)
{
    int64_t dead = 0;
    pthread_mutex_lock(&par_lock);
    for (int64_t u = 0; u < n_units; u++) dead += !alive[u];
    *passes = *alive_passes;
    pthread_mutex_unlock(&par_lock);
    return dead;
}

uint64_t insp_stats_queued(void)
{
    pthread_mutex_lock(&par_lock);
    uint64_t seq = jobs_queued;
    pthread_mutex_unlock(&par_lock);
    return seq;
}

uint64_t insp_stats_done(void)
{
    pthread_mutex_lock(&par_lock);
    uint64_t done = jobs_queued;
    if (jobs_head && jobs_head->seq - 1 < done) done = jobs_head->seq - 1;
    if (helper_job && helper_job->seq - 1 < done) done = helper_job->seq - 1;
    pthread_mutex_unlock(&par_lock);
    return done;
}

void insp_stats_cache_clear(insp_stats_cache *c)
{
    for (int i = 0; i < INSP_STATS_CACHE; i++) cache_evict(&c->entries[i]);
}

int insp_tensor_stats(nn_tensor *t, insp_saturation sat, insp_stats *out)
{
    return insp_object_stats(&t->ob, sat, NULL, 0, true, out);
}
