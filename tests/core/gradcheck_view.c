/* gradcheck cases for core/view.c (included by test_gradcheck.c). */

static nn_tensor *gc_view(nn_tensor **in) { return nn_view(in[0], 2, (const int64_t[]){3, -1}); }
static nn_tensor *gc_reshape_alias(nn_tensor **in) { return nn_reshape(in[0], 1, (const int64_t[]){-1}); }
static nn_tensor *gc_unsafe_view(nn_tensor **in)
{
    nn_tensor *t = nn_transpose(in[0], 0, 1), *out = nn_reshape(t, 1, (const int64_t[]){6});
    NN_RELEASE(t);
    return out;
}
static nn_tensor *gc_transpose(nn_tensor **in) { return nn_transpose(in[0], 0, 2); }
static nn_tensor *gc_t(nn_tensor **in) { return nn_t(in[0]); }
static nn_tensor *gc_permute(nn_tensor **in) { return nn_permute(in[0], 3, (const int[]){2, 0, 1}); }
static nn_tensor *gc_unsqueeze(nn_tensor **in) { return nn_unsqueeze(in[0], 1); }
static nn_tensor *gc_squeeze(nn_tensor **in) { return nn_squeeze(in[0]); }
static nn_tensor *gc_squeeze_dim(nn_tensor **in) { return nn_squeeze_dim(in[0], 1); }
static nn_tensor *gc_expand(nn_tensor **in) { return nn_expand(in[0], 3, (const int64_t[]){2, 3, -1}); }
/* piece k of a multi-output view op (the others released): its node is shared */
static nn_tensor *piece_of(int rc, int n, nn_tensor **outs, int k)
{
    if (rc < 0) return NULL;
    for (int i = 0; i < n; i++)
        if (i != k) NN_RELEASE(outs[i]);
    return outs[k];
}
static nn_tensor *gc_unbind_view(nn_tensor **in)
{
    nn_tensor *o[4];
    return piece_of(nn_unbind(in[0], 1, o), 4, o, 2);
}
static nn_tensor *gc_split(nn_tensor **in)
{
    nn_tensor *o[2];
    return piece_of(nn_split_views(in[0], 1, 2, (const int64_t[]){3, 1}, false, o), 2, o, 0);
}
static nn_tensor *gc_split_sizes(nn_tensor **in)
{
    nn_tensor *o[3];
    return piece_of(nn_split_views(in[0], 0, 3, (const int64_t[]){1, 0, 2}, true, o), 3, o, 2);
}
static nn_tensor *gc_select(nn_tensor **in) { return nn_select(in[0], 1, -1); }
static nn_tensor *gc_slice(nn_tensor **in) { return nn_slice(in[0], 0, 1, 5, 2); }
static nn_tensor *gc_index_int(nn_tensor **in)
{
    nn_tensor *idx = tu_tensor(NN_INT64, 1, TU_SHAPE(4), TU_VALUES(2, 0, 2, -1));
    nn_index_item items[2] = {{.kind = NN_INDEX_SLICE}, {.kind = NN_INDEX_TENSOR, .tensor = idx}};
    nn_tensor *out = nn_index(in[0], 2, items);
    NN_RELEASE(idx);
    return out;
}
static nn_tensor *gc_index_mask(nn_tensor **in)
{
    nn_tensor *mask = tu_tensor(NN_BOOL, 2, TU_SHAPE(2, 3), TU_VALUES(1, 0, 1, 0, 1, 1));
    nn_index_item items[1] = {{.kind = NN_INDEX_TENSOR, .tensor = mask}};
    nn_tensor *out = nn_index(in[0], 1, items);
    NN_RELEASE(mask);
    return out;
}
static nn_tensor *gc_copy_slices(nn_tensor **in)
{
    nn_tensor *base = nn_mul_scalar(in[0], 1.0);
    nn_index_item items[2] = {{.kind = NN_INDEX_INT, .start = 1}, {.kind = NN_INDEX_SLICE, .start = 1, .has_start = true}};
    if (nn_index_put_(base, 2, items, in[1]) < 0) NN_SET(base, NULL);
    return base;
}

/* the gradient of a select/slice with in[0] as its grad output, under create_graph: a
   Select/SliceBackwardBackward0 node whose own backward is checked */
static nn_tensor *view_grad(nn_tensor *g, bool is_select)
{
    nn_tensor *d = nn_zeros(2, (const int64_t[]){5, 3}, NN_FLOAT64);
    if (!d || nn_set_requires_grad(d, true) < 0) return NULL;
    bool prev = nn_set_grad_enabled(true);
    nn_tensor *v = is_select ? nn_select(d, 0, 2) : nn_slice(d, 0, 1, 5, 2);
    int rc = v ? nn_backward_capture(v, g, false, true, 1, &d) : -1;
    nn_set_grad_enabled(prev);
    nn_tensor *out = rc == 0 ? d->grad : NULL;
    d->grad = NULL;
    NN_RELEASE(v);
    NN_RELEASE(d);
    return out;
}
static nn_tensor *gc_select_grad(nn_tensor **in) { return view_grad(in[0], true); }
static nn_tensor *gc_slice_grad(nn_tensor **in) { return view_grad(in[0], false); }

static const gc_case cases_view[] = {
    {NN_OP_select_backward, "select's backward", gc_select_grad, 1, {1}, {{3}}, -1, 1, 0},
    {NN_OP_slice_backward, "slice's backward", gc_slice_grad, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_view, "view", gc_view, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_reshape_alias, "reshape contiguous", gc_reshape_alias, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_unsafe_view, "reshape needing a copy", gc_unsafe_view, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_transpose, "transpose", gc_transpose, 1, {3}, {{2, 3, 2}}, -1, 1, 0},
    {NN_OP_t, "t", gc_t, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_permute, "permute", gc_permute, 1, {3}, {{2, 3, 2}}, -1, 1, 0},
    {NN_OP_unsqueeze, "unsqueeze", gc_unsqueeze, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_squeeze, "squeeze", gc_squeeze, 1, {3}, {{2, 1, 3}}, -1, 1, 0},
    {NN_OP_squeeze_dim, "squeeze dim", gc_squeeze_dim, 1, {3}, {{2, 1, 3}}, -1, 1, 0},
    {NN_OP_expand, "expand", gc_expand, 1, {2}, {{1, 4}}, -1, 1, 0},
    {NN_OP_select, "select", gc_select, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_unbind, "unbind along dim 1 (views)", gc_unbind_view, 1, {2}, {{3, 4}}, -1, 1, 0},
    {NN_OP_split, "split of 3 (a shorter last piece)", gc_split, 1, {2}, {{2, 4}}, -1, 1, 0},
    {NN_OP_split_with_sizes, "split_with_sizes with an empty piece", gc_split_sizes, 1, {2}, {{3, 2}}, -1, 1, 0},
    {NN_OP_slice, "slice with step", gc_slice, 1, {2}, {{6, 2}}, -1, 1, 0},
    {NN_OP_index, "index with ints (repeated)", gc_index_int, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_index, "index with a mask", gc_index_mask, 1, {3}, {{2, 3, 2}}, -1, 1, 0},
    {NN_OP_copy_slices, "x[1, 1:] = v", gc_copy_slices, 2, {2, 1}, {{3, 3}, {2}}, -1, 1, 0},
    GC_END,
};
