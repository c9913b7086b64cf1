/*
 * builtins.c — the language's built-in functions and types (print, len, range,
 * int, str, isinstance, sorted, ...), the methods of str, list, dict, set and
 * tuple, dict views, collections.OrderedDict (the module collections), and the
 * format mini-language shared by f-strings, str.format, format() and the %
 * operator. Each built-in's doc is next to it.
 */
#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind.h"
#include "bind_int.h"
#include "eval_int.h"
#include "bigint.h"
#include "bytes_int.h"
#include "nn_custom_fn.h"
#include "plot.h"
#include "summary.h"
#include "unicode_int.h"
#include "stdlib_int.h"

#define NARGS ((int)nn_tuple_len(args))
#define ARG(i) nn_tuple_get(args, (size_t)(i))

static bool is_intlike(const nn_object *o) { return o && (o->type == &nn_int_type || o->type == &nn_bool_type); }
static bool is_num(const nn_object *o) { return repl_is_integer(o) || (o && o->type == &nn_float_type); }

/* kwargs[name] (borrowed) or NULL */
static nn_object *kwarg(nn_object *kwargs, const char *name)
{
    return kwargs ? nn_dict_get_str(kwargs, name) : NULL;
}

static int no_kwargs(const char *fname, nn_object *kwargs)
{
    if (kwargs && nn_dict_len(kwargs)) return repl_raise_exc(EXC_TypeError, "%s() takes no keyword arguments", fname);
    return 0;
}

static int nargs_check(const char *fname, nn_object *args, int min, int max)
{
    return repl_check_arity(fname, NARGS, min, max);
}

static nn_object *none(void) { return nn_retain(nn_none()); }

static nn_object *str_take(char *s)
{
    if (!s) return NULL;
    nn_object *r = nn_str_new(s);
    nn_free(s);
    return r;
}

nn_object *repl_builtin_noop(void *ud, nn_object *args, nn_object *kwargs) { return none(); }

/* The built-in value of an instance of a subclass of a built-in type (int(I(3)),
   round(F(2.5))) unless its class defines the method name; else o. */
static nn_object *base_unless(nn_object *o, const char *name)
{
    nn_object *v = repl_base_value(o);
    return v && !repl_class_lookup(((instance_obj *)o)->cls, name) ? v : o;
}

static int get_int(nn_object *o, int64_t *out, const char *what)
{
    *out = 0;
    nn_object *given = o; /* named in the error: range(np.float32(3)) names numpy.float32, not float */
    o = base_unless(o, "__index__"); /* range(I(3)) */
    if (repl_is_bigint(o)) return repl_raise_exc(EXC_OverflowError, "Python int too large to convert to C ssize_t");
    if (!is_intlike(o))
        return repl_raise_exc(EXC_TypeError, "'%s' object cannot be interpreted as an integer", repl_value_type_name(given));
    (void)what;
    *out = nn_int_value(o);
    return 0;
}

/* ------------------------------------------------------------------ dict views */

typedef struct dictview {
    nn_object ob;
    nn_object *d;
    int kind; /* 0 keys, 1 values, 2 items */
} dictview;

static void dictview_dealloc(nn_object *self)
{
    NN_RELEASE(((dictview *)self)->d);
    nn_free(self);
}

nn_object *repl_dictview_list(nn_object *view)
{
    dictview *v = (dictview *)view;
    nn_object *l = nn_list_new(nn_dict_len(v->d)), *k, *val;
    size_t pos = 0;
    while (l && nn_dict_next(v->d, &pos, &k, &val)) {
        nn_object *item = v->kind == 0 ? nn_retain(k) : v->kind == 1 ? nn_retain(val) : nn_tuple_pack(2, k, val);
        if (!item || nn_list_append(l, item) < 0) {
            NN_RELEASE(item);
            NN_RELEASE(l);
            return NULL;
        }
        NN_RELEASE(item);
    }
    return l;
}

static char *dictview_repr(nn_object *self)
{
    static const char *names[] = {"dict_keys", "dict_values", "dict_items"};
    nn_object *l = repl_dictview_list(self);
    if (!l) return NULL;
    sbuf b = {0};
    /* an OrderedDict's views are odict_keys, odict_values, odict_items */
    repl_sb_printf(&b, "%s%s(", nn_dict_is_ordered(((dictview *)self)->d) ? "o" : "", names[((dictview *)self)->kind]);
    repl_sb_take(&b, repl_obj_repr(l));
    repl_sb_puts(&b, ")");
    NN_RELEASE(l);
    return repl_sb_finish(&b);
}

const nn_type repl_dictview_type = {.name = "dict_keys", .dealloc = dictview_dealloc, .repr = dictview_repr};

int repl_dictview_kind(const nn_object *view) { return ((const dictview *)view)->kind; }

static nn_object *dictview_new(nn_object *d, int kind)
{
    dictview *v = nn_malloc(sizeof *v);
    if (!v) return NULL;
    nn_object_init(&v->ob, &repl_dictview_type);
    v->d = nn_retain(d);
    v->kind = kind;
    return &v->ob;
}

/* ------------------------------------------------------------------ format */

typedef struct spec {
    char fill, align, sign, type;
    bool alt, zero, has_prec;
    int width, prec;
    char grouping;
} spec;

/* A width or precision's digits at *s (advanced past them); CPython's error
   past PY_SSIZE_T_MAX. */
static int spec_digits(const char **s, int64_t *out)
{
    int64_t v = 0;
    for (; isdigit((unsigned char)**s); (*s)++) {
        if (v > (INT64_MAX - (**s - '0')) / 10)
            return repl_raise_exc(EXC_ValueError, "Too many decimal digits in format string");
        v = v * 10 + (**s - '0');
    }
    *out = v;
    return 0;
}

static int parse_spec(const char *s, spec *sp, bool is_str_spec)
{
    memset(sp, 0, sizeof *sp);
    sp->fill = ' ';
    size_t n = strlen(s);
    if (n >= 2 && strchr("<>=^", s[1])) {
        sp->fill = s[0];
        sp->align = s[1];
        s += 2;
    } else if (n >= 1 && strchr("<>=^", s[0])) {
        sp->align = s[0];
        s++;
    }
    if (*s && strchr("+- ", *s)) sp->sign = *s++;
    if (*s == '#') {
        sp->alt = true;
        s++;
    }
    if (*s == '0') {
        sp->zero = true;
        s++;
    }
    int64_t width = 0, prec = 0;
    if (spec_digits(&s, &width) < 0) return -1;
    /* CPython builds the padding: a width no string can have is its MemoryError */
    if (width > (int64_t)REPL_STR_MAX) return repl_raise_exc(EXC_MemoryError, "%s", "");
    sp->width = (int)width;
    if (*s == ',' || *s == '_') sp->grouping = *s++;
    if (*s == '.') {
        s++;
        if (!isdigit((unsigned char)*s)) return repl_raise_exc(EXC_ValueError, "Format specifier missing precision");
        sp->has_prec = true;
        if (spec_digits(&s, &prec) < 0) return -1;
    }
    if (prec > INT32_MAX) {
        /* a string's precision only cuts it; a number's must fit an int */
        if (!(*s == 's' || (!*s && is_str_spec))) return repl_raise_exc(EXC_ValueError, "precision too big");
        prec = INT32_MAX;
    }
    sp->prec = (int)prec;
    if (*s) sp->type = *s++;
    if (*s) return repl_raise_exc(EXC_ValueError, "Invalid format specifier");
    return 0;
}

static size_t utf8_len(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++) c += ((unsigned char)s[i] & 0xc0) != 0x80;
    return c;
}

/* Pads body[0..len) (sign/prefix already in it, number digits start at digits_at) to the width. */
static nn_object *pad(const spec *sp, const char *body, size_t len, size_t digits_at, char default_align)
{
    sbuf b = {0};
    size_t chars = utf8_len(body, len);
    char align = sp->align ? sp->align : default_align;
    char fill = sp->fill;
    if (sp->zero && !sp->align) {
        align = default_align == '<' ? '<' : '=';
        fill = '0';
    }
    size_t w = (size_t)sp->width, padn = w > chars ? w - chars : 0;
    if (align == '<') {
        repl_sb_add(&b, body, len);
        repl_sb_fill(&b, fill, padn);
    } else if (align == '>') {
        repl_sb_fill(&b, fill, padn);
        repl_sb_add(&b, body, len);
    } else if (align == '^') {
        repl_sb_fill(&b, fill, padn / 2);
        repl_sb_add(&b, body, len);
        repl_sb_fill(&b, fill, padn - padn / 2);
    } else {
        repl_sb_add(&b, body, digits_at);
        repl_sb_fill(&b, fill, padn);
        repl_sb_add(&b, body + digits_at, len - digits_at);
    }
    return repl_sb_str(&b);
}

/* Inserts grouping separators into the integer part of digits (every 3
   decimal digits; every 4 for a binary, octal or hex type: '_' only). */
static void group_digits(sbuf *out, const char *digits, char sep, char type)
{
    bool base = type && strchr("bBoxX", type);
    size_t n = strspn(digits, base ? "0123456789abcdefABCDEF" : "0123456789"), every = base ? 4 : 3;
    for (size_t i = 0; i < n; i++) {
        repl_sb_add(out, digits + i, 1);
        if (sep && (n - i - 1) % every == 0 && i != n - 1) repl_sb_add(out, &sep, 1);
    }
    repl_sb_puts(out, digits + n);
}

static nn_object *format_number(nn_object *v, const spec *sp)
{
    char type = sp->type;
    bool isint = is_intlike(v);
    char buf[512];
    const char *sign = "";
    if ((isint || repl_is_bigint(v)) && (type == 0 || type == 'd' || type == 'n' || type == 'x' || type == 'X' || type == 'o' ||
                  type == 'b' || type == 'c')) {
        if (type == 'c' && !isint) {
            repl_raise_exc(EXC_OverflowError, "Python int too large to convert to C long");
            return NULL;
        }
        if (type == 'c') {
            buf[0] = (char)nn_int_value(v);
            buf[1] = 0;
            return pad(sp, buf, 1, 0, '<');
        }
        /* the digits of any int (bigint.c), then sign, prefix, grouping, padding */
        char *digits = repl_int_digits(v, type == 'x' || type == 'X' ? 16 : type == 'o' ? 8 : type == 'b' ? 2 : 10);
        if (!digits) return NULL;
        bool neg = digits[0] == '-';
        if (type == 'X')
            for (char *p = digits; *p; p++) *p = (char)toupper((unsigned char)*p);
        if (neg) sign = "-";
        else if (sp->sign == '+') sign = "+";
        else if (sp->sign == ' ') sign = " ";
        const char *prefix = "";
        if (sp->alt && type && strchr("xXob", type)) prefix = type == 'x' ? "0x" : type == 'X' ? "0X" : type == 'o' ? "0o" : "0b";
        sbuf b = {0};
        repl_sb_puts(&b, sign);
        repl_sb_puts(&b, prefix);
        size_t at = b.len;
        group_digits(&b, digits + neg, sp->grouping, type);
        nn_free(digits);
        char *body = repl_sb_finish(&b);
        if (!body) return NULL;
        nn_object *r = pad(sp, body, strlen(body), at, '>');
        nn_free(body);
        return r;
    }
    if (!is_num(v) || strchr("eEfFgGn%", type ? type : 'g') == NULL) {
        repl_raise_exc(EXC_ValueError, "Unknown format code '%c' for object of type '%s'", type, repl_value_type_name(v));
        return NULL;
    }
    double x;
    if (repl_is_bigint(v)) {
        if (repl_int_to_double(v, &x) < 0) return NULL;
    } else x = nn_float_value(v);
    int prec = sp->has_prec ? sp->prec : 6;
    if (signbit(x) && !isnan(x)) {
        sign = "-";
        x = -x;
    } else if (sp->sign == '+') sign = "+";
    else if (sp->sign == ' ') sign = " ";
    if (isinf(x) || isnan(x)) {
        bool upper = type == 'E' || type == 'F' || type == 'G';
        snprintf(buf, sizeof buf, "%s", isinf(x) ? (upper ? "INF" : "inf") : (upper ? "NAN" : "nan"));
    } else if (type == 'f' || type == 'F') snprintf(buf, sizeof buf, "%.*f", prec, x);
    else if (type == 'e' || type == 'E') snprintf(buf, sizeof buf, type == 'e' ? "%.*e" : "%.*E", prec, x);
    else if (type == '%') snprintf(buf, sizeof buf, "%.*f%%", prec, x * 100);
    else if (type == 'g' || type == 'G' || type == 'n') {
        snprintf(buf, sizeof buf, type == 'G' ? "%#.*G" : "%#.*g", prec == 0 ? 1 : prec, x);
        if (!sp->alt) {
            /* drop trailing zeros (and the point) as %g does */
            char *e = strpbrk(buf, "eE");
            char exp[16] = "";
            if (e) {
                snprintf(exp, sizeof exp, "%s", e);
                *e = 0;
            }
            char *dot = strchr(buf, '.');
            if (dot) {
                size_t k = strlen(buf);
                while (k > 0 && buf[k - 1] == '0') buf[--k] = 0;
                if (k > 0 && buf[k - 1] == '.') buf[--k] = 0;
            }
            strcat(buf, exp);
        }
    } else {
        /* no type: repr when no precision, else like 'g' keeping a ".0" */
        if (!sp->has_prec) {
            if (isint) snprintf(buf, sizeof buf, "%lld", (long long)(x));
            else {
                nn_object *f = nn_float_new(x);
                char *r = f ? nn_repr(f) : NULL;
                NN_RELEASE(f);
                if (!r) return NULL;
                snprintf(buf, sizeof buf, "%s", r);
                nn_free(r);
            }
        } else {
            snprintf(buf, sizeof buf, "%.*g", prec == 0 ? 1 : prec, x);
            if (!strpbrk(buf, ".einf")) strcat(buf, ".0");
        }
    }
    /* Python writes exponents with at least two digits, as C does */
    sbuf b = {0};
    repl_sb_puts(&b, sign);
    size_t at = b.len;
    group_digits(&b, buf, sp->grouping, 0);
    char *body = repl_sb_finish(&b);
    if (!body) return NULL;
    nn_object *r = pad(sp, body, strlen(body), at, '>');
    nn_free(body);
    return r;
}

nn_object *repl_format_value(nn_object *value, const char *specstr)
{
    if (nn_is_tensor(value)) return repl_format_tensor(value, specstr);
    if (value->type == &repl_instance_type) {
        nn_object *m = repl_class_lookup(((instance_obj *)value)->cls, "__format__");
        if (m && m->type == &repl_function_type) {
            nn_object *s = nn_str_new(specstr);
            if (!s) return NULL;
            nn_object *r = repl_call_method(value, "__format__", &s, 1);
            NN_RELEASE(s);
            return r;
        }
    }
    if (!*specstr) return repl_obj_str_object(value);
    if (repl_base_value(value)) return repl_format_value(repl_base_value(value), specstr); /* f'{F(2.5):.2f}' */
    spec sp;
    if (parse_spec(specstr, &sp, !is_num(value)) < 0) return NULL;
    if (is_num(value) && !(value->type == &nn_bool_type && !sp.type)) return format_number(value, &sp);
    if (value->type == &nn_bool_type && sp.type) return format_number(value, &sp);
    if (sp.type && sp.type != 's') {
        repl_raise_exc(EXC_ValueError, "Unknown format code '%c' for object of type '%s'", sp.type, repl_value_type_name(value));
        return NULL;
    }
    if (value->type == &repl_instance_type && sp.type == 0) {
        repl_raise_exc(EXC_TypeError, "unsupported format string passed to %s.__format__", repl_value_type_name(value));
        return NULL;
    }
    nn_object *so = repl_obj_str_object(value); /* its length: a str may hold NUL characters */
    if (!so) return NULL;
    const char *s = nn_str_cstr(so);
    size_t n = nn_str_len(so);
    if (sp.has_prec) {
        size_t p = 0, c = 0;
        while (p < n && c < (size_t)sp.prec) {
            p++;
            while (p < n && ((unsigned char)s[p] & 0xc0) == 0x80) p++;
            c++;
        }
        n = p;
    }
    if (sp.align == '=') {
        NN_RELEASE(so);
        repl_raise_exc(EXC_ValueError, "'=' alignment not allowed in string format specifier");
        return NULL;
    }
    spec sp2 = sp;
    sp2.zero = false;
    if (sp.zero && !sp.align) {
        sp2.fill = '0';
        sp2.align = '<';
    }
    nn_object *r = pad(&sp2, s, n, 0, '<');
    NN_RELEASE(so);
    return r;
}

/* str % args: strformat.c */

/* str.format(*args, **kwargs) */
static nn_object *str_format_impl(const char *f, size_t flen, nn_object *const *pos, size_t npos, nn_object *kwargs,
                                  size_t *autop)
{
    sbuf b = {0};
    size_t auto_local = 0, *auto_ip = autop ? autop : &auto_local;
    const char *end = f + flen; /* the text may hold NUL characters */
#define auto_i (*auto_ip)
    for (const char *p = f; p < end; p++) {
        if (*p == '{' && p + 1 < end && p[1] == '{') {
            repl_sb_add(&b, "{", 1);
            p++;
            continue;
        }
        if (*p == '}' && p + 1 < end && p[1] == '}') {
            repl_sb_add(&b, "}", 1);
            p++;
            continue;
        }
        if (*p == '}') {
            nn_free(b.buf);
            repl_raise_exc(EXC_ValueError, "Single '}' encountered in format string");
            return NULL;
        }
        if (*p != '{') {
            repl_sb_add(&b, p, 1);
            continue;
        }
        const char *e = p + 1;
        int depth = 1;
        while (e < end && depth) {
            if (*e == '{') depth++;
            else if (*e == '}' && --depth == 0) break;
            e++;
        }
        if (e >= end) { /* '{' last: a single one; else a field left open */
            nn_free(b.buf);
            repl_raise_exc(EXC_ValueError, p + 1 == end ? "Single '{' encountered in format string"
                                                        : "expected '}' before end of string");
            return NULL;
        }
        char field[256];
        snprintf(field, sizeof field, "%.*s", (int)(e - p - 1), p + 1);
        p = e;
        char *specp = strchr(field, ':'), *conv = strchr(field, '!');
        if (conv && specp && conv > specp) conv = NULL;
        char spec_raw[200] = "";
        if (specp) {
            snprintf(spec_raw, sizeof spec_raw, "%s", specp + 1);
            *specp = 0;
        }
        char c = 0;
        if (conv) {
            c = conv[1];
            *conv = 0;
        }
        /* field name: index, keyword, then .attr / [key] parts */
        size_t nlen = strcspn(field, ".[");
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)nlen, field);
        nn_object *v = NULL;
        if (!*name) {
            if (auto_i >= npos) {
                nn_free(b.buf);
                repl_raise_exc(EXC_IndexError, "Replacement index %zu out of range for positional args tuple", auto_i);
                return NULL;
            }
            v = nn_retain(pos[auto_i++]);
        } else if (isdigit((unsigned char)name[0])) {
            size_t k = (size_t)atol(name);
            if (k >= npos) {
                nn_free(b.buf);
                repl_raise_exc(EXC_IndexError, "Replacement index %zu out of range for positional args tuple", k);
                return NULL;
            }
            v = nn_retain(pos[k]);
        } else {
            nn_object *kv = kwarg(kwargs, name);
            if (!kv) {
                nn_free(b.buf);
                nn_object *key = nn_str_new(name), *a = key ? nn_tuple_pack(1, key) : NULL, *ex = a ? repl_exc_new(EXC_KeyError, a) : NULL;
                if (ex) repl_raise_object(ex);
                NN_RELEASE(key);
                NN_RELEASE(a);
                NN_RELEASE(ex);
                return NULL;
            }
            v = nn_retain(kv);
        }
        const char *rest = field + nlen;
        while (v && *rest) {
            if (*rest == '.') {
                char attr[128];
                size_t l = strcspn(rest + 1, ".[");
                snprintf(attr, sizeof attr, "%.*s", (int)l, rest + 1);
                nn_object *nv = repl_get_attr(v, attr);
                NN_RELEASE(v);
                v = nv;
                rest += 1 + l;
            } else {
                const char *close = strchr(rest, ']');
                if (!close) break;
                char key[128];
                snprintf(key, sizeof key, "%.*s", (int)(close - rest - 1), rest + 1);
                nn_object *k = isdigit((unsigned char)key[0]) ? nn_int_new(atol(key)) : nn_str_new(key);
                nn_object *nv = k ? repl_get_item(v, k) : NULL;
                NN_RELEASE(k);
                NN_RELEASE(v);
                v = nv;
                rest = close + 1;
            }
        }
        if (!v) {
            nn_free(b.buf);
            return NULL;
        }
        if (c == 'r' || c == 's' || c == 'a') {
            nn_object *s = c == 's' ? repl_obj_str_object(v) : str_take(c == 'a' ? repl_obj_ascii(v) : repl_obj_repr(v));
            NN_RELEASE(v);
            v = s;
            if (!v) {
                nn_free(b.buf);
                return NULL;
            }
        }
        /* nested replacement fields in the spec */
        nn_object *spec_obj = strchr(spec_raw, '{') ? str_format_impl(spec_raw, strlen(spec_raw), pos, npos, kwargs, auto_ip) : nn_str_new(spec_raw);
        nn_object *s = spec_obj ? repl_format_value(v, nn_str_cstr(spec_obj)) : NULL;
        NN_RELEASE(spec_obj);
        NN_RELEASE(v);
        if (!s) {
            nn_free(b.buf);
            return NULL;
        }
        repl_sb_add(&b, nn_str_cstr(s), nn_str_len(s));
        NN_RELEASE(s);
    }
    return repl_sb_str(&b);
}

/* ------------------------------------------------------------------ print & co */

/* f.write(text) for print(..., file=f); takes text. */
static int print_piece(nn_object *w, nn_object *text)
{
    nn_object *r = text ? repl_call_object(w, &text, 1, NULL) : NULL;
    NN_RELEASE(text);
    if (!r) return -1;
    NN_RELEASE(r);
    return 0;
}

/* print(..., file=f) (or with sys.stdout replaced): as CPython, one f.write per
   argument, separator (sep) and end (str objects). */
static nn_object *print_to_file(nn_object *file, nn_object *args, nn_object *sep, nn_object *end)
{
    nn_object *w = repl_get_attr(file, "write");
    int rc = w ? 0 : -1;
    for (int i = 0; rc == 0 && i < NARGS; i++) {
        if (i) rc = print_piece(w, nn_retain(sep));
        if (rc == 0) rc = print_piece(w, repl_obj_str_object(ARG(i)));
    }
    if (rc == 0) rc = print_piece(w, nn_retain(end));
    NN_RELEASE(w);
    return rc == 0 ? none() : NULL;
}

/* print's output to the interpreter's stdout, in one write */
static nn_object *print_to_stdout(nn_object *args, nn_object *sep, nn_object *end)
{
    sbuf b = {0};
    for (int i = 0; i < NARGS; i++) {
        if (i) repl_sb_add(&b, nn_str_cstr(sep), nn_str_len(sep));
        nn_object *str = repl_obj_str_object(ARG(i));
        if (!str) {
            nn_free(b.buf);
            return NULL;
        }
        repl_sb_add(&b, nn_str_cstr(str), nn_str_len(str));
        NN_RELEASE(str);
    }
    repl_sb_add(&b, nn_str_cstr(end), nn_str_len(end));
    size_t len = b.len;
    char *out = repl_sb_finish(&b);
    if (!out) return NULL;
    repl_interp_write(out, len);
    nn_free(out);
    return none();
}

/* print(..., flush=True): file.flush(), or the interpreter's stdout's; a stdout
   reconfigured with line_buffering=True flushes after each print. */
static nn_object *print_flush(nn_object *file, nn_object *flush)
{
    int want = flush ? repl_truth(flush) : 0;
    if (want < 0) return NULL;
    if (file && want) return repl_call_method(file, "flush", NULL, 0);
    if (!file && (want || repl_sys_stdout_line_buffered())) fflush(stdout);
    return none();
}

static nn_object *bi_print(void *ud, nn_object *args, nn_object *kwargs)
{
    size_t pos = 0;
    nn_object *k, *v;
    while (kwargs && nn_dict_next(kwargs, &pos, &k, &v))
        if (!nn_is_str(k) || (strcmp(nn_str_cstr(k), "sep") && strcmp(nn_str_cstr(k), "end") &&
                              strcmp(nn_str_cstr(k), "file") && strcmp(nn_str_cstr(k), "flush"))) {
            repl_raise_exc(EXC_TypeError, "'%s' is an invalid keyword argument for print()",
                           nn_is_str(k) ? nn_str_cstr(k) : "?");
            return NULL;
        }
    nn_object *sep = kwarg(kwargs, "sep"), *end = kwarg(kwargs, "end");
    if ((sep && !nn_is_none(sep) && !nn_is_str(sep)) || (end && !nn_is_none(end) && !nn_is_str(end))) {
        repl_raise_exc(EXC_TypeError, "sep must be None or a string, not %s", repl_value_type_name(sep && !nn_is_str(sep) ? sep : end));
        return NULL;
    }
    sep = sep && !nn_is_none(sep) ? nn_retain(sep) : nn_str_new(" ");
    end = end && !nn_is_none(end) ? nn_retain(end) : nn_str_new("\n");
    nn_object *file = kwarg(kwargs, "file"), *replaced = NULL, *r = NULL;
    if (!sep || !end) r = NULL;
    else if (file && !nn_is_none(file)) r = print_to_file(file, args, sep, end);
    else if ((replaced = repl_sys_stdout_replacement())) r = print_to_file(replaced, args, sep, end); /* sys.stdout = f, redirect_stdout */
    else r = print_to_stdout(args, sep, end);
    if (r) {
        NN_RELEASE(r);
        r = print_flush(file && !nn_is_none(file) ? file : replaced, kwarg(kwargs, "flush"));
    }
    NN_RELEASE(replaced);
    NN_RELEASE(sep);
    NN_RELEASE(end);
    return r;
}

static nn_object *bi_len(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("len", args, 1, 1) < 0) return NULL;
    int64_t n;
    if (repl_length(ARG(0), &n) < 0) return NULL;
    return nn_int_new(n);
}

static nn_object *bi_repr(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("repr", args, 1, 1) < 0) return NULL;
    return str_take(repl_obj_repr(ARG(0)));
}

static nn_object *bi_abs(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("abs", args, 1, 1) < 0) return NULL;
    nn_object *x = base_unless(ARG(0), "__abs__");
    if (repl_is_integer(x)) return repl_int_abs(x);
    if (x->type == &nn_float_type) return nn_float_new(fabs(nn_float_value(x)));
    if (nn_is_complex(x)) return repl_complex_abs(x);
    nn_object *m = repl_get_attr(x, x->type == &repl_instance_type ? "__abs__" : "abs"); /* a class's __abs__ */
    if (m) {
        nn_object *r = repl_call_object(m, NULL, 0, NULL);
        NN_RELEASE(m);
        return r;
    }
    nn_object *e = repl_take_exception();
    NN_RELEASE(e);
    repl_raise_exc(EXC_TypeError, "bad operand type for abs(): '%s'", repl_value_type_name(x));
    return NULL;
}

/* min/max over args or one iterable, item by item as CPython's (a range or a
   generator is never a list); key= and default= */
static nn_object *minmax(nn_object *args, nn_object *kwargs, bool is_max)
{
    const char *name = is_max ? "max" : "min";
    nn_object *key = kwarg(kwargs, "key"), *dflt = kwarg(kwargs, "default");
    size_t pos = 0;
    nn_object *k, *v;
    while (kwargs && nn_dict_next(kwargs, &pos, &k, &v))
        if (strcmp(nn_str_cstr(k), "key") != 0 && strcmp(nn_str_cstr(k), "default") != 0) {
            repl_raise_exc(EXC_TypeError, "'%s' is an invalid keyword argument for %s()", nn_str_cstr(k), name);
            return NULL;
        }
    if (NARGS == 0) {
        repl_raise_exc(EXC_TypeError, "%s expected at least 1 argument, got 0", name);
        return NULL;
    }
    if (NARGS > 1 && dflt) {
        repl_raise_exc(EXC_TypeError, "Cannot specify a default for %s() with multiple positional arguments", name);
        return NULL;
    }
    if (key && nn_is_none(key)) key = NULL;
    nn_object *it = repl_get_iter(NARGS == 1 ? ARG(0) : args), *item, *best = NULL, *bestk = NULL;
    if (!it) return NULL;
    int more;
    while ((more = repl_iter_next(it, &item)) == 1) {
        nn_object *ik = key ? repl_call_object(key, &item, 1, NULL) : nn_retain(item);
        nn_object *c = ik && best ? repl_binary_op(is_max ? REPL_GT : REPL_LT, ik, bestk) : NULL; /* CPython's order */
        int better = !ik ? -1 : !best ? 1 : c ? repl_truth(c) : -1;
        NN_RELEASE(c);
        if (better == 1) {
            NN_SET(best, item);
            NN_SET(bestk, ik);
            continue;
        }
        NN_RELEASE(item);
        NN_RELEASE(ik);
        if (better < 0) {
            more = -1;
            break;
        }
    }
    NN_RELEASE(it);
    NN_RELEASE(bestk);
    if (more < 0) {
        NN_RELEASE(best);
        return NULL;
    }
    if (best) return best;
    if (dflt) return nn_retain(dflt);
    repl_raise_exc(EXC_ValueError, "%s() arg is an empty sequence", name);
    return NULL;
}

static nn_object *bi_max(void *ud, nn_object *args, nn_object *kwargs) { return minmax(args, kwargs, true); }
static nn_object *bi_min(void *ud, nn_object *args, nn_object *kwargs) { return minmax(args, kwargs, false); }

static nn_object *bi_sum(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("sum", args, 1, 2) < 0) return NULL;
    nn_object *start = NARGS > 1 ? ARG(1) : kwarg(kwargs, "start");
    if (start && nn_is_str(start)) {
        repl_raise_exc(EXC_TypeError, "sum() can't sum strings [use ''.join(seq) instead]");
        return NULL;
    }
    nn_object *it = repl_get_iter(ARG(0)), *item; /* item by item: a generator is never a list */
    if (!it) return NULL;
    nn_object *acc = start ? nn_retain(start) : nn_int_new(0);
    int more = 0;
    /* ints add up in a C integer (acc is then stale), boxed when something else
       comes or an addition would overflow: CPython's sum does the same */
    bool in_c = acc && acc->type == &nn_int_type;
    int64_t total = in_c ? nn_int_value(acc) : 0;
    while (acc && (more = repl_iter_next(it, &item)) == 1) {
        int64_t r64;
        if (in_c && (item->type == &nn_int_type || item->type == &nn_bool_type) &&
            !__builtin_add_overflow(total, nn_int_value(item), &r64)) {
            total = r64;
            NN_RELEASE(item);
            continue;
        }
        if (in_c) {
            NN_SET(acc, nn_int_new(total));
            in_c = false;
            if (!acc) {
                NN_RELEASE(item);
                break;
            }
        }
        nn_object *r = repl_binary_op(REPL_ADD, acc, item);
        NN_RELEASE(item);
        NN_RELEASE(acc);
        acc = r;
        if (acc && acc->type == &nn_int_type) {
            in_c = true;
            total = nn_int_value(acc);
        }
    }
    NN_RELEASE(it);
    if (more < 0) NN_SET(acc, NULL);
    else if (in_c && acc) NN_SET(acc, nn_int_new(total));
    return acc;
}

static double round_half_even(double x) { return nearbyint(x); }

static nn_object *bi_round(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("round", args, 1, 2) < 0) return NULL;
    nn_object *x = base_unless(ARG(0), "__round__"), *nd = NARGS > 1 ? ARG(1) : kwarg(kwargs, "ndigits");
    bool has_nd = nd && !nn_is_none(nd);
    int64_t n = 0;
    if (has_nd && repl_is_bigint(nd)) { /* beyond any int's digits */
        n = repl_is_bigint(nd) && mpz_sgn(repl_bigint_mpz(nd)) < 0 ? INT64_MIN / 2 : INT64_MAX / 2;
    } else if (has_nd && get_int(nd, &n, "ndigits") < 0) return NULL;
    if (repl_is_bigint(x) || (is_intlike(x) && n < -18)) return repl_int_round(x, has_nd ? n : 0);
    if (is_intlike(x)) {
        int64_t v = nn_int_value(x);
        if (!has_nd || n >= 0) return nn_int_new(v);
        int64_t p = 1;
        for (int64_t i = 0; i < -n; i++) p *= 10;
        int64_t q = v / p, r = v % p;
        if (r < 0) {
            q--;
            r += p;
        }
        if (r * 2 > p || (r * 2 == p && (q & 1))) q++;
        return nn_int_new(q * p);
    }
    if (x->type != &nn_float_type) {
        nn_object *m = repl_get_attr(x, "__round__");
        if (!m) {
            nn_object *e = repl_take_exception();
            NN_RELEASE(e);
            repl_raise_exc(EXC_TypeError, "type %s doesn't define __round__ method", repl_value_type_name(x));
            return NULL;
        }
        nn_object *r = repl_call_object(m, has_nd ? &nd : NULL, has_nd, NULL);
        NN_RELEASE(m);
        return r;
    }
    double v = nn_float_value(x);
    if (!has_nd) return repl_int_from_double(isfinite(v) ? round_half_even(v) : v);
    if (isnan(v) || isinf(v)) return nn_float_new(v);
    if (n > 300) return nn_float_new(v);
    if (n >= 0) {
        char buf[512];
        snprintf(buf, sizeof buf, "%.*f", (int)n, v);
        return nn_float_new(strtod(buf, NULL));
    }
    if (n < -308) return nn_float_new(0.0 * v);
    double p = pow(10.0, (double)-n);
    return nn_float_new(round_half_even(v / p) * p);
}

/* stable merge sort of items by keys (parallel arrays); -1 on a comparison error */
static int merge_sort(nn_object **items, nn_object **keys, size_t n, bool reverse, nn_object **ti, nn_object **tk)
{
    if (n < 2) return 0;
    size_t h = n / 2;
    if (merge_sort(items, keys, h, reverse, ti, tk) < 0 || merge_sort(items + h, keys + h, n - h, reverse, ti, tk) < 0)
        return -1;
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n) {
        /* take from the right only when strictly before (stability) */
        int c = reverse ? repl_less(keys[i], keys[j]) : repl_less(keys[j], keys[i]);
        if (c < 0) return -1;
        if (c) {
            ti[k] = items[j];
            tk[k++] = keys[j++];
        } else {
            ti[k] = items[i];
            tk[k++] = keys[i++];
        }
    }
    while (i < h) {
        ti[k] = items[i];
        tk[k++] = keys[i++];
    }
    while (j < n) {
        ti[k] = items[j];
        tk[k++] = keys[j++];
    }
    memcpy(items, ti, n * sizeof *items);
    memcpy(keys, tk, n * sizeof *keys);
    return 0;
}

/* Sorts list in place (key may be NULL or None). */
static int sort_list(nn_object *list, nn_object *key, bool reverse)
{
    size_t n = nn_list_len(list);
    if (n < 2) return 0;
    nn_object **items = nn_malloc(n * sizeof *items * 4);
    if (!items) return -1;
    nn_object **keys = items + n, **ti = items + 2 * n, **tk = items + 3 * n;
    size_t nk = 0;
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        items[i] = nn_retain(nn_list_get(list, i));
        if (key && !nn_is_none(key)) {
            keys[i] = repl_call_object(key, &items[i], 1, NULL);
            if (!keys[i]) {
                rc = -1;
                nk = i;
                NN_RELEASE(items[i]);
                for (size_t k = 0; k < i; k++) NN_RELEASE(items[k]);
                goto out;
            }
        } else keys[i] = nn_retain(items[i]);
        nk = i + 1;
    }
    /* reverse keeps stability: Python reverses, sorts, reverses */
    rc = merge_sort(items, keys, n, reverse, ti, tk);
    if (rc == 0)
        for (size_t i = 0; i < n; i++) nn_list_set(list, i, items[i]);
    else
        for (size_t i = 0; i < n; i++) NN_RELEASE(items[i]);
out:
    for (size_t i = 0; i < nk; i++) NN_RELEASE(keys[i]);
    nn_free(items);
    return rc;
}

static nn_object *bi_sorted(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("sorted", args, 1, 1) < 0) return NULL;
    nn_object *l = repl_to_list(ARG(0)), *rev = kwarg(kwargs, "reverse");
    if (!l) return NULL;
    int r = rev ? repl_truth(rev) : 0;
    if (r < 0 || sort_list(l, kwarg(kwargs, "key"), r) < 0) {
        NN_RELEASE(l);
        return NULL;
    }
    return l;
}

static nn_object *anyall(nn_object *args, bool any)
{
    if (nargs_check(any ? "any" : "all", args, 1, 1) < 0) return NULL;
    nn_object *it = repl_get_iter(ARG(0)), *v;
    if (!it) return NULL;
    int r, result = !any;
    while ((r = repl_iter_next(it, &v)) == 1) {
        int t = repl_truth(v);
        NN_RELEASE(v);
        if (t < 0) {
            r = -1;
            break;
        }
        if (t == any) {
            result = any;
            break;
        }
    }
    NN_RELEASE(it);
    return r < 0 ? NULL : nn_bool_new(result);
}
static nn_object *bi_any(void *ud, nn_object *args, nn_object *kwargs) { return anyall(args, true); }
static nn_object *bi_all(void *ud, nn_object *args, nn_object *kwargs) { return anyall(args, false); }

static nn_object *memoryview_class(void);

/* isinstance against one class object or native type object: 1, 0, -1 */
static int instance_of(nn_object *o, nn_object *cls)
{
    if (cls->type == &nn_cfunction_type && cls == repl_nmap_get(&repl_current->builtins, "memoryview") &&
        !(cls = memoryview_class())) /* isinstance(m, memoryview) before the first memoryview */
        return -1;
    if (cls->type == &nn_tuple_type) {
        for (size_t i = 0; i < nn_tuple_len(cls); i++) {
            int r = instance_of(o, nn_tuple_get(cls, i));
            if (r) return r;
        }
        return 0;
    }
    if (cls->type == &repl_class_type) {
        class_obj *c = (class_obj *)cls, *oc = repl_class_of(o);
        if (c == repl_current->object_cls) return 1;
        if (c == repl_current->int_cls && o->type == &nn_bool_type) return 1;
        nn_object *check = c->meta && c->meta != repl_current->type_cls ? repl_class_lookup(c->meta, "__instancecheck__") : NULL;
        if (check) { /* a metaclass's __instancecheck__(cls, instance) decides */
            nn_object *argv[2] = {cls, o}, *r = repl_call_object(check, argv, 2, NULL); /* check: borrowed */
            int t = r ? repl_truth(r) : -1;
            NN_RELEASE(r);
            return t;
        }
        if (o->type == &repl_class_type && ((class_obj *)o)->meta && repl_class_is_subclass(((class_obj *)o)->meta, c))
            return 1; /* isinstance(C, M): class C(metaclass=M) */
        if (repl_class_is_subclass(oc, c) || repl_abc_registered(oc, c)) return 1;
        if (c == repl_current->dict_cls && repl_is_globals_dict(o)) return 1; /* isinstance(globals(), dict) */
        if (c->ntype && oc->module && !strcmp(oc->module, "builtins") && !strcmp(oc->name, c->name) && !oc->ntype)
            return 1; /* range(2**70): a range written in the language (repl/lib/_bigrange.py) */
        if (repl_optim_is_lang_base(cls) && nn_is_instance(o, &nn_optimizer_type)) return 1; /* core's SGD */
        if (nn_is_module(o) && repl_bind_chain_has_class(((nn_module *)o)->cls, cls)) return 1; /* _BatchNorm */
        if (o->type == &repl_instance_type && repl_class_lookup(oc, "__class__")) {
            /* a class attribute __class__ (a property, as unittest.mock's spec) answers as CPython's does */
            nn_object *claimed = repl_get_attr(o, "__class__");
            if (!claimed) return -1;
            int r = claimed != &oc->ob && claimed->type == &repl_class_type &&
                    repl_class_is_subclass((class_obj *)claimed, c);
            NN_RELEASE(claimed);
            return r;
        }
        return 0;
    }
    int r = repl_bind_isinstance(o, cls);
    if (r >= 0) return r;
    const repl_native_ops *ops = repl_get_native_ops();
    if (ops && ops->module_class_of && nn_is_module(o)) {
        const nn_module_class *want = ops->module_class_of(cls);
        if (want) {
            for (const nn_module_class *k = ((nn_module *)o)->cls; k; k = k->base)
                if (k == want) return 1;
            return 0;
        }
    }
    if (cls->type == &repl_instance_type && repl_class_lookup(((instance_obj *)cls)->cls, "__instancecheck__")) {
        nn_object *r = repl_call_method(cls, "__instancecheck__", &o, 1); /* typing.Iterable */
        int t = r ? repl_truth(r) : -1;
        NN_RELEASE(r);
        return t;
    }
    if (ops && ops->getattr) {
        /* a native type object answers __instancecheck__ */
        nn_object *m = ops->getattr(cls, "__instancecheck__");
        if (m) {
            nn_object *r = repl_call_object(m, &o, 1, NULL);
            NN_RELEASE(m);
            if (!r) return -1;
            int t = repl_truth(r);
            NN_RELEASE(r);
            return t;
        }
        nn_error_clear();
    }
    repl_raise_exc(EXC_TypeError, "isinstance() arg 2 must be a type, a tuple of types, or a union");
    return -1;
}

static nn_object *bi_isinstance(void *ud, nn_object *args, nn_object *kwargs)
{
    if (NARGS != 2) {
        repl_raise_exc(EXC_TypeError, "isinstance expected 2 arguments, got %d", NARGS);
        return NULL;
    }
    int r = instance_of(ARG(0), ARG(1));
    return r < 0 ? NULL : nn_bool_new(r);
}

static nn_object *bi_issubclass(void *ud, nn_object *args, nn_object *kwargs)
{
    if (NARGS != 2) {
        repl_raise_exc(EXC_TypeError, "issubclass expected 2 arguments, got %d", NARGS);
        return NULL;
    }
    nn_object *c = ARG(0), *b = ARG(1);
    if (c->type != &repl_class_type && repl_bind_module_class_of(c)) { /* a native module class: its bases */
        if (b->type == &repl_class_type)
            return nn_bool_new(b == &repl_current->object_cls->ob ||
                               repl_bind_chain_has_class(repl_bind_module_class_of(c), b)); /* _ConvNd */
        if (b->type != &nn_tuple_type) return nn_bool_new(repl_bind_module_issubclass(c, b));
        for (size_t i = 0; i < nn_tuple_len(b); i++)
            if (repl_bind_module_issubclass(c, nn_tuple_get(b, i)) ||
                nn_tuple_get(b, i) == &repl_current->object_cls->ob)
                return nn_bool_new(true);
        return nn_bool_new(false);
    }
    if (c->type != &repl_class_type) {
        repl_raise_exc(EXC_TypeError, "issubclass() arg 1 must be a class");
        return NULL;
    }
    if (b->type == &nn_tuple_type) {
        for (size_t i = 0; i < nn_tuple_len(b); i++) {
            nn_object *a2 = nn_tuple_pack(2, c, nn_tuple_get(b, i));
            nn_object *r = a2 ? bi_issubclass(ud, a2, NULL) : NULL;
            NN_RELEASE(a2);
            if (!r || nn_int_value(r)) return r;
            NN_RELEASE(r);
        }
        return nn_bool_new(false);
    }
    if (b->type == &repl_instance_type && repl_class_lookup(((instance_obj *)b)->cls, "__subclasscheck__")) {
        nn_object *r = repl_call_method(b, "__subclasscheck__", &c, 1); /* typing.Mapping */
        int t = r ? repl_truth(r) : -1;
        NN_RELEASE(r);
        return t < 0 ? NULL : nn_bool_new(t);
    }
    const nn_module_class *want = repl_bind_module_class_of(b);
    if (want) { /* issubclass(Net, nn.Module): Net's core class derives from b's */
        const nn_module_class *k = ((class_obj *)c)->mcls;
        if (want == &repl_module_base_class) return nn_bool_new(k != NULL);
        while (k && k != want) k = k->base;
        return nn_bool_new(k != NULL);
    }
    if (b->type != &repl_class_type) {
        repl_raise_exc(EXC_TypeError, "issubclass() arg 2 must be a class, a tuple of classes, or a union");
        return NULL;
    }
    class_obj *cc = (class_obj *)c, *bb = (class_obj *)b;
    nn_object *check = bb->meta && bb->meta != repl_current->type_cls ? repl_class_lookup(bb->meta, "__subclasscheck__") : NULL;
    if (check) { /* a metaclass's __subclasscheck__(cls, subclass) decides (collections.abc) */
        nn_object *argv[2] = {b, c}, *r = repl_call_object(check, argv, 2, NULL); /* check: borrowed */
        int t = r ? repl_truth(r) : -1;
        NN_RELEASE(r);
        return t < 0 ? NULL : nn_bool_new(t);
    }
    return nn_bool_new(bb == repl_current->object_cls || repl_class_is_subclass(cc, bb) || repl_abc_registered(cc, bb) ||
                       (bb == repl_current->type_cls && repl_is_metaclass(cc)) ||
                       (cc == repl_current->bool_cls && bb == repl_current->int_cls));
}

static nn_object *bi_type(void *ud, nn_object *args, nn_object *kwargs)
{
    if (NARGS == 3) return repl_type_new(ARG(0), ARG(1), ARG(2), kwargs); /* type_new.c */
    if (NARGS != 1) {
        repl_raise_exc(EXC_TypeError, "type() takes 1 or 3 arguments");
        return NULL;
    }
    nn_object *o = ARG(0);
    if (o->type == &repl_class_type && ((class_obj *)o)->meta) return nn_retain(&((class_obj *)o)->meta->ob);
    if (o->type != &repl_instance_type && !repl_module_lang_class(o)) {
        nn_object *t = repl_bind_type_of(o);
        if (t || nn_error_current()) return t;
    }
    return nn_retain(&repl_class_of(o)->ob);
}

static nn_object *bi_getattr(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("getattr", args, 2, 3) < 0) return NULL;
    if (!nn_is_str(ARG(1))) {
        repl_raise_exc(EXC_TypeError, "attribute name must be string, not '%s'", repl_value_type_name(ARG(1)));
        return NULL;
    }
    nn_object *v = repl_get_attr(ARG(0), nn_str_cstr(ARG(1)));
    if (v || NARGS < 3) return v;
    nn_object *e = repl_take_exception();
    if (repl_exc_matches(e, &repl_current->exc_classes[EXC_AttributeError]->ob)) {
        NN_RELEASE(e);
        return nn_retain(ARG(2));
    }
    repl_raise_object(e);
    NN_RELEASE(e);
    return NULL;
}

static nn_object *bi_hasattr(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("hasattr", args, 2, 2) < 0) return NULL;
    if (!nn_is_str(ARG(1))) {
        repl_raise_exc(EXC_TypeError, "attribute name must be string, not '%s'", repl_value_type_name(ARG(1)));
        return NULL;
    }
    nn_object *v = repl_get_attr(ARG(0), nn_str_cstr(ARG(1)));
    if (v) {
        NN_RELEASE(v);
        return nn_bool_new(true);
    }
    nn_object *e = repl_take_exception();
    if (repl_exc_matches(e, &repl_current->exc_classes[EXC_AttributeError]->ob)) {
        NN_RELEASE(e);
        return nn_bool_new(false);
    }
    repl_raise_object(e);
    NN_RELEASE(e);
    return NULL;
}

static nn_object *bi_setattr(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("setattr", args, 3, 3) < 0) return NULL;
    if (!nn_is_str(ARG(1))) {
        repl_raise_exc(EXC_TypeError, "attribute name must be string, not '%s'", repl_value_type_name(ARG(1)));
        return NULL;
    }
    return repl_set_attr(ARG(0), nn_str_cstr(ARG(1)), ARG(2)) < 0 ? NULL : none();
}

static nn_object *bi_iter(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("iter", args, 1, 1) < 0) return NULL;
    return repl_iter_builtin(ARG(0));
}

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The sorted distinct keys of maps plus the str items of extra (a list or NULL). */
static nn_object *names_list(nmap **maps, int nmaps, nn_object *extra)
{
    size_t total = extra ? nn_list_len(extra) : 0;
    for (int i = 0; i < nmaps; i++) total += maps[i]->len;
    const char **names = nn_malloc((total + 1) * sizeof *names);
    if (!names) return NULL;
    size_t n = 0;
    for (size_t i = 0; i < total; i++) {
        const char *k = NULL;
        if (extra && i < nn_list_len(extra)) k = nn_str_cstr(nn_list_get(extra, i));
        bool dup = !k;
        for (size_t j = 0; j < n && !dup; j++) dup = strcmp(names[j], k) == 0;
        if (!dup) names[n++] = k;
    }
    for (int i = 0; i < nmaps; i++) {
        uint32_t pos = 0;
        const char *k;
        nn_object *v;
        while (repl_nmap_next(maps[i], &pos, &k, &v)) {
            bool dup = false;
            for (size_t j = 0; j < n && !dup; j++) dup = strcmp(names[j], k) == 0;
            if (!dup) names[n++] = k;
        }
    }
    qsort(names, n, sizeof *names, cmp_names);
    nn_object *l = nn_list_new(n);
    for (size_t i = 0; l && i < n; i++) {
        nn_object *s = nn_str_new(names[i]);
        if (!s || nn_list_append(l, s) < 0) NN_SET(l, NULL);
        NN_RELEASE(s);
    }
    nn_free(names);
    return l;
}

/* Appends the str keys of dict d to list. 0 or -1. */
static int append_keys(nn_object *list, nn_object *d)
{
    size_t pos = 0;
    nn_object *k, *v;
    while (nn_dict_next(d, &pos, &k, &v))
        if (nn_is_str(k) && nn_list_append(list, k) < 0) return -1;
    return 0;
}

/* What a native object adds to dir(): a built-in module's attributes (torch.randn,
   ...), an nn module's parameters, buffers,
   submodules and attributes, and the methods of its native class (nn.Module's
   for a class written in the language). A new list, or NULL (no error) when o
   is not native. */
static nn_object *native_names(nn_object *o)
{
    const char *module_name;
    nn_object *module_attrs;
    if (repl_bind_module_of(o, &module_name, &module_attrs)) { /* torch, torch.nn, F, ... */
        nn_object *names = nn_list_new(0);
        if (names && append_keys(names, module_attrs) < 0) NN_SET(names, NULL);
        return names;
    }
    nn_object *cls = repl_bind_type_of(o);
    if (!cls && nn_is_module(o)) {
        nn_object *nn_ns = repl_get_native_ops()->import_module("torch.nn");
        cls = nn_ns ? repl_get_native_ops()->getattr(nn_ns, "Module") : NULL;
        NN_RELEASE(nn_ns);
    }
    nn_error_clear();
    if (!cls && !nn_is_module(o)) return NULL;
    nn_object *names = nn_list_new(0);
    repl_method_doc m;
    for (size_t i = 0; names && cls && repl_bind_class_method(cls, i, &m); i++) {
        nn_object *s = nn_str_new(m.name);
        if (!s || nn_list_append(names, s) < 0) NN_SET(names, NULL);
        NN_RELEASE(s);
    }
    NN_RELEASE(cls);
    if (names && nn_is_module(o)) {
        nn_module *m = NN_MODULE(o);
        nn_object *dicts[] = {m->parameters, m->buffers, m->modules, m->attrs};
        for (size_t i = 0; names && i < sizeof dicts / sizeof dicts[0]; i++)
            if (append_keys(names, dicts[i]) < 0) NN_SET(names, NULL);
        nn_object *training = names ? nn_str_new("training") : NULL;
        if (names && (!training || nn_list_append(names, training) < 0)) NN_SET(names, NULL);
        NN_RELEASE(training);
    }
    return names;
}

static nn_object *bi_dir(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("dir", args, 0, 1) < 0) return NULL;
    nmap *maps[16];
    int n = 0;
    if (NARGS == 0) {
        maps[n++] = &repl_current->globals;
        return names_list(maps, n, NULL);
    }
    nn_object *o = ARG(0);
    if (o->type == &repl_module_type) maps[n++] = &((module_obj *)o)->dict;
    else if (o->type == &repl_instance_type) {
        if (repl_instance_dict_sync((instance_obj *)o) < 0) return NULL;
        maps[n++] = &((instance_obj *)o)->attrs;
    }
    class_obj *c = o->type == &repl_class_type ? (class_obj *)o : o->type == &repl_module_type ? NULL : repl_class_of(o);
    for (; c && n < 16; c = c->base) maps[n++] = &c->dict;
    nn_object *extra = native_names(o);
    if (!extra && nn_error_current()) return NULL;
    nn_object *names = names_list(maps, n, extra);
    NN_RELEASE(extra);
    return names;
}

nn_object *repl_dir(repl_interp *in, nn_object *obj)
{
    repl_interp *prev = repl_current;
    repl_current = in;
    nn_object *names = NULL;
    if (obj) {
        nn_object *args = nn_tuple_pack(1, obj);
        names = args ? bi_dir(NULL, args, NULL) : NULL;
        NN_RELEASE(args);
    } else {
        names = names_list((nmap *[]){&in->globals, &in->builtins}, 2, NULL);
    }
    repl_current = prev;
    return names;
}

static nn_object *bi_id(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("id", args, 1, 1) < 0) return NULL;
    return nn_int_new((int64_t)(intptr_t)ARG(0));
}

static nn_object *bi_hash(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("hash", args, 1, 1) < 0) return NULL;
    nn_object *o = ARG(0);
    uint64_t cpython;
    nn_object *own_hash = o->type == &repl_instance_type ? repl_class_lookup(((instance_obj *)o)->cls, "__hash__") : NULL;
    if (own_hash && !nn_is_none(own_hash)) { /* __hash__ = None: unhashable (repl_obj_hash) */
        /* CPython: the int that __hash__ returns (-1 becomes -2), reduced as
           an int's hash only when it does not fit 64 bits */
        nn_object *r = repl_call_method(o, "__hash__", NULL, 0);
        if (!r) return NULL;
        bool ok = repl_is_integer(r);
        if (ok && !repl_is_bigint(r)) cpython = nn_int_value(r) == -1 ? (uint64_t)-2 : (uint64_t)nn_int_value(r);
        else if (ok) repl_cpython_hash(r, &cpython);
        NN_RELEASE(r);
        if (ok) return nn_int_new((int64_t)cpython);
        repl_raise_exc(EXC_TypeError, "__hash__ method should return an integer");
        return NULL;
    }
    if (repl_cpython_hash(repl_base_value(o) && !own_hash ? repl_base_value(o) : o, &cpython))
        return nn_int_new((int64_t)cpython);
    int64_t h = repl_obj_hash(o);
    if (h == -1 && nn_error_current()) return NULL;
    return nn_int_new(h);
}

static nn_object *bi_callable(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("callable", args, 1, 1) < 0) return NULL;
    nn_object *o = ARG(0);
    bool c = o->type->call != NULL;
    if (o->type == &repl_instance_type) c = repl_class_lookup(((instance_obj *)o)->cls, "__call__") != NULL;
    return nn_bool_new(c);
}

static nn_object *bi_divmod(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("divmod", args, 2, 2) < 0) return NULL;
    nn_object *q = repl_binary_op(REPL_FLOORDIV, ARG(0), ARG(1));
    if (!q) {
        if (nn_error_current() == NN_ERR_TYPE) {
            nn_object *e = repl_take_exception();
            NN_RELEASE(e);
            repl_raise_exc(EXC_TypeError, "unsupported operand type(s) for divmod(): '%s' and '%s'", repl_value_type_name(ARG(0)),
                      repl_value_type_name(ARG(1)));
        }
        return NULL;
    }
    nn_object *m = repl_binary_op(REPL_MOD, ARG(0), ARG(1));
    nn_object *t = m ? nn_tuple_pack(2, q, m) : NULL;
    NN_RELEASE(q);
    NN_RELEASE(m);
    return t;
}

static nn_object *bi_pow(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("pow", args, 2, 3) < 0) return NULL;
    if (NARGS == 3 && !nn_is_none(ARG(2)) && repl_is_integer(ARG(0)) && repl_is_integer(ARG(1)) && repl_is_integer(ARG(2)))
        return repl_int_powmod(ARG(0), ARG(1), ARG(2));
    if (NARGS == 3 && !nn_is_none(ARG(2))) {
        int64_t b, e, m;
        if (get_int(ARG(0), &b, "") < 0 || get_int(ARG(1), &e, "") < 0 || get_int(ARG(2), &m, "") < 0) return NULL;
        if (m == 0) {
            repl_raise_exc(EXC_ValueError, "pow() 3rd argument cannot be 0");
            return NULL;
        }
        if (e < 0) {
            repl_raise_exc(EXC_ValueError, "base is not invertible for the given modulus");
            return NULL;
        }
        __int128 r = 1, x = ((b % m) + m) % m;
        while (e) {
            if (e & 1) r = r * x % m;
            x = x * x % m;
            e >>= 1;
        }
        int64_t res = (int64_t)r;
        if (res != 0 && (res < 0) != (m < 0)) res += m;
        return nn_int_new(res);
    }
    return repl_binary_op(REPL_POW, ARG(0), ARG(1));
}

static nn_object *bi_chr(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("chr", args, 1, 1) < 0) return NULL;
    int64_t c;
    if (get_int(ARG(0), &c, "") < 0) return NULL;
    if (c < 0 || c > 0x10ffff) {
        repl_raise_exc(EXC_ValueError, "chr() arg not in range(0x110000)");
        return NULL;
    }
    char buf[5];
    size_t n;
    if (c < 0x80) buf[0] = (char)c, n = 1;
    else if (c < 0x800) buf[0] = (char)(0xc0 | (c >> 6)), buf[1] = (char)(0x80 | (c & 0x3f)), n = 2;
    else if (c < 0x10000)
        buf[0] = (char)(0xe0 | (c >> 12)), buf[1] = (char)(0x80 | ((c >> 6) & 0x3f)), buf[2] = (char)(0x80 | (c & 0x3f)), n = 3;
    else
        buf[0] = (char)(0xf0 | (c >> 18)), buf[1] = (char)(0x80 | ((c >> 12) & 0x3f)),
        buf[2] = (char)(0x80 | ((c >> 6) & 0x3f)), buf[3] = (char)(0x80 | (c & 0x3f)), n = 4;
    return nn_str_from(buf, n);
}

static nn_object *bi_ord(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("ord", args, 1, 1) < 0) return NULL;
    nn_object *s = ARG(0);
    if (!nn_is_str(s)) {
        repl_raise_exc(EXC_TypeError, "ord() expected string of length 1, but %s found", repl_value_type_name(s));
        return NULL;
    }
    const unsigned char *p = (const unsigned char *)nn_str_cstr(s);
    size_t n = nn_str_len(s), chars = utf8_len((const char *)p, n);
    if (chars != 1) {
        repl_raise_exc(EXC_TypeError, "ord() expected a character, but string of length %zu found", chars);
        return NULL;
    }
    int64_t c = p[0];
    if (n == 2) c = ((p[0] & 0x1f) << 6) | (p[1] & 0x3f);
    else if (n == 3) c = ((p[0] & 0x0f) << 12) | ((p[1] & 0x3f) << 6) | (p[2] & 0x3f);
    else if (n == 4) c = ((int64_t)(p[0] & 0x07) << 18) | ((p[1] & 0x3f) << 12) | ((p[2] & 0x3f) << 6) | (p[3] & 0x3f);
    return nn_int_new(c);
}

static nn_object *bi_format(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("format", args, 1, 2) < 0) return NULL;
    if (NARGS == 2 && !nn_is_str(ARG(1))) {
        repl_raise_exc(EXC_TypeError, "format() argument 2 must be str, not %s", repl_value_type_name(ARG(1)));
        return NULL;
    }
    return repl_format_value(ARG(0), NARGS == 2 ? nn_str_cstr(ARG(1)) : "");
}

static nn_object *bi_help(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("help", args, 1, 1) < 0) return NULL;
    char *text = repl_help_text(repl_current, ARG(0));
    if (!text) return NULL;
    repl_interp_write(text, strlen(text));
    nn_free(text);
    return none();
}

static nn_object *bi_super(void *ud, nn_object *args, nn_object *kwargs)
{
    return NARGS == 2 ? repl_make_super_of(ARG(0), ARG(1)) : repl_make_super();
}

static nn_object *bi_locals(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("locals", args, 0, 0) < 0) return NULL;
    return repl_locals_dict();
}

static nn_object *bi_globals(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("globals", args, 0, 0) < 0) return NULL;
    return repl_globals_dict(); /* live (globals_dict.c) */
}

/* ------------------------------------------------------------------ constructors */

int repl_double_to_int64(double v, int64_t *out)
{
    if (isnan(v)) return repl_raise_exc(EXC_ValueError, "cannot convert float NaN to integer");
    if (isinf(v)) return repl_raise_exc(EXC_OverflowError, "cannot convert float infinity to integer");
    if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) /* [-2**63, 2**63) */
        return repl_raise_exc(EXC_OverflowError, "int too large to convert");
    *out = (int64_t)v;
    return 0;
}

static nn_object *parse_int(const char *s, size_t len, int base, nn_object *orig)
{
    int base0 = base;
    char buf[128];
    size_t b = 0;
    const char *p = s, *end = s + len;
    while (p < end && isspace((unsigned char)*p)) p++;
    while (end > p && isspace((unsigned char)end[-1])) end--;
    bool neg = false;
    if (p < end && (*p == '+' || *p == '-')) neg = *p++ == '-';
    if ((base == 16 || base == 0) && end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) p += 2, base = 16;
    else if ((base == 8 || base == 0) && end - p > 2 && p[0] == '0' && (p[1] == 'o' || p[1] == 'O')) p += 2, base = 8;
    else if ((base == 2 || base == 0) && end - p > 2 && p[0] == '0' && (p[1] == 'b' || p[1] == 'B')) p += 2, base = 2;
    if (base == 0) base = 10;
    bool ok = p < end && *p != '_';
    uint64_t v = 0;
    for (; ok && p < end; p++) {
        if (*p == '_' && p + 1 < end && p[1] != '_') continue;
        int d = isdigit((unsigned char)*p) ? *p - '0' : isalpha((unsigned char)*p) ? tolower((unsigned char)*p) - 'a' + 10 : 99;
        if (d >= base) {
            ok = false;
            break;
        }
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) return repl_int_from_text(s, len, base0, orig);
        v = v * (uint64_t)base + (uint64_t)d;
        if (b < sizeof buf - 1) buf[b++] = *p;
    }
    if (!ok || base0 == 0) return repl_int_from_text(s, len, base0, orig); /* the full syntax and its errors */
    if (!ok) {
        char *r = repl_obj_repr(orig);
        repl_raise_exc(EXC_ValueError, "invalid literal for int() with base %d: %s", base, r ? r : "?");
        nn_free(r);
        return NULL;
    }
    if (v > (uint64_t)INT64_MAX + neg) return repl_int_from_text(s, len, base0, orig);
    return nn_int_new(neg ? (int64_t)(0 - v) : (int64_t)v);
}

static nn_object *ctor_int(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("int", args, 0, 2) < 0) return NULL;
    if (NARGS == 0) return nn_int_new(0);
    nn_object *x = base_unless(ARG(0), "__int__"), *b = NARGS > 1 ? ARG(1) : kwarg(kwargs, "base");
    if (b) {
        int64_t base;
        if (get_int(b, &base, "base") < 0) return NULL;
        if (!nn_is_str(x)) {
            repl_raise_exc(EXC_TypeError, "int() can't convert non-string with explicit base");
            return NULL;
        }
        if (base != 0 && (base < 2 || base > 36)) { /* int('10', 99) was 99 */
            repl_raise_exc(EXC_ValueError, "int() base must be >= 2 and <= 36, or 0");
            return NULL;
        }
        return parse_int(nn_str_cstr(x), nn_str_len(x), (int)base, x);
    }
    if (x->type == &nn_int_type || repl_is_bigint(x)) return nn_retain(x);
    if (x->type == &nn_bool_type) return nn_int_new(nn_int_value(x));
    if (x->type == &nn_float_type) return repl_int_from_double(nn_float_value(x));
    if (nn_is_str(x)) return parse_int(nn_str_cstr(x), nn_str_len(x), 10, x);
    nn_object *m = repl_get_attr(x, "__int__");
    if (!m) {
        nn_object *e = repl_take_exception();
        NN_RELEASE(e);
        m = repl_get_attr(x, "item");
        if (!m) {
            e = repl_take_exception();
            NN_RELEASE(e);
            repl_raise_exc(EXC_TypeError, "int() argument must be a string, a bytes-like object or a real number, not '%s'",
                      repl_value_type_name(x));
            return NULL;
        }
    }
    nn_object *r = repl_call_object(m, NULL, 0, NULL);
    NN_RELEASE(m);
    if (r && r->type == &nn_float_type) {
        nn_object *a = nn_tuple_pack(1, r);
        NN_RELEASE(r);
        r = a ? ctor_int(ud, a, NULL) : NULL;
        NN_RELEASE(a);
    }
    return r;
}

static nn_object *ctor_float(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("float", args, 0, 1) < 0) return NULL;
    if (NARGS == 0) return nn_float_new(0.0);
    nn_object *x = base_unless(ARG(0), "__float__");
    if (x->type == &nn_float_type) return nn_retain(x);
    if (repl_is_integer(x)) {
        double d;
        return repl_int_to_double(x, &d) < 0 ? NULL : nn_float_new(d);
    }
    if (nn_is_str(x)) {
        /* the text without its surrounding spaces and its '_' (each between two digits, as CPython allows) */
        const char *p = nn_str_cstr(x), *last = p + nn_str_len(x);
        while (isspace((unsigned char)*p)) p++;
        while (last > p && isspace((unsigned char)last[-1])) last--;
        char *buf = nn_malloc((size_t)(last - p) + 1);
        if (!buf) return NULL;
        size_t n = 0;
        bool bad_underscore = false;
        for (const char *q = p; q < last; q++)
            if (*q != '_') buf[n++] = *q;
            else if (q == p || q + 1 == last || !isdigit((unsigned char)q[-1]) || !isdigit((unsigned char)q[1]))
                bad_underscore = true;
        buf[n] = 0;
        char *end;
        double v = strtod(buf, &end);
        bool invalid = n == 0 || end != buf + n || bad_underscore || strchr(buf, 'x') || strchr(buf, 'X');
        nn_free(buf);
        if (invalid) {
            char *r = repl_obj_repr(x);
            repl_raise_exc(EXC_ValueError, "could not convert string to float: %s", r ? r : "?");
            nn_free(r);
            return NULL;
        }
        return nn_float_new(v);
    }
    nn_object *m = repl_get_attr(x, "__float__");
    if (!m) {
        nn_object *e = repl_take_exception();
        NN_RELEASE(e);
        m = repl_get_attr(x, "item");
        if (!m) {
            e = repl_take_exception();
            NN_RELEASE(e);
            repl_raise_exc(EXC_TypeError, "float() argument must be a string or a real number, not '%s'", repl_value_type_name(x));
            return NULL;
        }
    }
    nn_object *r = repl_call_object(m, NULL, 0, NULL);
    NN_RELEASE(m);
    if (r && is_intlike(r)) {
        nn_object *f = nn_float_new((double)nn_int_value(r));
        NN_RELEASE(r);
        r = f;
    }
    return r;
}

static nn_object *ctor_str(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *enc = kwarg(kwargs, "encoding"), *errs = kwarg(kwargs, "errors");
    if (nargs_check("str", args, 0, 3) < 0) return NULL;
    if (NARGS <= 1 && !enc && !errs) return NARGS == 0 ? nn_str_new("") : repl_obj_str_object(ARG(0));
    /* str(b, encoding, errors): b.decode(encoding, errors) */
    nn_object *o = NARGS ? ARG(0) : NULL;
    if (!o || nn_is_str(o))
        return repl_raise_exc(EXC_TypeError, o ? "decoding str is not supported" : "decoding to str: need a bytes-like object, str found"),
               NULL;
    if (!repl_is_bytes(o))
        return repl_raise_exc(EXC_TypeError, "decoding to str: need a bytes-like object, %s found", repl_value_type_name(o)), NULL;
    nn_object *argv[2] = {NARGS > 1 ? ARG(1) : enc ? enc : NULL, NARGS > 2 ? ARG(2) : errs};
    if (!argv[0]) argv[0] = nn_str_new("utf-8");
    else nn_retain(argv[0]);
    nn_object *r = argv[0] ? repl_call_method(o, "decode", argv, argv[1] ? 2 : 1) : NULL;
    NN_RELEASE(argv[0]);
    return r;
}

static nn_object *ctor_bool(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("bool", args, 0, 1) < 0) return NULL;
    if (NARGS == 0) return nn_bool_new(false);
    int t = repl_truth(ARG(0));
    return t < 0 ? NULL : nn_bool_new(t);
}

static nn_object *ctor_list(void *ud, nn_object *args, nn_object *kwargs)
{
    if (no_kwargs("list", kwargs) < 0 || nargs_check("list", args, 0, 1) < 0) return NULL;
    if (NARGS == 0) return nn_list_new(0);
    return repl_to_list(ARG(0));
}

static nn_object *ctor_tuple(void *ud, nn_object *args, nn_object *kwargs)
{
    if (no_kwargs("tuple", kwargs) < 0 || nargs_check("tuple", args, 0, 1) < 0) return NULL;
    if (NARGS == 0) return nn_tuple_new(0);
    if (ARG(0)->type == &nn_tuple_type) return nn_retain(ARG(0));
    nn_object *l = repl_to_list(ARG(0));
    if (!l) return NULL;
    nn_object *t = nn_tuple_new(nn_list_len(l));
    for (size_t i = 0; t && i < nn_list_len(l); i++) nn_tuple_set(t, i, nn_retain(nn_list_get(l, i)));
    NN_RELEASE(l);
    return t;
}

static int dict_update(nn_object *d, nn_object *src)
{
    /* a dict subclass that keeps dict's iteration: its items as they are (CPython's fast path) */
    if (repl_base_value(src) && nn_is_dict(repl_base_value(src)) && !repl_class_lookup(((instance_obj *)src)->cls, "__iter__"))
        src = repl_base_value(src);
    if (src->type == &nn_dict_type) {
        size_t pos = 0;
        nn_object *k, *v;
        while (nn_dict_next(src, &pos, &k, &v))
            if (nn_dict_set(d, k, v) < 0) return -1;
        return 0;
    }
    if (nn_is_module(src) || (src->type != &nn_list_type && src->type != &nn_tuple_type && src->type != &repl_iter_type &&
                              src->type != &repl_dictview_type)) {
        /* a mapping with keys() */
        nn_object *keys = repl_call_method(src, "keys", NULL, 0);
        if (keys) {
            nn_object *kl = repl_to_list(keys);
            NN_RELEASE(keys);
            if (!kl) return -1;
            int rc = 0;
            for (size_t i = 0; rc == 0 && i < nn_list_len(kl); i++) {
                nn_object *v = repl_get_item(src, nn_list_get(kl, i));
                rc = v ? nn_dict_set(d, nn_list_get(kl, i), v) : -1;
                NN_RELEASE(v);
            }
            NN_RELEASE(kl);
            return rc;
        }
        nn_object *e = repl_take_exception();
        NN_RELEASE(e);
    }
    nn_object *items = repl_to_list(src);
    if (!items) return -1;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < nn_list_len(items); i++) {
        nn_object *kv = nn_list_get(items, i), *l = repl_to_list(kv);
        if (!l) {
            rc = -1;
            break;
        }
        size_t n = nn_list_len(l);
        if (n != 2 && nn_dict_is_ordered(d)) /* OrderedDict's update unpacks each pair */
            rc = n > 2 ? repl_raise_exc(EXC_ValueError, "too many values to unpack (expected 2)")
                       : repl_raise_exc(EXC_ValueError, "need more than %zu value%s to unpack", n, n == 1 ? "" : "s");
        else if (n != 2)
            rc = repl_raise_exc(EXC_ValueError, "dictionary update sequence element #%zu has length %zu; 2 is required", i, n);
        else {
            if (repl_obj_hash(nn_list_get(l, 0)) == -1 && nn_error_current()) rc = -1;
            else rc = nn_dict_set(d, nn_list_get(l, 0), nn_list_get(l, 1));
        }
        NN_RELEASE(l);
    }
    NN_RELEASE(items);
    return rc;
}

/* dict(...) and OrderedDict(...) (ud: its class, ordered for OrderedDict). */
static nn_object *ctor_dict(void *ud, nn_object *args, nn_object *kwargs)
{
    bool ordered = ud && ud == repl_current->odict_cls;
    if (ordered && NARGS > 1) {
        repl_raise_exc(EXC_TypeError, "expected at most 1 arguments, got %d", NARGS);
        return NULL;
    }
    if (nargs_check("dict", args, 0, 1) < 0) return NULL;
    nn_object *d = ordered ? nn_ordered_dict_new() : nn_dict_new();
    if (!d) return NULL;
    if ((NARGS && dict_update(d, ARG(0)) < 0) || (kwargs && dict_update(d, kwargs) < 0)) {
        NN_RELEASE(d);
        return NULL;
    }
    return d;
}

static nn_object *make_set(nn_object *args, bool frozen)
{
    if (nargs_check(frozen ? "frozenset" : "set", args, 0, 1) < 0) return NULL;
    nn_object *s = repl_set_new(frozen);
    if (!s || NARGS == 0) return s;
    nn_object *l = repl_to_list(ARG(0));
    if (!l) {
        NN_RELEASE(s);
        return NULL;
    }
    for (size_t i = 0; s && i < nn_list_len(l); i++)
        if (repl_set_add(s, nn_list_get(l, i)) < 0) NN_SET(s, NULL);
    NN_RELEASE(l);
    if (s && ARG(0)->type == &repl_set_type) repl_set_adopt_table(s, repl_set_op_table(REPL_OR_BITS, ARG(0), NULL, false));
    return s;
}
static nn_object *ctor_set(void *ud, nn_object *args, nn_object *kwargs) { return make_set(args, false); }
static nn_object *ctor_frozenset(void *ud, nn_object *args, nn_object *kwargs) { return make_set(args, true); }

/* The class name of the language-written module mod (repl/lib/MOD.py), shown as a
   built-in (<class 'range'>), called with args and kwargs: a built-in whose rarer
   forms live there (range of big ints, memoryview). */
static nn_object *lib_class_call(const char *mod, const char *name, nn_object *args, nn_object *kwargs)
{
    nn_object *m = repl_import_by_name(mod), *cls = m ? repl_get_attr(m, name) : NULL;
    if (cls && cls->type == &repl_class_type) ((class_obj *)cls)->module = "builtins";
    nn_object *r = cls ? nn_call(cls, args, kwargs) : NULL;
    NN_RELEASE(cls);
    NN_RELEASE(m);
    return r;
}

/* The memoryview class (repl/lib/_memoryview.py, loaded on first use), which
   then replaces the function builtins.memoryview: a borrowed reference or NULL. */
static nn_object *memoryview_class(void)
{
    nn_object *m = repl_import_by_name("_memoryview"), *cls = m ? repl_get_attr(m, "memoryview") : NULL;
    NN_RELEASE(m);
    if (cls && cls->type != &repl_class_type) NN_SET(cls, NULL);
    if (!cls) return NULL;
    ((class_obj *)cls)->module = "builtins";
    int rc = repl_nmap_set(&repl_current->builtins, "memoryview", cls); /* type(m) is memoryview */
    NN_RELEASE(cls);
    return rc < 0 ? NULL : repl_nmap_get(&repl_current->builtins, "memoryview");
}

nn_object *repl_memoryview_type(void)
{
    nn_object *cls = memoryview_class();
    return cls ? nn_retain(cls) : NULL;
}

/* Drops the frames of repl/lib/_sys_stdin.py from the traceback being raised:
   CPython's input is a built-in function, whose EOFError or KeyboardInterrupt
   shows no frame of its own. */
static void drop_stdin_frames(void)
{
    repl_interp *in = repl_current;
    int kept = 0;
    for (int i = 0; i < in->n_tb; i++) {
        const char *source, *filename;
        repl_code_unit_text(in->tb[i].unit, &source, &filename);
        if (filename && strcmp(filename, "<frozen _sys_stdin>") == 0) repl_tb_entry_release(&in->tb[i]);
        else in->tb[kept++] = in->tb[i];
    }
    in->n_tb = kept;
}

/* input([prompt]): repl/lib/_sys_stdin.py's, over sys.stdin */
static nn_object *bi_input(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *m = repl_import_by_name("_sys_stdin"), *f = m ? repl_get_attr(m, "input") : NULL;
    nn_object *r = f ? nn_call(f, args, kwargs) : NULL;
    NN_RELEASE(f);
    NN_RELEASE(m);
    if (!r) drop_stdin_frames();
    return r;
}

static nn_object *bi_memoryview(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *cls = memoryview_class();
    return cls ? nn_call(cls, args, kwargs) : NULL;
}

static nn_object *ctor_range(void *ud, nn_object *args, nn_object *kwargs)
{
    if (NARGS < 1 || NARGS > 3) {
        if (NARGS == 0) repl_raise_exc(EXC_TypeError, "range expected at least 1 argument, got 0");
        else repl_raise_exc(EXC_TypeError, "range expected at most 3 arguments, got %d", NARGS);
        return NULL;
    }
    int64_t v[3] = {0, 0, 1};
    bool big = false;
    for (int i = 0; i < NARGS; i++) {
        nn_object *a = base_unless(ARG(i), "__index__"), *idx = NULL;   /* an int subclass: its value */
        if (a->type == &repl_instance_type && !(idx = repl_call_method(a, "__index__", NULL, 0))) return NULL;
        if (idx) a = idx;
        big |= repl_is_bigint(a);
        int rc = repl_is_bigint(a) ? 0 : get_int(idx ? a : ARG(i), &v[i], ""); /* (get_int unwraps; its error names ARG(i)) */
        NN_RELEASE(idx);
        if (rc < 0) return NULL;
    }
    if (NARGS == 1) v[1] = v[0], v[0] = 0;
    /* beyond int64 (range(2**70), or a length that overflows): repl/lib/_bigrange.py */
    if (big || (__int128)v[1] - v[0] > INT64_MAX || (__int128)v[0] - v[1] > INT64_MAX) {
        return lib_class_call("_bigrange", "range", args, NULL);
    }
    if (NARGS == 1) return repl_range_new(0, v[1], 1);
    if (NARGS == 3 && v[2] == 0) {
        repl_raise_exc(EXC_ValueError, "range() arg 3 must not be zero");
        return NULL;
    }
    return repl_range_new(v[0], v[1], v[2]);
}

static nn_object *ctor_slice(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("slice", args, 1, 3) < 0) return NULL;
    if (NARGS == 1) return repl_slice_new(NULL, ARG(0), NULL);
    return repl_slice_new(ARG(0), ARG(1), NARGS > 2 ? ARG(2) : NULL);
}

/* slice.indices(length): (start, stop, step) clipped to a sequence of that length */
static nn_object *slice_indices_m(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("indices", args, 2, 2) < 0) return NULL;
    nn_object *len = repl_unwrap_value(ARG(1));
    if (!is_intlike(len)) {
        repl_raise_exc(EXC_TypeError, "'%s' object cannot be interpreted as an integer", repl_value_type_name(ARG(1)));
        return NULL;
    }
    int64_t n = nn_int_value(len), start, stop, step, count;
    if (n < 0) {
        repl_raise_exc(EXC_ValueError, "length should not be negative");
        return NULL;
    }
    if (repl_slice_indices(ARG(0), n, &start, &stop, &step, &count) < 0) return NULL;
    nn_object *a = nn_int_new(start), *b = nn_int_new(stop), *c = nn_int_new(step);
    nn_object *r = a && b && c ? nn_tuple_pack(3, a, b, c) : NULL;
    NN_RELEASE(a);
    NN_RELEASE(b);
    NN_RELEASE(c);
    return r;
}

static nn_object *ctor_object(void *ud, nn_object *args, nn_object *kwargs)
{
    return repl_instance_new(repl_current->object_cls);
}

/* object.__new__(cls, ...): a new, uninitialised instance of cls (a class's
   own __new__ calls it; the other arguments are __init__'s). */
static nn_object *object_new(void *ud, nn_object *args, nn_object *kwargs)
{
    if (NARGS < 1) {
        repl_raise_exc(EXC_TypeError, "object.__new__(): not enough arguments");
        return NULL;
    }
    if (ARG(0)->type != &repl_class_type) {
        repl_raise_exc(EXC_TypeError, "object.__new__(X): X is not a type object (%s)", repl_value_type_name(ARG(0)));
        return NULL;
    }
    class_obj *c = (class_obj *)ARG(0);
    if (c->mcls) return (nn_object *)nn_module_new(c->mcls);
    if (c->vbase && c->vbase != repl_current->type_cls) { /* class D(dict): its value comes from dict.__new__ */
        repl_raise_exc(EXC_TypeError, "object.__new__(%s) is not safe, use %s.__new__()", c->name, c->name);
        return NULL;
    }
    if (c->ntype && c->ntype != &repl_instance_type) {
        repl_raise_exc(EXC_TypeError, "object.__new__(%s) is not safe, use %s.__new__()", c->name, c->name);
        return NULL;
    }
    return repl_instance_new(c);
}

static nn_object *ctor_type(void *ud, nn_object *args, nn_object *kwargs) { return bi_type(ud, args, kwargs); }

/* BaseException.__init__(self, *args) */
static nn_object *exc_init(void *ud, nn_object *args, nn_object *kwargs)
{
    if (NARGS < 1 || ARG(0)->type != &repl_instance_type) return none();
    nn_object *t = nn_tuple_new((size_t)NARGS - 1);
    if (!t) return NULL;
    for (int i = 1; i < NARGS; i++) nn_tuple_set(t, (size_t)i - 1, nn_retain(ARG(i)));
    int rc = repl_nmap_set(&((instance_obj *)ARG(0))->attrs, "args", t);
    NN_RELEASE(t);
    if (rc == 0 && repl_class_is_subclass(((instance_obj *)ARG(0))->cls, repl_current->exc_classes[EXC_OSError]))
        rc = repl_oserror_init(ARG(0));
    if (rc == 0 && repl_is_syntax_error(ARG(0))) rc = repl_syntax_error_init(ARG(0));
    return rc < 0 ? NULL : none();
}

/* SystemExit.code, a property: the exit status or message (see repl_exit_code) */
static nn_object *exit_code_get(void *ud, nn_object *args, nn_object *kwargs)
{
    if (NARGS != 1 || !repl_exc_matches(ARG(0), &repl_current->exc_classes[EXC_SystemExit]->ob)) return none();
    return repl_exit_code(ARG(0));
}

/* ------------------------------------------------------------------ str methods */

#define SELF ARG(0)
#define S_CSTR nn_str_cstr(SELF)
#define S_LEN nn_str_len(SELF)

static int want_str(nn_object *o, const char *what)
{
    if (nn_is_str(o)) return 0;
    return repl_raise_exc(EXC_TypeError, "%s arg must be None or str", what);
}

static nn_object *str_format_m(void *ud, nn_object *args, nn_object *kwargs)
{
    return str_format_impl(S_CSTR, S_LEN, NARGS > 1 ? &((nn_tuple *)args)->items[1] : NULL, (size_t)NARGS - 1, kwargs, NULL);
}

/* str.format_map(mapping): format(**mapping) without copying it (a dict here) */
static nn_object *str_format_map_m(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("format_map", args, 2, 2) < 0) return NULL;
    if (!nn_is_dict(ARG(1))) {
        repl_raise_exc(EXC_TypeError, "format_map() argument must be a dict here, not %s", repl_value_type_name(ARG(1)));
        return NULL;
    }
    return str_format_impl(S_CSTR, S_LEN, NULL, 0, ARG(1), NULL);
}

static nn_object *str_join(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("join", args, 2, 2) < 0) return NULL;
    nn_object *l = repl_to_list(ARG(1));
    if (!l) return NULL;
    sbuf b = {0};
    for (size_t i = 0; i < nn_list_len(l); i++) {
        nn_object *s = nn_list_get(l, i);
        if (repl_base_value(s) && nn_is_str(repl_base_value(s))) s = repl_base_value(s); /* class S(str) */
        if (!nn_is_str(s)) {
            repl_raise_exc(EXC_TypeError, "sequence item %zu: expected str instance, %s found", i, repl_value_type_name(s));
            nn_free(b.buf);
            NN_RELEASE(l);
            return NULL;
        }
        if (i) repl_sb_add(&b, S_CSTR, S_LEN);
        repl_sb_add(&b, nn_str_cstr(s), nn_str_len(s));
        if ((i & 0xffff) == 0xffff && nn_check_interrupt() < 0) { /* a join of millions stops at Ctrl-C */
            nn_free(b.buf);
            NN_RELEASE(l);
            return NULL;
        }
    }
    NN_RELEASE(l);
    return repl_sb_str(&b);
}

static nn_object *str_split_impl(nn_object *args, nn_object *kwargs, bool right)
{
    nn_object *sep = NARGS > 1 ? ARG(1) : kwarg(kwargs, "sep"), *ms = NARGS > 2 ? ARG(2) : kwarg(kwargs, "maxsplit");
    int64_t maxsplit = -1;
    if (ms && get_int(ms, &maxsplit, "") < 0) return NULL;
    const char *s = S_CSTR;
    size_t n = S_LEN;
    nn_object *l = nn_list_new(0);
    if (!l) return NULL;
    if (!sep || nn_is_none(sep)) {
        /* whitespace runs (every one of them: counted first); rsplit counts from the right */
        size_t parts = 0;
        for (size_t i = 0; i < n; i++)
            parts += !isspace((unsigned char)s[i]) && (i == 0 || isspace((unsigned char)s[i - 1]));
        size_t *starts = nn_malloc(2 * parts * sizeof *starts + 1);
        if (!starts) {
            NN_RELEASE(l);
            return NULL;
        }
        size_t *ends = starts + parts;
        for (size_t k = 0, i = 0; k < parts; k++) {
            while (isspace((unsigned char)s[i])) i++;
            size_t j = i;
            while (j < n && !isspace((unsigned char)s[j])) j++;
            starts[k] = i;
            ends[k] = j;
            i = j;
        }
        if (maxsplit >= 0 && (size_t)maxsplit + 1 < parts) {
            if (right) {
                size_t first = parts - (size_t)maxsplit - 1;
                nn_object *p = nn_str_from(s + starts[0], ends[first] - starts[0]);
                if (!p || nn_list_append(l, p) < 0) NN_SET(l, NULL);
                NN_RELEASE(p);
                for (size_t q = first + 1; l && q < parts; q++) {
                    p = nn_str_from(s + starts[q], ends[q] - starts[q]);
                    if (!p || nn_list_append(l, p) < 0) NN_SET(l, NULL);
                    NN_RELEASE(p);
                }
                nn_free(starts);
                return l;
            }
            for (size_t q = 0; l && q < (size_t)maxsplit; q++) {
                nn_object *p = nn_str_from(s + starts[q], ends[q] - starts[q]);
                if (!p || nn_list_append(l, p) < 0) NN_SET(l, NULL);
                NN_RELEASE(p);
            }
            size_t last = starts[maxsplit], e = n;
            while (e > last && isspace((unsigned char)s[e - 1])) e--;
            nn_object *p = nn_str_from(s + last, e - last);
            if (l && (!p || nn_list_append(l, p) < 0)) NN_SET(l, NULL);
            NN_RELEASE(p);
            nn_free(starts);
            return l;
        }
        for (size_t q = 0; l && q < parts; q++) {
            nn_object *p = nn_str_from(s + starts[q], ends[q] - starts[q]);
            if (!p || nn_list_append(l, p) < 0) NN_SET(l, NULL);
            NN_RELEASE(p);
        }
        nn_free(starts);
        return l;
    }
    if (want_str(sep, "split") < 0) {
        NN_RELEASE(l);
        return NULL;
    }
    const char *sp = nn_str_cstr(sep);
    size_t sn = nn_str_len(sep);
    if (sn == 0) {
        NN_RELEASE(l);
        repl_raise_exc(EXC_ValueError, "empty separator");
        return NULL;
    }
    if (right && maxsplit >= 0) {
        /* split from the right, then reverse */
        size_t end = n;
        int64_t count = 0;
        nn_object *rev = nn_list_new(0);
        size_t i = n;
        while (rev && i >= sn && count < maxsplit) {
            if (memcmp(s + i - sn, sp, sn) == 0) {
                nn_object *p = nn_str_from(s + i, end - i);
                if (!p || nn_list_append(rev, p) < 0) NN_SET(rev, NULL);
                NN_RELEASE(p);
                end = i - sn;
                i = end;
                count++;
            } else i--;
        }
        nn_object *p = rev ? nn_str_from(s, end) : NULL;
        if (rev && (!p || nn_list_append(rev, p) < 0)) NN_SET(rev, NULL);
        NN_RELEASE(p);
        for (size_t k = rev ? nn_list_len(rev) : 0; k-- > 0;) nn_list_append(l, nn_list_get(rev, k));
        if (!rev) NN_SET(l, NULL);
        NN_RELEASE(rev);
        return l;
    }
    size_t start = 0;
    int64_t count = 0;
    for (size_t i = 0; l && i + sn <= n;) {
        if ((maxsplit < 0 || count < maxsplit) && memcmp(s + i, sp, sn) == 0) {
            nn_object *p = nn_str_from(s + start, i - start);
            if (!p || nn_list_append(l, p) < 0) NN_SET(l, NULL);
            NN_RELEASE(p);
            i += sn;
            start = i;
            count++;
        } else i++;
    }
    nn_object *p = l ? nn_str_from(s + start, n - start) : NULL;
    if (l && (!p || nn_list_append(l, p) < 0)) NN_SET(l, NULL);
    NN_RELEASE(p);
    return l;
}
static nn_object *str_split(void *ud, nn_object *args, nn_object *kwargs) { return str_split_impl(args, kwargs, false); }
static nn_object *str_rsplit(void *ud, nn_object *args, nn_object *kwargs) { return str_split_impl(args, kwargs, true); }

static nn_object *strip_impl(nn_object *args, int which)
{
    const char *s = S_CSTR, *chars = " \t\n\r\f\v";
    size_t n = S_LEN;
    if (NARGS > 1 && !nn_is_none(ARG(1))) {
        if (want_str(ARG(1), "strip") < 0) return NULL;
        chars = nn_str_cstr(ARG(1));
    }
    size_t a = 0, b = n;
    if (which & 1)
        while (a < b && strchr(chars, s[a]) && s[a]) a++;
    if (which & 2)
        while (b > a && strchr(chars, s[b - 1]) && s[b - 1]) b--;
    return nn_str_from(s + a, b - a);
}
static nn_object *str_strip(void *ud, nn_object *args, nn_object *kwargs) { return strip_impl(args, 3); }
static nn_object *str_lstrip(void *ud, nn_object *args, nn_object *kwargs) { return strip_impl(args, 1); }
static nn_object *str_rstrip(void *ud, nn_object *args, nn_object *kwargs) { return strip_impl(args, 2); }

static nn_object *affix_impl(nn_object *args, bool end)
{
    if (nargs_check(end ? "endswith" : "startswith", args, 2, 2) < 0) return NULL;
    nn_object *x = ARG(1);
    size_t n = S_LEN;
    if (x->type == &nn_tuple_type) {
        for (size_t i = 0; i < nn_tuple_len(x); i++) {
            nn_object *p = nn_tuple_get(x, i);
            if (!nn_is_str(p)) {
                repl_raise_exc(EXC_TypeError, "tuple for %s must only contain str, not %s", end ? "endswith" : "startswith",
                          repl_value_type_name(p));
                return NULL;
            }
            size_t m = nn_str_len(p);
            if (m <= n && memcmp(S_CSTR + (end ? n - m : 0), nn_str_cstr(p), m) == 0) return nn_bool_new(true);
        }
        return nn_bool_new(false);
    }
    if (!nn_is_str(x)) {
        repl_raise_exc(EXC_TypeError, "%s first arg must be str or a tuple of str, not %s", end ? "endswith" : "startswith",
                  repl_value_type_name(x));
        return NULL;
    }
    size_t m = nn_str_len(x);
    return nn_bool_new(m <= n && memcmp(S_CSTR + (end ? n - m : 0), nn_str_cstr(x), m) == 0);
}
static nn_object *str_startswith(void *ud, nn_object *args, nn_object *kwargs) { return affix_impl(args, false); }
static nn_object *str_endswith(void *ud, nn_object *args, nn_object *kwargs) { return affix_impl(args, true); }

static nn_object *str_replace(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("replace", args, 3, 4) < 0) return NULL;
    if (want_str(ARG(1), "replace") < 0 || want_str(ARG(2), "replace") < 0) return NULL;
    int64_t count = -1;
    if (NARGS > 3 && get_int(ARG(3), &count, "") < 0) return NULL;
    const char *s = S_CSTR, *old = nn_str_cstr(ARG(1)), *new = nn_str_cstr(ARG(2));
    size_t n = S_LEN, on = nn_str_len(ARG(1)), nw = nn_str_len(ARG(2));
    sbuf b = {0};
    int64_t done = 0;
    if (on == 0) {
        for (size_t i = 0; i <= n; i++) {
            if (count < 0 || done < count) {
                repl_sb_add(&b, new, nw);
                done++;
            }
            if (i < n) repl_sb_add(&b, s + i, 1);
        }
        return repl_sb_str(&b);
    }
    for (size_t i = 0; i < n;) {
        if ((count < 0 || done < count) && i + on <= n && memcmp(s + i, old, on) == 0) {
            repl_sb_add(&b, new, nw);
            i += on;
            done++;
        } else repl_sb_add(&b, s + i++, 1);
    }
    if (!b.buf && !b.failed) return nn_str_new("");
    return repl_sb_str(&b);
}

static bool is_ascii(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] >= 0x80) return false;
    return true;
}

static nn_object *case_impl(nn_object *args, int mode)
{
    if (!is_ascii(S_CSTR, S_LEN)) return repl_str_case(S_CSTR, S_LEN, mode); /* unicode.c: full mappings */
    nn_object *r = nn_str_from(S_CSTR, S_LEN);
    if (!r) return NULL;
    char *p = (char *)nn_str_cstr(r);
    bool start = true;
    for (size_t i = 0; i < S_LEN; i++) {
        unsigned char c = (unsigned char)p[i];
        if (mode == 0) p[i] = (char)toupper(c);
        else if (mode == 1) p[i] = (char)tolower(c);
        else if (mode == 2) p[i] = (char)(i == 0 ? toupper(c) : tolower(c));
        else if (mode == 3) {
            p[i] = (char)(start ? toupper(c) : tolower(c));
            start = !isalpha(c);
        } else p[i] = (char)(isupper(c) ? tolower(c) : toupper(c));
    }
    return r;
}
static nn_object *str_upper(void *ud, nn_object *args, nn_object *kwargs) { return case_impl(args, 0); }
static nn_object *str_lower(void *ud, nn_object *args, nn_object *kwargs) { return case_impl(args, 1); }
static nn_object *str_capitalize(void *ud, nn_object *args, nn_object *kwargs) { return case_impl(args, 2); }
static nn_object *str_title(void *ud, nn_object *args, nn_object *kwargs) { return case_impl(args, 3); }
static nn_object *str_swapcase(void *ud, nn_object *args, nn_object *kwargs) { return case_impl(args, 4); }
static nn_object *str_casefold(void *ud, nn_object *args, nn_object *kwargs)
{
    return is_ascii(S_CSTR, S_LEN) ? case_impl(args, 1) : repl_str_case(S_CSTR, S_LEN, REPL_CASE_FOLD);
}

/* The characters of UTF-8 s[0..nb), and the byte offset of character ci (nb past the end). */
static int64_t u8_chars(const char *s, int64_t nb)
{
    int64_t c = 0;
    for (int64_t i = 0; i < nb; i++) c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}
static int64_t u8_byte_at(const char *s, int64_t nb, int64_t ci)
{
    int64_t i = 0;
    for (int64_t c = 0; i < nb; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80 && c++ == ci) return i;
    return nb;
}

/* find / rfind / index / rindex / count with optional start, end (characters;
   the search runs over the UTF-8 bytes, which match only at character starts) */
static nn_object *find_impl(nn_object *args, int mode, const char *name)
{
    if (nargs_check(name, args, 2, 4) < 0) return NULL;
    if (!nn_is_str(ARG(1))) {
        repl_raise_exc(EXC_TypeError, "must be str, not %s", repl_value_type_name(ARG(1)));
        return NULL;
    }
    const char *s = S_CSTR, *sub = nn_str_cstr(ARG(1));
    int64_t nb = (int64_t)S_LEN, m = (int64_t)nn_str_len(ARG(1));
    bool ascii = is_ascii(s, (size_t)nb);
    int64_t n = ascii ? nb : u8_chars(s, nb), start = 0, end = n;
    if (NARGS > 2 && !nn_is_none(ARG(2)) && get_int(ARG(2), &start, "") < 0) return NULL;
    if (NARGS > 3 && !nn_is_none(ARG(3)) && get_int(ARG(3), &end, "") < 0) return NULL;
    if (start < 0) start = start + n < 0 ? 0 : start + n;
    if (end < 0) end = end + n < 0 ? 0 : end + n;
    if (end > n) end = n;
    if (mode == 2 && m == 0) return nn_int_new(end >= start ? end - start + 1 : 0);
    int64_t bstart = start > n ? nb + 1 : ascii ? start : u8_byte_at(s, nb, start), bend = ascii ? end : u8_byte_at(s, nb, end);
    if (mode == 2) {
        int64_t c = 0;
        for (int64_t i = bstart; i + m <= bend;) {
            if (memcmp(s + i, sub, (size_t)m) == 0) {
                c++;
                i += m;
            } else i++;
        }
        return nn_int_new(c);
    }
    int64_t found = -1;
    if (mode == 0) {
        for (int64_t i = bstart; i + m <= bend; i++)
            if (memcmp(s + i, sub, (size_t)m) == 0) {
                found = i;
                break;
            }
    } else {
        for (int64_t i = bend - m; i >= bstart; i--)
            if (memcmp(s + i, sub, (size_t)m) == 0) {
                found = i;
                break;
            }
    }
    if (found < 0 && (strcmp(name, "index") == 0 || strcmp(name, "rindex") == 0)) {
        repl_raise_exc(EXC_ValueError, "substring not found");
        return NULL;
    }
    if (found >= 0 && !ascii) found = start + u8_chars(s + bstart, found - bstart); /* a character index */
    return nn_int_new(found);
}
static nn_object *str_find(void *ud, nn_object *args, nn_object *kwargs) { return find_impl(args, 0, "find"); }
static nn_object *str_rfind(void *ud, nn_object *args, nn_object *kwargs) { return find_impl(args, 1, "rfind"); }
static nn_object *str_index(void *ud, nn_object *args, nn_object *kwargs) { return find_impl(args, 0, "index"); }
static nn_object *str_rindex(void *ud, nn_object *args, nn_object *kwargs) { return find_impl(args, 1, "rindex"); }
static nn_object *str_count(void *ud, nn_object *args, nn_object *kwargs) { return find_impl(args, 2, "count"); }

static nn_object *class_impl(nn_object *args, int (*pred)(int), bool need_cased, int which)
{
    size_t n = S_LEN;
    const unsigned char *s = (const unsigned char *)S_CSTR;
    if (!pred || !is_ascii(S_CSTR, n)) return nn_bool_new(repl_str_is(S_CSTR, n, which)); /* unicode.c */
    if (n == 0) return nn_bool_new(false);
    bool cased = false;
    for (size_t i = 0; i < n; i++) {
        if (need_cased) {
            if (isalpha(s[i])) cased = true;
            if (isalpha(s[i]) && !pred(s[i])) return nn_bool_new(false);
        } else if (!pred(s[i])) return nn_bool_new(false);
    }
    return nn_bool_new(!need_cased || cased);
}
static nn_object *str_isdigit(void *ud, nn_object *args, nn_object *kwargs) { return class_impl(args, isdigit, false, REPL_CLS_DIGIT); }
static nn_object *str_isalpha(void *ud, nn_object *args, nn_object *kwargs) { return class_impl(args, isalpha, false, REPL_CLS_ALPHA); }
static nn_object *str_isalnum(void *ud, nn_object *args, nn_object *kwargs) { return class_impl(args, isalnum, false, REPL_CLS_ALNUM); }
static nn_object *str_isspace(void *ud, nn_object *args, nn_object *kwargs) { return class_impl(args, isspace, false, REPL_CLS_SPACE); }
static nn_object *str_isupper(void *ud, nn_object *args, nn_object *kwargs) { return class_impl(args, isupper, true, REPL_CLS_UPPER); }
static nn_object *str_islower(void *ud, nn_object *args, nn_object *kwargs) { return class_impl(args, islower, true, REPL_CLS_LOWER); }
static nn_object *str_isnumeric(void *ud, nn_object *args, nn_object *kwargs) { return class_impl(args, isdigit, false, REPL_CLS_NUMERIC); }
static nn_object *str_isdecimal(void *ud, nn_object *args, nn_object *kwargs) { return class_impl(args, isdigit, false, REPL_CLS_DECIMAL); }
static nn_object *str_istitle(void *ud, nn_object *args, nn_object *kwargs) { return class_impl(args, NULL, true, REPL_CLS_TITLE); }
static nn_object *str_isascii(void *ud, nn_object *args, nn_object *kwargs) { return class_impl(args, NULL, false, REPL_CLS_ASCII); }
static nn_object *str_isprintable(void *ud, nn_object *args, nn_object *kwargs) { return class_impl(args, NULL, false, REPL_CLS_PRINTABLE); }
static nn_object *str_isidentifier(void *ud, nn_object *args, nn_object *kwargs) { return class_impl(args, NULL, false, REPL_CLS_IDENTIFIER); }

static nn_object *just_impl(nn_object *args, char align, const char *name)
{
    if (nargs_check(name, args, 2, 3) < 0) return NULL;
    int64_t w;
    if (get_int(ARG(1), &w, "") < 0) return NULL;
    char fill = ' ';
    if (NARGS > 2) {
        if (!nn_is_str(ARG(2)) || nn_str_len(ARG(2)) != 1) {
            repl_raise_exc(EXC_TypeError, "The fill character must be exactly one character long");
            return NULL;
        }
        fill = nn_str_cstr(ARG(2))[0];
    }
    size_t len = utf8_len(S_CSTR, S_LEN);
    if (w <= (int64_t)len) return nn_retain(SELF);
    size_t padn = (size_t)w - len, left = align == '<' ? 0 : align == '>' ? padn : padn / 2 + (padn & (size_t)w & 1);
    sbuf b = {0};
    repl_sb_fill(&b, fill, left);
    repl_sb_add(&b, S_CSTR, S_LEN);
    repl_sb_fill(&b, fill, padn - left);
    return repl_sb_str(&b);
}
static nn_object *str_ljust(void *ud, nn_object *args, nn_object *kwargs) { return just_impl(args, '<', "ljust"); }
static nn_object *str_rjust(void *ud, nn_object *args, nn_object *kwargs) { return just_impl(args, '>', "rjust"); }
static nn_object *str_center(void *ud, nn_object *args, nn_object *kwargs) { return just_impl(args, '^', "center"); }

static nn_object *str_zfill(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("zfill", args, 2, 2) < 0) return NULL;
    int64_t w;
    if (get_int(ARG(1), &w, "") < 0) return NULL;
    size_t n = S_LEN;
    if (w <= (int64_t)n) return nn_retain(SELF);
    const char *s = S_CSTR;
    sbuf b = {0};
    size_t i = 0;
    if (n && (s[0] == '-' || s[0] == '+')) repl_sb_add(&b, s, 1), i = 1;
    repl_sb_fill(&b, '0', (size_t)(w - (int64_t)n));
    repl_sb_add(&b, s + i, n - i);
    return repl_sb_str(&b);
}

static nn_object *str_splitlines(void *ud, nn_object *args, nn_object *kwargs)
{
    const char *s = S_CSTR;
    size_t n = S_LEN, start = 0;
    nn_object *keepends = kwargs ? nn_dict_get_str(kwargs, "keepends") : NULL;
    if (NARGS > 1) keepends = ARG(1);
    bool keep = keepends && repl_truth(keepends) == 1;
    nn_object *l = nn_list_new(0);
    for (size_t i = 0; l && i < n; i++) {
        if (s[i] == '\n' || s[i] == '\r') {
            size_t e = i;
            if (s[i] == '\r' && i + 1 < n && s[i + 1] == '\n') i++;
            nn_object *p = nn_str_from(s + start, (keep ? i + 1 : e) - start);
            if (!p || nn_list_append(l, p) < 0) NN_SET(l, NULL);
            NN_RELEASE(p);
            start = i + 1;
        }
    }
    if (l && start < n) {
        nn_object *p = nn_str_from(s + start, n - start);
        if (!p || nn_list_append(l, p) < 0) NN_SET(l, NULL);
        NN_RELEASE(p);
    }
    return l;
}

static nn_object *str_partition(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("partition", args, 2, 2) < 0 || want_str(ARG(1), "partition") < 0) return NULL;
    const char *s = S_CSTR, *p = nn_str_len(ARG(1)) ? memmem(s, S_LEN, nn_str_cstr(ARG(1)), nn_str_len(ARG(1))) : NULL;
    if (!p) {
        nn_object *e = nn_str_new("");
        nn_object *t = e ? nn_tuple_pack(3, SELF, e, e) : NULL;
        NN_RELEASE(e);
        return t;
    }
    size_t a = (size_t)(p - s), m = nn_str_len(ARG(1));
    nn_object *x = nn_str_from(s, a), *y = nn_str_from(s + a + m, S_LEN - a - m);
    nn_object *t = x && y ? nn_tuple_pack(3, x, ARG(1), y) : NULL;
    NN_RELEASE(x);
    NN_RELEASE(y);
    return t;
}

static nn_object *str_removeprefix(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("removeprefix", args, 2, 2) < 0 || want_str(ARG(1), "removeprefix") < 0) return NULL;
    size_t m = nn_str_len(ARG(1));
    if (m <= S_LEN && memcmp(S_CSTR, nn_str_cstr(ARG(1)), m) == 0) return nn_str_from(S_CSTR + m, S_LEN - m);
    return nn_retain(SELF);
}

static nn_object *str_removesuffix(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("removesuffix", args, 2, 2) < 0 || want_str(ARG(1), "removesuffix") < 0) return NULL;
    size_t m = nn_str_len(ARG(1));
    if (m && m <= S_LEN && memcmp(S_CSTR + S_LEN - m, nn_str_cstr(ARG(1)), m) == 0) return nn_str_from(S_CSTR, S_LEN - m);
    return nn_retain(SELF);
}

/* ------------------------------------------------------------------ list methods */

static nn_object *list_append_m(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("list.append", args, 2, 2) < 0) return NULL;
    return nn_list_append(SELF, ARG(1)) < 0 ? NULL : none();
}

static nn_object *list_extend_m(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("list.extend", args, 2, 2) < 0) return NULL;
    nn_object *l = repl_to_list(ARG(1));
    if (!l) return NULL;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < nn_list_len(l); i++) rc = nn_list_append(SELF, nn_list_get(l, i));
    NN_RELEASE(l);
    return rc < 0 ? NULL : none();
}

static nn_object *list_insert_m(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("insert", args, 3, 3) < 0) return NULL;
    int64_t i, n = (int64_t)nn_list_len(SELF);
    if (get_int(ARG(1), &i, "") < 0) return NULL;
    if (i < 0) i = i + n < 0 ? 0 : i + n;
    if (i > n) i = n;
    return nn_list_insert(SELF, (size_t)i, ARG(2)) < 0 ? NULL : none();
}

static nn_object *list_pop_m(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("pop", args, 1, 2) < 0) return NULL;
    int64_t n = (int64_t)nn_list_len(SELF), i = n - 1;
    if (NARGS > 1 && get_int(ARG(1), &i, "") < 0) return NULL;
    if (n == 0) {
        repl_raise_exc(EXC_IndexError, "pop from empty list");
        return NULL;
    }
    if (i < 0) i += n;
    if (i < 0 || i >= n) {
        repl_raise_exc(EXC_IndexError, "pop index out of range");
        return NULL;
    }
    return nn_list_pop(SELF, (size_t)i);
}

static int64_t seq_find(nn_object *seq, nn_object *x)
{
    bool list = seq->type == &nn_list_type;
    size_t n = list ? nn_list_len(seq) : nn_tuple_len(seq);
    for (size_t i = 0; i < n; i++) {
        nn_object *y = list ? nn_list_get(seq, i) : nn_tuple_get(seq, i);
        int e = x == y ? 1 : repl_equal(x, y);
        if (e < 0) return -2;
        if (e) return (int64_t)i;
    }
    return -1;
}

static nn_object *list_remove_m(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("remove", args, 2, 2) < 0) return NULL;
    int64_t i = seq_find(SELF, ARG(1));
    if (i == -2) return NULL;
    if (i < 0) {
        repl_raise_exc(EXC_ValueError, "list.remove(x): x not in list");
        return NULL;
    }
    NN_RELEASE(nn_list_pop(SELF, (size_t)i));
    return none();
}

static nn_object *seq_index_m(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("index", args, 2, 2) < 0) return NULL;
    int64_t i = seq_find(SELF, ARG(1));
    if (i == -2) return NULL;
    if (i < 0) {
        if (SELF->type == &nn_list_type) {
            char *r = repl_obj_repr(ARG(1));
            repl_raise_exc(EXC_ValueError, "%s is not in list", r ? r : "?");
            nn_free(r);
        } else repl_raise_exc(EXC_ValueError, "tuple.index(x): x not in tuple");
        return NULL;
    }
    return nn_int_new(i);
}

static nn_object *seq_count_m(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("count", args, 2, 2) < 0) return NULL;
    bool list = SELF->type == &nn_list_type;
    size_t n = list ? nn_list_len(SELF) : nn_tuple_len(SELF);
    int64_t c = 0;
    for (size_t i = 0; i < n; i++) {
        int e = repl_equal(ARG(1), list ? nn_list_get(SELF, i) : nn_tuple_get(SELF, i));
        if (e < 0) return NULL;
        c += e;
    }
    return nn_int_new(c);
}

static nn_object *list_sort_m(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("sort", args, 1, 1) < 0) return NULL;
    nn_object *rev = kwarg(kwargs, "reverse");
    int r = rev ? repl_truth(rev) : 0;
    if (r < 0 || sort_list(SELF, kwarg(kwargs, "key"), r) < 0) return NULL;
    return none();
}

static nn_object *list_reverse_m(void *ud, nn_object *args, nn_object *kwargs)
{
    size_t n = nn_list_len(SELF);
    for (size_t i = 0; i < n / 2; i++) {
        nn_object *a = nn_retain(nn_list_get(SELF, i)), *b = nn_retain(nn_list_get(SELF, n - 1 - i));
        nn_list_set(SELF, i, b);
        nn_list_set(SELF, n - 1 - i, a);
    }
    return none();
}

static nn_object *list_copy_m(void *ud, nn_object *args, nn_object *kwargs) { return repl_to_list(SELF); }

static nn_object *list_clear_m(void *ud, nn_object *args, nn_object *kwargs)
{
    while (nn_list_len(SELF)) NN_RELEASE(nn_list_pop(SELF, nn_list_len(SELF) - 1));
    return none();
}

/* ------------------------------------------------------------------ dict methods */

/* Raises KeyError(key) (key borrowed); returns NULL. */
static nn_object *raise_key_error(nn_object *key)
{
    nn_object *a = nn_tuple_pack(1, key), *e = a ? repl_exc_new(EXC_KeyError, a) : NULL;
    if (e) repl_raise_object(e);
    NN_RELEASE(a);
    NN_RELEASE(e);
    return NULL;
}

static nn_object *dict_keys_m(void *ud, nn_object *args, nn_object *kwargs) { return dictview_new(SELF, 0); }
static nn_object *dict_values_m(void *ud, nn_object *args, nn_object *kwargs) { return dictview_new(SELF, 1); }
static nn_object *dict_items_m(void *ud, nn_object *args, nn_object *kwargs) { return dictview_new(SELF, 2); }

static nn_object *dict_get_m(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("get", args, 2, 3) < 0) return NULL;
    if (repl_obj_hash(ARG(1)) == -1 && nn_error_current()) return NULL;
    nn_object *v = nn_dict_get(SELF, ARG(1));
    if (v) return nn_retain(v);
    if (nn_error_current()) return NULL;
    return nn_retain(NARGS > 2 ? ARG(2) : nn_none());
}

static nn_object *dict_pop_m(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("pop", args, 2, 3) < 0) return NULL;
    if (repl_obj_hash(ARG(1)) == -1 && nn_error_current()) return NULL;
    nn_object *v = nn_dict_get(SELF, ARG(1));
    if (!v) {
        if (nn_error_current()) return NULL;
        if (NARGS > 2) return nn_retain(ARG(2));
        return raise_key_error(ARG(1));
    }
    nn_retain(v);
    if (nn_dict_del(SELF, ARG(1)) < 0) {
        NN_RELEASE(v);
        return NULL;
    }
    return v;
}

/* Removes and returns the last (key, value) pair, or the first when !last. */
static nn_object *pop_item(nn_object *d, bool last, const char *empty_message)
{
    size_t pos = 0;
    nn_object *k, *v, *pk = NULL, *pv = NULL;
    while (nn_dict_next(d, &pos, &k, &v) && (last || !pk)) pk = k, pv = v;
    if (!pk) {
        repl_raise_exc(EXC_KeyError, "%s", empty_message);
        return NULL;
    }
    nn_object *t = nn_tuple_pack(2, pk, pv);
    if (t && nn_dict_del(d, pk) < 0) NN_SET(t, NULL);
    return t;
}

static nn_object *dict_popitem_m(void *ud, nn_object *args, nn_object *kwargs)
{
    return pop_item(SELF, true, "popitem(): dictionary is empty");
}

static nn_object *dict_setdefault_m(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("setdefault", args, 2, 3) < 0) return NULL;
    if (repl_obj_hash(ARG(1)) == -1 && nn_error_current()) return NULL;
    nn_object *v = nn_dict_get(SELF, ARG(1));
    if (v) return nn_retain(v);
    nn_object *d = NARGS > 2 ? ARG(2) : nn_none();
    if (nn_dict_set(SELF, ARG(1), d) < 0) return NULL;
    return nn_retain(d);
}

static nn_object *dict_update_m(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("update", args, 1, 2) < 0) return NULL;
    if ((NARGS > 1 && dict_update(SELF, ARG(1)) < 0) || (kwargs && dict_update(SELF, kwargs) < 0)) return NULL;
    return none();
}

static nn_object *dict_copy_m(void *ud, nn_object *args, nn_object *kwargs) { return nn_dict_copy(SELF); }

static nn_object *dict_clear_m(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_dict_clear(SELF);
    return none();
}

/* ------------------------------------------------------------------ OrderedDict methods */

/* The arguments after self of an OrderedDict method taking up to n, by position
   or by name (names[i]): out[i] borrowed, NULL when not given. 0, or -1 with
   CPython's TypeError. */
static int odict_args(const char *fname, nn_object *args, nn_object *kwargs, const char *const *names, int n,
                      nn_object **out)
{
    int given = NARGS - 1 + (kwargs ? (int)nn_dict_len(kwargs) : 0), by_name = 0;
    if (given > n)
        return repl_raise_exc(EXC_TypeError, "%s() takes at most %d argument%s (%d given)", fname, n, n == 1 ? "" : "s", given);
    for (int i = 0; i < n; i++) {
        nn_object *kw = kwarg(kwargs, names[i]);
        out[i] = i < NARGS - 1 ? ARG(i + 1) : kw;
        by_name += kw != NULL;
    }
    size_t pos = 0;
    nn_object *k;
    while (kwargs && (size_t)by_name < nn_dict_len(kwargs) && nn_dict_next(kwargs, &pos, &k, NULL)) {
        bool known = false;
        for (int i = 0; i < n; i++) known |= nn_is_str(k) && !strcmp(nn_str_cstr(k), names[i]);
        if (!known) return repl_raise_exc(EXC_TypeError, "'%s' is an invalid keyword argument for %s()", nn_str_cstr(k), fname);
    }
    return 0;
}

/* The truth of an optional `last` argument (default True) into *last. 0 or -1. */
static int last_value(nn_object *given, bool *last)
{
    int t = given ? repl_truth(given) : 1;
    if (t < 0) return -1;
    *last = t;
    return 0;
}

static nn_object *odict_popitem_m(void *ud, nn_object *args, nn_object *kwargs)
{
    static const char *const names[] = {"last"};
    nn_object *a[1] = {0};
    bool last;
    if (odict_args("popitem", args, kwargs, names, 1, a) < 0 || last_value(a[0], &last) < 0) return NULL;
    return pop_item(SELF, last, "dictionary is empty");
}

static nn_object *odict_move_to_end_m(void *ud, nn_object *args, nn_object *kwargs)
{
    static const char *const names[] = {"key", "last"};
    nn_object *a[2] = {0};
    bool last;
    if (odict_args("move_to_end", args, kwargs, names, 2, a) < 0) return NULL;
    if (!a[0]) {
        repl_raise_exc(EXC_TypeError, "move_to_end() missing required argument 'key' (pos 1)");
        return NULL;
    }
    if (last_value(a[1], &last) < 0 || (repl_obj_hash(a[0]) == -1 && nn_error_current())) return NULL;
    if (!nn_dict_get(SELF, a[0])) return nn_error_current() ? NULL : raise_key_error(a[0]);
    return nn_dict_move_to_end(SELF, a[0], last) < 0 ? NULL : none();
}

/* ------------------------------------------------------------------ set methods */

#define SET_D(o) (((set_obj *)(o))->d)

static nn_object *set_add_m(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs_check("add", args, 2, 2) < 0) return NULL;
    return repl_set_add(SELF, ARG(1)) < 0 ? NULL : none();
}

static nn_object *set_remove_impl(nn_object *args, bool must)
{
    if (nargs_check(must ? "remove" : "discard", args, 2, 2) < 0) return NULL;
    if (repl_obj_hash(ARG(1)) == -1 && nn_error_current()) return NULL;
    if (!nn_dict_get(SET_D(SELF), ARG(1))) {
        if (!must) return none();
        return raise_key_error(ARG(1));
    }
    return repl_set_discard(SELF, ARG(1)) < 0 ? NULL : none();
}
static nn_object *set_remove_m(void *ud, nn_object *args, nn_object *kwargs) { return set_remove_impl(args, true); }
static nn_object *set_discard_m(void *ud, nn_object *args, nn_object *kwargs) { return set_remove_impl(args, false); }

static nn_object *set_pop_m(void *ud, nn_object *args, nn_object *kwargs)
{
    return repl_set_pop(SELF);
}

/* The set methods as CPython's setobject.c makes their tables (set_order.c): a set
   argument through the operators' tables, any other iterable item by item. */

/* set_copy: s's elements in a new set (frozen or not) with s's layout */
static nn_object *set_copy_of(nn_object *s, bool frozen)
{
    nn_object *r = repl_set_new(frozen), *k, *v;
    size_t pos = 0;
    while (r && nn_dict_next(SET_D(s), &pos, &k, &v))
        if (repl_set_add(r, k) < 0) NN_SET(r, NULL);
    if (r) repl_set_adopt_table(r, repl_set_op_table(REPL_OR_BITS, s, NULL, false));
    return r;
}

/* set_update_internal: other's elements added to s; a set's merged into s's table */
static int set_update_from(nn_object *s, nn_object *other)
{
    if (other == s) return 0;
    repl_set_table *t = other->type == &repl_set_type ? repl_set_op_table(REPL_OR_BITS, s, other, true) : NULL;
    nn_object *items = repl_to_list(other);
    int rc = items ? 0 : -1;
    for (size_t k = 0; rc == 0 && k < nn_list_len(items); k++) rc = repl_set_add(s, nn_list_get(items, k));
    NN_RELEASE(items);
    if (t) repl_set_adopt_table(s, t); /* or freed when it no longer fits */
    return rc;
}

/* set_difference_update_internal: other's elements removed from s, then its dummies
   resized away when more than a quarter of its table */
static int set_discard_all(nn_object *s, nn_object *other)
{
    repl_set_table *t = other->type == &repl_set_type ? repl_set_op_table(REPL_SUB, s, other, true) : NULL;
    nn_object *items = repl_to_list(other);
    int rc = items ? 0 : -1;
    for (size_t k = 0; rc == 0 && k < nn_list_len(items); k++) {
        nn_object *item = nn_list_get(items, k);
        if (nn_dict_get(SET_D(s), item)) rc = repl_set_discard(s, item);
        else if (nn_error_current()) rc = -1;
    }
    NN_RELEASE(items);
    if (t) repl_set_adopt_table(s, t);
    else if (rc == 0) repl_set_compact(s);
    return rc;
}

/* set_intersection: with a set, as s & other; else other's elements that s holds, added in other's order */
static nn_object *set_intersect(nn_object *s, nn_object *other)
{
    if (other->type == &repl_set_type) return repl_binary_op(REPL_AND_BITS, s, other);
    nn_object *items = repl_to_list(other), *r = items ? repl_set_new(((set_obj *)s)->frozen) : NULL;
    for (size_t k = 0; r && k < nn_list_len(items); k++) {
        nn_object *item = nn_list_get(items, k);
        if (nn_dict_get(SET_D(s), item) ? repl_set_add(r, item) < 0 : nn_error_current()) NN_SET(r, NULL);
    }
    NN_RELEASE(items);
    return r;
}

static nn_object *set_copy_m(void *ud, nn_object *args, nn_object *kwargs) { return set_copy_of(SELF, ((set_obj *)SELF)->frozen); }

static nn_object *set_union_m(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *r = set_copy_of(SELF, ((set_obj *)SELF)->frozen);
    for (int i = 1; r && i < NARGS; i++)
        if (ARG(i) != SELF && set_update_from(r, ARG(i)) < 0) NN_SET(r, NULL);
    return r;
}

static nn_object *set_inter_m(void *ud, nn_object *args, nn_object *kwargs)
{
    if (NARGS == 1) return set_copy_of(SELF, ((set_obj *)SELF)->frozen);
    nn_object *r = nn_retain(SELF);
    for (int i = 1; r && i < NARGS; i++) NN_SET(r, set_intersect(r, ARG(i)));
    return r;
}

static nn_object *set_diff_m(void *ud, nn_object *args, nn_object *kwargs)
{
    if (NARGS > 1 && ARG(1)->type == &repl_set_type) {
        nn_object *r = repl_binary_op(REPL_SUB, SELF, ARG(1));
        for (int i = 2; r && i < NARGS; i++)
            if (set_discard_all(r, ARG(i)) < 0) NN_SET(r, NULL);
        return r;
    }
    nn_object *r = set_copy_of(SELF, ((set_obj *)SELF)->frozen); /* set_copy_and_difference */
    for (int i = 1; r && i < NARGS; i++)
        if (set_discard_all(r, ARG(i)) < 0) NN_SET(r, NULL);
    return r;
}

static nn_object *set_symdiff_m(void *ud, nn_object *args, nn_object *kwargs)
{
    if (NARGS != 2)
        return repl_raise_exc(EXC_TypeError, "%s.symmetric_difference() takes exactly one argument (%d given)",
                              ((set_obj *)SELF)->frozen ? "frozenset" : "set", NARGS - 1),
               NULL;
    if (ARG(1)->type == &repl_set_type) return repl_binary_op(REPL_XOR_BITS, SELF, ARG(1));
    /* a new set of other's elements, then s's removed from it or added to it */
    nn_object *a = nn_tuple_pack(1, ARG(1)), *r = a ? make_set(a, false) : NULL;
    NN_RELEASE(a);
    nn_object *done = r ? repl_inplace_builtin(REPL_XOR_BITS, r, SELF) : NULL;
    if (!done) NN_SET(r, NULL);
    NN_RELEASE(done);
    if (r) ((set_obj *)r)->frozen = ((set_obj *)SELF)->frozen;
    return r;
}

/* s.update(*others) */
static nn_object *set_update_m(void *ud, nn_object *args, nn_object *kwargs)
{
    for (int i = 1; i < NARGS; i++)
        if (set_update_from(SELF, ARG(i)) < 0) return NULL;
    return none();
}

static nn_object *set_clear_m(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_dict_clear(SET_D(SELF));
    return none();
}

static nn_object *set_sub_impl(nn_object *args, bool super)
{
    if (nargs_check(super ? "issuperset" : "issubset", args, 2, 2) < 0) return NULL;
    nn_object *a = nn_tuple_pack(1, ARG(1)), *other = a ? make_set(a, false) : NULL;
    NN_RELEASE(a);
    if (!other) return NULL;
    nn_object *r = super ? repl_binary_op(REPL_GE, SELF, other) : repl_binary_op(REPL_LE, SELF, other);
    NN_RELEASE(other);
    return r;
}
static nn_object *set_issubset_m(void *ud, nn_object *args, nn_object *kwargs) { return set_sub_impl(args, false); }
static nn_object *set_issuperset_m(void *ud, nn_object *args, nn_object *kwargs) { return set_sub_impl(args, true); }

/* ------------------------------------------------------------------ number methods */

static nn_object *float_is_integer_m(void *ud, nn_object *args, nn_object *kwargs)
{
    double v = nn_float_value(SELF);
    return nn_bool_new(isfinite(v) && v == floor(v));
}

static nn_object *int_bit_length_m(void *ud, nn_object *args, nn_object *kwargs)
{
    return nn_int_new(repl_int_bit_length(SELF));
}

/* ------------------------------------------------------------------ tables */

typedef struct bi_def {
    const char *name;
    nn_cfunc fn;
    const char *doc;
} bi_def;

static const bi_def builtin_functions[] = {
    {"print", bi_print, "print(*values, sep=' ', end='\\n', file=None, flush=False)\nPrints the values to sys.stdout (or file), separated by sep and followed by end; flush: flush the stream."},
    {"len", bi_len, "len(obj, /)\nReturn the number of items in a container."},
    {"repr", bi_repr, "repr(obj, /)\nReturn the canonical string representation of the object."},
    {"ascii", repl_bi_ascii, "ascii(obj, /)\nReturn an ASCII-only representation of an object.\n\n"
                             "As repr(), return a string containing a printable representation of an\n"
                             "object, but escape the non-ASCII characters in the string returned by\n"
                             "repr() using \\\\x, \\\\u or \\\\U escapes."},
    {"delattr", repl_bi_delattr, "delattr(obj, name, /)\nDeletes the named attribute from the given object.\n\n"
                                 "delattr(x, 'y') is equivalent to ``del x.y``"},
    {"vars", repl_bi_vars, "vars([object]) -> dictionary\nWithout arguments, equivalent to locals().\n"
                           "With an argument, equivalent to object.__dict__."},
    {"__import__", repl_bi_import, "__import__(name, globals=None, locals=None, fromlist=(), level=0) -> module\n"
                                   "Import a module: the top-level package, or the module itself when fromlist is given."},
    {"hex", repl_bi_hex, "hex(number, /)\nReturn the hexadecimal representation of an integer.\n\n   >>> hex(12648430)\n   '0xc0ffee'"},
    {"oct", repl_bi_oct, "oct(number, /)\nReturn the octal representation of an integer.\n\n   >>> oct(342391)\n   '0o1234567'"},
    {"bin", repl_bi_bin, "bin(number, /)\nReturn the binary representation of an integer.\n\n   >>> bin(2796202)\n   '0b1010101010101010101010'"},
    {"abs", bi_abs, "abs(x, /)\nReturn the absolute value of the argument."},
    {"min", bi_min, "min(iterable, *[, default=obj, key=func]) -> value\nWith a single iterable argument, return its smallest item."},
    {"max", bi_max, "max(iterable, *[, default=obj, key=func]) -> value\nWith a single iterable argument, return its biggest item."},
    {"sum", bi_sum, "sum(iterable, /, start=0)\nReturn the sum of a 'start' value (default: 0) plus an iterable of numbers."},
    {"round", bi_round, "round(number, ndigits=None)\nRound a number to a given precision in decimal digits (ties to even)."},
    {"sorted", bi_sorted, "sorted(iterable, /, *, key=None, reverse=False)\nReturn a new list containing all items from the iterable in ascending order."},
    {"any", bi_any, "any(iterable, /)\nReturn True if bool(x) is True for any x in the iterable."},
    {"all", bi_all, "all(iterable, /)\nReturn True if bool(x) is True for all values x in the iterable."},
    {"input", bi_input, "input(prompt='', /)\nRead a string from standard input.  The trailing newline is stripped."},
    {"memoryview", bi_memoryview, "memoryview(object)\nCreate a new memoryview object which references the given object."},
    {"isinstance", bi_isinstance, "isinstance(obj, class_or_tuple, /)\nReturn whether an object is an instance of a class or of a subclass thereof."},
    {"issubclass", bi_issubclass, "issubclass(cls, class_or_tuple, /)\nReturn whether 'cls' is derived from another class or is the same class."},
    {"getattr", bi_getattr, "getattr(object, name[, default]) -> value\nGet a named attribute from an object; getattr(x, 'y') is equivalent to x.y."},
    {"hasattr", bi_hasattr, "hasattr(obj, name, /)\nReturn whether the object has an attribute with the given name."},
    {"setattr", bi_setattr, "setattr(obj, name, value, /)\nSets the named attribute on the given object to the specified value."},
    {"iter", bi_iter, "iter(iterable) -> iterator\nGet an iterator from an object."},
    {"next", repl_bi_next, "next(iterator[, default])\nReturn the next item from the iterator."},
    {"dir", bi_dir, "dir([object]) -> list of strings\nThe sorted names of the object's attributes, or of the current scope without an argument."},
    {"id", bi_id, "id(obj, /)\nReturn the identity of an object."},
    {"hash", bi_hash, "hash(obj, /)\nReturn the hash value for the given object."},
    {"callable", bi_callable, "callable(obj, /)\nReturn whether the object is callable (i.e., some kind of function)."},
    {"divmod", bi_divmod, "divmod(x, y, /)\nReturn the tuple (x//y, x%y)."},
    {"pow", bi_pow, "pow(base, exp, mod=None)\nEquivalent to base**exp with 2 arguments or base**exp % mod with 3 arguments."},
    {"chr", bi_chr, "chr(i, /)\nReturn a Unicode string of one character with ordinal i; 0 <= i <= 0x10ffff."},
    {"ord", bi_ord, "ord(c, /)\nReturn the Unicode code point for a one-character string."},
    {"open", repl_bi_open, "open(file, mode='r', buffering=-1, encoding=None, errors=None, newline=None, closefd=True, opener=None)\nOpen file and return a stream (text files: io.TextIOWrapper)."},
    {"format", bi_format, "format(value, format_spec='', /)\nReturn value.__format__(format_spec)."},
    {"help", bi_help, "help(obj)\nPrints the documentation of an object: its signature and docstring (a str names an object)."},
    {"locals", bi_locals, "locals(/)\nReturn a dictionary containing the current scope's local variables."},
    {"globals", bi_globals, "globals(/)\nReturn the dictionary containing the current scope's global variables."},
    {"plot", repl_builtin_plot, "plot(f, lo=-3, hi=3, grad=False, width=72, height=20, color=None)\nDraws f (a module such as "
     "nn.GELU(), a function of a tensor, or a list of them) on [lo, hi] in the terminal with braille dots and labelled "
     "axes; grad=True adds each derivative, computed by autograd, in a second color."},
    {"summary", repl_builtin_summary, "summary(model, input_size, depth=3)\nPrints torchinfo's table of model: each "
     "layer's output shape and parameter count from one forward on zeros of input_size, with totals."},
};

/* A method of a built-in type, with its doc in bound form (no self): Python's
   text signature and the first line of Python's docstring. */
typedef struct method_def {
    const char *name;
    nn_cfunc fn;
    const char *doc;
} method_def;

static const method_def str_methods[] = {
    {"format", str_format_m, "format(*args, **kwargs)\nReturn a formatted version of S, using substitutions from args and kwargs."},
    {"format_map", str_format_map_m, "format_map(mapping, /)\nReturn a formatted version of S, using substitutions from mapping."},
    {"join", str_join, "join(iterable, /)\nConcatenate any number of strings."},
    {"split", str_split, "split(sep=None, maxsplit=-1)\nReturn a list of the substrings in the string, using sep as the separator string."},
    {"rsplit", str_rsplit, "rsplit(sep=None, maxsplit=-1)\nReturn a list of the substrings in the string, using sep as the separator string."},
    {"strip", str_strip, "strip(chars=None, /)\nReturn a copy of the string with leading and trailing whitespace removed."},
    {"lstrip", str_lstrip, "lstrip(chars=None, /)\nReturn a copy of the string with leading whitespace removed."},
    {"rstrip", str_rstrip, "rstrip(chars=None, /)\nReturn a copy of the string with trailing whitespace removed."},
    {"startswith", str_startswith, "startswith(prefix[, start[, end]]) -> bool\nReturn True if S starts with the specified prefix, False otherwise."},
    {"endswith", str_endswith, "endswith(suffix[, start[, end]]) -> bool\nReturn True if S ends with the specified suffix, False otherwise."},
    {"replace", str_replace, "replace(old, new, count=-1, /)\nReturn a copy with all occurrences of substring old replaced by new."},
    {"upper", str_upper, "upper()\nReturn a copy of the string converted to uppercase."},
    {"lower", str_lower, "lower()\nReturn a copy of the string converted to lowercase."},
    {"capitalize", str_capitalize, "capitalize()\nReturn a capitalized version of the string."},
    {"title", str_title, "title()\nReturn a version of the string where each word is titlecased."},
    {"casefold", str_casefold, "casefold()\nReturn a version of the string suitable for caseless comparisons."},
    {"swapcase", str_swapcase, "swapcase()\nConvert uppercase characters to lowercase and lowercase characters to uppercase."},
    {"find", str_find, "find(sub[, start[, end]]) -> int\nReturn the lowest index in S where substring sub is found, -1 on failure."},
    {"rfind", str_rfind, "rfind(sub[, start[, end]]) -> int\nReturn the highest index in S where substring sub is found, -1 on failure."},
    {"index", str_index, "index(sub[, start[, end]]) -> int\nReturn the lowest index in S where substring sub is found; ValueError when it is not."},
    {"rindex", str_rindex, "rindex(sub[, start[, end]]) -> int\nReturn the highest index in S where substring sub is found; ValueError when it is not."},
    {"count", str_count, "count(sub[, start[, end]]) -> int\nReturn the number of non-overlapping occurrences of substring sub in string S[start:end]."},
    {"isdigit", str_isdigit, "isdigit()\nReturn True if the string is a digit string, False otherwise."},
    {"isnumeric", str_isnumeric, "isnumeric()\nReturn True if the string is a numeric string, False otherwise."},
    {"isdecimal", str_isdecimal, "isdecimal()\nReturn True if the string is a decimal string, False otherwise."},
    {"istitle", str_istitle, "istitle()\nReturn True if the string is a title-cased string, False otherwise."},
    {"isascii", str_isascii, "isascii()\nReturn True if all characters in the string are ASCII, False otherwise."},
    {"isprintable", str_isprintable, "isprintable()\nReturn True if the string is printable, False otherwise."},
    {"isidentifier", str_isidentifier, "isidentifier()\nReturn True if the string is a valid Python identifier, False otherwise."},
    {"isalpha", str_isalpha, "isalpha()\nReturn True if the string is an alphabetic string, False otherwise."},
    {"isalnum", str_isalnum, "isalnum()\nReturn True if the string is an alpha-numeric string, False otherwise."},
    {"isspace", str_isspace, "isspace()\nReturn True if the string is a whitespace string, False otherwise."},
    {"isupper", str_isupper, "isupper()\nReturn True if the string is an uppercase string, False otherwise."},
    {"islower", str_islower, "islower()\nReturn True if the string is a lowercase string, False otherwise."},
    {"ljust", str_ljust, "ljust(width, fillchar=' ', /)\nReturn a left-justified string of length width."},
    {"rjust", str_rjust, "rjust(width, fillchar=' ', /)\nReturn a right-justified string of length width."},
    {"center", str_center, "center(width, fillchar=' ', /)\nReturn a centered string of length width."},
    {"zfill", str_zfill, "zfill(width, /)\nPad a numeric string with zeros on the left, to fill a field of the given width."},
    {"splitlines", str_splitlines, "splitlines(keepends=False)\nReturn a list of the lines in the string, breaking at line boundaries."},
    {"partition", str_partition, "partition(sep, /)\nPartition the string into three parts using the given separator."},
    {"removeprefix", str_removeprefix, "removeprefix(prefix, /)\nReturn a str with the given prefix string removed if present."},
    {"removesuffix", str_removesuffix, "removesuffix(suffix, /)\nReturn a str with the given suffix string removed if present."},
    {NULL, NULL, NULL}};
static const method_def list_methods[] = {
    {"append", list_append_m, "append(object, /)\nAppend object to the end of the list."},
    {"extend", list_extend_m, "extend(iterable, /)\nExtend list by appending elements from the iterable."},
    {"insert", list_insert_m, "insert(index, object, /)\nInsert object before index."},
    {"pop", list_pop_m, "pop(index=-1, /)\nRemove and return item at index (default last)."},
    {"remove", list_remove_m, "remove(value, /)\nRemove first occurrence of value."},
    {"index", seq_index_m, "index(value, start=0, stop=sys.maxsize, /)\nReturn first index of value."},
    {"count", seq_count_m, "count(value, /)\nReturn number of occurrences of value."},
    {"sort", list_sort_m, "sort(*, key=None, reverse=False)\nSort the list in ascending order and return None."},
    {"reverse", list_reverse_m, "reverse()\nReverse *IN PLACE*."},
    {"copy", list_copy_m, "copy()\nReturn a shallow copy of the list."},
    {"clear", list_clear_m, "clear()\nRemove all items from list."},
    {NULL, NULL, NULL}};
static const method_def tuple_methods[] = {
    {"index", seq_index_m, "index(value, start=0, stop=sys.maxsize, /)\nReturn first index of value."},
    {"count", seq_count_m, "count(value, /)\nReturn number of occurrences of value."},
    {NULL, NULL, NULL}};
static const method_def dict_methods[] = {
    {"keys", dict_keys_m, "keys()\nA set-like object providing a view on D's keys."},
    {"values", dict_values_m, "values()\nAn object providing a view on D's values."},
    {"items", dict_items_m, "items()\nA set-like object providing a view on D's items."},
    {"get", dict_get_m, "get(key, default=None, /)\nReturn the value for key if key is in the dictionary, else default."},
    {"pop", dict_pop_m, "pop(key[, default])\nRemove the specified key and return the corresponding value (default, or KeyError, when missing)."},
    {"popitem", dict_popitem_m, "popitem()\nRemove and return a (key, value) pair as a 2-tuple."},
    {"setdefault", dict_setdefault_m, "setdefault(key, default=None, /)\nInsert key with a value of default if key is not in the dictionary."},
    {"update", dict_update_m, "update([E, ]**F)\nUpdate D from dict/iterable E and F."},
    {"copy", dict_copy_m, "copy()\nA shallow copy of D."},
    {"clear", dict_clear_m, "clear()\nRemove all items from D."},
    {NULL, NULL, NULL}};
/* OrderedDict's own methods; the rest are dict's. */
static const method_def odict_methods[] = {
    {"move_to_end", odict_move_to_end_m, "move_to_end(key, last=True)\nMove an existing element to the end (or beginning if last is false)."},
    {"popitem", odict_popitem_m, "popitem(last=True)\nRemove and return a (key, value) pair from the dictionary (LIFO order if last is true, else FIFO)."},
    {NULL, NULL, NULL}};
static const method_def set_methods[] = {
    {"add", set_add_m, "add(element, /)\nAdd an element to a set."},
    {"remove", set_remove_m, "remove(element, /)\nRemove an element from a set; it must be a member."},
    {"discard", set_discard_m, "discard(element, /)\nRemove an element from a set if it is a member."},
    {"pop", set_pop_m, "pop()\nRemove and return an arbitrary set element."},
    {"union", set_union_m, "union(*others)\nReturn the union of sets as a new set."},
    {"intersection", set_inter_m, "intersection(*others)\nReturn the intersection of two sets as a new set."},
    {"difference", set_diff_m, "difference(*others)\nReturn the difference of two or more sets as a new set."},
    {"symmetric_difference", set_symdiff_m, "symmetric_difference(other, /)\nReturn the symmetric difference of two sets as a new set."},
    {"update", set_update_m, "update(*others)\nUpdate a set with the union of itself and others."},
    {"copy", set_copy_m, "copy()\nReturn a shallow copy of a set."},
    {"clear", set_clear_m, "clear()\nRemove all elements from this set."},
    {"issubset", set_issubset_m, "issubset(other, /)\nReport whether another set contains this set."},
    {"issuperset", set_issuperset_m, "issuperset(other, /)\nReport whether this set contains another set."},
    {NULL, NULL, NULL}};
static const method_def object_methods[] = {
    {"__new__", object_new, "__new__(type, *args, **kwargs)\nCreate and return a new object."},
    {NULL, NULL, NULL}};
static const method_def float_methods[] = {
    {"is_integer", float_is_integer_m, "is_integer()\nReturn True if the float is an integer."},
    {NULL, NULL, NULL}};
#define DESC_GET {"__get__", repl_desc_get, "__get__(instance, owner=None, /)\nReturn an attribute of instance, which is of type owner."}
static const method_def property_methods[] = {
    {"getter", repl_property_getter, "getter(...)\nDescriptor to obtain a copy of the property with a different getter."},
    {"setter", repl_property_setter, "setter(...)\nDescriptor to obtain a copy of the property with a different setter."},
    {"deleter", repl_property_deleter, "deleter(...)\nDescriptor to obtain a copy of the property with a different deleter."},
    DESC_GET,
    {"__set__", repl_property_set, "__set__(instance, value, /)\nSet an attribute of instance to value."},
    {"__delete__", repl_property_delete, "__delete__(instance, /)\nDelete an attribute of instance."},
    {NULL, NULL, NULL}};
static const method_def wrapper_methods[] = {DESC_GET, {NULL, NULL, NULL}}; /* staticmethod's, classmethod's */
#undef DESC_GET
static const method_def slice_methods[] = {
    {"indices", slice_indices_m, "indices(...)\nS.indices(len) -> (start, stop, stride)"},
    {NULL, NULL, NULL}};
static const method_def int_methods[] = {
    {"bit_length", int_bit_length_m, "bit_length()\nNumber of bits necessary to represent self in binary."},
    {NULL, NULL, NULL}};

/* The built-in types: the interpreter's slot for the class, its constructor,
   methods and doc (its constructor's signature and Python's first line). */
typedef struct builtin_type {
    const char *name;
    size_t slot; /* offsetof(repl_interp, int_cls) */
    const nn_type *type;
    nn_cfunc ctor;
    const method_def *methods;
    const char *doc;
    /* a type of another module, not a built-in name: its module ("collections")
       and base type ("dict"); NULL for builtins */
    const char *module, *base;
} builtin_type;

#define SLOT(field) offsetof(repl_interp, field)
static const builtin_type builtin_types[] = {
    {"object", SLOT(object_cls), &repl_instance_type, ctor_object, object_methods,
     "object()\nThe base class of the class hierarchy.", NULL, NULL},
    {"type", SLOT(type_cls), &repl_class_type, ctor_type, NULL,
     "type(object)\nThe object's type (with one argument).", NULL, NULL},
    {"int", SLOT(int_cls), &nn_int_type, ctor_int, int_methods,
     "int([x]) -> integer\nConvert a number or string to an integer, or return 0 if no arguments are given.", NULL, NULL},
    {"float", SLOT(float_cls), &nn_float_type, ctor_float, float_methods,
     "float(x=0, /)\nConvert a string or number to a floating point number, if possible.", NULL, NULL},
    {"str", SLOT(str_cls), &nn_str_type, ctor_str, str_methods,
     "str(object='') -> str\nCreate a new string object from the given object.", NULL, NULL},
    {"bool", SLOT(bool_cls), &nn_bool_type, ctor_bool, NULL,
     "bool(x) -> bool\nReturns True when the argument x is true, False otherwise.", NULL, NULL},
    {"list", SLOT(list_cls), &nn_list_type, ctor_list, list_methods,
     "list(iterable=(), /)\nBuilt-in mutable sequence.", NULL, NULL},
    {"tuple", SLOT(tuple_cls), &nn_tuple_type, ctor_tuple, tuple_methods,
     "tuple(iterable=(), /)\nBuilt-in immutable sequence.", NULL, NULL},
    {"dict", SLOT(dict_cls), &nn_dict_type, ctor_dict, dict_methods,
     "dict(mapping_or_iterable=(), /, **kwargs)\nA new dictionary initialized from a mapping or (key, value) pairs and the keyword arguments.", NULL, NULL},
    {"OrderedDict", SLOT(odict_cls), &nn_dict_type, ctor_dict, odict_methods,
     "OrderedDict(mapping_or_iterable=(), /, **kwargs)\nDictionary that remembers insertion order: == between two of them compares the order too.",
     "collections", "dict"},
    {"set", SLOT(set_cls), &repl_set_type, ctor_set, set_methods,
     "set(iterable=(), /)\nBuild an unordered collection of unique elements.", NULL, NULL},
    {"frozenset", SLOT(frozenset_cls), &repl_set_type, ctor_frozenset, set_methods,
     "frozenset(iterable=(), /)\nBuild an immutable unordered collection of unique elements.", NULL, NULL},
    {"range", SLOT(range_cls), &repl_range_type, ctor_range, NULL,
     "range(start, stop[, step])\nAn object that produces a sequence of integers from start (inclusive) to stop (exclusive) by step.", NULL, NULL},
    {"slice", SLOT(slice_cls), &repl_slice_type, ctor_slice, slice_methods,
     "slice(start, stop[, step])\nCreate a slice object, used for extended slicing (e.g. a[0:10:2]).", NULL, NULL},
    {"enumerate", SLOT(enumerate_cls), &repl_enumerate_type, repl_bi_enumerate, NULL,
     "enumerate(iterable, start=0)\nReturn an enumerate object: pairs of a count (from start) and a value yielded by the iterable.", NULL, NULL},
    {"zip", SLOT(zip_cls), &repl_zip_type, repl_bi_zip, NULL,
     "zip(*iterables)\nYield tuples of the i-th items of the iterables until an input is exhausted.", NULL, NULL},
    {"map", SLOT(map_cls), &repl_map_type, repl_bi_map, NULL,
     "map(func, *iterables)\nMake an iterator that computes the function using arguments from each of the iterables.", NULL, NULL},
    {"filter", SLOT(filter_cls), &repl_filter_type, repl_bi_filter, NULL,
     "filter(function or None, iterable)\nReturn an iterator yielding those items of iterable for which function(item) is true.", NULL, NULL},
    {"reversed", SLOT(reversed_cls), &repl_reversed_type, repl_bi_reversed, NULL,
     "reversed(sequence, /)\nReturn a reverse iterator over the values of the given sequence.", NULL, NULL},
    {"super", SLOT(super_cls), &repl_super_type, bi_super, NULL,
     "super() -> same as super(__class__, <first argument>)\nThe parent class's attributes, bound to the current instance.", NULL, NULL},
    {"property", SLOT(property_cls), &repl_desc_type, repl_ctor_property, property_methods,
     "property(fget=None, fset=None, fdel=None, doc=None)\nProperty attribute.", NULL, NULL},
    {"staticmethod", SLOT(staticmethod_cls), &repl_desc_type, repl_ctor_staticmethod, wrapper_methods,
     "staticmethod(function) -> method\nConvert a function to be a static method.", NULL, NULL},
    {"classmethod", SLOT(classmethod_cls), &repl_desc_type, repl_ctor_classmethod, wrapper_methods,
     "classmethod(function) -> method\nConvert a function to be a class method.", NULL, NULL},
};
#undef SLOT

static class_obj **type_slot(repl_interp *in, const builtin_type *bt) { return (class_obj **)((char *)in + bt->slot); }

/* The built-in exceptions' docs: the constructor and Python's docstring. */
static const char *const exception_docs[EXC_COUNT] = {
    [EXC_BaseException] = "BaseException(*args)\n" "Common base class for all exceptions",
    [EXC_Exception] = "Exception(*args)\n" "Common base class for all non-exit exceptions.",
    [EXC_ArithmeticError] = "ArithmeticError(*args)\n" "Base class for arithmetic errors.",
    [EXC_ZeroDivisionError] = "ZeroDivisionError(*args)\n" "Second argument to a division or modulo operation was zero.",
    [EXC_OverflowError] = "OverflowError(*args)\n" "Result too large to be represented.",
    [EXC_LookupError] = "LookupError(*args)\n" "Base class for lookup errors.",
    [EXC_IndexError] = "IndexError(*args)\n" "Sequence index out of range.",
    [EXC_KeyError] = "KeyError(*args)\n" "Mapping key not found.",
    [EXC_RuntimeError] = "RuntimeError(*args)\n" "Unspecified run-time error.",
    [EXC_NotImplementedError] = "NotImplementedError(*args)\n" "Method or function hasn't been implemented yet.",
    [EXC_RecursionError] = "RecursionError(*args)\n" "Recursion limit exceeded.",
    [EXC_ValueError] = "ValueError(*args)\n" "Inappropriate argument value (of correct type).",
    [EXC_TypeError] = "TypeError(*args)\n" "Inappropriate argument type.",
    [EXC_AttributeError] = "AttributeError(*args)\n" "Attribute not found.",
    [EXC_NameError] = "NameError(*args)\n" "Name not found globally.",
    [EXC_UnboundLocalError] = "UnboundLocalError(*args)\n" "Local name referenced but not bound to a value.",
    [EXC_StopIteration] = "StopIteration(*args)\n" "Signal the end from iterator.__next__().",
    [EXC_AssertionError] = "AssertionError(*args)\n" "Assertion failed.",
    [EXC_ImportError] = "ImportError(*args)\n" "Import can't find module, or can't find name in module.",
    [EXC_ModuleNotFoundError] = "ModuleNotFoundError(*args)\n" "Module not found.",
    [EXC_KeyboardInterrupt] = "KeyboardInterrupt(*args)\n" "Program interrupted by user.",
    [EXC_MemoryError] = "MemoryError(*args)\n" "Out of memory.",
    [EXC_SyntaxError] = "SyntaxError(*args)\n" "Invalid syntax.",
    [EXC_IndentationError] = "IndentationError(*args)\n" "Improper indentation.",
    [EXC_TabError] = "TabError(*args)\n" "Improper mixture of spaces and tabs.",
    [EXC_SystemExit] = "SystemExit(*args)\n" "Request to exit from the interpreter.",
    [EXC_OSError] = "OSError(*args)\n" "Base class for I/O related errors.",
    [EXC_FileNotFoundError] = "FileNotFoundError(*args)\n" "File not found.",
    [EXC_FileExistsError] = "FileExistsError(*args)\n" "File already exists.",
    [EXC_NotADirectoryError] = "NotADirectoryError(*args)\n" "Operation only works on directories.",
    [EXC_IsADirectoryError] = "IsADirectoryError(*args)\n" "Operation doesn't work on directories.",
    [EXC_PermissionError] = "PermissionError(*args)\n" "Not enough permissions.",
    [EXC_TimeoutError] = "TimeoutError(*args)\n" "Timeout expired.",
    [EXC_BlockingIOError] = "BlockingIOError(*args)\n" "I/O operation would block.",
    [EXC_ChildProcessError] = "ChildProcessError(*args)\n" "Child process error.",
    [EXC_InterruptedError] = "InterruptedError(*args)\n" "Interrupted by signal.",
    [EXC_ProcessLookupError] = "ProcessLookupError(*args)\n" "Process not found.",
    [EXC_ConnectionError] = "ConnectionError(*args)\n" "Connection error.",
    [EXC_BrokenPipeError] = "BrokenPipeError(*args)\n" "Broken pipe.",
    [EXC_ConnectionAbortedError] = "ConnectionAbortedError(*args)\n" "Connection aborted.",
    [EXC_ConnectionRefusedError] = "ConnectionRefusedError(*args)\n" "Connection refused.",
    [EXC_ConnectionResetError] = "ConnectionResetError(*args)\n" "Connection reset.",
    [EXC_BufferError] = "BufferError(*args)\n" "Buffer error.",
    [EXC_FloatingPointError] = "FloatingPointError(*args)\n" "Floating point operation failed.",
    [EXC_StopAsyncIteration] = "StopAsyncIteration(*args)\n" "Signal the end from iterator.__anext__().",
    [EXC_UnicodeTranslateError] = "UnicodeTranslateError(*args)\n" "Unicode translation error.",
    [EXC_ReferenceError] = "ReferenceError(*args)\n" "Weak ref proxy used after referent went away.",
    [EXC_UnpicklingError] = "UnpicklingError(*args)\n" "A file torch.load cannot read (pickle.UnpicklingError).",
    [EXC__LinAlgError] = "_LinAlgError(*args)\n" "A matrix torch.linalg cannot factorize (singular, not positive-definite).",
    [EXC_GeneratorExit] = "GeneratorExit(*args)\n" "Request that a generator exit.",
    [EXC_UnicodeError] = "UnicodeError(*args)\n" "Unicode related error.",
    [EXC_UnicodeDecodeError] = "UnicodeDecodeError(*args)\n" "Unicode decoding error.",
    [EXC_UnicodeEncodeError] = "UnicodeEncodeError(*args)\n" "Unicode encoding error.",
    [EXC_EOFError] = "EOFError(*args)\n" "Read beyond end of file.",
};

static int add_methods(class_obj *c, const method_def *m)
{
    for (; m && m->name; m++) {
        nn_object *f = nn_cfunction_new(m->name, m->fn, NULL, NULL);
        int rc = f ? repl_nmap_set(&c->dict, m->name, f) : -1;
        NN_RELEASE(f);
        if (rc < 0) return -1;
    }
    return 0;
}

/* The class of a built-in type; a type of another module (bt->module) derives
   from its base and is not a built-in name (collections.OrderedDict). */
static class_obj *builtin_class(repl_interp *in, const builtin_type *bt)
{
    nn_object *base = bt->base ? repl_nmap_get(&in->builtins, bt->base) : NULL;
    class_obj *c = repl_lang_class_new(bt->name, base ? (class_obj *)base : in->object_cls, -1);
    if (!c) return NULL;
    c->ntype = bt->type;
    c->ctor = bt->ctor;
    c->module = bt->module;
    /* repl_class_of finds the lazy iterators' classes (type(zip()) is zip) by their type's name */
    bool by_name = repl_is_lazy(&(nn_object){.type = bt->type});
    if (add_methods(c, bt->methods) < 0 || (!bt->module && repl_nmap_set(&in->builtins, bt->name, &c->ob) < 0) ||
        (by_name && repl_nmap_set(&in->type_cache, bt->type->name, &c->ob) < 0)) {
        NN_RELEASE(c);
        return NULL;
    }
    return c;
}

class_obj *repl_class_of(nn_object *o)
{
    repl_interp *in = repl_current;
    const nn_type *t = o->type;
    if (t == &repl_instance_type) return ((instance_obj *)o)->cls;
    if (t == &nn_int_type || t == &repl_bigint_type) return in->int_cls;
    if (t == &nn_float_type) return in->float_cls;
    if (t == &nn_str_type) return in->str_cls;
    if (t == &nn_bool_type) return in->bool_cls;
    if (t == &nn_list_type) return in->list_cls;
    if (t == &nn_tuple_type || t->base == &nn_tuple_type) return in->tuple_cls; /* torch.Size, return types */
    if (t == &nn_dict_type) return nn_dict_is_ordered(o) ? in->odict_cls : in->dict_cls;
    if (t == &repl_set_type) return ((set_obj *)o)->frozen ? in->frozenset_cls : in->set_cls;
    if (t == &repl_range_type) return in->range_cls;
    if (t == &repl_slice_type) return in->slice_cls;
    if (t == &repl_desc_type) return repl_desc_class(o);
    if (t == &repl_super_type) return in->super_cls;
    if (t == &nn_none_type) return in->none_cls;
    if (t == &repl_class_type) return in->type_cls;
    if (t == &repl_function_type) return in->func_cls;
    if (t == &repl_module_type) return in->module_cls;
    if (t == &nn_node_type && nn_custom_state((nn_node *)o)) return repl_class_of(nn_custom_state((nn_node *)o)); /* MyFnBackward */
    class_obj *lc = repl_module_lang_class(o);
    if (lc) return lc;
    /* other types: one cached class per type name */
    const char *name = repl_value_type_name(o);
    nn_object *c = repl_nmap_get(&in->type_cache, name);
    if (c) return (class_obj *)c;
    class_obj *k = repl_lang_class_new(name, in->object_cls, -1);
    if (!k) {
        nn_error_clear();
        return in->object_cls;
    }
    k->ntype = t;
    if (repl_nmap_set(&in->type_cache, name, &k->ob) < 0) nn_error_clear();
    NN_RELEASE(k);
    c = repl_nmap_get(&in->type_cache, name);
    return c ? (class_obj *)c : in->object_cls;
}

nn_object *repl_builtin_method(nn_object *self, const char *name)
{
    const nn_type *t = self->type;
    class_obj *c = NULL;
    repl_interp *in = repl_current;
    if (t == &nn_str_type) c = in->str_cls;
    else if (t == &nn_list_type) c = in->list_cls;
    else if (t == &nn_tuple_type || t->base == &nn_tuple_type) c = in->tuple_cls;
    else if (t == &nn_dict_type) c = nn_dict_is_ordered(self) ? in->odict_cls : in->dict_cls;
    else if (t == &repl_set_type) c = in->set_cls;
    else if (t == &nn_float_type) c = in->float_cls;
    else if (t == &repl_slice_type) c = in->slice_cls;
    else if (t == &nn_complex_type) c = (class_obj *)repl_nmap_get(&in->type_cache, "complex");
    else if (t == &nn_int_type || t == &repl_bigint_type || t == &nn_bool_type) c = in->int_cls; /* bool: int's methods */
    nn_object *f = NULL;
    for (; c && c != in->object_cls; c = c->base) /* OrderedDict's, then dict's */
        if ((f = repl_nmap_get(&c->dict, name))) break;
    if (!f) return NULL;
    return repl_bind_class_attr(f, self, c);
}

/* ------------------------------------------------------------------ help and signatures */

/* help(obj) prints pydoc's text; the docs of built-ins are "signature\none line"
   (see the tables above and bind_int.h). Python's forms are kept where Python
   has them (built-in functions, bound and unbound methods of built-in types,
   defs, classes); torch natives use the same forms with their docstrings. */

/* A cfunction's __name__ into buf; NULL (no error) when it has none. */
static const char *cfunction_name(nn_object *f, char *buf, size_t cap)
{
    nn_object *name = repl_get_attr(f, "__name__");
    if (!name || !nn_is_str(name)) {
        NN_RELEASE(name);
        nn_object *e = repl_take_exception();
        NN_RELEASE(e);
        return NULL;
    }
    snprintf(buf, cap, "%s", nn_str_cstr(name));
    NN_RELEASE(name);
    return buf;
}

/* What help() knows of the evaluator's built-ins (functions, types and their
   methods); false when o is none of them. Strings are static or in name_buf. */
static bool builtin_doc_of(repl_interp *in, nn_object *o, repl_doc_info *out, char *name_buf, size_t cap)
{
    memset(out, 0, sizeof *out);
    o = repl_mdescr_func(o); /* str.upper: its C function */
    if (o->type == &repl_class_type) {
        class_obj *c = (class_obj *)o;
        for (size_t i = 0; i < sizeof builtin_types / sizeof *builtin_types; i++)
            if (*type_slot(in, &builtin_types[i]) == c) out->doc = builtin_types[i].doc;
        if (c->exc >= 0 && in->exc_classes[c->exc] == c) out->doc = exception_docs[c->exc];
        if (!out->doc) out->doc = repl_bytes_doc(c, NULL);
        if (!out->doc && c->ntype == &nn_complex_type) out->doc = repl_complex_doc(NULL);
        if (!out->doc) return false;
        out->kind = REPL_DOC_CLASS;
        out->name = c->name;
        out->qualname = "builtins";
        if (c->module) { /* collections.OrderedDict */
            snprintf(name_buf, cap, "%s.%s", c->module, c->name);
            out->qualname = name_buf;
        }
        return true;
    }
    nn_object *self = NULL;
    if (o->type == &repl_method_type) {
        self = ((method_obj *)o)->self;
        o = ((method_obj *)o)->func;
    }
    if (o->type != &nn_cfunction_type || !cfunction_name(o, name_buf, cap)) return false;
    out->name = name_buf;
    if (!self && repl_nmap_get(&in->builtins, name_buf) == o) {
        out->kind = REPL_DOC_FUNCTION;
        out->module = "builtins";
        for (size_t i = 0; i < sizeof builtin_functions / sizeof *builtin_functions; i++)
            if (!strcmp(builtin_functions[i].name, name_buf)) out->doc = builtin_functions[i].doc;
        if (!out->doc) out->doc = repl_exec_builtin_doc(name_buf); /* eval, exec, compile */
        return true;
    }
    for (size_t i = 0; i < sizeof builtin_types / sizeof *builtin_types; i++) {
        class_obj *c = *type_slot(in, &builtin_types[i]);
        if (repl_nmap_get(&c->dict, name_buf) != o) continue;
        out->kind = self ? REPL_DOC_BOUND : REPL_DOC_UNBOUND;
        out->self = self;
        out->qualname = builtin_types[i].name; /* printed as builtins.<name> */
        for (const method_def *m = builtin_types[i].methods; m && m->name; m++)
            if (!strcmp(m->name, name_buf)) out->doc = m->doc;
        if (!out->doc) out->doc = repl_builtin_methods_more_doc(in, c, name_buf);
        if (!out->doc) out->doc = repl_bytes_doc(c, name_buf);
        return true;
    }
    class_obj *cc = (class_obj *)repl_nmap_get(&in->type_cache, "complex");
    if (cc && repl_nmap_get(&cc->dict, name_buf) == o) { /* complex.conjugate */
        out->kind = self ? REPL_DOC_BOUND : REPL_DOC_UNBOUND;
        out->self = self;
        out->qualname = "complex";
        out->doc = repl_complex_doc(name_buf);
        return true;
    }
    class_obj *bc = repl_bytes_class_holding(o);
    if (bc) { /* bytes.fromhex */
        out->kind = self ? REPL_DOC_BOUND : REPL_DOC_UNBOUND;
        out->self = self;
        out->qualname = bc->name;
        out->doc = repl_bytes_doc(bc, name_buf);
        return true;
    }
    if (repl_nmap_get(&in->exc_classes[EXC_BaseException]->dict, name_buf) == o) { /* with_traceback */
        out->kind = self ? REPL_DOC_BOUND : REPL_DOC_UNBOUND;
        out->self = self;
        out->qualname = "BaseException";
        out->doc = repl_exc_method_doc(name_buf);
        return out->doc != NULL;
    }
    return false;
}

/* A doc's signature line (up to the newline) into a new string; NULL (no error) without one. */
static char *doc_signature(const char *doc)
{
    if (!doc) return NULL;
    size_t n = strcspn(doc, "\n");
    char *r = nn_malloc(n + 1);
    if (!r) return NULL;
    memcpy(r, doc, n);
    r[n] = 0;
    return r;
}

/* A method's signature line from its doc's first line sig: bound as documented
   ("upper()"), or unbound with self added ("upper(self, /)" for a built-in type,
   whose self is positional-only as Python prints it; "forward(self, input)" for
   natives). A self_first doc is a torch function's ("sum(input, dim=None)"): its
   first parameter is the instance, left out when bound and named self when not. */
static void add_method_signature(sbuf *b, const char *sig, bool bound, bool self_first, bool builtin_type)
{
    const char *open = strchr(sig, '(');
    if (!open || (bound && !self_first)) {
        repl_sb_puts(b, sig);
        return;
    }
    repl_sb_add(b, sig, (size_t)(open - sig + 1));
    const char *params = open + 1;
    if (self_first) {
        const char *rest = params + strcspn(params, ",)");
        if (bound) {
            if (*rest == ',') rest++;
            while (*rest == ' ') rest++;
        } else {
            repl_sb_puts(b, "self");
        }
        repl_sb_puts(b, rest);
        return;
    }
    bool empty = params[0] == ')';
    bool has_slash = memchr(params, '/', strcspn(params, ")")) != NULL;
    if (!builtin_type || has_slash) repl_sb_puts(b, empty ? "self" : "self, ");
    else repl_sb_puts(b, empty ? "self, /" : "self, /, ");
    repl_sb_puts(b, params);
}

/* Appends text's lines, each prefixed by indent (blank lines too, as pydoc
   indents them). */
static void add_lines(sbuf *b, const char *text, const char *indent)
{
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        repl_sb_puts(b, indent);
        repl_sb_add(b, p, n);
        repl_sb_puts(b, "\n");
        p += n;
        if (*p) p++;
    }
}

/* Appends a built-in's doc after its signature line. */
static void add_doc_body(sbuf *b, const char *doc, const char *indent)
{
    const char *nl = doc ? strchr(doc, '\n') : NULL;
    if (nl) add_lines(b, nl + 1, indent);
}

/* inspect.cleandoc(): the docstring without its common indentation and
   surrounding blank lines, as a new string. */
static char *clean_doc(const char *s, size_t len)
{
    size_t margin = SIZE_MAX;
    for (size_t i = 0, line = 0; i < len; line++) {
        size_t n = 0, ind = 0;
        while (i + n < len && s[i + n] != '\n') n++;
        while (ind < n && s[i + ind] == ' ') ind++;
        if (line > 0 && ind < n && ind < margin) margin = ind;
        i += n + 1;
    }
    sbuf b = {0};
    for (size_t i = 0, line = 0; i < len; line++) {
        size_t n = 0;
        while (i + n < len && s[i + n] != '\n') n++;
        size_t skip = 0;
        if (line == 0)
            while (skip < n && s[i + skip] == ' ') skip++;
        else
            while (skip < n && skip < margin && s[i + skip] == ' ') skip++;
        repl_sb_add(&b, s + i + skip, n - skip);
        repl_sb_puts(&b, "\n");
        i += n + 1;
    }
    char *r = repl_sb_finish(&b);
    if (!r) return NULL;
    /* trailing spaces and blank lines, then leading blank lines */
    size_t n = strlen(r);
    while (n && (r[n - 1] == '\n' || r[n - 1] == ' ')) n--;
    r[n] = 0;
    size_t lead = 0;
    while (r[lead] == '\n') lead++;
    memmove(r, r + lead, n - lead + 1);
    return r;
}

/* A def's __doc__ cleaned (a new string), or NULL (no error) without one. */
static char *function_docstring(const func_obj *fn)
{
    nn_object *doc = repl_get_attr((nn_object *)&fn->ob, "__doc__");
    char *r = doc && nn_is_str(doc) ? clean_doc(nn_str_cstr(doc), nn_str_len(doc)) : NULL;
    NN_RELEASE(doc);
    return r;
}

/* An annotation as Python prints it in a signature: names and dotted names
   (others are left out). */
static void add_annotation(sbuf *b, const repl_node *a)
{
    if (a->kind == REPL_AST_Name) {
        repl_sb_printf(b, ": %s", a->v.Name.id);
    } else if (a->kind == REPL_AST_Attribute) {
        const repl_node *parts[16];
        int n = 0;
        for (; a->kind == REPL_AST_Attribute && n < 15; a = a->v.Attribute.value) parts[n++] = a;
        if (a->kind != REPL_AST_Name) return;
        repl_sb_printf(b, ": %s", a->v.Name.id);
        while (n) repl_sb_printf(b, ".%s", parts[--n]->v.Attribute.attr);
    }
}

static void add_param(sbuf *b, bool *first, const char *prefix, const repl_node *arg, nn_object *dflt)
{
    repl_sb_puts(b, *first ? "" : ", ");
    *first = false;
    repl_sb_printf(b, "%s%s", prefix, arg->v.arg.arg);
    if (arg->v.arg.annotation) add_annotation(b, arg->v.arg.annotation);
    if (dflt) {
        repl_sb_puts(b, arg->v.arg.annotation ? " = " : "=");
        repl_sb_take(b, repl_obj_repr(dflt));
    }
}

/* A def's parameter list "a, b=2, *args, c, **kw" (parameters from skip on:
   1 leaves out a method's self). */
static void add_params(sbuf *b, const func_obj *fn, int skip)
{
    const repl_node *a = fn->args;
    if (!a) return;
    const repl_node_list *pos[2] = {&a->v.arguments.posonlyargs, &a->v.arguments.args};
    int n_pos = pos[0]->n + pos[1]->n, k = 0;
    bool first = true;
    for (int l = 0; l < 2; l++) {
        for (int i = 0; i < pos[l]->n; i++, k++) {
            if (k < skip) continue;
            int d = k - (n_pos - fn->n_defaults);
            add_param(b, &first, "", pos[l]->items[i], d >= 0 ? fn->defaults[d] : NULL);
        }
        if (l == 0 && pos[0]->n && k > skip) {
            repl_sb_puts(b, first ? "/" : ", /");
            first = false;
        }
    }
    if (a->v.arguments.vararg) add_param(b, &first, "*", a->v.arguments.vararg, NULL);
    else if (a->v.arguments.kwonlyargs.n) {
        repl_sb_puts(b, first ? "*" : ", *");
        first = false;
    }
    for (int i = 0; i < a->v.arguments.kwonlyargs.n; i++)
        add_param(b, &first, "", a->v.arguments.kwonlyargs.items[i], fn->kwdefaults ? fn->kwdefaults[i] : NULL);
    if (a->v.arguments.kwarg) add_param(b, &first, "**", a->v.arguments.kwarg, NULL);
}

static bool is_lambda(const func_obj *fn) { return !strcmp(fn->name, "<lambda>"); }

/* "f(a, b=2)" for a def; skip 1 for a bound method; as_name renames (a class's constructor). */
static void add_function_signature(sbuf *b, const func_obj *fn, int skip, const char *as_name)
{
    if (is_lambda(fn) && !as_name) {
        /* pydoc prints a lambda as "<lambda> lambda x" */
        repl_sb_puts(b, "<lambda> lambda ");
        add_params(b, fn, skip);
        return;
    }
    repl_sb_printf(b, "%s(", as_name ? as_name : fn->name);
    add_params(b, fn, skip);
    repl_sb_puts(b, ")");
}

/* The native class a language class derives from (nn.Module), or NULL. */
static nn_object *native_base_of(const class_obj *c)
{
    for (; c; c = c->base)
        if (c->native_base) return c->native_base;
    return NULL;
}

/* A language class's constructor signature "C(a, b=1)" from its __init__. */
static void add_class_signature(sbuf *b, const class_obj *c)
{
    nn_object *init = repl_class_lookup(c, "__init__");
    if (init && init->type == &repl_function_type) add_function_signature(b, (const func_obj *)init, 1, c->name);
    else if (native_base_of(c)) repl_sb_printf(b, "%s(*args, **kwargs)", c->name);
    else repl_sb_printf(b, "%s()", c->name);
}

/* A built-in type's methods carry the bare type name as qualname ("str"). */
static bool is_builtin_type_method(const repl_doc_info *d) { return d->qualname && !strchr(d->qualname, '.'); }

/* The signature line of a documented callable as help() prints it; new or NULL. */
static char *signature_of_doc(const repl_doc_info *d)
{
    char *sig = doc_signature(d->doc);
    if (!sig || (d->kind != REPL_DOC_BOUND && d->kind != REPL_DOC_UNBOUND)) return sig;
    sbuf b = {0};
    add_method_signature(&b, sig, d->kind == REPL_DOC_BOUND, d->self_first, is_builtin_type_method(d));
    nn_free(sig);
    return repl_sb_finish(&b);
}

/* Fills *d for a built-in or native object o; false when it is neither. */
static bool doc_info(repl_interp *in, nn_object *o, repl_doc_info *d, char *buf, size_t cap)
{
    return builtin_doc_of(in, o, d, buf, cap) || repl_bind_doc_of(o, d);
}

char *repl_signature(repl_interp *in, nn_object *callable)
{
    repl_interp *prev = repl_current;
    repl_current = in;
    char buf[64];
    repl_doc_info d;
    sbuf b = {0};
    char *r = NULL;
    nn_object *o = callable;
    int skip = 0;
    if (o->type == &repl_method_type && ((method_obj *)o)->func->type == &repl_function_type) {
        o = ((method_obj *)o)->func;
        skip = 1;
    }
    if (o->type == &repl_function_type) {
        add_function_signature(&b, (func_obj *)o, skip, is_lambda((func_obj *)o) ? "<lambda>" : NULL);
        r = repl_sb_finish(&b);
    } else if (o->type == &repl_class_type && !builtin_doc_of(in, o, &d, buf, sizeof buf)) {
        add_class_signature(&b, (class_obj *)o);
        r = repl_sb_finish(&b);
    } else if (doc_info(in, o, &d, buf, sizeof buf)) {
        r = signature_of_doc(&d);
        char *arrow = r ? strstr(r, " -> ") : NULL;
        if (arrow) *arrow = 0;
    }
    repl_current = prev;
    return r;
}

/* The class help() describes for an instance (its type), or NULL. New reference. */
static nn_object *class_for_help(repl_interp *in, nn_object *o)
{
    nn_object *cls = repl_bind_type_of(o);
    if (cls) return cls;
    class_obj *c = repl_class_of(o);
    return c ? nn_retain(&c->ob) : NULL;
}

/* One entry of a class's method list: " |  sig\n |      line\n". */
static void add_method_entry(sbuf *b, const char *sig_line, const char *doc)
{
    repl_sb_printf(b, " |  %s\n", sig_line);
    add_doc_body(b, doc, " |      ");
}

/* " |  Methods defined here:" and the methods of a language class's own dict, sorted. */
static void add_lang_methods(sbuf *b, const class_obj *c, const char *title)
{
    const char **keys = repl_nmap_keys_ordered(&c->dict);
    size_t n = 0;
    for (uint32_t i = 0; keys && i < c->dict.len; i++)
        if (repl_nmap_get(&c->dict, keys[i])->type == &repl_function_type) keys[n++] = keys[i];
    if (n) {
        qsort(keys, n, sizeof *keys, cmp_names);
        repl_sb_printf(b, " |  %s\n |  \n", title);
        for (size_t i = 0; i < n; i++) {
            const func_obj *fn = (const func_obj *)repl_nmap_get(&c->dict, keys[i]);
            if (i) repl_sb_puts(b, " |  \n");
            repl_sb_puts(b, " |  ");
            add_function_signature(b, fn, 0, NULL);
            repl_sb_puts(b, "\n");
            char *doc = function_docstring(fn);
            if (doc) add_lines(b, doc, " |      ");
            nn_free(doc);
        }
    }
    nn_free(keys);
}

/* The methods of a native class (or of a built-in type's table), sorted, with
   self added to their signatures. */
static void add_native_methods(sbuf *b, nn_object *native_cls, const method_def *table, const char *title)
{
    repl_method_doc m[256];
    size_t n = 0;
    for (size_t i = 0; native_cls && n < 256 && repl_bind_class_method(native_cls, i, &m[n]); i++) n++;
    for (const method_def *t = table; t && t->name && n < 256; t++) m[n++] = (repl_method_doc){t->name, t->doc, false};
    if (!n) return;
    /* sorted by name (insertion sort: a few dozen entries) */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && strcmp(m[j - 1].name, m[j].name) > 0; j--) {
            repl_method_doc t = m[j];
            m[j] = m[j - 1];
            m[j - 1] = t;
        }
    repl_sb_printf(b, " |  %s\n |  \n", title);
    for (size_t i = 0; i < n; i++) {
        if (i) repl_sb_puts(b, " |  \n");
        char *sig = doc_signature(m[i].doc);
        sbuf s = {0};
        if (sig) add_method_signature(&s, sig, false, m[i].self_first, table != NULL);
        else repl_sb_printf(&s, "%s(...)", m[i].name);
        char *line = repl_sb_finish(&s);
        add_method_entry(b, line ? line : m[i].name, m[i].doc);
        nn_free(line);
        nn_free(sig);
    }
}

#define HELP_RULE " |  ----------------------------------------------------------------------\n"

/* help() of a language class: header, constructor, docstring, resolution order and methods. */
static void add_lang_class_help(sbuf *b, const class_obj *c)
{
    nn_object *native = native_base_of(c);
    const char *native_name = NULL;
    repl_doc_info d;
    if (native && repl_bind_doc_of(native, &d)) native_name = d.qualname;
    repl_sb_printf(b, "Help on class %s in module __main__:\n\nclass %s(", c->name, c->name);
    if (c->base && c->base->ntype == NULL && c->base != repl_current->object_cls) repl_sb_puts(b, c->base->name);
    else if (native_name && c->native_base) repl_sb_puts(b, native_name);
    else repl_sb_puts(b, "builtins.object");
    repl_sb_puts(b, ")\n |  ");
    add_class_signature(b, c);
    repl_sb_puts(b, "\n |  \n");
    nn_object *doc = repl_nmap_get(&c->dict, "__doc__");
    if (doc && nn_is_str(doc)) {
        char *clean = clean_doc(nn_str_cstr(doc), nn_str_len(doc));
        if (clean) {
            add_lines(b, clean, " |  ");
            repl_sb_puts(b, " |  \n");
        }
        nn_free(clean);
    }
    if ((c->base && c->base != repl_current->object_cls) || native) {
        repl_sb_puts(b, " |  Method resolution order:\n");
        for (const class_obj *k = c; k && k != repl_current->object_cls; k = k->base) {
            repl_sb_printf(b, " |      %s\n", k->name);
            if (k->native_base && native_name) repl_sb_printf(b, " |      %s\n", native_name);
        }
        repl_sb_puts(b, " |      builtins.object\n |  \n");
    }
    size_t start = b->len;
    add_lang_methods(b, c, "Methods defined here:");
    for (const class_obj *k = c->base; k && k != repl_current->object_cls; k = k->base) {
        sbuf t = {0};
        repl_sb_printf(&t, "Methods inherited from %s:", k->name);
        char *title = repl_sb_finish(&t);
        if (b->len > start && k->dict.len) repl_sb_puts(b, " |  \n" HELP_RULE);
        size_t before = b->len;
        add_lang_methods(b, k, title ? title : "Methods inherited:");
        if (b->len == before && b->len > start && k->dict.len) b->len -= strlen(" |  \n" HELP_RULE);
        nn_free(title);
    }
    if (native) {
        sbuf t = {0};
        repl_sb_printf(&t, "Methods inherited from %s:", native_name ? native_name : "?");
        char *title = repl_sb_finish(&t);
        if (b->len > start) repl_sb_puts(b, " |  \n" HELP_RULE);
        add_native_methods(b, native, NULL, title ? title : "Methods inherited:");
        nn_free(title);
    }
    if (b->len >= 5 && !strcmp(b->buf + b->len - 5, " |  \n")) b->len -= 5; /* no dangling bar line */
}

/* help() of a built-in type or a native class. */
static void add_doc_class_help(repl_interp *in, sbuf *b, nn_object *cls, const repl_doc_info *d)
{
    const char *dot = d->qualname ? strrchr(d->qualname, '.') : NULL;
    bool builtin = !dot;
    /* the class of a built-in type, of builtins or of another module (OrderedDict) */
    const class_obj *lc = builtin || cls->type == &repl_class_type ? (const class_obj *)cls : NULL;
    repl_sb_printf(b, "Help on class %s in module %.*s:\n\nclass %s", d->name, builtin ? 8 : (int)(dot - d->qualname),
                   builtin ? "builtins" : d->qualname, d->name);
    if (lc && lc->module) repl_sb_printf(b, "(builtins.%s)", lc->base->name);
    else if (lc && lc->base && lc->base != in->object_cls) repl_sb_printf(b, "(%s)", lc->base->name);
    else if (builtin && lc != in->object_cls) repl_sb_puts(b, "(object)");
    else if (!builtin) repl_sb_printf(b, "(%s)", d->base ? d->base : "builtins.object");
    repl_sb_puts(b, "\n");
    char *sig = doc_signature(d->doc);
    if (sig) repl_sb_printf(b, " |  %s\n |  \n", sig);
    nn_free(sig);
    add_doc_body(b, d->doc, " |  ");
    const method_def *table = NULL;
    for (size_t i = 0; lc && i < sizeof builtin_types / sizeof *builtin_types; i++)
        if (*type_slot(in, &builtin_types[i]) == lc) table = builtin_types[i].methods;
    size_t before = b->len;
    repl_sb_puts(b, " |  \n");
    add_native_methods(b, lc ? NULL : cls, table, lc ? "Methods defined here:" : "Methods:");
    if (b->len == before + 5) b->len = before;
}

/* help() of a documented function or method. */
static void add_doc_function_help(sbuf *b, const repl_doc_info *d)
{
    char *sig = signature_of_doc(d);
    switch (d->kind) {
    case REPL_DOC_FUNCTION:
        repl_sb_printf(b, "Help on built-in function %s in module %s:\n\n", d->name, d->module ? d->module : "builtins");
        break;
    case REPL_DOC_BOUND: repl_sb_printf(b, "Help on built-in function %s:\n\n", d->name); break;
    case REPL_DOC_UNBOUND: repl_sb_puts(b, "Help on method_descriptor:\n\n"); break;
    case REPL_DOC_CLASS: break;
    }
    if (sig) repl_sb_puts(b, sig);
    else repl_sb_printf(b, "%s(...)", d->name);
    if (d->kind == REPL_DOC_BOUND) {
        const char *q = d->qualname ? d->qualname : repl_value_type_name(d->self);
        /* a method of a type of another module names the instance's type: od.get is
           "get(key, default=None, /) method of collections.OrderedDict instance" */
        const class_obj *other = is_builtin_type_method(d) && d->self ? repl_class_of(d->self) : NULL;
        if (other && other->module) repl_sb_printf(b, " method of %s.%s instance", other->module, other->name);
        else repl_sb_printf(b, " method of %s%s instance", is_builtin_type_method(d) ? "builtins." : "", q);
    }
    repl_sb_puts(b, "\n");
    add_doc_body(b, d->doc, "    ");
    nn_free(sig);
}

/* help() of a def or a method bound to an instance of a language class. */
static void add_function_help(sbuf *b, const func_obj *fn, nn_object *self)
{
    if (self) repl_sb_printf(b, "Help on method %s in module __main__:\n\n", fn->name);
    else repl_sb_printf(b, "Help on function %s in module __main__:\n\n", fn->name);
    add_function_signature(b, fn, self ? 1 : 0, NULL);
    if (self) {
        class_obj *c = repl_class_of(self);
        repl_sb_printf(b, " method of __main__.%s instance", c ? c->name : "object");
    }
    repl_sb_puts(b, "\n");
    char *doc = function_docstring(fn);
    if (doc) add_lines(b, doc, "    ");
    nn_free(doc);
}

/* help() of a built-in module: its classes and functions, sorted, as pydoc lists them. */
static void add_module_help(repl_interp *in, sbuf *b, const char *name, nn_object *attrs)
{
    repl_sb_printf(b, "Help on built-in module %s:\n\nNAME\n    %s\n", name, name);
    size_t n = nn_dict_len(attrs), count = 0, pos = 0;
    const char **names = nn_malloc((n ? n : 1) * sizeof *names);
    if (!names) {
        b->failed = true;
        return;
    }
    nn_object *key, *value;
    while (nn_dict_next(attrs, &pos, &key, &value)) names[count++] = nn_str_cstr(key);
    qsort(names, count, sizeof *names, cmp_names);
    static const char *const sections[] = {"CLASSES", "FUNCTIONS"};
    char buf[64];
    for (int sec = 0; sec < 2; sec++) {
        bool any = false;
        for (size_t i = 0; i < count; i++) {
            repl_doc_info d;
            nn_object *v = nn_dict_get_str(attrs, names[i]);
            if (!repl_bind_doc_of(v, &d) && !builtin_doc_of(in, v, &d, buf, sizeof buf)) continue;
            if ((sec == 0) != (d.kind == REPL_DOC_CLASS)) continue;
            if (!any) repl_sb_printf(b, "\n%s\n", sections[sec]);
            else if (sec == 1) repl_sb_puts(b, "    \n"); /* a blank line between functions */
            any = true;
            if (sec == 0) {
                repl_sb_printf(b, "    %s\n", d.qualname ? d.qualname : names[i]);
                continue;
            }
            char *sig = signature_of_doc(&d);
            repl_sb_printf(b, "    %s\n", sig ? sig : names[i]);
            nn_free(sig);
            add_doc_body(b, d.doc, "        ");
        }
    }
    nn_free(names);
}

/* What help(o) describes: o itself, the object a str names (help('len')), or
   an instance's class. New reference, or NULL without error when a str names
   nothing. */
static nn_object *help_target(repl_interp *in, nn_object *o)
{
    repl_doc_info d;
    char buf[64];
    const char *module_name;
    nn_object *attrs;
    if (o->type == &repl_function_type || o->type == &repl_method_type || o->type == &repl_class_type ||
        doc_info(in, o, &d, buf, sizeof buf) || repl_bind_module_of(o, &module_name, &attrs))
        return nn_retain(o);
    if (nn_is_str(o)) {
        nn_object *v = repl_nmap_get(&in->globals, nn_str_cstr(o));
        if (!v) v = repl_nmap_get(&in->builtins, nn_str_cstr(o));
        return v ? nn_retain(v) : NULL;
    }
    nn_object *cls = class_for_help(in, o);
    return cls ? cls : nn_retain(o);
}

static void add_help(repl_interp *in, sbuf *b, nn_object *o)
{
    char buf[64];
    repl_doc_info d;
    const char *module_name;
    nn_object *attrs;
    if (o->type == &repl_method_type && ((method_obj *)o)->func->type == &repl_function_type) {
        add_function_help(b, (func_obj *)((method_obj *)o)->func, ((method_obj *)o)->self);
    } else if (o->type == &repl_function_type) {
        add_function_help(b, (func_obj *)o, NULL);
    } else if (doc_info(in, o, &d, buf, sizeof buf)) {
        if (d.kind == REPL_DOC_CLASS) add_doc_class_help(in, b, o, &d);
        else add_doc_function_help(b, &d);
    } else if (o->type == &repl_class_type && ((class_obj *)o)->ntype) {
        /* a value type without docs (NoneType, function, dtype): its header */
        d = (repl_doc_info){.kind = REPL_DOC_CLASS, .name = ((class_obj *)o)->name, .qualname = "builtins"};
        add_doc_class_help(in, b, o, &d);
    } else if (o->type == &repl_class_type) {
        add_lang_class_help(b, (class_obj *)o);
    } else if (repl_bind_module_of(o, &module_name, &attrs)) {
        add_module_help(in, b, module_name, attrs);
    } else {
        repl_sb_puts(b, "No documentation for ");
        repl_sb_take(b, repl_obj_repr(o));
        repl_sb_puts(b, "\n");
    }
    repl_sb_puts(b, "\n");
}

char *repl_help_text(repl_interp *in, nn_object *obj)
{
    repl_interp *prev = repl_current;
    repl_current = in;
    sbuf b = {0};
    nn_object *target = help_target(in, obj);
    if (target) add_help(in, &b, target);
    else
        repl_sb_printf(&b, "No Python documentation found for '%s'.\nUse help() to get the interactive help utility.\n"
                           "Use help(str) for help on the str class.\n",
                       nn_str_cstr(obj));
    NN_RELEASE(target);
    repl_current = prev;
    if (b.failed) {
        nn_free(b.buf);
        nn_error_set(NN_ERR_MEMORY, "out of memory");
        return NULL;
    }
    return repl_sb_finish(&b);
}

char *repl_docstring(repl_interp *in, nn_object *obj)
{
    repl_interp *prev = repl_current;
    repl_current = in;
    char buf[64], *r = NULL;
    repl_doc_info d;
    nn_object *o = obj;
    if (o->type == &repl_method_type) o = ((method_obj *)o)->func;
    nn_object *cls = NULL;
    if (o->type != &repl_function_type && o->type != &repl_class_type && !doc_info(in, o, &d, buf, sizeof buf))
        o = cls = class_for_help(in, o); /* an instance: its class's docstring, as inspect.getdoc */
    if (!o) {
    } else if (o->type == &repl_function_type) {
        r = function_docstring((func_obj *)o);
    } else if (o->type == &repl_class_type && !builtin_doc_of(in, o, &d, buf, sizeof buf)) {
        nn_object *doc = NULL;
        for (const class_obj *c = (const class_obj *)o; c && !doc; c = c->base)
            if (c != in->object_cls) doc = repl_nmap_get(&c->dict, "__doc__");
        if (doc && nn_is_str(doc)) r = clean_doc(nn_str_cstr(doc), nn_str_len(doc));
        nn_object *native = r ? NULL : native_base_of((const class_obj *)o);
        if (native && repl_bind_doc_of(native, &d) && d.doc) {
            sbuf b = {0};
            add_doc_body(&b, d.doc, "");
            r = repl_sb_finish(&b);
        }
    } else if (doc_info(in, o, &d, buf, sizeof buf) && d.doc) {
        sbuf b = {0};
        add_doc_body(&b, d.doc, "");
        r = repl_sb_finish(&b);
    }
    NN_RELEASE(cls);
    if (r) { /* no trailing newlines */
        size_t n = strlen(r);
        while (n && r[n - 1] == '\n') r[--n] = '\0';
        if (!n) {
            nn_free(r);
            r = NULL;
        }
    }
    repl_current = prev;
    return r;
}

int repl_builtins_init(repl_interp *in)
{
    in->object_cls = repl_lang_class_new("object", NULL, -1);
    if (!in->object_cls) return -1;
    in->object_cls->ntype = builtin_types[0].type;
    in->object_cls->ctor = builtin_types[0].ctor;
    nn_object *noop = nn_cfunction_new("__init__", repl_builtin_noop, NULL, NULL);
    if (add_methods(in->object_cls, builtin_types[0].methods) < 0 || !noop ||
        repl_nmap_set(&in->object_cls->dict, "__init__", noop) < 0 ||
        repl_nmap_set(&in->builtins, "object", &in->object_cls->ob) < 0) {
        NN_RELEASE(noop);
        return -1;
    }
    NN_RELEASE(noop);
    for (size_t i = 1; i < sizeof builtin_types / sizeof *builtin_types; i++)
        if (!(*type_slot(in, &builtin_types[i]) = builtin_class(in, &builtin_types[i]))) return -1;
    in->none_cls = repl_lang_class_new("NoneType", in->object_cls, -1);
    in->func_cls = repl_lang_class_new("function", in->object_cls, -1);
    in->module_cls = repl_lang_class_new("module", in->object_cls, -1);
    if (!in->none_cls || !in->func_cls || !in->module_cls) return -1;
    in->none_cls->ntype = &nn_none_type;
    in->func_cls->ntype = &repl_function_type;
    in->module_cls->ntype = &repl_module_type;
    /* the exception hierarchy */
    static const struct {
        const char *name;
        int parent;
    } excs[] = {
#define X(name, parent, kind) {#name, parent},
        EXC_LIST(X)
#undef X
    };
    for (int i = 0; i < EXC_COUNT; i++) {
        class_obj *base = excs[i].parent >= 0 ? in->exc_classes[excs[i].parent] : in->object_cls;
        class_obj *c = repl_lang_class_new(excs[i].name, base, i);
        if (!c) return -1;
        in->exc_classes[i] = c;
        if (repl_nmap_set(&in->builtins, excs[i].name, &c->ob) < 0) return -1;
    }
    /* Python 3's old names of OSError */
    if (repl_nmap_set(&in->builtins, "IOError", &in->exc_classes[EXC_OSError]->ob) < 0 ||
        repl_nmap_set(&in->builtins, "EnvironmentError", &in->exc_classes[EXC_OSError]->ob) < 0)
        return -1;
    if (!(in->no_memory = repl_instance_new(in->exc_classes[EXC_MemoryError]))) return -1;
    nn_object *init = nn_cfunction_new("__init__", exc_init, NULL, NULL);
    if (!init || repl_nmap_set(&in->exc_classes[EXC_BaseException]->dict, "__init__", init) < 0) {
        NN_RELEASE(init);
        return -1;
    }
    NN_RELEASE(init);
    if (repl_exc_chain_init(in) < 0 || repl_syntax_error_class_init(in) < 0 || repl_exec_builtins_init(in) < 0) return -1;
    if (repl_descriptor_classes_init(in) < 0 || repl_nmap_set(&in->builtins, "Ellipsis", repl_ellipsis()) < 0)
        return -1;
    nn_object *getter = nn_cfunction_new("code", exit_code_get, NULL, NULL);
    nn_object *code = getter ? repl_call_object(repl_nmap_get(&in->builtins, "property"), &getter, 1, NULL) : NULL;
    int code_rc = code ? repl_nmap_set(&in->exc_classes[EXC_SystemExit]->dict, "code", code) : -1;
    NN_RELEASE(getter);
    NN_RELEASE(code);
    if (code_rc < 0) return -1;
    for (size_t i = 0; i < sizeof builtin_functions / sizeof *builtin_functions; i++) {
        nn_object *f = nn_cfunction_new(builtin_functions[i].name, builtin_functions[i].fn, (void *)builtin_functions[i].doc, NULL);
        int rc = f ? repl_nmap_set(&in->builtins, builtin_functions[i].name, f) : -1;
        NN_RELEASE(f);
        if (rc < 0) return -1;
    }
    if (repl_builtin_methods_more(in) < 0 || repl_bytes_install(in) < 0 || repl_complex_install(in) < 0) return -1;
    if (repl_lang_builtins_init(in) < 0) return -1;
    return repl_builtin_sub_wrap_natives(in); /* 'abc'.startswith(S('a')) */
}
