/*
 * mod_future.c — the module __future__: its feature names, so that
 * `from __future__ import annotations` (and the older features, all mandatory
 * in 3.11) imports. Each feature is a tuple (optional release, mandatory
 * release, compiler flag) as _Feature's fields. The parser refuses an unknown
 * feature with CPython's SyntaxError ("future feature X is not defined").
 */
#include <string.h>

#include "stdlib_int.h"

/* name, the optional and mandatory releases (major, minor), CPython's flag */
static const struct {
    const char *name;
    int opt_major, opt_minor, mand_major, mand_minor;
    int64_t flag;
} features[] = {
    {"nested_scopes", 2, 1, 2, 2, 0x0010},
    {"generators", 2, 2, 2, 3, 0},
    {"division", 2, 2, 3, 0, 0x20000},
    {"absolute_import", 2, 5, 3, 0, 0x40000},
    {"with_statement", 2, 5, 2, 6, 0x80000},
    {"print_function", 2, 6, 3, 0, 0x100000},
    {"unicode_literals", 2, 6, 3, 0, 0x200000},
    {"barry_as_FLUFL", 3, 1, 4, 0, 0x400000},
    {"generator_stop", 3, 5, 3, 7, 0x800000},
    {"annotations", 3, 7, 3, 11, 0x1000000},
};

bool repl_future_feature_known(const char *name)
{
    for (size_t i = 0; i < sizeof features / sizeof *features; i++)
        if (strcmp(features[i].name, name) == 0) return true;
    return false;
}

static nn_object *release(int major, int minor)
{
    nn_object *t = nn_tuple_new(2);
    if (!t) return NULL;
    nn_object *a = nn_int_new(major), *b = nn_int_new(minor);
    if (!a || !b) {
        NN_RELEASE(a);
        NN_RELEASE(b);
        NN_RELEASE(t);
        return NULL;
    }
    nn_tuple_set(t, 0, a);
    nn_tuple_set(t, 1, b);
    return t;
}

nn_object *repl_mod_future(void)
{
    nn_object *m = repl_module_new("__future__");
    for (size_t i = 0; m && i < sizeof features / sizeof *features; i++) {
        nn_object *t = nn_tuple_new(3), *opt = release(features[i].opt_major, features[i].opt_minor),
                  *mand = release(features[i].mand_major, features[i].mand_minor), *flag = nn_int_new(features[i].flag);
        if (!t || !opt || !mand || !flag) {
            NN_RELEASE(t);
            NN_RELEASE(opt);
            NN_RELEASE(mand);
            NN_RELEASE(flag);
            NN_SET(m, NULL);
            break;
        }
        nn_tuple_set(t, 0, opt);
        nn_tuple_set(t, 1, mand);
        nn_tuple_set(t, 2, flag);
        if (repl_mod_set(m, features[i].name, t) < 0) NN_SET(m, NULL);
    }
    return m;
}
