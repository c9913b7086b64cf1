/*
 * linalg_lu.c — the LU decomposition as torch.linalg shows it: lu_factor
 * (LU packed with LAPACK's int32 pivots; lu_factor_ex and torch.lu too),
 * lu_unpack (P, L, U) and lu (P, L, U of A = P L U), for batches of square
 * float32/float64 matrices, over linalg.c's getrf (the factorisation ATen
 * computes). The backwards are FunctionsManual's linalg_lu_backward for square
 * matrices, built from differentiable ops (the inverses of L and U).
 */
#include <stdio.h>
#include <string.h>

#include "nn_int.h"
#include "nn_linalg.h"
#include "nn_scratch.h"
#include "nn_select.h"
#include "nn_select_more.h"

static const char *title_of(nn_dtype dt) { return nn_dtype_scalar_name(dt); }

static int check_lu(const char *f, const nn_tensor *a, bool pivot)
{
    if (a->ndim < 2) {
        char buf[128];
        return nn_error_set(NN_ERR_RUNTIME, "%s: Expected tensor with 2 or more dimensions. Got size: %s instead", f,
                            nn_shape_str(a->ndim, a->sizes, buf, sizeof buf));
    }
    if (a->dtype != NN_FLOAT32 && a->dtype != NN_FLOAT64)
        return nn_error_set(NN_ERR_RUNTIME, "\"lu_cpu\" not implemented for '%s'", title_of(a->dtype));
    if (!pivot) return nn_error_set(NN_ERR_RUNTIME, "linalg.lu_factor: LU without pivoting is not implemented on the CPU");
    if (a->sizes[a->ndim - 1] != a->sizes[a->ndim - 2])
        return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "%s: only square matrices are supported (got %lld by %lld)", f,
                            (long long)a->sizes[a->ndim - 2], (long long)a->sizes[a->ndim - 1]);
    return 0;
}

int nn_linalg_lu_factor(nn_tensor *a, bool pivot, const char *check_errors, nn_tensor **lu, nn_tensor **pivots)
{
    *lu = *pivots = NULL;
    if (check_lu(check_errors ? check_errors + strlen("torch.") : "linalg.lu_factor", a, pivot) < 0) return -1;
    int64_t batch_sizes[NN_MAX_DIMS], singular_at = 0;
    int singular = 0;
    memcpy(batch_sizes, a->sizes, sizeof(int64_t) * (size_t)(a->ndim - 1));
    nn_tensor *cm = NULL, *piv = NULL, *out = NULL;
    if (nn_lu_factor_batch(a, &cm, &piv, &singular, &singular_at) < 0) return -1;
    NN_WITH_GRAD_MODE(false, {
        nn_tensor *t = nn_transpose(cm, -1, -2);
        out = t ? nn_clone(t) : NULL; /* row-major, a's shape (cm is the batch's column-major copy) */
        NN_RELEASE(t);
        if (out) NN_SET(out, nn_reshape(out, a->ndim, a->sizes));
        NN_SET(piv, piv ? nn_reshape(piv, a->ndim - 1, batch_sizes) : NULL);
    });
    NN_RELEASE(cm);
    if (!out || !piv) goto fail;
    if (check_errors && singular) {
        char prefix[48] = "";
        if (a->ndim > 2) snprintf(prefix, sizeof prefix, "(Batch element %lld): ", (long long)singular_at);
        nn_error_set(NN_ERR_RUNTIME, "%s: %sU[%d,%d] is zero and using it on lu_solve would result in a division by "
                     "zero. If you still want to perform the factorization, consider calling linalg.lu(A, pivot) or "
                     "linalg.lu_factor_ex(A, pivot)", check_errors, prefix, singular, singular);
        goto fail;
    }
    nn_tensor *save[2] = {out, piv};
    if (nn_record(NN_OP_linalg_lu_factor, 1, &a, 1, &out, 2, save, NULL) < 0) goto fail;
    *lu = out;
    *pivots = piv;
    return 0;
fail:
    NN_RELEASE(out);
    NN_RELEASE(piv);
    return -1;
}

/* P of A = P L U from LAPACK's pivots ([..., n] int32, 1-based row swaps): the
   swaps applied to 0..n-1 give perm, and P[perm[i], i] = 1 */
static nn_tensor *permutation(nn_tensor *pivots, int64_t n, nn_dtype dt)
{
    int64_t batch = nn_numel(pivots) / (n ? n : 1), sizes[NN_MAX_DIMS];
    memcpy(sizes, pivots->sizes, sizeof(int64_t) * (size_t)pivots->ndim);
    sizes[pivots->ndim] = n;
    nn_tensor *hold = NULL, *p = NULL;
    const int32_t *piv = nn_host_read(pivots, &hold);
    double *host = piv ? nn_calloc((size_t)(batch * n * n) + 1, sizeof(double)) : NULL;
    int64_t *perm = host ? nn_malloc(sizeof(int64_t) * (size_t)(n + 1)) : NULL;
    if (perm) {
        for (int64_t b = 0; b < batch; b++) {
            for (int64_t i = 0; i < n; i++) perm[i] = i;
            for (int64_t i = 0; i < n; i++) {
                int64_t j = piv[b * n + i] - 1, t = perm[i];
                if (j < 0 || j >= n) j = i; /* LAPACK never gives one; keep the row */
                perm[i] = perm[j];
                perm[j] = t;
            }
            for (int64_t i = 0; i < n; i++) host[b * n * n + perm[i] * n + i] = 1;
        }
        nn_tensor *p64 = nn_empty_on(nn_device_of(pivots), pivots->ndim + 1, sizes, NN_FLOAT64);
        if (p64 && nn_host_write(p64, host) < 0) NN_SET(p64, NULL);
        p = p64 ? nn_to_dtype(p64, dt) : NULL;
        NN_RELEASE(p64);
    }
    nn_free(perm);
    nn_free(host);
    NN_RELEASE(hold);
    return p;
}

int nn_lu_unpack(nn_tensor *lu, nn_tensor *pivots, nn_tensor **P, nn_tensor **L, nn_tensor **U)
{
    *P = *L = *U = NULL;
    int64_t n = lu->sizes[lu->ndim - 1];
    nn_tensor *eye = nn_eye_on(nn_device_of(lu), n, n, lu->dtype);
    nn_tensor *below = eye ? nn_tril(lu, -1) : NULL;
    *L = below ? nn_add(below, eye) : NULL;
    *U = *L ? nn_triu(lu, 0) : NULL;
    NN_WITH_GRAD_MODE(false, *P = *U ? permutation(pivots, n, lu->dtype) : NULL);
    NN_RELEASE(eye);
    NN_RELEASE(below);
    if (*P) return 0;
    NN_SET(*L, NULL); /* the caller sees NULLs, as on entry */
    NN_SET(*U, NULL);
    return -1;
}

nn_tensor *nn_lu_info(nn_tensor *lu)
{
    int64_t n = lu->sizes[lu->ndim - 1];
    if (n == 0) return nn_zeros_on(nn_device_of(lu), lu->ndim - 2, lu->sizes, NN_INT32);
    nn_scratch s = {0};
    nn_tensor *info = NULL;
    NN_WITH_GRAD_MODE(false, {
        nn_tensor *diag = NN_KEEP(&s, nn_diagonal(lu, 0, -2, -1));
        nn_tensor *zero = NN_KEEP(&s, nn_to_dtype(NN_KEEP(&s, nn_compare(diag, NN_KEEP(&s, nn_zeros_like(diag)), NN_EQ)),
                                                  NN_INT64));
        /* the first zero's index + 1, times whether there is one */
        nn_tensor *first = NN_KEEP(&s, nn_add_scalar(NN_KEEP(&s, nn_argmax(zero, -1, true, false)), 1));
        nn_tensor *any = NN_KEEP(&s, nn_amax(zero, 1, (const int[]){-1}, false));
        nn_tensor *r = s.failed ? NULL : nn_mul(first, any);
        info = r ? nn_to_dtype(r, NN_INT32) : NULL;
        NN_RELEASE(r);
    });
    nn_scratch_free(&s);
    return info;
}

int nn_linalg_lu(nn_tensor *a, bool pivot, nn_tensor **P, nn_tensor **L, nn_tensor **U)
{
    *P = *L = *U = NULL;
    if (check_lu("linalg.lu", a, pivot) < 0) return -1;
    nn_tensor *lu = NULL, *piv = NULL;
    int rc = -1;
    NN_WITH_GRAD_MODE(false, {
        if (nn_linalg_lu_factor(a, true, NULL, &lu, &piv) == 0) rc = nn_lu_unpack(lu, piv, P, L, U);
    });
    NN_RELEASE(lu);
    NN_RELEASE(piv);
    nn_tensor *outs[2] = {rc == 0 ? *L : NULL, rc == 0 ? *U : NULL}, *save[3] = {*P, *L, *U};
    if (rc == 0 && nn_record(NN_OP_linalg_lu, 1, &a, 2, outs, 3, save, NULL) < 0) rc = -1;
    if (rc < 0) {
        NN_SET(*P, NULL);
        NN_SET(*L, NULL);
        NN_SET(*U, NULL);
    }
    return rc;
}

static nn_tensor *mT(nn_scratch *s, nn_tensor *t) { return NN_KEEP(s, nn_transpose(t, -1, -2)); }

/* linalg_lu_backward (m == n): P L^-H [(L^H gL) o tril(-1) + (gU U^H) o triu] U^-H; gL or gU may be NULL */
static nn_tensor *lu_grad(nn_tensor *P, nn_tensor *L, nn_tensor *U, nn_tensor *gL, nn_tensor *gU)
{
    nn_scratch s = {0};
    nn_tensor *m = NULL;
    if (gL) m = NN_KEEP(&s, nn_tril(NN_KEEP(&s, nn_matmul(mT(&s, L), gL)), -1));
    if (gU) {
        nn_tensor *u = NN_KEEP(&s, nn_triu(NN_KEEP(&s, nn_matmul(gU, mT(&s, U))), 0));
        m = m ? NN_KEEP(&s, nn_add(m, u)) : u;
    }
    nn_tensor *left = mT(&s, NN_KEEP(&s, nn_linalg_inv_direct(L))), *right = mT(&s, NN_KEEP(&s, nn_linalg_inv_direct(U)));
    nn_tensor *inner = NN_KEEP(&s, nn_matmul(NN_KEEP(&s, nn_matmul(left, m)), right));
    nn_tensor *r = NN_KEEP(&s, nn_matmul(P, inner));
    if (r) NN_RETAIN(r);
    nn_scratch_free(&s);
    return r;
}

int nn_linalg_lu_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0] && !gout[1]) return 0;
    gin[0] = lu_grad(nn_node_saved(n, 0), nn_node_saved(n, 1), nn_node_saved(n, 2), gout[0], gout[1]);
    return gin[0] ? 0 : -1;
}

/* lu_factor_ex_backward: the packed gradient is L's (below the diagonal) and U's */
int nn_linalg_lu_factor_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    if (!gout[0]) return 0;
    nn_tensor *P = NULL, *L = NULL, *U = NULL;
    if (nn_lu_unpack(nn_node_saved(n, 0), nn_node_saved(n, 1), &P, &L, &U) < 0) return -1;
    gin[0] = lu_grad(P, L, U, gout[0], gout[0]);
    NN_RELEASE(P);
    NN_RELEASE(L);
    NN_RELEASE(U);
    return gin[0] ? 0 : -1;
}
