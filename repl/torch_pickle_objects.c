/*
 * torch_pickle_objects.c — torch.save / torch.load of whole objects: a module
 * (nn.Linear, a user's `class Net(nn.Module)`), a list of modules, an instance
 * of a plain user class, a set. As PyTorch's pickle, a class is written by
 * reference (GLOBAL `__main__ Net`, `torch.nn.modules.linear Linear`), made
 * with NEWOBJ and filled by BUILD with its __dict__ (a module's in
 * Module.__init__'s order: training, _parameters, _buffers, ... _modules, then
 * its own attributes). Loading (torch.load's default weights_only=False) finds
 * only classes: those of the script's __main__ and of the script's own files
 * (`models.Net`, the file imported as pickle imports it), torch.nn's module
 * classes and builtins.set/frozenset; any other global is refused with an
 * UnpicklingError.
 * No __init__ and no code from the file runs (a user class's instance is
 * made as object.__new__ makes it). Core's pickler calls these through
 * nn_pickle_hooks.
 */
#include <string.h>

#include "bind_int.h"
#include "eval_int.h"
#include "stdlib_int.h"

/* The keys of Module.__dict__ that Module.__init__ makes, in its order (1.13). */
static const char *const module_keys[] = {
    "training", "_parameters", "_buffers", "_non_persistent_buffers_set", "_backward_hooks", "_is_full_backward_hook",
    "_forward_hooks", "_forward_pre_hooks", "_state_dict_hooks", "_load_state_dict_pre_hooks",
    "_load_state_dict_post_hooks", "_modules",
};
#define N_MODULE_KEYS (sizeof module_keys / sizeof module_keys[0])

static bool is_module_key(const char *k)
{
    for (size_t i = 0; i < N_MODULE_KEYS; i++)
        if (!strcmp(module_keys[i], k)) return true;
    return false;
}

/* A copy of d (its items in order) as an OrderedDict; new reference. */
static nn_object *ordered_copy(nn_object *d)
{
    nn_object *r = nn_ordered_dict_new(), *k, *v;
    size_t pos = 0;
    while (r && nn_dict_next(d, &pos, &k, &v))
        if (nn_dict_set(r, k, v) < 0) NN_SET(r, NULL);
    return r;
}

/* type(o).__module__ and __qualname__ as new str objects; the pickle's reference to the class. */
static int class_name(nn_object *o, nn_object **module, nn_object **qualname)
{
    nn_object *cls = (o->type != &repl_instance_type && !repl_module_lang_class(o)) ? repl_bind_type_of(o) : NULL;
    if (!cls && nn_error_current()) return -1;
    if (!cls) cls = nn_retain(&repl_class_of(o)->ob);
    *module = repl_get_attr(cls, "__module__");
    *qualname = *module ? repl_get_attr(cls, "__qualname__") : NULL;
    NN_RELEASE(cls);
    if (!*qualname || !nn_is_str(*module) || !nn_is_str(*qualname)) {
        NN_SET(*module, NULL);
        NN_SET(*qualname, NULL);
        return -1;
    }
    if (strstr(nn_str_cstr(*qualname), "<locals>")) { /* CPython's words for a class made in a function */
        repl_raise_exc(EXC_AttributeError, "Can't pickle local object '%s'", nn_str_cstr(*qualname));
        NN_SET(*module, NULL);
        NN_SET(*qualname, NULL);
        return -1;
    }
    return 0;
}

static int put(nn_object *st, const char *key, nn_object *val) /* takes val */
{
    nn_object *k = val ? nn_str_new(key) : NULL;
    int rc = k ? nn_dict_set(st, k, val) : -1;
    NN_RELEASE(k);
    NN_RELEASE(val);
    return rc;
}

static bool has(nn_object *st, const char *key)
{
    nn_object *k = nn_str_new(key);
    bool r = k && nn_dict_get(st, k);
    NN_RELEASE(k);
    return r;
}

/* Attributes PyTorch's own classes keep in __dict__ that nnscope's compute: a
   convolution's transposed, output_padding and _reversed_padding_repeated_twice, a
   recurrent layer's _flat_weights_names, _all_weights and _flat_weights (what their
   forward and __setstate__ read when PyTorch loads the file). */
static int pytorch_extras(nn_module *m, nn_object *st)
{
    const char *name = m->cls->name;
    if (m->cls->lang_class) return 0;
    if (!strncmp(name, "Conv", 4)) {
        nn_object *ks = nn_dict_get_str(m->attrs, "kernel_size"), *pad = nn_dict_get_str(m->attrs, "padding"),
                  *dil = nn_dict_get_str(m->attrs, "dilation");
        if (!ks || ks->type != &nn_tuple_type) return 0;
        size_t n = nn_tuple_len(ks);
        if (!has(st, "transposed") && put(st, "transposed", nn_bool_new(strstr(name, "Transpose") != NULL)) < 0) return -1;
        if (!has(st, "output_padding")) {
            nn_object *op = nn_tuple_new(n);
            for (size_t i = 0; op && i < n; i++) nn_tuple_set(op, i, nn_int_new(0));
            if (put(st, "output_padding", op) < 0) return -1;
        }
        if (!has(st, "_reversed_padding_repeated_twice") && pad) {
            nn_object *r = nn_list_new(0);
            for (size_t i = n; r && i-- > 0;) {
                int64_t lo = 0, hi = 0;
                if (pad->type == &nn_tuple_type && i < nn_tuple_len(pad)) {
                    lo = hi = nn_int_value(nn_tuple_get(pad, i));
                } else if (nn_is_str(pad) && !strcmp(nn_str_cstr(pad), "same")) {
                    int64_t d = dil && dil->type == &nn_tuple_type ? nn_int_value(nn_tuple_get(dil, i)) : 1;
                    int64_t total = d * (nn_int_value(nn_tuple_get(ks, i)) - 1);
                    lo = total / 2, hi = total - lo;
                }
                nn_object *a = nn_int_new(lo), *b = nn_int_new(hi);
                if (!a || !b || nn_list_append(r, a) < 0 || nn_list_append(r, b) < 0) NN_SET(r, NULL);
                NN_RELEASE(a);
                NN_RELEASE(b);
            }
            nn_object *val = r;
            if (r && pad->type == &nn_tuple_type) { /* _reverse_repeat_tuple gives a tuple */
                val = nn_tuple_new(nn_list_len(r));
                for (size_t i = 0; val && i < nn_list_len(r); i++) nn_tuple_set(val, i, nn_retain(nn_list_get(r, i)));
                NN_RELEASE(r);
            }
            if (put(st, "_reversed_padding_repeated_twice", val) < 0) return -1;
        }
    } else if ((!strcmp(name, "RNN") || !strcmp(name, "LSTM") || !strcmp(name, "GRU")) && !has(st, "_flat_weights")) {
        nn_object *names = nn_list_new(0), *all = nn_list_new(0), *flat = nn_list_new(0), *group = NULL, *k, *v;
        const char *suffix = NULL;
        size_t pos = 0;
        int rc = names && all && flat ? 0 : -1;
        while (rc == 0 && nn_dict_next(m->parameters, &pos, &k, &v)) {
            const char *pn = nn_str_cstr(k), *sfx = strstr(pn, "_l");
            if (!sfx) continue;
            if (!suffix || strcmp(suffix, sfx)) { /* a new layer or direction */
                NN_SET(group, nn_list_new(0));
                if (!group || nn_list_append(all, group) < 0) rc = -1;
                suffix = sfx;
            }
            if (rc == 0 && (nn_list_append(names, k) < 0 || nn_list_append(flat, v) < 0 || nn_list_append(group, k) < 0))
                rc = -1;
        }
        NN_RELEASE(group);
        if (rc == 0) rc = put(st, "_flat_weights_names", nn_retain(names));
        if (rc == 0) rc = put(st, "_all_weights", nn_retain(all));
        if (rc == 0) rc = put(st, "_flat_weights", nn_retain(flat));
        NN_RELEASE(names);
        NN_RELEASE(all);
        NN_RELEASE(flat);
        return rc;
    }
    return 0;
}

/* A module's __dict__ as PyTorch's: the Module keys in order, then its own attributes. */
static nn_object *module_state(nn_module *m)
{
    nn_object *st = nn_dict_new(), *k, *v;
    if (!st) return NULL;
    for (size_t i = 0; i < N_MODULE_KEYS && st; i++) {
        const char *key = module_keys[i];
        nn_object *val;
        if (!strcmp(key, "training")) val = nn_bool_new(m->training);
        else if (!strcmp(key, "_parameters")) val = ordered_copy(m->parameters);
        else if (!strcmp(key, "_buffers")) val = ordered_copy(m->buffers);
        else if (!strcmp(key, "_modules")) val = ordered_copy(m->modules);
        else if (!strcmp(key, "_is_full_backward_hook"))
            val = m->is_full_backward_hook < 0 ? nn_retain(nn_none()) : nn_bool_new(m->is_full_backward_hook == 1);
        else if (!strcmp(key, "_non_persistent_buffers_set")) {
            val = repl_set_new(false);
            size_t pos = 0;
            while (val && nn_dict_next(m->non_persistent, &pos, &k, &v))
                if (repl_set_add(val, k) < 0) NN_SET(val, NULL);
        } else {
            val = nn_ordered_dict_new(); /* hooks are not saved (functions of the session) */
        }
        nn_object *name = val ? nn_str_new(key) : NULL;
        if (!name || nn_dict_set(st, name, val) < 0) NN_SET(st, NULL);
        NN_RELEASE(name);
        NN_RELEASE(val);
    }
    size_t pos = 0;
    while (st && nn_dict_next(m->attrs, &pos, &k, &v))
        if (nn_dict_set(st, k, v) < 0) NN_SET(st, NULL);
    if (st && pytorch_extras(m, st) < 0) NN_SET(st, NULL);
    return st;
}

/* Is o the function torch.nn.functional.<its name>? */
static bool is_functional(nn_object *o)
{
    nn_object *name = repl_get_attr(o, "__name__"), *f = NULL, *fmod = NULL;
    if (name && nn_is_str(name) && (fmod = repl_import_by_name("torch.nn.functional")))
        f = repl_get_attr(fmod, nn_str_cstr(name));
    bool same = f && f == o;
    if (!f) NN_RELEASE(repl_take_exception());
    NN_RELEASE(name);
    NN_RELEASE(fmod);
    NN_RELEASE(f);
    return same;
}

/* MultiheadAttention's out_proj class, which torch.nn does not export */
static const repl_class_def ndq_linear_def = {
    "NonDynamicallyQuantizableLinear", "torch.nn.modules.linear.NonDynamicallyQuantizableLinear", NULL, NULL,
    &nn_ndq_linear_class, "NonDynamicallyQuantizableLinear(in_features, out_features, bias=True)\nA Linear.", NULL};

static int h_reduce(void *ud, nn_object *o, nn_object **out)
{
    nn_object *module = NULL, *name = NULL, *args = NULL, *state = NULL;
    int np = repl_np_pickle_reduce(o, out); /* an ndarray, a NumPy scalar or dtype, bytes */
    if (!np) np = repl_optim_pickle_reduce(o, out); /* an optimizer, a defaultdict, dict as a class */
    if (np) return np < 0 ? -1 : 0;
    if (o->type == &repl_set_type) { /* set(list): (builtins.set, ([items],)) */
        bool frozen = ((set_obj *)o)->frozen;
        nn_object *items = repl_set_elements(o);
        args = items ? nn_tuple_new(1) : NULL;
        if (args) nn_tuple_set(args, 0, items);
        else NN_RELEASE(items);
        module = nn_str_new("__builtin__");
        name = nn_str_new(frozen ? "frozenset" : "set");
        state = nn_retain(nn_none());
    } else if (nn_is_module(o) || o->type == &repl_instance_type) {
        if (nn_is_module(o) && NN_MODULE(o)->cls == &nn_ndq_linear_class) {
            module = nn_str_new("torch.nn.modules.linear");
            name = nn_str_new(ndq_linear_def.name);
        } else if (class_name(o, &module, &name) < 0) {
            return -1;
        }
        args = nn_retain(nn_none());
        if (nn_is_module(o)) {
            state = module_state(NN_MODULE(o));
        } else { /* a plain instance: its attributes, or no BUILD when it has none */
            instance_obj *in = (instance_obj *)o;
            if (repl_instance_dict_sync(in) < 0) return -1;
            uint32_t pos = 0;
            const char *k;
            nn_object *v;
            state = in->attrs.len ? nn_dict_new() : nn_retain(nn_none());
            while (state && in->attrs.len && repl_nmap_next(&in->attrs, &pos, &k, &v)) {
                nn_object *key = nn_str_new(k);
                if (!key || nn_dict_set(state, key, v) < 0) NN_SET(state, NULL);
                NN_RELEASE(key);
            }
        }
    } else if (is_functional(o)) { /* F.relu, by reference */
        nn_object *mod = nn_str_new("torch.nn.functional"), *fname = mod ? repl_get_attr(o, "__name__") : NULL;
        *out = fname ? nn_tuple_pack(2, mod, fname) : NULL; /* pack retains its items */
        NN_RELEASE(mod);
        NN_RELEASE(fname);
        return *out ? 0 : -1;
    } else {
        return repl_raise_exc(EXC_TypeError, "torch.save: cannot pickle '%s' object", repl_value_type_name(o));
    }
    nn_object *t = module && name && args && state ? nn_tuple_new(4) : NULL;
    if (!t) {
        NN_RELEASE(module);
        NN_RELEASE(name);
        NN_RELEASE(args);
        NN_RELEASE(state);
        return -1;
    }
    nn_tuple_set(t, 0, module);
    nn_tuple_set(t, 1, name);
    nn_tuple_set(t, 2, args);
    nn_tuple_set(t, 3, state);
    *out = t;
    return 0;
}

static nn_object *refuse(const char *module, const char *name)
{
    repl_raise_exc(EXC_UnpicklingError,
                   "unsupported global: GLOBAL %s.%s (nnscope's torch.load makes only tensors, containers and the "
                   "classes of __main__, the script's own files and torch.nn; nothing from the file is run)",
                   module, name);
    return NULL;
}

static nn_object *h_find_class(void *ud, const char *module, const char *name, bool *is_value)
{
    nn_object *found = NULL;
    bool np = false;
    found = repl_np_pickle_find(module, name, is_value, &np);
    if (!np) found = repl_optim_pickle_find(module, name, is_value, &np);
    if (np) return found;
    if (!strcmp(module, "torch.nn.functional")) { /* a function by reference (an activation=) */
        nn_object *fmod = repl_import_by_name(module);
        found = fmod && name[0] != '_' ? repl_get_attr(fmod, name) : NULL;
        NN_RELEASE(fmod);
        if (!found) {
            NN_RELEASE(repl_take_exception());
            return refuse(module, name);
        }
        *is_value = true;
        return found;
    }
    if (!strcmp(module, "__main__")) {
        found = repl_nmap_get(&repl_current->globals, name);
        if (!found) {
            repl_raise_exc(EXC_AttributeError, "Can't get attribute '%s' on <module '__main__'>", name);
            return NULL;
        }
        if (found->type != &repl_class_type) return refuse(module, name);
        return nn_retain(found);
    }
    nn_object *user = strcmp(module, "torch") && strncmp(module, "torch.", 6) ? repl_import_user_file(module) : NULL;
    if (user) { /* a class of the script's own file (`from models import Net`), imported as pickle would */
        found = repl_get_attr(user, name);
        NN_RELEASE(user);
        if (!found) return NULL; /* AttributeError: module 'models' has no attribute 'Net' */
        if (found->type != &repl_class_type) {
            NN_RELEASE(found);
            return refuse(module, name);
        }
        return found;
    }
    if (nn_error_current()) return NULL; /* the file exists but failed to run */
    if ((!strcmp(module, "__builtin__") || !strcmp(module, "builtins")) &&
        (!strcmp(name, "set") || !strcmp(name, "frozenset")))
        return nn_retain(&(name[0] == 's' ? repl_current->set_cls : repl_current->frozenset_cls)->ob);
    if (!strcmp(module, "torch.nn.modules.linear") && !strcmp(name, ndq_linear_def.name)) return repl_class_new(&ndq_linear_def);
    if (!strncmp(module, "torch.nn.modules.", 17)) { /* torch.nn.modules.linear.Linear is torch.nn.Linear */
        nn_object *nn = repl_import_by_name("torch.nn");
        found = nn ? repl_get_attr(nn, name) : NULL;
        NN_RELEASE(nn);
        if (!found) {
            nn_object *e = repl_take_exception();
            NN_RELEASE(e);
            return refuse(module, name);
        }
        const repl_class_def *def = repl_is_class(found) ? repl_class_def_of(found) : NULL;
        bool ok = def ? def->module_class != NULL
                      : found->type == &repl_class_type && ((class_obj *)found)->mcls != NULL; /* nn.Transformer */
        if (!ok) {
            NN_RELEASE(found);
            return refuse(module, name);
        }
        return found;
    }
    return refuse(module, name);
}

static nn_object *h_call(void *ud, nn_object *cls, nn_object *args, bool newobj)
{
    bool np = false;
    nn_object *made = newobj ? NULL : repl_np_pickle_call(cls, args, &np);
    if (!np) made = repl_optim_pickle_call(cls, args, newobj, &np);
    if (np || nn_error_current()) return made;
    if (!newobj) { /* REDUCE: only set([items]) / frozenset([items]) */
        bool frozen = cls == &repl_current->frozenset_cls->ob;
        if ((cls != &repl_current->set_cls->ob && !frozen) || nn_tuple_len(args) != 1 ||
            !nn_is_list(nn_tuple_get(args, 0))) {
            repl_raise_exc(EXC_UnpicklingError, "pickle calls a class with arguments nnscope does not take");
            return NULL;
        }
        nn_object *items = nn_tuple_get(args, 0), *s = repl_set_new(frozen);
        for (size_t i = 0; s && i < nn_list_len(items); i++)
            if (repl_set_add(s, nn_list_get(items, i)) < 0) NN_SET(s, NULL);
        return s;
    }
    if (repl_is_class(cls)) { /* a native module class */
        const repl_class_def *def = repl_class_def_of(cls);
        if (def->module_class) return (nn_object *)nn_module_new(def->module_class);
        repl_raise_exc(EXC_UnpicklingError, "pickle makes an instance of %s, which nnscope does not take", def->name);
        return NULL;
    }
    class_obj *c = (class_obj *)cls;
    if (c->mcls) return (nn_object *)nn_module_new(c->mcls);
    if (c->ntype && c->ntype != &repl_instance_type) {
        repl_raise_exc(EXC_UnpicklingError, "pickle makes an instance of %s, which nnscope does not take", c->name);
        return NULL;
    }
    return repl_instance_new(c);
}

/* BUILD of a module: its dicts from the state (checked), the rest as attributes. */
static int build_module(nn_module *m, nn_object *state)
{
    nn_object *k, *v;
    size_t pos = 0;
    while (nn_dict_next(state, &pos, &k, &v)) {
        if (!nn_is_str(k)) return repl_raise_exc(EXC_UnpicklingError, "a module's state has a key that is not a str");
        const char *key = nn_str_cstr(k);
        nn_object *into = !strcmp(key, "_parameters") ? m->parameters
                          : !strcmp(key, "_buffers")  ? m->buffers
                          : !strcmp(key, "_modules")  ? m->modules
                                                      : NULL;
        if (into) {
            if (!nn_is_dict(v)) return repl_raise_exc(EXC_UnpicklingError, "a module's %s is not a dict", key);
            nn_object *kk, *vv;
            size_t p2 = 0;
            while (nn_dict_next(v, &p2, &kk, &vv)) {
                bool ok = nn_is_str(kk) && (nn_is_none(vv) || (into == m->parameters   ? nn_is_instance(vv, &nn_parameter_type)
                                                               : into == m->buffers ? nn_is_tensor(vv)
                                                                                    : nn_is_module(vv)));
                if (!ok) return repl_raise_exc(EXC_UnpicklingError, "a module's %s holds a wrong value", key);
                if (nn_dict_set(into, kk, vv) < 0) return -1;
            }
        } else if (!strcmp(key, "training")) {
            m->training = repl_truth(v) == 1;
        } else if (!strcmp(key, "_non_persistent_buffers_set")) {
            nn_object *items = v->type == &repl_set_type ? repl_set_elements(v) : NULL;
            if (!items) return repl_raise_exc(EXC_UnpicklingError, "a module's _non_persistent_buffers_set is not a set");
            int rc = 0;
            for (size_t i = 0; rc == 0 && i < nn_list_len(items); i++)
                rc = nn_dict_set(m->non_persistent, nn_list_get(items, i), nn_none());
            NN_RELEASE(items);
            if (rc < 0) return -1;
        } else if (!is_module_key(key) && nn_dict_set(m->attrs, k, v) < 0) { /* hooks are not restored */
            return -1;
        }
    }
    return 0;
}

static int h_build(void *ud, nn_object *obj, nn_object *state, nn_object **replacement)
{
    if (nn_is_dict(obj)) return 0; /* a dict's state: nothing nnscope keeps */
    int np = repl_optim_pickle_build(obj, state, replacement);
    if (!np) np = repl_np_pickle_build(obj, state);
    if (np) return np < 0 ? -1 : 0;
    if (!nn_is_dict(state)) return repl_raise_exc(EXC_UnpicklingError, "a pickled object's state is not a dict");
    if (nn_is_module(obj)) return build_module(NN_MODULE(obj), state);
    if (obj->type != &repl_instance_type)
        return repl_raise_exc(EXC_UnpicklingError, "Can only build Tensor, parameter, dict or class instances");
    nn_object *k, *v;
    size_t pos = 0;
    while (nn_dict_next(state, &pos, &k, &v)) {
        if (!nn_is_str(k)) return repl_raise_exc(EXC_UnpicklingError, "an object's state has a key that is not a str");
        if (repl_nmap_set(&((instance_obj *)obj)->attrs, nn_str_cstr(k), v) < 0) return -1;
    }
    return 0;
}

static nn_object *h_items(void *ud, nn_object *obj) { return repl_optim_pickle_items(obj); }

static nn_tensor *h_storage(void *ud, nn_object *obj, bool *untyped) { return repl_storage_tensor_of(obj, untyped); }

static nn_object *h_wrap_storage(void *ud, nn_tensor *flat) { return repl_storage_wrap_typed(flat); }

static const nn_pickle_hooks object_hooks = {NULL,    h_reduce, h_find_class, h_call, h_build, h_items,
                                             h_storage, h_wrap_storage};

const nn_pickle_hooks *repl_torch_pickle_hooks(void) { return &object_hooks; }

int repl_module_version_lookup(nn_module *m, int64_t *version)
{
    class_obj *c = repl_module_lang_class(&m->ob);
    nn_object *v = c ? repl_class_lookup(c, "_version") : NULL;
    if (!v || !nn_is_int(v)) return 0;
    *version = nn_int_value(v);
    return 1;
}
