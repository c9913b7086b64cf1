/*
 * cpu/sample.c — the CPU's `sample` kernel (core/kernels.def, nn_sample_op):
 * exponential_, bernoulli with a tensor of probabilities, multinomial (with and
 * without replacement), poisson, binomial and the standard gamma (_standard_gamma, _sample_dirichlet), drawing from the generator a->gen in the
 * order PyTorch 1.13's CPU kernels draw, so a seeded script gives torch's
 * samples. Moved from sampling.c and poisson.c; the op files validate, lay the
 * operands out contiguous and allocate.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn_cpu.h"

/* at::exponential_distribution<double>: -1/lambda * log(1 - u), u a double
   uniform; one draw per element in memory order, stored in the dtype */
static void exponential_fill(char *d, nn_dtype dt, int64_t n, double lambd, nn_generator *g)
{
    size_t es = nn_dtype_size(dt);
    for (int64_t i = 0; i < n; i++) {
        double u = nn_generator_uniform(g);
        nn_store_double(d + (size_t)i * es, dt, -1.0 / lambd * log(1.0 - u));
    }
}

/* bernoulli_tensor_cpu_kernel: one uniform per element (float for a float
   p, double for a float64 p), 1 when it is below p. */
static int bernoulli(nn_kernel_args *a)
{
    const nn_tensor *p = a->t[1];
    int64_t n = nn_numel(p);
    const char *src = nn_data_ptr(p);
    char *dst = nn_data_ptr(a->t[0]);
    size_t es = nn_dtype_size(p->dtype);
    for (int64_t i = 0; i < n; i++) {
        double pv = nn_load_double(src + (size_t)i * es, p->dtype);
        bool one = p->dtype == NN_FLOAT64 ? nn_generator_uniform(a->gen) < pv
                                          : nn_generator_uniform_float(a->gen) < (float)pv;
        nn_store_double(dst + (size_t)i * es, p->dtype, one ? 1.0 : 0.0);
    }
    return 0;
}

typedef struct keyed {
    double v;
    int64_t i;
} keyed;

/* topk's order: larger first; equal values by index */
static int by_value_desc(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->v != y->v) return x->v > y->v ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* Without replacement (1.13's fast path): its sanity checks on the whole tensor,
   then q ~ Exp(1) of probs' shape and the top n_samples of probs / q per row
   (torch's Gumbel-top-k). */
static int sample_topk(const nn_tensor *pc, int64_t rows, int64_t cats, int64_t n_samples, int64_t *out, nn_generator *g)
{
    const char *pd = nn_data_ptr(pc);
    size_t es = nn_dtype_size(pc->dtype);
    for (int64_t i = 0; i < rows * cats; i++) {
        double v = nn_load_double(pd + (size_t)i * es, pc->dtype);
        if (!(v < INFINITY && v >= 0))
            return nn_error_set(NN_ERR_RUNTIME, "probability tensor contains either `inf`, `nan` or element < 0");
    }
    for (int64_t r = 0; r < rows; r++) {
        double sum = 0;
        for (int64_t j = 0; j < cats; j++) sum += nn_load_double(pd + (size_t)(r * cats + j) * es, pc->dtype);
        if (sum == 0) return nn_error_set(NN_ERR_RUNTIME, "invalid multinomial distribution (sum of probabilities <= 0)");
    }
    int64_t total = rows * cats;
    char *qd = nn_malloc(es * (size_t)(total ? total : 1));
    keyed *k = qd ? nn_malloc(sizeof(keyed) * (size_t)cats) : NULL;
    if (!k) {
        nn_free(qd);
        return -1;
    }
    exponential_fill(qd, pc->dtype, rows * cats, 1.0, g);
    for (int64_t r = 0; r < rows; r++) {
        for (int64_t j = 0; j < cats; j++) {
            size_t off = (size_t)(r * cats + j) * es;
            double pv = nn_load_double(pd + off, pc->dtype), qv = nn_load_double(qd + off, pc->dtype);
            /* the division in the input's dtype */
            double v = pc->dtype == NN_FLOAT64 ? pv / qv : (double)((float)pv / (float)qv);
            k[j] = (keyed){v != v ? INFINITY : v, j};
        }
        qsort(k, (size_t)cats, sizeof *k, by_value_desc);
        for (int64_t j = 0; j < n_samples; j++) out[r * n_samples + j] = k[j].i;
    }
    nn_free(k);
    nn_free(qd);
    return 0;
}

/* multinomial_with_replacement_apply: a normalised cumulative distribution
   per row in the input's dtype, then one double uniform per sample and a
   binary search. */
static int sample_cdf(const nn_tensor *pc, int64_t rows, int64_t cats, int64_t n_samples, int64_t *out, nn_generator *g)
{
    double *cum = nn_malloc(sizeof(double) * (size_t)cats);
    if (!cum) return -1;
    const char *pd = nn_data_ptr(pc);
    size_t es = nn_dtype_size(pc->dtype);
    bool f64 = pc->dtype == NN_FLOAT64;
    int rc = 0;
    for (int64_t r = 0; r < rows && rc == 0; r++) {
        double sum = 0;
        float sumf = 0;
        for (int64_t j = 0; j < cats; j++) {
            double v = nn_load_double(pd + (size_t)(r * cats + j) * es, pc->dtype);
            if (!(v >= 0) && !isnan(v)) {
                rc = nn_error_set(NN_ERR_RUNTIME, "invalid multinomial distribution (encountering probability entry < 0)");
                break;
            }
            if (!isfinite(v)) {
                rc = nn_error_set(NN_ERR_RUNTIME,
                                  "invalid multinomial distribution (encountering probability entry = infinity or NaN)");
                break;
            }
            if (f64)
                cum[j] = sum += v;
            else
                cum[j] = sumf += (float)v;
        }
        if (rc) break;
        double total = f64 ? sum : sumf;
        if (!(total > 0)) {
            rc = nn_error_set(NN_ERR_RUNTIME, "invalid multinomial distribution (sum of probabilities <= 0)");
            break;
        }
        for (int64_t j = 0; j < cats; j++) cum[j] = f64 ? cum[j] / total : (double)((float)cum[j] / (float)total);
        for (int64_t s = 0; s < n_samples; s++) {
            double u = nn_generator_uniform(g);
            cum[cats - 1] = 1;
            int64_t lo = 0, hi = cats;
            while (hi - lo > 0) {
                int64_t mid = lo + (hi - lo) / 2;
                if (cum[mid] < u)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            out[r * n_samples + s] = lo;
        }
    }
    nn_free(cum);
    return rc;
}

/* ATen's sample_poisson (NumPy's algorithms: the product of uniforms below rate
   10, Hoermann's transformed rejection from 10 up) */
static int64_t sample_poisson(double lambda, nn_generator *g)
{
    if (lambda >= 10) {
        double slam = sqrt(lambda), loglam = log(lambda);
        double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
        double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
        for (;;) {
            double u = nn_generator_uniform(g) - 0.5, v = nn_generator_uniform(g);
            double us = 0.5 - fabs(u);
            int64_t k = (int64_t)floor((2 * a / us + b) * u + lambda + 0.43);
            if (us >= 0.07 && v <= vr) return k;
            if (k < 0 || (us < 0.013 && v > us)) continue;
            if (log(v) + log(invalpha) - log(a / (us * us) + b) <= -lambda + (double)k * loglam - lgamma((double)k + 1))
                return k;
        }
    }
    if (lambda == 0) return 0;
    double enlam = exp(-lambda), prod = 1.0;
    int64_t x = 0;
    for (;;) {
        prod *= nn_generator_uniform(g);
        if (!(prod > enlam)) return x;
        x++;
    }
}

static int poisson(nn_kernel_args *a)
{
    const nn_tensor *c = a->t[1];
    int64_t n = nn_numel(c);
    const char *src = nn_data_ptr(c);
    char *dst = nn_data_ptr(a->t[0]);
    size_t es = nn_dtype_size(c->dtype);
    for (int64_t i = 0; i < n; i++) {
        double lambda = nn_load_double(src + (size_t)i * es, c->dtype);
        if (!(lambda >= 0)) /* NaN fails the check too, as ATen's TORCH_CHECK(lambda >= 0) */
            return nn_error_set(NN_ERR_RUNTIME, "invalid Poisson rate, expected rate to be non-negative");
        nn_store_double(dst + (size_t)i * es, c->dtype, (double)sample_poisson(lambda, a->gen));
    }
    return 0;
}

/* at::normal_distribution<double>(0, 1): Box-Muller on two double uniforms, the sine
   half kept in the generator for the next draw */
static double standard_normal(nn_generator *g)
{
    if (g->has_next_double_normal) {
        g->has_next_double_normal = false;
        return g->next_double_normal;
    }
    double u1 = nn_generator_uniform(g), u2 = nn_generator_uniform(g);
    double r = sqrt(-2.0 * log(1.0 - u2)), theta = 2.0 * 3.14159265358979323846 * u1;
    g->next_double_normal = r * sin(theta);
    g->has_next_double_normal = true;
    return r * cos(theta);
}

/* ATen's sample_gamma (Marsaglia and Tsang, with alpha < 1 boosted by u^(1/alpha)) in
   double, where the float literals of its source (1.0f / 3.0f, 0.0331f) keep their float
   values and, for float32, alpha's own steps (alpha + 1, alpha - 1/3) round to float */
static double sample_gamma(double alpha_in, bool f32, nn_generator *g)
{
    double scale = 1.0, alpha = alpha_in;
    if (alpha < 1.0) {
        if (alpha == 0) return 0;
        double inv = f32 ? (double)(1.0f / (float)alpha) : 1.0 / alpha;
        scale *= pow(1 - nn_generator_uniform(g), inv);
        alpha = f32 ? (double)((float)alpha + 1.0f) : alpha + 1.0;
    }
    const double d = f32 ? (double)((float)alpha - 1.0f / 3.0f) : alpha - (double)(1.0f / 3.0f);
    if (!(d > 0)) return NAN; /* a NaN or negative concentration: ATen's loop would never end */
    const double c = 1.0 / sqrt(9.0 * d);
    for (;;) {
        double x, y;
        do {
            x = standard_normal(g);
            y = 1.0 + c * x;
        } while (y <= 0);
        const double v = y * y * y;
        const double u = 1 - nn_generator_uniform(g);
        const double xx = x * x;
        if (u < 1.0 - (double)0.0331f * xx * xx) return scale * d * v;
        if (log(u) < 0.5 * xx + d * (1.0 - v + log(v))) return scale * d * v;
    }
}

/* _standard_gamma (the dtype's smallest normal number at least) or, with i[0], the
   float64 draws of _sample_dirichlet's first pass (DBL_MIN at least) */
static int standard_gamma(nn_kernel_args *a)
{
    const nn_tensor *c = a->t[1];
    nn_tensor *out = a->t[0];
    int64_t n = nn_numel(c);
    const char *src = nn_data_ptr(c);
    char *dst = nn_data_ptr(out);
    size_t es = nn_dtype_size(c->dtype), os = nn_dtype_size(out->dtype);
    bool f32 = !a->i[0] && c->dtype == NN_FLOAT32;
    for (int64_t i = 0; i < n; i++) {
        double alpha = nn_load_double(src + (size_t)i * es, c->dtype);
        double v = sample_gamma(alpha, f32, a->gen);
        if (f32) { /* std::max(min, sample): a NaN gives the minimum too */
            float fv = (float)v;
            v = FLT_MIN < fv ? fv : FLT_MIN;
        } else {
            v = DBL_MIN < v ? v : DBL_MIN;
        }
        nn_store_double(dst + (size_t)i * os, out->dtype, v);
    }
    return 0;
}

/* Stirling's series tail log(k!) - log(sqrt(2 pi)) - (k + 1/2) log(k + 1) + (k + 1), tabulated to 9 */
static double stirling_tail(double k)
{
    static const double tail[] = {0.0810614667953272,  0.0413406959554092,  0.0276779256849983,
                                  0.02079067210376509, 0.0166446911898211,  0.0138761288230707,
                                  0.0118967099458917,  0.0104112652619720,  0.00925546218271273,
                                  0.00833056343336287};
    if (k <= 9) return tail[(size_t)k];
    double kp1sq = (k + 1) * (k + 1);
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1);
}

/* a value of the sample's dtype: float32 rounds where ATen's scalar_t does */
static double as_dtype(double v, bool f32) { return f32 ? (double)(float)v : v; }

/* count draws of geometric gaps until they pass count (fewer than 10 expected successes) */
static double binomial_inversion(double count, double prob, bool f32, nn_generator *g)
{
    /* std::log1p of the dtype's prob: log1pf for float32 */
    double geom_sum = 0, num_geom = 0, logprob = f32 ? (double)log1pf(-(float)prob) : log1p(-prob);
    for (;;) {
        double u = nn_generator_uniform(g);
        geom_sum += ceil(log(u) / logprob);
        if (geom_sum > count) return num_geom;
        num_geom = as_dtype(num_geom + 1, f32);
    }
}

/* Hormann's transformed rejection with squeeze (BTRS), as ATen writes it */
static double binomial_btrs(double count, double prob, bool f32, nn_generator *g)
{
    /* std::sqrt and std::floor of float32 operands are the float functions */
    const double var = as_dtype(as_dtype(count * prob, f32) * as_dtype(1 - prob, f32), f32);
    const double stddev = f32 ? (double)sqrtf((float)var) : sqrt(var);
    const double b = 1.15 + 2.53 * stddev;
    const double a = -0.0873 + 0.0248 * b + 0.01 * prob;
    const double c = as_dtype(count * prob, f32) + 0.5;
    const double v_r = 0.92 - 4.2 / b;
    const double r = as_dtype(prob / as_dtype(1 - prob, f32), f32);
    const double alpha = (2.83 + 5.1 / b) * stddev;
    const double m = floor(as_dtype(as_dtype(count + 1, f32) * prob, f32));
    for (;;) {
        double u = nn_generator_uniform(g) - 0.5, v = nn_generator_uniform(g);
        double us = 0.5 - fabs(u);
        double k = as_dtype(floor((2 * a / us + b) * u + c), f32);
        if (k < 0 || k > count) continue;
        if (us >= 0.07 && v <= v_r) return k;
        v = log(v * alpha / (a / (us * us) + b));
        double nk1 = as_dtype(as_dtype(count - k, f32) + 1, f32), k1 = as_dtype(k + 1, f32);
        double upper = (m + 0.5) * log((m + 1) / (r * (count - m + 1))) + (count + 1) * log((count - m + 1) / nk1) +
                       (k + 0.5) * log(r * nk1 / k1) + stirling_tail(m) + stirling_tail(count - m) - stirling_tail(k) -
                       stirling_tail(as_dtype(count - k, f32));
        if (v <= upper) return k;
    }
}

static double sample_binomial(double count, double prob, bool f32, nn_generator *g)
{
    if (count <= 0.0 || prob <= 0.0) return 0;
    if (prob >= 1.0) return count;
    if (prob <= 0.5) {
        return as_dtype(count * prob, f32) >= 10.0 ? binomial_btrs(count, prob, f32, g)
                                                    : binomial_inversion(count, prob, f32, g);
    }
    if (prob > 0.5) {
        double q = as_dtype(1.0 - prob, f32);
        double k = as_dtype(count * q, f32) >= 10.0 ? binomial_btrs(count, q, f32, g) : binomial_inversion(count, q, f32, g);
        return count - k;
    }
    return NAN;
}

static int binomial(nn_kernel_args *a)
{
    const nn_tensor *cnt = a->t[1], *pr = a->t[2];
    nn_tensor *out = a->t[0];
    int64_t n = nn_numel(out);
    const char *cs = nn_data_ptr(cnt), *ps = nn_data_ptr(pr);
    char *dst = nn_data_ptr(out);
    size_t es = nn_dtype_size(out->dtype);
    bool f32 = out->dtype == NN_FLOAT32;
    for (int64_t i = 0; i < n; i++) {
        double count = nn_load_double(cs + (size_t)i * es, cnt->dtype), prob = nn_load_double(ps + (size_t)i * es, pr->dtype);
        if (!isfinite(count) || count > 1e15) /* ATen's loop would not end on an infinite count */
            return nn_error_set(NN_ERR_RUNTIME, "binomial: count must be finite (got %g)", count);
        nn_store_double(dst + (size_t)i * es, out->dtype, sample_binomial(count, prob, f32, a->gen));
    }
    return 0;
}

int nn_cpu_sample(nn_sample_op op, nn_kernel_args *a)
{
    switch (op) {
    case NN_SAMPLE_EXPONENTIAL:
        exponential_fill(nn_data_ptr(a->t[0]), a->t[0]->dtype, nn_numel(a->t[0]), a->d[0], a->gen);
        return 0;
    case NN_SAMPLE_BERNOULLI: return bernoulli(a);
    case NN_SAMPLE_MULTINOMIAL:
        return a->i[3] ? sample_cdf(a->t[1], a->i[0], a->i[1], a->i[2], nn_data_ptr(a->t[0]), a->gen)
                       : sample_topk(a->t[1], a->i[0], a->i[1], a->i[2], nn_data_ptr(a->t[0]), a->gen);
    case NN_SAMPLE_POISSON: return poisson(a);
    case NN_SAMPLE_GAMMA: return standard_gamma(a);
    case NN_SAMPLE_BINOMIAL: return binomial(a);
    case NN_SAMPLE_GAMMA_GRAD: return nn_cpu_standard_gamma_grad(a);
    case NN_SAMPLE_DIRICHLET_GRAD: return nn_cpu_dirichlet_grad(a);
    case NN_SAMPLE_CAUCHY:
    case NN_SAMPLE_GEOMETRIC:
    case NN_SAMPLE_LOG_NORMAL: return nn_cpu_sample_more(op, a);
    }
    return nn_error_set(NN_ERR_RUNTIME, "sample kernel: unknown op code %d", (int)op);
}
