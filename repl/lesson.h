/*
 * lesson.h — the guided mode (lesson.c): a lesson of tutorials/ played cell by
 * cell. `nnscope --lesson NAME` and `%lesson NAME` in the notebook show each
 * cell's code at the next prompt (Enter runs it, edited or not; a line emptied
 * first is the learner's own cell and the lesson's comes back after it);
 * without a terminal `nnscope --lesson NAME` runs every cell in turn as cells
 * of one session (magics included) and stops at the first that raises.
 * `%lesson` lists the lessons. Cells are the blocks between `# %%` lines, or
 * the script's top-level statements (each with the comments just above it).
 * Not here: the prompt and readline (interactive.c), running cells (app.c).
 */
#ifndef REPL_LESSON_H
#define REPL_LESSON_H

#include <stdbool.h>
#include <stdint.h>

#include "app.h"

/* The directory of the lessons: $NNSCOPE_TUTORIALS, else the source tree's
   tutorials/ the program was built from. Borrowed. */
const char *repl_lesson_dir(void);

/* Starts the lesson NAME (a number, "activations", "02_activations", or a
   path to a .py file) at cell `first` (1-based) in the notebook, replacing one
   that was running. 0, or -1 with the error set (NN_ERR_VALUE: a UsageError
   naming the lessons; SyntaxError for a script that does not parse). */
int repl_lesson_start(repl_app *app, const char *name, int64_t first);

/* The notebook calls it before each new cell's prompt: prints the lesson's
   greeting (once) and the next cell's header, and puts the cell's code in
   app->pending_input unless something (%load) is already there. Returns true
   when it did. */
bool repl_lesson_before_prompt(repl_app *app);

/* The notebook calls it after each cell ran: `was_shown` says whether the cell
   was the one the lesson showed (edited or not). Such a cell that ran moves the
   lesson on (the end of the lesson is announced); one that raised is shown again. */
void repl_lesson_after_cell(repl_app *app, bool was_shown, bool failed);

/* Runs every cell of the lesson NAME as cells of the app (no terminal),
   stopping at the first that raises. Returns the process exit status (0; 1 when
   a cell raised; 2 when there is no such lesson, with a message on stderr). */
int repl_lesson_play(repl_app *app, const char *name);

/* Ends the running lesson (repl_app_free calls it). */
void repl_lesson_free(repl_app *app);

#endif
