/*
 * cpu/histo.c — the CPU's `index` kernel codes of histo.c's ops (core/backend.h's
 * nn_index_op from NN_INDEX_UNIQUE on): unique (sorted or consecutive), bincount,
 * a tensor's data range, histc, histogram and nonzero. Moved from histo.c; the
 * op file validates, lays the operands out contiguous, allocates and records.
 * cpu/select.c dispatches here.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn_cpu.h"
#include "nn_cpu_select.h"

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

/* unique slices of t[3] ([i[1] slices of i[2] elements], contiguous), sorted, or
   runs of equal neighbours when i[0]: t[0] [i[1], i[2]] their first rows (the
   first host[0] of them written), t[1] int64 [i[1]] each slice's group, t[2]
   int64 [i[1]] the groups' sizes (the first host[0]) */
static int unique(nn_kernel_args *a)
{
    bool consecutive = a->i[0];
    int64_t n = a->i[1], len = a->i[2];
    nn_dtype dt = a->t[3]->dtype;
    size_t es = nn_dtype_size(dt);
    slice_key *k = nn_malloc(sizeof(slice_key) * (size_t)(n ? n : 1));
    if (!k) return -1;
    int64_t *inv = nn_data_ptr(a->t[1]), *cnt = nn_data_ptr(a->t[2]);
    const char *base = nn_data_ptr(a->t[3]);
    for (int64_t i = 0; i < n; i++) k[i] = (slice_key){base + (size_t)(i * len) * es, i};
    cmp_ctx.len = len;
    cmp_ctx.stride = 1;
    cmp_ctx.dt = dt;
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
    char *v = nn_data_ptr(a->t[0]);
    for (int64_t i = 0; i < m; i++) memcpy(v + (size_t)(i * len) * es, k[i].p, (size_t)len * es);
    nn_free(k);
    a->host[0] = (double)m;
    return 0;
}

/* t[0] (zeros; int64, or the weights' float32/float64) += 1 or the weight t[2][i]
   at each int64 t[1][i] (in [0, t[0]'s length)) */
static int bincount(nn_kernel_args *a)
{
    const int64_t *x = nn_data_ptr(a->t[1]);
    int64_t n = nn_numel(a->t[1]);
    nn_tensor *out = a->t[0];
    if (!a->t[2]) {
        int64_t *o = nn_data_ptr(out);
        for (int64_t i = 0; i < n; i++) o[x[i]]++;
    } else if (out->dtype == NN_FLOAT32) {
        float *o = nn_data_ptr(out);
        const float *wv = nn_data_ptr(a->t[2]);
        for (int64_t i = 0; i < n; i++) o[x[i]] += wv[i];
    } else {
        double *o = nn_data_ptr(out);
        const double *wv = nn_data_ptr(a->t[2]);
        for (int64_t i = 0; i < n; i++) o[x[i]] += wv[i];
    }
    return 0;
}

/* host[0], host[1] = the least and greatest element of t[1] (NaN skipped; 0, 0 when none) */
static int data_range(nn_kernel_args *a)
{
    const nn_tensor *c = a->t[1];
    double lo = INFINITY, hi = -INFINITY;
    size_t es = nn_dtype_size(c->dtype);
    const char *p = nn_data_ptr(c);
    for (int64_t i = 0; i < nn_numel(c); i++) {
        double v = nn_load_double(p + (size_t)i * es, c->dtype);
        if (v < lo) lo = v;
        if (v > hi) hi = v;
    }
    if (lo > hi) lo = hi = 0;
    a->host[0] = lo;
    a->host[1] = hi;
    return 0;
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

/* histc: t[0] [i[0]] = the counts of t[1]'s elements in i[0] equal bins over [d[0], d[1]] */
static int histc(nn_kernel_args *a)
{
    const nn_tensor *c = a->t[1];
    int64_t bins = a->i[0];
    double min = a->d[0], max = a->d[1];
    bool f32 = c->dtype != NN_FLOAT64;
    double *h = nn_calloc((size_t)bins, sizeof(double));
    if (!h) return -1;
    size_t es = nn_dtype_size(c->dtype);
    const char *p = nn_data_ptr(c);
    for (int64_t i = 0; i < nn_numel(c); i++) {
        int64_t b = linear_bin(nn_load_double(p + (size_t)i * es, c->dtype), min, max, bins, f32);
        if (b >= 0) h[b] += 1;
    }
    char *o = nn_data_ptr(a->t[0]);
    for (int64_t b = 0; b < bins; b++) nn_store_double(o + (size_t)b * es, c->dtype, h[b]);
    nn_free(h);
    return 0;
}

/* histogram: t[0] [i[0]] = the counts (or summed weights t[3], or NULL) of t[1]'s
   elements between the i[0] + 1 edges t[2] (all of one float dtype); a density
   when i[1] */
static int histogram(nn_kernel_args *a)
{
    const nn_tensor *c = a->t[1], *e = a->t[2], *w = a->t[3];
    int64_t nb = a->i[0];
    bool density = a->i[1];
    nn_dtype dt = c->dtype;
    double *acc = nn_calloc((size_t)(nb ? nb : 1), sizeof(double));
    if (!acc) return -1;
    size_t es = nn_dtype_size(dt);
    const char *ep = nn_data_ptr(e), *cp = nn_data_ptr(c), *wp = w ? nn_data_ptr(w) : NULL;
    double first = nn_load_double(ep, dt), last = nn_load_double(ep + (size_t)nb * es, dt);
    bool f32 = dt != NN_FLOAT64;
    for (int64_t i = 0; i < nn_numel(c); i++) {
        double v = nn_load_double(cp + (size_t)i * es, dt);
        int64_t b = linear_bin(v, first, last, nb, f32);
        if (b < 0) continue;
        /* local search against the edges themselves */
        while (b > 0 && v < nn_load_double(ep + (size_t)b * es, dt)) b--;
        while (b < nb - 1 && v >= nn_load_double(ep + (size_t)(b + 1) * es, dt)) b++;
        acc[b] += wp ? nn_load_double(wp + (size_t)i * es, dt) : 1.0;
    }
    if (density) {
        double total = 0;
        for (int64_t b = 0; b < nb; b++) total += acc[b];
        for (int64_t b = 0; b < nb; b++) {
            double width = nn_load_double(ep + (size_t)(b + 1) * es, dt) - nn_load_double(ep + (size_t)b * es, dt);
            if (f32) acc[b] = (float)((float)acc[b] / (float)total / (float)width);
            else acc[b] = acc[b] / total / width;
        }
    }
    char *hp = nn_data_ptr(a->t[0]);
    for (int64_t b = 0; b < nb; b++) nn_store_double(hp + (size_t)b * es, dt, acc[b]);
    nn_free(acc);
    return 0;
}

/* nonzero: t[0] int64 [k, ndim] = the coordinates of t[1]'s nonzero elements, in order */
static int nonzero(nn_kernel_args *a)
{
    const nn_tensor *c = a->t[1];
    int64_t n = nn_numel(c), k = 0;
    size_t es = nn_dtype_size(c->dtype);
    const char *p = nn_data_ptr(c);
    int64_t *o = nn_data_ptr(a->t[0]);
    for (int64_t i = 0; i < n; i++) {
        if (nn_load_double(p + (size_t)i * es, c->dtype) == 0) continue;
        int64_t rest = i;
        for (int d = c->ndim - 1; d >= 0; d--) {
            o[k * c->ndim + d] = rest % c->sizes[d];
            rest /= c->sizes[d];
        }
        k++;
    }
    return 0;
}

int nn_cpu_index_histo_ops(nn_index_op op, nn_kernel_args *a)
{
    switch (op) {
    case NN_INDEX_UNIQUE: return unique(a);
    case NN_INDEX_BINCOUNT: return bincount(a);
    case NN_INDEX_DATA_RANGE: return data_range(a);
    case NN_INDEX_HISTC: return histc(a);
    case NN_INDEX_HISTOGRAM: return histogram(a);
    case NN_INDEX_NONZERO: return nonzero(a);
    default: return nn_cpu_index_more_ops(op, a);
    }
}
