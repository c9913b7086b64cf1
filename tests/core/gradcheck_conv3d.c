/* gradcheck cases for core/conv3d.c (included by test_gradcheck.c). */

static nn_tensor *gc_conv3d(nn_tensor **in)
{
    return nn_conv3d(in[0], in[1], in[2], (const int64_t[]){1, 2, 1}, (const int64_t[]){1, 0, 1},
                     (const int64_t[]){2, 1, 1}, 2);
}
static nn_tensor *gc_conv_transpose3d(nn_tensor **in)
{
    return nn_conv_transpose3d(in[0], in[1], in[2], (const int64_t[]){2, 1, 2}, (const int64_t[]){0, 1, 0},
                               (const int64_t[]){1, 0, 0}, 2, (const int64_t[]){1, 1, 1});
}

static const gc_case cases_conv3d[] = {
    {NN_OP_conv3d, "conv3d", gc_conv3d, 3, {5, 5, 1}, {{2, 2, 4, 3, 3}, {4, 1, 2, 2, 2}, {4}}, -1, 1, 0},
    {NN_OP_conv_transpose3d, "conv_transpose3d", gc_conv_transpose3d, 3, {5, 5, 1}, {{1, 4, 2, 3, 2}, {4, 1, 2, 2, 2}, {2}},
     -1, 1, 0},
    GC_END,
};
