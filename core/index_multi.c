/*
 * index_multi.c — indexing with several index tensors at once, as PyTorch
 * (NumPy's rules): P[torch.arange(n), Y], x[idx, :, idx2], x[mask, idx].
 *
 * The index tensors are broadcast together to one shape B. When the indexed
 * dims are next to each other the result is the dims before them, then B,
 * then the dims after; otherwise B comes first, then the other dims in order.
 * The read is built from differentiable ops (the basic part of the index as
 * views, a permute, a reshape merging the indexed dims, then one index tensor
 * of flat positions), so its backward is theirs and its grad_fn is
 * IndexBackward0 as in PyTorch. The write goes through the same positions.
 * view.c sends an index with more than one tensor here.
 */
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "nn_int.h"

#define MAXI 32 /* index items / index tensors at most (the language allows no more) */

/* An index split into its basic part (tensors replaced by full slices) and
   its index tensors (bool masks turned into one long tensor per mask dim),
   with the dim of the basic view each applies to. */
typedef struct multi_index {
    int n_basic;
    nn_index_item basic[MAXI];
    int m;                 /* index tensors */
    nn_tensor *idx[MAXI];  /* owned, int64 */
    int dim[MAXI];         /* dim of the basic view */
} multi_index;

static void multi_free(multi_index *mi)
{
    for (int j = 0; j < mi->m; j++) NN_RELEASE(mi->idx[j]);
    mi->m = 0;
}

int nn_index_tensor_count(int n, const nn_index_item *items)
{
    int c = 0;
    for (int i = 0; i < n; i++) c += items[i].kind == NN_INDEX_TENSOR;
    return c;
}

/* one int64 tensor per dim of a bool mask: the coordinates of its true elements */
static int mask_coords(const nn_tensor *mask, nn_tensor **out)
{
    int64_t n = nn_numel(mask), count = 0;
    double *v = nn_malloc(sizeof(double) * (size_t)(n ? n : 1));
    if (!v) return -1;
    nn_to_doubles(mask, v);
    for (int64_t i = 0; i < n; i++) count += v[i] != 0;
    int k = mask->ndim;
    for (int d = 0; d < k; d++) out[d] = NULL;
    for (int d = 0; d < k; d++)
        if (!(out[d] = nn_empty_on(NN_DEVICE_CPU, 1, &count, NN_INT64))) { /* host tensors: positions() reads them */
            for (int e = 0; e < d; e++) NN_RELEASE(out[e]);
            nn_free(v);
            return -1;
        }
    int64_t c = 0;
    for (int64_t i = 0; i < n; i++) {
        if (v[i] == 0) continue;
        int64_t rest = i;
        for (int d = k - 1; d >= 0; d--) {
            ((int64_t *)nn_host_borrow(out[d]))[c] = rest % mask->sizes[d];
            rest /= mask->sizes[d];
        }
        c++;
    }
    nn_free(v);
    return 0;
}

static int split_index(const nn_tensor *t, int n, const nn_index_item *items, multi_index *mi)
{
    int consumed = 0, out_dim = 0;
    mi->n_basic = mi->m = 0;
    for (int i = 0; i < n; i++) {
        if (items[i].kind == NN_INDEX_INT || items[i].kind == NN_INDEX_SLICE) consumed++;
        else if (items[i].kind == NN_INDEX_TENSOR)
            consumed += items[i].tensor->dtype == NN_BOOL ? items[i].tensor->ndim : 1;
    }
    for (int i = 0; i < n; i++) {
        const nn_index_item *it = &items[i];
        switch (it->kind) {
        case NN_INDEX_INT: break;
        case NN_INDEX_SLICE: case NN_INDEX_NONE: out_dim++; break;
        case NN_INDEX_ELLIPSIS: out_dim += t->ndim - consumed > 0 ? t->ndim - consumed : 0; break;
        case NN_INDEX_TENSOR: {
            const nn_tensor *x = it->tensor;
            int k = x->dtype == NN_BOOL ? x->ndim : 1;
            if (mi->m + k > MAXI || mi->n_basic + k > MAXI) return nn_error_set(NN_ERR_INDEX, "too many indices");
            if (x->dtype == NN_BOOL) {
                if (mask_coords(x, &mi->idx[mi->m]) < 0) return -1;
            } else if (nn_dtype_is_floating(x->dtype)) {
                return nn_error_set(NN_ERR_INDEX, "tensors used as indices must be long, byte or bool tensors");
            } else {
                nn_tensor *c = NULL;
                NN_WITH_GRAD_MODE(false, c = nn_to_dtype((nn_tensor *)x, NN_INT64));
                if (!c) return -1;
                mi->idx[mi->m] = c;
            }
            for (int d = 0; d < k; d++) {
                mi->dim[mi->m++] = out_dim++;
                nn_index_item *s = &mi->basic[mi->n_basic++];
                memset(s, 0, sizeof *s);
                s->kind = NN_INDEX_SLICE;
                s->step = 1;
            }
            continue;
        }
        }
        if (mi->n_basic >= MAXI) return nn_error_set(NN_ERR_INDEX, "too many indices");
        mi->basic[mi->n_basic++] = *it;
    }
    return 0;
}

/* The index tensors broadcast to one shape (B, nb dims, numel *count), and
   for each element the flat position over the indexed dims of view v in index
   order (row-major: the last index tensor varies fastest). *adjacent says
   whether the indexed dims follow each other. pos is the caller's (nn_free). */
static int64_t *positions(const nn_tensor *v, multi_index *mi, int *nb, int64_t *B, int64_t *count, bool *adjacent)
{
    *nb = 0;
    for (int j = 0; j < mi->m; j++) {
        const nn_tensor *x = mi->idx[j];
        if (x->ndim > *nb) {
            for (int d = *nb; d < x->ndim; d++) B[d] = 1;
            /* shift right: broadcasting aligns the trailing dims */
            memmove(B + (x->ndim - *nb), B, sizeof(int64_t) * (size_t)*nb);
            for (int d = 0; d < x->ndim - *nb; d++) B[d] = 1;
            *nb = x->ndim;
        }
        for (int d = 0; d < x->ndim; d++) {
            int64_t *b = &B[*nb - x->ndim + d], s = x->sizes[d];
            if (*b == 1) *b = s;
            else if (s != 1 && s != *b) {
                char shapes[512];
                size_t len = 0;
                for (int i = 0; i < mi->m && len < sizeof shapes - 64; i++) {
                    len += (size_t)snprintf(shapes + len, sizeof shapes - len, "%s[", i ? ", " : "");
                    for (int e = 0; e < mi->idx[i]->ndim && len < sizeof shapes - 32; e++)
                        len += (size_t)snprintf(shapes + len, sizeof shapes - len, "%s%lld", e ? ", " : "",
                                                (long long)mi->idx[i]->sizes[e]);
                    len += (size_t)snprintf(shapes + len, sizeof shapes - len, "]");
                }
                nn_error_set(NN_ERR_INDEX, "shape mismatch: indexing tensors could not be broadcast together with shapes %s",
                             shapes);
                return NULL;
            }
        }
    }
    *count = 1;
    for (int d = 0; d < *nb; d++) *count *= B[d];
    *adjacent = true;
    for (int j = 1; j < mi->m; j++) *adjacent = *adjacent && mi->dim[j] == mi->dim[j - 1] + 1;
    int64_t *pos = nn_calloc((size_t)(*count ? *count : 1), sizeof(int64_t));
    double *vals = pos ? nn_malloc(sizeof(double) * (size_t)(*count ? *count : 1)) : NULL;
    if (!vals) {
        nn_free(pos);
        return NULL;
    }
    int64_t stride = 1;
    for (int j = mi->m - 1; j >= 0; j--) {
        nn_tensor *e = nn_expand(mi->idx[j], *nb, B), *c = e ? nn_contiguous(e) : NULL;
        NN_RELEASE(e);
        if (!c) goto fail;
        nn_to_doubles(c, vals);
        NN_RELEASE(c);
        int64_t size = v->sizes[mi->dim[j]];
        for (int64_t i = 0; i < *count; i++) {
            int64_t x = (int64_t)vals[i];
            if (x < -size || x >= size) {
                nn_error_set(NN_ERR_INDEX, "index %lld is out of bounds for dimension %d with size %lld",
                             (long long)x, mi->dim[j], (long long)size);
                goto fail;
            }
            pos[i] += (x < 0 ? x + size : x) * stride;
        }
        stride *= size;
    }
    nn_free(vals);
    return pos;
fail:
    nn_free(vals);
    nn_free(pos);
    return NULL;
}

/* v with the indexed dims merged into one at *first (moved to the front
   first when they are not adjacent). New reference. */
static nn_tensor *merged(nn_tensor *v, const multi_index *mi, bool adjacent, int *first)
{
    int perm[NN_MAX_DIMS], np = 0;
    bool indexed[NN_MAX_DIMS] = {false};
    for (int j = 0; j < mi->m; j++) indexed[mi->dim[j]] = true;
    nn_tensor *x;
    if (adjacent) {
        *first = mi->dim[0];
        NN_RETAIN(v);
        x = v;
    } else {
        *first = 0;
        for (int j = 0; j < mi->m; j++) perm[np++] = mi->dim[j];
        for (int d = 0; d < v->ndim; d++)
            if (!indexed[d]) perm[np++] = d;
        if (!(x = nn_permute(v, v->ndim, perm))) return NULL;
    }
    int64_t shape[NN_MAX_DIMS], prod = 1;
    int nd = 0;
    for (int d = 0; d < *first; d++) shape[nd++] = x->sizes[d];
    for (int j = 0; j < mi->m; j++) prod *= x->sizes[*first + j];
    shape[nd++] = prod;
    for (int d = *first + mi->m; d < x->ndim; d++) shape[nd++] = x->sizes[d];
    nn_tensor *r = nn_reshape(x, nd, shape);
    NN_RELEASE(x);
    return r;
}

nn_tensor *nn_index_multi(nn_tensor *t, int n, const nn_index_item *items)
{
    multi_index mi;
    nn_tensor *v = NULL, *x = NULL, *flat = NULL, *out = NULL;
    int64_t *pos = NULL, B[NN_MAX_DIMS], count;
    int nb, first;
    bool adjacent;
    if (split_index(t, n, items, &mi) < 0) goto done;
    if (!(v = nn_index(t, mi.n_basic, mi.basic))) goto done;
    if (!(pos = positions(v, &mi, &nb, B, &count, &adjacent))) goto done;
    if (v->ndim - mi.m + nb > NN_MAX_DIMS) {
        nn_error_set(NN_ERR_RUNTIME, "tensors have at most %d dimensions", NN_MAX_DIMS);
        goto done;
    }
    if (!(x = merged(v, &mi, adjacent, &first))) goto done;
    if (!(flat = nn_from_data_on(nn_device_of(x), pos, nb, B, NN_INT64))) goto done;
    nn_index_item one[NN_MAX_DIMS + 1];
    memset(one, 0, sizeof one);
    for (int d = 0; d < first; d++) one[d].kind = NN_INDEX_SLICE, one[d].step = 1;
    one[first].kind = NN_INDEX_TENSOR;
    one[first].tensor = flat;
    out = nn_index(x, first + 1, one);
done:
    nn_free(pos);
    NN_RELEASE(flat);
    NN_RELEASE(x);
    NN_RELEASE(v);
    multi_free(&mi);
    return out;
}

/* element offsets (in elements, from the view's start) of every combination
   of the given dims of v, row-major. New array (nn_free). */
static int64_t *dim_offsets(const nn_tensor *v, const int *dims, int k, int64_t *count)
{
    *count = 1;
    for (int i = 0; i < k; i++) *count *= v->sizes[dims[i]];
    int64_t *off = nn_malloc(sizeof(int64_t) * (size_t)(*count ? *count : 1));
    if (!off) return NULL;
    for (int64_t c = 0; c < *count; c++) {
        int64_t rest = c, o = 0;
        for (int i = k - 1; i >= 0; i--) {
            o += (rest % v->sizes[dims[i]]) * v->strides[dims[i]];
            rest /= v->sizes[dims[i]];
        }
        off[c] = o;
    }
    return off;
}

int nn_index_put_multi_raw(nn_tensor *t, int n, const nn_index_item *items, nn_tensor *value)
{
    multi_index mi;
    nn_tensor *v = NULL, *vals = NULL, *stage = NULL;
    int64_t *pos = NULL, *outer = NULL, *inner = NULL, *boff = NULL, *offs = NULL, B[NN_MAX_DIMS], count, no, ni;
    nn_tensor *offt = NULL;
    int nb, rc = -1;
    bool adjacent;
    bool prev = nn_set_grad_enabled(false);
    if (split_index(t, n, items, &mi) < 0) goto done;
    if (!(v = nn_index(t, mi.n_basic, mi.basic))) goto done;
    if (!(pos = positions(v, &mi, &nb, B, &count, &adjacent))) goto done;
    /* the write goes through a contiguous staging copy when the view isn't contiguous */
    if (!(stage = nn_is_contiguous(v) ? (NN_RETAIN(v), v) : nn_clone(v))) goto done;
    bool indexed[NN_MAX_DIMS] = {false};
    for (int j = 0; j < mi.m; j++) indexed[mi.dim[j]] = true;
    int od[NN_MAX_DIMS], id[NN_MAX_DIMS], k_o = 0, k_i = 0;
    for (int d = 0; d < stage->ndim; d++) {
        if (indexed[d]) continue;
        if (adjacent && d < mi.dim[0]) od[k_o++] = d;
        else id[k_i++] = d;
    }
    int64_t shape[NN_MAX_DIMS];
    int nd = 0;
    for (int i = 0; i < k_o; i++) shape[nd++] = stage->sizes[od[i]];
    for (int d = 0; d < nb; d++) shape[nd++] = B[d];
    for (int i = 0; i < k_i; i++) shape[nd++] = stage->sizes[id[i]];
    if (nd > NN_MAX_DIMS) {
        nn_error_set(NN_ERR_RUNTIME, "tensors have at most %d dimensions", NN_MAX_DIMS);
        goto done;
    }
    if (!(vals = nn_empty_on(nn_device_of(stage), nd, shape, stage->dtype)) || nn_copy_(vals, value) < 0) goto done;
    if (!(outer = dim_offsets(stage, od, k_o, &no)) || !(inner = dim_offsets(stage, id, k_i, &ni))) goto done;
    /* the flat positions over the indexed dims, as offsets in the staging tensor */
    if (!(boff = nn_malloc(sizeof(int64_t) * (size_t)(count ? count : 1)))) goto done;
    for (int64_t b = 0; b < count; b++) {
        int64_t rest = pos[b], o = 0;
        for (int j = mi.m - 1; j >= 0; j--) {
            int64_t s = stage->sizes[mi.dim[j]];
            o += (rest % s) * stage->strides[mi.dim[j]];
            rest /= s;
        }
        boff[b] = o;
    }
    /* every element's offset in the staging tensor, in vals' order, then the
       index kernel's put */
    int64_t total = no * count * ni, k = 0;
    if (!(offs = nn_malloc(sizeof(int64_t) * (size_t)(total ? total : 1)))) goto done;
    for (int64_t o = 0; o < no; o++)
        for (int64_t b = 0; b < count; b++)
            for (int64_t i = 0; i < ni; i++) offs[k++] = outer[o] + boff[b] + inner[i];
    if (!(offt = nn_from_data_on(nn_device_of(stage), offs, 1, &total, NN_INT64))) goto done;
    nn_kernel_args ka = {.t = {stage, offt, vals}};
    if (NN_KERNEL(nn_backend_of(stage), index, (NN_INDEX_PUT, &ka)) < 0) goto done;
    rc = stage != v ? nn_copy_(v, stage) : 0;
done:
    nn_set_grad_enabled(prev);
    nn_free(boff);
    nn_free(offs);
    NN_RELEASE(offt);
    nn_free(inner);
    nn_free(outer);
    nn_free(pos);
    NN_RELEASE(vals);
    NN_RELEASE(stage);
    NN_RELEASE(v);
    multi_free(&mi);
    return rc;
}
