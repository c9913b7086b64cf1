/*
 * magics_shell.c — the shell and the file system, as IPython 8 has them:
 * `!cmd` (its output shown, its exit status in _exit_code), `x = !cmd` and
 * `!!cmd` (its output as a list of lines), with $name and {expr} expanded
 * from the notebook's names; %cd, %pwd, %env and IPython's aliases (%ls, %ll,
 * %cat, %mkdir, ...). Commands run through /bin/sh -c with standard error
 * merged into standard output, which goes through repl_app_write so that the
 * cell records it.
 */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app.h"

extern char **environ;

/* ------------------------------------------------------------------ expansion */

typedef struct text {
    char *s;
    size_t len, cap;
    bool failed;
} text;

static void text_add(text *t, const char *s, size_t n)
{
    if (t->failed) return;
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 128;
        while (cap < t->len + n + 1) cap *= 2;
        char *grown = nn_realloc(t->s, cap);
        if (!grown) {
            t->failed = true;
            return;
        }
        t->s = grown;
        t->cap = cap;
    }
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = '\0';
}

/* The str() of expr evaluated in __main__ appended to t; false (nothing
   appended, no error left) when it fails, and IPython keeps the text as typed. */
static bool add_value_of(repl_app *app, text *t, const char *expr, size_t n)
{
    char *src = nn_malloc(n + 1);
    if (!src) {
        nn_error_clear();
        return false;
    }
    memcpy(src, expr, n);
    src[n] = '\0';
    nn_object *v = NULL;
    char *s = repl_exec(app->interp, src, "<shell>", REPL_PARSE_EVAL, &v) == 0 && v ? repl_str(app->interp, v) : NULL;
    NN_RELEASE(v);
    nn_free(src);
    if (!s) {
        nn_error_clear();
        return false;
    }
    text_add(t, s, strlen(s));
    nn_free(s);
    return true;
}

/* IPython's var_expand: {expr} is str(expr), $name (dotted) is str(name), $$ is $;
   what does not evaluate stays as typed. A new nn_malloc'd string or NULL. */
static char *expand(repl_app *app, const char *cmd)
{
    text t = {0};
    text_add(&t, "", 0);
    for (const char *p = cmd; *p;) {
        if (p[0] == '$' && p[1] == '$') {
            text_add(&t, "$", 1);
            p += 2;
        } else if (p[0] == '$' && (isalpha((unsigned char)p[1]) || p[1] == '_')) {
            size_t n = 1;
            while (isalnum((unsigned char)p[n]) || p[n] == '_' || (p[n] == '.' && isalpha((unsigned char)p[n + 1])))
                n++;
            if (!add_value_of(app, &t, p + 1, n - 1)) text_add(&t, p, n);
            p += n;
        } else if (p[0] == '{') {
            const char *close = strchr(p, '}');
            if (!close || close == p + 1 || !add_value_of(app, &t, p + 1, (size_t)(close - p - 1)))
                close = NULL;
            if (close) {
                p = close + 1;
            } else {
                text_add(&t, p, 1);
                p++;
            }
        } else {
            size_t n = strcspn(p, "${");
            text_add(&t, p, n ? n : 1);
            p += n ? n : 1;
        }
    }
    if (t.failed) {
        nn_free(t.s);
        nn_error_set(NN_ERR_MEMORY, "out of memory");
        return NULL;
    }
    return t.s;
}

/* ------------------------------------------------------------------ running */

/* The output of a command: collected (capture set) or shown through the app. */
typedef struct command_sink {
    repl_app *app;
    text *capture;
} command_sink;

static void command_output(void *ud, const char *data, size_t n)
{
    command_sink *c = ud;
    if (c->capture) text_add(c->capture, data, n);
    else repl_app_write(c->app, data, n);
}

/* Runs cmd with /bin/sh -c, its stdout and stderr into one pipe: shown
   through the app, or (capture non-NULL) collected there. Returns the exit
   status as IPython's _exit_code (a signal's number negated), or -1 with
   RuntimeError when it cannot start. */
static int run_command(repl_app *app, const char *cmd, text *capture, int *exit_code)
{
    const char *argv[] = {"sh", "-c", cmd, NULL};
    command_sink sink = {app, capture};
    int status;
    if (repl_spawn_piped("!", "/bin/sh", argv, false, command_output, &sink, &status) < 0) return -1;
    *exit_code = WIFSIGNALED(status) ? -WTERMSIG(status) : WEXITSTATUS(status);
    return 0;
}

/* Runs cmd (expanded) and sets _exit_code; the output shown, or as a list of
   its lines into *lines (a new list) when lines is non-NULL. */
static int shell(repl_app *app, const char *cmd, nn_object **lines)
{
    char *expanded = expand(app, cmd);
    if (!expanded) return -1;
    text out = {0};
    int code = 0;
    int rc = run_command(app, expanded, lines ? &out : NULL, &code);
    nn_free(expanded);
    nn_object *code_obj = rc == 0 ? nn_int_new(code) : NULL;
    if (rc == 0 && (!code_obj || repl_set_global(app->interp, "_exit_code", code_obj) < 0)) rc = -1;
    NN_RELEASE(code_obj);
    if (rc == 0 && lines) {
        nn_object *list = out.failed ? NULL : nn_list_new(0);
        for (const char *p = out.s ? out.s : ""; list && *p;) {
            size_t n = strcspn(p, "\n");
            nn_object *line = nn_str_from(p, n);
            if (!line || nn_list_append(list, line) < 0) NN_SET(list, NULL);
            NN_RELEASE(line);
            p += n + (p[n] == '\n');
        }
        if (!list && !nn_error_current()) nn_error_set(NN_ERR_MEMORY, "out of memory");
        *lines = list;
        rc = list ? 0 : -1;
    }
    nn_free(out.s);
    return rc;
}

/* "NAME = !cmd": true with the name's length and the command's start. */
static bool shell_assignment(const char *line, size_t *name_len, const char **cmd)
{
    const char *p = line;
    if (!isalpha((unsigned char)*p) && *p != '_') return false;
    while (isalnum((unsigned char)*p) || *p == '_') p++;
    *name_len = (size_t)(p - line);
    while (*p == ' ' || *p == '\t') p++;
    if (*p++ != '=') return false;
    while (*p == ' ' || *p == '\t') p++;
    if (*p != '!') return false;
    *cmd = p + 1;
    return true;
}

bool repl_app_is_shell_line(const char *line)
{
    size_t n;
    const char *cmd;
    return line[0] == '!' || shell_assignment(line, &n, &cmd);
}

int repl_app_shell_line(repl_app *app, const char *line)
{
    size_t name_len;
    const char *cmd;
    if (line[0] == '!' && line[1] == '!') /* !!cmd: the lines, echoed as Out[n] */
        return shell(app, line + 2, &app->magic_result);
    if (line[0] == '!') return shell(app, line + 1, NULL);
    if (!shell_assignment(line, &name_len, &cmd)) return repl_app_usage_error(app, "not a shell command: %s", line);
    nn_object *lines = NULL;
    int rc = shell(app, cmd, &lines);
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(name_len < sizeof name ? name_len : sizeof name - 1), line);
    if (rc == 0) rc = repl_set_global(app->interp, name, lines);
    NN_RELEASE(lines);
    return rc;
}

/* ------------------------------------------------------------------ %cd, %pwd, %env */

static char *previous_dir; /* %cd -: the directory before the last %cd (nn_malloc'd) */

static int magic_pwd(repl_app *app, const char *args)
{
    (void)args;
    char *cwd = getcwd(NULL, 0);
    if (!cwd) return nn_error_set(NN_ERR_RUNTIME, "%s", strerror(errno));
    app->magic_result = nn_str_new(cwd);
    free(cwd);
    return app->magic_result ? 0 : -1;
}

static int magic_cd(repl_app *app, const char *args)
{
    const char *home = getenv("HOME");
    char *target = NULL;
    if (!*args) {
        target = nn_strdup(home ? home : "/");
    } else if (!strcmp(args, "-")) {
        if (!previous_dir) return repl_app_usage_error(app, "%%cd -: no previous directory");
        target = nn_strdup(previous_dir);
    } else if (args[0] == '~' && (args[1] == '/' || !args[1]) && home) {
        target = nn_malloc(strlen(home) + strlen(args));
        if (target) sprintf(target, "%s%s", home, args + 1);
    } else {
        size_t n = strlen(args);
        target = nn_strdup(args);
        if (target && n >= 2 && (args[0] == '\'' || args[0] == '"') && args[n - 1] == args[0]) { /* %cd 'a b' */
            memmove(target, target + 1, n - 2);
            target[n - 2] = '\0';
        }
    }
    if (!target) return -1;
    char *before = getcwd(NULL, 0);
    if (chdir(target) < 0) { /* IPython prints the OSError and goes on */
        repl_app_printf(app, "[Errno %d] %s: '%s'\n", errno, strerror(errno), target);
        free(before);
        nn_free(target);
        return 0;
    }
    nn_free(target);
    if (before) {
        nn_free(previous_dir);
        previous_dir = nn_strdup(before);
        if (!previous_dir) nn_error_clear();
        free(before);
    }
    char *cwd = getcwd(NULL, 0);
    if (cwd) repl_app_printf(app, "%s\n", cwd);
    free(cwd);
    return 0;
}

/* %env: every variable (a dict), one (its value), or NAME=value / NAME value sets one. */
static int magic_env(repl_app *app, const char *args)
{
    if (!*args) {
        nn_object *d = nn_dict_new();
        for (char **e = environ; d && *e; e++) {
            const char *eq = strchr(*e, '=');
            if (!eq) continue;
            char *name = nn_malloc((size_t)(eq - *e) + 1);
            nn_object *value = name ? nn_str_new(eq + 1) : NULL;
            if (name) sprintf(name, "%.*s", (int)(eq - *e), *e);
            if (!value || nn_dict_set_str(d, name, value) < 0) NN_SET(d, NULL);
            NN_RELEASE(value);
            nn_free(name);
        }
        app->magic_result = d;
        return d ? 0 : -1;
    }
    size_t n = strcspn(args, "= \t");
    if (!args[n]) {
        const char *value = getenv(args);
        if (!value) return repl_app_usage_error(app, "Environment does not have key: %s", args);
        app->magic_result = nn_str_new(value);
        return app->magic_result ? 0 : -1;
    }
    const char *value = args + n + 1;
    while (isspace((unsigned char)*value)) value++;
    char *name = nn_malloc(n + 1);
    if (!name) return -1;
    sprintf(name, "%.*s", (int)n, args);
    int rc = setenv(name, value, 1);
    if (rc == 0) repl_app_printf(app, "env: %s=%s\n", name, value);
    else rc = repl_app_usage_error(app, "%%env: cannot set '%s': %s", name, strerror(errno));
    nn_free(name);
    return rc;
}

/* ------------------------------------------------------------------ IPython's aliases */

/* Whether ls gets --color: stdout a terminal and NO_COLOR unset, as the notebook's colors. */
static bool color_wanted(void)
{
    const char *no_color = getenv("NO_COLOR"), *term = getenv("TERM");
    return !(no_color && *no_color) && isatty(STDOUT_FILENO) && term && strcmp(term, "dumb") != 0;
}

static int alias(repl_app *app, const char *command, bool color, const char *args)
{
    size_t n = strlen(command) + strlen(args) + 16;
    char *cmd = nn_malloc(n);
    if (!cmd) return -1;
    snprintf(cmd, n, "%s%s%s%s", command, color && color_wanted() ? " --color" : "", *args ? " " : "", args);
    int rc = shell(app, cmd, NULL);
    nn_free(cmd);
    return rc;
}

#define ALIAS(fn, command, color) \
    static int fn(repl_app *app, const char *args) { return alias(app, command, color, args); }
ALIAS(alias_ls, "ls -F", true)
ALIAS(alias_ll, "ls -F -l", true)
ALIAS(alias_cat, "cat", false)
ALIAS(alias_cp, "cp", false)
ALIAS(alias_mv, "mv", false)
ALIAS(alias_rm, "rm", false)
ALIAS(alias_mkdir, "mkdir", false)
ALIAS(alias_rmdir, "rmdir", false)
#undef ALIAS

const repl_magic repl_magics_shell[] = {
    {"cd", "%cd [DIR | - | ~]", "change the working directory (none: $HOME; -: the previous one) and print it",
     magic_cd},
    {"pwd", "%pwd", "the working directory, echoed as Out[n]", magic_pwd},
    {"env", "%env [NAME[=VALUE]]", "the environment (a dict), one variable, or set one: %env NAME=VALUE", magic_env},
    {"ls", "%ls [ARGS]", "IPython's alias for ls -F (also %ll: ls -F -l)", alias_ls},
    {"ll", "%ll [ARGS]", "ls -F -l", alias_ll},
    {"cat", "%cat FILE ...", "the shell's cat (likewise %cp %mv %rm %mkdir %rmdir)", alias_cat},
    {"cp", "%cp ARGS", "the shell's cp", alias_cp},
    {"mv", "%mv ARGS", "the shell's mv", alias_mv},
    {"rm", "%rm ARGS", "the shell's rm", alias_rm},
    {"mkdir", "%mkdir ARGS", "the shell's mkdir", alias_mkdir},
    {"rmdir", "%rmdir ARGS", "the shell's rmdir", alias_rmdir},
    {NULL, NULL, NULL, NULL},
};
