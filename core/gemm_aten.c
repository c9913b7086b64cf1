/*
 * gemm_aten.c — matrix products handed to BLAS as PyTorch 1.13 hands them
 * (nn_gemm.h). OpenBLAS's result depends on the call, not only on the math:
 * a transposed operand or a swapped operand order selects another kernel,
 * which sums in another order, so the same product can differ in its last
 * bit. ATen's addmm_impl_cpu_ (aten/src/ATen/native/LinearAlgebra.cpp) calls
 * the column-major sgemm_ with the result as C, or, for a row-major result,
 * with C^T = m2^T m1^T (its transpose_c); each operand is read in place
 * when one of its dims has unit stride and the other a large enough one,
 * else it is copied. cpublas::gemm then rewrites the leading dims of
 * degenerate (size-1) matrices (normalize_last_dims). We reproduce those
 * choices and issue the column-major call through the row-major GEMM kernel
 * with its operands swapped, which is the very call OpenBLAS's CBLAS layer
 * makes from it.
 */
#include "nn_gemm.h"
#include "backend.h"

static int64_t max1(int64_t v) { return v > 1 ? v : 1; }

/* A matrix as ATen sees it: the tensor handed to the kernel (t, or its
   contiguous copy), its sizes and strides. */
typedef struct mat {
    nn_tensor *keep; /* the copy, or NULL */
    const nn_tensor *p;
    int64_t size[2], stride[2];
} mat;

static void mat_of(mat *m, nn_tensor *t)
{
    m->keep = NULL;
    m->p = t;
    for (int d = 0; d < 2; d++) m->size[d] = t->sizes[d], m->stride[d] = t->strides[d];
}

/* t.clone(at::MemoryFormat::Contiguous): PyTorch's contiguous strides */
static int mat_copy(mat *m, nn_tensor *t)
{
    NN_WITH_GRAD_MODE(false, m->keep = nn_clone(t));
    if (!m->keep) return -1;
    m->p = m->keep;
    m->stride[1] = 1;
    m->stride[0] = max1(m->size[1]);
    return 0;
}

/* ATen's "cast m as matrix a/b": in place when dim i0 has unit stride and dim
   i1 a stride >= max(1, ld_min) (not transposed), or the reverse with
   tr_min (transposed); else a copy, transposed = !transpose_c. */
static int operand(mat *m, nn_tensor *t, bool tc, int64_t ld_min, int64_t tr_min, bool *trans)
{
    int i0 = tc ? 1 : 0, i1 = tc ? 0 : 1;
    mat_of(m, t);
    if (m->stride[i0] == 1 && m->stride[i1] >= max1(ld_min)) {
        *trans = false;
    } else if (m->stride[i1] == 1 && m->stride[i0] >= max1(tr_min)) {
        *trans = true;
    } else {
        *trans = !tc;
        if (mat_copy(m, t) < 0) return -1;
    }
    return 0;
}

int nn_gemm_as_aten(nn_tensor *c, nn_tensor *a, nn_tensor *b, double beta)
{
    int64_t N = c->sizes[0], M = c->sizes[1];
    /* c's contiguous strides as PyTorch gives them: [max(1, M), 1] */
    int64_t cs0 = max1(M), cs1 = 1;
    bool tc;
    if (cs0 == 1 && (M == 1 || cs1 >= max1(N))) tc = false;
    else tc = true; /* cs1 == 1 and cs0 >= max(1, M) for a contiguous c */
    nn_tensor *m1 = tc ? b : a, *m2 = tc ? a : b;
    int64_t m = tc ? M : N, n = tc ? N : M, k = a->sizes[1];
    mat ma, mb;
    bool ta, tb;
    if (operand(&ma, m1, tc, m, k, &ta) < 0) return -1;
    if (operand(&mb, m2, tc, k, n, &tb) < 0) {
        NN_RELEASE(ma.keep);
        return -1;
    }
    int64_t lda = ma.stride[ta == tc ? 1 : 0], ldb = mb.stride[tb == tc ? 1 : 0], ldc = tc ? cs0 : cs1;
    /* cpublas::gemm's normalize_last_dims */
    if (n == 1) ldc = m;
    if (ta) {
        if (m == 1) lda = k;
    } else if (k == 1) {
        lda = m;
    }
    if (tb) {
        if (k == 1) ldb = n;
    } else if (n == 1) {
        ldb = k;
    }
    /* column-major gemm(ta, tb, m, n, k, A, lda, B, ldb, beta, C, ldc) is the
       row-major one with the operands swapped */
    int rc = NN_KERNEL(nn_backend_of(c), gemm, (tb, ta, n, m, k, mb.p, ldb, ma.p, lda, beta, c, ldc));
    NN_RELEASE(ma.keep);
    NN_RELEASE(mb.keep);
    return rc;
}

/* addmv_out_cpu's lda_cond */
static bool lda_cond(int64_t m, int64_t n, int64_t lda) { return n == 1 || lda >= max1(m); }

int nn_gemv_as_aten(nn_tensor *y, nn_tensor *a, nn_tensor *x)
{
    int64_t s0 = a->strides[0], s1 = a->strides[1], r = a->sizes[0], cols = a->sizes[1], incx = x->strides[0];
    if (incx < 1 || incx > INT32_MAX || r > INT32_MAX || cols > INT32_MAX) return 1;
    nn_tensor *copy = NULL;
    bool trans;
    int64_t m, n, lda;
    const nn_tensor *p = a;
    if (s0 == 1 && lda_cond(r, cols, s1)) {
        trans = false, m = r, n = cols, lda = s1;
    } else if (s1 == 1 && lda_cond(cols, r, s0)) {
        trans = true, m = cols, n = r, lda = s0;
    } else {
        NN_WITH_GRAD_MODE(false, copy = nn_contiguous(a));
        if (!copy) return -1;
        p = copy;
        trans = true, m = cols, n = r, lda = max1(cols);
    }
    if (n == 1) lda = m; /* gemv<float>'s own rewrite */
    if (lda < max1(m) || lda > INT32_MAX) {
        NN_RELEASE(copy);
        return 1;
    }
    /* column-major y = op(A) x, A from p's first element (a or its copy, on y's device) */
    int rc = NN_KERNEL(nn_backend_of(y), gemv, (trans, m, n, p, lda, x, incx, y));
    NN_RELEASE(copy);
    return rc;
}
