/*
 * help.c — `obj?` and `obj??` as IPython 8's pinfo: fields ("Signature:",
 * "Type:", "String form:", "Docstring:", ...) aligned as IPython aligns them,
 * a field of several lines starting on the line after its title. `??` shows
 * the source of what was written in the language (a def, a lambda, a class;
 * an instance's class) with its file and line. A text taller than the
 * terminal goes through a pager: $PAGER, else `less -R`, else a built-in one.
 * help(obj) keeps pydoc's text (builtins.c).
 */
#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "app.h"
#include "summary.h"
#include "bind.h"
#include "eval_int.h"

/* ------------------------------------------------------------------ fields */

enum { MAX_FIELDS = 12, STRING_MAX = 200 };

typedef struct pinfo {
    const char *title[MAX_FIELDS];
    char *content[MAX_FIELDS]; /* nn_malloc'd */
    int n;
} pinfo;

/* Adds a field taking content (NULL or empty: the field is left out, as IPython). */
static void field_take(pinfo *p, const char *title, char *content)
{
    if (!content || !*content || p->n == MAX_FIELDS) {
        nn_free(content);
        return;
    }
    p->title[p->n] = title;
    p->content[p->n++] = content;
}

static void field(pinfo *p, const char *title, const char *content)
{
    field_take(p, title, content ? nn_strdup(content) : NULL);
}

/* IPython's _format_fields_str: titles padded to the longest + 2. A new string. */
static char *format_fields(pinfo *p)
{
    size_t width = 0, total = 1;
    for (int i = 0; i < p->n; i++) {
        if (strlen(p->title[i]) + 2 > width) width = strlen(p->title[i]) + 2;
        total += strlen(p->content[i]) + 2;
    }
    total += (width + 2) * (size_t)p->n;
    char *out = nn_malloc(total);
    if (!out) return NULL;
    size_t o = 0;
    for (int i = 0; i < p->n; i++) {
        char title[64];
        snprintf(title, sizeof title, "%s:", p->title[i]);
        if (strchr(p->content[i], '\n')) o += (size_t)sprintf(out + o, "%s\n%s\n", title, p->content[i]);
        else o += (size_t)sprintf(out + o, "%-*s%s\n", (int)width, title, p->content[i]);
    }
    out[o] = '\0';
    return out;
}

static void pinfo_free(pinfo *p)
{
    for (int i = 0; i < p->n; i++) nn_free(p->content[i]);
}

/* ------------------------------------------------------------------ source */

/* The 1-based line `line` of text and on: the block it starts (the lines after
   it that are blank or indented deeper), or that line alone; dedented. A new
   string, or NULL. */
static char *block_at(const char *text, int line, bool one_line)
{
    const char *p = text;
    for (int l = 1; l < line && p; l++) {
        p = strchr(p, '\n');
        if (p) p++;
    }
    if (!p || !*p) return NULL;
    size_t base = strspn(p, " \t");
    const char *end = p + strcspn(p, "\n"), *last = end;
    while (!one_line && *end == '\n') {
        const char *next = end + 1, *next_end = next + strcspn(next, "\n");
        size_t indent = strspn(next, " \t");
        bool blank = next + indent == next_end;
        if (!blank && indent <= base) break;
        end = next_end;
        if (!blank) last = end;
    }
    size_t cap = (size_t)(last - p) + 2;
    char *out = nn_malloc(cap);
    if (!out) return NULL;
    size_t o = 0;
    for (const char *q = p; q < last;) {
        const char *e = q + strcspn(q, "\n");
        if (e > last) e = last;
        size_t skip = strspn(q, " \t");
        if (skip > base) skip = base;
        if (q + skip > e) skip = (size_t)(e - q);
        memcpy(out + o, q + skip, (size_t)(e - q - (ptrdiff_t)skip));
        o += (size_t)(e - q) - skip;
        out[o++] = '\n';
        q = e + (*e == '\n');
    }
    while (o > 0 && out[o - 1] == '\n') o--;
    out[o] = '\0';
    return out;
}

/* The line (1-based) of the last line before `before` (0: anywhere) in text
   that starts a class named name ("class Name(" or "class Name:"), or 0. */
static int class_line(const char *text, const char *name, int before)
{
    int found = 0, l = 1;
    size_t n = strlen(name);
    for (const char *p = text; p && *p && (before == 0 || l < before); l++) {
        const char *q = p + strspn(p, " \t");
        if (!strncmp(q, "class ", 6)) {
            q += 6 + strspn(q + 6, " ");
            if (!strncmp(q, name, n) && (q[n] == '(' || q[n] == ':' || q[n] == ' ')) found = l;
        }
        p = strchr(p, '\n');
        if (p) p++;
    }
    return found;
}

typedef struct source_info {
    char *text;           /* nn_malloc'd */
    const char *filename; /* borrowed */
    char file_buf[48];
    int line;
} source_info;

/* Where a def or lambda was written: false when unknown. */
static bool function_source(const func_obj *fn, source_info *s)
{
    const char *text, *filename;
    repl_code_unit_text(fn->unit, &text, &filename);
    if (!text || !fn->args) return false;
    s->line = fn->args->line;
    s->filename = filename;
    s->text = block_at(text, s->line, fn->body_expr != NULL);
    return s->text != NULL;
}

/* Where a language class was written: before one of its methods in that
   method's source, else the last cell of In that defines it. */
static bool class_source(repl_app *app, const class_obj *c, source_info *s)
{
    const char **keys = repl_nmap_keys_ordered(&c->dict);
    for (uint32_t i = 0; keys && i < c->dict.len; i++) {
        nn_object *v = repl_nmap_get(&c->dict, keys[i]);
        const func_obj *fn = v && v->type == &repl_function_type ? (const func_obj *)v : NULL;
        const char *text, *filename;
        if (!fn || fn->owner != &c->ob || !fn->args) continue;
        repl_code_unit_text(fn->unit, &text, &filename);
        int line = text ? class_line(text, c->name, fn->args->line) : 0;
        if (line) {
            nn_free(keys);
            s->line = line;
            s->filename = filename;
            s->text = block_at(text, line, false);
            return s->text != NULL;
        }
    }
    nn_free(keys);
    if (!keys) nn_error_clear();
    for (size_t i = nn_list_len(app->in_list); i-- > 1;) {
        nn_object *cell = nn_list_get(app->in_list, i);
        int line = nn_is_str(cell) ? class_line(nn_str_cstr(cell), c->name, 0) : 0;
        if (!line) continue;
        snprintf(s->file_buf, sizeof s->file_buf, "<ipython-input-%zu>", i);
        s->filename = s->file_buf;
        s->line = line;
        s->text = block_at(nn_str_cstr(cell), line, false);
        return s->text != NULL;
    }
    return false;
}

static char *file_field(const source_info *s)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s, line %d", s->filename ? s->filename : "<unknown>", s->line);
    return nn_strdup(buf);
}

/* ------------------------------------------------------------------ the fields */

/* "NAME(params)" for the object typed as name, from repl_signature's "f(params)". */
static char *definition(repl_app *app, const char *name, nn_object *callable)
{
    char *sig = repl_signature(app->interp, callable);
    if (!sig) {
        nn_error_clear();
        return NULL;
    }
    char *paren = strchr(sig, '(');
    char *out = paren ? nn_malloc(strlen(name) + strlen(paren) + 1) : NULL;
    if (out) sprintf(out, "%s%s", name, paren);
    nn_free(sig);
    return out;
}

/* IPython's string form: str(obj), in `?` cut to its first and last 100
   characters around " <...> " when longer than 200. */
static char *string_form(repl_app *app, nn_object *obj, int detail)
{
    char *s = repl_str(app->interp, obj);
    if (!s) {
        nn_error_clear();
        return NULL;
    }
    size_t n = strlen(s);
    if (detail == 0 && n > STRING_MAX) {
        char *cut = nn_malloc(STRING_MAX + 8);
        if (cut) sprintf(cut, "%.*s <...> %s", STRING_MAX / 2, s, s + n - STRING_MAX / 2);
        nn_free(s);
        s = cut;
    }
    return s;
}

static char *length_of(repl_app *app, const char *name)
{
    char src[320];
    snprintf(src, sizeof src, "len(%s)", name);
    nn_object *v = NULL;
    char *r = NULL;
    if (repl_exec(app->interp, src, "<help>", REPL_PARSE_EVAL, &v) == 0 && v) r = repl_str(app->interp, v);
    NN_RELEASE(v);
    if (!r) nn_error_clear();
    return r;
}

static char *parameter_count(nn_object *obj)
{
    nn_object *params = nn_module_parameters((nn_module *)obj, true);
    if (!params) {
        nn_error_clear();
        return NULL;
    }
    long long all = 0, trainable = 0;
    for (size_t i = 0; i < nn_list_len(params); i++) {
        nn_tensor *t = (nn_tensor *)nn_list_get(params, i);
        all += (long long)nn_numel(t);
        if (t->requires_grad) trainable += (long long)nn_numel(t);
    }
    NN_RELEASE(params);
    char buf[96];
    snprintf(buf, sizeof buf, "%lld (trainable: %lld)", all, trainable);
    return nn_strdup(buf);
}

static char *docstring_or_none(repl_app *app, nn_object *obj)
{
    char *doc = repl_docstring(app->interp, obj);
    return doc ? doc : nn_strdup("<no docstring>");
}

/* The Docstring field, left out when source (the ?? text shown) contains it, as IPython. */
static void docstring_unless_in(repl_app *app, pinfo *p, nn_object *obj, const char *source)
{
    char *doc = docstring_or_none(app, obj);
    if (doc && source && strstr(source, doc)) {
        nn_free(doc);
        doc = NULL;
    }
    field_take(p, "Docstring", doc);
}

static void pinfo_fill(repl_app *app, pinfo *p, const char *name, nn_object *obj, int detail)
{
    obj = repl_mdescr_func(obj); /* str.upper: its C function */
    nn_object *target = obj->type == &repl_method_type ? ((method_obj *)obj)->func : obj;
    source_info src = {0};
    repl_doc_info d;
    bool has_source = false;
    if (target->type == &repl_function_type) { /* a def or a lambda */
        has_source = function_source((const func_obj *)target, &src);
        field_take(p, "Signature", definition(app, name, obj));
        docstring_unless_in(app, p, obj, detail > 0 && has_source ? src.text : NULL);
        if (detail > 0 && has_source) field(p, "Source", src.text);
        if (has_source) field_take(p, "File", file_field(&src));
        field(p, "Type", obj == target ? "function" : "method");
    } else if (obj->type == &repl_class_type || (repl_bind_doc_of(obj, &d) && d.kind == REPL_DOC_CLASS)) {
        const class_obj *c = obj->type == &repl_class_type ? (const class_obj *)obj : NULL;
        bool lang = c && !c->ntype && c->exc < 0 && !repl_bind_module_class_of(obj);
        has_source = lang && class_source(app, c, &src);
        field_take(p, "Init signature", definition(app, name, obj));
        docstring_unless_in(app, p, obj, detail > 0 && has_source ? src.text : NULL);
        if (detail > 0 && has_source) field(p, "Source", src.text);
        if (has_source) field_take(p, "File", file_field(&src));
        field(p, "Type", "type");
    } else if (obj->type == &nn_cfunction_type || repl_bind_doc_of(obj, &d)) { /* a built-in function */
        field_take(p, "Signature", definition(app, name, obj));
        field_take(p, "Docstring", docstring_or_none(app, obj));
        field(p, "Type", obj->type != &nn_cfunction_type && d.kind == REPL_DOC_UNBOUND ? "method_descriptor"
                                                                                         : "builtin_function_or_method");
    } else { /* any other object: an instance */
        bool module = nn_is_module(obj);
        if (module) {
            char *sig = nn_malloc(strlen(name) + 24);
            if (sig) sprintf(sig, "%s(*input, **kwargs)", name);
            field_take(p, "Signature", sig);
        }
        field(p, "Type", repl_value_type_name(obj));
        field_take(p, "String form", string_form(app, obj, detail));
        field_take(p, "Length", length_of(app, name));
        if (module) field_take(p, "Parameters", parameter_count(obj));
        class_obj *c = repl_class_of(obj);
        has_source = detail > 0 && c && !c->ntype && c->exc < 0 && class_source(app, c, &src);
        if (has_source) {
            field(p, "Source", src.text);
            field_take(p, "File", file_field(&src));
        } else {
            field_take(p, "Docstring", docstring_or_none(app, obj));
        }
    }
    nn_free(src.text);
}

/* ------------------------------------------------------------------ the pager */

static int terminal_rows(void)
{
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0) return ws.ws_row;
    const char *lines = getenv("LINES");
    return lines && atoi(lines) > 0 ? atoi(lines) : 24;
}

static bool on_path(const char *program)
{
    const char *path = getenv("PATH");
    char buf[1024];
    for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
        size_t n = strcspn(p, ":");
        snprintf(buf, sizeof buf, "%.*s/%s", (int)n, p, program);
        if (n && access(buf, X_OK) == 0) return true;
        p += n + (p[n] == ':');
    }
    return false;
}

/* The built-in pager: a screenful at a time, "--More--" waits for Enter (q quits). */
static void builtin_pager(const char *text, int rows)
{
    int shown = 0;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        fwrite(p, 1, n, stdout);
        fputc('\n', stdout);
        p += n + (p[n] == '\n');
        if (++shown == rows - 1 && *p) {
            fputs("--More-- (Enter: next page, q: quit) ", stdout);
            fflush(stdout);
            char c = 0, first = 0;
            while (read(STDIN_FILENO, &c, 1) == 1 && c != '\n')
                if (!first) first = c;
            if (first == 'q' || first == 'Q') break;
            shown = 0;
        }
    }
    fflush(stdout);
}

/* IPython's page(): the text itself when it fits the terminal (or there is
   none), else through $PAGER, `less -R` or the built-in pager. */
static void page(repl_app *app, const char *text)
{
    int lines = 0;
    for (const char *p = text; *p; p++) lines += *p == '\n';
    int rows = terminal_rows();
    if (!app->opt.interactive || app->out_write || !isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO) || lines < rows) {
        repl_app_write(app, text, strlen(text));
        return;
    }
    const char *env = getenv("PAGER");
    const char *cmd = env && *env ? env : on_path("less") ? "less -R" : NULL;
    fflush(stdout);
    if (!cmd) {
        builtin_pager(text, rows);
        return;
    }
    void (*saved)(int) = signal(SIGPIPE, SIG_IGN); /* the pager may quit before reading all */
    FILE *pager = popen(cmd, "w");
    if (pager) {
        fputs(text, pager);
        pclose(pager);
    } else {
        builtin_pager(text, rows);
    }
    signal(SIGPIPE, saved);
}

/* summary()'s table goes through the same pager (summary.c calls it) */
static repl_app *pager_app;
static void page_summary(const char *text) { page(pager_app, text); }

void repl_app_pager_install(repl_app *app)
{
    pager_app = app;
    repl_summary_pager = page_summary;
}

void repl_app_pager_close(repl_app *app)
{
    if (pager_app != app) return;
    pager_app = NULL;
    repl_summary_pager = NULL;
}

/* ------------------------------------------------------------------ obj? */

int repl_app_pinfo(repl_app *app, const char *name, int detail)
{
    nn_object *obj = NULL;
    if (repl_exec(app->interp, name, "<help>", REPL_PARSE_EVAL, &obj) != 0 || !obj) {
        nn_error_clear();
        NN_RELEASE(obj);
        repl_app_printf(app, "Object `%s` not found.\n", name);
        return 0;
    }
    pinfo p = {0};
    pinfo_fill(app, &p, name, obj, detail);
    NN_RELEASE(obj);
    char *text = format_fields(&p);
    pinfo_free(&p);
    if (!text) return -1;
    page(app, text);
    nn_free(text);
    return 0;
}
