/*
 * gc_objects.c — the language's containers as the cycle collector (core/gc.c)
 * sees them: each type's traverse visits the references it owns (never a
 * borrowed one: a function's owner class, a class's own first MRO entry), and
 * its clear drops them, leaving an empty object that its dealloc frees as
 * usual. Functions, classes, instances, bound methods, sets and modules are
 * tracked when made; a scope only once a closure captures it (a call's scope
 * that no function keeps cannot be part of a cycle), so plain calls cost the
 * collector nothing.
 */
#include "eval_int.h"

static void visit_nmap(const nmap *m, nn_visit_fn visit, void *arg)
{
    uint32_t pos = 0;
    const char *k;
    nn_object *v;
    while (repl_nmap_next(m, &pos, &k, &v)) visit(v, arg);
}

/* ---------------------------------------------------------------- scope */

void repl_scope_traverse(nn_object *self, nn_visit_fn visit, void *arg)
{
    scope *s = (scope *)self;
    visit_nmap(&s->map, visit, arg);
    if (s->parent) visit(&s->parent->ob, arg);
    if (s->module) visit(s->module, arg);
}

void repl_scope_clear(nn_object *self)
{
    scope *s = (scope *)self;
    repl_nmap_clear(&s->map);
    NN_SET(s->parent, NULL);
    NN_SET(s->module, NULL);
}

/* ------------------------------------------------------------- function */

void repl_func_traverse(nn_object *self, nn_visit_fn visit, void *arg)
{
    func_obj *fn = (func_obj *)self;
    for (int i = 0; i < fn->n_defaults; i++)
        if (fn->defaults[i]) visit(fn->defaults[i], arg);
    if (fn->kwdefaults)
        for (int i = 0; i < fn->args->v.arguments.kwonlyargs.n; i++)
            if (fn->kwdefaults[i]) visit(fn->kwdefaults[i], arg);
    if (fn->env) visit(&fn->env->ob, arg);
    if (fn->dict) visit(fn->dict, arg);
    if (fn->annotations) visit(fn->annotations, arg);
    if (fn->doc) visit(fn->doc, arg);
}

void repl_func_clear(nn_object *self)
{
    func_obj *fn = (func_obj *)self;
    for (int i = 0; i < fn->n_defaults; i++) NN_SET(fn->defaults[i], NULL);
    if (fn->kwdefaults)
        for (int i = 0; i < fn->args->v.arguments.kwonlyargs.n; i++) NN_SET(fn->kwdefaults[i], NULL);
    NN_SET(fn->env, NULL);
    NN_SET(fn->dict, NULL);
    NN_SET(fn->annotations, NULL);
    NN_SET(fn->doc, NULL);
}

/* ---------------------------------------------------------------- class */

void repl_class_traverse(nn_object *self, nn_visit_fn visit, void *arg)
{
    class_obj *c = (class_obj *)self;
    visit_nmap(&c->dict, visit, arg);
    if (c->base) visit(&c->base->ob, arg);
    if (c->native_base) visit(c->native_base, arg);
    if (c->bases) visit(c->bases, arg);
    if (c->meta) visit(&c->meta->ob, arg);
    for (int i = 1; c->mro && i < c->n_mro; i++) visit(&c->mro[i]->ob, arg); /* mro[0] is c, not retained */
}

/* ------------------------------------------------------------- instance */

void repl_instance_traverse(nn_object *self, nn_visit_fn visit, void *arg)
{
    instance_obj *o = (instance_obj *)self;
    visit_nmap(&o->attrs, visit, arg);
    if (o->value) visit(o->value, arg);
    if (o->dict) visit(o->dict, arg);
    visit(&o->cls->ob, arg);
}

/* The class stays: the instance's dealloc releases it. */
void repl_instance_clear(nn_object *self)
{
    repl_nmap_clear(&((instance_obj *)self)->attrs);
    NN_SET(((instance_obj *)self)->value, NULL);
    NN_SET(((instance_obj *)self)->dict, NULL);
}

/* --------------------------------------------------------------- method */

void repl_method_traverse(nn_object *self, nn_visit_fn visit, void *arg)
{
    method_obj *m = (method_obj *)self;
    if (m->func) visit(m->func, arg);
    if (m->self) visit(m->self, arg);
}

void repl_method_clear(nn_object *self)
{
    method_obj *m = (method_obj *)self;
    NN_SET(m->func, NULL);
    NN_SET(m->self, NULL);
}

/* ------------------------------------------------------------ set, module */

/* A set's dict is tracked itself and cleared as a dict. */
void repl_set_traverse(nn_object *self, nn_visit_fn visit, void *arg)
{
    set_obj *s = (set_obj *)self;
    if (s->d) visit(s->d, arg);
}

void repl_module_traverse(nn_object *self, nn_visit_fn visit, void *arg)
{
    visit_nmap(&((module_obj *)self)->dict, visit, arg);
    if (((module_obj *)self)->ns) visit(((module_obj *)self)->ns, arg);
}

void repl_module_clear(nn_object *self)
{
    repl_nmap_clear(&((module_obj *)self)->dict);
    NN_SET(((module_obj *)self)->ns, NULL);
}
