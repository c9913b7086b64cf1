/*
 * from_nested.c — torch.tensor(data): a tensor from nested lists/tuples of
 * numbers (and 0-dim tensors), with torch.tensor's dtype inference
 * (bool < int64 < float32 default < complex64 default) and its errors for ragged or non-numeric data.
 */
#include <string.h>

#include "nn_int.h"

static bool is_sequence(const nn_object *o) { return o && (o->type == &nn_tuple_type || nn_is_list(o)); }
static size_t seq_len(const nn_object *o) { return o->type == &nn_tuple_type ? nn_tuple_len(o) : nn_list_len(o); }
static nn_object *seq_item(const nn_object *o, size_t i)
{
    return o->type == &nn_tuple_type ? nn_tuple_get(o, i) : nn_list_get(o, i);
}

/* The shape torch.tensor infers: the lengths met going down first elements. */
static int infer_shape(nn_object *o, int64_t *shape)
{
    int ndim = 0;
    while (is_sequence(o)) {
        if (ndim == NN_MAX_DIMS) return nn_error_set(NN_ERR_VALUE, "too many dimensions");
        size_t n = seq_len(o);
        shape[ndim++] = (int64_t)n;
        if (n == 0) break;
        o = seq_item(o, 0);
    }
    return ndim;
}

/* Checks every element against the shape and collects the widest kind
   (0 bool, 1 int, 2 float, 3 complex) and the promoted dtype of 0-dim tensors. */
static int scan(nn_object *o, int depth, int ndim, const int64_t *shape, int *kind, int *tensor_dtype)
{
    if (depth < ndim) {
        if (!is_sequence(o)) return nn_error_set(NN_ERR_TYPE, "not a sequence");
        size_t n = seq_len(o);
        if ((int64_t)n != shape[depth])
            return nn_error_set(NN_ERR_VALUE, "expected sequence of length %lld at dim %d (got %zu)",
                                (long long)shape[depth], depth, n);
        for (size_t i = 0; i < n; i++)
            if (scan(seq_item(o, i), depth + 1, ndim, shape, kind, tensor_dtype) < 0) return -1;
        return 0;
    }
    if (is_sequence(o)) return nn_error_set(NN_ERR_TYPE, "'%s' object cannot be interpreted as an integer", o->type->name);
    if (nn_is_bool(o)) return 0;
    if (nn_is_int(o)) {
        if (*kind < 1) *kind = 1;
        return 0;
    }
    if (nn_is_float(o) || nn_is_complex(o)) {
        if (*kind < 3) *kind = nn_is_complex(o) ? 3 : 2;
        return 0;
    }
    if (nn_is_tensor(o) && NN_TENSOR(o)->ndim == 0) {
        nn_dtype dt = NN_TENSOR(o)->dtype;
        *tensor_dtype = *tensor_dtype < 0 ? (int)dt : (int)nn_promote_types((nn_dtype)*tensor_dtype, dt);
        return 0;
    }
    if (nn_is_tensor(o)) return nn_error_set(NN_ERR_VALUE, "only one element tensors can be converted to Python scalars");
    if (nn_is_str(o)) return nn_error_set(NN_ERR_TYPE, "new(): invalid data type 'str'");
    /* an "int" that is not core's int64 is the language's int beyond 64 bits */
    if (o && !strcmp(o->type->name, "int")) return nn_error_set(NN_ERR_RUNTIME, "Overflow when unpacking long");
    return nn_error_set(NN_ERR_RUNTIME, "Could not infer dtype of %s", o ? o->type->name : "NoneType");
}

static int fill(nn_object *o, char **p, nn_dtype dt)
{
    if (is_sequence(o)) {
        for (size_t i = 0; i < seq_len(o); i++)
            if (fill(seq_item(o, i), p, dt) < 0) return -1;
        return 0;
    }
    double v;
    if (nn_dtype_is_complex(dt)) { /* both parts, of a number or a 0-dim tensor */
        double re, im = 0;
        if (nn_is_tensor(o)) {
            nn_tensor *parts = nn_dtype_is_complex(NN_TENSOR(o)->dtype) ? nn_view_as_real(NN_TENSOR(o)) : NULL;
            re = nn_get_double(parts ? parts : NN_TENSOR(o), (const int64_t[NN_MAX_DIMS]){0});
            if (parts) im = nn_get_double(parts, (const int64_t[NN_MAX_DIMS]){1});
            NN_RELEASE(parts);
        } else {
            nn_complex_parts(o, &re, &im);
        }
        nn_store_double(*p, nn_dtype_to_real(dt), re);
        nn_store_double(*p + nn_dtype_size(dt) / 2, nn_dtype_to_real(dt), im);
        *p += nn_dtype_size(dt);
        return 0;
    }
    if (nn_is_complex(o)) return nn_error_set(NN_ERR_TYPE, "must be real number, not complex");
    if (nn_is_tensor(o)) {
        v = nn_get_double(NN_TENSOR(o), (const int64_t[NN_MAX_DIMS]){0}); /* any device (the host contract) */
    } else if (dt == NN_INT64 && !nn_is_float(o)) { /* exact for large ints */
        *(int64_t *)*p = nn_int_value(o);
        *p += 8;
        return 0;
    } else {
        v = nn_float_value(o);
        if (nn_check_int_value(v, dt, false) < 0) return -1; /* torch.tensor([300], dtype=torch.uint8) */
    }
    nn_store_double(*p, dt, v);
    *p += nn_dtype_size(dt);
    return 0;
}

nn_tensor *nn_tensor_from_nested(nn_object *data, int dtype)
{
    return nn_tensor_from_nested_on(nn_default_device(), data, dtype);
}

nn_tensor *nn_tensor_from_nested_on(nn_device device, nn_object *data, int dtype)
{
    int kind = 0, tensor_dtype = -1;
    int64_t shape[NN_MAX_DIMS];
    int ndim = infer_shape(data, shape);
    if (ndim < 0 || scan(data, 0, ndim, shape, &kind, &tensor_dtype) < 0) return NULL;
    nn_dtype inferred = kind == 3 ? nn_dtype_to_complex(nn_default_dtype()) : kind == 2 ? nn_default_dtype()
                        : kind == 1 ? NN_INT64 : NN_BOOL;
    /* an empty sequence is of the default dtype */
    bool empty = false;
    for (int d = 0; d < ndim; d++) empty |= shape[d] == 0;
    if (empty && tensor_dtype < 0) inferred = nn_default_dtype();
    if (tensor_dtype >= 0) inferred = kind == 0 && !empty ? (nn_dtype)tensor_dtype : nn_promote_types((nn_dtype)tensor_dtype, inferred);
    nn_dtype dt = dtype >= 0 ? (nn_dtype)dtype : inferred;
    /* the elements laid out on the host, then one transfer to the device */
    int64_t n = 1;
    for (int d = 0; d < ndim; d++) n *= shape[d];
    char *buf = nn_malloc((size_t)n * nn_dtype_size(dt) + 1), *p = buf;
    if (!buf) return NULL;
    nn_tensor *t = fill(data, &p, dt) == 0 ? nn_from_data_on(device, buf, ndim, shape, dt) : NULL;
    nn_free(buf);
    return t;
}
