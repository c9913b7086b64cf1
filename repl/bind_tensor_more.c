/*
 * bind_tensor_more.c — the tensor methods and torch functions that pasted
 * PyTorch code reaches for and that are spellings of what exists:
 *   - PyTorch's aliases (torch.multiply = torch.mul, x.clip = x.clamp,
 *     x.swapaxes = x.transpose, ... and their in-place forms);
 *   - the in-place forms of the elementwise ops (x.exp_(), x.clamp_(max=1),
 *     x.eq_(0), ...): the result is computed by the op, then written into x as
 *     `x += y` writes (same checks, same errors, the leaf error included);
 *   - the in-place view changes (x.unsqueeze_(0), x.t_(), x.transpose_(0, 1),
 *     x.squeeze_()) and x.detach_();
 *   - view_as, expand_as, reshape_as, type_as, broadcast_to, ravel, narrow,
 *     select, movedim/moveaxis, the bitwise and logical ops, and the small predicates
 *     (ndimension, is_signed, is_same_size, is_nonzero, get_device).
 * Lookups here come last in repl_tensor_getattr: a real method always wins.
 */
#include <stdio.h>
#include <string.h>

#include "bind_int.h"
#include "nn_ops_extra.h"
#include "nn_select_more.h"

#define ARGS(n) nn_object *a[n] = {0}
static nn_object *T(nn_tensor *t) { return (nn_object *)t; }

/* ---------------------------------------------------------------- aliases */

/* torch.name(*args, **kwargs), looked up when called (the torch module of the
   running interpreter): an alias's body. */
static nn_object *call_torch(const char *name, nn_object *args, nn_object *kwargs)
{
    nn_object *torch = repl_bind_import("torch");
    nn_object *fn = torch ? repl_namespace_getattr(torch, name) : NULL;
    nn_object *r = fn ? nn_call(fn, args, kwargs) : NULL;
    NN_RELEASE(fn);
    NN_RELEASE(torch);
    return r;
}

/* PyTorch's other names of an op: torch.alias calls torch.name, x.alias is x.name. */
#define ALIASES(X) \
    X(multiply, mul, "multiply(input, other, *, out=None) -> Tensor") \
    X(divide, div, "divide(input, other, *, rounding_mode=None, out=None) -> Tensor") \
    X(subtract, sub, "subtract(input, other, *, alpha=1, out=None) -> Tensor") \
    X(true_divide, div, "true_divide(dividend, divisor, *, out) -> Tensor") \
    X(negative, neg, "negative(input, *, out=None) -> Tensor") \
    X(greater, gt, "greater(input, other, *, out=None) -> Tensor") \
    X(greater_equal, ge, "greater_equal(input, other, *, out=None) -> Tensor") \
    X(less, lt, "less(input, other, *, out=None) -> Tensor") \
    X(less_equal, le, "less_equal(input, other, *, out=None) -> Tensor") \
    X(not_equal, ne, "not_equal(input, other, *, out=None) -> Tensor") \
    X(clip, clamp, "clip(input, min=None, max=None, *, out=None) -> Tensor") \
    X(absolute, abs, "absolute(input, *, out=None) -> Tensor") \
    X(arccos, acos, "arccos(input, *, out=None) -> Tensor") \
    X(arcsin, asin, "arcsin(input, *, out=None) -> Tensor") \
    X(arctan, atan, "arctan(input, *, out=None) -> Tensor") \
    X(arctan2, atan2, "arctan2(input, other, *, out=None) -> Tensor") \
    X(arccosh, acosh, "arccosh(input, *, out=None) -> Tensor") \
    X(arcsinh, asinh, "arcsinh(input, *, out=None) -> Tensor") \
    X(arctanh, atanh, "arctanh(input, *, out=None) -> Tensor") \
    X(swapaxes, transpose, "swapaxes(input, axis0, axis1) -> Tensor") \
    X(swapdims, transpose, "swapdims(input, dim0, dim1) -> Tensor") \
    X(fix, trunc, "fix(input, *, out=None) -> Tensor") \
    X(moveaxis, movedim, "moveaxis(input, source, destination) -> Tensor")

#define ALIAS_BODY(alias, name, sig)                                                          \
    static nn_object *alias_##alias(void *ud, nn_object *args, nn_object *kwargs)             \
    {                                                                                         \
        return call_torch(#name, args, kwargs);                                               \
    }
ALIASES(ALIAS_BODY)
#define ALIAS_DEF(alias, name, sig) {#alias, alias_##alias, sig "\nAlias for torch." #name "()."},
static const repl_function_def alias_functions[] = {ALIASES(ALIAS_DEF)};
#define N_ALIASES (sizeof alias_functions / sizeof alias_functions[0])
#define ALIAS_NAME(alias, name, sig) #name,
static const char *const alias_targets[] = {ALIASES(ALIAS_NAME)};

/* The op alias names, or NULL. */
static const char *alias_of(const char *alias)
{
    for (size_t i = 0; i < N_ALIASES; i++)
        if (!strcmp(alias_functions[i].name, alias)) return alias_targets[i];
    return NULL;
}

/* t.name(*args, **kwargs): a new reference, or NULL with the error. */
static nn_object *call_method(nn_tensor *t, const char *name, nn_object *args, nn_object *kwargs)
{
    nn_object *m = repl_tensor_getattr(t, name);
    nn_object *r = m ? nn_call(m, args, kwargs) : NULL;
    NN_RELEASE(m);
    return r;
}

/* ------------------------------------------------------ in-place forms */

/* The elementwise ops whose in-place form PyTorch has (x.exp_()) and the
   bindings lack: the op's result written into x. (mul_, div_, sub_, acos_, ...
   are real methods, found before these; the aliases' in-place forms resolve
   to either.) */
static const char *const elementwise_inplace[] = {
    "abs",       "atan2",      "ceil",        "clamp",       "clamp_max",   "clamp_min",   "eq",
    "exp",       "floor",      "floor_divide", "ge",         "gt",          "hypot",       "le",
    "lerp",      "log",        "lt",          "nan_to_num",  "ne",          "neg",         "pow",
    "relu",      "remainder",  "round",       "sigmoid",     "sign",        "sqrt",        "square",
    "tanh",      "xlogy",      "logical_and", "logical_or",  "logical_xor", "logical_not", "addcmul",
    "addcdiv",   "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "fmod",         "logit",
    "scatter_reduce", "sgn",      "copysign",   "heaviside",   "gcd",         "lcm",         "renorm",
};
/* The view ops whose in-place form changes the tensor's own shape. */
static const char *const view_inplace[] = {"unsqueeze", "squeeze", "t", "transpose"};

static bool listed(const char *const *names, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(names[i], name)) return true;
    return false;
}

/* A bound in-place form: calls the op by name on self, then writes or takes
   the result. Its name is the in-place one ("exp_"). */
typedef struct inplace_method {
    nn_object ob;
    nn_tensor *self; /* owned */
    char op[32];     /* the out-of-place op: "exp" */
    bool view;       /* a view op: self takes the view instead of its values */
} inplace_method;

static void inplace_method_dealloc(nn_object *o)
{
    inplace_method *m = (inplace_method *)o;
    NN_RELEASE(m->self);
    nn_free(m);
}

static char *inplace_method_repr(nn_object *o)
{
    inplace_method *m = (inplace_method *)o;
    char buf[96];
    snprintf(buf, sizeof buf, "<built-in method %s_ of Tensor object at %p>", m->op, (void *)m->self);
    return nn_strdup(buf);
}

/* Whether a tensor among args' items or kwargs' values requires grad. */
static bool any_requires_grad(nn_object *args, nn_object *kwargs)
{
    for (size_t i = 0; i < nn_tuple_len(args); i++) {
        nn_object *o = nn_tuple_get(args, i);
        if (nn_is_tensor(o) && NN_TENSOR(o)->requires_grad) return true;
    }
    size_t pos = 0;
    nn_object *key, *value;
    while (kwargs && nn_dict_next(kwargs, &pos, &key, &value))
        if (nn_is_tensor(value) && NN_TENSOR(value)->requires_grad) return true;
    return false;
}

static nn_object *inplace_method_call(nn_object *o, nn_object *args, nn_object *kwargs)
{
    inplace_method *m = (inplace_method *)o;
    nn_tensor *t = m->self;
    /* a recorded op may save its input: computed from a copy of t that has t's history,
       so that writing t leaves what it saved intact; t (not a view) then takes the op's
       node as its history, a view CopySlices over the write */
    bool records = !m->view && nn_grad_enabled() && (t->requires_grad || any_requires_grad(args, kwargs));
    nn_tensor *src = !records ? (nn_tensor *)nn_retain(&t->ob) : t->base ? nn_clone(t) : nn_inplace_source(t);
    nn_object *r = src ? call_method(src, m->op, args, kwargs) : NULL;
    NN_RELEASE(src);
    if (!r) return NULL;
    int rc;
    if (!nn_is_tensor(r))
        rc = nn_error_set(NN_ERR_TYPE, "%s_(): the op returned %s, not a Tensor", m->op, repl_type_name(r));
    else if (m->view)
        rc = nn_become_view_(t, NN_TENSOR(r));
    else if (records && !t->base)
        rc = repl_tensor_result_fits(t, NN_TENSOR(r)) < 0 ? -1 : nn_take_result_(t, NN_TENSOR(r));
    else
        rc = repl_tensor_write_result(t, NN_TENSOR(r));
    NN_RELEASE(r);
    return rc < 0 ? NULL : nn_retain(&t->ob);
}

static const nn_type inplace_method_type = {
    .name = "builtin_function_or_method",
    .dealloc = inplace_method_dealloc,
    .repr = inplace_method_repr,
    .call = inplace_method_call,
};

static nn_object *inplace_method_new(nn_tensor *t, const char *op, bool view)
{
    inplace_method *m = nn_calloc(1, sizeof *m);
    if (!m) return NULL;
    nn_object_init(&m->ob, &inplace_method_type);
    m->self = (nn_tensor *)nn_retain(&t->ob);
    snprintf(m->op, sizeof m->op, "%s", op);
    m->view = view;
    return &m->ob;
}

/* x.detach_() */
static nn_object *m_detach_(nn_object *self, nn_object *args, nn_object *kwargs)
{
    if (repl_parse_args("detach_", "", args, kwargs, NULL)) return NULL;
    nn_detach_(NN_TENSOR(self));
    return nn_retain(self);
}

/* ----------------------------------------------------- the *_as methods */

/* x.name_as(other): x.name(other.size()) */
static nn_object *shape_as(const char *fname, const char *op, nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    nn_tensor *other = NULL;
    if (repl_parse_args(fname, "other", args, kwargs, a) || repl_arg_tensor(fname, "other", 1, a[0], &other))
        return NULL;
    nn_object *size = repl_size_new(other->ndim, other->sizes);
    nn_object *call_args = size ? nn_tuple_pack(1, size) : NULL;
    NN_RELEASE(size);
    nn_object *r = call_args ? call_method(NN_TENSOR(self), op, call_args, NULL) : NULL;
    NN_RELEASE(call_args);
    return r;
}

static nn_object *m_view_as(nn_object *self, nn_object *args, nn_object *kwargs)
{
    return shape_as("view_as", "view", self, args, kwargs);
}
static nn_object *m_expand_as(nn_object *self, nn_object *args, nn_object *kwargs)
{
    return shape_as("expand_as", "expand", self, args, kwargs);
}
static nn_object *m_reshape_as(nn_object *self, nn_object *args, nn_object *kwargs)
{
    return shape_as("reshape_as", "reshape", self, args, kwargs);
}

/* x.type_as(other): x in other's dtype */
static nn_object *m_type_as(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    nn_tensor *other = NULL;
    if (repl_parse_args("type_as", "other", args, kwargs, a) || repl_arg_tensor("type_as", "other", 1, a[0], &other))
        return NULL;
    return T(nn_to_dtype(NN_TENSOR(self), other->dtype));
}

/* x.unfold(dimension, size, step): the windows of size along dimension, step apart, as a view */
static nn_object *m_unfold(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    int64_t dim = 0, size = 0, step = 0;
    if (repl_parse_args("unfold", "dimension, size, step", args, kwargs, a) ||
        repl_arg_int("unfold", "dimension", 1, a[0], &dim) || repl_arg_int("unfold", "size", 2, a[1], &size) ||
        repl_arg_int("unfold", "step", 3, a[2], &step))
        return NULL;
    return T(nn_unfold_dim(NN_TENSOR(self), (int)dim, size, step));
}

/* ------------------------------------------------------- predicates */

static nn_object *m_ndimension(nn_object *self, nn_object *args, nn_object *kwargs)
{
    if (repl_parse_args("ndimension", "", args, kwargs, NULL)) return NULL;
    return nn_int_new(NN_TENSOR(self)->ndim);
}

static nn_object *m_is_signed(nn_object *self, nn_object *args, nn_object *kwargs)
{
    if (repl_parse_args("is_signed", "", args, kwargs, NULL)) return NULL;
    return nn_bool_new(NN_TENSOR(self)->dtype != NN_BOOL && NN_TENSOR(self)->dtype != NN_UINT8);
}

static nn_object *m_get_device(nn_object *self, nn_object *args, nn_object *kwargs)
{
    if (repl_parse_args("get_device", "", args, kwargs, NULL)) return NULL;
    nn_device d = nn_device_of(NN_TENSOR(self));
    return nn_int_new(d.type == NN_CPU ? -1 : d.index);
}

static nn_object *m_is_same_size(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    nn_tensor *other = NULL, *t = NN_TENSOR(self);
    if (repl_parse_args("is_same_size", "other", args, kwargs, a) ||
        repl_arg_tensor("is_same_size", "other", 1, a[0], &other))
        return NULL;
    return nn_bool_new(other->ndim == t->ndim && !memcmp(other->sizes, t->sizes, sizeof(int64_t) * (size_t)t->ndim));
}

static nn_object *m_is_nonzero(nn_object *self, nn_object *args, nn_object *kwargs)
{
    if (repl_parse_args("is_nonzero", "", args, kwargs, NULL)) return NULL;
    int64_t n = nn_numel(NN_TENSOR(self));
    if (n != 1)
        return nn_error_set(NN_ERR_RUNTIME, "Boolean value of Tensor with %s is ambiguous",
                            n ? "more than one value" : "no values"),
               NULL;
    int truth = repl_get_native_ops()->truth(self);
    return truth < 0 ? NULL : nn_bool_new(truth);
}

/* x.new_tensor(data, dtype=None, device=None, requires_grad=False): torch.tensor(data)
   in x's dtype and on x's device (or dtype's, device's) */
static nn_object *m_new_tensor(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    if (repl_parse_args("new_tensor", "data, *, dtype=, device=, requires_grad=", args, kwargs, a)) return NULL;
    nn_object *kw = nn_dict_new(), *data = kw ? nn_tuple_pack(1, a[0]) : NULL;
    nn_object *dev = a[2] && !nn_is_none(a[2]) ? nn_retain(a[2]) : repl_tensor_device(NN_TENSOR(self)); /* self's device by default */
    int rc = data && dev ? 0 : -1;
    if (rc == 0) rc = nn_dict_set_str(kw, "dtype", a[1] && !nn_is_none(a[1]) ? a[1] : repl_dtype_object(NN_TENSOR(self)->dtype));
    if (rc == 0) rc = nn_dict_set_str(kw, "device", dev);
    NN_RELEASE(dev);
    if (rc == 0 && a[3]) rc = nn_dict_set_str(kw, "requires_grad", a[3]);
    nn_object *r = rc == 0 ? call_torch("tensor", data, kw) : NULL;
    NN_RELEASE(kw);
    NN_RELEASE(data);
    return r;
}

static const repl_method_def more_methods[] = {
    {"new_tensor", m_new_tensor,
     "new_tensor(data, dtype=None, device=None, requires_grad=False) -> Tensor\n"
     "Returns a new Tensor with data as the tensor data. By default, the returned Tensor has the same torch.dtype and torch.device as this tensor."},
    {"detach_", m_detach_,
     "detach_() -> Tensor\n"
     "Detaches the Tensor from the graph that created it, making it a leaf."},
    {"view_as", m_view_as,
     "view_as(other) -> Tensor\n"
     "View this tensor as the same size as other."},
    {"expand_as", m_expand_as,
     "expand_as(other) -> Tensor\n"
     "Expand this tensor to the same size as other."},
    {"reshape_as", m_reshape_as,
     "reshape_as(other) -> Tensor\n"
     "Returns this tensor as the same shape as other."},
    {"unfold", m_unfold,
     "unfold(dimension, size, step) -> Tensor\n"
     "Returns a view of the original tensor which contains all slices of size size from self tensor in the dimension dimension."},
    {"type_as", m_type_as,
     "type_as(tensor) -> Tensor\n"
     "Returns this tensor cast to the type of the given tensor."},
    {"ndimension", m_ndimension,
     "ndimension() -> int\n"
     "Alias for dim()."},
    {"is_signed", m_is_signed,
     "is_signed() -> bool\n"
     "Returns True if the data type of self is a signed data type."},
    {"get_device", m_get_device,
     "get_device() -> Device ordinal (Integer)\n"
     "For CUDA tensors, returns the device ordinal of the GPU on which the tensor resides; -1 for CPU tensors."},
    {"is_same_size", m_is_same_size,
     "is_same_size(other) -> bool\n"
     "Returns True if this tensor and other have the same size."},
    {"is_nonzero", m_is_nonzero,
     "is_nonzero() -> bool\n"
     "Returns True if the single-element input tensor is not equal to zero after type conversions."},
    {NULL, NULL, NULL},
};

/* ---------------------------------------------------- torch functions */

/* torch.broadcast_to(input, size), x.broadcast_to(*size) */
static nn_object *f_broadcast_to(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *x = NULL;
    int ndim = 0;
    int64_t sizes[NN_MAX_DIMS];
    size_t n = nn_tuple_len(args);
    if (n > 2 && !kwargs) { /* the sizes as varargs */
        if (repl_arg_tensor("broadcast_to", "input", 1, nn_tuple_get(args, 0), &x) ||
            repl_shape_from_args("broadcast_to", args, 1, n - 1, &ndim, sizes))
            return NULL;
    } else if (repl_parse_args("broadcast_to", "input, size", args, kwargs, a) ||
               repl_arg_tensor("broadcast_to", "input", 1, a[0], &x) ||
               repl_shape_from_args("broadcast_to", args, 1, 1, &ndim, sizes))
        return NULL;
    return T(nn_expand(x, ndim, sizes));
}

static nn_object *f_ravel(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    nn_tensor *x = NULL;
    if (repl_parse_args("ravel", "input", args, kwargs, a) || repl_arg_tensor("ravel", "input", 1, a[0], &x))
        return NULL;
    int64_t all = -1;
    return T(nn_reshape(x, 1, &all));
}

/* A dim of x for fname, wrapped; -1 with PyTorch's IndexError. */
static int wrap_dim(nn_tensor *x, int64_t dim, int64_t *out)
{
    int64_t n = x->ndim ? x->ndim : 1;
    if (dim < -n || dim >= n)
        return nn_error_set(NN_ERR_INDEX, "Dimension out of range (expected to be in range of [%lld, %lld], but got %lld)",
                            (long long)-n, (long long)(n - 1), (long long)dim);
    *out = dim < 0 ? dim + n : dim;
    return 0;
}

static nn_object *f_narrow(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_tensor *x = NULL;
    int64_t dim = 0, start = 0, length = 0;
    if (repl_parse_args("narrow", "input, dim, start, length", args, kwargs, a) ||
        repl_arg_tensor("narrow", "input", 1, a[0], &x) || repl_arg_int("narrow", "dim", 2, a[1], &dim) ||
        repl_arg_int("narrow", "start", 3, a[2], &start) || repl_arg_int("narrow", "length", 4, a[3], &length))
        return NULL;
    if (x->ndim == 0) return nn_error_set(NN_ERR_RUNTIME, "narrow() cannot be applied to a 0-dim tensor."), NULL;
    if (wrap_dim(x, dim, &dim) < 0) return NULL;
    int64_t size = x->sizes[dim];
    if (start < -size || start > size)
        return nn_error_set(NN_ERR_INDEX, "Dimension out of range (expected to be in range of [%lld, %lld], but got %lld)",
                            (long long)-size, (long long)(size - 1), (long long)start),
               NULL;
    if (start < 0) start += size;
    if (length < 0 || start > size - length)
        return nn_error_set(NN_ERR_RUNTIME, "start (%lld) + length (%lld) exceeds dimension size (%lld).",
                            (long long)start, (long long)length, (long long)size),
               NULL;
    return T(nn_narrow(x, (int)dim, start, length));
}

static nn_object *f_select(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL;
    int64_t dim = 0, index = 0;
    if (repl_parse_args("select", "input, dim, index", args, kwargs, a) ||
        repl_arg_tensor("select", "input", 1, a[0], &x) || repl_arg_int("select", "dim", 2, a[1], &dim) ||
        repl_arg_int("select", "index", 3, a[2], &index))
        return NULL;
    if (x->ndim == 0) return nn_error_set(NN_ERR_INDEX, "select() cannot be applied to a 0-dim tensor."), NULL;
    if (wrap_dim(x, dim, &dim) < 0) return NULL;
    int64_t size = x->sizes[dim];
    char shape[256];
    if (index < -size || index >= size)
        return nn_error_set(NN_ERR_INDEX, "select(): index %lld out of range for tensor of size %s at dimension %lld",
                            (long long)index, repl_shape_text(x, shape, sizeof shape), (long long)dim),
               NULL;
    return T(nn_select(x, (int)dim, index < 0 ? index + size : index));
}

/* "[0, 1]" for PyTorch's messages */
static void dims_text(int n, const int *dims, char *buf, size_t cap)
{
    size_t k = (size_t)snprintf(buf, cap, "[");
    for (int i = 0; i < n && k < cap; i++) k += (size_t)snprintf(buf + k, cap - k, "%s%d", i ? ", " : "", dims[i]);
    if (k < cap) snprintf(buf + k, cap - k, "]");
}

/* torch.movedim(input, source, destination): the permutation that puts each
   source dim at its destination and keeps the others in order. */
static nn_object *f_movedim(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *x = NULL;
    int ns = 0, nd = 0, src[NN_MAX_DIMS], dst[NN_MAX_DIMS];
    if (repl_parse_args("movedim", "input, source, destination", args, kwargs, a) ||
        repl_arg_tensor("movedim", "input", 1, a[0], &x) || repl_arg_dims("movedim", "source", 2, a[1], &ns, src) ||
        repl_arg_dims("movedim", "destination", 3, a[2], &nd, dst))
        return NULL;
    char b1[128], b2[128];
    if (ns != nd) {
        dims_text(ns, src, b1, sizeof b1), dims_text(nd, dst, b2, sizeof b2);
        return nn_error_set(NN_ERR_RUNTIME,
                            "movedim: Invalid source or destination dims: source (%s dims) should contain the same "
                            "number of dims as destination (%s dims)",
                            b1, b2),
               NULL;
    }
    int perm[NN_MAX_DIMS], n = x->ndim;
    bool src_used[NN_MAX_DIMS] = {false}, dst_used[NN_MAX_DIMS] = {false};
    for (int i = 0; i < ns; i++) {
        int64_t s = 0, d = 0;
        if (wrap_dim(x, src[i], &s) < 0 || wrap_dim(x, dst[i], &d) < 0) return NULL;
        if (src_used[s] || dst_used[d]) {
            dims_text(ns, src_used[s] ? src : dst, b1, sizeof b1);
            return nn_error_set(NN_ERR_RUNTIME, "movedim: repeated dim in `%s` (%s)",
                                src_used[s] ? "source" : "destination", b1),
                   NULL;
        }
        src_used[s] = dst_used[d] = true;
        perm[d] = (int)s;
    }
    for (int d = 0, s = 0; d < n; d++) { /* the rest, in order */
        if (dst_used[d]) continue;
        while (src_used[s]) s++;
        perm[d] = s++;
    }
    return T(nn_permute(x, n, perm));
}

/* The logical ops: the inputs as bools (nonzero is true), combined. */
static nn_object *logical(const char *fname, repl_binop op, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *x = NULL, *y = NULL;
    if (repl_parse_args(fname, "input, other", args, kwargs, a) || repl_arg_tensor(fname, "input", 1, a[0], &x) ||
        repl_arg_tensor(fname, "other", 2, a[1], &y))
        return NULL;
    nn_tensor *bx = nn_to_dtype(x, NN_BOOL), *by = bx ? nn_to_dtype(y, NN_BOOL) : NULL;
    nn_object *r = by ? repl_tensor_binary(op, T(bx), T(by)) : NULL;
    NN_RELEASE(bx);
    NN_RELEASE(by);
    return r;
}

static nn_object *f_logical_and(void *ud, nn_object *args, nn_object *kwargs)
{
    return logical("logical_and", REPL_AND_BITS, args, kwargs);
}
static nn_object *f_logical_or(void *ud, nn_object *args, nn_object *kwargs)
{
    return logical("logical_or", REPL_OR_BITS, args, kwargs);
}
static nn_object *f_logical_xor(void *ud, nn_object *args, nn_object *kwargs)
{
    return logical("logical_xor", REPL_NE, args, kwargs);
}

/* torch.bitwise_and & co.: a & b as the operators compute it (Python numbers too) */
static nn_object *bitwise(const char *fname, repl_binop op, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    if (repl_parse_args(fname, "input, other", args, kwargs, a)) return NULL;
    if (!nn_is_tensor(a[0]))
        return nn_error_set(NN_ERR_TYPE, "%s(): argument 'input' (position 1) must be Tensor, not %s", fname,
                            repl_type_name(a[0])),
               NULL;
    nn_object *r = repl_tensor_binary(op, a[0], a[1]);
    if (!r && nn_error_current() == NN_OK)
        nn_error_set(NN_ERR_TYPE, "%s(): argument 'other' (position 2) must be Tensor or Number, not %s", fname,
                     repl_type_name(a[1]));
    return r;
}

static nn_object *f_bitwise_and(void *ud, nn_object *args, nn_object *kwargs)
{
    return bitwise("bitwise_and", REPL_AND_BITS, args, kwargs);
}
static nn_object *f_bitwise_or(void *ud, nn_object *args, nn_object *kwargs)
{
    return bitwise("bitwise_or", REPL_OR_BITS, args, kwargs);
}
static nn_object *f_bitwise_xor(void *ud, nn_object *args, nn_object *kwargs)
{
    return bitwise("bitwise_xor", REPL_XOR_BITS, args, kwargs);
}

static nn_object *f_bitwise_not(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    nn_tensor *x = NULL;
    if (repl_parse_args("bitwise_not", "input", args, kwargs, a) || repl_arg_tensor("bitwise_not", "input", 1, a[0], &x))
        return NULL;
    return T(nn_bitwise_not(x));
}

static nn_object *f_logical_not(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    nn_tensor *x = NULL;
    if (repl_parse_args("logical_not", "input", args, kwargs, a) || repl_arg_tensor("logical_not", "input", 1, a[0], &x))
        return NULL;
    nn_tensor *bx = nn_to_dtype(x, NN_BOOL);
    nn_object *r = bx ? repl_tensor_unary(REPL_INVERT, bx) : NULL;
    NN_RELEASE(bx);
    return r;
}

/* torch.addcmul(input, tensor1, tensor2, *, value=1): input + value * tensor1 *
   tensor2 (core's nn_addc, ATen's kernel); addcdiv with / t2. */
static nn_object *addc(const char *fname, bool divide, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_tensor *x = NULL, *t1 = NULL, *t2 = NULL;
    double value = 1;
    if (repl_parse_args(fname, "input, tensor1, tensor2, *, value=", args, kwargs, a) ||
        repl_arg_tensor(fname, "input", 1, a[0], &x) || repl_arg_tensor(fname, "tensor1", 2, a[1], &t1) ||
        repl_arg_tensor(fname, "tensor2", 3, a[2], &t2) || repl_arg_double(fname, "value", 0, a[3], &value))
        return NULL;
    return T(nn_addc(x, t1, t2, value, divide));
}

static nn_object *f_addcmul(void *ud, nn_object *args, nn_object *kwargs) { return addc("addcmul", false, args, kwargs); }
static nn_object *f_addcdiv(void *ud, nn_object *args, nn_object *kwargs) { return addc("addcdiv", true, args, kwargs); }

/* torch.trace(input): the sum of a matrix's diagonal */
static nn_object *f_trace(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    nn_tensor *x = NULL;
    if (repl_parse_args("trace", "input", args, kwargs, a) || repl_arg_tensor("trace", "input", 1, a[0], &x)) return NULL;
    return T(nn_trace(x));
}

/* torch.fliplr / flipud: flip dim 1 / dim 0 */
static nn_object *flip_dim(const char *fname, int dim, int min_ndim, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    nn_tensor *x = NULL;
    if (repl_parse_args(fname, "input", args, kwargs, a) || repl_arg_tensor(fname, "input", 1, a[0], &x)) return NULL;
    if (x->ndim < min_ndim) return nn_error_set(NN_ERR_RUNTIME, "Input must be >= %d-d.", min_ndim), NULL;
    nn_object *d = nn_int_new(dim), *flip_args = d ? nn_tuple_pack(1, d) : NULL;
    nn_object *r = flip_args ? call_method(x, "flip", flip_args, NULL) : NULL;
    NN_RELEASE(d);
    NN_RELEASE(flip_args);
    return r;
}

static nn_object *f_fliplr(void *ud, nn_object *args, nn_object *kwargs) { return flip_dim("fliplr", 1, 2, args, kwargs); }
static nn_object *f_flipud(void *ud, nn_object *args, nn_object *kwargs) { return flip_dim("flipud", 0, 1, args, kwargs); }

/* torch.tile(input, dims): repeat, with dims padded by leading 1s to input's rank */
static nn_object *f_tile(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_tensor *x = NULL;
    size_t n = nn_tuple_len(args);
    int nd = 0;
    int64_t reps[NN_MAX_DIMS];
    if (n < 1 || repl_arg_tensor("tile", "input", 1, nn_tuple_get(args, 0), &x)) {
        if (n < 1) nn_error_set(NN_ERR_TYPE, "tile() missing 1 required positional argument: 'dims'");
        return NULL;
    }
    if (kwargs && nn_dict_len(kwargs)) return nn_error_set(NN_ERR_TYPE, "tile() got an unexpected keyword argument"), NULL;
    if (repl_shape_from_args("tile", args, 1, n - 1, &nd, reps)) return NULL;
    int pad = x->ndim > nd ? x->ndim - nd : 0;
    if (pad + nd > NN_MAX_DIMS) return nn_error_set(NN_ERR_RUNTIME, "tile: too many dimensions"), NULL;
    nn_object *full = nn_tuple_new((size_t)(pad + nd));
    for (int i = 0; full && i < pad + nd; i++) {
        nn_object *v = nn_int_new(i < pad ? 1 : reps[i - pad]);
        if (!v) {
            NN_SET(full, NULL);
            break;
        }
        nn_tuple_set(full, (size_t)i, v);
    }
    nn_object *r = full ? call_method(x, "repeat", full, NULL) : NULL;
    NN_RELEASE(full);
    return r;
}

/* torch.hstack / vstack(tensors): cat along dim 1 (dim 0 for 1-D inputs) / dim 0
   of the inputs made at least 1-D / 2-D (a 1-D x of n as 1 x n). */
static nn_object *stack_along(const char *fname, bool vertical, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args(fname, "tensors", args, kwargs, a)) return NULL;
    nn_object *items = repl_iterable_to_list(a[0]);
    if (!items) return NULL;
    size_t n = nn_list_len(items);
    nn_object *parts = n ? nn_list_new(n) : NULL;
    bool all_1d = true;
    for (size_t i = 0; parts && i < n; i++) {
        nn_tensor *t = NULL;
        if (repl_arg_tensor(fname, "tensors", 1, nn_list_get(items, i), &t)) {
            NN_SET(parts, NULL);
            break;
        }
        int want = vertical ? 2 : 1;
        int64_t shape[2] = {1, t->ndim ? t->sizes[0] : 1};
        nn_tensor *p = t->ndim >= want ? (nn_tensor *)nn_retain(&t->ob) : nn_reshape(t, want, want == 2 ? shape : shape + 1);
        all_1d &= p && p->ndim == 1;
        if (!p || nn_list_append(parts, &p->ob) < 0) NN_SET(parts, NULL);
        NN_RELEASE(p);
    }
    NN_RELEASE(items);
    if (!n) return nn_error_set(NN_ERR_RUNTIME, "%s expects a non-empty TensorList", fname), NULL;
    if (!parts) return NULL;
    nn_object *dim = nn_int_new(vertical || all_1d ? 0 : 1);
    nn_object *cat_args = dim ? nn_tuple_pack(2, parts, dim) : NULL;
    nn_object *r = cat_args ? call_torch("cat", cat_args, NULL) : NULL;
    NN_RELEASE(parts);
    NN_RELEASE(dim);
    NN_RELEASE(cat_args);
    return r;
}

static nn_object *f_hstack(void *ud, nn_object *args, nn_object *kwargs) { return stack_along("hstack", false, args, kwargs); }
static nn_object *f_vstack(void *ud, nn_object *args, nn_object *kwargs) { return stack_along("vstack", true, args, kwargs); }

static const repl_function_def more_functions[] = {
    {"addcmul", f_addcmul,
     "addcmul(input, tensor1, tensor2, *, value=1, out=None) -> Tensor\n"
     "Performs the element-wise multiplication of tensor1 by tensor2, multiplies the result by value and adds it to input."},
    {"addcdiv", f_addcdiv,
     "addcdiv(input, tensor1, tensor2, *, value=1, out=None) -> Tensor\n"
     "Performs the element-wise division of tensor1 by tensor2, multiplies the result by value and adds it to input."},
    {"trace", f_trace,
     "trace(input) -> Tensor\n"
     "Returns the sum of the elements of the diagonal of the input 2-D matrix."},
    {"fliplr", f_fliplr,
     "fliplr(input) -> Tensor\n"
     "Flip tensor in the left/right direction, returning a new tensor."},
    {"flipud", f_flipud,
     "flipud(input) -> Tensor\n"
     "Flip tensor in the up/down direction, returning a new tensor."},
    {"tile", f_tile,
     "tile(input, dims) -> Tensor\n"
     "Constructs a tensor by repeating the elements of input. The dims argument specifies the number of repetitions in each dimension."},
    {"broadcast_to", f_broadcast_to,
     "broadcast_to(input, shape) -> Tensor\n"
     "Broadcasts input to the shape shape. Equivalent to calling input.expand(shape)."},
    {"ravel", f_ravel,
     "ravel(input) -> Tensor\n"
     "Return a contiguous flattened tensor. A copy is made only if needed."},
    {"narrow", f_narrow,
     "narrow(input, dim, start, length) -> Tensor\n"
     "Returns a new tensor that is a narrowed version of input tensor."},
    {"select", f_select,
     "select(input, dim, index) -> Tensor\n"
     "Slices the input tensor along the selected dimension at the given index."},
    {"movedim", f_movedim,
     "movedim(input, source, destination) -> Tensor\n"
     "Moves the dimension(s) of input at the position(s) in source to the position(s) in destination."},
    {"bitwise_and", f_bitwise_and,
     "bitwise_and(input, other, *, out=None) -> Tensor\n"
     "Computes the bitwise AND of input and other. The input tensor must be of integral or Boolean types."},
    {"bitwise_or", f_bitwise_or,
     "bitwise_or(input, other, *, out=None) -> Tensor\n"
     "Computes the bitwise OR of input and other. The input tensor must be of integral or Boolean types."},
    {"bitwise_xor", f_bitwise_xor,
     "bitwise_xor(input, other, *, out=None) -> Tensor\n"
     "Computes the bitwise XOR of input and other. The input tensor must be of integral or Boolean types."},
    {"bitwise_not", f_bitwise_not,
     "bitwise_not(input, *, out=None) -> Tensor\n"
     "Computes the bitwise NOT of the given input tensor. The input tensor must be of integral or Boolean types."},
    {"logical_and", f_logical_and,
     "logical_and(input, other, *, out=None) -> Tensor\n"
     "Computes the element-wise logical AND of the given input tensors. Zeros are treated as False and nonzeros are "
     "treated as True."},
    {"logical_or", f_logical_or,
     "logical_or(input, other, *, out=None) -> Tensor\n"
     "Computes the element-wise logical OR of the given input tensors."},
    {"logical_xor", f_logical_xor,
     "logical_xor(input, other, *, out=None) -> Tensor\n"
     "Computes the element-wise logical XOR of the given input tensors."},
    {"logical_not", f_logical_not,
     "logical_not(input, *, out=None) -> Tensor\n"
     "Computes the element-wise logical NOT of the given input tensor."},
};
#define N_MORE_FUNCTIONS (sizeof more_functions / sizeof more_functions[0])

/* torch functions that are not tensor methods */
static const repl_function_def torch_only_functions[] = {
    {"hstack", f_hstack,
     "hstack(tensors, *, out=None) -> Tensor\n"
     "Stack tensors in sequence horizontally (column wise)."},
    {"vstack", f_vstack,
     "vstack(tensors, *, out=None) -> Tensor\n"
     "Stack tensors in sequence vertically (row wise)."},
};

int repl_tensor_more_add_functions(nn_object *torch)
{
    return repl_namespace_add_fns(torch, more_functions, N_MORE_FUNCTIONS) ||
           repl_namespace_add_fns(torch, alias_functions, N_ALIASES) ||
           repl_namespace_add_fns(torch, torch_only_functions, sizeof torch_only_functions / sizeof torch_only_functions[0]);
}

nn_object *repl_tensor_more_method(nn_tensor *t, const char *name)
{
    nn_object *m = repl_method_lookup(more_methods, name, &t->ob);
    if (m || nn_error_current() != NN_OK) return m;
    for (size_t i = 0; i < N_MORE_FUNCTIONS; i++)
        if (!strcmp(more_functions[i].name, name)) return repl_bound_function(&more_functions[i], &t->ob);
    const char *op = alias_of(name);
    if (op) return repl_tensor_getattr(t, op);
    size_t len = strlen(name);
    char base[32];
    if (len < 2 || len > sizeof base || name[len - 1] != '_' || name[len - 2] == '_') return NULL;
    memcpy(base, name, len - 1);
    base[len - 1] = '\0';
    if ((op = alias_of(base))) { /* x.multiply_ is x.mul_ */
        char canonical[40];
        snprintf(canonical, sizeof canonical, "%s_", op);
        return repl_tensor_getattr(t, canonical);
    }
    if (listed(elementwise_inplace, sizeof elementwise_inplace / sizeof *elementwise_inplace, base))
        return inplace_method_new(t, base, false);
    if (listed(view_inplace, sizeof view_inplace / sizeof *view_inplace, base)) return inplace_method_new(t, base, true);
    return NULL;
}
