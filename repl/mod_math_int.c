/*
 * mod_math_int.c — math's integer functions on ints of any size, as CPython
 * 3.11's (through GMP, bigint.h): factorial, gcd, lcm, comb, perm, isqrt, and
 * the logarithms of ints beyond a float's range (log(m) + e * log(2), as
 * CPython's loghelper). Not here: the float functions (mod_math.c).
 */
#include <math.h>

#include "bigint.h"
#include "stdlib_int.h"

#define NARGS(args) ((int)nn_tuple_len(args))
#define ARG(args, i) nn_tuple_get(args, i)

/* an int argument into z (initialised): 0, or -1 with CPython's TypeError */
static int int_arg(nn_object *o, mpz_t z)
{
    if (!repl_is_integer(o))
        return repl_raise_exc(EXC_TypeError, "'%s' object cannot be interpreted as an integer", repl_value_type_name(o));
    repl_int_get_mpz(o, z);
    return 0;
}

nn_object *repl_math_factorial(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("math.factorial", args, kwargs, 1, 1) < 0) return NULL;
    nn_object *o = ARG(args, 0);
    if (!repl_is_integer(o)) {
        repl_raise_exc(EXC_TypeError, "'%s' object cannot be interpreted as an integer", repl_value_type_name(o));
        return NULL;
    }
    if (repl_is_bigint(o)) {
        if (mpz_sgn(repl_bigint_mpz(o)) < 0) repl_raise_exc(EXC_ValueError, "factorial() not defined for negative values");
        else repl_raise_exc(EXC_OverflowError, "factorial() argument should not exceed %lld", (long long)INT64_MAX);
        return NULL;
    }
    int64_t n = nn_int_value(o);
    if (n < 0) {
        repl_raise_exc(EXC_ValueError, "factorial() not defined for negative values");
        return NULL;
    }
    if (repl_bigint_reserve((double)n * log2((double)n + 1)) < 0) return NULL;
    mpz_t r;
    mpz_init(r);
    mpz_fac_ui(r, (unsigned long)n);
    return repl_int_from_mpz(r);
}

/* gcd(*integers) and lcm(*integers) */
static nn_object *gcd_lcm(const char *name, bool lcm, nn_object *args, nn_object *kwargs)
{
    if (kwargs && nn_dict_len(kwargs)) {
        repl_raise_exc(EXC_TypeError, "%s() takes no keyword arguments", name);
        return NULL;
    }
    mpz_t r, v;
    mpz_init_set_ui(r, lcm ? 1 : 0);
    mpz_init(v);
    for (int i = 0; i < NARGS(args); i++) {
        if (int_arg(ARG(args, i), v) < 0 ||
            (lcm && repl_bigint_reserve((double)mpz_sizeinbase(r, 2) + (double)mpz_sizeinbase(v, 2)) < 0)) {
            mpz_clears(r, v, NULL);
            return NULL;
        }
        if (lcm) mpz_lcm(r, r, v);
        else mpz_gcd(r, r, v);
    }
    mpz_clear(v);
    return repl_int_from_mpz(r);
}
nn_object *repl_math_gcd(void *ud, nn_object *args, nn_object *kwargs) { return gcd_lcm("gcd", false, args, kwargs); }
nn_object *repl_math_lcm(void *ud, nn_object *args, nn_object *kwargs) { return gcd_lcm("lcm", true, args, kwargs); }

/* comb(n, k) = n! / (k! (n-k)!), perm(n, k) = n! / (n-k)! */
static nn_object *perm_comb(const char *name, bool comb, nn_object *args, nn_object *kwargs)
{
    int argc = repl_mod_nargs(name, args, kwargs, comb ? 2 : 1, 2);
    if (argc < 0) return NULL;
    mpz_t n, k;
    mpz_inits(n, k, NULL);
    nn_object *res = NULL;
    if (int_arg(ARG(args, 0), n) < 0) goto done;
    if (argc == 1 || nn_is_none(ARG(args, 1))) mpz_set(k, n);
    else if (int_arg(ARG(args, 1), k) < 0) goto done;
    if (mpz_sgn(n) < 0 || mpz_sgn(k) < 0) {
        repl_raise_exc(EXC_ValueError, "%s must be a non-negative integer", mpz_sgn(n) < 0 ? "n" : "k");
        goto done;
    }
    if (mpz_cmp(k, n) > 0) {
        res = nn_int_new(0);
        goto done;
    }
    mpz_t nk, r;
    mpz_inits(nk, r, NULL);
    mpz_sub(nk, n, k);
    if (comb && mpz_cmp(nk, k) < 0) mpz_swap(k, nk); /* C(n, k) == C(n, n - k) */
    if (!mpz_fits_slong_p(k)) {
        repl_raise_exc(EXC_OverflowError, "%s must not exceed %lld", comb ? "min(n - k, k)" : "k", (long long)INT64_MAX);
    } else if (repl_bigint_reserve((double)mpz_get_ui(k) * (double)mpz_sizeinbase(n, 2)) == 0) {
        unsigned long kk = mpz_get_ui(k);
        mpz_bin_ui(r, n, kk);
        if (!comb) { /* perm = C(n, k) * k! */
            mpz_fac_ui(nk, kk);
            mpz_mul(r, r, nk);
        }
        res = repl_int_from_mpz(r);
        mpz_init(r);
    }
    mpz_clears(nk, r, NULL);
done:
    mpz_clears(n, k, NULL);
    return res;
}
nn_object *repl_math_comb(void *ud, nn_object *args, nn_object *kwargs) { return perm_comb("comb", true, args, kwargs); }
nn_object *repl_math_perm(void *ud, nn_object *args, nn_object *kwargs) { return perm_comb("perm", false, args, kwargs); }

nn_object *repl_math_isqrt(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("math.isqrt", args, kwargs, 1, 1) < 0) return NULL;
    mpz_t n;
    mpz_init(n);
    if (int_arg(ARG(args, 0), n) < 0) {
        mpz_clear(n);
        return NULL;
    }
    if (mpz_sgn(n) < 0) {
        mpz_clear(n);
        repl_raise_exc(EXC_ValueError, "isqrt() argument must be nonnegative");
        return NULL;
    }
    mpz_sqrt(n, n);
    return repl_int_from_mpz(n);
}

int repl_math_int_log(nn_object *o, double (*fn)(double), double *out)
{
    if (repl_is_bigint(o) && mpz_sgn(repl_bigint_mpz(o)) < 0) return repl_raise_exc(EXC_ValueError, "math domain error");
    double x;
    if (repl_int_bit_length(o) < 1024) { /* a float holds it */
        if (repl_int_to_double(o, &x) < 0) return -1;
        if (x <= 0) return repl_raise_exc(EXC_ValueError, "math domain error");
        *out = fn(x);
        return 0;
    }
    long e; /* beyond a float: x = m * 2**e, log(x) = log(m) + e * log(2) */
    double m = repl_int_frexp(o, &e);
    *out = fn(m) + fn(2.0) * (double)e;
    return 0;
}
