/*
 * reduce.c — reductions over dims: sum, mean, var, std, max, min, argmax,
 * norm, each with its backward. All use one layout: the reduced dims moved
 * last and made contiguous, so a kernel reduces rows of `inner` elements.
 */
#include <math.h>
#include <string.h>

#include "nn_int.h"

int nn_reduction_layout_make(nn_tensor *a, int n_dims, const int *dims, bool keepdim, nn_reduction_layout *l)
{
    memset(l, 0, sizeof *l);
    for (int i = 0; i < n_dims; i++) {
        int d;
        if (nn_wrap_dim(dims[i], a->ndim, &d) < 0) return -1;
        if (a->ndim == 0) continue;
        if (l->reduced[d])
            return nn_error_set(NN_ERR_RUNTIME, "dim %d appears multiple times in the list of dims", d);
        l->reduced[d] = true;
    }
    if (n_dims == 0)
        for (int d = 0; d < a->ndim; d++) l->reduced[d] = true;
    int perm[NN_MAX_DIMS], np = 0;
    l->outer = l->inner = 1;
    for (int d = 0; d < a->ndim; d++) {
        if (l->reduced[d]) {
            if (keepdim) l->out_shape[l->out_ndim++] = 1;
            continue;
        }
        perm[np++] = d;
        l->outer *= a->sizes[d];
        l->out_shape[l->out_ndim++] = a->sizes[d];
    }
    for (int d = 0; d < a->ndim; d++)
        if (l->reduced[d]) {
            perm[np++] = d;
            l->inner *= a->sizes[d];
        }
    /* a raw view, no autograd: the op records its own node */
    bool prev = nn_set_grad_enabled(false);
    nn_tensor *p = nn_permute(a, a->ndim, perm);
    l->data = p ? nn_contiguous(p) : NULL;
    nn_set_grad_enabled(prev);
    NN_RELEASE(p);
    return l->data ? 0 : -1;
}

void nn_reduction_params(const nn_reduction_layout *l, bool keepdim, int ndim, nn_op_params *p)
{
    p->n_i = ndim;
    for (int d = 0; d < ndim; d++) p->i[d] = l->reduced[d];
    p->flags = keepdim;
}

nn_tensor *nn_reduction_grad_expand(nn_node *n, nn_tensor *grad)
{
    const nn_input_meta *m = &n->input_meta[0];
    NN_RETAIN(grad);
    nn_tensor *g = grad;
    if (!n->p.flags) {
        /* put the reduced dims back as size 1 */
        int64_t shape[NN_MAX_DIMS];
        for (int d = 0; d < m->ndim; d++) shape[d] = n->p.i[d] ? 1 : m->sizes[d];
        nn_tensor *r = nn_reshape(g, m->ndim, shape);
        NN_RELEASE(g);
        if (!r) return NULL;
        g = r;
    }
    nn_tensor *e = nn_expand(g, m->ndim, m->sizes);
    NN_RELEASE(g);
    return e;
}

/* ---------------------------------------------------------------- sum/mean */

static void sum_rows(const nn_reduction_layout *l, nn_tensor *out, double scale)
{
    const char *src = nn_data_ptr(l->data);
    nn_dtype in = l->data->dtype, od = out->dtype;
    size_t ies = nn_dtype_size(in), oes = nn_dtype_size(od);
    char *dst = out->storage->data;
    for (int64_t o = 0; o < l->outer; o++) {
        const char *row = src + (size_t)(o * l->inner) * ies;
        if (in == NN_INT64 || in == NN_INT32 || in == NN_BOOL) {
            int64_t acc = 0;
            for (int64_t i = 0; i < l->inner; i++) acc += (int64_t)nn_load_double(row + (size_t)i * ies, in);
            ((int64_t *)dst)[o] = acc;
            continue;
        }
        double acc = 0;
        if (in == NN_FLOAT32) {
            const float *f = (const float *)row;
            for (int64_t i = 0; i < l->inner; i++) acc += f[i];
        } else if (in == NN_FLOAT64) {
            const double *f = (const double *)row;
            for (int64_t i = 0; i < l->inner; i++) acc += f[i];
        } else {
            for (int64_t i = 0; i < l->inner; i++) acc += nn_load_double(row + (size_t)i * ies, in);
        }
        nn_store_double(dst + (size_t)o * oes, od, acc * scale);
    }
}

static nn_tensor *sum_or_mean(nn_tensor *a, int n_dims, const int *dims, bool keepdim, bool mean)
{
    if (mean && !nn_dtype_is_floating(a->dtype)) {
        static const char *const title[NN_DTYPE_COUNT] = {[NN_INT64] = "Long", [NN_INT32] = "Int", [NN_BOOL] = "Bool"};
        nn_error_set(NN_ERR_RUNTIME,
                     "mean(): could not infer output dtype. Input dtype must be either a floating point or complex "
                     "dtype. Got: %s",
                     title[a->dtype]);
        return NULL;
    }
    nn_reduction_layout l;
    if (nn_reduction_layout_make(a, n_dims, dims, keepdim, &l) < 0) return NULL;
    nn_dtype od = nn_dtype_is_floating(a->dtype) ? a->dtype : NN_INT64;
    nn_tensor *out = nn_empty(l.out_ndim, l.out_shape, od);
    if (out) {
        sum_rows(&l, out, mean ? 1.0 / (double)l.inner : 1.0);
        if (mean && l.inner == 0) nn_fill_(out, NAN);
        nn_op_params p;
        nn_reduction_params(&l, keepdim, a->ndim, &p);
        p.f[0] = (double)l.inner;
        nn_op_id op = n_dims == 0 ? (mean ? NN_OP_mean_all : NN_OP_sum_all) : (mean ? NN_OP_mean : NN_OP_sum);
        if (nn_record(op, 1, &a, 1, &out, 0, NULL, &p) < 0) NN_SET(out, NULL);
    }
    NN_RELEASE(l.data);
    return out;
}

nn_tensor *nn_sum(nn_tensor *a, int n_dims, const int *dims, bool keepdim)
{
    return sum_or_mean(a, n_dims, dims, keepdim, false);
}

nn_tensor *nn_mean(nn_tensor *a, int n_dims, const int *dims, bool keepdim)
{
    return sum_or_mean(a, n_dims, dims, keepdim, true);
}

static int sum_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin, bool mean)
{
    nn_tensor *g = nn_reduction_grad_expand(n, gout[0]);
    if (!g) return -1;
    if (!mean) {
        gin[0] = g;
        return 0;
    }
    gin[0] = nn_div_scalar(g, n->p.f[0]);
    NN_RELEASE(g);
    return gin[0] ? 0 : -1;
}

int nn_sum_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return sum_backward(n, gout, gin, false); }
int nn_sum_all_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return sum_backward(n, gout, gin, false); }
int nn_mean_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return sum_backward(n, gout, gin, true); }
int nn_mean_all_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return sum_backward(n, gout, gin, true); }
