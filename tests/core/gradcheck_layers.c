/* gradcheck cases for core/layers.c (included by test_gradcheck.c). */

/* F.linear on a 2-D input with a bias: addmm(bias, x, weight.t()) */
static nn_tensor *gc_linear(nn_tensor **in) { return nn_linear(in[0], in[1], in[2]); }
/* addmm with a full [n, m] self */
static nn_tensor *gc_addmm(nn_tensor **in) { return nn_addmm(in[0], in[1], in[2]); }
/* addmm of a column-major mat1 (mm_mat1_backward's other layout) and a row-major mat2 */
static nn_tensor *gc_addmm_colmajor(nn_tensor **in)
{
    nn_tensor *a = nn_t(in[1]), *out = nn_addmm(in[0], a, in[2]);
    NN_RELEASE(a);
    return out;
}
/* batch norm in training (batch statistics) over [N, C] and [N, C, L] */
static nn_tensor *gc_batch_norm_train(nn_tensor **in) { return nn_batch_norm(in[0], NULL, NULL, in[1], in[2], true, 0.1, 1e-5); }
/* batch norm in eval: fixed running statistics */
static nn_tensor *gc_batch_norm_eval(nn_tensor **in)
{
    int64_t c = in[0]->sizes[1];
    nn_tensor *rm = nn_full(1, &c, 0.25, NN_FLOAT64), *rv = nn_full(1, &c, 1.5, NN_FLOAT64);
    nn_tensor *out = rm && rv ? nn_batch_norm(in[0], rm, rv, in[1], in[2], false, 0.1, 1e-5) : NULL;
    NN_RELEASE(rm);
    NN_RELEASE(rv);
    return out;
}

/* conv2d with stride 2, padding 1, dilation 2 and 2 groups, and a plain one without bias */
static nn_tensor *gc_conv2d(nn_tensor **in)
{
    return nn_conv2d(in[0], in[1], in[2], (int64_t[]){2, 1}, (int64_t[]){1, 1}, (int64_t[]){2, 1}, 2);
}
static nn_tensor *gc_conv2d_plain(nn_tensor **in)
{
    return nn_conv2d(in[0], in[1], NULL, (int64_t[]){1, 1}, (int64_t[]){0, 0}, (int64_t[]){1, 1}, 1);
}

/* the input (which 0) or weight (1) gradient of gc_conv2d's convolution (no bias) of
   x, w for the output gradient g, under create_graph: the one
   ConvolutionBackwardBackward0 node, whose own backward is checked */
static nn_tensor *conv2d_grad(nn_tensor *g, nn_tensor *x, nn_tensor *w, int which)
{
    if (nn_set_requires_grad(x, true) < 0 || nn_set_requires_grad(w, true) < 0) return NULL; /* both wanted */
    bool prev = nn_set_grad_enabled(true);
    nn_tensor *xm = nn_mul_scalar(x, 1.0), *wm = xm ? nn_mul_scalar(w, 1.0) : NULL, *slots[2] = {NULL, NULL};
    nn_tensor *y = wm ? nn_conv2d(xm, wm, NULL, (int64_t[]){2, 1}, (int64_t[]){1, 1}, (int64_t[]){2, 1}, 2) : NULL;
    nn_tensor *wanted[2] = {xm, wm};
    int rc = y ? nn_backward_grad(y, g, false, true, 0, NULL, 2, wanted, slots, true) : -1;
    nn_set_grad_enabled(prev);
    NN_RELEASE(xm);
    NN_RELEASE(wm);
    NN_RELEASE(y);
    NN_RELEASE(slots[1 - which]);
    if (rc < 0) NN_SET(slots[which], NULL);
    return slots[which];
}
/* the gradient of x depends on g and w only, that of w on g and x: the other is a constant */
static nn_tensor *gc_conv2d_grad_input(nn_tensor **in)
{
    nn_tensor *x = nn_full(4, (const int64_t[]){2, 4, 5, 4}, 0.3, NN_FLOAT64), *r = x ? conv2d_grad(in[0], x, in[1], 0) : NULL;
    NN_RELEASE(x);
    return r;
}
static nn_tensor *gc_conv2d_grad_weight(nn_tensor **in)
{
    nn_tensor *w = nn_full(4, (const int64_t[]){4, 2, 2, 3}, -0.7, NN_FLOAT64), *r = w ? conv2d_grad(in[0], in[1], w, 1) : NULL;
    NN_RELEASE(w);
    return r;
}

static const gc_case cases_layers[] = {
    {NN_OP_convolution, "conv2d strided, padded, dilated, grouped", gc_conv2d, 3, {4, 4, 1},
     {{2, 4, 5, 4}, {4, 2, 2, 3}, {4}}, -1, 1, 0},
    {NN_OP_convolution, "conv2d without bias", gc_conv2d_plain, 2, {4, 4}, {{1, 2, 4, 4}, {3, 2, 3, 2}}, -1, 1, 0},
    {NN_OP_convolution_backward, "conv2d's input gradient under create_graph", gc_conv2d_grad_input, 2, {4, 4},
     {{2, 4, 3, 4}, {4, 2, 2, 3}}, -1, 1, 0},
    {NN_OP_convolution_backward, "conv2d's weight gradient under create_graph", gc_conv2d_grad_weight, 2, {4, 4},
     {{2, 4, 3, 4}, {2, 4, 5, 4}}, -1, 1, 0},
    {NN_OP_addmm, "linear 2D with bias (addmm)", gc_linear, 3, {2, 2, 1}, {{3, 4}, {2, 4}, {2}}, -1, 1, 0},
    {NN_OP_addmm, "addmm with a full self", gc_addmm, 3, {2, 2, 2}, {{3, 2}, {3, 4}, {4, 2}}, -1, 1, 0},
    {NN_OP_addmm, "addmm of a column-major mat1", gc_addmm_colmajor, 3, {1, 2, 2}, {{2}, {4, 3}, {4, 2}}, -1, 1, 0},
    {NN_OP_batch_norm, "batch_norm training [N, C]", gc_batch_norm_train, 3, {2, 1, 1}, {{4, 3}, {3}, {3}}, -1, 1, 0},
    {NN_OP_batch_norm, "batch_norm training [N, C, L]", gc_batch_norm_train, 3, {3, 1, 1}, {{3, 2, 5}, {2}, {2}}, -1, 1, 0},
    {NN_OP_batch_norm, "batch_norm eval [N, C, L]", gc_batch_norm_eval, 3, {3, 1, 1}, {{2, 3, 4}, {3}, {3}}, -1, 1, 0},
    GC_END,
};
