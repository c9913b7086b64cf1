/*
 * gc.c — the cycle collector, CPython's algorithm (Modules/gcmodule.c) over
 * core's two-word object header. Each tracked object has a node, found through
 * a hash table keyed by the object's address, that links it into one of three
 * generations. Collecting generation g (with the younger ones):
 *   1. gc_refs = refcount for every object of the collected set;
 *   2. each object's traverse subtracts one from the gc_refs of each collected
 *      object it references: what stays above zero is referenced from outside
 *      the set (a C local, an untracked object, a global, an older generation);
 *   3. everything reachable from those is kept and moves one generation up;
 *   4. the rest is unreachable — cycles and what only they hold. Each such
 *      object is held, cleared (its type's clear drops its references) and
 *      released, so that the ordinary deallocs free it.
 * The language has no __del__, so nothing is resurrected while clearing.
 * Collections are not re-entrant; state is process-wide (objects are made and
 * freed by the thread running the evaluator only).
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "nn.h"

typedef struct gc_node {
    nn_object *obj;
    struct gc_node *prev, *next; /* generation list, circular through its head */
    struct gc_node *chain;       /* hash bucket chain */
    intptr_t refs;               /* gc_refs while collecting */
    int gen;                     /* 0..2, or IN_COLLECTION */
} gc_node;

#define NGEN 3
#define IN_COLLECTION (-1)
#define TENTATIVE INTPTR_MIN /* refs of an object moved to the unreachable list */
#define SLAB_NODES 256

typedef struct slab {
    struct slab *next;
    gc_node nodes[SLAB_NODES];
} slab;

static gc_node heads[NGEN];
static long counts[NGEN];
static long thresholds[NGEN] = {700, 10, 10};
static bool enabled = true, collecting;
static gc_node **buckets;
static unsigned bucket_bits;
static size_t n_tracked;
static gc_node *free_nodes;
static slab *slabs;

long nn_gc_young;             /* == counts[0], read by nn_gc_due */
long nn_gc_trigger = 700;     /* thresholds[0], or LONG_MAX when disabled */

static void update_trigger(void) { nn_gc_trigger = enabled && thresholds[0] > 0 ? thresholds[0] : LONG_MAX; }

static void list_init(gc_node *h)
{
    h->prev = h->next = h;
}

static void list_remove(gc_node *n)
{
    n->prev->next = n->next;
    n->next->prev = n->prev;
}

static void list_append(gc_node *h, gc_node *n)
{
    n->prev = h->prev;
    n->next = h;
    h->prev->next = n;
    h->prev = n;
}

/* Moves every node of from to the end of to (from is left empty). */
static void list_splice(gc_node *to, gc_node *from)
{
    if (from->next == from) return;
    from->next->prev = to->prev;
    to->prev->next = from->next;
    from->prev->next = to;
    to->prev = from->prev;
    list_init(from);
}

static bool list_empty(const gc_node *h) { return h->next == h; }

static void init_once(void)
{
    if (heads[0].next) return;
    for (int g = 0; g < NGEN; g++) list_init(&heads[g]);
}

static size_t bucket_of(const nn_object *o)
{
    return (size_t)(((uint64_t)(uintptr_t)o * 0x9E3779B97F4A7C15ull) >> (64 - bucket_bits));
}

static gc_node *lookup(const nn_object *o)
{
    if (!buckets) return NULL;
    for (gc_node *n = buckets[bucket_of(o)]; n; n = n->chain)
        if (n->obj == o) return n;
    return NULL;
}

/* Doubles the bucket array (nodes stay where they are). 0 or -1 with MemoryError. */
static int grow_buckets(void)
{
    unsigned bits = bucket_bits ? bucket_bits + 1 : 10;
    gc_node **nb = nn_calloc((size_t)1 << bits, sizeof *nb);
    if (!nb) return -1;
    gc_node **old = buckets;
    size_t n_old = buckets ? (size_t)1 << bucket_bits : 0;
    buckets = nb;
    bucket_bits = bits;
    for (size_t i = 0; i < n_old; i++)
        for (gc_node *n = old[i], *next; n; n = next) {
            next = n->chain;
            size_t b = bucket_of(n->obj);
            n->chain = buckets[b];
            buckets[b] = n;
        }
    nn_free(old);
    return 0;
}

static gc_node *node_alloc(void)
{
    if (!free_nodes) {
        slab *s = nn_malloc(sizeof *s);
        if (!s) return NULL;
        s->next = slabs;
        slabs = s;
        for (int i = SLAB_NODES; i-- > 0;) {
            s->nodes[i].chain = free_nodes;
            free_nodes = &s->nodes[i];
        }
    }
    gc_node *n = free_nodes;
    free_nodes = n->chain;
    return n;
}

int nn_gc_track(nn_object *o)
{
    init_once();
    if (n_tracked >= (buckets ? (size_t)1 << bucket_bits : 0) && grow_buckets() < 0) return -1;
    gc_node *n = node_alloc();
    if (!n) return -1;
    n->obj = o;
    n->refs = 0;
    n->gen = 0;
    size_t b = bucket_of(o);
    n->chain = buckets[b];
    buckets[b] = n;
    list_append(&heads[0], n);
    n_tracked++;
    nn_gc_young = ++counts[0];
    return 0;
}

void nn_gc_untrack(nn_object *o)
{
    if (!n_tracked) return;
    gc_node **p = &buckets[bucket_of(o)];
    while (*p && (*p)->obj != o) p = &(*p)->chain;
    gc_node *n = *p;
    if (!n) return;
    *p = n->chain;
    list_remove(n);
    if (n->gen == 0 && counts[0] > 0) nn_gc_young = --counts[0];
    n->obj = NULL;
    n->chain = free_nodes;
    free_nodes = n;
    n_tracked--;
}

bool nn_gc_is_tracked(const nn_object *o) { return lookup(o) != NULL; }

size_t nn_gc_tracked_count(void) { return n_tracked; }

/* ------------------------------------------------------------ collecting */

static void visit_decref(nn_object *child, void *arg)
{
    (void)arg;
    gc_node *n = child ? lookup(child) : NULL;
    if (n && n->gen == IN_COLLECTION && n->refs > 0) n->refs--;
}

/* child is reachable: one left on the unreachable list comes back to the end
   of the young list (it will be scanned in turn); one not scanned yet will
   count as reachable when it is. */
static void visit_reachable(nn_object *child, void *young)
{
    gc_node *n = child ? lookup(child) : NULL;
    if (!n || n->gen != IN_COLLECTION) return;
    if (n->refs == TENTATIVE) {
        list_remove(n);
        list_append(young, n);
        n->refs = 1;
    } else if (n->refs == 0) {
        n->refs = 1;
    }
}

static void traverse(gc_node *n, nn_visit_fn visit, void *arg)
{
    if (n->obj->type->traverse) n->obj->type->traverse(n->obj, visit, arg);
}

/* Moves to unreachable what nothing outside young reaches (CPython's move_unreachable). */
static void move_unreachable(gc_node *young, gc_node *unreachable)
{
    gc_node *n = young->next;
    while (n != young) {
        gc_node *next;
        if (n->refs > 0) {
            traverse(n, visit_reachable, young);
            next = n->next;
        } else {
            next = n->next;
            list_remove(n);
            list_append(unreachable, n);
            n->refs = TENTATIVE;
        }
        n = next;
    }
}

/* Clears the unreachable objects, each held while its clear runs; an object
   that outlives its clear (others still hold it) goes to generation dest and is
   freed when they let go. */
static void delete_garbage(gc_node *unreachable, int dest)
{
    while (!list_empty(unreachable)) {
        gc_node *n = unreachable->next;
        nn_object *o = n->obj;
        list_remove(n);
        list_append(&heads[dest], n);
        n->gen = dest;
        n->refs = 0;
        nn_retain(o);
        if (o->type->clear) o->type->clear(o);
        nn_release(o);
    }
}

long nn_gc_collect(int gen)
{
    init_once();
    if (collecting) return 0;
    if (gen < 0 || gen >= NGEN) gen = NGEN - 1;
    collecting = true;
    gc_node young, unreachable;
    list_init(&young);
    list_init(&unreachable);
    for (int g = 0; g <= gen; g++) list_splice(&young, &heads[g]);
    for (gc_node *n = young.next; n != &young; n = n->next) {
        n->gen = IN_COLLECTION;
        n->refs = n->obj->refcount;
    }
    for (gc_node *n = young.next; n != &young; n = n->next) traverse(n, visit_decref, NULL);
    move_unreachable(&young, &unreachable);
    int dest = gen + 1 < NGEN ? gen + 1 : gen;
    for (gc_node *n = young.next; n != &young; n = n->next) {
        n->gen = dest;
        n->refs = 0;
    }
    list_splice(&heads[dest], &young);
    long found = 0;
    for (gc_node *n = unreachable.next; n != &unreachable; n = n->next) found++;
    if (gen + 1 < NGEN) counts[gen + 1]++;
    for (int g = 0; g <= gen; g++) counts[g] = 0;
    nn_gc_young = counts[0];
    delete_garbage(&unreachable, dest);
    collecting = false;
    return found;
}

void nn_gc_maybe_collect(void)
{
    if (!nn_gc_due() || collecting) return;
    int gen = 0;
    for (int g = NGEN - 1; g > 0; g--)
        if (thresholds[g] > 0 && counts[g] > thresholds[g]) {
            gen = g;
            break;
        }
    nn_gc_collect(gen);
}

void nn_gc_enable(bool on)
{
    enabled = on;
    update_trigger();
}

bool nn_gc_is_enabled(void) { return enabled; }

void nn_gc_get_count(long count[3])
{
    for (int g = 0; g < NGEN; g++) count[g] = counts[g];
}

void nn_gc_get_threshold(long threshold[3])
{
    for (int g = 0; g < NGEN; g++) threshold[g] = thresholds[g];
}

void nn_gc_set_threshold(const long threshold[3])
{
    for (int g = 0; g < NGEN; g++) thresholds[g] = threshold[g];
    update_trigger();
}

nn_object *nn_gc_get_objects(int gen)
{
    init_once();
    nn_object *list = nn_list_new(0);
    for (int g = 0; list && g < NGEN; g++) {
        if (gen >= 0 && g != gen) continue;
        for (gc_node *n = heads[g].next; n != &heads[g]; n = n->next)
            if (n->obj != list && nn_list_append(list, n->obj) < 0) {
                NN_SET(list, NULL);
                break;
            }
    }
    return list;
}
