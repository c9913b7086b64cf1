/*
 * complete.h — Tab completion for the notebook, independent of readline so it
 * can be tested: given a line and the cursor, the candidates for the word
 * before the cursor (names in scope, attributes of a name or attribute chain,
 * keyword arguments of the call the cursor is in, magics, file names inside a
 * string literal). interactive.c feeds them to readline.
 */
#ifndef REPL_COMPLETE_H
#define REPL_COMPLETE_H

#include <stddef.h>

#include "repl.h"

/* The candidates for completing line[*word_start..cursor) (line borrowed, cursor
   <= strlen(line)): a new NULL-terminated, sorted array of distinct nn_malloc'd
   strings, each a full replacement for that word ("fc1", "dim=", "data/"), to
   free with repl_complete_free; NULL when there is none. *word_start is set in
   both cases. Attribute completion evaluates the chain left of the dot only
   when it is a plain name or attribute chain (net.fc1.), never a call or a
   subscript; names starting with '_' are offered only when the word starts
   with '_'. Nothing raises: evaluation errors and MemoryError only lose
   candidates, and the current error is left clear. */
char **repl_complete(repl_interp *in, const char *line, size_t cursor, size_t *word_start);
/* Frees a candidate array (NULL is fine). */
void repl_complete_free(char **candidates);

#endif
