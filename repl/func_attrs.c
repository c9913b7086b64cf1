/*
 * func_attrs.c — the attributes of a function object as CPython 3.11 has them:
 * __annotations__ (evaluated where the def runs, or kept as source text after
 * `from __future__ import annotations`), __qualname__ (`outer.<locals>.inner`,
 * `A.m`), __defaults__, __kwdefaults__, __module__, __dict__ and any attribute a
 * script sets on it (`f.calls = 0`), and assigning __name__, __qualname__,
 * __doc__, __annotations__ and __dict__ (functools.wraps does).
 */
#include <stdio.h>
#include <string.h>

#include "eval_int.h"

/* The text of expression n in source (its recorded span), as a new str. */
static nn_object *node_text(const char *source, const repl_node *n)
{
    const char *s = source;
    for (int l = 1; s && l < n->line; l++) {
        s = strchr(s, '\n');
        if (s) s++;
    }
    const char *e = s;
    for (int l = n->line; e && l < n->end_line; l++) {
        e = strchr(e, '\n');
        if (e) e++;
    }
    if (!s || !e || !n->end_line || e + n->end_col < s + n->col) return nn_str_new("");
    return nn_str_from(s + n->col, (size_t)(e + n->end_col - (s + n->col)));
}

int repl_func_set_annotations(func_obj *fn, const repl_node *def, const char *source,
                              nn_object *(*evaluate)(void *ctx, const repl_node *n), void *ctx)
{
    const repl_node *a = fn->args;
    bool text = def->kind == REPL_AST_FunctionDef && def->v.FunctionDef.future_annotations;
    const repl_node *returns = def->kind == REPL_AST_FunctionDef ? def->v.FunctionDef.returns : NULL;
    /* CPython's order: positional-only, positional, *args, keyword-only, **kwargs, return */
    const repl_node_list *lists[3] = {&a->v.arguments.posonlyargs, &a->v.arguments.args, &a->v.arguments.kwonlyargs};
    const repl_node *singles[2] = {a->v.arguments.vararg, a->v.arguments.kwarg};
    nn_object *d = NULL;
    for (int step = 0; step < 6; step++) {
        int count = step == 0 ? lists[0]->n : step == 1 ? lists[1]->n : step == 3 ? lists[2]->n : 1;
        for (int i = 0; i < count; i++) {
            const repl_node *p = step == 0 || step == 1 ? lists[step]->items[i]
                                 : step == 3        ? lists[2]->items[i]
                                 : step == 2        ? singles[0]
                                 : step == 4        ? singles[1]
                                                    : NULL;
            const repl_node *ann = step == 5 ? returns : p ? p->v.arg.annotation : NULL;
            if (!ann) continue;
            if (!d && !(d = nn_dict_new())) return -1;
            nn_object *v = text ? node_text(source, ann) : evaluate(ctx, ann);
            int rc = v ? nn_dict_set_str(d, step == 5 ? "return" : p->v.arg.arg, v) : -1;
            NN_RELEASE(v);
            if (rc < 0) {
                NN_RELEASE(d);
                return -1;
            }
        }
    }
    fn->annotations = d;
    return 0;
}

int repl_func_set_qualname(func_obj *fn, const char *prefix, const char *suffix)
{
    if (!prefix) return 0;
    size_t n = strlen(prefix) + strlen(suffix) + strlen(fn->name) + 2;
    char *q = nn_malloc(n);
    if (!q) return -1;
    snprintf(q, n, "%s%s.%s", prefix, suffix, fn->name);
    fn->qualname = q;
    return 0;
}

const char *repl_func_qualname(const func_obj *fn) { return fn->qualname ? fn->qualname : fn->name; }

static nn_object *defaults_tuple(func_obj *fn)
{
    if (!fn->n_defaults) return nn_retain(nn_none());
    nn_object *t = nn_tuple_new((size_t)fn->n_defaults);
    for (int i = 0; t && i < fn->n_defaults; i++) nn_tuple_set(t, (size_t)i, nn_retain(fn->defaults[i]));
    return t;
}

static nn_object *kwdefaults_dict(func_obj *fn)
{
    const repl_node_list *kw = &fn->args->v.arguments.kwonlyargs;
    nn_object *d = NULL;
    for (int i = 0; fn->kwdefaults && i < kw->n; i++) {
        if (!fn->kwdefaults[i]) continue;
        if (!d && !(d = nn_dict_new())) return NULL;
        if (nn_dict_set_str(d, kw->items[i]->v.arg.arg, fn->kwdefaults[i]) < 0) {
            NN_RELEASE(d);
            return NULL;
        }
    }
    return d ? d : nn_retain(nn_none());
}

/* __nn_params__ (for the inspect module, repl/lib/inspect.py): a tuple of
   (name, kind) pairs in CPython's order, kind as inspect.Parameter's kinds:
   0 positional-only, 1 positional-or-keyword, 2 *args, 3 keyword-only, 4 **kwargs. */
static nn_object *params_tuple(func_obj *fn)
{
    const repl_node *a = fn->args;
    const repl_node_list *po = &a->v.arguments.posonlyargs, *pk = &a->v.arguments.args, *ko = &a->v.arguments.kwonlyargs;
    const repl_node *va = a->v.arguments.vararg, *kw = a->v.arguments.kwarg;
    size_t n = (size_t)(po->n + pk->n + ko->n) + (va != NULL) + (kw != NULL), k = 0;
    nn_object *t = nn_tuple_new(n);
    for (int step = 0; t && step < 5; step++) {
        const repl_node_list *l = step == 0 ? po : step == 1 ? pk : step == 3 ? ko : NULL;
        const repl_node *single = step == 2 ? va : step == 4 ? kw : NULL;
        int count = l ? l->n : single != NULL;
        for (int i = 0; i < count; i++) {
            const repl_node *p = l ? l->items[i] : single;
            nn_object *pair = nn_tuple_new(2), *nm = nn_str_new(p->v.arg.arg), *kd = nn_int_new(step);
            if (!pair || !nm || !kd) {
                NN_RELEASE(pair), NN_RELEASE(nm), NN_RELEASE(kd), NN_RELEASE(t);
                return NULL;
            }
            nn_tuple_set(pair, 0, nm);
            nn_tuple_set(pair, 1, kd);
            nn_tuple_set(t, k++, pair);
        }
    }
    return t;
}

nn_object *repl_func_getattr(func_obj *fn, const char *name)
{
    nn_object *v = fn->dict ? nn_dict_get_str(fn->dict, name) : NULL;
    if (v) return nn_retain(v);
    if (name[0] != '_' || name[1] != '_') return NULL;
    if (strcmp(name, "__dict__") == 0) {
        if (!fn->dict) fn->dict = nn_dict_new();
        return nn_retain(fn->dict);
    }
    if (strcmp(name, "__qualname__") == 0) return nn_str_new(repl_func_qualname(fn));
    if (strcmp(name, "__annotations__") == 0) {
        if (!fn->annotations) fn->annotations = nn_dict_new();
        return nn_retain(fn->annotations);
    }
    if (strcmp(name, "__doc__") == 0 && fn->doc) return nn_retain(fn->doc);
    if (strcmp(name, "__defaults__") == 0) return defaults_tuple(fn);
    if (strcmp(name, "__kwdefaults__") == 0) return kwdefaults_dict(fn);
    if (strcmp(name, "__nn_params__") == 0) return params_tuple(fn);
    if (strcmp(name, "__nn_is_gen__") == 0) return nn_bool_new(fn->is_gen);
    if (strcmp(name, "__module__") == 0) return nn_str_new("__main__");
    return NULL;
}

/* A str value's copy for __name__ / __qualname__, or NULL with TypeError. */
static char *name_value(const char *attr, nn_object *value)
{
    if (!nn_is_str(value)) {
        repl_raise_exc(EXC_TypeError, "%s must be set to a string object", attr);
        return NULL;
    }
    return nn_strdup(nn_str_cstr(value));
}

int repl_func_setattr(func_obj *fn, const char *name, nn_object *value)
{
    if (strcmp(name, "__name__") == 0 || strcmp(name, "__qualname__") == 0) {
        char *s = name_value(name, value);
        if (!s) return -1;
        if (name[2] == 'n') {
            nn_free(fn->name_owned);
            fn->name = fn->name_owned = s;
        } else {
            nn_free(fn->qualname);
            fn->qualname = s;
        }
        return 0;
    }
    if (strcmp(name, "__doc__") == 0) {
        NN_SET(fn->doc, nn_retain(value));
        return 0;
    }
    if (strcmp(name, "__annotations__") == 0 || strcmp(name, "__dict__") == 0) {
        if (!nn_is_dict(value))
            return name[2] == 'a' ? repl_raise_exc(EXC_TypeError, "__annotations__ must be set to a dict object")
                                  : repl_raise_exc(EXC_TypeError, "__dict__ must be set to a dictionary, not a '%s'",
                                                   repl_value_type_name(value));
        if (name[2] == 'a') NN_SET(fn->annotations, nn_retain(value));
        else NN_SET(fn->dict, nn_retain(value));
        return 0;
    }
    static const char *const fixed[] = {"__defaults__", "__kwdefaults__", "__code__", "__globals__", "__closure__",
                                        "__module__", "__builtins__"};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        if (strcmp(name, fixed[i]) == 0)
            return repl_raise_exc(EXC_AttributeError, "'function' object attribute '%s' is read-only", name);
    if (!fn->dict && !(fn->dict = nn_dict_new())) return -1;
    return nn_dict_set_str(fn->dict, name, value);
}

void repl_func_attrs_free(func_obj *fn)
{
    NN_RELEASE(fn->dict);
    NN_RELEASE(fn->annotations);
    NN_RELEASE(fn->doc);
    nn_free(fn->qualname);
    nn_free(fn->name_owned);
}
