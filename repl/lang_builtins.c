/*
 * lang_builtins.c — built-in names of the language that live outside builtins.c:
 * the NotImplemented singleton (a binary or in-place special method returns it
 * to decline, and Python then tries the reflected or the plain operator), and
 * hex(), oct(), bin().
 */
#include <stdio.h>
#include <string.h>

#include "eval_int.h"
#include "bigint.h"

static char *notimpl_repr(nn_object *self)
{
    (void)self;
    return nn_strdup("NotImplemented");
}

static const nn_type notimpl_type = {.name = "NotImplementedType", .repr = notimpl_repr};
static nn_object notimpl_object = {.refcount = 1 << 30, .type = &notimpl_type};

bool repl_is_not_implemented(const nn_object *o) { return o == &notimpl_object; }

/* vars(obj): obj.__dict__; vars(): locals() */
nn_object *repl_bi_vars(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)ud;
    if ((kwargs && nn_dict_len(kwargs)) || nn_tuple_len(args) > 1) {
        repl_raise_exc(EXC_TypeError, "vars expected at most 1 argument, got %zu", nn_tuple_len(args));
        return NULL;
    }
    if (nn_tuple_len(args) == 0) return repl_locals_dict();
    nn_object *d = repl_get_attr(nn_tuple_get(args, 0), "__dict__");
    if (!d && nn_error_current() == NN_ERR_ATTRIBUTE) {
        nn_object *e = repl_take_exception();
        NN_RELEASE(e);
        repl_raise_exc(EXC_TypeError, "vars() argument must have __dict__ attribute");
    }
    return d;
}

/* __import__(name, globals=None, locals=None, fromlist=(), level=0), as the import statement uses it:
   the module of the dotted name when fromlist is non-empty, else its top-level package */
nn_object *repl_bi_import(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)ud;
    static const char *const names[5] = {"name", "globals", "locals", "fromlist", "level"};
    nn_object *a[5] = {0};
    size_t n = nn_tuple_len(args);
    if (n > 5) {
        repl_raise_exc(EXC_TypeError, "__import__() takes at most 5 arguments (%zu given)", n);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) a[i] = nn_tuple_get(args, i);
    size_t pos = 0;
    nn_object *k, *v;
    while (kwargs && nn_dict_next(kwargs, &pos, &k, &v)) {
        int found = -1;
        for (int i = 0; i < 5; i++)
            if (!strcmp(nn_str_cstr(k), names[i])) found = i;
        if (found < 0 || a[found]) {
            repl_raise_exc(EXC_TypeError, found < 0 ? "'%s' is an invalid keyword argument for __import__()"
                                                    : "argument for __import__() given by name ('%s') and position",
                           nn_str_cstr(k));
            return NULL;
        }
        a[found] = v;
    }
    if (!a[0]) {
        repl_raise_exc(EXC_TypeError, "__import__() missing required argument 'name' (pos 1)");
        return NULL;
    }
    if (!nn_is_str(a[0])) {
        repl_raise_exc(EXC_TypeError, "module name must be a string");
        return NULL;
    }
    if (a[4] && nn_is_int(a[4]) && nn_int_value(a[4]) < 0) {
        repl_raise_exc(EXC_ValueError, "level must be >= 0");
        return NULL;
    }
    if (a[4] && nn_is_int(a[4]) && nn_int_value(a[4]) > 0) { /* a script has no parent package */
        if (!a[1] || nn_is_none(a[1])) {
            nn_object *key = nn_str_new("'__name__' not in globals"), *t = key ? nn_tuple_pack(1, key) : NULL;
            nn_object *e = t ? repl_exc_new(EXC_KeyError, t) : NULL;
            if (e) repl_raise_object(e);
            NN_RELEASE(e);
            NN_RELEASE(t);
            NN_RELEASE(key);
        } else {
            repl_raise_exc(EXC_ImportError, "attempted relative import with no known parent package");
        }
        return NULL;
    }
    const char *name = nn_str_cstr(a[0]);
    if (!*name) {
        repl_raise_exc(EXC_ValueError, "Empty module name");
        return NULL;
    }
    nn_object *m = repl_import_by_name(name);
    int from = a[3] ? repl_truth(a[3]) : 0;
    if (!m || from < 0 || from || !strchr(name, '.')) {
        if (from < 0) NN_SET(m, NULL);
        return m;
    }
    NN_RELEASE(m);
    char top[256];
    size_t len = strcspn(name, ".");
    snprintf(top, sizeof top, "%.*s", (int)(len < sizeof top ? len : sizeof top - 1), name);
    return repl_import_by_name(top);
}

/* delattr(obj, name): del obj.name */
nn_object *repl_bi_delattr(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)ud;
    if ((kwargs && nn_dict_len(kwargs)) || nn_tuple_len(args) != 2) {
        repl_raise_exc(EXC_TypeError, "delattr expected 2 arguments, got %zu", nn_tuple_len(args));
        return NULL;
    }
    nn_object *name = nn_tuple_get(args, 1);
    if (!nn_is_str(name)) {
        repl_raise_exc(EXC_TypeError, "attribute name must be string, not '%s'", repl_value_type_name(name));
        return NULL;
    }
    return repl_del_attr(nn_tuple_get(args, 0), nn_str_cstr(name)) < 0 ? NULL : nn_retain(nn_none());
}

/* hex(x), oct(x), bin(x) of an int: format(x, spec) with spec "#x", "#o", "#b" */
static nn_object *int_base(const char *name, const char *spec, nn_object *args, nn_object *kwargs)
{
    if ((kwargs && nn_dict_len(kwargs))) {
        repl_raise_exc(EXC_TypeError, "%s() takes no keyword arguments", name);
        return NULL;
    }
    if (nn_tuple_len(args) != 1) {
        repl_raise_exc(EXC_TypeError, "%s() takes exactly one argument (%zu given)", name, nn_tuple_len(args));
        return NULL;
    }
    nn_object *x = nn_tuple_get(args, 0);
    if (!nn_is_int(x) && !nn_is_bool(x) && !repl_is_bigint(x)) {
        nn_object *i = repl_call_method(x, "__index__", NULL, 0);
        if (!i || !nn_is_int(i)) {
            NN_RELEASE(i);
            NN_RELEASE(repl_take_exception());
            repl_raise_exc(EXC_TypeError, "'%s' object cannot be interpreted as an integer", repl_value_type_name(x));
            return NULL;
        }
        nn_object *r = repl_format_value(i, spec);
        NN_RELEASE(i);
        return r;
    }
    return repl_format_value(x, spec);
}

nn_object *repl_bi_hex(void *ud, nn_object *args, nn_object *kwargs) { return int_base("hex", "#x", args, kwargs); }
nn_object *repl_bi_oct(void *ud, nn_object *args, nn_object *kwargs) { return int_base("oct", "#o", args, kwargs); }
nn_object *repl_bi_bin(void *ud, nn_object *args, nn_object *kwargs) { return int_base("bin", "#b", args, kwargs); }

int repl_lang_builtins_init(repl_interp *in)
{
    if (repl_nmap_set(&in->builtins, "NotImplemented", &notimpl_object) < 0) return -1;
    return repl_generators_init(in);
}
