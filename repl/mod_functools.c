/*
 * mod_functools.c — the module functools: reduce, partial (a class: p.func,
 * p.args, p.keywords, nested partials flattened), lru_cache and cache (a
 * wrapper class with cache_info() and cache_clear(), least recently used
 * entries evicted past maxsize, keys made of the positional and keyword
 * arguments as CPython's), wraps and update_wrapper; cached_property,
 * total_ordering, cmp_to_key and singledispatch come from repl/lib/_functools_more.py.
 * Not here: typed=True keys that tell 1 from 1.0, lru_cache on methods (no
 * descriptor binding), singledispatchmethod.
 */
#include <stdio.h>
#include <string.h>

#include "stdlib_int.h"

#define NARGS(args) ((int)nn_tuple_len(args))
#define ARG(args, i) nn_tuple_get(args, i)

static nn_object *attr(nn_object *inst, const char *name) /* borrowed or NULL */
{
    if (repl_instance_dict_sync((instance_obj *)inst) < 0) nn_error_clear();
    return repl_nmap_get(&((instance_obj *)inst)->attrs, name);
}

static int set_attr_owned(nn_object *inst, const char *name, nn_object *v)
{
    if (!v) return -1;
    int rc = repl_instance_put((instance_obj *)inst, name, v);
    NN_RELEASE(v);
    return rc;
}

static bool is_callable(nn_object *o)
{
    const nn_type *t = o->type;
    if (t == &repl_function_type || t == &repl_method_type || t == &repl_class_type || t == &nn_cfunction_type || t->call)
        return true;
    return t == &repl_instance_type && repl_class_lookup(((instance_obj *)o)->cls, "__call__");
}

/* ------------------------------------------------------------ reduce */

static nn_object *f_reduce(void *ud, nn_object *args, nn_object *kwargs)
{
    int n = repl_mod_nargs("reduce", args, kwargs, 2, 3);
    if (n < 0) return NULL;
    nn_object *fn = ARG(args, 0), *acc = n == 3 ? nn_retain(ARG(args, 2)) : NULL, *item;
    nn_object *it = repl_get_iter(ARG(args, 1));
    if (!it) {
        NN_RELEASE(acc);
        return NULL;
    }
    int rc;
    while ((rc = repl_iter_next(it, &item)) == 1) {
        if (!acc) {
            acc = item;
            continue;
        }
        nn_object *pair[2] = {acc, item};
        nn_object *r = repl_call_object(fn, pair, 2, NULL);
        NN_RELEASE(item);
        NN_SET(acc, r);
        if (!acc) {
            rc = -1;
            break;
        }
    }
    NN_RELEASE(it);
    if (rc < 0) {
        NN_RELEASE(acc);
        return NULL;
    }
    if (!acc) repl_raise_exc(EXC_TypeError, "reduce() of empty iterable with no initial value");
    return acc;
}

/* ------------------------------------------------------------ partial */

/* partial(func, /, *args, **keywords) */
static nn_object *partial_new(void *cls, nn_object *args, nn_object *kwargs)
{
    if (NARGS(args) < 1) {
        repl_raise_exc(EXC_TypeError, "type 'partial' takes at least one argument");
        return NULL;
    }
    nn_object *fn = ARG(args, 0);
    if (!is_callable(fn)) {
        repl_raise_exc(EXC_TypeError, "the first argument must be callable");
        return NULL;
    }
    nn_object *pre = NULL, *kw = NULL;
    if (fn->type == &repl_instance_type && ((instance_obj *)fn)->cls == cls) { /* partial(partial(f, 1), 2) */
        pre = attr(fn, "args");
        kw = attr(fn, "keywords");
        fn = attr(fn, "func");
    }
    size_t np = pre ? nn_tuple_len(pre) : 0, na = nn_tuple_len(args) - 1;
    nn_object *all = nn_tuple_new(np + na);
    nn_object *keywords = kw ? nn_dict_copy(kw) : nn_dict_new();
    nn_object *self = all && keywords ? repl_instance_new(cls) : NULL;
    for (size_t i = 0; self && i < np; i++) nn_tuple_set(all, i, nn_retain(nn_tuple_get(pre, i)));
    for (size_t i = 0; self && i < na; i++) nn_tuple_set(all, np + i, nn_retain(ARG(args, i + 1)));
    size_t pos = 0;
    nn_object *k, *v;
    while (self && kwargs && nn_dict_next(kwargs, &pos, &k, &v))
        if (nn_dict_set(keywords, k, v) < 0) NN_SET(self, NULL);
    if (self && (set_attr_owned(self, "func", nn_retain(fn)) < 0 || set_attr_owned(self, "args", nn_retain(all)) < 0 ||
                 set_attr_owned(self, "keywords", nn_retain(keywords)) < 0))
        NN_SET(self, NULL);
    NN_RELEASE(all);
    NN_RELEASE(keywords);
    return self;
}

static nn_object *partial_call(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *self = ARG(args, 0), *pre = attr(self, "args"), *kw = attr(self, "keywords"), *fn = attr(self, "func");
    if (!pre || !kw || !fn || !nn_is_dict(kw) || pre->type != &nn_tuple_type) {
        repl_raise_exc(EXC_TypeError, "partial object is missing func, args or keywords");
        return NULL;
    }
    size_t np = nn_tuple_len(pre), na = nn_tuple_len(args) - 1;
    nn_object **all = nn_malloc((np + na + 1) * sizeof *all);
    nn_object *merged = all ? nn_dict_copy(kw) : NULL;
    if (!merged) {
        nn_free(all);
        return NULL;
    }
    for (size_t i = 0; i < np; i++) all[i] = nn_tuple_get(pre, i);
    for (size_t i = 0; i < na; i++) all[np + i] = ARG(args, i + 1);
    size_t pos = 0;
    nn_object *k, *v, *r = NULL;
    int rc = 0;
    while (kwargs && rc == 0 && nn_dict_next(kwargs, &pos, &k, &v)) rc = nn_dict_set(merged, k, v);
    if (rc == 0) r = repl_call_object(fn, all, (int)(np + na), nn_dict_len(merged) ? merged : NULL);
    NN_RELEASE(merged);
    nn_free(all);
    return r;
}

/* functools.partial(<function f at 0x...>, 1, b=2) */
static nn_object *partial_repr(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *self = ARG(args, 0), *pre = attr(self, "args"), *kw = attr(self, "keywords"), *fn = attr(self, "func");
    sbuf b = {0};
    repl_sb_puts(&b, "functools.partial(");
    if (fn) repl_sb_take(&b, repl_obj_repr(fn));
    for (size_t i = 0; pre && pre->type == &nn_tuple_type && i < nn_tuple_len(pre); i++) {
        repl_sb_puts(&b, ", ");
        repl_sb_take(&b, repl_obj_repr(nn_tuple_get(pre, i)));
    }
    size_t pos = 0;
    nn_object *k, *v;
    while (kw && nn_is_dict(kw) && nn_dict_next(kw, &pos, &k, &v)) {
        repl_sb_printf(&b, ", %s=", nn_is_str(k) ? nn_str_cstr(k) : "?");
        repl_sb_take(&b, repl_obj_repr(v));
    }
    repl_sb_puts(&b, ")");
    char *s = repl_sb_finish(&b);
    nn_object *r = s ? nn_str_new(s) : NULL;
    nn_free(s);
    return r;
}

static const repl_mod_fn partial_methods[] = {
    {"__call__", partial_call, "__call__(*args, **keywords)\nCall func with the stored arguments, then these."},
    {"__repr__", partial_repr, "__repr__()\nfunctools.partial(func, *args, **keywords)."},
};

/* ------------------------------------------------------------ update_wrapper, wraps */

/* wrapper.__module__, __name__, __qualname__, __doc__ from wrapped (those it has
   and the wrapper can take), then wrapper.__wrapped__ = wrapped. */
static int update_wrapper(nn_object *wrapper, nn_object *wrapped)
{
    static const char *const names[] = {"__module__", "__name__", "__qualname__", "__doc__"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        nn_object *v = repl_get_attr(wrapped, names[i]);
        if (v && repl_set_attr(wrapper, names[i], v) == 0) {
            NN_RELEASE(v);
            continue;
        }
        NN_RELEASE(v);
        nn_object *e = repl_take_exception(); /* CPython skips what is missing */
        NN_RELEASE(e);
    }
    if (repl_set_attr(wrapper, "__wrapped__", wrapped) < 0) {
        nn_object *e = repl_take_exception();
        NN_RELEASE(e);
    }
    return 0;
}

static nn_object *f_update_wrapper(void *ud, nn_object *args, nn_object *kwargs)
{
    static const char *const names[] = {"wrapper", "wrapped", NULL};
    if (repl_mod_kwargs_only("update_wrapper", kwargs, names) < 0) return NULL;
    nn_object *w = NARGS(args) > 0 ? ARG(args, 0) : repl_mod_kwarg(kwargs, "wrapper");
    nn_object *d = NARGS(args) > 1 ? ARG(args, 1) : repl_mod_kwarg(kwargs, "wrapped");
    if (!w || !d) {
        repl_raise_exc(EXC_TypeError, "update_wrapper() missing 1 required positional argument: '%s'", w ? "wrapped" : "wrapper");
        return NULL;
    }
    update_wrapper(w, d);
    return nn_retain(w);
}

static nn_object *wraps_apply(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("wraps", args, kwargs, 1, 1) < 0) return NULL;
    update_wrapper(ARG(args, 0), ud);
    return nn_retain(ARG(args, 0));
}

static void release_ud(void *ud) { NN_RELEASE(ud); }

static nn_object *f_wraps(void *ud, nn_object *args, nn_object *kwargs)
{
    if (NARGS(args) != 1) {
        repl_raise_exc(EXC_TypeError, "wraps() missing 1 required positional argument: 'wrapped'");
        return NULL;
    }
    nn_object *w = nn_retain(ARG(args, 0));
    nn_object *f = nn_cfunction_new("update_wrapper", wraps_apply, w, release_ud);
    if (!f) NN_RELEASE(w);
    return f;
}

/* ------------------------------------------------------------ lru_cache */

/* The class of lru_cache's wrappers and of cache_info()'s result, per interpreter
   (the module holds them: see repl_mod_functools). */
static nn_object *module_class(const char *name)
{
    nn_object *m = repl_nmap_get(&repl_current->stdlib_modules, "functools");
    return m ? repl_nmap_get(&((module_obj *)m)->dict, name) : NULL;
}

/* The cache key of a call: the arguments, then a marker and the keyword pairs. */
static nn_object *make_key(nn_object *args, nn_object *kwargs)
{
    size_t na = nn_tuple_len(args) - 1, nk = kwargs ? nn_dict_len(kwargs) : 0;
    nn_object *key = nn_tuple_new(na + (nk ? 1 + 2 * nk : 0));
    if (!key) return NULL;
    for (size_t i = 0; i < na; i++) nn_tuple_set(key, i, nn_retain(ARG(args, i + 1)));
    if (nk) {
        nn_tuple_set(key, na, nn_str_new("\x01kwargs"));
        size_t pos = 0, j = na + 1;
        nn_object *k, *v;
        while (nn_dict_next(kwargs, &pos, &k, &v)) {
            nn_tuple_set(key, j++, nn_retain(k));
            nn_tuple_set(key, j++, nn_retain(v));
        }
    }
    return key;
}

static int64_t int_attr(nn_object *self, const char *name)
{
    nn_object *v = attr(self, name);
    return v && nn_is_int(v) ? nn_int_value(v) : 0;
}

static nn_object *lru_call(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *self = ARG(args, 0), *fn = attr(self, "__wrapped__"), *cache = attr(self, "_cache");
    nn_object *maxsize = attr(self, "_maxsize");
    if (!fn || !cache || !nn_is_dict(cache)) {
        repl_raise_exc(EXC_TypeError, "lru_cache wrapper is missing its function");
        return NULL;
    }
    size_t n = nn_tuple_len(args) - 1;
    nn_object **pos = nn_malloc((n + 1) * sizeof *pos);
    if (!pos) return NULL;
    for (size_t i = 0; i < n; i++) pos[i] = ARG(args, i + 1);
    nn_object *key = make_key(args, kwargs), *r = NULL;
    nn_object *hit = key ? nn_dict_get(cache, key) : NULL;
    if (key && hit) {
        r = nn_retain(hit);
        if (nn_dict_move_to_end(cache, key, true) < 0 ||
            set_attr_owned(self, "_hits", nn_int_new(int_attr(self, "_hits") + 1)) < 0)
            NN_SET(r, NULL);
    } else if (key && !nn_error_current()) {
        r = repl_call_object(fn, pos, (int)n, kwargs && nn_dict_len(kwargs) ? kwargs : NULL);
        int64_t max = maxsize && nn_is_int(maxsize) ? nn_int_value(maxsize) : -1;
        if (r && set_attr_owned(self, "_misses", nn_int_new(int_attr(self, "_misses") + 1)) < 0) NN_SET(r, NULL);
        if (r && max != 0 && nn_dict_set(cache, key, r) < 0) NN_SET(r, NULL);
        while (r && max > 0 && (int64_t)nn_dict_len(cache) > max) { /* the least recently used first */
            size_t p = 0;
            nn_object *k, *v;
            nn_dict_next(cache, &p, &k, &v);
            if (nn_dict_del(cache, k) < 0) NN_SET(r, NULL);
        }
    }
    NN_RELEASE(key);
    nn_free(pos);
    return r;
}

static nn_object *lru_cache_info(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("cache_info", args, kwargs, 1, 1) < 0) return NULL;
    nn_object *self = ARG(args, 0), *cache = attr(self, "_cache"), *maxsize = attr(self, "_maxsize");
    nn_object *cls = module_class("_CacheInfo");
    nn_object *info = cls ? repl_instance_new((class_obj *)cls) : NULL;
    if (info && (set_attr_owned(info, "hits", nn_int_new(int_attr(self, "_hits"))) < 0 ||
                 set_attr_owned(info, "misses", nn_int_new(int_attr(self, "_misses"))) < 0 ||
                 set_attr_owned(info, "maxsize", nn_retain(maxsize ? maxsize : nn_none())) < 0 ||
                 set_attr_owned(info, "currsize", nn_int_new(cache ? (int64_t)nn_dict_len(cache) : 0)) < 0))
        NN_SET(info, NULL);
    return info;
}

static nn_object *lru_cache_clear(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("cache_clear", args, kwargs, 1, 1) < 0) return NULL;
    nn_object *self = ARG(args, 0), *cache = attr(self, "_cache");
    if (cache && nn_is_dict(cache)) nn_dict_clear(cache);
    if (set_attr_owned(self, "_hits", nn_int_new(0)) < 0 || set_attr_owned(self, "_misses", nn_int_new(0)) < 0)
        return NULL;
    return nn_retain(nn_none());
}

static const repl_mod_fn lru_methods[] = {
    {"__call__", lru_call, "__call__(*args, **kwargs)\nThe cached result of the wrapped function for these arguments."},
    {"cache_info", lru_cache_info, "cache_info()\nReport cache statistics: CacheInfo(hits, misses, maxsize, currsize)."},
    {"cache_clear", lru_cache_clear, "cache_clear()\nClear the cache and cache statistics."},
};

/* CacheInfo(hits=1, misses=2, maxsize=128, currsize=2) */
static nn_object *info_repr(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *self = ARG(args, 0);
    static const char *const names[] = {"hits", "misses", "maxsize", "currsize"};
    sbuf b = {0};
    repl_sb_puts(&b, "CacheInfo(");
    for (size_t i = 0; i < 4; i++) {
        nn_object *v = attr(self, names[i]);
        repl_sb_printf(&b, "%s%s=", i ? ", " : "", names[i]);
        repl_sb_take(&b, v ? repl_obj_repr(v) : nn_strdup("None"));
    }
    repl_sb_puts(&b, ")");
    char *s = repl_sb_finish(&b);
    nn_object *r = s ? nn_str_new(s) : NULL;
    nn_free(s);
    return r;
}

static const repl_mod_fn info_methods[] = {
    {"__repr__", info_repr, "__repr__()\nCacheInfo(hits=..., misses=..., maxsize=..., currsize=...)."},
};

/* The wrapper of fn caching up to maxsize (None: unbounded) results. */
static nn_object *lru_wrap(nn_object *fn, nn_object *maxsize)
{
    nn_object *cls = module_class("_lru_cache_wrapper");
    nn_object *w = cls ? repl_instance_new((class_obj *)cls) : NULL;
    if (w && (set_attr_owned(w, "_cache", nn_ordered_dict_new()) < 0 ||
              set_attr_owned(w, "_maxsize", nn_retain(maxsize)) < 0 || set_attr_owned(w, "_hits", nn_int_new(0)) < 0 ||
              set_attr_owned(w, "_misses", nn_int_new(0)) < 0))
        NN_SET(w, NULL);
    if (w) update_wrapper(w, fn);
    return w;
}

static nn_object *lru_decorate(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("decorating_function", args, kwargs, 1, 1) < 0) return NULL;
    return lru_wrap(ARG(args, 0), ud);
}

/* lru_cache(maxsize=128, typed=False) or lru_cache(user_function) */
static nn_object *f_lru_cache(void *ud, nn_object *args, nn_object *kwargs)
{
    static const char *const names[] = {"maxsize", "typed", NULL};
    if (repl_mod_kwargs_only("lru_cache", kwargs, names) < 0) return NULL;
    if (NARGS(args) > 2) {
        repl_raise_exc(EXC_TypeError, "lru_cache() takes from 0 to 2 positional arguments but %d were given", NARGS(args));
        return NULL;
    }
    nn_object *m = NARGS(args) > 0 ? ARG(args, 0) : repl_mod_kwarg(kwargs, "maxsize");
    if (m && !nn_is_int(m) && !nn_is_none(m)) {
        if (is_callable(m)) {
            nn_object *dflt = nn_int_new(128), *w = dflt ? lru_wrap(m, dflt) : NULL;
            NN_RELEASE(dflt);
            return w;
        }
        repl_raise_exc(EXC_TypeError, "Expected first argument to be an integer, a callable, or None");
        return NULL;
    }
    nn_object *size = m ? (nn_is_int(m) && nn_int_value(m) < 0 ? nn_int_new(0) : nn_retain(m)) : nn_int_new(128);
    if (!size) return NULL;
    nn_object *f = nn_cfunction_new("decorating_function", lru_decorate, size, release_ud);
    if (!f) NN_RELEASE(size);
    return f;
}

/* cache(user_function): lru_cache(maxsize=None) */
static nn_object *f_cache(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("cache", args, kwargs, 1, 1) < 0) return NULL;
    return lru_wrap(ARG(args, 0), nn_none());
}

static const repl_mod_fn functools_functions[] = {
    {"reduce", f_reduce, "reduce(function, iterable[, initial], /)\nApply a function of two arguments cumulatively to the items of an iterable, from left to right."},
    {"wraps", f_wraps, "wraps(wrapped)\nDecorator factory to apply update_wrapper() to a wrapper function."},
    {"update_wrapper", f_update_wrapper, "update_wrapper(wrapper, wrapped)\nUpdate a wrapper function to look like the wrapped function."},
    {"lru_cache", f_lru_cache, "lru_cache(maxsize=128, typed=False)\nLeast-recently-used cache decorator."},
    {"cache", f_cache, "cache(user_function, /)\nSimple lightweight unbounded cache.  Sometimes called \"memoize\"."},
};

nn_object *repl_mod_functools(void)
{
    nn_object *m = repl_module_new("functools");
    class_obj *partial = repl_mod_class("functools", "partial", partial_new, partial_methods, 2);
    class_obj *lru = repl_mod_class("functools", "_lru_cache_wrapper", NULL, lru_methods, 3);
    class_obj *info = repl_mod_class("functools", "CacheInfo", NULL, info_methods, 1);
    int rc = m && partial && lru && info ? 0 : -1;
    if (rc == 0) rc = repl_mod_add_fns(m, functools_functions, sizeof functools_functions / sizeof *functools_functions);
    if (rc == 0) rc = repl_set_attr(m, "partial", &partial->ob);
    if (rc == 0) rc = repl_set_attr(m, "_lru_cache_wrapper", &lru->ob);
    if (rc == 0) rc = repl_set_attr(m, "_CacheInfo", &info->ob);
    /* cached_property, total_ordering, cmp_to_key, singledispatch: written in the
       language (repl/lib/_functools_more.py) */
    nn_object *more = rc == 0 ? repl_stdlib_module("_functools_more") : NULL;
    static const char *const more_names[] = {"cached_property", "total_ordering", "cmp_to_key", "singledispatch"};
    for (size_t i = 0; more && rc == 0 && i < sizeof more_names / sizeof *more_names; i++) {
        nn_object *v = repl_get_attr(more, more_names[i]);
        rc = v ? repl_set_attr(m, more_names[i], v) : -1;
        NN_RELEASE(v);
    }
    if (rc == 0 && !more) rc = -1;
    NN_RELEASE(more);
    NN_RELEASE(partial);
    NN_RELEASE(lru);
    NN_RELEASE(info);
    if (rc < 0) NN_SET(m, NULL);
    return m;
}
