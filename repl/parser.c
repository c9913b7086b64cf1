/*
 * parser.c — recursive-descent parser of the nnscope language (Lua's
 * lparser.c): tokens from lexer.c to the AST of ast.h, with Python's operator
 * precedence and CPython 3.11's syntax-error wording. Also the node arena.
 * Builds the tree only; nothing is evaluated here.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "repl_int.h"

/* Nesting as CPython 3.11 counts it: its parser's stack (6000 entries; `**` and
   lambda take two a level) overflows with MemoryError, its compiler stops a tree
   nested about 3000 levels with RecursionError; `not`*2996 is the first chain that
   fails, with RecursionError, `1**1**...` from 2985 links, with MemoryError. */
#define MAX_DEPTH 5969      /* parser units (P->depth) */
#define COMPILE_LEVELS 2997 /* levels: units less the second units of `**` and lambda (P->extra) */

/* ------------------------------------------------------------------ arena */

typedef struct chunk {
    struct chunk *next;
    size_t used, size;
    _Alignas(16) unsigned char data[];
} chunk;

struct repl_ast_arena {
    chunk *head;
};

repl_ast_arena *repl_ast_arena_new(void)
{
    return nn_calloc(1, sizeof(repl_ast_arena));
}

void *repl_ast_arena_alloc(repl_ast_arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    chunk *c = a->head;
    if (!c || c->size - c->used < n) {
        size_t size = n > 8192 ? n : 8192;
        c = nn_malloc(sizeof(chunk) + size);
        if (!c) return NULL;
        c->size = size;
        c->used = 0;
        c->next = a->head;
        a->head = c;
    }
    void *p = c->data + c->used;
    c->used += n;
    memset(p, 0, n);
    return p;
}

char *repl_ast_arena_strndup(repl_ast_arena *a, const char *s, size_t n)
{
    char *d = repl_ast_arena_alloc(a, n + 1);
    if (!d) return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

void repl_ast_arena_free(repl_ast_arena *a)
{
    if (!a) return;
    for (chunk *c = a->head, *next; c; c = next) {
        next = c->next;
        nn_free(c);
    }
    nn_free(a);
}

/* ------------------------------------------------------------------ state */

typedef struct parser {
    repl_token *toks;
    int n, pos;
    repl_ast_arena *arena;
    repl_parse_error *err;
    bool interactive, ends_blank;
    int depth, extra; /* nesting units; of them, the second units of `**` and lambda levels */
    bool too_deep;    /* nested past COMPILE_LEVELS: RecursionError once the whole source parsed */
    int yields;   /* yield expressions parsed so far (a def whose body adds some is a generator) */
    int funcs;    /* the defs and lambdas around the current point (0 in a class body) */
    repl_node *stray_yield; /* the first yield outside any function, or NULL: the compiler's SyntaxError */
    repl_node *last_yield;  /* the last yield parsed (a comprehension refuses one) */
    struct vec *walrus;  /* the targets of := in the def being parsed (its locals), or NULL */
    bool future_annotations;  /* `from __future__ import annotations` was parsed */
} parser;

typedef struct vec {
    repl_node **items;
    int n, cap;
} vec;

static repl_token *cur(parser *P) { return &P->toks[P->pos]; }
static repl_token_kind kind_at(parser *P, int k)
{
    return P->pos + k < P->n ? P->toks[P->pos + k].kind : TK_ENDMARKER;
}
static bool check(parser *P, repl_token_kind k) { return cur(P)->kind == k; }
static repl_token *advance(parser *P)
{
    repl_token *t = cur(P);
    if (P->pos < P->n - 1) P->pos++;
    return t;
}
static bool accept(parser *P, repl_token_kind k)
{
    if (!check(P, k)) return false;
    advance(P);
    return true;
}

static void *failed(parser *P)
{
    if (P->err && P->err->status == REPL_PARSE_OK) P->err->status = REPL_PARSE_FAILED;
    return NULL;
}

/* A SyntaxError (or IndentationError) at token t; NULL. */
static void *error_at(parser *P, nn_error_kind kind, const repl_token *t, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void *error_at(parser *P, nn_error_kind kind, const repl_token *t, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* at the end of input, point where the last real token ended */
    bool in_stream = t >= P->toks && t < P->toks + P->n, at_eof = false;
    const repl_token *end = NULL; /* the ENDMARKER, when the error is there */
    int i = in_stream ? (int)(t - P->toks) : 0;
    if (in_stream && (t->kind == TK_ENDMARKER || t->kind == TK_DEDENT)) {
        /* only DEDENTs before the end: the input stopped here (a nested block
           header such as "class A:\n    def f(self):" wants more lines) */
        int rest = i;
        while (rest < P->n && P->toks[rest].kind == TK_DEDENT) rest++;
        bool at_end = rest >= P->n || P->toks[rest].kind == TK_ENDMARKER;
        if (P->interactive && at_end && !P->ends_blank) {
            repl_syntax_error(P->err, REPL_PARSE_INCOMPLETE, NN_ERR_SYNTAX, t->line, t->col, "incomplete input");
            return NULL;
        }
        while (i > 0 && (P->toks[i].kind == TK_ENDMARKER || P->toks[i].kind == TK_DEDENT)) i--;
        t = &P->toks[i];
        at_eof = at_end;
        if (at_end && rest < P->n && P->toks[rest].end_line) end = &P->toks[rest];
    }
    repl_syntax_error(P->err, REPL_PARSE_INVALID, kind, t->line, t->col, "%s", msg);
    if (P->err) P->err->at_eof = at_eof;
    if (P->err && end) { /* CPython's end of input: its last newline, no range */
        P->err->line = end->end_line, P->err->offset = end->end_col + 1;
        P->err->end_offset = -1, P->err->end_exact = true;
        return NULL;
    }
    if (P->err && t->kind == TK_NEWLINE) { /* an empty range at the line's end */
        P->err->end_offset = P->err->offset, P->err->end_exact = true;
        return NULL;
    }
    if (P->err && (kind == NN_ERR_SYNTAX || kind == NN_ERR_INDENTATION) && t->end_line == t->line && t->end_col > t->col + 1 &&
        t->kind != TK_NEWLINE && !(t->kind == TK_STRING && t->fstring))
        P->err->end_offset = t->end_col + 1; /* CPython's carets under the whole token */
    return NULL;
}

/* The error over line:col to end_col (CPython's ^^^ range; one caret when the
   range ends on another line) */
static void *error_range(parser *P, int line, int col, int end_line, int end_col, const char *msg)
{
    repl_token t = {.kind = TK_NAME, .line = line, .col = col, .end_line = end_line, .end_col = end_col};
    return error_at(P, NN_ERR_SYNTAX, &t, "%s", msg);
}

/* The error over node n's range */
static void *error_node(parser *P, const repl_node *n, const char *msg)
{
    return error_range(P, n->line, n->col, n->end_line, n->end_col, msg);
}

static void *invalid_syntax(parser *P)
{
    repl_token *t = cur(P);
    if (t->kind == TK_INDENT) {   /* CPython points at the last indenting character */
        repl_token at = *t;
        at.col = at.col > 0 ? at.col - 1 : 0;
        error_at(P, NN_ERR_INDENTATION, &at, "unexpected indent");
        if (P->err) P->err->end_offset = -1, P->err->end_exact = true; /* CPython's, after an INDENT */
        return NULL;
    }
    return error_at(P, NN_ERR_SYNTAX, t, "invalid syntax");
}

static repl_token *expect(parser *P, repl_token_kind k)
{
    if (check(P, k)) return advance(P);
    if (k == TK_COLON && (check(P, TK_NEWLINE) || (P->pos > 0 && cur(P)->line != P->toks[P->pos - 1].end_line))) {
        error_at(P, NN_ERR_SYNTAX, cur(P), "expected ':'"); /* CPython's, before the line's end */
        if (P->err) P->err->end_offset = P->err->offset; /* an empty range there (SyntaxError.end_offset) */
        return NULL;
    }
    return invalid_syntax(P);
}

static int push(parser *P, vec *v, repl_node *x)
{
    if (v->n == v->cap) {
        int cap = v->cap ? 2 * v->cap : 4;
        repl_node **items = repl_ast_arena_alloc(P->arena, (size_t)cap * sizeof *items);
        if (!items) return failed(P), -1;
        if (v->n) memcpy(items, v->items, (size_t)v->n * sizeof *items);
        v->items = items;
        v->cap = cap;
    }
    v->items[v->n++] = x;
    return 0;
}

static repl_node_list list_of(vec v) { return (repl_node_list){v.items, v.n}; }

static repl_node *new_node(parser *P, repl_ast_kind kind, int line, int col)
{
    repl_node *n = repl_ast_arena_alloc(P->arena, sizeof *n);
    if (!n) return failed(P);
    n->kind = kind;
    n->line = line;
    n->col = col;
    return n;
}
static repl_node *node_at(parser *P, repl_ast_kind kind, const repl_token *t)
{
    return new_node(P, kind, t->line, t->col);
}

/* A NAME token's text: its NFKC form (the lexer's) or what was written */
static const char *name_text(const repl_token *t, size_t *len)
{
    *len = t->str ? t->str_len : t->len;
    return t->str ? t->str : t->start;
}

static const char *identifier(parser *P, const repl_token *t)
{
    size_t n;
    const char *text = name_text(t, &n);
    const char *s = repl_ast_arena_strndup(P->arena, text, n);
    return s ? s : failed(P);
}

static bool enter(parser *P)
{
    ++P->depth;
    if (P->depth > MAX_DEPTH) {
        nn_error_set(NN_ERR_MEMORY, "%s", ""); /* CPython's parser: MemoryError, no message */
        failed(P);
        return false;
    }
    if (P->depth - P->extra > COMPILE_LEVELS) P->too_deep = true; /* CPython's compiler refuses it after parsing */
    if (nn_stack_check() < 0) { /* a smaller C stack (a generator's) than the main thread's */
        failed(P);
        return false;
    }
    return true;
}
#define ENTER(P) do { if (!enter(P)) return NULL; } while (0)
#define LEAVE(P, result) do { repl_node *r_ = (result); (P)->depth--; return r_; } while (0)

/* A left-deep chain (1+1+..., a.b.c..., f()()...) nests its tree one level per
   link without nesting the parser: past COMPILE_DEPTH levels in all it is
   CPython's RecursionError "maximum recursion depth exceeded during compilation"
   (its compiler allows 3000 levels), so the evaluator never walks a deeper tree. */
#define COMPILE_DEPTH 3000
static bool chain_link(parser *P, int *links)
{
    if (P->depth + ++*links <= COMPILE_DEPTH) return true;
    nn_error_set(NN_ERR_RECURSION, "maximum recursion depth exceeded during compilation");
    failed(P);
    return false;
}

/* ------------------------------------------------------------ expressions */

/* n (an expression just parsed) ends where the last token taken ends, unless
   its end is known already (a parenthesised group keeps its inner end) */
static repl_node *ended(parser *P, repl_node *n)
{
    if (n && !n->end_line && P->pos > 0) {
        const repl_token *last = &P->toks[P->pos - 1];
        n->end_line = last->end_line;
        n->end_col = last->end_col;
    }
    return n;
}

static repl_node *expression(parser *P);
static repl_node *star_expressions(parser *P);
static repl_node *bitwise_or(parser *P);
static repl_node *disjunction(parser *P);
static int set_context(parser *P, repl_node *e, repl_ast_ctx ctx);
static repl_node *fstring(parser *P, const repl_token *tok, const char *s, size_t n, bool raw,
                          vec *parts, char **buf, size_t *blen, size_t *bcap);

static bool starts_operand(repl_token_kind k)
{
    return k == TK_NAME || k == TK_INT || k == TK_FLOAT || k == TK_STRING;
}

/* after an element inside brackets: two operands in a row */
static void *forgot_comma(parser *P, const repl_node *first)
{
    if (cur(P)->line != first->line) return invalid_syntax(P);
    return error_range(P, first->line, first->col, cur(P)->end_line, cur(P)->end_col,
                       "invalid syntax. Perhaps you forgot a comma?");
}

static repl_node *constant(parser *P, repl_const_kind ck, const repl_token *t)
{
    repl_node *n = node_at(P, REPL_AST_Constant, t);
    if (n) n->v.Constant.ckind = ck;
    return n;
}

/* strings: STRING+ (adjacent literals concatenate; any f-string makes a JoinedStr) */
static repl_node *strings(parser *P)
{
    repl_token *first = cur(P);
    bool any_f = false;
    vec parts = {0};
    char *buf = NULL;
    size_t blen = 0, bcap = 0;
    while (check(P, TK_STRING)) {
        repl_token *t = advance(P);
        if (t->bytes != first->bytes) {
            return error_at(P, NN_ERR_SYNTAX, first, "cannot mix bytes and nonbytes literals");
        }
        if (t->fstring) {
            any_f = true;
            if (!fstring(P, t, t->str, t->str_len, t->raw, &parts, &buf, &blen, &bcap)) return NULL;
        } else {
            if (blen + t->str_len + 1 > bcap) {
                size_t cap = 2 * (blen + t->str_len + 1);
                char *nb = repl_ast_arena_alloc(P->arena, cap);
                if (!nb) return failed(P);
                if (blen) memcpy(nb, buf, blen);
                buf = nb;
                bcap = cap;
            }
            memcpy(buf + blen, t->str, t->str_len);
            blen += t->str_len;
        }
    }
    if (!any_f) {
        repl_node *c = constant(P, first->bytes ? REPL_CONST_BYTES : REPL_CONST_STR, first);
        if (!c) return NULL;
        c->v.Constant.s = buf ? buf : "";
        c->v.Constant.len = blen;
        if (buf) buf[blen] = '\0';
        return c;
    }
    if (blen) {
        repl_node *c = constant(P, REPL_CONST_STR, first);
        if (!c) return NULL;
        buf[blen] = '\0';
        c->v.Constant.s = buf;
        c->v.Constant.len = blen;
        if (push(P, &parts, c) < 0) return NULL;
    }
    repl_node *j = node_at(P, REPL_AST_JoinedStr, first);
    if (j) j->v.JoinedStr.values = list_of(parts);
    return j;
}

/* for_if_clauses: ('for' star_targets 'in' disjunction ('if' disjunction)*)+ */
static repl_node *star_targets(parser *P);
static const char *target_description(const repl_node *e);
/* the for/if clauses; *outer_yields: the yields in the first iterable (it runs
   in the enclosing scope) */
static int comprehension_clauses(parser *P, vec *gens, int *outer_yields)
{
    *outer_yields = 0;
    while (check(P, TK_FOR)) {
        int yields0 = P->yields;
        repl_token *t = advance(P);
        repl_node *c = node_at(P, REPL_AST_comprehension, t);
        if (!c) return -1;
        if (!(c->v.comprehension.target = star_targets(P))) return -1;
        if (set_context(P, c->v.comprehension.target, REPL_CTX_STORE) < 0) return -1;
        if (!expect(P, TK_IN)) return -1;
        if (!(c->v.comprehension.iter = disjunction(P))) return -1;
        if (!gens->n) *outer_yields = P->yields - yields0;
        vec ifs = {0};
        while (accept(P, TK_IF)) {
            repl_node *cond = disjunction(P);
            if (!cond || push(P, &ifs, cond) < 0) return -1;
        }
        c->v.comprehension.ifs = list_of(ifs);
        if (push(P, gens, c) < 0) return -1;
    }
    return 0;
}

/* A comprehension whose element (parsed once yields0 yields were) and clauses
   hold no yield: "'yield' inside list comprehension" otherwise, as CPython's symtable */
static repl_node *comprehension_of(parser *P, repl_ast_kind kind, const repl_token *t, repl_node *elt,
                                   repl_node *value, int yields0)
{
    repl_node *n = node_at(P, kind, t);
    if (!n) return NULL;
    n->v.Comp.elt = elt;
    n->v.Comp.value = value;
    vec gens = {0};
    int outer_yields;
    if (comprehension_clauses(P, &gens, &outer_yields) < 0) return NULL;
    n->v.Comp.generators = list_of(gens);
    if (P->yields - outer_yields > yields0 && P->last_yield) {
        char msg[80];
        snprintf(msg, sizeof msg, "'yield' inside %s", target_description(n));
        return error_node(P, P->last_yield, msg);
    }
    return n;
}
#define comprehension(P, kind, t, elt, value) comprehension_of(P, kind, t, elt, value, yields0)

/* named_expression: NAME ':=' expression | expression !':=' */
static repl_node *named_expression(parser *P)
{
    if (check(P, TK_NAME) && kind_at(P, 1) == TK_COLONEQUAL) {
        repl_token *t = advance(P);
        advance(P);
        repl_node *n = node_at(P, REPL_AST_NamedExpr, t), *target = node_at(P, REPL_AST_Name, t);
        if (!n || !target || !(target->v.Name.id = identifier(P, t))) return NULL;
        target->v.Name.ctx = REPL_CTX_STORE;
        n->v.NamedExpr.target = target;
        if (P->walrus && push(P, P->walrus, target) < 0) return NULL;
        return (n->v.NamedExpr.value = expression(P)) ? ended(P, n) : NULL;
    }
    repl_node *e = expression(P);
    if (e && check(P, TK_COLONEQUAL)) {
        const char *what = target_description(e);
        repl_token at = {.line = e->line, .col = e->col};
        if (e->kind == REPL_AST_Attribute || e->kind == REPL_AST_Subscript)
            what = e->kind == REPL_AST_Attribute ? "attribute" : "subscript";
        else if (e->kind == REPL_AST_Tuple || e->kind == REPL_AST_List)
            what = e->kind == REPL_AST_Tuple ? "tuple" : "list";
        return error_at(P, NN_ERR_SYNTAX, &at, "cannot use assignment expressions with %s", what ? what : "expression");
    }
    return e;
}

/* star_expression: '*' bitwise_or | expression   (named: star_named_expression,
   where NAME ':=' expression is allowed too) */
static repl_node *star_expr_of(parser *P, bool named)
{
    if (check(P, TK_STAR)) {
        repl_token *t = advance(P);
        repl_node *n = node_at(P, REPL_AST_Starred, t);
        if (!n || !(n->v.Starred.value = bitwise_or(P))) return NULL;
        return ended(P, n);
    }
    return named ? named_expression(P) : expression(P);
}
static repl_node *star_named_expression(parser *P) { return star_expr_of(P, true); }
static repl_node *star_expression(parser *P) { return star_expr_of(P, false); }

/* the elements of a list, tuple or set display after the first, up to close */
static int display_rest(parser *P, vec *elts, repl_token_kind close)
{
    while (accept(P, TK_COMMA)) {
        if (check(P, close)) break;
        repl_node *e = star_named_expression(P);
        if (!e || push(P, elts, e) < 0) return -1;
        if (starts_operand(cur(P)->kind)) return forgot_comma(P, e), -1;
    }
    return expect(P, close) ? 0 : -1;
}

/* yield_expr: 'yield' 'from' expression | 'yield' [star_expressions] */
static repl_node *yield_expr(parser *P)
{
    repl_token *t = advance(P);
    P->yields++;
    if (accept(P, TK_FROM)) {
        repl_node *n = node_at(P, REPL_AST_YieldFrom, t);
        if (n && !P->funcs && !P->stray_yield) P->stray_yield = n;
        if (n) P->last_yield = n;
        return n && (n->v.Return.value = expression(P)) ? ended(P, n) : NULL;
    }
    repl_node *n = node_at(P, REPL_AST_Yield, t);
    if (!n) return NULL;
    if (!P->funcs && !P->stray_yield) P->stray_yield = n;
    P->last_yield = n;
    repl_token_kind k = cur(P)->kind;
    if (k == TK_NEWLINE || k == TK_RPAR || k == TK_RSQB || k == TK_RBRACE || k == TK_SEMI || k == TK_EQUAL ||
        k == TK_ENDMARKER || k == TK_COLON)
        return ended(P, n);
    return (n->v.Return.value = star_expressions(P)) ? ended(P, n) : NULL;
}

/* tuple | group | genexp: '(' [star_named_expression (',' ...)* [','] | expression for_if_clauses] ')' */
static repl_node *paren_atom(parser *P)
{
    repl_token *t = advance(P);
    int yields0 = P->yields;
    if (accept(P, TK_RPAR)) {
        repl_node *n = node_at(P, REPL_AST_Tuple, t);
        return n;
    }
    if (check(P, TK_YIELD)) {
        repl_node *y = yield_expr(P);
        return y && expect(P, TK_RPAR) ? y : NULL;
    }
    repl_node *first = star_named_expression(P);
    if (!first) return NULL;
    if (check(P, TK_FOR)) {
        repl_node *g = comprehension(P, REPL_AST_GeneratorExp, t, first, NULL);
        return g && expect(P, TK_RPAR) ? g : NULL;
    }
    if (accept(P, TK_RPAR)) {
        if (first->kind == REPL_AST_Starred)
            return error_at(P, NN_ERR_SYNTAX, &(repl_token){.line = first->line, .col = first->col},
                            "cannot use starred expression here");
        return first;
    }
    if (starts_operand(cur(P)->kind)) return forgot_comma(P, first);
    if (!check(P, TK_COMMA)) return expect(P, TK_RPAR) ? first : NULL;
    vec elts = {0};
    if (push(P, &elts, first) < 0 || display_rest(P, &elts, TK_RPAR) < 0) return NULL;
    repl_node *n = node_at(P, REPL_AST_Tuple, t);
    if (n) n->v.List.elts = list_of(elts);
    return n;
}

/* list | listcomp: '[' [star_named_expression (',' ...)* [','] | named_expression for_if_clauses] ']' */
static repl_node *list_atom(parser *P)
{
    repl_token *t = advance(P);
    int yields0 = P->yields;
    vec elts = {0};
    if (!accept(P, TK_RSQB)) {
        repl_node *first = star_named_expression(P);
        if (!first) return NULL;
        if (check(P, TK_FOR)) {
            repl_node *c = comprehension(P, REPL_AST_ListComp, t, first, NULL);
            return c && expect(P, TK_RSQB) ? c : NULL;
        }
        if (starts_operand(cur(P)->kind)) return forgot_comma(P, first);
        if (push(P, &elts, first) < 0) return NULL;
        if (!check(P, TK_RSQB) && !check(P, TK_COMMA)) return expect(P, TK_RSQB), (repl_node *)NULL;
        if (display_rest(P, &elts, TK_RSQB) < 0) return NULL;
    }
    repl_node *n = node_at(P, REPL_AST_List, t);
    if (n) n->v.List.elts = list_of(elts);
    return n;
}

/* dict | set | dictcomp | setcomp:
   '{' [ (expression ':' expression | '**' bitwise_or) (',' ...)* [','] | star_named_expression (',' ...)*
         | expression ':' expression for_if_clauses | named_expression for_if_clauses ] '}' */
static repl_node *brace_atom(parser *P)
{
    repl_token *t = advance(P);
    int yields0 = P->yields;
    vec keys = {0}, values = {0};
    if (accept(P, TK_RBRACE)) {
        repl_node *n = node_at(P, REPL_AST_Dict, t);
        return n;
    }
    bool is_dict;
    repl_node *k = NULL, *v = NULL;
    if (accept(P, TK_DOUBLESTAR)) {
        is_dict = true;
        if (!(v = bitwise_or(P))) return NULL;
    } else {
        if (!(k = star_named_expression(P))) return NULL;
        is_dict = k->kind != REPL_AST_Starred && accept(P, TK_COLON);
        if (is_dict && !(v = expression(P))) return NULL;
    }
    if (check(P, TK_FOR) && (!is_dict || k)) {
        repl_node *c = comprehension(P, is_dict ? REPL_AST_DictComp : REPL_AST_SetComp, t, k, v);
        return c && expect(P, TK_RBRACE) ? c : NULL;
    }
    if (starts_operand(cur(P)->kind)) return forgot_comma(P, is_dict ? v : k);
    if (!is_dict) {
        if (push(P, &keys, k) < 0 || display_rest(P, &keys, TK_RBRACE) < 0) return NULL;
        repl_node *n = node_at(P, REPL_AST_Set, t);
        if (n) n->v.Set.elts = list_of(keys);
        return n;
    }
    if (push(P, &keys, k) < 0 || push(P, &values, v) < 0) return NULL;
    while (accept(P, TK_COMMA)) {
        if (check(P, TK_RBRACE)) break;
        k = NULL;
        if (accept(P, TK_DOUBLESTAR)) {
            if (!(v = bitwise_or(P))) return NULL;
        } else {
            if (!(k = expression(P))) return NULL;
            if ((check(P, TK_RBRACE) || check(P, TK_COMMA)) && cur(P)->line == k->line)
            {
                error_node(P, ended(P, k), "':' expected after dictionary key"); /* {1: 2, 3} */
                if (P->err) P->err->end_offset = 0, P->err->end_exact = true; /* CPython's: from the key on */
                return NULL;
            }
            if (!expect(P, TK_COLON) || !(v = expression(P))) return NULL;
        }
        if (push(P, &keys, k) < 0 || push(P, &values, v) < 0) return NULL;
        if (starts_operand(cur(P)->kind)) return forgot_comma(P, v);
    }
    if (!expect(P, TK_RBRACE)) return NULL;
    repl_node *n = node_at(P, REPL_AST_Dict, t);
    if (n) {
        n->v.Dict.keys = list_of(keys);
        n->v.Dict.values = list_of(values);
    }
    return n;
}

/* atom: NAME | 'True' | 'False' | 'None' | strings | NUMBER | '...' | tuple | group | genexp
       | list | listcomp | dict | set | dictcomp | setcomp */
static repl_node *atom(parser *P)
{
    repl_token *t = cur(P);
    repl_node *n;
    switch (t->kind) {
    case TK_NAME:
        advance(P);
        if (!(n = node_at(P, REPL_AST_Name, t)) || !(n->v.Name.id = identifier(P, t))) return NULL;
        return n;
    case TK_TRUE: advance(P); return constant(P, REPL_CONST_TRUE, t);
    case TK_FALSE: advance(P); return constant(P, REPL_CONST_FALSE, t);
    case TK_NONE: advance(P); return constant(P, REPL_CONST_NONE, t);
    case TK_ELLIPSIS: advance(P); return constant(P, REPL_CONST_ELLIPSIS, t);
    case TK_INT:
        advance(P);
        if (!(n = constant(P, REPL_CONST_INT, t))) return NULL;
        n->v.Constant.i = t->ival;
        if ((n->v.Constant.overflow = t->overflow)) {
            char *digits = repl_ast_arena_alloc(P->arena, t->len + 1);
            if (!digits) return failed(P);
            size_t k = 0;
            for (size_t i = 0; i < t->len; i++)
                if (t->start[i] != '_') digits[k++] = t->start[i];
            n->v.Constant.s = digits;
            n->v.Constant.len = k;
        }
        return n;
    case TK_FLOAT:
        advance(P);
        if ((n = constant(P, t->imag ? REPL_CONST_IMAG : REPL_CONST_FLOAT, t))) n->v.Constant.f = t->fval;
        return n;
    case TK_STRING: return strings(P);
    case TK_LPAR: return paren_atom(P);
    case TK_LSQB: return list_atom(P);
    case TK_LBRACE: return brace_atom(P);
    default: return invalid_syntax(P);
    }
}

/* slice: [expression] ':' [expression] [':' [expression]] | star_named_expression */
static repl_node *slice(parser *P)
{
    repl_token *t = cur(P);
    repl_node *lower = NULL;
    if (!check(P, TK_COLON)) {
        if (!(lower = star_named_expression(P))) return NULL;
        if (!check(P, TK_COLON)) return lower;
    }
    advance(P);
    repl_node *s = node_at(P, REPL_AST_Slice, t);
    if (!s) return NULL;
    s->v.Slice.lower = lower;
    if (!check(P, TK_COLON) && !check(P, TK_COMMA) && !check(P, TK_RSQB) && !(s->v.Slice.upper = expression(P)))
        return NULL;
    if (accept(P, TK_COLON) && !check(P, TK_COMMA) && !check(P, TK_RSQB) && !(s->v.Slice.step = expression(P)))
        return NULL;
    return s;
}

/* slices: slice !',' | ','.slice+ [','] */
static repl_node *slices(parser *P)
{
    repl_token *t = cur(P);
    repl_node *first = slice(P);
    if (!first) return NULL;
    if (!check(P, TK_COMMA)) return first;
    vec elts = {0};
    if (push(P, &elts, first) < 0) return NULL;
    while (accept(P, TK_COMMA)) {
        if (check(P, TK_RSQB)) break;
        repl_node *e = slice(P);
        if (!e || push(P, &elts, e) < 0) return NULL;
    }
    repl_node *n = node_at(P, REPL_AST_Tuple, t);
    if (n) n->v.List.elts = list_of(elts);
    return n;
}

/* arguments: arg (',' arg)* [','] ')'
   arg: '*' expression | '**' expression | NAME '=' expression | expression [for_if_clauses] */
static int call_args(parser *P, vec *args, vec *keywords)
{
    bool seen_kw = false, seen_kwunpack = false;
    repl_token *open = &P->toks[P->pos - 1];
    while (!check(P, TK_RPAR)) {
        repl_token *t = cur(P);
        if (accept(P, TK_STAR)) {
            if (seen_kwunpack) { /* over the arguments before it, as CPython's */
                const repl_token *first = &P->toks[open - P->toks + 1], *last = &P->toks[P->pos - 3];
                return error_range(P, first->line, first->col, last->end_line, last->end_col,
                                   "iterable argument unpacking follows keyword argument unpacking"), -1;
            }
            repl_node *s = node_at(P, REPL_AST_Starred, t);
            if (!s || !(s->v.Starred.value = expression(P)) || push(P, args, s) < 0) return -1;
        } else if (accept(P, TK_DOUBLESTAR)) {
            repl_node *k = node_at(P, REPL_AST_keyword, t);
            if (!k || !(k->v.keyword.value = expression(P)) || push(P, keywords, k) < 0) return -1;
            seen_kwunpack = true;
        } else if (check(P, TK_NAME) && kind_at(P, 1) == TK_EQUAL) {
            advance(P);
            advance(P);
            repl_node *k = node_at(P, REPL_AST_keyword, t);
            if (!k || !(k->v.keyword.arg = identifier(P, t)) || !(k->v.keyword.value = expression(P))) return -1;
            for (int i = 0; i < keywords->n; i++) {
                const char *prev = keywords->items[i]->v.keyword.arg;
                const repl_token *last = &P->toks[P->pos - 1]; /* CPython's range: the whole keyword argument */
                if (prev && strcmp(prev, k->v.keyword.arg) == 0) {
                    char msg[300];
                    snprintf(msg, sizeof msg, "keyword argument repeated: %s", prev);
                    return error_range(P, t->line, t->col, last->end_line, last->end_col, msg), -1;
                }
            }
            if (push(P, keywords, k) < 0) return -1;
            seen_kw = true;
        } else {
            int yields0 = P->yields;
            repl_node *e = named_expression(P);
            if (!e) return -1;
            if (check(P, TK_EQUAL))
                return error_at(P, NN_ERR_SYNTAX, &(repl_token){.line = e->line, .col = e->col},
                                "expression cannot contain assignment, perhaps you meant \"==\"?"), -1;
            if (check(P, TK_FOR)) {
                if (args->n || keywords->n || kind_at(P, 0) != TK_FOR) return invalid_syntax(P), -1;
                e = comprehension(P, REPL_AST_GeneratorExp, t, e, NULL);
                if (!e) return -1;
                if (!check(P, TK_RPAR))
                    return error_node(P, ended(P, e), "Generator expression must be parenthesized"), -1;
            }
            if (seen_kwunpack)
                return error_at(P, NN_ERR_SYNTAX, cur(P), "positional argument follows keyword argument unpacking"), -1;
            if (seen_kw)
                return error_at(P, NN_ERR_SYNTAX, cur(P), "positional argument follows keyword argument"), -1;
            if (push(P, args, e) < 0) return -1;
            if (starts_operand(cur(P)->kind)) return forgot_comma(P, e), -1;
        }
        if (!accept(P, TK_COMMA)) break;
    }
    return expect(P, TK_RPAR) ? 0 : -1;
}

/* primary: primary '.' NAME | primary '(' [arguments] ')' | primary '[' slices ']' | atom */
static repl_node *primary(parser *P)
{
    repl_token *start = cur(P);
    repl_node *e = ended(P, atom(P));
    int links = 0;
    while (e) {
        repl_token *t = cur(P);
        repl_node *n;
        if ((check(P, TK_DOT) || check(P, TK_LPAR) || check(P, TK_LSQB)) && !chain_link(P, &links)) return NULL;
        if (accept(P, TK_DOT)) {
            repl_token *name = cur(P);
            if (!expect(P, TK_NAME)) return NULL;
            if (!(n = node_at(P, REPL_AST_Attribute, start)) || !(n->v.Attribute.attr = identifier(P, name)))
                return NULL;
            n->v.Attribute.value = e;
        } else if (accept(P, TK_LPAR)) {
            vec args = {0}, keywords = {0};
            if (call_args(P, &args, &keywords) < 0 || !(n = node_at(P, REPL_AST_Call, start))) return NULL;
            n->v.Call.func = e;
            n->v.Call.args = list_of(args);
            n->v.Call.keywords = list_of(keywords);
        } else if (accept(P, TK_LSQB)) {
            if (!(n = node_at(P, REPL_AST_Subscript, start)) || !(n->v.Subscript.slice = slices(P)) ||
                !expect(P, TK_RSQB))
                return NULL;
            n->v.Subscript.value = e;
        } else {
            break;
        }
        (void)t;
        e = ended(P, n);
    }
    return e;
}

static repl_node *factor(parser *P);

/* power: primary '**' factor | primary */
static repl_node *power(parser *P)
{
    repl_node *left = primary(P);
    if (!left || !check(P, TK_DOUBLESTAR)) return left;
    P->depth++, P->extra++; /* 1**1**...: the right operand nests the parser, two units a level */
    ENTER(P);
    advance(P);
    repl_node *n = new_node(P, REPL_AST_BinOp, left->line, left->col);
    if (n) n->v.BinOp.right = factor(P);
    P->depth--, P->extra--;
    if (!n || !n->v.BinOp.right) LEAVE(P, NULL);
    n->v.BinOp.left = left;
    n->v.BinOp.op = REPL_OP_Pow;
    LEAVE(P, ended(P, n));
}

/* factor: '+' factor | '-' factor | '~' factor | power */
static repl_node *factor(parser *P)
{
    repl_token *t = cur(P);
    repl_ast_op op;
    if (t->kind == TK_PLUS) op = REPL_OP_UAdd;
    else if (t->kind == TK_MINUS) op = REPL_OP_USub;
    else if (t->kind == TK_TILDE) op = REPL_OP_Invert;
    else return power(P);
    ENTER(P);
    advance(P);
    repl_node *n = node_at(P, REPL_AST_UnaryOp, t);
    if (!n || !(n->v.UnaryOp.operand = factor(P))) LEAVE(P, NULL);
    n->v.UnaryOp.op = op;
    LEAVE(P, ended(P, n));
}

/* one left-associative binary level: operand (op operand)* */
typedef repl_node *(*level_fn)(parser *);
static repl_node *binary_level(parser *P, level_fn operand, const repl_token_kind *toks,
                               const repl_ast_op *ops, int nops)
{
    repl_node *left = operand(P);
    int links = 0;
    while (left) {
        int i = 0;
        while (i < nops && cur(P)->kind != toks[i]) i++;
        if (i == nops) break;
        if (!chain_link(P, &links)) return NULL;
        advance(P);
        repl_node *n = new_node(P, REPL_AST_BinOp, left->line, left->col);
        if (!n || !(n->v.BinOp.right = operand(P))) return NULL;
        n->v.BinOp.left = left;
        n->v.BinOp.op = ops[i];
        left = ended(P, n);
    }
    return left;
}

/* term: term ('*' | '/' | '//' | '%' | '@') factor | factor */
static repl_node *term(parser *P)
{
    static const repl_token_kind t[] = {TK_STAR, TK_SLASH, TK_DOUBLESLASH, TK_PERCENT, TK_AT};
    static const repl_ast_op o[] = {REPL_OP_Mult, REPL_OP_Div, REPL_OP_FloorDiv, REPL_OP_Mod, REPL_OP_MatMult};
    return binary_level(P, factor, t, o, 5);
}
/* sum: sum ('+' | '-') term | term */
static repl_node *sum(parser *P)
{
    static const repl_token_kind t[] = {TK_PLUS, TK_MINUS};
    static const repl_ast_op o[] = {REPL_OP_Add, REPL_OP_Sub};
    return binary_level(P, term, t, o, 2);
}
/* shift_expr: shift_expr ('<<' | '>>') sum | sum */
static repl_node *shift_expr(parser *P)
{
    static const repl_token_kind t[] = {TK_LSHIFT, TK_RSHIFT};
    static const repl_ast_op o[] = {REPL_OP_LShift, REPL_OP_RShift};
    return binary_level(P, sum, t, o, 2);
}
/* bitwise_and: bitwise_and '&' shift_expr | shift_expr */
static repl_node *bitwise_and(parser *P)
{
    static const repl_token_kind t[] = {TK_AMPER};
    static const repl_ast_op o[] = {REPL_OP_BitAnd};
    return binary_level(P, shift_expr, t, o, 1);
}
/* bitwise_xor: bitwise_xor '^' bitwise_and | bitwise_and */
static repl_node *bitwise_xor(parser *P)
{
    static const repl_token_kind t[] = {TK_CIRCUMFLEX};
    static const repl_ast_op o[] = {REPL_OP_BitXor};
    return binary_level(P, bitwise_and, t, o, 1);
}
/* bitwise_or: bitwise_or '|' bitwise_xor | bitwise_xor */
static repl_node *bitwise_or(parser *P)
{
    static const repl_token_kind t[] = {TK_VBAR};
    static const repl_ast_op o[] = {REPL_OP_BitOr};
    ENTER(P);
    LEAVE(P, binary_level(P, bitwise_xor, t, o, 1));
}

/* comparison: bitwise_or (compare_op bitwise_or)*
   compare_op: '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | 'not' 'in' | 'is' | 'is' 'not' */
static repl_node *comparison(parser *P)
{
    repl_node *left = bitwise_or(P);
    if (!left) return NULL;
    repl_ast_op ops[64], *opsp = ops;
    int nops = 0, cap = 64;
    vec comps = {0};
    for (;;) {
        repl_ast_op op;
        switch (cur(P)->kind) {
        case TK_EQEQUAL: op = REPL_OP_Eq; break;
        case TK_NOTEQUAL: op = REPL_OP_NotEq; break;
        case TK_LESS: op = REPL_OP_Lt; break;
        case TK_LESSEQUAL: op = REPL_OP_LtE; break;
        case TK_GREATER: op = REPL_OP_Gt; break;
        case TK_GREATEREQUAL: op = REPL_OP_GtE; break;
        case TK_IN: op = REPL_OP_In; break;
        case TK_IS: op = kind_at(P, 1) == TK_NOT ? REPL_OP_IsNot : REPL_OP_Is; break;
        case TK_NOT:
            if (kind_at(P, 1) != TK_IN) goto done;
            op = REPL_OP_NotIn;
            break;
        default: goto done;
        }
        advance(P);
        if (op == REPL_OP_IsNot || op == REPL_OP_NotIn) advance(P);
        if (nops == cap) {
            repl_ast_op *more = repl_ast_arena_alloc(P->arena, 2 * (size_t)cap * sizeof *more);
            if (!more) return failed(P);
            memcpy(more, opsp, (size_t)nops * sizeof *more);
            opsp = more;
            cap *= 2;
        }
        opsp[nops++] = op;
        repl_node *right = bitwise_or(P);
        if (!right || push(P, &comps, right) < 0) return NULL;
    }
done:
    if (!nops) return left;
    repl_node *n = new_node(P, REPL_AST_Compare, left->line, left->col);
    repl_ast_op *kept = repl_ast_arena_alloc(P->arena, (size_t)nops * sizeof *kept);
    if (!n || !kept) return failed(P);
    memcpy(kept, opsp, (size_t)nops * sizeof *kept);
    n->v.Compare.left = left;
    n->v.Compare.ops = kept;
    n->v.Compare.comparators = list_of(comps);
    return ended(P, n);
}

/* inversion: 'not' inversion | comparison */
static repl_node *inversion(parser *P)
{
    if (!check(P, TK_NOT)) return comparison(P);
    ENTER(P);
    repl_token *t = advance(P);
    repl_node *n = node_at(P, REPL_AST_UnaryOp, t);
    if (!n || !(n->v.UnaryOp.operand = inversion(P))) LEAVE(P, NULL);
    n->v.UnaryOp.op = REPL_OP_Not;
    LEAVE(P, ended(P, n));
}

/* conjunction: inversion ('and' inversion)+ | inversion
   disjunction: conjunction ('or' conjunction)+ | conjunction */
static repl_node *bool_level(parser *P, level_fn operand, repl_token_kind tk, repl_ast_op op)
{
    repl_node *first = operand(P);
    if (!first || !check(P, tk)) return first;
    vec values = {0};
    if (push(P, &values, first) < 0) return NULL;
    while (accept(P, tk)) {
        repl_node *e = operand(P);
        if (!e || push(P, &values, e) < 0) return NULL;
    }
    repl_node *n = new_node(P, REPL_AST_BoolOp, first->line, first->col);
    if (!n) return NULL;
    n->v.BoolOp.op = op;
    n->v.BoolOp.values = list_of(values);
    return ended(P, n);
}
static repl_node *conjunction(parser *P) { return bool_level(P, inversion, TK_AND, REPL_OP_And); }
static repl_node *disjunction(parser *P) { return bool_level(P, conjunction, TK_OR, REPL_OP_Or); }

static repl_node *parameters(parser *P, repl_token_kind close, bool annotations);

/* lambdef: 'lambda' [lambda_params] ':' expression */
static repl_node *lambdef(parser *P)
{
    repl_token *t = advance(P);
    repl_node *n = node_at(P, REPL_AST_Lambda, t);
    P->depth++, P->extra++, P->funcs++; /* two units a level, as `**` */
    bool ok = n && (n->v.Lambda.args = parameters(P, TK_COLON, false)) && expect(P, TK_COLON) &&
              (n->v.Lambda.body = expression(P));
    P->depth--, P->extra--, P->funcs--;
    return ok ? n : NULL;
}

/* expression: disjunction 'if' disjunction 'else' expression | disjunction | lambdef */
static repl_node *expression(parser *P)
{
    ENTER(P);
    if (check(P, TK_LAMBDA)) LEAVE(P, ended(P, lambdef(P)));
    repl_node *body = disjunction(P);
    if (!body || !check(P, TK_IF)) LEAVE(P, body);
    advance(P);
    repl_node *n = new_node(P, REPL_AST_IfExp, body->line, body->col);
    if (!n || !(n->v.IfExp.test = disjunction(P))) LEAVE(P, NULL);
    if (!check(P, TK_ELSE))
        LEAVE(P, error_range(P, body->line, body->col, P->toks[P->pos - 1].end_line, P->toks[P->pos - 1].end_col,
                             "expected 'else' after 'if' expression"));
    advance(P);
    if (!(n->v.IfExp.orelse = expression(P))) LEAVE(P, NULL);
    n->v.IfExp.body = body;
    LEAVE(P, ended(P, n));
}

/* a comma list of item() as a Tuple when it has a comma, else the one item */
static repl_node *tuple_of(parser *P, level_fn item, bool stop_at_in)
{
    repl_token *t = cur(P);
    repl_node *first = item(P);
    if (!first || !check(P, TK_COMMA)) return first;
    vec elts = {0};
    if (push(P, &elts, first) < 0) return NULL;
    while (accept(P, TK_COMMA)) {
        repl_token_kind k = cur(P)->kind;
        if (k == TK_NEWLINE || k == TK_EQUAL || k == TK_RPAR || k == TK_SEMI || k == TK_COLON ||
            k == TK_ENDMARKER || (stop_at_in && k == TK_IN) || (k >= TK_PLUSEQUAL && k <= TK_CIRCUMFLEXEQUAL) ||
            k == TK_DOUBLESTAREQUAL || k == TK_DOUBLESLASHEQUAL || k == TK_LSHIFTEQUAL || k == TK_RSHIFTEQUAL)
            break;
        repl_node *e = item(P);
        if (!e || push(P, &elts, e) < 0) return NULL;
    }
    repl_node *n = new_node(P, REPL_AST_Tuple, t->line, t->col);
    if (n) n->v.List.elts = list_of(elts);
    return ended(P, n);
}

/* star_expressions: star_expression (',' star_expression)* [','] */
static repl_node *star_expressions(parser *P) { return tuple_of(P, star_expression, false); }

/* star_target: '*' bitwise_or | bitwise_or   (validated by set_context) */
static repl_node *star_target(parser *P)
{
    if (check(P, TK_STAR)) {
        repl_token *t = advance(P);
        repl_node *n = node_at(P, REPL_AST_Starred, t);
        if (!n || !(n->v.Starred.value = bitwise_or(P))) return NULL;
        return n;
    }
    return bitwise_or(P);
}
/* star_targets: star_target (',' star_target)* [','] */
static repl_node *star_targets(parser *P) { return tuple_of(P, star_target, true); }

/* what CPython calls an invalid target in messages, or NULL when valid */
static const char *target_description(const repl_node *e)
{
    switch (e->kind) {
    case REPL_AST_Constant:
        switch (e->v.Constant.ckind) {
        case REPL_CONST_TRUE: return "True";
        case REPL_CONST_FALSE: return "False";
        case REPL_CONST_NONE: return "None";
        case REPL_CONST_ELLIPSIS: return "ellipsis";
        default: return "literal";
        }
    case REPL_AST_Call: return "function call";
    case REPL_AST_BinOp: case REPL_AST_UnaryOp: case REPL_AST_BoolOp: return "expression";
    case REPL_AST_Compare: return "comparison";
    case REPL_AST_IfExp: return "conditional expression";
    case REPL_AST_Lambda: return "lambda";
    case REPL_AST_Dict: return "dict literal";
    case REPL_AST_Set: return "set display";
    case REPL_AST_ListComp: return "list comprehension";
    case REPL_AST_SetComp: return "set comprehension";
    case REPL_AST_DictComp: return "dict comprehension";
    case REPL_AST_GeneratorExp: return "generator expression";
    case REPL_AST_JoinedStr: return "f-string expression";
    default: return NULL;
    }
}

/* the first invalid target inside e (for messages), or NULL */
static const repl_node *invalid_target(const repl_node *e)
{
    switch (e->kind) {
    case REPL_AST_Name: case REPL_AST_Attribute: case REPL_AST_Subscript: return NULL;
    case REPL_AST_Starred: return invalid_target(e->v.Starred.value);
    case REPL_AST_Tuple: case REPL_AST_List:
        for (int i = 0; i < e->v.List.elts.n; i++) {
            const repl_node *bad = invalid_target(e->v.List.elts.items[i]);
            if (bad) return bad;
        }
        return NULL;
    default: return e;
    }
}

/* "cannot assign to ... here. Maybe you meant '==' instead of '='?" over bad */
static repl_node *maybe_equal(parser *P, const repl_node *bad)
{
    char msg[200];
    snprintf(msg, sizeof msg, "cannot assign to %s here. Maybe you meant '==' instead of '='?", target_description(bad));
    return error_node(P, bad, msg);
}

/* Sets ctx on a valid target tree; -1 with "cannot assign to ..." otherwise. */
static int set_context(parser *P, repl_node *e, repl_ast_ctx ctx)
{
    const repl_node *bad = invalid_target(e);
    if (bad) {
        const char *what = target_description(bad);
        char msg[160];
        if (!what) what = "expression";
        if ((bad->kind == REPL_AST_Yield || bad->kind == REPL_AST_YieldFrom) && ctx != REPL_CTX_DEL)
            snprintf(msg, sizeof msg, "assignment to yield expression not possible");
        else snprintf(msg, sizeof msg, "cannot %s %s", ctx == REPL_CTX_DEL ? "delete" : "assign to", what);
        error_node(P, bad, msg);
        return -1;
    }
    switch (e->kind) {
    case REPL_AST_Name: e->v.Name.ctx = ctx; break;
    case REPL_AST_Attribute: e->v.Attribute.ctx = ctx; break;
    case REPL_AST_Subscript: e->v.Subscript.ctx = ctx; break;
    case REPL_AST_Starred: e->v.Starred.ctx = ctx; return set_context(P, e->v.Starred.value, ctx);
    case REPL_AST_Tuple: case REPL_AST_List:
        e->v.List.ctx = ctx;
        for (int i = 0; i < e->v.List.elts.n; i++)
            if (set_context(P, e->v.List.elts.items[i], ctx) < 0) return -1;
        break;
    default: break;
    }
    return 0;
}

/* ------------------------------------------------------------ f-strings */

static int buf_append(parser *P, char **buf, size_t *blen, size_t *bcap, const char *s, size_t n)
{
    if (*blen + n + 1 > *bcap) {
        size_t cap = 2 * (*blen + n + 1);
        char *nb = repl_ast_arena_alloc(P->arena, cap);
        if (!nb) return failed(P), -1;
        if (*blen) memcpy(nb, *buf, *blen);
        *buf = nb;
        *bcap = cap;
    }
    memcpy(*buf + *blen, s, n);
    *blen += n;
    return 0;
}

static int flush_literal(parser *P, const repl_token *tok, vec *parts, char **buf, size_t *blen, size_t *bcap)
{
    if (!*blen) return 0;
    repl_node *c = constant(P, REPL_CONST_STR, tok);
    if (!c) return -1;
    (*buf)[*blen] = '\0';
    c->v.Constant.s = *buf;
    c->v.Constant.len = *blen;
    *buf = NULL;
    *blen = *bcap = 0;
    return push(P, parts, c);
}

/* An error in the text of f-string token tok (a '}' alone, a field not closed, an
   empty expression, a bad conversion): CPython 3.11 points just past the literal. */
static void *fstring_error(parser *P, const repl_token *tok, const char *msg)
{
    repl_token past = {.kind = TK_NEWLINE, .line = tok->end_line, .col = tok->end_col,
                       .end_line = tok->end_line, .end_col = tok->end_col};
    error_at(P, NN_ERR_SYNTAX, &past, "%s", msg);
    if (P->err) P->err->end_offset = P->err->offset; /* an empty range (SyntaxError.end_offset) */
    return NULL;
}

/* An error in an f-string field's expression src[0..n) (placed at line:col) as
   CPython 3.11 reports it: the text is the expression in parentheses, `(a b)`,
   the carets under it, and the message starts "f-string: ". */
static void fstring_expression_error(parser *P, const char *src, size_t n, int line, int col)
{
    repl_parse_error *err = P->err;
    if (nn_error_current() != NN_ERR_SYNTAX || !err || err->status != REPL_PARSE_INVALID || err->line != line ||
        memchr(src, '\n', n) || n + 3 > sizeof err->text)
        return;
    snprintf(err->text, sizeof err->text, "(%.*s)", (int)n, src);
    if (err->at_eof) { /* the expression ended early: CPython points at the closing parenthesis */
        err->offset = (int)n + 2;
        err->end_offset = 0;
        err->end_exact = false;
        err->at_eof = false;
    } else {
        err->offset = err->offset - col + 1;
        if (err->end_offset) err->end_offset = err->end_offset - col + 1;
    }
    if (strncmp(nn_error_message(), "f-string: ", 10) != 0) {
        char msg[400];
        snprintf(msg, sizeof msg, "f-string: %s", nn_error_message());
        nn_error_clear();
        nn_error_set(NN_ERR_SYNTAX, "%s", msg);
    }
}

/* parses src[0..n) as the expression of an f-string field */
static repl_node *fstring_expression(parser *P, const repl_token *tok, const char *src, size_t n)
{
    size_t i = 0;
    while (i < n && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n')) i++;
    if (i == n) return fstring_error(P, tok, "f-string: empty expression not allowed");
    /* where the expression starts in the source: the string token's text holds it */
    int line = tok->line, col = tok->col;
    if (src >= tok->start && src <= tok->start + tok->len) {
        for (const char *c = tok->start; c < src; c++) {
            if (*c == '\n') {
                line++;
                col = 0;
            } else {
                col++;
            }
        }
    }
    repl_tokens toks;
    if (repl_lex(src, n, line, col, false, true, P->arena, &toks, P->err) < 0) {
        if (nn_error_current() == NN_ERR_SYNTAX && !strncmp(nn_error_message(), "unmatched ", 10)) {
            char msg[64];
            snprintf(msg, sizeof msg, "f-string: %s", nn_error_message());
            nn_error_clear();
            return fstring_error(P, tok, msg); /* CPython matches the brackets first */
        }
        return NULL;
    }
    parser sub = *P;
    sub.toks = toks.items;
    sub.n = toks.n;
    sub.pos = 0;
    sub.interactive = false;
    repl_node *e = star_expressions(&sub);
    if (e && !check(&sub, TK_ENDMARKER)) /* as inside CPython's parentheses: (a b) forgot a comma */
        e = starts_operand(cur(&sub)->kind) ? forgot_comma(&sub, e) : invalid_syntax(&sub);
    nn_free(toks.items);
    if (!e) fstring_expression_error(P, src, n, line, col);
    return e;
}

/* fstring body: (literal | '{' expression ['!' conversion] [':' format_spec] '}')*
   Appends Constant and FormattedValue nodes to parts; literal text accumulates in buf. */
static repl_node *fstring(parser *P, const repl_token *tok, const char *s, size_t n, bool raw,
                          vec *parts, char **buf, size_t *blen, size_t *bcap)
{
    ENTER(P);
    size_t i = 0, lit = 0;
    while (i <= n) {
        bool end = i == n;
        char c = end ? 0 : s[i];
        if (!end && (c == '{' || c == '}') && i + 1 < n && s[i + 1] == c) { i += 2; continue; }
        if (!end && c == '\\' && !raw) {
            /* an escape; \N{name}'s braces are not a field */
            const char *close = i + 2 < n && s[i + 1] == 'N' && s[i + 2] == '{' ? memchr(s + i + 3, '}', n - i - 3) : NULL;
            i = close ? (size_t)(close - s) + 1 : i + 2;
            continue;
        }
        if (!end && c == '}') LEAVE(P, fstring_error(P, tok, "f-string: single '}' is not allowed"));
        if (!end && c != '{') { i++; continue; }
        if (i > lit) {
            char *d;
            size_t dn;
            if (repl_decode_string(s + lit, i - lit, raw, true, tok->end_line, tok->end_col, P->arena, &d, &dn, P->err) < 0 ||
                buf_append(P, buf, blen, bcap, d, dn) < 0)
                LEAVE(P, NULL);
        }
        if (end) break;
        /* a field: find the end of its expression */
        size_t j = i + 1;
        int nest = 0;
        char quote = 0;
        for (; j < n; j++) {
            char d = s[j];
            if (quote) { if (d == quote) quote = 0; continue; }
            if (d == '\'' || d == '"') quote = d;
            else if (d == '(' || d == '[' || d == '{') nest++;
            else if ((d == ')' || d == ']' || d == '}') && nest > 0) nest--;
            else if (nest == 0 && (d == '}' || d == ':' || (d == '!' && !(j + 1 < n && s[j + 1] == '=')))) break;
            else if (nest == 0 && d == '=' && !(j + 1 < n && s[j + 1] == '=') && !strchr("=!<>", s[j - 1])) break;
        }
        if (j >= n) LEAVE(P, fstring_error(P, tok, "f-string: expecting '}'"));
        size_t expr_end = j;
        bool self_doc = s[j] == '=';   /* {x=}: the text "x=" then the value's repr */
        if (self_doc) {
            for (j++; j < n && (s[j] == ' ' || s[j] == '\t'); j++) {}
            if (j >= n || (s[j] != '}' && s[j] != ':' && s[j] != '!'))
                LEAVE(P, fstring_error(P, tok, "f-string: expecting '}'"));
            if (buf_append(P, buf, blen, bcap, s + i + 1, j - i - 1) < 0) LEAVE(P, NULL);
        }
        if (flush_literal(P, tok, parts, buf, blen, bcap) < 0) LEAVE(P, NULL);
        repl_node *fv = node_at(P, REPL_AST_FormattedValue, tok);
        if (!fv || !(fv->v.FormattedValue.value = fstring_expression(P, tok, s + i + 1, expr_end - i - 1)))
            LEAVE(P, NULL);
        fv->v.FormattedValue.conversion = self_doc && s[j] == '}' ? 'r' : -1;
        if (s[j] == '!') {
            if (j + 2 >= n || !strchr("sra", s[j + 1]) || (s[j + 2] != '}' && s[j + 2] != ':'))
                LEAVE(P, fstring_error(P, tok, "f-string: invalid conversion character: expected 's', 'r', or 'a'"));
            fv->v.FormattedValue.conversion = s[j + 1];
            j += 2;
        }
        if (s[j] == ':') {
            size_t k = j + 1;
            int depth = 0;
            for (; k < n; k++) {
                if (s[k] == '{') depth++;
                else if (s[k] == '}') { if (depth == 0) break; depth--; }
            }
            if (k >= n) LEAVE(P, fstring_error(P, tok, "f-string: expecting '}'"));
            vec spec_parts = {0};
            char *sbuf = NULL;
            size_t slen = 0, scap = 0;
            if (!fstring(P, tok, s + j + 1, k - j - 1, raw, &spec_parts, &sbuf, &slen, &scap) ||
                flush_literal(P, tok, &spec_parts, &sbuf, &slen, &scap) < 0)
                LEAVE(P, NULL);
            repl_node *spec = node_at(P, REPL_AST_JoinedStr, tok);
            if (!spec) LEAVE(P, NULL);
            spec->v.JoinedStr.values = list_of(spec_parts);
            fv->v.FormattedValue.format_spec = spec;
            j = k;
        }
        if (s[j] != '}') LEAVE(P, fstring_error(P, tok, "f-string: expecting '}'"));
        if (push(P, parts, fv) < 0) LEAVE(P, NULL);
        i = lit = j + 1;
    }
    LEAVE(P, (repl_node *)tok);   /* any non-NULL: success */
}

/* ------------------------------------------------------------ parameters */

/* Parameter p (at token name) joins the ones before it in all, unless one has
   its name: CPython's compiler refuses that. */
static int new_parameter(parser *P, vec *all, repl_node *p, const repl_token *name)
{
    for (int i = 0; i < all->n; i++)
        if (strcmp(all->items[i]->v.arg.arg, p->v.arg.arg) == 0)
            return error_at(P, NN_ERR_SYNTAX, name, "duplicate argument '%s' in function definition", p->v.arg.arg), -1;
    return push(P, all, p);
}

/* params: [param (',' param)*] with param: NAME [':' expression] ['=' expression]
           | '/' | '*' [NAME] | '**' NAME   (up to close, not consumed) */
static repl_node *parameters(parser *P, repl_token_kind close, bool annotations)
{
    repl_node *a = node_at(P, REPL_AST_arguments, cur(P));
    if (!a) return NULL;
    vec args = {0}, defaults = {0}, kwonly = {0}, kwdefaults = {0}, all = {0};
    bool star = false;
    while (!check(P, close)) {
        repl_token *t = cur(P);
        if (accept(P, TK_SLASH)) {
            if (star || a->v.arguments.posonlyargs.n || !args.n) return invalid_syntax(P);
            a->v.arguments.posonlyargs = list_of(args);
            args = (vec){0};
        } else if (accept(P, TK_DOUBLESTAR) || accept(P, TK_STAR)) {
            bool dstar = t->kind == TK_DOUBLESTAR;
            if (!dstar && star) return error_at(P, NN_ERR_SYNTAX, t, "* argument may appear only once");
            if (!dstar && (check(P, TK_COMMA) || check(P, close))) {
                if (check(P, close)) return error_at(P, NN_ERR_SYNTAX, t, "named arguments must follow bare *");
                star = true;
            } else {
                repl_token *name = cur(P);
                if (!expect(P, TK_NAME)) return NULL;
                repl_node *p = node_at(P, REPL_AST_arg, name);
                if (!p || !(p->v.arg.arg = identifier(P, name)) || new_parameter(P, &all, p, name) < 0) return NULL;
                if (annotations && accept(P, TK_COLON) && !(p->v.arg.annotation = expression(P))) return NULL;
                if (check(P, TK_EQUAL))
                    return error_at(P, NN_ERR_SYNTAX, cur(P), dstar ? "var-keyword argument cannot have default value"
                                                                   : "var-positional argument cannot have default value");
                if (dstar) {
                    a->v.arguments.kwarg = p;
                    accept(P, TK_COMMA);
                    if (!check(P, close)) return error_at(P, NN_ERR_SYNTAX, cur(P), "arguments cannot follow var-keyword argument");
                    break;
                }
                a->v.arguments.vararg = p;
                star = true;
            }
        } else {
            repl_token *name = cur(P);
            if (!expect(P, TK_NAME)) return NULL;
            repl_node *p = node_at(P, REPL_AST_arg, name), *def = NULL;
            if (!p || !(p->v.arg.arg = identifier(P, name)) || new_parameter(P, &all, p, name) < 0) return NULL;
            if (annotations && accept(P, TK_COLON) && !(p->v.arg.annotation = expression(P))) return NULL;
            if (accept(P, TK_EQUAL) && !(def = expression(P))) return NULL;
            if (star) {
                if (push(P, &kwonly, p) < 0 || push(P, &kwdefaults, def) < 0) return NULL;
            } else {
                if (!def && (defaults.n || (a->v.arguments.posonlyargs.n && defaults.n)))
                    return error_at(P, NN_ERR_SYNTAX, name, "non-default argument follows default argument");
                if (push(P, &args, p) < 0 || (def && push(P, &defaults, def) < 0)) return NULL;
            }
        }
        if (!accept(P, TK_COMMA)) break;
    }
    a->v.arguments.args = list_of(args);
    a->v.arguments.defaults = list_of(defaults);
    a->v.arguments.kwonlyargs = list_of(kwonly);
    a->v.arguments.kw_defaults = list_of(kwdefaults);
    return a;
}

/* ------------------------------------------------------------ statements */

static int statement(parser *P, vec *body);

/* block: NEWLINE INDENT statement+ DEDENT | simple_stmts */
static int block(parser *P, vec *body, const repl_token *header, const char *what)
{
    if (!check(P, TK_NEWLINE)) {
        if (check(P, TK_ENDMARKER)) return invalid_syntax(P), -1;
        return statement(P, body);
    }
    advance(P);
    if (!check(P, TK_INDENT)) {
        error_at(P, NN_ERR_INDENTATION, cur(P), "expected an indented block after %s on line %d", what, header->line);
        return -1;
    }
    advance(P);
    if (!enter(P)) return -1;
    while (!check(P, TK_DEDENT) && !check(P, TK_ENDMARKER))
        if (statement(P, body) < 0) return -1;
    P->depth--;
    accept(P, TK_DEDENT);
    return 0;
}

/* ':' block, with what for "expected an indented block after ..." */
static int colon_block(parser *P, repl_node_list *out, const repl_token *header, const char *what)
{
    if (!expect(P, TK_COLON)) return -1;
    vec body = {0};
    if (block(P, &body, header, what) < 0) return -1;
    *out = list_of(body);
    return 0;
}

/* an if's or while's named_expression; `if x = 3:` is CPython's "Maybe you meant '==' or ':='" */
static repl_node *condition(parser *P)
{
    repl_node *e = named_expression(P);
    if (!e || !check(P, TK_EQUAL)) return e;
    int line = e->line, col = e->col;
    if (e->kind != REPL_AST_Name) {
        if (e->kind != REPL_AST_Tuple && e->kind != REPL_AST_List && e->kind != REPL_AST_GeneratorExp &&
            e->kind != REPL_AST_Constant && target_description(e))
            return maybe_equal(P, ended(P, e));
        return invalid_syntax(P);
    }
    advance(P);
    repl_node *value = bitwise_or(P);
    if (!value) return NULL;
    if (check(P, TK_EQUAL) || check(P, TK_COLONEQUAL)) return invalid_syntax(P);
    return error_range(P, line, col, P->toks[P->pos - 1].end_line, P->toks[P->pos - 1].end_col,
                       "invalid syntax. Maybe you meant '==' or ':=' instead of '='?");
}

/* if_stmt: 'if' named_expression ':' block (elif_stmt | [else_block])
   elif_stmt: 'elif' named_expression ':' block (elif_stmt | [else_block]) */
static repl_node *if_stmt(parser *P)
{
    repl_token *t = advance(P);
    repl_node *n = node_at(P, REPL_AST_If, t);
    if (!n || !(n->v.While.test = condition(P)) ||
        colon_block(P, &n->v.While.body, t, t->kind == TK_IF ? "'if' statement" : "'elif' statement") < 0)
        return NULL;
    if (check(P, TK_ELIF)) {
        repl_node *e = if_stmt(P);
        vec orelse = {0};
        if (!e || push(P, &orelse, e) < 0) return NULL;
        n->v.While.orelse = list_of(orelse);
    } else if (check(P, TK_ELSE)) {
        repl_token *e = advance(P);
        if (colon_block(P, &n->v.While.orelse, e, "'else' statement") < 0) return NULL;
    }
    return n;
}

/* while_stmt: 'while' named_expression ':' block [else_block] */
static repl_node *while_stmt(parser *P)
{
    repl_token *t = advance(P);
    repl_node *n = node_at(P, REPL_AST_While, t);
    if (!n || !(n->v.While.test = condition(P)) || colon_block(P, &n->v.While.body, t, "'while' statement") < 0)
        return NULL;
    if (check(P, TK_ELSE)) {
        repl_token *e = advance(P);
        if (colon_block(P, &n->v.While.orelse, e, "'else' statement") < 0) return NULL;
    }
    return n;
}

/* for_stmt: 'for' star_targets 'in' star_expressions ':' block [else_block] */
static repl_node *for_stmt(parser *P)
{
    repl_token *t = advance(P);
    repl_node *n = node_at(P, REPL_AST_For, t);
    if (!n || !(n->v.For.target = star_targets(P))) return NULL;
    if (set_context(P, n->v.For.target, REPL_CTX_STORE) < 0 || !expect(P, TK_IN) ||
        !(n->v.For.iter = star_expressions(P)) || colon_block(P, &n->v.For.body, t, "'for' statement") < 0)
        return NULL;
    if (check(P, TK_ELSE)) {
        repl_token *e = advance(P);
        if (colon_block(P, &n->v.For.orelse, e, "'else' statement") < 0) return NULL;
    }
    return n;
}

/* with_stmt: 'with' ','.with_item+ ':' block
   with_item: expression ['as' star_target] */
static repl_node *with_stmt(parser *P)
{
    repl_token *t = advance(P);
    repl_node *n = node_at(P, REPL_AST_With, t);
    vec items = {0};
    if (!n) return NULL;
    /* 'with' '(' ','.with_item+ ','? ')' ':' block comes first, as CPython's
       grammar: the parenthesised items when the ')' matching this '(' is
       followed by ':' */
    bool paren = false;
    if (check(P, TK_LPAR)) {
        int depth = 0, k = P->pos;
        for (; k < P->n && P->toks[k].kind != TK_ENDMARKER; k++) {
            repl_token_kind tk = P->toks[k].kind;
            if (tk == TK_LPAR || tk == TK_LSQB || tk == TK_LBRACE) depth++;
            else if ((tk == TK_RPAR || tk == TK_RSQB || tk == TK_RBRACE) && --depth == 0) break;
        }
        paren = k + 1 < P->n && P->toks[k].kind == TK_RPAR && P->toks[k + 1].kind == TK_COLON;
        if (paren) advance(P);
    }
    do {
        if (paren && check(P, TK_RPAR) && items.n) break;
        repl_token *it = cur(P);
        repl_node *w = node_at(P, REPL_AST_withitem, it);
        if (!w || !(w->v.withitem.context_expr = expression(P))) return NULL;
        if (accept(P, TK_AS)) {
            if (!(w->v.withitem.optional_vars = star_target(P)) ||
                set_context(P, w->v.withitem.optional_vars, REPL_CTX_STORE) < 0)
                return NULL;
        }
        if (push(P, &items, w) < 0) return NULL;
    } while (accept(P, TK_COMMA));
    if (paren && !expect(P, TK_RPAR)) return NULL;
    n->v.With.items = list_of(items);
    if (colon_block(P, &n->v.With.body, t, "'with' statement") < 0) return NULL;
    return n;
}

/* try_stmt: 'try' ':' block (except_block+ [else_block] [finally_block] | finally_block)
   except_block: 'except' [expression ['as' NAME]] ':' block */
static repl_node *try_stmt(parser *P)
{
    repl_token *t = advance(P);
    repl_node *n = node_at(P, REPL_AST_Try, t);
    if (!n || colon_block(P, &n->v.Try.body, t, "'try' statement") < 0) return NULL;
    vec handlers = {0};
    while (check(P, TK_EXCEPT)) {
        repl_token *e = advance(P);
        repl_node *h = node_at(P, REPL_AST_ExceptHandler, e);
        if (!h) return NULL;
        if (!check(P, TK_COLON) && !check(P, TK_NEWLINE)) { /* `except` alone: colon_block's "expected ':'" */
            if (!(h->v.ExceptHandler.type = expression(P))) return NULL;
            if (check(P, TK_COMMA))
                return error_at(P, NN_ERR_SYNTAX, &(repl_token){.line = h->v.ExceptHandler.type->line,
                                                              .col = h->v.ExceptHandler.type->col},
                                "multiple exception types must be parenthesized");
            if (accept(P, TK_AS)) {
                repl_token *name = cur(P);
                if (!expect(P, TK_NAME) || !(h->v.ExceptHandler.name = identifier(P, name))) return NULL;
            }
        }
        if (colon_block(P, &h->v.ExceptHandler.body, e, "'except' statement") < 0 || push(P, &handlers, h) < 0)
            return NULL;
    }
    n->v.Try.handlers = list_of(handlers);
    if (handlers.n && check(P, TK_ELSE)) {
        repl_token *e = advance(P);
        if (colon_block(P, &n->v.Try.orelse, e, "'else' statement") < 0) return NULL;
    }
    if (check(P, TK_FINALLY)) {
        repl_token *e = advance(P);
        if (colon_block(P, &n->v.Try.finalbody, e, "'finally' statement") < 0) return NULL;
    } else if (!handlers.n) {
        return error_at(P, NN_ERR_SYNTAX, cur(P), "expected 'except' or 'finally' block");
    }
    return n;
}

/* function_def: decorators? 'def' NAME '(' [params] ')' ['->' expression] ':' block */
static repl_node *function_def(parser *P, repl_node_list decorators)
{
    repl_token *t = advance(P), *name = cur(P);
    repl_node *n = node_at(P, REPL_AST_FunctionDef, t);
    if (!n || !expect(P, TK_NAME) || !(n->v.FunctionDef.name = n->v.FunctionDef.bound = identifier(P, name)) ||
        !expect(P, TK_LPAR) ||
        !(n->v.FunctionDef.args = parameters(P, TK_RPAR, true)) || !expect(P, TK_RPAR))
        return NULL;
    if (accept(P, TK_RARROW) && !(n->v.FunctionDef.returns = expression(P))) return NULL;
    n->v.FunctionDef.decorator_list = decorators;
    n->v.FunctionDef.future_annotations = P->future_annotations;
    int outer_yields = P->yields;
    vec walrus = {0}, *outer_walrus = P->walrus;
    P->yields = 0;
    P->walrus = &walrus;
    P->funcs++;
    int rc = colon_block(P, &n->v.FunctionDef.body, t, "function definition");
    P->funcs--;
    if (rc < 0) return NULL;
    n->v.FunctionDef.is_generator = P->yields > 0;
    n->v.FunctionDef.walrus_targets = list_of(walrus);
    P->yields = outer_yields;
    P->walrus = outer_walrus;
    return n;
}

/* class_def: decorators? 'class' NAME ['(' [arguments] ')'] ':' block */
static repl_node *class_def(parser *P, repl_node_list decorators)
{
    repl_token *t = advance(P), *name = cur(P);
    repl_node *n = node_at(P, REPL_AST_ClassDef, t);
    if (!n || !expect(P, TK_NAME) || !(n->v.ClassDef.name = n->v.ClassDef.bound = identifier(P, name)))
        return NULL;
    if (accept(P, TK_LPAR)) {
        vec bases = {0}, keywords = {0};
        if (call_args(P, &bases, &keywords) < 0) return NULL;
        n->v.ClassDef.bases = list_of(bases);
        n->v.ClassDef.keywords = list_of(keywords);
    }
    n->v.ClassDef.decorator_list = decorators;
    int outer_funcs = P->funcs;
    P->funcs = 0; /* a yield in a class body is outside any function */
    int rc = colon_block(P, &n->v.ClassDef.body, t, "class definition");
    P->funcs = outer_funcs;
    return rc < 0 ? NULL : n;
}

/* decorators: ('@' named_expression NEWLINE)+ (function_def | class_def) */
static repl_node *decorated(parser *P)
{
    vec decos = {0};
    while (accept(P, TK_AT)) {
        repl_node *d = expression(P);
        if (!d || push(P, &decos, d) < 0 || !expect(P, TK_NEWLINE)) return NULL;
    }
    if (check(P, TK_DEF)) return function_def(P, list_of(decos));
    if (check(P, TK_CLASS)) return class_def(P, list_of(decos));
    return invalid_syntax(P);
}

/* dotted_name: NAME ('.' NAME)* */
static const char *dotted_name(parser *P)
{
    repl_token *first = cur(P);
    if (!expect(P, TK_NAME)) return NULL;
    size_t n = 0, len;
    char buf[1024];
    const char *text = name_text(first, &len);
    memcpy(buf, text, len < sizeof buf ? len : sizeof buf - 1);
    n = len < sizeof buf ? len : sizeof buf - 1;
    while (check(P, TK_DOT) && kind_at(P, 1) == TK_NAME) {
        advance(P);
        text = name_text(advance(P), &len);
        if (n + 1 + len < sizeof buf) {
            buf[n++] = '.';
            memcpy(buf + n, text, len);
            n += len;
        }
    }
    const char *s = repl_ast_arena_strndup(P->arena, buf, n);
    return s ? s : failed(P);
}

/* import_name: 'import' dotted_name ['as' NAME] (',' dotted_name ['as' NAME])* */
static repl_node *import_name(parser *P)
{
    repl_token *t = advance(P);
    repl_node *n = node_at(P, REPL_AST_Import, t);
    vec names = {0};
    if (!n) return NULL;
    do {
        repl_node *a = node_at(P, REPL_AST_alias, cur(P));
        if (!a || !(a->v.alias.name = dotted_name(P))) return NULL;
        if (accept(P, TK_AS)) {
            repl_token *as = cur(P);
            if (!expect(P, TK_NAME) || !(a->v.alias.asname = identifier(P, as))) return NULL;
        }
        if (push(P, &names, a) < 0) return NULL;
    } while (accept(P, TK_COMMA));
    n->v.Import.names = list_of(names);
    return n;
}

/* import_from: 'from' ('.' | '...')* dotted_name 'import' import_from_targets
              | 'from' ('.' | '...')+ 'import' import_from_targets
   import_from_targets: '(' import_as_names [','] ')' | import_as_names | '*' */
static repl_node *import_from(parser *P)
{
    repl_token *t = advance(P);
    repl_node *n = node_at(P, REPL_AST_ImportFrom, t);
    if (!n) return NULL;
    for (;;) {
        if (accept(P, TK_DOT)) n->v.ImportFrom.level += 1;
        else if (accept(P, TK_ELLIPSIS)) n->v.ImportFrom.level += 3;
        else break;
    }
    if (check(P, TK_NAME) || n->v.ImportFrom.level == 0)
        if (!(n->v.ImportFrom.module = dotted_name(P))) return NULL;
    if (!expect(P, TK_IMPORT)) return NULL;
    vec names = {0};
    if (check(P, TK_STAR)) {
        repl_token *s = advance(P);
        repl_node *a = node_at(P, REPL_AST_alias, s);
        if (!a || push(P, &names, a) < 0) return NULL;
        a->v.alias.name = "*";
    } else {
        bool paren = accept(P, TK_LPAR);
        do {
            if (paren && check(P, TK_RPAR)) break;
            repl_token *name = cur(P);
            repl_node *a = node_at(P, REPL_AST_alias, name);
            if (!a || !expect(P, TK_NAME) || !(a->v.alias.name = identifier(P, name))) return NULL;
            if (accept(P, TK_AS)) {
                repl_token *as = cur(P);
                if (!expect(P, TK_NAME) || !(a->v.alias.asname = identifier(P, as))) return NULL;
            }
            if (push(P, &names, a) < 0) return NULL;
        } while (accept(P, TK_COMMA) && (paren || !check(P, TK_NEWLINE) ||
                                         (error_at(P, NN_ERR_SYNTAX, cur(P), "trailing comma not allowed without surrounding parentheses"), false)));
        if (P->err && P->err->status != REPL_PARSE_OK) return NULL;
        if (paren && !expect(P, TK_RPAR)) return NULL;
    }
    n->v.ImportFrom.names = list_of(names);
    if (n->v.ImportFrom.level == 0 && strcmp(n->v.ImportFrom.module, "__future__") == 0)
        for (int i = 0; i < names.n; i++) {
            const char *feature = names.items[i]->v.alias.name;
            if (strcmp(feature, "braces") == 0) return error_at(P, NN_ERR_SYNTAX, t, "not a chance");
            if (!repl_future_feature_known(feature))
                return error_at(P, NN_ERR_SYNTAX, t, "future feature %s is not defined", feature);
            if (strcmp(feature, "annotations") == 0) P->future_annotations = true;
        }
    return n;
}

/* the augmented assignment operator of token kind k, or -1 */
static int augassign_op(repl_token_kind k)
{
    switch (k) {
    case TK_PLUSEQUAL: return REPL_OP_Add;
    case TK_MINEQUAL: return REPL_OP_Sub;
    case TK_STAREQUAL: return REPL_OP_Mult;
    case TK_ATEQUAL: return REPL_OP_MatMult;
    case TK_SLASHEQUAL: return REPL_OP_Div;
    case TK_PERCENTEQUAL: return REPL_OP_Mod;
    case TK_AMPEREQUAL: return REPL_OP_BitAnd;
    case TK_VBAREQUAL: return REPL_OP_BitOr;
    case TK_CIRCUMFLEXEQUAL: return REPL_OP_BitXor;
    case TK_LSHIFTEQUAL: return REPL_OP_LShift;
    case TK_RSHIFTEQUAL: return REPL_OP_RShift;
    case TK_DOUBLESTAREQUAL: return REPL_OP_Pow;
    case TK_DOUBLESLASHEQUAL: return REPL_OP_FloorDiv;
    default: return -1;
    }
}

/* annotated assignment, after its target e (which began at token t):
   target ':' expression ['=' annotated_rhs]   (annotated_rhs: yield_expr | star_expressions) */
static repl_node *ann_assign(parser *P, const repl_token *t, repl_node *e)
{
    repl_token at = {.line = e->line, .col = e->col};
    if (e->kind == REPL_AST_Tuple || e->kind == REPL_AST_List)
        return error_at(P, NN_ERR_SYNTAX, &at, "only single target (not %s) can be annotated",
                        e->kind == REPL_AST_Tuple ? "tuple" : "list");
    if (e->kind != REPL_AST_Name && e->kind != REPL_AST_Attribute && e->kind != REPL_AST_Subscript)
        return error_at(P, NN_ERR_SYNTAX, &at, "illegal target for annotation");
    advance(P);
    repl_node *n = node_at(P, REPL_AST_AnnAssign, t);
    int first = P->pos;
    if (!n || set_context(P, e, REPL_CTX_STORE) < 0 || !(n->v.AnnAssign.annotation = expression(P))) return NULL;
    if (P->future_annotations) {
        const repl_token *a = &P->toks[first], *z = &P->toks[P->pos - 1];
        if (!(n->v.AnnAssign.annotation_text = repl_ast_arena_strndup(P->arena, a->start,
                                                                      (size_t)(z->start + z->len - a->start))))
            return failed(P);
    }
    n->v.AnnAssign.target = e;
    n->v.AnnAssign.simple = e->kind == REPL_AST_Name && t->kind != TK_LPAR;
    if (accept(P, TK_EQUAL) &&
        !(n->v.AnnAssign.value = check(P, TK_YIELD) ? yield_expr(P) : star_expressions(P)))
        return NULL;
    return n;
}

/* assignment: (star_targets '=')+ star_expressions | single_target augassign star_expressions
   expression statement: star_expressions */
static repl_node *expr_stmt(parser *P)
{
    repl_token *t = cur(P);
    repl_node *e = check(P, TK_YIELD) ? yield_expr(P) : star_expressions(P);
    if (!e) return NULL;
    if (check(P, TK_COLONEQUAL) && e->kind != REPL_AST_Name) {   /* lambda: x := 1 */
        const char *what = target_description(e);
        return error_at(P, NN_ERR_SYNTAX, &(repl_token){.line = e->line, .col = e->col},
                        "cannot use assignment expressions with %s", what ? what : "expression");
    }
    int aug = augassign_op(cur(P)->kind);
    if (aug >= 0) {
        if (e->kind != REPL_AST_Name && e->kind != REPL_AST_Attribute && e->kind != REPL_AST_Subscript) {
            const char *what = target_description(e);
            char msg[200];
            if (e->kind == REPL_AST_Tuple || e->kind == REPL_AST_List || e->kind == REPL_AST_Starred)
                what = e->kind == REPL_AST_Tuple ? "tuple" : e->kind == REPL_AST_List ? "list" : "starred";
            snprintf(msg, sizeof msg, "'%s' is an illegal expression for augmented assignment", what ? what : "expression");
            return error_node(P, ended(P, e), msg);
        }
        advance(P);
        repl_node *n = node_at(P, REPL_AST_AugAssign, t);
        if (!n || !(n->v.AugAssign.value = check(P, TK_YIELD) ? yield_expr(P) : star_expressions(P))) return NULL;
        set_context(P, e, REPL_CTX_STORE);
        n->v.AugAssign.target = e;
        n->v.AugAssign.op = (repl_ast_op)aug;
        return n;
    }
    if (check(P, TK_EQUAL)) {
        vec targets = {0};
        repl_node *value = e;
        while (accept(P, TK_EQUAL)) {
            if (push(P, &targets, value) < 0) return NULL;
            if (!(value = check(P, TK_YIELD) ? yield_expr(P) : star_expressions(P))) return NULL;
        }
        for (int i = 0; i < targets.n; i++) {
            repl_node *tg = targets.items[i];
            const repl_node *bad = invalid_target(tg);
            /* `1 = x` hints at '==' (CPython's invalid_named_expression); `True = 1`, a chain
               `x = 1 = 2` and a bad element `[a, 1] = 2` do not ("cannot assign to literal") */
            const char *what = bad ? target_description(bad) : NULL;
            bool keyword = what && (!strcmp(what, "True") || !strcmp(what, "False") || !strcmp(what, "None"));
            /* `a, 1 = 2`: a bare tuple's last element is where the '=' follows */
            bool last_of_bare = tg->kind == REPL_AST_Tuple && tg->v.List.elts.n > 0 &&
                                bad == tg->v.List.elts.items[tg->v.List.elts.n - 1] &&
                                tg->v.List.elts.items[0]->line == tg->line && tg->v.List.elts.items[0]->col == tg->col;
            if (bad && (bad == tg || last_of_bare) && targets.n == 1 && what && !keyword &&
                bad->kind != REPL_AST_Compare && bad->kind != REPL_AST_BoolOp && bad->kind != REPL_AST_IfExp &&
                bad->kind != REPL_AST_Lambda)
                return maybe_equal(P, bad);
            if (set_context(P, tg, REPL_CTX_STORE) < 0) return NULL;
        }
        repl_node *n = node_at(P, REPL_AST_Assign, t);
        if (!n) return NULL;
        n->v.Assign.targets = list_of(targets);
        n->v.Assign.value = value;
        return n;
    }
    if (check(P, TK_COLON)) return ann_assign(P, t, e);
    if (e->kind == REPL_AST_Name && (strcmp(e->v.Name.id, "print") == 0 || strcmp(e->v.Name.id, "exec") == 0) &&
        starts_operand(cur(P)->kind))
    {
        int last = P->pos; /* the range runs to the line's last token */
        while (last + 1 < P->n && P->toks[last + 1].kind != TK_NEWLINE && P->toks[last + 1].kind != TK_ENDMARKER &&
               P->toks[last + 1].kind != TK_SEMI)
            last++;
        char msg[160];
        snprintf(msg, sizeof msg, "Missing parentheses in call to '%s'. Did you mean %s(...)?", e->v.Name.id,
                 e->v.Name.id);
        return error_range(P, t->line, t->col, P->toks[last].end_line, P->toks[last].end_col, msg);
    }
    repl_node *n = new_node(P, REPL_AST_Expr, e->line, e->col);
    if (n) n->v.Return.value = e;
    return n;
}

/* del_stmt: 'del' del_targets   (del_targets: ','.del_target+ [',']) */
static repl_node *del_stmt(parser *P)
{
    repl_token *t = advance(P);
    repl_node *n = node_at(P, REPL_AST_Delete, t);
    vec targets = {0};
    if (!n) return NULL;
    do {
        if (check(P, TK_NEWLINE) || check(P, TK_SEMI)) break;
        repl_node *e = bitwise_or(P);
        if (!e || set_context(P, e, REPL_CTX_DEL) < 0 || push(P, &targets, e) < 0) return NULL;
    } while (accept(P, TK_COMMA));
    if (!targets.n) return invalid_syntax(P);
    n->v.Delete.targets = list_of(targets);
    return n;
}

/* simple_stmt: assignment | star_expressions | return_stmt | import_stmt | raise_stmt | 'pass'
              | del_stmt | assert_stmt | 'break' | 'continue' | global_stmt | nonlocal_stmt */
static repl_node *simple_stmt(parser *P)
{
    repl_token *t = cur(P);
    repl_node *n;
    switch (t->kind) {
    case TK_PASS: advance(P); return node_at(P, REPL_AST_Pass, t);
    case TK_BREAK: advance(P); return node_at(P, REPL_AST_Break, t);
    case TK_CONTINUE: advance(P); return node_at(P, REPL_AST_Continue, t);
    case TK_RETURN:
        advance(P);
        if (!(n = node_at(P, REPL_AST_Return, t))) return NULL;
        if (!check(P, TK_NEWLINE) && !check(P, TK_SEMI) && !(n->v.Return.value = star_expressions(P))) return NULL;
        return n;
    case TK_RAISE:
        advance(P);
        if (!(n = node_at(P, REPL_AST_Raise, t))) return NULL;
        if (!check(P, TK_NEWLINE) && !check(P, TK_SEMI)) {
            if (!(n->v.Raise.exc = expression(P))) return NULL;
            if (accept(P, TK_FROM) && !(n->v.Raise.cause = expression(P))) return NULL;
        }
        return ended(P, n); /* its span: a traceback's carets */
    case TK_ASSERT:
        advance(P);
        if (!(n = node_at(P, REPL_AST_Assert, t)) || !(n->v.Assert.test = expression(P))) return NULL;
        if (accept(P, TK_COMMA) && !(n->v.Assert.msg = expression(P))) return NULL;
        return n;
    case TK_GLOBAL: case TK_NONLOCAL: {
        advance(P);
        if (!(n = node_at(P, t->kind == TK_GLOBAL ? REPL_AST_Global : REPL_AST_Nonlocal, t))) return NULL;
        const char **names = NULL;
        int count = 0, cap = 0;
        do {
            repl_token *name = cur(P);
            if (!expect(P, TK_NAME)) return NULL;
            if (count == cap) {
                cap = cap ? 2 * cap : 4;
                const char **more = repl_ast_arena_alloc(P->arena, (size_t)cap * sizeof *more);
                if (!more) return failed(P);
                if (count) memcpy(more, names, (size_t)count * sizeof *more);
                names = more;
            }
            if (!(names[count++] = identifier(P, name))) return NULL;
        } while (accept(P, TK_COMMA));
        n->v.Global.names = (repl_name_list){names, count};
        return ended(P, n);
    }
    case TK_DEL: return del_stmt(P);
    case TK_IMPORT: return import_name(P);
    case TK_FROM: return import_from(P);
    case TK_ASYNC: case TK_AWAIT:
        return error_at(P, NN_ERR_SYNTAX, t, "'%s' is not supported", repl_token_text(t->kind));
    default: return expr_stmt(P);
    }
}

/* statement: compound_stmt | simple_stmts
   simple_stmts: simple_stmt (';' simple_stmt)* [';'] NEWLINE */
static bool match_ahead(parser *P);
static repl_node *match_stmt(parser *P);
static int statement(parser *P, vec *body)
{
    repl_token *t = cur(P);
    repl_node *n;
    repl_node_list none = {0};
    if (t->kind == TK_NAME && match_ahead(P)) {
        n = match_stmt(P);
        return n && push(P, body, n) == 0 ? 0 : -1;
    }
    switch (t->kind) {
    case TK_IF: n = if_stmt(P); break;
    case TK_WHILE: n = while_stmt(P); break;
    case TK_FOR: n = for_stmt(P); break;
    case TK_WITH: n = with_stmt(P); break;
    case TK_TRY: n = try_stmt(P); break;
    case TK_DEF: n = function_def(P, none); break;
    case TK_CLASS: n = class_def(P, none); break;
    case TK_AT: n = decorated(P); break;
    case TK_INDENT: invalid_syntax(P); return -1;
    case TK_ELSE: case TK_ELIF: case TK_EXCEPT: case TK_FINALLY: invalid_syntax(P); return -1;
    default:
        for (;;) {
            if (!(n = simple_stmt(P)) || push(P, body, n) < 0) return -1;
            if (!accept(P, TK_SEMI) || check(P, TK_NEWLINE)) break;
        }
        if (!check(P, TK_NEWLINE)) return invalid_syntax(P), -1;
        advance(P);
        return 0;
    }
    return n && push(P, body, n) == 0 ? 0 : -1;
}

/* ------------------------------------------------------------ match (PEP 634) */

static bool word_is(const repl_token *t, const char *w)
{
    return t->kind == TK_NAME && t->len == strlen(w) && memcmp(t->start, w, t->len) == 0;
}

/* `match` is a soft keyword: the statement when, past the subject, a ':' at
   bracket depth 0 ends the line (so `match = 1`, `match(x)` and `match[x]: int`
   stay ordinary statements) */
static bool match_ahead(parser *P)
{
    if (!word_is(cur(P), "match")) return false;
    int depth = 0;
    for (int k = P->pos + 1; k < P->n; k++) {
        repl_token_kind kind = P->toks[k].kind;
        if (kind == TK_LPAR || kind == TK_LSQB || kind == TK_LBRACE) depth++;
        else if (kind == TK_RPAR || kind == TK_RSQB || kind == TK_RBRACE) depth--;
        else if (depth <= 0 && (kind == TK_NEWLINE || kind == TK_ENDMARKER || kind == TK_SEMI || kind == TK_EQUAL))
            return false;
        else if (depth == 0 && kind == TK_COLON)
            return k > P->pos + 1 && k + 1 < P->n && P->toks[k + 1].kind == TK_NEWLINE;
    }
    return false;
}

static repl_node *pattern(parser *P);

static repl_node *pattern_node(parser *P, repl_ast_kind kind, const repl_token *t)
{
    return node_at(P, kind, t);
}

/* a capture target's name, or NULL for `_` (the wildcard) */
static bool capture_name(parser *P, const repl_token *t, const char **out)
{
    *out = NULL;
    if (word_is(t, "_")) return true;
    return (*out = identifier(P, t)) != NULL;
}

/* name_or_attr: NAME ('.' NAME)* as a Load expression */
static repl_node *name_or_attr(parser *P)
{
    repl_token *t = advance(P);
    repl_node *e = node_at(P, REPL_AST_Name, t);
    if (!e || !(e->v.Name.id = identifier(P, t))) return NULL;
    while (accept(P, TK_DOT)) {
        repl_token *a = expect(P, TK_NAME);
        repl_node *n = a ? node_at(P, REPL_AST_Attribute, t) : NULL;
        if (!n || !(n->v.Attribute.attr = identifier(P, a))) return NULL;
        n->v.Attribute.value = ended(P, e);
        e = n;
    }
    return ended(P, e);
}

/* a literal pattern's value (signed or complex numbers, strings) */
static repl_node *literal_value(parser *P)
{
    repl_token *t = cur(P);
    if (t->kind == TK_TRUE || t->kind == TK_FALSE || t->kind == TK_NONE) {
        advance(P);
        return constant(P, t->kind == TK_TRUE ? REPL_CONST_TRUE : t->kind == TK_FALSE ? REPL_CONST_FALSE : REPL_CONST_NONE, t);
    }
    if (t->kind == TK_STRING && t->fstring)
        return error_at(P, NN_ERR_SYNTAX, t, "patterns may only match literals and attribute lookups");
    return sum(P);
}

/* maybe_star_pattern: '*' NAME | pattern */
static repl_node *star_pattern(parser *P)
{
    repl_token *t = cur(P);
    if (!accept(P, TK_STAR)) return pattern(P);
    repl_token *nt = expect(P, TK_NAME);
    repl_node *n = nt ? pattern_node(P, REPL_AST_MatchStar, t) : NULL;
    return n && capture_name(P, nt, &n->v.Pattern.name) ? ended(P, n) : NULL;
}

/* the items of a sequence pattern up to close; 0 or -1 */
static int sequence_items(parser *P, vec *items, repl_token_kind close)
{
    while (!check(P, close)) {
        repl_node *p = star_pattern(P);
        if (!p || push(P, items, p) < 0) return -1;
        if (!accept(P, TK_COMMA)) break;
    }
    return expect(P, close) ? 0 : -1;
}

/* class_pattern's arguments after '(' */
static repl_node *class_pattern(parser *P, const repl_token *t, repl_node *cls)
{
    repl_node *n = pattern_node(P, REPL_AST_MatchClass, t);
    vec pos = {0}, kwp = {0}, kwn = {0};
    if (!n) return NULL;
    n->v.Pattern.cls = cls;
    advance(P);   /* '(' */
    while (!check(P, TK_RPAR)) {
        if (check(P, TK_NAME) && kind_at(P, 1) == TK_EQUAL) {
            repl_token *k = advance(P);
            advance(P);
            repl_node *kn = node_at(P, REPL_AST_Name, k), *p;
            if (!kn || !(kn->v.Name.id = identifier(P, k)) || !(p = pattern(P)) || push(P, &kwn, kn) < 0 ||
                push(P, &kwp, p) < 0)
                return NULL;
        } else {
            repl_token *at = cur(P);
            repl_node *p = pattern(P);
            if (!p) return NULL;
            if (kwp.n)
                return error_at(P, NN_ERR_SYNTAX, at, "positional patterns follow keyword patterns");
            if (push(P, &pos, p) < 0) return NULL;
        }
        if (!accept(P, TK_COMMA)) break;
    }
    if (!expect(P, TK_RPAR)) return NULL;
    n->v.Pattern.patterns = list_of(pos);
    n->v.Pattern.kwd_patterns = list_of(kwp);
    if (kwn.n) {
        const char **names = repl_ast_arena_alloc(P->arena, (size_t)kwn.n * sizeof *names);
        if (!names) return failed(P);
        for (int i = 0; i < kwn.n; i++) names[i] = kwn.items[i]->v.Name.id;
        n->v.Pattern.kwd_attrs = (repl_name_list){names, kwn.n};
    }
    return ended(P, n);
}

/* mapping_pattern after '{' */
static repl_node *mapping_pattern(parser *P, const repl_token *t)
{
    repl_node *n = pattern_node(P, REPL_AST_MatchMapping, t);
    vec keys = {0}, pats = {0};
    if (!n) return NULL;
    while (!check(P, TK_RBRACE)) {
        if (accept(P, TK_DOUBLESTAR)) {
            repl_token *r = expect(P, TK_NAME);
            if (!r || !(n->v.Pattern.rest = identifier(P, r))) return NULL;
            accept(P, TK_COMMA);
            break;
        }
        repl_node *k;
        if (check(P, TK_NAME)) {
            if (kind_at(P, 1) != TK_DOT) return invalid_syntax(P);
            k = name_or_attr(P);
        } else {
            k = literal_value(P);
        }
        repl_node *p;
        if (!k || !expect(P, TK_COLON) || !(p = pattern(P)) || push(P, &keys, k) < 0 || push(P, &pats, p) < 0)
            return NULL;
        if (!accept(P, TK_COMMA)) break;
    }
    if (!expect(P, TK_RBRACE)) return NULL;
    for (int i = 0; i < keys.n; i++)   /* literal keys twice: a compile-time error */
        for (int j = 0; j < i; j++) {
            const repl_node *a = keys.items[i], *b = keys.items[j];
            if (a->kind != REPL_AST_Constant || b->kind != REPL_AST_Constant ||
                a->v.Constant.ckind != b->v.Constant.ckind || a->v.Constant.overflow || b->v.Constant.overflow)
                continue;
            repl_const_kind ck = a->v.Constant.ckind;
            if (ck == REPL_CONST_STR && a->v.Constant.len == b->v.Constant.len &&
                memcmp(a->v.Constant.s, b->v.Constant.s, a->v.Constant.len) == 0 && !memchr(a->v.Constant.s, '\'', a->v.Constant.len))
                return error_at(P, NN_ERR_SYNTAX, t, "mapping pattern checks duplicate key ('%.*s')",
                                (int)a->v.Constant.len, a->v.Constant.s);
            if (ck == REPL_CONST_INT && a->v.Constant.i == b->v.Constant.i)
                return error_at(P, NN_ERR_SYNTAX, t, "mapping pattern checks duplicate key (%lld)", (long long)a->v.Constant.i);
        }
    n->v.Pattern.keys = list_of(keys);
    n->v.Pattern.patterns = list_of(pats);
    return ended(P, n);
}

/* closed_pattern: literal | capture | wildcard | value | group | sequence | mapping | class */
static repl_node *closed_pattern(parser *P)
{
    repl_token *t = cur(P);
    repl_node *n;
    ENTER(P);
    switch (t->kind) {
    case TK_TRUE: case TK_FALSE: case TK_NONE:
        if (!(n = pattern_node(P, REPL_AST_MatchSingleton, t)) || !(n->v.Pattern.value = literal_value(P))) LEAVE(P, NULL);
        LEAVE(P, ended(P, n));
    case TK_INT: case TK_FLOAT: case TK_STRING: case TK_MINUS:
        if (!(n = pattern_node(P, REPL_AST_MatchValue, t)) || !(n->v.Pattern.value = literal_value(P))) LEAVE(P, NULL);
        LEAVE(P, ended(P, n));
    case TK_NAME:
        if (kind_at(P, 1) == TK_DOT || kind_at(P, 1) == TK_LPAR) {
            repl_node *e = name_or_attr(P);
            if (!e) LEAVE(P, NULL);
            if (check(P, TK_LPAR)) LEAVE(P, class_pattern(P, t, e));
            if (!(n = pattern_node(P, REPL_AST_MatchValue, t))) LEAVE(P, NULL);
            n->v.Pattern.value = e;
            LEAVE(P, ended(P, n));
        }
        advance(P);
        if (!(n = pattern_node(P, REPL_AST_MatchAs, t)) || !capture_name(P, t, &n->v.Pattern.name)) LEAVE(P, NULL);
        LEAVE(P, ended(P, n));
    case TK_LPAR: {
        advance(P);
        vec items = {0};
        if (!check(P, TK_RPAR)) {
            repl_node *first = star_pattern(P);
            if (!first) LEAVE(P, NULL);
            if (first->kind != REPL_AST_MatchStar && accept(P, TK_RPAR)) LEAVE(P, first);   /* a group */
            if (push(P, &items, first) < 0) LEAVE(P, NULL);
            if (!check(P, TK_RPAR) && !expect(P, TK_COMMA)) LEAVE(P, NULL);
        }
        if (sequence_items(P, &items, TK_RPAR) < 0 || !(n = pattern_node(P, REPL_AST_MatchSequence, t))) LEAVE(P, NULL);
        n->v.Pattern.patterns = list_of(items);
        LEAVE(P, ended(P, n));
    }
    case TK_LSQB: {
        advance(P);
        vec items = {0};
        if (sequence_items(P, &items, TK_RSQB) < 0 || !(n = pattern_node(P, REPL_AST_MatchSequence, t))) LEAVE(P, NULL);
        n->v.Pattern.patterns = list_of(items);
        LEAVE(P, ended(P, n));
    }
    case TK_LBRACE:
        advance(P);
        LEAVE(P, mapping_pattern(P, t));
    default: LEAVE(P, invalid_syntax(P));
    }
}

/* pattern: or_pattern ['as' NAME];  or_pattern: '|'.closed_pattern+ */
static repl_node *pattern(parser *P)
{
    repl_token *t = cur(P);
    repl_node *p = closed_pattern(P);
    if (!p) return NULL;
    if (check(P, TK_VBAR)) {
        vec alts = {0};
        if (push(P, &alts, p) < 0) return NULL;
        while (accept(P, TK_VBAR)) {
            repl_node *q = closed_pattern(P);
            if (!q || push(P, &alts, q) < 0) return NULL;
        }
        if (!(p = pattern_node(P, REPL_AST_MatchOr, t))) return NULL;
        p->v.Pattern.patterns = list_of(alts);
        ended(P, p);
    }
    if (accept(P, TK_AS)) {
        repl_token *nt = cur(P);
        if (!check(P, TK_NAME)) return invalid_syntax(P);
        if (word_is(nt, "_")) return error_at(P, NN_ERR_SYNTAX, nt, "cannot use '_' as a target");
        advance(P);
        repl_node *n = pattern_node(P, REPL_AST_MatchAs, t);
        if (!n || !(n->v.Pattern.name = identifier(P, nt))) return NULL;
        n->v.Pattern.pattern = p;
        p = ended(P, n);
    }
    return p;
}

/* patterns: open_sequence_pattern | pattern (a top-level `a, *b` is a sequence) */
static repl_node *patterns(parser *P)
{
    repl_token *t = cur(P);
    repl_node *first = star_pattern(P);
    if (!first) return NULL;
    if (!check(P, TK_COMMA) && first->kind != REPL_AST_MatchStar) return first;
    vec items = {0};
    if (push(P, &items, first) < 0) return NULL;
    while (accept(P, TK_COMMA) && !check(P, TK_COLON) && !check(P, TK_IF)) {
        repl_node *p = star_pattern(P);
        if (!p || push(P, &items, p) < 0) return NULL;
    }
    repl_node *n = pattern_node(P, REPL_AST_MatchSequence, t);
    if (!n) return NULL;
    n->v.Pattern.patterns = list_of(items);
    return ended(P, n);
}

/* match_stmt: "match" subject_expr ':' NEWLINE INDENT case_block+ DEDENT
   case_block: "case" patterns [guard] ':' block */
static repl_node *match_stmt(parser *P)
{
    repl_token *t = advance(P);
    repl_node *n = node_at(P, REPL_AST_Match, t);
    if (!n) return NULL;
    repl_token *st = cur(P);
    repl_node *subject = star_named_expression(P);
    if (!subject) return NULL;
    if (check(P, TK_COMMA)) {   /* `match a, b:` matches a tuple */
        vec elts = {0};
        if (push(P, &elts, subject) < 0) return NULL;
        while (accept(P, TK_COMMA) && !check(P, TK_COLON)) {
            repl_node *e = star_named_expression(P);
            if (!e || push(P, &elts, e) < 0) return NULL;
        }
        if (!(subject = node_at(P, REPL_AST_Tuple, st))) return NULL;
        subject->v.List.elts = list_of(elts);
        ended(P, subject);
    }
    n->v.Match.subject = subject;
    if (!expect(P, TK_COLON) || !expect(P, TK_NEWLINE)) return NULL;
    if (!check(P, TK_INDENT))
        return error_at(P, NN_ERR_INDENTATION, cur(P), "expected an indented block after 'match' statement on line %d", t->line);
    advance(P);
    vec cases = {0};
    if (!enter(P)) return NULL;
    while (!check(P, TK_DEDENT) && !check(P, TK_ENDMARKER)) {
        repl_token *c = cur(P);
        if (!word_is(c, "case")) return invalid_syntax(P);
        advance(P);
        repl_node *mc = node_at(P, REPL_AST_match_case, c);
        if (!mc || !(mc->v.match_case.pattern = patterns(P))) return NULL;
        if (accept(P, TK_IF) && !(mc->v.match_case.guard = named_expression(P))) return NULL;
        if (colon_block(P, &mc->v.match_case.body, c, "'case' statement") < 0 || push(P, &cases, mc) < 0) return NULL;
    }
    P->depth--;
    if (!cases.n) return invalid_syntax(P);
    accept(P, TK_DEDENT);
    n->v.Match.cases = list_of(cases);
    return n;
}

/* ------------------------------------------------------------ entry */

/* the statement body[i] is a `from __future__ import` after other statements
   (a docstring and other future imports may come first): CPython's SyntaxError */
static bool misplaced_future(parser *P, const vec *body, int i)
{
    const repl_node *s = body->items[i];
    if (s->kind != REPL_AST_ImportFrom || s->v.ImportFrom.level || strcmp(s->v.ImportFrom.module, "__future__"))
        return false;
    for (int k = 0; k < i; k++) {
        const repl_node *b = body->items[k];
        bool docstring = k == 0 && b->kind == REPL_AST_Expr && b->v.Return.value->kind == REPL_AST_Constant &&
                         b->v.Return.value->v.Constant.ckind == REPL_CONST_STR;
        bool future = b->kind == REPL_AST_ImportFrom && !b->v.ImportFrom.level &&
                      strcmp(b->v.ImportFrom.module, "__future__") == 0;
        if (!docstring && !future) {
            error_at(P, NN_ERR_SYNTAX, &(repl_token){.line = s->line, .col = s->col},
                     "from __future__ imports must occur at the beginning of the file");
            return true;
        }
    }
    return false;
}


/* true when the input ends with an empty line: the REPL passes its lines joined
   by "\n" without a final newline (as Python's console), so a final "\n"
   means the user entered an empty line */
static bool ends_with_blank_line(const char *s, size_t n)
{
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) n--;
    return n == 0 || s[n - 1] == '\n';
}

static bool is_compound(const repl_node *n)
{
    switch (n->kind) {
    case REPL_AST_If: case REPL_AST_For: case REPL_AST_While: case REPL_AST_With: case REPL_AST_Try:
    case REPL_AST_FunctionDef: case REPL_AST_ClassDef: case REPL_AST_Match: return true;
    default: return false;
    }
}

/* file: statement* ENDMARKER | eval: star_expressions NEWLINE* ENDMARKER
   | single: statement* ENDMARKER (complete only after an empty line when compound) */
repl_node *repl_parse(const char *source, const char *filename, repl_parse_mode mode,
                      repl_ast_arena **arena_out, repl_parse_error *err)
{
    repl_parse_error local = {0};
    if (!err) err = &local;
    *err = (repl_parse_error){0};
    *arena_out = NULL;
    (void)filename;
    size_t len = strlen(source);
    repl_ast_arena *arena = repl_ast_arena_new();
    if (!arena) {
        err->status = REPL_PARSE_FAILED;
        return NULL;
    }
    if (memchr(source, '\r', len)) { /* \r\n and a lone \r end a line, as in CPython */
        char *copy = repl_ast_arena_strndup(arena, source, len);
        if (!copy) goto fail;
        len = repl_translate_newlines(copy);
        source = copy;
    }
    bool interactive = mode == REPL_PARSE_SINGLE;
    repl_tokens toks;
    repl_node *root = NULL;
    if (repl_lex(source, len, 1, 0, interactive, false, arena, &toks, err) < 0) goto fail;
    /* an unclosed bracket at the end: the parser's error comes first when it
       fails before the end, as CPython's lazy tokenizer does */
    repl_parse_error deferred = *err;
    char deferred_msg[512];
    nn_error_kind deferred_kind = nn_error_current();
    snprintf(deferred_msg, sizeof deferred_msg, "%s", nn_error_message());
    if (toks.deferred) {
        *err = (repl_parse_error){0};
        nn_error_clear();
    }
    parser P = {.toks = toks.items, .n = toks.n, .arena = arena, .err = err, .interactive = interactive,
                .ends_blank = ends_with_blank_line(source, len)};
    if (mode == REPL_PARSE_EVAL) {
        root = new_node(&P, REPL_AST_Expression, 1, 0);
        while (check(&P, TK_NEWLINE)) advance(&P);
        if (root && !(root->v.Expression.body = star_expressions(&P))) root = NULL;
        while (root && check(&P, TK_NEWLINE)) advance(&P);
        if (root && !check(&P, TK_ENDMARKER)) root = invalid_syntax(&P);
    } else {
        root = new_node(&P, mode == REPL_PARSE_FILE ? REPL_AST_Module : REPL_AST_Interactive, 1, 0);
        vec body = {0};
        while (root && !check(&P, TK_ENDMARKER)) {
            if (check(&P, TK_NEWLINE)) { advance(&P); continue; }
            int before = body.n;
            if (statement(&P, &body) < 0) root = NULL;
            for (int i = before; root && i < body.n; i++)
                if (misplaced_future(&P, &body, i)) root = NULL;
        }
        if (root) root->v.Module.body = list_of(body);
        if (root && interactive && !P.ends_blank && body.n && is_compound(body.items[body.n - 1])) {
            repl_token *end = cur(&P);
            repl_syntax_error(err, REPL_PARSE_INCOMPLETE, NN_ERR_SYNTAX, end->line, end->col, "incomplete input");
            root = NULL;
        }
    }
    if (root && P.too_deep) {
        nn_error_set(NN_ERR_RECURSION, "maximum recursion depth exceeded during compilation");
        failed(&P);
        root = NULL;
    }
    if (toks.deferred) {
        if (root || err->status == REPL_PARSE_INCOMPLETE ||
            (err->status == REPL_PARSE_INVALID && (P.pos >= P.n - 1 || err->line > deferred.line))) {
            root = NULL;
            *err = deferred;
            nn_error_set(deferred_kind, "%s", deferred_msg);
        }
    }
    nn_free(toks.items);
    if (root && P.stray_yield && repl_ast_check_yield(P.stray_yield, err) < 0) root = NULL;
    if (root && repl_ast_check(root, err) < 0) root = NULL;   /* the compiler's own SyntaxErrors */
    if (!root) goto fail;
    *arena_out = arena;
    return root;
fail:
    if (err->status == REPL_PARSE_OK) err->status = REPL_PARSE_FAILED;
    repl_ast_arena_free(arena);
    return NULL;
}
