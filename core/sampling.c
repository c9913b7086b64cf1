/*
 * sampling.c — the samplers beyond random.c's: exponential_, bernoulli with a
 * tensor of probabilities and multinomial, each drawing from the current
 * generator (nn_current_generator: a Generator object's under generator=, else
 * the default) in the order PyTorch 1.13's CPU kernels draw, so a seeded
 * script gives torch's samples.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn_int.h"

/* at::exponential_distribution<double>: -1/lambda * log(1 - u), u a double
   uniform; one draw per element in memory order (cpu_serial_kernel). */
int nn_exponential_(nn_tensor *t, double lambd)
{
    if (nn_check_inplace(t) < 0) return -1;
    if (!(lambd >= 0.0))
        return nn_error_set(NN_ERR_RUNTIME, "exponential_ expects lambda >= 0.0, but found lambda=%g", lambd);
    if (!nn_dtype_is_floating(t->dtype))
        return nn_error_set(NN_ERR_RUNTIME, "\"exponential_cpu\" not implemented for '%s'", nn_dtype_scalar_name(t->dtype));
    nn_tensor *c = nn_is_contiguous(t) ? (nn_tensor *)nn_retain(&t->ob) : nn_empty(t->ndim, t->sizes, t->dtype);
    if (!c) return -1;
    nn_generator *g = nn_current_generator();
    int64_t n = nn_numel(c);
    char *d = nn_data_ptr(c);
    size_t es = nn_dtype_size(c->dtype);
    for (int64_t i = 0; i < n; i++) {
        double u = nn_generator_uniform(g);
        nn_store_double(d + (size_t)i * es, c->dtype, -1.0 / lambd * log(1.0 - u));
    }
    int rc = 0;
    if (c != t) NN_WITH_GRAD_MODE(false, rc = nn_copy_(t, c));
    NN_RELEASE(c);
    if (rc == 0 && c == t) nn_bump_version(t);
    return rc;
}

/* bernoulli_tensor_cpu_kernel: one uniform per element (float for a float
   p, double for a float64 p), 1 when it is below p. */
nn_tensor *nn_bernoulli_tensor(nn_tensor *p)
{
    if (!nn_dtype_is_floating(p->dtype)) {
        nn_error_set(NN_ERR_RUNTIME, "\"bernoulli_tensor_cpu_p_\" not implemented for '%s'", nn_dtype_scalar_name(p->dtype));
        return NULL;
    }
    nn_tensor *pc = NULL;
    NN_WITH_GRAD_MODE(false, pc = nn_contiguous(p));
    if (!pc) return NULL;
    nn_tensor *out = nn_empty(p->ndim, p->sizes, p->dtype);
    if (!out) {
        NN_RELEASE(pc);
        return NULL;
    }
    nn_generator *g = nn_current_generator();
    int64_t n = nn_numel(pc);
    const char *src = nn_data_ptr(pc);
    char *dst = nn_data_ptr(out);
    size_t es = nn_dtype_size(p->dtype);
    for (int64_t i = 0; i < n; i++) {
        double pv = nn_load_double(src + (size_t)i * es, p->dtype);
        bool one = p->dtype == NN_FLOAT64 ? nn_generator_uniform(g) < pv
                                          : nn_generator_uniform_float(g) < (float)pv;
        nn_store_double(dst + (size_t)i * es, p->dtype, one ? 1.0 : 0.0);
    }
    NN_RELEASE(pc);
    return out;
}

/* ------------------------------------------------------------ multinomial */

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

/* Without replacement: q ~ Exp(1) of probs' shape, then the
   top n_samples of probs / q per row (torch's Gumbel-top-k). */
static int sample_topk(const nn_tensor *pc, int64_t rows, int64_t cats, int64_t n_samples, int64_t *out)
{
    nn_tensor *q = nn_empty(pc->ndim, pc->sizes, pc->dtype);
    if (!q) return -1;
    if (nn_exponential_(q, 1.0) < 0) {
        NN_RELEASE(q);
        return -1;
    }
    keyed *k = nn_malloc(sizeof(keyed) * (size_t)cats);
    if (!k) {
        NN_RELEASE(q);
        return -1;
    }
    const char *pd = nn_data_ptr((nn_tensor *)pc), *qd = nn_data_ptr(q);
    size_t es = nn_dtype_size(pc->dtype);
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
    NN_RELEASE(q);
    return 0;
}

/* multinomial_with_replacement_apply: a normalised cumulative distribution
   per row in the input's dtype, then one double uniform per sample and a
   binary search. */
static int sample_cdf(const nn_tensor *pc, int64_t rows, int64_t cats, int64_t n_samples, int64_t *out)
{
    double *cum = nn_malloc(sizeof(double) * (size_t)cats);
    if (!cum) return -1;
    const char *pd = nn_data_ptr((nn_tensor *)pc);
    size_t es = nn_dtype_size(pc->dtype);
    bool f64 = pc->dtype == NN_FLOAT64;
    nn_generator *g = nn_current_generator();
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

nn_tensor *nn_multinomial(nn_tensor *probs, int64_t n_samples, bool replacement)
{
    if (probs->ndim < 1 || probs->ndim > 2) {
        nn_error_set(NN_ERR_RUNTIME, "prob_dist must be 1 or 2 dim");
        return NULL;
    }
    if (!nn_dtype_is_floating(probs->dtype)) {
        nn_error_set(NN_ERR_RUNTIME, "multinomial only supports floating-point dtypes for input, got: %s",
                     nn_dtype_scalar_name(probs->dtype));
        return NULL;
    }
    if (n_samples <= 0) {
        nn_error_set(NN_ERR_RUNTIME, "cannot sample n_sample <= 0 samples");
        return NULL;
    }
    int64_t cats = probs->sizes[probs->ndim - 1], rows = probs->ndim == 2 ? probs->sizes[0] : 1;
    if (!replacement && n_samples > cats) {
        nn_error_set(NN_ERR_RUNTIME, "cannot sample n_sample > prob_dist.size(-1) samples without replacement");
        return NULL;
    }
    if (cats > (int64_t)1 << 24) {
        nn_error_set(NN_ERR_RUNTIME, "number of categories cannot exceed 2^24");
        return NULL;
    }
    int64_t sizes[2] = {rows, n_samples};
    nn_tensor *out = probs->ndim == 2 ? nn_empty(2, sizes, NN_INT64) : nn_empty(1, &n_samples, NN_INT64);
    if (!out || nn_numel(out) == 0) return out;
    nn_tensor *pc = NULL;
    NN_WITH_GRAD_MODE(false, pc = nn_contiguous(probs));
    if (!pc) {
        NN_RELEASE(out);
        return NULL;
    }
    int rc;
    if (!replacement) { /* 1.13's fast path (later versions also take it for one sample with replacement) */
        /* the sanity checks of the fast path, on the whole tensor */
        const char *pd = nn_data_ptr(pc);
        size_t es = nn_dtype_size(pc->dtype);
        rc = 0;
        for (int64_t i = 0; i < rows * cats && rc == 0; i++) {
            double v = nn_load_double(pd + (size_t)i * es, pc->dtype);
            if (!(v < INFINITY && v >= 0))
                rc = nn_error_set(NN_ERR_RUNTIME, "probability tensor contains either `inf`, `nan` or element < 0");
        }
        for (int64_t r = 0; r < rows && rc == 0; r++) {
            double sum = 0;
            for (int64_t j = 0; j < cats; j++) sum += nn_load_double(pd + (size_t)(r * cats + j) * es, pc->dtype);
            if (sum == 0) rc = nn_error_set(NN_ERR_RUNTIME, "invalid multinomial distribution (sum of probabilities <= 0)");
        }
        if (rc == 0) rc = sample_topk(pc, rows, cats, n_samples, nn_data_ptr(out));
    } else {
        rc = sample_cdf(pc, rows, cats, n_samples, nn_data_ptr(out));
    }
    NN_RELEASE(pc);
    if (rc < 0) NN_SET(out, NULL);
    return out;
}

/* ------------------------------------------------- normal with tensors */

/* normal_out_impl: standard normals of the broadcast shape (mean's dtype, or
   std's when mean is a number) times std, plus mean, each rounded. */
nn_tensor *nn_normal_tensor(nn_tensor *mean, double mean_v, nn_tensor *std, double std_v)
{
    if (std) {
        /* CHECK_NORMAL_TENSOR_STD */
        if (nn_numel(std) > 0) {
            nn_tensor *lo = NULL;
            double v = 0;
            NN_WITH_GRAD_MODE(false, lo = nn_min_all(std));
            int rc = lo ? nn_item(lo, &v) : -1;
            NN_RELEASE(lo);
            if (rc < 0) return NULL;
            if (!(v >= 0)) {
                nn_error_set(NN_ERR_RUNTIME, "normal expects all elements of std >= 0.0");
                return NULL;
            }
        }
    } else if (!(std_v >= 0)) {
        nn_error_set(NN_ERR_RUNTIME, "normal expects std >= 0.0, but found std %g", std_v);
        return NULL;
    }
    int ndim = 0;
    int64_t sizes[NN_MAX_DIMS];
    const nn_tensor *like = mean ? mean : std;
    if (mean && std) {
        if (nn_broadcast_shapes(mean->ndim, mean->sizes, std->ndim, std->sizes, &ndim, sizes) < 0) return NULL;
    } else {
        ndim = like->ndim;
        memcpy(sizes, like->sizes, sizeof(int64_t) * (size_t)ndim);
    }
    nn_tensor *z = nn_empty(ndim, sizes, like->dtype), *p = NULL, *r = NULL;
    if (!z || nn_normal_(z, 0.0, 1.0) < 0) {
        NN_RELEASE(z);
        return NULL;
    }
    NN_WITH_GRAD_MODE(false, {
        p = std ? nn_mul(z, std) : nn_mul_scalar(z, std_v);
        r = !p ? NULL : mean ? nn_add(p, mean) : nn_add_scalar(p, mean_v);
    });
    NN_RELEASE(p);
    NN_RELEASE(z);
    return r;
}

/* t.bernoulli_(p) with a tensor p broadcast to t: p's draws cast to t's dtype. */
int nn_bernoulli_tensor_(nn_tensor *t, nn_tensor *p)
{
    if (nn_check_inplace(t) < 0) return -1;
    nn_tensor *pe = NULL, *s = NULL;
    int rc = -1;
    NN_WITH_GRAD_MODE(false, pe = nn_expand(p, t->ndim, t->sizes));
    if (pe && (s = nn_bernoulli_tensor(pe))) NN_WITH_GRAD_MODE(false, rc = nn_copy_(t, s));
    NN_RELEASE(pe);
    NN_RELEASE(s);
    return rc;
}
