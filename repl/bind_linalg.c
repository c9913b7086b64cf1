/*
 * bind_linalg.c — torch.linalg (det, slogdet, inv, solve, cholesky, qr, svd,
 * svdvals, eigh, eigvalsh, pinv, matrix_rank, lstsq, matrix_power, multi_dot,
 * vector_norm, matrix_norm, norm, LinAlgError; cross is bind_ops_extra.c's)
 * and torch.det, logdet, slogdet, inverse, cholesky, qr, svd, symeig,
 * pinverse, matrix_power as functions and tensor methods (core/linalg.c, over
 * LAPACK behind the linalg kernel).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bind_int.h"
#include "eval_int.h"
#include "nn_linalg.h"
#include "nn_select_more.h"

#define ARGS(n) nn_object *a[n] = {0}
static nn_object *T(nn_tensor *t) { return (nn_object *)t; }

/* f(input, *, out=None): the one tensor argument of the one-matrix functions */
static int one_input(const char *f, nn_object *args, nn_object *kwargs, nn_tensor **x)
{
    ARGS(2);
    return repl_parse_args(f, "input, *, out=", args, kwargs, a) || repl_arg_tensor(f, "input", 1, a[0], x) ||
                   repl_no_out(f, a[1])
               ? -1
               : 0;
}

static nn_object *one_matrix(const char *f, nn_object *args, nn_object *kwargs, nn_tensor *(*op)(nn_tensor *))
{
    nn_tensor *x = NULL;
    return one_input(f, args, kwargs, &x) ? NULL : T(op(x));
}

static nn_object *f_det(void *ud, nn_object *args, nn_object *kwargs) { return one_matrix("det", args, kwargs, nn_linalg_det); }
static nn_object *f_inv(void *ud, nn_object *args, nn_object *kwargs) { return one_matrix("inv", args, kwargs, nn_linalg_inv); }
static nn_object *f_inverse(void *ud, nn_object *args, nn_object *kwargs)
{
    return one_matrix("inverse", args, kwargs, nn_linalg_inv);
}
static nn_object *f_logdet(void *ud, nn_object *args, nn_object *kwargs) { return one_matrix("logdet", args, kwargs, nn_logdet); }

static nn_object *slogdet_impl(nn_object *args, nn_object *kwargs, repl_return_id type)
{
    nn_tensor *x = NULL, *o[2] = {0};
    if (one_input("slogdet", args, kwargs, &x)) return NULL;
    return repl_return_tensors(nn_linalg_slogdet(x, &o[0], &o[1]), 2, o, type);
}

static nn_object *f_slogdet(void *ud, nn_object *args, nn_object *kwargs) { return slogdet_impl(args, kwargs, REPL_RETURN_slogdet); }
static nn_object *f_linalg_slogdet(void *ud, nn_object *args, nn_object *kwargs)
{
    return slogdet_impl(args, kwargs, REPL_RETURN_linalg_slogdet);
}

/* ------------------------------------------------ QR, SVD, eigh, pinv, lstsq */

static nn_object *f_linalg_qr(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL, *o[2] = {0};
    const char *mode = "reduced";
    if (repl_parse_args("linalg_qr", "A, mode=, *, out=", args, kwargs, a) || repl_arg_tensor("linalg_qr", "A", 1, a[0], &x) ||
        (a[1] && repl_arg_str("linalg_qr", "mode", 2, a[1], &mode)) || repl_no_out("linalg_qr", a[2]))
        return NULL;
    return repl_return_tensors(nn_linalg_qr(x, mode, &o[0], &o[1]), 2, o, REPL_RETURN_linalg_qr);
}

/* torch.qr(input, some=True): linalg.qr's reduced or complete mode */
static nn_object *f_qr(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL, *o[2] = {0};
    bool some = true;
    if (repl_parse_args("qr", "input, some=, *, out=", args, kwargs, a) || repl_arg_tensor("qr", "input", 1, a[0], &x) ||
        repl_arg_bool("qr", "some", 2, a[1], &some) || repl_no_out("qr", a[2]))
        return NULL;
    return repl_return_tensors(nn_linalg_qr(x, some ? "reduced" : "complete", &o[0], &o[1]), 2, o, REPL_RETURN_qr);
}

static nn_object *f_linalg_svd(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_tensor *x = NULL, *o[3] = {0};
    bool full = true;
    const char *f = "linalg_svd";
    if (repl_parse_args(f, "A, full_matrices=, *, driver=, out=", args, kwargs, a) || repl_arg_tensor(f, "A", 1, a[0], &x) ||
        repl_arg_bool(f, "full_matrices", 2, a[1], &full) || repl_no_out(f, a[3]))
        return NULL;
    if (a[2] && !nn_is_none(a[2]))
        return nn_error_set(NN_ERR_RUNTIME, "torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs "
                                            "with cuSOLVER backend."), NULL;
    return repl_return_tensors(nn_linalg_svd(x, full, true, &o[0], &o[1], &o[2]), 3, o, REPL_RETURN_linalg_svd);
}

static nn_object *f_svdvals(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *x = NULL, *u = NULL, *sv = NULL, *vh = NULL;
    if (repl_parse_args("linalg_svdvals", "A, *, out=", args, kwargs, a) || repl_arg_tensor("linalg_svdvals", "A", 1, a[0], &x) ||
        repl_no_out("linalg_svdvals", a[1]))
        return NULL;
    if (nn_linalg_svd(x, false, false, &u, &sv, &vh) < 0) return NULL;
    NN_RELEASE(u);
    NN_RELEASE(vh);
    return T(sv);
}

/* torch.svd(input, some=True, compute_uv=True): U, S and V = Vh^T (a transposed
   view); without compute_uv, zero U [m, m] and V [n, n] */
static nn_object *f_svd(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_tensor *x = NULL, *o[3] = {0};
    bool some = true, uv = true;
    if (repl_parse_args("svd", "input, some=, compute_uv=, *, out=", args, kwargs, a) ||
        repl_arg_tensor("svd", "input", 1, a[0], &x) || repl_arg_bool("svd", "some", 2, a[1], &some) ||
        repl_arg_bool("svd", "compute_uv", 3, a[2], &uv) || repl_no_out("svd", a[3]))
        return NULL;
    if (nn_linalg_svd(x, uv ? !some : false, uv, &o[0], &o[1], &o[2]) < 0) return NULL;
    nn_tensor *v = NULL;
    if (uv) {
        v = nn_transpose(o[2], -1, -2);
    } else if (x->ndim >= 2) {
        int64_t sz[NN_MAX_DIMS];
        memcpy(sz, x->sizes, sizeof(int64_t) * (size_t)x->ndim);
        sz[x->ndim - 1] = x->sizes[x->ndim - 2];
        NN_SET(o[0], nn_zeros_on(nn_device_of(x), x->ndim, sz, x->dtype));
        sz[x->ndim - 1] = sz[x->ndim - 2] = x->sizes[x->ndim - 1];
        v = o[0] ? nn_zeros_on(nn_device_of(x), x->ndim, sz, x->dtype) : NULL;
    }
    NN_SET(o[2], v);
    return repl_return_tensors(o[0] && o[2] ? 0 : -1, 3, o, REPL_RETURN_svd);
}

/* UPLO 'L' or 'U' (PyTorch's message otherwise) */
static int parse_uplo(const char *f, nn_object *o, bool *upper)
{
    const char *u = "L";
    if (o && repl_arg_str(f, "UPLO", 2, o, &u)) return -1;
    if (strcmp(u, "L") && strcmp(u, "U") && strcmp(u, "l") && strcmp(u, "u"))
        return nn_error_set(NN_ERR_RUNTIME, "Expected UPLO argument to be 'L' or 'U', but got %s", u);
    *upper = u[0] == 'U' || u[0] == 'u';
    return 0;
}

static nn_object *f_eigh(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL, *o[2] = {0};
    bool upper = false;
    if (repl_parse_args("linalg_eigh", "A, UPLO=, *, out=", args, kwargs, a) || repl_arg_tensor("linalg_eigh", "A", 1, a[0], &x) ||
        parse_uplo("linalg_eigh", a[1], &upper) || repl_no_out("linalg_eigh", a[2]))
        return NULL;
    return repl_return_tensors(nn_linalg_eigh(x, upper, true, &o[0], &o[1]), 2, o, REPL_RETURN_linalg_eigh);
}

static nn_object *f_eigvalsh(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL, *w = NULL, *v = NULL;
    bool upper = false;
    if (repl_parse_args("linalg_eigvalsh", "A, UPLO=, *, out=", args, kwargs, a) ||
        repl_arg_tensor("linalg_eigvalsh", "A", 1, a[0], &x) || parse_uplo("linalg_eigvalsh", a[1], &upper) ||
        repl_no_out("linalg_eigvalsh", a[2]))
        return NULL;
    if (nn_linalg_eigh(x, upper, false, &w, &v) < 0) return NULL;
    NN_RELEASE(v);
    return T(w);
}

/* torch.symeig(input, eigenvectors=False, upper=True), 1.13's deprecation warning once */
static nn_object *f_symeig(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_tensor *x = NULL, *o[2] = {0};
    bool vectors = false, upper = true;
    if (repl_parse_args("symeig", "input, eigenvectors=, upper=, *, out=", args, kwargs, a) ||
        repl_arg_tensor("symeig", "input", 1, a[0], &x) || repl_arg_bool("symeig", "eigenvectors", 2, a[1], &vectors) ||
        repl_arg_bool("symeig", "upper", 3, a[2], &upper) || repl_no_out("symeig", a[3]))
        return NULL;
    static bool warned;
    if (!warned && (warned = true) &&
        nn_warn("UserWarning", "torch.symeig is deprecated in favor of torch.linalg.eigh and will be removed in a future "
                               "PyTorch release.\nThe default behavior has changed from using the upper triangular portion "
                               "of the matrix by default to using the lower triangular portion.\nL, _ = torch.symeig(A, "
                               "upper=upper)\nshould be replaced with\nL = torch.linalg.eigvalsh(A, UPLO='U' if upper else "
                               "'L')\nand\nL, V = torch.symeig(A, eigenvectors=True)\nshould be replaced with\nL, V = "
                               "torch.linalg.eigh(A, UPLO='U' if upper else 'L') (Triggered internally at  "
                               "./aten/src/ATen/native/BatchLinearAlgebra.cpp:2794.)") < 0)
        return NULL;
    return repl_return_tensors(nn_linalg_eigh(x, upper, vectors, &o[0], &o[1]), 2, o, REPL_RETURN_symeig);
}

static nn_object *f_eig(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *x = NULL, *o[2] = {0};
    if (repl_parse_args("linalg_eig", "A, *, out=", args, kwargs, a) || repl_arg_tensor("linalg_eig", "A", 1, a[0], &x) ||
        repl_no_out("linalg_eig", a[1]))
        return NULL;
    return repl_return_tensors(nn_linalg_eig(x, true, &o[0], &o[1]), 2, o, REPL_RETURN_linalg_eig);
}

static nn_object *f_eigvals(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *x = NULL, *w = NULL, *v = NULL;
    if (repl_parse_args("linalg_eigvals", "A, *, out=", args, kwargs, a) ||
        repl_arg_tensor("linalg_eigvals", "A", 1, a[0], &x) || repl_no_out("linalg_eigvals", a[1]))
        return NULL;
    if (nn_linalg_eig(x, false, &w, &v) < 0) return NULL;
    return T(w);
}

/* an optional float argument: NaN when absent or None */
static int opt_double(const char *f, const char *name, int pos, nn_object *o, double *out)
{
    *out = NAN;
    return o && !nn_is_none(o) ? repl_arg_double(f, name, pos, o, out) : 0;
}

/* pinv and matrix_rank: f(A, legacy=None, hermitian=False, *, atol=None, rtol=None, out=None)
   with the legacy tolerance (pinv's rcond: rtol; matrix_rank's tol: atol) folded in */
static nn_object *tolerance_op(const char *f, const char *legacy, bool legacy_is_rtol, nn_object *args, nn_object *kwargs,
                               nn_tensor *(*op)(nn_tensor *, double, double, bool))
{
    ARGS(6);
    nn_tensor *x = NULL;
    bool herm = false;
    double old, atol, rtol;
    char spec[96];
    snprintf(spec, sizeof spec, "A, %s=, hermitian=, *, atol=, rtol=, out=", legacy);
    if (repl_parse_args(f, spec, args, kwargs, a) || repl_arg_tensor(f, "A", 1, a[0], &x) ||
        opt_double(f, legacy, 2, a[1], &old) || repl_arg_bool(f, "hermitian", 3, a[2], &herm) ||
        opt_double(f, "atol", 0, a[3], &atol) || opt_double(f, "rtol", 0, a[4], &rtol) || repl_no_out(f, a[5]))
        return NULL;
    if (!isnan(old)) atol = legacy_is_rtol ? 0 : old, rtol = legacy_is_rtol ? old : 0;
    return T(op(x, atol, rtol, herm));
}

static nn_object *f_pinv(void *ud, nn_object *args, nn_object *kwargs)
{
    return tolerance_op("linalg_pinv", "rcond", true, args, kwargs, nn_linalg_pinv);
}

static nn_object *f_matrix_rank(void *ud, nn_object *args, nn_object *kwargs)
{
    return tolerance_op("linalg_matrix_rank", "tol", false, args, kwargs, nn_linalg_matrix_rank);
}

/* torch.pinverse(input, rcond=1e-15) */
static nn_object *f_pinverse(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *x = NULL;
    double rcond = 1e-15;
    if (repl_parse_args("pinverse", "input, rcond=", args, kwargs, a) || repl_arg_tensor("pinverse", "input", 1, a[0], &x) ||
        (a[1] && repl_arg_double("pinverse", "rcond", 2, a[1], &rcond)))
        return NULL;
    return T(nn_linalg_pinv(x, 0, rcond, false));
}

static nn_object *f_lstsq(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_tensor *A = NULL, *B = NULL, *o[4] = {0};
    double rcond;
    const char *drv = "gelsy", *f = "linalg_lstsq";
    if (repl_parse_args(f, "A, B, rcond=, *, driver=", args, kwargs, a) || repl_arg_tensor(f, "A", 1, a[0], &A) ||
        repl_arg_tensor(f, "B", 2, a[1], &B) || opt_double(f, "rcond", 3, a[2], &rcond) ||
        (a[3] && !nn_is_none(a[3]) && repl_arg_str(f, "driver", 0, a[3], &drv)))
        return NULL;
    static const char *const drivers[] = {"gels", "gelsy", "gelsd", "gelss"};
    int d = 0;
    while (d < 4 && strcmp(drivers[d], drv)) d++;
    if (d == 4)
        return nn_error_set(NN_ERR_RUNTIME, "torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, "
                                            "gelss)"), NULL;
    return repl_return_tensors(nn_linalg_lstsq(A, B, rcond, d, o), 4, o, REPL_RETURN_linalg_lstsq);
}

static nn_object *matrix_power_impl(const char *f, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL;
    int64_t n = 0;
    if (repl_parse_args(f, "input, n, *, out=", args, kwargs, a) || repl_arg_tensor(f, "input", 1, a[0], &x) ||
        repl_arg_int(f, "n", 2, a[1], &n) || repl_no_out(f, a[2]))
        return NULL;
    return T(nn_linalg_matrix_power(x, n));
}

static nn_object *f_matrix_power(void *ud, nn_object *args, nn_object *kwargs)
{
    return matrix_power_impl("matrix_power", args, kwargs);
}
static nn_object *f_linalg_matrix_power(void *ud, nn_object *args, nn_object *kwargs)
{
    return matrix_power_impl("linalg_matrix_power", args, kwargs);
}

/* ------------------------------------------------------------------ LU */

/* f(A, *, pivot=True, out=None) */
static int lu_args(const char *f, nn_object *args, nn_object *kwargs, nn_tensor **x, bool *pivot)
{
    ARGS(3);
    *pivot = true;
    return repl_parse_args(f, "A, *, pivot=, out=", args, kwargs, a) || repl_arg_tensor(f, "A", 1, a[0], x) ||
                   (a[1] && repl_arg_bool(f, "pivot", 0, a[1], pivot)) || repl_no_out(f, a[2])
               ? -1
               : 0;
}

static nn_object *f_lu_factor(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_tensor *x = NULL, *o[2] = {0};
    bool pivot;
    if (lu_args("linalg_lu_factor", args, kwargs, &x, &pivot)) return NULL;
    return repl_return_tensors(nn_linalg_lu_factor(x, pivot, "torch.linalg.lu_factor", &o[0], &o[1]), 2, o, REPL_RETURN_linalg_lu_factor);
}

/* lu_factor_ex(A, *, pivot=True, check_errors=False, out=None): LU, pivots and LAPACK's info */
static nn_object *f_lu_factor_ex(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_tensor *x = NULL, *o[3] = {0};
    bool pivot = true, check = false;
    const char *f = "linalg_lu_factor_ex";
    if (repl_parse_args(f, "A, *, pivot=, check_errors=, out=", args, kwargs, a) || repl_arg_tensor(f, "A", 1, a[0], &x) ||
        (a[1] && repl_arg_bool(f, "pivot", 0, a[1], &pivot)) || (a[2] && repl_arg_bool(f, "check_errors", 0, a[2], &check)) ||
        repl_no_out(f, a[3]))
        return NULL;
    int rc = nn_linalg_lu_factor(x, pivot, check ? "torch.linalg.lu_factor_ex" : NULL, &o[0], &o[1]);
    if (rc == 0 && !(o[2] = nn_lu_info(o[0]))) rc = -1;
    return repl_return_tensors(rc, 3, o, REPL_RETURN_linalg_lu_factor_ex);
}

static nn_object *f_linalg_lu(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_tensor *x = NULL, *o[3] = {0};
    bool pivot;
    if (lu_args("linalg_lu", args, kwargs, &x, &pivot)) return NULL;
    return repl_return_tensors(nn_linalg_lu(x, pivot, &o[0], &o[1], &o[2]), 3, o, REPL_RETURN_linalg_lu);
}

/* torch.lu(A, pivot=True, get_infos=False): (LU, pivots), or with get_infos torch.return_types._lu_with_info
   (LU, pivots, info); 1.13's deprecation warning */
static nn_object *f_lu(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL, *o[3] = {0};
    bool pivot = true, infos = false;
    if (repl_parse_args("lu", "A, pivot=, get_infos=", args, kwargs, a) || repl_arg_tensor("lu", "A", 1, a[0], &x) ||
        (a[1] && repl_arg_bool("lu", "pivot", 2, a[1], &pivot)) || (a[2] && repl_arg_bool("lu", "get_infos", 3, a[2], &infos)))
        return NULL;
    static bool warned; /* TORCH_WARN_ONCE */
    if (!warned && (warned = true) &&
        nn_warn("UserWarning", "torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and "
                "will be removed in a future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\nshould be replaced "
                "with\nLU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\nLU, pivots, info = torch.lu(A, "
                "compute_pivots, get_infos=True)\nshould be replaced with\nLU, pivots, info = torch.linalg.lu_factor_ex(A, "
                "compute_pivots) (Triggered internally at  ./aten/src/ATen/native/BatchLinearAlgebra.cpp:1915.)") < 0)
        return NULL;
    if (nn_linalg_lu_factor(x, pivot, NULL, &o[0], &o[1]) < 0) return NULL;
    if (infos) { /* torch._lu_with_info's result */
        o[2] = nn_lu_info(o[0]);
        return repl_return_tensors(o[2] ? 0 : -1, 3, o, REPL_RETURN__lu_with_info);
    }
    nn_object *r = nn_tuple_pack(2, T(o[0]), T(o[1]));
    NN_RELEASE(o[0]);
    NN_RELEASE(o[1]);
    return r;
}

static nn_object *f_lu_unpack(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    nn_tensor *lu = NULL, *piv = NULL, *o[3] = {0};
    if (repl_parse_args("lu_unpack", "LU_data, LU_pivots, unpack_data=, unpack_pivots=, *, out=", args, kwargs, a) ||
        repl_arg_tensor("lu_unpack", "LU_data", 1, a[0], &lu) || repl_arg_tensor("lu_unpack", "LU_pivots", 2, a[1], &piv))
        return NULL;
    if (lu->ndim < 2 || lu->sizes[lu->ndim - 1] != lu->sizes[lu->ndim - 2] || piv->dtype != NN_INT32 ||
        piv->ndim != lu->ndim - 1 || piv->sizes[piv->ndim - 1] != lu->sizes[lu->ndim - 1])
        return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "lu_unpack: only a square LU with its int32 pivots is supported"), NULL;
    return repl_return_tensors(nn_lu_unpack(lu, piv, &o[0], &o[1], &o[2]), 3, o, REPL_RETURN_lu_unpack);
}

enum { MAXT = 32 };

/* the product of m[i..j] split as split[][] says (new reference) */
static nn_tensor *chain(nn_tensor **m, int split[][MAXT], int i, int j)
{
    if (i == j) return NN_RETAIN(m[i]), m[i];
    nn_tensor *l = chain(m, split, i, split[i][j]), *r = l ? chain(m, split, split[i][j] + 1, j) : NULL;
    nn_tensor *p = r ? nn_mm(l, r) : NULL;
    NN_RELEASE(l);
    NN_RELEASE(r);
    return p;
}

/* multi_dot(tensors): a 1-d first (last) tensor is a row (column); the product in
   the order of fewest multiplications (ATen's dynamic programme for more than 3) */
static nn_object *f_multi_dot(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_tensor *ts[MAXT];
    int n = 0;
    if (kwargs && nn_dict_len(kwargs)) return nn_error_set(NN_ERR_TYPE, "multi_dot() got an unexpected keyword argument"), NULL;
    if (nn_tuple_len(args) != 1 || repl_tensor_list("multi_dot", args, 0, ts, MAXT, &n)) {
        if (nn_error_current() == NN_OK) nn_error_set(NN_ERR_TYPE, "multi_dot(): argument 'tensors' must be a list of tensors");
        return NULL;
    }
    if (n < 2) return nn_error_set(NN_ERR_RUNTIME, "multi_dot(): expected at least 2 tensors but got %d", n), NULL;
    for (int i = 0; i < n; i++) {
        bool end = i == 0 || i == n - 1;
        if (ts[i]->ndim != 2 && !(end && ts[i]->ndim == 1)) {
            if (end)
                return nn_error_set(NN_ERR_RUNTIME, "multi_dot(): the %s tensor must be 1D or 2D but got %dD",
                                    i == 0 ? "first" : "last", ts[i]->ndim), NULL;
            return nn_error_set(NN_ERR_RUNTIME, "multi_dot(): tensor %d must be 2D but got %dD", i, ts[i]->ndim), NULL;
        }
    }
    nn_tensor *m[MAXT] = {0};
    bool ok = true, first1 = ts[0]->ndim == 1, last1 = ts[n - 1]->ndim == 1;
    for (int i = 0; i < n; i++) {
        m[i] = i == 0 && first1 ? nn_unsqueeze(ts[i], 0) : i == n - 1 && last1 ? nn_unsqueeze(ts[i], 1) : (NN_RETAIN(ts[i]), ts[i]);
        if (!m[i]) ok = false;
    }
    for (int i = 0; ok && i + 1 < n; i++)
        if (m[i]->sizes[1] != m[i + 1]->sizes[0])
            ok = false, nn_error_set(NN_ERR_RUNTIME, "multi_dot(): tensors %d and %d with shapes [%lld, %lld] and [%lld, %lld] "
                                                     "cannot be multiplied", i, i + 1, (long long)m[i]->sizes[0],
                                     (long long)m[i]->sizes[1], (long long)m[i + 1]->sizes[0], (long long)m[i + 1]->sizes[1]);
    /* p[i] x p[i+1] is matrix i; cost[i][j] the fewest multiplications for i..j, split[i][j] where */
    int64_t p[MAXT + 1], cost[MAXT][MAXT] = {{0}};
    int split[MAXT][MAXT] = {{0}};
    for (int i = 0; ok && i < n; i++) p[i] = m[i]->sizes[0], p[i + 1] = m[i]->sizes[1];
    for (int len = 1; ok && len < n; len++)
        for (int i = 0; i + len < n; i++) {
            int j = i + len;
            cost[i][j] = INT64_MAX;
            for (int k = i; k < j; k++) {
                int64_t c = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1];
                if (c < cost[i][j]) cost[i][j] = c, split[i][j] = k;
            }
        }
    nn_tensor *r = ok ? chain(m, split, 0, n - 1) : NULL;
    for (int i = 0; i < n; i++) NN_RELEASE(m[i]);
    if (r && (first1 || last1)) {
        nn_tensor *q = first1 && last1 ? nn_reshape(r, 0, NULL) : nn_squeeze_dim(r, first1 ? 0 : 1);
        NN_SET(r, q);
    }
    return T(r);
}

/* ord 2 / -2 / 'nuc' of the matrices over dims (d0, d1): the largest, smallest or
   summed singular values (ATen: svdvals of the dims moved last, amax/amin/sum) */
static nn_tensor *singular_norm(nn_tensor *x, double ord, const char *str, int d0, int d1, bool keepdim)
{
    int perm[NN_MAX_DIMS], k = 0;
    for (int d = 0; d < x->ndim; d++)
        if (d != d0 && d != d1) perm[k++] = d;
    perm[k++] = d0, perm[k++] = d1;
    nn_tensor *pm = nn_permute(x, x->ndim, perm), *u = NULL, *sv = NULL, *vh = NULL, *r = NULL;
    if (!pm || nn_linalg_svd(pm, false, false, &u, &sv, &vh) < 0) {
        NN_RELEASE(pm);
        return NULL;
    }
    int last = -1;
    r = str ? nn_sum(sv, 1, &last, false) : ord > 0 ? nn_amax(sv, 1, &last, false) : nn_amin(sv, 1, &last, false);
    NN_RELEASE(pm), NN_RELEASE(u), NN_RELEASE(sv), NN_RELEASE(vh);
    if (r && keepdim) {
        int lo = d0 < d1 ? d0 : d1, hi = d0 < d1 ? d1 : d0;
        NN_SET(r, nn_unsqueeze(r, lo));
        if (r) NN_SET(r, nn_unsqueeze(r, hi));
    }
    return r;
}

static nn_object *f_solve(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *A = NULL, *B = NULL;
    bool left = true;
    if (repl_parse_args("solve", "A, B, *, left=", args, kwargs, a) || repl_arg_tensor("solve", "A", 1, a[0], &A) ||
        repl_arg_tensor("solve", "B", 2, a[1], &B) || repl_arg_bool("solve", "left", 0, a[2], &left))
        return NULL;
    if (!left) return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "linalg.solve: left=False is not supported here"), NULL;
    return T(nn_linalg_solve(A, B));
}

static nn_object *cholesky_impl(const char *f, nn_object *args, nn_object *kwargs, bool legacy)
{
    ARGS(3);
    nn_tensor *x = NULL;
    bool upper = false;
    if (repl_parse_args(f, legacy ? "input, upper=, *, out=" : "input, *, upper=, out=", args, kwargs, a) ||
        repl_arg_tensor(f, "input", 1, a[0], &x) || repl_arg_bool(f, "upper", legacy ? 2 : 0, a[1], &upper) ||
        repl_no_out(f, a[2]))
        return NULL;
    return T(nn_linalg_cholesky(x, upper, legacy));
}

static nn_object *f_linalg_cholesky(void *ud, nn_object *args, nn_object *kwargs)
{
    return cholesky_impl("linalg_cholesky", args, kwargs, false);
}
static nn_object *f_cholesky(void *ud, nn_object *args, nn_object *kwargs) { return cholesky_impl("cholesky", args, kwargs, true); }

/* cholesky_ex(A, *, upper=False, check_errors=False, out=None): L and LAPACK's info */
static nn_object *f_cholesky_ex(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_tensor *x = NULL, *o[2] = {0};
    bool upper = false, check = false;
    const char *f = "linalg_cholesky_ex";
    if (repl_parse_args(f, "A, *, upper=, check_errors=, out=", args, kwargs, a) || repl_arg_tensor(f, "A", 1, a[0], &x) ||
        (a[1] && repl_arg_bool(f, "upper", 0, a[1], &upper)) || (a[2] && repl_arg_bool(f, "check_errors", 0, a[2], &check)) ||
        repl_no_out(f, a[3]))
        return NULL;
    int rc = nn_linalg_cholesky_ex(x, upper, check ? "linalg.cholesky_ex" : NULL, &o[0], &o[1]);
    return repl_return_tensors(rc, 2, o, REPL_RETURN_linalg_cholesky_ex);
}

/* ord as a number (inf, -inf allowed); fro/nuc strings through *str */
static int parse_ord(const char *f, nn_object *o, double *ord, const char **str)
{
    *str = NULL;
    if (!o || nn_is_none(o)) return 1; /* absent */
    if (nn_is_str(o)) {
        *str = nn_str_cstr(o);
        return 0;
    }
    return repl_arg_double(f, "ord", 2, o, ord) ? -1 : 0;
}

static nn_object *f_vector_norm(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    nn_tensor *x = NULL;
    double ord = 2;
    int n = 0, dims[NN_MAX_DIMS], dtype = -1;
    bool keepdim = false;
    const char *f = "linalg_vector_norm";
    if (repl_parse_args(f, "x, ord=, dim=, keepdim=, *, dtype=", args, kwargs, a) || repl_arg_tensor(f, "x", 1, a[0], &x) ||
        (a[1] && repl_arg_double(f, "ord", 2, a[1], &ord)) || repl_arg_dims(f, "dim", 3, a[2], &n, dims) ||
        repl_arg_bool(f, "keepdim", 4, a[3], &keepdim) || repl_arg_dtype(f, "dtype", 0, a[4], &dtype))
        return NULL;
    nn_tensor *c = dtype >= 0 ? nn_to_dtype(x, (nn_dtype)dtype) : (NN_RETAIN(x), x);
    nn_tensor *r = c ? nn_linalg_vector_norm(c, ord, n, dims, keepdim) : NULL;
    NN_RELEASE(c);
    return T(r);
}

/* 'fro': vector_norm over the two dims; 1, -1, inf, -inf: amax/amin of the abs sums */
static nn_tensor *matrix_norm(const char *f, nn_tensor *x, double ord, const char *str, const int *dims, bool keepdim)
{
    if (x->ndim < 2) {
        nn_error_set(NN_ERR_RUNTIME, "%s: The input tensor A must have at least 2 dimensions.", f);
        return NULL;
    }
    int d0 = dims[0] < 0 ? dims[0] + x->ndim : dims[0], d1 = dims[1] < 0 ? dims[1] + x->ndim : dims[1];
    if (d0 < 0 || d0 >= x->ndim || d1 < 0 || d1 >= x->ndim) {
        nn_error_set(NN_ERR_INDEX, "Dimension out of range (expected to be in range of [%d, %d], but got %d)", -x->ndim,
                     x->ndim - 1, d0 < 0 || d0 >= x->ndim ? dims[0] : dims[1]);
        return NULL;
    }
    if (str && !strcmp(str, "fro")) return nn_linalg_vector_norm(x, 2, 2, (const int[]){d0, d1}, keepdim);
    if ((str && !strcmp(str, "nuc")) || (!str && fabs(ord) == 2)) return singular_norm(x, ord, str, d0, d1, keepdim);
    if (str) {
        nn_error_set(NN_ERR_RUNTIME, "%s: Order %s not supported.", f, str);
        return NULL;
    }
    if (fabs(ord) != 1 && !isinf(ord)) {
        nn_error_set(NN_ERR_RUNTIME, "%s: Order %g not supported.", f, ord);
        return NULL;
    }
    if (isinf(ord)) {
        int t = d0;
        d0 = d1, d1 = t;
    }
    if (!keepdim && d0 < d1) d1--;
    nn_tensor *ab = nn_abs(x), *s = ab ? nn_sum(ab, 1, &d0, keepdim) : NULL;
    nn_tensor *r = !s ? NULL : ord > 0 ? nn_amax(s, 1, &d1, keepdim) : nn_amin(s, 1, &d1, keepdim);
    NN_RELEASE(ab);
    NN_RELEASE(s);
    return r;
}

nn_tensor *repl_matrix_norm_str(nn_tensor *x, const char *ord, int n, const int *dims, bool keepdim)
{
    int all[NN_MAX_DIMS];
    if (n == 0) { /* torch.norm without dim: every dim */
        for (n = 0; n < x->ndim; n++) all[n] = n;
        dims = all;
    }
    if (n != 2) {
        nn_error_set(NN_ERR_RUNTIME, "linalg.matrix_norm: dim must be a 2-tuple. Got %d dims", n);
        return NULL;
    }
    return matrix_norm("linalg.matrix_norm", x, 0, ord, dims, keepdim);
}

static nn_object *f_matrix_norm(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    nn_tensor *x = NULL;
    double ord = 0;
    const char *str = "fro";
    int n = 2, dims[NN_MAX_DIMS] = {-2, -1};
    bool keepdim = false;
    const char *f = "linalg.matrix_norm";
    if (repl_parse_args("linalg_matrix_norm", "A, ord=, dim=, keepdim=, *, dtype=", args, kwargs, a) ||
        repl_arg_tensor(f, "A", 1, a[0], &x) || repl_arg_bool(f, "keepdim", 4, a[3], &keepdim))
        return NULL;
    int pr = parse_ord(f, a[1], &ord, &str);
    if (pr < 0 || (pr == 1 && !(str = "fro"))) return NULL;
    if (a[2] && repl_arg_dims(f, "dim", 3, a[2], &n, dims)) return NULL;
    if (n != 2) return nn_error_set(NN_ERR_RUNTIME, "linalg.matrix_norm: dim must be a 2-tuple. Got %d dims", n), NULL;
    return T(matrix_norm(f, x, ord, str, dims, keepdim));
}

/* linalg.norm: no ord: the 2-norm of the flattened input (or over dim); with
   ord, a matrix norm for 2-d input or 2 dims, else a vector norm */
static nn_object *f_norm(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    nn_tensor *x = NULL;
    double ord = 2;
    const char *str = NULL;
    int n = 0, dims[NN_MAX_DIMS];
    bool keepdim = false;
    const char *f = "linalg.norm";
    if (repl_parse_args("linalg_norm", "A, ord=, dim=, keepdim=, *, dtype=", args, kwargs, a) ||
        repl_arg_tensor(f, "A", 1, a[0], &x) || repl_arg_dims(f, "dim", 3, a[2], &n, dims) ||
        repl_arg_bool(f, "keepdim", 4, a[3], &keepdim))
        return NULL;
    int pr = parse_ord(f, a[1], &ord, &str);
    if (pr < 0) return NULL;
    bool has_ord = pr == 0;
    if (has_ord && (n == 2 || (n == 0 && x->ndim == 2))) {
        if (n == 0) dims[0] = -2, dims[1] = -1;
        return T(matrix_norm(f, x, ord, str, dims, keepdim));
    }
    if (str) return nn_error_set(NN_ERR_RUNTIME, "linalg.norm: ord='%s' needs a matrix input", str), NULL;
    if (has_ord && n == 0 && x->ndim != 1)
        return nn_error_set(NN_ERR_RUNTIME, "linalg.norm: If dim is not specified but ord is, the input must be 1D or "
                                            "2D. Got %dD.", x->ndim), NULL;
    return T(nn_linalg_vector_norm(x, ord, n, dims, keepdim));
}

static const repl_function_def linalg_functions[] = {
    {"det", f_det, "det(A, *, out=None) -> Tensor\nComputes the determinant of a square matrix (LU through LAPACK)."},
    {"slogdet", f_linalg_slogdet,
     "slogdet(A, *, out=None) -> (Tensor, Tensor)\n"
     "Computes the sign and natural logarithm of the absolute value of the determinant of a square matrix."},
    {"inv", f_inv, "inv(A, *, out=None) -> Tensor\nComputes the inverse of a square matrix if it exists."},
    {"solve", f_solve,
     "solve(A, B, *, left=True, out=None) -> Tensor\n"
     "Computes the solution of a square system of linear equations with a unique solution."},
    {"cholesky", f_linalg_cholesky,
     "cholesky(A, *, upper=False, out=None) -> Tensor\n"
     "Computes the Cholesky decomposition of a symmetric positive-definite matrix (lower L with A = L L^T; upper: L^T)."},
    {"vector_norm", f_vector_norm,
     "vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None) -> Tensor\n"
     "Computes a vector norm (over all elements when dim is None)."},
    {"matrix_norm", f_matrix_norm,
     "matrix_norm(A, ord='fro', dim=(-2, -1), keepdim=False, *, dtype=None, out=None) -> Tensor\n"
     "Computes a matrix norm ('fro', 'nuc', 2, -2, 1, -1, inf, -inf)."},
    {"qr", f_linalg_qr,
     "qr(A, mode='reduced', *, out=None) -> (Tensor, Tensor)\n"
     "Computes the QR decomposition of a matrix (modes 'reduced', 'complete', 'r'; LAPACK's geqrf/orgqr)."},
    {"svd", f_linalg_svd,
     "svd(A, full_matrices=True, *, driver=None, out=None) -> (Tensor, Tensor, Tensor)\n"
     "Computes the singular value decomposition A = U diag(S) Vh (LAPACK's gesdd)."},
    {"svdvals", f_svdvals, "svdvals(A, *, out=None) -> Tensor\nComputes the singular values of a matrix, descending."},
    {"eigh", f_eigh,
     "eigh(A, UPLO='L', *, out=None) -> (Tensor, Tensor)\n"
     "Computes the eigenvalue decomposition of a symmetric matrix (eigenvalues ascending; LAPACK's syevd)."},
    {"eigvalsh", f_eigvalsh, "eigvalsh(A, UPLO='L', *, out=None) -> Tensor\nComputes the eigenvalues of a symmetric matrix."},
    {"eig", f_eig,
     "eig(A, *, out=None) -> (Tensor, Tensor)\n"
     "Computes the eigenvalues and right eigenvectors of a real square matrix, complex (LAPACK's geev)."},
    {"eigvals", f_eigvals, "eigvals(A, *, out=None) -> Tensor\nComputes the complex eigenvalues of a real square matrix."},
    {"pinv", f_pinv,
     "pinv(A, *, atol=None, rtol=None, hermitian=False, out=None) -> Tensor\n"
     "Computes the pseudoinverse (Moore-Penrose inverse) of a matrix (through the SVD, or eigh when hermitian)."},
    {"matrix_rank", f_matrix_rank,
     "matrix_rank(A, *, atol=None, rtol=None, hermitian=False, out=None) -> Tensor\n"
     "Computes the numerical rank of a matrix (singular values above max(atol, rtol * largest))."},
    {"lstsq", f_lstsq,
     "lstsq(A, B, rcond=None, *, driver=None) -> (Tensor, Tensor, Tensor, Tensor)\n"
     "Computes a solution to the least squares problem of a system of linear equations (drivers gels, gelsy, gelsd, gelss)."},
    {"matrix_power", f_linalg_matrix_power, "matrix_power(A, n, *, out=None) -> Tensor\nComputes the n-th power of a square matrix."},
    {"multi_dot", f_multi_dot,
     "multi_dot(tensors, *, out=None) -> Tensor\n"
     "Efficiently multiplies two or more matrices by reordering the multiplications so that the fewest arithmetic operations are performed."},
    {"norm", f_norm,
     "norm(A, ord=None, dim=None, keepdim=False, *, out=None, dtype=None) -> Tensor\n"
     "Computes a vector or matrix norm."},
    {"cholesky_ex", f_cholesky_ex,
     "cholesky_ex(A, *, upper=False, check_errors=False, out=None) -> (Tensor, Tensor)\n"
     "Computes the Cholesky decomposition of a complex Hermitian or real symmetric positive-definite matrix; "
     "does not perform error checks unless check_errors=True and returns LAPACK's info."},
    {"lu_factor_ex", f_lu_factor_ex,
     "lu_factor_ex(A, *, pivot=True, check_errors=False, out=None) -> (Tensor, Tensor, Tensor)\n"
     "A version of lu_factor() that does not perform error checks unless check_errors=True; also returns the info "
     "tensor returned by LAPACK's getrf."},
    {"lu_factor", f_lu_factor,
     "lu_factor(A, *, pivot=True, out=None) -> (Tensor, Tensor)\n"
     "Computes a compact representation of the LU factorization with partial pivoting of a square matrix."},
    {"lu", f_linalg_lu,
     "lu(A, *, pivot=True, out=None) -> (Tensor, Tensor, Tensor)\n"
     "Computes the LU decomposition with partial pivoting of a square matrix: A = P L U."},
};

/* torch.det, torch.logdet, torch.slogdet, torch.inverse (and as methods) */
static const repl_function_def torch_functions[] = {
    {"det", f_det, "det(input) -> Tensor\nAlias for torch.linalg.det()."},
    {"logdet", f_logdet,
     "logdet(input) -> Tensor\n"
     "Calculates log determinant of a square matrix or batches of square matrices (nan for a negative determinant)."},
    {"slogdet", f_slogdet, "slogdet(input) -> (Tensor, Tensor)\nAlias for torch.linalg.slogdet()."},
    {"cholesky", f_cholesky,
     "cholesky(input, upper=False, *, out=None) -> Tensor\n"
     "Deprecated in favor of torch.linalg.cholesky(): the Cholesky decomposition of a symmetric positive-definite matrix."},
    {"inverse", f_inverse, "inverse(input, *, out=None) -> Tensor\nAlias for torch.linalg.inv()."},
    {"qr", f_qr, "qr(input, some=True, *, out=None) -> (Tensor, Tensor)\nComputes the QR decomposition (see torch.linalg.qr)."},
    {"svd", f_svd,
     "svd(input, some=True, compute_uv=True, *, out=None) -> (Tensor, Tensor, Tensor)\n"
     "Computes the singular value decomposition input = U diag(S) V^T (see torch.linalg.svd)."},
    {"symeig", f_symeig,
     "symeig(input, eigenvectors=False, upper=True, *, out=None) -> (Tensor, Tensor)\n"
     "Deprecated in favor of torch.linalg.eigh(): eigenvalues (and eigenvectors) of a symmetric matrix."},
    {"pinverse", f_pinverse, "pinverse(input, rcond=1e-15) -> Tensor\nAlias for torch.linalg.pinv()."},
    {"matrix_power", f_matrix_power, "matrix_power(input, n) -> Tensor\nAlias for torch.linalg.matrix_power()."},
    {"lu", f_lu,
     "lu(A, pivot=True, get_infos=False) -> (Tensor, Tensor)\n"
     "Deprecated in favor of torch.linalg.lu_factor(): the packed LU factorization and its pivots."},
    {"lu_unpack", f_lu_unpack,
     "lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True, *, out=None) -> (Tensor, Tensor, Tensor)\n"
     "Unpacks the LU decomposition returned by torch.linalg.lu_factor() into the P, L, U matrices."},
};

int repl_linalg_add_functions(nn_object *linalg)
{
    if (repl_current && repl_current->exc_classes[EXC__LinAlgError] &&
        repl_namespace_set(linalg, "LinAlgError", &repl_current->exc_classes[EXC__LinAlgError]->ob) < 0)
        return -1;
    return repl_namespace_add_fns(linalg, linalg_functions, sizeof linalg_functions / sizeof *linalg_functions);
}

int repl_linalg_add_torch_functions(nn_object *torch)
{
    return repl_namespace_add_fns(torch, torch_functions, sizeof torch_functions / sizeof *torch_functions);
}

nn_object *repl_linalg_method(nn_tensor *t, const char *name)
{
    for (size_t i = 0; i < sizeof torch_functions / sizeof *torch_functions; i++)
        if (!strcmp(torch_functions[i].name, name)) return repl_bound_function(&torch_functions[i], &t->ob);
    return NULL;
}
