/*
 * generators.c — the language's lazy iterators, as CPython 3.11's: generators
 * (a def whose body yields, a generator expression; next, send, throw, close,
 * StopIteration.value, `yield from`), the generators that nn.Module's
 * parameters() & co. return, and the built-ins zip, map, filter, enumerate and
 * reversed, which compute each item when it is asked for.
 *
 * A generator's body runs on a coroutine (coro.c) of its own: eval.c runs the
 * body (repl_gen_body_run) and calls repl_gen_yield at each yield, which
 * switches back to whoever called next() or send().
 */
#include <string.h>

#include "coro.h"
#include "eval_int.h"

const nn_type repl_lazy_base = {.name = "iterator"};

/* ------------------------------------------------------------------ errors */

void repl_error_save(repl_saved_error *s)
{
    repl_interp *in = repl_current;
    s->kind = nn_error_current();
    s->msg = s->kind != NN_OK ? nn_strdup(nn_error_message()) : NULL;
    s->exc = in->exc;
    s->exc_msg = in->exc_msg;
    s->tb = in->tb;
    s->n_tb = in->n_tb;
    s->cap_tb = in->cap_tb;
    s->tb_owner = in->tb_owner;
    s->stale = in->tb_stale;
    in->exc = in->tb_owner = NULL;
    in->exc_msg = NULL;
    in->tb = NULL;
    in->n_tb = in->cap_tb = 0;
    nn_error_clear();
}

void repl_error_restore(repl_saved_error *s)
{
    repl_interp *in = repl_current;
    nn_error_clear();
    repl_tb_clear(in);
    nn_free(in->tb);
    NN_RELEASE(in->exc);
    NN_RELEASE(in->tb_owner);
    nn_free(in->exc_msg);
    in->exc = s->exc;
    in->exc_msg = s->exc_msg;
    in->tb = s->tb;
    in->n_tb = s->n_tb;
    in->cap_tb = s->cap_tb;
    in->tb_owner = s->tb_owner;
    in->tb_stale = s->stale;
    if (s->kind != NN_OK) nn_error_set(s->kind, "%s", s->msg ? s->msg : "");
    nn_free(s->msg);
}

static bool pending_is(exc_id id, nn_object **taken)
{
    nn_object *e = repl_take_exception();
    *taken = e;
    return e && repl_exc_matches(e, &repl_current->exc_classes[id]->ob);
}

/* raise StopIteration(value) with .value (value borrowed, NULL for none). */
static void raise_stop(nn_object *value)
{
    nn_object *args = value && !nn_is_none(value) ? nn_tuple_pack(1, value) : nn_tuple_new(0);
    nn_object *e = args ? repl_exc_new(EXC_StopIteration, args) : NULL;
    repl_raise_object(e);
    NN_RELEASE(args);
    NN_RELEASE(e);
}

/* ------------------------------------------------------------------ generators */

typedef enum gen_state { G_CREATED, G_SUSPENDED, G_RUNNING, G_DONE } gen_state;

typedef struct gen_obj {
    repl_lazy lz;
    gen_state state;
    repl_gen_body *body; /* owned until the body ends */
    coro *co;            /* owned while the body runs */
    nn_object *transfer; /* owned: the value yielded out or sent in */
    bool throwing;       /* resumed with an exception to raise at the yield */
    bool stackless;      /* a generator expression (repl_genexp_next) */
    bool finished;       /* the body returned (rc: 0 or -1) */
    int rc;
    nn_object *retval;   /* owned: what the body returned (StopIteration.value) */
    nn_object *handling; /* owned: the exception the body's except block handles while it is
                            suspended (CPython's gi_exc_state), NULL when none */
    char *qualname;      /* owned */
    nn_object *list;     /* owned: a native generator's items (parameters()) */
    size_t pos;
} gen_obj;

/* The body raised: a StopIteration from inside becomes RuntimeError (PEP 479). -1. */
static int body_failed(void)
{
    nn_object *e;
    if (pending_is(EXC_StopIteration, &e)) {
        NN_RELEASE(e);
        return repl_raise_exc(EXC_RuntimeError, "generator raised StopIteration");
    }
    repl_raise_object(e);
    NN_RELEASE(e);
    return -1;
}

static void gen_entry(void *arg)
{
    gen_obj *g = arg;
    nn_object *ret = NULL;
    g->rc = repl_gen_body_run(g->body, &ret);
    g->retval = ret;
    g->finished = true;
    repl_coro_suspend(g->co); /* never resumed */
}

static void gen_end(gen_obj *g)
{
    g->state = G_DONE;
    NN_SET(g->handling, NULL);
    repl_gen_body_free(g->body);
    g->body = NULL;
    repl_coro_free(g->co);
    g->co = NULL;
}

/* Runs g until it yields (1, *out the value) or ends (0; g->retval holds what it
   returned), or -1 with the error. sent (borrowed, NULL for None) is the yield's
   value inside; thrown (borrowed) an exception raised at the yield instead. */
static int gen_resume(gen_obj *g, nn_object *sent, nn_object *thrown, nn_object **out)
{
    if (g->list) { /* a native generator: its items */
        if (thrown) {
            g->state = G_DONE;
            return repl_raise_object(thrown);
        }
        if (g->state == G_DONE || g->pos >= nn_list_len(g->list)) {
            g->state = G_DONE;
            return 0;
        }
        g->state = G_SUSPENDED;
        *out = nn_retain(nn_list_get(g->list, g->pos++));
        return 1;
    }
    if (g->state == G_RUNNING) return repl_raise_exc(EXC_ValueError, "generator already executing");
    if (g->state == G_DONE) { /* the return value was reported when it ended */
        NN_SET(g->retval, NULL);
        return thrown ? repl_raise_object(thrown) : 0;
    }
    if (g->state == G_CREATED && sent && !nn_is_none(sent) && !thrown)
        return repl_raise_exc(EXC_TypeError, "can't send non-None value to a just-started generator");
    if (thrown && (g->state == G_CREATED || g->stackless)) {
        gen_end(g);
        return repl_raise_object(thrown);
    }
    if (g->stackless) { /* a generator expression: one step of its loops */
        if (repl_gen_body_enter(g->body) < 0) return -1;
        g->state = G_RUNNING;
        int r = repl_genexp_next(g->body, out);
        repl_gen_body_leave(g->body);
        g->state = G_SUSPENDED;
        if (r <= 0) gen_end(g);
        return r < 0 ? body_failed() : r;
    }
    if (g->state == G_CREATED && !(g->co = repl_coro_new(gen_entry, g))) return -1;
    if (repl_gen_body_enter(g->body) < 0) return -1;
    NN_SET(g->transfer, sent ? nn_retain(sent) : NULL);
    g->throwing = thrown != NULL;
    if (thrown) repl_raise_object(thrown);
    g->state = G_RUNNING;
    /* the body's except blocks see its own handled exception, the caller's comes
       back when it yields: a body suspended inside an except block and its caller
       nest their handlers independently */
    repl_interp *in = repl_current;
    nn_object *callers = in->handling;
    in->handling = g->handling;
    g->handling = NULL;
    repl_coro_resume(g->co);
    g->handling = in->handling;
    in->handling = callers;
    repl_gen_body_leave(g->body);
    if (g->finished) {
        gen_end(g);
        return g->rc < 0 ? body_failed() : 0;
    }
    g->state = G_SUSPENDED;
    *out = g->transfer ? g->transfer : nn_retain(nn_none());
    g->transfer = NULL;
    return 1;
}

nn_object *repl_gen_yield(nn_object *gen, nn_object *value)
{
    gen_obj *g = (gen_obj *)gen;
    NN_SET(g->transfer, nn_retain(value));
    repl_coro_suspend(g->co);
    if (g->throwing) return NULL; /* the exception thrown in is pending */
    nn_object *s = g->transfer ? g->transfer : nn_retain(nn_none());
    g->transfer = NULL;
    return s;
}

/* close(): GeneratorExit raised at the yield; 0, or -1 with the error. */
static int gen_close(gen_obj *g)
{
    if (g->list || g->state == G_CREATED) {
        if (!g->list) gen_end(g);
        g->state = G_DONE;
        return 0;
    }
    if (g->state != G_SUSPENDED) return 0;
    nn_object *args = nn_tuple_new(0), *exit = args ? repl_exc_new(EXC_GeneratorExit, args) : NULL, *v = NULL;
    NN_RELEASE(args);
    if (!exit) { /* no memory for GeneratorExit: the MemoryError made in advance unwinds the body */
        nn_error_clear();
        exit = nn_retain(repl_current->no_memory);
    }
    int r = gen_resume(g, NULL, exit, &v);
    NN_RELEASE(exit);
    if (r == 1) {
        NN_RELEASE(v);
        return repl_raise_exc(EXC_RuntimeError, "generator ignored GeneratorExit");
    }
    if (r == 0) return 0;
    nn_object *e;
    if (pending_is(EXC_GeneratorExit, &e) || (e && repl_exc_matches(e, &repl_current->exc_classes[EXC_StopIteration]->ob))) {
        NN_RELEASE(e);
        repl_tb_clear(repl_current);
        return 0;
    }
    repl_raise_object(e);
    NN_RELEASE(e);
    return -1;
}

static int gen_next(repl_lazy *self, nn_object **out) { return gen_resume((gen_obj *)self, NULL, NULL, out); }

static void gen_dealloc(nn_object *self)
{
    gen_obj *g = (gen_obj *)self;
    if (g->state == G_SUSPENDED && !g->list && !g->stackless && repl_current) {
        /* unwind the suspended body (its finally blocks run, its references go) */
        self->refcount = 1;
        repl_saved_error s;
        repl_error_save(&s);
        gen_close(g);
        repl_error_restore(&s);
    }
    if (g->body) gen_end(g);
    NN_RELEASE(g->transfer);
    NN_RELEASE(g->retval);
    NN_RELEASE(g->list);
    nn_free(g->qualname);
    nn_free(g);
}

static char *gen_repr(nn_object *self)
{
    sbuf b = {0};
    repl_sb_printf(&b, "<generator object %s at %p>", ((gen_obj *)self)->qualname, (void *)self);
    return repl_sb_finish(&b);
}

static const nn_type gen_type = {.name = "generator", .dealloc = gen_dealloc, .repr = gen_repr, .base = &repl_lazy_base,
                                 .getattr = repl_lazy_getattr};

static gen_obj *gen_alloc(const char *qualname)
{
    gen_obj *g = nn_calloc(1, sizeof *g);
    if (!g) return NULL;
    nn_object_init(&g->lz.ob, &gen_type);
    g->lz.next = gen_next;
    if (!(g->qualname = nn_strdup(qualname))) {
        nn_free(g);
        return NULL;
    }
    return g;
}

nn_object *repl_gen_new(repl_gen_body *body, const char *qualname)
{
    gen_obj *g = gen_alloc(qualname);
    if (!g) {
        repl_gen_body_free(body);
        return NULL;
    }
    g->body = body;
    g->stackless = repl_gen_body_is_expr(body);
    return &g->lz.ob;
}

nn_object *repl_generator_from_list(nn_object *list, const char *qualname)
{
    gen_obj *g = list ? gen_alloc(qualname) : NULL;
    if (!g) return NULL;
    g->list = nn_retain(list);
    return &g->lz.ob;
}

nn_object *repl_iterable_to_list(nn_object *o) { return repl_to_list(o); }

nn_object *repl_gen_yield_from(nn_object *gen, nn_object *iterable)
{
    nn_object *it = repl_get_iter(iterable);
    if (!it) return NULL;
    gen_obj *sub = it->type == &gen_type ? (gen_obj *)it : NULL;
    nn_object *sent = NULL, *thrown = NULL, *result = NULL;
    for (;;) {
        nn_object *v = NULL;
        int r = sub ? gen_resume(sub, sent, thrown, &v) : repl_iter_next(it, &v);
        NN_SET(sent, NULL);
        NN_SET(thrown, NULL);
        if (r < 0) break;
        if (r == 0) {
            result = nn_retain(sub && sub->retval ? sub->retval : nn_none());
            break;
        }
        nn_object *s = repl_gen_yield(gen, v);
        NN_RELEASE(v);
        if (s) {
            sent = s;
            continue;
        }
        nn_object *e;
        if (sub && !pending_is(EXC_GeneratorExit, &e)) {
            thrown = e; /* thrown into the delegating generator: into the subgenerator */
            continue;
        }
        if (!sub) e = repl_take_exception();
        if (sub) gen_close(sub);
        repl_raise_object(e);
        NN_RELEASE(e);
        break;
    }
    NN_RELEASE(it);
    return result;
}

/* next(it[, default]) for any iterator, raising StopIteration with the generator's value. */
nn_object *repl_bi_next(void *ud, nn_object *args, nn_object *kwargs)
{
    size_t n = nn_tuple_len(args);
    if (n < 1 || n > 2 || (kwargs && nn_dict_len(kwargs))) {
        repl_raise_exc(EXC_TypeError, "next expected at least 1 argument, got %zu", n);
        return NULL;
    }
    nn_object *it = nn_tuple_get(args, 0), *v = NULL;
    if (it->type == &repl_instance_type && repl_class_lookup(((instance_obj *)it)->cls, "__next__")) {
        v = repl_call_method(it, "__next__", NULL, 0);
        if (v || n < 2) return v;
        nn_object *pending = repl_current->exc;
        if (!pending || !repl_exc_matches(pending, &repl_current->exc_classes[EXC_StopIteration]->ob)) return NULL;
        NN_RELEASE(repl_take_exception()); /* next(it, default) */
        return nn_retain(nn_tuple_get(args, 1));
    }
    if (it->type == &repl_instance_type && ((instance_obj *)it)->value && repl_is_lazy(((instance_obj *)it)->value))
        it = ((instance_obj *)it)->value; /* a subclass of enumerate, zip, map, ...: its iterator */
    if (it->type != &repl_iter_type && !repl_is_lazy(it)) {
        repl_raise_exc(EXC_TypeError, "'%s' object is not an iterator", repl_value_type_name(it));
        return NULL;
    }
    int r = repl_iter_next(it, &v);
    if (r == 1) return v;
    if (r < 0) return NULL;
    if (n > 1) return nn_retain(nn_tuple_get(args, 1));
    raise_stop(it->type == &gen_type ? ((gen_obj *)it)->retval : NULL);
    return NULL;
}

/* ------------------------------------------------------------------ methods */

#define SELF_GEN ((gen_obj *)nn_tuple_get(args, 0))

static nn_object *m_send(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nn_tuple_len(args) != 2) {
        repl_raise_exc(EXC_TypeError, "generator.send() takes exactly one argument (%zu given)", nn_tuple_len(args) - 1);
        return NULL;
    }
    nn_object *v = NULL;
    int r = gen_resume(SELF_GEN, nn_tuple_get(args, 1), NULL, &v);
    if (r == 0) raise_stop(SELF_GEN->retval);
    return r == 1 ? v : NULL;
}

static nn_object *m_throw(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nn_tuple_len(args) < 2) {
        repl_raise_exc(EXC_TypeError, "throw expected at least 1 argument, got 0");
        return NULL;
    }
    size_t n = nn_tuple_len(args);
    nn_object *e = nn_tuple_get(args, 1), *val = n > 2 ? nn_tuple_get(args, 2) : NULL, *inst = NULL, *v = NULL;
    if (val && nn_is_none(val)) val = NULL;
    if (n > 3 && !nn_is_none(nn_tuple_get(args, 3)) && nn_tuple_get(args, 3)->type != &repl_traceback_type) {
        repl_raise_exc(EXC_TypeError, "throw() third argument must be a traceback object");
        return NULL;
    }
    /* throw(type[, value[, tb]]) as CPython: the value itself when it is an instance of
       type, else type(*value) for a tuple, type(value), or type() */
    if (repl_is_exception_class(e)) {
        if (val && repl_is_exception(val) && repl_exc_matches(val, e)) inst = nn_retain(val);
        else if (val && val->type == &nn_tuple_type) inst = repl_call_object(e, ((nn_tuple *)val)->items, nn_tuple_len(val), NULL);
        else inst = repl_call_object(e, val ? &val : NULL, val ? 1 : 0, NULL);
    } else if (repl_is_exception(e)) {
        if (val) repl_raise_exc(EXC_TypeError, "instance exception may not have a separate value");
        else inst = nn_retain(e);
    } else
        repl_raise_exc(EXC_TypeError, "exceptions must be classes or instances deriving from BaseException, not %s",
                       repl_value_type_name(e));
    if (!inst) return NULL;
    int r = gen_resume(SELF_GEN, NULL, inst, &v);
    NN_RELEASE(inst);
    if (r == 0) raise_stop(SELF_GEN->retval);
    return r == 1 ? v : NULL;
}

static nn_object *m_close(void *ud, nn_object *args, nn_object *kwargs)
{
    return gen_close(SELF_GEN) < 0 ? NULL : nn_retain(nn_none());
}

static nn_object *m_next(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *it = nn_tuple_get(args, 0), *v = NULL;
    int r = repl_iter_next(it, &v);
    if (r == 0) raise_stop(it->type == &gen_type ? ((gen_obj *)it)->retval : NULL);
    return r == 1 ? v : NULL;
}

static nn_object *m_iter(void *ud, nn_object *args, nn_object *kwargs) { return nn_retain(nn_tuple_get(args, 0)); }

nn_object *repl_lazy_getattr(nn_object *o, const char *name)
{
    static const struct {
        const char *name;
        nn_cfunc fn;
        bool gen_only;
    } methods[] = {{"send", m_send, true}, {"throw", m_throw, true}, {"close", m_close, true},
                   {"__next__", m_next, false}, {"__iter__", m_iter, false}};
    bool gen = o->type == &gen_type;
    for (size_t i = 0; i < sizeof methods / sizeof *methods; i++)
        if (!strcmp(name, methods[i].name) && (gen || !methods[i].gen_only)) {
            nn_object *f = nn_cfunction_new(methods[i].name, methods[i].fn, NULL, NULL);
            nn_object *m = f ? repl_method_new(f, o) : NULL;
            NN_RELEASE(f);
            return m;
        }
    if (gen && (!strcmp(name, "__name__") || !strcmp(name, "__qualname__"))) {
        const char *q = ((gen_obj *)o)->qualname, *dot = strrchr(q, '.');
        return nn_str_new(!strcmp(name, "__name__") && dot ? dot + 1 : q);
    }
    if (gen && !strcmp(name, "gi_running")) return nn_bool_new(((gen_obj *)o)->state == G_RUNNING);
    if (!strcmp(name, "__class__")) return nn_retain(&repl_class_of(o)->ob);
    repl_raise_exc(EXC_AttributeError, "'%s' object has no attribute '%s'", o->type->name, name);
    return NULL;
}

/* ------------------------------------------------------------------ zip, map, filter, enumerate, reversed */

typedef struct multi_obj {
    repl_lazy lz;
    nn_object *fn;   /* owned: map's function, filter's predicate (None: truth) */
    int n;
    nn_object **its; /* owned iterators */
    int64_t count;   /* enumerate */
    bool done;
} multi_obj;

static void multi_dealloc(nn_object *self)
{
    multi_obj *m = (multi_obj *)self;
    for (int i = 0; i < m->n; i++) NN_RELEASE(m->its[i]);
    nn_free(m->its);
    NN_RELEASE(m->fn);
    nn_free(m);
}

static char *multi_repr(nn_object *self)
{
    sbuf b = {0};
    repl_sb_printf(&b, "<%s object at %p>", self->type->name, (void *)self);
    return repl_sb_finish(&b);
}

/* the next item of each iterator into vals: 1, 0 when one has ended, -1 */
static int next_all(multi_obj *m, nn_object **vals)
{
    if (m->done) return 0;
    for (int i = 0; i < m->n; i++) {
        int r = repl_iter_next(m->its[i], &vals[i]);
        if (r <= 0) {
            for (int j = 0; j < i; j++) NN_RELEASE(vals[j]);
            m->done = r == 0;
            return r;
        }
    }
    return 1;
}

static int zip_next(repl_lazy *self, nn_object **out)
{
    multi_obj *m = (multi_obj *)self;
    if (!m->n) return 0;
    nn_object *t = nn_tuple_new((size_t)m->n), *vals[m->n];
    if (!t) return -1;
    int r = next_all(m, vals);
    if (r <= 0) {
        NN_RELEASE(t);
        return r;
    }
    for (int i = 0; i < m->n; i++) nn_tuple_set(t, (size_t)i, vals[i]);
    *out = t;
    return 1;
}

static int map_next(repl_lazy *self, nn_object **out)
{
    multi_obj *m = (multi_obj *)self;
    nn_object *vals[m->n];
    int r = next_all(m, vals);
    if (r <= 0) return r;
    *out = repl_call_object(m->fn, vals, m->n, NULL);
    for (int i = 0; i < m->n; i++) NN_RELEASE(vals[i]);
    return *out ? 1 : -1;
}

static int filter_next(repl_lazy *self, nn_object **out)
{
    multi_obj *m = (multi_obj *)self;
    nn_object *v;
    for (;;) {
        int r = next_all(m, &v);
        if (r <= 0) return r;
        nn_object *c = nn_is_none(m->fn) ? nn_retain(v) : repl_call_object(m->fn, &v, 1, NULL);
        int t = c ? repl_truth(c) : -1;
        NN_RELEASE(c);
        if (t > 0) {
            *out = v;
            return 1;
        }
        NN_RELEASE(v);
        if (t < 0) return -1;
    }
}

static int enumerate_next(repl_lazy *self, nn_object **out)
{
    multi_obj *m = (multi_obj *)self;
    nn_object *v;
    int r = next_all(m, &v);
    if (r <= 0) return r;
    nn_object *k = nn_int_new(m->count++);
    *out = k ? nn_tuple_pack(2, k, v) : NULL;
    NN_RELEASE(k);
    NN_RELEASE(v);
    return *out ? 1 : -1;
}

/* reversed(list) reads the list as it is then; other sequences were copied */
static int reversed_next(repl_lazy *self, nn_object **out)
{
    multi_obj *m = (multi_obj *)self;
    nn_object *l = m->fn;
    if (m->done || m->count < 0 || (size_t)m->count >= nn_list_len(l)) {
        m->done = true;
        return 0;
    }
    *out = nn_retain(nn_list_get(l, (size_t)m->count--));
    return 1;
}

#define LAZY_TYPE(tname) {.name = tname, .dealloc = multi_dealloc, .repr = multi_repr, .base = &repl_lazy_base, .getattr = repl_lazy_getattr}
const nn_type repl_zip_type = LAZY_TYPE("zip");
const nn_type repl_map_type = LAZY_TYPE("map");
const nn_type repl_filter_type = LAZY_TYPE("filter");
const nn_type repl_enumerate_type = LAZY_TYPE("enumerate");
const nn_type repl_reversed_type = LAZY_TYPE("reversed");
static const nn_type list_reversed_type = LAZY_TYPE("list_reverseiterator");
static const nn_type dict_reversed_type = LAZY_TYPE("dict_reversekeyiterator");

/* A new lazy iterator over iterators made from items[0..n) (borrowed). */
static nn_object *multi_new(const nn_type *type, int (*next)(repl_lazy *, nn_object **), nn_object *fn,
                            nn_object *const *items, int n)
{
    multi_obj *m = nn_calloc(1, sizeof *m);
    if (!m) return NULL;
    nn_object_init(&m->lz.ob, type);
    m->lz.next = next;
    m->fn = fn ? nn_retain(fn) : NULL;
    if (n && !(m->its = nn_calloc((size_t)n, sizeof *m->its))) {
        NN_RELEASE(&m->lz.ob);
        return NULL;
    }
    for (; m->n < n; m->n++)
        if (!(m->its[m->n] = repl_get_iter(items[m->n]))) {
            NN_RELEASE(&m->lz.ob);
            return NULL;
        }
    return &m->lz.ob;
}

nn_object *repl_bi_zip(void *ud, nn_object *args, nn_object *kwargs)
{
    int n = (int)nn_tuple_len(args);
    nn_object *items[n ? n : 1];
    for (int i = 0; i < n; i++) items[i] = nn_tuple_get(args, (size_t)i);
    return multi_new(&repl_zip_type, zip_next, NULL, items, n);
}

nn_object *repl_bi_map(void *ud, nn_object *args, nn_object *kwargs)
{
    int n = (int)nn_tuple_len(args);
    if (n < 2) {
        repl_raise_exc(EXC_TypeError, "map() must have at least two arguments.");
        return NULL;
    }
    nn_object *items[n];
    for (int i = 0; i < n; i++) items[i] = nn_tuple_get(args, (size_t)i);
    return multi_new(&repl_map_type, map_next, items[0], items + 1, n - 1);
}

nn_object *repl_bi_filter(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nn_tuple_len(args) != 2) {
        repl_raise_exc(EXC_TypeError, "filter expected 2 arguments, got %zu", nn_tuple_len(args));
        return NULL;
    }
    nn_object *it = nn_tuple_get(args, 1);
    return multi_new(&repl_filter_type, filter_next, nn_tuple_get(args, 0), &it, 1);
}

nn_object *repl_bi_enumerate(void *ud, nn_object *args, nn_object *kwargs)
{
    size_t n = nn_tuple_len(args);
    nn_object *start = n > 1 ? nn_tuple_get(args, 1) : kwargs ? nn_dict_get_str(kwargs, "start") : NULL;
    if (n < 1 || n > 2) {
        repl_raise_exc(EXC_TypeError, n ? "enumerate() takes at most 2 arguments (%zu given)"
                                        : "enumerate() missing required argument 'iterable'", n);
        return NULL;
    }
    if (start) start = repl_unwrap_value(start); /* enumerate(x, start=I(1)): an int subclass's value */
    if (start && start->type != &nn_int_type && start->type != &nn_bool_type) {
        repl_raise_exc(EXC_TypeError, "'%s' object cannot be interpreted as an integer", repl_value_type_name(start));
        return NULL;
    }
    nn_object *it = nn_tuple_get(args, 0);
    nn_object *e = multi_new(&repl_enumerate_type, enumerate_next, NULL, &it, 1);
    if (e && start) ((multi_obj *)e)->count = nn_int_value(start);
    return e;
}

nn_object *repl_bi_reversed(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nn_tuple_len(args) != 1) {
        repl_raise_exc(EXC_TypeError, "reversed expected 1 argument, got %zu", nn_tuple_len(args));
        return NULL;
    }
    nn_object *o = nn_tuple_get(args, 0);
    if (o->type == &repl_range_type) {
        range_obj *r = (range_obj *)o;
        int64_t n = repl_range_len(r);
        nn_object *rr = repl_range_new(r->start + (n - 1) * r->step, r->start - r->step, -r->step);
        nn_object *it = rr ? repl_get_iter(rr) : NULL;
        NN_RELEASE(rr);
        return it;
    }
    if (o->type == &repl_instance_type && repl_class_lookup(((instance_obj *)o)->cls, "__reversed__"))
        return repl_call_method(o, "__reversed__", NULL, 0);
    if (repl_base_value(o) && !repl_class_lookup(((instance_obj *)o)->cls, "__getitem__"))
        o = repl_base_value(o); /* reversed(a list subclass): its list's */
    const nn_type *type = o->type == &nn_list_type ? &list_reversed_type
                        : o->type == &nn_dict_type ? &dict_reversed_type : &repl_reversed_type;
    bool seq = o->type == &nn_list_type || o->type == &nn_tuple_type || o->type->base == &nn_tuple_type ||
               o->type == &nn_str_type || o->type == &nn_dict_type || o->type == &repl_dictview_type ||
               (o->type == &repl_instance_type && repl_class_lookup(((instance_obj *)o)->cls, "__getitem__") &&
                repl_class_lookup(((instance_obj *)o)->cls, "__len__"));
    if (!seq) {
        repl_raise_exc(EXC_TypeError, "'%s' object is not reversible", repl_value_type_name(o));
        return NULL;
    }
    nn_object *l = o->type == &nn_list_type ? nn_retain(o) : repl_to_list(o);
    nn_object *m = l ? multi_new(type, reversed_next, l, NULL, 0) : NULL;
    if (m) ((multi_obj *)m)->count = (int64_t)nn_list_len(l) - 1;
    NN_RELEASE(l);
    return m;
}

/* ------------------------------------------------------------------ StopIteration.value */

static nn_object *stop_value_get(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *self = nn_tuple_len(args) ? nn_tuple_get(args, 0) : NULL;
    nn_object *a = self && self->type == &repl_instance_type ? repl_nmap_get(&((instance_obj *)self)->attrs, "args") : NULL;
    return nn_retain(a && a->type == &nn_tuple_type && nn_tuple_len(a) ? nn_tuple_get(a, 0) : nn_none());
}

int repl_generators_init(repl_interp *in)
{
    nn_object *getter = nn_cfunction_new("value", stop_value_get, NULL, NULL);
    nn_object *prop = getter ? repl_call_object(repl_nmap_get(&in->builtins, "property"), &getter, 1, NULL) : NULL;
    int rc = prop ? repl_nmap_set(&in->exc_classes[EXC_StopIteration]->dict, "value", prop) : -1;
    NN_RELEASE(getter);
    NN_RELEASE(prop);
    return rc;
}
