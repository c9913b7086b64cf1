/*
 * descriptors.c — the built-in descriptor classes property, staticmethod and
 * classmethod: their objects (desc_obj), constructors, reprs, attributes
 * (fget/fset/fdel, __func__, __isabstractmethod__, __doc__) and the methods
 * CPython gives the classes (getter/setter/deleter, __get__/__set__/__delete__).
 * The evaluator binds them when it reads a class attribute (eval.c class_attr);
 * a class deriving from property (builtin_sub.c) carries one as its value.
 */
#include <string.h>

#include "eval_int.h"

static const char *const kind_names[] = {"staticmethod", "classmethod", "property"};

static void desc_dealloc(nn_object *self)
{
    desc_obj *d = (desc_obj *)self;
    NN_RELEASE(d->fget);
    NN_RELEASE(d->fset);
    NN_RELEASE(d->fdel);
    NN_RELEASE(d->doc);
    nn_free(d->name);
    nn_free(self);
}

/* <property object at 0x...>, <staticmethod(<function C.f at 0x...>)> */
static char *desc_repr(nn_object *self)
{
    desc_obj *d = (desc_obj *)self;
    sbuf b = {0};
    if (d->kind == DESC_PROPERTY || !d->fget) {
        repl_sb_printf(&b, "<%s object at %p>", kind_names[d->kind], (void *)self);
    } else {
        char *f = repl_obj_repr(d->fget);
        if (!f) return NULL;
        repl_sb_printf(&b, "<%s(%s)>", kind_names[d->kind], f);
        nn_free(f);
    }
    return repl_sb_finish(&b);
}

static nn_object *desc_getattr(nn_object *obj, const char *name);
const nn_type repl_desc_type = {.name = "property", .dealloc = desc_dealloc, .repr = desc_repr, .getattr = desc_getattr};

static nn_object *desc_new(int kind, nn_object *fget, nn_object *fset, nn_object *fdel, nn_object *doc)
{
    desc_obj *d = nn_calloc(1, sizeof *d);
    if (!d) return NULL;
    nn_object_init(&d->ob, &repl_desc_type);
    d->kind = kind;
    d->fget = fget ? nn_retain(fget) : NULL;
    d->fset = fset ? nn_retain(fset) : NULL;
    d->fdel = fdel ? nn_retain(fdel) : NULL;
    d->doc = doc ? nn_retain(doc) : NULL;
    return &d->ob;
}

const char *repl_desc_type_name(const nn_object *d) { return kind_names[((const desc_obj *)d)->kind]; }

class_obj *repl_desc_class(const nn_object *d)
{
    repl_interp *in = repl_current;
    int k = ((const desc_obj *)d)->kind;
    return k == DESC_STATIC ? in->staticmethod_cls : k == DESC_CLASS ? in->classmethod_cls : in->property_cls;
}

/* ------------------------------------------------------------ constructors */

/* property(fget=None, fset=None, fdel=None, doc=None): the four parts, borrowed (NULL for None) */
static int property_parts(nn_object *args, nn_object *kwargs, nn_object *parts[4])
{
    static const char *const names[] = {"fget", "fset", "fdel", "doc"};
    size_t n = nn_tuple_len(args);
    if (n > 4) return repl_raise_exc(EXC_TypeError, "property() takes at most 4 arguments (%zu given)", n);
    for (size_t i = 0; i < 4; i++) parts[i] = i < n ? nn_tuple_get(args, i) : NULL;
    size_t pos = 0;
    nn_object *k, *v;
    while (kwargs && nn_dict_next(kwargs, &pos, &k, &v)) {
        int i = 0;
        while (i < 4 && strcmp(names[i], nn_str_cstr(k)) != 0) i++;
        if (i == 4) return repl_raise_exc(EXC_TypeError, "property() got an unexpected keyword argument '%s'", nn_str_cstr(k));
        if (parts[i])
            return repl_raise_exc(EXC_TypeError, "argument for property() given by name ('%s') and position (%d)", names[i], i + 1);
        parts[i] = v;
    }
    for (int i = 0; i < 4; i++)
        if (parts[i] && nn_is_none(parts[i])) parts[i] = NULL;
    return 0;
}

nn_object *repl_ctor_property(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)ud;
    nn_object *p[4];
    return property_parts(args, kwargs, p) < 0 ? NULL : desc_new(DESC_PROPERTY, p[0], p[1], p[2], p[3]);
}

static nn_object *wrapper_ctor(int kind, nn_object *args, nn_object *kwargs)
{
    size_t n = nn_tuple_len(args);
    if (kwargs && nn_dict_len(kwargs)) {
        repl_raise_exc(EXC_TypeError, "%s() takes no keyword arguments", kind_names[kind]);
        return NULL;
    }
    if (n != 1) {
        repl_raise_exc(EXC_TypeError, "%s expected 1 argument, got %zu", kind_names[kind], n);
        return NULL;
    }
    return desc_new(kind, nn_tuple_get(args, 0), NULL, NULL, NULL);
}

nn_object *repl_ctor_staticmethod(void *ud, nn_object *args, nn_object *kwargs) { return wrapper_ctor(DESC_STATIC, args, kwargs); }
nn_object *repl_ctor_classmethod(void *ud, nn_object *args, nn_object *kwargs) { return wrapper_ctor(DESC_CLASS, args, kwargs); }

static void set_part(nn_object **slot, nn_object *v)
{
    nn_object *old = *slot;
    *slot = v ? nn_retain(v) : NULL;
    NN_RELEASE(old);
}

nn_object *repl_property_init(nn_object *self, nn_object *args, nn_object *kwargs)
{
    desc_obj *d = (desc_obj *)self;
    size_t n = nn_tuple_len(args);
    if (d->kind != DESC_PROPERTY) { /* staticmethod.__init__(self, f) in a subclass's __init__ */
        if (kwargs && nn_dict_len(kwargs)) {
            repl_raise_exc(EXC_TypeError, "%s() takes no keyword arguments", kind_names[d->kind]);
            return NULL;
        }
        if (n != 2) {
            repl_raise_exc(EXC_TypeError, "%s expected 1 argument, got %zu", kind_names[d->kind], n ? n - 1 : 0);
            return NULL;
        }
        set_part(&d->fget, nn_tuple_get(args, 1));
        return nn_retain(nn_none());
    }
    nn_object *rest = nn_tuple_new(n ? n - 1 : 0), *p[4];
    if (!rest) return NULL;
    for (size_t i = 1; i < n; i++) nn_tuple_set(rest, i - 1, nn_retain(nn_tuple_get(args, i)));
    int rc = property_parts(rest, kwargs, p);
    NN_RELEASE(rest);
    if (rc < 0) return NULL;
    set_part(&d->fget, p[0]);
    set_part(&d->fset, p[1]);
    set_part(&d->fdel, p[2]);
    set_part(&d->doc, p[3]);
    return nn_retain(nn_none());
}

/* ------------------------------------------------------------ methods */

/* self of a method of the classes: a descriptor, or an instance of a subclass carrying one */
static desc_obj *self_desc(nn_object *args, const char *meth, int want_args)
{
    nn_object *self = nn_tuple_len(args) ? repl_unwrap_value(nn_tuple_get(args, 0)) : NULL;
    if (!self || self->type != &repl_desc_type) {
        repl_raise_exc(EXC_TypeError, "descriptor '%s' requires a 'property' object", meth);
        return NULL;
    }
    int got = (int)nn_tuple_len(args) - 1;
    if (want_args >= 0 && got != want_args) {
        if (want_args == 1) repl_raise_exc(EXC_TypeError, "%s() takes exactly one argument (%d given)", meth, got);
        else repl_raise_exc(EXC_TypeError, "expected %d arguments, got %d", want_args, got);
        return NULL;
    }
    return (desc_obj *)self;
}

/* property.getter / setter / deleter (which 0, 1, 2): a copy with that function */
static nn_object *prop_with(int which, nn_object *args)
{
    static const char *const names[] = {"getter", "setter", "deleter"};
    desc_obj *d = self_desc(args, names[which], 1);
    if (!d) return NULL;
    nn_object *fn = nn_tuple_get(args, 1);
    if (nn_is_none(fn)) fn = NULL;
    nn_object *r = desc_new(DESC_PROPERTY, which == 0 ? fn : d->fget, which == 1 ? fn : d->fset,
                            which == 2 ? fn : d->fdel, d->doc);
    if (r && d->name) ((desc_obj *)r)->name = nn_strdup(d->name);
    return r;
}
nn_object *repl_property_getter(void *ud, nn_object *args, nn_object *kwargs) { return prop_with(0, args); }
nn_object *repl_property_setter(void *ud, nn_object *args, nn_object *kwargs) { return prop_with(1, args); }
nn_object *repl_property_deleter(void *ud, nn_object *args, nn_object *kwargs) { return prop_with(2, args); }

/* __get__(self, instance, owner=None, /) */
nn_object *repl_desc_get(void *ud, nn_object *args, nn_object *kwargs)
{
    size_t n = nn_tuple_len(args);
    desc_obj *d = self_desc(args, "__get__", -1);
    if (!d) return NULL;
    if (n < 2 || n > 3) {
        repl_raise_exc(EXC_TypeError, "expected 1 or 2 arguments, got %d", (int)n - 1);
        return NULL;
    }
    nn_object *obj = nn_tuple_get(args, 1), *owner = n > 2 ? nn_tuple_get(args, 2) : NULL;
    if (owner && nn_is_none(owner)) owner = NULL;
    if (nn_is_none(obj)) obj = NULL;
    if (!obj && !owner) {
        repl_raise_exc(EXC_TypeError, "__get__(None, None) is invalid");
        return NULL;
    }
    if (d->kind == DESC_PROPERTY && !obj) return nn_retain(&d->ob);
    class_obj *c = owner && owner->type == &repl_class_type ? (class_obj *)owner : repl_class_of(obj);
    return repl_bind_class_attr(&d->ob, obj, c);
}

nn_object *repl_property_set(void *ud, nn_object *args, nn_object *kwargs)
{
    desc_obj *d = self_desc(args, "__set__", 2);
    if (!d) return NULL;
    nn_object *obj = nn_tuple_get(args, 1);
    if (!d->fset) {
        repl_raise_exc(EXC_AttributeError, "property '%s' of '%s' object has no setter", d->name ? d->name : "?",
                       repl_value_type_name(obj));
        return NULL;
    }
    nn_object *a[2] = {obj, nn_tuple_get(args, 2)};
    return repl_call_object(d->fset, a, 2, NULL);
}

nn_object *repl_property_delete(void *ud, nn_object *args, nn_object *kwargs)
{
    desc_obj *d = self_desc(args, "__delete__", 1);
    if (!d) return NULL;
    nn_object *obj = nn_tuple_get(args, 1);
    if (!d->fdel) {
        repl_raise_exc(EXC_AttributeError, "property '%s' of '%s' object has no deleter", d->name ? d->name : "?",
                       repl_value_type_name(obj));
        return NULL;
    }
    return repl_call_object(d->fdel, &obj, 1, NULL);
}

/* The descriptor's own attributes: new reference, or NULL without an error when it has none by name. */
static nn_object *own_attr(desc_obj *d, const char *name)
{
    bool prop = d->kind == DESC_PROPERTY;
    if (prop && (!strcmp(name, "fget") || !strcmp(name, "fset") || !strcmp(name, "fdel"))) {
        nn_object *part = name[1] == 'g' ? d->fget : name[1] == 's' ? d->fset : d->fdel;
        return nn_retain(part ? part : nn_none());
    }
    if (!prop && (!strcmp(name, "__func__") || !strcmp(name, "__wrapped__"))) return nn_retain(d->fget);
    if (!strcmp(name, "__isabstractmethod__")) { /* abc: any of its functions is abstract */
        bool abstract = false;
        for (int i = 0; i < 3; i++) {
            nn_object *fn = i == 0 ? d->fget : i == 1 ? d->fset : d->fdel;
            if (fn && fn->type == &repl_function_type && ((func_obj *)fn)->abstract) abstract = true;
        }
        return nn_bool_new(abstract);
    }
    if (!strcmp(name, "__doc__")) {
        if (d->doc) return nn_retain(d->doc);
        return d->fget ? repl_get_attr(d->fget, "__doc__") : nn_retain(nn_none());
    }
    if (!prop && d->fget && (!strcmp(name, "__name__") || !strcmp(name, "__qualname__") || !strcmp(name, "__module__")))
        return repl_get_attr(d->fget, name); /* 3.10's wrappers copy them */
    if (!strcmp(name, "__class__")) return nn_retain(&repl_desc_class(&d->ob)->ob);
    return NULL;
}

static nn_object *desc_getattr(nn_object *obj, const char *name)
{
    desc_obj *d = (desc_obj *)obj;
    nn_object *v = own_attr(d, name);
    if (v || nn_error_current()) return v;
    class_obj *c = repl_desc_class(obj);
    nn_object *cv = repl_class_lookup(c, name);
    if (cv) return repl_bind_class_attr(cv, obj, c);
    repl_raise_exc(EXC_AttributeError, "'%s' object has no attribute '%s'", kind_names[d->kind], name);
    return NULL;
}

/* a subclass instance's fget, fset, ...: a property over the value's own attribute */
static nn_object *part_getter(void *ud, nn_object *args, nn_object *kwargs)
{
    desc_obj *d = self_desc(args, (const char *)ud, 0);
    if (!d) return NULL;
    nn_object *v = own_attr(d, (const char *)ud);
    if (!v && !nn_error_current())
        repl_raise_exc(EXC_AttributeError, "'%s' object has no attribute '%s'", kind_names[d->kind], (const char *)ud);
    return v;
}

static int put_part(class_obj *c, const char *name)
{
    nn_object *f = nn_cfunction_new(name, part_getter, (void *)name, NULL);
    nn_object *p = f ? desc_new(DESC_PROPERTY, f, NULL, NULL, NULL) : NULL;
    int rc = p ? repl_nmap_set(&c->dict, name, p) : -1;
    NN_RELEASE(f);
    NN_RELEASE(p);
    return rc;
}

int repl_descriptor_classes_init(repl_interp *in)
{
    static const char *const prop_parts[] = {"fget", "fset", "fdel", "__isabstractmethod__"};
    for (int i = 0; i < 4; i++)
        if (put_part(in->property_cls, prop_parts[i]) < 0) return -1;
    class_obj *wrappers[2] = {in->staticmethod_cls, in->classmethod_cls};
    for (int i = 0; i < 2; i++)
        if (put_part(wrappers[i], "__func__") < 0 || put_part(wrappers[i], "__isabstractmethod__") < 0) return -1;
    return 0;
}
