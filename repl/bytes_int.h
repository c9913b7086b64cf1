/*
 * bytes_int.h — the language's bytes and bytearray (bytes.c: the type, its
 * operators, indexing and the classes; bytes_methods.c: the methods;
 * bytes_codec.c: str.encode / bytes.decode in utf-8, ascii and latin-1 with
 * CPython's error handlers and messages). Private to repl/.
 */
#ifndef REPL_BYTES_INT_H
#define REPL_BYTES_INT_H

#include "eval_int.h"

extern const nn_type repl_bytes_type, repl_bytearray_type;

typedef struct bytes_obj {
    nn_object ob;
    unsigned char *data; /* owned; len bytes and a NUL after them */
    size_t len, cap;
    /* tensors over data (torch.frombuffer): while any is, growing keeps the old block (owned, in
       orphans) for them instead of moving it */
    size_t lent, n_orphans;
    unsigned char **orphans;
} bytes_obj;

/* bytes or bytearray */
static inline bool repl_is_bytes(const nn_object *o)
{
    return o && (o->type == &repl_bytes_type || o->type == &repl_bytearray_type);
}
/* A new bytes (array false) or bytearray holding a copy of n bytes at p (p may
   be NULL: n zero bytes). New reference or NULL with MemoryError. */
nn_object *repl_bytes_new(const void *p, size_t n, bool array);
/* Borrowed view of a bytes/bytearray's bytes. */
static inline const unsigned char *repl_bytes_data(const nn_object *o) { return ((const bytes_obj *)o)->data; }
static inline size_t repl_bytes_len(const nn_object *o) { return ((const bytes_obj *)o)->len; }
/* Appends n bytes to a bytearray (or a bytes under construction). 0 or -1 (MemoryError). */
int repl_bytes_append(nn_object *o, const void *p, size_t n);

/* The operations the evaluator reaches through the native hooks (bind_torch.c's
   op_* functions): each sets *handled when o is bytes-like and then returns its
   result (new reference) or NULL with the exception. */
nn_object *repl_bytes_getattr(nn_object *o, const char *name, bool *handled);
nn_object *repl_bytes_binary(repl_binop op, nn_object *a, nn_object *b, bool *handled);
nn_object *repl_bytes_getitem(nn_object *o, nn_object *key);
int repl_bytes_setitem(nn_object *o, nn_object *key, nn_object *value);
/* del o[key] for a bytearray (an index or a slice). 0 or -1. */
int repl_bytes_delitem(nn_object *o, nn_object *key);
/* x in o for a bytes-like o: 1, 0 or -1 with TypeError/ValueError. */
int repl_bytes_contains(nn_object *o, nn_object *x);
/* The bytes as a new list of ints. */
nn_object *repl_bytes_to_list(nn_object *o);

/* A bytes-like argument's buffer (bytes, bytearray); TypeError "a bytes-like
   object is required, not 'str'" otherwise. 0 or -1. */
int repl_bytes_buffer(nn_object *o, const unsigned char **p, size_t *n);

/* A flat dt tensor over nbytes of o's bytes from offset (torch.frombuffer), sharing them: o stays
   alive while the tensor's storage does. New reference or NULL. */
nn_tensor *repl_bytes_lend(nn_object *o, size_t offset, size_t nbytes, nn_dtype dt);

/* bytes_methods.c: bytes.NAME / bytearray.NAME bound to o, or NULL without an
   error when there is none. */
nn_object *repl_bytes_method(nn_object *o, const char *name);

/* bytes_codec.c: s (UTF-8, n bytes) encoded (a new bytes) and p[0..n) decoded (a
   new str) with encoding/errors names as Python's (NULL: "utf-8", "strict");
   LookupError for an unknown encoding, UnicodeEncodeError/UnicodeDecodeError
   with CPython's message. */
nn_object *repl_str_encode(const char *s, size_t n, const char *encoding, const char *errors);
nn_object *repl_bytes_decode(const unsigned char *p, size_t n, const char *encoding, const char *errors);
/* UTF-16 / UTF-32 (bytes_codec_wide.c): repl_wide_codec says whether name is
   one (its unit width and byte order: 0 by the mark, 1 little, 2 big) */
int repl_wide_codec(const char *name, int *width, int *order);
nn_object *repl_wide_encode(const char *s, size_t n, int width, int order, const char *errors);
nn_object *repl_wide_decode(const unsigned char *p, size_t n, int width, int order, const char *errors);
/* a code point as UTF-8 (a surrogate as its three bytes, as str keeps it) */
void repl_put_utf8(sbuf *b, unsigned long cp);
/* what a codec wrote into b (finished here) as str / bytes; NULL with MemoryError */
nn_object *repl_codec_str(sbuf *b);
nn_object *repl_codec_bytes(sbuf *b);

/* Makes the classes bytes and bytearray (builtins and type(b'')), str.encode,
   int.to_bytes and int.from_bytes. 0 or -1. */
int repl_bytes_install(repl_interp *in);

/* help()'s docs ("signature\none line"): of the class c (name NULL) when it is
   bytes or bytearray, or of the method name this file adds to c (str.encode,
   int.to_bytes, bytes.fromhex, ...); NULL when none. */
const char *repl_bytes_doc(const class_obj *c, const char *name);
/* The class bytes or bytearray when f is a function of its dict (bytes.fromhex), else NULL. */
class_obj *repl_bytes_class_holding(nn_object *f);

/* slice.indices(n) of eval.c for the sequence types outside it. 0 or -1. */
int repl_slice_indices(nn_object *sl, int64_t n, int64_t *start, int64_t *stop, int64_t *step, int64_t *count);

#endif
