/*
 * random.c — PyTorch 1.13's CPU generator (mt19937 plus its cached normal
 * sample), its state blob in torch.get_rng_state()'s layout, and rand, randn,
 * randint, randperm, uniform_, normal_ and bernoulli_ drawing and rounding as
 * PyTorch's CPU kernels do (its AVX2 build's float32 normal path and FMAs too).
 */
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nn_int.h"

#define PI 3.14159265358979323846 /* c10::pi<double> */

/* ---------------------------------------------------------------- mt19937 */

#define MT_N 624
#define MT_M 397

/* g->next counts the state words used since the last twist (1..624), or is 0
   right after seeding; a draw twists first when it is 0 or 624. This is
   PyTorch's (left, next) pair with left = next ? 625 - next : 1. */

void nn_generator_seed(nn_generator *g, uint64_t seed)
{
    g->seed = seed;
    g->state[0] = (uint32_t)seed;
    for (int j = 1; j < MT_N; j++)
        g->state[j] = 1812433253u * (g->state[j - 1] ^ (g->state[j - 1] >> 30)) + (uint32_t)j;
    g->next = 0;
    g->has_next_float_normal = false;
    g->next_float_normal = 0;
    g->has_next_double_normal = false;
    g->next_double_normal = 0;
}

uint64_t nn_generator_initial_seed(const nn_generator *g) { return g->seed; }

static uint32_t twist_word(uint32_t u, uint32_t v)
{
    return (((u & 0x80000000u) | (v & 0x7fffffffu)) >> 1) ^ (v & 1 ? 0x9908b0dfu : 0);
}

static void twist(nn_generator *g)
{
    uint32_t *s = g->state;
    int j = 0;
    for (; j < MT_N - MT_M; j++) s[j] = s[j + MT_M] ^ twist_word(s[j], s[j + 1]);
    for (; j < MT_N - 1; j++) s[j] = s[j + MT_M - MT_N] ^ twist_word(s[j], s[j + 1]);
    s[MT_N - 1] = s[MT_M - 1] ^ twist_word(s[MT_N - 1], s[0]);
}

uint32_t nn_generator_random(nn_generator *g)
{
    if (g->next <= 0 || g->next >= MT_N) {
        twist(g);
        g->next = 0;
    }
    uint32_t y = g->state[g->next++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

/* The first draw is the high word, as CPUGeneratorImpl::random64. */
uint64_t nn_generator_random64(nn_generator *g)
{
    uint64_t hi = nn_generator_random(g);
    uint64_t lo = nn_generator_random(g);
    return hi << 32 | lo;
}

/* ------------------------------------------------------ default generator */

/* As c10::detail::getNonDeterministicRandom: 64 bits of /dev/urandom, so a
   fresh process starts unseeded-random exactly as torch does (its
   torch.initial_seed() differs from run to run). */
uint64_t nn_nondeterministic_seed(void)
{
    uint64_t v = 0;
    int fd = open("/dev/urandom", O_RDONLY);
    if (fd >= 0) {
        ssize_t n = read(fd, &v, sizeof v);
        close(fd);
        if (n == (ssize_t)sizeof v) return v;
    }
    /* no /dev/urandom: the clock and the pid (PyTorch uses the clock on Windows) */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    v = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    return v ^ ((uint64_t)getpid() << 32);
}

nn_generator *nn_default_generator(void)
{
    static nn_generator gen;
    static bool seeded;
    if (!seeded) {
        nn_generator_seed(&gen, nn_nondeterministic_seed());
        seeded = true;
    }
    return &gen;
}

/* The generator the sampling functions draw from: a Generator object's while
   a call with generator= runs (nn_generator_use), else the default one. */
static _Thread_local nn_generator *active_generator;

nn_generator *nn_generator_use(nn_generator *g)
{
    nn_generator *prev = active_generator;
    active_generator = g;
    return prev;
}

nn_generator *nn_current_generator(void) { return active_generator ? active_generator : nn_default_generator(); }

/* -------------------------------------------------------------- state blob */

/* The blob is PyTorch's CPUGeneratorImplState byte for byte (x86-64 layout),
   so torch.get_rng_state().numpy().tobytes() loads here and back:
     0 u64 initial seed | 8 i32 left | 12 i32 seeded | 16 u64 next
     24 u64 state[624] | 5016 f64 normal_x | 5024 f64 normal_y (the cached
     double sample) | 5032 f64 normal_rho | 5040 i32 normal_is_valid
     5048 f32 cached float sample | 5052 u8 its validity (padding zero).
   The first 5048 bytes alone are the legacy CPUGeneratorImplStateLegacy. */
#define STATE_SIZE 5056
#define STATE_LEGACY_SIZE 5048
#define OFF_STATE 24
#define OFF_NORMAL_X 5016
#define OFF_NORMAL_Y 5024
#define OFF_NORMAL_RHO 5032
#define OFF_NORMAL_VALID 5040
#define OFF_FLOAT_NORMAL 5048
#define OFF_FLOAT_VALID 5052

size_t nn_generator_state_size(void) { return STATE_SIZE; }

static void put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static void put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static uint32_t get_u32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static uint64_t double_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static double bits_double(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

void nn_generator_get_state(const nn_generator *g, void *out)
{
    unsigned char *p = out;
    memset(p, 0, STATE_SIZE);
    put_u64(p, g->seed);
    put_u32(p + 8, (uint32_t)(g->next == 0 ? 1 : MT_N + 1 - g->next));
    put_u32(p + 12, 1);
    put_u64(p + 16, (uint64_t)g->next);
    for (int j = 0; j < MT_N; j++) put_u64(p + OFF_STATE + 8 * j, g->state[j]);
    if (g->has_next_double_normal) {
        put_u64(p + OFF_NORMAL_Y, double_bits(g->next_double_normal));
        put_u32(p + OFF_NORMAL_VALID, 1);
    }
    if (g->has_next_float_normal) {
        uint32_t f;
        memcpy(&f, &g->next_float_normal, 4);
        put_u32(p + OFF_FLOAT_NORMAL, f);
        p[OFF_FLOAT_VALID] = 1;
    }
}

/* As CPUGeneratorImpl::set_state; g is unchanged on error. PyTorch also takes
   (left, next) pairs no draw sequence produces; those are refused here. */
int nn_generator_set_state(nn_generator *g, const void *in, size_t n)
{
    const unsigned char *p = in;
    if (n != STATE_SIZE && n != STATE_LEGACY_SIZE)
        return nn_error_set(NN_ERR_RUNTIME,
                            "Expected either a CPUGeneratorImplStateLegacy of size %d or a CPUGeneratorImplState of "
                            "size %d but found the input RNG state size to be %zu",
                            STATE_LEGACY_SIZE, STATE_SIZE, n);
    int32_t left = (int32_t)get_u32(p + 8);
    uint32_t seeded = get_u32(p + 12);
    uint32_t next = (uint32_t)get_u64(p + 16);
    bool valid = seeded != 0 && left > 0 && left <= MT_N && next <= MT_N;
    if (!valid || !((left == 1 && next == 0) || left + (int32_t)next == MT_N + 1))
        return nn_error_set(NN_ERR_RUNTIME, "Invalid mt19937 state");
    g->seed = get_u64(p);
    g->next = (int)next;
    for (int j = 0; j < MT_N; j++) g->state[j] = (uint32_t)get_u64(p + OFF_STATE + 8 * j);
    g->has_next_double_normal = get_u32(p + OFF_NORMAL_VALID) != 0;
    g->next_double_normal = 0;
    g->has_next_float_normal = false;
    g->next_float_normal = 0;
    if (n == STATE_LEGACY_SIZE) {
        /* the legacy blob kept Box-Muller's inputs, not the sample */
        if (g->has_next_double_normal)
            g->next_double_normal = bits_double(get_u64(p + OFF_NORMAL_RHO)) *
                                    sin(2.0 * PI * bits_double(get_u64(p + OFF_NORMAL_X)));
    } else {
        if (g->has_next_double_normal) g->next_double_normal = bits_double(get_u64(p + OFF_NORMAL_Y));
        if (p[OFF_FLOAT_VALID]) {
            uint32_t f = get_u32(p + OFF_FLOAT_NORMAL);
            memcpy(&g->next_float_normal, &f, 4);
            g->has_next_float_normal = true;
        }
    }
    return 0;
}

/* ------------------------------------------------------------ distributions */

/* at::uniform_real_distribution<T>(0, 1): the low `digits` bits of one draw
   (random64 for double) scaled to [0, 1). */
static float uniform_float(nn_generator *g) { return (float)(nn_generator_random(g) & 0xffffffu) * 0x1p-24f; }

static double uniform_double(nn_generator *g)
{
    return (double)(nn_generator_random64(g) & 0x1fffffffffffffu) * 0x1p-53;
}

double nn_generator_uniform(nn_generator *g) { return uniform_double(g); }
float nn_generator_uniform_float(nn_generator *g) { return uniform_float(g); }

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
#define KERNEL static inline __attribute__((always_inline))

KERNEL float cephes_logf(float x)
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

KERNEL void cephes_sincosf(float xin, float *s, float *c)
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
KERNEL void normal_fill_16_f32_body(float *d, float mean, float std)
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

static void normal_fill_f32(float *d, int64_t n, float mean, float std, nn_generator *g)
{
    for (int64_t i = 0; i < n; i++) d[i] = uniform_float(g);
    for (int64_t i = 0; i + 16 <= n; i += 16) normal_fill_16_f32(d + i, mean, std);
    if (n % 16 != 0) {
        /* the last 16 are drawn and transformed again */
        float *tail = d + n - 16;
        for (int i = 0; i < 16; i++) tail[i] = uniform_float(g);
        normal_fill_16_f32(tail, mean, std);
    }
}

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

static void normal_fill_f64(double *d, int64_t n, double mean, double std, nn_generator *g)
{
    for (int64_t i = 0; i < n; i++) d[i] = uniform_double(g);
    for (int64_t i = 0; i + 16 <= n; i += 16) normal_fill_16_f64(d + i, mean, std);
    if (n % 16 != 0) {
        double *tail = d + n - 16;
        for (int i = 0; i < 16; i++) tail[i] = uniform_double(g);
        normal_fill_16_f64(tail, mean, std);
    }
}

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

/* at::assert_no_internal_overlap, as far as it can tell: a stride-0 dim of size > 1. */
static int check_no_overlap(const nn_tensor *t)
{
    for (int d = 0; d < t->ndim; d++)
        if (t->sizes[d] > 1 && t->strides[d] == 0)
            return nn_error_set(NN_ERR_RUNTIME,
                                "unsupported operation: more than one element of the written-to tensor refers to a "
                                "single memory location. Please clone() the tensor before performing the operation.");
    return 0;
}

/* 'Float', 'Long', ... as PyTorch's dispatch errors name types. */
static const char *type_title(nn_dtype dt)
{
    static const char *const names[NN_DTYPE_COUNT] = {
        [NN_FLOAT32] = "Float", [NN_FLOAT64] = "Double", [NN_FLOAT16] = "Half", [NN_BFLOAT16] = "BFloat16",
        [NN_INT64] = "Long",    [NN_INT32] = "Int",      [NN_BOOL] = "Bool",
    };
    return names[dt];
}

/* The C++ type name caffe2::TypeMeta prints in bounds errors. */
static const char *cpp_type_name(nn_dtype dt)
{
    static const char *const names[NN_DTYPE_COUNT] = {
        [NN_FLOAT32] = "float", [NN_FLOAT64] = "double", [NN_FLOAT16] = "c10::Half", [NN_BFLOAT16] = "c10::BFloat16",
        [NN_INT64] = "long",    [NN_INT32] = "int",      [NN_BOOL] = "bool",
    };
    return names[dt];
}

static int not_implemented(const char *kernel, nn_dtype dt)
{
    return nn_error_set(NN_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel, type_title(dt));
}

/* std::numeric_limits<T>::max() of a floating dtype, as a double. */
static double float_type_max(nn_dtype dt)
{
    switch (dt) {
    case NN_FLOAT64: return DBL_MAX;
    case NN_FLOAT16: return 65504.0;
    case NN_BFLOAT16: return 0x1.fep127;
    default: return FLT_MAX;
    }
}

static int float_type_digits(nn_dtype dt)
{
    switch (dt) {
    case NN_FLOAT64: return 53;
    case NN_FLOAT16: return 11;
    case NN_BFLOAT16: return 8;
    default: return 24;
    }
}

/* ----------------------------------------------------------------- uniform */

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
        float v = fmaf(uniform_narrow(c->g, float_type_digits(c->dtype)), c->range_f, c->from_f);
        *(uint16_t *)p = narrow_bits(v, c->dtype);
    }
    }
}

int nn_uniform_(nn_tensor *t, double from, double to)
{
    if (nn_check_inplace(t) < 0) return -1;
    nn_dtype dt = t->dtype;
    if (!nn_dtype_is_floating(dt)) return not_implemented("check_uniform_bounds", dt);
    double max = float_type_max(dt);
    if (!(from >= -max && from <= max))
        return nn_error_set(NN_ERR_RUNTIME, "from is out of bounds for %s", cpp_type_name(dt));
    if (!(to >= -max && to <= max)) return nn_error_set(NN_ERR_RUNTIME, "to is out of bounds for %s", cpp_type_name(dt));
    if (!(from <= to))
        return nn_error_set(NN_ERR_RUNTIME, "uniform_ expects to return a [from, to) range, but found from=%g > to=%g",
                            from, to);
    if (!(to - from <= max))
        return nn_error_set(NN_ERR_RUNTIME,
                            "uniform_ expects to-from <= std::numeric_limits<%s>::max(), but found to=%g and from=%g "
                            "which result in to-from to exceed the limit",
                            type_title(dt), to, from);
    if (check_no_overlap(t) < 0) return -1;
    uniform_ctx c = {.g = nn_current_generator(), .dtype = dt, .from = from, .to = to};
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
    nn_bump_version(t);
    return 0;
}

nn_tensor *nn_rand(int ndim, const int64_t *sizes, nn_dtype dtype)
{
    nn_tensor *t = nn_empty(ndim, sizes, dtype);
    if (t && nn_uniform_(t, 0.0, 1.0) < 0) NN_SET(t, NULL);
    if (t) t->storage->version = 0;
    return t;
}

/* ------------------------------------------------------------------ normal */

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

int nn_normal_(nn_tensor *t, double mean, double std)
{
    if (nn_check_inplace(t) < 0) return -1;
    if (!(std >= 0.0)) return nn_error_set(NN_ERR_RUNTIME, "normal expects std >= 0.0, but found std %g", std);
    nn_dtype dt = t->dtype;
    if (!nn_dtype_is_floating(dt)) return not_implemented("normal_kernel_cpu", dt);
    nn_generator *g = nn_current_generator();
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
        if (check_no_overlap(t) < 0) return -1;
        normal_ctx c = {g, dt, mean, std};
        for_each_in_memory_order(t, normal_element, &c);
    }
    nn_bump_version(t);
    return 0;
}

nn_tensor *nn_randn(int ndim, const int64_t *sizes, nn_dtype dtype)
{
    nn_tensor *t = nn_empty(ndim, sizes, dtype);
    if (t && nn_normal_(t, 0.0, 1.0) < 0) NN_SET(t, NULL);
    if (t) t->storage->version = 0;
    return t;
}

/* --------------------------------------------------------------- bernoulli */

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

/* The scalar-p kernel of a build without MKL (Debian's): one double uniform
   per element, in memory order. */
int nn_bernoulli_(nn_tensor *t, double p)
{
    if (nn_check_inplace(t) < 0) return -1;
    if (!(p >= 0 && p <= 1))
        return nn_error_set(NN_ERR_RUNTIME, "bernoulli_ expects p to be in [0, 1], but got p=%g", p);
    if (check_no_overlap(t) < 0) return -1;
    if (t->dtype == NN_FLOAT16) return not_implemented("bernoulli_scalar_cpu_", t->dtype);
    bernoulli_ctx c = {nn_current_generator(), t->dtype, p};
    for_each_in_memory_order(t, bernoulli_element, &c);
    nn_bump_version(t);
    return 0;
}

/* ----------------------------------------------------------------- randint */

/* C++'s float-to-int64 cast on x86: out of range and NaN give INT64_MIN. */
static int64_t x86_to_int64(double v)
{
    if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) return INT64_MIN;
    return (int64_t)v;
}

/* static_cast<int64_t>(static_cast<T>(v)) for a floating dtype T. */
static int64_t round_trip_int(int64_t v, nn_dtype dt)
{
    switch (dt) {
    case NN_FLOAT64: return x86_to_int64((double)v);
    case NN_FLOAT32: return x86_to_int64((float)v);
    default: return x86_to_int64(narrow_round((float)v, dt));
    }
}

static int floor_log2(uint64_t v)
{
    int n = 0;
    while (v >>= 1) n++;
    return n;
}

/* update_from / update_to: move a bound inwards to the nearest value whose
   cast to dtype stays inside [from, to). Wrapping arithmetic, as in PyTorch. */
static int64_t update_from(int64_t from, nn_dtype dt)
{
    int64_t plus1 = round_trip_int((int64_t)((uint64_t)from + 1), dt);
    if (plus1 < from) {
        int64_t f = (int64_t)((uint64_t)from + 1);
        int shift = floor_log2(f < 0 ? -(uint64_t)f : (uint64_t)f) - float_type_digits(dt) + 1;
        from = (int64_t)((uint64_t)plus1 + (shift >= 0 && shift < 64 ? (uint64_t)1 << shift : 0));
    }
    return from;
}

static int64_t update_to(int64_t to, nn_dtype dt)
{
    int64_t minus1 = round_trip_int((int64_t)((uint64_t)to - 1), dt);
    if (minus1 >= to) {
        int64_t f = (int64_t)((uint64_t)to - 1);
        int shift = floor_log2(f < 0 ? -(uint64_t)f : (uint64_t)f) - float_type_digits(dt) + 1;
        to = (int64_t)((uint64_t)minus1 - (shift >= 0 && shift < 64 ? (uint64_t)1 << shift : 0));
    }
    return to;
}

/* check_from_to_in_range */
static int check_random_bounds(int64_t from, int64_t to_inc, nn_dtype dt)
{
    bool from_ok, to_ok;
    if (nn_dtype_is_floating(dt)) {
        double max = float_type_max(dt);
        from_ok = (double)from >= -max && (double)from <= max;
        to_ok = (double)to_inc >= -max && (double)to_inc <= max;
    } else {
        int64_t lo = dt == NN_INT32 ? INT32_MIN : dt == NN_BOOL ? 0 : INT64_MIN;
        int64_t hi = dt == NN_INT32 ? INT32_MAX : dt == NN_BOOL ? 1 : INT64_MAX;
        from_ok = from >= lo && from <= hi;
        to_ok = to_inc >= lo && to_inc <= hi;
    }
    if (!from_ok) return nn_error_set(NN_ERR_RUNTIME, "from is out of bounds for %s", cpp_type_name(dt));
    if (!to_ok) return nn_error_set(NN_ERR_RUNTIME, "to - 1 is out of bounds for %s", cpp_type_name(dt));
    return 0;
}

/* static_cast<T>(v) for every dtype. */
static void store_int(char *p, nn_dtype dt, int64_t v)
{
    switch (dt) {
    case NN_INT64: *(int64_t *)p = v; break;
    case NN_INT32: *(int32_t *)p = (int32_t)(uint32_t)(uint64_t)v; break;
    case NN_BOOL: *(uint8_t *)p = v != 0; break;
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

/* Tensor.random_(from, to) */
static int random_from_to_(nn_tensor *t, int64_t from, int64_t to)
{
    nn_dtype dt = t->dtype;
    if (from >= to)
        return nn_error_set(NN_ERR_RUNTIME, "random_ expects 'from' to be less than 'to', but got from=%lld >= to=%lld",
                            (long long)from, (long long)to);
    if (nn_dtype_is_floating(dt)) {
        from = update_from(from, dt);
        to = update_to(to, dt);
        if (from >= to)
            return nn_error_set(NN_ERR_RUNTIME,
                                "random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, but got "
                                "from=%lld >= to=%lld",
                                (long long)from, (long long)to);
    }
    if (check_random_bounds(from, to - 1, dt) < 0) return -1;
    randint_ctx c = {nn_current_generator(), dt, (uint64_t)to - (uint64_t)from, from, false};
    /* uniform_int_from_to_distribution: 64-bit draws only for these types */
    c.wide = c.range >= (uint64_t)1 << 32 && (dt == NN_INT64 || dt == NN_FLOAT64 || dt == NN_FLOAT32 || dt == NN_BFLOAT16);
    for_each_in_memory_order(t, randint_element, &c);
    nn_bump_version(t);
    return 0;
}

nn_tensor *nn_randint(int64_t low, int64_t high, int ndim, const int64_t *sizes, nn_dtype dtype)
{
    nn_tensor *t = nn_empty(ndim, sizes, dtype);
    if (t && random_from_to_(t, low, high) < 0) NN_SET(t, NULL);
    if (t) t->storage->version = 0;
    return t;
}

/* ----------------------------------------------------------------- randperm */

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

nn_tensor *nn_randperm(int64_t n, nn_dtype dtype)
{
    nn_tensor *t = nn_empty(1, &n, dtype);
    if (!t) return NULL;
    /* check_supported_max_int_with_precision, then the dispatch */
    int64_t last = n > 0 ? n - 1 : n;
    const char *err = NULL;
    if (dtype == NN_INT32 && last > INT32_MAX)
        err = "value cannot be converted to type int without overflow";
    else if (dtype == NN_FLOAT16 && last > 65504)
        err = "value cannot be converted to type at::Half without overflow";
    else if (dtype == NN_FLOAT16 && n > ((int64_t)1 << 11) + 1)
        err = "n cannot be greater than 2049 for Half type.";
    else if (dtype == NN_FLOAT32 && n > ((int64_t)1 << 24) + 1)
        err = "n cannot be greater than 2^24+1 for Float type.";
    else if (dtype == NN_FLOAT64 && n > ((int64_t)1 << 53) + 1)
        err = "n cannot be greater than 2^53+1 for Double type.";
    if (err || dtype == NN_BOOL) {
        if (err)
            nn_error_set(NN_ERR_RUNTIME, "%s", err);
        else
            not_implemented("randperm", dtype);
        NN_RELEASE(t);
        return NULL;
    }
    nn_generator *g = nn_current_generator();
    if (dtype == NN_INT64) {
        shuffle(nn_data_ptr(t), n, g);
        return t;
    }
    int64_t *r = nn_malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
    if (!r) {
        NN_RELEASE(t);
        return NULL;
    }
    shuffle(r, n, g);
    char *p = nn_data_ptr(t);
    size_t es = nn_dtype_size(dtype);
    for (int64_t i = 0; i < n; i++) store_int(p + (size_t)i * es, dtype, r[i]);
    nn_free(r);
    return t;
}

/* Tensor.random_(from, to) */
int nn_random_(nn_tensor *t, int64_t from, int64_t to)
{
    if (nn_check_inplace(t) < 0 || check_no_overlap(t) < 0) return -1;
    return random_from_to_(t, from, to);
}
