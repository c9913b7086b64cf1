/*
 * translate.c — what a .py export writes for a cell's lines: magics and shell
 * lines as the Python that does the same where there is one (%time STMT is STMT,
 * %cd is os.chdir, !cmd is subprocess.run, obj? is help(obj), ...), and for a
 * cell that raised, where the statement that raised starts (the statements
 * before it ran, and stay code).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sess_int.h"

/* Appends [s, s + n) as a Python string literal ('...', escapes for \, ', and
   control characters; other bytes as they are). */
static void py_string(sess_buf *b, const char *s, size_t n)
{
    sess_buf_puts(b, "'");
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\\' || c == '\'') {
            char esc[2] = {'\\', (char)c};
            sess_buf_append(b, esc, 2);
        } else if (c < 0x20 || c == 0x7f) {
            sess_buf_printf(b, "\\x%02x", c);
        } else {
            sess_buf_append(b, s + i, 1);
        }
    }
    sess_buf_puts(b, "'");
}

static int is_ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Whether [s, s + n) is a dotted name (model.fc.weight). */
static int dotted_name(const char *s, size_t n)
{
    if (!n || !(isalpha((unsigned char)s[0]) || s[0] == '_')) return 0;
    for (size_t i = 0; i < n; i++)
        if (!is_ident_char(s[i]) && !(s[i] == '.' && i + 1 < n && !isdigit((unsigned char)s[i + 1]) && s[i + 1] != '.'))
            return 0;
    return 1;
}

/* A shell command the export can hand to the shell as it is: no IPython
   expansion ({expr}, $name) in it. */
static int plain_command(const char *s, size_t n)
{
    return n && !memchr(s, '{', n) && !memchr(s, '$', n);
}

/* The aliases IPython defines for shell commands (%ls is ls). */
static const char *const aliases[] = {"ls", "ll", "cat", "cp", "mv", "rm", "mkdir", "rmdir", NULL};

int sess_py_line(sess_buf *b, const char *line, size_t len)
{
    size_t ind = 0;
    while (ind < len && (line[ind] == ' ' || line[ind] == '\t')) ind++;
    const char *s = line + ind;
    size_t n = len - ind;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    /* obj? and obj??: help that a script need not print */
    size_t q = n;
    while (q && s[q - 1] == '?') q--;
    if (q < n && n - q <= 2 && dotted_name(s, q)) return -1;
    /* name = !cmd: the lines of its output */
    size_t k = 0;
    while (k < n && is_ident_char(s[k])) k++;
    size_t eq = k;
    while (eq < n && s[eq] == ' ') eq++;
    if (k && eq + 1 < n && s[eq] == '=' && s[eq + 1] != '=') {
        size_t c = eq + 1;
        while (c < n && s[c] == ' ') c++;
        if (c < n && s[c] == '!' && (c + 1 >= n || s[c + 1] != '!') && plain_command(s + c + 1, n - c - 1)) {
            sess_buf_append(b, line, ind);
            sess_buf_printf(b, "import subprocess; %.*s = subprocess.run(", (int)k, s);
            py_string(b, s + c + 1, n - c - 1);
            sess_buf_puts(b, ", shell=True, capture_output=True, text=True).stdout.splitlines()\n");
            return 1;
        }
    }
    if (n && s[0] == '!') {
        if (n > 1 && s[1] != '!' && plain_command(s + 1, n - 1)) {
            sess_buf_append(b, line, ind);
            sess_buf_puts(b, "import subprocess; subprocess.run(");
            py_string(b, s + 1, n - 1);
            sess_buf_puts(b, ", shell=True)\n");
            return 1;
        }
        return -1;
    }
    if (!n || s[0] != '%') return 0;
    if (n > 1 && s[1] == '%') return -1;
    /* %name args, translated into t, appended after the indentation when there is a translation */
    const char *name = s + 1;
    size_t nl = 0;
    while (nl < n - 1 && is_ident_char(name[nl])) nl++;
    const char *args = name + nl;
    size_t al = n - 1 - nl;
    while (al && (*args == ' ' || *args == '\t')) args++, al--;
    sess_buf t = {0};
    int alias = 0;
#define IS(word) (nl == strlen(word) && !strncmp(name, word, nl))
    for (int i = 0; aliases[i]; i++)
        if (IS(aliases[i])) alias = 1;
    if (IS("time") && al) {
        sess_buf_printf(&t, "%.*s\n", (int)al, args);
    } else if (IS("cd") && !(al == 1 && args[0] == '-') && (al < 2 || strncmp(args, "-b", 2))) {
        sess_buf_puts(&t, "import os; os.chdir(os.path.expanduser(");
        if (al) py_string(&t, args, al);
        else sess_buf_puts(&t, "'~'");
        sess_buf_puts(&t, "))\n");
    } else if (IS("pwd") && !al) {
        sess_buf_puts(&t, "import os; os.getcwd()\n");
    } else if (IS("env")) {
        const char *sep = memchr(args, '=', al);
        if (!sep) sep = memchr(args, ' ', al);
        if (!al) {
            sess_buf_puts(&t, "import os; dict(os.environ)\n");
        } else if (!sep) {
            sess_buf_puts(&t, "import os; os.environ[");
            py_string(&t, args, al);
            sess_buf_puts(&t, "]\n");
        } else {
            const char *v = sep + 1;
            while (v < args + al && *v == ' ') v++;
            sess_buf_puts(&t, "import os; os.environ[");
            py_string(&t, args, (size_t)(sep - args));
            sess_buf_puts(&t, "] = ");
            py_string(&t, v, (size_t)(args + al - v));
            sess_buf_puts(&t, "\n");
        }
    } else if (IS("run") && al && !memchr(args, ' ', al) && args[0] != '-') {
        sess_buf_puts(&t, "exec(open(");
        py_string(&t, args, al);
        sess_buf_puts(&t, ").read())\n");
    } else if (alias && plain_command(args, al)) {
        const char *cmd = IS("ll") ? "ls -F -l" : IS("ls") ? "ls -F" : NULL; /* IPython's alias table */
        sess_buf_puts(&t, "import subprocess; subprocess.run('");
        if (cmd) sess_buf_puts(&t, cmd);
        else sess_buf_append(&t, name, nl);
        sess_buf_puts(&t, "'");
        if (al) {
            sess_buf_puts(&t, " + ' ' + ");
            py_string(&t, args, al);
        }
        sess_buf_puts(&t, ", shell=True)\n");
    }
#undef IS
    int translated = t.len > 0;
    if (translated) {
        sess_buf_append(b, line, ind);
        sess_buf_append(b, t.s, t.len);
    }
    if (t.failed) b->failed = 1;
    sess_buf_free(&t);
    return translated ? 1 : -1;
}

/* The line of the cell's own frame in an error text: the first
   'File "...", line L, in <module>' (the traceback's outermost frame), 0 when
   there is none (a SyntaxError, a magic's error). */
static long module_line(const char *error)
{
    for (const char *p = error; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        const char *f = p;
        while (*f == ' ') f++;
        if (strncmp(f, "File \"", 6)) continue;
        const char *e = strchr(f + 6, '\n');
        size_t n = e ? (size_t)(e - f) : strlen(f);
        const char *at = NULL;
        for (size_t i = 0; i + 8 <= n; i++)
            if (!strncmp(f + i, "\", line ", 8)) at = f + i + 8;
        if (!at) continue;
        char *end;
        long line = strtol(at, &end, 10);
        if (end > at && (size_t)(end - f) + 13 <= n && !strncmp(end, ", in <module>", 13)) return line;
    }
    return 0;
}

/* Whether line (at column 0) continues the statement before it: else/elif/
   except/finally, or a def/class after decorators. */
static int continues(const char *s, size_t n, int after_decorator)
{
    static const char *const words[] = {"else", "elif", "except", "finally", NULL};
    for (int i = 0; words[i]; i++) {
        size_t w = strlen(words[i]);
        if (n >= w && !strncmp(s, words[i], w) && (n == w || !is_ident_char(s[w]))) return 1;
    }
    if (after_decorator)
        return (n >= 4 && !strncmp(s, "def ", 4)) || (n >= 6 && !strncmp(s, "class ", 6)) ||
               (n >= 10 && !strncmp(s, "async def ", 10)) || (n && s[0] == '@');
    return 0;
}

long sess_failed_statement(const char *source, const char *error)
{
    long fail = error ? module_line(error) : 0;
    if (fail < 1) return 0;
    long start = 0, line = 1;
    int depth = 0, backslash = 0, decorator = 0;
    char quote = 0; /* inside a triple-quoted string: its quote character */
    /* lines end where Python's tokenizer ends them (\n, \r\n, a lone \r), as the traceback counts them */
    for (const char *p = source; *p && line <= fail; line++) {
        size_t n = strcspn(p, "\r\n");
        if (!depth && !backslash && !quote && n && p[0] != ' ' && p[0] != '\t' && p[0] != '#') {
            if (!continues(p, n, decorator)) start = line;
            decorator = p[0] == '@';
        }
        /* brackets, strings and comments of this line, for the next one */
        backslash = 0;
        for (size_t i = 0; i < n; i++) {
            char c = p[i];
            if (quote) {
                if (c == '\\') i++;
                else if (c == quote && i + 2 < n + 1 && p[i + 1] == quote && p[i + 2] == quote) quote = 0, i += 2;
                continue;
            }
            if (c == '#') break;
            if (c == '\'' || c == '"') {
                if (i + 2 < n && p[i + 1] == c && p[i + 2] == c) {
                    quote = c;
                    i += 2;
                    continue;
                }
                for (i++; i < n && p[i] != c; i++)
                    if (p[i] == '\\') i++;
                continue;
            }
            if (c == '(' || c == '[' || c == '{') depth++;
            else if ((c == ')' || c == ']' || c == '}') && depth) depth--;
            else if (c == '\\' && i + 1 == n) backslash = 1;
        }
        p += n + (p[n] == '\r' && p[n + 1] == '\n' ? 2 : p[n] != '\0');
    }
    return start;
}
