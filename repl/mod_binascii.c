/*
 * mod_binascii.c — `import binascii` as CPython 3.11's for what scripts use
 * (and repl/lib/base64.py builds on): b2a_base64 / a2b_base64 (CPython's
 * lenient decoding: characters outside the alphabet are skipped, padding ends
 * the data; strict_mode and its messages), hexlify / unhexlify (b2a_hex /
 * a2b_hex), crc32, and binascii.Error (a ValueError). The decoders return a
 * failure as its message (a str), which the module's source raises as Error.
 */
#include <stdio.h>
#include <string.h>

#include "bytes_int.h"
#include "stdlib_int.h"

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int b64_value(unsigned char c)
{
    const char *p = c ? strchr(b64, c) : NULL;
    return p ? (int)(p - b64) : -1;
}

/* _b2a(data, newline) -> the base64 text as bytes */
static nn_object *h_b2a(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_b2a", args, kwargs, 2, 2) < 0) return NULL;
    const unsigned char *p;
    size_t n;
    if (repl_bytes_buffer(nn_tuple_get(args, 0), &p, &n) < 0) return NULL;
    bool newline = repl_truth(nn_tuple_get(args, 1)) > 0;
    if (n > REPL_STR_MAX / 4 * 3 - 3) {
        repl_raise_exc(EXC_MemoryError, "%s", "");
        return NULL;
    }
    size_t m = (n + 2) / 3 * 4;
    nn_object *r = repl_bytes_new(NULL, m + newline, false);
    if (!r) return NULL;
    unsigned char *o = ((bytes_obj *)r)->data;
    for (size_t i = 0, k = 0; i < n; i += 3, k += 4) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
        o[k] = (unsigned char)b64[v >> 18];
        o[k + 1] = (unsigned char)b64[v >> 12 & 63];
        o[k + 2] = i + 1 < n ? (unsigned char)b64[v >> 6 & 63] : '=';
        o[k + 3] = i + 2 < n ? (unsigned char)b64[v & 63] : '=';
    }
    if (newline) o[m] = '\n';
    return r;
}

/* _a2b(data, strict) -> bytes, or the binascii.Error message (str) */
static nn_object *h_a2b(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_a2b", args, kwargs, 2, 2) < 0) return NULL;
    const unsigned char *p;
    size_t n;
    if (repl_bytes_buffer(nn_tuple_get(args, 0), &p, &n) < 0) return NULL;
    bool strict = repl_truth(nn_tuple_get(args, 1)) > 0;
    nn_object *r = repl_bytes_new(NULL, n / 4 * 3 + 3, false);
    if (!r) return NULL;
    unsigned char *o = ((bytes_obj *)r)->data;
    size_t k = 0, chars = 0;
    int quad = 0, pads = 0;
    unsigned leftchar = 0;
    bool padding = false;
    const char *err = NULL;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = p[i];
        if (c == '=') {
            padding = true;
            if (strict && quad == 0) {
                err = i == 0 ? "Leading padding not allowed" : "Excess padding not allowed";
                break;
            }
            if (quad >= 2 && quad + ++pads >= 4) {
                if (strict && i + 1 < n) err = "Excess data after padding";
                goto done;
            }
            continue;
        }
        int v = b64_value(c);
        if (v < 0) {
            if (strict) {
                err = "Only base64 data is allowed";
                break;
            }
            continue;
        }
        if (strict && padding) {
            err = "Discontinuous padding not allowed";
            break;
        }
        pads = 0;
        chars++;
        switch (quad) {
        case 0: leftchar = (unsigned)v; quad = 1; break;
        case 1: o[k++] = (unsigned char)(leftchar << 2 | (unsigned)v >> 4); leftchar = (unsigned)v & 0x0f; quad = 2; break;
        case 2: o[k++] = (unsigned char)(leftchar << 4 | (unsigned)v >> 2); leftchar = (unsigned)v & 0x03; quad = 3; break;
        default: o[k++] = (unsigned char)(leftchar << 6 | (unsigned)v); leftchar = 0; quad = 0; break;
        }
    }
    if (!err && quad == 1) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "Invalid base64-encoded string: number of data characters (%zu) cannot be 1 more than a multiple of 4", chars);
        NN_RELEASE(r);
        return nn_str_new(msg);
    }
    if (!err && quad != 0) err = "Incorrect padding";
done:
    if (err) {
        NN_RELEASE(r);
        return nn_str_new(err);
    }
    ((bytes_obj *)r)->len = k;
    o[k] = 0;
    return r;
}

/* crc32(data, value=0): zlib's CRC-32 (polynomial 0xEDB88320) */
static nn_object *h_crc32(void *ud, nn_object *args, nn_object *kwargs)
{
    int n = repl_mod_nargs("crc32", args, kwargs, 1, 2);
    if (n < 0) return NULL;
    const unsigned char *p;
    size_t len;
    int64_t start = 0;
    if (repl_bytes_buffer(nn_tuple_get(args, 0), &p, &len) < 0 || (n > 1 && repl_mod_int(nn_tuple_get(args, 1), &start) < 0))
        return NULL;
    static uint32_t table[256];
    if (!table[1])
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
    uint32_t crc = ~(uint32_t)start;
    for (size_t i = 0; i < len; i++) crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
    return nn_int_new((int64_t)(uint32_t)~crc);
}

static const repl_mod_fn helpers[] = {
    {"_b2a", h_b2a, NULL},
    {"_a2b", h_a2b, NULL},
    {"crc32", h_crc32, "crc32(data, value=0, /)\nCompute CRC-32 incrementally."},
};

/* source: begin */
static const char source[] =
    "# binascii: base64 and hex conversions over the C helpers _b2a and _a2b.\n"
    "\n"
    "\n"
    "class Error(ValueError):\n"
    "    pass\n"
    "\n"
    "\n"
    "class Incomplete(Exception):\n"
    "    pass\n"
    "\n"
    "\n"
    "def _ascii(data):\n"
    "    if isinstance(data, str):\n"
    "        try:\n"
    "            return data.encode('ascii')\n"
    "        except UnicodeEncodeError:\n"
    "            raise ValueError('string argument should contain only ASCII characters')\n"
    "    return data\n"
    "\n"
    "\n"
    "def b2a_base64(data, *, newline=True):\n"
    "    return _b2a(data, newline)\n"
    "\n"
    "\n"
    "def a2b_base64(data, *, strict_mode=False):\n"
    "    r = _a2b(_ascii(data), strict_mode)\n"
    "    if isinstance(r, str):\n"
    "        raise Error(r)\n"
    "    return r\n"
    "\n"
    "\n"
    "def hexlify(data, sep=None, bytes_per_sep=1):\n"
    "    if isinstance(data, str):\n"
    "        raise TypeError(\"a bytes-like object is required, not 'str'\")\n"
    "    if sep is None:\n"
    "        return bytes(data).hex().encode()\n"
    "    return bytes(data).hex(sep, bytes_per_sep).encode()\n"
    "\n"
    "\n"
    "def unhexlify(hexstr):\n"
    "    hexstr = _ascii(hexstr)\n"
    "    if len(hexstr) % 2:\n"
    "        raise Error('Odd-length string')\n"
    "    for c in hexstr:\n"
    "        if c not in b'0123456789abcdefABCDEF':\n"
    "            raise Error('Non-hexadecimal digit found')\n"
    "    return bytes.fromhex(hexstr.decode())\n"
    "\n"
    "\n"
    "b2a_hex = hexlify\n"
    "a2b_hex = unhexlify\n";
/* source: end */

nn_object *repl_mod_binascii(void)
{
    return repl_mod_from_source("binascii", helpers, sizeof helpers / sizeof *helpers, source);
}
