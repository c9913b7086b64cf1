/*
 * bind_return_types.c — torch.return_types: the named tuples that PyTorch's
 * multi-result functions return (torch.max(x, 1), torch.sort, torch.linalg.qr,
 * ...). Each is a tuple under its own type: it indexes, unpacks, compares and
 * hashes as the tuple it is, names its fields as attributes, prints as
 * `torch.return_types.max(\nvalues=...,\nindices=...)`, and `type(r)` is the
 * class torch.return_types.max, which also builds one from a sequence.
 * The list of types and fields is return_types.def.
 */
#include <stdio.h>
#include <string.h>

#include "bind_int.h"
#include "native.h"

#define MAX_FIELDS 4

static char *return_type_repr(nn_object *self);

/* the types, in repl_return_id order: NAME then NAME_out */
static nn_type types[REPL_RETURN_COUNT] = {
#define RETURN_TYPE(nm, ...)                                                                                         \
    {.name = #nm, .repr = return_type_repr, .base = &nn_tuple_type},                                                 \
        {.name = #nm "_out", .repr = return_type_repr, .base = &nn_tuple_type},
#include "return_types.def"
#undef RETURN_TYPE
};

static const char *const fields[REPL_RETURN_COUNT][MAX_FIELDS] = {
#define RETURN_TYPE(nm, ...) {__VA_ARGS__}, {__VA_ARGS__},
#include "return_types.def"
#undef RETURN_TYPE
};

static nn_object *return_type_ctor(void *ud, nn_object *args, nn_object *kwargs);

static const repl_class_def classes[REPL_RETURN_COUNT] = {
#define RETURN_TYPE(nm, ...)                                                                                         \
    {#nm, "torch.return_types." #nm, return_type_ctor, &types[REPL_RETURN_##nm], NULL,                           \
     #nm "(sequence)\nThe named tuple that torch." #nm " returns.", NULL},                                         \
        {#nm "_out", "torch.return_types." #nm "_out", return_type_ctor, &types[REPL_RETURN_##nm##_out], NULL,   \
         #nm "_out(sequence)\nThe named tuple that torch." #nm "(..., out=...) returns.", NULL},
#include "return_types.def"
#undef RETURN_TYPE
};

static size_t field_count(int id)
{
    size_t n = 0;
    while (n < MAX_FIELDS && fields[id][n]) n++;
    return n;
}

int repl_return_type_id(const nn_object *o)
{
    if (!o || o->type < types || o->type >= types + REPL_RETURN_COUNT) return -1;
    return (int)(o->type - types);
}

nn_object *repl_return_tuple(repl_return_id id, nn_object *tuple)
{
    return tuple ? repl_tuple_as(tuple, &types[id]) : NULL;
}

nn_object *repl_return_tensors(int rc, size_t n, nn_tensor **items, repl_return_id id)
{
    nn_object *r = rc < 0 ? NULL : nn_tuple_new(n);
    for (size_t i = 0; i < n; i++) {
        if (r) nn_tuple_set(r, i, &items[i]->ob);
        else NN_RELEASE(items[i]);
    }
    return repl_return_tuple(id, r);
}

nn_object *repl_return_pair(int rc, nn_tensor *first, nn_tensor *second, repl_return_id id)
{
    return repl_return_tensors(rc, 2, (nn_tensor *[]){first, second}, id);
}

/* "torch.return_types.NAME(\nfield=repr,\n...)" as PyTorch's structseq repr */
static char *return_type_repr(nn_object *self)
{
    int id = repl_return_type_id(self);
    size_t n = field_count(id), len = strlen(self->type->name) + 32;
    char *parts[MAX_FIELDS] = {0}, *r = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!(parts[i] = nn_repr(nn_tuple_get(self, i)))) goto done;
        len += strlen(parts[i]) + strlen(fields[id][i]) + 4;
    }
    if (!(r = nn_malloc(len))) goto done;
    size_t w = (size_t)snprintf(r, len, "torch.return_types.%s(", self->type->name);
    for (size_t i = 0; i < n; i++)
        w += (size_t)snprintf(r + w, len - w, "\n%s=%s%s", fields[id][i], parts[i], i + 1 < n ? "," : "");
    snprintf(r + w, len - w, ")");
done:
    for (size_t i = 0; i < n; i++) nn_free(parts[i]);
    return r;
}

nn_object *repl_return_type_getattr(nn_object *o, const char *name, bool *handled)
{
    int id = repl_return_type_id(o);
    if (id < 0) return NULL;
    *handled = true;
    size_t n = field_count(id);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(name, fields[id][i])) return nn_retain(nn_tuple_get(o, i));
    if (!strcmp(name, "n_fields") || !strcmp(name, "n_sequence_fields")) return nn_int_new((int64_t)n);
    if (!strcmp(name, "n_unnamed_fields")) return nn_int_new(0);
    nn_error_set(NN_ERR_ATTRIBUTE, "'torch.return_types.%s' object has no attribute '%s'", o->type->name, name);
    return NULL;
}

/* torch.return_types.max((values, indices)): exactly as many items as fields,
   with CPython's structseq messages */
static nn_object *return_type_ctor(void *ud, nn_object *args, nn_object *kwargs)
{
    const repl_class_def *def = ud;
    int id = (int)(def - classes);
    nn_object *seq = nn_tuple_len(args) > 0 ? nn_tuple_get(args, 0) : NULL;
    size_t pos = 0;
    nn_object *key, *value;
    while (kwargs && nn_dict_next(kwargs, &pos, &key, &value)) {
        const char *k = nn_str_cstr(key);
        if (!strcmp(k, "sequence") && !seq) seq = value;
        else if (strcmp(k, "dict") || nn_tuple_len(args) > 1)
            return nn_error_set(NN_ERR_TYPE, "'%s' is an invalid keyword argument for structseq()", k), NULL;
    }
    if (nn_tuple_len(args) > 2)
        return nn_error_set(NN_ERR_TYPE, "structseq() takes at most 2 arguments (%zu given)", nn_tuple_len(args)), NULL;
    if (!seq) return nn_error_set(NN_ERR_TYPE, "structseq() missing required argument 'sequence' (pos 1)"), NULL;
    nn_object *items = repl_iterable_to_list(seq);
    if (!items) {
        if (nn_error_current() == NN_ERR_TYPE) {
            nn_error_clear();
            nn_error_set(NN_ERR_TYPE, "constructor requires a sequence");
        }
        return NULL;
    }
    size_t n = nn_list_len(items), want = field_count(id);
    nn_object *r = NULL;
    if (n != want)
        nn_error_set(NN_ERR_TYPE, "%s() takes a %zu-sequence (%zu-sequence given)", def->qualname, want, n);
    else if ((r = nn_tuple_new(n)))
        for (size_t i = 0; i < n; i++) nn_tuple_set(r, i, nn_retain(nn_list_get(items, i)));
    NN_RELEASE(items);
    return repl_return_tuple((repl_return_id)id, r);
}

nn_object *repl_return_types_namespace(void)
{
    nn_object *ns = repl_namespace_new("torch.return_types");
    if (ns && repl_namespace_add_classes(ns, classes, REPL_RETURN_COUNT)) NN_SET(ns, NULL);
    return ns;
}
