/*
 * safetensors.c — named tensors (state dicts) to and from safetensors files: an
 * 8-byte little-endian header length, a JSON header, then the raw data. Writes
 * the bytes Hugging Face's safetensors writes; reads any valid file, checking it
 * as the reference reader does. Holds its own parser/writer for the JSON subset.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nn_int.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "safetensors.c copies tensor data as is: it assumes a little-endian host"
#endif

/* The reference reader refuses larger headers (MAX_HEADER_SIZE in tensor.rs). */
#define MAX_HEADER_SIZE 100000000u
/* Deepest JSON nesting accepted (the format needs 3; unknown fields may nest more). */
#define MAX_DEPTH 64
#define BAD "invalid safetensors file: "

/* safetensors' names for nnscope's dtypes, and each one's place in its `Dtype`
   enum, whose order (descending) sorts the data section. */
static const struct {
    const char *name;
    int order;
} st_dtype[NN_DTYPE_COUNT] = {
    [NN_FLOAT32] = {"F32", 11}, [NN_FLOAT64] = {"F64", 12}, [NN_FLOAT16] = {"F16", 7},
    [NN_BFLOAT16] = {"BF16", 8}, [NN_INT64] = {"I64", 13}, [NN_INT32] = {"I32", 9},
    [NN_BOOL] = {"BOOL", 0},    [NN_UINT8] = {"U8", 1},     [NN_INT8] = {"I8", 2},
    [NN_INT16] = {"I16", 5},
};

/* Valid safetensors dtypes nnscope has no tensor type for. */
static const char *const foreign_dtypes[] = {"U16", "U32", "U64", "F8_E5M2", "F8_E4M3",
                                             "F8_E8M0", "F4", "F6_E2M3", "F6_E3M2", "C64"};

/* A name for messages: at most ~60 bytes, cut at a UTF-8 character boundary. */
static const char *short_name(const char *s, char buf[72])
{
    size_t n = strlen(s);
    if (n <= 64) return s;
    size_t cut = 60;
    while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80) cut--;
    memcpy(buf, s, cut);
    memcpy(buf + cut, "...", 4);
    return buf;
}

/* True when s[0..n) is well-formed UTF-8 (no overlongs, surrogates or values past U+10FFFF). */
static bool valid_utf8(const unsigned char *s, size_t n, size_t *bad_at)
{
    size_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        size_t len;
        uint32_t min, cp;
        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            len = 2, min = 0x80, cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            len = 3, min = 0x800, cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            len = 4, min = 0x10000, cp = c & 0x07;
        } else {
            break;
        }
        if (n - i < len) break;
        size_t k = 1;
        for (; k < len && (s[i + k] & 0xC0) == 0x80; k++) cp = cp << 6 | (s[i + k] & 0x3F);
        if (k < len || cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) break;
        i += len;
    }
    if (bad_at) *bad_at = i;
    return i == n;
}

/* Grows an array to hold need elements (doubling); returns the array, or NULL
   with MemoryError leaving p (still owned by the caller) and *cap as they were. */
static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return p;
    size_t c = *cap ? *cap : 16;
    while (c < need) {
        if (c > SIZE_MAX / 2 / elem) {
            nn_error_set(NN_ERR_MEMORY, "out of memory: allocation size overflows");
            return NULL;
        }
        c *= 2;
    }
    void *q = nn_realloc(p, c * elem);
    if (q) *cap = c;
    return q;
}

/* ==================================================================== JSON */

typedef enum jkind { J_NULL, J_BOOL, J_INT, J_NUMBER, J_STRING, J_ARRAY, J_OBJECT } jkind;

/* The parsed header is a flat array of nodes in document order: a container's
   children follow it, and an object's children alternate key (a string) and value. */
typedef struct jnode {
    jkind kind;
    size_t end;   /* index just past this node's subtree */
    size_t count; /* J_ARRAY: items; J_OBJECT: key/value pairs */
    uint64_t u;   /* J_INT: the value (integers that fit u64, no sign/fraction/exponent) */
    size_t str;   /* J_STRING: offset of the decoded, NUL-terminated text in the arena */
    size_t len;   /* J_STRING: its length in bytes */
} jnode;

typedef struct json {
    const unsigned char *s;
    size_t n, i;
    jnode *nodes;
    size_t n_nodes, cap_nodes;
    char *arena;
    size_t arena_len, arena_cap;
} json;

static void json_free(json *j)
{
    nn_free(j->nodes);
    nn_free(j->arena);
}

static int syntax_error(const json *j, const char *what)
{
    return nn_error_set(NN_ERR_RUNTIME, BAD "JSON syntax error in the header at byte %zu: %s", j->i, what);
}

static int peek(const json *j) { return j->i < j->n ? j->s[j->i] : -1; }

static void skip_ws(json *j)
{
    while (j->i < j->n && (j->s[j->i] == ' ' || j->s[j->i] == '\t' || j->s[j->i] == '\n' || j->s[j->i] == '\r'))
        j->i++;
}

/* Appends a node; returns its index or SIZE_MAX with MemoryError. */
static size_t new_node(json *j, jkind kind)
{
    jnode *q = grow(j->nodes, &j->cap_nodes, j->n_nodes + 1, sizeof *j->nodes);
    if (!q) return SIZE_MAX;
    j->nodes = q;
    size_t idx = j->n_nodes++;
    memset(&q[idx], 0, sizeof *q);
    q[idx].kind = kind;
    q[idx].end = idx + 1;
    return idx;
}

static int arena_put(json *j, const void *p, size_t n)
{
    char *q = grow(j->arena, &j->arena_cap, j->arena_len + n, 1);
    if (!q) return -1;
    j->arena = q;
    memcpy(q + j->arena_len, p, n);
    j->arena_len += n;
    return 0;
}

static int hex4(json *j, uint32_t *out)
{
    uint32_t v = 0;
    for (int k = 0; k < 4; k++, j->i++) {
        int c = peek(j), d;
        if (c >= '0' && c <= '9') d = c - '0';
        else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
        else return syntax_error(j, "expected four hex digits after \\u");
        v = v << 4 | (uint32_t)d;
    }
    *out = v;
    return 0;
}

/* A string at j->i (its opening quote): decodes escapes into the arena. */
static int parse_string(json *j)
{
    size_t idx = new_node(j, J_STRING);
    if (idx == SIZE_MAX) return -1;
    size_t start = j->arena_len;
    j->i++;
    for (;;) {
        if (j->i >= j->n) return syntax_error(j, "unterminated string");
        unsigned char c = j->s[j->i];
        if (c == '"') {
            j->i++;
            break;
        }
        if (c < 0x20) return syntax_error(j, "unescaped control character in a string");
        if (c != '\\') {
            size_t run = j->i;
            while (run < j->n && j->s[run] != '"' && j->s[run] != '\\' && j->s[run] >= 0x20) run++;
            if (arena_put(j, j->s + j->i, run - j->i) < 0) return -1;
            j->i = run;
            continue;
        }
        j->i++;
        int e = peek(j);
        j->i++;
        char one;
        switch (e) {
        case '"': case '\\': case '/': one = (char)e; break;
        case 'b': one = '\b'; break;
        case 'f': one = '\f'; break;
        case 'n': one = '\n'; break;
        case 'r': one = '\r'; break;
        case 't': one = '\t'; break;
        case 'u': {
            uint32_t cp = 0, lo = 0;
            if (hex4(j, &cp) < 0) return -1;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                if (peek(j) != '\\' || j->i + 1 >= j->n || j->s[j->i + 1] != 'u')
                    return syntax_error(j, "unpaired surrogate in a \\u escape");
                j->i += 2;
                if (hex4(j, &lo) < 0) return -1;
                if (lo < 0xDC00 || lo > 0xDFFF) return syntax_error(j, "unpaired surrogate in a \\u escape");
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                return syntax_error(j, "unpaired surrogate in a \\u escape");
            }
            if (cp == 0)
                return nn_error_set(NN_ERR_RUNTIME, BAD "strings containing \\u0000 are not supported (byte %zu)",
                                    j->i);
            unsigned char u[4];
            size_t n;
            if (cp < 0x80) u[0] = (unsigned char)cp, n = 1;
            else if (cp < 0x800) u[0] = (unsigned char)(0xC0 | cp >> 6), u[1] = (unsigned char)(0x80 | (cp & 0x3F)), n = 2;
            else if (cp < 0x10000)
                u[0] = (unsigned char)(0xE0 | cp >> 12), u[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F)),
                u[2] = (unsigned char)(0x80 | (cp & 0x3F)), n = 3;
            else
                u[0] = (unsigned char)(0xF0 | cp >> 18), u[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F)),
                u[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F)), u[3] = (unsigned char)(0x80 | (cp & 0x3F)), n = 4;
            if (arena_put(j, u, n) < 0) return -1;
            continue;
        }
        default:
            j->i--;
            return syntax_error(j, e < 0 ? "unterminated string" : "invalid escape sequence");
        }
        if (arena_put(j, &one, 1) < 0) return -1;
    }
    if (arena_put(j, "", 1) < 0) return -1;
    j->nodes[idx].str = start;
    j->nodes[idx].len = j->arena_len - 1 - start;
    return 0;
}

static bool is_digit(int c) { return c >= '0' && c <= '9'; }

static int parse_number(json *j)
{
    size_t idx = new_node(j, J_NUMBER);
    if (idx == SIZE_MAX) return -1;
    bool neg = false, integer = true, overflow = false;
    uint64_t v = 0;
    if (peek(j) == '-') neg = true, j->i++;
    if (!is_digit(peek(j))) return syntax_error(j, "invalid number");
    if (peek(j) == '0') {
        j->i++;
        if (is_digit(peek(j))) return syntax_error(j, "numbers must not have leading zeros");
    } else {
        while (is_digit(peek(j))) {
            unsigned d = (unsigned)(peek(j) - '0');
            if (v > (UINT64_MAX - d) / 10) overflow = true;
            else v = v * 10 + d;
            j->i++;
        }
    }
    if (peek(j) == '.') {
        integer = false;
        j->i++;
        if (!is_digit(peek(j))) return syntax_error(j, "expected a digit after '.'");
        while (is_digit(peek(j))) j->i++;
    }
    if (peek(j) == 'e' || peek(j) == 'E') {
        integer = false;
        j->i++;
        if (peek(j) == '+' || peek(j) == '-') j->i++;
        if (!is_digit(peek(j))) return syntax_error(j, "expected a digit in the exponent");
        while (is_digit(peek(j))) j->i++;
    }
    if (!neg && integer && !overflow) {
        j->nodes[idx].kind = J_INT;
        j->nodes[idx].u = v;
    }
    return 0;
}

static int parse_value(json *j, int depth);

/* An array or object at j->i; close is ']' or '}'. */
static int parse_container(json *j, int depth, bool object)
{
    if (depth >= MAX_DEPTH) return syntax_error(j, "nesting too deep");
    size_t idx = new_node(j, object ? J_OBJECT : J_ARRAY);
    if (idx == SIZE_MAX) return -1;
    int close = object ? '}' : ']';
    size_t count = 0;
    j->i++;
    skip_ws(j);
    if (peek(j) == close) {
        j->i++;
    } else {
        for (;;) {
            if (object) {
                skip_ws(j);
                if (peek(j) != '"') return syntax_error(j, "expected a string key");
                if (parse_string(j) < 0) return -1;
                skip_ws(j);
                if (peek(j) != ':') return syntax_error(j, "expected ':'");
                j->i++;
            }
            if (parse_value(j, depth + 1) < 0) return -1;
            count++;
            skip_ws(j);
            if (peek(j) == ',') {
                j->i++;
                continue;
            }
            if (peek(j) == close) {
                j->i++;
                break;
            }
            return syntax_error(j, object ? "expected ',' or '}'" : "expected ',' or ']'");
        }
    }
    j->nodes[idx].count = count;
    j->nodes[idx].end = j->n_nodes;
    return 0;
}

static int parse_literal(json *j, const char *word, jkind kind)
{
    size_t n = strlen(word);
    if (j->n - j->i < n || memcmp(j->s + j->i, word, n) != 0) return syntax_error(j, "expected a value");
    if (new_node(j, kind) == SIZE_MAX) return -1;
    j->i += n;
    return 0;
}

static int parse_value(json *j, int depth)
{
    skip_ws(j);
    int c = peek(j);
    switch (c) {
    case '{': return parse_container(j, depth, true);
    case '[': return parse_container(j, depth, false);
    case '"': return parse_string(j);
    case 't': return parse_literal(j, "true", J_BOOL);
    case 'f': return parse_literal(j, "false", J_BOOL);
    case 'n': return parse_literal(j, "null", J_NULL);
    default:
        if (c == '-' || is_digit(c)) return parse_number(j);
        return syntax_error(j, c < 0 ? "unexpected end of the header" : "expected a value");
    }
}

static const char *jtext(const json *j, size_t idx) { return j->arena + j->nodes[idx].str; }

/* ================================================================= header */

typedef struct entry {
    const char *name; /* in the json arena */
    size_t name_len;
    nn_dtype dtype;
    int ndim;
    int64_t sizes[NN_MAX_DIMS];
    uint64_t begin, end;
} entry;

/* A tensor's place in the data section. */
typedef struct span {
    uint64_t begin, end;
    size_t idx; /* its entry */
} span;

/* A parsed and validated header. */
typedef struct header {
    json j;
    entry *entries; /* n, in header order */
    size_t n;
    span *order;    /* the n entries in data order */
    bool has_meta;
    size_t meta_node; /* the "__metadata__" object */
    size_t n_meta;
    size_t strings;   /* bytes of every name and metadata string with its NUL */
} header;

static void header_free(header *h)
{
    json_free(&h->j);
    nn_free(h->entries);
    nn_free(h->order);
}

typedef struct keyref {
    const char *s;
    size_t len;
    size_t idx;
} keyref;

static int keyref_cmp(const void *a, const void *b)
{
    const keyref *x = a, *y = b;
    int c = memcmp(x->s, y->s, x->len < y->len ? x->len : y->len);
    if (c) return c;
    if (x->len != y->len) return x->len < y->len ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static bool same_key(const keyref *a, const keyref *b) { return a->len == b->len && memcmp(a->s, b->s, a->len) == 0; }

/* -1 with an error naming the first key of object obj that appears twice. */
static int check_duplicate_keys(const json *j, size_t obj, const char *what)
{
    size_t n = j->nodes[obj].count;
    keyref *refs = nn_malloc(n * sizeof *refs);
    if (!refs) return -1;
    size_t i = obj + 1;
    for (size_t k = 0; k < n; k++, i = j->nodes[i + 1].end) refs[k] = (keyref){jtext(j, i), j->nodes[i].len, k};
    qsort(refs, n, sizeof *refs, keyref_cmp);
    int rc = 0;
    for (size_t k = 1; k < n && rc == 0; k++) {
        if (same_key(&refs[k], &refs[k - 1])) {
            char buf[72];
            rc = nn_error_set(NN_ERR_RUNTIME, BAD "duplicate key \"%s\" in %s", short_name(refs[k].s, buf), what);
        }
    }
    nn_free(refs);
    return rc;
}

static int read_metadata(header *h, size_t obj)
{
    const json *j = &h->j;
    if (j->nodes[obj].kind == J_NULL) return 0; /* as the reference reader: no metadata */
    if (j->nodes[obj].kind != J_OBJECT)
        return nn_error_set(NN_ERR_RUNTIME, BAD "\"__metadata__\" must be an object of strings");
    if (check_duplicate_keys(j, obj, "\"__metadata__\"") < 0) return -1;
    size_t i = obj + 1;
    for (size_t k = 0; k < j->nodes[obj].count; k++, i = j->nodes[i + 1].end) {
        if (j->nodes[i + 1].kind != J_STRING) {
            char buf[72];
            return nn_error_set(NN_ERR_RUNTIME, BAD "\"__metadata__\" value of key \"%s\" is not a string",
                                short_name(jtext(j, i), buf));
        }
        h->strings += j->nodes[i].len + 1 + j->nodes[i + 1].len + 1;
    }
    h->has_meta = true;
    h->meta_node = obj;
    h->n_meta = j->nodes[obj].count;
    return 0;
}

static int read_dtype(const json *j, size_t v, const char *name, nn_dtype *out)
{
    char buf[72];
    if (j->nodes[v].kind != J_STRING)
        return nn_error_set(NN_ERR_RUNTIME, BAD "the dtype of tensor \"%s\" is not a string", short_name(name, buf));
    const char *s = jtext(j, v);
    for (int d = 0; d < NN_DTYPE_COUNT; d++) {
        if (st_dtype[d].name && strcmp(s, st_dtype[d].name) == 0) { /* complex: none */
            *out = (nn_dtype)d;
            return 0;
        }
    }
    char dbuf[72];
    for (size_t k = 0; k < sizeof foreign_dtypes / sizeof *foreign_dtypes; k++)
        if (strcmp(s, foreign_dtypes[k]) == 0)
            return nn_error_set(NN_ERR_RUNTIME,
                                "safetensors dtype %s of tensor \"%s\" is not supported by nnscope "
                                "(supported: F32, F64, F16, BF16, I64, I32, BOOL)",
                                s, short_name(name, buf));
    return nn_error_set(NN_ERR_RUNTIME, BAD "unknown dtype \"%s\" of tensor \"%s\"", short_name(s, dbuf),
                        short_name(name, buf));
}

/* Reads one tensor's {"dtype", "shape", "data_offsets"} (any order; other fields ignored). */
static int read_entry(const json *j, size_t obj, entry *e)
{
    char buf[72];
    const char *name = short_name(e->name, buf);
    if (j->nodes[obj].kind != J_OBJECT)
        return nn_error_set(NN_ERR_RUNTIME, BAD "the entry of tensor \"%s\" is not an object", name);
    size_t dtype_node = 0, shape_node = 0, offsets_node = 0;
    size_t i = obj + 1;
    for (size_t k = 0; k < j->nodes[obj].count; k++, i = j->nodes[i + 1].end) {
        const char *key = jtext(j, i);
        size_t *slot = strcmp(key, "dtype") == 0 ? &dtype_node
                       : strcmp(key, "shape") == 0 ? &shape_node
                       : strcmp(key, "data_offsets") == 0 ? &offsets_node : NULL;
        if (!slot) continue; /* unknown fields are ignored, as serde does */
        if (*slot) return nn_error_set(NN_ERR_RUNTIME, BAD "duplicate field \"%s\" in tensor \"%s\"", key, name);
        *slot = i + 1;
    }
    const char *missing = !dtype_node ? "dtype" : !shape_node ? "shape" : !offsets_node ? "data_offsets" : NULL;
    if (missing) return nn_error_set(NN_ERR_RUNTIME, BAD "tensor \"%s\" has no \"%s\" field", name, missing);
    if (read_dtype(j, dtype_node, e->name, &e->dtype) < 0) return -1;

    const jnode *shape = &j->nodes[shape_node];
    if (shape->kind != J_ARRAY)
        return nn_error_set(NN_ERR_RUNTIME, BAD "the shape of tensor \"%s\" is not an array", name);
    if (shape->count > NN_MAX_DIMS)
        return nn_error_set(NN_ERR_RUNTIME, BAD "tensor \"%s\" has %zu dimensions; nnscope tensors have at most %d",
                            name, shape->count, NN_MAX_DIMS);
    e->ndim = (int)shape->count;
    uint64_t numel = 1, span = 1; /* span: the nonzero sizes' product, which the strides reach */
    bool overflow = false;
    for (int d = 0; d < e->ndim; d++) {
        const jnode *dim = &j->nodes[shape_node + 1 + (size_t)d];
        if (dim->kind != J_INT)
            return nn_error_set(NN_ERR_RUNTIME, BAD "the shape of tensor \"%s\" holds something other than "
                                "non-negative integers", name);
        if (dim->u > INT64_MAX) overflow = true;
        e->sizes[d] = (int64_t)dim->u;
        if (!overflow && __builtin_mul_overflow(numel, dim->u, &numel)) overflow = true;
        if (dim->u && (__builtin_mul_overflow(span, dim->u, &span) || span > INT64_MAX)) overflow = true;
    }
    uint64_t nbytes = 0;
    if (overflow || __builtin_mul_overflow(numel, (uint64_t)nn_dtype_size(e->dtype), &nbytes))
        return nn_error_set(NN_ERR_RUNTIME, BAD "the size of tensor \"%s\" overflows", name);

    const jnode *off = &j->nodes[offsets_node];
    if (off->kind != J_ARRAY || off->count != 2 || j->nodes[offsets_node + 1].kind != J_INT ||
        j->nodes[offsets_node + 2].kind != J_INT)
        return nn_error_set(NN_ERR_RUNTIME, BAD "the data_offsets of tensor \"%s\" are not two non-negative integers",
                            name);
    e->begin = j->nodes[offsets_node + 1].u;
    e->end = j->nodes[offsets_node + 2].u;
    if (e->end < e->begin)
        return nn_error_set(NN_ERR_RUNTIME, BAD "tensor \"%s\" has data_offsets [%llu, %llu] that end before they begin",
                            name, (unsigned long long)e->begin, (unsigned long long)e->end);
    if (e->end - e->begin != nbytes) {
        char shape_buf[400];
        return nn_error_set(NN_ERR_RUNTIME,
                            BAD "tensor \"%s\" of dtype %s and shape %s needs %llu bytes but its data_offsets "
                            "[%llu, %llu] hold %llu",
                            name, st_dtype[e->dtype].name, nn_shape_str(e->ndim, e->sizes, shape_buf, sizeof shape_buf),
                            (unsigned long long)nbytes, (unsigned long long)e->begin, (unsigned long long)e->end,
                            (unsigned long long)(e->end - e->begin));
    }
    return 0;
}

static int span_cmp(const void *a, const void *b)
{
    const span *x = a, *y = b;
    if (x->begin != y->begin) return x->begin < y->begin ? -1 : 1;
    if (x->end != y->end) return x->end < y->end ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The data offsets, taken in order, must tile [0, data_len) exactly: no overlap,
   no hole, nothing past the end and nothing left over (as the reference reader). */
static int check_layout(header *h, uint64_t data_len)
{
    h->order = nn_malloc(h->n * sizeof *h->order);
    if (!h->order) return -1;
    for (size_t k = 0; k < h->n; k++) h->order[k] = (span){h->entries[k].begin, h->entries[k].end, k};
    qsort(h->order, h->n, sizeof *h->order, span_cmp);
    uint64_t at = 0;
    for (size_t k = 0; k < h->n; k++) {
        const entry *e = &h->entries[h->order[k].idx];
        char buf[72];
        if (e->begin < at)
            return nn_error_set(NN_ERR_RUNTIME, BAD "the data of tensor \"%s\" (data_offsets [%llu, %llu]) overlaps "
                                "another tensor's", short_name(e->name, buf), (unsigned long long)e->begin,
                                (unsigned long long)e->end);
        if (e->begin > at)
            return nn_error_set(NN_ERR_RUNTIME, BAD "bytes %llu to %llu of the data are not part of any tensor "
                                "(before tensor \"%s\"); the data_offsets must cover the data exactly",
                                (unsigned long long)at, (unsigned long long)e->begin, short_name(e->name, buf));
        at = e->end;
    }
    if (at > data_len)
        return nn_error_set(NN_ERR_RUNTIME, BAD "the data is truncated: the header describes %llu bytes but only "
                            "%llu follow it", (unsigned long long)at, (unsigned long long)data_len);
    if (at < data_len)
        return nn_error_set(NN_ERR_RUNTIME, BAD "%llu bytes follow the last tensor's data; the data_offsets must "
                            "cover the data exactly", (unsigned long long)(data_len - at));
    return 0;
}

/* Parses and validates the n header bytes at s, followed by data_len bytes of data. */
static int header_parse(const char *s, size_t n, uint64_t data_len, header *h)
{
    memset(h, 0, sizeof *h);
    json *j = &h->j;
    j->s = (const unsigned char *)s;
    j->n = n;
    size_t bad;
    if (!valid_utf8(j->s, n, &bad))
        return nn_error_set(NN_ERR_RUNTIME, BAD "the header is not valid UTF-8 (byte %zu)", bad);
    if (n == 0 || s[0] != '{') return nn_error_set(NN_ERR_RUNTIME, BAD "the header must begin with '{'");
    if (parse_value(j, 0) < 0) return -1;
    skip_ws(j);
    if (j->i != n) return syntax_error(j, "unexpected data after the header object (only whitespace may follow)");

    if (check_duplicate_keys(j, 0, "the header") < 0) return -1;
    size_t count = j->nodes[0].count;
    h->entries = nn_malloc(count * sizeof *h->entries);
    if (!h->entries) return -1;
    size_t i = 1;
    for (size_t k = 0; k < count; k++, i = j->nodes[i + 1].end) {
        const char *key = jtext(j, i);
        if (strcmp(key, "__metadata__") == 0) {
            if (read_metadata(h, i + 1) < 0) return -1;
            continue;
        }
        entry *e = &h->entries[h->n];
        memset(e, 0, sizeof *e);
        e->name = key;
        e->name_len = j->nodes[i].len;
        if (read_entry(j, i + 1, e) < 0) return -1;
        h->strings += e->name_len + 1;
        h->n++;
    }
    return check_layout(h, data_len);
}

/* A result for h with its names, metadata and empty tensors (data still to fill):
   one allocation holds the struct, the arrays and the strings. */
static nn_safetensors *result_new(const header *h)
{
    size_t size = sizeof(nn_safetensors) + h->n * sizeof(nn_named_tensor) + 2 * h->n_meta * sizeof(char *) +
                  h->strings;
    char *block = nn_malloc(size);
    if (!block) return NULL;
    nn_safetensors *st = (nn_safetensors *)block;
    st->tensors = (nn_named_tensor *)(block + sizeof *st);
    st->n = h->n;
    char **meta = (char **)(st->tensors + h->n);
    st->metadata = h->has_meta ? meta : NULL;
    st->n_metadata = h->n_meta;
    char *p = (char *)(meta + 2 * h->n_meta);
    for (size_t k = 0; k < h->n; k++) {
        memcpy(p, h->entries[k].name, h->entries[k].name_len + 1);
        st->tensors[k].name = p;
        st->tensors[k].tensor = NULL;
        p += h->entries[k].name_len + 1;
    }
    size_t i = h->meta_node + 1;
    for (size_t k = 0; k < h->n_meta; k++, i = h->j.nodes[i + 1].end) {
        for (int s = 0; s < 2; s++) {
            size_t len = h->j.nodes[i + (size_t)s].len;
            memcpy(p, jtext(&h->j, i + (size_t)s), len + 1);
            meta[2 * k + (size_t)s] = p;
            p += len + 1;
        }
    }
    for (size_t k = 0; k < h->n; k++) {
        const entry *e = &h->entries[k];
        if (!(st->tensors[k].tensor = nn_empty_on(NN_DEVICE_CPU, e->ndim, e->sizes, e->dtype))) { /* read on the host */
            nn_safetensors_free(st);
            return NULL;
        }
    }
    return st;
}

/* Bool bytes other than 0 read as true, stored as 1. */
static void normalize_bools(nn_safetensors *st)
{
    for (size_t k = 0; k < st->n; k++) {
        nn_tensor *t = st->tensors[k].tensor;
        if (t->dtype != NN_BOOL) continue;
        uint8_t *p = nn_host_borrow(t); /* a tensor this file just made on the CPU */
        for (int64_t i = 0; i < nn_numel(t); i++) p[i] = p[i] != 0;
    }
}

static uint64_t get_le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int k = 7; k >= 0; k--) v = v << 8 | p[k];
    return v;
}

static void put_le64(unsigned char *p, uint64_t v)
{
    for (int k = 0; k < 8; k++) p[k] = (unsigned char)(v >> (8 * k));
}

/* Checks the header length field against the total size. */
static int check_prefix(uint64_t header_len, uint64_t total)
{
    if (header_len > MAX_HEADER_SIZE)
        return nn_error_set(NN_ERR_RUNTIME, BAD "the header length %llu is larger than the %u bytes allowed",
                            (unsigned long long)header_len, MAX_HEADER_SIZE);
    if (header_len > total - 8)
        return nn_error_set(NN_ERR_RUNTIME, BAD "the header length %llu goes past the end of the data (%llu bytes)",
                            (unsigned long long)header_len, (unsigned long long)total);
    return 0;
}

nn_safetensors *nn_safetensors_parse(const void *data, size_t len)
{
    const unsigned char *p = data;
    if (!p && len) {
        nn_error_set(NN_ERR_VALUE, "nn_safetensors_parse: data is NULL");
        return NULL;
    }
    if (len < 8) {
        nn_error_set(NN_ERR_RUNTIME, BAD "%zu bytes is too small for the 8-byte header length", len);
        return NULL;
    }
    uint64_t header_len = get_le64(p);
    if (check_prefix(header_len, len) < 0) return NULL;
    header h;
    nn_safetensors *st = NULL;
    if (header_parse((const char *)p + 8, (size_t)header_len, len - 8 - header_len, &h) == 0 &&
        (st = result_new(&h))) {
        const unsigned char *base = p + 8 + header_len;
        for (size_t k = 0; k < st->n; k++) {
            const entry *e = &h.entries[k];
            if (e->end > e->begin) memcpy(nn_host_borrow(st->tensors[k].tensor), base + e->begin, e->end - e->begin);
        }
        normalize_bools(st);
    }
    header_free(&h);
    return st;
}

/* Reads exactly n bytes of path; -1 with an error when the file ends first. */
static int read_exact(FILE *f, void *p, size_t n, const char *path)
{
    if (n == 0 || fread(p, 1, n, f) == n) return 0;
    if (ferror(f)) return nn_error_set(NN_ERR_RUNTIME, "cannot read '%s': %s", path, strerror(errno));
    return nn_error_set(NN_ERR_RUNTIME, BAD "'%s' ended early (was it changed while being read?)", path);
}

/* The body of nn_safetensors_load_file: fills *hbuf, *h and *out, which the caller frees. */
static int load_stream(FILE *f, const char *path, char **hbuf, header *h, nn_safetensors **out)
{
    struct stat sb;
    if (fstat(fileno(f), &sb) != 0) return nn_error_set(NN_ERR_RUNTIME, "cannot read '%s': %s", path, strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return nn_error_set(NN_ERR_RUNTIME, "cannot read '%s': %s", path,
                            S_ISDIR(sb.st_mode) ? "Is a directory" : "not a regular file");
    uint64_t size = (uint64_t)sb.st_size;
    if (size < 8)
        return nn_error_set(NN_ERR_RUNTIME, BAD "'%s' has %llu bytes, too few for the 8-byte header length", path,
                            (unsigned long long)size);
    unsigned char prefix[8];
    if (read_exact(f, prefix, 8, path) < 0) return -1;
    uint64_t header_len = get_le64(prefix);
    if (check_prefix(header_len, size) < 0) return -1;
    if (!(*hbuf = nn_malloc((size_t)header_len))) return -1;
    if (read_exact(f, *hbuf, (size_t)header_len, path) < 0) return -1;
    if (header_parse(*hbuf, (size_t)header_len, size - 8 - header_len, h) < 0) return -1;
    nn_safetensors *st = *out = result_new(h);
    if (!st) return -1;
    /* the layout check guarantees the tensors' data follows in this order without gaps */
    for (size_t k = 0; k < h->n; k++) {
        const span *sp = &h->order[k];
        if (read_exact(f, nn_host_borrow(st->tensors[sp->idx].tensor), (size_t)(sp->end - sp->begin), path) < 0 ||
            nn_check_interrupt() < 0)
            return -1;
    }
    normalize_bools(st);
    return 0;
}

nn_safetensors *nn_safetensors_load_file(const char *path)
{
    if (!path) {
        nn_error_set(NN_ERR_VALUE, "nn_safetensors_load_file: path is NULL");
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        nn_error_set(NN_ERR_RUNTIME, "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    char *hbuf = NULL;
    header h;
    memset(&h, 0, sizeof h);
    nn_safetensors *st = NULL;
    if (load_stream(f, path, &hbuf, &h, &st) < 0) {
        nn_safetensors_free(st);
        st = NULL;
    }
    header_free(&h);
    nn_free(hbuf);
    fclose(f);
    return st;
}

void nn_safetensors_free(nn_safetensors *st)
{
    if (!st) return;
    for (size_t k = 0; k < st->n; k++) NN_RELEASE(st->tensors[k].tensor);
    nn_free(st);
}

nn_tensor *nn_safetensors_get(const nn_safetensors *st, const char *name)
{
    for (size_t k = 0; st && name && k < st->n; k++)
        if (strcmp(st->tensors[k].name, name) == 0) return st->tensors[k].tensor;
    return NULL;
}

const char *nn_safetensors_metadata_get(const nn_safetensors *st, const char *key)
{
    for (size_t k = 0; st && st->metadata && key && k < st->n_metadata; k++)
        if (strcmp(st->metadata[2 * k], key) == 0) return st->metadata[2 * k + 1];
    return NULL;
}

/* ================================================================ writing */

/* A growing byte buffer. */
typedef struct sbuf {
    char *p;
    size_t len, cap;
} sbuf;

static int sbuf_put(sbuf *b, const char *s, size_t n)
{
    char *q = grow(b->p, &b->cap, b->len + n, 1);
    if (!q) return -1;
    b->p = q;
    memcpy(q + b->len, s, n);
    b->len += n;
    return 0;
}

static int sbuf_puts(sbuf *b, const char *s) { return sbuf_put(b, s, strlen(s)); }

static int sbuf_u64(sbuf *b, uint64_t v)
{
    char num[24];
    int n = snprintf(num, sizeof num, "%llu", (unsigned long long)v);
    return sbuf_put(b, num, (size_t)n);
}

/* A JSON string as serde_json writes it: only '"', '\\' and control characters escaped. */
static int sbuf_json_string(sbuf *b, const char *s)
{
    if (sbuf_put(b, "\"", 1) < 0) return -1;
    const char *run = s;
    for (;; s++) {
        unsigned char c = (unsigned char)*s;
        if (c != 0 && c >= 0x20 && c != '"' && c != '\\') continue;
        if (sbuf_put(b, run, (size_t)(s - run)) < 0) return -1;
        if (c == 0) break;
        char esc[8];
        switch (c) {
        case '"': strcpy(esc, "\\\""); break;
        case '\\': strcpy(esc, "\\\\"); break;
        case '\b': strcpy(esc, "\\b"); break;
        case '\f': strcpy(esc, "\\f"); break;
        case '\n': strcpy(esc, "\\n"); break;
        case '\r': strcpy(esc, "\\r"); break;
        case '\t': strcpy(esc, "\\t"); break;
        default: snprintf(esc, sizeof esc, "\\u%04x", c); break;
        }
        if (sbuf_puts(b, esc) < 0) return -1;
        run = s + 1;
    }
    return sbuf_put(b, "\"", 1);
}

typedef struct sortref {
    const char *name;
    size_t len;
    int order;  /* the dtype's place in safetensors' Dtype enum */
    size_t idx; /* into the caller's items */
} sortref;

static int sortref_cmp(const void *a, const void *b)
{
    const sortref *x = a, *y = b;
    if (x->order != y->order) return x->order > y->order ? -1 : 1; /* dtype descending */
    int c = memcmp(x->name, y->name, x->len < y->len ? x->len : y->len);
    if (c) return c;
    return x->len < y->len ? -1 : x->len > y->len;
}

/* What a file is made of: its padded header and the tensors in data order. */
typedef struct plan {
    sbuf header;
    size_t *order; /* indices into items */
    uint64_t data_len;
} plan;

static void plan_free(plan *p)
{
    nn_free(p->header.p);
    nn_free(p->order);
}

static int check_string(const char *s, const char *what, size_t index)
{
    if (!s) return nn_error_set(NN_ERR_VALUE, "safetensors: %s %zu is NULL", what, index);
    size_t bad;
    if (!valid_utf8((const unsigned char *)s, strlen(s), &bad))
        return nn_error_set(NN_ERR_VALUE, "safetensors: %s %zu is not valid UTF-8 (byte %zu)", what, index, bad);
    return 0;
}

static int plan_make(const nn_named_tensor *items, size_t n, const char *const *meta, size_t n_meta, plan *p)
{
    memset(p, 0, sizeof *p);
    if (n && !items) return nn_error_set(NN_ERR_VALUE, "safetensors: items is NULL");
    if (n_meta && !meta) return nn_error_set(NN_ERR_VALUE, "safetensors: metadata is NULL but n_metadata is %zu", n_meta);
    for (size_t k = 0; k < n; k++) {
        char buf[72];
        if (check_string(items[k].name, "the name of tensor", k) < 0) return -1;
        if (strcmp(items[k].name, "__metadata__") == 0)
            return nn_error_set(NN_ERR_VALUE, "safetensors: the name \"__metadata__\" is reserved for the metadata");
        const nn_tensor *t = items[k].tensor;
        if (!t || !nn_is_tensor(&t->ob))
            return nn_error_set(NN_ERR_VALUE, "safetensors: \"%s\" is not a tensor", short_name(items[k].name, buf));
        if (!st_dtype[t->dtype].name)
            return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "safetensors: \"%s\" is %s, which nnscope does not save",
                                short_name(items[k].name, buf), nn_dtype_name(t->dtype));
    }
    for (size_t k = 0; k < 2 * n_meta; k++)
        if (check_string(meta[k], k % 2 ? "metadata value" : "metadata key", k / 2) < 0) return -1;

    int rc = -1;
    sortref *refs = nn_malloc(n * sizeof *refs);
    keyref *names = refs ? nn_malloc(n * sizeof *names) : NULL;
    keyref *keys = names ? nn_malloc(n_meta * sizeof *keys) : NULL;
    p->order = keys ? nn_malloc(n * sizeof *p->order) : NULL;
    if (!p->order) goto out;
    for (size_t k = 0; k < n; k++)
        refs[k] = (sortref){items[k].name, strlen(items[k].name), st_dtype[items[k].tensor->dtype].order, k};
    qsort(refs, n, sizeof *refs, sortref_cmp);
    for (size_t k = 0; k < n_meta; k++) keys[k] = (keyref){meta[2 * k], strlen(meta[2 * k]), k};
    qsort(keys, n_meta, sizeof *keys, keyref_cmp);
    /* the same name twice may carry different dtypes, so look for duplicates by name alone */
    for (size_t k = 0; k < n; k++) names[k] = (keyref){refs[k].name, refs[k].len, k};
    qsort(names, n, sizeof *names, keyref_cmp);
    const keyref *dup = NULL;
    const char *what = "tensor name";
    for (size_t k = 1; k < n && !dup; k++)
        if (same_key(&names[k], &names[k - 1])) dup = &names[k];
    for (size_t k = 1; k < n_meta && !dup; k++)
        if (same_key(&keys[k], &keys[k - 1])) dup = &keys[k], what = "metadata key";
    if (dup) {
        char buf[72];
        nn_error_set(NN_ERR_VALUE, "safetensors: duplicate %s \"%s\"", what, short_name(dup->s, buf));
        goto out;
    }

    sbuf *b = &p->header;
    if (sbuf_put(b, "{", 1) < 0) goto out;
    if (meta) {
        if (sbuf_puts(b, "\"__metadata__\":{") < 0) goto out;
        for (size_t k = 0; k < n_meta; k++) {
            size_t m = keys[k].idx;
            if ((k && sbuf_put(b, ",", 1) < 0) || sbuf_json_string(b, meta[2 * m]) < 0 || sbuf_put(b, ":", 1) < 0 ||
                sbuf_json_string(b, meta[2 * m + 1]) < 0)
                goto out;
        }
        if (sbuf_put(b, "}", 1) < 0) goto out;
    }
    uint64_t offset = 0;
    for (size_t k = 0; k < n; k++) {
        const nn_tensor *t = items[refs[k].idx].tensor;
        uint64_t nbytes = (uint64_t)nn_numel(t) * nn_dtype_size(t->dtype);
        p->order[k] = refs[k].idx;
        if (((k || meta) && sbuf_put(b, ",", 1) < 0) || sbuf_json_string(b, refs[k].name) < 0 ||
            sbuf_puts(b, ":{\"dtype\":\"") < 0 || sbuf_puts(b, st_dtype[t->dtype].name) < 0 ||
            sbuf_puts(b, "\",\"shape\":[") < 0)
            goto out;
        for (int d = 0; d < t->ndim; d++)
            if ((d && sbuf_put(b, ",", 1) < 0) || sbuf_u64(b, (uint64_t)t->sizes[d]) < 0) goto out;
        if (sbuf_puts(b, "],\"data_offsets\":[") < 0 || sbuf_u64(b, offset) < 0 || sbuf_put(b, ",", 1) < 0 ||
            sbuf_u64(b, offset + nbytes) < 0 || sbuf_puts(b, "]}") < 0)
            goto out;
        offset += nbytes;
    }
    if (sbuf_put(b, "}", 1) < 0) goto out;
    while (b->len % 8)
        if (sbuf_put(b, " ", 1) < 0) goto out;
    p->data_len = offset;
    rc = 0;
out:
    nn_free(refs);
    nn_free(names);
    nn_free(keys);
    if (rc < 0) plan_free(p);
    return rc;
}

/* Where tensor bytes go: memory or a file. */
typedef struct sink {
    unsigned char *mem;
    FILE *f;
    int err; /* errno of the first failed write */
} sink;

static void sink_write(sink *s, const void *p, size_t n)
{
    if (s->mem) {
        memcpy(s->mem, p, n);
        s->mem += n;
    } else if (!s->err && n && fwrite(p, 1, n, s->f) != n) {
        s->err = errno ? errno : EIO;
    }
}

/* t's elements in row-major order, whatever its strides and device (the host contract); 0 or -1. */
static int write_tensor(sink *s, const nn_tensor *t)
{
    int64_t numel = nn_numel(t);
    if (numel == 0) return 0;
    nn_tensor *hold = NULL;
    const void *data = nn_host_read(t, &hold);
    if (data) sink_write(s, data, (size_t)numel * nn_dtype_size(t->dtype));
    NN_RELEASE(hold);
    return data ? 0 : -1;
}

int nn_safetensors_pieces_make(const nn_named_tensor *items, size_t n, const char *const *metadata_kv,
                               size_t n_metadata, nn_safetensors_pieces *out)
{
    if (!out) return nn_error_set(NN_ERR_VALUE, "nn_safetensors_pieces_make: out is NULL");
    memset(out, 0, sizeof *out);
    plan p;
    if (plan_make(items, n, metadata_kv, n_metadata, &p) < 0) return -1;
    uint64_t total = 8 + (uint64_t)p.header.len + p.data_len;
    unsigned char *head = NULL;
    if (total > SIZE_MAX) {
        nn_error_set(NN_ERR_MEMORY, "out of memory: %llu bytes", (unsigned long long)total);
        goto fail;
    }
    /* pieces and owned have room for the head and one piece per tensor */
    out->pieces = nn_malloc((n + 1) * sizeof *out->pieces);
    out->owned = out->pieces ? nn_malloc((n + 1) * sizeof *out->owned) : NULL;
    head = out->owned ? nn_malloc(8 + p.header.len) : NULL;
    if (!head) goto fail;
    put_le64(head, p.header.len);
    memcpy(head + 8, p.header.p, p.header.len);
    out->owned[out->n_owned++] = head;
    out->pieces[out->n++] = (nn_safetensors_piece){head, 8 + p.header.len};
    for (size_t k = 0; k < n; k++) {
        const nn_tensor *t = items[p.order[k]].tensor;
        size_t nbytes = (size_t)nn_numel(t) * nn_dtype_size(t->dtype);
        if (nbytes == 0) continue;
        const void *data = t->storage->device.type == NN_CPU ? nn_host_borrow((nn_tensor *)t) : NULL;
        if (!data || !nn_is_contiguous(t)) { /* a row-major copy (on the host) */
            unsigned char *copy = nn_malloc(nbytes);
            if (!copy) goto fail;
            out->owned[out->n_owned++] = copy;
            sink s = {.mem = copy};
            if (write_tensor(&s, t) < 0) goto fail;
            data = copy;
        }
        out->pieces[out->n++] = (nn_safetensors_piece){data, nbytes};
    }
    out->total = (size_t)total;
    plan_free(&p);
    return 0;
fail:
    plan_free(&p);
    nn_safetensors_pieces_free(out);
    return -1;
}

void nn_safetensors_pieces_free(nn_safetensors_pieces *pieces)
{
    if (!pieces) return;
    for (size_t k = 0; k < pieces->n_owned; k++) nn_free(pieces->owned[k]);
    nn_free(pieces->owned);
    nn_free(pieces->pieces);
    memset(pieces, 0, sizeof *pieces);
}

int nn_safetensors_serialize(const nn_named_tensor *items, size_t n, const char *const *metadata_kv,
                             size_t n_metadata, void **out, size_t *out_len)
{
    if (!out || !out_len) return nn_error_set(NN_ERR_VALUE, "nn_safetensors_serialize: out is NULL");
    nn_safetensors_pieces pieces;
    if (nn_safetensors_pieces_make(items, n, metadata_kv, n_metadata, &pieces) < 0) return -1;
    unsigned char *buf = nn_malloc(pieces.total);
    if (buf) {
        unsigned char *at = buf;
        for (size_t k = 0; k < pieces.n; k++) {
            memcpy(at, pieces.pieces[k].data, pieces.pieces[k].len);
            at += pieces.pieces[k].len;
        }
        *out = buf;
        *out_len = pieces.total;
    }
    nn_safetensors_pieces_free(&pieces);
    return buf ? 0 : -1;
}

int nn_safetensors_save_file(const char *path, const nn_named_tensor *items, size_t n,
                             const char *const *metadata_kv, size_t n_metadata)
{
    static unsigned long counter;
    if (!path) return nn_error_set(NN_ERR_VALUE, "nn_safetensors_save_file: path is NULL");
    plan p;
    if (plan_make(items, n, metadata_kv, n_metadata, &p) < 0) return -1;
    int rc = -1, fd = -1;
    FILE *f = NULL;
    size_t tmp_size = strlen(path) + 48;
    char *tmp = nn_malloc(tmp_size);
    if (!tmp) goto out;
    /* a new file next to the target, created with the usual permissions (0666 & ~umask) */
    for (int attempt = 0; fd < 0; attempt++) {
        snprintf(tmp, tmp_size, "%s.tmp%ld.%lu", path, (long)getpid(), ++counter);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && (errno != EEXIST || attempt > 100)) {
            nn_error_set(NN_ERR_RUNTIME, "cannot write '%s': %s", path, strerror(errno));
            nn_free(tmp);
            tmp = NULL;
            goto out;
        }
    }
    if (!(f = fdopen(fd, "wb"))) goto io_error;
    fd = -1;
    unsigned char prefix[8];
    put_le64(prefix, p.header.len);
    sink s = {.f = f};
    sink_write(&s, prefix, 8);
    sink_write(&s, p.header.p, p.header.len);
    for (size_t k = 0; k < n && !s.err; k++) {
        if (write_tensor(&s, items[p.order[k]].tensor) < 0 || nn_check_interrupt() < 0) goto out;
    }
    if (s.err) {
        errno = s.err;
        goto io_error;
    }
    if (fflush(f) != 0 || fsync(fileno(f)) != 0) goto io_error;
    int closed = fclose(f);
    f = NULL;
    if (closed != 0 || rename(tmp, path) != 0) goto io_error;
    nn_free(tmp);
    tmp = NULL;
    rc = 0;
    goto out;
io_error:
    nn_error_set(NN_ERR_RUNTIME, "cannot write '%s': %s", path, strerror(errno));
out:
    if (f) fclose(f);
    if (fd >= 0) close(fd);
    if (tmp) {
        unlink(tmp);
        nn_free(tmp);
    }
    plan_free(&p);
    return rc;
}
