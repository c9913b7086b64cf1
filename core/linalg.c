/*
 * linalg.c — torch.linalg over LAPACK behind the `linalg` kernel
 * (core/cpu/linalg.c: OpenBLAS's ?getrf/?getrs/?potrf/?geqrf/?gesdd/?syevd/?gels*):
 * det, slogdet, inv, solve, cholesky, qr, svd, eigh, pinv, matrix_rank, lstsq,
 * matrix_power, and vector_norm; the LU backwards are PyTorch 1.13's formulas
 * (FunctionsManual.cpp) for invertible matrices, built from differentiable
 * ops (inv, matmul, mul), so they differentiate again.
 *
 * Matrices are copied into column-major (LAPACK's, and ATen's) buffers, so the
 * factorisation is the one PyTorch computes; batches ([..., n, n]) loop.
 */
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "nn_int.h"
#include "nn_linalg.h"
#include "nn_scratch.h"
#include "nn_select.h"
#include "nn_select_more.h"
#include "nn_autocast.h"

/* Runs the linalg kernel on on's device. */
static int run_linalg(nn_linalg_op op, nn_kernel_args *k, const nn_tensor *on)
{
    return NN_KERNEL(nn_backend_of(on), linalg, (op, k));
}

/* the number of matrices in a batch [..., m, n] */
static int64_t batch_of(const nn_tensor *a)
{
    int64_t b = 1;
    for (int d = 0; d < a->ndim - 2; d++) b *= a->sizes[d];
    return b;
}

/* "linalg.det: Expected a floating point ... Got Long" and the square check */
static int check_square(const char *f, const nn_tensor *a)
{
    if (a->dtype != NN_FLOAT32 && a->dtype != NN_FLOAT64) {
        static const char *const title[NN_DTYPE_COUNT] = {[NN_INT64] = "Long", [NN_INT32] = "Int", [NN_BOOL] = "Bool",
                                                          [NN_FLOAT16] = "Half", [NN_BFLOAT16] = "BFloat16"};
        return nn_error_set(NN_ERR_RUNTIME, "%s: Expected a floating point or complex tensor as input. Got %s", f,
                            title[a->dtype] ? title[a->dtype] : "?");
    }
    if (a->ndim < 2)
        return nn_error_set(NN_ERR_RUNTIME, "%s: The input tensor A must have at least 2 dimensions.", f);
    if (a->sizes[a->ndim - 1] != a->sizes[a->ndim - 2])
        return nn_error_set(NN_ERR_RUNTIME, "%s: A must be batches of square matrices, but they are %lld by %lld matrices",
                            f, (long long)a->sizes[a->ndim - 2], (long long)a->sizes[a->ndim - 1]);
    return 0;
}

/* The batch's matrices in column-major order: a new contiguous tensor of a's
   dtype holding each [n, n] matrix transposed. */
static nn_tensor *column_major(nn_tensor *a)
{
    nn_tensor *t = NULL;
    NN_WITH_GRAD_MODE(false, {
        nn_tensor *tr = nn_transpose(a, -1, -2);
        t = tr ? nn_contiguous(tr) : NULL;
        if (t && t == tr) NN_SET(t, nn_clone(tr));
        NN_RELEASE(tr);
    });
    return t;
}

/* The row-major (contiguous) batch of a column-major one. */
static nn_tensor *from_column_major(nn_tensor *cm)
{
    nn_tensor *r = NULL;
    NN_WITH_GRAD_MODE(false, {
        nn_tensor *t = nn_transpose(cm, -1, -2);
        r = t ? nn_contiguous(t) : NULL;
        if (r && r == t) NN_SET(r, nn_clone(t));
        NN_RELEASE(t);
    });
    return r;
}

/* the batch index of the last singular matrix lu_factor met (for batch_prefix) */
static _Thread_local int64_t lu_singular_at;

/* "(Batch element 1): " for a batched input, as ATen's messages start */
static const char *batch_prefix(bool batched, int64_t at, char *buf, size_t n)
{
    buf[0] = 0;
    if (batched) snprintf(buf, n, "(Batch element %lld): ", (long long)at);
    return buf;
}

/* LU of every matrix of a (column-major copy lu, int32 pivots on a's device),
   first_singular > 0 (LAPACK's info) for a singular one. */
static int lu_factor(nn_tensor *a, nn_tensor **lu, nn_tensor **pivots, int *first_singular, int64_t *batch)
{
    int n = (int)a->sizes[a->ndim - 1];
    *batch = batch_of(a);
    *lu = column_major(a);
    int64_t ps[2] = {*batch, n};
    *pivots = *lu ? nn_empty_on(nn_device_of(a), 2, ps, NN_INT32) : NULL;
    if (!*pivots) {
        NN_SET(*lu, NULL);
        return -1;
    }
    nn_kernel_args k = {.t = {*lu, *pivots}, .i = {*batch, n, n}};
    if (run_linalg(NN_LINALG_LU, &k, a) < 0) {
        NN_SET(*lu, NULL);
        NN_SET(*pivots, NULL);
        return -1;
    }
    *first_singular = (int)k.host[0];
    if (*first_singular) lu_singular_at = (int64_t)k.host[1];
    return 0;
}

int nn_lu_factor_batch(nn_tensor *a, nn_tensor **lu, nn_tensor **pivots, int *first_singular, int64_t *singular_at)
{
    int64_t batch = 0;
    int rc = lu_factor(a, lu, pivots, first_singular, &batch);
    *singular_at = *first_singular ? lu_singular_at : 0;
    return rc;
}

/* ------------------------------------------------------- det / slogdet */

static int det_parts(const char *f, nn_tensor *a, nn_tensor **det, nn_tensor **sign, nn_tensor **logabs)
{
    if (check_square(f, a) < 0) return -1;
    nn_tensor *lu = NULL, *piv = NULL;
    int singular = 0;
    int64_t batch = 0;
    if (lu_factor(a, &lu, &piv, &singular, &batch) < 0) return -1;
    nn_tensor *outs[3] = {0};
    for (int k = 0; k < 3; k++) {
        outs[k] = nn_empty_on(nn_device_of(a), a->ndim - 2, a->sizes, a->dtype);
        if (!outs[k]) goto fail;
    }
    nn_kernel_args k = {.t = {outs[0], outs[1], outs[2], lu, piv}, .i = {batch, a->sizes[a->ndim - 1]}};
    if (run_linalg(NN_LINALG_LU_DET, &k, a) < 0) goto fail;
    NN_RELEASE(lu);
    NN_RELEASE(piv);
    *det = outs[0];
    if (sign) *sign = outs[1];
    else NN_RELEASE(outs[1]);
    if (logabs) *logabs = outs[2];
    else NN_RELEASE(outs[2]);
    return 0;
fail:
    for (int k = 0; k < 3; k++) NN_RELEASE(outs[k]);
    NN_RELEASE(lu);
    NN_RELEASE(piv);
    return -1;
}

nn_tensor *nn_linalg_det(nn_tensor *a)
{
    nn_tensor *det = NULL;
    if (det_parts("linalg.det", a, &det, NULL, NULL) < 0) return NULL;
    if (nn_record(NN_OP_linalg_det, 1, &a, 1, &det, 2, (nn_tensor *[]){a, det}, NULL) < 0) NN_SET(det, NULL);
    return det;
}

/* g [..., None, None] * s * inv(A)^T (s: det for det, 1 for slogdet's logabsdet) */
static nn_tensor *scaled_inverse_t(nn_tensor *a, nn_tensor *g, nn_tensor *s)
{
    nn_scratch sc = {0};
    nn_tensor *gs = s ? NN_KEEP(&sc, nn_mul(g, s)) : g;
    nn_tensor *u = NN_KEEP(&sc, nn_unsqueeze(NN_KEEP(&sc, nn_unsqueeze(gs, -1)), -1));
    nn_tensor *inv = NN_KEEP(&sc, nn_linalg_inv(a));
    nn_tensor *it = NN_KEEP(&sc, nn_transpose(inv, -1, -2));
    nn_tensor *r = sc.failed ? NULL : nn_mul(u, it);
    nn_scratch_free(&sc);
    return r;
}

int nn_linalg_det_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    gin[0] = scaled_inverse_t(nn_node_saved(n, 0), gout[0], nn_node_saved(n, 1));
    return gin[0] ? 0 : -1;
}

int nn_linalg_slogdet(nn_tensor *a, nn_tensor **sign, nn_tensor **logabsdet)
{
    nn_tensor *det = NULL;
    *sign = *logabsdet = NULL;
    if (det_parts("linalg.slogdet", a, &det, sign, logabsdet) < 0) return -1;
    NN_RELEASE(det);
    nn_tensor *outs[2] = {*sign, *logabsdet};
    if (nn_record(NN_OP_linalg_slogdet, 1, &a, 2, outs, 1, &a, NULL) < 0) {
        NN_SET(*sign, NULL);
        NN_SET(*logabsdet, NULL);
        return -1;
    }
    return 0;
}

/* only logabsdet carries a gradient: g * inv(A)^T */
int nn_linalg_slogdet_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[1]) return 0;
    gin[0] = scaled_inverse_t(nn_node_saved(n, 0), gout[1], NULL);
    return gin[0] ? 0 : -1;
}

/* logdet: where(sign == -1, nan, logabsdet), as ATen composes it (WhereBackward0) */
nn_tensor *nn_logdet(nn_tensor *a)
{
    nn_tensor *sign = NULL, *la = NULL;
    if (nn_linalg_slogdet(a, &sign, &la) < 0) return NULL;
    nn_scratch s = {0};
    nn_tensor *m1 = NN_KEEP(&s, nn_scalar(-1, a->dtype)), *nan = NN_KEEP(&s, nn_scalar(NAN, a->dtype));
    nn_tensor *neg = NN_KEEP(&s, nn_compare(sign, m1, NN_EQ));
    nn_tensor *r = s.failed ? NULL : nn_where(neg, nan, la);
    nn_scratch_free(&s);
    NN_RELEASE(sign);
    NN_RELEASE(la);
    return r;
}

/* ---------------------------------------------------------- inv / solve */

/* X with A X = B for every matrix of the batch (B [..., n, k], same batch
   shape as A); column-major LU then getrs. As ATen's linalg_solve, a
   contiguous A is factored as the column-major matrix its memory is, Aᵀ, and
   solved with getrs('T'), so the bits are PyTorch's (direct: always A's own
   LU). singular: the 1-based index of a zero pivot, for the caller's message. */
static nn_tensor *lu_solve(nn_tensor *a, nn_tensor *b, bool direct, int *singular)
{
    nn_tensor *lu = NULL, *piv = NULL;
    int64_t batch = 0;
    bool transposed = !direct && nn_is_contiguous(a);
    nn_tensor *factored = transposed ? nn_transpose(a, -1, -2) : (NN_RETAIN(a), a);
    int rc = factored ? lu_factor(factored, &lu, &piv, singular, &batch) : -1;
    NN_RELEASE(factored);
    if (rc < 0) return NULL;
    nn_tensor *x = *singular ? NULL : column_major(b);
    nn_kernel_args k = {.t = {x, NULL, NULL, lu, piv},
                        .i = {batch, a->sizes[a->ndim - 1], b->sizes[b->ndim - 1], transposed}};
    if (x && run_linalg(NN_LINALG_LU_SOLVE, &k, a) < 0) NN_SET(x, NULL);
    NN_RELEASE(lu);
    NN_RELEASE(piv);
    nn_tensor *r = x ? from_column_major(x) : NULL;
    NN_RELEASE(x);
    return r;
}

nn_tensor *nn_linalg_lu_solve_getrs(nn_tensor *lu, nn_tensor *pivots, nn_tensor *b, bool adjoint)
{
    if ((lu->dtype != NN_FLOAT32 && lu->dtype != NN_FLOAT64) || b->dtype != lu->dtype || pivots->dtype != NN_INT32 ||
        lu->ndim < 2 || b->ndim != lu->ndim || pivots->ndim != lu->ndim - 1 ||
        memcmp(lu->sizes, b->sizes, sizeof(int64_t) * (size_t)(lu->ndim - 1)) != 0 ||
        memcmp(lu->sizes, pivots->sizes, sizeof(int64_t) * (size_t)(lu->ndim - 1)) != 0)
        return nn_error_set(NN_ERR_RUNTIME, "lu_solve: LU, pivots and B of one batch shape and dtype"), NULL;
    nn_tensor *lu_cm = column_major(lu), *x = lu_cm ? column_major(b) : NULL, *piv = NULL;
    if (x) NN_WITH_GRAD_MODE(false, piv = nn_contiguous(pivots));
    nn_kernel_args k = {.t = {x, NULL, NULL, lu_cm, piv},
                        .i = {batch_of(lu), lu->sizes[lu->ndim - 1], b->sizes[b->ndim - 1], adjoint}};
    if (piv && run_linalg(NN_LINALG_LU_SOLVE, &k, lu) < 0) NN_SET(x, NULL);
    nn_tensor *r = piv && x ? from_column_major(x) : NULL;
    NN_RELEASE(lu_cm);
    NN_RELEASE(x);
    NN_RELEASE(piv);
    return r;
}

static nn_tensor *inverse(nn_tensor *a, bool direct);

nn_tensor *nn_linalg_inv(nn_tensor *a) { return inverse(a, false); }

nn_tensor *nn_linalg_inv_direct(nn_tensor *a) { return inverse(a, true); }

static nn_tensor *inverse(nn_tensor *a, bool direct)
{
    NN_AUTOCAST(FP32, inverse(ac_[0], direct), a);
    if (check_square("linalg.inv", a) < 0) return NULL;
    int n = (int)a->sizes[a->ndim - 1], singular = 0;
    nn_tensor *eye = nn_eye_on(nn_device_of(a), n, n, a->dtype), *b = eye ? nn_expand(eye, a->ndim, a->sizes) : NULL;
    nn_tensor *x = b ? lu_solve(a, b, direct, &singular) : NULL;
    NN_RELEASE(eye);
    NN_RELEASE(b);
    if (singular) {
        char pre[48];
        nn_error_set(NN_ERR_LINALG, "linalg.inv: %sThe diagonal element %d is zero, the inversion could not be "
                                    "completed because the input matrix is singular.",
                     batch_prefix(a->ndim > 2, lu_singular_at, pre, sizeof pre), singular);
        return NULL;
    }
    if (x && nn_record(NN_OP_linalg_inv, 1, &a, 1, &x, 1, &x, NULL) < 0) NN_SET(x, NULL);
    return x;
}

/* -inv^T @ g @ inv^T */
int nn_linalg_inv_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    nn_scratch s = {0};
    nn_tensor *it = NN_KEEP(&s, nn_transpose(nn_node_saved(n, 0), -1, -2));
    nn_tensor *r = NN_KEEP(&s, nn_matmul(it, NN_KEEP(&s, nn_matmul(gout[0], it))));
    gin[0] = s.failed ? NULL : nn_neg(r);
    nn_scratch_free(&s);
    return gin[0] ? 0 : -1;
}

/* "3x3", as ATen prints a shape in solve's message */
static const char *x_joined(const nn_tensor *t, char *buf, size_t n)
{
    size_t w = 0;
    buf[0] = 0;
    for (int d = 0; d < t->ndim && w < n; d++)
        w += (size_t)snprintf(buf + w, n - w, "%s%lld", d ? "x" : "", (long long)t->sizes[d]);
    return buf;
}

nn_tensor *nn_linalg_solve(nn_tensor *a, nn_tensor *b)
{
    if (check_square("linalg.solve", a) < 0) return NULL;
    if (b->dtype != a->dtype) {
        nn_error_set(NN_ERR_RUNTIME, "linalg.solve: Expected A and B to have the same dtype, but found A of type %s "
                                     "and B of type %s instead", nn_dtype_scalar_name(a->dtype), nn_dtype_scalar_name(b->dtype));
        return NULL;
    }
    /* B a (batch of) vector(s) when it is 1-d or has A's shape without the last dim */
    bool vec = b->ndim == 1 || (b->ndim == a->ndim - 1 && !memcmp(b->sizes, a->sizes, sizeof(int64_t) * (size_t)b->ndim));
    nn_tensor *bm = vec ? nn_unsqueeze(b, -1) : (NN_RETAIN(b), b);
    if (!bm) return NULL;
    int64_t n = a->sizes[a->ndim - 1];
    if (bm->ndim < 2 || bm->sizes[bm->ndim - 2] != n) {
        char s1[256], s2[256];
        nn_error_set(NN_ERR_RUNTIME, "linalg.solve: Incompatible shapes of A and B for the equation AX = B (%s and %s)",
                     x_joined(a, s1, sizeof s1), x_joined(bm, s2, sizeof s2));
        NN_RELEASE(bm);
        return NULL;
    }
    /* broadcast the batch dims */
    int nb;
    int64_t batch[NN_MAX_DIMS], sa[NN_MAX_DIMS], sb[NN_MAX_DIMS];
    if (nn_broadcast_shapes(a->ndim - 2, a->sizes, bm->ndim - 2, bm->sizes, &nb, batch) < 0) {
        NN_RELEASE(bm);
        return NULL;
    }
    memcpy(sa, batch, sizeof(int64_t) * (size_t)nb);
    memcpy(sb, batch, sizeof(int64_t) * (size_t)nb);
    sa[nb] = sa[nb + 1] = n;
    sb[nb] = n, sb[nb + 1] = bm->sizes[bm->ndim - 1];
    nn_tensor *ea = nn_expand(a, nb + 2, sa), *eb = ea ? nn_expand(bm, nb + 2, sb) : NULL;
    int singular = 0;
    nn_tensor *x = eb ? lu_solve(ea, eb, false, &singular) : NULL;
    NN_RELEASE(ea);
    NN_RELEASE(eb);
    NN_RELEASE(bm);
    if (singular) {
        char pre[48];
        nn_error_set(NN_ERR_LINALG, "torch.linalg.solve: %sThe solver failed because the input matrix is singular.",
                     batch_prefix(a->ndim > 2, lu_singular_at, pre, sizeof pre));
        return NULL;
    }
    if (x && vec) {
        nn_tensor *sq = nn_squeeze_dim(x, -1);
        nn_tensor *c = sq ? nn_contiguous(sq) : NULL;
        NN_RELEASE(sq);
        NN_SET(x, c);
    }
    nn_tensor *in[2] = {a, b};
    nn_op_params p = {.flags = vec};
    if (x && nn_record(NN_OP_linalg_solve, 2, in, 1, &x, 2, (nn_tensor *[]){a, x}, &p) < 0) NN_SET(x, NULL);
    return x;
}

/* gB = solve(A^T, g); gA = -gB X^T (vectors: outer products), each summed to its input's shape */
int nn_linalg_solve_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    nn_tensor *a = nn_node_saved(n, 0), *x = nn_node_saved(n, 1);
    bool vec = n->p.flags;
    nn_scratch s = {0};
    nn_tensor *at = NN_KEEP(&s, nn_transpose(a, -1, -2));
    nn_tensor *gb = NN_KEEP(&s, nn_linalg_solve(at, gout[0]));
    nn_tensor *gbm = vec ? NN_KEEP(&s, nn_unsqueeze(gb, -1)) : gb;
    nn_tensor *xm = vec ? NN_KEEP(&s, nn_unsqueeze(x, -1)) : x;
    nn_tensor *ga = NN_KEEP(&s, nn_neg(NN_KEEP(&s, nn_matmul(gbm, NN_KEEP(&s, nn_transpose(xm, -1, -2))))));
    for (int i = 0; i < 2 && !s.failed; i++) {
        if (!nn_node_needs_input_grad(n, i)) continue;
        const nn_input_meta *m = &n->input_meta[i];
        gin[i] = nn_sum_to_size(i == 0 ? ga : gb, m->ndim, m->sizes);
        if (!gin[i]) s.failed = true;
    }
    nn_scratch_free(&s);
    return s.failed ? -1 : 0;
}

/* ------------------------------------------------------------- cholesky */

/* L (lower) with A = L L^T through ?potrf on column-major copies; upper: L^T.
   legacy: torch.cholesky (its deprecation warning, CholeskyBackward0). */
static nn_tensor *cholesky(nn_tensor *a, bool upper, bool legacy, int *info, int64_t *failed_at);

nn_tensor *nn_linalg_cholesky(nn_tensor *a, bool upper, bool legacy) { return cholesky(a, upper, legacy, NULL, NULL); }

int nn_linalg_cholesky_ex(nn_tensor *a, bool upper, const char *check_errors, nn_tensor **L, nn_tensor **info)
{
    *L = *info = NULL;
    int first = 0;
    int64_t at = 0, batch = a->ndim >= 2 ? batch_of(a) : 0;
    nn_tensor *l = cholesky(a, upper, false, &first, &at);
    if (!l) return -1;
    if (first > 0 && check_errors) {
        char pre[48];
        NN_RELEASE(l);
        return nn_error_set(NN_ERR_LINALG, "%s: %sThe factorization could not be completed because the input is not "
                                           "positive-definite (the leading minor of order %d is not positive-definite).",
                            check_errors, batch_prefix(a->ndim > 2, at, pre, sizeof pre), first);
    }
    int32_t *infos = nn_calloc((size_t)(batch > 0 ? batch : 1), sizeof *infos);
    int rc = infos ? 0 : -1;
    if (infos && first > 0) {
        infos[at] = first;
        /* potrf reported the first failing matrix only: the later ones on their own */
        int64_t sizes3[3] = {batch, a->sizes[a->ndim - 2], a->sizes[a->ndim - 1]};
        nn_tensor *flat = nn_reshape(a, 3, sizes3);
        rc = flat ? 0 : -1;
        bool grad = nn_set_grad_enabled(false);
        for (int64_t b = at + 1; rc == 0 && b < batch; b++) {
            nn_tensor *m = nn_select(flat, 0, b);
            nn_tensor *f = m ? cholesky(m, upper, false, &infos[b], &at) : NULL;
            if (!f) rc = -1;
            NN_RELEASE(m);
            NN_RELEASE(f);
        }
        nn_set_grad_enabled(grad);
        NN_RELEASE(flat);
    }
    nn_tensor *it = rc == 0 ? nn_from_data_on(nn_device_of(a), infos, a->ndim - 2, a->sizes, NN_INT32) : NULL;
    nn_free(infos);
    if (!it) {
        NN_RELEASE(l);
        return -1;
    }
    *L = l;
    *info = it;
    return 0;
}

/* info NULL: a matrix that is not positive-definite is PyTorch's error; else
   *info is LAPACK's for the first such matrix (its batch index *failed_at), 0 when
   none, and the result holds potrf's partial factors */
static nn_tensor *cholesky(nn_tensor *a, bool upper, bool legacy, int *info, int64_t *failed_at)
{
    if (check_square(legacy ? "cholesky" : "linalg.cholesky", a) < 0) return NULL;
    static bool warned; /* TORCH_WARN_ONCE */
    if (legacy && !warned && (warned = true) && nn_warn("UserWarning",
                          "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a future "
                          "PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\nL = torch.linalg.cholesky(A)\n"
                          "and\nU = torch.cholesky(A, upper=True)\nshould be replaced with\nU = torch.linalg.cholesky(A).mH().\n"
                          "This transform will produce equivalent results for all valid (symmetric positive definite) "
                          "inputs. (Triggered internally at  ./aten/src/ATen/native/BatchLinearAlgebra.cpp:1615.)") < 0)
        return NULL;
    nn_tensor *cm = column_major(a);
    if (!cm) return NULL;
    nn_kernel_args k = {.t = {cm}, .i = {batch_of(a), a->sizes[a->ndim - 1], a->sizes[a->ndim - 1]}};
    if (run_linalg(NN_LINALG_CHOLESKY, &k, a) < 0) return NN_RELEASE(cm), NULL;
    if (info) {
        *info = (int)k.host[0];
        *failed_at = k.host[0] > 0 ? (int64_t)k.host[1] : 0;
    } else if (k.host[0] > 0) {
        NN_SET(cm, NULL);
        char pre[48];
        nn_error_set(NN_ERR_LINALG, "%s: %sThe factorization could not be completed because the input is not "
                                    "positive-definite (the leading minor of order %d is not positive-definite).",
                     legacy ? "cholesky" : "linalg.cholesky", batch_prefix(a->ndim > 2, (int64_t)k.host[1], pre, sizeof pre),
                     (int)k.host[0]);
        return NULL;
    }
    /* the column-major lower factor read row-major is L^T: keep its upper triangle */
    nn_tensor *out = NULL;
    NN_WITH_GRAD_MODE(false, {
        nn_tensor *u = nn_triu(cm, 0);
        if (u && !upper) {
            nn_tensor *t = nn_transpose(u, -1, -2);
            out = t ? nn_contiguous(t) : NULL;
            NN_RELEASE(t);
            NN_RELEASE(u);
        } else {
            out = u;
        }
    });
    NN_SET(cm, NULL);
    nn_op_params p = {.flags = upper};
    if (out && nn_record(legacy ? NN_OP_cholesky_legacy : NN_OP_linalg_cholesky, 1, &a, 1, &out, 1, &out, &p) < 0)
        NN_SET(out, NULL);
    return out;
}

/* ATen's cholesky_backward: gA = L^-H Sym(tril(L^H gL)) L^-1, the solves through nn_linalg_solve */
static int cholesky_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    bool upper = n->p.flags;
    nn_scratch s = {0};
    nn_tensor *L = upper ? NN_KEEP(&s, nn_transpose(nn_node_saved(n, 0), -1, -2)) : nn_node_saved(n, 0);
    nn_tensor *gL = upper ? NN_KEEP(&s, nn_transpose(gout[0], -1, -2)) : gout[0];
    nn_tensor *Lh = NN_KEEP(&s, nn_transpose(L, -1, -2));
    nn_tensor *gA = NN_KEEP(&s, nn_tril(NN_KEEP(&s, nn_matmul(Lh, gL)), 0));
    nn_tensor *low = NN_KEEP(&s, nn_transpose(NN_KEEP(&s, nn_tril(gA, -1)), -1, -2));
    gA = NN_KEEP(&s, nn_mul_scalar(NN_KEEP(&s, nn_add(gA, low)), 0.5));
    gA = NN_KEEP(&s, nn_linalg_solve(Lh, gA));                           /* L^-H gA */
    nn_tensor *x = NN_KEEP(&s, nn_linalg_solve(Lh, NN_KEEP(&s, nn_transpose(gA, -1, -2))));
    gin[0] = s.failed ? NULL : nn_transpose(x, -1, -2);                  /* gA L^-1 */
    nn_scratch_free(&s);
    return gin[0] ? 0 : -1;
}

int nn_linalg_cholesky_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return cholesky_backward(n, gout, gin); }
int nn_cholesky_legacy_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return cholesky_backward(n, gout, gin); }

/* ---------------------------------------------------------- vector_norm */

nn_tensor *nn_linalg_vector_norm(nn_tensor *a, double ord, int n_dims, const int *dims, bool keepdim)
{
    if (!nn_dtype_is_floating(a->dtype)) {
        nn_error_set(NN_ERR_RUNTIME, "linalg.vector_norm: Expected a floating point or complex tensor as input. Got %s",
                     nn_dtype_scalar_name(a->dtype));
        return NULL;
    }
    nn_tensor *out = NULL;
    NN_WITH_GRAD_MODE(false, out = nn_norm(a, ord, n_dims, dims, keepdim));
    if (!out) return NULL;
    nn_op_params p = {.n_i = a->ndim, .flags = keepdim, .f = {ord}};
    for (int i = 0; i < n_dims; i++) {
        int d = 0;
        if (nn_wrap_dim(dims[i], a->ndim ? a->ndim : 1, &d) == 0 && a->ndim) p.i[d] = 1;
    }
    for (int d = 0; n_dims == 0 && d < a->ndim; d++) p.i[d] = 1;
    if (nn_record(NN_OP_linalg_vector_norm, 1, &a, 1, &out, 2, (nn_tensor *[]){a, out}, &p) < 0) NN_SET(out, NULL);
    return out;
}

/* the same gradient as torch.norm's (reduce.c), ATen's norm_backward */
int nn_linalg_vector_norm_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    return nn_norm_backward(n, gout, gin);
}

/* ------------------------------------------------ QR, SVD, eigh, least squares */

/* "linalg.qr: Expected a floating point ... Got Long", at least two dims */
static int check_matrix(const char *f, const nn_tensor *a)
{
    if (a->dtype != NN_FLOAT32 && a->dtype != NN_FLOAT64) return check_square(f, a);
    if (a->ndim < 2) return nn_error_set(NN_ERR_RUNTIME, "%s: The input tensor A must have at least 2 dimensions.", f);
    return 0;
}

/* an empty float tensor on a's device (the outputs an op does not compute) */
static nn_tensor *empty0(const nn_tensor *a) { return nn_empty_on(nn_device_of(a), 1, (const int64_t[]){0}, a->dtype); }

/* a new [batch..., d0, d1] tensor of a's dtype on its device */
/* LAPACK's info > 0 of an iterative solver: "...failed to converge ... too many repeated <what>". Returns -1. */
static int not_converged(const char *f, int bd, const nn_kernel_args *ka, const char *what)
{
    char pre[48];
    return nn_error_set(NN_ERR_LINALG, "%s: %sThe algorithm failed to converge because the input matrix is "
                                       "ill-conditioned or has too many repeated %s (error code: %d).",
                        f, batch_prefix(bd > 0, (int64_t)ka->host[1], pre, sizeof pre), what, (int)ka->host[0]);
}

static nn_tensor *batch_empty(const nn_tensor *a, int keep, int64_t d0, int64_t d1, nn_dtype dt)
{
    int64_t s[NN_MAX_DIMS + 2];
    memcpy(s, a->sizes, sizeof(int64_t) * (size_t)keep);
    s[keep] = d0, s[keep + 1] = d1;
    return nn_empty_on(nn_device_of(a), keep + (d1 >= 0 ? 2 : 1), s, dt);
}

int nn_linalg_qr(nn_tensor *a, const char *mode, nn_tensor **q, nn_tensor **r)
{
    *q = *r = NULL;
    bool complete = !strcmp(mode, "complete"), ronly = !strcmp(mode, "r");
    if (!complete && !ronly && strcmp(mode, "reduced"))
        return nn_error_set(NN_ERR_RUNTIME, "qr received unrecognized mode '%s' but expected one of 'reduced' (default), "
                                            "'r', or 'complete'", mode);
    if (check_matrix("linalg.qr", a) < 0) return -1;
    int bd = a->ndim - 2;
    int64_t m = a->sizes[bd], n = a->sizes[bd + 1], k = m < n ? m : n, kq = complete ? m : k;
    nn_tensor *cm = column_major(a), *qb = cm && !ronly ? batch_empty(a, bd, kq, m, a->dtype) : NULL;
    if (!cm || (!ronly && !qb)) goto fail;
    nn_kernel_args ka = {.t = {cm, qb}, .i = {batch_of(a), m, n, kq}};
    if (run_linalg(NN_LINALG_QR, &ka, a) < 0) goto fail;
    bool prev = nn_set_grad_enabled(false);
    nn_tensor *full = from_column_major(cm), *top = full ? nn_narrow(full, -2, 0, complete ? m : k) : NULL;
    *r = top ? nn_triu(top, 0) : NULL;
    NN_RELEASE(full);
    NN_RELEASE(top);
    nn_set_grad_enabled(prev);
    *q = ronly ? empty0(a) : from_column_major(qb);
    NN_SET(cm, NULL);
    NN_SET(qb, NULL);
    if (!*q || !*r) goto fail;
    nn_op_params p = {.flags = complete | (ronly ? 2 : 0)};
    nn_tensor *outs[2] = {*q, *r};
    if (nn_record(NN_OP_linalg_qr, 1, &a, 2, outs, 2, outs, &p) < 0) goto fail;
    return 0;
fail:
    NN_SET(cm, NULL);
    NN_SET(qb, NULL);
    NN_SET(*q, NULL);
    NN_SET(*r, NULL);
    return -1;
}

/* X with X R^T = G (R square, upper triangular): solve(R, G^T)^T */
static nn_tensor *right_solve_rt(nn_tensor *g, nn_tensor *r, nn_scratch *s)
{
    nn_tensor *x = NN_KEEP(s, nn_linalg_solve(r, NN_KEEP(s, nn_transpose(g, -1, -2))));
    return NN_KEEP(s, nn_transpose(x, -1, -2));
}

/* ATen's linalg_qr_backward (arXiv:2009.10071): m >= n: gA = [gQ + Q syminvadj(triu(M))] R^-T,
   M = gR R^T - Q^T gQ; m < n: Q tril(X - X^T) R1^-T beside zeros, plus Q gR */
int nn_linalg_qr_backward(nn_node *nd, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *gQ = gout[0], *gR = gout[1];
    if (!gQ && !gR) return 0;
    if (nd->p.flags & 2)
        return nn_error_set(NN_ERR_RUNTIME, "The derivative of linalg.qr depends on Q, which is not computed when "
                                            "mode='r'. Please use linalg.qr(A, mode='reduced') if you are going to "
                                            "differentiate through linalg.qr.");
    nn_tensor *Q = nn_node_saved(nd, 0), *R = nn_node_saved(nd, 1);
    int64_t m = Q->sizes[Q->ndim - 2], n = R->sizes[R->ndim - 1];
    if ((nd->p.flags & 1) && m > n)
        return nn_error_set(NN_ERR_RUNTIME, "The QR decomposition is not differentiable when mode='complete' and "
                                            "nrows > ncols.");
    nn_scratch s = {0};
    nn_tensor *Qt = NN_KEEP(&s, nn_transpose(Q, -1, -2)), *M = NULL, *gA = NULL;
    nn_tensor *gRRt = gR ? NN_KEEP(&s, nn_matmul(gR, NN_KEEP(&s, nn_transpose(R, -1, -2)))) : NULL;
    nn_tensor *QtgQ = gQ ? NN_KEEP(&s, nn_matmul(Qt, gQ)) : NULL;
    M = gQ && gR ? NN_KEEP(&s, nn_sub(gRRt, QtgQ)) : gQ ? NN_KEEP(&s, nn_neg(QtgQ)) : gRRt;
    if (s.failed) goto done;
    if (m >= n) {
        nn_tensor *up = NN_KEEP(&s, nn_triu(M, 0));
        nn_tensor *sym = NN_KEEP(&s, nn_add(up, NN_KEEP(&s, nn_transpose(NN_KEEP(&s, nn_triu(M, 1)), -1, -2))));
        gA = NN_KEEP(&s, nn_matmul(Q, sym));
        if (gQ) gA = NN_KEEP(&s, nn_add(gA, gQ));
        if (!s.failed) gA = right_solve_rt(gA, R, &s);
    } else {
        nn_tensor *X = NN_KEEP(&s, nn_neg(M));
        nn_tensor *skew = NN_KEEP(&s, nn_tril(NN_KEEP(&s, nn_sub(X, NN_KEEP(&s, nn_transpose(X, -1, -2)))), 0));
        gA = NN_KEEP(&s, nn_matmul(Q, skew));
        nn_tensor *R1 = NN_KEEP(&s, nn_narrow(R, -1, 0, m));
        if (!s.failed) gA = right_solve_rt(gA, R1, &s);
        int64_t zs[NN_MAX_DIMS];
        if (!s.failed) {
            memcpy(zs, gA->sizes, sizeof(int64_t) * (size_t)gA->ndim);
            zs[gA->ndim - 1] = n - m;
        }
        nn_tensor *zero = s.failed ? NULL : NN_KEEP(&s, nn_zeros_on(nn_device_of(gA), gA->ndim, zs, gA->dtype));
        if (!s.failed) gA = NN_KEEP(&s, nn_cat(2, (nn_tensor *[]){gA, zero}, -1));
        if (gR && !s.failed) gA = NN_KEEP(&s, nn_add(gA, NN_KEEP(&s, nn_matmul(Q, gR))));
    }
    if (!s.failed && gA) {
        NN_RETAIN(gA);
        gin[0] = gA;
    }
done:
    nn_scratch_free(&s);
    return gin[0] ? 0 : -1;
}

int nn_linalg_svd(nn_tensor *a, bool full, bool uv, nn_tensor **u, nn_tensor **s, nn_tensor **vh)
{
    *u = *s = *vh = NULL;
    const char *f = "linalg.svd";
    if (check_matrix(f, a) < 0) return -1;
    int bd = a->ndim - 2;
    int64_t m = a->sizes[bd], n = a->sizes[bd + 1], k = m < n ? m : n;
    bool ret_uv = uv;
    uv = uv || nn_needs_grad(1, &a); /* the backward needs U and Vh */
    full = full && ret_uv;
    int64_t uc = full ? m : k, vr = full ? n : k;
    nn_tensor *cm = column_major(a), *ub = NULL, *vb = NULL;
    *s = cm ? batch_empty(a, bd, k, -1, a->dtype) : NULL;
    if (uv && *s) {
        ub = batch_empty(a, bd, uc, m, a->dtype);
        vb = ub ? batch_empty(a, bd, n, vr, a->dtype) : NULL;
    }
    if (!*s || (uv && !vb)) goto fail;
    nn_kernel_args ka = {.t = {cm, *s, ub, vb}, .i = {batch_of(a), m, n, full}};
    if (run_linalg(NN_LINALG_SVD, &ka, a) < 0) goto fail;
    if (ka.host[0] > 0 && not_converged(f, bd, &ka, "singular values") < 0) goto fail;
    if (uv && k == 0) { /* ?gesdd did not run: full factors of an empty matrix are identities */
        nn_tensor *io[2] = {ub, vb};
        for (int i = 0; i < 2; i++) {
            int64_t d = io[i]->sizes[io[i]->ndim - 1];
            nn_tensor *eye = nn_eye_on(nn_device_of(a), d, d, a->dtype);
            nn_tensor *e = eye ? nn_expand(eye, io[i]->ndim, io[i]->sizes) : NULL;
            int rc = e ? nn_copy_(io[i], e) : -1;
            NN_RELEASE(eye);
            NN_RELEASE(e);
            if (rc < 0) goto fail;
        }
    }
    nn_tensor *U = uv ? from_column_major(ub) : NULL, *Vh = uv ? from_column_major(vb) : NULL;
    NN_SET(cm, NULL);
    NN_SET(ub, NULL);
    NN_SET(vb, NULL);
    *u = ret_uv ? (U ? (NN_RETAIN(U), U) : NULL) : empty0(a);
    *vh = ret_uv ? (Vh ? (NN_RETAIN(Vh), Vh) : NULL) : empty0(a);
    if (!*u || !*vh || (uv && (!U || !Vh))) {
        NN_RELEASE(U);
        NN_RELEASE(Vh);
        goto fail;
    }
    nn_op_params p = {.flags = full | (uv ? 2 : 0)};
    nn_tensor *outs[3] = {*u, *s, *vh};
    int rc = nn_record(NN_OP_linalg_svd, 1, &a, 3, outs, 3, (nn_tensor *[]){U, *s, Vh}, &p);
    NN_RELEASE(U);
    NN_RELEASE(Vh);
    if (rc < 0) goto fail;
    return 0;
fail:
    NN_SET(cm, NULL);
    NN_SET(ub, NULL);
    NN_SET(vb, NULL);
    NN_SET(*u, NULL);
    NN_SET(*s, NULL);
    NN_SET(*vh, NULL);
    return -1;
}

/* ATen's svd_backward (FunctionsManual.cpp, real case): full factors narrowed to
   the first min(m, n) columns of U and rows of Vh */
int nn_linalg_svd_backward(nn_node *nd, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *gU = gout[0], *gS = gout[1], *gVh = gout[2];
    if (!gU && !gS && !gVh) return 0;
    nn_scratch s = {0};
    nn_tensor *U = nn_node_saved(nd, 0), *S = nn_node_saved(nd, 1), *Vh = nn_node_saved(nd, 2);
    if (!(nd->p.flags & 2) && (gU || gVh))
        return nn_error_set(NN_ERR_RUNTIME, "linalg.svd: the singular vectors were not computed (compute_uv=False)");
    int64_t m = U->sizes[U->ndim - 2], n = Vh->sizes[Vh->ndim - 1], k = S->sizes[S->ndim - 1];
    if (nd->p.flags & 1) {
        U = NN_KEEP(&s, nn_narrow(U, -1, 0, k));
        Vh = NN_KEEP(&s, nn_narrow(Vh, -2, 0, k));
        if (gU) gU = NN_KEEP(&s, nn_narrow(gU, -1, 0, k));
        if (gVh) gVh = NN_KEEP(&s, nn_narrow(gVh, -2, 0, k));
    }
    if (s.failed) goto done;
    nn_tensor *Sr = NN_KEEP(&s, nn_unsqueeze(S, -2)), *Sc = NN_KEEP(&s, nn_unsqueeze(S, -1)), *gA;
    if (!gU && !gVh) {
        nn_tensor *g = m >= n ? NN_KEEP(&s, nn_mul(NN_KEEP(&s, nn_unsqueeze(gS, -1)), Vh)) : NULL;
        gA = m >= n ? NN_KEEP(&s, nn_matmul(U, g))
                    : NN_KEEP(&s, nn_matmul(NN_KEEP(&s, nn_mul(U, NN_KEEP(&s, nn_unsqueeze(gS, -2)))), Vh));
        goto out;
    }
    nn_tensor *Uh = NN_KEEP(&s, nn_transpose(U, -1, -2)), *V = NN_KEEP(&s, nn_transpose(Vh, -1, -2));
    nn_tensor *UhgU = NULL, *VhgV = NULL;
    if (gU) {
        nn_tensor *t = NN_KEEP(&s, nn_matmul(Uh, gU));
        UhgU = NN_KEEP(&s, nn_sub(t, NN_KEEP(&s, nn_transpose(t, -1, -2))));
    }
    if (gVh) {
        nn_tensor *t = NN_KEEP(&s, nn_matmul(Vh, NN_KEEP(&s, nn_transpose(gVh, -1, -2))));
        VhgV = NN_KEEP(&s, nn_sub(t, NN_KEEP(&s, nn_transpose(t, -1, -2))));
    }
    if (s.failed) goto done;
    nn_tensor *S2 = NN_KEEP(&s, nn_mul(S, S));
    nn_tensor *E = NN_KEEP(&s, nn_sub(NN_KEEP(&s, nn_unsqueeze(S2, -2)), NN_KEEP(&s, nn_unsqueeze(S2, -1))));
    nn_tensor *eye = NN_KEEP(&s, nn_eye_on(nn_device_of(S), k, k, S->dtype));
    E = NN_KEEP(&s, nn_add(E, eye)); /* the diagonal of E is 0: now 1 */
    if (s.failed) goto done;
    if (gU && gVh)
        gA = NN_KEEP(&s, nn_div(NN_KEEP(&s, nn_add(NN_KEEP(&s, nn_mul(UhgU, Sr)), NN_KEEP(&s, nn_mul(Sc, VhgV)))), E));
    else if (gU)
        gA = NN_KEEP(&s, nn_mul(NN_KEEP(&s, nn_div(UhgU, E)), Sr));
    else
        gA = NN_KEEP(&s, nn_div(NN_KEEP(&s, nn_mul(Sc, VhgV)), E));
    if (gS) gA = NN_KEEP(&s, nn_add(gA, NN_KEEP(&s, nn_diag_embed(gS, 0, -2, -1))));
    if (s.failed) goto done;
    if (m > n && gU) {
        gA = NN_KEEP(&s, nn_matmul(U, gA));
        nn_tensor *gUSinv = NN_KEEP(&s, nn_div(gU, Sr));
        gA = NN_KEEP(&s, nn_add(gA, gUSinv));
        gA = NN_KEEP(&s, nn_sub(gA, NN_KEEP(&s, nn_matmul(U, NN_KEEP(&s, nn_matmul(Uh, gUSinv))))));
        gA = NN_KEEP(&s, nn_matmul(gA, Vh));
    } else if (m < n && gVh) {
        gA = NN_KEEP(&s, nn_matmul(gA, Vh));
        nn_tensor *SinvgVh = NN_KEEP(&s, nn_div(gVh, Sc));
        gA = NN_KEEP(&s, nn_add(gA, SinvgVh));
        gA = NN_KEEP(&s, nn_sub(gA, NN_KEEP(&s, nn_matmul(NN_KEEP(&s, nn_matmul(SinvgVh, V)), Vh))));
        gA = NN_KEEP(&s, nn_matmul(U, gA));
    } else {
        gA = m >= n ? NN_KEEP(&s, nn_matmul(U, NN_KEEP(&s, nn_matmul(gA, Vh))))
                    : NN_KEEP(&s, nn_matmul(NN_KEEP(&s, nn_matmul(U, gA)), Vh));
    }
out:
    if (!s.failed) {
        NN_RETAIN(gA);
        gin[0] = gA;
    }
done:
    nn_scratch_free(&s);
    return gin[0] ? 0 : -1;
}

int nn_linalg_eigh(nn_tensor *a, bool upper, bool vectors, nn_tensor **w, nn_tensor **v)
{
    *w = *v = NULL;
    const char *f = vectors ? "linalg.eigh" : "linalg.eigvalsh";
    if (check_square(f, a) < 0) return -1;
    int bd = a->ndim - 2;
    int64_t n = a->sizes[bd];
    nn_tensor *cm = column_major(a);
    *w = cm ? batch_empty(a, bd, n, -1, a->dtype) : NULL;
    if (!*w) goto fail;
    bool want = vectors || nn_needs_grad(1, &a); /* the backward needs the eigenvectors */
    nn_kernel_args ka = {.t = {cm, *w}, .i = {batch_of(a), n, n, want, upper}};
    if (run_linalg(NN_LINALG_EIGH, &ka, a) < 0) goto fail;
    if (ka.host[0] > 0 && not_converged(f, bd, &ka, "eigenvalues") < 0) goto fail;
    nn_tensor *V = want ? from_column_major(cm) : NULL;
    *v = vectors ? (V ? (NN_RETAIN(V), V) : NULL) : empty0(a);
    NN_SET(cm, NULL);
    if (!*v || (want && !V)) goto fail;
    nn_tensor *outs[2] = {*w, *v};
    nn_op_params p = {.flags = want};
    int rc = nn_record(NN_OP_linalg_eigh, 1, &a, 2, outs, 2, (nn_tensor *[]){*w, V}, &p);
    NN_RELEASE(V);
    if (rc < 0) goto fail;
    return 0;
fail:
    NN_SET(cm, NULL);
    NN_SET(*w, NULL);
    NN_SET(*v, NULL);
    return -1;
}

int nn_linalg_eig(nn_tensor *a, bool vectors, nn_tensor **w, nn_tensor **v)
{
    *w = *v = NULL;
    const char *f = vectors ? "linalg.eig" : "linalg.eigvals";
    if (nn_dtype_is_complex(a->dtype))
        return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "%s: complex input is not supported in nnscope", f);
    if (!nn_dtype_is_floating(a->dtype)) /* ATen's toComplexType of the result dtype comes first */
        return nn_error_set(NN_ERR_RUNTIME, "Unknown Complex ScalarType for %s", nn_dtype_scalar_name(a->dtype));
    if (check_square(f, a) < 0) return -1;
    if (nn_needs_grad(1, &a))
        return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "%s: autograd through complex results is not supported in nnscope", f);
    int bd = a->ndim - 2;
    int64_t n = a->sizes[bd];
    nn_dtype cdt = nn_dtype_to_complex(a->dtype);
    nn_tensor *cm = column_major(a), *vcm = NULL;
    *w = cm ? batch_empty(a, bd, n, -1, cdt) : NULL;
    if (!*w || (vectors && !(vcm = batch_empty(a, bd, n, n, cdt)))) goto fail;
    nn_kernel_args ka = {.t = {cm, *w, vcm}, .i = {batch_of(a), n, n, vectors}};
    if (run_linalg(NN_LINALG_EIG, &ka, a) < 0) goto fail;
    if (ka.host[0] > 0 && not_converged(f, bd, &ka, "eigenvalues") < 0) goto fail;
    if (vectors && !(*v = from_column_major(vcm))) goto fail;
    NN_SET(cm, NULL);
    NN_SET(vcm, NULL);
    return 0;
fail:
    NN_SET(cm, NULL);
    NN_SET(vcm, NULL);
    NN_SET(*w, NULL);
    return -1;
}

/* ATen's linalg_eig_backward for Hermitian input: gA = V (skew(V^H gV) / E + diag(gL)) V^H */
int nn_linalg_eigh_backward(nn_node *nd, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *gL = gout[0], *gV = gout[1];
    if (!gL && !gV) return 0;
    if (gV && !nd->p.flags)
        return nn_error_set(NN_ERR_RUNTIME, "linalg.eigvalsh: the eigenvectors were not computed");
    nn_scratch s = {0};
    nn_tensor *L = nn_node_saved(nd, 0), *V = nn_node_saved(nd, 1);
    int64_t n = L->sizes[L->ndim - 1];
    nn_tensor *Vh = NN_KEEP(&s, nn_transpose(V, -1, -2)), *gA;
    if (gV) {
        nn_tensor *t = NN_KEEP(&s, nn_matmul(Vh, gV));
        t = NN_KEEP(&s, nn_mul_scalar(NN_KEEP(&s, nn_sub(t, NN_KEEP(&s, nn_transpose(t, -1, -2)))), 0.5));
        nn_tensor *E = NN_KEEP(&s, nn_sub(NN_KEEP(&s, nn_unsqueeze(L, -2)), NN_KEEP(&s, nn_unsqueeze(L, -1))));
        E = NN_KEEP(&s, nn_add(E, NN_KEEP(&s, nn_eye_on(nn_device_of(L), n, n, L->dtype))));
        gA = NN_KEEP(&s, nn_div(t, E));
        if (gL) gA = NN_KEEP(&s, nn_add(gA, NN_KEEP(&s, nn_diag_embed(gL, 0, -2, -1))));
    } else {
        gA = NN_KEEP(&s, nn_diag_embed(gL, 0, -2, -1));
    }
    nn_tensor *r = s.failed ? NULL : NN_KEEP(&s, nn_matmul(V, NN_KEEP(&s, nn_matmul(gA, Vh))));
    if (!s.failed) {
        NN_RETAIN(r);
        gin[0] = r;
    }
    nn_scratch_free(&s);
    return gin[0] ? 0 : -1;
}

/* tol = max(atol, rtol * largest) with PyTorch's defaults: atol 0; rtol
   eps * max(m, n) when neither is given or atol alone is zero */
static void tolerances(const nn_tensor *a, double *atol, double *rtol)
{
    bool ga = !isnan(*atol), gr = !isnan(*rtol);
    double eps = a->dtype == NN_FLOAT32 ? 1.1920928955078125e-07 : 2.220446049250313e-16;
    int64_t m = a->sizes[a->ndim - 2], n = a->sizes[a->ndim - 1];
    if (!gr) *rtol = ga && *atol > 0 ? 0 : eps * (double)(m > n ? m : n);
    if (!ga) *atol = 0;
}

/* values S [..., k] (descending or, hermitian, |eigenvalues|) and the cut-off [..., 1] */
static nn_tensor *cutoff(nn_tensor *S, double atol, double rtol, nn_scratch *s)
{
    int last = -1;
    nn_tensor *mx = NN_KEEP(s, nn_amax(S, 1, &last, true));
    nn_tensor *rt = NN_KEEP(s, nn_mul_scalar(mx, rtol));
    return NN_KEEP(s, nn_clamp_min(rt, atol));
}

/* ATen's composition (SVD, or eigh when hermitian), computed without a graph:
   the result is recorded as one LinalgPinvBackward0 node */
static nn_tensor *pinv_value(nn_tensor *a, double atol, double rtol, bool hermitian)
{
    if (check_matrix("linalg.pinv", a) < 0) return NULL;
    tolerances(a, &atol, &rtol);
    if (nn_numel(a) == 0) {
        int64_t sz[NN_MAX_DIMS];
        memcpy(sz, a->sizes, sizeof(int64_t) * (size_t)a->ndim);
        sz[a->ndim - 2] = a->sizes[a->ndim - 1], sz[a->ndim - 1] = a->sizes[a->ndim - 2];
        return nn_empty_on(nn_device_of(a), a->ndim, sz, a->dtype);
    }
    nn_scratch s = {0};
    nn_tensor *U = NULL, *S = NULL, *Vh = NULL, *r = NULL;
    if (hermitian ? nn_linalg_eigh(a, false, true, &S, &U) : nn_linalg_svd(a, false, true, &U, &S, &Vh)) return NULL;
    NN_KEEP(&s, U), NN_KEEP(&s, S), Vh ? NN_KEEP(&s, Vh) : NULL;
    nn_tensor *Sa = hermitian ? NN_KEEP(&s, nn_abs(S)) : S;
    nn_tensor *tol = cutoff(Sa, atol, rtol, &s);
    nn_tensor *keep = NN_KEEP(&s, nn_compare(Sa, tol, NN_GT));
    nn_tensor *zero = NN_KEEP(&s, nn_scalar(0, a->dtype));
    nn_tensor *inv = NN_KEEP(&s, nn_where(keep, NN_KEEP(&s, nn_reciprocal(S)), zero));
    nn_tensor *row = NN_KEEP(&s, nn_unsqueeze(inv, -2));
    nn_tensor *Uh = NN_KEEP(&s, nn_transpose(U, -1, -2));
    nn_tensor *left = hermitian ? NN_KEEP(&s, nn_mul(U, row)) : NN_KEEP(&s, nn_mul(NN_KEEP(&s, nn_transpose(Vh, -1, -2)), row));
    if (!s.failed) r = nn_matmul(left, Uh);
    nn_scratch_free(&s);
    return r;
}

nn_tensor *nn_linalg_pinv(nn_tensor *a, double atol, double rtol, bool hermitian)
{
    nn_tensor *r = NULL;
    bool prev = nn_set_grad_enabled(false);
    r = pinv_value(a, atol, rtol, hermitian);
    nn_set_grad_enabled(prev);
    if (r && nn_record(NN_OP_linalg_pinv, 1, &a, 1, &r, 2, (nn_tensor *[]){a, r}, NULL) < 0) NN_SET(r, NULL);
    return r;
}

/* ATen's pinv_backward (FunctionsManual.cpp), real case, through matrices of the smaller dimension */
static nn_tensor *pinv_grad(nn_tensor *A, nn_tensor *P, nn_tensor *g)
{
    nn_scratch s = {0};
#define K_(x) NN_KEEP(&s, x)
#define MM(x, y) K_(nn_matmul(x, y))
#define TR(x) K_(nn_transpose(x, -1, -2))
    nn_tensor *Ph = TR(P), *gh = TR(g), *r = NULL;
    if (!s.failed && A->sizes[A->ndim - 2] <= A->sizes[A->ndim - 1]) {
        nn_tensor *K = MM(gh, P), *KPh = MM(K, Ph);
        nn_tensor *t1 = TR(MM(P, K)), *t3 = MM(MM(A, P), KPh), *t4 = MM(MM(Ph, P), K_(nn_sub(gh, MM(K, A))));
        r = s.failed ? NULL : K_(nn_add(K_(nn_sub(K_(nn_sub(KPh, t1)), t3)), t4));
    } else if (!s.failed) {
        nn_tensor *K = MM(P, gh), *PhK = MM(Ph, K);
        nn_tensor *t1 = TR(MM(K, P)), *t2 = MM(MM(K_(nn_sub(gh, MM(A, K))), P), Ph), *t4 = MM(MM(PhK, P), A);
        r = s.failed ? NULL : K_(nn_sub(K_(nn_add(K_(nn_sub(t2, t1)), PhK)), t4));
    }
#undef K_
#undef MM
#undef TR
    if (r && !s.failed) NN_RETAIN(r);
    else r = NULL;
    nn_scratch_free(&s);
    return r;
}

int nn_linalg_pinv_backward(nn_node *nd, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    gin[0] = pinv_grad(nn_node_saved(nd, 0), nn_node_saved(nd, 1), gout[0]);
    return gin[0] ? 0 : -1;
}

nn_tensor *nn_linalg_matrix_rank(nn_tensor *a, double atol, double rtol, bool hermitian)
{
    if (check_matrix("linalg.matrix_rank", a) < 0) return NULL;
    tolerances(a, &atol, &rtol);
    nn_scratch s = {0};
    nn_tensor *U = NULL, *S = NULL, *Vh = NULL, *r = NULL;
    bool prev = nn_set_grad_enabled(false);
    {
        if (!(hermitian ? nn_linalg_eigh(a, false, false, &S, &U) : nn_linalg_svd(a, false, false, &U, &S, &Vh))) {
            NN_KEEP(&s, U), NN_KEEP(&s, S), Vh ? NN_KEEP(&s, Vh) : NULL;
            nn_tensor *Sa = hermitian ? NN_KEEP(&s, nn_abs(S)) : S;
            int last = -1;
            if (S->sizes[S->ndim - 1] == 0) {
                r = nn_zeros_on(nn_device_of(a), S->ndim - 1, S->sizes, NN_INT64);
            } else {
                nn_tensor *keep = NN_KEEP(&s, nn_compare(Sa, cutoff(Sa, atol, rtol, &s), NN_GT));
                if (!s.failed) r = nn_sum(keep, 1, &last, false);
            }
        }
    }
    nn_set_grad_enabled(prev);
    nn_scratch_free(&s);
    return r;
}

/* least squares through LAPACK's driver (0 gels, 1 gelsy, 2 gelsd, 3 gelss), B a
   (batch of) vector(s) or matrices, batch dims broadcast; rcond NaN: eps * max(m, n) */
int nn_linalg_lstsq(nn_tensor *a, nn_tensor *b, double rcond, int driver, nn_tensor **out)
{
    const char *f = "torch.linalg.lstsq";
    for (int i = 0; i < 4; i++) out[i] = NULL;
    if (check_matrix("linalg.lstsq", a) < 0) return -1;
    if (b->dtype != a->dtype)
        return nn_error_set(NN_ERR_RUNTIME, "%s: Expected input and other to have the same dtype, but got input's dtype "
                                            "%s and other's dtype %s", f, nn_dtype_scalar_name(a->dtype),
                            nn_dtype_scalar_name(b->dtype));
    bool vec = b->ndim == a->ndim - 1;
    if (b->ndim < 1 || (!vec && b->ndim != a->ndim))
        return nn_error_set(NN_ERR_RUNTIME, "%s: input.dim() must be greater or equal to other.dim() and (input.dim() - "
                                            "other.dim()) <= 1", f);
    int64_t m = a->sizes[a->ndim - 2], n = a->sizes[a->ndim - 1];
    nn_scratch s = {0};
    nn_tensor *bm = vec ? NN_KEEP(&s, nn_unsqueeze(b, -1)) : b;
    if (s.failed) return -1;
    if (bm->sizes[bm->ndim - 2] != m) {
        nn_scratch_free(&s);
        return nn_error_set(NN_ERR_RUNTIME, "%s: input.size(-2) should match other.size(%d)", f, vec ? -1 : -2);
    }
    if (isnan(rcond)) rcond = (a->dtype == NN_FLOAT32 ? 1.1920928955078125e-07 : 2.220446049250313e-16) * (double)(m > n ? m : n);
    int nb;
    int64_t batch[NN_MAX_DIMS + 2], sa[NN_MAX_DIMS + 2], sb[NN_MAX_DIMS + 2], mx = m > n ? m : n, k = m < n ? m : n;
    int64_t nrhs = bm->sizes[bm->ndim - 1];
    if (nn_broadcast_shapes(a->ndim - 2, a->sizes, bm->ndim - 2, bm->sizes, &nb, batch) < 0) return nn_scratch_free(&s), -1;
    memcpy(sa, batch, sizeof(int64_t) * (size_t)nb);
    memcpy(sb, batch, sizeof(int64_t) * (size_t)nb);
    sa[nb] = m, sa[nb + 1] = n, sb[nb] = m, sb[nb + 1] = nrhs;
    nn_tensor *ea = NN_KEEP(&s, nn_expand(a, nb + 2, sa)), *eb = NN_KEEP(&s, nn_expand(bm, nb + 2, sb));
    if (s.failed) return nn_scratch_free(&s), -1;
    int64_t bn = batch_of(ea);
    /* B padded to max(m, n) rows, column-major */
    nn_tensor *acm = NN_KEEP(&s, column_major(ea));
    nn_tensor *bcm = NN_KEEP(&s, batch_empty(ea, nb, nrhs, mx, a->dtype));
    if (s.failed) return nn_scratch_free(&s), -1;
    NN_WITH_GRAD_MODE(false, {
        nn_tensor *bt = NN_KEEP(&s, nn_transpose(eb, -1, -2));
        nn_tensor *dst = NN_KEEP(&s, nn_narrow(bcm, -1, 0, m));
        if (!s.failed && mx > m && nn_fill_(bcm, 0) < 0) s.failed = true; /* the rows below m */
        if (!s.failed && nn_copy_(dst, bt) < 0) s.failed = true;
    });
    bool svals = driver >= 2, ranks = driver >= 1;
    nn_tensor *sv = svals ? NN_KEEP(&s, batch_empty(ea, nb, k, -1, a->dtype)) : NULL;
    nn_tensor *rk = ranks ? NN_KEEP(&s, nn_empty_on(nn_device_of(a), nb, batch, NN_INT64)) : NULL;
    if (s.failed) return nn_scratch_free(&s), -1;
    nn_kernel_args ka = {.t = {acm, bcm, sv, rk}, .i = {bn, m, n, driver, nrhs}, .d = {rcond}};
    if (run_linalg(NN_LINALG_LSTSQ, &ka, a) < 0) return nn_scratch_free(&s), -1;
    if (ka.host[0] > 0) {
        nn_scratch_free(&s);
        char pre[48];
        batch_prefix(nb > 0, (int64_t)ka.host[1], pre, sizeof pre);
        if (driver == 0)
            return nn_error_set(NN_ERR_LINALG, "%s: %sThe least squares solution could not be computed because the "
                                               "input matrix does not have full rank (error code: %d).",
                                f, pre, (int)ka.host[0]);
        return nn_error_set(NN_ERR_LINALG, "%s: %sThe algorithm failed to converge because the input matrix is "
                                           "ill-conditioned or has too many repeated singular values (error code: %d).",
                            f, pre, (int)ka.host[0]);
    }
    nn_tensor *full = NN_KEEP(&s, from_column_major(bcm)); /* [..., mx, nrhs] */
    nn_tensor *sol = NULL, *res = NULL;
    bool prev = nn_set_grad_enabled(false);
    {
        nn_tensor *top = NN_KEEP(&s, nn_narrow(full, -2, 0, n));
        sol = top ? nn_contiguous(top) : NULL;
        if (sol == top && sol) NN_SET(sol, nn_clone(top));
        if (sol && m == 0 && nn_fill_(sol, 0) < 0) NN_SET(sol, NULL);
        bool resid = m > n && driver != 1 && !s.failed;
        if (resid && driver >= 2) {
            nn_tensor *hold = NULL;
            const int64_t *rv = nn_host_read(rk, &hold); /* the ranks, through the host contract */
            if (!rv) s.failed = true;
            for (int64_t i = 0; rv && i < bn; i++) resid &= rv[i] == n;
            NN_RELEASE(hold);
        }
        if (resid && !s.failed) {
            nn_tensor *low = NN_KEEP(&s, nn_narrow(full, -2, n, m - n));
            nn_tensor *sq = NN_KEEP(&s, nn_mul(low, low));
            int d = -2;
            res = s.failed ? NULL : nn_sum(sq, 1, &d, false);
        }
    }
    nn_set_grad_enabled(prev);
    if (!res) res = empty0(a);
    if (sol && vec) {
        nn_tensor *q = nn_squeeze_dim(sol, -1), *c = q ? nn_contiguous(q) : NULL;
        NN_RELEASE(q);
        NN_SET(sol, c);
    }
    out[0] = sol, out[1] = res;
    out[2] = rk ? (NN_RETAIN(rk), rk) : nn_empty_on(nn_device_of(a), 1, (const int64_t[]){0}, NN_INT64);
    out[3] = sv ? (NN_RETAIN(sv), sv) : empty0(a);
    nn_scratch_free(&s);
    if (!out[0] || !out[1] || !out[2] || !out[3] || s.failed) goto fail;
    nn_op_params p = {.flags = vec};
    if (nn_record(NN_OP_linalg_lstsq, 2, (nn_tensor *[]){a, b}, 1, out, 2, (nn_tensor *[]){a, b}, &p) < 0) goto fail;
    return 0;
fail:
    for (int i = 0; i < 4; i++) NN_RELEASE(out[i]);
    return -1;
}

/* ATen's linalg_matrix_power: identity, inverse, then products by binary decomposition */
nn_tensor *nn_linalg_matrix_power(nn_tensor *a, int64_t e)
{
    if (a->ndim < 2 || a->sizes[a->ndim - 1] != a->sizes[a->ndim - 2]) {
        nn_error_set(NN_ERR_RUNTIME, "linalg.matrix_power: A must be batches of square matrices, but they are %lld by %lld "
                                     "matrices", (long long)(a->ndim ? a->sizes[a->ndim - 2 < 0 ? 0 : a->ndim - 2] : 0),
                     (long long)(a->ndim ? a->sizes[a->ndim - 1] : 0));
        return NULL;
    }
    if (e == 0) {
        int64_t n = a->sizes[a->ndim - 1];
        nn_tensor *eye = nn_eye_on(nn_device_of(a), n, n, a->dtype), *r = eye ? nn_expand(eye, a->ndim, a->sizes) : NULL;
        nn_tensor *c = r ? nn_clone(r) : NULL;
        NN_RELEASE(eye);
        NN_RELEASE(r);
        return c;
    }
    nn_tensor *base = e < 0 ? nn_linalg_inv(a) : (NN_RETAIN(a), a);
    if (!base) return NULL;
    if (e < 0) e = -e;
    nn_tensor *r = NULL;
    if (e == 1) r = nn_clone(base);
    else if (e == 2) r = nn_matmul(base, base);
    else if (e == 3) {
        nn_tensor *t = nn_matmul(base, base);
        r = t ? nn_matmul(t, base) : NULL;
        NN_RELEASE(t);
    } else {
        nn_tensor *z = NULL;
        bool ok = true;
        while (e > 0 && ok) {
            int64_t bit = e % 2;
            e /= 2;
            nn_tensor *nz = z ? nn_matmul(z, z) : (NN_RETAIN(base), base);
            NN_RELEASE(z);
            z = nz;
            if (!z) ok = false;
            if (ok && bit) {
                nn_tensor *nr = r ? nn_matmul(r, z) : (NN_RETAIN(z), z);
                NN_RELEASE(r);
                r = nr;
                if (!r) ok = false;
            }
        }
        NN_RELEASE(z);
        if (!ok) NN_SET(r, NULL);
    }
    NN_RELEASE(base);
    return r;
}

/* ATen's linalg_lstsq_backward (the solution's gradient, through pinv(A)):
   gA = pinv_backward(gX B^T, pinv(A), A), gB = pinv(A)^T gX, each summed to its input's shape */
int nn_linalg_lstsq_backward(nn_node *nd, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    bool vec = nd->p.flags;
    nn_scratch s = {0};
    nn_tensor *A = nn_node_saved(nd, 0), *B = nn_node_saved(nd, 1);
    nn_tensor *gX = vec ? NN_KEEP(&s, nn_unsqueeze(gout[0], -1)) : gout[0];
    nn_tensor *Bm = vec ? NN_KEEP(&s, nn_unsqueeze(B, -1)) : B;
    nn_tensor *P = NN_KEEP(&s, nn_linalg_pinv(A, NAN, NAN, false));
    if (!s.failed && nn_node_needs_input_grad(nd, 0)) {
        nn_tensor *g = NN_KEEP(&s, pinv_grad(A, P, NN_KEEP(&s, nn_matmul(gX, NN_KEEP(&s, nn_transpose(Bm, -1, -2))))));
        if (!s.failed && !(gin[0] = nn_sum_to_size(g, nd->input_meta[0].ndim, nd->input_meta[0].sizes))) s.failed = true;
    }
    if (!s.failed && nn_node_needs_input_grad(nd, 1)) {
        nn_tensor *g = NN_KEEP(&s, nn_matmul(NN_KEEP(&s, nn_transpose(P, -1, -2)), gX));
        if (vec) g = NN_KEEP(&s, nn_squeeze_dim(g, -1));
        if (!s.failed && !(gin[1] = nn_sum_to_size(g, nd->input_meta[1].ndim, nd->input_meta[1].sizes))) s.failed = true;
    }
    nn_scratch_free(&s);
    return s.failed ? -1 : 0;
}
