/*
 * cpu/binary.c — the CPU's elementwise binary kernel (kernels.def `binary`):
 * one loop per (op, compute dtype), with fast paths for contiguous operands and
 * a scalar on either side so the compiler vectorizes them, a strided path
 * otherwise; split over the thread pool by nn_foreach_parallel.
 */
#include <math.h>

#include "nn_cpu.h"

typedef struct bin_ctx {
    double alpha;
} bin_ctx;

/* built for AVX2 too (8 floats a vector, no FMA: every op rounds as written), picked
   at load time; the same IEEE operations either way, so the same bits */
#if defined(__x86_64__) && defined(__GNUC__)
#define WIDE __attribute__((target_clones("avx2", "default")))
#else
#define WIDE
#endif

/* One loop per (op, type): fast paths for contiguous operands and a scalar
   on either side, so the compiler vectorizes them; a strided path otherwise. */
#define DEFINE_LOOP(NAME, T, OUT_T, EXPR)                                                        \
    WIDE static void NAME(char **d, const int64_t *s, int64_t n, void *vctx)                     \
    {                                                                                            \
        const bin_ctx *ctx = vctx;                                                               \
        (void)ctx;                                                                               \
        OUT_T *o = (OUT_T *)d[0];                                                                \
        const T *x = (const T *)d[1], *y = (const T *)d[2];                                      \
        const int64_t so = (int64_t)sizeof(OUT_T), st = (int64_t)sizeof(T);                      \
        if (s[0] == so && s[1] == st && s[2] == st) {                                            \
            for (int64_t i = 0; i < n; i++) { T a = x[i], b = y[i]; o[i] = (OUT_T)(EXPR); }      \
        } else if (s[0] == so && s[1] == st && s[2] == 0) {                                      \
            T b = y[0];                                                                          \
            for (int64_t i = 0; i < n; i++) { T a = x[i]; o[i] = (OUT_T)(EXPR); }                \
        } else if (s[0] == so && s[1] == 0 && s[2] == st) {                                      \
            T a = x[0];                                                                          \
            for (int64_t i = 0; i < n; i++) { T b = y[i]; o[i] = (OUT_T)(EXPR); }                \
        } else {                                                                                 \
            for (int64_t i = 0; i < n; i++) {                                                    \
                T a = *(const T *)(d[1] + i * s[1]), b = *(const T *)(d[2] + i * s[2]);          \
                *(OUT_T *)(d[0] + i * s[0]) = (OUT_T)(EXPR);                                     \
            }                                                                                    \
        }                                                                                        \
    }

static int64_t ipow(int64_t base, int64_t exp)
{
    uint64_t result = 1, b = (uint64_t)base; /* wraps as PyTorch's, without C's signed overflow */
    while (exp > 0) {
        if (exp & 1) result *= b;
        b *= b;
        exp >>= 1;
    }
    return (int64_t)result;
}

/* Floor division and Python-signed remainder, as PyTorch's kernels compute them:
   floats through fmod (so that a // b * b + a % b == a as closely as rounding
   allows); ints exactly (a zero divisor is refused before the loop runs). */
#define DEFINE_FLOOR_FLOAT(T, FMOD, FLOOR, COPYSIGN)                                \
    static T floordiv_##T(T a, T b)                                                 \
    {                                                                               \
        if (b == 0) return a / b;                                                   \
        T mod = FMOD(a, b), div = (a - mod) / b;                                    \
        if (mod != 0 && (b < 0) != (mod < 0)) div -= 1;                             \
        if (div == 0) return COPYSIGN((T)0, a / b);                                 \
        T floored = FLOOR(div);                                                     \
        return div - floored > (T)0.5 ? floored + 1 : floored;                      \
    }                                                                               \
    static T mod_##T(T a, T b)                                                      \
    {                                                                               \
        T mod = FMOD(a, b);                                                         \
        return mod != 0 && (b < 0) != (mod < 0) ? mod + b : mod;                    \
    }
DEFINE_FLOOR_FLOAT(float, fmodf, floorf, copysignf)
DEFINE_FLOOR_FLOAT(double, fmod, floor, copysign)
/* torch.fmod: C's remainder, the dividend's sign; ints truncate (b == -1: 0, no trap) */
static float fmod_float(float a, float b) { return fmodf(a, b); }
static double fmod_double(double a, double b) { return fmod(a, b); }
static int64_t fmod_int64_t(int64_t a, int64_t b) { return b == -1 ? 0 : a % b; }
static int64_t floordiv_int64_t(int64_t a, int64_t b)
{
    if (b == -1) return (int64_t)(0 - (uint64_t)a); /* INT64_MIN // -1 wraps, as PyTorch's */
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}
static int64_t mod_int64_t(int64_t a, int64_t b)
{
    if (b == -1) return 0;
    int64_t r = a % b;
    return r != 0 && (r < 0) != (b < 0) ? r + b : r;
}

/* Python's floor-free integer division is never used: int / int promotes to float. */
/* NaN propagates; on equal values (-0.0 vs 0.0) the first operand wins, as std::max/min */
#define MAXF(a, b) ((a) != (a) ? (a) : (b) != (b) ? (b) : (a) < (b) ? (b) : (a))
#define MINF(a, b) ((a) != (a) ? (a) : (b) != (b) ? (b) : (b) < (a) ? (b) : (a))

/* int64 +, -, * wrap as PyTorch's do, computed unsigned (no signed overflow in C) */
#define WRAP(a, op, b) _Generic((a), int64_t: (int64_t)((uint64_t)(a) op (uint64_t)(b)), default: (a) op (b))
/* add(x, alpha=a): fma(x, a, self) for floats, as PyTorch's vectorized kernel (vec::fmadd)
   computes it, and its scalar tail too (built with contraction on FMA machines) */
#define ADD_ALPHA(a, b, alpha)                                                           \
    _Generic((a), float: fmaf((b), (float)(alpha), (a)), double: fma((b), (alpha), (a)), \
             default: WRAP(a, +, (__typeof__(a))(alpha) * (b)))
#define DEFINE_ARITH(SUFFIX, T, POW)                                                \
    DEFINE_LOOP(add_##SUFFIX, T, T, WRAP(a, +, b))                                  \
    DEFINE_LOOP(add_alpha_##SUFFIX, T, T, ADD_ALPHA(a, b, ctx->alpha))              \
    DEFINE_LOOP(sub_##SUFFIX, T, T, WRAP(a, -, b))                                  \
    DEFINE_LOOP(mul_##SUFFIX, T, T, WRAP(a, *, b))                                  \
    DEFINE_LOOP(div_##SUFFIX, T, T, a / b)                                          \
    DEFINE_LOOP(pow_##SUFFIX, T, T, POW(a, b))                                      \
    DEFINE_LOOP(max_##SUFFIX, T, T, MAXF(a, b))                                     \
    DEFINE_LOOP(min_##SUFFIX, T, T, MINF(a, b))                                     \
    DEFINE_LOOP(floordiv_##SUFFIX, T, T, floordiv_##T(a, b))                        \
    DEFINE_LOOP(mod_##SUFFIX, T, T, mod_##T(a, b))                                  \
    DEFINE_LOOP(fmod_##SUFFIX, T, T, fmod_##T(a, b))                                \
    DEFINE_LOOP(and_##SUFFIX, T, T, (T)((int64_t)a & (int64_t)b))                   \
    DEFINE_LOOP(or_##SUFFIX, T, T, (T)((int64_t)a | (int64_t)b))                    \
    DEFINE_LOOP(xor_##SUFFIX, T, T, (T)((int64_t)a ^ (int64_t)b))                   \
    DEFINE_LOOP(eq_##SUFFIX, T, uint8_t, a == b)                                    \
    DEFINE_LOOP(ne_##SUFFIX, T, uint8_t, a != b)                                    \
    DEFINE_LOOP(lt_##SUFFIX, T, uint8_t, a < b)                                     \
    DEFINE_LOOP(le_##SUFFIX, T, uint8_t, a <= b)                                    \
    DEFINE_LOOP(gt_##SUFFIX, T, uint8_t, a > b)                                     \
    DEFINE_LOOP(ge_##SUFFIX, T, uint8_t, a >= b)                                    \
    static const nn_loop_fn loops_##SUFFIX[] = {                                    \
        [NN_BINOP_ADD] = add_##SUFFIX, [NN_BINOP_SUB] = sub_##SUFFIX, [NN_BINOP_MUL] = mul_##SUFFIX, \
        [NN_BINOP_DIV] = div_##SUFFIX, [NN_BINOP_POW] = pow_##SUFFIX, [NN_BINOP_MAX] = max_##SUFFIX, \
        [NN_BINOP_MIN] = min_##SUFFIX, [NN_BINOP_FLOORDIV] = floordiv_##SUFFIX,                 \
        [NN_BINOP_MOD] = mod_##SUFFIX, [NN_BINOP_AND] = and_##SUFFIX, [NN_BINOP_OR] = or_##SUFFIX,   \
        [NN_BINOP_XOR] = xor_##SUFFIX, [NN_BINOP_EQ] = eq_##SUFFIX,   [NN_BINOP_NE] = ne_##SUFFIX,   \
        [NN_BINOP_LT] = lt_##SUFFIX,   [NN_BINOP_LE] = le_##SUFFIX,   [NN_BINOP_GT] = gt_##SUFFIX,   \
        [NN_BINOP_GE] = ge_##SUFFIX,   [NN_BINOP_FMOD] = fmod_##SUFFIX,                  \
    };

#define MAXI(a, b) ((a) < (b) ? (b) : (a))
#define MINI(a, b) ((b) < (a) ? (b) : (a))
DEFINE_ARITH(f32, float, powf)
DEFINE_ARITH(f64, double, pow)
#undef MAXF
#undef MINF
#define MAXF MAXI
#define MINF MINI
DEFINE_ARITH(i64, int64_t, ipow)

static nn_loop_fn pick_loop(nn_binop op, nn_dtype cd, double alpha)
{
    if (op == NN_BINOP_ADD && alpha != 1.0)
        return cd == NN_FLOAT32 ? add_alpha_f32 : cd == NN_FLOAT64 ? add_alpha_f64 : add_alpha_i64;
    return cd == NN_FLOAT32 ? loops_f32[op] : cd == NN_FLOAT64 ? loops_f64[op] : loops_i64[op];
}

int nn_cpu_binary(nn_binop op, nn_tensor *out, const nn_tensor *a, const nn_tensor *b, double alpha)
{
    bin_ctx ctx = {alpha};
    const nn_tensor *ops[3] = {out, a, b};
    nn_foreach_parallel(3, ops, pick_loop(op, a->dtype, alpha), &ctx);
    return 0;
}
