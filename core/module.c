/*
 * module.c — nn.Module's state: registration with PyTorch's name checks,
 * attribute access, traversal, dotted-path lookup, state_dict and the
 * validate-then-copy load_state_dict, modes and dtype casts, and repr.
 * The call path and hooks live in module_call.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_int.h"

/* ------------------------------------------------------------ the object */

static void module_dealloc(nn_object *self)
{
    nn_module *m = NN_MODULE(self);
    nn_object **dicts[] = {&m->parameters, &m->buffers, &m->non_persistent, &m->modules, &m->attrs,
                           &m->forward_pre_hooks, &m->forward_pre_hooks_with_kwargs, &m->forward_hooks,
                           &m->forward_hooks_with_kwargs, &m->forward_hooks_always_called, &m->backward_pre_hooks,
                           &m->backward_hooks, &m->state_dict_pre_hooks, &m->state_dict_hooks,
                           &m->load_state_dict_pre_hooks, &m->load_state_dict_post_hooks, &m->computed};
    for (size_t i = 0; i < sizeof dicts / sizeof dicts[0]; i++) NN_SET(*dicts[i], NULL);
    nn_free(m);
}

static char *module_repr_slot(nn_object *self) { return nn_module_repr(NN_MODULE(self)); }

/* The collector sees the module's dicts, so a hook that refers back to its
   module (self.register_forward_hook(self.hook)) makes a cycle it can free. */
static void module_traverse(nn_object *self, nn_visit_fn visit, void *arg)
{
    nn_module *m = NN_MODULE(self);
    nn_object *dicts[] = {m->parameters, m->buffers, m->non_persistent, m->modules, m->attrs,
                          m->forward_pre_hooks, m->forward_pre_hooks_with_kwargs, m->forward_hooks,
                          m->forward_hooks_with_kwargs, m->forward_hooks_always_called, m->backward_pre_hooks,
                          m->backward_hooks, m->state_dict_pre_hooks, m->state_dict_hooks,
                          m->load_state_dict_pre_hooks, m->load_state_dict_post_hooks, m->computed};
    for (size_t i = 0; i < sizeof dicts / sizeof dicts[0]; i++)
        if (dicts[i]) visit(dicts[i], arg);
}

nn_object *nn_module_call_slot(nn_object *self, nn_object *args, nn_object *kwargs);

const nn_type nn_module_type = {.name = "Module", .dealloc = module_dealloc, .repr = module_repr_slot,
                                .call = nn_module_call_slot,
                                .traverse = module_traverse}; /* no clear: its dicts are cleared as dicts */

nn_module *nn_module_new(const nn_module_class *cls)
{
    nn_module *m = nn_calloc(1, sizeof *m);
    if (!m) return NULL;
    nn_object_init(&m->ob, &nn_module_type);
    m->cls = cls;
    m->training = true;
    m->is_full_backward_hook = -1;
    nn_object **dicts[] = {&m->parameters, &m->buffers, &m->non_persistent, &m->modules, &m->attrs,
                           &m->forward_pre_hooks, &m->forward_pre_hooks_with_kwargs, &m->forward_hooks,
                           &m->forward_hooks_with_kwargs, &m->forward_hooks_always_called, &m->backward_pre_hooks,
                           &m->backward_hooks, &m->state_dict_pre_hooks, &m->state_dict_hooks,
                           &m->load_state_dict_pre_hooks, &m->load_state_dict_post_hooks};
    /* PyTorch's OrderedDicts, but for __dict__ and the non-persistent buffers' set */
    for (size_t i = 0; i < sizeof dicts / sizeof dicts[0]; i++) {
        bool plain = dicts[i] == &m->attrs || dicts[i] == &m->non_persistent;
        if (!(*dicts[i] = plain ? nn_dict_new() : nn_ordered_dict_new())) {
            NN_RELEASE(m);
            return NULL;
        }
    }
    if (nn_gc_track(&m->ob) < 0) {
        NN_RELEASE(m);
        return NULL;
    }
    return m;
}

const char *nn_module_name(const nn_module *m) { return m->cls->name; }

const nn_module_class *nn_module_class_slot_owner(const nn_module_class *cls, size_t slot_offset)
{
    for (; cls; cls = cls->base) {
        void (*slot)(void);
        memcpy(&slot, (const char *)cls + slot_offset, sizeof slot);
        if (slot) return cls;
    }
    return NULL;
}

const nn_module_class *nn_module_core_class(const nn_module *m)
{
    const nn_module_class *c = m->cls;
    while (c && c->lang_class && c->base) c = c->base;
    return c;
}

nn_tensor *nn_parameter_new(nn_tensor *data, bool requires_grad)
{
    nn_tensor *p = nn_detach(data);
    if (!p) return NULL;
    p->ob.type = &nn_parameter_type;
    if (requires_grad && nn_set_requires_grad(p, true) < 0) NN_SET(p, NULL);
    return p;
}

/* ----------------------------------------------------------- registration */

/* Names an nn.Module has as methods or class attributes: registering one of
   them is PyTorch's "attribute 'x' already exists". */
static const char *const module_attributes[] = {
    "add_module", "apply", "bfloat16", "buffers", "children", "cpu", "cuda", "double", "dump_patches", "eval",
    "extra_repr", "float", "forward", "get_buffer", "get_extra_state", "get_parameter", "get_submodule", "half",
    "ipu", "load_state_dict", "modules", "mtia", "named_buffers", "named_children", "named_modules",
    "named_parameters", "parameters", "register_backward_hook", "register_buffer", "register_forward_hook",
    "register_forward_pre_hook", "register_full_backward_hook", "register_full_backward_pre_hook",
    "register_load_state_dict_post_hook", "register_load_state_dict_pre_hook", "register_module",
    "register_parameter", "register_state_dict_post_hook", "register_state_dict_pre_hook", "requires_grad_",
    "set_extra_state", "set_submodule", "share_memory", "state_dict", "to", "to_empty", "train", "training",
    "type", "xpu", "zero_grad", "call_super_init",
};

static bool has_attribute(nn_module *m, const char *name)
{
    for (size_t i = 0; i < sizeof module_attributes / sizeof module_attributes[0]; i++)
        if (!strcmp(module_attributes[i], name)) return true;
    return nn_dict_get_str(m->attrs, name) || nn_dict_get_str(m->parameters, name) ||
           nn_dict_get_str(m->buffers, name) || nn_dict_get_str(m->modules, name);
}

/* PyTorch's checks on a new name: kind is "parameter", "buffer" or "module";
   in_own says the name may already be in that kind's own dict. */
static int check_name(nn_module *m, const char *kind, const char *name, nn_object *own)
{
    if (strchr(name, '.')) {
        if (!strcmp(kind, "module")) return nn_error_set(NN_ERR_KEY, "module name can't contain \".\", got: %s", name);
        return nn_error_set(NN_ERR_KEY, "%s name can't contain \".\"", kind);
    }
    if (!name[0]) return nn_error_set(NN_ERR_KEY, "%s name can't be empty string \"\"", kind);
    if (has_attribute(m, name) && !nn_dict_get_str(own, name))
        return nn_error_set(NN_ERR_KEY, "attribute '%s' already exists", name);
    return 0;
}

static const char *torch_type_name(const nn_object *o)
{
    static const char *const names[NN_DTYPE_COUNT] = {
        [NN_FLOAT32] = "torch.FloatTensor", [NN_FLOAT64] = "torch.DoubleTensor", [NN_FLOAT16] = "torch.HalfTensor",
        [NN_BFLOAT16] = "torch.BFloat16Tensor", [NN_INT64] = "torch.LongTensor", [NN_INT32] = "torch.IntTensor",
        [NN_BOOL] = "torch.BoolTensor", [NN_UINT8] = "torch.ByteTensor", [NN_INT8] = "torch.CharTensor",
        [NN_INT16] = "torch.ShortTensor"};
    if (nn_is_tensor(o)) return names[NN_TENSOR(o)->dtype];
    return o ? o->type->name : "NoneType";
}

int nn_module_register_parameter(nn_module *m, const char *name, nn_tensor *param)
{
    if (check_name(m, "parameter", name, m->parameters) < 0) return -1;
    if (param && !nn_is_parameter(&param->ob))
        return nn_error_set(NN_ERR_TYPE, "cannot assign '%s' object to parameter '%s' (torch.nn.Parameter or None required)",
                            torch_type_name(&param->ob), name);
    if (param && param->grad_fn)
        return nn_error_set(NN_ERR_VALUE,
                            "Cannot assign non-leaf Tensor to parameter '%s'. Model parameters must be created "
                            "explicitly. To express '%s' as a function of another Tensor, compute the value in the "
                            "forward() method.",
                            name, name);
    return nn_dict_set_str(m->parameters, name, param ? &param->ob : NULL);
}

int nn_module_register_buffer(nn_module *m, const char *name, nn_tensor *buffer, bool persistent)
{
    if (check_name(m, "buffer", name, m->buffers) < 0) return -1;
    if (nn_dict_set_str(m->buffers, name, buffer ? &buffer->ob : NULL) < 0) return -1;
    if (persistent) {
        if (nn_dict_get_str(m->non_persistent, name)) return nn_dict_del_str(m->non_persistent, name);
        return 0;
    }
    return nn_dict_set_str(m->non_persistent, name, NULL);
}

int nn_module_add_module(nn_module *m, const char *name, nn_module *child)
{
    if (check_name(m, "module", name, m->modules) < 0) return -1;
    return nn_dict_set_str(m->modules, name, child ? &child->ob : NULL);
}

/* Removes name from every dict but keep (a Module.__setattr__ moving a name between kinds). */
static int remove_from(nn_module *m, const char *name, nn_object *keep)
{
    nn_object *dicts[] = {m->parameters, m->buffers, m->modules, m->attrs};
    for (size_t i = 0; i < 4; i++)
        if (dicts[i] != keep && nn_dict_get_str(dicts[i], name) && nn_dict_del_str(dicts[i], name) < 0) return -1;
    if (keep != m->buffers && nn_dict_get_str(m->non_persistent, name)) return nn_dict_del_str(m->non_persistent, name);
    return 0;
}

int nn_module_setattr(nn_module *m, const char *name, nn_object *value)
{
    if (!strcmp(name, "training")) {
        if (!nn_is_bool(value)) return nn_error_set(NN_ERR_TYPE, "training must be a bool");
        m->training = nn_is_true(value);
        return 0;
    }
    if (nn_is_parameter(value)) {
        if (remove_from(m, name, m->parameters) < 0) return -1;
        return nn_module_register_parameter(m, name, NN_TENSOR(value));
    }
    if (nn_dict_get_str(m->parameters, name)) {
        if (!nn_is_none(value))
            return nn_error_set(NN_ERR_TYPE, "cannot assign '%s' as parameter '%s' (torch.nn.Parameter or None expected)",
                                torch_type_name(value), name);
        return nn_dict_set_str(m->parameters, name, NULL);
    }
    if (nn_is_module(value)) {
        if (remove_from(m, name, m->modules) < 0) return -1;
        return nn_module_add_module(m, name, NN_MODULE(value));
    }
    if (nn_dict_get_str(m->modules, name)) {
        if (!nn_is_none(value))
            return nn_error_set(NN_ERR_TYPE, "cannot assign '%s' as child module '%s' (torch.nn.Module or None expected)",
                                torch_type_name(value), name);
        return nn_dict_set_str(m->modules, name, NULL);
    }
    if (nn_dict_get_str(m->buffers, name)) {
        if (!nn_is_none(value) && !nn_is_tensor(value))
            return nn_error_set(NN_ERR_TYPE, "cannot assign '%s' as buffer '%s' (torch.Tensor or None expected)",
                                torch_type_name(value), name);
        return nn_dict_set_str(m->buffers, name, value);
    }
    return nn_dict_set_str(m->attrs, name, value);
}

static nn_module_override_fn override_lookup;

/* NAME as m's language class defines it (a property computed now), kept in m->computed
   until the next lookup of NAME; NULL with no error when the class has none */
static nn_object *class_computed(nn_module *m, const char *name)
{
    nn_object *v = NULL;
    if (!override_lookup || !m->cls->lang_class || override_lookup(m, name, &v) <= 0) return NULL;
    int rc = m->computed || (m->computed = nn_dict_new()) ? nn_dict_set_str(m->computed, name, v) : -1;
    NN_RELEASE(v);
    return rc < 0 ? NULL : nn_dict_get_str(m->computed, name);
}

nn_object *nn_module_getattr(nn_module *m, const char *name)
{
    nn_object *dicts[] = {m->parameters, m->buffers, m->modules, m->attrs};
    for (size_t i = 0; i < 4; i++) {
        nn_object *v = nn_dict_get_str(dicts[i], name);
        if (v) return v;
    }
    nn_object *computed = class_computed(m, name);
    if (computed || nn_error_current() != NN_OK) return computed;
    if (!strcmp(name, "training")) {
        nn_error_set(NN_ERR_ATTRIBUTE, "training is a field of the module (m->training)");
        return NULL;
    }
    nn_error_set(NN_ERR_ATTRIBUTE, "'%s' object has no attribute '%s'", nn_module_name(m), name);
    return NULL;
}

int nn_module_delattr(nn_module *m, const char *name)
{
    nn_object *dicts[] = {m->parameters, m->buffers, m->modules, m->attrs};
    for (size_t i = 0; i < 4; i++) {
        if (nn_dict_get_str(dicts[i], name)) {
            if (nn_dict_del_str(dicts[i], name) < 0) return -1;
            if (dicts[i] == m->buffers && nn_dict_get_str(m->non_persistent, name))
                return nn_dict_del_str(m->non_persistent, name);
            return 0;
        }
    }
    return nn_error_set(NN_ERR_ATTRIBUTE, "'%s' object has no attribute '%s'", nn_module_name(m), name);
}

/* -------------------------------------------------------------- traversal */

/* Appends (name, value) to list as a tuple; value borrowed. */
static int append_pair(nn_object *list, const char *name, nn_object *value)
{
    nn_object *key = nn_str_new(name);
    nn_object *pair = key ? nn_tuple_pack(2, key, value) : NULL;
    int rc = pair ? nn_list_append(list, pair) : -1;
    NN_RELEASE(key);
    NN_RELEASE(pair);
    return rc;
}

/* The values of a list of pairs, as a new list. */
static nn_object *second_items(nn_object *pairs)
{
    if (!pairs) return NULL;
    nn_object *out = nn_list_new(nn_list_len(pairs));
    for (size_t i = 0; out && i < nn_list_len(pairs); i++)
        if (nn_list_append(out, nn_tuple_get(nn_list_get(pairs, i), 1)) < 0) NN_SET(out, NULL);
    NN_RELEASE(pairs);
    return out;
}

/* prefix + name + suffix, as state_dict builds its keys ("a." + "weight"). */
static char *concat(const char *prefix, const char *name, const char *suffix)
{
    size_t n = strlen(prefix) + strlen(name) + strlen(suffix) + 1;
    char *s = nn_malloc(n);
    if (s) snprintf(s, n, "%s%s%s", prefix, name, suffix);
    return s;
}

/* Dotted names as named_modules/named_parameters build them: "a" + "weight" -> "a.weight". */
static char *join_name(const char *prefix, const char *name)
{
    size_t n = strlen(prefix) + strlen(name) + 2;
    char *s = nn_malloc(n);
    if (s) snprintf(s, n, "%s%s%s", prefix, prefix[0] ? "." : "", name);
    return s;
}

nn_object *nn_module_named_children(nn_module *m)
{
    nn_object *out = nn_list_new(0), *memo = out ? nn_dict_new() : NULL;
    size_t pos = 0;
    nn_object *k, *v;
    while (memo && nn_dict_next(m->modules, &pos, &k, &v)) {
        if (nn_is_none(v) || nn_dict_get(memo, v)) continue;
        if (nn_dict_set(memo, v, NULL) < 0 || append_pair(out, nn_str_cstr(k), v) < 0) {
            NN_SET(out, NULL);
            break;
        }
    }
    if (!memo) NN_SET(out, NULL);
    NN_RELEASE(memo);
    return out;
}

nn_object *nn_module_children(nn_module *m) { return second_items(nn_module_named_children(m)); }

static int walk_modules(nn_module *m, nn_object *memo, const char *prefix, bool remove_duplicate, nn_object *out)
{
    if (remove_duplicate) {
        if (nn_dict_get(memo, &m->ob)) return 0;
        if (nn_dict_set(memo, &m->ob, NULL) < 0) return -1;
    }
    if (append_pair(out, prefix, &m->ob) < 0) return -1;
    size_t pos = 0;
    nn_object *k, *v;
    while (nn_dict_next(m->modules, &pos, &k, &v)) {
        if (nn_is_none(v)) continue;
        char *sub = join_name(prefix, nn_str_cstr(k));
        int rc = sub ? walk_modules(NN_MODULE(v), memo, sub, remove_duplicate, out) : -1;
        nn_free(sub);
        if (rc < 0) return -1;
    }
    return 0;
}

nn_object *nn_module_named_modules_memo(nn_module *m, nn_object *memo, const char *prefix, bool remove_duplicate)
{
    nn_object *out = nn_list_new(0);
    if (out && walk_modules(m, memo, prefix ? prefix : "", remove_duplicate, out) < 0) NN_SET(out, NULL);
    return out;
}

nn_object *nn_module_named_modules(nn_module *m, const char *prefix, bool remove_duplicate)
{
    nn_object *out = nn_list_new(0), *memo = out ? nn_dict_new() : NULL;
    if (memo && walk_modules(m, memo, prefix ? prefix : "", remove_duplicate, out) < 0) NN_SET(out, NULL);
    if (!memo) NN_SET(out, NULL);
    NN_RELEASE(memo);
    return out;
}

nn_object *nn_module_modules(nn_module *m) { return second_items(nn_module_named_modules(m, "", true)); }

/* named_parameters / named_buffers: members of each module (recursively),
   each tensor once when remove_duplicate. */
static nn_object *named_members(nn_module *m, bool buffers, const char *prefix, bool recurse, bool remove_duplicate)
{
    nn_object *mods = recurse ? nn_module_named_modules(m, prefix, remove_duplicate) : nn_list_new(1);
    if (mods && !recurse && append_pair(mods, prefix ? prefix : "", &m->ob) < 0) NN_SET(mods, NULL);
    nn_object *out = mods ? nn_list_new(0) : NULL, *memo = out ? nn_dict_new() : NULL;
    int rc = memo ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < nn_list_len(mods); i++) {
        nn_object *pair = nn_list_get(mods, i);
        nn_module *mod = NN_MODULE(nn_tuple_get(pair, 1));
        const char *mod_prefix = nn_str_cstr(nn_tuple_get(pair, 0));
        size_t pos = 0;
        nn_object *k, *v;
        nn_object *dict = buffers ? mod->buffers : mod->parameters;
        while (rc == 0 && nn_dict_next(dict, &pos, &k, &v)) {
            if (nn_is_none(v)) continue;
            if (remove_duplicate) {
                if (nn_dict_get(memo, v)) continue;
                rc = nn_dict_set(memo, v, NULL);
            }
            char *full = rc == 0 ? join_name(mod_prefix, nn_str_cstr(k)) : NULL;
            rc = full ? append_pair(out, full, v) : -1;
            nn_free(full);
        }
    }
    NN_RELEASE(mods);
    NN_RELEASE(memo);
    if (rc < 0) NN_SET(out, NULL);
    return out;
}

nn_object *nn_module_named_parameters(nn_module *m, const char *prefix, bool recurse, bool remove_duplicate)
{
    return named_members(m, false, prefix ? prefix : "", recurse, remove_duplicate);
}

nn_object *nn_module_parameters(nn_module *m, bool recurse)
{
    return second_items(nn_module_named_parameters(m, "", recurse, true));
}

nn_object *nn_module_named_buffers(nn_module *m, const char *prefix, bool recurse, bool remove_duplicate)
{
    return named_members(m, true, prefix ? prefix : "", recurse, remove_duplicate);
}

nn_object *nn_module_buffers(nn_module *m, bool recurse) { return second_items(nn_module_named_buffers(m, "", recurse, true)); }

/* ----------------------------------------------------------------- lookup */

/* Splits "a.b.c" into successive atoms; calls step for each. */
nn_module *nn_module_get_submodule(nn_module *m, const char *target)
{
    nn_module *mod = m;
    const char *p = target;
    while (*p) {
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        char atom[256];
        snprintf(atom, sizeof atom, "%.*s", (int)(n < 255 ? n : 255), p);
        if (!has_attribute(mod, atom) || !strcmp(atom, "training") || nn_module_getattr(mod, atom) == NULL) {
            nn_error_clear();
            nn_error_set(NN_ERR_ATTRIBUTE, "%s has no attribute `%s`", nn_module_name(mod), atom);
            return NULL;
        }
        nn_object *v = nn_module_getattr(mod, atom);
        if (!nn_is_module(v)) {
            nn_error_set(NN_ERR_ATTRIBUTE, "`%s` is not an nn.Module", atom);
            return NULL;
        }
        mod = NN_MODULE(v);
        p = dot ? dot + 1 : p + n;
    }
    return mod;
}

/* Splits target at its last dot: the parent module and the last atom. */
static nn_module *parent_of(nn_module *m, const char *target, const char **last)
{
    const char *dot = strrchr(target, '.');
    if (!dot) {
        *last = target;
        return m;
    }
    size_t n = (size_t)(dot - target);
    char *path = nn_malloc(n + 1);
    if (!path) return NULL;
    memcpy(path, target, n);
    path[n] = '\0';
    nn_module *parent = nn_module_get_submodule(m, path);
    nn_free(path);
    *last = dot + 1;
    return parent;
}

int nn_module_set_submodule(nn_module *m, const char *target, nn_module *child, bool strict)
{
    if (!target[0]) return nn_error_set(NN_ERR_VALUE, "Cannot set the submodule without a target name!");
    const char *last;
    nn_module *parent = parent_of(m, target, &last);
    if (!parent) return -1;
    bool exists = has_attribute(parent, last) && nn_dict_get_str(parent->modules, last) != NULL;
    nn_object *current = nn_dict_get_str(parent->modules, last);
    if (!current) current = nn_dict_get_str(parent->attrs, last);
    if (!current) current = nn_dict_get_str(parent->parameters, last);
    if (!current) current = nn_dict_get_str(parent->buffers, last);
    if (strict && !current)
        return nn_error_set(NN_ERR_ATTRIBUTE, "%s has no attribute `%s`", nn_module_name(parent), last);
    if (current && !nn_is_module(current) && !(exists && nn_is_none(current)))
        return nn_error_set(NN_ERR_ATTRIBUTE, "`%s` is not an nn.Module", last);
    return nn_module_setattr(parent, last, &child->ob);
}

nn_tensor *nn_module_get_parameter(nn_module *m, const char *target)
{
    const char *last;
    nn_module *mod = parent_of(m, target, &last);
    if (!mod) return NULL;
    nn_object *v = nn_dict_get_str(mod->parameters, last);
    if (!v) {
        if (!nn_dict_get_str(mod->buffers, last) && !nn_dict_get_str(mod->modules, last) &&
            !nn_dict_get_str(mod->attrs, last)) {
            nn_error_set(NN_ERR_ATTRIBUTE, "%s has no attribute `%s`", nn_module_name(mod), last);
            return NULL;
        }
    }
    if (!v || !nn_is_parameter(v)) {
        nn_error_set(NN_ERR_ATTRIBUTE, "`%s` is not an nn.Parameter", last);
        return NULL;
    }
    return NN_TENSOR(v);
}

nn_tensor *nn_module_get_buffer(nn_module *m, const char *target)
{
    const char *last;
    nn_module *mod = parent_of(m, target, &last);
    if (!mod) return NULL;
    nn_object *v = nn_dict_get_str(mod->buffers, last);
    if (!v && !nn_dict_get_str(mod->parameters, last) && !nn_dict_get_str(mod->modules, last) &&
        !nn_dict_get_str(mod->attrs, last)) {
        nn_error_set(NN_ERR_ATTRIBUTE, "%s has no attribute `%s`", nn_module_name(mod), last);
        return NULL;
    }
    if (!v || !nn_is_tensor(v)) {
        nn_error_set(NN_ERR_ATTRIBUTE, "`%s` is not a buffer", last);
        return NULL;
    }
    return NN_TENSOR(v);
}

/* ------------------------------------------------------------------ state */

#define EXTRA_STATE "_extra_state"

/* Calls hook with n borrowed arguments; returns its result (new) or NULL. */
static nn_object *call_hook(nn_object *hook, size_t n, nn_object **argv)
{
    nn_object *args = nn_tuple_new(n);
    if (!args) return NULL;
    for (size_t i = 0; i < n; i++) nn_tuple_set(args, i, nn_retain(argv[i] ? argv[i] : nn_none()));
    nn_object *r = nn_call(hook, args, NULL);
    NN_RELEASE(args);
    return r;
}

static nn_module_version_fn version_lookup;

void nn_module_set_version_lookup(nn_module_version_fn fn) { version_lookup = fn; }

void nn_module_set_override_lookup(nn_module_override_fn fn) { override_lookup = fn; }

/* Module._version of m's class: 1, 2 for PyTorch's _NormBase layers (batch and
   instance norms), or what a language class sets. */
static int64_t module_version(nn_module *m)
{
    int64_t v = 1;
    if (version_lookup && version_lookup(m, &v) == 1) return v;
    static const char *const norm_base[] = {"BatchNorm", "SyncBatchNorm", "InstanceNorm", "LazyBatchNorm",
                                            "LazyInstanceNorm"};
    for (const nn_module_class *c = m->cls; c; c = c->base) {
        if (c->lang_class) continue;
        for (size_t i = 0; i < sizeof norm_base / sizeof norm_base[0]; i++)
            if (!strncmp(c->name, norm_base[i], strlen(norm_base[i])) && strlen(c->name) == strlen(norm_base[i]) + 2)
                return 2;
        break;
    }
    return 1;
}

/* prefix without its last dot, the key of a module in _metadata ("" for the root) */
static nn_object *metadata_key(const char *prefix)
{
    size_t n = strlen(prefix);
    return nn_str_from(prefix, n && prefix[n - 1] == '.' ? n - 1 : n);
}

/* Module._save_to_state_dict: parameters, then persistent buffers, then extra state */
int nn_module_save_to_state_dict(nn_module *m, nn_object *dest, const char *prefix, bool keep_vars)
{
    int rc = 0;
    size_t pos;
    nn_object *k, *v;
    for (int kind = 0; kind < 2 && rc == 0; kind++) {
        nn_object *dict = kind ? m->buffers : m->parameters;
        pos = 0;
        while (rc == 0 && nn_dict_next(dict, &pos, &k, &v)) {
            if (nn_is_none(v) || (kind && nn_dict_get(m->non_persistent, k))) continue;
            char *key = concat(prefix, nn_str_cstr(k), "");
            /* a lazy module's placeholders go in as they are (LazyModuleMixin._save_to_state_dict) */
            bool as_is = keep_vars || nn_is_uninitialized(v);
            nn_tensor *value = as_is ? (NN_RETAIN(v), NN_TENSOR(v)) : nn_detach(NN_TENSOR(v));
            rc = key && value ? nn_dict_set_str(dest, key, &value->ob) : -1;
            NN_RELEASE(value);
            nn_free(key);
        }
    }
    const nn_module_class *getter = NN_MODULE_SLOT(m->cls, get_extra_state);
    if (rc == 0 && getter) {
        nn_object *extra = getter->get_extra_state(m);
        char *key = concat(prefix, EXTRA_STATE, "");
        rc = extra && key ? nn_dict_set_str(dest, key, extra) : -1;
        nn_free(key);
        NN_RELEASE(extra);
    }
    return rc;
}

static int state_dict_into(nn_module *m, nn_object *dest, const char *prefix, bool keep_vars);

/* module.state_dict(destination=dest, prefix=prefix, keep_vars=kv) for a child: a
   language class's own state_dict, else the default. 0 or -1. */
static int child_state_dict(nn_module *child, nn_object *dest, const char *prefix, nn_object *kv)
{
    nn_object *method = NULL;
    if (override_lookup && override_lookup(child, "state_dict", &method) < 0) return -1;
    if (!method) return state_dict_into(child, dest, prefix, nn_is_true(kv));
    nn_object *args = nn_tuple_new(0), *kwargs = nn_dict_new(), *pfx = nn_str_new(prefix), *r = NULL;
    if (args && kwargs && pfx && nn_dict_set_str(kwargs, "destination", dest) == 0 &&
        nn_dict_set_str(kwargs, "prefix", pfx) == 0 && nn_dict_set_str(kwargs, "keep_vars", kv) == 0)
        r = nn_call(method, args, kwargs);
    NN_RELEASE(args);
    NN_RELEASE(kwargs);
    NN_RELEASE(pfx);
    NN_RELEASE(method);
    NN_RELEASE(r); /* PyTorch ignores what it returns */
    return r ? 0 : -1;
}

static int state_dict_into(nn_module *m, nn_object *dest, const char *prefix, bool keep_vars)
{
    nn_object *pfx = nn_str_new(prefix), *kv = nn_bool_new(keep_vars);
    nn_object *meta = nn_dict_new(), *version = nn_int_new(module_version(m));
    int rc = pfx && meta && version ? nn_dict_set_str(meta, "version", version) : -1;
    nn_object *attrs = nn_dict_attrs(dest, false), *all_meta = attrs ? nn_dict_get_str(attrs, "_metadata") : NULL;
    if (rc == 0 && all_meta && nn_is_dict(all_meta)) { /* destination._metadata[prefix[:-1]] = local_metadata */
        nn_object *mk = metadata_key(prefix);
        rc = mk ? nn_dict_set(all_meta, mk, meta) : -1;
        NN_RELEASE(mk);
    }
    size_t pos = 0;
    nn_object *k, *v;
    while (rc == 0 && nn_dict_next(m->state_dict_pre_hooks, &pos, &k, &v)) {
        nn_object *r = call_hook(v, 3, (nn_object *[]){&m->ob, pfx, kv});
        rc = r ? 0 : -1;
        NN_RELEASE(r);
    }
    /* self._save_to_state_dict(destination, prefix, keep_vars): a language class's
       override, or the default below; then children */
    nn_object *save = NULL;
    if (rc == 0 && override_lookup) rc = override_lookup(m, "_save_to_state_dict", &save) < 0 ? -1 : 0;
    if (save) {
        nn_object *r = call_hook(save, 3, (nn_object *[]){dest, pfx, kv});
        rc = r ? 0 : -1;
        NN_RELEASE(r);
        NN_RELEASE(save);
    } else if (rc == 0) {
        rc = nn_module_save_to_state_dict(m, dest, prefix, keep_vars);
    }
    pos = 0;
    while (rc == 0 && nn_dict_next(m->modules, &pos, &k, &v)) {
        if (nn_is_none(v)) continue;
        char *sub = concat(prefix, nn_str_cstr(k), ".");
        rc = sub ? child_state_dict(NN_MODULE(v), dest, sub, kv) : -1;
        nn_free(sub);
    }
    pos = 0;
    while (rc == 0 && nn_dict_next(m->state_dict_hooks, &pos, &k, &v)) {
        nn_object *r = call_hook(v, 4, (nn_object *[]){&m->ob, dest, pfx, meta});
        rc = r ? 0 : -1;
        NN_RELEASE(r);
    }
    NN_RELEASE(pfx);
    NN_RELEASE(kv);
    NN_RELEASE(meta);
    NN_RELEASE(version);
    return rc;
}

int nn_module_state_dict_into(nn_module *m, nn_object *dest, const char *prefix, bool keep_vars)
{
    return state_dict_into(m, dest, prefix ? prefix : "", keep_vars);
}

nn_object *nn_module_state_dict(nn_module *m, const char *prefix, bool keep_vars)
{
    nn_object *dest = nn_ordered_dict_new(), *attrs = dest ? nn_dict_attrs(dest, true) : NULL;
    nn_object *meta = attrs ? nn_ordered_dict_new() : NULL; /* destination._metadata = OrderedDict() */
    if (!meta || nn_dict_set_str(attrs, "_metadata", meta) < 0) NN_SET(dest, NULL);
    NN_RELEASE(meta);
    if (dest && state_dict_into(m, dest, prefix ? prefix : "", keep_vars) < 0) NN_SET(dest, NULL);
    return dest;
}

/* One planned copy of load_state_dict: into the module's tensor, from the input. */
typedef struct planned_copy {
    nn_module *module;
    const char *name; /* borrowed from the module's dict key */
    nn_tensor *target, *source;
    bool is_param;
    nn_object *extra_state; /* owned; set with set_extra_state instead of a copy */
} planned_copy;

typedef struct load_plan {
    planned_copy *copies;
    size_t n, cap;
    nn_object *missing, *unexpected, *errors; /* lists of str */
    nn_object *root;                          /* the state dict load_state_dict was given (its copy) */
    bool strict, assign;
} load_plan;

static int plan_add(load_plan *p, planned_copy c)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 16;
        planned_copy *grown = nn_realloc(p->copies, cap * sizeof *grown);
        if (!grown) return -1;
        p->copies = grown;
        p->cap = cap;
    }
    p->copies[p->n++] = c;
    return 0;
}

static int append_str(nn_object *list, const char *s)
{
    nn_object *o = nn_str_new(s);
    int rc = o ? nn_list_append(list, o) : -1;
    NN_RELEASE(o);
    return rc;
}

static const char *size_str(const nn_tensor *t, char *buf, size_t n)
{
    char shape[200];
    snprintf(buf, n, "torch.Size(%s)", nn_shape_str(t->ndim, t->sizes, shape, sizeof shape));
    return buf;
}

/* Checks one module's entries of sd (keys under prefix): plans copies, collects
   missing/unexpected keys (always, as PyTorch; strict only decides whether they
   are errors) and errors; runs the module's load pre-hooks first
   and its post-hooks after its children. Nothing is written. */
/* Module._load_from_state_dict's work for m alone: its load pre-hooks, then its
   parameters, persistent buffers and extra state planned from sd; missing and
   unexpected keys are collected when strict (load_state_dict always passes True). */
static int plan_local(nn_module *m, nn_object *sd, nn_object *pfx, nn_object *meta, bool strict_arg, load_plan *p)
{
    const char *prefix = nn_str_cstr(pfx);
    nn_object *strict = nn_bool_new(strict_arg);
    int rc = 0;
    size_t pos = 0;
    nn_object *k, *v;
    while (rc == 0 && nn_dict_next(m->load_state_dict_pre_hooks, &pos, &k, &v)) {
        nn_object *r = call_hook(v, 8, (nn_object *[]){&m->ob, sd, pfx, meta, strict, p->missing, p->unexpected, p->errors});
        rc = r ? 0 : -1;
        NN_RELEASE(r);
    }
    for (int kind = 0; kind < 2 && rc == 0; kind++) {
        nn_object *dict = kind ? m->buffers : m->parameters;
        pos = 0;
        while (rc == 0 && nn_dict_next(dict, &pos, &k, &v)) {
            if (nn_is_none(v) || (kind && nn_dict_get(m->non_persistent, k))) continue;
            char *key = concat(prefix, nn_str_cstr(k), "");
            if (!key) {
                rc = -1;
                break;
            }
            nn_object *input = nn_dict_get_str(sd, key);
            nn_tensor *param = NN_TENSOR(v);
            char msg[1024], a[256], b[256];
            if (!input) {
                rc = strict_arg ? append_str(p->missing, key) : 0;
            } else if (!nn_is_tensor(input)) {
                snprintf(msg, sizeof msg,
                         "While copying the parameter named \"%s\", expected torch.Tensor or Tensor-like object from "
                         "checkpoint but received <class '%s'>",
                         key, input->type->name);
                rc = append_str(p->errors, msg);
            } else {
                nn_tensor *src = NN_TENSOR(input);
                bool squeeze_one = param->ndim == 0 && src->ndim == 1; /* PyTorch takes input[0] then */
                if (squeeze_one && src->sizes[0] >= 1) src = nn_select(src, 0, 0);
                else NN_RETAIN(src);
                if (!src) rc = -1;
                else if (src->ndim != param->ndim ||
                         memcmp(src->sizes, param->sizes, sizeof(int64_t) * (size_t)param->ndim) != 0) {
                    snprintf(msg, sizeof msg,
                             "size mismatch for %s: copying a param with shape %s from checkpoint, the shape in "
                             "current model is %s.",
                             key, size_str(src, a, sizeof a), size_str(param, b, sizeof b));
                    rc = append_str(p->errors, msg);
                    NN_RELEASE(src);
                } else {
                    rc = plan_add(p, (planned_copy){m, nn_str_cstr(k), param, src, kind == 0, NULL});
                    if (rc < 0) NN_RELEASE(src);
                }
            }
            nn_free(key);
        }
    }
    char *extra_key = rc == 0 ? concat(prefix, EXTRA_STATE, "") : NULL;
    if (rc == 0 && !extra_key) rc = -1;
    if (rc == 0 && NN_MODULE_SLOT(m->cls, set_extra_state)) {
        nn_object *extra = nn_dict_get_str(sd, extra_key);
        if (!extra) rc = strict_arg ? append_str(p->missing, extra_key) : 0;
        else if (plan_add(p, (planned_copy){.module = m, .extra_state = nn_retain(extra)}) < 0) {
            NN_RELEASE(extra);
            rc = -1;
        }
    } else if (rc == 0 && strict_arg && nn_dict_get_str(sd, extra_key)) {
        rc = append_str(p->unexpected, extra_key);
    }
    /* unexpected: keys under prefix naming neither a child nor a local tensor */
    size_t plen = strlen(prefix);
    pos = 0;
    while (rc == 0 && strict_arg && nn_dict_next(sd, &pos, &k, &v)) {
        if (!nn_is_str(k)) continue;
        const char *key = nn_str_cstr(k);
        if (strncmp(key, prefix, plen) != 0 || !strcmp(key, extra_key)) continue;
        const char *rest = key + plen;
        size_t n = strcspn(rest, ".");
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(n < 255 ? n : 255), rest);
        nn_object *param = nn_dict_get_str(m->parameters, name), *buf = nn_dict_get_str(m->buffers, name);
        bool local = (param && !nn_is_none(param)) ||
                     (buf && !nn_is_none(buf) && !nn_dict_get_str(m->non_persistent, name));
        if (!nn_dict_get_str(m->modules, name) && !local) rc = append_str(p->unexpected, key);
    }
    nn_free(extra_key);
    NN_RELEASE(strict);
    return rc;
}

/* The plan load_state_dict is making (its lists are the ones a language
   override's super()._load_from_state_dict(...) hands back to core). */
static _Thread_local load_plan *active_plan;

/* {k: v for k, v in sd.items() if k.startswith(prefix)}: a new dict, as PyTorch
   1.13's load() gives each child */
static nn_object *keys_under(nn_object *sd, const char *prefix)
{
    nn_object *d = nn_dict_new(), *k, *v;
    size_t pos = 0, n = strlen(prefix);
    while (d && nn_dict_next(sd, &pos, &k, &v))
        if (nn_is_str(k) && !strncmp(nn_str_cstr(k), prefix, n) && nn_dict_set(d, k, v) < 0) NN_SET(d, NULL);
    return d;
}

/* PyTorch's load(module, local_state_dict, prefix): module._load_from_state_dict(...)
   (a language class's override, or plan_local), its children with the keys under
   their prefixes, then its load post-hooks. */
static int plan_module(nn_module *m, nn_object *sd, const char *prefix, load_plan *p)
{
    /* local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {}); the
       metadata is the root dict's (children get plain dicts) */
    nn_object *attrs = nn_dict_attrs(p->root, false), *all_meta = attrs ? nn_dict_get_str(attrs, "_metadata") : NULL;
    nn_object *mk = all_meta && nn_is_dict(all_meta) ? metadata_key(prefix) : NULL;
    nn_object *found = mk ? nn_dict_get(all_meta, mk) : NULL;
    NN_RELEASE(mk);
    nn_error_clear(); /* an unhashable key cannot be there */
    nn_object *pfx = nn_str_new(prefix), *meta = found ? nn_retain(found) : nn_dict_new(), *method = NULL;
    nn_object *yes = nn_bool_new(true);
    int rc = pfx && meta && yes ? 0 : -1;
    if (rc == 0 && override_lookup) rc = override_lookup(m, "_load_from_state_dict", &method) < 0 ? -1 : 0;
    if (method) {
        nn_object *r = call_hook(method, 7, (nn_object *[]){sd, pfx, meta, yes, p->missing, p->unexpected, p->errors});
        rc = r ? 0 : -1;
        NN_RELEASE(r);
        NN_RELEASE(method);
    } else if (rc == 0) {
        rc = plan_local(m, sd, pfx, meta, true, p);
    }
    size_t pos = 0;
    nn_object *k, *v;
    while (rc == 0 && nn_dict_next(m->modules, &pos, &k, &v)) {
        if (nn_is_none(v)) continue;
        char *child_prefix = concat(prefix, nn_str_cstr(k), ".");
        nn_object *child_sd = child_prefix ? keys_under(sd, child_prefix) : NULL;
        rc = child_sd ? plan_module(NN_MODULE(v), child_sd, child_prefix, p) : -1;
        NN_RELEASE(child_sd);
        nn_free(child_prefix);
    }
    if (rc == 0 && nn_dict_len(m->load_state_dict_post_hooks)) {
        nn_object *keys = nn_tuple_pack(2, p->missing, p->unexpected);
        pos = 0;
        while (keys && rc == 0 && nn_dict_next(m->load_state_dict_post_hooks, &pos, &k, &v)) {
            nn_object *r = call_hook(v, 2, (nn_object *[]){&m->ob, keys});
            rc = r ? 0 : -1;
            if (r && !nn_is_none(r))
                rc = nn_error_set(NN_ERR_RUNTIME, "Hooks registered with ``register_load_state_dict_post_hook`` are "
                                                  "not expected to return new values, if incompatible_keys need to be "
                                                  "modified, it should be done inplace.");
            NN_RELEASE(r);
        }
        if (!keys) rc = -1;
        NN_RELEASE(keys);
    }
    NN_RELEASE(pfx);
    NN_RELEASE(meta);
    NN_RELEASE(yes);
    return rc;
}

/* "Missing key(s) in state_dict: "a", "b". " */
static int key_list_message(nn_object *errors, const char *what, nn_object *keys)
{
    size_t cap = 64, len = 0;
    for (size_t i = 0; i < nn_list_len(keys); i++) cap += nn_str_len(nn_list_get(keys, i)) + 4;
    char *msg = nn_malloc(cap);
    if (!msg) return -1;
    len += (size_t)snprintf(msg, cap, "%s key(s) in state_dict: ", what);
    for (size_t i = 0; i < nn_list_len(keys); i++)
        len += (size_t)snprintf(msg + len, cap - len, "%s\"%s\"", i ? ", " : "", nn_str_cstr(nn_list_get(keys, i)));
    snprintf(msg + len, cap - len, ". ");
    nn_object *s = nn_str_new(msg);
    nn_free(msg);
    int rc = s ? nn_list_insert(errors, 0, s) : -1;
    NN_RELEASE(s);
    return rc;
}

/* Makes p's planned copies (or assignments); 0 or -1. */
static int run_plan(load_plan *p)
{
    int rc = 0;
    bool assign = p->assign;
    bool prev = nn_set_grad_enabled(false);
    for (size_t i = 0; rc == 0 && i < p->n; i++) {
        planned_copy *c = &p->copies[i];
        if (c->extra_state) {
            rc = NN_MODULE_SLOT(c->module->cls, set_extra_state)->set_extra_state(c->module, c->extra_state);
            continue;
        }
        if (!assign) {
            rc = nn_copy_(c->target, c->source);
            continue;
        }
        nn_tensor *value;
        if (c->is_param) value = nn_is_parameter(&c->source->ob) ? (NN_RETAIN(c->source), c->source)
                                                                 : nn_parameter_new(c->source, false);
        else value = (NN_RETAIN(c->source), c->source);
        if (value && c->is_param) value->requires_grad = c->target->requires_grad && nn_dtype_is_floating(value->dtype);
        rc = value ? nn_dict_set_str(c->is_param ? c->module->parameters : c->module->buffers, c->name, &value->ob) : -1;
        NN_RELEASE(value);
    }
    nn_set_grad_enabled(prev);
    return rc;
}

static void plan_free(load_plan *p)
{
    for (size_t i = 0; i < p->n; i++) {
        NN_RELEASE(p->copies[i].source);
        NN_RELEASE(p->copies[i].extra_state);
    }
    nn_free(p->copies);
    NN_RELEASE(p->missing);
    NN_RELEASE(p->unexpected);
    NN_RELEASE(p->errors);
}

int nn_module_load_from_state_dict(nn_module *m, nn_object *sd, const char *prefix, nn_object *local_metadata,
                                   bool strict, nn_object *missing, nn_object *unexpected, nn_object *errors)
{
    if (!nn_is_dict(sd)) return nn_error_set(NN_ERR_TYPE, "_load_from_state_dict: state_dict must be a dict");
    if (!nn_is_list(missing) || !nn_is_list(unexpected) || !nn_is_list(errors))
        return nn_error_set(NN_ERR_TYPE, "_load_from_state_dict: missing_keys, unexpected_keys and error_msgs must be lists");
    nn_object *pfx = nn_str_new(prefix);
    if (!pfx) return -1;
    int rc;
    load_plan *active = active_plan;
    if (active && active->missing == missing && active->unexpected == unexpected && active->errors == errors) {
        rc = plan_local(m, sd, pfx, local_metadata, strict, active); /* copied when the whole load is checked */
    } else { /* called by hand: copied now, as PyTorch's */
        load_plan p = {.missing = nn_retain(missing), .unexpected = nn_retain(unexpected), .errors = nn_retain(errors)};
        rc = plan_local(m, sd, pfx, local_metadata, strict, &p);
        if (rc == 0) rc = run_plan(&p);
        plan_free(&p);
    }
    NN_RELEASE(pfx);
    return rc;
}

nn_object *nn_module_load_state_dict(nn_module *m, nn_object *sd, bool strict, bool assign)
{
    if (!nn_is_dict(sd)) {
        nn_error_set(NN_ERR_TYPE, "Expected state_dict to be dict-like, got <class '%s'>.", sd ? sd->type->name : "NoneType");
        return NULL;
    }
    /* hooks see (and may edit) a copy, as PyTorch's OrderedDict(state_dict) */
    nn_object *copy = nn_ordered_dict_new();
    size_t pos = 0;
    nn_object *key, *value;
    while (copy && nn_dict_next(sd, &pos, &key, &value))
        if (nn_dict_set(copy, key, value) < 0) NN_SET(copy, NULL);
    nn_object *attrs = copy ? nn_dict_attrs(sd, false) : NULL, *meta = attrs ? nn_dict_get_str(attrs, "_metadata") : NULL;
    nn_object *cattrs = meta ? nn_dict_attrs(copy, true) : NULL; /* state_dict._metadata = metadata */
    if (meta && (!cattrs || nn_dict_set_str(cattrs, "_metadata", meta) < 0)) NN_SET(copy, NULL);
    if (!copy) return NULL;
    sd = copy;
    load_plan p = {.strict = strict, .assign = assign, .root = sd};
    p.missing = nn_list_new(0);
    p.unexpected = nn_list_new(0);
    p.errors = nn_list_new(0);
    nn_object *result = NULL;
    load_plan *outer = active_plan;
    active_plan = &p;
    int rc = p.missing && p.unexpected && p.errors ? plan_module(m, sd, "", &p) : -1;
    active_plan = outer;
    if (rc == 0 && strict && nn_list_len(p.unexpected)) rc = key_list_message(p.errors, "Unexpected", p.unexpected);
    if (rc == 0 && strict && nn_list_len(p.missing)) rc = key_list_message(p.errors, "Missing", p.missing);
    if (rc == 0 && nn_list_len(p.errors)) {
        size_t cap = 256, len = 0;
        for (size_t i = 0; i < nn_list_len(p.errors); i++) cap += nn_str_len(nn_list_get(p.errors, i)) + 2;
        char *msg = nn_malloc(cap);
        if (msg) {
            len += (size_t)snprintf(msg, cap, "Error(s) in loading state_dict for %s:", nn_module_name(m));
            for (size_t i = 0; i < nn_list_len(p.errors); i++)
                len += (size_t)snprintf(msg + len, cap - len, "\n\t%s", nn_str_cstr(nn_list_get(p.errors, i)));
            nn_error_set(NN_ERR_RUNTIME, "%s", msg);
            nn_free(msg);
        }
        rc = -1;
    }
    /* everything checked: now copy (or assign) */
    if (rc == 0) rc = run_plan(&p);
    if (rc == 0) result = nn_tuple_pack(2, p.missing, p.unexpected);
    plan_free(&p);
    NN_RELEASE(copy);
    return result;
}

/* --------------------------------------------------------- modes and dtype */

int nn_module_train(nn_module *m, bool mode)
{
    nn_object *mods = nn_module_modules(m);
    if (!mods) return -1;
    for (size_t i = 0; i < nn_list_len(mods); i++) NN_MODULE(nn_list_get(mods, i))->training = mode;
    NN_RELEASE(mods);
    return 0;
}

int nn_module_requires_grad_(nn_module *m, bool requires_grad)
{
    nn_object *params = nn_module_parameters(m, true);
    int rc = params ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < nn_list_len(params); i++)
        rc = nn_set_requires_grad(NN_TENSOR(nn_list_get(params, i)), requires_grad);
    NN_RELEASE(params);
    return rc;
}

int nn_module_zero_grad(nn_module *m, bool set_to_none)
{
    nn_object *params = nn_module_parameters(m, true);
    int rc = params ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < nn_list_len(params); i++) {
        nn_tensor *p = NN_TENSOR(nn_list_get(params, i));
        if (!p->grad) continue;
        if (set_to_none) {
            NN_SET(p->grad, NULL);
        } else {
            NN_SET(p->grad->grad_fn, NULL); /* detach_() */
            p->grad->requires_grad = false;
            NN_WITH_GRAD_MODE(false, rc = nn_zero_(p->grad));
        }
    }
    NN_RELEASE(params);
    return rc;
}

/* Gives t new contents in place (param.data = src): t keeps its identity. */
static void set_data(nn_tensor *t, nn_tensor *src) { nn_tensor_take_data(t, src); }

/* Applies convert to every parameter, buffer and grad of the module tree
   (Module._apply): all conversions are made first, then swapped in. */
typedef nn_tensor *(*convert_fn)(nn_tensor *t, const void *ctx);

static int apply_tensors(nn_module *m, convert_fn convert, const void *ctx)
{
    nn_object *params = nn_module_named_parameters(m, "", true, true);
    nn_object *buffers = params ? nn_module_named_buffers(m, "", true, true) : NULL;
    size_t np = params ? nn_list_len(params) : 0, nb = buffers ? nn_list_len(buffers) : 0;
    nn_tensor **made = buffers ? nn_calloc(2 * np + nb + 1, sizeof *made) : NULL;
    int rc = made ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < np + nb; i++) {
        nn_tensor *t = NN_TENSOR(nn_tuple_get(i < np ? nn_list_get(params, i) : nn_list_get(buffers, i - np), 1));
        bool prev = nn_set_grad_enabled(false);
        made[i] = convert(t, ctx);
        if (made[i] && i < np && t->grad) made[np + nb + i] = convert(t->grad, ctx);
        nn_set_grad_enabled(prev);
        if (!made[i] || (i < np && t->grad && !made[np + nb + i])) rc = -1;
    }
    for (size_t i = 0; rc == 0 && i < np + nb; i++) {
        nn_tensor *t = NN_TENSOR(nn_tuple_get(i < np ? nn_list_get(params, i) : nn_list_get(buffers, i - np), 1));
        set_data(t, made[i]);
        if (i < np && t->grad) set_data(t->grad, made[np + nb + i]);
        if (t->requires_grad && !nn_dtype_is_floating(t->dtype)) t->requires_grad = false;
    }
    for (size_t i = 0; made && i < 2 * np + nb; i++) NN_RELEASE(made[i]);
    nn_free(made);
    NN_RELEASE(params);
    NN_RELEASE(buffers);
    return rc;
}

static nn_tensor *cast_floating(nn_tensor *t, const void *ctx)
{
    nn_dtype dt = *(const nn_dtype *)ctx;
    if (!nn_dtype_is_floating(t->dtype)) return nn_detach(t);
    nn_tensor *r = nn_to_dtype(t, dt);
    if (r == t) { /* same dtype: keep the data as is */
        NN_RELEASE(r);
        return nn_detach(t);
    }
    return r;
}

static nn_tensor *cast_any(nn_tensor *t, const void *ctx)
{
    nn_dtype dt = *(const nn_dtype *)ctx;
    if (t->dtype == dt) return nn_detach(t);
    return nn_to_dtype(t, dt);
}

static nn_tensor *empty_like_any(nn_tensor *t, const void *ctx)
{
    (void)ctx;
    return nn_empty_like(t);
}

int nn_module_to_dtype(nn_module *m, nn_dtype dtype)
{
    if (!nn_dtype_is_floating(dtype))
        return nn_error_set(NN_ERR_TYPE, "nn.Module.to only accepts floating point or complex dtypes, but got desired "
                                         "dtype=%s", nn_dtype_name(dtype));
    return apply_tensors(m, cast_floating, &dtype);
}

int nn_module_type_(nn_module *m, nn_dtype dtype) { return apply_tensors(m, cast_any, &dtype); }

/* Module.to(memory_format=f): the 4-d and 5-d tensors laid out in f, as PyTorch's convert */
static nn_tensor *to_format(nn_tensor *t, const void *ctx)
{
    if (t->ndim != 4 && t->ndim != 5) return nn_detach(t);
    nn_tensor *r = nn_to_as(t, t->dtype, *(const nn_memory_format *)ctx, false);
    if (r == t) { /* already laid out so: keep the data as is */
        NN_RELEASE(r);
        return nn_detach(t);
    }
    return r;
}

int nn_module_to_memory_format(nn_module *m, nn_memory_format f) { return apply_tensors(m, to_format, &f); }

static int check_device(const char *device)
{
    if (!strcmp(device, "cpu")) return 0;
    if (!strncmp(device, "cuda", 4) && (device[4] == '\0' || device[4] == ':') && nn_device_available(NN_CUDA))
        return 0;
    if (!strncmp(device, "cuda", 4) && (device[4] == '\0' || device[4] == ':'))
        return nn_error_set(NN_ERR_RUNTIME, "Torch not compiled with CUDA enabled: nnscope has no CUDA backend on "
                                            "this machine (no GPU or no CUDA build)");
    static const char *const known[] = {"ipu", "xpu", "mtia", "meta", "mps", "hpu"};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strncmp(device, known[i], strlen(known[i])))
            return nn_error_set(NN_ERR_RUNTIME, "device '%s' is not available: nnscope computes on the CPU%s", device,
                                " (and on CUDA where a GPU and the CUDA backend are present)");
    return nn_error_set(NN_ERR_RUNTIME,
                        "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, ort, xla, "
                        "lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device string: %s",
                        device);
}

static nn_tensor *move_to(nn_tensor *t, const void *ctx)
{
    nn_device d = *(const nn_device *)ctx;
    return nn_same_device(nn_device_of(t), d) ? nn_detach(t) : nn_to_device(t, d);
}

int nn_module_to_device(nn_module *m, const char *device)
{
    if (check_device(device) < 0) return -1;
    nn_device d = NN_DEVICE_CPU;
    if (strcmp(device, "cpu")) d = (nn_device){NN_CUDA, device[4] == ':' ? atoi(device + 5) : 0};
    return apply_tensors(m, move_to, &d); /* Parameters keep their identity (param.data = moved) */
}

int nn_module_to_empty(nn_module *m, const char *device)
{
    if (check_device(device) < 0) return -1;
    return apply_tensors(m, empty_like_any, NULL);
}

int nn_module_share_memory(nn_module *m)
{
    (void)m;
    return 0;
}

int nn_module_apply(nn_module *m, nn_object *fn)
{
    nn_object *children = nn_module_children(m);
    int rc = children ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < nn_list_len(children); i++) rc = nn_module_apply(NN_MODULE(nn_list_get(children, i)), fn);
    NN_RELEASE(children);
    if (rc == 0) {
        nn_object *r = call_hook(fn, 1, (nn_object *[]){&m->ob});
        rc = r ? 0 : -1;
        NN_RELEASE(r);
    }
    return rc;
}

/* ------------------------------------------------------------------- repr */

/* Appends s with every line after the first indented by two spaces (_addindent). */
static void text_add_indented(nn_text *t, const char *s)
{
    for (const char *p = s; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
        nn_text_add(t, p, n);
        p += n;
        if (nl && *p) nn_text_puts(t, "  ");
    }
}

char *nn_module_repr(nn_module *m)
{
    const nn_module_class *owner = NN_MODULE_SLOT(m->cls, extra_repr);
    char *extra = owner ? owner->extra_repr(m) : nn_strdup("");
    if (!extra) return NULL;
    nn_text t = {0};
    nn_text_puts(&t, nn_module_name(m));
    nn_text_puts(&t, "(");
    bool has_children = nn_dict_len(m->modules) > 0, multiline_extra = strchr(extra, '\n') != NULL;
    if (extra[0] && !has_children && !multiline_extra) {
        nn_text_puts(&t, extra);
    } else if (extra[0] || has_children) {
        if (extra[0]) {
            nn_text_puts(&t, "\n  ");
            text_add_indented(&t, extra);
        }
        size_t pos = 0;
        nn_object *k, *v;
        while (nn_dict_next(m->modules, &pos, &k, &v)) {
            char *child = nn_repr(v);
            if (!child) {
                t.failed = true;
                break;
            }
            nn_text_puts(&t, "\n  (");
            nn_text_puts(&t, nn_str_cstr(k));
            nn_text_puts(&t, "): ");
            text_add_indented(&t, child);
            nn_free(child);
        }
        nn_text_puts(&t, "\n");
    }
    nn_text_puts(&t, ")");
    nn_free(extra);
    return nn_text_finish(&t);
}
