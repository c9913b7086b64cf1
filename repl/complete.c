/*
 * complete.c — Tab completion (see complete.h): one pass over the line up to
 * the cursor finds whether the cursor is in a string (file names), a comment
 * (nothing) or code, and which brackets are open; the word before the cursor
 * then decides between magics, attributes of a name chain, and names in scope
 * with the keyword arguments of the enclosing call. Nothing here touches the
 * terminal.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app.h"
#include "complete.h"
#include "repl_int.h"

/* ------------------------------------------------------------ candidates */

typedef struct cand_list {
    char **items;
    size_t n, cap;
    bool failed; /* MemoryError on the way */
} cand_list;

/* Adds text (n bytes) + suffix (may be "") as a candidate. */
static void add_cand(cand_list *c, const char *text, size_t n, const char *suffix)
{
    if (c->failed) return;
    if (c->n + 2 > c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 32;
        char **grown = nn_realloc(c->items, cap * sizeof *grown);
        if (!grown) {
            c->failed = true;
            return;
        }
        c->items = grown;
        c->cap = cap;
    }
    size_t sn = strlen(suffix);
    char *s = nn_malloc(n + sn + 1);
    if (!s) {
        c->failed = true;
        return;
    }
    memcpy(s, text, n);
    memcpy(s + n, suffix, sn + 1);
    c->items[c->n++] = s;
}

/* Whether name completes the word prefix: it starts with it, and names starting
   with '_' are offered only for a word that starts with '_' (as IPython). */
static bool offer(const char *name, const char *prefix, size_t plen)
{
    if (strncmp(name, prefix, plen) != 0) return false;
    return name[0] != '_' || prefix[0] == '_';
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The sorted, distinct, NULL-terminated result (c's storage), or NULL. */
static char **finish(cand_list *c)
{
    if (c->failed || c->n == 0) {
        for (size_t i = 0; i < c->n; i++) nn_free(c->items[i]);
        nn_free(c->items);
        return NULL;
    }
    qsort(c->items, c->n, sizeof *c->items, cmp_str);
    size_t kept = 0;
    for (size_t i = 0; i < c->n; i++) {
        if (kept && !strcmp(c->items[kept - 1], c->items[i])) nn_free(c->items[i]);
        else c->items[kept++] = c->items[i];
    }
    c->items[kept] = NULL;
    return c->items;
}

void repl_complete_free(char **candidates)
{
    if (!candidates) return;
    for (char **p = candidates; *p; p++) nn_free(*p);
    nn_free(candidates);
}

/* ------------------------------------------------------------ scanning */

static bool is_ident(char c) { return isalnum((unsigned char)c) || c == '_' || (unsigned char)c >= 0x80; }

enum { MAX_OPEN = 64 };
/* What precedes the cursor: in code, inside a string literal, or in a comment;
   the positions of the brackets still open (innermost last). */
typedef struct scan_state {
    enum { IN_CODE, IN_STRING, IN_COMMENT } where;
    size_t string_body; /* IN_STRING: where the literal's text starts */
    size_t open[MAX_OPEN];
    int nopen;
} scan_state;

static scan_state scan(const char *line, size_t begin, size_t cursor)
{
    scan_state st = {.where = IN_CODE};
    char quote = 0;
    bool triple = false, raw = false;
    for (size_t i = begin; i < cursor; i++) {
        char c = line[i];
        if (quote) {
            if (c == '\\' && !raw) {
                i++;
            } else if (c == quote && (!triple || (i + 2 < cursor && line[i + 1] == quote && line[i + 2] == quote))) {
                if (triple) i += 2;
                quote = 0;
            }
        } else if (c == '#') {
            st.where = IN_COMMENT;
            return st;
        } else if (c == '\'' || c == '"') {
            /* a prefix like r, rb, f right before the quote */
            raw = false;
            for (size_t j = i; j > begin && isalpha((unsigned char)line[j - 1]); j--)
                if (line[j - 1] == 'r' || line[j - 1] == 'R') raw = true;
            quote = c;
            triple = i + 2 < cursor && line[i + 1] == c && line[i + 2] == c;
            if (triple) i += 2;
            st.string_body = i + 1;
        } else if (c == '(' || c == '[' || c == '{') {
            if (st.nopen < MAX_OPEN) st.open[st.nopen++] = i;
        } else if ((c == ')' || c == ']' || c == '}') && st.nopen > 0) {
            st.nopen--;
        }
    }
    if (quote) st.where = IN_STRING;
    return st;
}

/* The dotted name chain (a, a.b.c) ending at end (exclusive), skipping spaces
   before end: its start in *start, or false when what precedes end is not a
   plain chain (a call, a subscript, a literal, nothing). */
static bool name_chain(const char *line, size_t begin, size_t end, size_t *start)
{
    while (end > begin && line[end - 1] == ' ') end--;
    size_t s = end;
    while (s > begin && (is_ident(line[s - 1]) || line[s - 1] == '.')) s--;
    if (s == end || line[s] == '.' || line[end - 1] == '.' || isdigit((unsigned char)line[s])) return false;
    for (size_t i = s; i + 1 < end; i++)
        if (line[i] == '.' && (line[i + 1] == '.' || isdigit((unsigned char)line[i + 1]))) return false;
    /* what comes right before must not continue an expression: x[0].a, f().a, "s".a */
    if (s > begin && strchr(")]}'\"", line[s - 1])) return false;
    *start = s;
    return true;
}

/* The value of the chain line[start..end) evaluated in __main__ (a new
   reference), or NULL with the current error cleared. */
static nn_object *eval_chain(repl_interp *in, const char *line, size_t start, size_t end)
{
    char *text = nn_malloc(end - start + 1);
    if (!text) return NULL;
    memcpy(text, line + start, end - start);
    text[end - start] = '\0';
    nn_object *value = NULL;
    if (repl_exec(in, text, "<completion>", REPL_PARSE_EVAL, &value) != 0) NN_SET(value, NULL);
    nn_free(text);
    if (!value) nn_error_clear();
    return value;
}

/* ------------------------------------------------------------ sources */

/* Attributes of value whose names start with prefix. */
static void add_attributes(cand_list *c, repl_interp *in, nn_object *value, const char *prefix, size_t plen)
{
    nn_object *names = repl_dir(in, value);
    if (!names) {
        nn_error_clear();
        return;
    }
    for (size_t i = 0; i < nn_list_len(names); i++) {
        const char *name = nn_str_cstr(nn_list_get(names, i));
        /* a Sequential's children 0, 1, ... are in dir() but cannot follow a dot */
        if (offer(name, prefix, plen) && !isdigit((unsigned char)name[0])) add_cand(c, name, strlen(name), "");
    }
    NN_RELEASE(names);
}

/* Names in scope (globals, built-ins) and keywords starting with prefix. */
static void add_names(cand_list *c, repl_interp *in, const char *prefix, size_t plen)
{
    static const char *const keywords[] = {
#define X(id, text) text,
        REPL_TOKEN_KEYWORDS(X)
#undef X
    };
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
        if (offer(keywords[i], prefix, plen)) add_cand(c, keywords[i], strlen(keywords[i]), "");
    add_attributes(c, in, NULL, prefix, plen);
}

/* "name=" for each parameter of the signature "f(a, b=2, *args, c, **kw)" that
   can be passed by keyword and starts with prefix. */
static void add_keyword_params(cand_list *c, const char *signature, const char *prefix, size_t plen)
{
    const char *p = strchr(signature, '(');
    if (!p) return;
    size_t first = c->n;
    int depth = 0;
    char quote = 0;
    bool is_first_param = true;
    for (const char *param = ++p; *p; p++) {
        if (quote) {
            if (*p == '\\' && p[1]) p++;
            else if (*p == quote) quote = 0;
            continue;
        }
        if (*p == '\'' || *p == '"') quote = *p;
        else if (*p == '(' || *p == '[' || *p == '{') depth++;
        else if ((*p == ')' || *p == ']' || *p == '}') && depth > 0) depth--;
        else if (depth == 0 && (*p == ',' || *p == ')')) {
            while (*param == ' ') param++;
            size_t n = 0;
            while (is_ident(param[n])) n++;
            if (*param == '/') { /* the parameters before are positional-only */
                for (size_t i = first; i < c->n; i++) nn_free(c->items[i]);
                c->n = first;
            } else if (n >= plen && n > 0 && offer(param, prefix, plen) &&
                       !(is_first_param && n == 4 && !strncmp(param, "self", 4))) {
                add_cand(c, param, n, "=");
            }
            if (*p == ')') break;
            param = p + 1;
            is_first_param = false;
        }
    }
}

/* Keyword arguments when the innermost open bracket is a call's '('. */
static void add_call_keywords(cand_list *c, repl_interp *in, const char *line, size_t begin, const scan_state *st,
                              const char *prefix, size_t plen)
{
    if (st->nopen == 0) return;
    size_t paren = st->open[st->nopen - 1], start;
    if (line[paren] != '(' || !name_chain(line, begin, paren, &start)) return;
    size_t end = paren;
    while (end > start && line[end - 1] == ' ') end--;
    nn_object *callee = eval_chain(in, line, start, end);
    if (!callee) return;
    char *signature = repl_signature(in, callee);
    if (signature) add_keyword_params(c, signature, prefix, plen);
    nn_error_clear();
    nn_free(signature);
    NN_RELEASE(callee);
}

/* The magics whose names start with prefix. */
static void add_magics(cand_list *c, const char *prefix, size_t plen)
{
    const repl_magic *const tables[] = {repl_magics_core, repl_magics_sessions, repl_magics_inspect, repl_magics_shell, repl_magics_paste,
                                        repl_magics_lesson};
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++)
        for (const repl_magic *m = tables[t]; m->name; m++)
            if (!strncmp(m->name, prefix, plen)) add_cand(c, m->name, strlen(m->name), "");
}

/* Entries of the directory part of path[0..n) whose names start with its last
   component; directories get a '/'. *word_start becomes the offset of the last
   component in path. */
static void add_files(cand_list *c, const char *path, size_t n, size_t *word_start)
{
    size_t base = n;
    while (base > 0 && path[base - 1] != '/') base--;
    *word_start = base;
    const char *home = getenv("HOME");
    bool tilde = base >= 2 && path[0] == '~' && path[1] == '/' && home;
    size_t dlen = base == 0 ? 1 : tilde ? strlen(home) + base - 1 : base;
    char *dir = nn_malloc(dlen + 1);
    if (!dir) {
        c->failed = true;
        return;
    }
    if (base == 0) strcpy(dir, ".");
    else if (tilde) {
        strcpy(dir, home);
        memcpy(dir + strlen(home), path + 1, base - 1);
        dir[dlen] = '\0';
    } else {
        memcpy(dir, path, base);
        dir[base] = '\0';
    }
    const char *prefix = path + base;
    size_t plen = n - base;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        if (strncmp(e->d_name, prefix, plen) || (e->d_name[0] == '.' && (plen == 0 || prefix[0] != '.'))) continue;
        size_t full_len = dlen + 1 + strlen(e->d_name);
        char *full = nn_malloc(full_len + 1);
        if (!full) {
            c->failed = true;
            break;
        }
        snprintf(full, full_len + 1, "%s/%s", dir, e->d_name);
        struct stat sb;
        bool is_dir = stat(full, &sb) == 0 && S_ISDIR(sb.st_mode);
        nn_free(full);
        add_cand(c, e->d_name, strlen(e->d_name), is_dir ? "/" : "");
    }
    if (d) closedir(d);
    nn_free(dir);
}

/* ------------------------------------------------------------ entry point */

/* Completes code that starts at line[begin] (after a magic's name, or 0). */
static void complete_code(cand_list *c, repl_interp *in, const char *line, size_t begin, size_t cursor,
                          size_t *word_start)
{
    scan_state st = scan(line, begin, cursor);
    if (st.where == IN_COMMENT) return;
    if (st.where == IN_STRING) {
        size_t offset;
        add_files(c, line + st.string_body, cursor - st.string_body, &offset);
        *word_start = st.string_body + offset;
        return;
    }
    size_t ws = cursor;
    while (ws > begin && is_ident(line[ws - 1])) ws--;
    *word_start = ws;
    if (ws < cursor && isdigit((unsigned char)line[ws])) return; /* a number */
    size_t plen = cursor - ws;
    char *prefix = nn_malloc(plen + 1);
    if (!prefix) {
        c->failed = true;
        return;
    }
    memcpy(prefix, line + ws, plen);
    prefix[plen] = '\0';
    size_t chain;
    if (ws > begin && line[ws - 1] == '.') {
        nn_object *value = name_chain(line, begin, ws - 1, &chain) ? eval_chain(in, line, chain, ws - 1) : NULL;
        if (value) add_attributes(c, in, value, prefix, plen);
        NN_RELEASE(value);
    } else {
        add_call_keywords(c, in, line, begin, &st, prefix, plen);
        add_names(c, in, prefix, plen);
    }
    nn_free(prefix);
}

char **repl_complete(repl_interp *in, const char *line, size_t cursor, size_t *word_start)
{
    cand_list c = {0};
    *word_start = cursor;
    size_t lead = strspn(line, " \t");
    if (line[lead] == '%' && lead < cursor) {
        size_t name = lead + 1, name_end = name;
        while (is_ident(line[name_end])) name_end++;
        if (cursor <= name_end) {
            *word_start = name;
            add_magics(&c, line + name, cursor - name);
        } else if ((name_end - name == 3 && !strncmp(line + name, "run", 3)) ||
                   (name_end - name == 4 && !strncmp(line + name, "load", 4))) {
            size_t arg = cursor; /* %run FILE, %load FILE: the last word is a path */
            while (arg > name_end && line[arg - 1] != ' ') arg--;
            size_t offset;
            add_files(&c, line + arg, cursor - arg, &offset);
            *word_start = arg + offset;
        } else {
            complete_code(&c, in, line, name_end, cursor, word_start); /* %timeit CODE */
        }
    } else {
        complete_code(&c, in, line, 0, cursor, word_start);
    }
    nn_error_clear(); /* a failed evaluation or allocation only loses candidates */
    return finish(&c);
}
