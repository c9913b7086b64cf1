/*
 * mod_cmath.c — the module cmath: the complex functions with CPython 3.11's
 * algorithms for finite arguments (cmathmodule.c's scalings near overflow and
 * underflow, log1p near |z| = 1, the identities that make acos, asin, asinh,
 * atanh accurate), so that their results are CPython's to the bit; the C99
 * functions (Annex G) for infinite and NaN parts, with ValueError where the
 * result is NaN from no NaN. Errors as CPython's: ValueError "math domain
 * error", OverflowError "math range error", TypeError "must be real number,
 * not str". Also phase, polar, rect, isfinite, isinf, isnan, isclose and the
 * constants pi, e, tau, inf, infj, nan, nanj.
 */
#include <complex.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "bigint.h"
#include "stdlib_int.h"

typedef struct cz {
    double re, im;
} cz;

#define LARGE_DOUBLE (DBL_MAX / 4.)
#define SCALE_UP (2 * (DBL_MANT_DIG / 2) + 1)
#define SCALE_DOWN (-(SCALE_UP + 1) / 2)

static double log_large_double(void) { return log(LARGE_DOUBLE); }
static double sqrt_large_double(void) { return sqrt(LARGE_DOUBLE); }
static double sqrt_dbl_min(void) { return sqrt(DBL_MIN); }

/* The argument as a complex number: complex, int, bool, float or what float() takes. 0 or -1. */
static int complex_arg(nn_object *o, cz *z)
{
    if (nn_is_complex(o)) {
        nn_complex_parts(o, &z->re, &z->im);
        return 0;
    }
    z->im = 0;
    if (repl_is_bigint(o)) return repl_int_to_double(o, &z->re);
    return repl_mod_real(o, &z->re);
}

static bool both_finite(cz z) { return isfinite(z.re) && isfinite(z.im); }

static cz c_sqrt(cz z)
{
    if (z.re == 0. && z.im == 0.) return (cz){0., z.im};
    double ax = fabs(z.re), ay = fabs(z.im), s;
    if (ax < DBL_MIN && ay < DBL_MIN) {
        ax = ldexp(ax, SCALE_UP);
        s = ldexp(sqrt(ax + hypot(ax, ldexp(ay, SCALE_UP))), SCALE_DOWN);
    } else {
        ax /= 8.;
        s = 2. * sqrt(ax + hypot(ax, ay / 8.));
    }
    double d = ay / (2. * s);
    if (z.re >= 0.) return (cz){s, copysign(d, z.im)};
    return (cz){d, copysign(s, z.im)};
}

static cz c_exp(cz z, int *err)
{
    double l;
    cz r;
    if (z.re > log_large_double()) {
        l = exp(z.re - 1.);
        r = (cz){l * cos(z.im) * M_E, l * sin(z.im) * M_E};
    } else {
        l = exp(z.re);
        r = (cz){l * cos(z.im), l * sin(z.im)};
    }
    if (isinf(r.re) || isinf(r.im)) *err = ERANGE;
    return r;
}

static cz c_log(cz z, int *err)
{
    double ax = fabs(z.re), ay = fabs(z.im);
    cz r;
    if (ax > LARGE_DOUBLE || ay > LARGE_DOUBLE) {
        r.re = log(hypot(ax / 2., ay / 2.)) + M_LN2;
    } else if (ax < DBL_MIN && ay < DBL_MIN) {
        if (ax > 0. || ay > 0.) {
            r.re = log(hypot(ldexp(ax, DBL_MANT_DIG), ldexp(ay, DBL_MANT_DIG))) - DBL_MANT_DIG * M_LN2;
        } else {
            r.re = -INFINITY;
            *err = EDOM;
        }
    } else {
        double h = hypot(ax, ay);
        if (0.71 <= h && h <= 1.73) {
            double am = ax > ay ? ax : ay, an = ax > ay ? ay : ax;
            r.re = log1p((am - 1) * (am + 1) + an * an) / 2.;
        } else {
            r.re = log(h);
        }
    }
    r.im = atan2(z.im, z.re);
    return r;
}

static cz c_asinh(cz z)
{
    if (fabs(z.re) > LARGE_DOUBLE || fabs(z.im) > LARGE_DOUBLE) {
        double l = log(hypot(z.re / 2., z.im / 2.)) + M_LN2 * 2.;
        return (cz){z.im >= 0. ? copysign(l, z.re) : -copysign(l, -z.re), atan2(z.im, fabs(z.re))};
    }
    cz s1 = c_sqrt((cz){1. + z.im, -z.re}), s2 = c_sqrt((cz){1. - z.im, z.re});
    return (cz){asinh(s1.re * s2.im - s2.re * s1.im), atan2(z.im, s1.re * s2.re - s1.im * s2.im)};
}

static cz c_acos(cz z)
{
    if (fabs(z.re) > LARGE_DOUBLE || fabs(z.im) > LARGE_DOUBLE) {
        double l = log(hypot(z.re / 2., z.im / 2.)) + M_LN2 * 2.;
        return (cz){atan2(fabs(z.im), z.re), z.re < 0 ? -copysign(l, z.im) : copysign(l, -z.im)};
    }
    cz s1 = c_sqrt((cz){1. - z.re, -z.im}), s2 = c_sqrt((cz){1. + z.re, z.im});
    return (cz){2. * atan2(s1.re, s2.re), asinh(s2.re * s1.im - s2.im * s1.re)};
}

static cz c_acosh(cz z)
{
    if (fabs(z.re) > LARGE_DOUBLE || fabs(z.im) > LARGE_DOUBLE)
        return (cz){log(hypot(z.re / 2., z.im / 2.)) + M_LN2 * 2., atan2(z.im, z.re)};
    cz s1 = c_sqrt((cz){z.re - 1., z.im}), s2 = c_sqrt((cz){z.re + 1., z.im});
    return (cz){asinh(s1.re * s2.re + s1.im * s2.im), 2. * atan2(s1.im, s2.re)};
}

static cz c_atanh(cz z, int *err)
{
    if (z.re < 0.) {
        cz r = c_atanh((cz){-z.re, -z.im}, err);
        return (cz){-r.re, -r.im};
    }
    double ay = fabs(z.im);
    if (z.re > sqrt_large_double() || ay > sqrt_large_double()) {
        double h = hypot(z.re / 2., z.im / 2.);
        return (cz){z.re / 4. / h / h, -copysign(M_PI / 2., -z.im)};
    }
    if (z.re == 1. && ay < sqrt_dbl_min()) {
        if (ay == 0.) {
            *err = EDOM;
            return (cz){INFINITY, z.im};
        }
        return (cz){-log(sqrt(ay) / sqrt(hypot(ay, 2.))), copysign(atan2(2., -ay) / 2, z.im)};
    }
    return (cz){log1p(4. * z.re / ((1 - z.re) * (1 - z.re) + ay * ay)) / 4.,
                -atan2(-2. * z.im, (1 - z.re) * (1 + z.re) - ay * ay) / 2.};
}

static cz c_cosh(cz z, int *err)
{
    cz r;
    if (fabs(z.re) > log_large_double()) {
        double x = z.re - copysign(1., z.re);
        r = (cz){cos(z.im) * cosh(x) * M_E, sin(z.im) * sinh(x) * M_E};
    } else {
        r = (cz){cos(z.im) * cosh(z.re), sin(z.im) * sinh(z.re)};
    }
    if (isinf(r.re) || isinf(r.im)) *err = ERANGE;
    return r;
}

static cz c_sinh(cz z, int *err)
{
    cz r;
    if (fabs(z.re) > log_large_double()) {
        double x = z.re - copysign(1., z.re);
        r = (cz){cos(z.im) * sinh(x) * M_E, sin(z.im) * cosh(x) * M_E};
    } else {
        r = (cz){cos(z.im) * sinh(z.re), sin(z.im) * cosh(z.re)};
    }
    if (isinf(r.re) || isinf(r.im)) *err = ERANGE;
    return r;
}

static cz c_tanh(cz z)
{
    if (fabs(z.re) > log_large_double())
        return (cz){copysign(1., z.re), 4. * sin(z.im) * cos(z.im) * exp(-2. * fabs(z.re))};
    double tx = tanh(z.re), ty = tan(z.im), cx = 1. / cosh(z.re), txty = tx * ty, denom = 1. + txty * txty;
    return (cz){tx * (1. + ty * ty) / denom, ((ty / denom) * cx) * cx};
}

typedef enum fn_id {
    F_SQRT, F_EXP, F_LOG, F_LOG10, F_ACOS, F_ASIN, F_ATAN, F_ACOSH, F_ASINH, F_ATANH,
    F_COS, F_SIN, F_TAN, F_COSH, F_SINH, F_TANH,
} fn_id;

/* i*z and back: asin, atan, cos, sin, tan are asinh, atanh, cosh, sinh, tanh of i*z */
static cz times_i(cz z) { return (cz){-z.im, z.re}; }
static cz div_i(cz s) { return (cz){s.im, -s.re}; }

static cz finite_value(fn_id f, cz z, int *err)
{
    switch (f) {
    case F_SQRT: return c_sqrt(z);
    case F_EXP: return c_exp(z, err);
    case F_LOG: return c_log(z, err);
    case F_LOG10: {
        cz r = c_log(z, err);
        return (cz){r.re / M_LN10, r.im / M_LN10};
    }
    case F_ACOS: return c_acos(z);
    case F_ASIN: return div_i(c_asinh(times_i(z)));
    case F_ATAN: return div_i(c_atanh(times_i(z), err));
    case F_ACOSH: return c_acosh(z);
    case F_ASINH: return c_asinh(z);
    case F_ATANH: return c_atanh(z, err);
    case F_COS: return c_cosh(times_i(z), err);
    case F_SIN: return div_i(c_sinh(times_i(z), err));
    case F_TAN: return div_i(c_tanh(times_i(z)));
    case F_COSH: return c_cosh(z, err);
    case F_SINH: return c_sinh(z, err);
    case F_TANH: return c_tanh(z);
    }
    return z;
}

/* the C complex number of parts re and im (re + im * I would make NaN of an infinite im) */
static double complex c99(double re, double im)
{
    double complex c;
    ((double *)&c)[0] = re;
    ((double *)&c)[1] = im;
    return c;
}

/* C99's special values (Annex G) for infinite or NaN parts */
static cz special_value(fn_id f, cz z)
{
    double complex c = c99(z.re, z.im), r = c;
    switch (f) {
    case F_SQRT: r = csqrt(c); break;
    case F_EXP: r = cexp(c); break;
    case F_LOG: r = clog(c); break;
    case F_LOG10: r = clog(c) / M_LN10; break;
    case F_ACOS: r = cacos(c); break;
    case F_ASIN: r = casin(c); break;
    case F_ATAN: r = catan(c); break;
    case F_ACOSH: r = cacosh(c); break;
    case F_ASINH: r = casinh(c); break;
    case F_ATANH: r = catanh(c); break;
    case F_COS: r = ccos(c); break;
    case F_SIN: r = csin(c); break;
    case F_TAN: r = ctan(c); break;
    case F_COSH: r = ccosh(c); break;
    case F_SINH: r = csinh(c); break;
    case F_TANH: r = ctanh(c); break;
    }
    return (cz){creal(r), cimag(r)};
}

static nn_object *math_error(int err)
{
    if (err == EDOM) repl_raise_exc(EXC_ValueError, "math domain error");
    else repl_raise_exc(EXC_OverflowError, "math range error");
    return NULL;
}

static cz value_of(fn_id f, cz z, int *err)
{
    if (both_finite(z)) return finite_value(f, z, err);
    cz r;
    switch (f) { /* as CPython's, through the hyperbolic function of i*z: the same signs */
    case F_ASIN: r = div_i(special_value(F_ASINH, times_i(z))); break;
    case F_ATAN: r = div_i(special_value(F_ATANH, times_i(z))); break;
    case F_COS: r = special_value(F_COSH, times_i(z)); break;
    case F_SIN: r = div_i(special_value(F_SINH, times_i(z))); break;
    case F_TAN: r = div_i(special_value(F_TANH, times_i(z))); break;
    default: r = special_value(f, z);
    }
    if ((isnan(r.re) || isnan(r.im)) && !isnan(z.re) && !isnan(z.im)) *err = EDOM;
    return r;
}

static nn_object *unary(const char *name, fn_id f, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs(name, args, kwargs, 1, 1) < 0) return NULL;
    cz z;
    if (complex_arg(nn_tuple_get(args, 0), &z) < 0) return NULL;
    int err = 0;
    cz r = value_of(f, z, &err);
    if (err) return math_error(err);
    return nn_complex_new(r.re, r.im);
}

#define UNARY(cname, pyname, id) \
    static nn_object *cname(void *ud, nn_object *args, nn_object *kwargs) { return unary("cmath." pyname, id, args, kwargs); }
UNARY(cm_sqrt, "sqrt", F_SQRT)
UNARY(cm_exp, "exp", F_EXP)
UNARY(cm_log10, "log10", F_LOG10)
UNARY(cm_acos, "acos", F_ACOS)
UNARY(cm_asin, "asin", F_ASIN)
UNARY(cm_atan, "atan", F_ATAN)
UNARY(cm_acosh, "acosh", F_ACOSH)
UNARY(cm_asinh, "asinh", F_ASINH)
UNARY(cm_atanh, "atanh", F_ATANH)
UNARY(cm_cos, "cos", F_COS)
UNARY(cm_sin, "sin", F_SIN)
UNARY(cm_tan, "tan", F_TAN)
UNARY(cm_cosh, "cosh", F_COSH)
UNARY(cm_sinh, "sinh", F_SINH)
UNARY(cm_tanh, "tanh", F_TANH)

/* CPython's _Py_c_quot; EDOM for a zero divisor */
static cz quot(cz a, cz b, int *err)
{
    double abr = fabs(b.re), abi = fabs(b.im);
    if (abr >= abi) {
        if (abr == 0.0) {
            *err = EDOM;
            return (cz){0, 0};
        }
        double ratio = b.im / b.re, denom = b.re + b.im * ratio;
        return (cz){(a.re + a.im * ratio) / denom, (a.im - a.re * ratio) / denom};
    }
    if (abi >= abr) {
        double ratio = b.re / b.im, denom = b.re * ratio + b.im;
        return (cz){(a.re * ratio + a.im) / denom, (a.im * ratio - a.re) / denom};
    }
    return (cz){NAN, NAN};
}

/* log(x[, base]) */
static nn_object *cm_log(void *ud, nn_object *args, nn_object *kwargs)
{
    int n = repl_mod_nargs("log", args, kwargs, 1, 2);
    if (n < 0) return NULL;
    cz x, b;
    if (complex_arg(nn_tuple_get(args, 0), &x) < 0) return NULL;
    if (n == 2 && complex_arg(nn_tuple_get(args, 1), &b) < 0) return NULL;
    int err = 0;
    cz r = value_of(F_LOG, x, &err);
    if (n == 2) { /* as CPython's: the base's log starts afresh, then the quotient */
        err = 0;
        cz lb = value_of(F_LOG, b, &err);
        r = quot(r, lb, &err);
    }
    if (err) return math_error(err);
    return nn_complex_new(r.re, r.im);
}

static nn_object *cm_phase(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("phase", args, kwargs, 1, 1) < 0) return NULL;
    cz z;
    if (complex_arg(nn_tuple_get(args, 0), &z) < 0) return NULL;
    return nn_float_new(atan2(z.im, z.re));
}

/* CPython's abs of a complex: inf for an infinite part, else NaN for a NaN, else hypot */
static double c_abs(cz z, int *err)
{
    if (!both_finite(z)) return isinf(z.re) || isinf(z.im) ? INFINITY : NAN;
    double r = hypot(z.re, z.im);
    if (isinf(r)) *err = ERANGE;
    return r;
}

static nn_object *cm_polar(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("polar", args, kwargs, 1, 1) < 0) return NULL;
    cz z;
    if (complex_arg(nn_tuple_get(args, 0), &z) < 0) return NULL;
    int err = 0;
    double r = c_abs(z, &err);
    if (err) return math_error(err);
    nn_object *t = nn_tuple_new(2), *a = t ? nn_float_new(r) : NULL, *p = a ? nn_float_new(atan2(z.im, z.re)) : NULL;
    if (!p) {
        NN_RELEASE(t);
        NN_RELEASE(a);
        return NULL;
    }
    nn_tuple_set(t, 0, a);
    nn_tuple_set(t, 1, p);
    return t;
}

static nn_object *cm_rect(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("rect", args, kwargs, 2, 2) < 0) return NULL;
    double r, phi;
    if (repl_mod_real(nn_tuple_get(args, 0), &r) < 0 || repl_mod_real(nn_tuple_get(args, 1), &phi) < 0) return NULL;
    cz z;
    if (isfinite(r) && isfinite(phi)) {
        z = phi == 0.0 ? (cz){r, r * phi} : (cz){r * cos(phi), r * sin(phi)};
    } else if (isinf(r) && isfinite(phi) && phi != 0.) {
        double s = r > 0 ? 1. : -1.;
        z = (cz){copysign(INFINITY, s * cos(phi)), copysign(INFINITY, s * sin(phi))};
    } else {
        double complex c = r * cexp(c99(0., phi));
        if (isinf(r) && phi == 0.) c = c99(r, phi); /* inf at angle 0: (inf, 0) */
        z = (cz){creal(c), cimag(c)};
        if (isnan(r) || isnan(phi)) z = (cz){NAN, NAN};
        if (isnan(r) && phi == 0.) z = (cz){NAN, phi};
        if (r == 0. && !isnan(phi)) z = (cz){0., 0.};
    }
    if (r != 0. && !isnan(r) && isinf(phi)) return math_error(EDOM);
    return nn_complex_new(z.re, z.im);
}

static nn_object *classify(const char *name, nn_object *args, nn_object *kwargs, int what)
{
    if (repl_mod_nargs(name, args, kwargs, 1, 1) < 0) return NULL;
    cz z;
    if (complex_arg(nn_tuple_get(args, 0), &z) < 0) return NULL;
    if (what == 0) return nn_bool_new(both_finite(z));
    if (what == 1) return nn_bool_new(isinf(z.re) || isinf(z.im));
    return nn_bool_new(isnan(z.re) || isnan(z.im));
}

static nn_object *cm_isfinite(void *ud, nn_object *args, nn_object *kwargs)
{
    return classify("isfinite", args, kwargs, 0);
}

static nn_object *cm_isinf(void *ud, nn_object *args, nn_object *kwargs) { return classify("isinf", args, kwargs, 1); }

static nn_object *cm_isnan(void *ud, nn_object *args, nn_object *kwargs) { return classify("isnan", args, kwargs, 2); }

/* isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0) */
static nn_object *cm_isclose(void *ud, nn_object *args, nn_object *kwargs)
{
    static const char *const names[] = {"rel_tol", "abs_tol", NULL};
    if (repl_mod_kwargs_only("isclose", kwargs, names) < 0) return NULL;
    size_t n = nn_tuple_len(args);
    if (n != 2) {
        repl_raise_exc(EXC_TypeError, "isclose() takes exactly 2 positional arguments (%zu given)", n);
        return NULL;
    }
    cz a, b;
    double rel_tol = 1e-09, abs_tol = 0.0;
    nn_object *rt = repl_mod_kwarg(kwargs, "rel_tol"), *at = repl_mod_kwarg(kwargs, "abs_tol");
    if (complex_arg(nn_tuple_get(args, 0), &a) < 0 || complex_arg(nn_tuple_get(args, 1), &b) < 0) return NULL;
    if ((rt && repl_mod_real(rt, &rel_tol) < 0) || (at && repl_mod_real(at, &abs_tol) < 0)) return NULL;
    if (rel_tol < 0.0 || abs_tol < 0.0) {
        repl_raise_exc(EXC_ValueError, "tolerances must be non-negative");
        return NULL;
    }
    if (a.re == b.re && a.im == b.im) return nn_bool_new(true);
    if (isinf(a.re) || isinf(a.im) || isinf(b.re) || isinf(b.im)) return nn_bool_new(false);
    int err = 0;
    double diff = c_abs((cz){b.re - a.re, b.im - a.im}, &err);
    double ab = c_abs(b, &err), aa = c_abs(a, &err);
    return nn_bool_new((diff <= rel_tol * ab || diff <= rel_tol * aa) || diff <= abs_tol);
}

static const repl_mod_fn cmath_functions[] = {
    {"sqrt", cm_sqrt, "sqrt(z, /)\nReturn the square root of z."},
    {"exp", cm_exp, "exp(z, /)\nReturn the exponential value e**z."},
    {"log", cm_log, "log(z[, base])\nThe logarithm of z to the given base (the natural one without)."},
    {"log10", cm_log10, "log10(z, /)\nReturn the base-10 logarithm of z."},
    {"acos", cm_acos, "acos(z, /)\nReturn the arc cosine of z."},
    {"asin", cm_asin, "asin(z, /)\nReturn the arc sine of z."},
    {"atan", cm_atan, "atan(z, /)\nReturn the arc tangent of z."},
    {"acosh", cm_acosh, "acosh(z, /)\nReturn the inverse hyperbolic cosine of z."},
    {"asinh", cm_asinh, "asinh(z, /)\nReturn the inverse hyperbolic sine of z."},
    {"atanh", cm_atanh, "atanh(z, /)\nReturn the inverse hyperbolic tangent of z."},
    {"cos", cm_cos, "cos(z, /)\nReturn the cosine of z."},
    {"sin", cm_sin, "sin(z, /)\nReturn the sine of z."},
    {"tan", cm_tan, "tan(z, /)\nReturn the tangent of z."},
    {"cosh", cm_cosh, "cosh(z, /)\nReturn the hyperbolic cosine of z."},
    {"sinh", cm_sinh, "sinh(z, /)\nReturn the hyperbolic sine of z."},
    {"tanh", cm_tanh, "tanh(z, /)\nReturn the hyperbolic tangent of z."},
    {"phase", cm_phase, "phase(z, /)\nReturn argument, also known as the phase angle, of a complex."},
    {"polar", cm_polar, "polar(z, /)\nConvert a complex from rectangular coordinates to polar coordinates."},
    {"rect", cm_rect, "rect(r, phi, /)\nConvert from polar coordinates to rectangular coordinates."},
    {"isfinite", cm_isfinite, "isfinite(z, /)\nReturn True if both the real and imaginary parts of z are finite."},
    {"isinf", cm_isinf, "isinf(z, /)\nChecks if the real or imaginary part of z is infinite."},
    {"isnan", cm_isnan, "isnan(z, /)\nChecks if the real or imaginary part of z not a number (NaN)."},
    {"isclose", cm_isclose,
     "isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0)\nDetermine whether two complex numbers are close in value."},
};

nn_object *repl_mod_cmath(void)
{
    nn_object *m = repl_module_new("cmath");
    if (!m || repl_mod_add_fns(m, cmath_functions, sizeof cmath_functions / sizeof *cmath_functions) < 0 ||
        repl_mod_set(m, "pi", nn_float_new(M_PI)) < 0 || repl_mod_set(m, "e", nn_float_new(M_E)) < 0 ||
        repl_mod_set(m, "tau", nn_float_new(2 * M_PI)) < 0 || repl_mod_set(m, "inf", nn_float_new(INFINITY)) < 0 ||
        repl_mod_set(m, "nan", nn_float_new(NAN)) < 0 || repl_mod_set(m, "infj", nn_complex_new(0., INFINITY)) < 0 ||
        repl_mod_set(m, "nanj", nn_complex_new(0., NAN)) < 0)
        NN_SET(m, NULL);
    return m;
}
