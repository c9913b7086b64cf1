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
#include <stdlib.h>
#include <string.h>

#include "bind_int.h"
#include "eval_int.h"

enum { METHOD, FUNCTION };

static const struct {
    int form;
    const char *name, *options; /* options NULL: a name PyTorch defines in Python */
} overloads[] = {
#define OVERLOAD(form, name, options) {form, name, options},
#define PYTHON_LEVEL(form, name) {form, name, NULL},
#include "torch_overloads.def"
#undef PYTHON_LEVEL
#undef OVERLOAD
};

static bool listed(const char *name, bool method, const char **options)
{
    for (size_t i = 0; i < sizeof overloads / sizeof *overloads; i++)
        if (overloads[i].form == (method ? METHOD : FUNCTION) && !strcmp(overloads[i].name, name)) {
            *options = overloads[i].options;
            return true;
        }
    *options = NULL;
    return false;
}

/* ------------------------------------------------------------ options */

#define MAX_OPT_PARAMS 24

/* an option as torch/csrc/utils/invalid_arguments.cpp reads it: its text split at ", ", every piece
   an argument ("*" and the empty one of "()" too), its type the text before the last space */
typedef struct option {
    int min, max;                  /* the parser's min_args and max_args: plausible counts */
    int n;                         /* arguments as invalid_arguments.cpp counts them */
    const char *text;              /* "(...)" as printed */
    int len;
    char type[MAX_OPT_PARAMS][48], name[MAX_OPT_PARAMS][32];
} option;

/* "MIN|(int dim, Tensor start, *, Tensor out)" (one line of the .def) into o */
static void parse_option(const char *s, size_t len, option *o)
{
    char *bar = NULL;
    o->min = (int)strtol(s, &bar, 10);
    o->text = bar + 1;
    o->len = (int)(s + len - o->text);
    o->n = o->max = 0; /* an int list alone takes any number of ints: view(2, 3) */
    const char *p = o->text + 1, *end = o->text + o->len - 1; /* inside the parentheses */
    for (;;) {
        const char *q = p;
        while (q + 1 < end && !(q[0] == ',' && q[1] == ' ')) q++;
        if (q + 1 >= end) q = end;
        const char *space = NULL;
        for (const char *r = p; r < q; r++)
            if (*r == ' ') space = r;
        if (o->n < MAX_OPT_PARAMS) {
            int tl = space ? (int)(space - p) : (int)(q - p);
            const char *nm = space ? space + 1 : p;
            snprintf(o->type[o->n], sizeof o->type[0], "%.*s", tl, p);
            snprintf(o->name[o->n], sizeof o->name[0], "%.*s", (int)(q - nm), nm);
            o->max += space != NULL;
            o->n++;
        }
        if (q >= end) break;
        p = q + 2;
    }
    bool alone = o->n == 1 || (o->n > 1 && !strcmp(o->type[1], "*")); /* the one positional parameter */
    if (alone && (!strcmp(o->type[0], "tuple of ints") || !strcmp(o->type[0], "tuple of SymInts"))) o->max = 1 << 20;
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

/* invalid_arguments.cpp's match: the tp_name is the type's (float takes an int, as its MultiType) */
static bool named_match(const char *type, nn_object *o)
{
    const char *got = got_name(o);
    if (!strcmp(type, "float") && !strcmp(got, "int")) return true;
    return !strcmp(type, got);
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

static bool is_str(nn_object *o) { return nn_is_str(o); }
static bool is_tensor(nn_object *o) { return nn_is_tensor(o); }

static bool int_list(const char *type) { return !strcmp(type, "tuple of ints") || !strcmp(type, "tuple of SymInts"); }

/* whether the parser takes o for a parameter of this type: a name where a dim may be one */
static bool takes_name(const char *type, nn_object *o)
{
    return (!strcmp(type, "name") && nn_is_str(o)) ||
           (!strcmp(type, "tuple of names") && (nn_is_str(o) || all_items(o, is_str)));
}

/* whether python_arg_parser takes o for a parameter of this type (its checks, roughly) */
static bool parser_takes(const char *type, nn_object *o)
{
    if (!strcmp(type, "Tensor")) return nn_is_tensor(o);
    if (!strcmp(type, "int")) return is_int(o);
    if (!strcmp(type, "bool")) return nn_is_bool(o);
    if (!strcmp(type, "float")) return nn_is_float(o) || is_int(o);
    if (!strcmp(type, "Number"))
        return nn_is_int(o) || nn_is_float(o) || (nn_is_tensor(o) && NN_TENSOR(o)->ndim == 0);
    if (int_list(type)) return is_int(o) || all_items(o, is_int);
    if (!strcmp(type, "tuple of Tensors")) return all_items(o, is_tensor);
    return takes_name(type, o) || named_match(type, o);
}

/* ------------------------------------------------------------ messages */

/* invalid_arguments.cpp's _argDesc: "(int, str)", "(foo=int, )" */
static void arg_desc(sbuf *b, nn_object *args, size_t skip, nn_object *kwargs)
{
    size_t nargs = nn_tuple_len(args) - skip, pos = 0;
    nn_object *k, *v;
    repl_sb_puts(b, "(");
    for (size_t i = 0; i < nargs; i++) repl_sb_printf(b, "%s%s", i ? ", " : "", got_name(nn_tuple_get(args, skip + i)));
    if (nargs && kwargs && nn_dict_len(kwargs)) repl_sb_puts(b, ", ");
    while (kwargs && nn_dict_next(kwargs, &pos, &k, &v))
        repl_sb_printf(b, "%s=%s, ", nn_is_str(k) ? nn_str_cstr(k) : "?", got_name(v));
    if (nargs && kwargs && nn_dict_len(kwargs)) b->len -= 2, b->buf[b->len] = 0;
    repl_sb_puts(b, ")");
}

/* _formattedArgDesc: each argument against the option's, a mismatch between !s; a keyword is
   shown under the name of the option's argument at its position (1.13 names a list "list", not
   its items as later versions) */
static void formatted_desc(sbuf *b, const option *o, nn_object *args, size_t skip, nn_object *kwargs)
{
    size_t nargs = nn_tuple_len(args) - skip, nkw = kwargs ? nn_dict_len(kwargs) : 0;
    repl_sb_puts(b, "(");
    for (size_t i = 0; i < nargs + nkw; i++) {
        nn_object *a = NULL;
        if (i < nargs) a = nn_tuple_get(args, skip + i);
        else if (i < (size_t)o->n) a = nn_dict_get_str(kwargs, o->name[i]);
        bool ok = a && i < (size_t)o->n && named_match(o->type[i], a);
        repl_sb_puts(b, ok ? "" : "!");
        if (i >= nargs) repl_sb_printf(b, "%s=", i < (size_t)o->n ? o->name[i] : "?");
        if (a) repl_sb_puts(b, got_name(a));
        repl_sb_puts(b, ok ? ", " : "!, ");
    }
    if (nargs) b->len -= 2, b->buf[b->len] = 0;
    repl_sb_puts(b, ")");
}

/* _tryMatchKwargs: the keywords that are none of the option's last as many arguments' names */
static bool unmatched_keywords(sbuf *b, const option *o, nn_object *kwargs)
{
    size_t pos = 0, nkw = kwargs ? nn_dict_len(kwargs) : 0;
    int from = o->n - (int)nkw;
    nn_object *k, *v;
    bool any = false;
    while (kwargs && nn_dict_next(kwargs, &pos, &k, &v)) {
        const char *key = nn_is_str(k) ? nn_str_cstr(k) : "";
        bool found = false;
        for (int j = from < 0 ? 0 : from; j < o->n && !found; j++) found = !strcmp(o->name[j], key);
        if (!found) repl_sb_printf(b, "%s%s", any ? ", " : "", key);
        any |= !found;
    }
    return any;
}

/* invalid_arguments.cpp's format_invalid_args:
   `NAME() received an invalid combination of arguments - got (...), but expected one of: ...`
   (`... but expected (option)` for one option) */
static void invalid_combination(const char *name, const char *options, nn_object *args, size_t skip,
                                nn_object *kwargs)
{
    size_t nargs = nn_tuple_len(args) - skip, nkw = kwargs ? nn_dict_len(kwargs) : 0;
    sbuf b = {0};
    repl_sb_printf(&b, "%s() received an invalid combination of arguments - ", name);
    option o;
    if (!strchr(options, '\n')) {
        parse_option(options, strlen(options), &o);
        sbuf kw = {0};
        if (nkw && unmatched_keywords(&kw, &o, kwargs)) {
            char *bad = repl_sb_finish(&kw);
            repl_sb_printf(&b, "got unrecognized keyword arguments: %s", bad ? bad : "");
            nn_free(bad);
        } else {
            nn_free(repl_sb_finish(&kw));
            repl_sb_puts(&b, "got ");
            if ((size_t)o.n == nargs + nkw) formatted_desc(&b, &o, args, skip, kwargs);
            else arg_desc(&b, args, skip, kwargs);
            repl_sb_printf(&b, ", but expected %.*s", o.len, o.text);
        }
    } else {
        repl_sb_puts(&b, "got ");
        arg_desc(&b, args, skip, kwargs);
        repl_sb_puts(&b, ", but expected one of:\n");
        for (const char *p = options; *p;) {
            const char *e = strchr(p, '\n');
            size_t len = e ? (size_t)(e - p) : strlen(p);
            parse_option(p, len, &o);
            repl_sb_printf(&b, " * %.*s\n", o.len, o.text);
            if ((size_t)o.n == nargs + nkw) {
                sbuf kw = {0};
                if (nkw && unmatched_keywords(&kw, &o, kwargs)) {
                    char *bad = repl_sb_finish(&kw);
                    repl_sb_printf(&b, "      didn't match because some of the keywords were incorrect: %s\n", bad ? bad : "");
                    nn_free(bad);
                } else {
                    nn_free(repl_sb_finish(&kw));
                    repl_sb_puts(&b, "      didn't match because some of the arguments have invalid types: ");
                    formatted_desc(&b, &o, args, skip, kwargs);
                    repl_sb_puts(&b, "\n");
                }
            }
            p = e ? e + 1 : p + len;
        }
    }
    char *msg = repl_sb_finish(&b);
    if (msg) nn_error_set(NN_ERR_TYPE, "%s", msg);
    nn_free(msg);
}

/* how many of the options the parser finds plausible for nargs arguments (min_args <= nargs <=
   max_args); *one, the last of them */
static int plausible(const char *options, size_t nargs, option *one)
{
    int count = 0;
    for (const char *p = options; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        option o;
        parse_option(p, len, &o);
        if ((size_t)o.min <= nargs && nargs <= (size_t)o.max) *one = o, count++;
        p = e ? e + 1 : p + len;
    }
    return count;
}

/* the one plausible option's own wrong-type error in its words: `argument 'shape' (position 1) must
   be tuple of SymInts, not str`; an int list given as ints: `argument 'size' must be tuple of
   SymInts, but found element of type str at pos 2` */
static void own_error(const char *name, const option *o, const char *msg, size_t nargs, size_t skip)
{
    int pos = 0;
    char got[64];
    const char *at = strstr(msg, "(position ");
    const char *not = at ? strstr(at, ", not ") : NULL;
    if (!at || !not || sscanf(at, "(position %d)", &pos) != 1 || (pos -= (int)skip) < 1) return;
    snprintf(got, sizeof got, "%s", not + 6);
    bool ints = !strcmp(o->type[0], "tuple of ints") || !strcmp(o->type[0], "tuple of SymInts");
    if (ints && nargs > 1)
        nn_error_set(NN_ERR_TYPE, "%s(): argument '%s' must be %s, but found element of type %s at pos %d", name,
                     o->name[0], o->type[0], got, pos);
    else if (pos <= o->n && strcmp(o->type[pos - 1], "*"))
        nn_error_set(NN_ERR_TYPE, "%s(): argument '%s' (position %d) must be %s, not %s", name, o->name[pos - 1], pos,
                     o->type[pos - 1], got);
}

/* the argument given for parameter i of o: positional, else by keyword */
static nn_object *given(const option *o, int i, nn_object *args, size_t skip, nn_object *kwargs)
{
    if ((size_t)i < nn_tuple_len(args) - skip) return nn_tuple_get(args, skip + (size_t)i);
    return kwargs ? nn_dict_get_str(kwargs, o->name[i]) : NULL;
}

/* whether the parser takes every argument for o: each in its place, each keyword one of o's names */
static bool option_takes(const option *o, nn_object *args, size_t skip, nn_object *kwargs)
{
    size_t nargs = nn_tuple_len(args) - skip, pos = 0, named = 0;
    if (nargs > (size_t)o->n) return false;
    for (size_t i = 0; i < nargs; i++)
        if (!strcmp(o->type[i], "*") || !parser_takes(o->type[i], nn_tuple_get(args, skip + i))) return false;
    nn_object *k, *v;
    while (kwargs && nn_dict_next(kwargs, &pos, &k, &v)) {
        for (int j = (int)nargs; j < o->n; j++)
            if (nn_is_str(k) && !strcmp(o->name[j], nn_str_cstr(k))) {
                if (!parser_takes(o->type[j], v)) return false;
                named++;
            }
    }
    return named == (kwargs ? nn_dict_len(kwargs) : 0);
}

/* a str where a plausible option takes a dim name: the parser takes it, and the op finds no such
   name on the tensor (nnscope's tensors have none): `Name 'a' not found in Tensor[None, None].`
   With two names the second is reported (ATen's dimname_to_position calls, as arguments of one
   call, run last to first under GCC) */
static bool name_not_found(const char *name, const char *options, nn_object *self, nn_object *args, size_t skip,
                           nn_object *kwargs, size_t nargs)
{
    nn_object *t = self ? self : nn_tuple_len(args) > skip ? nn_tuple_get(args, skip) : NULL;
    if (!t || !nn_is_tensor(t)) return false;
    for (const char *p = options; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        option o;
        parse_option(p, len, &o);
        p = e ? e + 1 : p + len;
        if (!((size_t)o.min <= nargs && nargs <= (size_t)o.max) || !option_takes(&o, args, skip, kwargs)) continue;
        nn_object *a = NULL;
        for (int i = 0; i < o.n; i++) {
            nn_object *g = given(&o, i, args, skip, kwargs);
            if (g && takes_name(o.type[i], g)) a = g;
        }
        if (!a) continue;
        if (!strcmp(name, "sort") || !strcmp(name, "argsort")) {
            nn_error_set(NN_ERR_RUNTIME, "%s: You passed a dimname (string) to this op in place of a dimension "
                         "index but it does not yet support this behavior. Please pass a dimension index to "
                         "work around this.", name);
            return true;
        }
        const char *dim = nn_is_str(a) ? nn_str_cstr(a) : nn_str_cstr(nn_is_list(a) ? nn_list_get(a, 0) : nn_tuple_get(a, 0));
        sbuf b = {0};
        for (int d = 0; d < NN_TENSOR(t)->ndim; d++) repl_sb_printf(&b, "%sNone", d ? ", " : "");
        char *nones = repl_sb_finish(&b);
        nn_error_set(NN_ERR_RUNTIME, "Name '%s' not found in Tensor[%s].", dim, nones ? nones : "");
        nn_free(nones);
        return true;
    }
    return false;
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

void repl_torch_arg_error(const char *name, nn_object *self, nn_object *args, size_t skip, nn_object *kwargs)
{
    bool method = self != NULL;
    const char *options;
    if (nn_error_current() != NN_ERR_TYPE || (listed(name, method, &options) && !options)) return; /* CPython's words */
    const char *msg = nn_error_message();
    size_t n = strlen(name);
    if (strncmp(msg, name, n) || msg[n] != '(' || msg[n + 1] != ')') return; /* not this call's own parse */
    bool missing = !strncmp(msg + n, "() missing ", 11) && strstr(msg, "required positional argument");
    /* (an int list's bad element, a SymInt's overflow: raised while parsing, as they are) */
    bool wrong_type = !strncmp(msg + n, "(): argument '", 14) && !strstr(msg, ", but found element of type");
    bool parse = missing || wrong_type || !strncmp(msg + n, "() takes ", 9) ||
                 !strncmp(msg + n, "() got an unexpected keyword argument", 37) ||
                 !strncmp(msg + n, "() got multiple values for argument", 35);
    if (!parse) return;
    size_t nargs = nn_tuple_len(args) - skip + (kwargs ? nn_dict_len(kwargs) : 0);
    if (options && name_not_found(name, options, self, args, skip, kwargs, nargs)) return;
    option one;
    if (options && plausible(options, nargs, &one) == 1) { /* that option's own error */
        if (wrong_type) {
            char *copy = nn_strdup(msg);
            if (copy) own_error(name, &one, copy, nargs, skip);
            nn_free(copy);
            return;
        }
        options = NULL;
    }
    if (options) {
        invalid_combination(name, options, args, skip, kwargs);
        return;
    }
    char *copy = nn_strdup(msg);
    if (!copy) return;
    if (missing) missing_words(copy, name);
    else if (skip) without_self(copy, name);
    nn_free(copy);
}
