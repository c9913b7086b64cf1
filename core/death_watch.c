/*
 * death_watch.c — death notices: a front end marks objects (nn_death_watch)
 * whose deallocation first calls its hook with the object and the tag it gave
 * (the language's weak references to functions, tensors and modules). The
 * marks are a table of addresses (linear probing, deletion by backward shift)
 * that nn_object_dealloc consults only while it is not empty.
 */
#include <stdint.h>

#include "death_watch.h"

typedef struct watch_entry {
    nn_object *obj; /* borrowed; NULL: empty */
    intptr_t tag;
} watch_entry;

static watch_entry *table;
static size_t cap; /* a power of two, or 0 */
size_t nn_death_watch_count;
static nn_death_hook death_hook;

void nn_set_death_hook(nn_death_hook hook) { death_hook = hook; }

static size_t slot_of(const nn_object *o)
{
    uint64_t h = (uint64_t)(uintptr_t)o * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 32) & (cap - 1);
}

static watch_entry *find(const nn_object *o)
{
    if (!cap) return NULL;
    for (size_t i = slot_of(o);; i = (i + 1) & (cap - 1)) {
        if (table[i].obj == o) return &table[i];
        if (!table[i].obj) return NULL;
    }
}

static int grow(void)
{
    size_t new_cap = cap ? cap * 2 : 64;
    watch_entry *old = table, *fresh = nn_calloc(new_cap, sizeof *fresh);
    if (!fresh) return -1;
    size_t old_cap = cap;
    table = fresh;
    cap = new_cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].obj) {
            size_t j = slot_of(old[i].obj);
            while (table[j].obj) j = (j + 1) & (cap - 1);
            table[j] = old[i];
        }
    nn_free(old);
    return 0;
}

int nn_death_watch(nn_object *o, intptr_t tag)
{
    watch_entry *e = find(o);
    if (e) {
        e->tag = tag;
        return 0;
    }
    if ((nn_death_watch_count + 1) * 2 > cap && grow() < 0) return -1;
    size_t i = slot_of(o);
    while (table[i].obj) i = (i + 1) & (cap - 1);
    table[i] = (watch_entry){o, tag};
    nn_death_watch_count++;
    return 0;
}

bool nn_death_watched(const nn_object *o, intptr_t *tag)
{
    watch_entry *e = find(o);
    if (e && tag) *tag = e->tag;
    return e != NULL;
}

/* Empties e's slot, moving back the entries of its run that it displaced. */
static void remove_entry(watch_entry *e)
{
    size_t i = (size_t)(e - table), j = i;
    table[i].obj = NULL;
    for (;;) {
        j = (j + 1) & (cap - 1);
        if (!table[j].obj) break;
        size_t home = slot_of(table[j].obj);
        /* j's entry may fill the hole at i unless its home lies cyclically in (i, j] */
        bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
        if (stays) continue;
        table[i] = table[j];
        table[j].obj = NULL;
        i = j;
    }
    nn_death_watch_count--;
}

void nn_death_unwatch(nn_object *o)
{
    watch_entry *e = find(o);
    if (e) remove_entry(e);
}

void nn_death_notify(nn_object *o)
{
    watch_entry *e = find(o);
    if (!e) return;
    intptr_t tag = e->tag;
    remove_entry(e);
    if (death_hook) death_hook(o, tag);
}
