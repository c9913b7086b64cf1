/*
 * ast.h — the syntax tree of the nnscope language (a Python subset), the arena
 * that owns it, and the parser's entry point. Node kinds and fields mirror
 * CPython's `ast` module (3.11) so that repl_ast_dump() prints what ast.dump()
 * prints. Public within repl/; the evaluator walks these nodes.
 */
#ifndef REPL_AST_H
#define REPL_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nn.h"

/* ------------------------------------------------------------------ arena */

/* Every node, list and string of one parse lives in one arena; one
   repl_ast_arena_free() frees the whole tree. Memory comes from nn_malloc. */
typedef struct repl_ast_arena repl_ast_arena;

/* A new empty arena, or NULL with MemoryError. */
repl_ast_arena *repl_ast_arena_new(void);
/* Zeroed memory owned by the arena, or NULL with MemoryError. */
void *repl_ast_arena_alloc(repl_ast_arena *a, size_t n);
/* A NUL-terminated copy of s[0..n) owned by the arena, or NULL with MemoryError. */
char *repl_ast_arena_strndup(repl_ast_arena *a, const char *s, size_t n);
/* Frees the arena and everything allocated in it (NULL is fine). */
void repl_ast_arena_free(repl_ast_arena *a);

/* ------------------------------------------------------------------ nodes */

/* X(Name): every node kind, in the names ast.dump() prints. */
#define REPL_AST_KINDS(X) \
    X(Module) X(Interactive) X(Expression) \
    X(FunctionDef) X(ClassDef) X(Return) X(Delete) X(Assign) X(AugAssign) \
    X(For) X(While) X(If) X(With) X(Raise) X(Try) X(Assert) X(Import) \
    X(ImportFrom) X(Global) X(Nonlocal) X(Expr) X(Pass) X(Break) X(Continue) \
    X(BoolOp) X(BinOp) X(UnaryOp) X(Lambda) X(IfExp) X(Dict) X(Set) \
    X(ListComp) X(SetComp) X(DictComp) X(GeneratorExp) X(Compare) X(Call) \
    X(FormattedValue) X(JoinedStr) X(Constant) X(Attribute) X(Subscript) \
    X(Starred) X(Name) X(List) X(Tuple) X(Slice) X(Yield) X(YieldFrom) \
    X(comprehension) X(ExceptHandler) X(arguments) X(arg) X(keyword) \
    X(alias) X(withitem) X(AnnAssign) X(NamedExpr) \
    X(Match) X(match_case) X(MatchValue) X(MatchSingleton) X(MatchSequence) \
    X(MatchMapping) X(MatchClass) X(MatchStar) X(MatchAs) X(MatchOr)

typedef enum repl_ast_kind {
#define X(name) REPL_AST_##name,
    REPL_AST_KINDS(X)
#undef X
    REPL_AST_KIND_COUNT
} repl_ast_kind;

/* Operators of BinOp/AugAssign, UnaryOp, BoolOp and Compare (one enum). */
#define REPL_AST_OPS(X) \
    X(Add) X(Sub) X(Mult) X(MatMult) X(Div) X(Mod) X(Pow) X(LShift) X(RShift) \
    X(BitOr) X(BitXor) X(BitAnd) X(FloorDiv) \
    X(Invert) X(Not) X(UAdd) X(USub) \
    X(And) X(Or) \
    X(Eq) X(NotEq) X(Lt) X(LtE) X(Gt) X(GtE) X(Is) X(IsNot) X(In) X(NotIn)

typedef enum repl_ast_op {
#define X(name) REPL_OP_##name,
    REPL_AST_OPS(X)
#undef X
    REPL_OP_COUNT
} repl_ast_op;

typedef enum repl_ast_ctx { REPL_CTX_LOAD, REPL_CTX_STORE, REPL_CTX_DEL } repl_ast_ctx;

typedef enum repl_const_kind {
    REPL_CONST_NONE, REPL_CONST_TRUE, REPL_CONST_FALSE, REPL_CONST_ELLIPSIS,
    REPL_CONST_INT, REPL_CONST_FLOAT, REPL_CONST_STR, REPL_CONST_BYTES,
    REPL_CONST_IMAG /* an imaginary literal: f is its value */
} repl_const_kind;

typedef struct repl_node repl_node;

/* A name's lookup memo, kept in its Name node (eval.c; objects.c's
   repl_nmap_get_cached): the table and slot where the name was last found there
   (valid while that table keeps its generation) and the name's hash (0: not yet).
   The evaluator writes it through its const nodes; it never changes a result. */
typedef struct repl_name_cache {
    const void *map;
    uint64_t gen;
    uint32_t idx, hash;
} repl_name_cache;

/* A sequence of nodes (items may be NULL where Python has None, as Dict.keys). */
typedef struct repl_node_list {
    repl_node **items;
    int n;
} repl_node_list;

/* A sequence of identifiers (Global.names). */
typedef struct repl_name_list {
    const char **items;
    int n;
} repl_name_list;

/* One node: kind, position (line 1-based, col 0-based UTF-8 byte offset, as
   CPython's lineno/col_offset) and the fields of that kind. Optional fields
   (Python's `?`) are NULL when absent. */
struct repl_node {
    repl_ast_kind kind;
    int line, col;
    int end_line, end_col;   /* where an expression ends (CPython's end_lineno and
                                end_col_offset); 0 when not recorded (statements) */
    union {
        struct { repl_node_list body; } Module;       /* also Interactive */
        struct { repl_node *body; } Expression;
        struct {
            const char *name;
            const char *bound;              /* the name the def binds: name, or its private
                                               mangling in a class (ast_mangle.c; not in ast.dump) */
            repl_node *args;                /* arguments */
            repl_node_list body, decorator_list;
            repl_node *returns;
            bool is_generator;              /* its body yields (not in ast.dump) */
            repl_node_list walrus_targets;  /* Names its body binds with := (its locals;
                                               not in ast.dump) */
            bool future_annotations;        /* under `from __future__ import annotations`
                                               (not in ast.dump) */
        } FunctionDef;
        struct {
            const char *name;
            const char *bound;              /* as FunctionDef.bound */
            repl_node_list bases, keywords, body, decorator_list;
        } ClassDef;
        struct { repl_node *value; } Return;          /* also Expr, Yield, YieldFrom */
        struct { repl_node_list targets; } Delete;
        struct { repl_node_list targets; repl_node *value; } Assign;
        struct { repl_node *target; repl_ast_op op; repl_node *value; } AugAssign;
        /* x: T [= v]; simple: the target is a bare name not in parentheses */
        struct {
            repl_node *target, *annotation, *value;
            bool simple;
            const char *annotation_text;   /* after `from __future__ import annotations`: the
                                              annotation's source text (kept as a string) */
        } AnnAssign;
        struct { repl_node *target, *value; } NamedExpr;   /* (x := v) */
        struct { repl_node *target, *iter; repl_node_list body, orelse; } For;
        struct { repl_node *test; repl_node_list body, orelse; } While;  /* also If */
        struct { repl_node_list items, body; } With;
        struct { repl_node *exc, *cause; } Raise;
        struct { repl_node_list body, handlers, orelse, finalbody; } Try;
        struct { repl_node *test, *msg; } Assert;
        struct { repl_node_list names; } Import;
        struct { const char *module; repl_node_list names; int level; } ImportFrom;
        struct { repl_name_list names; } Global;                 /* also Nonlocal */
        struct { repl_ast_op op; repl_node_list values; } BoolOp;
        struct { repl_node *left; repl_ast_op op; repl_node *right; } BinOp;
        struct { repl_ast_op op; repl_node *operand; } UnaryOp;
        struct { repl_node *args, *body; } Lambda;
        struct { repl_node *test, *body, *orelse; } IfExp;
        struct { repl_node_list keys, values; } Dict;
        struct { repl_node_list elts; } Set;
        /* ListComp, SetComp, GeneratorExp; DictComp uses key + value */
        struct { repl_node *elt, *value; repl_node_list generators; } Comp;
        struct { repl_node *left; repl_ast_op *ops; repl_node_list comparators; } Compare;
        struct { repl_node *func; repl_node_list args, keywords; } Call;
        /* conversion: -1 none, 's', 'r', 'a'; format_spec a JoinedStr or NULL */
        struct { repl_node *value; int conversion; repl_node *format_spec; } FormattedValue;
        struct { repl_node_list values; } JoinedStr;
        struct {
            repl_const_kind ckind;
            int64_t i;                 /* INT (when !overflow) */
            double f;                  /* FLOAT */
            const char *s;             /* STR bytes (UTF-8, may hold NULs); for an
                                          overflowing INT the literal's digits */
            size_t len;
            bool overflow;             /* INT literal beyond int64: the evaluator
                                          raises OverflowError */
        } Constant;
        struct { repl_node *value; const char *attr; repl_ast_ctx ctx; } Attribute;
        struct { repl_node *value, *slice; repl_ast_ctx ctx; } Subscript;
        struct { repl_node *value; repl_ast_ctx ctx; } Starred;
        struct { const char *id; repl_ast_ctx ctx; repl_name_cache cache; } Name;
        struct { repl_node_list elts; repl_ast_ctx ctx; } List;  /* also Tuple */
        struct { repl_node *lower, *upper, *step; } Slice;
        struct { repl_node *target, *iter; repl_node_list ifs; } comprehension;
        struct { repl_node *type; const char *name; repl_node_list body; } ExceptHandler;
        struct {
            repl_node_list posonlyargs, args;
            repl_node *vararg;
            repl_node_list kwonlyargs, kw_defaults;  /* kw_defaults items may be NULL */
            repl_node *kwarg;
            repl_node_list defaults;
        } arguments;
        struct { const char *arg; repl_node *annotation; repl_name_cache cache; } arg;
        struct { const char *arg; repl_node *value; } keyword;   /* arg NULL for **x */
        struct { const char *name, *asname; } alias;
        struct { repl_node *context_expr, *optional_vars; } withitem;
        struct { repl_node *subject; repl_node_list cases; } Match;
        struct { repl_node *pattern, *guard; repl_node_list body; } match_case;
        /* the patterns (match.c): MatchValue/MatchSingleton value (an expression,
           a Constant for the singleton); MatchAs pattern (NULL: a capture or the
           wildcard) and name (NULL: `_`); MatchStar name; MatchSequence/MatchOr
           patterns; MatchMapping keys, patterns, rest; MatchClass cls, patterns,
           kwd_attrs, kwd_patterns */
        struct {
            repl_node *value, *pattern, *cls;
            const char *name, *rest;
            repl_node_list patterns, keys, kwd_patterns;
            repl_name_list kwd_attrs;
        } Pattern;
    } v;
};

/* The kind's name as ast.dump() prints it ("BinOp"). */
const char *repl_ast_kind_name(repl_ast_kind kind);
/* The operator's name as ast.dump() prints it ("Add"). */
const char *repl_ast_op_name(repl_ast_op op);

/* ------------------------------------------------------------------ parser */

/* Whether `from __future__ import name` names a feature CPython 3.11 knows
   (mod_future.c). */
bool repl_future_feature_known(const char *name);

typedef enum repl_parse_mode {
    REPL_PARSE_FILE,      /* a module: statements -> Module */
    REPL_PARSE_SINGLE,    /* one interactive input -> Interactive; may be incomplete */
    REPL_PARSE_EVAL       /* one expression -> Expression */
} repl_parse_mode;

typedef enum repl_parse_status {
    REPL_PARSE_OK,
    REPL_PARSE_INVALID,     /* SyntaxError / IndentationError */
    REPL_PARSE_INCOMPLETE,  /* SINGLE mode only: more lines may complete it (the
                               REPL shows its continuation prompt) */
    REPL_PARSE_FAILED       /* another error, e.g. MemoryError */
} repl_parse_status;

/* Where and why a parse failed, for tracebacks. line is 1-based, offset is
   1-based like SyntaxError.offset (0 when unknown). */
typedef struct repl_parse_error {
    repl_parse_status status;
    int line, offset;
    int end_offset;  /* 1-based column past the offending range on line (CPython's ^^^^), or 0: one caret
                        (offset itself: an empty range, one caret) */
    bool end_exact;  /* end_offset is SyntaxError.end_offset as CPython's tokenizer gives it (0 or -1) */
    bool compiler;   /* raised by repl_ast_check (CPython's compiler: SyntaxError.text is None) */
    bool tok_line;   /* raised where CPython's tokenizer raises it: SyntaxError.text is the line without its newline */
    char text[160];  /* the line CPython shows instead of the source's, or "": an f-string field's
                        expression in parentheses, `(a b)` (offset and end_offset are then its columns) */
    bool at_eof;     /* found at the end of the input: CPython reading a script file gives such an
                        error offset 0 (no caret line); a string (exec, compile) keeps the offset */
} repl_parse_error;

/* Parses a NUL-terminated source (borrowed). On success returns the Module,
   Interactive or Expression node and *arena_out becomes a new arena owning the
   tree (free it with repl_ast_arena_free). On failure returns NULL, sets
   *arena_out to NULL and the current error (NN_ERR_SYNTAX or NN_ERR_INDENTATION
   with CPython's wording; "incomplete input" when incomplete; NN_ERR_MEMORY),
   and fills *err when err is not NULL. filename is borrowed, used in messages. */
repl_node *repl_parse(const char *source, const char *filename, repl_parse_mode mode,
                      repl_ast_arena **arena_out, repl_parse_error *err);

/* Translates s (NUL-terminated, in place) as CPython's tokenizer reads a source:
   each \r\n and each lone \r becomes \n. Returns the new length. (lexer.c) */
size_t repl_translate_newlines(char *s);

/* The SyntaxErrors CPython's compiler raises on a parsed tree (`return` outside a
   function, `break`/`continue` outside a loop, module-level `nonlocal`): 0, or -1
   with the error set and *err filled (ast_check.c). */
int repl_ast_check(const repl_node *root, repl_parse_error *err);
/* The compiler's "'yield' outside function" at the yield expression y (the parser
   finds it: a yield outside any def or lambda, or in a class body): -1. */
int repl_ast_check_yield(const repl_node *y, repl_parse_error *err);

/* Private name mangling (CPython's compiler): inside each class body every
   `__name` not ending in `__` becomes `_Class__name` in place, new strings in
   arena (borrowed). The evaluator runs a tree after this pass. 0, or -1 with
   MemoryError (ast_mangle.c). */
int repl_ast_mangle(repl_node *root, repl_ast_arena *arena);
/* Whether name is what the identifier id reads as inside class cls: its mangling
   there ("_C__x" for "__x" in C) or, when it has none, id itself. (`__slots__`
   entries are mangled so when the class is made.) */
bool repl_mangled_is(const char *cls, const char *id, const char *name);
/* id as written inside class cls (its mangling there, or id), a new nn_malloc'd
   string, or NULL (out of memory). */
char *repl_mangle_new(const char *cls, const char *id);

/* ast.dump(node) of CPython 3.11 (default arguments) as a new nn_malloc'd
   string, or NULL with MemoryError. node is borrowed. */
char *repl_ast_dump(const repl_node *node);

#endif
