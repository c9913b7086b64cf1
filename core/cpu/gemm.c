/*
 * cpu/gemm.c — the CPU's GEMM kernel (kernels.def `gemm`): the one place that
 * calls OpenBLAS's cblas_sgemm/cblas_dgemm (core/blas.c loads it). mm, bmm,
 * addmm, linear, matmul and conv all reach it; and the `gemv` kernel
 * (cblas_sgemv/dgemv, mv as ATen's addmv_out_cpu calls it).
 */
#include <limits.h>

#include "nn_cpu.h"

int nn_cpu_blas_gemm(nn_dtype dt, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const void *a, int64_t lda,
                     const void *b, int64_t ldb, double beta, void *c, int64_t ldc)
{
    if (m > INT_MAX || n > INT_MAX || k > INT_MAX || lda > INT_MAX || ldb > INT_MAX || ldc > INT_MAX)
        return nn_error_set(NN_ERR_RUNTIME, "matrix dimensions (%lld, %lld, %lld) are too large for BLAS", (long long)m,
                            (long long)n, (long long)k);
    const nn_blas *blas = nn_blas_get();
    if (!blas) return -1;
    enum CBLAS_TRANSPOSE at = ta ? CblasTrans : CblasNoTrans, bt = tb ? CblasTrans : CblasNoTrans;
    if (dt == NN_FLOAT32)
        blas->sgemm(CblasRowMajor, at, bt, (blasint)m, (blasint)n, (blasint)k, 1.0f, a, (blasint)lda, b, (blasint)ldb,
                    (float)beta, c, (blasint)ldc);
    else
        blas->dgemm(CblasRowMajor, at, bt, (blasint)m, (blasint)n, (blasint)k, 1.0, a, (blasint)lda, b, (blasint)ldb,
                    beta, c, (blasint)ldc);
    return 0;
}

int nn_cpu_gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const nn_tensor *a, int64_t lda, const nn_tensor *b,
                int64_t ldb, double beta, nn_tensor *c, int64_t ldc)
{
    return nn_cpu_blas_gemm(c->dtype, ta, tb, m, n, k, nn_data_ptr(a), lda, nn_data_ptr(b), ldb, beta, nn_data_ptr(c),
                            ldc);
}

int nn_cpu_dot(int64_t n, const nn_tensor *xt, int64_t incx, const nn_tensor *yt, int64_t incy, nn_tensor *outt)
{
    nn_dtype dt = outt->dtype;
    const void *x = nn_data_ptr(xt), *y = nn_data_ptr(yt);
    void *out = nn_data_ptr(outt);
    if (n > INT_MAX || incx > INT_MAX || incy > INT_MAX)
        return nn_error_set(NN_ERR_RUNTIME, "matrix dimensions (%lld, %lld, %lld) are too large for BLAS", (long long)n,
                            (long long)1, (long long)1);
    const nn_blas *blas = nn_blas_get();
    if (!blas) return -1;
    if (dt == NN_FLOAT32) *(float *)out = blas->sdot((int)n, x, (int)incx, y, (int)incy);
    else *(double *)out = blas->ddot((int)n, x, (int)incx, y, (int)incy);
    return 0;
}

int nn_cpu_gemv(bool trans, int64_t m, int64_t n, const nn_tensor *at, int64_t lda, const nn_tensor *xt, int64_t incx,
                nn_tensor *yt)
{
    nn_dtype dt = yt->dtype;
    const void *a = nn_data_ptr(at), *x = nn_data_ptr(xt);
    void *y = nn_data_ptr(yt);
    if (m > INT_MAX || n > INT_MAX || lda > INT_MAX || incx > INT_MAX)
        return nn_error_set(NN_ERR_RUNTIME, "matrix dimensions (%lld, %lld) are too large for BLAS", (long long)m,
                            (long long)n);
    const nn_blas *blas = nn_blas_get();
    if (!blas) return -1;
    enum CBLAS_TRANSPOSE t = trans ? CblasTrans : CblasNoTrans;
    if (dt == NN_FLOAT32)
        blas->sgemv(CblasColMajor, t, (int)m, (int)n, 1.0f, a, (int)lda, x, (int)incx, 0.0f, y, 1);
    else
        blas->dgemv(CblasColMajor, t, (int)m, (int)n, 1.0, a, (int)lda, x, (int)incx, 0.0, y, 1);
    return 0;
}
