/*
 * summary.h — summary(model, input_size): torchinfo's layer table for a module
 * (repl/summary.c). Builds the text only; printing it is the caller's job.
 * The language's summary() built-in calls this; C programs may too.
 */
#ifndef REPL_SUMMARY_H
#define REPL_SUMMARY_H

#include "nn.h"

/* torchinfo.summary(model, input_size=sizes, depth=depth) as torchinfo 1.8.0
   prints it (default columns Output Shape and Param #, col_width 25), without
   the trailing newline. Runs one forward of model (borrowed) on float32 zeros
   shaped [sizes[0], ..., sizes[ndim-1]], in eval mode and without grad, with
   a forward pre-hook and a forward hook on every module; afterwards every
   hook is removed, every module's training flag restored, grad mode restored.
   Returns a new nn_malloc'd string, or NULL with an error: ValueError for
   ndim < 1 or a size < 1 ("Input_data is invalid, or negative size found in
   input_data.") or depth < 0, MemoryError, or whatever the forward raised
   (unchanged; torchinfo wraps it in "Failed to run torchinfo. ..."). */
char *repl_summary(nn_module *model, int ndim, const int64_t *sizes, int depth);

/* The language's built-in summary(model, input_size, depth=3): prints
   repl_summary's table where print() writes, as torchinfo.summary prints it,
   and returns None (new reference); NULL with TypeError for a model that is
   not a module or an input_size that is not a sequence of ints, or
   repl_summary's error. */
nn_object *repl_builtin_summary(void *ud, nn_object *args, nn_object *kwargs);

/* Where summary() prints its table in the notebook (help.c sets it: the pager when
   the text is taller than the terminal); NULL: where print() writes. */
extern void (*repl_summary_pager)(const char *text);

#endif
