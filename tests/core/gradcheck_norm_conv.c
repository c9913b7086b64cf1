/* gradcheck cases for core/norms_more.c, conv_more.c, upsample.c, unpool.c and nn_extra.c (included by test_gradcheck.c). */

static nn_tensor *gc_group_norm(nn_tensor **in) { return nn_group_norm(in[0], 2, in[1], in[2], 1e-5); }
static nn_tensor *gc_conv1d(nn_tensor **in) { return nn_conv1d(in[0], in[1], in[2], 2, 1, 1, 1); }
/* padding='same' with even kernels (an extra zero on the right, then the symmetric half) */
static nn_tensor *gc_conv1d_same(nn_tensor **in)
{
    return nn_conv_str(1, in[0], in[1], in[2], "same", (const int64_t[]){1}, (const int64_t[]){3}, 1);
}
static nn_tensor *gc_conv2d_same(nn_tensor **in)
{
    return nn_conv_str(2, in[0], in[1], in[2], "same", (const int64_t[]){1, 1, 1}, (const int64_t[]){1, 2, 1}, 1);
}
static nn_tensor *gc_conv3d_same(nn_tensor **in)
{
    return nn_conv_str(3, in[0], in[1], in[2], "same", (const int64_t[]){1, 1, 1}, (const int64_t[]){1, 1, 1}, 1);
}
static nn_tensor *gc_conv_transpose2d(nn_tensor **in)
{
    return nn_conv_transpose(2, in[0], in[1], in[2], (const int64_t[]){2, 1}, (const int64_t[]){1, 0},
                             (const int64_t[]){1, 0}, 1, (const int64_t[]){1, 2});
}
static nn_tensor *gc_conv_transpose1d(nn_tensor **in)
{
    return nn_conv_transpose(1, in[0], in[1], in[2], (const int64_t[]){2}, (const int64_t[]){0}, (const int64_t[]){0}, 2,
                             (const int64_t[]){1});
}
static nn_tensor *gc_nearest1d(nn_tensor **in) { return nn_upsample(in[0], 1, (const int64_t[]){7}, (const double[]){NAN}, false, false); }
static nn_tensor *gc_nearest2d(nn_tensor **in)
{
    return nn_upsample(in[0], 2, (const int64_t[]){5, 4}, (const double[]){1.7, 2.0}, false, false);
}
static nn_tensor *gc_nearest_exact1d(nn_tensor **in)
{
    return nn_upsample_mode(in[0], 1, (const int64_t[]){7}, (const double[]){NAN}, NN_UPSAMPLE_NEAREST_EXACT, false);
}
static nn_tensor *gc_nearest_exact2d(nn_tensor **in)
{
    return nn_upsample_mode(in[0], 2, (const int64_t[]){5, 2}, (const double[]){1.7, NAN}, NN_UPSAMPLE_NEAREST_EXACT, false);
}
static nn_tensor *gc_linear1d(nn_tensor **in) { return nn_upsample(in[0], 1, (const int64_t[]){7}, (const double[]){NAN}, true, true); }
static nn_tensor *gc_bilinear2d(nn_tensor **in)
{
    return nn_upsample(in[0], 2, (const int64_t[]){5, 3}, (const double[]){NAN, NAN}, true, false);
}
static nn_tensor *gc_max_unpool2d(nn_tensor **in)
{
    int64_t sizes[4] = {1, 2, 2, 2};
    nn_tensor *idx = nn_empty(4, sizes, NN_INT64);
    if (!idx) return NULL;
    static const int64_t where[8] = {0, 3, 9, 14, 5, 2, 15, 8};
    memcpy(nn_data_ptr(idx), where, sizeof where);
    nn_tensor *r = nn_max_unpool2d(in[0], idx, 4, 4);
    NN_RELEASE(idx);
    return r;
}

static nn_tensor *gc_pixel_shuffle(nn_tensor **in) { return nn_pixel_shuffle(in[0], 2); }
static nn_tensor *gc_pixel_unshuffle(nn_tensor **in) { return nn_pixel_unshuffle(in[0], 2); }

static const gc_case cases_norm_conv[] = {
    {NN_OP_group_norm, "group_norm", gc_group_norm, 3, {3, 1, 1}, {{2, 4, 3}, {4}, {4}}, -2, 2, 0},
    {NN_OP_conv1d, "conv1d", gc_conv1d, 3, {3, 3, 1}, {{2, 2, 5}, {3, 2, 2}, {3}}, -1, 1, 0},
    {NN_OP_conv1d, "conv1d_same", gc_conv1d_same, 3, {3, 3, 1}, {{2, 2, 7}, {3, 2, 2}, {3}}, -1, 1, 0},
    {NN_OP_convolution, "conv2d_same", gc_conv2d_same, 3, {4, 4, 1}, {{1, 2, 4, 5}, {2, 2, 2, 3}, {2}}, -1, 1, 0},
    {NN_OP_conv3d, "conv3d_same", gc_conv3d_same, 3, {5, 5, 1}, {{1, 1, 3, 3, 4}, {2, 1, 2, 3, 2}, {2}}, -1, 1, 0},
    {NN_OP_conv_transpose, "conv_transpose2d", gc_conv_transpose2d, 3, {4, 4, 1}, {{1, 2, 3, 3}, {2, 2, 2, 2}, {2}}, -1, 1, 0},
    {NN_OP_conv_transpose, "conv_transpose1d", gc_conv_transpose1d, 3, {3, 3, 1}, {{1, 4, 3}, {4, 1, 3}, {2}}, -1, 1, 0},
    {NN_OP_upsample_nearest1d, "upsample_nearest1d", gc_nearest1d, 1, {3}, {{1, 2, 3}}, -2, 2, 0},
    {NN_OP_upsample_nearest2d, "upsample_nearest2d", gc_nearest2d, 1, {4}, {{1, 2, 3, 2}}, -2, 2, 0},
    {NN_OP_upsample_linear1d, "upsample_linear1d", gc_linear1d, 1, {3}, {{1, 2, 3}}, -2, 2, 0},
    {NN_OP_upsample_bilinear2d, "upsample_bilinear2d", gc_bilinear2d, 1, {4}, {{1, 2, 3, 2}}, -2, 2, 0},
    {NN_OP_upsample_nearest_exact1d, "upsample_nearest_exact1d", gc_nearest_exact1d, 1, {3}, {{1, 2, 3}}, -2, 2, 0},
    {NN_OP_upsample_nearest_exact2d, "upsample_nearest_exact2d", gc_nearest_exact2d, 1, {4}, {{1, 2, 3, 3}}, -2, 2, 0},
    {NN_OP_max_unpool2d, "max_unpool2d", gc_max_unpool2d, 1, {4}, {{1, 2, 2, 2}}, -2, 2, 0},
    {NN_OP_pixel_shuffle, "pixel_shuffle", gc_pixel_shuffle, 1, {4}, {{1, 8, 2, 3}}, -2, 2, 0},
    {NN_OP_pixel_unshuffle, "pixel_unshuffle", gc_pixel_unshuffle, 1, {4}, {{2, 1, 4, 2}}, -2, 2, 0},
    GC_END,
};
