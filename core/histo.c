/*
 * histo.c — counting ops, none differentiable: unique and
 * unique_consecutive (flattened or along a dim, with inverse indices and
 * counts), bincount, histc, histogram and nonzero.
 *
 * Host loops over contiguous copies. Values compare as int64 for int64
 * tensors and as double otherwise, so every dtype keeps exact keys. histc and
 * histogram place an element as ATen's histogramdd kernel does, in the
 * input's float type: pos = (x - lo) * bins / (hi - lo), the last edge
 * inclusive, histogram then corrected against the edges themselves.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn_int.h"
#include "nn_select_more.h"

/* ---------------------------------------------------------------- unique */

typedef struct slice_key {
    const char *p; /* the slice's first element */
    int64_t i;     /* its position */
} slice_key;

/* what the comparator sees (qsort has no context argument) */
static struct {
    int64_t len, stride; /* elements per slice and their stride */
    nn_dtype dt;
} cmp_ctx;

static int cmp_elem(const char *x, const char *y, nn_dtype dt)
{
    if (dt == NN_INT64) {
        int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
        return (a > b) - (a < b);
    }
    double a = nn_load_double(x, dt), b = nn_load_double(y, dt);
    return (a > b) - (a < b);
}

static int cmp_slices(const char *x, const char *y)
{
    size_t es = nn_dtype_size(cmp_ctx.dt);
    for (int64_t j = 0; j < cmp_ctx.len; j++) {
        int c = cmp_elem(x + (size_t)(j * cmp_ctx.stride) * es, y + (size_t)(j * cmp_ctx.stride) * es, cmp_ctx.dt);
        if (c) return c;
    }
    return 0;
}

static int cmp_keys(const void *a, const void *b)
{
    const slice_key *x = a, *y = b;
    int c = cmp_slices(x->p, y->p);
    return c ? c : (x->i > y->i) - (x->i < y->i);
}

int nn_unique(nn_tensor *a, bool consecutive, bool has_dim, int dim, nn_tensor **values, nn_tensor **inverse,
              nn_tensor **counts)
{
    *values = NULL;
    if (inverse) *inverse = NULL;
    if (counts) *counts = NULL;
    int d = 0;
    if (has_dim && nn_wrap_dim(dim, a->ndim ? a->ndim : 1, &d) < 0) return -1;
    nn_tensor *c = nn_plain_as(a, a->dtype);
    if (!c) return -1;
    /* slices: n of them, each len elements `stride` apart, slice k starting at
       (k / inner) * len * inner + k % inner ... kept simple: move dim to front */
    if (has_dim && a->ndim > 1 && d != 0) {
        nn_tensor *m = NULL;
        NN_WITH_GRAD_MODE(false, {
            nn_tensor *tr = nn_transpose(c, 0, d);
            m = tr ? nn_contiguous(tr) : NULL;
            NN_RELEASE(tr);
        });
        NN_RELEASE(c);
        if (!m) return -1;
        c = m;
    }
    int64_t total = nn_numel(c), n = has_dim && a->ndim ? c->sizes[0] : total;
    int64_t len = n ? total / n : 0;
    if (!has_dim) len = 1;
    size_t es = nn_dtype_size(a->dtype);
    slice_key *k = nn_malloc(sizeof(slice_key) * (size_t)(n ? n : 1));
    int64_t *inv = nn_malloc(sizeof(int64_t) * (size_t)(n ? n : 1));
    int64_t *cnt = nn_malloc(sizeof(int64_t) * (size_t)(n ? n : 1));
    if (!k || !inv || !cnt) {
        nn_free(k);
        nn_free(inv);
        nn_free(cnt);
        NN_RELEASE(c);
        return -1;
    }
    const char *base = nn_data_ptr(c);
    for (int64_t i = 0; i < n; i++) k[i] = (slice_key){base + (size_t)(i * len) * es, i};
    cmp_ctx.len = len;
    cmp_ctx.stride = 1;
    cmp_ctx.dt = a->dtype;
    if (!consecutive) qsort(k, (size_t)n, sizeof *k, cmp_keys);
    int64_t m = 0; /* unique slices; k[first of each] kept at k[0..m) */
    for (int64_t i = 0; i < n; i++) {
        if (i == 0 || cmp_slices(k[i].p, k[m - 1].p) != 0) {
            k[m] = (slice_key){k[i].p, k[i].i};
            cnt[m++] = 0;
        }
        cnt[m - 1]++;
        inv[k[i].i] = m - 1;
    }
    int64_t sizes[NN_MAX_DIMS];
    int ndim = 1;
    sizes[0] = m;
    if (has_dim && a->ndim) {
        ndim = c->ndim;
        for (int i = 1; i < c->ndim; i++) sizes[i] = c->sizes[i];
    }
    nn_tensor *v = nn_empty(ndim, sizes, a->dtype);
    if (v)
        for (int64_t i = 0; i < m; i++) memcpy((char *)nn_data_ptr(v) + (size_t)(i * len) * es, k[i].p, (size_t)len * es);
    if (v && has_dim && a->ndim > 1 && d != 0) {
        nn_tensor *back = NULL;
        NN_WITH_GRAD_MODE(false, {
            nn_tensor *tr = nn_transpose(v, 0, d);
            back = tr ? nn_contiguous(tr) : NULL;
            NN_RELEASE(tr);
        });
        NN_SET(v, back);
    }
    int rc = v ? 0 : -1;
    if (v && inverse) {
        int64_t isz = n;
        *inverse = has_dim ? nn_from_data(inv, 1, &isz, NN_INT64) : nn_from_data(inv, a->ndim, a->sizes, NN_INT64);
        if (!*inverse) rc = -1;
    }
    if (rc == 0 && counts) {
        *counts = nn_from_data(cnt, 1, &m, NN_INT64);
        if (!*counts) rc = -1;
    }
    nn_free(k);
    nn_free(inv);
    nn_free(cnt);
    NN_RELEASE(c);
    if (rc < 0) {
        NN_RELEASE(v);
        if (inverse) NN_SET(*inverse, NULL);
        if (counts) NN_SET(*counts, NULL);
        return -1;
    }
    *values = v;
    return 0;
}

/* -------------------------------------------------------------- bincount */

nn_tensor *nn_bincount(nn_tensor *a, nn_tensor *weights, int64_t minlength)
{
    if (a->dtype == NN_FLOAT32 || a->dtype == NN_FLOAT64 || a->dtype == NN_FLOAT16 || a->dtype == NN_BFLOAT16) {
        nn_error_set(NN_ERR_RUNTIME, "\"bincount_cpu\" not implemented for '%s'", nn_dtype_scalar_name(a->dtype));
        return NULL;
    }
    if (minlength < 0) {
        nn_error_set(NN_ERR_RUNTIME, "minlength should be >= 0");
        return NULL;
    }
    nn_tensor *c = nn_plain_as(a, NN_INT64);
    if (!c) return NULL;
    const int64_t *x = nn_data_ptr(c);
    int64_t n = nn_numel(c), top = -1;
    bool ok = a->ndim == 1;
    for (int64_t i = 0; ok && i < n; i++) {
        if (x[i] < 0) ok = false;
        if (x[i] > top) top = x[i];
    }
    if (!ok) {
        NN_RELEASE(c);
        nn_error_set(NN_ERR_RUNTIME, "bincount only supports 1-d non-negative integral inputs.");
        return NULL;
    }
    if (weights && (weights->ndim != 1 || weights->sizes[0] != n)) {
        NN_RELEASE(c);
        nn_error_set(NN_ERR_RUNTIME, "weights should be 1-d and have the same length as input");
        return NULL;
    }
    int64_t len = top + 1 > minlength ? top + 1 : minlength;
    if (n == 0 && !weights) len = minlength;
    nn_dtype wdt = !weights ? NN_INT64 : weights->dtype == NN_FLOAT32 ? NN_FLOAT32 : NN_FLOAT64;
    nn_tensor *w = weights ? nn_plain_as(weights, wdt) : NULL;
    nn_tensor *out = !weights || w ? nn_zeros(1, &len, wdt) : NULL;
    if (out) {
        if (!weights) {
            int64_t *o = nn_data_ptr(out);
            for (int64_t i = 0; i < n; i++) o[x[i]]++;
        } else if (wdt == NN_FLOAT32) {
            float *o = nn_data_ptr(out);
            const float *wv = nn_data_ptr(w);
            for (int64_t i = 0; i < n; i++) o[x[i]] += wv[i];
        } else {
            double *o = nn_data_ptr(out);
            const double *wv = nn_data_ptr(w);
            for (int64_t i = 0; i < n; i++) o[x[i]] += wv[i];
        }
    }
    NN_RELEASE(w);
    NN_RELEASE(c);
    return out;
}

/* ------------------------------------------------------ histc / histogram */

static bool is_float(nn_dtype dt) { return nn_dtype_is_floating(dt); }

/* min and max of the finite... of all elements (NaN skipped) */
static void data_range(const nn_tensor *c, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    size_t es = nn_dtype_size(c->dtype);
    for (int64_t i = 0; i < nn_numel(c); i++) {
        double v = nn_load_double((const char *)nn_data_ptr(c) + (size_t)i * es, c->dtype);
        if (v < *lo) *lo = v;
        if (v > *hi) *hi = v;
    }
    if (*lo > *hi) *lo = *hi = 0;
}

/* The bin of v among bins equal bins over [lo, hi] (-1: outside), in float
   arithmetic for float32 inputs as ATen's kernel computes it. */
static int64_t linear_bin(double v, double lo, double hi, int64_t bins, bool f32)
{
    if (!(v >= lo && v <= hi)) return -1;
    int64_t pos;
    if (f32) {
        float fv = (float)v, flo = (float)lo, fhi = (float)hi;
        pos = (int64_t)((fv - flo) * (float)bins / (fhi - flo));
    } else {
        pos = (int64_t)((v - lo) * (double)bins / (hi - lo));
    }
    if (pos >= bins) pos = bins - 1;
    if (pos < 0) pos = 0;
    return pos;
}

nn_tensor *nn_histc(nn_tensor *a, int64_t bins, double min, double max)
{
    if (!is_float(a->dtype)) {
        nn_error_set(NN_ERR_RUNTIME, "\"histogram_cpu\" not implemented for '%s'", nn_dtype_scalar_name(a->dtype));
        return NULL;
    }
    if (bins <= 0) {
        nn_error_set(NN_ERR_RUNTIME, "torch.histogram(): bins must be > 0, but got %lld for dimension 0", (long long)bins);
        return NULL;
    }
    if (min > max) {
        nn_error_set(NN_ERR_RUNTIME, "torch.histc: max must be larger than min");
        return NULL;
    }
    nn_tensor *c = nn_plain_as(a, a->dtype);
    if (!c) return NULL;
    if (min == max) {
        if (nn_numel(c)) data_range(c, &min, &max);
        if (min == max) {
            min -= 1;
            max += 1;
        }
    }
    bool f32 = a->dtype != NN_FLOAT64;
    if (f32) {
        min = (float)min;
        max = (float)max;
    }
    nn_tensor *out = nn_zeros(1, &bins, a->dtype);
    if (out) {
        double *h = nn_calloc((size_t)bins, sizeof(double));
        size_t es = nn_dtype_size(a->dtype);
        for (int64_t i = 0; h && i < nn_numel(c); i++) {
            int64_t b = linear_bin(nn_load_double((const char *)nn_data_ptr(c) + (size_t)i * es, a->dtype), min, max,
                                   bins, f32);
            if (b >= 0) h[b] += 1;
        }
        for (int64_t b = 0; h && b < bins; b++) nn_store_double((char *)nn_data_ptr(out) + (size_t)b * es, a->dtype, h[b]);
        if (!h) NN_SET(out, NULL);
        nn_free(h);
    }
    NN_RELEASE(c);
    return out;
}

int nn_histogram(nn_tensor *a, nn_tensor *edges_in, int64_t bins, bool has_range, double lo, double hi,
                 nn_tensor *weight, bool density, nn_tensor **hist, nn_tensor **edges)
{
    *hist = *edges = NULL;
    if (!is_float(a->dtype))
        return nn_error_set(NN_ERR_RUNTIME, "\"histogramdd\" not implemented for '%s'", nn_dtype_scalar_name(a->dtype));
    if (weight && (weight->ndim != a->ndim || memcmp(weight->sizes, a->sizes, sizeof(int64_t) * (size_t)a->ndim)))
        return nn_error_set(NN_ERR_RUNTIME, "torch.histogramdd(): if weight tensor is provided it should have the same "
                                            "shape as the input tensor excluding its innermost dimension");
    nn_tensor *c = nn_plain_as(a, a->dtype), *w = c && weight ? nn_plain_as(weight, a->dtype) : NULL;
    if (!c || (weight && !w)) {
        NN_RELEASE(c);
        return -1;
    }
    nn_tensor *e = NULL;
    if (edges_in) {
        if (edges_in->ndim != 1) {
            NN_RELEASE(c);
            NN_RELEASE(w);
            return nn_error_set(NN_ERR_RUNTIME, "torch.histogramdd(): bins tensor should have one dimension, but got "
                                                "%d dimensions in the bins tensor for dimension 0", edges_in->ndim);
        }
        e = nn_plain_as(edges_in, a->dtype);
        bins = edges_in->sizes[0] - 1;
    } else {
        if (bins <= 0) {
            NN_RELEASE(c);
            NN_RELEASE(w);
            return nn_error_set(NN_ERR_RUNTIME, "torch.histogram(): bins must be > 0, but got %lld for dimension 0",
                                (long long)bins);
        }
        if (!has_range) data_range(c, &lo, &hi);
        if (lo > hi) {
            NN_RELEASE(c);
            NN_RELEASE(w);
            return nn_error_set(NN_ERR_RUNTIME, "torch.histogramdd(): expected min <= max for dimension 0, but got "
                                                "min %g and max %g", lo, hi);
        }
        if (lo == hi) {
            lo -= 0.5;
            hi += 0.5;
        }
        e = nn_linspace(lo, hi, bins + 1, a->dtype);
    }
    int64_t nb = bins > 0 ? bins : 0;
    nn_tensor *h = e ? nn_zeros(1, &nb, a->dtype) : NULL;
    double *acc = h ? nn_calloc((size_t)(nb ? nb : 1), sizeof(double)) : NULL;
    if (acc && nb > 0) {
        size_t es = nn_dtype_size(a->dtype);
        const char *ep = nn_data_ptr(e);
        double first = nn_load_double(ep, a->dtype), last = nn_load_double(ep + (size_t)nb * es, a->dtype);
        bool f32 = a->dtype != NN_FLOAT64;
        for (int64_t i = 0; i < nn_numel(c); i++) {
            double v = nn_load_double((const char *)nn_data_ptr(c) + (size_t)i * es, a->dtype);
            int64_t b = linear_bin(v, first, last, nb, f32);
            if (b < 0) continue;
            /* local search against the edges themselves */
            while (b > 0 && v < nn_load_double(ep + (size_t)b * es, a->dtype)) b--;
            while (b < nb - 1 && v >= nn_load_double(ep + (size_t)(b + 1) * es, a->dtype)) b++;
            acc[b] += w ? nn_load_double((const char *)nn_data_ptr(w) + (size_t)i * es, a->dtype) : 1.0;
        }
        if (density) {
            double total = 0;
            for (int64_t b = 0; b < nb; b++) total += acc[b];
            for (int64_t b = 0; b < nb; b++) {
                double width = nn_load_double(ep + (size_t)(b + 1) * es, a->dtype) - nn_load_double(ep + (size_t)b * es, a->dtype);
                if (f32) acc[b] = (float)((float)acc[b] / (float)total / (float)width);
                else acc[b] = acc[b] / total / width;
            }
        }
        for (int64_t b = 0; b < nb; b++) nn_store_double((char *)nn_data_ptr(h) + (size_t)b * es, a->dtype, acc[b]);
    }
    nn_free(acc);
    NN_RELEASE(c);
    NN_RELEASE(w);
    if (!acc) {
        NN_RELEASE(h);
        NN_RELEASE(e);
        return -1;
    }
    *hist = h;
    *edges = e;
    return 0;
}

/* --------------------------------------------------------------- nonzero */

nn_tensor *nn_nonzero(nn_tensor *a)
{
    nn_tensor *c = nn_plain_as(a, a->dtype);
    if (!c) return NULL;
    int64_t n = nn_numel(c), count = 0;
    size_t es = nn_dtype_size(a->dtype);
    const char *p = nn_data_ptr(c);
    for (int64_t i = 0; i < n; i++) count += nn_load_double(p + (size_t)i * es, a->dtype) != 0;
    int64_t sizes[2] = {count, a->ndim};
    nn_tensor *out = nn_empty(2, sizes, NN_INT64);
    if (out) {
        int64_t *o = nn_data_ptr(out), k = 0;
        for (int64_t i = 0; i < n; i++) {
            if (nn_load_double(p + (size_t)i * es, a->dtype) == 0) continue;
            int64_t rest = i;
            for (int d = a->ndim - 1; d >= 0; d--) {
                o[k * a->ndim + d] = rest % a->sizes[d];
                rest /= a->sizes[d];
            }
            k++;
        }
    }
    NN_RELEASE(c);
    return out;
}
