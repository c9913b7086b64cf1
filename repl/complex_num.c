/*
 * complex_num.c — the language's complex numbers (the value is core's
 * nn_complex_type): the class `complex` and its constructor, real / imag /
 * conjugate, the arithmetic operators with ints and floats, unary - and +,
 * abs(). As CPython 3.11's, with its algorithms (division by the larger part,
 * integral powers up to 100 by repeated squaring) and error texts.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bigint.h"
#include "eval_int.h"
#include "stdlib_int.h"

#define NARGS ((int)nn_tuple_len(args))
#define ARG(i) nn_tuple_get(args, (size_t)(i))

typedef struct cplx {
    double re, im;
} cplx;

static bool is_real_number(const nn_object *o)
{
    return o->type == &nn_int_type || o->type == &nn_float_type || o->type == &nn_bool_type || repl_is_bigint(o);
}

bool repl_complex_operand(const nn_object *o) { return nn_is_complex(o) || is_real_number(o); }

static int parts(const nn_object *o, cplx *c)
{
    if (repl_is_bigint(o)) {
        c->im = 0;
        return repl_int_to_double(o, &c->re);
    }
    nn_complex_parts(o, &c->re, &c->im);
    return 0;
}

static cplx prod(cplx a, cplx b) { return (cplx){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }

/* CPython's _Py_c_quot: scaled by the larger part of b; errno EDOM for b == 0 */
static cplx quot(cplx a, cplx b)
{
    double abr = fabs(b.re), abi = fabs(b.im);
    if (abr >= abi) {
        if (abr == 0.0) {
            errno = EDOM;
            return (cplx){0, 0};
        }
        double ratio = b.im / b.re, denom = b.re + b.im * ratio;
        return (cplx){(a.re + a.im * ratio) / denom, (a.im - a.re * ratio) / denom};
    }
    if (abi >= abr) {
        double ratio = b.re / b.im, denom = b.re * ratio + b.im;
        return (cplx){(a.re * ratio + a.im) / denom, (a.im * ratio - a.re) / denom};
    }
    return (cplx){NAN, NAN}; /* a NaN in b */
}

static cplx pow_general(cplx a, cplx b)
{
    if (b.re == 0 && b.im == 0) return (cplx){1, 0};
    if (a.re == 0 && a.im == 0) {
        if (b.im != 0 || b.re < 0) errno = EDOM;
        return (cplx){0, 0};
    }
    double vabs = hypot(a.re, a.im), len = pow(vabs, b.re), at = atan2(a.im, a.re), phase = at * b.re;
    if (b.im != 0) {
        len /= exp(at * b.im);
        phase += b.im * log(vabs);
    }
    return (cplx){len * cos(phase), len * sin(phase)};
}

static cplx pow_unsigned(cplx x, long n)
{
    cplx r = {1, 0}, p = x;
    for (long mask = 1; mask > 0 && n >= mask; mask <<= 1) {
        if (n & mask) r = prod(r, p);
        p = prod(p, p);
    }
    return r;
}

static nn_object *result(cplx r, const char *overflow)
{
    if (errno == EDOM) {
        repl_raise_exc(EXC_ZeroDivisionError, "%s", overflow ? "0.0 to a negative or complex power" : "complex division by zero");
        return NULL;
    }
    if (overflow && (errno == ERANGE || ((isinf(r.re) || isinf(r.im)) && errno != 0))) {
        repl_raise_exc(EXC_OverflowError, "%s", overflow);
        return NULL;
    }
    return nn_complex_new(r.re, r.im);
}

nn_object *repl_complex_binary(repl_binop op, nn_object *a, nn_object *b, bool *handled)
{
    *handled = true;
    cplx x, y;
    if (parts(a, &x) < 0 || parts(b, &y) < 0) return NULL;
    errno = 0;
    switch (op) {
    case REPL_ADD: return nn_complex_new(x.re + y.re, x.im + y.im);
    case REPL_SUB: return nn_complex_new(x.re - y.re, x.im - y.im);
    case REPL_MUL: {
        cplx r = prod(x, y);
        return nn_complex_new(r.re, r.im);
    }
    case REPL_DIV: return result(quot(x, y), NULL);
    case REPL_POW: {
        cplx r;
        if (y.im == 0 && y.re == floor(y.re) && fabs(y.re) <= 100) {
            long n = (long)y.re;
            r = n >= 0 ? pow_unsigned(x, n) : quot((cplx){1, 0}, pow_unsigned(x, -n));
        } else {
            r = pow_general(x, y);
        }
        if (errno == 0 && (isinf(r.re) || isinf(r.im)) && isfinite(x.re) && isfinite(x.im)) errno = ERANGE;
        return result(r, "complex exponentiation");
    }
    case REPL_EQ: return nn_bool_new(x.re == y.re && x.im == y.im);
    case REPL_NE: return nn_bool_new(x.re != y.re || x.im != y.im);
    default: *handled = false; return NULL; /* the caller's TypeError */
    }
}

nn_object *repl_complex_unary(repl_unop op, nn_object *v)
{
    double re, im;
    nn_complex_parts(v, &re, &im);
    if (op == REPL_NEG) return nn_complex_new(-re, -im);
    if (op == REPL_POS) return nn_complex_new(re, im);
    repl_raise_exc(EXC_TypeError, "bad operand type for unary ~: 'complex'");
    return NULL;
}

nn_object *repl_complex_abs(nn_object *v)
{
    double re, im;
    nn_complex_parts(v, &re, &im);
    double r = hypot(re, im);
    if (isinf(r) && isfinite(re) && isfinite(im)) {
        repl_raise_exc(EXC_OverflowError, "absolute value too large");
        return NULL;
    }
    return nn_float_new(r);
}

/* ------------------------------------------------------------------ complex(...) */

/* CPython's complex_from_string: [ws] ['('] [ws] x [ws] [')'] [ws] where x is
   a real, an imaginary (b j, j, +j) or real+-imaginary. */
static int parse(const char *s, cplx *out)
{
    while (isspace((unsigned char)*s)) s++;
    bool paren = *s == '(';
    if (paren) s++;
    while (isspace((unsigned char)*s)) s++;
    char buf[256];
    size_t n = 0;
    for (; *s && !isspace((unsigned char)*s) && *s != ')' && n < sizeof buf - 1; s++)
        if (*s != '_') buf[n++] = *s;
    buf[n] = 0;
    while (isspace((unsigned char)*s)) s++;
    if (paren && *s++ != ')') return -1;
    while (isspace((unsigned char)*s)) s++;
    if (*s || n == 0) return -1;
    const char *p = buf;
    char *end;
    out->re = out->im = 0;
    /* a bare sign before j is +-1 */
    if ((p[0] == '+' || p[0] == '-') && (p[1] | 32) == 'j' && !p[2]) return out->im = p[0] == '-' ? -1 : 1, 0;
    if ((p[0] | 32) == 'j' && !p[1]) return out->im = 1, 0;
    double v = strtod(p, &end);
    if (end == p || strpbrk(buf, "xX")) return -1;
    if (!*end) return out->re = v, 0;
    if ((*end | 32) == 'j' && !end[1]) return out->im = v, 0;
    if (*end != '+' && *end != '-') return -1;
    out->re = v;
    p = end;
    if ((p[1] | 32) == 'j' && !p[2]) return out->im = p[0] == '-' ? -1 : 1, 0;
    v = strtod(p, &end);
    if (end == p || (*end | 32) != 'j' || end[1]) return -1;
    out->im = v;
    return 0;
}

static int number_arg(nn_object *x, cplx *c, bool first)
{
    if (repl_complex_operand(x)) return parts(x, c);
    if (nn_is_tensor(x) && nn_numel(NN_TENSOR(x)) == 1) { /* Tensor.__complex__ */
        nn_object *m = repl_get_attr(x, "item");
        nn_object *v = m ? repl_call_object(m, NULL, 0, NULL) : NULL;
        NN_RELEASE(m);
        int rc = v ? parts(v, c) : -1;
        NN_RELEASE(v);
        return rc;
    }
    if (first)
        repl_raise_exc(EXC_TypeError, "complex() first argument must be a string or a number, not '%s'", repl_value_type_name(x));
    else
        repl_raise_exc(EXC_TypeError, "complex() second argument must be a number, not '%s'", repl_value_type_name(x));
    return -1;
}

static nn_object *ctor_complex(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *re = NARGS > 0 ? ARG(0) : NULL, *im = NARGS > 1 ? ARG(1) : NULL;
    if (NARGS > 2) {
        repl_raise_exc(EXC_TypeError, "complex() takes at most 2 arguments (%d given)", NARGS);
        return NULL;
    }
    size_t pos = 0;
    nn_object *k, *v;
    while (kwargs && nn_dict_next(kwargs, &pos, &k, &v)) {
        const char *name = nn_str_cstr(k);
        nn_object **slot = !strcmp(name, "real") ? &re : !strcmp(name, "imag") ? &im : NULL;
        if (!slot) {
            repl_raise_exc(EXC_TypeError, "'%s' is an invalid keyword argument for complex()", name);
            return NULL;
        }
        if (*slot) {
            repl_raise_exc(EXC_TypeError, "argument for complex() given by name ('%s') and position (%d)", name,
                           slot == &re ? 1 : 2);
            return NULL;
        }
        *slot = v;
    }
    cplx a = {0, 0}, b = {0, 0};
    if (re && nn_is_str(re)) {
        if (im) {
            repl_raise_exc(EXC_TypeError, "complex() can't take second arg if first is a string");
            return NULL;
        }
        if (parse(nn_str_cstr(re), &a) < 0) {
            repl_raise_exc(EXC_ValueError, "complex() arg is a malformed string");
            return NULL;
        }
        return nn_complex_new(a.re, a.im);
    }
    if (im && nn_is_str(im)) {
        repl_raise_exc(EXC_TypeError, "complex() second arg can't be a string");
        return NULL;
    }
    if ((re && number_arg(re, &a, true) < 0) || (im && number_arg(im, &b, false) < 0)) return NULL;
    /* real + imag * 1j, with CPython's parts: (a.re - b.im) + (a.im + b.re)j */
    return nn_complex_new(a.re - b.im, a.im + b.re);
}

static nn_object *get_real(void *ud, nn_object *args, nn_object *kwargs)
{
    double re, im;
    nn_complex_parts(ARG(0), &re, &im);
    return nn_float_new(re);
}

static nn_object *get_imag(void *ud, nn_object *args, nn_object *kwargs)
{
    double re, im;
    nn_complex_parts(ARG(0), &re, &im);
    return nn_float_new(im);
}

static nn_object *conjugate(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_check_arity("conjugate", NARGS - 1, 0, 0) < 0) return NULL;
    double re, im;
    nn_complex_parts(ARG(0), &re, &im);
    return nn_complex_new(re, -im);
}

const char *repl_complex_doc(const char *name)
{
    if (!name) return "complex(real=0, imag=0)\nCreate a complex number from a real part and an optional imaginary part.";
    if (!strcmp(name, "conjugate")) return "conjugate()\nReturn the complex conjugate of its argument. (3-4j).conjugate() == 3+4j.";
    return NULL;
}

static int put_fn(repl_interp *in, class_obj *c, const char *name, nn_cfunc fn, bool property)
{
    nn_object *f = nn_cfunction_new(name, fn, NULL, NULL);
    if (f && property) {
        nn_object *wrap = repl_nmap_get(&in->builtins, "property");
        nn_object *w = wrap ? repl_call_object(wrap, &f, 1, NULL) : NULL;
        NN_SET(f, w);
    }
    int rc = f ? repl_nmap_set(&c->dict, name, f) : -1;
    NN_RELEASE(f);
    return rc;
}

int repl_complex_install(repl_interp *in)
{
    class_obj *c = repl_lang_class_new("complex", in->object_cls, -1);
    if (!c) return -1;
    c->ntype = &nn_complex_type;
    c->ctor = ctor_complex;
    int rc = put_fn(in, c, "real", get_real, true);
    if (!rc) rc = put_fn(in, c, "imag", get_imag, true);
    if (!rc) rc = put_fn(in, c, "conjugate", conjugate, false);
    if (!rc) rc = repl_nmap_set(&in->builtins, "complex", &c->ob);
    if (!rc) rc = repl_nmap_set(&in->type_cache, "complex", &c->ob); /* type(1j) is this class */
    NN_RELEASE(c);
    return rc;
}
