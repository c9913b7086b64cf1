/*
 * linalg.c — torch.linalg's LU-based functions over OpenBLAS's LAPACK
 * (?getrf/?getrs, opened as blas.c opens the library), and vector_norm:
 * det, slogdet, inv, solve; their backwards are PyTorch 1.13's formulas
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

#include "nn_int.h"
#include "nn_linalg.h"
#include "nn_scratch.h"
#include "nn_select.h"
#include "nn_select_more.h"

typedef void getrf_fn(const int *m, const int *n, void *a, const int *lda, int *ipiv, int *info);
typedef void potrf_fn(const char *uplo, const int *n, void *a, const int *lda, int *info, size_t uplo_len);
typedef void getrs_fn(const char *trans, const int *n, const int *nrhs, const void *a, const int *lda, const int *ipiv,
                      void *b, const int *ldb, int *info, size_t trans_len);

static struct {
    getrf_fn *sgetrf, *dgetrf;
    getrs_fn *sgetrs, *dgetrs;
    potrf_fn *spotrf, *dpotrf;
    bool ok;
} lapack;
static pthread_once_t lapack_once = PTHREAD_ONCE_INIT;

static void lapack_load(void)
{
    void *lib = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!lib) lib = dlopen("libopenblas.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return;
    *(void **)&lapack.sgetrf = dlsym(lib, "sgetrf_");
    *(void **)&lapack.dgetrf = dlsym(lib, "dgetrf_");
    *(void **)&lapack.sgetrs = dlsym(lib, "sgetrs_");
    *(void **)&lapack.dgetrs = dlsym(lib, "dgetrs_");
    *(void **)&lapack.spotrf = dlsym(lib, "spotrf_");
    *(void **)&lapack.dpotrf = dlsym(lib, "dpotrf_");
    lapack.ok = lapack.sgetrf && lapack.dgetrf && lapack.sgetrs && lapack.dgetrs && lapack.spotrf && lapack.dpotrf;
}

static int lapack_get(void)
{
    pthread_once(&lapack_once, lapack_load);
    return lapack.ok ? 0 : nn_error_set(NN_ERR_RUNTIME, "cannot load OpenBLAS's LAPACK (?getrf_, ?getrs_, ?potrf_)");
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

static void getrf(nn_dtype dt, int n, void *m, int *ipiv, int *info)
{
    int lda = n > 0 ? n : 1;
    (dt == NN_FLOAT32 ? lapack.sgetrf : lapack.dgetrf)(&n, &n, m, &lda, ipiv, info);
}

/* LU of every matrix of a (column-major copy lu, pivots), info > 0 for a singular one. */
static int lu_factor(nn_tensor *a, nn_tensor **lu, int **pivots, int *first_singular, int64_t *batch)
{
    if (lapack_get() < 0) return -1;
    int n = (int)a->sizes[a->ndim - 1];
    *batch = n > 0 ? nn_numel(a) / ((int64_t)n * n) : 1;
    if (n == 0) *batch = 1;
    for (int d = 0; d < a->ndim - 2; d++)
        if (a->sizes[d] == 0) *batch = 0;
    *lu = column_major(a);
    *pivots = *lu ? nn_calloc((size_t)(*batch * n + 1), sizeof(int)) : NULL;
    if (!*pivots) {
        NN_RELEASE(*lu);
        return -1;
    }
    *first_singular = 0;
    size_t es = nn_dtype_size(a->dtype);
    char *base = nn_data_ptr(*lu);
    for (int64_t b = 0; b < *batch && n > 0; b++) {
        int info = 0;
        getrf(a->dtype, n, base + (size_t)(b * n * n) * es, *pivots + b * n, &info);
        if (info > 0 && !*first_singular) *first_singular = info;
    }
    return 0;
}

/* ------------------------------------------------------- det / slogdet */

static int det_parts(const char *f, nn_tensor *a, nn_tensor **det, nn_tensor **sign, nn_tensor **logabs)
{
    if (check_square(f, a) < 0) return -1;
    nn_tensor *lu = NULL;
    int *piv = NULL, singular = 0;
    int64_t batch = 0;
    if (lu_factor(a, &lu, &piv, &singular, &batch) < 0) return -1;
    int n = (int)a->sizes[a->ndim - 1];
    int bd = a->ndim - 2;
    nn_tensor *outs[3] = {0};
    for (int k = 0; k < 3; k++) {
        outs[k] = nn_empty(bd, a->sizes, a->dtype);
        if (!outs[k]) goto fail;
    }
    const char *m = nn_data_ptr(lu);
    for (int64_t b = 0; b < batch; b++) {
        bool odd = false;
        for (int i = 0; i < n; i++) odd ^= piv[b * n + i] != i + 1;
        if (a->dtype == NN_FLOAT32) {
            const float *u = (const float *)m + b * n * n;
            float p = 1, sg = 1, la = 0;
            for (int i = 0; i < n; i++) {
                float x = u[(size_t)i * n + i];
                p *= x;
                sg *= x > 0 ? 1.f : x < 0 ? -1.f : 0.f;
                la += logf(fabsf(x));
            }
            ((float *)nn_data_ptr(outs[0]))[b] = odd ? -p : p;
            ((float *)nn_data_ptr(outs[1]))[b] = odd ? -sg : sg;
            ((float *)nn_data_ptr(outs[2]))[b] = la;
        } else {
            const double *u = (const double *)m + b * n * n;
            double p = 1, sg = 1, la = 0;
            for (int i = 0; i < n; i++) {
                double x = u[(size_t)i * n + i];
                p *= x;
                sg *= x > 0 ? 1. : x < 0 ? -1. : 0.;
                la += log(fabs(x));
            }
            ((double *)nn_data_ptr(outs[0]))[b] = odd ? -p : p;
            ((double *)nn_data_ptr(outs[1]))[b] = odd ? -sg : sg;
            ((double *)nn_data_ptr(outs[2]))[b] = la;
        }
    }
    NN_RELEASE(lu);
    nn_free(piv);
    *det = outs[0];
    if (sign) *sign = outs[1];
    else NN_RELEASE(outs[1]);
    if (logabs) *logabs = outs[2];
    else NN_RELEASE(outs[2]);
    return 0;
fail:
    for (int k = 0; k < 3; k++) NN_RELEASE(outs[k]);
    NN_RELEASE(lu);
    nn_free(piv);
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
        NN_RELEASE(*sign);
        NN_RELEASE(*logabsdet);
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
   shape as A); column-major LU then getrs. singular: the 1-based index of a
   zero pivot, for the caller's message. */
static nn_tensor *lu_solve(const char *f, nn_tensor *a, nn_tensor *b, int *singular)
{
    nn_tensor *lu = NULL;
    int *piv = NULL;
    int64_t batch = 0;
    if (lu_factor(a, &lu, &piv, singular, &batch) < 0) return NULL;
    nn_tensor *x = *singular ? NULL : column_major(b);
    if (x && batch > 0) {
        int n = (int)a->sizes[a->ndim - 1], k = (int)b->sizes[b->ndim - 1], ld = n > 0 ? n : 1, info = 0;
        size_t es = nn_dtype_size(a->dtype);
        char *ab = nn_data_ptr(lu), *xb = nn_data_ptr(x);
        for (int64_t i = 0; i < batch && n > 0 && k > 0; i++)
            (a->dtype == NN_FLOAT32 ? lapack.sgetrs : lapack.dgetrs)("N", &n, &k, ab + (size_t)(i * n * n) * es, &ld,
                                                                      piv + i * n, xb + (size_t)(i * n * k) * es, &ld,
                                                                      &info, 1);
    }
    NN_RELEASE(lu);
    nn_free(piv);
    if (!x) return NULL;
    nn_tensor *r = NULL;
    NN_WITH_GRAD_MODE(false, {
        nn_tensor *t = nn_transpose(x, -1, -2); /* back to row-major, as a transposed view */
        r = t ? nn_contiguous(t) : NULL;
        NN_RELEASE(t);
    });
    NN_RELEASE(x);
    (void)f;
    return r;
}

nn_tensor *nn_linalg_inv(nn_tensor *a)
{
    if (check_square("linalg.inv", a) < 0) return NULL;
    int n = (int)a->sizes[a->ndim - 1], singular = 0;
    nn_tensor *eye = nn_eye(n, n, a->dtype), *b = eye ? nn_expand(eye, a->ndim, a->sizes) : NULL;
    nn_tensor *x = b ? lu_solve("linalg.inv", a, b, &singular) : NULL;
    NN_RELEASE(eye);
    NN_RELEASE(b);
    if (singular) {
        nn_error_set(NN_ERR_RUNTIME, "linalg.inv: The diagonal element %d is zero, the inversion could not be completed "
                                     "because the input matrix is singular.", singular);
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
    nn_tensor *x = eb ? lu_solve("linalg.solve", ea, eb, &singular) : NULL;
    NN_RELEASE(ea);
    NN_RELEASE(eb);
    NN_RELEASE(bm);
    if (singular) {
        nn_error_set(NN_ERR_RUNTIME, "torch.linalg.solve: The solver failed because the input matrix is singular.");
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
nn_tensor *nn_linalg_cholesky(nn_tensor *a, bool upper, bool legacy)
{
    if (check_square(legacy ? "cholesky" : "linalg.cholesky", a) < 0 || lapack_get() < 0) return NULL;
    static bool warned; /* TORCH_WARN_ONCE */
    if (legacy && !warned && (warned = true) && nn_warn("UserWarning",
                          "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a future "
                          "PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\nL = torch.linalg.cholesky(A)\n"
                          "and\nU = torch.cholesky(A, upper=True)\nshould be replaced with\nU = torch.linalg.cholesky(A).mH().\n"
                          "This transform will produce equivalent results for all valid (symmetric positive definite) "
                          "inputs. (Triggered internally at  ./aten/src/ATen/native/BatchLinearAlgebra.cpp:1615.)") < 0)
        return NULL;
    int n = (int)a->sizes[a->ndim - 1], ld = n > 0 ? n : 1;
    int64_t batch = n > 0 ? nn_numel(a) / ((int64_t)n * n) : 0;
    nn_tensor *cm = column_major(a);
    if (!cm) return NULL;
    size_t es = nn_dtype_size(a->dtype);
    char *base = nn_data_ptr(cm);
    for (int64_t b = 0; b < batch; b++) {
        int info = 0;
        (a->dtype == NN_FLOAT32 ? lapack.spotrf : lapack.dpotrf)("L", &n, base + (size_t)(b * n * n) * es, &ld, &info, 1);
        if (info > 0) {
            NN_RELEASE(cm);
            nn_error_set(NN_ERR_RUNTIME, "%s: The factorization could not be completed because the input is not "
                                         "positive-definite (the leading minor of order %d is not positive-definite).",
                         legacy ? "cholesky" : "linalg.cholesky", info);
            return NULL;
        }
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
    NN_RELEASE(cm);
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
