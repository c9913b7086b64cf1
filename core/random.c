/*
 * random.c — PyTorch 1.13's CPU generator (mt19937 plus its cached normal
 * sample), its state blob in torch.get_rng_state()'s layout, and rand, randn,
 * randint, randperm, uniform_, normal_ and bernoulli_: their checks and
 * bounds here, their drawing in the device's `random` kernel (core/cpu/random.c
 * on the CPU, which rounds as PyTorch's CPU kernels do).
 */
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"

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
        [NN_UINT8] = "Byte",    [NN_INT8] = "Char",      [NN_INT16] = "Short",
    };
    return names[dt];
}

/* The C++ type name caffe2::TypeMeta prints in bounds errors. */
static const char *cpp_type_name(nn_dtype dt)
{
    static const char *const names[NN_DTYPE_COUNT] = {
        [NN_FLOAT32] = "float", [NN_FLOAT64] = "double", [NN_FLOAT16] = "c10::Half", [NN_BFLOAT16] = "c10::BFloat16",
        [NN_INT64] = "long",    [NN_INT32] = "int",      [NN_BOOL] = "bool",
        [NN_UINT8] = "unsigned char", [NN_INT8] = "signed char", [NN_INT16] = "short",
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

/* A complex t draws its (real, imag) pairs as the real tensor view_as_real(t), as
   ATen's uniform_ and normal_ do (normal_ with std / sqrt(2) per part). */
static int complex_parts_(nn_tensor *t, nn_random_dist dist, double a, double b)
{
    nn_tensor *r = nn_view_as_real(t);
    int rc = !r ? -1 : dist == NN_RANDOM_UNIFORM ? nn_uniform_(r, a, b) : nn_normal_(r, a, b);
    NN_RELEASE(r);
    if (rc == 0) nn_bump_version(t);
    return rc;
}

int nn_uniform_(nn_tensor *t, double from, double to)
{
    if (nn_check_inplace(t) < 0) return -1;
    nn_dtype dt = t->dtype;
    if (nn_dtype_is_complex(dt)) return complex_parts_(t, NN_RANDOM_UNIFORM, from, to);
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
    nn_random_params p = {.dist = NN_RANDOM_UNIFORM, .a = from, .b = to};
    if (NN_KERNEL(nn_backend_of(t), random, (t, &p, nn_current_generator())) < 0) return -1;
    nn_bump_version(t);
    return 0;
}

nn_tensor *nn_rand(int ndim, const int64_t *sizes, nn_dtype dtype) { return nn_rand_on(nn_default_device(), ndim, sizes, dtype); }

nn_tensor *nn_rand_on(nn_device device, int ndim, const int64_t *sizes, nn_dtype dtype)
{
    nn_tensor *t = nn_empty_on(device, ndim, sizes, dtype);
    if (t && nn_uniform_(t, 0.0, 1.0) < 0) NN_SET(t, NULL);
    if (t) t->storage->version = 0;
    return t;
}

/* ------------------------------------------------------------------ normal */

int nn_normal_(nn_tensor *t, double mean, double std)
{
    if (nn_check_inplace(t) < 0) return -1;
    if (!(std >= 0.0)) return nn_error_set(NN_ERR_RUNTIME, "normal expects std >= 0.0, but found std %g", std);
    nn_dtype dt = t->dtype;
    if (nn_dtype_is_complex(dt)) return complex_parts_(t, NN_RANDOM_NORMAL, mean, std / sqrt(2.0));
    if (!nn_dtype_is_floating(dt)) return not_implemented("normal_kernel_cpu", dt);
    if ((nn_numel(t) < 16 || !nn_is_contiguous(t)) && check_no_overlap(t) < 0) return -1;
    nn_random_params p = {.dist = NN_RANDOM_NORMAL, .a = mean, .b = std};
    if (NN_KERNEL(nn_backend_of(t), random, (t, &p, nn_current_generator())) < 0) return -1;
    nn_bump_version(t);
    return 0;
}

nn_tensor *nn_randn(int ndim, const int64_t *sizes, nn_dtype dtype) { return nn_randn_on(nn_default_device(), ndim, sizes, dtype); }

nn_tensor *nn_randn_on(nn_device device, int ndim, const int64_t *sizes, nn_dtype dtype)
{
    nn_tensor *t = nn_empty_on(device, ndim, sizes, dtype);
    if (t && nn_normal_(t, 0.0, 1.0) < 0) NN_SET(t, NULL);
    if (t) t->storage->version = 0;
    return t;
}

/* --------------------------------------------------------------- bernoulli */

/* The scalar-p kernel of a build without MKL (Debian's): one double uniform
   per element, in memory order. */
int nn_bernoulli_(nn_tensor *t, double p)
{
    if (nn_check_inplace(t) < 0) return -1;
    if (!(p >= 0 && p <= 1))
        return nn_error_set(NN_ERR_RUNTIME, "bernoulli_ expects p to be in [0, 1], but got p=%g", p);
    if (check_no_overlap(t) < 0) return -1;
    if (t->dtype == NN_FLOAT16) return not_implemented("bernoulli_scalar_cpu_", t->dtype);
    nn_random_params prm = {.dist = NN_RANDOM_BERNOULLI, .a = p};
    if (NN_KERNEL(nn_backend_of(t), random, (t, &prm, nn_current_generator())) < 0) return -1;
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
    default: { /* through the 16-bit type */
        char c[2];
        nn_store_double(c, dt, (float)v);
        return x86_to_int64(nn_load_double(c, dt));
    }
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
        int64_t lo, hi;
        nn_dtype_int_range(dt, &lo, &hi);
        from_ok = from >= lo && from <= hi;
        to_ok = to_inc >= lo && to_inc <= hi;
    }
    if (!from_ok) return nn_error_set(NN_ERR_RUNTIME, "from is out of bounds for %s", cpp_type_name(dt));
    if (!to_ok) return nn_error_set(NN_ERR_RUNTIME, "to - 1 is out of bounds for %s", cpp_type_name(dt));
    return 0;
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
    nn_random_params p = {.dist = NN_RANDOM_INT, .range = (uint64_t)to - (uint64_t)from, .base = from};
    /* uniform_int_from_to_distribution: 64-bit draws only for these types */
    p.wide = p.range >= (uint64_t)1 << 32 && (dt == NN_INT64 || dt == NN_FLOAT64 || dt == NN_FLOAT32 || dt == NN_BFLOAT16);
    if (NN_KERNEL(nn_backend_of(t), random, (t, &p, nn_current_generator())) < 0) return -1;
    nn_bump_version(t);
    return 0;
}

nn_tensor *nn_randint(int64_t low, int64_t high, int ndim, const int64_t *sizes, nn_dtype dtype) { return nn_randint_on(nn_default_device(), low, high, ndim, sizes, dtype); }

nn_tensor *nn_randint_on(nn_device device, int64_t low, int64_t high, int ndim, const int64_t *sizes, nn_dtype dtype)
{
    nn_tensor *t = nn_empty_on(device, ndim, sizes, dtype);
    if (t && random_from_to_(t, low, high) < 0) NN_SET(t, NULL);
    if (t) t->storage->version = 0;
    return t;
}

/* ----------------------------------------------------------------- randperm */

nn_tensor *nn_randperm(int64_t n, nn_dtype dtype) { return nn_randperm_on(nn_default_device(), n, dtype); }

nn_tensor *nn_randperm_on(nn_device device, int64_t n, nn_dtype dtype)
{
    nn_tensor *t = nn_empty_on(device, 1, &n, dtype);
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
    nn_random_params p = {.dist = NN_RANDOM_PERMUTATION};
    if (NN_KERNEL(nn_backend_of(t), random, (t, &p, nn_current_generator())) < 0) NN_SET(t, NULL);
    return t;
}

/* Tensor.random_(from, to) */
int nn_random_(nn_tensor *t, int64_t from, int64_t to)
{
    if (nn_check_inplace(t) < 0 || check_no_overlap(t) < 0) return -1;
    return random_from_to_(t, from, to);
}
