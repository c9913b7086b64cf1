/* gradcheck cases for core/special.c (included by test_gradcheck.c). */
#include "nn_gamma_sample.h"
#include "nn_special.h"

static nn_tensor *gc_lgamma(nn_tensor **in) { return nn_lgamma(in[0]); }
static nn_tensor *gc_digamma(nn_tensor **in) { return nn_digamma(in[0]); }
static nn_tensor *gc_polygamma(nn_tensor **in) { return nn_polygamma(2, in[0]); }
static nn_tensor *gc_mvlgamma(nn_tensor **in) { return nn_mvlgamma(in[0], 3); }
static nn_tensor *gc_i0(nn_tensor **in) { return nn_i0(in[0]); }
static nn_tensor *gc_i0e(nn_tensor **in) { return nn_special_i0e(in[0]); }
static nn_tensor *gc_i1(nn_tensor **in) { return nn_special_i1(in[0]); }
static nn_tensor *gc_i1e(nn_tensor **in) { return nn_special_i1e(in[0]); }
static nn_tensor *gc_ndtri(nn_tensor **in) { return nn_special_ndtri(in[0]); }
static nn_tensor *gc_log_ndtr(nn_tensor **in) { return nn_special_log_ndtr(in[0]); }
static nn_tensor *gc_erfcx(nn_tensor **in) { return nn_special_erfcx(in[0]); }
static nn_tensor *gc_sinc(nn_tensor **in) { return nn_sinc(in[0]); }
static nn_tensor *gc_entr(nn_tensor **in) { return nn_special_entr(in[0]); }
static nn_tensor *gc_xlog1py(nn_tensor **in) { return nn_special_xlog1py(in[0], in[1]); }
static nn_tensor *gc_xlog1py_scalar(nn_tensor **in)
{
    nn_tensor *w = nn_wrapped_number(0.75, false), *r = w ? nn_special_xlog1py(in[0], w) : NULL;
    NN_RELEASE(w);
    return r;
}
/* zeta's first argument has no derivative (as PyTorch's): a constant s, q differentiable */
static nn_tensor *gc_zeta(nn_tensor **in)
{
    nn_tensor *s = nn_scalar(2.5, NN_FLOAT64), *r = s ? nn_special_zeta(s, in[0]) : NULL;
    NN_RELEASE(s);
    return r;
}

static nn_tensor *gc_sample_dirichlet(nn_tensor **in) { return nn_sample_dirichlet(in[0]); }

static const gc_case cases_special[] = {
    {NN_OP_lgamma, "lgamma", gc_lgamma, 1, {2}, {{2, 3}}, 0.3, 4, 0},
    {NN_OP_digamma, "digamma", gc_digamma, 1, {2}, {{2, 3}}, 0.3, 4, 0},
    {NN_OP_polygamma, "polygamma(2, x)", gc_polygamma, 1, {2}, {{2, 3}}, 0.5, 3, 0},
    {NN_OP_mvlgamma, "mvlgamma(x, 3)", gc_mvlgamma, 1, {2}, {{2, 3}}, 1.5, 4, 0},
    {NN_OP_i0, "i0", gc_i0, 1, {2}, {{2, 3}}, -3, 3, 0},
    {NN_OP_special_i0e, "special.i0e", gc_i0e, 1, {2}, {{2, 3}}, 0.2, 9, 0},
    {NN_OP_special_i1, "special.i1", gc_i1, 1, {2}, {{2, 3}}, -3, 9, 0},
    {NN_OP_special_i1e, "special.i1e", gc_i1e, 1, {2}, {{2, 3}}, 0.2, 9, 0},
    {NN_OP_special_ndtri, "special.ndtri", gc_ndtri, 1, {2}, {{2, 3}}, 0.05, 0.95, 0},
    {NN_OP_special_log_ndtr, "special.log_ndtr", gc_log_ndtr, 1, {2}, {{2, 3}}, -3, 3, 0},
    {NN_OP_special_erfcx, "special.erfcx", gc_erfcx, 1, {2}, {{2, 3}}, -1, 3, 0},
    {NN_OP_sinc, "sinc", gc_sinc, 1, {2}, {{2, 3}}, 0.1, 2, 0},
    {NN_OP_special_entr, "special.entr", gc_entr, 1, {2}, {{2, 3}}, 0.2, 3, 0},
    {NN_OP_special_xlog1py, "special.xlog1py, broadcast", gc_xlog1py, 2, {2, 1}, {{2, 3}, {3}}, 0.2, 2, 0},
    {NN_OP_special_xlog1py_scalar, "special.xlog1py with a number", gc_xlog1py_scalar, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_special_zeta, "special.zeta(2.5, q)", gc_zeta, 1, {2}, {{2, 3}}, 0.5, 3, 0},
    {NN_OP_sample_dirichlet, "_sample_dirichlet (backward raises)", gc_sample_dirichlet, 1, {1}, {{4}}, 0.5, 3, 0},
    GC_END,
};
