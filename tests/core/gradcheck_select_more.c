/* gradcheck cases for core/select_more.c (included by test_gradcheck.c). */
#include "nn_select_more.h"

static nn_tensor *gc_prod_all(nn_tensor **in) { return nn_prod(in[0], false, 0, false, -1); }
static nn_tensor *gc_prod_dim(nn_tensor **in) { return nn_prod(in[0], true, 1, false, -1); }
/* a zero in one row takes prod_safe_zeros_backward's path */
static nn_tensor *gc_prod_zero(nn_tensor **in)
{
    nn_tensor *m = nn_ones(2, (int64_t[]){2, 3}, NN_FLOAT64), *x = NULL, *r = NULL;
    if (m) ((double *)m->storage->data)[4] = 0;
    x = m ? nn_mul(in[0], m) : NULL;
    r = x ? nn_prod(x, true, -1, true, -1) : NULL;
    NN_RELEASE(m);
    NN_RELEASE(x);
    return r;
}
static nn_tensor *gc_amax(nn_tensor **in) { return nn_amax(in[0], 2, (const int[]){0, 2}, true); }
static nn_tensor *gc_amin(nn_tensor **in) { return nn_amin(in[0], 1, (const int[]){-1}, false); }
static nn_tensor *gc_median_all(nn_tensor **in) { return nn_median_all(in[0]); }
static nn_tensor *gc_median_dim(nn_tensor **in)
{
    nn_tensor *v = NULL, *i = NULL;
    int rc = nn_median_dim(in[0], 1, false, &v, &i);
    NN_RELEASE(i);
    return rc < 0 ? NULL : v;
}
static nn_tensor *gc_mode(nn_tensor **in)
{
    nn_tensor *v = NULL, *i = NULL;
    int rc = nn_mode(in[0], 0, true, &v, &i);
    NN_RELEASE(i);
    return rc < 0 ? NULL : v;
}
static nn_tensor *gc_diag_vec(nn_tensor **in) { return nn_diag(in[0], -1); }
static nn_tensor *gc_diag_mat(nn_tensor **in) { return nn_diag(in[0], 1); }
static nn_tensor *gc_diagonal(nn_tensor **in) { return nn_diagonal(in[0], -1, 0, 2); }
static nn_tensor *gc_diag_embed(nn_tensor **in) { return nn_diag_embed(in[0], 1, 0, -1); }
static nn_tensor *gc_index_add(nn_tensor **in)
{
    int64_t k = 3;
    nn_tensor *ix = nn_empty(1, &k, NN_INT64), *r = NULL;
    if (ix) memcpy(ix->storage->data, (const int64_t[]){2, 0, 2}, sizeof(int64_t) * 3);
    if (ix) r = nn_index_add(in[0], 1, ix, in[1], 1.5);
    NN_RELEASE(ix);
    return r;
}

static nn_tensor *gc_aminmax(nn_tensor **in)
{
    nn_tensor *lo = NULL, *hi = NULL;
    int rc = nn_aminmax(in[0], true, 1, false, &lo, &hi);
    NN_RELEASE(hi);
    return rc < 0 ? NULL : lo;
}

static nn_tensor *gc_scatter_reduce(nn_tensor **in)
{
    int64_t s[2] = {2, 2};
    nn_tensor *ix = nn_empty(2, s, NN_INT64), *r = NULL;
    if (ix) memcpy(ix->storage->data, (const int64_t[]){2, 0, 1, 1}, sizeof(int64_t) * 4);
    if (ix) r = nn_scatter_reduce_op(in[0], 1, ix, in[1], 0, false);
    NN_RELEASE(ix);
    return r;
}

/* overlapping windows: each element's gradient sums the windows that hold it */
static nn_tensor *gc_unfold_dim(nn_tensor **in) { return nn_unfold_dim(in[0], 1, 3, 2); }
/* overlapping places: each input element's gradient sums the view's places that read it */
static nn_tensor *gc_as_strided_view(nn_tensor **in)
{
    return nn_as_strided(in[0], 2, (const int64_t[]){3, 2}, (const int64_t[]){1, 1}, INT64_MIN);
}
static nn_tensor *gc_as_strided_off(nn_tensor **in)
{
    return nn_as_strided(in[0], 2, (const int64_t[]){2, 2}, (const int64_t[]){3, 1}, 1);
}

static const gc_case cases_select_more[] = {
    {NN_OP_prod_all, "prod of all", gc_prod_all, 1, {2}, {{2, 3}}, 0.5, 2, 0},
    {NN_OP_prod_dim, "prod along a dim", gc_prod_dim, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_prod_dim, "prod with a zero", gc_prod_zero, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_amax, "amax over two dims", gc_amax, 1, {3}, {{2, 3, 2}}, -2, 2, 0},
    {NN_OP_amin, "amin over the last dim", gc_amin, 1, {2}, {{3, 4}}, -2, 2, 0},
    {NN_OP_median_all, "median of all", gc_median_all, 1, {2}, {{3, 3}}, -2, 2, 0},
    {NN_OP_median_dim, "median along a dim", gc_median_dim, 1, {2}, {{3, 4}}, -2, 2, 0},
    {NN_OP_mode, "mode along a dim", gc_mode, 1, {2}, {{3, 2}}, -2, 2, 0},
    {NN_OP_diag, "diag of a vector", gc_diag_vec, 1, {1}, {{3}}, -2, 2, 0},
    {NN_OP_diag, "diag of a matrix", gc_diag_mat, 1, {2}, {{3, 4}}, -2, 2, 0},
    {NN_OP_diagonal, "diagonal of dims 0, 2", gc_diagonal, 1, {3}, {{3, 2, 4}}, -2, 2, 0},
    {NN_OP_diag_embed, "diag_embed", gc_diag_embed, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_unfold_dim, "unfold, overlapping windows", gc_unfold_dim, 1, {2}, {{2, 7}}, -2, 2, 0},
    {NN_OP_as_strided, "as_strided, overlapping places", gc_as_strided_view, 1, {1}, {{6}}, -2, 2, 0},
    {NN_OP_as_strided, "as_strided with a storage offset", gc_as_strided_off, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_index_add, "index_add repeated", gc_index_add, 2, {2, 2}, {{2, 4}, {2, 3}}, -2, 2, 0},
    {NN_OP_aminmax, "aminmax (no derivative)", gc_aminmax, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_scatter_reduce, "scatter reduce='add' (no derivative)", gc_scatter_reduce, 2, {2, 2}, {{2, 3}, {2, 2}}, -2, 2, 0},
    GC_END,
};
