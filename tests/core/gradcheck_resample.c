/* gradcheck cases for upsample.c's 3-d and bicubic modes (the resample kernel, included by test_gradcheck.c). */

static nn_tensor *gc_bicubic2d(nn_tensor **in)
{
    return nn_upsample_mode(in[0], 2, (const int64_t[]){5, 4}, (const double[]){NAN, NAN}, NN_UPSAMPLE_CUBIC, false);
}
static nn_tensor *gc_bicubic2d_align(nn_tensor **in)
{
    return nn_upsample_mode(in[0], 2, (const int64_t[]){2, 7}, (const double[]){NAN, 2.4}, NN_UPSAMPLE_CUBIC, true);
}
static nn_tensor *gc_trilinear3d(nn_tensor **in)
{
    return nn_upsample(in[0], 3, (const int64_t[]){3, 4, 2}, (const double[]){1.5, NAN, NAN}, true, false);
}
static nn_tensor *gc_trilinear3d_align(nn_tensor **in)
{
    return nn_upsample(in[0], 3, (const int64_t[]){1, 5, 3}, (const double[]){NAN, NAN, NAN}, true, true);
}
static nn_tensor *gc_nearest3d(nn_tensor **in)
{
    return nn_upsample(in[0], 3, (const int64_t[]){3, 5, 2}, (const double[]){1.7, NAN, NAN}, false, false);
}
static nn_tensor *gc_nearest_exact3d(nn_tensor **in)
{
    return nn_upsample_mode(in[0], 3, (const int64_t[]){4, 2, 3}, (const double[]){NAN, NAN, NAN},
                            NN_UPSAMPLE_NEAREST_EXACT, false);
}

static const gc_case cases_resample[] = {
    {NN_OP_upsample_bicubic2d, "upsample_bicubic2d", gc_bicubic2d, 1, {4}, {{1, 2, 3, 3}}, -2, 2, 0},
    {NN_OP_upsample_bicubic2d, "upsample_bicubic2d_align", gc_bicubic2d_align, 1, {4}, {{2, 1, 3, 3}}, -2, 2, 0},
    {NN_OP_upsample_trilinear3d, "upsample_trilinear3d", gc_trilinear3d, 1, {5}, {{1, 2, 2, 3, 2}}, -2, 2, 0},
    {NN_OP_upsample_trilinear3d, "upsample_trilinear3d_align", gc_trilinear3d_align, 1, {5}, {{1, 1, 2, 3, 2}}, -2, 2, 0},
    {NN_OP_upsample_nearest3d, "upsample_nearest3d", gc_nearest3d, 1, {5}, {{1, 2, 2, 3, 2}}, -2, 2, 0},
    {NN_OP_upsample_nearest_exact3d, "upsample_nearest_exact3d", gc_nearest_exact3d, 1, {5}, {{2, 1, 3, 2, 2}}, -2, 2, 0},
    GC_END,
};
