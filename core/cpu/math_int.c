/*
 * cpu/math_int.c — the math kernel's integer codes and logcumsumexp's scan
 * (core/backend.h's NN_MATH_gcd, NN_MATH_lcm, NN_MATH_logcumsumexp), as ATen
 * 1.13's CPU kernels compute them: gcd by Euclid on absolute values, lcm as
 * |a / gcd * b| in the result dtype's arithmetic, logcumsumexp in the
 * accumulate type (double for float32/float64, float for bfloat16).
 */
#include <math.h>
#include <stdint.h>

#include "nn_cpu.h"

static int64_t gcd64(int64_t a, int64_t b)
{
    uint64_t x = a < 0 ? -(uint64_t)a : (uint64_t)a, y = b < 0 ? -(uint64_t)b : (uint64_t)b;
    while (x != 0) {
        uint64_t c = x;
        x = y % x;
        y = c;
    }
    return (int64_t)y;
}

/* v truncated to the result dtype's width (bits, signed), two's complement */
static int64_t wrap(uint64_t v, int bits, bool is_signed)
{
    if (bits >= 64) return (int64_t)v;
    uint64_t m = (1ull << bits) - 1, u = v & m;
    if (is_signed && (u >> (bits - 1))) return (int64_t)(u | ~m);
    return (int64_t)u;
}

typedef struct int_ctx {
    bool lcm;
    int bits;
    bool is_signed;
} int_ctx;

/* C++'s arithmetic: below 32 bits the operands promote to int (no wrap before the
   store); int32 and int64 wrap in their own width, abs included */
static int64_t lcm_of(int64_t a, int64_t b, const int_ctx *c)
{
    int64_t g = gcd64(a, b);
    if (g == 0) return 0;
    uint64_t p = (uint64_t)(a / g) * (uint64_t)b;
    if (c->bits < 32) {
        int64_t v = (int64_t)p;
        return wrap(v < 0 ? -(uint64_t)v : (uint64_t)v, c->bits, c->is_signed);
    }
    int64_t v = wrap(p, c->bits, true);
    return wrap(v < 0 ? -(uint64_t)v : (uint64_t)v, c->bits, true);
}

static void int_loop(char **d, const int64_t *s, int64_t n, void *ctx)
{
    const int_ctx *c = ctx;
    for (int64_t i = 0; i < n; i++) {
        int64_t a = *(const int64_t *)(d[1] + i * s[1]), b = *(const int64_t *)(d[2] + i * s[2]);
        *(int64_t *)(d[0] + i * s[0]) = c->lcm ? lcm_of(a, b, c) : wrap((uint64_t)gcd64(a, b), c->bits, c->is_signed);
    }
}

int nn_cpu_math_int(nn_math_op op, nn_kernel_args *a)
{
    int_ctx c = {op == NN_MATH_lcm, (int)a->i[0], a->i[1] != 0};
    const nn_tensor *ops[3] = {a->t[0], a->t[1], a->t[2]};
    return nn_cpu_map(3, ops, int_loop, &c, true);
}

/* ATen's _log_add_exp_helper in the accumulate type T */
#define LOG_ADD_EXP(T, LOG1P, EXP)                                                                     \
    static T log_add_exp_##T(T x, T y)                                                                 \
    {                                                                                                  \
        T lo = isnan(y) ? y : (y < x ? y : x), hi = isnan(y) ? y : (x < y ? y : x);                   \
        if (lo != hi || isfinite(lo)) return LOG1P(EXP(lo - hi)) + hi;                                 \
        return x;                                                                                      \
    }
LOG_ADD_EXP(double, log1p, exp)
LOG_ADD_EXP(float, log1pf, expf)

int nn_cpu_logcumsumexp(nn_kernel_args *a)
{
    nn_tensor *out = a->t[0];
    const nn_tensor *c = a->t[1];
    int64_t outer = a->i[0], len = a->i[1], inner = a->i[2];
    nn_dtype dt = out->dtype;
    size_t es = nn_dtype_size(dt);
    const char *src = nn_data_ptr(c);
    char *dst = nn_data_ptr(out);
    for (int64_t o = 0; o < outer; o++)
        for (int64_t in = 0; in < inner; in++) {
            double dacc = -INFINITY;
            float facc = -INFINITY;
            for (int64_t j = 0; j < len; j++) {
                int64_t at = ((o * len + j) * inner + in) * (int64_t)es;
                double v = nn_load_double(src + at, dt);
                if (dt == NN_BFLOAT16 || dt == NN_FLOAT16) {
                    facc = log_add_exp_float((float)v, facc);
                    nn_store_double(dst + at, dt, facc);
                } else {
                    dacc = log_add_exp_double(v, dacc);
                    nn_store_double(dst + at, dt, dacc);
                }
            }
        }
    return 0;
}
