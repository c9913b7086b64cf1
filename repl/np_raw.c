/*
 * np_raw.c — an ndarray's elements as raw bytes, NumPy's layout (little-endian,
 * C order, the dtype's own width): ndarray.tofile / tobytes, np.fromfile /
 * frombuffer and np.memmap (mod_numpy_src.c) read and write them here. uint16 and
 * uint32 arrays keep their values in int32/int64 tensors (see _WIDE in the
 * module's source): their bytes are the low 2/4 bytes of each element.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bind_int.h"
#include "bytes_int.h"
#include "stdlib_int.h"

#define ARGS(n) nn_object *a[n] = {0}

/* NumPy's dtype name: its width in a file and the tensor dtype that holds it. */
static const struct {
    const char *name;
    size_t width;
    nn_dtype dt;
} raw_types[] = {{"float64", 8, NN_FLOAT64}, {"float32", 4, NN_FLOAT32}, {"float16", 2, NN_FLOAT16},
                 {"int64", 8, NN_INT64},     {"int32", 4, NN_INT32},     {"int16", 2, NN_INT16},
                 {"int8", 1, NN_INT8},       {"uint8", 1, NN_UINT8},     {"bool", 1, NN_BOOL},
                 {"uint16", 2, NN_INT32},    {"uint32", 4, NN_INT64}};

static int raw_type(nn_object *name)
{
    if (name && nn_is_str(name))
        for (size_t i = 0; i < sizeof raw_types / sizeof *raw_types; i++)
            if (!strcmp(nn_str_cstr(name), raw_types[i].name)) return (int)i;
    repl_raise_exc(EXC_TypeError, "data type %s not understood", name && nn_is_str(name) ? nn_str_cstr(name) : "?");
    return -1;
}

/* A new 1-d CPU tensor of the n elements of type k at p. */
static nn_tensor *tensor_of_bytes(int k, const unsigned char *p, int64_t n)
{
    nn_tensor *t = nn_empty_on(NN_DEVICE_CPU, 1, &n, raw_types[k].dt);
    if (!t) return NULL;
    void *d = nn_host_borrow(t);
    if (!d) {
        NN_RELEASE(t);
        return NULL;
    }
    size_t w = raw_types[k].width;
    if (w == nn_dtype_size(raw_types[k].dt)) {
        if (n) memcpy(d, p, (size_t)n * w);
    } else if (w == 2) { /* uint16 into int32 */
        for (int64_t i = 0; i < n; i++) ((int32_t *)d)[i] = (int32_t)(p[2 * i] | (uint32_t)p[2 * i + 1] << 8);
    } else { /* uint32 into int64 */
        for (int64_t i = 0; i < n; i++) {
            uint32_t v;
            memcpy(&v, p + 4 * i, 4);
            ((int64_t *)d)[i] = (int64_t)v;
        }
    }
    return t;
}

/* t's elements as type k's bytes: a new buffer (nn_free it) of *n bytes, or NULL. */
static unsigned char *bytes_of_tensor(int k, nn_tensor *t, size_t *n)
{
    if (t->dtype != raw_types[k].dt) {
        nn_error_set(NN_ERR_TYPE, "tobytes: a %s tensor for dtype %s", nn_dtype_short_name(t->dtype),
                     raw_types[k].name);
        return NULL;
    }
    nn_tensor *hold = NULL;
    const unsigned char *src = nn_host_read(t, &hold);
    if (!src) return NULL;
    size_t count = (size_t)nn_numel(t), w = raw_types[k].width, es = nn_dtype_size(t->dtype);
    unsigned char *out = nn_malloc(count * w + 1);
    if (out) {
        if (w == es) {
            memcpy(out, src, count * w);
        } else {
            for (size_t i = 0; i < count; i++) memcpy(out + i * w, src + i * es, w); /* the low bytes (little-endian) */
        }
        *n = count * w;
    }
    NN_RELEASE(hold);
    return out;
}

/* _raw_read(path, name, count, offset) -> 1-d tensor: count elements (-1: as many
   as the file holds past offset) of dtype name from the file at path. */
nn_object *repl_np_raw_read(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    const char *path;
    int64_t count = -1, offset = 0;
    if (repl_parse_args("_raw_read", "path, name, count, offset", args, kwargs, a) ||
        repl_arg_str("fromfile", "file", 1, a[0], &path) || repl_arg_int("fromfile", "count", 3, a[2], &count) ||
        repl_arg_int("fromfile", "offset", 4, a[3], &offset))
        return NULL;
    int k = raw_type(a[1]);
    if (k < 0) return NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return repl_mod_os_error(errno, path);
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (size < 0 || offset < 0 || fseek(f, (long)offset, SEEK_SET) != 0) {
        fclose(f);
        return repl_mod_os_error(errno ? errno : EIO, path);
    }
    int64_t avail = offset < size ? (size - offset) / (int64_t)raw_types[k].width : 0;
    if (count < 0 || count > avail) count = avail;
    size_t nbytes = (size_t)count * raw_types[k].width;
    unsigned char *buf = nn_malloc(nbytes + 1);
    nn_tensor *t = NULL;
    if (buf && fread(buf, 1, nbytes, f) == nbytes) t = tensor_of_bytes(k, buf, count);
    else if (buf) repl_mod_os_error(EIO, path);
    nn_free(buf);
    fclose(f);
    return (nn_object *)t;
}

/* _raw_size(path) -> the file's size in bytes. */
nn_object *repl_np_raw_size(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    const char *path;
    if (repl_parse_args("_raw_size", "path", args, kwargs, a) || repl_arg_str("memmap", "filename", 1, a[0], &path))
        return NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return repl_mod_os_error(errno, path);
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    fclose(f);
    if (size < 0) return repl_mod_os_error(EIO, path);
    return nn_int_new(size);
}

/* _raw_write(path, t, name, offset, mode): t's elements as dtype name's bytes
   into the file at path: mode 'wb' (a new file) or 'r+b' (in place at offset,
   the file kept). */
nn_object *repl_np_raw_write(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    const char *path, *mode = "wb";
    nn_tensor *t;
    int64_t offset = 0;
    if (repl_parse_args("_raw_write", "path, t, name, offset, mode", args, kwargs, a) ||
        repl_arg_str("tofile", "fid", 1, a[0], &path) || repl_arg_tensor("tofile", "t", 2, a[1], &t) ||
        repl_arg_int("tofile", "offset", 4, a[3], &offset) || repl_arg_str("tofile", "mode", 5, a[4], &mode))
        return NULL;
    int k = raw_type(a[2]);
    if (k < 0) return NULL;
    if (strcmp(mode, "wb") != 0 && strcmp(mode, "r+b") != 0) {
        repl_raise_exc(EXC_ValueError, "_raw_write: mode must be 'wb' or 'r+b'");
        return NULL;
    }
    size_t n = 0;
    unsigned char *buf = bytes_of_tensor(k, t, &n);
    if (!buf) return NULL;
    FILE *f = fopen(path, mode);
    if (!f) {
        nn_free(buf);
        return repl_mod_os_error(errno, path);
    }
    bool ok = fseek(f, (long)offset, SEEK_SET) == 0 && fwrite(buf, 1, n, f) == n;
    int e = errno;
    ok = (fclose(f) == 0) && ok;
    nn_free(buf);
    if (!ok) return repl_mod_os_error(e ? e : EIO, path);
    return nn_retain(nn_none());
}

/* _frombytes(b, name, count, offset) -> 1-d tensor of count elements (-1: all)
   of b (bytes-like) from byte offset; ValueError as NumPy's frombuffer. */
nn_object *repl_np_frombytes(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    int64_t count = -1, offset = 0;
    if (repl_parse_args("_frombytes", "b, name, count, offset", args, kwargs, a) ||
        repl_arg_int("frombuffer", "count", 3, a[2], &count) || repl_arg_int("frombuffer", "offset", 4, a[3], &offset))
        return NULL;
    const unsigned char *p;
    size_t n;
    if (repl_bytes_buffer(a[0], &p, &n) < 0) return NULL;
    int k = raw_type(a[1]);
    if (k < 0) return NULL;
    size_t w = raw_types[k].width;
    if (offset < 0 || (size_t)offset > n) {
        repl_raise_exc(EXC_ValueError, "offset must be non-negative and no greater than buffer length (%zu)", n);
        return NULL;
    }
    size_t rest = n - (size_t)offset;
    if (count < 0) {
        if (rest % w) {
            repl_raise_exc(EXC_ValueError, "buffer size must be a multiple of element size");
            return NULL;
        }
        count = (int64_t)(rest / w);
    } else if ((size_t)count * w > rest) {
        repl_raise_exc(EXC_ValueError, "buffer is smaller than requested size");
        return NULL;
    }
    return (nn_object *)tensor_of_bytes(k, p + offset, count);
}

/* _tobytes(t, name) -> bytes of t's elements as dtype name. */
nn_object *repl_np_tobytes(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *t;
    if (repl_parse_args("_tobytes", "t, name", args, kwargs, a) || repl_arg_tensor("tobytes", "t", 1, a[0], &t))
        return NULL;
    int k = raw_type(a[1]);
    if (k < 0) return NULL;
    size_t n = 0;
    unsigned char *buf = bytes_of_tensor(k, t, &n);
    if (!buf) return NULL;
    nn_object *r = repl_bytes_new(buf, n, false);
    nn_free(buf);
    return r;
}
