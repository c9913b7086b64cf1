/*
 * insp_int.h — what the inspector's files share and nothing outside inspector/
 * includes: the session and module records (session.c), the pooled statistics of
 * an object (stats.c) and the module-kind tests by class name.
 */
#ifndef INSP_INT_H
#define INSP_INT_H

#include "insp.h"

/* Statistics of o (borrowed): a tensor, or a tuple/list of tensors and None (all
   tensors pooled), anything else counts as no tensor (out->count 0). alive, when
   not NULL, has n_units bytes: alive[u] |= (some value of unit u is nonzero) for
   the first tensor, whose units are insp_units_of's. Without with_hist the
   histogram stays all zero (and costs nothing). 0, or -1 with MemoryError. */
int insp_object_stats(nn_object *o, insp_saturation sat, uint8_t *alive, int64_t n_units, bool with_hist,
                      insp_stats *out);
/* The statistics last computed for a few tensors, so that a tensor seen again
   unchanged (a module's output is the next one's input; a grad_input is the
   previous module's grad_output) is not summed twice. Each entry holds a detached
   view of its tensor: the storage stays alive, so the same storage, view and
   version mean the same values. */
#define INSP_STATS_CACHE 4
typedef struct insp_cached_stats {
    nn_tensor *view; /* owned, or NULL */
    uint64_t version;
    insp_saturation sat;
    bool with_hist;
    insp_stats stats;
} insp_cached_stats;
typedef struct insp_stats_cache {
    insp_cached_stats entries[INSP_STATS_CACHE];
    int next; /* the entry replaced next */
} insp_stats_cache;
/* insp_object_stats without a unit map, answered from c when o holds one tensor
   already seen unchanged. 0, or -1 with MemoryError. */
int insp_object_stats_cached(insp_stats_cache *c, nn_object *o, insp_saturation sat, bool with_hist,
                             insp_stats *out);
/* An update's size over n float32 values: *dd = sum (now - before)^2 and
   *pp = sum now^2, in double (session.c's update ratios). */
void insp_float_change(const float *now, const float *before, int64_t n, double *dd, double *pp);
/* The sum of |x| over the finite values among n contiguous float32 (or float64)
   values, and how many they are (session.c's mean |grad|): four independent sums,
   without a branch per value. */
void insp_abs_sum(const void *data, bool f64, int64_t n, double *sum, int64_t *finite);
/* Releases the views c holds; it stays usable. */
void insp_stats_cache_clear(insp_stats_cache *c);
/* Whether parameter q of the table params[0..n) has a vanishing gradient: a weight
   (ndim >= 2) whose ||grad|| / ||param|| is below INSP_VANISHING_SPREAD of the
   largest such figure among the table's weights (two at least). */
bool insp_param_vanishing(const insp_param *params, size_t n, const insp_param *q);

/* The parameter table as last captured (render.c reads it after insp_problems),
   or NULL (*n 0) when none was. */
const insp_param *insp_param_table(const insp_session *s, size_t *n);
/* The first tensor of o (a tensor, or the first in a tuple/list), borrowed, or NULL. */
nn_tensor *insp_first_tensor(nn_object *o);
/* Units of a ReLU-like output: dim 1 for ndim >= 2, dim 0 for 1-D, 1 for 0-D. */
int64_t insp_units_of(const nn_tensor *t);

/* Kinds by class name. */
insp_saturation insp_saturation_of(const char *class_name);
bool insp_is_relu_like(const char *class_name);
/* Core's elementwise activation modules (ReLU, GELU, PReLU, Sigmoid, Tanh,
   Threshold, LeakyReLU, ELU, SiLU, Softplus): those whose curve the view draws. */
bool insp_is_activation(const nn_module *m);

/* The most Output lines one screen shows (each at least one row). */
#define INSP_OUTPUT_ROWS_MAX 1024
/* The whole-model views (INSP_MODE_FLOW, _LAYERS, _UPDATES) over the details pane,
   rows [top, top + rows) of columns [x, x + w) (charts.c). 0, or -1 with an error. */
int insp_draw_model_view(insp_view *v, insp_screen *sc, int top, int rows, int x, int w);

/* A shape as "[2, 3]" into buf (n bytes, truncated to fit) (render.c). */
void insp_shape_str(const int64_t *sizes, int ndim, char *buf, size_t n);
/* A bar chart of hist[0..INSP_HIST_BINS) in rows x w cells at (top, x): each
   column sums the bins it covers, heights in eighths of a cell (render.c). */
void insp_draw_bars(insp_screen *sc, int top, int x, int rows, int w, const uint32_t *hist, insp_color color);
/* Draws m's curve f(x) and its derivative (braille, two colors) over the range
   of its recorded input (input: the forward pass's b, or NULL: [-3, 3]) with the
   input's histogram under them, into rows x w cells at (top, x). The module's
   forward runs directly (no hooks) and the derivative by autograd, into the
   sample points only. A forward that fails draws a note instead. 0, or -1 with
   MemoryError. */
int insp_draw_curve(insp_screen *sc, int top, int x, int rows, int w, nn_module *m, const insp_stats *input);

/* At each forward of the root (session.c calls it): measures the update ratio of
   the optimizer step that happened since the last sampled snapshot, and takes a
   new snapshot at most INSP_PARAM_HZ times a second (updates.c). 0, or -1 with
   MemoryError. The same rate bounds the parameter captures of a live run: both
   read every parameter (and gradient), which costs a training loop more than a
   step's activations. */
#define INSP_PARAM_HZ 1.0
int insp_track_updates(insp_session *s);

/* Every training step's update ratios (step_ratios.c; read by insp_ratio_at):
   baseline takes each parameter's sample (at attach; 0, or -1 with MemoryError);
   record measures the change of each sample since the last one as training step
   `step`'s ratio and keeps the newest INSP_RATIO_KEEP steps (a failure to allocate
   leaves the step unmeasured). */
int insp_ratios_baseline(insp_session *s);
void insp_ratios_record(insp_session *s, uint64_t step);
void insp_ratios_free(insp_session *s);

/* The NaN breakpoint's op watch (nan_origin.c): on, core's op observer notes the
   first op that makes NaN/Inf from finite inputs into s->origin, and core's
   backward observer the first backward node into s->backward_origin; off
   removes the observers when they are this session's. reset forgets what was
   noted in the forward (backward false) or the backward. */
void insp_origin_watch(insp_session *s, bool on);
void insp_origin_reset(insp_session *s, bool backward);

/* Optimizer steps (steps.c): on, core's optimizer observer counts s's training
   steps and reads its parameters' learning rates; off removes it when it is s's.
   insp_scalars_sample reads every tracked scalar once; insp_scalars_free frees them. */
void insp_steps_watch(insp_session *s, bool on);
/* At the end of an optimizer step: captures every parameter's figures (with the
   step's gradients) when `always`, or live when the capture rate allows. 0 or -1. */
int insp_capture_stepped(insp_session *s, bool always);
void insp_scalars_sample(insp_session *s);
void insp_scalars_free(insp_session *s);
/* The scalars view (scalars.c), as insp_draw_model_view. */
int insp_draw_scalars(insp_view *v, insp_screen *sc, int top, int rows, int x, int w);

/* A module as the session records it. */
typedef struct insp_module {
    nn_module *module;        /* owned reference */
    char *path;               /* nn_malloc'd; "" for the root */
    int depth;                /* dots in path + 1; 0 for the root */
    nn_object *fwd_hook;      /* owned: the forward hook callable while attached, else NULL */
    nn_object *bwd_hook;      /* owned: the full backward hook callable, or NULL */
    int prev_full_flag;       /* module->is_full_backward_hook before attach */
    insp_saturation sat;
    bool relu_like;
    bool activation;          /* an elementwise activation: its input's statistics are kept too */
    insp_pass *ring;          /* INSP_RING slots, allocated at the first pass */
    size_t ring_len, ring_next; /* kept passes; slot of the next write */
    uint8_t *alive;           /* per-unit ever-nonzero map (ReLU-like), n_units bytes */
    int64_t n_units;
    uint64_t alive_passes;    /* forward passes folded into alive */
} insp_module;

/* What the C hooks hold (shared by a module's two hooks, freed with the last one):
   the session is NULL once detached, so late calls do nothing. */
typedef struct insp_link {
    int refs;
    insp_session *s;
    size_t index;
} insp_link;

/* A parameter table as captured when the session's step was `step`, kept so that
   time travel can show the parameters of a past step. */
#define INSP_CAPTURES 32
typedef struct insp_capture {
    uint64_t step;
    uint64_t train_step; /* insp_train_step_of its last pass, when it was taken */
    insp_param *params; /* n_params entries, nn_malloc'd at the slot's first use */
} insp_capture;

typedef struct insp_param_rec {
    insp_param info;
    char *name;               /* nn_malloc'd local name */
    nn_tensor *tensor;        /* owned reference */
    void *snapshot;           /* nn_malloc'd values at the last snapshot, or NULL: float32 */
    bool snapshot_f64;        /* (a plain copy of a contiguous float32 tensor) or double */
    int64_t snapshot_n;
} insp_param_rec;

struct insp_session {
    insp_module *mods;
    size_t n_mods;
    insp_link **links;        /* one per module, each holding one reference of ours */
    insp_param_rec *params;
    size_t n_params;
    insp_capture *captures;   /* INSP_CAPTURES parameter tables (capture_params), or NULL */
    size_t n_captures, capture_next; /* tables kept; slot of the next one */
    bool attached;
    uint64_t step;
    /* training steps: a backward phase after forward passes begins one; step_last
       holds the last pass of each of the newest INSP_RING steps (step k in slot k % INSP_RING) */
    uint64_t train_steps;
    bool in_backward;
    uint64_t step_last[INSP_RING];
    bool break_nan;
    int break_module;
    int nan_module;
    uint64_t nan_step;
    uint64_t nan_train_step; /* the training step nan_step belongs to, as the title counts */
    const char *nan_where;
    /* the op that made the first NaN/Inf (nan_origin.c): found since the last
       module whose output was finite, and the one kept with nan_module */
    bool origin_found;
    char origin[320];
    bool backward_origin_found; /* the same for the backward pass */
    char backward_origin[400];
    char nan_origin[400];
    /* training steps by the optimizer and the tracked scalars (steps.c) */
    bool optim_seen;          /* an optimizer stepped: it counts the training steps */
    struct insp_scalar *scalars; /* n_scalars of INSP_SCALARS, nn_malloc'd at the first */
    size_t n_scalars;
    insp_scalar_fn scalar_fn;
    void *scalar_ud;
    insp_stats_cache stats_cache; /* the hooks' (stats.c) */
    bool live;                /* a live run: parameter figures refresh at most INSP_PARAM_HZ (insp_set_live) */
    insp_throttle param_gate; /* when live: the next parameter capture */
    insp_pass_fn on_pass;     /* live refresh (insp_set_pass_callback) */
    void *on_pass_ud;
    /* update ratios measured between two forwards of the root (updates.c) */
    insp_throttle ratio_gate;
    bool ratio_armed;         /* a snapshot waits for the next optimizer step */
    uint64_t ratio_versions;  /* sum of the parameters' versions at that snapshot */
    struct insp_step_ratios *ratios; /* every step's sampled update ratios (step_ratios.c), or NULL */
};

/* ---- the view (view.c keeps it, render.c draws it) */
#define INSP_OUTPUT_LINES 1000 /* output lines of statements kept (the Output pane's scrollback) */
#define INSP_HISTORY 100      /* command-line history entries kept */
#define INSP_COMMAND_ROWS 6   /* rows the command line grows to for a statement of several lines */
/* Tab moves through them in this order. */
typedef enum insp_focus { INSP_FOCUS_TREE, INSP_FOCUS_DETAILS, INSP_FOCUS_PROBLEMS, INSP_FOCUS_OUTPUT, INSP_FOCUS_COMMAND } insp_focus;
struct insp_view {
    insp_session *s;          /* borrowed */
    size_t sel;               /* selected module */
    int *parent;              /* per module: index of its parent, -1 for the root */
    bool *expanded;           /* per module: children shown */
    bool *has_children;
    insp_mode mode;
    int64_t at;               /* step shown, -1 live */
    insp_focus focus;
    bool help, finding, busy;
    int detail_scroll;        /* lines of the details pane scrolled away */
    int detail_max;           /* the most that can be (End: the last page), as last drawn */
    int problem_scroll;       /* problem lines scrolled away above the pane */
    int output_scroll;        /* output lines scrolled back from the newest (0: the newest show) */
    int tree_widen;           /* columns added to the tree pane's share by '>' (fewer by '<') */
    bool scalars_log;         /* the scalars view's y axis is log10 (L) */
    /* where the last insp_view_draw put the panes (the mouse wheel scrolls the one
       under the pointer): tree width, rows of the Problems and Output separators,
       first row of the command line */
    int pane_tree_w, pane_prob_sep, pane_out_sep, pane_cmd_row;
    char *line;               /* the command line (or the find text), nn_malloc'd UTF-8; a
                                 statement of several lines holds them joined by '\n',
                                 the last one being typed */
    size_t line_len, line_cap;
    insp_complete_fn complete; /* Enter's completeness test (insp_view_set_complete), or NULL */
    void *complete_ctx;
    char *history[INSP_HISTORY];
    int n_history, history_pos;
    char *out[INSP_OUTPUT_LINES]; /* output area lines, oldest first */
    bool out_error[INSP_OUTPUT_LINES];
    int n_out;
    char *running;            /* the statement running now (busy) */
    char message[160];        /* a one-line notice in the command row ("" none) */
};
/* Modules shown by the tree (ancestors expanded) in order; v->sel among them. */
bool insp_view_visible(const insp_view *v, size_t i);

#endif
