/*
 * cpu/select_more.c — the CPU's `index` kernel codes of select_more.c's ops
 * (core/backend.h's nn_index_op from NN_INDEX_PROD on): prod along a dim,
 * amax/amin rows, median and mode rows, index_add and scatter's reduce='add' /
 * 'multiply' form. Moved from select_more.c; the op file validates, lays the
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

int nn_cpu_index_select_more_ops(nn_index_op op, nn_kernel_args *a)
{
    switch (op) {
    case NN_INDEX_PROD: return prod(a);
    case NN_INDEX_EXTREME: return extreme(a);
    case NN_INDEX_MEDIAN:
    case NN_INDEX_MODE: return median_rows(op, a);
    case NN_INDEX_ADD: return index_add(a);
    case NN_INDEX_SCATTER_COMBINE: return scatter_combine(a);
    default: break;
    }
    return nn_error_set(NN_ERR_RUNTIME, "index kernel: unknown op code %d", (int)op);
}
