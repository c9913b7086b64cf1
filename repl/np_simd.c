/*
 * np_simd.c — NumPy 1.24's float32 exp and log as its AVX2/FMA3 loops compute them (the
 * loops NumPy runs on this machine's CPUs for a float32 array), element by element in C.
 * exp: Cody-Waite range reduction by k = rint(x * log2(e)), a 5th/2nd order rational
 * approximation of exp on the reduced argument, then 2^k put into the exponent bits
 * (with NumPy's split for results below 2^-125). log: x = m * 2^k with the mantissa m in
 * [sqrt(1/2), sqrt(2)) (denormals scaled by 2^100 first), a 5th/5th order rational
 * approximation of log(1 + (m - 1)), plus k * ln(2). Each of NumPy's fused multiply-adds is
 * C's fmaf, which rounds once as the instruction does; every other step is one float
 * operation (the build's -ffp-contract=off keeps the compiler from fusing them). Checked
 * bit for bit against NumPy 1.24 over 3 million inputs (tests/scripts/numpy_float32_exp.py
 * hashes a million); torch's and glibc's expf differ in the last digit for some inputs.
 * The module numpy's _simd_f32(t, 'exp') (repl/mod_numpy.c) runs it.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "bind_int.h"
#include "eval_int.h"

#define ARGS(n) nn_object *a[n] = {0}

/* NumPy's constants (npy_simd_data.h, npy_math.h) */
static const float exp_xmax = 88.72283935546875f, exp_xmin = -103.97208404541015625f;
static const float codyw_c1 = -6.93145752e-1f, codyw_c2 = -1.42860677e-6f;
static const float exp_p[6] = {9.999999999980870924916e-01f, 7.257664613233124478488e-01f,
                               2.473615434895520810817e-01f, 5.114512081637298353406e-02f,
                               6.757896990527504603057e-03f, 5.082762527590693718096e-04f};
static const float exp_q[3] = {1.000000000000000000000e+00f, -2.742335390411667452936e-01f,
                               2.159509375685829852307e-02f};
static const float log2e_f = 1.442695040888963407359924681001892137f;
static const float log_p[6] = {0.0f, 9.999999999999998702752e-01f, 2.112677543073053063722e+00f,
                               1.480000633576506585156e+00f, 3.808837741388407920751e-01f,
                               2.589979117907922693523e-02f};
static const float log_q[6] = {1.0f, 2.612677543073109236779e+00f, 2.453006071784736363091e+00f,
                               9.864942958519418960339e-01f, 1.546476374983906719538e-01f,
                               5.875095403124574342950e-03f};
static const float loge2_f = 0.693147180559945309417232121458176568f, sqrt1_2_f = 0.707106781186547524400844362104849039f;
static const float rint_magic = 0x1.800000p+23f;

/* poly * 2^k by adding k to the exponent bits; below 2^-125 in two steps, as NumPy's
   fma_scalef_ps: the exponent of 2^-125 first, then a division by 2^(-125 - k) */
static float scale_by(float poly, float k)
{
    uint32_t bits;
    float denominator = 1.0f;
    if (k <= -125.0f) {
        denominator = (float)(1u << (int)(-(k - -125.0f)));
        k = -125.0f;
    }
    memcpy(&bits, &poly, sizeof bits);
    bits += (uint32_t)((int32_t)k * (1 << 23));
    memcpy(&poly, &bits, sizeof poly);
    return denominator == 1.0f ? poly : poly / denominator;
}

static float np_expf(float x)
{
    if (isnan(x)) return NAN;
    if (x >= exp_xmax) return INFINITY;
    if (x <= exp_xmin) return 0.0f;
    /* k = rint(x * log2(e)) through the magic number; NumPy's compiler fuses the multiply
       and the add of its intrinsics into one FMA, so one rounding here too */
    float k = fmaf(x, log2e_f, rint_magic) - rint_magic;
    float r = fmaf(k, codyw_c1, x);
    r = fmaf(k, codyw_c2, r);
    r = fmaf(k, 0.0f, r);
    float num = fmaf(exp_p[5], r, exp_p[4]);
    num = fmaf(num, r, exp_p[3]);
    num = fmaf(num, r, exp_p[2]);
    num = fmaf(num, r, exp_p[1]);
    num = fmaf(num, r, exp_p[0]);
    float den = fmaf(exp_q[2], r, exp_q[1]);
    den = fmaf(den, r, exp_q[0]);
    return scale_by(num / den, k);
}

static float np_logf(float x)
{
    if (isnan(x)) return NAN;
    if (x < 0.0f) return -NAN;
    if (x == 0.0f) return -INFINITY;
    if (isinf(x)) return INFINITY;
    bool denormal = x < FLT_MIN;
    float y = denormal ? x * 0x1p100f : x, e, m;
    uint32_t bits;
    memcpy(&bits, &y, sizeof bits);
    e = (float)((int32_t)(bits >> 23) - 0x7e);
    if (denormal) e = e - 100.0f;
    bits = (bits & 0x7fffffu) | (126u << 23);
    memcpy(&m, &bits, sizeof m);
    if (m <= sqrt1_2_f) {
        m = m + m;
        e = e - 1.0f;
    }
    m = m - 1.0f;
    float num = fmaf(log_p[5], m, log_p[4]);
    for (int i = 3; i >= 0; i--) num = fmaf(num, m, log_p[i]);
    float den = fmaf(log_q[5], m, log_q[4]);
    for (int i = 3; i >= 0; i--) den = fmaf(den, m, log_q[i]);
    return fmaf(e, loge2_f, num / den);
}

/* _simd_f32(t, name) -> tensor: NumPy's float32 SIMD function `name` ('exp' or 'log') on
   each element of a float32 tensor */
nn_object *repl_np_simd_f32(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *t;
    const char *name;
    if (repl_parse_args("_simd_f32", "t, name", args, kwargs, a) || repl_arg_tensor("_simd_f32", "t", 1, a[0], &t) ||
        repl_arg_str("_simd_f32", "name", 2, a[1], &name))
        return NULL;
    float (*fn)(float) = !strcmp(name, "exp") ? np_expf : !strcmp(name, "log") ? np_logf : NULL;
    if (!fn || t->dtype != NN_FLOAT32) {
        repl_raise_exc(EXC_ValueError, "_simd_f32() expects a float32 tensor and 'exp' or 'log'");
        return NULL;
    }
    nn_tensor *hold = NULL;
    const float *d = nn_host_read(t, &hold);
    if (!d) return NULL;
    nn_tensor *r = nn_empty_on(NN_DEVICE_CPU, t->ndim, t->sizes, NN_FLOAT32); /* numpy's arrays: host memory */
    if (r) {
        float *o = nn_host_borrow(r);
        for (int64_t i = 0, n = nn_numel(t); i < n; i++) o[i] = fn(d[i]);
    }
    NN_RELEASE(hold);
    return (nn_object *)r;
}
