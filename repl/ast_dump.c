/*
 * ast_dump.c — repl_ast_dump(): the tree printed exactly as CPython 3.11's
 * ast.dump(tree) prints it (default arguments: field names, no attributes,
 * no indentation, optional fields omitted when None). Also the kind and
 * operator name tables. Used by tests and for debugging; evaluates nothing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"

static const char *const kind_names[REPL_AST_KIND_COUNT] = {
#define X(name) #name,
    REPL_AST_KINDS(X)
#undef X
};

static const char *const op_names[REPL_OP_COUNT] = {
#define X(name) #name,
    REPL_AST_OPS(X)
#undef X
};

const char *repl_ast_kind_name(repl_ast_kind kind)
{
    return (int)kind >= 0 && kind < REPL_AST_KIND_COUNT ? kind_names[kind] : "?";
}

const char *repl_ast_op_name(repl_ast_op op)
{
    return (int)op >= 0 && op < REPL_OP_COUNT ? op_names[op] : "?";
}

/* a growing output string; failed is sticky */
typedef struct out {
    char *s;
    size_t n, cap;
    bool failed;
} out;

static void put(out *o, const char *s, size_t n)
{
    if (o->failed) return;
    if (o->n + n + 1 > o->cap) {
        size_t cap = o->cap ? o->cap : 256;
        while (cap < o->n + n + 1) cap *= 2;
        char *p = nn_realloc(o->s, cap);
        if (!p) { o->failed = true; return; }
        o->s = p;
        o->cap = cap;
    }
    memcpy(o->s + o->n, s, n);
    o->n += n;
    o->s[o->n] = '\0';
}
static void puts_(out *o, const char *s) { put(o, s, strlen(s)); }

/* Python's repr(float): the shortest round-tripping digits, fixed notation for
   exponents in [-4, 16), else d.ddde+XX */
static void put_float(out *o, double v)
{
    char buf[64];
    if (isnan(v)) { puts_(o, "nan"); return; }
    if (isinf(v)) { puts_(o, v < 0 ? "-inf" : "inf"); return; }
    int prec = 1;
    for (; prec < 17; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec - 1, v);
        if (strtod(buf, NULL) == v) break;
    }
    snprintf(buf, sizeof buf, "%.*e", prec - 1, v);
    /* buf: [-]d[.ddd]e[+-]xx */
    char digits[32];
    int nd = 0;
    bool neg = buf[0] == '-';
    char *p = buf + neg;
    for (; *p && *p != 'e'; p++)
        if (*p != '.') digits[nd++] = *p;
    int exp = atoi(p + 1);
    while (nd > 1 && digits[nd - 1] == '0') nd--;
    char res[64];
    int k = 0;
    if (neg) res[k++] = '-';
    if (exp >= -4 && exp < 16) {
        if (exp < 0) {
            res[k++] = '0'; res[k++] = '.';
            for (int i = -1; i > exp; i--) res[k++] = '0';
            for (int i = 0; i < nd; i++) res[k++] = digits[i];
        } else {
            for (int i = 0; i <= exp; i++) res[k++] = i < nd ? digits[i] : '0';
            res[k++] = '.';
            if (nd > exp + 1) for (int i = exp + 1; i < nd; i++) res[k++] = digits[i];
            else res[k++] = '0';
        }
        res[k] = '\0';
    } else {
        res[k++] = digits[0];
        if (nd > 1) {
            res[k++] = '.';
            for (int i = 1; i < nd; i++) res[k++] = digits[i];
        }
        snprintf(res + k, sizeof res - (size_t)k, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    }
    puts_(o, res);
}

/* Python's repr(str) for UTF-8 bytes s[0..n) */
static void put_str(out *o, const char *s, size_t n)
{
    bool has_single = memchr(s, '\'', n) != NULL, has_double = memchr(s, '"', n) != NULL;
    char q = has_single && !has_double ? '"' : '\'';
    put(o, &q, 1);
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        unsigned long cp = c;
        size_t len = 1;
        if (c >= 0xF0 && i + 3 < n + 0) { cp = (c & 7ul) << 18 | (s[i + 1] & 0x3Ful) << 12 | (s[i + 2] & 0x3Ful) << 6 | (s[i + 3] & 0x3Ful); len = 4; }
        else if (c >= 0xE0 && i + 2 < n) { cp = (c & 0xFul) << 12 | (s[i + 1] & 0x3Ful) << 6 | (s[i + 2] & 0x3Ful); len = 3; }
        else if (c >= 0xC0 && i + 1 < n) { cp = (c & 0x1Ful) << 6 | (s[i + 1] & 0x3Ful); len = 2; }
        char esc[16];
        if (cp == '\\') puts_(o, "\\\\");
        else if (cp == (unsigned char)q) { esc[0] = '\\'; esc[1] = q; put(o, esc, 2); }
        else if (cp == '\n') puts_(o, "\\n");
        else if (cp == '\r') puts_(o, "\\r");
        else if (cp == '\t') puts_(o, "\\t");
        else if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0xA0) || cp == 0xAD) {
            snprintf(esc, sizeof esc, "\\x%02lx", cp);
            puts_(o, esc);
        } else if ((cp >= 0xD800 && cp <= 0xDFFF) || cp == 0x2028 || cp == 0x2029) {
            snprintf(esc, sizeof esc, "\\u%04lx", cp);
            puts_(o, esc);
        } else {
            put(o, s + i, len);
        }
        i += len;
    }
    put(o, &q, 1);
}

static void dump(out *o, const repl_node *n);

static void field(out *o, bool *first, const char *name)
{
    if (!*first) puts_(o, ", ");
    *first = false;
    puts_(o, name);
    puts_(o, "=");
}

static void dump_list(out *o, repl_node_list l)
{
    puts_(o, "[");
    for (int i = 0; i < l.n; i++) {
        if (i) puts_(o, ", ");
        if (l.items[i]) dump(o, l.items[i]);
        else puts_(o, "None");
    }
    puts_(o, "]");
}

static void f_list(out *o, bool *first, const char *name, repl_node_list l) { field(o, first, name); dump_list(o, l); }
static void f_node(out *o, bool *first, const char *name, const repl_node *n)
{
    if (!n) return;            /* optional field that is None: omitted */
    field(o, first, name);
    dump(o, n);
}
static void f_req(out *o, bool *first, const char *name, const repl_node *n)
{
    field(o, first, name);
    if (n) dump(o, n);
    else puts_(o, "None");
}
static void f_ident(out *o, bool *first, const char *name, const char *s)
{
    if (!s) return;
    field(o, first, name);
    put_str(o, s, strlen(s));
}
static void f_op(out *o, bool *first, const char *name, repl_ast_op op)
{
    field(o, first, name);
    puts_(o, repl_ast_op_name(op));
    puts_(o, "()");
}
static void f_ctx(out *o, bool *first, repl_ast_ctx ctx)
{
    field(o, first, "ctx");
    puts_(o, ctx == REPL_CTX_STORE ? "Store()" : ctx == REPL_CTX_DEL ? "Del()" : "Load()");
}
static void f_int(out *o, bool *first, const char *name, long v)
{
    char buf[32];
    field(o, first, name);
    snprintf(buf, sizeof buf, "%ld", v);
    puts_(o, buf);
}

static void f_names(out *o, bool *first, const char *name, repl_name_list l)
{
    field(o, first, name);
    puts_(o, "[");
    for (int i = 0; i < l.n; i++) {
        if (i) puts_(o, ", ");
        put_str(o, l.items[i], strlen(l.items[i]));
    }
    puts_(o, "]");
}

static void dump_constant(out *o, const repl_node *n)
{
    char buf[32];
    switch (n->v.Constant.ckind) {
    case REPL_CONST_NONE: puts_(o, "None"); break;
    case REPL_CONST_TRUE: puts_(o, "True"); break;
    case REPL_CONST_FALSE: puts_(o, "False"); break;
    case REPL_CONST_ELLIPSIS: puts_(o, "Ellipsis"); break;
    case REPL_CONST_INT:
        if (n->v.Constant.overflow) {
            put(o, n->v.Constant.s, n->v.Constant.len);
        } else {
            snprintf(buf, sizeof buf, "%lld", (long long)n->v.Constant.i);
            puts_(o, buf);
        }
        break;
    case REPL_CONST_FLOAT: put_float(o, n->v.Constant.f); break;
    case REPL_CONST_IMAG: put_float(o, n->v.Constant.f); puts_(o, "j"); break;
    case REPL_CONST_STR: put_str(o, n->v.Constant.s, n->v.Constant.len); break;
    case REPL_CONST_BYTES: puts_(o, "b"); put_str(o, n->v.Constant.s, n->v.Constant.len); break;
    }
}

static void dump(out *o, const repl_node *n)
{
    bool first = true, *f = &first;
    puts_(o, repl_ast_kind_name(n->kind));
    puts_(o, "(");
    switch (n->kind) {
    case REPL_AST_Module:
        f_list(o, f, "body", n->v.Module.body);
        f_list(o, f, "type_ignores", (repl_node_list){0});
        break;
    case REPL_AST_Interactive: f_list(o, f, "body", n->v.Module.body); break;
    case REPL_AST_Expression: f_req(o, f, "body", n->v.Expression.body); break;
    case REPL_AST_FunctionDef:
        f_ident(o, f, "name", n->v.FunctionDef.name);
        f_req(o, f, "args", n->v.FunctionDef.args);
        f_list(o, f, "body", n->v.FunctionDef.body);
        f_list(o, f, "decorator_list", n->v.FunctionDef.decorator_list);
        f_node(o, f, "returns", n->v.FunctionDef.returns);
        break;
    case REPL_AST_ClassDef:
        f_ident(o, f, "name", n->v.ClassDef.name);
        f_list(o, f, "bases", n->v.ClassDef.bases);
        f_list(o, f, "keywords", n->v.ClassDef.keywords);
        f_list(o, f, "body", n->v.ClassDef.body);
        f_list(o, f, "decorator_list", n->v.ClassDef.decorator_list);
        break;
    case REPL_AST_Return:
    case REPL_AST_Yield: f_node(o, f, "value", n->v.Return.value); break;
    case REPL_AST_YieldFrom: f_req(o, f, "value", n->v.Return.value); break;
    case REPL_AST_Expr: f_req(o, f, "value", n->v.Return.value); break;
    case REPL_AST_Delete: f_list(o, f, "targets", n->v.Delete.targets); break;
    case REPL_AST_Assign:
        f_list(o, f, "targets", n->v.Assign.targets);
        f_req(o, f, "value", n->v.Assign.value);
        break;
    case REPL_AST_AugAssign:
        f_req(o, f, "target", n->v.AugAssign.target);
        f_op(o, f, "op", n->v.AugAssign.op);
        f_req(o, f, "value", n->v.AugAssign.value);
        break;
    case REPL_AST_AnnAssign:
        f_req(o, f, "target", n->v.AnnAssign.target);
        f_req(o, f, "annotation", n->v.AnnAssign.annotation);
        f_node(o, f, "value", n->v.AnnAssign.value);
        f_int(o, f, "simple", n->v.AnnAssign.simple);
        break;
    case REPL_AST_NamedExpr:
        f_req(o, f, "target", n->v.NamedExpr.target);
        f_req(o, f, "value", n->v.NamedExpr.value);
        break;
    case REPL_AST_For:
        f_req(o, f, "target", n->v.For.target);
        f_req(o, f, "iter", n->v.For.iter);
        f_list(o, f, "body", n->v.For.body);
        f_list(o, f, "orelse", n->v.For.orelse);
        break;
    case REPL_AST_While: case REPL_AST_If:
        f_req(o, f, "test", n->v.While.test);
        f_list(o, f, "body", n->v.While.body);
        f_list(o, f, "orelse", n->v.While.orelse);
        break;
    case REPL_AST_With:
        f_list(o, f, "items", n->v.With.items);
        f_list(o, f, "body", n->v.With.body);
        break;
    case REPL_AST_Raise:
        f_node(o, f, "exc", n->v.Raise.exc);
        f_node(o, f, "cause", n->v.Raise.cause);
        break;
    case REPL_AST_Try:
        f_list(o, f, "body", n->v.Try.body);
        f_list(o, f, "handlers", n->v.Try.handlers);
        f_list(o, f, "orelse", n->v.Try.orelse);
        f_list(o, f, "finalbody", n->v.Try.finalbody);
        break;
    case REPL_AST_Assert:
        f_req(o, f, "test", n->v.Assert.test);
        f_node(o, f, "msg", n->v.Assert.msg);
        break;
    case REPL_AST_Import: f_list(o, f, "names", n->v.Import.names); break;
    case REPL_AST_ImportFrom:
        f_ident(o, f, "module", n->v.ImportFrom.module);
        f_list(o, f, "names", n->v.ImportFrom.names);
        f_int(o, f, "level", n->v.ImportFrom.level);
        break;
    case REPL_AST_Global: case REPL_AST_Nonlocal: f_names(o, f, "names", n->v.Global.names); break;
    case REPL_AST_Match:
        f_req(o, f, "subject", n->v.Match.subject);
        f_list(o, f, "cases", n->v.Match.cases);
        break;
    case REPL_AST_match_case:
        f_req(o, f, "pattern", n->v.match_case.pattern);
        f_node(o, f, "guard", n->v.match_case.guard);
        f_list(o, f, "body", n->v.match_case.body);
        break;
    case REPL_AST_MatchValue: f_req(o, f, "value", n->v.Pattern.value); break;
    case REPL_AST_MatchSingleton: field(o, f, "value"); dump_constant(o, n->v.Pattern.value); break;
    case REPL_AST_MatchSequence: case REPL_AST_MatchOr: f_list(o, f, "patterns", n->v.Pattern.patterns); break;
    case REPL_AST_MatchMapping:
        f_list(o, f, "keys", n->v.Pattern.keys);
        f_list(o, f, "patterns", n->v.Pattern.patterns);
        f_ident(o, f, "rest", n->v.Pattern.rest);
        break;
    case REPL_AST_MatchClass:
        f_req(o, f, "cls", n->v.Pattern.cls);
        f_list(o, f, "patterns", n->v.Pattern.patterns);
        f_names(o, f, "kwd_attrs", n->v.Pattern.kwd_attrs);
        f_list(o, f, "kwd_patterns", n->v.Pattern.kwd_patterns);
        break;
    case REPL_AST_MatchStar: f_ident(o, f, "name", n->v.Pattern.name); break;
    case REPL_AST_MatchAs:
        f_node(o, f, "pattern", n->v.Pattern.pattern);
        f_ident(o, f, "name", n->v.Pattern.name);
        break;
    case REPL_AST_Pass: case REPL_AST_Break: case REPL_AST_Continue: break;
    case REPL_AST_BoolOp:
        f_op(o, f, "op", n->v.BoolOp.op);
        f_list(o, f, "values", n->v.BoolOp.values);
        break;
    case REPL_AST_BinOp:
        f_req(o, f, "left", n->v.BinOp.left);
        f_op(o, f, "op", n->v.BinOp.op);
        f_req(o, f, "right", n->v.BinOp.right);
        break;
    case REPL_AST_UnaryOp:
        f_op(o, f, "op", n->v.UnaryOp.op);
        f_req(o, f, "operand", n->v.UnaryOp.operand);
        break;
    case REPL_AST_Lambda:
        f_req(o, f, "args", n->v.Lambda.args);
        f_req(o, f, "body", n->v.Lambda.body);
        break;
    case REPL_AST_IfExp:
        f_req(o, f, "test", n->v.IfExp.test);
        f_req(o, f, "body", n->v.IfExp.body);
        f_req(o, f, "orelse", n->v.IfExp.orelse);
        break;
    case REPL_AST_Dict:
        f_list(o, f, "keys", n->v.Dict.keys);
        f_list(o, f, "values", n->v.Dict.values);
        break;
    case REPL_AST_Set: f_list(o, f, "elts", n->v.Set.elts); break;
    case REPL_AST_ListComp: case REPL_AST_SetComp: case REPL_AST_GeneratorExp:
        f_req(o, f, "elt", n->v.Comp.elt);
        f_list(o, f, "generators", n->v.Comp.generators);
        break;
    case REPL_AST_DictComp:
        f_req(o, f, "key", n->v.Comp.elt);
        f_req(o, f, "value", n->v.Comp.value);
        f_list(o, f, "generators", n->v.Comp.generators);
        break;
    case REPL_AST_Compare:
        f_req(o, f, "left", n->v.Compare.left);
        field(o, f, "ops");
        puts_(o, "[");
        for (int i = 0; i < n->v.Compare.comparators.n; i++) {
            if (i) puts_(o, ", ");
            puts_(o, repl_ast_op_name(n->v.Compare.ops[i]));
            puts_(o, "()");
        }
        puts_(o, "]");
        f_list(o, f, "comparators", n->v.Compare.comparators);
        break;
    case REPL_AST_Call:
        f_req(o, f, "func", n->v.Call.func);
        f_list(o, f, "args", n->v.Call.args);
        f_list(o, f, "keywords", n->v.Call.keywords);
        break;
    case REPL_AST_FormattedValue:
        f_req(o, f, "value", n->v.FormattedValue.value);
        f_int(o, f, "conversion", n->v.FormattedValue.conversion);
        f_node(o, f, "format_spec", n->v.FormattedValue.format_spec);
        break;
    case REPL_AST_JoinedStr: f_list(o, f, "values", n->v.JoinedStr.values); break;
    case REPL_AST_Constant:
        field(o, f, "value");
        dump_constant(o, n);
        break;
    case REPL_AST_Attribute:
        f_req(o, f, "value", n->v.Attribute.value);
        f_ident(o, f, "attr", n->v.Attribute.attr);
        f_ctx(o, f, n->v.Attribute.ctx);
        break;
    case REPL_AST_Subscript:
        f_req(o, f, "value", n->v.Subscript.value);
        f_req(o, f, "slice", n->v.Subscript.slice);
        f_ctx(o, f, n->v.Subscript.ctx);
        break;
    case REPL_AST_Starred:
        f_req(o, f, "value", n->v.Starred.value);
        f_ctx(o, f, n->v.Starred.ctx);
        break;
    case REPL_AST_Name:
        f_ident(o, f, "id", n->v.Name.id);
        f_ctx(o, f, n->v.Name.ctx);
        break;
    case REPL_AST_List: case REPL_AST_Tuple:
        f_list(o, f, "elts", n->v.List.elts);
        f_ctx(o, f, n->v.List.ctx);
        break;
    case REPL_AST_Slice:
        f_node(o, f, "lower", n->v.Slice.lower);
        f_node(o, f, "upper", n->v.Slice.upper);
        f_node(o, f, "step", n->v.Slice.step);
        break;
    case REPL_AST_comprehension:
        f_req(o, f, "target", n->v.comprehension.target);
        f_req(o, f, "iter", n->v.comprehension.iter);
        f_list(o, f, "ifs", n->v.comprehension.ifs);
        f_int(o, f, "is_async", 0);
        break;
    case REPL_AST_ExceptHandler:
        f_node(o, f, "type", n->v.ExceptHandler.type);
        f_ident(o, f, "name", n->v.ExceptHandler.name);
        f_list(o, f, "body", n->v.ExceptHandler.body);
        break;
    case REPL_AST_arguments:
        f_list(o, f, "posonlyargs", n->v.arguments.posonlyargs);
        f_list(o, f, "args", n->v.arguments.args);
        f_node(o, f, "vararg", n->v.arguments.vararg);
        f_list(o, f, "kwonlyargs", n->v.arguments.kwonlyargs);
        f_list(o, f, "kw_defaults", n->v.arguments.kw_defaults);
        f_node(o, f, "kwarg", n->v.arguments.kwarg);
        f_list(o, f, "defaults", n->v.arguments.defaults);
        break;
    case REPL_AST_arg:
        f_ident(o, f, "arg", n->v.arg.arg);
        f_node(o, f, "annotation", n->v.arg.annotation);
        break;
    case REPL_AST_keyword:
        f_ident(o, f, "arg", n->v.keyword.arg);
        f_req(o, f, "value", n->v.keyword.value);
        break;
    case REPL_AST_alias:
        f_ident(o, f, "name", n->v.alias.name);
        f_ident(o, f, "asname", n->v.alias.asname);
        break;
    case REPL_AST_withitem:
        f_req(o, f, "context_expr", n->v.withitem.context_expr);
        f_node(o, f, "optional_vars", n->v.withitem.optional_vars);
        break;
    case REPL_AST_KIND_COUNT: break;
    }
    puts_(o, ")");
}

char *repl_ast_dump(const repl_node *node)
{
    out o = {0};
    dump(&o, node);
    if (o.failed) {
        nn_free(o.s);
        return NULL;     /* nn_realloc set MemoryError */
    }
    if (!o.s) return nn_strdup("");
    return o.s;
}
