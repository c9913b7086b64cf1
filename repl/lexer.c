/*
 * lexer.c — the tokenizer of the nnscope language (Lua's llex.c): source text
 * to an array of tokens with INDENT/DEDENT, implicit joining inside brackets,
 * backslash continuation, numbers and decoded strings. F-string bodies are kept
 * raw; the parser splits them. No parsing happens here.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repl_int.h"
#include "unicode_int.h"

#include <utf8proc.h>

#define MAX_PAREN 200    /* CPython's MAXLEVEL: "too many nested parentheses" */
#define MAX_INDENT 100   /* CPython's MAXINDENT: "too many levels of indentation" */

int repl_syntax_error(repl_parse_error *err, repl_parse_status status, nn_error_kind kind,
                      int line, int col, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    nn_error_set(kind, "%s", msg);
    if (err) {
        err->status = status;
        err->line = line;
        err->offset = col + 1;
        err->end_offset = 0;
        err->end_exact = false;
        err->tok_line = false;
    }
    return -1;
}

static const char *const token_texts[TK_COUNT] = {
    [TK_ENDMARKER] = "ENDMARKER", [TK_NAME] = "NAME", [TK_INT] = "NUMBER", [TK_FLOAT] = "NUMBER",
    [TK_STRING] = "STRING", [TK_NEWLINE] = "NEWLINE", [TK_INDENT] = "INDENT", [TK_DEDENT] = "DEDENT",
#define X(id, text) [TK_##id] = text,
    REPL_TOKEN_OPS(X)
    REPL_TOKEN_KEYWORDS(X)
#undef X
};

const char *repl_token_text(repl_token_kind kind)
{
    return (int)kind >= 0 && kind < TK_COUNT ? token_texts[kind] : "?";
}

typedef struct lexer {
    const char *src, *p, *end;
    const char *line_start;
    int line, col0;            /* col0: column of line_start on the first line */
    bool interactive, in_fstring;
    repl_ast_arena *arena;
    repl_tokens *out;
    repl_parse_error *err;
    int indents[MAX_INDENT + 1], altindents[MAX_INDENT + 1], nindent;
    struct { char c; int line, col; } parens[MAX_PAREN];
    int nparen;
} lexer;

static int col_of(const lexer *L, const char *q)
{
    return (int)(q - L->line_start) + L->col0;
}

/* An error that CPython's tokenizer raises: SyntaxError.text is the line without its newline */
static int error_at(lexer *L, nn_error_kind kind, int line, int col, const char *fmt, const char *arg)
{
    repl_syntax_error(L->err, REPL_PARSE_INVALID, kind, line, col, fmt, arg);
    if (L->err) L->err->tok_line = true;
    return -1;
}

/* An error of CPython's tokenizer on the current line: its SyntaxError.offset
   is col + 1 and its end_offset end (0 or -1, as CPython gives them). */
static int tokenizer_error(lexer *L, nn_error_kind kind, int col, int end, const char *msg)
{
    error_at(L, kind, L->line, col, "%s", msg);
    if (L->err) L->err->end_offset = end, L->err->end_exact = true, L->err->tok_line = false; /* the parser's: the line */
    return -1;
}

/* "unexpected EOF while parsing" after a `\\` (the parser's in CPython: the line with its newline) */
static int eof_error(lexer *L, int line, int col)
{
    error_at(L, NN_ERR_SYNTAX, line, col, "%s", "unexpected EOF while parsing");
    if (L->err) L->err->end_offset = -1, L->err->end_exact = true, L->err->tok_line = false;
    return -1;
}

static int incomplete(lexer *L)
{
    return repl_syntax_error(L->err, REPL_PARSE_INCOMPLETE, NN_ERR_SYNTAX, L->line, col_of(L, L->p),
                             "incomplete input");
}

static void newline_at(lexer *L, const char *after)
{
    L->line++;
    L->line_start = after;
    L->col0 = 0;
}

static repl_token *push(lexer *L, repl_token_kind kind, const char *start, int line, int col)
{
    repl_tokens *t = L->out;
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 64;
        repl_token *items = nn_realloc(t->items, (size_t)cap * sizeof *items);
        if (!items) {
            if (L->err) L->err->status = REPL_PARSE_FAILED;
            return NULL;
        }
        t->items = items;
        t->cap = cap;
    }
    repl_token *tok = &t->items[t->n++];
    memset(tok, 0, sizeof *tok);
    tok->kind = kind;
    tok->start = start;
    tok->line = line;
    tok->col = col;
    tok->end_line = L->line;
    tok->end_col = col_of(L, L->p);
    tok->len = (size_t)(L->p - start);
    return tok;
}

static bool is_name_start(unsigned char c) { return c == '_' || ((c | 32) >= 'a' && (c | 32) <= 'z') || c >= 0x80; }
static bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
static bool is_name_char(unsigned char c) { return is_name_start(c) || is_digit(c); }

static int hexval(unsigned char c)
{
    if (is_digit(c)) return c - '0';
    if ((c | 32) >= 'a' && (c | 32) <= 'f') return (c | 32) - 'a' + 10;
    return -1;
}

/* ---------------------------------------------------------------- strings */

static size_t utf8_put(char *o, unsigned long cp)
{
    if (cp < 0x80) { o[0] = (char)cp; return 1; }
    if (cp < 0x800) { o[0] = (char)(0xC0 | cp >> 6); o[1] = (char)(0x80 | (cp & 0x3F)); return 2; }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | cp >> 12); o[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | cp >> 18); o[1] = (char)(0x80 | (cp >> 12 & 0x3F));
    o[2] = (char)(0x80 | (cp >> 6 & 0x3F)); o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* The position CPython's messages give for byte i of a literal's body: it
   decodes the body after writing each non-ASCII character as \UXXXXXXXX (10
   bytes), so the bytes of a character before i count 10. */
static size_t escape_position(const char *s, size_t i)
{
    size_t pos = 0;
    for (size_t j = 0; j < i; j++) {
        unsigned char c = (unsigned char)s[j];
        pos += c < 0x80 ? 1 : (c & 0xC0) == 0xC0 ? 10 : 0;
    }
    return pos;
}

/* rc, after an error CPython's string parser places after the literal: an empty range there */
static int empty_range(repl_parse_error *err, int rc)
{
    if (err) err->end_offset = err->offset, err->end_exact = true;
    return rc;
}

int repl_decode_string(const char *s, size_t n, bool raw, bool fstring, int line, int col,
                       repl_ast_arena *arena, char **out, size_t *out_len, repl_parse_error *err)
{
    /* decoding never grows the text: \xhh (4 bytes) -> at most 2, \uXXXX -> 3, \U -> 4, \N{x} (5+) -> 4 */
    char *o = repl_ast_arena_alloc(arena, n + 1);
    if (!o) {
        if (err) err->status = REPL_PARSE_FAILED;
        return -1;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (fstring && (c == '{' || c == '}') && i + 1 < n && s[i + 1] == c) {
            o[k++] = c;
            i++;
            continue;
        }
        if (c != '\\' || raw || i + 1 >= n) {
            o[k++] = c;
            continue;
        }
        char e = s[++i];
        int digits = 0;
        switch (e) {
        case '\n': break;
        case '\\': o[k++] = '\\'; break;
        case '\'': o[k++] = '\''; break;
        case '"': o[k++] = '"'; break;
        case 'a': o[k++] = '\a'; break;
        case 'b': o[k++] = '\b'; break;
        case 'f': o[k++] = '\f'; break;
        case 'n': o[k++] = '\n'; break;
        case 'r': o[k++] = '\r'; break;
        case 't': o[k++] = '\t'; break;
        case 'v': o[k++] = '\v'; break;
        case 'x': digits = 2; break;
        case 'u': digits = 4; break;
        case 'U': digits = 8; break;
        case 'N': {
            /* \N{name}: the character of that name; errors as CPython's, with the
               escape's first and last byte positions in the literal */
            const char *close = i + 2 < n && s[i + 1] == '{' ? memchr(s + i + 2, '}', n - i - 2) : NULL;
            size_t at = i - 1, name = i + 2;
            int32_t cp = close && close > s + name ? repl_uc_lookup(s + name, (size_t)(close - s) - name) : -1;
            if (cp < 0) {
                size_t last = !close ? (i + 1 < n && s[i + 1] == '{' ? n - 1 : i) : close == s + name ? i + 1 : (size_t)(close - s);
                size_t first = escape_position(s, at);
                return empty_range(err, repl_syntax_error(err, REPL_PARSE_INVALID, NN_ERR_SYNTAX, line, col,
                    "(unicode error) 'unicodeescape' codec can't decode bytes in position %zu-%zu: %s", first,
                    first + escape_position(s + at, last - at),
                    close && close > s + name ? "unknown Unicode character name" : "malformed \\N character escape"));
            }
            k += utf8_put(o + k, (unsigned long)cp);
            i = (size_t)(close - s);
            break;
        }
        default:
            if (e >= '0' && e <= '7') {
                unsigned v = 0;
                int m = 0;
                while (m < 3 && i < n && s[i] >= '0' && s[i] <= '7') v = v * 8 + (unsigned)(s[i++] - '0'), m++;
                i--;
                k += utf8_put(o + k, v);
            } else {       /* unknown escapes stay as written (Python warns) */
                o[k++] = '\\';
                o[k++] = e;
            }
        }
        if (digits) {
            unsigned long v = 0;
            for (int m = 0; m < digits; m++) {
                int h = i + 1 + (size_t)m < n ? hexval((unsigned char)s[i + 1 + m]) : -1;
                if (h < 0)
                    return empty_range(err, repl_syntax_error(err, REPL_PARSE_INVALID, NN_ERR_SYNTAX, line, col,
                        "(unicode error) 'unicodeescape' codec can't decode bytes in position %zu-%zu: truncated %s escape",
                        escape_position(s, i - 1), escape_position(s, i - 1) + (size_t)m + 1, e == 'x' ? "\\xXX" : e == 'u' ? "\\uXXXX" : "\\UXXXXXXXX"));
                v = v * 16 + (unsigned long)h;
            }
            i += (size_t)digits;
            if (v > 0x10FFFF)
                return empty_range(err, repl_syntax_error(err, REPL_PARSE_INVALID, NN_ERR_SYNTAX, line, col,
                    "(unicode error) 'unicodeescape' codec can't decode bytes in position %zu-%zu: illegal Unicode character",
                    escape_position(s, i - (size_t)digits - 1), escape_position(s, i - (size_t)digits - 1) + (size_t)digits + 1));
            k += utf8_put(o + k, v);
        }
    }
    o[k] = '\0';
    *out = o;
    *out_len = k;
    return 0;
}

/* The body of a bytes literal: ASCII only; \xhh and octal escapes are bytes,
   \u, \U and \N stay as written (they are not escapes in bytes). */
static int decode_bytes(lexer *L, const char *s, size_t n, bool raw, int line, int col, char **out, size_t *out_len)
{
    char *o = repl_ast_arena_alloc(L->arena, n + 1);
    if (!o) {
        if (L->err) L->err->status = REPL_PARSE_FAILED;
        return -1;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x80) return error_at(L, NN_ERR_SYNTAX, line, col, "%s", "bytes can only contain ASCII literal characters");
        if (c != '\\' || raw || i + 1 >= n) {
            o[k++] = (char)c;
            continue;
        }
        char e = s[++i];
        const char *simple = strchr("\n\\'\"abfnrtv", e);
        if (e && simple) {
            static const char map[] = "\0\\'\"\a\b\f\n\r\t\v";
            if (e != '\n') o[k++] = map[simple - "\n\\'\"abfnrtv"];
        } else if (e == 'x') {
            int h1 = i + 1 < n ? hexval((unsigned char)s[i + 1]) : -1, h2 = i + 2 < n ? hexval((unsigned char)s[i + 2]) : -1;
            if (h1 < 0 || h2 < 0) {
                char msg[80];
                snprintf(msg, sizeof msg, "(value error) invalid \\x escape at position %zu", i - 1);
                return error_at(L, NN_ERR_SYNTAX, line, col, "%s", msg);
            }
            o[k++] = (char)(h1 * 16 + h2);
            i += 2;
        } else if (e >= '0' && e <= '7') {
            unsigned v = 0;
            int m = 0;
            while (m < 3 && i < n && s[i] >= '0' && s[i] <= '7') v = v * 8 + (unsigned)(s[i++] - '0'), m++;
            i--;
            o[k++] = (char)(v & 0xFF);
        } else {
            o[k++] = '\\';
            o[k++] = e;
        }
    }
    o[k] = 0;
    *out = o;
    *out_len = k;
    return 0;
}

/* STRING: [prefix] (quote body quote | triple body triple); p at the prefix */
static int lex_string(lexer *L, const char *start, int line, int col, const char *q)
{
    bool raw = false, fstr = false, bytes = false, uni = false;
    for (const char *c = start; c < q; c++) {
        if ((*c | 32) == 'r') raw = true;
        else if ((*c | 32) == 'f') fstr = true;
        else if ((*c | 32) == 'b') bytes = true;
        else if ((*c | 32) == 'u') uni = true;
    }
    if ((bytes && (fstr || uni)) || (uni && (raw || fstr)) || (start < q && (start[0] | 32) == (q[-1] | 32) && q - start == 2))
        return error_at(L, NN_ERR_SYNTAX, line, col, "%s", "invalid syntax");
    char quote = *q;
    bool triple = q + 2 < L->end && q[1] == quote && q[2] == quote;
    const char *body = q + (triple ? 3 : 1);
    int body_line = L->line, body_col = col_of(L, body);
    const char *p = body;
    for (;;) {
        if (p >= L->end) {
            L->p = p;
            if (triple) {
                if (L->interactive) return incomplete(L);
                int last = L->line - (p > L->src && p[-1] == '\n');
                char msg[96];
                snprintf(msg, sizeof msg, "unterminated triple-quoted string literal (detected at line %d)", last);
                return error_at(L, NN_ERR_SYNTAX, line, col, "%s", msg);
            }
            char msg[96];
            snprintf(msg, sizeof msg, "unterminated string literal (detected at line %d)", L->line);
            return error_at(L, NN_ERR_SYNTAX, line, col, "%s", msg);
        }
        char c = *p;
        if (c == '\\' && p + 1 < L->end) {
            if (p[1] == '\n') newline_at(L, p + 2);
            p += 2;
            continue;
        }
        if (c == '\n') {
            if (!triple) {
                char msg[96];
                snprintf(msg, sizeof msg, "unterminated string literal (detected at line %d)", L->line);
                return error_at(L, NN_ERR_SYNTAX, line, col, "%s", msg);
            }
            newline_at(L, p + 1);
            p++;
            continue;
        }
        if (c == quote && (!triple || (p + 2 < L->end && p[1] == quote && p[2] == quote))) break;
        p++;
    }
    const char *body_end = p;
    L->p = p + (triple ? 3 : 1);
    repl_token *tok = push(L, TK_STRING, start, line, col);
    if (!tok) return -1;
    tok->fstring = fstr;
    tok->raw = raw;
    tok->bytes = bytes;
    tok->body_line = body_line;
    tok->body_col = body_col;
    if (fstr) {
        tok->str = body;
        tok->str_len = (size_t)(body_end - body);
        return 0;
    }
    char *s;
    size_t n;
    if (bytes ? decode_bytes(L, body, (size_t)(body_end - body), raw, line, col, &s, &n) < 0
              : repl_decode_string(body, (size_t)(body_end - body), raw, false, L->line, tok->end_col, L->arena, &s, &n,
                                   L->err) < 0) /* CPython points a bad escape's error after the literal */
        return -1;
    tok->str = s;
    tok->str_len = n;
    return 0;
}

/* ---------------------------------------------------------------- numbers */

/* NUMBER: 0x.. | 0o.. | 0b.. | digits ['.' digits] [e[+-]digits] (with '_') */
/* CPython's tokenizer reads numbers as below (tokenizer.c: tok_decimal_tail,
   verify_end_of_number), and its errors are at its read position: q, the
   character it backed up to or the one after the digit it read last. */
static int number_error(lexer *L, int line, const char *q, const char *msg)
{
    return error_at(L, NN_ERR_SYNTAX, line, col_of(L, q) - 1, "%s", msg);
}

/* A character that could continue a name (CPython's is_potential_identifier_char). */
static bool name_char_at(const lexer *L, const char *q)
{
    return q < L->end && (is_name_char((unsigned char)*q) || (unsigned char)*q >= 128);
}

static bool starts_with(const lexer *L, const char *q, const char *word)
{
    size_t n = strlen(word);
    return (size_t)(L->end - q) >= n && memcmp(q, word, n) == 0;
}

/* A number ends at q: a keyword may follow it at once (`1if x else 2`, which
   CPython 3.11 accepts with a DeprecationWarning it does not show), any other
   name character is "invalid <kind> literal". */
static int end_of_number(lexer *L, int line, const char *q, const char *kind)
{
    bool keyword = starts_with(L, q, "and") || starts_with(L, q, "else") || starts_with(L, q, "for") ||
                   starts_with(L, q, "if") || starts_with(L, q, "in") || starts_with(L, q, "is") ||
                   starts_with(L, q, "or") || starts_with(L, q, "not");
    if (keyword || !name_char_at(L, q)) return 0;
    char msg[64];
    snprintf(msg, sizeof msg, "invalid %s literal", kind);
    return number_error(L, line, q, msg);
}

/* Digits with single '_' between them, from p (a digit): the end, or NULL after
   the error "invalid decimal literal". */
static const char *decimal_digits(lexer *L, int line, const char *p)
{
    for (;;) {
        while (p < L->end && is_digit((unsigned char)*p)) p++;
        if (p >= L->end || *p != '_') return p;
        if (++p >= L->end || !is_digit((unsigned char)*p)) return number_error(L, line, p, "invalid decimal literal"), NULL;
    }
}

/* The fraction, exponent and imaginary suffix after a decimal's integer digits
   at p: the number's end, or NULL after an error. */
static const char *decimal_tail(lexer *L, int line, const char *p, bool *is_float, bool *imag)
{
    if (p < L->end && *p == '.') {
        *is_float = true;
        if (++p < L->end && is_digit((unsigned char)*p) && !(p = decimal_digits(L, line, p))) return NULL;
    }
    if (p < L->end && (*p | 32) == 'e') {
        const char *e = p++;
        if (p < L->end && (*p == '+' || *p == '-')) {
            if (++p >= L->end || !is_digit((unsigned char)*p)) return number_error(L, line, p, "invalid decimal literal"), NULL;
        } else if (p >= L->end || !is_digit((unsigned char)*p)) {
            return end_of_number(L, line, e, "decimal") < 0 ? NULL : e; /* `1else`: the number is 1 */
        }
        *is_float = true;
        if (!(p = decimal_digits(L, line, p))) return NULL;
    }
    if (p < L->end && (*p | 32) == 'j') {
        *imag = *is_float = true;
        return end_of_number(L, line, p + 1, "imaginary") < 0 ? NULL : p + 1;
    }
    return end_of_number(L, line, p, "decimal") < 0 ? NULL : p;
}

/* 0x / 0o / 0b digits (single '_' between them) from p, after the prefix: the
   end, the value in *v (*overflow beyond int64), or NULL after an error. */
static const char *based_digits(lexer *L, int line, const char *p, int base, uint64_t *v, bool *overflow)
{
    const char *kind = base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary";
    char msg[64];
    do {
        if (p < L->end && *p == '_') p++;
        int h = p < L->end ? hexval((unsigned char)*p) : -1;
        if (h < 0 || h >= base) {
            if (base != 16 && p < L->end && is_digit((unsigned char)*p)) break;
            snprintf(msg, sizeof msg, "invalid %s literal", kind);
            return number_error(L, line, p, msg), NULL;
        }
        for (; p < L->end && (h = hexval((unsigned char)*p)) >= 0 && h < base; p++) {
            if (*v > (UINT64_MAX - (uint64_t)h) / (uint64_t)base) *overflow = true;
            *v = *v * (uint64_t)base + (uint64_t)h;
            if (*v > (uint64_t)INT64_MAX) *overflow = true;
        }
    } while (p < L->end && *p == '_');
    if (base != 16 && p < L->end && is_digit((unsigned char)*p)) {
        snprintf(msg, sizeof msg, "invalid digit '%c' in %s literal", *p, kind);
        return number_error(L, line, p + 1, msg), NULL;
    }
    return end_of_number(L, line, p, kind) < 0 ? NULL : p;
}

static int lex_number(lexer *L)
{
    const char *start = L->p, *p = start;
    int line = L->line, col = col_of(L, start);
    if (p[0] == '0' && p + 1 < L->end && p[1] && strchr("xXoObB", p[1])) {
        int base = (p[1] | 32) == 'x' ? 16 : (p[1] | 32) == 'o' ? 8 : 2;
        uint64_t v = 0;
        bool overflow = false;
        if (!(p = based_digits(L, line, p + 2, base, &v, &overflow))) return -1;
        L->p = p;
        repl_token *tok = push(L, TK_INT, start, line, col);
        if (!tok) return -1;
        tok->ival = (int64_t)v;
        tok->overflow = overflow;
        return 0;
    }
    bool is_float = false, imag = false;
    if (*p == '0') { /* zeros ('0_0' too); then a nonzero digit only in a float or imaginary number */
        for (p++;; p++) {
            if (p < L->end && *p == '_' && (++p >= L->end || !is_digit((unsigned char)*p)))
                return number_error(L, line, p, "invalid decimal literal");
            if (p >= L->end || *p != '0') break;
        }
        const char *zeros_end = p + 1, *digits = p;
        if (p < L->end && is_digit((unsigned char)*p) && !(p = decimal_digits(L, line, p))) return -1;
        bool fraction = p < L->end && (*p == '.' || (*p | 32) == 'e' || (*p | 32) == 'j');
        if (p > digits && !fraction) {
            error_at(L, NN_ERR_SYNTAX, line, col, "%s",
                     "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers");
            if (L->err) L->err->end_offset = col_of(L, zeros_end), L->err->end_exact = true;
            return -1;
        }
    } else if (!(p = decimal_digits(L, line, p))) {
        return -1;
    }
    if (!(p = decimal_tail(L, line, p, &is_float, &imag))) return -1;
    char buf[512];
    size_t k = 0;
    for (const char *q = start; q < p - imag && k < sizeof buf - 1; q++)
        if (*q != '_') buf[k++] = *q;
    buf[k] = '\0';
    L->p = p;
    repl_token *tok = push(L, is_float ? TK_FLOAT : TK_INT, start, line, col);
    if (!tok) return -1;
    if (is_float) {
        tok->fval = strtod(buf, NULL);
        tok->imag = imag;
    } else {
        uint64_t v = 0;
        for (size_t i = 0; i < k; i++) {
            uint64_t d = (uint64_t)(buf[i] - '0');
            if (v > ((uint64_t)INT64_MAX - d) / 10) { tok->overflow = true; break; }
            v = v * 10 + d;
        }
        tok->ival = (int64_t)v;
    }
    return 0;
}

/* ---------------------------------------------------------------- the loop */

/* At the start of a logical line: measure the indentation, emit INDENT/DEDENT
   tokens. Returns 1 when the line is blank (skipped), 0, or -1. */
static int lex_indentation(lexer *L)
{
    int col = 0, altcol = 0;
    const char *p = L->p;
    for (; p < L->end; p++) {
        if (*p == ' ') col++, altcol++;
        else if (*p == '\t') col = (col / 8 + 1) * 8, altcol++;
        else if (*p == '\f') col = altcol = 0;
        else break;
    }
    L->p = p;
    if (p >= L->end) return 1;
    if (*p == '#' || *p == '\n' || *p == '\r' || (*p == '\\' && p + 1 < L->end && p[1] == '\n')) {
        if (*p == '\\') { newline_at(L, p + 2); L->p = p + 2; return 1; }
        while (L->p < L->end && *L->p != '\n') L->p++;
        if (L->p < L->end) { L->p++; newline_at(L, L->p); }
        return 1;
    }
    /* CPython's tokenizer: the columns at tab size 8 (col) and at tab size 1
       (altcol) must order the lines alike, else TabError; its tokenizer errors
       are at offset 1 (end_offset 0), a dedent to no level at the line's end */
    int top = L->indents[L->nindent - 1], alttop = L->altindents[L->nindent - 1];
    if (col == top) {
        if (altcol != alttop) goto tab_error;
    } else if (col > top) {
        if (L->nindent >= MAX_INDENT)
            return tokenizer_error(L, NN_ERR_INDENTATION, 0, 0, "too many levels of indentation");
        if (altcol <= alttop) goto tab_error;
        L->indents[L->nindent] = col;
        L->altindents[L->nindent++] = altcol;
        if (!push(L, TK_INDENT, p, L->line, col_of(L, p))) return -1;
    } else {
        while (L->nindent > 1 && col < L->indents[L->nindent - 1]) {
            L->nindent--;
            if (!push(L, TK_DEDENT, p, L->line, col_of(L, p))) return -1;
        }
        if (col != L->indents[L->nindent - 1]) {
            const char *eol = memchr(p, '\n', (size_t)(L->end - p));
            return tokenizer_error(L, NN_ERR_INDENTATION, col_of(L, eol ? eol : L->end), -1,
                                   "unindent does not match any outer indentation level");
        }
        if (altcol != L->altindents[L->nindent - 1]) goto tab_error;
    }
    return 0;
tab_error:
    return tokenizer_error(L, NN_ERR_TAB, 0, 0, "inconsistent use of tabs and spaces in indentation");
}

static int lex_op(lexer *L)
{
    static const struct { repl_token_kind kind; const char *text; } ops[] = {
#define X(id, text) {TK_##id, text},
        REPL_TOKEN_OPS(X)
#undef X
    };
    const char *start = L->p;
    int line = L->line, col = col_of(L, start);
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        size_t n = strlen(ops[i].text);
        if ((size_t)(L->end - start) < n || memcmp(start, ops[i].text, n) != 0) continue;
        char c = ops[i].text[0];
        if (n == 1 && (c == '(' || c == '[' || c == '{')) {
            if (L->nparen >= MAX_PAREN)
                return error_at(L, NN_ERR_SYNTAX, line, col, "%s", "too many nested parentheses");
            L->parens[L->nparen].c = c;
            L->parens[L->nparen].line = line;
            L->parens[L->nparen++].col = col;
        } else if (n == 1 && (c == ')' || c == ']' || c == '}')) {
            char msg[160];
            if (L->nparen == 0) {
                snprintf(msg, sizeof msg, "unmatched '%c'", c);
                return error_at(L, NN_ERR_SYNTAX, line, col, "%s", msg);
            }
            char open = L->parens[L->nparen - 1].c;
            if ((open == '(' && c != ')') || (open == '[' && c != ']') || (open == '{' && c != '}')) {
                int oline = L->parens[L->nparen - 1].line;
                if (oline != line)
                    snprintf(msg, sizeof msg, "closing parenthesis '%c' does not match opening parenthesis '%c' on line %d",
                             c, open, oline);
                else
                    snprintf(msg, sizeof msg, "closing parenthesis '%c' does not match opening parenthesis '%c'", c, open);
                return error_at(L, NN_ERR_SYNTAX, line, col, "%s", msg);
            }
            L->nparen--;
        }
        L->p += n;
        return push(L, ops[i].kind, start, line, col) ? 0 : -1;
    }
    error_at(L, NN_ERR_SYNTAX, line, col, "%s", "invalid syntax"); /* `$`: the parser's in CPython */
    if (L->err) L->err->tok_line = false;
    return -1;
}

/* A name with bytes past ASCII holds only identifier characters (CPython's
   verify_identifier): else "invalid character '€' (U+20AC)", or "invalid
   non-printable character U+200B" for a format, control or space character. */
static int check_identifier(lexer *L, const char *s, size_t n, int line)
{
    for (size_t i = 0; i < n;) {
        utf8proc_int32_t cp;
        utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s + i, (utf8proc_ssize_t)(n - i), &cp);
        if (k < 0) return error_at(L, NN_ERR_SYNTAX, line, col_of(L, s + i), "%s", "invalid UTF-8 in a name");
        if (!repl_cp_identifier((uint32_t)cp, i == 0)) {
            char what[64];
            if (repl_cp_printable((uint32_t)cp))
                snprintf(what, sizeof what, "invalid character '%.*s' (U+%04X)", (int)k, s + i, (unsigned)cp);
            else snprintf(what, sizeof what, "invalid non-printable character U+%04X", (unsigned)cp);
            return error_at(L, NN_ERR_SYNTAX, line, col_of(L, s + i), "%s", what);
        }
        i += (size_t)k;
    }
    return 0;
}

/* A name past ASCII is the NFKC form of what was written (PEP 3131, as CPython's
   parser makes it): `ﬁ` is `fi`, `ℌ` is `H`; tok->str holds it (arena) when it differs. */
static int normalize_name(lexer *L, repl_token *tok)
{
    utf8proc_uint8_t *nfkc = NULL;
    utf8proc_ssize_t n = utf8proc_map((const utf8proc_uint8_t *)tok->start, (utf8proc_ssize_t)tok->len, &nfkc,
                                      UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT);
    bool same = n == (utf8proc_ssize_t)tok->len && memcmp(nfkc, tok->start, tok->len) == 0;
    if (n >= 0 && !same) {
        tok->str = repl_ast_arena_strndup(L->arena, (const char *)nfkc, (size_t)n);
        tok->str_len = (size_t)n;
    }
    free(nfkc); /* utf8proc's, from malloc */
    if (n < 0 || (!same && !tok->str)) { /* the name was checked: only memory can fail */
        if (L->err) L->err->status = REPL_PARSE_FAILED;
        nn_error_set(NN_ERR_MEMORY, "out of memory");
        return -1;
    }
    return 0;
}

static int lex_name(lexer *L)
{
    static const struct { repl_token_kind kind; const char *text; } kws[] = {
#define X(id, text) {TK_##id, text},
        REPL_TOKEN_KEYWORDS(X)
#undef X
    };
    const char *start = L->p;
    int line = L->line, col = col_of(L, start);
    bool ascii = true;
    while (L->p < L->end && is_name_char((unsigned char)*L->p)) ascii &= (unsigned char)*L->p++ < 0x80;
    size_t n = (size_t)(L->p - start);
    if (!ascii && check_identifier(L, start, n, line) < 0) return -1;
    /* a string prefix: r, f, rf, fr, u, b in any case, then a quote */
    if (n <= 2 && L->p < L->end && (*L->p == '\'' || *L->p == '"')) {
        bool ok = true;
        for (size_t i = 0; i < n; i++)
            if (!strchr("rRfFuUbB", start[i])) ok = false;
        if (ok) return lex_string(L, start, line, col, L->p);
    }
    repl_token_kind kind = TK_NAME;
    for (size_t i = 0; i < sizeof kws / sizeof kws[0]; i++)
        if (strlen(kws[i].text) == n && memcmp(kws[i].text, start, n) == 0) kind = kws[i].kind;
    repl_token *tok = push(L, kind, start, line, col);
    if (!tok) return -1;
    return ascii ? 0 : normalize_name(L, tok);
}

int repl_lex(const char *src, size_t len, int line0, int col0, bool interactive,
             bool in_fstring, repl_ast_arena *arena, repl_tokens *out, repl_parse_error *err)
{
    lexer L = {.src = src, .p = src, .end = src + len, .line_start = src, .line = line0, .col0 = col0,
               .interactive = interactive, .in_fstring = in_fstring, .arena = arena, .out = out,
               .err = err, .nindent = 1};
    out->items = NULL;
    out->n = out->cap = 0;
    out->deferred = false;
    bool at_line_start = !in_fstring;
    for (;;) {
        if (at_line_start && L.nparen == 0) {
            int r = lex_indentation(&L);
            if (r < 0) goto fail;
            if (r == 1) {
                if (L.p >= L.end) break;
                continue;
            }
            at_line_start = false;
        }
        while (L.p < L.end && (*L.p == ' ' || *L.p == '\t' || *L.p == '\f')) L.p++;
        if (L.p >= L.end) break;
        char c = *L.p;
        if (c == '#') {
            while (L.p < L.end && *L.p != '\n') L.p++;
            continue;
        }
        if (c == '\\') {
            const char *q = L.p + 1;
            if (q < L.end && *q == '\r') q++;
            if (q < L.end && *q == '\n') {
                newline_at(&L, q + 1);
                L.p = q + 1;
                if (L.p >= L.end) {
                    if (interactive) { incomplete(&L); goto fail; }
                    eof_error(&L, L.line, 0);
                    goto fail;
                }
                continue;
            }
            if (q >= L.end) {
                if (interactive) { incomplete(&L); goto fail; }
                eof_error(&L, L.line, col_of(&L, L.p) + 1);
                goto fail;
            }
            error_at(&L, NN_ERR_SYNTAX, L.line, col_of(&L, L.p) + 1, "%s",
                     "unexpected character after line continuation character");
            goto fail;
        }
        if (c == '\r') { L.p++; continue; }
        if (c == '\n') {
            if (L.nparen == 0 && !in_fstring) {
                if (!push(&L, TK_NEWLINE, L.p, L.line, col_of(&L, L.p))) goto fail;
                L.out->items[L.out->n - 1].len = 1;
                at_line_start = true;
            }
            L.p++;
            newline_at(&L, L.p);
            continue;
        }
        int r;
        if (is_digit((unsigned char)c) || (c == '.' && L.p + 1 < L.end && is_digit((unsigned char)L.p[1])))
            r = lex_number(&L);
        else if (is_name_start((unsigned char)c))
            r = lex_name(&L);
        else if (c == '\'' || c == '"')
            r = lex_string(&L, L.p, L.line, col_of(&L, L.p), L.p);
        else
            r = lex_op(&L);
        if (r < 0) goto fail;
    }
    if (L.nparen > 0) {
        /* reported by the caller unless the parser fails first (out->deferred) */
        if (interactive) {
            incomplete(&L);
        } else {
            char msg[32];
            snprintf(msg, sizeof msg, "'%c' was never closed", L.parens[L.nparen - 1].c);
            error_at(&L, NN_ERR_SYNTAX, L.parens[L.nparen - 1].line, L.parens[L.nparen - 1].col, "%s", msg);
            /* the parser's, at the end: CPython's text keeps the newline only on the last line */
            int last = L.p > L.src && L.p[-1] == '\n' ? L.line - 1 : L.line;
            if (err) err->tok_line = L.parens[L.nparen - 1].line != last, err->end_offset = 0, err->end_exact = true;
        }
        if (in_fstring) goto fail;
        out->deferred = true;
        if (!push(&L, TK_ENDMARKER, L.p, L.line, col_of(&L, L.p))) goto fail;
        return 0;
    }
    if (!in_fstring && out->n > 0 && out->items[out->n - 1].kind != TK_NEWLINE &&
        out->items[out->n - 1].kind != TK_DEDENT && out->items[out->n - 1].kind != TK_INDENT) {
        if (!push(&L, TK_NEWLINE, L.p, L.line, col_of(&L, L.p))) goto fail;
    }
    while (L.nindent > 1) {
        L.nindent--;
        if (!push(&L, TK_DEDENT, L.p, L.line, col_of(&L, L.p))) goto fail;
    }
    repl_token *end = push(&L, TK_ENDMARKER, L.p, L.line, col_of(&L, L.p));
    if (!end) goto fail;
    /* where CPython's tokenizer puts the end: at the input's last newline (its own, or
       the one it adds after a last line without one) */
    end->end_line = end->line, end->end_col = end->col;
    if (L.p > L.src && L.p[-1] == '\n' && end->line > line0) {
        const char *nl = L.p - 1, *start = nl;
        while (start > L.src && start[-1] != '\n') start--;
        end->end_line = end->line - 1;
        end->end_col = (int)(nl - start) + (end->end_line == line0 ? col0 : 0);
    }
    return 0;
fail:
    if (err && err->status == REPL_PARSE_OK) err->status = REPL_PARSE_FAILED;
    nn_free(out->items);
    out->items = NULL;
    out->n = out->cap = 0;
    return -1;
}

size_t repl_translate_newlines(char *s)
{
    char *o = s;
    for (const char *p = s; *p; p++) {
        if (*p == '\r') {
            *o++ = '\n';
            if (p[1] == '\n') p++;
        } else {
            *o++ = *p;
        }
    }
    *o = '\0';
    return (size_t)(o - s);
}
