/*
 * instance_dict.c — an instance's __dict__, as CPython's: one real dict per
 * instance, made on first use and kept on it, so that `d = obj.__dict__;
 * d['x'] = 1` sets obj.x, `vars(obj) is obj.__dict__`, `obj.__dict__.update(...)`,
 * `del obj.__dict__['x']` and `obj.__dict__ = d` (d is then the dict) behave as
 * in Python. The attributes themselves stay in the instance's name map, which
 * the evaluator and the rest of the interpreter read: a change made through
 * the instance (obj.x = v, del obj.x) is copied into the dict at once, and a
 * change made to the dict is taken into the name map the next time the
 * instance's attributes are used (the dict's change count tells).
 * An exception's args and chaining attributes and a slot's value are not in
 * its __dict__, as in CPython.
 */
#include <string.h>

#include "eval_int.h"

/* Whether o's attribute key stays out of its __dict__. */
static bool hidden(instance_obj *o, const char *key, bool exc)
{
    if (exc && (strcmp(key, "args") == 0 || (strncmp(key, "__", 2) == 0 && key[2]))) return true;
    if (exc && repl_exception_field(&o->ob, key)) return true;
    return repl_slots_has(o->cls, key);
}

int repl_instance_dict_take(instance_obj *o)
{
    nn_object *d = o->dict;
    if (nn_dict_changes(d) == o->dict_seen) return 0;
    bool exc = repl_is_exception(&o->ob);
    const char **keys = repl_nmap_keys_ordered(&o->attrs);
    if (!keys && o->attrs.len) return -1;
    for (uint32_t i = 0, n = o->attrs.len; i < n; i++)
        if (!hidden(o, keys[i], exc) && !nn_dict_get_str(d, keys[i])) repl_nmap_del(&o->attrs, keys[i]);
    nn_free(keys);
    size_t pos = 0;
    nn_object *k, *v;
    while (nn_dict_next(d, &pos, &k, &v))
        if (nn_is_str(k) && repl_nmap_set(&o->attrs, nn_str_cstr(k), v) < 0) return -1;
    o->dict_seen = nn_dict_changes(d);
    return 0;
}

nn_object *repl_instance_dict(instance_obj *o)
{
    if (o->dict) return nn_retain(o->dict);
    const char **keys = repl_nmap_keys_ordered(&o->attrs);
    if (!keys && o->attrs.len) return NULL;
    nn_object *d = nn_dict_new();
    bool exc = repl_is_exception(&o->ob);
    for (uint32_t i = 0; d && i < o->attrs.len; i++)
        if (!hidden(o, keys[i], exc) && nn_dict_set_str(d, keys[i], repl_nmap_get(&o->attrs, keys[i])) < 0)
            NN_SET(d, NULL);
    nn_free(keys);
    if (!d) return NULL;
    o->dict = d;
    o->dict_seen = nn_dict_changes(d);
    return nn_retain(d);
}

int repl_instance_dict_store(instance_obj *o, const char *name, nn_object *value)
{
    if (!o->dict || hidden(o, name, repl_is_exception(&o->ob))) return 0;
    int rc = 0;
    if (value) rc = nn_dict_set_str(o->dict, name, value);
    else if (nn_dict_get_str(o->dict, name)) rc = nn_dict_del_str(o->dict, name);
    o->dict_seen = nn_dict_changes(o->dict);
    return rc;
}

int repl_instance_put(instance_obj *o, const char *name, nn_object *value)
{
    if (repl_instance_dict_sync(o) < 0 || repl_nmap_set(&o->attrs, name, value) < 0) return -1;
    return repl_instance_dict_store(o, name, value);
}

int repl_instance_dict_adopt(instance_obj *o, nn_object *d)
{
    NN_RETAIN(d);
    NN_SET(o->dict, d);
    o->dict_seen = nn_dict_changes(d) - 1; /* not yet taken in */
    return repl_instance_dict_sync(o);
}
