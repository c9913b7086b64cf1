/* gradcheck cases for upsample.c's 3-d and bicubic modes (the resample kernel) and for the backwards of
   upsampling and reflect/replicate padding as ops (resample_grad.c, double backward); included by test_gradcheck.c. */

#include "nn_resample.h"

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

static nn_tensor *gc_reflection_pad1d_grad(nn_tensor **in)
{
    return nn_index_pad_grad(in[0], 3, (const int64_t[]){2, 3, 5}, 1, (const int64_t[]){2, 1}, true);
}
static nn_tensor *gc_reflection_pad2d_grad(nn_tensor **in)
{
    return nn_index_pad_grad(in[0], 4, (const int64_t[]){1, 2, 3, 4}, 2, (const int64_t[]){1, 2, 2, 1}, true);
}
static nn_tensor *gc_reflection_pad3d_grad(nn_tensor **in)
{
    return nn_index_pad_grad(in[0], 5, (const int64_t[]){1, 1, 3, 3, 4}, 3, (const int64_t[]){1, 1, 2, 0, 1, 2}, true);
}
static nn_tensor *gc_replication_pad1d_grad(nn_tensor **in)
{
    return nn_index_pad_grad(in[0], 3, (const int64_t[]){1, 2, 4}, 1, (const int64_t[]){3, 1}, false);
}
static nn_tensor *gc_replication_pad2d_grad(nn_tensor **in)
{
    return nn_index_pad_grad(in[0], 3, (const int64_t[]){2, 3, 3}, 2, (const int64_t[]){1, 0, 2, 2}, false);
}
static nn_tensor *gc_replication_pad3d_grad(nn_tensor **in)
{
    return nn_index_pad_grad(in[0], 5, (const int64_t[]){1, 2, 2, 3, 2}, 3, (const int64_t[]){1, 1, 0, 1, 2, 0}, false);
}
static nn_tensor *gc_upsample_nearest1d_grad(nn_tensor **in)
{
    return nn_upsample_grad(in[0], (const int64_t[]){1, 2, 3}, 1, (const int64_t[]){7}, (const double[]){NAN},
                            NN_UPSAMPLE_NEAREST, false);
}
static nn_tensor *gc_upsample_nearest2d_grad(nn_tensor **in)
{
    return nn_upsample_grad(in[0], (const int64_t[]){1, 2, 3, 2}, 2, (const int64_t[]){5, 4}, (const double[]){1.7, 2.0},
                            NN_UPSAMPLE_NEAREST, false);
}
static nn_tensor *gc_upsample_nearest3d_grad(nn_tensor **in)
{
    return nn_upsample_grad(in[0], (const int64_t[]){1, 2, 2, 3, 2}, 3, (const int64_t[]){3, 5, 2}, (const double[]){1.7, NAN, NAN},
                            NN_UPSAMPLE_NEAREST, false);
}
static nn_tensor *gc_upsample_linear1d_grad(nn_tensor **in)
{
    return nn_upsample_grad(in[0], (const int64_t[]){1, 2, 3}, 1, (const int64_t[]){7}, (const double[]){NAN},
                            NN_UPSAMPLE_LINEAR, true);
}
static nn_tensor *gc_upsample_bilinear2d_grad(nn_tensor **in)
{
    return nn_upsample_grad(in[0], (const int64_t[]){1, 2, 3, 2}, 2, (const int64_t[]){5, 3}, (const double[]){NAN, NAN},
                            NN_UPSAMPLE_LINEAR, false);
}
static nn_tensor *gc_upsample_trilinear3d_grad(nn_tensor **in)
{
    return nn_upsample_grad(in[0], (const int64_t[]){1, 2, 2, 3, 2}, 3, (const int64_t[]){3, 4, 2}, (const double[]){1.5, NAN, NAN},
                            NN_UPSAMPLE_LINEAR, false);
}
static nn_tensor *gc_upsample_bicubic2d_grad(nn_tensor **in)
{
    return nn_upsample_grad(in[0], (const int64_t[]){1, 2, 3, 3}, 2, (const int64_t[]){5, 4}, (const double[]){NAN, NAN},
                            NN_UPSAMPLE_CUBIC, false);
}
static nn_tensor *gc_upsample_nearest_exact1d_grad(nn_tensor **in)
{
    return nn_upsample_grad(in[0], (const int64_t[]){1, 2, 3}, 1, (const int64_t[]){7}, (const double[]){NAN},
                            NN_UPSAMPLE_NEAREST_EXACT, false);
}
static nn_tensor *gc_upsample_nearest_exact2d_grad(nn_tensor **in)
{
    return nn_upsample_grad(in[0], (const int64_t[]){1, 2, 3, 3}, 2, (const int64_t[]){5, 2}, (const double[]){1.7, NAN},
                            NN_UPSAMPLE_NEAREST_EXACT, false);
}
static nn_tensor *gc_upsample_nearest_exact3d_grad(nn_tensor **in)
{
    return nn_upsample_grad(in[0], (const int64_t[]){2, 1, 3, 2, 2}, 3, (const int64_t[]){4, 2, 3}, (const double[]){NAN, NAN, NAN},
                            NN_UPSAMPLE_NEAREST_EXACT, false);
}

static const gc_case cases_resample[] = {
    {NN_OP_reflection_pad1d_backward, "reflection_pad1d_backward", gc_reflection_pad1d_grad, 1, {3}, {{2, 3, 8}}, -2, 2, 0},
    {NN_OP_reflection_pad2d_backward, "reflection_pad2d_backward", gc_reflection_pad2d_grad, 1, {4}, {{1, 2, 6, 7}}, -2, 2, 0},
    {NN_OP_reflection_pad3d_backward, "reflection_pad3d_backward", gc_reflection_pad3d_grad, 1, {5}, {{1, 1, 6, 5, 6}}, -2, 2, 0},
    {NN_OP_replication_pad1d_backward, "replication_pad1d_backward", gc_replication_pad1d_grad, 1, {3}, {{1, 2, 8}}, -2, 2, 0},
    {NN_OP_replication_pad2d_backward, "replication_pad2d_backward", gc_replication_pad2d_grad, 1, {3}, {{2, 7, 4}}, -2, 2, 0},
    {NN_OP_replication_pad3d_backward, "replication_pad3d_backward", gc_replication_pad3d_grad, 1, {5}, {{1, 2, 4, 4, 4}}, -2, 2, 0},
    {NN_OP_upsample_nearest1d_backward, "upsample_nearest1d_backward", gc_upsample_nearest1d_grad, 1, {3}, {{1, 2, 7}}, -2, 2, 0},
    {NN_OP_upsample_nearest2d_backward, "upsample_nearest2d_backward", gc_upsample_nearest2d_grad, 1, {4}, {{1, 2, 5, 4}}, -2, 2, 0},
    {NN_OP_upsample_nearest3d_backward, "upsample_nearest3d_backward", gc_upsample_nearest3d_grad, 1, {5}, {{1, 2, 3, 5, 2}}, -2, 2, 0},
    {NN_OP_upsample_linear1d_backward, "upsample_linear1d_backward", gc_upsample_linear1d_grad, 1, {3}, {{1, 2, 7}}, -2, 2, 0},
    {NN_OP_upsample_bilinear2d_backward, "upsample_bilinear2d_backward", gc_upsample_bilinear2d_grad, 1, {4}, {{1, 2, 5, 3}}, -2, 2, 0},
    {NN_OP_upsample_trilinear3d_backward, "upsample_trilinear3d_backward", gc_upsample_trilinear3d_grad, 1, {5}, {{1, 2, 3, 4, 2}}, -2, 2, 0},
    {NN_OP_upsample_bicubic2d_backward, "upsample_bicubic2d_backward", gc_upsample_bicubic2d_grad, 1, {4}, {{1, 2, 5, 4}}, -2, 2, 0},
    {NN_OP_upsample_nearest_exact1d_backward, "upsample_nearest_exact1d_backward", gc_upsample_nearest_exact1d_grad, 1, {3}, {{1, 2, 7}}, -2, 2, 0},
    {NN_OP_upsample_nearest_exact2d_backward, "upsample_nearest_exact2d_backward", gc_upsample_nearest_exact2d_grad, 1, {4}, {{1, 2, 5, 2}}, -2, 2, 0},
    {NN_OP_upsample_nearest_exact3d_backward, "upsample_nearest_exact3d_backward", gc_upsample_nearest_exact3d_grad, 1, {5}, {{2, 1, 4, 2, 3}}, -2, 2, 0},
    {NN_OP_upsample_bicubic2d, "upsample_bicubic2d", gc_bicubic2d, 1, {4}, {{1, 2, 3, 3}}, -2, 2, 0},
    {NN_OP_upsample_bicubic2d, "upsample_bicubic2d_align", gc_bicubic2d_align, 1, {4}, {{2, 1, 3, 3}}, -2, 2, 0},
    {NN_OP_upsample_trilinear3d, "upsample_trilinear3d", gc_trilinear3d, 1, {5}, {{1, 2, 2, 3, 2}}, -2, 2, 0},
    {NN_OP_upsample_trilinear3d, "upsample_trilinear3d_align", gc_trilinear3d_align, 1, {5}, {{1, 1, 2, 3, 2}}, -2, 2, 0},
    {NN_OP_upsample_nearest3d, "upsample_nearest3d", gc_nearest3d, 1, {5}, {{1, 2, 2, 3, 2}}, -2, 2, 0},
    {NN_OP_upsample_nearest_exact3d, "upsample_nearest_exact3d", gc_nearest_exact3d, 1, {5}, {{2, 1, 3, 2, 2}}, -2, 2, 0},
    GC_END,
};
