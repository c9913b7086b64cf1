/*
 * torch_arg_errors.c — PyTorch 1.13's words for the argument errors of torch's C functions and
 * Tensor methods. bind_args.c's parser words its TypeErrors as CPython does, which is right for
 * the language's own functions; when a native torch function or Tensor method fails with one, it
 * is reworded here as torch/csrc/utils/python_arg_parser.cpp words it:
 *  - missing arguments: `narrow() missing 1 required positional arguments: "length"` (1.13 writes
 *    the plural for one argument and the singular for more, every name quoted);
 *  - a Tensor method's positions and counts leave self out: `argument 'dim' (position 1)`;
 *  - a name with several signatures (torch_overloads.def, made from PyTorch) says `received an
 *    invalid combination of arguments - got (int, str), but expected one of:` and its options,
 *    each option that takes as many arguments with a "didn't match" line marking the wrong types;
 *    a wrong type where one option alone takes that many arguments keeps that option's own error.
 */
#include <stdio.h>
#include <string.h>

#include "bind_int.h"
#include "eval_int.h"

enum { METHOD, FUNCTION };

static const struct {
    int form;
    const char *name, *options;
} overloads[] = {
#define OVERLOAD(form, name, options) {form, name, options},
#include "torch_overloads.def"
#undef OVERLOAD
};

static const char *options_of(const char *name, bool method)
{
    for (size_t i = 0; i < sizeof overloads / sizeof *overloads; i++)
        if (overloads[i].form == (method ? METHOD : FUNCTION) && !strcmp(overloads[i].name, name))
            return overloads[i].options;
    return NULL;
}

/* ------------------------------------------------------------ options */

#define MAX_OPT_PARAMS 16

typedef struct option {
    int n;                            /* parameters, out= left out */
    char type[MAX_OPT_PARAMS][48], name[MAX_OPT_PARAMS][32];
} option;

/* "(int dim, Tensor start, *, Tensor out)" into its parameters */
static void parse_option(const char *s, size_t len, option *o)
{
    o->n = 0;
    const char *p = s + 1, *end = s + len - 1; /* inside the parentheses */
    while (p < end && o->n < MAX_OPT_PARAMS) {
        const char *q = p;
        while (q < end && *q != ',') q++;
        const char *space = NULL;
        for (const char *r = p; r < q; r++)
            if (*r == ' ') space = r;
        if (space) {
            snprintf(o->type[o->n], sizeof o->type[0], "%.*s", (int)(space - p), p);
            snprintf(o->name[o->n], sizeof o->name[0], "%.*s", (int)(q - space - 1), space + 1);
            if (strcmp(o->name[o->n], "out") || strcmp(o->type[o->n], "Tensor")) o->n++;
        }
        p = q + 1;
        while (p < end && *p == ' ') p++;
    }
}

static bool is_int(nn_object *o) { return nn_is_int(o) && !nn_is_bool(o); }

static bool all_items(nn_object *o, bool (*ok)(nn_object *))
{
    bool list = nn_is_list(o);
    if (!list && !nn_is_instance(o, &nn_tuple_type)) return false;
    size_t n = list ? nn_list_len(o) : nn_tuple_len(o);
    for (size_t i = 0; i < n; i++)
        if (!ok(list ? nn_list_get(o, i) : nn_tuple_get(o, i))) return false;
    return true;
}

static bool is_tensor(nn_object *o) { return nn_is_tensor(o); }
static bool is_str(nn_object *o) { return nn_is_str(o); }

/* whether o passes for a parameter of this type (python_arg_parser's checks, roughly) */
static bool type_matches(const char *type, nn_object *o)
{
    if (!strcmp(type, "Tensor")) return nn_is_tensor(o);
    if (!strcmp(type, "int")) return is_int(o);
    if (!strcmp(type, "bool")) return nn_is_bool(o);
    if (!strcmp(type, "float")) return nn_is_float(o) || is_int(o);
    if (!strcmp(type, "Number"))
        return nn_is_int(o) || nn_is_float(o) || (nn_is_tensor(o) && NN_TENSOR(o)->ndim == 0);
    if (!strcmp(type, "torch.dtype")) return repl_is_dtype(o);
    if (!strcmp(type, "torch.device")) return repl_is_device(o) || nn_is_str(o) || is_int(o);
    if (!strcmp(type, "str") || !strcmp(type, "name")) return nn_is_str(o);
    if (!strcmp(type, "tuple of ints") || !strcmp(type, "tuple of SymInts")) return is_int(o) || all_items(o, is_int);
    if (!strcmp(type, "tuple of names")) return nn_is_str(o) || all_items(o, is_str);
    if (!strcmp(type, "tuple of Tensors")) return all_items(o, is_tensor);
    return !strcmp(type, repl_value_type_name(o));
}

/* the type name PyTorch's message gives an argument (Python's tp_name) */
static const char *got_name(nn_object *o)
{
    if (nn_is_tensor(o)) return o->type == &nn_parameter_type ? "Parameter" : "Tensor";
    if (repl_is_dtype(o)) return "torch.dtype";
    if (repl_is_device(o)) return "torch.device";
    if (o->type == &repl_size_type) return "torch.Size";
    return repl_value_type_name(o);
}

/* ------------------------------------------------------------ messages */

/* `NAME() received an invalid combination of arguments - got (...), but expected one of: ...`
   (or `expected (option)` for one) */
static void invalid_combination(const char *name, const char *options, nn_object *args, size_t skip,
                                nn_object *kwargs)
{
    size_t nargs = nn_tuple_len(args) - skip, nkw = kwargs ? nn_dict_len(kwargs) : 0;
    sbuf b = {0};
    repl_sb_printf(&b, "%s() received an invalid combination of arguments - got (", name);
    for (size_t i = 0; i < nargs; i++)
        repl_sb_printf(&b, "%s%s", i ? ", " : "", got_name(nn_tuple_get(args, skip + i)));
    size_t pos = 0;
    nn_object *k, *v;
    if (nkw && nargs) repl_sb_puts(&b, ", ");
    while (kwargs && nn_dict_next(kwargs, &pos, &k, &v))
        repl_sb_printf(&b, "%s=%s, ", nn_is_str(k) ? nn_str_cstr(k) : "?", got_name(v));
    bool one = !strchr(options, '\n');
    repl_sb_puts(&b, one ? "), but expected " : "), but expected one of:\n");
    for (const char *p = options; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        option o;
        parse_option(p, len, &o);
        repl_sb_printf(&b, one ? "%.*s" : " * %.*s\n", (int)len, p);
        bool fits = !one && (size_t)o.n == nargs + nkw, wrong = false;
        pos = 0; /* every keyword one of the option's names */
        while (fits && kwargs && nn_dict_next(kwargs, &pos, &k, &v)) {
            int j = 0;
            while (j < o.n && !(nn_is_str(k) && !strcmp(o.name[j], nn_str_cstr(k)))) j++;
            fits = j < o.n;
        }
        for (size_t i = 0; fits && i < nargs; i++) wrong |= !type_matches(o.type[i], nn_tuple_get(args, skip + i));
        if (fits && wrong) {
            repl_sb_puts(&b, "      didn't match because some of the arguments have invalid types: (");
            for (size_t i = 0; i < nargs; i++) {
                nn_object *a = nn_tuple_get(args, skip + i);
                const char *mark = type_matches(o.type[i], a) ? "" : "!";
                repl_sb_printf(&b, "%s%s%s%s", i ? ", " : "", mark, got_name(a), mark);
            }
            repl_sb_puts(&b, ")\n");
        }
        p = e ? e + 1 : p + len;
    }
    char *msg = repl_sb_finish(&b);
    if (msg) nn_error_set(NN_ERR_TYPE, "%s", msg);
    nn_free(msg);
}

/* how many of the options take nargs arguments (a list of ints as the first: any number) */
static int plausible(const char *options, size_t nargs)
{
    int count = 0;
    for (const char *p = options; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        option o;
        parse_option(p, len, &o);
        bool varargs = o.n > 0 && (!strcmp(o.type[0], "tuple of ints") || !strcmp(o.type[0], "tuple of SymInts"));
        count += nargs <= (size_t)o.n || varargs;
        p = e ? e + 1 : p + len;
    }
    return count;
}

/* `NAME() missing 2 required positional argument: "a", "b"` from CPython's
   `NAME() missing 2 required positional arguments: 'a' and 'b'` */
static void missing_words(const char *msg, const char *name)
{
    const char *colon = strstr(msg, ": ");
    int k = 0;
    if (!colon || sscanf(msg + strlen(name) + strlen("() missing "), "%d", &k) != 1) return;
    sbuf b = {0};
    repl_sb_printf(&b, "%s() missing %d required positional argument%s: ", name, k, k == 1 ? "s" : "");
    bool first = true;
    for (const char *p = colon + 2; (p = strchr(p, '\'')) != NULL;) {
        const char *e = strchr(p + 1, '\'');
        if (!e) break;
        repl_sb_printf(&b, "%s\"%.*s\"", first ? "" : ", ", (int)(e - p - 1), p + 1);
        first = false;
        p = e + 1;
    }
    char *s = repl_sb_finish(&b);
    if (s) nn_error_set(NN_ERR_TYPE, "%s", s);
    nn_free(s);
}

/* a Tensor method's counts without self: `(position 2)` -> `(position 1)`, `takes 3 positional
   arguments but 4 were given` -> `takes 2 positional arguments but 3 were given` */
static void without_self(const char *msg, const char *name)
{
    const char *at = strstr(msg, "(position ");
    int pos = 0, lo = 0, hi = 0, given = 0;
    char *s = NULL;
    if (at && sscanf(at, "(position %d)", &pos) == 1 && pos > 1) {
        const char *close = strchr(at, ')');
        sbuf b = {0};
        repl_sb_printf(&b, "%.*s(position %d)%s", (int)(at - msg), msg, pos - 1, close + 1);
        s = repl_sb_finish(&b);
    } else if (sscanf(msg + strlen(name), "() takes from %d to %d positional arguments but %d", &lo, &hi, &given) == 3) {
        sbuf b = {0};
        repl_sb_printf(&b, "%s() takes from %d to %d positional arguments but %d were given", name, lo - 1, hi - 1,
                       given - 1);
        s = repl_sb_finish(&b);
    } else if (sscanf(msg + strlen(name), "() takes %d positional argument%*[s] but %d", &hi, &given) == 2 ||
               sscanf(msg + strlen(name), "() takes %d positional argument but %d", &hi, &given) == 2) {
        sbuf b = {0};
        repl_sb_printf(&b, "%s() takes %d positional argument%s but %d %s given", name, hi - 1, hi - 1 == 1 ? "" : "s",
                       given - 1, given - 1 == 1 ? "was" : "were");
        s = repl_sb_finish(&b);
    }
    if (s) nn_error_set(NN_ERR_TYPE, "%s", s);
    nn_free(s);
}

/* torch's names that PyTorch defines in Python (torch/functional.py, torch/_tensor.py): CPython words
   their errors */
static const char *const python_level[] = {"split", "norm", "einsum", "meshgrid", "unique", "unique_consecutive",
                                           "tensordot", "cdist", "stft", "istft", "lu", "chain_matmul", "atleast_1d",
                                           "atleast_2d", "atleast_3d", "broadcast_tensors", "broadcast_shapes",
                                           "block_diag", "cartesian_prod", "backward", "register_hook", "unflatten",
                                           "storage", "share_memory_", "is_shared", "refine_names", "align_to"};

void repl_torch_arg_error(const char *name, bool method, nn_object *args, size_t skip, nn_object *kwargs)
{
    if (nn_error_current() != NN_ERR_TYPE) return;
    for (size_t i = 0; i < sizeof python_level / sizeof *python_level; i++)
        if (!strcmp(python_level[i], name)) return;
    const char *msg = nn_error_message();
    size_t n = strlen(name);
    if (strncmp(msg, name, n) || msg[n] != '(' || msg[n + 1] != ')') return; /* not this call's own parse */
    bool missing = !strncmp(msg + n, "() missing ", 11) && strstr(msg, "required positional argument");
    bool wrong_type = !strncmp(msg + n, "(): argument '", 14);
    bool parse = missing || wrong_type || !strncmp(msg + n, "() takes ", 9) ||
                 !strncmp(msg + n, "() got an unexpected keyword argument", 37);
    if (!parse) return;
    const char *options = options_of(name, method);
    size_t nargs = nn_tuple_len(args) - skip + (kwargs ? nn_dict_len(kwargs) : 0);
    if (options && !(wrong_type && plausible(options, nargs) <= 1)) {
        invalid_combination(name, options, args, skip, kwargs);
        return;
    }
    char *copy = nn_strdup(msg);
    if (!copy) return;
    if (missing) missing_words(copy, name);
    else if (skip) without_self(copy, name);
    nn_free(copy);
}
