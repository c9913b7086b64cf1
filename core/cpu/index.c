/*
 * cpu/index.c — the CPU's `index` kernel (core/kernels.def, nn_index_op): rows
 * gathered by index (embedding) and added back by index (its backward), in
 * index order as PyTorch's CPU kernels; rows of [P, D, Q] gathered, scattered or
 * added by positions (view.c's advanced indexing); tril/triu and flip (select.c).
 * The op files validate, lay the operands
 * out contiguous, allocate and record.
 */
#include <string.h>

#include "nn_cpu.h"
#include "nn_cpu_select.h"

static int embedding(nn_kernel_args *a)
{
    const nn_tensor *w = a->t[1], *idx = a->t[2];
    int64_t num = w->sizes[0], dim = w->sizes[1], k = nn_numel(idx);
    const int64_t *iv = nn_data_ptr(idx);
    for (int64_t i = 0; i < k; i++)
        if (iv[i] < 0 || iv[i] >= num) return nn_error_set(NN_ERR_INDEX, "index out of range in self");
    size_t row = (size_t)dim * nn_dtype_size(w->dtype);
    const char *src = nn_data_ptr(w);
    char *dst = a->t[0]->storage->data;
    if (row)
        for (int64_t i = 0; i < k; i++) memcpy(dst + (size_t)i * row, src + (size_t)iv[i] * row, row);
    return 0;
}

/* rows of grad added into a zero [num, dim] in index order, skipping
   padding_idx (as PyTorch's embedding_dense_backward) */
static int embedding_backward(nn_kernel_args *a)
{
    nn_tensor *gw = a->t[0];
    const nn_tensor *g = a->t[1], *idx = a->t[2];
    int64_t padding_idx = a->i[0], dim = gw->sizes[1];
    nn_dtype dt = gw->dtype;
    const int64_t *iv = nn_data_ptr(idx);
    int64_t k = nn_numel(idx);
    const char *src = nn_data_ptr(g);
    char *dst = gw->storage->data;
    size_t es = nn_dtype_size(dt);
    for (int64_t i = 0; i < k; i++) {
        if (iv[i] == padding_idx) continue;
        if (dt == NN_FLOAT32) {
            float *o = (float *)dst + iv[i] * dim;
            const float *s = (const float *)src + i * dim;
            for (int64_t j = 0; j < dim; j++) o[j] += s[j];
        } else if (dt == NN_FLOAT64) {
            double *o = (double *)dst + iv[i] * dim;
            const double *s = (const double *)src + i * dim;
            for (int64_t j = 0; j < dim; j++) o[j] += s[j];
        } else {
            for (int64_t j = 0; j < dim; j++) {
                char *o = dst + (size_t)(iv[i] * dim + j) * es;
                nn_store_double(o, dt,
                                (double)(float)(nn_load_double(o, dt) + nn_load_double(src + (size_t)(i * dim + j) * es, dt)));
            }
        }
    }
    return 0;
}

/* [P, D, Q] rows by positions t[2] (k int64, in [0, D)): gather dst[p, j] =
   src[p, pos[j]], scatter dst[p, pos[j]] = src[p, j], or add dst[p, pos[j]] +=
   src[p, j] (repeated positions add up, in order). */
static int move_rows(nn_index_op op, nn_kernel_args *a)
{
    nn_tensor *dst = a->t[0];
    const nn_tensor *srct = a->t[1];
    const int64_t *pos = nn_data_ptr(a->t[2]);
    int64_t k = nn_numel(a->t[2]), P = a->i[0], D = a->i[1], Q = a->i[2];
    size_t es = nn_dtype_size(dst->dtype), row = (size_t)Q * es;
    char *d = nn_data_ptr(dst);
    const char *src = nn_data_ptr(srct);
    for (int64_t p = 0; p < P; p++)
        for (int64_t j = 0; j < k; j++) {
            if (op == NN_INDEX_GATHER_ROWS) {
                memcpy(d + (size_t)(p * k + j) * row, src + (size_t)(p * D + pos[j]) * row, row);
            } else if (op == NN_INDEX_SCATTER_ROWS) {
                memcpy(d + (size_t)(p * D + pos[j]) * row, src + (size_t)(p * k + j) * row, row);
            } else {
                for (int64_t q = 0; q < Q; q++) {
                    char *o = d + ((size_t)((p * D + pos[j]) * Q + q)) * es;
                    const char *s = src + ((size_t)((p * k + j) * Q + q)) * es;
                    nn_store_double(o, dst->dtype, nn_load_double(o, dst->dtype) + nn_load_double(s, dst->dtype));
                }
            }
        }
    return 0;
}

/* tril (i[3]) or triu of [mats, R, C] (i[0] R, i[1] C) about diagonal i[2]; zeros elsewhere */
static int triangle(nn_kernel_args *a)
{
    nn_tensor *out = a->t[0];
    const nn_tensor *c = a->t[1];
    int64_t R = a->i[0], C = a->i[1], diagonal = a->i[2], mats = R * C != 0 ? nn_numel(c) / (R * C) : 0;
    bool lower = a->i[3];
    size_t es = nn_dtype_size(out->dtype);
    const char *src = nn_data_ptr(c);
    char *dst = nn_data_ptr(out);
    for (int64_t m = 0; m < mats; m++)
        for (int64_t i = 0; i < R; i++)
            for (int64_t j = 0; j < C; j++) {
                bool keep = lower ? j - i <= diagonal : j - i >= diagonal;
                int64_t at = (m * R + i) * C + j;
                if (keep) memcpy(dst + at * (int64_t)es, src + at * (int64_t)es, es);
                else memset(dst + at * (int64_t)es, 0, es);
            }
    return 0;
}

/* out = src reversed along the dims whose bit is set in i[0] */
static int flip(nn_kernel_args *a)
{
    nn_tensor *out = a->t[0];
    const nn_tensor *c = a->t[1];
    int64_t n = nn_numel(c), idx[NN_MAX_DIMS] = {0};
    size_t es = nn_dtype_size(out->dtype);
    int64_t strides[NN_MAX_DIMS];
    nn_contiguous_strides(out->ndim, out->sizes, strides);
    const char *src = nn_data_ptr(c);
    char *dst = nn_data_ptr(out);
    for (int64_t i = 0; i < n; i++) {
        int64_t from = 0;
        for (int k = 0; k < out->ndim; k++) from += ((a->i[0] >> k) & 1 ? out->sizes[k] - 1 - idx[k] : idx[k]) * strides[k];
        memcpy(dst + i * (int64_t)es, src + from * (int64_t)es, es);
        for (int k = out->ndim - 1; k >= 0; k--) {
            if (++idx[k] < out->sizes[k]) break;
            idx[k] = 0;
        }
    }
    return 0;
}

int nn_cpu_index(nn_index_op op, nn_kernel_args *a)
{
    switch (op) {
    case NN_INDEX_EMBEDDING: return embedding(a);
    case NN_INDEX_EMBEDDING_BACKWARD: return embedding_backward(a);
    case NN_INDEX_GATHER_ROWS:
    case NN_INDEX_SCATTER_ROWS:
    case NN_INDEX_ADD_ROWS: return move_rows(op, a);
    case NN_INDEX_TRIANGLE: return triangle(a);
    case NN_INDEX_FLIP: return flip(a);
    default: return nn_cpu_index_select_ops(op, a);
    }
    return nn_error_set(NN_ERR_RUNTIME, "index kernel: unknown op code %d", (int)op);
}
