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
#include <stdlib.h>
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

/* NumPy's float32 ziggurat (random_standard_normal_f): 32-bit draws, its own tables */
static float standard_normal_f(pcg *g)
{
    const float r_f = 3.6541528853610087963519472518f, inv_r_f = 0.27366123732975827203338247596f;
    for (;;) {
        uint32_t r = next32(g);
        int idx = (int)(r & 0xff), sign = (int)((r >> 8) & 0x1);
        uint32_t rabs = (r >> 9) & 0x0007fffff;
        float x = (float)rabs * np_wi_float[idx];
        if (sign) x = -x;
        if (rabs < np_ki_float[idx]) return x;
        if (idx == 0) {
            for (;;) {
                float xx = -inv_r_f * log1pf(-next_float(g));
                float yy = -log1pf(-next_float(g));
                if (yy + yy > xx * xx) return (rabs >> 8) & 0x1 ? -(r_f + xx) : r_f + xx;
            }
        }
        if ((np_fi_float[idx - 1] - np_fi_float[idx]) * next_float(g) + np_fi_float[idx] < exp(-0.5 * x * x)) return x;
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
   4 one masked interval [0, b] as an int, 5 one Lemire value a + [0, b] as an int,
   6 float32 standard normals */
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
    nn_dtype dt = kind == 2 ? NN_INT64 : kind == 3 || kind == 6 ? NN_FLOAT32 : NN_FLOAT64;
    nn_tensor *t = nn_empty_on(NN_DEVICE_CPU, 1, sizes, dt); /* numpy's arrays: host memory */
    if (!t) return NULL;
    double *d = nn_host_borrow(t);
    float *f = nn_host_borrow(t);
    int64_t *iv = nn_host_borrow(t);
    for (int64_t i = 0; i < sizes[0]; i++) {
        if (kind == 0) d[i] = next_double(&g);
        else if (kind == 1) d[i] = standard_normal(&g);
        else if (kind == 3) f[i] = next_float(&g);
        else if (kind == 6) f[i] = standard_normal_f(&g);
        else iv[i] = (int64_t)((uint64_t)lo + bounded(&g, (uint64_t)rng));
    }
    pcg_store(&g);
    return (nn_object *)t;
}

/* ------------------------------------------------------------ distributions */
/* NumPy 1.24's distributions.c, step for step, so seeded draws are NumPy's. */

#define NP_ZIGGURAT_EXP_R 7.69711747013104972

static double standard_exponential(pcg *g)
{
    for (;;) {
        uint64_t ri = next64(g) >> 3;
        uint8_t idx = (uint8_t)(ri & 0xff);
        ri >>= 8;
        double x = (double)ri * np_we_double[idx];
        if (ri < np_ke_double[idx]) return x;
        if (idx == 0) return NP_ZIGGURAT_EXP_R - log1p(-next_double(g));
        if ((np_fe_double[idx - 1] - np_fe_double[idx]) * next_double(g) + np_fe_double[idx] < exp(-x)) return x;
    }
}

static double standard_gamma(pcg *g, double shape)
{
    if (shape == 1.0) return standard_exponential(g);
    if (shape == 0.0) return 0.0;
    if (shape < 1.0) {
        for (;;) {
            double u = next_double(g), v = standard_exponential(g);
            if (u <= 1.0 - shape) {
                double x = pow(u, 1. / shape);
                if (x <= v) return x;
            } else {
                double y = -log((1 - u) / shape);
                double x = pow(1.0 - shape + shape * y, 1. / shape);
                if (x <= v + y) return x;
            }
        }
    }
    double b = shape - 1. / 3., c = 1. / sqrt(9 * b);
    for (;;) {
        double x, v;
        do {
            x = standard_normal(g);
            v = 1.0 + c * x;
        } while (v <= 0.0);
        v = v * v * v;
        double u = next_double(g);
        if (u < 1.0 - 0.0331 * (x * x) * (x * x)) return b * v;
        if (log(u) < 0.5 * x * x + b * (1. - v + log(v))) return b * v;
    }
}

static double beta(pcg *g, double a, double b)
{
    if (a <= 1.0 && b <= 1.0) {
        for (;;) {
            double u = next_double(g), v = next_double(g);
            double x = pow(u, 1.0 / a), y = pow(v, 1.0 / b), xpy = x + y;
            if (xpy <= 1.0 && u + v > 0.0) {
                if (xpy > 0) return x / xpy;
                double lx = log(u) / a, ly = log(v) / b, lm = lx > ly ? lx : ly;
                lx -= lm;
                ly -= lm;
                return exp(lx - log(exp(lx) + exp(ly)));
            }
        }
    }
    double ga = standard_gamma(g, a), gb = standard_gamma(g, b);
    return ga / (ga + gb);
}

static double loggam(double x)
{
    static const double a[10] = {8.333333333333333e-02, -2.777777777777778e-03, 7.936507936507937e-04,
                                 -5.952380952380952e-04, 8.417508417508418e-04, -1.917526917526918e-03,
                                 6.410256410256410e-03, -2.955065359477124e-02, 1.796443723688307e-01,
                                 -1.39243221690590e+00};
    if (x == 1.0 || x == 2.0) return 0.0;
    int64_t n = x < 7.0 ? (int64_t)(7 - x) : 0;
    double x0 = x + (double)n, x2 = (1.0 / x0) * (1.0 / x0), gl0 = a[9];
    for (int k = 8; k >= 0; k--) {
        gl0 *= x2;
        gl0 += a[k];
    }
    double gl = gl0 / x0 + 0.5 * 1.8378770664093453e+00 + (x0 - 0.5) * log(x0) - x0;
    if (x < 7.0)
        for (int64_t k = 1; k <= n; k++) {
            gl -= log(x0 - 1.0);
            x0 -= 1.0;
        }
    return gl;
}

static int64_t poisson(pcg *g, double lam)
{
    if (lam == 0) return 0;
    if (lam < 10) {
        double enlam = exp(-lam), prod = 1.0;
        int64_t x = 0;
        for (;;) {
            prod *= next_double(g);
            if (prod > enlam) x += 1;
            else return x;
        }
    }
    double slam = sqrt(lam), loglam = log(lam), b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
    double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
    for (;;) {
        double u = next_double(g) - 0.5, v = next_double(g), us = 0.5 - fabs(u);
        int64_t k = (int64_t)floor((2 * a / us + b) * u + lam + 0.43);
        if (us >= 0.07 && v <= vr) return k;
        if (k < 0 || (us < 0.013 && v > us)) continue;
        if (log(v) + log(invalpha) - log(a / (us * us) + b) <= -lam + (double)k * loglam - loggam((double)k + 1))
            return k;
    }
}

/* NumPy's inversion sampler for n*p <= 30 (p <= 0.5). */
static int64_t binomial_inversion(pcg *g, int64_t n, double p)
{
    double q = 1.0 - p, qn = exp((double)n * log(q)), np_ = (double)n * p;
    double lim = np_ + 10.0 * sqrt(np_ * q + 1);
    int64_t bound = (double)n < lim ? n : (int64_t)lim;
    int64_t x = 0;
    double px = qn, u = next_double(g);
    while (u > px) {
        x++;
        if (x > bound) {
            x = 0;
            px = qn;
            u = next_double(g);
        } else {
            u -= px;
            px = ((double)(n - x + 1) * p * px) / ((double)x * q);
        }
    }
    return x;
}

/* NumPy 1.24's BTPE sampler (Kachitvichyanukul and Schmeiser) for n*p > 30 (p <=
   0.5), step for step as numpy/random/src/distributions/distributions.c has it in
   1.24.2 (13680 and four added error terms in its Stirling bound, as there). */
static int64_t binomial_btpe(pcg *g, int64_t n, double p)
{
    double r = p < 1.0 - p ? p : 1.0 - p, q = 1.0 - r, fm = (double)n * r + r;
    int64_t m = (int64_t)floor(fm);
    double p1 = floor(2.195 * sqrt((double)n * r * q) - 4.6 * q) + 0.5, xm = (double)m + 0.5;
    double xl = xm - p1, xr = xm + p1, c = 0.134 + 20.5 / (15.3 + (double)m);
    double a = (fm - xl) / (fm - xl * r), laml = a * (1.0 + a / 2.0);
    a = (xr - fm) / (xr * q);
    double lamr = a * (1.0 + a / 2.0), p2 = p1 * (1.0 + 2.0 * c), p3 = p2 + c / laml, p4 = p3 + c / lamr;
    double nrq = (double)n * r * q;
    for (;;) {
        double u = next_double(g) * p4, v = next_double(g);
        int64_t y;
        if (u <= p1) {
            y = (int64_t)floor(xm - p1 * v + u);
            return p > 0.5 ? n - y : y; /* Step60 */
        }
        if (u <= p2) { /* Step20 */
            double x = xl + (u - p1) / c;
            v = v * c + 1.0 - fabs((double)m - x + 0.5) / p1;
            if (v > 1.0) continue;
            y = (int64_t)floor(x);
        } else if (u <= p3) { /* Step30 */
            y = (int64_t)floor(xl + log(v) / laml);
            if (y < 0 || v == 0.0) continue;
            v = v * (u - p2) * laml;
        } else { /* Step40 */
            y = (int64_t)floor(xr - log(v) / lamr);
            if (y > n || v == 0.0) continue;
            v = v * (u - p3) * lamr;
        }
        int64_t k = llabs(y - m); /* Step50 */
        if (!(k > 20 && (double)k < nrq / 2.0 - 1)) {
            double s = r / q, aa = s * (double)(n + 1), F = 1.0;
            if (m < y)
                for (int64_t i = m + 1; i <= y; i++) F *= (aa / (double)i - s);
            else if (m > y)
                for (int64_t i = y + 1; i <= m; i++) F /= (aa / (double)i - s);
            if (v > F) continue;
            return p > 0.5 ? n - y : y;
        }
        double kd = (double)k; /* Step52 */
        double rho = (kd / nrq) * ((kd * (kd / 3.0 + 0.625) + 0.16666666666666666) / nrq + 0.5);
        double t = -kd * kd / (2 * nrq), A = log(v);
        if (A < t - rho) return p > 0.5 ? n - y : y;
        if (A > t + rho) continue;
        double x1 = (double)(y + 1), f1 = (double)(m + 1), z = (double)(n + 1 - m), w = (double)(n - y + 1);
        double x2 = x1 * x1, f2 = f1 * f1, z2 = z * z, w2 = w * w;
        if (A > (xm * log(f1 / x1) + ((double)(n - m) + 0.5) * log(z / w) + (double)(y - m) * log(w * r / (x1 * q)) +
                 (13680. - (462. - (132. - (99. - 140. / f2) / f2) / f2) / f2) / f1 / 166320. +
                 (13680. - (462. - (132. - (99. - 140. / z2) / z2) / z2) / z2) / z / 166320. +
                 (13680. - (462. - (132. - (99. - 140. / x2) / x2) / x2) / x2) / x1 / 166320. +
                 (13680. - (462. - (132. - (99. - 140. / w2) / w2) / w2) / w2) / w / 166320.))
            continue;
        return p > 0.5 ? n - y : y;
    }
}

/* _pcg_dist(state, kind, n, p1, p2) -> a tensor of n draws: kind 0 standard
   exponentials, 1 standard gammas of shape p1, 2 betas (p1, p2), 3 Poissons of
   lam p1 (int64), 4 binomials of n=p1, p=p2 (int64: inversion up to n*min(p, 1-p)
   = 30, BTPE past it, as NumPy picks), 5 raw uint32 words (int64) */
nn_object *repl_np_pcg_dist(void *ud, nn_object *args, nn_object *kwargs)
{
    pcg g;
    int64_t kind, n;
    double p1, p2;
    if (repl_mod_nargs("_pcg_dist", args, kwargs, 5, 5) < 0 || pcg_load(nn_tuple_get(args, 0), &g) < 0 ||
        repl_mod_int(nn_tuple_get(args, 1), &kind) < 0 || repl_mod_int(nn_tuple_get(args, 2), &n) < 0 ||
        repl_mod_real(nn_tuple_get(args, 3), &p1) < 0 || repl_mod_real(nn_tuple_get(args, 4), &p2) < 0)
        return NULL;
    if (kind < 0 || kind > 5) {
        repl_raise_exc(EXC_ValueError, "_pcg_dist: unknown kind");
        return NULL;
    }
    int64_t sizes[1] = {n < 0 ? 0 : n};
    bool ints = kind >= 3;
    nn_tensor *t = nn_empty_on(NN_DEVICE_CPU, 1, sizes, ints ? NN_INT64 : NN_FLOAT64); /* host memory */
    if (!t) return NULL;
    double *d = nn_host_borrow(t);
    int64_t *iv = nn_host_borrow(t);
    for (int64_t i = 0; i < sizes[0]; i++) {
        switch (kind) {
        case 0: d[i] = standard_exponential(&g); break;
        case 1: d[i] = standard_gamma(&g, p1); break;
        case 2: d[i] = beta(&g, p1, p2); break;
        case 3: iv[i] = poisson(&g, p1); break;
        case 4: {
            int64_t trials = (int64_t)p1;
            double q2 = 1.0 - p2;
            if (trials == 0 || p2 == 0.0) iv[i] = 0;
            else if (p2 <= 0.5) iv[i] = p2 * (double)trials <= 30.0 ? binomial_inversion(&g, trials, p2)
                                                                   : binomial_btpe(&g, trials, p2);
            else iv[i] = trials - (q2 * (double)trials <= 30.0 ? binomial_inversion(&g, trials, q2)
                                                               : binomial_btpe(&g, trials, q2));
            break;
        }
        default: iv[i] = next32(&g); break;
        }
    }
    pcg_store(&g);
    return (nn_object *)t;
}
