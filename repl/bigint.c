/*
 * bigint.c — the language's integers beyond 64 bits, as Python's, through GMP.
 * Small ints stay core's nn_int (the evaluator's int64 fast paths); a result
 * that overflows int64 is computed here and becomes a big int, and a big
 * result that fits int64 becomes an nn_int again. Int/float conversions and
 * true division round half to even as CPython's; str() and int(str) keep
 * CPython 3.11's 4300-digit limit.
 * Memory: GMP's own allocator cannot fail gracefully, so every result whose
 * size could be large is first reserved (repl_bigint_reserve): a result
 * beyond BIG_MAX_BITS, or one whose bytes nn_malloc cannot get, is
 * MemoryError before GMP starts.
 * Not here: the int64 paths (eval.c), format specs and the built-ins (builtins.c).
 */
#include "bigint.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "eval_int.h"

typedef struct bigint_obj {
    nn_object ob;
    mpz_t z;
} bigint_obj;

#define BIG_MAX_BITS 17179869184.0 /* 2 GiB of digits */
#define STR_DIGITS_LIMIT 4300      /* CPython 3.11's sys.get_int_max_str_digits() */

static void bigint_dealloc(nn_object *self)
{
    mpz_clear(((bigint_obj *)self)->z);
    nn_free(self);
}

static char *bigint_repr(nn_object *self) { return repl_int_digits(self, 10); }

/* An int beyond int64 equals another such int or a float of its value (a dict
   key 10**20 is found by 1e20), and what an object's __eq__ says; never an int64 one. */
static int bigint_equal(nn_object *a, nn_object *b)
{
    mpz_srcptr z = ((bigint_obj *)a)->z;
    if (b->type == &repl_bigint_type) return mpz_cmp(z, ((bigint_obj *)b)->z) == 0;
    if (b->type == &nn_float_type) return !isnan(nn_float_value(b)) && mpz_cmp_d(z, nn_float_value(b)) == 0;
    return b->type->equal_any ? b->type->equal(b, a) : 0; /* an instance's __eq__: Decimal(2**100) */
}

const nn_type repl_bigint_type = {.name = "int", .dealloc = bigint_dealloc, .repr = bigint_repr,
                                  .hash = repl_bigint_hash, .equal = bigint_equal, .equal_any = true};

mpz_srcptr repl_bigint_mpz(const nn_object *o) { return ((const bigint_obj *)o)->z; }

int repl_bigint_reserve(double bits)
{
    if (bits > BIG_MAX_BITS) return repl_raise_exc(EXC_MemoryError, "%s", "");
    if (bits > 1048576.0) { /* a large result: its bytes must be there */
        void *p = nn_malloc((size_t)(bits / 8) + 64);
        if (!p) return -1;
        nn_free(p);
    }
    return 0;
}

nn_object *repl_int_from_mpz(mpz_t z)
{
    if (mpz_fits_slong_p(z)) {
        long v = mpz_get_si(z);
        mpz_clear(z);
        return nn_int_new((int64_t)v);
    }
    bigint_obj *o = nn_malloc(sizeof *o);
    if (!o) {
        mpz_clear(z);
        return NULL;
    }
    nn_object_init(&o->ob, &repl_bigint_type);
    o->z[0] = z[0]; /* takes z's limbs */
    return &o->ob;
}

void repl_int_get_mpz(const nn_object *o, mpz_t z)
{
    if (repl_is_bigint(o)) mpz_set(z, repl_bigint_mpz(o));
    else mpz_set_si(z, (long)nn_int_value(o));
}

/* An operand as a read-only mpz: a big int's own, else tmp set to the int. */
static mpz_srcptr view(const nn_object *o, mpz_t tmp)
{
    if (repl_is_bigint(o)) return repl_bigint_mpz(o);
    mpz_set_si(tmp, (long)nn_int_value(o));
    return tmp;
}

int repl_int_cmp(const nn_object *a, const nn_object *b)
{
    if (!repl_is_bigint(a) && !repl_is_bigint(b)) {
        int64_t x = nn_int_value(a), y = nn_int_value(b);
        return x < y ? -1 : x > y;
    }
    mpz_t ta, tb;
    mpz_inits(ta, tb, NULL);
    int c = mpz_cmp(view(a, ta), view(b, tb));
    mpz_clears(ta, tb, NULL);
    return c < 0 ? -1 : c > 0;
}

/* ---------------------------------------------------------- floats */

/* m * 2**e (m >= 0), plus a nonzero amount below m's last bit when sticky,
   rounded half to even to a double (subnormals too): 0, or -1 when it is
   beyond the largest double. */
static int round_scaled(mpz_srcptr m, long e, bool sticky, double *out)
{
    if (mpz_sgn(m) == 0) {
        *out = 0.0;
        return 0;
    }
    long n = (long)mpz_sizeinbase(m, 2), top = n - 1 + e;
    if (top > DBL_MAX_EXP - 1) return -1;
    long prec = top < DBL_MIN_EXP - 1 ? DBL_MANT_DIG - (DBL_MIN_EXP - 1 - top) : DBL_MANT_DIG;
    long drop = n - prec;
    if (drop <= 0) {
        *out = ldexp(mpz_get_d(m), (int)e);
        return 0;
    }
    mpz_t q;
    mpz_init(q);
    mpz_fdiv_q_2exp(q, m, (mp_bitcnt_t)drop);
    bool half = mpz_tstbit(m, (mp_bitcnt_t)drop - 1);
    bool rest = sticky || (drop >= 2 && mpz_scan1(m, 0) < (mp_bitcnt_t)drop - 1);
    if (half && (rest || mpz_odd_p(q))) mpz_add_ui(q, q, 1);
    double d = ldexp(mpz_get_d(q), (int)(e + drop));
    mpz_clear(q);
    if (isinf(d)) return -1;
    *out = d;
    return 0;
}

static int mpz_to_double(mpz_srcptr z, double *out)
{
    mpz_t a;
    mpz_init(a);
    mpz_abs(a, z);
    int rc = round_scaled(a, 0, false, out);
    mpz_clear(a);
    if (rc < 0) return repl_raise_exc(EXC_OverflowError, "int too large to convert to float");
    if (mpz_sgn(z) < 0) *out = -*out;
    return 0;
}

int repl_int_to_double(const nn_object *a, double *out)
{
    if (!repl_is_bigint(a)) {
        *out = (double)nn_int_value(a); /* int64 to double rounds half to even */
        return 0;
    }
    return mpz_to_double(repl_bigint_mpz(a), out);
}

nn_object *repl_int_from_double(double x)
{
    if (isnan(x)) {
        repl_raise_exc(EXC_ValueError, "cannot convert float NaN to integer");
        return NULL;
    }
    if (isinf(x)) {
        repl_raise_exc(EXC_OverflowError, "cannot convert float infinity to integer");
        return NULL;
    }
    if (x > -9223372036854775808.0 && x < 9223372036854775808.0) return nn_int_new((int64_t)x);
    mpz_t z;
    mpz_init_set_d(z, x);
    return repl_int_from_mpz(z);
}

/* a / b correctly rounded (b != 0) */
static nn_object *true_divide(mpz_srcptr a, mpz_srcptr b)
{
    bool neg = (mpz_sgn(a) < 0) != (mpz_sgn(b) < 0);
    if (mpz_sgn(a) == 0) return nn_float_new(neg ? -0.0 : 0.0);
    long na = (long)mpz_sizeinbase(a, 2), nb = (long)mpz_sizeinbase(b, 2);
    if (na <= DBL_MANT_DIG && nb <= DBL_MANT_DIG) return nn_float_new(mpz_get_d(a) / mpz_get_d(b)); /* both exact */
    long s = na - nb - (DBL_MANT_DIG + 2); /* the quotient gets 55 or 56 bits */
    if (repl_bigint_reserve((double)(s < 0 ? na - s : nb + s)) < 0) return NULL;
    mpz_t num, den, q, r;
    mpz_inits(num, den, q, r, NULL);
    mpz_abs(num, a);
    mpz_abs(den, b);
    if (s < 0) mpz_mul_2exp(num, num, (mp_bitcnt_t)-s);
    else mpz_mul_2exp(den, den, (mp_bitcnt_t)s);
    mpz_tdiv_qr(q, r, num, den);
    double d;
    int rc = round_scaled(q, s, mpz_sgn(r) != 0, &d);
    mpz_clears(num, den, q, r, NULL);
    if (rc < 0) {
        repl_raise_exc(EXC_OverflowError, "integer division result too large for a float");
        return NULL;
    }
    return nn_float_new(neg ? -d : d);
}

/* ---------------------------------------------------------- arithmetic */

static nn_object *as_float(const nn_object *o)
{
    double d;
    if (repl_int_to_double(o, &d) < 0) return NULL;
    return nn_float_new(d);
}

/* an int against a float, exactly (CPython compares them without rounding) */
static nn_object *compare_float(repl_binop op, const nn_object *i, double f, bool int_left)
{
    int c;
    if (isnan(f)) return nn_bool_new(op == REPL_NE);
    mpz_t t;
    mpz_init(t);
    c = mpz_cmp_d(view(i, t), f);
    mpz_clear(t);
    if (!int_left) c = -c;
    c = c < 0 ? -1 : c > 0;
    bool r = op == REPL_LT ? c < 0 : op == REPL_LE ? c <= 0 : op == REPL_GT ? c > 0 : op == REPL_GE ? c >= 0
             : op == REPL_EQ ? c == 0 : c != 0;
    return nn_bool_new(r);
}

static double bits_of(mpz_srcptr z) { return (double)mpz_sizeinbase(z, 2); }

static nn_object *int_binary(repl_binop op, nn_object *a, nn_object *b)
{
    mpz_t ta, tb, r;
    mpz_inits(ta, tb, NULL);
    mpz_srcptr x = view(a, ta), y = view(b, tb);
    nn_object *res = NULL;
    if (op >= REPL_LT && op <= REPL_NE) {
        int c = mpz_cmp(x, y);
        bool v = op == REPL_LT ? c < 0 : op == REPL_LE ? c <= 0 : op == REPL_GT ? c > 0 : op == REPL_GE ? c >= 0
                 : op == REPL_EQ ? c == 0 : c != 0;
        res = nn_bool_new(v);
        goto done;
    }
    if ((op == REPL_FLOORDIV || op == REPL_MOD || op == REPL_DIV) && mpz_sgn(y) == 0) {
        repl_raise_exc(EXC_ZeroDivisionError, "%s", op == REPL_MOD ? "integer modulo by zero"
                                                    : op == REPL_DIV ? "division by zero"
                                                                     : "integer division or modulo by zero");
        goto done;
    }
    if (op == REPL_DIV) {
        res = true_divide(x, y);
        goto done;
    }
    if (op == REPL_POW) {
        if (mpz_sgn(y) < 0) { /* a float, as CPython: float(a) ** float(b) */
            nn_object *fa = as_float(a), *fb = fa ? as_float(b) : NULL;
            if (fb) res = repl_binary_op(REPL_POW, fa, fb);
            NN_RELEASE(fa);
            NN_RELEASE(fb);
            goto done;
        }
        if (mpz_cmpabs_ui(x, 1) <= 0) { /* 0, 1, -1 to any power */
            mpz_init(r);
            if (mpz_sgn(x) == 0) mpz_set_ui(r, mpz_sgn(y) == 0);
            else mpz_set_si(r, mpz_sgn(x) < 0 && mpz_odd_p(y) ? -1 : 1);
            res = repl_int_from_mpz(r);
            goto done;
        }
        if (!mpz_fits_ulong_p(y) || repl_bigint_reserve(bits_of(x) * mpz_get_d(y)) < 0) {
            if (!nn_error_current()) repl_raise_exc(EXC_MemoryError, "%s", "");
            goto done;
        }
        mpz_init(r);
        mpz_pow_ui(r, x, mpz_get_ui(y));
        res = repl_int_from_mpz(r);
        goto done;
    }
    double need = fmax(bits_of(x), bits_of(y)) + 1;
    if (op == REPL_MUL) need = bits_of(x) + bits_of(y);
    if (repl_bigint_reserve(need) < 0) goto done;
    mpz_init(r);
    switch (op) {
    case REPL_ADD: mpz_add(r, x, y); break;
    case REPL_SUB: mpz_sub(r, x, y); break;
    case REPL_MUL: mpz_mul(r, x, y); break;
    case REPL_FLOORDIV: mpz_fdiv_q(r, x, y); break;
    case REPL_MOD: mpz_fdiv_r(r, x, y); break;
    case REPL_AND_BITS: mpz_and(r, x, y); break;
    case REPL_OR_BITS: mpz_ior(r, x, y); break;
    case REPL_XOR_BITS: mpz_xor(r, x, y); break;
    default:
        mpz_clear(r);
        goto done;
    }
    res = repl_int_from_mpz(r);
done:
    mpz_clears(ta, tb, NULL);
    return res;
}

nn_object *repl_bigint_torch_overflow(void)
{
    repl_raise_exc(EXC_RuntimeError, "Overflow when unpacking long");
    return NULL;
}

nn_object *repl_bigint_binary(repl_binop op, nn_object *a, nn_object *b, bool *handled)
{
    *handled = true;
    bool ia = repl_is_integer(a), ib = repl_is_integer(b);
    if (ia && ib) {
        if (op == REPL_MATMUL) goto unhandled;
        return int_binary(op, a, b);
    }
    bool fa = a->type == &nn_float_type, fb = b->type == &nn_float_type;
    if ((ia && fb) || (fa && ib)) {
        if (op == REPL_MATMUL || op >= REPL_AND_BITS) goto unhandled;
        if (op >= REPL_LT && op <= REPL_NE)
            return ia ? compare_float(op, a, nn_float_value(b), true) : compare_float(op, b, nn_float_value(a), false);
        nn_object *x = ia ? as_float(a) : nn_retain(a);
        nn_object *y = x ? (ib ? as_float(b) : nn_retain(b)) : NULL;
        nn_object *r = y ? repl_binary_op(op, x, y) : NULL;
        NN_RELEASE(x);
        NN_RELEASE(y);
        return r;
    }
    nn_object *other = ia ? b : a;
    if (nn_is_tensor(other)) return repl_bigint_torch_overflow();
    if (op == REPL_MUL && (other->type == &nn_str_type || other->type == &nn_list_type || other->type == &nn_tuple_type)) {
        repl_raise_exc(EXC_OverflowError, "cannot fit 'int' into an index-sized integer");
        return NULL;
    }
unhandled:
    *handled = false;
    return NULL;
}

nn_object *repl_int_shift(bool left, nn_object *a, nn_object *b)
{
    bool big_count = repl_is_bigint(b);
    if (big_count ? mpz_sgn(repl_bigint_mpz(b)) < 0 : nn_int_value(b) < 0) {
        repl_raise_exc(EXC_ValueError, "negative shift count");
        return NULL;
    }
    mpz_t ta, r;
    mpz_init(ta);
    mpz_srcptr x = view(a, ta);
    nn_object *res = NULL;
    if (!left) {
        mpz_init(r);
        if (big_count || (double)nn_int_value(b) >= bits_of(x)) mpz_set_si(r, mpz_sgn(x) < 0 ? -1 : 0);
        else mpz_fdiv_q_2exp(r, x, (mp_bitcnt_t)nn_int_value(b));
        res = repl_int_from_mpz(r);
    } else if (mpz_sgn(x) == 0) {
        res = nn_int_new(0);
    } else if (big_count) {
        repl_raise_exc(EXC_OverflowError, "too many digits in integer");
    } else if (repl_bigint_reserve(bits_of(x) + (double)nn_int_value(b)) == 0) {
        mpz_init(r);
        mpz_mul_2exp(r, x, (mp_bitcnt_t)nn_int_value(b));
        res = repl_int_from_mpz(r);
    }
    mpz_clear(ta);
    return res;
}

nn_object *repl_int_unary(repl_unop op, nn_object *a)
{
    if (op == REPL_POS) return repl_is_bigint(a) ? nn_retain(a) : nn_int_new(nn_int_value(a));
    mpz_t r;
    mpz_init(r);
    repl_int_get_mpz(a, r);
    if (op == REPL_NEG) mpz_neg(r, r);
    else mpz_com(r, r);
    return repl_int_from_mpz(r);
}

/* ---------------------------------------------------------- text */

static void digits_limit_error(size_t have)
{
    if (have)
        repl_raise_exc(EXC_ValueError, "Exceeds the limit (%d digits) for integer string conversion: value has %zu digits; "
                       "use sys.set_int_max_str_digits() to increase the limit", STR_DIGITS_LIMIT, have);
    else
        repl_raise_exc(EXC_ValueError, "Exceeds the limit (%d digits) for integer string conversion; "
                       "use sys.set_int_max_str_digits() to increase the limit", STR_DIGITS_LIMIT);
}

char *repl_int_digits(const nn_object *a, int base)
{
    mpz_t t;
    mpz_init(t);
    mpz_srcptr x = view(a, t);
    size_t n = mpz_sizeinbase(x, base);
    char *s = NULL;
    if (base == 10 && n > STR_DIGITS_LIMIT + 1) digits_limit_error(0);
    else if ((s = nn_malloc(n + 2))) {
        mpz_get_str(s, base, x);
        if (base == 10 && strlen(s) - (s[0] == '-') > STR_DIGITS_LIMIT) {
            nn_free(s);
            s = NULL;
            digits_limit_error(0);
        }
    }
    mpz_clear(t);
    return s;
}

static bool py_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f); }

static int digit_value(unsigned char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'z') return c - 'a' + 10;
    if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
    return 99;
}

/* Parses [sign][prefix]digits with single underscores between digits (and
   after a prefix) into z; base 0 takes the prefix's base (a decimal with a
   leading zero must be all zeros). 0, -1 when the text is not an int (no
   error set), -2 with the digit-limit ValueError. */
static int parse_digits(const char *p, const char *end, int base, mpz_t z, bool literal)
{
    while (p < end && py_space((unsigned char)*p)) p++;
    while (end > p && py_space((unsigned char)end[-1])) end--;
    bool neg = false;
    if (!literal && p < end && (*p == '+' || *p == '-')) neg = *p++ == '-';
    bool prefixed = false;
    if (end - p >= 2 && p[0] == '0') {
        char c = (char)(p[1] | 32);
        int pb = c == 'x' ? 16 : c == 'o' ? 8 : c == 'b' ? 2 : 0;
        if (pb && (base == 0 || base == pb)) {
            base = pb;
            p += 2;
            prefixed = true;
        }
    }
    bool base0 = base == 0;
    if (base0) base = 10;
    if (p >= end) return -1;
    char *buf = nn_malloc((size_t)(end - p) + 1);
    if (!buf) return -2;
    size_t k = 0;
    bool prev_digit = prefixed; /* "0x_ff" is allowed */
    for (; p < end; p++) {
        if (*p == '_') {
            if (!prev_digit) break;
            prev_digit = false;
            continue;
        }
        if (digit_value((unsigned char)*p) >= base) break;
        buf[k++] = *p;
        prev_digit = true;
    }
    buf[k] = 0;
    int rc = 0;
    if (p < end || !prev_digit || k == 0) rc = -1;
    else if (base0 && base == 10 && !prefixed && buf[0] == '0' && strspn(buf, "0") != k) rc = -1;
    else if (!literal && (base & (base - 1)) != 0 && k > STR_DIGITS_LIMIT) {
        digits_limit_error(k);
        rc = -2;
    } else if (repl_bigint_reserve((double)k * 6) < 0) rc = -2;
    else {
        mpz_set_str(z, buf, base);
        if (neg) mpz_neg(z, z);
    }
    nn_free(buf);
    return rc;
}

nn_object *repl_int_from_text(const char *text, size_t len, int base, nn_object *orig)
{
    if (base != 0 && (base < 2 || base > 36)) {
        repl_raise_exc(EXC_ValueError, "int() base must be >= 2 and <= 36, or 0");
        return NULL;
    }
    mpz_t z;
    mpz_init(z);
    int rc = parse_digits(text, text + len, base, z, false);
    if (rc == 0) return repl_int_from_mpz(z);
    mpz_clear(z);
    if (rc == -1) {
        char *r = repl_obj_repr(orig);
        repl_raise_exc(EXC_ValueError, "invalid literal for int() with base %d: %s", base, r ? r : "?");
        nn_free(r);
    }
    return NULL;
}

nn_object *repl_int_from_literal(const char *digits, size_t len)
{
    mpz_t z;
    mpz_init(z);
    if (parse_digits(digits, digits + len, 0, z, true) == 0) return repl_int_from_mpz(z);
    mpz_clear(z);
    if (!nn_error_current()) repl_raise_exc(EXC_SyntaxError, "invalid decimal literal");
    return NULL;
}

/* ---------------------------------------------------------- hash */

int64_t repl_bigint_hash(nn_object *o)
{
    uint64_t h = 0;
    repl_cpython_hash(o, &h); /* an int always has one */
    return (int64_t)(h & INT64_MAX);
}

/* ---------------------------------------------------------- built-ins */

nn_object *repl_int_round(nn_object *x, int64_t ndigits)
{
    if (ndigits >= 0) return repl_is_bigint(x) ? nn_retain(x) : nn_int_new(nn_int_value(x));
    mpz_t v, p, q, r;
    mpz_inits(v, p, q, r, NULL);
    repl_int_get_mpz(x, v);
    nn_object *res = NULL;
    if ((double)-ndigits > bits_of(v) * 0.30103 + 2) { /* 10**-ndigits beyond twice |x|: 0 */
        res = nn_int_new(0);
        goto done;
    }
    mpz_ui_pow_ui(p, 10, (unsigned long)-ndigits);
    mpz_fdiv_qr(q, r, v, p);
    mpz_mul_2exp(r, r, 1);
    int c = mpz_cmp(r, p);
    if (c > 0 || (c == 0 && mpz_odd_p(q))) mpz_add_ui(q, q, 1); /* half to even */
    mpz_mul(q, q, p);
    res = repl_int_from_mpz(q);
    mpz_init(q);
done:
    mpz_clears(v, p, q, r, NULL);
    return res;
}

nn_object *repl_int_powmod(nn_object *b, nn_object *e, nn_object *m)
{
    mpz_t tb, te, tm, r;
    mpz_inits(tb, te, tm, NULL);
    mpz_srcptr x = view(b, tb), y = view(e, te), mod = view(m, tm);
    nn_object *res = NULL;
    if (mpz_sgn(mod) == 0) {
        repl_raise_exc(EXC_ValueError, "pow() 3rd argument cannot be 0");
        goto done;
    }
    mpz_init(r);
    mpz_t am, base;
    mpz_inits(am, base, NULL);
    mpz_abs(am, mod);
    mpz_set(base, x);
    bool ok = true;
    if (mpz_sgn(y) < 0 && !mpz_invert(base, base, am)) ok = false;
    if (ok) {
        mpz_t ae;
        mpz_init(ae);
        mpz_abs(ae, y);
        mpz_powm(r, base, ae, am); /* in [0, |m|) */
        mpz_clear(ae);
        if (mpz_sgn(mod) < 0 && mpz_sgn(r) != 0) mpz_add(r, r, mod); /* the sign of m, as Python's % */
        res = repl_int_from_mpz(r);
    } else {
        mpz_clear(r);
        repl_raise_exc(EXC_ValueError, "base is not invertible for the given modulus");
    }
    mpz_clears(am, base, NULL);
done:
    mpz_clears(tb, te, tm, NULL);
    return res;
}

int64_t repl_int_bit_length(const nn_object *x)
{
    if (!repl_is_bigint(x)) {
        int64_t v = nn_int_value(x);
        uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
        return u ? 64 - __builtin_clzll(u) : 0;
    }
    return (int64_t)mpz_sizeinbase(repl_bigint_mpz(x), 2);
}

nn_object *repl_int_abs(nn_object *x)
{
    if (repl_is_bigint(x) ? mpz_sgn(repl_bigint_mpz(x)) < 0 : nn_int_value(x) < 0) return repl_int_unary(REPL_NEG, x);
    return repl_is_bigint(x) ? nn_retain(x) : nn_int_new(nn_int_value(x));
}

double repl_int_frexp(const nn_object *a, long *e)
{
    mpz_t t, x;
    mpz_inits(t, x, NULL);
    mpz_abs(x, view(a, t));
    long n = (long)mpz_sizeinbase(x, 2);
    double m = 0;
    if (mpz_sgn(x)) round_scaled(x, -n, false, &m); /* in [0.5, 1] */
    *e = mpz_sgn(x) ? n : 0;
    bool neg = repl_is_bigint(a) ? mpz_sgn(repl_bigint_mpz(a)) < 0 : nn_int_value(a) < 0;
    mpz_clears(t, x, NULL);
    return neg ? -m : m;
}
