/*
 * bytes_codec.c — str.encode and bytes.decode for the codecs scripts use:
 * utf-8, ascii and latin-1 (with Python's aliases), and the error handlers
 * strict, ignore, replace, backslashreplace (and xmlcharrefreplace when
 * encoding), raising UnicodeEncodeError / UnicodeDecodeError with CPython's
 * messages ("'utf-8' codec can't decode byte 0xff in position 0: invalid start
 * byte"). The language's str is UTF-8, so utf-8 is a validated copy.
 * UTF-16 and UTF-32: bytes_codec_wide.c.
 */
#include <ctype.h>
#include <string.h>

#include "bytes_int.h"

typedef enum { ENC_UTF8, ENC_ASCII, ENC_LATIN1 } enc_kind;
typedef enum { ERR_STRICT, ERR_IGNORE, ERR_REPLACE, ERR_BACKSLASH, ERR_XMLREF, ERR_UNKNOWN, ERR_SURROGATEPASS } err_kind;

/* Python's normalisation: lower case, '_' and ' ' as '-' */
static int lookup(const char *name, enc_kind *out, const char **canon)
{
    char n[32];
    size_t k = 0;
    for (; name[k] && k < sizeof n - 1; k++) n[k] = name[k] == '_' || name[k] == ' ' ? '-' : (char)tolower((unsigned char)name[k]);
    n[k] = 0;
    static const struct { const char *alias; enc_kind kind; } names[] = {
        {"utf-8", ENC_UTF8}, {"utf8", ENC_UTF8}, {"u8", ENC_UTF8}, {"utf", ENC_UTF8}, {"cp65001", ENC_UTF8},
        {"ascii", ENC_ASCII}, {"us-ascii", ENC_ASCII}, {"646", ENC_ASCII},
        {"latin-1", ENC_LATIN1}, {"latin1", ENC_LATIN1}, {"iso-8859-1", ENC_LATIN1}, {"iso8859-1", ENC_LATIN1},
        {"l1", ENC_LATIN1}, {"latin", ENC_LATIN1}, {"cp819", ENC_LATIN1}, {"8859", ENC_LATIN1},
    };
    if (name[k] == 0)
        for (size_t i = 0; i < sizeof names / sizeof *names; i++)
            if (!strcmp(n, names[i].alias)) {
                *out = names[i].kind;
                *canon = names[i].kind == ENC_UTF8 ? "utf-8" : names[i].kind == ENC_ASCII ? "ascii" : "latin-1";
                return 0;
            }
    return repl_raise_exc(EXC_LookupError, "unknown encoding: %s", name);
}

static err_kind error_kind(const char *errors)
{
    if (!errors || !strcmp(errors, "strict")) return ERR_STRICT;
    if (!strcmp(errors, "ignore")) return ERR_IGNORE;
    if (!strcmp(errors, "replace")) return ERR_REPLACE;
    if (!strcmp(errors, "backslashreplace")) return ERR_BACKSLASH;
    if (!strcmp(errors, "xmlcharrefreplace")) return ERR_XMLREF;
    if (!strcmp(errors, "surrogatepass")) return ERR_SURROGATEPASS; /* else strict */
    return ERR_UNKNOWN;
}

/* Next code point of UTF-8 text at *i (the language's strings are valid UTF-8). */
static unsigned long next_cp(const unsigned char *s, size_t n, size_t *i)
{
    unsigned long c = s[*i];
    int extra = c < 0x80 ? 0 : c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;
    if (extra) c &= 0x3F >> extra;
    (*i)++;
    for (int k = 0; k < extra && *i < n; k++) c = c << 6 | (s[(*i)++] & 0x3F);
    return c;
}

static void put_utf8(sbuf *b, unsigned long cp) { repl_put_utf8(b, cp); }

static void char_escape(sbuf *b, unsigned long cp)
{
    if (cp < 0x100) repl_sb_printf(b, "\\x%02lx", cp);
    else if (cp < 0x10000) repl_sb_printf(b, "\\u%04lx", cp);
    else repl_sb_printf(b, "\\U%08lx", cp);
}

nn_object *repl_str_encode(const char *str, size_t n, const char *encoding, const char *errors)
{
    enc_kind kind;
    const char *canon;
    int width, order;
    if (encoding && repl_wide_codec(encoding, &width, &order)) return repl_wide_encode(str, n, width, order, errors);
    if (lookup(encoding ? encoding : "utf-8", &kind, &canon) < 0) return NULL;
    const unsigned char *s = (const unsigned char *)str;
    if (kind == ENC_UTF8) return repl_bytes_new(s, n, false);
    unsigned long limit = kind == ENC_ASCII ? 0x80 : 0x100;
    err_kind ek = error_kind(errors);
    sbuf b = {0};
    size_t pos = 0; /* character index, as CPython reports it */
    for (size_t i = 0; i < n; pos++) {
        unsigned long cp = next_cp(s, n, &i);
        if (cp < limit) {
            char c = (char)cp;
            repl_sb_add(&b, &c, 1);
            continue;
        }
        if (ek == ERR_STRICT || ek == ERR_UNKNOWN || ek == ERR_SURROGATEPASS) {
            /* the run of characters it cannot encode, as CPython's message counts them */
            size_t j = i, end = pos + 1;
            while (j < n) {
                size_t k = j;
                if (next_cp(s, n, &k) < limit) break;
                j = k;
                end++;
            }
            nn_free(repl_sb_finish(&b));
            if (ek == ERR_UNKNOWN) {
                repl_raise_exc(EXC_LookupError, "unknown error handler name '%s'", errors);
                return NULL;
            }
            sbuf m = {0};
            char *ch;
            if (end - pos == 1) {
                repl_sb_puts(&m, "");
                char_escape(&m, cp);
                ch = repl_sb_finish(&m);
                repl_raise_exc(EXC_UnicodeEncodeError, "'%s' codec can't encode character '%s' in position %zu: ordinal not in range(%lu)",
                               canon, ch ? ch : "?", pos, limit);
            } else {
                ch = NULL;
                repl_raise_exc(EXC_UnicodeEncodeError, "'%s' codec can't encode characters in position %zu-%zu: ordinal not in range(%lu)",
                               canon, pos, end - 1, limit);
            }
            nn_free(ch);
            return NULL;
        }
        if (ek == ERR_REPLACE) repl_sb_add(&b, "?", 1);
        else if (ek == ERR_BACKSLASH) char_escape(&b, cp);
        else if (ek == ERR_XMLREF) repl_sb_printf(&b, "&#%lu;", cp);
    }
    return repl_codec_bytes(&b);
}

/* The length of the valid UTF-8 sequence at p[0..n), or 0 with *bad the count of
   bytes of the maximal invalid prefix (CPython replaces each with one U+FFFD)
   and *why its reason. */
static size_t utf8_seq(const unsigned char *p, size_t n, size_t *bad, const char **why)
{
    unsigned char c = p[0];
    if (c < 0x80) return 1;
    int extra;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) extra = 1;
    else if (c >= 0xE0 && c <= 0xEF) {
        extra = 2;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        extra = 3;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else {
        *bad = 1;
        *why = "invalid start byte";
        return 0;
    }
    for (int k = 1; k <= extra; k++) {
        if ((size_t)k >= n) {
            *bad = (size_t)k;
            *why = "unexpected end of data";
            return 0;
        }
        unsigned char d = p[k];
        bool ok = k == 1 ? d >= lo && d <= hi : d >= 0x80 && d <= 0xBF;
        if (!ok) {
            *bad = (size_t)k;
            *why = "invalid continuation byte";
            return 0;
        }
    }
    return (size_t)extra + 1;
}

nn_object *repl_bytes_decode(const unsigned char *p, size_t n, const char *encoding, const char *errors)
{
    enc_kind kind;
    const char *canon;
    int width, order;
    if (encoding && repl_wide_codec(encoding, &width, &order)) return repl_wide_decode(p, n, width, order, errors);
    if (lookup(encoding ? encoding : "utf-8", &kind, &canon) < 0) return NULL;
    err_kind ek = error_kind(errors);
    sbuf b = {0};
    for (size_t i = 0; i < n;) {
        size_t bad = 0, ok;
        const char *why = "ordinal not in range(128)";
        if (kind == ENC_LATIN1 || p[i] < 0x80) ok = 1;
        else if (kind == ENC_ASCII) ok = 0, bad = 1;
        else ok = utf8_seq(p + i, n - i, &bad, &why);
        if (!ok && ek == ERR_SURROGATEPASS && p[i] == 0xED && n - i >= 3 && p[i + 1] >= 0xA0 && p[i + 1] <= 0xBF &&
            p[i + 2] >= 0x80 && p[i + 2] <= 0xBF)
            ok = 3; /* a surrogate, kept as str keeps it */
        if (ok) {
            if (kind == ENC_LATIN1) put_utf8(&b, p[i]);
            else repl_sb_add(&b, (const char *)p + i, ok);
            i += ok;
            continue;
        }
        if (ek == ERR_STRICT || ek == ERR_UNKNOWN || ek == ERR_SURROGATEPASS) {
            nn_free(repl_sb_finish(&b));
            if (ek == ERR_UNKNOWN) repl_raise_exc(EXC_LookupError, "unknown error handler name '%s'", errors);
            else if (bad == 1)
                repl_raise_exc(EXC_UnicodeDecodeError, "'%s' codec can't decode byte 0x%02x in position %zu: %s", canon, p[i], i, why);
            else
                repl_raise_exc(EXC_UnicodeDecodeError, "'%s' codec can't decode bytes in position %zu-%zu: %s", canon, i,
                               i + bad - 1, why);
            return NULL;
        }
        if (ek == ERR_REPLACE) put_utf8(&b, 0xFFFD);
        else if (ek == ERR_BACKSLASH || ek == ERR_XMLREF)
            for (size_t k = 0; k < bad; k++) repl_sb_printf(&b, "\\x%02x", p[i + k]);
        i += bad;
    }
    return repl_codec_str(&b);
}
