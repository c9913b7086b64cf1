/*
 * ast_mangle.c — private name mangling, as CPython 3.11's compiler does it:
 * inside a class body (and every function, lambda and comprehension nested in
 * it) an identifier `__name` that does not end in `__` and has no dot becomes
 * `_Class__name`, where Class is the innermost class's name without its leading
 * underscores (a class named only underscores mangles nothing). Names, attribute
 * names, parameters, the names a def/class/import/except/match binds and
 * global/nonlocal declarations are mangled; keyword names in a call and match
 * class keyword attributes are not. The evaluator runs the tree after this pass;
 * repl_ast_dump() shows the tree before it, as ast.dump() does.
 * (Not mangled: the bound first part of a dotted `import __a.b`.)
 */
#include <stdio.h>
#include <string.h>

#include "ast_walk.h"

typedef struct mangler {
    repl_ast_arena *arena;
    const char *priv;   /* the innermost class's name without leading '_', or NULL */
    bool failed;        /* out of memory */
    /* repl_ast_each_name's walk (mangles nothing): each(ctx, id, binds, depth) for each
       Name and parameter; depth counts the defs, lambdas and comprehensions around it */
    void (*each)(void *ctx, const char *id, bool binds, int depth);
    void *ctx;
    int depth;
} mangler;

/* Whether CPython mangles id in a class: `__x` but not `__x__` nor a dotted name. */
static bool private_name(const char *id)
{
    if (!id || id[0] != '_' || id[1] != '_') return false;
    size_t n = strlen(id);
    return !(id[n - 1] == '_' && id[n - 2] == '_') && !strchr(id, '.');
}

/* The class name cls as mangling uses it (its leading '_' stripped), or NULL
   when it mangles nothing (a name of underscores only). */
static const char *private_prefix(const char *cls)
{
    while (*cls == '_') cls++;
    return *cls ? cls : NULL;
}

/* id itself, or its mangling (arena memory): CPython's _Py_Mangle. */
static const char *mangle(mangler *m, const char *id)
{
    if (!m->priv || !private_name(id)) return id;
    size_t p = strlen(m->priv), n = strlen(id);
    char *out = repl_ast_arena_alloc(m->arena, 1 + p + n + 1);
    if (!out) {
        m->failed = true;
        return id;
    }
    out[0] = '_';
    memcpy(out + 1, m->priv, p);
    memcpy(out + 1 + p, id, n + 1);
    return out;
}

char *repl_mangle_new(const char *cls, const char *id)
{
    const char *p = private_prefix(cls);
    if (!p || !private_name(id)) return nn_strdup(id);
    size_t n = 1 + strlen(p) + strlen(id) + 1;
    char *out = nn_malloc(n);
    if (out) snprintf(out, n, "_%s%s", p, id);
    return out;
}

bool repl_mangled_is(const char *cls, const char *id, const char *name)
{
    const char *p = private_prefix(cls);
    if (!p || !private_name(id)) return strcmp(id, name) == 0;
    size_t pl = strlen(p);
    return name[0] == '_' && strncmp(name + 1, p, pl) == 0 && strcmp(name + 1 + pl, id) == 0;
}

static void visit(mangler *m, repl_node *n);

static void visit_list(mangler *m, const repl_node_list *l)
{
    for (int i = 0; i < l->n; i++) visit(m, l->items[i]);
}

static void mangle_names(mangler *m, repl_name_list *l)
{
    for (int i = 0; i < l->n; i++) l->items[i] = mangle(m, l->items[i]);
}

/* A class body: the class's name is the new private name (the bases, keywords
   and decorators were visited under the outer one). */
static void visit_class_body(mangler *m, repl_node *c)
{
    const char *outer = m->priv;
    m->priv = m->each ? NULL : private_prefix(c->v.ClassDef.name);
    visit_list(m, &c->v.ClassDef.body);
    m->priv = outer;
}

static void visit(mangler *m, repl_node *n)
{
    if (!n) return;
    switch (n->kind) {
    case REPL_AST_Module: case REPL_AST_Interactive: visit_list(m, &n->v.Module.body); break;
    case REPL_AST_Expression: visit(m, n->v.Expression.body); break;
    case REPL_AST_FunctionDef:
        visit_list(m, &n->v.FunctionDef.decorator_list);
        n->v.FunctionDef.bound = mangle(m, n->v.FunctionDef.name);
        visit(m, n->v.FunctionDef.returns);
        m->depth++;
        visit(m, n->v.FunctionDef.args);
        visit_list(m, &n->v.FunctionDef.body);
        if (!m->each) visit_list(m, &n->v.FunctionDef.walrus_targets);   /* the same Names: mangling twice changes nothing */
        m->depth--;
        break;
    case REPL_AST_ClassDef:
        visit_list(m, &n->v.ClassDef.decorator_list);
        visit_list(m, &n->v.ClassDef.bases);
        visit_list(m, &n->v.ClassDef.keywords);
        n->v.ClassDef.bound = mangle(m, n->v.ClassDef.name);
        visit_class_body(m, n);
        break;
    case REPL_AST_Return: case REPL_AST_Expr: case REPL_AST_Yield: case REPL_AST_YieldFrom:
        visit(m, n->v.Return.value);
        break;
    case REPL_AST_Delete: visit_list(m, &n->v.Delete.targets); break;
    case REPL_AST_Assign:
        visit_list(m, &n->v.Assign.targets);
        visit(m, n->v.Assign.value);
        break;
    case REPL_AST_AugAssign:
        visit(m, n->v.AugAssign.target);
        visit(m, n->v.AugAssign.value);
        break;
    case REPL_AST_AnnAssign:
        visit(m, n->v.AnnAssign.target);
        visit(m, n->v.AnnAssign.annotation);
        visit(m, n->v.AnnAssign.value);
        break;
    case REPL_AST_NamedExpr:
        visit(m, n->v.NamedExpr.target);
        visit(m, n->v.NamedExpr.value);
        break;
    case REPL_AST_For:
        visit(m, n->v.For.target);
        visit(m, n->v.For.iter);
        visit_list(m, &n->v.For.body);
        visit_list(m, &n->v.For.orelse);
        break;
    case REPL_AST_While: case REPL_AST_If:
        visit(m, n->v.While.test);
        visit_list(m, &n->v.While.body);
        visit_list(m, &n->v.While.orelse);
        break;
    case REPL_AST_With:
        visit_list(m, &n->v.With.items);
        visit_list(m, &n->v.With.body);
        break;
    case REPL_AST_withitem:
        visit(m, n->v.withitem.context_expr);
        visit(m, n->v.withitem.optional_vars);
        break;
    case REPL_AST_Raise:
        visit(m, n->v.Raise.exc);
        visit(m, n->v.Raise.cause);
        break;
    case REPL_AST_Try:
        visit_list(m, &n->v.Try.body);
        visit_list(m, &n->v.Try.handlers);
        visit_list(m, &n->v.Try.orelse);
        visit_list(m, &n->v.Try.finalbody);
        break;
    case REPL_AST_ExceptHandler:
        visit(m, n->v.ExceptHandler.type);
        n->v.ExceptHandler.name = mangle(m, n->v.ExceptHandler.name);
        visit_list(m, &n->v.ExceptHandler.body);
        break;
    case REPL_AST_Assert:
        visit(m, n->v.Assert.test);
        visit(m, n->v.Assert.msg);
        break;
    case REPL_AST_Import: visit_list(m, &n->v.Import.names); break;
    case REPL_AST_ImportFrom:
        n->v.ImportFrom.module = mangle(m, n->v.ImportFrom.module);
        visit_list(m, &n->v.ImportFrom.names);
        break;
    case REPL_AST_alias:
        n->v.alias.name = mangle(m, n->v.alias.name);
        n->v.alias.asname = mangle(m, n->v.alias.asname);
        break;
    case REPL_AST_Global: case REPL_AST_Nonlocal: mangle_names(m, &n->v.Global.names); break;
    case REPL_AST_BoolOp: visit_list(m, &n->v.BoolOp.values); break;
    case REPL_AST_BinOp:
        visit(m, n->v.BinOp.left);
        visit(m, n->v.BinOp.right);
        break;
    case REPL_AST_UnaryOp: visit(m, n->v.UnaryOp.operand); break;
    case REPL_AST_Lambda:
        m->depth++;
        visit(m, n->v.Lambda.args);
        visit(m, n->v.Lambda.body);
        m->depth--;
        break;
    case REPL_AST_IfExp:
        visit(m, n->v.IfExp.test);
        visit(m, n->v.IfExp.body);
        visit(m, n->v.IfExp.orelse);
        break;
    case REPL_AST_Dict:
        visit_list(m, &n->v.Dict.keys);
        visit_list(m, &n->v.Dict.values);
        break;
    case REPL_AST_Set: visit_list(m, &n->v.Set.elts); break;
    case REPL_AST_ListComp: case REPL_AST_SetComp: case REPL_AST_DictComp: case REPL_AST_GeneratorExp: {
        const repl_node_list *g = &n->v.Comp.generators;
        if (g->n) visit(m, g->items[0]->v.comprehension.iter); /* evaluated in the enclosing scope */
        m->depth++;
        visit(m, n->v.Comp.elt);
        visit(m, n->v.Comp.value);
        for (int i = 0; i < g->n; i++) {
            visit(m, g->items[i]->v.comprehension.target);
            if (i) visit(m, g->items[i]->v.comprehension.iter);
            visit_list(m, &g->items[i]->v.comprehension.ifs);
        }
        m->depth--;
        break;
    }
    case REPL_AST_comprehension:
        visit(m, n->v.comprehension.target);
        visit(m, n->v.comprehension.iter);
        visit_list(m, &n->v.comprehension.ifs);
        break;
    case REPL_AST_Compare:
        visit(m, n->v.Compare.left);
        visit_list(m, &n->v.Compare.comparators);
        break;
    case REPL_AST_Call:
        visit(m, n->v.Call.func);
        visit_list(m, &n->v.Call.args);
        visit_list(m, &n->v.Call.keywords);
        break;
    case REPL_AST_keyword: visit(m, n->v.keyword.value); break;   /* f(__k=1) keeps its name */
    case REPL_AST_FormattedValue:
        visit(m, n->v.FormattedValue.value);
        visit(m, n->v.FormattedValue.format_spec);
        break;
    case REPL_AST_JoinedStr: visit_list(m, &n->v.JoinedStr.values); break;
    case REPL_AST_Attribute:
        visit(m, n->v.Attribute.value);
        n->v.Attribute.attr = mangle(m, n->v.Attribute.attr);
        break;
    case REPL_AST_Subscript:
        visit(m, n->v.Subscript.value);
        visit(m, n->v.Subscript.slice);
        break;
    case REPL_AST_Starred: visit(m, n->v.Starred.value); break;
    case REPL_AST_Name:
        if (m->each) m->each(m->ctx, n->v.Name.id, n->v.Name.ctx != REPL_CTX_LOAD, m->depth);
        else n->v.Name.id = mangle(m, n->v.Name.id);
        break;
    case REPL_AST_List: case REPL_AST_Tuple: visit_list(m, &n->v.List.elts); break;
    case REPL_AST_Slice:
        visit(m, n->v.Slice.lower);
        visit(m, n->v.Slice.upper);
        visit(m, n->v.Slice.step);
        break;
    case REPL_AST_arguments:
        visit_list(m, &n->v.arguments.posonlyargs);
        visit_list(m, &n->v.arguments.args);
        visit(m, n->v.arguments.vararg);
        visit_list(m, &n->v.arguments.kwonlyargs);
        visit_list(m, &n->v.arguments.kw_defaults);
        visit(m, n->v.arguments.kwarg);
        visit_list(m, &n->v.arguments.defaults);
        break;
    case REPL_AST_arg:
        if (m->each) m->each(m->ctx, n->v.arg.arg, true, m->depth);
        n->v.arg.arg = mangle(m, n->v.arg.arg);
        visit(m, n->v.arg.annotation);
        break;
    case REPL_AST_Match:
        visit(m, n->v.Match.subject);
        visit_list(m, &n->v.Match.cases);
        break;
    case REPL_AST_match_case:
        visit(m, n->v.match_case.pattern);
        visit(m, n->v.match_case.guard);
        visit_list(m, &n->v.match_case.body);
        break;
    case REPL_AST_MatchValue: case REPL_AST_MatchSingleton: case REPL_AST_MatchSequence:
    case REPL_AST_MatchMapping: case REPL_AST_MatchClass: case REPL_AST_MatchStar:
    case REPL_AST_MatchAs: case REPL_AST_MatchOr:
        visit(m, n->v.Pattern.value);
        visit(m, n->v.Pattern.cls);
        visit(m, n->v.Pattern.pattern);
        visit_list(m, &n->v.Pattern.keys);
        visit_list(m, &n->v.Pattern.patterns);
        visit_list(m, &n->v.Pattern.kwd_patterns);   /* kwd_attrs keep their names */
        n->v.Pattern.name = mangle(m, n->v.Pattern.name);
        n->v.Pattern.rest = mangle(m, n->v.Pattern.rest);
        break;
    case REPL_AST_Constant: case REPL_AST_Pass: case REPL_AST_Break: case REPL_AST_Continue:
    case REPL_AST_KIND_COUNT:
        break;
    }
}

int repl_ast_mangle(repl_node *root, repl_ast_arena *arena)
{
    mangler m = {.arena = arena};
    visit(&m, root);
    return m.failed ? -1 : 0;
}

void repl_ast_each_name(const repl_node *expr, const repl_node_list *body,
                        void (*each)(void *ctx, const char *id, bool binds, int depth), void *ctx)
{
    mangler m = {.each = each, .ctx = ctx};
    visit(&m, (repl_node *)expr);   /* with no class name to mangle with, the walk changes nothing */
    if (body) visit_list(&m, body);
}
