/*
 * repl.h — the public API of the nnscope language: an interpreter that runs
 * source text (a file, a -c string or one interactive cell) with a tree-walking
 * evaluator, and the Python-style traceback of its last uncaught exception.
 * Not here: the line loop and the terminal (main.c), the bindings (bind_*.c).
 */
#ifndef REPL_H
#define REPL_H

#include <stddef.h>

#include "ast.h"

typedef struct repl_interp repl_interp;

/* A new interpreter with an empty __main__ namespace and the built-ins, or NULL
   with MemoryError. Output (print) goes to stdout until repl_set_writer. */
repl_interp *repl_interp_new(void);
/* Frees the interpreter and everything it owns (NULL is fine). */
void repl_interp_free(repl_interp *in);

/* Where print() writes: write(ud, bytes, n). NULL restores stdout. */
typedef void (*repl_write_fn)(void *ud, const char *s, size_t n);
void repl_set_writer(repl_interp *in, repl_write_fn write, void *ud);

/* Parses and runs source (borrowed) in __main__. filename (borrowed) names it
   in tracebacks. In REPL_PARSE_SINGLE mode a last expression statement's value
   (not None) is stored as a new reference in *result_out (when result_out is
   not NULL; else NULL). Returns 0, or -1 when an exception was not caught (or
   the parse failed): the current error holds its kind and message (languages
   exceptions without a core kind carry NN_ERR_RUNTIME) and repl_traceback
   gives its text. A parse returning REPL_PARSE_INCOMPLETE returns -2. */
int repl_exec(repl_interp *in, const char *source, const char *filename, repl_parse_mode mode,
              nn_object **result_out);

/* The traceback text of the last uncaught exception (CPython 3.11 format
   without carets, ending in "ValueError: message" without a newline) as a new
   nn_malloc'd string, or NULL when there was none. */
char *repl_traceback(repl_interp *in);
/* The last uncaught exception's class name ("ValueError"), borrowed; NULL if none. */
const char *repl_exception_name(repl_interp *in);

#endif
