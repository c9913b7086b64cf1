/* gradcheck cases for core/pool.c (included by test_gradcheck.c). */

static nn_tensor *gc_max_pool2d(nn_tensor **in)
{
    return nn_max_pool2d(in[0], (const int64_t[]){3, 2}, (const int64_t[]){2, 1}, (const int64_t[]){1, 1},
                         (const int64_t[]){1, 2}, true, NULL);
}
static nn_tensor *gc_max_pool1d(nn_tensor **in)
{
    nn_tensor *r = nn_max_pool1d(in[0], 3, 2, 1, 1, false, NULL), *u = NULL;
    /* the grad_fn checked is the pool's, under the squeeze */
    if (r) u = nn_unsqueeze(r, -2);
    NN_RELEASE(r);
    return u;
}
static nn_tensor *gc_avg_pool2d(nn_tensor **in)
{
    return nn_avg_pool2d(in[0], (const int64_t[]){3, 3}, (const int64_t[]){2, 2}, (const int64_t[]){1, 1}, true, false, 0);
}
static nn_tensor *gc_avg_pool2d_div(nn_tensor **in)
{
    return nn_avg_pool2d(in[0], (const int64_t[]){2, 3}, (const int64_t[]){1, 2}, (const int64_t[]){1, 0}, false, true, 5);
}
static nn_tensor *gc_adaptive_avg(nn_tensor **in) { return nn_adaptive_avg_pool2d(in[0], (const int64_t[]){3, 2}); }
static nn_tensor *gc_adaptive_max(nn_tensor **in) { return nn_adaptive_max_pool2d(in[0], (const int64_t[]){2, 3}, NULL); }

static const gc_case cases_pool[] = {
    {NN_OP_max_pool2d, "max_pool2d padding, dilation, ceil_mode", gc_max_pool2d, 1, {4}, {{2, 2, 5, 6}}, -1, 1, 0},
    {NN_OP_unsqueeze, "max_pool1d (through max_pool2d)", gc_max_pool1d, 1, {3}, {{2, 2, 7}}, -1, 1, 0},
    {NN_OP_avg_pool2d, "avg_pool2d ceil_mode, no padding counted", gc_avg_pool2d, 1, {3}, {{2, 5, 6}}, -1, 1, 0},
    {NN_OP_avg_pool2d, "avg_pool2d divisor_override", gc_avg_pool2d_div, 1, {4}, {{1, 2, 4, 5}}, -1, 1, 0},
    {NN_OP_adaptive_avg_pool2d, "adaptive_avg_pool2d", gc_adaptive_avg, 1, {4}, {{2, 2, 5, 7}}, -1, 1, 0},
    {NN_OP_adaptive_max_pool2d, "adaptive_max_pool2d", gc_adaptive_max, 1, {3}, {{2, 5, 7}}, -1, 1, 0},
    GC_END,
};
