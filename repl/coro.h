/*
 * coro.h — stackful coroutines (coro.c) under the language's generators: a body
 * that runs on its own stack, suspended and resumed by switching stacks.
 */
#ifndef REPL_CORO_H
#define REPL_CORO_H

#include "nn.h"

typedef struct coro coro;

/* A coroutine that will run entry(arg) on a stack of its own when first resumed;
   entry must never return (it suspends for the last time instead). NULL with
   MemoryError. */
coro *repl_coro_new(void (*entry)(void *), void *arg);
/* From outside: runs c until it suspends. */
void repl_coro_resume(coro *c);
/* From inside c: back to whoever resumed it. */
void repl_coro_suspend(coro *c);
/* Frees a coroutine that is not running (its stack is dropped as it is). */
void repl_coro_free(coro *c);

#endif
