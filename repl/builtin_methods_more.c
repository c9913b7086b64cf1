/*
 * builtin_methods_more.c — methods of the built-in types beyond builtins.c's
 * tables, added to their classes at start-up: str.expandtabs / rpartition /
 * translate / maketrans, dict.fromkeys (a classmethod), the in-place set
 * operations and isdisjoint, and the numbers' real / imag / numerator /
 * denominator properties, conjugate, as_integer_ratio, bit_count, float.hex /
 * fromhex. As CPython 3.11's, with its error texts.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <utf8proc.h>

#include "bigint.h"
#include "eval_int.h"
#include "stdlib_int.h"

#define NARGS ((int)nn_tuple_len(args))
#define ARG(i) nn_tuple_get(args, (size_t)(i))
#define SELF ARG(0)

/* the arguments after self */
static int nargs(const char *fname, nn_object *args, int min, int max)
{
    return repl_check_arity(fname, NARGS - 1, min, max);
}

/* ------------------------------------------------------------------ str */

/* expandtabs(tabsize=8): tabs to spaces up to the next multiple of tabsize
   columns, a column being a code point; newlines restart the count. */
static nn_object *str_expandtabs(void *ud, nn_object *args, nn_object *kwargs)
{
    int64_t tabsize = 8;
    nn_object *kw = kwargs ? nn_dict_get_str(kwargs, "tabsize") : NULL;
    if (NARGS > 2 || (kwargs && nn_dict_len(kwargs) > (kw ? 1u : 0u))) {
        repl_raise_exc(EXC_TypeError, "expandtabs() takes at most 1 argument");
        return NULL;
    }
    nn_object *t = NARGS > 1 ? ARG(1) : kw;
    if (t) {
        if (!repl_is_integer(t)) {
            repl_raise_exc(EXC_TypeError, "'%s' object cannot be interpreted as an integer", repl_value_type_name(t));
            return NULL;
        }
        if (repl_is_bigint(t) || nn_int_value(t) < INT_MIN || nn_int_value(t) > INT_MAX) { /* CPython's C int */
            repl_raise_exc(EXC_OverflowError, "Python int too large to convert to C int");
            return NULL;
        }
        tabsize = nn_int_value(t);
    }
    const char *s = nn_str_cstr(SELF);
    size_t n = nn_str_len(SELF);
    sbuf b = {0};
    int64_t col = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\t') {
            if (tabsize > 0) {
                int64_t pad = tabsize - col % tabsize;
                repl_sb_fill(&b, ' ', (size_t)pad);
                col += pad;
            }
        } else {
            repl_sb_add(&b, s + i, 1);
            if (c == '\n' || c == '\r') col = 0;
            else if ((c & 0xC0) != 0x80) col++; /* a code point's first byte */
        }
    }
    char *r = repl_sb_finish(&b);
    nn_object *o = r ? nn_str_new(r) : NULL;
    nn_free(r);
    return o;
}

/* rpartition(sep): split at the last sep: (head, sep, tail), or ('', '', s). */
static nn_object *str_rpartition(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs("rpartition", args, 1, 1) < 0) return NULL;
    if (!nn_is_str(ARG(1))) {
        repl_raise_exc(EXC_TypeError, "must be str, not %s", repl_value_type_name(ARG(1)));
        return NULL;
    }
    const char *s = nn_str_cstr(SELF), *sep = nn_str_cstr(ARG(1));
    size_t n = nn_str_len(SELF), m = nn_str_len(ARG(1));
    if (!m) {
        repl_raise_exc(EXC_ValueError, "empty separator");
        return NULL;
    }
    const char *found = NULL;
    for (size_t i = n >= m ? n - m + 1 : 0; i-- > 0;)
        if (memcmp(s + i, sep, m) == 0) {
            found = s + i;
            break;
        }
    nn_object *e = nn_str_new("");
    if (!e) return NULL;
    nn_object *t;
    if (!found) {
        t = nn_tuple_pack(3, e, e, SELF);
    } else {
        size_t at = (size_t)(found - s);
        nn_object *head = nn_str_from(s, at), *tail = nn_str_from(s + at + m, n - at - m);
        t = head && tail ? nn_tuple_pack(3, head, ARG(1), tail) : NULL;
        NN_RELEASE(head);
        NN_RELEASE(tail);
    }
    NN_RELEASE(e);
    return t;
}

/* translate(table): each code point looked up in table (a dict of ordinals):
   a str or an ordinal replaces it, None deletes it, a missing key keeps it. */
static nn_object *str_translate(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs("translate", args, 1, 1) < 0) return NULL;
    nn_object *table = ARG(1);
    const utf8proc_uint8_t *s = (const utf8proc_uint8_t *)nn_str_cstr(SELF);
    utf8proc_ssize_t n = (utf8proc_ssize_t)nn_str_len(SELF);
    sbuf b = {0};
    for (utf8proc_ssize_t i = 0; i < n;) {
        utf8proc_int32_t cp;
        utf8proc_ssize_t len = utf8proc_iterate(s + i, n - i, &cp);
        if (len <= 0) len = 1, cp = s[i];
        nn_object *key = nn_int_new(cp), *v = key ? repl_get_item(table, key) : NULL;
        NN_RELEASE(key);
        if (!v) {
            nn_object *e = repl_take_exception();
            bool missing = repl_exc_matches(e, &repl_current->exc_classes[EXC_LookupError]->ob);
            if (!missing) {
                repl_raise_object(e);
                NN_RELEASE(e);
                nn_free(repl_sb_finish(&b));
                return NULL;
            }
            NN_RELEASE(e);
            repl_sb_add(&b, (const char *)s + i, (size_t)len);
        } else if (nn_is_str(v)) {
            repl_sb_add(&b, nn_str_cstr(v), nn_str_len(v));
        } else if (nn_is_int(v)) {
            int64_t c = nn_int_value(v);
            utf8proc_uint8_t enc[4];
            if (c < 0 || c > 0x10ffff) {
                repl_raise_exc(EXC_ValueError, "character mapping must be in range(0x110000)");
                NN_RELEASE(v);
                nn_free(repl_sb_finish(&b));
                return NULL;
            }
            repl_sb_add(&b, (const char *)enc, (size_t)utf8proc_encode_char((utf8proc_int32_t)c, enc));
        } else if (!nn_is_none(v)) {
            repl_raise_exc(EXC_TypeError, "character mapping must return integer, None or str");
            NN_RELEASE(v);
            nn_free(repl_sb_finish(&b));
            return NULL;
        }
        NN_RELEASE(v);
        i += len;
    }
    char *r = repl_sb_finish(&b);
    nn_object *o = r ? nn_str_new(r) : NULL;
    nn_free(r);
    return o;
}

/* The code point of a one-character str, or -1 (no error set). */
static int32_t single_char(nn_object *o)
{
    const utf8proc_uint8_t *s = (const utf8proc_uint8_t *)nn_str_cstr(o);
    utf8proc_ssize_t n = (utf8proc_ssize_t)nn_str_len(o);
    utf8proc_int32_t cp;
    return n && utf8proc_iterate(s, n, &cp) == n ? cp : -1;
}

/* str.maketrans(x[, y[, z]]), a static method: a dict for translate. */
static nn_object *str_maketrans(void *ud, nn_object *args, nn_object *kwargs)
{
    int n = NARGS;
    if (n < 1 || n > 3) {
        repl_raise_exc(EXC_TypeError, "maketrans expected at %s %d argument%s, got %d", n < 1 ? "least" : "most",
                       n < 1 ? 1 : 3, n < 1 ? "" : "s", n);
        return NULL;
    }
    nn_object *d = nn_dict_new();
    if (!d) return NULL;
    if (n == 1) {
        nn_object *x = ARG(0);
        if (!nn_is_dict(x)) {
            repl_raise_exc(EXC_TypeError, "if you give only one argument to maketrans it must be a dict");
            goto fail;
        }
        nn_object *items = repl_to_list(x);
        for (size_t i = 0; items && i < nn_list_len(items); i++) {
            nn_object *k = nn_list_get(items, i), *v = nn_dict_get(x, k), *key = NULL;
            if (nn_is_str(k)) {
                int32_t cp = single_char(k);
                if (cp < 0) {
                    repl_raise_exc(EXC_ValueError, "string keys in translate table must be of length 1");
                    NN_RELEASE(items);
                    goto fail;
                }
                key = nn_int_new(cp);
            } else if (nn_is_int(k)) {
                key = nn_retain(k);
            } else {
                repl_raise_exc(EXC_TypeError, "keys in translate table must be strings or integers");
                NN_RELEASE(items);
                goto fail;
            }
            int rc = key ? nn_dict_set(d, key, v) : -1;
            NN_RELEASE(key);
            if (rc < 0) {
                NN_RELEASE(items);
                goto fail;
            }
        }
        if (!items) goto fail;
        NN_RELEASE(items);
        return d;
    }
    nn_object *x = ARG(0), *y = ARG(1), *z = n > 2 ? ARG(2) : NULL;
    if (!nn_is_str(x) || !nn_is_str(y) || (z && !nn_is_str(z))) {
        repl_raise_exc(EXC_TypeError, "maketrans() argument %d must be str, not %s", !nn_is_str(x) ? 1 : !nn_is_str(y) ? 2 : 3,
                       repl_value_type_name(!nn_is_str(x) ? x : !nn_is_str(y) ? y : z));
        goto fail;
    }
    nn_object *xs = repl_to_list(x), *ys = repl_to_list(y);
    if (!xs || !ys || nn_list_len(xs) != nn_list_len(ys)) {
        if (xs && ys) repl_raise_exc(EXC_ValueError, "the first two maketrans arguments must have equal length");
        NN_RELEASE(xs);
        NN_RELEASE(ys);
        goto fail;
    }
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < nn_list_len(xs); i++) {
        nn_object *k = nn_int_new(single_char(nn_list_get(xs, i))), *v = nn_int_new(single_char(nn_list_get(ys, i)));
        rc = k && v ? nn_dict_set(d, k, v) : -1;
        NN_RELEASE(k);
        NN_RELEASE(v);
    }
    NN_RELEASE(xs);
    NN_RELEASE(ys);
    nn_object *zs = z && rc == 0 ? repl_to_list(z) : NULL;
    if (z && !zs) goto fail;
    for (size_t i = 0; zs && rc == 0 && i < nn_list_len(zs); i++) {
        nn_object *k = nn_int_new(single_char(nn_list_get(zs, i)));
        rc = k ? nn_dict_set(d, k, nn_none()) : -1;
        NN_RELEASE(k);
    }
    NN_RELEASE(zs);
    if (rc < 0) goto fail;
    return d;
fail:
    NN_RELEASE(d);
    return NULL;
}

/* ------------------------------------------------------------------ dict */

/* dict.fromkeys(iterable, value=None), a classmethod: an OrderedDict for OrderedDict. */
static nn_object *dict_fromkeys(void *ud, nn_object *args, nn_object *kwargs)
{
    if (NARGS < 2 || NARGS > 3) {
        repl_raise_exc(EXC_TypeError, "fromkeys expected at %s %d argument%s, got %d", NARGS < 2 ? "least" : "most",
                       NARGS < 2 ? 1 : 2, NARGS < 2 ? "" : "s", NARGS - 1);
        return NULL;
    }
    class_obj *cls = SELF->type == &repl_class_type ? (class_obj *)SELF : NULL;
    bool ordered = SELF == &repl_current->odict_cls->ob;
    nn_object *value = NARGS > 2 ? ARG(2) : nn_none();
    nn_object *keys = repl_to_list(ARG(1));
    if (!keys) return NULL;
    /* a subclass (D.fromkeys): an instance of it, filled through its __setitem__ */
    bool sub = cls && cls->vbase;
    nn_object *d = sub ? repl_call_object(SELF, NULL, 0, NULL) : ordered ? nn_ordered_dict_new() : nn_dict_new();
    for (size_t i = 0; d && i < nn_list_len(keys); i++)
        if ((sub ? repl_set_item(d, nn_list_get(keys, i), value) : nn_dict_set(d, nn_list_get(keys, i), value)) < 0)
            NN_SET(d, NULL);
    NN_RELEASE(keys);
    return d;
}

/* ------------------------------------------------------------------ set */

/* s.OP_update(*others): s OP= each other, through the set's operators. */
static nn_object *set_inplace(nn_object *args, repl_binop op)
{
    for (int i = 1; i < NARGS; i++) {
        nn_object *other = ARG(i), *as_set = NULL;
        if (other->type != &repl_set_type) { /* any iterable, as CPython's methods (not its operators) take */
            nn_object *items = repl_to_list(other);
            as_set = items ? repl_set_new(false) : NULL;
            for (size_t k = 0; as_set && k < nn_list_len(items); k++) {
                nn_object *item = nn_list_get(items, k);
                /* &=: CPython's set_intersection adds other's elements that s holds, in other's order */
                if (op == REPL_AND_BITS && !nn_dict_get(((set_obj *)SELF)->d, item)) continue;
                if (repl_set_add(as_set, item) < 0) NN_SET(as_set, NULL);
            }
            NN_RELEASE(items);
            if (!as_set) return NULL;
            if (op == REPL_AND_BITS) { /* that set becomes s's body (set_swap_bodies) */
                set_obj *s = (set_obj *)SELF, *o = (set_obj *)as_set;
                nn_object *d = s->d;
                s->d = o->d;
                o->d = d;
                repl_set_table_free(s);
                NN_RELEASE(as_set);
                continue;
            }
            other = as_set;
        }
        nn_object *r = repl_inplace_builtin(op, SELF, other);
        NN_RELEASE(as_set);
        if (!r) return NULL; /* a set always has the in-place form: only an error gets here */
        NN_RELEASE(r);
    }
    return nn_retain(nn_none());
}

static nn_object *set_intersection_update(void *ud, nn_object *args, nn_object *kwargs)
{
    return set_inplace(args, REPL_AND_BITS);
}
static nn_object *set_difference_update(void *ud, nn_object *args, nn_object *kwargs)
{
    return set_inplace(args, REPL_SUB);
}
static nn_object *set_symmetric_difference_update(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs("symmetric_difference_update", args, 1, 1) < 0) return NULL;
    return set_inplace(args, REPL_XOR_BITS);
}

static nn_object *set_isdisjoint(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs("isdisjoint", args, 1, 1) < 0) return NULL;
    nn_object *items = repl_to_list(ARG(1));
    if (!items) return NULL;
    bool disjoint = true;
    for (size_t i = 0; disjoint && i < nn_list_len(items); i++) {
        nn_object *item = nn_list_get(items, i);
        if (nn_dict_get(((set_obj *)SELF)->d, item)) disjoint = false;
        else if (nn_error_current()) {
            NN_RELEASE(items);
            return NULL;
        }
    }
    NN_RELEASE(items);
    return nn_bool_new(disjoint);
}

/* ------------------------------------------------------------------ numbers */

static nn_object *num_self(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs("conjugate", args, 0, 0) < 0) return NULL;
    nn_object *x = SELF;
    return nn_is_bool(x) ? nn_int_new(nn_int_value(x)) : nn_retain(x);
}

static nn_object *num_zero(void *ud, nn_object *args, nn_object *kwargs)
{
    return nn_is_float(SELF) ? nn_float_new(0.0) : nn_int_new(0);
}

static nn_object *int_one(void *ud, nn_object *args, nn_object *kwargs) { return nn_int_new(1); }

static nn_object *int_as_integer_ratio(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs("as_integer_ratio", args, 0, 0) < 0) return NULL;
    nn_object *n = nn_is_bool(SELF) ? nn_int_new(nn_int_value(SELF)) : nn_retain(SELF), *one = nn_int_new(1);
    nn_object *t = n && one ? nn_tuple_pack(2, n, one) : NULL;
    NN_RELEASE(n);
    NN_RELEASE(one);
    return t;
}

static nn_object *int_bit_count(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs("bit_count", args, 0, 0) < 0) return NULL;
    mpz_t z;
    mpz_init(z);
    repl_int_get_mpz(SELF, z);
    mpz_abs(z, z);
    int64_t count = (int64_t)mpz_popcount(z);
    mpz_clear(z);
    return nn_int_new(count);
}

/* float.as_integer_ratio(): the exact fraction, in lowest terms. */
static nn_object *float_as_integer_ratio(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs("as_integer_ratio", args, 0, 0) < 0) return NULL;
    double x = nn_float_value(SELF);
    if (isinf(x)) {
        repl_raise_exc(EXC_OverflowError, "cannot convert Infinity to integer ratio");
        return NULL;
    }
    if (isnan(x)) {
        repl_raise_exc(EXC_ValueError, "cannot convert NaN to integer ratio");
        return NULL;
    }
    mpq_t q;
    mpq_init(q);
    mpq_set_d(q, x); /* exact, canonical */
    mpz_t num, den;
    mpz_init_set(num, mpq_numref(q));
    mpz_init_set(den, mpq_denref(q));
    mpq_clear(q);
    nn_object *n = repl_int_from_mpz(num), *d = repl_int_from_mpz(den);
    nn_object *t = n && d ? nn_tuple_pack(2, n, d) : NULL;
    NN_RELEASE(n);
    NN_RELEASE(d);
    return t;
}

/* float.hex(): CPython's form, '0x1.8000000000000p+1' ('-0x0.0p+0', 'inf'). */
static nn_object *float_hex(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs("hex", args, 0, 0) < 0) return NULL;
    double x = nn_float_value(SELF);
    if (isnan(x) || isinf(x)) return nn_str_new(isnan(x) ? "nan" : x > 0 ? "inf" : "-inf");
    const char *sign = signbit(x) ? "-" : "";
    x = fabs(x);
    if (x == 0) return nn_str_format("%s0x0.0p+0", sign);
    int e;
    double m = frexp(x, &e); /* x = m * 2**e, 0.5 <= m < 1 */
    if (e < -1021) {         /* subnormal: CPython keeps the exponent at -1022 */
        m = ldexp(m, e + 1021);
        e = -1021;
    }
    m *= 2, e -= 1; /* 1 <= m < 2, or below 1 for a subnormal */
    int lead = (int)m;
    uint64_t frac = (uint64_t)ldexp(m - lead, 52);
    return nn_str_format("%s0x%d.%013llxp%+d", sign, lead, (unsigned long long)frac, e);
}

/* float.fromhex(s), a classmethod: C's strtod reads the hex form (and inf, nan). */
static nn_object *float_fromhex(void *ud, nn_object *args, nn_object *kwargs)
{
    if (NARGS != 2 || !nn_is_str(ARG(1))) {
        if (NARGS != 2) repl_raise_exc(EXC_TypeError, "fromhex() takes exactly one argument (%d given)", NARGS - 1);
        else repl_raise_exc(EXC_TypeError, "must be str, not %s", repl_value_type_name(ARG(1)));
        return NULL;
    }
    const char *s = nn_str_cstr(ARG(1));
    while (*s == ' ' || *s == '\t' || *s == '\n') s++;
    char *end;
    double v = strtod(s, &end);
    while (*end == ' ' || *end == '\t' || *end == '\n') end++;
    if (end == s || *end) {
        repl_raise_exc(EXC_ValueError, "invalid hexadecimal floating-point string");
        return NULL;
    }
    if (isinf(v) && !strpbrk(s, "iI")) {
        repl_raise_exc(EXC_OverflowError, "hexadecimal value too large to represent as a float");
        return NULL;
    }
    return nn_float_new(v);
}

/* ------------------------------------------------------------------ registration */

enum { PLAIN, PROPERTY, CLASSMETHOD, STATICMETHOD };

typedef struct more_method {
    size_t slot; /* offsetof(repl_interp, str_cls) */
    const char *name;
    nn_cfunc fn;
    int kind;
    const char *doc; /* "signature\none line", as builtins.c's tables */
} more_method;

#define CLS(field) offsetof(repl_interp, field)
static const more_method methods[] = {
    {CLS(str_cls), "expandtabs", str_expandtabs, PLAIN, "expandtabs(tabsize=8)\nReturn a copy where all tab characters are expanded using spaces."},
    {CLS(str_cls), "rpartition", str_rpartition, PLAIN, "rpartition(sep, /)\nPartition the string into three parts using the given separator, searching from the end."},
    {CLS(str_cls), "translate", str_translate, PLAIN, "translate(table, /)\nReplace each character in the string using the given translation table."},
    {CLS(str_cls), "maketrans", str_maketrans, STATICMETHOD, "maketrans(x, y=<unrepresentable>, z=<unrepresentable>, /)\nReturn a translation table usable for str.translate()."},
    {CLS(dict_cls), "fromkeys", dict_fromkeys, CLASSMETHOD, "fromkeys(iterable, value=None, /)\nCreate a new dictionary with keys from iterable and values set to value."},
    {CLS(set_cls), "intersection_update", set_intersection_update, PLAIN, "intersection_update(*others)\nUpdate a set with the intersection of itself and another."},
    {CLS(set_cls), "difference_update", set_difference_update, PLAIN, "difference_update(*others)\nRemove all elements of another set from this set."},
    {CLS(set_cls), "symmetric_difference_update", set_symmetric_difference_update, PLAIN, "symmetric_difference_update(other, /)\nUpdate a set with the symmetric difference of itself and another."},
    {CLS(set_cls), "isdisjoint", set_isdisjoint, PLAIN, "isdisjoint(other, /)\nReturn True if two sets have a null intersection."},
    {CLS(int_cls), "real", num_self, PROPERTY, "real\nthe real part of a complex number"},
    {CLS(int_cls), "imag", num_zero, PROPERTY, "imag\nthe imaginary part of a complex number"},
    {CLS(int_cls), "numerator", num_self, PROPERTY, "numerator\nthe numerator of a rational number in lowest terms"},
    {CLS(int_cls), "denominator", int_one, PROPERTY, "denominator\nthe denominator of a rational number in lowest terms"},
    {CLS(int_cls), "conjugate", num_self, PLAIN, "conjugate()\nReturns self, the complex conjugate of any int."},
    {CLS(int_cls), "as_integer_ratio", int_as_integer_ratio, PLAIN, "as_integer_ratio()\nReturn integer ratio."},
    {CLS(int_cls), "bit_count", int_bit_count, PLAIN, "bit_count()\nNumber of ones in the binary representation of the absolute value of self."},
    {CLS(float_cls), "real", num_self, PROPERTY, "real\nthe real part of a complex number"},
    {CLS(float_cls), "imag", num_zero, PROPERTY, "imag\nthe imaginary part of a complex number"},
    {CLS(float_cls), "conjugate", num_self, PLAIN, "conjugate()\nReturns self, the complex conjugate of any int."},
    {CLS(float_cls), "as_integer_ratio", float_as_integer_ratio, PLAIN, "as_integer_ratio()\nReturn integer ratio."},
    {CLS(float_cls), "hex", float_hex, PLAIN, "hex()\nReturn a hexadecimal representation of a floating-point number."},
    {CLS(float_cls), "fromhex", float_fromhex, CLASSMETHOD, "fromhex(string, /)\nCreate a floating-point number from a hexadecimal string."},
};

int repl_builtin_methods_more(repl_interp *in)
{
    static const char *const wrappers[] = {[PROPERTY] = "property", [CLASSMETHOD] = "classmethod",
                                           [STATICMETHOD] = "staticmethod"};
    for (size_t i = 0; i < sizeof methods / sizeof *methods; i++) {
        const more_method *m = &methods[i];
        class_obj *c = *(class_obj **)((char *)in + m->slot);
        nn_object *f = nn_cfunction_new(m->name, m->fn, NULL, NULL);
        if (f && m->kind != PLAIN) {
            nn_object *wrap = repl_nmap_get(&in->builtins, wrappers[m->kind]);
            nn_object *w = wrap ? repl_call_object(wrap, &f, 1, NULL) : NULL;
            NN_SET(f, w);
        }
        int rc = f ? repl_nmap_set(&c->dict, m->name, f) : -1;
        NN_RELEASE(f);
        if (rc < 0) return -1;
    }
    return 0;
}

const char *repl_builtin_methods_more_doc(repl_interp *in, const class_obj *c, const char *name)
{
    for (size_t i = 0; i < sizeof methods / sizeof *methods; i++)
        if (*(class_obj **)((char *)in + methods[i].slot) == c && strcmp(methods[i].name, name) == 0) return methods[i].doc;
    return NULL;
}
