/* gradcheck cases for core/nnfunc.c (included by test_gradcheck.c). */

static nn_tensor *gc_softmax_last(nn_tensor **in) { return nn_softmax(in[0], -1); }
static nn_tensor *gc_softmax_mid(nn_tensor **in) { return nn_softmax(in[0], 1); }
static nn_tensor *gc_log_softmax_last(nn_tensor **in) { return nn_log_softmax(in[0], 1); }
static nn_tensor *gc_log_softmax_first(nn_tensor **in) { return nn_log_softmax(in[0], 0); }
static nn_tensor *gc_cat0(nn_tensor **in) { return nn_cat(3, in, 0); }
static nn_tensor *gc_cat1(nn_tensor **in) { return nn_cat(2, in, -1); }
static nn_tensor *gc_stack(nn_tensor **in) { return nn_stack(2, in, 1); }
/* one entry: the backward stacks its gradient with zeros for the others */
static nn_tensor *gc_unbind(nn_tensor **in)
{
    nn_tensor *e[3];
    if (nn_unbind_copies(in[0], e) < 0) return NULL;
    NN_RELEASE(e[0]);
    NN_RELEASE(e[2]);
    return e[1];
}

static nn_tensor *gc_mse_mean(nn_tensor **in) { return nn_mse_loss(in[0], in[1], NN_REDUCTION_MEAN); }
static nn_tensor *gc_mse_sum(nn_tensor **in) { return nn_mse_loss(in[0], in[1], NN_REDUCTION_SUM); }
static nn_tensor *gc_mse_none(nn_tensor **in) { return nn_mse_loss(in[0], in[1], NN_REDUCTION_NONE); }

/* int64 class indices made here (the harness only makes float64 inputs) */
static nn_tensor *gc_targets(int ndim, const int64_t *sizes, const int64_t *values)
{
    return nn_from_data(values, ndim, sizes, NN_INT64);
}

static nn_tensor *gc_cross_entropy(nn_tensor **in, nn_reduction reduction, int64_t ignore_index)
{
    nn_tensor *t = gc_targets(1, (const int64_t[]){4}, (const int64_t[]){2, 0, 4, 2});
    nn_tensor *out = t ? nn_cross_entropy(in[0], t, reduction, ignore_index, 0.0) : NULL;
    NN_RELEASE(t);
    return out;
}
static nn_tensor *gc_ce_mean(nn_tensor **in) { return gc_cross_entropy(in, NN_REDUCTION_MEAN, -100); }
static nn_tensor *gc_ce_sum_ignore(nn_tensor **in) { return gc_cross_entropy(in, NN_REDUCTION_SUM, 2); }
static nn_tensor *gc_ce_none(nn_tensor **in) { return gc_cross_entropy(in, NN_REDUCTION_NONE, 0); }
static nn_tensor *gc_ce_no_batch(nn_tensor **in)
{
    nn_tensor *t = gc_targets(0, NULL, (const int64_t[]){3});
    nn_tensor *out = t ? nn_cross_entropy(in[0], t, NN_REDUCTION_MEAN, -100, 0.0) : NULL;
    NN_RELEASE(t);
    return out;
}

static nn_tensor *gc_layer_norm(nn_tensor **in)
{
    return nn_layer_norm(in[0], 2, (const int64_t[]){3, 4}, in[1], in[2], 1e-5);
}
static nn_tensor *gc_layer_norm_plain(nn_tensor **in) { return nn_layer_norm(in[0], 1, (const int64_t[]){5}, NULL, NULL, 1e-5); }
static nn_tensor *gc_layer_norm_weight(nn_tensor **in) { return nn_layer_norm(in[0], 1, (const int64_t[]){5}, in[1], NULL, 1e-3); }

static nn_tensor *gc_embedding(nn_tensor **in)
{
    /* repeated rows accumulate; padding_idx is not among the indices (its row
       would be read but get no gradient, which finite differences disagree with) */
    nn_tensor *idx = gc_targets(2, (const int64_t[]){2, 3}, (const int64_t[]){1, 4, 1, 0, 4, 4});
    nn_tensor *out = idx ? nn_embedding(in[0], idx, 2) : NULL;
    NN_RELEASE(idx);
    return out;
}

static const gc_case cases_nnfunc[] = {
    {NN_OP_softmax, "softmax last dim", gc_softmax_last, 1, {2}, {{3, 4}}, -2, 2, 0},
    {NN_OP_softmax, "softmax middle dim", gc_softmax_mid, 1, {3}, {{2, 3, 2}}, -2, 2, 0},
    {NN_OP_log_softmax, "log_softmax last dim", gc_log_softmax_last, 1, {2}, {{3, 4}}, -2, 2, 0},
    {NN_OP_log_softmax, "log_softmax first dim", gc_log_softmax_first, 1, {2}, {{3, 2}}, -2, 2, 0},
    {NN_OP_cat, "cat dim 0", gc_cat0, 3, {2, 2, 2}, {{2, 3}, {1, 3}, {3, 3}}, -1, 1, 0},
    {NN_OP_cat, "cat last dim", gc_cat1, 2, {3, 3}, {{2, 1, 2}, {2, 1, 3}}, -1, 1, 0},
    {NN_OP_stack, "stack dim 1", gc_stack, 2, {2, 2}, {{2, 3}, {2, 3}}, -1, 1, 0},
    {NN_OP_unbind, "unbind copies", gc_unbind, 1, {2}, {{3, 4}}, -1, 1, 0},
    {NN_OP_mse_loss, "mse_loss mean", gc_mse_mean, 2, {2, 2}, {{2, 3}, {2, 3}}, -1, 1, 0},
    {NN_OP_mse_loss, "mse_loss sum, broadcast target", gc_mse_sum, 2, {2, 1}, {{2, 3}, {3}}, -1, 1, 0},
    {NN_OP_mse_loss, "mse_loss none", gc_mse_none, 2, {1, 1}, {{5}, {5}}, -1, 1, 0},
    {NN_OP_nll_loss, "cross_entropy mean", gc_ce_mean, 1, {2}, {{4, 5}}, -2, 2, 0},
    {NN_OP_nll_loss, "cross_entropy sum, ignore_index", gc_ce_sum_ignore, 1, {2}, {{4, 5}}, -2, 2, 0},
    {NN_OP_nll_loss, "cross_entropy none", gc_ce_none, 1, {2}, {{4, 5}}, -2, 2, 0},
    {NN_OP_nll_loss, "cross_entropy no batch dim", gc_ce_no_batch, 1, {1}, {{5}}, -2, 2, 0},
    {NN_OP_layer_norm, "layer_norm weight and bias", gc_layer_norm, 3, {3, 2, 2}, {{2, 3, 4}, {3, 4}, {3, 4}}, -2, 2, 0},
    {NN_OP_layer_norm, "layer_norm plain", gc_layer_norm_plain, 1, {2}, {{3, 5}}, -2, 2, 0},
    {NN_OP_layer_norm, "layer_norm weight only", gc_layer_norm_weight, 2, {1, 1}, {{5}, {5}}, -2, 2, 0},
    {NN_OP_embedding, "embedding", gc_embedding, 1, {2}, {{5, 3}}, -1, 1, 0},
    GC_END,
};
