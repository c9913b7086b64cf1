/*
 * set_order.c — the order in which CPython 3.11 iterates a set, and CPython's
 * hash of numbers and tuples.
 *
 * A set is a dict of its elements underneath (insertion order). CPython keeps
 * a set in an open-addressing table and iterates it slot by slot, so
 * print({3, 1, 2}) shows {1, 2, 3} and set([10, 3, 17, 1]) shows
 * {17, 10, 3, 1}. That order is deterministic only when every element's hash
 * is: numbers, bools and tuples of them (a str hash is salted per process, an
 * object's hash is its address). For such sets a copy of CPython's table
 * (Objects/setobject.c: the first probe at hash & mask, up to 9 linear
 * probes, then the perturbed jumps; a removed element leaves a dummy that a
 * later add may take; the table grows 4x when 3/5 full) is made the first
 * time the set is iterated, by replaying the adds of its elements in
 * insertion order, and then kept up to date by add, remove, discard and pop.
 * Other sets keep insertion order.
 *
 * Exact for sets built by adding (set(list), comprehensions, add() loops),
 * for displays of constants (CPython merges a frozenset constant: replayed as
 * such), for sets changed one element at a time once iterated, and for the
 * bulk operations, whose tables are made from their operands' as CPython's
 * set_merge, set_intersection, set_difference and set_symmetric_difference_update
 * make them (repl_set_op_table); removals before the first iteration, and
 * merging a dict, get the replay of the surviving elements, which differs
 * from CPython's table only where elements collided.
 */
#include <math.h>
#include <string.h>

#include "bigint.h"
#include "eval_int.h"

#define HASH_MODULUS (((uint64_t)1 << 61) - 1) /* CPython's _PyHASH_MODULUS */
#define LINEAR_PROBES 9
#define PERTURB_SHIFT 5
#define SET_MINSIZE 8

/* Objects/tupleobject.c's tuplehash: xxHash's round per item. Nested tuples are
   walked with a stack of their own, not the C stack, so a tuple nested 100000 deep
   hashes to CPython's value. False (no error set) where an item has no CPython
   hash here (a str: randomized by CPython) or the stack cannot grow. */
typedef struct tuple_frame {
    nn_object *t; /* borrowed: held by its parent */
    size_t i;
    uint64_t acc;
} tuple_frame;

static const uint64_t XXPRIME_1 = 11400714785074694791ULL, XXPRIME_2 = 14029467366897019727ULL,
                      XXPRIME_5 = 2870177450012600261ULL;

static uint64_t xx_round(uint64_t acc, uint64_t lane)
{
    acc += lane * XXPRIME_2;
    acc = acc << 31 | acc >> 33;
    return acc * XXPRIME_1;
}

static bool tuple_hash(nn_object *o, uint64_t *h)
{
    tuple_frame small[64], *stack = small;
    size_t depth = 0, cap = 64;
    stack[depth++] = (tuple_frame){o, 0, XXPRIME_5};
    bool ok = true;
    while (ok) {
        tuple_frame *f = &stack[depth - 1];
        size_t n = nn_tuple_len(f->t);
        if (f->i < n) {
            nn_object *item = nn_tuple_get(f->t, f->i);
            if (item->type == &nn_tuple_type) {
                if (depth == cap) {
                    tuple_frame *grown = nn_malloc(2 * cap * sizeof *grown);
                    if (!grown) {
                        nn_error_clear();
                        ok = false;
                        break;
                    }
                    memcpy(grown, stack, depth * sizeof *stack);
                    if (stack != small) nn_free(stack);
                    stack = grown, cap *= 2;
                }
                stack[depth++] = (tuple_frame){item, 0, XXPRIME_5};
                continue;
            }
            uint64_t lane;
            if (!(ok = repl_cpython_hash(item, &lane))) break;
            f->acc = xx_round(f->acc, lane);
            f->i++;
            continue;
        }
        uint64_t acc = f->acc + (n ^ (XXPRIME_5 ^ 3527539UL));
        acc = acc == (uint64_t)-1 ? 1546275796 : acc;
        if (--depth == 0) {
            *h = acc;
            break;
        }
        stack[depth - 1].acc = xx_round(stack[depth - 1].acc, acc);
        stack[depth - 1].i++;
    }
    if (stack != small) nn_free(stack);
    return ok;
}

bool repl_cpython_hash(nn_object *o, uint64_t *h)
{
    const nn_type *t = o->type;
    if (t == &nn_bool_type || t == &nn_int_type) {
        *h = nn_number_hash_int(nn_int_value(o));
        return true;
    }
    if (t == &repl_bigint_type) {
        mpz_srcptr z = repl_bigint_mpz(o);
        mpz_t magnitude;
        mpz_init(magnitude);
        mpz_abs(magnitude, z);
        *h = nn_number_hash_residue(mpz_sgn(z) < 0, mpz_fdiv_ui(magnitude, HASH_MODULUS));
        mpz_clear(magnitude);
        return true;
    }
    if (t == &nn_float_type) {
        double v = nn_float_value(o);
        if (isnan(v)) return false; /* 3.10+: the object's address */
        *h = nn_number_hash_double(v);
        return true;
    }
    if (t == &nn_tuple_type) return tuple_hash(o, h);
    return false;
}


enum { SLOT_UNUSED, SLOT_ACTIVE, SLOT_DUMMY };

typedef struct table_slot {
    nn_object *key; /* borrowed from the set's dict */
    uint64_t hash;
    int state;
} table_slot;

struct repl_set_table {
    table_slot *slots;
    size_t mask, fill, used;
    size_t finger;     /* where pop() looks first */
    nn_object **order; /* the active keys in slot order */
    bool order_stale;
    const nn_object *dict; /* the dict this table mirrors, at this version */
    uint64_t version;
};

/* set_insert_clean: key is known absent and the table has no dummies. */
static void insert_clean(table_slot *slots, size_t mask, nn_object *key, uint64_t hash)
{
    size_t perturb = hash, i = hash & mask;
    for (;;) {
        table_slot *s = &slots[i];
        for (int probes = i + LINEAR_PROBES <= mask ? LINEAR_PROBES : 0;; s++, probes--) {
            if (s->state == SLOT_UNUSED) {
                *s = (table_slot){key, hash, SLOT_ACTIVE};
                return;
            }
            if (!probes) break;
        }
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & mask;
    }
}

/* set_table_resize: the active entries move, in slot order, to a table of
   the smallest power of two above minused. 0 or -1. */
static int table_resize(repl_set_table *t, size_t minused)
{
    size_t size = SET_MINSIZE;
    while (size <= minused) size <<= 1;
    table_slot *grown = nn_calloc(size, sizeof *grown);
    nn_object **order = nn_realloc(t->order, size * sizeof *order);
    if (!grown || !order) {
        nn_free(grown);
        if (order) t->order = order;
        return -1;
    }
    t->order = order;
    for (size_t i = 0; i <= t->mask; i++)
        if (t->slots[i].state == SLOT_ACTIVE) insert_clean(grown, size - 1, t->slots[i].key, t->slots[i].hash);
    nn_free(t->slots);
    t->slots = grown;
    t->mask = size - 1;
    t->fill = t->used;
    return 0;
}

/* set_add_entry for a key known absent: the last dummy on its probe path,
   else the first unused slot; grows the table when 3/5 full. 0 or -1. */
static int table_add(repl_set_table *t, nn_object *key, uint64_t hash)
{
    size_t mask = t->mask, perturb = hash, i = hash & mask;
    table_slot *freeslot = NULL, *s;
    for (;;) {
        s = &t->slots[i];
        int probes = i + LINEAR_PROBES <= mask ? LINEAR_PROBES : 0;
        for (;; s++, probes--) {
            if (s->state == SLOT_UNUSED) goto found;
            if (s->state == SLOT_DUMMY) freeslot = s;
            if (!probes) break;
        }
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & mask;
    }
found:
    t->order_stale = true;
    t->used++;
    if (freeslot) {
        *freeslot = (table_slot){key, hash, SLOT_ACTIVE};
        return 0;
    }
    *s = (table_slot){key, hash, SLOT_ACTIVE};
    if (++t->fill * 5 < mask * 3) return 0;
    return table_resize(t, t->used > 50000 ? t->used * 2 : t->used * 4);
}

/* The active slot holding key (the dict's own object), or NULL. */
static table_slot *table_find(repl_set_table *t, nn_object *key, uint64_t hash)
{
    size_t mask = t->mask, perturb = hash, i = hash & mask;
    for (;;) {
        table_slot *s = &t->slots[i];
        for (int probes = i + LINEAR_PROBES <= mask ? LINEAR_PROBES : 0;; s++, probes--) {
            if (s->state == SLOT_UNUSED) return NULL;
            if (s->state == SLOT_ACTIVE && s->key == key) return s;
            if (!probes) break;
        }
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & mask;
    }
}

static void table_free(repl_set_table *t)
{
    if (!t) return;
    nn_free(t->slots);
    nn_free(t->order);
    nn_free(t);
}
#define DROP_TABLE(t) (table_free(t), (t) = NULL)

void repl_set_table_free(set_obj *s)
{
    table_free(s->table);
    s->table = NULL;
}

static repl_set_table *table_new(void)
{
    repl_set_table *t = nn_calloc(1, sizeof *t);
    if (t) {
        t->mask = SET_MINSIZE - 1;
        t->slots = nn_calloc(SET_MINSIZE, sizeof *t->slots);
        t->order = nn_malloc(SET_MINSIZE * sizeof *t->order);
    }
    if (t && t->slots && t->order) return t;
    table_free(t);
    return NULL;
}

/* A table made by adding the slots' active keys of src in slot order (or
   s's elements in insertion order when src is NULL); NULL (no error) when a
   hash is not deterministic, or with MemoryError. */
static repl_set_table *table_build(set_obj *s, const repl_set_table *src)
{
    repl_set_table *t = table_new();
    if (!t) goto fail;
    size_t pos = 0, slot = 0;
    nn_object *k, *v;
    for (;;) {
        uint64_t h;
        if (src) {
            while (slot <= src->mask && src->slots[slot].state != SLOT_ACTIVE) slot++;
            if (slot > src->mask) break;
            k = src->slots[slot].key;
            h = src->slots[slot++].hash;
        } else {
            if (!nn_dict_next(s->d, &pos, &k, &v)) break;
            if (!repl_cpython_hash(k, &h)) {
                table_free(t);
                return NULL;
            }
        }
        if (table_add(t, k, h) < 0) goto fail;
    }
    return t;
fail:
    table_free(t);
    repl_raise_exc(EXC_MemoryError, "%s", "");
    return NULL;
}

/* A new table replaying how CPython made s: NULL as table_build. */
static repl_set_table *table_replay(set_obj *s)
{
    repl_set_table *t = table_build(s, NULL);
    if (t && s->merged_display) {
        /* the compiler's frozenset is rebuilt from the first one's order when
           its constants are merged, then SET_UPDATE merges it into an empty
           set: one resize to twice the count when 8 slots would be 3/5 full,
           then the entries in the source's slot order (else a plain copy) */
        repl_set_table *rebuilt = table_build(s, t);
        table_free(t);
        t = rebuilt;
        if (t && t->used * 5 >= (SET_MINSIZE - 1) * 3 && table_resize(t, t->used * 2) < 0) {
            table_free(t);
            repl_raise_exc(EXC_MemoryError, "%s", "");
            return NULL;
        }
    }
    if (t) {
        t->dict = s->d;
        t->version = nn_dict_version(s->d);
    }
    return t;
}

/* s's table when it mirrors the dict as it is now, else NULL. */
static repl_set_table *current_table(set_obj *s)
{
    repl_set_table *t = s->table;
    return t && t->dict == s->d && t->version == nn_dict_version(s->d) ? t : NULL;
}

/* The elements in CPython's order: borrowed, valid until the set changes. NULL
   with MemoryError. */
static nn_object *const *set_order(nn_object *set, size_t *n)
{
    set_obj *s = (set_obj *)set;
    repl_set_table *t = current_table(s);
    if (!t) {
        repl_set_table_free(s);
        t = s->table = table_replay(s);
        if (!t && nn_error_current()) return NULL;
    }
    if (!t) { /* insertion order: the dict's own */
        size_t len = nn_dict_len(s->d), pos = 0, i = 0;
        nn_object **keys = nn_realloc(s->insertion_order, (len ? len : 1) * sizeof *keys);
        if (!keys) {
            repl_raise_exc(EXC_MemoryError, "%s", "");
            return NULL;
        }
        s->insertion_order = keys;
        nn_object *k, *v;
        while (nn_dict_next(s->d, &pos, &k, &v)) keys[i++] = k;
        *n = len;
        return keys;
    }
    if (t->order_stale) {
        size_t i = 0;
        for (size_t slot = 0; slot <= t->mask; slot++)
            if (t->slots[slot].state == SLOT_ACTIVE) t->order[i++] = t->slots[slot].key;
        t->order_stale = false;
    }
    *n = t->used;
    return t->order;
}

nn_object *repl_set_elements(nn_object *set)
{
    size_t n;
    nn_object *const *order = set_order(set, &n);
    nn_object *list = order ? nn_list_new(n) : NULL;
    for (size_t i = 0; list && i < n; i++)
        if (nn_list_append(list, order[i]) < 0) NN_SET(list, NULL);
    return list;
}

int repl_set_add(nn_object *set, nn_object *item)
{
    if (repl_obj_hash(item) == -1 && nn_error_current()) return -1;
    set_obj *s = (set_obj *)set;
    repl_set_table *t = current_table(s);
    size_t before = nn_dict_len(s->d);
    if (nn_dict_set(s->d, item, nn_none()) < 0) return -1;
    if (!t || nn_dict_len(s->d) == before) {
        if (t) t->version = nn_dict_version(s->d);
        return 0;
    }
    uint64_t h;
    if (!repl_cpython_hash(item, &h) || table_add(t, nn_dict_stored_key(s->d, item), h) < 0) {
        nn_error_clear(); /* the table is a cache: the next iteration replays */
        repl_set_table_free(s);
        return 0;
    }
    t->version = nn_dict_version(s->d);
    return 0;
}

static void table_remove(repl_set_table *t, table_slot *slot)
{
    *slot = (table_slot){NULL, (uint64_t)-1, SLOT_DUMMY};
    t->used--;
    t->order_stale = true;
}

int repl_set_discard(nn_object *set, nn_object *key)
{
    set_obj *s = (set_obj *)set;
    repl_set_table *t = current_table(s);
    nn_object *stored = t ? nn_dict_stored_key(s->d, key) : NULL;
    uint64_t h;
    table_slot *slot = stored && repl_cpython_hash(stored, &h) ? table_find(t, stored, h) : NULL;
    if (nn_dict_del(s->d, key) < 0) return -1;
    if (!slot) {
        repl_set_table_free(s);
        return 0;
    }
    table_remove(t, slot); /* the others stay where they are */
    t->version = nn_dict_version(s->d);
    return 0;
}

/* ------------------------------------------------------------------ bulk operations */

/* set_lookkey across sets: the active slot whose key is key or equal to it. */
static table_slot *table_lookup(const repl_set_table *t, nn_object *key, uint64_t hash)
{
    size_t mask = t->mask, perturb = hash, i = hash & mask;
    for (;;) {
        table_slot *s = &t->slots[i];
        for (int probes = i + LINEAR_PROBES <= mask ? LINEAR_PROBES : 0;; s++, probes--) {
            if (s->state == SLOT_UNUSED) return NULL;
            if (s->state == SLOT_ACTIVE && (s->key == key || (s->hash == hash && repl_equal(s->key, key) == 1)))
                return s;
            if (!probes) break;
        }
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & mask;
    }
}

/* the table of set, made now if need be; NULL when it has none (a hash that is not deterministic) */
static repl_set_table *table_of(nn_object *set)
{
    size_t n;
    if (!current_table((set_obj *)set) && !set_order(set, &n)) nn_error_clear();
    return current_table((set_obj *)set);
}

/* a copy of src as it is, dummies included (the set an in-place operation changes) */
static repl_set_table *table_clone(const repl_set_table *src)
{
    repl_set_table *t = nn_calloc(1, sizeof *t);
    size_t size = src->mask + 1;
    if (t) {
        *t = (repl_set_table){.mask = src->mask, .fill = src->fill, .used = src->used, .finger = src->finger,
                              .order_stale = true};
        t->slots = nn_malloc(size * sizeof *t->slots);
        t->order = nn_malloc(size * sizeof *t->order);
    }
    if (t && t->slots && t->order) {
        memcpy(t->slots, src->slots, size * sizeof *t->slots);
        return t;
    }
    table_free(t);
    return NULL;
}

/* set_merge: other's active keys into t (one resize first when they would fill it;
   into an empty table of other's size without dummies, a slot for slot copy) */
static int table_merge(repl_set_table *t, const repl_set_table *o)
{
    if (t == o || o->used == 0) return 0;
    if ((t->fill + o->used) * 5 >= t->mask * 3 && table_resize(t, (t->used + o->used) * 2) < 0) return -1;
    t->order_stale = true;
    if (t->fill == 0 && t->mask == o->mask && o->fill == o->used) {
        memcpy(t->slots, o->slots, (o->mask + 1) * sizeof *t->slots);
        t->fill = t->used = o->used;
        return 0;
    }
    bool clean = t->fill == 0;
    for (size_t i = 0; i <= o->mask; i++) {
        const table_slot *s = &o->slots[i];
        if (s->state != SLOT_ACTIVE) continue;
        if (clean) insert_clean(t->slots, t->mask, s->key, s->hash);
        else if (!table_lookup(t, s->key, s->hash) && table_add(t, s->key, s->hash) < 0) return -1;
    }
    if (clean) t->fill = t->used = o->used;
    return 0;
}

/* make_new_set from a set: its keys merged into an empty table */
static repl_set_table *table_copy(const repl_set_table *src)
{
    repl_set_table *t = table_new();
    if (t && table_merge(t, src) < 0) DROP_TABLE(t);
    return t;
}

/* set_symmetric_difference_update: each of o's keys removed from t, or added when absent */
static int table_xor(repl_set_table *t, const repl_set_table *o)
{
    for (size_t i = 0; i <= o->mask; i++) {
        const table_slot *s = &o->slots[i];
        if (s->state != SLOT_ACTIVE) continue;
        table_slot *found = table_lookup(t, s->key, s->hash);
        if (found) table_remove(t, found);
        else if (table_add(t, s->key, s->hash) < 0) return -1;
    }
    return 0;
}

/* set_difference_update_internal: o's keys removed from t, then the dummies
   resized away when more than a quarter of the table */
static int table_sub(repl_set_table *t, const repl_set_table *o)
{
    for (size_t i = 0; i <= o->mask; i++) {
        table_slot *found = o->slots[i].state == SLOT_ACTIVE ? table_lookup(t, o->slots[i].key, o->slots[i].hash) : NULL;
        if (found) table_remove(t, found);
    }
    if (t->fill - t->used <= t->mask / 4) return 0;
    return table_resize(t, t->used > 50000 ? t->used * 2 : t->used * 4);
}

/* A new table of the keys of walk that are (keep true) or are not in other, added in walk's slot order */
static repl_set_table *table_filter(const repl_set_table *walk, const repl_set_table *other, bool keep)
{
    repl_set_table *t = table_new();
    for (size_t i = 0; t && i <= walk->mask; i++) {
        const table_slot *s = &walk->slots[i];
        if (s->state == SLOT_ACTIVE && (table_lookup(other, s->key, s->hash) != NULL) == keep &&
            table_add(t, s->key, s->hash) < 0)
            DROP_TABLE(t);
    }
    return t;
}

/* the table of a op b as CPython's set_or, set_and, set_sub, set_xor (inplace: a's own,
   as |=, &=, -=, ^= change it) */
static repl_set_table *op_table(repl_binop op, repl_set_table *ta, repl_set_table *tb, bool same, bool inplace)
{
    repl_set_table *t = NULL;
    switch (op) {
    case REPL_OR_BITS: /* a copied, b merged; |= merges into a */
        t = inplace ? table_clone(ta) : table_copy(ta);
        if (t && table_merge(t, tb) < 0) DROP_TABLE(t);
        return t;
    case REPL_AND_BITS: /* the smaller walked (b on a tie), its keys in the other kept */
        if (same) return table_copy(ta);
        return tb->used > ta->used ? table_filter(ta, tb, true) : table_filter(tb, ta, true);
    case REPL_SUB: /* a copy less b's keys when a is over four times larger (and -=), else a's keys not in b */
        if (same) return table_new();
        if (!inplace && (ta->used >> 2) <= tb->used) return table_filter(ta, tb, false);
        t = inplace ? table_clone(ta) : table_copy(ta);
        if (t && table_sub(t, tb) < 0) DROP_TABLE(t);
        return t;
    case REPL_XOR_BITS: /* b copied, then a's keys removed or added; ^= works on a */
        if (inplace && same) return table_new();
        t = inplace ? table_clone(ta) : table_copy(tb);
        if (t && table_xor(t, inplace ? tb : ta) < 0) DROP_TABLE(t);
        return t;
    default: return NULL;
    }
}

repl_set_table *repl_set_op_table(repl_binop op, nn_object *a, nn_object *b, bool inplace)
{
    repl_set_table *ta = table_of(a), *tb = b ? table_of(b) : NULL;
    if (!ta || (b && !tb)) return NULL;
    repl_set_table *t = b ? op_table(op, ta, tb, a == b, inplace) : table_copy(ta);
    if (t && inplace) t->finger = ta->finger; /* pop's place is the set's, whatever its table */
    return t;
}

void repl_set_compact(nn_object *set)
{
    repl_set_table *t = current_table((set_obj *)set);
    if (t && t->fill - t->used > t->mask / 4 && table_resize(t, t->used > 50000 ? t->used * 2 : t->used * 4) < 0)
        repl_set_table_free((set_obj *)set); /* no room: the next iteration replays */
    nn_error_clear();
}

void repl_set_adopt_table(nn_object *set, repl_set_table *t)
{
    set_obj *s = (set_obj *)set;
    if (!t) { /* none could be made: the next iteration replays */
        nn_error_clear();
        return;
    }
    bool ok = t->used == nn_dict_len(s->d);
    for (size_t i = 0; ok && i <= t->mask; i++) /* the keys the set's dict holds */
        if (t->slots[i].state == SLOT_ACTIVE && !(t->slots[i].key = nn_dict_stored_key(s->d, t->slots[i].key))) ok = false;
    if (!ok) {
        nn_error_clear();
        table_free(t);
        return;
    }
    repl_set_table_free(s);
    t->order_stale = true;
    t->dict = s->d;
    t->version = nn_dict_version(s->d);
    s->table = t;
}

void repl_set_mark_constant_display(nn_object *set) { ((set_obj *)set)->merged_display = true; }

nn_object *repl_set_pop(nn_object *set)
{
    set_obj *s = (set_obj *)set;
    if (!nn_dict_len(s->d)) {
        repl_raise_exc(EXC_KeyError, "pop from an empty set");
        return NULL;
    }
    size_t n;
    if (!current_table(s) && !set_order(set, &n)) return NULL;
    repl_set_table *t = current_table(s);
    nn_object *key;
    if (t) { /* CPython's set_pop: the first active slot from the finger on */
        size_t i = t->finger & t->mask;
        while (t->slots[i].state != SLOT_ACTIVE) i = (i + 1) & t->mask;
        key = t->slots[i].key;
        t->finger = i + 1;
    } else {
        key = s->insertion_order[0];
    }
    nn_retain(key);
    if (repl_set_discard(set, key) < 0) NN_SET(key, NULL);
    return key;
}
