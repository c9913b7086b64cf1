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
/* Runs the functions atexit.register registered (last first), if the atexit
   module was imported: as the script ends or the notebook quits (stdlib.c). */
void repl_run_atexit(repl_interp *in);
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

/* The names of __main__ (the front end's In, Out, _ and magics use these).
   repl_get_global returns a borrowed value or NULL (no error) when unbound;
   repl_set_global borrows value (retains it): 0, or -1 with MemoryError;
   repl_del_global returns 1 when removed, 0 when the name was unbound. */
nn_object *repl_get_global(repl_interp *in, const char *name);
/* os.path.abspath(path): a new nn_malloc'd string, or NULL with the error (mod_os.c). */
char *repl_os_abspath(const char *path);
/* sys.exc_info(): (type, value, traceback) of the exception an except block is
   handling, or (None, None, None); a new reference (exc_chain.c). */
nn_object *repl_exc_info(void);
int repl_set_global(repl_interp *in, const char *name, nn_object *value);
/* Whether PYTHONUNBUFFERED asks for python -u's unbuffered streams, as CPython reads it (bind_sys.c). */
bool repl_python_unbuffered(void);
/* Binds name among the built-ins, seen from every module (breakpoint). */
int repl_set_builtin(repl_interp *in, const char *name, nn_object *value);
int repl_del_global(repl_interp *in, const char *name);
/* The global names in the order they were first bound: a new nn_malloc'd
   array of *n borrowed strings (valid until the next change of the globals),
   NULL with *n == 0 when there are none, or NULL with MemoryError. */
const char **repl_global_names(repl_interp *in, size_t *n);

/* repr(obj) and str(obj) as the language computes them (a class's __repr__ /
   __str__ runs in in): a new nn_malloc'd string, or NULL with the error set
   and repl_traceback giving its text, as after a failed repl_exec. */
char *repl_repr(repl_interp *in, nn_object *obj);
char *repl_str(repl_interp *in, nn_object *obj);
/* Python's type(obj).__name__: "int", "Tensor", "Linear", a class's name. Borrowed. */
const char *repl_value_type_name(const nn_object *obj);
/* Writes text where print() writes in the interpreter running now (its
   writer, else stdout); for built-ins that print (plot, summary, help). */
void repl_interp_write(const char *s, size_t n);

/* dir(obj) (borrowed) as the language computes it: a new sorted list of str,
   or NULL with the error set. obj NULL lists every name in scope at the prompt
   (__main__'s and the built-ins'), for completion. */
nn_object *repl_dir(repl_interp *in, nn_object *obj);

/* When a script ends: runs the threads it left (the hook threading registers
   with _green.at_exit, mod_green.c), as CPython's threading._shutdown. */
void repl_green_at_exit(void);

/* The traceback text of the last uncaught exception (CPython 3.11 format
   without carets, ending in "ValueError: message" without a newline) as a new
   nn_malloc'd string, or NULL when there was none. */
char *repl_traceback(repl_interp *in);
/* The last uncaught exception's class name ("ValueError"), borrowed; NULL if none. */
const char *repl_exception_name(repl_interp *in);
/* True when the last uncaught exception was SystemExit (sys.exit(code)): *status
   is the exit status python gives (code None: 0, an int: itself, else 1), and
   *show_message tells whether python prints the code's str to stderr (the
   current error's message: neither None nor an int). */
bool repl_system_exit(repl_interp *in, int *status, bool *show_message);

/* What help(obj) prints for obj (borrowed): pydoc's text ("Help on built-in
   function randn in module torch:\n\nrandn(*size, ...) -> Tensor\n    Returns
   ...\n\n") as a new nn_malloc'd string, or NULL with the error set. The
   notebook's `obj?` shows the same text. */
char *repl_help_text(repl_interp *in, nn_object *obj);
/* The docstring of obj (borrowed) without its signature line and common
   indentation, as inspect.getdoc: a def's or a class's __doc__ (a class
   deriving from a native one without its own: the native's), a built-in's
   documented text, an instance's class's. A new nn_malloc'd string, or NULL
   (no error) when there is none. */
char *repl_docstring(repl_interp *in, nn_object *obj);
/* The signature line of callable (borrowed) without its return annotation:
   "randn(*size, *, generator=None, dtype=None, requires_grad=False)" for a
   built-in (from its docstring's first line), "f(a, b=2, *args, c, **kw)" for a
   def (from its parameters), the constructor's for a class ("Linear(in_features,
   out_features, bias=True, device=None, dtype=None)"). A new nn_malloc'd
   string, or NULL without an error when unknown (MemoryError sets the error). */
char *repl_signature(repl_interp *in, nn_object *callable);

#endif
