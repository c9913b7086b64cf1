/*
 * app_inspect.c — the inspector in the front end: %inspect MODEL and the
 * built-in inspect(model) (the full-screen view on a terminal, text tables
 * elsewhere), %break nan|off (the NaN/Inf breakpoint) and %hooks MODEL. The
 * inspector's command line runs statements here, in the app's interpreter.
 * One inspector session at a time, on one model; the hooks come off when the
 * view closes, unless the breakpoint still needs them.
 */
#include "app.h"
#include "bind_int.h"
#include "eval_int.h"

#include "../inspector/insp.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

struct repl_app_inspect {
    insp_session *session; /* attached to model, or NULL */
    nn_module *model;      /* owned while session is set */
    bool break_nan;
    bool open;             /* the full-screen view is running */
};

/* The app whose interpreter holds inspect() (one app per process; the
   built-in's C function has no other way to find it). */
static repl_app *inspect_app;

static struct repl_app_inspect *state(repl_app *app)
{
    if (!app->inspect) app->inspect = nn_calloc(1, sizeof *app->inspect);
    return app->inspect;
}

/* Detaches and frees the session: the model's hooks are as before it. */
static void drop_session(struct repl_app_inspect *st)
{
    insp_session_free(st->session);
    st->session = NULL;
    NN_SET(st->model, NULL);
}

/* The session on model (borrowed), attaching a new one (and dropping one on
   another model) when needed. NULL with the error. */
static insp_session *session_on(repl_app *app, nn_module *model)
{
    struct repl_app_inspect *st = state(app);
    if (!st) return NULL;
    if (st->session && st->model == model) return st->session;
    insp_session *s;
    if (insp_attach(model, &s) < 0) return NULL;
    drop_session(st);
    st->session = s;
    st->model = NN_MODULE(nn_retain(&model->ob));
    insp_break_nan(s, st->break_nan);
    return s;
}

/* The module an argument names: the value of the expression text (a magic's
   argument) or obj itself; NULL with TypeError when it is not a module. New reference. */
static nn_module *module_arg(repl_app *app, const char *what, const char *expr, nn_object *obj)
{
    nn_object *value = NULL;
    if (expr) {
        if (!*expr) {
            repl_app_usage_error(app, "%s: which model? Usage: %%%s MODEL", what, what);
            return NULL;
        }
        if (repl_app_exec(app, expr, "<magic>", REPL_PARSE_EVAL, &value) < 0) return NULL;
    } else {
        value = nn_retain(obj);
    }
    if (!nn_is_module(value)) {
        nn_error_set(NN_ERR_TYPE, "%s: expected an nn.Module, got %s", what, repl_value_type_name(value));
        NN_RELEASE(value);
        return NULL;
    }
    return NN_MODULE(value);
}

/* ------------------------------------------------ the view's command line */

/* repl_write_fn collecting into an sbuf (a failed allocation loses the output;
   the statement goes on). */
static void collect(void *ud, const char *s, size_t n) { repl_sb_add(ud, s, n); }

/* The current error as text (a new string, or NULL): the traceback of the code
   that raised (label NULL), or "label: message" ("" labels it with its kind). */
static char *error_text(repl_app *app, const char *label)
{
    char *tb = label ? NULL : repl_traceback(app->interp);
    if (tb) return tb;
    sbuf b = {0};
    repl_sb_printf(&b, "%s: %s", label && *label ? label : nn_error_kind_name(nn_error_current()), nn_error_message());
    return b.failed ? NULL : b.buf;
}

/* Parses source in mode without running it: the status. The error is cleared. */
static repl_parse_status parse_only(const char *source, repl_parse_mode mode)
{
    repl_ast_arena *arena;
    repl_parse_error err;
    bool parsed = repl_parse(source, "<inspector>", mode, &arena, &err) != NULL;
    repl_ast_arena_free(arena);
    nn_error_clear();
    return parsed ? REPL_PARSE_OK : err.status;
}

/* insp_complete_fn: the text typed in the view's command line runs (-1) when the
   notebook would run it as a cell (repl_app_run_cell does not answer -2: the
   parser in REPL_PARSE_SINGLE mode finds it complete, so an indented block ends
   at an empty line), when it is a magic line, and when it is one line complete
   as a file (a one-line compound statement "for i in range(9): step()" runs at
   Enter). Otherwise the continuation line is indented as the notebook's. */
static int command_complete(void *ctx, const char *source)
{
    (void)ctx;
    source += strspn(source, " "); /* as run_statement runs it */
    if (*source == '%' || parse_only(source, REPL_PARSE_SINGLE) != REPL_PARSE_INCOMPLETE ||
        (!strchr(source, '\n') && parse_only(source, REPL_PARSE_FILE) == REPL_PARSE_OK))
        return -1;
    return (int)repl_next_indent(source);
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Runs a statement or a magic line as typed in the view opened by cell `view`, as
   cell `number`: its output (and traceback) collected instead of printed, then
   recorded as a cell of the session marked with its view (res gets its outcome:
   output and error are new strings the caller frees, either may be NULL). -1 when
   it raised (no error left set). */
static int run_in_view(repl_app *app, int64_t view, int64_t number, const char *source, repl_cell_result *res)
{
    sbuf out = {0};
    repl_write_fn saved_out = app->out_write, saved_err = app->err_write;
    void *saved_out_ud = app->out_ud, *saved_err_ud = app->err_ud;
    bool saved_failed = app->code_failed; /* the %inspect cell's own state */
    int64_t saved_next = app->next_cell;
    app->out_write = app->err_write = collect;
    app->out_ud = app->err_ud = &out;
    app->code_failed = false;
    app->next_cell = number; /* %snapshot typed in the view names this cell */
    size_t rng_size = nn_generator_state_size();
    void *rng = nn_malloc(rng_size);
    if (rng) nn_generator_get_state(nn_default_generator(), rng);
    else nn_error_clear();
    double started = seconds_now();
    char *error = NULL;
    bool silent = false;
    int rc;
    source += strspn(source, " "); /* blanks typed before a statement are not indentation */
    if (*source == '%') {
        char name[64];
        size_t len = strcspn(source + 1, " \t");
        snprintf(name, sizeof name, "%.*s", (int)(len < 63 ? len : 63), source + 1);
        const repl_magic *m = repl_magic_find(name);
        const char *args = source + 1 + len;
        while (*args == ' ' || *args == '\t') args++;
        if (!m) rc = nn_error_set(NN_ERR_VALUE, "Line magic function `%%%s` not found.", name);
        else rc = m->run(app, args);
        if (rc < 0) error = error_text(app, app->code_failed ? NULL : nn_error_current() == NN_ERR_VALUE ? "UsageError" : "");
    } else {
        nn_object *value = NULL;
        rc = repl_exec(app->interp, source, "<inspector>", REPL_PARSE_SINGLE, &value);
        /* a one-line compound statement ("for i in range(9): step()") is complete
           as a file (command_complete lets it run at Enter) */
        if (rc == -2) rc = repl_exec(app->interp, source, "<inspector>", REPL_PARSE_FILE, NULL);
        if (rc < 0) {
            error = error_text(app, NULL);
        } else if (value && !(silent = repl_app_echo_suppressed(source))) {
            char *text = repl_repr(app->interp, value);
            if (text) repl_app_printf(app, "%s\n", text);
            nn_free(text);
        }
        NN_RELEASE(value);
    }
    repl_cell_status status = rc >= 0 ? REPL_CELL_OK
                              : nn_error_current() == NN_ERR_KEYBOARD_INTERRUPT ? REPL_CELL_INTERRUPTED
                                                                                 : REPL_CELL_ERROR;
    nn_error_clear();
    app->code_failed = saved_failed;
    app->out_write = saved_out, app->err_write = saved_err;
    app->out_ud = saved_out_ud, app->err_ud = saved_err_ud;
    app->next_cell = saved_next;
    *res = (repl_cell_result){.number = number, .source = source, .output = out.buf ? out.buf : "", .error = error,
                              .status = status, .started = started, .duration = seconds_now() - started,
                              .rng_state = rng, .view = view, .silent = silent};
    if (app->sessions) repl_app_sessions_record(app, res);
    res->output = out.buf;
    res->rng_state = NULL;
    nn_free(rng);
    return rc < 0 ? -1 : 0;
}

/* insp_run_fn: a statement or a magic line typed in the view, run in the app's
   interpreter as the next cell of the session (recorded, in the readline history). */
static int run_statement(void *ctx, const char *source, char **output)
{
    repl_app *app = ctx;
    int64_t number = app->next_cell + 1 + app->view_cells++;
    repl_cell_result res;
    int rc = run_in_view(app, app->next_cell, number, source, &res);
    repl_app_history_add(res.source);
    sbuf all = {0};
    if (res.output) repl_sb_puts(&all, res.output);
    if (res.error) repl_sb_printf(&all, "%s\n", res.error);
    nn_free((char *)res.output);
    nn_free((char *)res.error);
    if (all.failed) nn_error_clear();
    *output = all.failed ? NULL : all.buf;
    return rc;
}

int repl_app_inspect_replay_statement(repl_app *app, int64_t view, int64_t number, const char *source,
                                      repl_cell_result *res)
{
    return run_in_view(app, view, number, source, res);
}

/* ------------------------------------------------------------- opening */

/* What follows the view's closing: the hooks come off unless the breakpoint
   needs them (then a note says so). */
static void close_view(repl_app *app, struct repl_app_inspect *st)
{
    st->open = false;
    if (st->break_nan) repl_app_printf(app, "(%%break nan keeps the inspector's hooks on; %%break off removes them)\n");
    else drop_session(st);
}

/* Opens the view on model (or prints the text tables without a terminal; in a
   replay, attaches headless and replays the statements typed in the view). */
static int inspect_model(repl_app *app, nn_module *model)
{
    struct repl_app_inspect *st = state(app);
    if (!st) return -1;
    if (st->open) return nn_error_set(NN_ERR_RUNTIME, "inspect: the inspector is already open");
    bool fresh = !(st->session && st->model == model);
    insp_session *s = session_on(app, model);
    if (!s) return -1;
    if (app->opt.headless) {
        st->open = true;
        int rc = app->view_replay ? app->view_replay(app, app->next_cell, app->view_replay_ud) : 0;
        close_view(app, st);
        return rc;
    }
    if (!app->opt.interactive || !insp_tui_available()) {
        char *text = insp_report_text(s);
        if (!text) return -1;
        repl_app_write(app, text, strlen(text));
        nn_free(text);
        if (fresh)
            repl_app_printf(app, "(no terminal: text tables; the inspector records this model's passes from now on, "
                                 "inspect() again shows them, %%inspect off stops)\n");
        return 0;
    }
    st->open = true;
    fflush(stdout);
    /* the up arrow recalls the notebook's history, statements typed in earlier views included */
    const char *recent[100];
    size_t n_recent = repl_app_history_recent(recent, sizeof recent / sizeof recent[0]);
    insp_tui_set_history(recent, n_recent);
    int rc = insp_tui_run(s, run_statement, command_complete, app);
    insp_tui_set_history(NULL, 0);
    close_view(app, st);
    return rc;
}

/* insp_scalar_fn: a tracked name's value in __main__ (a number, or a tensor of one
   element), read after each training step. */
static int scalar_value(void *ud, const char *name, double *value)
{
    repl_app *app = ud;
    nn_object *o = repl_get_global(app->interp, name);
    if (!o) return -1;
    if (nn_is_bool(o) || nn_is_int(o)) *value = (double)nn_int_value(o);
    else if (nn_is_float(o)) *value = nn_float_value(o);
    else if (nn_is_tensor(o) && nn_numel(NN_TENSOR(o)) == 1) nn_to_doubles(NN_TENSOR(o), value);
    else return -1;
    return 0;
}

/* Tracks each name of the list (comma- or space-separated text, or a list/tuple
   of str) on the session. 0 or -1 with the error. */
static int track_names(repl_app *app, insp_session *s, const char *text, nn_object *seq)
{
    insp_set_scalar_source(s, scalar_value, app);
    if (seq) {
        bool list = nn_is_list(seq);
        if (!list && seq->type != &nn_tuple_type && !nn_is_str(seq))
            return nn_error_set(NN_ERR_TYPE, "inspect(): track must be a list of variable names");
        if (nn_is_str(seq)) return track_names(app, s, nn_str_cstr(seq), NULL);
        size_t n = list ? nn_list_len(seq) : nn_tuple_len(seq);
        for (size_t i = 0; i < n; i++) {
            nn_object *item = list ? nn_list_get(seq, i) : nn_tuple_get(seq, i);
            if (!nn_is_str(item)) return nn_error_set(NN_ERR_TYPE, "inspect(): track must be a list of variable names");
            if (track_names(app, s, nn_str_cstr(item), NULL) < 0) return -1;
        }
        return 0;
    }
    char name[128];
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, ", ");
        if (n >= sizeof name) return nn_error_set(NN_ERR_VALUE, "track: name too long");
        memcpy(name, p, n);
        name[n] = 0;
        if (n && insp_track(s, name) < 0) return -1;
        p += n;
        p += strspn(p, ", ");
    }
    return 0;
}

static int magic_inspect(repl_app *app, const char *args)
{
    /* MODEL [--track NAME[,NAME...]]... */
    const char *opt = strstr(args, "--track");
    if (opt) {
        char expr[512];
        size_t n = (size_t)(opt - args);
        while (n && args[n - 1] == ' ') n--;
        if (n >= sizeof expr) return repl_app_usage_error(app, "inspect: model expression too long");
        memcpy(expr, args, n);
        expr[n] = 0;
        nn_module *model = module_arg(app, "inspect", expr, NULL);
        if (!model) return -1;
        insp_session *s = session_on(app, model);
        int rc = s ? 0 : -1;
        for (const char *p = opt; rc == 0 && p; p = strstr(p, "--track")) {
            p += 7;
            char names[256];
            size_t k = strcspn(p, "-");
            if (k >= sizeof names) k = sizeof names - 1;
            memcpy(names, p, k);
            names[k] = 0;
            rc = track_names(app, s, names + strspn(names, " "), NULL);
        }
        if (rc == 0) rc = inspect_model(app, model);
        NN_RELEASE(model);
        return rc;
    }
    if (!strcmp(args, "off")) {
        if (app->inspect) {
            app->inspect->break_nan = false;
            drop_session(app->inspect);
        }
        return 0;
    }
    nn_module *model = module_arg(app, "inspect", args, NULL);
    if (!model) return -1;
    int rc = inspect_model(app, model);
    NN_RELEASE(model);
    return rc;
}

static nn_object *builtin_inspect(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)ud;
    nn_object *track = kwargs ? nn_dict_get_str(kwargs, "track") : NULL;
    if (nn_tuple_len(args) != 1 || (kwargs && nn_dict_len(kwargs) != (track ? 1 : 0))) {
        nn_error_set(NN_ERR_TYPE, "inspect() takes exactly one argument (the model) and track=[names]");
        return NULL;
    }
    if (!inspect_app) {
        nn_error_set(NN_ERR_RUNTIME, "inspect() needs the nnscope front end");
        return NULL;
    }
    nn_module *model = module_arg(inspect_app, "inspect", NULL, nn_tuple_get(args, 0));
    if (!model) return NULL;
    int rc = 0;
    if (track) {
        insp_session *s = session_on(inspect_app, model);
        rc = s ? track_names(inspect_app, s, NULL, track) : -1;
    }
    if (rc == 0) rc = inspect_model(inspect_app, model);
    NN_RELEASE(model);
    return rc < 0 ? NULL : nn_retain(nn_none());
}

/* ------------------------------------------------------------ %break */

static int magic_break(repl_app *app, const char *args)
{
    struct repl_app_inspect *st = state(app);
    if (!st) return -1;
    if (!*args) {
        repl_app_printf(app, "NaN/Inf breakpoint: %s\n", st->break_nan ? "on" : "off");
        return 0;
    }
    if (!strcmp(args, "off") || !strcmp(args, "nan off")) {
        st->break_nan = false;
        if (st->session) insp_break_nan(st->session, false);
        if (st->session && !st->open) drop_session(st); /* its hooks were only there for the breakpoint */
        repl_app_printf(app, "NaN/Inf breakpoint off\n");
        return 0;
    }
    if (strncmp(args, "nan", 3) || (args[3] && args[3] != ' ')) return repl_app_usage_error(app, "usage: %%break nan [MODEL] | %%break off");
    const char *expr = args + 3;
    while (*expr == ' ') expr++;
    if (*expr) {
        nn_module *model = module_arg(app, "break", expr, NULL);
        if (!model) return -1;
        insp_session *s = st->open && st->model != model ? NULL : session_on(app, model);
        NN_RELEASE(model);
        if (!s) return st->open ? nn_error_set(NN_ERR_RUNTIME, "break: the inspector is open on another model") : -1;
    } else if (!st->session) {
        return repl_app_usage_error(app, "break: which model? %%break nan MODEL (or open %%inspect MODEL first)");
    }
    st->break_nan = true;
    insp_break_nan(st->session, true);
    repl_app_printf(app, "NaN/Inf breakpoint on (%s): statements stop at the first module whose output or gradient holds NaN or Inf\n",
                    nn_module_name(st->model));
    return 0;
}

/* ------------------------------------------------------------ %hooks */

/* Lists the hooks of one dict; with_flags (borrowed or NULL) adds a note per id. */
static int list_hooks(repl_app *app, const char *kind, const char *path, nn_object *dict, nn_object *flags,
                      const char *flag_note, int *count)
{
    size_t pos = 0;
    nn_object *k, *v;
    while (nn_dict_next(dict, &pos, &k, &v)) {
        char *text = repl_repr(app->interp, v);
        if (!text) return -1;
        bool flagged = flags && nn_dict_get(flags, k);
        repl_app_printf(app, "%-22s %-24s %6lld  %s%s\n", kind, *path ? path : "(root)", (long long)nn_int_value(k), text,
                        flagged ? flag_note : "");
        nn_free(text);
        (*count)++;
    }
    return 0;
}

static int magic_hooks(repl_app *app, const char *args)
{
    nn_module *model = module_arg(app, "hooks", args, NULL);
    if (!model) return -1;
    nn_object *mods = nn_module_named_modules(model, "", true);
    int count = 0, rc = mods ? 0 : -1;
    if (rc == 0) repl_app_printf(app, "%-22s %-24s %6s  %s\n", "kind", "module", "id", "hook");
    for (size_t i = 0; rc == 0 && i < nn_list_len(mods); i++) {
        nn_object *pair = nn_list_get(mods, i);
        const char *path = nn_str_cstr(nn_tuple_get(pair, 0));
        nn_module *m = NN_MODULE(nn_tuple_get(pair, 1));
        const char *bwd = m->is_full_backward_hook == 0 ? "backward (deprecated)" : "full_backward";
        if (list_hooks(app, "forward_pre", path, m->forward_pre_hooks, m->forward_pre_hooks_with_kwargs, " (with_kwargs)", &count) < 0 ||
            list_hooks(app, "forward", path, m->forward_hooks, m->forward_hooks_always_called, " (always_call)", &count) < 0 ||
            list_hooks(app, "full_backward_pre", path, m->backward_pre_hooks, NULL, NULL, &count) < 0 ||
            list_hooks(app, bwd, path, m->backward_hooks, NULL, NULL, &count) < 0 ||
            list_hooks(app, "state_dict_pre", path, m->state_dict_pre_hooks, NULL, NULL, &count) < 0 ||
            list_hooks(app, "state_dict", path, m->state_dict_hooks, NULL, NULL, &count) < 0 ||
            list_hooks(app, "load_state_dict_pre", path, m->load_state_dict_pre_hooks, NULL, NULL, &count) < 0 ||
            list_hooks(app, "load_state_dict_post", path, m->load_state_dict_post_hooks, NULL, NULL, &count) < 0)
            rc = -1;
    }
    if (rc == 0) repl_app_printf(app, "%d hook%s on %zu module%s\n", count, count == 1 ? "" : "s", nn_list_len(mods),
                                 nn_list_len(mods) == 1 ? "" : "s");
    NN_RELEASE(mods);
    NN_RELEASE(model);
    return rc;
}

/* ------------------------------------------------------------ the tables */

const repl_magic repl_magics_inspect[] = {
    {"inspect", "%inspect MODEL [--track NAME[,NAME]] | %inspect off",
     "open the full-screen inspector on MODEL (text tables without a terminal); --track: record each variable "
     "after every training step (the s view); off: remove its hooks",
     magic_inspect},
    {"break", "%break nan [MODEL] | %break off", "stop a statement at the first module whose output or gradient holds NaN/Inf",
     magic_break},
    {"hooks", "%hooks MODEL", "list every hook on MODEL and its submodules (kind, module, id, hook)", magic_hooks},
    {NULL, NULL, NULL, NULL},
};

static const repl_function_def inspect_def = {
    "inspect", builtin_inspect,
    "inspect(model, track=None)\nOpens the full-screen inspector on model: its modules, activations and gradients live "
    "from hooks (q quits, ? lists the keys); without a terminal, prints them as text tables. track: names of "
    "variables (['loss']) recorded after every training step and drawn as curves (key s).",
};

int repl_app_inspect_install(repl_app *app)
{
    /* a namespace makes the documented function object; the name goes into __main__ */
    nn_object *ns = repl_namespace_new("builtins"), *fn = NULL;
    int rc = -1;
    if (ns && repl_namespace_add_fn(ns, &inspect_def) == 0 && (fn = repl_namespace_getattr(ns, "inspect")))
        rc = repl_set_global(app->interp, "inspect", fn);
    NN_RELEASE(fn);
    NN_RELEASE(ns);
    if (rc == 0) inspect_app = app;
    return rc;
}

void repl_app_inspect_reset(repl_app *app)
{
    struct repl_app_inspect *st = app->inspect;
    if (!st || st->open) return; /* an open view holds its model until it is quit */
    st->break_nan = false;
    drop_session(st);
}

void repl_app_inspect_close(repl_app *app)
{
    if (inspect_app == app) inspect_app = NULL;
    if (!app->inspect) return;
    drop_session(app->inspect);
    nn_free(app->inspect);
    app->inspect = NULL;
}
