/*
 * magics_paste.c — pasting code, as IPython 8: %cpaste reads lines from the
 * terminal (prompt ':') until a line `--` alone or Ctrl-D, cleans them as
 * IPython's input transformers do (leading blank lines, `>>> ` / `... ` and
 * `In [n]: ` / `...: ` prompts, `> ` e-mail quotes, the first line's
 * indentation) and runs them as one cell; %autoindent toggles the notebook's
 * auto-indentation (interactive.c reads app->autoindent_off).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"

/* One line from the terminal (cooked mode: the kernel echoes it) without its
   newline, as a new nn_malloc'd string; NULL at end of input (Ctrl-D). Read
   byte by byte, as repl_app_ask_yes_no, so readline gets what follows. */
static char *read_line(void)
{
    size_t len = 0, cap = 128;
    char *s = nn_malloc(cap), c;
    if (!s) return NULL;
    ssize_t got;
    while ((got = read(STDIN_FILENO, &c, 1)) == 1 && c != '\n') {
        if (len + 2 > cap) {
            char *grown = nn_realloc(s, cap *= 2);
            if (!grown) break;
            s = grown;
        }
        s[len++] = c;
    }
    s[len] = '\0';
    if (got != 1 && len == 0) {
        nn_free(s);
        return NULL;
    }
    return s;
}

char *repl_app_read_line(void) { return read_line(); }

/* The length of a prompt at the start of line, blanks before it included
   (">>> ", "... ", "In [12]: ", "   ...: "), or 0; an empty ">>>" / "..."
   line counts too. */
static size_t prompt_len(const char *line)
{
    const char *p = line + strspn(line, " \t");
    if (!strncmp(p, ">>>", 3) || !strncmp(p, "...", 3))
        return p[3] == ' ' ? (size_t)(p - line) + 4 : p[3] == '\0' ? (size_t)(p - line) + 3 : 0;
    if (!strncmp(p, "In [", 4)) {
        p += 4;
        if (!isdigit((unsigned char)*p)) return 0;
        while (isdigit((unsigned char)*p)) p++;
        if (strncmp(p, "]:", 2)) return 0;
        p += 2;
        return (size_t)(p - line) + (*p == ' ');
    }
    if (!strncmp(p, "...:", 4)) return (size_t)(p + 4 - line) + (p[4] == ' ');
    return 0;
}

/* The pasted lines (n of them, each nn_malloc'd) cleaned into one source text. */
static char *clean_paste(char **lines, size_t n)
{
    size_t first = 0;
    while (first < n && lines[first][strspn(lines[first], " \t")] == '\0') first++;
    bool quoted = first < n, prompted = first < n;
    for (size_t i = first; i < n; i++) {
        if (lines[i][0] && strncmp(lines[i], "> ", 2) && strcmp(lines[i], ">")) quoted = false;
        if (lines[i][0] && !prompt_len(lines[i] + (quoted ? 2 : 0))) prompted = false;
    }
    size_t total = 2, indent = 0;
    for (size_t i = first; i < n; i++) total += strlen(lines[i]) + 1;
    char *out = nn_malloc(total);
    if (!out) return NULL;
    size_t o = 0;
    for (size_t i = first; i < n; i++) {
        const char *l = lines[i];
        if (quoted) l += l[0] == '>' ? (l[1] == ' ' ? 2 : 1) : 0;
        if (prompted) l += prompt_len(l);
        if (i == first) indent = strspn(l, " \t");
        size_t lead = strspn(l, " \t");
        l += lead < indent ? lead : indent;
        o += (size_t)sprintf(out + o, "%s\n", l);
    }
    out[o] = '\0';
    return out;
}

static int magic_cpaste(repl_app *app, const char *args)
{
    (void)args;
    if (!app->opt.interactive) return repl_app_usage_error(app, "%%cpaste reads from the terminal: use %%run FILE");
    repl_app_printf(app, "Pasting code; enter '--' alone on the line to stop or use Ctrl-D.\n");
    char **lines = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    for (;;) {
        repl_app_write(app, ":", 1);
        if (!app->out_write) fflush(stdout);
        char *line = read_line();
        if (!line) {
            repl_app_write(app, "<EOF>\n", 6);
            break;
        }
        if (!strcmp(line, "--")) {
            nn_free(line);
            break;
        }
        if (n == cap) {
            char **grown = nn_realloc(lines, (cap = cap ? cap * 2 : 16) * sizeof *lines);
            if (!grown) {
                nn_free(line);
                rc = -1;
                break;
            }
            lines = grown;
        }
        lines[n++] = line;
    }
    char *source = rc == 0 ? clean_paste(lines, n) : NULL;
    for (size_t i = 0; i < n; i++) nn_free(lines[i]);
    nn_free(lines);
    if (!source) return -1;
    nn_object *value = NULL;
    if (*source) rc = repl_app_exec(app, source, "<cpaste>", REPL_PARSE_SINGLE, &value);
    nn_free(source);
    if (rc == -2) return repl_app_usage_error(app, "%%cpaste: the pasted code is incomplete");
    if (rc != 0) return -1;
    app->magic_result = value; /* echoed as Out[n], as the cell it stands for */
    return 0;
}

static int magic_autoindent(repl_app *app, const char *args)
{
    (void)args;
    app->autoindent_off = !app->autoindent_off;
    repl_app_printf(app, "Automatic indentation is: %s\n", app->autoindent_off ? "OFF" : "ON");
    return 0;
}

const repl_magic repl_magics_paste[] = {
    {"cpaste", "%cpaste", "paste code (prompts >>> and In [n]: removed) until a line -- or Ctrl-D, then run it",
     magic_cpaste},
    {"autoindent", "%autoindent", "toggle the automatic indentation of continuation lines", magic_autoindent},
    {NULL, NULL, NULL, NULL},
};
