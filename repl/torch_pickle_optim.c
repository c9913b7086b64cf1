/*
 * torch_pickle_optim.c — torch.save / torch.load of optimizer objects (and of the
 * collections.defaultdict their state is), as PyTorch 1.13 pickles them:
 *   optimizer    GLOBAL torch.optim.sgd SGD (the class by reference), NEWOBJ, BUILD
 *                with Optimizer.__getstate__: {'defaults', 'state', 'param_groups'},
 *                its state a defaultdict(dict) keyed by the parameters themselves;
 *   defaultdict  collections.defaultdict(factory) REDUCE, its items by SETITEMS.
 *   Counter      collections.Counter REDUCE of ({counts},) (MultiStepLR's milestones).
 * Loading an optimizer of core's classes (SGD, Adam, AdamW) makes it anew from the
 * saved param_groups and defaults, then loads its per-parameter state as
 * load_state_dict does; one written in the language (RMSprop, a user's subclass)
 * gets the saved __dict__, as PyTorch's __setstate__. Called by
 * torch_pickle_objects.c's hooks.
 */
#include <string.h>

#include "bind_int.h"
#include "eval_int.h"

static nn_object *collections_attr(const char *name)
{
    nn_object *m = repl_import_by_name("collections"), *r = m ? repl_get_attr(m, name) : NULL;
    NN_RELEASE(m);
    return r;
}

/* Whether a lookup's result r is missing for want of memory (its MemoryError stays
   set); another failure (the name is not there) is cleared. */
static bool out_of_memory(const nn_object *r)
{
    if (r || !nn_error_current()) return false;
    if (nn_error_current() == NN_ERR_MEMORY) return true;
    NN_RELEASE(repl_take_exception());
    nn_error_clear();
    return false;
}

/* whether o is an instance of collections.NAME (defaultdict, Counter) */
static bool is_collections(nn_object *o, const char *name)
{
    if (o->type != &repl_instance_type) return false;
    nn_object *cls = collections_attr(name);
    bool r = cls && cls->type == &repl_class_type && repl_class_is_subclass(repl_class_of(o), (class_obj *)cls);
    if (!cls) nn_error_clear();
    NN_RELEASE(cls);
    return r;
}

static bool is_defaultdict(nn_object *o) { return is_collections(o, "defaultdict"); }

static nn_object *tuple_take(nn_object *a, nn_object *b, nn_object *c, nn_object *d, nn_object *e)
{
    nn_object *t = a && b && c && d && e ? nn_tuple_pack(5, a, b, c, d, e) : NULL;
    NN_RELEASE(a), NN_RELEASE(b), NN_RELEASE(c), NN_RELEASE(d), NN_RELEASE(e);
    return t;
}

/* a built-in class as protocol 2 names it (__builtin__.dict; int is long, str unicode, as
   CPython's fix_imports writes them), or NULL */
static const char *builtin_class_name(nn_object *o)
{
    if (!repl_current) return NULL;
    struct { class_obj *cls; const char *name; } known[] = {
        {repl_current->dict_cls, "dict"}, {repl_current->list_cls, "list"}, {repl_current->int_cls, "long"},
        {repl_current->float_cls, "float"}, {repl_current->set_cls, "set"}, {repl_current->str_cls, "unicode"}};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (known[i].cls && o == &known[i].cls->ob) return known[i].name;
    return NULL;
}

/* optimizer.state as a defaultdict(dict) (core's optimizers keep a plain dict) */
static nn_object *state_defaultdict(nn_object *opt)
{
    nn_object *st = repl_get_attr(opt, "state");
    if (!st || is_defaultdict(st)) return st;
    nn_object *cls = collections_attr("defaultdict");
    nn_object *r = cls ? repl_call_object(cls, (nn_object *[]){&repl_current->dict_cls->ob, st}, 2, NULL) : NULL;
    NN_RELEASE(cls);
    NN_RELEASE(st);
    return r;
}

int repl_optim_pickle_reduce(nn_object *o, nn_object **out)
{
    *out = NULL;
    const char *bname = builtin_class_name(o);
    if (bname) {
        nn_object *m = nn_str_new("__builtin__"), *n = nn_str_new(bname);
        *out = m && n ? nn_tuple_pack(2, m, n) : NULL;
        NN_RELEASE(m), NN_RELEASE(n);
        return *out ? 1 : -1;
    }
    if (is_defaultdict(o)) {
        nn_object *f = repl_get_attr(o, "default_factory"), *items = f ? repl_get_attr(o, "_d") : NULL;
        nn_object *args = items ? nn_tuple_pack(1, f) : NULL;
        NN_RELEASE(f);
        *out = tuple_take(nn_str_new("collections"), nn_str_new("defaultdict"), args, nn_retain(nn_none()), items);
        return *out ? 1 : -1;
    }
    if (is_collections(o, "Counter")) { /* Counter.__reduce__: (Counter, (dict(self),)), REDUCE */
        nn_object *d = repl_get_attr(o, "_d"), *copy = d && nn_is_dict(d) ? nn_dict_copy(d) : NULL;
        nn_object *args = copy ? nn_tuple_pack(1, copy) : NULL;
        NN_RELEASE(d);
        NN_RELEASE(copy);
        nn_object *m = nn_str_new("collections"), *n = nn_str_new("Counter");
        *out = m && n && args ? nn_tuple_pack(4, m, n, args, nn_none()) : NULL;
        NN_RELEASE(m), NN_RELEASE(n), NN_RELEASE(args);
        return *out ? 1 : -1;
    }
    if (!repl_optim_is_optimizer(o)) return 0;
    nn_object *cls = o->type == &repl_instance_type ? nn_retain(&repl_class_of(o)->ob) : repl_bind_type_of(o);
    nn_object *mod = cls ? repl_get_attr(cls, "__module__") : NULL, *name = mod ? repl_get_attr(cls, "__qualname__") : NULL;
    NN_RELEASE(cls);
    nn_object *state = name && nn_is_str(mod) && nn_is_str(name) ? nn_dict_new() : NULL;
    const char *keys[] = {"defaults", "state", "param_groups"};
    for (int i = 0; state && i < 3; i++) {
        nn_object *v = i == 1 ? state_defaultdict(o) : repl_get_attr(o, keys[i]);
        if (!v || nn_dict_set_str(state, keys[i], v) < 0) NN_SET(state, NULL);
        NN_RELEASE(v);
    }
    *out = tuple_take(mod, name, nn_retain(nn_none()), state, nn_dict_new());
    return *out ? 1 : -1;
}

/* ----------------------------------------------------------------- loading */

/* What NEWOBJ of one of core's optimizer classes gives: the class, waiting for
   BUILD's state to make the optimizer. */
typedef struct pending {
    nn_object ob;
    nn_object *cls;
} pending;

static void pending_dealloc(nn_object *self)
{
    NN_RELEASE(((pending *)self)->cls);
    nn_free(self);
}

static const nn_type pending_type = {.name = "optimizer (unpickling)", .dealloc = pending_dealloc};

nn_object *repl_optim_pickle_find(const char *module, const char *name, bool *is_value, bool *handled)
{
    *handled = false;
    if ((!strcmp(module, "__builtin__") || !strcmp(module, "builtins")) && repl_current) { /* a defaultdict's factory */
        class_obj *known[] = {repl_current->dict_cls, repl_current->list_cls, repl_current->int_cls,
                              repl_current->float_cls, repl_current->str_cls};
        for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
            if (known[i] && (!strcmp(builtin_class_name(&known[i]->ob), name) || !strcmp(known[i]->name, name))) {
                *handled = *is_value = true;
                return nn_retain(&known[i]->ob);
            }
    }
    if (!strcmp(module, "collections") && (!strcmp(name, "defaultdict") || !strcmp(name, "Counter"))) {
        *handled = true;
        return collections_attr(name);
    }
    if (strncmp(module, "torch.optim.", 12) || name[0] == '_') return NULL;
    bool sched = !strcmp(module, "torch.optim.lr_scheduler"); /* a scheduler: the language's classes */
    nn_object *optim = repl_import_by_name(sched ? module : "torch.optim");
    nn_object *cls = optim ? repl_get_attr(optim, name) : NULL;
    NN_RELEASE(optim);
    if (!cls) {
        *handled = out_of_memory(cls);
        return NULL;
    }
    nn_object *cmod = repl_get_attr(cls, "__module__");
    bool same = cmod && nn_is_str(cmod) && !strcmp(nn_str_cstr(cmod), module);
    if (out_of_memory(cmod)) *handled = true;
    NN_RELEASE(cmod);
    if (!same || (sched && cls->type != &repl_class_type)) {
        NN_RELEASE(cls);
        return NULL;
    }
    *handled = true;
    return cls;
}

nn_object *repl_optim_pickle_call(nn_object *cls, nn_object *args, bool newobj, bool *handled)
{
    *handled = false;
    nn_object *dd = collections_attr("defaultdict");
    if (out_of_memory(dd)) return NULL;
    bool is_dd = dd && cls == dd;
    NN_RELEASE(dd);
    if (is_dd) { /* defaultdict(factory): the factory must be a class pickle named */
        *handled = true;
        nn_object *f = nn_tuple_len(args) == 1 ? nn_tuple_get(args, 0) : NULL;
        if (newobj || !f || (!nn_is_none(f) && !builtin_class_name(f))) {
            repl_raise_exc(EXC_UnpicklingError, "a pickled defaultdict takes one built-in class (dict, list, int, ...)");
            return NULL;
        }
        return repl_call_object(cls, &f, 1, NULL);
    }
    nn_object *counter = collections_attr("Counter");
    if (out_of_memory(counter)) return NULL;
    bool is_counter = counter && cls == counter;
    NN_RELEASE(counter);
    if (is_counter) { /* Counter(dict): its counts */
        *handled = true;
        nn_object *d = nn_tuple_len(args) == 1 ? nn_tuple_get(args, 0) : NULL;
        if (newobj || !d || !nn_is_dict(d)) {
            repl_raise_exc(EXC_UnpicklingError, "a pickled Counter takes one dict of counts");
            return NULL;
        }
        return repl_call_object(cls, &d, 1, NULL);
    }
    if (!newobj || cls->type == &repl_class_type) return NULL; /* the language's optimizers: plain instances */
    nn_object *mod = repl_get_attr(cls, "__module__"); /* core's SGD, Adam, AdamW (torch.optim.sgd ...) */
    bool optim = mod && nn_is_str(mod) && !strncmp(nn_str_cstr(mod), "torch.optim.", 12);
    if (out_of_memory(mod)) return NULL;
    NN_RELEASE(mod);
    if (!optim) return NULL;
    pending *p = nn_malloc(sizeof *p);
    if (!p) return NULL;
    nn_object_init(&p->ob, &pending_type);
    p->cls = nn_retain(cls);
    *handled = true;
    return &p->ob;
}

nn_object *repl_optim_pickle_items(nn_object *obj)
{
    if (!is_defaultdict(obj)) return NULL;
    nn_object *d = repl_get_attr(obj, "_d");
    if (!d) {
        nn_error_clear();
        return NULL;
    }
    NN_RELEASE(d); /* the instance keeps it */
    return nn_is_dict(d) ? d : NULL;
}

/* state_dict form of a pickled optimizer's state: param_groups with each parameter
   replaced by its index, and state keyed by those indices (load_state_dict's input). */
static nn_object *as_state_dict(nn_object *groups, nn_object *state)
{
    nn_object *sd = nn_dict_new(), *g2 = nn_list_new(0), *st = nn_dict_new(), *index = nn_dict_new();
    int64_t next = 0;
    int rc = sd && g2 && st && index ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < nn_list_len(groups); i++) {
        nn_object *g = nn_list_get(groups, i), *params = nn_is_dict(g) ? nn_dict_get_str(g, "params") : NULL;
        if (!params || !nn_is_list(params)) {
            rc = repl_raise_exc(EXC_UnpicklingError, "a pickled optimizer's param_groups are dicts with a params list");
            break;
        }
        nn_object *copy = nn_dict_copy(g), *ids = nn_list_new(0);
        for (size_t j = 0; rc == 0 && copy && ids && j < nn_list_len(params); j++) {
            nn_object *p = nn_list_get(params, j), *id = nn_int_new(next++);
            if (!id || nn_list_append(ids, id) < 0 || nn_dict_set(index, p, id) < 0) rc = -1;
            NN_RELEASE(id);
        }
        if (!copy || !ids || nn_dict_set_str(copy, "params", ids) < 0 || nn_list_append(g2, copy) < 0) rc = -1;
        NN_RELEASE(copy);
        NN_RELEASE(ids);
    }
    nn_object *items = rc == 0 ? (nn_is_dict(state) ? nn_retain(state) : repl_get_attr(state, "_d")) : NULL;
    if (rc == 0 && (!items || !nn_is_dict(items)))
        rc = nn_error_current() ? -1 : repl_raise_exc(EXC_UnpicklingError, "a pickled optimizer's state is not a dict");
    nn_object *k, *v;
    size_t pos = 0;
    while (rc == 0 && nn_dict_next(items, &pos, &k, &v)) {
        nn_object *id = nn_dict_get(index, k);
        if (id && nn_dict_set(st, id, v) < 0) rc = -1;
    }
    NN_RELEASE(items);
    if (rc == 0 && (nn_dict_set_str(sd, "state", st) < 0 || nn_dict_set_str(sd, "param_groups", g2) < 0)) rc = -1;
    NN_RELEASE(g2), NN_RELEASE(st), NN_RELEASE(index);
    if (rc < 0) NN_SET(sd, NULL);
    return sd;
}

int repl_optim_pickle_build(nn_object *obj, nn_object *state, nn_object **replacement)
{
    if (obj->type != &pending_type) return 0;
    nn_object *groups = nn_is_dict(state) ? nn_dict_get_str(state, "param_groups") : NULL;
    nn_object *defaults = nn_is_dict(state) ? nn_dict_get_str(state, "defaults") : NULL;
    nn_object *st = nn_is_dict(state) ? nn_dict_get_str(state, "state") : NULL;
    if (!groups || !nn_is_list(groups) || !defaults || !nn_is_dict(defaults) || !st)
        return repl_raise_exc(EXC_UnpicklingError, "a pickled optimizer's state is {'defaults', 'state', 'param_groups'}");
    /* cls(param_groups, **defaults): every group keeps its own options */
    nn_object *sd = as_state_dict(groups, st);
    nn_object *plain = sd ? nn_list_new(0) : NULL;
    for (size_t i = 0; plain && i < nn_list_len(groups); i++) {
        nn_object *g = nn_dict_copy(nn_list_get(groups, i));
        if (!g || nn_list_append(plain, g) < 0) NN_SET(plain, NULL);
        NN_RELEASE(g);
    }
    nn_object *opt = plain ? repl_call_object(((pending *)obj)->cls, &plain, 1, defaults) : NULL;
    NN_RELEASE(plain);
    nn_object *r = opt ? repl_call_method(opt, "load_state_dict", &sd, 1) : NULL;
    NN_RELEASE(sd);
    NN_RELEASE(r);
    if (!r) {
        NN_RELEASE(opt);
        return -1;
    }
    *replacement = opt;
    return 1;
}
