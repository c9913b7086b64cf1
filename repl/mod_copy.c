/*
 * mod_copy.c — `import copy`: copy(x) and deepcopy(x, memo=None) as CPython's
 * copy module does them for the language's values, with PyTorch's rules for
 * tensors and modules: deepcopy of a leaf tensor is a new tensor with its own
 * storage (a Parameter stays a Parameter, requires_grad and .grad are copied),
 * of a non-leaf PyTorch's RuntimeError; deepcopy of an nn.Module is a module
 * of the same class with its own parameters, buffers and submodules (weights
 * tied within the model stay tied: the memo maps each original to its copy).
 * A class's __copy__() / __deepcopy__(memo) are honoured; memo is a dict from
 * id(original) to the copy, as CPython's.
 */
#include <string.h>

#include "bind_int.h"
#include "stdlib_int.h"
#include "bigint.h"

static nn_object *deepcopy(nn_object *x, nn_object *memo);

static bool is_atomic(const nn_object *x)
{
    const nn_type *t = x->type;
    return t == &nn_none_type || t == &nn_int_type || t == &repl_bigint_type || t == &nn_float_type || t == &nn_bool_type || t == &nn_str_type ||
           t == &repl_function_type || t == &repl_class_type || t == &repl_module_type || t == &repl_range_type ||
           t == &nn_cfunction_type || repl_is_native_function(x) || repl_is_not_implemented(x);
}

static nn_object *cannot_pickle(nn_object *x)
{
    repl_raise_exc(EXC_TypeError, "cannot pickle '%s' object", repl_value_type_name(x));
    return NULL;
}

/* The class a user hook (__copy__, __deepcopy__) is looked up in, or NULL. */
static class_obj *hook_class(nn_object *x)
{
    if (x->type == &repl_instance_type) return ((instance_obj *)x)->cls;
    return repl_module_lang_class(x);
}

/* A tensor sharing x's storage (copy.copy), requires_grad and Parameter-ness kept. */
static nn_object *copy_tensor(nn_tensor *t, bool deep)
{
    if (deep && !nn_is_leaf(t)) {
        nn_error_set(NN_ERR_RUNTIME,
                     "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at the moment");
        return NULL;
    }
    nn_tensor *d = nn_detach(t);
    if (d && deep) {
        nn_tensor *c = nn_clone(d);
        NN_RELEASE(d);
        d = c;
    }
    if (!d) return NULL;
    nn_tensor *r;
    if (nn_is_parameter(&t->ob)) {
        r = nn_parameter_new(d, t->requires_grad);
    } else {
        r = d;
        NN_RETAIN(r);
        if (t->requires_grad && nn_set_requires_grad(r, true) < 0) NN_SET(r, NULL);
    }
    NN_RELEASE(d);
    return r ? &r->ob : NULL;
}

static int memo_put(nn_object *memo, nn_object *x, nn_object *y)
{
    nn_object *key = nn_int_new((int64_t)(intptr_t)x);
    int rc = key ? nn_dict_set(memo, key, y) : -1;
    NN_RELEASE(key);
    return rc;
}

/* A dict of the same kind (ordered or not) with each key and value deep-copied. */
static nn_object *deepcopy_dict(nn_object *d, nn_object *memo, bool register_it)
{
    nn_object *r = nn_dict_is_ordered(d) ? nn_ordered_dict_new() : nn_dict_new();
    if (!r || (register_it && memo_put(memo, d, r) < 0)) {
        NN_RELEASE(r);
        return NULL;
    }
    size_t pos = 0;
    nn_object *k, *v;
    while (nn_dict_next(d, &pos, &k, &v)) {
        nn_object *k2 = deepcopy(k, memo), *v2 = k2 ? deepcopy(v, memo) : NULL;
        int rc = v2 ? nn_dict_set(r, k2, v2) : -1;
        NN_RELEASE(k2);
        NN_RELEASE(v2);
        if (rc < 0) {
            NN_RELEASE(r);
            return NULL;
        }
    }
    nn_object *attrs = nn_dict_attrs(d, false); /* an OrderedDict's __dict__ (a state_dict's _metadata) */
    if (attrs && nn_dict_len(attrs)) {
        nn_object *a2 = deepcopy_dict(attrs, memo, false), *into = a2 ? nn_dict_attrs(r, true) : NULL;
        pos = 0;
        while (into && nn_dict_next(a2, &pos, &k, &v))
            if (nn_dict_set(into, k, v) < 0) into = NULL;
        if (!into) NN_SET(r, NULL);
        NN_RELEASE(a2);
    }
    return r;
}

/* copy.copy of a dict: its items, and an OrderedDict's attributes (the same values) */
static nn_object *copy_dict(nn_object *x)
{
    nn_object *r = nn_dict_copy(x), *attrs = nn_dict_attrs(x, false), *into, *k, *v;
    size_t pos = 0;
    if (r && attrs && nn_dict_len(attrs) && (into = nn_dict_attrs(r, true)))
        while (r && nn_dict_next(attrs, &pos, &k, &v))
            if (nn_dict_set(into, k, v) < 0) NN_SET(r, NULL);
    return r;
}

static nn_object *deepcopy_module(nn_module *m, nn_object *memo)
{
    nn_module *r = nn_module_new(m->cls);
    if (!r || memo_put(memo, &m->ob, &r->ob) < 0) {
        NN_RELEASE(r);
        return NULL;
    }
    r->training = m->training;
    r->is_full_backward_hook = m->is_full_backward_hook;
    nn_object **src[] = {&m->parameters, &m->buffers, &m->non_persistent, &m->modules, &m->attrs,
                         &m->forward_pre_hooks, &m->forward_pre_hooks_with_kwargs, &m->forward_hooks,
                         &m->forward_hooks_with_kwargs, &m->forward_hooks_always_called, &m->backward_pre_hooks,
                         &m->backward_hooks, &m->state_dict_pre_hooks, &m->state_dict_hooks,
                         &m->load_state_dict_pre_hooks, &m->load_state_dict_post_hooks};
    for (size_t i = 0; i < sizeof src / sizeof *src; i++) {
        nn_object **dst = (nn_object **)((char *)r + ((char *)src[i] - (char *)m));
        nn_object *d = deepcopy_dict(*src[i], memo, false);
        if (!d) {
            NN_RELEASE(r);
            return NULL;
        }
        NN_SET(*dst, d);
    }
    return &r->ob;
}

/* A copy of instance x through its class's __getstate__/__setstate__, as copy's
   reduce protocol: the state, deep-copied for deepcopy (memo not NULL), given to
   the new instance's __setstate__, else its items become its attributes. */
static nn_object *copy_by_state(instance_obj *x, nn_object *memo)
{
    instance_obj *r = (instance_obj *)repl_instance_new(x->cls);
    if (!r || (memo && memo_put(memo, &x->ob, &r->ob) < 0)) {
        NN_RELEASE(r);
        return NULL;
    }
    nn_object *state = repl_class_lookup(x->cls, "__getstate__") ? repl_call_method(&x->ob, "__getstate__", NULL, 0)
                                                                  : repl_instance_dict(x);
    if (state && memo) {
        nn_object *deep = deepcopy(state, memo);
        NN_RELEASE(state);
        state = deep;
    }
    int rc = state ? 0 : -1;
    if (rc == 0 && repl_class_lookup(x->cls, "__setstate__")) {
        nn_object *res = repl_call_method(&r->ob, "__setstate__", &state, 1);
        rc = res ? 0 : -1;
        NN_RELEASE(res);
    } else if (rc == 0 && nn_is_dict(state)) {
        size_t pos = 0;
        nn_object *k, *v;
        while (rc == 0 && nn_dict_next(state, &pos, &k, &v))
            if (nn_is_str(k)) rc = repl_instance_put(r, nn_str_cstr(k), v);
    }
    NN_RELEASE(state);
    if (rc < 0) NN_SET(r, NULL);
    return r ? &r->ob : NULL;
}

static bool has_state_hooks(instance_obj *x)
{
    return !x->value && (repl_class_lookup(x->cls, "__getstate__") || repl_class_lookup(x->cls, "__setstate__"));
}

static nn_object *deepcopy_instance(instance_obj *x, nn_object *memo)
{
    instance_obj *r = (instance_obj *)repl_instance_new(x->cls);
    if (!r || memo_put(memo, &x->ob, &r->ob) < 0) {
        NN_RELEASE(r);
        return NULL;
    }
    r->attrs_in_value = x->attrs_in_value;
    if (repl_instance_dict_sync(x) < 0 || (x->value && !(r->value = deepcopy(x->value, memo)))) { /* a subclass of a built-in type: its value */
        NN_RELEASE(r);
        return NULL;
    }
    uint32_t pos = 0;
    const char *k;
    nn_object *v;
    while (repl_nmap_next(&x->attrs, &pos, &k, &v)) {
        nn_object *v2 = deepcopy(v, memo);
        int rc = v2 ? repl_nmap_set(&r->attrs, k, v2) : -1;
        NN_RELEASE(v2);
        if (rc < 0) {
            NN_RELEASE(r);
            return NULL;
        }
    }
    return &r->ob;
}

static nn_object *deepcopy_seq(nn_object *x, nn_object *memo)
{
    bool tuple = x->type == &nn_tuple_type;
    size_t n = tuple ? nn_tuple_len(x) : nn_list_len(x);
    nn_object *r = tuple ? nn_tuple_new(n) : nn_list_new(n);
    if (!r || (!tuple && memo_put(memo, x, r) < 0)) {
        NN_RELEASE(r);
        return NULL;
    }
    bool same = true;
    for (size_t i = 0; i < n; i++) {
        nn_object *item = tuple ? nn_tuple_get(x, i) : nn_list_get(x, i), *c = deepcopy(item, memo);
        if (!c || (!tuple && nn_list_append(r, c) < 0)) {
            NN_RELEASE(c);
            NN_RELEASE(r);
            return NULL;
        }
        same = same && c == item;
        if (tuple) nn_tuple_set(r, i, c);
        else NN_RELEASE(c);
    }
    if (tuple && same) NN_SET(r, nn_retain(x)); /* CPython keeps a tuple of atoms */
    return r;
}

static nn_object *deepcopy_set(nn_object *x, nn_object *memo)
{
    set_obj *s = (set_obj *)x;
    nn_object *r = repl_set_new(s->frozen);
    if (!r || (!s->frozen && memo_put(memo, x, r) < 0)) {
        NN_RELEASE(r);
        return NULL;
    }
    size_t pos = 0;
    nn_object *k, *v;
    while (nn_dict_next(s->d, &pos, &k, &v)) {
        nn_object *c = deepcopy(k, memo);
        int rc = c ? repl_set_add(r, c) : -1;
        NN_RELEASE(c);
        if (rc < 0) {
            NN_RELEASE(r);
            return NULL;
        }
    }
    return r;
}

static nn_object *deepcopy_one(nn_object *x, nn_object *memo);

/* copy.deepcopy's walk; nested containers count against the recursion limit as
   CPython's copy.py's frames do: deepcopy and its copier (two for a list or a
   dict), and a tuple's comprehension (three) */
static nn_object *deepcopy(nn_object *x, nn_object *memo)
{
    int frames = x->type == &nn_tuple_type ? 3 : x->type == &nn_list_type || x->type == &nn_dict_type ? 2 : 1, entered = 0;
    nn_object *r = NULL;
    while (entered < frames && nn_recursion_enter(" while calling a Python object") == 0) entered++;
    if (entered == frames) r = deepcopy_one(x, memo);
    while (entered--) nn_recursion_leave();
    return r;
}

static nn_object *deepcopy_one(nn_object *x, nn_object *memo)
{
    nn_object *key = nn_int_new((int64_t)(intptr_t)x);
    if (!key) return NULL;
    nn_object *seen = nn_dict_get(memo, key);
    NN_RELEASE(key);
    if (seen) return nn_retain(seen);
    if (is_atomic(x)) return nn_retain(x);
    if (nn_stack_check() < 0) return NULL;
    class_obj *hc = hook_class(x);
    if (hc && repl_class_lookup(hc, "__deepcopy__")) return repl_call_method(x, "__deepcopy__", &memo, 1);
    if (x->type == &nn_tuple_type || x->type == &nn_list_type) return deepcopy_seq(x, memo);
    if (x->type == &nn_dict_type) return deepcopy_dict(x, memo, true);
    if (x->type == &repl_set_type) return deepcopy_set(x, memo);
    if (x->type == &repl_instance_type && has_state_hooks((instance_obj *)x)) return copy_by_state((instance_obj *)x, memo);
    if (x->type == &repl_instance_type) return deepcopy_instance((instance_obj *)x, memo);
    if (nn_is_module(x)) return deepcopy_module(NN_MODULE(x), memo);
    if (nn_is_tensor(x)) {
        nn_tensor *t = NN_TENSOR(x);
        nn_object *r = copy_tensor(t, true);
        if (!r || memo_put(memo, x, r) < 0) {
            NN_RELEASE(r);
            return NULL;
        }
        if (t->grad) {
            nn_object *g = deepcopy(&t->grad->ob, memo);
            if (!g) {
                NN_RELEASE(r);
                return NULL;
            }
            NN_SET(NN_TENSOR(r)->grad, NN_TENSOR(g));
        }
        return r;
    }
    if (x->type == &repl_method_type) { /* the function kept, its self copied */
        method_obj *m = (method_obj *)x;
        nn_object *self = deepcopy(m->self, memo);
        nn_object *r = self ? repl_method_new(m->func, self) : NULL;
        NN_RELEASE(self);
        return r;
    }
    return cannot_pickle(x);
}

nn_object *repl_deepcopy(nn_object *x)
{
    nn_object *memo = nn_dict_new(), *r = memo ? deepcopy(x, memo) : NULL;
    NN_RELEASE(memo);
    return r;
}

static nn_object *copy_deepcopy(void *ud, nn_object *args, nn_object *kwargs)
{
    static const char *const kw[] = {"memo", "_nil", NULL};
    if (repl_mod_kwargs_only("deepcopy", kwargs, kw) < 0) return NULL;
    size_t n = args ? nn_tuple_len(args) : 0;
    nn_object *memo = n > 1 ? nn_tuple_get(args, 1) : repl_mod_kwarg(kwargs, "memo");
    if (n < 1 || n > 3) {
        repl_raise_exc(EXC_TypeError, n < 1 ? "deepcopy() missing 1 required positional argument: 'x'"
                                             : "deepcopy() takes from 1 to 3 positional arguments but %zu were given", n);
        return NULL;
    }
    if (memo && !nn_is_none(memo) && !nn_is_dict(memo)) {
        repl_raise_exc(EXC_TypeError, "deepcopy()'s memo must be a dict, not '%s'", repl_value_type_name(memo));
        return NULL;
    }
    nn_object *own = memo && !nn_is_none(memo) ? nn_retain(memo) : nn_dict_new();
    nn_object *r = own ? deepcopy(nn_tuple_get(args, 0), own) : NULL;
    NN_RELEASE(own);
    return r;
}

static nn_object *copy_copy(void *ud, nn_object *args, nn_object *kwargs);

/* copy.copy of the built-in value a subclass's instance carries. */
static nn_object *shallow_value(nn_object *v)
{
    nn_object *t = nn_tuple_pack(1, v), *r = t ? copy_copy(NULL, t, NULL) : NULL;
    NN_RELEASE(t);
    return r;
}

static nn_object *copy_copy(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("copy", args, kwargs, 1, 1) < 0) return NULL;
    nn_object *x = nn_tuple_get(args, 0);
    if (is_atomic(x) || x->type == &nn_tuple_type || (x->type == &repl_set_type && ((set_obj *)x)->frozen))
        return nn_retain(x);
    class_obj *hc = hook_class(x);
    if (hc && repl_class_lookup(hc, "__copy__")) return repl_call_method(x, "__copy__", NULL, 0);
    if (x->type == &nn_list_type) {
        nn_object *r = nn_list_new(nn_list_len(x));
        for (size_t i = 0; r && i < nn_list_len(x); i++)
            if (nn_list_append(r, nn_list_get(x, i)) < 0) NN_SET(r, NULL);
        return r;
    }
    if (x->type == &nn_dict_type) return copy_dict(x);
    if (x->type == &repl_set_type) {
        nn_object *r = repl_set_new(false);
        size_t pos = 0;
        nn_object *k, *v;
        while (r && nn_dict_next(((set_obj *)x)->d, &pos, &k, &v))
            if (repl_set_add(r, k) < 0) NN_SET(r, NULL);
        return r;
    }
    if (x->type == &repl_instance_type && has_state_hooks((instance_obj *)x)) return copy_by_state((instance_obj *)x, NULL);
    if (x->type == &repl_instance_type) {
        instance_obj *src = (instance_obj *)x, *r = (instance_obj *)repl_instance_new(src->cls);
        if (r && src->value && !(r->value = shallow_value(src->value))) NN_SET(r, NULL);
        if (r) r->attrs_in_value = src->attrs_in_value;
        if (r && repl_instance_dict_sync(src) < 0) NN_SET(r, NULL);
        uint32_t pos = 0;
        const char *k;
        nn_object *v;
        while (r && repl_nmap_next(&src->attrs, &pos, &k, &v))
            if (repl_nmap_set(&r->attrs, k, v) < 0) NN_SET(r, NULL);
        return r ? &r->ob : NULL;
    }
    if (nn_is_tensor(x)) return copy_tensor(NN_TENSOR(x), false);
    if (nn_is_module(x)) { /* a new module whose dicts hold the same values */
        nn_module *m = NN_MODULE(x), *r = nn_module_new(m->cls);
        if (!r) return NULL;
        r->training = m->training;
        r->is_full_backward_hook = m->is_full_backward_hook;
        nn_object **src[] = {&m->parameters, &m->buffers, &m->non_persistent, &m->modules, &m->attrs};
        for (size_t i = 0; i < sizeof src / sizeof *src; i++) {
            nn_object **dst = (nn_object **)((char *)r + ((char *)src[i] - (char *)m));
            nn_object *d = nn_dict_copy(*src[i]);
            if (!d) {
                NN_RELEASE(r);
                return NULL;
            }
            NN_SET(*dst, d);
        }
        return &r->ob;
    }
    return cannot_pickle(x);
}

static const repl_mod_fn fns[] = {
    {"copy", copy_copy, "copy(x)\nShallow copy operation on arbitrary Python objects."},
    {"deepcopy", copy_deepcopy, "deepcopy(x, memo=None, _nil=[])\nDeep copy operation on arbitrary Python objects."},
};

nn_object *repl_mod_copy(void)
{
    nn_object *m = repl_module_new("copy");
    if (m && repl_mod_add_fns(m, fns, sizeof fns / sizeof *fns) < 0) NN_SET(m, NULL);
    return m;
}
