/*
 * cpu/select_more.c — the CPU's `index` kernel codes of select_more.c's ops
 * (core/backend.h's nn_index_op from NN_INDEX_PROD on): prod along a dim,
 * amax/amin rows, median and mode rows, index_add, scatter's reduce='add' /
 * 'multiply' form and 1.13's scatter_reduce (from scatter_reduce.c); cummax/cummin
 * and searchsorted (from ops_extra.c). Moved from select_more.c; the op file validates, lays the
 * operands out contiguous, allocates and records. cpu/select.c dispatches here.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn_cpu.h"
#include "nn_cpu_select.h"

/* t[0] [i[0], i[2]] = the product of t[1] [i[0], i[1], i[2]] (t[0]'s dtype) along its middle dim */
static int prod(nn_kernel_args *a)
{
    int64_t outer = a->i[0], len = a->i[1], inner = a->i[2];
    if (outer == 0 || inner == 0) return 0; /* no output: (2**62, 3, 0).prod(1) must not walk 2**62 rows */
    nn_dtype dt = a->t[0]->dtype;
    const char *src = nn_data_ptr(a->t[1]);
    char *dst = nn_data_ptr(a->t[0]);
    size_t es = nn_dtype_size(dt);
    for (int64_t o = 0; o < outer; o++)
        for (int64_t i = 0; i < inner; i++) {
            const char *p = src + (size_t)(o * len * inner + i) * es;
            void *q = dst + (size_t)(o * inner + i) * es;
            if (dt == NN_INT64) {
                uint64_t acc = 1; /* wraps as C++'s int64 product does */
                for (int64_t j = 0; j < len; j++) acc *= (uint64_t)((const int64_t *)p)[j * inner];
                *(int64_t *)q = (int64_t)acc;
            } else if (dt == NN_FLOAT64) {
                double acc = 1;
                for (int64_t j = 0; j < len; j++) acc *= ((const double *)p)[j * inner];
                *(double *)q = acc;
            } else if (dt == NN_FLOAT32) {
                float acc = 1;
                for (int64_t j = 0; j < len; j++) acc *= ((const float *)p)[j * inner];
                *(float *)q = acc;
            } else {
                double acc = 1;
                for (int64_t j = 0; j < len; j++) acc *= nn_load_double(p + (size_t)(j * inner) * es, dt);
                nn_store_double(q, dt, acc);
            }
        }
    return 0;
}

/* t[0] [i[0]] = the greatest (i[2]) or least element of each row of t[1] [i[0], i[1]] (i[1] > 0), NaN first */
static int extreme(nn_kernel_args *a)
{
    int64_t outer = a->i[0], inner = a->i[1];
    bool is_max = a->i[2];
    nn_dtype dt = a->t[1]->dtype;
    size_t es = nn_dtype_size(dt);
    const char *src = nn_data_ptr(a->t[1]);
    char *dst = nn_data_ptr(a->t[0]);
    for (int64_t o = 0; o < outer; o++) {
        const char *row = src + (size_t)(o * inner) * es;
        int64_t best = 0;
        if (dt == NN_INT64) { /* exactly: a double rounds those past 2**53 */
            const int64_t *r = (const int64_t *)row;
            for (int64_t j = 1; j < inner; j++)
                if (is_max ? r[j] > r[best] : r[j] < r[best]) best = j;
            memcpy(dst + (size_t)o * es, row + (size_t)best * es, es);
            continue;
        }
        double bv = nn_load_double(row, dt);
        for (int64_t j = 1; j < inner && !isnan(bv); j++) {
            double v = nn_load_double(row + (size_t)j * es, dt);
            if (isnan(v) || (is_max ? v > bv : v < bv)) {
                bv = v;
                best = j;
            }
        }
        memcpy(dst + (size_t)o * es, row + (size_t)best * es, es);
    }
    return 0;
}

typedef struct keyed {
    double v;
    int64_t i;
} keyed;

/* ascending, NaN last, ties by index: a total order, so qsort is stable */
static int keyed_cmp(const void *x, const void *y)
{
    const keyed *a = x, *b = y;
    bool na = isnan(a->v), nb = isnan(b->v);
    if (na != nb) return na ? 1 : -1;
    if (!na && a->v != b->v) return a->v < b->v ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

/* Sorts row j (len elements, stride inner) of c into k; false if one is NaN
   (k[0] is then the first NaN). */
static bool load_row(const char *p, int64_t len, int64_t inner, nn_dtype dt, keyed *k)
{
    size_t es = nn_dtype_size(dt);
    for (int64_t j = 0; j < len; j++) {
        k[j].v = nn_load_double(p + (size_t)(j * inner) * es, dt);
        k[j].i = j;
        if (isnan(k[j].v)) {
            k[0] = k[j];
            return false;
        }
    }
    qsort(k, (size_t)len, sizeof *k, keyed_cmp);
    return true;
}

/* median (or mode) of each row of t[2] [i[0], i[1], i[2]] along the middle dim:
   t[0] values [i[0], i[2]], t[1] int64 indices or NULL; NaN values for empty rows */
static int median_rows(nn_index_op op, nn_kernel_args *a)
{
    int64_t outer = a->i[0], len = a->i[1], inner = a->i[2];
    nn_dtype dt = a->t[2]->dtype;
    size_t es = nn_dtype_size(dt);
    const char *src = nn_data_ptr(a->t[2]);
    char *vd = nn_data_ptr(a->t[0]);
    int64_t *id = a->t[1] ? nn_data_ptr(a->t[1]) : NULL;
    if (len == 0) {
        for (int64_t o = 0; o < outer * inner; o++) nn_store_double(vd + (size_t)o * es, dt, NAN);
        return 0;
    }
    keyed *k = nn_malloc(sizeof(keyed) * (size_t)len);
    if (!k) return -1;
    for (int64_t o = 0; o < outer; o++)
        for (int64_t i = 0; i < inner; i++) {
            const char *row = src + (size_t)(o * len * inner + i) * es;
            int64_t at;
            if (op == NN_INDEX_MODE) {
                /* ATen's mode_kernel: runs of equal values in sorted order, the
                   first longest wins, its last element's index */
                for (int64_t j = 0; j < len; j++) {
                    k[j].v = nn_load_double(row + (size_t)(j * inner) * es, dt);
                    k[j].i = j;
                }
                qsort(k, (size_t)len, sizeof *k, keyed_cmp);
                int64_t best = 0, run = 0, best_n = 0;
                for (int64_t j = 0; j < len; j++) {
                    run++;
                    if (j == len - 1 || !(k[j].v == k[j + 1].v)) {
                        if (run > best_n) {
                            best_n = run;
                            best = j;
                        }
                        run = 0;
                    }
                }
                at = k[best].i;
            } else {
                at = load_row(row, len, inner, dt, k) ? k[(len - 1) / 2].i : k[0].i;
            }
            memcpy(vd + (size_t)(o * inner + i) * es, row + (size_t)(at * inner) * es, es);
            if (id) id[o * inner + i] = at;
        }
    nn_free(k);
    return 0;
}

/* index_add: t[0] [i[0], i[1], i[2]] at the k int64 positions t[2] along the middle
   dim += d[0] * t[1] [i[0], k, i[2]]; IndexError outside [-i[1], i[1]) */
static int index_add(nn_kernel_args *a)
{
    int64_t outer = a->i[0], len = a->i[1], inner = a->i[2], k = nn_numel(a->t[2]);
    double alpha = a->d[0];
    const int64_t *ix = nn_data_ptr(a->t[2]);
    for (int64_t j = 0; j < k; j++)
        if (ix[j] < -len || ix[j] >= len) return nn_error_set(NN_ERR_INDEX, "index out of range in self");
    nn_dtype dt = a->t[0]->dtype;
    size_t es = nn_dtype_size(dt);
    char *dst = nn_data_ptr(a->t[0]);
    const char *s = nn_data_ptr(a->t[1]);
    for (int64_t o = 0; o < outer; o++)
        for (int64_t j = 0; j < k; j++) {
            int64_t t = ix[j] < 0 ? ix[j] + len : ix[j];
            for (int64_t i = 0; i < inner; i++) {
                char *q = dst + (size_t)((o * len + t) * inner + i) * es;
                double v = nn_load_double(s + (size_t)((o * k + j) * inner + i) * es, dt);
                if (dt == NN_INT64)
                    *(int64_t *)q += (int64_t)(alpha * v);
                else
                    nn_store_double(q, dt, nn_load_double(q, dt) + alpha * v);
            }
        }
    return 0;
}

/* scatter(reduce='add' | 'multiply' (i[1])): t[0] (self, contiguous) at the
   places the int64 index t[1] names along dim i[0] combined with t[2]'s elements
   (contiguous, index's ndim) or the number d[0] when t[2] is NULL; negative
   indices from the end, RuntimeError outside [-size, size) */
static int scatter_combine(nn_kernel_args *a)
{
    nn_tensor *out = a->t[0];
    const nn_tensor *index = a->t[1], *sc = a->t[2];
    int d = (int)a->i[0];
    bool multiply = a->i[1];
    double value = a->d[0];
    nn_dtype dt = out->dtype;
    size_t es = nn_dtype_size(dt);
    int nd = index->ndim;
    int64_t n = nn_numel(index), len = out->ndim ? out->sizes[d] : 1, coord[NN_MAX_DIMS] = {0};
    const int64_t *ix = nn_data_ptr(index);
    char *base = nn_data_ptr(out);
    const char *sbase = sc ? nn_data_ptr(sc) : NULL;
    for (int64_t k = 0; k < n; k++) {
        int64_t rest = k, dst = 0, sp = 0;
        for (int i = nd - 1; i >= 0; i--) {
            coord[i] = rest % index->sizes[i];
            rest /= index->sizes[i];
        }
        int64_t t = ix[k];
        if (t < -len || t >= len)
            return nn_error_set(NN_ERR_RUNTIME, "index %lld is out of bounds for dimension %d with size %lld",
                                (long long)t, d, (long long)len);
        if (t < 0) t += len;
        int64_t stride = 1, sstride = 1;
        for (int i = nd - 1; i >= 0; i--) {
            dst += (i == d ? t : coord[i]) * stride;
            stride *= out->ndim ? out->sizes[i] : 1;
            if (sc) {
                sp += coord[i] * sstride;
                sstride *= sc->sizes[i];
            }
        }
        char *q = base + (size_t)dst * es;
        double v = sc ? nn_load_double(sbase + (size_t)sp * es, dt) : value;
        double cur = nn_load_double(q, dt);
        if (dt == NN_INT64) {
            int64_t c = *(int64_t *)q, w = sc ? *(const int64_t *)(sbase + (size_t)sp * es) : (int64_t)value;
            *(int64_t *)q = multiply ? (int64_t)((uint64_t)c * (uint64_t)w) : (int64_t)((uint64_t)c + (uint64_t)w);
        } else {
            nn_store_double(q, dt, multiply ? cur * v : cur + v);
        }
    }
    return 0;
}

static double reduce_one(int code, double acc, double v)
{
    switch (code) {
    case 0:
    case 2: return acc + v;
    case 1: return acc * v;
    case 3: return isnan(v) ? v : acc < v ? v : acc;
    default: return isnan(v) ? v : v < acc ? v : acc;
    }
}

/* 1.13's scatter_reduce: t[0] (self, contiguous) along dim i[0] reduced with
   the elements of t[2] (src) at the int64 index t[1] by code i[1] (sum, prod,
   mean, amax, amin), in index order in double, from self (i[2], include_self)
   or from a target's first value */
static int scatter_reduce(nn_kernel_args *a)
{
    nn_tensor *out = a->t[0];
    const nn_tensor *index = a->t[1], *src = a->t[2];
    int d = (int)a->i[0], code = (int)a->i[1];
    bool include_self = a->i[2];
    int64_t n = nn_numel(out), ni = nn_numel(index);
    double *acc = nn_calloc((size_t)(n ? n : 1), sizeof(double));
    int64_t *count = acc ? nn_calloc((size_t)(n ? n : 1), sizeof(int64_t)) : NULL;
    int rc = count ? 0 : -1;
    if (rc == 0) {
        nn_dtype dt = out->dtype;
        int nd = out->ndim ? out->ndim : 1;
        int64_t asz[NN_MAX_DIMS], astr[NN_MAX_DIMS], isz[NN_MAX_DIMS], sstr[NN_MAX_DIMS];
        for (int i = 0; i < nd; i++) {
            asz[i] = out->ndim ? out->sizes[i] : 1;
            isz[i] = index->ndim ? index->sizes[i] : 1;
        }
        nn_contiguous_strides(nd, asz, astr);
        int64_t ssz[NN_MAX_DIMS];
        for (int i = 0; i < nd; i++) ssz[i] = src->ndim ? src->sizes[i] : 1;
        nn_contiguous_strides(nd, ssz, sstr);
        const char *od = nn_data_ptr(out);
        size_t es = nn_dtype_size(dt);
        for (int64_t k = 0; k < n; k++) acc[k] = nn_load_double(od + (size_t)k * es, dt);
        const int64_t *ip = nn_data_ptr(index);
        const char *sp = nn_data_ptr(src);
        int64_t pos[NN_MAX_DIMS] = {0};
        for (int64_t k = 0; k < ni && rc == 0; k++) {
            int64_t j = ip[k];
            if (j < -asz[d] || j >= asz[d]) {
                rc = nn_error_set(NN_ERR_RUNTIME, "index %lld is out of bounds for dimension %d with size %lld",
                                  (long long)j, d, (long long)asz[d]);
                break;
            }
            if (j < 0) j += asz[d];
            int64_t t = 0, s = 0;
            for (int i = 0; i < nd; i++) {
                t += (i == d ? j : pos[i]) * astr[i];
                s += pos[i] * sstr[i];
            }
            double v = nn_load_double(sp + (size_t)s * es, dt);
            if (count[t]++ == 0 && !include_self) acc[t] = v;
            else acc[t] = reduce_one(code, acc[t], v);
            for (int i = nd - 1; i >= 0 && ++pos[i] == isz[i]; i--) pos[i] = 0;
        }
        char *ow = nn_data_ptr(out);
        for (int64_t k = 0; k < n && rc == 0; k++) {
            double v = acc[k];
            if (code == 2) {
                int64_t c = count[k] + (include_self ? 1 : 0);
                if (c == 0) c = 1;
                v = nn_dtype_is_floating(dt) ? v / (double)c : floor(v / (double)c);
            }
            nn_store_double(ow + (size_t)k * es, dt, v);
        }
    }
    nn_free(acc);
    nn_free(count);
    return rc;
}

/* cummax/cummin: t[0] values and t[1] int64 indices, both of t[2]'s shape [i[0], i[1],
   i[2]], the running greatest (i[3]) or least along the middle dim */
static int cumextreme(nn_kernel_args *a)
{
    int64_t outer = a->i[0], len = a->i[1], inner = a->i[2];
    bool is_max = a->i[3];
    nn_dtype dt = a->t[2]->dtype;
    size_t es = nn_dtype_size(dt);
    const char *src = nn_data_ptr(a->t[2]);
    char *dst = nn_data_ptr(a->t[0]);
    int64_t *ip = nn_data_ptr(a->t[1]);
    for (int64_t o = 0; o < outer && len > 0; o++)
        for (int64_t in = 0; in < inner; in++) {
            int64_t base = o * len * inner + in, best = 0;
            double out = nn_load_double(src + (size_t)base * es, dt);
            for (int64_t j = 0; j < len; j++) {
                int64_t at = base + j * inner;
                double x = nn_load_double(src + (size_t)at * es, dt);
                /* ATen's cummax_cummin_helper: a NaN takes over and stays; ties take the later index */
                if (isnan(x) || (!isnan(out) && (is_max ? x >= out : x <= out))) {
                    out = x;
                    best = j;
                }
                memcpy(dst + (size_t)at * es, src + (size_t)(base + best * inner) * es, es);
                ip[at] = best;
            }
        }
    return 0;
}

/* ATen's cus_lower_bound / cus_upper_bound over row bd (sorter: its order) */
static int64_t bound(const double *bd, const int64_t *sort, int64_t len, double val, bool right)
{
    int64_t start = 0, end = len;
    while (start < end) {
        int64_t mid = start + ((end - start) >> 1);
        double mv = sort ? bd[sort[mid]] : bd[mid];
        if (right ? !(mv > val) : !(mv >= val))
            start = mid + 1;
        else
            end = mid;
    }
    return start;
}

/* searchsorted: t[0] (int64 or int32, t[2]'s shape) = each value of t[2] (float64)
   placed in its row of t[1] (float64 rows of i[0]; one row when i[3], else a row
   per i[1] values) in the order of the sorter t[3] (int64, t[1]'s shape) or NULL;
   upper bound when i[2]. RuntimeError for a sorter index out of range. */
static int searchsorted(nn_kernel_args *a)
{
    int64_t len = a->i[0], per_row = a->i[1], nv = nn_numel(a->t[2]);
    bool right = a->i[2], one_row = a->i[3];
    const double *bd = nn_data_ptr(a->t[1]), *vv = nn_data_ptr(a->t[2]);
    const int64_t *so = a->t[3] ? nn_data_ptr(a->t[3]) : NULL;
    for (int64_t i = 0; so && i < nn_numel(a->t[3]); i++)
        if (so[i] < 0 || so[i] >= len) return nn_error_set(NN_ERR_RUNTIME, "torch.searchsorted(): sorter index out of range");
    nn_tensor *out = a->t[0];
    for (int64_t i = 0; i < nv; i++) {
        int64_t row = one_row || per_row == 0 ? 0 : i / per_row;
        int64_t r = bound(bd + row * len, so ? so + row * len : NULL, len, vv[i], right);
        if (out->dtype == NN_INT32)
            ((int32_t *)nn_data_ptr(out))[i] = (int32_t)r;
        else
            ((int64_t *)nn_data_ptr(out))[i] = r;
    }
    return 0;
}

int nn_cpu_index_select_more_ops(nn_index_op op, nn_kernel_args *a)
{
    switch (op) {
    case NN_INDEX_PROD: return prod(a);
    case NN_INDEX_EXTREME: return extreme(a);
    case NN_INDEX_MEDIAN:
    case NN_INDEX_MODE: return median_rows(op, a);
    case NN_INDEX_ADD: return index_add(a);
    case NN_INDEX_SCATTER_COMBINE: return scatter_combine(a);
    case NN_INDEX_SCATTER_REDUCE: return scatter_reduce(a);
    case NN_INDEX_CUMEXTREME: return cumextreme(a);
    case NN_INDEX_SEARCHSORTED: return searchsorted(a);
    default: return nn_cpu_index_histo_ops(op, a);
    }
}
