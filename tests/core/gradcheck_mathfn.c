/* gradcheck cases for core/mathfn.c (included by test_gradcheck.c). */

static nn_tensor *gc_sin(nn_tensor **in) { return nn_sin(in[0]); }
static nn_tensor *gc_cos(nn_tensor **in) { return nn_cos(in[0]); }
static nn_tensor *gc_tan(nn_tensor **in) { return nn_tan(in[0]); }
static nn_tensor *gc_asin(nn_tensor **in) { return nn_asin(in[0]); }
static nn_tensor *gc_acos(nn_tensor **in) { return nn_acos(in[0]); }
static nn_tensor *gc_atan(nn_tensor **in) { return nn_atan(in[0]); }
static nn_tensor *gc_sinh(nn_tensor **in) { return nn_sinh(in[0]); }
static nn_tensor *gc_cosh(nn_tensor **in) { return nn_cosh(in[0]); }
static nn_tensor *gc_asinh(nn_tensor **in) { return nn_asinh(in[0]); }
static nn_tensor *gc_acosh(nn_tensor **in) { return nn_acosh(in[0]); }
static nn_tensor *gc_atanh(nn_tensor **in) { return nn_atanh(in[0]); }
static nn_tensor *gc_log2(nn_tensor **in) { return nn_log2(in[0]); }
static nn_tensor *gc_log10(nn_tensor **in) { return nn_log10(in[0]); }
static nn_tensor *gc_log1p(nn_tensor **in) { return nn_log1p(in[0]); }
static nn_tensor *gc_expm1(nn_tensor **in) { return nn_expm1(in[0]); }
static nn_tensor *gc_exp2(nn_tensor **in) { return nn_exp2(in[0]); }
static nn_tensor *gc_erf(nn_tensor **in) { return nn_erf(in[0]); }
static nn_tensor *gc_erfc(nn_tensor **in) { return nn_erfc(in[0]); }
static nn_tensor *gc_erfinv(nn_tensor **in) { return nn_erfinv(in[0]); }
static nn_tensor *gc_rsqrt(nn_tensor **in) { return nn_rsqrt(in[0]); }
static nn_tensor *gc_reciprocal(nn_tensor **in) { return nn_reciprocal(in[0]); }
static nn_tensor *gc_trunc(nn_tensor **in) { return nn_trunc(in[0]); }
static nn_tensor *gc_frac(nn_tensor **in) { return nn_frac(in[0]); }
static nn_tensor *gc_nan_to_num(nn_tensor **in) { return nn_nan_to_num(in[0], 0.0, NULL, NULL); }
static nn_tensor *gc_clamp_min_n(nn_tensor **in) { return nn_clamp_min(in[0], 0.1); }
static nn_tensor *gc_clamp_max_n(nn_tensor **in) { return nn_clamp_max(in[0], 0.1); }
static nn_tensor *gc_atan2(nn_tensor **in) { return nn_atan2(in[0], in[1]); }
static nn_tensor *gc_hypot(nn_tensor **in) { return nn_hypot(in[0], in[1]); }
static nn_tensor *gc_logaddexp(nn_tensor **in) { return nn_logaddexp(in[0], in[1]); }
static nn_tensor *gc_xlogy(nn_tensor **in) { return nn_xlogy(in[0], in[1]); }
static nn_tensor *gc_xlogy_scalar(nn_tensor **in)
{
    nn_tensor *w = nn_wrapped_number(1.5, false), *r = w ? nn_xlogy(in[0], w) : NULL;
    NN_RELEASE(w);
    return r;
}
static nn_tensor *gc_lerp(nn_tensor **in) { return nn_lerp(in[0], in[1], NULL, 0.3); }
static nn_tensor *gc_lerp_tensor(nn_tensor **in) { return nn_lerp(in[0], in[1], in[2], 0); }
static nn_tensor *gc_addcmul(nn_tensor **in) { return nn_addc(in[0], in[1], in[2], 0.7, false); }
static nn_tensor *gc_addcdiv(nn_tensor **in) { return nn_addc(in[0], in[1], in[2], -1.3, true); }
static nn_tensor *gc_logsumexp(nn_tensor **in) { return nn_logsumexp(in[0], 1, (const int[]){1}, false); }
static nn_tensor *gc_logsumexp2(nn_tensor **in) { return nn_logsumexp(in[0], 2, (const int[]){0, 2}, true); }

static const gc_case cases_mathfn[] = {
    {NN_OP_sin, "sin", gc_sin, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_cos, "cos", gc_cos, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_tan, "tan", gc_tan, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_asin, "asin", gc_asin, 1, {2}, {{2, 3}}, -0.9, 0.9, 0},
    {NN_OP_acos, "acos", gc_acos, 1, {2}, {{2, 3}}, -0.9, 0.9, 0},
    {NN_OP_atan, "atan", gc_atan, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_sinh, "sinh", gc_sinh, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_cosh, "cosh", gc_cosh, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_asinh, "asinh", gc_asinh, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_acosh, "acosh", gc_acosh, 1, {2}, {{2, 3}}, 1.2, 3, 0},
    {NN_OP_atanh, "atanh", gc_atanh, 1, {2}, {{2, 3}}, -0.9, 0.9, 0},
    {NN_OP_log2, "log2", gc_log2, 1, {2}, {{2, 3}}, 0.5, 2, 0},
    {NN_OP_log10, "log10", gc_log10, 1, {2}, {{2, 3}}, 0.5, 2, 0},
    {NN_OP_log1p, "log1p", gc_log1p, 1, {2}, {{2, 3}}, -0.5, 2, 0},
    {NN_OP_expm1, "expm1", gc_expm1, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_exp2, "exp2", gc_exp2, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_erf, "erf", gc_erf, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_erfc, "erfc", gc_erfc, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_erfinv, "erfinv", gc_erfinv, 1, {2}, {{2, 3}}, -0.8, 0.8, 0},
    {NN_OP_rsqrt, "rsqrt", gc_rsqrt, 1, {2}, {{2, 3}}, 0.5, 2, 0},
    {NN_OP_reciprocal, "reciprocal", gc_reciprocal, 1, {2}, {{2, 3}}, 0.5, 2, 0},
    {NN_OP_trunc, "trunc", gc_trunc, 1, {2}, {{2, 3}}, 0.1, 0.9, 0},
    {NN_OP_frac, "frac", gc_frac, 1, {2}, {{2, 3}}, 0.1, 0.9, 0},
    {NN_OP_nan_to_num, "nan_to_num", gc_nan_to_num, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_clamp_min, "clamp_min", gc_clamp_min_n, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_clamp_max, "clamp_max", gc_clamp_max_n, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_atan2, "atan2, broadcast", gc_atan2, 2, {2, 1}, {{2, 3}, {3}}, 0.5, 2, 0},
    {NN_OP_hypot, "hypot, broadcast", gc_hypot, 2, {2, 2}, {{2, 3}, {1, 3}}, 0.5, 2, 0},
    {NN_OP_logaddexp, "logaddexp", gc_logaddexp, 2, {2, 2}, {{2, 3}, {2, 3}}, -2, 2, 0},
    {NN_OP_xlogy, "xlogy", gc_xlogy, 2, {2, 2}, {{2, 3}, {2, 3}}, 0.5, 2, 0},
    {NN_OP_xlogy_scalar, "xlogy with a number", gc_xlogy_scalar, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_lerp, "lerp, number weight", gc_lerp, 2, {2, 1}, {{2, 3}, {3}}, -1, 1, 0},
    {NN_OP_lerp_tensor, "lerp, tensor weight", gc_lerp_tensor, 3, {2, 2, 1}, {{2, 3}, {2, 3}, {3}}, -1, 1, 0},
    {NN_OP_addcmul, "addcmul, broadcast", gc_addcmul, 3, {2, 1, 2}, {{2, 3}, {3}, {2, 1}}, -1, 1, 0},
    {NN_OP_addcdiv, "addcdiv, broadcast", gc_addcdiv, 3, {2, 1, 2}, {{2, 3}, {3}, {2, 1}}, 0.5, 2, 0},
    {NN_OP_logsumexp, "logsumexp one dim", gc_logsumexp, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_logsumexp, "logsumexp two dims, keepdim", gc_logsumexp2, 1, {3}, {{2, 3, 2}}, -2, 2, 0},
    GC_END,
};
