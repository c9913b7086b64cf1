/*
 * mod_lzma.c — the module _lzma under lzma (repl/lib/lzma.py), over liblzma
 * (Debian's liblzma-dev, the library CPython links): whole-buffer compression
 * in the .xz, .lzma ("alone") and raw formats' first two, and decompression
 * of .xz/.lzma (FORMAT_AUTO). A failure comes back as its message (a str),
 * which lzma.py raises as LZMAError with CPython's words.
 *
 *   compress(data, format, check, preset) -> bytes     format 1 xz, 2 alone
 *   decompress(data, format) -> (bytes, consumed, eof) format 0 auto, 1 xz, 2 alone
 */
#include <lzma.h>
#include <string.h>

#include "bytes_int.h"
#include "stdlib_int.h"

/* CPython's words for liblzma's failures (_lzmamodule.c catch_lzma_error) */
static const char *lzma_message(lzma_ret r)
{
    switch (r) {
    case LZMA_UNSUPPORTED_CHECK: return "Unsupported integrity check";
    case LZMA_MEM_ERROR: return "Memory error";
    case LZMA_MEMLIMIT_ERROR: return "Memory usage limit exceeded";
    case LZMA_FORMAT_ERROR: return "Input format not supported by decoder";
    case LZMA_OPTIONS_ERROR: return "Invalid or unsupported options";
    case LZMA_DATA_ERROR: return "Corrupt input data";
    case LZMA_BUF_ERROR: return "Insufficient buffer space";
    case LZMA_PROG_ERROR: return "Internal error";
    default: return "Unrecognized error from liblzma";
    }
}

/* Runs s over data (finishing when act is LZMA_FINISH) into a new bytes; *used
   the bytes of data consumed, *end whether the stream ended. NULL with the
   error raised, or *msg set to liblzma's failure. */
static nn_object *run_stream(lzma_stream *s, const unsigned char *p, size_t n, lzma_action act, size_t *used,
                             bool *end, const char **msg)
{
    size_t cap = n + 1024, len = 0;
    unsigned char *out = nn_malloc(cap);
    if (!out) return NULL;
    s->next_in = p;
    s->avail_in = n;
    lzma_ret r;
    for (;;) {
        if (cap - len < 65536) {
            unsigned char *bigger = nn_realloc(out, cap * 2);
            if (!bigger) {
                nn_free(out);
                return NULL;
            }
            out = bigger;
            cap *= 2;
        }
        s->next_out = out + len;
        s->avail_out = cap - len;
        r = lzma_code(s, act);
        len = (size_t)(s->next_out - out);
        if (r != LZMA_OK || (s->avail_in == 0 && s->avail_out != 0)) break;
    }
    *end = r == LZMA_STREAM_END;
    *used = n - s->avail_in;
    if (r != LZMA_OK && r != LZMA_STREAM_END && !(r == LZMA_BUF_ERROR && act == LZMA_RUN)) {
        nn_free(out);
        *msg = lzma_message(r);
        return NULL;
    }
    nn_object *b = repl_bytes_new(out, len, false);
    nn_free(out);
    return b;
}

static nn_object *l_compress(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("compress", args, kwargs, 4, 4) < 0) return NULL;
    const unsigned char *p;
    size_t n;
    int64_t format, check, preset;
    if (repl_bytes_buffer(nn_tuple_get(args, 0), &p, &n) < 0 || repl_mod_int(nn_tuple_get(args, 1), &format) < 0 ||
        repl_mod_int(nn_tuple_get(args, 2), &check) < 0 || repl_mod_int(nn_tuple_get(args, 3), &preset) < 0)
        return NULL;
    lzma_stream s = LZMA_STREAM_INIT;
    lzma_ret r;
    if (format == 1) {
        r = lzma_easy_encoder(&s, (uint32_t)preset, check < 0 ? LZMA_CHECK_CRC64 : (lzma_check)check);
    } else {
        lzma_options_lzma opt;
        if (lzma_lzma_preset(&opt, (uint32_t)preset)) return nn_str_format("Invalid compression preset: %u", (unsigned)preset);
        r = lzma_alone_encoder(&s, &opt);
    }
    if (r != LZMA_OK) return nn_str_new(lzma_message(r));
    size_t used;
    bool end;
    const char *msg = NULL;
    nn_object *b = run_stream(&s, p, n, LZMA_FINISH, &used, &end, &msg);
    lzma_end(&s);
    return msg ? nn_str_new(msg) : b;
}

static nn_object *l_decompress(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("decompress", args, kwargs, 2, 2) < 0) return NULL;
    const unsigned char *p;
    size_t n;
    int64_t format;
    if (repl_bytes_buffer(nn_tuple_get(args, 0), &p, &n) < 0 || repl_mod_int(nn_tuple_get(args, 1), &format) < 0)
        return NULL;
    lzma_stream s = LZMA_STREAM_INIT;
    lzma_ret r = format == 1   ? lzma_stream_decoder(&s, UINT64_MAX, 0)
                 : format == 2 ? lzma_alone_decoder(&s, UINT64_MAX)
                               : lzma_auto_decoder(&s, UINT64_MAX, 0);
    if (r != LZMA_OK) return nn_str_new(lzma_message(r));
    size_t used;
    bool end;
    const char *msg = NULL;
    nn_object *b = run_stream(&s, p, n, LZMA_RUN, &used, &end, &msg);
    lzma_end(&s);
    if (msg) return nn_str_new(msg);
    if (!b) return NULL;
    nn_object *u = nn_int_new((int64_t)used), *e = nn_bool_new(end);
    nn_object *t = u && e ? nn_tuple_pack(3, b, u, e) : NULL;
    NN_RELEASE(b);
    NN_RELEASE(u);
    NN_RELEASE(e);
    return t;
}

static const repl_mod_fn lzma_functions[] = {
    {"compress", l_compress, "compress(data, format, check, preset)\nThe .xz (format 1) or .lzma (2) stream of data."},
    {"decompress", l_decompress, "decompress(data, format)\n(bytes, consumed, eof) of the stream that data starts with."},
};

nn_object *repl_mod_lzma_c(void)
{
    nn_object *m = repl_module_new("_lzma");
    if (m && repl_mod_add_fns(m, lzma_functions, sizeof lzma_functions / sizeof *lzma_functions) < 0) NN_SET(m, NULL);
    return m;
}
