/* gradcheck cases for core/ops_extra.c and fmod (included by test_gradcheck.c). */
#include "nn_linalg.h"
#include "nn_ops_extra.h"

static nn_tensor *gc_fmod(nn_tensor **in) { return nn_fmod(in[0], in[1]); }
static nn_tensor *gc_fmod_scalar(nn_tensor **in)
{
    nn_tensor *w = nn_wrapped_number(0.7, false), *r = w ? nn_fmod(in[0], w) : NULL;
    NN_RELEASE(w);
    return r;
}
static nn_tensor *gc_logit(nn_tensor **in) { return nn_logit(in[0], 0, false); }
static nn_tensor *gc_logit_eps(nn_tensor **in) { return nn_logit(in[0], 0.2, true); }
static nn_tensor *gc_nansum(nn_tensor **in) { return nn_nansum(in[0], 1, (const int[]){1}, false, -1); }
static nn_tensor *gc_nansum_all(nn_tensor **in) { return nn_nansum(in[0], 0, NULL, false, -1); }
static nn_tensor *gc_rot90(nn_tensor **in) { return nn_rot90(in[0], 1, 2, (const int[]){0, 2}); }
static nn_tensor *gc_rot90_3(nn_tensor **in) { return nn_rot90(in[0], -1, 2, (const int[]){1, 0}); }
static nn_tensor *gc_trace(nn_tensor **in) { return nn_trace(in[0]); }
static nn_tensor *gc_repeat(nn_tensor **in) { return nn_repeat(in[0], 3, (const int64_t[]){2, 1, 3}); }
static nn_tensor *gc_take(nn_tensor **in)
{
    int64_t s[2] = {2, 2};
    nn_tensor *ix = nn_empty(2, s, NN_INT64), *r = NULL;
    if (ix) memcpy(ix->storage->data, (const int64_t[]){5, 0, -1, 2}, sizeof(int64_t) * 4);
    if (ix) r = nn_take(in[0], ix);
    NN_RELEASE(ix);
    return r;
}
static nn_tensor *gc_cummax(nn_tensor **in)
{
    nn_tensor *v = NULL, *i = NULL;
    int rc = nn_cumextreme(in[0], 1, true, &v, &i);
    NN_RELEASE(i);
    return rc < 0 ? NULL : v;
}
static nn_tensor *gc_cummin(nn_tensor **in)
{
    nn_tensor *v = NULL, *i = NULL;
    int rc = nn_cumextreme(in[0], 0, false, &v, &i);
    NN_RELEASE(i);
    return rc < 0 ? NULL : v;
}
static nn_tensor *gc_cross(nn_tensor **in) { return nn_cross(in[0], in[1], true, -1, true); }
static nn_tensor *gc_copy_from(nn_tensor **in) { return nn_diff(in[0], 0, -1, NULL, NULL); }
/* in[0] * 2 overwritten by in[1] broadcast / by a number / by zeros */
static nn_tensor *gc_copy_into(nn_tensor **in)
{
    nn_tensor *d = nn_mul_scalar(in[0], 2);
    if (d && nn_copy_recorded_(d, in[1]) < 0) NN_SET(d, NULL);
    return d;
}
static nn_tensor *gc_fill(nn_tensor **in)
{
    nn_tensor *d = nn_mul_scalar(in[0], 2);
    if (d && nn_fill_recorded_(d, 0.5) < 0) NN_SET(d, NULL);
    return d;
}
static nn_tensor *gc_fill_tensor(nn_tensor **in)
{
    nn_tensor *d = nn_mul_scalar(in[0], 2), *v = nn_mul_scalar(in[1], 3);
    if (d && (!v || nn_fill_tensor_recorded_(d, v) < 0)) NN_SET(d, NULL);
    NN_RELEASE(v);
    return d;
}
/* an in-place op on a column of a result: the base's CopySlices, or the view's AsStridedBackward0 */
static nn_tensor *gc_view_inplace(nn_tensor **in, bool the_view)
{
    nn_tensor *d = nn_mul_scalar(in[0], 2), *col = d ? nn_select(d, 1, 1) : NULL;
    int rc = col ? nn_mul_(col, in[1]) : -1;
    nn_tensor *r = rc < 0 ? NULL : the_view ? col : d;
    if (r) NN_RETAIN(r);
    NN_RELEASE(col);
    NN_RELEASE(d);
    return r;
}
static nn_tensor *gc_view_copy_slices(nn_tensor **in) { return gc_view_inplace(in, false); }
static nn_tensor *gc_as_strided(nn_tensor **in) { return gc_view_inplace(in, true); }
static nn_tensor *gc_zero(nn_tensor **in)
{
    nn_tensor *d = nn_mul_scalar(in[0], 2);
    if (d && nn_zero_recorded_(d) < 0) NN_SET(d, NULL);
    return d;
}

/* a well-conditioned matrix: in + 4 I */
static nn_tensor *shifted(nn_tensor *in)
{
    nn_tensor *e = nn_eye(3, 3, NN_FLOAT64), *s = e ? nn_mul_scalar(e, 4) : NULL, *r = s ? nn_add(in, s) : NULL;
    NN_RELEASE(e);
    NN_RELEASE(s);
    return r;
}
static nn_tensor *gc_det(nn_tensor **in)
{
    nn_tensor *m = shifted(in[0]), *r = m ? nn_linalg_det(m) : NULL;
    NN_RELEASE(m);
    return r;
}
static nn_tensor *gc_slogdet(nn_tensor **in)
{
    nn_tensor *m = shifted(in[0]), *s = NULL, *l = NULL;
    int rc = m ? nn_linalg_slogdet(m, &s, &l) : -1;
    NN_RELEASE(m);
    NN_RELEASE(s);
    return rc < 0 ? NULL : l;
}
static nn_tensor *gc_inv(nn_tensor **in)
{
    nn_tensor *m = shifted(in[0]), *r = m ? nn_linalg_inv(m) : NULL;
    NN_RELEASE(m);
    return r;
}
static nn_tensor *gc_solve(nn_tensor **in)
{
    nn_tensor *m = shifted(in[0]), *r = m ? nn_linalg_solve(m, in[1]) : NULL;
    NN_RELEASE(m);
    return r;
}
/* a symmetric positive-definite matrix: in in^T + 3 I */
static nn_tensor *spd(nn_tensor *in)
{
    nn_tensor *t = nn_transpose(in, -1, -2), *m = t ? nn_matmul(in, t) : NULL;
    nn_tensor *e = m ? nn_eye(3, 3, NN_FLOAT64) : NULL, *e3 = e ? nn_mul_scalar(e, 3) : NULL;
    nn_tensor *r = e3 ? nn_add(m, e3) : NULL;
    NN_RELEASE(t);
    NN_RELEASE(m);
    NN_RELEASE(e);
    NN_RELEASE(e3);
    return r;
}
static nn_tensor *gc_cholesky(nn_tensor **in)
{
    nn_tensor *m = spd(in[0]), *r = m ? nn_linalg_cholesky(m, false, false) : NULL;
    NN_RELEASE(m);
    return r;
}
static nn_tensor *gc_cholesky_upper(nn_tensor **in)
{
    nn_tensor *m = spd(in[0]), *r = m ? nn_linalg_cholesky(m, true, true) : NULL;
    NN_RELEASE(m);
    return r;
}
static nn_tensor *gc_vector_norm(nn_tensor **in) { return nn_linalg_vector_norm(in[0], 3, 1, (const int[]){1}, false); }

/* a seeded draw: the same numbers at every evaluation, so the finite differences see PyTorch's zero gradient */
static nn_tensor *gc_poisson(nn_tensor **in)
{
    nn_generator_seed(nn_default_generator(), 7);
    return nn_poisson(in[0]);
}
static nn_tensor *scatter_reduce_case(nn_tensor **in, int code, bool include_self)
{
    int64_t s[2] = {2, 3};
    nn_tensor *ix = nn_empty(2, s, NN_INT64), *r = NULL;
    if (ix) memcpy(ix->storage->data, (const int64_t[]){0, 1, 0, 1, 1, 0}, sizeof(int64_t) * 6);
    if (ix) r = nn_scatter_reduce2(in[0], 0, ix, in[1], code, include_self);
    NN_RELEASE(ix);
    return r;
}
static nn_tensor *gc_sr_sum(nn_tensor **in) { return scatter_reduce_case(in, 0, true); }
static nn_tensor *gc_sr_prod(nn_tensor **in) { return scatter_reduce_case(in, 1, false); }
static nn_tensor *gc_sr_mean(nn_tensor **in) { return scatter_reduce_case(in, 2, true); }
static nn_tensor *gc_sr_amax(nn_tensor **in) { return scatter_reduce_case(in, 3, true); }
static nn_tensor *gc_sr_amin(nn_tensor **in) { return scatter_reduce_case(in, 4, false); }

static nn_tensor *gc_cdist2(nn_tensor **in) { return nn_cdist(in[0], in[1], 2); }
static nn_tensor *gc_cdist3(nn_tensor **in) { return nn_cdist(in[0], in[1], 3); }
static nn_tensor *gc_cdist1(nn_tensor **in) { return nn_cdist(in[0], in[1], 1); }

/* QR, SVD and eigh (core/linalg.c): U of a tall matrix, Vh of a wide one, S,
   eigenvectors and eigenvalues of in + in^T */
static nn_tensor *qr_part(nn_tensor *a, bool want_q)
{
    nn_tensor *q = NULL, *r = NULL;
    if (nn_linalg_qr(a, "reduced", &q, &r) < 0) return NULL;
    if (want_q) NN_RELEASE(r);
    else NN_RELEASE(q);
    return want_q ? q : r;
}
static nn_tensor *gc_qr_r(nn_tensor **in) { return qr_part(in[0], false); }
static nn_tensor *gc_qr_q(nn_tensor **in) { return qr_part(in[0], true); }
/* lstsq's solution for a matrix and a vector right-hand side (B broadcast over A's batch) */
static nn_tensor *lstsq_solution(nn_tensor **in, int driver)
{
    nn_tensor *o[4] = {0};
    if (nn_linalg_lstsq(in[0], in[1], NAN, driver, o) < 0) return NULL;
    for (int i = 1; i < 4; i++) NN_RELEASE(o[i]);
    return o[0];
}
static nn_tensor *gc_lstsq(nn_tensor **in) { return lstsq_solution(in, 1); }
static nn_tensor *gc_lstsq_gelsd(nn_tensor **in) { return lstsq_solution(in, 2); }
static nn_tensor *svd_part(nn_tensor *a, int part)
{
    nn_tensor *o[3] = {0};
    if (nn_linalg_svd(a, part == 3, true, &o[0], &o[1], &o[2]) < 0) return NULL;
    int keep = part == 3 ? 0 : part;
    for (int i = 0; i < 3; i++)
        if (i != keep) NN_RELEASE(o[i]);
    return o[keep];
}
static nn_tensor *gc_svd_u(nn_tensor **in) { return svd_part(in[0], 0); }
static nn_tensor *gc_svd_s(nn_tensor **in) { return svd_part(in[0], 1); }
static nn_tensor *gc_svd_vh(nn_tensor **in) { return svd_part(in[0], 2); }
static nn_tensor *gc_svd_full_u(nn_tensor **in) { return svd_part(in[0], 3); }
static nn_tensor *eigh_part(nn_tensor *in, bool vectors)
{
    nn_tensor *t = nn_transpose(in, -1, -2), *a = t ? nn_add(in, t) : NULL, *w = NULL, *v = NULL;
    int rc = a ? nn_linalg_eigh(a, false, vectors, &w, &v) : -1;
    NN_RELEASE(t);
    NN_RELEASE(a);
    if (rc < 0) return NULL;
    if (vectors) NN_RELEASE(w);
    else NN_RELEASE(v);
    return vectors ? v : w;
}
static nn_tensor *gc_pinv(nn_tensor **in) { return nn_linalg_pinv(in[0], NAN, NAN, false); }
static nn_tensor *gc_eigh_v(nn_tensor **in) { return eigh_part(in[0], true); }
static nn_tensor *gc_eigvalsh(nn_tensor **in) { return eigh_part(in[0], false); }

static const gc_case cases_ops_extra[] = {
    {NN_OP_cdist, "cdist p=2", gc_cdist2, 2, {2, 2}, {{3, 2}, {2, 2}}, -2, 2, 0},
    {NN_OP_cdist, "cdist p=3, batched", gc_cdist3, 2, {3, 3}, {{2, 3, 2}, {2, 2, 2}}, -2, 2, 0},
    {NN_OP_cdist, "cdist p=1", gc_cdist1, 2, {2, 2}, {{3, 2}, {2, 2}}, -2, 2, 0},
    {NN_OP_poisson, "poisson (zero gradient)", gc_poisson, 1, {2}, {{2, 3}}, 1, 3, 0},
    {NN_OP_scatter_reduce2, "scatter_reduce sum", gc_sr_sum, 2, {2, 2}, {{2, 3}, {2, 3}}, -2, 2, 0},
    {NN_OP_scatter_reduce2, "scatter_reduce prod, include_self=False", gc_sr_prod, 2, {2, 2}, {{2, 3}, {2, 3}}, 0.5, 2, 0},
    {NN_OP_scatter_reduce2, "scatter_reduce mean", gc_sr_mean, 2, {2, 2}, {{2, 3}, {2, 3}}, -2, 2, 0},
    {NN_OP_scatter_reduce2, "scatter_reduce amax", gc_sr_amax, 2, {2, 2}, {{2, 3}, {2, 3}}, -2, 2, 0},
    {NN_OP_scatter_reduce2, "scatter_reduce amin, include_self=False", gc_sr_amin, 2, {2, 2}, {{2, 3}, {2, 3}}, -2, 2, 0},
    {NN_OP_linalg_det, "det", gc_det, 1, {2}, {{3, 3}}, -1, 1, 0},
    {NN_OP_linalg_slogdet, "slogdet's logabsdet", gc_slogdet, 1, {3}, {{2, 3, 3}}, -1, 1, 0},
    {NN_OP_linalg_inv, "inv of a batch", gc_inv, 1, {3}, {{2, 3, 3}}, -1, 1, 0},
    {NN_OP_linalg_solve, "solve for a matrix", gc_solve, 2, {2, 2}, {{3, 3}, {3, 2}}, -1, 1, 0},
    {NN_OP_linalg_solve, "solve for a vector", gc_solve, 2, {2, 1}, {{3, 3}, {3}}, -1, 1, 0},
    {NN_OP_linalg_cholesky, "cholesky of a batch", gc_cholesky, 1, {3}, {{2, 3, 3}}, -1, 1, 0},
    {NN_OP_cholesky_legacy, "torch.cholesky, upper", gc_cholesky_upper, 1, {2}, {{3, 3}}, -1, 1, 0},
    {NN_OP_linalg_qr, "qr: R of a tall matrix", gc_qr_r, 1, {2}, {{3, 2}}, -1, 1, 0},
    {NN_OP_linalg_qr, "qr: Q of a tall batch", gc_qr_q, 1, {3}, {{2, 4, 3}}, -1, 1, 0},
    {NN_OP_linalg_qr, "qr: Q of a wide matrix", gc_qr_q, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_linalg_qr, "qr: R of a wide matrix", gc_qr_r, 1, {2}, {{2, 4}}, -1, 1, 0},
    {NN_OP_linalg_lstsq, "lstsq (gelsy), B broadcast", gc_lstsq, 2, {3, 3}, {{2, 4, 3}, {1, 4, 2}}, -1, 1, 0},
    {NN_OP_linalg_lstsq, "lstsq (gelsd) for vectors", gc_lstsq_gelsd, 2, {2, 1}, {{4, 2}, {4}}, -1, 1, 0},
    {NN_OP_linalg_svd, "svd: U of a tall matrix", gc_svd_u, 1, {2}, {{4, 3}}, -1, 1, 0},
    {NN_OP_linalg_svd, "svd: S of a batch", gc_svd_s, 1, {3}, {{2, 3, 2}}, -1, 1, 0},
    {NN_OP_linalg_svd, "svd: Vh of a wide matrix", gc_svd_vh, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_linalg_svd, "svd, full_matrices: U of a square matrix", gc_svd_full_u, 1, {2}, {{3, 3}}, -1, 1, 0},
    {NN_OP_linalg_pinv, "pinv of a wide matrix", gc_pinv, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_linalg_pinv, "pinv of a tall batch", gc_pinv, 1, {3}, {{2, 3, 2}}, -1, 1, 0},
    {NN_OP_linalg_eigh, "eigh: eigenvectors", gc_eigh_v, 1, {2}, {{3, 3}}, -1, 1, 0},
    {NN_OP_linalg_eigh, "eigvalsh of a batch", gc_eigvalsh, 1, {3}, {{2, 3, 3}}, -1, 1, 0},
    {NN_OP_linalg_vector_norm, "vector_norm ord 3 over a dim", gc_vector_norm, 1, {2}, {{2, 3}}, 0.5, 2, 0},
    {NN_OP_fmod, "fmod of two tensors", gc_fmod, 2, {2, 1}, {{2, 3}, {3}}, 0.5, 3, 0},
    {NN_OP_fmod_scalar, "fmod by a number", gc_fmod_scalar, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_logit, "logit", gc_logit, 1, {2}, {{2, 3}}, 0.1, 0.9, 0},
    {NN_OP_logit, "logit with eps", gc_logit_eps, 1, {2}, {{2, 3}}, 0.25, 0.75, 0},
    {NN_OP_nansum, "nansum along a dim", gc_nansum, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_nansum, "nansum of all", gc_nansum_all, 1, {3}, {{2, 3, 2}}, -2, 2, 0},
    {NN_OP_rot90, "rot90 once in dims 0, 2", gc_rot90, 1, {3}, {{2, 3, 4}}, -2, 2, 0},
    {NN_OP_rot90, "rot90 three times", gc_rot90_3, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_take, "take with a repeated index", gc_take, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_trace, "trace of a non-square matrix", gc_trace, 1, {2}, {{3, 4}}, -2, 2, 0},
    {NN_OP_repeat, "repeat with a new leading dim", gc_repeat, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_cummax, "cummax along dim 1", gc_cummax, 1, {2}, {{3, 4}}, -2, 2, 0},
    {NN_OP_cummin, "cummin along dim 0", gc_cummin, 1, {2}, {{4, 3}}, -2, 2, 0},
    {NN_OP_cross, "cross, broadcast", gc_cross, 2, {2, 2}, {{2, 3}, {1, 3}}, -2, 2, 0},
    {NN_OP_copy_from, "diff with n=0 (a copy)", gc_copy_from, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_copy_from, "copy_ of a broadcast source over a result", gc_copy_into, 2, {2, 1}, {{2, 3}, {3}}, -2, 2, 0},
    {NN_OP_fill, "fill_ of a result", gc_fill, 1, {2}, {{2, 3}}, -2, 2, 0},
    {NN_OP_fill_tensor, "fill_ of a result with a 0-dim tensor", gc_fill_tensor, 2, {2, 0}, {{2, 3}, {0}}, -2, 2, 0},
    {NN_OP_view_copy_slices, "mul_ of a result's column: the result", gc_view_copy_slices, 2, {2, 1}, {{2, 3}, {2}}, -2, 2, 0},
    {NN_OP_view_as_strided, "mul_ of a result's column: the column", gc_as_strided, 2, {2, 1}, {{2, 3}, {2}}, -2, 2, 0},
    {NN_OP_zero, "zero_ of a result", gc_zero, 1, {1}, {{3}}, -2, 2, 0},
    GC_END,
};
