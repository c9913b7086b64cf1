/*
 * native.c — the registry of the bindings' operations on native objects, and
 * the slice and Ellipsis values both the evaluator and the bindings use.
 */
#include <stdio.h>
#include <string.h>

#include "eval_int.h"

static const repl_native_ops *native_ops;

void repl_set_native_ops(const repl_native_ops *ops) { native_ops = ops; }
const repl_native_ops *repl_get_native_ops(void) { return native_ops; }

/* ------------------------------------------------------------------ slice */

typedef struct slice_obj {
    nn_object ob;
    nn_object *start, *stop, *step; /* owned; None when absent */
} slice_obj;

static void slice_dealloc(nn_object *self)
{
    slice_obj *s = (slice_obj *)self;
    NN_RELEASE(s->start);
    NN_RELEASE(s->stop);
    NN_RELEASE(s->step);
    nn_free(s);
}

static char *slice_repr(nn_object *self)
{
    slice_obj *s = (slice_obj *)self;
    char *a = nn_repr(s->start), *b = a ? nn_repr(s->stop) : NULL, *c = b ? nn_repr(s->step) : NULL;
    char *out = NULL;
    if (c) {
        size_t n = strlen(a) + strlen(b) + strlen(c) + 16;
        out = nn_malloc(n);
        if (out) snprintf(out, n, "slice(%s, %s, %s)", a, b, c);
    }
    nn_free(a);
    nn_free(b);
    nn_free(c);
    return out;
}

/* s.start, s.stop, s.step (read-only, as CPython's), and slice's methods */
static nn_object *slice_getattr(nn_object *self, const char *name)
{
    const slice_obj *s = (const slice_obj *)self;
    nn_object *part = !strcmp(name, "start") ? s->start : !strcmp(name, "stop") ? s->stop
                      : !strcmp(name, "step") ? s->step : NULL;
    if (part) return nn_retain(part);
    nn_object *m = repl_builtin_method(self, name); /* s.indices(n) */
    if (m || nn_error_current()) return m;
    nn_error_set(NN_ERR_ATTRIBUTE, "'slice' object has no attribute '%s'", name);
    return NULL;
}

const nn_type repl_slice_type = {.name = "slice", .dealloc = slice_dealloc, .repr = slice_repr,
                                 .getattr = slice_getattr};

nn_object *repl_slice_new(nn_object *start, nn_object *stop, nn_object *step)
{
    slice_obj *s = nn_malloc(sizeof *s);
    if (!s) return NULL;
    nn_object_init(&s->ob, &repl_slice_type);
    s->start = nn_retain(start ? start : nn_none());
    s->stop = nn_retain(stop ? stop : nn_none());
    s->step = nn_retain(step ? step : nn_none());
    return &s->ob;
}

bool repl_is_slice(const nn_object *o) { return o && o->type == &repl_slice_type; }

void repl_slice_parts(const nn_object *o, nn_object **start, nn_object **stop, nn_object **step)
{
    const slice_obj *s = (const slice_obj *)o;
    *start = nn_retain(s->start);
    *stop = nn_retain(s->stop);
    *step = nn_retain(s->step);
}

/* --------------------------------------------------------------- Ellipsis */

static char *ellipsis_repr(nn_object *self)
{
    (void)self;
    return nn_strdup("Ellipsis");
}

static const nn_type ellipsis_type = {.name = "ellipsis", .repr = ellipsis_repr};
static nn_object ellipsis_object = {.refcount = 1 << 30, .type = &ellipsis_type};

nn_object *repl_ellipsis(void) { return &ellipsis_object; }
bool repl_is_ellipsis(const nn_object *o) { return o == &ellipsis_object; }
