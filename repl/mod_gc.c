/*
 * mod_gc.c — the module gc over core's cycle collector (core/gc.c): collect,
 * enable/disable/isenabled, get_count, get_threshold/set_threshold,
 * get_objects and is_tracked, with CPython's messages. What is tracked
 * differs from CPython in detail (CPython leaves tuples of atoms and dicts of
 * atoms untracked; nnscope tracks every non-empty tuple and every dict), so
 * is_tracked and the counts of collect() agree with CPython's for lists,
 * instances and dicts in cycles, not everywhere. Not here: callbacks,
 * garbage, DEBUG_* flags, get_referrers/get_referents, freeze.
 */
#include <string.h>

#include "stdlib_int.h"

/* An optional generation argument (positional or generation=) into *gen. 0 or -1. */
static int generation_arg(const char *fname, nn_object *args, nn_object *kwargs, int *gen)
{
    if (kwargs && nn_dict_len(kwargs)) {
        size_t pos = 0;
        nn_object *k, *v;
        while (nn_dict_next(kwargs, &pos, &k, &v))
            if (strcmp(nn_str_cstr(k), "generation") != 0)
                return repl_raise_exc(EXC_TypeError, "'%s' is an invalid keyword argument for %s()", nn_str_cstr(k),
                                      fname);
    }
    size_t n = args ? nn_tuple_len(args) : 0;
    nn_object *kw = repl_mod_kwarg(kwargs, "generation");
    if (n > 1) return repl_raise_exc(EXC_TypeError, "%s() takes at most 1 argument (%zu given)", fname, n);
    if (n == 1 && kw)
        return repl_raise_exc(EXC_TypeError, "argument for %s() given by name ('generation') and position (1)", fname);
    nn_object *g = n ? nn_tuple_get(args, 0) : kw;
    if (!g || nn_is_none(g)) return 0;
    int64_t v;
    if (repl_mod_int(g, &v) < 0) return -1;
    if (v < 0 || v > 2) *gen = v < 0 ? -2 : 3;
    else *gen = (int)v;
    return 0;
}

static nn_object *g_collect(void *ud, nn_object *args, nn_object *kwargs)
{
    int gen = 2;
    if (generation_arg("collect", args, kwargs, &gen) < 0) return NULL;
    if (gen < 0 || gen > 2) {
        repl_raise_exc(EXC_ValueError, "invalid generation");
        return NULL;
    }
    long found = nn_gc_collect(gen);
    return found < 0 ? NULL : nn_int_new(found);
}

static nn_object *g_switch(const char *fname, nn_object *args, nn_object *kwargs, bool on)
{
    if (repl_mod_nargs(fname, args, kwargs, 0, 0) < 0) return NULL;
    nn_gc_enable(on);
    return nn_retain(nn_none());
}

static nn_object *g_enable(void *ud, nn_object *args, nn_object *kwargs)
{
    return g_switch("gc.enable", args, kwargs, true);
}

static nn_object *g_disable(void *ud, nn_object *args, nn_object *kwargs)
{
    return g_switch("gc.disable", args, kwargs, false);
}

static nn_object *g_isenabled(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("gc.isenabled", args, kwargs, 0, 0) < 0) return NULL;
    return nn_bool_new(nn_gc_is_enabled());
}

static nn_object *triple(const long v[3])
{
    nn_object *t = nn_tuple_new(3);
    for (int i = 0; t && i < 3; i++) {
        nn_object *x = nn_int_new(v[i]);
        if (!x) NN_SET(t, NULL);
        else nn_tuple_set(t, (size_t)i, x);
    }
    return t;
}

static nn_object *g_get_count(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("gc.get_count", args, kwargs, 0, 0) < 0) return NULL;
    long c[3];
    nn_gc_get_count(c);
    return triple(c);
}

static nn_object *g_get_threshold(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("gc.get_threshold", args, kwargs, 0, 0) < 0) return NULL;
    long t[3];
    nn_gc_get_threshold(t);
    return triple(t);
}

static nn_object *g_set_threshold(void *ud, nn_object *args, nn_object *kwargs)
{
    if (kwargs && nn_dict_len(kwargs)) {
        repl_raise_exc(EXC_TypeError, "set_threshold() takes no keyword arguments");
        return NULL;
    }
    size_t n = nn_tuple_len(args);
    if (n < 1 || n > 3) {
        repl_raise_exc(EXC_TypeError, "set_threshold() takes at %s %d argument%s (%zu given)", n < 1 ? "least" : "most",
                       n < 1 ? 1 : 3, n < 1 ? "" : "s", n);
        return NULL;
    }
    long t[3];
    nn_gc_get_threshold(t);
    for (size_t i = 0; i < n; i++) {
        int64_t v;
        if (repl_mod_int(nn_tuple_get(args, i), &v) < 0) return NULL;
        if (v > INT32_MAX || v < INT32_MIN) {
            repl_raise_exc(EXC_OverflowError, "signed integer is %s than maximum", v > 0 ? "greater" : "less");
            return NULL;
        }
        t[i] = (long)v;
    }
    nn_gc_set_threshold(t);
    return nn_retain(nn_none());
}

static nn_object *g_get_objects(void *ud, nn_object *args, nn_object *kwargs)
{
    int gen = -1;
    if (generation_arg("get_objects", args, kwargs, &gen) < 0) return NULL;
    if (gen == -2) {
        repl_raise_exc(EXC_ValueError, "generation parameter cannot be negative");
        return NULL;
    }
    if (gen == 3) {
        repl_raise_exc(EXC_ValueError,
                       "generation parameter must be less than the number of available generations (3)");
        return NULL;
    }
    return nn_gc_get_objects(gen);
}

static nn_object *g_is_tracked(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("gc.is_tracked", args, kwargs, 1, 1) < 0) return NULL;
    return nn_bool_new(nn_gc_is_tracked(nn_tuple_get(args, 0)));
}

static const repl_mod_fn gc_functions[] = {
    {"collect", g_collect,
     "collect(generation=2)\nRun a full collection (or of generation and the younger ones); the number of "
     "unreachable objects found."},
    {"enable", g_enable, "enable()\nEnable automatic garbage collection."},
    {"disable", g_disable, "disable()\nDisable automatic garbage collection."},
    {"isenabled", g_isenabled, "isenabled()\nReturns true if automatic garbage collection is enabled."},
    {"get_count", g_get_count, "get_count()\nReturn a three-tuple of the current collection counts."},
    {"get_threshold", g_get_threshold, "get_threshold()\nReturn the current collection thresholds."},
    {"set_threshold", g_set_threshold,
     "set_threshold(threshold0, [threshold1, threshold2])\nSet the collection thresholds (threshold0 0 "
     "disables collection)."},
    {"get_objects", g_get_objects,
     "get_objects(generation=None)\nA list of the objects tracked by the collector (of one generation)."},
    {"is_tracked", g_is_tracked, "is_tracked(obj, /)\nReturns true if the object is tracked by the garbage collector."},
};

nn_object *repl_mod_gc(void)
{
    nn_object *m = repl_module_new("gc");
    if (m && repl_mod_add_fns(m, gc_functions, sizeof gc_functions / sizeof *gc_functions) < 0) NN_SET(m, NULL);
    return m;
}
