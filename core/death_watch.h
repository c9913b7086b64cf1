/*
 * death_watch.h — death notices (death_watch.c): an object marked with
 * nn_death_watch(o, tag) calls the hook with itself and tag when its
 * deallocation starts (its count is 0 then: the hook may not keep it), once;
 * nn_death_unwatch drops the mark. nn_object_dealloc (guard.c) asks only while
 * some object is marked. The language's weak references to functions, tensors
 * and modules use it; core knows nothing of them.
 */
#ifndef NN_DEATH_WATCH_H
#define NN_DEATH_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nn.h"

typedef void (*nn_death_hook)(nn_object *o, intptr_t tag);
void nn_set_death_hook(nn_death_hook hook);
/* 0, or -1 when out of memory. */
int nn_death_watch(nn_object *o, intptr_t tag);
bool nn_death_watched(const nn_object *o, intptr_t *tag);
void nn_death_unwatch(nn_object *o);
void nn_death_notify(nn_object *o);
extern size_t nn_death_watch_count;

#endif
