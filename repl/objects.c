/*
 * objects.c — the language's own objects: name maps, scopes, functions' and
 * classes' storage, instances, bound methods, exceptions, set, range, module
 * namespaces and iterators. Calling and attribute rules live in eval.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval_int.h"

/* ------------------------------------------------------------------ sbuf */

void repl_sb_add(sbuf *b, const char *s, size_t n)
{
    if (n > REPL_STR_MAX - b->len) b->failed = true;
    if (b->failed) return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        while (cap < b->len + n + 1) cap *= 2;
        char *p = nn_realloc(b->buf, cap);
        if (!p) {
            b->failed = true;
            return;
        }
        b->buf = p;
        b->cap = cap;
    }
    memcpy(b->buf + b->len, s, n);
    b->len += n;
    b->buf[b->len] = 0;
}

void repl_sb_puts(sbuf *b, const char *s) { repl_sb_add(b, s, strlen(s)); }

void repl_sb_fill(sbuf *b, char c, size_t n)
{
    if (n > REPL_STR_MAX - b->len) b->failed = true; /* refused before any work */
    if (b->failed || n == 0) return;
    repl_sb_add(b, &c, 1);   /* makes room for n at once: doubling past len + n */
    if (b->failed || n == 1) return;
    if (b->len + n > b->cap - 1) {
        char *p = nn_realloc(b->buf, b->len + n + 1);
        if (!p) {
            b->failed = true;
            return;
        }
        b->buf = p;
        b->cap = b->len + n + 1;
    }
    memset(b->buf + b->len, c, n - 1);
    b->len += n - 1;
    b->buf[b->len] = 0;
}

void repl_sb_printf(sbuf *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof tmp) {
        repl_sb_add(b, tmp, (size_t)n);
        return;
    }
    char *big = nn_malloc((size_t)n + 1);
    if (!big) {
        b->failed = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    repl_sb_add(b, big, (size_t)n);
    nn_free(big);
}

void repl_sb_take(sbuf *b, char *s)
{
    if (!s) {
        b->failed = true;
        return;
    }
    repl_sb_puts(b, s);
    nn_free(s);
}

nn_object *repl_sb_str(sbuf *b)
{
    size_t len = b->len;
    char *s = repl_sb_finish(b);
    nn_object *r = s ? nn_str_from(s, len) : NULL;
    nn_free(s);
    return r;
}

char *repl_sb_finish(sbuf *b)
{
    if (b->failed) {
        nn_free(b->buf);
        nn_error_set(NN_ERR_MEMORY, "out of memory");
        return NULL;
    }
    if (!b->buf) return nn_strdup("");
    return b->buf;
}

/* ------------------------------------------------------------------ nmap */

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* Names are short: comparing in place beats a call to strcmp on every lookup. */
static inline bool same_name(const char *a, const char *b)
{
    while (*a && *a == *b) a++, b++;
    return *a == *b;
}

static nmap_entry *nmap_find(const nmap *m, const char *key, uint32_t h)
{
    if (!m->cap) return NULL;
    uint32_t mask = m->cap - 1;
    for (uint32_t i = h & mask;; i = (i + 1) & mask) {
        nmap_entry *e = &m->e[i];
        if (!e->key) return e;
        if (e->hash == h && same_name(e->key, key)) return e;
    }
}

nn_object *repl_nmap_get(const nmap *m, const char *key)
{
    nmap_entry *e = nmap_find(m, key, name_hash(key));
    return e && e->key ? e->value : NULL;
}

static uint32_t cached_hash(repl_name_cache *c, const char *key)
{
    if (!c->hash) c->hash = name_hash(key);
    return c->hash;
}

static inline bool cache_valid(const repl_name_cache *c, const nmap *m)
{
    return c->map == m && c->gen == m->gen;
}

nn_object *repl_nmap_get_hashed(const nmap *m, const char *key, repl_name_cache *c)
{
    nmap_entry *e = nmap_find(m, key, cached_hash(c, key));
    return e && e->key ? e->value : NULL;
}

nn_object *repl_nmap_get_cached(const nmap *m, const char *key, repl_name_cache *c)
{
    if (cache_valid(c, m)) return m->e[c->idx].value;
    nmap_entry *e = nmap_find(m, key, cached_hash(c, key));
    if (!e || !e->key) return NULL;
    c->map = m;
    c->gen = m->gen;
    c->idx = (uint32_t)(e - m->e);
    return e->value;
}

static int nmap_grow(nmap *m)
{
    uint32_t cap = m->cap ? m->cap * 2 : 8;
    if (m->len * 2 < m->cap) cap = m->cap; /* many tombstones: rehash in place size */
    nmap_entry *e = nn_calloc(cap, sizeof *e);
    if (!e) return -1;
    nmap old = *m;
    static uint64_t last_gen;
    m->e = e;
    m->cap = cap;
    m->used = m->len = 0;
    m->gen = ++last_gen;
    for (uint32_t i = 0; i < old.cap; i++) {
        nmap_entry *o = &old.e[i];
        if (!o->key) continue;
        if (!o->value) {
            nn_free(o->key);
            continue;
        }
        nmap_entry *d = nmap_find(m, o->key, o->hash);
        *d = *o;
        m->used++;
        m->len++;
    }
    nn_free(old.e);
    return 0;
}

/* Sets the live entry e (found for key, or revived from a tombstone). */
static void nmap_entry_set(nmap *m, nmap_entry *e, nn_object *value)
{
    if (!e->value) {
        m->len++;
        e->seq = m->next_seq++;
    }
    nn_retain(value);
    NN_SET(e->value, value);
}

/* Sets key (hash h); *slot gets the entry's index. 0 or -1 with MemoryError. */
static int nmap_set_h(nmap *m, const char *key, uint32_t h, nn_object *value, uint32_t *slot)
{
    nmap_entry *e = nmap_find(m, key, h);
    if (e && e->key) {
        nmap_entry_set(m, e, value);
        *slot = (uint32_t)(e - m->e);
        return 0;
    }
    if ((m->used + 1) * 4 > m->cap * 3) {
        if (nmap_grow(m) < 0) return -1;
        e = nmap_find(m, key, h);
    }
    char *k = nn_strdup(key);
    if (!k) return -1;
    e->key = k;
    e->hash = h;
    e->seq = m->next_seq++;
    e->value = nn_retain(value);
    m->used++;
    m->len++;
    *slot = (uint32_t)(e - m->e);
    return 0;
}

int repl_nmap_set(nmap *m, const char *key, nn_object *value)
{
    uint32_t slot;
    return nmap_set_h(m, key, name_hash(key), value, &slot);
}

int repl_nmap_set_cached(nmap *m, const char *key, nn_object *value, repl_name_cache *c)
{
    if (cache_valid(c, m)) {
        nmap_entry_set(m, &m->e[c->idx], value);
        return 0;
    }
    uint32_t slot;
    if (nmap_set_h(m, key, cached_hash(c, key), value, &slot) < 0) return -1;
    c->map = m;
    c->gen = m->gen;
    c->idx = slot;
    return 0;
}

int repl_nmap_del(nmap *m, const char *key)
{
    nmap_entry *e = nmap_find(m, key, name_hash(key));
    if (!e || !e->key || !e->value) return 0;
    NN_SET(e->value, NULL);
    m->len--;
    return 1;
}

void repl_nmap_clear(nmap *m)
{
    /* values are released after the table is detached: a destructor may look names up */
    nmap old = *m;
    memset(m, 0, sizeof *m);
    for (uint32_t i = 0; i < old.cap; i++) {
        NN_RELEASE(old.e[i].value);
        nn_free(old.e[i].key);
    }
    nn_free(old.e);
}

static int cmp_seq(const void *a, const void *b)
{
    uint32_t x = (*(nmap_entry *const *)a)->seq, y = (*(nmap_entry *const *)b)->seq;
    return x < y ? -1 : x > y;
}

const char **repl_nmap_keys_ordered(const nmap *m)
{
    if (!m->len) return NULL;
    nmap_entry **es = nn_malloc(m->len * sizeof *es);
    const char **keys = es ? nn_malloc(m->len * sizeof *keys) : NULL;
    if (!keys) {
        nn_free(es);
        return NULL;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->cap; i++)
        if (m->e[i].key && m->e[i].value) es[n++] = &m->e[i];
    qsort(es, n, sizeof *es, cmp_seq);
    for (uint32_t i = 0; i < n; i++) keys[i] = es[i]->key;
    nn_free(es);
    return keys;
}

bool repl_nmap_next(const nmap *m, uint32_t *pos, const char **key, nn_object **value)
{
    while (*pos < m->cap) {
        nmap_entry *e = &m->e[(*pos)++];
        if (e->key && e->value) {
            *key = e->key;
            *value = e->value;
            return true;
        }
    }
    return false;
}

/* ------------------------------------------------------------------ scope */

/* A call's scope is freed when it returns: a few freed scopes are kept, with
   their small tables and the keys in them (as deleted entries), so that the next
   call binds its parameters without allocating (repl_nmap_set revives a
   deleted key in place). */
#define SCOPE_CACHE 16
#define SCOPE_CACHE_CAP 16 /* tables larger than this are freed */
static scope *scope_cache[SCOPE_CACHE];
static int n_scope_cache;

static void scope_dealloc(nn_object *self)
{
    scope *s = (scope *)self;
    if (s->reg_head) {
        if (s->reg_prev) s->reg_prev->reg_next = s->reg_next;
        else *s->reg_head = s->reg_next;
        if (s->reg_next) s->reg_next->reg_prev = s->reg_prev;
    }
    scope *parent = s->parent;
    s->parent = NULL;
    NN_SET(s->module, NULL);
    if (s->map.cap > SCOPE_CACHE_CAP || n_scope_cache == SCOPE_CACHE) {
        repl_nmap_clear(&s->map);
        NN_RELEASE(parent);
        nn_free(s);
        return;
    }
    /* values are released after the table holds none: a destructor may run */
    nn_object *values[SCOPE_CACHE_CAP];
    int nv = 0;
    for (uint32_t i = 0; i < s->map.cap; i++)
        if (s->map.e[i].value) {
            values[nv++] = s->map.e[i].value;
            s->map.e[i].value = NULL;
        }
    s->map.len = 0;
    for (int i = 0; i < nv; i++) NN_RELEASE(values[i]);
    NN_RELEASE(parent);
    if (n_scope_cache == SCOPE_CACHE) {   /* a destructor filled the cache meanwhile */
        repl_nmap_clear(&s->map);
        nn_free(s);
        return;
    }
    scope_cache[n_scope_cache++] = s;
}

const nn_type repl_scope_type = {.name = "scope", .dealloc = scope_dealloc, .traverse = repl_scope_traverse,
                                 .clear = repl_scope_clear};

scope *repl_scope_new(scope *parent)
{
    scope *s;
    if (n_scope_cache) {
        /* every field but the table reset by copying a blank scope: GCC makes a
           memset of it a `rep stos`, whose start-up was 5% of a small call */
        static const scope blank;
        s = scope_cache[--n_scope_cache];
        nmap map = s->map;
        *s = blank;
        s->map = map;
    } else if (!(s = nn_calloc(1, sizeof *s))) {
        return NULL;
    }
    nn_object_init(&s->ob, &repl_scope_type);
    s->parent = parent;
    if (parent) NN_RETAIN(parent);
    return s;
}

/* ------------------------------------------------------------------ class */

/* Drops what the class holds (the collector's clear; dealloc starts with it). */
static void class_clear(nn_object *self)
{
    class_obj *c = (class_obj *)self;
    /* functions that outlive their class forget it (owner is borrowed) */
    uint32_t pos = 0;
    const char *k;
    nn_object *v;
    while (repl_nmap_next(&c->dict, &pos, &k, &v))
        if (v->type == &repl_function_type && ((func_obj *)v)->owner == self) ((func_obj *)v)->owner = NULL;
    repl_nmap_clear(&c->dict);
    repl_class_free_mro(c);
    NN_SET(c->base, NULL);
    NN_SET(c->native_base, NULL);
    if (c->meta) {
        class_obj *meta = c->meta;
        c->meta = NULL;
        NN_RELEASE(&meta->ob);
    }
}

static void class_dealloc(nn_object *self)
{
    class_obj *c = (class_obj *)self;
    class_clear(self);
    nn_free(c->name);
    nn_free(c->qualname);
    nn_free(c->tp_name);
    if (c->mcls) nn_free((char *)c->mcls->name);
    nn_free(c->mcls);
    nn_free(c);
}

const char *repl_class_qualname(const class_obj *c) { return c->qualname ? c->qualname : c->name; }

const char *repl_class_module(const class_obj *c)
{
    nn_object *own = repl_nmap_get(&((class_obj *)c)->dict, "__module__"); /* set in the body, as CPython's type_repr */
    if (own && nn_is_str(own)) return nn_str_cstr(own);
    if (c->module) return c->module;
    return c->ntype || c->exc >= 0 || c == repl_current->object_cls || c == repl_current->type_cls ? "builtins" : "__main__";
}

static char *class_repr(nn_object *self)
{
    class_obj *c = (class_obj *)self;
    if (c->meta) { /* a metaclass's __repr__, inside containers too (<enum 'Color'> in an __mro__) */
        bool found;
        nn_object *r = repl_call_meta(self, "__repr__", NULL, 0, &found);
        if (found) {
            if (!r) return NULL;
            char *s = nn_is_str(r) ? nn_strdup(nn_str_cstr(r)) : NULL;
            if (!s) repl_raise_exc(EXC_TypeError, "__repr__ returned non-string (type %s)", repl_value_type_name(r));
            nn_release(r);
            return s;
        }
    }
    sbuf b = {0};
    const char *module = repl_class_module(c);
    if (strcmp(module, "builtins") != 0)
        repl_sb_printf(&b, "<class '%s.%s'>", module, repl_class_qualname(c));
    else
        repl_sb_printf(&b, "<class '%s'>", c->name);
    return repl_sb_finish(&b);
}

static nn_object *class_call_slot(nn_object *self, nn_object *args, nn_object *kwargs)
{
    size_t n = nn_tuple_len(args);
    return repl_call_object(self, n ? ((nn_tuple *)args)->items : NULL, (int)n, kwargs);
}

const nn_type repl_class_type = {.name = "type", .dealloc = class_dealloc, .repr = class_repr, .call = class_call_slot,
                                 .traverse = repl_class_traverse, .clear = class_clear,
                                 .getattr = repl_lang_class_getattr, .setattr = repl_lang_class_setattr,
                                 .delattr = repl_lang_class_delattr};

class_obj *repl_lang_class_new(const char *name, class_obj *base, int exc)
{
    class_obj *c = nn_calloc(1, sizeof *c);
    if (!c) return NULL;
    nn_object_init(&c->ob, &repl_class_type);
    c->name = nn_strdup(name);
    if (!c->name) {
        nn_free(c);
        return NULL;
    }
    c->base = (class_obj *)nn_retain((nn_object *)base);
    c->exc = exc;
    if (repl_class_init_mro(c) < 0 || nn_gc_track(&c->ob) < 0) {
        NN_RELEASE(&c->ob);
        return NULL;
    }
    return c;
}

nn_object *repl_class_lookup(const class_obj *c, const char *name)
{
    for (int i = 0; c && c->mro && i < c->n_mro; i++) {
        nn_object *v = repl_nmap_get(&c->mro[i]->dict, name);
        if (v) return v;
    }
    if (c && c->mro) return NULL;
    for (; c; c = c->base) {
        nn_object *v = repl_nmap_get(&c->dict, name);
        if (v) return v;
    }
    return NULL;
}

bool repl_class_is_subclass(const class_obj *c, const class_obj *base)
{
    for (int i = 0; c && c->mro && i < c->n_mro; i++)
        if (c->mro[i] == base) return true;
    if (c && c->mro) return false;
    for (; c; c = c->base)
        if (c == base) return true;
    return false;
}

/* ------------------------------------------------------------------ instance */

static void instance_dealloc(nn_object *self)
{
    instance_obj *o = (instance_obj *)self;
    if (o->weak) repl_weakref_dying(self);
    repl_nmap_clear(&o->attrs);
    NN_RELEASE(o->value);
    NN_RELEASE(o->dict);
    NN_RELEASE(o->cls);
    nn_free(o);
}

static char *instance_repr(nn_object *self) { return repl_obj_repr(self); }
static char *instance_str(nn_object *self) { return repl_obj_str(self); }
static int64_t instance_hash(nn_object *self) { return repl_obj_hash(self); }
static int instance_equal(nn_object *a, nn_object *b) { return repl_equal(a, b); }
static nn_object *instance_call(nn_object *self, nn_object *args, nn_object *kwargs)
{
    size_t n = nn_tuple_len(args);
    return repl_call_object(self, n ? ((nn_tuple *)args)->items : NULL, (int)n, kwargs);
}

const nn_type repl_instance_type = {.name = "object", .dealloc = instance_dealloc, .repr = instance_repr,
                                    .str = instance_str, .call = instance_call, .hash = instance_hash,
                                    .equal = instance_equal, .traverse = repl_instance_traverse,
                                    .clear = repl_instance_clear, .getattr = repl_instance_getattr,
                                    .setattr = repl_instance_setattr, .delattr = repl_instance_delattr,
                                    .equal_any = true};

nn_object *repl_instance_new(class_obj *cls)
{
    instance_obj *o = nn_calloc(1, sizeof *o);
    if (!o) return NULL;
    nn_object_init(&o->ob, &repl_instance_type);
    o->cls = (class_obj *)nn_retain(&cls->ob);
    if (nn_gc_track(&o->ob) < 0) {
        NN_RELEASE(o);
        return NULL;
    }
    return &o->ob;
}

/* ------------------------------------------------------------------ method */

static void method_dealloc(nn_object *self)
{
    method_obj *m = (method_obj *)self;
    NN_RELEASE(m->func);
    NN_RELEASE(m->self);
    nn_free(m);
}

static char *method_repr(nn_object *self)
{
    method_obj *m = (method_obj *)self;
    sbuf b = {0};
    const char *slot_name = NULL, *kind = repl_mdescr_bound_kind(m->func, &slot_name);
    if (m->func->type == &repl_function_type) {
        repl_sb_printf(&b, "<bound method %s.%s of ", repl_value_type_name(m->self), ((func_obj *)m->func)->name);
        repl_sb_take(&b, repl_obj_repr(m->self));
        repl_sb_puts(&b, ">");
    } else if (kind) { /* [].__len__ */
        const char *form = strcmp(kind, "method-wrapper") == 0 ? "<%s '%s' of %s object at %p>" : "<%s %s of %s object at %p>";
        repl_sb_printf(&b, form, kind, slot_name, repl_value_type_name(m->self), (void *)m->self);
    } else {
        char *r = nn_repr(m->func);
        const char *name = r ? r : "?";
        if (strncmp(name, "<built-in function ", 19) == 0) name += 19;
        repl_sb_printf(&b, "<built-in method %.*s of %s object at %p>", (int)strcspn(name, ">"), name,
                  repl_value_type_name(m->self), (void *)m->self);
        nn_free(r);
    }
    return repl_sb_finish(&b);
}

static nn_object *method_call_slot(nn_object *self, nn_object *args, nn_object *kwargs)
{
    size_t n = nn_tuple_len(args);
    return repl_call_object(self, n ? ((nn_tuple *)args)->items : NULL, (int)n, kwargs);
}

const nn_type repl_method_type = {.name = "method", .dealloc = method_dealloc, .repr = method_repr,
                                  .call = method_call_slot, .traverse = repl_method_traverse,
                                  .clear = repl_method_clear, .getattr = repl_method_getattr};

nn_object *repl_method_new(nn_object *func, nn_object *self)
{
    method_obj *m = nn_malloc(sizeof *m);
    if (!m) return NULL;
    nn_object_init(&m->ob, &repl_method_type);
    m->func = nn_retain(func);
    m->self = nn_retain(self);
    if (nn_gc_track(&m->ob) < 0) {
        NN_RELEASE(m);
        return NULL;
    }
    return &m->ob;
}

/* ------------------------------------------------------------------ set */

static void set_dealloc(nn_object *self)
{
    set_obj *s = (set_obj *)self;
    NN_RELEASE(s->d);
    repl_set_table_free(s);
    nn_free(s->insertion_order);
    nn_free(s);
}

static char *set_repr(nn_object *self)
{
    set_obj *s = (set_obj *)self;
    sbuf b = {0};
    if (nn_dict_len(s->d) == 0) {
        repl_sb_puts(&b, s->frozen ? "frozenset()" : "set()");
        return repl_sb_finish(&b);
    }
    if (s->frozen) repl_sb_puts(&b, "frozenset(");
    repl_sb_puts(&b, "{");
    nn_object *elements = repl_set_elements(self);
    if (!elements) {
        nn_free(repl_sb_finish(&b));
        return NULL;
    }
    for (size_t i = 0; i < nn_list_len(elements); i++) {
        if (i) repl_sb_puts(&b, ", ");
        repl_sb_take(&b, repl_obj_repr(nn_list_get(elements, i)));
    }
    NN_RELEASE(elements);
    repl_sb_puts(&b, "}");
    if (s->frozen) repl_sb_puts(&b, ")");
    return repl_sb_finish(&b);
}

static int set_equal_slot(nn_object *a, nn_object *b)
{
    if (b->type != &repl_set_type) return 0;
    set_obj *x = (set_obj *)a, *y = (set_obj *)b;
    if (nn_dict_len(x->d) != nn_dict_len(y->d)) return 0;
    size_t pos = 0;
    nn_object *k, *v;
    while (nn_dict_next(x->d, &pos, &k, &v)) {
        nn_object *f = nn_dict_get(y->d, k);
        if (!f) return nn_error_current() ? -1 : 0;
    }
    return 1;
}

static int64_t set_hash_slot(nn_object *self)
{
    set_obj *s = (set_obj *)self;
    if (!s->frozen) {
        repl_raise_exc(EXC_TypeError, "unhashable type: 'set'");
        return -1;
    }
    uint64_t h = 0x9e3779b9;
    size_t pos = 0;
    nn_object *k, *v;
    while (nn_dict_next(s->d, &pos, &k, &v)) h ^= (uint64_t)nn_hash(k) * 0x100000001b3ull;
    return (int64_t)(h >> 1);
}

const nn_type repl_set_type = {.name = "set", .dealloc = set_dealloc, .repr = set_repr, .equal = set_equal_slot,
                               .hash = set_hash_slot, .traverse = repl_set_traverse};

nn_object *repl_set_new(bool frozen)
{
    set_obj *s = nn_calloc(1, sizeof *s);
    if (!s) return NULL;
    nn_object_init(&s->ob, &repl_set_type);
    s->frozen = frozen;
    s->d = nn_dict_new();
    if (!s->d) {
        nn_free(s);
        return NULL;
    }
    if (nn_gc_track(&s->ob) < 0) {
        NN_RELEASE(s);
        return NULL;
    }
    return &s->ob;
}

/* ------------------------------------------------------------------ range */

static char *range_repr(nn_object *self)
{
    range_obj *r = (range_obj *)self;
    char buf[96];
    if (r->step == 1) snprintf(buf, sizeof buf, "range(%lld, %lld)", (long long)r->start, (long long)r->stop);
    else snprintf(buf, sizeof buf, "range(%lld, %lld, %lld)", (long long)r->start, (long long)r->stop, (long long)r->step);
    return nn_strdup(buf);
}

static void plain_free(nn_object *self) { nn_free(self); }

const nn_type repl_range_type = {.name = "range", .dealloc = plain_free, .repr = range_repr};

nn_object *repl_range_new(int64_t start, int64_t stop, int64_t step)
{
    range_obj *r = nn_malloc(sizeof *r);
    if (!r) return NULL;
    nn_object_init(&r->ob, &repl_range_type);
    r->start = start;
    r->stop = stop;
    r->step = step;
    return &r->ob;
}

int64_t repl_range_len(const range_obj *r)
{
    if (r->step > 0 && r->start < r->stop) return (r->stop - r->start - 1) / r->step + 1;
    if (r->step < 0 && r->start > r->stop) return (r->start - r->stop - 1) / (-r->step) + 1;
    return 0;
}

/* ------------------------------------------------------------------ module */

static void module_dealloc(nn_object *self)
{
    module_obj *m = (module_obj *)self;
    repl_nmap_clear(&m->dict);
    NN_RELEASE(m->ns);
    nn_free(m->name);
    nn_free(m);
}

static char *module_repr(nn_object *self)
{
    sbuf b = {0};
    repl_sb_printf(&b, "<module '%s'>", ((module_obj *)self)->name);
    return repl_sb_finish(&b);
}

const nn_type repl_module_type = {.name = "module", .dealloc = module_dealloc, .repr = module_repr,
                                  .traverse = repl_module_traverse, .clear = repl_module_clear,
                                  .getattr = repl_lang_module_getattr, .setattr = repl_lang_module_setattr,
                                  .delattr = repl_lang_module_delattr};

nn_object *repl_module_new(const char *name)
{
    module_obj *m = nn_calloc(1, sizeof *m);
    if (!m) return NULL;
    nn_object_init(&m->ob, &repl_module_type);
    m->name = nn_strdup(name);
    if (!m->name) {
        nn_free(m);
        return NULL;
    }
    if (nn_gc_track(&m->ob) < 0) {
        NN_RELEASE(m);
        return NULL;
    }
    return &m->ob;
}

/* ------------------------------------------------------------------ exceptions */

nn_object *repl_exc_new(exc_id id, nn_object *args)
{
    nn_object *e = repl_instance_new(repl_current->exc_classes[id]);
    if (!e) return NULL;
    if (repl_nmap_set(&((instance_obj *)e)->attrs, "args", args) < 0) {
        NN_RELEASE(e);
        return NULL;
    }
    return e;
}

bool repl_exception_field(nn_object *exc, const char *name)
{
    class_obj *c = ((instance_obj *)exc)->cls, **classes = repl_current->exc_classes;
    if (repl_is_syntax_error(exc)) return repl_syntax_error_field(name);
    if (repl_class_is_subclass(c, classes[EXC_OSError]))
        return !strcmp(name, "errno") || !strcmp(name, "strerror") || !strcmp(name, "filename") || !strcmp(name, "filename2");
    if (repl_class_is_subclass(c, classes[EXC_ImportError])) return !strcmp(name, "name") || !strcmp(name, "path");
    return false;
}

exc_id repl_oserror_subclass(int64_t e)
{
    switch (e) { /* CPython's errno map (Objects/exceptions.c) */
    case ENOENT: return EXC_FileNotFoundError;
    case EEXIST: return EXC_FileExistsError;
    case ENOTDIR: return EXC_NotADirectoryError;
    case EISDIR: return EXC_IsADirectoryError;
    case EACCES:
    case EPERM: return EXC_PermissionError;
    case ETIMEDOUT: return EXC_TimeoutError;
    case EAGAIN:
    case EALREADY:
    case EINPROGRESS: return EXC_BlockingIOError;
    case ECHILD: return EXC_ChildProcessError;
    case EINTR: return EXC_InterruptedError;
    case ESRCH: return EXC_ProcessLookupError;
    case EPIPE:
    case ESHUTDOWN: return EXC_BrokenPipeError;
    case ECONNABORTED: return EXC_ConnectionAbortedError;
    case ECONNREFUSED: return EXC_ConnectionRefusedError;
    case ECONNRESET: return EXC_ConnectionResetError;
    default: return EXC_OSError;
    }
}

int repl_oserror_init(nn_object *exc)
{
    nmap *attrs = &((instance_obj *)exc)->attrs;
    nn_object *args = repl_nmap_get(attrs, "args");
    size_t n = args && args->type == &nn_tuple_type ? nn_tuple_len(args) : 0;
    bool fields = n >= 2 && n <= 5;
    static const char *const names[] = {"errno", "strerror", "filename", NULL, "filename2"};
    for (size_t i = 0; i < 5; i++) {
        if (!names[i]) continue;
        nn_object *v = fields && i < n ? nn_tuple_get(args, i) : nn_none();
        if (repl_nmap_set(attrs, names[i], v) < 0) return -1;
    }
    if (fields && n > 2) { /* with a filename, args are (errno, strerror) */
        nn_object *two = nn_tuple_pack(2, nn_tuple_get(args, 0), nn_tuple_get(args, 1));
        int rc = two ? repl_nmap_set(attrs, "args", two) : -1;
        NN_RELEASE(two);
        return rc;
    }
    return 0;
}

/* str() of an OSError: "[Errno 2] No such file or directory: 'x'" when it has
   its fields, NULL (and no error) when it does not */
static char *oserror_str(instance_obj *o)
{
    nn_object *no = repl_nmap_get(&o->attrs, "errno"), *text = repl_nmap_get(&o->attrs, "strerror");
    nn_object *file = repl_nmap_get(&o->attrs, "filename"), *file2 = repl_nmap_get(&o->attrs, "filename2");
    if (!no || !text || nn_is_none(no) || nn_is_none(text)) return NULL;
    sbuf b = {0};
    repl_sb_puts(&b, "[Errno ");
    repl_sb_take(&b, repl_obj_str(no));
    repl_sb_puts(&b, "] ");
    repl_sb_take(&b, repl_obj_str(text));
    if (file && !nn_is_none(file)) {
        repl_sb_puts(&b, ": ");
        repl_sb_take(&b, repl_obj_repr(file));
        if (file2 && !nn_is_none(file2)) {
            repl_sb_puts(&b, " -> ");
            repl_sb_take(&b, repl_obj_repr(file2));
        }
    }
    return repl_sb_finish(&b);
}

bool repl_is_exception_class(const nn_object *o)
{
    return o && o->type == &repl_class_type &&
           repl_class_is_subclass((const class_obj *)o, repl_current->exc_classes[EXC_BaseException]);
}

bool repl_is_exception(const nn_object *o)
{
    return o && o->type == &repl_instance_type && repl_is_exception_class(&((const instance_obj *)o)->cls->ob);
}

char *repl_exc_str(nn_object *exc)
{
    if (exc->type == &repl_instance_type) {
        instance_obj *o = (instance_obj *)exc;
        nn_object *m = repl_class_lookup(o->cls, "__str__");
        if (m && m->type == &repl_function_type) return repl_obj_str(exc);
        if (repl_class_is_subclass(o->cls, repl_current->exc_classes[EXC_OSError])) {
            char *s = oserror_str(o);
            if (s || nn_error_current()) return s;
        }
        if (repl_is_syntax_error(exc)) return repl_syntax_error_str(exc);
        nn_object *args = repl_nmap_get(&o->attrs, "args");
        if (args && args->type == &nn_tuple_type) {
            size_t n = nn_tuple_len(args);
            if (n == 0) return nn_strdup("");
            if (n == 1) {
                if (repl_class_is_subclass(o->cls, repl_current->exc_classes[EXC_KeyError]))
                    return repl_obj_repr(nn_tuple_get(args, 0));
                return repl_obj_str(nn_tuple_get(args, 0));
            }
            return repl_obj_repr(args);
        }
        return nn_strdup("");
    }
    return repl_obj_str(exc);
}

char *repl_exc_message(nn_object *exc)
{
    /* the raise in progress is set aside while str() runs user code */
    repl_interp *in = repl_current;
    nn_object *exc0 = in->exc, *owner0 = in->tb_owner;
    char *msg0 = in->exc_msg;
    tb_entry *tb0 = in->tb;
    int n0 = in->n_tb, cap0 = in->cap_tb;
    bool stale0 = in->tb_stale;
    nn_error_kind kind0 = nn_error_current();
    char *text0 = kind0 ? nn_strdup(nn_error_message()) : NULL;
    in->exc = in->tb_owner = NULL;
    in->exc_msg = NULL;
    in->tb = NULL;
    in->n_tb = in->cap_tb = 0;
    char *msg = repl_exc_str(exc);
    if (!msg && nn_error_current() != NN_ERR_MEMORY) msg = nn_strdup("<exception str() failed>");
    NN_RELEASE(in->exc);
    NN_RELEASE(in->tb_owner);
    nn_free(in->exc_msg);
    repl_tb_clear(in);
    nn_free(in->tb);
    in->exc = exc0;
    in->tb_owner = owner0;
    in->exc_msg = msg0;
    in->tb = tb0;
    in->n_tb = n0;
    in->cap_tb = cap0;
    in->tb_stale = stale0;
    nn_error_clear();
    if (kind0) nn_error_set(kind0, "%s", text0 ? text0 : "");
    nn_free(text0);
    if (!msg) nn_error_set(NN_ERR_MEMORY, "out of memory");
    return msg;
}

static void set_core_error(nn_object *exc)
{
    int kind = NN_ERR_RUNTIME;
    class_obj *c = ((instance_obj *)exc)->cls;
    for (int i = 0; i < c->n_mro; i++)   /* the first built-in exception class in its order */
        if (c->mro[i]->exc >= 0) {
            c = c->mro[i];
            break;
        }
    for (; c; c = c->base)
        if (c->exc >= 0) break;
    static const int kinds[] = {
#define X(name, parent, kind) kind,
        EXC_LIST(X)
#undef X
    };
    for (class_obj *k = c; k; k = k->base)
        if (k->exc >= 0 && kinds[k->exc] >= 0) {
            kind = kinds[k->exc];
            break;
        }
    char *msg = repl_exc_message(exc);
    nn_error_clear();
    nn_free(repl_current->exc_msg);
    repl_current->exc_msg = msg;
    if (!msg) {
        /* no memory for the message: the exception becomes a MemoryError */
        NN_SET(repl_current->exc, NULL);
        nn_error_set(NN_ERR_MEMORY, "out of memory");
        return;
    }
    nn_error_set((nn_error_kind)kind, "%s", msg);
}

int repl_raise_object(nn_object *exc)
{
    repl_interp *in = repl_current;
    if (!exc) exc = in->no_memory; /* what failed to be made was for want of memory */
    if (exc != in->tb_owner) {
        /* a new exception: its traceback starts here (a re-raise keeps the entries),
           after those of an earlier raise of it; raised while one is handled, that
           one is its __context__ (exc_chain.c) */
        repl_tb_clear(in);
        nn_retain(exc);
        NN_SET(in->tb_owner, exc);
        repl_exc_seed_traceback(exc);
        repl_exc_set_context(exc);
    } else if (in->n_tb == 0) {
        repl_exc_seed_traceback(exc); /* raised again after it was caught */
    }
    in->tb_skip = NULL;
    in->tb_stale = false;
    nn_retain(exc);
    NN_SET(in->exc, exc);
    set_core_error(exc);
    return -1;
}

nn_object *repl_exit_code(nn_object *exc)
{
    nn_object *args = repl_nmap_get(&((instance_obj *)exc)->attrs, "args");
    if (!args || args->type != &nn_tuple_type || nn_tuple_len(args) == 0) return nn_retain(nn_none());
    return nn_retain(nn_tuple_len(args) == 1 ? nn_tuple_get(args, 0) : args);
}

int repl_raise_system_exit(nn_object *code)
{
    bool none = !code || nn_is_none(code);
    nn_object *args = nn_tuple_new(none ? 0 : 1);
    if (args && !none) nn_tuple_set(args, 0, nn_retain(code));
    nn_object *exc = args ? repl_exc_new(EXC_SystemExit, args) : NULL;
    NN_RELEASE(args);
    if (!exc) return -1;
    repl_raise_object(exc);
    NN_RELEASE(exc);
    return -1;
}

int repl_raise_exc(exc_id id, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    /* MemoryError without words has no args, as CPython's: MemoryError() */
    bool bare = id == EXC_MemoryError && !buf[0];
    nn_object *msg = bare ? NULL : nn_str_new(buf), *args = bare ? nn_tuple_new(0) : msg ? nn_tuple_pack(1, msg) : NULL;
    nn_object *e = args ? repl_exc_new(id, args) : NULL;
    NN_RELEASE(msg);
    NN_RELEASE(args);
    if (!e) return -1; /* MemoryError is set */
    repl_raise_object(e);
    NN_RELEASE(e);
    return -1;
}

static exc_id exc_for_kind(nn_error_kind kind)
{
    static const int kinds[] = {
#define X(name, parent, kind) kind,
        EXC_LIST(X)
#undef X
    };
    for (int i = 0; i < EXC_COUNT; i++)
        if (kinds[i] == (int)kind) return (exc_id)i;
    return EXC_RuntimeError;
}

nn_object *repl_take_exception(void)
{
    repl_interp *in = repl_current;
    nn_error_kind kind = nn_error_current();
    nn_object *exc = NULL;
    if (in->exc && (kind == NN_OK || (in->exc_msg && strcmp(nn_error_message(), in->exc_msg) == 0))) {
        exc = in->exc;
        in->exc = NULL;
    } else {
        NN_SET(in->exc, NULL);
        char *msg = nn_strdup(kind == NN_OK ? "unknown error" : nn_error_message());
        nn_error_clear();
        /* building the exception may itself fail; MemoryError then carries no args,
           as CPython's never does (core's words on the size asked are not kept) */
        nn_object *s = msg && kind != NN_ERR_MEMORY ? nn_str_new(msg) : NULL, *args = s ? nn_tuple_pack(1, s) : NULL;
        if (!args) {
            nn_error_clear();
            args = nn_tuple_new(0);
        }
        exc_id id = msg ? exc_for_kind(kind == NN_OK ? NN_ERR_RUNTIME : kind) : EXC_MemoryError;
        exc = args ? repl_exc_new(id, args) : NULL;
        NN_RELEASE(s);
        NN_RELEASE(args);
        nn_free(msg);
        if (!exc) {
            /* no memory for even an exception: the MemoryError made in advance */
            nn_error_clear();
            exc = nn_retain(in->no_memory);
        } else {
            repl_exc_set_context(exc);
        }
    }
    nn_free(in->exc_msg);
    in->exc_msg = NULL;
    nn_error_clear();
    if (exc) nn_retain(exc);
    NN_SET(in->tb_owner, exc);
    in->tb_stale = true;
    return exc;
}

bool repl_exc_matches(nn_object *exc, nn_object *cls)
{
    if (cls->type == &nn_tuple_type) {
        for (size_t i = 0; i < nn_tuple_len(cls); i++)
            if (repl_exc_matches(exc, nn_tuple_get(cls, i))) return true;
        return false;
    }
    if (cls->type != &repl_class_type || !exc || exc->type != &repl_instance_type) return false;
    return repl_class_is_subclass(((instance_obj *)exc)->cls, (class_obj *)cls);
}

/* ------------------------------------------------------------------ iterators */

typedef enum iter_kind { IT_LIST, IT_TUPLE, IT_STR, IT_RANGE, IT_DICT, IT_USER } iter_kind;

typedef struct iter_obj {
    nn_object ob;
    iter_kind kind;
    nn_object *obj; /* owned */
    int64_t i, n;
} iter_obj;

static void iter_dealloc(nn_object *self)
{
    NN_RELEASE(((iter_obj *)self)->obj);
    nn_free(self);
}

static char *iter_repr(nn_object *self)
{
    static const char *names[] = {"list_iterator", "tuple_iterator", "str_ascii_iterator", "range_iterator",
                                  "dict_keyiterator", "iterator"};
    sbuf b = {0};
    repl_sb_printf(&b, "<%s object at %p>", names[((iter_obj *)self)->kind], (void *)self);
    return repl_sb_finish(&b);
}

const nn_type repl_iter_type = {.name = "iterator", .dealloc = iter_dealloc, .repr = iter_repr};

static nn_object *iter_make(iter_kind kind, nn_object *obj)
{
    iter_obj *it = nn_calloc(1, sizeof *it);
    if (!it) return NULL;
    nn_object_init(&it->ob, &repl_iter_type);
    it->kind = kind;
    it->obj = nn_retain(obj);
    if (kind == IT_RANGE) {
        it->i = ((range_obj *)obj)->start;
        it->n = repl_range_len((range_obj *)obj);
    }
    return &it->ob;
}

/* user: an object's own iterator (iter(x) is x when x.__iter__ returns x) rather than
   the wrapper the interpreter's loops step through */
static nn_object *get_iter(nn_object *o, bool user)
{
    const nn_type *t = o->type;
    if (repl_is_lazy(o)) return nn_retain(o);
    if (t == &nn_list_type) return iter_make(IT_LIST, o);
    if (t == &nn_tuple_type || t->base == &nn_tuple_type) return iter_make(IT_TUPLE, o); /* torch.Size too */
    if (t == &nn_str_type) return iter_make(IT_STR, o);
    if (t == &repl_range_type) return iter_make(IT_RANGE, o);
    if (t == &repl_set_type) {
        nn_object *keys = repl_set_elements(o);
        nn_object *it = keys ? iter_make(IT_LIST, keys) : NULL;
        NN_RELEASE(keys);
        return it;
    }
    if (t == &nn_dict_type) {
        nn_object *keys = nn_list_new(0);
        if (!keys) return NULL;
        nn_object *d = o, *k, *v;
        size_t pos = 0;
        while (nn_dict_next(d, &pos, &k, &v))
            if (nn_list_append(keys, k) < 0) {
                NN_RELEASE(keys);
                return NULL;
            }
        nn_object *it = iter_make(IT_LIST, keys);
        NN_RELEASE(keys);
        return it;
    }
    if (t == &repl_iter_type) return nn_retain(o);
    if (t == &repl_dictview_type) {
        nn_object *items = repl_dictview_list(o);
        nn_object *it = items ? iter_make(IT_LIST, items) : NULL;
        NN_RELEASE(items);
        return it;
    }
    if (t == &repl_instance_type) {
        instance_obj *inst = (instance_obj *)o;
        if (repl_class_lookup(inst->cls, "__iter__")) {
            nn_object *r = repl_call_method(o, "__iter__", NULL, 0);
            if (!r) return NULL;
            if (r->type == &repl_instance_type && repl_class_lookup(((instance_obj *)r)->cls, "__next__")) {
                if (user) return r;
                nn_object *it = iter_make(IT_USER, r);
                NN_RELEASE(r);
                return it;
            }
            if (r->type == &repl_iter_type || repl_is_lazy(r)) return r; /* a generator too */
            repl_raise_exc(EXC_TypeError, "iter() returned non-iterator of type '%s'", repl_value_type_name(r));
            NN_RELEASE(r);
            return NULL;
        }
        if (inst->value && (inst->value->type == &repl_iter_type || repl_is_lazy(inst->value)) &&
            repl_class_lookup(inst->cls, "__next__"))
            return user ? nn_retain(o) : iter_make(IT_USER, o); /* an enumerate subclass with its own __next__ is its iterator */
        if (inst->value) return repl_get_iter(inst->value); /* a list subclass iterates its list */
        if (repl_class_lookup(inst->cls, "__getitem__") && repl_class_lookup(inst->cls, "__len__")) {
            nn_object *items = repl_to_list(o);
            nn_object *it = items ? iter_make(IT_LIST, items) : NULL;
            NN_RELEASE(items);
            return it;
        }
    }
    if (t == &repl_class_type) { /* a metaclass's __iter__ */
        bool found;
        nn_object *r = repl_call_meta(o, "__iter__", NULL, 0, &found);
        if (found) {
            nn_object *it = r ? repl_get_iter(r) : NULL;
            NN_RELEASE(r);
            return it;
        }
    }
    const repl_native_ops *ops = repl_get_native_ops();
    if (ops && ops->iterate && t != &repl_instance_type && t != &repl_class_type && t != &repl_function_type &&
        t != &nn_int_type && t != &nn_float_type && t != &nn_bool_type && t != &nn_none_type) {
        nn_object *items = ops->iterate(o);
        if (items) {
            nn_object *it = nn_is_list(items) || items->type == &nn_tuple_type ? iter_make(IT_LIST, items) : repl_get_iter(items);
            if (it && items->type == &nn_tuple_type) ((iter_obj *)it)->kind = IT_TUPLE;
            NN_RELEASE(items);
            return it;
        }
        if (nn_error_current()) return NULL;
    }
    repl_raise_exc(EXC_TypeError, "'%s' object is not iterable", repl_value_type_name(o));
    return NULL;
}

nn_object *repl_get_iter(nn_object *o) { return get_iter(o, false); }

nn_object *repl_iter_builtin(nn_object *o) { return get_iter(o, true); }

int repl_iter_next(nn_object *itobj, nn_object **out)
{
    if (repl_is_lazy(itobj)) return ((repl_lazy *)itobj)->next((repl_lazy *)itobj, out);
    if (itobj->type != &repl_iter_type) {
        repl_raise_exc(EXC_TypeError, "'%s' object is not an iterator", repl_value_type_name(itobj));
        return -1;
    }
    iter_obj *it = (iter_obj *)itobj;
    /* sum(), min(), sorted(), ... of a huge range or list stop at Ctrl-C */
    if (((it->kind == IT_RANGE ? it->n : it->i) & 0xffff) == 0xffff && nn_check_interrupt() < 0) return -1;
    switch (it->kind) {
    case IT_LIST:
        if ((size_t)it->i >= nn_list_len(it->obj)) return 0;
        *out = nn_retain(nn_list_get(it->obj, (size_t)it->i++));
        return 1;
    case IT_TUPLE:
        if ((size_t)it->i >= nn_tuple_len(it->obj)) return 0;
        *out = nn_retain(nn_tuple_get(it->obj, (size_t)it->i++));
        return 1;
    case IT_STR: {
        const unsigned char *s = (const unsigned char *)nn_str_cstr(it->obj);
        size_t n = nn_str_len(it->obj), i = (size_t)it->i;
        if (i >= n) return 0;
        size_t len = 1;
        if (s[i] >= 0xc0) /* one UTF-8 character */
            while (i + len < n && (s[i + len] & 0xc0) == 0x80) len++;
        it->i += (int64_t)len;
        *out = nn_str_from((const char *)s + i, len);
        return *out ? 1 : -1;
    }
    case IT_RANGE: {
        if (it->n <= 0) return 0;
        *out = nn_int_new(it->i);
        it->i += ((range_obj *)it->obj)->step;
        it->n--;
        return *out ? 1 : -1;
    }
    case IT_USER: {
        nn_object *r = repl_call_method(it->obj, "__next__", NULL, 0);
        if (r) {
            *out = r;
            return 1;
        }
        nn_object *e = repl_take_exception();
        if (e && repl_exc_matches(e, &repl_current->exc_classes[EXC_StopIteration]->ob)) {
            NN_RELEASE(e);
            return 0;
        }
        repl_raise_object(e);
        NN_RELEASE(e);
        return -1;
    }
    default:
        return 0;
    }
}

nn_object *repl_to_list(nn_object *o)
{
    if (o->type == &repl_instance_type && !repl_class_lookup(((instance_obj *)o)->cls, "__iter__") &&
        !((instance_obj *)o)->value && repl_class_lookup(((instance_obj *)o)->cls, "__getitem__")) {
        /* the old sequence protocol: o[0], o[1], ... until IndexError */
        int64_t n;
        if (repl_length(o, &n) < 0) return NULL;
        nn_object *l = nn_list_new((size_t)n);
        for (int64_t i = 0; l && i < n; i++) {
            nn_object *k = nn_int_new(i), *v = k ? repl_get_item(o, k) : NULL;
            NN_RELEASE(k);
            if (!v || nn_list_append(l, v) < 0) {
                NN_RELEASE(v);
                NN_RELEASE(l);
                return NULL;
            }
            NN_RELEASE(v);
        }
        return l;
    }
    nn_object *it = repl_get_iter(o);
    if (!it) return NULL;
    /* a range's whole length at once: one too long for memory fails before any work */
    int64_t known = o->type == &repl_range_type ? repl_range_len((range_obj *)o) : 0;
    nn_object *l = nn_list_new(known > 0 ? (size_t)known : 0), *item;
    int rc = 0;
    for (uint32_t k = 1; l && (rc = repl_iter_next(it, &item)) == 1; k++) {
        int a = (k & 0xffff) == 0 && nn_check_interrupt() < 0 ? -1 : nn_list_append(l, item);
        NN_RELEASE(item);
        if (a < 0) {
            rc = -1;
            break;
        }
    }
    NN_RELEASE(it);
    if (rc < 0 || !l) {
        NN_RELEASE(l);
        return NULL;
    }
    return l;
}
