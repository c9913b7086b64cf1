/*
 * object_slots.c — the methods every class inherits from object, reached as
 * object.__setattr__(self, k, v), super().__setattr__(k, v) in a class that
 * defines its own __setattr__, super().__repr__(), C.__hash__ = object.__hash__:
 * object's own behaviour, whatever the class overrides.
 */
#include <string.h>

#include "eval_int.h"

#define NARGS ((int)nn_tuple_len(args))
#define ARG(i) nn_tuple_get(args, (size_t)(i))

enum { OS_SETATTR, OS_DELATTR, OS_GETATTRIBUTE, OS_REPR, OS_STR, OS_HASH, OS_EQ, OS_NE, OS_INIT };
static const char *const names[] = {"__setattr__", "__delattr__", "__getattribute__", "__repr__", "__str__",
                                    "__hash__", "__eq__", "__ne__", "__init__"};
static const int nargs_of[] = {3, 2, 2, 1, 1, 1, 2, 2, -1};

static nn_object *not_implemented(void) { return nn_retain(repl_nmap_get(&repl_current->builtins, "NotImplemented")); }

static const char *attr_name(nn_object *o)
{
    if (nn_is_str(o)) return nn_str_cstr(o);
    repl_raise_exc(EXC_TypeError, "attribute name must be string, not '%s'", repl_value_type_name(o));
    return NULL;
}

static nn_object *slot_call(void *ud, nn_object *args, nn_object *kwargs)
{
    int k = (int)(intptr_t)ud;
    if (k == OS_INIT) return nn_retain(nn_none());
    if (NARGS != nargs_of[k] || (kwargs && nn_dict_len(kwargs))) {
        repl_raise_exc(EXC_TypeError, "expected %d argument%s, got %d", nargs_of[k] - 1, nargs_of[k] == 2 ? "" : "s",
                       NARGS ? NARGS - 1 : 0);
        return NULL;
    }
    nn_object *self = ARG(0);
    switch (k) {
    case OS_SETATTR:
    case OS_DELATTR:
    case OS_GETATTRIBUTE: {
        const char *name = attr_name(ARG(1));
        if (!name) return NULL;
        if (k == OS_GETATTRIBUTE) /* the lookup itself, never the class's own __getattribute__ or __getattr__ */
            return self->type == &repl_instance_type ? repl_instance_generic_getattr(self, name) : repl_get_attr(self, name);
        int rc = k == OS_SETATTR ? repl_object_setattr(self, name, ARG(2)) : repl_del_attr(self, name);
        return rc < 0 ? NULL : nn_retain(nn_none());
    }
    case OS_REPR: {
        if (self->type != &repl_instance_type) {
            char *s = nn_repr(self);
            nn_object *r = s ? nn_str_new(s) : NULL;
            nn_free(s);
            return r;
        }
        const class_obj *c = ((instance_obj *)self)->cls;
        return nn_str_format("<%s.%s object at %p>", repl_class_module(c), c->name, (void *)self);
    }
    case OS_STR: {
        char *s = repl_obj_repr(self);
        nn_object *r = s ? nn_str_new(s) : NULL;
        nn_free(s);
        return r;
    }
    case OS_HASH: return nn_int_new((int64_t)(((uintptr_t)self >> 4) & INT64_MAX));
    case OS_EQ: return self == ARG(1) ? nn_bool_new(true) : not_implemented();
    default: return self == ARG(1) ? nn_bool_new(false) : not_implemented();
    }
}

nn_object *repl_object_slot(const char *name)
{
    if (name[0] != '_' || name[1] != '_') return NULL;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(name, names[i]) == 0) return nn_cfunction_new(name, slot_call, (void *)(intptr_t)i, NULL);
    return NULL;
}
