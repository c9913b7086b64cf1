/*
 * source_text.c — a source file's bytes as the parser takes them, as CPython 3.11's
 * tokenizer reads a file (PEP 263, PEP 3120): a UTF-8 byte order mark is skipped;
 * a coding declaration on the first or second line (`# -*- coding: latin-1 -*-`)
 * names the encoding; without one the text must be UTF-8. nnscope decodes UTF-8
 * and Latin-1 (re-encoded as UTF-8); any other declared encoding is refused.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <utf8proc.h>

#include "repl.h"
#include "source_text.h"

/* The coding declaration's name in the line [s, end), or NULL: CPython's
   `^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)`. *len gets the name's length. */
static const char *declared(const char *s, const char *end, size_t *len)
{
    while (s < end && (*s == ' ' || *s == '\t' || *s == '\f')) s++;
    if (s == end || *s != '#') return NULL;
    for (const char *c = s; c + 7 <= end; c++) {
        if (memcmp(c, "coding", 6) || (c[6] != ':' && c[6] != '=')) continue;
        const char *n = c + 7;
        while (n < end && (*n == ' ' || *n == '\t')) n++;
        const char *e = n;
        while (e < end && (isalnum((unsigned char)*e) || *e == '-' || *e == '_' || *e == '.')) e++;
        if (e == n) continue;
        *len = (size_t)(e - n);
        return n;
    }
    return NULL;
}

/* Whether the line [s, end) holds only blanks or a comment (line 2 counts then). */
static bool blank_or_comment(const char *s, const char *end)
{
    while (s < end && (*s == ' ' || *s == '\t' || *s == '\f')) s++;
    return s == end || *s == '#' || *s == '\n' || *s == '\r';
}

typedef enum { ENC_UTF8, ENC_LATIN1, ENC_OTHER } encoding;

/* CPython's get_normal_name: its first 12 characters, lower case, '_' as '-'. */
static encoding encoding_of(const char *name, size_t len)
{
    char n[13];
    size_t k = len < 12 ? len : 12;
    for (size_t i = 0; i < k; i++) n[i] = name[i] == '_' ? '-' : (char)tolower((unsigned char)name[i]);
    n[k] = 0;
    if (!strcmp(n, "utf-8") || !strncmp(n, "utf-8-", 6) || !strcmp(n, "utf8")) return ENC_UTF8;
    static const char *const latin1[] = {"latin-1", "iso-8859-1", "iso-latin-1", "latin1", "l1", "iso8859-1"};
    for (size_t i = 0; i < sizeof latin1 / sizeof latin1[0]; i++) {
        size_t l = strlen(latin1[i]);
        if (!strcmp(n, latin1[i]) || (!strncmp(n, latin1[i], l) && n[l] == '-')) return ENC_LATIN1;
    }
    return ENC_OTHER;
}

static char *latin1_to_utf8(const char *s, size_t n)
{
    char *out = nn_malloc(2 * n + 1), *o = out;
    if (!out) return NULL;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80) *o++ = (char)c;
        else *o++ = (char)(0xc0 | (c >> 6)), *o++ = (char)(0x80 | (c & 0x3f));
    }
    *o = 0;
    return out;
}

const char *repl_source_text(const char *src, const char *filename, char **owned, char *msg, size_t msg_len)
{
    *owned = NULL;
    size_t n = strlen(src);
    bool bom = n >= 3 && !memcmp(src, "\xef\xbb\xbf", 3);
    if (bom) src += 3, n -= 3;
    /* a declaration on line 1, or on line 2 after a blank or comment line */
    const char *end1 = memchr(src, '\n', n), *name = NULL;
    end1 = end1 ? end1 : src + n;
    size_t name_len = 0;
    name = declared(src, end1, &name_len);
    if (!name && end1 < src + n && blank_or_comment(src, end1)) {
        const char *end2 = memchr(end1 + 1, '\n', (size_t)(src + n - end1 - 1));
        name = declared(end1 + 1, end2 ? end2 : src + n, &name_len);
    }
    encoding enc = name ? encoding_of(name, name_len) : ENC_UTF8;
    if (enc == ENC_OTHER || (bom && enc != ENC_UTF8)) {
        snprintf(msg, msg_len, bom ? "encoding problem: %.*s with BOM" : "encoding problem: %.*s", (int)name_len,
                 name);
        return NULL;
    }
    if (enc == ENC_LATIN1) {
        *owned = latin1_to_utf8(src, n);
        if (!*owned) msg[0] = 0;
        return *owned;
    }
    int line = 1;
    for (size_t i = 0; i < n;) {
        utf8proc_int32_t cp;
        utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)src + i, (utf8proc_ssize_t)(n - i), &cp);
        if (k < 0) {
            snprintf(msg, msg_len,
                     "Non-UTF-8 code starting with '\\x%02x' in file %s on line %d, but no encoding declared; see "
                     "https://peps.python.org/pep-0263/ for details",
                     (unsigned char)src[i], filename, line);
            return NULL;
        }
        if (cp == '\n') line++;
        i += (size_t)k;
    }
    return src;
}
