/*
 * np_npy.c — NumPy's .npy files (np.save, and np.load once mod_numpy_src.c has
 * seen the magic): format 1.0 written, versions 1 to 3 read, the dtypes below,
 * C order. A header whose shape cannot be read fails as NumPy 1.24's read_array
 * does: the element count is the shape's product wrapped to int64, read with
 * np.fromfile (a count of 0 reads nothing, a negative one the rest of the file,
 * a positive one is allocated first: MemoryError "Unable to allocate ..."), and
 * the elements read are then given the shape ("cannot reshape array of size 3
 * into shape (10,)", "array is too big; ...").
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bind_int.h"
#include "stdlib_int.h"

#define ARGS(n) nn_object *a[n] = {0}

static const struct {
    const char *descr;
    nn_dtype dt;
} npy_types[] = {{"<f8", NN_FLOAT64}, {"<f4", NN_FLOAT32}, {"<f2", NN_FLOAT16},
                 {"<i8", NN_INT64},   {"<i4", NN_INT32},   {"|b1", NN_BOOL}};

/* _npy_save(path, t): NumPy's .npy format 1.0 (magic, version, a header dict
   padded with spaces to a multiple of 64 bytes, the elements in C order). */
nn_object *repl_np_npy_save(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    const char *path;
    nn_tensor *t;
    if (repl_parse_args("_npy_save", "path, t", args, kwargs, a) || repl_arg_str("save", "file", 1, a[0], &path) ||
        repl_arg_tensor("save", "arr", 2, a[1], &t))
        return NULL;
    const char *descr = NULL;
    for (size_t i = 0; i < sizeof npy_types / sizeof *npy_types; i++)
        if (npy_types[i].dt == t->dtype) descr = npy_types[i].descr;
    if (!descr) {
        repl_raise_exc(EXC_TypeError, "numpy.save: unsupported dtype");
        return NULL;
    }
    char shape[NN_MAX_DIMS * 24 + 8] = "(";
    for (int k = 0; k < t->ndim; k++)
        snprintf(shape + strlen(shape), sizeof shape - strlen(shape), "%lld,%s", (long long)t->sizes[k],
                 k + 1 < t->ndim ? " " : "");
    if (t->ndim > 1) shape[strlen(shape) - 1] = 0; /* (2, 3) but (3,) */
    strcat(shape, ")");
    char hdr[NN_MAX_DIMS * 24 + 192];
    int n = snprintf(hdr, sizeof hdr, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, shape);
    int total = 10 + n + 1, pad = (64 - total % 64) % 64;
    memset(hdr + n, ' ', (size_t)pad);
    hdr[n + pad] = '\n';
    int hlen = n + pad + 1;
    nn_tensor *hold = NULL;
    const void *data = nn_host_read(t, &hold);
    if (!data) return NULL;
    FILE *f = fopen(path, "wb");
    if (!f) {
        NN_RELEASE(hold);
        return repl_mod_os_error(errno, path);
    }
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hlen & 0xff),
                             (unsigned char)(hlen >> 8)};
    size_t nbytes = (size_t)nn_numel(t) * nn_dtype_size(t->dtype);
    bool ok = fwrite(pre, 1, 10, f) == 10 && fwrite(hdr, 1, (size_t)hlen, f) == (size_t)hlen &&
              fwrite(data, 1, nbytes, f) == nbytes;
    ok = (fclose(f) == 0) && ok;
    NN_RELEASE(hold);
    if (!ok) return repl_mod_os_error(errno ? errno : EIO, path);
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

static const char *dtype_name(nn_dtype dt)
{
    switch (dt) {
    case NN_FLOAT64: return "float64";
    case NN_FLOAT32: return "float32";
    case NN_FLOAT16: return "float16";
    case NN_INT64: return "int64";
    case NN_INT32: return "int32";
    default: return "bool";
    }
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
static int64_t elements_read(const int64_t *sizes, int nd, nn_dtype dt, int64_t avail)
{
    uint64_t wrapped = 1;
    for (int i = 0; i < nd; i++) wrapped *= (uint64_t)sizes[i];
    int64_t count = (int64_t)wrapped;
    if (count < 0) return avail;
    if (count <= avail) return count;
    size_t width = nn_dtype_size(dt);
    if ((uint64_t)count > (uint64_t)INT64_MAX / width) {
        too_big();
        return -1;
    }
    if (!repl_memory_room((size_t)count * width)) {
        char size[32], shape[48];
        size_text(size, sizeof size, (uint64_t)count * width);
        shape_text(shape, sizeof shape, &count, 1);
        repl_raise_exc(EXC_MemoryError, "Unable to allocate %s for an array with shape %s and data type %s", size,
                       shape, dtype_name(dt));
        return -1;
    }
    return avail;
}

/* Gives the n elements read the header's shape (one -1 is inferred, as by
   reshape): 0, or -1 with NumPy's ValueError. */
static int give_shape(int64_t *sizes, int nd, int64_t n, nn_dtype dt)
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
    if (overflow || nonzero > (uint64_t)INT64_MAX / nn_dtype_size(dt)) {
        too_big();
        return -1;
    }
    return 0;
}

/* _npy_load(path) -> tensor of a .npy file (versions 1 to 3, the dtypes above, C order). */
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
    nn_tensor *t = NULL;
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
    if (strstr(fo, "True") == fo + strspn(fo + 16, " ") + 16) {
        repl_raise_exc(EXC_ValueError, "numpy.load: Fortran-ordered arrays are not supported");
        goto fail;
    }
    d = strchr(d + 8, '\'');
    if (!d) goto bad;
    int dt = -1;
    for (size_t i = 0; i < sizeof npy_types / sizeof *npy_types; i++)
        if (!strncmp(d + 1, npy_types[i].descr, 3) && d[4] == '\'') dt = (int)npy_types[i].dt;
    if (dt < 0) {
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
    size_t width = nn_dtype_size((nn_dtype)dt);
    int64_t avail = fstat(fileno(f), &st) == 0 && at >= 0 && st.st_size > at ? (int64_t)(st.st_size - at) / (int64_t)width : 0;
    int64_t n = elements_read(sizes, nd, (nn_dtype)dt, avail);
    if (n < 0 || give_shape(sizes, nd, n, (nn_dtype)dt) < 0) goto fail;
    t = nn_empty_on(NN_DEVICE_CPU, nd, sizes, (nn_dtype)dt); /* numpy's arrays: host memory */
    if (!t) goto fail;
    size_t nbytes = (size_t)n * width;
    if (fread(nn_host_borrow(t), 1, nbytes, f) != nbytes) goto bad;
    nn_free(hdr);
    fclose(f);
    return (nn_object *)t;
bad:
    repl_raise_exc(EXC_ValueError, "Cannot parse header: %s", hdr ? hdr : "(none)");
fail:
    NN_RELEASE(t);
    nn_free(hdr);
    fclose(f);
    return NULL;
}
