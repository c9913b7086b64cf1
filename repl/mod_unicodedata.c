/*
 * mod_unicodedata.c — `import unicodedata` as CPython 3.11's: the Unicode
 * Character Database 14.0.0 through GNU libunistring 1.0, whose tables are
 * that same version (utf8proc, which str's methods use, follows a newer
 * Unicode and has no character names): category, bidirectional, combining,
 * mirrored (utf8proc's table: libunistring has none), decimal/digit/numeric, decomposition, name/lookup, normalize and
 * is_normalized, unidata_version. east_asian_width and ucd_3_2_0 are not
 * provided (libunistring has no East Asian Width table).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uninorm.h>
#include <unictype.h>
#include <unistr.h>
#include <utf8proc.h>

#include "bind_int.h"
#include "bytes_int.h"
#include "stdlib_int.h"
#include "unicode_int.h"

/* The one code point of a str of length one, into *cp; else TypeError
   "fname() argument must be a unicode character, not str" as CPython's. A lone
   surrogate is kept by the language as ED A0..BF 80..BF (the UTF-8 form
   CPython's surrogatepass writes), which libunistring refuses: decoded here. */
static int one_char(const char *fname, nn_object *o, ucs4_t *cp)
{
    if (nn_is_str(o)) {
        const uint8_t *s = (const uint8_t *)nn_str_cstr(o);
        size_t n = nn_str_len(o);
        int k = 0;
        if (n == 3 && s[0] == 0xed && s[1] >= 0xa0 && s[1] <= 0xbf && (s[2] & 0xc0) == 0x80) {
            *cp = 0xd000 | (ucs4_t)(s[1] & 0x3f) << 6 | (ucs4_t)(s[2] & 0x3f);
            k = 3;
        } else if (n) {
            k = u8_mbtouc(cp, s, n);
        }
        if (n && (size_t)k == n) return 0;
    }
    return repl_raise_exc(EXC_TypeError, "%s() argument must be a unicode character, not %s", fname,
                          repl_type_name(o));
}

/* The argument count check with CPython's messages, which name the module in
   some and not in others. The count, or -1. */
static int nargs(const char *fname, nn_object *args, nn_object *kwargs, int min, int max)
{
    char qualified[48];
    snprintf(qualified, sizeof qualified, "unicodedata.%s", fname);
    if (kwargs && nn_dict_len(kwargs)) return repl_raise_exc(EXC_TypeError, "%s() takes no keyword arguments", qualified);
    int n = (int)nn_tuple_len(args);
    return repl_check_arity(min == 1 && max == 1 ? qualified : fname, n, min, max) < 0 ? -1 : n;
}

/* The character argument of a function of one argument, or of two where the
   second is a default. 0 or -1. */
static int char_arg(const char *fname, nn_object *args, nn_object *kwargs, int max, ucs4_t *cp)
{
    if (nargs(fname, args, kwargs, 1, max) < 0) return -1;
    return one_char(fname, nn_tuple_get(args, 0), cp);
}

/* v (taken), else the default argument when given, else ValueError(message) */
static nn_object *value_or_default(nn_object *v, nn_object *args, const char *message)
{
    if (v) return v;
    if (nn_tuple_len(args) > 1) return nn_retain(nn_tuple_get(args, 1));
    repl_raise_exc(EXC_ValueError, "%s", message);
    return NULL;
}

static bool unassigned(ucs4_t cp) { return uc_is_general_category(cp, UC_CATEGORY_Cn); }

static nn_object *h_category(void *ud, nn_object *args, nn_object *kwargs)
{
    ucs4_t cp;
    if (char_arg("category", args, kwargs, 1, &cp) < 0) return NULL;
    return nn_str_new(uc_general_category_name(uc_general_category(cp)));
}

static nn_object *h_bidirectional(void *ud, nn_object *args, nn_object *kwargs)
{
    ucs4_t cp;
    if (char_arg("bidirectional", args, kwargs, 1, &cp) < 0) return NULL;
    /* CPython's database gives unassigned code points no class (''), where
       libunistring gives their block's default (R in Hebrew, ...) */
    static const char *const names[] = {"L",  "LRE", "LRO", "R",  "AL", "RLE", "RLO", "PDF", "EN",  "ES",  "ET", "AN",
                                        "CS", "NSM", "BN",  "B",  "S",  "WS",  "ON",  "LRI", "RLI", "FSI", "PDI"};
    /* (libunistring's uc_bidi_category_name stops before LRI..PDI, added in Unicode 6.3) */
    int c = uc_bidi_category(cp);
    return nn_str_new(unassigned(cp) || c < 0 || c >= (int)(sizeof names / sizeof *names) ? "" : names[c]);
}

static nn_object *h_combining(void *ud, nn_object *args, nn_object *kwargs)
{
    ucs4_t cp;
    if (char_arg("combining", args, kwargs, 1, &cp) < 0) return NULL;
    return nn_int_new(uc_combining_class(cp));
}

static nn_object *h_mirrored(void *ud, nn_object *args, nn_object *kwargs)
{
    ucs4_t cp;
    if (char_arg("mirrored", args, kwargs, 1, &cp) < 0) return NULL;
    /* libunistring has no Bidi_Mirrored table: utf8proc's (a newer Unicode),
       for the characters Unicode 14.0 assigns */
    return nn_int_new(!unassigned(cp) && utf8proc_get_property((utf8proc_int32_t)cp)->bidi_mirrored);
}

/* decimal(c[, default]) / digit(c[, default]) */
static nn_object *digit_value(const char *fname, nn_object *args, nn_object *kwargs, int (*value)(ucs4_t),
                              const char *message)
{
    ucs4_t cp;
    if (char_arg(fname, args, kwargs, 2, &cp) < 0) return NULL;
    int v = value(cp);
    if (v >= 0) return nn_int_new(v);
    return value_or_default(NULL, args, message);
}

static nn_object *h_decimal(void *ud, nn_object *args, nn_object *kwargs)
{
    return digit_value("decimal", args, kwargs, uc_decimal_value, "not a decimal");
}

static nn_object *h_digit(void *ud, nn_object *args, nn_object *kwargs)
{
    return digit_value("digit", args, kwargs, uc_digit_value, "not a digit");
}

static nn_object *h_numeric(void *ud, nn_object *args, nn_object *kwargs)
{
    ucs4_t cp;
    if (char_arg("numeric", args, kwargs, 2, &cp) < 0) return NULL;
    /* the values libunistring lacks (the Han numerals', from Unihan) or
       overflows (those of 2**31 or more) */
    for (size_t i = 0; i < repl_uc_numeric_value_len; i++)
        if (repl_uc_numeric_value[i].cp == cp) return nn_float_new(repl_uc_numeric_value[i].value);
    uc_fraction_t f = uc_numeric_value(cp);
    if (f.denominator) return nn_float_new((double)f.numerator / f.denominator);
    return value_or_default(NULL, args, "not a numeric character");
}

/* decomposition(c): CPython's text of the one-level mapping, "<compat> 0020 0308" */
static nn_object *h_decomposition(void *ud, nn_object *args, nn_object *kwargs)
{
    static const char *const tags[] = {
        [UC_DECOMP_FONT] = "<font>",       [UC_DECOMP_NOBREAK] = "<noBreak>", [UC_DECOMP_INITIAL] = "<initial>",
        [UC_DECOMP_MEDIAL] = "<medial>",   [UC_DECOMP_FINAL] = "<final>",     [UC_DECOMP_ISOLATED] = "<isolated>",
        [UC_DECOMP_CIRCLE] = "<circle>",   [UC_DECOMP_SUPER] = "<super>",     [UC_DECOMP_SUB] = "<sub>",
        [UC_DECOMP_VERTICAL] = "<vertical>", [UC_DECOMP_WIDE] = "<wide>",     [UC_DECOMP_NARROW] = "<narrow>",
        [UC_DECOMP_SMALL] = "<small>",     [UC_DECOMP_SQUARE] = "<square>",   [UC_DECOMP_FRACTION] = "<fraction>",
        [UC_DECOMP_COMPAT] = "<compat>",
    };
    ucs4_t cp, parts[UC_DECOMPOSITION_MAX_LENGTH];
    if (char_arg("decomposition", args, kwargs, 1, &cp) < 0) return NULL;
    /* CPython's table has no entry for the Hangul syllables, whose
       decomposition is algorithmic */
    int tag, n = cp >= 0xac00 && cp <= 0xd7a3 ? -1 : uc_decomposition(cp, &tag, parts);
    sbuf b = {0};
    if (n > 0 && tag != UC_DECOMP_CANONICAL && tag >= 0 && (size_t)tag < sizeof tags / sizeof *tags && tags[tag])
        repl_sb_puts(&b, tags[tag]);
    for (int i = 0; i < n; i++) repl_sb_printf(&b, "%s%04X", b.len ? " " : "", (unsigned)parts[i]);
    return repl_sb_str(&b);
}

static nn_object *h_name(void *ud, nn_object *args, nn_object *kwargs)
{
    ucs4_t cp;
    if (char_arg("name", args, kwargs, 2, &cp) < 0) return NULL;
    char buf[REPL_UC_NAME_MAX];
    if (repl_uc_name(cp, buf)) return nn_str_new(buf);
    return value_or_default(NULL, args, "no such name");
}

/* lookup(name): name is a str or, as CPython takes it, bytes */
static nn_object *h_lookup(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nargs("lookup", args, kwargs, 1, 1) < 0) return NULL;
    nn_object *arg = nn_tuple_get(args, 0);
    const char *name;
    size_t n;
    if (nn_is_str(arg)) {
        name = nn_str_cstr(arg);
        n = nn_str_len(arg);
    } else if (repl_bytes_buffer(arg, (const unsigned char **)&name, &n) < 0) {
        return NULL;
    }
    int32_t cp = repl_uc_lookup(name, n);
    uint8_t buf[4];
    int k = cp < 0 ? 0 : u8_uctomb(buf, (ucs4_t)cp, (int)sizeof buf);
    if (k > 0) return nn_str_from((const char *)buf, (size_t)k);
    nn_object *shown = nn_str_from(name, n);
    if (shown) repl_raise_exc(EXC_KeyError, "undefined character name '%s'", nn_str_cstr(shown));
    NN_RELEASE(shown);
    return NULL;
}

/* the normalization form named form, or NULL with CPython's ValueError */
static uninorm_t form_of(nn_object *form)
{
    const char *f = nn_str_cstr(form);
    if (!strcmp(f, "NFC")) return UNINORM_NFC;
    if (!strcmp(f, "NFD")) return UNINORM_NFD;
    if (!strcmp(f, "NFKC")) return UNINORM_NFKC;
    if (!strcmp(f, "NFKD")) return UNINORM_NFKD;
    repl_raise_exc(EXC_ValueError, "%s", "invalid normalization form");
    return NULL;
}

/* the form and the text of normalize(form, unistr) / is_normalized, checked
   as CPython checks them. 0 or -1. */
static int norm_args(const char *fname, nn_object *args, nn_object *kwargs, uninorm_t *form, nn_object **text)
{
    if (nargs(fname, args, kwargs, 2, 2) < 0) return -1;
    for (int i = 0; i < 2; i++)
        if (!nn_is_str(nn_tuple_get(args, (size_t)i)))
            return repl_raise_exc(EXC_TypeError, "%s() argument %d must be str, not %s", fname, i + 1,
                                  repl_type_name(nn_tuple_get(args, (size_t)i)));
    *text = nn_tuple_get(args, 1);
    return (*form = form_of(nn_tuple_get(args, 0))) ? 0 : -1;
}

static bool surrogate_at(const uint8_t *s, size_t n, size_t i)
{
    return n - i >= 3 && s[i] == 0xed && s[i + 1] >= 0xa0 && s[i + 1] <= 0xbf && (s[i + 2] & 0xc0) == 0x80;
}

/* text in form: a new str, or NULL with MemoryError. libunistring refuses the
   language's lone surrogates (see one_char); they neither compose nor reorder,
   so the runs between them are normalized on their own. */
static nn_object *normalized(uninorm_t form, nn_object *text)
{
    const uint8_t *s = (const uint8_t *)nn_str_cstr(text);
    size_t n = nn_str_len(text), start = 0;
    sbuf b = {0};
    for (size_t i = 0; i <= n; i++) {
        bool surrogate = i < n && surrogate_at(s, n, i);
        if (i < n && !surrogate) continue;
        size_t m = 0;
        uint8_t *r = i > start ? u8_normalize(form, s + start, i - start, NULL, &m) : NULL;
        if (r) repl_sb_add(&b, (const char *)r, m);
        else if (i > start) b.failed = true;
        free(r);
        if (surrogate) repl_sb_add(&b, (const char *)s + i, 3);
        start = i + 3;
        i += 2;
    }
    return repl_sb_str(&b);
}

static nn_object *h_normalize(void *ud, nn_object *args, nn_object *kwargs)
{
    uninorm_t form;
    nn_object *text;
    if (norm_args("normalize", args, kwargs, &form, &text) < 0) return NULL;
    return normalized(form, text);
}

static nn_object *h_is_normalized(void *ud, nn_object *args, nn_object *kwargs)
{
    uninorm_t form;
    nn_object *text;
    if (norm_args("is_normalized", args, kwargs, &form, &text) < 0) return NULL;
    nn_object *s = normalized(form, text);
    if (!s) return NULL;
    bool same = nn_str_len(s) == nn_str_len(text) && !memcmp(nn_str_cstr(s), nn_str_cstr(text), nn_str_len(s));
    NN_RELEASE(s);
    return nn_bool_new(same);
}

static const repl_mod_fn helpers[] = {
    {"category", h_category, "category(chr, /)\nReturns the general category assigned to the character chr as string."},
    {"bidirectional", h_bidirectional, "bidirectional(chr, /)\nReturns the bidirectional class assigned to the character chr as string."},
    {"combining", h_combining, "combining(chr, /)\nReturns the canonical combining class assigned to the character chr as integer."},
    {"mirrored", h_mirrored, "mirrored(chr, /)\nReturns the mirrored property assigned to the character chr as integer."},
    {"decomposition", h_decomposition, "decomposition(chr, /)\nReturns the character decomposition mapping assigned to the character chr as string."},
    {"normalize", h_normalize, "normalize(form, unistr, /)\nReturn the normal form 'form' for the Unicode string unistr."},
    {"is_normalized", h_is_normalized, "is_normalized(form, unistr, /)\nReturn whether the Unicode string unistr is in the normal form 'form'."},
    {"decimal", h_decimal, "decimal(chr, default=<unrepresentable>, /)\nConverts a Unicode character into its equivalent decimal value."},
    {"digit", h_digit, "digit(chr, default=<unrepresentable>, /)\nConverts a Unicode character into its equivalent digit value."},
    {"numeric", h_numeric, "numeric(chr, default=<unrepresentable>, /)\nConverts a Unicode character into its equivalent numeric value."},
    {"name", h_name, "name(chr, default=<unrepresentable>, /)\nReturns the name assigned to the character chr as a string."},
    {"lookup", h_lookup, "lookup(name, /)\nLook up character by name."},
};

static const char source[] = "unidata_version = '14.0.0'\n";

nn_object *repl_mod_unicodedata(void)
{
    return repl_mod_from_source("unicodedata", helpers, sizeof helpers / sizeof *helpers, source);
}
