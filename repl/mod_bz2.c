/*
 * mod_bz2.c — the module _bz2 under bz2 (repl/lib/bz2.py), over libbz2
 * (Debian's libbz2-dev, the library CPython links): whole-buffer compression
 * and decompression. A failure comes back as its message (a str), which
 * bz2.py raises as CPython does (OSError "Invalid data stream").
 *
 *   compress(data, level) -> bytes
 *   decompress(data) -> (bytes, consumed, eof)   every stream up to the first
 *                       that is cut short (eof False) or the data's end
 */
#include <bzlib.h>
#include <string.h>

#include "bytes_int.h"
#include "stdlib_int.h"

static nn_object *b_compress(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("compress", args, kwargs, 2, 2) < 0) return NULL;
    const unsigned char *p;
    size_t n;
    int64_t level;
    if (repl_bytes_buffer(nn_tuple_get(args, 0), &p, &n) < 0 || repl_mod_int(nn_tuple_get(args, 1), &level) < 0)
        return NULL;
    if (n > 0x7fffffffu) {
        repl_raise_exc(EXC_OverflowError, "data too large for bz2");
        return NULL;
    }
    unsigned int cap = (unsigned int)(n + n / 100 + 600);
    char *out = nn_malloc(cap);
    if (!out) return NULL;
    int rc = BZ2_bzBuffToBuffCompress(out, &cap, (char *)p, (unsigned int)n, (int)level, 0, 0);
    if (rc != BZ_OK) {
        nn_free(out);
        if (rc == BZ_MEM_ERROR) {
            repl_raise_exc(EXC_MemoryError, "%s", "");
            return NULL;
        }
        return nn_str_new("Invalid data stream");
    }
    nn_object *b = repl_bytes_new((unsigned char *)out, cap, false);
    nn_free(out);
    return b;
}

static nn_object *b_decompress(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("decompress", args, kwargs, 1, 1) < 0) return NULL;
    const unsigned char *p;
    size_t n;
    if (repl_bytes_buffer(nn_tuple_get(args, 0), &p, &n) < 0) return NULL;
    size_t cap = n * 4 + 1024, len = 0, pos = 0;
    unsigned char *out = nn_malloc(cap);
    if (!out) return NULL;
    bool eof = true;
    nn_object *err = NULL;
    while (pos < n && eof) { /* one stream after another, as CPython's BZ2Decompressor chain */
        bz_stream s;
        memset(&s, 0, sizeof s);
        if (BZ2_bzDecompressInit(&s, 0, 0) != BZ_OK) {
            err = nn_str_new("Invalid data stream");
            break;
        }
        s.next_in = (char *)p + pos;
        s.avail_in = (unsigned int)(n - pos > 0x7fffffffu ? 0x7fffffffu : n - pos);
        int rc;
        for (;;) {
            if (cap - len < 65536) {
                unsigned char *bigger = nn_realloc(out, cap * 2);
                if (!bigger) {
                    BZ2_bzDecompressEnd(&s);
                    nn_free(out);
                    return NULL;
                }
                out = bigger;
                cap *= 2;
            }
            s.next_out = (char *)out + len;
            s.avail_out = (unsigned int)(cap - len > 0x7fffffffu ? 0x7fffffffu : cap - len);
            unsigned int before = s.avail_out;
            rc = BZ2_bzDecompress(&s);
            len += before - s.avail_out;
            if (rc != BZ_OK || (s.avail_in == 0 && s.avail_out != 0)) break;
        }
        size_t used = (size_t)(s.next_in - ((char *)p + pos));
        BZ2_bzDecompressEnd(&s);
        if (rc == BZ_STREAM_END) {
            pos += used;
        } else if (rc == BZ_OK) {
            pos += used;
            eof = false;
        } else if (pos > 0) {
            break; /* what follows a stream is not one: left unused, as CPython leaves it */
        } else {
            err = nn_str_new("Invalid data stream");
            break;
        }
    }
    if (err) {
        nn_free(out);
        return err;
    }
    nn_object *b = repl_bytes_new(out, len, false);
    nn_free(out);
    if (!b) return NULL;
    nn_object *used = nn_int_new((int64_t)pos), *e = nn_bool_new(eof);
    nn_object *t = used && e ? nn_tuple_pack(3, b, used, e) : NULL;
    NN_RELEASE(b);
    NN_RELEASE(used);
    NN_RELEASE(e);
    return t;
}

static const repl_mod_fn bz2_functions[] = {
    {"compress", b_compress, "compress(data, level)\nThe bz2 stream of data."},
    {"decompress", b_decompress, "decompress(data)\n(bytes, consumed, eof) of the bz2 streams in data."},
};

nn_object *repl_mod_bz2_c(void)
{
    nn_object *m = repl_module_new("_bz2");
    if (m && repl_mod_add_fns(m, bz2_functions, sizeof bz2_functions / sizeof *bz2_functions) < 0) NN_SET(m, NULL);
    return m;
}
