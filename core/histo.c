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

#include "backend.h"
#include "nn_half.h"
#include "nn_int.h"
#include "nn_select_more.h"

/* ---------------------------------------------------------------- unique */

int nn_unique(nn_tensor *a, bool consecutive, bool has_dim, int dim, nn_tensor **values, nn_tensor **inverse,
              nn_tensor **counts)
{
    *values = NULL;
    if (inverse) *inverse = NULL;
    if (counts) *counts = NULL;
    int d = 0;
    if (nn_refuse_half(has_dim ? "unique_dim" : "unique", a->dtype, false) < 0) return -1;
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
    nn_device dev = nn_device_of(c);
    int64_t all_sizes[2] = {n, len};
    nn_tensor *all = nn_empty_on(dev, 2, all_sizes, a->dtype);
    nn_tensor *inv = all ? nn_empty_on(dev, 1, &n, NN_INT64) : NULL, *cnt = inv ? nn_empty_on(dev, 1, &n, NN_INT64) : NULL;
    nn_kernel_args ka = {.t = {all, inv, cnt, c}, .i = {consecutive, n, len}};
    if (!cnt || NN_KERNEL(nn_backend_of(c), index, (NN_INDEX_UNIQUE, &ka)) < 0) {
        NN_RELEASE(all);
        NN_RELEASE(inv);
        NN_RELEASE(cnt);
        NN_RELEASE(c);
        return -1;
    }
    int64_t m = (int64_t)ka.host[0]; /* unique slices: the first m rows of all */
    int64_t sizes[NN_MAX_DIMS];
    int ndim = 1;
    sizes[0] = m;
    if (has_dim && a->ndim) {
        ndim = c->ndim;
        for (int i = 1; i < c->ndim; i++) sizes[i] = c->sizes[i];
    }
    nn_tensor *v = nn_empty_on(dev, ndim, sizes, a->dtype);
    bool prev = nn_set_grad_enabled(false);
    nn_tensor *first = v ? nn_narrow(all, 0, 0, m) : NULL, *shaped = first ? nn_reshape(first, ndim, sizes) : NULL;
    if (v && (!shaped || nn_copy_(v, shaped) < 0)) NN_SET(v, NULL);
    NN_RELEASE(first);
    NN_RELEASE(shaped);
    nn_set_grad_enabled(prev);
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
        *inverse = has_dim ? (NN_RETAIN(inv), inv) : nn_reshape(inv, a->ndim, a->sizes);
        if (!*inverse) rc = -1;
    }
    if (rc == 0 && counts) {
        nn_tensor *first = nn_narrow(cnt, 0, 0, m);
        *counts = first ? nn_empty_on(dev, 1, &m, NN_INT64) : NULL;
        if (*counts && nn_copy_(*counts, first) < 0) NN_SET(*counts, NULL);
        NN_RELEASE(first);
        if (!*counts) rc = -1;
    }
    NN_RELEASE(all);
    NN_RELEASE(inv);
    NN_RELEASE(cnt);
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
    int64_t n = nn_numel(c), top = -1;
    bool ok = a->ndim == 1;
    if (ok && n > 0) {
        nn_kernel_args r = {.t = {NULL, c}};
        if (NN_KERNEL(nn_backend_of(c), index, (NN_INDEX_INT_RANGE, &r)) < 0) {
            NN_RELEASE(c);
            return NULL;
        }
        ok = r.i[0] >= 0;
        top = r.i[1];
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
    nn_tensor *out = !weights || w ? nn_zeros_on(nn_device_of(c), 1, &len, wdt) : NULL;
    nn_kernel_args ka = {.t = {out, c, w}};
    if (out && NN_KERNEL(nn_backend_of(c), index, (NN_INDEX_BINCOUNT, &ka)) < 0) NN_SET(out, NULL);
    NN_RELEASE(w);
    NN_RELEASE(c);
    return out;
}

/* ------------------------------------------------------ histc / histogram */

static bool is_float(nn_dtype dt) { return nn_dtype_is_floating(dt); }

/* min and max of all elements (NaN skipped; 0, 0 when none), by the index kernel */
static int data_range(const nn_tensor *c, double *lo, double *hi)
{
    nn_kernel_args ka = {.t = {NULL, (nn_tensor *)c}};
    if (NN_KERNEL(nn_backend_of(c), index, (NN_INDEX_DATA_RANGE, &ka)) < 0) return -1;
    *lo = ka.host[0];
    *hi = ka.host[1];
    return 0;
}

nn_tensor *nn_histc(nn_tensor *a, int64_t bins, double min, double max)
{
    if (!is_float(a->dtype) || a->dtype == NN_FLOAT16) { /* float16: 1.13's range (aminmax) or histogram refuses it */
        nn_error_set(NN_ERR_RUNTIME, "\"%s\" not implemented for '%s'",
                     a->dtype == NN_FLOAT16 && min == max ? "aminmax_cpu" : "histogram_cpu", nn_dtype_scalar_name(a->dtype));
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
        if (nn_numel(c) && data_range(c, &min, &max) < 0) {
            NN_RELEASE(c);
            return NULL;
        }
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
    nn_tensor *out = nn_zeros_on(nn_device_of(c), 1, &bins, a->dtype);
    nn_kernel_args ka = {.t = {out, c}, .i = {bins}, .d = {min, max}};
    if (out && NN_KERNEL(nn_backend_of(c), index, (NN_INDEX_HISTC, &ka)) < 0) NN_SET(out, NULL);
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
        if (!has_range && data_range(c, &lo, &hi) < 0) {
            NN_RELEASE(c);
            NN_RELEASE(w);
            return -1;
        }
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
        e = nn_linspace_on(nn_device_of(c), lo, hi, bins + 1, a->dtype);
    }
    int64_t nb = bins > 0 ? bins : 0;
    nn_tensor *h = e ? nn_zeros_on(nn_device_of(c), 1, &nb, a->dtype) : NULL;
    nn_kernel_args ka = {.t = {h, c, e, w}, .i = {nb, density}};
    int rc = h ? 0 : -1;
    if (rc == 0 && nb > 0) rc = NN_KERNEL(nn_backend_of(c), index, (NN_INDEX_HISTOGRAM, &ka));
    NN_RELEASE(c);
    NN_RELEASE(w);
    if (rc < 0) {
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
    nn_kernel_args cnt = {.t = {NULL, c}};
    if (NN_KERNEL(nn_backend_of(c), index, (NN_INDEX_COUNT_SET, &cnt)) < 0) {
        NN_RELEASE(c);
        return NULL;
    }
    int64_t sizes[2] = {(int64_t)cnt.host[0], a->ndim};
    nn_tensor *out = nn_empty_on(nn_device_of(c), 2, sizes, NN_INT64);
    nn_kernel_args ka = {.t = {out, c}};
    if (out && NN_KERNEL(nn_backend_of(c), index, (NN_INDEX_NONZERO, &ka)) < 0) NN_SET(out, NULL);
    NN_RELEASE(c);
    return out;
}
