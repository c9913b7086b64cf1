/*
 * stats.c — the inspector's statistics kernel: count, mean, std, min, max, L2 norm,
 * exact zeros, saturation, NaN/Inf counts and per-unit "ever nonzero" in one fused
 * loop over contiguous float32/float64 data (other dtypes and layouts through a
 * double copy), then the [min, max] histogram (it needs the range): of every value
 * up to INSP_HIST_SAMPLE values, of runs of values spread over it beyond. It all runs on
 * the calling thread, inside the hook: a second thread would have to share the
 * cores with OpenBLAS's product threads, and displacing one stalls a whole
 * product, so the cost is kept low by the kernels instead (float lanes for
 * float32, the sampled histogram). Not here: where the numbers are kept
 * (session.c) or drawn (render.c).
 */
#include "insp_int.h"

#include <immintrin.h>
#include <math.h>
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
    int64_t row;  /* the tensor's last dimension, which the histogram's sample must cross */
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
#define AVX2_FMA __attribute__((target("avx2,fma"))) /* every AVX2 processor has FMA too */

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
   intrinsics and kept in 8 float lanes, two vectors a turn. The sums run in float
   for FLUSH_TURNS turns (16 values a lane) and are then added into double sums,
   so that each float partial stays within about 1e-6 of its exact value (PyTorch's
   own float32 reductions do no better) at a third of the work of widening every
   value; min, max and the counts are exact. A value that is not finite, or one
   whose square does not fit a float, makes a float sum non-finite: the kernel then
   returns false with *a untouched and the general (double) kernel runs instead.
   Saturation is tested in float with thresholds that give the double tests'
   answers for every float: v > 0.99 exactly when v >= 0.99f (the nearest float
   above 0.99), and v < 0.01 exactly when v <= 0.01f (the nearest float below 0.01). */
#define FLUSH_TURNS 8
#define COUNT_BLOCK 65536 /* values between two sums of the int32 count lanes (no overflow) */
AVX2 static inline __attribute__((always_inline)) __m256i count_lanes(__m256 mask)
{
    return _mm256_castps_si256(mask); /* -1 in each lane that holds */
}
AVX2 static inline __attribute__((always_inline)) __m256 saturated_lanes(__m256 v, insp_saturation sat)
{
    const __m256 hi = _mm256_set1_ps(0.99f), lo = _mm256_set1_ps(0.01f), sign = _mm256_set1_ps(-0.0f);
    if (sat == INSP_SAT_TANH) return _mm256_cmp_ps(_mm256_andnot_ps(sign, v), hi, _CMP_GE_OQ);
    return _mm256_or_ps(_mm256_cmp_ps(v, lo, _CMP_LE_OQ), _mm256_cmp_ps(v, hi, _CMP_GE_OQ));
}
AVX2 static inline __attribute__((always_inline)) __m256d widen_sum(__m256 f)
{
    return _mm256_add_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(f)), _mm256_cvtps_pd(_mm256_extractf128_ps(f, 1)));
}
AVX2 static inline __attribute__((always_inline)) int64_t sum_lanes_i32(__m256i c)
{
    int32_t l[8];
    _mm256_storeu_si256((__m256i *)l, c);
    int64_t t = 0;
    for (int j = 0; j < 8; j++) t -= l[j];
    return t;
}
AVX2_FMA static inline __attribute__((always_inline)) bool finite_f32_v8(acc *a, const float *x, int64_t n,
                                                                          insp_saturation sat)
{
    const float kf = (float)a->shift;
    if ((double)kf != a->shift) return false; /* a shift from a float64 tensor pooled before this one */
    const __m256 K = _mm256_set1_ps(kf), zero = _mm256_setzero_ps();
    __m256d s1 = _mm256_setzero_pd(), s2 = s1, q = s1;
    __m256 mn = K, mx = K;
    int64_t zeros = 0, sats = 0, i = 0;
    while (i + 16 <= n) {
        __m256i zer = _mm256_setzero_si256(), satc = zer;
        for (int64_t block_end = i + COUNT_BLOCK < n ? i + COUNT_BLOCK : n; i + 16 <= block_end;) {
            __m256 d1 = zero, e1 = zero, d2 = zero, e2 = zero, dq = zero, eq = zero;
            for (int turn = 0; turn < FLUSH_TURNS && i + 16 <= block_end; turn++, i += 16) {
                __m256 v = _mm256_loadu_ps(x + i), u = _mm256_loadu_ps(x + i + 8);
                __m256 d = _mm256_sub_ps(v, K), e = _mm256_sub_ps(u, K);
                d1 = _mm256_add_ps(d1, d), e1 = _mm256_add_ps(e1, e);
                d2 = _mm256_fmadd_ps(d, d, d2), e2 = _mm256_fmadd_ps(e, e, e2);
                dq = _mm256_fmadd_ps(v, v, dq), eq = _mm256_fmadd_ps(u, u, eq);
                mn = _mm256_min_ps(mn, _mm256_min_ps(v, u));
                mx = _mm256_max_ps(mx, _mm256_max_ps(v, u));
                zer = _mm256_add_epi32(zer, _mm256_add_epi32(count_lanes(_mm256_cmp_ps(v, zero, _CMP_EQ_OQ)),
                                                             count_lanes(_mm256_cmp_ps(u, zero, _CMP_EQ_OQ))));
                if (sat != INSP_SAT_NONE)
                    satc = _mm256_add_epi32(satc, _mm256_add_epi32(count_lanes(saturated_lanes(v, sat)),
                                                                   count_lanes(saturated_lanes(u, sat))));
            }
            s1 = _mm256_add_pd(s1, _mm256_add_pd(widen_sum(d1), widen_sum(e1)));
            s2 = _mm256_add_pd(s2, _mm256_add_pd(widen_sum(d2), widen_sum(e2)));
            q = _mm256_add_pd(q, _mm256_add_pd(widen_sum(dq), widen_sum(eq)));
        }
        zeros += sum_lanes_i32(zer);
        sats += sum_lanes_i32(satc);
    }
    double s1l[4], s2l[4], ql[4], sum1 = 0, sum2 = 0, sumq = 0;
    _mm256_storeu_pd(s1l, s1);
    _mm256_storeu_pd(s2l, s2);
    _mm256_storeu_pd(ql, q);
    for (int j = 0; j < 4; j++) sum1 += s1l[j], sum2 += s2l[j], sumq += ql[j];
    if (!isfinite(sum1) || !isfinite(sum2) || !isfinite(sumq)) return false;
    for (int64_t t = i; t < n; t++)
        if (!isfinite(x[t])) return false;
    float mnl[8], mxl[8];
    _mm256_storeu_ps(mnl, mn);
    _mm256_storeu_ps(mxl, mx);
    a->s1 += sum1, a->s2 += sum2, a->q += sumq;
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
AVX2_FMA static bool finite_f32_avx2(acc *a, const float *x, int64_t n)
{
    return finite_f32_v8(a, x, n, INSP_SAT_NONE);
}
AVX2_FMA static bool finite_f32_tanh_avx2(acc *a, const float *x, int64_t n)
{
    return finite_f32_v8(a, x, n, INSP_SAT_TANH);
}
AVX2_FMA static bool finite_f32_sigm_avx2(acc *a, const float *x, int64_t n)
{
    return finite_f32_v8(a, x, n, INSP_SAT_SIGMOID);
}

static bool have_avx2(void) { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }

/* sum (now - before)^2 and sum now^2 in double, 4 lanes (8 with AVX2) of sums so
   that the additions do not wait on each other. */
AVX2_FMA static void change_avx2(const float *now, const float *before, int64_t n, double *dd, double *pp)
{
    __m256d d0 = _mm256_setzero_pd(), d1 = d0, p0 = d0, p1 = d0;
    int64_t j = 0;
    for (; j + 8 <= n; j += 8) {
        __m256 v = _mm256_loadu_ps(now + j), b = _mm256_loadu_ps(before + j);
        __m256d vl = _mm256_cvtps_pd(_mm256_castps256_ps128(v)), vh = _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1));
        __m256d dl = _mm256_sub_pd(vl, _mm256_cvtps_pd(_mm256_castps256_ps128(b)));
        __m256d dh = _mm256_sub_pd(vh, _mm256_cvtps_pd(_mm256_extractf128_ps(b, 1)));
        d0 = _mm256_fmadd_pd(dl, dl, d0), d1 = _mm256_fmadd_pd(dh, dh, d1);
        p0 = _mm256_fmadd_pd(vl, vl, p0), p1 = _mm256_fmadd_pd(vh, vh, p1);
    }
    double dl[4], pl[4];
    _mm256_storeu_pd(dl, _mm256_add_pd(d0, d1));
    _mm256_storeu_pd(pl, _mm256_add_pd(p0, p1));
    double d = (dl[0] + dl[1]) + (dl[2] + dl[3]), p = (pl[0] + pl[1]) + (pl[2] + pl[3]);
    for (; j < n; j++) {
        double v = now[j], e = v - (double)before[j];
        d += e * e, p += v * v;
    }
    *dd = d, *pp = p;
}

void insp_abs_sum(const void *data, bool f64, int64_t n, double *sum, int64_t *finite)
{
    double s[4] = {0};
    int64_t c[4] = {0}, j = 0;
#define AT(j) (f64 ? ((const double *)data)[j] : (double)((const float *)data)[j])
    for (; j + 4 <= n; j += 4)
        for (int k = 0; k < 4; k++) {
            double v = AT(j + k);
            bool f = v - v == 0; /* finite: no branch to mispredict */
            s[k] += f ? fabs(v) : 0, c[k] += f;
        }
    for (; j < n; j++) {
        double v = AT(j);
        bool f = v - v == 0;
        s[0] += f ? fabs(v) : 0, c[0] += f;
    }
#undef AT
    *sum = (s[0] + s[1]) + (s[2] + s[3]);
    *finite = c[0] + c[1] + c[2] + c[3];
}

void insp_float_change(const float *now, const float *before, int64_t n, double *dd, double *pp)
{
    if (have_avx2()) {
        change_avx2(now, before, n, dd, pp);
        return;
    }
    double d[4] = {0}, p[4] = {0};
    int64_t j = 0;
    for (; j + 4 <= n; j += 4)
        for (int k = 0; k < 4; k++) {
            double v = now[j + k], e = v - (double)before[j + k];
            d[k] += e * e, p[k] += v * v;
        }
    for (; j < n; j++) {
        double v = now[j], e = v - (double)before[j];
        d[0] += e * e, p[0] += v * v;
    }
    *dd = (d[0] + d[1]) + (d[2] + d[3]);
    *pp = (p[0] + p[1]) + (p[2] + p[3]);
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

/* Whether some value of a run is nonzero, stopping at the first. */
#define NONZERO_KERNEL(NAME, T)                                                 \
    static bool NAME(const T *x, int64_t n)                                     \
    {                                                                           \
        for (int64_t i = 0; i < n; i++)                                         \
            if (x[i] != 0) return true;                                         \
        return false;                                                           \
    }
NONZERO_KERNEL(nonzero_f32, float)
NONZERO_KERNEL(nonzero_f64, double)

/* Folds s, [outer, units, inner], into the unit map: only units not alive yet
   are looked at, each until its first nonzero value, so that a pass costs little
   once most units have fired (a unit that never fires costs a look at each of
   its values, as it must). */
static void unit_map(const source *s, uint8_t *alive)
{
    size_t es = s->f64 ? sizeof(double) : sizeof(float);
    int64_t row = s->units * s->inner;
    for (int64_t u = 0; u < s->units; u++) {
        for (int64_t o = 0; o < s->outer && !alive[u]; o++) {
            const void *x = (const char *)s->data + (size_t)(o * row + u * s->inner) * es;
            alive[u] = s->f64 ? nonzero_f64(x, s->inner) : nonzero_f32(x, s->inner);
        }
    }
}

/* The fused pass over one source, then its unit map, if any. */
static void fused_source(acc *a, const source *s, uint8_t *alive, insp_saturation sat)
{
    fused(a, s->data, s->f64, s->n, sat);
    if (alive) unit_map(s, alive);
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
        /* the indices leave the vector two at a time (a store and eight narrow
           loads would wait on store forwarding) */
        __m128i b0 = _mm256_cvttpd_epi32(_mm256_min_pd(t0, TOP)), b1 = _mm256_cvttpd_epi32(_mm256_min_pd(t1, TOP));
        uint64_t p0 = (uint64_t)_mm_cvtsi128_si64(b0), p1 = (uint64_t)_mm_extract_epi64(b0, 1);
        uint64_t p2 = (uint64_t)_mm_cvtsi128_si64(b1), p3 = (uint64_t)_mm_extract_epi64(b1, 1);
        h[0][(uint32_t)p0]++, h[1][p0 >> 32]++, h[2][(uint32_t)p1]++, h[3][p1 >> 32]++;
        h[4][(uint32_t)p2]++, h[5][p2 >> 32]++, h[6][(uint32_t)p3]++, h[7][p3 >> 32]++;
    }
    for (; i < n; i++) {
        double t = ((double)x[i] - lo) * scale;
        h[0][(int32_t)(t < INSP_HIST_BINS - 1 ? t : INSP_HIST_BINS - 1)]++;
    }
    for (int b = 0; b < INSP_HIST_BINS; b++)
        for (int c = 0; c < 8; c++) hist[b] += h[c][b];
}

/* Bins n contiguous values of one kind. */
static void bin_run(uint32_t *hist, const void *x, bool f64, int64_t n, double lo, double scale, bool all_finite)
{
    if (have_avx2()) {
        if (f64) hist_f64_avx2(hist, x, n, lo, scale);
        else if (all_finite) hist_f32_finite_avx2(hist, x, n, lo, scale);
        else hist_f32_avx2(hist, x, n, lo, scale);
    } else {
        f64 ? hist_f64(hist, x, n, lo, scale) : hist_f32(hist, x, n, lo, scale);
    }
}

static int64_t gcd(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b, b = t;
    }
    return a;
}

/* A histogram of more than INSP_HIST_SAMPLE values counts a sample of about that
   many: runs of HIST_RUN consecutive values (one vector: a run costs a load where
   single values would cost one each), a run every `stride` values from the first,
   stride the first integer >= total * HIST_RUN / INSP_HIST_SAMPLE that shares no
   factor with the last dimension (row), so that the runs start at every column
   rather than at every k-th. 0: every value counts. */
#define HIST_RUN 8
static int64_t run_stride(int64_t total, int64_t row)
{
    if (total <= INSP_HIST_SAMPLE) return 0;
    int64_t stride = (total * HIST_RUN + INSP_HIST_SAMPLE - 1) / INSP_HIST_SAMPLE;
    while (row > 1 && gcd(stride, row) != 1) stride++;
    return stride;
}

/* Bins s's sampled runs (copied a block at a time, from a source the fused pass
   has just read) or, stride 0, all its values. */
static void histogram(uint32_t *hist, const source *s, int64_t stride, double lo, double scale, bool all_finite)
{
    if (!stride) {
        bin_run(hist, s->data, s->f64, s->n, lo, scale, all_finite);
        return;
    }
    enum { BLOCK = 512 };
    union {
        float f[BLOCK];
        double d[BLOCK];
    } buf;
    int64_t m = 0;
    for (int64_t p = 0; p + HIST_RUN <= s->n; p += stride) {
        /* sizes known here, so that each copy is a vector move, not a call */
        if (s->f64) memcpy(&buf.d[m], (const double *)s->data + p, HIST_RUN * sizeof(double));
        else memcpy(&buf.f[m], (const float *)s->data + p, HIST_RUN * sizeof(float));
        if ((m += HIST_RUN) == BLOCK) bin_run(hist, &buf, s->f64, m, lo, scale, all_finite), m = 0;
    }
    bin_run(hist, &buf, s->f64, m, lo, scale, all_finite);
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
    nn_tensor *hold = NULL; /* stays NULL: nn_host_read borrows a contiguous CPU tensor's elements */
    if (nn_device_of(t).type == NN_CPU && nn_is_contiguous(t) && (t->dtype == NN_FLOAT32 || t->dtype == NN_FLOAT64)) {
        src->data = nn_host_read(t, &hold);
        src->f64 = t->dtype == NN_FLOAT64;
    } else {
        if (!(src->copy = nn_malloc((size_t)(src->n ? src->n : 1) * sizeof(double)))) return -1;
        if (src->n) nn_to_doubles(t, src->copy);
        src->data = src->copy;
        src->f64 = true;
    }
    src->row = t->ndim ? t->sizes[t->ndim - 1] : 1;
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

/* The pooled statistics of the sources; alive: the first source's unit map, or NULL. */
static void stats_of_sources(const source *srcs, size_t n, uint8_t *alive, insp_saturation sat, bool with_hist,
                             insp_stats *out)
{
    acc a = {.min = INFINITY, .max = -INFINITY};
    int64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        if (!a.has_shift) a.has_shift = first_finite(&srcs[i], &a.shift);
        total += srcs[i].n;
    }
    for (size_t i = 0; i < n; i++) fused_source(&a, &srcs[i], i == 0 ? alive : NULL, sat);
    uint32_t hist[INSP_HIST_BINS] = {0};
    if (a.finite && with_hist) {
        double scale = a.max > a.min ? INSP_HIST_BINS / (a.max - a.min) : 0;
        for (size_t i = 0; i < n; i++)
            histogram(hist, &srcs[i], run_stride(total, srcs[i].row), a.min, scale, a.finite == a.count);
        if (total > INSP_HIST_SAMPLE) { /* the bins of the minimum and the maximum hold a value, sampled or not */
            if (!hist[0]) hist[0] = 1;
            if (scale > 0 && !hist[INSP_HIST_BINS - 1]) hist[INSP_HIST_BINS - 1] = 1;
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
        stats_of_sources(srcs, n, alive, sat, with_hist, out);
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

int insp_object_stats_cached(insp_stats_cache *c, nn_object *o, insp_saturation sat, bool with_hist,
                             insp_stats *out)
{
    nn_tensor *t = sole_tensor(o);
    if (!t) return insp_object_stats(o, sat, NULL, 0, with_hist, out);
    for (int i = 0; i < INSP_STATS_CACHE; i++) {
        insp_cached_stats *e = &c->entries[i];
        if (e->view && e->sat == sat && (e->with_hist || !with_hist) && same_values(e, t)) {
            *out = e->stats;
            if (!with_hist) memset(out->hist, 0, sizeof out->hist);
            return 0;
        }
    }
    nn_tensor *view = nn_detach(t);
    if (!view) return -1;
    if (insp_object_stats(&t->ob, sat, NULL, 0, with_hist, out) < 0) {
        NN_RELEASE(view);
        return -1;
    }
    insp_cached_stats *e = &c->entries[c->next];
    c->next = (c->next + 1) % INSP_STATS_CACHE;
    NN_SET(e->view, view);
    e->version = t->storage->version;
    e->sat = sat;
    e->with_hist = with_hist;
    e->stats = *out;
    return 0;
}

void insp_stats_cache_clear(insp_stats_cache *c)
{
    for (int i = 0; i < INSP_STATS_CACHE; i++) NN_SET(c->entries[i].view, NULL);
}

int insp_tensor_stats(nn_tensor *t, insp_saturation sat, insp_stats *out)
{
    return insp_object_stats(&t->ob, sat, NULL, 0, true, out);
}
