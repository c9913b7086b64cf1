/*
 * lang_exec.c — the built-ins eval(), exec() and compile(), as CPython 3.11:
 * a string (or a code object from compile) run in the caller's namespaces, or
 * in a globals dict (and a locals mapping) given; eval returns the expression's
 * value, exec None. A failure inside shows `File "<string>", line N, in <module>`
 * in its traceback; a syntax error is CPython's "invalid syntax (<string>, line 1)".
 * The running itself is the evaluator's (repl_run_source in eval.c).
 */
#include <stdio.h>
#include <string.h>

#include "eval_int.h"

/* compile()'s result: the source, its filename and mode, run again by eval/exec. */
typedef struct code_obj {
    nn_object ob;
    char *source, *filename; /* owned */
    bool expr;               /* mode 'eval' */
} code_obj;

static void code_dealloc(nn_object *self)
{
    code_obj *c = (code_obj *)self;
    nn_free(c->source);
    nn_free(c->filename);
    nn_free(c);
}

static char *code_repr(nn_object *self)
{
    sbuf b = {0};
    repl_sb_printf(&b, "<code object <module> at %p, file \"%s\", line 1>", (void *)self, ((code_obj *)self)->filename);
    return repl_sb_finish(&b);
}

const nn_type repl_code_type = {.name = "code", .dealloc = code_dealloc, .repr = code_repr};

/* The i-th argument, positional or by keyword name (borrowed), or NULL. */
static nn_object *arg_at(nn_object *args, nn_object *kwargs, size_t i, const char *name)
{
    if (i < nn_tuple_len(args)) return nn_tuple_get(args, i);
    return kwargs ? nn_dict_get_str(kwargs, name) : NULL;
}

/* Checks the keywords of fn against names (NULL-terminated) and the count of positional ones. */
static int check_args(const char *fn, nn_object *args, nn_object *kwargs, const char *const *names, size_t max, size_t min)
{
    size_t n = nn_tuple_len(args);
    if (n > max) return repl_raise_exc(EXC_TypeError, "%s expected at most %zu arguments, got %zu", fn, max, n);
    size_t pos = 0;
    nn_object *k, *v;
    while (kwargs && nn_dict_next(kwargs, &pos, &k, &v)) {
        bool known = false;
        for (size_t i = 0; names[i]; i++)
            if (strcmp(nn_str_cstr(k), names[i]) == 0) known = true;
        if (!known) return repl_raise_exc(EXC_TypeError, "%s() got an unexpected keyword argument '%s'", fn, nn_str_cstr(k));
    }
    if (n < min && !(kwargs && nn_dict_get_str(kwargs, names[0])))
        return repl_raise_exc(EXC_TypeError, "%s expected at least %zu argument%s, got %zu", fn, min, min == 1 ? "" : "s", n);
    return 0;
}

static nn_object *run_in(const char *fn, bool is_eval, nn_object *args, nn_object *kwargs, nn_object *src,
                         nn_object *g, nn_object *l);

/* eval and exec: what to run, checked; the result or NULL. */
static nn_object *run(const char *fn, bool is_eval, nn_object *args, nn_object *kwargs)
{
    static const char *const names[] = {"source", "globals", "locals", NULL};
    if (check_args(fn, args, kwargs, names, 3, 1) < 0) return NULL;
    nn_object *src = arg_at(args, kwargs, 0, "source"), *g = arg_at(args, kwargs, 1, "globals"),
              *l = arg_at(args, kwargs, 2, "locals");
    if (g && nn_is_none(g)) g = NULL;
    /* exec(code, globals()): the module's own namespace (with locals: a copy of it) */
    nn_object *live = g && l && repl_is_globals_dict(g) ? repl_call_method(g, "copy", NULL, 0) : NULL;
    if (live) g = live;
    else if (g && l && repl_is_globals_dict(g)) return NULL;
    nn_object *r = run_in(fn, is_eval, args, kwargs, src, g, l);
    NN_RELEASE(live);
    return r;
}

static nn_object *run_in(const char *fn, bool is_eval, nn_object *args, nn_object *kwargs, nn_object *src,
                         nn_object *g, nn_object *l)
{
    if (l && nn_is_none(l)) l = NULL;
    if (!nn_is_str(src) && src->type != &repl_code_type) {
        repl_raise_exc(EXC_TypeError, "%s() arg 1 must be a string, bytes or code object", fn);
        return NULL;
    }
    if (g && !nn_is_dict(g) && !repl_is_globals_dict(g)) {
        if (is_eval) repl_raise_exc(EXC_TypeError, "globals must be a dict");
        else repl_raise_exc(EXC_TypeError, "exec() globals must be a dict, not %s", repl_value_type_name(g));
        return NULL;
    }
    if (l && !nn_is_dict(l)) {
        if (is_eval) repl_raise_exc(EXC_TypeError, "locals must be a mapping");
        else repl_raise_exc(EXC_TypeError, "locals must be a mapping or None, not %s", repl_value_type_name(l));
        return NULL;
    }
    const char *text, *filename = "<string>";
    bool expr = is_eval;
    if (src->type == &repl_code_type) {
        code_obj *c = (code_obj *)src;
        text = c->source;
        filename = c->filename;
        expr = c->expr;
    } else {
        text = nn_str_cstr(src);
        if (is_eval) text += strspn(text, " \t"); /* eval strips leading blanks, as CPython */
    }
    nn_object *result = NULL;
    if (repl_run_source(text, filename, expr, g, l, &result) < 0) return NULL;
    if (!is_eval || !result) {
        NN_RELEASE(result);
        return nn_retain(nn_none());
    }
    return result;
}

static nn_object *bi_eval(void *ud, nn_object *args, nn_object *kwargs) { return run("eval", true, args, kwargs); }
static nn_object *bi_exec(void *ud, nn_object *args, nn_object *kwargs) { return run("exec", false, args, kwargs); }

static nn_object *bi_compile(void *ud, nn_object *args, nn_object *kwargs)
{
    static const char *const names[] = {"source", "filename", "mode", "flags", "dont_inherit", "optimize", NULL};
    if (check_args("compile", args, kwargs, names, 6, 3) < 0) return NULL;
    nn_object *src = arg_at(args, kwargs, 0, "source"), *file = arg_at(args, kwargs, 1, "filename"),
              *mode = arg_at(args, kwargs, 2, "mode");
    if (!src || !file || !mode) {
        repl_raise_exc(EXC_TypeError, "compile() missing required argument '%s'", !src ? "source" : !file ? "filename" : "mode");
        return NULL;
    }
    if (!nn_is_str(src)) {
        repl_raise_exc(EXC_TypeError, "compile() arg 1 must be a string, bytes or AST object");
        return NULL;
    }
    if (!nn_is_str(file)) {
        repl_raise_exc(EXC_TypeError, "compile() argument 'filename' must be str, not %s", repl_value_type_name(file));
        return NULL;
    }
    const char *m = nn_is_str(mode) ? nn_str_cstr(mode) : "";
    if (!nn_is_str(mode)) {
        repl_raise_exc(EXC_TypeError, "compile() argument 'mode' must be str, not %s", repl_value_type_name(mode));
        return NULL;
    }
    if (strcmp(m, "exec") && strcmp(m, "eval") && strcmp(m, "single")) {
        repl_raise_exc(EXC_ValueError, "compile() mode must be 'exec', 'eval' or 'single'");
        return NULL;
    }
    bool expr = strcmp(m, "eval") == 0;
    const char *text = nn_str_cstr(src);
    if (expr) text += strspn(text, " \t");
    /* a syntax error is raised now, as CPython compiles at once */
    if (repl_check_source(text, nn_str_cstr(file), expr) < 0) return NULL;
    code_obj *c = nn_calloc(1, sizeof *c);
    if (!c) return NULL;
    nn_object_init(&c->ob, &repl_code_type);
    c->source = nn_strdup(text);
    c->filename = nn_strdup(nn_str_cstr(file));
    c->expr = expr;
    if (!c->source || !c->filename) {
        NN_RELEASE(c);
        return NULL;
    }
    return &c->ob;
}

static const struct {
    const char *name;
    nn_cfunc fn;
    const char *doc;
} exec_builtins[] = {
    {"eval", bi_eval,
     "eval(source, globals=None, locals=None, /)\nEvaluate the given source in the context of globals and locals.\n\n"
     "The source may be a string representing a Python expression\nor a code object as returned by compile()."},
    {"exec", bi_exec,
     "exec(source, globals=None, locals=None, /)\nExecute the given source in the context of globals and locals.\n\n"
     "The source may be a string representing one or more Python statements\nor a code object as returned by compile()."},
    {"compile", bi_compile,
     "compile(source, filename, mode, flags=0, dont_inherit=False, optimize=-1)\nCompile source into a code object that "
     "can be executed by exec() or eval()."},
};

const char *repl_exec_builtin_doc(const char *name)
{
    for (size_t i = 0; i < sizeof exec_builtins / sizeof *exec_builtins; i++)
        if (strcmp(exec_builtins[i].name, name) == 0) return exec_builtins[i].doc;
    return NULL;
}

int repl_exec_builtins_init(repl_interp *in)
{
    for (size_t i = 0; i < sizeof exec_builtins / sizeof *exec_builtins; i++) {
        nn_object *f = nn_cfunction_new(exec_builtins[i].name, exec_builtins[i].fn, (void *)exec_builtins[i].doc, NULL);
        int rc = f ? repl_nmap_set(&in->builtins, exec_builtins[i].name, f) : -1;
        NN_RELEASE(f);
        if (rc < 0) return -1;
    }
    return 0;
}
