/*
 * mod_hashlib.c — `import hashlib`: md5, sha1, sha224, sha256, sha384, sha512
 * and sha3_224/256/384/512 through nettle (Debian's nettle-dev), with
 * hashlib.new(name, data), update, digest, hexdigest, copy, name,
 * digest_size, block_size as CPython 3.11's. The hash object is a class of
 * the module's source whose state is the nettle context kept in a bytearray
 * (nettle's contexts are plain memory, so copy() copies the bytes).
 */
#include <string.h>

#include <nettle/nettle-meta.h>

#include "bytes_int.h"
#include "stdlib_int.h"

static const struct nettle_hash *const algorithms[] = {
    &nettle_md5, &nettle_sha1, &nettle_sha224, &nettle_sha256, &nettle_sha384, &nettle_sha512,
    &nettle_sha3_224, &nettle_sha3_256, &nettle_sha3_384, &nettle_sha3_512,
};

/* The algorithm named name (CPython's names: "sha256", "SHA256", "sha3_256"), or NULL. */
static const struct nettle_hash *find(nn_object *name)
{
    if (!nn_is_str(name)) return NULL;
    char n[16];
    size_t len = nn_str_len(name);
    if (len >= sizeof n) return NULL;
    for (size_t i = 0; i <= len; i++) {
        char c = nn_str_cstr(name)[i];
        n[i] = c >= 'A' && c <= 'Z' ? (char)(c + 32) : c == '-' ? '_' : c;
    }
    for (size_t i = 0; i < sizeof algorithms / sizeof *algorithms; i++) {
        const char *a = algorithms[i]->name; /* nettle: "sha3_256", "md5", ... */
        if (!strcmp(a, n)) return algorithms[i];
    }
    return NULL;
}

static const struct nettle_hash *algorithm_arg(nn_object *args)
{
    const struct nettle_hash *h = find(nn_tuple_get(args, 0));
    if (!h) {
        nn_object *name = nn_tuple_get(args, 0);
        if (nn_is_str(name)) repl_raise_exc(EXC_ValueError, "unsupported hash type %s", nn_str_cstr(name));
        else repl_raise_exc(EXC_TypeError, "new() argument 'name' must be str, not %s", repl_value_type_name(name));
    }
    return h;
}

/* The context argument: a bytearray of the algorithm's context size. */
static void *context_arg(nn_object *o, const struct nettle_hash *h)
{
    if (o->type != &repl_bytearray_type || repl_bytes_len(o) != h->context_size) {
        repl_raise_exc(EXC_TypeError, "hash state expected");
        return NULL;
    }
    return ((bytes_obj *)o)->data;
}

/* _init(name) -> a fresh context (bytearray) */
static nn_object *h_init(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_init", args, kwargs, 1, 1) < 0) return NULL;
    const struct nettle_hash *h = algorithm_arg(args);
    if (!h) return NULL;
    nn_object *ctx = repl_bytes_new(NULL, h->context_size, true);
    if (ctx) h->init(((bytes_obj *)ctx)->data);
    return ctx;
}

/* _sizes(name) -> (digest_size, block_size) */
static nn_object *h_sizes(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_sizes", args, kwargs, 1, 1) < 0) return NULL;
    const struct nettle_hash *h = algorithm_arg(args);
    if (!h) return NULL;
    nn_object *d = nn_int_new(h->digest_size), *b = nn_int_new(h->block_size);
    nn_object *t = d && b ? nn_tuple_pack(2, d, b) : NULL;
    NN_RELEASE(d);
    NN_RELEASE(b);
    return t;
}

/* _update(name, ctx, data) */
static nn_object *h_update(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_update", args, kwargs, 3, 3) < 0) return NULL;
    const struct nettle_hash *h = algorithm_arg(args);
    void *ctx = h ? context_arg(nn_tuple_get(args, 1), h) : NULL;
    if (!ctx) return NULL;
    nn_object *data = nn_tuple_get(args, 2);
    if (nn_is_str(data)) {
        repl_raise_exc(EXC_TypeError, "Strings must be encoded before hashing");
        return NULL;
    }
    if (!repl_is_bytes(data)) {
        repl_raise_exc(EXC_TypeError, "object supporting the buffer API required");
        return NULL;
    }
    h->update(ctx, repl_bytes_len(data), repl_bytes_data(data));
    return nn_retain(nn_none());
}

/* _digest(name, ctx) -> bytes; ctx unchanged (nettle's digest resets it: a copy is digested) */
static nn_object *h_digest(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_digest", args, kwargs, 2, 2) < 0) return NULL;
    const struct nettle_hash *h = algorithm_arg(args);
    void *ctx = h ? context_arg(nn_tuple_get(args, 1), h) : NULL;
    if (!ctx) return NULL;
    void *copy = nn_malloc(h->context_size);
    nn_object *r = copy ? repl_bytes_new(NULL, h->digest_size, false) : NULL;
    if (r) {
        memcpy(copy, ctx, h->context_size);
        h->digest(copy, h->digest_size, ((bytes_obj *)r)->data);
    }
    nn_free(copy);
    return r;
}

static const repl_mod_fn helpers[] = {
    {"_init", h_init, NULL},
    {"_sizes", h_sizes, NULL},
    {"_update", h_update, NULL},
    {"_digest", h_digest, NULL},
};

/* source: begin */
static const char source[] =
    "# hashlib: HASH objects over the C helpers (_init, _update, _digest on a\n"
    "# nettle context kept in a bytearray).\n"
    "\n"
    "algorithms_guaranteed = {'md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512',\n"
    "                         'sha3_224', 'sha3_256', 'sha3_384', 'sha3_512'}\n"
    "algorithms_available = set(algorithms_guaranteed)\n"
    "\n"
    "\n"
    "class HASH:\n"
    "    def __init__(self, name, data=b''):\n"
    "        self.name = name.lower().replace('-', '_')\n"
    "        self._ctx = _init(name)\n"
    "        self.digest_size, self.block_size = _sizes(name)\n"
    "        if data:\n"
    "            self.update(data)\n"
    "        elif isinstance(data, str):\n"
    "            raise TypeError('Strings must be encoded before hashing')\n"
    "\n"
    "    def __repr__(self):\n"
    "        return '<' + self.name + ' _hashlib.HASH object @ ' + hex(id(self)) + '>'\n"
    "\n"
    "    def update(self, data):\n"
    "        _update(self.name, self._ctx, data)\n"
    "\n"
    "    def digest(self):\n"
    "        return _digest(self.name, self._ctx)\n"
    "\n"
    "    def hexdigest(self):\n"
    "        return self.digest().hex()\n"
    "\n"
    "    def copy(self):\n"
    "        h = HASH(self.name)\n"
    "        h._ctx = bytearray(self._ctx)\n"
    "        return h\n"
    "\n"
    "\n"
    "def new(name, data=b'', *, usedforsecurity=True):\n"
    "    return HASH(name, data)\n"
    "\n"
    "\n"
    "def md5(string=b'', *, usedforsecurity=True):\n"
    "    return HASH('md5', string)\n"
    "\n"
    "\n"
    "def sha1(string=b'', *, usedforsecurity=True):\n"
    "    return HASH('sha1', string)\n"
    "\n"
    "\n"
    "def sha224(string=b'', *, usedforsecurity=True):\n"
    "    return HASH('sha224', string)\n"
    "\n"
    "\n"
    "def sha256(string=b'', *, usedforsecurity=True):\n"
    "    return HASH('sha256', string)\n"
    "\n"
    "\n"
    "def sha384(string=b'', *, usedforsecurity=True):\n"
    "    return HASH('sha384', string)\n"
    "\n"
    "\n"
    "def sha512(string=b'', *, usedforsecurity=True):\n"
    "    return HASH('sha512', string)\n"
    "\n"
    "\n"
    "def sha3_224(string=b'', *, usedforsecurity=True):\n"
    "    return HASH('sha3_224', string)\n"
    "\n"
    "\n"
    "def sha3_256(string=b'', *, usedforsecurity=True):\n"
    "    return HASH('sha3_256', string)\n"
    "\n"
    "\n"
    "def sha3_384(string=b'', *, usedforsecurity=True):\n"
    "    return HASH('sha3_384', string)\n"
    "\n"
    "\n"
    "def sha3_512(string=b'', *, usedforsecurity=True):\n"
    "    return HASH('sha3_512', string)\n";
/* source: end */

nn_object *repl_mod_hashlib(void)
{
    return repl_mod_from_source("hashlib", helpers, sizeof helpers / sizeof *helpers, source);
}
