/*
 * mod_re.c — `import re`: compile, match, fullmatch, search, findall,
 * finditer, sub, subn, split, escape, the flags, Pattern and Match objects and
 * re.error, as CPython 3.11's, written in the language (the source below) over
 * PCRE2 (libpcre2-8) through three C helpers:
 *   _compile(pattern, flags): (code, groupindex, flags, groups), or (None, message,
 *       position) with CPython's words for a bad pattern;
 *   _match(code, string, pos, endpos, mode): None, or the spans of the groups
 *       (start, end, start, end, ..., -1 for a group that did not take part)
 *       in characters, lastindex, the groups' strings and None; mode 0 match,
 *       1 fullmatch, 2 search;
 *   _scan(code, string, pos, endpos, limit): the list of such tuples for the
 *       successive matches of findall/finditer/sub/split, each ending with the
 *       text between the previous match and this one, then the text after the
 *       last match (CPython's rule for empty matches: one may follow a
 *       non-empty match, not another empty one at the same place).
 * Strings come back whole, so that nothing slices a long non-ASCII string by
 * character index in a loop.
 * Python's syntax is checked and translated here before PCRE2 sees it: \Z is
 * PCRE2's \z, \v a vertical tab, \xHH, \uXXXX and \UXXXXXXXX code points,
 * {,n} is {0,n}, the global flags (?aiLmsux) at the start become options, and
 * the escapes and structures Python refuses (\q, \K, "multiple repeat", an
 * unterminated set, ...) give CPython's message and position.
 * \w, \d, \s and case folding are Unicode's (PCRE2_UCP) unless re.ASCII.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <string.h>

#include "stdlib_int.h"

/* Python's flag values (re.RegexFlag) */
enum { F_TEMPLATE = 1, F_I = 2, F_L = 4, F_M = 8, F_S = 16, F_U = 32, F_X = 64, F_A = 256 };

/* ------------------------------------------------------------ compiled code */

typedef struct re_code {
    nn_object ob;
    pcre2_code *code; /* owned */
    int groups;
    int *parent;      /* owned: parent[g] is the capturing group that encloses group g (0: none) */
} re_code;

static void re_code_dealloc(nn_object *o)
{
    re_code *c = (re_code *)o;
    if (c->code) pcre2_code_free(c->code);
    nn_free(c->parent);
    nn_free(c);
}

static const nn_type re_code_type = {.name = "re._code", .dealloc = re_code_dealloc};

/* ------------------------------------------------------------ translation */

typedef struct tr {
    const char *p;   /* the Python pattern (UTF-8) */
    size_t n, i;     /* its length and the scan position (bytes) */
    sbuf out;        /* the PCRE2 pattern */
    const char *err; /* the first error: static message or NULL */
    char errbuf[160];
    long errpos;     /* its position in characters */
    int flags;       /* Python flags: the argument's and the global inline ones */
    int groups, cap; /* capturing groups so far */
    int *parent;     /* nn_malloc'd, grows with groups */
    char *closed;    /* closed[g]: group g's ')' has been seen */
    int *name_of;    /* name_of[g]: byte offset of group g's name in the pattern, or -1 */
} tr;

/* The character position of byte offset b of the pattern. */
static long char_pos(const char *s, size_t b)
{
    long c = 0;
    for (size_t i = 0; i < b; i++) c += ((unsigned char)s[i] & 0xc0) != 0x80;
    return c;
}

static int tr_fail(tr *t, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int tr_fail(tr *t, size_t at, const char *fmt, ...)
{
    if (t->err) return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->errbuf, sizeof t->errbuf, fmt, ap);
    va_end(ap);
    t->err = t->errbuf;
    t->errpos = char_pos(t->p, at);
    return -1;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static bool is_octal(char c) { return c >= '0' && c <= '7'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

static int flag_of(char c)
{
    switch (c) {
    case 'a': return F_A;
    case 'i': return F_I;
    case 'L': return F_L;
    case 'm': return F_M;
    case 's': return F_S;
    case 'u': return F_U;
    case 'x': return F_X;
    default: return 0;
    }
}

/* A code point as a PCRE2 escape. */
static void put_cp(tr *t, unsigned long v) { repl_sb_printf(&t->out, "\\x{%lx}", v); }

/* The escape at t->i (a backslash); in_class inside [...]. *atom: the escape
   stands for something that a quantifier may follow (not an anchor). */
static int tr_escape(tr *t, bool in_class, bool *atom)
{
    size_t at = t->i;
    *atom = true;
    if (at + 1 >= t->n) return tr_fail(t, at, "bad escape (end of pattern)");
    char c = t->p[at + 1];
    t->i = at + 2;
    if (c == 'x' || c == 'u' || c == 'U') {
        int want = c == 'x' ? 2 : c == 'u' ? 4 : 8;
        unsigned long v = 0;
        int k = 0;
        while (k < want && t->i < t->n && hexval(t->p[t->i]) >= 0) v = v * 16 + hexval(t->p[t->i++]), k++;
        if (k < want) return tr_fail(t, at, "incomplete escape \\%.*s", (int)(t->i - at - 1), t->p + at + 1);
        if (v > 0x10ffff) return tr_fail(t, at, "bad escape \\%.*s", (int)(t->i - at - 1), t->p + at + 1);
        put_cp(t, v);
        return 0;
    }
    if (c == '0' || (in_class && is_digit(c))) { /* octal: \0, \07, \012; in a set \1.. too */
        if (!is_octal(c)) return tr_fail(t, at, "bad escape \\%c", c);
        unsigned long v = (unsigned long)(c - '0');
        for (int k = 0; k < 2 && t->i < t->n && is_octal(t->p[t->i]); k++) v = v * 8 + (unsigned long)(t->p[t->i++] - '0');
        if (v > 0377) return tr_fail(t, at, "octal escape value \\%.*s outside of range 0-0o377", (int)(t->i - at - 1), t->p + at + 1);
        put_cp(t, v);
        return 0;
    }
    if (is_digit(c)) { /* a group reference, or three octal digits */
        if (t->i + 1 < t->n && is_octal(c) && is_octal(t->p[t->i]) && is_octal(t->p[t->i + 1])) {
            unsigned long v = (unsigned long)((c - '0') * 64 + (t->p[t->i] - '0') * 8 + (t->p[t->i + 1] - '0'));
            if (v > 0377) return tr_fail(t, at, "octal escape value \\%.3s outside of range 0-0o377", t->p + at + 1);
            t->i += 2;
            put_cp(t, v);
            return 0;
        }
        int g = c - '0';
        if (t->i < t->n && is_digit(t->p[t->i])) g = g * 10 + (t->p[t->i++] - '0');
        if (g > t->groups) return tr_fail(t, at + 1, "invalid group reference %d", g);
        if (!t->closed[g]) return tr_fail(t, at, "cannot refer to an open group");
        repl_sb_printf(&t->out, "\\g{%d}", g);
        return 0;
    }
    if (!is_alpha(c)) { /* punctuation or a non-ASCII character: itself */
        size_t len = 1;
        while (at + 1 + len < t->n && ((unsigned char)t->p[at + 1 + len] & 0xc0) == 0x80) len++;
        if ((unsigned char)c < 0x80) repl_sb_add(&t->out, t->p + at, 2);
        else repl_sb_add(&t->out, t->p + at + 1, len);
        t->i = at + 1 + len;
        return 0;
    }
    switch (c) {
    case 'd': case 'D': case 's': case 'S': case 'w': case 'W':
    case 'a': case 'f': case 'n': case 'r': case 't':
        repl_sb_add(&t->out, t->p + at, 2);
        return 0;
    case 'v': repl_sb_puts(&t->out, "\\x0b"); return 0;
    case 'b':
        if (in_class) repl_sb_puts(&t->out, "\\x08");
        else repl_sb_puts(&t->out, "\\b"), *atom = false;
        return 0;
    case 'A': case 'B': case 'Z':
        if (in_class) break;
        repl_sb_puts(&t->out, c == 'Z' ? "\\z" : c == 'A' ? "\\A" : "\\B");
        *atom = false;
        return 0;
    default: break;
    }
    return tr_fail(t, at, "bad escape \\%c", c);
}

/* A character set from t->i (its '['), copied up to and with its ']'. */
static int tr_class(tr *t)
{
    size_t start = t->i;
    repl_sb_add(&t->out, "[", 1);
    t->i++;
    if (t->i < t->n && t->p[t->i] == '^') repl_sb_add(&t->out, "^", 1), t->i++;
    bool first = true;
    while (t->i < t->n) {
        char c = t->p[t->i];
        if (c == ']' && !first) {
            repl_sb_add(&t->out, "]", 1);
            t->i++;
            return 0;
        }
        first = false;
        if (c == '\\') {
            bool atom;
            if (tr_escape(t, true, &atom) < 0) return -1;
            continue;
        }
        if (c == '[' || c == ']') repl_sb_add(&t->out, "\\", 1); /* literal in Python, POSIX classes in PCRE2 */
        repl_sb_add(&t->out, &c, 1);
        t->i++;
    }
    return tr_fail(t, start, "unterminated character set");
}

/* A repeat {m,n} at t->i: its length in bytes (0: not a repeat, a literal '{'),
   written out as PCRE2's; -1 on error. */
static long tr_brace(tr *t)
{
    size_t j = t->i + 1, lo_at = j;
    if (j < t->n && t->p[j] == '}') return 0;
    long lo = -1, hi = -1;
    while (j < t->n && is_digit(t->p[j])) lo = (lo < 0 ? 0 : lo * 10) + (t->p[j++] - '0');
    bool comma = j < t->n && t->p[j] == ',';
    if (comma) {
        j++;
        while (j < t->n && is_digit(t->p[j])) hi = (hi < 0 ? 0 : hi * 10) + (t->p[j++] - '0');
    } else {
        hi = lo;
    }
    if (j >= t->n || t->p[j] != '}') return 0;
    if (lo >= 0 && hi >= 0 && hi < lo) return tr_fail(t, lo_at, "min repeat greater than max repeat");
    if (lo > 65535 || hi > 65535) return tr_fail(t, lo_at, "the repetition number is too large");
    if (!comma) repl_sb_printf(&t->out, "{%ld}", lo);
    else if (hi < 0) repl_sb_printf(&t->out, "{%ld,}", lo < 0 ? 0 : lo);
    else repl_sb_printf(&t->out, "{%ld,%ld}", lo < 0 ? 0 : lo, hi);
    return (long)(j + 1 - t->i);
}

/* The group name at t->i ending with term: checked as an identifier; its
   length, or -1 (the error set at its position). */
static long tr_name(tr *t, char term)
{
    size_t j = t->i;
    while (j < t->n && t->p[j] != term) j++;
    if (j >= t->n) {
        if (j == t->i) return tr_fail(t, t->i, "missing group name");
        return tr_fail(t, t->i, "missing %c, unterminated name", term);
    }
    size_t len = j - t->i;
    if (!len) return tr_fail(t, t->i, "missing group name");
    bool ok = !is_digit(t->p[t->i]);
    for (size_t k = t->i; k < j; k++) {
        unsigned char c = (unsigned char)t->p[k];
        if (!(c >= 0x80 || is_alpha((char)c) || is_digit((char)c) || c == '_')) ok = false;
    }
    if (!ok) return tr_fail(t, t->i, "bad character in group name '%.*s'", (int)len, t->p + t->i);
    return (long)len;
}

/* The index of the named group name (len bytes) among those opened so far, or 0. */
static int named_group(tr *t, const char *name, size_t len)
{
    for (int g = 1; g <= t->groups; g++) {
        if (t->name_of[g] < 0) continue;
        const char *s = t->p + t->name_of[g];
        if (strncmp(s, name, len) == 0 && s[len] == '>') return g;
    }
    return 0;
}

/* Opens capturing group t->groups + 1 inside parent_group, named by the
   pattern's bytes at name (up to '>'; -1: unnamed). Its index, or -1. */
static int tr_open_group(tr *t, int parent_group, long name)
{
    if (t->groups + 1 >= t->cap) {
        int cap = t->cap * 2 + 8;
        int *p = nn_malloc((size_t)cap * sizeof *p), *nm = nn_malloc((size_t)cap * sizeof *nm);
        char *c = nn_malloc((size_t)cap);
        if (!p || !c || !nm) {
            nn_free(p);
            nn_free(c);
            nn_free(nm);
            t->out.failed = true;
            return -1;
        }
        if (t->cap) {
            memcpy(p, t->parent, (size_t)t->cap * sizeof *p);
            memcpy(nm, t->name_of, (size_t)t->cap * sizeof *nm);
            memcpy(c, t->closed, (size_t)t->cap);
        }
        memset(c + t->cap, 0, (size_t)(cap - t->cap));
        nn_free(t->parent);
        nn_free(t->closed);
        nn_free(t->name_of);
        t->parent = p;
        t->closed = c;
        t->name_of = nm;
        t->cap = cap;
    }
    t->groups++;
    t->parent[t->groups] = parent_group;
    t->name_of[t->groups] = (int)name;
    return t->groups;
}

enum { PREV_NONE, PREV_ATOM, PREV_REPEAT, PREV_DONE };

/* Translates the whole pattern. 0, or -1 with t->err set (or t->out.failed). */
static int translate(tr *t)
{
    enum { MAXDEPTH = 200 };
    size_t open_at[MAXDEPTH];
    int open_group[MAXDEPTH], depth = 0;
    int prev = PREV_NONE;
    bool at_start = true;
    int rc = 0;
    while (t->i < t->n && rc == 0) {
        size_t at = t->i;
        char c = t->p[at];
        bool verbose = t->flags & F_X;
        if (verbose && (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')) {
            repl_sb_add(&t->out, &c, 1);
            t->i++;
            continue;
        }
        if (verbose && c == '#') {
            while (t->i < t->n && t->p[t->i] != '\n') t->i++;
            continue;
        }
        bool was_start = at_start;
        at_start = false;
        if (c == '\\') {
            bool atom;
            rc = tr_escape(t, false, &atom);
            prev = atom ? PREV_ATOM : PREV_NONE;
            continue;
        }
        if (c == '[') {
            rc = tr_class(t);
            prev = PREV_ATOM;
            continue;
        }
        if (c == '*' || c == '+' || c == '?' || c == '{') {
            long len = 1;
            if (c == '{') {
                if (prev == PREV_NONE) {
                    size_t save = t->out.len;
                    len = tr_brace(t);
                    t->out.len = save;
                    if (len < 0) { rc = -1; continue; }
                    if (len == 0) { repl_sb_puts(&t->out, "\\{"); t->i++; prev = PREV_ATOM; continue; }
                    rc = tr_fail(t, at, "nothing to repeat");
                    continue;
                }
                size_t save = t->out.len;
                len = tr_brace(t);
                if (len < 0) { rc = -1; continue; }
                if (len == 0) { /* a literal '{' */
                    t->out.len = save;
                    repl_sb_puts(&t->out, "\\{");
                    t->i++;
                    prev = PREV_ATOM;
                    continue;
                }
                if (prev != PREV_ATOM) { rc = tr_fail(t, at, "multiple repeat"); continue; }
                t->i += (size_t)len;
                prev = PREV_REPEAT;
                continue;
            }
            if (prev == PREV_NONE) { rc = tr_fail(t, at, "nothing to repeat"); continue; }
            if (prev == PREV_DONE || (prev == PREV_REPEAT && c == '*')) {
                rc = tr_fail(t, at, "multiple repeat");
                continue;
            }
            repl_sb_add(&t->out, &c, 1);
            t->i++;
            prev = prev == PREV_REPEAT ? PREV_DONE : PREV_REPEAT;
            continue;
        }
        if (c == '^' || c == '$') {
            repl_sb_add(&t->out, &c, 1);
            t->i++;
            prev = PREV_NONE;
            continue;
        }
        if (c == '|') {
            repl_sb_add(&t->out, &c, 1);
            t->i++;
            prev = PREV_NONE;
            continue;
        }
        if (c == ')') {
            if (depth == 0) { rc = tr_fail(t, at, "unbalanced parenthesis"); continue; }
            depth--;
            if (open_group[depth] > 0) t->closed[open_group[depth]] = 1;
            repl_sb_add(&t->out, ")", 1);
            t->i++;
            prev = open_group[depth] == -1 ? PREV_NONE : PREV_ATOM; /* -1: a flags-only group */
            continue;
        }
        if (c == '(') {
            if (depth >= MAXDEPTH) { rc = tr_fail(t, at, "too many nested groups"); continue; }
            int enclosing = 0;
            for (int k = depth - 1; k >= 0; k--)
                if (open_group[k] > 0) { enclosing = open_group[k]; break; }
            t->i++;
            int group = 0;
            if (t->i < t->n && t->p[t->i] == '?') {
                t->i++;
                char d = t->i < t->n ? t->p[t->i] : '\0';
                if (d == 'P' && t->i + 1 < t->n && t->p[t->i + 1] == '<') {
                    t->i += 2;
                    long len = tr_name(t, '>');
                    if (len < 0) { rc = -1; continue; }
                    int old = named_group(t, t->p + t->i, (size_t)len);
                    if (old) {
                        rc = tr_fail(t, t->i, "redefinition of group name '%.*s' as group %d; was group %d",
                                     (int)len, t->p + t->i, t->groups + 1, old);
                        continue;
                    }
                    group = tr_open_group(t, enclosing, (long)t->i);
                    if (group < 0) { rc = -1; continue; }
                    repl_sb_puts(&t->out, "(?P<");
                    repl_sb_add(&t->out, t->p + t->i, (size_t)len);
                    repl_sb_puts(&t->out, ">");
                    t->i += (size_t)len + 1;
                } else if (d == 'P' && t->i + 1 < t->n && t->p[t->i + 1] == '=') {
                    t->i += 2;
                    long len = tr_name(t, ')');
                    if (len < 0) { rc = -1; continue; }
                    int g = named_group(t, t->p + t->i, (size_t)len);
                    if (!g) {
                        rc = tr_fail(t, t->i, "unknown group name '%.*s'", (int)len, t->p + t->i);
                        continue;
                    }
                    if (!t->closed[g]) { rc = tr_fail(t, t->i, "cannot refer to an open group"); continue; }
                    repl_sb_printf(&t->out, "\\g{%d}", g);
                    t->i += (size_t)len + 1;
                    prev = PREV_ATOM;
                    continue;
                } else if (d == ':' || d == '=' || d == '!' || d == '>') {
                    repl_sb_add(&t->out, "(?", 2);
                    repl_sb_add(&t->out, &d, 1);
                    t->i++;
                } else if (d == '<' && t->i + 1 < t->n && (t->p[t->i + 1] == '=' || t->p[t->i + 1] == '!')) {
                    repl_sb_add(&t->out, "(?<", 3);
                    repl_sb_add(&t->out, t->p + t->i + 1, 1);
                    t->i += 2;
                } else if (d == '#') { /* a comment */
                    while (t->i < t->n && t->p[t->i] != ')') t->i++;
                    if (t->i >= t->n) { rc = tr_fail(t, t->i, "missing ), unterminated comment"); continue; }
                    t->i++;
                    at_start = was_start;
                    continue;
                } else if (d == '(') { /* (?(group)yes|no) */
                    size_t j = t->i + 1;
                    while (j < t->n && t->p[j] != ')') j++;
                    if (j >= t->n) { rc = tr_fail(t, t->i + 1, "missing ), unterminated name"); continue; }
                    const char *name = t->p + t->i + 1;
                    size_t len = j - t->i - 1;
                    int g = 0;
                    bool digits = len > 0;
                    for (size_t k = 0; k < len; k++) digits = digits && is_digit(name[k]);
                    if (digits) g = atoi(name);
                    else g = named_group(t, name, len);
                    if (!g || g > t->groups) {
                        rc = digits ? tr_fail(t, t->i + 1, "invalid group reference %d", g)
                                    : tr_fail(t, t->i + 1, "unknown group name '%.*s'", (int)len, name);
                        continue;
                    }
                    repl_sb_printf(&t->out, "(?(%d)", g);
                    t->i = j + 1;
                } else if (flag_of(d) || d == '-') { /* inline flags */
                    int on = 0, off = 0;
                    size_t fstart = t->i;
                    while (t->i < t->n && flag_of(t->p[t->i])) on |= flag_of(t->p[t->i++]);
                    if (t->i < t->n && t->p[t->i] == '-') {
                        t->i++;
                        if (t->i >= t->n || !flag_of(t->p[t->i])) {
                            rc = tr_fail(t, t->i, t->i >= t->n ? "missing flag" : "unknown flag");
                            continue;
                        }
                        while (t->i < t->n && flag_of(t->p[t->i])) off |= flag_of(t->p[t->i++]);
                    }
                    char e = t->i < t->n ? t->p[t->i] : '\0';
                    if (e == ')' && !off) { /* global flags */
                        if (!was_start) { rc = tr_fail(t, at, "global flags not at the start of the expression"); continue; }
                        t->flags |= on;
                        t->i++;
                        at_start = true;
                        continue;
                    }
                    if (e != ':') {
                        if (!e) rc = tr_fail(t, t->i, off ? "missing :" : "missing -, : or )");
                        else rc = tr_fail(t, t->i, "unknown flag");
                        continue;
                    }
                    if ((on | off) & (F_A | F_L | F_U)) {
                        rc = tr_fail(t, fstart, "the flags a, L and u are not supported in a scoped group here");
                        continue;
                    }
                    repl_sb_add(&t->out, "(?", 2);
                    repl_sb_add(&t->out, t->p + fstart, t->i + 1 - fstart);
                    t->i++;
                } else {
                    size_t len = t->i < t->n ? 1 : 0;
                    if (d == '<' && t->i + 1 < t->n) len = 2;
                    if (!d) rc = tr_fail(t, t->i, "unexpected end of pattern");
                    else rc = tr_fail(t, at + 1, "unknown extension ?%.*s", (int)len, t->p + t->i);
                    continue;
                }
            } else {
                group = tr_open_group(t, enclosing, -1);
                if (group < 0) { rc = -1; continue; }
                repl_sb_add(&t->out, "(", 1);
            }
            open_at[depth] = at;
            open_group[depth] = group;
            depth++;
            prev = PREV_NONE;
            continue;
        }
        /* an ordinary character (all its UTF-8 bytes) */
        size_t len = 1;
        while (at + len < t->n && ((unsigned char)t->p[at + len] & 0xc0) == 0x80) len++;
        repl_sb_add(&t->out, t->p + at, len);
        t->i += len;
        prev = PREV_ATOM;
    }
    if (rc == 0 && depth > 0) rc = tr_fail(t, open_at[depth - 1], "missing ), unterminated subpattern");
    return t->err || t->out.failed ? -1 : 0;
}

/* ------------------------------------------------------------ helpers */

static nn_object *compile_error(const char *msg, long pos)
{
    nn_object *m = nn_str_new(msg), *p = pos < 0 ? nn_retain(nn_none()) : nn_int_new(pos);
    nn_object *r = m && p ? nn_tuple_pack(3, nn_none(), m, p) : NULL;
    NN_RELEASE(m);
    NN_RELEASE(p);
    return r;
}

/* _compile(pattern, flags) */
static nn_object *re_compile(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_compile", args, kwargs, 2, 2) < 0) return NULL;
    nn_object *pat = nn_tuple_get(args, 0);
    int64_t flags;
    if (!nn_is_str(pat)) {
        repl_raise_exc(EXC_TypeError, "first argument must be string or compiled pattern");
        return NULL;
    }
    if (repl_mod_int(nn_tuple_get(args, 1), &flags) < 0) return NULL;
    tr t = {.p = nn_str_cstr(pat), .n = nn_str_len(pat), .flags = (int)flags};
    if (tr_open_group(&t, 0, -1) < 0) return NULL; /* makes the arrays; group 0 is the match */
    t.groups = 0;
    int rc = translate(&t);
    nn_object *result = NULL;
    if (rc < 0) {
        if (t.err) result = compile_error(t.err, t.errpos);
        else repl_raise_exc(EXC_MemoryError, "out of memory");
        goto done;
    }
    if ((t.flags & F_A) && (t.flags & F_U)) {
        result = compile_error("ASCII and UNICODE flags are incompatible", -1);
        goto done;
    }
    if (t.flags & F_L) {
        result = compile_error("cannot use LOCALE flag with a str pattern", -1);
        goto done;
    }
    uint32_t opts = PCRE2_UTF; /* PCRE2 checks the pattern's UTF-8 (a str need not be valid) */
    if (!(t.flags & F_A)) opts |= PCRE2_UCP;
    if (t.flags & F_I) opts |= PCRE2_CASELESS;
    if (t.flags & F_M) opts |= PCRE2_MULTILINE;
    if (t.flags & F_S) opts |= PCRE2_DOTALL;
    if (t.flags & F_X) opts |= PCRE2_EXTENDED;
    pcre2_compile_context *cc = pcre2_compile_context_create(NULL);
    if (cc) pcre2_set_newline(cc, PCRE2_NEWLINE_LF);
    int errcode;
    PCRE2_SIZE erroff;
    repl_sb_add(&t.out, "", 0);
    pcre2_code *code = t.out.failed ? NULL
                                    : pcre2_compile((PCRE2_SPTR)(t.out.buf ? t.out.buf : ""), t.out.len, opts,
                                                    &errcode, &erroff, cc);
    pcre2_compile_context_free(cc);
    if (!code) {
        if (t.out.failed) {
            repl_raise_exc(EXC_MemoryError, "out of memory");
            goto done;
        }
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(errcode, msg, sizeof msg);
        result = compile_error((const char *)msg, -1);
        goto done;
    }
    pcre2_jit_compile(code, PCRE2_JIT_COMPLETE); /* the interpreter is used when it fails */
    re_code *c = nn_malloc(sizeof *c);
    nn_object *gi = nn_dict_new();
    if (!c || !gi) {
        nn_free(c);
        NN_RELEASE(gi);
        pcre2_code_free(code);
        goto done;
    }
    nn_object_init(&c->ob, &re_code_type);
    c->code = code;
    c->groups = t.groups;
    c->parent = t.parent;
    t.parent = NULL;
    uint32_t count = 0, size = 0;
    PCRE2_SPTR table = NULL;
    pcre2_pattern_info(code, PCRE2_INFO_NAMECOUNT, &count);
    pcre2_pattern_info(code, PCRE2_INFO_NAMEENTRYSIZE, &size);
    pcre2_pattern_info(code, PCRE2_INFO_NAMETABLE, &table);
    /* in the order of the groups, as CPython's groupindex */
    for (int g = 1; g <= t.groups && gi; g++)
        for (uint32_t k = 0; k < count; k++) {
            PCRE2_SPTR e = table + (size_t)k * size;
            if ((e[0] << 8 | e[1]) != g) continue;
            nn_object *v = nn_int_new(g);
            if (!v || nn_dict_set_str(gi, (const char *)e + 2, v) < 0) NN_SET(gi, NULL);
            NN_RELEASE(v);
        }
    nn_object *fl = nn_int_new(t.flags | ((t.flags & F_A) ? 0 : F_U)), *ng = nn_int_new(t.groups);
    if (gi && fl && ng) result = nn_tuple_pack(4, &c->ob, gi, fl, ng);
    NN_RELEASE(&c->ob);
    NN_RELEASE(gi);
    NN_RELEASE(fl);
    NN_RELEASE(ng);
done:
    nn_free(t.parent);
    nn_free(t.closed);
    nn_free(t.name_of);
    nn_free(t.out.buf);
    return result;
}

/* Byte offset <-> character index over one subject, moving from the last place asked. */
typedef struct cursor {
    const char *s;
    size_t n;
    bool ascii;
    size_t b;
    long c;
} cursor;

static long to_char(cursor *k, size_t b)
{
    if (k->ascii) return (long)b;
    for (; k->b > b; k->b--) k->c -= ((unsigned char)k->s[k->b - 1] & 0xc0) != 0x80;
    for (; k->b < b && k->b < k->n; k->b++) k->c += ((unsigned char)k->s[k->b] & 0xc0) != 0x80;
    return k->c;
}

static size_t to_byte(cursor *k, long c)
{
    if (k->ascii) return (size_t)c;
    size_t b = 0;
    long i = 0;
    while (b < k->n && i < c) {
        b++;
        while (b < k->n && ((unsigned char)k->s[b] & 0xc0) == 0x80) b++;
        i++;
    }
    return b;
}

/* The parsed arguments of _match/_scan. */
typedef struct subject {
    re_code *code;
    cursor k;
    size_t start, end; /* bytes */
    int64_t last;      /* the fifth argument */
} subject;

/* Whether s[0, n) is well-formed UTF-8 (no overlong forms, surrogates or code
   points past U+10FFFF): PCRE2 matches with its own check off, and a str made
   from raw bytes of a source file need not be. */
static bool utf8_valid(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned char c = s[i];
        size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
        if (!len || len > n - i || (len == 2 && c < 0xC2) || (len == 4 && c > 0xF4)) return false;
        for (size_t k = 1; k < len; k++)
            if ((s[i + k] & 0xC0) != 0x80) return false;
        if (len == 3 && ((c == 0xE0 && s[i + 1] < 0xA0) || (c == 0xED && s[i + 1] >= 0xA0))) return false;
        if (len == 4 && ((c == 0xF0 && s[i + 1] < 0x90) || (c == 0xF4 && s[i + 1] >= 0x90))) return false;
        i += len;
    }
    return true;
}

static int get_subject(const char *fname, nn_object *args, nn_object *kwargs, subject *s)
{
    if (repl_mod_nargs(fname, args, kwargs, 5, 5) < 0) return -1;
    nn_object *code = nn_tuple_get(args, 0), *str = nn_tuple_get(args, 1);
    if (code->type != &re_code_type) return repl_raise_exc(EXC_TypeError, "%s() needs a compiled pattern", fname);
    if (!nn_is_str(str))
        return repl_raise_exc(EXC_TypeError, "expected string or bytes-like object, got '%s'", repl_value_type_name(str));
    int64_t pos, endpos;
    if (repl_mod_int(nn_tuple_get(args, 2), &pos) < 0 || repl_mod_int(nn_tuple_get(args, 3), &endpos) < 0 ||
        repl_mod_int(nn_tuple_get(args, 4), &s->last) < 0)
        return -1;
    s->code = (re_code *)code;
    s->k = (cursor){.s = nn_str_cstr(str), .n = nn_str_len(str)};
    if (!utf8_valid((const unsigned char *)s->k.s, s->k.n))
        return repl_raise_exc(EXC_ValueError, "%s(): the string is not valid UTF-8", fname);
    long chars = char_pos(s->k.s, s->k.n);
    s->k.ascii = (size_t)chars == s->k.n;
    if (pos < 0) pos = 0;
    if (endpos > chars) endpos = chars;
    if (endpos < pos) endpos = pos - 1; /* no match */
    s->start = pos > chars ? s->k.n + 1 : to_byte(&s->k, (long)pos);
    s->end = endpos < 0 ? 0 : to_byte(&s->k, (long)endpos);
    return 0;
}

/* The tuple of the match in md: the groups' spans (start, end, ...; -1 for a
   group that did not take part), lastindex (None when no group took part), the
   groups' strings (None for those), then the text between byte offset before
   and the match (None when before is SIZE_MAX). */
static nn_object *spans(subject *s, pcre2_match_data *md, size_t before)
{
    int g = s->code->groups;
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
    uint32_t pairs = pcre2_get_ovector_count(md);
    nn_object *t = nn_tuple_new((size_t)(3 * g + 5));
    if (!t) return NULL;
    int last = 0;
    for (int i = 0; i <= g; i++) {
        long a = -1, b = -1;
        bool set = (uint32_t)i < pairs && ov[2 * i] != PCRE2_UNSET;
        if (set) {
            a = to_char(&s->k, ov[2 * i]);
            b = to_char(&s->k, ov[2 * i + 1]);
        }
        if (i > 0 && set) {
            /* CPython's lastindex: the group that closed last */
            bool later = !last || ov[2 * i + 1] > ov[2 * last + 1];
            if (!later && ov[2 * i + 1] == ov[2 * last + 1]) {
                later = true;
                for (int p = s->code->parent[i]; p; p = s->code->parent[p])
                    if (p == last) later = false;
            }
            if (later) last = i;
        }
        nn_object *x = nn_int_new(a), *y = nn_int_new(b);
        nn_object *str = set ? nn_str_from(s->k.s + ov[2 * i], ov[2 * i + 1] - ov[2 * i]) : nn_retain(nn_none());
        if (!x || !y || !str) {
            NN_RELEASE(x);
            NN_RELEASE(y);
            NN_RELEASE(str);
            NN_RELEASE(t);
            return NULL;
        }
        nn_tuple_set(t, (size_t)(2 * i), x);
        nn_tuple_set(t, (size_t)(2 * i + 1), y);
        nn_tuple_set(t, (size_t)(2 * g + 3 + i), str);
    }
    nn_object *l = last ? nn_int_new(last) : nn_retain(nn_none());
    nn_object *pre = before == SIZE_MAX ? nn_retain(nn_none()) : nn_str_from(s->k.s + before, ov[0] - before);
    if (!l || !pre) {
        NN_RELEASE(l);
        NN_RELEASE(pre);
        NN_RELEASE(t);
        return NULL;
    }
    nn_tuple_set(t, (size_t)(2 * g + 2), l);
    nn_tuple_set(t, (size_t)(3 * g + 4), pre);
    return t;
}

/* One pcre2_match: 1 matched, 0 no match, -1 error. */
static int run(subject *s, pcre2_match_data *md, size_t at, uint32_t opts)
{
    int rc = pcre2_match(s->code->code, (PCRE2_SPTR)s->k.s, s->end, at, opts | PCRE2_NO_UTF_CHECK, md, NULL);
    if (rc >= 0) return 1;
    if (rc == PCRE2_ERROR_NOMATCH) return 0;
    PCRE2_UCHAR msg[256];
    pcre2_get_error_message(rc, msg, sizeof msg);
    return repl_raise_exc(rc == PCRE2_ERROR_NOMEMORY ? EXC_MemoryError : EXC_RuntimeError, "re: %s", (const char *)msg);
}

/* _match(code, string, pos, endpos, mode) */
static nn_object *re_match(void *ud, nn_object *args, nn_object *kwargs)
{
    subject s;
    if (get_subject("_match", args, kwargs, &s) < 0) return NULL;
    if (s.start > s.end) return nn_retain(nn_none());
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(s.code->code, NULL);
    if (!md) return repl_raise_exc(EXC_MemoryError, "out of memory"), NULL;
    uint32_t opts = s.last == 0 ? PCRE2_ANCHORED : s.last == 1 ? PCRE2_ANCHORED | PCRE2_ENDANCHORED : 0;
    int rc = run(&s, md, s.start, opts);
    nn_object *r = rc < 0 ? NULL : rc == 0 ? nn_retain(nn_none()) : spans(&s, md, SIZE_MAX);
    pcre2_match_data_free(md);
    return r;
}

/* _scan(code, string, pos, endpos, limit) */
static nn_object *re_scan(void *ud, nn_object *args, nn_object *kwargs)
{
    subject s;
    if (get_subject("_scan", args, kwargs, &s) < 0) return NULL;
    nn_object *list = nn_list_new(0);
    if (!list) return NULL;
    if (s.start > s.end) return list;
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(s.code->code, NULL);
    if (!md) {
        NN_RELEASE(list);
        return repl_raise_exc(EXC_MemoryError, "out of memory"), NULL;
    }
    size_t at = s.start, prev_end = s.start;
    uint32_t opts = 0;
    while (at <= s.end && (s.last <= 0 || (int64_t)nn_list_len(list) < s.last)) {
        if (nn_check_interrupt() < 0) goto fail;
        int rc = run(&s, md, at, opts);
        if (rc < 0) goto fail;
        if (rc == 0) break;
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        nn_object *t = spans(&s, md, prev_end);
        if (!t || nn_list_append(list, t) < 0) {
            NN_RELEASE(t);
            goto fail;
        }
        NN_RELEASE(t);
        /* CPython's rule: after an empty match the next one may not be empty at the same place */
        opts = ov[1] == ov[0] ? PCRE2_NOTEMPTY_ATSTART : 0;
        at = prev_end = ov[1];
    }
    pcre2_match_data_free(md);
    /* the text after the last match, to the end of the string */
    nn_object *tail = nn_str_from(s.k.s + prev_end, s.k.n - prev_end);
    if (!tail || nn_list_append(list, tail) < 0) NN_SET(list, NULL);
    NN_RELEASE(tail);
    return list;
fail:
    pcre2_match_data_free(md);
    NN_RELEASE(list);
    return NULL;
}

static const repl_mod_fn helpers[] = {
    {"_compile", re_compile, NULL},
    {"_match", re_match, NULL},
    {"_scan", re_scan, NULL},
};

/* source: begin */
static const char source[] =
    "# re, written in the language over the PCRE2 helpers _compile, _match and _scan.\n"
    "\n"
    "class EnumType:  # RegexFlag's metaclass: repr(re.RegexFlag) is <flag 'RegexFlag'>, as 3.11's\n"
    "    __module__ = 'enum'\n"
    "\n"
    "    def __repr__(cls):\n"
    "        return '<flag %r>' % cls.__name__\n"
    "\n"
    "\n"
    "class RegexFlag(int, metaclass=EnumType):\n"
    "    # re's flags as CPython 3.11's enum.IntFlag members: they compute and compare\n"
    "    # as their int values and print as re.IGNORECASE|re.MULTILINE\n"
    "    _members = [('ASCII', 256), ('IGNORECASE', 2), ('LOCALE', 4), ('UNICODE', 32), ('MULTILINE', 8),\n"
    "                ('DOTALL', 16), ('VERBOSE', 64), ('TEMPLATE', 1), ('DEBUG', 128)]\n"
    "\n"
    "    def __new__(cls, value=0):\n"
    "        if type(value) is RegexFlag:\n"
    "            value = value._value_\n"
    "        if not isinstance(value, int) or isinstance(value, bool):\n"
    "            raise ValueError('%r is not a valid RegexFlag' % (value,))\n"
    "        self = int.__new__(cls, value)  # an int subclass, as enum.IntFlag: isinstance(re.I, int)\n"
    "        self._value_ = value\n"
    "        return self\n"
    "\n"
    "    @property\n"
    "    def value(self):\n"
    "        return self._value_\n"
    "\n"
    "    @property\n"
    "    def name(self):\n"
    "        if self._value_ == 0:\n"
    "            return 'NOFLAG'\n"
    "        names = [n for n, v in RegexFlag._members if self._value_ & v]\n"
    "        return '|'.join(names) if names else None\n"
    "\n"
    "    def __repr__(self):\n"
    "        v = self._value_\n"
    "        if v == 0:\n"
    "            return 're.NOFLAG'\n"
    "        names = ['re.' + n for n, m in RegexFlag._members if v & m]\n"
    "        if v & ~511:\n"
    "            names.append(hex(v & ~511))\n"
    "        return '|'.join(names)\n"
    "\n"
    "    __str__ = __repr__\n"
    "\n"
    "    def __format__(self, spec):\n"
    "        return format(self._value_, spec) if spec else repr(self)\n"
    "\n"
    "    def __int__(self):\n"
    "        return self._value_\n"
    "\n"
    "    __index__ = __int__\n"
    "\n"
    "    def __bool__(self):\n"
    "        return self._value_ != 0\n"
    "\n"
    "    def __hash__(self):\n"
    "        return hash(self._value_)\n"
    "\n"
    "    def __eq__(self, other):\n"
    "        return self._value_ == (other._value_ if type(other) is RegexFlag else other)\n"
    "\n"
    "    def __ne__(self, other):\n"
    "        return not self == other\n"
    "\n"
    "    def __lt__(self, other):\n"
    "        return self._value_ < int(other)\n"
    "\n"
    "    def __le__(self, other):\n"
    "        return self._value_ <= int(other)\n"
    "\n"
    "    def __gt__(self, other):\n"
    "        return self._value_ > int(other)\n"
    "\n"
    "    def __ge__(self, other):\n"
    "        return self._value_ >= int(other)\n"
    "\n"
    "    def __or__(self, other):\n"
    "        if type(other) is RegexFlag or (isinstance(other, int) and not isinstance(other, bool)):\n"
    "            return RegexFlag(self._value_ | int(other))\n"
    "        return NotImplemented\n"
    "\n"
    "    def __and__(self, other):\n"
    "        if type(other) is RegexFlag or (isinstance(other, int) and not isinstance(other, bool)):\n"
    "            return RegexFlag(self._value_ & int(other))\n"
    "        return NotImplemented\n"
    "\n"
    "    def __xor__(self, other):\n"
    "        if type(other) is RegexFlag or (isinstance(other, int) and not isinstance(other, bool)):\n"
    "            return RegexFlag(self._value_ ^ int(other))\n"
    "        return NotImplemented\n"
    "\n"
    "    __ror__ = __or__\n"
    "    __rand__ = __and__\n"
    "    __rxor__ = __xor__\n"
    "\n"
    "    def __invert__(self):\n"
    "        return RegexFlag(~self._value_ & 511)\n"
    "\n"
    "    def __add__(self, other):\n"
    "        return self._value_ + other\n"
    "\n"
    "    __radd__ = __add__\n"
    "\n"
    "    def __sub__(self, other):\n"
    "        return self._value_ - other\n"
    "\n"
    "    def __rsub__(self, other):\n"
    "        return other - self._value_\n"
    "\n"
    "    def __contains__(self, other):\n"
    "        v = int(other)\n"
    "        return self._value_ & v == v\n"
    "\n"
    "    def __iter__(self):\n"
    "        return iter([RegexFlag(m) for n, m in sorted(RegexFlag._members, key=lambda p: p[1]) if self._value_ & m])\n"
    "\n"
    "    def __reduce__(self):\n"
    "        return (RegexFlag, (self._value_,))\n"
    "\n"
    "\n"
    "NOFLAG = RegexFlag(0)\n"
    "TEMPLATE = T = RegexFlag(1)\n"
    "IGNORECASE = I = RegexFlag(2)\n"
    "LOCALE = L = RegexFlag(4)\n"
    "MULTILINE = M = RegexFlag(8)\n"
    "DOTALL = S = RegexFlag(16)\n"
    "UNICODE = U = RegexFlag(32)\n"
    "VERBOSE = X = RegexFlag(64)\n"
    "DEBUG = RegexFlag(128)\n"
    "ASCII = A = RegexFlag(256)\n"
    "\n"
    "_flag_names = [(1, 'TEMPLATE'), (2, 'IGNORECASE'), (4, 'LOCALE'), (8, 'MULTILINE'), (16, 'DOTALL'),\n"
    "               (32, 'UNICODE'), (64, 'VERBOSE'), (128, 'DEBUG'), (256, 'ASCII')]\n"
    "\n"
    "\n"
    "class error(Exception):\n"
    "    def __init__(self, msg, pattern=None, pos=None):\n"
    "        self.msg = msg\n"
    "        self.pattern = pattern\n"
    "        self.pos = pos\n"
    "        self.lineno = None\n"
    "        self.colno = None\n"
    "        if pattern is not None and pos is not None:\n"
    "            msg = '%s at position %d' % (msg, pos)\n"
    "            self.lineno = pattern.count('\\n', 0, pos) + 1\n"
    "            self.colno = pos - pattern.rfind('\\n', 0, pos)\n"
    "            if '\\n' in pattern:\n"
    "                msg = '%s (line %d, column %d)' % (msg, self.lineno, self.colno)\n"
    "        Exception.__init__(self, msg)\n"
    "\n"
    "\n"
    "def _flags_repr(flags):\n"
    "    names = [('re.' + name) for value, name in _flag_names if flags & value]\n"
    "    rest = flags & ~511\n"
    "    if rest:\n"
    "        names.append(hex(rest))\n"
    "    return '|'.join(names)\n"
    "\n"
    "\n"
    "def _check_string(string):\n"
    "    if not isinstance(string, str):\n"
    "        raise TypeError(\"expected string or bytes-like object, got '\" + type(string).__name__ + \"'\")\n"
    "\n"
    "\n"
    "_escapes = {'a': '\\a', 'b': '\\b', 'f': '\\f', 'n': '\\n', 'r': '\\r', 't': '\\t', 'v': '\\v', '\\\\': '\\\\'}\n"
    "_octal = '01234567'\n"
    "_digits = '0123456789'\n"
    "_letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'\n"
    "\n"
    "\n"
    "def _isidentifier(name):\n"
    "    for i in range(len(name)):\n"
    "        c = name[i]\n"
    "        if not (c == '_' or c.isalpha() or ord(c) > 127 or (i > 0 and c in _digits)):\n"
    "            return False\n"
    "    return len(name) > 0\n"
    "\n"
    "\n"
    "def _template(pattern, repl):\n"
    "    # a replacement string as a list of literal strings and group numbers\n"
    "    items = []\n"
    "    lit = []\n"
    "    i = 0\n"
    "    n = len(repl)\n"
    "    while i < n:\n"
    "        c = repl[i]\n"
    "        if c != '\\\\':\n"
    "            lit.append(c)\n"
    "            i += 1\n"
    "            continue\n"
    "        if i + 1 >= n:\n"
    "            raise error('bad escape (end of pattern)', repl, i)\n"
    "        d = repl[i + 1]\n"
    "        if d == 'g':\n"
    "            if i + 2 >= n or repl[i + 2] != '<':\n"
    "                raise error('missing <', repl, i + 2)\n"
    "            j = repl.find('>', i + 3)\n"
    "            if j < 0:\n"
    "                if i + 3 >= n:\n"
    "                    raise error('missing group name', repl, i + 3)\n"
    "                raise error('missing >, unterminated name', repl, i + 3)\n"
    "            name = repl[i + 3:j]\n"
    "            if not name:\n"
    "                raise error('missing group name', repl, i + 3)\n"
    "            if all([c in _digits for c in name]):\n"
    "                index = int(name)\n"
    "                if index > pattern.groups:\n"
    "                    raise error('invalid group reference %d' % index, repl, i + 3)\n"
    "            elif _isidentifier(name):\n"
    "                if name not in pattern.groupindex:\n"
    "                    raise IndexError('unknown group name ' + repr(name))\n"
    "                index = pattern.groupindex[name]\n"
    "            else:\n"
    "                raise error('bad character in group name ' + repr(name), repl, i + 3)\n"
    "            items.append(''.join(lit))\n"
    "            lit = []\n"
    "            items.append(index)\n"
    "            i = j + 1\n"
    "            continue\n"
    "        if d == '0':\n"
    "            j = i + 2\n"
    "            while j < n and j < i + 4 and repl[j] in _octal:\n"
    "                j += 1\n"
    "            lit.append(chr(int(repl[i + 1:j], 8)))\n"
    "            i = j\n"
    "            continue\n"
    "        if d in _digits:\n"
    "            j = i + 2\n"
    "            if j < n and repl[j] in _digits:\n"
    "                if d in _octal and repl[j] in _octal and j + 1 < n and repl[j + 1] in _octal:\n"
    "                    value = int(repl[i + 1:j + 2], 8)\n"
    "                    if value > 255:\n"
    "                        raise error('octal escape value ' + repl[i:j + 2] + ' outside of range 0-0o377', repl, i)\n"
    "                    lit.append(chr(value))\n"
    "                    i = j + 2\n"
    "                    continue\n"
    "                j += 1\n"
    "            index = int(repl[i + 1:j])\n"
    "            if index > pattern.groups:\n"
    "                raise error('invalid group reference %d' % index, repl, i + 1)\n"
    "            items.append(''.join(lit))\n"
    "            lit = []\n"
    "            items.append(index)\n"
    "            i = j\n"
    "            continue\n"
    "        if d in _escapes:\n"
    "            lit.append(_escapes[d])\n"
    "        elif d in _letters:\n"
    "            raise error('bad escape ' + repl[i:i + 2], repl, i)\n"
    "        else:\n"
    "            lit.append(repl[i:i + 2])\n"
    "        i += 2\n"
    "    items.append(''.join(lit))\n"
    "    return items\n"
    "\n"
    "\n"
    "def _expand(items, spans, base):\n"
    "    # base: where the groups' strings start in spans\n"
    "    out = []\n"
    "    for item in items:\n"
    "        if isinstance(item, int):\n"
    "            piece = spans[base + item]\n"
    "            if piece is not None:\n"
    "                out.append(piece)\n"
    "        else:\n"
    "            out.append(item)\n"
    "    return ''.join(out)\n"
    "\n"
    "\n"
    "class Pattern:\n"
    "    def __init__(self, pattern, flags):\n"
    "        r = _compile(pattern, flags._value_ if type(flags) is RegexFlag else flags)\n"
    "        if r[0] is None:\n"
    "            raise error(r[1], pattern, r[2])\n"
    "        self._code = r[0]\n"
    "        self.pattern = pattern\n"
    "        self.groupindex = r[1]\n"
    "        self.flags = r[2]\n"
    "        self.groups = r[3]\n"
    "\n"
    "    def __repr__(self):\n"
    "        flags = self.flags\n"
    "        if not flags & ASCII:\n"
    "            flags = flags & ~UNICODE\n"
    "        if flags:\n"
    "            return 're.compile(%r, %s)' % (self.pattern, _flags_repr(flags))\n"
    "        return 're.compile(%r)' % (self.pattern,)\n"
    "\n"
    "    def __eq__(self, other):\n"
    "        return isinstance(other, Pattern) and self.pattern == other.pattern and self.flags == other.flags\n"
    "\n"
    "    def __hash__(self):\n"
    "        return hash((self.pattern, self.flags))\n"
    "\n"
    "    def _one(self, string, pos, endpos, mode):\n"
    "        _check_string(string)\n"
    "        spans = _match(self._code, string, pos, endpos, mode)\n"
    "        if spans is None:\n"
    "            return None\n"
    "        return Match(self, string, pos, endpos, spans)\n"
    "\n"
    "    def match(self, string, pos=0, endpos=9223372036854775807):\n"
    "        return self._one(string, pos, endpos, 0)\n"
    "\n"
    "    def fullmatch(self, string, pos=0, endpos=9223372036854775807):\n"
    "        return self._one(string, pos, endpos, 1)\n"
    "\n"
    "    def search(self, string, pos=0, endpos=9223372036854775807):\n"
    "        return self._one(string, pos, endpos, 2)\n"
    "\n"
    "    def findall(self, string, pos=0, endpos=9223372036854775807):\n"
    "        _check_string(string)\n"
    "        out = []\n"
    "        groups = self.groups\n"
    "        base = 2 * groups + 3\n"
    "        found = _scan(self._code, string, pos, endpos, 0)\n"
    "        found.pop()\n"
    "        for spans in found:\n"
    "            if groups == 0:\n"
    "                out.append(spans[base])\n"
    "            elif groups == 1:\n"
    "                piece = spans[base + 1]\n"
    "                out.append('' if piece is None else piece)\n"
    "            else:\n"
    "                out.append(tuple([('' if piece is None else piece) for piece in spans[base + 1:base + groups + 1]]))\n"
    "        return out\n"
    "\n"
    "    def finditer(self, string, pos=0, endpos=9223372036854775807):\n"
    "        _check_string(string)\n"
    "        found = _scan(self._code, string, pos, endpos, 0)\n"
    "        found.pop()\n"
    "        for spans in found:\n"
    "            yield Match(self, string, pos, endpos, spans)\n"
    "\n"
    "    def subn(self, repl, string, count=0):\n"
    "        _check_string(string)\n"
    "        if isinstance(repl, str):\n"
    "            items = _template(self, repl)\n"
    "            if len(items) == 1:\n"
    "                literal = items[0]\n"
    "                func = None\n"
    "            else:\n"
    "                literal = None\n"
    "                func = None\n"
    "        elif callable(repl):\n"
    "            items = None\n"
    "            func = repl\n"
    "        else:\n"
    "            raise TypeError('decoding to str: need a bytes-like object, ' + type(repl).__name__ + ' found')\n"
    "        out = []\n"
    "        n = 0\n"
    "        if count < 0:\n"
    "            return (string, 0)\n"
    "        base = 2 * self.groups + 3\n"
    "        found = _scan(self._code, string, 0, len(string), count)\n"
    "        tail = found.pop()\n"
    "        for spans in found:\n"
    "            if spans[-1]:\n"
    "                out.append(spans[-1])\n"
    "            if func is not None:\n"
    "                piece = func(Match(self, string, 0, len(string), spans))\n"
    "                if piece is not None:\n"
    "                    if not isinstance(piece, str):\n"
    "                        raise TypeError('sequence item %d: expected str instance, %s found'\n"
    "                                        % (len(out), type(piece).__name__))\n"
    "                    out.append(piece)\n"
    "            elif literal is not None:\n"
    "                out.append(literal)\n"
    "            else:\n"
    "                out.append(_expand(items, spans, base))\n"
    "            n += 1\n"
    "        out.append(tail)\n"
    "        return (''.join(out), n)\n"
    "\n"
    "    def sub(self, repl, string, count=0):\n"
    "        return self.subn(repl, string, count)[0]\n"
    "\n"
    "    def split(self, string, maxsplit=0):\n"
    "        _check_string(string)\n"
    "        if maxsplit < 0:\n"
    "            return [string]\n"
    "        out = []\n"
    "        groups = self.groups\n"
    "        base = 2 * groups + 3\n"
    "        found = _scan(self._code, string, 0, len(string), maxsplit)\n"
    "        tail = found.pop()\n"
    "        for spans in found:\n"
    "            out.append(spans[-1])\n"
    "            if groups:\n"
    "                out.extend(spans[base + 1:base + groups + 1])\n"
    "        out.append(tail)\n"
    "        return out\n"
    "\n"
    "\n"
    "class Match:\n"
    "    def __init__(self, pattern, string, pos, endpos, spans):\n"
    "        self.re = pattern\n"
    "        self.string = string\n"
    "        n = len(string)\n"
    "        self.pos = 0 if pos < 0 else (n if pos > n else pos)\n"
    "        self.endpos = 0 if endpos < 0 else (n if endpos > n else endpos)\n"
    "        self._spans = spans\n"
    "        self._base = 2 * pattern.groups + 3\n"
    "        self.lastindex = spans[self._base - 1]\n"
    "        self.lastgroup = None\n"
    "        if self.lastindex is not None:\n"
    "            for name in pattern.groupindex:\n"
    "                if pattern.groupindex[name] == self.lastindex:\n"
    "                    self.lastgroup = name\n"
    "\n"
    "    def _index(self, g):\n"
    "        if isinstance(g, int) and not isinstance(g, bool):\n"
    "            if 0 <= g <= self.re.groups:\n"
    "                return g\n"
    "        elif isinstance(g, str):\n"
    "            if g in self.re.groupindex:\n"
    "                return self.re.groupindex[g]\n"
    "        raise IndexError('no such group')\n"
    "\n"
    "    def _get(self, g, default=None):\n"
    "        piece = self._spans[self._base + self._index(g)]\n"
    "        return default if piece is None else piece\n"
    "\n"
    "    def group(self, *args):\n"
    "        if not args:\n"
    "            return self._get(0)\n"
    "        if len(args) == 1:\n"
    "            return self._get(args[0])\n"
    "        return tuple([self._get(g) for g in args])\n"
    "\n"
    "    def __getitem__(self, g):\n"
    "        return self._get(g)\n"
    "\n"
    "    def groups(self, default=None):\n"
    "        return tuple([self._get(g, default) for g in range(1, self.re.groups + 1)])\n"
    "\n"
    "    def groupdict(self, default=None):\n"
    "        out = {}\n"
    "        for name in self.re.groupindex:\n"
    "            out[name] = self._get(name, default)\n"
    "        return out\n"
    "\n"
    "    def start(self, group=0):\n"
    "        return self._spans[2 * self._index(group)]\n"
    "\n"
    "    def end(self, group=0):\n"
    "        return self._spans[2 * self._index(group) + 1]\n"
    "\n"
    "    def span(self, group=0):\n"
    "        i = self._index(group)\n"
    "        return (self._spans[2 * i], self._spans[2 * i + 1])\n"
    "\n"
    "    @property\n"
    "    def regs(self):\n"
    "        return tuple([(self._spans[2 * i], self._spans[2 * i + 1]) for i in range(self.re.groups + 1)])\n"
    "\n"
    "    def expand(self, template):\n"
    "        return _expand(_template(self.re, template), self._spans, self._base)\n"
    "\n"
    "    def __bool__(self):\n"
    "        return True\n"
    "\n"
    "    def __repr__(self):\n"
    "        return '<re.Match object; span=(%d, %d), match=%r>' % (self._spans[0], self._spans[1], self._get(0))\n"
    "\n"
    "\n"
    "_cache = {}\n"
    "\n"
    "\n"
    "def compile(pattern, flags=0):\n"
    "    if isinstance(pattern, Pattern):\n"
    "        if flags:\n"
    "            raise ValueError('cannot process flags argument with a compiled pattern')\n"
    "        return pattern\n"
    "    if not isinstance(pattern, str):\n"
    "        raise TypeError('first argument must be string or compiled pattern')\n"
    "    key = (pattern, flags)\n"
    "    p = _cache.get(key)\n"
    "    if p is None:\n"
    "        p = Pattern(pattern, flags)\n"
    "        if len(_cache) >= 512:\n"
    "            _cache.clear()\n"
    "        _cache[key] = p\n"
    "    return p\n"
    "\n"
    "\n"
    "def purge():\n"
    "    _cache.clear()\n"
    "\n"
    "\n"
    "def match(pattern, string, flags=0):\n"
    "    return compile(pattern, flags).match(string)\n"
    "\n"
    "\n"
    "def fullmatch(pattern, string, flags=0):\n"
    "    return compile(pattern, flags).fullmatch(string)\n"
    "\n"
    "\n"
    "def search(pattern, string, flags=0):\n"
    "    return compile(pattern, flags).search(string)\n"
    "\n"
    "\n"
    "def findall(pattern, string, flags=0):\n"
    "    return compile(pattern, flags).findall(string)\n"
    "\n"
    "\n"
    "def finditer(pattern, string, flags=0):\n"
    "    return compile(pattern, flags).finditer(string)\n"
    "\n"
    "\n"
    "def sub(pattern, repl, string, count=0, flags=0):\n"
    "    return compile(pattern, flags).sub(repl, string, count)\n"
    "\n"
    "\n"
    "def subn(pattern, repl, string, count=0, flags=0):\n"
    "    return compile(pattern, flags).subn(repl, string, count)\n"
    "\n"
    "\n"
    "def split(pattern, string, maxsplit=0, flags=0):\n"
    "    return compile(pattern, flags).split(string, maxsplit)\n"
    "\n"
    "\n"
    "_special = '()[]{}?*+-|^$\\\\.&~# \\t\\n\\r\\v\\f'\n"
    "\n"
    "\n"
    "def escape(pattern):\n"
    "    if not isinstance(pattern, str):\n"
    "        raise TypeError('decoding to str: need a bytes-like object, ' + type(pattern).__name__ + ' found')\n"
    "    return ''.join([('\\\\' + c if c in _special else c) for c in pattern])\n";
/* source: end */

nn_object *repl_mod_re(void)
{
    return repl_mod_from_source("re", helpers, sizeof helpers / sizeof *helpers, source);
}
