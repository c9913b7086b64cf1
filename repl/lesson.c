/*
 * lesson.c — the guided mode (contract: lesson.h): finding a lesson in
 * tutorials/, splitting it into cells, the notebook's hooks around each
 * prompt, playing a lesson without a terminal, and the %lesson magic.
 * Not here: readline and the prompt (interactive.c), running a cell (app.c).
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "lesson.h"

#ifndef NNSCOPE_TUTORIALS_DIR
#define NNSCOPE_TUTORIALS_DIR "tutorials"
#endif

typedef struct lesson_cell {
    char *code;  /* the cell's text, without its "# %%" line and surrounding blank lines */
    char *title; /* what follows "# %%" (without a "[nnscope]" tag), or "" */
} lesson_cell;

typedef struct repl_lesson repl_lesson;
struct repl_lesson {
    char *name; /* "activations" */
    lesson_cell *cells;
    int n, next; /* cells[next] is the one shown next */
    bool greeted;
};

const char *repl_lesson_dir(void)
{
    const char *env = getenv("NNSCOPE_TUTORIALS");
    return env && *env ? env : NNSCOPE_TUTORIALS_DIR;
}

/* ------------------------------------------------------------ files */

/* The whole of a text file as a new nn_malloc'd string, or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    char *text = NULL;
    size_t cap = 0;
    ssize_t n = getdelim(&text, &cap, '\0', f);
    fclose(f);
    char *copy = n >= 0 ? nn_strdup(text) : nn_strdup("");
    free(text);
    return copy;
}

/* A lesson is tutorials/NAME.py whose first line is a comment (its one-line
   description), unless it is the twin of a C tutorial (NAME.c beside it). */
static bool is_lesson_file(const char *dir, const char *file)
{
    size_t n = strlen(file);
    if (n < 4 || strcmp(file + n - 3, ".py") != 0 || file[0] == '.') return false;
    char path[4096];
    snprintf(path, sizeof path, "%s/%.*s.c", dir, (int)(n - 3), file);
    FILE *twin = fopen(path, "r");
    if (twin) {
        fclose(twin);
        return false;
    }
    return true;
}

static int compare_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The lesson files of dir, sorted, as a NULL-terminated malloc'd array of
   malloc'd names (free with free_names); NULL when dir cannot be read. */
static char **lesson_files(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return NULL;
    size_t n = 0, cap = 16;
    char **names = malloc(cap * sizeof *names);
    struct dirent *e;
    while (names && (e = readdir(d)) != NULL) {
        if (!is_lesson_file(dir, e->d_name)) continue;
        if (n + 2 > cap) {
            char **grown = realloc(names, (cap *= 2) * sizeof *names);
            if (!grown) break;
            names = grown;
        }
        if ((names[n] = strdup(e->d_name)) != NULL) n++;
    }
    closedir(d);
    if (!names) return NULL;
    names[n] = NULL;
    qsort(names, n, sizeof *names, compare_names);
    return names;
}

static void free_names(char **names)
{
    for (size_t i = 0; names && names[i]; i++) free(names[i]);
    free(names);
}

/* "02_activations.py" -> number 2 and short name "activations" (no number: 0, the stem). */
static int split_name(const char *file, char *shortname, size_t size)
{
    int number = 0;
    const char *p = file;
    while (isdigit((unsigned char)*p)) number = number * 10 + (*p++ - '0');
    if (p == file || *p != '_') number = 0, p = file;
    else p++;
    size_t n = strcspn(p, ".");
    snprintf(shortname, size, "%.*s", (int)n, p);
    return number;
}

/* The lesson's description: its first line without "# ". */
static void first_line(const char *path, char *out, size_t size)
{
    out[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f) return;
    char line[512];
    if (fgets(line, sizeof line, f) && line[0] == '#') {
        char *s = line + 1;
        while (*s == ' ') s++;
        s[strcspn(s, "\n")] = '\0';
        snprintf(out, size, "%s", s);
    }
    fclose(f);
}

/* The path of the lesson NAME into path: a .py path as given, else the lesson
   file of the tutorials directory matching NAME by number, short name or stem. */
static bool find_lesson(const char *name, char *path, size_t size)
{
    size_t len = strlen(name);
    if (strchr(name, '/') || (len > 3 && !strcmp(name + len - 3, ".py"))) {
        snprintf(path, size, "%s", name);
        FILE *f = fopen(path, "r");
        if (f) fclose(f);
        return f != NULL;
    }
    const char *dir = repl_lesson_dir();
    char **files = lesson_files(dir);
    bool found = false;
    char *end;
    long number = strtol(name, &end, 10);
    bool numeric = end != name && *end == '\0';
    for (size_t i = 0; files && files[i] && !found; i++) {
        char shortname[256];
        int k = split_name(files[i], shortname, sizeof shortname);
        size_t stem = strlen(files[i]) - 3;
        found = numeric ? k > 0 && k == number
                        : !strcmp(shortname, name) || (strlen(name) == stem && !strncmp(files[i], name, stem));
        if (found) snprintf(path, size, "%s/%s", dir, files[i]);
    }
    free_names(files);
    return found;
}

/* %lesson: one line per lesson, "  2  activations   description". */
static int list_lessons(repl_app *app)
{
    const char *dir = repl_lesson_dir();
    char **files = lesson_files(dir);
    if (!files) return repl_app_usage_error(app, "no lessons: cannot read the directory %s (set NNSCOPE_TUTORIALS)", dir);
    for (size_t i = 0; files[i]; i++) {
        char shortname[256], path[4096], about[512];
        int number = split_name(files[i], shortname, sizeof shortname);
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        first_line(path, about, sizeof about);
        char num[16] = "";
        if (number > 0) snprintf(num, sizeof num, "%d", number);
        repl_app_printf(app, "%3s  %-12s %s\n", num, shortname, about);
    }
    repl_app_printf(app, "%%lesson NAME (or its number) plays one cell by cell: Enter runs the cell shown.\n");
    free_names(files);
    return 0;
}

/* ------------------------------------------------------------ cells */

static bool blank_line(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r') return false;
    return true;
}

/* Whether lines [from, to) hold something besides blanks and comments. */
static bool has_code(char **lines, int from, int to)
{
    for (int i = from; i < to; i++) {
        const char *s = lines[i] + strspn(lines[i], " \t\r");
        if (*s && *s != '#') return true;
    }
    return false;
}

/* Appends the cell of lines [from, to), blank lines at either end dropped, unless it has no code. */
static int add_cell(repl_lesson *l, char **lines, int from, int to, const char *title)
{
    while (from < to && blank_line(lines[from], strlen(lines[from]))) from++;
    while (to > from && blank_line(lines[to - 1], strlen(lines[to - 1]))) to--;
    if (!has_code(lines, from, to)) return 0;
    size_t len = 1;
    for (int i = from; i < to; i++) len += strlen(lines[i]) + 1;
    lesson_cell *grown = nn_realloc(l->cells, (size_t)(l->n + 1) * sizeof *grown);
    if (!grown) return -1;
    l->cells = grown;
    lesson_cell *c = &l->cells[l->n];
    c->code = nn_malloc(len);
    c->title = nn_strdup(title);
    if (!c->code || !c->title) {
        nn_free(c->code);
        nn_free(c->title);
        return -1;
    }
    char *p = c->code;
    for (int i = from; i < to; i++) p += sprintf(p, i + 1 < to ? "%s\n" : "%s", lines[i]);
    *p = '\0';
    l->n++;
    return 0;
}

/* "# %% [nnscope] the curves" -> "the curves" */
static void marker_title(const char *line, char *out, size_t size)
{
    const char *s = line + 4;
    while (*s == ' ') s++;
    if (!strncmp(s, "[nnscope]", 9)) s += 9;
    while (*s == ' ') s++;
    snprintf(out, size, "%s", s);
    out[strcspn(out, "\r")] = '\0';
}

static bool is_marker(const char *line) { return !strncmp(line, "# %%", 4); }

/* Cells at the top-level statements: each statement starts a cell, taking
   the comments and decorators at column 0 just above it. */
static int split_statements(repl_lesson *l, const char *source, char **lines, int n)
{
    repl_ast_arena *arena = NULL;
    repl_node *mod = repl_parse(source, l->name, REPL_PARSE_FILE, &arena, NULL);
    if (!mod) return -1;
    int rc = 0, prev = 0;
    const repl_node_list *body = &mod->v.Module.body;
    for (int i = 0; i <= body->n && rc == 0; i++) {
        int start = n;
        if (i < body->n) {
            start = body->items[i]->line - 1;
            if (body->items[i]->kind == REPL_AST_FunctionDef || body->items[i]->kind == REPL_AST_ClassDef) {
                const repl_node_list *decorators = body->items[i]->kind == REPL_AST_FunctionDef
                                                       ? &body->items[i]->v.FunctionDef.decorator_list
                                                       : &body->items[i]->v.ClassDef.decorator_list;
                for (int d = 0; d < decorators->n; d++)
                    if (decorators->items[d]->line - 1 < start) start = decorators->items[d]->line - 1;
            }
            while (start > prev && (lines[start - 1][0] == '#' || lines[start - 1][0] == '@' ||
                                    blank_line(lines[start - 1], strlen(lines[start - 1]))))
                start--;
        }
        if (i > 0) rc = add_cell(l, lines, prev, start, "");
        prev = start;
    }
    repl_ast_arena_free(arena);
    return rc;
}

/* Splits source into the lesson's cells. 0, or -1 with the error set. */
static int split_cells(repl_lesson *l, char *source)
{
    int n = 0, cap = 64;
    char **lines = nn_malloc((size_t)cap * sizeof *lines);
    if (!lines) return -1;
    char *copy = nn_strdup(source);
    if (!copy) {
        nn_free(lines);
        return -1;
    }
    bool markers = false;
    for (char *p = copy; p && *p;) {
        if (n == cap) {
            char **grown = nn_realloc(lines, (size_t)(cap *= 2) * sizeof *lines);
            if (!grown) {
                nn_free(lines);
                nn_free(copy);
                return -1;
            }
            lines = grown;
        }
        lines[n++] = p;
        markers = markers || is_marker(p);
        p = strchr(p, '\n');
        if (p) *p++ = '\0';
    }
    int rc = 0;
    if (markers) {
        int from = 0;
        char title[256] = "";
        for (int i = 0; i <= n && rc == 0; i++) {
            if (i < n && !is_marker(lines[i])) continue;
            rc = add_cell(l, lines, from, i, title);
            if (i < n) marker_title(lines[i], title, sizeof title);
            from = i + 1;
        }
    } else {
        rc = split_statements(l, source, lines, n);
    }
    nn_free(lines);
    nn_free(copy);
    return rc;
}

static void lesson_free(repl_lesson *l)
{
    if (!l) return;
    for (int i = 0; i < l->n; i++) {
        nn_free(l->cells[i].code);
        nn_free(l->cells[i].title);
    }
    nn_free(l->cells);
    nn_free(l->name);
    nn_free(l);
}

void repl_lesson_free(repl_app *app)
{
    lesson_free(app->lesson);
    app->lesson = NULL;
}

/* The lesson NAME, split into cells, or NULL with the error set. */
static repl_lesson *lesson_load(const char *name)
{
    char path[4096];
    if (!find_lesson(name, path, sizeof path)) {
        nn_error_set(NN_ERR_VALUE, "no lesson '%s' (%%lesson lists them)", name);
        return NULL;
    }
    char *source = slurp(path);
    repl_lesson *l = source ? nn_calloc(1, sizeof *l) : NULL;
    char shortname[256];
    const char *base = strrchr(path, '/');
    split_name(base ? base + 1 : path, shortname, sizeof shortname);
    if (!l || !(l->name = nn_strdup(shortname)) || split_cells(l, source) < 0) {
        if (!source) nn_error_set(NN_ERR_VALUE, "cannot read the lesson %s", path);
        lesson_free(l);
        nn_free(source);
        return NULL;
    }
    nn_free(source);
    if (l->n == 0) {
        nn_error_set(NN_ERR_VALUE, "the lesson %s has no cells of code", path);
        lesson_free(l);
        return NULL;
    }
    return l;
}

/* ------------------------------------------------------------ the notebook */

int repl_lesson_start(repl_app *app, const char *name, int64_t first)
{
    repl_lesson *l = lesson_load(name);
    if (!l) return -1;
    if (first < 1 || first > l->n) {
        nn_error_set(NN_ERR_VALUE, "the lesson %s has cells 1 to %d, not %lld", l->name, l->n, (long long)first);
        lesson_free(l);
        return -1;
    }
    l->next = (int)(first - 1);
    repl_lesson_free(app);
    app->lesson = l;
    return 0;
}

bool repl_lesson_before_prompt(repl_app *app)
{
    repl_lesson *l = app->lesson;
    if (!l || app->pending_input) return false;
    if (!l->greeted) {
        printf("Lesson %s, %d cells. Enter runs the cell shown (edit it first if you like); empty the line\n"
               "(Ctrl-C) to type your own cells, the lesson's comes back after them. %%lesson stop ends it.\n\n",
               l->name, l->n);
        l->greeted = true;
    }
    lesson_cell *c = &l->cells[l->next];
    printf("[lesson %s, cell %d of %d%s%s]\n", l->name, l->next + 1, l->n, *c->title ? ": " : "", c->title);
    app->pending_input = nn_strdup(c->code);
    if (!app->pending_input) nn_error_clear();
    return app->pending_input != NULL;
}

void repl_lesson_after_cell(repl_app *app, bool was_shown, bool failed)
{
    repl_lesson *l = app->lesson;
    if (!l || !was_shown) return;
    if (failed) {
        printf("[the cell raised: it is shown again; %%lesson skip goes on to the next]\n");
        return;
    }
    if (++l->next < l->n) return;
    printf("\n[lesson %s is done; %%lesson lists the others]\n", l->name);
    repl_lesson_free(app);
}

/* ------------------------------------------------------------ without a terminal */

int repl_lesson_play(repl_app *app, const char *name)
{
    repl_lesson *l = lesson_load(name);
    if (!l) {
        fprintf(stderr, "nnscope: %s\n", nn_error_message());
        nn_error_clear();
        return 2;
    }
    int status = 0;
    for (int i = 0; i < l->n && status == 0 && !app->exit_requested; i++) {
        fflush(stdout);
        if (repl_app_run_cell(app, l->cells[i].code, NULL) != 0) status = 1;
    }
    if (app->exit_requested) status = app->exit_status;
    lesson_free(l);
    return status;
}

/* ------------------------------------------------------------ %lesson */

/* The lesson's state belongs to the notebook: what %lesson says about it goes
   to the terminal, not into the cell's recorded output, and outside the
   notebook (a replay, whose cells were recorded as run) %lesson NAME, stop and
   skip change nothing. */
static int magic_lesson(repl_app *app, const char *args)
{
    if (!*args) return list_lessons(app);
    bool stop = !strcmp(args, "stop"), skip = !strcmp(args, "skip");
    bool notebook = app->opt.interactive && !app->opt.headless;
    if ((stop || skip) && !notebook) return 0;
    if ((stop || skip) && !app->lesson) return repl_app_usage_error(app, "no lesson is running");
    if (stop) {
        printf("[lesson %s stopped at cell %d of %d]\n", app->lesson->name, app->lesson->next + 1, app->lesson->n);
        repl_lesson_free(app);
        return 0;
    }
    if (skip) {
        if (++app->lesson->next == app->lesson->n) repl_lesson_free(app);
        return 0;
    }
    char name[1024];
    long long first = 1;
    int used = 0;
    if (sscanf(args, "%1023s %n", name, &used) < 1) return repl_app_usage_error(app, "%%lesson [NAME [CELL]]");
    if (args[used]) {
        char *end;
        first = strtoll(args + used, &end, 10);
        if (end == args + used || *end) return repl_app_usage_error(app, "%%lesson NAME CELL: CELL is a number");
    }
    if (repl_lesson_start(app, name, first) < 0) return -1;
    if (!notebook) repl_lesson_free(app);
    return 0;
}

const repl_magic repl_magics_lesson[] = {
    {"lesson", "%lesson [NAME [CELL] | stop | skip]",
     "list the lessons of tutorials/, or play one cell by cell (Enter runs the cell shown)", magic_lesson},
    {NULL, NULL, NULL, NULL},
};
