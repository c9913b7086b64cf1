/* gradcheck cases for core/act_extra.c and core/pad.c (included by test_gradcheck.c). */

static nn_tensor *gc_selu(nn_tensor **in) { return nn_selu(in[0]); }
static nn_tensor *gc_glu(nn_tensor **in) { return nn_glu(in[0], 1); }
static nn_tensor *gc_rrelu_eval(nn_tensor **in) { return nn_rrelu(in[0], 0.1, 0.3, false); }
/* training with lower == upper: every draw is the same slope, so finite differences see one function */
static nn_tensor *gc_rrelu_train(nn_tensor **in) { return nn_rrelu(in[0], 0.25, 0.25, true); }
static nn_tensor *gc_constant_pad(nn_tensor **in) { return nn_constant_pad_nd(in[0], 4, (const int64_t[]){1, -1, 2, 0}, 0.5); }
static nn_tensor *gc_reflect1(nn_tensor **in) { return nn_index_pad(in[0], 1, (const int64_t[]){2, 1}, true); }
static nn_tensor *gc_reflect2(nn_tensor **in) { return nn_index_pad(in[0], 2, (const int64_t[]){1, 2, 2, -1}, true); }
static nn_tensor *gc_reflect3(nn_tensor **in) { return nn_index_pad(in[0], 3, (const int64_t[]){1, 1, 0, 2, 1, 0}, true); }
static nn_tensor *gc_replicate1(nn_tensor **in) { return nn_index_pad(in[0], 1, (const int64_t[]){3, 1}, false); }
static nn_tensor *gc_replicate2(nn_tensor **in) { return nn_index_pad(in[0], 2, (const int64_t[]){1, 3, -1, 2}, false); }
static nn_tensor *gc_replicate3(nn_tensor **in) { return nn_index_pad(in[0], 3, (const int64_t[]){2, 0, 1, 1, 0, 2}, false); }

static const gc_case cases_mod_more[] = {
    {NN_OP_selu, "selu", gc_selu, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_glu, "glu", gc_glu, 1, {2}, {{2, 4}}, -2, 2, 0},
    {NN_OP_rrelu, "rrelu eval", gc_rrelu_eval, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_rrelu, "rrelu training", gc_rrelu_train, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_constant_pad_nd, "constant_pad_nd", gc_constant_pad, 1, {3}, {{2, 3, 4}}, -2, 2, 0},
    {NN_OP_reflection_pad1d, "reflection_pad1d", gc_reflect1, 1, {2}, {{2, 4}}, -2, 2, 0},
    {NN_OP_reflection_pad2d, "reflection_pad2d", gc_reflect2, 1, {3}, {{2, 3, 4}}, -2, 2, 0},
    {NN_OP_reflection_pad3d, "reflection_pad3d", gc_reflect3, 1, {4}, {{1, 2, 3, 3}}, -2, 2, 0},
    {NN_OP_replication_pad1d, "replication_pad1d", gc_replicate1, 1, {3}, {{1, 2, 3}}, -2, 2, 0},
    {NN_OP_replication_pad2d, "replication_pad2d", gc_replicate2, 1, {4}, {{1, 2, 3, 3}}, -2, 2, 0},
    {NN_OP_replication_pad3d, "replication_pad3d", gc_replicate3, 1, {4}, {{2, 2, 2, 3}}, -2, 2, 0},
    GC_END,
};
