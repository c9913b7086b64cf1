/*
 * metaclass.c — metaclasses written in the language (class Meta(type)): their
 * own __new__ and __init__ run when a class statement names them (or a base
 * has them) and when they are called as Meta(name, bases, namespace); their
 * __call__ makes the instances of their classes (singletons), reaching
 * type.__call__ through super(). `super().__new__(mcs, name, bases, ns)` in a
 * metaclass is type.__new__ (type_new.c) with the metaclass set;
 * `super().__init__(...)` is type.__init__, which does nothing. A metaclass is
 * a class whose vbase is type (eval.c's class statement marks it); the
 * attributes of the metaclass that serve its classes are eval.c's
 * (repl_meta_method).
 */
#include <string.h>

#include "eval_int.h"

bool repl_is_metaclass(const class_obj *c)
{
    for (int i = 0; c && i < c->n_mro; i++)
        if (c->mro[i]->vbase == repl_current->type_cls) return true;
    return false;
}

bool repl_meta_defines(const class_obj *meta, const char *name)
{
    if (!repl_is_metaclass(meta)) return false;
    nn_object *f = repl_class_lookup(meta, name);
    if (f && f->type != &repl_function_type) { /* a staticmethod-wrapped __new__ is a function too */
        nn_object *fn = repl_get_attr((nn_object *)&meta->ob, name);
        bool is_fn = fn && fn->type == &repl_function_type;
        NN_RELEASE(fn);
        if (!fn) {
            nn_object *e = repl_take_exception();
            NN_RELEASE(e);
        }
        return is_fn;
    }
    return f != NULL;
}

/* The class's bases as a class statement listed them (object left out). */
static nn_object *bases_of(class_obj *c)
{
    if (c->bases) return nn_retain(c->bases);
    if (!c->base || c->base == repl_current->object_cls) return nn_tuple_new(0);
    return nn_tuple_pack(1, &c->base->ob);
}

/* The class body's namespace as a dict (its functions' owner cleared, so that
   the class made from it becomes their owner). */
static nn_object *namespace_of(class_obj *c, bool release_owner)
{
    nn_object *d = nn_dict_new();
    uint32_t pos = 0;
    const char *k;
    nn_object *v;
    while (d && repl_nmap_next(&c->dict, &pos, &k, &v)) {
        if (release_owner && v->type == &repl_function_type && ((func_obj *)v)->owner == &c->ob)
            ((func_obj *)v)->owner = NULL;
        if (nn_dict_set_str(d, k, v) < 0) NN_SET(d, NULL);
    }
    return d;
}

/* Calls meta's function name (a def in the metaclass) with first, then args. */
static nn_object *call_meta_fn(class_obj *meta, const char *name, nn_object *first, nn_object *const *args, int n,
                               nn_object *kwargs)
{
    nn_object *fn = repl_get_attr(&meta->ob, name); /* a plain function (a staticmethod's too) */
    if (!fn) return NULL;
    nn_object *all[n + 1];
    all[0] = first;
    for (int i = 0; i < n; i++) all[i + 1] = args[i];
    nn_object *r = repl_call_object(fn, all, n + 1, kwargs);
    NN_RELEASE(fn);
    return r;
}

/* The metaclass __init__ of a class just made, when it is an instance of meta. */
static int run_init(nn_object *cls, class_obj *meta, nn_object *const *args, int n, nn_object *kwargs)
{
    if (cls->type != &repl_class_type) return 0;
    class_obj *cm = ((class_obj *)cls)->meta;
    if (!cm || !repl_class_is_subclass(cm, meta) || !repl_meta_defines(cm, "__init__")) return 0;
    nn_object *r = call_meta_fn(cm, "__init__", cls, args, n, kwargs);
    if (r && !nn_is_none(r)) {
        repl_raise_exc(EXC_TypeError, "__init__() should return None, not '%s'", repl_value_type_name(r));
        NN_SET(r, NULL);
    }
    NN_RELEASE(r);
    return r || !nn_error_current() ? 0 : -1;
}

nn_object *repl_meta_class_statement(class_obj *c, class_obj *meta, nn_object *kwargs, nn_object *prepared)
{
    nn_object *name = nn_str_new(c->name), *bases = bases_of(c);
    nn_object *ns = prepared ? nn_retain(prepared) : namespace_of(c, true);
    nn_object *r = NULL;
    if (name && bases && ns) {
        nn_object *args[3] = {name, bases, ns};
        r = call_meta_fn(meta, "__new__", &meta->ob, args, 3, kwargs);
        if (r && run_init(r, meta, args, 3, kwargs) < 0) NN_SET(r, NULL);
    }
    NN_RELEASE(name);
    NN_RELEASE(bases);
    NN_RELEASE(ns);
    return r;
}

int repl_meta_class_init(class_obj *c, class_obj *meta, nn_object *kwargs)
{
    nn_object *name = nn_str_new(c->name), *bases = bases_of(c), *ns = namespace_of(c, false);
    int rc = -1;
    if (name && bases && ns) {
        nn_object *args[3] = {name, bases, ns};
        rc = run_init(&c->ob, meta, args, 3, kwargs);
    }
    NN_RELEASE(name);
    NN_RELEASE(bases);
    NN_RELEASE(ns);
    return rc;
}

/* type.__new__(mcs, name, bases, ns): the class, whose metaclass is mcs. */
static nn_object *type_dunder_new(void *ud, nn_object *args, nn_object *kwargs)
{
    size_t n = nn_tuple_len(args);
    nn_object *mcs = n ? nn_tuple_get(args, 0) : NULL;
    if (!mcs || mcs->type != &repl_class_type) {
        repl_raise_exc(EXC_TypeError, "type.__new__(X): X is not a type object (%s)", mcs ? repl_value_type_name(mcs) : "NULL");
        return NULL;
    }
    if (n != 4) {
        repl_raise_exc(EXC_TypeError, "type.__new__() takes exactly 3 arguments (%d given)", (int)n - 1);
        return NULL;
    }
    nn_object *c = repl_type_new(nn_tuple_get(args, 1), nn_tuple_get(args, 2), nn_tuple_get(args, 3), kwargs);
    if (c && repl_is_metaclass((class_obj *)mcs)) {
        class_obj *k = (class_obj *)c;
        NN_SET(k->meta, (class_obj *)nn_retain(mcs));
    }
    return c;
}

/* type.__call__(cls, *args, **kwargs), bound to cls. */
static nn_object *type_dunder_call(void *ud, nn_object *args, nn_object *kwargs)
{
    size_t n = nn_tuple_len(args);
    nn_object *cls = n ? nn_tuple_get(args, 0) : NULL;
    if (!cls || cls->type != &repl_class_type) {
        repl_raise_exc(EXC_TypeError, "descriptor '__call__' requires a 'type' object");
        return NULL;
    }
    return repl_class_call_plain((class_obj *)cls, n > 1 ? &((nn_tuple *)args)->items[1] : NULL, (int)n - 1, kwargs);
}

nn_object *repl_meta_super_attr(class_obj *start, nn_object *self, const char *name)
{
    if (!repl_is_metaclass(start) || self->type != &repl_class_type) return NULL;
    if (strcmp(name, "__new__") == 0) return nn_cfunction_new("__new__", type_dunder_new, NULL, NULL);
    if (strcmp(name, "__call__") == 0) {
        nn_object *f = nn_cfunction_new("__call__", type_dunder_call, NULL, NULL);
        nn_object *m = f ? repl_method_new(f, self) : NULL;
        NN_RELEASE(f);
        return m;
    }
    if (strcmp(name, "__init__") == 0) return nn_cfunction_new("__init__", repl_builtin_noop, NULL, NULL);
    return NULL;
}

nn_object *repl_meta_instantiate(class_obj *meta, nn_object *const *args, int n, nn_object *kwargs)
{
    nn_object *r;
    if (repl_meta_defines(meta, "__new__")) r = call_meta_fn(meta, "__new__", &meta->ob, args, n, kwargs);
    else {
        if (n != 3) {
            repl_raise_exc(EXC_TypeError, "type.__new__() takes exactly 3 arguments (%d given)", n);
            return NULL;
        }
        r = repl_type_new(args[0], args[1], args[2], kwargs);
        if (r) NN_SET(((class_obj *)r)->meta, (class_obj *)nn_retain(&meta->ob));
    }
    if (r && run_init(r, meta, args, n, kwargs) < 0) NN_SET(r, NULL);
    return r;
}

nn_object *repl_meta_type_attr(const char *name)
{
    if (strcmp(name, "__new__") == 0) return nn_cfunction_new("__new__", type_dunder_new, NULL, NULL);
    if (strcmp(name, "__call__") == 0) return nn_cfunction_new("__call__", type_dunder_call, NULL, NULL);
    if (strcmp(name, "__init__") == 0) return nn_cfunction_new("__init__", repl_builtin_noop, NULL, NULL);
    return NULL;
}

int repl_meta_winner(const class_obj *c, class_obj **meta)
{
    int n = c->bases ? (int)nn_tuple_len(c->bases) : 1;
    for (int i = 0; i < n; i++) {
        nn_object *b = c->bases ? nn_tuple_get(c->bases, (size_t)i) : (nn_object *)&c->base->ob;
        class_obj *m = b && b->type == &repl_class_type ? ((class_obj *)b)->meta : NULL;
        if (!m || !repl_is_metaclass(m) || m == *meta) continue;
        if (!*meta || !repl_is_metaclass(*meta) || repl_class_is_subclass(m, *meta)) *meta = m;
        else if (!repl_class_is_subclass(*meta, m))
            return repl_raise_exc(EXC_TypeError, "metaclass conflict: the metaclass of a derived class must be a "
                                                 "(non-strict) subclass of the metaclasses of all its bases");
    }
    return 0;
}

nn_object *repl_meta_prepare(class_obj *c, class_obj *meta, nn_object *kwargs)
{
    nn_object *name = nn_str_new(c->name), *bases = bases_of(c), *r = NULL;
    nn_object *fn = name && bases ? repl_get_attr(&meta->ob, "__prepare__") : NULL; /* a classmethod, bound */
    if (fn) {
        nn_object *args[2] = {name, bases};
        r = repl_call_object(fn, args, 2, kwargs);
    }
    NN_RELEASE(fn);
    NN_RELEASE(name);
    NN_RELEASE(bases);
    return r;
}

int repl_class_set_names(class_obj *c)
{
    /* the names first (a __set_name__ may add attributes to c), then the calls */
    const char **keys = c->dict.len ? repl_nmap_keys_ordered(&c->dict) : NULL;
    if (c->dict.len && !keys) return -1;
    nn_object *names = nn_list_new(0);
    for (uint32_t i = 0; names && i < c->dict.len; i++) {
        nn_object *v = repl_nmap_get(&c->dict, keys[i]);
        if (!v || v->type != &repl_instance_type || !repl_class_lookup(((instance_obj *)v)->cls, "__set_name__")) continue;
        nn_object *name = nn_str_new(keys[i]);
        if (!name || nn_list_append(names, name) < 0) NN_SET(names, NULL);
        NN_RELEASE(name);
    }
    nn_free(keys);
    int rc = names ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < nn_list_len(names); i++) {
        nn_object *name = nn_list_get(names, i), *v = repl_nmap_get(&c->dict, nn_str_cstr(name));
        if (!v) continue;
        nn_object *args[2] = {&c->ob, name};
        nn_retain(v);
        nn_object *r = repl_call_method(v, "__set_name__", args, 2);
        NN_RELEASE(v);
        if (!r) rc = -1;
        NN_RELEASE(r);
    }
    NN_RELEASE(names);
    return rc;
}
