/* gradcheck cases for core/binary.c and the copies in core/tensor.c (included by test_gradcheck.c). */

static nn_tensor *gc_add(nn_tensor **in) { return nn_add_scaled(in[0], in[1], 0.5); }
static nn_tensor *gc_sub(nn_tensor **in) { return nn_sub(in[0], in[1]); }
static nn_tensor *gc_rsub(nn_tensor **in) { return nn_rsub_scalar(in[0], 2.0); }
static nn_tensor *gc_mul(nn_tensor **in) { return nn_mul(in[0], in[1]); }
static nn_tensor *gc_div(nn_tensor **in) { return nn_div(in[0], in[1]); }
static nn_tensor *gc_pow(nn_tensor **in) { return nn_pow_scalar(in[0], 2.5); }
static nn_tensor *gc_pow_tensor(nn_tensor **in) { return nn_pow(in[0], in[1]); }
static nn_tensor *gc_rpow(nn_tensor **in) { return nn_rpow_scalar(1.7, false, in[0]); }
static nn_tensor *gc_maximum(nn_tensor **in) { return nn_maximum(in[0], in[1]); }
static nn_tensor *gc_minimum(nn_tensor **in) { return nn_minimum(in[0], in[1]); }
static nn_tensor *gc_remainder(nn_tensor **in) { return nn_remainder(in[0], in[1]); }
static nn_tensor *gc_floor_divide(nn_tensor **in) { return nn_floor_divide(in[0], in[1]); }
static nn_tensor *gc_remainder_scalar(nn_tensor **in)
{
    nn_tensor *s = nn_wrapped_number(0.75, false), *out = s ? nn_remainder(in[0], s) : NULL;
    NN_RELEASE(s);
    return out;
}
static nn_tensor *gc_where(nn_tensor **in)
{
    nn_tensor *zero = nn_scalar(0.5, NN_FLOAT64);
    bool prev = nn_set_grad_enabled(false);
    nn_tensor *cond = nn_compare(in[0], zero, NN_GT);
    nn_set_grad_enabled(prev);
    nn_tensor *out = nn_where(cond, in[0], in[1]);
    NN_RELEASE(zero);
    NN_RELEASE(cond);
    return out;
}
static nn_tensor *gc_clone(nn_tensor **in)
{
    nn_tensor *t = nn_transpose(in[0], 0, 1), *out = nn_clone(t);
    NN_RELEASE(t);
    return out;
}
static nn_tensor *gc_to_copy(nn_tensor **in) { return nn_to_dtype(in[0], NN_FLOAT32); }

static const gc_case cases_binary[] = {
    {NN_OP_add, "add broadcast", gc_add, 2, {2, 1}, {{2, 3}, {3}}, -1, 1, 0},
    {NN_OP_sub, "sub broadcast", gc_sub, 2, {2, 2}, {{2, 3}, {1, 3}}, -1, 1, 0},
    {NN_OP_rsub, "rsub", gc_rsub, 1, {1}, {{4}}, -1, 1, 0},
    {NN_OP_mul, "mul broadcast", gc_mul, 2, {2, 1}, {{2, 3}, {3}}, -1, 1, 0},
    {NN_OP_div, "div", gc_div, 2, {2, 2}, {{2, 3}, {2, 3}}, 0.5, 2, 0},
    {NN_OP_pow, "pow scalar", gc_pow, 1, {1}, {{5}}, 0.5, 2, 0},
    {NN_OP_pow_tensor, "pow tensor", gc_pow_tensor, 2, {1, 1}, {{5}, {5}}, 0.5, 2, 0},
    {NN_OP_rpow, "rpow", gc_rpow, 1, {1}, {{5}}, -1, 1, 0},
    {NN_OP_maximum, "maximum", gc_maximum, 2, {1, 1}, {{6}, {6}}, -1, 1, 0},
    {NN_OP_minimum, "minimum", gc_minimum, 2, {1, 1}, {{6}, {6}}, -1, 1, 0},
    /* divisors in [0.5, 2]: the quotient's floor jumps only at integers, which the draws miss */
    {NN_OP_remainder, "remainder broadcast", gc_remainder, 2, {2, 1}, {{2, 3}, {3}}, 0.5, 2, 0},
    {NN_OP_remainder_scalar, "remainder by a number", gc_remainder_scalar, 1, {1}, {{5}}, -1, 1, 0},
    {NN_OP_floor_divide, "floor_divide (backward raises)", gc_floor_divide, 2, {1, 1}, {{4}, {4}}, 0.5, 2, 0},
    {NN_OP_where, "where", gc_where, 2, {1, 1}, {{6}, {6}}, 0, 1, 0},
    {NN_OP_clone, "clone of a transpose", gc_clone, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_to_copy, "to float32", gc_to_copy, 1, {1}, {{4}}, -1, 1, 1e-3},
    GC_END,
};
