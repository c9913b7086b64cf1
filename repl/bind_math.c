/*
 * bind_math.c — torch's elementwise math beyond bind_tensor.c's (sin, cos,
 * ..., erfinv, rsqrt, reciprocal, trunc, frac, nan_to_num, clamp_min/max,
 * atan2, hypot, logaddexp, xlogy, lerp, logsumexp) as torch functions and
 * tensor methods, and their in-place methods (sin_, ...). The ops are
 * core/mathfn.c's.
 */
#include <string.h>

#include "bind_int.h"

#define ARGS(n) nn_object *a[n] = {0}
static nn_object *T(nn_tensor *t) { return (nn_object *)t; }

#define UNARY(fname)                                                                                                   \
    static nn_object *f_##fname(void *ud, nn_object *args, nn_object *kwargs)                                          \
    {                                                                                                                  \
        ARGS(2);                                                                                                       \
        nn_tensor *x = NULL;                                                                                           \
        if (repl_parse_args(#fname, "input, *, out=", args, kwargs, a) ||                                              \
            repl_arg_tensor(#fname, "input", 1, a[0], &x) || no_out(#fname, a[1]))                                    \
            return NULL;                                                                                               \
        return T(nn_##fname(x));                                                                                       \
    }                                                                                                                  \
    static nn_object *m_##fname##_(nn_object *self, nn_object *args, nn_object *kwargs)                                \
    {                                                                                                                  \
        if (repl_parse_args(#fname "_", "", args, kwargs, NULL)) return NULL;                                          \
        return nn_math_inplace(NN_TENSOR(self), nn_##fname) ? NULL : nn_retain(self);                                  \
    }

/* out= is accepted as None only */
static int no_out(const char *f, nn_object *o)
{
    if (!o || nn_is_none(o)) return 0;
    return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "%s: out= is not supported", f);
}

UNARY(sin)
UNARY(cos)
UNARY(tan)
UNARY(asin)
UNARY(acos)
UNARY(atan)
UNARY(sinh)
UNARY(cosh)
UNARY(asinh)
UNARY(acosh)
UNARY(atanh)
UNARY(log2)
UNARY(log10)
UNARY(log1p)
UNARY(expm1)
UNARY(exp2)
UNARY(erf)
UNARY(erfc)
UNARY(erfinv)
UNARY(rsqrt)
UNARY(reciprocal)
UNARY(trunc)
UNARY(frac)

/* A tensor, or a number as a wrapped 0-dim tensor (new reference in *owned). */
static int tensor_or_number(const char *f, const char *name, int pos, nn_object *o, nn_tensor **out, nn_tensor **owned)
{
    *owned = NULL;
    if (o && (nn_is_int(o) || nn_is_float(o) || nn_is_bool(o))) {
        *out = *owned = nn_wrapped_number(nn_float_value(o), !nn_is_float(o));
        return *out ? 0 : -1;
    }
    return repl_arg_tensor(f, name, pos, o, out);
}

static nn_object *binary(const char *f, nn_object *args, nn_object *kwargs, bool numbers,
                         nn_tensor *(*op)(nn_tensor *, nn_tensor *))
{
    ARGS(3);
    nn_tensor *x = NULL, *y = NULL, *own_x = NULL, *own_y = NULL;
    if (repl_parse_args(f, "input, other, *, out=", args, kwargs, a) || no_out(f, a[2])) return NULL;
    int rc = numbers ? tensor_or_number(f, "input", 1, a[0], &x, &own_x) : repl_arg_tensor(f, "input", 1, a[0], &x);
    if (rc == 0) rc = numbers ? tensor_or_number(f, "other", 2, a[1], &y, &own_y) : repl_arg_tensor(f, "other", 2, a[1], &y);
    nn_tensor *r = rc == 0 ? op(x, y) : NULL;
    NN_RELEASE(own_x);
    NN_RELEASE(own_y);
    return T(r);
}

static nn_object *f_atan2(void *ud, nn_object *args, nn_object *kwargs) { return binary("atan2", args, kwargs, false, nn_atan2); }
static nn_object *f_hypot(void *ud, nn_object *args, nn_object *kwargs) { return binary("hypot", args, kwargs, false, nn_hypot); }
static nn_object *f_logaddexp(void *ud, nn_object *args, nn_object *kwargs)
{
    return binary("logaddexp", args, kwargs, false, nn_logaddexp);
}
static nn_object *f_xlogy(void *ud, nn_object *args, nn_object *kwargs) { return binary("xlogy", args, kwargs, true, nn_xlogy); }

static nn_object *clamp_one(const char *f, const char *name, nn_object *args, nn_object *kwargs, bool is_min)
{
    ARGS(2);
    nn_tensor *x = NULL;
    double v = 0;
    if (repl_parse_args(f, is_min ? "input, min" : "input, max", args, kwargs, a) ||
        repl_arg_tensor(f, "input", 1, a[0], &x))
        return NULL;
    if (a[1] && nn_is_tensor(a[1])) return repl_clamp_one_tensor(x, NN_TENSOR(a[1]), is_min);
    if (repl_arg_double(f, name, 2, a[1], &v)) return NULL;
    return T(is_min ? nn_clamp_min(x, v) : nn_clamp_max(x, v));
}
static nn_object *f_clamp_min(void *ud, nn_object *args, nn_object *kwargs) { return clamp_one("clamp_min", "min", args, kwargs, true); }
static nn_object *f_clamp_max(void *ud, nn_object *args, nn_object *kwargs) { return clamp_one("clamp_max", "max", args, kwargs, false); }

static nn_object *f_nan_to_num(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    nn_tensor *x = NULL;
    double nan = 0, pinf = 0, ninf = 0;
    const char *f = "nan_to_num";
    if (repl_parse_args(f, "input, nan=, posinf=, neginf=, *, out=", args, kwargs, a) ||
        repl_arg_tensor(f, "input", 1, a[0], &x) || repl_arg_double(f, "nan", 2, a[1], &nan) ||
        repl_arg_double(f, "posinf", 3, a[2], &pinf) || repl_arg_double(f, "neginf", 4, a[3], &ninf) || no_out(f, a[4]))
        return NULL;
    bool has_p = a[2] && !nn_is_none(a[2]), has_n = a[3] && !nn_is_none(a[3]);
    return T(nn_nan_to_num(x, nan, has_p ? &pinf : NULL, has_n ? &ninf : NULL));
}

static nn_object *f_lerp(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_tensor *x = NULL, *end = NULL, *w = NULL;
    double wv = 0;
    const char *f = "lerp";
    if (repl_parse_args(f, "input, end, weight, *, out=", args, kwargs, a) || repl_arg_tensor(f, "input", 1, a[0], &x) ||
        repl_arg_tensor(f, "end", 2, a[1], &end) || no_out(f, a[3]))
        return NULL;
    if (nn_is_tensor(a[2])) w = NN_TENSOR(a[2]);
    else if (repl_arg_double(f, "weight", 3, a[2], &wv)) return NULL;
    return T(nn_lerp(x, end, w, wv));
}

static nn_object *f_logsumexp(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_tensor *x = NULL;
    int n = 0, dims[NN_MAX_DIMS];
    bool keepdim = false;
    const char *f = "logsumexp";
    if (repl_parse_args(f, "input, dim, keepdim=, *, out=", args, kwargs, a) ||
        repl_arg_tensor(f, "input", 1, a[0], &x) || repl_arg_dims(f, "dim", 2, a[1], &n, dims) ||
        repl_arg_bool(f, "keepdim", 3, a[2], &keepdim) || no_out(f, a[3]))
        return NULL;
    if (n == 0) {
        nn_error_set(NN_ERR_TYPE, "logsumexp(): argument 'dim' must be tuple of ints, not NoneType");
        return NULL;
    }
    return T(nn_logsumexp(x, n, dims, keepdim));
}

static const repl_function_def math_functions[] = {
    {"sin", f_sin,
     "sin(input, *, out=None) -> Tensor\n"
     "Returns a new tensor with the sine of the elements of input."},
    {"cos", f_cos,
     "cos(input, *, out=None) -> Tensor\n"
     "Returns a new tensor with the cosine of the elements of input."},
    {"tan", f_tan,
     "tan(input, *, out=None) -> Tensor\n"
     "Returns a new tensor with the tangent of the elements of input."},
    {"asin", f_asin,
     "asin(input, *, out=None) -> Tensor\n"
     "Returns a new tensor with the arcsine of the elements of input."},
    {"acos", f_acos,
     "acos(input, *, out=None) -> Tensor\n"
     "Computes the inverse cosine of each element in input."},
    {"atan", f_atan,
     "atan(input, *, out=None) -> Tensor\n"
     "Returns a new tensor with the arctangent of the elements of input."},
    {"sinh", f_sinh,
     "sinh(input, *, out=None) -> Tensor\n"
     "Returns a new tensor with the hyperbolic sine of the elements of input."},
    {"cosh", f_cosh,
     "cosh(input, *, out=None) -> Tensor\n"
     "Returns a new tensor with the hyperbolic cosine of the elements of input."},
    {"asinh", f_asinh,
     "asinh(input, *, out=None) -> Tensor\n"
     "Returns a new tensor with the inverse hyperbolic sine of the elements of input."},
    {"acosh", f_acosh,
     "acosh(input, *, out=None) -> Tensor\n"
     "Returns a new tensor with the inverse hyperbolic cosine of the elements of input."},
    {"atanh", f_atanh,
     "atanh(input, *, out=None) -> Tensor\n"
     "Returns a new tensor with the inverse hyperbolic tangent of the elements of input."},
    {"log2", f_log2,
     "log2(input, *, out=None) -> Tensor\n"
     "Returns a new tensor with the logarithm to the base 2 of the elements of input."},
    {"log10", f_log10,
     "log10(input, *, out=None) -> Tensor\n"
     "Returns a new tensor with the logarithm to the base 10 of the elements of input."},
    {"log1p", f_log1p,
     "log1p(input, *, out=None) -> Tensor\n"
     "Returns a new tensor with the natural logarithm of (1 + input)."},
    {"expm1", f_expm1,
     "expm1(input, *, out=None) -> Tensor\n"
     "Computes the exponential of the elements minus 1 of input."},
    {"exp2", f_exp2,
     "exp2(input, *, out=None) -> Tensor\n"
     "Computes the base two exponential function of input."},
    {"erf", f_erf,
     "erf(input, *, out=None) -> Tensor\n"
     "Computes the error function of input."},
    {"erfc", f_erfc,
     "erfc(input, *, out=None) -> Tensor\n"
     "Computes the complementary error function of input."},
    {"erfinv", f_erfinv,
     "erfinv(input, *, out=None) -> Tensor\n"
     "Computes the inverse error function of input."},
    {"rsqrt", f_rsqrt,
     "rsqrt(input, *, out=None) -> Tensor\n"
     "Returns a new tensor with the reciprocal of the square-root of each of the elements of input."},
    {"reciprocal", f_reciprocal,
     "reciprocal(input, *, out=None) -> Tensor\n"
     "Returns a new tensor with the reciprocal of the elements of input."},
    {"trunc", f_trunc,
     "trunc(input, *, out=None) -> Tensor\n"
     "Returns a new tensor with the truncated integer values of the elements of input."},
    {"frac", f_frac,
     "frac(input, *, out=None) -> Tensor\n"
     "Computes the fractional portion of each element in input."},
    {"nan_to_num", f_nan_to_num,
     "nan_to_num(input, nan=0.0, posinf=None, neginf=None, *, out=None) -> Tensor\n"
     "Replaces NaN, positive infinity, and negative infinity values in input with the values specified by nan, posinf, and neginf."},
    {"clamp_min", f_clamp_min,
     "clamp_min(input, min) -> Tensor\n"
     "Clamps all elements in input to be larger or equal to min."},
    {"clamp_max", f_clamp_max,
     "clamp_max(input, max) -> Tensor\n"
     "Clamps all elements in input to be smaller or equal to max."},
    {"atan2", f_atan2,
     "atan2(input, other, *, out=None) -> Tensor\n"
     "Element-wise arctangent of input / other with consideration of the quadrant."},
    {"hypot", f_hypot,
     "hypot(input, other, *, out=None) -> Tensor\n"
     "Given the legs of a right triangle, return its hypotenuse."},
    {"logaddexp", f_logaddexp,
     "logaddexp(input, other, *, out=None) -> Tensor\n"
     "Logarithm of the sum of exponentiations of the inputs."},
    {"xlogy", f_xlogy,
     "xlogy(input, other, *, out=None) -> Tensor\n"
     "Computes input * log(other), 0 where input is 0."},
    {"lerp", f_lerp,
     "lerp(input, end, weight, *, out=None) -> Tensor\n"
     "Does a linear interpolation of two tensors start (given by input) and end based on a scalar or tensor weight."},
    {"logsumexp", f_logsumexp,
     "logsumexp(input, dim, keepdim=False, *, out=None) -> Tensor\n"
     "Returns the log of summed exponentials of each row of the input tensor in the given dimension dim."},
};

static const repl_method_def math_inplace[] = {
    {"sin_", m_sin_,
     "sin_() -> Tensor\n"
     "In-place version of sin()."},
    {"cos_", m_cos_,
     "cos_() -> Tensor\n"
     "In-place version of cos()."},
    {"tan_", m_tan_,
     "tan_() -> Tensor\n"
     "In-place version of tan()."},
    {"asin_", m_asin_,
     "asin_() -> Tensor\n"
     "In-place version of asin()."},
    {"acos_", m_acos_,
     "acos_() -> Tensor\n"
     "In-place version of acos()."},
    {"atan_", m_atan_,
     "atan_() -> Tensor\n"
     "In-place version of atan()."},
    {"sinh_", m_sinh_,
     "sinh_() -> Tensor\n"
     "In-place version of sinh()."},
    {"cosh_", m_cosh_,
     "cosh_() -> Tensor\n"
     "In-place version of cosh()."},
    {"asinh_", m_asinh_,
     "asinh_() -> Tensor\n"
     "In-place version of asinh()."},
    {"acosh_", m_acosh_,
     "acosh_() -> Tensor\n"
     "In-place version of acosh()."},
    {"atanh_", m_atanh_,
     "atanh_() -> Tensor\n"
     "In-place version of atanh()."},
    {"log2_", m_log2_,
     "log2_() -> Tensor\n"
     "In-place version of log2()."},
    {"log10_", m_log10_,
     "log10_() -> Tensor\n"
     "In-place version of log10()."},
    {"log1p_", m_log1p_,
     "log1p_() -> Tensor\n"
     "In-place version of log1p()."},
    {"expm1_", m_expm1_,
     "expm1_() -> Tensor\n"
     "In-place version of expm1()."},
    {"exp2_", m_exp2_,
     "exp2_() -> Tensor\n"
     "In-place version of exp2()."},
    {"erf_", m_erf_,
     "erf_() -> Tensor\n"
     "In-place version of erf()."},
    {"erfc_", m_erfc_,
     "erfc_() -> Tensor\n"
     "In-place version of erfc()."},
    {"erfinv_", m_erfinv_,
     "erfinv_() -> Tensor\n"
     "In-place version of erfinv()."},
    {"rsqrt_", m_rsqrt_,
     "rsqrt_() -> Tensor\n"
     "In-place version of rsqrt()."},
    {"reciprocal_", m_reciprocal_,
     "reciprocal_() -> Tensor\n"
     "In-place version of reciprocal()."},
    {"trunc_", m_trunc_,
     "trunc_() -> Tensor\n"
     "In-place version of trunc()."},
    {"frac_", m_frac_,
     "frac_() -> Tensor\n"
     "In-place version of frac()."},
    {NULL, NULL, NULL},
};

int repl_math_add_functions(nn_object *torch)
{
    return repl_namespace_add_fns(torch, math_functions, sizeof math_functions / sizeof math_functions[0]);
}

nn_object *repl_math_method(nn_tensor *t, const char *name)
{
    for (size_t i = 0; i < sizeof math_functions / sizeof math_functions[0]; i++)
        if (!strcmp(math_functions[i].name, name)) return repl_bound_function(&math_functions[i], &t->ob);
    return repl_method_lookup(math_inplace, name, &t->ob);
}
