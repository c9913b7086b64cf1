/*
 * cpu/linalg.c — the CPU's `linalg` kernel (core/kernels.def, nn_linalg_op):
 * OpenBLAS's LAPACK (opened with dlopen on first use, as blas.c opens the
 * library) over batches of column-major matrices: LU (?getrf) with the
 * determinant's parts and solves (?getrs), Cholesky (?potrf), QR (?geqrf,
 * ?orgqr), the SVD (?gesdd, PyTorch's CPU driver), the symmetric eigensolver
 * (?syevd) and least squares (?gels, ?gelsy, ?gelsd, ?gelss), the routines
 * ATen's CPU kernels call. The op file (core/linalg.c) lays the operands out
 * and reads host[0] (LAPACK's info) for its error messages.
 */
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "nn_cpu.h"

typedef void getrf_fn(const int *m, const int *n, void *a, const int *lda, int *ipiv, int *info);
typedef void getrs_fn(const char *trans, const int *n, const int *nrhs, const void *a, const int *lda, const int *ipiv,
                      void *b, const int *ldb, int *info, size_t);
typedef void potrf_fn(const char *uplo, const int *n, void *a, const int *lda, int *info, size_t);
typedef void geqrf_fn(const int *m, const int *n, void *a, const int *lda, void *tau, void *work, const int *lwork,
                      int *info);
typedef void orgqr_fn(const int *m, const int *n, const int *k, void *a, const int *lda, const void *tau, void *work,
                      const int *lwork, int *info);
typedef void gesdd_fn(const char *jobz, const int *m, const int *n, void *a, const int *lda, void *s, void *u,
                      const int *ldu, void *vt, const int *ldvt, void *work, const int *lwork, int *iwork, int *info,
                      size_t);
typedef void syevd_fn(const char *jobz, const char *uplo, const int *n, void *a, const int *lda, void *w, void *work,
                      const int *lwork, int *iwork, const int *liwork, int *info, size_t, size_t);
typedef void geev_fn(const char *jobvl, const char *jobvr, const int *n, void *a, const int *lda, void *wr, void *wi,
                     void *vl, const int *ldvl, void *vr, const int *ldvr, void *work, const int *lwork, int *info,
                     size_t, size_t);
typedef void gels_fn(const char *trans, const int *m, const int *n, const int *nrhs, void *a, const int *lda, void *b,
                     const int *ldb, void *work, const int *lwork, int *info, size_t);
typedef void gelsy_fn(const int *m, const int *n, const int *nrhs, void *a, const int *lda, void *b, const int *ldb,
                      int *jpvt, const void *rcond, int *rank, void *work, const int *lwork, int *info);
typedef void gelsd_fn(const int *m, const int *n, const int *nrhs, void *a, const int *lda, void *b, const int *ldb,
                      void *s, const void *rcond, int *rank, void *work, const int *lwork, int *iwork, int *info);
typedef void gelss_fn(const int *m, const int *n, const int *nrhs, void *a, const int *lda, void *b, const int *ldb,
                      void *s, const void *rcond, int *rank, void *work, const int *lwork, int *info);

/* [0] single, [1] double precision. host[0] receives the first positive info,
   host[1] the batch index of its matrix. */
static struct {
    getrf_fn *getrf[2];
    getrs_fn *getrs[2];
    potrf_fn *potrf[2];
    geqrf_fn *geqrf[2];
    orgqr_fn *orgqr[2];
    gesdd_fn *gesdd[2];
    syevd_fn *syevd[2];
    geev_fn *geev[2];
    gels_fn *gels[2];
    gelsy_fn *gelsy[2];
    gelsd_fn *gelsd[2];
    gelss_fn *gelss[2];
    bool ok;
} lp;
static pthread_once_t lp_once = PTHREAD_ONCE_INIT;

static void *sym(void *lib, const char *name, bool *ok)
{
    void *p = dlsym(lib, name);
    if (!p) *ok = false;
    return p;
}

static void lp_load(void)
{
    void *lib = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!lib) lib = dlopen("libopenblas.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return;
    bool ok = true;
#define PAIR(f)                                                                                                        \
    *(void **)&lp.f[0] = sym(lib, "s" #f "_", &ok);                                                                    \
    *(void **)&lp.f[1] = sym(lib, "d" #f "_", &ok);
    PAIR(getrf) PAIR(getrs) PAIR(potrf) PAIR(geqrf) PAIR(gesdd) PAIR(syevd) PAIR(geev) PAIR(gels) PAIR(gelsy) PAIR(gelsd)
    PAIR(gelss)
#undef PAIR
    *(void **)&lp.orgqr[0] = sym(lib, "sorgqr_", &ok);
    *(void **)&lp.orgqr[1] = sym(lib, "dorgqr_", &ok);
    lp.ok = ok;
}

/* a LAPACK workspace size answered by a query (lwork = -1) */
static int lwork_of(bool dbl, const void *w)
{
    double v = dbl ? *(const double *)w : *(const float *)w;
    return v < 1 ? 1 : (int)v;
}

static char *mat(const nn_tensor *t, int64_t b, int64_t elems)
{
    return t ? (char *)nn_data_ptr(t) + (size_t)(b * elems) * nn_dtype_size(t->dtype) : NULL;
}

/* det, sign and log|det| of every LU factor (t[3], pivots t[4]): the diagonal's
   product, signs and log sum, negated for an odd permutation */
static int lu_det(nn_kernel_args *a, int64_t batch, int n)
{
    const int *piv = nn_data_ptr(a->t[4]);
    bool dbl = a->t[3]->dtype == NN_FLOAT64;
    for (int64_t b = 0; b < batch; b++) {
        bool odd = false;
        for (int i = 0; i < n; i++) odd ^= piv[b * n + i] != i + 1;
        /* in the factor's dtype throughout */
#define LU_DET_DIAG(T, LOG, FABS)                                                                                            \
    do {                                                                                                          \
        const T *u = (const T *)mat(a->t[3], b, (int64_t)n * n);                                                  \
        T p = 1, sg = 1, la = 0;                                                                                  \
        for (int i = 0; i < n; i++) {                                                                             \
            T x = u[(size_t)i * n + i];                                                                           \
            p *= x;                                                                                               \
            sg *= x > 0 ? (T)1 : x < 0 ? (T)-1 : (T)0;                                                            \
            la += LOG(FABS(x));                                                                                   \
        }                                                                                                         \
        T out[3] = {odd ? -p : p, odd ? -sg : sg, la};                                                            \
        for (int k = 0; k < 3; k++)                                                                               \
            if (a->t[k]) ((T *)nn_data_ptr(a->t[k]))[b] = out[k];                                                 \
    } while (0)
        if (!dbl) LU_DET_DIAG(float, logf, fabsf);
        else LU_DET_DIAG(double, log, fabs);
#undef LU_DET_DIAG
    }
    return 0;
}

static int qr(nn_kernel_args *a, bool dbl, int64_t batch, int m, int n)
{
    int kq = (int)a->i[3], k = m < n ? m : n, lda = m > 0 ? m : 1, lwork = -1, info = 0;
    size_t es = dbl ? 8 : 4;
    double q1 = 0, q2 = 0;
    lp.geqrf[dbl](&m, &n, NULL, &lda, NULL, &q1, &lwork, &info);
    int lw = lwork_of(dbl, &q1);
    if (a->t[1] && kq > 0) {
        lp.orgqr[dbl](&m, &kq, &k, NULL, &lda, NULL, &q2, &lwork, &info);
        if (lwork_of(dbl, &q2) > lw) lw = lwork_of(dbl, &q2);
    }
    char *work = nn_malloc((size_t)(lw + k + 1) * es);
    if (!work) return -1;
    char *tau = work + (size_t)lw * es;
    for (int64_t b = 0; b < batch && k > 0; b++) {
        char *ab = mat(a->t[0], b, (int64_t)m * n);
        lp.geqrf[dbl](&m, &n, ab, &lda, tau, work, &lw, &info);
        if (!a->t[1]) continue;
        char *qb = mat(a->t[1], b, (int64_t)m * kq);
        memcpy(qb, ab, (size_t)m * (size_t)(kq < n ? kq : n) * es);
        lp.orgqr[dbl](&m, &kq, &k, qb, &lda, tau, work, &lw, &info);
    }
    nn_free(work);
    return 0;
}

static int svd(nn_kernel_args *a, bool dbl, int64_t batch, int m, int n)
{
    int k = m < n ? m : n, lda = m > 0 ? m : 1, lwork = -1, info = 0;
    char jobz = !a->t[2] ? 'N' : a->i[3] ? 'A' : 'S';
    int ucols = jobz == 'A' ? m : k, vrows = jobz == 'A' ? n : k;
    int ldu = m > 0 ? m : 1, ldvt = vrows > 0 ? vrows : 1;
    size_t es = dbl ? 8 : 4;
    double q = 0, dummy[2];
    int *iwork = nn_malloc(sizeof(int) * (size_t)(8 * k + 1));
    if (!iwork) return -1;
    lp.gesdd[dbl](&jobz, &m, &n, NULL, &lda, NULL, dummy, &ldu, dummy, &ldvt, &q, &lwork, iwork, &info, 1);
    int lw = lwork_of(dbl, &q);
    char *work = nn_malloc((size_t)lw * es);
    if (!work) return nn_free(iwork), -1;
    a->host[0] = 0;
    for (int64_t b = 0; b < batch && k > 0; b++) {
        lp.gesdd[dbl](&jobz, &m, &n, mat(a->t[0], b, (int64_t)m * n), &lda, mat(a->t[1], b, k),
                      jobz == 'N' ? (char *)dummy : mat(a->t[2], b, (int64_t)m * ucols), &ldu,
                      jobz == 'N' ? (char *)dummy : mat(a->t[3], b, (int64_t)vrows * n), &ldvt, work, &lw, iwork, &info, 1);
        if (info > 0 && !a->host[0]) a->host[0] = info, a->host[1] = (double)b;
    }
    nn_free(work);
    nn_free(iwork);
    return 0;
}

static int eigh(nn_kernel_args *a, bool dbl, int64_t batch, int n)
{
    char jobz = a->i[3] ? 'V' : 'N', uplo = a->i[4] ? 'U' : 'L';
    int lda = n > 0 ? n : 1, lwork = -1, liwork = -1, info = 0, qi = 0;
    double q = 0;
    size_t es = dbl ? 8 : 4;
    lp.syevd[dbl](&jobz, &uplo, &n, NULL, &lda, NULL, &q, &lwork, &qi, &liwork, &info, 1, 1);
    int lw = lwork_of(dbl, &q), liw = qi > 0 ? qi : 1;
    char *work = nn_malloc((size_t)lw * es + sizeof(int) * (size_t)liw);
    if (!work) return -1;
    int *iwork = (int *)(work + (size_t)lw * es);
    a->host[0] = 0;
    for (int64_t b = 0; b < batch && n > 0; b++) {
        lp.syevd[dbl](&jobz, &uplo, &n, mat(a->t[0], b, (int64_t)n * n), &lda, mat(a->t[1], b, n), work, &lw, iwork,
                      &liw, &info, 1, 1);
        if (info > 0 && !a->host[0]) a->host[0] = info, a->host[1] = (double)b;
    }
    nn_free(work);
    return 0;
}

/* one part of element k of a complex matrix or vector */
static void put_part(char *base, bool dbl, int64_t k, int part, double v)
{
    if (dbl) ((double *)base)[2 * k + part] = v;
    else ((float *)base)[2 * k + part] = (float)v;
}

static double get(const char *base, bool dbl, int64_t k) { return dbl ? ((const double *)base)[k] : ((const float *)base)[k]; }

/* ?geev: the eigenvalues (wr, wi) as complex numbers; a conjugate pair's vectors
   from the two real columns LAPACK gives it, v = VR[:, j] ± i VR[:, j + 1] */
static int eig(nn_kernel_args *a, bool dbl, int64_t batch, int n)
{
    bool vectors = a->i[3] != 0;
    char jobvl = 'N', jobvr = vectors ? 'V' : 'N';
    int lda = n > 0 ? n : 1, ldvl = 1, ldvr = lda, lwork = -1, info = 0;
    double q = 0;
    size_t es = dbl ? 8 : 4;
    lp.geev[dbl](&jobvl, &jobvr, &n, NULL, &lda, NULL, NULL, NULL, &ldvl, NULL, &ldvr, &q, &lwork, &info, 1, 1);
    int lw = lwork_of(dbl, &q);
    size_t nn = (size_t)n * (size_t)n;
    char *work = nn_malloc(((size_t)lw + 2 * (size_t)n + (vectors ? nn : 0) + 1) * es);
    if (!work) return -1;
    char *wr = work + (size_t)lw * es, *wi = wr + (size_t)n * es, *vr = vectors ? wi + (size_t)n * es : NULL;
    a->host[0] = 0;
    for (int64_t b = 0; b < batch && n > 0; b++) {
        lp.geev[dbl](&jobvl, &jobvr, &n, mat(a->t[0], b, (int64_t)n * n), &lda, wr, wi, NULL, &ldvl, vr, &ldvr, work,
                     &lw, &info, 1, 1);
        if (info > 0 && !a->host[0]) a->host[0] = info, a->host[1] = (double)b;
        char *w = (char *)nn_data_ptr(a->t[1]) + (size_t)(b * n) * 2 * es;
        for (int j = 0; j < n; j++) put_part(w, dbl, j, 0, get(wr, dbl, j)), put_part(w, dbl, j, 1, get(wi, dbl, j));
        if (!vectors) continue;
        char *v = (char *)nn_data_ptr(a->t[2]) + (size_t)b * nn * 2 * es;
        for (int j = 0; j < n; j++) {
            bool pair = get(wi, dbl, j) != 0 && j + 1 < n;
            for (int i = 0; i < n; i++) {
                int64_t k = (int64_t)j * n + i;
                double re = get(vr, dbl, k), im = pair ? get(vr, dbl, k + n) : 0;
                put_part(v, dbl, k, 0, re), put_part(v, dbl, k, 1, im);
                if (pair) put_part(v, dbl, k + n, 0, re), put_part(v, dbl, k + n, 1, -im);
            }
            if (pair) j++;
        }
    }
    nn_free(work);
    return 0;
}

/* least squares: t[0] A [m, n] (destroyed), t[1] B [max(m, n), nrhs] (the
   solution in its first n rows), t[2] singular values [min] (gelsd, gelss) or
   NULL, t[3] ranks int64 [batch] or NULL; i[3] the driver (0 gels, 1 gelsy,
   2 gelsd, 3 gelss), d[0] rcond */
static int lstsq(nn_kernel_args *a, bool dbl, int64_t batch, int m, int n)
{
    int nrhs = (int)a->i[4], drv = (int)a->i[3], lda = m > 0 ? m : 1, mx = m > n ? m : n, ldb = mx > 0 ? mx : 1;
    int k = m < n ? m : n, lwork = -1, info = 0, rank = 0;
    size_t es = dbl ? 8 : 4;
    float rf = (float)a->d[0];
    const void *rc = dbl ? (const void *)&a->d[0] : (const void *)&rf;
    double q = 0, sd[1];
    int qi[4] = {0};
    int *jpvt = nn_calloc((size_t)n + 1, sizeof(int));
    if (!jpvt) return -1;
    switch (drv) {
    case 0: lp.gels[dbl]("N", &m, &n, &nrhs, NULL, &lda, NULL, &ldb, &q, &lwork, &info, 1); break;
    case 1: lp.gelsy[dbl](&m, &n, &nrhs, NULL, &lda, NULL, &ldb, jpvt, rc, &rank, &q, &lwork, &info); break;
    case 2: lp.gelsd[dbl](&m, &n, &nrhs, NULL, &lda, NULL, &ldb, sd, rc, &rank, &q, &lwork, qi, &info); break;
    default: lp.gelss[dbl](&m, &n, &nrhs, NULL, &lda, NULL, &ldb, sd, rc, &rank, &q, &lwork, &info); break;
    }
    int lw = lwork_of(dbl, &q), liw = qi[0] > 0 ? qi[0] : 1;
    char *work = nn_malloc((size_t)lw * es + sizeof(int) * (size_t)liw + (size_t)(k + 1) * es);
    if (!work) return nn_free(jpvt), -1;
    int *iwork = (int *)(work + (size_t)lw * es);
    char *sv = (char *)(iwork + liw);
    a->host[0] = 0;
    for (int64_t b = 0; b < batch; b++) {
        char *ab = mat(a->t[0], b, (int64_t)m * n), *bb = mat(a->t[1], b, (int64_t)mx * nrhs);
        char *s = a->t[2] ? mat(a->t[2], b, k) : sv;
        rank = 0;
        memset(jpvt, 0, sizeof(int) * (size_t)n);
        switch (drv) {
        case 0: lp.gels[dbl]("N", &m, &n, &nrhs, ab, &lda, bb, &ldb, work, &lw, &info, 1); break;
        case 1: lp.gelsy[dbl](&m, &n, &nrhs, ab, &lda, bb, &ldb, jpvt, rc, &rank, work, &lw, &info); break;
        case 2: lp.gelsd[dbl](&m, &n, &nrhs, ab, &lda, bb, &ldb, s, rc, &rank, work, &lw, iwork, &info); break;
        default: lp.gelss[dbl](&m, &n, &nrhs, ab, &lda, bb, &ldb, s, rc, &rank, work, &lw, &info); break;
        }
        if (info > 0 && !a->host[0]) a->host[0] = info, a->host[1] = (double)b;
        if (a->t[3]) ((int64_t *)nn_data_ptr(a->t[3]))[b] = rank;
    }
    nn_free(work);
    nn_free(jpvt);
    return 0;
}

int nn_cpu_linalg(nn_linalg_op op, nn_kernel_args *a)
{
    pthread_once(&lp_once, lp_load);
    if (!lp.ok) return nn_error_set(NN_ERR_RUNTIME, "cannot load OpenBLAS's LAPACK routines (libopenblas.so.0)");
    bool dbl = a->t[0] && a->t[0]->dtype == NN_FLOAT64;
    if (op == NN_LINALG_LU_DET || op == NN_LINALG_LU_SOLVE) dbl = a->t[3]->dtype == NN_FLOAT64;
    int64_t batch = a->i[0];
    int m = (int)a->i[1], n = (int)a->i[2], info = 0, ld = m > 0 ? m : 1;
    a->host[0] = 0;
    switch (op) {
    case NN_LINALG_LU:
        for (int64_t b = 0; b < batch && m > 0; b++) {
            lp.getrf[dbl](&m, &m, mat(a->t[0], b, (int64_t)m * m), &ld, (int *)nn_data_ptr(a->t[1]) + b * m, &info);
            if (info > 0 && !a->host[0]) a->host[0] = info, a->host[1] = (double)b;
        }
        return 0;
    case NN_LINALG_LU_DET: return lu_det(a, batch, m);
    case NN_LINALG_LU_SOLVE:
        for (int64_t b = 0; b < batch && m > 0 && n > 0; b++)
            lp.getrs[dbl](a->i[3] ? "T" : "N", &m, &n, mat(a->t[3], b, (int64_t)m * m), &ld, (const int *)nn_data_ptr(a->t[4]) + b * m,
                          mat(a->t[0], b, (int64_t)m * n), &ld, &info, 1);
        return 0;
    case NN_LINALG_CHOLESKY:
        for (int64_t b = 0; b < batch && m > 0; b++) {
            lp.potrf[dbl](a->i[4] ? "U" : "L", &m, mat(a->t[0], b, (int64_t)m * m), &ld, &info, 1);
            if (info > 0 && !a->host[0]) a->host[0] = info, a->host[1] = (double)b;
        }
        return 0;
    case NN_LINALG_QR: return qr(a, dbl, batch, m, n);
    case NN_LINALG_SVD: return svd(a, dbl, batch, m, n);
    case NN_LINALG_EIGH: return eigh(a, dbl, batch, m);
    case NN_LINALG_LSTSQ: return lstsq(a, dbl, batch, m, n);
    case NN_LINALG_EIG: return eig(a, dbl, batch, m);
    }
    return nn_error_set(NN_ERR_RUNTIME, "linalg kernel: unknown op code %d", (int)op);
}
