/*
 * insp.h — the public API of nnscope's inspector (inspector/): C module hooks that
 * compute per-module statistics of activations and gradients into ring buffers,
 * problem flags (vanishing/exploding gradients, dead units, saturation, NaN/Inf),
 * a NaN breakpoint; the interactive view drawn on a virtual screen (keys, panes,
 * text for tests), its ncurses front end (tui.c, the only file that touches the
 * terminal) and text tables. Uses core only (nn.h); knows nothing of the language
 * or sessions: statements typed in the view reach the REPL through insp_run_fn
 * (and insp_complete_fn tells whether one typed so far is whole).
 */
#ifndef INSP_H
#define INSP_H

#include "nn.h"

#define INSP_HIST_BINS 32   /* histogram bins over [min, max] */
#define INSP_HIST_SAMPLE 2048 /* values a histogram counts at most: a larger tensor's is of a strided sample */
#define INSP_RING 256       /* passes kept per module (a pass: one forward or one backward) */
#define INSP_MAX_SHAPE 8    /* dims of a shape recorded in a pass (more are cut) */

/* What the saturation fraction means, chosen by the module's class name. */
typedef enum insp_saturation {
    INSP_SAT_NONE,    /* not an activation with saturating tails */
    INSP_SAT_TANH,    /* Tanh, Hardtanh, Softsign: |x| > 0.99 */
    INSP_SAT_SIGMOID, /* Sigmoid, Hardsigmoid: x < 0.01 or x > 0.99 */
} insp_saturation;

/* Statistics of one tensor (or of all tensors of a tuple together).
   mean, std (unbiased, as torch.std), min, max and the histogram cover the finite
   values; fractions are of count; l2 is NaN when a NaN is present, +inf when an
   inf is. count == 0 means "no tensor" (all None). */
typedef struct insp_stats {
    int64_t count;
    double mean, std, min, max, l2;
    double zero_frac, sat_frac;
    int64_t nan_count, inf_count;
    uint32_t hist[INSP_HIST_BINS]; /* bin i covers min + i*(max-min)/BINS ..; max falls in the last */
    int ndim;                      /* shape of the first tensor (dims beyond INSP_MAX_SHAPE cut) */
    int64_t sizes[INSP_MAX_SHAPE];
} insp_stats;

/* Statistics of t (borrowed; any dtype, layout or device-free CPU tensor), in one
   fused pass over contiguous float32/float64 data (other dtypes and layouts go
   through a contiguous double copy) plus the histogram's pass over the same data
   (of a sample of about INSP_HIST_SAMPLE values when t has more: docs/inspector.md).
   float32 sums are kept in float for 16 values at a time: mean, std and l2 are
   within about 1e-6 (relative) of the exact figures; min, max and counts are exact.
   No autograd is recorded. 0, or -1 with MemoryError. */
int insp_tensor_stats(nn_tensor *t, insp_saturation sat, insp_stats *out);

typedef enum insp_pass_kind { INSP_FORWARD, INSP_BACKWARD } insp_pass_kind;

/* One recorded pass of one module. Forward: a = the output (first tensor of a
   tuple output: all tensors pooled), b = the input's shape only (b.count 0).
   Forward of an activation module (insp_is_activation): b = the input's statistics.
   Backward: a = grad_output, b = grad_input (count 0 when every grad_input is None). */
typedef struct insp_pass {
    uint64_t step; /* the session's global step counter when the pass was recorded */
    insp_pass_kind kind;
    insp_stats a, b;
    /* forward of a ReLU-like module: its units never nonzero over the forward passes
       up to this one (dead_units of n_units, over unit_passes passes); n_units 0 otherwise */
    int64_t dead_units, n_units;
    uint64_t unit_passes;
} insp_pass;

/* A parameter's figures, captured on demand. */
typedef struct insp_param {
    size_t module;       /* index of the owning module in the session */
    const char *name;    /* the local name ("weight"); borrowed from the session */
    nn_dtype dtype;
    int ndim;
    int64_t sizes[NN_MAX_DIMS];
    int64_t numel;
    double mean, std, min, max, norm;
    double grad_norm;    /* NaN when .grad is None (or holds a NaN) */
    double grad_abs_mean, grad_abs_max; /* mean and max of |grad| over its finite values; NaN without .grad */
    bool has_grad;       /* .grad was not None */
    double update_ratio; /* ||after - before|| / ||after|| of the last snapshot/update pair; NaN if none */
    double lr;           /* the learning rate of the optimizer that last stepped it; NaN when none did */
} insp_param;

typedef struct insp_session insp_session;

/* Opens a session on model (borrowed; each module of named_modules is retained by
   the session): registers one forward hook and one full backward hook (C hooks) on
   every module (a module that already has deprecated register_backward_hook hooks
   gets no backward hook: core refuses to mix the two kinds). *out receives the new
   session, owned by the caller (insp_session_free). 0, or -1 with the error and
   the model's hooks exactly as before. */
int insp_attach(nn_module *model, insp_session **out);
/* Removes every hook insp_attach registered, leaving each module's hook dicts (and
   its full-backward flag) as before; the recorded data stays readable. Idempotent;
   never fails (no allocation). Hooks still captured by a live autograd graph do
   nothing once detached. */
void insp_detach(insp_session *s);
/* Detaches and frees the session; NULL is a no-op. */
void insp_session_free(insp_session *s);

/* ---- reading the recorded data (all pointers borrowed from the session) */
size_t insp_module_count(const insp_session *s);
/* Index of the module with that named_modules path ("" is the root), or -1. */
int insp_module_find(const insp_session *s, const char *path);
const char *insp_module_path(const insp_session *s, size_t i);
nn_module *insp_module_get(const insp_session *s, size_t i);
/* The global step counter: passes recorded so far over all modules. */
uint64_t insp_step(const insp_session *s);
/* Training steps seen, as the view's title counts them: optimizer steps
   (nn_optimizer_step) once one has stepped, before that forward passes followed
   by a backward (counted when the backward begins). */
uint64_t insp_train_steps(const insp_session *s);
/* The last pass (a global step) of training step k (1-based) when it is among the
   last INSP_RING steps and every module's ring still holds all of its passes, else
   UINT64_MAX. */
uint64_t insp_train_step_end(const insp_session *s, uint64_t k);
/* The training step that pass `at` belongs to (1-based): insp_train_steps() + 1 for
   the passes of the step being run (forwards not yet followed by a backward). */
uint64_t insp_train_step_of(const insp_session *s, uint64_t at);
/* Passes of module i still in its ring (at most INSP_RING) and the k-th of them,
   k = 0 the oldest kept; NULL when out of range. */
size_t insp_pass_count(const insp_session *s, size_t i);
const insp_pass *insp_pass_at(const insp_session *s, size_t i, size_t k);
/* The latest pass of module i of that kind with step <= at_step (UINT64_MAX: the
   latest of all); NULL when none is kept. */
const insp_pass *insp_last_pass(const insp_session *s, size_t i, insp_pass_kind kind, uint64_t at_step);
/* ReLU-like modules (ReLU, ReLU6, Threshold): per-unit "ever nonzero" map over the
   forward passes since attach; a unit is dim 1 of the output ([B, F] -> F units;
   dim 0 for 1-D outputs). Returns the number of dead units (never nonzero) and sets
   *n_units, or -1 (no error set) when the module is not ReLU-like or never ran.
   _at: as it was at the module's last forward pass with step <= at_step. */
int64_t insp_dead_units(const insp_session *s, size_t i, int64_t *n_units);
int64_t insp_dead_units_at(const insp_session *s, size_t i, uint64_t at_step, int64_t *n_units);

/* ---- parameters */
/* Recomputes every parameter's figures (named_parameters of each module, not
   recursing) from its current data and .grad (while live, at most 4 times a
   second: insp_set_live). *out (borrowed, valid until the next capture or
   free) and *n receive the table. 0, or -1 with MemoryError. */
int insp_param_capture(insp_session *s, const insp_param **out, size_t *n);
/* Time travel: the table of the newest capture taken by pass at_step (the last 32
   captures are kept; UINT64_MAX: the newest), or NULL (*n 0) when none was. *taken,
   when not NULL, receives the session's step when it was taken: the table shows the
   parameters as after pass *taken - 1. Borrowed, valid until the next capture. */
const insp_param *insp_param_table_at(const insp_session *s, uint64_t at_step, size_t *n, uint64_t *taken);
/* The training step (insp_train_step_of) of the capture taken at session step
   `taken`, as it was when taken (a capture may be older than the steps kept). */
uint64_t insp_capture_train_step(const insp_session *s, uint64_t taken);
/* Before an optimizer step: copies every parameter's values. 0 or -1. */
int insp_param_snapshot(insp_session *s);
/* After the step: each parameter's update_ratio = ||now - snapshot|| / ||now||.
   0 or -1 (RuntimeError when no snapshot was taken). */
int insp_param_update_ratio(insp_session *s);

/* ---- scalars tracked per training step (%inspect net --track loss): the
   value of each tracked name is read through fn at the end of every training
   step (an optimizer step, else the start of a backward) and kept, the newest
   INSP_SCALAR_KEEP per name. */
#define INSP_SCALARS 8         /* names tracked at once at most */
#define INSP_SCALAR_KEEP 4096  /* values kept per name */
/* Gives the value of the tracked name: 0 with *value set, or -1 (no error left
   set) when there is none now (unbound, not a number). */
typedef int (*insp_scalar_fn)(void *ud, const char *name, double *value);
void insp_set_scalar_source(insp_session *s, insp_scalar_fn fn, void *ud);
/* Tracks name (copied; a name tracked already is fine). 0, or -1 with ValueError
   past INSP_SCALARS names, MemoryError. */
int insp_track(insp_session *s, const char *name);
size_t insp_scalar_count(const insp_session *s);
const char *insp_scalar_name(const insp_session *s, size_t i);
/* Values kept of scalar i, and the k-th oldest (its training step in *step). */
size_t insp_scalar_len(const insp_session *s, size_t i);
double insp_scalar_at(const insp_session *s, size_t i, size_t k, uint64_t *step);
/* The update ratio of every training step, sampled (step_ratios.c; the `u`
   chart): steps kept (the newest INSP_RATIO_KEEP), and parameter `param`'s ratio
   ||update|| / ||param|| of the k-th kept step, oldest first, with that step's
   number into *step; NaN where it was not measured. A parameter of up to
   INSP_RATIO_SAMPLE elements is measured whole, a larger one on that many
   elements in evenly spaced runs. */
#define INSP_RATIO_SAMPLE 4096
#define INSP_RATIO_KEEP 1024
size_t insp_ratios_len(const insp_session *s);
double insp_ratio_at(const insp_session *s, size_t k, size_t param, uint64_t *step);

/* ---- problems and the NaN breakpoint */
/* Thresholds of the flags. */
/* A parameter's gradients are judged relative to the parameter and to the other
   layers, never by an absolute size (a converged model has tiny gradients
   everywhere): rel = ||grad|| / ||param||. */
#define INSP_VANISHING_SPREAD 1e-4 /* a weight's rel below 1e-4 of the largest weight rel */
#define INSP_VANISHING_FLOW 1e-3   /* a layer's grad_output norm below 1e-3 of the largest layer's */
#define INSP_EXPLODING_REL 1e3     /* rel above 1e3: the gradient dwarfs the parameter */
#define INSP_EXPLODING_GROWTH 1e3  /* ||grad|| grew 1000x over the kept captures */
#define INSP_RATIO_CAPTURES 3      /* update ratios are judged once this many captures have one */
#define INSP_EXPLODING 1e3        /* a grad_output/grad_input norm above this, or non-finite */
#define INSP_SATURATED_FRAC 0.5   /* more than half of the last output saturated */
#define INSP_RATIO_LOW 1e-5       /* update-to-data ratio outside [1e-5, 1e-1] */
#define INSP_RATIO_HIGH 1e-1
/* Lists the problems as text lines ("nan: ...", "exploding: ...", "vanishing: ...",
   "dead: ...", "saturated: ...", "update-ratio: ..."), each ending in '\n', into
   *out: a new nn_malloc'd string ("" when none). Parameter flags use freshly
   captured figures. Returns the number of problems, or -1 with MemoryError. */
int insp_problems(insp_session *s, char **out);
/* The same as of step at_step (time travel): the flags read from passes (nan,
   exploding grad_output/grad_input, saturated) from the passes up to that step;
   dead units and the parameter flags as they are now (they keep no history). */
int insp_problems_at(insp_session *s, uint64_t at_step, char **out);
/* Where a NaN/Inf was first seen: the module index (or -1 when never) and, when
   not NULL, the step and what held it ("output", "grad_output", "grad_input"). */
int insp_nan_first(const insp_session *s, uint64_t *step, const char **where);
/* NaN breakpoint: while on, a hook that sees NaN/Inf in an output or gradient
   fails with RuntimeError "NaN or Inf in the output of <path> (<Class>)" (or "in
   the grad_output of"/"grad_input of"), so nn_module_call / nn_backward fail. */
void insp_break_nan(insp_session *s, bool on);
/* The op that made the first NaN/Inf inside the module of insp_nan_first, found
   while the breakpoint was on, with its inputs' statistics ("log made the first
   NaN/Inf (3 NaN of 8) from finite input: min -0.37, ..."), or NULL. Borrowed. */
const char *insp_nan_origin(const insp_session *s);
/* The module where the breakpoint last stopped, or -1. */
int insp_break_module(const insp_session *s);

/* ---- drawing */
/* Draws the interactive view (insp_view_draw) in its first state into a width x
   height text screen (UTF-8; each cell one column): the module tree (name, type,
   extra_repr, parameter count) on the left; the selected module's parameters, last
   forward and backward stats, histograms in block characters, sparklines of
   output std and grad norm and an activation's curve on the right; the problems,
   the output area and the command line at the bottom. selected: a module path
   (NULL or unknown: the root). at_step: show the passes with step <= at_step, or
   -1 for the latest.
   *out receives a new nn_malloc'd string of height lines, each '\n'-terminated,
   trailing spaces trimmed. 0, or -1 with ValueError (width < 40 or height < 10)
   or MemoryError. Parameters are captured as insp_param_capture does. */
int insp_render_text(insp_session *s, const char *selected, int width, int height, int64_t at_step, char **out);

/* ---- live refresh: fn(ud) runs after every pass a hook records (the ncurses
   view redraws from it through its throttle); NULL removes it. fn must not fail
   the hook: it keeps the current error as it found it. */
typedef void (*insp_pass_fn)(void *ud);
void insp_set_pass_callback(insp_session *s, insp_pass_fn fn, void *ud);
/* While live (a statement runs and a view redraws as it goes), the parameters'
   figures (mean, std, norms over every parameter and gradient) are captured at
   most once a second (INSP_PARAM_HZ), so that a redraw 30 times a second does not
   sum the whole model each time; between two captures readers get the last one.
   Off (the default), every capture is fresh. */
void insp_set_live(insp_session *s, bool live);

/* ---- the virtual screen: a grid of cells, one code point and one style each.
   The views draw only here; the ncurses driver (tui.c) copies it to the
   terminal and insp_screen_text gives it as text for tests. */
typedef enum insp_color {
    INSP_COLOR_DEFAULT, INSP_COLOR_TITLE, INSP_COLOR_SELECTED, INSP_COLOR_DIM, INSP_COLOR_GOOD,
    INSP_COLOR_WARN, INSP_COLOR_BAD, INSP_COLOR_CURVE, INSP_COLOR_DERIV, INSP_COLOR_HIST,
    INSP_COLOR_COUNT
} insp_color;
#define INSP_ATTR_BOLD 1u
#define INSP_ATTR_REVERSE 2u
typedef struct insp_cell {
    uint32_t ch;    /* a code point drawn in one column */
    uint8_t color;  /* insp_color */
    uint8_t attr;   /* INSP_ATTR_* bits */
} insp_cell;
typedef struct insp_screen {
    int w, h;
    insp_cell *cells; /* w*h, row-major */
} insp_screen;
/* Allocates a w x h screen of blanks (w, h >= 1). 0, or -1 with MemoryError
   (the screen is then empty and safe to free). Resizing: free, then init. */
int insp_screen_init(insp_screen *sc, int w, int h);
void insp_screen_free(insp_screen *sc);
void insp_screen_clear(insp_screen *sc);
/* Writes UTF-8 s at (row, col) in color/attr, at most maxw cells, clipped to the
   screen (bad bytes show as '?'); returns the cells written. */
int insp_screen_put(insp_screen *sc, int row, int col, int maxw, insp_color color, unsigned attr, const char *s);
/* As insp_screen_put, but a text longer than the room ends with "…" at a word
   boundary (a space) when there is one in its second half: a number or a name
   is shown whole or not at all. */
int insp_screen_put_fit(insp_screen *sc, int row, int col, int maxw, insp_color color, unsigned attr, const char *s);
/* Word wrap: the cells of the first row of s (up to a '\n') in room cells: all of
   it when it fits, else up to the last space before the room ends (a number or a
   name is not split) when that keeps a third of the row, else room cells. *next:
   where the next row starts (spaces skipped), or NULL at the end of the line. */
int insp_wrap_row(const char *s, int room, const char **next);
/* Writes s wrapped in w cells from (row, col), continuation rows indented by 2,
   at most max_rows rows (max_rows < 0: count only); returns the rows it takes. */
int insp_screen_put_wrapped(insp_screen *sc, int row, int col, int w, int max_rows, insp_color color, unsigned attr,
                            const char *s);
/* Rows as UTF-8 lines each ending in '\n', trailing blanks trimmed; a new
   nn_malloc'd string, or NULL with MemoryError. */
char *insp_screen_text(const insp_screen *sc);
/* The same grid with each cell's color as a letter ('.' default, then 'T' title,
   'S' selected, 'd' dim, 'g' good, 'w' warn, 'B' bad, 'c' curve, 'D' derivative,
   'h' histogram), for golden tests of coloring; new string or NULL. */
char *insp_screen_colors(const insp_screen *sc);

/* ---- the interactive view: tree selection, expand/collapse, panes, modes,
   time travel, find, help and the command line, driven by keys. One view on
   one session (borrowed: it must outlive the view). */
typedef struct insp_view insp_view;
/* Keys beyond Unicode (printable keys are their code points, Ctrl-X is 24,
   Enter '\n', Escape 27, Tab '\t'). */
enum {
    INSP_KEY_UP = 0x110000, INSP_KEY_DOWN, INSP_KEY_LEFT, INSP_KEY_RIGHT, INSP_KEY_PGUP, INSP_KEY_PGDN,
    INSP_KEY_HOME, INSP_KEY_END, INSP_KEY_BACKSPACE, INSP_KEY_DELETE, INSP_KEY_RESIZE
};
/* What a key asks the driver to do. */
typedef enum insp_action { INSP_ACT_NONE, INSP_ACT_REDRAW, INSP_ACT_QUIT, INSP_ACT_RUN } insp_action;
typedef enum insp_mode { INSP_MODE_ALL, INSP_MODE_PARAMS, INSP_MODE_ACTIVATIONS, INSP_MODE_GRADIENTS,
                         INSP_MODE_HISTOGRAMS,
                         /* the whole model at once (charts.c) */
                         INSP_MODE_FLOW, INSP_MODE_LAYERS, INSP_MODE_UPDATES,
                         /* the tracked scalars' curves (scalars.c) */
                         INSP_MODE_SCALARS } insp_mode;

/* Runs a statement typed in the command line in the REPL's interpreter: *output
   receives a new nn_malloc'd string of what it printed (traceback included), or
   NULL. Returns 0, or -1 when the statement raised (no core error left set). */
typedef int (*insp_run_fn)(void *ctx, const char *source, char **output);
/* Whether the text typed in the command line (its lines joined by '\n') is a
   whole statement: -1 when Enter runs it, else the indentation (spaces) of the
   continuation line Enter asks for (an open block, bracket or string; the REPL
   decides, as for its notebook's cells). */
typedef int (*insp_complete_fn)(void *ctx, const char *source);

/* A new view on s with the root selected, every module expanded, live (latest
   pass), mode all, focus on the tree; NULL with MemoryError. */
insp_view *insp_view_new(insp_session *s);
void insp_view_free(insp_view *v);
/* Handles one key. INSP_ACT_RUN: the command line holds a statement, which
   insp_view_take_command hands over. */
insp_action insp_view_key(insp_view *v, int key);
/* The mouse wheel at screen cell (row, col) of the last drawing: lines > 0 down,
   < 0 up. It scrolls the pane under the pointer: the Output pane (up goes back),
   the Problems pane, the details, or the tree's selection. */
insp_action insp_view_wheel(insp_view *v, int row, int col, int lines);
/* The completeness test Enter in the command line asks (fn(ctx, text)); without
   one (fn NULL, the default) every line is complete. */
void insp_view_set_complete(insp_view *v, insp_complete_fn fn, void *ctx);
/* The statement to run (a new nn_malloc'd string, its lines joined by '\n', or
   NULL with MemoryError); the command line is cleared and the statement goes to
   its history. */
char *insp_view_take_command(insp_view *v);
/* Appends an entry to the command line's history (a copy; an entry equal to the
   last is skipped). 0 or -1 with MemoryError. */
int insp_view_history_add(insp_view *v, const char *entry);
/* Appends what a statement printed to the output area (borrowed text; NULL is
   nothing); error marks it red. 0 or -1 with MemoryError. */
int insp_view_add_output(insp_view *v, const char *text, bool error);
/* Handles key, and for INSP_ACT_RUN runs the statement through run(ctx, ...)
   (marking the view busy meanwhile), shows its output, and when the NaN
   breakpoint stopped it selects the module that stopped it. With run, 'b' outside
   the command line runs "%break nan" or "%break off" as a statement (so the REPL
   records it and knows the state). Returns the action
   (INSP_ACT_REDRAW after a run). */
insp_action insp_view_handle(insp_view *v, int key, insp_run_fn run, void *ctx);
/* Selection by module path (expanding its ancestors); -1 (no error) if unknown. */
int insp_view_select(insp_view *v, const char *path);
const char *insp_view_selected(const insp_view *v);
/* The step shown: -1 when live. */
int64_t insp_view_at_step(const insp_view *v);
insp_mode insp_view_mode(const insp_view *v);
bool insp_view_busy(const insp_view *v);
/* The statement running now (busy), borrowed, or NULL. */
const char *insp_view_running(const insp_view *v);
/* Draws everything onto sc (its size is the view's size). 0, or -1 with
   MemoryError (the screen is then partly drawn). */
int insp_view_draw(insp_view *v, insp_screen *sc);

/* ---- the ncurses front end (tui.c) */
/* Opens the full-screen view of s on the terminal (/dev/tty) and runs its event
   loop until 'q'. Statements typed in the command line run through run(ctx, ...)
   once complete(ctx, ...) (NULL: every line is) says they are whole,
   while the panes refresh live from the hooks (at most INSP_REDRAW_HZ a second);
   Ctrl-C stops a running statement and keeps the view. Colors unless NO_COLOR is
   set or the terminal has none. The terminal is restored on every exit path.
   0, or -1 with RuntimeError when no usable terminal is there (TERM unset or
   dumb, no /dev/tty). */
int insp_tui_run(insp_session *s, insp_run_fn run, insp_complete_fn complete, void *ctx);
/* The entries (borrowed until the next call; copied into each view) that the
   command-line history of the views insp_tui_run opens starts with, oldest
   first: the REPL's history, so the up arrow recalls statements typed earlier. */
void insp_tui_set_history(const char *const *entries, size_t n);
/* True when insp_tui_run can open a terminal here (a tty and TERM not dumb). */
bool insp_tui_available(void);

/* ---- text tables (the view without a terminal: scripts, TERM=dumb):
   one row per module (type, parameters, last output shape and statistics,
   last gradient norms, dead units), one row per parameter (shape, mean, std,
   grad norm, update ratio) and the problems. A new nn_malloc'd string, or NULL
   with MemoryError. */
char *insp_report_text(insp_session *s);

/* ---- throttling: at most hz redraws a second on the monotonic clock */
typedef struct insp_throttle {
    double interval; /* seconds between redraws */
    double last;     /* time of the last granted redraw */
    bool primed;     /* false until the first redraw */
} insp_throttle;
#define INSP_REDRAW_HZ 30.0
void insp_throttle_init(insp_throttle *t, double hz);
/* Seconds on CLOCK_MONOTONIC. */
double insp_monotonic_seconds(void);
/* True (and the gate closes for one interval) when a redraw is due at time now;
   the first call is always due. */
bool insp_throttle_due(insp_throttle *t, double now);
/* insp_throttle_due at the current monotonic time. */
bool insp_should_redraw(insp_throttle *t);

#endif
