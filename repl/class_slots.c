/*
 * class_slots.c — __slots__ and bool's place under int, as CPython 3.11 shows
 * them. An instance of a class whose every class in the MRO (but object and
 * the built-in value types) names __slots__ has no __dict__: it takes only the
 * names the slots list ("'P' object has no attribute 'z'" for another), unless
 * one of them lists '__dict__'. bool.__mro__ is (bool, int, object).
 */
#include <string.h>

#include "eval_int.h"

/* Whether the __slots__ of class k (a str, or a tuple/list of strs) names the
   attribute name (an entry `__x` names `_K__x`, as CPython mangles it). */
static bool slots_name(const class_obj *k, nn_object *slots, const char *name)
{
    if (nn_is_str(slots)) return repl_mangled_is(k->name, nn_str_cstr(slots), name);
    bool tuple = slots->type == &nn_tuple_type;
    if (!tuple && !nn_is_list(slots)) return false;
    size_t n = tuple ? nn_tuple_len(slots) : nn_list_len(slots);
    for (size_t i = 0; i < n; i++) {
        nn_object *s = tuple ? nn_tuple_get(slots, i) : nn_list_get(slots, i);
        if (nn_is_str(s) && repl_mangled_is(k->name, nn_str_cstr(s), name)) return true;
    }
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
