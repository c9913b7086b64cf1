/*
 * func_attrs.c — the attributes of a function object as CPython 3.11 has them:
 * __annotations__ (evaluated where the def runs, or kept as source text after
 * `from __future__ import annotations`), __qualname__ (`outer.<locals>.inner`,
 * `A.m`), __defaults__, __kwdefaults__, __module__, __dict__, __globals__ (the
 * live namespace of its module), __code__ and __closure__ (code and cell objects
 * made by repl/lib/_funcobj.py from the names its body uses) and any attribute a
 * script sets on it (`f.calls = 0`), and assigning __name__, __qualname__,
 * __doc__, __annotations__, __dict__, __defaults__, __kwdefaults__ and
 * __module__ (functools.wraps does).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast_walk.h"
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

/* --- __code__ and __closure__ (made by repl/lib/_funcobj.py from the parts below) --- */

/* The names a function's body uses, by where: its own level (loads and binds), the
   nested defs, lambdas and comprehensions' loads and binds (nmaps used as sets). */
typedef struct name_uses {
    nmap own, nested_loads, nested_binds;
    bool failed;
} name_uses;

static void use_name(void *ctx, const char *id, bool binds, int depth)
{
    name_uses *u = ctx;
    nmap *m = depth == 0 ? &u->own : binds ? &u->nested_binds : &u->nested_loads;
    if (!u->failed && repl_nmap_set(m, id, nn_none()) < 0) u->failed = true;
}

static int cmp_names(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* Whether id is bound in a function scope around fn (not the module's). */
static bool enclosing_binds(const func_obj *fn, const char *id)
{
    for (const scope *s = fn->env; s && !s->module; s = s->parent)
        if (repl_nmap_get(&s->map, id)) return true;
    return false;
}

static bool is_param(const func_obj *fn, const char *id)
{
    const repl_node *a = fn->args;
    const repl_node_list *lists[3] = {&a->v.arguments.posonlyargs, &a->v.arguments.args, &a->v.arguments.kwonlyargs};
    for (int l = 0; l < 3; l++)
        for (int i = 0; i < lists[l]->n; i++)
            if (strcmp(lists[l]->items[i]->v.arg.arg, id) == 0) return true;
    return (a->v.arguments.vararg && strcmp(a->v.arguments.vararg->v.arg.arg, id) == 0) ||
           (a->v.arguments.kwarg && strcmp(a->v.arguments.kwarg->v.arg.arg, id) == 0);
}

/* A tuple of the n names (sorted first when sort). */
static nn_object *names_tuple(const char **names, size_t n, bool sort)
{
    if (sort && n) qsort(names, n, sizeof *names, cmp_names);
    nn_object *t = nn_tuple_new(n);
    for (size_t i = 0; t && i < n; i++) {
        nn_object *s = nn_str_new(names[i]);
        if (!s) NN_SET(t, NULL);
        else nn_tuple_set(t, i, s);
    }
    return t;
}

/* (varnames, freevars, cellvars) as CPython 3.11's code object lists them: the
   parameters and the other locals that no nested scope reads; the names read from
   the functions around it, sorted; the locals that nested scopes read, the
   parameters first. */
static nn_object *scope_names(func_obj *fn)
{
    name_uses u = {0};
    repl_ast_each_name(fn->body_expr, fn->body, use_name, &u);
    const char **keys = repl_nmap_keys_ordered(&fn->locals);
    uint32_t n_locals = fn->locals.len, n_own = u.own.len, n_nested = u.nested_loads.len;
    const char **own = repl_nmap_keys_ordered(&u.own), **nested = repl_nmap_keys_ordered(&u.nested_loads);
    const char **var = nn_malloc(sizeof *var * (n_locals + 1)), **cell = nn_malloc(sizeof *cell * (n_locals + 1));
    const char **fre = nn_malloc(sizeof *fre * (n_own + n_nested + 1));
    nn_object *r = NULL;
    if (u.failed || (n_locals && !keys) || (n_own && !own) || (n_nested && !nested) || !var || !cell || !fre) goto out;
    size_t nv = 0, nc = 0, nf = 0, params_cells;
    for (uint32_t i = 0; i < n_locals; i++) /* the parameters, all in varnames; those read below are cells */
        if (is_param(fn, keys[i])) {
            var[nv++] = keys[i];
            if (repl_nmap_get(&u.nested_loads, keys[i])) cell[nc++] = keys[i];
        }
    params_cells = nc;
    for (uint32_t i = 0; i < n_locals; i++)
        if (!is_param(fn, keys[i])) {
            if (repl_nmap_get(&u.nested_loads, keys[i])) cell[nc++] = keys[i];
            else var[nv++] = keys[i];
        }
    for (uint32_t i = 0; i < n_own + n_nested; i++) {
        const char *id = i < n_own ? own[i] : nested[i - n_own];
        if (repl_nmap_get(&fn->locals, id) || repl_nmap_get(&fn->globals_decl, id)) continue;
        if (i >= n_own && (repl_nmap_get(&u.own, id) || repl_nmap_get(&u.nested_binds, id))) continue;
        if (enclosing_binds(fn, id)) fre[nf++] = id;
    }
    if (nc > params_cells) qsort(cell + params_cells, nc - params_cells, sizeof *cell, cmp_names);
    nn_object *v = names_tuple(var, nv, false), *f = names_tuple(fre, nf, true), *c = names_tuple(cell, nc, false);
    r = v && f && c ? nn_tuple_pack(3, v, f, c) : NULL;
    NN_RELEASE(v), NN_RELEASE(f), NN_RELEASE(c);
out:
    nn_free(keys), nn_free(own), nn_free(nested), nn_free(var), nn_free(cell), nn_free(fre);
    repl_nmap_clear(&u.own), repl_nmap_clear(&u.nested_loads), repl_nmap_clear(&u.nested_binds);
    if (!r && !nn_error_current()) nn_error_set(NN_ERR_MEMORY, "out of memory");
    return r;
}

/* co_firstlineno: a def's line (its first decorator's when decorated), a lambda's */
static int first_line(const func_obj *fn)
{
    if (!fn->body) return fn->body_expr ? fn->body_expr->line : 0;
    /* fn->body is the body field of its FunctionDef node */
    const repl_node *def = (const repl_node *)((const char *)fn->body - offsetof(repl_node, v.FunctionDef.body));
    const repl_node_list *decos = &def->v.FunctionDef.decorator_list;
    return decos->n ? decos->items[0]->line : def->line;
}

/* __nn_code_parts__: (name, qualname, filename, firstlineno, argcount, posonlyargcount,
   kwonlyargcount, flags, varnames, freevars, cellvars) */
static nn_object *code_parts(func_obj *fn)
{
    enum { CO_OPTIMIZED = 1, CO_NEWLOCALS = 2, CO_VARARGS = 4, CO_VARKEYWORDS = 8, CO_NESTED = 16, CO_GENERATOR = 32 };
    const repl_node *a = fn->args;
    const char *source, *filename;
    repl_code_unit_text(fn->unit, &source, &filename);
    int flags = CO_OPTIMIZED | CO_NEWLOCALS | (a->v.arguments.vararg ? CO_VARARGS : 0) |
                (a->v.arguments.kwarg ? CO_VARKEYWORDS : 0) | (fn->env && !fn->env->module ? CO_NESTED : 0) |
                (fn->is_gen ? CO_GENERATOR : 0);
    nn_object *names = scope_names(fn);
    if (!names) return NULL;
    nn_object *items[11] = {nn_str_new(fn->name), nn_str_new(repl_func_qualname(fn)),
                            nn_str_new(filename ? filename : "<stdin>"), nn_int_new(first_line(fn)),
                            nn_int_new(a->v.arguments.posonlyargs.n + a->v.arguments.args.n),
                            nn_int_new(a->v.arguments.posonlyargs.n), nn_int_new(a->v.arguments.kwonlyargs.n),
                            nn_int_new(flags), nn_retain(nn_tuple_get(names, 0)), nn_retain(nn_tuple_get(names, 1)),
                            nn_retain(nn_tuple_get(names, 2))};
    NN_RELEASE(names);
    nn_object *r = nn_tuple_new(11);
    for (size_t i = 0; i < 11; i++) {
        if (!items[i]) NN_SET(r, NULL);
        if (r) nn_tuple_set(r, i, items[i]);
        else NN_RELEASE(items[i]);
    }
    return r;
}

/* __nn_closure_parts__: for each free variable (sorted), (value,) or () when unbound. */
static nn_object *closure_parts(func_obj *fn)
{
    nn_object *names = scope_names(fn);
    if (!names) return NULL;
    nn_object *free = nn_tuple_get(names, 1), *t = nn_tuple_new(nn_tuple_len(free));
    for (size_t i = 0; t && i < nn_tuple_len(free); i++) {
        const char *id = nn_str_cstr(nn_tuple_get(free, i));
        nn_object *v = NULL;
        for (const scope *s = fn->env; !v && s && !s->module; s = s->parent) v = repl_nmap_get(&s->map, id);
        nn_object *cell = v ? nn_tuple_pack(1, v) : nn_tuple_new(0);
        if (!cell) NN_SET(t, NULL);
        else nn_tuple_set(t, i, cell);
    }
    NN_RELEASE(names);
    return t;
}

/* __globals__: the live namespace of the module that defined fn (globals() there) */
static nn_object *globals_of(func_obj *fn)
{
    const scope *s = fn->env;
    while (s && !s->module) s = s->parent;
    return repl_namespace_dict(s ? s->module : NULL);
}

/* _funcobj.NAME(fn): the code object or the closure, made in the language. */
static nn_object *from_funcobj(func_obj *fn, const char *name)
{
    nn_object *mod = repl_import_by_name("_funcobj"), *make = mod ? repl_get_attr(mod, name) : NULL, *self = &fn->ob;
    nn_object *r = make ? repl_call_object(make, &self, 1, NULL) : NULL;
    NN_RELEASE(make);
    NN_RELEASE(mod);
    return r;
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
    if (strcmp(name, "__code__") == 0) return from_funcobj(fn, "code_of");
    if (strcmp(name, "__closure__") == 0) return from_funcobj(fn, "closure_of");
    if (strcmp(name, "__nn_code_parts__") == 0) return code_parts(fn);
    if (strcmp(name, "__nn_closure_parts__") == 0) return closure_parts(fn);
    if (strcmp(name, "__globals__") == 0) return globals_of(fn);
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

/* f.__defaults__ = a tuple or None (the defaults of the last positional parameters) */
static int set_defaults(func_obj *fn, nn_object *value)
{
    if (value != nn_none() && value->type != &nn_tuple_type)
        return repl_raise_exc(EXC_TypeError, "__defaults__ must be set to a tuple object");
    int n = value == nn_none() ? 0 : (int)nn_tuple_len(value);
    nn_object **d = n ? nn_calloc((size_t)n, sizeof *d) : NULL;
    if (n && !d) return repl_raise_exc(EXC_MemoryError, "out of memory");
    for (int i = 0; i < n; i++) d[i] = nn_retain(nn_tuple_get(value, (size_t)i));
    for (int i = 0; i < fn->n_defaults; i++) NN_RELEASE(fn->defaults[i]);
    nn_free(fn->defaults);
    fn->defaults = d;
    fn->n_defaults = n;
    return 0;
}

/* f.__kwdefaults__ = a dict or None (the defaults of the keyword-only parameters it names) */
static int set_kwdefaults(func_obj *fn, nn_object *value)
{
    if (value != nn_none() && !nn_is_dict(value))
        return repl_raise_exc(EXC_TypeError, "__kwdefaults__ must be set to a dict object");
    const repl_node_list *kw = &fn->args->v.arguments.kwonlyargs;
    if (!kw->n) return 0;
    if (!fn->kwdefaults && !(fn->kwdefaults = nn_calloc((size_t)kw->n, sizeof *fn->kwdefaults)))
        return repl_raise_exc(EXC_MemoryError, "out of memory");
    for (int i = 0; i < kw->n; i++) {
        nn_object *v = value == nn_none() ? NULL : nn_dict_get_str(value, kw->items[i]->v.arg.arg);
        NN_SET(fn->kwdefaults[i], v ? nn_retain(v) : NULL);
    }
    return 0;
}

int repl_func_setattr(func_obj *fn, const char *name, nn_object *value)
{
    if (strcmp(name, "__defaults__") == 0) return set_defaults(fn, value);
    if (strcmp(name, "__kwdefaults__") == 0) return set_kwdefaults(fn, value);
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
    static const char *const fixed[] = {"__code__", "__globals__", "__closure__", "__builtins__"};
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
