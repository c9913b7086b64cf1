/*
 * strformat.c — the %-operator of str (printf-style formatting as CPython
 * 3.11's: %s %r %a %c %d %i %u %o %x %X %e %E %f %F %g %G, the flags "-+ #0",
 * `*` widths and precisions, the %(key)s mapping form and CPython's errors),
 * ascii() and the !a conversion, and the __format__ of tensors as PyTorch 1.13's
 * (a 0-dim tensor formats its item(): f'{loss:.4f}'). The format-spec
 * mini-language itself (format(), str.format, f-strings) is builtins.c's
 * repl_format_value, which %-formatting reuses for floats.
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "eval_int.h"
#include "bigint.h"

/* ---------------------------------------------------------- ascii() */

char *repl_obj_ascii(nn_object *o)
{
    char *r = repl_obj_repr(o);
    if (!r) return NULL;
    const unsigned char *s = (const unsigned char *)r;
    sbuf b = {0};
    for (size_t i = 0; s[i];) {
        if (s[i] < 0x80) {
            repl_sb_add(&b, (const char *)s + i, 1);
            i++;
            continue;
        }
        /* decode one UTF-8 sequence (the language's strings are valid UTF-8) */
        uint32_t cp;
        int len = s[i] >= 0xf0 ? 4 : s[i] >= 0xe0 ? 3 : 2;
        cp = s[i] & (0x3f >> (len - 1));
        for (int k = 1; k < len && s[i + k]; k++) cp = (cp << 6) | (s[i + k] & 0x3f);
        for (int k = 0; k < len && s[i]; k++) i++;
        if (cp <= 0xff) repl_sb_printf(&b, "\\x%02x", (unsigned)cp);
        else if (cp <= 0xffff) repl_sb_printf(&b, "\\u%04x", (unsigned)cp);
        else repl_sb_printf(&b, "\\U%08x", (unsigned)cp);
    }
    nn_free(r);
    return repl_sb_finish(&b);
}

nn_object *repl_bi_ascii(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)ud;
    if ((kwargs && nn_dict_len(kwargs)) || nn_tuple_len(args) != 1) {
        if (kwargs && nn_dict_len(kwargs)) repl_raise_exc(EXC_TypeError, "ascii() takes no keyword arguments");
        else repl_raise_exc(EXC_TypeError, "ascii() takes exactly one argument (%zu given)", nn_tuple_len(args));
        return NULL;
    }
    char *s = repl_obj_ascii(nn_tuple_get(args, 0));
    nn_object *r = s ? nn_str_new(s) : NULL;
    nn_free(s);
    return r;
}

/* ---------------------------------------------------------- tensors */

nn_object *repl_format_tensor(nn_object *t, const char *spec)
{
    if (NN_TENSOR(t)->ndim == 0) {
        nn_object *item = repl_call_method(t, "item", NULL, 0);
        if (!item) return NULL;
        nn_object *r = repl_format_value(item, spec);
        NN_RELEASE(item);
        return r;
    }
    if (*spec) {
        repl_raise_exc(EXC_TypeError, "unsupported format string passed to Tensor.__format__");
        return NULL;
    }
    char *s = repl_obj_str(t);
    nn_object *r = s ? nn_str_new(s) : NULL;
    nn_free(s);
    return r;
}

/* ---------------------------------------------------------- str % args */

/* one conversion's flags, width and precision (-1: none) */
typedef struct pct_spec {
    bool left, plus, space, alt, zero;
    int64_t width, prec;
} pct_spec;

/* Appends body[0..len) (a sign/prefix of head_len bytes, then the rest) padded
   to the width: left-aligned, zero-filled after the head, or right-aligned. */
static void pct_pad(sbuf *b, const pct_spec *sp, const char *body, size_t len, size_t head_len, bool zero_ok)
{
    size_t chars = 0;
    for (size_t i = 0; i < len; i++) chars += ((unsigned char)body[i] & 0xc0) != 0x80;
    size_t padn = sp->width > 0 && (size_t)sp->width > chars ? (size_t)sp->width - chars : 0;
    if (sp->left) {
        repl_sb_add(b, body, len);
        repl_sb_fill(b, ' ', padn);
    } else if (sp->zero && zero_ok) {
        repl_sb_add(b, body, head_len);
        repl_sb_fill(b, '0', padn);
        repl_sb_add(b, body + head_len, len - head_len);
    } else {
        repl_sb_fill(b, ' ', padn);
        repl_sb_add(b, body, len);
    }
}

/* A number argument of a numeric conversion as an int or float (new reference):
   tensors give their item() (PyTorch's __int__/__float__), instances their
   __int__/__float__; NULL without an error when arg is no number. */
static nn_object *pct_number(nn_object *arg, bool want_int)
{
    if (repl_is_integer(arg) || arg->type == &nn_float_type) return nn_retain(arg);
    if (nn_is_tensor(arg)) return repl_call_method(arg, "item", NULL, 0);
    if (arg->type == &repl_instance_type) {
        const char *names[3] = {want_int ? "__index__" : "__float__", want_int ? "__int__" : "__index__", NULL};
        for (int i = 0; names[i]; i++)
            if (repl_class_lookup(((instance_obj *)arg)->cls, names[i])) return repl_call_method(arg, names[i], NULL, 0);
        nn_object *v = repl_base_value(arg); /* class F(float): its float */
        if (v && (repl_is_integer(v) || v->type == &nn_float_type)) return nn_retain(v);
    }
    return NULL;
}

static int pct_int(sbuf *b, const pct_spec *sp, char conv, nn_object *arg)
{
    nn_object *num = pct_number(arg, true);
    if (!num) {
        if (nn_error_current()) return -1;
        if (conv == 'd' || conv == 'i' || conv == 'u')
            return repl_raise_exc(EXC_TypeError, "%%%c format: a real number is required, not %s", conv,
                                  repl_value_type_name(arg));
        return repl_raise_exc(EXC_TypeError, "%%%c format: an integer is required, not %s", conv,
                              repl_value_type_name(arg));
    }
    if (num->type == &nn_float_type) {
        if (conv != 'd' && conv != 'i' && conv != 'u') {
            NN_RELEASE(num);
            return repl_raise_exc(EXC_TypeError, "%%%c format: an integer is required, not float", conv);
        }
        NN_SET(num, repl_int_from_double(nn_float_value(num))); /* inf and nan raise */
        if (!num) return -1;
    }
    char *all = repl_int_digits(num, conv == 'o' ? 8 : conv == 'x' || conv == 'X' ? 16 : 10); /* any size */
    NN_RELEASE(num);
    if (!all) return -1;
    bool neg = all[0] == '-';
    const char *digits = all + neg;
    if (conv == 'X')
        for (char *p = all; *p; p++) *p = (char)toupper((unsigned char)*p);
    sbuf body = {0};
    repl_sb_puts(&body, neg ? "-" : sp->plus ? "+" : sp->space ? " " : "");
    if (sp->alt && conv == 'o') repl_sb_puts(&body, "0o");
    if (sp->alt && (conv == 'x' || conv == 'X')) repl_sb_puts(&body, conv == 'x' ? "0x" : "0X");
    size_t head = body.len, nd = strlen(digits);
    if (sp->prec > 0 && (size_t)sp->prec > nd) repl_sb_fill(&body, '0', (size_t)sp->prec - nd);
    repl_sb_puts(&body, digits);
    nn_free(all);
    size_t len = body.len;
    char *s = repl_sb_finish(&body);
    if (!s) return -1;
    pct_pad(b, sp, s, len, head, true);
    nn_free(s);
    return 0;
}

static int pct_float(sbuf *b, const pct_spec *sp, char conv, nn_object *arg)
{
    nn_object *num = pct_number(arg, false);
    if (!num) {
        if (nn_error_current()) return -1;
        return repl_raise_exc(EXC_TypeError, "must be real number, not %s", repl_value_type_name(arg));
    }
    double x = nn_float_value(num);
    int big = repl_is_bigint(num) ? repl_int_to_double(num, &x) : 0;
    NN_RELEASE(num);
    if (big < 0) return -1;
    nn_object *f = nn_float_new(x);
    if (!f) return -1;
    /* the digits of format(x, spec) with the conversion as its type; the width
       is applied here (zeros go after the sign, never around inf or nan) */
    char spec[64];
    snprintf(spec, sizeof spec, "%s%s.%" PRId64 "%c", sp->plus ? "+" : sp->space ? " " : "", sp->alt ? "#" : "",
             sp->prec < 0 ? (int64_t)6 : sp->prec, conv);
    nn_object *s = repl_format_value(f, spec);
    NN_RELEASE(f);
    if (!s) return -1;
    const char *text = nn_str_cstr(s);
    size_t head = (text[0] == '-' || text[0] == '+' || text[0] == ' ') ? 1 : 0;
    pct_pad(b, sp, text, nn_str_len(s), head, true);
    NN_RELEASE(s);
    return 0;
}

static int pct_char(sbuf *b, const pct_spec *sp, nn_object *arg)
{
    char buf[8];
    if (arg->type == &nn_str_type) {
        const char *s = nn_str_cstr(arg);
        size_t n = nn_str_len(arg), chars = 0;
        for (size_t i = 0; i < n; i++) chars += ((unsigned char)s[i] & 0xc0) != 0x80;
        if (chars != 1) return repl_raise_exc(EXC_TypeError, "%%c requires int or char");
        snprintf(buf, sizeof buf, "%s", s);
    } else if (arg->type == &nn_int_type || arg->type == &nn_bool_type) {
        int64_t c = nn_int_value(arg);
        if (c < 0 || c >= 0x110000) return repl_raise_exc(EXC_OverflowError, "%%c arg not in range(0x110000)");
        uint32_t cp = (uint32_t)c;
        if (cp < 0x80) buf[0] = (char)cp, buf[1] = 0;
        else if (cp < 0x800) buf[0] = (char)(0xc0 | cp >> 6), buf[1] = (char)(0x80 | (cp & 0x3f)), buf[2] = 0;
        else if (cp < 0x10000)
            buf[0] = (char)(0xe0 | cp >> 12), buf[1] = (char)(0x80 | ((cp >> 6) & 0x3f)),
            buf[2] = (char)(0x80 | (cp & 0x3f)), buf[3] = 0;
        else
            buf[0] = (char)(0xf0 | cp >> 18), buf[1] = (char)(0x80 | ((cp >> 12) & 0x3f)),
            buf[2] = (char)(0x80 | ((cp >> 6) & 0x3f)), buf[3] = (char)(0x80 | (cp & 0x3f)), buf[4] = 0;
    } else {
        return repl_raise_exc(EXC_TypeError, "%%c requires int or char");
    }
    pct_pad(b, sp, buf, strlen(buf), 0, false);
    return 0;
}

static int pct_text(sbuf *b, const pct_spec *sp, char conv, nn_object *arg)
{
    nn_object *text = NULL;
    if (conv == 's') text = repl_obj_str_object(arg);
    else {
        char *s = conv == 'r' ? repl_obj_repr(arg) : repl_obj_ascii(arg);
        text = s ? nn_str_new(s) : NULL;
        nn_free(s);
    }
    if (!text) return -1;
    const char *s = nn_str_cstr(text);
    size_t n = nn_str_len(text);
    if (sp->prec >= 0) {   /* cut to prec characters */
        size_t i = 0, c = 0;
        while (i < n && c < (size_t)sp->prec) {
            i++;
            while (i < n && ((unsigned char)s[i] & 0xc0) == 0x80) i++;
            c++;
        }
        n = i;
    }
    pct_pad(b, sp, s, n, 0, false);
    NN_RELEASE(text);
    return 0;
}

/* a `*` width or precision: the next argument, which must be an int */
static int pct_star(nn_object *args, bool tuple, size_t nargs, size_t *ai, int64_t *out)
{
    if (*ai >= nargs) return repl_raise_exc(EXC_TypeError, "not enough arguments for format string");
    nn_object *a = tuple ? nn_tuple_get(args, *ai) : args;
    (*ai)++;
    if (a->type != &nn_int_type && a->type != &nn_bool_type) return repl_raise_exc(EXC_TypeError, "* wants int");
    *out = nn_int_value(a);
    return 0;
}

static int pct_digits(const char *f, size_t n, size_t *i, int64_t *out, bool prec)
{
    int64_t v = 0, max = prec ? INT32_MAX : INT64_MAX;
    for (; *i < n && isdigit((unsigned char)f[*i]); (*i)++) {
        if (v > (max - (f[*i] - '0')) / 10)
            return repl_raise_exc(EXC_ValueError, prec ? "precision too big" : "width too big");
        v = v * 10 + (f[*i] - '0');
    }
    *out = v;
    return 0;
}

nn_object *repl_str_percent(nn_object *fmtobj, nn_object *args)
{
    const char *f = nn_str_cstr(fmtobj);
    size_t n = nn_str_len(fmtobj);
    nn_object *bv = repl_base_value(args); /* a tuple or dict subclass's value holds the arguments */
    if (bv && (bv->type == &nn_tuple_type || bv->type == &nn_dict_type)) args = bv;
    bool tuple = args->type == &nn_tuple_type || args->type->base == &nn_tuple_type;
    bool mapping = !tuple && args->type != &nn_str_type &&
                   (args->type == &nn_dict_type || (args->type == &repl_instance_type &&
                                                    repl_class_lookup(((instance_obj *)args)->cls, "__getitem__")));
    size_t nargs = tuple ? nn_tuple_len(args) : 1, ai = 0;
    sbuf b = {0};
    for (size_t i = 0; i < n; i++) {
        if (f[i] != '%') {
            size_t j = i;
            while (j < n && f[j] != '%') j++;
            repl_sb_add(&b, f + i, j - i);
            i = j - 1;
            continue;
        }
        i++;
        if (i < n && f[i] == '%') {
            repl_sb_add(&b, "%", 1);
            continue;
        }
        nn_object *arg = NULL, *owned = NULL;
        if (i < n && f[i] == '(') {
            if (!mapping) {
                repl_raise_exc(EXC_TypeError, "format requires a mapping");
                goto fail;
            }
            size_t e = ++i;
            int depth = 1;
            for (; e < n; e++) {
                if (f[e] == '(') depth++;
                else if (f[e] == ')' && --depth == 0) break;
            }
            if (e >= n) {
                repl_raise_exc(EXC_ValueError, "incomplete format key");
                goto fail;
            }
            nn_object *key = nn_str_from(f + i, e - i);
            owned = arg = key ? repl_get_item(args, key) : NULL;
            NN_RELEASE(key);
            if (!arg) goto fail;
            i = e + 1;
        }
        pct_spec sp = {.width = -1, .prec = -1};
        for (; i < n && strchr("-+ #0", f[i]); i++) {
            if (f[i] == '-') sp.left = true;
            else if (f[i] == '+') sp.plus = true;
            else if (f[i] == ' ') sp.space = true;
            else if (f[i] == '#') sp.alt = true;
            else sp.zero = true;
        }
        if (i < n && f[i] == '*') {
            if (pct_star(args, tuple, nargs, &ai, &sp.width) < 0) goto fail_arg;
            if (sp.width < 0) sp.left = true, sp.width = -sp.width;
            i++;
        } else if (i < n && isdigit((unsigned char)f[i]) && pct_digits(f, n, &i, &sp.width, false) < 0) {
            goto fail_arg;
        }
        if (i < n && f[i] == '.') {
            i++;
            if (i < n && f[i] == '*') {
                if (pct_star(args, tuple, nargs, &ai, &sp.prec) < 0) goto fail_arg;
                if (sp.prec < 0) sp.prec = 0;
                i++;
            } else if (pct_digits(f, n, &i, &sp.prec, true) < 0) {
                goto fail_arg;
            }
        }
        while (i < n && (f[i] == 'h' || f[i] == 'l' || f[i] == 'L')) i++;
        if (i >= n) {
            repl_raise_exc(EXC_ValueError, "incomplete format");
            goto fail_arg;
        }
        if (sp.width > (int64_t)REPL_STR_MAX) {
            repl_raise_exc(EXC_MemoryError, "%s", "");
            goto fail_arg;
        }
        char conv = f[i];
        if (!arg) {
            if (ai >= nargs) {
                repl_raise_exc(EXC_TypeError, "not enough arguments for format string");
                goto fail;
            }
            arg = tuple ? nn_tuple_get(args, ai) : args;
            ai++;
        }
        int rc;
        switch (conv) {
        case '%': repl_sb_add(&b, "%", 1); rc = 0; break;
        case 's': case 'r': case 'a': rc = pct_text(&b, &sp, conv, arg); break;
        case 'c': rc = pct_char(&b, &sp, arg); break;
        case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': rc = pct_int(&b, &sp, conv, arg); break;
        case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': rc = pct_float(&b, &sp, conv, arg); break;
        default:
            if ((unsigned char)conv < 0x80)
                rc = repl_raise_exc(EXC_ValueError, "unsupported format character '%c' (0x%x) at index %zu", conv,
                                    (unsigned)conv, i);
            else
                rc = repl_raise_exc(EXC_ValueError, "unsupported format character at index %zu", i);
        }
        NN_RELEASE(owned);
        if (rc < 0) goto fail;
        continue;
    fail_arg:
        NN_RELEASE(owned);
        goto fail;
    }
    if (ai < nargs && !mapping) {
        repl_raise_exc(EXC_TypeError, "not all arguments converted during string formatting");
        goto fail;
    }
    return repl_sb_str(&b);
fail:
    nn_free(b.buf);
    return NULL;
}
