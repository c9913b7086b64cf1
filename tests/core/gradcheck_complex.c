/* gradcheck cases for core/complex.c (included by test_gradcheck.c): complex
   operands are float64 inputs [..., 2] seen through view_as_complex, and a complex
   result enters the loss through view_as_real, so the finite differences check
   PyTorch's convention (the gradient dL/d(re) + i dL/d(im)). */

static nn_tensor *cx(nn_tensor *t) { return nn_view_as_complex(t); }

/* f(view_as_complex(in[0])), the view released */
static nn_tensor *cx_unary(nn_tensor **in, nn_tensor *(*f)(nn_tensor *))
{
    nn_tensor *z = cx(in[0]), *out = z ? f(z) : NULL;
    NN_RELEASE(z);
    return out;
}

/* f(view_as_complex(in[0]), view_as_complex(in[1])) */
static nn_tensor *cx_binary(nn_tensor **in, nn_tensor *(*f)(nn_tensor *, nn_tensor *))
{
    nn_tensor *z = cx(in[0]), *w = cx(in[1]), *out = z && w ? f(z, w) : NULL;
    NN_RELEASE(z);
    NN_RELEASE(w);
    return out;
}

static nn_tensor *gc_cx_exp_real(nn_tensor **in)
{
    nn_tensor *z = cx_unary(in, nn_exp), *out = z ? nn_view_as_real(z) : NULL;
    NN_RELEASE(z);
    return out;
}
static nn_tensor *gc_cx_view(nn_tensor **in) { return cx(in[0]); }
static nn_tensor *gc_cx_complex(nn_tensor **in) { return nn_complex(in[0], in[1]); }
static nn_tensor *gc_cx_polar(nn_tensor **in) { return nn_polar(in[0], in[1]); }
#define CX_FN(name, expr)                                                                                              \
    static nn_tensor *cx_##name(nn_tensor *z) { return expr; }                                                      \
    static nn_tensor *gc_cx_##name(nn_tensor **in) { return cx_unary(in, cx_##name); }
CX_FN(exp, nn_exp(z))
CX_FN(log, nn_log(z))
CX_FN(log2, nn_log2(z))
CX_FN(log10, nn_log10(z))
CX_FN(sqrt, nn_sqrt(z))
CX_FN(rsqrt, nn_rsqrt(z))
CX_FN(reciprocal, nn_reciprocal(z))
CX_FN(sin, nn_sin(z))
CX_FN(cos, nn_cos(z))
CX_FN(tan, nn_tan(z))
CX_FN(sinh, nn_sinh(z))
CX_FN(cosh, nn_cosh(z))
CX_FN(tanh, nn_tanh(z))
CX_FN(sigmoid, nn_sigmoid(z))
CX_FN(sgn, nn_sgn(z))
CX_FN(abs, nn_abs(z))
CX_FN(angle, nn_angle(z))
CX_FN(conj, nn_conj(z))
CX_FN(neg, nn_neg(z))
CX_FN(cube, nn_pow_scalar(z, 3))
CX_FN(sum, nn_sum(z, 1, (const int[]){0}, false))
#undef CX_FN
static nn_tensor *gc_cx_mul(nn_tensor **in) { return cx_binary(in, nn_mul); }
static nn_tensor *gc_cx_div(nn_tensor **in) { return cx_binary(in, nn_div); }
static nn_tensor *gc_cx_matmul(nn_tensor **in) { return cx_binary(in, nn_matmul); }
/* a real tensor times a complex one: the real operand's gradient is the real part */
static nn_tensor *gc_cx_mul_real(nn_tensor **in)
{
    nn_tensor *w = cx(in[1]), *out = w ? nn_mul(in[0], w) : NULL;
    NN_RELEASE(w);
    return out;
}

static nn_tensor *cx_fft_pad(nn_tensor *z) { return nn_fft(z, 7, 0, NULL); }
static nn_tensor *gc_cx_fft_pad(nn_tensor **in) { return cx_unary(in, cx_fft_pad); }
static nn_tensor *cx_ifft_cut(nn_tensor *z) { return nn_ifft(z, 3, -1, "ortho"); }
static nn_tensor *gc_cx_ifft_cut(nn_tensor **in) { return cx_unary(in, cx_ifft_cut); }
static nn_tensor *cx_irfft(nn_tensor *z) { return nn_irfft(z, 7, 0, NULL); }
static nn_tensor *gc_cx_irfft(nn_tensor **in) { return cx_unary(in, cx_irfft); }
static nn_tensor *cx_irfft_even(nn_tensor *z) { return nn_irfft(z, -1, 0, "forward"); }
static nn_tensor *gc_cx_irfft_even(nn_tensor **in) { return cx_unary(in, cx_irfft_even); }
static nn_tensor *gc_rfft(nn_tensor **in) { return nn_rfft(in[0], 6, -1, NULL); }
static nn_tensor *gc_fft_real(nn_tensor **in) { return nn_fft(in[0], -1, 0, "ortho"); }
static nn_tensor *gc_fft2(nn_tensor **in)
{
    nn_tensor *z = cx(in[0]), *out = z ? nn_fftn("fft_fft2", z, 2, (const int[]){0, 1}, NULL, NULL, NN_FFT_C2C, false) : NULL;
    NN_RELEASE(z);
    return out;
}

static const gc_case cases_complex[] = {
    {NN_OP_fft_c2c, "fft(z, n=7) (padded)", gc_cx_fft_pad, 1, {3}, {{5, 2, 2}}, -1, 1, 0},
    {NN_OP_fft_c2c, "ifft(z, n=3, ortho) (cut)", gc_cx_ifft_cut, 1, {3}, {{2, 5, 2}}, -1, 1, 0},
    {NN_OP_fft_c2r, "irfft(z, n=7)", gc_cx_irfft, 1, {3}, {{5, 2, 2}}, -1, 1, 0},
    {NN_OP_fft_c2r, "irfft(z, forward) (n=8)", gc_cx_irfft_even, 1, {2}, {{5, 2}}, -1, 1, 0},
    {NN_OP_fft_r2c, "rfft(x, n=6)", gc_rfft, 1, {2}, {{3, 5}}, -1, 1, 0},
    {NN_OP_fft_r2c, "fft(x) of a real x", gc_fft_real, 1, {2}, {{5, 2}}, -1, 1, 0},
    {NN_OP_fft_c2c, "fft2(z)", gc_fft2, 1, {3}, {{3, 4, 2}}, -1, 1, 0},
    {NN_OP_view_as_real, "view_as_real(exp(z))", gc_cx_exp_real, 1, {2}, {{3, 2}}, -1, 1, 0},
    {NN_OP_view_as_complex, "view_as_complex", gc_cx_view, 1, {3}, {{2, 3, 2}}, -1, 1, 0},
    {NN_OP_complex, "complex (broadcast)", gc_cx_complex, 2, {2, 1}, {{3, 4}, {4}}, -1, 1, 0},
    {NN_OP_polar, "polar", gc_cx_polar, 2, {1, 1}, {{5}, {5}}, 0.5, 2, 0},
    {NN_OP_complex_unary, "exp(z)", gc_cx_exp, 1, {2}, {{9, 2}}, -1, 1, 0},
    {NN_OP_complex_unary, "log(z)", gc_cx_log, 1, {2}, {{5, 2}}, 0.5, 2, 0},
    {NN_OP_complex_unary, "log2(z)", gc_cx_log2, 1, {2}, {{5, 2}}, 0.5, 2, 0},
    {NN_OP_complex_unary, "log10(z)", gc_cx_log10, 1, {2}, {{5, 2}}, 0.5, 2, 0},
    {NN_OP_complex_unary, "sqrt(z)", gc_cx_sqrt, 1, {2}, {{5, 2}}, 0.5, 2, 0},
    {NN_OP_complex_unary, "rsqrt(z)", gc_cx_rsqrt, 1, {2}, {{9, 2}}, 0.5, 2, 0},
    {NN_OP_complex_unary, "reciprocal(z)", gc_cx_reciprocal, 1, {2}, {{9, 2}}, 0.5, 2, 0},
    {NN_OP_complex_unary, "sin(z)", gc_cx_sin, 1, {2}, {{5, 2}}, -1, 1, 0},
    {NN_OP_complex_unary, "cos(z)", gc_cx_cos, 1, {2}, {{5, 2}}, -1, 1, 0},
    {NN_OP_complex_unary, "tan(z)", gc_cx_tan, 1, {2}, {{5, 2}}, -1, 1, 0},
    {NN_OP_complex_unary, "sinh(z)", gc_cx_sinh, 1, {2}, {{5, 2}}, -1, 1, 0},
    {NN_OP_complex_unary, "cosh(z)", gc_cx_cosh, 1, {2}, {{5, 2}}, -1, 1, 0},
    {NN_OP_complex_unary, "tanh(z)", gc_cx_tanh, 1, {2}, {{5, 2}}, -1, 1, 0},
    {NN_OP_complex_unary, "sigmoid(z)", gc_cx_sigmoid, 1, {2}, {{9, 2}}, -1, 1, 0},
    {NN_OP_complex_unary, "sgn(z)", gc_cx_sgn, 1, {2}, {{5, 2}}, 0.5, 2, 0},
    {NN_OP_complex_unary, "abs(z)", gc_cx_abs, 1, {2}, {{9, 2}}, 0.5, 2, 0},
    {NN_OP_complex_unary, "angle(z)", gc_cx_angle, 1, {2}, {{9, 2}}, 0.5, 2, 0},
    {NN_OP_complex_unary, "conj(z)", gc_cx_conj, 1, {2}, {{5, 2}}, -1, 1, 0},
    {NN_OP_complex_unary, "neg(z)", gc_cx_neg, 1, {2}, {{5, 2}}, -1, 1, 0},
    {NN_OP_pow, "z ** 3", gc_cx_cube, 1, {2}, {{5, 2}}, -1, 1, 0},
    {NN_OP_view_as_complex, "sum(z, 0) (SumBackward1)", gc_cx_sum, 1, {3}, {{3, 2, 2}}, -1, 1, 0},
    {NN_OP_mul, "z * w", gc_cx_mul, 2, {2, 2}, {{4, 2}, {4, 2}}, -1, 1, 0},
    {NN_OP_div, "z / w", gc_cx_div, 2, {2, 2}, {{4, 2}, {4, 2}}, 0.5, 2, 0},
    {NN_OP_mul, "x * w (real x)", gc_cx_mul_real, 2, {1, 2}, {{4}, {4, 2}}, -1, 1, 0},
    {NN_OP_complex, "z @ w (MmBackward0)", gc_cx_matmul, 2, {3, 3}, {{2, 3, 2}, {3, 2, 2}}, -1, 1, 0},
    GC_END,
};
