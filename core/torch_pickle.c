/*
 * torch_pickle.c — the data.pkl of PyTorch's checkpoint files: a pickler that
 * writes protocol 2 as CPython's pickle module does for torch.save (tensors
 * through torch._utils._rebuild_tensor_v2 with storages by persistent id), and
 * a restricted unpickler: a small stack machine that knows the opcodes of
 * protocols 2-5 and only the globals PyTorch's weights_only=True allows; it
 * builds values itself and never calls anything a file names. Not here: the
 * zip archive (torch_file.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nn_int.h"

/* deeper nesting is refused on both sides (CPython's pickler stops near 1000) */
#define MAX_DEPTH 1000

/* ====================================================================== dtypes */

static const struct {
    const char *storage; /* the torch.<Name>Storage class */
    int dtype;           /* -1: a storage type nnscope has no dtype for */
    int elem_size;
} storage_types[] = {
    {"FloatStorage", NN_FLOAT32, 4},       {"DoubleStorage", NN_FLOAT64, 8},  {"HalfStorage", NN_FLOAT16, 2},
    {"BFloat16Storage", NN_BFLOAT16, 2},   {"LongStorage", NN_INT64, 8},      {"IntStorage", NN_INT32, 4},
    {"BoolStorage", NN_BOOL, 1},           {"ByteStorage", NN_UINT8, 1},      {"CharStorage", NN_INT8, 1},
    {"ShortStorage", NN_INT16, 2},               {"ComplexFloatStorage", NN_COMPLEX64, 8}, {"ComplexDoubleStorage", NN_COMPLEX128, 16},
    {"QInt8Storage", -1, 1},               {"QUInt8Storage", -1, 1},          {"QInt32Storage", -1, 4},
};
#define N_STORAGE_TYPES (sizeof storage_types / sizeof storage_types[0])

static const char *storage_name(nn_dtype dt)
{
    for (size_t i = 0; i < N_STORAGE_TYPES; i++)
        if (storage_types[i].dtype == (int)dt) return storage_types[i].storage;
    return NULL;
}

/* ====================================================================== writer */

enum {
    OP_MARK = '(', OP_STOP = '.', OP_POP = '0', OP_POP_MARK = '1', OP_DUP = '2', OP_BINFLOAT = 'G',
    OP_BININT = 'J', OP_BININT1 = 'K', OP_BININT2 = 'M', OP_NONE = 'N', OP_BINPERSID = 'Q', OP_REDUCE = 'R',
    OP_BINUNICODE = 'X', OP_EMPTY_LIST = ']', OP_APPEND = 'a', OP_BUILD = 'b', OP_GLOBAL = 'c', OP_DICT = 'd',
    OP_EMPTY_DICT = '}', OP_APPENDS = 'e', OP_BINGET = 'h', OP_LONG_BINGET = 'j', OP_LIST = 'l', OP_BINPUT = 'q',
    OP_LONG_BINPUT = 'r', OP_SETITEM = 's', OP_TUPLE = 't', OP_EMPTY_TUPLE = ')', OP_SETITEMS = 'u',
    OP_PROTO = 0x80, OP_NEWOBJ = 0x81, OP_TUPLE1 = 0x85, OP_TUPLE2 = 0x86, OP_TUPLE3 = 0x87, OP_NEWTRUE = 0x88,
    OP_NEWFALSE = 0x89, OP_LONG1 = 0x8a, OP_LONG4 = 0x8b, OP_SHORT_BINUNICODE = 0x8c, OP_BINUNICODE8 = 0x8d,
    OP_STACK_GLOBAL = 0x93, OP_MEMOIZE = 0x94, OP_FRAME = 0x95,
};

typedef struct memo_entry {
    const void *obj;
    uint32_t index;
} memo_entry;

typedef struct writer {
    nn_text out;
    memo_entry *memo; /* objects already written, by identity */
    size_t n_memo, cap_memo;
    uint32_t next_memo;
    nn_pickle_storage *storages;
    size_t n_storages, cap_storages;
    int depth;
    nn_object *keep; /* the hooks' reductions, alive while memoized by address (a list) */
} writer;

static _Thread_local const nn_pickle_hooks *hooks;

const nn_pickle_hooks *nn_pickle_set_hooks(const nn_pickle_hooks *h)
{
    const nn_pickle_hooks *prev = hooks;
    hooks = h;
    return prev;
}

static void put_byte(writer *w, int b)
{
    char c = (char)b;
    nn_text_add(&w->out, &c, 1);
}

static void put_le(writer *w, uint64_t v, int n)
{
    char b[8];
    for (int i = 0; i < n; i++) b[i] = (char)(v >> (8 * i));
    nn_text_add(&w->out, b, (size_t)n);
}

static void put_str(writer *w, const char *s, size_t len)
{
    put_byte(w, OP_BINUNICODE);
    put_le(w, len, 4);
    nn_text_add(&w->out, s, len);
}

static void put_global(writer *w, const char *module, const char *name)
{
    put_byte(w, OP_GLOBAL);
    nn_text_printf(&w->out, "%s\n%s\n", module, name);
}

/* CPython's choice: BININT1, BININT2, BININT, else LONG1 with the fewest bytes. */
static void put_int(writer *w, int64_t v)
{
    if (v >= 0 && v <= 0xff) {
        put_byte(w, OP_BININT1);
        put_le(w, (uint64_t)v, 1);
    } else if (v >= 0 && v <= 0xffff) {
        put_byte(w, OP_BININT2);
        put_le(w, (uint64_t)v, 2);
    } else if (v >= INT32_MIN && v <= INT32_MAX) {
        put_byte(w, OP_BININT);
        put_le(w, (uint64_t)v, 4);
    } else {
        int n = 8; /* drop redundant sign bytes */
        while (n > 1) {
            int8_t top = (int8_t)(v >> (8 * (n - 2)));
            int64_t rest = v >> (8 * (n - 1));
            if ((rest == 0 && top >= 0) || (rest == -1 && top < 0)) n--;
            else break;
        }
        put_byte(w, OP_LONG1);
        put_le(w, (uint64_t)n, 1);
        put_le(w, (uint64_t)v, n);
    }
}

static void put_float(writer *w, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, 8);
    char b[9] = {(char)OP_BINFLOAT};
    for (int i = 0; i < 8; i++) b[1 + i] = (char)(bits >> (8 * (7 - i)));
    nn_text_add(&w->out, b, 9);
}

/* BINPUT/LONG_BINPUT of the object on top, remembered by identity. */
static int memoize(writer *w, const void *obj)
{
    if (w->n_memo == w->cap_memo) {
        size_t cap = w->cap_memo ? 2 * w->cap_memo : 64;
        memo_entry *m = nn_realloc(w->memo, cap * sizeof *m);
        if (!m) return -1;
        w->memo = m;
        w->cap_memo = cap;
    }
    uint32_t i = w->next_memo++;
    w->memo[w->n_memo++] = (memo_entry){obj, i};
    if (i < 256) {
        put_byte(w, OP_BINPUT);
        put_le(w, i, 1);
    } else {
        put_byte(w, OP_LONG_BINPUT);
        put_le(w, i, 4);
    }
    return 0;
}

/* Writes BINGET for an object already written; false when it was not. */
static bool put_memo_get(writer *w, const void *obj)
{
    for (size_t k = 0; k < w->n_memo; k++) {
        if (w->memo[k].obj != obj) continue;
        uint32_t i = w->memo[k].index;
        if (i < 256) {
            put_byte(w, OP_BINGET);
            put_le(w, i, 1);
        } else {
            put_byte(w, OP_LONG_BINGET);
            put_le(w, i, 4);
        }
        return true;
    }
    return false;
}

static void put_empty_ordered_dict(writer *w)
{
    put_global(w, "collections", "OrderedDict");
    put_byte(w, OP_EMPTY_TUPLE);
    put_byte(w, OP_REDUCE);
}

/* The storage key of t's storage (a new one on first sight). */
static int storage_key(writer *w, nn_tensor *t, size_t *key)
{
    for (size_t i = 0; i < w->n_storages; i++) {
        nn_tensor *s = w->storages[i].tensor;
        if (nn_storage_root(s->storage) != nn_storage_root(t->storage)) continue;
        if (s->dtype != t->dtype) /* PyTorch 1.13's refusal (torch/serialization.py) */
            return nn_error_set(NN_ERR_RUNTIME,
                                "Cannot save multiple tensors or storages that view the same data as different types");
        *key = i;
        return 0;
    }
    if (w->n_storages == w->cap_storages) {
        size_t cap = w->cap_storages ? 2 * w->cap_storages : 16;
        nn_pickle_storage *s = nn_realloc(w->storages, cap * sizeof *s);
        if (!s) return -1;
        w->storages = s;
        w->cap_storages = cap;
    }
    NN_RETAIN(t);
    w->storages[w->n_storages].tensor = t;
    *key = w->n_storages++;
    return 0;
}

/* The persistent id ('storage', type, key, location, numel) of t's storage, then
   BINPERSID; an untyped one is torch.storage.UntypedStorage counted in bytes. */
static int put_storage_pid(writer *w, nn_tensor *t, bool untyped)
{
    const char *sname = storage_name(t->dtype);
    size_t key = 0;
    if (!sname) return nn_error_set(NN_ERR_TYPE, "torch.save: tensors of dtype %s cannot be saved", nn_dtype_name(t->dtype));
    if (storage_key(w, t, &key) < 0) return -1;
    char keybuf[32];
    snprintf(keybuf, sizeof keybuf, "%zu", key);
    put_byte(w, OP_MARK);
    put_str(w, "storage", 7);
    if (untyped) put_global(w, "torch.storage", "UntypedStorage");
    else put_global(w, "torch", sname);
    put_str(w, keybuf, strlen(keybuf));
    char where[32]; /* the storage's location tag: "cpu", "cuda:0" */
    nn_device_str(t->storage->device, where, sizeof where);
    put_str(w, where, strlen(where));
    put_int(w, (int64_t)(t->storage->nbytes / (untyped ? 1 : nn_dtype_size(t->dtype))));
    put_byte(w, OP_TUPLE);
    put_byte(w, OP_BINPERSID);
    return 0;
}

/* torch._utils._rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks) */
static int put_tensor_rebuild(writer *w, nn_tensor *t, bool requires_grad)
{
    if (!storage_name(t->dtype))
        return nn_error_set(NN_ERR_TYPE, "torch.save: tensors of dtype %s cannot be saved", nn_dtype_name(t->dtype));
    put_global(w, "torch._utils", "_rebuild_tensor_v2");
    put_byte(w, OP_MARK);
    if (put_storage_pid(w, t, false) < 0) return -1;
    put_int(w, t->offset);
    put_byte(w, OP_MARK);
    for (int d = 0; d < t->ndim; d++) put_int(w, t->sizes[d]);
    put_byte(w, OP_TUPLE);
    put_byte(w, OP_MARK);
    for (int d = 0; d < t->ndim; d++) put_int(w, t->strides[d]);
    put_byte(w, OP_TUPLE);
    put_byte(w, requires_grad ? OP_NEWTRUE : OP_NEWFALSE);
    put_empty_ordered_dict(w);
    put_byte(w, OP_TUPLE);
    put_byte(w, OP_REDUCE);
    return 0;
}

static int save(writer *w, nn_object *o);

/* A dict's items or a list's, in batches of 1000 as CPython writes them: MARK, the
   items, SETITEMS/APPENDS; a batch of one without the MARK, with SETITEM/APPEND. */
static int save_items(writer *w, nn_object *c)
{
    bool is_dict = nn_is_dict(c);
    size_t total = is_dict ? nn_dict_len(c) : nn_list_len(c), pos = 0;
    for (size_t start = 0; start < total; start += 1000) {
        size_t n = total - start < 1000 ? total - start : 1000;
        if (n > 1) put_byte(w, OP_MARK);
        for (size_t i = start; i < start + n; i++) {
            nn_object *k, *v;
            if (is_dict) {
                if (!nn_dict_next(c, &pos, &k, &v)) return nn_error_set(NN_ERR_RUNTIME, "dict changed size during torch.save");
                if (save(w, k) < 0 || save(w, v) < 0) return -1;
            } else if (save(w, nn_list_get(c, i)) < 0) {
                return -1;
            }
        }
        put_byte(w, n > 1 ? (is_dict ? OP_SETITEMS : OP_APPENDS) : (is_dict ? OP_SETITEM : OP_APPEND));
    }
    return 0;
}

/* An object the hooks reduce: GLOBAL, NEWOBJ () or args REDUCE, memoized, BUILD state. */
static int save_reduced(writer *w, nn_object *o)
{
    nn_object *red = NULL;
    if (hooks->reduce(hooks->ud, o, &red) < 0) return -1;
    bool global_only = nn_tuple_len(red) == 2;
    nn_object *mod = nn_tuple_get(red, 0), *name = nn_tuple_get(red, 1);
    nn_object *args = global_only ? NULL : nn_tuple_get(red, 2), *state = global_only ? nn_none() : nn_tuple_get(red, 3);
    put_global(w, nn_str_cstr(mod), nn_str_cstr(name));
    int rc = 0;
    if (global_only) {
    } else if (nn_is_none(args)) {
        put_byte(w, OP_EMPTY_TUPLE);
        put_byte(w, OP_NEWOBJ);
    } else {
        rc = save(w, args);
        put_byte(w, OP_REDUCE);
    }
    if (rc == 0) rc = memoize(w, o);
    nn_object *items = global_only || nn_tuple_len(red) < 5 ? NULL : nn_tuple_get(red, 4);
    if (rc == 0 && items && nn_is_dict(items) && nn_dict_len(items)) rc = save_items(w, items);
    if (rc == 0 && !nn_is_none(state)) {
        rc = save(w, state);
        put_byte(w, OP_BUILD);
    }
    if (!w->keep && !(w->keep = nn_list_new(0))) rc = -1;
    if (w->keep && nn_list_append(w->keep, red) < 0) rc = -1;
    NN_RELEASE(red);
    return rc;
}

static int save_inner(writer *w, nn_object *o)
{
    nn_tensor *st;
    bool untyped = false;
    if (nn_is_none(o)) {
        put_byte(w, OP_NONE);
    } else if (nn_is_bool(o)) {
        put_byte(w, nn_is_true(o) ? OP_NEWTRUE : OP_NEWFALSE);
    } else if (nn_is_int(o)) {
        put_int(w, nn_int_value(o));
    } else if (nn_is_float(o)) {
        put_float(w, nn_float_value(o));
    } else if (nn_is_str(o)) {
        put_str(w, nn_str_cstr(o), nn_str_len(o));
    } else if (put_memo_get(w, o)) {
        return 0;
    } else if (o->type == &nn_tuple_type) {
        size_t n = nn_tuple_len(o);
        if (n == 0) {
            put_byte(w, OP_EMPTY_TUPLE);
            return 0;
        }
        if (n > 3) put_byte(w, OP_MARK);
        for (size_t i = 0; i < n; i++)
            if (save(w, nn_tuple_get(o, i)) < 0) return -1;
        put_byte(w, n == 1 ? OP_TUPLE1 : n == 2 ? OP_TUPLE2 : n == 3 ? OP_TUPLE3 : OP_TUPLE);
        return memoize(w, o);
    } else if (nn_is_list(o)) {
        put_byte(w, OP_EMPTY_LIST);
        if (memoize(w, o) < 0) return -1;
        return save_items(w, o);
    } else if (nn_is_dict(o)) {
        if (nn_dict_is_ordered(o)) put_empty_ordered_dict(w);
        else put_byte(w, OP_EMPTY_DICT);
        if (memoize(w, o) < 0 || save_items(w, o) < 0) return -1;
        nn_object *attrs = nn_dict_attrs(o, false); /* OrderedDict.__reduce__'s state: its __dict__ (_metadata) */
        if (attrs && nn_dict_len(attrs)) {
            if (save(w, attrs) < 0) return -1;
            put_byte(w, OP_BUILD);
        }
        return 0;
    } else if (nn_is_tensor(o)) {
        nn_tensor *t = NN_TENSOR(o);
        if (nn_is_instance(o, &nn_parameter_type)) {
            put_global(w, "torch._utils", "_rebuild_parameter");
            if (put_tensor_rebuild(w, t, false) < 0) return -1;
            put_byte(w, t->requires_grad ? OP_NEWTRUE : OP_NEWFALSE);
            put_empty_ordered_dict(w);
            put_byte(w, OP_TUPLE3);
            put_byte(w, OP_REDUCE);
        } else if (put_tensor_rebuild(w, t, t->requires_grad) < 0) {
            return -1;
        }
        return memoize(w, o);
    } else if (hooks && hooks->storage && (st = hooks->storage(hooks->ud, o, &untyped))) {
        int rc = put_storage_pid(w, st, untyped); /* a bare storage: its persistent id alone */
        NN_RELEASE(st);
        return rc < 0 ? -1 : memoize(w, o);
    } else if (hooks && hooks->reduce) {
        return save_reduced(w, o);
    } else {
        return nn_error_set(NN_ERR_TYPE, "torch.save: cannot pickle '%s' object", o->type->name);
    }
    return 0;
}

static int save(writer *w, nn_object *o)
{
    if (w->depth >= MAX_DEPTH)
        return nn_error_set(NN_ERR_RUNTIME, "torch.save: objects nested more than %d deep", MAX_DEPTH);
    w->depth++;
    int rc = save_inner(w, o);
    w->depth--;
    if (rc == 0 && w->out.failed) rc = -1;
    return rc;
}

void nn_pickle_out_free(nn_pickle_out *out)
{
    for (size_t i = 0; i < out->n_storages; i++) NN_RELEASE(out->storages[i].tensor);
    nn_free(out->storages);
    nn_free(out->data);
    memset(out, 0, sizeof *out);
}

int nn_pickle_dump(nn_object *obj, nn_pickle_out *out)
{
    writer w = {0};
    memset(out, 0, sizeof *out);
    put_byte(&w, OP_PROTO);
    put_byte(&w, 2);
    int rc = save(&w, obj);
    put_byte(&w, OP_STOP);
    nn_free(w.memo);
    NN_RELEASE(w.keep);
    out->storages = w.storages;
    out->n_storages = w.n_storages;
    size_t len = w.out.len;
    char *data = nn_text_finish(&w.out);
    if (rc < 0 || !data) {
        nn_free(data);
        nn_pickle_out_free(out);
        return -1;
    }
    out->data = data;
    out->len = len;
    return 0;
}

/* ==================================================================== reader */

/* The globals the unpickler knows: those of PyTorch's weights_only=True list. */
typedef enum gkind {
    G_ORDERED_DICT, G_REBUILD_V2, G_REBUILD, G_REBUILD_PARAM, G_REBUILD_PARAM_STATE, G_FROM_TYPE_V2,
    G_PARAMETER, G_TENSOR, G_SIZE, G_STORAGE, G_UNSUPPORTED, /* allowed by PyTorch, not built here */
    G_HOOKED, /* found by the hooks' find_class */
} gkind;

typedef struct global_obj {
    nn_object ob;
    gkind kind;
    int storage_type; /* index into storage_types for G_STORAGE */
    nn_object *found; /* owned: what find_class gave for G_HOOKED */
    char name[96];
} global_obj;

typedef struct storage_obj {
    nn_object ob;
    nn_tensor *flat; /* owned: the whole storage as a 1-D tensor */
} storage_obj;

static void global_dealloc(nn_object *o)
{
    NN_RELEASE(((global_obj *)o)->found);
    nn_free(o);
}
static void storage_dealloc(nn_object *o)
{
    NN_RELEASE(((storage_obj *)o)->flat);
    nn_free(o);
}
static const nn_type global_type = {.name = "pickle global", .dealloc = global_dealloc};
static const nn_type storage_obj_type = {.name = "TypedStorage", .dealloc = storage_dealloc};

static const char *const unsupported_globals[] = {
    "torch.serialization._get_layout", "torch._utils._rebuild_sparse_tensor",
    "torch._utils._rebuild_meta_tensor_no_storage", "torch._utils._rebuild_sparse_csr_tensor",
    "torch.complex32", "torch.complex64", "torch.complex128", "torch.float16", "torch.float32", "torch.float64",
    "torch.int8", "torch.int16", "torch.int32", "torch.int64", "torch.bfloat16", "torch.bool", "torch.uint8",
};

/* PyTorch 1.13's torch.load(weights_only=True) refusing a global (module and name
   counted, not NUL-terminated): its UnpicklingError text, word for word. -1. */
static int unsupported_class(const char *module, size_t mlen, const char *name, size_t nlen)
{
    return nn_error_set(NN_ERR_UNPICKLING,
                        "Weights only load failed. Re-running `torch.load` with `weights_only` set to `False` will "
                        "likely succeed, but it can result in arbitrary code execution.Do it only if you get the file "
                        "from a trusted source. WeightsUnpickler error: Unsupported class %.*s.%.*s",
                        (int)mlen, module, (int)nlen, name);
}

static nn_object *global_new(const char *module, size_t mlen, const char *name, size_t nlen)
{
    char full[96];
    if (mlen + nlen + 2 > sizeof full) return unsupported_class(module, mlen, name, nlen), NULL; /* none is so long */
    snprintf(full, sizeof full, "%.*s.%.*s", (int)mlen, module, (int)nlen, name);
    static const struct {
        const char *name;
        gkind kind;
    } known[] = {
        {"collections.OrderedDict", G_ORDERED_DICT},
        {"torch._utils._rebuild_tensor_v2", G_REBUILD_V2},
        {"torch._utils._rebuild_tensor", G_REBUILD},
        {"torch._utils._rebuild_parameter", G_REBUILD_PARAM},
        {"torch._utils._rebuild_parameter_with_state", G_REBUILD_PARAM_STATE},
        {"torch._tensor._rebuild_from_type_v2", G_FROM_TYPE_V2},
        {"torch.nn.parameter.Parameter", G_PARAMETER},
        {"torch.Tensor", G_TENSOR},
        {"torch.Size", G_SIZE},
    };
    int kind = -1, st = -1;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strcmp(full, known[i].name)) kind = (int)known[i].kind;
    for (size_t i = 0; kind < 0 && i < N_STORAGE_TYPES; i++) {
        char sname[64];
        snprintf(sname, sizeof sname, "torch.%s", storage_types[i].storage);
        if (!strcmp(full, sname)) kind = G_STORAGE, st = (int)i;
    }
    if (kind < 0 && !strcmp(full, "torch.storage.UntypedStorage")) /* counted in bytes: a ByteStorage */
        for (size_t i = 0; i < N_STORAGE_TYPES; i++)
            if (storage_types[i].dtype == NN_UINT8) kind = G_STORAGE, st = (int)i;
    for (size_t i = 0; kind < 0 && i < sizeof unsupported_globals / sizeof unsupported_globals[0]; i++)
        if (!strcmp(full, unsupported_globals[i])) kind = G_UNSUPPORTED;
    nn_object *found = NULL;
    if (kind < 0 && hooks && hooks->find_class) {
        char mod[96];
        snprintf(mod, sizeof mod, "%.*s", (int)mlen, module);
        bool is_value = false;
        if (!(found = hooks->find_class(hooks->ud, mod, full + mlen + 1, &is_value))) return NULL;
        if (is_value) return found;
        kind = G_HOOKED;
    }
    if (kind < 0) return unsupported_class(module, mlen, name, nlen), NULL;
    global_obj *g = nn_malloc(sizeof *g);
    if (!g) {
        NN_RELEASE(found);
        return NULL;
    }
    nn_object_init(&g->ob, &global_type);
    g->found = found;
    g->kind = (gkind)kind;
    g->storage_type = st;
    memcpy(g->name, full, strlen(full) + 1);
    return &g->ob;
}

/* Depth bookkeeping: a container's nesting depth, and whether it already sits in
   another one (then it may not grow deeper), so nothing built here nests past
   MAX_DEPTH (a deep value would overflow the C stack when freed or printed). */
typedef struct depth_slot {
    nn_object *obj; /* owned, so that no later object reuses its address */
    int depth;
    bool nested;
} depth_slot;

typedef struct reader {
    const uint8_t *start, *p, *end;
    nn_object **stack;
    size_t n, cap;
    size_t *marks;
    size_t n_marks, cap_marks;
    nn_object **memo;
    size_t cap_memo, memo_limit, memo_count;
    nn_pickle_storage_fn load;
    void *ud;
    nn_object *storages; /* dict key -> storage_obj */
    depth_slot *depths;
    size_t n_depths, cap_depths; /* open addressing, cap a power of two */
} reader;

static int bad(const char *fmt, const char *arg) { return nn_error_set(NN_ERR_UNPICKLING, fmt, arg); }

static depth_slot *depth_find(reader *r, nn_object *o, bool add)
{
    if (add && 2 * (r->n_depths + 1) > r->cap_depths) {
        size_t cap = r->cap_depths ? 2 * r->cap_depths : 256;
        depth_slot *d = nn_calloc(cap, sizeof *d);
        if (!d) return NULL;
        for (size_t i = 0; i < r->cap_depths; i++) {
            if (!r->depths[i].obj) continue;
            size_t h = ((uintptr_t)r->depths[i].obj >> 4) & (cap - 1);
            while (d[h].obj) h = (h + 1) & (cap - 1);
            d[h] = r->depths[i];
        }
        nn_free(r->depths);
        r->depths = d;
        r->cap_depths = cap;
    }
    if (!r->cap_depths) return NULL;
    size_t h = ((uintptr_t)o >> 4) & (r->cap_depths - 1);
    while (r->depths[h].obj && r->depths[h].obj != o) h = (h + 1) & (r->cap_depths - 1);
    if (!r->depths[h].obj) {
        if (!add) return NULL;
        r->depths[h].obj = nn_retain(o);
        r->n_depths++;
    }
    return &r->depths[h];
}

static int depth_of(reader *r, nn_object *o)
{
    depth_slot *s = depth_find(r, o, false);
    return s ? s->depth : 0;
}

/* item goes into container: container's depth grows to item's + 1. */
static int nest(reader *r, nn_object *container, nn_object *item)
{
    bool is_container = nn_is_list(item) || nn_is_dict(item) || item->type == &nn_tuple_type;
    int d = (is_container ? depth_of(r, item) : 0) + 1;
    if (item == container) return bad("pickle puts a container inside itself%s", "");
    if (d > MAX_DEPTH) return nn_error_set(NN_ERR_UNPICKLING, "pickle nests values more than %d deep", MAX_DEPTH);
    if (is_container) {
        depth_slot *s = depth_find(r, item, true);
        if (!s) return -1;
        s->nested = true;
    }
    depth_slot *c = depth_find(r, container, true);
    if (!c) return -1;
    if (d > c->depth) {
        if (c->nested) return bad("pickle grows a container after nesting it (a cycle or a deep chain)%s", "");
        c->depth = d;
    }
    return 0;
}

static int push(reader *r, nn_object *o) /* takes o */
{
    if (!o) return -1;
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 64;
        nn_object **s = nn_realloc(r->stack, cap * sizeof *s);
        if (!s) {
            NN_RELEASE(o);
            return -1;
        }
        r->stack = s;
        r->cap = cap;
    }
    r->stack[r->n++] = o;
    return 0;
}

/* The stack's floor: the last mark's position, or 0. */
static size_t floor_of(const reader *r) { return r->n_marks ? r->marks[r->n_marks - 1] : 0; }

static nn_object *pop(reader *r) /* returns the stack's reference */
{
    if (r->n <= floor_of(r)) {
        bad("pickle pops from an empty stack%s", "");
        return NULL;
    }
    return r->stack[--r->n];
}

static nn_object *top(reader *r)
{
    if (r->n <= floor_of(r)) {
        bad("pickle reads from an empty stack%s", "");
        return NULL;
    }
    return r->stack[r->n - 1];
}

static int need(reader *r, size_t n)
{
    if ((size_t)(r->end - r->p) < n) {
        if (r->p == r->start) return nn_error_set(NN_ERR_EOF, "Ran out of input"); /* CPython's words */
        return bad("pickle data was truncated%s", "");
    }
    return 0;
}

static uint64_t rd_le(reader *r, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v |= (uint64_t)r->p[i] << (8 * i);
    r->p += n;
    return v;
}

/* The items above the last mark as a new tuple; the mark is dropped. */
static nn_object *pop_mark_tuple(reader *r)
{
    if (!r->n_marks) {
        bad("pickle has no MARK for this opcode%s", "");
        return NULL;
    }
    size_t base = r->marks[--r->n_marks];
    nn_object *t = nn_tuple_new(r->n - base);
    if (!t) return NULL;
    for (size_t i = base; i < r->n; i++) nn_tuple_set(t, i - base, r->stack[i]); /* moves the references */
    r->n = base;
    for (size_t i = 0; i < nn_tuple_len(t); i++)
        if (nest(r, t, nn_tuple_get(t, i)) < 0) {
            NN_RELEASE(t);
            return NULL;
        }
    return t;
}

static int memo_put(reader *r, size_t idx)
{
    nn_object *o = top(r);
    if (!o) return -1;
    if (idx >= r->memo_limit) return bad("pickle memo index out of range%s", "");
    if (idx >= r->cap_memo) {
        size_t cap = r->cap_memo ? r->cap_memo : 64;
        while (cap <= idx) cap *= 2;
        if (cap > r->memo_limit) cap = r->memo_limit;
        nn_object **m = nn_realloc(r->memo, cap * sizeof *m);
        if (!m) return -1;
        memset(m + r->cap_memo, 0, (cap - r->cap_memo) * sizeof *m);
        r->memo = m;
        r->cap_memo = cap;
    }
    NN_RETAIN(o);
    if (!r->memo[idx]) r->memo_count++;
    NN_SET(r->memo[idx], o);
    return 0;
}

static int memo_get(reader *r, size_t idx)
{
    if (idx >= r->cap_memo || !r->memo[idx]) return bad("pickle memo has no entry for a GET%s", "");
    return push(r, nn_retain(r->memo[idx]));
}

static bool is_tuple(const nn_object *o) { return o && o->type == &nn_tuple_type; }

static int as_int(nn_object *o, const char *what, int64_t *out)
{
    if (!o || !nn_is_int(o)) return bad("a tensor's %s in the pickle is not an int", what);
    *out = nn_int_value(o);
    return 0;
}

/* The storage object for a persistent id ('storage', type, key, location, numel). */
static nn_object *storage_for_pid(reader *r, nn_object *pid)
{
    if (!is_tuple(pid) || nn_tuple_len(pid) != 5 || !nn_is_str(nn_tuple_get(pid, 0)) ||
        strcmp(nn_str_cstr(nn_tuple_get(pid, 0)), "storage")) {
        bad("Only persistent_load of storage is allowed%s", "");
        return NULL;
    }
    nn_object *type = nn_tuple_get(pid, 1), *key = nn_tuple_get(pid, 2), *loc = nn_tuple_get(pid, 3),
              *numel = nn_tuple_get(pid, 4);
    if (type->type != &global_type || ((global_obj *)type)->kind != G_STORAGE || !nn_is_str(key) ||
        !nn_is_str(loc) || !nn_is_int(numel) || nn_int_value(numel) < 0) {
        bad("a storage's persistent id in the pickle is malformed%s", "");
        return NULL;
    }
    nn_object *have = nn_dict_get(r->storages, key);
    if (have) return nn_retain(have);
    int st = ((global_obj *)type)->storage_type;
    if (storage_types[st].dtype < 0) {
        nn_error_set(NN_ERR_NOT_IMPLEMENTED, "torch.load: torch.%s has no nnscope dtype", storage_types[st].storage);
        return NULL;
    }
    nn_tensor *flat = r->load(r->ud, nn_str_cstr(key), (nn_dtype)storage_types[st].dtype, nn_int_value(numel),
                              nn_str_cstr(loc));
    if (!flat) return NULL;
    storage_obj *s = nn_malloc(sizeof *s);
    if (!s) {
        NN_RELEASE(flat);
        return NULL;
    }
    nn_object_init(&s->ob, &storage_obj_type);
    s->flat = flat;
    if (nn_dict_set(r->storages, key, &s->ob) < 0) NN_SET(s, NULL);
    return s ? &s->ob : NULL;
}

/* What BINPERSID pushes: the storage object, or the language's storage over its
   tensor when the hooks have one (what a storage outside a tensor loads as). */
static nn_object *persistent_load(reader *r, nn_object *pid)
{
    if (!r->load) { /* a pickle read only for its first value (torch.load of a file that is no archive) */
        bad("A load persistent id instruction was encountered, but no persistent_load function was specified.%s", "");
        return NULL;
    }
    nn_object *so = storage_for_pid(r, pid);
    if (!so || !hooks || !hooks->wrap_storage) return so;
    nn_object *wrapped = hooks->wrap_storage(hooks->ud, ((storage_obj *)so)->flat);
    NN_RELEASE(so);
    return wrapped;
}

/* _rebuild_tensor(_v2)(storage, offset, size, stride[, requires_grad, hooks, ...]) */
static nn_object *rebuild_tensor(nn_object *args, bool v2)
{
    size_t n = nn_tuple_len(args);
    if (n < 4 || (v2 && n < 5) || n > 7) {
        bad("_rebuild_tensor got the wrong number of arguments%s", "");
        return NULL;
    }
    nn_object *so = nn_tuple_get(args, 0), *size = nn_tuple_get(args, 2), *stride = nn_tuple_get(args, 3);
    int64_t offset = 0, sizes[NN_MAX_DIMS], strides[NN_MAX_DIMS];
    bool untyped = false;
    nn_tensor *wrapped = so->type == &storage_obj_type || !hooks || !hooks->storage ? NULL
                                                                                    : hooks->storage(hooks->ud, so, &untyped);
    NN_RELEASE(wrapped); /* the language storage (in the memo or the stack) holds it */
    if ((so->type != &storage_obj_type && !wrapped) || !is_tuple(size) || !is_tuple(stride) ||
        nn_tuple_len(size) != nn_tuple_len(stride)) {
        bad("_rebuild_tensor's storage, size or stride is malformed%s", "");
        return NULL;
    }
    int ndim = (int)nn_tuple_len(size);
    if (nn_tuple_len(size) > NN_MAX_DIMS) {
        nn_error_set(NN_ERR_UNPICKLING, "a tensor in the file has %zu dimensions (at most %d here)",
                     nn_tuple_len(size), NN_MAX_DIMS);
        return NULL;
    }
    if (as_int(nn_tuple_get(args, 1), "storage offset", &offset) < 0) return NULL;
    nn_tensor *flat = wrapped ? wrapped : ((storage_obj *)so)->flat;
    int64_t avail = nn_numel(flat), hi = offset, lo = offset, numel = 1;
    bool bad_shape = offset < 0;
    for (int d = 0; d < ndim; d++) {
        if (as_int(nn_tuple_get(size, d), "size", &sizes[d]) < 0 ||
            as_int(nn_tuple_get(stride, d), "stride", &strides[d]) < 0)
            return NULL;
        if (sizes[d] < 0 || strides[d] < 0) bad_shape = true;
        if (!bad_shape && __builtin_mul_overflow(numel, sizes[d], &numel)) bad_shape = true;
    }
    for (int d = 0; d < ndim && !bad_shape && numel > 0; d++) {
        int64_t extent;
        if (__builtin_mul_overflow(sizes[d] - 1, strides[d], &extent) || __builtin_add_overflow(hi, extent, &hi))
            bad_shape = true;
    }
    if (bad_shape || (numel > 0 && (lo < 0 || hi >= avail)) || offset > avail) {
        char buf[160];
        nn_error_set(NN_ERR_RUNTIME,
                     "torch.load: a tensor of size %s at offset %lld needs more than its storage's %lld elements "
                     "(a corrupt file)",
                     nn_shape_str(ndim, sizes, buf, sizeof buf), (long long)offset, (long long)avail);
        return NULL;
    }
    nn_tensor *t = nn_tensor_new_view(flat, ndim, sizes, strides, offset);
    if (!t) return NULL;
    if (v2) {
        nn_object *rg = nn_tuple_get(args, 4);
        if (!nn_is_bool(rg)) {
            NN_RELEASE(t);
            bad("_rebuild_tensor_v2's requires_grad is not a bool%s", "");
            return NULL;
        }
        if (nn_is_true(rg) && nn_set_requires_grad(t, true) < 0) NN_SET(t, NULL);
    }
    return t ? &t->ob : NULL;
}

static nn_object *make_parameter(nn_object *data, nn_object *requires_grad)
{
    if (!nn_is_tensor(data) || (requires_grad && !nn_is_bool(requires_grad))) {
        bad("a Parameter in the pickle is malformed%s", "");
        return NULL;
    }
    bool rg = requires_grad ? nn_is_true(requires_grad) : true;
    nn_tensor *p = nn_parameter_new(NN_TENSOR(data), rg);
    return p ? &p->ob : NULL;
}

/* REDUCE: fn(*args) for the few callables the reader knows; new reference. */
static nn_object *call_global(reader *r, nn_object *fn, nn_object *args)
{
    if (fn->type != &global_type) {
        bad("pickle calls something that is not an allowed global%s", "");
        return NULL;
    }
    global_obj *g = (global_obj *)fn;
    if (!is_tuple(args)) {
        bad("pickle calls %s without an argument tuple", g->name);
        return NULL;
    }
    size_t n = nn_tuple_len(args);
    switch (g->kind) {
    case G_ORDERED_DICT:
        if (n != 0) break;
        return nn_ordered_dict_new();
    case G_REBUILD_V2:
    case G_REBUILD:
        return rebuild_tensor(args, g->kind == G_REBUILD_V2);
    case G_REBUILD_PARAM:
    case G_REBUILD_PARAM_STATE:
        if (n < 2) break;
        return make_parameter(nn_tuple_get(args, 0), nn_tuple_get(args, 1));
    case G_PARAMETER:
        if (n < 1 || n > 2) break;
        return make_parameter(nn_tuple_get(args, 0), n == 2 ? nn_tuple_get(args, 1) : NULL);
    case G_SIZE: {
        nn_object *dims = n == 1 ? nn_tuple_get(args, 0) : NULL;
        if (!is_tuple(dims)) break;
        for (size_t i = 0; i < nn_tuple_len(dims); i++)
            if (!nn_is_int(nn_tuple_get(dims, i))) dims = NULL;
        if (!dims) break;
        return nn_retain(dims);
    }
    case G_FROM_TYPE_V2: { /* (func, type, args, state) */
        if (n != 4) break;
        nn_object *f = nn_tuple_get(args, 0), *type = nn_tuple_get(args, 1);
        if (f->type != &global_type || type->type != &global_type ||
            (((global_obj *)type)->kind != G_TENSOR && ((global_obj *)type)->kind != G_PARAMETER))
            break;
        nn_object *t = call_global(r, f, nn_tuple_get(args, 2));
        if (!t || ((global_obj *)type)->kind == G_TENSOR) return t;
        nn_object *p = make_parameter(t, NULL);
        NN_RELEASE(t);
        return p;
    }
    case G_HOOKED:
        return hooks && hooks->call ? hooks->call(hooks->ud, g->found, args, false) : NULL;
    case G_UNSUPPORTED:
    case G_TENSOR:
    case G_STORAGE:
        nn_error_set(NN_ERR_NOT_IMPLEMENTED, "torch.load: %s (allowed by PyTorch's weights_only) is not supported by nnscope",
                     g->name);
        return NULL;
    }
    bad("pickle calls %s with arguments it does not take", g->name);
    return NULL;
}

/* GLOBAL's "module\nname\n" */
static int read_line(reader *r, const char **s, size_t *len)
{
    const uint8_t *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
    if (!nl) return bad("pickle data was truncated%s", "");
    *s = (const char *)r->p;
    *len = (size_t)(nl - r->p);
    r->p = nl + 1;
    return 0;
}

static int setitems(reader *r, size_t base)
{
    if (base == 0 || (r->n - base) % 2) return bad("SETITEMS without a dict below its items%s", "");
    nn_object *d = r->stack[base - 1];
    if (!nn_is_dict(d) && hooks && hooks->items) d = hooks->items(hooks->ud, d);
    if (!d || !nn_is_dict(d)) return bad("SETITEM on something that is not a dict%s", "");
    for (size_t i = base; i < r->n; i += 2)
        if (nest(r, d, r->stack[i]) < 0 || nest(r, d, r->stack[i + 1]) < 0 ||
            nn_dict_set(d, r->stack[i], r->stack[i + 1]) < 0)
            return -1;
    while (r->n > base) NN_RELEASE(r->stack[--r->n]);
    return 0;
}

static int appends(reader *r, size_t base)
{
    if (base == 0 || !nn_is_list(r->stack[base - 1])) return bad("APPEND on something that is not a list%s", "");
    nn_object *l = r->stack[base - 1];
    for (size_t i = base; i < r->n; i++)
        if (nest(r, l, r->stack[i]) < 0 || nn_list_append(l, r->stack[i]) < 0) return -1;
    while (r->n > base) NN_RELEASE(r->stack[--r->n]);
    return 0;
}

static int push_str(reader *r, size_t len)
{
    if (need(r, len) < 0) return -1;
    nn_object *s = nn_str_from((const char *)r->p, len);
    r->p += len;
    return push(r, s);
}

/* One opcode; 1 at STOP, 0 to go on, -1 on error. */
static int step(reader *r)
{
    if (need(r, 1) < 0) return -1;
    size_t at = (size_t)(r->p - r->start);
    int op = *r->p++;
    nn_object *a, *b, *c;
    switch (op) {
    case OP_PROTO:
        if (need(r, 1) < 0) return -1;
        if (*r->p++ > 5) return bad("unsupported pickle protocol%s", "");
        return 0;
    case OP_FRAME:
        if (need(r, 8) < 0) return -1;
        r->p += 8;
        return 0;
    case OP_STOP:
        return 1;
    case OP_MARK:
        if (r->n_marks == r->cap_marks) {
            size_t cap = r->cap_marks ? 2 * r->cap_marks : 32;
            size_t *m = nn_realloc(r->marks, cap * sizeof *m);
            if (!m) return -1;
            r->marks = m;
            r->cap_marks = cap;
        }
        r->marks[r->n_marks++] = r->n;
        return 0;
    case OP_POP:
        if (!(a = pop(r))) return -1;
        NN_RELEASE(a);
        return 0;
    case OP_POP_MARK:
        if (!(a = pop_mark_tuple(r))) return -1;
        NN_RELEASE(a);
        return 0;
    case OP_DUP:
        if (!(a = top(r))) return -1;
        return push(r, nn_retain(a));
    case OP_NONE: return push(r, nn_retain(nn_none()));
    case OP_NEWTRUE: return push(r, nn_bool_new(true));
    case OP_NEWFALSE: return push(r, nn_bool_new(false));
    case OP_BININT1:
        if (need(r, 1) < 0) return -1;
        return push(r, nn_int_new((int64_t)rd_le(r, 1)));
    case OP_BININT2:
        if (need(r, 2) < 0) return -1;
        return push(r, nn_int_new((int64_t)rd_le(r, 2)));
    case OP_BININT:
        if (need(r, 4) < 0) return -1;
        return push(r, nn_int_new((int32_t)(uint32_t)rd_le(r, 4)));
    case OP_LONG1:
    case OP_LONG4: {
        int w = op == OP_LONG1 ? 1 : 4;
        if (need(r, (size_t)w) < 0) return -1;
        uint64_t n = rd_le(r, w);
        if (n > 8) return bad("an integer in the pickle does not fit in 64 bits%s", "");
        if (need(r, n) < 0) return -1;
        uint64_t v = n ? rd_le(r, (int)n) : 0;
        if (n && n < 8 && (v >> (8 * n - 1)) & 1) v |= ~(uint64_t)0 << (8 * n); /* sign-extend */
        return push(r, nn_int_new((int64_t)v));
    }
    case OP_BINFLOAT: {
        if (need(r, 8) < 0) return -1;
        uint64_t bits = 0;
        for (int i = 0; i < 8; i++) bits = bits << 8 | r->p[i];
        r->p += 8;
        double v;
        memcpy(&v, &bits, 8);
        return push(r, nn_float_new(v));
    }
    case OP_SHORT_BINUNICODE:
        if (need(r, 1) < 0) return -1;
        return push_str(r, rd_le(r, 1));
    case OP_BINUNICODE:
        if (need(r, 4) < 0) return -1;
        return push_str(r, rd_le(r, 4));
    case OP_BINUNICODE8:
        if (need(r, 8) < 0) return -1;
        return push_str(r, rd_le(r, 8));
    case OP_EMPTY_TUPLE: return push(r, nn_tuple_new(0));
    case OP_EMPTY_LIST: return push(r, nn_list_new(0));
    case OP_EMPTY_DICT: return push(r, nn_dict_new());
    case OP_TUPLE1:
    case OP_TUPLE2:
    case OP_TUPLE3: {
        size_t n = (size_t)(op - OP_TUPLE1 + 1);
        if (r->n < floor_of(r) + n) return bad("pickle pops from an empty stack%s", "");
        nn_object *t = nn_tuple_new(n);
        if (!t) return -1;
        for (size_t i = 0; i < n; i++) nn_tuple_set(t, i, r->stack[r->n - n + i]);
        r->n -= n;
        for (size_t i = 0; i < n; i++)
            if (nest(r, t, nn_tuple_get(t, i)) < 0) {
                NN_RELEASE(t);
                return -1;
            }
        return push(r, t);
    }
    case OP_TUPLE:
        if (!(a = pop_mark_tuple(r))) return -1;
        return push(r, a);
    case OP_LIST:
    case OP_DICT: {
        if (!r->n_marks) return bad("pickle has no MARK for this opcode%s", "");
        size_t base = r->marks[--r->n_marks];
        /* the new container goes below its items, then they move in */
        if (push(r, op == OP_LIST ? nn_list_new(0) : nn_dict_new()) < 0) return -1;
        nn_object *box = r->stack[r->n - 1];
        memmove(r->stack + base + 1, r->stack + base, (r->n - 1 - base) * sizeof *r->stack);
        r->stack[base] = box;
        return op == OP_LIST ? appends(r, base + 1) : setitems(r, base + 1);
    }
    case OP_APPEND:
        if (r->n < floor_of(r) + 2) return bad("APPEND on something that is not a list%s", "");
        return appends(r, r->n - 1);
    case OP_APPENDS:
    case OP_SETITEMS: {
        if (!r->n_marks) return bad("pickle has no MARK for this opcode%s", "");
        size_t base = r->marks[--r->n_marks];
        return op == OP_APPENDS ? appends(r, base) : setitems(r, base);
    }
    case OP_SETITEM:
        if (r->n < floor_of(r) + 3) return bad("SETITEMS without a dict below its items%s", "");
        return setitems(r, r->n - 2);
    case OP_BINPUT:
        if (need(r, 1) < 0) return -1;
        return memo_put(r, rd_le(r, 1));
    case OP_LONG_BINPUT:
        if (need(r, 4) < 0) return -1;
        return memo_put(r, rd_le(r, 4));
    case OP_MEMOIZE: return memo_put(r, r->memo_count);
    case OP_BINGET:
        if (need(r, 1) < 0) return -1;
        return memo_get(r, rd_le(r, 1));
    case OP_LONG_BINGET:
        if (need(r, 4) < 0) return -1;
        return memo_get(r, rd_le(r, 4));
    case OP_GLOBAL: {
        const char *m = NULL, *n = NULL;
        size_t ml = 0, nl = 0;
        if (read_line(r, &m, &ml) < 0 || read_line(r, &n, &nl) < 0) return -1;
        return push(r, global_new(m, ml, n, nl));
    }
    case OP_STACK_GLOBAL: {
        if (!(b = pop(r))) return -1;
        if (!(a = pop(r))) {
            NN_RELEASE(b);
            return -1;
        }
        int rc = nn_is_str(a) && nn_is_str(b)
                     ? push(r, global_new(nn_str_cstr(a), nn_str_len(a), nn_str_cstr(b), nn_str_len(b)))
                     : bad("STACK_GLOBAL needs two strings%s", "");
        NN_RELEASE(a);
        NN_RELEASE(b);
        return rc;
    }
    case OP_REDUCE:
    case OP_NEWOBJ: {
        if (!(b = pop(r))) return -1;
        if (!(a = pop(r))) {
            NN_RELEASE(b);
            return -1;
        }
        bool hooked = a->type == &global_type && ((global_obj *)a)->kind == G_HOOKED;
        bool allowed = op == OP_REDUCE || hooked || (a->type == &global_type && ((global_obj *)a)->kind == G_PARAMETER);
        if (op == OP_NEWOBJ && hooked && !is_tuple(b)) allowed = false;
        c = !allowed                      ? NULL
            : op == OP_NEWOBJ && hooked ? (hooks && hooks->call ? hooks->call(hooks->ud, ((global_obj *)a)->found, b, true)
                                                                 : NULL)
                                          : call_global(r, a, b);
        if (!allowed) bad("Trying to instantiate an unsupported class with NEWOBJ%s", "");
        NN_RELEASE(a);
        NN_RELEASE(b);
        return c ? push(r, c) : -1;
    }
    case OP_BINPERSID:
        if (!(a = pop(r))) return -1;
        b = persistent_load(r, a);
        NN_RELEASE(a);
        return b ? push(r, b) : -1;
    case OP_BUILD:
        /* state for an OrderedDict (a state_dict's _metadata) or a tensor's empty
           python state: nothing nnscope keeps */
        if (!(a = pop(r))) return -1;
        b = top(r);
        if (b && nn_is_dict(b) && nn_dict_is_ordered(b) && nn_is_dict(a)) { /* inst.__dict__.update(state) */
            nn_object *attrs = nn_dict_attrs(b, true), *k, *v;
            size_t pos = 0;
            int rc = attrs ? 0 : -1;
            while (rc == 0 && nn_dict_next(a, &pos, &k, &v))
                rc = nn_is_str(k) ? nn_dict_set(attrs, k, v) : bad("an OrderedDict's state has a key that is not a str%s", "");
            NN_RELEASE(a);
            return rc;
        }
        if (b && hooks && hooks->build && !nn_is_tensor(b)) {
            nn_object *made = NULL;
            int rc = hooks->build(hooks->ud, b, a, &made);
            NN_RELEASE(a);
            if (rc == 0 && made) { /* made takes b's place on the stack and in the memo */
                for (size_t i = 0; i < r->cap_memo; i++)
                    if (r->memo[i] == b) NN_SET(r->memo[i], nn_retain(made));
                NN_SET(r->stack[r->n - 1], made);
            } else {
                NN_RELEASE(made);
            }
            return rc;
        }
        NN_RELEASE(a);
        if (!b) return -1;
        if (!nn_is_dict(b) && !nn_is_tensor(b))
            return bad("Can only build Tensor, parameter or dict objects%s", "");
        return 0;
    default: {
        char buf[8];
        snprintf(buf, sizeof buf, "0x%02x", op);
        nn_error_set(NN_ERR_UNPICKLING, "invalid load key, '%s' (an unknown or unsupported pickle opcode at byte %zu)",
                     buf, at);
        return -1;
    }
    }
}

nn_object *nn_pickle_load(const void *data, size_t len, nn_pickle_storage_fn load, void *ud)
{
    reader r = {.start = data, .p = data, .end = (const uint8_t *)data + len, .load = load, .ud = ud};
    r.memo_limit = len; /* every memo entry costs at least two bytes of the file */
    r.storages = nn_dict_new();
    nn_object *result = NULL;
    int rc = r.storages ? 0 : -1;
    while (rc == 0) rc = step(&r);
    if (rc == 1) {
        if (r.n != 1 || r.n_marks) nn_error_set(NN_ERR_UNPICKLING, "pickle ends with %zu values on its stack", r.n);
        else result = r.stack[--r.n];
    }
    while (r.n) NN_RELEASE(r.stack[--r.n]);
    for (size_t i = 0; i < r.cap_memo; i++) NN_RELEASE(r.memo[i]);
    nn_free(r.memo);
    nn_free(r.stack);
    nn_free(r.marks);
    for (size_t i = 0; i < r.cap_depths; i++) NN_RELEASE(r.depths[i].obj);
    nn_free(r.depths);
    NN_RELEASE(r.storages);
    return result;
}
