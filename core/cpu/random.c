/*
 * cpu/random.c — the CPU's sampling kernel (kernels.def `random`): uniform,
 * normal, bernoulli, integer ranges and permutations drawn from a generator
 * (core/random.c's mt19937, the host state every device's kernel is given)
 * and rounded as PyTorch's CPU kernels do (its AVX2 build's float32 normal
 * path and FMAs too). core/random.c checks the arguments and bounds.
 */
#include <math.h>
#include <string.h>

#include "nn_cpu.h"

#define PI 3.14159265358979323846 /* c10::pi<double> */

/* at::uniform_real_distribution<T>(0, 1) for float and double (core/random.c) */
static float uniform_float(nn_generator *g) { return nn_generator_uniform_float(g); }
static double uniform_double(nn_generator *g) { return nn_generator_uniform(g); }

/* For half (11 digits) and bfloat16 (8 digits), computed in float. */
static float uniform_narrow(nn_generator *g, int digits)
{
    uint32_t mask = (1u << digits) - 1;
    return (float)(nn_generator_random(g) & mask) * (1.0f / (float)(1u << digits));
}

/* at::normal_distribution<double>: Box-Muller on two doubles, the sine half
   cached in the generator for the next call. */
static double normal_double(nn_generator *g, double mean, double std)
{
    double ret;
    if (g->has_next_double_normal) {
        g->has_next_double_normal = false;
        ret = g->next_double_normal;
    } else {
        double u1 = uniform_double(g), u2 = uniform_double(g);
        double r = sqrt(-2.0 * log(1.0 - u2)), theta = 2.0 * PI * u1;
        g->next_double_normal = r * sin(theta);
        g->has_next_double_normal = true;
        ret = r * cos(theta);
    }
    return fma(ret, std, mean);
}

double nn_cpu_normal_double(nn_generator *g, double mean, double std) { return normal_double(g, mean, std); }

/* ----------------------------------------- float32 normals: the AVX2 kernel */

/* Scalar transcriptions of log256_ps and sincos256_ps (avx_mathfun.h, Cephes
   polynomials) with the multiply-adds GCC fused in PyTorch's AVX2 build. */

static float bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Always inlined, so the FMA build of normal_fill_16_f32 below gets single
   instructions for fmaf (the results are the same either way). */
#define INLINE_KERNEL static inline __attribute__((always_inline))

INLINE_KERNEL float cephes_logf(float x)
{
    bool invalid = x <= 0.0f;
    float min_norm = bits_float(0x00800000u);
    x = x > min_norm ? x : min_norm;
    uint32_t u = float_bits(x);
    int32_t exponent = (int32_t)(u >> 23);
    x = bits_float((u & ~0x7f800000u) | float_bits(0.5f));
    float e = (float)(exponent - 0x7f) + 1.0f;
    bool below = x < 0.707106781186547524f;
    float tmp = below ? x : 0.0f;
    x = x - 1.0f;
    e = e - (below ? 1.0f : 0.0f);
    x = x + tmp;
    float z = x * x;
    float y = 7.0376836292E-2f;
    y = fmaf(y, x, -1.1514610310E-1f);
    y = fmaf(y, x, 1.1676998740E-1f);
    y = fmaf(y, x, -1.2420140846E-1f);
    y = fmaf(y, x, 1.4249322787E-1f);
    y = fmaf(y, x, -1.6668057665E-1f);
    y = fmaf(y, x, 2.0000714765E-1f);
    y = fmaf(y, x, -2.4999993993E-1f);
    y = fmaf(y, x, 3.3333331174E-1f);
    y = y * x;
    y = fmaf(y, z, e * -2.12194440e-4f);
    y = fmaf(-z, 0.5f, y);
    x = x + y;
    x = fmaf(e, 0.693359375f, x);
    return invalid ? NAN : x;
}

INLINE_KERNEL void cephes_sincosf(float xin, float *s, float *c)
{
    float x = fabsf(xin);
    uint32_t sign_sin = float_bits(xin) & 0x80000000u;
    float y = x * 1.27323954473516f; /* 4 / pi */
    int32_t j = (int32_t)y;
    j = (j + 1) & ~1;
    y = (float)j;
    uint32_t swap_sin = ((uint32_t)j & 4u) << 29;
    bool poly_sin = (j & 2) == 0;
    x = fmaf(y, -0.78515625f, x);
    x = fmaf(y, -2.4187564849853515625e-4f, x);
    x = fmaf(y, -3.77489497744594108e-8f, x);
    uint32_t sign_cos = (~(uint32_t)(j - 2) & 4u) << 29;
    sign_sin ^= swap_sin;
    float z = x * x;
    float yc = 2.443315711809948E-005f;
    yc = fmaf(yc, z, -1.388731625493765E-003f);
    yc = fmaf(yc, z, 4.166664568298827E-002f);
    yc = yc * z;
    yc = fmaf(yc, z, -(z * 0.5f));
    yc = yc + 1.0f;
    float ys = -1.9515295891E-4f;
    ys = fmaf(ys, z, 8.3321608736E-3f);
    ys = fmaf(ys, z, -1.6666654611E-1f);
    ys = ys * z;
    ys = fmaf(ys, x, x);
    float sin1 = poly_sin ? 0.0f : yc, sin2 = poly_sin ? ys : 0.0f;
    ys = ys - sin2;
    yc = yc - sin1;
    *s = bits_float(float_bits(sin1 + sin2) ^ sign_sin);
    *c = bits_float(float_bits(yc + ys) ^ sign_cos);
}

/* normal_fill_16_AVX2: Box-Muller over 16 uniforms, 8 pairs (j, j + 8). */
INLINE_KERNEL void normal_fill_16_f32_body(float *d, float mean, float std)
{
    for (int j = 0; j < 8; j++) {
        float u1 = 1.0f - d[j], u2 = d[j + 8];
        float radius = sqrtf(-2.0f * cephes_logf(u1));
        float theta = (float)(2.0 * PI) * u2;
        float s, c;
        cephes_sincosf(theta, &s, &c);
        d[j] = fmaf(radius * c, std, mean);
        d[j + 8] = fmaf(radius * s, std, mean);
    }
}

static void normal_fill_16_f32_plain(float *d, float mean, float std) { normal_fill_16_f32_body(d, mean, std); }

#if defined(__GNUC__) && defined(__x86_64__)
__attribute__((target("fma"))) static void normal_fill_16_f32_fma(float *d, float mean, float std)
{
    normal_fill_16_f32_body(d, mean, std);
}
#endif

static void normal_fill_16_f32(float *d, float mean, float std)
{
#if defined(__GNUC__) && defined(__x86_64__)
    static int has_fma = -1;
    if (has_fma < 0) has_fma = __builtin_cpu_supports("fma") != 0;
    if (has_fma) {
        normal_fill_16_f32_fma(d, mean, std);
        return;
    }
#endif
    normal_fill_16_f32_plain(d, mean, std);
}

/* normal_fill: uniforms for all n, transformed 16 at a time; when n is no multiple
   of 16, the last 16 are drawn and transformed again (n >= 16) */
#define DEFINE_NORMAL_FILL(SUFFIX, T, UNIFORM)                                                                   \
    static void normal_fill_##SUFFIX(T *d, int64_t n, T mean, T std, nn_generator *g)                            \
    {                                                                                                            \
        for (int64_t i = 0; i < n; i++) d[i] = UNIFORM(g);                                                       \
        for (int64_t i = 0; i + 16 <= n; i += 16) normal_fill_16_##SUFFIX(d + i, mean, std);                     \
        if (n % 16 != 0) {                                                                                       \
            T *tail = d + n - 16;                                                                                \
            for (int i = 0; i < 16; i++) tail[i] = UNIFORM(g);                                                   \
            normal_fill_16_##SUFFIX(tail, mean, std);                                                            \
        }                                                                                                        \
    }

DEFINE_NORMAL_FILL(f32, float, uniform_float)

/* normal_fill<double> */
static void normal_fill_16_f64(double *d, double mean, double std)
{
    for (int j = 0; j < 8; j++) {
        double u1 = 1 - d[j], u2 = d[j + 8];
        double radius = sqrt(-2 * log(u1)), theta = 2.0 * PI * u2;
        d[j] = fma(radius * cos(theta), std, mean);
        d[j + 8] = fma(radius * sin(theta), std, mean);
    }
}

DEFINE_NORMAL_FILL(f64, double, uniform_double)

/* normal_fill<Half> and <BFloat16>: c10's 16-bit arithmetic. Half mixes
   with float (std::log(Half) is logf) and rounds at each named variable;
   BFloat16 has its own std::log, std::cos, ... and operators, so every
   operation rounds to bfloat16. */
static float narrow_round(float v, nn_dtype dt)
{
    return dt == NN_FLOAT16 ? nn_half_to_float(nn_float_to_half(v)) : nn_bfloat16_to_float(nn_float_to_bfloat16(v));
}

static uint16_t narrow_bits(float v, nn_dtype dt)
{
    return dt == NN_FLOAT16 ? nn_float_to_half(v) : nn_float_to_bfloat16(v);
}

static float narrow_value(uint16_t b, nn_dtype dt)
{
    return dt == NN_FLOAT16 ? nn_half_to_float(b) : nn_bfloat16_to_float(b);
}

static void normal_fill_16_narrow(uint16_t *d, nn_dtype dt, float mean, float std)
{
    if (dt == NN_BFLOAT16) {
#define BF(x) narrow_round((x), NN_BFLOAT16)
        for (int j = 0; j < 8; j++) {
            float u1 = BF(1.0f - nn_bfloat16_to_float(d[j])), u2 = nn_bfloat16_to_float(d[j + 8]);
            float radius = BF(sqrtf(BF(-2.0f * BF(logf(u1)))));
            float theta = BF((float)(2.0 * PI * (double)u2));
            d[j] = nn_float_to_bfloat16(BF(BF(radius * BF(cosf(theta))) * std) + mean);
            d[j + 8] = nn_float_to_bfloat16(BF(BF(radius * BF(sinf(theta))) * std) + mean);
        }
#undef BF
        return;
    }
    for (int j = 0; j < 8; j++) {
        float u1 = narrow_round(1.0f - narrow_value(d[j], dt), dt), u2 = narrow_value(d[j + 8], dt);
        float radius = narrow_round(sqrtf(-2.0f * logf(u1)), dt);
        float theta = narrow_round((float)(2.0 * PI * (double)u2), dt);
        d[j] = narrow_bits(fmaf(radius * cosf(theta), std, mean), dt);
        d[j + 8] = narrow_bits(fmaf(radius * sinf(theta), std, mean), dt);
    }
}

static void normal_fill_narrow(uint16_t *d, nn_dtype dt, int64_t n, double mean, double std, nn_generator *g)
{
    int digits = dt == NN_FLOAT16 ? 11 : 8;
    float m = narrow_round((float)mean, dt), s = narrow_round((float)std, dt);
    for (int64_t i = 0; i < n; i++) d[i] = narrow_bits(uniform_narrow(g, digits), dt);
    for (int64_t i = 0; i + 16 <= n; i += 16) normal_fill_16_narrow(d + i, dt, m, s);
    if (n % 16 != 0) {
        uint16_t *tail = d + n - 16;
        for (int i = 0; i < 16; i++) tail[i] = narrow_bits(uniform_narrow(g, digits), dt);
        normal_fill_16_narrow(tail, dt, m, s);
    }
}

/* ------------------------------------------------------- element walking */

/* PyTorch's CPU sampling kernels visit an output's elements in memory order
   (TensorIterator sorts dims by stride), not in index order. */
typedef void (*element_fn)(char *p, void *ctx);

static void for_each_in_memory_order(nn_tensor *t, element_fn fn, void *ctx)
{
    int nd = 0;
    int64_t sizes[NN_MAX_DIMS], strides[NN_MAX_DIMS], counter[NN_MAX_DIMS] = {0};
    int64_t es = (int64_t)nn_dtype_size(t->dtype);
    for (int d = 0; d < t->ndim; d++) {
        if (t->sizes[d] == 0) return;
        if (t->sizes[d] == 1) continue;
        /* insertion by stride, outermost (largest) first, stable */
        int k = nd++;
        while (k > 0 && strides[k - 1] < t->strides[d]) {
            sizes[k] = sizes[k - 1];
            strides[k] = strides[k - 1];
            k--;
        }
        sizes[k] = t->sizes[d];
        strides[k] = t->strides[d];
    }
    char *p = nn_data_ptr(t);
    if (nd == 0) {
        fn(p, ctx);
        return;
    }
    int64_t inner = sizes[nd - 1], step = strides[nd - 1] * es;
    for (;;) {
        for (int64_t i = 0; i < inner; i++) fn(p + i * step, ctx);
        int d = nd - 2;
        for (; d >= 0; d--) {
            p += strides[d] * es;
            if (++counter[d] < sizes[d]) break;
            p -= strides[d] * es * sizes[d];
            counter[d] = 0;
        }
        if (d < 0) return;
    }
}
#undef INLINE_KERNEL

/* ------------------------------------------------------- element functions */

typedef struct uniform_ctx {
    nn_generator *g;
    nn_dtype dtype;
    double from, to;       /* float64 */
    float from_f, range_f; /* the other dtypes: from and to - from as T, in float */
} uniform_ctx;

static void uniform_element(char *p, void *vctx)
{
    uniform_ctx *c = vctx;
    switch (c->dtype) {
    case NN_FLOAT64: *(double *)p = fma(uniform_double(c->g), c->to - c->from, c->from); break;
    case NN_FLOAT32: *(float *)p = fmaf(uniform_float(c->g), c->range_f, c->from_f); break;
    default: {
        float v = fmaf(uniform_narrow(c->g, c->dtype == NN_FLOAT16 ? 11 : 8), c->range_f, c->from_f);
        *(uint16_t *)p = narrow_bits(v, c->dtype);
    }
    }
}
typedef struct normal_ctx {
    nn_generator *g;
    nn_dtype dtype;
    double mean, std;
} normal_ctx;

static void normal_element(char *p, void *vctx)
{
    normal_ctx *c = vctx;
    nn_store_double(p, c->dtype, normal_double(c->g, c->mean, c->std));
}

typedef struct bernoulli_ctx {
    nn_generator *g;
    nn_dtype dtype;
    double p;
} bernoulli_ctx;

static void bernoulli_element(char *p, void *vctx)
{
    bernoulli_ctx *c = vctx;
    nn_store_double(p, c->dtype, uniform_double(c->g) < c->p ? 1.0 : 0.0);
}

/* static_cast<T>(v) for every dtype. */
static void store_int(char *p, nn_dtype dt, int64_t v)
{
    switch (dt) {
    case NN_INT64: *(int64_t *)p = v; break;
    case NN_INT32: *(int32_t *)p = (int32_t)(uint32_t)(uint64_t)v; break;
    case NN_BOOL: *(uint8_t *)p = v != 0; break;
    case NN_UINT8: case NN_INT8: *(uint8_t *)p = (uint8_t)(uint64_t)v; break;
    case NN_INT16: *(uint16_t *)p = (uint16_t)(uint64_t)v; break;
    case NN_FLOAT64: *(double *)p = (double)v; break;
    case NN_FLOAT32: *(float *)p = (float)v; break;
    default: *(uint16_t *)p = narrow_bits((float)v, dt); break;
    }
}

typedef struct randint_ctx {
    nn_generator *g;
    nn_dtype dtype;
    uint64_t range;
    int64_t base;
    bool wide; /* 64-bit draws */
} randint_ctx;

static void randint_element(char *p, void *vctx)
{
    randint_ctx *c = vctx;
    uint64_t v = c->wide ? nn_generator_random64(c->g) : nn_generator_random(c->g);
    store_int(p, c->dtype, (int64_t)(v % c->range + (uint64_t)c->base));
}
/* randperm_cpu in 1.13 for every n: the identity, then for i < n - 1 swap
   element i with element i + random() % (n - i). */
static void shuffle(int64_t *r, int64_t n, nn_generator *g)
{
    for (int64_t i = 0; i < n; i++) r[i] = i;
    for (int64_t i = 0; i < n - 1; i++) {
        int64_t z = (int64_t)(nn_generator_random(g) % (uint64_t)(n - i));
        int64_t save = r[i];
        r[i] = r[z + i];
        r[z + i] = save;
    }
}

/* ------------------------------------------------------------------ kernel */

static int draw_uniform(nn_tensor *t, double from, double to, nn_generator *g)
{
    nn_dtype dt = t->dtype;
    uniform_ctx c = {.g = g, .dtype = dt, .from = from, .to = to};
    if (dt == NN_FLOAT32) {
        c.from_f = (float)from;
        c.range_f = (float)to - (float)from;
    } else if (dt != NN_FLOAT64) {
        /* T from, to; (to - from) is rounded to T as c10's 16-bit arithmetic does */
        c.from_f = narrow_round((float)from, dt);
        c.range_f = narrow_round(narrow_round((float)to, dt) - c.from_f, dt);
    }
    int64_t n = nn_numel(t);
    if (dt == NN_FLOAT32 && nn_is_contiguous(t)) {
        float *d = nn_data_ptr(t);
        for (int64_t i = 0; i < n; i++) d[i] = fmaf(uniform_float(c.g), c.range_f, c.from_f);
    } else if (dt == NN_FLOAT64 && nn_is_contiguous(t)) {
        double *d = nn_data_ptr(t);
        for (int64_t i = 0; i < n; i++) d[i] = fma(uniform_double(c.g), to - from, from);
    } else {
        for_each_in_memory_order(t, uniform_element, &c);
    }
    return 0;
}

static int draw_normal(nn_tensor *t, double mean, double std, nn_generator *g)
{
    nn_dtype dt = t->dtype;
    int64_t n = nn_numel(t);
    if (n >= 16 && nn_is_contiguous(t)) {
        /* normal_fill: uniforms, then Box-Muller in blocks of 16 */
        if (dt == NN_FLOAT32)
            normal_fill_f32(nn_data_ptr(t), n, (float)mean, (float)std, g);
        else if (dt == NN_FLOAT64)
            normal_fill_f64(nn_data_ptr(t), n, mean, std, g);
        else
            normal_fill_narrow(nn_data_ptr(t), dt, n, mean, std, g);
    } else {
        normal_ctx c = {g, dt, mean, std};
        for_each_in_memory_order(t, normal_element, &c);
    }
    return 0;
}

static int draw_permutation(nn_tensor *t, nn_generator *g)
{
    int64_t n = t->sizes[0];
    if (t->dtype == NN_INT64) {
        shuffle(nn_data_ptr(t), n, g);
        return 0;
    }
    int64_t *r = nn_malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
    if (!r) return -1;
    shuffle(r, n, g);
    char *p = nn_data_ptr(t);
    size_t es = nn_dtype_size(t->dtype);
    for (int64_t i = 0; i < n; i++) store_int(p + (size_t)i * es, t->dtype, r[i]);
    nn_free(r);
    return 0;
}

int nn_cpu_random(nn_tensor *t, const nn_random_params *p, nn_generator *g)
{
    switch (p->dist) {
    case NN_RANDOM_UNIFORM: return draw_uniform(t, p->a, p->b, g);
    case NN_RANDOM_NORMAL: return draw_normal(t, p->a, p->b, g);
    case NN_RANDOM_BERNOULLI: {
        /* the scalar-p kernel of a build without MKL (Debian's): one double
           uniform per element, in memory order */
        bernoulli_ctx c = {g, t->dtype, p->a};
        for_each_in_memory_order(t, bernoulli_element, &c);
        return 0;
    }
    case NN_RANDOM_INT: {
        randint_ctx c = {g, t->dtype, p->range, p->base, p->wide};
        for_each_in_memory_order(t, randint_element, &c);
        return 0;
    }
    case NN_RANDOM_PERMUTATION: return draw_permutation(t, g);
    }
    return 0;
}
