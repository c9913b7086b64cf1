/* gradcheck cases for core/select.c (included by test_gradcheck.c). */

static nn_tensor *gc_values(int rc, nn_tensor *v, nn_tensor *i)
{
    NN_RELEASE(i);
    return rc < 0 ? NULL : v;
}
static nn_tensor *gc_sort(nn_tensor **in)
{
    nn_tensor *v = NULL, *i = NULL;
    int rc = nn_sort(in[0], 1, true, &v, &i);
    return gc_values(rc, v, i);
}
static nn_tensor *gc_topk(nn_tensor **in)
{
    nn_tensor *v = NULL, *i = NULL;
    int rc = nn_topk(in[0], 2, -1, false, &v, &i);
    return gc_values(rc, v, i);
}
static nn_tensor *gc_kthvalue(nn_tensor **in)
{
    nn_tensor *v = NULL, *i = NULL;
    int rc = nn_kthvalue(in[0], 2, 0, false, &v, &i);
    return gc_values(rc, v, i);
}
static nn_tensor *gc_cumsum(nn_tensor **in) { return nn_cumsum(in[0], 1, -1); }
static nn_tensor *gc_cumprod(nn_tensor **in) { return nn_cumprod(in[0], -1, -1); }
static nn_tensor *gc_flip(nn_tensor **in) { return nn_flip(in[0], 2, (const int[]){0, -1}); }
static nn_tensor *gc_roll(nn_tensor **in) { return nn_roll(in[0], 2, (const int64_t[]){1, -2}, 2, (const int[]){0, 1}); }
static nn_tensor *gc_roll_flat(nn_tensor **in) { return nn_roll(in[0], 1, (const int64_t[]){4}, 0, NULL); }
static nn_tensor *gc_tril(nn_tensor **in) { return nn_tril(in[0], 0); }
static nn_tensor *gc_triu(nn_tensor **in) { return nn_triu(in[0], -1); }
/* a fixed [2, 2] index into dim 1 of a [2, 3] */
static nn_tensor *gc_index22(void)
{
    int64_t s[2] = {2, 2};
    nn_tensor *ix = nn_empty(2, s, NN_INT64);
    if (ix) memcpy(ix->storage->data, (const int64_t[]){2, 0, 1, 1}, sizeof(int64_t) * 4);
    return ix;
}
static nn_tensor *gc_gather(nn_tensor **in)
{
    nn_tensor *ix = gc_index22(), *r = ix ? nn_gather(in[0], 1, ix) : NULL;
    NN_RELEASE(ix);
    return r;
}
static nn_tensor *gc_scatter(nn_tensor **in)
{
    int64_t s[2] = {2, 2};
    nn_tensor *ix = nn_empty(2, s, NN_INT64), *r = NULL;
    if (ix) memcpy(ix->storage->data, (const int64_t[]){2, 0, 1, 0}, sizeof(int64_t) * 4);
    if (ix) r = nn_scatter(in[0], 1, ix, in[1]);
    NN_RELEASE(ix);
    return r;
}
static nn_tensor *gc_scatter_value(nn_tensor **in)
{
    nn_tensor *ix = gc_index22(), *r = ix ? nn_scatter_value(in[0], 1, ix, 0.5) : NULL;
    NN_RELEASE(ix);
    return r;
}
static nn_tensor *gc_scatter_add(nn_tensor **in)
{
    nn_tensor *ix = gc_index22(), *r = ix ? nn_scatter_add(in[0], 1, ix, in[1]) : NULL;
    NN_RELEASE(ix);
    return r;
}
static nn_tensor *gc_index_select(nn_tensor **in)
{
    int64_t k = 4;
    nn_tensor *ix = nn_empty(1, &k, NN_INT64), *r = NULL;
    if (ix) memcpy(ix->storage->data, (const int64_t[]){2, 0, -1, 2}, sizeof(int64_t) * 4);
    if (ix) r = nn_index_select(in[0], 1, ix);
    NN_RELEASE(ix);
    return r;
}
static nn_tensor *gc_masked_select(nn_tensor **in)
{
    int64_t k = 3;
    nn_tensor *m = nn_empty(1, &k, NN_BOOL), *r = NULL;
    if (m) memcpy(m->storage->data, (const uint8_t[]){1, 0, 1}, 3);
    if (m) r = nn_masked_select(in[0], m);
    NN_RELEASE(m);
    return r;
}
static nn_tensor *gc_masked_fill(nn_tensor **in)
{
    int64_t k = 3;
    nn_tensor *m = nn_empty(1, &k, NN_BOOL), *r = NULL;
    if (m) memcpy(m->storage->data, (const uint8_t[]){1, 0, 1}, 3);
    if (m) r = nn_masked_fill(in[0], m, NULL, 0.5);
    NN_RELEASE(m);
    return r;
}
/* a [3] input broadcast to the [2, 3] mask, and a 0-dim value tensor */
static nn_tensor *gc_masked_fill_tensor(nn_tensor **in)
{
    int64_t k[2] = {2, 3};
    nn_tensor *m = nn_empty(2, k, NN_BOOL), *r = NULL;
    if (m) memcpy(m->storage->data, (const uint8_t[]){1, 0, 1, 0, 0, 1}, 6);
    if (m) r = nn_masked_fill(in[0], m, in[1], 0);
    NN_RELEASE(m);
    return r;
}

static const gc_case cases_select[] = {
    {NN_OP_sort, "sort descending", gc_sort, 1, {2}, {{2, 4}}, -2, 2, 0},
    {NN_OP_topk, "topk smallest", gc_topk, 1, {2}, {{3, 4}}, -2, 2, 0},
    {NN_OP_kthvalue, "kthvalue", gc_kthvalue, 1, {2}, {{3, 2}}, -2, 2, 0},
    {NN_OP_cumsum, "cumsum", gc_cumsum, 1, {2}, {{2, 4}}, -2, 2, 0},
    {NN_OP_cumprod, "cumprod", gc_cumprod, 1, {2}, {{2, 4}}, 0.5, 2, 0},
    {NN_OP_flip, "flip two dims", gc_flip, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_roll, "roll two dims", gc_roll, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_roll, "roll flattened", gc_roll_flat, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_tril, "tril", gc_tril, 1, {3}, {{2, 3, 3}}, -2, 2, 0},
    {NN_OP_triu, "triu", gc_triu, 1, {2}, {{3, 4}}, -2, 2, 0},
    {NN_OP_gather, "gather", gc_gather, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_scatter, "scatter a tensor", gc_scatter, 2, {2, 2}, {{2, 3}, {2, 2}}, -2, 2, 0},
    {NN_OP_scatter_value, "scatter a number", gc_scatter_value, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_scatter_add, "scatter_add", gc_scatter_add, 2, {2, 2}, {{2, 3}, {2, 2}}, -2, 2, 0},
    {NN_OP_index_select, "index_select repeated and negative", gc_index_select, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_masked_select, "masked_select broadcast", gc_masked_select, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_masked_fill, "masked_fill a number", gc_masked_fill, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_masked_fill_tensor, "masked_fill a 0-dim tensor, input broadcast", gc_masked_fill_tensor, 2, {1, 0}, {{3}, {0}}, -2, 2, 0},
    GC_END,
};
