/* gradcheck cases for core/elementwise_more.c, scan_more.c and scatter_views.c
   and linalg_lu.c (included by test_gradcheck.c). */
#include "nn_linalg.h"
#include "nn_misc_ops.h"

static nn_tensor *gc_clamp_both(nn_tensor **in) { return nn_clamp_tensor(in[0], in[1], in[2]); }
static nn_tensor *gc_clamp_lo(nn_tensor **in) { return nn_clamp_tensor(in[0], in[1], NULL); }
static nn_tensor *gc_clamp_hi(nn_tensor **in) { return nn_clamp_tensor(in[0], NULL, in[1]); }
static nn_tensor *gc_clamp_min_t(nn_tensor **in) { return nn_clamp_min_tensor(in[0], in[1]); }
static nn_tensor *gc_clamp_max_t(nn_tensor **in) { return nn_clamp_max_tensor(in[0], in[1]); }
static nn_tensor *gc_sgn(nn_tensor **in) { return nn_sgn(in[0]); }
static nn_tensor *gc_copysign(nn_tensor **in) { return nn_copysign(in[0], in[1]); }
static nn_tensor *gc_copysign_scalar(nn_tensor **in)
{
    nn_tensor *w = nn_wrapped_number(-1.5, false), *r = w ? nn_copysign(in[0], w) : NULL;
    NN_RELEASE(w);
    return r;
}
static nn_tensor *gc_frexp(nn_tensor **in)
{
    nn_tensor *m = NULL, *e = NULL;
    int rc = nn_frexp(in[0], &m, &e);
    NN_RELEASE(e);
    return rc < 0 ? NULL : m;
}
static nn_tensor *gc_heaviside(nn_tensor **in) { return nn_heaviside(in[0], in[1]); }
static nn_tensor *gc_mul_number(nn_tensor **in) { return nn_mul_number(in[0], -2.5); }
static nn_tensor *gc_logcumsumexp(nn_tensor **in) { return nn_logcumsumexp(in[0], 1); }
static nn_tensor *gc_logcumsumexp0(nn_tensor **in) { return nn_logcumsumexp(in[0], -3); }
static nn_tensor *gc_renorm2(nn_tensor **in) { return nn_renorm(in[0], 2, 0, 1.0); }
static nn_tensor *gc_renorm3(nn_tensor **in) { return nn_renorm(in[0], 3, -1, 0.8); }
static nn_tensor *gc_select_scatter(nn_tensor **in) { return nn_select_scatter(in[0], in[1], 1, -1); }
static nn_tensor *gc_slice_scatter(nn_tensor **in) { return nn_slice_scatter(in[0], in[1], 1, 0, 4, 2); }
static nn_tensor *gc_diagonal_scatter(nn_tensor **in) { return nn_diagonal_scatter(in[0], in[1], 1, 0, 1); }


/* linalg_lu.c's: a well-conditioned matrix in + 4 I, so the pivots stay put
   under the finite differences */
static nn_tensor *lu_input(nn_tensor *in)
{
    int64_t n = in->sizes[in->ndim - 1];
    nn_tensor *e = nn_eye(n, n, NN_FLOAT64), *s = e ? nn_mul_scalar(e, 4) : NULL, *r = s ? nn_add(in, s) : NULL;
    NN_RELEASE(e);
    NN_RELEASE(s);
    return r;
}
static nn_tensor *gc_lu_factor(nn_tensor **in)
{
    nn_tensor *m = lu_input(in[0]), *lu = NULL, *piv = NULL;
    int rc = m ? nn_linalg_lu_factor(m, true, "torch.linalg.lu_factor", &lu, &piv) : -1;
    NN_RELEASE(m);
    NN_RELEASE(piv);
    return rc < 0 ? NULL : lu;
}
/* L (which_u false) or U of linalg.lu */
static nn_tensor *lu_part(nn_tensor **in, bool which_u)
{
    nn_tensor *m = lu_input(in[0]), *P = NULL, *L = NULL, *U = NULL;
    int rc = m ? nn_linalg_lu(m, true, &P, &L, &U) : -1;
    NN_RELEASE(m);
    NN_RELEASE(P);
    if (rc < 0) return NULL;
    if (which_u) { nn_tensor *t = L; L = U; U = t; }
    NN_RELEASE(U);
    return L;
}
static nn_tensor *gc_lu_l(nn_tensor **in) { return lu_part(in, false); }
static nn_tensor *gc_lu_u(nn_tensor **in) { return lu_part(in, true); }

static const gc_case cases_misc_ops[] = {
    {NN_OP_clamp_tensor, "clamp, tensor min and max, broadcast", gc_clamp_both, 3, {2, 1, 2}, {{2, 3}, {3}, {2, 1}}, -2, 2, 0},
    {NN_OP_clamp_tensor, "clamp, tensor min", gc_clamp_lo, 2, {2, 1}, {{2, 3}, {3}}, -2, 2, 0},
    {NN_OP_clamp_tensor, "clamp, tensor max", gc_clamp_hi, 2, {2, 2}, {{2, 3}, {2, 3}}, -2, 2, 0},
    {NN_OP_clamp_min_tensor, "clamp_min, tensor", gc_clamp_min_t, 2, {2, 0}, {{2, 3}, {0}}, -2, 2, 0},
    {NN_OP_clamp_max_tensor, "clamp_max, tensor", gc_clamp_max_t, 2, {2, 2}, {{2, 3}, {1, 3}}, -2, 2, 0},
    {NN_OP_sgn, "sgn (zero gradient)", gc_sgn, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_copysign, "copysign, broadcast", gc_copysign, 2, {2, 1}, {{2, 3}, {3}}, -2, 2, 0},
    {NN_OP_copysign_scalar, "copysign with a number", gc_copysign_scalar, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_frexp, "frexp's mantissa (exponent 2)", gc_frexp, 1, {2}, {{2, 3}}, 2.2, 3.8, 0},
    {NN_OP_heaviside, "heaviside (no derivative)", gc_heaviside, 2, {2, 0}, {{2, 3}, {0}}, -2, 2, 0},
    {NN_OP_mul_number, "mul by a number (MulBackward1)", gc_mul_number, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_logcumsumexp, "logcumsumexp along dim 1", gc_logcumsumexp, 1, {2}, {{2, 4}}, -3, 3, 0},
    {NN_OP_logcumsumexp, "logcumsumexp along dim -3", gc_logcumsumexp0, 1, {3}, {{3, 2, 2}}, -3, 3, 0},
    {NN_OP_renorm, "renorm p=2 along dim 0", gc_renorm2, 1, {2}, {{3, 4}}, -1, 1, 0},
    {NN_OP_renorm, "renorm p=3 along dim -1", gc_renorm3, 1, {3}, {{2, 3, 2}}, -1, 1, 0},
    {NN_OP_select_scatter, "select_scatter", gc_select_scatter, 2, {2, 1}, {{3, 4}, {3}}, -2, 2, 0},
    {NN_OP_slice_scatter, "slice_scatter with a step", gc_slice_scatter, 2, {2, 2}, {{3, 4}, {3, 2}}, -2, 2, 0},
    {NN_OP_diagonal_scatter, "diagonal_scatter, offset 1", gc_diagonal_scatter, 2, {2, 1}, {{3, 4}, {3}}, -2, 2, 0},
    {NN_OP_linalg_lu_factor, "linalg.lu_factor's packed LU", gc_lu_factor, 1, {2}, {{3, 3}}, -1, 1, 0},
    {NN_OP_linalg_lu_factor, "linalg.lu_factor of a batch", gc_lu_factor, 1, {3}, {{2, 3, 3}}, -1, 1, 0},
    {NN_OP_linalg_lu, "linalg.lu's L", gc_lu_l, 1, {2}, {{3, 3}}, -1, 1, 0},
    {NN_OP_linalg_lu, "linalg.lu's U of a batch", gc_lu_u, 1, {3}, {{2, 3, 3}}, -1, 1, 0},
    GC_END,
};
