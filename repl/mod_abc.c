/*
 * mod_abc.c — `import abc`: ABC, ABCMeta (as a metaclass= keyword only),
 * abstractmethod and the older abstractproperty/abstractclassmethod/
 * abstractstaticmethod, as CPython 3.11's for what a script sees: a class whose
 * abstract methods are not all overridden cannot be instantiated ("Can't
 * instantiate abstract class Base with abstract methods f, g").
 *
 * abstractmethod marks a def (func_obj.abstract, read back as
 * f.__isabstractmethod__; a property or classmethod is abstract when one of
 * its functions is). eval.c calls repl_abc_class_init after each class
 * statement, which gives an abstract base class (metaclass=ABCMeta, or a base
 * with __abstractmethods__) its frozenset __abstractmethods__, and
 * repl_abc_check before each instantiation. ABCMeta is no real metaclass.
 * C.register(D) lists D in C's own `_abc_registry`; isinstance and issubclass
 * (builtins.c) then count D and its subclasses as C's (repl_abc_registered).
 */
#include <stdlib.h>
#include <string.h>

#include "stdlib_int.h"

/* getattr(v, '__isabstractmethod__', False) */
static bool is_abstract(nn_object *v)
{
    if (v->type == &repl_function_type) return ((func_obj *)v)->abstract;
    if (nn_is_int(v) || nn_is_float(v) || nn_is_str(v) || nn_is_bool(v) || nn_is_none(v) || nn_is_list(v) ||
        nn_is_dict(v) || v->type == &nn_tuple_type || v->type == &repl_class_type)
        return false;
    nn_object *r = repl_get_attr(v, "__isabstractmethod__");
    if (!r) {
        NN_RELEASE(repl_take_exception());
        return false;
    }
    int t = repl_truth(r);
    NN_RELEASE(r);
    if (t < 0) NN_RELEASE(repl_take_exception());
    return t > 0;
}

int repl_abc_class_init(class_obj *c, nn_object *metaclass)
{
    bool abc = metaclass && metaclass->type == &repl_class_type &&
               repl_class_lookup((class_obj *)metaclass, "_abc_meta") != NULL;
    for (int i = 1; i < c->n_mro && !abc; i++)
        if (repl_nmap_get(&c->mro[i]->dict, "__abstractmethods__")) abc = true;
    if (!abc) return 0;
    nn_object *set = repl_set_new(true);
    if (!set) return -1;
    uint32_t pos = 0;
    const char *k;
    nn_object *v;
    int rc = 0;
    while (rc == 0 && repl_nmap_next(&c->dict, &pos, &k, &v)) {
        if (!is_abstract(v)) continue;
        nn_object *name = nn_str_new(k);
        rc = name ? repl_set_add(set, name) : -1;
        NN_RELEASE(name);
    }
    /* the bases' abstract methods that c does not override */
    for (int i = 1; rc == 0 && i < c->n_mro; i++) {
        nn_object *am = repl_nmap_get(&c->mro[i]->dict, "__abstractmethods__");
        nn_object *names = am ? repl_to_list(am) : NULL;
        if (am && !names) rc = -1;
        for (size_t j = 0; names && rc == 0 && j < nn_list_len(names); j++) {
            nn_object *name = nn_list_get(names, j);
            nn_object *now = nn_is_str(name) ? repl_class_lookup(c, nn_str_cstr(name)) : NULL;
            if (now && is_abstract(now)) rc = repl_set_add(set, name);
        }
        NN_RELEASE(names);
    }
    if (rc == 0) rc = repl_nmap_set(&c->dict, "__abstractmethods__", set);
    NN_RELEASE(set);
    return rc;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(nn_str_cstr(*(nn_object *const *)a), nn_str_cstr(*(nn_object *const *)b));
}

int repl_abc_check(class_obj *c)
{
    nn_object *am = repl_class_lookup(c, "__abstractmethods__");
    if (!am || am->type != &repl_set_type || !nn_dict_len(((set_obj *)am)->d)) return 0;
    nn_object *names = repl_to_list(am);
    if (!names) return -1;
    size_t n = nn_list_len(names);
    nn_object **items = nn_malloc(n * sizeof *items);
    if (!items) {
        NN_RELEASE(names);
        return -1;
    }
    for (size_t i = 0; i < n; i++) items[i] = nn_list_get(names, i);
    qsort(items, n, sizeof *items, cmp_names);
    sbuf b = {0};
    for (size_t i = 0; i < n; i++) {
        if (i) repl_sb_puts(&b, ", ");
        repl_sb_puts(&b, nn_str_cstr(items[i]));
    }
    nn_free(items);
    NN_RELEASE(names);
    char *list = repl_sb_finish(&b);
    if (!list) return -1;
    repl_raise_exc(EXC_TypeError, "Can't instantiate abstract class %s with abstract method%s %s", c->name,
                   n == 1 ? "" : "s", list);
    nn_free(list);
    return -1;
}

/* abstractmethod(funcobj): marks it (a def, or the functions of a property,
   classmethod or staticmethod) and returns it */
static nn_object *abc_abstractmethod(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("abstractmethod", args, kwargs, 1, 1) < 0) return NULL;
    nn_object *f = nn_tuple_get(args, 0);
    if (f->type == &repl_function_type) {
        ((func_obj *)f)->abstract = true;
        return nn_retain(f);
    }
    static const char *const parts[] = {"fget", "fset", "fdel"};
    bool marked = false;
    for (int i = 0; i < 3; i++) {
        nn_object *p = repl_get_attr(f, parts[i]);
        if (!p) {
            NN_RELEASE(repl_take_exception());
            break;
        }
        if (p->type == &repl_function_type) ((func_obj *)p)->abstract = marked = true;
        NN_RELEASE(p);
    }
    if (!marked) {
        nn_object *t = nn_bool_new(true);
        int rc = repl_set_attr(f, "__isabstractmethod__", t);
        NN_RELEASE(t);
        if (rc < 0) return NULL;
    }
    return nn_retain(f);
}

/* The classes registered with c (its own list, borrowed) or NULL. */
static nn_object *registry_of(const class_obj *c)
{
    nn_object *r = repl_nmap_get(&c->dict, "_abc_registry");
    return r && nn_is_list(r) ? r : NULL;
}

bool repl_abc_registered(const class_obj *c, const class_obj *base)
{
    nn_object *reg = registry_of(base);
    for (size_t i = 0; reg && i < nn_list_len(reg); i++) {
        class_obj *v = (class_obj *)nn_list_get(reg, i);
        if (repl_class_is_subclass(c, v) || (v != base && repl_abc_registered(c, v))) return true;
    }
    return false;
}

/* _register(cls, subclass): ABC.register's work; returns subclass. */
static nn_object *abc_register(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("register", args, kwargs, 2, 2) < 0) return NULL;
    nn_object *cls = nn_tuple_get(args, 0), *sub = nn_tuple_get(args, 1);
    if (sub->type != &repl_class_type || cls->type != &repl_class_type) {
        repl_raise_exc(EXC_TypeError, "Can only register classes");
        return NULL;
    }
    class_obj *c = (class_obj *)cls, *s = (class_obj *)sub;
    if (repl_class_is_subclass(s, c) || repl_abc_registered(s, c)) return nn_retain(sub); /* already one */
    if (repl_class_is_subclass(c, s) || repl_abc_registered(c, s)) {
        repl_raise_exc(EXC_RuntimeError, "Refusing to create an inheritance cycle");
        return NULL;
    }
    nn_object *reg = registry_of(c);
    if (!reg) {
        nn_object *l = nn_list_new(0);
        if (!l || repl_nmap_set(&c->dict, "_abc_registry", l) < 0) {
            NN_RELEASE(l);
            return NULL;
        }
        NN_RELEASE(l);
        reg = l;
    }
    return nn_list_append(reg, sub) < 0 ? NULL : nn_retain(sub);
}

static const repl_mod_fn helpers[] = {
    {"_register", abc_register, NULL},
    {"abstractmethod", abc_abstractmethod, "abstractmethod(funcobj)\nA decorator indicating abstract methods."},
};

/* source: begin */
static const char source[] =
    "# abc, written in the language over abstractmethod (C: it marks the function).\n"
    "\n"
    "\n"
    "class ABCMeta:\n"
    "    # only as class C(metaclass=ABCMeta): the class statement makes C abstract-aware\n"
    "    _abc_meta = True\n"
    "\n"
    "\n"
    "class ABC(metaclass=ABCMeta):\n"
    "    @classmethod\n"
    "    def register(cls, subclass):\n"
    "        return _register(cls, subclass)\n"
    "\n"
    "\n"
    "def abstractproperty(fget=None, fset=None, fdel=None, doc=None):\n"
    "    return abstractmethod(property(fget, fset, fdel, doc))\n"
    "\n"
    "\n"
    "def abstractclassmethod(callable):\n"
    "    return classmethod(abstractmethod(callable))\n"
    "\n"
    "\n"
    "def abstractstaticmethod(callable):\n"
    "    return staticmethod(abstractmethod(callable))\n"
    "\n"
    "\n"
    "def get_cache_token():\n"
    "    return 0\n";
/* source: end */

nn_object *repl_mod_abc(void)
{
    return repl_mod_from_source("abc", helpers, sizeof helpers / sizeof *helpers, source);
}
