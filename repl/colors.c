/*
 * colors.c — IPython 8's default colours where the notebook prints (the In
 * prompt's are interactive.c's): Out[n]: in red with its number bright red
 * and bold, and tracebacks in the Neutral scheme (the "Traceback" line and the
 * exception's name red, file names and line numbers green, function names
 * magenta). Only when app->color (a colour terminal, NO_COLOR unset) and the
 * output goes to stdout/stderr: the escapes never reach the cell's captured
 * text, which sessions record.
 */
#include <stdio.h>
#include <string.h>

#include "app.h"

#define RED "\033[0;31m"
#define GREEN "\033[0;32m"
#define MAGENTA "\033[0;35m"
#define NORMAL "\033[0m"

static bool colored(repl_app *app, bool err) { return app->color && !(err ? app->err_write : app->out_write); }

void repl_app_out_prompt(repl_app *app, long long n)
{
    bool c = colored(app, false);
    char num[32];
    snprintf(num, sizeof num, "%lld", n);
    if (c) fputs(RED, stdout);
    repl_app_write(app, "Out[", 4);
    if (c) fputs("\033[1;91m", stdout);
    repl_app_write(app, num, strlen(num));
    if (c) fputs(RED, stdout);
    repl_app_write(app, "]: ", 3);
    if (c) fputs(NORMAL, stdout);
}

/* One `  File "name", line N, in func` line, coloured; false when line is not one. */
static bool file_line(FILE *f, const char *line, size_t n)
{
    const char *lead = "  File \"";
    size_t k = strlen(lead);
    if (n < k || strncmp(line, lead, k)) return false;
    const char *close = memchr(line + k, '"', n - k);
    if (!close) return false;
    const char *name = line + k - 1; /* the quoted file name */
    fprintf(f, "  File " GREEN "%.*s" NORMAL, (int)(close + 1 - name), name);
    const char *p = close + 1, *end = line + n;
    if (end - p > 7 && !strncmp(p, ", line ", 7)) {
        size_t digits = strspn(p + 7, "0123456789");
        fprintf(f, ", line " GREEN "%.*s" NORMAL, (int)digits, p + 7);
        p += 7 + digits;
    }
    if (end - p > 5 && !strncmp(p, ", in ", 5)) {
        fprintf(f, ", in " MAGENTA "%.*s" NORMAL, (int)(end - p - 5), p + 5);
        p = end;
    }
    fprintf(f, "%.*s", (int)(end - p), p);
    return true;
}

/* Whether line[0..n) starts with an exception's name ("ValueError: ...",
   "torch.cuda.OutOfMemoryError"): *name_len its length. */
static bool exception_line(const char *line, size_t n, size_t *name_len)
{
    size_t i = 0;
    while (i < n && (line[i] == '_' || line[i] == '.' || (line[i] >= 'A' && line[i] <= 'Z') ||
                     (line[i] >= 'a' && line[i] <= 'z') || (line[i] >= '0' && line[i] <= '9')))
        i++;
    if (i == 0 || !(line[0] >= 'A' && line[0] <= 'Z') || (i < n && line[i] != ':')) return false;
    *name_len = i;
    return true;
}

void repl_app_print_error(repl_app *app, FILE *f, const char *text)
{
    if (!colored(app, true)) {
        fprintf(f, "%s\n", text);
        return;
    }
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n"), name_len;
        if (!strncmp(p, "Traceback (", 11) || !strncmp(p, "An exception has occurred", 25))
            fprintf(f, RED "%.*s" NORMAL, (int)n, p);
        else if (file_line(f, p, n)) {
        } else if (exception_line(p, n, &name_len))
            fprintf(f, RED "%.*s" NORMAL "%.*s", (int)name_len, p, (int)(n - name_len), p + name_len);
        else
            fprintf(f, "%.*s", (int)n, p);
        fputc('\n', f);
        p += n + (p[n] == '\n');
    }
    if (*text && text[strlen(text) - 1] == '\n') fputc('\n', f);
}
