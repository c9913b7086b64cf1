/*
 * np_pcg64.c — the PCG64 bit generator of NumPy 1.24's np.random.default_rng and
 * the draws its Generator makes from it, bit for bit: next_uint64 (PCG XSL-RR
 * 128/64), next_uint32 (the low half of a 64-bit draw, the high half kept for the
 * next call), next_double, next_float, the ziggurat standard normal (NumPy's own
 * tables, repl/np_ziggurat.h), Lemire's bounded integers and the masked interval
 * that shuffles use. The numpy module's source (mod_numpy_src.c) seeds it through
 * SeedSequence (written in the language) and calls the helpers below.
 *
 * A generator's state is an int64 CPU tensor of 6 elements: the 128-bit state
 * (high, low), the 128-bit increment (high, low), has_uint32 and the kept uint32.
 */
#include <math.h>
#include <string.h>

#include "bind_int.h"
#include "stdlib_int.h"
#include "np_ziggurat.h"

#define PCG_LEN 6

typedef unsigned __int128 u128;

typedef struct pcg {
    int64_t *w;
    u128 state, inc;
    bool has32;
    uint32_t kept;
} pcg;

static const u128 PCG_MULT = ((u128)2549297995355413924ULL << 64) | 4865540595714422341ULL;

static int pcg_load(nn_object *o, pcg *g)
{
    if (!nn_is_tensor(o) || NN_TENSOR(o)->dtype != NN_INT64 || nn_numel(NN_TENSOR(o)) != PCG_LEN ||
        !nn_is_contiguous(NN_TENSOR(o)) || nn_device_of(NN_TENSOR(o)).type != NN_CPU) {
        repl_raise_exc(EXC_TypeError, "not a PCG64 state");
        return -1;
    }
    int64_t *w = nn_host_borrow(NN_TENSOR(o)); /* a CPU tensor (checked above): host memory */
    g->w = w;
    g->state = (u128)(uint64_t)w[0] << 64 | (uint64_t)w[1];
    g->inc = (u128)(uint64_t)w[2] << 64 | (uint64_t)w[3];
    g->has32 = w[4] != 0;
    g->kept = (uint32_t)w[5];
    return 0;
}

static void pcg_store(const pcg *g)
{
    g->w[0] = (int64_t)(uint64_t)(g->state >> 64);
    g->w[1] = (int64_t)(uint64_t)g->state;
    g->w[2] = (int64_t)(uint64_t)(g->inc >> 64);
    g->w[3] = (int64_t)(uint64_t)g->inc;
    g->w[4] = g->has32;
    g->w[5] = g->kept;
}

static uint64_t next64(pcg *g)
{
    g->state = g->state * PCG_MULT + g->inc;
    uint64_t x = (uint64_t)(g->state >> 64) ^ (uint64_t)g->state;
    unsigned rot = (unsigned)(g->state >> 122);
    return (x >> rot) | (x << ((64 - rot) & 63));
}

static uint32_t next32(pcg *g)
{
    if (g->has32) {
        g->has32 = false;
        return g->kept;
    }
    uint64_t v = next64(g);
    g->has32 = true;
    g->kept = (uint32_t)(v >> 32);
    return (uint32_t)v;
}

static double next_double(pcg *g) { return (double)(next64(g) >> 11) * (1.0 / 9007199254740992.0); }
static float next_float(pcg *g) { return (float)(next32(g) >> 8) * (1.0f / 16777216.0f); }

#define ZIG_R 3.6541528853610088
#define ZIG_INV_R 0.27366123732975828

static double standard_normal(pcg *g)
{
    for (;;) {
        uint64_t r = next64(g);
        int idx = (int)(r & 0xff);
        r >>= 8;
        int sign = (int)(r & 1);
        uint64_t rabs = (r >> 1) & 0x000fffffffffffffULL;
        double x = (double)rabs * np_wi_double[idx];
        if (sign) x = -x;
        if (rabs < np_ki_double[idx]) return x;
        if (idx == 0) {
            for (;;) {
                double xx = -ZIG_INV_R * log1p(-next_double(g));
                double yy = -log1p(-next_double(g));
                if (yy + yy > xx * xx) return (rabs >> 8) & 1 ? -(ZIG_R + xx) : ZIG_R + xx;
            }
        }
        if ((np_fi_double[idx - 1] - np_fi_double[idx]) * next_double(g) + np_fi_double[idx] < exp(-0.5 * x * x))
            return x;
    }
}

/* a value in [0, rng] by Lemire's multiply-and-reject (NumPy's bounded_lemire) */
static uint64_t bounded(pcg *g, uint64_t rng)
{
    if (rng == 0) return 0;
    if (rng <= 0xffffffffULL) {
        if (rng == 0xffffffffULL) return next32(g);
        uint32_t excl = (uint32_t)rng + 1;
        uint64_t m = (uint64_t)next32(g) * excl;
        uint32_t left = (uint32_t)m;
        if (left < excl) {
            uint32_t threshold = (uint32_t)(UINT32_MAX - (uint32_t)rng) % excl;
            while (left < threshold) {
                m = (uint64_t)next32(g) * excl;
                left = (uint32_t)m;
            }
        }
        return m >> 32;
    }
    if (rng == UINT64_MAX) return next64(g);
    uint64_t excl = rng + 1;
    u128 m = (u128)next64(g) * excl;
    uint64_t left = (uint64_t)m;
    if (left < excl) {
        uint64_t threshold = (UINT64_MAX - rng) % excl;
        while (left < threshold) {
            m = (u128)next64(g) * excl;
            left = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

/* a value in [0, max] by masked rejection (NumPy's random_interval: shuffles) */
static uint64_t interval(pcg *g, uint64_t max)
{
    if (max == 0) return 0;
    uint64_t mask = max, v;
    for (int s = 1; s < 64; s *= 2) mask |= mask >> s;
    if (max <= 0xffffffffULL) {
        while ((v = (next32(g) & mask)) > max) {}
    } else {
        while ((v = (next64(g) & mask)) > max) {}
    }
    return v;
}

/* _pcg_seed(state, words): words are the 8 uint32 of SeedSequence.generate_state(4,
   uint64) (low half first): the seed is words 0-3, the increment words 4-7, set as
   NumPy's pcg64_set_seed does */
nn_object *repl_np_pcg_seed(void *ud, nn_object *args, nn_object *kwargs)
{
    pcg g;
    if (repl_mod_nargs("_pcg_seed", args, kwargs, 2, 2) < 0 || pcg_load(nn_tuple_get(args, 0), &g) < 0) return NULL;
    nn_object *l = repl_to_list(nn_tuple_get(args, 1));
    if (!l) return NULL;
    uint64_t v[4] = {0};
    bool ok = nn_list_len(l) == 8;
    for (size_t i = 0; ok && i < 8; i++) {
        nn_object *x = nn_list_get(l, i);
        ok = nn_is_int(x) && nn_int_value(x) >= 0 && nn_int_value(x) <= 0xffffffffLL;
        if (ok) v[i / 2] |= (uint64_t)nn_int_value(x) << (32 * (i % 2));
    }
    NN_RELEASE(l);
    if (!ok) {
        repl_raise_exc(EXC_ValueError, "_pcg_seed: 8 uint32 words expected");
        return NULL;
    }
    u128 init = (u128)v[0] << 64 | v[1], seq = (u128)v[2] << 64 | v[3];
    g.state = 0;
    g.inc = seq << 1 | 1;
    g.state = g.state * PCG_MULT + g.inc;
    g.state += init;
    g.state = g.state * PCG_MULT + g.inc;
    g.has32 = false;
    g.kept = 0;
    pcg_store(&g);
    return nn_retain(nn_none());
}

/* _pcg_draw(state, kind, n, a, b) -> a tensor of n draws: kind 0 doubles in
   [0, 1), 1 standard normals, 2 int64 a + [0, b] (Lemire), 3 float32 in [0, 1),
   4 one masked interval [0, b] as an int, 5 one Lemire value a + [0, b] as an int */
nn_object *repl_np_pcg_draw(void *ud, nn_object *args, nn_object *kwargs)
{
    pcg g;
    int64_t kind, n, lo, rng;
    if (repl_mod_nargs("_pcg_draw", args, kwargs, 5, 5) < 0 || pcg_load(nn_tuple_get(args, 0), &g) < 0 ||
        repl_mod_int(nn_tuple_get(args, 1), &kind) < 0 || repl_mod_int(nn_tuple_get(args, 2), &n) < 0 ||
        repl_mod_int(nn_tuple_get(args, 3), &lo) < 0 || repl_mod_int(nn_tuple_get(args, 4), &rng) < 0)
        return NULL;
    if (kind == 4 || kind == 5) {
        uint64_t v = kind == 4 ? interval(&g, (uint64_t)rng) : (uint64_t)lo + bounded(&g, (uint64_t)rng);
        pcg_store(&g);
        return nn_int_new((int64_t)v);
    }
    int64_t sizes[1] = {n < 0 ? 0 : n};
    nn_dtype dt = kind == 2 ? NN_INT64 : kind == 3 ? NN_FLOAT32 : NN_FLOAT64;
    nn_tensor *t = nn_empty_on(NN_DEVICE_CPU, 1, sizes, dt); /* numpy's arrays: host memory */
    if (!t) return NULL;
    double *d = nn_host_borrow(t);
    float *f = nn_host_borrow(t);
    int64_t *iv = nn_host_borrow(t);
    for (int64_t i = 0; i < sizes[0]; i++) {
        if (kind == 0) d[i] = next_double(&g);
        else if (kind == 1) d[i] = standard_normal(&g);
        else if (kind == 3) f[i] = next_float(&g);
        else iv[i] = (int64_t)((uint64_t)lo + bounded(&g, (uint64_t)rng));
    }
    pcg_store(&g);
    return (nn_object *)t;
}
