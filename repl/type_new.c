/*
 * type_new.c — type(name, bases, dict), the three-argument form: a class made
 * as a class statement makes it, from a namespace dict instead of a body (its
 * functions become methods, the bases' __init_subclass__ runs, it inherits its
 * first base's metaclass). CPython's TypeErrors for arguments of the wrong type.
 */
#include "eval_int.h"

/* The class (a new reference) or NULL with TypeError; kwargs (or NULL) go to the
   bases' __init_subclass__, as type(name, bases, ns, **kwargs) does. */
nn_object *repl_type_new(nn_object *name, nn_object *bases, nn_object *ns, nn_object *kwargs)
{
    static const char *const what[] = {"str", "tuple", "dict"};
    nn_object *parts[3] = {name, bases, ns};
    bool ok[3] = {nn_is_str(name), bases->type == &nn_tuple_type, nn_is_dict(ns)};
    for (int i = 0; i < 3; i++)
        if (!ok[i]) {
            repl_raise_exc(EXC_TypeError, "type.__new__() argument %d must be %s, not %s", i + 1, what[i],
                           repl_value_type_name(parts[i]));
            return NULL;
        }
    size_t n = nn_tuple_len(bases);
    if (n > 64) {
        repl_raise_exc(EXC_TypeError, "too many base classes");
        return NULL;
    }
    class_obj *list[64];
    for (size_t i = 0; i < n; i++) {
        nn_object *b = nn_tuple_get(bases, i);
        if (b->type != &repl_class_type) {
            repl_raise_exc(EXC_TypeError, "a class cannot derive from a '%s' object", repl_value_type_name(b));
            return NULL;
        }
        list[i] = (class_obj *)b;
        if (!repl_builtin_sub_allowed(list[i])) {
            repl_raise_exc(EXC_TypeError, "type '%s' is not an acceptable base type", list[i]->name);
            return NULL;
        }
        if (list[i]->mcls || list[i]->native_base) {
            repl_raise_exc(EXC_TypeError, "type(): a base that derives from nn.Module needs a class statement");
            return NULL;
        }
    }
    class_obj *c = repl_lang_class_new(nn_str_cstr(name), n ? list[0] : repl_current->object_cls, -1);
    if (c && n > 1 && repl_class_set_bases(c, list, (int)n) < 0) NN_SET(c, NULL);
    if (c && repl_builtin_sub_init_class(c) < 0) NN_SET(c, NULL);
    if (!c) return NULL;
    size_t pos = 0;
    nn_object *k, *v;
    while (nn_dict_next(ns, &pos, &k, &v)) {
        if (!nn_is_str(k)) {
            repl_raise_exc(EXC_TypeError, "type(): the namespace's keys must be strings, not '%s'", repl_value_type_name(k));
            NN_RELEASE(c);
            return NULL;
        }
        if (repl_set_attr(&c->ob, nn_str_cstr(k), v) < 0) { /* functions become its methods */
            NN_RELEASE(c);
            return NULL;
        }
    }
    for (size_t i = 0; !c->meta && i < n; i++)
        if (list[i]->meta) c->meta = (class_obj *)nn_retain(&list[i]->meta->ob);
    if (repl_class_hash_none(c) < 0 || repl_slots_add_members(c) < 0 || repl_abc_class_init(c, NULL) < 0 || repl_class_init_subclass(c, kwargs) < 0) NN_SET(c, NULL);
    return c ? &c->ob : NULL;
}
