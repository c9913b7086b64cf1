/*
 * app.c — the front end's cells (contract: app.h): numbering, In and Out with
 * _ __ ___ _n, the Out echo, the Out cache's memory cap, output capture,
 * tracebacks, magic and `obj?` dispatch, recording. The notebook loop is
 * interactive.c; the magics themselves live in magics_core.c and beside the
 * sessions and inspector glue.
 */
#include "app.h"
#include "lesson.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#define DEFAULT_CACHE_BYTES ((size_t)256 << 20)

const char *repl_app_banner(void)
{
    return "nnscope " NN_VERSION " -- PyTorch-like notebook. Type %help for the magics, obj? for help, "
           "Ctrl-D to exit.\n";
}

/* ------------------------------------------------------------------ output */

/* Appends to the running cell's capture; a failed allocation only stops capturing. */
static void capture(repl_app *app, const char *s, size_t n)
{
    if (app->cell_output_len + n + 1 > app->cell_output_cap) {
        size_t cap = app->cell_output_cap ? app->cell_output_cap : 256;
        while (cap < app->cell_output_len + n + 1) cap *= 2;
        char *grown = nn_realloc(app->cell_output, cap);
        if (!grown) {
            nn_error_clear();
            return;
        }
        app->cell_output = grown;
        app->cell_output_cap = cap;
    }
    memcpy(app->cell_output + app->cell_output_len, s, n);
    app->cell_output_len += n;
    app->cell_output[app->cell_output_len] = '\0';
}

void repl_app_write(repl_app *app, const char *s, size_t n)
{
    if (app->out_write) app->out_write(app->out_ud, s, n);
    else fwrite(s, 1, n, stdout);
    capture(app, s, n);
}

static void write_to_app(void *ud, const char *s, size_t n) { repl_app_write(ud, s, n); }

void repl_app_printf(repl_app *app, const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof small) {
        repl_app_write(app, small, (size_t)n);
        return;
    }
    char *big = nn_malloc((size_t)n + 1);
    if (!big) {
        nn_error_clear();
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    repl_app_write(app, big, (size_t)n);
    nn_free(big);
}

/* Error text (a traceback, a UsageError) to stderr, kept as the cell's error. */
static void report_error(repl_app *app, const char *text)
{
    if (app->err_write) {
        app->err_write(app->err_ud, text, strlen(text));
        app->err_write(app->err_ud, "\n", 1);
    } else {
        fflush(stdout);
        repl_app_print_error(app, stderr, text);
        fflush(stderr);
    }
    nn_free(app->last_error);
    app->last_error = nn_strdup(text);
    if (!app->last_error) nn_error_clear();
}

/* An uncaught SystemExit: a script ends with its status (printing the code when
   python would); the notebook reports it as IPython does and goes on. */
static void report_system_exit(repl_app *app, int status, bool show_message)
{
    const char *msg = nn_error_message();
    if (!app->opt.interactive) {
        app->exit_requested = true;
        app->exit_status = status;
        if (show_message) report_error(app, msg);
        return;
    }
    const char *head = "An exception has occurred, use %tb to see the full traceback.\n\nSystemExit";
    char *text = nn_malloc(strlen(head) + strlen(msg) + 3);
    if (!text) {
        report_error(app, "MemoryError");
        return;
    }
    sprintf(text, "%s%s%s", head, *msg ? ": " : "", msg);
    report_error(app, text);
    nn_free(text);
}

/* Reports the current error, then clears it: the interpreter's traceback when
   code raised it, else "Kind: message", where a magic's ValueError (a bad
   argument) is IPython's UsageError. */
static void report_exception(repl_app *app, bool from_code)
{
    nn_error_kind kind = nn_error_current();
    int exit_status;
    bool show_message;
    if (from_code && repl_system_exit(app->interp, &exit_status, &show_message)) {
        report_system_exit(app, exit_status, show_message);
        nn_error_clear();
        return;
    }
    char *tb = from_code ? repl_traceback(app->interp) : NULL;
    if (tb) {
        report_error(app, tb);
        nn_free(tb);
    } else {
        const char *label = !from_code && kind == NN_ERR_VALUE ? "UsageError" : nn_error_kind_name(kind);
        char *line = nn_malloc(strlen(label) + strlen(nn_error_message()) + 3);
        if (line) {
            sprintf(line, "%s: %s", label, nn_error_message());
            report_error(app, line);
            nn_free(line);
        } else {
            report_error(app, "MemoryError");
        }
    }
    nn_error_clear();
}

int repl_app_usage_error(repl_app *app, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return nn_error_set(NN_ERR_VALUE, "%s", msg);
}

int repl_app_exec(repl_app *app, const char *source, const char *filename, repl_parse_mode mode,
                  nn_object **result_out)
{
    int rc = repl_exec(app->interp, source, filename, mode, result_out);
    if (rc == -1) app->code_failed = true;
    return rc;
}

bool repl_app_ask_yes_no(repl_app *app, const char *question)
{
    repl_app_printf(app, "%s ", question);
    if (app->out_write == NULL) fflush(stdout);
    /* one line read byte by byte: stdio's buffer would take the lines after it from readline */
    char answer[64];
    size_t n = 0;
    char c;
    ssize_t got = 0;
    while (app->opt.interactive && (got = read(STDIN_FILENO, &c, 1)) == 1 && c != '\n')
        if (n + 1 < sizeof answer) answer[n++] = c;
    answer[n] = '\0';
    if (!app->opt.interactive || (got != 1 && n == 0)) {
        repl_app_write(app, "\n", 1); /* end of input: the default */
        return false;
    }
    const char *a = answer;
    while (isspace((unsigned char)*a)) a++;
    return tolower((unsigned char)a[0]) == 'y';
}

/* ------------------------------------------------------------------ names */

/* _, __ and ___ from app->shown ('' where empty, as IPython starts them). */
static int publish_shown(repl_app *app)
{
    static const char *const names[3] = {"_", "__", "___"};
    nn_object *empty = nn_str_new("");
    if (!empty) return -1;
    int rc = 0;
    for (int i = 0; i < 3 && rc == 0; i++)
        rc = repl_set_global(app->interp, names[i], app->shown[i] ? app->shown[i] : empty);
    NN_RELEASE(empty);
    return rc;
}

/* ------------------------------------------------------------------ the Out cache */

/* Bytes of tensor storage an Out value holds: a tensor's storage, or the
   tensors inside lists, tuples and dicts (a few levels deep). */
static size_t tensor_bytes(nn_object *o, int depth)
{
    if (!o || depth > 4) return 0;
    if (nn_is_tensor(o)) {
        nn_tensor *t = (nn_tensor *)o;
        return t->storage ? t->storage->nbytes : 0;
    }
    size_t total = 0;
    if (nn_is_list(o)) {
        for (size_t i = 0; i < nn_list_len(o); i++) total += tensor_bytes(nn_list_get(o, i), depth + 1);
    } else if (o->type == &nn_tuple_type) {
        for (size_t i = 0; i < nn_tuple_len(o); i++) total += tensor_bytes(nn_tuple_get(o, i), depth + 1);
    } else if (nn_is_dict(o)) {
        size_t pos = 0;
        nn_object *k, *v;
        while (nn_dict_next(o, &pos, &k, &v)) total += tensor_bytes(v, depth + 1);
    }
    return total;
}

/* Drops the oldest Out entries that hold tensors (from Out, _n and _ __ ___)
   until the tensors the cache holds fit in the cap, so that their memory is
   really freed. Entries without tensors cost nothing and stay. */
static void enforce_cache_cap(repl_app *app)
{
    size_t total = 0, pos = 0;
    nn_object *k, *v;
    while (nn_dict_next(app->out_dict, &pos, &k, &v)) total += tensor_bytes(v, 0);
    bool dropped = false;
    pos = 0;
    while (total > app->cache_bytes_cap && nn_dict_next(app->out_dict, &pos, &k, &v)) {
        size_t bytes = tensor_bytes(v, 0);
        if (bytes == 0) continue;
        char name[32];
        snprintf(name, sizeof name, "_%lld", (long long)nn_int_value(k));
        if (repl_get_global(app->interp, name) == v) repl_del_global(app->interp, name);
        for (int i = 0; i < 3; i++)
            if (app->shown[i] == v) NN_SET(app->shown[i], NULL);
        total -= bytes;
        dropped = true;
        nn_dict_del(app->out_dict, k); /* releases k and v last: they are borrowed until here */
        pos = 0;                       /* the deletion moved the entries: start over */
    }
    if (dropped && publish_shown(app) < 0) nn_error_clear();
}

int repl_app_clear_outputs(repl_app *app)
{
    size_t pos = 0;
    nn_object *k, *v;
    while (nn_dict_next(app->out_dict, &pos, &k, &v)) {
        char name[32];
        snprintf(name, sizeof name, "_%lld", (long long)nn_int_value(k));
        if (repl_get_global(app->interp, name) == v) repl_del_global(app->interp, name);
    }
    nn_dict_clear(app->out_dict);
    for (int i = 0; i < 3; i++) NN_SET(app->shown[i], NULL);
    return publish_shown(app);
}

/* Echoes a cell's value as Out[n] and caches it as Out[n], _n and _. */
static int display_result(repl_app *app, nn_object *value)
{
    char *text = repl_repr(app->interp, value);
    if (!text) {
        app->code_failed = true;
        return -1;
    }
    long long n = (long long)app->next_cell;
    repl_app_out_prompt(app, n);
    repl_app_printf(app, "%s%s\n", strchr(text, '\n') ? "\n" : "", text);
    nn_free(text);

    char name[32];
    snprintf(name, sizeof name, "_%lld", n);
    nn_object *key = nn_int_new(n);
    int rc = key ? nn_dict_set(app->out_dict, key, value) : -1;
    NN_RELEASE(key);
    if (rc == 0) rc = repl_set_global(app->interp, name, value);
    if (rc == 0) {
        NN_RELEASE(app->shown[2]);
        app->shown[2] = app->shown[1];
        app->shown[1] = app->shown[0];
        app->shown[0] = nn_retain(value);
        rc = publish_shown(app);
    }
    if (rc < 0) return -1;
    enforce_cache_cap(app);
    return 0;
}

void repl_app_set_cache_cap(repl_app *app, size_t bytes)
{
    app->cache_bytes_cap = bytes;
    enforce_cache_cap(app);
}

/* ------------------------------------------------------------------ cells */

static const char *skip_space(const char *s)
{
    while (*s && isspace((unsigned char)*s)) s++;
    return s;
}

/* A new nn_malloc'd copy of s[0..n) without surrounding whitespace. */
static char *trimmed_copy(const char *s, size_t n)
{
    while (n > 0 && isspace((unsigned char)*s)) s++, n--;
    while (n > 0 && isspace((unsigned char)s[n - 1])) n--;
    char *out = nn_malloc(n + 1);
    if (out) {
        memcpy(out, s, n);
        out[n] = '\0';
    }
    return out;
}

/* "%name args": finds the magic and runs it. */
static int run_magic(repl_app *app, const char *line)
{
    const char *p = line + 1;
    if (*p == '%') {
        size_t len = strcspn(p + 1, " \t");
        return repl_app_usage_error(app, "Cell magic `%%%%%.*s` not found.", (int)len, p + 1);
    }
    size_t len = 0;
    while (isalnum((unsigned char)p[len]) || p[len] == '_') len++;
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), p);
    const repl_magic *m = len > 0 && len < sizeof name ? repl_magic_find(name) : NULL;
    if (!m) {
        size_t shown = strcspn(p, " \t");
        return repl_app_usage_error(app, "Line magic function `%%%.*s` not found.", (int)shown, p);
    }
    char *args = trimmed_copy(p + len, strlen(p + len));
    if (!args) return -1;
    int rc = m->run(app, args);
    nn_free(args);
    return rc;
}

/* True when s is a dotted name (a.b.c), the only form `obj?` looks up. */
static bool is_dotted_name(const char *s)
{
    if (!*s) return false;
    for (const char *p = s; *p;) {
        if (!(isalpha((unsigned char)*p) || *p == '_')) return false;
        while (isalnum((unsigned char)*p) || *p == '_') p++;
        if (*p == '.') p++;
        else if (*p) return false;
        else break;
    }
    return s[strlen(s) - 1] != '.';
}

/* `obj?` / `obj??` / `?obj`: IPython's pinfo (help.c); ?? adds the source. */
static int run_help(repl_app *app, const char *name, int detail) { return repl_app_pinfo(app, name, detail); }

/* A one-line cell asking for help (`name?`, `name??`, `?name`, a lone `?`):
   the name (a new string, "" for a lone ?), else NULL. Only (dotted) names
   count, so a `?` at the end of a comment or a string leaves the line code. */
static char *help_request(const char *line)
{
    size_t n = strlen(line);
    char *name = NULL;
    if (n >= 1 && line[n - 1] == '?') {
        n -= n >= 2 && line[n - 2] == '?' ? 2 : 1;
        name = trimmed_copy(line, n);
    } else if (line[0] == '?') {
        const char *rest = line + 1 + (line[1] == '?');
        name = trimmed_copy(rest, strlen(rest));
    }
    if (name && *name && !is_dotted_name(name)) {
        nn_free(name);
        name = NULL;
    }
    return name;
}

bool repl_app_echo_suppressed(const char *source)
{
    size_t n = strlen(source);
    while (n > 0 && isspace((unsigned char)source[n - 1])) n--;
    size_t start = n;
    while (start > 0 && source[start - 1] != '\n') start--;
    /* the last line up to its comment: a '#' outside quotes */
    char quote = 0;
    size_t end = start;
    for (size_t i = start; i < n; i++) {
        char c = source[i];
        if (quote) {
            if (c == '\\' && i + 1 < n) i++;
            else if (c == quote) quote = 0;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '#') {
            break;
        }
        end = i + 1;
    }
    while (end > start && isspace((unsigned char)source[end - 1])) end--;
    return end > start && source[end - 1] == ';';
}

static double now_seconds(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

/* Appends the cell's source to In (without trailing newlines, as IPython keeps
   it) and keeps it as the cell's recorded source. */
static int push_input(repl_app *app, const char *source)
{
    size_t n = strlen(source);
    while (n > 0 && (source[n - 1] == '\n' || source[n - 1] == '\r')) n--;
    NN_SET(app->cell_source, nn_str_from(source, n));
    return app->cell_source ? nn_list_append(app->in_list, app->cell_source) : -1;
}

int repl_app_run_cell(repl_app *app, const char *source, const char *filename)
{
    const char *line = skip_space(source);
    if (!*line) return 0;
    /* the cell's record starts afresh */
    app->cell_output_len = 0;
    if (app->cell_output) app->cell_output[0] = '\0';
    nn_free(app->last_error);
    app->last_error = NULL;
    NN_SET(app->magic_result, NULL);
    app->code_failed = false;
    if (!app->rng_state && !(app->rng_state = nn_malloc(nn_generator_state_size()))) return -1;
    nn_generator_get_state(nn_default_generator(), app->rng_state);
    if (push_input(app, source) < 0) {
        report_exception(app, false);
        return -1;
    }
    double started = now_seconds();
    nn_interrupt_requested = 0;

    char cell_name[48];
    if (!filename) {
        snprintf(cell_name, sizeof cell_name, "<ipython-input-%lld>", (long long)app->next_cell);
        filename = cell_name;
    }
    int rc;
    bool from_code = false, silent = false;
    app->view_cells = 0;
    char *one_line = trimmed_copy(line, strlen(line));
    if (one_line && strchr(one_line, '\n')) { /* magics and obj? are one-line cells */
        nn_free(one_line);
        one_line = NULL;
    }
    char *help_name = one_line ? help_request(one_line) : NULL;
    bool cell_magic = line[0] == '%' && line[1] == '%';
    bool shell_line = one_line && repl_app_is_shell_line(one_line);
    if (cell_magic || shell_line || (one_line && one_line[0] == '%')) {
        rc = cell_magic   ? repl_app_run_cell_magic(app, line)
             : shell_line ? repl_app_shell_line(app, one_line)
                          : run_magic(app, one_line);
        from_code = app->code_failed;
        if (rc == 0 && app->magic_result && app->opt.interactive) {
            nn_object *value = app->magic_result;
            app->magic_result = NULL;
            rc = display_result(app, value);
            NN_RELEASE(value);
            from_code = rc < 0;
        }
    } else if (help_name && !*help_name) { /* a lone ? */
        rc = repl_magic_find("help")->run(app, "");
    } else if (help_name) {
        rc = run_help(app, help_name, strstr(one_line, "??") != NULL);
    } else {
        nn_object *result = NULL;
        repl_parse_mode mode = app->opt.interactive ? REPL_PARSE_SINGLE : REPL_PARSE_FILE;
        rc = repl_exec(app->interp, source, filename, mode, app->opt.interactive ? &result : NULL);
        from_code = rc == -1;
        silent = rc == 0 && result && repl_app_echo_suppressed(source);
        if (rc == 0 && result && !silent) {
            rc = display_result(app, result);
            from_code = rc < 0;
        }
        NN_RELEASE(result);
    }
    nn_free(help_name);
    nn_free(one_line);
    if (rc == -2) { /* incomplete input: nothing ran, the cell takes no number */
        size_t n = nn_list_len(app->in_list);
        if (n > 0 && nn_list_get(app->in_list, n - 1) == app->cell_source) NN_RELEASE(nn_list_pop(app->in_list, n - 1));
        nn_error_clear();
        return -2;
    }

    repl_cell_status status = REPL_CELL_OK;
    if (rc < 0) {
        status = nn_error_current() == NN_ERR_KEYBOARD_INTERRUPT ? REPL_CELL_INTERRUPTED : REPL_CELL_ERROR;
        report_exception(app, from_code);
        rc = -1;
        if (app->pdb && from_code && status == REPL_CELL_ERROR && !app->exit_requested && !app->opt.headless &&
            repl_app_post_mortem(app) < 0)
            nn_error_clear(); /* %pdb on: the debugger after the traceback */
    }
    nn_interrupt_requested = 0;
    fflush(stdout);

    app->last = (repl_cell_result){
        .number = app->next_cell,
        .source = nn_str_cstr(app->cell_source),
        .output = app->cell_output ? app->cell_output : "",
        .error = app->last_error,
        .status = status,
        .started = started,
        .duration = now_seconds() - started,
        .rng_state = app->rng_state,
        .silent = silent,
    };
    if (app->sessions) repl_app_sessions_record(app, &app->last);
    app->next_cell += 1 + app->view_cells; /* after the statements typed in a view it opened */
    app->view_cells = 0;
    return rc;
}

/* ------------------------------------------------------------------ the app */

/* {name: value} of every global bound now (a new dict), or NULL with MemoryError. */
static nn_object *startup_names(repl_app *app)
{
    size_t n;
    const char **names = repl_global_names(app->interp, &n);
    nn_object *d = nn_dict_new();
    if (!names && n == 0 && nn_error_current()) NN_SET(d, NULL);
    for (size_t i = 0; d && i < n; i++)
        if (nn_dict_set_str(d, names[i], repl_get_global(app->interp, names[i])) < 0) NN_SET(d, NULL);
    nn_free(names);
    return d;
}

bool repl_app_is_hidden(repl_app *app, const char *name)
{
    nn_object *v = repl_get_global(app->interp, name);
    return name[0] == '_' || (v && nn_dict_get_str(app->hidden, name) == v);
}

repl_app *repl_app_new(const repl_app_options *opt)
{
    repl_app *app = nn_calloc(1, sizeof *app);
    if (!app) return NULL;
    app->opt = *opt;
    app->next_cell = 1;
    app->cache_bytes_cap = DEFAULT_CACHE_BYTES;
    app->interp = repl_interp_new();
    app->in_list = nn_list_new(0);
    app->out_dict = nn_dict_new();
    nn_object *empty = nn_str_new("");
    if (!app->interp || !app->in_list || !app->out_dict || !empty || nn_list_append(app->in_list, empty) < 0 ||
        repl_set_global(app->interp, "In", app->in_list) < 0 ||
        repl_set_global(app->interp, "Out", app->out_dict) < 0 ||
        publish_shown(app) < 0 || repl_app_inspect_install(app) < 0 || repl_app_debug_install(app) < 0) {
        NN_RELEASE(empty);
        repl_app_free(app);
        return NULL;
    }
    NN_RELEASE(empty);
    if (!(app->hidden = startup_names(app))) {
        repl_app_free(app);
        return NULL;
    }
    repl_set_writer(app->interp, write_to_app, app);
    repl_app_pager_install(app);
    if (opt->record && repl_app_sessions_open(app) < 0) {
        fprintf(stderr, "nnscope: warning: this session is not recorded: %s\n", nn_error_message());
        nn_error_clear();
    }
    return app;
}

void repl_app_free(repl_app *app)
{
    if (!app) return;
    repl_run_atexit(app->interp);
    fflush(stdout);
    if (app->sessions) repl_app_sessions_close(app);
    repl_app_inspect_close(app);
    repl_app_debug_close(app);
    repl_app_pager_close(app);
    repl_lesson_free(app);
    for (int i = 0; i < 3; i++) NN_RELEASE(app->shown[i]);
    NN_RELEASE(app->magic_result);
    NN_RELEASE(app->in_list);
    NN_RELEASE(app->out_dict);
    NN_RELEASE(app->hidden);
    NN_RELEASE(app->cell_source);
    repl_interp_free(app->interp);
    nn_free(app->cell_output);
    nn_free(app->pending_input);
    nn_free(app->last_error);
    nn_free(app->rng_state);
    nn_free(app);
}
