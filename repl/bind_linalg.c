/*
 * bind_linalg.c — torch.linalg (det, slogdet, inv, solve, vector_norm,
 * matrix_norm, norm; cross is bind_ops_extra.c's) and torch.det, logdet,
 * slogdet, inverse as functions and tensor methods (core/linalg.c, over
 * OpenBLAS's LAPACK).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bind_int.h"
#include "nn_linalg.h"
#include "nn_select_more.h"

#define ARGS(n) nn_object *a[n] = {0}
static nn_object *T(nn_tensor *t) { return (nn_object *)t; }

static char *slogdet_repr(nn_object *self) { return repl_named_pair_repr(self, "sign", "logabsdet"); }
static nn_type slogdet_type = {.name = "slogdet", .repr = slogdet_repr, .base = &nn_tuple_type};
static nn_type linalg_slogdet_type = {.name = "linalg_slogdet", .repr = slogdet_repr, .base = &nn_tuple_type};

nn_object *repl_linalg_return_getattr(nn_object *o, const char *name, bool *handled)
{
    if (o->type != &slogdet_type && o->type != &linalg_slogdet_type) return NULL;
    *handled = true;
    if (!strcmp(name, "sign")) return nn_retain(nn_tuple_get(o, 0));
    if (!strcmp(name, "logabsdet")) return nn_retain(nn_tuple_get(o, 1));
    nn_error_set(NN_ERR_ATTRIBUTE, "'torch.return_types.%s' object has no attribute '%s'", o->type->name, name);
    return NULL;
}

static nn_object *one_matrix(const char *f, nn_object *args, nn_object *kwargs, nn_tensor *(*op)(nn_tensor *))
{
    ARGS(1);
    nn_tensor *x = NULL;
    if (repl_parse_args(f, "input", args, kwargs, a) || repl_arg_tensor(f, "input", 1, a[0], &x)) return NULL;
    return T(op(x));
}

static nn_object *f_det(void *ud, nn_object *args, nn_object *kwargs) { return one_matrix("det", args, kwargs, nn_linalg_det); }
static nn_object *f_inv(void *ud, nn_object *args, nn_object *kwargs) { return one_matrix("inv", args, kwargs, nn_linalg_inv); }
static nn_object *f_inverse(void *ud, nn_object *args, nn_object *kwargs)
{
    return one_matrix("inverse", args, kwargs, nn_linalg_inv);
}
static nn_object *f_logdet(void *ud, nn_object *args, nn_object *kwargs) { return one_matrix("logdet", args, kwargs, nn_logdet); }

static nn_object *slogdet_impl(nn_object *args, nn_object *kwargs, nn_type *type)
{
    ARGS(1);
    nn_tensor *x = NULL, *s = NULL, *l = NULL;
    if (repl_parse_args("slogdet", "input", args, kwargs, a) || repl_arg_tensor("slogdet", "input", 1, a[0], &x)) return NULL;
    int rc = nn_linalg_slogdet(x, &s, &l);
    return repl_return_pair(rc, s, l, type);
}

static nn_object *f_slogdet(void *ud, nn_object *args, nn_object *kwargs) { return slogdet_impl(args, kwargs, &slogdet_type); }
static nn_object *f_linalg_slogdet(void *ud, nn_object *args, nn_object *kwargs)
{
    return slogdet_impl(args, kwargs, &linalg_slogdet_type);
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
    if (str || fabs(ord) == 2) {
        nn_error_set(NN_ERR_NOT_IMPLEMENTED, "%s: ord=%s needs singular values, not supported here", f,
                     str ? str : ord > 0 ? "2" : "-2");
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
     "Computes a matrix norm ('fro', 1, -1, inf, -inf here)."},
    {"norm", f_norm,
     "norm(A, ord=None, dim=None, keepdim=False, *, out=None, dtype=None) -> Tensor\n"
     "Computes a vector or matrix norm."},
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
};

int repl_linalg_add_functions(nn_object *linalg)
{
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
