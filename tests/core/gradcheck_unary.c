/* gradcheck cases for core/unary.c (included by test_gradcheck.c). Input
   ranges keep clear of kinks (relu, abs, threshold, clamp) only by chance of
   a draw landing within 1e-6 of one, which the fixed seed rules out. */

static nn_tensor *gc_neg(nn_tensor **in) { return nn_neg(in[0]); }
static nn_tensor *gc_exp(nn_tensor **in) { return nn_exp(in[0]); }
static nn_tensor *gc_log(nn_tensor **in) { return nn_log(in[0]); }
static nn_tensor *gc_sqrt(nn_tensor **in) { return nn_sqrt(in[0]); }
static nn_tensor *gc_abs(nn_tensor **in) { return nn_abs(in[0]); }
static nn_tensor *gc_floor(nn_tensor **in) { return nn_floor(in[0]); }
static nn_tensor *gc_ceil(nn_tensor **in) { return nn_ceil(in[0]); }
static nn_tensor *gc_round(nn_tensor **in) { return nn_round(in[0]); }
static nn_tensor *gc_sign(nn_tensor **in) { return nn_sign(in[0]); }
static nn_tensor *gc_tanh(nn_tensor **in) { return nn_tanh(in[0]); }
static nn_tensor *gc_sigmoid(nn_tensor **in) { return nn_sigmoid(in[0]); }
static nn_tensor *gc_relu(nn_tensor **in) { return nn_relu(in[0]); }
static nn_tensor *gc_gelu(nn_tensor **in) { return nn_gelu(in[0], NN_GELU_NONE); }
static nn_tensor *gc_gelu_tanh(nn_tensor **in) { return nn_gelu(in[0], NN_GELU_TANH); }
static nn_tensor *gc_gelu_strided(nn_tensor **in)
{
    nn_tensor *t = nn_transpose(in[0], 0, 1), *out = nn_gelu(t, NN_GELU_NONE);
    NN_RELEASE(t);
    return out;
}
static nn_tensor *gc_leaky_relu(nn_tensor **in) { return nn_leaky_relu(in[0], 0.1); }
static nn_tensor *gc_elu(nn_tensor **in) { return nn_elu(in[0], 1.3); }
static nn_tensor *gc_silu(nn_tensor **in) { return nn_silu(in[0]); }
static nn_tensor *gc_softplus(nn_tensor **in) { return nn_softplus(in[0], 1.0, 20.0); }
static nn_tensor *gc_softplus_beta(nn_tensor **in) { return nn_softplus(in[0], 2.0, 3.0); }
static nn_tensor *gc_threshold(nn_tensor **in) { return nn_threshold(in[0], 0.1, -0.5); }
static nn_tensor *gc_prelu(nn_tensor **in) { return nn_prelu(in[0], in[1]); }
static nn_tensor *gc_clamp_min(nn_tensor **in) { return nn_clamp(in[0], -0.3, true, 0.0, false); }
static nn_tensor *gc_clamp_max(nn_tensor **in) { return nn_clamp(in[0], 0.0, false, 0.4, true); }
static nn_tensor *gc_clamp(nn_tensor **in) { return nn_clamp(in[0], -0.3, true, 0.4, true); }

static const gc_case cases_unary[] = {
    {NN_OP_neg, "neg", gc_neg, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_exp, "exp", gc_exp, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_log, "log", gc_log, 1, {1}, {{5}}, 0.5, 2, 0},
    {NN_OP_sqrt, "sqrt", gc_sqrt, 1, {1}, {{5}}, 0.5, 2, 0},
    {NN_OP_abs, "abs", gc_abs, 1, {2}, {{2, 3}}, -1, 1, 0},
    /* the step functions, away from their jumps: zero gradient */
    {NN_OP_floor, "floor", gc_floor, 1, {2}, {{2, 3}}, 1.1, 1.9, 0},
    {NN_OP_ceil, "ceil", gc_ceil, 1, {2}, {{2, 3}}, 1.1, 1.9, 0},
    {NN_OP_round, "round", gc_round, 1, {2}, {{2, 3}}, 1.1, 1.4, 0},
    {NN_OP_sign, "sign", gc_sign, 1, {2}, {{2, 3}}, 0.5, 2, 0},
    {NN_OP_tanh, "tanh", gc_tanh, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_sigmoid, "sigmoid", gc_sigmoid, 1, {2}, {{2, 3}}, -3, 3, 0},
    {NN_OP_relu, "relu", gc_relu, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_gelu, "gelu", gc_gelu, 1, {2}, {{3, 4}}, -3, 3, 0},
    {NN_OP_gelu, "gelu tanh", gc_gelu_tanh, 1, {2}, {{3, 4}}, -3, 3, 0},
    {NN_OP_gelu, "gelu of a transpose", gc_gelu_strided, 1, {2}, {{3, 4}}, -3, 3, 0},
    {NN_OP_leaky_relu, "leaky_relu", gc_leaky_relu, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_elu, "elu", gc_elu, 1, {2}, {{2, 4}}, -2, 2, 0},
    {NN_OP_silu, "silu", gc_silu, 1, {2}, {{2, 4}}, -4, 4, 0},
    {NN_OP_softplus, "softplus", gc_softplus, 1, {2}, {{2, 4}}, -4, 4, 0},
    {NN_OP_softplus, "softplus beta 2 threshold 3", gc_softplus_beta, 1, {1}, {{8}}, -2, 2, 0},
    {NN_OP_threshold, "threshold", gc_threshold, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_prelu, "prelu per channel", gc_prelu, 2, {3, 1}, {{2, 3, 4}, {3}}, -1, 1, 0},
    {NN_OP_prelu, "prelu one weight", gc_prelu, 2, {2, 1}, {{2, 3}, {1}}, -1, 1, 0},
    {NN_OP_clamp, "clamp min", gc_clamp_min, 1, {2}, {{2, 4}}, -1, 1, 0},
    {NN_OP_clamp, "clamp max", gc_clamp_max, 1, {2}, {{2, 4}}, -1, 1, 0},
    {NN_OP_clamp, "clamp min and max", gc_clamp, 1, {2}, {{2, 4}}, -1, 1, 0},
    GC_END,
};
