/*
 * mod_math.c — the module math as CPython 3.11's: its constants, the libm
 * functions with CPython's error rules (a NaN from a number is "math domain
 * error" (ValueError), an infinity from a finite number is "math range error"
 * (OverflowError) where the function can overflow, else a domain error), the
 * integer functions (factorial, gcd, lcm, comb, perm, isqrt: mod_math_int.c,
 * on ints of any size), and fsum's exact sum.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stdlib_int.h"
#include "bigint.h"

#define NARGS(args) ((int)nn_tuple_len(args))
#define ARG(args, i) nn_tuple_get(args, i)

static nn_object *domain_error(void)
{
    repl_raise_exc(EXC_ValueError, "math domain error");
    return NULL;
}

static nn_object *range_error(void)
{
    repl_raise_exc(EXC_OverflowError, "math range error");
    return NULL;
}

/* r = f(x) checked as CPython's math_1: NaN out of a non-NaN is a domain error;
   an infinity out of a finite x a range error (can_overflow) or a domain error. */
static nn_object *checked(double x, double r, bool can_overflow)
{
    if (isnan(r) && !isnan(x)) return domain_error();
    if (isinf(r) && isfinite(x)) return can_overflow ? range_error() : domain_error();
    return nn_float_new(r);
}

/* The one-argument functions of libm: name, function, whether it can overflow. */
#define MATH_1(X)                                                                                          \
    X(acos, acos, false) X(acosh, acosh, false) X(asin, asin, false) X(asinh, asinh, false)               \
    X(atan, atan, false) X(atanh, atanh, false) X(cbrt, cbrt, false) X(cos, cos, false)                  \
    X(cosh, cosh, true) X(erf, erf, false) X(erfc, erfc, false) X(exp, exp, true) X(exp2, exp2, true)     \
    X(expm1, expm1, true) X(fabs, fabs, false) X(log1p, log1p, false) X(sin, sin, false)                 \
    X(sinh, sinh, true) X(sqrt, sqrt, false) X(tan, tan, false) X(tanh, tanh, false)

#define X(name, fn, ovf)                                                                   \
    static nn_object *m_##name(void *ud, nn_object *args, nn_object *kwargs)               \
    {                                                                                      \
        double x;                                                                          \
        if (repl_mod_nargs("math." #name, args, kwargs, 1, 1) < 0 || repl_mod_real(ARG(args, 0), &x) < 0) \
            return NULL;                                                                   \
        return checked(x, fn(x), ovf);                                                     \
    }
MATH_1(X)
#undef X

/* floor / ceil / trunc: an int; ints pass through. */
static nn_object *to_int(double v) { return repl_int_from_double(v); }

static nn_object *rounding(const char *name, double (*fn)(double), nn_object *args, nn_object *kwargs)
{
    char full[32];
    snprintf(full, sizeof full, "math.%s", name);
    if (repl_mod_nargs(full, args, kwargs, 1, 1) < 0) return NULL;
    nn_object *o = ARG(args, 0);
    if (nn_is_int(o) || nn_is_bool(o)) return nn_int_new(nn_int_value(o));
    if (repl_is_bigint(o)) return nn_retain(o);
    if (!nn_is_float(o) && o->type == &repl_instance_type) { /* __floor__, __ceil__, __trunc__ */
        char dunder[32];
        snprintf(dunder, sizeof dunder, "__%s__", name);
        if (repl_class_lookup(((instance_obj *)o)->cls, dunder)) return repl_call_method(o, dunder, NULL, 0);
    }
    if (!strcmp(name, "trunc") && !nn_is_float(o) && o->type == &nn_str_type) {
        repl_raise_exc(EXC_TypeError, "type %s doesn't define __trunc__ method", repl_value_type_name(o));
        return NULL;
    }
    double x;
    if (repl_mod_real(o, &x) < 0) return NULL;
    return to_int(fn(x));
}

static nn_object *m_floor(void *ud, nn_object *args, nn_object *kwargs) { return rounding("floor", floor, args, kwargs); }
static nn_object *m_ceil(void *ud, nn_object *args, nn_object *kwargs) { return rounding("ceil", ceil, args, kwargs); }
static nn_object *m_trunc(void *ud, nn_object *args, nn_object *kwargs) { return rounding("trunc", trunc, args, kwargs); }

/* Two real arguments into *x, *y; -1 with TypeError. */
static int two_reals(const char *name, nn_object *args, nn_object *kwargs, double *x, double *y)
{
    if (repl_mod_nargs(name, args, kwargs, 2, 2) < 0) return -1;
    return repl_mod_real(ARG(args, 0), x) < 0 || repl_mod_real(ARG(args, 1), y) < 0 ? -1 : 0;
}

static nn_object *m_log(void *ud, nn_object *args, nn_object *kwargs)
{
    if (kwargs && nn_dict_len(kwargs)) {
        repl_raise_exc(EXC_TypeError, "math.log() takes no keyword arguments");
        return NULL;
    }
    int n = NARGS(args);
    if (n < 1 || n > 2) {
        repl_raise_exc(EXC_TypeError, "math.log requires 1 to 2 arguments");
        return NULL;
    }
    double x, b = 0, num, den = 0;
    nn_object *xo = ARG(args, 0), *bo = n == 2 ? ARG(args, 1) : NULL;
    if (repl_is_integer(xo) || (bo && repl_is_integer(bo))) { /* ints of any size: CPython's loghelper */
        if ((repl_is_integer(xo) ? repl_math_int_log(xo, log, &num) : repl_mod_real(xo, &x)) < 0) return NULL;
        if (!repl_is_integer(xo)) {
            if (x <= 0) return isnan(x) ? nn_float_new(NAN) : domain_error();
            num = log(x);
        }
        if (n == 1) return nn_float_new(num);
        if ((repl_is_integer(bo) ? repl_math_int_log(bo, log, &den) : repl_mod_real(bo, &b)) < 0) return NULL;
        if (!repl_is_integer(bo)) {
            if (b <= 0) return isnan(b) ? nn_float_new(NAN) : domain_error();
            den = log(b);
        }
        goto divide;
    }
    if (repl_mod_real(ARG(args, 0), &x) < 0 || (n == 2 && repl_mod_real(ARG(args, 1), &b) < 0)) return NULL;
    if (x <= 0 || (n == 2 && b <= 0)) return isnan(x) || isnan(b) ? nn_float_new(NAN) : domain_error();
    num = log(x);
    if (n == 1) return nn_float_new(num);
    den = log(b);
divide:
    if (den == 0) {
        repl_raise_exc(EXC_ZeroDivisionError, "float division by zero");
        return NULL;
    }
    return nn_float_new(num / den);
}

static nn_object *log_base(const char *name, double (*fn)(double), nn_object *args, nn_object *kwargs)
{
    double x;
    if (repl_mod_nargs(name, args, kwargs, 1, 1) < 0) return NULL;
    if (repl_is_integer(ARG(args, 0))) return repl_math_int_log(ARG(args, 0), fn, &x) < 0 ? NULL : nn_float_new(x);
    if (repl_mod_real(ARG(args, 0), &x) < 0) return NULL;
    if (x <= 0) return domain_error();
    return nn_float_new(fn(x));
}
static nn_object *m_log2(void *ud, nn_object *args, nn_object *kwargs) { return log_base("math.log2", log2, args, kwargs); }
static nn_object *m_log10(void *ud, nn_object *args, nn_object *kwargs) { return log_base("math.log10", log10, args, kwargs); }

static nn_object *m_pow(void *ud, nn_object *args, nn_object *kwargs)
{
    double x, y;
    if (two_reals("pow", args, kwargs, &x, &y) < 0) return NULL;
    double r = pow(x, y);
    if (isfinite(x) && isfinite(y)) {
        if (isnan(r)) return domain_error();
        if (isinf(r)) return x == 0 ? domain_error() : range_error();
    }
    return nn_float_new(r);
}

static nn_object *m_atan2(void *ud, nn_object *args, nn_object *kwargs)
{
    double y, x;
    if (two_reals("atan2", args, kwargs, &y, &x) < 0) return NULL;
    return nn_float_new(atan2(y, x));
}

static nn_object *m_copysign(void *ud, nn_object *args, nn_object *kwargs)
{
    double x, y;
    if (two_reals("copysign", args, kwargs, &x, &y) < 0) return NULL;
    return nn_float_new(copysign(x, y));
}

static nn_object *m_fmod(void *ud, nn_object *args, nn_object *kwargs)
{
    double x, y;
    if (two_reals("fmod", args, kwargs, &x, &y) < 0) return NULL;
    if (isinf(y) && isfinite(x)) return nn_float_new(x);
    double r = fmod(x, y);
    if (isnan(r) && !isnan(x) && !isnan(y)) return domain_error();
    return nn_float_new(r);
}

static nn_object *m_remainder(void *ud, nn_object *args, nn_object *kwargs)
{
    double x, y;
    if (two_reals("remainder", args, kwargs, &x, &y) < 0) return NULL;
    double r = remainder(x, y);
    if (isnan(r) && !isnan(x) && !isnan(y)) return domain_error();
    return nn_float_new(r);
}

static nn_object *m_nextafter(void *ud, nn_object *args, nn_object *kwargs)
{
    double x, y;
    if (two_reals("nextafter", args, kwargs, &x, &y) < 0) return NULL;
    return nn_float_new(nextafter(x, y));
}

static nn_object *m_ulp(void *ud, nn_object *args, nn_object *kwargs)
{
    double x;
    if (repl_mod_nargs("math.ulp", args, kwargs, 1, 1) < 0 || repl_mod_real(ARG(args, 0), &x) < 0) return NULL;
    if (isnan(x)) return nn_float_new(x);
    x = fabs(x);
    if (isinf(x)) return nn_float_new(x);
    double up = nextafter(x, INFINITY);
    if (isinf(up)) return nn_float_new(x - nextafter(x, -INFINITY));
    return nn_float_new(up - x);
}

static nn_object *m_ldexp(void *ud, nn_object *args, nn_object *kwargs)
{
    double x;
    int64_t e;
    if (repl_mod_nargs("ldexp", args, kwargs, 2, 2) < 0 || repl_mod_real(ARG(args, 0), &x) < 0) return NULL;
    if (nn_is_float(ARG(args, 1))) {
        repl_raise_exc(EXC_TypeError, "Expected an int as second argument to ldexp.");
        return NULL;
    }
    if (repl_mod_int(ARG(args, 1), &e) < 0) return NULL;
    if (x == 0 || !isfinite(x)) return nn_float_new(x);
    if (e > 100000) e = 100000;
    if (e < -100000) e = -100000;
    double r = ldexp(x, (int)e);
    if (isinf(r)) return range_error();
    return nn_float_new(r);
}

static nn_object *m_frexp(void *ud, nn_object *args, nn_object *kwargs)
{
    double x;
    if (repl_mod_nargs("math.frexp", args, kwargs, 1, 1) < 0 || repl_mod_real(ARG(args, 0), &x) < 0) return NULL;
    int e = 0;
    double m = isfinite(x) && x != 0 ? frexp(x, &e) : x;
    nn_object *a = nn_float_new(m), *b = nn_int_new(e);
    nn_object *t = a && b ? nn_tuple_pack(2, a, b) : NULL;
    NN_RELEASE(a);
    NN_RELEASE(b);
    return t;
}

static nn_object *m_modf(void *ud, nn_object *args, nn_object *kwargs)
{
    double x, ip;
    if (repl_mod_nargs("math.modf", args, kwargs, 1, 1) < 0 || repl_mod_real(ARG(args, 0), &x) < 0) return NULL;
    double fp = isinf(x) ? copysign(0.0, x) : modf(x, &ip);
    if (isinf(x)) ip = x;
    nn_object *a = nn_float_new(fp), *b = nn_float_new(ip);
    nn_object *t = a && b ? nn_tuple_pack(2, a, b) : NULL;
    NN_RELEASE(a);
    NN_RELEASE(b);
    return t;
}

static nn_object *m_degrees(void *ud, nn_object *args, nn_object *kwargs)
{
    double x;
    if (repl_mod_nargs("math.degrees", args, kwargs, 1, 1) < 0 || repl_mod_real(ARG(args, 0), &x) < 0) return NULL;
    return nn_float_new(x * (180.0 / M_PI));
}

static nn_object *m_radians(void *ud, nn_object *args, nn_object *kwargs)
{
    double x;
    if (repl_mod_nargs("math.radians", args, kwargs, 1, 1) < 0 || repl_mod_real(ARG(args, 0), &x) < 0) return NULL;
    return nn_float_new(x * (M_PI / 180.0));
}

static nn_object *predicate(const char *name, int (*test)(double), nn_object *args, nn_object *kwargs)
{
    double x;
    if (repl_mod_nargs(name, args, kwargs, 1, 1) < 0 || repl_mod_real(ARG(args, 0), &x) < 0) return NULL;
    return nn_bool_new(test(x));
}
static int is_finite(double x) { return isfinite(x); }
static int is_inf(double x) { return isinf(x); }
static int is_nan(double x) { return isnan(x); }
static nn_object *m_isfinite(void *ud, nn_object *args, nn_object *kwargs) { return predicate("math.isfinite", is_finite, args, kwargs); }
static nn_object *m_isinf(void *ud, nn_object *args, nn_object *kwargs) { return predicate("math.isinf", is_inf, args, kwargs); }
static nn_object *m_isnan(void *ud, nn_object *args, nn_object *kwargs) { return predicate("math.isnan", is_nan, args, kwargs); }

/* isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0) */
static nn_object *m_isclose(void *ud, nn_object *args, nn_object *kwargs)
{
    static const char *const names[] = {"a", "b", "rel_tol", "abs_tol", NULL};
    if (repl_mod_kwargs_only("isclose", kwargs, names) < 0) return NULL;
    int n = NARGS(args);
    if (n > 2) {
        repl_raise_exc(EXC_TypeError, "isclose() takes exactly 2 positional arguments (%d given)", n);
        return NULL;
    }
    nn_object *ao = n > 0 ? ARG(args, 0) : repl_mod_kwarg(kwargs, "a");
    nn_object *bo = n > 1 ? ARG(args, 1) : repl_mod_kwarg(kwargs, "b");
    if (!ao || !bo) {
        repl_raise_exc(EXC_TypeError, "isclose() missing required argument '%s' (pos %d)", ao ? "b" : "a", ao ? 2 : 1);
        return NULL;
    }
    double a, b, rel = 1e-9, abs_tol = 0;
    nn_object *r = repl_mod_kwarg(kwargs, "rel_tol"), *t = repl_mod_kwarg(kwargs, "abs_tol");
    if (repl_mod_real(ao, &a) < 0 || repl_mod_real(bo, &b) < 0 || (r && repl_mod_real(r, &rel) < 0) ||
        (t && repl_mod_real(t, &abs_tol) < 0))
        return NULL;
    if (rel < 0 || abs_tol < 0) {
        repl_raise_exc(EXC_ValueError, "tolerances must be non-negative");
        return NULL;
    }
    if (a == b) return nn_bool_new(true);
    if (isinf(a) || isinf(b)) return nn_bool_new(false);
    double diff = fabs(b - a);
    return nn_bool_new((diff <= fabs(rel * b)) || (diff <= fabs(rel * a)) || diff <= abs_tol);
}

/* ------------------------------------------------------------ gamma */

/* CPython computes gamma and lgamma itself (not with libm), by Lanczos'
   approximation with the g and the 13-term rational function of Boost's
   lanczos13m53; the same steps here give the same bits. */
#define LANCZOS_N 13
static const double lanczos_g = 6.024680040776729583740234375;
static const double lanczos_g_minus_half = 5.524680040776729583740234375;
static const double lanczos_num[LANCZOS_N] = {
    23531376880.410759688572007674451636754734846804940, 42919803642.649098768957899047001988850926355848959,
    35711959237.355668049440185451547166705960488635843, 17921034426.037209699919755754458931112671403265390,
    6039542586.3520280050642916443072979210699388420708, 1439720407.3117216736632230727949123939715485786772,
    248874557.86205415651146038641322942321632125127801, 31426415.585400194380614231628318205362874684987640,
    2876370.6289353724412254090516208496135991145378768, 186056.26539522349504029498971604569928220784236328,
    8071.6720023658162106380029022722506138218516325024, 210.82427775157934587250973392071336271166969580291,
    2.5066282746310002701649081771338373386264310793408,
};
/* the denominator x*(x+1)*...*(x+11) expanded */
static const double lanczos_den[LANCZOS_N] = {0.0,      39916800.0, 120543840.0, 150917976.0, 105258076.0,
                                              45995730.0, 13339535.0, 2637558.0, 357423.0, 32670.0,
                                              1925.0,   66.0,       1.0};
static const double log_pi = 1.144729885849400174143427351353058711647;

/* The rational function at x > 0: in x below 5, in 1/x above (no overflow). */
static double lanczos_sum(double x)
{
    double num = 0.0, den = 0.0;
    if (x < 5.0)
        for (int i = LANCZOS_N - 1; i >= 0; i--) {
            num = num * x + lanczos_num[i];
            den = den * x + lanczos_den[i];
        }
    else
        for (int i = 0; i < LANCZOS_N; i++) {
            num = num / x + lanczos_num[i];
            den = den / x + lanczos_den[i];
        }
    return num / den;
}

/* sin(pi * x) for finite x, reduced to a quarter period first. */
static double sin_pi(double x)
{
    double y = fmod(fabs(x), 2.0), r;
    switch ((int)round(2.0 * y)) {
    case 0: r = sin(M_PI * y); break;
    case 1: r = cos(M_PI * (y - 0.5)); break;
    case 2: r = sin(M_PI * (1.0 - y)); break; /* not sin(pi*y - pi): y near 1 */
    case 3: r = -cos(M_PI * (y - 1.5)); break;
    default: r = sin(M_PI * (y - 2.0)); break;
    }
    return copysign(1.0, x) * r;
}

static bool is_pole(double x) { return x <= 0 && x == floor(x); }

/* gamma(x) for finite x that is not a pole; an infinity when it overflows. */
static double lanczos_gamma(double x)
{
    if (x == floor(x) && x > 0 && x <= 23) { /* (x-1)! exactly */
        double f = 1;
        for (int i = 2; i < (int)x; i++) f *= i;
        return f;
    }
    double ax = fabs(x);
    if (ax < 1e-20) return 1.0 / x;
    if (ax > 200.0) return x < 0.0 ? 0.0 / sin_pi(x) : INFINITY;
    double y = ax + lanczos_g_minus_half, z;
    /* the rounding error of y, so that y's power can be corrected */
    if (ax > lanczos_g_minus_half) z = (y - ax) - lanczos_g_minus_half;
    else z = (y - lanczos_g_minus_half) - ax;
    z = z * lanczos_g / y;
    double r;
    if (x < 0.0) { /* the reflection formula */
        r = -M_PI / sin_pi(ax) / ax * exp(y) / lanczos_sum(ax);
        r -= z * r;
        if (ax < 140.0) r /= pow(y, ax - 0.5);
        else {
            double half = pow(y, ax / 2.0 - 0.25);
            r /= half;
            r /= half;
        }
    } else {
        r = lanczos_sum(ax) / exp(y);
        r += z * r;
        if (ax < 140.0) r *= pow(y, ax - 0.5);
        else {
            double half = pow(y, ax / 2.0 - 0.25);
            r *= half;
            r *= half;
        }
    }
    return r;
}

static nn_object *m_gamma(void *ud, nn_object *args, nn_object *kwargs)
{
    double x;
    if (repl_mod_nargs("math.gamma", args, kwargs, 1, 1) < 0 || repl_mod_real(ARG(args, 0), &x) < 0) return NULL;
    if (isnan(x) || (isinf(x) && x > 0)) return nn_float_new(x);
    if (isinf(x) || is_pole(x)) return domain_error();
    double r = lanczos_gamma(x);
    return isinf(r) ? range_error() : nn_float_new(r);
}

static nn_object *m_lgamma(void *ud, nn_object *args, nn_object *kwargs)
{
    double x;
    if (repl_mod_nargs("math.lgamma", args, kwargs, 1, 1) < 0 || repl_mod_real(ARG(args, 0), &x) < 0) return NULL;
    if (isnan(x)) return nn_float_new(x);
    if (isinf(x)) return nn_float_new(INFINITY);
    if (is_pole(x)) return domain_error();
    if (x == 1.0 || x == 2.0) return nn_float_new(0.0);
    double ax = fabs(x);
    if (ax < 1e-20) return nn_float_new(-log(ax));
    double r = log(lanczos_sum(ax)) - lanczos_g;
    r += (ax - 0.5) * (log(ax + lanczos_g - 0.5) - 1);
    if (x < 0.0) r = log_pi - log(fabs(sin_pi(ax))) - log(ax) - r;
    return isinf(r) ? range_error() : nn_float_new(r);
}

/* ------------------------------------------------------------ sums, products, norms */

/* The floats of an iterable through fn(ud, x); 0 or -1. */
static int each_real(nn_object *iterable, int (*fn)(void *ud, double x), void *ud)
{
    nn_object *it = repl_get_iter(iterable), *item;
    if (!it) return -1;
    int rc;
    while ((rc = repl_iter_next(it, &item)) == 1) {
        double x;
        int bad = repl_mod_real(item, &x) < 0 || fn(ud, x) < 0;
        NN_RELEASE(item);
        if (bad) {
            rc = -1;
            break;
        }
    }
    NN_RELEASE(it);
    return rc;
}

/* fsum's state: Shewchuk's exact partial sums, and the special values seen. */
typedef struct fsum_state {
    double *p;
    size_t n, cap;
    double special, inf_sum; /* the sum of the infinities and NaNs, and of the infinities */
    bool inf_or_nan;
} fsum_state;

static int fsum_add(void *ud, double x)
{
    fsum_state *s = ud;
    if (!isfinite(x)) {
        if (isinf(x)) s->inf_sum += x;
        s->special += x;
        s->inf_or_nan = true;
        return 0;
    }
    size_t i = 0;
    for (size_t j = 0; j < s->n; j++) {
        double y = s->p[j];
        if (fabs(x) < fabs(y)) {
            double t = x;
            x = y;
            y = t;
        }
        double hi = x + y, lo = y - (hi - x);
        if (lo != 0.0) s->p[i++] = lo;
        x = hi;
    }
    if (isinf(x)) {
        repl_raise_exc(EXC_OverflowError, "intermediate overflow in fsum");
        return -1;
    }
    if (i == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 32;
        double *p = nn_realloc(s->p, cap * sizeof *p);
        if (!p) return -1;
        s->p = p;
        s->cap = cap;
    }
    s->p[i++] = x;
    s->n = i;
    return 0;
}

static nn_object *m_fsum(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("math.fsum", args, kwargs, 1, 1) < 0) return NULL;
    fsum_state s = {0};
    if (each_real(ARG(args, 0), fsum_add, &s) < 0) {
        nn_free(s.p);
        return NULL;
    }
    if (s.inf_or_nan) {
        nn_free(s.p);
        if (isnan(s.inf_sum)) {
            repl_raise_exc(EXC_ValueError, "-inf + inf in fsum");
            return NULL;
        }
        return nn_float_new(s.special);
    }
    /* the partials, largest first, summed exactly with round-half-even at the end */
    double hi = 0.0;
    size_t n = s.n;
    if (n > 0) {
        hi = s.p[--n];
        double lo = 0;
        while (n > 0) {
            double x = hi, y = s.p[--n];
            hi = x + y;
            double yr = hi - x;
            lo = y - yr;
            if (lo != 0.0) break;
        }
        if (n > 0 && ((lo < 0.0 && s.p[n - 1] < 0.0) || (lo > 0.0 && s.p[n - 1] > 0.0))) {
            double y = lo * 2.0, x = hi + y, yr = x - hi;
            if (y == yr) hi = x;
        }
    }
    nn_free(s.p);
    return nn_float_new(hi);
}

/* prod(iterable, *, start=1): the language's * over the items. */
static nn_object *m_prod(void *ud, nn_object *args, nn_object *kwargs)
{
    static const char *const names[] = {"start", NULL};
    if (repl_mod_kwargs_only("prod", kwargs, names) < 0) return NULL;
    if (NARGS(args) != 1) {
        repl_raise_exc(EXC_TypeError, "prod() takes exactly 1 positional argument (%d given)", NARGS(args));
        return NULL;
    }
    nn_object *start = repl_mod_kwarg(kwargs, "start");
    nn_object *acc = start ? nn_retain(start) : nn_int_new(1);
    nn_object *it = acc ? repl_get_iter(ARG(args, 0)) : NULL, *item;
    if (!it) {
        NN_RELEASE(acc);
        return NULL;
    }
    int rc;
    while ((rc = repl_iter_next(it, &item)) == 1) {
        nn_object *r = repl_binary_op(REPL_MUL, acc, item);
        NN_RELEASE(item);
        NN_SET(acc, r);
        if (!acc) {
            rc = -1;
            break;
        }
    }
    NN_RELEASE(it);
    if (rc < 0) NN_SET(acc, NULL);
    return acc;
}

/* The coordinates of a point (a tuple or list of reals) into a new array. */
static double *coords(nn_object *o, size_t *n)
{
    nn_object *l = repl_to_list(o);
    if (!l) return NULL;
    *n = nn_list_len(l);
    double *v = nn_malloc((*n ? *n : 1) * sizeof *v);
    for (size_t i = 0; v && i < *n; i++)
        if (repl_mod_real(nn_list_get(l, i), &v[i]) < 0) {
            nn_free(v);
            v = NULL;
        }
    NN_RELEASE(l);
    return v;
}

/* The Euclidean norm of v[n] as CPython 3.11's hypot and dist compute it: the
   coordinates scaled by a power of two, their squares summed with the
   rounding errors kept (fma), the square root then one correction step. */
static double norm(double *v, size_t n)
{
    double max = 0;
    bool nan = false;
    for (size_t i = 0; i < n; i++) {
        v[i] = fabs(v[i]);
        if (isnan(v[i])) nan = true;
        else if (v[i] > max) max = v[i];
    }
    if (isinf(max)) return max;
    if (nan) return NAN;
    if (max == 0.0 || n <= 1) return max;
    int max_e;
    frexp(max, &max_e);
    if (max_e < -1023) { /* subnormals: make them normal first */
        for (size_t i = 0; i < n; i++) v[i] /= DBL_MIN;
        return DBL_MIN * norm(v, n);
    }
    double scale = ldexp(1.0, -max_e), csum = 1.0, frac1 = 0.0, frac2 = 0.0, h, x;
    for (size_t i = 0; i < n; i++) {
        x = v[i] * scale;
        double sq = x * x, sq_lo = fma(x, x, -sq); /* x*x exactly as sq + sq_lo */
        double sum = csum + sq, sum_lo = (csum - sum) + sq;
        csum = sum;
        frac1 += sq_lo;
        frac2 += sum_lo;
    }
    h = sqrt(csum - 1.0 + (frac1 + frac2));
    double sq = -h * h, sq_lo = fma(-h, h, -sq);
    double sum = csum + sq, sum_lo = (csum - sum) + sq;
    csum = sum;
    frac1 += sq_lo;
    frac2 += sum_lo;
    x = csum - 1.0 + (frac1 + frac2);
    h += x / (2.0 * h);
    return h / scale;
}

static nn_object *m_hypot(void *ud, nn_object *args, nn_object *kwargs)
{
    if (kwargs && nn_dict_len(kwargs)) {
        repl_raise_exc(EXC_TypeError, "hypot() takes no keyword arguments");
        return NULL;
    }
    size_t n = nn_tuple_len(args);
    double *v = nn_malloc((n ? n : 1) * sizeof *v);
    if (!v) return NULL;
    for (size_t i = 0; i < n; i++)
        if (repl_mod_real(ARG(args, i), &v[i]) < 0) {
            nn_free(v);
            return NULL;
        }
    double r = norm(v, n);
    nn_free(v);
    return nn_float_new(r);
}

static nn_object *m_dist(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("dist", args, kwargs, 2, 2) < 0) return NULL;
    size_t n, m;
    double *p = coords(ARG(args, 0), &n), *q = p ? coords(ARG(args, 1), &m) : NULL;
    nn_object *r = NULL;
    if (q && n != m) repl_raise_exc(EXC_ValueError, "both points must have the same number of dimensions");
    else if (q) {
        for (size_t i = 0; i < n; i++) p[i] -= q[i];
        r = nn_float_new(norm(p, n));
    }
    nn_free(p);
    nn_free(q);
    return r;
}

/* ------------------------------------------------------------ the module */

#define MATH_1_DEF(name, fn, ovf) {#name, m_##name, #name "(x, /)\nReturn the " #name " of x, as the C library computes it."},
static const repl_mod_fn math_functions[] = {
    MATH_1(MATH_1_DEF)
    {"floor", m_floor, "floor(x, /)\nReturn the floor of x as an Integral."},
    {"ceil", m_ceil, "ceil(x, /)\nReturn the ceiling of x as an Integral."},
    {"trunc", m_trunc, "trunc(x, /)\nTruncates the Real x to the nearest Integral toward 0."},
    {"log", m_log, "log(x, [base=math.e])\nReturn the logarithm of x to the given base."},
    {"log2", m_log2, "log2(x, /)\nReturn the base 2 logarithm of x."},
    {"log10", m_log10, "log10(x, /)\nReturn the base 10 logarithm of x."},
    {"pow", m_pow, "pow(x, y, /)\nReturn x**y (x to the power of y)."},
    {"atan2", m_atan2, "atan2(y, x, /)\nReturn the arc tangent (measured in radians) of y/x."},
    {"copysign", m_copysign, "copysign(x, y, /)\nReturn a float with the magnitude of x but the sign of y."},
    {"fmod", m_fmod, "fmod(x, y, /)\nReturn fmod(x, y), according to platform C."},
    {"remainder", m_remainder, "remainder(x, y, /)\nDifference between x and the closest integer multiple of y."},
    {"nextafter", m_nextafter, "nextafter(x, y, /)\nReturn the next floating-point value after x towards y."},
    {"ulp", m_ulp, "ulp(x, /)\nReturn the value of the least significant bit of the float x."},
    {"ldexp", m_ldexp, "ldexp(x, i, /)\nReturn x * (2**i)."},
    {"frexp", m_frexp, "frexp(x, /)\nReturn the mantissa and exponent of x, as pair (m, e)."},
    {"modf", m_modf, "modf(x, /)\nReturn the fractional and integer parts of x."},
    {"degrees", m_degrees, "degrees(x, /)\nConvert angle x from radians to degrees."},
    {"radians", m_radians, "radians(x, /)\nConvert angle x from degrees to radians."},
    {"isfinite", m_isfinite, "isfinite(x, /)\nReturn True if x is neither an infinity nor a NaN, and False otherwise."},
    {"isinf", m_isinf, "isinf(x, /)\nReturn True if x is a positive or negative infinity, and False otherwise."},
    {"isnan", m_isnan, "isnan(x, /)\nReturn True if x is a NaN (not a number), and False otherwise."},
    {"isclose", m_isclose, "isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0)\nDetermine whether two floating point numbers are close in value."},
    {"factorial", repl_math_factorial, "factorial(n, /)\nFind n!."},
    {"gcd", repl_math_gcd, "gcd(*integers)\nGreatest Common Divisor."},
    {"lcm", repl_math_lcm, "lcm(*integers)\nLeast Common Multiple."},
    {"comb", repl_math_comb, "comb(n, k, /)\nNumber of ways to choose k items from n items without repetition and without order."},
    {"perm", repl_math_perm, "perm(n, k=None, /)\nNumber of ways to choose k items from n items without repetition and with order."},
    {"isqrt", repl_math_isqrt, "isqrt(n, /)\nReturn the integer part of the square root of the input."},
    {"gamma", m_gamma, "gamma(x, /)\nGamma function at x."},
    {"lgamma", m_lgamma, "lgamma(x, /)\nNatural logarithm of absolute value of Gamma function at x."},
    {"fsum", m_fsum, "fsum(seq, /)\nReturn an accurate floating point sum of values in the iterable seq."},
    {"prod", m_prod, "prod(iterable, /, *, start=1)\nCalculate the product of all the elements in the input iterable."},
    {"hypot", m_hypot, "hypot(*coordinates)\nMultidimensional Euclidean distance from the origin to a point."},
    {"dist", m_dist, "dist(p, q, /)\nReturn the Euclidean distance between two points p and q."},
};

nn_object *repl_mod_math(void)
{
    nn_object *m = repl_module_new("math");
    if (!m) return NULL;
    if (repl_mod_add_fns(m, math_functions, sizeof math_functions / sizeof *math_functions) < 0 ||
        repl_mod_set(m, "pi", nn_float_new(M_PI)) < 0 || repl_mod_set(m, "e", nn_float_new(M_E)) < 0 ||
        repl_mod_set(m, "tau", nn_float_new(2 * M_PI)) < 0 || repl_mod_set(m, "inf", nn_float_new(INFINITY)) < 0 ||
        repl_mod_set(m, "nan", nn_float_new(NAN)) < 0)
        NN_SET(m, NULL);
    return m;
}
