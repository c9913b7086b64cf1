/*
 * builtin_sub_args.c — C functions that take a str, int or float receive the
 * built-in value of an instance of a subclass of one ('abc'.startswith(S('a')),
 * chr(I(65)), getattr(m, S('pi'))), as CPython's C functions accept subtypes.
 *
 * The one place: once the built-in types and functions are installed, every C
 * method of str, int and float, and the named built-in functions, is replaced
 * by a wrapper that unwraps its arguments and calls the original. Methods that
 * format their arguments (str.format, %) and functions that keep or inspect an
 * object as itself (list.append, isinstance, repr, copy) are left alone: there
 * a subclass's own __str__/__repr__ and its identity matter.
 */
#include <string.h>

#include "eval_int.h"

nn_tensor *repl_numpy_scalar_tensor(nn_object *o); /* np_scalar.c (bind_int.h) */

/* The wrapper's data: the original function (owned) and which arguments it
   unwraps (a bit per position, all when ~0u) and the keyword it unwraps, if any. */
typedef struct {
    nn_object *orig;
    unsigned positions;
    const char *keyword;
} unwrap_fn;

static void unwrap_free(void *ud)
{
    unwrap_fn *u = ud;
    NN_RELEASE(u->orig);
    nn_free(u);
}

static void unwrap_traverse(void *ud, void (*visit)(nn_object *, void *), void *arg)
{
    visit(((unwrap_fn *)ud)->orig, arg);
}

/* o's built-in value, and a tuple's items' ('abc'.startswith((S('x'), 'a'))):
   a new reference. */
static nn_object *value_of(nn_object *o)
{
    nn_object *v = repl_unwrap_value(o);
    if (v->type != &nn_tuple_type) return nn_retain(v);
    size_t n = nn_tuple_len(v), i = 0;
    while (i < n && !repl_base_value(nn_tuple_get(v, i))) i++;
    if (i == n) return nn_retain(v);
    nn_object *t = nn_tuple_new(n);
    for (i = 0; t && i < n; i++) nn_tuple_set(t, i, nn_retain(repl_unwrap_value(nn_tuple_get(v, i))));
    return t;
}

static bool needs_unwrap(nn_object *o)
{
    if (repl_base_value(o)) return true;
    if (o->type != &nn_tuple_type) return false;
    for (size_t i = 0; i < nn_tuple_len(o); i++)
        if (repl_base_value(nn_tuple_get(o, i))) return true;
    return false;
}

static nn_object *unwrap_call(void *ud, nn_object *args, nn_object *kwargs)
{
    unwrap_fn *u = ud;
    size_t n = nn_tuple_len(args);
    bool any = false;
    for (size_t i = 0; i < n && !any; i++)
        any = (i >= 32 || (u->positions >> i & 1u)) && needs_unwrap(nn_tuple_get(args, i));
    nn_object *kv = u->keyword && kwargs ? nn_dict_get_str(kwargs, u->keyword) : NULL;
    if (!any && !(kv && needs_unwrap(kv))) return nn_call(u->orig, args, kwargs);
    nn_object *a = nn_tuple_new(n), *k = NULL;
    for (size_t i = 0; a && i < n; i++) {
        nn_object *x = nn_tuple_get(args, i);
        nn_object *v = i >= 32 || (u->positions >> i & 1u) ? value_of(x) : nn_retain(x);
        if (!v) NN_SET(a, NULL);
        else nn_tuple_set(a, i, v);
    }
    if (a && kv) {
        nn_object *v = value_of(kv);
        k = v ? nn_dict_copy(kwargs) : NULL;
        if (k && nn_dict_set_str(k, u->keyword, v) < 0) NN_SET(k, NULL);
        NN_RELEASE(v);
        if (!k) NN_SET(a, NULL);
    }
    nn_object *r = a ? nn_call(u->orig, a, k ? k : kwargs) : NULL;
    NN_RELEASE(a);
    NN_RELEASE(k);
    return r;
}

/* A wrapper of the C function f (a new reference), or NULL with an error. */
static nn_object *wrap(nn_object *f, const char *name, unsigned positions, const char *keyword)
{
    unwrap_fn *u = nn_malloc(sizeof *u);
    if (!u) return NULL;
    u->orig = nn_retain(f);
    u->positions = positions;
    u->keyword = keyword;
    nn_object *w = nn_cfunction_new(name, unwrap_call, u, unwrap_free);
    if (!w) {
        unwrap_free(u);
        return NULL;
    }
    nn_cfunction_set_traverse(w, unwrap_traverse);
    return w;
}

/* Every C method in c's own dict but those that format their arguments. */
static int wrap_methods(class_obj *c)
{
    static const char *const keep[] = {"format", "format_map", "__mod__", "__rmod__", "__format__", NULL};
    uint32_t pos = 0;
    const char *k;
    nn_object *v;
    while (repl_nmap_next(&c->dict, &pos, &k, &v)) {
        bool skip = false;
        for (int i = 0; keep[i] && !skip; i++) skip = strcmp(k, keep[i]) == 0;
        if (skip) continue;
        /* int.from_bytes, float.fromhex (classmethods), str.maketrans (a staticmethod): the function they wrap */
        const char *kind = strcmp(k, "maketrans") == 0                                    ? "staticmethod"
                           : strcmp(k, "from_bytes") == 0 || strcmp(k, "fromhex") == 0 ? "classmethod"
                                                                                         : NULL;
        if (v->type != &nn_cfunction_type && !kind) continue;
        nn_object *w;
        if (kind) { /* the wrapper, made a classmethod or staticmethod as the original */
            nn_object *f = repl_get_attr(v, "__func__");
            if (f && f->type != &nn_cfunction_type) repl_raise_exc(EXC_TypeError, "%s: not a C function", k);
            w = f && f->type == &nn_cfunction_type ? wrap(f, k, ~0u, NULL) : NULL;
            NN_RELEASE(f);
            nn_object *deco = repl_nmap_get(&repl_current->builtins, kind);
            NN_SET(w, w && deco ? repl_call_object(deco, &w, 1, NULL) : NULL);
        } else {
            w = wrap(v, k, ~0u, NULL);
        }
        int rc = w ? repl_nmap_set(&c->dict, k, w) : -1; /* replaces the value: the walk goes on */
        NN_RELEASE(w);
        if (rc < 0) return -1;
    }
    return 0;
}

int repl_builtin_sub_wrap_natives(repl_interp *in)
{
    /* built-in functions: the arguments taken as values (the object of getattr
       and the value of format stay themselves) */
    static const struct {
        const char *name;
        unsigned positions;
        const char *keyword;
    } fns[] = {{"chr", ~0u, NULL},     {"ord", ~0u, NULL},     {"hex", ~0u, NULL},     {"bin", ~0u, NULL},
               {"oct", ~0u, NULL},     {"open", ~0u, "file"}, {"getattr", 2u, NULL},  {"hasattr", 2u, NULL},
               {"setattr", 2u, NULL},  {"delattr", 2u, NULL}, {"format", 2u, NULL},   {"enumerate", 2u, "start"},
               {"compile", ~0u, NULL}};
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++) {
        nn_object *f = repl_nmap_get(&in->builtins, fns[i].name);
        if (!f || f->type != &nn_cfunction_type) continue;
        nn_object *w = wrap(f, fns[i].name, fns[i].positions, fns[i].keyword);
        int rc = w ? repl_nmap_set(&in->builtins, fns[i].name, w) : -1;
        NN_RELEASE(w);
        if (rc < 0) return -1;
    }
    nn_object *bytes = repl_nmap_get(&in->builtins, "bytes"), *bytearray = repl_nmap_get(&in->builtins, "bytearray");
    if ((bytes && bytes->type == &repl_class_type && wrap_methods((class_obj *)bytes) < 0) ||
        (bytearray && bytearray->type == &repl_class_type && wrap_methods((class_obj *)bytearray) < 0))
        return -1; /* bytes.fromhex(S('0a')) */
    return wrap_methods(in->str_cls) < 0 || wrap_methods(in->int_cls) < 0 || wrap_methods(in->float_cls) < 0 ? -1 : 0;
}

int repl_builtin_sub_wrap_module(nn_object *m)
{
    static const char *const modules[] = {"zlib", "hashlib", "binascii", "struct"};
    if (m->type != &repl_module_type) return 0;
    module_obj *mod = (module_obj *)m;
    bool listed = false;
    for (size_t i = 0; i < sizeof modules / sizeof *modules && !listed; i++) listed = !strcmp(mod->name, modules[i]);
    if (!listed) return 0;
    uint32_t pos = 0;
    const char *k;
    nn_object *v;
    while (repl_nmap_next(&mod->dict, &pos, &k, &v)) {
        if (v->type != &nn_cfunction_type) continue;
        nn_object *w = wrap(v, k, ~0u, NULL);
        int rc = w ? repl_nmap_set(&mod->dict, k, w) : -1; /* replaces the value: the walk goes on */
        NN_RELEASE(w);
        if (rc < 0) return -1;
    }
    return 0;
}

/* Whether a nested list/tuple holds an instance carrying a built-in value. */
static bool holds_values(nn_object *o, int depth)
{
    if (repl_base_value(o)) return true;
    if (depth > 64 || (o->type != &nn_tuple_type && o->type != &nn_list_type)) return false;
    size_t n = o->type == &nn_tuple_type ? nn_tuple_len(o) : nn_list_len(o);
    for (size_t i = 0; i < n; i++)
        if (holds_values(o->type == &nn_tuple_type ? nn_tuple_get(o, i) : nn_list_get(o, i), depth + 1)) return true;
    return false;
}

static nn_object *deep_values(nn_object *o, int depth)
{
    nn_tensor *st = repl_numpy_scalar_tensor(o); /* torch.tensor([np.float64(1.5)]): its dtype's 0-d tensor */
    if (st || nn_error_current()) return (nn_object *)st;
    o = repl_unwrap_value(o);
    if (!holds_values(o, depth)) return nn_retain(o);
    bool tuple = o->type == &nn_tuple_type;
    size_t n = tuple ? nn_tuple_len(o) : nn_list_len(o);
    nn_object *r = tuple ? nn_tuple_new(n) : nn_list_new(n);
    for (size_t i = 0; r && i < n; i++) {
        nn_object *v = deep_values(tuple ? nn_tuple_get(o, i) : nn_list_get(o, i), depth + 1);
        if (!v) NN_SET(r, NULL);
        else if (tuple) nn_tuple_set(r, i, v);
        else {
            if (nn_list_append(r, v) < 0) NN_SET(r, NULL);
            NN_RELEASE(v);
        }
    }
    return r;
}

nn_object *repl_deep_values(nn_object *o) { return deep_values(o, 0); }
