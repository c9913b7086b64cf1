/*
 * unicode.c — str's case mapping (upper, lower, capitalize, title, swapcase,
 * casefold) and character classes (isalpha, isdigit, ...) for all of Unicode,
 * as CPython 3.11's: utf8proc (libutf8proc) gives each code point's category
 * and its one-code-point case mappings, the generated tables of
 * unicode_tables.c the mappings to several code points ('ß'.upper() is 'SS'),
 * casefold where it is not lower, the digits and numerics beyond Nd, the
 * Lowercase/Uppercase properties and the identifier characters.
 * Greek capital sigma lowers to the final form 'ς' at the end of a word, as
 * CPython's. builtins.c keeps its own loops for ASCII text.
 * utf8proc's Unicode may be newer than CPython 3.11's (14.0): characters added
 * since then are classified, where CPython would not.
 */
#include <utf8proc.h>

#include "eval_int.h"
#include "unicode_int.h"

static const repl_uc_map *find_map(const repl_uc_map *t, size_t n, uint32_t cp)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (t[mid].cp == cp) return &t[mid];
        if (t[mid].cp < cp) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

static bool in_ranges(const repl_uc_range *t, size_t n, uint32_t cp)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (cp < t[mid].lo) hi = mid;
        else if (cp > t[mid].hi) lo = mid + 1;
        else return true;
    }
    return false;
}

static void put(sbuf *b, int32_t cp)
{
    utf8proc_uint8_t buf[4];
    utf8proc_ssize_t k = utf8proc_encode_char(cp, buf);
    repl_sb_add(b, (const char *)buf, (size_t)k);
}

static void put_map(sbuf *b, const repl_uc_map *m)
{
    for (int i = 0; i < 3 && m->to[i]; i++) put(b, (int32_t)m->to[i]);
}

/* the next code point of s[*i..n) (a lone surrogate, as the language keeps one:
   ED A0..BF 80..BF); a bad byte stands for itself */
static int32_t next_cp(const char *s, size_t n, size_t *i)
{
    int32_t cp;
    const unsigned char *u = (const unsigned char *)s + *i;
    if (n - *i >= 3 && u[0] == 0xed && u[1] >= 0xa0 && u[1] <= 0xbf && (u[2] & 0xc0) == 0x80) {
        *i += 3;
        return 0xd000 | (u[1] & 0x3f) << 6 | (u[2] & 0x3f);
    }
    utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s + *i, (utf8proc_ssize_t)(n - *i), &cp);
    if (k <= 0) {
        cp = (unsigned char)s[*i];
        k = 1;
    }
    *i += (size_t)k;
    return cp;
}

static bool is_lower(int32_t cp) { return in_ranges(repl_uc_lowercase, repl_uc_lowercase_len, (uint32_t)cp); }
static bool is_upper(int32_t cp) { return in_ranges(repl_uc_uppercase, repl_uc_uppercase_len, (uint32_t)cp); }

static bool is_cased(int32_t cp)
{
    return is_upper(cp) || is_lower(cp) || utf8proc_category(cp) == UTF8PROC_CATEGORY_LT;
}

static bool is_case_ignorable(int32_t cp)
{
    switch (utf8proc_category(cp)) {
    case UTF8PROC_CATEGORY_MN: case UTF8PROC_CATEGORY_ME: case UTF8PROC_CATEGORY_CF:
    case UTF8PROC_CATEGORY_LM: case UTF8PROC_CATEGORY_SK:
        return true;
    default:
        return cp == '\'' || cp == '.' || cp == ':' || cp == 0xb7 || cp == 0x2019 || cp == 0x2018 || cp == 0x2024;
    }
}

/* U+03A3 at byte at of s[0..n) (its UTF-8 length len) lowers to the final sigma:
   a cased letter before it and none after it (case-ignorable ones skipped) */
static bool final_sigma(const char *s, size_t n, size_t at, size_t len)
{
    bool before = false;
    for (size_t j = at; j > 0;) {
        size_t k = j - 1;
        while (k > 0 && ((unsigned char)s[k] & 0xc0) == 0x80) k--;
        size_t p = k;
        int32_t cp = next_cp(s, n, &p);
        j = k;
        if (is_case_ignorable(cp)) continue;
        before = is_cased(cp);
        break;
    }
    if (!before) return false;
    for (size_t j = at + len; j < n;) {
        int32_t cp = next_cp(s, n, &j);
        if (is_case_ignorable(cp)) continue;
        return !is_cased(cp);
    }
    return true;
}

static void lower_at(sbuf *b, const char *s, size_t n, size_t at, size_t len, int32_t cp)
{
    if (cp == 0x3a3) {
        put(b, final_sigma(s, n, at, len) ? 0x3c2 : 0x3c3);
        return;
    }
    const repl_uc_map *m = find_map(repl_uc_lower, repl_uc_lower_len, (uint32_t)cp);
    if (m) put_map(b, m);
    else put(b, utf8proc_tolower(cp));
}

static void upper_of(sbuf *b, int32_t cp)
{
    const repl_uc_map *m = find_map(repl_uc_upper, repl_uc_upper_len, (uint32_t)cp);
    if (m) put_map(b, m);
    else put(b, utf8proc_toupper(cp));
}

static void title_of(sbuf *b, int32_t cp)
{
    const repl_uc_map *m = find_map(repl_uc_title, repl_uc_title_len, (uint32_t)cp);
    if (m) put_map(b, m);
    else put(b, utf8proc_totitle(cp));
}

nn_object *repl_str_case(const char *s, size_t n, int mode)
{
    sbuf b = {0};
    bool prev_cased = false;
    for (size_t i = 0; i < n;) {
        size_t at = i;
        int32_t cp = next_cp(s, n, &i);
        switch (mode) {
        case REPL_CASE_UPPER: upper_of(&b, cp); break;
        case REPL_CASE_LOWER: lower_at(&b, s, n, at, i - at, cp); break;
        case REPL_CASE_CAPITALIZE:
            if (at == 0) title_of(&b, cp);
            else lower_at(&b, s, n, at, i - at, cp);
            break;
        case REPL_CASE_TITLE:
            if (prev_cased) lower_at(&b, s, n, at, i - at, cp);
            else title_of(&b, cp);
            prev_cased = is_cased(cp);
            break;
        case REPL_CASE_SWAPCASE:
            if (is_upper(cp)) lower_at(&b, s, n, at, i - at, cp);
            else if (is_lower(cp)) upper_of(&b, cp);
            else put(&b, cp);
            break;
        default: { /* casefold */
            const repl_uc_map *m = find_map(repl_uc_fold, repl_uc_fold_len, (uint32_t)cp);
            if (!m) m = find_map(repl_uc_lower, repl_uc_lower_len, (uint32_t)cp);
            if (m) put_map(&b, m);
            else put(&b, utf8proc_tolower(cp));
        }
        }
    }
    size_t len = b.len;
    if (!b.buf && !b.failed) return nn_str_new("");
    char *r = repl_sb_finish(&b);
    if (!r) return NULL;
    nn_object *o = nn_str_from(r, len);
    nn_free(r);
    return o;
}

static bool is_alpha(utf8proc_category_t c) { return c >= UTF8PROC_CATEGORY_LU && c <= UTF8PROC_CATEGORY_LO; }
static bool is_digit(int32_t cp, utf8proc_category_t c)
{
    return c == UTF8PROC_CATEGORY_ND || in_ranges(repl_uc_digit, repl_uc_digit_len, (uint32_t)cp);
}
static bool is_numeric(int32_t cp, utf8proc_category_t c)
{
    return is_digit(cp, c) || in_ranges(repl_uc_numeric, repl_uc_numeric_len, (uint32_t)cp);
}

/* CPython's str.isspace: bidirectional class WS, B or S, or category Zs */
static bool is_space(int32_t cp)
{
    if (cp < 128) return cp == ' ' || (cp >= '\t' && cp <= '\r') || (cp >= 0x1c && cp <= 0x1f);
    return cp == 0x85 || cp == 0xa0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200a) || cp == 0x2028 ||
           cp == 0x2029 || cp == 0x202f || cp == 0x205f || cp == 0x3000;
}

/* CPython's str.isprintable (not Cc Cf Cs Co Cn Zl Zp Zs, the space aside), from
   CPython 3.11's own table: utf8proc's newer Unicode has more code points assigned */
bool repl_cp_printable(uint32_t cp) { return !in_ranges(repl_uc_unprintable, repl_uc_unprintable_len, cp); }

/* XID_Start and XID_Continue: a guess from the category, corrected where the
   generated tables say it is wrong */
static bool id_start_guess(int32_t cp, utf8proc_category_t c)
{
    return cp == '_' || is_alpha(c) || c == UTF8PROC_CATEGORY_NL;
}

static bool id_start(int32_t cp, utf8proc_category_t c)
{
    return id_start_guess(cp, c) != in_ranges(repl_uc_id_flip, repl_uc_id_flip_len, (uint32_t)cp);
}

static bool id_continue(int32_t cp, utf8proc_category_t c)
{
    bool guess = id_start_guess(cp, c) || c == UTF8PROC_CATEGORY_MN || c == UTF8PROC_CATEGORY_MC ||
                 c == UTF8PROC_CATEGORY_ND || c == UTF8PROC_CATEGORY_PC;
    return guess != in_ranges(repl_uc_idc_flip, repl_uc_idc_flip_len, (uint32_t)cp);
}

bool repl_cp_identifier(uint32_t cp, bool first)
{
    utf8proc_category_t c = utf8proc_category((int32_t)cp);
    return first ? id_start((int32_t)cp, c) : id_continue((int32_t)cp, c);
}

bool repl_str_is(const char *s, size_t n, int which)
{
    if (n == 0) return which == REPL_CLS_PRINTABLE || which == REPL_CLS_ASCII;
    bool cased = false, prev_cased = false;
    for (size_t i = 0; i < n;) {
        bool first = i == 0;
        int32_t cp = next_cp(s, n, &i);
        utf8proc_category_t c = utf8proc_category(cp);
        bool ok = true;
        switch (which) {
        case REPL_CLS_ALPHA: ok = is_alpha(c); break;
        case REPL_CLS_DECIMAL: ok = c == UTF8PROC_CATEGORY_ND; break;
        case REPL_CLS_DIGIT: ok = is_digit(cp, c); break;
        case REPL_CLS_NUMERIC: ok = is_numeric(cp, c); break;
        case REPL_CLS_ALNUM: ok = is_alpha(c) || is_numeric(cp, c); break;
        case REPL_CLS_SPACE: ok = is_space(cp); break;
        case REPL_CLS_PRINTABLE: ok = repl_cp_printable((uint32_t)cp); break;
        case REPL_CLS_ASCII: ok = cp < 128; break;
        case REPL_CLS_IDENTIFIER: ok = first ? id_start(cp, c) : id_continue(cp, c); break;
        case REPL_CLS_UPPER:
        case REPL_CLS_LOWER: {
            bool title = c == UTF8PROC_CATEGORY_LT;
            bool same = which == REPL_CLS_UPPER ? is_upper(cp) : is_lower(cp);
            bool other = which == REPL_CLS_UPPER ? is_lower(cp) : is_upper(cp);
            if (other || title) return false;
            if (same) cased = true;
            break;
        }
        default: { /* istitle */
            bool upper = is_upper(cp) || c == UTF8PROC_CATEGORY_LT;
            if (upper) {
                if (prev_cased) return false;
                prev_cased = cased = true;
            } else if (is_lower(cp)) {
                if (!prev_cased) return false;
                prev_cased = cased = true;
            } else {
                prev_cased = false;
            }
        }
        }
        if (!ok) return false;
    }
    if (which == REPL_CLS_UPPER || which == REPL_CLS_LOWER || which == REPL_CLS_TITLE) return cased;
    return true;
}
