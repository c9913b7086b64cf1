/*
 * mod_zlib.c — `import zlib` as CPython 3.11's, over the zlib library itself
 * (Debian's zlib1g-dev, the library CPython links): crc32, adler32, compress
 * (level, wbits), decompress (wbits, bufsize), compressobj / decompressobj
 * (compress/flush, decompress/flush with eof, unused_data,
 * unconsumed_tail), the constants, and zlib.error with CPython's messages
 * ("Error -3 while decompressing data: incorrect header check").
 * The C helpers return a failure as its message (a str), which the module's
 * source raises as zlib.error.
 */
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "bytes_int.h"
#include "stdlib_int.h"

static int bytes_arg(nn_object *args, size_t i, const unsigned char **p, size_t *n)
{
    return repl_bytes_buffer(nn_tuple_get(args, i), p, n);
}

static nn_object *checksum(const char *name, nn_object *args, nn_object *kwargs, bool adler)
{
    int n = repl_mod_nargs(name, args, kwargs, 1, 2);
    if (n < 0) return NULL;
    const unsigned char *p;
    size_t len;
    int64_t start = adler ? 1 : 0;
    if (bytes_arg(args, 0, &p, &len) < 0 || (n > 1 && repl_mod_int(nn_tuple_get(args, 1), &start) < 0)) return NULL;
    uLong v = (uLong)(uint32_t)start;
    while (len > 0) {   /* zlib takes uInt lengths */
        uInt chunk = len > 1u << 30 ? 1u << 30 : (uInt)len;
        v = adler ? adler32(v, p, chunk) : crc32(v, p, chunk);
        p += chunk;
        len -= chunk;
    }
    return nn_int_new((int64_t)(uint32_t)v);
}

static nn_object *h_crc32(void *ud, nn_object *args, nn_object *kwargs) { return checksum("crc32", args, kwargs, false); }
static nn_object *h_adler32(void *ud, nn_object *args, nn_object *kwargs) { return checksum("adler32", args, kwargs, true); }

/* zlib's message for status rc of stream s, as CPython's zlib_error() words it */
static nn_object *zerror(const z_stream *s, int rc, const char *what)
{
    const char *msg = s->msg;
    if (rc == Z_VERSION_ERROR) msg = "library version mismatch";
    if (!msg) {
        switch (rc) {
        case Z_BUF_ERROR: msg = "incomplete or truncated stream"; break;
        case Z_STREAM_ERROR: msg = "inconsistent stream state"; break;
        case Z_DATA_ERROR: msg = "invalid input data"; break;
        default: break;
        }
    }
    return msg ? nn_str_format("Error %d %s: %.200s", rc, what, msg) : nn_str_format("Error %d %s", rc, what);
}

/* _deflate(data, level, wbits, memlevel, strategy) -> bytes, or the error message */
static nn_object *h_deflate(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_deflate", args, kwargs, 5, 5) < 0) return NULL;
    const unsigned char *p;
    size_t n;
    int64_t level, wbits, memlevel, strategy;
    if (bytes_arg(args, 0, &p, &n) < 0 || repl_mod_int(nn_tuple_get(args, 1), &level) < 0 ||
        repl_mod_int(nn_tuple_get(args, 2), &wbits) < 0 || repl_mod_int(nn_tuple_get(args, 3), &memlevel) < 0 ||
        repl_mod_int(nn_tuple_get(args, 4), &strategy) < 0)
        return NULL;
    z_stream s = {0};
    int rc = deflateInit2(&s, (int)level, Z_DEFLATED, (int)wbits, (int)memlevel, (int)strategy);
    if (rc == Z_MEM_ERROR) {
        repl_raise_exc(EXC_MemoryError, "Out of memory while compressing data");
        return NULL;
    }
    if (rc == Z_STREAM_ERROR) return nn_str_new("Bad compression level");
    if (rc != Z_OK) {
        nn_object *e = zerror(&s, rc, "while compressing data");
        deflateEnd(&s);
        return e;
    }
    uLong bound = deflateBound(&s, (uLong)n);
    nn_object *r = repl_bytes_new(NULL, bound, true);
    if (!r) {
        deflateEnd(&s);
        return NULL;
    }
    s.next_in = (Bytef *)p;
    s.avail_in = (uInt)n;
    s.next_out = ((bytes_obj *)r)->data;
    s.avail_out = (uInt)bound;
    rc = deflate(&s, Z_FINISH);
    size_t out = bound - s.avail_out;
    deflateEnd(&s);
    if (rc != Z_STREAM_END) {
        NN_RELEASE(r);
        return zerror(&s, rc, "while compressing data");
    }
    nn_object *b = repl_bytes_new(((bytes_obj *)r)->data, out, false);
    NN_RELEASE(r);
    return b;
}

/* _inflate(data, wbits, finish) -> (bytes, consumed, eof), or the error message.
   finish: a truncated stream is an error (zlib.decompress); else it is data so far. */
static nn_object *h_inflate(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_inflate", args, kwargs, 3, 3) < 0) return NULL;
    const unsigned char *p;
    size_t n;
    int64_t wbits;
    if (bytes_arg(args, 0, &p, &n) < 0 || repl_mod_int(nn_tuple_get(args, 1), &wbits) < 0) return NULL;
    bool finish = repl_truth(nn_tuple_get(args, 2)) > 0;
    z_stream s = {0};
    int rc = inflateInit2(&s, (int)wbits);
    if (rc == Z_MEM_ERROR) {
        repl_raise_exc(EXC_MemoryError, "Out of memory while decompressing data");
        return NULL;
    }
    if (rc != Z_OK) {
        inflateEnd(&s);
        return nn_str_new("Error -2 while preparing to decompress data: inconsistent stream state");
    }
    nn_object *out = repl_bytes_new(NULL, 0, true);
    if (!out) {
        inflateEnd(&s);
        return NULL;
    }
    s.next_in = (Bytef *)p;
    s.avail_in = (uInt)n;
    unsigned char buf[16384];
    do {
        s.next_out = buf;
        s.avail_out = sizeof buf;
        rc = inflate(&s, Z_NO_FLUSH);
        if (rc == Z_NEED_DICT || rc == Z_DATA_ERROR || rc == Z_MEM_ERROR || rc == Z_STREAM_ERROR) break;
        if (repl_bytes_append(out, buf, sizeof buf - s.avail_out) < 0) {
            inflateEnd(&s);
            NN_RELEASE(out);
            return NULL;
        }
    } while (rc != Z_STREAM_END && (s.avail_out == 0 || s.avail_in > 0) && rc != Z_BUF_ERROR);
    size_t consumed = n - s.avail_in;
    nn_object *result;
    if (rc == Z_MEM_ERROR) {
        repl_raise_exc(EXC_MemoryError, "Out of memory while decompressing data");
        result = NULL;
    } else if (rc == Z_NEED_DICT || rc == Z_DATA_ERROR || rc == Z_STREAM_ERROR) {
        result = zerror(&s, rc == Z_NEED_DICT ? Z_DATA_ERROR : rc, "while decompressing data");
    } else if (rc != Z_STREAM_END && finish) {
        result = zerror(&s, Z_BUF_ERROR, "while decompressing data");
    } else {
        nn_object *b = repl_bytes_new(repl_bytes_data(out), repl_bytes_len(out), false);
        nn_object *c = nn_int_new((int64_t)consumed), *e = nn_bool_new(rc == Z_STREAM_END);
        result = b && c && e ? nn_tuple_pack(3, b, c, e) : NULL;
        NN_RELEASE(b);
        NN_RELEASE(c);
        NN_RELEASE(e);
    }
    inflateEnd(&s);
    NN_RELEASE(out);
    return result;
}

static const repl_mod_fn helpers[] = {
    {"crc32", h_crc32, "crc32(data, value=0, /)\nCompute a CRC-32 checksum of data."},
    {"adler32", h_adler32, "adler32(data, value=1, /)\nCompute an Adler-32 checksum of data."},
    {"_deflate", h_deflate, NULL},
    {"_inflate", h_inflate, NULL},
};

/* source: begin */
static const char source[] =
    "# zlib over the C helpers _deflate and _inflate (the zlib library).\n"
    "\n"
    "MAX_WBITS = 15\n"
    "DEFLATED = 8\n"
    "DEF_MEM_LEVEL = 8\n"
    "DEF_BUF_SIZE = 16384\n"
    "Z_NO_COMPRESSION = 0\n"
    "Z_BEST_SPEED = 1\n"
    "Z_BEST_COMPRESSION = 9\n"
    "Z_DEFAULT_COMPRESSION = -1\n"
    "Z_FILTERED = 1\n"
    "Z_HUFFMAN_ONLY = 2\n"
    "Z_RLE = 3\n"
    "Z_FIXED = 4\n"
    "Z_DEFAULT_STRATEGY = 0\n"
    "Z_NO_FLUSH = 0\n"
    "Z_PARTIAL_FLUSH = 1\n"
    "Z_SYNC_FLUSH = 2\n"
    "Z_FULL_FLUSH = 3\n"
    "Z_FINISH = 4\n"
    "Z_BLOCK = 5\n"
    "Z_TREES = 6\n"
    "\n"
    "\n"
    "class error(Exception):\n"
    "    pass\n"
    "\n"
    "\n"
    "def _check(r):\n"
    "    if isinstance(r, str):\n"
    "        raise error(r)\n"
    "    return r\n"
    "\n"
    "\n"
    "def compress(data, /, level=-1, wbits=15):\n"
    "    return _check(_deflate(data, level, wbits, 8, 0))\n"
    "\n"
    "\n"
    "def decompress(data, /, wbits=15, bufsize=16384):\n"
    "    if bufsize < 0:\n"
    "        raise ValueError('bufsize must be non-negative')\n"
    "    return _check(_inflate(data, wbits, True))[0]\n"
    "\n"
    "\n"
    "class _Compress:\n"
    "    # the stream is deflated whole at flush(Z_FINISH): compress() keeps the data\n"
    "    def __init__(self, level, method, wbits, memLevel, strategy):\n"
    "        _check(_deflate(b'', level, wbits, memLevel, strategy))\n"
    "        self._args = (level, wbits, memLevel, strategy)\n"
    "        self._data = bytearray()\n"
    "        self._done = False\n"
    "\n"
    "    def compress(self, data):\n"
    "        if self._done:\n"
    "            raise error('Error -2 while compressing data: inconsistent stream state')\n"
    "        self._data += data\n"
    "        return b''\n"
    "\n"
    "    def flush(self, mode=4):\n"
    "        if mode == 0:\n"
    "            return b''\n"
    "        if mode != 4:\n"
    "            raise ValueError('nnscope: zlib flush modes other than Z_FINISH and Z_NO_FLUSH are not supported')\n"
    "        if self._done:\n"
    "            raise error('Error -2 while flushing: inconsistent stream state')\n"
    "        self._done = True\n"
    "        level, wbits, memLevel, strategy = self._args\n"
    "        return _check(_deflate(bytes(self._data), level, wbits, memLevel, strategy))\n"
    "\n"
    "\n"
    "def compressobj(level=-1, method=8, wbits=15, memLevel=8, strategy=0, zdict=None):\n"
    "    if zdict is not None:\n"
    "        raise ValueError('nnscope: zlib zdict is not supported')\n"
    "    return _Compress(level, method, wbits, memLevel, strategy)\n"
    "\n"
    "\n"
    "class _Decompress:\n"
    "    # the input so far is inflated again at each call; what was returned before is skipped\n"
    "    def __init__(self, wbits):\n"
    "        self._wbits = wbits\n"
    "        self._data = bytearray()\n"
    "        self._given = 0\n"
    "        self.eof = False\n"
    "        self.unused_data = b''\n"
    "        self.unconsumed_tail = b''\n"
    "\n"
    "    def decompress(self, data, max_length=0):\n"
    "        if max_length < 0:\n"
    "            raise ValueError('max_length must be non-negative')\n"
    "        if self.eof:\n"
    "            self.unused_data += data\n"
    "            return b''\n"
    "        self._data += self.unconsumed_tail + data\n"
    "        out, used, eof = _check(_inflate(bytes(self._data), self._wbits, False))\n"
    "        new = out[self._given:]\n"
    "        self.unconsumed_tail = b''\n"
    "        if max_length and len(new) > max_length:\n"
    "            new = new[:max_length]\n"
    "            eof = False\n"
    "        self._given += len(new)\n"
    "        if eof:\n"
    "            self.eof = True\n"
    "            self.unused_data = bytes(self._data[used:])\n"
    "        return new\n"
    "\n"
    "    def flush(self, length=16384):\n"
    "        if length <= 0:\n"
    "            raise ValueError('length must be greater than zero')\n"
    "        if self.eof:\n"
    "            return b''\n"
    "        out, used, eof = _check(_inflate(bytes(self._data), self._wbits, False))\n"
    "        new = out[self._given:]\n"
    "        self._given += len(new)\n"
    "        return new\n"
    "\n"
    "\n"
    "def decompressobj(wbits=15, zdict=b''):\n"
    "    if zdict:\n"
    "        raise ValueError('nnscope: zlib zdict is not supported')\n"
    "    return _Decompress(wbits)\n";
/* source: end */

nn_object *repl_mod_zlib(void)
{
    nn_object *m = repl_mod_from_source("zlib", helpers, sizeof helpers / sizeof *helpers, source);
    if (m && (repl_mod_set(m, "ZLIB_VERSION", nn_str_new(ZLIB_VERSION)) < 0 ||
              repl_mod_set(m, "ZLIB_RUNTIME_VERSION", nn_str_new(zlibVersion())) < 0))
        NN_SET(m, NULL);
    return m;
}
