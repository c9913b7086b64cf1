/*
 * globals_dict.c — globals(): the live namespace of the module (the
 * interpreter's globals for __main__, an imported module's dict, as
 * module.__dict__ gives it too), not a copy. `globals()['x'] = 1` binds x,
 * `globals().update(...)`, `del globals()['x']`, `globals().pop(...)` and
 * `setdefault` change it; reading it (`g['x']`, `'x' in g`, `g.get`, `len`,
 * iteration, keys/values/items, repr, ==, copy) sees the names bound now.
 * `exec(code, globals())` runs code in the module's namespace (lang_exec.c).
 * Its class prints as dict; its keys are strings, as a module's names are.
 */
#include <string.h>

#include "stdlib_int.h"

#define NARGS ((int)nn_tuple_len(args))
#define ARG(i) nn_tuple_get(args, (size_t)(i))

#define MODULE_KEY " module" /* the proxied module's key in the proxy's attributes (no name has a space) */

/* The names that the proxy self stands for: its module's, else __main__'s. */
static nmap *ns_of(nn_object *self)
{
    nn_object *m = self->type == &repl_instance_type ? repl_nmap_get(&((instance_obj *)self)->attrs, MODULE_KEY) : NULL;
    return m ? &((module_obj *)m)->dict : &repl_current->globals;
}
#define ns() ns_of(ARG(0))

/* A name: the key as a C string, or NULL with TypeError (a module's names are strings). */
static const char *name_of(nn_object *key)
{
    if (nn_is_str(key)) return nn_str_cstr(key);
    repl_raise_exc(EXC_TypeError, "globals(): keys must be strings, not '%s'", repl_value_type_name(key));
    return NULL;
}

static nn_object *key_error(nn_object *key)
{
    nn_object *args = nn_tuple_pack(1, key), *e = args ? repl_exc_new(EXC_KeyError, args) : NULL;
    NN_RELEASE(args);
    if (e) repl_raise_object(e);
    NN_RELEASE(e);
    return NULL;
}

/* The names of m bound now, as a new dict in their order. */
static nn_object *snapshot(nmap *m)
{
    const char **keys = repl_nmap_keys_ordered(m);
    if (!keys && m->len) return NULL;
    nn_object *d = nn_dict_new();
    for (uint32_t i = 0; d && i < m->len; i++)
        if (nn_dict_set_str(d, keys[i], repl_nmap_get(m, keys[i])) < 0) NN_SET(d, NULL);
    nn_free(keys);
    return d;
}

static int check(const char *fname, nn_object *args, nn_object *kwargs, int min, int max)
{
    return repl_mod_nargs(fname, args, kwargs, min + 1, max + 1) < 0 ? -1 : 0;
}

static nn_object *g_getitem(void *ud, nn_object *args, nn_object *kwargs)
{
    if (check("__getitem__", args, kwargs, 1, 1) < 0) return NULL;
    if (!nn_is_str(ARG(1))) return key_error(ARG(1));
    nn_object *v = repl_nmap_get(ns(), nn_str_cstr(ARG(1)));
    return v ? nn_retain(v) : key_error(ARG(1));
}

static nn_object *g_get(void *ud, nn_object *args, nn_object *kwargs)
{
    if (check("get", args, kwargs, 1, 2) < 0) return NULL;
    nn_object *v = nn_is_str(ARG(1)) ? repl_nmap_get(ns(), nn_str_cstr(ARG(1))) : NULL;
    return nn_retain(v ? v : NARGS > 2 ? ARG(2) : nn_none());
}

static nn_object *g_setitem(void *ud, nn_object *args, nn_object *kwargs)
{
    if (check("__setitem__", args, kwargs, 2, 2) < 0) return NULL;
    const char *k = name_of(ARG(1));
    return k && repl_nmap_set(ns(), k, ARG(2)) == 0 ? nn_retain(nn_none()) : NULL;
}

static nn_object *g_delitem(void *ud, nn_object *args, nn_object *kwargs)
{
    if (check("__delitem__", args, kwargs, 1, 1) < 0) return NULL;
    if (!nn_is_str(ARG(1)) || !repl_nmap_del(ns(), nn_str_cstr(ARG(1)))) return key_error(ARG(1));
    return nn_retain(nn_none());
}

static nn_object *g_contains(void *ud, nn_object *args, nn_object *kwargs)
{
    if (check("__contains__", args, kwargs, 1, 1) < 0) return NULL;
    return nn_bool_new(nn_is_str(ARG(1)) && repl_nmap_get(ns(), nn_str_cstr(ARG(1))));
}

static nn_object *g_len(void *ud, nn_object *args, nn_object *kwargs)
{
    if (check("__len__", args, kwargs, 0, 0) < 0) return NULL;
    return nn_int_new((int64_t)ns()->len);
}

static nn_object *g_setdefault(void *ud, nn_object *args, nn_object *kwargs)
{
    if (check("setdefault", args, kwargs, 1, 2) < 0) return NULL;
    const char *k = name_of(ARG(1));
    if (!k) return NULL;
    nn_object *v = repl_nmap_get(ns(), k);
    if (v) return nn_retain(v);
    v = NARGS > 2 ? ARG(2) : nn_none();
    return repl_nmap_set(ns(), k, v) == 0 ? nn_retain(v) : NULL;
}

static nn_object *g_pop(void *ud, nn_object *args, nn_object *kwargs)
{
    if (check("pop", args, kwargs, 1, 2) < 0) return NULL;
    nn_object *v = nn_is_str(ARG(1)) ? repl_nmap_get(ns(), nn_str_cstr(ARG(1))) : NULL;
    if (!v) return NARGS > 2 ? nn_retain(ARG(2)) : key_error(ARG(1));
    NN_RETAIN(v);
    repl_nmap_del(ns(), nn_str_cstr(ARG(1)));
    return v;
}

/* update(mapping_or_pairs, **kwargs): through a dict made the way dict() makes one. */
static nn_object *g_update(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_check_self("update", args) < 0) return NULL;
    if (NARGS > 2) {
        repl_raise_exc(EXC_TypeError, "update expected at most 1 argument, got %d", NARGS - 1);
        return NULL;
    }
    nn_object *dict = repl_nmap_get(&repl_current->builtins, "dict");
    nn_object *d = dict ? repl_call_object(dict, NARGS > 1 ? &((nn_tuple *)args)->items[1] : NULL, NARGS - 1, kwargs) : NULL;
    if (!d) return NULL;
    size_t pos = 0;
    nn_object *k, *v;
    int rc = 0;
    while (rc == 0 && nn_dict_next(d, &pos, &k, &v)) {
        const char *name = name_of(k);
        rc = name ? repl_nmap_set(ns(), name, v) : -1;
    }
    NN_RELEASE(d);
    return rc < 0 ? NULL : nn_retain(nn_none());
}

/* The reading methods: the same method of a snapshot. */
static nn_object *g_snapshot_call(void *ud, nn_object *args, nn_object *kwargs)
{
    const char *name = ud;
    if (repl_mod_check_self(name, args) < 0) return NULL;
    nn_object *d = snapshot(ns());
    if (!d) return NULL;
    nn_object *r;
    if (strcmp(name, "copy") == 0 && NARGS == 1) r = nn_retain(d);
    else if (strcmp(name, "__iter__") == 0 && NARGS == 1) r = repl_get_iter(d);
    else if (strcmp(name, "__repr__") == 0 && NARGS == 1) {
        char *s = repl_obj_repr(d);
        r = s ? nn_str_new(s) : NULL;
        nn_free(s);
    } else if (strcmp(name, "__eq__") == 0 && NARGS == 2) {
        nn_object *other = repl_is_globals_dict(ARG(1)) ? snapshot(ns_of(ARG(1))) : nn_retain(ARG(1));
        int e = other ? repl_equal(d, other) : -1;
        NN_RELEASE(other);
        r = e < 0 ? NULL : nn_bool_new(e);
    } else r = repl_call_method(d, name, NARGS > 1 ? &((nn_tuple *)args)->items[1] : NULL, NARGS - 1);
    NN_RELEASE(d);
    return r;
}

static const repl_mod_fn methods[] = {
    {"__getitem__", g_getitem, "__getitem__(key)\nThe value bound to the name key."},
    {"__setitem__", g_setitem, "__setitem__(key, value)\nBinds the name key in the module."},
    {"__delitem__", g_delitem, "__delitem__(key)\nUnbinds the name key."},
    {"__contains__", g_contains, "__contains__(key)\nWhether the name key is bound."},
    {"__len__", g_len, "__len__()\nThe number of names bound."},
    {"get", g_get, "get(key, default=None, /)\nThe value of the name key, else default."},
    {"setdefault", g_setdefault, "setdefault(key, default=None, /)\nBinds key to default unless it is bound; its value."},
    {"pop", g_pop, "pop(key[, default])\nUnbinds key and returns its value (default, or KeyError, when unbound)."},
    {"update", g_update, "update([E, ]**F)\nBinds the names of E and F."},
};
static const char *const reading[] = {"keys", "values", "items", "copy", "__iter__", "__repr__", "__eq__"};

static nn_object *globals_ctor(void *ud, nn_object *args, nn_object *kwargs)
{
    repl_raise_exc(EXC_TypeError, "cannot create the module namespace's type");
    return NULL;
}

/* The class, made once per interpreter (kept in its type cache). */
static class_obj *globals_class(void)
{
    repl_interp *in = repl_current;
    static const char key[] = " globals"; /* no type's name has a space */
    nn_object *c = repl_nmap_get(&in->type_cache, key);
    if (c) return (class_obj *)c;
    class_obj *k = repl_mod_class("builtins", "dict", globals_ctor, methods, sizeof methods / sizeof *methods);
    for (size_t i = 0; k && i < sizeof reading / sizeof *reading; i++) {
        nn_object *f = nn_cfunction_new(reading[i], g_snapshot_call, (void *)reading[i], NULL);
        if (!f || repl_nmap_set(&k->dict, reading[i], f) < 0) NN_SET(k, NULL);
        NN_RELEASE(f);
    }
    if (k && repl_nmap_set(&in->type_cache, key, &k->ob) < 0) NN_SET(k, NULL);
    NN_RELEASE(k);
    return k ? (class_obj *)repl_nmap_get(&in->type_cache, key) : NULL;
}

bool repl_is_globals_dict(const nn_object *o)
{
    if (o->type != &repl_instance_type) return false;
    nn_object *c = repl_nmap_get(&repl_current->type_cache, " globals");
    return c && &((const instance_obj *)o)->cls->ob == c;
}

/* One view per namespace, made on first use, so that vars() is globals(). */
nn_object *repl_namespace_dict(nn_object *module)
{
    nn_object **slot = module ? &((module_obj *)module)->ns : &repl_current->globals_view;
    if (*slot) return nn_retain(*slot);
    class_obj *c = globals_class();
    nn_object *d = c ? repl_instance_new(c) : NULL;
    if (d && module && repl_nmap_set(&((instance_obj *)d)->attrs, MODULE_KEY, module) < 0) NN_SET(d, NULL);
    *slot = d;
    return d ? nn_retain(d) : NULL;
}

nn_object *repl_globals_dict(void) { return repl_namespace_dict(repl_current_module()); }

nn_object *repl_namespace_module(nn_object *proxy)
{
    return repl_nmap_get(&((instance_obj *)proxy)->attrs, MODULE_KEY);
}
