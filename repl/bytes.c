/*
 * bytes.c — bytes and bytearray as CPython 3.11's: the object (a byte buffer
 * with a NUL after it), repr (b'..' with CPython's quote choice and escapes),
 * hash and ==, the operators (+, *, %, comparisons, in), indexing to ints and
 * slicing to the same type, bytearray's item and slice assignment, the
 * constructors bytes(n) / bytes(iterable) / bytes(str, encoding) and the
 * classes that type(b'') and isinstance see. The methods are bytes_methods.c,
 * the codecs bytes_codec.c. The evaluator reaches these through the native
 * hooks (bind_torch.c), as any value type outside its own.
 */
#include <string.h>

#include "bigint.h"
#include "bind_int.h"
#include "bytes_int.h"
#include "stdlib_int.h"

/* ------------------------------------------------------------------ object */

static void bytes_dealloc(nn_object *self)
{
    bytes_obj *b = (bytes_obj *)self;
    for (size_t i = 0; i < b->n_orphans; i++) nn_free(b->orphans[i]);
    nn_free(b->orphans);
    nn_free(b->data);
    nn_free(self);
}

static int reserve(bytes_obj *b, size_t n)
{
    if (n > REPL_STR_MAX) return repl_raise_exc(EXC_MemoryError, "%s", "");
    if (n + 1 <= b->cap) return 0;
    size_t cap = b->cap ? b->cap : 16;
    while (cap < n + 1) cap *= 2;
    if (b->lent) { /* tensors read the block: it stays, orphaned, and the bytes move to a new one */
        unsigned char **o = nn_realloc(b->orphans, sizeof *o * (b->n_orphans + 1)), *d = o ? nn_malloc(cap) : NULL;
        if (o) b->orphans = o;
        if (!d) return -1;
        memcpy(d, b->data, b->len + 1);
        b->orphans[b->n_orphans++] = b->data;
        b->data = d;
        b->cap = cap;
        return 0;
    }
    unsigned char *d = nn_realloc(b->data, cap);
    if (!d) return -1;
    b->data = d;
    b->cap = cap;
    return 0;
}

nn_object *repl_bytes_new(const void *p, size_t n, bool array)
{
    bytes_obj *b = nn_malloc(sizeof *b);
    if (!b) return NULL;
    nn_object_init(&b->ob, array ? &repl_bytearray_type : &repl_bytes_type);
    b->data = NULL;
    b->len = b->cap = b->lent = b->n_orphans = 0;
    b->orphans = NULL;
    if (reserve(b, n) < 0) {
        NN_RELEASE(b);
        return NULL;
    }
    if (p) memcpy(b->data, p, n);
    else memset(b->data, 0, n);
    b->len = n;
    b->data[n] = 0;
    return &b->ob;
}

int repl_bytes_append(nn_object *o, const void *p, size_t n)
{
    bytes_obj *b = (bytes_obj *)o;
    if (reserve(b, b->len + n) < 0) return -1;
    memmove(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = 0;
    return 0;
}

int repl_bytes_buffer(nn_object *o, const unsigned char **p, size_t *n)
{
    o = repl_unwrap_value(o); /* a bytes subclass's value */
    if (!repl_is_bytes(o))
        return repl_raise_exc(EXC_TypeError, "a bytes-like object is required, not '%s'", repl_value_type_name(o));
    *p = repl_bytes_data(o);
    *n = repl_bytes_len(o);
    return 0;
}

static void give_back(void *lender)
{
    bytes_obj *b = lender;
    b->lent--;
    NN_RELEASE(&b->ob);
}

nn_tensor *repl_bytes_lend(nn_object *o, size_t offset, size_t nbytes, nn_dtype dt)
{
    bytes_obj *b = (bytes_obj *)o;
    b->lent++;
    NN_RETAIN(o);
    return nn_tensor_over_lent(b->data + offset, nbytes, dt, give_back, b);
}

/* b'...' as CPython writes it: single quotes unless the bytes hold ' and no " */
static char *bytes_repr(nn_object *self)
{
    const unsigned char *p = repl_bytes_data(self);
    size_t n = repl_bytes_len(self);
    bool array = self->type == &repl_bytearray_type;
    char quote = memchr(p, '\'', n) && !memchr(p, '"', n) ? '"' : '\'';
    sbuf b = {0};
    if (array) repl_sb_puts(&b, "bytearray(");
    repl_sb_add(&b, "b", 1);
    repl_sb_add(&b, &quote, 1);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = p[i];
        if (c == quote || c == '\\') repl_sb_printf(&b, "\\%c", c);
        else if (c == '\t') repl_sb_puts(&b, "\\t");
        else if (c == '\n') repl_sb_puts(&b, "\\n");
        else if (c == '\r') repl_sb_puts(&b, "\\r");
        else if (c < 0x20 || c >= 0x7f) repl_sb_printf(&b, "\\x%02x", c);
        else repl_sb_add(&b, (const char *)&c, 1);
    }
    repl_sb_add(&b, &quote, 1);
    if (array) repl_sb_puts(&b, ")");
    return repl_sb_finish(&b);
}

static int64_t bytes_hash(nn_object *self)
{
    if (self->type == &repl_bytearray_type) {
        repl_raise_exc(EXC_TypeError, "unhashable type: 'bytearray'");
        return -1;
    }
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    const unsigned char *p = repl_bytes_data(self);
    for (size_t i = 0; i < repl_bytes_len(self); i++) h = (h ^ p[i]) * 1099511628211ull;
    return (int64_t)(h >> 1);
}

static int bytes_equal(nn_object *a, nn_object *b)
{
    if (!repl_is_bytes(a) || !repl_is_bytes(b)) return 0;
    size_t n = repl_bytes_len(a);
    return n == repl_bytes_len(b) && memcmp(repl_bytes_data(a), repl_bytes_data(b), n) == 0;
}

const nn_type repl_bytes_type = {.name = "bytes", .dealloc = bytes_dealloc, .repr = bytes_repr,
                                 .hash = bytes_hash, .equal = bytes_equal};
const nn_type repl_bytearray_type = {.name = "bytearray", .dealloc = bytes_dealloc, .repr = bytes_repr,
                                     .hash = bytes_hash, .equal = bytes_equal};

/* ------------------------------------------------------------------ operators */

static bool is_index(const nn_object *o) { return nn_is_int(o) || nn_is_bool(o); }

/* bytes % args: formatted as str % args over the bytes read as latin-1 (each
   byte one character), bytes arguments likewise, and the result written back */
static nn_object *bytes_percent(nn_object *fmt, nn_object *args)
{
    nn_object *f = repl_bytes_decode(repl_bytes_data(fmt), repl_bytes_len(fmt), "latin-1", NULL);
    if (!f) return NULL;
    bool tuple = args->type == &nn_tuple_type;
    size_t n = tuple ? nn_tuple_len(args) : 1;
    nn_object *conv = nn_tuple_new(n), *r = NULL, *s = NULL;
    if (!conv) goto out;
    /* the conversion each argument meets: %r and %a keep bytes as they are (b'..') */
    char kinds[64] = {0};
    const char *p = (const char *)repl_bytes_data(fmt), *e = p + repl_bytes_len(fmt);
    for (size_t k = 0; p < e && k < sizeof kinds;) {
        if (*p++ != '%') continue;
        if (p < e && *p == '(') break; /* a mapping: left to str % */
        while (p < e && strchr("#0- +.123456789*", *p)) {
            if (*p == '*' && k < sizeof kinds) kinds[k++] = '*';
            p++;
        }
        if (p < e && strchr("hlL", *p)) p++;
        if (p < e && *p != '%' && k < sizeof kinds) kinds[k++] = *p;
        p++;
    }
    for (size_t i = 0; i < n; i++) {
        nn_object *a = tuple ? nn_tuple_get(args, i) : args;
        if (i < sizeof kinds && (kinds[i] == 'r' || kinds[i] == 'a')) {
            nn_tuple_set(conv, i, nn_retain(a));
            continue;
        }
        if (nn_is_str(a)) {
            repl_raise_exc(EXC_TypeError, "%%b requires a bytes-like object, or an object that implements __bytes__, not 'str'");
            goto out;
        }
        nn_object *c = repl_is_bytes(a) ? repl_bytes_decode(repl_bytes_data(a), repl_bytes_len(a), "latin-1", NULL)
                                        : nn_retain(a);
        if (!c) goto out;
        nn_tuple_set(conv, i, c);
    }
    s = repl_str_percent(f, tuple ? conv : nn_tuple_get(conv, 0));
    if (s) r = repl_str_encode(nn_str_cstr(s), nn_str_len(s), "latin-1", NULL);
    if (r && fmt->type == &repl_bytearray_type) {
        nn_object *a = repl_bytes_new(repl_bytes_data(r), repl_bytes_len(r), true);
        NN_SET(r, a);
    }
out:
    NN_RELEASE(f);
    NN_RELEASE(conv);
    NN_RELEASE(s);
    return r;
}

static nn_object *repeat(nn_object *b, nn_object *count)
{
    int64_t k = nn_int_value(count);
    size_t n = repl_bytes_len(b);
    if (k <= 0 || n == 0) return repl_bytes_new(NULL, 0, b->type == &repl_bytearray_type);
    bool array = b->type == &repl_bytearray_type;
    if (!array && (uint64_t)k > (uint64_t)INT64_MAX / n) { /* past Py_ssize_t, as CPython */
        repl_raise_exc(EXC_OverflowError, "repeated bytes are too long");
        return NULL;
    }
    if ((uint64_t)k > REPL_STR_MAX / n) {
        repl_raise_exc(EXC_MemoryError, "%s", "");
        return NULL;
    }
    nn_object *r = repl_bytes_new(NULL, n * (size_t)k, array);
    if (!r) return NULL;
    for (int64_t i = 0; i < k; i++) {
        memcpy(((bytes_obj *)r)->data + (size_t)i * n, repl_bytes_data(b), n);
        if ((i & 0xfffff) == 0xfffff && nn_check_interrupt() < 0) { /* Ctrl-C stops a long repeat */
            NN_RELEASE(r);
            return NULL;
        }
    }
    return r;
}

nn_object *repl_bytes_binary(repl_binop op, nn_object *a, nn_object *b, bool *handled)
{
    bool ba = repl_is_bytes(a), bb = repl_is_bytes(b);
    *handled = false;
    if (!ba && !bb) return NULL;
    *handled = true;
    switch (op) {
    case REPL_ADD:
        if (ba && bb) {
            nn_object *r = repl_bytes_new(repl_bytes_data(a), repl_bytes_len(a), a->type == &repl_bytearray_type);
            if (r && repl_bytes_append(r, repl_bytes_data(b), repl_bytes_len(b)) < 0) NN_SET(r, NULL);
            return r;
        }
        if (ba) repl_raise_exc(EXC_TypeError, "can't concat %s to %s", repl_value_type_name(b), repl_value_type_name(a));
        else if (nn_is_str(a) || nn_is_list(a) || a->type == &nn_tuple_type)
            repl_raise_exc(EXC_TypeError, "can only concatenate %s (not \"%s\") to %s", repl_value_type_name(a),
                           repl_value_type_name(b), repl_value_type_name(a));
        else break;
        return NULL;
    case REPL_MUL:
        if (ba && is_index(b)) return repeat(a, b);
        if (bb && is_index(a)) return repeat(b, a);
        break;
    case REPL_MOD:
        if (ba) return bytes_percent(a, b);
        break;
    case REPL_EQ:
    case REPL_NE: {
        int e = bytes_equal(a, b);
        return nn_bool_new(op == REPL_EQ ? e : !e);
    }
    case REPL_LT: case REPL_LE: case REPL_GT: case REPL_GE: {
        if (!ba || !bb) {
            static const char *const sym[] = {[REPL_LT] = "<", [REPL_LE] = "<=", [REPL_GT] = ">", [REPL_GE] = ">="};
            repl_raise_exc(EXC_TypeError, "'%s' not supported between instances of '%s' and '%s'", sym[op],
                           repl_value_type_name(a), repl_value_type_name(b));
            return NULL;
        }
        size_t n = repl_bytes_len(a), m = repl_bytes_len(b);
        int c = memcmp(repl_bytes_data(a), repl_bytes_data(b), n < m ? n : m);
        if (c == 0) c = n < m ? -1 : n > m;
        bool r = op == REPL_LT ? c < 0 : op == REPL_LE ? c <= 0 : op == REPL_GT ? c > 0 : c >= 0;
        return nn_bool_new(r);
    }
    default:
        break;
    }
    *handled = false; /* the evaluator's TypeError for these operands */
    return NULL;
}

int repl_bytes_contains(nn_object *o, nn_object *x)
{
    const unsigned char *p = repl_bytes_data(o);
    size_t n = repl_bytes_len(o);
    if (is_index(x)) {
        int64_t v = nn_int_value(x);
        if (v < 0 || v > 255) return repl_raise_exc(EXC_ValueError, "byte must be in range(0, 256)");
        return memchr(p, (int)v, n) != NULL;
    }
    const unsigned char *q = NULL;
    size_t m = 0;
    if (repl_bytes_buffer(x, &q, &m) < 0) return -1;
    return m == 0 || memmem(p, n, q, m) != NULL;
}

nn_object *repl_bytes_to_list(nn_object *o)
{
    size_t n = repl_bytes_len(o);
    nn_object *l = nn_list_new(n);
    for (size_t i = 0; l && i < n; i++) {
        nn_object *v = nn_int_new(repl_bytes_data(o)[i]);
        if (!v || nn_list_append(l, v) < 0) NN_SET(l, NULL);
        NN_RELEASE(v);
    }
    return l;
}

/* ------------------------------------------------------------------ items */

static int item_index(nn_object *o, nn_object *key, size_t *out)
{
    key = repl_unwrap_value(key); /* b'abc'[I(1)] */
    if (!is_index(key)) {
        if (key->type == &repl_bigint_type)
            return repl_raise_exc(EXC_IndexError, "cannot fit 'int' into an index-sized integer");
        return repl_raise_exc(EXC_TypeError, "%s indices must be integers or slices, not %s", o->type->name,
                              repl_value_type_name(key));
    }
    int64_t i = nn_int_value(key), n = (int64_t)repl_bytes_len(o);
    if (i < 0) i += n;
    if (i < 0 || i >= n)
        return repl_raise_exc(EXC_IndexError, "%s", o->type == &repl_bytearray_type ? "bytearray index out of range"
                                                                                   : "index out of range");
    *out = (size_t)i;
    return 0;
}

nn_object *repl_bytes_getitem(nn_object *o, nn_object *key)
{
    if (repl_is_slice(key)) {
        int64_t start, stop, step, count;
        if (repl_slice_indices(key, (int64_t)repl_bytes_len(o), &start, &stop, &step, &count) < 0) return NULL;
        nn_object *r = repl_bytes_new(NULL, (size_t)count, o->type == &repl_bytearray_type);
        for (int64_t i = 0; r && i < count; i++) ((bytes_obj *)r)->data[i] = repl_bytes_data(o)[start + i * step];
        return r;
    }
    size_t i;
    if (item_index(o, key, &i) < 0) return NULL;
    return nn_int_new(repl_bytes_data(o)[i]);
}

static int byte_value(nn_object *v, unsigned char *out, bool plural)
{
    if (!is_index(v))
        return repl_raise_exc(EXC_TypeError, "'%s' object cannot be interpreted as an integer", repl_value_type_name(v));
    int64_t x = nn_int_value(v);
    if (x < 0 || x > 255) return repl_raise_exc(EXC_ValueError, "%s must be in range(0, 256)", plural ? "bytes" : "byte");
    *out = (unsigned char)x;
    return 0;
}

/* The bytes of a list of ints as a new bytearray (plural: the constructors' message). */
static nn_object *from_list(nn_object *items, bool plural)
{
    size_t n = nn_list_len(items);
    nn_object *r = repl_bytes_new(NULL, n, true);
    for (size_t i = 0; r && i < n; i++)
        if (byte_value(nn_list_get(items, i), &((bytes_obj *)r)->data[i], plural) < 0) NN_SET(r, NULL);
    return r;
}

/* The bytes of an iterable of ints (or a bytes-like object) as a new bytearray. */
static nn_object *from_iterable(nn_object *src)
{
    if (repl_is_bytes(src)) return repl_bytes_new(repl_bytes_data(src), repl_bytes_len(src), true);
    nn_object *items = repl_iterable_to_list(src);
    nn_object *r = items ? from_list(items, false) : NULL;
    NN_RELEASE(items);
    return r;
}

int repl_bytes_setitem(nn_object *o, nn_object *key, nn_object *value)
{
    if (o->type != &repl_bytearray_type)
        return repl_raise_exc(EXC_TypeError, "'bytes' object does not support item assignment");
    bytes_obj *b = (bytes_obj *)o;
    if (!repl_is_slice(key)) {
        size_t i;
        if (item_index(o, key, &i) < 0) return -1;
        return byte_value(value, &b->data[i], false);
    }
    int64_t start, stop, step, count;
    if (repl_slice_indices(key, (int64_t)b->len, &start, &stop, &step, &count) < 0) return -1;
    if (is_index(value) || nn_is_str(value))
        return repl_raise_exc(EXC_TypeError, "can assign only bytes, buffers, or iterables of ints in range(0, 256)");
    nn_object *src = from_iterable(value);
    if (!src) return -1;
    size_t m = repl_bytes_len(src);
    int rc = 0;
    if (step != 1) {
        if ((int64_t)m != count)
            rc = repl_raise_exc(EXC_ValueError, "attempt to assign bytes of size %zu to extended slice of size %lld", m,
                                (long long)count);
        for (int64_t i = 0; rc == 0 && i < count; i++) b->data[start + i * step] = repl_bytes_data(src)[i];
    } else {
        if (stop < start) stop = start;
        size_t tail = b->len - (size_t)stop, newlen = (size_t)start + m + tail;
        if (reserve(b, newlen) < 0) rc = -1;
        else {
            memmove(b->data + start + m, b->data + stop, tail);
            memcpy(b->data + start, repl_bytes_data(src), m);
            b->len = newlen;
            b->data[newlen] = 0;
        }
    }
    NN_RELEASE(src);
    return rc;
}

int repl_bytes_delitem(nn_object *o, nn_object *key)
{
    bytes_obj *b = (bytes_obj *)o;
    int64_t start, stop, step, count;
    if (repl_is_slice(key)) {
        if (repl_slice_indices(key, (int64_t)b->len, &start, &stop, &step, &count) < 0) return -1;
    } else {
        size_t i;
        if (item_index(o, key, &i) < 0) return -1;
        start = (int64_t)i, step = 1, count = 1;
    }
    if (step < 0) { /* the same bytes walked upwards */
        start += (count - 1) * step;
        step = -step;
    }
    /* keep every byte not in {start + k * step : k < count}, in order */
    size_t w = (size_t)start;
    for (size_t r = (size_t)start; r < b->len; r++) {
        bool gone = count > 0 && r >= (size_t)start && (int64_t)(r - (size_t)start) % step == 0 &&
                    (int64_t)(r - (size_t)start) / step < count;
        if (!gone) b->data[w++] = b->data[r];
    }
    b->len = w;
    b->data[w] = 0;
    return 0;
}

/* ------------------------------------------------------------------ classes */

static const char *str_arg(nn_object *o, const char *fname, const char *what)
{
    if (!o) return NULL;
    if (!nn_is_str(o)) {
        repl_raise_exc(EXC_TypeError, "%s() argument '%s' must be str, not %s", fname, what, repl_value_type_name(o));
        return NULL;
    }
    return nn_str_cstr(o);
}

/* bytes([source[, encoding[, errors]]]) and bytearray(...) */
static nn_object *make(const char *fname, bool array, nn_object *args, nn_object *kwargs)
{
    nn_object *a[3] = {0};
    if (repl_parse_args(fname, "source=, encoding=, errors=", args, kwargs, a)) return NULL;
    nn_object *src = a[0];
    if (src && repl_base_value(src) && (nn_is_int(repl_base_value(src)) || nn_is_str(repl_base_value(src))))
        src = repl_base_value(src); /* bytes(I(3)), bytes(S('a'), 'utf-8') */
    if (a[1] || a[2]) {
        if (!src || !nn_is_str(src)) {
            repl_raise_exc(EXC_TypeError, src ? "encoding without a string argument" : "encoding or errors without sequence argument");
            return NULL;
        }
        const char *enc = a[1] ? str_arg(a[1], fname, "encoding") : "utf-8";
        const char *err = a[2] ? str_arg(a[2], fname, "errors") : NULL;
        if (!enc || (a[2] && !err)) return NULL;
        nn_object *r = repl_str_encode(nn_str_cstr(src), nn_str_len(src), enc, err);
        if (r && array) NN_SET(r, repl_bytes_new(repl_bytes_data(r), repl_bytes_len(r), true));
        return r;
    }
    if (!src) return repl_bytes_new(NULL, 0, array);
    if (nn_is_str(src)) {
        repl_raise_exc(EXC_TypeError, "string argument without an encoding");
        return NULL;
    }
    if (is_index(src)) {
        int64_t n = nn_int_value(src);
        if (n < 0) {
            repl_raise_exc(EXC_ValueError, "negative count");
            return NULL;
        }
        if ((uint64_t)n > REPL_STR_MAX) {
            repl_raise_exc(EXC_MemoryError, "%s", "");
            return NULL;
        }
        return repl_bytes_new(NULL, (size_t)n, array);
    }
    if (nn_is_float(src) || nn_is_none(src) || src->type == &repl_bigint_type) {
        repl_raise_exc(EXC_TypeError, "cannot convert '%s' object to %s", repl_value_type_name(src), fname);
        return NULL;
    }
    if (src->type == &repl_instance_type && repl_class_lookup(((instance_obj *)src)->cls, "__bytes__")) {
        /* bytes(x) of a class with __bytes__; bytearray(x) too, for the buffers written in the
           language (memoryview, array.array) */
        nn_object *b = repl_call_method(src, "__bytes__", NULL, 0);
        if (b && b->type != &repl_bytes_type) {
            repl_raise_exc(EXC_TypeError, "__bytes__ returned non-bytes (type %s)", repl_value_type_name(b));
            NN_SET(b, NULL);
        }
        if (b && array) NN_SET(b, repl_bytes_new(repl_bytes_data(b), repl_bytes_len(b), true));
        return b;
    }
    nn_object *r;
    if (repl_is_bytes(src)) r = repl_bytes_new(repl_bytes_data(src), repl_bytes_len(src), true);
    else {
        nn_object *items = repl_iterable_to_list(src);
        if (!items) {
            if (nn_error_current() == NN_ERR_TYPE) { /* not iterable: CPython names the type */
                nn_error_clear();
                repl_raise_exc(EXC_TypeError, "cannot convert '%s' object to %s", repl_value_type_name(src), fname);
            }
            return NULL;
        }
        r = from_list(items, true);
        NN_RELEASE(items);
    }
    if (!r) return NULL;
    if (!array) r->type = &repl_bytes_type;
    return r;
}

static nn_object *ctor_bytes(void *ud, nn_object *args, nn_object *kwargs) { return make("bytes", false, args, kwargs); }
static nn_object *ctor_bytearray(void *ud, nn_object *args, nn_object *kwargs)
{
    return make("bytearray", true, args, kwargs);
}

nn_object *repl_bytes_getattr(nn_object *o, const char *name, bool *handled)
{
    if (!repl_is_bytes(o)) {
        *handled = false;
        return NULL;
    }
    *handled = true;
    nn_object *m = repl_bytes_method(o, name);
    if (!m && !nn_error_current()) m = repl_builtin_value_slot(o, name); /* b.__len__ */
    if (!m && !nn_error_current())
        repl_raise_exc(EXC_AttributeError, "'%s' object has no attribute '%s'", o->type->name, name);
    return m;
}

/* ------------------------------------------------------------------ str.encode, int.to_bytes/from_bytes */

/* The arguments of a C function set in a class's dict: self (or the class) is
   args[0], into out[0]; the others parsed by spec (which starts "self, ") into out[1..]. */
static int self_args(const char *fname, const char *spec, nn_object *args, nn_object *kwargs, nn_object **out)
{
    if (!args || nn_tuple_len(args) < 1)
        return repl_raise_exc(EXC_TypeError, "unbound method %s() needs an argument", fname);
    out[0] = nn_tuple_get(args, 0);
    return repl_parse_args_from(fname, spec, args, 1, kwargs, out + 1);
}

static nn_object *str_encode(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[3] = {0};
    if (self_args("encode", "self, encoding=, errors=", args, kwargs, a)) return NULL;
    if (!nn_is_str(a[0])) {
        repl_raise_exc(EXC_TypeError, "descriptor 'encode' for 'str' objects doesn't apply to a '%s' object",
                       repl_value_type_name(a[0]));
        return NULL;
    }
    const char *enc = a[1] ? str_arg(a[1], "encode", "encoding") : "utf-8";
    const char *err = a[2] ? str_arg(a[2], "encode", "errors") : NULL;
    if (!enc || (a[2] && !err)) return NULL;
    return repl_str_encode(nn_str_cstr(a[0]), nn_str_len(a[0]), enc, err);
}

static int byteorder_arg(nn_object *o, bool *little)
{
    if (!o) {
        *little = false;
        return 0;
    }
    if (nn_is_str(o) && !strcmp(nn_str_cstr(o), "little")) *little = true;
    else if (nn_is_str(o) && !strcmp(nn_str_cstr(o), "big")) *little = false;
    else if (!nn_is_str(o))
        return repl_raise_exc(EXC_TypeError, "to_bytes() argument 'byteorder' must be str, not %s", repl_value_type_name(o));
    else return repl_raise_exc(EXC_ValueError, "byteorder must be either 'little' or 'big'");
    return 0;
}

/* int.to_bytes(length=1, byteorder='big', *, signed=False): the digits by
   repeated divmod 256, so big ints work as small ones */
static nn_object *int_to_bytes(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[4] = {0};
    if (self_args("to_bytes", "self, length=, byteorder=, *, signed=", args, kwargs, a)) return NULL;
    int64_t len = 1;
    bool little, sign = a[3] && repl_truth(a[3]) > 0;
    if ((a[1] && repl_mod_int(a[1], &len) < 0) || byteorder_arg(a[2], &little) < 0) return NULL;
    if (len < 0) {
        repl_raise_exc(EXC_ValueError, "length argument must be non-negative");
        return NULL;
    }
    if ((uint64_t)len > REPL_STR_MAX) {
        repl_raise_exc(EXC_OverflowError, "int too big to convert");
        return NULL;
    }
    nn_object *zero = nn_int_new(0), *b256 = nn_int_new(256);
    nn_object *v = nn_retain(a[0]), *neg = repl_binary_op(REPL_LT, v, zero), *r = NULL;
    if (!neg) goto out;
    if (nn_is_true(neg) && !sign) {
        repl_raise_exc(EXC_OverflowError, "can't convert negative int to unsigned");
        goto out;
    }
    if (nn_is_true(neg)) { /* two's complement: v + 256**len */
        nn_object *e = nn_int_new(len), *p = e ? repl_binary_op(REPL_POW, b256, e) : NULL;
        NN_SET(v, p ? repl_binary_op(REPL_ADD, v, p) : NULL);
        NN_RELEASE(e);
        NN_RELEASE(p);
        if (!v) goto out;
    }
    r = repl_bytes_new(NULL, (size_t)len, false);
    if (!r) goto out;
    for (int64_t i = 0; i < len; i++) {
        nn_object *d = repl_binary_op(REPL_MOD, v, b256);
        if (!d) goto fail;
        ((bytes_obj *)r)->data[little ? i : len - 1 - i] = (unsigned char)nn_int_value(d);
        NN_RELEASE(d);
        NN_SET(v, repl_binary_op(REPL_FLOORDIV, v, b256));
        if (!v) goto fail;
    }
    /* what is left must be nothing (0), or for signed values the sign must survive */
    nn_object *left = repl_binary_op(REPL_NE, v, zero);
    bool bad = !left || nn_is_true(left);
    NN_RELEASE(left);
    if (!bad && sign && len > 0) {
        bool top = repl_bytes_data(r)[little ? len - 1 : 0] & 0x80;
        bad = top != nn_is_true(neg);
    } else if (!bad && sign && len == 0) bad = nn_is_true(neg);
    if (bad) {
        if (!nn_error_current()) repl_raise_exc(EXC_OverflowError, "int too big to convert");
        goto fail;
    }
    goto out;
fail:
    NN_SET(r, NULL);
out:
    NN_RELEASE(zero);
    NN_RELEASE(b256);
    NN_RELEASE(v);
    NN_RELEASE(neg);
    return r;
}

/* int.from_bytes(bytes, byteorder='big', *, signed=False) (a classmethod) */
static nn_object *int_from_bytes(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[4] = {0};
    if (self_args("from_bytes", "self, bytes, byteorder=, *, signed=", args, kwargs, a)) return NULL;
    bool little, sign = a[3] && repl_truth(a[3]) > 0;
    if (byteorder_arg(a[2], &little) < 0) return NULL;
    nn_object *src = repl_is_bytes(a[1]) ? nn_retain(a[1]) : from_iterable(a[1]);
    if (!src) return NULL;
    size_t n = repl_bytes_len(src);
    const unsigned char *p = repl_bytes_data(src);
    nn_object *r = nn_int_new(0), *b256 = nn_int_new(256);
    for (size_t i = 0; r && i < n; i++) {
        nn_object *d = nn_int_new(p[little ? n - 1 - i : i]);
        nn_object *t = d ? repl_binary_op(REPL_MUL, r, b256) : NULL;
        NN_SET(r, t ? repl_binary_op(REPL_ADD, t, d) : NULL);
        NN_RELEASE(t);
        NN_RELEASE(d);
    }
    if (r && sign && n && (p[little ? n - 1 : 0] & 0x80)) { /* minus 256**n */
        nn_object *e = nn_int_new((int64_t)n), *pw = e ? repl_binary_op(REPL_POW, b256, e) : NULL;
        NN_SET(r, pw ? repl_binary_op(REPL_SUB, r, pw) : NULL);
        NN_RELEASE(e);
        NN_RELEASE(pw);
    }
    NN_RELEASE(b256);
    NN_RELEASE(src);
    return r;
}

static nn_object *bytes_fromhex_fn(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[2] = {0};
    if (self_args("fromhex", "self, string", args, kwargs, a)) return NULL;
    if (!nn_is_str(a[1])) {
        repl_raise_exc(EXC_TypeError, "fromhex() argument must be str, not %s", repl_value_type_name(a[1]));
        return NULL;
    }
    bool array = a[0]->type == &repl_class_type && ((class_obj *)a[0])->ntype == &repl_bytearray_type;
    const char *s = nn_str_cstr(a[1]);
    size_t n = nn_str_len(a[1]);
    nn_object *r = repl_bytes_new(NULL, 0, array);
    for (size_t i = 0; r && i < n;) {
        if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '\v' || s[i] == '\f') {
            i++;
            continue;
        }
        int hi = -1, lo = -1;
        char c = s[i];
        hi = c >= '0' && c <= '9' ? c - '0' : (c | 32) >= 'a' && (c | 32) <= 'f' ? (c | 32) - 'a' + 10 : -1;
        size_t at = i;
        if (hi >= 0 && i + 1 < n) {
            c = s[i + 1];
            at = i + 1;
            lo = c >= '0' && c <= '9' ? c - '0' : (c | 32) >= 'a' && (c | 32) <= 'f' ? (c | 32) - 'a' + 10 : -1;
        } else if (hi >= 0) at = i + 1;
        if (hi < 0 || lo < 0) {
            repl_raise_exc(EXC_ValueError, "non-hexadecimal number found in fromhex() arg at position %zu", at);
            NN_SET(r, NULL);
            break;
        }
        unsigned char v = (unsigned char)(hi * 16 + lo);
        if (repl_bytes_append(r, &v, 1) < 0) NN_SET(r, NULL);
        i += 2;
    }
    return r;
}

static int put_fn(class_obj *c, const char *name, nn_cfunc fn, const char *wrapper, repl_interp *in)
{
    nn_object *f = nn_cfunction_new(name, fn, NULL, NULL);
    if (f && wrapper) {
        nn_object *wrap = repl_nmap_get(&in->builtins, wrapper);
        nn_object *w = wrap ? repl_call_object(wrap, &f, 1, NULL) : NULL;
        NN_SET(f, w);
    }
    int rc = f ? repl_nmap_set(&c->dict, name, f) : -1;
    NN_RELEASE(f);
    return rc;
}

static const struct {
    const char *cls, *name, *doc;
} docs[] = {
    {"bytes", NULL, "bytes(source=b'', encoding='utf-8', errors='strict')\nAn immutable sequence of bytes: from an int (zero bytes), an iterable of ints in range(256), a bytes-like object, or a str and its encoding."},
    {"bytearray", NULL, "bytearray(source=b'', encoding='utf-8', errors='strict')\nA mutable sequence of bytes, made as bytes() makes one."},
    {"bytes", "fromhex", "fromhex(string, /)\nCreate a bytes object from a string of hexadecimal numbers (spaces between bytes are allowed)."},
    {"bytearray", "fromhex", "fromhex(string, /)\nCreate a bytearray object from a string of hexadecimal numbers (spaces between bytes are allowed)."},
    {"str", "encode", "encode(encoding='utf-8', errors='strict')\nEncode the string using the codec registered for encoding (utf-8, ascii, latin-1)."},
    {"int", "to_bytes", "to_bytes(length=1, byteorder='big', *, signed=False)\nReturn an array of bytes representing an integer."},
    {"int", "from_bytes", "from_bytes(bytes, byteorder='big', *, signed=False)\nReturn the integer represented by the given array of bytes."},
};

const char *repl_bytes_doc(const class_obj *c, const char *name)
{
    for (size_t i = 0; i < sizeof docs / sizeof *docs; i++)
        if (!strcmp(docs[i].cls, c->name) && (name ? docs[i].name && !strcmp(docs[i].name, name) : !docs[i].name) &&
            (name || c->ntype == &repl_bytes_type || c->ntype == &repl_bytearray_type))
            return docs[i].doc;
    return NULL;
}

class_obj *repl_bytes_class_holding(nn_object *f)
{
    static const char *const names[] = {"bytes", "bytearray"};
    for (int i = 0; i < 2 && repl_current; i++) {
        nn_object *c = repl_nmap_get(&repl_current->builtins, names[i]);
        if (!c || c->type != &repl_class_type) continue;
        uint32_t pos = 0;
        const char *k;
        nn_object *v;
        while (repl_nmap_next(&((class_obj *)c)->dict, &pos, &k, &v))
            if (v == f) return (class_obj *)c;
    }
    return NULL;
}

static int add_class(repl_interp *in, const char *name, const nn_type *t, nn_cfunc ctor)
{
    class_obj *c = repl_lang_class_new(name, in->object_cls, -1);
    if (!c) return -1;
    c->ntype = t;
    c->ctor = ctor;
    int rc = put_fn(c, "fromhex", bytes_fromhex_fn, "classmethod", in);
    if (!rc) rc = repl_nmap_set(&in->builtins, name, &c->ob);
    if (!rc) rc = repl_nmap_set(&in->type_cache, name, &c->ob); /* type(b'') is this class */
    NN_RELEASE(c);
    return rc;
}

int repl_bytes_install(repl_interp *in)
{
    if (add_class(in, "bytes", &repl_bytes_type, ctor_bytes) < 0 ||
        add_class(in, "bytearray", &repl_bytearray_type, ctor_bytearray) < 0)
        return -1;
    if (put_fn(in->str_cls, "encode", str_encode, NULL, in) < 0 || put_fn(in->int_cls, "to_bytes", int_to_bytes, NULL, in) < 0 ||
        put_fn(in->int_cls, "from_bytes", int_from_bytes, "classmethod", in) < 0)
        return -1;
    return 0;
}
