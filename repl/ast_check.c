/*
 * ast_check.c — the SyntaxErrors CPython's compiler raises after a source
 * parses, before any of it runs: `return` outside a function, `break` outside a
 * loop, `continue` not in a loop, `nonlocal` at module level, a bare `except:`
 * before another handler, and `global`/`nonlocal` of a parameter or of a name
 * the scope bound before the declaration, two starred targets. repl_parse calls
 * repl_ast_check on each tree it builds, so such a script fails at once with
 * CPython's message and nothing of it runs.
 */
#include <stdio.h>
#include <string.h>

#include "ast.h"
#include "repl_int.h"

/* The names a scope (module, class or function body) has bound so far, in
   statement order, and a function's parameters (NULL elsewhere). */
typedef struct scope_names {
    const repl_node *params;
    const char **bound;
    int n, cap;
} scope_names;

typedef struct scope_flags {
    bool func, loop, module;
    scope_names *names;
} scope_flags;

static int bind(scope_names *sn, const char *name)
{
    if (sn->n == sn->cap) {
        int cap = sn->cap ? 2 * sn->cap : 16;
        const char **b = nn_realloc(sn->bound, (size_t)cap * sizeof *b);
        if (!b) return -1;
        sn->bound = b;
        sn->cap = cap;
    }
    sn->bound[sn->n++] = name;
    return 0;
}

/* The names an assignment target binds (x, x.y no, (a, *b), [c]). */
static int bind_target(scope_names *sn, const repl_node *t)
{
    if (!t) return 0;
    if (t->kind == REPL_AST_Name) return bind(sn, t->v.Name.id);
    if (t->kind == REPL_AST_Starred) return bind_target(sn, t->v.Starred.value);
    if (t->kind == REPL_AST_Tuple || t->kind == REPL_AST_List)
        for (int i = 0; i < t->v.List.elts.n; i++)
            if (bind_target(sn, t->v.List.elts.items[i]) < 0) return -1;
    return 0;
}

static bool in_args(const repl_node_list *l, const char *name)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->items[i]->v.arg.arg, name) == 0) return true;
    return false;
}

static bool is_parameter(const repl_node *a, const char *name)
{
    return a && (in_args(&a->v.arguments.posonlyargs, name) || in_args(&a->v.arguments.args, name) ||
                 in_args(&a->v.arguments.kwonlyargs, name) ||
                 (a->v.arguments.vararg && strcmp(a->v.arguments.vararg->v.arg.arg, name) == 0) ||
                 (a->v.arguments.kwarg && strcmp(a->v.arguments.kwarg->v.arg.arg, name) == 0));
}

/* The names bound by statement s itself (not by the blocks it holds). */
static int bind_stmt(scope_names *sn, const repl_node *s)
{
    switch (s->kind) {
    case REPL_AST_Assign:
        for (int i = 0; i < s->v.Assign.targets.n; i++)
            if (bind_target(sn, s->v.Assign.targets.items[i]) < 0) return -1;
        return 0;
    case REPL_AST_AugAssign: return bind_target(sn, s->v.AugAssign.target);
    case REPL_AST_For: return bind_target(sn, s->v.For.target);
    case REPL_AST_With:
        for (int i = 0; i < s->v.With.items.n; i++)
            if (bind_target(sn, s->v.With.items.items[i]->v.withitem.optional_vars) < 0) return -1;
        return 0;
    case REPL_AST_FunctionDef: return bind(sn, s->v.FunctionDef.name);
    case REPL_AST_ClassDef: return bind(sn, s->v.ClassDef.name);
    default: return 0;
    }
}

/* The error at statement s, whose range (CPython's carets) ends at end_col on its line (0: unknown). */
static int fail_range(repl_parse_error *err, const repl_node *s, int end_col, const char *msg)
{
    int rc = repl_syntax_error(err, REPL_PARSE_INVALID, NN_ERR_SYNTAX, s->line, s->col, "%s", msg);
    if (err) {
        err->compiler = true;
        if (end_col > s->col) err->end_offset = end_col + 1;
    }
    return rc;
}

/* A keyword statement's range: through its value when on the same line, else the keyword. */
static int keyword_end(const repl_node *s, const repl_node *value, int len)
{
    return value && value->end_col && value->end_line == s->line ? value->end_col : s->col + len;
}

static int fail(repl_parse_error *err, const repl_node *s, const char *msg) { return fail_range(err, s, 0, msg); }

/* A target tuple or list with two starred names (`*a, *b = c`), nested ones too. */
static const repl_node *two_starred(const repl_node *t)
{
    if (!t || (t->kind != REPL_AST_Tuple && t->kind != REPL_AST_List)) return NULL;
    int starred = 0;
    for (int i = 0; i < t->v.List.elts.n; i++) {
        const repl_node *e = t->v.List.elts.items[i], *inner = two_starred(e);
        if (inner) return inner;
        starred += e->kind == REPL_AST_Starred;
    }
    return starred > 1 ? t : NULL;
}

static int check_targets(const repl_node *const *targets, int n, repl_parse_error *err)
{
    for (int i = 0; i < n; i++) {
        const repl_node *t = two_starred(targets[i]);
        if (t)
            return fail_range(err, t, t->end_line == t->line ? t->end_col : 0, "multiple starred expressions in assignment");
    }
    return 0;
}

static int check_body(const repl_node_list *body, scope_flags f, repl_parse_error *err);

/* global/nonlocal s: none of its names a parameter or bound before it in its scope */
static int check_declaration(const repl_node *s, const scope_names *sn, repl_parse_error *err)
{
    const char *what = s->kind == REPL_AST_Global ? "global" : "nonlocal";
    char msg[300];
    for (int i = 0; i < s->v.Global.names.n; i++) {
        const char *name = s->v.Global.names.items[i];
        bool bound = false;
        for (int j = 0; j < sn->n && !bound; j++) bound = strcmp(sn->bound[j], name) == 0;
        if (is_parameter(sn->params, name)) snprintf(msg, sizeof msg, "name '%s' is parameter and %s", name, what);
        else if (bound) snprintf(msg, sizeof msg, "name '%s' is assigned to before %s declaration", name, what);
        else continue;
        return fail_range(err, s, s->end_line == s->line ? s->end_col : 0, msg);
    }
    return 0;
}

/* A body of its own scope: a module's, a class's or a function's (params). */
static int check_scope(const repl_node_list *body, scope_flags f, const repl_node *params, repl_parse_error *err)
{
    scope_names sn = {.params = params};
    f.names = &sn;
    int rc = check_body(body, f, err);
    nn_free(sn.bound);
    return rc;
}

static int check_stmt(const repl_node *s, scope_flags f, repl_parse_error *err)
{
    scope_flags inner = f;
    if ((s->kind == REPL_AST_Global || s->kind == REPL_AST_Nonlocal) && !f.module &&
        check_declaration(s, f.names, err) < 0)
        return -1;
    if (s->kind == REPL_AST_Global && f.module && check_declaration(s, f.names, err) < 0) return -1;
    if (bind_stmt(f.names, s) < 0) return -1;
    const repl_node_list *targets = s->kind == REPL_AST_Assign ? &s->v.Assign.targets : NULL;
    if (targets && check_targets((const repl_node *const *)targets->items, targets->n, err) < 0) return -1;
    if (s->kind == REPL_AST_For && check_targets((const repl_node *const *)&s->v.For.target, 1, err) < 0) return -1;
    switch (s->kind) {
    case REPL_AST_Return:
        return f.func ? 0 : fail_range(err, s, keyword_end(s, s->v.Return.value, 6), "'return' outside function");
    case REPL_AST_Break:
        return f.loop ? 0 : fail_range(err, s, s->col + 5, "'break' outside loop");
    case REPL_AST_Continue:
        return f.loop ? 0 : fail_range(err, s, s->col + 8, "'continue' not properly in loop");
    case REPL_AST_Nonlocal:
        return f.module ? fail_range(err, s, s->end_line == s->line ? s->end_col : 0,
                                     "nonlocal declaration not allowed at module level")
                        : 0;
    case REPL_AST_FunctionDef:
        return check_scope(&s->v.FunctionDef.body, (scope_flags){.func = true}, s->v.FunctionDef.args, err);
    case REPL_AST_ClassDef:
        return check_scope(&s->v.ClassDef.body, (scope_flags){0}, NULL, err);
    case REPL_AST_For:
        inner.loop = true;
        return check_body(&s->v.For.body, inner, err) < 0 ? -1 : check_body(&s->v.For.orelse, f, err);
    case REPL_AST_While:
        inner.loop = true;
        return check_body(&s->v.While.body, inner, err) < 0 ? -1 : check_body(&s->v.While.orelse, f, err);
    case REPL_AST_If:
        return check_body(&s->v.While.body, f, err) < 0 ? -1 : check_body(&s->v.While.orelse, f, err);
    case REPL_AST_With:
        return check_body(&s->v.With.body, f, err);
    case REPL_AST_Try:
        if (check_body(&s->v.Try.body, f, err) < 0) return -1;
        for (int i = 0; i < s->v.Try.handlers.n; i++) {
            const repl_node *h = s->v.Try.handlers.items[i];
            if (!h->v.ExceptHandler.type && i + 1 < s->v.Try.handlers.n)
                return fail(err, h, "default 'except:' must be last");
            if (h->v.ExceptHandler.name && bind(f.names, h->v.ExceptHandler.name) < 0) return -1;
            if (check_body(&h->v.ExceptHandler.body, f, err) < 0) return -1;
        }
        return check_body(&s->v.Try.orelse, f, err) < 0 ? -1 : check_body(&s->v.Try.finalbody, f, err);
    case REPL_AST_Match:
        for (int i = 0; i < s->v.Match.cases.n; i++)
            if (check_body(&s->v.Match.cases.items[i]->v.match_case.body, f, err) < 0) return -1;
        return 0;
    default:
        return 0;
    }
}

static int check_body(const repl_node_list *body, scope_flags f, repl_parse_error *err)
{
    for (int i = 0; i < body->n; i++)
        if (check_stmt(body->items[i], f, err) < 0) return -1;
    return 0;
}

int repl_ast_check_yield(const repl_node *y, repl_parse_error *err)
{
    return fail_range(err, y, y->end_line == y->line ? y->end_col : 0, "'yield' outside function");
}

int repl_ast_check(const repl_node *root, repl_parse_error *err)
{
    if (root->kind != REPL_AST_Module && root->kind != REPL_AST_Interactive) return 0;
    return check_scope(&root->v.Module.body, (scope_flags){.module = true}, NULL, err);
}
