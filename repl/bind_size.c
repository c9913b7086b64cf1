/*
 * bind_size.c — torch.Size beyond a tuple: numel(), and the sequence
 * operations that keep it a Size as PyTorch's do (size + (4,), size * 2,
 * size[1:]), where a plain tuple on the left stays a tuple ((4,) + size).
 */
#include "bind_int.h"
#include "eval_int.h"

static bool is_size(const nn_object *o) { return nn_is_instance(o, &repl_size_type); }
static bool is_tuple_like(const nn_object *o) { return o->type == &nn_tuple_type || o->type->base == &nn_tuple_type; }

/* A Size holding tuple's items, which must be ints (PyTorch's message). */
static nn_object *size_from_tuple(nn_object *tuple)
{
    if (!tuple) return NULL;
    for (size_t i = 0; i < nn_tuple_len(tuple); i++) {
        nn_object *item = nn_tuple_get(tuple, i);
        if (!nn_is_int(item) || nn_is_bool(item)) {
            nn_error_set(NN_ERR_TYPE, "torch.Size() takes an iterable of 'int' (item %zu is '%s')", i,
                         repl_type_name(item));
            NN_RELEASE(tuple);
            return NULL;
        }
    }
    return repl_tuple_as(tuple, &repl_size_type);
}

nn_object *repl_size_binary(repl_binop op, nn_object *a, nn_object *b, bool *handled)
{
    *handled = false;
    if (!is_size(a) && !is_size(b)) return NULL;
    if (op == REPL_ADD && is_tuple_like(a) && is_tuple_like(b)) {
        *handled = true;
        size_t na = nn_tuple_len(a), nb = nn_tuple_len(b);
        nn_object *t = nn_tuple_new(na + nb);
        for (size_t i = 0; t && i < na + nb; i++)
            nn_tuple_set(t, i, nn_retain(i < na ? nn_tuple_get(a, i) : nn_tuple_get(b, i - na)));
        return is_size(a) ? size_from_tuple(t) : t;
    }
    if (op == REPL_ADD && is_size(a)) { /* tuple.__add__'s message */
        *handled = true;
        nn_error_set(NN_ERR_TYPE, "can only concatenate tuple (not \"%s\") to tuple", repl_type_name(b));
        return NULL;
    }
    if (op == REPL_MUL && (nn_is_int(a) || nn_is_int(b)) && !nn_is_bool(a) && !nn_is_bool(b)) {
        *handled = true;
        nn_object *seq = is_size(a) ? a : b;
        int64_t times = nn_int_value(is_size(a) ? b : a), n = (int64_t)nn_tuple_len(seq);
        if (times < 0) times = 0;
        if (n && times > INT32_MAX / n) {
            nn_error_set(NN_ERR_MEMORY, "%s", "");
            return NULL;
        }
        nn_object *t = nn_tuple_new((size_t)(n * times));
        for (int64_t i = 0; t && i < n * times; i++) nn_tuple_set(t, (size_t)i, nn_retain(nn_tuple_get(seq, (size_t)(i % n))));
        return t ? repl_tuple_as(t, &repl_size_type) : NULL;
    }
    return NULL;
}

nn_object *repl_size_getitem(nn_object *size, nn_object *key, bool *handled)
{
    *handled = is_size(size) && repl_is_slice(key);
    if (!*handled) return NULL;
    nn_object *plain = repl_plain_tuple(size), *slice = plain ? repl_get_item(plain, key) : NULL;
    NN_RELEASE(plain);
    return slice ? repl_tuple_as(slice, &repl_size_type) : NULL;
}

static nn_object *size_numel(nn_object *self, nn_object *args, nn_object *kwargs)
{
    if (nn_tuple_len(args) || (kwargs && nn_dict_len(kwargs))) {
        nn_error_set(NN_ERR_TYPE, "numel() takes no arguments");
        return NULL;
    }
    int64_t n = 1;
    for (size_t i = 0; i < nn_tuple_len(self); i++) n *= nn_int_value(nn_tuple_get(self, i));
    return nn_int_new(n);
}

static const repl_method_def size_methods[] = {
    {"numel", size_numel,
     "numel() -> int\nReturns the number of elements a torch.Tensor with the given size would contain."},
    {NULL, NULL, NULL}};

nn_object *repl_size_getattr(nn_object *size, const char *name, bool *handled)
{
    *handled = is_size(size);
    if (!*handled) return NULL;
    nn_object *m = repl_method_lookup(size_methods, name, size);
    if (!m && nn_error_current() == NN_OK) nn_error_set(NN_ERR_ATTRIBUTE, "'Size' object has no attribute '%s'", name);
    return m;
}
