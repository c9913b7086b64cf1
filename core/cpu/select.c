/*
 * cpu/select.c — the CPU's `index` kernel codes of select.c's ops (core/backend.h's
 * nn_index_op from NN_INDEX_SORT on): sorting rows (sort, topk, kthvalue), roll,
 * gather/scatter/scatter_add along a dim, index_select, masked_select and the
 * positions and count of a mask's set elements, the range of an int64 tensor
 * (one_hot's checks), the put of index_multi.c's write. Moved from select.c; the op file validates, lays the
 * operands out contiguous, allocates and records. nn_cpu_index (cpu/index.c)
 * dispatches here.
 */
#include <math.h>
#include <string.h>

#include "nn_cpu.h"
#include "nn_cpu_select.h"

static double load(const char *base, int64_t i, nn_dtype dt) { return nn_load_double(base + i * (int64_t)nn_dtype_size(dt), dt); }

/* ---------------------------------------------------------------- sort */

typedef struct sort_key {
    double v;
    int64_t exact; /* an int64 element itself (v rounds those past 2**53), else 0 */
    int64_t i;
} sort_key;

/* NaN sorts above every number */
static int cmp_asc(const sort_key *x, const sort_key *y)
{
    bool xn = isnan(x->v), yn = isnan(y->v);
    if (xn || yn) return xn == yn ? 0 : xn ? 1 : -1;
    if (x->v != y->v) return x->v < y->v ? -1 : 1;
    return x->exact < y->exact ? -1 : x->exact > y->exact;
}

/* stable merge sort of n keys (buffer tmp of n) */
static void merge_sort(sort_key *k, sort_key *tmp, int64_t n, bool desc)
{
    if (n < 2) return;
    int64_t h = n / 2;
    merge_sort(k, tmp, h, desc);
    merge_sort(k + h, tmp, n - h, desc);
    int64_t i = 0, j = h, o = 0;
    while (i < h && j < n) {
        int c = cmp_asc(&k[j], &k[i]);
        bool take_right = desc ? c > 0 : c < 0;
        tmp[o++] = take_right ? k[j++] : k[i++];
    }
    while (i < h) tmp[o++] = k[i++];
    while (j < n) tmp[o++] = k[j++];
    memcpy(k, tmp, sizeof *k * (size_t)n);
}

/* t[0] values, t[1] int64 indices: the first i[3] of each row of t[2] sorted
   along the middle dim of [i[0], i[1], i[2]], descending when i[4] */
static int sort_rows(nn_kernel_args *a)
{
    const nn_tensor *c = a->t[2];
    int64_t outer = a->i[0], len = a->i[1], inner = a->i[2], take = a->i[3];
    bool desc = a->i[4];
    sort_key *k = nn_malloc(sizeof *k * (size_t)(2 * (len > 0 ? len : 1)));
    if (!k) return -1;
    nn_dtype dt = c->dtype;
    size_t es = nn_dtype_size(dt);
    const char *src = nn_data_ptr(c);
    char *vd = nn_data_ptr(a->t[0]);
    int64_t *id = nn_data_ptr(a->t[1]);
    for (int64_t o = 0; o < outer; o++)
        for (int64_t in = 0; in < inner; in++) {
            for (int64_t j = 0; j < len; j++) {
                int64_t at = (o * len + j) * inner + in;
                k[j] = (sort_key){load(src, at, dt), dt == NN_INT64 ? ((const int64_t *)src)[at] : 0, j};
            }
            merge_sort(k, k + len, len, desc);
            for (int64_t j = 0; j < take; j++) {
                int64_t at = (o * take + j) * inner + in;
                memcpy(vd + at * (int64_t)es, src + ((o * len + k[j].i) * inner + in) * (int64_t)es, es);
                id[at] = k[j].i;
            }
        }
    nn_free(k);
    return 0;
}

/* ---------------------------------------------------------------- roll */

/* t[0] = t[1] (contiguous, t[0]'s shape) rolled along each dim k by its shift
   in [0, size k): i[k] for k < 8, d[k - 8] after */
static int roll(nn_kernel_args *a)
{
    nn_tensor *out = a->t[0];
    const nn_tensor *c = a->t[1];
    int64_t n = nn_numel(c), idx[NN_MAX_DIMS] = {0}, strides[NN_MAX_DIMS];
    size_t es = nn_dtype_size(out->dtype);
    const char *src = nn_data_ptr(c);
    char *dst = nn_data_ptr(out);
    nn_contiguous_strides(out->ndim, out->sizes, strides);
    int64_t shift[NN_MAX_DIMS];
    for (int k = 0; k < out->ndim; k++) shift[k] = k < 8 ? a->i[k] : (int64_t)a->d[k - 8];
    for (int64_t i = 0; i < n; i++) {
        int64_t to = 0;
        for (int k = 0; k < out->ndim; k++) to += ((idx[k] + shift[k]) % out->sizes[k]) * strides[k];
        memcpy(dst + to * (int64_t)es, src + i * (int64_t)es, es);
        for (int k = out->ndim - 1; k >= 0; k--) {
            if (++idx[k] < out->sizes[k]) break;
            idx[k] = 0;
        }
    }
    return 0;
}

/* ------------------------------------------------- gather and scatter */

static void add_at(char *dst, const char *src, nn_dtype dt)
{
    switch (dt) {
    case NN_FLOAT32: *(float *)dst += *(const float *)src; break;
    case NN_FLOAT64: *(double *)dst += *(const double *)src; break;
    case NN_INT64: *(int64_t *)dst = (int64_t)((uint64_t) * (int64_t *)dst + (uint64_t) * (const int64_t *)src); break;
    case NN_INT32: *(int32_t *)dst = (int32_t)((uint32_t) * (int32_t *)dst + (uint32_t) * (const int32_t *)src); break;
    case NN_BOOL: *(uint8_t *)dst = *(uint8_t *)dst || *(const uint8_t *)src; break;
    default: nn_store_double(dst, dt, nn_load_double(dst, dt) + nn_load_double(src, dt)); break;
    }
}

/* Walks the index t[1]'s elements along dim i[0] of self t[0]: gather (t[2][i] =
   self[idx]), scatter (self[idx] = t[2][i], or the number d[0] when t[2] is NULL)
   or scatter_add (self[idx] += t[2][i]); self, index and t[2] contiguous. */
static int index_walk(nn_index_op op, nn_kernel_args *a)
{
    nn_tensor *self_t = a->t[0], *other_t = a->t[2];
    const nn_tensor *index = a->t[1];
    int d = (int)a->i[0], nd = index->ndim;
    int64_t n = nn_numel(index), pos[NN_MAX_DIMS] = {0};
    int64_t sst[NN_MAX_DIMS], ost[NN_MAX_DIMS];
    nn_contiguous_strides(self_t->ndim, self_t->sizes, sst);
    if (other_t) nn_contiguous_strides(other_t->ndim, other_t->sizes, ost);
    size_t es = nn_dtype_size(self_t->dtype);
    char value[8] = {0};
    if (!other_t) nn_store_double(value, self_t->dtype, a->d[0]);
    char *self = nn_data_ptr(self_t), *other = other_t ? nn_data_ptr(other_t) : NULL;
    const int64_t *ix = nn_data_ptr(index);
    int64_t len = self_t->ndim ? self_t->sizes[d] : 1;
    for (int64_t i = 0; i < n; i++) {
        int64_t v = ix[i];
        /* gather/scatter refuse negative indices, as PyTorch's */
        if (v < 0 || v >= len)
            return nn_error_set(NN_ERR_RUNTIME, "index %lld is out of bounds for dimension %d with size %lld",
                                (long long)v, d, (long long)len);
        int64_t so = 0, oo = 0;
        for (int k = 0; k < nd; k++) {
            so += (k == d ? v : pos[k]) * sst[k];
            if (other_t) oo += pos[k] * ost[k];
        }
        char *sp = self + so * (int64_t)es;
        const char *op_ = other_t ? other + oo * (int64_t)es : value;
        if (op == NN_INDEX_GATHER)
            memcpy(other + oo * (int64_t)es, sp, es);
        else if (op == NN_INDEX_SCATTER)
            memcpy(sp, op_, es);
        else
            add_at(sp, op_, self_t->dtype);
        for (int k = nd - 1; k >= 0; k--) {
            if (++pos[k] < index->sizes[k]) break;
            pos[k] = 0;
        }
    }
    return 0;
}

/* ---------------------------------------------------------- index_select */

/* t[0] [outer, k, inner] = t[1] [outer, len, inner] (i[0..2]) at the k int64
   positions t[2] (negative count from the end; IndexError outside [-len, len)) */
static int index_select(nn_kernel_args *a)
{
    const nn_tensor *ic = a->t[2];
    int64_t outer = a->i[0], len = a->i[1], inner = a->i[2], k = nn_numel(ic);
    const int64_t *ix = nn_data_ptr(ic);
    for (int64_t j = 0; j < k; j++)
        if (ix[j] < -len || ix[j] >= len) return nn_error_set(NN_ERR_INDEX, "index out of range in self");
    size_t es = nn_dtype_size(a->t[0]->dtype);
    const char *src = nn_data_ptr(a->t[1]);
    char *dst = nn_data_ptr(a->t[0]);
    for (int64_t o = 0; o < outer; o++)
        for (int64_t j = 0; j < k; j++) {
            int64_t sj = ix[j] < 0 ? ix[j] + len : ix[j];
            memcpy(dst + (o * k + j) * inner * (int64_t)es, src + (o * len + sj) * inner * (int64_t)es,
                   (size_t)inner * es);
        }
    return 0;
}

/* t[0] (int64, contiguous): each negative element plus i[0]; with i[1] set, first
   a check that all are in [-i[0], i[0]): i[2] = 1 and i[3] = the first that is not
   (nothing changed then) */
static int wrap_negative(nn_kernel_args *a)
{
    int64_t *p = nn_data_ptr(a->t[0]), n = nn_numel(a->t[0]), len = a->i[0];
    a->i[2] = 0;
    for (int64_t i = 0; a->i[1] && i < n; i++)
        if (p[i] < -len || p[i] >= len) {
            a->i[2] = 1;
            a->i[3] = p[i];
            return 0;
        }
    for (int64_t i = 0; i < n; i++)
        if (p[i] < 0) p[i] += len;
    return 0;
}

/* ---------------------------------------------------------------- masks */

/* host[0] = the number of nonzero elements of t[1] (contiguous, any dtype) */
static int count_set(nn_kernel_args *a)
{
    const nn_tensor *t = a->t[1];
    int64_t n = nn_numel(t), k = 0;
    if (t->dtype == NN_BOOL) {
        const uint8_t *m = nn_data_ptr(t);
        for (int64_t i = 0; i < n; i++) k += m[i] != 0;
    } else {
        const char *p = nn_data_ptr(t);
        size_t es = nn_dtype_size(t->dtype);
        for (int64_t i = 0; i < n; i++) k += nn_load_double(p + (size_t)i * es, t->dtype) != 0;
    }
    a->host[0] = (double)k;
    return 0;
}

/* t[0] [k] = the elements of t[1] where the bool t[2] (t[1]'s shape, both
   contiguous) is set, in order */
static int masked_select(nn_kernel_args *a)
{
    const uint8_t *m = nn_data_ptr(a->t[2]);
    int64_t n = nn_numel(a->t[2]);
    size_t es = nn_dtype_size(a->t[1]->dtype);
    const char *src = nn_data_ptr(a->t[1]);
    char *dst = nn_data_ptr(a->t[0]);
    for (int64_t i = 0, j = 0; i < n; i++)
        if (m[i]) memcpy(dst + j++ * (int64_t)es, src + i * (int64_t)es, es);
    return 0;
}

/* t[0] (int64 [k]) = the flat positions of the set elements of the bool t[1], in order */
static int mask_positions(nn_kernel_args *a)
{
    const uint8_t *m = nn_data_ptr(a->t[1]);
    int64_t *p = nn_data_ptr(a->t[0]);
    for (int64_t i = 0, j = 0; i < nn_numel(a->t[1]); i++)
        if (m[i]) p[j++] = i;
    return 0;
}

/* i[0], i[1] = the least and greatest element of the int64 t[1] (not empty), written back */
static int int_range(nn_kernel_args *a)
{
    const int64_t *v = nn_data_ptr(a->t[1]);
    int64_t n = nn_numel(a->t[1]), lo = v[0], hi = v[0];
    for (int64_t i = 1; i < n; i++) {
        lo = v[i] < lo ? v[i] : lo;
        hi = v[i] > hi ? v[i] : hi;
    }
    a->i[0] = lo;
    a->i[1] = hi;
    return 0;
}

/* t[0] at the int64 element offsets t[1] = t[2] (contiguous, t[1]'s length), in order */
static int put(nn_kernel_args *a)
{
    char *dst = nn_data_ptr(a->t[0]);
    const int64_t *off = nn_data_ptr(a->t[1]);
    const char *src = nn_data_ptr(a->t[2]);
    size_t es = nn_dtype_size(a->t[0]->dtype);
    for (int64_t i = 0, n = nn_numel(a->t[1]); i < n; i++, src += es) memcpy(dst + (size_t)off[i] * es, src, es);
    return 0;
}

int nn_cpu_index_select_ops(nn_index_op op, nn_kernel_args *a)
{
    switch (op) {
    case NN_INDEX_SORT: return sort_rows(a);
    case NN_INDEX_ROLL: return roll(a);
    case NN_INDEX_GATHER:
    case NN_INDEX_SCATTER:
    case NN_INDEX_SCATTER_ADD: return index_walk(op, a);
    case NN_INDEX_SELECT: return index_select(a);
    case NN_INDEX_WRAP_NEGATIVE: return wrap_negative(a);
    case NN_INDEX_COUNT_SET: return count_set(a);
    case NN_INDEX_MASKED_SELECT: return masked_select(a);
    case NN_INDEX_MASK_POSITIONS: return mask_positions(a);
    case NN_INDEX_INT_RANGE: return int_range(a);
    case NN_INDEX_PUT: return put(a);
    default: return nn_cpu_index_select_more_ops(op, a);
    }
}
