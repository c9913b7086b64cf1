/*
 * class_slots.c — __slots__ and bool's place under int, as CPython 3.11 shows
 * them. An instance of a class whose every class in the MRO (but object and
 * the built-in value types) names __slots__ has no __dict__: it takes only the
 * names the slots list ("'P' object has no attribute 'z'" for another), unless
 * one of them lists '__dict__'. Each slot is a member descriptor in its class's
 * dict (`<member 'x' of 'C' objects>`, __get__/__set__/__delete__ as CPython's);
 * the value itself stays with the instance's attributes. bool.__mro__ is
 * (bool, int, object).
 */
#include <string.h>

#include "eval_int.h"

/* The next entry of a __slots__ tuple, list or dict (its keys; the values are
   the slots' docs), from *pos = 0 on; NULL at the end or for another value. */
static nn_object *next_entry(nn_object *slots, size_t *pos)
{
    if (slots->type == &nn_tuple_type) return *pos < nn_tuple_len(slots) ? nn_tuple_get(slots, (*pos)++) : NULL;
    if (nn_is_list(slots)) return *pos < nn_list_len(slots) ? nn_list_get(slots, (*pos)++) : NULL;
    nn_object *k, *v;
    return nn_is_dict(slots) && nn_dict_next(slots, pos, &k, &v) ? k : NULL;
}

/* Whether the __slots__ of class k (a str, or a tuple/list/dict of strs) names the
   attribute name (an entry `__x` names `_K__x`, as CPython mangles it). */
static bool slots_name(const class_obj *k, nn_object *slots, const char *name)
{
    if (nn_is_str(slots)) return repl_mangled_is(k->name, nn_str_cstr(slots), name);
    size_t pos = 0;
    for (nn_object *s; (s = next_entry(slots, &pos));)
        if (nn_is_str(s) && repl_mangled_is(k->name, nn_str_cstr(s), name)) return true;
    return false;
}

bool repl_slots_refuse(class_obj *c, const char *name)
{
    bool slotted = false;
    for (int i = 0; i < c->n_mro; i++) {
        class_obj *k = c->mro[i];
        if (k == repl_current->object_cls || k->ntype) continue; /* they add no __dict__ */
        nn_object *slots = repl_nmap_get(&k->dict, "__slots__");
        if (!slots || k->exc >= 0 || k->mcls || k->native_base) return false; /* a class with a __dict__ */
        if (slots_name(k, slots, name) || slots_name(k, slots, "__dict__")) return false;
        slotted = true;
    }
    return slotted;
}

bool repl_slots_has(class_obj *c, const char *name)
{
    for (int i = 0; i < c->n_mro; i++) {
        nn_object *slots = repl_nmap_get(&c->mro[i]->dict, "__slots__");
        if (slots && slots_name(c->mro[i], slots, name)) return true;
    }
    return false;
}

nn_object *repl_bool_class_attr(class_obj *c, const char *name)
{
    repl_interp *in = repl_current;
    if (c != in->bool_cls) return NULL;
    if (strcmp(name, "__mro__") == 0) return nn_tuple_pack(3, &c->ob, &in->int_cls->ob, &in->object_cls->ob);
    if (strcmp(name, "__bases__") == 0) return nn_tuple_pack(1, &in->int_cls->ob);
    if (strcmp(name, "__base__") == 0) return nn_retain(&in->int_cls->ob);
    return NULL;
}

/* ------------------------------------------------------------------ member descriptors */

typedef struct member_obj {
    nn_object ob;
    class_obj *owner;   /* owned: the class whose __slots__ names it */
    char *name;         /* the attribute (mangled: "_E__p") */
} member_obj;

static void member_dealloc(nn_object *o)
{
    member_obj *m = (member_obj *)o;
    NN_RELEASE(&m->owner->ob);
    nn_free(m->name);
    nn_free(m);
}

static char *member_repr(nn_object *o)
{
    member_obj *m = (member_obj *)o;
    sbuf b = {0};
    repl_sb_printf(&b, "<member '%s' of '%s' objects>", m->name, m->owner->name);
    return repl_sb_finish(&b);
}

static void member_traverse(nn_object *o, nn_visit_fn visit, void *arg) { visit(&((member_obj *)o)->owner->ob, arg); }

static nn_object *member_getattr(nn_object *o, const char *name);

const nn_type repl_member_type = {.name = "member_descriptor", .dealloc = member_dealloc, .repr = member_repr,
                                  .traverse = member_traverse, .getattr = member_getattr};

/* obj's attributes when obj is an instance of m's class, else NULL with CPython's TypeError. */
static nmap *member_attrs(member_obj *m, nn_object *obj)
{
    class_obj *c = repl_class_of(obj);
    if (obj->type != &repl_instance_type || !c || !repl_class_is_subclass(c, m->owner)) {
        repl_raise_exc(EXC_TypeError, "descriptor '%s' for '%s' objects doesn't apply to a '%s' object", m->name,
                       m->owner->name, repl_value_type_name(obj));
        return NULL;
    }
    return &((instance_obj *)obj)->attrs;
}

/* CPython's arity errors of the slot wrappers (their names are empty, hence the leading space). */
static bool member_arity(nn_object *args, size_t lo, size_t hi, const char *lead)
{
    size_t n = nn_tuple_len(args) - 1;   /* past the bound member */
    if (n >= lo && n <= hi) return true;
    if (lo == hi)
        repl_raise_exc(EXC_TypeError, "%sexpected %zu argument%s, got %zu", lead, lo, lo == 1 ? "" : "s", n);
    else
        repl_raise_exc(EXC_TypeError, "%sexpected %s %zu argument%s, got %zu", lead, n < lo ? "at least" : "at most",
                       n < lo ? lo : hi, (n < lo ? lo : hi) == 1 ? "" : "s", n);
    return false;
}

/* m.__get__(obj, type=None): obj's slot value, or m itself through the class. */
static nn_object *member_get(void *ud, nn_object *args, nn_object *kwargs)
{
    member_obj *m = (member_obj *)nn_tuple_get(args, 0);
    if (!member_arity(args, 1, 2, " ")) return NULL;
    nn_object *obj = nn_tuple_get(args, 1), *type = nn_tuple_len(args) > 2 ? nn_tuple_get(args, 2) : nn_none();
    if (nn_is_none(obj)) {
        if (nn_is_none(type)) repl_raise_exc(EXC_TypeError, "__get__(None, None) is invalid");
        return nn_is_none(type) ? NULL : nn_retain(&m->ob);
    }
    nmap *attrs = member_attrs(m, obj);
    if (!attrs) return NULL;
    nn_object *v = repl_nmap_get(attrs, m->name);
    if (!v) repl_raise_exc(EXC_AttributeError, "'%s' object has no attribute '%s'", repl_value_type_name(obj), m->name);
    return v ? nn_retain(v) : NULL;
}

/* m.__set__(obj, value) */
static nn_object *member_set(void *ud, nn_object *args, nn_object *kwargs)
{
    member_obj *m = (member_obj *)nn_tuple_get(args, 0);
    if (!member_arity(args, 2, 2, " ")) return NULL;
    nmap *attrs = member_attrs(m, nn_tuple_get(args, 1));
    return attrs && repl_nmap_set(attrs, m->name, nn_tuple_get(args, 2)) == 0 ? nn_retain(nn_none()) : NULL;
}

/* m.__delete__(obj): AttributeError naming only the slot when it holds nothing, as CPython. */
static nn_object *member_delete(void *ud, nn_object *args, nn_object *kwargs)
{
    member_obj *m = (member_obj *)nn_tuple_get(args, 0);
    if (!member_arity(args, 1, 1, "")) return NULL;
    nmap *attrs = member_attrs(m, nn_tuple_get(args, 1));
    if (!attrs) return NULL;
    if (!repl_nmap_del(attrs, m->name)) return repl_raise_exc(EXC_AttributeError, "%s", m->name), NULL;
    return nn_retain(nn_none());
}

static nn_object *member_getattr(nn_object *o, const char *name)
{
    member_obj *m = (member_obj *)o;
    static const struct {
        const char *name;
        nn_cfunc fn;
    } methods[] = {{"__get__", member_get}, {"__set__", member_set}, {"__delete__", member_delete}};
    for (size_t i = 0; i < sizeof methods / sizeof *methods; i++)
        if (strcmp(name, methods[i].name) == 0) {
            nn_object *f = nn_cfunction_new(methods[i].name, methods[i].fn, NULL, NULL);
            nn_object *b = f ? repl_method_new(f, o) : NULL;
            NN_RELEASE(f);
            return b;
        }
    if (strcmp(name, "__name__") == 0) return nn_str_new(m->name);
    if (strcmp(name, "__qualname__") == 0) return nn_str_format("%s.%s", m->owner->name, m->name);
    if (strcmp(name, "__objclass__") == 0) return nn_retain(&m->owner->ob);
    if (strcmp(name, "__doc__") == 0) return nn_retain(nn_none());
    if (strcmp(name, "__class__") == 0) return nn_retain(&repl_class_of(o)->ob);
    repl_raise_exc(EXC_AttributeError, "'member_descriptor' object has no attribute '%s'", name);
    return NULL;
}

/* The member for slot entry entry (a str) of class c in c's dict: 0, or -1 with
   CPython's TypeError/ValueError. */
static int add_member(class_obj *c, nn_object *entry)
{
    if (!nn_is_str(entry))
        return repl_raise_exc(EXC_TypeError, "__slots__ items must be strings, not '%s'", repl_value_type_name(entry));
    const char *e = nn_str_cstr(entry);
    if (strcmp(e, "__dict__") == 0 || strcmp(e, "__weakref__") == 0) return 0;
    member_obj *m = nn_calloc(1, sizeof *m);
    char *name = repl_mangle_new(c->name, e);
    if (!m || !name) {
        nn_free(m);
        nn_free(name);
        return nn_error_set(NN_ERR_MEMORY, "out of memory"), -1;
    }
    nn_object_init(&m->ob, &repl_member_type);
    m->owner = (class_obj *)nn_retain(&c->ob);
    m->name = name;
    int rc = 0;
    if (repl_nmap_get(&c->dict, name))
        rc = repl_raise_exc(EXC_ValueError, "'%s' in __slots__ conflicts with class variable", e);
    else
        rc = repl_nmap_set(&c->dict, name, &m->ob);
    NN_RELEASE(&m->ob);
    return rc;
}

int repl_slots_add_members(class_obj *c)
{
    nn_object *slots = repl_nmap_get(&c->dict, "__slots__");
    if (!slots) return 0;
    if (nn_is_str(slots)) return add_member(c, slots);
    size_t pos = 0;
    for (nn_object *e; (e = next_entry(slots, &pos));)
        if (add_member(c, e) < 0) return -1;
    return 0;
}
