/*
 * classes.c — multiple inheritance: every language class keeps its method
 * resolution order (CPython's C3 linearization, `C.__mro__`, `C.mro()`), and
 * its bases when it has several (`__bases__`); attribute lookup, issubclass
 * and super() follow that order, so that cooperative `super().__init__()`
 * through a diamond calls each class once, in CPython's order. The class
 * object itself (class_obj) is objects.c's; `class` statements are eval.c's.
 */
#include <string.h>

#include "bind.h"
#include "eval_int.h"

/* c's linearization: c, then its base's (classes made before multiple
   inheritance existed have no array: their base chain is their order). */
static int linearization(const class_obj *c, class_obj ***out, int *n)
{
    if (c->mro) {
        *out = c->mro;
        *n = c->n_mro;
        return 0;
    }
    int k = 0;
    for (const class_obj *p = c; p; p = p->base) k++;
    class_obj **a = nn_malloc((size_t)k * sizeof *a);
    if (!a) return -1;
    k = 0;
    for (const class_obj *p = c; p; p = p->base) a[k++] = (class_obj *)p;
    *out = a;
    *n = k;
    return 1; /* a is the caller's to free */
}

int repl_class_init_mro(class_obj *c)
{
    class_obj **lin = NULL;
    int n = 0, owned = 0;
    if (c->base && (owned = linearization(c->base, &lin, &n)) < 0) return -1;
    c->mro = nn_malloc((size_t)(n + 1) * sizeof *c->mro);
    if (!c->mro) {
        if (owned) nn_free(lin);
        return -1;
    }
    c->mro[0] = c; /* not retained: the class itself */
    for (int i = 0; i < n; i++) c->mro[i + 1] = (class_obj *)nn_retain(&lin[i]->ob);
    c->n_mro = n + 1;
    if (owned) nn_free(lin);
    return 0;
}

void repl_class_free_mro(class_obj *c)
{
    for (int i = 1; i < c->n_mro; i++) NN_RELEASE(&c->mro[i]->ob);
    nn_free(c->mro);
    c->mro = NULL;
    c->n_mro = 0;
    NN_SET(c->bases, NULL);
}

/* C3: merges the sequences seqs[0..n) (each with its own length) into out;
   -1 with CPython's TypeError when no consistent order exists */
static int c3_merge(class_obj ***seqs, int *lens, int nseq, class_obj **out, int *nout, class_obj *const *bases,
                    int nbases)
{
    int *head = nn_calloc((size_t)nseq, sizeof *head);
    if (!head) return -1;
    *nout = 0;
    for (;;) {
        bool left = false;
        class_obj *pick = NULL;
        for (int s = 0; s < nseq && !pick; s++) {
            if (head[s] >= lens[s]) continue;
            left = true;
            class_obj *cand = seqs[s][head[s]];
            /* a good head appears in no other sequence's tail */
            bool in_tail = false;
            for (int t = 0; t < nseq && !in_tail; t++)
                for (int i = head[t] + 1; i < lens[t] && !in_tail; i++) in_tail = seqs[t][i] == cand;
            if (!in_tail) pick = cand;
        }
        if (!left) break;
        if (!pick) {
            nn_free(head);
            sbuf b = {0};
            for (int i = 0; i < nbases; i++) repl_sb_printf(&b, "%s%s", i ? ", " : "", bases[i]->name);
            char *names = repl_sb_finish(&b);
            repl_raise_exc(EXC_TypeError, "Cannot create a consistent method resolution\norder (MRO) for bases %s",
                           names ? names : "");
            nn_free(names);
            return -1;
        }
        out[(*nout)++] = pick;
        for (int s = 0; s < nseq; s++)
            if (head[s] < lens[s] && seqs[s][head[s]] == pick) head[s]++;
    }
    nn_free(head);
    return 0;
}

int repl_class_set_bases(class_obj *c, class_obj *const *bases, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (bases[i] == bases[j]) return repl_raise_exc(EXC_TypeError, "duplicate base class %s", bases[i]->name);
    int nseq = n + 1, total = n, rc = -1;
    class_obj ***seqs = nn_calloc((size_t)nseq, sizeof *seqs);
    int *lens = nn_calloc((size_t)nseq, sizeof *lens), *owned = nn_calloc((size_t)nseq, sizeof *owned);
    class_obj **out = NULL;
    nn_object *tuple = nn_tuple_new((size_t)n);
    if (!seqs || !lens || !owned || !tuple) goto done;
    for (int i = 0; i < n; i++) {
        if ((owned[i] = linearization(bases[i], &seqs[i], &lens[i])) < 0) {
            owned[i] = 0;
            goto done;
        }
        total += lens[i];
        nn_tuple_set(tuple, (size_t)i, nn_retain(&bases[i]->ob));
    }
    seqs[n] = (class_obj **)bases;
    lens[n] = n;
    int nout = 0;
    if (!(out = nn_malloc((size_t)(total + 1) * sizeof *out))) goto done;
    out[0] = c;
    if (c3_merge(seqs, lens, nseq, out + 1, &nout, bases, n) < 0) goto done;
    for (int i = 1; i <= nout; i++) nn_retain(&out[i]->ob);
    repl_class_free_mro(c);
    c->mro = out;
    c->n_mro = nout + 1;
    c->bases = tuple;
    out = NULL;
    tuple = NULL;
    rc = 0;
done:
    for (int i = 0; seqs && owned && i < n; i++)
        if (owned[i]) nn_free(seqs[i]);
    nn_free(seqs);
    nn_free(lens);
    nn_free(owned);
    nn_free(out);
    NN_RELEASE(tuple);
    return rc;
}

/* The order of a base b, a language class or a native one (nn.Conv2d): a new tuple. */
static nn_object *order_of(nn_object *b)
{
    if (b->type == &repl_class_type) return repl_class_mro_tuple((class_obj *)b);
    nn_object *t = repl_bind_class_mro(b);
    return t || nn_error_current() ? t : nn_tuple_pack(1, b);
}

/* C3 over class objects of both kinds: c, then the merge of its bases' orders and
   its bases, as CPython orders `class C(Mixin, nn.Conv2d)` (its bases as listed:
   c->bases, else its one base). A new tuple; NULL with TypeError when no
   consistent order exists. */
static nn_object *native_mixed_mro(const class_obj *c)
{
    nn_object *bases = c->bases ? nn_retain(c->bases) : nn_tuple_pack(1, &c->base->ob);
    size_t nb = bases ? nn_tuple_len(bases) : 0;
    nn_object **seqs = bases ? nn_calloc(nb + 1, sizeof *seqs) : NULL, *out = NULL;
    size_t *head = seqs ? nn_calloc(nb + 1, sizeof *head) : NULL;
    if (!head) goto done;
    for (size_t i = 0; i < nb; i++) {
        if (!(seqs[i] = order_of(nn_tuple_get(bases, i)))) goto done;
    }
    seqs[nb] = nn_retain(bases);
    nn_object *picked[256];
    size_t n = 0;
    picked[n++] = (nn_object *)&c->ob;
    for (;;) {
        nn_object *pick = NULL;
        bool left = false;
        for (size_t s = 0; s <= nb && !pick; s++) {
            if (head[s] >= nn_tuple_len(seqs[s])) continue;
            left = true;
            nn_object *cand = nn_tuple_get(seqs[s], head[s]);
            bool in_tail = false;   /* a good head is in no other sequence's tail */
            for (size_t t = 0; t <= nb && !in_tail; t++)
                for (size_t i = head[t] + 1; i < nn_tuple_len(seqs[t]) && !in_tail; i++)
                    in_tail = nn_tuple_get(seqs[t], i) == cand;
            if (!in_tail) pick = cand;
        }
        if (!left) break;
        if (!pick || n == sizeof picked / sizeof *picked) {
            repl_raise_exc(EXC_TypeError, "Cannot create a consistent method resolution order (MRO)");
            goto done;
        }
        picked[n++] = pick;
        for (size_t s = 0; s <= nb; s++)
            if (head[s] < nn_tuple_len(seqs[s]) && nn_tuple_get(seqs[s], head[s]) == pick) head[s]++;
    }
    if ((out = nn_tuple_new(n)))
        for (size_t i = 0; i < n; i++) nn_tuple_set(out, i, nn_retain(picked[i]));
done:
    for (size_t i = 0; seqs && i <= nb; i++) NN_RELEASE(seqs[i]);
    nn_free(seqs);
    nn_free(head);
    NN_RELEASE(bases);
    return out;
}

nn_object *repl_class_mro_tuple(const class_obj *c)
{
    if (c->mcls) return native_mixed_mro(c); /* a module class: nn.Module's classes in its order */
    class_obj **lin;
    int n, owned = linearization(c, &lin, &n);
    if (owned < 0) return NULL;
    nn_object *t = nn_tuple_new((size_t)n);
    for (int i = 0; t && i < n; i++) nn_tuple_set(t, (size_t)i, nn_retain(&lin[i]->ob));
    if (owned) nn_free(lin);
    return t;
}

/* C.mro(): the order as a list */
static nn_object *class_mro_list(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)ud;
    (void)kwargs;
    if (nn_tuple_len(args) != 1 || nn_tuple_get(args, 0)->type != &repl_class_type) {
        repl_raise_exc(EXC_TypeError, "mro() takes no arguments");
        return NULL;
    }
    nn_object *t = repl_class_mro_tuple((class_obj *)nn_tuple_get(args, 0));
    if (!t) return NULL;
    nn_object *l = nn_list_new(0);
    for (size_t i = 0; l && i < nn_tuple_len(t); i++)
        if (nn_list_append(l, nn_tuple_get(t, i)) < 0) NN_SET(l, NULL);
    NN_RELEASE(t);
    return l;
}

nn_object *repl_class_special_attr(class_obj *c, const char *name)
{
    if (strcmp(name, "__mro__") == 0) return repl_class_mro_tuple(c);
    if (strcmp(name, "mro") == 0) {
        nn_object *f = nn_cfunction_new("mro", class_mro_list, NULL, NULL);
        nn_object *m = f ? repl_method_new(f, &c->ob) : NULL;
        NN_RELEASE(f);
        return m;
    }
    if (strcmp(name, "__bases__") == 0 && c->bases) return nn_retain(c->bases);
    if (strcmp(name, "__dict__") == 0) { /* a read-only mappingproxy of a copy (types.py) */
        const char **keys = repl_nmap_keys_ordered(&c->dict);
        if (!keys && c->dict.len) return NULL;
        nn_object *d = nn_dict_new();
        for (uint32_t i = 0; d && i < c->dict.len; i++)
            if (nn_dict_set_str(d, keys[i], repl_nmap_get(&c->dict, keys[i])) < 0) NN_SET(d, NULL);
        nn_free(keys);
        nn_object *types = d ? repl_stdlib_module("types") : NULL;
        nn_object *proxy_cls = types ? repl_get_attr(types, "MappingProxyType") : NULL;
        nn_object *proxy = proxy_cls ? repl_call_object(proxy_cls, &d, 1, NULL) : NULL;
        NN_RELEASE(proxy_cls);
        NN_RELEASE(types);
        NN_RELEASE(d);
        return proxy;
    }
    return NULL;
}

int repl_class_init_subclass(class_obj *c, nn_object *kwargs)
{
    c->getattribute = repl_class_lookup(c, "__getattribute__") != NULL; /* instance lookups ask it */
    nn_object *hook = NULL;
    class_obj *found = repl_super_lookup(c, &c->ob, "__init_subclass__", &hook);
    if (!found) {
        if (nn_error_current()) return -1;
        if (kwargs && nn_dict_len(kwargs))
            return repl_raise_exc(EXC_TypeError, "%s.__init_subclass__() takes no keyword arguments", c->name);
        return 0;
    }
    /* a def named __init_subclass__ is a classmethod without the decorator */
    nn_object *cls = &c->ob, *r;
    if (hook->type == &repl_function_type) r = repl_call_object(hook, &cls, 1, kwargs);
    else {
        nn_object *bound = repl_get_attr(cls, "__init_subclass__");
        r = bound ? repl_call_object(bound, NULL, 0, kwargs) : NULL;
        NN_RELEASE(bound);
    }
    NN_RELEASE(r);
    return r ? 0 : -1;
}

class_obj *repl_super_lookup(const class_obj *start, nn_object *self, const char *name, nn_object **out)
{
    /* the order of the instance's class (or of the class itself, in a classmethod) */
    const class_obj *type = self->type == &repl_class_type ? (const class_obj *)self
                            : self->type == &repl_instance_type ? ((instance_obj *)self)->cls
                                                                  : repl_module_lang_class(self);
    if (!type) type = start;
    class_obj **lin;
    int n, owned = linearization(type, &lin, &n);
    if (owned < 0) return NULL;
    int i = 0;
    while (i < n && lin[i] != start) i++;
    class_obj *found = NULL;
    if (i == n) {   /* start is not in the order: its own bases */
        if (owned) nn_free(lin);
        owned = linearization(start, &lin, &n);
        if (owned < 0) return NULL;
        i = 0;
    }
    for (i++; i < n && !found; i++)
        if ((*out = repl_nmap_get(&lin[i]->dict, name))) found = lin[i];
    if (owned) nn_free(lin);
    return found;
}
