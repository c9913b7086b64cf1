/*
 * bind_tensor.c — tensors in the language: attributes and methods (x.shape,
 * x.sum(dim=1), x.backward(), ...), the tensor functions of torch that share
 * their code with the methods (torch.sum(x, 1) is x.sum(1)), operators with
 * Python numbers as wrapped numbers, indexing, len, iteration and truth.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bind_int.h"
#include "bigint.h"
#include "nn_custom_fn.h"
#include "nn_ops_extra.h"
#include "nn_select.h"

#define ARGS(n) nn_object *a[n] = {0} /* slots the spec lacks stay NULL */

static nn_object *T(nn_tensor *t) { return (nn_object *)t; }

static nn_object *pair(nn_tensor *v, nn_tensor *i, bool is_max)
{
    return repl_return_pair(0, v, i, is_max ? REPL_RETURN_max : REPL_RETURN_min);
}

/* dim within [-ndim, ndim) (a 0-dim tensor counts as 1-dim, as PyTorch's wrap_dim):
   the index from the front into *out, or -1 with PyTorch's IndexError. */
static int check_dim(int64_t dim, int ndim, int *out)
{
    int nd = ndim ? ndim : 1;
    if (dim < -nd || dim >= nd)
        return nn_error_set(NN_ERR_INDEX, "Dimension out of range (expected to be in range of [%d, %d], but got %lld)",
                            -nd, nd - 1, (long long)dim);
    *out = (int)(dim < 0 ? dim + nd : dim);
    return 0;
}

/* -------------------------------------------------- elementwise unary */

#define UNARY(fname, call)                                                                                             \
    static nn_object *f_##fname(void *ud, nn_object *args, nn_object *kwargs)                                          \
    {                                                                                                                  \
        ARGS(1);                                                                                                       \
        nn_tensor *x = NULL;                                                                                           \
        if (repl_parse_args(#fname, "input", args, kwargs, a) || repl_arg_tensor(#fname, "input", 1, a[0], &x))        \
            return NULL;                                                                                               \
        return T(call(x));                                                                                             \
    }
UNARY(exp, nn_exp)
UNARY(log, nn_log)
UNARY(sqrt, nn_sqrt)
UNARY(abs, nn_abs)
UNARY(tanh, nn_tanh)
UNARY(sigmoid, nn_sigmoid)
UNARY(relu, nn_relu)
UNARY(neg, nn_neg)
UNARY(floor, nn_floor)
UNARY(ceil, nn_ceil)
UNARY(round, nn_round)
UNARY(sign, nn_sign)
UNARY(t, nn_t)
UNARY(detach, nn_detach)
/* clone and contiguous take memory_format= (torch.contiguous_format ...): nnscope's
   results are laid out in row-major order, which every format accepts */
#define UNARY_MF(fname, call)                                                                                             \
    static nn_object *f_##fname(void *ud, nn_object *args, nn_object *kwargs)                                          \
    {                                                                                                                  \
        ARGS(2);                                                                                                       \
        nn_tensor *x = NULL;                                                                                           \
        if (repl_parse_args(#fname, "input, memory_format=", args, kwargs, a) ||                                    \
            repl_arg_tensor(#fname, "input", 1, a[0], &x))                                                             \
            return NULL;                                                                                               \
        return T(call(x));                                                                                             \
    }
UNARY_MF(clone, nn_clone)
UNARY_MF(contiguous, nn_contiguous)

static nn_tensor *square(nn_tensor *x) { return nn_pow_scalar(x, 2); } /* PowBackward0, as PyTorch's square */
UNARY(square, square)

/* isnan / isinf / isfinite: a bool tensor of each element's class (no autograd). */
static int is_nan(double v) { return isnan(v); }
static int is_inf(double v) { return isinf(v); }
static int is_finite(double v) { return isfinite(v); }

static nn_tensor *classify(nn_tensor *x, int (*is)(double))
{
    if (nn_dtype_is_complex(x->dtype)) { /* nan or inf: either part; finite: both */
        nn_tensor *re = nn_real(x), *im = re ? nn_imag(x) : NULL;
        nn_tensor *a = im ? classify(re, is) : NULL, *b = a ? classify(im, is) : NULL;
        nn_tensor *r = b ? (is == is_finite ? nn_bitwise_and : nn_bitwise_or)(a, b) : NULL;
        NN_RELEASE(re);
        NN_RELEASE(im);
        NN_RELEASE(a);
        NN_RELEASE(b);
        return r;
    }
    int64_t n = nn_numel(x);
    double *v = nn_malloc((size_t)(n ? n : 1) * sizeof *v);
    bool *flags = v ? nn_malloc((size_t)(n ? n : 1)) : NULL;
    nn_tensor *r = NULL;
    if (flags) {
        nn_to_doubles(x, v);
        for (int64_t i = 0; i < n; i++) flags[i] = is(v[i]) != 0;
        r = nn_from_data(flags, x->ndim, x->sizes, NN_BOOL);
    }
    nn_free(v);
    nn_free(flags);
    return r;
}
static nn_tensor *isnan_of(nn_tensor *x) { return classify(x, is_nan); }
static nn_tensor *isinf_of(nn_tensor *x) { return classify(x, is_inf); }
static nn_tensor *isfinite_of(nn_tensor *x) { return classify(x, is_finite); }
UNARY(isnan, isnan_of)
UNARY(isinf, isinf_of)
UNARY(isfinite, isfinite_of)

/* -------------------------------------------------- elementwise binary */

static nn_object *binary_fn(const char *fname, nn_object *args, nn_object *kwargs, int which)
{
    if (which == 3 && repl_div_has_mode(kwargs)) return repl_div_mode(NULL, args, kwargs);
    ARGS(3);
    nn_tensor *x = NULL;
    double alpha = 1;
    const char *spec = which <= 1 ? "input, other, *, alpha=" : "input, other";
    if (repl_parse_args(fname, spec, args, kwargs, a) || (which <= 1 && repl_arg_double(fname, "alpha", 0, a[2], &alpha)))
        return NULL;
    /* PyTorch takes a number as the input of these (torch.add(1, t), torch.pow(2, t)); add, sub, mul,
       div and floor_divide with a number as the other too (its allow_numbers_as_tensors: torch.add(1, 2)) */
    bool number = nn_is_bool(a[0]) || nn_is_int(a[0]) || nn_is_float(a[0]) || nn_is_complex(a[0]);
    bool number_input = !nn_is_tensor(a[0]) && (((which <= 4 || which == 10 || which == 11) && nn_is_tensor(a[1])) ||
                                                (number && (which <= 3 || which == 10)));
    if (number_input ? !(x = repl_as_tensor(a[0])) : repl_arg_tensor(fname, "input", 1, a[0], &x)) return NULL;
    if (!number_input) NN_RETAIN(x);
    nn_tensor *y = repl_as_tensor(a[1]);
    if (!y) {
        if (nn_error_current() == NN_OK)
            nn_error_set(NN_ERR_TYPE, "%s(): argument 'other' (position 2) must be Tensor, not %s", fname,
                         repl_type_name(a[1]));
        NN_RELEASE(x);
        return NULL;
    }
    nn_tensor *r = NULL;
    switch (which) {
    case 0: r = alpha == 1 ? nn_add(x, y) : nn_add_scaled(x, y, alpha); break;
    case 1: r = alpha == 1 ? nn_sub(x, y) : nn_add_scaled(x, y, -alpha); break;
    case 2: r = nn_mul(x, y); break;
    case 3: r = nn_div(x, y); break;
    case 4:
        if (number_input && !nn_is_complex(a[0])) r = nn_rpow_scalar(nn_float_value(a[0]), !nn_is_float(a[0]), y);
        else r = nn_is_tensor(a[1]) || nn_is_complex(a[1]) ? nn_pow(x, y) : nn_pow_scalar(x, nn_float_value(a[1]));
        break;
    case 5: r = nn_maximum(x, y); break;
    case 6: r = nn_minimum(x, y); break;
    case 7: r = nn_matmul(x, y); break;
    case 8: r = nn_mm(x, y); break;
    case 9: r = nn_bmm(x, y); break;
    case 10: r = nn_floor_divide(x, y); break;
    case 11: r = nn_remainder(x, y); break;
    case 12: r = nn_dot(x, y); break;
    case 13: r = nn_mv(x, y); break;
    case 14: r = nn_compare(x, y, NN_EQ); break;
    case 15: r = nn_compare(x, y, NN_NE); break;
    case 16: r = nn_compare(x, y, NN_LT); break;
    case 17: r = nn_compare(x, y, NN_LE); break;
    case 18: r = nn_compare(x, y, NN_GT); break;
    case 19: r = nn_compare(x, y, NN_GE); break;
    }
    NN_RELEASE(x);
    NN_RELEASE(y);
    return T(r);
}

#define BINARY(fname, which)                                                                                           \
    static nn_object *f_##fname(void *ud, nn_object *args, nn_object *kwargs)                                          \
    {                                                                                                                  \
        return binary_fn(#fname, args, kwargs, which);                                                                 \
    }
BINARY(add, 0)
BINARY(sub, 1)
BINARY(mul, 2)
BINARY(div, 3)
BINARY(pow, 4)
BINARY(maximum, 5)
BINARY(minimum, 6)
BINARY(matmul, 7)
BINARY(mm, 8)
BINARY(bmm, 9)
BINARY(floor_divide, 10)
BINARY(remainder, 11)
BINARY(dot, 12)
BINARY(mv, 13)
BINARY(eq, 14)
BINARY(ne, 15)
BINARY(lt, 16)
BINARY(le, 17)
BINARY(gt, 18)
BINARY(ge, 19)

static nn_object *f_where(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *c = NULL;
    if (repl_parse_args("where", "condition, input=, other=", args, kwargs, a) ||
        repl_arg_tensor("where", "condition", 1, a[0], &c))
        return NULL;
    if (!a[1] && !a[2]) return repl_nonzero_tuple(c); /* torch.where(condition): nonzero(as_tuple=True) */
    if (!a[1] || !a[2])
        return nn_error_set(NN_ERR_TYPE, "where() received an invalid combination of arguments - got (Tensor, "
                                         "Tensor), but expected one of:\n * (Tensor condition)\n * (Tensor "
                                         "condition, Tensor input, Tensor other, *, Tensor out)\n * (Tensor "
                                         "condition, Number self, Tensor other)\n * (Tensor condition, Tensor "
                                         "input, Number other)\n * (Tensor condition, Number self, Number other)\n"),
               NULL;
    nn_tensor *x = repl_as_tensor(a[1]), *y = x ? repl_as_tensor(a[2]) : NULL;
    nn_tensor *r = NULL;
    if (x && y) r = nn_where(c, x, y);
    else if (nn_error_current() == NN_OK)
        nn_error_set(NN_ERR_TYPE, "where(): argument 'input' must be Tensor");
    NN_RELEASE(x);
    NN_RELEASE(y);
    return T(r);
}

static nn_object *f_clamp(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL;
    double lo = 0, hi = 0;
    if (repl_parse_args("clamp", "input, min=, max=", args, kwargs, a) ||
        repl_arg_tensor("clamp", "input", 1, a[0], &x))
        return NULL;
    if ((a[1] && nn_is_tensor(a[1])) || (a[2] && nn_is_tensor(a[2])))
        return repl_clamp_tensor_bounds(x, a[1], a[2], args, kwargs);
    bool has_lo = a[1] && !nn_is_none(a[1]), has_hi = a[2] && !nn_is_none(a[2]);
    if ((has_lo && repl_arg_double("clamp", "min", 2, a[1], &lo)) ||
        (has_hi && repl_arg_double("clamp", "max", 3, a[2], &hi)))
        return NULL;
    if (!has_lo && !has_hi) {
        nn_error_set(NN_ERR_RUNTIME, "torch.clamp: At least one of 'min' or 'max' must not be None");
        return NULL;
    }
    return T(nn_clamp(x, lo, has_lo, hi, has_hi));
}

/* -------------------------------------------------------- reductions */

static nn_object *reduce_fn(const char *fname, nn_object *args, nn_object *kwargs, int which)
{
    ARGS(5);
    nn_tensor *x = NULL;
    int n = 0, dims[NN_MAX_DIMS];
    bool keepdim = false, unbiased = true;
    int dtype = -1;
    const char *spec = which >= 2 ? "input, dim=, unbiased=, keepdim=" : "input, dim=, keepdim=, *, dtype=";
    int64_t one_dim;
    if (repl_parse_args(fname, spec, args, kwargs, a) || repl_arg_tensor(fname, "input", 1, a[0], &x) ||
        (a[1] && nn_is_int(a[1]) && repl_arg_dim(fname, "dim", 2, a[1], x->ndim, &one_dim)) ||
        repl_arg_dims(fname, "dim", 2, a[1], &n, dims))
        return NULL;
    if (which >= 2) {
        /* var(x, dim, unbiased, keepdim), var(x, unbiased) */
        if (a[1] && nn_is_bool(a[1]) && !a[2]) {
            n = 0;
            a[2] = a[1];
        }
        if (repl_arg_bool(fname, "unbiased", 3, a[2], &unbiased) || repl_arg_bool(fname, "keepdim", 4, a[3], &keepdim))
            return NULL;
    } else if (repl_arg_bool(fname, "keepdim", 3, a[2], &keepdim) || repl_arg_dtype(fname, "dtype", 0, a[3], &dtype)) {
        return NULL;
    }
    if (which >= 4) { /* var_mean, std_mean: the tuple (var or std, mean) */
        nn_tensor *v, *m;
        if (nn_var_mean(x, n, dims, unbiased, keepdim, which == 5, &v, &m) < 0) return NULL;
        nn_object *t = nn_tuple_pack(2, &v->ob, &m->ob);
        NN_RELEASE(v);
        NN_RELEASE(m);
        return t;
    }
    nn_tensor *in = x;
    if (dtype >= 0 && !(in = nn_to_dtype(x, (nn_dtype)dtype))) return NULL;
    nn_tensor *r = NULL;
    switch (which) {
    case 0: r = nn_sum(in, n, dims, keepdim); break;
    case 1: r = nn_mean(in, n, dims, keepdim); break;
    case 2: r = nn_var(in, n, dims, unbiased, keepdim); break;
    case 3: r = nn_std(in, n, dims, unbiased, keepdim); break;
    }
    if (dtype >= 0) NN_RELEASE(in); /* nn_to_dtype's new reference, x itself retained when already that dtype */
    if (r && which == 0 && dtype >= 0 && r->dtype != (nn_dtype)dtype) {
        /* sum(dtype=torch.uint8): an integer sum in that type (wrapping), where core's sum gives int64 */
        nn_tensor *cast = nn_to_dtype(r, (nn_dtype)dtype);
        NN_RELEASE(r);
        r = cast;
    }
    return T(r);
}

static nn_object *f_sum(void *ud, nn_object *args, nn_object *kwargs) { return reduce_fn("sum", args, kwargs, 0); }
static nn_object *f_mean(void *ud, nn_object *args, nn_object *kwargs) { return reduce_fn("mean", args, kwargs, 1); }
static nn_object *f_var(void *ud, nn_object *args, nn_object *kwargs) { return reduce_fn("var", args, kwargs, 2); }
static nn_object *f_std(void *ud, nn_object *args, nn_object *kwargs) { return reduce_fn("std", args, kwargs, 3); }
static nn_object *f_var_mean(void *ud, nn_object *args, nn_object *kwargs) { return reduce_fn("var_mean", args, kwargs, 4); }
static nn_object *f_std_mean(void *ud, nn_object *args, nn_object *kwargs) { return reduce_fn("std_mean", args, kwargs, 5); }

static nn_object *maxmin_fn(const char *fname, nn_object *args, nn_object *kwargs, bool is_max)
{
    ARGS(3);
    nn_tensor *x = NULL;
    int64_t dim = 0;
    bool keepdim = false;
    if (repl_parse_args(fname, "input, dim=, keepdim=", args, kwargs, a) ||
        repl_arg_tensor(fname, "input", 1, a[0], &x))
        return NULL;
    if (a[1] && nn_is_tensor(a[1])) return T(is_max ? nn_maximum(x, NN_TENSOR(a[1])) : nn_minimum(x, NN_TENSOR(a[1])));
    if (!a[1]) return T(is_max ? nn_max_all(x) : nn_min_all(x));
    if (repl_arg_dim(fname, "dim", 2, a[1], x->ndim, &dim) || repl_arg_bool(fname, "keepdim", 3, a[2], &keepdim)) return NULL;
    nn_tensor *v, *i;
    if ((is_max ? nn_max_dim : nn_min_dim)(x, (int)dim, keepdim, &v, &i)) return NULL;
    return pair(v, i, is_max);
}

static nn_object *f_max(void *ud, nn_object *args, nn_object *kwargs) { return maxmin_fn("max", args, kwargs, true); }
static nn_object *f_min(void *ud, nn_object *args, nn_object *kwargs) { return maxmin_fn("min", args, kwargs, false); }

/* argmax and argmin (the first index of the extremum; a NaN counts as the
   extremum, as in PyTorch). */
static nn_object *argmax_fn(const char *fname, nn_object *args, nn_object *kwargs, bool min)
{
    ARGS(3);
    nn_tensor *x = NULL;
    int64_t dim = 0;
    bool keepdim = false;
    if (repl_parse_args(fname, "input, dim=, keepdim=", args, kwargs, a) ||
        repl_arg_tensor(fname, "input", 1, a[0], &x) || repl_arg_bool(fname, "keepdim", 3, a[2], &keepdim))
        return NULL;
    bool has_dim = a[1] && !nn_is_none(a[1]);
    if (has_dim && repl_arg_dim(fname, "dim", 2, a[1], x->ndim, &dim)) return NULL;
    /* argmin reduces for the smallest itself: -x wraps at an integer type's minimum */
    return T(min ? nn_argmin(x, (int)dim, has_dim, keepdim) : nn_argmax(x, (int)dim, has_dim, keepdim));
}

static nn_object *f_argmax(void *ud, nn_object *args, nn_object *kwargs) { return argmax_fn("argmax", args, kwargs, false); }
static nn_object *f_argmin(void *ud, nn_object *args, nn_object *kwargs) { return argmax_fn("argmin", args, kwargs, true); }

/* all/any(input, dim=None, keepdim=False): whether every / some element (over dim)
   is nonzero, as a bool tensor: a count of the nonzero elements compared with the
   number reduced (all) or with 0 (any). PyTorch 1.13 takes one int dim. */
static nn_object *all_any(const char *fname, nn_object *args, nn_object *kwargs, bool all)
{
    ARGS(3);
    nn_tensor *x = NULL;
    int64_t dim = 0;
    bool keepdim = false;
    if (repl_parse_args(fname, "input, dim=, keepdim=", args, kwargs, a) ||
        repl_arg_tensor(fname, "input", 1, a[0], &x) || repl_arg_dim(fname, "dim", 2, a[1], x->ndim, &dim) ||
        repl_arg_bool(fname, "keepdim", 3, a[2], &keepdim))
        return NULL;
    int d = 0;
    if (a[1] && check_dim(dim, x->ndim, &d)) return NULL;
    int64_t reduced = !a[1] ? nn_numel(x) : x->ndim ? x->sizes[d] : 1;
    bool was = nn_set_grad_enabled(false);
    nn_tensor *zero = nn_wrapped_number(0, true), *bound = nn_wrapped_number(all ? (double)reduced : 0, true);
    nn_tensor *nonzero = zero && bound ? nn_compare(x, zero, NN_NE) : NULL;
    /* a 0-dim tensor reduced over dim 0 or -1 stays itself */
    nn_tensor *count = NULL;
    if (nonzero) count = a[1] && x->ndim ? nn_sum(nonzero, 1, &d, keepdim) : nn_sum(nonzero, 0, NULL, false);
    nn_tensor *r = count ? nn_compare(count, bound, all ? NN_EQ : NN_GT) : NULL;
    if (r && x->dtype == NN_UINT8) NN_SET(r, nn_to_dtype(r, NN_UINT8)); /* PyTorch 1.13 keeps uint8 (0 or 1) */
    nn_set_grad_enabled(was);
    NN_RELEASE(zero);
    NN_RELEASE(bound);
    NN_RELEASE(nonzero);
    NN_RELEASE(count);
    return T(r);
}

static nn_object *f_all(void *ud, nn_object *args, nn_object *kwargs) { return all_any("all", args, kwargs, true); }
static nn_object *f_any(void *ud, nn_object *args, nn_object *kwargs) { return all_any("any", args, kwargs, false); }

/* torch.equal(input, other): same shape and the same values (dtypes may differ). */
static nn_object *f_equal(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *x = NULL, *y = NULL;
    if (repl_parse_args("equal", "input, other", args, kwargs, a) || repl_arg_tensor("equal", "input", 1, a[0], &x) ||
        repl_arg_tensor("equal", "other", 2, a[1], &y))
        return NULL;
    if (x->ndim != y->ndim || memcmp(x->sizes, y->sizes, sizeof(int64_t) * (size_t)x->ndim))
        return nn_bool_new(false);
    bool was = nn_set_grad_enabled(false);
    nn_tensor *same = nn_compare(x, y, NN_EQ);
    nn_tensor *count = same ? nn_sum(same, 0, NULL, false) : NULL;
    nn_set_grad_enabled(was);
    int64_t idx[1] = {0};
    nn_object *r = count ? nn_bool_new(nn_get_int64(count, idx) == nn_numel(x)) : NULL;
    NN_RELEASE(same);
    NN_RELEASE(count);
    return r;
}

/* isclose as PyTorch computes it: a == b, or (equal_nan) both NaN, or a finite
   |a - b| <= atol + |rtol * b|; a and b broadcast and must share a dtype. */
static nn_tensor *isclose(const char *fname, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    nn_tensor *x = NULL, *y = NULL;
    double rtol = 1e-05, atol = 1e-08;
    bool equal_nan = false;
    if (repl_parse_args(fname, "input, other, rtol=, atol=, equal_nan=", args, kwargs, a) ||
        repl_arg_tensor(fname, "input", 1, a[0], &x) || repl_arg_tensor(fname, "other", 2, a[1], &y) ||
        repl_arg_double(fname, "rtol", 3, a[2], &rtol) || repl_arg_double(fname, "atol", 4, a[3], &atol) ||
        repl_arg_bool(fname, "equal_nan", 5, a[4], &equal_nan))
        return NULL;
    if (x->dtype != y->dtype) {
        nn_error_set(NN_ERR_RUNTIME, "%s did not match %s", nn_dtype_scalar_name(x->dtype),
                     nn_dtype_scalar_name(y->dtype));
        return NULL;
    }
    if (rtol < 0 || atol < 0) {
        nn_error_set(NN_ERR_RUNTIME, "%s must be greater than or equal to zero, but got %g", rtol < 0 ? "rtol" : "atol",
                     rtol < 0 ? rtol : atol);
        return NULL;
    }
    bool was = nn_set_grad_enabled(false);
    nn_tensor *diff = nn_sub(x, y); /* broadcasts, or fails with PyTorch's size message */
    nn_tensor *xe = diff ? nn_expand(x, diff->ndim, diff->sizes) : NULL;
    nn_tensor *ye = xe ? nn_expand(y, diff->ndim, diff->sizes) : NULL;
    int64_t n = diff ? nn_numel(diff) : 0;
    bool cx = nn_dtype_is_complex(x->dtype); /* two parts an element: |.| is the modulus, NaN either part */
    nn_tensor *xr = ye && cx ? nn_view_as_real(xe) : NULL, *yr = xr ? nn_view_as_real(ye) : NULL;
    double *v = ye && (!cx || yr) ? nn_malloc(4 * (size_t)(n ? n : 1) * sizeof *v) : NULL;
    bool *close = v ? nn_malloc((size_t)(n ? n : 1)) : NULL;
    nn_tensor *r = NULL;
    if (close) {
        int64_t w = cx ? 2 : 1;
        nn_to_doubles(cx ? xr : xe, v);
        nn_to_doubles(cx ? yr : ye, v + w * n);
        for (int64_t i = 0; i < n; i++) {
            const double *p = v + w * i, *q = v + w * (n + i);
            double pi = cx ? p[1] : 0, qi = cx ? q[1] : 0, err = hypot(p[0] - q[0], pi - qi);
            bool nans = (isnan(p[0]) || isnan(pi)) && (isnan(q[0]) || isnan(qi));
            close[i] = (p[0] == q[0] && pi == qi) || (equal_nan && nans) ||
                       (isfinite(err) && err <= atol + hypot(rtol * q[0], rtol * qi));
        }
        r = nn_from_data(close, diff->ndim, diff->sizes, NN_BOOL);
    }
    nn_set_grad_enabled(was);
    nn_free(v);
    nn_free(close);
    NN_RELEASE(diff);
    NN_RELEASE(xe);
    NN_RELEASE(ye);
    NN_RELEASE(xr);
    NN_RELEASE(yr);
    return r;
}

static nn_object *f_isclose(void *ud, nn_object *args, nn_object *kwargs)
{
    return T(isclose("isclose", args, kwargs));
}

static nn_object *f_allclose(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_tensor *close = isclose("allclose", args, kwargs);
    if (!close) return NULL;
    nn_tensor *hold;
    const bool *c = nn_host_read(close, &hold);
    int64_t n = nn_numel(close), i = 0;
    while (c && i < n && c[i]) i++;
    NN_RELEASE(close);
    NN_RELEASE(hold);
    return c ? nn_bool_new(i == n) : NULL;
}

static nn_object *f_norm(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_tensor *x = NULL;
    double p = 2;
    int n = 0, dims[NN_MAX_DIMS];
    bool keepdim = false;
    if (repl_parse_args("norm", "input, p=, dim=, keepdim=", args, kwargs, a) ||
        repl_arg_tensor("norm", "input", 1, a[0], &x) || (a[1] && !nn_is_str(a[1]) && repl_arg_double("norm", "p", 2, a[1], &p)) ||
        repl_arg_dims("norm", "dim", 3, a[2], &n, dims) || repl_arg_bool("norm", "keepdim", 4, a[3], &keepdim))
        return NULL;
    bool fro = !a[1] || a[1] == nn_none() || (nn_is_str(a[1]) && strcmp(nn_str_cstr(a[1]), "fro") == 0);
    if (fro && n == 2 && nn_dtype_is_floating(x->dtype)) return T(nn_frobenius_norm(x, n, dims, keepdim));
    if (a[1] && nn_is_str(a[1]) && (!fro || n > 2)) /* 'nuc', or 'fro' over more dims: a matrix norm */
        return T(repl_matrix_norm_str(x, nn_str_cstr(a[1]), n, dims, keepdim));
    return T(nn_norm(x, p, n, dims, keepdim));
}

static nn_object *softmax_fn(const char *fname, nn_object *args, nn_object *kwargs, bool log)
{
    ARGS(3);
    nn_tensor *x = NULL;
    int64_t dim = 0;
    int dtype = -1;
    if (repl_parse_args(fname, "input, dim, dtype=", args, kwargs, a) ||
        repl_arg_tensor(fname, "input", 1, a[0], &x) || repl_arg_dim(fname, "dim", 2, a[1], x->ndim, &dim) ||
        repl_arg_dtype(fname, "dtype", 3, a[2], &dtype))
        return NULL;
    nn_tensor *in = x;
    if (dtype >= 0 && !(in = nn_to_dtype(x, (nn_dtype)dtype))) return NULL;
    nn_tensor *r = log ? nn_log_softmax(in, (int)dim) : nn_softmax(in, (int)dim);
    if (dtype >= 0) NN_RELEASE(in); /* nn_to_dtype's new reference, x itself retained when already that dtype */
    return T(r);
}

static nn_object *f_softmax(void *ud, nn_object *args, nn_object *kwargs)
{
    return softmax_fn("softmax", args, kwargs, false);
}
static nn_object *f_log_softmax(void *ud, nn_object *args, nn_object *kwargs)
{
    return softmax_fn("log_softmax", args, kwargs, true);
}

/* ------------------------------------------------------------ shapes */

static nn_object *f_flatten(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL;
    int64_t s = 0, e = -1;
    if (repl_parse_args("flatten", "input, start_dim=, end_dim=", args, kwargs, a) ||
        repl_arg_tensor("flatten", "input", 1, a[0], &x) || repl_arg_dim("flatten", "start_dim", 2, a[1], x->ndim, &s) ||
        repl_arg_dim("flatten", "end_dim", 3, a[2], x->ndim, &e))
        return NULL;
    return T(nn_flatten(x, (int)s, (int)e));
}

static nn_object *f_transpose(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL;
    int64_t d0 = 0, d1 = 0;
    if (repl_parse_args("transpose", "input, dim0, dim1", args, kwargs, a) ||
        repl_arg_tensor("transpose", "input", 1, a[0], &x) || repl_arg_dim("transpose", "dim0", 2, a[1], x->ndim, &d0) ||
        repl_arg_dim("transpose", "dim1", 3, a[2], x->ndim, &d1))
        return NULL;
    return T(nn_transpose(x, (int)d0, (int)d1));
}

static nn_object *f_unsqueeze(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *x = NULL;
    int64_t d = 0;
    if (repl_parse_args("unsqueeze", "input, dim", args, kwargs, a) ||
        repl_arg_tensor("unsqueeze", "input", 1, a[0], &x) || repl_arg_dim("unsqueeze", "dim", 2, a[1], x->ndim + 1, &d))
        return NULL;
    return T(nn_unsqueeze(x, (int)d));
}

static nn_object *f_squeeze(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *x = NULL;
    int64_t d = 0;
    if (repl_parse_args("squeeze", "input, dim=", args, kwargs, a) ||
        repl_arg_tensor("squeeze", "input", 1, a[0], &x) || repl_arg_dim("squeeze", "dim", 2, a[1], x->ndim, &d))
        return NULL;
    return T(a[1] ? nn_squeeze_dim(x, (int)d) : nn_squeeze(x));
}

/* PyTorch's words for a shape given badly to reshape, view, expand, permute and repeat (param: its
   name, type: its type's): none at all (CPython's words, torch_arg_errors.c makes them PyTorch's),
   one that is no sequence, or a non-int among several */
static int shape_args_check(const char *fname, const char *param, const char *type, nn_object *args, size_t skip)
{
    size_t n = nn_tuple_len(args);
    if (n == skip) return nn_error_set(NN_ERR_TYPE, "%s() missing 1 required positional argument: '%s'", fname, param);
    for (size_t i = skip; i < n; i++) {
        nn_object *d = nn_tuple_get(args, i);
        if (nn_is_int(d) || repl_is_bigint(d)) continue;
        if (n == skip + 1 && !nn_is_list(d) && !nn_is_instance(d, &nn_tuple_type))
            return nn_error_set(NN_ERR_TYPE, "%s(): argument '%s' (position %d) must be %s, not %s", fname, param,
                                (int)skip + 1, type, repl_type_name(d));
        if (n > skip + 1)
            return nn_error_set(NN_ERR_TYPE, "%s(): argument '%s' must be %s, but found element of type %s at pos %d",
                                fname, param, type, repl_type_name(d), (int)(i - skip + 1));
    }
    return 0;
}

/* A shape given by keyword, as PyTorch takes it (x.view(size=(3, 2)), torch.reshape(x, shape=(6,)),
   torch.permute(input=x, dims=(1, 0)), x.repeat(repeats=(2, 1))): args with the keywords put in their
   places (skip: 1 where args[0] is the input), a new reference; NULL (no error set) when the keywords
   are anything else, which the caller refuses. */
static nn_object *shape_kwargs_as_args(nn_object *args, nn_object *kwargs, size_t skip, const char *param)
{
    nn_object *input = skip ? nn_dict_get_str(kwargs, "input") : NULL;
    nn_object *shape = nn_dict_get_str(kwargs, param);
    size_t given = nn_tuple_len(args) + (input != NULL);
    if (!shape || (size_t)(input != NULL) + 1 != nn_dict_len(kwargs) || given != skip) return NULL;
    return skip ? nn_tuple_pack(2, input ? input : nn_tuple_get(args, 0), shape) : nn_tuple_pack(1, shape);
}

/* The TypeError for keywords shape_kwargs_as_args refused, in CPython's words (torch_arg_errors.c
   rewords them as PyTorch's) */
static void shape_kwargs_error(const char *fname, nn_object *kwargs, size_t skip, const char *param)
{
    size_t pos = 0;
    nn_object *k, *v;
    while (nn_dict_next(kwargs, &pos, &k, &v)) {
        const char *key = nn_is_str(k) ? nn_str_cstr(k) : "";
        if (strcmp(key, param) && (!skip || strcmp(key, "input"))) {
            nn_error_set(NN_ERR_TYPE, "%s() got an unexpected keyword argument '%s'", fname, key);
            return;
        }
    }
    nn_error_set(NN_ERR_TYPE, "%s() got multiple values for argument '%s'", fname,
                 nn_dict_get_str(kwargs, param) ? param : "input");
}

/* reshape/view/permute/expand: (input, *shape) or (input, shape). */
static nn_object *shape_fn(const char *fname, nn_object *args, nn_object *kwargs, int which)
{
    static const char *const param[] = {"shape", "size", "size", "dims"};
    if (kwargs && nn_dict_len(kwargs)) {
        nn_object *moved = shape_kwargs_as_args(args, kwargs, 1, param[which]);
        if (!moved) {
            shape_kwargs_error(fname, kwargs, 1, param[which]);
            return NULL;
        }
        nn_object *r = shape_fn(fname, moved, NULL, which);
        nn_release(moved);
        return r;
    }
    nn_tensor *x = NULL;
    size_t n = nn_tuple_len(args);
    if (n < 1 || repl_arg_tensor(fname, "input", 1, nn_tuple_get(args, 0), &x)) {
        if (n < 1) nn_error_set(NN_ERR_TYPE, "%s() missing 1 required positional argument: 'input'", fname);
        return NULL;
    }
    if (shape_args_check(fname, param[which], which == 3 ? "tuple of ints" : "tuple of SymInts", args, 1)) return NULL;
    int ndim = 0;
    int64_t sizes[NN_MAX_DIMS];
    if (repl_shape_from_args(fname, args, 1, n - 1, &ndim, sizes)) return NULL;
    switch (which) {
    case 0: return T(nn_reshape(x, ndim, sizes));
    case 1: return T(nn_view(x, ndim, sizes));
    case 2: return T(nn_expand(x, ndim, sizes));
    default: {
        int dims[NN_MAX_DIMS];
        for (int i = 0; i < ndim; i++) {
            if (sizes[i] < INT_MIN || sizes[i] > INT_MAX) { /* permute(0, 2**62): out of range, not cut to an int */
                int k = x->ndim > 0 ? x->ndim : 1;
                nn_error_set(NN_ERR_INDEX, "Dimension out of range (expected to be in range of [%d, %d], but got %lld)", -k,
                             k - 1, (long long)sizes[i]);
                return NULL;
            }
            dims[i] = (int)sizes[i];
        }
        return T(nn_permute(x, ndim, dims));
    }
    }
}

static nn_object *f_reshape(void *ud, nn_object *args, nn_object *kwargs) { return shape_fn("reshape", args, kwargs, 0); }
/* x.view(*shape) or x.view(dtype): the same memory read as another dtype */
static nn_object *f_view(void *ud, nn_object *args, nn_object *kwargs)
{
    bool dtype_kw = kwargs && nn_dict_get_str(kwargs, "dtype");
    if (dtype_kw || (nn_tuple_len(args) == 2 && repl_is_dtype(nn_tuple_get(args, 1)))) {
        ARGS(2);
        nn_tensor *x;
        int dt;
        if (repl_parse_args("view", "input, dtype", args, kwargs, a) || repl_arg_tensor("view", "input", 1, a[0], &x) ||
            repl_arg_dtype("view", "dtype", 1, a[1], &dt))
            return NULL;
        return T(nn_view_dtype(x, (nn_dtype)dt));
    }
    return shape_fn("view", args, kwargs, 1);
}
static nn_object *f_expand(void *ud, nn_object *args, nn_object *kwargs) { return shape_fn("expand", args, kwargs, 2); }
static nn_object *f_permute(void *ud, nn_object *args, nn_object *kwargs) { return shape_fn("permute", args, kwargs, 3); }

/* torch.cat / torch.stack(tensors, dim=0) */
static nn_object *catstack(const char *fname, nn_object *args, nn_object *kwargs, bool stack)
{
    ARGS(2);
    int64_t dim = 0;
    if (repl_parse_args(fname, "tensors, dim=", args, kwargs, a)) return NULL;
    nn_object *seq = a[0];
    bool list = nn_is_list(seq);
    if (!list && !nn_is_instance(seq, &nn_tuple_type)) {
        nn_error_set(NN_ERR_TYPE, "%s(): argument 'tensors' (position 1) must be tuple of Tensors, not %s", fname,
                     repl_type_name(seq));
        return NULL;
    }
    size_t n = list ? nn_list_len(seq) : nn_tuple_len(seq);
    nn_tensor **ts = nn_malloc((n ? n : 1) * sizeof *ts);
    if (!ts) return NULL;
    for (size_t i = 0; i < n; i++) {
        nn_object *o = list ? nn_list_get(seq, i) : nn_tuple_get(seq, i);
        if (!nn_is_tensor(o)) {
            nn_error_set(NN_ERR_TYPE, "expected Tensor as element %zu in argument 0, but got %s", i,
                         repl_type_name(o));
            nn_free(ts);
            return NULL;
        }
        ts[i] = NN_TENSOR(o);
    }
    /* the dim is checked against the first tensor, so a huge one is named as given */
    if (repl_arg_dim(fname, "dim", 2, a[1], n ? ts[0]->ndim + stack : -1, &dim) < 0) {
        nn_free(ts);
        return NULL;
    }
    nn_tensor *r = stack ? nn_stack((int)n, ts, (int)dim) : nn_cat((int)n, ts, (int)dim);
    nn_free(ts);
    return T(r);
}

static nn_object *f_cat(void *ud, nn_object *args, nn_object *kwargs) { return catstack("cat", args, kwargs, false); }
static nn_object *f_stack(void *ud, nn_object *args, nn_object *kwargs) { return catstack("stack", args, kwargs, true); }

/* ---------------------------------------------------- torch namespace */

static const repl_function_def tensor_functions[] = {
    {"exp", f_exp,
     "exp(input, *, out=None) -> Tensor\n"
     "Returns a new tensor with the exponential of the elements of the input tensor input."},
    {"log", f_log,
     "log(input, *, out=None) -> Tensor\n"
     "Returns a new tensor with the natural logarithm of the elements of input."},
    {"sqrt", f_sqrt,
     "sqrt(input, *, out=None) -> Tensor\n"
     "Returns a new tensor with the square-root of the elements of input."},
    {"abs", f_abs,
     "abs(input, *, out=None) -> Tensor\n"
     "Computes the absolute value of each element in input."},
    {"tanh", f_tanh,
     "tanh(input, *, out=None) -> Tensor\n"
     "Returns a new tensor with the hyperbolic tangent of the elements of input."},
    {"sigmoid", f_sigmoid,
     "sigmoid(input, *, out=None) -> Tensor\n"
     "Returns a new tensor with the sigmoid of the elements of input."},
    {"relu", f_relu,
     "relu(input) -> Tensor\n"
     "Applies the rectified linear unit function element-wise."},
    {"neg", f_neg,
     "neg(input, *, out=None) -> Tensor\n"
     "Returns a new tensor with the negative of the elements of input."},
    {"t", f_t,
     "t(input) -> Tensor\n"
     "Expects input to be <= 2-D tensor and transposes dimensions 0 and 1."},
    {"floor", f_floor,
     "floor(input, *, out=None) -> Tensor\n"
     "Returns a new tensor with the floor of the elements of input, the largest integer less than or equal to each element."},
    {"ceil", f_ceil,
     "ceil(input, *, out=None) -> Tensor\n"
     "Returns a new tensor with the ceil of the elements of input, the smallest integer greater than or equal to each element."},
    {"round", f_round,
     "round(input, *, decimals=0, out=None) -> Tensor\n"
     "Rounds elements of input to the nearest integer (halves to even); nnscope takes no decimals= yet."},
    {"sign", f_sign,
     "sign(input, *, out=None) -> Tensor\n"
     "Returns a new tensor with the signs of the elements of input."},
    {"square", f_square,
     "square(input, *, out=None) -> Tensor\n"
     "Returns a new tensor with the square of the elements of input."},
    {"isnan", f_isnan,
     "isnan(input) -> Tensor\n"
     "Returns a new tensor with boolean elements representing if each element of input is NaN or not."},
    {"isinf", f_isinf,
     "isinf(input) -> Tensor\n"
     "Tests if each element of input is infinite (positive or negative infinity) or not."},
    {"isfinite", f_isfinite,
     "isfinite(input) -> Tensor\n"
     "Returns a new tensor with boolean elements representing if each element is finite or not."},
    {"detach", f_detach,
     "detach(input) -> Tensor\n"
     "Returns a new tensor, detached from the current graph."},
    {"clone", f_clone,
     "clone(input, *, memory_format=torch.preserve_format) -> Tensor\n"
     "Returns a copy of input."},
    {"add", f_add,
     "add(input, other, *, alpha=1, out=None) -> Tensor\n"
     "Adds other, scaled by alpha, to input."},
    {"sub", f_sub,
     "sub(input, other, *, alpha=1, out=None) -> Tensor\n"
     "Subtracts other, scaled by alpha, from input."},
    {"mul", f_mul,
     "mul(input, other, *, out=None) -> Tensor\n"
     "Multiplies input by other."},
    {"div", f_div,
     "div(input, other, *, rounding_mode=None, out=None) -> Tensor\n"
     "Divides each element of the input input by the corresponding element of other."},
    {"pow", f_pow,
     "pow(input, exponent, *, out=None) -> Tensor\n"
     "Takes the power of each element in input with exponent and returns a tensor with the result."},
    {"maximum", f_maximum,
     "maximum(input, other, *, out=None) -> Tensor\n"
     "Computes the element-wise maximum of input and other."},
    {"minimum", f_minimum,
     "minimum(input, other, *, out=None) -> Tensor\n"
     "Computes the element-wise minimum of input and other."},
    {"matmul", f_matmul,
     "matmul(input, other, *, out=None) -> Tensor\n"
     "Matrix product of two tensors."},
    {"mm", f_mm,
     "mm(input, mat2, *, out=None) -> Tensor\n"
     "Performs a matrix multiplication of the matrices input and mat2."},
    {"bmm", f_bmm,
     "bmm(input, mat2, *, out=None) -> Tensor\n"
     "Performs a batch matrix-matrix product of matrices stored in input and mat2."},
    {"dot", f_dot,
     "dot(input, other, *, out=None) -> Tensor\n"
     "Computes the dot product of two 1D tensors."},
    {"mv", f_mv,
     "mv(input, vec, *, out=None) -> Tensor\n"
     "Performs a matrix-vector product of the matrix input and the vector vec."},
    {"all", f_all,
     "all(input, dim=None, keepdim=False) -> Tensor\n"
     "Tests if all elements in input evaluate to True."},
    {"any", f_any,
     "any(input, dim=None, keepdim=False) -> Tensor\n"
     "Tests if any element in input evaluates to True."},
    {"equal", f_equal,
     "equal(input, other) -> bool\n"
     "True if two tensors have the same size and elements, False otherwise."},
    {"isclose", f_isclose,
     "isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> Tensor\n"
     "Returns a new tensor with boolean elements representing if each element of input is \"close\" to the corresponding element of other."},
    {"allclose", f_allclose,
     "allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool\n"
     "This function checks if input and other satisfy the condition |input - other| <= atol + rtol * |other| elementwise, for all elements of input and other."},
    {"eq", f_eq,
     "eq(input, other, *, out=None) -> Tensor\n"
     "Computes input == other element-wise."},
    {"ne", f_ne,
     "ne(input, other, *, out=None) -> Tensor\n"
     "Computes input != other element-wise."},
    {"lt", f_lt,
     "lt(input, other, *, out=None) -> Tensor\n"
     "Computes input < other element-wise."},
    {"le", f_le,
     "le(input, other, *, out=None) -> Tensor\n"
     "Computes input <= other element-wise."},
    {"gt", f_gt,
     "gt(input, other, *, out=None) -> Tensor\n"
     "Computes input > other element-wise."},
    {"ge", f_ge,
     "ge(input, other, *, out=None) -> Tensor\n"
     "Computes input >= other element-wise."},
    {"floor_divide", f_floor_divide,
     "floor_divide(input, other, *, out=None) -> Tensor\n"
     "Computes input divided by other, elementwise, and floors the result (input // other)."},
    {"remainder", f_remainder,
     "remainder(input, other, *, out=None) -> Tensor\n"
     "Computes Python's modulus elementwise: the result has the sign of the divisor (input % other)."},
    {"where", f_where,
     "where(condition, x, y) -> Tensor\n"
     "Return a tensor of elements selected from either x or y, depending on condition."},
    {"clamp", f_clamp,
     "clamp(input, min=None, max=None, *, out=None) -> Tensor\n"
     "Clamps all elements in input into the range [ min, max ]."},
    {"sum", f_sum,
     "sum(input, dim=None, keepdim=False, *, dtype=None) -> Tensor\n"
     "Returns the sum of all elements in the input tensor."},
    {"mean", f_mean,
     "mean(input, dim=None, keepdim=False, *, dtype=None) -> Tensor\n"
     "Returns the mean value of all elements in the input tensor."},
    {"var", f_var,
     "var(input, dim=None, unbiased=True, keepdim=False) -> Tensor\n"
     "Calculates the variance over the dimensions specified by dim."},
    {"std", f_std,
     "std(input, dim=None, unbiased=True, keepdim=False) -> Tensor\n"
     "Calculates the standard deviation over the dimensions specified by dim."},
    {"var_mean", f_var_mean,
     "var_mean(input, dim=None, unbiased=True, keepdim=False) -> (Tensor, Tensor)\n"
     "Calculates the variance and mean over the dimensions specified by dim."},
    {"std_mean", f_std_mean,
     "std_mean(input, dim=None, unbiased=True, keepdim=False) -> (Tensor, Tensor)\n"
     "Calculates the standard deviation and mean over the dimensions specified by dim."},
    {"max", f_max,
     "max(input, dim=None, keepdim=False) -> Tensor or (Tensor, LongTensor)\n"
     "Returns the maximum value of all elements in the input tensor."},
    {"min", f_min,
     "min(input, dim=None, keepdim=False) -> Tensor or (Tensor, LongTensor)\n"
     "Returns the minimum value of all elements in the input tensor."},
    {"argmax", f_argmax,
     "argmax(input, dim=None, keepdim=False) -> LongTensor\n"
     "Returns the indices of the maximum value of all elements in the input tensor."},
    {"argmin", f_argmin,
     "argmin(input, dim=None, keepdim=False) -> LongTensor\n"
     "Returns the indices of the minimum value(s) of the flattened tensor or along a dimension."},
    {"norm", f_norm,
     "norm(input, p='fro', dim=None, keepdim=False, out=None, dtype=None)\n"
     "Returns the matrix norm or vector norm of a given tensor."},
    {"softmax", f_softmax,
     "softmax(input, dim, *, dtype=None) -> Tensor\n"
     "Applies a softmax function along dim."},
    {"log_softmax", f_log_softmax,
     "log_softmax(input, dim, *, dtype=None) -> Tensor\n"
     "Applies a softmax followed by a logarithm along dim."},
    {"flatten", f_flatten,
     "flatten(input, start_dim=0, end_dim=-1) -> Tensor\n"
     "Flattens input by reshaping it into a one-dimensional tensor."},
    {"transpose", f_transpose,
     "transpose(input, dim0, dim1) -> Tensor\n"
     "Returns a tensor that is a transposed version of input."},
    {"unsqueeze", f_unsqueeze,
     "unsqueeze(input, dim) -> Tensor\n"
     "Returns a new tensor with a dimension of size one inserted at the specified position."},
    {"squeeze", f_squeeze,
     "squeeze(input, dim=None) -> Tensor\n"
     "Returns a tensor with all the dimensions of input of size 1 removed."},
    {"reshape", f_reshape,
     "reshape(input, shape) -> Tensor\n"
     "Returns a tensor with the same data and number of elements as input, but with the specified shape."},
    {"permute", f_permute,
     "permute(input, dims) -> Tensor\n"
     "Returns a view of the original tensor input with its dimensions permuted."},
    {"cat", f_cat,
     "cat(tensors, dim=0, *, out=None) -> Tensor\n"
     "Concatenates the given sequence of seq tensors in the given dimension."},
    {"stack", f_stack,
     "stack(tensors, dim=0, *, out=None) -> Tensor\n"
     "Concatenates a sequence of tensors along a new dimension."},
};
#define N_TENSOR_FUNCTIONS (sizeof tensor_functions / sizeof tensor_functions[0])

int repl_torch_add_tensor_functions(nn_object *torch)
{
    return repl_namespace_add_fns(torch, tensor_functions, N_TENSOR_FUNCTIONS);
}

/* ------------------------------------------------------ tensor methods */

#define M(name) static nn_object *m_##name(nn_object *self, nn_object *args, nn_object *kwargs)
#define SELF NN_TENSOR(self)

/* A dim of size()/stride(): in range, and the tensor has dims (PyTorch's IndexErrors). */
static int dim_of_sizes(nn_tensor *t, int64_t dim, int *out)
{
    if (check_dim(dim, t->ndim, out)) return -1;
    if (t->ndim == 0)
        return nn_error_set(NN_ERR_INDEX, "dimension specified as %lld but tensor has no dimensions", (long long)dim);
    return 0;
}

M(size)
{
    ARGS(1);
    int64_t d = 0;
    if (repl_parse_args("size", "dim=", args, kwargs, a) || repl_arg_dim("size", "dim", 1, a[0], SELF->ndim, &d)) return NULL;
    if (nn_check_initialized(SELF)) return NULL;
    if (!a[0] || nn_is_none(a[0])) return repl_size_new(SELF->ndim, SELF->sizes);
    int i = 0;
    if (dim_of_sizes(SELF, d, &i)) return NULL;
    return nn_int_new(SELF->sizes[i]);
}

/* stride(dim=None): the strides (a tuple, in elements) or one of them. */
M(stride)
{
    ARGS(1);
    int64_t d = 0;
    if (repl_parse_args("stride", "dim=", args, kwargs, a) || repl_arg_dim("stride", "dim", 1, a[0], SELF->ndim, &d)) return NULL;
    int i = 0;
    if (a[0] && !nn_is_none(a[0])) return dim_of_sizes(SELF, d, &i) ? NULL : nn_int_new(SELF->strides[i]);
    nn_object *r = nn_tuple_new((size_t)SELF->ndim);
    for (int k = 0; r && k < SELF->ndim; k++) {
        nn_object *s = nn_int_new(SELF->strides[k]);
        if (!s) NN_SET(r, NULL);
        else nn_tuple_set(r, (size_t)k, s);
    }
    return r;
}

M(storage_offset)
{
    ARGS(1);
    if (repl_parse_args("storage_offset", "", args, kwargs, a)) return NULL;
    return nn_int_new(SELF->offset);
}

M(element_size)
{
    ARGS(1);
    if (repl_parse_args("element_size", "", args, kwargs, a)) return NULL;
    return nn_int_new((int64_t)nn_dtype_size(SELF->dtype));
}

M(dim)
{
    ARGS(1);
    if (repl_parse_args("dim", "", args, kwargs, a)) return NULL;
    return nn_int_new(SELF->ndim);
}

M(numel)
{
    ARGS(1);
    if (repl_parse_args("numel", "", args, kwargs, a)) return NULL;
    return nn_int_new(nn_numel(SELF));
}

static nn_object *scalar_value(nn_tensor *t, double v)
{
    if (t->dtype == NN_BOOL) return nn_bool_new(v != 0);
    if (nn_dtype_is_integer(t->dtype)) return nn_int_new((int64_t)v);
    return nn_float_new(v);
}

M(item)
{
    ARGS(1);
    double v;
    if (repl_parse_args("item", "", args, kwargs, a)) return NULL;
    if (nn_numel(SELF) != 1) { /* PyTorch 1.13's Python binding says this, as a ValueError */
        nn_error_set(NN_ERR_VALUE, "only one element tensors can be converted to Python scalars");
        return NULL;
    }
    if (SELF->dtype == NN_INT64 || nn_dtype_is_complex(SELF->dtype)) {
        int64_t idx[NN_MAX_DIMS] = {0};
        return SELF->dtype == NN_INT64 ? nn_int_new(nn_get_int64(SELF, idx)) : repl_complex_scalar(SELF, idx);
    }
    if (nn_item(SELF, &v)) return NULL;
    return scalar_value(SELF, v);
}

static nn_object *tolist_rec(nn_tensor *t, int d, int64_t *idx)
{
    if (d == t->ndim) {
        if (t->dtype == NN_INT64) return nn_int_new(nn_get_int64(t, idx));
        if (nn_dtype_is_complex(t->dtype)) return repl_complex_scalar(t, idx);
        return scalar_value(t, nn_get_double(t, idx));
    }
    nn_object *l = nn_list_new((size_t)t->sizes[d]);
    if (!l) return NULL;
    for (int64_t i = 0; i < t->sizes[d]; i++) {
        idx[d] = i;
        nn_object *v = tolist_rec(t, d + 1, idx);
        if (!v || nn_list_append(l, v)) {
            NN_RELEASE(v);
            NN_RELEASE(l);
            return NULL;
        }
        NN_RELEASE(v);
    }
    return l;
}

/* new_zeros / new_ones / new_empty(*size, dtype=None, ...), new_full(size, fill_value, ...):
   torch's factories with self's dtype and device by default. */
M(new_zeros) { return repl_tensor_factory_like("new_zeros", args, kwargs, REPL_ZEROS, SELF); }
M(new_ones) { return repl_tensor_factory_like("new_ones", args, kwargs, REPL_ONES, SELF); }
M(new_empty) { return repl_tensor_factory_like("new_empty", args, kwargs, REPL_EMPTY, SELF); }
M(new_full) { return repl_tensor_factory_like("new_full", args, kwargs, REPL_FULL, SELF); }

/* type(dtype=None): without a dtype the legacy type name ("torch.FloatTensor"),
   else a conversion; the dtype may be given by that name too. */
M(type)
{
    ARGS(2);
    if (repl_parse_args("type", "dtype=, non_blocking=", args, kwargs, a)) return NULL;
    char name[64];
    if (!a[0] || nn_is_none(a[0])) {
        snprintf(name, sizeof name, "torch.%sTensor", nn_dtype_scalar_name(SELF->dtype));
        return nn_str_new(name);
    }
    if (nn_is_str(a[0])) {
        for (int dt = 0; dt < NN_DTYPE_COUNT; dt++) {
            snprintf(name, sizeof name, "torch.%sTensor", nn_dtype_scalar_name((nn_dtype)dt));
            if (!strcmp(name, nn_str_cstr(a[0]))) return T(nn_to_dtype(SELF, (nn_dtype)dt));
        }
        nn_error_set(NN_ERR_VALUE, "invalid type: '%s'", nn_str_cstr(a[0]));
        return NULL;
    }
    int dtype = repl_legacy_class_dtype(a[0]); /* x.type(torch.LongTensor) */
    if (dtype < 0 && repl_arg_dtype("type", "dtype", 1, a[0], &dtype)) return NULL;
    return T(nn_to_dtype(SELF, (nn_dtype)dtype));
}

M(tolist)
{
    ARGS(1);
    int64_t idx[NN_MAX_DIMS] = {0};
    if (repl_parse_args("tolist", "", args, kwargs, a)) return NULL;
    return tolist_rec(SELF, 0, idx);
}

M(backward)
{
    ARGS(4);
    nn_tensor *g = NULL;
    bool create = false, retain = false;
    if (repl_parse_args("backward", "gradient=, retain_graph=, create_graph=, inputs=", args, kwargs, a)) return NULL;
    if (a[0] && !nn_is_none(a[0]) && repl_arg_tensor("backward", "gradient", 1, a[0], &g)) return NULL;
    if (repl_arg_bool("backward", "create_graph", 3, a[2], &create)) return NULL;
    retain = create;
    if (a[1] && !nn_is_none(a[1]) && repl_arg_bool("backward", "retain_graph", 2, a[1], &retain)) return NULL;
    if (a[3] && !nn_is_none(a[3])) return repl_tensor_backward_inputs(SELF, g, retain, create, a[3]) ? NULL : nn_retain(nn_none());
    if (nn_backward(SELF, g, retain, create)) return NULL;
    return nn_retain(nn_none());
}

M(retain_grad)
{
    ARGS(1);
    if (repl_parse_args("retain_grad", "", args, kwargs, a) || nn_retain_grad(SELF)) return NULL;
    return nn_retain(nn_none());
}

/* A tensor hook's handle: remove() drops the hook from its tensor. */
typedef struct thandle {
    nn_object ob;
    nn_tensor *t; /* owned */
    int64_t id;
} thandle;

static void thandle_dealloc(nn_object *self)
{
    NN_RELEASE(((thandle *)self)->t);
    nn_free(self);
}

static const nn_type thandle_type = {.name = "RemovableHandle", .dealloc = thandle_dealloc};

static nn_object *thandle_remove(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    thandle *h = (thandle *)self;
    if (repl_parse_args("remove", "", args, kwargs, a)) return NULL;
    nn_tensor_remove_hook(h->t, h->id);
    return nn_retain(nn_none());
}

static const repl_method_def thandle_methods[] = {
    {"remove", thandle_remove,
     "remove()\n"
     "Removes the hook from the tensor."},
    {NULL, NULL, NULL},
};

M(register_hook)
{
    ARGS(1);
    if (repl_parse_args("register_hook", "hook", args, kwargs, a)) return NULL;
    thandle *h = nn_malloc(sizeof *h);
    if (!h) return NULL;
    int64_t id = nn_tensor_register_hook(SELF, a[0]);
    if (id < 0) {
        nn_free(h);
        return NULL;
    }
    nn_object_init(&h->ob, &thandle_type);
    h->t = (nn_tensor *)nn_retain(self);
    h->id = id;
    return &h->ob;
}

static nn_object *convert(nn_object *self, nn_object *args, nn_object *kwargs, const char *fname, nn_dtype dt)
{
    ARGS(1);
    if (repl_parse_args(fname, "memory_format=", args, kwargs, a)) return NULL;
    return T(nn_to_dtype(SELF, dt));
}

M(float) { return convert(self, args, kwargs, "float", NN_FLOAT32); }
M(double) { return convert(self, args, kwargs, "double", NN_FLOAT64); }
M(half) { return convert(self, args, kwargs, "half", NN_FLOAT16); }
M(bfloat16) { return convert(self, args, kwargs, "bfloat16", NN_BFLOAT16); }
M(long) { return convert(self, args, kwargs, "long", NN_INT64); }
M(int) { return convert(self, args, kwargs, "int", NN_INT32); }
M(bool) { return convert(self, args, kwargs, "bool", NN_BOOL); }
M(byte) { return convert(self, args, kwargs, "byte", NN_UINT8); }
M(char) { return convert(self, args, kwargs, "char", NN_INT8); }
M(short) { return convert(self, args, kwargs, "short", NN_INT16); }

M(cpu)
{
    ARGS(1);
    if (repl_parse_args("cpu", "memory_format=", args, kwargs, a)) return NULL;
    return T(nn_to_device(SELF, NN_DEVICE_CPU)); /* self when already there */
}

M(to)
{
    int dtype = -1;
    nn_object *b[6];
    if (repl_parse_args("to", "a=, b=, non_blocking=, copy=, *, dtype=, device=", args, kwargs, b)) return NULL;
    nn_object *cands[4] = {b[0], b[1], b[4], b[5]};
    nn_device device = nn_device_of(SELF);
    for (int i = 0; i < 4; i++) {
        nn_object *o = cands[i];
        if (!o || nn_is_none(o)) continue;
        if (repl_is_dtype(o)) dtype = (int)repl_dtype_value(o);
        else if (nn_is_tensor(o)) dtype = (int)NN_TENSOR(o)->dtype, device = nn_device_of(NN_TENSOR(o));
        else if ((nn_is_str(o) || repl_is_device(o)) && repl_arg_device_to("to", o, &device)) return NULL;
    }
    nn_tensor *moved = nn_to_device(SELF, device); /* self when already there */
    if (!moved || dtype < 0) return (nn_object *)moved;
    nn_tensor *r = nn_to_dtype(moved, (nn_dtype)dtype);
    NN_RELEASE(moved);
    return T(r);
}

/* In-place ops: return self. */
static nn_object *inplace_bin(nn_object *self, nn_object *args, nn_object *kwargs, const char *fname, int which)
{
    ARGS(2);
    double alpha = 1;
    const char *spec = which <= 1 ? "other, *, alpha=" : "other";
    if (repl_parse_args(fname, spec, args, kwargs, a) || repl_arg_double(fname, "alpha", 0, a[1], &alpha))
        return NULL;
    nn_tensor *y = repl_as_tensor(a[0]);
    if (!y) {
        if (nn_error_current() == NN_OK)
            nn_error_set(NN_ERR_TYPE, "%s(): argument 'other' (position 1) must be Tensor, not %s", fname,
                         repl_type_name(a[0]));
        return NULL;
    }
    int rc = 0;
    switch (which) {
    case 0: rc = nn_add_(SELF, y, alpha); break;
    case 1: rc = nn_add_(SELF, y, -alpha); break;
    case 2: rc = nn_mul_(SELF, y); break;
    case 3: rc = nn_div_(SELF, y); break;
    case 4: rc = nn_copy_(SELF, y); break;
    }
    NN_RELEASE(y);
    return rc ? NULL : nn_retain(self);
}

M(add_) { return inplace_bin(self, args, kwargs, "add_", 0); }
M(sub_) { return inplace_bin(self, args, kwargs, "sub_", 1); }
M(mul_) { return inplace_bin(self, args, kwargs, "mul_", 2); }
M(div_)
{
    if (repl_div_has_mode(kwargs)) return repl_div_mode(self, args, kwargs);
    return inplace_bin(self, args, kwargs, "div_", 3);
}

M(copy_)
{
    ARGS(2);
    nn_tensor *src = NULL;
    if (repl_parse_args("copy_", "src, non_blocking=", args, kwargs, a) ||
        repl_arg_tensor("copy_", "src", 1, a[0], &src) || nn_copy_recorded_(SELF, src))
        return NULL;
    return nn_retain(self);
}

M(zero_)
{
    ARGS(1);
    if (repl_parse_args("zero_", "", args, kwargs, a) || nn_zero_recorded_(SELF)) return NULL;
    return nn_retain(self);
}

M(fill_)
{
    ARGS(1);
    double v = 0;
    if (repl_parse_args("fill_", "value", args, kwargs, a)) return NULL;
    if (nn_is_complex(a[0])) return repl_fill_complex(SELF, a[0]) < 0 ? NULL : nn_retain(self);
    if (nn_is_tensor(a[0])) /* FillBackward3: the value's gradient too */
        return nn_fill_tensor_recorded_(SELF, NN_TENSOR(a[0])) ? NULL : nn_retain(self);
    if (repl_arg_double("fill_", "value", 1, a[0], &v) || nn_fill_recorded_(SELF, v)) return NULL;
    return nn_retain(self);
}

/* A non-bool mask as PyTorch 1.13's masked_fill kernel reads it: the first byte
   of each element (its low byte on little-endian machines), which must be 0 or 1:
   1 is True, and 256, 1.0 and 0.5 are False (their first byte is 0); 3 raises
   PyTorch's RuntimeError. (PyTorch 2 refuses every non-bool mask.) New reference. */
static nn_tensor *mask_low_bytes(nn_tensor *mask)
{
    nn_tensor *c = nn_contiguous(mask);
    int64_t n = c ? nn_numel(c) : 0;
    bool *flags = c ? nn_malloc((size_t)(n ? n : 1)) : NULL;
    nn_tensor *r = NULL, *hold = NULL;
    const unsigned char *bytes = flags ? nn_host_read(c, &hold) : NULL;
    if (bytes) {
        size_t item = nn_dtype_size(c->dtype);
        int64_t i = 0;
        for (; i < n && bytes[(size_t)i * item] <= 1; i++) flags[i] = bytes[(size_t)i * item];
        if (i < n) nn_error_set(NN_ERR_RUNTIME, "Mask tensor can take 0 and 1 values only");
        else r = nn_from_data(flags, c->ndim, c->sizes, NN_BOOL);
    }
    nn_free(flags);
    NN_RELEASE(hold);
    NN_RELEASE(c);
    return r;
}

/* masked_fill(mask, value): core's nn_masked_fill (MaskedFillBackward0/1). */
M(masked_fill)
{
    ARGS(2);
    nn_tensor *mask = NULL;
    double v = 0;
    if (repl_parse_args("masked_fill", "mask, value", args, kwargs, a) ||
        repl_arg_tensor("masked_fill", "mask", 1, a[0], &mask))
        return NULL;
    nn_tensor *value = NULL, *held = NULL;
    if (nn_is_tensor(a[1])) {
        if (NN_TENSOR(a[1])->ndim != 0) {
            nn_error_set(NN_ERR_RUNTIME, "masked_fill_ only supports a 0-dimensional value tensor, but got tensor "
                                         "with %d dimension(s).", NN_TENSOR(a[1])->ndim);
            return NULL;
        }
        value = NN_TENSOR(a[1]);
    } else if (nn_is_complex(a[1]) && !nn_dtype_is_complex(SELF->dtype)) {
        double im;
        nn_complex_parts(a[1], &v, &im);
        if (nn_check_real_value(SELF->dtype, im) < 0) return NULL;
    } else if (nn_is_complex(a[1])) {
        if (!(value = held = repl_as_tensor(a[1]))) return NULL;
    } else if (repl_arg_double("masked_fill", "value", 2, a[1], &v)) {
        return NULL;
    }
    nn_tensor *bool_mask = mask->dtype != NN_BOOL ? mask_low_bytes(mask) : NULL;
    nn_tensor *r = bool_mask || mask->dtype == NN_BOOL ? nn_masked_fill(SELF, bool_mask ? bool_mask : mask, value, v) : NULL;
    NN_RELEASE(bool_mask);
    NN_RELEASE(held);
    return T(r);
}

/* repeat(*sizes): core's nn_repeat (RepeatBackward0) */
M(repeat)
{
    int nd;
    int64_t reps[NN_MAX_DIMS];
    if (kwargs && nn_dict_len(kwargs)) {
        nn_object *moved = shape_kwargs_as_args(args, kwargs, 0, "repeats");
        if (!moved) {
            shape_kwargs_error("repeat", kwargs, 0, "repeats");
            return NULL;
        }
        nn_object *r = m_repeat(self, moved, NULL);
        nn_release(moved);
        return r;
    }
    if (shape_args_check("repeat", "repeats", "tuple of SymInts", args, 0)) return NULL;
    if (repl_shape_from_args("repeat", args, 0, nn_tuple_len(args), &nd, reps)) return NULL;
    return T(nn_repeat(SELF, nd, reps));
}

M(uniform_)
{
    ARGS(3);
    double lo = 0, hi = 1;
    if (repl_parse_args("uniform_", "from=, to=, *, generator=", args, kwargs, a) ||
        repl_arg_float("uniform_", "from", 1, args, a[0], &lo) || repl_arg_float("uniform_", "to", 2, args, a[1], &hi))
        return NULL;
    int rc = 0;
    REPL_WITH_GENERATOR("uniform_", a[2], rc = nn_uniform_(SELF, lo, hi));
    return rc ? NULL : nn_retain(self);
}

M(normal_)
{
    ARGS(3);
    double mean = 0, std = 1;
    if (repl_parse_args("normal_", "mean=, std=, *, generator=", args, kwargs, a) ||
        repl_arg_float("normal_", "mean", 1, args, a[0], &mean) || repl_arg_float("normal_", "std", 2, args, a[1], &std))
        return NULL;
    int rc = 0;
    REPL_WITH_GENERATOR("normal_", a[2], rc = nn_normal_(SELF, mean, std));
    return rc ? NULL : nn_retain(self);
}

M(requires_grad_)
{
    ARGS(1);
    bool rg = true;
    if (repl_parse_args("requires_grad_", "requires_grad=", args, kwargs, a) ||
        repl_arg_bool("requires_grad_", "requires_grad", 1, a[0], &rg) || nn_set_requires_grad(SELF, rg))
        return NULL;
    return nn_retain(self);
}

M(is_floating_point)
{
    ARGS(1);
    if (repl_parse_args("is_floating_point", "", args, kwargs, a)) return NULL;
    return nn_bool_new(nn_dtype_is_floating(SELF->dtype));
}

M(is_contiguous)
{
    ARGS(1);
    if (repl_parse_args("is_contiguous", "", args, kwargs, a)) return NULL;
    return nn_bool_new(nn_is_contiguous(SELF));
}

static const repl_method_def tensor_methods[] = {
    {"size", m_size,
     "size(dim=None) -> torch.Size or int\n"
     "Returns the size of the self tensor."},
    {"dim", m_dim,
     "dim() -> int\n"
     "Returns the number of dimensions of self tensor."},
    {"numel", m_numel,
     "numel() -> int\n"
     "Returns the total number of elements in the self tensor."},
    {"nelement", m_numel,
     "nelement() -> int\n"
     "Alias for numel()."},
    {"element_size", m_element_size,
     "element_size() -> int\n"
     "Returns the size in bytes of an individual element."},
    {"stride", m_stride,
     "stride(dim) -> tuple or int\n"
     "Returns the stride of self tensor."},
    {"storage_offset", m_storage_offset,
     "storage_offset() -> int\n"
     "Returns self tensor's offset in the underlying storage in terms of number of storage elements (not bytes)."},
    {"new_zeros", m_new_zeros,
     "new_zeros(size, *, dtype=None, device=None, requires_grad=False) -> Tensor\n"
     "Returns a Tensor of size size filled with 0; by default it has the same dtype as this tensor."},
    {"new_ones", m_new_ones,
     "new_ones(size, *, dtype=None, device=None, requires_grad=False) -> Tensor\n"
     "Returns a Tensor of size size filled with 1; by default it has the same dtype as this tensor."},
    {"new_empty", m_new_empty,
     "new_empty(size, *, dtype=None, device=None, requires_grad=False) -> Tensor\n"
     "Returns a Tensor of size size filled with uninitialized data; by default it has the same dtype as this tensor."},
    {"new_full", m_new_full,
     "new_full(size, fill_value, *, dtype=None, device=None, requires_grad=False) -> Tensor\n"
     "Returns a Tensor of size size filled with fill_value; by default it has the same dtype as this tensor."},
    {"type", m_type,
     "type(dtype=None, non_blocking=False) -> str or Tensor\n"
     "Returns the type if dtype is not provided, else casts this object to the specified type."},
    {"item", m_item,
     "item() -> number\n"
     "Returns the value of this tensor as a standard Python number."},
    {"tolist", m_tolist,
     "tolist() -> list or number\n"
     "Returns the tensor as a (nested) list."},
    {"backward", m_backward,
     "backward(gradient=None, retain_graph=None, create_graph=False, inputs=None)\n"
     "Computes the gradient of current tensor w.r.t. graph leaves."},
    {"retain_grad", m_retain_grad,
     "retain_grad() -> None\n"
     "Enables this Tensor to have their grad populated during backward."},
    {"register_hook", m_register_hook,
     "register_hook(hook)\n"
     "Registers a backward hook."},
    {"float", m_float,
     "float(memory_format=torch.preserve_format) -> Tensor\n"
     "self.float() is equivalent to self.to(torch.float32)."},
    {"double", m_double,
     "double(memory_format=torch.preserve_format) -> Tensor\n"
     "self.double() is equivalent to self.to(torch.float64)."},
    {"half", m_half,
     "half(memory_format=torch.preserve_format) -> Tensor\n"
     "self.half() is equivalent to self.to(torch.float16)."},
    {"bfloat16", m_bfloat16,
     "bfloat16(memory_format=torch.preserve_format) -> Tensor\n"
     "self.bfloat16() is equivalent to self.to(torch.bfloat16)."},
    {"long", m_long,
     "long(memory_format=torch.preserve_format) -> Tensor\n"
     "self.long() is equivalent to self.to(torch.int64)."},
    {"int", m_int,
     "int(memory_format=torch.preserve_format) -> Tensor\n"
     "self.int() is equivalent to self.to(torch.int32)."},
    {"bool", m_bool,
     "bool(memory_format=torch.preserve_format) -> Tensor\n"
     "self.bool() is equivalent to self.to(torch.bool)."},
    {"byte", m_byte,
     "byte(memory_format=torch.preserve_format) -> Tensor\n"
     "self.byte() is equivalent to self.to(torch.uint8)."},
    {"char", m_char,
     "char(memory_format=torch.preserve_format) -> Tensor\n"
     "self.char() is equivalent to self.to(torch.int8)."},
    {"short", m_short,
     "short(memory_format=torch.preserve_format) -> Tensor\n"
     "self.short() is equivalent to self.to(torch.int16)."},
    {"cpu", m_cpu,
     "cpu(memory_format=torch.preserve_format) -> Tensor\n"
     "Returns a copy of this object in CPU memory."},
    {"to", m_to,
     "to(*args, **kwargs) -> Tensor\n"
     "Performs Tensor dtype and/or device conversion."},
    {"cuda", repl_tensor_cuda,
     "cuda(device=None, non_blocking=False, memory_format=torch.preserve_format) -> Tensor\n"
     "Returns a copy of this object in CUDA memory (this build has no CUDA: AssertionError)."},
    {"add_", m_add_,
     "add_(other, *, alpha=1) -> Tensor\n"
     "In-place version of Tensor.add."},
    {"sub_", m_sub_,
     "sub_(other, *, alpha=1) -> Tensor\n"
     "In-place version of Tensor.sub."},
    {"mul_", m_mul_,
     "mul_(value) -> Tensor\n"
     "In-place version of Tensor.mul."},
    {"div_", m_div_,
     "div_(value, *, rounding_mode=None) -> Tensor\n"
     "In-place version of Tensor.div."},
    {"copy_", m_copy_,
     "copy_(src, non_blocking=False) -> Tensor\n"
     "Copies the elements from src into self tensor and returns self."},
    {"zero_", m_zero_,
     "zero_() -> Tensor\n"
     "Fills self tensor with zeros."},
    {"fill_", m_fill_,
     "fill_(value) -> Tensor\n"
     "Fills self tensor with the specified value."},
    {"masked_fill", m_masked_fill,
     "masked_fill(mask, value) -> Tensor\n"
     "A copy of self with value where the boolean mask (broadcast to self's shape) is True."},
    {"repeat", m_repeat,
     "repeat(*sizes) -> Tensor\n"
     "Repeats this tensor along the specified dimensions (tiles it sizes[i] times along dim i)."},
    {"uniform_", m_uniform_,
     "uniform_(from=0, to=1) -> Tensor\n"
     "Fills self tensor with numbers sampled from the continuous uniform distribution."},
    {"normal_", m_normal_,
     "normal_(mean=0, std=1, *, generator=None) -> Tensor\n"
     "Fills self tensor with elements samples from the normal distribution parameterized by mean and std."},
    {"requires_grad_", m_requires_grad_,
     "requires_grad_(requires_grad=True) -> Tensor\n"
     "Change if autograd should record operations on this tensor."},
    {"is_floating_point", m_is_floating_point,
     "is_floating_point() -> bool\n"
     "Returns True if the data type of self is a floating point data type."},
    {"is_contiguous", m_is_contiguous,
     "is_contiguous(memory_format=torch.contiguous_format) -> bool\n"
     "Returns True if self tensor is contiguous in memory in the order specified by memory format."},
    {NULL, NULL, NULL},
};

/* Methods that are torch functions with self first. */
static const repl_function_def tensor_fn_methods[] = {
    {"view", f_view,
     "view(*shape) -> Tensor\n"
     "Returns a new tensor with the same data as the self tensor but of a different shape."},
    {"expand", f_expand,
     "expand(*sizes) -> Tensor\n"
     "Returns a new view of the self tensor with singleton dimensions expanded to a larger size."},
    {"contiguous", f_contiguous,
     "contiguous(memory_format=torch.contiguous_format) -> Tensor\n"
     "Returns a contiguous in memory tensor containing the same data as self tensor."},
};

/* Whether torch.name is also the tensor method x.name (torch.cat is not). */
static bool is_method_too(const char *name)
{
    return strcmp(name, "cat") && strcmp(name, "stack") && strcmp(name, "where") && strcmp(name, "var_mean") &&
           strcmp(name, "std_mean");
}

/* torch.Tensor's methods in getattr's order: tensor_methods, tensor_fn_methods,
   then the torch functions that are methods too. */
bool repl_tensor_method_at(const repl_class_def *cls, size_t i, repl_method_doc *out)
{
    static const repl_method_def *const tables[] = {tensor_methods, NULL};
    const size_t n_own = sizeof tensor_methods / sizeof tensor_methods[0] - 1;
    const size_t n_fn = sizeof tensor_fn_methods / sizeof tensor_fn_methods[0];
    if (i < n_own) return repl_tables_method_at(tables, i, out);
    i -= n_own;
    const repl_function_def *d = NULL;
    if (i < n_fn) d = &tensor_fn_methods[i];
    else
        for (size_t k = 0, left = i - n_fn; !d && k < N_TENSOR_FUNCTIONS; k++)
            if (is_method_too(tensor_functions[k].name) && left-- == 0) d = &tensor_functions[k];
    if (!d) return false;
    *out = (repl_method_doc){d->name, d->doc, true};
    return true;
}

nn_object *repl_tensor_getattr(nn_tensor *t, const char *name)
{
    nn_object *self = &t->ob;
    if (!strcmp(name, "shape")) {
        if (nn_check_initialized(t)) return NULL;
        return repl_size_new(t->ndim, t->sizes);
    }
    if (!strcmp(name, "ndim")) return nn_int_new(t->ndim);
    if (!strcmp(name, "dtype")) return nn_retain(repl_dtype_object(t->dtype));
    if (!strcmp(name, "device")) return repl_tensor_device(t);
    if (!strcmp(name, "is_cuda")) return nn_bool_new(nn_device_of(t).type == NN_CUDA);
    /* PyTorch 1.13's other kind flags: nnscope has no such devices, layouts or dtypes */
    static const char *const never[] = {"is_xpu",  "is_mps",    "is_meta",      "is_ipu",    "is_vulkan", "is_ort",
                                        "is_mkldnn", "is_sparse", "is_sparse_csr", "is_quantized", "is_nested"};
    for (size_t i = 0; i < sizeof never / sizeof never[0]; i++)
        if (!strcmp(name, never[i])) return nn_bool_new(false);
    if (!strcmp(name, "requires_grad")) return nn_bool_new(t->requires_grad);
    if (!strcmp(name, "is_leaf")) return nn_bool_new(nn_is_leaf(t));
    if (!strcmp(name, "output_nr")) return nn_int_new(t->grad_fn ? t->output_nr : 0); /* which output of grad_fn */
    if (!strcmp(name, "_version")) return nn_int_new((int64_t)t->storage->version);
    if (!strcmp(name, "_base")) return t->base ? nn_retain(&t->base->ob) : nn_retain(nn_none()); /* a view's root */
    if (!strcmp(name, "retains_grad")) return nn_bool_new(t->retains_grad);
    if (!strcmp(name, "grad")) {
        nn_tensor *g = nn_grad(t);
        return g ? T(g) : nn_retain(nn_none());
    }
    if (!strcmp(name, "grad_fn")) return t->grad_fn ? nn_retain((nn_object *)t->grad_fn) : nn_retain(nn_none());
    if (!strcmp(name, "T")) return T(nn_T(t));
    if (!strcmp(name, "real") || !strcmp(name, "imag")) return repl_complex_method(t, name);
    if (!strcmp(name, "data")) return T(nn_data_alias(t)); /* a version counter of its own */
    nn_object *m = repl_method_lookup(tensor_methods, name, self);
    if (m || nn_error_current() != NN_OK) return m;
    for (size_t i = 0; i < sizeof tensor_fn_methods / sizeof tensor_fn_methods[0]; i++)
        if (!strcmp(tensor_fn_methods[i].name, name)) return repl_bound_function(&tensor_fn_methods[i], self);
    for (size_t i = 0; i < N_TENSOR_FUNCTIONS; i++)
        if (!strcmp(tensor_functions[i].name, name) && is_method_too(name))
            return repl_bound_function(&tensor_functions[i], self);
    if ((m = repl_math_method(t, name)) || nn_error_current() != NN_OK) return m;
    if ((m = repl_special_method(t, name)) || nn_error_current() != NN_OK) return m;
    if ((m = repl_misc_ops_method(t, name)) || nn_error_current() != NN_OK) return m;
    if ((m = repl_random_method(t, name)) || nn_error_current() != NN_OK) return m;
    if ((m = repl_select_method(t, name)) || nn_error_current() != NN_OK) return m;
    if ((m = repl_ops_more_method(t, name)) || nn_error_current() != NN_OK) return m;
    if ((m = repl_ops_extra_method(t, name)) || nn_error_current() != NN_OK) return m;
    if ((m = repl_numpy_method(t, name)) || nn_error_current() != NN_OK) return m;
    if ((m = repl_complex_method(t, name)) || nn_error_current() != NN_OK) return m;
    if ((m = repl_tensor_more_method(t, name)) || nn_error_current() != NN_OK) return m;
    if ((m = repl_tensor_lib_method(t, name)) || nn_error_current() != NN_OK) return m;
    if ((m = repl_storage_tensor_method(t, name)) || nn_error_current() != NN_OK) return m;
    nn_error_set(NN_ERR_ATTRIBUTE, "'%s' object has no attribute '%s'", t->ob.type->name, name);
    return NULL;
}

int repl_tensor_setattr(nn_tensor *t, const char *name, nn_object *value)
{
    if (!strcmp(name, "requires_grad")) {
        bool rg = false;
        if (repl_arg_bool("requires_grad", "value", 0, value, &rg)) return -1;
        return nn_set_requires_grad(t, rg);
    }
    if (!strcmp(name, "grad")) {
        if (nn_is_none(value)) {
            NN_SET(t->grad, NULL);
            return 0;
        }
        if (!nn_is_tensor(value)) /* sic: PyTorch 1.13's message has no space after "type" */
            return nn_error_set(NN_ERR_TYPE, "assigned grad expected to be a Tensor or None but got grad of type%s",
                                repl_type_name(value));
        NN_SET(t->grad, (nn_tensor *)nn_retain(value));
        return 0;
    }
    if (!strcmp(name, "data")) {
        if (!nn_is_tensor(value)) return nn_error_set(NN_ERR_TYPE, "Variable data has to be a tensor, but got %s",
                                                      repl_type_name(value));
        return nn_set_data(t, NN_TENSOR(value));
    }
    return nn_error_set(NN_ERR_ATTRIBUTE, "attribute '%s' of 'torch._C._TensorBase' objects is not writable", name);
}

/* ---------------------------------------------------------- operators */

nn_object *repl_tensor_binary(repl_binop op, nn_object *a, nn_object *b)
{
    nn_tensor *x = repl_as_tensor(a);
    if (!x) return NULL;
    nn_tensor *y = repl_as_tensor(b);
    if (!y) {
        NN_RELEASE(x);
        return NULL;
    }
    nn_tensor *r = NULL;
    bool a_num = !nn_is_tensor(a), b_num = !nn_is_tensor(b);
    switch (op) {
    /* number + tensor and number * tensor are the tensor's __radd__/__rmul__: add(tensor, number),
       so the node's next_functions list the tensor's first, as PyTorch's */
    case REPL_ADD: r = a_num ? nn_add(y, x) : nn_add(x, y); break;
    case REPL_SUB: r = a_num ? nn_rsub(y, x) : nn_sub(x, y); break;
    case REPL_MUL: r = a_num ? nn_mul(y, x) : nn_mul(x, y); break;
    case REPL_DIV:
        if (a_num) { /* number / tensor is the tensor's __rtruediv__: reciprocal, then times the number */
            nn_tensor *inv = nn_reciprocal(y);
            r = inv ? nn_mul(inv, x) : NULL;
            NN_RELEASE(inv);
        } else {
            r = nn_div(x, y);
        }
        break;
    case REPL_FLOORDIV: r = nn_floor_divide(x, y); break;
    case REPL_MOD: r = nn_remainder(x, y); break;
    case REPL_POW:
        if (nn_is_complex(a) || nn_is_complex(b)) r = nn_pow(x, y); /* a Python complex: wrapped in x or y */
        else if (b_num) r = nn_pow_scalar(x, nn_float_value(b));
        else if (a_num) r = nn_rpow_scalar(nn_float_value(a), !nn_is_float(a), y);
        else r = nn_pow(x, y);
        break;
    case REPL_MATMUL: r = nn_matmul(x, y); break;
    case REPL_LT: r = nn_compare(x, y, NN_LT); break;
    case REPL_LE: r = nn_compare(x, y, NN_LE); break;
    case REPL_GT: r = nn_compare(x, y, NN_GT); break;
    case REPL_GE: r = nn_compare(x, y, NN_GE); break;
    case REPL_EQ: r = nn_compare(x, y, NN_EQ); break;
    case REPL_NE: r = nn_compare(x, y, NN_NE); break;
    case REPL_AND_BITS: r = nn_bitwise_and(x, y); break;
    case REPL_OR_BITS: r = nn_bitwise_or(x, y); break;
    case REPL_XOR_BITS: r = nn_bitwise_xor(x, y); break;
    default: break;
    }
    NN_RELEASE(x);
    NN_RELEASE(y);
    return T(r);
}

nn_object *repl_tensor_unary(repl_unop op, nn_tensor *a)
{
    switch (op) {
    case REPL_NEG: return T(nn_neg(a));
    case REPL_POS: return nn_retain(&a->ob);
    case REPL_INVERT:
        if (nn_dtype_is_floating(a->dtype)) {
            nn_error_set(NN_ERR_TYPE, "~ (operator.invert) is only implemented on integer and Boolean-type tensors");
            return NULL;
        }
        return T(nn_bitwise_not(a));
    }
    return NULL;
}

/* ------------------------------------------------------------ indexing */

#define MAX_ITEMS 32

typedef struct index_buf {
    nn_index_item items[MAX_ITEMS];
    nn_tensor *owned[MAX_ITEMS];
    int n, n_owned;
    bool byte_mask; /* a uint8 tensor was taken as a bool mask (deprecated in PyTorch) */
} index_buf;

static void index_buf_free(index_buf *ib)
{
    for (int i = 0; i < ib->n_owned; i++) NN_RELEASE(ib->owned[i]);
}

/* An index or value as natives receive it (repl_native_args): an object that carries a
   built-in value (np.int64(2), np.float32(1.5), a list subclass) gives that value, in a
   tuple of indices too. A new reference, or NULL with MemoryError. */
static nn_object *native_value(nn_object *o)
{
    if (nn_is_tensor(o) || nn_is_int(o) || nn_is_none(o) || nn_is_float(o) || nn_is_bool(o)) return nn_retain(o);
    if (nn_is_instance(o, &nn_tuple_type)) return repl_native_args(o);
    nn_object *one = nn_tuple_pack(1, o), *u = one ? repl_native_args(one) : NULL;
    nn_object *r = u ? nn_retain(nn_tuple_get(u, 0)) : NULL;
    NN_RELEASE(u);
    NN_RELEASE(one);
    return r;
}

static int slice_int(nn_object *o, int64_t *v, bool *has)
{
    if (nn_is_none(o)) {
        *has = false;
        return 0;
    }
    if (nn_is_int(o) || nn_is_bool(o)) {
        *v = nn_int_value(o);
        *has = true;
        return 0;
    }
    if (nn_is_tensor(o) && nn_numel(NN_TENSOR(o)) == 1 && !nn_dtype_is_floating(NN_TENSOR(o)->dtype)) {
        double d;
        if (nn_item(NN_TENSOR(o), &d)) return -1;
        *v = (int64_t)d;
        *has = true;
        return 0;
    }
    nn_object *u = native_value(o); /* np.int64(1): its int */
    int rc = !u ? -1 : u != o ? slice_int(u, v, has) : -2;
    NN_RELEASE(u);
    if (rc != -2) return rc;
    return nn_error_set(NN_ERR_TYPE, "slice indices must be integers or None or have an __index__ method");
}

/* a tensor index (borrowed): a byte tensor indexes as a mask */
static int tensor_item(index_buf *ib, nn_index_item *it, nn_tensor *t)
{
    if (t->dtype == NN_UINT8) {
        nn_tensor *mask = nn_to_dtype(t, NN_BOOL);
        if (!mask) return -1;
        ib->owned[ib->n_owned++] = mask;
        ib->byte_mask = true;
        t = mask;
    }
    it->kind = NN_INDEX_TENSOR;
    it->tensor = t;
    return 0;
}

static int add_item(index_buf *ib, nn_object *k)
{
    if (ib->n >= MAX_ITEMS) return nn_error_set(NN_ERR_INDEX, "too many indices");
    nn_index_item *it = &ib->items[ib->n];
    memset(it, 0, sizeof *it);
    nn_tensor *nd = nn_is_tensor(k) ? NN_TENSOR(k) : repl_numpy_tensor_of(k); /* an ndarray: its tensor */
    if (nd) {
        if (tensor_item(ib, it, nd)) return -1;
    } else if (nn_is_int(k)) {
        it->kind = NN_INDEX_INT;
        it->start = nn_int_value(k);
    } else if (nn_is_none(k)) {
        it->kind = NN_INDEX_NONE;
    } else if (repl_is_ellipsis(k)) {
        it->kind = NN_INDEX_ELLIPSIS;
    } else if (repl_is_slice(k)) {
        nn_object *s, *e, *st;
        repl_slice_parts(k, &s, &e, &st);
        int64_t step = 1;
        bool has_step = false;
        int rc = slice_int(s, &it->start, &it->has_start);
        if (!rc) rc = slice_int(e, &it->stop, &it->has_stop);
        if (!rc) rc = slice_int(st, &step, &has_step);
        NN_RELEASE(s);
        NN_RELEASE(e);
        NN_RELEASE(st);
        if (rc) return -1;
        if (step <= 0) return nn_error_set(NN_ERR_VALUE, step == 0 ? "slice step cannot be zero"
                                                                   : "step must be greater than zero");
        it->kind = NN_INDEX_SLICE;
        it->step = step;
    } else if (nn_is_list(k) || nn_is_bool(k) || !strcmp(repl_type_name(k), "range")) {
        bool range = !nn_is_list(k) && !nn_is_bool(k);
        nn_object *list = range ? repl_iterable_to_list(k) : (NN_RETAIN(k), k); /* a range: its ints */
        nn_tensor *t = list ? nn_tensor_from_nested(list, -1) : NULL;
        NN_RELEASE(list);
        if (!t) return -1;
        ib->owned[ib->n_owned++] = t;
        it->kind = NN_INDEX_TENSOR;
        it->tensor = t;
    } else if (repl_is_bigint(k)) {
        return nn_error_set(NN_ERR_RUNTIME, "Overflow when unpacking long");
    } else {
        return nn_error_set(NN_ERR_INDEX,
                            "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
                            "valid indices (got %s)",
                            repl_type_name(k));
    }
    ib->n++;
    return 0;
}

static int warn_byte_index(void)
{
    return nn_warn("UserWarning", "indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool "
                                  "instead. (Triggered internally at  ./aten/src/ATen/native/IndexingUtils.h:27.)");
}

static int build_index(index_buf *ib, nn_object *key)
{
    ib->n = ib->n_owned = 0;
    ib->byte_mask = false;
    if (nn_is_instance(key, &nn_tuple_type)) {
        for (size_t i = 0; i < nn_tuple_len(key); i++)
            if (add_item(ib, nn_tuple_get(key, i))) return -1;
        return 0;
    }
    /* PyTorch's NumPy heuristic: a sequence of fewer than 32 sequences is a tuple, so an
       n-d array (n >= 2) of fewer than 32 rows indexes as its rows, one axis each */
    nn_tensor *nd = repl_numpy_tensor_of(key);
    if (nd && nd->ndim >= 2 && nd->sizes[0] < MAX_ITEMS && nd->dtype != NN_UINT8) {
        for (int64_t i = 0; i < nd->sizes[0]; i++) {
            nn_tensor *row = nn_select(nd, 0, i);
            if (!row) return -1;
            ib->owned[ib->n_owned++] = row;
            memset(&ib->items[ib->n], 0, sizeof ib->items[ib->n]);
            if (tensor_item(ib, &ib->items[ib->n], row)) return -1;
            ib->n++;
        }
        return 0;
    }
    return add_item(ib, key);
}

nn_object *repl_tensor_getitem(nn_tensor *t, nn_object *key)
{
    index_buf ib;
    nn_tensor *r = NULL;
    if (!(key = native_value(key))) return NULL;
    if (!build_index(&ib, key) && (!ib.byte_mask || warn_byte_index() == 0)) r = nn_index(t, ib.n, ib.items);
    index_buf_free(&ib);
    NN_RELEASE(key);
    return T(r);
}

static int tensor_setitem(nn_tensor *t, nn_object *key, nn_object *value);

int repl_tensor_setitem(nn_tensor *t, nn_object *key, nn_object *value)
{
    nn_tensor *sv = repl_numpy_scalar_tensor(value); /* PyTorch takes NumPy's integers and float64 only */
    if (sv) {
        nn_dtype dt = sv->dtype;
        NN_RELEASE(sv);
        if (dt == NN_BOOL || (nn_dtype_is_floating(dt) && dt != NN_FLOAT64))
            return nn_error_set(NN_ERR_TYPE, "can't assign a numpy.%s%s to a torch.%sTensor", nn_dtype_short_name(dt),
                                dt == NN_BOOL ? "_" : "", nn_dtype_scalar_name(t->dtype));
    } else if (nn_error_current()) {
        return -1;
    }
    nn_object *k = native_value(key), *v = k ? native_value(value) : NULL;
    int rc = v ? tensor_setitem(t, k, v) : -1;
    NN_RELEASE(k);
    NN_RELEASE(v);
    return rc;
}

static int tensor_setitem(nn_tensor *t, nn_object *key, nn_object *value)
{
    nn_tensor *v = repl_as_tensor(value);
    if (!v) {
        if (nn_error_current() == NN_OK)
            nn_error_set(NN_ERR_TYPE, "can't assign a %s to a %s", repl_type_name(value), "Tensor");
        return -1;
    }
    index_buf ib;
    int rc = build_index(&ib, key);
    if (!rc && ib.byte_mask) {
        /* one mask and one value: PyTorch's masked_fill_, which words its warning its own way */
        if (ib.n == 1 && nn_numel(v) == 1)
            rc = nn_warn("UserWarning", "masked_fill_ received a mask with dtype torch.uint8, this behavior is now "
                                        "deprecated,please use a mask with dtype torch.bool instead. (Triggered "
                                        "internally at  ./aten/src/ATen/native/TensorAdvancedIndexing.cpp:1646.)");
        else
            rc = warn_byte_index();
    }
    if (!rc) rc = nn_index_put_(t, ib.n, ib.items, v);
    index_buf_free(&ib);
    NN_RELEASE(v);
    return rc;
}

nn_object *repl_tensor_iterate(nn_tensor *t)
{
    if (t->ndim == 0) {
        nn_error_set(NN_ERR_TYPE, "iteration over a 0-d tensor");
        return NULL;
    }
    nn_object *l = nn_list_new((size_t)t->sizes[0]);
    if (!l) return NULL;
    for (int64_t i = 0; i < t->sizes[0]; i++) {
        nn_tensor *s = nn_select(t, 0, i);
        if (!s || nn_list_append(l, T(s))) {
            NN_RELEASE(s);
            NN_RELEASE(l);
            return NULL;
        }
        NN_RELEASE(s);
    }
    return l;
}

int repl_tensor_truth(nn_tensor *t)
{
    int64_t n = nn_numel(t);
    if (n == 0) return nn_error_set(NN_ERR_RUNTIME, "Boolean value of Tensor with no values is ambiguous");
    if (n > 1) return nn_error_set(NN_ERR_RUNTIME, "Boolean value of Tensor with more than one value is ambiguous");
    double v;
    if (nn_item(t, &v)) return -1;
    return v != 0;
}

/* ------------------------------------------------------- grad_fn nodes */

static nn_object *node_name(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args("name", "", args, kwargs, a)) return NULL;
    if (self->type == &nn_accumulate_grad_type) return nn_str_new("torch::autograd::AccumulateGrad");
    if (self->type == &nn_node_type) {
        const char *name = nn_node_name((nn_node *)self);
        /* the C++ nodes whose name() is their qualified class name */
        if (!strcmp(name, "CopySlices") || !strcmp(name, "CopyBackwards") || !strcmp(name, "NotImplemented"))
            return nn_str_format("torch::autograd::%s", name);
        return nn_str_new(name);
    }
    char *r = nn_repr(self);
    if (!r) return NULL;
    /* "<AddBackward0 object at 0x...>" */
    char *sp = strchr(r, ' ');
    nn_object *s = nn_str_from(r + 1, sp ? (size_t)(sp - r - 1) : strlen(r + 1));
    nn_free(r);
    return s;
}

static const repl_method_def node_methods[] = {
    {"name", node_name,
     "name() -> str\n"
     "Returns the name of the node, e.g. \"AddBackward0\"."},
    {NULL, NULL, NULL},
};

nn_object *repl_node_getattr(nn_object *node, const char *name)
{
    if (!strcmp(name, "name")) return repl_bound_method(&node_methods[0], node);
    if (node->type == &nn_accumulate_grad_type) {
        if (!strcmp(name, "variable")) return nn_retain(&nn_accumulate_grad_variable(node)->ob);
        if (!strcmp(name, "next_functions")) return nn_tuple_new(0);
        nn_error_set(NN_ERR_ATTRIBUTE, "'AccumulateGrad' object has no attribute '%s'", name);
        return NULL;
    }
    if (!strcmp(name, "next_functions")) return nn_node_next_functions(node);
    if (nn_custom_state((nn_node *)node)) return repl_custom_node_getattr(node, name); /* the ctx's */
    char *r = nn_repr(node);
    if (!r) return NULL;
    char *sp = strchr(r, ' ');
    if (sp) *sp = 0;
    nn_error_set(NN_ERR_ATTRIBUTE, "'%s' object has no attribute '%s'", r + 1, name);
    nn_free(r);
    return NULL;
}

/* thandle getattr */
nn_object *repl_thandle_getattr(nn_object *o, const char *name, bool *handled)
{
    if (o->type != &thandle_type) return NULL;
    *handled = true;
    if (!strcmp(name, "remove")) return repl_bound_method(&thandle_methods[0], o);
    if (!strcmp(name, "id")) return nn_int_new(((thandle *)o)->id);
    nn_error_set(NN_ERR_ATTRIBUTE, "'RemovableHandle' object has no attribute '%s'", name);
    return NULL;
}
