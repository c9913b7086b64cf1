/*
 * ast_check.c — the SyntaxErrors CPython's compiler raises after a source
 * parses, before any of it runs: `return` outside a function, `break` outside a
 * loop, `continue` not in a loop, `nonlocal` at module level. repl_parse calls
 * repl_ast_check on each tree it builds, so such a script fails at once with
 * CPython's message and nothing of it runs.
 */
#include "ast.h"
#include "repl_int.h"

typedef struct scope_flags {
    bool func, loop, module;
} scope_flags;

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

static int check_body(const repl_node_list *body, scope_flags f, repl_parse_error *err);

static int check_stmt(const repl_node *s, scope_flags f, repl_parse_error *err)
{
    scope_flags inner = f;
    switch (s->kind) {
    case REPL_AST_Return:
        return f.func ? 0 : fail_range(err, s, keyword_end(s, s->v.Return.value, 6), "'return' outside function");
    case REPL_AST_Break:
        return f.loop ? 0 : fail_range(err, s, s->col + 5, "'break' outside loop");
    case REPL_AST_Continue:
        return f.loop ? 0 : fail_range(err, s, s->col + 8, "'continue' not properly in loop");
    case REPL_AST_Nonlocal:
        return f.module ? fail(err, s, "nonlocal declaration not allowed at module level") : 0;
    case REPL_AST_FunctionDef:
        return check_body(&s->v.FunctionDef.body, (scope_flags){.func = true}, err);
    case REPL_AST_ClassDef:
        return check_body(&s->v.ClassDef.body, (scope_flags){0}, err);
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
        for (int i = 0; i < s->v.Try.handlers.n; i++)
            if (check_body(&s->v.Try.handlers.items[i]->v.ExceptHandler.body, f, err) < 0) return -1;
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
    return check_body(&root->v.Module.body, (scope_flags){.module = true}, err);
}
