/* gradcheck cases for core/act_more.c (included by test_gradcheck.c). */

static nn_tensor *gc_hardtanh(nn_tensor **in) { return nn_hardtanh(in[0], -0.5, 0.7); }
static nn_tensor *gc_hardswish(nn_tensor **in) { return nn_hardswish(in[0]); }
static nn_tensor *gc_hardsigmoid(nn_tensor **in) { return nn_hardsigmoid(in[0]); }
static nn_tensor *gc_mish(nn_tensor **in) { return nn_mish(in[0]); }
static nn_tensor *gc_logsigmoid(nn_tensor **in) { return nn_logsigmoid(in[0]); }
static nn_tensor *gc_hardshrink(nn_tensor **in) { return nn_hardshrink(in[0], 0.5); }
static nn_tensor *gc_softshrink(nn_tensor **in) { return nn_softshrink(in[0], 0.5); }
static nn_tensor *gc_celu(nn_tensor **in) { return nn_celu(in[0], 0.7); }

/* inputs kept away from the kinks (|x| = 3, 0.5, the clamp bounds) by the ranges */
static const gc_case cases_act_more[] = {
    {NN_OP_hardtanh, "hardtanh", gc_hardtanh, 1, {2}, {{2, 3}}, -0.45, 0.65, 0},
    {NN_OP_hardswish, "hardswish", gc_hardswish, 1, {2}, {{2, 3}}, -2.9, 2.9, 0},
    {NN_OP_hardsigmoid, "hardsigmoid", gc_hardsigmoid, 1, {2}, {{2, 3}}, -2.9, 2.9, 0},
    {NN_OP_mish, "mish", gc_mish, 1, {2}, {{2, 3}}, -3, 3, 0},
    {NN_OP_log_sigmoid, "logsigmoid", gc_logsigmoid, 1, {2}, {{2, 3}}, -3, 3, 0},
    {NN_OP_hardshrink, "hardshrink", gc_hardshrink, 1, {2}, {{2, 3}}, 0.6, 2, 0},
    {NN_OP_softshrink, "softshrink", gc_softshrink, 1, {2}, {{2, 3}}, 0.6, 2, 0},
    {NN_OP_celu, "celu", gc_celu, 1, {2}, {{2, 3}}, -2, 2, 0},
    GC_END,
};
