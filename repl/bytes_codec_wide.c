/*
 * bytes_codec_wide.c — the UTF-16 and UTF-32 codecs of str.encode and
 * bytes.decode (utf-16, utf-16-le, utf-16-be, utf-32, utf-32-le, utf-32-be
 * and Python's aliases), as CPython's: the plain names write a byte-order mark
 * (little-endian) and read one if it is there (else little-endian); errors
 * strict, ignore, replace, backslashreplace and surrogatepass, with CPython's
 * messages ("'utf-16-le' codec can't decode byte 0x31 in position 2:
 * truncated data"). The language's str is UTF-8 and keeps a lone surrogate as
 * its three bytes, as '\ud83d' is kept. Also utf-8-sig (UTF-8 after a mark,
 * written always, read if there) as width 1.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "bytes_int.h"

/* 2 or 4 bytes a unit; order 0: by the byte-order mark (little-endian without
   one), 1 little-endian, 2 big-endian. 0 if name is none of these. */
int repl_wide_codec(const char *name, int *width, int *order)
{
    char n[32];
    size_t k = 0;
    for (; name[k] && k < sizeof n - 1; k++) n[k] = name[k] == '_' || name[k] == ' ' ? '-' : (char)tolower((unsigned char)name[k]);
    n[k] = 0;
    if (name[k]) return 0;
    static const struct { const char *alias; int width, order; } names[] = {
        {"utf-16", 2, 0},    {"utf16", 2, 0},     {"u16", 2, 0},       {"utf-16-le", 2, 1}, {"utf-16le", 2, 1},
        {"utf-16-be", 2, 2}, {"utf-16be", 2, 2},  {"utf-32", 4, 0},    {"utf32", 4, 0},     {"u32", 4, 0},
        {"utf-32-le", 4, 1}, {"utf-32le", 4, 1},  {"utf-32-be", 4, 2}, {"utf-32be", 4, 2},  {"utf-8-sig", 1, 0},
        {"utf8-sig", 1, 0},
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(n, names[i].alias)) {
            *width = names[i].width;
            *order = names[i].order;
            return 1;
        }
    return 0;
}

/* What a codec wrote into b, as str / bytes (b is finished). */
nn_object *repl_codec_str(sbuf *b)
{
    size_t len = b->len;
    char *out = repl_sb_finish(b);
    if (!out && len == 0 && !b->failed) return nn_str_new("");
    nn_object *r = out ? nn_str_from(out, len) : NULL;
    nn_free(out);
    return r;
}

nn_object *repl_codec_bytes(sbuf *b)
{
    size_t len = b->len;
    char *out = repl_sb_finish(b);
    if (!out && len == 0 && !b->failed) return repl_bytes_new(NULL, 0, false);
    nn_object *r = out ? repl_bytes_new(out, len, false) : NULL;
    nn_free(out);
    return r;
}

static const char *canon_name(int width, int order)
{
    static const char *const names[2][3] = {{"utf-16", "utf-16-le", "utf-16-be"}, {"utf-32", "utf-32-le", "utf-32-be"}};
    return names[width == 4][order];
}

static void put_unit(sbuf *b, unsigned long u, int width, bool big)
{
    unsigned char o[4];
    for (int k = 0; k < width; k++) o[big ? width - 1 - k : k] = (unsigned char)(u >> (8 * k));
    repl_sb_add(b, (const char *)o, (size_t)width);
}

void repl_put_utf8(sbuf *b, unsigned long cp)
{
    char o[4];
    size_t k;
    if (cp < 0x80) o[0] = (char)cp, k = 1;
    else if (cp < 0x800) o[0] = (char)(0xC0 | cp >> 6), o[1] = (char)(0x80 | (cp & 0x3F)), k = 2;
    else if (cp < 0x10000)
        o[0] = (char)(0xE0 | cp >> 12), o[1] = (char)(0x80 | (cp >> 6 & 0x3F)), o[2] = (char)(0x80 | (cp & 0x3F)), k = 3;
    else
        o[0] = (char)(0xF0 | cp >> 18), o[1] = (char)(0x80 | (cp >> 12 & 0x3F)), o[2] = (char)(0x80 | (cp >> 6 & 0x3F)),
        o[3] = (char)(0x80 | (cp & 0x3F)), k = 4;
    repl_sb_add(b, o, k);
}

static bool known_errors(const char *errors)
{
    static const char *const names[] = {"strict", "ignore", "replace", "backslashreplace", "surrogatepass", "xmlcharrefreplace"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(errors, names[i])) return true;
    repl_raise_exc(EXC_LookupError, "unknown error handler name '%s'", errors);
    return false;
}

nn_object *repl_wide_encode(const char *str, size_t n, int width, int order, const char *errors)
{
    if (!errors) errors = "strict"; /* looked up only when needed, as CPython does */
    const unsigned char *s = (const unsigned char *)str;
    bool big = order == 2;
    sbuf b = {0};
    if (width == 1) { /* utf-8-sig */
        repl_sb_add(&b, "\xef\xbb\xbf", 3);
        repl_sb_add(&b, str, n);
        return repl_codec_bytes(&b);
    }
    if (order == 0) put_unit(&b, 0xFEFF, width, false);
    size_t pos = 0;
    for (size_t i = 0; i < n; pos++) {
        unsigned long c = s[i];
        int extra = c < 0x80 ? 0 : c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;
        if (extra) c &= 0x3F >> extra;
        i++;
        for (int k = 0; k < extra && i < n; k++) c = c << 6 | (s[i++] & 0x3F);
        if (c >= 0xD800 && c < 0xE000 && strcmp(errors, "surrogatepass") != 0) {
            if (!strcmp(errors, "ignore")) continue;
            if (!strcmp(errors, "replace")) {
                put_unit(&b, '?', width, big);
                continue;
            }
            if (!strcmp(errors, "backslashreplace") || !strcmp(errors, "xmlcharrefreplace")) {
                char esc[16];
                int m = errors[0] == 'b' ? snprintf(esc, sizeof esc, "\\u%04lx", c) : snprintf(esc, sizeof esc, "&#%lu;", c);
                for (int k = 0; k < m; k++) put_unit(&b, (unsigned char)esc[k], width, big);
                continue;
            }
            nn_free(repl_sb_finish(&b));
            if (!known_errors(errors)) return NULL;
            repl_raise_exc(EXC_UnicodeEncodeError, "'%s' codec can't encode character '\\u%04lx' in position %zu: surrogates not allowed",
                           canon_name(width, order), c, pos);
            return NULL;
        }
        if (width == 2 && c >= 0x10000) {
            put_unit(&b, 0xD800 | ((c - 0x10000) >> 10), 2, big);
            put_unit(&b, 0xDC00 | ((c - 0x10000) & 0x3FF), 2, big);
        } else {
            put_unit(&b, c, width, big);
        }
    }
    return repl_codec_bytes(&b);
}

static unsigned long unit_at(const unsigned char *p, int width, bool big)
{
    unsigned long u = 0;
    for (int k = 0; k < width; k++) u |= (unsigned long)p[big ? width - 1 - k : k] << (8 * k);
    return u;
}

nn_object *repl_wide_decode(const unsigned char *p, size_t n, int width, int order, const char *errors)
{
    if (!errors) errors = "strict"; /* looked up only when needed, as CPython does */
    size_t i = 0;
    if (width == 1) /* utf-8-sig */
        return n >= 3 && !memcmp(p, "\xef\xbb\xbf", 3) ? repl_bytes_decode(p + 3, n - 3, "utf-8", errors)
                                                        : repl_bytes_decode(p, n, "utf-8", errors);
    if (order == 0) { /* the byte-order mark, read and dropped */
        order = 1;
        if (n >= (size_t)width && unit_at(p, width, false) == 0xFEFF) i = (size_t)width;
        else if (n >= (size_t)width && unit_at(p, width, true) == 0xFEFF) i = (size_t)width, order = 2;
    }
    bool big = order == 2, pass = !strcmp(errors, "surrogatepass");
    const char *canon = canon_name(width, order);
    sbuf b = {0};
    while (i < n) {
        size_t bad = 0;
        const char *why = NULL;
        if (n - i < (size_t)width) {
            bad = n - i, why = "truncated data";
        } else {
            unsigned long u = unit_at(p + i, width, big);
            if (width == 4) {
                if (u > 0x10FFFF) bad = 4, why = "code point not in range(0x110000)";
                else if (u >= 0xD800 && u < 0xE000 && !pass) bad = 4, why = "code point in surrogate code point range(0xd800, 0xe000)";
                else repl_put_utf8(&b, u), i += 4;
            } else if (u >= 0xD800 && u < 0xDC00) {
                unsigned long lo = n - i >= 4 ? unit_at(p + i + 2, 2, big) : 0;
                if (lo >= 0xDC00 && lo < 0xE000) repl_put_utf8(&b, 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00)), i += 4;
                else if (pass) repl_put_utf8(&b, u), i += 2;
                else if (n - i < 4) bad = n - i, why = "unexpected end of data";
                else bad = 2, why = "illegal UTF-16 surrogate";
            } else if (u >= 0xDC00 && u < 0xE000 && !pass) {
                bad = 2, why = "illegal encoding";
            } else {
                repl_put_utf8(&b, u), i += 2;
            }
        }
        if (!bad) continue;
        if (!known_errors(errors)) {
            nn_free(repl_sb_finish(&b));
            return NULL;
        }
        if (!strcmp(errors, "strict") || pass) {
            nn_free(repl_sb_finish(&b));
            if (bad == 1)
                repl_raise_exc(EXC_UnicodeDecodeError, "'%s' codec can't decode byte 0x%02x in position %zu: %s", canon, p[i], i, why);
            else
                repl_raise_exc(EXC_UnicodeDecodeError, "'%s' codec can't decode bytes in position %zu-%zu: %s", canon, i, i + bad - 1,
                               why);
            return NULL;
        }
        if (!strcmp(errors, "replace")) repl_put_utf8(&b, 0xFFFD);
        else if (!strcmp(errors, "backslashreplace"))
            for (size_t k = 0; k < bad; k++) repl_sb_printf(&b, "\\x%02x", p[i + k]);
        i += bad;
    }
    return repl_codec_str(&b);
}
