/*
 * torch_pickle_numpy.c — NumPy values in torch.save / torch.load, pickled as
 * CPython pickles them at protocol 2 (what torch.save writes) with NumPy 1.x:
 *   ndarray  numpy.core.multiarray._reconstruct(numpy.ndarray, (0,), b'b'),
 *            BUILD (1, shape, dtype, is_fortran, raw bytes);
 *   scalar   numpy.core.multiarray.scalar(dtype, raw bytes) (np.float64(1.5), a[0], ...);
 *   dtype    numpy.dtype('f4', False, True), BUILD (3, '<', None, None, None, -1, -1, 0);
 *   bytes    _codecs.encode(latin-1 text, 'latin1'), or __builtin__.bytes() when empty.
 * PyTorch 1.13's torch.load reads these by default (weights_only=True refuses
 * them, and so does nnscope's). Loading makes them only from these globals, with
 * checked shapes, dtypes and byte counts; nothing else runs. Called by
 * torch_pickle_objects.c's hooks.
 */
#include <string.h>

#include "bind_int.h"
#include "bytes_int.h"
#include "eval_int.h"

static const struct np_type {
    const char *name, *code;
    char order;
    nn_dtype dtype;
} np_types[] = {
    {"float64", "f8", '<', NN_FLOAT64}, {"float32", "f4", '<', NN_FLOAT32}, {"float16", "f2", '<', NN_FLOAT16},
    {"int64", "i8", '<', NN_INT64},     {"int32", "i4", '<', NN_INT32},     {"bool", "b1", '|', NN_BOOL},
    {"int16", "i2", '<', NN_INT16},     {"int8", "i1", '|', NN_INT8},       {"uint8", "u1", '|', NN_UINT8},
};
#define N_NP_TYPES (sizeof np_types / sizeof np_types[0])

static const struct np_type *type_by(const char *name, bool code)
{
    for (size_t i = 0; i < N_NP_TYPES; i++)
        if (!strcmp(code ? np_types[i].code : np_types[i].name, name)) return &np_types[i];
    return NULL;
}

static const struct np_type *type_of_dtype(nn_dtype dt)
{
    for (size_t i = 0; i < N_NP_TYPES; i++)
        if (np_types[i].dtype == dt) return &np_types[i];
    return NULL;
}

/* The globals a file names, as values that only this file's functions take. */
static nn_object *g_reconstruct, *g_scalar, *g_encode, *g_bytes, *g_dtype, *g_ndarray;

static nn_object *marker_fn(void *ud, nn_object *args, nn_object *kwargs)
{
    repl_raise_exc(EXC_TypeError, "a global of a pickled NumPy value is not called here");
    return NULL;
}

static nn_object *marker(nn_object **slot, const char *name)
{
    if (!*slot) *slot = nn_cfunction_new(name, marker_fn, NULL, NULL);
    return *slot ? nn_retain(*slot) : NULL;
}

static nn_object *numpy_attr(const char *name)
{
    nn_object *np = repl_stdlib_module("numpy"), *r = np ? repl_get_attr(np, name) : NULL;
    NN_RELEASE(np);
    return r;
}

/* Is o an instance of numpy's dtype class? */
static bool is_np_dtype(nn_object *o)
{
    if (o->type != &repl_instance_type) return false;
    nn_object *cls = numpy_attr("dtype");
    bool r = cls && cls->type == &repl_class_type && repl_class_is_subclass(((instance_obj *)o)->cls, (class_obj *)cls);
    if (!cls) nn_error_clear();
    NN_RELEASE(cls);
    return r;
}

/* ------------------------------------------------------------------ saving */

/* bytes as latin-1 text: each byte one code point, UTF-8 encoded (new str) */
static nn_object *latin1_str(const unsigned char *p, size_t n)
{
    char *buf = nn_malloc(2 * n + 1);
    if (!buf) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] < 0x80) {
            buf[k++] = (char)p[i];
        } else {
            buf[k++] = (char)(0xC0 | (p[i] >> 6));
            buf[k++] = (char)(0x80 | (p[i] & 0x3F));
        }
    }
    nn_object *s = nn_str_from(buf, k);
    nn_free(buf);
    return s;
}

static nn_object *reduced(const char *module, const char *name, nn_object *args, nn_object *state) /* takes args, state */
{
    nn_object *m = nn_str_new(module), *n = nn_str_new(name), *t = NULL;
    if (m && n && args && state) t = nn_tuple_pack(4, m, n, args, state);
    NN_RELEASE(m), NN_RELEASE(n), NN_RELEASE(args), NN_RELEASE(state);
    return t;
}

static nn_object *dtype_reduced(const struct np_type *ty)
{
    nn_object *code = nn_str_new(ty->code), *order = nn_str_from(&ty->order, 1), *m1 = nn_int_new(-1), *zero = nn_int_new(0);
    nn_object *three = nn_int_new(3), *f = nn_bool_new(false), *t = nn_bool_new(true), *args = NULL, *state = NULL;
    if (code && order && m1 && zero && three && f && t) {
        args = nn_tuple_pack(3, code, f, t);
        state = nn_tuple_pack(8, three, order, nn_none(), nn_none(), nn_none(), m1, m1, zero);
    }
    NN_RELEASE(code), NN_RELEASE(order), NN_RELEASE(m1), NN_RELEASE(zero), NN_RELEASE(three), NN_RELEASE(f), NN_RELEASE(t);
    return reduced("numpy", "dtype", args, state);
}

/* A new numpy dtype object for ty (what the reduce of an array names). */
static nn_object *np_dtype_new(const struct np_type *ty)
{
    nn_object *cls = numpy_attr("dtype"), *name = cls ? nn_str_new(ty->name) : NULL;
    nn_object *r = name ? repl_call_object(cls, &name, 1, NULL) : NULL;
    NN_RELEASE(cls), NN_RELEASE(name);
    return r;
}

/* t's elements, row-major, as a bytes object */
static nn_object *raw_bytes(nn_tensor *t)
{
    nn_tensor *hold = NULL;
    const void *p = nn_host_read(t, &hold);
    nn_object *b = p ? repl_bytes_new(p, (size_t)nn_numel(t) * nn_dtype_size(t->dtype), false) : NULL;
    NN_RELEASE(hold);
    return b;
}

int repl_np_pickle_reduce(nn_object *o, nn_object **out)
{
    *out = NULL;
    if (o == g_ndarray) {
        nn_object *m = nn_str_new("numpy"), *n = nn_str_new("ndarray");
        *out = m && n ? nn_tuple_pack(2, m, n) : NULL;
        NN_RELEASE(m), NN_RELEASE(n);
        return *out ? 1 : -1;
    }
    if (o->type == &repl_bytes_type) {
        size_t n = repl_bytes_len(o);
        if (!n) {
            *out = reduced("__builtin__", "bytes", nn_tuple_new(0), nn_retain(nn_none()));
        } else {
            nn_object *s = latin1_str(repl_bytes_data(o), n), *enc = nn_str_new("latin1");
            nn_object *args = s && enc ? nn_tuple_pack(2, s, enc) : NULL;
            NN_RELEASE(s), NN_RELEASE(enc);
            *out = reduced("_codecs", "encode", args, nn_retain(nn_none()));
        }
        return *out ? 1 : -1;
    }
    if (is_np_dtype(o)) {
        nn_object *name = repl_get_attr(o, "name");
        const struct np_type *ty = name && nn_is_str(name) ? type_by(nn_str_cstr(name), false) : NULL;
        NN_RELEASE(name);
        if (!ty) return nn_error_current() ? -1 : 0;
        *out = dtype_reduced(ty);
        return *out ? 1 : -1;
    }
    nn_tensor *st = repl_numpy_scalar_tensor(o); /* a NumPy scalar: its 0-d tensor (owned) */
    nn_tensor *t = st ? st : repl_numpy_tensor_of(o);
    if (!t) return nn_error_current() ? -1 : 0;
    const struct np_type *ty = type_of_dtype(t->dtype);
    int scalar = 1;
    if (!st) {
        nn_object *sc = repl_get_attr(o, "_sc");
        scalar = sc ? repl_truth(sc) : -1;
        NN_RELEASE(sc);
    }
    if (!ty || scalar < 0 || repl_numpy_unconvertible(o)) {
        nn_dtype tdt = t->dtype;
        NN_RELEASE(st);
        if (scalar < 0 || nn_error_current()) return -1;
        return repl_raise_exc(EXC_TypeError, "torch.save: cannot pickle a NumPy array of %s", nn_dtype_name(tdt));
    }
    nn_object *dt = np_dtype_new(ty), *data = dt ? raw_bytes(t) : NULL, *args = NULL, *state = NULL;
    if (scalar && data) {
        args = nn_tuple_pack(2, dt, data);
        state = nn_retain(nn_none());
    } else if (data) {
        nn_object *nd = marker(&g_ndarray, "ndarray"), *zero = nn_int_new(0), *z1 = zero ? nn_tuple_pack(1, zero) : NULL;
        nn_object *b = repl_bytes_new("b", 1, false), *shape = nn_tuple_new((size_t)t->ndim), *one = nn_int_new(1);
        for (int d = 0; shape && d < t->ndim; d++) nn_tuple_set(shape, (size_t)d, nn_int_new(t->sizes[d]));
        if (nd && z1 && b && shape && one) {
            args = nn_tuple_pack(3, nd, z1, b);
            nn_object *f = nn_bool_new(false);
            state = f ? nn_tuple_pack(5, one, shape, dt, f, data) : NULL;
            NN_RELEASE(f);
        }
        NN_RELEASE(nd), NN_RELEASE(zero), NN_RELEASE(z1), NN_RELEASE(b), NN_RELEASE(shape), NN_RELEASE(one);
    }
    NN_RELEASE(dt), NN_RELEASE(data);
    NN_RELEASE(st);
    *out = reduced("numpy.core.multiarray", scalar ? "scalar" : "_reconstruct", args, state);
    return *out ? 1 : -1;
}

/* ----------------------------------------------------------------- loading */

nn_object *repl_np_pickle_find(const char *module, const char *name, bool *is_value, bool *handled)
{
    *handled = true;
    if (!strcmp(module, "numpy.core.multiarray") && !strcmp(name, "_reconstruct")) return marker(&g_reconstruct, name);
    if (!strcmp(module, "numpy.core.multiarray") && !strcmp(name, "scalar")) return marker(&g_scalar, name);
    if (!strcmp(module, "_codecs") && !strcmp(name, "encode")) return marker(&g_encode, name);
    if ((!strcmp(module, "__builtin__") || !strcmp(module, "builtins")) && !strcmp(name, "bytes"))
        return marker(&g_bytes, name);
    if (!strcmp(module, "numpy") && !strcmp(name, "dtype")) return marker(&g_dtype, name);
    if (!strcmp(module, "numpy") && !strcmp(name, "ndarray")) {
        *is_value = true; /* only an argument of _reconstruct */
        return marker(&g_ndarray, name);
    }
    *handled = false;
    return NULL;
}

static nn_object *bad(const char *what)
{
    repl_raise_exc(EXC_UnpicklingError, "a pickled NumPy value is malformed: %s", what);
    return NULL;
}

/* _codecs.encode(text, 'latin1'): each code point (below 256) one byte */
static nn_object *encode_latin1(nn_object *text, nn_object *enc)
{
    if (!nn_is_str(text) || !nn_is_str(enc) || (strcmp(nn_str_cstr(enc), "latin1") && strcmp(nn_str_cstr(enc), "latin-1")))
        return bad("_codecs.encode takes a str and 'latin1'");
    const unsigned char *p = (const unsigned char *)nn_str_cstr(text);
    size_t n = nn_str_len(text), k = 0;
    unsigned char *buf = nn_malloc(n + 1);
    if (!buf) return NULL;
    for (size_t i = 0; i < n; i++) {
        if (p[i] < 0x80) {
            buf[k++] = p[i];
        } else if ((p[i] & 0xE0) == 0xC0 && i + 1 < n && p[i] <= 0xC3) { /* U+0080..U+00FF */
            buf[k++] = (unsigned char)(((p[i] & 0x1F) << 6) | (p[i + 1] & 0x3F));
            i++;
        } else {
            nn_free(buf);
            return bad("a character past U+00FF in latin-1 bytes");
        }
    }
    nn_object *r = repl_bytes_new(buf, k, false);
    nn_free(buf);
    return r;
}

/* the np_type a loaded dtype object stands for */
static const struct np_type *loaded_type(nn_object *dt)
{
    if (!is_np_dtype(dt)) return NULL;
    nn_object *name = repl_get_attr(dt, "name");
    const struct np_type *ty = name && nn_is_str(name) ? type_by(nn_str_cstr(name), false) : NULL;
    if (!name) nn_error_clear();
    NN_RELEASE(name);
    return ty;
}

/* A CPU tensor of ty with the given sizes from raw (bytes of exactly that many elements). */
static nn_tensor *tensor_from_raw(const struct np_type *ty, int ndim, const int64_t *sizes, nn_object *raw)
{
    int64_t numel = 1;
    for (int d = 0; d < ndim; d++) {
        if (sizes[d] < 0 || (sizes[d] && numel > INT64_MAX / sizes[d])) return (nn_tensor *)bad("a shape out of range");
        numel *= sizes[d];
    }
    if (raw->type != &repl_bytes_type || (uint64_t)repl_bytes_len(raw) / nn_dtype_size(ty->dtype) != (uint64_t)numel ||
        repl_bytes_len(raw) % nn_dtype_size(ty->dtype))
        return (nn_tensor *)bad("the data's length does not match the shape and dtype");
    nn_tensor *t = nn_empty_on(NN_DEVICE_CPU, ndim, sizes, ty->dtype); /* numpy keeps its data on the CPU */
    if (t && numel && nn_host_write(t, repl_bytes_data(raw)) < 0) NN_SET(t, NULL);
    return t;
}

nn_object *repl_np_pickle_call(nn_object *fn, nn_object *args, bool *handled)
{
    *handled = fn == g_reconstruct || fn == g_scalar || fn == g_encode || fn == g_bytes || fn == g_dtype;
    if (!*handled) return NULL;
    size_t n = nn_tuple_len(args);
    if (fn == g_bytes) return n == 0 ? repl_bytes_new("", 0, false) : bad("bytes() with arguments");
    if (fn == g_encode) return n == 2 ? encode_latin1(nn_tuple_get(args, 0), nn_tuple_get(args, 1)) : bad("_codecs.encode");
    if (fn == g_dtype) { /* dtype('f4', False, True) */
        nn_object *code = n >= 1 ? nn_tuple_get(args, 0) : NULL;
        const struct np_type *ty = code && nn_is_str(code) ? type_by(nn_str_cstr(code), true) : NULL;
        if (!ty) {
            repl_raise_exc(EXC_UnpicklingError, "a pickled NumPy dtype nnscope's numpy does not have: %s",
                           code && nn_is_str(code) ? nn_str_cstr(code) : "?");
            return NULL;
        }
        return np_dtype_new(ty);
    }
    if (fn == g_reconstruct) { /* _reconstruct(ndarray, (0,), b'b'): an empty array that BUILD fills */
        if (n != 3 || nn_tuple_get(args, 0) != g_ndarray) return bad("_reconstruct makes only numpy.ndarray");
        nn_tensor *t = nn_empty_on(NN_DEVICE_CPU, 1, (int64_t[]){0}, NN_FLOAT64);
        nn_object *a = t ? repl_numpy_from_tensor(t) : NULL;
        NN_RELEASE(t);
        return a;
    }
    /* scalar(dtype, raw bytes) */
    const struct np_type *ty = n == 2 ? loaded_type(nn_tuple_get(args, 0)) : NULL;
    if (!ty) return bad("scalar() takes a dtype and its bytes");
    nn_tensor *t = tensor_from_raw(ty, 0, NULL, nn_tuple_get(args, 1));
    nn_object *f = t ? numpy_attr("_scalar") : NULL, *r = f ? repl_call_object(f, (nn_object *[]){&t->ob}, 1, NULL) : NULL;
    NN_RELEASE(f);
    NN_RELEASE(t);
    return r;
}

int repl_np_pickle_build(nn_object *obj, nn_object *state)
{
    if (is_np_dtype(obj)) { /* (3, order, ...): little-endian or not applicable */
        nn_object *order = state->type == &nn_tuple_type && nn_tuple_len(state) >= 2 ? nn_tuple_get(state, 1) : NULL;
        if (!order || !nn_is_str(order) || (strcmp(nn_str_cstr(order), "<") && strcmp(nn_str_cstr(order), "|") &&
                                            strcmp(nn_str_cstr(order), "=")))
            return bad("only little-endian dtypes are read") ? 0 : -1;
        return 1;
    }
    if (!repl_numpy_tensor_of(obj)) return 0;
    /* (version, shape, dtype, is_fortran, raw bytes) */
    size_t n = state->type == &nn_tuple_type ? nn_tuple_len(state) : 0;
    nn_object *shape = n == 5 ? nn_tuple_get(state, 1) : NULL;
    const struct np_type *ty = n == 5 ? loaded_type(nn_tuple_get(state, 2)) : NULL;
    if (!ty || !shape || shape->type != &nn_tuple_type || nn_tuple_len(shape) > 64)
        return bad("an ndarray's state is (1, shape, dtype, is_fortran, data)") ? 0 : -1;
    int ndim = (int)nn_tuple_len(shape);
    int64_t sizes[64], rev[64];
    for (int d = 0; d < ndim; d++) {
        nn_object *s = nn_tuple_get(shape, (size_t)d);
        if (!nn_is_int(s)) return bad("a shape of ints") ? 0 : -1;
        sizes[d] = nn_int_value(s);
        rev[ndim - 1 - d] = sizes[d];
    }
    bool fortran = repl_truth(nn_tuple_get(state, 3)) == 1;
    nn_tensor *t = tensor_from_raw(ty, ndim, fortran ? rev : sizes, nn_tuple_get(state, 4));
    if (t && fortran && ndim > 1) { /* column-major data: the reversed shape, transposed back */
        int perm[64];
        for (int d = 0; d < ndim; d++) perm[d] = ndim - 1 - d;
        nn_tensor *p = nn_permute(t, ndim, perm), *c = p ? nn_contiguous(p) : NULL;
        NN_RELEASE(p);
        NN_SET(t, c);
    }
    if (!t) return -1;
    int rc = repl_set_attr(obj, "_t", &t->ob);
    NN_RELEASE(t);
    return rc < 0 ? -1 : 1;
}
