/*
 * np_raw.c — an ndarray's elements as raw bytes, NumPy's layout (little-endian,
 * C order, the dtype's own width): ndarray.tofile / tobytes, np.fromfile /
 * frombuffer, np.memmap and np.save / np.load's .npy files (mod_numpy_src.c) read
 * and write them here. uint16 and
 * uint32 arrays keep their values in int32/int64 tensors (see _WIDE in the
 * module's source): their bytes are the low 2/4 bytes of each element. A
 * memmap's tensor views a mapping of its file (_raw_map) where its dtype's width is
 * its tensor's.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bind_int.h"
#include "bytes_int.h"
#include "stdlib_int.h"

#define ARGS(n) nn_object *a[n] = {0}

/* NumPy's dtype name: its width in a file, the tensor dtype that holds it and its .npy descr. */
static const struct {
    const char *name;
    size_t width;
    nn_dtype dt;
    const char *descr;
} raw_types[] = {{"float64", 8, NN_FLOAT64, "<f8"}, {"float32", 4, NN_FLOAT32, "<f4"}, {"float16", 2, NN_FLOAT16, "<f2"},
                 {"int64", 8, NN_INT64, "<i8"},     {"int32", 4, NN_INT32, "<i4"},     {"int16", 2, NN_INT16, "<i2"},
                 {"int8", 1, NN_INT8, "|i1"},       {"uint8", 1, NN_UINT8, "|u1"},     {"bool", 1, NN_BOOL, "|b1"},
                 {"uint16", 2, NN_INT32, "<u2"},    {"uint32", 4, NN_INT64, "<u4"},    {"uint64", 8, NN_INT64, "<u8"}};

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

/* _raw_map(path, name, count, offset, shared) -> a 1-d tensor of count elements of
   dtype name over a mapping of the file at path from byte offset (MAP_SHARED when
   shared: writes go to the file; else a private copy-on-write mapping), which the file
   holds; None where no tensor can view it (uint16/uint32, whose tensors are wider; an
   offset into its page that is not a multiple of the element size; no elements). */
nn_object *repl_np_raw_map(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    const char *path;
    int64_t count = 0, offset = 0;
    if (repl_parse_args("_raw_map", "path, name, count, offset, shared", args, kwargs, a) ||
        repl_arg_str("memmap", "filename", 1, a[0], &path) || repl_arg_int("memmap", "count", 3, a[2], &count) ||
        repl_arg_int("memmap", "offset", 4, a[3], &offset))
        return NULL;
    int k = raw_type(a[1]);
    if (k < 0) return NULL;
    int shared = repl_truth(a[4]);
    if (shared < 0) return NULL;
    int64_t w = (int64_t)raw_types[k].width, page = (int64_t)sysconf(_SC_PAGESIZE);
    int64_t skip = offset >= 0 && page > 0 ? offset % page : 0;
    if (w != (int64_t)nn_dtype_size(raw_types[k].dt) || count <= 0 || offset < 0 || skip % w)
        return nn_retain(nn_none());
    int fd = open(path, shared ? O_RDWR : O_RDONLY);
    if (fd < 0) return repl_mod_os_error(errno, path);
    size_t len = (size_t)(skip + count * w);
    void *data = mmap(NULL, len, PROT_READ | PROT_WRITE, shared ? MAP_SHARED : MAP_PRIVATE, fd, (off_t)(offset - skip));
    int e = errno;
    close(fd);
    if (data == MAP_FAILED) return repl_mod_os_error(e, path);
    nn_tensor *whole = nn_tensor_over_mapping(data, len, raw_types[k].dt);
    if (!whole) return NULL;
    int64_t stride = 1;
    nn_tensor *t = nn_storage_view_as(whole, 1, &count, &stride, skip / w);
    NN_RELEASE(whole);
    return (nn_object *)t;
}

/* _raw_create(path, nbytes): a new file (an old one emptied) of nbytes zero bytes, as
   NumPy's memmap makes one for mode 'w+'. */
nn_object *repl_np_raw_create(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    const char *path;
    int64_t nbytes = 0;
    if (repl_parse_args("_raw_create", "path, nbytes", args, kwargs, a) ||
        repl_arg_str("memmap", "filename", 1, a[0], &path) || repl_arg_int("memmap", "nbytes", 2, a[1], &nbytes))
        return NULL;
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0666);
    if (fd < 0) return repl_mod_os_error(errno, path);
    int rc = nbytes > 0 ? ftruncate(fd, (off_t)nbytes) : 0, e = errno;
    close(fd);
    if (rc < 0) return repl_mod_os_error(e, path);
    return nn_retain(nn_none());
}

/* _raw_sync(t): a mapped tensor's writes to its file now (msync); nothing for others. */
nn_object *repl_np_raw_sync(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    nn_tensor *t;
    if (repl_parse_args("_raw_sync", "t", args, kwargs, a) || repl_arg_tensor("flush", "t", 1, a[0], &t)) return NULL;
    if (nn_storage_sync(t) < 0) return NULL;
    return nn_retain(nn_none());
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

/* ------------------------------------------------------ .npy files */

/* _npy_save(path, t, name, fortran): NumPy's .npy format 1.0 (magic, version, a header dict
   padded with spaces to a multiple of 64 bytes, the elements of dtype name in C order).
   fortran: t is a Fortran-ordered array's transpose (its axes reversed), whose C order is
   the array's Fortran order; the header gives the array's shape and 'fortran_order': True. */
nn_object *repl_np_npy_save(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    const char *path;
    nn_tensor *t;
    bool fortran = false;
    if (repl_parse_args("_npy_save", "path, t, name, fortran=", args, kwargs, a) ||
        repl_arg_str("save", "file", 1, a[0], &path) || repl_arg_tensor("save", "arr", 2, a[1], &t) ||
        (a[3] && repl_arg_bool("save", "fortran", 4, a[3], &fortran)))
        return NULL;
    int k = raw_type(a[2]);
    if (k < 0) return NULL;
    char shape[NN_MAX_DIMS * 24 + 8] = "(";
    for (int i = 0; i < t->ndim; i++) {
        int d = fortran ? t->ndim - 1 - i : i;
        snprintf(shape + strlen(shape), sizeof shape - strlen(shape), "%lld,%s", (long long)t->sizes[d],
                 i + 1 < t->ndim ? " " : "");
    }
    if (t->ndim > 1) shape[strlen(shape) - 1] = 0; /* (2, 3) but (3,) */
    strcat(shape, ")");
    char hdr[NN_MAX_DIMS * 24 + 192];
    int n = snprintf(hdr, sizeof hdr, "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }", raw_types[k].descr,
                     fortran ? "True" : "False", shape);
    int total = 10 + n + 1, pad = (64 - total % 64) % 64;
    memset(hdr + n, ' ', (size_t)pad);
    hdr[n + pad] = '\n';
    int hlen = n + pad + 1;
    size_t nbytes = 0;
    unsigned char *data = bytes_of_tensor(k, t, &nbytes);
    if (!data) return NULL;
    FILE *f = fopen(path, "wb");
    if (!f) {
        nn_free(data);
        return repl_mod_os_error(errno, path);
    }
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hlen & 0xff),
                             (unsigned char)(hlen >> 8)};
    bool ok = fwrite(pre, 1, 10, f) == 10 && fwrite(hdr, 1, (size_t)hlen, f) == (size_t)hlen &&
              fwrite(data, 1, nbytes, f) == nbytes;
    int e = errno;
    ok = (fclose(f) == 0) && ok;
    nn_free(data);
    if (!ok) return repl_mod_os_error(e ? e : EIO, path);
    return nn_retain(nn_none());
}

/* NumPy's text of a size in bytes (numpy.core._exceptions._size_to_string):
   binary units, three significant digits ("3.64 TiB"), whole bytes below 1 KiB. */
static void size_text(char *out, size_t cap, uint64_t bytes)
{
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int bits = 0;
    for (uint64_t v = bytes; v > 1; v >>= 1) bits++;
    int unit = (bits > 1 ? bits : 1) / 10;
    double n = (double)bytes / (double)(1ULL << (unit * 10));
    if (unit < 6 && nearbyint(n) == 1024) {
        unit++;
        n /= 1024;
    }
    if (unit == 0) snprintf(out, cap, "%.0f %s", n, units[0]);
    else if (nearbyint(n) < 1000) snprintf(out, cap, "%#.3g %s", n, units[unit]);
    else snprintf(out, cap, "%#.0f %s", n, units[unit]);
}

/* "(4611686018427387904,3)": NumPy's shape in its reshape message (convert_shape_to_string:
   leading negative dimensions are left out, later ones read "newaxis"). */
static void shape_text(char *out, size_t cap, const int64_t *sizes, int nd)
{
    int i = 0;
    while (i < nd && sizes[i] < 0) i++;
    if (i == nd) {
        snprintf(out, cap, "()");
        return;
    }
    size_t k = (size_t)snprintf(out, cap, "(%lld", (long long)sizes[i++]);
    for (; i < nd && k < cap; i++)
        k += sizes[i] < 0 ? (size_t)snprintf(out + k, cap - k, ",newaxis")
                          : (size_t)snprintf(out + k, cap - k, ",%lld", (long long)sizes[i]);
    if (k < cap) snprintf(out + k, cap - k, nd == 1 ? ",)" : ")");
}

static nn_object *too_big(void)
{
    repl_raise_exc(EXC_ValueError,
                   "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.");
    return NULL;
}

/* How many elements np.fromfile reads for the header's shape from a file with
   `avail` elements left (NumPy's count: the product wrapped to int64), or -1 with
   MemoryError / ValueError where it fails before reading. */
static int64_t elements_read(const int64_t *sizes, int nd, int k, int64_t avail)
{
    uint64_t wrapped = 1;
    for (int i = 0; i < nd; i++) wrapped *= (uint64_t)sizes[i];
    int64_t count = (int64_t)wrapped;
    if (count < 0) return avail;
    if (count <= avail) return count;
    size_t width = raw_types[k].width;
    if ((uint64_t)count > (uint64_t)INT64_MAX / width) {
        too_big();
        return -1;
    }
    if (!repl_memory_room((size_t)count * width)) {
        char size[32], shape[48];
        size_text(size, sizeof size, (uint64_t)count * width);
        shape_text(shape, sizeof shape, &count, 1);
        repl_raise_exc(EXC_MemoryError, "Unable to allocate %s for an array with shape %s and data type %s", size,
                       shape, raw_types[k].name);
        return -1;
    }
    return avail;
}

/* Gives the n elements read the header's shape (one -1 is inferred, as by
   reshape): 0, or -1 with NumPy's ValueError. */
static int give_shape(int64_t *sizes, int nd, int64_t n, size_t width)
{
    int unknown = -1;
    bool zero = false, overflow = false;
    uint64_t nonzero = 1; /* the other dimensions' product: NumPy checks it for overflow even beside a 0 */
    for (int i = 0; i < nd; i++) {
        if (sizes[i] == -1 && unknown < 0) {
            unknown = i;
        } else if (sizes[i] < 0) {
            repl_raise_exc(EXC_ValueError, "negative dimensions not allowed");
            return -1;
        } else if (sizes[i] == 0) {
            zero = true;
        } else if (nonzero > (uint64_t)INT64_MAX / (uint64_t)sizes[i]) {
            overflow = true;
        } else {
            nonzero *= (uint64_t)sizes[i];
        }
    }
    bool fits = unknown >= 0 ? !zero && !overflow && (uint64_t)n % nonzero == 0
                             : (zero || !overflow) && (zero ? 0 : nonzero) == (uint64_t)n;
    if (!fits) {
        char shape[NN_MAX_DIMS * 24 + 8];
        shape_text(shape, sizeof shape, sizes, nd);
        repl_raise_exc(EXC_ValueError, "cannot reshape array of size %lld into shape %s", (long long)n, shape);
        return -1;
    }
    if (unknown >= 0) sizes[unknown] = (int64_t)((uint64_t)n / nonzero);
    if (overflow || nonzero > (uint64_t)INT64_MAX / width) {
        too_big();
        return -1;
    }
    return 0;
}

/* _npy_load(path) -> (flat tensor, dtype name, shape, fortran) of a .npy file (versions 1
   to 3, the dtypes above; fortran: the elements are in Fortran order). */
nn_object *repl_np_npy_load(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    const char *path;
    if (repl_parse_args("_npy_load", "path", args, kwargs, a) || repl_arg_str("load", "file", 1, a[0], &path))
        return NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return repl_mod_os_error(errno, path);
    unsigned char pre[12];
    char *hdr = NULL;
    unsigned char *buf = NULL;
    nn_object *r = NULL;
    size_t hlen = 0;
    if (fread(pre, 1, 10, f) != 10 || memcmp(pre, "\x93NUMPY", 6) != 0) goto bad;
    if (pre[6] < 1 || pre[6] > 3 || pre[7] != 0) {
        repl_raise_exc(EXC_ValueError, "we only support format version (1,0), (2,0), and (3,0), not (%d, %d)", pre[6],
                       pre[7]);
        goto fail;
    }
    if (pre[6] == 1) {
        hlen = pre[8] | (size_t)pre[9] << 8;
    } else {
        if (fread(pre + 10, 1, 2, f) != 2) goto bad;
        hlen = pre[8] | (size_t)pre[9] << 8 | (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
    }
    if (hlen > 10000) {
        repl_raise_exc(EXC_ValueError, "Header info length (%zu) is large and may not be safe to load securely.  "
                       "To allow loading, adjust `max_header_size` or fully trust the `.npy` file using "
                       "`allow_pickle=True`.  For safety against large resource use or crashes, sandboxing may "
                       "be necessary.", hlen);
        goto fail;
    }
    if (!(hdr = nn_malloc(hlen + 1))) goto fail;
    size_t got = fread(hdr, 1, hlen, f);
    if (got != hlen) {
        repl_raise_exc(EXC_ValueError, "EOF: reading array header, expected %zu bytes got %zu", hlen, got);
        goto fail;
    }
    hdr[hlen] = 0;
    char *d = strstr(hdr, "'descr':"), *fo = strstr(hdr, "'fortran_order':"), *sh = strstr(hdr, "'shape':");
    if (!d || !fo || !sh) goto bad;
    bool fortran = strstr(fo, "True") == fo + strspn(fo + 16, " ") + 16;
    d = strchr(d + 8, '\'');
    if (!d) goto bad;
    int k = -1;
    for (size_t i = 0; i < sizeof raw_types / sizeof *raw_types; i++)
        if (!strncmp(d + 1, raw_types[i].descr, 3) && d[4] == '\'') k = (int)i;
    if (k < 0) {
        repl_raise_exc(EXC_ValueError, "numpy.load: unsupported dtype %.8s", d + 1);
        goto fail;
    }
    char *p = strchr(sh, '(');
    if (!p) goto bad;
    p++;
    int64_t sizes[NN_MAX_DIMS];
    int nd = 0;
    while (*p && *p != ')') {
        while (*p == ' ' || *p == ',') p++;
        if (*p == ')') break;
        char *end;
        errno = 0;
        long long v = strtoll(p, &end, 10);
        if (end == p || nd == NN_MAX_DIMS) goto bad;
        if (errno == ERANGE) {
            repl_raise_exc(EXC_OverflowError, "Python int too large to convert to C long");
            goto fail;
        }
        sizes[nd++] = v;
        p = end;
    }
    if (*p != ')') goto bad;
    struct stat st;
    long at = ftell(f);
    size_t width = raw_types[k].width;
    int64_t avail = fstat(fileno(f), &st) == 0 && at >= 0 && st.st_size > at ? (int64_t)(st.st_size - at) / (int64_t)width : 0;
    int64_t numel = elements_read(sizes, nd, k, avail);
    if (numel < 0 || give_shape(sizes, nd, numel, width) < 0) goto fail;
    size_t nbytes = (size_t)numel * width;
    if (!(buf = nn_malloc(nbytes + 1))) goto fail;
    if (fread(buf, 1, nbytes, f) != nbytes) goto bad;
    nn_object *t = (nn_object *)tensor_of_bytes(k, buf, numel), *name = nn_str_new(raw_types[k].name),
              *shape = nn_tuple_new((size_t)nd), *fo_flag = nn_bool_new(fortran);
    for (int i = 0; shape && i < nd; i++) {
        nn_object *v = nn_int_new(sizes[i]);
        if (v) nn_tuple_set(shape, (size_t)i, v);
        else NN_SET(shape, NULL);
    }
    r = t && name && shape ? nn_tuple_pack(4, t, name, shape, fo_flag) : NULL;
    NN_RELEASE(fo_flag);
    NN_RELEASE(t);
    NN_RELEASE(name);
    NN_RELEASE(shape);
    nn_free(buf);
    nn_free(hdr);
    fclose(f);
    return r;
bad:
    repl_raise_exc(EXC_ValueError, "Cannot parse header: %s", hdr ? hdr : "(none)");
fail:
    nn_free(buf);
    nn_free(hdr);
    fclose(f);
    return NULL;
}
