/* gradcheck cases for core/losses.c (included by test_gradcheck.c): gradients
   for the input and the target, with and without weights. */

static nn_tensor *gc_weight(double v0) /* [3]: v0, v0 + 0.5, v0 + 1 */
{
    nn_tensor *w = nn_empty(1, (const int64_t[]){3}, NN_FLOAT64);
    double *d = w ? nn_data_ptr(w) : NULL;
    for (int i = 0; d && i < 3; i++) d[i] = v0 + 0.5 * i;
    return w;
}

static nn_tensor *gc_bce(nn_tensor **in)
{
    nn_tensor *w = gc_weight(0.5);
    nn_tensor *r = w ? nn_binary_cross_entropy(in[0], in[1], w, NN_REDUCTION_MEAN) : NULL;
    NN_RELEASE(w);
    return r;
}
static nn_tensor *gc_bce_none(nn_tensor **in) { return nn_binary_cross_entropy(in[0], in[1], NULL, NN_REDUCTION_NONE); }

static nn_tensor *gc_bce_logits(nn_tensor **in)
{
    nn_tensor *w = gc_weight(0.5), *pw = gc_weight(0.3);
    nn_tensor *r = w && pw ? nn_bce_with_logits(in[0], in[1], w, pw, NN_REDUCTION_MEAN) : NULL;
    NN_RELEASE(w);
    NN_RELEASE(pw);
    return r;
}
static nn_tensor *gc_bce_logits_plain(nn_tensor **in)
{
    return nn_bce_with_logits(in[0], in[1], NULL, NULL, NN_REDUCTION_SUM);
}

static nn_tensor *gc_smooth_l1(nn_tensor **in) { return nn_smooth_l1_loss(in[0], in[1], NN_REDUCTION_MEAN, 5.0); }
/* the target shifted by 4: every |d| > beta */
static nn_tensor *gc_smooth_l1_far(nn_tensor **in)
{
    nn_tensor *t = nn_add_scalar(in[1], 4);
    nn_tensor *r = t ? nn_smooth_l1_loss(in[0], t, NN_REDUCTION_NONE, 0.5) : NULL;
    NN_RELEASE(t);
    return r;
}
static nn_tensor *gc_huber(nn_tensor **in) { return nn_huber_loss(in[0], in[1], NN_REDUCTION_SUM, 5.0); }
static nn_tensor *gc_huber_far(nn_tensor **in)
{
    nn_tensor *t = nn_add_scalar(in[1], 4);
    nn_tensor *r = t ? nn_huber_loss(in[0], t, NN_REDUCTION_MEAN, 0.5) : NULL;
    NN_RELEASE(t);
    return r;
}

/* nll_loss with a class weight over [2, 3] log-probabilities, targets 2, 0 */
static nn_tensor *gc_nll_weight(nn_tensor **in, nn_reduction reduction)
{
    int64_t tv[2] = {2, 0};
    nn_tensor *w = gc_weight(0.5), *t = nn_from_data(tv, 1, (const int64_t[]){2}, NN_INT64);
    nn_tensor *r = w && t ? nn_nll_loss(in[0], t, w, reduction, -100) : NULL;
    NN_RELEASE(w);
    NN_RELEASE(t);
    return r;
}
static nn_tensor *gc_nll_weight_mean(nn_tensor **in) { return gc_nll_weight(in, NN_REDUCTION_MEAN); }
static nn_tensor *gc_nll_weight_none(nn_tensor **in) { return gc_nll_weight(in, NN_REDUCTION_NONE); }

static nn_tensor *gc_div_number(nn_tensor **in) { return nn_div_number(in[0], 3.0); }

/* [2, 3, 2] log-probabilities: nll_loss2d */
static nn_tensor *gc_nll2d(nn_tensor **in)
{
    int64_t tv[4] = {2, 0, 1, 1};
    nn_tensor *w = gc_weight(0.5), *t = nn_from_data(tv, 2, (const int64_t[]){2, 2}, NN_INT64);
    nn_tensor *r = w && t ? nn_nll_loss(in[0], t, w, NN_REDUCTION_MEAN, -100) : NULL;
    NN_RELEASE(w);
    NN_RELEASE(t);
    return r;
}

static const gc_case cases_losses[] = {
    {NN_OP_div_number, "div_number", gc_div_number, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_nll_loss2d, "nll_loss2d weight mean", gc_nll2d, 1, {3}, {{2, 3, 2}}, -2, 0, 0},
    {NN_OP_nll_loss, "nll_loss weight mean", gc_nll_weight_mean, 1, {2}, {{2, 3}}, -2, 0, 0},
    {NN_OP_nll_loss, "nll_loss weight none", gc_nll_weight_none, 1, {2}, {{2, 3}}, -2, 0, 0},
    {NN_OP_binary_cross_entropy, "binary_cross_entropy", gc_bce, 2, {2, 2}, {{2, 3}, {2, 3}}, 0.1, 0.9, 0},
    {NN_OP_binary_cross_entropy, "binary_cross_entropy none", gc_bce_none, 2, {2, 2}, {{2, 3}, {2, 3}}, 0.1, 0.9, 0},
    {NN_OP_binary_cross_entropy_with_logits, "bce_with_logits", gc_bce_logits, 2, {2, 2}, {{2, 3}, {2, 3}}, -2, 2, 0},
    {NN_OP_binary_cross_entropy_with_logits, "bce_with_logits sum", gc_bce_logits_plain, 2, {2, 2}, {{2, 3}, {2, 3}},
     -2, 2, 0},
    {NN_OP_smooth_l1_loss, "smooth_l1_loss", gc_smooth_l1, 2, {2, 2}, {{2, 3}, {2, 3}}, -2, 2, 0},
    {NN_OP_smooth_l1_loss, "smooth_l1_loss far", gc_smooth_l1_far, 2, {2, 2}, {{2, 3}, {2, 3}}, -1, 1, 0},
    {NN_OP_huber_loss, "huber_loss", gc_huber, 2, {2, 2}, {{2, 3}, {2, 3}}, -2, 2, 0},
    {NN_OP_huber_loss, "huber_loss far", gc_huber_far, 2, {2, 2}, {{2, 3}, {2, 3}}, -1, 1, 0},
    GC_END,
};
