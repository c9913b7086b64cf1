/*
 * debug.c — the debugger, as pdb / IPython's ipdb: %debug opens a post-mortem
 * prompt (ipdb>) in the frame that raised the last uncaught exception, %pdb on
 * opens it by itself after every cell that raises, and breakpoint() in code
 * opens it at that line (c continues, q raises BdbQuit). Commands: p, pp, l, ll,
 * w, u, d, c, q, h, and any other line is a statement run in the frame.
 * Not here: keeping the frames (eval.c: repl_debug_frames, repl_exec_in_scope).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"
#include "bind_int.h"
#include "eval_int.h"

char *(*repl_debug_read_line)(void) = NULL;

typedef struct dbg {
    repl_app *app;
    tb_entry *frames; /* innermost first */
    int n, cur;       /* cur: the frame commands look at (0: the innermost) */
    int list_from;    /* the first line the next `l` lists, 0: around the current one */
    bool live;        /* breakpoint(): c goes on, q raises BdbQuit */
    sbuf out;         /* what to show before the next read */
} dbg;

/* The dialogue goes to the terminal (or the tests' writer) through d->out, not
   into the cell's output: it is not recorded, and a replay (which never opens
   the debugger) prints the same output as the recording. */
static void flush(dbg *d)
{
    if (d->out.len) {
        if (d->app->out_write) d->app->out_write(d->app->out_ud, d->out.buf, d->out.len);
        else fwrite(d->out.buf, 1, d->out.len, stdout);
    }
    fflush(stdout);
    nn_free(d->out.buf);
    d->out = (sbuf){0};
}

static char *read_command(void) { return repl_debug_read_line ? repl_debug_read_line() : repl_app_read_line(); }

/* Line `line` of the frame's source as [*start, *len), or 0 when there is none. */
static int source_line(const tb_entry *e, int line, const char **start, size_t *len)
{
    const char *src, *file;
    repl_code_unit_text(e->unit, &src, &file);
    if (!src || line < 1) return 0;
    for (int l = 1; l < line; l++) {
        src = strchr(src, '\n');
        if (!src) return 0;
        src++;
    }
    if (!*src && line > 1) return 0;
    *start = src;
    *len = strcspn(src, "\n");
    return 1;
}

static const char *file_of(const tb_entry *e)
{
    const char *src, *file;
    repl_code_unit_text(e->unit, &src, &file);
    return file ? file : "<unknown>";
}

/* pdb's frame line: "> FILE(LINE)NAME()" and "-> source". */
static void say_frame(dbg *d, int i, const char *mark)
{
    const tb_entry *e = &d->frames[i];
    repl_sb_printf(&d->out, "%s %s(%d)%s()\n", mark, file_of(e), e->line, e->name);
    const char *s;
    size_t l;
    if (source_line(e, e->line, &s, &l)) {
        while (l && (*s == ' ' || *s == '\t')) s++, l--;
        repl_sb_printf(&d->out, "-> %.*s\n", (int)l, s);
    }
}

/* pdb's listing of lines first..last: "  3  ->\tsource", the current line marked. */
static void list_lines(dbg *d, int first, int last)
{
    const tb_entry *e = &d->frames[d->cur];
    if (first < 1) first = 1;
    int shown = 0;
    for (int line = first; line <= last; line++) {
        const char *s;
        size_t l;
        if (!source_line(e, line, &s, &l)) break;
        repl_sb_printf(&d->out, "%3d%s %s\t%.*s\n", line, line >= 1000 ? "" : " ", line == e->line ? "->" : "",
                        (int)l, s);
        shown = line;
    }
    if (!shown) repl_sb_printf(&d->out, "*** no source for %s\n", file_of(e));
    else d->list_from = shown + 1;
}

static int indent_of(const char *s, size_t l)
{
    int n = 0;
    while ((size_t)n < l && (s[n] == ' ' || s[n] == '\t')) n++;
    return n;
}

/* ll: the whole function of the frame (from its def to the end of its body), or
   the whole source at module level. */
static void long_list(dbg *d)
{
    const tb_entry *e = &d->frames[d->cur];
    const char *s;
    size_t l;
    int first = 1, last = 1 << 30;
    if (strcmp(e->name, "<module>") != 0) {
        for (int line = e->line; line >= 1 && source_line(e, line, &s, &l); line--) {
            int k = indent_of(s, l);
            if ((l - (size_t)k >= 4 && !strncmp(s + k, "def ", 4)) ||
                (l - (size_t)k >= 10 && !strncmp(s + k, "async def ", 10))) {
                first = line;
                for (last = line + 1; source_line(e, last, &s, &l); last++) {
                    int ind = indent_of(s, l);
                    if ((size_t)ind == l) continue; /* blank lines belong to the body */
                    if (ind <= k) break;
                }
                last--;
                break;
            }
        }
    }
    list_lines(d, first, last);
}

/* "*** Name: message" for the error a command raised (pdb's form). */
static void say_error(dbg *d)
{
    char *tb = repl_traceback(d->app->interp);
    const char *line = tb;
    if (tb) {
        size_t n = strlen(tb);
        while (n && tb[n - 1] == '\n') tb[--n] = '\0';
        const char *nl = strrchr(tb, '\n');
        if (nl) line = nl + 1;
        repl_sb_printf(&d->out, "*** %s\n", line);
    } else {
        repl_sb_printf(&d->out, "*** %s: %s\n", nn_error_kind_name(nn_error_current()), nn_error_message());
    }
    nn_free(tb);
    nn_error_clear();
}

/* Runs source in the current frame: an expression's repr printed (p, pp, and a
   bare expression statement as pdb's displayhook). */
static void run_in_frame(dbg *d, const char *source, repl_parse_mode mode)
{
    nn_object *result = NULL;
    int rc = repl_exec_in_scope(d->app->interp, d->frames[d->cur].sc, source, "<stdin>", mode, &result);
    if (rc == -2) {
        repl_sb_printf(&d->out, "*** SyntaxError: incomplete input\n");
        nn_error_clear();
        return;
    }
    if (rc < 0) {
        say_error(d);
        return;
    }
    if (result && (mode == REPL_PARSE_EVAL || !nn_is_none(result))) {
        char *text = repl_repr(d->app->interp, result);
        if (text) repl_sb_printf(&d->out, "%s\n", text);
        else say_error(d);
        nn_free(text);
    }
    NN_RELEASE(result);
}

static const char help_text[] =
    "Documented commands (as pdb's):\n"
    "p EXPR      print repr(EXPR) evaluated in the current frame\n"
    "pp EXPR     the same (pretty-printing is plain repr here)\n"
    "l [LINE]    list 11 lines around the current line (or LINE); again: the next 11\n"
    "ll          list the whole function (or cell) of the current frame\n"
    "w           where: the stack, oldest frame first, '>' at the current one\n"
    "u [N]       up N frames (toward the caller), d [N]: down N frames\n"
    "c           continue: leave the debugger (after breakpoint(): go on running)\n"
    "q           quit the debugger (after breakpoint(): stop the cell with BdbQuit)\n"
    "h           this help\n"
    "Any other line (or !LINE) runs as a statement in the current frame; an\n"
    "expression prints its repr. An empty line repeats l, u, d or w.\n";

/* A count argument ("u 2"), 1 when there is none; -1 when it is not a number. */
static int count_arg(const char *arg)
{
    if (!*arg) return 1;
    char *end;
    long v = strtol(arg, &end, 10);
    while (isspace((unsigned char)*end)) end++;
    return *end || v < 1 || v > 100000 ? -1 : (int)v;
}

/* The loop: 1 to leave (c, q after %debug, EOF), 2 for q after breakpoint(). */
static int command_loop(dbg *d)
{
    char last[32] = "";
    for (;;) {
        repl_sb_puts(&d->out, "ipdb> ");
        flush(d);
        char *line = read_command();
        if (!line) { /* Ctrl-D */
            repl_sb_puts(&d->out, "\n");
            flush(d);
            return 1;
        }
        char *cmd = line;
        while (isspace((unsigned char)*cmd)) cmd++;
        size_t n = strlen(cmd);
        while (n && isspace((unsigned char)cmd[n - 1])) cmd[--n] = '\0';
        char word[32] = "";
        if (!*cmd && *last) snprintf(word, sizeof word, "%s", last); /* an empty line repeats */
        size_t wl = strcspn(cmd, " \t");
        if (*cmd && wl < sizeof word) snprintf(word, sizeof word, "%.*s", (int)wl, cmd);
        const char *arg = *cmd ? cmd + wl : "";
        while (isspace((unsigned char)*arg)) arg++;
        int leave = 0;
        bool repeatable = false;
        if (cmd[0] == '!') {
            run_in_frame(d, cmd + 1, REPL_PARSE_SINGLE);
        } else if (!*cmd && !*word) {
            /* nothing to repeat */
        } else if (!strcmp(word, "p") || !strcmp(word, "pp") || !strcmp(word, "print")) {
            if (!*arg) repl_sb_printf(&d->out, "*** SyntaxError: invalid syntax\n");
            else run_in_frame(d, arg, REPL_PARSE_EVAL);
        } else if (!strcmp(word, "l") || !strcmp(word, "list")) {
            int cur = d->frames[d->cur].line;
            if (*arg) {
                int at = count_arg(arg);
                if (at < 0) repl_sb_printf(&d->out, "*** Error in argument: '%s'\n", arg);
                else list_lines(d, at - 5, at + 5);
            } else {
                int from = d->list_from ? d->list_from : cur - 5;
                list_lines(d, from, (from < 1 ? 1 : from) + 10);
            }
            repeatable = true;
        } else if (!strcmp(word, "ll") || !strcmp(word, "longlist")) {
            long_list(d);
        } else if (!strcmp(word, "w") || !strcmp(word, "where") || !strcmp(word, "bt")) {
            for (int i = d->n - 1; i >= 0; i--) say_frame(d, i, i == d->cur ? ">" : " ");
            repeatable = true;
        } else if (!strcmp(word, "u") || !strcmp(word, "up") || !strcmp(word, "d") || !strcmp(word, "down")) {
            bool up = word[0] == 'u';
            int k = count_arg(arg);
            if (k < 0) repl_sb_printf(&d->out, "*** Invalid frame count (%s)\n", arg);
            else if (up ? d->cur == d->n - 1 : d->cur == 0) repl_sb_printf(&d->out, "*** %s frame\n", up ? "Oldest" : "Newest");
            else {
                d->cur = up ? (d->cur + k < d->n ? d->cur + k : d->n - 1) : (d->cur - k > 0 ? d->cur - k : 0);
                d->list_from = 0;
                say_frame(d, d->cur, ">");
            }
            repeatable = true;
        } else if (!strcmp(word, "c") || !strcmp(word, "cont") || !strcmp(word, "continue")) {
            leave = 1;
        } else if (!strcmp(word, "q") || !strcmp(word, "quit") || !strcmp(word, "exit")) {
            leave = d->live ? 2 : 1;
        } else if (!strcmp(word, "h") || !strcmp(word, "help")) {
            repl_sb_printf(&d->out, "%s", help_text);
        } else if (!strcmp(word, "n") || !strcmp(word, "next") || !strcmp(word, "s") || !strcmp(word, "step") ||
                   !strcmp(word, "r") || !strcmp(word, "return") || !strcmp(word, "unt") || !strcmp(word, "until")) {
            repl_sb_printf(&d->out, "*** stepping is not supported: c continues, q quits\n");
        } else {
            run_in_frame(d, cmd, REPL_PARSE_SINGLE);
        }
        if (*cmd) snprintf(last, sizeof last, "%s", repeatable ? word : "");
        nn_free(line);
        if (leave) {
            flush(d);
            return leave;
        }
    }
}

/* Whether the debugger can talk to someone: a terminal on stdin (or the tests'
   reader), and not a replay (which never waits for input). */
static bool can_debug(repl_app *app)
{
    return !app->opt.headless && (repl_debug_read_line || isatty(STDIN_FILENO));
}

/* Runs the debugger on frames (taken). Returns the loop's result. */
static int debug_frames(repl_app *app, tb_entry *frames, int n, bool live)
{
    dbg d = {.app = app, .frames = frames, .n = n, .cur = 0, .live = live};
    say_frame(&d, 0, ">");
    int rc = command_loop(&d);
    repl_tb_entries_free(frames, n);
    return rc;
}

int repl_app_post_mortem(repl_app *app)
{
    tb_entry *frames;
    int n;
    if (repl_debug_frames(app->interp, false, &frames, &n) < 0) return -1;
    if (n == 0) {
        repl_app_printf(app, "No traceback has been produced, nothing to debug.\n");
        return 0;
    }
    if (!can_debug(app)) {
        repl_tb_entries_free(frames, n);
        repl_app_printf(app, "%%debug needs a terminal: nothing to debug here.\n");
        return 0;
    }
    debug_frames(app, frames, n, false);
    return 0;
}

/* ------------------------------------------------------------------ magics */

static int magic_debug(repl_app *app, const char *args)
{
    if (*args) return repl_app_usage_error(app, "%%debug takes no arguments here: it opens the last exception's frames");
    return repl_app_post_mortem(app);
}

static int magic_pdb(repl_app *app, const char *args)
{
    if (!*args) app->pdb = !app->pdb;
    else if (!strcmp(args, "on") || !strcmp(args, "1")) app->pdb = true;
    else if (!strcmp(args, "off") || !strcmp(args, "0")) app->pdb = false;
    else return repl_app_usage_error(app, "usage: %%pdb [on|off]");
    repl_app_printf(app, "Automatic pdb calling has been turned %s\n", app->pdb ? "ON" : "OFF");
    return 0;
}

const repl_magic repl_magics_debug[] = {
    {"debug", "%debug", "post-mortem debugger (ipdb>) in the frame that raised the last exception", magic_debug},
    {"pdb", "%pdb [on|off]", "open the post-mortem debugger after every cell that raises (no argument: toggle)",
     magic_pdb},
    {NULL, NULL, NULL, NULL},
};

/* ------------------------------------------------------------------ breakpoint() */

static repl_app *debug_app;

static nn_object *builtin_breakpoint(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)ud;
    (void)args;
    (void)kwargs;
    repl_app *app = debug_app;
    if (!app || !can_debug(app)) return nn_retain(nn_none()); /* no one to ask: go on, as PYTHONBREAKPOINT=0 */
    tb_entry *frames;
    int n;
    if (repl_debug_frames(app->interp, true, &frames, &n) < 0) return NULL;
    if (n == 0) return nn_retain(nn_none());
    if (debug_frames(app, frames, n, true) == 2) {
        repl_interp *in = app->interp;
        class_obj *cls = repl_lang_class_new("BdbQuit", in->exc_classes[EXC_Exception], -1);
        nn_object *exc = cls ? repl_instance_new(cls) : NULL;
        NN_RELEASE(cls);
        if (!exc) return NULL;
        repl_raise_object(exc);
        NN_RELEASE(exc);
        return NULL;
    }
    return nn_retain(nn_none());
}

static const repl_function_def breakpoint_def = {
    "breakpoint", builtin_breakpoint,
    "breakpoint(*args, **kws)\nOpens the debugger (ipdb>) at this line of the code that calls it: p, l, w, u, d "
    "look at the running frames, c goes on, q stops with BdbQuit. Does nothing without a terminal or in a replay.",
};

int repl_app_debug_install(repl_app *app)
{
    nn_object *ns = repl_namespace_new("builtins"), *fn = NULL;
    int rc = -1;
    if (ns && repl_namespace_add_fn(ns, &breakpoint_def) == 0 && (fn = repl_namespace_getattr(ns, "breakpoint")))
        rc = repl_set_builtin(app->interp, "breakpoint", fn);
    NN_RELEASE(fn);
    NN_RELEASE(ns);
    if (rc == 0) debug_app = app;
    return rc;
}

void repl_app_debug_close(repl_app *app)
{
    if (debug_app == app) debug_app = NULL;
}
