/*
 * tensordict.c — a minimal tensordict.TensorDict: str keys in insertion
 * order over tensors and nested TensorDicts that start with the batch size,
 * with tensordict's nested keys, get/set/del/rename, batch-size checks and
 * setter, keys() order, shallow and deep clone, update, transpose, indexing
 * along the batch dims, and its repr (textwrap-indented, fields sorted).
 * No devices (device=None, CPU tensors), no locking, no lazy stacks.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_int.h"

/* "torch.Size([3, 4])" */
static void text_size(nn_text *t, int ndim, const int64_t *sizes)
{
    char buf[32];
    nn_text_puts(t, "torch.Size([");
    for (int d = 0; d < ndim; d++) {
        snprintf(buf, sizeof buf, "%s%lld", d ? ", " : "", (long long)sizes[d]);
        nn_text_puts(t, buf);
    }
    nn_text_puts(t, "])");
}

/* A new string of torch.Size([...]); NULL on allocation failure. */
static char *size_string(int ndim, const int64_t *sizes)
{
    nn_text t = {0};
    text_size(&t, ndim, sizes);
    return nn_text_finish(&t);
}

/* textwrap.indent(s, prefix): prefix every line that is not whitespace only. */
static char *indent(const char *s, const char *prefix)
{
    nn_text t = {0};
    while (*s) {
        const char *end = strchr(s, '\n');
        size_t n = end ? (size_t)(end - s) + 1 : strlen(s);
        bool blank = true;
        for (size_t i = 0; i < n; i++)
            if (!strchr(" \t\n\r\v\f", s[i])) blank = false;
        if (!blank) nn_text_puts(&t, prefix);
        nn_text_add(&t, s, n);
        s += n;
    }
    return nn_text_finish(&t);
}

/* ------------------------------------------------------------------ the object */

static void td_dealloc(nn_object *self)
{
    NN_RELEASE(NN_TENSORDICT(self)->items);
    nn_free(self);
}

static char *td_repr(nn_object *self);

const nn_type nn_tensordict_type = {.name = "TensorDict", .dealloc = td_dealloc, .repr = td_repr};

/* An empty TensorDict of the batch size; new reference. */
static nn_tensordict *td_alloc(int ndim, const int64_t *sizes)
{
    if (ndim < 0 || ndim > NN_MAX_DIMS) {
        nn_error_set(NN_ERR_VALUE, "TensorDict batch size must have at most %d dims, got %d", NN_MAX_DIMS, ndim);
        return NULL;
    }
    nn_tensordict *td = nn_calloc(1, sizeof *td);
    if (!td) return NULL;
    nn_object_init(&td->ob, &nn_tensordict_type);
    td->items = nn_dict_new();
    if (!td->items) {
        nn_free(td);
        return NULL;
    }
    td->batch_dims = ndim;
    for (int d = 0; d < ndim; d++) td->batch_size[d] = sizes[d];
    return td;
}

/* An entry's shape: a tensor's sizes or a TensorDict's batch size (tensordict's _shape). */
static int entry_shape(nn_object *v, const int64_t **sizes)
{
    if (nn_is_tensordict(v)) {
        *sizes = NN_TENSORDICT(v)->batch_size;
        return NN_TENSORDICT(v)->batch_dims;
    }
    *sizes = NN_TENSOR(v)->sizes;
    return NN_TENSOR(v)->ndim;
}

/* shape[:ndim] == sizes */
static bool starts_with(int shape_ndim, const int64_t *shape, int ndim, const int64_t *sizes)
{
    if (shape_ndim < ndim) return false;
    for (int d = 0; d < ndim; d++)
        if (shape[d] != sizes[d]) return false;
    return true;
}

/* "<class 'torch.Tensor'>" as Python prints type(x) for an entry. */
static const char *class_repr(nn_object *v)
{
    if (nn_is_tensordict(v)) return "<class 'tensordict._td.TensorDict'>";
    if (nn_is_parameter(v)) return "<class 'torch.nn.parameter.Parameter'>";
    if (nn_is_tensor(v)) return "<class 'torch.Tensor'>";
    return "<class 'object'>";
}

/* ------------------------------------------------------------------------ keys */

/* Appends key's str parts to parts: 1, 0 when key is not a nested key, -1 on failure. */
static int unravel_into(nn_object *key, nn_object *parts)
{
    if (nn_is_str(key)) return nn_list_append(parts, key) < 0 ? -1 : 1;
    if (!key || key->type != &nn_tuple_type) return 0;
    for (size_t i = 0; i < nn_tuple_len(key); i++) {
        int r = unravel_into(nn_tuple_get(key, i), parts);
        if (r <= 0) return r;
    }
    return 1;
}

/* The str parts of a nested key as a new list, or NULL: not_key_kind with msg when key
   is not a nested key (or is empty). */
static nn_object *key_parts_or(nn_object *key, nn_error_kind not_key_kind, const char *msg)
{
    nn_object *parts = nn_list_new(4);
    if (!parts) return NULL;
    int r = unravel_into(key, parts);
    if (r <= 0 || nn_list_len(parts) == 0) {
        NN_RELEASE(parts);
        if (r >= 0) nn_error_set(not_key_kind, "%s", msg);
        return NULL;
    }
    return parts;
}

static nn_object *key_parts(nn_object *key)
{
    /* tensordict formats the key after unravelling it to (), hence always "()" */
    return key_parts_or(key, NN_ERR_KEY, "Only NestedKeys are supported. Got key ().");
}

static int compare_str_objects(const void *a, const void *b)
{
    return strcmp(nn_str_cstr(*(nn_object *const *)a), nn_str_cstr(*(nn_object *const *)b));
}

/* KeyError 'key "k" not found in TensorDict with keys [sorted keys]'; returns -1. */
static int missing_key(nn_tensordict *td, nn_object *k)
{
    size_t n = nn_dict_len(td->items), pos = 0, i = 0;
    nn_object **keys = nn_malloc(sizeof *keys * (n ? n : 1));
    nn_object *list = keys ? nn_list_new(n) : NULL, *key, *value;
    char *r = NULL;
    if (list) {
        while (nn_dict_next(td->items, &pos, &key, &value)) keys[i++] = key;
        qsort(keys, n, sizeof *keys, compare_str_objects);
        bool ok = true;
        for (i = 0; i < n && ok; i++) ok = nn_list_append(list, keys[i]) == 0;
        r = ok ? nn_repr(list) : NULL;
    }
    nn_free(keys);
    NN_RELEASE(list);
    if (!r) return -1;
    nn_error_set(NN_ERR_KEY, "key \"%s\" not found in TensorDict with keys %s", nn_str_cstr(k), r);
    nn_free(r);
    return -1;
}

/* ValueError for a path going through a tensor: parts[from..] are the keys left. */
static void not_a_tensordict(nn_tensordict *level, nn_object *entry, nn_object *parts, size_t from)
{
    size_t n = nn_list_len(parts) - from;
    nn_object *rest = nn_tuple_new(n);
    if (!rest) return;
    for (size_t i = 0; i < n; i++) nn_tuple_set(rest, i, nn_retain(nn_list_get(parts, from + i)));
    char *rest_repr = nn_repr(rest), *td_text = nn_repr(&level->ob);
    if (rest_repr && td_text)
        nn_error_set(NN_ERR_VALUE, "Expected a TensorDictBase instance but got %s instead for key '%s' in tensordict:\n%s.",
                     class_repr(entry), rest_repr, td_text);
    nn_free(rest_repr);
    nn_free(td_text);
    NN_RELEASE(rest);
}

/* The entry at parts (borrowed). NULL with *missing = true when a key is absent (KeyError
   set only when raise), NULL with *missing = false on other errors. */
static nn_object *lookup(nn_tensordict *td, nn_object *parts, bool raise, bool *missing)
{
    *missing = false;
    size_t n = nn_list_len(parts);
    for (size_t i = 0;; i++) {
        nn_object *k = nn_list_get(parts, i);
        nn_object *v = nn_dict_get(td->items, k);
        if (!v) {
            *missing = true;
            if (raise) missing_key(td, k);
            return NULL;
        }
        if (i == n - 1) return v;
        if (!nn_is_tensordict(v)) {
            not_a_tensordict(td, v, parts, i + 1);
            return NULL;
        }
        td = NN_TENSORDICT(v);
    }
}

nn_object *nn_tensordict_key(size_t n, ...)
{
    va_list ap;
    va_start(ap, n);
    nn_object *key = NULL;
    if (n == 1) {
        key = nn_str_new(va_arg(ap, const char *));
    } else if ((key = nn_tuple_new(n))) {
        for (size_t i = 0; i < n; i++) {
            nn_object *s = nn_str_new(va_arg(ap, const char *));
            if (!s) {
                NN_SET(key, NULL);
                break;
            }
            nn_tuple_set(key, i, s);
        }
    }
    va_end(ap);
    return key;
}

/* ------------------------------------------------------------------- get / set */

nn_object *nn_tensordict_get(nn_tensordict *td, nn_object *key)
{
    nn_object *parts = key_parts(key);
    if (!parts) return NULL;
    bool missing;
    nn_object *v = lookup(td, parts, true, &missing);
    NN_RELEASE(parts);
    return v;
}

nn_object *nn_tensordict_get_default(nn_tensordict *td, nn_object *key, nn_object *dflt)
{
    nn_object *parts = key_parts(key);
    if (!parts) return NULL;
    bool missing;
    nn_object *v = lookup(td, parts, false, &missing);
    NN_RELEASE(parts);
    return v ? v : missing ? dflt : NULL;
}

/* RuntimeError for a value that does not start with td's batch size; returns -1. */
static int batch_mismatch(nn_tensordict *td, int ndim, const int64_t *shape)
{
    char *a = size_string(td->batch_dims, td->batch_size), *b = size_string(ndim, shape);
    if (a && b)
        nn_error_set(NN_ERR_RUNTIME, "batch dimension mismatch, got self.batch_size=%s and value.shape=%s.", a, b);
    nn_free(a);
    nn_free(b);
    return -1;
}

/* tensordict's _validate_value: what storing value into td keeps (new reference). */
static nn_object *validate_value(nn_tensordict *td, nn_object *value)
{
    if (nn_is_dict(value)) return (nn_object *)nn_tensordict_new(value, td->batch_dims, td->batch_size);
    nn_object *v = NULL;
    if (nn_is_tensordict(value)) {
        nn_tensordict *sub = NN_TENSORDICT(value);
        if (starts_with(sub->batch_dims, sub->batch_size, td->batch_dims, td->batch_size)) return nn_retain(value);
        /* a TensorDict is mapped to the batch size: a shallow copy with the new batch size */
        nn_tensordict *copy = nn_tensordict_clone(sub, false);
        if (copy && nn_tensordict_set_batch_size(copy, td->batch_dims, td->batch_size) < 0) NN_SET(copy, NULL);
        return (nn_object *)copy;
    }
    if (nn_is_tensor(value)) {
        v = nn_retain(value);
    } else if (nn_is_bool(value)) {
        v = (nn_object *)nn_scalar(nn_is_true(value), NN_BOOL);
    } else if (nn_is_int(value)) {
        v = (nn_object *)nn_scalar((double)nn_int_value(value), NN_INT64);
        int64_t iv = nn_int_value(value); /* exact beyond 2**53 */
        if (v && nn_host_write(NN_TENSOR(v), &iv) < 0) NN_SET(v, NULL);
    } else if (nn_is_float(value)) {
        v = (nn_object *)nn_scalar(nn_float_value(value), nn_default_dtype());
    } else {
        nn_error_set(NN_ERR_VALUE,
                     "TensorDict conversion only supports tensorclasses, tensordicts, numeric scalars and tensors. "
                     "Got <class '%s'>",
                     value ? value->type->name : "NoneType");
        return NULL;
    }
    if (!v) return NULL;
    nn_tensor *t = NN_TENSOR(v);
    if (!starts_with(t->ndim, t->sizes, td->batch_dims, td->batch_size)) {
        batch_mismatch(td, t->ndim, t->sizes);
        NN_RELEASE(v);
        return NULL;
    }
    return v;
}

/* Stores value at parts, creating missing parents; validate as tensordict's set does
   (false: stored as is, as rename_key_ does). */
static int set_parts(nn_tensordict *td, nn_object *parts, nn_object *value, bool validate)
{
    size_t n = nn_list_len(parts);
    for (size_t i = 0; i + 1 < n; i++) {
        nn_object *k = nn_list_get(parts, i);
        nn_object *v = nn_dict_get(td->items, k);
        if (!v) {
            nn_tensordict *sub = td_alloc(td->batch_dims, td->batch_size);
            if (!sub) return -1;
            int rc = nn_dict_set(td->items, k, &sub->ob);
            NN_RELEASE(sub);
            if (rc < 0) return -1;
            v = &sub->ob;
        } else if (!nn_is_tensordict(v)) {
            char *r = nn_repr(&td->ob);
            if (r) nn_error_set(NN_ERR_KEY, "The entry %s is already present in tensordict %s.", nn_str_cstr(k), r);
            nn_free(r);
            return -1;
        }
        td = NN_TENSORDICT(v);
    }
    nn_object *stored = validate ? validate_value(td, value) : nn_retain(value);
    if (!stored) return -1;
    int rc = nn_dict_set(td->items, nn_list_get(parts, n - 1), stored);
    NN_RELEASE(stored);
    return rc;
}

int nn_tensordict_set(nn_tensordict *td, nn_object *key, nn_object *value)
{
    nn_object *parts = key_parts(key);
    if (!parts) return -1;
    int rc = set_parts(td, parts, value, true);
    NN_RELEASE(parts);
    return rc;
}

nn_tensordict *nn_tensordict_new(nn_object *source, int batch_dims, const int64_t *batch_size)
{
    if (source && nn_is_tensordict(source)) source = NN_TENSORDICT(source)->items; /* its top-level entries */
    if (source && !nn_is_dict(source)) {
        nn_error_set(NN_ERR_TYPE, "TensorDict source must be a dict or a TensorDict, got %s", source->type->name);
        return NULL;
    }
    nn_tensordict *td = td_alloc(batch_dims, batch_size);
    if (!td || !source) return td;
    size_t pos = 0;
    nn_object *k, *v;
    while (nn_dict_next(source, &pos, &k, &v))
        if (nn_tensordict_set(td, k, v) < 0) {
            NN_RELEASE(td);
            return NULL;
        }
    return td;
}

int nn_tensordict_contains(nn_tensordict *td, nn_object *key)
{
    static const char msg[] = "key must be a NestedKey (a str or a possibly tuple of str).";
    if (nn_is_str(key)) return nn_dict_get(td->items, key) != NULL;
    if (!key || key->type != &nn_tuple_type) return nn_error_set(NN_ERR_RUNTIME, "%s", msg);
    nn_object *parts = key_parts_or(key, NN_ERR_RUNTIME, msg);
    if (!parts) return -1;
    int found = 0;
    for (size_t i = 0; i < nn_list_len(parts); i++) {
        nn_object *v = nn_dict_get(td->items, nn_list_get(parts, i));
        if (!v) break;
        if (i == nn_list_len(parts) - 1) {
            found = 1;
            break;
        }
        if (!nn_is_tensordict(v)) break;
        td = NN_TENSORDICT(v);
    }
    NN_RELEASE(parts);
    return found;
}

/* The TensorDict holding the last part of parts (borrowed), as tensordict's
   _get_leaf_tensordict walks it. */
static nn_tensordict *leaf_parent(nn_tensordict *td, nn_object *parts)
{
    for (size_t i = 0; i + 1 < nn_list_len(parts); i++) {
        nn_object *k = nn_list_get(parts, i);
        nn_object *v = nn_dict_get(td->items, k);
        if (!v) {
            missing_key(td, k);
            return NULL;
        }
        if (!nn_is_tensordict(v)) {
            nn_error_set(NN_ERR_ATTRIBUTE, "'Tensor' object has no attribute 'del_'");
            return NULL;
        }
        td = NN_TENSORDICT(v);
    }
    return td;
}

int nn_tensordict_del(nn_tensordict *td, nn_object *key)
{
    nn_object *parts = key_parts(key);
    if (!parts) return -1;
    nn_tensordict *parent = leaf_parent(td, parts);
    int rc = parent ? nn_dict_del(parent->items, nn_list_get(parts, nn_list_len(parts) - 1)) : -1;
    NN_RELEASE(parts);
    return rc;
}

int nn_tensordict_rename_key(nn_tensordict *td, nn_object *old_key, nn_object *new_key)
{
    nn_object *old_parts = key_parts(old_key), *new_parts = old_parts ? key_parts(new_key) : NULL;
    int rc = -1;
    if (new_parts) {
        bool missing;
        nn_object *v = lookup(td, old_parts, true, &missing);
        if (v) {
            NN_RETAIN(v);
            rc = set_parts(td, new_parts, v, false);
            NN_RELEASE(v);
            if (rc == 0) rc = nn_tensordict_del(td, old_key);
        }
    }
    NN_RELEASE(old_parts);
    NN_RELEASE(new_parts);
    return rc;
}

/* Appends td's keys under prefix (a tuple, or NULL at the top) in tensordict's order. */
static int keys_into(nn_tensordict *td, nn_object *prefix, bool include_nested, bool leaves_only, nn_object *out)
{
    size_t pos = 0;
    nn_object *k, *v;
    while (nn_dict_next(td->items, &pos, &k, &v)) {
        size_t depth = prefix ? nn_tuple_len(prefix) : 0;
        nn_object *full = nn_tuple_new(depth + 1);
        if (!full) return -1;
        for (size_t i = 0; i < depth; i++) nn_tuple_set(full, i, nn_retain(nn_tuple_get(prefix, i)));
        nn_tuple_set(full, depth, nn_retain(k));
        bool is_leaf = !nn_is_tensordict(v);
        int rc = 0;
        if (include_nested && !is_leaf) rc = keys_into(NN_TENSORDICT(v), full, include_nested, leaves_only, out);
        if (rc == 0 && (!leaves_only || is_leaf)) rc = nn_list_append(out, depth ? full : k);
        NN_RELEASE(full);
        if (rc < 0) return -1;
    }
    return 0;
}

nn_object *nn_tensordict_keys(nn_tensordict *td, bool include_nested, bool leaves_only)
{
    nn_object *out = nn_list_new(nn_dict_len(td->items));
    if (out && keys_into(td, NULL, include_nested, leaves_only, out) < 0) NN_SET(out, NULL);
    return out;
}

int64_t nn_tensordict_len(const nn_tensordict *td) { return td->batch_dims ? td->batch_size[0] : 0; }

/* ---------------------------------------------------------- whole-dict operations */

nn_tensordict *nn_tensordict_clone(nn_tensordict *td, bool recurse)
{
    nn_tensordict *out = td_alloc(td->batch_dims, td->batch_size);
    size_t pos = 0;
    nn_object *k, *v;
    while (out && nn_dict_next(td->items, &pos, &k, &v)) {
        nn_object *copy = nn_is_tensordict(v) ? (nn_object *)nn_tensordict_clone(NN_TENSORDICT(v), recurse)
                          : recurse           ? (nn_object *)nn_clone(NN_TENSOR(v))
                                              : nn_retain(v);
        if (!copy || nn_dict_set(out->items, k, copy) < 0) NN_SET(out, NULL);
        NN_RELEASE(copy);
    }
    return out;
}

/* Checks that td can take the batch size (nested TensorDicts with fewer dims taking it too). */
static int check_batch_size(nn_tensordict *td, int ndim, const int64_t *sizes)
{
    size_t pos = 0;
    nn_object *k, *v;
    while (nn_dict_next(td->items, &pos, &k, &v)) {
        if (nn_is_tensordict(v) && NN_TENSORDICT(v)->batch_dims < ndim) {
            if (check_batch_size(NN_TENSORDICT(v), ndim, sizes) < 0) return -1;
            continue;
        }
        const int64_t *shape;
        int shape_ndim = entry_shape(v, &shape);
        if (!starts_with(shape_ndim, shape, ndim, sizes)) {
            char *a = size_string(shape_ndim, shape), *b = size_string(ndim, sizes);
            if (a && b)
                nn_error_set(NN_ERR_RUNTIME, "the tensor %s has shape %s which is incompatible with the batch-size %s.",
                             nn_str_cstr(k), a, b);
            nn_free(a);
            nn_free(b);
            return -1;
        }
    }
    return 0;
}

static void apply_batch_size(nn_tensordict *td, int ndim, const int64_t *sizes)
{
    size_t pos = 0;
    nn_object *k, *v;
    while (nn_dict_next(td->items, &pos, &k, &v))
        if (nn_is_tensordict(v) && NN_TENSORDICT(v)->batch_dims < ndim) apply_batch_size(NN_TENSORDICT(v), ndim, sizes);
    td->batch_dims = ndim;
    memmove(td->batch_size, sizes, sizeof *sizes * (size_t)ndim);
}

int nn_tensordict_set_batch_size(nn_tensordict *td, int ndim, const int64_t *sizes)
{
    if (ndim < 0 || ndim > NN_MAX_DIMS)
        return nn_error_set(NN_ERR_VALUE, "TensorDict batch size must have at most %d dims, got %d", NN_MAX_DIMS, ndim);
    int64_t copy[NN_MAX_DIMS];
    memcpy(copy, sizes, sizeof *sizes * (size_t)ndim); /* sizes may be td->batch_size itself */
    if (check_batch_size(td, ndim, copy) < 0) return -1;
    apply_batch_size(td, ndim, copy);
    return 0;
}

int nn_tensordict_update(nn_tensordict *td, nn_tensordict *other)
{
    if (td == other) return 0;
    size_t pos = 0;
    nn_object *k, *v;
    while (nn_dict_next(other->items, &pos, &k, &v)) {
        nn_object *target = nn_dict_get(td->items, k);
        int rc = target && nn_is_tensordict(target) && nn_is_tensordict(v)
                     ? nn_tensordict_update(NN_TENSORDICT(target), NN_TENSORDICT(v))
                     : nn_tensordict_set(td, k, v);
        if (rc < 0) return -1;
    }
    return 0;
}

nn_tensordict *nn_tensordict_transpose(nn_tensordict *td, int dim0, int dim1)
{
    int nd = td->batch_dims;
    if (dim0 < 0) dim0 += nd;
    if (dim1 < 0) dim1 += nd;
    if (dim0 < 0 || dim1 < 0 || dim0 >= nd || dim1 >= nd) {
        nn_error_set(NN_ERR_VALUE, "The provided dimensions are incompatible with the tensordict batch-size.");
        return NULL;
    }
    if (dim0 == dim1) return (nn_tensordict *)nn_retain(&td->ob);
    int64_t sizes[NN_MAX_DIMS];
    memcpy(sizes, td->batch_size, sizeof sizes);
    sizes[dim0] = td->batch_size[dim1];
    sizes[dim1] = td->batch_size[dim0];
    nn_tensordict *out = td_alloc(nd, sizes);
    size_t pos = 0;
    nn_object *k, *v;
    while (out && nn_dict_next(td->items, &pos, &k, &v)) {
        nn_object *t = nn_is_tensordict(v) ? (nn_object *)nn_tensordict_transpose(NN_TENSORDICT(v), dim0, dim1)
                                           : (nn_object *)nn_transpose(NN_TENSOR(v), dim0, dim1);
        if (!t || nn_dict_set(out->items, k, t) < 0) NN_SET(out, NULL);
        NN_RELEASE(t);
    }
    return out;
}

/* td[items] with the Ellipsis already expanded over the batch dims. */
static nn_tensordict *index_expanded(nn_tensordict *td, int n, const nn_index_item *items)
{
    /* the batch size: the same index applied to a stride-0 tensor of the batch shape */
    nn_tensor *one = nn_scalar(0, NN_BOOL);
    nn_tensor *probe = one ? nn_expand(one, td->batch_dims, td->batch_size) : NULL;
    nn_tensor *shape = probe ? nn_index(probe, n, items) : NULL;
    NN_RELEASE(one);
    NN_RELEASE(probe);
    if (!shape) return NULL;
    nn_tensordict *out = td_alloc(shape->ndim, shape->sizes);
    NN_RELEASE(shape);
    size_t pos = 0;
    nn_object *k, *v;
    while (out && nn_dict_next(td->items, &pos, &k, &v)) {
        nn_object *r = nn_is_tensordict(v) ? (nn_object *)index_expanded(NN_TENSORDICT(v), n, items)
                                           : (nn_object *)nn_index(NN_TENSOR(v), n, items);
        if (!r || nn_dict_set(out->items, k, r) < 0) NN_SET(out, NULL);
        NN_RELEASE(r);
    }
    return out;
}

nn_tensordict *nn_tensordict_index(nn_tensordict *td, int n, const nn_index_item *items)
{
    int consumed = 0, ellipsis = -1;
    for (int i = 0; i < n; i++) {
        switch (items[i].kind) {
        case NN_INDEX_INT:
        case NN_INDEX_SLICE: consumed++; break;
        case NN_INDEX_TENSOR: consumed += items[i].tensor->dtype == NN_BOOL ? items[i].tensor->ndim : 1; break;
        case NN_INDEX_NONE: break;
        case NN_INDEX_ELLIPSIS:
            if (ellipsis >= 0) {
                nn_error_set(NN_ERR_INDEX, "an index can only have a single ellipsis ('...')");
                return NULL;
            }
            ellipsis = i;
            break;
        }
    }
    if (ellipsis < 0) return index_expanded(td, n, items);
    /* tensordict reads "..." against the batch dims, not each entry's dims */
    int fill = td->batch_dims > consumed ? td->batch_dims - consumed : 0;
    nn_index_item *expanded = nn_malloc(sizeof *expanded * (size_t)(n + fill));
    if (!expanded) return NULL;
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (i != ellipsis) {
            expanded[m++] = items[i];
            continue;
        }
        for (int f = 0; f < fill; f++)
            expanded[m++] = (nn_index_item){.kind = NN_INDEX_SLICE, .start = 0, .stop = 0, .step = 1};
    }
    nn_tensordict *out = index_expanded(td, m, expanded);
    nn_free(expanded);
    return out;
}

/* ------------------------------------------------------------------------ repr */

static int compare_strings(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* "Tensor(shape=torch.Size([3, 4]), device=cpu, dtype=torch.float32, is_shared=False)" */
static char *tensor_field(nn_tensor *t)
{
    nn_text s = {0};
    nn_text_puts(&s, nn_is_parameter(&t->ob) ? "Parameter(shape=" : "Tensor(shape=");
    text_size(&s, t->ndim, t->sizes);
    nn_text_puts(&s, ", device=cpu, dtype=");
    nn_text_puts(&s, nn_dtype_name(t->dtype));
    nn_text_puts(&s, ", is_shared=False)");
    return nn_text_finish(&s);
}

/* tensordict's _td_fields: indent("\n" + ",\n".join(sorted(lines)), 4 spaces). */
static char *td_fields(nn_tensordict *td)
{
    size_t n = nn_dict_len(td->items), pos = 0, count = 0;
    char **lines = nn_calloc(n ? n : 1, sizeof *lines);
    if (!lines) return NULL;
    nn_object *k, *v;
    bool ok = true;
    while (ok && nn_dict_next(td->items, &pos, &k, &v)) {
        nn_text line = {0};
        nn_text_puts(&line, nn_str_cstr(k));
        nn_text_puts(&line, ": ");
        nn_text_take(&line, nn_is_tensordict(v) ? nn_repr(v) : tensor_field(NN_TENSOR(v)));
        ok = (lines[count++] = nn_text_finish(&line)) != NULL;
    }
    char *out = NULL;
    if (ok) {
        qsort(lines, count, sizeof *lines, compare_strings);
        nn_text joined = {0};
        nn_text_puts(&joined, "\n");
        for (size_t i = 0; i < count; i++) {
            if (i) nn_text_puts(&joined, ",\n");
            nn_text_puts(&joined, lines[i]);
        }
        char *s = nn_text_finish(&joined);
        out = s ? indent(s, "    ") : NULL;
        nn_free(s);
    }
    for (size_t i = 0; i < count; i++) nn_free(lines[i]);
    nn_free(lines);
    return out;
}

static char *td_repr(nn_object *self)
{
    nn_tensordict *td = NN_TENSORDICT(self);
    char *fields = td_fields(td);
    if (!fields) return NULL;
    nn_text f = {0};
    nn_text_puts(&f, "fields={");
    nn_text_puts(&f, fields);
    nn_text_puts(&f, "}");
    nn_free(fields);
    char *fs = nn_text_finish(&f);
    char *field_str = fs ? indent(fs, "    ") : NULL;
    nn_free(fs);
    if (!field_str) return NULL;
    nn_text out = {0};
    nn_text_puts(&out, "TensorDict(\n");
    nn_text_take(&out, field_str);
    nn_text_puts(&out, ",\n    batch_size=");
    text_size(&out, td->batch_dims, td->batch_size);
    nn_text_puts(&out, ",\n    device=None,\n    is_shared=False)");
    return nn_text_finish(&out);
}
