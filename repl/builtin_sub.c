/*
 * builtin_sub.c — subclasses of the built-in types (class D(dict), class
 * L(list), class S(str), class T(tuple), class I(int), class F(float), sets,
 * OrderedDict, bytes, bytearray). As CPython lays out a subtype (the base's value, then the
 * instance's __dict__), an instance of such a class is a language instance
 * (instance_obj) that carries its built-in value (instance_obj.value, of the
 * class's vbase). The evaluator's operations (len, iteration, subscripts, in,
 * ==, repr, hash, arithmetic) use the class's own dunder methods first and the
 * value otherwise; the built-in type's methods (d.keys(), l.append(...)) act on
 * the value; `dict.__setitem__(self, k, v)`, `super().__init__(...)`,
 * `super().__getitem__(k)` and `tuple.__new__(cls, ...)` reach the built-in
 * type's slots here. Natives (torch, json) receive the value.
 */
#include <string.h>

#include "bytes_int.h"
#include "eval_int.h"

/* ------------------------------------------------------------ the class */

/* staticmethod and classmethod: a subclass's value is made by __new__ from the function
   (the first argument: CPython's __new__ takes any, its __init__ the function). */
static bool is_function_wrapper(const class_obj *b)
{
    return b == repl_current->staticmethod_cls || b == repl_current->classmethod_cls;
}

/* The built-in types a class statement may derive from; a mutable one's value
   starts empty and its __init__ fills it, an immutable one's is made by __new__. */
static bool subclassable(const class_obj *b, bool *is_mutable)
{
    repl_interp *in = repl_current;
    *is_mutable = b == in->list_cls || b == in->dict_cls || b == in->odict_cls || b == in->set_cls ||
                  b->ntype == &repl_bytearray_type || b == in->property_cls; /* property's __init__ sets its parts */
    return *is_mutable || b == in->int_cls || b == in->float_cls || b == in->str_cls || b == in->tuple_cls ||
           b == in->frozenset_cls || b->ntype == &repl_bytes_type || b == in->enumerate_cls || b == in->zip_cls ||
           b == in->map_cls || b == in->filter_cls || b == in->reversed_cls || is_function_wrapper(b);
}

static bool is_mutable_base(const class_obj *b)
{
    bool m;
    return subclassable(b, &m) && m;
}

bool repl_builtin_sub_allowed(const class_obj *b)
{
    bool m;
    return b == repl_current->object_cls || !b->ntype || subclassable(b, &m);
}

int repl_builtin_sub_init_class(class_obj *c)
{
    class_obj *found = NULL;
    for (int i = 1; i < c->n_mro; i++) {
        class_obj *k = c->mro[i];
        class_obj *v = k->vbase ? k->vbase : k->ntype && k != repl_current->object_cls ? k : NULL;
        if (!v) continue;
        if (!found) found = v;
        else if (found != v && !repl_class_is_subclass(found, v) && !repl_class_is_subclass(v, found))
            return repl_raise_exc(EXC_TypeError, "multiple bases have instance lay-out conflict");
    }
    c->vbase = found;
    return 0;
}

/* ------------------------------------------------------------ instances */

static nn_object *make_value(class_obj *vb, nn_object *const *args, int n, nn_object *kwargs)
{
    nn_object *t = nn_tuple_new((size_t)n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) nn_tuple_set(t, (size_t)i, nn_retain(args[i]));
    nn_object *v = vb->ctor(vb, t, kwargs);
    NN_RELEASE(t);
    return v;
}

nn_object *repl_builtin_sub_new(class_obj *c, nn_object *const *args, int n, nn_object *kwargs)
{
    class_obj *vb = c->vbase;
    nn_object *v = is_mutable_base(vb)        ? make_value(vb, NULL, 0, NULL)
                   : is_function_wrapper(vb) ? make_value(vb, args, n < 1 ? n : 1, NULL)
                                             : make_value(vb, args, n, kwargs);
    if (!v) return NULL;
    nn_object *o = repl_instance_new(c);
    if (!o) {
        NN_RELEASE(v);
        return NULL;
    }
    ((instance_obj *)o)->value = v;
    return o;
}

bool repl_builtin_sub_mutable(const class_obj *c) { return c->vbase && is_mutable_base(c->vbase); }

nn_object *repl_unwrap_value(nn_object *o)
{
    nn_object *v = repl_base_value(o);
    return v ? v : o;
}

/* ------------------------------------------------------------ slots */

/* The slot methods of the built-in types, looked up by name on the class
   (dict.__getitem__) or through super(); self is the value. */
enum {
    SL_GETITEM, SL_SETITEM, SL_DELITEM, SL_CONTAINS, SL_LEN, SL_ITER, SL_NEXT, SL_REPR, SL_STR, SL_HASH, SL_INIT,
    SL_BINARY /* then the binary operators, in repl_binop's order */
};
static const char *const slot_names[] = {"__getitem__", "__setitem__", "__delitem__", "__contains__", "__len__",
                                         "__iter__", "__next__", "__repr__", "__str__", "__hash__", "__init__"};
static const char *const binary_names[] = {"__add__", "__sub__", "__mul__", "__truediv__", "__floordiv__",
                                           "__mod__", "__pow__", "__matmul__", "__lt__", "__le__", "__gt__",
                                           "__ge__", "__eq__", "__ne__", "__and__", "__or__", "__xor__"};
#define N_SLOTS ((int)(sizeof slot_names / sizeof *slot_names))
#define N_BINARY ((int)(sizeof binary_names / sizeof *binary_names))

static int slot_index(const char *name)
{
    if (name[0] != '_' || name[1] != '_') return -1;
    for (int i = 0; i < N_SLOTS; i++)
        if (strcmp(name, slot_names[i]) == 0) return i;
    for (int i = 0; i < N_BINARY; i++)
        if (strcmp(name, binary_names[i]) == 0) return SL_BINARY + i;
    return -1;
}

/* Which slots a built-in type has, as CPython's (hasattr(5, '__iter__') is false,
   hasattr('s', '__iter__') true): every object compares, hashes, prints and
   initialises; the rest by type. */
#define SLOT(k) (UINT64_C(1) << (k))
#define BIN(op) SLOT(SL_BINARY + (op))
#define SEQUENCE (SLOT(SL_GETITEM) | SLOT(SL_CONTAINS) | SLOT(SL_LEN) | SLOT(SL_ITER))
#define MUTABLE_SEQUENCE (SEQUENCE | SLOT(SL_SETITEM) | SLOT(SL_DELITEM))
#define CONCAT (BIN(REPL_ADD) | BIN(REPL_MUL))
#define ARITH (BIN(REPL_ADD) | BIN(REPL_SUB) | BIN(REPL_MUL) | BIN(REPL_DIV) | BIN(REPL_FLOORDIV) | \
               BIN(REPL_MOD) | BIN(REPL_POW))
#define BITS (BIN(REPL_AND_BITS) | BIN(REPL_OR_BITS) | BIN(REPL_XOR_BITS))
#define OBJECT_SLOTS (SLOT(SL_REPR) | SLOT(SL_STR) | SLOT(SL_HASH) | SLOT(SL_INIT) | BIN(REPL_LT) | BIN(REPL_LE) | \
                      BIN(REPL_GT) | BIN(REPL_GE) | BIN(REPL_EQ) | BIN(REPL_NE))

static uint64_t type_slots(const class_obj *owner)
{
    repl_interp *in = repl_current;
    const nn_type *t = owner->ntype;
    uint64_t own = 0;
    if (owner == in->str_cls || t == &repl_bytes_type) own = SEQUENCE | CONCAT | BIN(REPL_MOD);
    else if (t == &repl_bytearray_type) own = MUTABLE_SEQUENCE | CONCAT | BIN(REPL_MOD);
    else if (owner == in->list_cls) own = MUTABLE_SEQUENCE | CONCAT;
    else if (owner == in->tuple_cls || owner == in->range_cls) own = SEQUENCE | (owner == in->tuple_cls ? CONCAT : 0);
    else if (owner == in->dict_cls || owner == in->odict_cls) own = MUTABLE_SEQUENCE | BIN(REPL_OR_BITS);
    else if (owner == in->set_cls || owner == in->frozenset_cls)
        own = SLOT(SL_CONTAINS) | SLOT(SL_LEN) | SLOT(SL_ITER) | BIN(REPL_SUB) | BITS;
    else if (owner == in->int_cls || owner == in->bool_cls) own = ARITH | BITS;
    else if (owner == in->float_cls) own = ARITH;
    else if (t == &repl_iter_type || (t && t->base == &repl_lazy_base)) own = SLOT(SL_ITER) | SLOT(SL_NEXT);
    return own | OBJECT_SLOTS;
}

static int nargs(nn_object *args, int want, const char *owner, const char *name)
{
    int got = (int)nn_tuple_len(args) - 1;
    if (got == want - 1) return 0;
    if (want == 2) /* CPython's METH_O message */
        return repl_raise_exc(EXC_TypeError, "%s.%s() takes exactly one argument (%d given)", owner, name, got);
    return repl_raise_exc(EXC_TypeError, "expected %d argument%s, got %d", want - 1, want == 2 ? "" : "s", got);
}

/* dict.__init__ / list.__init__ / set.__init__ on value self: update, or clear and extend. */
/* bytearray.__init__(self, *args): self's bytes become bytearray(*args)'s */
static nn_object *bytearray_init(nn_object *self, nn_object *args, nn_object *kwargs)
{
    nn_object *cls = repl_nmap_get(&repl_current->builtins, "bytearray");
    if (!cls || cls->type != &repl_class_type || !((class_obj *)cls)->ctor) {
        repl_raise_exc(EXC_TypeError, "bytearray is not available");
        return NULL;
    }
    size_t n = nn_tuple_len(args);
    nn_object *rest = nn_tuple_new(n - 1);
    for (size_t i = 1; rest && i < n; i++) nn_tuple_set(rest, i - 1, nn_retain(nn_tuple_get(args, i)));
    nn_object *fresh = rest ? ((class_obj *)cls)->ctor(cls, rest, kwargs) : NULL;
    NN_RELEASE(rest);
    nn_object *r = NULL;
    if (fresh) {
        nn_object *clear = repl_get_attr(self, "clear"), *done = clear ? repl_call_object(clear, NULL, 0, NULL) : NULL;
        nn_object *extend = done ? repl_get_attr(self, "extend") : NULL;
        r = extend ? repl_call_object(extend, &fresh, 1, NULL) : NULL;
        NN_RELEASE(clear);
        NN_RELEASE(done);
        NN_RELEASE(extend);
    }
    NN_RELEASE(fresh);
    return r;
}

static nn_object *slot_init(nn_object *self, nn_object *args, nn_object *kwargs)
{
    const nn_type *t = self->type;
    size_t n = nn_tuple_len(args);
    if (t == &repl_bytearray_type) return bytearray_init(self, args, kwargs);
    if (t == &repl_desc_type) return repl_property_init(self, args, kwargs);
    if (t != &nn_dict_type && t != &nn_list_type && t != &repl_set_type) return nn_retain(nn_none());
    if (t != &nn_dict_type && kwargs && nn_dict_len(kwargs)) {
        repl_raise_exc(EXC_TypeError, "%s() takes no keyword arguments", t == &nn_list_type ? "list" : "set");
        return NULL;
    }
    if (n > 2) {
        repl_raise_exc(EXC_TypeError, "%s expected at most 1 argument, got %d",
                       t == &nn_dict_type ? "dict" : t == &nn_list_type ? "list" : "set", (int)n - 1);
        return NULL;
    }
    if (t == &nn_dict_type) {
        nn_object *upd = repl_get_attr(self, "update");
        nn_object *r = upd ? repl_call_object(upd, n > 1 ? &((nn_tuple *)args)->items[1] : NULL, (int)n - 1, kwargs) : NULL;
        NN_RELEASE(upd);
        return r;
    }
    nn_object *items = n > 1 ? repl_to_list(nn_tuple_get(args, 1)) : nn_list_new(0);
    if (!items) return NULL;
    nn_object *clear = repl_get_attr(self, "clear"), *r = clear ? repl_call_object(clear, NULL, 0, NULL) : NULL;
    NN_RELEASE(clear);
    int rc = r ? 0 : -1;
    NN_RELEASE(r);
    for (size_t i = 0; rc == 0 && i < nn_list_len(items); i++)
        rc = t == &nn_list_type ? nn_list_append(self, nn_list_get(items, i)) : repl_set_add(self, nn_list_get(items, i));
    NN_RELEASE(items);
    return rc < 0 ? NULL : nn_retain(nn_none());
}

static nn_object *slot_call(void *ud, nn_object *args, nn_object *kwargs)
{
    int k = (int)(intptr_t)ud;
    nn_object *self = repl_unwrap_value(nn_tuple_get(args, 0)); /* the descriptor checked it */
    if (k == SL_INIT) return slot_init(self, args, kwargs);
    if (kwargs && nn_dict_len(kwargs)) {
        repl_raise_exc(EXC_TypeError, "%s() takes no keyword arguments", k < SL_BINARY ? slot_names[k] : binary_names[k - SL_BINARY]);
        return NULL;
    }
    int want = k == SL_SETITEM ? 3 : k == SL_GETITEM || k == SL_DELITEM || k == SL_CONTAINS || k >= SL_BINARY ? 2 : 1;
    if (nargs(args, want, repl_class_of(self)->name, k < SL_BINARY ? slot_names[k] : binary_names[k - SL_BINARY]) < 0)
        return NULL;
    nn_object *a = want > 1 ? repl_unwrap_value(nn_tuple_get(args, 1)) : NULL;
    switch (k) {
    case SL_GETITEM: return repl_get_item(self, a);
    case SL_SETITEM: return repl_set_item(self, a, nn_tuple_get(args, 2)) < 0 ? NULL : nn_retain(nn_none());
    case SL_DELITEM: return repl_del_item(self, a) < 0 ? NULL : nn_retain(nn_none());
    case SL_CONTAINS: {
        int r = repl_contains(self, nn_tuple_get(args, 1));
        return r < 0 ? NULL : nn_bool_new(r);
    }
    case SL_LEN: {
        int64_t n;
        return repl_length(self, &n) < 0 ? NULL : nn_int_new(n);
    }
    case SL_ITER: /* an iterator's __iter__ is itself: the instance, so its class's __next__ runs */
        if (self->type == &repl_iter_type || repl_is_lazy(self)) return nn_retain(nn_tuple_get(args, 0));
        return repl_get_iter(self);
    case SL_NEXT: { /* next() of the wrapped value: next(self) would call self's __next__ again */
        nn_object *one = nn_tuple_new(1);
        if (!one) return NULL;
        nn_tuple_set(one, 0, nn_retain(self));
        nn_object *r = repl_bi_next(NULL, one, NULL);
        NN_RELEASE(one);
        return r;
    }
    case SL_REPR:
    case SL_STR: {
        char *s = k == SL_REPR ? repl_obj_repr(self) : repl_obj_str(self);
        nn_object *r = s ? nn_str_new(s) : NULL;
        nn_free(s);
        return r;
    }
    case SL_HASH: {
        int64_t h = repl_obj_hash(self);
        return h == -1 && nn_error_current() ? NULL : nn_int_new(h);
    }
    default: return repl_binary_op((repl_binop)(k - SL_BINARY), self, a);
    }
}

/* ------------------------------------------------------------ method descriptors */

/* A method of a built-in type reached through the class (dict.keys,
   dict.__setitem__, str.upper): calling it checks that its first argument is
   an instance of the type (or of a subclass: then its value is used). */
typedef struct mdescr {
    nn_object ob;
    class_obj *owner; /* owned: the built-in type */
    nn_object *func;  /* owned: the C function, self first */
    char *name;       /* owned */
} mdescr;

static void mdescr_dealloc(nn_object *o)
{
    mdescr *d = (mdescr *)o;
    NN_RELEASE(&d->owner->ob);
    NN_RELEASE(d->func);
    nn_free(d->name);
    nn_free(d);
}

/* CPython's dict.__getitem__, dict.__contains__, list.__getitem__ and
   set.__contains__ are methods; its other slots print as slot wrappers. */
static bool is_slot_wrapper(const mdescr *d)
{
    repl_interp *in = repl_current;
    if (slot_index(d->name) < 0) return false;
    bool getitem = strcmp(d->name, "__getitem__") == 0, has = strcmp(d->name, "__contains__") == 0;
    const class_obj *o = d->owner == in->odict_cls ? in->dict_cls : d->owner;
    return !((o == in->dict_cls && (getitem || has)) || (o == in->list_cls && getitem) ||
             ((o == in->set_cls || o == in->frozenset_cls) && has));
}

static char *mdescr_repr(nn_object *o)
{
    mdescr *d = (mdescr *)o;
    sbuf b = {0};
    repl_sb_printf(&b, "<%s '%s' of '%s' objects>", is_slot_wrapper(d) ? "slot wrapper" : "method", d->name,
                   d->owner->name);
    return repl_sb_finish(&b);
}

static nn_object *mdescr_call(nn_object *o, nn_object *args, nn_object *kwargs)
{
    mdescr *d = (mdescr *)o;
    size_t n = nn_tuple_len(args);
    if (n == 0) {
        repl_raise_exc(EXC_TypeError, "descriptor '%s' of '%s' object needs an argument", d->name, d->owner->name);
        return NULL;
    }
    nn_object *self = nn_tuple_get(args, 0);
    class_obj *sc = repl_class_of(self);
    if (!sc || !repl_class_is_subclass(sc, d->owner)) {
        if (is_slot_wrapper(d))
            repl_raise_exc(EXC_TypeError, "descriptor '%s' requires a '%s' object but received a '%s'", d->name,
                           d->owner->name, repl_value_type_name(self));
        else
            repl_raise_exc(EXC_TypeError, "descriptor '%s' for '%s' objects doesn't apply to a '%s' object", d->name,
                           d->owner->name, repl_value_type_name(self));
        return NULL;
    }
    nn_object *v = repl_base_value(self);
    if (!v || d->func->type != &nn_cfunction_type || slot_index(d->name) >= 0) return nn_call(d->func, args, kwargs);
    nn_object *t = nn_tuple_new(n);
    if (!t) return NULL;
    nn_tuple_set(t, 0, nn_retain(v));
    for (size_t i = 1; i < n; i++) nn_tuple_set(t, i, nn_retain(nn_tuple_get(args, i)));
    nn_object *r = nn_call(d->func, t, kwargs);
    NN_RELEASE(t);
    return r;
}

static nn_object *mdescr_getattr(nn_object *o, const char *name)
{
    mdescr *d = (mdescr *)o;
    if (strcmp(name, "__name__") == 0 || strcmp(name, "__qualname__") == 0)
        return name[2] == 'n' ? nn_str_new(d->name) : nn_str_format("%s.%s", d->owner->name, d->name);
    if (strcmp(name, "__objclass__") == 0) return nn_retain(&d->owner->ob);
    if (strcmp(name, "__doc__") == 0) return repl_get_attr(d->func, "__doc__");
    repl_raise_exc(EXC_AttributeError, "'method_descriptor' object has no attribute '%s'", name);
    return NULL;
}

static void mdescr_traverse(nn_object *o, nn_visit_fn visit, void *arg)
{
    mdescr *d = (mdescr *)o;
    visit(&d->owner->ob, arg);
    visit(d->func, arg);
}

const nn_type repl_mdescr_type = {.name = "method_descriptor", .dealloc = mdescr_dealloc, .repr = mdescr_repr,
                                  .call = mdescr_call, .getattr = mdescr_getattr, .traverse = mdescr_traverse};

static nn_object *mdescr_new(class_obj *owner, nn_object *func, const char *name)
{
    mdescr *d = nn_calloc(1, sizeof *d);
    if (!d) return NULL;
    nn_object_init(&d->ob, &repl_mdescr_type);
    d->owner = (class_obj *)nn_retain(&owner->ob);
    d->func = nn_retain(func);
    d->name = nn_strdup(name);
    if (!d->name) {
        NN_RELEASE(d);
        return NULL;
    }
    return &d->ob;
}

nn_object *repl_mdescr_func(nn_object *o) { return o->type == &repl_mdescr_type ? ((mdescr *)o)->func : o; }

const char *repl_mdescr_bound_kind(nn_object *o, const char **name)
{
    if (o->type != &repl_mdescr_type) return NULL;
    const mdescr *d = (const mdescr *)o;
    *name = d->name;
    return is_slot_wrapper(d) ? "method-wrapper" : "built-in method";
}

/* T.__new__(cls, *args): an instance of cls (a subclass of T) with the value T(*args). */
static nn_object *builtin_new(void *ud, nn_object *args, nn_object *kwargs)
{
    class_obj *owner = ud;
    size_t n = nn_tuple_len(args);
    nn_object *cls = n ? nn_tuple_get(args, 0) : NULL;
    if (!cls || cls->type != &repl_class_type) {
        repl_raise_exc(EXC_TypeError, "%s.__new__(X): X is not a type object (%s)", owner->name,
                       cls ? repl_value_type_name(cls) : "NULL");
        return NULL;
    }
    class_obj *c = (class_obj *)cls;
    if (c != owner && c->vbase != owner && !(c->vbase && repl_class_is_subclass(c->vbase, owner))) {
        repl_raise_exc(EXC_TypeError, "%s.__new__(%s): %s is not a subtype of %s", owner->name, c->name, c->name,
                       owner->name);
        return NULL;
    }
    nn_object *const *rest = n > 1 ? &((nn_tuple *)args)->items[1] : NULL;
    if (c == owner) return make_value(owner, rest, (int)n - 1, kwargs);
    return repl_builtin_sub_new(c, rest, (int)n - 1, kwargs);
}

static nn_object *slot_descr(class_obj *owner, const char *name);

/* The class's attribute name found in built-in type owner's dict (v, or NULL
   for a slot): what `owner.name` gives. NULL without an error when it has none. */
nn_object *repl_builtin_class_attr(class_obj *owner, const char *name, nn_object *v)
{
    if (!owner->ntype || owner == repl_current->object_cls || owner == repl_current->type_cls) return NULL;
    if (v) return v->type == &nn_cfunction_type ? mdescr_new(owner, v, name) : NULL;
    bool mutable;
    if (!subclassable(owner, &mutable)) return NULL;
    if (strcmp(name, "__new__") == 0) return nn_cfunction_new("__new__", builtin_new, owner, NULL);
    return slot_descr(owner, name);
}

/* owner's slot method name (a descriptor), NULL without an error when owner has none. */
static nn_object *slot_descr(class_obj *owner, const char *name)
{
    int k = slot_index(name);
    if (k < 0 || !(type_slots(owner) & SLOT(k))) return NULL;
    nn_object *f = nn_cfunction_new(name, slot_call, (void *)(intptr_t)k, NULL);
    nn_object *d = f ? mdescr_new(owner, f, name) : NULL;
    NN_RELEASE(f);
    return d;
}

nn_object *repl_builtin_value_slot(nn_object *self, const char *name)
{
    class_obj *c = repl_class_of(self);
    if (!c || c == repl_current->object_cls || c == repl_current->type_cls) return NULL;
    nn_object *d = slot_descr(c, name);
    nn_object *m = d ? repl_method_new(d, self) : NULL;
    NN_RELEASE(d);
    return m;
}

/* The first built-in type in c's order (from index from) when no language
   class before it defines name, with *v its own attribute name (or a base
   built-in type's: OrderedDict then dict), NULL when it has none; NULL when a
   language class defines name or c derives from no built-in type. */
static class_obj *builtin_first(const class_obj *c, int from, const char *name, nn_object **v)
{
    *v = NULL;
    class_obj *first = NULL;
    for (int i = from; c->mro && i < c->n_mro; i++) {
        class_obj *k = c->mro[i];
        if (k == repl_current->object_cls) break;
        nn_object *x = repl_nmap_get(&k->dict, name);
        if (!k->ntype) {
            if (x) return NULL;
            continue;
        }
        if (!first) first = k;
        if (x) {
            *v = x;
            return k;
        }
    }
    return first;
}

nn_object *repl_builtin_sub_class_getattr(class_obj *c, const char *name)
{
    nn_object *v;
    class_obj *owner = builtin_first(c, 0, name, &v);
    return owner ? repl_builtin_class_attr(owner, name, v) : NULL;
}

nn_object *repl_builtin_sub_lookup(class_obj *c, class_obj *start, nn_object *self, const char *name)
{
    if (!c->vbase || !c->mro) return NULL;
    int from = 0;
    if (start) {
        while (from < c->n_mro && c->mro[from] != start) from++;
        if (from == c->n_mro) return NULL;
        from++;
    }
    nn_object *v;
    class_obj *owner = builtin_first(c, from, name, &v);
    if (!owner) return NULL;
    if (v && v->type != &nn_cfunction_type) return NULL; /* classmethods and the like: the ordinary path */
    if (!v && strcmp(name, "__new__") == 0) return repl_builtin_class_attr(owner, name, NULL);
    nn_object *value = repl_base_value(self);
    if (v && !value && self->type == &repl_instance_type) { /* an instance left without its value */
        repl_raise_exc(EXC_TypeError, "descriptor '%s' for '%s' objects doesn't apply to a '%s' object", name,
                       owner->name, repl_value_type_name(self));
        return NULL;
    }
    if (v) return value ? repl_method_new(v, value) : NULL;
    nn_object *d = repl_builtin_class_attr(owner, name, NULL);
    if (!d) return NULL;
    nn_object *m = repl_method_new(d, self);
    NN_RELEASE(d);
    return m;
}

/* ------------------------------------------------------------ instances' attributes and items */

int repl_instance_set_dict(instance_obj *self, nn_object *value)
{
    nn_object *d = repl_unwrap_value(value);
    if (!nn_is_dict(d))
        return repl_raise_exc(EXC_TypeError, "__dict__ must be set to a dictionary, not a '%s'", repl_value_type_name(value));
    if (value == &self->ob) { /* AttrDict: the attributes are the items */
        repl_nmap_clear(&self->attrs);
        NN_SET(self->dict, NULL);
        self->attrs_in_value = true;
        return 0;
    }
    size_t pos = 0;
    nn_object *k, *v;
    while (nn_dict_next(d, &pos, &k, &v))
        if (!nn_is_str(k))
            return repl_raise_exc(EXC_TypeError, "attribute name must be string, not '%s'", repl_value_type_name(k));
    repl_nmap_clear(&self->attrs);
    NN_SET(self->dict, NULL);
    self->attrs_in_value = false;
    if (d == value) return repl_instance_dict_adopt(self, d); /* a dict: from now on its __dict__ */
    pos = 0;
    while (nn_dict_next(d, &pos, &k, &v))
        if (repl_nmap_set(&self->attrs, nn_str_cstr(k), v) < 0) return -1;
    return 0;
}

nn_object *repl_builtin_sub_value_attr(nn_object *self, const char *name)
{
    nn_object *r = repl_get_attr(repl_base_value(self), name);
    if (r || !repl_clear_attribute_error()) return r;
    repl_raise_exc(EXC_AttributeError, "'%s' object has no attribute '%s'", repl_value_type_name(self), name);
    return NULL;
}

nn_object *repl_builtin_sub_getitem(nn_object *self, nn_object *key)
{
    nn_object *v = repl_base_value(self);
    if (!nn_is_dict(v) || !repl_class_lookup(((instance_obj *)self)->cls, "__missing__")) return repl_get_item(v, key);
    if (repl_obj_hash(key) == -1 && nn_error_current()) return NULL;
    nn_object *r = nn_dict_get(v, key);
    if (r) return nn_retain(r);
    if (nn_error_current()) return NULL;
    return repl_call_method(self, "__missing__", &key, 1);
}

/* A class whose body defines __eq__ but not __hash__ gets __hash__ = None: its
   instances are unhashable, as CPython's type creation makes them. 0 or -1. */
int repl_class_hash_none(class_obj *c)
{
    if (!repl_nmap_get(&c->dict, "__eq__") || repl_nmap_get(&c->dict, "__hash__")) return 0;
    return repl_nmap_set(&c->dict, "__hash__", nn_none());
}

/* ------------------------------------------------------------ natives */

/* Whether a tuple or list holds an instance carrying a built-in value. */
static bool items_carry(nn_object *o)
{
    bool tuple = o->type == &nn_tuple_type;
    if (!tuple && o->type != &nn_list_type) return false;
    size_t n = tuple ? nn_tuple_len(o) : nn_list_len(o);
    for (size_t i = 0; i < n; i++)
        if (repl_base_value(tuple ? nn_tuple_get(o, i) : nn_list_get(o, i))) return true;
    return false;
}

/* An argument as natives receive it: an instance's built-in value, and a tuple or
   list whose items carry such values (torch.zeros((np.int64(2), 3))) with theirs. */
static nn_object *native_arg(nn_object *o)
{
    if (repl_base_value(o)) return nn_retain(repl_base_value(o));
    if (!items_carry(o)) return nn_retain(o);
    bool tuple = o->type == &nn_tuple_type;
    size_t n = tuple ? nn_tuple_len(o) : nn_list_len(o);
    nn_object *r = tuple ? nn_tuple_new(n) : nn_list_new(n);
    for (size_t i = 0; r && i < n; i++) {
        nn_object *v = repl_unwrap_value(tuple ? nn_tuple_get(o, i) : nn_list_get(o, i));
        if (tuple) nn_tuple_set(r, i, nn_retain(v));
        else if (nn_list_append(r, v) < 0) NN_SET(r, NULL);
    }
    return r;
}

nn_object *repl_native_args(nn_object *args)
{
    size_t n = nn_tuple_len(args), i = 0;
    while (i < n && !repl_base_value(nn_tuple_get(args, i)) && !items_carry(nn_tuple_get(args, i))) i++;
    if (i == n) return nn_retain(args);
    nn_object *t = nn_tuple_new(n);
    for (i = 0; t && i < n; i++) {
        nn_object *v = native_arg(nn_tuple_get(args, i));
        if (!v) NN_SET(t, NULL);
        else nn_tuple_set(t, i, v);
    }
    return t;
}

nn_object *repl_native_kwargs(nn_object *kwargs)
{
    if (!kwargs) return NULL;
    size_t pos = 0;
    nn_object *k, *v;
    bool any = false;
    while (!any && nn_dict_next(kwargs, &pos, &k, &v)) any = repl_base_value(v) != NULL;
    if (!any) return nn_retain(kwargs);
    nn_object *d = nn_dict_new();
    pos = 0;
    while (d && nn_dict_next(kwargs, &pos, &k, &v))
        if (nn_dict_set(d, k, repl_unwrap_value(v)) < 0) NN_SET(d, NULL);
    return d;
}

char *repl_builtin_sub_repr(nn_object *self)
{
    nn_object *v = repl_base_value(self);
    char *r = repl_obj_repr(v);
    if (r && v->type == &repl_set_type) { /* St({3}), St() as CPython's set and frozenset reprs name the subclass */
        sbuf b = {0};
        const char *inner = strchr(r, '(');
        if (nn_dict_len(((set_obj *)v)->d) == 0) repl_sb_printf(&b, "%s()", repl_value_type_name(self));
        else if (inner) repl_sb_printf(&b, "%s%s", repl_value_type_name(self), inner);
        else repl_sb_printf(&b, "%s(%s)", repl_value_type_name(self), r);
        nn_free(r);
        return repl_sb_finish(&b);
    }
    static const char ba[] = "bytearray(";
    if (r && v->type == &repl_bytearray_type && strncmp(r, ba, sizeof ba - 1) == 0) { /* BA(b'x'), as CPython's */
        sbuf b = {0};
        repl_sb_printf(&b, "%s(%s", repl_value_type_name(self), r + sizeof ba - 1);
        nn_free(r);
        return repl_sb_finish(&b);
    }
    static const char od[] = "OrderedDict";
    if (!r || !nn_is_dict(v) || !nn_dict_is_ordered(v) || strncmp(r, od, sizeof od - 1) != 0) return r;
    sbuf b = {0}; /* Ordered([('x', 1)]), as CPython's OrderedDict repr names the subclass */
    repl_sb_printf(&b, "%s%s", repl_value_type_name(self), r + sizeof od - 1);
    nn_free(r);
    return repl_sb_finish(&b);
}
