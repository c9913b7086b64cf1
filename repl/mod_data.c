/*
 * mod_data.c — torch.utils.data as PyTorch 1.13 writes it, single-process:
 * Dataset, IterableDataset, TensorDataset, Subset, ConcatDataset, random_split,
 * the samplers (Sampler, SequentialSampler, RandomSampler, SubsetRandomSampler,
 * BatchSampler), default_collate and DataLoader (batch_size, shuffle, sampler,
 * batch_sampler, drop_last, collate_fn, generator, len()). They are classes of
 * the language whose state is the instance's attributes under PyTorch's names,
 * so a script's own Dataset (or Sampler) derives from them as in PyTorch.
 * The random draws are PyTorch's, in its order: each iter(loader) takes a base
 * seed (64 bits) from the default generator, then a shuffling RandomSampler
 * without a generator takes a seed from it (64 bits, modulo 2^63) and shuffles
 * with randperm on a generator seeded so; the same seed gives PyTorch's batches.
 * Not here: worker processes (num_workers is accepted; the data are loaded in
 * this process, in the same order), pin_memory, namedtuples in collate,
 * ChainDataset. numpy arrays collate as torch.as_tensor of each, as PyTorch's.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bind_int.h"
#include "stdlib_int.h"

#define MODNAME "torch.utils.data"
#define ARGS(n) nn_object *a[n] = {0}
#define SELF(args) (nn_tuple_len(args) ? nn_tuple_get(args, 0) : NULL)

static bool is_inst(nn_object *o) { return o && o->type == &repl_instance_type; }

static nn_object *none_or_fail(int rc) { return rc ? NULL : nn_retain(nn_none()); }

/* the class of this module named name (borrowed), looked up in the module */
static class_obj *module_class(const char *name)
{
    nn_object *m = repl_stdlib_module(MODNAME);
    if (!m) return NULL;
    nn_object *c = repl_get_attr(m, name);
    NN_RELEASE(m);
    if (!c) return NULL;
    NN_RELEASE(c); /* the module holds it */
    return c->type == &repl_class_type ? (class_obj *)c : NULL;
}

/* isinstance(o, torch.utils.data.<name>) */
static bool is_a(nn_object *o, const char *name)
{
    class_obj *c = module_class(name);
    if (!c) {
        nn_object *e = repl_take_exception();
        NN_RELEASE(e);
        nn_error_clear();
        return false;
    }
    return is_inst(o) && repl_class_is_subclass(((instance_obj *)o)->cls, c);
}

/* A new instance of this module's class name, its __init__ run with args[n]. */
static nn_object *make(const char *name, nn_object *const *args, int n, nn_object *kwargs)
{
    class_obj *c = module_class(name);
    return c ? repl_call_object(&c->ob, args, n, kwargs) : NULL;
}

static int length_of(nn_object *o, int64_t *n) { return repl_length(o, n); }

/* 64 random bits of g, as torch.empty((), dtype=torch.int64).random_(generator=g) takes them */
static int64_t random_int64(nn_generator *g) { return (int64_t)(nn_generator_random64(g) % ((uint64_t)1 << 63)); }

/* The int64 values of a 1-d tensor as a new list of ints. */
static nn_object *int_list(nn_tensor *t, int64_t start, int64_t count)
{
    nn_object *l = nn_list_new(0);
    nn_tensor *hold = NULL; /* the host-access contract: t's elements, contiguous, on the host */
    const int64_t *d = t && l ? nn_host_read(t, &hold) : NULL;
    if (t && l && !d) NN_SET(l, NULL);
    for (int64_t i = start; l && d && i < start + count; i++) {
        nn_object *v = nn_int_new(d[i]);
        if (!v || nn_list_append(l, v)) NN_SET(l, NULL);
        NN_RELEASE(v);
    }
    NN_RELEASE(hold);
    return l;
}

/* ------------------------------------------------------------ lazy iterators */

/* An iterator whose next is a C function over up to three objects and a position. */
typedef struct data_iter {
    repl_lazy base;
    nn_object *a, *b, *c; /* owned or NULL */
    int64_t pos, n;
    void (*on_free)(struct data_iter *);
    /* a RandomSampler's: its own generator (owned; NULL when given one, in c), how many
       indices it has drawn of how many, the population, and whether with replacement */
    nn_generator *own_gen;
    int64_t drawn, total, pop;
    bool repl;
} data_iter;

static void data_iter_dealloc(nn_object *self)
{
    data_iter *it = (data_iter *)self;
    NN_RELEASE(it->a);
    NN_RELEASE(it->b);
    NN_RELEASE(it->c);
    nn_free(it->own_gen);
    nn_free(it);
}

static char *data_iter_repr(nn_object *self)
{
    char buf[96];
    snprintf(buf, sizeof buf, "<torch.utils.data.dataloader._SingleProcessDataLoaderIter object at %p>", (void *)self);
    return nn_strdup(buf);
}

static const nn_type data_iter_type = {
    .name = "_SingleProcessDataLoaderIter", .dealloc = data_iter_dealloc, .repr = data_iter_repr, .base = &repl_lazy_base,
    .getattr = repl_lazy_getattr};

static nn_object *data_iter_new(int (*next)(repl_lazy *, nn_object **), nn_object *a, nn_object *b, nn_object *c,
                                int64_t n)
{
    data_iter *it = nn_calloc(1, sizeof *it);
    if (!it) return NULL;
    nn_object_init(&it->base.ob, &data_iter_type);
    it->base.next = next;
    it->a = a ? nn_retain(a) : NULL;
    it->b = b ? nn_retain(b) : NULL;
    it->c = c ? nn_retain(c) : NULL;
    it->n = n;
    return &it->base.ob;
}

/* ------------------------------------------------------------ datasets */

static nn_object *dataset_getitem(void *ud, nn_object *args, nn_object *kwargs)
{
    repl_raise_exc(EXC_NotImplementedError, "%s", ""); /* 1.13 raises it bare */
    return NULL;
}

static nn_object *dataset_add(void *ud, nn_object *args, nn_object *kwargs)
{
    if (nn_tuple_len(args) != 2) {
        repl_raise_exc(EXC_TypeError, "__add__() takes exactly one argument");
        return NULL;
    }
    nn_object *pair = nn_list_new(0);
    if (!pair || nn_list_append(pair, nn_tuple_get(args, 0)) || nn_list_append(pair, nn_tuple_get(args, 1))) {
        NN_RELEASE(pair);
        return NULL;
    }
    nn_object *r = make("ConcatDataset", &pair, 1, NULL);
    NN_RELEASE(pair);
    return r;
}

static nn_object *tensordataset_init(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_check_self("__init__", args)) return NULL;
    if (kwargs && nn_dict_len(kwargs)) {
        repl_raise_exc(EXC_TypeError, "TensorDataset.__init__() got an unexpected keyword argument");
        return NULL;
    }
    size_t n = nn_tuple_len(args) - 1;
    nn_object *t = nn_tuple_new(n);
    if (!t) return NULL;
    int64_t first = -1;
    for (size_t i = 0; i < n; i++) {
        nn_object *x = nn_tuple_get(args, i + 1);
        if (!nn_is_tensor(x)) {
            NN_RELEASE(t);
            repl_raise_exc(EXC_AttributeError, "'%s' object has no attribute 'size'", repl_value_type_name(x));
            return NULL;
        }
        nn_tensor *tt = NN_TENSOR(x);
        if (tt->ndim == 0) {
            NN_RELEASE(t);
            repl_raise_exc(EXC_IndexError, "Dimension specified as 0 but tensor has no dimensions");
            return NULL;
        }
        if (i == 0) first = tt->sizes[0];
        else if (tt->sizes[0] != first) {
            NN_RELEASE(t);
            repl_raise_exc(EXC_AssertionError, "Size mismatch between tensors");
            return NULL;
        }
        nn_tuple_set(t, i, nn_retain(x));
    }
    return none_or_fail(repl_mod_set(SELF(args), "tensors", t));
}

static nn_object *tensordataset_getitem(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_check_self("__getitem__", args) || repl_mod_nargs("__getitem__", args, kwargs, 2, 2) < 0) return NULL;
    nn_object *ts = repl_mod_attr(SELF(args), "tensors");
    if (!ts) return NULL;
    nn_object *items = repl_to_list(ts);
    if (!items) return NULL;
    size_t n = nn_list_len(items);
    nn_object *r = nn_tuple_new(n);
    for (size_t i = 0; r && i < n; i++) {
        nn_object *v = repl_get_item(nn_list_get(items, i), nn_tuple_get(args, 1));
        if (!v) NN_SET(r, NULL);
        else nn_tuple_set(r, i, v);
    }
    NN_RELEASE(items);
    return r;
}

static nn_object *tensordataset_len(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_check_self("__len__", args)) return NULL;
    nn_object *ts = repl_mod_attr(SELF(args), "tensors");
    if (!ts) return NULL;
    nn_object *zero = nn_int_new(0), *t0 = zero ? repl_get_item(ts, zero) : NULL;
    NN_RELEASE(zero);
    if (!t0) return NULL;
    nn_object *r = nn_is_tensor(t0) && NN_TENSOR(t0)->ndim ? nn_int_new(NN_TENSOR(t0)->sizes[0]) : NULL;
    if (!r && !nn_error_current()) repl_raise_exc(EXC_TypeError, "TensorDataset holds no tensors");
    NN_RELEASE(t0);
    return r;
}

static nn_object *subset_init(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_object *self = SELF(args);
    if (repl_mod_check_self("__init__", args) || repl_parse_args_from("Subset.__init__", "dataset, indices", args, 1, kwargs, a))
        return NULL;
    return none_or_fail(repl_set_attr(self, "dataset", a[0]) || repl_set_attr(self, "indices", a[1]));
}

static nn_object *subset_getitem(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_check_self("__getitem__", args) || repl_mod_nargs("__getitem__", args, kwargs, 2, 2) < 0) return NULL;
    nn_object *self = SELF(args), *ds = repl_mod_attr(self, "dataset"), *ind = ds ? repl_mod_attr(self, "indices") : NULL;
    if (!ind) return NULL;
    nn_object *idx = nn_tuple_get(args, 1);
    if (nn_is_list(idx)) { /* self.dataset[[self.indices[i] for i in idx]] */
        nn_object *l = nn_list_new(0);
        for (size_t i = 0; l && i < nn_list_len(idx); i++) {
            nn_object *v = repl_get_item(ind, nn_list_get(idx, i));
            if (!v || nn_list_append(l, v)) NN_SET(l, NULL);
            NN_RELEASE(v);
        }
        nn_object *r = l ? repl_get_item(ds, l) : NULL;
        NN_RELEASE(l);
        return r;
    }
    nn_object *j = repl_get_item(ind, idx), *r = j ? repl_get_item(ds, j) : NULL;
    NN_RELEASE(j);
    return r;
}

static nn_object *len_of_attr(nn_object *args, const char *name)
{
    if (repl_mod_check_self("__len__", args)) return NULL;
    nn_object *v = repl_mod_attr(SELF(args), name);
    int64_t n;
    return v && !length_of(v, &n) ? nn_int_new(n) : NULL;
}

static nn_object *subset_len(void *ud, nn_object *args, nn_object *kwargs) { return len_of_attr(args, "indices"); }

static nn_object *concat_init(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    nn_object *self = SELF(args);
    if (repl_mod_check_self("__init__", args) || repl_parse_args_from("ConcatDataset.__init__", "datasets", args, 1, kwargs, a))
        return NULL;
    nn_object *ds = repl_to_list(a[0]), *cum = ds ? nn_list_new(0) : NULL;
    int rc = cum ? 0 : -1;
    if (!rc && !nn_list_len(ds)) rc = repl_raise_exc(EXC_AssertionError, "datasets should not be an empty iterable");
    int64_t total = 0;
    for (size_t i = 0; !rc && i < nn_list_len(ds); i++) {
        nn_object *d = nn_list_get(ds, i);
        int64_t n;
        if (is_a(d, "IterableDataset")) rc = repl_raise_exc(EXC_AssertionError, "ConcatDataset does not support IterableDataset");
        else if (!(rc = length_of(d, &n))) {
            total += n;
            nn_object *v = nn_int_new(total);
            rc = v ? nn_list_append(cum, v) : -1;
            NN_RELEASE(v);
        }
    }
    if (!rc) rc = repl_set_attr(self, "datasets", ds) || repl_set_attr(self, "cumulative_sizes", cum);
    NN_RELEASE(ds);
    NN_RELEASE(cum);
    return none_or_fail(rc);
}

static nn_object *concat_len(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_check_self("__len__", args)) return NULL;
    nn_object *cum = repl_mod_attr(SELF(args), "cumulative_sizes");
    if (!cum) return NULL;
    return nn_is_list(cum) && nn_list_len(cum) ? nn_retain(nn_list_get(cum, nn_list_len(cum) - 1)) : nn_int_new(0);
}

static nn_object *concat_getitem(void *ud, nn_object *args, nn_object *kwargs)
{
    int64_t idx;
    if (repl_mod_check_self("__getitem__", args) || repl_mod_nargs("__getitem__", args, kwargs, 2, 2) < 0 ||
        repl_mod_int(nn_tuple_get(args, 1), &idx) < 0)
        return NULL;
    nn_object *self = SELF(args), *cum = repl_mod_attr(self, "cumulative_sizes"), *ds = cum ? repl_mod_attr(self, "datasets") : NULL;
    if (!ds || !nn_is_list(cum) || !nn_is_list(ds)) return NULL;
    size_t nd = nn_list_len(cum);
    int64_t len = nd ? nn_int_value(nn_list_get(cum, nd - 1)) : 0;
    if (idx < 0) {
        if (-idx > len) {
            repl_raise_exc(EXC_ValueError, "absolute value of index should not exceed dataset length");
            return NULL;
        }
        idx += len;
    }
    size_t k = 0; /* bisect_right(cumulative_sizes, idx) */
    while (k < nd && nn_int_value(nn_list_get(cum, k)) <= idx) k++;
    if (k >= nd || k >= nn_list_len(ds)) {
        repl_raise_exc(EXC_IndexError, "list index out of range");
        return NULL;
    }
    int64_t sample = k == 0 ? idx : idx - nn_int_value(nn_list_get(cum, k - 1));
    nn_object *s = nn_int_new(sample), *r = s ? repl_get_item(nn_list_get(ds, k), s) : NULL;
    NN_RELEASE(s);
    return r;
}

/* random_split(dataset, lengths, generator=default_generator) */
static nn_object *f_random_split(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    if (repl_parse_args("random_split", "dataset, lengths, generator=", args, kwargs, a)) return NULL;
    int64_t n;
    nn_object *lens = repl_to_list(a[1]);
    if (!lens || length_of(a[0], &n)) {
        NN_RELEASE(lens);
        return NULL;
    }
    size_t k = nn_list_len(lens);
    int64_t *sizes = nn_calloc(k ? k : 1, sizeof *sizes);
    double fsum = 0;
    int rc = sizes ? 0 : -1;
    for (size_t i = 0; !rc && i < k; i++) {
        double f;
        rc = repl_mod_real(nn_list_get(lens, i), &f);
        fsum += f;
    }
    /* math.isclose(sum(lengths), 1) and sum(lengths) <= 1: fractions */
    bool fractions = !rc && fabs(fsum - 1) <= 1e-09 * fmax(fabs(fsum), 1.0) && fsum <= 1;
    int64_t total = 0;
    for (size_t i = 0; !rc && i < k; i++) {
        nn_object *v = nn_list_get(lens, i);
        if (fractions) {
            double f = nn_float_value(v);
            if (f < 0 || f > 1) rc = repl_raise_exc(EXC_ValueError, "Fraction at index %zu is not between 0 and 1", i);
            else sizes[i] = (int64_t)floor((double)n * f);
        } else rc = repl_mod_int(v, &sizes[i]);
        if (!rc) total += sizes[i];
    }
    if (!rc && fractions)
        for (int64_t i = 0; i < n - total; i++) sizes[i % (int64_t)k]++;
    if (!rc && fractions) total = n;
    if (!rc && total != n) rc = repl_raise_exc(EXC_ValueError, "Sum of input lengths does not equal the length of the input dataset!");
    nn_generator *gen = NULL;
    if (!rc) rc = repl_arg_generator("random_split", a[2], &gen);
    nn_tensor *perm = NULL;
    if (!rc) {
        nn_generator *prev = nn_generator_use(gen ? gen : nn_current_generator());
        perm = nn_randperm(total, NN_INT64);
        nn_generator_use(prev);
    }
    nn_object *out = perm ? nn_list_new(0) : NULL;
    int64_t off = 0;
    for (size_t i = 0; out && i < k; i++) {
        nn_object *ind = int_list(perm, off, sizes[i]);
        off += sizes[i];
        nn_object *pair[2] = {a[0], ind};
        nn_object *s = ind ? make("Subset", pair, 2, NULL) : NULL;
        NN_RELEASE(ind);
        if (!s || nn_list_append(out, s)) NN_SET(out, NULL);
        NN_RELEASE(s);
    }
    NN_RELEASE(perm);
    nn_free(sizes);
    NN_RELEASE(lens);
    return out;
}

/* ------------------------------------------------------------ samplers */

static nn_object *sampler_init(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_mod_check_self("__init__", args) || repl_parse_args_from("Sampler.__init__", "data_source=", args, 1, kwargs, a))
        return NULL;
    return nn_retain(nn_none());
}

static nn_object *sequential_init(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_mod_check_self("__init__", args) ||
        repl_parse_args_from("SequentialSampler.__init__", "data_source", args, 1, kwargs, a))
        return NULL;
    return none_or_fail(repl_set_attr(SELF(args), "data_source", a[0]));
}

static int count_next(repl_lazy *self, nn_object **out)
{
    data_iter *it = (data_iter *)self;
    if (it->pos >= it->n) return 0;
    *out = nn_int_new(it->pos++);
    return *out ? 1 : -1;
}

static nn_object *sequential_iter(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_check_self("__iter__", args)) return NULL;
    nn_object *src = repl_mod_attr(SELF(args), "data_source");
    int64_t n;
    if (!src || length_of(src, &n)) return NULL;
    return data_iter_new(count_next, NULL, NULL, NULL, n);
}

static nn_object *sequential_len(void *ud, nn_object *args, nn_object *kwargs) { return len_of_attr(args, "data_source"); }

static nn_object *random_init(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_object *self = SELF(args);
    if (repl_mod_check_self("__init__", args) ||
        repl_parse_args_from("RandomSampler.__init__", "data_source, replacement=, num_samples=, generator=", args, 1,
                             kwargs, a))
        return NULL;
    bool repl = false;
    if (a[1] && !nn_is_bool(a[1])) {
        char *r = repl_obj_repr(a[1]);
        repl_raise_exc(EXC_TypeError, "replacement should be a boolean value, but got replacement=%s", r ? r : "?");
        nn_free(r);
        return NULL;
    }
    if (a[1]) repl = nn_int_value(a[1]);
    if (repl_set_attr(self, "data_source", a[0]) || repl_mod_set(self, "replacement", nn_bool_new(repl)) ||
        repl_set_attr(self, "_num_samples", a[2] ? a[2] : nn_none()) ||
        repl_set_attr(self, "generator", a[3] ? a[3] : nn_none()))
        return NULL;
    int64_t n;
    nn_object *ns = a[2] && !nn_is_none(a[2]) ? a[2] : NULL;
    if (!ns && length_of(a[0], &n)) return NULL;
    if (ns ? !nn_is_int(ns) || nn_is_bool(ns) || nn_int_value(ns) <= 0 : n <= 0) {
        char buf[32];
        snprintf(buf, sizeof buf, "%lld", (long long)(ns ? (nn_is_int(ns) ? nn_int_value(ns) : 0) : n));
        repl_raise_exc(EXC_ValueError, "num_samples should be a positive integer value, but got num_samples=%s", buf);
        return NULL;
    }
    return nn_retain(nn_none());
}

static int random_num_samples(nn_object *self, int64_t *out)
{
    nn_object *ns = repl_mod_attr(self, "_num_samples");
    if (!ns) return -1;
    if (!nn_is_none(ns)) return repl_mod_int(ns, out);
    nn_object *src = repl_mod_attr(self, "data_source");
    return src ? length_of(src, out) : -1;
}

/* Appends the first take values of the 1-d int64 tensor t (taken) to list. 0 or -1. */
static int append_ints(nn_object *list, nn_tensor *t, int64_t take)
{
    nn_object *l = t ? int_list(t, 0, take) : NULL;
    int rc = l ? 0 : -1;
    for (size_t i = 0; !rc && i < nn_list_len(l); i++) rc = nn_list_append(list, nn_list_get(l, i));
    NN_RELEASE(l);
    NN_RELEASE(t);
    return rc;
}

/* The RandomSampler's indices, drawn chunk by chunk as PyTorch's generator
   function yields them (num_samples=int(1e10) with replacement is an endless
   stream, karpathy/makemore): on the first next(), without a generator, a seed
   from the default generator seeds the sampler's own; with one, that generator
   draws each chunk when it is reached. Permutations of n (the last cut to
   num % n), or torch.randint(high=n) in chunks of 32 with replacement. */
static int random_start(data_iter *it)
{
    nn_object *sampler = it->a, *gen = repl_mod_attr(sampler, "generator"), *src = gen ? repl_mod_attr(sampler, "data_source") : NULL;
    nn_object *rep = src ? repl_mod_attr(sampler, "replacement") : NULL;
    int64_t n, num;
    if (!rep || length_of(src, &n) || random_num_samples(sampler, &num)) return -1;
    if (n == 0 && repl_truth(rep) != 1) return repl_raise_exc(EXC_ZeroDivisionError, "integer division or modulo by zero");
    if (nn_is_none(gen)) {
        nn_generator *g = nn_default_generator();
        uint64_t seed = (uint64_t)random_int64(g);
        if (!(it->own_gen = nn_malloc(sizeof *it->own_gen))) return -1;
        *it->own_gen = *g;
        nn_generator_seed(it->own_gen, seed);
    } else {
        nn_generator *given = NULL;
        if (repl_arg_generator("RandomSampler", gen, &given)) return -1;
        it->c = nn_retain(gen);
    }
    it->total = num;
    it->pop = n;
    it->repl = repl_truth(rep) == 1;
    return 0;
}

/* The next chunk of indices into it->b (0), or 1 when all are drawn. */
static int random_chunk(data_iter *it)
{
    if (it->drawn >= it->total) return 1;
    nn_generator *g = it->own_gen;
    if (!g && repl_arg_generator("RandomSampler", it->c, &g)) return -1;
    int64_t left = it->total - it->drawn, take = it->repl ? (left < 32 ? left : 32) : (left < it->pop ? left : it->pop);
    nn_object *chunk = nn_list_new(0);
    nn_generator *prev = nn_generator_use(g);
    int rc = chunk ? append_ints(chunk, it->repl ? nn_randint(0, it->pop, 1, &take, NN_INT64) : nn_randperm(it->pop, NN_INT64), take)
                   : -1;
    nn_generator_use(prev);
    if (rc) {
        NN_RELEASE(chunk);
        return -1;
    }
    NN_RELEASE(it->b);
    it->b = chunk;
    it->pos = 0;
    it->n = take;
    it->drawn += take;
    return 0;
}

static int random_next(repl_lazy *self, nn_object **out)
{
    data_iter *it = (data_iter *)self;
    if (!it->own_gen && !it->c && random_start(it)) return -1; /* the first next() */
    while (it->pos >= it->n) {
        int rc = random_chunk(it);
        if (rc) return rc < 0 ? -1 : 0;
    }
    *out = nn_retain(nn_list_get(it->b, (size_t)it->pos++));
    return 1;
}

static nn_object *random_iter(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_check_self("__iter__", args)) return NULL;
    return data_iter_new(random_next, SELF(args), NULL, NULL, 0);
}

static nn_object *random_len(void *ud, nn_object *args, nn_object *kwargs)
{
    int64_t n;
    if (repl_mod_check_self("__len__", args) || random_num_samples(SELF(args), &n)) return NULL;
    return nn_int_new(n);
}

static nn_object *subset_random_init(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_object *self = SELF(args);
    if (repl_mod_check_self("__init__", args) ||
        repl_parse_args_from("SubsetRandomSampler.__init__", "indices, generator=", args, 1, kwargs, a))
        return NULL;
    return none_or_fail(repl_set_attr(self, "indices", a[0]) || repl_set_attr(self, "generator", a[1] ? a[1] : nn_none()));
}

/* for i in torch.randperm(len(self.indices), generator=self.generator): yield self.indices[i] */
static int subset_random_next(repl_lazy *self, nn_object **out)
{
    data_iter *it = (data_iter *)self;
    if (!it->b) {
        nn_object *ind = repl_mod_attr(it->a, "indices"), *gen = ind ? repl_mod_attr(it->a, "generator") : NULL;
        nn_generator *given = NULL;
        int64_t n;
        if (!gen || length_of(ind, &n) || repl_arg_generator("SubsetRandomSampler", gen, &given)) return -1;
        nn_generator *prev = nn_generator_use(given ? given : nn_current_generator());
        nn_tensor *p = nn_randperm(n, NN_INT64);
        nn_generator_use(prev);
        it->b = p ? int_list(p, 0, n) : NULL;
        NN_RELEASE(p);
        if (!it->b) return -1;
        it->c = nn_retain(ind);
        it->n = n;
    }
    if (it->pos >= it->n) return 0;
    *out = repl_get_item(it->c, nn_list_get(it->b, (size_t)it->pos++));
    return *out ? 1 : -1;
}

static nn_object *subset_random_iter(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_check_self("__iter__", args)) return NULL;
    return data_iter_new(subset_random_next, SELF(args), NULL, NULL, 0);
}

static int positive_batch(nn_object *bs, nn_object *dl)
{
    if (!nn_is_int(bs) || nn_is_bool(bs) || nn_int_value(bs) <= 0) {
        char *r = repl_obj_repr(bs);
        repl_raise_exc(EXC_ValueError, "batch_size should be a positive integer value, but got batch_size=%s", r ? r : "?");
        nn_free(r);
        return -1;
    }
    if (!nn_is_bool(dl)) {
        char *r = repl_obj_repr(dl);
        repl_raise_exc(EXC_ValueError, "drop_last should be a boolean value, but got drop_last=%s", r ? r : "?");
        nn_free(r);
        return -1;
    }
    return 0;
}

static nn_object *batch_init(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_object *self = SELF(args);
    if (repl_mod_check_self("__init__", args) ||
        repl_parse_args_from("BatchSampler.__init__", "sampler, batch_size, drop_last", args, 1, kwargs, a) ||
        positive_batch(a[1], a[2]))
        return NULL;
    return none_or_fail(repl_set_attr(self, "sampler", a[0]) || repl_set_attr(self, "batch_size", a[1]) ||
                        repl_set_attr(self, "drop_last", a[2]));
}

/* the batches: lists of batch_size indices from iter(sampler), taken on the first next */
static int batch_next(repl_lazy *self, nn_object **out)
{
    data_iter *it = (data_iter *)self;
    nn_object *bs = repl_mod_attr(it->a, "batch_size"), *dl = bs ? repl_mod_attr(it->a, "drop_last") : NULL;
    if (!dl) return -1;
    if (!it->b) {
        nn_object *s = repl_mod_attr(it->a, "sampler");
        if (!s || !(it->b = repl_get_iter(s))) return -1;
    }
    if (it->pos) return 0; /* the sampler ended */
    int64_t size = nn_int_value(bs);
    nn_object *batch = nn_list_new(0);
    if (!batch) return -1;
    for (int64_t i = 0; i < size; i++) {
        nn_object *v;
        int r = repl_iter_next(it->b, &v);
        if (r < 0) {
            NN_RELEASE(batch);
            return -1;
        }
        if (r == 0) {
            it->pos = 1;
            break;
        }
        int rc = nn_list_append(batch, v);
        NN_RELEASE(v);
        if (rc) {
            NN_RELEASE(batch);
            return -1;
        }
    }
    size_t got = nn_list_len(batch);
    if (got == 0 || (got < (size_t)size && repl_truth(dl) == 1)) {
        NN_RELEASE(batch);
        return 0;
    }
    *out = batch;
    return 1;
}

static nn_object *batch_iter(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_check_self("__iter__", args)) return NULL;
    return data_iter_new(batch_next, SELF(args), NULL, NULL, 0);
}

/* len(sampler) // batch_size, or rounded up */
static int batches(int64_t n, int64_t size, bool drop_last) { return (int)(drop_last ? n / size : (n + size - 1) / size); }

static nn_object *batch_len(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_check_self("__len__", args)) return NULL;
    nn_object *self = SELF(args), *s = repl_mod_attr(self, "sampler"), *bs = s ? repl_mod_attr(self, "batch_size") : NULL;
    nn_object *dl = bs ? repl_mod_attr(self, "drop_last") : NULL;
    int64_t n;
    if (!dl || length_of(s, &n)) return NULL;
    return nn_int_new(batches(n, nn_int_value(bs), repl_truth(dl) == 1));
}

/* ------------------------------------------------------------ collate */

static nn_object *collate(nn_object *batch, int depth);

/* [item[key] for item in batch] (new list) */
static nn_object *column(nn_object *batch, nn_object *key)
{
    nn_object *l = nn_list_new(0);
    for (size_t i = 0; l && i < nn_list_len(batch); i++) {
        nn_object *v = repl_get_item(nn_list_get(batch, i), key);
        if (!v || nn_list_append(l, v)) NN_SET(l, NULL);
        NN_RELEASE(v);
    }
    return l;
}

/* A namedtuple (collections.namedtuple, typing.NamedTuple): an instance whose class has _fields. */
static bool is_namedtuple(nn_object *o)
{
    if (!o || o->type != &repl_instance_type) return false;
    class_obj *c = repl_class_of(o);
    return c && repl_class_lookup(c, "_fields") != NULL;
}

/* PyTorch 1.13's default_collate of a list of samples: tensors stacked, floats
   as a float64 tensor, ints (and bools) as torch.tensor(batch), strings kept,
   dicts by key, tuples and lists by position (as lists), namedtuples by field (as
   their class). New reference. */
static nn_object *collate(nn_object *batch, int depth)
{
    if (depth > 100) {
        repl_raise_exc(EXC_RecursionError, "maximum recursion depth exceeded in default_collate");
        return NULL;
    }
    if (!nn_is_list(batch) || !nn_list_len(batch)) {
        repl_raise_exc(EXC_IndexError, "list index out of range");
        return NULL;
    }
    nn_object *elem = nn_list_get(batch, 0);
    size_t n = nn_list_len(batch);
    if (repl_numpy_tensor_of(elem) || repl_numpy_is_scalar(elem)) { /* numpy arrays and scalars: torch.as_tensor of each */
        nn_object *l = nn_list_new(n);
        for (size_t i = 0; l && i < n; i++) {
            nn_tensor *t = repl_numpy_tensor_of(nn_list_get(batch, i));
            nn_tensor *d = t ? nn_detach(t) : repl_numpy_scalar_tensor(nn_list_get(batch, i));
            if (!d && !nn_error_current())
                repl_raise_exc(EXC_TypeError, "default_collate: the batch mixes numpy arrays with other values");
            if (!d || nn_list_append(l, (nn_object *)d)) NN_SET(l, NULL);
            NN_RELEASE(d);
        }
        nn_object *r = l ? collate(l, depth + 1) : NULL;
        NN_RELEASE(l);
        return r;
    }
    if (nn_is_tensor(elem)) {
        nn_tensor **ts = nn_malloc(n * sizeof *ts);
        if (!ts) return NULL;
        for (size_t i = 0; i < n; i++) {
            nn_object *x = nn_list_get(batch, i);
            if (!nn_is_tensor(x)) {
                nn_free(ts);
                repl_raise_exc(EXC_TypeError, "expected Tensor as element %zu in argument 0, but got %s", i,
                               repl_value_type_name(x));
                return NULL;
            }
            ts[i] = NN_TENSOR(x);
        }
        nn_tensor *r = nn_stack((int)n, ts, 0);
        nn_free(ts);
        return (nn_object *)r;
    }
    if (nn_is_float(elem)) return (nn_object *)nn_tensor_from_nested(batch, NN_FLOAT64);
    if (nn_is_int(elem) || nn_is_bool(elem)) return (nn_object *)nn_tensor_from_nested(batch, -1);
    if (nn_is_str(elem)) return nn_retain(batch);
    if (nn_is_dict(elem)) {
        nn_object *d = nn_dict_new();
        size_t pos = 0;
        nn_object *k, *v;
        while (d && nn_dict_next(elem, &pos, &k, &v)) {
            nn_object *col = column(batch, k), *c = col ? collate(col, depth + 1) : NULL;
            NN_RELEASE(col);
            if (!c || nn_dict_set(d, k, c)) NN_SET(d, NULL);
            NN_RELEASE(c);
        }
        return d;
    }
    bool named = is_namedtuple(elem); /* a namedtuple: its own class, field by field */
    if (nn_is_list(elem) || nn_is_instance(elem, &nn_tuple_type) || named) {
        int64_t size, other;
        if (repl_length(elem, &size)) return NULL;
        for (size_t i = 1; i < n; i++) {
            if (repl_length(nn_list_get(batch, i), &other)) return NULL;
            if (other != size) {
                repl_raise_exc(EXC_RuntimeError, "each element in list of batch should be of equal size");
                return NULL;
            }
        }
        nn_object *l = nn_list_new(0);
        for (int64_t j = 0; l && j < size; j++) {
            nn_object *key = nn_int_new(j), *col = key ? column(batch, key) : NULL, *c = col ? collate(col, depth + 1) : NULL;
            NN_RELEASE(key);
            NN_RELEASE(col);
            if (!c || nn_list_append(l, c)) NN_SET(l, NULL);
            NN_RELEASE(c);
        }
        if (named && l) {
            size_t m = nn_list_len(l);
            nn_object *argv[m ? m : 1];
            for (size_t j = 0; j < m; j++) argv[j] = nn_list_get(l, j);
            nn_object *r = repl_call_object(&repl_class_of(elem)->ob, argv, (int)m, NULL);
            NN_RELEASE(l);
            return r;
        }
        return l;
    }
    const char *tn = repl_value_type_name(elem);
    repl_raise_exc(EXC_TypeError,
                   "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found <class '%s'>",
                   nn_is_none(elem) ? "NoneType" : tn);
    return NULL;
}

static nn_object *f_default_collate(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("default_collate", args, kwargs, 1, 1) < 0) return NULL;
    nn_object *l = repl_to_list(nn_tuple_get(args, 0)), *r = l ? collate(l, 0) : NULL;
    NN_RELEASE(l);
    return r;
}

/* default_convert: tuples become lists, lists and dicts are converted item by item. New reference. */
static nn_object *convert(nn_object *data, int depth)
{
    if (depth > 100) {
        repl_raise_exc(EXC_RecursionError, "maximum recursion depth exceeded in default_convert");
        return NULL;
    }
    if (nn_is_dict(data)) {
        nn_object *d = nn_dict_new();
        size_t pos = 0;
        nn_object *k, *v;
        while (d && nn_dict_next(data, &pos, &k, &v)) {
            nn_object *c = convert(v, depth + 1);
            if (!c || nn_dict_set(d, k, c)) NN_SET(d, NULL);
            NN_RELEASE(c);
        }
        return d;
    }
    nn_tensor *np = repl_numpy_tensor_of(data); /* a numpy array: torch.as_tensor of it */
    if (np) return (nn_object *)nn_detach(np);
    if (!nn_is_list(data) && !nn_is_instance(data, &nn_tuple_type)) return nn_retain(data);
    nn_object *items = repl_to_list(data), *l = items ? nn_list_new(0) : NULL;
    for (size_t i = 0; l && i < nn_list_len(items); i++) {
        nn_object *c = convert(nn_list_get(items, i), depth + 1);
        if (!c || nn_list_append(l, c)) NN_SET(l, NULL);
        NN_RELEASE(c);
    }
    NN_RELEASE(items);
    return l;
}

static nn_object *f_default_convert(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("default_convert", args, kwargs, 1, 1) < 0) return NULL;
    return convert(nn_tuple_get(args, 0), 0);
}

/* ------------------------------------------------------------ DataLoader */

static bool given(nn_object *o) { return o && !nn_is_none(o); }

static nn_object *loader_init(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(16);
    nn_object *self = SELF(args);
    if (repl_mod_check_self("__init__", args) ||
        repl_parse_args_from("DataLoader.__init__",
                             "dataset, batch_size=, shuffle=, sampler=, batch_sampler=, num_workers=, collate_fn=, "
                             "pin_memory=, drop_last=, timeout=, worker_init_fn=, multiprocessing_context=, generator=, "
                             "*, prefetch_factor=, persistent_workers=, pin_memory_device=",
                             args, 1, kwargs, a))
        return NULL;
    nn_object *ds = a[0], *bs_obj = a[1] ? a[1] : NULL, *sampler = given(a[3]) ? a[3] : NULL;
    nn_object *bsampler = given(a[4]) ? a[4] : NULL, *gen = a[12] ? a[12] : nn_none();
    int64_t workers = 0;
    if (a[5] && repl_mod_int(a[5], &workers)) return NULL;
    if (workers < 0) {
        repl_raise_exc(EXC_ValueError,
                       "num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.");
        return NULL;
    }
    int persistent = given(a[14]) ? repl_truth(a[14]) : 0;
    if (persistent < 0) return NULL;
    if (persistent && workers == 0) {
        repl_raise_exc(EXC_ValueError, "persistent_workers option needs num_workers > 0");
        return NULL;
    }
    bool drop_last = false, shuffle = false, iterable = is_a(ds, "IterableDataset");
    if (a[8]) {
        int t = repl_truth(a[8]);
        if (t < 0) return NULL;
        drop_last = t;
    }
    if (iterable && given(a[2]) && repl_truth(a[2]) != 0) {
        char *r = repl_obj_repr(a[2]);
        repl_raise_exc(EXC_ValueError,
                       "DataLoader with IterableDataset: expected unspecified shuffle option, but got shuffle=%s", r ? r : "?");
        nn_free(r);
        return NULL;
    }
    if (iterable && (sampler || bsampler)) {
        char *r = repl_obj_repr(sampler ? sampler : bsampler);
        repl_raise_exc(EXC_ValueError, "DataLoader with IterableDataset: expected unspecified %s option, but got %s=%s",
                       sampler ? "sampler" : "batch_sampler", sampler ? "sampler" : "batch_sampler", r ? r : "?");
        nn_free(r);
        return NULL;
    }
    if (!iterable && given(a[2])) {
        int t = repl_truth(a[2]);
        if (t < 0) return NULL;
        shuffle = t;
    }
    if (sampler && shuffle) {
        repl_raise_exc(EXC_ValueError, "sampler option is mutually exclusive with shuffle");
        return NULL;
    }
    bool no_batch = a[1] && nn_is_none(a[1]);
    nn_object *one = nn_int_new(1);
    if (!one) return NULL;
    nn_object *bs = bs_obj ? nn_retain(bs_obj) : nn_retain(one);
    NN_RELEASE(one);
    nn_object *made_sampler = NULL, *made_batch = NULL;
    int rc = 0;
    if (bsampler) {
        if ((bs_obj && !(nn_is_int(bs_obj) && nn_int_value(bs_obj) == 1)) || shuffle || sampler || drop_last)
            rc = repl_raise_exc(EXC_ValueError,
                                "batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last");
        NN_SET(bs, nn_retain(nn_none()));
        drop_last = false;
        no_batch = false;
    } else if (no_batch && drop_last)
        rc = repl_raise_exc(EXC_ValueError,
                            "batch_size=None option disables auto-batching and is mutually exclusive with drop_last");
    if (!rc && !sampler && !iterable) {
        nn_object *gen_kw = NULL;
        if (shuffle) {
            gen_kw = nn_dict_new();
            if (!gen_kw || nn_dict_set_str(gen_kw, "generator", gen)) rc = -1;
        }
        if (!rc) made_sampler = make(shuffle ? "RandomSampler" : "SequentialSampler", &ds, 1, gen_kw);
        NN_RELEASE(gen_kw);
        if (!made_sampler) rc = -1;
        sampler = made_sampler;
    }
    if (!rc && !no_batch && !bsampler && !iterable) {
        nn_object *dl = nn_bool_new(drop_last);
        nn_object *bargs[3] = {sampler, bs, dl};
        made_batch = dl ? make("BatchSampler", bargs, 3, NULL) : NULL;
        NN_RELEASE(dl);
        if (!made_batch) rc = -1;
        bsampler = made_batch;
    }
    if (!rc && iterable && !no_batch) {
        nn_object *dlo = nn_bool_new(drop_last);
        rc = dlo ? positive_batch(bs, dlo) : -1;
        NN_RELEASE(dlo);
    }
    nn_object *collate_fn = given(a[6]) ? nn_retain(a[6]) : NULL;
    if (!rc && !collate_fn) {
        nn_object *m = repl_stdlib_module(MODNAME);
        collate_fn = m ? repl_get_attr(m, no_batch ? "default_convert" : "default_collate") : NULL;
        NN_RELEASE(m);
        if (!collate_fn) rc = -1;
    }
    if (!rc)
        rc = repl_set_attr(self, "dataset", ds) || repl_mod_set(self, "num_workers", nn_int_new(workers)) ||
             repl_mod_set(self, "_dataset_kind", nn_int_new(iterable)) || repl_set_attr(self, "batch_size", bs) ||
             repl_mod_set(self, "drop_last", nn_bool_new(drop_last)) ||
             repl_set_attr(self, "sampler", sampler ? sampler : nn_none()) ||
             repl_set_attr(self, "batch_sampler", bsampler ? bsampler : nn_none()) || repl_set_attr(self, "generator", gen) ||
             repl_set_attr(self, "collate_fn", collate_fn) ||
             repl_mod_set(self, "persistent_workers", nn_bool_new(persistent)) ||
             repl_mod_set(self, "pin_memory", nn_bool_new(given(a[7]) && repl_truth(a[7]) == 1)) ||
             repl_mod_set(self, "_iterator", nn_retain(nn_none()));
    NN_RELEASE(collate_fn);
    NN_RELEASE(made_sampler);
    NN_RELEASE(made_batch);
    NN_RELEASE(bs);
    return none_or_fail(rc);
}

/* the loader's iterator: a = the loader, b = iter(index sampler) or iter(dataset), c = the collate function */
static int loader_next(repl_lazy *self, nn_object **out)
{
    data_iter *it = (data_iter *)self;
    if (it->pos < 0) return 0;
    nn_object *ds = repl_mod_attr(it->a, "dataset"), *bs = ds ? repl_mod_attr(it->a, "batch_size") : NULL;
    nn_object *kind = bs ? repl_mod_attr(it->a, "_dataset_kind") : NULL, *dl = kind ? repl_mod_attr(it->a, "drop_last") : NULL;
    if (!dl) return -1;
    bool iterable = nn_int_value(kind), batched = !nn_is_none(bs) || !nn_is_none(repl_mod_attr(it->a, "batch_sampler"));
    nn_object *data = NULL;
    int r;
    if (iterable && !nn_is_none(bs)) {
        int64_t size = nn_int_value(bs);
        data = nn_list_new(0);
        if (!data) return -1;
        for (int64_t i = 0; i < size; i++) {
            nn_object *v;
            if ((r = repl_iter_next(it->b, &v)) < 0) {
                NN_RELEASE(data);
                return -1;
            }
            if (r == 0) {
                it->pos = -1;
                break;
            }
            int rc = nn_list_append(data, v);
            NN_RELEASE(v);
            if (rc) {
                NN_RELEASE(data);
                return -1;
            }
        }
        if (!nn_list_len(data) || (repl_truth(dl) == 1 && (int64_t)nn_list_len(data) < size)) {
            NN_RELEASE(data);
            it->pos = -1;
            return 0;
        }
    } else if (iterable) {
        if ((r = repl_iter_next(it->b, &data)) <= 0) return r;
    } else {
        nn_object *index;
        if ((r = repl_iter_next(it->b, &index)) <= 0) return r;
        if (batched) { /* [self.dataset[idx] for idx in possibly_batched_index] */
            nn_object *l = repl_to_list(index);
            data = l ? nn_list_new(0) : NULL;
            for (size_t i = 0; data && i < nn_list_len(l); i++) {
                nn_object *v = repl_get_item(ds, nn_list_get(l, i));
                if (!v || nn_list_append(data, v)) NN_SET(data, NULL);
                NN_RELEASE(v);
            }
            NN_RELEASE(l);
        } else
            data = repl_get_item(ds, index);
        NN_RELEASE(index);
        if (!data) return -1;
    }
    *out = repl_call_object(it->c, &data, 1, NULL);
    NN_RELEASE(data);
    return *out ? 1 : -1;
}

static nn_object *loader_iter(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_check_self("__iter__", args)) return NULL;
    nn_object *self = SELF(args), *ds = repl_mod_attr(self, "dataset"), *kind = ds ? repl_mod_attr(self, "_dataset_kind") : NULL;
    nn_object *bsampler = kind ? repl_mod_attr(self, "batch_sampler") : NULL, *sampler = bsampler ? repl_mod_attr(self, "sampler") : NULL;
    nn_object *fn = sampler ? repl_mod_attr(self, "collate_fn") : NULL;
    nn_object *gen = fn ? repl_mod_attr(self, "generator") : NULL;
    nn_generator *seed_gen = NULL;
    if (!gen || repl_arg_generator("DataLoader", gen, &seed_gen)) return NULL;
    bool iterable = nn_int_value(kind);
    /* PyTorch: iter(index sampler), then the base seed, then (iterable) iter(dataset) */
    nn_object *src = iterable ? NULL : repl_get_iter(nn_is_none(bsampler) ? sampler : bsampler);
    if (!iterable && !src) return NULL;
    /* the base seed, from generator= if given; persistent workers draw it once, at the first epoch
       (PyTorch keeps the loader's first iterator and resets it) */
    nn_object *kept = repl_mod_attr(self, "_iterator"), *workers = kept ? repl_mod_attr(self, "num_workers") : NULL;
    nn_object *persistent = workers ? repl_mod_attr(self, "persistent_workers") : NULL;
    if (!persistent) {
        NN_RELEASE(src);
        return NULL;
    }
    bool reuse = repl_truth(persistent) == 1 && nn_int_value(workers) > 0;
    if (!reuse || nn_is_none(kept)) (void)random_int64(seed_gen ? seed_gen : nn_default_generator());
    if (reuse && nn_is_none(kept) && repl_mod_set(self, "_iterator", nn_bool_new(true))) {
        NN_RELEASE(src);
        return NULL;
    }
    if (iterable && !(src = repl_get_iter(ds))) return NULL;
    nn_object *it = data_iter_new(loader_next, self, src, fn, 0);
    NN_RELEASE(src);
    return it;
}

static nn_object *loader_len(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_check_self("__len__", args)) return NULL;
    nn_object *self = SELF(args), *ds = repl_mod_attr(self, "dataset"), *kind = ds ? repl_mod_attr(self, "_dataset_kind") : NULL;
    nn_object *bsampler = kind ? repl_mod_attr(self, "batch_sampler") : NULL, *sampler = bsampler ? repl_mod_attr(self, "sampler") : NULL;
    nn_object *bs = sampler ? repl_mod_attr(self, "batch_size") : NULL, *dl = bs ? repl_mod_attr(self, "drop_last") : NULL;
    if (!dl) return NULL;
    int64_t n;
    if (nn_int_value(kind)) {
        if (length_of(ds, &n)) return NULL;
        if (!nn_is_none(bs)) n = batches(n, nn_int_value(bs), repl_truth(dl) == 1);
        return nn_int_new(n);
    }
    return length_of(nn_is_none(bsampler) ? sampler : bsampler, &n) ? NULL : nn_int_new(n);
}

/* ------------------------------------------------------------ the module */

typedef struct data_class {
    const char *name;
    const char *module; /* PyTorch's defining submodule, the class's __module__ */
    int base;           /* index in the table, -1 for object */
    repl_mod_fn methods[4];
} data_class;

static const data_class classes[] = {
    {"Dataset", MODNAME ".dataset", -1,
     {{"__getitem__", dataset_getitem, "__getitem__(index)\nSubclasses of Dataset should implement __getitem__."},
      {"__add__", dataset_add, "__add__(other)\nConcatDataset([self, other])."}}},
    {"IterableDataset", MODNAME ".dataset", 0, {{NULL}}},
    {"TensorDataset", MODNAME ".dataset", 0,
     {{"__init__", tensordataset_init, "TensorDataset(*tensors)\nDataset wrapping tensors: sample i is each tensor's row i."},
      {"__getitem__", tensordataset_getitem, "__getitem__(index)\ntuple(tensor[index] for tensor in self.tensors)."},
      {"__len__", tensordataset_len, "__len__()\nThe first dimension of the tensors."}}},
    {"Subset", MODNAME ".dataset", 0,
     {{"__init__", subset_init, "Subset(dataset, indices)\nSubset of a dataset at specified indices."},
      {"__getitem__", subset_getitem, "__getitem__(idx)\nself.dataset[self.indices[idx]]."},
      {"__len__", subset_len, "__len__()\nlen(self.indices)."}}},
    {"ConcatDataset", MODNAME ".dataset", 0,
     {{"__init__", concat_init, "ConcatDataset(datasets)\nDataset as a concatenation of multiple datasets."},
      {"__getitem__", concat_getitem, "__getitem__(idx)\nThe sample idx of the concatenation."},
      {"__len__", concat_len, "__len__()\nThe total length."}}},
    {"Sampler", MODNAME ".sampler", -1, {{"__init__", sampler_init, "Sampler(data_source=None)\nBase class for all Samplers."}}},
    {"SequentialSampler", MODNAME ".sampler", 5,
     {{"__init__", sequential_init, "SequentialSampler(data_source)\nSamples elements sequentially, always in the same order."},
      {"__iter__", sequential_iter, "__iter__()\niter(range(len(self.data_source)))."},
      {"__len__", sequential_len, "__len__()\nlen(self.data_source)."}}},
    {"RandomSampler", MODNAME ".sampler", 5,
     {{"__init__", random_init, "RandomSampler(data_source, replacement=False, num_samples=None, generator=None)\nSamples elements randomly."},
      {"__iter__", random_iter, "__iter__()\nThe indices in PyTorch's random order."},
      {"__len__", random_len, "__len__()\nnum_samples."}}},
    {"SubsetRandomSampler", MODNAME ".sampler", 5,
     {{"__init__", subset_random_init, "SubsetRandomSampler(indices, generator=None)\nSamples elements randomly from a given list of indices, without replacement."},
      {"__iter__", subset_random_iter, "__iter__()\nThe indices in a random order."},
      {"__len__", subset_len, "__len__()\nlen(self.indices)."}}},
    {"BatchSampler", MODNAME ".sampler", 5,
     {{"__init__", batch_init, "BatchSampler(sampler, batch_size, drop_last)\nWraps another sampler to yield a mini-batch of indices."},
      {"__iter__", batch_iter, "__iter__()\nLists of batch_size indices."},
      {"__len__", batch_len, "__len__()\nThe number of batches."}}},
    {"DataLoader", MODNAME ".dataloader", -1,
     {{"__init__", loader_init, "DataLoader(dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None, multiprocessing_context=None, generator=None, *, prefetch_factor=2, persistent_workers=False, pin_memory_device='')\nCombines a dataset and a sampler, and provides an iterable over the given dataset."},
      {"__iter__", loader_iter, "__iter__()\nAn iterator over the batches."},
      {"__len__", loader_len, "__len__()\nThe number of batches."}}},
};

static const repl_mod_fn data_functions[] = {
    {"random_split", f_random_split, "random_split(dataset, lengths, generator=default_generator)\nRandomly split a dataset into non-overlapping new datasets of given lengths."},
    {"default_collate", f_default_collate, "default_collate(batch)\nPuts each data field into a tensor with outer dimension batch size."},
    {"default_convert", f_default_convert, "default_convert(data)\nThe data with tuples as lists and numpy arrays as tensors."},
};

nn_object *repl_mod_data(void)
{
    enum { N = sizeof classes / sizeof *classes };
    nn_object *m = repl_module_new(MODNAME);
    class_obj *made[N] = {0};
    int rc = m ? repl_mod_add_fns(m, data_functions, sizeof data_functions / sizeof *data_functions) : -1;
    for (size_t i = 0; !rc && i < N; i++) {
        class_obj *base = classes[i].base < 0 ? repl_current->object_cls : made[classes[i].base];
        class_obj *c = made[i] = repl_mod_subclass(classes[i].module, classes[i].name, base, NULL, classes[i].methods, 4);
        if (!c) {
            rc = -1;
            break;
        }
        if (!rc) rc = repl_set_attr(m, classes[i].name, &c->ob);
    }
    for (size_t i = 0; i < N; i++) NN_RELEASE(made[i]);
    if (!rc) rc = repl_mod_data_more(m);
    if (rc) NN_SET(m, NULL);
    return m;
}

/* torch.utils: its submodule data */
nn_object *repl_mod_torch_utils(void)
{
    nn_object *m = repl_module_new("torch.utils");
    if (m && repl_mod_set(m, "data", repl_stdlib_module(MODNAME)) < 0) NN_SET(m, NULL);
    return m;
}
