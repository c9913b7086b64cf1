/*
 * app_sessions.c — the front end's use of the sessions store (sessions/sess.h):
 * recording every finished cell, the session magics (%sessions %name %snapshot
 * %snapshots %restore %replay %export %export_snapshot %search) and the
 * command-line actions (--list, --replay, --export). Replay runs a session's
 * cells in a fresh repl_app, not recorded, from the recorded generator states.
 * Not here: the store itself (sessions/), cell execution (app.c).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app.h"
#include "bind.h"
#include "../sessions/sess.h"

struct repl_app_sessions {
    sess_db *db;
    int64_t session_id; /* the session being recorded */
    bool warned;        /* a failed write was reported (once per session) */
};

/* A magic's SESSION: "." is this session, the one being recorded (a lesson's
   %replay . --verify), else a name or an id (sess_session_resolve). SESS_OK, or
   another status with the error set. */
static sess_status resolve_session(repl_app *app, sess_db *db, const char *session, int64_t *id)
{
    if (strcmp(session, ".") != 0) return sess_session_resolve(db, session, id);
    if (!app || !app->sessions) {
        nn_error_set(NN_ERR_VALUE, "'.' names this session, and this session is not recorded");
        return SESS_MISUSE;
    }
    *id = app->sessions->session_id;
    return SESS_OK;
}

/* ------------------------------------------------------------------ output */

/* Writes to the running cell of app (its output and capture), or to stdout for
   the command-line actions (app NULL). */
static void say(repl_app *app, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(repl_app *app, const char *fmt, ...)
{
    char small[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    char *text = small;
    if ((size_t)n >= sizeof small) {
        if (!(text = nn_malloc((size_t)n + 1))) {
            nn_error_clear();
            return;
        }
        va_start(ap, fmt);
        vsnprintf(text, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    if (app) repl_app_write(app, text, (size_t)n);
    else fwrite(text, 1, (size_t)n, stdout);
    if (text != small) nn_free(text);
}

static void say_bytes(repl_app *app, const char *s, size_t n)
{
    if (app) repl_app_write(app, s, n);
    else fwrite(s, 1, n, stdout);
}

/* A name or line on one table row: control characters shown as spaces, at most
   width bytes (cut at a UTF-8 boundary, marked with "..."). Into buf (cap bytes). */
static const char *one_line(const char *s, size_t width, char *buf, size_t cap)
{
    size_t n = 0;
    if (!s) s = "";
    for (; *s && n + 1 < cap && n < width; s++) buf[n++] = (unsigned char)*s < 0x20 ? ' ' : *s;
    if (*s && width >= 3 && n >= 3) {
        n -= 3;
        while (n > 0 && ((unsigned char)buf[n] & 0xc0) == 0x80) n--; /* not inside a character */
        memcpy(buf + n, "...", 3);
        n += 3;
    }
    buf[n] = '\0';
    return buf;
}

/* A Unix time as local "YYYY-MM-DD HH:MM:SS" into buf. */
static const char *local_time(double t, char buf[32])
{
    time_t secs = (time_t)t;
    struct tm tm;
    if (!localtime_r(&secs, &tm) || !strftime(buf, 32, "%Y-%m-%d %H:%M:%S", &tm)) snprintf(buf, 32, "%.0f", t);
    return buf;
}

/* ------------------------------------------------------------------ the store */

/* The database the options name: --db PATH, else $NNSCOPE_DB, else NULL (the default path). */
static const char *db_path_of(const repl_app_options *opt)
{
    if (opt->db_path && *opt->db_path) return opt->db_path;
    const char *env = getenv("NNSCOPE_DB");
    return env && *env ? env : NULL;
}

/* Opens an existing store for reading (a missing file is not created: *missing is
   set and the error says so). 0, or -1 with the error set. */
static int open_existing(const repl_app_options *opt, sess_db **db, bool *missing)
{
    *db = NULL;
    if (missing) *missing = false;
    const char *path = db_path_of(opt);
    char *default_path = NULL;
    if (!path && !(path = default_path = sess_default_path())) return -1;
    struct stat sb;
    int rc = 0;
    if (stat(path, &sb) != 0) {
        if (missing) *missing = true;
        rc = nn_error_set(NN_ERR_RUNTIME, "no sessions recorded yet: there is no database at %s", path);
    } else {
        sess_status st = sess_open(path, 0, db);
        if (st == SESS_READONLY) { /* a file we may read but not write (or migrate) */
            nn_error_clear();
            st = sess_open(path, SESS_OPEN_READONLY, db);
        }
        if (st) rc = -1;
    }
    nn_free(default_path);
    return rc;
}

/* The store a magic reads: the recording one, else the options' database opened
   now (*opened is then set, for close_store). NULL with the error set. */
static sess_db *store_for_reading(repl_app *app, sess_db **opened)
{
    *opened = NULL;
    if (app->sessions && app->sessions->db) return app->sessions->db;
    if (open_existing(&app->opt, opened, NULL) < 0) return NULL;
    return *opened;
}

/* The recording store, or NULL with a RuntimeError naming the magic. */
static sess_db *store_for_writing(repl_app *app, const char *magic)
{
    if (app->sessions && app->sessions->db) return app->sessions->db;
    nn_error_set(NN_ERR_RUNTIME, "%%%s: this session is not recorded (--no-record, or the store could not be opened)",
                 magic);
    return NULL;
}

/* ------------------------------------------------------------------ recording */

int repl_app_sessions_open(repl_app *app)
{
    struct repl_app_sessions *s = nn_calloc(1, sizeof *s);
    void *rng = nn_malloc(nn_generator_state_size());
    if (!s || !rng) goto fail;
    if (sess_open(db_path_of(&app->opt), 0, &s->db)) goto fail;
    nn_generator_get_state(nn_default_generator(), rng);
    const char *script = app->opt.interactive ? NULL : app->opt.script ? app->opt.script : "<script>";
    const char *name = app->opt.session_name;
    sess_status st = sess_session_begin(s->db, name, script, rng, &s->session_id);
    if (st == SESS_CONSTRAINT && name) {
        /* the work matters more than the name: record it unnamed */
        fprintf(stderr, "nnscope: warning: %s; this session is recorded without a name (%%name NAME names it)\n",
                nn_error_message());
        nn_error_clear();
        st = sess_session_begin(s->db, NULL, script, rng, &s->session_id);
    }
    if (st) goto fail;
    nn_free(rng);
    app->sessions = s;
    return 0;
fail:
    if (nn_error_current() == NN_OK) nn_error_set(NN_ERR_MEMORY, "out of memory opening the sessions store");
    if (s) sess_close(s->db);
    nn_free(s);
    nn_free(rng);
    return -1;
}

void repl_app_sessions_record(repl_app *app, const repl_cell_result *cell)
{
    struct repl_app_sessions *s = app->sessions;
    if (!s || !s->db) return;
    char *volatile_lines = sess_volatile_lines(cell->source, cell->output);
    nn_error_clear(); /* no list (MemoryError): every line is compared */
    sess_cell_meta meta = {.view = cell->view, .volatile_lines = volatile_lines, .silent = cell->silent};
    sess_status st = sess_cell_record_meta(s->db, s->session_id, cell->number, cell->source, cell->output,
                                           cell->error, (sess_cell_status)cell->status, cell->started,
                                           cell->duration, cell->rng_state, &meta);
    nn_free(volatile_lines);
    if (st && !s->warned) {
        fprintf(stderr, "nnscope: warning: cell %lld was not recorded in %s: %s\n", (long long)cell->number,
                sess_db_path(s->db), nn_error_message());
        s->warned = true;
    }
    nn_error_clear();
}

void repl_app_sessions_close(repl_app *app)
{
    struct repl_app_sessions *s = app->sessions;
    if (!s) return;
    if (s->db && sess_session_end(s->db, s->session_id)) nn_error_clear();
    sess_close(s->db);
    nn_free(s);
    app->sessions = NULL;
}

/* ------------------------------------------------------------------ listing */

/* The %sessions / --list table. 0, or -1 with the error set. */
static int print_sessions(repl_app *app, sess_db *db, int64_t current)
{
    sess_session_info *a;
    size_t n;
    if (sess_list_sessions(db, &a, &n)) return -1;
    if (n == 0) say(app, "No sessions recorded yet.\n");
    size_t width = 4;
    for (size_t i = 0; i < n; i++) {
        size_t len = a[i].name ? strlen(a[i].name) : 0;
        if (len > width) width = len < 40 ? len : 40;
    }
    if (n) say(app, "%6s  %-*s  %-19s  %5s  %9s\n", "id", (int)width, "name", "started", "cells", "snapshots");
    for (size_t i = 0; i < n; i++) {
        char name[160], started[32];
        one_line(a[i].name, width, name, sizeof name);
        say(app, "%5lld%s  %-*s  %-19s  %5lld  %9lld\n", (long long)a[i].id, a[i].id == current ? "*" : " ",
            (int)width, name, local_time(a[i].started, started), (long long)a[i].cells, (long long)a[i].snapshots);
    }
    if (current > 0) say(app, "(* this session)\n");
    sess_session_info_free(a, n);
    return 0;
}

static int magic_sessions(repl_app *app, const char *args)
{
    if (*args) return repl_app_usage_error(app, "%%sessions takes no arguments");
    sess_db *opened, *db = store_for_reading(app, &opened);
    if (!db) return -1;
    int rc = print_sessions(app, db, app->sessions ? app->sessions->session_id : 0);
    sess_close(opened);
    return rc;
}

/* Whether s is all decimal digits (it would read as a session id). */
static bool is_number(const char *s)
{
    if (!*s) return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s)) return false;
    return true;
}

static int magic_name(repl_app *app, const char *args)
{
    if (!*args) return repl_app_usage_error(app, "%%name needs a name: %%name NAME");
    if (is_number(args))
        return repl_app_usage_error(app, "a session name cannot be a number (it would read as a session id)");
    sess_db *db = store_for_writing(app, "name");
    if (!db || sess_session_name(db, app->sessions->session_id, args)) return -1;
    say(app, "Session %lld is named '%s'.\n", (long long)app->sessions->session_id, args);
    return 0;
}

/* ------------------------------------------------------------------ arguments */

/* Splits args into at most max whitespace-separated words, the last taking the rest
   of the line; the words point into buf (a copy of args). Returns the count, or -1
   when args does not fit in buf (callers then print their usage). */
static int split_args(const char *args, char *buf, size_t cap, char **words, int max)
{
    if (strlen(args) >= cap) return -1;
    memcpy(buf, args, strlen(args) + 1);
    int n = 0;
    char *p = buf;
    while (*p && n < max) {
        while (isspace((unsigned char)*p)) p++;
        if (!*p) break;
        words[n++] = p;
        if (n == max) break;
        while (*p && !isspace((unsigned char)*p)) p++;
        if (*p) *p++ = '\0';
    }
    if (n) { /* the rest-of-line word without trailing spaces */
        char *e = words[n - 1] + strlen(words[n - 1]);
        while (e > words[n - 1] && isspace((unsigned char)e[-1])) *--e = '\0';
    }
    return n;
}

/* The module an expression names in the app's namespace (a new reference), or NULL
   with the error set (the expression's own, or TypeError for a non-module). */
static nn_module *eval_module(repl_app *app, const char *expr, const char *magic)
{
    nn_object *obj = NULL;
    if (repl_app_exec(app, expr, "<magic>", REPL_PARSE_EVAL, &obj) != 0) return NULL;
    if (!nn_is_module(obj)) {
        nn_error_set(NN_ERR_TYPE, "%%%s needs an nn.Module, but '%s' is a '%s'", magic, expr,
                     obj ? repl_value_type_name(obj) : "None");
        NN_RELEASE(obj);
        return NULL;
    }
    return NN_MODULE(obj);
}

/* ------------------------------------------------------------------ snapshots */

static int magic_snapshot(repl_app *app, const char *args)
{
    char buf[1024], *w[2];
    int n = split_args(args, buf, sizeof buf, w, 2);
    if (n < 1 || (n == 2 && strpbrk(w[1], " \t")))
        return repl_app_usage_error(app, "usage: %%snapshot MODEL [TAG]");
    sess_db *db = store_for_writing(app, "snapshot");
    if (!db) return -1;
    nn_module *model = eval_module(app, w[0], "snapshot");
    if (!model) return -1;
    nn_object *sd = nn_module_state_dict(model, "", false);
    NN_RELEASE(model);
    if (!sd) return -1;
    int64_t id;
    sess_status st = sess_snapshot_save(db, app->sessions->session_id, app->next_cell, w[0], n == 2 ? w[1] : NULL,
                                        sd, &id);
    size_t tensors = nn_dict_len(sd);
    NN_RELEASE(sd);
    if (st) return -1;
    say(app, "Snapshot %lld: %s.state_dict(), %zu tensor%s", (long long)id, w[0], tensors, tensors == 1 ? "" : "s");
    if (n == 2) say(app, ", tag '%s'", w[1]);
    say(app, ".\n");
    return 0;
}

static const char *human_size(int64_t bytes, char buf[32])
{
    if (bytes < 1000) snprintf(buf, 32, "%lld B", (long long)bytes);
    else if (bytes < 1000 * 1000) snprintf(buf, 32, "%.1f kB", bytes / 1e3);
    else if (bytes < 1000LL * 1000 * 1000) snprintf(buf, 32, "%.1f MB", bytes / 1e6);
    else snprintf(buf, 32, "%.1f GB", bytes / 1e9);
    return buf;
}

static int magic_snapshots(repl_app *app, const char *args)
{
    sess_db *opened, *db = store_for_reading(app, &opened);
    if (!db) return -1;
    int64_t session = 0;
    int rc = -1;
    sess_snapshot_info *a = NULL;
    size_t n = 0;
    if (*args && resolve_session(app, db, args, &session)) goto out;
    if (sess_list_snapshots(db, session, &a, &n)) goto out;
    if (n == 0) say(app, "No snapshots%s.\n", *args ? " in that session" : " yet");
    else say(app, "%5s  %7s  %4s  %-16s  %-12s  %-19s  %9s  %s\n", "id", "session", "cell", "model", "tag",
             "created", "size", "sha256");
    for (size_t i = 0; i < n; i++) {
        char name[80], tag[80], created[32], size[32];
        say(app, "%5lld  %7lld  %4lld  %-16s  %-12s  %-19s  %9s  %.12s\n", (long long)a[i].id,
            (long long)a[i].session, (long long)a[i].cell, one_line(a[i].name, 16, name, sizeof name),
            one_line(a[i].tag, 12, tag, sizeof tag), local_time(a[i].created, created),
            human_size(a[i].size, size), a[i].sha256);
    }
    rc = 0;
out:
    sess_snapshot_info_free(a, n);
    sess_close(opened);
    return rc;
}

/* Writes a list of str as Python's repr (['a', 'b']). */
static int say_repr(repl_app *app, nn_object *obj)
{
    char *text = repl_repr(app->interp, obj);
    if (!text) return -1;
    say(app, "%s", text);
    nn_free(text);
    return 0;
}

static int magic_restore(repl_app *app, const char *args)
{
    char buf[1024], *w[2];
    if (split_args(args, buf, sizeof buf, w, 2) != 2 || strpbrk(w[1], " \t"))
        return repl_app_usage_error(app, "usage: %%restore MODEL TAG");
    nn_module *model = eval_module(app, w[0], "restore");
    if (!model) return -1;
    sess_db *opened, *db = store_for_reading(app, &opened);
    nn_object *sd = NULL, *keys = NULL;
    int rc = -1;
    if (!db || sess_snapshot_load(db, w[1], &sd)) goto out;
    /* strict: a missing, unexpected or mismatching key is an error naming it, and
       the model keeps its parameters (core plans the load before copying) */
    if (!(keys = nn_module_load_state_dict(model, sd, true, false))) goto out;
    nn_object *missing = nn_tuple_get(keys, 0), *unexpected = nn_tuple_get(keys, 1);
    if (nn_list_len(missing) == 0 && nn_list_len(unexpected) == 0) {
        say(app, "<All keys matched successfully>\n");
    } else {
        say(app, "_IncompatibleKeys(missing_keys=");
        if (say_repr(app, missing) < 0) goto out;
        say(app, ", unexpected_keys=");
        if (say_repr(app, unexpected) < 0) goto out;
        say(app, ")\n");
    }
    rc = 0;
out:
    NN_RELEASE(keys);
    NN_RELEASE(sd);
    NN_RELEASE(model);
    sess_close(opened);
    return rc;
}

static int magic_export_snapshot(repl_app *app, const char *args)
{
    char buf[4200], *w[2];
    if (split_args(args, buf, sizeof buf, w, 2) != 2)
        return repl_app_usage_error(app, "usage: %%export_snapshot TAG FILE.safetensors");
    sess_db *opened, *db = store_for_reading(app, &opened);
    int rc = db && sess_snapshot_export(db, w[0], w[1]) == SESS_OK ? 0 : -1;
    if (rc == 0) say(app, "Wrote snapshot '%s' to %s.\n", w[0], w[1]);
    sess_close(opened);
    return rc;
}

/* Prints what changed between snapshots a and b (sess_snapshot_diff). 0 or -1. */
static int diff_snapshots(repl_app *app, sess_db *db, const char *a, const char *b)
{
    char *text;
    if (sess_snapshot_diff(db, a, b, &text)) return -1;
    say_bytes(app, text, strlen(text));
    nn_free(text);
    return 0;
}

static int magic_diff(repl_app *app, const char *args)
{
    char buf[1024], *w[2];
    if (split_args(args, buf, sizeof buf, w, 2) != 2 || strpbrk(w[1], " \t"))
        return repl_app_usage_error(app, "usage: %%diff SNAPSHOT_A SNAPSHOT_B (an id, tag, model name or SESSION:TAG)");
    sess_db *opened, *db = store_for_reading(app, &opened);
    int rc = db ? diff_snapshots(app, db, w[0], w[1]) : -1;
    sess_close(opened);
    return rc;
}

/* ------------------------------------------------------------------ search, export */

static int magic_search(repl_app *app, const char *args)
{
    if (!*args) return repl_app_usage_error(app, "%%search needs text: %%search TEXT");
    sess_db *opened, *db = store_for_reading(app, &opened);
    sess_search_hit *hits = NULL;
    size_t n = 0;
    int rc = db && sess_search(db, args, &hits, &n) == SESS_OK ? 0 : -1;
    /* IPython's %history -g format: session/cell: line */
    for (size_t i = 0; i < n; i++)
        say(app, "%lld/%lld: %s\n", (long long)hits[i].session, (long long)hits[i].number, hits[i].line);
    if (rc == 0 && n == 0) say(app, "No cell matches '%s'.\n", args);
    sess_search_hit_free(hits, n);
    sess_close(opened);
    return rc;
}

/* Whether path ends in ext. */
static bool ends_with(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    return n > e && strcmp(path + n - e, ext) == 0;
}

/* Exports a session to path (.py or .ipynb); says what it wrote. 0 or -1. */
static int export_session(repl_app *app, sess_db *db, const char *session, const char *path)
{
    if (!ends_with(path, ".py") && !ends_with(path, ".ipynb"))
        return nn_error_set(NN_ERR_VALUE, "the export file must end in .py or .ipynb, not '%s'", path);
    int64_t id;
    sess_session_info info;
    if (resolve_session(app, db, session, &id) || sess_export_file(db, id, path)) return -1;
    if (sess_session_get(db, id, &info)) return -1;
    say(app, "Exported session %lld (%lld cells) to %s.\n", (long long)id, (long long)info.cells, path);
    sess_session_info_clear(&info);
    return 0;
}

static int magic_export(repl_app *app, const char *args)
{
    char buf[4200], *w[2];
    if (split_args(args, buf, sizeof buf, w, 2) != 2)
        return repl_app_usage_error(app, "usage: %%export SESSION FILE.py|FILE.ipynb");
    sess_db *opened, *db = store_for_reading(app, &opened);
    int rc = db ? export_session(app, db, w[0], w[1]) : -1;
    sess_close(opened);
    return rc;
}

/* ------------------------------------------------------------------ replay */

/* The magic a cell's source is (its table entry), or NULL when it is code. */
static const repl_magic *cell_magic(const char *source)
{
    while (isspace((unsigned char)*source)) source++;
    if (*source != '%' || strchr(source, '\n')) return NULL;
    char name[64];
    size_t n = 0;
    for (const char *p = source + 1; (isalnum((unsigned char)*p) || *p == '_') && n + 1 < sizeof name; p++)
        name[n++] = *p;
    name[n] = '\0';
    return repl_magic_find(name);
}

/* A cell replay does not re-run: a session magic other than %restore (they act
   on the database, not on the interpreter; %replay would recurse). */
static const char *not_rerun_reason(const sess_cell_info *c)
{
    const repl_magic *m = cell_magic(c->source);
    for (const repl_magic *t = repl_magics_sessions; m && t->name; t++)
        if (t == m && m->run != magic_restore) return "a session magic, acting on the database";
    if (m && m == &repl_magics_debug[0]) return "the debugger, a dialogue at the terminal";
    return NULL;
}

/* The last line of an error text (the "Kind: message" line), as start and length. */
static void last_line(const char *text, const char **start, size_t *len)
{
    if (!text) text = "";
    size_t n = strlen(text);
    while (n > 0 && text[n - 1] == '\n') n--;
    size_t b = n;
    while (b > 0 && text[b - 1] != '\n') b--;
    *start = text + b;
    *len = n - b;
}

static const char *const status_word[] = {"ok", "error", "interrupted"};

/* Whether a replayed cell did what the recording says: the same output (addresses
   and volatile lines aside: sess_output_normalise), status and exception line
   (tracebacks' file names and line numbers may differ). */
static bool same_outcome(const sess_cell_info *rec, const repl_cell_result *now)
{
    char *na = sess_output_normalise(rec->output, rec->volatile_lines);
    char *nb = sess_output_normalise(now->output ? now->output : "", rec->volatile_lines);
    bool same_output = na && nb && strcmp(na, nb) == 0;
    if (!na || !nb) nn_error_clear();
    nn_free(na);
    nn_free(nb);
    if (!same_output) return false;
    if ((int)rec->status != (int)now->status) return false;
    const char *a, *b;
    size_t la, lb;
    last_line(rec->error, &a, &la);
    last_line(now->error, &b, &lb);
    return la == lb && memcmp(a, b, la) == 0;
}

/* Says how a replayed cell differs: the first differing output line, else the
   status and exception lines. */
static void report_difference(repl_app *app, const sess_cell_info *rec, const repl_cell_result *now)
{
    say(app, "!! In [%lld] differs from the recording:\n", (long long)rec->number);
    char *na = sess_output_normalise(rec->output, rec->volatile_lines);
    char *nb = sess_output_normalise(now->output ? now->output : "", rec->volatile_lines);
    if (!na || !nb) nn_error_clear();
    const char *a = na ? na : rec->output, *b = nb ? nb : now->output ? now->output : "";
    const char *a0 = a;
    if (strcmp(a, b) != 0) {
        int line = 1;
        while (*a && *a == *b) {
            if (*a == '\n') line++;
            a++, b++;
        }
        while (a > a0 && a[-1] != '\n') a--, b--; /* back to the line's start */
        size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
        say(app, "!!   output line %d, recorded: %.*s%s\n", line, (int)la, a, *a ? "" : "(end of output)");
        say(app, "!!   output line %d, replayed: %.*s%s\n", line, (int)lb, b, *b ? "" : "(end of output)");
        nn_free(na);
        nn_free(nb);
        return;
    }
    nn_free(na);
    nn_free(nb);
    const char *ea, *eb;
    size_t la, lb;
    last_line(rec->error, &ea, &la);
    last_line(now->error, &eb, &lb);
    say(app, "!!   recorded: %s%s%.*s\n", status_word[rec->status], la ? ", " : "", (int)la, ea);
    say(app, "!!   replayed: %s%s%.*s\n", status_word[now->status], lb ? ", " : "", (int)lb, eb);
}

/* "In [n]: " then the source, continuation lines under IPython's "...: ". */
static void echo_cell(repl_app *app, int64_t number, const char *source)
{
    char prompt[40];
    int width = snprintf(prompt, sizeof prompt, "In [%lld]: ", (long long)number);
    size_t n = strlen(source);
    while (n > 0 && (source[n - 1] == '\n' || source[n - 1] == '\r')) n--;
    say(app, "%s", prompt);
    for (size_t i = 0; i < n;) {
        size_t l = 0;
        while (i + l < n && source[i + l] != '\n') l++;
        if (i > 0) say(app, "%*s", width, "...: ");
        say_bytes(app, source + i, l);
        say(app, "\n");
        i += l + 1;
    }
    if (n == 0) say(app, "\n");
}

/* Output and error hooks of the replaying app. */
static void to_sink(void *ud, const char *s, size_t n) { say_bytes(ud, s, n); }
static void discard(void *ud, const char *s, size_t n) {}

/* Runs source followed by a newline as a cell; repl_app_run_cell's status. */
static int run_with_newline(repl_app *app, const char *source, const char *filename)
{
    size_t n = strlen(source);
    char *text = nn_malloc(n + 2);
    if (!text) return -1;
    memcpy(text, source, n);
    memcpy(text + n, "\n", 2);
    int rc = repl_app_run_cell(app, text, filename);
    nn_free(text);
    return rc;
}

typedef struct replay_summary {
    size_t replayed, differ, not_rerun;
    int64_t first_differing;
    size_t interrupted;        /* cells interrupted when recorded: run again, not compared */
    int64_t first_interrupted;
    size_t differ_after;       /* differing cells after the first interrupted one, counted apart */
} replay_summary;

/* One replay in progress: the session's cells, where it is, what it found. */
typedef struct replay_run {
    repl_app *app;     /* where it prints (NULL: stdout) */
    repl_app *fresh;   /* the interpreter it runs in */
    sess_session_info *info;
    sess_cell_info *cells;
    size_t n, next;    /* cells[next] is the next one to replay */
    bool verify, printed_any;
    int64_t from;
    replay_summary *sum;
} replay_run;

/* Error text to the replay's stderr (the caller's err hook, else stderr). */
static void say_error(repl_app *app, const char *text)
{
    if (app && app->err_write) {
        app->err_write(app->err_ud, text, strlen(text));
        app->err_write(app->err_ud, "\n", 1);
    } else {
        fflush(stdout);
        fprintf(stderr, "%s\n", text);
        fflush(stderr);
    }
}

/* Counts a replayed cell's comparison in the summary (and reports a difference). */
static void compare_cell(replay_run *r, const sess_cell_info *c, const repl_cell_result *now)
{
    replay_summary *sum = r->sum;
    if (c->status == SESS_CELL_INTERRUPTED) {
        say(r->app, "[interrupted when recorded: run to its end here, not compared]\n");
        if (sum->interrupted++ == 0) sum->first_interrupted = c->number;
        return;
    }
    sum->replayed++;
    if (!r->verify || same_outcome(c, now)) return;
    report_difference(r->app, c, now);
    if (sum->interrupted) sum->differ_after++;
    else if (sum->differ++ == 0) sum->first_differing = c->number;
}

static int replay_cell(replay_run *r, const sess_cell_info *c);

/* repl_app's view_replay hook: the statements typed in the view that cell `view`
   opened, replayed in order as cells, while the headless %inspect cell runs. */
static int replay_view(repl_app *fresh, int64_t view, void *ud)
{
    replay_run *r = ud;
    while (r->next < r->n && r->cells[r->next].view == view)
        if (replay_cell(r, &r->cells[r->next++]) < 0) return -1;
    return 0;
}

/* Replays one recorded cell (echoed and compared when at or after `from`). 0, or
   -1 with KeyboardInterrupt when Ctrl-C stopped the replay. */
static int replay_cell(replay_run *r, const sess_cell_info *c)
{
    repl_app *app = r->app, *fresh = r->fresh;
    bool shown = c->number >= r->from;
    fresh->out_write = shown ? to_sink : discard;
    fresh->out_ud = app;
    fresh->err_write = shown ? (app ? app->err_write : NULL) : discard;
    fresh->err_ud = app ? app->err_ud : NULL;
    if (shown) {
        if (r->printed_any) say(app, "\n");
        echo_cell(app, c->number, c->source);
        r->printed_any = true;
    }
    const char *reason = not_rerun_reason(c);
    if (reason) {
        if (shown) {
            say(app, "[not re-run: %s; its recorded output follows]\n", reason);
            say(app, "%s", c->output);
            r->sum->not_rerun++;
        }
        return 0;
    }
    nn_generator *gen = nn_default_generator();
    if (c->rng_state && nn_generator_set_state(gen, c->rng_state, c->rng_len) < 0) nn_error_clear();
    if (c->view > 0) { /* typed in an inspector view: run as the view ran it */
        repl_cell_result now;
        if (shown) say(app, "[typed in the inspector opened by In [%lld]]\n", (long long)c->view);
        nn_interrupt_requested = 0;
        repl_app_inspect_replay_statement(fresh, c->view, c->number, c->source, &now);
        if (shown && now.output) say(app, "%s", now.output);
        if (shown && now.error) say_error(app, now.error);
        int rc = 0;
        if (now.status == REPL_CELL_INTERRUPTED && c->status != SESS_CELL_INTERRUPTED)
            rc = nn_error_set(NN_ERR_KEYBOARD_INTERRUPT, "the replay was interrupted at In [%lld]", (long long)c->number);
        else if (shown)
            compare_cell(r, c, &now);
        nn_free((char *)now.output);
        nn_free((char *)now.error);
        return rc;
    }
    fresh->next_cell = c->number; /* Out[n] as recorded */
    int64_t before = fresh->next_cell;
    int run = repl_app_run_cell(fresh, c->source, r->info->script);
    if (run == -2) /* a compound statement, recorded without the empty line that ended it */
        run = run_with_newline(fresh, c->source, r->info->script);
    if (run == -2 || fresh->next_cell == before) { /* nothing ran: incomplete or blank */
        nn_error_clear();
        fresh->last = (repl_cell_result){.number = c->number, .output = "", .error = "SyntaxError: incomplete input",
                                         .status = REPL_CELL_ERROR};
    }
    if (fresh->last.status == REPL_CELL_INTERRUPTED) /* Ctrl-C stops the whole replay */
        return nn_error_set(NN_ERR_KEYBOARD_INTERRUPT, "the replay was interrupted at In [%lld]", (long long)c->number);
    if (shown) compare_cell(r, c, &fresh->last);
    return 0;
}

/* Replays session id of db: each cell (from number `from` on; earlier ones run
   silently) echoed with its output to app's cell (stdout when app is NULL), in a
   fresh app that records nothing and opens no view (a %inspect cell attaches
   headless and the statements typed in its view replay inside it, each as a
   cell), the generator set to each cell's recorded state. A cell interrupted when
   recorded runs to its end and is not compared. With verify, each other cell's
   outcome is compared with the recording and differences are reported. The
   caller's generator state is restored afterwards. 0 (the summary filled), or -1
   with the error set (KeyboardInterrupt when Ctrl-C stopped it). */
static int replay(repl_app *app, sess_db *db, int64_t id, bool verify, int64_t from, replay_summary *sum)
{
    memset(sum, 0, sizeof *sum);
    sess_session_info info;
    if (sess_session_get(db, id, &info)) return -1;
    sess_cell_info *cells = NULL;
    size_t n = 0;
    int rc = -1;
    repl_app *fresh = NULL;
    nn_generator *gen = nn_default_generator();
    void *saved_rng = nn_malloc(nn_generator_state_size());
    if (!saved_rng || sess_list_cells(db, id, &cells, &n)) goto out;
    nn_generator_get_state(gen, saved_rng);

    repl_app_options opt = {.interactive = info.script == NULL, .quiet = true, .record = false, .headless = true,
                            .db_path = sess_db_path(db), .script = info.script};
    if (!(fresh = repl_app_new(&opt))) goto out;
    replay_run r = {.app = app, .fresh = fresh, .info = &info, .cells = cells, .n = n, .verify = verify,
                    .from = from, .sum = sum};
    fresh->view_replay = replay_view;
    fresh->view_replay_ud = &r;
    while (r.next < n)
        if (replay_cell(&r, &cells[r.next++]) < 0) goto out;
    rc = 0;
out:
    if (saved_rng) nn_generator_set_state(gen, saved_rng, nn_generator_state_size());
    repl_app_free(fresh);
    nn_free(saved_rng);
    sess_cell_info_free(cells, n);
    sess_session_info_clear(&info);
    return rc;
}

/* The verify summary line. */
static void say_summary(repl_app *app, const replay_summary *sum)
{
    char extra[160] = "";
    size_t k = 0;
    if (sum->not_rerun)
        k += snprintf(extra + k, sizeof extra - k, " (%zu cell%s shown as recorded, not re-run)", sum->not_rerun,
                      sum->not_rerun == 1 ? "" : "s");
    if (sum->interrupted)
        snprintf(extra + k, sizeof extra - k, " (%zu cell%s interrupted when recorded, run but not compared)",
                 sum->interrupted, sum->interrupted == 1 ? "" : "s");
    size_t compared = sum->replayed;
    if (sum->differ == 0)
        say(app, "\nverify: all %zu replayed cells match the recording%s\n", compared - sum->differ_after, extra);
    else
        say(app, "\nverify: %zu of %zu replayed cells differ from the recording, the first In [%lld]%s\n",
            sum->differ, compared - sum->differ_after, (long long)sum->first_differing, extra);
    if (sum->differ_after)
        say(app, "verify: %zu cell%s differ after the interrupted cell %lld (what an interrupted cell did cannot "
                 "be replayed)\n", sum->differ_after, sum->differ_after == 1 ? "" : "s",
            (long long)sum->first_interrupted);
}

/* Parses "SESSION [--verify] [--from N]" (options anywhere). 0, or -1 with a UsageError. */
static int parse_replay_args(repl_app *app, const char *args, char *session, size_t cap, bool *verify,
                             int64_t *from)
{
    char buf[1024], *w[8];
    int n = split_args(args, buf, sizeof buf, w, 8);
    if (n == 8 && strpbrk(w[7], " \t")) n = 9; /* too many words */
    *verify = false;
    *from = 1;
    session[0] = '\0';
    for (int i = 0; i < n && n <= 8; i++) {
        if (!strcmp(w[i], "--verify")) {
            *verify = true;
        } else if (!strcmp(w[i], "--from")) {
            char *end;
            long long v = i + 1 < n ? strtoll(w[i + 1], &end, 10) : 0;
            if (i + 1 >= n || *end || v < 1) return repl_app_usage_error(app, "--from needs a cell number >= 1");
            *from = v;
            i++;
        } else if (!session[0] && w[i][0] != '-') {
            snprintf(session, cap, "%s", w[i]);
        } else {
            session[0] = '\0';
            break;
        }
    }
    if (!session[0]) return repl_app_usage_error(app, "usage: %%replay SESSION [--verify] [--from N]");
    return 0;
}

/* Replays session id of db in a child process, `program --replay ID --db PATH
   [--verify] [--from N]`, its stdout and stderr written as this cell's output: a
   fresh interpreter whose variables, hooks, generator and global settings are
   its own. 0, or -1 with the error set (KeyboardInterrupt when Ctrl-C stopped it,
   RuntimeError when the child could not run or failed). */
static void write_to_app(void *app, const char *data, size_t n) { repl_app_write(app, data, n); }

static int replay_in_child(repl_app *app, sess_db *db, int64_t id, bool verify, int64_t from)
{
    char id_text[32], from_text[32];
    snprintf(id_text, sizeof id_text, "%lld", (long long)id);
    snprintf(from_text, sizeof from_text, "%lld", (long long)from);
    const char *argv[10] = {"nnscope", "--db", sess_db_path(db), "--replay", id_text};
    int argc = 5;
    if (verify) argv[argc++] = "--verify";
    if (from > 1) argv[argc++] = "--from", argv[argc++] = from_text;
    argv[argc] = NULL;
    int status;
    if (repl_spawn_piped("%replay", app->opt.program, argv, true, write_to_app, app, &status) < 0) return -1;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (nn_interrupt_requested && code != 0)
        return nn_error_set(NN_ERR_KEYBOARD_INTERRUPT, "the replay was interrupted");
    if (code == 127) return nn_error_set(NN_ERR_RUNTIME, "%%replay: cannot run %s", app->opt.program);
    if (code != 0 && !(verify && code == 1)) /* 1 with --verify: a cell differs, already said */
        return nn_error_set(NN_ERR_RUNTIME, "%%replay: the replay ended with status %d", code);
    return 0;
}

static int magic_replay(repl_app *app, const char *args)
{
    char session[512];
    bool verify;
    int64_t from, id;
    if (parse_replay_args(app, args, session, sizeof session, &verify, &from) < 0) return -1;
    sess_db *opened, *db = store_for_reading(app, &opened);
    replay_summary sum;
    if (!db || resolve_session(app, db, session, &id) != SESS_OK) {
        sess_close(opened);
        return -1;
    }
    if (app->opt.program) {
        int rc = replay_in_child(app, db, id, verify, from);
        sess_close(opened);
        return rc;
    }
    int rc = replay(app, db, id, verify, from, &sum);
    if (rc == 0 && verify) say_summary(app, &sum);
    sess_close(opened);
    return rc;
}

const repl_magic repl_magics_sessions[] = {
    {"sessions", "%sessions", "table of the recorded sessions: id, name, started, cells, snapshots", magic_sessions},
    {"name", "%name NAME", "name the current session (names work wherever an id does)", magic_name},
    {"snapshot", "%snapshot MODEL [TAG]", "store MODEL.state_dict() in the session database", magic_snapshot},
    {"snapshots", "%snapshots [SESSION]", "list the snapshots (of one session)", magic_snapshots},
    {"restore", "%restore MODEL TAG", "MODEL.load_state_dict(snapshot TAG), strict", magic_restore},
    {"replay", "%replay SESSION [--verify] [--from N]",
     "re-run a session's cells in a fresh interpreter (--verify: compare with the recorded outputs)", magic_replay},
    {"export", "%export SESSION FILE.py|FILE.ipynb", "write a session as a script or a Jupyter notebook",
     magic_export},
    {"export_snapshot", "%export_snapshot TAG FILE.safetensors", "write a snapshot as a .safetensors file",
     magic_export_snapshot},
    {"diff", "%diff SNAPSHOT_A SNAPSHOT_B",
     "what changed between two snapshots: per tensor the largest absolute and relative change, the norm", magic_diff},
    {"search", "%search TEXT", "full-text search over the cells of every session", magic_search},
    {NULL, NULL, NULL, NULL},
};

/* ------------------------------------------------------------------ command line */

/* Prints the current error as "nnscope: message" on stderr and clears it; returns 1. */
static int cli_error(void)
{
    fflush(stdout);
    fprintf(stderr, "nnscope: %s\n", nn_error_message());
    nn_error_clear();
    return 1;
}

int repl_app_cli_list(const repl_app_options *opt)
{
    sess_db *db;
    bool missing;
    if (open_existing(opt, &db, &missing) < 0) {
        if (!missing) return cli_error();
        nn_error_clear();
        printf("No sessions recorded yet.\n");
        return 0;
    }
    int rc = print_sessions(NULL, db, 0) < 0 ? cli_error() : 0;
    sess_close(db);
    return rc;
}

int repl_app_cli_replay(const repl_app_options *opt, const char *session, bool verify, int64_t from)
{
    sess_db *db;
    int64_t id;
    if (from < 1) {
        fprintf(stderr, "nnscope: --from needs a cell number >= 1\n");
        return 2;
    }
    if (open_existing(opt, &db, NULL) < 0) return cli_error();
    repl_bindings_install();
    replay_summary sum;
    int rc = sess_session_resolve(db, session, &id) || replay(NULL, db, id, verify, from, &sum) < 0 ? -1 : 0;
    if (rc == 0 && verify) say_summary(NULL, &sum);
    fflush(stdout);
    sess_close(db);
    repl_bindings_shutdown(); /* the modules the replay imported (rebuilt on the next import) */
    if (rc < 0) return cli_error();
    return verify && sum.differ ? 1 : 0;
}

int repl_app_cli_export(const repl_app_options *opt, const char *session, const char *path)
{
    sess_db *db;
    if (open_existing(opt, &db, NULL) < 0) return cli_error();
    int rc = export_session(NULL, db, session, path) < 0 ? cli_error() : 0;
    sess_close(db);
    return rc;
}

int repl_app_cli_diff(const repl_app_options *opt, const char *a, const char *b)
{
    sess_db *db;
    if (open_existing(opt, &db, NULL) < 0) return cli_error();
    int rc = diff_snapshots(NULL, db, a, b) < 0 ? cli_error() : 0;
    sess_close(db);
    return rc;
}
