/*
 * eval.c — the tree-walking evaluator: statements return a status (ok, error,
 * break, continue, return), expressions a new reference or NULL with the error
 * set; one protected boundary per try statement and per repl_exec turns a
 * failed status into a language exception. Also calls, attributes, operators.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval_int.h"
#include "bigint.h"
#include "bytes_int.h"
#include "unicode_int.h"

repl_interp *repl_current;

#define MAX_DEPTH 1000

/* ------------------------------------------------------------------ code units */

struct code_unit {
    intptr_t refcount;
    repl_ast_arena *arena;
    char *source;
    char *filename;
};

void repl_code_unit_text(const code_unit *u, const char **source, const char **filename)
{
    *source = u ? u->source : NULL;
    *filename = u ? u->filename : NULL;
}

static void unit_release(code_unit *u)
{
    if (!u || --u->refcount > 0) return;
    repl_ast_arena_free(u->arena);
    nn_free(u->source);
    nn_free(u->filename);
    nn_free(u);
}

/* The tree of source (borrowed) in u's arena, compiled as CPython's compiler
   sees it (private names mangled), or NULL with the error set and *perr filled. */
static repl_node *unit_parse(code_unit *u, const char *source, repl_parse_mode mode, repl_parse_error *perr)
{
    repl_node *tree = repl_parse(source, u->filename, mode, &u->arena, perr);
    if (tree && repl_ast_mangle(tree, u->arena) < 0) {
        perr->status = REPL_PARSE_FAILED;
        return NULL;
    }
    return tree;
}

/* ------------------------------------------------------------------ frames */

/* A comprehension's variables. They live in own until a lambda made inside the
   comprehension captures them: then they move to captured, a scope that the
   lambda keeps (as CPython's cells), so it sees the loop variable's last value. */
typedef struct comp_scope {
    nmap own;
    scope *captured;        /* owned, or NULL */
    struct comp_scope *up;
} comp_scope;

static nmap *comp_map(comp_scope *cs) { return cs->captured ? &cs->captured->map : &cs->own; }

static void comp_scope_clear(comp_scope *cs)
{
    repl_nmap_clear(&cs->own);
    NN_SET(cs->captured, NULL);
}

struct frame {
    frame *back;
    code_unit *unit;       /* borrowed */
    const char *name;      /* "<module>" or the function's name */
    nmap *locals;          /* where stores go */
    scope *sc;             /* function frames: the scope object of locals */
    scope *env;            /* scope that nested functions capture (may be NULL) */
    func_obj *fn;          /* function frames */
    bool is_class;
    const char *qualname;  /* a class body's: its class's __qualname__ */
    nn_object *ns;         /* borrowed: a class body's mapping from its metaclass's __prepare__, or NULL */
    int line;
    comp_scope *comp;
    nn_object *retval;     /* owned, for EXEC_RETURN */
    nn_object *gen;        /* borrowed: the generator whose body this frame runs, or NULL */
    const repl_node *err_node; /* the innermost expression of the running statement that
                                  failed (the traceback's ^^^ line), or NULL */
};

typedef enum exec_status { EX_OK, EX_ERR, EX_BREAK, EX_CONTINUE, EX_RETURN } exec_status;

static inline nn_object *eval(frame *f, const repl_node *n);
static exec_status exec_block(frame *f, const repl_node_list *body);
static exec_status exec_match(frame *f, const repl_node *s);
static int assign(frame *f, const repl_node *target, nn_object *value);

/* A generator's frame (first, so that a frame running a generator expression
   reaches its body) and what the frame refers to. */
struct repl_gen_body {
    frame f;
    scope *sc;              /* owned */
    func_obj *fn;           /* owned: a generator function's */
    const repl_node *comp;  /* a generator expression's node */
    nn_object **its;        /* owned: the iterator of each of its for clauses, active ones first
                               (the first made where it was written) */
    int active;             /* how many of its are running */
    comp_scope outer, cs;   /* the enclosing comprehensions' variables (copied); its own */
};
static nn_object *make_generator(frame *f, func_obj *fn, const repl_node *comp, nn_object *first);
static nn_object *make_genexp(frame *f, const repl_node *n);

/* ------------------------------------------------------------------ traceback */

void repl_tb_clear(repl_interp *in)
{
    for (int i = 0; i < in->n_tb; i++) {
        unit_release(in->tb[i].unit);
        nn_free(in->tb[i].name);
        NN_RELEASE(in->tb[i].sc);
    }
    in->n_tb = 0;
}

/* Adds the frame's current position to the traceback of the exception being raised. */
static void tb_add(frame *f)
{
    repl_interp *in = repl_current;
    if (in->tb_stale) {
        /* a core error after an exception was taken: a fresh traceback */
        repl_tb_clear(in);
        NN_SET(in->tb_owner, NULL);
        in->tb_stale = false;
        in->tb_skip = NULL;
    }
    if (in->tb_skip == f) { /* re-raised here: the frame's entry is there already (exc_chain.c) */
        in->tb_skip = NULL;
        return;
    }
    if (in->n_tb == in->cap_tb) {
        int cap = in->cap_tb ? in->cap_tb * 2 : 8;
        tb_entry *t = nn_realloc(in->tb, (size_t)cap * sizeof *t);
        if (!t) {
            nn_error_clear(); /* a lost traceback line, not a new error */
            return;
        }
        in->tb = t;
        in->cap_tb = cap;
    }
    char *name = nn_strdup(f->name);
    if (!name) {
        nn_error_clear();
        return;
    }
    tb_entry *e = &in->tb[in->n_tb++];
    e->unit = f->unit;
    if (e->unit) e->unit->refcount++;
    e->line = f->line;
    e->name = name;
    repl_tb_locate(e, f->err_node, e->unit ? e->unit->source : NULL);
    if (e->col >= 0 && e->unit && e->unit->filename[0] == '<') e->col = -1;
    e->sc = f->sc ? nn_retain(&f->sc->ob) : NULL;
}

/* Appends source line `line` of u, indented by 4 without its own indentation
   (real files only); returns how many leading blanks were dropped, or -1 when
   nothing was printed. */
static int source_line(sbuf *b, code_unit *u, int line)
{
    if (!u || !u->source || u->filename[0] == '<') return -1;
    const char *s = u->source;
    for (int l = 1; l < line && s; l++) {
        s = strchr(s, '\n');
        if (s) s++;
    }
    if (!s) return -1;
    const char *start = s;
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strcspn(s, "\n");
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\r')) n--;
    if (!n) return -1;
    repl_sb_puts(b, "    ");
    repl_sb_add(b, s, n);
    repl_sb_puts(b, "\n");
    return (int)(s - start);
}

void repl_tb_entry_copy(tb_entry *dst, const tb_entry *src)
{
    *dst = *src;
    if (dst->unit) dst->unit->refcount++;
    if (dst->sc) nn_retain(dst->sc);
    dst->name = nn_strdup(src->name ? src->name : "?");
}

void repl_tb_entry_release(tb_entry *e)
{
    unit_release(e->unit);
    nn_free(e->name);
    NN_RELEASE(e->sc);
    e->unit = NULL;
    e->name = NULL;
}

void repl_tb_format_entries(sbuf *b, const tb_entry *tb, int n)
{
    repl_sb_puts(b, "Traceback (most recent call last):\n");
    for (int i = n - 1; i >= 0; i--) {
        const tb_entry *e = &tb[i];
        repl_sb_printf(b, "  File \"%s\", line %d, in %s\n", e->unit ? e->unit->filename : "<unknown>", e->line, e->name);
        if (source_line(b, e->unit, e->line) >= 0) repl_tb_carets(b, e->unit->source, e);
    }
}

void repl_tb_format_exc_line(sbuf *b, nn_object *exc)
{
    const char *cname = exc && exc->type == &repl_instance_type ? ((instance_obj *)exc)->cls->name : "Exception";
    /* a SyntaxError: its place and text, then its msg */
    nn_object *value = exc ? repl_syntax_error_block(b, exc) : NULL;
    char *msg = value ? (nn_is_none(value) ? NULL : repl_exc_message(value)) : exc ? repl_exc_message(exc) : NULL;
    /* an exception class of a standard module: json.decoder.JSONDecodeError */
    const char *cmod = exc && exc->type == &repl_instance_type ? ((instance_obj *)exc)->cls->module : NULL;
    if (cmod) repl_sb_printf(b, "%s.", cmod);
    if (msg && *msg) repl_sb_printf(b, "%s: %s", cname, msg);
    else repl_sb_puts(b, cname);
    nn_free(msg);
}

/* Formats the traceback of exc into in->last_tb, after the exceptions it was
   chained to (exc_chain.c). */
static void tb_format(repl_interp *in, nn_object *exc)
{
    sbuf b = {0};
    repl_exc_chain_format(&b, exc, in->tb, in->n_tb);
    const char *cname = exc && exc->type == &repl_instance_type ? ((instance_obj *)exc)->cls->name : "Exception";
    nn_free(in->last_tb);
    in->last_tb = repl_sb_finish(&b);
    nn_free(in->last_name);
    in->last_name = nn_strdup(cname);
    nn_error_clear();
}

/* ------------------------------------------------------------------ helpers */

const char *repl_value_type_name(const nn_object *o)
{
    if (!o) return "NoneType";
    if (o->type == &repl_instance_type) {
        const class_obj *c = ((const instance_obj *)o)->cls;
        return c->tp_name ? c->tp_name : c->name;
    }
    if (o->type == &nn_none_type) return "NoneType";
    if (o->type == &repl_function_type) return "function";
    if (nn_is_module(o)) {
        class_obj *c = repl_module_lang_class(o);
        if (c) return c->name;
        return nn_module_name((const nn_module *)o);
    }
    if (o->type == &repl_set_type && ((const set_obj *)o)->frozen) return "frozenset";
    if (o->type == &repl_desc_type) return repl_desc_type_name(o);
    if (o->type == &nn_dict_type && nn_dict_is_ordered(o)) return "OrderedDict";
    if (o->type == &repl_dictview_type) {
        static const char *const views[] = {"dict_keys", "dict_values", "dict_items"};
        return views[repl_dictview_kind(o)];
    }
    return o->type->name;
}

void repl_interp_write(const char *s, size_t n)
{
    repl_interp *in = repl_current;
    if (in->write) in->write(in->write_ud, s, n);
    else fwrite(s, 1, n, stdout);
}

static bool is_num(const nn_object *o)
{
    return o && (o->type == &nn_int_type || o->type == &nn_float_type || o->type == &nn_bool_type);
}
static bool is_intlike(const nn_object *o) { return o && (o->type == &nn_int_type || o->type == &nn_bool_type); }
/* tuples and the bindings' tuple subtypes (torch.Size) */
static bool is_tuple_like(const nn_object *o) { return o->type == &nn_tuple_type || o->type->base == &nn_tuple_type; }

nn_object *repl_plain_tuple(nn_object *o)
{
    size_t n = nn_tuple_len(o);
    nn_object *t = nn_tuple_new(n);
    for (size_t i = 0; t && i < n; i++) nn_tuple_set(t, i, nn_retain(nn_tuple_get(o, i)));
    return t;
}

static bool is_native(const nn_object *o)
{
    const nn_type *t = o->type;
    return !(t == &nn_int_type || t == &nn_float_type || t == &nn_complex_type || t == &nn_bool_type || t == &nn_str_type ||
             t == &repl_bigint_type ||
             t == &nn_list_type || t == &nn_tuple_type || t == &nn_dict_type || t == &nn_none_type ||
             t == &repl_instance_type || t == &repl_class_type || t == &repl_function_type ||
             t == &repl_method_type || t == &repl_set_type || t == &repl_range_type || t == &repl_iter_type ||
             t == &repl_module_type || t == &nn_cfunction_type || t == &repl_super_type || t == &repl_dictview_type || t == &repl_desc_type ||
             t->base == &repl_lazy_base);
}

class_obj *repl_module_lang_class(const nn_object *o)
{
    if (!nn_is_module(o)) return NULL;
    const nn_module_class *c = ((const nn_module *)o)->cls;
    return c && c->lang_class ? (class_obj *)c->lang_class : NULL;
}

/* ------------------------------------------------------------------ functions */

static void func_dealloc(nn_object *self)
{
    func_obj *fn = (func_obj *)self;
    for (int i = 0; i < fn->n_defaults; i++) NN_RELEASE(fn->defaults[i]);
    nn_free(fn->defaults);
    if (fn->kwdefaults)
        for (int i = 0; i < fn->args->v.arguments.kwonlyargs.n; i++) NN_RELEASE(fn->kwdefaults[i]);
    nn_free(fn->kwdefaults);
    NN_RELEASE(fn->env);
    repl_nmap_clear(&fn->locals);
    repl_nmap_clear(&fn->globals_decl);
    repl_func_attrs_free(fn);
    unit_release(fn->unit);
    nn_free(fn);
}

static char *func_repr(nn_object *self)
{
    sbuf b = {0};
    func_obj *fn = (func_obj *)self;
    repl_sb_printf(&b, "<function %s at %p>", repl_func_qualname(fn), (void *)self);
    return repl_sb_finish(&b);
}

static nn_object *func_call_slot(nn_object *self, nn_object *args, nn_object *kwargs)
{
    size_t n = nn_tuple_len(args);
    return repl_call_object(self, n ? ((nn_tuple *)args)->items : NULL, (int)n, kwargs);
}

static nn_object *func_getattr(nn_object *obj, const char *name);
static int func_setattr(nn_object *obj, const char *name, nn_object *value);
const nn_type repl_function_type = {.name = "function", .dealloc = func_dealloc, .repr = func_repr,
                                    .call = func_call_slot, .traverse = repl_func_traverse,
                                    .clear = repl_func_clear, .getattr = func_getattr, .setattr = func_setattr};

/* Names a function body binds (its locals), and those it declares global/nonlocal. */
static int collect_target(func_obj *fn, const repl_node *t);
static int collect_locals(func_obj *fn, const repl_node_list *body, nmap *nonlocals);

static int add_local(func_obj *fn, const char *name) { return repl_nmap_set(&fn->locals, name, nn_none()); }
static int add_local_cb(void *fn, const char *name) { return add_local(fn, name); }

static int collect_target(func_obj *fn, const repl_node *t)
{
    if (!t) return 0;
    switch (t->kind) {
    case REPL_AST_Name: return add_local(fn, t->v.Name.id);
    case REPL_AST_Tuple:
    case REPL_AST_List:
        for (int i = 0; i < t->v.List.elts.n; i++)
            if (collect_target(fn, t->v.List.elts.items[i]) < 0) return -1;
        return 0;
    case REPL_AST_Starred: return collect_target(fn, t->v.Starred.value);
    default: return 0;
    }
}

static int collect_stmt(func_obj *fn, const repl_node *s, nmap *nonlocals)
{
    switch (s->kind) {
    case REPL_AST_FunctionDef:
    case REPL_AST_ClassDef: return add_local(fn, s->v.FunctionDef.bound);
    case REPL_AST_Assign:
        for (int i = 0; i < s->v.Assign.targets.n; i++)
            if (collect_target(fn, s->v.Assign.targets.items[i]) < 0) return -1;
        return 0;
    case REPL_AST_AugAssign: return collect_target(fn, s->v.AugAssign.target);
    case REPL_AST_AnnAssign: return collect_target(fn, s->v.AnnAssign.target);
    case REPL_AST_Delete:
        for (int i = 0; i < s->v.Delete.targets.n; i++)
            if (collect_target(fn, s->v.Delete.targets.items[i]) < 0) return -1;
        return 0;
    case REPL_AST_For:
        if (collect_target(fn, s->v.For.target) < 0) return -1;
        return collect_locals(fn, &s->v.For.body, nonlocals) | collect_locals(fn, &s->v.For.orelse, nonlocals);
    case REPL_AST_While:
    case REPL_AST_If:
        return collect_locals(fn, &s->v.While.body, nonlocals) | collect_locals(fn, &s->v.While.orelse, nonlocals);
    case REPL_AST_With:
        for (int i = 0; i < s->v.With.items.n; i++)
            if (collect_target(fn, s->v.With.items.items[i]->v.withitem.optional_vars) < 0) return -1;
        return collect_locals(fn, &s->v.With.body, nonlocals);
    case REPL_AST_Try:
        for (int i = 0; i < s->v.Try.handlers.n; i++) {
            const repl_node *h = s->v.Try.handlers.items[i];
            if (h->v.ExceptHandler.name && add_local(fn, h->v.ExceptHandler.name) < 0) return -1;
            if (collect_locals(fn, &h->v.ExceptHandler.body, nonlocals) < 0) return -1;
        }
        return collect_locals(fn, &s->v.Try.body, nonlocals) | collect_locals(fn, &s->v.Try.orelse, nonlocals) |
               collect_locals(fn, &s->v.Try.finalbody, nonlocals);
    case REPL_AST_Import:
    case REPL_AST_ImportFrom: {
        const repl_node_list *names = s->kind == REPL_AST_Import ? &s->v.Import.names : &s->v.ImportFrom.names;
        for (int i = 0; i < names->n; i++) {
            const repl_node *a = names->items[i];
            char first[256];
            const char *nm = a->v.alias.asname ? a->v.alias.asname : a->v.alias.name;
            snprintf(first, sizeof first, "%.*s", (int)strcspn(nm, "."), nm);
            if (add_local(fn, first) < 0) return -1;
        }
        return 0;
    }
    case REPL_AST_Match:
        for (int i = 0; i < s->v.Match.cases.n; i++) {
            const repl_node *c = s->v.Match.cases.items[i];
            if (repl_match_names(c->v.match_case.pattern, add_local_cb, fn) < 0 ||
                collect_locals(fn, &c->v.match_case.body, nonlocals) < 0)
                return -1;
        }
        return 0;
    case REPL_AST_Global:
        for (int i = 0; i < s->v.Global.names.n; i++)
            if (repl_nmap_set(&fn->globals_decl, s->v.Global.names.items[i], nn_none()) < 0) return -1;
        return 0;
    case REPL_AST_Nonlocal:
        for (int i = 0; i < s->v.Global.names.n; i++)
            if (repl_nmap_set(nonlocals, s->v.Global.names.items[i], nn_none()) < 0) return -1;
        return 0;
    default: return 0;
    }
}

static int collect_locals(func_obj *fn, const repl_node_list *body, nmap *nonlocals)
{
    for (int i = 0; i < body->n; i++)
        if (collect_stmt(fn, body->items[i], nonlocals) < 0) return -1;
    return 0;
}

/* eval() for func_attrs.c's annotations: ctx is the frame. */
static nn_object *eval_ann(void *ctx, const repl_node *n) { return eval((frame *)ctx, n); }

/* Lists scope e among the captured ones (the interpreter empties them when it is
   freed, breaking function <-> scope cycles) and tracks it for the collector. */
static int capture_scope(scope *e)
{
    if (e->reg_head) return 0;
    repl_interp *in = repl_current;
    e->reg_head = &in->captured;
    e->reg_next = in->captured;
    if (in->captured) in->captured->reg_prev = e;
    in->captured = e;
    return nn_gc_track(&e->ob); /* a captured scope can be in a cycle */
}

/* The scope a lambda made inside comprehension c (and those around it) closes
   over (borrowed): each comprehension's variables move into a scope of their own,
   chained outward to env, the environment of the frame the comprehensions run in.
   NULL after an error, or when there is no comprehension and env is NULL. */
static scope *capture_comp_scopes(comp_scope *c, scope *env)
{
    if (!c) return env;
    if (c->captured) return c->captured;
    scope *parent = capture_comp_scopes(c->up, env);
    if (c->up && !parent) return NULL;
    scope *s = repl_scope_new(parent);
    if (!s) return NULL;
    uint32_t pos = 0;
    const char *k;
    nn_object *v;
    while (repl_nmap_next(&c->own, &pos, &k, &v))
        if (repl_nmap_set(&s->map, k, v) < 0) {
            NN_RELEASE(s);
            return NULL;
        }
    repl_nmap_clear(&c->own);
    c->captured = s;
    return s;
}

/* A new function object for a def or lambda node evaluated in frame f. */
static nn_object *make_function(frame *f, const repl_node *n)
{
    bool lambda = n->kind == REPL_AST_Lambda;
    const repl_node *args = lambda ? n->v.Lambda.args : n->v.FunctionDef.args;
    const repl_node_list *defs = &args->v.arguments.defaults, *kwdefs = &args->v.arguments.kw_defaults;
    func_obj *fn = nn_calloc(1, sizeof *fn);
    if (!fn) return NULL;
    nn_object_init(&fn->ob, &repl_function_type);
    fn->name = lambda ? "<lambda>" : n->v.FunctionDef.name;
    fn->args = args;
    fn->body_expr = lambda ? n->v.Lambda.body : NULL;
    fn->body = lambda ? NULL : &n->v.FunctionDef.body;
    fn->is_gen = !lambda && n->v.FunctionDef.is_generator;
    fn->unit = f->unit;
    f->unit->refcount++;
    fn->env = capture_comp_scopes(f->comp, f->env);
    if (f->comp && !fn->env) {
        NN_RELEASE(fn);
        return NULL;
    }
    if (fn->env) NN_RETAIN(fn->env);
    /* the comprehensions' scopes, then the frame's */
    for (scope *e = fn->env; e; e = e == f->env ? NULL : e->parent)
        if (capture_scope(e) < 0) {
            NN_RELEASE(fn);
            return NULL;
        }
    nmap nonlocals = {0};
    if (defs->n) {
        fn->defaults = nn_calloc((size_t)defs->n, sizeof(nn_object *));
        if (!fn->defaults) goto fail;
        for (int i = 0; i < defs->n; i++) {
            fn->defaults[i] = eval(f, defs->items[i]);
            if (!fn->defaults[i]) goto fail;
            fn->n_defaults = i + 1;
        }
    }
    if (kwdefs->n) {
        fn->kwdefaults = nn_calloc((size_t)kwdefs->n, sizeof(nn_object *));
        if (!fn->kwdefaults) goto fail;
        for (int i = 0; i < kwdefs->n; i++)
            if (kwdefs->items[i] && !(fn->kwdefaults[i] = eval(f, kwdefs->items[i]))) goto fail;
    }
    if (repl_func_set_annotations(fn, n, f->unit->source, eval_ann, f) < 0 ||
        repl_func_set_qualname(fn, f->is_class ? f->qualname : f->fn ? repl_func_qualname(f->fn) : NULL,
                               f->fn && !f->is_class ? ".<locals>" : "") < 0)
        goto fail;
    /* parameters are locals; then the names the body binds */
    const repl_node_list *lists[3] = {&args->v.arguments.posonlyargs, &args->v.arguments.args,
                                      &args->v.arguments.kwonlyargs};
    for (int l = 0; l < 3; l++)
        for (int i = 0; i < lists[l]->n; i++)
            if (add_local(fn, lists[l]->items[i]->v.arg.arg) < 0) goto fail;
    if (args->v.arguments.vararg && add_local(fn, args->v.arguments.vararg->v.arg.arg) < 0) goto fail;
    if (args->v.arguments.kwarg && add_local(fn, args->v.arguments.kwarg->v.arg.arg) < 0) goto fail;
    if (fn->body && collect_locals(fn, fn->body, &nonlocals) < 0) goto fail;
    for (int i = 0; !lambda && i < n->v.FunctionDef.walrus_targets.n; i++)
        if (add_local(fn, n->v.FunctionDef.walrus_targets.items[i]->v.Name.id) < 0) goto fail;
    {
        uint32_t pos = 0;
        const char *k;
        nn_object *v;
        while (repl_nmap_next(&fn->globals_decl, &pos, &k, &v)) repl_nmap_del(&fn->locals, k);
        pos = 0;
        while (repl_nmap_next(&nonlocals, &pos, &k, &v)) repl_nmap_del(&fn->locals, k);
    }
    repl_nmap_clear(&nonlocals);
    if (nn_gc_track(&fn->ob) < 0) goto fail;
    return &fn->ob;
fail:
    repl_nmap_clear(&nonlocals);
    NN_RELEASE(fn);
    return NULL;
}

/* ------------------------------------------------------------------ super */

typedef struct super_obj {
    nn_object ob;
    class_obj *start;    /* borrowed via owner: lookup starts at its base */
    nn_object *self;     /* owned */
} super_obj;

static void super_dealloc(nn_object *self)
{
    NN_RELEASE(((super_obj *)self)->self);
    nn_free(self);
}

static nn_object *super_getattr(nn_object *obj, const char *name);
const nn_type repl_super_type = {.name = "super", .dealloc = super_dealloc, .getattr = super_getattr};

/* ------------------------------------------------------------------ names */

/* The module (a module_obj) whose code f runs: the module written in the language
   that defined its function or class, or whose body runs; NULL for __main__. */
static nn_object *module_of(frame *f)
{
    for (scope *s = f->sc ? f->sc : f->env; s; s = s->parent)
        if (s->module) return s->module;
    return NULL;
}

/* The globals of the code running in f: its module's dict (a `global` statement
   there names the module's variables), else __main__'s. */
static nmap *globals_of(frame *f)
{
    nn_object *m = module_of(f);
    return m ? &((module_obj *)m)->dict : &repl_current->globals;
}

nn_object *repl_current_module(void) { return repl_current->top ? module_of(repl_current->top) : NULL; }

static nn_object *lookup_global(frame *f, const char *name, repl_name_cache *c)
{
    nn_object *v = repl_nmap_get_cached(globals_of(f), name, c);
    if (!v) {
        v = repl_nmap_get_cached(&repl_current->builtins, name, c);
        if (v && name[0] == 'm' && v->type == &nn_cfunction_type && strcmp(name, "memoryview") == 0)
            return repl_memoryview_type(); /* the class, loaded on first sight (print(memoryview)) */
    }
    if (!v) {
        repl_raise_exc(EXC_NameError, "name '%s' is not defined", name);
        return NULL;
    }
    return nn_retain(v);
}

/* The value of name where the frame sees it (new reference). c: the naming
   node's lookup memo. */
static nn_object *load_name_at(frame *f, const char *name, repl_name_cache *c)
{
    for (comp_scope *cs = f->comp; cs; cs = cs->up) {
        nn_object *v = repl_nmap_get_cached(comp_map(cs), name, c);
        if (v) return nn_retain(v);
    }
    nn_object *v = repl_nmap_get_cached(f->locals, name, c);
    if (v) return nn_retain(v);
    if (f->fn) {
        if (repl_nmap_get_hashed(&f->fn->locals, name, c)) {
            repl_raise_exc(EXC_UnboundLocalError, "cannot access local variable '%s' where it is not associated with a value",
                      name);
            return NULL;
        }
        if (repl_nmap_get_hashed(&f->fn->globals_decl, name, c)) return lookup_global(f, name, c);
    }
    for (scope *s = f->is_class ? f->env : (f->sc ? f->sc->parent : NULL); s; s = s->parent) {
        v = repl_nmap_get_cached(repl_scope_names(s), name, c);
        if (v) return nn_retain(v);
    }
    return lookup_global(f, name, c);
}

static int store_name_at(frame *f, const char *name, nn_object *value, repl_name_cache *c)
{
    if (f->ns) { /* a class body under __prepare__: its mapping's __setitem__ sees each name */
        nn_object *k = nn_str_new(name);
        int rc = k ? repl_set_item(f->ns, k, value) : -1;
        NN_RELEASE(k);
        if (rc < 0) return -1;
    }
    if (f->fn && !repl_nmap_get_hashed(&f->fn->locals, name, c)) {
        if (repl_nmap_get_hashed(&f->fn->globals_decl, name, c))
            return repl_nmap_set_cached(globals_of(f), name, value, c);
        /* nonlocal: the nearest enclosing scope that has it */
        for (scope *s = f->sc->parent; s; s = s->parent)
            if (repl_nmap_get_hashed(repl_scope_names(s), name, c))
                return repl_nmap_set_cached(repl_scope_names(s), name, value, c);
    }
    return repl_nmap_set_cached(f->locals, name, value, c);
}

static int store_name(frame *f, const char *name, nn_object *value)
{
    repl_name_cache c = {0};
    return store_name_at(f, name, value, &c);
}

static int del_name(frame *f, const char *name)
{
    nmap *m = f->locals;
    if (f->fn && repl_nmap_get(&f->fn->globals_decl, name)) m = globals_of(f);
    if (!repl_nmap_del(m, name)) return repl_raise_exc(EXC_NameError, "name '%s' is not defined", name);
    return 0;
}

/* ------------------------------------------------------------------ truth, repr, hash */

int repl_truth(nn_object *o)
{
    const nn_type *t = o->type;
    if (t == &nn_bool_type) return nn_int_value(o) != 0;
    if (t == &nn_none_type) return 0;
    if (t == &nn_int_type) return nn_int_value(o) != 0;
    if (t == &repl_bigint_type) return 1; /* never 0 */
    if (t == &nn_float_type) return nn_float_value(o) != 0.0;
    if (t == &nn_complex_type) {
        double re, im;
        nn_complex_parts(o, &re, &im);
        return re != 0.0 || im != 0.0;
    }
    if (t == &nn_str_type) return nn_str_len(o) != 0;
    if (t == &nn_list_type) return nn_list_len(o) != 0;
    if (is_tuple_like(o)) return nn_tuple_len(o) != 0;
    if (t == &nn_dict_type) return nn_dict_len(o) != 0;
    if (t == &repl_set_type) return nn_dict_len(((set_obj *)o)->d) != 0;
    if (t == &repl_range_type) return repl_range_len((range_obj *)o) != 0;
    if (t == &repl_instance_type) {
        class_obj *c = ((instance_obj *)o)->cls;
        if (repl_class_lookup(c, "__bool__")) {
            nn_object *r = repl_call_method(o, "__bool__", NULL, 0);
            if (!r) return -1;
            int v = repl_truth(r);
            NN_RELEASE(r);
            return v;
        }
        if (repl_class_lookup(c, "__len__")) {
            int64_t n;
            if (repl_length(o, &n) < 0) return -1;
            return n != 0;
        }
        if (((instance_obj *)o)->value) return repl_truth(((instance_obj *)o)->value);
        return 1;
    }
    const repl_native_ops *ops = repl_get_native_ops();
    if (is_native(o) && !nn_is_module(o) && ops && ops->truth) {
        int r = ops->truth(o);
        if (r >= 0 || nn_error_current()) return r;
    }
    return 1;
}

/* A language method of an instance's class (borrowed), or NULL: a def, or a C
   function that a standard library module put in its class (typing's forms). */
static nn_object *user_method(nn_object *o, const char *name)
{
    class_obj *c = o->type == &repl_instance_type ? ((instance_obj *)o)->cls : repl_module_lang_class(o);
    if (!c) return NULL;
    nn_object *m = repl_class_lookup(c, name);
    if (m && c->vbase && m->type == &nn_cfunction_type && repl_nmap_get(&c->vbase->dict, name) == m) return NULL;
    return m && (m->type == &repl_function_type || m->type == &nn_cfunction_type || m->type == &repl_mdescr_type) ? m : NULL;
}

nn_object *repl_meta_method(nn_object *o, const char *name)
{
    class_obj *meta = o->type == &repl_class_type ? ((class_obj *)o)->meta : NULL;
    nn_object *m = meta ? repl_class_lookup(meta, name) : NULL;
    return m && m->type == &repl_function_type ? repl_method_new(m, o) : NULL;
}

nn_object *repl_call_meta(nn_object *o, const char *name, nn_object *const *args, int n, bool *found)
{
    nn_object *m = repl_meta_method(o, name);
    *found = m != NULL;
    nn_object *r = m ? repl_call_object(m, args, n, NULL) : NULL;
    NN_RELEASE(m);
    return r;
}

static char *str_result(nn_object *r, const char *what)
{
    if (!r) return NULL;
    char *s = NULL;
    if (nn_is_str(r)) s = nn_strdup(nn_str_cstr(r));
    else repl_raise_exc(EXC_TypeError, "%s returned non-string (type %s)", what, repl_value_type_name(r));
    NN_RELEASE(r);
    return s;
}

char *repl_obj_repr(nn_object *o)
{
    if (o->type == &repl_instance_type) {
        instance_obj *inst = (instance_obj *)o;
        if (user_method(o, "__repr__")) return str_result(repl_call_method(o, "__repr__", NULL, 0), "__repr__");
        if (repl_is_exception(o)) {
            nn_object *args = repl_nmap_get(&inst->attrs, "args");
            sbuf b = {0};
            repl_sb_puts(&b, inst->cls->name);
            if (args && args->type == &nn_tuple_type && nn_tuple_len(args) == 1) {
                repl_sb_puts(&b, "(");
                repl_sb_take(&b, repl_obj_repr(nn_tuple_get(args, 0)));
                repl_sb_puts(&b, ")");
            } else if (args) repl_sb_take(&b, repl_obj_repr(args));
            else repl_sb_puts(&b, "()");
            return repl_sb_finish(&b);
        }
        if (inst->value) return repl_builtin_sub_repr(o);
        sbuf b = {0};
        repl_sb_printf(&b, "<%s.%s object at %p>", repl_class_module(inst->cls), repl_class_qualname(inst->cls), (void *)o);
        return repl_sb_finish(&b);
    }
    if (nn_is_module(o) && user_method(o, "__repr__")) return str_result(repl_call_method(o, "__repr__", NULL, 0), "__repr__");
    if (o->type == &repl_class_type && ((class_obj *)o)->meta) {
        bool found;
        nn_object *r = repl_call_meta(o, "__repr__", NULL, 0, &found);
        if (found) return str_result(r, "__repr__");
    }
    return nn_repr(o);
}

char *repl_obj_str(nn_object *o)
{
    if (o->type == &nn_str_type) return nn_strdup(nn_str_cstr(o));
    if (o->type == &repl_instance_type) {
        if (user_method(o, "__str__")) return str_result(repl_call_method(o, "__str__", NULL, 0), "__str__");
        if (repl_is_exception(o)) return repl_exc_str(o);
        nn_object *v = ((instance_obj *)o)->value;
        if (v && nn_is_str(v)) return nn_strdup(nn_str_cstr(v)); /* str.__str__ */
        return repl_obj_repr(o);
    }
    if (o->type == &nn_float_type || o->type == &nn_int_type || o->type == &nn_list_type ||
        o->type == &nn_tuple_type || o->type == &nn_dict_type)
        return nn_repr(o);
    const repl_native_ops *ops = repl_get_native_ops();
    if (is_native(o) && ops && ops->str) {
        char *s = ops->str(o);
        if (s || nn_error_current()) return s;
    }
    return repl_obj_repr(o);
}

nn_object *repl_obj_str_object(nn_object *o)
{
    if (o->type == &nn_str_type) return nn_retain(o);
    nn_object *v = o->type == &repl_instance_type ? ((instance_obj *)o)->value : NULL;
    if (v && nn_is_str(v) && !user_method(o, "__str__") && !repl_is_exception(o)) return nn_retain(v);
    char *s = repl_obj_str(o);
    nn_object *r = s ? nn_str_new(s) : NULL;
    nn_free(s);
    return r;
}

int64_t repl_obj_hash(nn_object *o)
{
    if (o->type == &repl_instance_type) {
        if (user_method(o, "__hash__")) {
            nn_object *r = repl_call_method(o, "__hash__", NULL, 0);
            if (!r) return -1;
            int64_t h = is_intlike(r) ? nn_int_value(r) & INT64_MAX : 0;
            NN_RELEASE(r);
            return h;
        }
        nn_object *hv = repl_class_lookup(((instance_obj *)o)->cls, "__hash__");
        if (user_method(o, "__eq__") || (hv && nn_is_none(hv))) {
            repl_raise_exc(EXC_TypeError, "unhashable type: '%s'", repl_value_type_name(o));
            return -1;
        }
        nn_object *v = ((instance_obj *)o)->value;
        if (v && (v->type == &nn_list_type || v->type == &nn_dict_type || (v->type == &repl_set_type && !((set_obj *)v)->frozen))) {
            repl_raise_exc(EXC_TypeError, "unhashable type: '%s'", repl_value_type_name(o));
            return -1;
        }
        if (v) return repl_obj_hash(v);
        return (int64_t)(((uintptr_t)o >> 4) & INT64_MAX);
    }
    if (o->type == &repl_set_type) return o->type->hash(o);
    int64_t h = nn_hash(o);
    if (h == -1 && nn_error_current() == NN_ERR_TYPE) {
        char *m = nn_strdup(nn_error_message());
        nn_error_clear();
        repl_raise_exc(EXC_TypeError, "%s", m ? m : "unhashable type");
        nn_free(m);
    }
    return h;
}

/* ------------------------------------------------------------------ arithmetic */

static const char *op_symbol(repl_binop op)
{
    static const char *s[] = {"+", "-", "*", "/", "//", "%", "** or pow()", "@", "<", "<=", ">", ">=", "==", "!=", "&", "|", "^"};
    return s[op];
}

static double py_fmod(double a, double b)
{
    double m = fmod(a, b);
    if (m != 0.0) {
        if ((b < 0) != (m < 0)) m += b;
    } else m = copysign(0.0, b);
    return m;
}

/* an int64 result that overflowed: the big int's (bigint.c) */
static nn_object *big_binary(repl_binop op, nn_object *a, nn_object *b)
{
    bool handled;
    return repl_bigint_binary(op, a, b, &handled);
}

static nn_object *int_pow(int64_t a, int64_t b, nn_object *ao, nn_object *bo)
{
    if (b < 0) {
        if (a == 0) {
            repl_raise_exc(EXC_ZeroDivisionError, "0.0 cannot be raised to a negative power");
            return NULL;
        }
        return nn_float_new(pow((double)a, (double)b));
    }
    int64_t r = 1, base = a;
    while (b) {
        if (b & 1)
            if (__builtin_mul_overflow(r, base, &r)) return big_binary(REPL_POW, ao, bo);
        b >>= 1;
        if (b && __builtin_mul_overflow(base, base, &base)) return big_binary(REPL_POW, ao, bo);
    }
    return nn_int_new(r);
}

static nn_object *num_binary(repl_binop op, nn_object *a, nn_object *b)
{
    if (is_intlike(a) && is_intlike(b)) {
        int64_t x = nn_int_value(a), y = nn_int_value(b), r;
        switch (op) {
        case REPL_ADD: if (__builtin_add_overflow(x, y, &r)) return big_binary(op, a, b); return nn_int_new(r);
        case REPL_SUB: if (__builtin_sub_overflow(x, y, &r)) return big_binary(op, a, b); return nn_int_new(r);
        case REPL_MUL: if (__builtin_mul_overflow(x, y, &r)) return big_binary(op, a, b); return nn_int_new(r);
        case REPL_DIV:
            if (y == 0) {
                repl_raise_exc(EXC_ZeroDivisionError, "division by zero");
                return NULL;
            }
            if (x > (1LL << 53) || x < -(1LL << 53) || y > (1LL << 53) || y < -(1LL << 53))
                return big_binary(op, a, b); /* correctly rounded */
            return nn_float_new((double)x / (double)y);
        case REPL_FLOORDIV:
        case REPL_MOD: {
            if (y == 0) {
                repl_raise_exc(EXC_ZeroDivisionError, "integer %s by zero", op == REPL_MOD ? "modulo" : "division or modulo");
                return NULL;
            }
            if (x == INT64_MIN && y == -1) return op == REPL_MOD ? nn_int_new(0) : big_binary(op, a, b);
            int64_t q = x / y, m = x % y;
            if (m != 0 && ((m < 0) != (y < 0))) {
                q--;
                m += y;
            }
            return nn_int_new(op == REPL_MOD ? m : q);
        }
        case REPL_POW: return int_pow(x, y, a, b);
        case REPL_AND_BITS: return a->type == &nn_bool_type && b->type == &nn_bool_type ? nn_bool_new(x & y) : nn_int_new(x & y);
        case REPL_OR_BITS: return a->type == &nn_bool_type && b->type == &nn_bool_type ? nn_bool_new(x | y) : nn_int_new(x | y);
        case REPL_XOR_BITS: return a->type == &nn_bool_type && b->type == &nn_bool_type ? nn_bool_new(x ^ y) : nn_int_new(x ^ y);
        default: break;
        }
        return NULL;
    }
    double x = nn_float_value(a), y = nn_float_value(b);
    switch (op) {
    case REPL_ADD: return nn_float_new(x + y);
    case REPL_SUB: return nn_float_new(x - y);
    case REPL_MUL: return nn_float_new(x * y);
    case REPL_DIV:
        if (y == 0) {
            repl_raise_exc(EXC_ZeroDivisionError, "float division by zero");
            return NULL;
        }
        return nn_float_new(x / y);
    case REPL_FLOORDIV:
        if (y == 0) {
            repl_raise_exc(EXC_ZeroDivisionError, "float floor division by zero");
            return NULL;
        }
        return nn_float_new(floor(x / y));
    case REPL_MOD:
        if (y == 0) {
            repl_raise_exc(EXC_ZeroDivisionError, "float modulo");
            return NULL;
        }
        return nn_float_new(py_fmod(x, y));
    case REPL_POW:
        if (x == 0 && y < 0) {
            repl_raise_exc(EXC_ZeroDivisionError, "0.0 cannot be raised to a negative power");
            return NULL;
        }
        if (x < 0 && y != floor(y) && isfinite(y)) { /* as CPython's: the complex power */
            nn_object *cx = nn_complex_new(x, 0), *cy = cx ? nn_float_new(y) : NULL;
            bool handled = false;
            nn_object *r = cy ? repl_complex_binary(REPL_POW, cx, cy, &handled) : NULL;
            NN_RELEASE(cx);
            NN_RELEASE(cy);
            return r;
        }
        {
            double r = pow(x, y);
            if (isinf(r) && !isinf(x) && !isinf(y)) {
                repl_raise_exc(EXC_OverflowError, "(34, 'Numerical result out of range')");
                return NULL;
            }
            return nn_float_new(r);
        }
    default: return NULL;
    }
}

static nn_object *seq_concat(nn_object *a, nn_object *b)
{
    if (a->type == &nn_str_type) {
        size_t na = nn_str_len(a), nb = nn_str_len(b);
        char *buf = nn_malloc(na + nb + 1);
        if (!buf) return NULL;
        memcpy(buf, nn_str_cstr(a), na);
        memcpy(buf + na, nn_str_cstr(b), nb);
        nn_object *r = nn_str_from(buf, na + nb);
        nn_free(buf);
        return r;
    }
    if (a->type == &nn_list_type) {
        nn_object *r = nn_list_new(nn_list_len(a) + nn_list_len(b));
        for (size_t i = 0; r && i < nn_list_len(a); i++) nn_list_append(r, nn_list_get(a, i));
        for (size_t i = 0; r && i < nn_list_len(b); i++) nn_list_append(r, nn_list_get(b, i));
        return r;
    }
    size_t na = nn_tuple_len(a), nb = nn_tuple_len(b);
    nn_object *r = nn_tuple_new(na + nb);
    for (size_t i = 0; r && i < na; i++) nn_tuple_set(r, i, nn_retain(nn_tuple_get(a, i)));
    for (size_t i = 0; r && i < nb; i++) nn_tuple_set(r, na + i, nn_retain(nn_tuple_get(b, i)));
    return r;
}

static nn_object *seq_repeat(nn_object *s, int64_t n)
{
    if (n < 0) n = 0;
    if (s->type == &nn_str_type) {
        size_t len = nn_str_len(s);
        if (len && (uint64_t)n > (uint64_t)INT64_MAX / len) { /* past Py_ssize_t, as CPython */
            repl_raise_exc(EXC_OverflowError, "repeated string is too long");
            return NULL;
        }
        if (len && (uint64_t)n > (((uint64_t)1 << 40) - 1) / len) { /* 1 TiB: see the list case below */
            nn_error_set(NN_ERR_MEMORY, "%s", ""); /* CPython's MemoryError has no message */
            return NULL;
        }
        size_t total = len * (size_t)n;
        char *buf = nn_malloc(total + 1);
        if (!buf) return NULL;
        /* by doubling, checking Ctrl-C between copies */
        size_t done = total ? len : 0;
        if (done) memcpy(buf, nn_str_cstr(s), len);
        while (done < total) {
            size_t k = done < total - done ? done : total - done;
            if (k > ((size_t)1 << 24)) k = (size_t)1 << 24;
            memcpy(buf + done, buf, k);
            done += k;
            if (nn_check_interrupt() < 0) {
                nn_free(buf);
                return NULL;
            }
        }
        nn_object *r = nn_str_from(buf, total);
        nn_free(buf);
        return r;
    }
    bool list = s->type == &nn_list_type;
    size_t len = list ? nn_list_len(s) : nn_tuple_len(s);
    /* past 2**37 items (1 TiB of item pointers, more than any machine here has and
       the most AddressSanitizer serves) is MemoryError without asking the allocator */
    if (len && (uint64_t)n > ((uint64_t)1 << 37) / len) {
        nn_error_set(NN_ERR_MEMORY, "%s", "");
        return NULL;
    }
    size_t total = len * (size_t)n;
    nn_object *r = list ? nn_list_new(total) : nn_tuple_new(total);
    for (size_t i = 0; r && i < total; i++) {
        if (list)
            nn_list_append(r, nn_list_get(s, i % len));
        else
            nn_tuple_set(r, i, nn_retain(nn_tuple_get(s, i % len)));
        if ((i & 0xfffff) == 0xfffff && nn_check_interrupt() < 0) NN_SET(r, NULL); /* stops at Ctrl-C */
    }
    return r;
}

static int compare_seq(nn_object *a, nn_object *b, repl_binop op, int *out);

static nn_object *user_binary(repl_binop op, nn_object *a, nn_object *b, bool *handled)
{
    static const char *names[] = {"__add__", "__sub__", "__mul__", "__truediv__", "__floordiv__", "__mod__",
                                  "__pow__", "__matmul__", "__lt__", "__le__", "__gt__", "__ge__", "__eq__",
                                  "__ne__", "__and__", "__or__", "__xor__"};
    static const char *rnames[] = {"__radd__", "__rsub__", "__rmul__", "__rtruediv__", "__rfloordiv__", "__rmod__",
                                   "__rpow__", "__rmatmul__", "__gt__", "__ge__", "__lt__", "__le__", "__eq__",
                                   "__ne__", "__rand__", "__ror__", "__rxor__"};
    *handled = false;
    if (user_method(a, names[op])) {
        nn_object *r = repl_call_method(a, names[op], &b, 1);
        if (!r) {
            *handled = true;
            return NULL;
        }
        if (!repl_is_not_implemented(r)) {
            *handled = true;
            return r;
        }
        NN_RELEASE(r);
    }
    if (user_method(b, rnames[op])) {
        nn_object *r = repl_call_method(b, rnames[op], &a, 1);
        if (r && repl_is_not_implemented(r)) { /* neither side: the operands' TypeError */
            NN_RELEASE(r);
            return NULL;
        }
        *handled = true;
        return r;
    }
    return NULL;
}

nn_object *repl_binary_op(repl_binop op, nn_object *a, nn_object *b)
{
    const nn_type *ta = a->type, *tb = b->type;
    if (ta == &repl_bigint_type || tb == &repl_bigint_type) {
        bool big_handled;
        nn_object *r = repl_bigint_binary(op, a, b, &big_handled);
        if (big_handled) return r;
    }
    if ((nn_is_complex(a) || nn_is_complex(b)) && repl_complex_operand(a) && repl_complex_operand(b)) {
        bool handled;
        nn_object *r = repl_complex_binary(op, a, b, &handled);
        if (handled) return r;
        goto unsupported_or_order;
    }
    if (is_num(a) && is_num(b)) {
        if (op >= REPL_LT && op <= REPL_NE) {
            int r;
            double x, y;
            if (is_intlike(a) && is_intlike(b)) {
                int64_t i = nn_int_value(a), j = nn_int_value(b);
                r = op == REPL_LT ? i < j : op == REPL_LE ? i <= j : op == REPL_GT ? i > j : op == REPL_GE ? i >= j
                    : op == REPL_EQ ? i == j : i != j;
            } else {
                x = nn_float_value(a);
                y = nn_float_value(b);
                if ((is_intlike(a) || is_intlike(b)) && fabs(x) >= 9007199254740992.0 &&
                    fabs(y) >= 9007199254740992.0 && isfinite(x) && isfinite(y))
                    return big_binary(op, a, b); /* an int beyond 2**53 against a float: exactly, as CPython */
                r = op == REPL_LT ? x < y : op == REPL_LE ? x <= y : op == REPL_GT ? x > y : op == REPL_GE ? x >= y
                    : op == REPL_EQ ? x == y : x != y;
            }
            return nn_bool_new(r);
        }
        if (op == REPL_MATMUL || ((op == REPL_AND_BITS || op == REPL_OR_BITS || op == REPL_XOR_BITS) &&
                                  (!is_intlike(a) || !is_intlike(b))))
            goto unsupported;
        return num_binary(op, a, b);
    }
    if (op == REPL_EQ || op == REPL_NE) {
        /* a class's own __eq__/__ne__ gives its result as is (numpy's elementwise ==), as CPython */
        const char *nm = op == REPL_EQ ? "__eq__" : "__ne__";
        if ((a->type == &repl_instance_type && user_method(a, nm)) ||
            (b->type == &repl_instance_type && user_method(b, nm))) {
            bool handled;
            nn_object *r = user_binary(op, a, b, &handled);
            if (handled && (!r || !repl_is_not_implemented(r))) return r;
            NN_RELEASE(r);
        }
        if (a->type == &repl_instance_type || b->type == &repl_instance_type || (!is_native(a) && !is_native(b)) ||
            (is_tuple_like(a) && is_tuple_like(b))) {
            int e = repl_equal(a, b);
            if (e < 0) return NULL;
            return nn_bool_new(op == REPL_EQ ? e : !e);
        }
    }
    if (op == REPL_MOD && ta == &nn_str_type) return repl_str_percent(a, b);  /* str.__mod__ comes first */
    bool handled;
    if (a->type == &repl_instance_type || b->type == &repl_instance_type || nn_is_module(a) || nn_is_module(b)) {
        nn_object *r = user_binary(op, a, b, &handled);
        if (handled) return r;
        if (repl_base_value(a) || repl_base_value(b)) return repl_binary_op(op, repl_unwrap_value(a), repl_unwrap_value(b));
    }
    if (is_native(a) || is_native(b)) {
        const repl_native_ops *ops = repl_get_native_ops();
        if (ops && ops->binary) {
            nn_object *r = ops->binary(op, a, b);
            if (r || nn_error_current()) return r;
        }
        /* a tuple under a native type the bindings leave alone (a torch.return_types
           result) is a plain tuple to the sequence operators: r + (1,), (1,) + r, r * 2 */
        bool sub_a = is_tuple_like(a) && ta != &nn_tuple_type, sub_b = is_tuple_like(b) && tb != &nn_tuple_type;
        if ((sub_a || sub_b) && (is_tuple_like(a) || is_intlike(a)) && (is_tuple_like(b) || is_intlike(b))) {
            nn_object *pa = sub_a ? repl_plain_tuple(a) : nn_retain(a), *pb = pa ? (sub_b ? repl_plain_tuple(b) : nn_retain(b)) : NULL;
            nn_object *r = pb ? repl_binary_op(op, pa, pb) : NULL;
            NN_RELEASE(pa);
            NN_RELEASE(pb);
            return r;
        }
        if (op == REPL_EQ || op == REPL_NE) {
            int e = a == b;
            return nn_bool_new(op == REPL_EQ ? e : !e);
        }
        goto unsupported;
    }
    if (op == REPL_ADD && ta == tb && (ta == &nn_str_type || ta == &nn_list_type || ta == &nn_tuple_type))
        return seq_concat(a, b);
    if (op == REPL_MUL) {
        if ((ta == &nn_str_type || ta == &nn_list_type || ta == &nn_tuple_type) && is_intlike(b))
            return seq_repeat(a, nn_int_value(b));
        if ((tb == &nn_str_type || tb == &nn_list_type || tb == &nn_tuple_type) && is_intlike(a))
            return seq_repeat(b, nn_int_value(a));
    }
    if (op == REPL_MOD && ta == &nn_str_type) return repl_str_percent(a, b);
unsupported_or_order:
    if (op >= REPL_LT && op <= REPL_GE) {
        int r;
        if (ta == tb && (ta == &nn_str_type || ta == &nn_list_type || ta == &nn_tuple_type)) {
            if (compare_seq(a, b, op, &r) < 0) return NULL;
            return nn_bool_new(r);
        }
        if (ta == tb && ta == &repl_set_type) {
            set_obj *x = (set_obj *)a, *y = (set_obj *)b;
            if (op == REPL_GT || op == REPL_GE) {
                set_obj *t = x;
                x = y;
                y = t;
            }
            size_t pos = 0;
            nn_object *k, *v;
            bool sub = true;
            while (nn_dict_next(x->d, &pos, &k, &v))
                if (!nn_dict_get(y->d, k)) sub = false;
            bool strict = op == REPL_LT || op == REPL_GT;
            return nn_bool_new(sub && (!strict || nn_dict_len(x->d) < nn_dict_len(y->d)));
        }
        static const char *cmp[] = {"<", "<=", ">", ">="};
        repl_raise_exc(EXC_TypeError, "'%s' not supported between instances of '%s' and '%s'", cmp[op - REPL_LT],
                  repl_value_type_name(a), repl_value_type_name(b));
        return NULL;
    }
    if (ta == &repl_dictview_type || tb == &repl_dictview_type) { /* d.keys() - s (dictview_ops.c) */
        bool handled;
        nn_object *r = repl_dictview_setop(op, a, b, &handled);
        if (handled) return r;
    }
    if (ta == &repl_set_type && tb == &repl_set_type &&
        (op == REPL_AND_BITS || op == REPL_OR_BITS || op == REPL_XOR_BITS || op == REPL_SUB)) {
        /* in CPython's order: a's table then b's; a ^ b starts from b's
           elements (CPython copies b, then adds or removes a's); a & b walks the
           smaller (b on a tie) and keeps its element objects (7.0 of {7.0} & {7}) */
        set_obj *x = (set_obj *)a, *y = (set_obj *)b;
        nn_object *r = repl_set_new(x->frozen);
        if (!r) return NULL;
        bool and_walks_a = nn_dict_len(y->d) > nn_dict_len(x->d);
        for (int pass = 0; pass < 2; pass++) {
            bool from_a = op == REPL_AND_BITS ? (pass == 0) == and_walks_a : (pass == 0) != (op == REPL_XOR_BITS);
            if (op == REPL_AND_BITS ? pass == 1 : !from_a && op != REPL_OR_BITS && op != REPL_XOR_BITS) continue;
            nn_object *elements = repl_set_elements(from_a ? a : b);
            if (!elements) goto set_fail;
            nn_object *other = from_a ? y->d : x->d;
            int rc = 0;
            for (size_t i = 0; rc == 0 && i < nn_list_len(elements); i++) {
                nn_object *k = nn_list_get(elements, i);
                bool in_other = nn_dict_get(other, k) != NULL;
                if (!in_other && nn_error_current()) rc = -1;
                bool keep = op == REPL_AND_BITS ? in_other : op == REPL_OR_BITS ? true : !in_other;
                if (rc == 0 && keep) rc = repl_set_add(r, k);
            }
            NN_RELEASE(elements);
            if (rc < 0) goto set_fail;
        }
        repl_set_adopt_table(r, repl_set_op_table(op, a, b, false)); /* the layout CPython's operation leaves */
        return r;
    set_fail:
        NN_RELEASE(r);
        return NULL;
    }
    if (op == REPL_OR_BITS && ta == &nn_dict_type && tb == &nn_dict_type) {
        /* an OrderedDict on either side makes an OrderedDict (its __or__ / __ror__) */
        nn_object *r = nn_dict_is_ordered(a) || nn_dict_is_ordered(b) ? nn_ordered_dict_new() : nn_dict_new(), *k, *v;
        size_t pos = 0;
        while (r && nn_dict_next(a, &pos, &k, &v))
            if (nn_dict_set(r, k, v) < 0) NN_SET(r, NULL);
        pos = 0;
        while (r && nn_dict_next(b, &pos, &k, &v))
            if (nn_dict_set(r, k, v) < 0) NN_SET(r, NULL);
        return r;
    }
unsupported:
    if (op == REPL_ADD && (ta == &nn_str_type || ta == &nn_list_type || ta == &nn_tuple_type)) {
        repl_raise_exc(EXC_TypeError, "can only concatenate %s (not \"%s\") to %s", ta->name, repl_value_type_name(b), ta->name);
        return NULL;
    }
    if (op == REPL_MUL && (ta == &nn_str_type || ta == &nn_list_type || ta == &nn_tuple_type || tb == &nn_str_type ||
                           tb == &nn_list_type || tb == &nn_tuple_type)) {
        repl_raise_exc(EXC_TypeError, "can't multiply sequence by non-int of type '%s'",
                  ta == &nn_str_type || ta == &nn_list_type || ta == &nn_tuple_type ? repl_value_type_name(b) : repl_value_type_name(a));
        return NULL;
    }
    repl_raise_exc(EXC_TypeError, "unsupported operand type(s) for %s: '%s' and '%s'", op_symbol(op), repl_value_type_name(a),
              repl_value_type_name(b));
    return NULL;
}

int repl_less(nn_object *a, nn_object *b)
{
    nn_object *r = repl_binary_op(REPL_LT, a, b);
    if (!r) return -1;
    int t = repl_truth(r);
    NN_RELEASE(r);
    return t;
}

static int compare_items(nn_object *a, nn_object *b, repl_binop op, int *out);

/* a < b (op) of two strings, lists or tuples, in *out; nested ones count against
   the recursion limit */
static int compare_seq(nn_object *a, nn_object *b, repl_binop op, int *out)
{
    if (nn_recursion_enter(" in comparison") < 0) return -1;
    int r = compare_items(a, b, op, out);
    nn_recursion_leave();
    return r;
}

static int compare_items(nn_object *a, nn_object *b, repl_binop op, int *out)
{
    if (a->type == &nn_str_type) {
        size_t na = nn_str_len(a), nb = nn_str_len(b);
        int c = memcmp(nn_str_cstr(a), nn_str_cstr(b), na < nb ? na : nb);
        if (c == 0) c = na < nb ? -1 : na > nb;
        *out = op == REPL_LT ? c < 0 : op == REPL_LE ? c <= 0 : op == REPL_GT ? c > 0 : c >= 0;
        return 0;
    }
    bool list = a->type == &nn_list_type;
    size_t na = list ? nn_list_len(a) : nn_tuple_len(a), nb = list ? nn_list_len(b) : nn_tuple_len(b);
    for (size_t i = 0; i < na && i < nb; i++) {
        nn_object *x = list ? nn_list_get(a, i) : nn_tuple_get(a, i), *y = list ? nn_list_get(b, i) : nn_tuple_get(b, i);
        int e = repl_equal(x, y);
        if (e < 0) return -1;
        if (!e) {
            nn_object *r = repl_binary_op(op, x, y);
            if (!r) return -1;
            *out = repl_truth(r);
            NN_RELEASE(r);
            return *out < 0 ? -1 : 0;
        }
    }
    *out = op == REPL_LT ? na < nb : op == REPL_LE ? na <= nb : op == REPL_GT ? na > nb : na >= nb;
    return 0;
}

static int equal_values(nn_object *a, nn_object *b);

/* a == b: 1, 0 or -1; nested containers count against the recursion limit */
int repl_equal(nn_object *a, nn_object *b)
{
    if (a == b) return 1;
    if (nn_recursion_enter(" in comparison") < 0) return -1;
    int r = equal_values(a, b);
    nn_recursion_leave();
    return r;
}

static int equal_values(nn_object *a, nn_object *b)
{
    /* element by element here, not in nn_equal: a dict or set inside compares as the language's ([{}] == [{}]) */
    if (is_tuple_like(a) && is_tuple_like(b)) {
        size_t n = nn_tuple_len(a);
        if (n != nn_tuple_len(b)) return 0;
        for (size_t i = 0; i < n; i++) {
            int e = repl_equal(nn_tuple_get(a, i), nn_tuple_get(b, i));
            if (e != 1) return e;
        }
        return 1;
    }
    if (a->type == &nn_list_type && b->type == &nn_list_type) {
        size_t n = nn_list_len(a);
        if (n != nn_list_len(b)) return 0;
        for (size_t i = 0; i < nn_list_len(a) && i < nn_list_len(b); i++) { /* an __eq__ may shorten either list */
            int e = repl_equal(nn_list_get(a, i), nn_list_get(b, i));
            if (e != 1) return e;
        }
        return nn_list_len(a) == nn_list_len(b);
    }
    if (user_method(a, "__eq__") || user_method(b, "__eq__")) {
        bool handled;
        nn_object *r = user_binary(REPL_EQ, a, b, &handled);
        if (!handled) return a == b;
        if (!r) return -1;
        int t = repl_truth(r);
        NN_RELEASE(r);
        return t;
    }
    if (repl_base_value(a) || repl_base_value(b)) return repl_equal(repl_unwrap_value(a), repl_unwrap_value(b));
    /* object.__eq__: identity (nn_equal would come back here through the instance type's slot) */
    if (a->type == &repl_instance_type || b->type == &repl_instance_type) return 0;
    if (is_native(a) || is_native(b)) {
        if (is_num(a) || is_num(b) || nn_is_str(a) || nn_is_str(b)) {
            if (a->type != b->type && !(is_num(a) && is_num(b))) {
                /* a tensor == a number is elementwise; only plain values compare here */
                if (is_native(a) && is_native(b)) return 0;
            }
        }
        const repl_native_ops *ops = repl_get_native_ops();
        if (ops && ops->binary && (nn_is_tensor(a) || nn_is_tensor(b))) {
            nn_object *r = ops->binary(REPL_EQ, a, b);
            if (!r) return nn_error_current() ? -1 : 0;
            int t = repl_truth(r);
            NN_RELEASE(r);
            return t;
        }
    }
    if (a->type == &nn_dict_type && b->type == &nn_dict_type) {
        if (nn_dict_len(a) != nn_dict_len(b)) return 0;
        /* two OrderedDicts are equal only with their keys in the same order */
        bool ordered = nn_dict_is_ordered(a) && nn_dict_is_ordered(b);
        size_t pos = 0, pos_b = 0;
        nn_object *k, *v, *kb;
        while (nn_dict_next(a, &pos, &k, &v)) {
            if (ordered && nn_dict_next(b, &pos_b, &kb, NULL)) {
                int same = repl_equal(k, kb);
                if (same != 1) return same;
            }
            nn_object *w = nn_dict_get(b, k);
            if (!w) return nn_error_current() ? -1 : 0;
            int e = repl_equal(v, w);
            if (e != 1) return e;
        }
        return 1;
    }
    if (a->type == &repl_range_type && b->type == &repl_range_type) {
        range_obj *x = (range_obj *)a, *y = (range_obj *)b;
        int64_t n = repl_range_len(x);
        return n == repl_range_len(y) && (n == 0 || (x->start == y->start && (n == 1 || x->step == y->step)));
    }
    return nn_equal(a, b);
}

/* x in container: 1, 0 or -1 */
static int contains(nn_object *container, nn_object *x)
{
    const nn_type *t = container->type;
    if (t == &nn_str_type) {
        if (repl_base_value(x) && nn_is_str(repl_base_value(x))) x = repl_base_value(x); /* class S(str) */
        if (!nn_is_str(x)) {
            repl_raise_exc(EXC_TypeError, "'in <string>' requires string as left operand, not %s", repl_value_type_name(x));
            return -1;
        }
        return memmem(nn_str_cstr(container), nn_str_len(container), nn_str_cstr(x), nn_str_len(x)) != NULL ||
               nn_str_len(x) == 0;
    }
    if (repl_is_bytes(container)) return repl_bytes_contains(container, x);
    if (t == &nn_dict_type || t == &repl_set_type) {
        if (repl_obj_hash(x) == -1 && nn_error_current()) return -1;
        return nn_dict_get(t == &nn_dict_type ? container : ((set_obj *)container)->d, x) != NULL;
    }
    if (t == &repl_range_type && is_intlike(x)) {
        range_obj *r = (range_obj *)container;
        int64_t v = nn_int_value(x);
        if (r->step > 0 ? (v < r->start || v >= r->stop) : (v > r->start || v <= r->stop)) return 0;
        return (v - r->start) % r->step == 0;
    }
    if (user_method(container, "__contains__")) {
        nn_object *r = repl_call_method(container, "__contains__", &x, 1);
        if (!r) return -1;
        int v = repl_truth(r);
        NN_RELEASE(r);
        return v;
    }
    if (repl_base_value(container) && !user_method(container, "__iter__")) return contains(repl_base_value(container), x);
    if (t == &nn_list_type || is_tuple_like(container)) {
        bool list = t == &nn_list_type;
        size_t n = list ? nn_list_len(container) : nn_tuple_len(container);
        for (size_t i = 0; i < n; i++) {
            nn_object *y = list ? nn_list_get(container, i) : nn_tuple_get(container, i);
            int e = x == y ? 1 : repl_equal(x, y);
            if (e) return e;
        }
        return 0;
    }
    nn_object *it = repl_get_iter(container), *y;
    if (!it) return -1;
    int rc, found = 0;
    while ((rc = repl_iter_next(it, &y)) == 1) {
        found = repl_equal(x, y);
        NN_RELEASE(y);
        if (found) break;
    }
    NN_RELEASE(it);
    if (rc < 0 || found < 0) return -1;
    return found;
}

/* ------------------------------------------------------------------ length, items */

int repl_length(nn_object *o, int64_t *n)
{
    const nn_type *t = o->type;
    if (t == &nn_str_type) {
        /* characters, not bytes */
        const unsigned char *s = (const unsigned char *)nn_str_cstr(o);
        int64_t c = 0;
        for (size_t i = 0; i < nn_str_len(o); i++) c += (s[i] & 0xc0) != 0x80;
        *n = c;
        return 0;
    }
    if (t == &nn_list_type) return *n = (int64_t)nn_list_len(o), 0;
    if (is_tuple_like(o)) return *n = (int64_t)nn_tuple_len(o), 0;
    if (t == &nn_dict_type) return *n = (int64_t)nn_dict_len(o), 0;
    if (t == &repl_set_type) return *n = (int64_t)nn_dict_len(((set_obj *)o)->d), 0;
    if (t == &repl_range_type) return *n = repl_range_len((range_obj *)o), 0;
    if (t == &repl_dictview_type) {
        nn_object *l = repl_dictview_list(o);
        if (!l) return -1;
        *n = (int64_t)nn_list_len(l);
        NN_RELEASE(l);
        return 0;
    }
    if (user_method(o, "__len__")) {
        nn_object *r = repl_call_method(o, "__len__", NULL, 0);
        if (!r) return -1;
        if (!is_intlike(r)) {
            repl_raise_exc(EXC_TypeError, "'%s' object cannot be interpreted as an integer", repl_value_type_name(r));
            NN_RELEASE(r);
            return -1;
        }
        *n = nn_int_value(r);
        NN_RELEASE(r);
        if (*n < 0) return repl_raise_exc(EXC_ValueError, "__len__() should return >= 0");
        return 0;
    }
    if (repl_base_value(o)) return repl_length(repl_base_value(o), n);
    if (o->type == &repl_class_type) {
        bool found;
        nn_object *r = repl_call_meta(o, "__len__", NULL, 0, &found);
        if (found) {
            if (!r) return -1;
            int rc = nn_is_int(r) && nn_int_value(r) >= 0 ? 0 : repl_raise_exc(EXC_TypeError, "__len__() should return an int >= 0");
            if (rc == 0) *n = nn_int_value(r);
            NN_RELEASE(r);
            return rc;
        }
    }
    const repl_native_ops *ops = repl_get_native_ops();
    if (is_native(o) && ops && ops->len) {
        if (ops->len(o, n) == 0) return 0;
        if (nn_error_current()) return -1;
    }
    return repl_raise_exc(EXC_TypeError, "object of type '%s' has no len()", repl_value_type_name(o));
}

/* Python's index normalisation for sequences of n items. */
static int seq_index(nn_object *key, int64_t n, int64_t *out, const char *what)
{
    *out = 0;
    if (repl_is_bigint(key)) return repl_raise_exc(EXC_IndexError, "cannot fit 'int' into an index-sized integer");
    int64_t i;
    if (repl_base_value(key) && is_intlike(repl_base_value(key)) && !user_method(key, "__index__")) key = repl_base_value(key);
    if (nn_is_tensor(key)) { /* Tensor.__index__: an integer or bool tensor of one element (itos[idx]) */
        if (repl_tensor_index(NN_TENSOR(key), &i) < 0) return -1;
    } else if (!is_intlike(key)) { /* an object with __index__ (an IntEnum member) stands for its int */
        nn_object *r = user_method(key, "__index__") ? repl_call_method(key, "__index__", NULL, 0) : NULL;
        if (!r && nn_error_current()) return -1;
        if (!r || !is_intlike(r)) {
            NN_RELEASE(r);
            return repl_raise_exc(EXC_TypeError, "%s indices must be integers or slices, not %s", what, repl_value_type_name(key));
        }
        i = nn_int_value(r);
        NN_RELEASE(r);
    } else {
        i = nn_int_value(key);
    }
    if (i < 0) i += n;
    if (i < 0 || i >= n) return repl_raise_exc(EXC_IndexError, "%s index out of range", what);
    *out = i;
    return 0;
}

/* a slice bound's value; a big int is clamped, as CPython's _PyEval_SliceIndex */
static int64_t slice_bound(nn_object *o)
{
    if (!repl_is_bigint(o)) return nn_int_value(o);
    return mpz_sgn(repl_bigint_mpz(o)) < 0 ? -INT64_MAX : INT64_MAX;
}

/* slice.indices(n): start, stop, step and count. */
static int slice_indices(nn_object *sl, int64_t n, int64_t *start, int64_t *stop, int64_t *step, int64_t *count)
{
    nn_object *a, *b, *c;
    repl_slice_parts(sl, &a, &b, &c);
    nn_object **parts[] = {&a, &b, &c};
    for (int i = 0; i < 3; i++) /* l[I(1):I(3)]: an int subclass's value (the parts are owned) */
        if (repl_base_value(*parts[i])) NN_SET(*parts[i], nn_retain(repl_base_value(*parts[i])));
    int rc = 0;
    if ((!nn_is_none(a) && !repl_is_integer(a)) || (!nn_is_none(b) && !repl_is_integer(b)) ||
        (!nn_is_none(c) && !repl_is_integer(c))) {
        rc = repl_raise_exc(EXC_TypeError, "slice indices must be integers or None or have an __index__ method");
        goto out;
    }
    *step = nn_is_none(c) ? 1 : slice_bound(c);
    if (*step == 0) {
        rc = repl_raise_exc(EXC_ValueError, "slice step cannot be zero");
        goto out;
    }
    int64_t lo = *step < 0 ? -1 : 0, hi = *step < 0 ? n - 1 : n;
    if (nn_is_none(a)) *start = *step < 0 ? hi : lo;
    else {
        int64_t v = slice_bound(a);
        if (v < 0) {
            v += n;
            if (v < lo) v = lo;
        } else if (v > hi) v = hi;
        *start = v;
    }
    if (nn_is_none(b)) *stop = *step < 0 ? lo : hi;
    else {
        int64_t v = slice_bound(b);
        if (v < 0) {
            v += n;
            if (v < lo) v = lo;
        } else if (v > hi) v = hi;
        *stop = v;
    }
    if (*step < 0) *count = *stop < *start ? (*start - *stop - 1) / (-*step) + 1 : 0;
    else *count = *start < *stop ? (*stop - *start - 1) / *step + 1 : 0;
out:
    NN_RELEASE(a);
    NN_RELEASE(b);
    NN_RELEASE(c);
    return rc;
}

int repl_slice_indices(nn_object *sl, int64_t n, int64_t *start, int64_t *stop, int64_t *step, int64_t *count)
{
    return slice_indices(sl, n, start, stop, step, count);
}

/* Byte offset of character i in a UTF-8 string (ASCII fast path). */
static size_t utf8_offset(const char *s, size_t len, int64_t i)
{
    size_t p = 0;
    for (int64_t c = 0; c < i && p < len; c++) {
        p++;
        while (p < len && ((unsigned char)s[p] & 0xc0) == 0x80) p++;
    }
    return p;
}

nn_object *repl_get_item(nn_object *o, nn_object *key)
{
    const nn_type *t = o->type;
    if (t->base == &nn_tuple_type && repl_is_slice(key)) {
        const repl_native_ops *ops = repl_get_native_ops(); /* a slice of torch.Size is a Size */
        nn_object *r = ops && ops->getitem ? ops->getitem(o, key) : NULL;
        if (r || nn_error_current() != NN_ERR_TYPE) return r;
        nn_error_clear();
    }
    if (t->base == &nn_tuple_type) t = &nn_tuple_type; /* torch.Size indexes as a tuple */
    if (t == &nn_list_type || t == &nn_tuple_type || t == &nn_str_type || t == &repl_range_type) {
        int64_t n;
        if (repl_length(o, &n) < 0) return NULL;
        const char *what = t == &nn_list_type ? "list" : t == &nn_tuple_type ? "tuple" : t == &nn_str_type ? "string" : "range object";
        if (repl_is_slice(key)) {
            int64_t start, stop, step, count;
            if (slice_indices(key, n, &start, &stop, &step, &count) < 0) return NULL;
            if (t == &repl_range_type) {
                range_obj *r = (range_obj *)o;
                return repl_range_new(r->start + start * r->step, r->start + (start + count * step) * r->step, r->step * step);
            }
            if (t == &nn_str_type) {
                sbuf b = {0};
                const char *s = nn_str_cstr(o);
                size_t len = nn_str_len(o);
                bool ascii = (int64_t)len == n;
                if (step == 1 || count == 0) { /* one run of bytes (NUL characters kept) */
                    size_t p = ascii ? (size_t)start : utf8_offset(s, len, start);
                    size_t q = ascii ? p + (size_t)count : p + utf8_offset(s + p, len - p, count);
                    return nn_str_from(s + p, count ? q - p : 0);
                }
                for (int64_t i = 0, j = start; i < count; i++, j += step) {
                    if (ascii) repl_sb_add(&b, s + j, 1);
                    else {
                        size_t p = utf8_offset(s, len, j), q = utf8_offset(s, len, j + 1);
                        repl_sb_add(&b, s + p, q - p);
                    }
                }
                char *r = repl_sb_finish(&b);
                if (!r) return NULL;
                nn_object *res = nn_str_from(r, b.len);
                nn_free(r);
                return res;
            }
            bool list = t == &nn_list_type;
            nn_object *r = list ? nn_list_new((size_t)count) : nn_tuple_new((size_t)count);
            for (int64_t i = 0, j = start; r && i < count; i++, j += step) {
                if (list) nn_list_append(r, nn_list_get(o, (size_t)j));
                else nn_tuple_set(r, (size_t)i, nn_retain(nn_tuple_get(o, (size_t)j)));
            }
            return r;
        }
        int64_t i;
        if (seq_index(key, n, &i, what) < 0) return NULL;
        if (t == &nn_list_type) return nn_retain(nn_list_get(o, (size_t)i));
        if (t == &nn_tuple_type) return nn_retain(nn_tuple_get(o, (size_t)i));
        if (t == &repl_range_type) return nn_int_new(((range_obj *)o)->start + i * ((range_obj *)o)->step);
        const char *s = nn_str_cstr(o);
        size_t len = nn_str_len(o), p = utf8_offset(s, len, i), q = utf8_offset(s, len, i + 1);
        return nn_str_from(s + p, q - p);
    }
    if (t == &nn_dict_type) {
        if (repl_obj_hash(key) == -1 && nn_error_current()) return NULL;
        nn_object *v = nn_dict_get(o, key);
        if (v) return nn_retain(v);
        if (nn_error_current()) return NULL;
        nn_object *args = nn_tuple_pack(1, key), *e = args ? repl_exc_new(EXC_KeyError, args) : NULL;
        NN_RELEASE(args);
        if (e) repl_raise_object(e);
        NN_RELEASE(e);
        return NULL;
    }
    if (user_method(o, "__getitem__")) return repl_call_method(o, "__getitem__", &key, 1);
    if (repl_base_value(o)) return repl_builtin_sub_getitem(o, key);
    if (t == &repl_class_type) { /* the metaclass's __getitem__, __class_getitem__, or list[int] style annotations */
        bool found;
        nn_object *r = repl_call_meta(o, "__getitem__", &key, 1, &found);
        if (found) return r;
        nn_object *cg = repl_class_lookup((class_obj *)o, "__class_getitem__");
        if (cg && cg->type == &repl_function_type) { /* a classmethod without the decorator */
            nn_object *both[2] = {o, key};
            return repl_call_object(cg, both, 2, NULL);
        }
        if (cg) {
            nn_object *bound = repl_get_attr(o, "__class_getitem__");
            r = bound ? repl_call_object(bound, &key, 1, NULL) : NULL;
            NN_RELEASE(bound);
            return r;
        }
        return nn_retain(o);
    }
    const repl_native_ops *ops = repl_get_native_ops();
    if (is_native(o) && ops && ops->getitem) {
        nn_object *r = ops->getitem(o, key);
        if (r || nn_error_current()) return r;
    }
    repl_raise_exc(EXC_TypeError, "'%s' object is not subscriptable", repl_value_type_name(o));
    return NULL;
}

static int set_item(nn_object *o, nn_object *key, nn_object *value)
{
    const nn_type *t = o->type;
    if (t == &nn_list_type) {
        int64_t n = (int64_t)nn_list_len(o), i;
        if (repl_is_slice(key)) {
            int64_t start, stop, step, count;
            if (slice_indices(key, n, &start, &stop, &step, &count) < 0) return -1;
            nn_object *items = repl_to_list(value);
            if (!items) return -1;
            int64_t m = (int64_t)nn_list_len(items);
            int rc = 0;
            if (step == 1) {
                if (stop < start) stop = start;
                for (int64_t k = stop - 1; k >= start; k--) NN_RELEASE(nn_list_pop(o, (size_t)k));
                for (int64_t k = 0; k < m && rc == 0; k++) rc = nn_list_insert(o, (size_t)(start + k), nn_list_get(items, (size_t)k));
            } else if (m != count) {
                rc = repl_raise_exc(EXC_ValueError, "attempt to assign sequence of size %lld to extended slice of size %lld",
                               (long long)m, (long long)count);
            } else {
                for (int64_t k = 0, j = start; k < count; k++, j += step)
                    nn_list_set(o, (size_t)j, nn_retain(nn_list_get(items, (size_t)k)));
            }
            NN_RELEASE(items);
            return rc;
        }
        if (!is_intlike(key))
            return repl_raise_exc(EXC_TypeError, "list indices must be integers or slices, not %s", repl_value_type_name(key));
        i = nn_int_value(key);
        if (i < 0) i += n;
        if (i < 0 || i >= n) return repl_raise_exc(EXC_IndexError, "list assignment index out of range");
        nn_list_set(o, (size_t)i, nn_retain(value));
        return 0;
    }
    if (t == &nn_dict_type) {
        if (repl_obj_hash(key) == -1 && nn_error_current()) return -1;
        return nn_dict_set(o, key, value);
    }
    if (user_method(o, "__setitem__")) {
        nn_object *args[2] = {key, value};
        nn_object *r = repl_call_method(o, "__setitem__", args, 2);
        NN_RELEASE(r);
        return r ? 0 : -1;
    }
    if (repl_base_value(o)) return set_item(repl_base_value(o), key, value);
    const repl_native_ops *ops = repl_get_native_ops();
    if (is_native(o) && ops && ops->setitem) {
        if (ops->setitem(o, key, value) == 0) return 0;
        if (nn_error_current()) return -1;
    }
    return repl_raise_exc(EXC_TypeError, "'%s' object does not support item assignment", repl_value_type_name(o));
}

static int del_item(nn_object *o, nn_object *key)
{
    if (o->type == &nn_list_type) {
        int64_t n = (int64_t)nn_list_len(o), i;
        if (repl_is_slice(key)) {
            int64_t start, stop, step, count;
            if (slice_indices(key, n, &start, &stop, &step, &count) < 0) return -1;
            /* delete from the highest index down */
            int64_t first = start, last = start + (count - 1) * step;
            if (step < 0) {
                int64_t tmp = first;
                first = last;
                last = tmp;
                step = -step;
            }
            for (int64_t k = last; count > 0 && k >= first; k -= step) NN_RELEASE(nn_list_pop(o, (size_t)k));
            return 0;
        }
        if (!is_intlike(key))
            return repl_raise_exc(EXC_TypeError, "list indices must be integers or slices, not %s", repl_value_type_name(key));
        i = nn_int_value(key);
        if (i < 0) i += n;
        if (i < 0 || i >= n) return repl_raise_exc(EXC_IndexError, "list assignment index out of range");
        NN_RELEASE(nn_list_pop(o, (size_t)i));
        return 0;
    }
    if (o->type == &nn_dict_type) {
        if (repl_obj_hash(key) == -1 && nn_error_current()) return -1;
        if (!nn_dict_get(o, key)) {
            if (nn_error_current()) return -1;
            nn_object *args = nn_tuple_pack(1, key), *e = args ? repl_exc_new(EXC_KeyError, args) : NULL;
            NN_RELEASE(args);
            if (e) repl_raise_object(e);
            NN_RELEASE(e);
            return -1;
        }
        return nn_dict_del(o, key);
    }
    if (user_method(o, "__delitem__")) {
        nn_object *r = repl_call_method(o, "__delitem__", &key, 1);
        NN_RELEASE(r);
        return r ? 0 : -1;
    }
    if (repl_base_value(o)) return del_item(repl_base_value(o), key);
    if (o->type == &repl_bytearray_type) return repl_bytes_delitem(o, key);
    return repl_raise_exc(EXC_TypeError, "'%s' object doesn't support item deletion", repl_value_type_name(o));
}

/* Whether v is an instance of a class defining the descriptor method name (__get__, __set__, __delete__). */
static bool user_descr(const nn_object *v, const char *name)
{
    return v->type == &repl_instance_type && repl_class_lookup(((const instance_obj *)v)->cls, name);
}

/* A class attribute v seen through self (an instance, or NULL through the class c). */
static nn_object *class_attr(nn_object *v, nn_object *self, class_obj *c)
{
    if (v->type == &repl_instance_type && user_descr(v, "__get__")) { /* a descriptor: v.__get__(self, c) */
        nn_object *args[2] = {self ? self : nn_none(), &c->ob};
        return repl_call_method(v, "__get__", args, 2);
    }
    if (v->type == &repl_desc_type) {
        desc_obj *d = (desc_obj *)v;
        if (d->kind == DESC_STATIC) return nn_retain(d->fget);
        if (d->kind == DESC_CLASS) return repl_method_new(d->fget, &c->ob);
        if (!self) return nn_retain(v);
        if (!d->fget) {
            repl_raise_exc(EXC_AttributeError, "property '%s' of '%s' object has no getter", d->name ? d->name : "?",
                           repl_value_type_name(self));
            return NULL;
        }
        return repl_call_object(d->fget, &self, 1, NULL);
    }
    if (!self) return nn_retain(v);
    if (v->type == &repl_function_type || v->type == &nn_cfunction_type || v->type == &repl_mdescr_type)
        return repl_method_new(v, self);
    return nn_retain(v);
}

nn_object *repl_bind_class_attr(nn_object *v, nn_object *self, class_obj *c) { return class_attr(v, self, c); }

/* ------------------------------------------------------------------ attributes */

static nn_object *attr_error(nn_object *obj, const char *name)
{
    if (obj->type == &repl_class_type)
        repl_raise_exc(EXC_AttributeError, "type object '%s' has no attribute '%s'", ((class_obj *)obj)->name, name);
    else if (obj->type == &repl_module_type)
        repl_raise_exc(EXC_AttributeError, "module '%s' has no attribute '%s'", ((module_obj *)obj)->name, name);
    else
        repl_raise_exc(EXC_AttributeError, "'%s' object has no attribute '%s'", repl_value_type_name(obj), name);
    return NULL;
}

/* cv.__get__(obj, cls) when the class attribute cv is an instance of a class with
   __get__ (a descriptor written in the language: functools.cached_property); with
   data_only, only when that class also has __set__ or __delete__. NULL without an
   error when cv is no such descriptor. */
static nn_object *descr_get(nn_object *cv, nn_object *obj, class_obj *cls, bool data_only)
{
    if (!cv || cv->type != &repl_instance_type) return NULL;
    class_obj *dc = ((instance_obj *)cv)->cls;
    if (!repl_class_lookup(dc, "__get__")) return NULL;
    if (data_only && !repl_class_lookup(dc, "__set__") && !repl_class_lookup(dc, "__delete__")) return NULL;
    nn_object *a[2] = {obj ? obj : nn_none(), &cls->ob};
    return repl_call_method(cv, "__get__", a, 2);
}

/* object.__getattribute__(obj, name) of an instance: data descriptors, its own
   attributes, then its class's; AttributeError when none has it. */
nn_object *repl_instance_generic_getattr(nn_object *obj, const char *name)
{
    instance_obj *o = (instance_obj *)obj;
    nn_object *cv = repl_class_lookup(o->cls, name);
    if (cv && cv->type == &repl_desc_type && ((desc_obj *)cv)->kind == DESC_PROPERTY) return class_attr(cv, obj, o->cls);
    nn_object *v = descr_get(cv, obj, o->cls, true); /* a data descriptor comes before the instance's own */
    if (v || nn_error_current()) return v;
    if (repl_instance_dict_sync(o) < 0) return NULL;
    v = o->attrs_in_value && o->value ? nn_dict_get_str(o->value, name) : repl_nmap_get(&o->attrs, name);
    if (v) return nn_retain(v);
    if (cv && cv->type == &repl_member_type) cv = NULL; /* an empty slot: no such attribute */
    if (o->cls->vbase && ((v = repl_builtin_sub_lookup(o->cls, NULL, obj, name)) || nn_error_current()))
        return v; /* d.keys, l.append */
    if ((v = descr_get(cv, obj, o->cls, false)) || nn_error_current()) return v;
    if (cv) return class_attr(cv, obj, o->cls);
    if (strcmp(name, "__class__") == 0) return nn_retain(&o->cls->ob);
    if (strcmp(name, "__dict__") == 0 && o->attrs_in_value && o->value) return nn_retain(obj);
    if (strcmp(name, "__dict__") == 0 && repl_slots_refuse(o->cls, name)) return attr_error(obj, name);
    if (strcmp(name, "__dict__") == 0) return repl_instance_dict(o);
    if (o->value) return repl_builtin_sub_value_attr(obj, name); /* i.real, s.__len__ */
    return attr_error(obj, name);
}

bool repl_clear_attribute_error(void)
{
    nn_object *e = repl_take_exception();
    bool attribute_error = repl_exc_matches(e, &repl_current->exc_classes[EXC_AttributeError]->ob);
    if (e && !attribute_error) repl_raise_object(e);
    NN_RELEASE(e);
    return attribute_error;
}

/* Set once a class is given __getattribute__ after its creation (C.__getattribute__ = f):
   every instance lookup then asks its class, not only those of classes made with one. */
static bool getattribute_assigned;

/* obj.name as CPython's slot_tp_getattr_hook: the class's __getattribute__ (a user
   class's own, else object's: repl_instance_generic_getattr), then __getattr__(name)
   when that raises AttributeError (a property's getter raising it included). */
nn_object *repl_instance_getattr(nn_object *obj, const char *name)
{
    instance_obj *o = (instance_obj *)obj;
    nn_object *gab = o->cls->getattribute || getattribute_assigned ? repl_class_lookup(o->cls, "__getattribute__") : NULL;
    nn_object *v = NULL;
    if (gab && gab->type == &repl_function_type) { /* found on the class, as CPython's type slot */
        nn_object *a[2] = {obj, nn_str_new(name)};
        v = a[1] ? repl_call_object(gab, a, 2, NULL) : NULL;
        NN_RELEASE(a[1]);
    } else {
        v = repl_instance_generic_getattr(obj, name);
    }
    if (v) return v;
    nn_object *ga = repl_class_lookup(o->cls, "__getattr__");
    if (!ga || (ga->type != &repl_function_type && ga->type != &repl_mdescr_type)) /* __getattr__ = dict.__getitem__ too */
        return NULL;
    if (!repl_clear_attribute_error()) return NULL;
    nn_object *bound = class_attr(ga, obj, o->cls), *s = bound ? nn_str_new(name) : NULL;
    v = s ? repl_call_object(bound, &s, 1, NULL) : NULL;
    NN_RELEASE(s);
    NN_RELEASE(bound);
    return v;
}

/* The special method name of an instance whose class has __getattribute__: found on
   its class, as CPython's implicit lookups (len(x), x + y, print(x)) never ask
   __getattribute__. NULL without an error when that does not apply. */
static nn_object *special_method(nn_object *obj, const char *name)
{
    if (obj->type != &repl_instance_type || name[0] != '_' || name[1] != '_') return NULL;
    class_obj *c = ((instance_obj *)obj)->cls;
    if (!c->getattribute && !getattribute_assigned) return NULL;
    size_t len = strlen(name);
    nn_object *cv = len > 4 && name[len - 1] == '_' && name[len - 2] == '_' ? repl_class_lookup(c, name) : NULL;
    return cv ? class_attr(cv, obj, c) : NULL;
}

/* obj.name for an implicit use of the special method name (with's __exit__, a call's __call__) */
static nn_object *special_attr(nn_object *obj, const char *name)
{
    nn_object *m = special_method(obj, name);
    return m || nn_error_current() ? m : repl_get_attr(obj, name);
}

nn_object *repl_lang_class_getattr(nn_object *obj, const char *name)
{
    class_obj *c = (class_obj *)obj;
    if (c == repl_current->type_cls) { /* type.__new__(mcs, ...), type.__call__(cls, ...) in a metaclass */
        nn_object *t = repl_meta_type_attr(name);
        if (t) return t;
    }
    if (strcmp(name, "__module__") == 0) return nn_str_new(repl_class_module(c)); /* its own, never a base's */
    nn_object *v = repl_class_lookup(c, name);
    if ((c->ntype || c->vbase) && (!v || v->type == &nn_cfunction_type)) { /* dict.keys, dict.__setitem__ */
        nn_object *b = repl_builtin_sub_class_getattr(c, name);
        if (b || nn_error_current()) return b;
    }
    if (v) {
        nn_object *dv = descr_get(v, NULL, c, false); /* C.attr of a descriptor: attr.__get__(None, C) */
        return dv || nn_error_current() ? dv : class_attr(v, NULL, c);
    }
    if (strcmp(name, "__name__") == 0) return nn_str_new(c->name);
    if (strcmp(name, "__qualname__") == 0) return nn_str_new(repl_class_qualname(c));
    if ((v = repl_bool_class_attr(c, name))) return v; /* bool.__mro__ has int */
    if ((v = repl_class_special_attr(c, name)) || nn_error_current()) return v;
    if (strcmp(name, "__base__") == 0 && c->native_base && c->bases) return nn_retain(nn_tuple_get(c->bases, 0));
    if (strcmp(name, "__base__") == 0) return nn_retain(c->base ? &c->base->ob : nn_none());
    if (strcmp(name, "__bases__") == 0) return c->base ? nn_tuple_pack(1, &c->base->ob) : nn_tuple_new(0);
    if (strcmp(name, "__module__") == 0)
        return nn_str_new(c->module ? c->module : c->ntype || c->exc >= 0 ? "builtins" : "__main__");
    if (c->native_base) {
        const repl_native_ops *ops = repl_get_native_ops();
        if (ops && ops->getattr) return ops->getattr(c->native_base, name);
    }
    if (c->meta && repl_is_metaclass(c->meta) && (v = repl_class_lookup(c->meta, name))) /* the metaclass's attributes */
        return class_attr(v, obj, c->meta);
    if ((v = repl_object_slot(name))) return v; /* object.__setattr__, C.__repr__ */
    return attr_error(obj, name);
}

nn_object *repl_lang_module_getattr(nn_object *obj, const char *name)
{
    nn_object *v = repl_nmap_get(&((module_obj *)obj)->dict, name);
    if (v) return nn_retain(v);
    if (strcmp(name, "__name__") == 0) return nn_str_new(((module_obj *)obj)->name);
    if (strcmp(name, "__dict__") == 0) return repl_namespace_dict(obj); /* live, as vars(module) */
    nn_object *hook = repl_nmap_get(&((module_obj *)obj)->dict, "__getattr__");
    if (hook) { /* PEP 562: the module's __getattr__(name) for a name it lacks */
        nn_object *arg = nn_str_new(name);
        nn_object *r = arg ? repl_call_object(hook, &arg, 1, NULL) : NULL;
        NN_RELEASE(arg);
        return r;
    }
    if ((v = repl_stdlib_reexport(((module_obj *)obj)->name, name)) || nn_error_current()) return v;
    return attr_error(obj, name);
}

/* The native module class (nn.Conv2d) that super(start, self) reaches past the language classes: a
   base of start's own chain, or the first native class after start in the order of self's class (a
   mixin's super().__init__() in class LazyConv2d(Mixin, nn.Conv2d)). Borrowed; NULL if none. */
static nn_object *super_native_base(const super_obj *s)
{
    for (class_obj *k = s->start; k; k = k->base)
        if (k->native_base) return k->native_base;
    class_obj *type = s->self->type == &repl_class_type ? (class_obj *)s->self : repl_class_of(s->self);
    if (!type || !type->mcls) return NULL;
    for (class_obj *k = type; k; k = k->base)   /* borrowed from the class, not from the order's tuple */
        if (k->native_base) {
            nn_object *mro = repl_class_mro_tuple(type), *found = NULL;
            if (!mro) {
                nn_error_clear();
                return NULL;
            }
            size_t n = nn_tuple_len(mro), i = 0;
            while (i < n && nn_tuple_get(mro, i) != &s->start->ob) i++;
            for (i++; i < n && !found; i++)
                if (nn_tuple_get(mro, i)->type != &repl_class_type) found = k->native_base;
            NN_RELEASE(mro);
            return found;
        }
    return NULL;
}

/* object.__init_subclass__, as super() finds it: cls(**kwargs) takes no keywords */
static nn_object *object_init_subclass_fn(void *ud, nn_object *args, nn_object *kwargs)
{
    if (kwargs && nn_dict_len(kwargs)) {
        nn_object *cls = nn_tuple_len(args) ? nn_tuple_get(args, 0) : NULL;
        repl_raise_exc(EXC_TypeError, "%s.__init_subclass__() takes no keyword arguments",
                       cls && cls->type == &repl_class_type ? ((class_obj *)cls)->name : "object");
        return NULL;
    }
    return nn_retain(nn_none());
}

static nn_object *object_init_subclass(nn_object *cls)
{
    nn_object *fn = nn_cfunction_new("__init_subclass__", object_init_subclass_fn, NULL, NULL);
    nn_object *m = fn && cls->type == &repl_class_type ? repl_method_new(fn, cls) : NULL;
    if (fn && !m) return fn;
    NN_RELEASE(fn);
    return m;
}

static nn_object *super_getattr(nn_object *obj, const char *name)
{
    super_obj *s = (super_obj *)obj;
    nn_object *v = NULL;
    nn_object *mv = repl_meta_super_attr(s->start, s->self, name); /* type.__new__ in a metaclass */
    if (mv || nn_error_current()) return mv;
    class_obj *st = s->self->type == &repl_class_type ? (class_obj *)s->self : repl_class_of(s->self);
    if (st && st->vbase && st->vbase != repl_current->type_cls) { /* past the class: a built-in type's method, slot or __new__ */
        nn_object *b = repl_builtin_sub_lookup(st, s->start, s->self, name);
        if (b || nn_error_current()) return b;
    }
    class_obj *c = repl_super_lookup(s->start, s->self, name, &v);
    nn_object *native = super_native_base(s);
    if (c == repl_current->object_cls && strcmp(name, "__init__") == 0 && native) /* a core module's base first (below) */
        c = NULL;
    if (c) {   /* a classmethod binds the class of self, as CPython's super */
        class_obj *type = s->self->type == &repl_class_type ? (class_obj *)s->self : repl_class_of(s->self);
        return class_attr(v, s->self, type ? type : c);
    }
    if (nn_error_current()) return NULL;
    /* the native base of a module class: nn.Module's methods */
    if (native) {
        const repl_native_ops *ops = repl_get_native_ops();
        /* a core module's constructor (nn.Linear) and its own forward (super().forward(x) in an override) */
        if ((strcmp(name, "__init__") == 0 || strcmp(name, "forward") == 0) && ops && ops->getattr) {
            nn_object *init = ops->getattr(native, name);
            if (init) {
                nn_object *bound = repl_method_new(init, s->self);
                NN_RELEASE(init);
                return bound;
            }
            nn_error_clear(); /* nn.Module's: nothing to build */
        }
        if (strcmp(name, "__init_subclass__") == 0) return object_init_subclass(s->self);
        if (strcmp(name, "__init__") == 0) return nn_cfunction_new(name, repl_builtin_noop, NULL, NULL);
        if (ops && ops->getattr) return ops->getattr(s->self, name);
    }
    if (strcmp(name, "__init_subclass__") == 0) return object_init_subclass(s->self);
    if (strcmp(name, "__init__") == 0) return nn_cfunction_new(name, repl_builtin_noop, NULL, NULL);
    nn_object *os = repl_object_slot(name); /* super().__setattr__(k, v), super().__repr__() */
    if (os) {
        nn_object *m = repl_method_new(os, s->self);
        NN_RELEASE(os);
        return m;
    }
    repl_raise_exc(EXC_AttributeError, "'super' object has no attribute '%s'", name);
    return NULL;
}

static nn_object *func_getattr(nn_object *obj, const char *name)
{
    func_obj *fn = (func_obj *)obj;
    nn_object *fv = repl_func_getattr(fn, name); /* func_attrs.c */
    if (fv || nn_error_current()) return fv;
    if (strcmp(name, "__name__") == 0 || strcmp(name, "__qualname__") == 0) return nn_str_new(fn->name);
    if (fn->abstract && strcmp(name, "__isabstractmethod__") == 0) return nn_bool_new(true);
    if (strcmp(name, "__call__") == 0) return nn_retain(obj); /* calling it calls the function */
    if (strcmp(name, "__doc__") == 0) {
        if (fn->body && fn->body->n && fn->body->items[0]->kind == REPL_AST_Expr) {
            const repl_node *e = fn->body->items[0]->v.Return.value;
            if (e->kind == REPL_AST_Constant && e->v.Constant.ckind == REPL_CONST_STR)
                return nn_str_from(e->v.Constant.s, e->v.Constant.len);
        }
        return nn_retain(nn_none());
    }
    return attr_error(obj, name);
}

nn_object *repl_method_getattr(nn_object *obj, const char *name)
{
    method_obj *m = (method_obj *)obj;
    if (strcmp(name, "__self__") == 0) return nn_retain(m->self);
    if (strcmp(name, "__func__") == 0) return nn_retain(m->func);
    if (strcmp(name, "__call__") == 0) return nn_retain(obj); /* bound, as the method */
    return repl_get_attr(m->func, name);
}
/* Any type without a getattr slot: native objects and the built-in values. */
static nn_object *generic_getattr(nn_object *obj, const char *name)
{
    const nn_type *t = obj->type;
    if (nn_is_module(obj)) {
        class_obj *c = repl_module_lang_class(obj);
        if (c) {
            nn_object *v = repl_class_lookup(c, name);
            if (v) return class_attr(v, obj, c);
            if (strcmp(name, "__class__") == 0) return nn_retain(&c->ob);
        }
    }
    if (t->base == &nn_tuple_type) { /* torch.Size and return types: tuple's methods first */
        nn_object *m = repl_builtin_method(obj, name);
        if (m || nn_error_current()) return m;
    }
    /* built-in values: methods and a few attributes */
    if (!is_native(obj) || t == &nn_cfunction_type) {
        nn_object *m = repl_builtin_method(obj, name);
        if (m || nn_error_current()) return m;
        if (strcmp(name, "__class__") == 0) return nn_retain(&repl_class_of(obj)->ob);
        m = repl_builtin_value_slot(obj, name);
        if (m || nn_error_current()) return m;
        if (t == &nn_cfunction_type && strcmp(name, "__call__") == 0) return nn_retain(obj);
        if (t == &nn_dict_type && nn_dict_is_ordered(obj)) { /* an OrderedDict's own attributes (_metadata) */
            nn_object *attrs = nn_dict_attrs(obj, strcmp(name, "__dict__") == 0);
            nn_object *v = attrs && strcmp(name, "__dict__") ? nn_dict_get_str(attrs, name) : attrs;
            if (v) return nn_retain(v);
        }
        if (t == &nn_cfunction_type && strcmp(name, "__name__") == 0) {
            char *r = nn_repr(obj);
            if (!r) return NULL;
            const char *p = strncmp(r, "<built-in function ", 19) == 0 ? r + 19 : r;
            nn_object *s = nn_str_from(p, strcspn(p, ">"));
            nn_free(r);
            return s;
        }
        if (t == &repl_range_type) {
            range_obj *r = (range_obj *)obj;
            if (!strcmp(name, "start")) return nn_int_new(r->start);
            if (!strcmp(name, "stop")) return nn_int_new(r->stop);
            if (!strcmp(name, "step")) return nn_int_new(r->step);
        }
        if (t == &repl_class_type) return attr_error(obj, name);
        if (t == &nn_none_type || t == &nn_int_type || t == &nn_float_type || t == &nn_complex_type || t == &nn_bool_type ||
            t == &nn_str_type || t == &nn_list_type || t == &nn_tuple_type || t == &nn_dict_type ||
            t == &repl_set_type || t == &repl_range_type || t == &repl_iter_type || t == &nn_cfunction_type)
            return attr_error(obj, name);
    }
    const repl_native_ops *ops = repl_get_native_ops();
    if (ops && ops->getattr) return ops->getattr(obj, name);
    if (nn_is_module(obj)) {
        nn_object *v = nn_module_getattr((nn_module *)obj, name);
        return v ? nn_retain(v) : NULL;
    }
    return attr_error(obj, name);
}

/* The type's getattr slot (instances, classes, modules, super, functions,
   descriptors, methods, generators, tracebacks), else the generic lookup. */
nn_object *repl_get_attr(nn_object *obj, const char *name)
{
    const nn_type *t = obj->type;
    if (t->getattr) return t->getattr(obj, name);
    return generic_getattr(obj, name);
}

/* Sets name through pv, a class attribute, when it is a property or another data
   descriptor (a class with __set__): 0 or -1; 1 when it is none. */
static int property_set(nn_object *pv, nn_object *obj, const char *name, nn_object *value)
{
    if (pv && pv->type == &repl_desc_type && ((desc_obj *)pv)->kind == DESC_PROPERTY) {
        desc_obj *d = (desc_obj *)pv;
        if (!d->fset)
            return repl_raise_exc(EXC_AttributeError, "property '%s' of '%s' object has no setter", name, repl_value_type_name(obj));
        nn_object *a[2] = {obj, value};
        nn_object *r = repl_call_object(d->fset, a, 2, NULL);
        NN_RELEASE(r);
        return r ? 0 : -1;
    }
    if (pv && pv->type == &repl_instance_type && repl_class_lookup(((instance_obj *)pv)->cls, "__set__")) {
        nn_object *a[2] = {obj, value}; /* a data descriptor: descr.__set__(obj, value) */
        nn_object *r = repl_call_method(pv, "__set__", a, 2);
        NN_RELEASE(r);
        return r ? 0 : -1;
    }
    return 1;
}

static int instance_store(nn_object *obj, const char *name, nn_object *value);

int repl_instance_setattr(nn_object *obj, const char *name, nn_object *value)
{
    nn_object *cv = repl_class_lookup(((instance_obj *)obj)->cls, name);
    int rc = property_set(cv, obj, name, value); /* a property, or a descriptor's __set__ */
    if (rc <= 0) return rc;
    nn_object *sa = repl_class_lookup(((instance_obj *)obj)->cls, "__setattr__");
    if (sa && (sa->type == &repl_function_type || sa->type == &repl_mdescr_type)) {
        nn_object *s = nn_str_new(name);
        if (!s) return -1;
        nn_object *args[2] = {s, value};
        nn_object *r = repl_call_method(obj, "__setattr__", args, 2);
        NN_RELEASE(s);
        NN_RELEASE(r);
        return r ? 0 : -1;
    }
    return instance_store(obj, name, value);
}

/* object.__setattr__(obj, name, value): a property's setter, else the instance's
   attributes, whatever __setattr__ obj's class defines. */
int repl_object_setattr(nn_object *obj, const char *name, nn_object *value)
{
    if (obj->type != &repl_instance_type) return repl_set_attr(obj, name, value);
    int rc = property_set(repl_class_lookup(((instance_obj *)obj)->cls, name), obj, name, value);
    return rc <= 0 ? rc : instance_store(obj, name, value);
}

static int instance_store(nn_object *obj, const char *name, nn_object *value)
{
    instance_obj *o = (instance_obj *)obj;
    if (repl_slots_refuse(o->cls, name)) /* __slots__ without this name */
        return repl_raise_exc(EXC_AttributeError, "'%s' object has no attribute '%s'", o->cls->name, name);
    if (strcmp(name, "__dict__") == 0) return repl_instance_set_dict(o, value);
    if (o->attrs_in_value && o->value) return nn_dict_set_str(o->value, name, value);
    return repl_instance_put(o, name, value);
}

int repl_lang_class_setattr(nn_object *obj, const char *name, nn_object *value)
{
    class_obj *c = (class_obj *)obj;
    if (c->ntype || c->exc >= 0)
        return repl_raise_exc(EXC_TypeError, "cannot set '%s' attribute of immutable type '%s'", name, c->name);
    if (value->type == &repl_function_type && !((func_obj *)value)->owner) ((func_obj *)value)->owner = obj;
    if (strcmp(name, "__getattribute__") == 0) getattribute_assigned = true;
    return repl_nmap_set(&c->dict, name, value);
}

/* The module builtins writes through to the built-in names, as CPython's
   (patch('builtins.open', ...) reaches every `open(...)`). */
static bool is_builtins_module(nn_object *obj) { return strcmp(((module_obj *)obj)->name, "builtins") == 0; }

int repl_lang_module_setattr(nn_object *obj, const char *name, nn_object *value)
{
    if (is_builtins_module(obj) && repl_nmap_set(&repl_current->builtins, name, value) < 0) return -1;
    return repl_nmap_set(&((module_obj *)obj)->dict, name, value);
}

static int func_setattr(nn_object *obj, const char *name, nn_object *value)
{
    return repl_func_setattr((func_obj *)obj, name, value);
}

/* The type's setattr slot, else native objects (a module class's properties
   first) and the built-in values' read-only attributes. */
/* module.__class__ = C: C a class of the same core layout as the module's, of the language
   (parametrize's Parametrized<Class>) or native (back to nn.Linear) */
static int module_set_class(nn_module *m, nn_object *value)
{
    const repl_native_ops *ops = repl_get_native_ops();
    const nn_module_class *mc = value->type == &repl_class_type ? ((class_obj *)value)->mcls
                                : ops && ops->module_class_of ? ops->module_class_of(value) : NULL;
    if (!mc && !nn_error_current())
        return repl_raise_exc(EXC_TypeError, "__class__ must be set to a class, not '%s' object", repl_value_type_name(value));
    if (!mc) return -1;
    const nn_module_class *a = mc, *b = m->cls;
    while (a->lang_class) a = a->base;
    while (b->lang_class) b = b->base;
    if (a != b)
        return repl_raise_exc(EXC_TypeError, "__class__ assignment: '%s' object layout differs from '%s'", mc->name,
                              m->cls->name);
    m->cls = mc;
    return 0;
}

int repl_set_attr(nn_object *obj, const char *name, nn_object *value)
{
    const nn_type *t = obj->type;
    if (t->setattr) return t->setattr(obj, name, value);
    if (nn_is_module(obj) && !strcmp(name, "__class__")) return module_set_class(NN_MODULE(obj), value);
    class_obj *mc = repl_module_lang_class(obj);
    int prc = mc ? property_set(repl_class_lookup(mc, name), obj, name, value) : 1;
    if (prc <= 0) return prc;
    const repl_native_ops *ops = repl_get_native_ops();
    if (is_native(obj)) {
        if (ops && ops->setattr) return ops->setattr(obj, name, value);
        if (nn_is_module(obj)) return nn_module_setattr((nn_module *)obj, name, value);
    }
    if (t == &nn_dict_type && nn_dict_is_ordered(obj) && strcmp(name, "__dict__")) {
        nn_object *attrs = nn_dict_attrs(obj, true);
        return attrs ? nn_dict_set_str(attrs, name, value) : -1;
    }
    if (!is_native(obj) && t != &repl_instance_type) {
        if (repl_builtin_method(obj, name))
            return repl_raise_exc(EXC_AttributeError, "'%s' object attribute '%s' is read-only", repl_value_type_name(obj), name);
        nn_error_clear();
    }
    return repl_raise_exc(EXC_AttributeError, "'%s' object has no attribute '%s'", repl_value_type_name(obj), name);
}

int repl_instance_delattr(nn_object *obj, const char *name)
{
    nn_object *pv = repl_class_lookup(((instance_obj *)obj)->cls, name);
    if (pv && pv->type == &repl_instance_type && user_descr(pv, "__delete__")) {
        nn_retain(pv);
        nn_object *r = repl_call_method(pv, "__delete__", &obj, 1);
        NN_RELEASE(pv);
        NN_RELEASE(r);
        return r ? 0 : -1;
    }
    if (pv && pv->type == &repl_desc_type && ((desc_obj *)pv)->kind == DESC_PROPERTY) {
        desc_obj *d = (desc_obj *)pv;
        if (!d->fdel)
            return repl_raise_exc(EXC_AttributeError, "property '%s' of '%s' object has no deleter", name,
                                  repl_value_type_name(obj));
        nn_object *r = repl_call_object(d->fdel, &obj, 1, NULL);
        NN_RELEASE(r);
        return r ? 0 : -1;
    }
    nn_object *da = repl_class_lookup(((instance_obj *)obj)->cls, "__delattr__");
    if (da && (da->type == &repl_function_type || da->type == &repl_mdescr_type)) {
        nn_object *s = nn_str_new(name), *r = s ? repl_call_method(obj, "__delattr__", &s, 1) : NULL;
        NN_RELEASE(s);
        NN_RELEASE(r);
        return r ? 0 : -1;
    }
    instance_obj *o = (instance_obj *)obj;
    if (o->attrs_in_value && o->value && nn_dict_get_str(o->value, name)) return nn_dict_del_str(o->value, name);
    if (repl_instance_dict_sync(o) < 0) return -1;
    if (repl_nmap_del(&o->attrs, name)) return repl_instance_dict_store(o, name, NULL);
    if (pv && pv->type == &repl_member_type) return repl_raise_exc(EXC_AttributeError, "%s", name); /* an empty slot */
    return repl_raise_exc(EXC_AttributeError, "'%s' object has no attribute '%s'", repl_value_type_name(obj), name);
}

int repl_lang_class_delattr(nn_object *obj, const char *name)
{
    if (repl_nmap_del(&((class_obj *)obj)->dict, name)) return 0;
    return repl_raise_exc(EXC_AttributeError, "'%s' object has no attribute '%s'", repl_value_type_name(obj), name);
}

int repl_lang_module_delattr(nn_object *obj, const char *name)
{
    if (repl_nmap_del(&((module_obj *)obj)->dict, name)) {
        if (is_builtins_module(obj)) repl_nmap_del(&repl_current->builtins, name);
        return 0;
    }
    return repl_raise_exc(EXC_AttributeError, "'%s' object has no attribute '%s'", repl_value_type_name(obj), name);
}

/* The type's delattr slot, else native modules. */
int repl_del_attr(nn_object *obj, const char *name)
{
    if (obj->type->delattr) return obj->type->delattr(obj, name);
    if (nn_is_module(obj)) return nn_module_delattr((nn_module *)obj, name);
    nn_object *attrs = obj->type == &nn_dict_type ? nn_dict_attrs(obj, false) : NULL;
    if (attrs && nn_dict_get_str(attrs, name)) return nn_dict_del_str(attrs, name);
    return repl_raise_exc(EXC_AttributeError, "'%s' object has no attribute '%s'", repl_value_type_name(obj), name);
}

/* ------------------------------------------------------------------ calls */

static const char *plural(int n) { return n == 1 ? "" : "s"; }

/* Binds arguments to fn's parameters in frame f's locals. kwargs may be NULL. */
static int bind_args(func_obj *fn, nmap *locals, nn_object *const *args, int n, nn_object *kwargs)
{
    const repl_node *a = fn->args;
    const repl_node_list *po = &a->v.arguments.posonlyargs, *pa = &a->v.arguments.args, *ko = &a->v.arguments.kwonlyargs;
    int npos = po->n + pa->n, nbound = n < npos ? n : npos;
    const char *fname = repl_func_qualname(fn); /* "A.f() missing 1 required positional argument" */
#define PARAM(i) ((i) < po->n ? po->items[i]->v.arg.arg : pa->items[(i) - po->n]->v.arg.arg)
    for (int i = 0; i < nbound; i++) {
        repl_node *p = i < po->n ? po->items[i] : pa->items[i - po->n];
        if (repl_nmap_set_cached(locals, p->v.arg.arg, args[i], &p->v.arg.cache) < 0) return -1;
    }
    if (n > npos) {
        if (!a->v.arguments.vararg) {
            int ndef = fn->n_defaults;
            if (ndef)
                return repl_raise_exc(EXC_TypeError, "%s() takes from %d to %d positional arguments but %d %s given", fname,
                                 npos - ndef, npos, n, n == 1 ? "was" : "were");
            return repl_raise_exc(EXC_TypeError, "%s() takes %d positional argument%s but %d %s given", fname, npos,
                             plural(npos), n, n == 1 ? "was" : "were");
        }
    }
    if (a->v.arguments.vararg) {
        nn_object *rest = nn_tuple_new(n > npos ? (size_t)(n - npos) : 0);
        if (!rest) return -1;
        for (int i = npos; i < n; i++) nn_tuple_set(rest, (size_t)(i - npos), nn_retain(args[i]));
        int rc = repl_nmap_set(locals, a->v.arguments.vararg->v.arg.arg, rest);
        NN_RELEASE(rest);
        if (rc < 0) return -1;
    }
    nn_object *extra = NULL;
    if (a->v.arguments.kwarg) {
        extra = nn_dict_new();
        if (!extra) return -1;
    }
    int rc = 0;
    if (kwargs) {
        size_t pos = 0;
        nn_object *k, *v;
        while (rc == 0 && nn_dict_next(kwargs, &pos, &k, &v)) {
            const char *name = nn_str_cstr(k);
            int found = -1;
            for (int i = po->n; i < npos; i++)
                if (strcmp(PARAM(i), name) == 0) found = i;
            bool kwonly = false;
            if (found < 0)
                for (int i = 0; i < ko->n; i++)
                    if (strcmp(ko->items[i]->v.arg.arg, name) == 0) kwonly = true;
            if (found >= 0 || kwonly) {
                if (found >= 0 && found < nbound)
                    rc = repl_raise_exc(EXC_TypeError, "%s() got multiple values for argument '%s'", fname, name);
                else rc = repl_nmap_set(locals, name, v);
            } else if (extra) {
                rc = nn_dict_set(extra, k, v);
            } else {
                bool posonly = false;
                for (int i = 0; i < po->n; i++) posonly |= strcmp(PARAM(i), name) == 0;
                rc = posonly ? repl_raise_exc(EXC_TypeError,
                                              "%s() got some positional-only arguments passed as keyword arguments: '%s'",
                                              fname, name)
                             : repl_raise_exc(EXC_TypeError, "%s() got an unexpected keyword argument '%s'", fname, name);
            }
        }
    }
    if (rc == 0 && extra) rc = repl_nmap_set(locals, a->v.arguments.kwarg->v.arg.arg, extra);
    NN_RELEASE(extra);
    if (rc < 0) return -1;
    /* defaults and missing arguments */
    int missing = 0;
    sbuf names = {0};
    for (int i = nbound; i < npos; i++) {
        if (repl_nmap_get(locals, PARAM(i))) continue;
        int d = i - (npos - fn->n_defaults);
        if (d >= 0) {
            if (repl_nmap_set(locals, PARAM(i), fn->defaults[d]) < 0) return -1;
        } else missing++;
    }
    if (missing) {
        int k = 0;
        for (int i = nbound; i < npos; i++) {
            if (repl_nmap_get(locals, PARAM(i))) continue;
            k++;
            repl_sb_printf(&names, "'%s'%s", PARAM(i), k == missing ? "" : k == missing - 1 ? (missing > 2 ? ", and " : " and ") : ", ");
        }
        char *s = repl_sb_finish(&names);
        repl_raise_exc(EXC_TypeError, "%s() missing %d required positional argument%s: %s", fname, missing, plural(missing),
                  s ? s : "");
        nn_free(s);
        return -1;
    }
    for (int i = 0; i < ko->n; i++) {
        const char *name = ko->items[i]->v.arg.arg;
        if (repl_nmap_get(locals, name)) continue;
        if (fn->kwdefaults && fn->kwdefaults[i]) {
            if (repl_nmap_set(locals, name, fn->kwdefaults[i]) < 0) return -1;
        } else missing++;
    }
    if (missing) {
        int k = 0;
        for (int i = 0; i < ko->n; i++) {
            const char *name = ko->items[i]->v.arg.arg;
            if (repl_nmap_get(locals, name)) continue;
            k++;
            repl_sb_printf(&names, "'%s'%s", name, k == missing ? "" : k == missing - 1 ? (missing > 2 ? ", and " : " and ") : ", ");
        }
        char *s = repl_sb_finish(&names);
        repl_raise_exc(EXC_TypeError, "%s() missing %d required keyword-only argument%s: %s", fname, missing,
                  plural(missing), s ? s : "");
        nn_free(s);
        return -1;
    }
#undef PARAM
    return 0;
}

static nn_object *call_function(func_obj *fn, nn_object *const *args, int n, nn_object *kwargs)
{
    repl_interp *in = repl_current;
    if (in->depth >= MAX_DEPTH) {
        repl_raise_exc(EXC_RecursionError, "maximum recursion depth exceeded");
        return NULL;
    }
    if (nn_check_interrupt() < 0) return NULL;
    scope *sc = repl_scope_new(fn->env);
    if (!sc) return NULL;
    frame f = {.back = in->top, .unit = fn->unit, .name = fn->name, .locals = &sc->map, .sc = sc, .env = sc,
               .fn = fn, .line = fn->body_expr ? fn->body_expr->line : fn->body->items[0]->line};
    nn_object *result = NULL;
    if (bind_args(fn, &sc->map, args, n, kwargs) < 0) {
        NN_RELEASE(sc);
        return NULL;
    }
    if (fn->is_gen) return make_generator(&f, fn, NULL, NULL);
    in->top = &f;
    in->depth++;
    if (fn->body_expr) {
        result = eval(&f, fn->body_expr);
        if (!result) tb_add(&f);
    } else {
        exec_status st = exec_block(&f, fn->body);
        if (st == EX_ERR) tb_add(&f);
        else if (st == EX_RETURN) result = f.retval;
        else if (st == EX_OK) result = nn_retain(nn_none());
        else result = nn_retain(nn_none());
    }
    in->depth--;
    in->top = f.back;
    NN_RELEASE(sc);
    return result;
}

/* A class object called: a new instance with __init__ run. */
static nn_object *call_class(class_obj *c, nn_object *const *args, int n, nn_object *kwargs)
{
    if (c->ctor) {
        nn_object *t = nn_tuple_new((size_t)n);
        if (!t) return NULL;
        for (int i = 0; i < n; i++) nn_tuple_set(t, (size_t)i, nn_retain(args[i]));
        nn_object *r = c->ctor(c, t, kwargs);
        NN_RELEASE(t);
        return r;
    }
    if (c->meta) { /* a metaclass's __call__ makes the instances (an Enum's lookup by value) */
        nn_object *m = repl_meta_method(&c->ob, "__call__"); /* with the keywords: Enum('A', 'X Y', start=0) */
        if (m) {
            nn_object *r = repl_call_object(m, args, n, kwargs);
            NN_RELEASE(m);
            return r;
        }
    }
    if (c->vbase == repl_current->type_cls) return repl_meta_instantiate(c, args, n, kwargs); /* M(name, bases, ns) */
    return repl_class_call_plain(c, args, n, kwargs);
}

/* The __init__ of the core module class c derives from (nn.Linear's; bind_args.c builds it), a new
   reference; NULL without an error when there is none (nn.Module's). */
static nn_object *native_module_init(const class_obj *c)
{
    const repl_native_ops *ops = repl_get_native_ops();
    for (const class_obj *k = c; k && ops && ops->getattr; k = k->base)
        if (k->native_base) {
            nn_object *init = ops->getattr(k->native_base, "__init__");
            if (!init) nn_error_clear();
            return init;
        }
    return NULL;
}

/* The keywords of an exception class's call, as BaseException.__init__ takes
   them: none (ImportError's: name and path, None by default), unless a class
   of the language's own defines __init__ (BaseException.__new__ ignores them). */
static int exception_keywords(class_obj *c, nn_object *obj, nn_object *kwargs)
{
    nn_object *init = repl_class_lookup(c, "__init__");
    bool own_init = init && init->type == &repl_function_type;
    bool import_error = repl_class_is_subclass(c, repl_current->exc_classes[EXC_ImportError]);
    size_t n = kwargs ? nn_dict_len(kwargs) : 0;
    nmap *attrs = &((instance_obj *)obj)->attrs;
    if (import_error && (repl_nmap_set(attrs, "name", nn_none()) < 0 || repl_nmap_set(attrs, "path", nn_none()) < 0))
        return -1;
    if (own_init || n == 0) return 0;
    if (!import_error) return repl_raise_exc(EXC_TypeError, "%s() takes no keyword arguments", c->name);
    if (n > 2) return repl_raise_exc(EXC_TypeError, "ImportError() takes at most 2 keyword arguments (%zu given)", n);
    size_t pos = 0;
    nn_object *k, *v;
    while (nn_dict_next(kwargs, &pos, &k, &v)) {
        const char *name = nn_str_cstr(k);
        if (strcmp(name, "name") != 0 && strcmp(name, "path") != 0)
            return repl_raise_exc(EXC_TypeError, "'%s' is an invalid keyword argument for ImportError()", name);
        if (repl_nmap_set(attrs, name, v) < 0) return -1;
    }
    return 0;
}

/* type.__call__(c, *args): __new__ then __init__ (a metaclass's __call__ reaches it through super()). */
nn_object *repl_class_call_plain(class_obj *c, nn_object *const *args, int n, nn_object *kwargs)
{
    nn_object *obj;
    if (repl_abc_check(c) < 0) return NULL;
    /* a class's own __new__ (a static method, declared or not) makes the object;
       __init__ runs only on an instance of c, as in Python */
    nn_object *new_fn = repl_class_lookup(c, "__new__");
    if (new_fn && new_fn->type == &repl_desc_type && ((desc_obj *)new_fn)->kind == DESC_STATIC) new_fn = ((desc_obj *)new_fn)->fget;
    bool own_new = new_fn && new_fn->type == &repl_function_type;
    if (own_new) {
        nn_object *all[n + 1];
        all[0] = &c->ob;
        for (int i = 0; i < n; i++) all[i + 1] = args[i];
        obj = call_function((func_obj *)new_fn, all, n + 1, kwargs);
        if (!obj || !repl_class_is_subclass(repl_class_of(obj), c)) return obj;
    } else if (c->vbase) {
        obj = repl_builtin_sub_new(c, args, n, kwargs);
    } else if (c->mcls) {
        obj = (nn_object *)nn_module_new(c->mcls);
    } else {
        class_obj *oserror = repl_current->exc_classes[EXC_OSError];
        /* OSError(errno, strerror) makes the subclass of that errno, as CPython's */
        class_obj *made = c == oserror && n >= 2 && n <= 5 && args[0]->type == &nn_int_type
                              ? repl_current->exc_classes[repl_oserror_subclass(nn_int_value(args[0]))]
                              : c;
        obj = repl_instance_new(made);
        if (obj && repl_is_exception_class(&c->ob)) {
            nn_object *t = nn_tuple_new((size_t)n);
            if (t) {
                for (int i = 0; i < n; i++) nn_tuple_set(t, (size_t)i, nn_retain(args[i]));
                repl_nmap_set(&((instance_obj *)obj)->attrs, "args", t);
                NN_RELEASE(t);
            }
            if (exception_keywords(c, obj, kwargs) < 0) NN_SET(obj, NULL);
            else if (repl_class_is_subclass(made, oserror) && repl_oserror_init(obj) < 0) NN_SET(obj, NULL);
            else if (obj && repl_is_syntax_error(obj) && repl_syntax_error_init(obj) < 0) NN_SET(obj, NULL);
        }
    }
    if (!obj) return NULL;
    if (own_new && obj->type == &repl_instance_type) c = ((instance_obj *)obj)->cls; /* __new__ made a subclass's: its __init__ */
    nn_object *init = repl_class_lookup(c, "__init__");
    /* a C __init__ of a module's class (torch.utils.data.TensorDataset), not object's or an exception's */
    bool c_init = init && init->type == &nn_cfunction_type && !repl_is_exception_class(&c->ob) &&
                  init != repl_nmap_get(&repl_current->object_cls->dict, "__init__");
    if (init && (init->type == &repl_function_type || c_init)) {
        nn_object *all[n + 1];
        all[0] = obj;
        for (int i = 0; i < n; i++) all[i + 1] = args[i];
        nn_object *r = c_init ? repl_call_object(init, all, n + 1, kwargs) : call_function((func_obj *)init, all, n + 1, kwargs);
        if (!r) {
            NN_RELEASE(obj);
            return NULL;
        }
        if (!nn_is_none(r)) {
            repl_raise_exc(EXC_TypeError, "__init__() should return None, not '%s'", repl_value_type_name(r));
            NN_RELEASE(r);
            NN_RELEASE(obj);
            return NULL;
        }
        NN_RELEASE(r);
    } else if (c->mcls && (init = native_module_init(c))) { /* class L(nn.Linear) without an __init__: Linear's */
        nn_object *all[n + 1];
        all[0] = obj;
        for (int i = 0; i < n; i++) all[i + 1] = args[i];
        nn_object *r = repl_call_object(init, all, n + 1, kwargs);
        NN_RELEASE(init);
        if (!r) {
            NN_RELEASE(obj);
            return NULL;
        }
        NN_RELEASE(r);
    } else if (repl_builtin_sub_mutable(c) && repl_base_value(obj)) { /* dict.__init__(self, *args, **kwargs) */
        nn_object *bi = repl_builtin_sub_lookup(c, NULL, obj, "__init__");
        nn_object *r = bi ? repl_call_object(bi, args, n, kwargs) : NULL;
        NN_RELEASE(bi);
        if (!r) {
            NN_RELEASE(obj);
            return NULL;
        }
        NN_RELEASE(r);
    } else if (!own_new && !c->vbase && !repl_is_exception_class(&c->ob) && !c->mcls && (n || (kwargs && nn_dict_len(kwargs)))) {
        repl_raise_exc(EXC_TypeError, "%s() takes no arguments", c->name);
        NN_RELEASE(obj);
        return NULL;
    }
    return obj;
}

/* A C function or an object whose type calls natively (not a def, a bound
   method, a class or an instance, which the language calls itself). */
static bool is_native_callable(const nn_object *callable)
{
    const nn_type *t = callable->type;
    if (t == &repl_function_type || t == &repl_method_type || t == &repl_class_type || t == &repl_instance_type)
        return false;
    return t == &nn_cfunction_type || t->call;
}

/* A native callable called with its arguments in a tuple, one level deeper. */
static nn_object *call_native(nn_object *callable, nn_object *tuple, nn_object *kwargs)
{
    repl_interp *in = repl_current;
    if (in->depth >= MAX_DEPTH) {
        repl_raise_exc(EXC_RecursionError, "maximum recursion depth exceeded");
        return NULL;
    }
    in->depth++;
    nn_object *r = nn_call(callable, tuple, kwargs);
    in->depth--;
    if (!r && !nn_error_current()) r = nn_retain(nn_none());
    return r;
}

nn_object *repl_call_object(nn_object *callable, nn_object *const *args, int n, nn_object *kwargs)
{
    const nn_type *t = callable->type;
    if (t == &repl_function_type) return call_function((func_obj *)callable, args, n, kwargs);
    if (t == &repl_method_type) {
        method_obj *m = (method_obj *)callable;
        nn_object *stackbuf[8], **all = n + 1 <= 8 ? stackbuf : nn_malloc(sizeof(nn_object *) * (size_t)(n + 1));
        if (!all) return NULL;
        all[0] = m->self;
        for (int i = 0; i < n; i++) all[i + 1] = args[i];
        nn_object *r = repl_call_object(m->func, all, n + 1, kwargs);
        if (all != stackbuf) nn_free(all);
        return r;
    }
    if (t == &repl_class_type) {
        if (repl_current->depth >= MAX_DEPTH) {
            repl_raise_exc(EXC_RecursionError, "maximum recursion depth exceeded");
            return NULL;
        }
        return call_class((class_obj *)callable, args, n, kwargs);
    }
    if (t == &repl_instance_type) {
        if (user_method(callable, "__call__")) {
            nn_object *m = special_attr(callable, "__call__");
            if (!m) return NULL;
            nn_object *r = repl_call_object(m, args, n, kwargs);
            NN_RELEASE(m);
            return r;
        }
    }
    if (is_native_callable(callable)) {
        nn_object *tuple = nn_tuple_new((size_t)n);
        if (!tuple) return NULL;
        for (int i = 0; i < n; i++) nn_tuple_set(tuple, (size_t)i, nn_retain(args[i]));
        nn_object *r = call_native(callable, tuple, kwargs);
        NN_RELEASE(tuple);
        return r;
    }
    repl_raise_exc(EXC_TypeError, "'%s' object is not callable", repl_value_type_name(callable));
    return NULL;
}

nn_object *repl_call_method(nn_object *obj, const char *name, nn_object *const *args, int n)
{
    nn_object *m = special_attr(obj, name);
    if (!m) return NULL;
    nn_object *r = repl_call_object(m, args, n, NULL);
    NN_RELEASE(m);
    return r;
}

/* ------------------------------------------------------------------ expressions */

static nn_object *eval_constant(const repl_node *n)
{
    switch (n->v.Constant.ckind) {
    case REPL_CONST_NONE: return nn_retain(nn_none());
    case REPL_CONST_TRUE: return nn_bool_new(true);
    case REPL_CONST_FALSE: return nn_bool_new(false);
    case REPL_CONST_ELLIPSIS: return nn_retain(repl_ellipsis());
    case REPL_CONST_INT:
        if (n->v.Constant.overflow) return repl_int_from_literal(n->v.Constant.s, n->v.Constant.len);
        return nn_int_new(n->v.Constant.i);
    case REPL_CONST_FLOAT: return nn_float_new(n->v.Constant.f);
    case REPL_CONST_IMAG: return nn_complex_new(0, n->v.Constant.f);
    case REPL_CONST_STR: return nn_str_from(n->v.Constant.s, n->v.Constant.len);
    case REPL_CONST_BYTES: return repl_bytes_new(n->v.Constant.s, n->v.Constant.len, false);
    }
    return NULL;
}

static repl_binop binop_of(repl_ast_op op)
{
    switch (op) {
    case REPL_OP_Add: return REPL_ADD;
    case REPL_OP_Sub: return REPL_SUB;
    case REPL_OP_Mult: return REPL_MUL;
    case REPL_OP_MatMult: return REPL_MATMUL;
    case REPL_OP_Div: return REPL_DIV;
    case REPL_OP_Mod: return REPL_MOD;
    case REPL_OP_Pow: return REPL_POW;
    case REPL_OP_FloorDiv: return REPL_FLOORDIV;
    case REPL_OP_BitAnd: return REPL_AND_BITS;
    case REPL_OP_BitOr: return REPL_OR_BITS;
    case REPL_OP_BitXor: return REPL_XOR_BITS;
    case REPL_OP_Lt: return REPL_LT;
    case REPL_OP_LtE: return REPL_LE;
    case REPL_OP_Gt: return REPL_GT;
    case REPL_OP_GtE: return REPL_GE;
    case REPL_OP_Eq: return REPL_EQ;
    case REPL_OP_NotEq: return REPL_NE;
    default: return (repl_binop)-1;
    }
}

static nn_object *shift_op(repl_ast_op op, nn_object *a, nn_object *b)
{
    if (repl_is_integer(a) && repl_is_integer(b) && (repl_is_bigint(a) || repl_is_bigint(b)))
        return repl_int_shift(op == REPL_OP_LShift, a, b);
    if (!is_intlike(a) || !is_intlike(b)) {
        if (repl_base_value(a) || repl_base_value(b)) /* an int subclass's value: IntEnum members */
            return shift_op(op, repl_base_value(a) ? repl_base_value(a) : a, repl_base_value(b) ? repl_base_value(b) : b);
        if (repl_is_bigint(a) && nn_is_tensor(b)) return repl_bigint_torch_overflow();
        repl_raise_exc(EXC_TypeError, "unsupported operand type(s) for %s: '%s' and '%s'", op == REPL_OP_LShift ? "<<" : ">>",
                  repl_value_type_name(a), repl_value_type_name(b));
        return NULL;
    }
    int64_t x = nn_int_value(a), y = nn_int_value(b);
    if (y < 0) {
        repl_raise_exc(EXC_ValueError, "negative shift count");
        return NULL;
    }
    if (op == REPL_OP_RShift) return nn_int_new(y >= 64 ? (x < 0 ? -1 : 0) : x >> y);
    if (x == 0) return nn_int_new(0);
    if (y >= 63 || (x > 0 ? x > (INT64_MAX >> y) : x < (INT64_MIN >> y))) return repl_int_shift(true, a, b);
    return nn_int_new((int64_t)((uint64_t)x << y));
}

static nn_object *eval_binop(repl_ast_op op, nn_object *a, nn_object *b)
{
    if (op == REPL_OP_LShift || op == REPL_OP_RShift) return shift_op(op, a, b);
    repl_binop bop = binop_of(op);
    /* the fast path: int with int arithmetic (+ - * / // % **) goes straight to
       num_binary, where repl_binary_op's type dispatch would send it */
    if (a->type == &nn_int_type && b->type == &nn_int_type && bop < REPL_MATMUL) return num_binary(bop, a, b);
    return repl_binary_op(bop, a, b);
}

static nn_object *eval_unary(repl_ast_op op, nn_object *v)
{
    if (op == REPL_OP_Not) {
        int t = repl_truth(v);
        return t < 0 ? NULL : nn_bool_new(!t);
    }
    if (is_intlike(v)) {
        int64_t x = nn_int_value(v);
        if (op == REPL_OP_USub) return x == INT64_MIN ? repl_int_unary(REPL_NEG, v) : nn_int_new(-x);
        if (op == REPL_OP_UAdd) return nn_int_new(x);
        return nn_int_new(~x);
    }
    if (repl_is_bigint(v)) return repl_int_unary(op == REPL_OP_USub ? REPL_NEG : op == REPL_OP_UAdd ? REPL_POS : REPL_INVERT, v);
    if (v->type == &nn_float_type) {
        if (op == REPL_OP_USub) return nn_float_new(-nn_float_value(v));
        if (op == REPL_OP_UAdd) return nn_retain(v);
    }
    if (nn_is_complex(v)) return repl_complex_unary(op == REPL_OP_USub ? REPL_NEG : op == REPL_OP_UAdd ? REPL_POS : REPL_INVERT, v);
    static const char *names[] = {"__invert__", "__neg__", "__pos__"};
    repl_unop u = op == REPL_OP_USub ? REPL_NEG : op == REPL_OP_UAdd ? REPL_POS : REPL_INVERT;
    if (user_method(v, names[u == REPL_INVERT ? 0 : u == REPL_NEG ? 1 : 2]))
        return repl_call_method(v, names[u == REPL_INVERT ? 0 : u == REPL_NEG ? 1 : 2], NULL, 0);
    if (repl_base_value(v)) return eval_unary(op, repl_base_value(v)); /* -I(3) */
    const repl_native_ops *ops = repl_get_native_ops();
    if (is_native(v) && ops && ops->unary) {
        nn_object *r = ops->unary(u, v);
        if (r || nn_error_current()) return r;
    }
    repl_raise_exc(EXC_TypeError, "bad operand type for unary %s: '%s'", op == REPL_OP_USub ? "-" : op == REPL_OP_UAdd ? "+" : "~",
              repl_value_type_name(v));
    return NULL;
}

static nn_object *eval_compare(frame *f, const repl_node *n)
{
    nn_object *left = eval(f, n->v.Compare.left);
    if (!left) return NULL;
    for (int i = 0; i < n->v.Compare.comparators.n; i++) {
        nn_object *right = eval(f, n->v.Compare.comparators.items[i]);
        if (!right) {
            NN_RELEASE(left);
            return NULL;
        }
        repl_ast_op op = n->v.Compare.ops[i];
        nn_object *r = NULL;
        int c;
        switch (op) {
        case REPL_OP_Is: r = nn_bool_new(left == right || (nn_is_none(left) && nn_is_none(right))); break;
        case REPL_OP_IsNot: r = nn_bool_new(!(left == right || (nn_is_none(left) && nn_is_none(right)))); break;
        case REPL_OP_In:
        case REPL_OP_NotIn:
            c = contains(right, left);
            if (c >= 0) r = nn_bool_new(op == REPL_OP_In ? c : !c);
            break;
        default: r = repl_binary_op(binop_of(op), left, right); break;
        }
        NN_RELEASE(left);
        if (!r) {
            NN_RELEASE(right);
            return NULL;
        }
        if (i == n->v.Compare.comparators.n - 1) {
            NN_RELEASE(right);
            return r;
        }
        int t = repl_truth(r);
        if (t <= 0) {
            NN_RELEASE(right);
            if (t < 0) {
                NN_RELEASE(r);
                return NULL;
            }
            return r;
        }
        NN_RELEASE(r);
        left = right;
    }
    return left;
}

/* Appends the items of an iterable to list (for *x in displays and calls). */
static int extend_list(nn_object *list, nn_object *iterable)
{
    nn_object *items = repl_to_list(iterable);
    if (!items) return -1;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < nn_list_len(items); i++) rc = nn_list_append(list, nn_list_get(items, i));
    NN_RELEASE(items);
    return rc;
}

/* Elements of a List/Tuple/Set display, starred ones expanded: a new list. */
/* Whether CPython's compiler folds e into a constant: a literal, a signed
   literal, or a tuple of such (it then builds set displays of 3 or more from
   a frozenset constant). */
static bool folds_to_constant(const repl_node *e)
{
    if (e->kind == REPL_AST_Constant) return true;
    if (e->kind == REPL_AST_UnaryOp && (e->v.UnaryOp.op == REPL_OP_USub || e->v.UnaryOp.op == REPL_OP_UAdd))
        return folds_to_constant(e->v.UnaryOp.operand);
    if (e->kind != REPL_AST_Tuple) return false;
    for (int i = 0; i < e->v.List.elts.n; i++)
        if (!folds_to_constant(e->v.List.elts.items[i])) return false;
    return true;
}

static nn_object *eval_elts(frame *f, const repl_node_list *elts)
{
    nn_object *l = nn_list_new((size_t)elts->n);
    if (!l) return NULL;
    for (int i = 0; i < elts->n; i++) {
        const repl_node *e = elts->items[i];
        bool star = e->kind == REPL_AST_Starred;
        nn_object *v = eval(f, star ? e->v.Starred.value : e);
        int rc = v ? (star ? extend_list(l, v) : nn_list_append(l, v)) : -1;
        NN_RELEASE(v);
        if (rc < 0) {
            NN_RELEASE(l);
            return NULL;
        }
    }
    return l;
}

static nn_object *list_to_tuple(nn_object *l)
{
    nn_object *t = nn_tuple_new(nn_list_len(l));
    for (size_t i = 0; t && i < nn_list_len(l); i++) nn_tuple_set(t, i, nn_retain(nn_list_get(l, i)));
    return t;
}

/* ------------------------------------------------------------------ generators */

/* A generator for a call of the generator function fn (frame f: its bound
   arguments' scope) or for the generator expression comp made in frame f. */
static nn_object *make_generator(frame *f, func_obj *fn, const repl_node *comp, nn_object *first)
{
    repl_gen_body *b = nn_calloc(1, sizeof *b);
    if (!b) {
        if (fn) NN_RELEASE(f->sc);
        return NULL;
    }
    char qual[256];
    if (fn) {
        b->f = *f;
        b->f.unit->refcount++; /* before any failure: repl_gen_body_free releases it */
        b->sc = f->sc; /* the call's scope, taken */
        b->fn = fn;
        NN_RETAIN(&fn->ob);
        const char *owner = fn->owner && fn->owner->type == &repl_class_type ? ((class_obj *)fn->owner)->name : NULL;
        snprintf(qual, sizeof qual, "%s%s%s", owner ? owner : "", owner ? "." : "", fn->name);
    } else {
        scope *sc = repl_scope_new(f->sc ? f->sc : f->env);
        if (!sc) {
            nn_free(b);
            return NULL;
        }
        b->f = (frame){.unit = f->unit, .name = "<genexpr>", .locals = &sc->map, .sc = sc, .env = sc, .line = comp->line};
        b->f.unit->refcount++;
        b->sc = sc;
        b->comp = comp;
        if (!(b->its = nn_calloc((size_t)comp->v.Comp.generators.n, sizeof *b->its))) {
            repl_gen_body_free(b);
            return NULL;
        }
        b->its[0] = nn_retain(first);
        b->active = 1;
        for (comp_scope *c = f->comp; c; c = c->up) { /* inner names first */
            uint32_t pos = 0;
            const char *k;
            nn_object *v;
            while (repl_nmap_next(comp_map(c), &pos, &k, &v))
                if (!repl_nmap_get(&b->outer.own, k) && repl_nmap_set(&b->outer.own, k, v) < 0) {
                    repl_gen_body_free(b);
                    return NULL;
                }
        }
        b->cs.up = b->outer.own.len ? &b->outer : NULL;
        b->f.comp = &b->cs;
        snprintf(qual, sizeof qual, "<genexpr>");
    }
    b->f.back = NULL;
    nn_object *g = repl_gen_new(b, qual);
    if (g) b->f.gen = g; /* borrowed: the generator owns the body */
    return g;
}

static nn_object *make_genexp(frame *f, const repl_node *n)
{
    nn_object *iterable = eval(f, n->v.Comp.generators.items[0]->v.comprehension.iter);
    nn_object *it = iterable ? repl_get_iter(iterable) : NULL;
    NN_RELEASE(iterable);
    if (!it) return NULL;
    nn_object *g = make_generator(f, NULL, n, it);
    NN_RELEASE(it);
    return g;
}

int repl_gen_body_run(repl_gen_body *b, nn_object **retval)
{
    frame *f = &b->f;
    exec_status st = exec_block(f, b->fn->body);
    if (st == EX_ERR) {
        tb_add(f);
        return -1;
    }
    *retval = st == EX_RETURN ? f->retval : nn_retain(nn_none());
    f->retval = NULL;
    return 0;
}

bool repl_gen_body_is_expr(const repl_gen_body *b) { return b->comp != NULL; }

/* The next item of a generator expression, without a stack of its own: its for
   clauses' iterators advance as nested loops would. 1, 0 at the end, -1. */
int repl_genexp_next(repl_gen_body *b, nn_object **out)
{
    frame *f = &b->f;
    const repl_node_list *gens = &b->comp->v.Comp.generators;
    while (b->active > 0) {
        int k = b->active - 1;
        const repl_node *g = gens->items[k];
        nn_object *item;
        int r = repl_iter_next(b->its[k], &item);
        if (r == 0) {
            NN_SET(b->its[k], NULL);
            b->active--;
            continue;
        }
        int rc = r < 0 ? -1 : assign(f, g->v.comprehension.target, item);
        if (r > 0) NN_RELEASE(item);
        bool ok = true;
        for (int i = 0; rc == 0 && ok && i < g->v.comprehension.ifs.n; i++) {
            nn_object *c = eval(f, g->v.comprehension.ifs.items[i]);
            int t = c ? repl_truth(c) : -1;
            NN_RELEASE(c);
            if (t < 0) rc = -1;
            ok = t > 0;
        }
        if (rc == 0 && ok && k + 1 < gens->n) {
            nn_object *iterable = eval(f, gens->items[k + 1]->v.comprehension.iter);
            b->its[k + 1] = iterable ? repl_get_iter(iterable) : NULL;
            NN_RELEASE(iterable);
            if (b->its[k + 1]) b->active++;
            else rc = -1;
            continue;
        }
        if (rc == 0 && ok) *out = eval(f, b->comp->v.Comp.elt);
        if (rc < 0 || (ok && !*out)) {
            tb_add(f);
            return -1;
        }
        if (ok) return 1;
    }
    return 0;
}

int repl_gen_body_enter(repl_gen_body *b)
{
    repl_interp *in = repl_current;
    if (in->depth >= MAX_DEPTH) return repl_raise_exc(EXC_RecursionError, "maximum recursion depth exceeded");
    b->f.back = in->top;
    in->top = &b->f;
    in->depth++;
    return 0;
}

void repl_gen_body_leave(repl_gen_body *b)
{
    repl_interp *in = repl_current;
    in->top = b->f.back;
    in->depth--;
}

void repl_gen_body_free(repl_gen_body *b)
{
    if (!b) return;
    NN_RELEASE(b->f.retval);
    for (int i = 0; b->its && i < b->comp->v.Comp.generators.n; i++) NN_RELEASE(b->its[i]);
    nn_free(b->its);
    comp_scope_clear(&b->outer);
    comp_scope_clear(&b->cs);
    NN_RELEASE(b->sc);
    if (b->fn) NN_RELEASE(&b->fn->ob);
    unit_release(b->f.unit);
    nn_free(b);
}

/* Comprehensions: generators[gi] onwards, adding results to out. */
static int comp_loop(frame *f, const repl_node *n, int gi, nn_object *out)
{
    const repl_node *g = n->v.Comp.generators.items[gi];
    nn_object *iterable = eval(f, g->v.comprehension.iter);
    if (!iterable) return -1;
    nn_object *it = repl_get_iter(iterable), *item;
    NN_RELEASE(iterable);
    if (!it) return -1;
    int rc = 0, r;
    while ((r = repl_iter_next(it, &item)) == 1) {
        rc = assign(f, g->v.comprehension.target, item);
        NN_RELEASE(item);
        if (rc < 0) break;
        bool ok = true;
        for (int i = 0; i < g->v.comprehension.ifs.n && ok; i++) {
            nn_object *c = eval(f, g->v.comprehension.ifs.items[i]);
            int t = c ? repl_truth(c) : -1;
            NN_RELEASE(c);
            if (t < 0) {
                rc = -1;
                break;
            }
            ok = t;
        }
        if (rc < 0) break;
        if (!ok) continue;
        if (gi + 1 < n->v.Comp.generators.n) {
            rc = comp_loop(f, n, gi + 1, out);
        } else if (n->kind == REPL_AST_DictComp) {
            nn_object *k = eval(f, n->v.Comp.elt), *v = k ? eval(f, n->v.Comp.value) : NULL;
            rc = v ? (repl_obj_hash(k) == -1 && nn_error_current() ? -1 : nn_dict_set(out, k, v)) : -1;
            NN_RELEASE(k);
            NN_RELEASE(v);
        } else {
            nn_object *v = eval(f, n->v.Comp.elt);
            rc = !v ? -1 : n->kind == REPL_AST_SetComp ? repl_set_add(out, v) : nn_list_append(out, v);
            NN_RELEASE(v);
        }
        if (rc < 0) break;
        if (nn_check_interrupt() < 0) {
            rc = -1;
            break;
        }
    }
    NN_RELEASE(it);
    return r < 0 ? -1 : rc;
}

/* A comprehension failed: CPython 3.11 runs it as a function of its own, so its
   traceback has a <listcomp> entry (unless its first iterable, evaluated
   outside, failed) and the enclosing frame points at the whole comprehension. */
static void comp_traceback(frame *f, const repl_node *n)
{
    const repl_node *e = f->err_node, *it = n->v.Comp.generators.items[0]->v.comprehension.iter;
    bool in_first_iter = e && it->end_line && (e->line > it->line || (e->line == it->line && e->col >= it->col)) &&
                         (e->line < it->end_line || (e->line == it->end_line && e->col < it->end_col));
    if (!e || in_first_iter) return;
    frame cf = *f;
    cf.name = n->kind == REPL_AST_DictComp ? "<dictcomp>" : n->kind == REPL_AST_SetComp ? "<setcomp>" : "<listcomp>";
    cf.line = e->line;
    tb_add(&cf);
    f->err_node = n;
}

static nn_object *eval_comp(frame *f, const repl_node *n)
{
    if (n->kind == REPL_AST_GeneratorExp) return make_genexp(f, n);
    nn_object *out = n->kind == REPL_AST_DictComp ? nn_dict_new() : n->kind == REPL_AST_SetComp ? repl_set_new(false) : nn_list_new(0);
    if (!out) return NULL;
    comp_scope cs = {.up = f->comp};
    f->comp = &cs;
    int rc = comp_loop(f, n, 0, out);
    f->comp = cs.up;
    comp_scope_clear(&cs);
    if (rc < 0) {
        NN_RELEASE(out);
        comp_traceback(f, n);
        return NULL;
    }
    if (n->kind == REPL_AST_GeneratorExp) {
        nn_object *it = repl_get_iter(out);
        NN_RELEASE(out);
        return it;
    }
    return out;
}

/* How CPython 3.11 names a callee in a call's argument errors: __main__.f and
   __main__.A.m for a function or method of the language, a built-in's name. */
static void callee_name(nn_object *func, char *buf, size_t cap)
{
    if (func->type == &repl_method_type) func = ((method_obj *)func)->func;
    if (func->type == &repl_function_type) {
        snprintf(buf, cap, "__main__.%s", repl_func_qualname((func_obj *)func));
        return;
    }
    nn_object *name = repl_get_attr(func, "__qualname__");
    if (!name) {
        nn_error_clear();
        if (!(name = repl_get_attr(func, "__name__"))) nn_error_clear();
    }
    snprintf(buf, cap, "%s", name && nn_is_str(name) ? nn_str_cstr(name) : repl_value_type_name(func));
    NN_RELEASE(name);
}

/* A call's keywords (name=value and **mapping) as a new dict; callee names the
   function in the errors (a repeated name, ** of a non-mapping). */
static nn_object *eval_keywords(frame *f, const repl_node_list *kl, const char *callee)
{
    nn_object *kwargs = nn_dict_new();
    if (!kwargs) return NULL;
    for (int i = 0; i < kl->n; i++) {
        const repl_node *k = kl->items[i];
        nn_object *v = eval(f, k->v.keyword.value);
        if (!v) goto fail;
        int rc = 0;
        if (!k->v.keyword.arg && repl_base_value(v) && nn_is_dict(repl_base_value(v))) /* f(**MyDict(...)) */
            NN_SET(v, nn_retain(repl_base_value(v)));
        if (k->v.keyword.arg) {
            nn_object *key = nn_str_new(k->v.keyword.arg);
            if (key && nn_dict_get(kwargs, key)) {
                repl_raise_exc(EXC_TypeError, "%s() got multiple values for keyword argument '%s'", callee,
                               k->v.keyword.arg);
                rc = -1;
            }
            rc = rc < 0 || !key ? -1 : nn_dict_set(kwargs, key, v);
            NN_RELEASE(key);
        } else if (v->type != &nn_dict_type) {
            rc = repl_raise_exc(EXC_TypeError, "%s() argument after ** must be a mapping, not %s", callee,
                                repl_value_type_name(v));
        } else {
            size_t pos = 0;
            nn_object *kk, *vv;
            while (rc == 0 && nn_dict_next(v, &pos, &kk, &vv)) {
                if (!nn_is_str(kk)) rc = repl_raise_exc(EXC_TypeError, "keywords must be strings");
                else if (nn_dict_get(kwargs, kk))
                    rc = repl_raise_exc(EXC_TypeError, "%s() got multiple values for keyword argument '%s'", callee,
                                        nn_str_cstr(kk));
                else rc = nn_dict_set(kwargs, kk, vv);
            }
        }
        NN_RELEASE(v);
        if (rc < 0) goto fail;
    }
    return kwargs;
fail:
    NN_RELEASE(kwargs);
    return NULL;
}

static nn_object *eval_call(frame *f, const repl_node *n)
{
    nn_object *func = eval(f, n->v.Call.func);
    if (!func) return NULL;
    const repl_node_list *al = &n->v.Call.args, *kl = &n->v.Call.keywords;
    nn_object *stackbuf[8], **args = stackbuf, *starred = NULL, *kwargs = NULL, *result = NULL;
    int nargs = 0;
    bool has_star = false;
    for (int i = 0; i < al->n; i++)
        if (al->items[i]->kind == REPL_AST_Starred) has_star = true;
    if (has_star) {
        starred = eval_elts(f, al);
        if (!starred) goto out;
        nargs = (int)nn_list_len(starred);
        args = nn_malloc(sizeof(nn_object *) * (size_t)(nargs + 1));
        if (!args) goto out;
        for (int i = 0; i < nargs; i++) args[i] = nn_list_get(starred, (size_t)i);
    } else {
        if (al->n > 8 && !(args = nn_malloc(sizeof(nn_object *) * (size_t)al->n))) goto out;
        for (; nargs < al->n; nargs++)
            if (!(args[nargs] = eval(f, al->items[nargs]))) goto out;
    }
    if (kl->n) {
        char callee[256];
        callee_name(func, callee, sizeof callee);
        if (!(kwargs = eval_keywords(f, kl, callee))) goto out;
    }
    f->line = n->line;
    result = repl_call_object(func, args, nargs, kwargs);
out:
    if (!starred)
        for (int i = 0; i < nargs; i++) NN_RELEASE(args[i]);
    if (args != stackbuf) nn_free(args);
    NN_RELEASE(starred);
    NN_RELEASE(kwargs);
    NN_RELEASE(func);
    return result;
}

static nn_object *eval_fstring(frame *f, const repl_node *n)
{
    sbuf b = {0};
    for (int i = 0; i < n->v.JoinedStr.values.n; i++) {
        const repl_node *p = n->v.JoinedStr.values.items[i];
        if (p->kind == REPL_AST_Constant) {
            repl_sb_add(&b, p->v.Constant.s, p->v.Constant.len);
            continue;
        }
        nn_object *v = eval(f, p->v.FormattedValue.value);
        if (!v) goto fail;
        int conv = p->v.FormattedValue.conversion;
        if (conv == 's') {
            NN_SET(v, repl_obj_str_object(v));
            if (!v) goto fail;
        } else if (conv == 'r' || conv == 'a') {
            char *s = conv == 'r' ? repl_obj_repr(v) : repl_obj_ascii(v);
            NN_RELEASE(v);
            if (!s) goto fail;
            v = nn_str_new(s);
            nn_free(s);
            if (!v) goto fail;
        }
        nn_object *spec = NULL;
        if (p->v.FormattedValue.format_spec) {
            spec = eval_fstring(f, p->v.FormattedValue.format_spec);
            if (!spec) {
                NN_RELEASE(v);
                goto fail;
            }
        }
        nn_object *s = repl_format_value(v, spec ? nn_str_cstr(spec) : "");
        NN_RELEASE(v);
        NN_RELEASE(spec);
        if (!s) goto fail;
        repl_sb_add(&b, nn_str_cstr(s), nn_str_len(s));
        NN_RELEASE(s);
    }
    {
        if (b.failed) goto fail;
        nn_object *r = nn_str_from(b.buf ? b.buf : "", b.len);
        nn_free(b.buf);
        return r;
    }
fail:
    nn_free(b.buf);
    if (b.failed) nn_error_set(NN_ERR_MEMORY, "out of memory");
    return NULL;
}

static nn_object *eval_slice_part(frame *f, const repl_node *n)
{
    return n ? eval(f, n) : nn_retain(nn_none());
}

static nn_object *eval_node(frame *f, const repl_node *n);
/* Evaluates n; the innermost expression that fails is the frame's err_node. */
static nn_object *load_name_at(frame *f, const char *name, repl_name_cache *c);
static nn_object *eval_constant(const repl_node *n);
static inline __attribute__((always_inline)) nn_object *eval(frame *f, const repl_node *n)
{
    /* names and constants, the commonest leaves, skip eval_node's dispatch */
    nn_object *r = n->kind == REPL_AST_Name ? load_name_at(f, n->v.Name.id, &((repl_node *)n)->v.Name.cache)
                 : n->kind == REPL_AST_Constant ? eval_constant(n)
                 : eval_node(f, n);
    if (!r && !f->err_node) f->err_node = n;
    return r;
}

static nn_object *eval_node(frame *f, const repl_node *n)
{
    if (nn_stack_check() < 0) return NULL;
    switch (n->kind) {
    case REPL_AST_Constant: return eval_constant(n);
    case REPL_AST_Name: return load_name_at(f, n->v.Name.id, &((repl_node *)n)->v.Name.cache);
    case REPL_AST_BinOp: {
        nn_object *a = eval(f, n->v.BinOp.left);
        if (!a) return NULL;
        nn_object *b = eval(f, n->v.BinOp.right);
        if (!b) {
            NN_RELEASE(a);
            return NULL;
        }
        nn_object *r = eval_binop(n->v.BinOp.op, a, b);
        NN_RELEASE(a);
        NN_RELEASE(b);
        return r;
    }
    case REPL_AST_UnaryOp: {
        nn_object *v = eval(f, n->v.UnaryOp.operand);
        if (!v) return NULL;
        nn_object *r = eval_unary(n->v.UnaryOp.op, v);
        NN_RELEASE(v);
        return r;
    }
    case REPL_AST_BoolOp: {
        nn_object *v = NULL;
        for (int i = 0; i < n->v.BoolOp.values.n; i++) {
            NN_RELEASE(v);
            v = eval(f, n->v.BoolOp.values.items[i]);
            if (!v) return NULL;
            if (i == n->v.BoolOp.values.n - 1) break; /* the last operand is the value, never tested */
            int t = repl_truth(v);
            if (t < 0) {
                NN_RELEASE(v);
                return NULL;
            }
            if (n->v.BoolOp.op == REPL_OP_And ? !t : t) break;
        }
        return v;
    }
    case REPL_AST_Compare: return eval_compare(f, n);
    case REPL_AST_IfExp: {
        nn_object *c = eval(f, n->v.IfExp.test);
        int t = c ? repl_truth(c) : -1;
        NN_RELEASE(c);
        if (t < 0) return NULL;
        return eval(f, t ? n->v.IfExp.body : n->v.IfExp.orelse);
    }
    case REPL_AST_Call: return eval_call(f, n);
    case REPL_AST_Attribute: {
        nn_object *o = eval(f, n->v.Attribute.value);
        if (!o) return NULL;
        nn_object *r = repl_get_attr(o, n->v.Attribute.attr);
        NN_RELEASE(o);
        return r;
    }
    case REPL_AST_Subscript: {
        nn_object *o = eval(f, n->v.Subscript.value);
        if (!o) return NULL;
        nn_object *k = eval(f, n->v.Subscript.slice);
        if (!k) {
            NN_RELEASE(o);
            return NULL;
        }
        nn_object *r = repl_get_item(o, k);
        NN_RELEASE(o);
        NN_RELEASE(k);
        return r;
    }
    case REPL_AST_Slice: {
        nn_object *a = eval_slice_part(f, n->v.Slice.lower), *b = a ? eval_slice_part(f, n->v.Slice.upper) : NULL,
                  *c = b ? eval_slice_part(f, n->v.Slice.step) : NULL;
        nn_object *r = c ? repl_slice_new(a, b, c) : NULL;
        NN_RELEASE(a);
        NN_RELEASE(b);
        NN_RELEASE(c);
        return r;
    }
    case REPL_AST_List: return eval_elts(f, &n->v.List.elts);
    case REPL_AST_Tuple: {
        nn_object *l = eval_elts(f, &n->v.List.elts);
        if (!l) return NULL;
        nn_object *t = list_to_tuple(l);
        NN_RELEASE(l);
        return t;
    }
    case REPL_AST_Set: {
        nn_object *l = eval_elts(f, &n->v.Set.elts);
        if (!l) return NULL;
        nn_object *s = repl_set_new(false);
        for (size_t i = 0; s && i < nn_list_len(l); i++)
            if (repl_set_add(s, nn_list_get(l, i)) < 0) NN_SET(s, NULL);
        NN_RELEASE(l);
        bool constants = n->v.Set.elts.n >= 3;
        for (int i = 0; constants && i < n->v.Set.elts.n; i++) constants = folds_to_constant(n->v.Set.elts.items[i]);
        if (s && constants) repl_set_mark_constant_display(s);
        return s;
    }
    case REPL_AST_Dict: {
        nn_object *d = nn_dict_new();
        if (!d) return NULL;
        for (int i = 0; i < n->v.Dict.values.n; i++) {
            const repl_node *kn = n->v.Dict.keys.items[i];
            nn_object *v = eval(f, n->v.Dict.values.items[i]), *k = NULL;
            int rc = -1;
            if (v && !kn) {
                if (repl_base_value(v) && nn_is_dict(repl_base_value(v))) NN_SET(v, nn_retain(repl_base_value(v)));
                if (v->type != &nn_dict_type) repl_raise_exc(EXC_TypeError, "'%s' object is not a mapping", repl_value_type_name(v));
                else {
                    size_t pos = 0;
                    nn_object *kk, *vv;
                    rc = 0;
                    while (rc == 0 && nn_dict_next(v, &pos, &kk, &vv)) rc = nn_dict_set(d, kk, vv);
                }
            } else if (v && (k = eval(f, kn))) {
                rc = repl_obj_hash(k) == -1 && nn_error_current() ? -1 : nn_dict_set(d, k, v);
            }
            NN_RELEASE(k);
            NN_RELEASE(v);
            if (rc < 0) {
                NN_RELEASE(d);
                return NULL;
            }
        }
        return d;
    }
    case REPL_AST_ListComp:
    case REPL_AST_SetComp:
    case REPL_AST_DictComp:
    case REPL_AST_GeneratorExp: return eval_comp(f, n);
    case REPL_AST_Yield:
    case REPL_AST_YieldFrom: {
        if (!f->gen) {
            repl_raise_exc(EXC_SyntaxError, "'yield' outside function");
            return NULL;
        }
        nn_object *v = n->v.Return.value ? eval(f, n->v.Return.value) : nn_retain(nn_none());
        nn_object *r = !v ? NULL : n->kind == REPL_AST_Yield ? repl_gen_yield(f->gen, v) : repl_gen_yield_from(f->gen, v);
        NN_RELEASE(v);
        return r;
    }
    case REPL_AST_Lambda: return make_function(f, n);
    case REPL_AST_NamedExpr: {   /* binds in the frame, past any comprehension's own names */
        nn_object *v = eval(f, n->v.NamedExpr.value);
        const char *id = n->v.NamedExpr.target->v.Name.id;
        int rc = 0;
        if (v && f->gen && !f->fn && f->sc)   /* in a generator expression: where it was written */
            rc = repl_nmap_set(f->sc->parent ? repl_scope_names(f->sc->parent) : &repl_current->globals, id, v);
        else if (v) rc = store_name(f, id, v);
        if (rc < 0) NN_SET(v, NULL);
        return v;
    }
    case REPL_AST_JoinedStr: return eval_fstring(f, n);
    case REPL_AST_Starred:
        repl_raise_exc(EXC_SyntaxError, "can't use starred expression here");
        return NULL;
    default:
        repl_raise_exc(EXC_SyntaxError, "unsupported expression: %s", repl_ast_kind_name(n->kind));
        return NULL;
    }
}

/* ------------------------------------------------------------------ assignment */

static int unpack(frame *f, const repl_node_list *elts, nn_object *value)
{
    nn_object *items = value->type == &nn_list_type || is_tuple_like(value) ? NULL : repl_to_list(value);
    if (!items && value->type != &nn_list_type && !is_tuple_like(value)) {
        if (nn_error_current() == NN_ERR_TYPE || (repl_current->exc && repl_is_exception(repl_current->exc))) {
            nn_object *e = repl_take_exception();
            NN_RELEASE(e);
            return repl_raise_exc(EXC_TypeError, "cannot unpack non-iterable %s object", repl_value_type_name(value));
        }
        return -1;
    }
    nn_object *src = items ? items : value;
    bool list = src->type == &nn_list_type;
    size_t n = list ? nn_list_len(src) : nn_tuple_len(src);
    int star = -1;
    for (int i = 0; i < elts->n; i++)
        if (elts->items[i]->kind == REPL_AST_Starred) star = i;
    int rc = 0;
    size_t want = (size_t)elts->n - (star >= 0);
    if (star < 0 && n != want) {
        if (n > want) rc = repl_raise_exc(EXC_ValueError, "too many values to unpack (expected %zu)", want);
        else rc = repl_raise_exc(EXC_ValueError, "not enough values to unpack (expected %zu, got %zu)", want, n);
    } else if (star >= 0 && n < want) {
        rc = repl_raise_exc(EXC_ValueError, "not enough values to unpack (expected at least %zu, got %zu)", want, n);
    }
    nn_retain(src);
    for (int i = 0, j = 0; rc == 0 && i < elts->n; i++) {
        if (i == star) {
            size_t cnt = n - want;
            nn_object *l = nn_list_new(cnt);
            for (size_t k = 0; l && k < cnt; k++) nn_list_append(l, list ? nn_list_get(src, (size_t)j + k) : nn_tuple_get(src, (size_t)j + k));
            rc = l ? assign(f, elts->items[i]->v.Starred.value, l) : -1;
            NN_RELEASE(l);
            j += (int)cnt;
        } else {
            rc = assign(f, elts->items[i], list ? nn_list_get(src, (size_t)j) : nn_tuple_get(src, (size_t)j));
            j++;
        }
    }
    NN_RELEASE(src);
    NN_RELEASE(items);
    return rc;
}

static int assign(frame *f, const repl_node *t, nn_object *value)
{
    switch (t->kind) {
    case REPL_AST_Name: {
        repl_name_cache *c = &((repl_node *)t)->v.Name.cache;
        if (f->comp) return repl_nmap_set_cached(comp_map(f->comp), t->v.Name.id, value, c);
        return store_name_at(f, t->v.Name.id, value, c);
    }
    case REPL_AST_Attribute: {
        nn_object *o = eval(f, t->v.Attribute.value);
        if (!o) return -1;
        int rc = repl_set_attr(o, t->v.Attribute.attr, value);
        NN_RELEASE(o);
        return rc;
    }
    case REPL_AST_Subscript: {
        nn_object *o = eval(f, t->v.Subscript.value);
        if (!o) return -1;
        nn_object *k = eval(f, t->v.Subscript.slice);
        int rc = k ? set_item(o, k, value) : -1;
        NN_RELEASE(o);
        NN_RELEASE(k);
        return rc;
    }
    case REPL_AST_Tuple:
    case REPL_AST_List: return unpack(f, &t->v.List.elts, value);
    default: return repl_raise_exc(EXC_SyntaxError, "cannot assign to %s", repl_ast_kind_name(t->kind));
    }
}

static int delete(frame *f, const repl_node *t)
{
    switch (t->kind) {
    case REPL_AST_Name: return del_name(f, t->v.Name.id);
    case REPL_AST_Attribute: {
        nn_object *o = eval(f, t->v.Attribute.value);
        if (!o) return -1;
        int rc = repl_del_attr(o, t->v.Attribute.attr);
        NN_RELEASE(o);
        return rc;
    }
    case REPL_AST_Subscript: {
        nn_object *o = eval(f, t->v.Subscript.value);
        if (!o) return -1;
        nn_object *k = eval(f, t->v.Subscript.slice);
        int rc = k ? del_item(o, k) : -1;
        NN_RELEASE(o);
        NN_RELEASE(k);
        return rc;
    }
    case REPL_AST_Tuple:
    case REPL_AST_List:
        for (int i = 0; i < t->v.List.elts.n; i++)
            if (delete(f, t->v.List.elts.items[i]) < 0) return -1;
        return 0;
    default: return repl_raise_exc(EXC_SyntaxError, "cannot delete %s", repl_ast_kind_name(t->kind));
    }
}

/* x op= y as Python's protocol: the object's in-place form when it has one (a
   list, set or dict's own, a user class's __iadd__ & co. unless it returns
   NotImplemented, a tensor's add_ & co.), else x = x op y. */
static nn_object *inplace_op(repl_ast_op op, nn_object *a, nn_object *b)
{
    static const char *inames[] = {
        [REPL_OP_Add] = "__iadd__", [REPL_OP_Sub] = "__isub__", [REPL_OP_Mult] = "__imul__",
        [REPL_OP_MatMult] = "__imatmul__", [REPL_OP_Div] = "__itruediv__", [REPL_OP_Mod] = "__imod__",
        [REPL_OP_Pow] = "__ipow__", [REPL_OP_LShift] = "__ilshift__", [REPL_OP_RShift] = "__irshift__",
        [REPL_OP_BitOr] = "__ior__", [REPL_OP_BitXor] = "__ixor__", [REPL_OP_BitAnd] = "__iand__",
        [REPL_OP_FloorDiv] = "__ifloordiv__"};
    bool shift = op == REPL_OP_LShift || op == REPL_OP_RShift;
    if (a->type == &nn_int_type && b->type == &nn_int_type) return eval_binop(op, a, b); /* i += 1 */
    nn_object *r = NULL;
    if (!shift && (r = repl_inplace_builtin(binop_of(op), a, b))) return r;
    if (nn_error_current()) return NULL;
    if ((size_t)op < sizeof inames / sizeof *inames && inames[op] && user_method(a, inames[op])) {
        r = repl_call_method(a, inames[op], &b, 1);
        if (!r || !repl_is_not_implemented(r)) return r;
        NN_RELEASE(r);
    }
    if (!shift && repl_base_value(a)) { /* a list subclass's += extends its list, and stays itself */
        if ((r = repl_inplace_builtin(binop_of(op), repl_base_value(a), repl_unwrap_value(b)))) {
            NN_RELEASE(r);
            return nn_retain(a);
        }
        if (nn_error_current()) return NULL;
    }
    const repl_native_ops *ops = repl_get_native_ops();
    if (!shift && is_native(a) && ops && ops->inplace && ((r = ops->inplace(binop_of(op), a, b)) || nn_error_current()))
        return r;
    r = eval_binop(op, a, b);
    const char *msg = r ? NULL : nn_error_message();
    const char *prefix = "unsupported operand type(s) for ";
    size_t np = strlen(prefix);
    if (msg && nn_error_current() == NN_ERR_TYPE && !strncmp(msg, prefix, np) && strchr(msg + np, ':')) {
        /* Python names the augmented operator: "for -=: 'A' and 'int'" */
        char *text = nn_strdup(msg);
        if (text) {
            char *colon = strchr(text + np, ':');
            *colon = 0;
            repl_tb_clear(repl_current);
            nn_object *old = repl_take_exception();
            NN_RELEASE(old);
            repl_raise_exc(EXC_TypeError, "%s=:%s", text, colon + 1);
            nn_free(text);
        }
    }
    return r;
}

/* ------------------------------------------------------------------ statements */

static exec_status exec_stmt(frame *f, const repl_node *s);

static exec_status exec_block(frame *f, const repl_node_list *body)
{
    for (int i = 0; i < body->n; i++) {
        if (nn_gc_due()) nn_gc_maybe_collect(); /* between statements: a safe point */
        exec_status st = exec_stmt(f, body->items[i]);
        if (st != EX_OK) return st;
    }
    return EX_OK;
}

static exec_status exec_for(frame *f, const repl_node *s)
{
    nn_object *iterable = eval(f, s->v.For.iter);
    if (!iterable) return EX_ERR;
    nn_object *it = repl_get_iter(iterable), *item;
    NN_RELEASE(iterable);
    if (!it) return EX_ERR;
    exec_status st = EX_OK;
    int r;
    bool broke = false;
    /* a failing next() (a generator's error) is the for line's, as in CPython */
    while ((f->line = s->line, f->err_node = NULL, r = repl_iter_next(it, &item)) == 1) {
        int rc = assign(f, s->v.For.target, item);
        NN_RELEASE(item);
        if (rc < 0) {
            st = EX_ERR;
            break;
        }
        st = exec_block(f, &s->v.For.body);
        if (st == EX_BREAK) {
            broke = true;
            st = EX_OK;
            break;
        }
        if (st == EX_CONTINUE) st = EX_OK;
        if (st != EX_OK) break;
        if (nn_check_interrupt() < 0) {
            f->line = s->line;
            st = EX_ERR;
            break;
        }
    }
    NN_RELEASE(it);
    if (r < 0) return EX_ERR;
    if (st == EX_OK && !broke) st = exec_block(f, &s->v.For.orelse);
    return st;
}

static exec_status exec_while(frame *f, const repl_node *s)
{
    for (;;) {
        f->line = s->line;
        nn_object *c = eval(f, s->v.While.test);
        int t = c ? repl_truth(c) : -1;
        NN_RELEASE(c);
        if (t < 0) return EX_ERR;
        if (!t) return exec_block(f, &s->v.While.orelse);
        exec_status st = exec_block(f, &s->v.While.body);
        if (st == EX_BREAK) return EX_OK;
        if (st != EX_OK && st != EX_CONTINUE) return st;
        if (nn_check_interrupt() < 0) {
            f->line = s->line;
            return EX_ERR;
        }
    }
}

/* locals(): at module level the live globals(); in a function or class body a new
   dict of the names bound there so far (CPython 3.11's snapshot) */
nn_object *repl_locals_dict(void)
{
    frame *f = repl_current->top;
    if (!f || f->locals == &repl_current->globals) return repl_globals_dict();
    nn_object *m = module_of(f);
    if (m && f->locals == &((module_obj *)m)->dict) return repl_namespace_dict(m); /* an imported module's body */
    nn_object *d = nn_dict_new();
    if (!d || !f->locals->len) return d;
    const char **keys = repl_nmap_keys_ordered(f->locals);
    if (!keys) {
        NN_RELEASE(d);
        return NULL;
    }
    for (uint32_t i = 0; i < f->locals->len; i++)
        if (nn_dict_set_str(d, keys[i], repl_nmap_get(f->locals, keys[i])) < 0) {
            NN_RELEASE(d);
            d = NULL;
            break;
        }
    nn_free(keys);
    return d;
}

/* match: the first case whose pattern matches (its captures stored, as CPython
   stores them, before the guard runs) and whose guard holds runs (match.c) */
static nn_object *match_eval(void *f, const repl_node *n) { return eval((frame *)f, n); }
static exec_status exec_match(frame *f, const repl_node *s)
{
    nn_object *subject = eval(f, s->v.Match.subject);
    if (!subject) return EX_ERR;
    exec_status st = EX_OK;
    for (int i = 0; i < s->v.Match.cases.n; i++) {
        const repl_node *c = s->v.Match.cases.items[i];
        f->line = c->line;
        nn_object *binds = nn_dict_new(), *k, *v;
        int m = binds ? repl_match_pattern(match_eval, f, c->v.match_case.pattern, subject, binds) : -1;
        size_t pos = 0;
        while (m == 1 && nn_dict_next(binds, &pos, &k, &v))
            if (store_name(f, nn_str_cstr(k), v) < 0) m = -1;
        NN_RELEASE(binds);
        if (m == 1 && c->v.match_case.guard) {
            nn_object *g = eval(f, c->v.match_case.guard);
            m = g ? repl_truth(g) : -1;
            NN_RELEASE(g);
        }
        if (m < 0) st = EX_ERR;
        else if (m) st = exec_block(f, &c->v.match_case.body);
        if (m) break;
    }
    NN_RELEASE(subject);
    return st;
}

/* The exception raised in f's running statement, caught there: the frame's
   entry joins its traceback, kept as its __traceback__ (exc_chain.c). */
static nn_object *catch_in_frame(frame *f)
{
    repl_interp *in = repl_current;
    if (in->tb_skip == f) in->tb_skip = NULL;
    else tb_add(f);
    nn_object *exc = repl_take_exception();
    repl_exc_keep_traceback(exc);
    return exc;
}

/* exc raised again from f as it was (a bare raise, an unhandled exception
   leaving a try): its traceback already has f's entry. */
static void reraise_in_frame(frame *f, nn_object *exc)
{
    repl_raise_object(exc);
    repl_current->tb_skip = f;
}

static exec_status exec_try(frame *f, const repl_node *s)
{
    repl_interp *in = repl_current;
    exec_status st = exec_block(f, &s->v.Try.body);
    if (st == EX_ERR && s->v.Try.handlers.n) {
        nn_object *exc = catch_in_frame(f);
        bool handled = false;
        for (int i = 0; i < s->v.Try.handlers.n && !handled; i++) {
            const repl_node *h = s->v.Try.handlers.items[i];
            if (h->v.ExceptHandler.type) {
                nn_object *cls = eval(f, h->v.ExceptHandler.type);
                if (!cls) {
                    NN_RELEASE(exc);
                    exc = NULL;
                    st = EX_ERR;
                    break;
                }
                bool m = repl_exc_matches(exc, cls);
                NN_RELEASE(cls);
                if (!m) continue;
            }
            handled = true;
            if (h->v.ExceptHandler.name && store_name(f, h->v.ExceptHandler.name, exc) < 0) {
                st = EX_ERR;
                break;
            }
            nn_object *prev = in->handling;
            in->handling = nn_retain(exc);
            st = exec_block(f, &h->v.ExceptHandler.body);
            if (st == EX_ERR) repl_exc_note_context(); /* while exc is still the one handled */
            NN_SET(in->handling, prev);
            if (h->v.ExceptHandler.name) repl_nmap_del(f->locals, h->v.ExceptHandler.name);
        }
        if (!handled && exc) {
            reraise_in_frame(f, exc);
            st = EX_ERR;
        }
        NN_RELEASE(exc);
    } else if (st == EX_OK) {
        st = exec_block(f, &s->v.Try.orelse);
    }
    if (s->v.Try.finalbody.n) {
        nn_object *pending = NULL, *retval = NULL;
        if (st == EX_ERR) pending = catch_in_frame(f);
        if (st == EX_RETURN) {
            retval = f->retval;
            f->retval = NULL;
        }
        /* the finally block runs with the pending exception as the one handled */
        nn_object *prev = in->handling;
        if (pending) in->handling = nn_retain(pending);
        exec_status fst = exec_block(f, &s->v.Try.finalbody);
        if (pending) {
            if (fst == EX_ERR) repl_exc_note_context();
            NN_SET(in->handling, prev);
        }
        if (fst != EX_OK) {
            NN_RELEASE(pending);
            NN_RELEASE(retval);
            return fst;
        }
        if (pending) reraise_in_frame(f, pending);
        NN_RELEASE(pending);
        if (retval) f->retval = retval;
    }
    return st;
}

/* __exit__(args[0], args[1], args[2]). A native __exit__ (torch.no_grad's, a
   lock's) gets its arguments in exit_args, a tuple made before __enter__ ran, so
   it runs even when memory has run out (as CPython calls it without making a
   tuple) and what it restores, such as the grad mode, is never left changed. */
static nn_object *call_exit(nn_object *exit_fn, nn_object *exit_args, nn_object *const args[3])
{
    if (!is_native_callable(exit_fn)) return repl_call_object(exit_fn, args, 3, NULL);
    for (size_t i = 0; i < 3; i++) nn_tuple_set(exit_args, i, nn_retain(args[i]));
    return call_native(exit_fn, exit_args, NULL);
}

static exec_status exec_with(frame *f, const repl_node *s, int item)
{
    if (item == s->v.With.items.n) return exec_block(f, &s->v.With.body);
    const repl_node *wi = s->v.With.items.items[item];
    nn_object *mgr = eval(f, wi->v.withitem.context_expr);
    if (!mgr) return EX_ERR;
    nn_object *exit_fn = special_attr(mgr, "__exit__");
    nn_object *exit_args = exit_fn ? nn_tuple_new(3) : NULL;
    nn_object *entered = exit_args ? repl_call_method(mgr, "__enter__", NULL, 0) : NULL;
    if (!entered) {
        NN_RELEASE(exit_args);
        NN_RELEASE(exit_fn);
        NN_RELEASE(mgr);
        return EX_ERR;
    }
    exec_status st = EX_OK;
    if (wi->v.withitem.optional_vars && assign(f, wi->v.withitem.optional_vars, entered) < 0) st = EX_ERR;
    NN_RELEASE(entered);
    if (st == EX_OK) st = exec_with(f, s, item + 1);
    nn_object *none = nn_none();
    if (st == EX_ERR) {
        repl_interp *in = repl_current;
        nn_object *exc = catch_in_frame(f);
        nn_object *tb = exc ? repl_get_attr(exc, "__traceback__") : NULL;
        nn_error_clear();
        nn_object *args[3] = {exc ? &((instance_obj *)exc)->cls->ob : none, exc ? exc : none, tb ? tb : none};
        nn_object *prev = in->handling; /* __exit__ runs with exc as the one handled */
        in->handling = nn_retain(exc);
        nn_object *r = call_exit(exit_fn, exit_args, args);
        int t = r ? repl_truth(r) : -1;
        if (t < 0) { /* the with line is where __exit__ failed */
            repl_exc_note_context();
            f->line = s->line;
            f->err_node = NULL;
        }
        NN_SET(in->handling, prev);
        NN_RELEASE(r);
        NN_RELEASE(tb);
        if (t == 0) reraise_in_frame(f, exc);
        else if (t == 1) st = EX_OK;
        NN_RELEASE(exc);
    } else {
        nn_object *retval = f->retval;
        f->retval = NULL;
        nn_object *args[3] = {none, none, none};
        nn_object *r = call_exit(exit_fn, exit_args, args);
        if (!r) {
            NN_RELEASE(retval);
            st = EX_ERR;
            f->line = s->line; /* the with line is where __exit__ failed */
            f->err_node = NULL;
        } else f->retval = retval;
        NN_RELEASE(r);
    }
    NN_RELEASE(exit_args);
    NN_RELEASE(exit_fn);
    NN_RELEASE(mgr);
    return st;
}

/* The name and path (None when NULL) of the ImportError just raised, as
   CPython's import sets them. */
static void set_import_error_fields(const char *module, nn_object *path)
{
    nn_object *e = repl_current->exc, *n = nn_str_new(module);
    if (n && e && e->type == &repl_instance_type) {
        repl_nmap_set(&((instance_obj *)e)->attrs, "name", n);
        repl_nmap_set(&((instance_obj *)e)->attrs, "path", path ? path : nn_none());
    }
    NN_RELEASE(n);
}

/* The first component of a dotted name ("torch" of "torch.nn") into out. */
static void first_component(const char *name, char *out, size_t n)
{
    size_t len = strcspn(name, ".");
    if (len >= n) len = n - 1;
    memcpy(out, name, len);
    out[len] = 0;
}

/* A module by dotted name: the language's own (collections), else the
   bindings' (torch, ...), else a file beside the script; NULL without an
   error when there is none. */
static nn_object *import_module(const repl_native_ops *ops, const char *name)
{
    nn_object *m = repl_stdlib_module(name);
    if (m || nn_error_current()) return m;
    m = ops && ops->import_module ? ops->import_module(name) : NULL;
    if (m || nn_error_current()) return m;
    return repl_import_user_file(name); /* import_file.c: the script's own files */
}

static int module_not_found(const repl_native_ops *ops, const char *name);

nn_object *repl_import_by_name(const char *name)
{
    const repl_native_ops *ops = repl_get_native_ops();
    nn_object *m = import_module(ops, name);
    if (!m && !nn_error_current()) module_not_found(ops, name);
    return m;
}

/* ModuleNotFoundError for a dotted name that did not import, naming its first
   missing prefix as CPython does ('numpy' for numpy.linalg, 'torch.foo' for
   torch.foo.bar), with the exception's name attribute set to it. Returns -1. */
static int module_not_found(const repl_native_ops *ops, const char *name)
{
    char prefix[512];
    size_t len = 0;
    for (;;) {
        len += strcspn(name + len, ".");
        if (len >= sizeof prefix) len = sizeof prefix - 1;
        memcpy(prefix, name, len);
        prefix[len] = 0;
        if (!name[len] || len == sizeof prefix - 1) break;
        nn_object *m = import_module(ops, prefix);
        if (!m) {
            if (nn_error_current()) return -1;
            break;
        }
        NN_RELEASE(m);
        len++;
    }
    repl_raise_exc(EXC_ModuleNotFoundError, "No module named '%s'", prefix);
    set_import_error_fields(prefix, NULL);
    return -1;
}

/* import a.b of a module written in the language: a.b is then an attribute of a
   (a module of the language too) when a has none of that name. 0 or -1. */
static int bind_submodule(const repl_native_ops *ops, const char *name, nn_object *m)
{
    const char *dot = strrchr(name, '.');
    char parent[512];
    if (!dot || m->type != &repl_module_type || (size_t)(dot - name) >= sizeof parent) return 0;
    memcpy(parent, name, (size_t)(dot - name));
    parent[dot - name] = 0;
    nn_object *p = import_module(ops, parent);
    int rc = p ? 0 : -1;
    if (p && p->type == &repl_module_type && !repl_nmap_get(&((module_obj *)p)->dict, dot + 1))
        rc = repl_nmap_set(&((module_obj *)p)->dict, dot + 1, m);
    NN_RELEASE(p);
    return rc;
}

static int do_import(frame *f, const repl_node *s)
{
    const repl_native_ops *ops = repl_get_native_ops();
    if (s->kind == REPL_AST_Import) {
        for (int i = 0; i < s->v.Import.names.n; i++) {
            const repl_node *a = s->v.Import.names.items[i];
            const char *name = a->v.alias.name;
            nn_object *m = import_module(ops, name);
            if (!m) {
                if (nn_error_current()) return -1;
                return module_not_found(ops, name);
            }
            int rc;
            if (a->v.alias.asname) rc = store_name(f, a->v.alias.asname, m);
            else {
                /* import a.b binds a */
                char top[256];
                first_component(name, top, sizeof top);
                nn_object *t = strchr(name, '.') ? import_module(ops, top) : nn_retain(m);
                rc = t ? store_name(f, top, t) : -1;
                if (rc == 0 && t != m) rc = bind_submodule(ops, name, m); /* collections.abc on collections */
                NN_RELEASE(t);
            }
            NN_RELEASE(m);
            if (rc < 0) return -1;
        }
        return 0;
    }
    const char *mod = s->v.ImportFrom.module ? s->v.ImportFrom.module : "";
    nn_object *m = import_module(ops, mod);
    if (!m) {
        if (nn_error_current()) return -1;
        return module_not_found(ops, mod);
    }
    int rc = 0;
    for (int i = 0; rc == 0 && i < s->v.ImportFrom.names.n; i++) {
        const repl_node *a = s->v.ImportFrom.names.items[i];
        const char *name = a->v.alias.name;
        nn_object *v = NULL;
        if (!strcmp(name, "*") && m->type == &repl_module_type) { /* its names not starting with '_' */
            uint32_t pos = 0;
            const char *k;
            while (rc == 0 && repl_nmap_next(&((module_obj *)m)->dict, &pos, &k, &v))
                if (k[0] != '_') rc = store_name(f, k, v);
            continue;
        }
        /* the module's attribute, else its submodule of that name, as CPython's
           _handle_fromlist (from torch.autograd import gradcheck: the function) */
        v = repl_get_attr(m, name);
        nn_object *e = v ? NULL : repl_take_exception();
        if (e && !repl_exc_matches(e, &repl_current->exc_classes[EXC_AttributeError]->ob)) {
            repl_raise_object(e); /* the module's __getattr__ failed otherwise */
            NN_RELEASE(e);
            NN_RELEASE(m);
            return -1;
        }
        if (e) {
            NN_RELEASE(e);
            char sub[512];
            snprintf(sub, sizeof sub, "%s.%s", mod, name);
            v = import_module(ops, sub);
            if (!v && !nn_error_current()) {
                nn_object *file = m->type == &repl_module_type ? repl_nmap_get(&((module_obj *)m)->dict, "__file__") : NULL;
                repl_raise_exc(EXC_ImportError, "cannot import name '%s' from '%s' (%s)", name, mod,
                               file && nn_is_str(file) ? nn_str_cstr(file) : "unknown location");
                set_import_error_fields(mod, file && nn_is_str(file) ? file : NULL);
            }
        }
        rc = v ? store_name(f, a->v.alias.asname ? a->v.alias.asname : name, v) : -1;
        NN_RELEASE(v);
    }
    NN_RELEASE(m);
    return rc;
}

/* The first core class above cls that was not written in the language. */
static const nn_module_class *native_base_class(const nn_module_class *cls)
{
    const nn_module_class *k = cls->base;
    while (k && k->lang_class) k = k->base;
    return k;
}

/* forward of a language module class: calls the class's forward method. */
static nn_object *lang_forward(nn_module *self, nn_object *args, nn_object *kwargs)
{
    class_obj *c = (class_obj *)self->cls->lang_class;
    nn_object *fwd = repl_class_lookup(c, "forward");
    if (!fwd) {
        const nn_module_class *base = native_base_class(self->cls);
        const nn_module_class *owner = base ? NN_MODULE_SLOT(base, forward) : NULL;
        if (owner) return owner->forward(self, args, kwargs);
        nn_error_set(NN_ERR_NOT_IMPLEMENTED, "Module [%s] is missing the required \"forward\" function", c->name);
        return NULL;
    }
    size_t n = nn_tuple_len(args);
    nn_object *all[n + 1];
    all[0] = &self->ob;
    for (size_t i = 0; i < n; i++) all[i + 1] = nn_tuple_get(args, i);
    return repl_call_object(fwd, all, (int)n + 1, kwargs);
}

static char *lang_extra_repr(nn_module *self)
{
    class_obj *c = (class_obj *)self->cls->lang_class;
    if (!repl_class_lookup(c, "extra_repr")) {
        const nn_module_class *base = native_base_class(self->cls);
        const nn_module_class *owner = base ? NN_MODULE_SLOT(base, extra_repr) : NULL;
        return owner ? owner->extra_repr(self) : nn_strdup("");
    }
    nn_object *r = repl_call_method(&self->ob, "extra_repr", NULL, 0);
    return str_result(r, "extra_repr");
}

static nn_object *lang_get_extra_state(nn_module *self)
{
    return repl_call_method(&self->ob, "get_extra_state", NULL, 0);
}

static int lang_set_extra_state(nn_module *self, nn_object *state)
{
    nn_object *r = repl_call_method(&self->ob, "set_extra_state", &state, 1);
    NN_RELEASE(r);
    return r ? 0 : -1;
}

/* Applies a def's or class's decorators bottom-up to obj (a reference taken over)
   and binds the result to name. */
static exec_status decorate_and_store(frame *f, const repl_node_list *decorators, const char *name, nn_object *obj)
{
    for (int i = decorators->n - 1; i >= 0; i--) {
        nn_object *d = eval(f, decorators->items[i]);
        nn_object *r = d ? repl_call_object(d, &obj, 1, NULL) : NULL;
        NN_RELEASE(d);
        NN_RELEASE(obj);
        if (!r) return EX_ERR;
        obj = r;
    }
    int rc = store_name(f, name, obj);
    NN_RELEASE(obj);
    return rc < 0 ? EX_ERR : EX_OK;
}

/* Outer.Inner in a class body, f.<locals>.C in a function, as CPython's __qualname__ */
static int set_class_qualname(class_obj *c, frame *f)
{
    const char *prefix = f->is_class ? f->qualname : f->fn ? repl_func_qualname(f->fn) : NULL;
    if (!prefix) return 0;
    const char *locals = f->is_class ? "" : ".<locals>";
    size_t n = strlen(prefix) + strlen(locals) + strlen(c->name) + 2;
    if (!(c->qualname = nn_malloc(n))) return repl_raise_exc(EXC_MemoryError, "out of memory");
    snprintf(c->qualname, n, "%s%s.%s", prefix, locals, c->name);
    return 0;
}

/* class C(*bases, **kw): the bases (a new list, starred ones spread), the keywords but
   metaclass (*kw, a new dict or NULL when none) and metaclass= (*meta, or NULL), all
   evaluated before the body as CPython does; -1 on error */
static int class_arguments(frame *f, const repl_node *s, nn_object **bases, nn_object **kw, nn_object **meta)
{
    *kw = *meta = NULL;
    if (!(*bases = eval_elts(f, &s->v.ClassDef.bases))) return -1;
    if (!s->v.ClassDef.keywords.n) return 0;
    if (!(*kw = eval_keywords(f, &s->v.ClassDef.keywords, "__build_class__"))) {
        NN_SET(*bases, NULL);
        return -1;
    }
    nn_object *m = nn_dict_get_str(*kw, "metaclass");
    if (m) {
        *meta = nn_retain(m);
        nn_dict_del_str(*kw, "metaclass");
    }
    if (!nn_dict_len(*kw)) NN_SET(*kw, NULL);
    return 0;
}

static exec_status exec_class(frame *f, const repl_node *s)
{
    nn_object *blist, *kw, *meta;
    if (class_arguments(f, s, &blist, &kw, &meta) < 0) return EX_ERR;
    /* the bases: language classes (several: multiple inheritance, classes.c) and
       at most one native module class (nn.Module), whose core class the new one
       extends, as does a language base that derives from one */
    class_obj *lang_bases[64];
    int n_lang = 0;
    int n_bases = (int)nn_list_len(blist);
    if (n_bases > 64) {
        repl_raise_exc(EXC_TypeError, "too many base classes");
        goto fail_args;
    }
    class_obj *lang_base = NULL;
    nn_object *native_base = NULL;
    int native_pos = 0;   /* how many language bases the class statement lists before it */
    const nn_module_class *core_base = NULL;
    const repl_native_ops *ops = repl_get_native_ops();
    bool derives_type = false;
    for (int i = 0; i < n_bases; i++) {
        nn_object *base = nn_retain(nn_list_get(blist, (size_t)i));
        const nn_module_class *mc = NULL;
        if (base && base->type == &repl_instance_type &&
            repl_class_lookup(((instance_obj *)base)->cls, "__mro_entries__")) { /* Generic[T]: the classes it names */
            nn_object *none = nn_tuple_new(0), *r = none ? repl_call_method(base, "__mro_entries__", &none, 1) : NULL;
            NN_RELEASE(none);
            NN_SET(base, NULL);
            if (r && r->type != &nn_tuple_type) repl_raise_exc(EXC_TypeError, "__mro_entries__ must return a tuple");
            bool ok = r && r->type == &nn_tuple_type;
            for (size_t j = 0; ok && j < nn_tuple_len(r); j++) {
                nn_object *e = nn_tuple_get(r, j);
                ok = e->type == &repl_class_type && repl_builtin_sub_allowed((class_obj *)e) && n_lang < 64;
                if (ok) lang_bases[n_lang++] = (class_obj *)nn_retain(e);
                else repl_raise_exc(EXC_TypeError, "a class cannot derive from a '%s' object", repl_value_type_name(e));
            }
            NN_RELEASE(r);
            if (ok) continue;
        }
        if (base && base == &repl_current->type_cls->ob) { /* class M(type): a metaclass, whose methods */
            NN_SET(base, nn_retain(&repl_current->object_cls->ob)); /* serve its classes (repl_meta_method) */
            derives_type = true;
        }
        if (base && base->type == &repl_class_type) {
            class_obj *lb = (class_obj *)base;
            if (!repl_builtin_sub_allowed(lb)) {
                repl_raise_exc(EXC_TypeError, "type '%s' is not an acceptable base type", lb->name);
                NN_SET(base, NULL);
            } else {
                lang_bases[n_lang++] = lb;
                if (lb->mcls && !core_base) core_base = lb->mcls;
                continue;   /* its reference is released below */
            }
        } else if (base && ops && ops->module_class_of && !native_base && (mc = ops->module_class_of(base))) {
            native_base = base;
            native_pos = n_lang;
            if (!core_base) core_base = mc;
            continue;
        } else if (base && !nn_error_current()) {
            repl_raise_exc(EXC_TypeError, "a class cannot derive from a '%s' object", repl_value_type_name(base));
            NN_SET(base, NULL);
        }
        for (int k = 0; k < n_lang; k++) NN_RELEASE(&lang_bases[k]->ob);
        NN_RELEASE(native_base);
        NN_RELEASE(base);
        goto fail_args;
    }
    NN_SET(blist, NULL);
    lang_base = n_lang ? lang_bases[0] : repl_current->object_cls;
    class_obj *c = repl_lang_class_new(s->v.ClassDef.name, lang_base, -1);
    if (c && set_class_qualname(c, f) < 0) NN_SET(c, NULL);
    if (c && n_lang > 1 && repl_class_set_bases(c, lang_bases, n_lang) < 0) NN_SET(c, NULL);
    if (c && repl_builtin_sub_init_class(c) < 0) NN_SET(c, NULL);
    if (c && derives_type) c->vbase = repl_current->type_cls; /* a metaclass (metaclass.c) */
    if (c && native_base) { /* __bases__ as listed, the native class among them (classes.c orders them) */
        nn_object *t = nn_tuple_new((size_t)n_lang + 1);
        for (int k = 0, j = 0; t && k <= n_lang; k++)
            nn_tuple_set(t, (size_t)k, nn_retain(k == native_pos ? native_base : &lang_bases[j++]->ob));
        if (t) NN_SET(c->bases, t);
        else NN_SET(c, NULL);
    }
    for (int k = 0; k < n_lang; k++) NN_RELEASE(&lang_bases[k]->ob);
    if (!c) {
        NN_RELEASE(native_base);
        goto fail_args;
    }
    c->native_base = native_base;
    if (core_base) {
        nn_module_class *mc = nn_calloc(1, sizeof *mc);
        char *name = nn_strdup(c->name);
        if (!mc || !name) {
            nn_free(mc);
            nn_free(name);
            NN_RELEASE(c);
            goto fail_args;
        }
        mc->name = name;
        mc->forward = lang_forward;
        mc->extra_repr = lang_extra_repr;
        mc->base = core_base;
        mc->lang_class = &c->ob;
        c->mcls = mc;
        repl_interp *in = repl_current;
        if ((!in->module_classes && !(in->module_classes = nn_list_new(0))) ||
            nn_list_append(in->module_classes, &c->ob) < 0) {
            NN_RELEASE(c);
            goto fail_args;
        }
    }
    /* metaclass=M (a class of the language), else the first base's: M's __iter__,
       __len__, __getitem__ and __repr__ serve the class object (repl_meta_method) */
    class_obj *meta_cls = meta && meta->type == &repl_class_type ? (class_obj *)meta : NULL;
    for (class_obj *b = c->base; !meta_cls && b; b = b->base) meta_cls = b->meta;
    for (int i = 0; !meta_cls && c->bases && i < (int)nn_tuple_len(c->bases); i++)
        if (nn_tuple_get(c->bases, (size_t)i)->type == &repl_class_type)
            meta_cls = ((class_obj *)nn_tuple_get(c->bases, (size_t)i))->meta;
    if (repl_meta_winner(c, &meta_cls) < 0) {
        NN_RELEASE(kw);
        NN_RELEASE(meta);
        NN_RELEASE(c);
        return EX_ERR;
    }
    if (meta_cls) {
        NN_RETAIN(&meta_cls->ob);
        c->meta = meta_cls;
    }
    /* M.__prepare__(name, bases, **kw): the mapping the body's names go to (too) */
    nn_object *prepared = NULL;
    if (meta_cls && repl_is_metaclass(meta_cls) && repl_class_lookup(meta_cls, "__prepare__") &&
        !(prepared = repl_meta_prepare(c, meta_cls, kw))) {
        NN_RELEASE(kw);
        NN_RELEASE(meta);
        NN_RELEASE(c);
        return EX_ERR;
    }
    /* the body runs in the class namespace; functions defined there capture f's env;
       locals() there is the namespace (the frame is the interpreter's top meanwhile) */
    frame cf = {.back = f->back, .unit = f->unit, .name = s->v.ClassDef.name, .locals = &c->dict, .env = f->env,
                .is_class = true, .qualname = repl_class_qualname(c), .line = s->line, .fn = NULL, .sc = NULL, .ns = prepared};
    frame *outer_top = repl_current->top;
    repl_current->top = &cf;
    exec_status st = exec_block(&cf, &s->v.ClassDef.body);
    repl_current->top = outer_top;
    f->line = cf.line;
    if (st == EX_ERR) {
        NN_RELEASE(prepared);
        NN_RELEASE(kw);
        NN_RELEASE(meta);
        NN_RELEASE(c);
        return EX_ERR;
    }
    /* a string first in the body is the class's __doc__, as in Python (help() prints it) */
    const repl_node_list *body = &s->v.ClassDef.body;
    if (body->n && body->items[0]->kind == REPL_AST_Expr && body->items[0]->v.Return.value->kind == REPL_AST_Constant &&
        body->items[0]->v.Return.value->v.Constant.ckind == REPL_CONST_STR && !repl_nmap_get(&c->dict, "__doc__")) {
        const repl_node *e = body->items[0]->v.Return.value;
        nn_object *doc = nn_str_from(e->v.Constant.s, e->v.Constant.len);
        int rc = doc ? repl_nmap_set(&c->dict, "__doc__", doc) : -1;
        NN_RELEASE(doc);
        if (rc < 0) {
            NN_RELEASE(prepared);
            NN_RELEASE(kw);
            NN_RELEASE(meta);
            NN_RELEASE(c);
            return EX_ERR;
        }
    }
    uint32_t pos = 0;
    const char *k;
    nn_object *v;
    while (repl_nmap_next(&c->dict, &pos, &k, &v)) {
        if (v->type == &repl_function_type && !((func_obj *)v)->owner) ((func_obj *)v)->owner = &c->ob;
        if (v->type == &repl_desc_type && !((desc_obj *)v)->name) ((desc_obj *)v)->name = nn_strdup(k);
        if (v->type == &repl_desc_type) {   /* super() in a classmethod, staticmethod or property */
            nn_object *parts[3] = {((desc_obj *)v)->fget, ((desc_obj *)v)->fset, ((desc_obj *)v)->fdel};
            for (int i = 0; i < 3; i++)
                if (parts[i] && parts[i]->type == &repl_function_type && !((func_obj *)parts[i])->owner)
                    ((func_obj *)parts[i])->owner = &c->ob;
        }
    }
    if (repl_class_hash_none(c) < 0) {
        NN_RELEASE(prepared);
        NN_RELEASE(kw);
        NN_RELEASE(meta);
        NN_RELEASE(c);
        return EX_ERR;
    }
    if (c->mcls) {
        if (repl_class_lookup(c, "get_extra_state")) c->mcls->get_extra_state = lang_get_extra_state;
        if (repl_class_lookup(c, "set_extra_state")) c->mcls->set_extra_state = lang_set_extra_state;
    }
    if (meta_cls && repl_meta_defines(meta_cls, "__new__")) { /* the metaclass's __new__ makes the class */
        NN_RELEASE(meta);
        nn_object *made = repl_meta_class_statement(c, meta_cls, kw, prepared);
        NN_RELEASE(prepared);
        NN_RELEASE(kw);
        NN_RELEASE(c);
        return made ? decorate_and_store(f, &s->v.ClassDef.decorator_list, s->v.ClassDef.bound, made) : EX_ERR;
    }
    NN_RELEASE(prepared);
    int sub_rc = repl_slots_add_members(c);   /* type.__new__ makes those of a metaclass's class */
    if (sub_rc == 0) sub_rc = repl_abc_class_init(c, meta);
    NN_RELEASE(meta);
    if (sub_rc == 0) sub_rc = repl_class_set_names(c);
    if (sub_rc == 0) sub_rc = repl_class_init_subclass(c, kw);
    if (sub_rc == 0 && meta_cls && repl_meta_defines(meta_cls, "__init__")) sub_rc = repl_meta_class_init(c, meta_cls, kw);
    NN_RELEASE(kw);
    if (sub_rc < 0) {
        NN_RELEASE(c);
        return EX_ERR;
    }
    return decorate_and_store(f, &s->v.ClassDef.decorator_list, s->v.ClassDef.bound, &c->ob);
fail_args:
    NN_RELEASE(blist);
    NN_RELEASE(kw);
    NN_RELEASE(meta);
    return EX_ERR;
}

static exec_status exec_raise(frame *f, const repl_node *s)
{
    repl_interp *in = repl_current;
    if (!s->v.Raise.exc) {
        if (!in->handling) {
            repl_raise_exc(EXC_RuntimeError, "No active exception to reraise");
            return EX_ERR;
        }
        reraise_in_frame(f, in->handling);
        return EX_ERR;
    }
    nn_object *e = eval(f, s->v.Raise.exc);
    if (!e) return EX_ERR;
    if (repl_is_exception_class(e)) {
        nn_object *inst = repl_call_object(e, NULL, 0, NULL);
        NN_RELEASE(e);
        if (!inst) return EX_ERR;
        e = inst;
    }
    if (!repl_is_exception(e)) {
        NN_RELEASE(e);
        repl_raise_exc(EXC_TypeError, "exceptions must derive from BaseException");
        return EX_ERR;
    }
    if (s->v.Raise.cause) {
        nn_object *c = eval(f, s->v.Raise.cause);
        int rc = c ? repl_exc_set_cause(e, c) : -1;
        NN_RELEASE(c);
        if (rc < 0) {
            NN_RELEASE(e);
            return EX_ERR;
        }
    }
    f->err_node = s; /* CPython's location: the raise statement (carets when it shares its line) */
    repl_raise_object(e);
    NN_RELEASE(e);
    return EX_ERR;
}

/* x: T [= v]: assigns v; at module and class level a simple name's annotation is
   evaluated into __annotations__ (as CPython without `from __future__ import
   annotations`); in a function it is not evaluated */
static exec_status exec_ann_assign(frame *f, const repl_node *s)
{
    if (s->v.AnnAssign.value) {
        nn_object *v = eval(f, s->v.AnnAssign.value);
        int rc = v ? assign(f, s->v.AnnAssign.target, v) : -1;
        NN_RELEASE(v);
        if (rc < 0) return EX_ERR;
    }
    if (f->fn || !s->v.AnnAssign.simple) return EX_OK;
    const char *text = s->v.AnnAssign.annotation_text;
    nn_object *ann = repl_nmap_get(f->locals, "__annotations__");
    if (!ann || ann->type != &nn_dict_type) {
        nn_object *d = nn_dict_new();
        if (!d || repl_nmap_set(f->locals, "__annotations__", d) < 0) {
            NN_RELEASE(d);
            return EX_ERR;
        }
        ann = d;
        NN_RELEASE(d);
    }
    nn_object *t = text ? nn_str_new(text) : eval(f, s->v.AnnAssign.annotation);
    nn_object *key = t ? nn_str_new(s->v.AnnAssign.target->v.Name.id) : NULL;
    int rc = key ? nn_dict_set(ann, key, t) : -1;
    NN_RELEASE(t);
    NN_RELEASE(key);
    return rc < 0 ? EX_ERR : EX_OK;
}

static exec_status exec_stmt_kind(frame *f, const repl_node *s);

/* A statement; a Ctrl-C that came while it ran a long built-in which does not look
   (10**10**8, a big matmul) stops the code after it, as CPython's next check does. */
static exec_status exec_stmt(frame *f, const repl_node *s)
{
    exec_status st = exec_stmt_kind(f, s);
    if (st == EX_OK && nn_check_interrupt() < 0) return EX_ERR;
    return st;
}

static exec_status exec_stmt_kind(frame *f, const repl_node *s)
{
    f->line = s->line;
    f->err_node = NULL;
    switch (s->kind) {
    case REPL_AST_Expr: {
        nn_object *v = eval(f, s->v.Return.value);
        if (!v) return EX_ERR;
        NN_RELEASE(v);
        return EX_OK;
    }
    case REPL_AST_Assign: {
        nn_object *v = eval(f, s->v.Assign.value);
        if (!v) return EX_ERR;
        int rc = 0;
        for (int i = 0; rc == 0 && i < s->v.Assign.targets.n; i++)
            if ((rc = assign(f, s->v.Assign.targets.items[i], v)) < 0 && !f->err_node)
                f->err_node = s->v.Assign.targets.items[i];   /* unpacking, item or attribute stores */
        NN_RELEASE(v);
        return rc < 0 ? EX_ERR : EX_OK;
    }
    case REPL_AST_AugAssign: {
        const repl_node *t = s->v.AugAssign.target;
        nn_object *obj = NULL, *key = NULL, *cur = NULL, *rhs = NULL, *res = NULL;
        int rc = -1;
        repl_name_cache *nc = t->kind == REPL_AST_Name ? &((repl_node *)t)->v.Name.cache : NULL;
        if (nc) cur = load_name_at(f, t->v.Name.id, nc);
        else if (t->kind == REPL_AST_Attribute) {
            obj = eval(f, t->v.Attribute.value);
            cur = obj ? repl_get_attr(obj, t->v.Attribute.attr) : NULL;
        } else if (t->kind == REPL_AST_Subscript) {
            obj = eval(f, t->v.Subscript.value);
            key = obj ? eval(f, t->v.Subscript.slice) : NULL;
            cur = key ? repl_get_item(obj, key) : NULL;
        }
        if (cur && (rhs = eval(f, s->v.AugAssign.value)) && (res = inplace_op(s->v.AugAssign.op, cur, rhs))) {
            if (nc) rc = store_name_at(f, t->v.Name.id, res, nc);
            else if (t->kind == REPL_AST_Attribute) rc = repl_set_attr(obj, t->v.Attribute.attr, res);
            else rc = set_item(obj, key, res);
        }
        NN_RELEASE(obj);
        NN_RELEASE(key);
        NN_RELEASE(cur);
        NN_RELEASE(rhs);
        NN_RELEASE(res);
        return rc < 0 ? EX_ERR : EX_OK;
    }
    case REPL_AST_If: {
        nn_object *c = eval(f, s->v.While.test);
        int t = c ? repl_truth(c) : -1;
        NN_RELEASE(c);
        if (t < 0) return EX_ERR;
        return exec_block(f, t ? &s->v.While.body : &s->v.While.orelse);
    }
    case REPL_AST_For: return exec_for(f, s);
    case REPL_AST_While: return exec_while(f, s);
    case REPL_AST_Pass: return EX_OK;
    case REPL_AST_Break: return EX_BREAK;
    case REPL_AST_Continue: return EX_CONTINUE;
    case REPL_AST_Return: {
        nn_object *v = s->v.Return.value ? eval(f, s->v.Return.value) : nn_retain(nn_none());
        if (!v) return EX_ERR;
        NN_SET(f->retval, v);
        return EX_RETURN;
    }
    case REPL_AST_FunctionDef: {
        nn_object *fn = make_function(f, s);
        return fn ? decorate_and_store(f, &s->v.FunctionDef.decorator_list, s->v.FunctionDef.bound, fn) : EX_ERR;
    }
    case REPL_AST_ClassDef: return exec_class(f, s);
    case REPL_AST_AnnAssign: return exec_ann_assign(f, s);
    case REPL_AST_Delete:
        for (int i = 0; i < s->v.Delete.targets.n; i++)
            if (delete(f, s->v.Delete.targets.items[i]) < 0) {
                if (!f->err_node) f->err_node = s->v.Delete.targets.items[i];
                return EX_ERR;
            }
        return EX_OK;
    case REPL_AST_Assert: {
        nn_object *c = eval(f, s->v.Assert.test);
        int t = c ? repl_truth(c) : -1;
        NN_RELEASE(c);
        if (t < 0) return EX_ERR;
        if (t) return EX_OK;
        f->err_node = s->v.Assert.test;   /* CPython points at the test */
        if (s->v.Assert.msg) {
            nn_object *m = eval(f, s->v.Assert.msg);
            if (!m) return EX_ERR;
            nn_object *args = nn_tuple_pack(1, m), *e = args ? repl_exc_new(EXC_AssertionError, args) : NULL;
            NN_RELEASE(m);
            NN_RELEASE(args);
            if (e) repl_raise_object(e);
            NN_RELEASE(e);
            return EX_ERR;
        }
        nn_object *args = nn_tuple_new(0), *e = args ? repl_exc_new(EXC_AssertionError, args) : NULL;
        NN_RELEASE(args);
        if (e) repl_raise_object(e);
        NN_RELEASE(e);
        return EX_ERR;
    }
    case REPL_AST_Raise: return exec_raise(f, s);
    case REPL_AST_Try: return exec_try(f, s);
    case REPL_AST_With: return exec_with(f, s, 0);
    case REPL_AST_Match: return exec_match(f, s);
    case REPL_AST_Import:
    case REPL_AST_ImportFrom: return do_import(f, s) < 0 ? EX_ERR : EX_OK;
    case REPL_AST_Global:
    case REPL_AST_Nonlocal: return EX_OK;
    default:
        repl_raise_exc(EXC_SyntaxError, "unsupported statement: %s", repl_ast_kind_name(s->kind));
        return EX_ERR;
    }
}

/* super() inside a method: the defining class and the first argument. */
nn_object *repl_make_super(void)
{
    frame *f = repl_current->top;
    if (!f || !f->fn || !f->fn->owner) {
        repl_raise_exc(EXC_RuntimeError, "super(): no arguments");
        return NULL;
    }
    const repl_node *a = f->fn->args;
    const char *first = a->v.arguments.posonlyargs.n ? a->v.arguments.posonlyargs.items[0]->v.arg.arg
                        : a->v.arguments.args.n ? a->v.arguments.args.items[0]->v.arg.arg : NULL;
    nn_object *self = first ? repl_nmap_get(f->locals, first) : NULL;
    if (!self) {
        repl_raise_exc(EXC_RuntimeError, "super(): no arguments");
        return NULL;
    }
    super_obj *s = nn_malloc(sizeof *s);
    if (!s) return NULL;
    nn_object_init(&s->ob, &repl_super_type);
    s->start = (class_obj *)f->fn->owner;
    s->self = nn_retain(self);
    return &s->ob;
}

nn_object *repl_make_super_of(nn_object *cls, nn_object *self)
{
    if (cls->type != &repl_class_type) {
        repl_raise_exc(EXC_TypeError, "super() argument 1 must be a type, not %s", repl_value_type_name(cls));
        return NULL;
    }
    class_obj *type = self->type == &repl_class_type ? (class_obj *)self : repl_class_of(self);
    if (!type || !repl_class_is_subclass(type, (class_obj *)cls)) {
        repl_raise_exc(EXC_TypeError, "super(type, obj): obj must be an instance or subtype of type");
        return NULL;
    }
    super_obj *s = nn_malloc(sizeof *s);
    if (!s) return NULL;
    nn_object_init(&s->ob, &repl_super_type);
    s->start = (class_obj *)cls;
    s->self = nn_retain(self);
    return &s->ob;
}

/* ------------------------------------------------------------------ public API */

/* the Python call depth that core's recursive walkers add their nesting to */
static int call_depth(void) { return repl_current ? repl_current->depth : 0; }

repl_interp *repl_interp_new(void)
{
    repl_interp *in = nn_calloc(1, sizeof *in);
    if (!in) return NULL;
    nn_set_recursion_base(call_depth, MAX_DEPTH);
    nn_set_str_printable(repl_cp_printable); /* str's repr escapes as CPython's */
    repl_interp *prev = repl_current;
    repl_current = in;
    if (repl_builtins_init(in) < 0) {
        repl_interp_free(in);
        repl_current = prev;
        return NULL;
    }
    nn_object *name = nn_str_new("__main__");
    if (!name || repl_nmap_set(&in->globals, "__name__", name) < 0) {
        NN_RELEASE(name);
        repl_interp_free(in);
        repl_current = prev;
        return NULL;
    }
    NN_RELEASE(name);
    repl_warnings_install();
    return in;
}

void repl_interp_free(repl_interp *in)
{
    if (!in) return;
    repl_interp *prev = repl_current;
    repl_current = in;
    repl_tb_clear(in);
    nn_free(in->tb);
    repl_tb_entries_free(in->pm, in->n_pm);
    in->pm = NULL;
    in->n_pm = 0;
    NN_RELEASE(in->exc);
    NN_RELEASE(in->handling);
    NN_RELEASE(in->tb_owner);
    nn_free(in->exc_msg);
    repl_nmap_clear(&in->globals);
    /* break closure cycles: empty every captured scope still alive */
    while (in->captured) {
        scope *sc = in->captured;
        NN_RETAIN(sc);
        in->captured = sc->reg_next;
        if (in->captured) in->captured->reg_prev = NULL;
        sc->reg_head = NULL;
        sc->reg_next = sc->reg_prev = NULL;
        repl_nmap_clear(&sc->map);
        NN_SET(sc->module, NULL);
        NN_RELEASE(sc);
    }
    NN_SET(in->globals_view, NULL);
    NN_RELEASE(in->module_classes);
    repl_nmap_clear(&in->stdlib_modules);
    nn_gc_collect(2); /* the cycles left, as CPython's collection at exit */
    repl_nmap_clear(&in->builtins);
    repl_nmap_clear(&in->type_cache);
    NN_RELEASE(in->no_memory);
    for (int i = 0; i < EXC_COUNT; i++) NN_RELEASE(in->exc_classes[i]);
    class_obj **cls[] = {&in->object_cls, &in->type_cls, &in->int_cls, &in->float_cls, &in->str_cls, &in->bool_cls,
                         &in->list_cls, &in->tuple_cls, &in->dict_cls, &in->odict_cls, &in->set_cls,
                         &in->frozenset_cls, &in->range_cls, &in->none_cls, &in->func_cls, &in->module_cls,
                         &in->slice_cls};
    /* object last: the others derive from it */
    for (size_t i = sizeof cls / sizeof *cls; i-- > 0;) NN_RELEASE(*cls[i]);
    nn_free(in->last_tb);
    nn_free(in->last_name);
    nn_free(in);
    repl_current = prev == in ? NULL : prev;
}

void repl_set_writer(repl_interp *in, repl_write_fn write, void *ud)
{
    in->write = write;
    in->write_ud = ud;
}

char *repl_traceback(repl_interp *in) { return in->last_tb ? nn_strdup(in->last_tb) : NULL; }
const char *repl_exception_name(repl_interp *in) { return in->last_name; }

/* The uncaught exception: keep its traceback text and leave its kind and
   message as the current error. */
/* What an uncaught SystemExit asks of the program, as python exits: its code None
   is status 0, an int that int, anything else status 1 with the code printed. */
static void note_system_exit(repl_interp *in, nn_object *exc)
{
    in->system_exit = exc && repl_exc_matches(exc, &in->exc_classes[EXC_SystemExit]->ob);
    if (!in->system_exit) return;
    nn_object *code = repl_exit_code(exc);
    in->exit_message = !nn_is_none(code) && !nn_is_int(code) && !nn_is_bool(code);
    in->exit_status = nn_is_none(code) ? 0 : in->exit_message ? 1 : (int)nn_int_value(code);
    NN_RELEASE(code);
}

bool repl_system_exit(repl_interp *in, int *status, bool *show_message)
{
    if (!in->last_name || !in->system_exit) return false;
    *status = in->exit_status;
    *show_message = in->exit_message;
    return true;
}

static void uncaught(repl_interp *in)
{
    nn_object *exc = repl_take_exception();
    NN_RELEASE(in->handling);
    in->handling = NULL;
    note_system_exit(in, exc);
    tb_format(in, exc);
    /* the frames stay for %debug until the next uncaught exception */
    repl_tb_entries_free(in->pm, in->n_pm);
    in->pm = in->tb;
    in->n_pm = in->n_tb;
    in->tb = NULL;
    in->n_tb = in->cap_tb = 0;
    int kind = NN_ERR_RUNTIME;
    char *msg = exc ? repl_exc_message(exc) : NULL;
    nn_error_clear();
    if (exc) {
        for (class_obj *c = ((instance_obj *)exc)->cls; c; c = c->base) {
            if (c->exc < 0) continue;
            static const int kinds[] = {
#define X(name, parent, kind) kind,
                EXC_LIST(X)
#undef X
            };
            if (kinds[c->exc] >= 0) {
                kind = kinds[c->exc];
                break;
            }
        }
    }
    if (!in->last_name) { /* no memory left to report it: a MemoryError, as the report ran out */
        kind = NN_ERR_MEMORY;
        nn_free(msg);
        msg = NULL;
    }
    nn_error_set((nn_error_kind)kind, "%s", msg ? msg : "");
    nn_free(msg);
    NN_RELEASE(exc);
}

int repl_exec(repl_interp *in, const char *source, const char *filename, repl_parse_mode mode,
              nn_object **result_out)
{
    repl_interp *prev = repl_current;
    repl_current = in;
    if (result_out) *result_out = NULL;
    nn_free(in->last_tb);
    in->last_tb = NULL;
    nn_free(in->last_name);
    in->last_name = NULL;
    nn_error_clear();
    code_unit *u = nn_calloc(1, sizeof *u);
    if (u) {
        u->refcount = 1;
        u->source = nn_strdup(source);
        if (u->source) repl_translate_newlines(u->source); /* lines as the parser counts them */
        u->filename = nn_strdup(filename ? filename : "<string>");
    }
    if (!u || !u->source || !u->filename) {
        unit_release(u);
        uncaught(in);
        repl_current = prev;
        return -1;
    }
    repl_parse_error perr = {0};
    repl_node *tree = unit_parse(u, source, mode, &perr);
    if (!tree) {
        int rc = perr.status == REPL_PARSE_INCOMPLETE ? -2 : -1;
        /* SyntaxError text as CPython prints it for a file */
        if (rc == -1) {
            nn_error_kind kind = nn_error_current();
            char *msg = nn_strdup(nn_error_message());
            sbuf b = {0};
            if (kind != NN_ERR_RECURSION && kind != NN_ERR_MEMORY) { /* CPython prints no place for a tree too deep */
            repl_sb_printf(&b, "  File \"%s\", line %d\n", u->filename, perr.line);
            int dropped = 0;
            if (perr.text[0]) repl_sb_printf(&b, "    %s\n", perr.text); /* f"{a b}": (a b) */
            else if ((dropped = source_line(&b, u, perr.line)) < 0 && perr.at_eof)
                repl_sb_puts(&b, "    \n"); /* a blank last line: CPython prints it, indented */
            bool eof_in_file = perr.at_eof && mode == REPL_PARSE_FILE; /* CPython's offset 0 */
            if (dropped >= 0 && perr.offset > dropped && !eof_in_file) { /* the carets under the 1-based offset (to end_offset) */
                repl_sb_printf(&b, "%*s^", 4 + perr.offset - 1 - dropped, "");
                bool one = kind == NN_ERR_INDENTATION || kind == NN_ERR_TAB; /* CPython prints one caret for these */
                for (int i = perr.offset + 1; !one && i < perr.end_offset; i++) repl_sb_puts(&b, "^");
                repl_sb_puts(&b, "\n");
            }
            }
            if (msg && *msg) repl_sb_printf(&b, "%s: %s", nn_error_kind_name(kind), msg);
            else repl_sb_printf(&b, "%s", nn_error_kind_name(kind)); /* MemoryError, as CPython prints it */
            in->last_tb = repl_sb_finish(&b);
            in->last_name = nn_strdup(nn_error_kind_name(kind));
            nn_error_clear();
            if (!in->last_name) kind = NN_ERR_MEMORY; /* no memory left to report it */
            nn_error_set(kind, "%s", msg && kind != NN_ERR_MEMORY ? msg : "");
            nn_free(msg);
        }
        unit_release(u);
        repl_current = prev;
        return rc;
    }
    frame f = {.back = NULL, .unit = u, .name = "<module>", .locals = &in->globals, .env = NULL, .line = 1};
    if (in->exec_scope) f.locals = repl_scope_names(in->exec_scope), f.sc = f.env = in->exec_scope; /* a debugger's frame */
    frame *saved_top = in->top;
    int saved_depth = in->depth;
    f.back = in->top;
    in->top = &f;
    int rc = 0;
    const repl_node_list *body = mode == REPL_PARSE_EVAL ? NULL : &tree->v.Module.body;
    if (mode == REPL_PARSE_EVAL) {
        nn_object *v = eval(&f, tree->v.Expression.body);
        if (!v) rc = -1;
        else if (result_out) *result_out = v;
        else NN_RELEASE(v);
    } else {
        for (int i = 0; i < body->n; i++) {
            const repl_node *s = body->items[i];
            if (mode == REPL_PARSE_SINGLE && i == body->n - 1 && s->kind == REPL_AST_Expr) {
                f.line = s->line;
                f.err_node = NULL;
                nn_object *v = eval(&f, s->v.Return.value);
                if (!v) {
                    rc = -1;
                    break;
                }
                if (result_out && !nn_is_none(v)) *result_out = v;
                else NN_RELEASE(v);
                if (!nn_is_none(v)) repl_nmap_set(&in->globals, "_", v);
                break;
            }
            if (nn_gc_due()) nn_gc_maybe_collect();
            exec_status st = exec_stmt(&f, s);
            if (st == EX_ERR) {
                rc = -1;
                break;
            }
            if (st != EX_OK) {
                repl_raise_exc(EXC_SyntaxError, "'%s' outside %s", st == EX_RETURN ? "return" : st == EX_BREAK ? "break" : "continue",
                          st == EX_RETURN ? "function" : "loop");
                NN_SET(f.retval, NULL);
                rc = -1;
                break;
            }
        }
    }
    if (rc < 0) {
        tb_add(&f);
        uncaught(in);
    }
    NN_RELEASE(f.retval);
    in->top = saved_top;
    in->depth = saved_depth;
    unit_release(u);
    repl_current = prev;
    return rc;
}

/* ------------------------------------------------------------------ the front end's access to __main__ */

nn_object *repl_get_global(repl_interp *in, const char *name) { return repl_nmap_get(&in->globals, name); }
int repl_set_global(repl_interp *in, const char *name, nn_object *value) { return repl_nmap_set(&in->globals, name, value); }
int repl_del_global(repl_interp *in, const char *name) { return repl_nmap_del(&in->globals, name); }
int repl_set_builtin(repl_interp *in, const char *name, nn_object *value) { return repl_nmap_set(&in->builtins, name, value); }

const char **repl_global_names(repl_interp *in, size_t *n)
{
    *n = 0;
    const char **names = repl_nmap_keys_ordered(&in->globals);
    if (names) *n = in->globals.len;
    return names;
}

/* repr or str of obj with in as the running interpreter; a failure leaves its
   traceback as repl_exec's would. */
static char *text_of(repl_interp *in, nn_object *obj, char *(*convert)(nn_object *))
{
    repl_interp *prev = repl_current;
    repl_current = in;
    nn_free(in->last_tb);
    in->last_tb = NULL;
    nn_free(in->last_name);
    in->last_name = NULL;
    char *s = convert(obj);
    if (!s) uncaught(in);
    repl_current = prev;
    return s;
}
char *repl_repr(repl_interp *in, nn_object *obj) { return text_of(in, obj, repl_obj_repr); }
char *repl_str(repl_interp *in, nn_object *obj) { return text_of(in, obj, repl_obj_str); }

/* ------------------------------------------------------------------ modules written in the language */

/* A scope whose names are module's dict (a module_obj): the functions and classes
   defined under it have the module's globals. */
static scope *module_scope_new(nn_object *module)
{
    scope *sc = repl_scope_new(NULL);
    if (sc) sc->module = nn_retain(module);
    return sc;
}

static void raise_parse_error(const char *filename, const repl_parse_error *perr, const char *source, bool as_written);

int repl_exec_module_source(nn_object *module, const char *static_name, const char *source, const char *filename)
{
    repl_interp *in = repl_current;
    code_unit *u = nn_calloc(1, sizeof *u);
    if (u) {
        u->refcount = 1;
        u->source = nn_strdup(source);
        u->filename = nn_strdup(filename);
    }
    scope *sc = u && u->source && u->filename ? module_scope_new(module) : NULL;
    if (!sc) {
        unit_release(u);
        return -1;
    }
    nmap *names = &((module_obj *)module)->dict;
    int rc = 0;
    if (!repl_nmap_get(names, "__name__")) { /* what its code reads as __name__ */
        nn_object *name = nn_str_new(((module_obj *)module)->name);
        rc = name ? repl_nmap_set(names, "__name__", name) : -1;
        NN_RELEASE(name);
    }
    repl_parse_error perr = {0};
    repl_node *tree = rc == 0 ? unit_parse(u, source, REPL_PARSE_FILE, &perr) : NULL;
    if (rc == 0 && !tree) raise_parse_error(filename, &perr, u->source, true);
    if (!tree) rc = -1;
    frame f = {.back = in->top, .unit = u, .name = "<module>", .locals = names, .sc = sc, .env = sc, .line = 1};
    in->top = &f;
    for (int i = 0; tree && i < tree->v.Module.body.n; i++) {
        exec_status st = exec_stmt(&f, tree->v.Module.body.items[i]);
        if (st != EX_OK) {
            if (st == EX_ERR) tb_add(&f);
            rc = -1;
            break;
        }
    }
    in->top = f.back;
    uint32_t pos = 0;
    const char *k;
    nn_object *v;
    while (rc == 0 && repl_nmap_next(names, &pos, &k, &v))
        if (v->type == &repl_class_type && !((class_obj *)v)->module) ((class_obj *)v)->module = static_name;
    NN_RELEASE(f.retval);
    NN_RELEASE(sc);
    unit_release(u);
    return rc;
}

/* ------------------------------------------------------------------ the debugger's access (debug.c) */

void repl_tb_entries_free(tb_entry *a, int n)
{
    for (int i = 0; i < n; i++) {
        unit_release(a[i].unit);
        nn_free(a[i].name);
        NN_RELEASE(a[i].sc);
    }
    nn_free(a);
}

int repl_debug_frames(repl_interp *in, bool live, tb_entry **out, int *n)
{
    *out = NULL;
    *n = 0;
    int count = 0;
    if (live)
        for (frame *f = in->top; f; f = f->back) count++;
    else
        count = in->n_pm;
    if (!count) return 0;
    tb_entry *a = nn_calloc((size_t)count, sizeof *a);
    if (!a) return -1;
    frame *f = in->top;
    for (int i = 0; i < count; i++) {
        tb_entry *e = &a[i];
        if (live) {
            e->unit = f->unit;
            e->line = f->line;
            e->name = nn_strdup(f->name);
            e->sc = f->sc ? &f->sc->ob : NULL;
            f = f->back;
        } else {
            *e = in->pm[i];
            e->name = nn_strdup(e->name);
        }
        if (e->unit) e->unit->refcount++;
        if (e->sc) nn_retain(e->sc);
        if (!e->name) {
            repl_tb_entries_free(a, i + 1);
            return -1;
        }
    }
    *out = a;
    *n = count;
    return 0;
}

int repl_exec_in_scope(repl_interp *in, nn_object *sc, const char *source, const char *filename,
                       repl_parse_mode mode, nn_object **result_out)
{
    tb_entry *pm = in->pm;
    int n_pm = in->n_pm;
    nn_object *handling = in->handling;
    scope *saved_scope = in->exec_scope;
    in->pm = NULL;
    in->n_pm = 0;
    in->handling = NULL;
    in->exec_scope = (scope *)sc;
    int rc = repl_exec(in, source, filename, mode, result_out);
    in->exec_scope = saved_scope;
    repl_tb_entries_free(in->pm, in->n_pm);
    in->pm = pm;
    in->n_pm = n_pm;
    NN_RELEASE(in->handling);
    in->handling = handling;
    return rc;
}

/* ------------------------------------------------------------------ eval(), exec() (lang_exec.c) */

/* Raises SyntaxError (or IndentationError, TabError) as CPython's parser makes
   it: args (msg, (filename, lineno, offset, text, end_lineno, end_offset)), text
   the line of source (None without one), with its newline unless CPython's
   tokenizer found the error (then the line without it) or the source is a
   file's or eval's (as_written: the line as the source has it). */
static void raise_syntax_error(exc_id id, const char *msg, const char *filename, const repl_parse_error *perr,
                               const char *source, bool as_written)
{
    int line = perr->line ? perr->line : 1, offset = perr->offset;
    int end_offset = perr->end_exact || perr->end_offset >= offset ? perr->end_offset
                     : perr->tok_line                       ? offset /* the tokenizer's: an empty range */
                                                            : offset + 1;
    const char *p = perr->compiler ? NULL : source;
    for (int l = 1; p && l < line; l++) p = (p = strchr(p, '\n')) ? p + 1 : NULL;
    size_t n = p ? strcspn(p, "\n") : 0;
    bool newline = !perr->tok_line && (!as_written || (p && p[n] == '\n'));
    nn_object *text = perr->text[0] ? nn_str_format("%s\n", perr->text) /* an f-string's (a b) */
                      : p ? nn_str_format("%.*s%s", (int)n, p, newline ? "\n" : "") : nn_retain(nn_none());
    nn_object *m = nn_str_new(msg), *where[6] = {nn_str_new(filename), nn_int_new(line),
                                                 offset ? nn_int_new(offset) : nn_retain(nn_none()), text,
                                                 nn_int_new(line), offset ? nn_int_new(end_offset) : nn_retain(nn_none())};
    bool made = m;
    for (int i = 0; i < 6; i++) made = made && where[i];
    nn_object *info = made ? nn_tuple_pack(6, where[0], where[1], where[2], where[3], where[4], where[5]) : NULL;
    nn_object *args = info ? nn_tuple_pack(2, m, info) : NULL, *e = args ? repl_exc_new(id, args) : NULL;
    NN_RELEASE(m);
    for (int i = 0; i < 6; i++) NN_RELEASE(where[i]);
    NN_RELEASE(info);
    NN_RELEASE(args);
    if (e && repl_syntax_error_init(e) == 0) repl_raise_object(e);
    else if (!nn_error_current()) nn_error_set(NN_ERR_MEMORY, "out of memory");
    NN_RELEASE(e);
}

/* The parse error (nn_error_current(), *perr) as the exception CPython raises:
   SyntaxError, IndentationError or TabError (raise_syntax_error), RecursionError
   for a tree too deep, MemoryError. */
static void raise_parse_error(const char *filename, const repl_parse_error *perr, const char *source, bool as_written)
{
    nn_error_kind kind = nn_error_current();
    char *msg = nn_strdup(kind ? nn_error_message() : "invalid syntax");
    nn_error_clear();
    if (!msg) nn_error_set(NN_ERR_MEMORY, "out of memory");
    else if (kind == NN_ERR_MEMORY) nn_error_set(NN_ERR_MEMORY, "%s", msg); /* the parser's stack: no message */
    else if (kind == NN_ERR_RECURSION) repl_raise_exc(EXC_RecursionError, "%s", msg); /* during compilation */
    else raise_syntax_error(kind == NN_ERR_TAB           ? EXC_TabError
                            : kind == NN_ERR_INDENTATION ? EXC_IndentationError
                                                         : EXC_SyntaxError,
                            perr->status == REPL_PARSE_INCOMPLETE ? "incomplete input" : msg, filename, perr, source,
                            as_written);
    nn_free(msg);
}

/* source parsed into a new unit (*tree its tree), or NULL with SyntaxError worded
   as CPython words it for a string: "invalid syntax (<string>, line 1)". */
static code_unit *parse_unit(const char *source, const char *filename, bool expr, repl_node **tree)
{
    code_unit *u = nn_calloc(1, sizeof *u);
    if (u) {
        u->refcount = 1;
        u->source = nn_strdup(source);
        if (u->source) repl_translate_newlines(u->source);
        u->filename = nn_strdup(filename);
    }
    if (!u || !u->source || !u->filename) {
        unit_release(u);
        return NULL;
    }
    repl_parse_error perr = {0};
    *tree = unit_parse(u, u->source, expr ? REPL_PARSE_EVAL : REPL_PARSE_FILE, &perr);
    if (!*tree) {
        raise_parse_error(filename, &perr, u->source, expr); /* eval's lines: no newline added at the end */
        unit_release(u);
        return NULL;
    }
    return u;
}

int repl_check_source(const char *source, const char *filename, bool expr)
{
    repl_node *tree;
    code_unit *u = parse_unit(source, filename, expr, &tree);
    unit_release(u);
    return u ? 0 : -1;
}

int repl_run_source(const char *source, const char *filename, bool expr, nn_object *globals, nn_object *locals,
                    nn_object **result)
{
    repl_interp *in = repl_current;
    *result = NULL;
    if (in->depth >= MAX_DEPTH) return repl_raise_exc(EXC_RecursionError, "maximum recursion depth exceeded");
    repl_node *tree;
    code_unit *u = parse_unit(source, filename, expr, &tree);
    if (!u) return -1;
    scope *sc = NULL, *module_sc = NULL;
    frame fr;
    bool module_ns = globals && repl_is_globals_dict(globals); /* exec(code, globals()) */
    nn_object *module = module_ns ? repl_namespace_module(globals) : NULL;
    if (module_ns) globals = NULL;
    if (module) { /* an imported module's namespace (globals() there, module.__dict__) */
        if (!(module_sc = module_scope_new(module))) {
            unit_release(u);
            return -1;
        }
        fr = (frame){.locals = repl_scope_names(module_sc), .sc = module_sc, .env = module_sc};
    } else if (globals) {
        /* the dicts' names run in a scope of their own, written back after */
        sc = repl_scope_new(NULL);
        nn_object *dicts[2] = {globals, locals};
        for (int d = 0; sc && d < 2; d++) {
            size_t pos = 0;
            nn_object *k, *v;
            while (sc && dicts[d] && nn_dict_next(dicts[d], &pos, &k, &v))
                if (nn_is_str(k) && repl_nmap_set(&sc->map, nn_str_cstr(k), v) < 0) NN_SET(sc, NULL);
        }
        if (!sc) {
            unit_release(u);
            return -1;
        }
        fr = (frame){.locals = &sc->map, .sc = sc, .env = sc};
    } else if (in->top && !module_ns) {
        fr = *in->top; /* the caller's namespaces */
    } else {
        fr = (frame){.locals = &in->globals};
    }
    fr.back = in->top;
    fr.unit = u;
    fr.name = "<module>";
    fr.line = 1;
    fr.err_node = NULL;
    fr.retval = NULL;
    in->top = &fr;
    in->depth++;
    int rc = 0;
    if (expr) {
        *result = eval(&fr, tree->v.Expression.body);
        if (!*result) rc = -1;
    } else {
        for (int i = 0; i < tree->v.Module.body.n && rc == 0; i++) {
            exec_status st = exec_stmt(&fr, tree->v.Module.body.items[i]);
            if (st == EX_ERR) rc = -1;
            else if (st != EX_OK) {
                repl_raise_exc(EXC_SyntaxError, "'%s' outside %s (%s, line %d)",
                               st == EX_RETURN ? "return" : st == EX_BREAK ? "break" : "continue",
                               st == EX_RETURN ? "function" : "loop", filename, fr.line);
                rc = -1;
            }
        }
    }
    if (rc < 0) tb_add(&fr);
    in->depth--;
    in->top = fr.back;
    NN_RELEASE(fr.retval);
    NN_RELEASE(module_sc);
    if (sc) { /* what the code bound, back into the dict (locals when given, as CPython) */
        nn_object *target = locals ? locals : globals;
        uint32_t pos = 0;
        const char *k;
        nn_object *v;
        while (repl_nmap_next(&sc->map, &pos, &k, &v))
            if (locals && nn_dict_get_str(globals, k) == v && !nn_dict_get_str(locals, k)) continue; /* a global read */
            else if (nn_dict_set_str(target, k, v) < 0) {
                nn_error_clear();
                break;
            }
        NN_RELEASE(sc);
    }
    unit_release(u);
    return rc;
}

/* The item operations for builtin_sub.c's slots (dict.__setitem__ and the like). */
int repl_set_item(nn_object *o, nn_object *key, nn_object *value) { return set_item(o, key, value); }
int repl_del_item(nn_object *o, nn_object *key) { return del_item(o, key); }
int repl_contains(nn_object *container, nn_object *x) { return contains(container, x); }
