/*
 * object.c — the object model: refcounted headers with type descriptors,
 * and the few core types every layer needs (None, tuple, C function).
 * The language adds its own types in repl/.
 */
#include <stdio.h>
#include <string.h>

#include "nn.h"

void nn_object_init(nn_object *o, const nn_type *type)
{
    o->refcount = 1;
    o->type = type;
}

bool nn_is_instance(const nn_object *o, const nn_type *t)
{
    if (!o) return false;
    for (const nn_type *ty = o->type; ty; ty = ty->base)
        if (ty == t) return true;
    return false;
}

char *nn_repr(nn_object *o)
{
    if (!o) o = nn_none();
    if (o->type->repr) {
        if (nn_recursion_enter(" while getting the repr of an object") < 0) return NULL;
        char *r = o->type->repr(o);
        nn_recursion_leave();
        return r;
    }
    char buf[128];
    snprintf(buf, sizeof buf, "<%s object at %p>", o->type->name, (void *)o);
    return nn_strdup(buf);
}

char *nn_str(nn_object *o)
{
    if (o && o->type->str) return o->type->str(o);
    return nn_repr(o);
}

nn_object *nn_call(nn_object *callable, nn_object *args, nn_object *kwargs)
{
    if (!callable || !callable->type->call) {
        nn_error_set(NN_ERR_TYPE, "'%s' object is not callable", callable ? callable->type->name : "NoneType");
        return NULL;
    }
    return callable->type->call(callable, args, kwargs);
}

/* ------------------------------------------------------------------ None */

static char *none_repr(nn_object *self)
{
    (void)self;
    return nn_strdup("None");
}

const nn_type nn_none_type = {.name = "NoneType", .repr = none_repr};
/* Immortal: its refcount starts high and dealloc is a no-op. */
static nn_object none_object = {.refcount = 1 << 30, .type = &nn_none_type};

nn_object *nn_none(void) { return &none_object; }

/* ----------------------------------------------------------------- tuple */

static void tuple_dealloc(nn_object *self)
{
    nn_tuple *t = (nn_tuple *)self;
    for (size_t i = 0; i < t->len; i++) NN_RELEASE(t->items[i]);
    nn_free(t);
}

static char *tuple_repr(nn_object *self)
{
    nn_tuple *t = (nn_tuple *)self;
    size_t cap = 64, len = 0;
    char *out = nn_malloc(cap);
    if (!out) return NULL;
    out[len++] = '(';
    for (size_t i = 0; i < t->len; i++) {
        char *item = nn_repr(t->items[i]);
        if (!item) {
            nn_free(out);
            return NULL;
        }
        size_t need = len + strlen(item) + 8;
        if (need > cap) {
            while (cap < need) cap *= 2;
            char *grown = nn_realloc(out, cap);
            if (!grown) {
                nn_free(item);
                nn_free(out);
                return NULL;
            }
            out = grown;
        }
        len += (size_t)sprintf(out + len, "%s%s", i ? ", " : "", item);
        nn_free(item);
    }
    if (t->len == 1) out[len++] = ',';
    out[len++] = ')';
    out[len] = '\0';
    return out;
}

static void tuple_traverse(nn_object *self, nn_visit_fn visit, void *arg)
{
    nn_tuple *t = (nn_tuple *)self;
    for (size_t i = 0; i < t->len; i++) visit(t->items[i], arg);
}

/* Items become None: a tuple is immutable to the language, but the collector
   may empty one that only a cycle keeps. */
static void tuple_clear(nn_object *self)
{
    nn_tuple *t = (nn_tuple *)self;
    for (size_t i = 0; i < t->len; i++) NN_SET(t->items[i], nn_retain(nn_none()));
}

const nn_type nn_tuple_type = {.name = "tuple", .dealloc = tuple_dealloc, .repr = tuple_repr,
                               .traverse = tuple_traverse, .clear = tuple_clear};

/* The empty tuple: one immortal object, so `() is ()` as in CPython. */
static nn_tuple empty_tuple = {.ob = {.refcount = 1 << 30, .type = &nn_tuple_type}, .len = 0};

nn_object *nn_tuple_new(size_t len)
{
    if (len == 0) return nn_retain(&empty_tuple.ob);
    if (len > (SIZE_MAX - sizeof(nn_tuple)) / sizeof(nn_object *)) {
        nn_error_set(NN_ERR_MEMORY, "out of memory");
        return NULL;
    }
    nn_tuple *t = nn_malloc(sizeof *t + len * sizeof(nn_object *));
    if (!t) return NULL;
    nn_object_init(&t->ob, &nn_tuple_type);
    t->len = len;
    for (size_t i = 0; i < len; i++) t->items[i] = nn_retain(nn_none());
    if (len && nn_gc_track(&t->ob) < 0) {
        NN_RELEASE(t);
        return NULL;
    }
    return &t->ob;
}

void nn_tuple_set(nn_object *tuple, size_t i, nn_object *item)
{
    nn_tuple *t = (nn_tuple *)tuple;
    NN_SET(t->items[i], item ? item : nn_retain(nn_none()));
}

nn_object *nn_tuple_get(const nn_object *tuple, size_t i) { return ((const nn_tuple *)tuple)->items[i]; }

size_t nn_tuple_len(const nn_object *tuple) { return ((const nn_tuple *)tuple)->len; }

nn_object *nn_tuple_pack(size_t n, ...)
{
    nn_object *t = nn_tuple_new(n);
    if (!t) return NULL;
    va_list ap;
    va_start(ap, n);
    for (size_t i = 0; i < n; i++) nn_tuple_set(t, i, nn_retain(va_arg(ap, nn_object *)));
    va_end(ap);
    return t;
}

/* ------------------------------------------------------------ C function */

typedef struct cfunction {
    nn_object ob;
    nn_cfunc fn;
    void *ud;
    void (*free_ud)(void *);
    nn_ud_traverse_fn traverse_ud; /* NULL: ud holds no objects the collector sees */
    char name[64];
} cfunction;

static void cfunction_dealloc(nn_object *self)
{
    cfunction *f = (cfunction *)self;
    if (f->free_ud) f->free_ud(f->ud);
    nn_free(f);
}

static char *cfunction_repr(nn_object *self)
{
    cfunction *f = (cfunction *)self;
    char buf[128];
    snprintf(buf, sizeof buf, "<built-in function %s>", f->name);
    return nn_strdup(buf);
}

static nn_object *cfunction_call(nn_object *self, nn_object *args, nn_object *kwargs)
{
    cfunction *f = (cfunction *)self;
    return f->fn(f->ud, args, kwargs);
}

static void cfunction_traverse(nn_object *self, nn_visit_fn visit, void *arg)
{
    cfunction *f = (cfunction *)self;
    if (f->traverse_ud && f->ud) f->traverse_ud(f->ud, visit, arg);
}

/* The collector frees the user data early; the function is never called again. */
static void cfunction_clear(nn_object *self)
{
    cfunction *f = (cfunction *)self;
    void *ud = f->ud;
    void (*free_ud)(void *) = f->free_ud;
    f->ud = NULL;
    f->free_ud = NULL;
    if (free_ud) free_ud(ud);
}

const nn_type nn_cfunction_type = {
    .name = "builtin_function_or_method",
    .dealloc = cfunction_dealloc,
    .repr = cfunction_repr,
    .call = cfunction_call,
    .traverse = cfunction_traverse,
    .clear = cfunction_clear,
};

nn_object *nn_cfunction_new(const char *name, nn_cfunc fn, void *ud, void (*free_ud)(void *))
{
    cfunction *f = nn_malloc(sizeof *f);
    if (!f) return NULL;
    nn_object_init(&f->ob, &nn_cfunction_type);
    f->fn = fn;
    f->ud = ud;
    f->free_ud = free_ud;
    f->traverse_ud = NULL;
    snprintf(f->name, sizeof f->name, "%s", name);
    return &f->ob;
}

int nn_cfunction_set_traverse(nn_object *f, nn_ud_traverse_fn traverse_ud)
{
    ((cfunction *)f)->traverse_ud = traverse_ud;
    return nn_gc_track(f);
}
