/*
 * app.h — the nnscope front end: one interpreter and what the program wraps
 * around it (cell numbers, In/Out history, magics, session recording, the
 * inspector). Script mode and the interactive notebook both run their code
 * as cells through repl_app_run_cell, so recording and magics behave the same
 * in both. This is the one place where the language, sessions and inspector
 * layers meet (see docs/architecture.md).
 *
 * Files:
 *   app.c           cells, Out cache, _ / __ / _n, output capture, magic dispatch
 *   interactive.c   the GNU readline loop, prompts, completion, history, Ctrl-C
 *   magics_core.c   %history %who %whos %time %timeit %reset %run %load %config %help
 *   magics_shell.c  !cmd, x = !cmd, %cd %pwd %env %ls and the aliases
 *   magics_paste.c  %cpaste %autoindent
 *   help.c          obj? / obj?? (IPython's pinfo) and the pager
 *   colors.c        Out[n]: and traceback colours
 *   app_sessions.c  recording into SQLite, the session magics and CLI actions
 *   app_inspect.c   %inspect / inspect(), %break, %hooks
 */
#ifndef REPL_APP_H
#define REPL_APP_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#include "nn.h"
#include "repl.h"

typedef struct repl_app repl_app;
struct repl_app_sessions; /* app_sessions.c's state */
struct repl_app_inspect;  /* app_inspect.c's state */

/* How the program was asked to run (parsed by main.c). */
typedef struct repl_app_options {
    bool interactive; /* the notebook on a terminal (echo Out[n], prompts) */
    bool quiet;       /* -q: no banner */
    bool record;      /* false with --no-record */
    bool headless;    /* replay: %inspect / inspect() attach without a view or tables */
    const char *program; /* the nnscope program %replay runs in a child process (main.c:
                            /proc/self/exe); NULL: %replay runs in a fresh app in this process */
    const char *db_path; /* --db PATH, else $NNSCOPE_DB, else NULL = the default path */
    const char *session_name; /* --name NAME for the recorded session, or NULL */
    const char *script;  /* what a non-interactive run executes as its one cell (FILE.py,
                            "-c", "-"): recorded as the session's script; NULL = "<script>" */
} repl_app_options;

/* What one cell did, as recorded (strings are the app's, valid until the next cell). */
typedef enum repl_cell_status { REPL_CELL_OK, REPL_CELL_ERROR, REPL_CELL_INTERRUPTED } repl_cell_status;
typedef struct repl_cell_result {
    int64_t number;        /* In[number] */
    const char *source;    /* the cell as typed (a magic line included), without trailing newlines as In[n] */
    const char *output;    /* everything the cell wrote to stdout (print, Out[n] echo, magics) */
    const char *error;     /* the traceback text, or NULL */
    repl_cell_status status;
    double started;        /* Unix time */
    double duration;       /* seconds */
    const void *rng_state; /* the generator's state before the cell (nn_generator_state_size bytes) */
    int64_t view;          /* typed in the inspector's view opened by cell `view`; 0 for a notebook cell */
    bool silent;           /* a trailing ';' suppressed the echo (IPython's rule) */
} repl_cell_result;

struct repl_app {
    repl_interp *interp;
    repl_app_options opt;
    int64_t next_cell;           /* the number the next cell gets (starts at 1) */
    nn_object *in_list;          /* In: list of str, In[0] == '' as IPython */
    size_t cache_bytes_cap;      /* Out cache cap (%config cache_mb=N), default 256 MiB */
    struct repl_app_sessions *sessions; /* NULL when not recording */
    struct repl_app_inspect *inspect;   /* NULL until %inspect or %break is used */
    struct repl_lesson *lesson;         /* the lesson being played (lesson.h), or NULL */
    char *cell_output; size_t cell_output_len, cell_output_cap; /* capture of the running cell */
    /* Where cell output and errors go besides the capture: NULL = stdout / stderr
       (tests set them to collect the text). */
    repl_write_fn out_write; void *out_ud;
    repl_write_fn err_write; void *err_ud;
    /* Text for the next prompt to start with (%load sets it in the notebook):
       nn_malloc'd; interactive.c takes it (nn_free, then NULL) or leaves it. */
    char *pending_input;
    bool autoindent_off;         /* %autoindent toggled it: continuation lines start at column 0 */
    bool color;                  /* the notebook colors Out[n]: and tracebacks (interactive.c sets it) */
    bool pdb;                    /* %pdb on: the post-mortem debugger opens after a cell raises (debug.c) */
    /* A value a magic leaves here (new reference) is echoed as Out[n] (%time EXPR). */
    nn_object *magic_result;
    repl_cell_result last;       /* the last finished cell (its strings are the app's) */
    /* A script cell ended in an uncaught SystemExit (sys.exit(code)): no traceback
       (the code's str on stderr when it is neither None nor an int, as python) and
       the status the program exits with. The notebook prints IPython's "An exception
       has occurred, use %tb to see the full traceback." and SystemExit's line instead. */
    bool exit_requested;
    int exit_status;
    /* private to app.c */
    nn_object *out_dict;         /* Out: {n: value}, oldest first */
    nn_object *shown[3];         /* the values of _, __, ___ (NULL: '') */
    nn_object *hidden;           /* {name: value} of __main__ at start (In, Out, inspect):
                                    %who and %reset leave them alone while unchanged */
    nn_object *cell_source;      /* the running cell's text (str), as In keeps it */
    char *last_error; void *rng_state;
    bool code_failed;            /* repl_app_exec failed during the running magic */
    /* A replay's hook: a headless %inspect cell `view` calls it to replay the
       statements typed in its view (app_sessions.c); 0 or -1. */
    int (*view_replay)(repl_app *app, int64_t view, void *ud);
    void *view_replay_ud;
    int64_t view_cells;          /* statements typed in the inspector during the running cell: each took
                                    the number after the last (app_inspect.c), the next cell comes after */
};

/* A new app with a fresh interpreter (bindings installed by the caller), or NULL
   with MemoryError. Opens the session store when opt->record (a store that cannot
   be opened prints a warning and the app runs unrecorded). */
repl_app *repl_app_new(const repl_app_options *opt);
/* Ends the recorded session, detaches the inspector, frees everything. */
void repl_app_free(repl_app *app);

/* Runs one cell: a magic line (%name args, obj?) or source in REPL_PARSE_SINGLE
   mode for interactive cells (echoing Out[n]) and REPL_PARSE_FILE for scripts.
   Prints a traceback to stderr on an uncaught exception. Records the cell when
   recording. Returns 0, -1 (the cell raised) or -2 (incomplete input: nothing
   ran, the caller asks for more lines). A blank cell does nothing and returns 0
   without taking a number. filename NULL names interactive cells
   "<ipython-input-N>" in tracebacks. The echo is IPython's: "Out[n]: 3\n", a
   multi-line repr starting on the line after "Out[n]: ". Like IPython, the
   notebook loop prints an empty line before each In [n]: prompt (the banner's
   included), so cells are separated by one empty line. nn_interrupt_requested
   is cleared before the cell runs; a SIGINT handler that sets it (main.c's)
   makes Ctrl-C raise KeyboardInterrupt in the cell (status interrupted). */
int repl_app_run_cell(repl_app *app, const char *source, const char *filename);

/* True for the names %who does not list: those starting with _ and those
   bound when the app started (In, Out, inspect) while they keep that value. */
bool repl_app_is_hidden(repl_app *app, const char *name);

/* Empties the Out cache: Out, the _n names, and _ __ ___ back to ''. 0 or -1 (MemoryError). */
int repl_app_clear_outputs(repl_app *app);
/* Sets the Out cache's cap (%config cache_mb=N) and drops the oldest entries beyond it. */
void repl_app_set_cache_cap(repl_app *app, size_t bytes);

/* The banner of the notebook (not printed with -q): version and one line of help. */
const char *repl_app_banner(void);

/* Writes text as the running cell's output (stdout + capture); magics print with it. */
void repl_app_write(repl_app *app, const char *s, size_t n);

/* Where a spawned child's output goes, a piece at a time (spawn.c). */
typedef void (*repl_spawn_sink)(void *ud, const char *data, size_t n);
/* Runs path with argv (NULL-terminated, execv) with its stdout and stderr into one
   pipe, each piece handed to sink as it arrives, until the child closes it; the
   child's stdin is /dev/null when null_stdin, and SIGINT is its own (Ctrl-C stops
   it). *status is waitpid's status (127 when path could not run). 0, or -1 with
   RuntimeError "<what>: cannot make a pipe|start a process: ...". */
int repl_spawn_piped(const char *what, const char *path, const char *const *argv, bool null_stdin, repl_spawn_sink sink,
                     void *ud, int *status);
void repl_app_printf(repl_app *app, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* colors.c: writes "Out[n]: " (red when app->color, the escapes not captured);
   prints error text and a newline to f, coloured as IPython's tracebacks when
   app->color and no err_write is set. */
void repl_app_out_prompt(repl_app *app, long long n);
void repl_app_print_error(repl_app *app, FILE *f, const char *text);

/* ---------------------------------------------------------------- magics */

/* A magic: run(app, args) with args the rest of the line (trimmed, never NULL).
   Returns 0, or -1 with the core error set (printed as "UsageError: ..." for
   NN_ERR_VALUE raised by argument parsing, else as a traceback). */
typedef int (*repl_magic_fn)(repl_app *app, const char *args);
typedef struct repl_magic {
    const char *name;    /* without % */
    const char *usage;   /* "%timeit [-n N] [-r R] STMT" */
    const char *summary; /* one line for %magic */
    repl_magic_fn run;
} repl_magic;

/* Runs code for a magic (%time, %run, ...) in __main__ as repl_exec does; on
   failure the cell prints its traceback (not a UsageError) when the magic
   returns -1. Returns repl_exec's status. */
int repl_app_exec(repl_app *app, const char *source, const char *filename, repl_parse_mode mode,
                  nn_object **result_out);
/* Sets a UsageError (bad magic arguments: NN_ERR_VALUE with the message) and
   returns -1, for magics to `return repl_app_usage_error(app, "...")`. */
int repl_app_usage_error(repl_app *app, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Asks a yes/no question on the terminal (the notebook; default no). Without
   a terminal it answers as IPython does with no input: the default, no. */
bool repl_app_ask_yes_no(repl_app *app, const char *question);

/* The magic tables, each ending with a {NULL} entry. */
extern const repl_magic repl_magics_core[];
extern const repl_magic repl_magics_sessions[];
extern const repl_magic repl_magics_inspect[];
extern const repl_magic repl_magics_shell[]; /* magics_shell.c: %cd %pwd %env %ls and the aliases */
extern const repl_magic repl_magics_paste[]; /* magics_paste.c: %cpaste %autoindent */
extern const repl_magic repl_magics_lesson[]; /* lesson.c: %lesson */
extern const repl_magic repl_magics_debug[];  /* debug.c: %debug %pdb */

/* debug.c: the post-mortem debugger (ipdb>) on the last uncaught exception's
   frames (a note when there is none, or no terminal); 0 or -1 (MemoryError).
   repl_app_debug_install binds breakpoint() in __main__ (repl_app_new), and
   repl_app_debug_close unbinds the app from it (repl_app_free). */
int repl_app_post_mortem(repl_app *app);
int repl_app_debug_install(repl_app *app);
/* help.c: summary() in this app's notebook pages as help does (repl_app_new / repl_app_free). */
void repl_app_pager_install(repl_app *app);
void repl_app_pager_close(repl_app *app);
void repl_app_debug_close(repl_app *app);
/* Where the debugger reads its commands: NULL (the default) is the terminal
   (repl_app_read_line); tests set a function returning new nn_malloc'd lines
   (NULL: end of input). */
extern char *(*repl_debug_read_line)(void);
/* magics_paste.c: one line from the terminal in cooked mode, without its newline
   (new nn_malloc'd string), NULL at end of input. */
char *repl_app_read_line(void);
/* The magic of that name in any table, or NULL. */
const repl_magic *repl_magic_find(const char *name);
/* Runs a cell starting with "%%name [args]" (a cell magic: %%time, %%timeit),
   the lines after the first its body. 0 or -1 with the error set, as a magic. */
int repl_app_run_cell_magic(repl_app *app, const char *cell);
/* A one-line cell for the shell (magics_shell.c): "!cmd" (output shown),
   "!!cmd" (its lines echoed as Out[n]) or "NAME = !cmd" (its lines bound to
   NAME); $name and {expr} are expanded and _exit_code gets the status. */
bool repl_app_is_shell_line(const char *line);
int repl_app_shell_line(repl_app *app, const char *line);

/* help.c: `name?` (detail 0) and `name??` (1) as IPython's pinfo: the object's
   fields (signature, type, string form, docstring, ...; with 1 the source of
   what was written in the language, with its file and line), through a pager
   when taller than the terminal. 0, or -1 with MemoryError. */
int repl_app_pinfo(repl_app *app, const char *name, int detail);

/* ---------------------------------------------------- sessions (app_sessions.c) */

/* Opens the store and begins a session (called by repl_app_new when recording). */
int repl_app_sessions_open(repl_app *app);
/* Records a finished cell (errors print a warning once, never fail the cell). */
void repl_app_sessions_record(repl_app *app, const repl_cell_result *cell);
/* Ends the session and closes the store. */
void repl_app_sessions_close(repl_app *app);
/* The command-line actions: --list, --replay NAME|ID [--verify] [--from N],
   --export NAME|ID FILE. Each returns the process exit status. */
int repl_app_cli_list(const repl_app_options *opt);
int repl_app_cli_replay(const repl_app_options *opt, const char *session, bool verify, int64_t from);
int repl_app_cli_export(const repl_app_options *opt, const char *session, const char *path);
/* --diff SNAPSHOT_A SNAPSHOT_B: what changed between two snapshots (as %diff). */
int repl_app_cli_diff(const repl_app_options *opt, const char *a, const char *b);

/* True when source is a cell whose echo a trailing ';' suppresses (the last
   line, without its comment, ends in ';'), as IPython. */
bool repl_app_echo_suppressed(const char *source);

/* ---------------------------------------------------- inspector (app_inspect.c) */

/* Installs the language built-in inspect(model) in the app's interpreter. */
int repl_app_inspect_install(repl_app *app);
/* Detaches and frees the inspector state. */
void repl_app_inspect_close(repl_app *app);
/* Drops the inspector's session (its hooks and the NaN breakpoint): %reset, which
   deleted the model, calls it. */
void repl_app_inspect_reset(repl_app *app);
/* Runs a statement (or magic line) as if typed in the command line of the view
   opened by cell `view`, as cell `number` (recorded when app records): res gets
   its outcome, whose output and error are new nn_malloc'd strings (or NULL) the
   caller frees. For replay; 0, or -1 when it raised (no error left set). */
int repl_app_inspect_replay_statement(repl_app *app, int64_t view, int64_t number, const char *source,
                                      repl_cell_result *res);

/* ---------------------------------------------------- interactive (interactive.c) */

/* The notebook loop on a terminal: banner, In [n]: prompts, readline with
   completion and persistent history, until Ctrl-D. Returns the exit status. */
int repl_app_interactive(repl_app *app);
/* Adds a statement to the notebook's readline history (and its file) while the
   notebook runs; nothing otherwise. */
void repl_app_history_add(const char *source);
/* The last max entries of that history, oldest first (borrowed from readline),
   into out; their count (0 outside the notebook). */
size_t repl_app_history_recent(const char **out, size_t max);
/* The indentation for the next continuation line of an incomplete cell: the last
   line's, one level more after a ':' and one less after return/pass/break/
   continue/raise (the notebook's rule; the inspector's command line uses it too). */
size_t repl_next_indent(const char *cell);

#endif
