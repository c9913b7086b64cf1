/*
 * mod_json_scan.c — json's decoder, the scanner of CPython's Modules/_json.c
 * followed step by step (read for its rules, not copied): the same grammar
 * (RFC 8259 plus NaN, Infinity and -Infinity), integers of any size, the same
 * messages at the same character positions, parse_float / parse_int /
 * parse_constant / object_hook / object_pairs_hook, strict=False for control
 * characters in strings, and nesting counted against the recursion limit.
 * Jansson, used before, could not read NaN, integers past 64 bits or floats
 * past the double range, and said where a document was bad in its own terms.
 *
 *   _decode(s, idx, object_hook, object_pairs_hook, parse_float, parse_int,
 *           parse_constant, strict): (value, end, None), or (None, None,
 *           (message, position)) with the position in characters.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bytes_int.h"
#include "stdlib_int.h"

typedef struct scan {
    const char *s;  /* the document, UTF-8 */
    size_t n;       /* its bytes */
    nn_object *object_hook, *pairs_hook, *parse_float, *parse_int, *parse_constant; /* None or callables */
    bool strict;
    const char *err; /* the message of a bad document (no Python error set) */
    size_t err_at;   /* its byte position */
} scan;

static nn_object *scan_once(scan *sc, size_t idx, size_t *end);

static nn_object *bad(scan *sc, const char *msg, size_t at)
{
    sc->err = msg;
    sc->err_at = at;
    return NULL;
}

static size_t skip_ws(const scan *sc, size_t i)
{
    while (i < sc->n && (sc->s[i] == ' ' || sc->s[i] == '\t' || sc->s[i] == '\n' || sc->s[i] == '\r')) i++;
    return i;
}

static int hex4(const char *p, unsigned *out)
{
    unsigned v = 0;
    for (int k = 0; k < 4; k++) {
        char c = p[k];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return -1;
    }
    *out = v;
    return 0;
}

/* The string whose opening quote is at begin; *end: past its closing quote. */
static nn_object *scan_string(scan *sc, size_t begin, size_t *end)
{
    sbuf b = {0};
    size_t i = begin + 1;
    for (;;) {
        size_t j = i;
        char c = 0;
        for (; j < sc->n; j++) {
            c = sc->s[j];
            if (c == '"' || c == '\\') break;
            if ((unsigned char)c <= 0x1f && sc->strict) {
                nn_free(repl_sb_finish(&b));
                return bad(sc, "Invalid control character at", j);
            }
        }
        if (j >= sc->n) {
            nn_free(repl_sb_finish(&b));
            return bad(sc, "Unterminated string starting at", begin);
        }
        repl_sb_add(&b, sc->s + i, j - i);
        j++;
        if (c == '"') {
            i = j;
            break;
        }
        if (j == sc->n) {
            nn_free(repl_sb_finish(&b));
            return bad(sc, "Unterminated string starting at", begin);
        }
        c = sc->s[j];
        if (c != 'u') {
            static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
            const char *k = c ? strchr(from, c) : NULL;
            if (!k) {
                nn_free(repl_sb_finish(&b));
                return bad(sc, "Invalid \\escape", j - 1);
            }
            repl_sb_add(&b, &to[k - from], 1);
            i = j + 1;
            continue;
        }
        /* \uXXXX: j is at the u; CPython wants a character after the four digits */
        unsigned cp, lo;
        if (j + 5 >= sc->n || hex4(sc->s + j + 1, &cp) < 0) {
            nn_free(repl_sb_finish(&b));
            return bad(sc, "Invalid \\uXXXX escape", j);
        }
        i = j + 5;
        if (cp >= 0xd800 && cp <= 0xdbff && i + 6 < sc->n && sc->s[i] == '\\' && sc->s[i + 1] == 'u') {
            if (hex4(sc->s + i + 2, &lo) < 0) {
                nn_free(repl_sb_finish(&b));
                return bad(sc, "Invalid \\uXXXX escape", i + 1);
            }
            if (lo >= 0xdc00 && lo <= 0xdfff) {
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                i += 6;
            }
        }
        repl_put_utf8(&b, cp);
    }
    *end = i;
    size_t len = b.len;
    char *text = repl_sb_finish(&b);
    nn_object *r = text ? nn_str_from(text, len) : NULL;
    nn_free(text);
    return r;
}

static nn_object *call1(nn_object *fn, nn_object *arg)
{
    nn_object *r = arg ? repl_call_object(fn, &arg, 1, NULL) : NULL;
    NN_RELEASE(arg);
    return r;
}

/* NaN, Infinity, -Infinity: parse_constant(name), else the float */
static nn_object *constant(scan *sc, const char *name, double v)
{
    if (!nn_is_none(sc->parse_constant)) return call1(sc->parse_constant, nn_str_new(name));
    return nn_float_new(v);
}

static nn_object *scan_number(scan *sc, size_t start, size_t *end)
{
    const char *s = sc->s;
    size_t i = start, last = sc->n - 1; /* CPython's end_idx */
    bool is_float = false;
    if (s[i] == '-' && ++i > last) return bad(sc, "Expecting value", start);
    if (s[i] >= '1' && s[i] <= '9') {
        for (i++; i <= last && s[i] >= '0' && s[i] <= '9'; i++) {}
    } else if (s[i] == '0') {
        i++;
    } else {
        return bad(sc, "Expecting value", start);
    }
    if (i < last && s[i] == '.' && s[i + 1] >= '0' && s[i + 1] <= '9') {
        is_float = true;
        for (i += 2; i <= last && s[i] >= '0' && s[i] <= '9'; i++) {}
    }
    if (i < last && (s[i] == 'e' || s[i] == 'E')) {
        size_t e_start = i++;
        if (i < last && (s[i] == '-' || s[i] == '+')) i++;
        while (i <= last && s[i] >= '0' && s[i] <= '9') i++;
        if (s[i - 1] >= '0' && s[i - 1] <= '9') is_float = true;
        else i = e_start;
    }
    *end = i;
    nn_object *custom = is_float ? sc->parse_float : sc->parse_int;
    if (!nn_is_none(custom)) return call1(custom, nn_str_from(s + start, i - start));
    char buf[32];
    if (i - start < sizeof buf) {
        memcpy(buf, s + start, i - start);
        buf[i - start] = 0;
        if (is_float) return nn_float_new(strtod(buf, NULL)); /* correctly rounded, as CPython's */
        if (i - start <= 18) return nn_int_new(strtoll(buf, NULL, 10));
    }
    /* longer: the language's int() and float() (big integers, the 4300-digit limit) */
    nn_object *fn = repl_nmap_get(&repl_current->builtins, is_float ? "float" : "int");
    return fn ? call1(fn, nn_str_from(s + start, i - start)) : NULL;
}

/* After an item ending at next: 0 at the closing bracket (*i on it), 1 past a
   comma (*i on the next item), -1 with "Expecting ',' delimiter". */
static int after_item(scan *sc, size_t *i, size_t next, char close)
{
    *i = skip_ws(sc, next);
    if (*i < sc->n && sc->s[*i] == close) return 0;
    if (*i >= sc->n || sc->s[*i] != ',') {
        bad(sc, "Expecting ',' delimiter", *i);
        return -1;
    }
    *i = skip_ws(sc, *i + 1);
    return 1;
}

static nn_object *scan_object(scan *sc, size_t start, size_t *end)
{
    bool pairs = !nn_is_none(sc->pairs_hook);
    nn_object *r = pairs ? nn_list_new(0) : nn_dict_new();
    if (!r) return NULL;
    size_t i = skip_ws(sc, start + 1);
    if (i >= sc->n || sc->s[i] != '}') {
        for (;;) {
            if (i >= sc->n || sc->s[i] != '"') goto bad_name;
            size_t next;
            nn_object *key = scan_string(sc, i, &next);
            if (!key) goto fail;
            i = skip_ws(sc, next);
            if (i >= sc->n || sc->s[i] != ':') {
                NN_RELEASE(key);
                bad(sc, "Expecting ':' delimiter", i);
                goto fail;
            }
            i = skip_ws(sc, i + 1);
            nn_object *val = scan_once(sc, i, &next), *pair = val && pairs ? nn_tuple_pack(2, key, val) : NULL;
            int rc = !val ? -1 : pairs ? (pair ? nn_list_append(r, pair) : -1) : nn_dict_set(r, key, val);
            NN_RELEASE(pair);
            NN_RELEASE(key);
            NN_RELEASE(val);
            if (rc < 0) goto fail;
            int more = after_item(sc, &i, next, '}');
            if (more < 0) goto fail;
            if (!more) break;
        }
    }
    *end = i + 1;
    if (pairs) return call1(sc->pairs_hook, r);
    if (!nn_is_none(sc->object_hook)) return call1(sc->object_hook, r);
    return r;
bad_name:
    bad(sc, "Expecting property name enclosed in double quotes", i);
fail:
    NN_RELEASE(r);
    return NULL;
}

static nn_object *scan_array(scan *sc, size_t start, size_t *end)
{
    nn_object *r = nn_list_new(0);
    if (!r) return NULL;
    size_t i = skip_ws(sc, start + 1);
    if (i >= sc->n || sc->s[i] != ']') {
        for (;;) {
            size_t next;
            nn_object *val = scan_once(sc, i, &next);
            int rc = val ? nn_list_append(r, val) : -1;
            NN_RELEASE(val);
            if (rc < 0) goto fail;
            int more = after_item(sc, &i, next, ']');
            if (more < 0) goto fail;
            if (!more) break;
        }
    }
    *end = i + 1;
    return r;
fail:
    NN_RELEASE(r);
    return NULL;
}

static bool word_at(const scan *sc, size_t i, const char *w)
{
    size_t n = strlen(w);
    return i + n <= sc->n && !memcmp(sc->s + i, w, n);
}

/* One value at idx, *end past it; NULL with sc->err (a bad document) or a
   Python error. */
static nn_object *scan_once(scan *sc, size_t idx, size_t *end)
{
    if (idx >= sc->n) return bad(sc, "Expecting value", idx);
    switch (sc->s[idx]) {
    case '"': return scan_string(sc, idx, end);
    case '{':
    case '[': {
        bool obj = sc->s[idx] == '{';
        if (nn_recursion_enter(obj ? " while decoding a JSON object from a unicode string"
                                   : " while decoding a JSON array from a unicode string") < 0)
            return NULL;
        nn_object *r = obj ? scan_object(sc, idx, end) : scan_array(sc, idx, end);
        nn_recursion_leave();
        return r;
    }
    case 'n':
        if (word_at(sc, idx, "null")) return *end = idx + 4, nn_retain(nn_none());
        break;
    case 't':
        if (word_at(sc, idx, "true")) return *end = idx + 4, nn_bool_new(true);
        break;
    case 'f':
        if (word_at(sc, idx, "false")) return *end = idx + 5, nn_bool_new(false);
        break;
    case 'N':
        if (word_at(sc, idx, "NaN")) return *end = idx + 3, constant(sc, "NaN", NAN);
        break;
    case 'I':
        if (word_at(sc, idx, "Infinity")) return *end = idx + 8, constant(sc, "Infinity", INFINITY);
        break;
    case '-':
        if (word_at(sc, idx, "-Infinity")) return *end = idx + 9, constant(sc, "-Infinity", -INFINITY);
        break;
    default: break;
    }
    return scan_number(sc, idx, end);
}

/* Characters (not bytes) in s[0..n). */
static int64_t char_pos(const char *s, size_t n)
{
    int64_t c = 0;
    for (size_t i = 0; i < n; i++) c += ((unsigned char)s[i] & 0xc0) != 0x80;
    return c;
}

/* The byte offset of character idx of s (its length past the end). */
static size_t byte_pos(const char *s, size_t n, int64_t idx)
{
    size_t i = 0;
    for (int64_t c = 0; i < n && c < idx; c++)
        for (i++; i < n && ((unsigned char)s[i] & 0xc0) == 0x80; i++) {}
    return i;
}

nn_object *repl_json_decode(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_decode", args, kwargs, 8, 8) < 0) return NULL;
    nn_object *s = repl_unwrap_value(nn_tuple_get(args, 0)), *idx = nn_tuple_get(args, 1); /* json.loads(S(...)) */
    if (!nn_is_str(s)) {
        repl_raise_exc(EXC_TypeError, "first argument must be a string, not %s", repl_value_type_name(s));
        return NULL;
    }
    if (!nn_is_int(idx)) {
        repl_raise_exc(EXC_TypeError, "'%s' object cannot be interpreted as an integer", repl_value_type_name(idx));
        return NULL;
    }
    if (nn_int_value(idx) < 0) {
        repl_raise_exc(EXC_ValueError, "idx cannot be negative");
        return NULL;
    }
    scan sc = {.s = nn_str_cstr(s), .n = nn_str_len(s), .object_hook = nn_tuple_get(args, 2), .pairs_hook = nn_tuple_get(args, 3),
               .parse_float = nn_tuple_get(args, 4), .parse_int = nn_tuple_get(args, 5), .parse_constant = nn_tuple_get(args, 6),
               .strict = nn_is_true(nn_tuple_get(args, 7))};
    size_t end = 0, at = byte_pos(sc.s, sc.n, nn_int_value(idx));
    nn_object *v = scan_once(&sc, at, &end);
    if (!v && !sc.err) return NULL;
    if (!v) { /* past the end, CPython says where it was asked to look */
        int64_t pos = sc.err_at >= sc.n && at >= sc.n ? nn_int_value(idx) : char_pos(sc.s, sc.err_at);
        nn_object *m = nn_str_new(sc.err), *p = nn_int_new(pos), *e = m && p ? nn_tuple_pack(2, m, p) : NULL;
        NN_RELEASE(m);
        NN_RELEASE(p);
        nn_object *r = e ? nn_tuple_pack(3, nn_none(), nn_none(), e) : NULL;
        NN_RELEASE(e);
        return r;
    }
    nn_object *e = nn_int_new(char_pos(sc.s, end)), *r = e ? nn_tuple_pack(3, v, e, nn_none()) : NULL;
    NN_RELEASE(e);
    NN_RELEASE(v);
    return r;
}
