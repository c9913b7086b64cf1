/*
 * mod_struct.c — `import struct` as CPython 3.11's: pack, unpack, unpack_from,
 * pack_into, iter_unpack, calcsize and Struct over the format language (byte
 * order @ = < > !, counts, x c b B ? h H i I l L q Q n N e f d s p P, native
 * sizes and alignment for @), with struct.error and CPython's messages. The
 * C helpers below do the work; a failure that CPython reports as struct.error
 * comes back as its message (a str), which the module's source raises.
 * Bad formats and short buffers never read out of bounds.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bigint.h"
#include "bytes_int.h"
#include "stdlib_int.h"

typedef struct item {
    char code;
    int64_t count; /* repeat count; the length for s and p */
    size_t size;   /* bytes of one value */
    size_t offset; /* of the first value */
} item;

typedef struct layout {
    item *items;
    size_t n, cap;
    size_t size;   /* total bytes */
    size_t values; /* how many values pack takes / unpack gives */
    bool little, native;
} layout;

/* A struct.error message (static or in buf). */
typedef struct fail {
    char msg[200];
} fail;

/* Fills f with the message; returns -1. */
static int __attribute__((format(printf, 2, 3))) FAIL(fail *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->msg, sizeof f->msg, fmt, ap);
    va_end(ap);
    return -1;
}

static size_t code_size(char c, bool native)
{
    switch (c) {
    case 'x': case 'c': case 'b': case 'B': case '?': case 's': case 'p': return 1;
    case 'h': case 'H': case 'e': return 2;
    case 'i': case 'I': case 'f': return 4;
    case 'l': case 'L': return native ? 8 : 4;
    case 'q': case 'Q': case 'd': return 8;
    case 'n': case 'N': case 'P': return native ? 8 : 0;
    default: return 0;
    }
}

/* Parses fmt into L (L->items nn_malloc'd). 0, or -1 with f filled (or a
   MemoryError pending when f->msg is empty). */
static int parse(const char *s, size_t len, layout *L, fail *f)
{
    memset(L, 0, sizeof *L);
    f->msg[0] = 0;
    L->native = true;
    L->little = true;
    size_t i = 0;
    if (len && strchr("@=<>!", s[0])) {
        L->native = s[0] == '@';
        L->little = s[0] == '@' || s[0] == '=' || s[0] == '<';
        i = 1;
    }
    size_t off = 0;
    while (i < len) {
        char c = s[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
            i++;
            continue;
        }
        int64_t count = 1;
        if (c >= '0' && c <= '9') {
            count = 0;
            while (i < len && s[i] >= '0' && s[i] <= '9') {
                if (count > (INT64_MAX - 9) / 10) return FAIL(f, "total struct size too long");
                count = count * 10 + (s[i++] - '0');
            }
            if (i >= len) return FAIL(f, "repeat count given without format specifier");
            c = s[i];
        }
        i++;
        size_t sz = code_size(c, L->native);
        if (!sz) return FAIL(f, "bad char in struct format");
        if (L->native && sz > 1 && c != 's' && c != 'p') off = (off + sz - 1) / sz * sz; /* C alignment */
        uint64_t bytes = (uint64_t)count * sz;
        if (count && bytes / (uint64_t)count != sz) return FAIL(f, "total struct size too long");
        if (off + bytes > REPL_STR_MAX) return FAIL(f, "total struct size too long");
        if (L->n == L->cap) {
            size_t cap = L->cap ? 2 * L->cap : 8;
            item *it = nn_realloc(L->items, cap * sizeof *it);
            if (!it) return -1;
            L->items = it;
            L->cap = cap;
        }
        L->items[L->n++] = (item){c, count, sz, off};
        off += bytes;
        if (c == 's' || c == 'p') L->values++;
        else if (c != 'x') L->values += (size_t)count;
    }
    L->size = off;
    return 0;
}

static void put_uint(unsigned char *p, uint64_t v, size_t n, bool little)
{
    for (size_t k = 0; k < n; k++) p[little ? k : n - 1 - k] = (unsigned char)(v >> (8 * k));
}

static uint64_t get_uint(const unsigned char *p, size_t n, bool little)
{
    uint64_t v = 0;
    for (size_t k = 0; k < n; k++) v |= (uint64_t)p[little ? k : n - 1 - k] << (8 * k);
    return v;
}

/* double -> IEEE half with round-half-even, as CPython's PyFloat_Pack2. */
static int half_bits(double x, uint16_t *out)
{
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    if (isnan(x)) {
        *out = sign | 0x7e00;
        return 0;
    }
    x = fabs(x);
    if (isinf(x)) {
        *out = sign | 0x7c00;
        return 0;
    }
    if (x < 0x1p-14) { /* subnormal (or the smallest normal after rounding) */
        *out = sign | (uint16_t)nearbyint(x * 0x1p24);
        return 0;
    }
    int e;
    double fr = frexp(x, &e); /* x = fr * 2**e, fr in [0.5, 1) */
    int E = e - 1 + 15;
    double m = nearbyint((2 * fr - 1) * 1024);
    if (m >= 1024) m = 0, E++;
    if (E >= 31) return -1;
    *out = sign | (uint16_t)(E << 10) | (uint16_t)m;
    return 0;
}

static double half_value(uint16_t h)
{
    int E = h >> 10 & 0x1f, m = h & 0x3ff;
    double v = E == 0 ? ldexp(m, -24) : E == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, E - 25);
    return h & 0x8000 ? -v : v;
}

/* One integer value into p: CPython's range checks and messages. */
static int pack_int(unsigned char *p, char c, size_t n, nn_object *v, const layout *L, fail *f)
{
    if (!repl_is_integer(v)) return FAIL(f, "required argument is not an integer");
    bool is_unsigned = c == 'B' || c == 'H' || c == 'I' || c == 'L' || c == 'Q' || c == 'N' || c == 'P';
    mpz_t z;
    mpz_init(z);
    repl_int_get_mpz(v, z);
    int rc = 0;
    /* CPython reads b, B, h, H (native), i, ... as a C long first, the other
       unsigned codes as an unsigned long: what does not fit is "out of range" */
    bool via_long = !is_unsigned || c == 'B' || (L->native && c == 'H');
    bool fits = via_long ? mpz_fits_slong_p(z) : mpz_sgn(z) >= 0 && mpz_sizeinbase(z, 2) <= 64;
    if (c == 'P' && mpz_sgn(z) < 0 && mpz_fits_slong_p(z)) fits = true; /* a pointer wraps */
    if (!fits) {
        rc = FAIL(f, "argument out of range");
        goto out;
    }
    if (n < 8) {
        bool bad;
        long long lo = is_unsigned ? 0 : -(1LL << (8 * n - 1));
        unsigned long long hi = is_unsigned ? (1ULL << (8 * n)) - 1 : (1ULL << (8 * n - 1)) - 1;
        if (is_unsigned) bad = mpz_sgn(z) < 0 || mpz_cmp_ui(z, (unsigned long)hi) > 0;
        else bad = mpz_cmp_si(z, (long)lo) < 0 || mpz_cmp_si(z, (long)hi) > 0;
        if (bad) {
            if (n == 1) rc = FAIL(f, "%s format requires %lld <= number <= %llu", is_unsigned ? "ubyte" : "byte", lo, hi);
            else if (n == 2) rc = FAIL(f, "%s format requires %lld <= number <= %llu", is_unsigned ? "ushort" : "short", lo, hi);
            else rc = FAIL(f, "'%c' format requires %lld <= number <= %llu", c, lo, hi);
            goto out;
        }
    }
    uint64_t u = mpz_sgn(z) < 0 ? (uint64_t)mpz_get_si(z) : (uint64_t)mpz_get_ui(z);
    put_uint(p, u, n, L->little);
out:
    mpz_clear(z);
    return rc;
}

static int pack_one(unsigned char *p, const item *it, nn_object *v, const layout *L, fail *f)
{
    char c = it->code;
    size_t n = it->size;
    v = repl_unwrap_value(v); /* struct.pack('i', I(3)): an int subclass's value */
    switch (c) {
    case 'c':
        if (!repl_is_bytes(v) || repl_bytes_len(v) != 1) return FAIL(f, "char format requires a bytes object of length 1");
        p[0] = repl_bytes_data(v)[0];
        return 0;
    case '?': {
        int t = repl_truth(v);
        if (t < 0) return -1;
        p[0] = (unsigned char)t;
        return 0;
    }
    case 'e': case 'f': case 'd': {
        double x;
        if (nn_is_float(v)) x = nn_float_value(v);
        else if (nn_is_int(v) || nn_is_bool(v)) x = (double)nn_int_value(v);
        else if (repl_is_bigint(v)) {
            if (repl_int_to_double(v, &x) < 0) return -1;
        } else return FAIL(f, "required argument is not a float");
        if (c == 'd') {
            uint64_t b;
            memcpy(&b, &x, 8);
            put_uint(p, b, 8, L->little);
        } else if (c == 'f') {
            float y = (float)x;
            if (isinf(y) && !isinf(x)) {
                repl_raise_exc(EXC_OverflowError, "float too large to pack with f format");
                return -1;
            }
            uint32_t b;
            memcpy(&b, &y, 4);
            put_uint(p, b, 4, L->little);
        } else {
            uint16_t h;
            if (half_bits(x, &h) < 0) {
                repl_raise_exc(EXC_OverflowError, "float too large to pack with e format");
                return -1;
            }
            put_uint(p, h, 2, L->little);
        }
        return 0;
    }
    default:
        return pack_int(p, c, n, v, L, f);
    }
}

static nn_object *unpack_one(const unsigned char *p, const item *it, const layout *L)
{
    char c = it->code;
    size_t n = it->size;
    switch (c) {
    case 'c': return repl_bytes_new(p, 1, false);
    case '?': return nn_bool_new(p[0] != 0);
    case 'e': return nn_float_new(half_value((uint16_t)get_uint(p, 2, L->little)));
    case 'f': {
        uint32_t b = (uint32_t)get_uint(p, 4, L->little);
        float y;
        memcpy(&y, &b, 4);
        return nn_float_new(y);
    }
    case 'd': {
        uint64_t b = get_uint(p, 8, L->little);
        double y;
        memcpy(&y, &b, 8);
        return nn_float_new(y);
    }
    default: break;
    }
    uint64_t u = get_uint(p, n, L->little);
    bool is_unsigned = c == 'B' || c == 'H' || c == 'I' || c == 'L' || c == 'Q' || c == 'N' || c == 'P';
    if (!is_unsigned) {
        if (n < 8 && (u >> (8 * n - 1)) & 1) u |= ~0ULL << (8 * n); /* sign extension */
        return nn_int_new((int64_t)u);
    }
    if (u <= INT64_MAX) return nn_int_new((int64_t)u);
    mpz_t z;
    mpz_init_set_ui(z, (unsigned long)u);
    return repl_int_from_mpz(z); /* takes z */
}

/* ------------------------------------------------------------------ helpers */

/* The format argument (str or bytes) parsed. 0; -1 with an exception pending;
   1 with f filled (a struct.error). */
static int format_arg(nn_object *fmt, layout *L, fail *f)
{
    const char *s;
    size_t n;
    fmt = repl_unwrap_value(fmt);
    if (nn_is_str(fmt)) s = nn_str_cstr(fmt), n = nn_str_len(fmt);
    else if (repl_is_bytes(fmt)) s = (const char *)repl_bytes_data(fmt), n = repl_bytes_len(fmt);
    else
        return repl_raise_exc(EXC_TypeError, "Struct() argument 1 must be a str or bytes object, not %s",
                              repl_value_type_name(fmt));
    if (parse(s, n, L, f) == 0) return 0;
    nn_free(L->items);
    L->items = NULL;
    return f->msg[0] ? 1 : -1;
}

static nn_object *error_text(fail *f) { return nn_str_new(f->msg); }

/* Packs the values vals[0..] (a tuple, borrowed) into out (L->size bytes). 0, -1 (pending) or 1 (f). */
static int pack_values(const layout *L, nn_object *vals, unsigned char *out, fail *f)
{
    size_t k = 0;
    for (size_t i = 0; i < L->n; i++) {
        const item *it = &L->items[i];
        unsigned char *p = out + it->offset;
        if (it->code == 'x') continue;
        if (it->code == 's' || it->code == 'p') {
            nn_object *v = nn_tuple_get(vals, k++);
            if (!repl_is_bytes(v)) return FAIL(f, "argument for '%c' must be a bytes object", it->code), 1;
            size_t m = repl_bytes_len(v), room = (size_t)it->count;
            if (it->code == 'p') {
                if (room == 0) continue;
                size_t take = m < room - 1 ? m : room - 1;
                memcpy(p + 1, repl_bytes_data(v), take);
                p[0] = (unsigned char)(take > 255 ? 255 : take);
            } else memcpy(p, repl_bytes_data(v), m < room ? m : room);
            continue;
        }
        for (int64_t j = 0; j < it->count; j++) {
            int rc = pack_one(p + (size_t)j * it->size, it, nn_tuple_get(vals, k++), L, f);
            if (rc < 0) return f->msg[0] ? 1 : -1;
        }
    }
    return 0;
}

static nn_object *unpack_values(const layout *L, const unsigned char *buf)
{
    nn_object *t = nn_tuple_new(L->values);
    if (!t) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < L->n; i++) {
        const item *it = &L->items[i];
        const unsigned char *p = buf + it->offset;
        if (it->code == 'x') continue;
        nn_object *v;
        if (it->code == 's') v = repl_bytes_new(p, (size_t)it->count, false);
        else if (it->code == 'p') {
            size_t room = (size_t)it->count, m = room ? p[0] : 0;
            if (room && m > room - 1) m = room - 1;
            v = repl_bytes_new(room ? p + 1 : p, m, false);
        } else {
            for (int64_t j = 0; j < it->count; j++) {
                v = unpack_one(p + (size_t)j * it->size, it, L);
                if (!v) goto fail;
                nn_tuple_set(t, k++, v);
            }
            continue;
        }
        if (!v) goto fail;
        nn_tuple_set(t, k++, v);
    }
    return t;
fail:
    NN_RELEASE(t);
    return NULL;
}

/* _pack(fmt, values) -> bytes, or the struct.error message (str) */
static nn_object *h_pack(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_pack", args, kwargs, 2, 2) < 0) return NULL;
    nn_object *vals = nn_tuple_get(args, 1);
    if (vals->type != &nn_tuple_type) {
        repl_raise_exc(EXC_TypeError, "_pack(fmt, tuple)");
        return NULL;
    }
    layout L;
    fail f;
    int rc = format_arg(nn_tuple_get(args, 0), &L, &f);
    if (rc) return rc < 0 ? NULL : error_text(&f);
    nn_object *r = NULL;
    if (nn_tuple_len(vals) != L.values) {
        FAIL(&f, "pack expected %zu items for packing (got %zu)", L.values, nn_tuple_len(vals));
        r = error_text(&f);
    } else if ((r = repl_bytes_new(NULL, L.size, false))) {
        rc = pack_values(&L, vals, ((bytes_obj *)r)->data, &f);
        if (rc) NN_SET(r, rc < 0 ? NULL : error_text(&f));
    }
    nn_free(L.items);
    return r;
}

/* _unpack(fmt, buffer, offset, mode): mode 0 unpack (exact size), 1 unpack_from,
   2 iter_unpack (a list of tuples) -> the result, or the struct.error message */
static nn_object *h_unpack(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_unpack", args, kwargs, 4, 4) < 0) return NULL;
    const unsigned char *buf;
    size_t n;
    int64_t offset, mode;
    if (repl_bytes_buffer(nn_tuple_get(args, 1), &buf, &n) < 0 || repl_mod_int(nn_tuple_get(args, 2), &offset) < 0 ||
        repl_mod_int(nn_tuple_get(args, 3), &mode) < 0)
        return NULL;
    layout L;
    fail f;
    int rc = format_arg(nn_tuple_get(args, 0), &L, &f);
    if (rc) return rc < 0 ? NULL : error_text(&f);
    nn_object *r = NULL;
    if (mode == 0) {
        if (n != L.size) FAIL(&f, "unpack requires a buffer of %zu bytes", L.size);
        else r = unpack_values(&L, buf);
    } else if (mode == 1) {
        if (offset < 0) {
            if (offset + (int64_t)n < 0) FAIL(&f, "offset %lld out of range for %zu-byte buffer", (long long)offset, n);
            else offset += (int64_t)n;
        }
        if (!f.msg[0] && (offset > (int64_t)n || n - (size_t)offset < L.size))
            FAIL(&f, "unpack_from requires a buffer of at least %llu bytes for unpacking %zu bytes at offset %lld (actual buffer size is %zu)",
                 (unsigned long long)(L.size + (size_t)offset), L.size, (long long)offset, n);
        if (!f.msg[0]) r = unpack_values(&L, buf + offset);
    } else {
        if (L.size == 0) FAIL(&f, "cannot iteratively unpack with a struct of length 0");
        else if (n % L.size) FAIL(&f, "iterative unpacking requires a buffer of a multiple of %zu bytes", L.size);
        else {
            r = nn_list_new(n / L.size);
            for (size_t i = 0; r && i < n / L.size; i++) {
                nn_object *t = unpack_values(&L, buf + i * L.size);
                if (!t || nn_list_append(r, t) < 0) NN_SET(r, NULL);
                NN_RELEASE(t);
            }
        }
    }
    nn_free(L.items);
    if (f.msg[0]) return error_text(&f);
    return r;
}

/* _calcsize(fmt) -> int, or the struct.error message */
static nn_object *h_calcsize(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_calcsize", args, kwargs, 1, 1) < 0) return NULL;
    layout L;
    fail f;
    int rc = format_arg(nn_tuple_get(args, 0), &L, &f);
    if (rc) return rc < 0 ? NULL : error_text(&f);
    nn_free(L.items);
    return nn_int_new((int64_t)L.size);
}

static const repl_mod_fn helpers[] = {
    {"_pack", h_pack, NULL},
    {"_unpack", h_unpack, NULL},
    {"_calcsize", h_calcsize, NULL},
};

/* source: begin */
static const char source[] =
    "# struct: the functions and Struct over the C helpers _pack, _unpack and\n"
    "# _calcsize, which return the message of a struct.error as a str.\n"
    "\n"
    "\n"
    "class error(Exception):\n"
    "    pass\n"
    "\n"
    "\n"
    "def _ok(r):\n"
    "    if isinstance(r, str):\n"
    "        raise error(r)\n"
    "    return r\n"
    "\n"
    "\n"
    "def pack(fmt, *v):\n"
    "    return _ok(_pack(fmt, v))\n"
    "\n"
    "\n"
    "def unpack(fmt, buffer):\n"
    "    return _ok(_unpack(fmt, buffer, 0, 0))\n"
    "\n"
    "\n"
    "def unpack_from(fmt, buffer, offset=0):\n"
    "    return _ok(_unpack(fmt, buffer, offset, 1))\n"
    "\n"
    "\n"
    "def iter_unpack(fmt, buffer):\n"
    "    return iter(_ok(_unpack(fmt, buffer, 0, 2)))\n"
    "\n"
    "\n"
    "def calcsize(fmt):\n"
    "    return _ok(_calcsize(fmt))\n"
    "\n"
    "\n"
    "def pack_into(fmt, buffer, offset, *v):\n"
    "    data = pack(fmt, *v)\n"
    "    if not isinstance(buffer, bytearray):\n"
    "        raise TypeError('argument must be read-write bytes-like object, not ' + type(buffer).__name__)\n"
    "    if offset < 0:\n"
    "        offset += len(buffer)\n"
    "    if offset < 0 or len(buffer) - offset < len(data):\n"
    "        raise error('pack_into requires a buffer of at least ' + str(len(data) + offset) + ' bytes for packing '\n"
    "                    + str(len(data)) + ' bytes at offset ' + str(offset) + ' (actual buffer size is ' + str(len(buffer)) + ')')\n"
    "    buffer[offset:offset + len(data)] = data\n"
    "\n"
    "\n"
    "class Struct:\n"
    "    def __init__(self, format):\n"
    "        self.size = calcsize(format)\n"
    "        self.format = format if isinstance(format, str) else format.decode('latin-1')\n"
    "        self._fmt = format\n"
    "\n"
    "    def __repr__(self):\n"
    "        return 'Struct(' + repr(self.format) + ')'\n"
    "\n"
    "    def pack(self, *v):\n"
    "        return pack(self._fmt, *v)\n"
    "\n"
    "    def pack_into(self, buffer, offset, *v):\n"
    "        pack_into(self._fmt, buffer, offset, *v)\n"
    "\n"
    "    def unpack(self, buffer):\n"
    "        return unpack(self._fmt, buffer)\n"
    "\n"
    "    def unpack_from(self, buffer, offset=0):\n"
    "        return unpack_from(self._fmt, buffer, offset)\n"
    "\n"
    "    def iter_unpack(self, buffer):\n"
    "        return iter_unpack(self._fmt, buffer)\n";
/* source: end */

nn_object *repl_mod_struct(void)
{
    return repl_mod_from_source("struct", helpers, sizeof helpers / sizeof *helpers, source);
}
