/*
 * nn_gc.h — the cycle collector (gc.c), CPython's scheme over core's
 * refcounted objects. A container type gives its descriptor a traverse slot
 * (visit every object it holds a reference to) and a clear slot (drop those
 * references, leaving a valid, empty object); its constructor tracks the new
 * object with nn_gc_track. Untracking is automatic when it is deallocated.
 * Core knows nothing of the language: the language's types (functions,
 * classes, instances, scopes) traverse themselves, and core's containers
 * (tuples, lists, dicts, modules and their hook dicts) visit the language
 * objects they hold as plain objects. Included by nn.h.
 *
 * Collections run only where nn_gc_collect or nn_gc_maybe_collect is called:
 * the evaluator calls the latter between statements (a safe point), never in
 * the middle of a C function that may hold a half-built object.
 */
#ifndef NN_GC_H
#define NN_GC_H

/* Tracks o (a new object whose type has traverse) in the youngest generation.
   0, or -1 with MemoryError (o is then not tracked: the caller fails its
   constructor). Tracking an object twice is a bug. */
int nn_gc_track(nn_object *o);
/* Stops tracking o (no-op when untracked). nn_object_dealloc does it. */
void nn_gc_untrack(nn_object *o);
bool nn_gc_is_tracked(const nn_object *o);

/* Collects generation gen (0..2) and the younger ones: finds the tracked
   objects that only cycles keep alive, clears and frees them. Returns how many
   were unreachable (as CPython's gc.collect), or -1 with MemoryError. A call
   made while a collection runs returns 0. */
long nn_gc_collect(int gen);
/* Collects when the tracked-allocation count passed the threshold and
   collection is enabled (the oldest generation whose count passed its
   threshold, as CPython). For safe points; errors are swallowed. */
void nn_gc_maybe_collect(void);
/* True when nn_gc_maybe_collect would collect (cheap: for the evaluator's
   check between statements). */
extern long nn_gc_young, nn_gc_trigger;
static inline bool nn_gc_due(void) { return nn_gc_young > nn_gc_trigger; }

void nn_gc_enable(bool on);
bool nn_gc_is_enabled(void);
/* The three generations' counts and thresholds, as gc.get_count / get_threshold. */
void nn_gc_get_count(long count[3]);
void nn_gc_get_threshold(long threshold[3]);
/* Thresholds as gc.set_threshold; threshold0 0 disables automatic collection. */
void nn_gc_set_threshold(const long threshold[3]);
/* The tracked objects of generation gen (-1: all), as a new list, or NULL
   with MemoryError. */
nn_object *nn_gc_get_objects(int gen);
/* How many objects are tracked now. */
size_t nn_gc_tracked_count(void);

#endif
