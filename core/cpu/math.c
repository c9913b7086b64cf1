/*
 * cpu/math.c — the CPU's `math` kernel (core/kernels.def, nn_math_op): the
 * elementwise math of mathfn.c (sin ... frac, atan2, hypot, logaddexp, xlogy,
 * lerp, nan_to_num, isfinite), logsumexp's rows and the activations of
 * act_more.c and act_extra.c (selu, rrelu), over contiguous operands of
 * one float dtype. On float32, sin, cos, tan, asin, acos, atan, log2, log10,
 * log1p, expm1, erf and erfc run SLEEF's AVX2 functions on every element as
 * ATen's vml kernels do (cpu/vmath.c); the others round the double result to
 * float. mathfn.c validates, lays the operands out, allocates and records.
 */
#include <math.h>
#include <string.h>

#include "nn_cpu.h"
#include "nn_vmath.h"

typedef float (*f32_fn)(float);
typedef double (*f64_fn)(double);

#define VIA_DOUBLE(name, expr)                                                                   \
    static double name##_d(double x) { return (expr); }                                          \
    static float name##_f(float x) { return (float)name##_d(x); }
VIA_DOUBLE(sin, sin(x))
VIA_DOUBLE(cos, cos(x))
VIA_DOUBLE(tan, tan(x))
VIA_DOUBLE(asin, asin(x))
VIA_DOUBLE(acos, acos(x))
VIA_DOUBLE(atan, atan(x))
VIA_DOUBLE(sinh, sinh(x))
VIA_DOUBLE(cosh, cosh(x))
VIA_DOUBLE(asinh, asinh(x))
VIA_DOUBLE(acosh, acosh(x))
VIA_DOUBLE(atanh, atanh(x))
VIA_DOUBLE(log2, log2(x))
VIA_DOUBLE(log10, log10(x))
VIA_DOUBLE(log1p, log1p(x))
VIA_DOUBLE(expm1, expm1(x))
VIA_DOUBLE(exp2, exp2(x))
VIA_DOUBLE(erf, erf(x))
VIA_DOUBLE(erfc, erfc(x))
static double rsqrt_d(double x) { return 1.0 / sqrt(x); }
static float rsqrt_f(float x) { return 1.0f / sqrtf(x); } /* two float steps, as ATen */
VIA_DOUBLE(trunc, trunc(x))
static double reciprocal_d(double x) { return 1.0 / x; }
static float reciprocal_f(float x) { return 1.0f / x; }
static double frac_d(double x) { return x - trunc(x); }
static float frac_f(float x) { return x - truncf(x); }

/* ATen's calc_erfinv in precision T (Gary L. Pavlis's rational start, then two
   Newton steps). */
#define ERFINV(T, NAME, SQRT, LOG, ERF, EXP, FABS, COPYSIGN, FMA)                                     \
    static T NAME(T y)                                                                           \
    {                                                                                            \
        static const T a[4] = {0.886226899, -1.645349621, 0.914624893, -0.140543331};            \
        static const T b[4] = {-2.118377725, 1.442710462, -0.329097515, 0.012229801};            \
        static const T c[4] = {-1.970840454, -1.624906493, 3.429567803, 1.641345311};            \
        static const T d[2] = {3.543889200, 1.637067800};                                        \
        T y_abs = FABS(y), x, z, num, dem;                                                       \
        if (y_abs > (T)1.0) return (T)NAN;                                                       \
        if (y_abs == (T)1.0) return COPYSIGN((T)INFINITY, y);                                    \
        if (y_abs <= (T)0.7) {                                                                   \
            z = y * y;                                                                           \
            num = FMA(FMA(FMA(a[3], z, a[2]), z, a[1]), z, a[0]);                                \
            dem = FMA(FMA(FMA(FMA(b[3], z, b[2]), z, b[1]), z, b[0]), z, (T)1.0);                \
            x = y * num / dem;                                                                   \
        } else {                                                                                 \
            z = SQRT(-LOG(((T)1.0 - y_abs) / (T)2.0));                                           \
            num = FMA(FMA(FMA(c[3], z, c[2]), z, c[1]), z, c[0]);                                \
            dem = FMA(FMA(d[1], z, d[0]), z, (T)1.0);                                            \
            x = COPYSIGN(num, y) / dem;                                                          \
        }                                                                                        \
        const T k = (T)2.0 / (T)sqrt(M_PI);                                                      \
        x = x - (ERF(x) - y) / (k * EXP(-x * x));                                                \
        x = x - (ERF(x) - y) / (k * EXP(-x * x));                                                \
        return x;                                                                                \
    }
ERFINV(float, erfinv_f, sqrtf, logf, erff, expf, fabsf, copysignf, fmaf)
ERFINV(double, erfinv_d, sqrt, log, erf, exp, fabs, copysign, fma)

/* Each unary code's float32 and float64 function, and the SLEEF function
   ATen's vml kernels run on every float32 element, or -1 where its kernel is
   scalar (libm) or mixed. */
static const struct {
    f32_fn f32;
    f64_fn f64;
    int vfn;
} unary_fns[NN_MATH_frac + 1] = {
    [NN_MATH_sin] = {sin_f, sin_d, NN_VFN_SIN},
    [NN_MATH_cos] = {cos_f, cos_d, NN_VFN_COS},
    [NN_MATH_tan] = {tan_f, tan_d, NN_VFN_TAN},
    [NN_MATH_asin] = {asin_f, asin_d, NN_VFN_ASIN},
    [NN_MATH_acos] = {acos_f, acos_d, NN_VFN_ACOS},
    [NN_MATH_atan] = {atan_f, atan_d, NN_VFN_ATAN},
    [NN_MATH_sinh] = {sinh_f, sinh_d, -1},
    [NN_MATH_cosh] = {cosh_f, cosh_d, -1},
    [NN_MATH_asinh] = {asinh_f, asinh_d, -1},
    [NN_MATH_acosh] = {acosh_f, acosh_d, -1},
    [NN_MATH_atanh] = {atanh_f, atanh_d, -1},
    [NN_MATH_log2] = {log2_f, log2_d, NN_VFN_LOG2},
    [NN_MATH_log10] = {log10_f, log10_d, NN_VFN_LOG10},
    [NN_MATH_log1p] = {log1p_f, log1p_d, NN_VFN_LOG1P},
    [NN_MATH_expm1] = {expm1_f, expm1_d, NN_VFN_EXPM1},
    [NN_MATH_exp2] = {exp2_f, exp2_d, -1},
    [NN_MATH_erf] = {erf_f, erf_d, NN_VFN_ERF},
    [NN_MATH_erfc] = {erfc_f, erfc_d, NN_VFN_ERFC},
    [NN_MATH_erfinv] = {erfinv_f, erfinv_d, -1},
    [NN_MATH_rsqrt] = {rsqrt_f, rsqrt_d, -1},
    [NN_MATH_reciprocal] = {reciprocal_f, reciprocal_d, -1},
    [NN_MATH_trunc] = {trunc_f, trunc_d, -1},
    [NN_MATH_frac] = {frac_f, frac_d, -1},
};

typedef float (*f32_fn2)(float, float);
typedef double (*f64_fn2)(double, double);

static double atan2_d(double y, double x) { return atan2(y, x); }
static float atan2_f(float y, float x) { return (float)atan2((double)y, (double)x); }
static double hypot_d(double x, double y) { return hypot(x, y); }
static float hypot_f(float x, float y) { return (float)hypot((double)x, (double)y); }
/* ATen's logaddexp: m + log1p(exp(-|a - b|)), infinities of one sign kept */
#define LOGADDEXP(T, NAME, LOG1P, EXP, FABS)                                                     \
    static T NAME(T a, T b)                                                                      \
    {                                                                                            \
        if (isinf(a) && a == b) return a;                                                        \
        T m = a > b ? a : b;                                                                     \
        return m + LOG1P(EXP(-FABS(a - b)));                                                     \
    }
static float log1p_fr(float x) { return (float)log1p((double)x); }
static float exp_fr(float x) { return (float)exp((double)x); }
LOGADDEXP(float, logaddexp_f, log1p_fr, exp_fr, fabsf)
LOGADDEXP(double, logaddexp_d, log1p, exp, fabs)
/* x * log(y), 0 where x == 0 (NaN y stays NaN) */
static double xlogy_d(double x, double y) { return isnan(y) ? NAN : x == 0 ? 0.0 : x * log(y); }
static float xlogy_f(float x, float y) { return isnan(y) ? NAN : x == 0 ? 0.0f : x * (float)log((double)y); }

static double lerp_d(double s, double e, double w) { return fabs(w) < 0.5 ? s + w * (e - s) : e - (e - s) * (1 - w); }
static float lerp_f(float s, float e, float w) { return fabsf(w) < 0.5f ? s + w * (e - s) : e - (e - s) * (1 - w); }


static int elementwise(nn_math_op op, nn_kernel_args *a)
{
    nn_tensor *out = a->t[0];
    const nn_tensor *c = a->t[1];
    int64_t n = nn_numel(out);
    bool f32 = out->dtype == NN_FLOAT32;
    if (op <= NN_MATH_frac) {
        if (f32) {
            const float *x = nn_data_ptr(c);
            float *y = nn_data_ptr(out);
            int vf = unary_fns[op].vfn;
            /* sinh, cosh: ATen's cpu_kernel_vec (Sleef on pairs of vectors, sinhf/coshf on the rest) */
            int64_t row = a->i[0]; /* mathfn.c: the source's dense rows, 0 contiguous, -1 strided */
            bool act = (op == NN_MATH_sinh || op == NN_MATH_cosh) &&
                       nn_vmath_act_f32(op == NN_MATH_sinh ? NN_VACT_SINH : NN_VACT_COSH, y, x, n, row > 0 ? row : 0,
                                        NULL, row >= 0);
            if (!act && (vf < 0 || !nn_vmath_map_f32((nn_vfn)vf, y, x, n)))
                for (int64_t i = 0; i < n; i++) y[i] = unary_fns[op].f32(x[i]);
        } else {
            const double *x = nn_data_ptr(c);
            double *y = nn_data_ptr(out);
            int vf = unary_fns[op].vfn; /* ATen's vml kernels: Vectorized<double>'s Sleef functions */
            int64_t row = a->i[0];     /* sinh, cosh: cpu_kernel_vec, by dense rows; none when strided */
            bool hyper = (op == NN_MATH_sinh || op == NN_MATH_cosh) && row >= 0 &&
                         nn_vmath_hyper_f64(op == NN_MATH_sinh, y, x, n, row);
            if (!hyper && (vf < 0 || !nn_vmath_map_f64((nn_vfn)vf, y, x, n)))
                for (int64_t i = 0; i < n; i++) y[i] = unary_fns[op].f64(x[i]);
        }
        return 0;
    }
    f32_fn2 ff = op == NN_MATH_atan2 ? atan2_f : op == NN_MATH_hypot ? hypot_f : op == NN_MATH_logaddexp ? logaddexp_f : xlogy_f;
    f64_fn2 fd = op == NN_MATH_atan2 ? atan2_d : op == NN_MATH_hypot ? hypot_d : op == NN_MATH_logaddexp ? logaddexp_d : xlogy_d;
    if (f32) {
        const float *x = nn_data_ptr(c), *y = nn_data_ptr(a->t[2]);
        float *o = nn_data_ptr(out);
        for (int64_t i = 0; i < n; i++) o[i] = ff(x[i], y[i]);
    } else {
        const double *x = nn_data_ptr(c), *y = nn_data_ptr(a->t[2]);
        double *o = nn_data_ptr(out);
        for (int64_t i = 0; i < n; i++) o[i] = fd(x[i], y[i]);
    }
    return 0;
}

static int lerp(nn_kernel_args *a)
{
    nn_tensor *out = a->t[0];
    int64_t k = nn_numel(out);
    double w = a->d[0];
    if (out->dtype == NN_FLOAT32) {
        const float *x = nn_data_ptr(a->t[1]), *y = nn_data_ptr(a->t[2]), *z = a->t[3] ? nn_data_ptr(a->t[3]) : NULL;
        float *o = nn_data_ptr(out);
        for (int64_t i = 0; i < k; i++) o[i] = lerp_f(x[i], y[i], z ? z[i] : (float)w);
    } else {
        const double *x = nn_data_ptr(a->t[1]), *y = nn_data_ptr(a->t[2]), *z = a->t[3] ? nn_data_ptr(a->t[3]) : NULL;
        double *o = nn_data_ptr(out);
        for (int64_t i = 0; i < k; i++) o[i] = lerp_d(x[i], y[i], z ? z[i] : w);
    }
    return 0;
}

/* addcmul/addcdiv as ATen 1.13's AVX2 kernel computes them, vector lanes and
   scalar tail alike (GCC contracted `self + value * t1 * t2` into one fma, and
   left the division unfused): value rounded to the dtype first. */
#define ADDC(T, FMA)                                                                               \
    static void addc_##T(T *o, const T *x, const T *y, const T *z, int64_t k, T v, bool divide)    \
    {                                                                                              \
        if (divide)                                                                                \
            for (int64_t i = 0; i < k; i++) o[i] = x[i] + v * y[i] / z[i];                         \
        else                                                                                       \
            for (int64_t i = 0; i < k; i++) o[i] = FMA(v * y[i], z[i], x[i]);                      \
    }
__attribute__((target_clones("fma", "default"))) ADDC(float, fmaf)
__attribute__((target_clones("fma", "default"))) ADDC(double, fma)

static int addc(nn_kernel_args *a, bool divide)
{
    nn_tensor *out = a->t[0];
    int64_t k = nn_numel(out);
    if (out->dtype == NN_FLOAT32)
        addc_float(nn_data_ptr(out), nn_data_ptr(a->t[1]), nn_data_ptr(a->t[2]), nn_data_ptr(a->t[3]), k,
                   (float)a->d[0], divide);
    else
        addc_double(nn_data_ptr(out), nn_data_ptr(a->t[1]), nn_data_ptr(a->t[2]), nn_data_ptr(a->t[3]), k, a->d[0],
                    divide);
    return 0;
}

static int nan_to_num(nn_kernel_args *a)
{
    nn_tensor *out = a->t[0];
    int64_t k = nn_numel(out);
    double nan = a->d[0], pinf = a->d[1], ninf = a->d[2];
    if (out->dtype == NN_FLOAT32) {
        const float *x = nn_data_ptr(a->t[1]);
        float *y = nn_data_ptr(out);
        for (int64_t i = 0; i < k; i++)
            y[i] = isnan(x[i]) ? (float)nan : x[i] == INFINITY ? (float)pinf : x[i] == -INFINITY ? (float)ninf : x[i];
    } else {
        const double *x = nn_data_ptr(a->t[1]);
        double *y = nn_data_ptr(out);
        for (int64_t i = 0; i < k; i++)
            y[i] = isnan(x[i]) ? nan : x[i] == INFINITY ? pinf : x[i] == -INFINITY ? ninf : x[i];
    }
    return 0;
}

static int isfinite_mask(nn_kernel_args *a)
{
    const double *x = nn_data_ptr(a->t[1]);
    bool *y = nn_data_ptr(a->t[0]);
    for (int64_t i = 0, k = nn_numel(a->t[0]); i < k; i++) y[i] = isfinite(x[i]);
    return 0;
}

/* log(sum(exp(x - m))) + m per row, m the row's max (0 when infinite) */
static int logsumexp(nn_kernel_args *a)
{
    nn_tensor *out = a->t[0];
    const nn_tensor *data = a->t[1];
    int64_t outer = a->i[0], inner = a->i[1];
    for (int64_t r = 0; r < outer; r++) {
        double m = -INFINITY, sum = 0;
        if (out->dtype == NN_FLOAT32) {
            const float *x = (const float *)nn_data_ptr(data) + r * inner;
            for (int64_t i = 0; i < inner; i++) m = x[i] > m || isnan(x[i]) ? x[i] : m;
            float mf = isinf(m) ? 0.0f : (float)m, sf = 0;
            for (int64_t i = 0; i < inner; i++) sf += (float)exp((double)(x[i] - mf));
            ((float *)nn_data_ptr(out))[r] = (float)log((double)sf) + mf;
        } else {
            const double *x = (const double *)nn_data_ptr(data) + r * inner;
            for (int64_t i = 0; i < inner; i++) m = x[i] > m || isnan(x[i]) ? x[i] : m;
            if (isinf(m)) m = 0;
            for (int64_t i = 0; i < inner; i++) sum += exp(x[i] - m);
            ((double *)nn_data_ptr(out))[r] = log(sum) + m;
        }
    }
    return 0;
}

/* act_more.c's activations, PyTorch's scalar formulas (mish and logsigmoid with
   the C library's exp/log1p/tanh). */
#define ACTIVATION(T, EXP, LOG1P, TANH)                                                                                    \
    static void activation_##T(nn_math_op k, const T *x, T *y, int64_t n, T a, T b)                                         \
    {                                                                                                                  \
        for (int64_t i = 0; i < n; i++) {                                                                              \
            T v = x[i];                                                                                                \
            switch (k) {                                                                                               \
            default: break;                                                                                            \
            case NN_MATH_hardtanh: y[i] = v < a ? a : v > b ? b : v; break;                                                  \
            case NN_MATH_hardswish: {                                                                                        \
                T c = v + (T)3;                                                                                        \
                c = c < 0 ? 0 : c > 6 ? 6 : c;                                                                         \
                y[i] = v * c / (T)6;                                                                                   \
                break;                                                                                                 \
            }                                                                                                          \
            case NN_MATH_hardsigmoid: {                                                                                      \
                T c = v + (T)3;                                                                                        \
                c = c < 0 ? 0 : c > 6 ? 6 : c;                                                                         \
                y[i] = c / (T)6;                                                                                       \
                break;                                                                                                 \
            }                                                                                                          \
            case NN_MATH_mish: y[i] = v * TANH(LOG1P(EXP(v))); break;                                                       \
            case NN_MATH_logsigmoid: {                                                                                       \
                T m = v < 0 ? v : 0;                                                                                   \
                y[i] = m - LOG1P(EXP(-(v < 0 ? -v : v)));                                                              \
                break;                                                                                                 \
            }                                                                                                          \
            case NN_MATH_hardshrink: y[i] = (v >= -a && v <= a) ? 0 : v; break;                                              \
            case NN_MATH_softshrink: y[i] = v > a ? v - a : v < -a ? v + a : 0; break;                                       \
            case NN_MATH_celu: y[i] = v > 0 ? v : a * (EXP(v * ((T)1 / a)) - (T)1); break;                                 \
            }                                                                                                          \
        }                                                                                                              \
    }

ACTIVATION(float, expf, log1pf, tanhf)
ACTIVATION(double, exp, log1p, tanh)

#define SELU_ALPHA 1.6732632423543772848170429916717
#define SELU_SCALE 1.0507009873554804934193349852946

static int selu(nn_kernel_args *a)
{
    nn_tensor *y = a->t[0];
    const nn_tensor *c = a->t[1];
    int64_t n = nn_numel(c);
    if (c->dtype == NN_FLOAT32) {
        const float *a = nn_data_ptr(c);
        float *o = nn_data_ptr(y), neg = (float)SELU_ALPHA * (float)SELU_SCALE, pos = (float)SELU_SCALE;
        for (int64_t i = 0; i < n; i++) o[i] = a[i] <= 0 ? ((float)exp((double)a[i]) - 1.0f) * neg : a[i] * pos;
    } else {
        const double *a = nn_data_ptr(c);
        double *o = nn_data_ptr(y), neg = SELU_ALPHA * SELU_SCALE;
        for (int64_t i = 0; i < n; i++) o[i] = a[i] <= 0 ? (exp(a[i]) - 1.0) * neg : a[i] * SELU_SCALE;
    }
    return 0;
}

/* RReLU: in training one slope per non-positive element from generator gen, in
   memory order, as ATen's CPU kernel (a double uniform in [lower, upper)), kept
   in noise (1 elsewhere); in eval the mean slope. */
static int rrelu(nn_kernel_args *a)
{
    nn_tensor *y = a->t[0], *noise = a->t[2];
    const nn_tensor *c = a->t[1];
    double lower = a->d[0], upper = a->d[1];
    bool training = a->i[0];
    int64_t n = nn_numel(c);
    nn_generator *gen = a->gen;
    if (c->dtype == NN_FLOAT32) {
        const float *a = nn_data_ptr(c);
        float *o = nn_data_ptr(y), *z = noise ? nn_data_ptr(noise) : NULL;
        float lo = (float)lower, hi = (float)upper, slope = (float)((lower + upper) / 2);
        for (int64_t i = 0; i < n; i++) {
            if (!training) {
                o[i] = a[i] > 0 ? a[i] : a[i] * slope;
            } else if (a[i] <= 0) {
                float r = (float)(nn_generator_uniform(gen) * ((double)hi - (double)lo) + (double)lo);
                o[i] = a[i] * r;
                z[i] = r;
            } else {
                o[i] = a[i];
                z[i] = 1;
            }
        }
    } else {
        const double *a = nn_data_ptr(c);
        double *o = nn_data_ptr(y), *z = noise ? nn_data_ptr(noise) : NULL, slope = (lower + upper) / 2;
        for (int64_t i = 0; i < n; i++) {
            if (!training) {
                o[i] = a[i] > 0 ? a[i] : a[i] * slope;
            } else if (a[i] <= 0) {
                double r = nn_generator_uniform(gen) * (upper - lower) + lower;
                o[i] = a[i] * r;
                z[i] = r;
            } else {
                o[i] = a[i];
                z[i] = 1;
            }
        }
    }
    return 0;
}

static int activation(nn_math_op op, nn_kernel_args *a)
{
    nn_tensor *out = a->t[0];
    const nn_tensor *c = a->t[1];
    if (out->dtype == NN_FLOAT32)
        activation_float(op, nn_data_ptr(c), nn_data_ptr(out), nn_numel(c), (float)a->d[0], (float)a->d[1]);
    else
        activation_double(op, nn_data_ptr(c), nn_data_ptr(out), nn_numel(c), a->d[0], a->d[1]);
    return 0;
}

/* ------------------------------------------- strided host loops (the map kernel's bodies) */

typedef struct where_ctx {
    size_t esize;
} where_ctx;

/* a where b, else c: the bits of b or c, chosen by a mask (T unsigned) */
#define WHERE_SELECT(T, a, b, c) ((T)(((b) & (T) - (T)((a) != 0)) | ((c) & ~(T) - (T)((a) != 0))))

/* where: a fast path per element size for contiguous values and condition,
   a byte copy per element otherwise. */
#define WHERE_FAST(T)                                                                                   \
    if (es == sizeof(T) && s[0] == (int64_t)sizeof(T) && s[1] == 1 &&                                  \
        (s[2] == (int64_t)sizeof(T) || s[2] == 0) && (s[3] == (int64_t)sizeof(T) || s[3] == 0)) {      \
        T *o = (T *)d[0];                                                                               \
        const uint8_t *c = (const uint8_t *)d[1];                                                       \
        const T *x = (const T *)d[2], *y = (const T *)d[3];                                             \
        /* both sides loaded, the bits selected by a mask: no branch on the condition, and one  \
           loop per broadcast case, so each vectorizes */                                               \
        if (s[2] && s[3])                                                                               \
            for (int64_t i = 0; i < n; i++) o[i] = WHERE_SELECT(T, c[i], x[i], y[i]);                   \
        else if (s[2])                                                                                  \
            for (int64_t i = 0; i < n; i++) o[i] = WHERE_SELECT(T, c[i], x[i], y[0]);                   \
        else if (s[3])                                                                                  \
            for (int64_t i = 0; i < n; i++) o[i] = WHERE_SELECT(T, c[i], x[0], y[i]);                   \
        else                                                                                            \
            for (int64_t i = 0; i < n; i++) o[i] = WHERE_SELECT(T, c[i], x[0], y[0]);                   \
        return;                                                                                         \
    }

static void where_loop(char **d, const int64_t *s, int64_t n, void *vctx)
{
    size_t es = ((where_ctx *)vctx)->esize;
    WHERE_FAST(uint32_t)
    WHERE_FAST(uint64_t)
    for (int64_t i = 0; i < n; i++) {
        const char *src = *(const uint8_t *)(d[1] + i * s[1]) ? d[2] + i * s[2] : d[3] + i * s[3];
        memcpy(d[0] + i * s[0], src, es);
    }
}

static void sign_loop(char **d, const int64_t *s, int64_t n, void *ctx)
{
    nn_dtype dt = *(const nn_dtype *)ctx;
    for (int64_t i = 0; i < n; i++) {
        double v = nn_load_double(d[1] + i * s[1], dt);
        nn_store_double(d[0] + i * s[0], dt, (double)((v > 0) - (v < 0)));
    }
}

static void argmax_mask_loop(char **d, const int64_t *s, int64_t n, void *ctx)
{
    nn_dtype dt = *(const nn_dtype *)ctx;
    for (int64_t i = 0; i < n; i++) {
        double x = nn_load_double(d[1] + i * s[1], dt), nrm = nn_load_double(d[2] + i * s[2], dt);
        *(uint8_t *)(d[0] + i * s[0]) = fabs(x) == nrm || isnan(x);
    }
}

static int map_op(nn_math_op op, nn_kernel_args *a)
{
    nn_tensor *const *t = a->t;
    if (op == NN_MATH_where) {
        where_ctx ctx = {nn_dtype_size(t[0]->dtype)};
        const nn_tensor *ops[4] = {t[0], t[1], t[2], t[3]};
        return nn_cpu_map(4, ops, where_loop, &ctx, true);
    }
    nn_dtype dt = t[1]->dtype;
    if (op == NN_MATH_sign) {
        const nn_tensor *ops[2] = {t[0], t[1]};
        return nn_cpu_map(2, ops, sign_loop, &dt, false);
    }
    const nn_tensor *ops[3] = {t[0], t[1], t[2]};
    return nn_cpu_map(3, ops, argmax_mask_loop, &dt, false);
}

/* cumsum/cumprod of t[1] (contiguous [i[0], i[1], i[2]]) along its middle dim into
   t[0] (same dtype): in double for floating dtypes (rounded per step), in wrapping
   integers otherwise (bool and the small integers through a store in their dtype) */
static int scan(nn_math_op op, nn_kernel_args *a)
{
    nn_tensor *out = a->t[0];
    const nn_tensor *c = a->t[1];
    int64_t outer = a->i[0], len = a->i[1], inner = a->i[2];
    nn_dtype od = out->dtype;
    bool prod = op == NN_MATH_cumprod;
    const char *src = nn_data_ptr(c);
    char *dst = nn_data_ptr(out);
    size_t es = nn_dtype_size(od);
    for (int64_t o = 0; o < outer; o++)
        for (int64_t in = 0; in < inner; in++) {
            double acc = prod ? 1 : 0;
            int64_t iacc = prod ? 1 : 0;
            for (int64_t j = 0; j < len; j++) {
                int64_t at = (o * len + j) * inner + in;
                if (nn_dtype_is_floating(od)) {
                    double v = nn_load_double(src + at * (int64_t)es, od);
                    acc = prod ? acc * v : acc + v;
                    nn_store_double(dst + at * (int64_t)es, od, acc);
                } else {
                    int64_t v = od == NN_INT64 ? ((const int64_t *)src)[at]
                                               : od == NN_INT32 ? ((const int32_t *)src)[at]
                                                                : (int64_t)nn_load_double(src + at * (int64_t)es, od);
                    iacc = prod ? (int64_t)((uint64_t)iacc * (uint64_t)v) : (int64_t)((uint64_t)iacc + (uint64_t)v);
                    if (od == NN_INT64)
                        ((int64_t *)dst)[at] = iacc;
                    else if (od == NN_INT32)
                        ((int32_t *)dst)[at] = (int32_t)iacc;
                    else /* bool, or the small integers wrapping */
                        nn_store_double(dst + at * (int64_t)es, od, (double)iacc);
                }
            }
        }
    return 0;
}

int nn_cpu_math(nn_math_op op, nn_kernel_args *a)
{
    switch (op) {
    case NN_MATH_lerp: return lerp(a);
    case NN_MATH_addcmul: case NN_MATH_addcdiv: return addc(a, op == NN_MATH_addcdiv);
    case NN_MATH_nan_to_num: return nan_to_num(a);
    case NN_MATH_isfinite: return isfinite_mask(a);
    case NN_MATH_logsumexp: return logsumexp(a);
    case NN_MATH_selu: return selu(a);
    case NN_MATH_where: case NN_MATH_sign: case NN_MATH_abs_eq: return map_op(op, a);
    case NN_MATH_cumsum: case NN_MATH_cumprod: return scan(op, a);
    case NN_MATH_logcumsumexp: return nn_cpu_logcumsumexp(a);
    case NN_MATH_gcd: case NN_MATH_lcm: return nn_cpu_math_int(op, a);
    case NN_MATH_vmath_map: case NN_MATH_vmath_act: case NN_MATH_vmath_act_grad: case NN_MATH_vmath_pow:
        return nn_cpu_math_vmath(op, a);
    case NN_MATH_rrelu: return rrelu(a);
    case NN_MATH_special: return nn_cpu_special((nn_special_op)a->i[0], a);
    case NN_MATH_hardtanh: case NN_MATH_hardswish: case NN_MATH_hardsigmoid: case NN_MATH_mish:
    case NN_MATH_logsigmoid: case NN_MATH_hardshrink: case NN_MATH_softshrink: case NN_MATH_celu:
        return activation(op, a);
    default:
        if (op >= 0 && op <= NN_MATH_xlogy) return elementwise(op, a);
    }
    return nn_error_set(NN_ERR_RUNTIME, "math kernel: unknown op code %d", (int)op);
}
