/* gradcheck cases for core/matmul.c (included by test_gradcheck.c). */

static nn_tensor *gc_mm(nn_tensor **in) { return nn_mm(in[0], in[1]); }
/* both operands transposed views: BLAS reads them with CblasTrans */
static nn_tensor *gc_mm_transposed(nn_tensor **in)
{
    nn_tensor *a = nn_t(in[0]), *b = nn_t(in[1]), *out = nn_mm(a, b);
    NN_RELEASE(a);
    NN_RELEASE(b);
    return out;
}
static nn_tensor *gc_bmm(nn_tensor **in) { return nn_bmm(in[0], in[1]); }
static nn_tensor *gc_bmm_transposed(nn_tensor **in)
{
    nn_tensor *b = nn_transpose(in[1], 1, 2), *out = nn_bmm(in[0], b);
    NN_RELEASE(b);
    return out;
}
static nn_tensor *gc_matmul(nn_tensor **in) { return nn_matmul(in[0], in[1]); }
/* [3, 4, 2] permuted to [4, 2, 3]: neither row- nor column-major, folded with a copy */
static nn_tensor *gc_matmul_permuted(nn_tensor **in)
{
    nn_tensor *a = nn_permute(in[0], 3, (const int[]){1, 2, 0}), *out = nn_matmul(a, in[1]);
    NN_RELEASE(a);
    return out;
}

static const gc_case cases_matmul[] = {
    {NN_OP_mm, "mm", gc_mm, 2, {2, 2}, {{2, 3}, {3, 4}}, -1, 1, 0},
    {NN_OP_mm, "mm of transposed operands", gc_mm_transposed, 2, {2, 2}, {{3, 2}, {4, 3}}, -1, 1, 0},
    {NN_OP_bmm, "bmm", gc_bmm, 2, {3, 3}, {{2, 2, 3}, {2, 3, 4}}, -1, 1, 0},
    {NN_OP_bmm, "bmm of a transposed batch", gc_bmm_transposed, 2, {3, 3}, {{2, 2, 3}, {2, 4, 3}}, -1, 1, 0},
    {NN_OP_dot, "matmul 1D @ 1D (dot)", gc_matmul, 2, {1, 1}, {{4}, {4}}, -1, 1, 0},
    {NN_OP_mv, "matmul 2D @ 1D (mv)", gc_matmul, 2, {2, 1}, {{3, 4}, {4}}, -1, 1, 0},
    {NN_OP_squeeze_inplace, "matmul 1D @ 2D (mm + squeeze_)", gc_matmul, 2, {1, 2}, {{3}, {3, 4}}, -1, 1, 0},
    {NN_OP_unsafe_view, "matmul 3D @ 2D (folded mm)", gc_matmul, 2, {3, 2}, {{2, 3, 4}, {4, 2}}, -1, 1, 0},
    {NN_OP_unsafe_view, "matmul 3D @ 1D (folded mv)", gc_matmul, 2, {3, 1}, {{2, 3, 4}, {4}}, -1, 1, 0},
    {NN_OP_unsafe_view, "matmul 1D @ 3D (folded mv of b^T)", gc_matmul, 2, {1, 3}, {{3}, {2, 3, 4}}, -1, 1, 0},
    {NN_OP_clone, "matmul 2D @ 3D (folded mm of b^T, transposed back)", gc_matmul, 2, {2, 3}, {{2, 3}, {2, 3, 4}},
     -1, 1, 0},
    {NN_OP_unsafe_view, "matmul 4D @ 3D broadcast (bmm)", gc_matmul, 2, {4, 3}, {{2, 1, 2, 3}, {3, 3, 2}}, -1, 1, 0},
    {NN_OP_unsafe_view, "matmul permuted 3D @ 2D", gc_matmul_permuted, 2, {3, 2}, {{3, 4, 2}, {3, 2}}, -1, 1, 0},
    GC_END,
};
