/*
 * mod_weakref.c — the module _weakref under weakref (repl/lib/weakref.py): a
 * weak reference is a key into a table of slots that hold the object without
 * owning it. When the object is freed its slot empties and the hook that
 * weakref registered runs with the key, so that callbacks, finalizers and the
 * weak dictionaries see the death as CPython's do. An instance of a class tells
 * its death itself (its dealloc, objects.c, calls repl_weakref_dying); other
 * objects (functions, classes, tensors, nn modules, ...) through core's death
 * notices (core/death_watch.c), which know nothing of weak references.
 *
 *   watch(obj) -> key   a key for obj (the same while it lives), -1 for a built-in
 *                       function (weakref keeps those alive)
 *   get(key)            the object, or None once it has died
 *   set_hook(fn)        fn(key) runs when an object with a key dies
 */
#include "death_watch.h"
#include "stdlib_int.h"

typedef struct weak_slot {
    nn_object *obj; /* borrowed; NULL when free */
    uint32_t gen;   /* bumped each time the slot is taken: a key names one life */
} weak_slot;

static weak_slot *slots;
static uint32_t n_slots, cap_slots;
static uint32_t *free_slots;
static uint32_t n_free, cap_free;
static nn_object *hook;

static int64_t key_of(uint32_t slot)
{
    return (int64_t)slots[slot].gen << 32 | slot;
}

/* Objects that keep their slot elsewhere than an instance's weak field: core's death
   notices (functions, classes, modules, tensors, nn modules, sets, generators). The
   built-in functions are held strongly (-1). */
static bool noticed_type(const nn_object *o)
{
    return o->type != &repl_instance_type && o->type != &nn_cfunction_type;
}

static nn_object *wr_watch(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("watch", args, kwargs, 1, 1) < 0) return NULL;
    nn_object *o = nn_tuple_get(args, 0);
    intptr_t tag;
    if (noticed_type(o) && nn_death_watched(o, &tag)) return nn_int_new(key_of((uint32_t)tag));
    if (o->type != &repl_instance_type && !noticed_type(o)) return nn_int_new(-1);
    instance_obj *inst = o->type == &repl_instance_type ? (instance_obj *)o : NULL;
    if (inst && inst->weak) return nn_int_new(key_of((uint32_t)(inst->weak - 1)));
    uint32_t slot;
    if (n_free) {
        slot = free_slots[--n_free];
    } else {
        if (n_slots == cap_slots) {
            uint32_t cap = cap_slots ? cap_slots * 2 : 64;
            weak_slot *s = nn_realloc(slots, cap * sizeof *s);
            if (!s) return NULL;
            slots = s;
            cap_slots = cap;
        }
        slot = n_slots++;
        slots[slot].gen = 0;
    }
    if (!inst && nn_death_watch(o, (intptr_t)slot) < 0) {
        if (n_free < cap_free) free_slots[n_free++] = slot;
        return NULL;
    }
    slots[slot].obj = o;
    slots[slot].gen++;
    if (inst) inst->weak = (long)slot + 1;
    return nn_int_new(key_of(slot));
}

static nn_object *wr_get(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("get", args, kwargs, 1, 1) < 0) return NULL;
    int64_t key;
    if (repl_mod_int(nn_tuple_get(args, 0), &key) < 0) return NULL;
    uint32_t slot = (uint32_t)(key & 0xffffffff), gen = (uint32_t)(key >> 32);
    if (key >= 0 && slot < n_slots && slots[slot].gen == gen && slots[slot].obj) return nn_retain(slots[slot].obj);
    return nn_retain(nn_none());
}

static nn_object *wr_set_hook(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("set_hook", args, kwargs, 1, 1) < 0) return NULL;
    NN_SET(hook, nn_retain(nn_tuple_get(args, 0)));
    return nn_retain(nn_none());
}

/* The object of slot dies: its references go dead, then the hook runs. */
static void slot_dies(uint32_t slot)
{
    int64_t key = key_of(slot);
    slots[slot].obj = NULL;
    if (n_free == cap_free) {
        uint32_t cap = cap_free ? cap_free * 2 : 64;
        uint32_t *f = nn_realloc(free_slots, cap * sizeof *f);
        if (f) {
            free_slots = f;
            cap_free = cap;
        }
    }
    if (n_free < cap_free) free_slots[n_free++] = slot; /* else the slot is never reused */
    if (!hook) return;
    /* the callbacks run while o is freed, perhaps while an exception propagates:
       that exception is set aside and comes back after them */
    repl_saved_error saved;
    repl_error_save(&saved);
    nn_object *k = nn_int_new(key);
    nn_object *r = k ? repl_call_object(hook, &k, 1, NULL) : NULL;
    if (!r) { /* the hook reports the callbacks' errors itself */
        NN_RELEASE(repl_take_exception());
        nn_error_clear();
    }
    NN_RELEASE(r);
    NN_RELEASE(k);
    repl_error_restore(&saved);
}

void repl_weakref_dying(nn_object *o)
{
    instance_obj *inst = (instance_obj *)o;
    uint32_t slot = (uint32_t)(inst->weak - 1);
    inst->weak = 0;
    slot_dies(slot);
}

static void noticed_dies(nn_object *o, intptr_t tag) { slot_dies((uint32_t)tag); }

static const repl_mod_fn weakref_functions[] = {
    {"watch", wr_watch, "watch(obj)\nA key for obj's weak references; -1 for a built-in function (held strongly)."},
    {"get", wr_get, "get(key)\nThe object of the key, or None once it has died."},
    {"set_hook", wr_set_hook, "set_hook(fn)\nfn(key) runs when an object with a key dies."},
};

nn_object *repl_mod_weakref(void)
{
    nn_set_death_hook(noticed_dies);
    nn_object *m = repl_module_new("_weakref");
    if (m && repl_mod_add_fns(m, weakref_functions, sizeof weakref_functions / sizeof *weakref_functions) < 0)
        NN_SET(m, NULL);
    return m;
}
