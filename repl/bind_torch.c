/*
 * bind_torch.c — the `torch` module (factories, seeds and generators, grad
 * mode context managers, print options, save/load, dtypes, torch.Tensor),
 * torch.cuda, the import table of every built-in module, and the
 * repl_native_ops that dispatch getattr/operators/indexing by object type.
 */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

#include "bind_int.h"
#include "bigint.h"
#include "eval_int.h"
#include "stdlib_int.h"
#include "bytes_int.h"

#define ARGS(n) nn_object *a[n] = {0} /* slots the spec lacks stay NULL */

/* ------------------------------------------------------------ factories */

/* The factories; like_dev (may be NULL: the default device) is the device when
   device= is not given. */
static nn_object *factory(const char *fname, nn_object *args, nn_object *kwargs, repl_factory which, int default_dtype,
                          const nn_device *like_dev)
{
    size_t count = repl_count_int_args(args, 0);
    if (count == 0 && nn_tuple_len(args) > 0) count = 1; /* a tuple, list or Size */
    ARGS(8);
    const char *spec = which == REPL_FULL
                           ? "fill_value, *, dtype=, requires_grad=, device=, layout=, out=, pin_memory=, size="
                           : "*, dtype=, requires_grad=, device=, layout=, out=, pin_memory=, generator=, size=";
    nn_device dev;
    if (repl_parse_args_from(fname, spec, args, count, kwargs, a) ||
        repl_arg_device_to(fname, a[which == REPL_FULL ? 3 : 2], &dev)) return NULL;
    nn_object *given = a[which == REPL_FULL ? 3 : 2];
    if (like_dev && (!given || nn_is_none(given))) dev = *like_dev;
    int ndim = 0;
    int64_t sizes[NN_MAX_DIMS];
    nn_object *size_kw = a[7]; /* torch.rand(size=(2, 3)): the shape as a keyword */
    if (size_kw && count) {
        nn_error_set(NN_ERR_TYPE, "%s() got multiple values for argument 'size'", fname);
        return NULL;
    }
    if (size_kw ? repl_arg_shape(fname, "size", size_kw, &ndim, sizes)
                : repl_shape_from_args(fname, args, 0, count, &ndim, sizes))
        return NULL;
    int off = which == REPL_FULL ? 1 : 0;
    int dtype = -1;
    bool rg = false;
    double fill = 0;
    if (repl_arg_dtype(fname, "dtype", 0, a[off], &dtype) || repl_arg_bool(fname, "requires_grad", 0, a[off + 1], &rg))
        return NULL;
    if (dtype < 0) dtype = default_dtype;
    if (which == REPL_FULL) {
        if (repl_arg_double(fname, "fill_value", 2, a[0], &fill)) return NULL;
        if (dtype < 0) dtype = nn_is_float(a[0]) ? nn_default_dtype() : nn_is_bool(a[0]) ? NN_BOOL : NN_INT64;
    }
    nn_dtype dt = dtype < 0 ? nn_default_dtype() : (nn_dtype)dtype;
    nn_tensor *t = NULL;
    switch (which) {
    case REPL_ZEROS: t = nn_zeros_on(dev, ndim, sizes, dt); break; /* made on the device, by its backend */
    case REPL_ONES: t = nn_ones_on(dev, ndim, sizes, dt); break;
    case REPL_FULL: t = nn_full_on(dev, ndim, sizes, fill, dt); break;
    case REPL_EMPTY: t = nn_empty_on(dev, ndim, sizes, dt); break;
    case REPL_RAND: REPL_WITH_GENERATOR(fname, a[6], t = nn_rand_on(dev, ndim, sizes, dt)); break;
    case REPL_RANDN: REPL_WITH_GENERATOR(fname, a[6], t = nn_randn_on(dev, ndim, sizes, dt)); break;
    }
    if (t && rg && nn_set_requires_grad(t, true)) NN_SET(t, NULL);
    return (nn_object *)t;
}

nn_object *repl_tensor_factory(const char *fname, nn_object *args, nn_object *kwargs, repl_factory which,
                               int default_dtype)
{
    return factory(fname, args, kwargs, which, default_dtype, NULL);
}

nn_object *repl_tensor_factory_like(const char *fname, nn_object *args, nn_object *kwargs, repl_factory which,
                                    const nn_tensor *like)
{
    nn_device dev = nn_device_of(like);
    return factory(fname, args, kwargs, which, (int)like->dtype, &dev);
}

static nn_object *f_zeros(void *ud, nn_object *args, nn_object *kwargs)
{
    return repl_tensor_factory("zeros", args, kwargs, REPL_ZEROS, -1);
}
static nn_object *f_ones(void *ud, nn_object *args, nn_object *kwargs)
{
    return repl_tensor_factory("ones", args, kwargs, REPL_ONES, -1);
}
static nn_object *f_empty(void *ud, nn_object *args, nn_object *kwargs)
{
    return repl_tensor_factory("empty", args, kwargs, REPL_EMPTY, -1);
}
static nn_object *f_rand(void *ud, nn_object *args, nn_object *kwargs)
{
    return repl_tensor_factory("rand", args, kwargs, REPL_RAND, -1);
}
static nn_object *f_randn(void *ud, nn_object *args, nn_object *kwargs)
{
    return repl_tensor_factory("randn", args, kwargs, REPL_RANDN, -1);
}

static nn_object *f_full(void *ud, nn_object *args, nn_object *kwargs)
{
    /* full(size, fill_value, *, dtype=...) */
    ARGS(7);
    nn_device dev;
    if (repl_parse_args("full", "size, fill_value, *, dtype=, requires_grad=, device=, layout=, out=", args, kwargs, a) ||
        repl_arg_device_to("full", a[4], &dev))
        return NULL;
    int ndim = 0, dtype = -1;
    int64_t sizes[NN_MAX_DIMS];
    double fill = 0;
    bool rg = false;
    bool cx = nn_is_complex(a[1]);
    if (repl_arg_shape("full", "size", a[0], &ndim, sizes) || (!cx && repl_arg_double("full", "fill_value", 2, a[1], &fill)) ||
        repl_arg_dtype("full", "dtype", 0, a[2], &dtype) || repl_arg_bool("full", "requires_grad", 0, a[3], &rg))
        return NULL;
    if (dtype < 0)
        dtype = cx ? nn_dtype_to_complex(nn_default_dtype())
                   : nn_is_float(a[1]) ? nn_default_dtype() : nn_is_bool(a[1]) ? NN_BOOL : NN_INT64;
    nn_tensor *t = cx ? nn_empty_on(dev, ndim, sizes, (nn_dtype)dtype) : nn_full_on(dev, ndim, sizes, fill, (nn_dtype)dtype);
    if (t && cx && repl_fill_complex(t, a[1]) < 0) NN_SET(t, NULL);
    if (t && rg && nn_set_requires_grad(t, true)) NN_SET(t, NULL);
    return (nn_object *)t;
}

static nn_object *like(const char *fname, nn_object *args, nn_object *kwargs, int which)
{
    ARGS(7);
    nn_tensor *x = NULL;
    /* memory_format: accepted; the result is contiguous (as preserve_format of a contiguous input) */
    const char *spec = which == 2 ? "input, fill_value, *, dtype=, requires_grad=, device=, layout=, memory_format="
                                  : "input, *, dtype=, requires_grad=, device=, layout=, memory_format=";
    nn_device dev;
    if (repl_parse_args(fname, spec, args, kwargs, a) || repl_arg_tensor(fname, "input", 1, a[0], &x) ||
        repl_arg_device_to(fname, a[which == 2 ? 4 : 3], &dev))
        return NULL;
    nn_object *given = a[which == 2 ? 4 : 3];
    if (!given || nn_is_none(given)) dev = nn_device_of(x); /* _like keeps the input's device */
    int off = which == 2 ? 2 : 1, dtype = -1;
    bool rg = false;
    double fill = 0;
    if (repl_arg_dtype(fname, "dtype", 0, a[off], &dtype) || repl_arg_bool(fname, "requires_grad", 0, a[off + 1], &rg))
        return NULL;
    bool cx = which == 2 && nn_is_complex(a[1]);
    if (which == 2 && !cx && repl_arg_double(fname, "fill_value", 2, a[1], &fill)) return NULL;
    nn_dtype dt = dtype < 0 ? x->dtype : (nn_dtype)dtype;
    nn_tensor *t = NULL;
    switch (which) {
    case 0: t = nn_zeros_on(dev, x->ndim, x->sizes, dt); break;
    case 1: t = nn_ones_on(dev, x->ndim, x->sizes, dt); break;
    case 2:
        t = nn_full_on(dev, x->ndim, x->sizes, fill, dt);
        if (t && cx && repl_fill_complex(t, a[1]) < 0) NN_SET(t, NULL);
        break;
    case 3: t = nn_empty_on(dev, x->ndim, x->sizes, dt); break;
    case 4: t = nn_rand_on(dev, x->ndim, x->sizes, dt); break;
    case 5: t = nn_randn_on(dev, x->ndim, x->sizes, dt); break;
    }
    if (t && rg && nn_set_requires_grad(t, true)) NN_SET(t, NULL);
    return (nn_object *)t;
}

static nn_object *f_zeros_like(void *ud, nn_object *args, nn_object *kwargs) { return like("zeros_like", args, kwargs, 0); }
static nn_object *f_ones_like(void *ud, nn_object *args, nn_object *kwargs) { return like("ones_like", args, kwargs, 1); }
static nn_object *f_full_like(void *ud, nn_object *args, nn_object *kwargs) { return like("full_like", args, kwargs, 2); }
static nn_object *f_empty_like(void *ud, nn_object *args, nn_object *kwargs) { return like("empty_like", args, kwargs, 3); }
static nn_object *f_rand_like(void *ud, nn_object *args, nn_object *kwargs) { return like("rand_like", args, kwargs, 4); }
static nn_object *f_randn_like(void *ud, nn_object *args, nn_object *kwargs) { return like("randn_like", args, kwargs, 5); }

/* A sequence written in the language (collections.deque, a user's class with __len__
   and __getitem__), which PyTorch reads as the sequence it is; not an ndarray (read
   as its elements) nor a subclass of a built-in value (repl_deep_values). */
static bool is_lang_sequence(nn_object *o)
{
    if (o->type != &repl_instance_type || repl_numpy_tensor_of(o)) return false;
    const class_obj *c = ((instance_obj *)o)->cls;
    return repl_class_lookup(c, "__len__") && repl_class_lookup(c, "__getitem__");
}

static nn_object *f_tensor(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    int dtype = -1;
    bool rg = false;
    nn_device dev;
    if (repl_parse_args("tensor", "data, *, dtype=, device=, requires_grad=, pin_memory=", args, kwargs, a) ||
        repl_arg_device_to("tensor", a[2], &dev) ||
        repl_arg_dtype("tensor", "dtype", 0, a[1], &dtype) || repl_arg_bool("tensor", "requires_grad", 0, a[3], &rg))
        return NULL;
    if (nn_is_tensor(a[0])) { /* torch.tensor(t): a detached copy, with PyTorch's warning */
        if (nn_warn("UserWarning", "%s",
                    "To copy construct from a tensor, it is recommended to use sourceTensor.clone().detach() or "
                    "sourceTensor.clone().detach().requires_grad_(True), rather than torch.tensor(sourceTensor)."))
            return NULL;
        nn_tensor *src = (nn_tensor *)a[0], *d = nn_detach(src);
        nn_tensor *c = d ? nn_to_dtype(d, dtype < 0 ? src->dtype : (nn_dtype)dtype) : NULL;
        if (c && c == d) NN_SET(c, nn_clone(d));
        NN_RELEASE(d);
        nn_tensor *t = c ? repl_tensor_on(c, a[2] && !nn_is_none(a[2]) ? dev : nn_device_of(src)) : NULL;
        if (t && rg && nn_set_requires_grad(t, true)) NN_SET(t, NULL);
        return (nn_object *)t;
    }
    nn_object *seq = NULL; /* owned: a range's list (a range is a sequence: torch.tensor(range(4))) */
    if (a[0] && a[0]->type == &repl_range_type && !(a[0] = seq = repl_to_list(a[0]))) return NULL;
    if (a[0] && !seq && is_lang_sequence(a[0]) && !(a[0] = seq = repl_to_list(a[0]))) return NULL; /* a deque */
    if (a[0] && !seq && !(a[0] = seq = repl_deep_values(a[0]))) return NULL; /* namedtuples, MyFloat(...) */
    if (repl_numpy_unconvertible(a[0])) {
        NN_RELEASE(seq);
        return NULL;
    }
    nn_tensor *np = repl_numpy_tensor_of(a[0]); /* torch.tensor(ndarray): a copy of its elements */
    nn_tensor *t = np ? repl_tensor_on(nn_to_dtype(np, dtype < 0 ? np->dtype : (nn_dtype)dtype), dev)
                      : nn_tensor_from_nested_on(dev, a[0], dtype); /* laid out on the host, one transfer to dev */
    if (t && np == t) NN_SET(t, nn_clone(np));
    if (t && rg && nn_set_requires_grad(t, true)) NN_SET(t, NULL);
    NN_RELEASE(seq);
    return (nn_object *)t;
}

static nn_object *f_randint(void *ud, nn_object *args, nn_object *kwargs)
{
    /* randint(high, size) or randint(low, high, size); each may be given by name */
    ARGS(10);
    nn_device dev;
    if (repl_parse_args("randint", "a=, b=, c=, *, dtype=, generator=, device=, requires_grad=, size=, low=, high=", args,
                        kwargs, a) ||
        repl_arg_device_to("randint", a[5], &dev))
        return NULL;
    nn_object *pos[3];
    int npos = 0;
    for (int i = 0; i < 3; i++)
        if (a[i]) pos[npos++] = a[i];
    nn_object *size = a[7] ? a[7] : npos ? pos[--npos] : NULL;
    nn_object *lo = a[8], *hi = a[9];
    if (npos == 2 && !lo && !hi) lo = pos[0], hi = pos[1];
    else if (npos == 1 && !hi) hi = pos[0];
    else if (npos == 1 && !lo) lo = pos[0];
    else if (npos) hi = NULL;
    if (!size || !hi)
        return repl_raise_exc(EXC_TypeError, "randint() missing required argument '%s'", !hi ? "high" : "size"), NULL;
    int64_t low = 0, high = 0;
    if ((lo && repl_arg_int("randint", "low", 1, lo, &low)) || repl_arg_int("randint", "high", lo ? 2 : 1, hi, &high))
        return NULL;
    int ndim = 0, dtype = -1;
    int64_t sizes[NN_MAX_DIMS];
    if (repl_arg_shape("randint", "size", size, &ndim, sizes) || repl_arg_dtype("randint", "dtype", 0, a[3], &dtype))
        return NULL;
    nn_tensor *t = NULL;
    REPL_WITH_GENERATOR("randint", a[4], t = nn_randint_on(dev, low, high, ndim, sizes, dtype < 0 ? NN_INT64 : (nn_dtype)dtype));
    return (nn_object *)t;
}

static nn_object *f_randperm(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    int64_t n = 0;
    int dtype = -1;
    nn_device dev;
    if (repl_parse_args("randperm", "n, *, dtype=, generator=, device=, requires_grad=", args, kwargs, a) ||
        repl_arg_device_to("randperm", a[3], &dev) ||
        repl_arg_int("randperm", "n", 1, a[0], &n) || repl_arg_dtype("randperm", "dtype", 0, a[1], &dtype))
        return NULL;
    nn_tensor *t = NULL;
    REPL_WITH_GENERATOR("randperm", a[2], t = nn_randperm_on(dev, n, dtype < 0 ? NN_INT64 : (nn_dtype)dtype));
    return (nn_object *)t;
}

static bool is_number(const nn_object *o) { return nn_is_int(o) || nn_is_float(o) || nn_is_bool(o); }

static nn_object *f_arange(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(7);
    nn_device dev;
    if (repl_parse_args("arange", "start, end=, step=, *, dtype=, device=, requires_grad=, out=", args, kwargs, a) ||
        repl_arg_device_to("arange", a[4], &dev))
        return NULL;
    double s = 0, e = 0, st = 1;
    bool all_int = true;
    nn_object *parts[3] = {a[1] ? a[0] : NULL, a[1] ? a[1] : a[0], a[2]};
    for (int i = 0; i < 3; i++) {
        if (!parts[i]) continue;
        if (repl_is_bigint(parts[i])) return repl_bigint_torch_overflow();
        if (!is_number(parts[i]) && !nn_is_tensor(parts[i])) {
            nn_error_set(NN_ERR_TYPE, "arange(): argument 'end' must be Number, not %s", repl_type_name(parts[i]));
            return NULL;
        }
        if (nn_is_float(parts[i]) || (nn_is_tensor(parts[i]) && nn_dtype_is_floating(NN_TENSOR(parts[i])->dtype)))
            all_int = false;
    }
    int dtype = -1;
    bool rg = false;
    if (repl_arg_double("arange", "start", 1, parts[0], &s) || repl_arg_double("arange", "end", 2, parts[1], &e) ||
        repl_arg_double("arange", "step", 3, parts[2], &st) || repl_arg_dtype("arange", "dtype", 0, a[3], &dtype) ||
        repl_arg_bool("arange", "requires_grad", 0, a[5], &rg))
        return NULL;
    nn_tensor *t = nn_arange_on(dev, s, e, st, all_int, dtype);
    if (t && rg && nn_set_requires_grad(t, true)) NN_SET(t, NULL);
    return (nn_object *)t;
}

/* Applies a factory's requires_grad= argument (borrowed; NULL means False) to t
   (taken); returns t, or NULL with the error. */
static nn_object *requiring_grad(const char *fname, nn_tensor *t, nn_object *flag)
{
    bool rg = false;
    if (t && repl_arg_bool(fname, "requires_grad", 0, flag, &rg) < 0) NN_SET(t, NULL);
    if (t && rg && nn_set_requires_grad(t, true) < 0) NN_SET(t, NULL);
    return (nn_object *)t;
}

static nn_object *f_linspace(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(6);
    double s = 0, e = 0;
    int64_t n = 0;
    int dtype = -1;
    nn_device dev;
    if (repl_parse_args("linspace", "start, end, steps, *, dtype=, device=, requires_grad=", args, kwargs, a) ||
        repl_arg_device_to("linspace", a[4], &dev) ||
        repl_arg_double("linspace", "start", 1, a[0], &s) || repl_arg_double("linspace", "end", 2, a[1], &e) ||
        repl_arg_int("linspace", "steps", 3, a[2], &n) || repl_arg_dtype("linspace", "dtype", 0, a[3], &dtype))
        return NULL;
    return requiring_grad("linspace", nn_linspace_on(dev, s, e, n, dtype < 0 ? nn_default_dtype() : (nn_dtype)dtype), a[5]);
}

static nn_object *f_logspace(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(7);
    double s = 0, e = 0, base = 10;
    int64_t n = 0;
    int dtype = -1;
    nn_device dev;
    if (repl_parse_args("logspace", "start, end, steps, base=, *, dtype=, device=, requires_grad=", args, kwargs, a) ||
        repl_arg_device_to("logspace", a[5], &dev) ||
        repl_arg_double("logspace", "start", 1, a[0], &s) || repl_arg_double("logspace", "end", 2, a[1], &e) ||
        repl_arg_int("logspace", "steps", 3, a[2], &n) || (a[3] && repl_arg_double("logspace", "base", 4, a[3], &base)) ||
        repl_arg_dtype("logspace", "dtype", 0, a[4], &dtype))
        return NULL;
    return requiring_grad("logspace", nn_logspace_on(dev, s, e, n, base, dtype < 0 ? nn_default_dtype() : (nn_dtype)dtype),
                          a[6]);
}

static nn_object *f_eye(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    int64_t n = 0, m = -1;
    int dtype = -1;
    nn_device dev;
    if (repl_parse_args("eye", "n, m=, *, dtype=, device=, requires_grad=", args, kwargs, a) ||
        repl_arg_device_to("eye", a[3], &dev) ||
        repl_arg_int("eye", "n", 1, a[0], &n) || repl_arg_int("eye", "m", 2, a[1], &m) ||
        repl_arg_dtype("eye", "dtype", 0, a[2], &dtype))
        return NULL;
    return requiring_grad("eye", nn_eye_on(dev, n, m < 0 ? n : m, dtype < 0 ? nn_default_dtype() : (nn_dtype)dtype), a[4]);
}

/* generators: bind_random.c */

/* ------------------------------------------------------ grad mode contexts */

typedef struct gradctx {
    nn_object ob;
    bool enable; /* the mode inside */
    int depth;
    bool prev[16];
    /* set_grad_enabled(mode) applies mode when called; its __enter__ then only
       remembers the mode from before the call, for __exit__ to restore */
    bool applied;
    bool applied_prev;
} gradctx;

static void gradctx_dealloc(nn_object *self) { nn_free(self); }

static char *gradctx_repr(nn_object *self)
{
    char buf[96];
    snprintf(buf, sizeof buf, "<torch.autograd.grad_mode.%s object at %p>",
             ((gradctx *)self)->enable ? "enable_grad" : "no_grad", (void *)self);
    return nn_strdup(buf);
}

/* @torch.no_grad() on a function: a wrapper that calls it with the context's mode. */
typedef struct grad_wrap {
    nn_object *fn;
    bool enable;
} grad_wrap;

static void grad_wrap_free(void *ud)
{
    grad_wrap *w = ud;
    NN_RELEASE(w->fn);
    nn_free(w);
}

static nn_object *grad_wrap_call(void *ud, nn_object *args, nn_object *kwargs)
{
    grad_wrap *w = ud;
    bool prev = nn_set_grad_enabled(w->enable);
    nn_object *r = nn_call(w->fn, args, kwargs);
    nn_set_grad_enabled(prev);
    return r;
}

static nn_object *gradctx_call(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args("__call__", "self, func", args, kwargs, a)) return NULL;
    if (!a[0]->type->call) {
        nn_error_set(NN_ERR_TYPE, "'%s' object is not callable", repl_type_name(a[0]));
        return NULL;
    }
    grad_wrap *w = nn_malloc(sizeof *w);
    if (!w) return NULL;
    w->fn = nn_retain(a[0]);
    w->enable = ((gradctx *)self)->enable;
    nn_object *f = nn_cfunction_new("decorate_context", grad_wrap_call, w, grad_wrap_free);
    if (!f) grad_wrap_free(w);
    return f;
}

static const nn_type gradctx_type = {
    .name = "no_grad", .dealloc = gradctx_dealloc, .repr = gradctx_repr, .call = gradctx_call};

static nn_object *gradctx_enter(nn_object *self, nn_object *args, nn_object *kwargs)
{
    gradctx *c = (gradctx *)self;
    bool prev = c->applied ? c->applied_prev : nn_set_grad_enabled(c->enable);
    c->applied = false;
    if (c->depth < 16) c->prev[c->depth] = prev;
    c->depth++;
    return nn_retain(nn_none());
}

static nn_object *gradctx_exit(nn_object *self, nn_object *args, nn_object *kwargs)
{
    gradctx *c = (gradctx *)self;
    if (c->depth > 0) {
        c->depth--;
        nn_set_grad_enabled(c->depth < 16 ? c->prev[c->depth] : true);
    }
    return nn_bool_new(false);
}

static const repl_method_def gradctx_methods[] = {
    {"__enter__", gradctx_enter,
     "__enter__()\n"
     "Enters the context: sets the grad mode of the context manager."},
    {"__exit__", gradctx_exit,
     "__exit__(exc_type, exc_value, traceback)\n"
     "Leaves the context: restores the previous grad mode."},
    {NULL, NULL, NULL},
};

static nn_object *gradctx_new(bool enable)
{
    gradctx *c = nn_calloc(1, sizeof *c);
    if (!c) return NULL;
    nn_object_init(&c->ob, &gradctx_type);
    c->enable = enable;
    return &c->ob;
}

static nn_object *f_no_grad(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args("no_grad.__init__", "self", args, kwargs, a)) return NULL;
    return gradctx_new(false);
}

static nn_object *f_enable_grad(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args("enable_grad.__init__", "self", args, kwargs, a)) return NULL;
    return gradctx_new(true);
}

static nn_object *f_is_grad_enabled(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args("is_grad_enabled", "", args, kwargs, a)) return NULL;
    return nn_bool_new(nn_grad_enabled());
}

static nn_object *f_set_grad_enabled(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    bool mode = true;
    if (repl_parse_args("set_grad_enabled", "mode", args, kwargs, a) ||
        repl_arg_bool("set_grad_enabled", "mode", 1, a[0], &mode))
        return NULL;
    gradctx *c = (gradctx *)gradctx_new(mode);
    if (!c) return NULL;
    c->applied = true;
    c->applied_prev = nn_set_grad_enabled(mode);
    return &c->ob;
}

/* ----------------------------------------------------------- misc torch */

static nn_object *f_set_printoptions(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(6);
    nn_print_options *po = nn_print_options_get();
    int64_t precision = po->precision, threshold = po->threshold, edge = po->edgeitems, lw = po->linewidth;
    if (repl_parse_args("set_printoptions", "precision=, threshold=, edgeitems=, linewidth=, profile=, sci_mode=",
                        args, kwargs, a))
        return NULL;
    const char *profile = NULL;
    if (repl_arg_str("set_printoptions", "profile", 5, a[4], &profile)) return NULL;
    if (profile) {
        if (!strcmp(profile, "default")) precision = 4, threshold = 1000, edge = 3, lw = 80;
        else if (!strcmp(profile, "short")) precision = 2, threshold = 1000, edge = 2, lw = 80;
        else if (!strcmp(profile, "full")) precision = 4, threshold = INT64_MAX, edge = 3, lw = 80;
    }
    if ((a[0] && !nn_is_none(a[0]) && repl_arg_int("set_printoptions", "precision", 1, a[0], &precision)) ||
        (a[1] && !nn_is_none(a[1]) && repl_arg_int("set_printoptions", "threshold", 2, a[1], &threshold)) ||
        (a[2] && !nn_is_none(a[2]) && repl_arg_int("set_printoptions", "edgeitems", 3, a[2], &edge)) ||
        (a[3] && !nn_is_none(a[3]) && repl_arg_int("set_printoptions", "linewidth", 4, a[3], &lw)))
        return NULL;
    po->precision = (int)precision;
    po->threshold = threshold;
    po->edgeitems = (int)edge;
    po->linewidth = (int)lw;
    /* as 1.13: sci_mode is set by every call (None when not given) */
    po->sci_mode = !a[5] || nn_is_none(a[5]) ? -1 : nn_is_true(a[5]) ? 1 : 0;
    return nn_retain(nn_none());
}

static nn_object *f_save(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(5);
    if (repl_parse_args("save", "obj, f, pickle_module=, pickle_protocol=, _use_new_zipfile_serialization=", args, kwargs,
                        a))
        return NULL;
    if (a[3] && !(nn_is_int(a[3]) && nn_int_value(a[3]) == 2)) {
        nn_error_set(NN_ERR_VALUE, "torch.save in nnscope writes pickle protocol 2 (PyTorch's default) only");
        return NULL;
    }
    if (a[4] && repl_truth(a[4]) == 0) {
        nn_error_set(NN_ERR_VALUE, "torch.save in nnscope writes the zip format only (_use_new_zipfile_serialization=True)");
        return NULL;
    }
    bool stream = repl_torch_file_is_stream(a[1]); /* io.BytesIO: through its write() */
    nn_object *path = stream ? NULL : repl_torch_file_path("save", a[1]); /* a str, a pathlib.Path, a file from open() */
    const nn_pickle_hooks *prev = nn_pickle_set_hooks(repl_torch_pickle_hooks()); /* whole modules, by class */
    void *bytes = NULL;
    size_t len = 0;
    int rc = stream ? nn_torch_save_bytes(a[0], &bytes, &len) : path ? nn_torch_save_file(a[0], nn_str_cstr(path)) : -1;
    nn_pickle_set_hooks(prev);
    if (stream && rc == 0) rc = repl_torch_stream_write(a[1], bytes, len);
    nn_free(bytes);
    NN_RELEASE(path);
    return rc ? NULL : nn_retain(nn_none());
}

/* map_location(storage, location) as PyTorch 1.13 calls it: storage is a
   torch.storage.UntypedStorage of the storage's bytes on the CPU (repl/mod_torch_storage.c),
   and what it returns is the storage to use (None: the default place). A storage
   of the right byte count but another dtype (a slice, one made from bytes) is
   taken byte for byte, as PyTorch's TypedStorage(wrap_storage=...) does. */
static nn_tensor *restore_by_call(void *ud, nn_tensor *cpu, const char *location)
{
    nn_object *loc = nn_str_new(location), *st = loc ? repl_storage_wrap(cpu) : NULL;
    nn_object *argv[2] = {st, loc};
    nn_object *r = st ? repl_call_object(ud, argv, 2, NULL) : NULL;
    NN_RELEASE(loc);
    NN_RELEASE(st);
    if (!r) return NULL;
    if (nn_is_none(r)) {
        NN_RELEASE(r);
        return nn_restore_location(cpu, location);
    }
    bool is_storage = false;
    nn_tensor *t = repl_storage_unwrap(r, &is_storage);
    if (!is_storage) {
        nn_error_set(NN_ERR_TYPE,
                     "TypedStorage.__init__ received an invalid combination of arguments. Expected one of:\n"
                     " * (*, torch.device device, torch.dtype dtype)\n"
                     " * (int size, *, torch.device device, torch.dtype dtype)\n"
                     " * (Sequence data, *, torch.device device, torch.dtype dtype)\n"
                     " * (*, UntypedStorage wrap_storage, torch.dtype dtype)\n"
                     "Argument 'wrap_storage' must be UntypedStorage, but got <class '%s'>",
                     nn_is_tensor(r) ? "torch.Tensor" : repl_type_name(r));
    }
    NN_RELEASE(r);
    size_t want = (size_t)nn_numel(cpu) * nn_dtype_size(cpu->dtype);
    if (t && t->dtype != cpu->dtype && (size_t)nn_numel(t) * nn_dtype_size(t->dtype) == want) {
        /* the same bytes in the loaded dtype, on the storage's device */
        nn_tensor *hold = NULL, *typed = nn_empty_on(nn_device_of(t), 1, (const int64_t[]){nn_numel(cpu)}, cpu->dtype);
        const void *bytes = typed && want ? nn_host_read(t, &hold) : NULL;
        if (typed && want && (!bytes || nn_host_write(typed, bytes) < 0)) NN_SET(typed, NULL);
        NN_RELEASE(hold);
        NN_SET(t, typed);
    }
    return t;
}

static nn_object *f_load(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    if (repl_parse_args("load", "f, map_location=, pickle_module=, *, weights_only=", args, kwargs, a)) return NULL;
    bool stream = repl_torch_file_is_stream(a[0]);
    nn_object *bytes = stream ? repl_torch_stream_read(a[0]) : NULL; /* io.BytesIO */
    if (stream && !bytes) return NULL;
    nn_object *path_obj = bytes ? NULL : repl_torch_file_path("load", a[0]); /* a str, a pathlib.Path, a file from open() */
    if (!path_obj && !bytes) return NULL;
    const char *path = bytes ? NULL : nn_str_cstr(path_obj);
    if (path && access(path, R_OK) != 0) { /* FileNotFoundError: [Errno 2] No such file or directory: 'x', as open() */
        repl_mod_os_error(errno, path);
        NN_RELEASE(path_obj);
        return NULL;
    }
    nn_object *where = a[1], *made = NULL;
    if (where && repl_is_device(where)) { /* torch.device("cpu") -> "cpu" */
        char *s = nn_str(where);
        made = s ? nn_str_new(s) : NULL;
        nn_free(s);
        if (!made) {
            NN_RELEASE(path_obj);
            NN_RELEASE(bytes);
            return NULL;
        }
        where = made;
    }
    /* weights_only=False (1.13's default): the classes of __main__, the script's files and torch.nn too */
    bool weights_only = a[3] && repl_truth(a[3]) == 1;
    const nn_pickle_hooks *prev = nn_pickle_set_hooks(weights_only ? NULL : repl_torch_pickle_hooks());
    bool by_call = where && !nn_is_none(where) && !nn_is_str(where) && !nn_is_dict(where); /* a callable */
    nn_object *obj = bytes ? (by_call ? nn_torch_load_bytes_with(repl_bytes_data(bytes), repl_bytes_len(bytes),
                                                                  restore_by_call, where)
                                      : nn_torch_load_bytes(repl_bytes_data(bytes), repl_bytes_len(bytes), where))
                     : by_call ? nn_torch_load_file_with(path, restore_by_call, where)
                               : nn_torch_load_file(path, where);
    nn_pickle_set_hooks(prev);
    NN_RELEASE(made);
    NN_RELEASE(path_obj);
    NN_RELEASE(bytes);
    return obj;
}

/* torch.autograd.Variable(data, requires_grad=False): since PyTorch 0.4 a
   tensor: a new leaf sharing data's memory (requires_grad set when given). */
static nn_object *f_variable(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    nn_tensor *t = NULL;
    bool rg = false;
    if (repl_parse_args("Variable", "data, requires_grad=, volatile=", args, kwargs, a) ||
        repl_arg_tensor("Variable", "data", 1, a[0], &t) || repl_arg_bool("Variable", "requires_grad", 2, a[1], &rg))
        return NULL;
    nn_tensor *v = nn_detach(t); /* a new leaf over data's memory, as PyTorch's */
    if (v && rg && nn_set_requires_grad(v, true)) NN_SET(v, NULL);
    return (nn_object *)v;
}

static nn_object *f_is_tensor(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args("is_tensor", "obj", args, kwargs, a)) return NULL;
    return nn_bool_new(nn_is_tensor(a[0]));
}

static nn_object *f_numel(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    nn_tensor *x = NULL;
    if (repl_parse_args("numel", "input", args, kwargs, a) || repl_arg_tensor("numel", "input", 1, a[0], &x))
        return NULL;
    return nn_int_new(nn_numel(x));
}

static nn_object *f_false(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args("is_available", "", args, kwargs, a)) return NULL;
    return nn_bool_new(repl_cuda_available());
}

static nn_object *f_device_count(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args("device_count", "", args, kwargs, a)) return NULL;
    return nn_int_new(repl_cuda_available() ? 1 : 0);
}

/* torch.cuda.manual_seed(seed), manual_seed_all(seed): on a build without CUDA, PyTorch
   queues the seeding for a device that never comes, so the CPU's generator is untouched */
static nn_object *cuda_seed(const char *name, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args(name, "seed", args, kwargs, a)) return NULL;
    nn_object *seed = repl_call_object((nn_object *)repl_current->int_cls, &a[0], 1, NULL); /* int(seed), as PyTorch */
    if (!seed) return NULL;
    NN_RELEASE(seed);
    return nn_none();
}
static nn_object *f_cuda_seed(void *ud, nn_object *args, nn_object *kwargs) { return cuda_seed("manual_seed", args, kwargs); }
static nn_object *f_cuda_seed_all(void *ud, nn_object *args, nn_object *kwargs) { return cuda_seed("manual_seed_all", args, kwargs); }

static nn_object *f_device(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    const char *s = NULL;
    int64_t index = -1;
    if (repl_parse_args("device", "type, index=", args, kwargs, a)) return NULL;
    if (repl_is_device(a[0])) return nn_retain(a[0]);
    if (repl_arg_str("device", "type", 1, a[0], &s) || repl_arg_int("device", "index", 2, a[1], &index)) return NULL;
    return repl_device_new(s ? s : "", index);
}

/* torch.Tensor(...) constructs like torch.tensor for data, torch.empty for sizes. */
static nn_object *tensor_ctor(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *from_np;
    if (nn_tuple_len(args) == 1 && repl_numpy_legacy_new(nn_tuple_get(args, 0), nn_default_dtype(), &from_np))
        return from_np; /* torch.Tensor(ndarray): as FloatTensor's */
    if (nn_tuple_len(args) == 1 && !nn_is_int(nn_tuple_get(args, 0))) {
        nn_object *v = repl_deep_values(nn_tuple_get(args, 0));
        nn_tensor *t = v ? nn_tensor_from_nested(v, nn_default_dtype()) : NULL;
        NN_RELEASE(v);
        return (nn_object *)t;
    }
    if (nn_tuple_len(args) == 0 && !(kwargs && nn_dict_len(kwargs))) /* torch.Tensor(): tensor([]) */
        return (nn_object *)nn_empty(1, (const int64_t[]){0}, nn_default_dtype());
    return repl_tensor_factory("Tensor", args, kwargs, REPL_EMPTY, -1);
}

/* torch.Size(iterable=()): the ints of a list, tuple or Size. */
static nn_object *size_ctor(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    int ndim = 0;
    int64_t sizes[NN_MAX_DIMS];
    if (repl_parse_args("Size", "iterable=", args, kwargs, a) || (a[0] && repl_arg_shape("Size", "iterable", a[0], &ndim, sizes)))
        return NULL;
    return repl_size_new(ndim, sizes);
}

static const repl_class_def tensor_class = {"Tensor", "torch.Tensor", tensor_ctor, &nn_tensor_type, NULL,
     "Tensor(data)\n"
     "A multi-dimensional matrix containing elements of a single data type; Tensor(*size) is torch.empty(*size).", repl_tensor_method_at};
static const repl_class_def dtype_class = {"dtype", "torch.dtype", NULL, &repl_dtype_type, NULL,
     "dtype()\n"
     "The data type of a tensor's elements: torch.float32, torch.int64, ... (not constructible).", NULL};
static const repl_class_def size_class = {"Size", "torch.Size", size_ctor, &repl_size_type, NULL,
     "Size(iterable=())\n"
     "The shape of a tensor: a tuple of ints.", NULL};
/* --------------------------------------------------------------- torch */

static const repl_function_def torch_functions[] = {
    {"zeros", f_zeros,
     "zeros(*size, *, out=None, dtype=None, layout=torch.strided, device=None, requires_grad=False) -> Tensor\n"
     "Returns a tensor filled with the scalar value 0, with the shape defined by the variable argument size."},
    {"ones", f_ones,
     "ones(*size, *, out=None, dtype=None, layout=torch.strided, device=None, requires_grad=False) -> Tensor\n"
     "Returns a tensor filled with the scalar value 1, with the shape defined by the variable argument size."},
    {"full", f_full,
     "full(size, fill_value, *, out=None, dtype=None, layout=torch.strided, device=None, requires_grad=False) -> Tensor\n"
     "Creates a tensor of size size filled with fill_value."},
    {"empty", f_empty,
     "empty(*size, *, out=None, dtype=None, layout=torch.strided, device=None, requires_grad=False, pin_memory=False, memory_format=torch.contiguous_format) -> Tensor\n"
     "Returns a tensor filled with uninitialized data."},
    {"rand", f_rand,
     "rand(*size, *, out=None, dtype=None, layout=torch.strided, device=None, requires_grad=False, pin_memory=False) -> Tensor\n"
     "Returns a tensor filled with random numbers from a uniform distribution on the interval [0, 1)."},
    {"randn", f_randn,
     "randn(*size, *, out=None, dtype=None, layout=torch.strided, device=None, requires_grad=False, pin_memory=False) -> Tensor\n"
     "Returns a tensor filled with random numbers from a normal distribution with mean 0 and variance 1 (also called the standard normal distribution)."},
    {"zeros_like", f_zeros_like,
     "zeros_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=torch.preserve_format) -> Tensor\n"
     "Returns a tensor filled with the scalar value 0, with the same size as input."},
    {"ones_like", f_ones_like,
     "ones_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=torch.preserve_format) -> Tensor\n"
     "Returns a tensor filled with the scalar value 1, with the same size as input."},
    {"full_like", f_full_like,
     "full_like(input, fill_value, *, dtype=None, layout=torch.strided, device=None, requires_grad=False, memory_format=torch.preserve_format) -> Tensor\n"
     "Returns a tensor with the same size as input filled with fill_value."},
    {"empty_like", f_empty_like,
     "empty_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=torch.preserve_format) -> Tensor\n"
     "Returns an uninitialized tensor with the same size as input."},
    {"rand_like", f_rand_like,
     "rand_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=torch.preserve_format) -> Tensor\n"
     "Returns a tensor with the same size as input that is filled with random numbers from a uniform distribution on the interval [0, 1)."},
    {"randn_like", f_randn_like,
     "randn_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=torch.preserve_format) -> Tensor\n"
     "Returns a tensor with the same size as input that is filled with random numbers from a normal distribution with mean 0 and variance 1."},
    {"tensor", f_tensor,
     "tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False) -> Tensor\n"
     "Constructs a tensor with no autograd history (a leaf tensor) by copying data."},
    {"randint", f_randint,
     "randint(low=0, high, size, *, generator=None, out=None, dtype=None, layout=torch.strided, device=None, requires_grad=False) -> Tensor\n"
     "Returns a tensor filled with random integers generated uniformly between low (inclusive) and high (exclusive)."},
    {"randperm", f_randperm,
     "randperm(n, *, generator=None, out=None, dtype=torch.int64,layout=torch.strided, device=None, requires_grad=False, pin_memory=False) -> Tensor\n"
     "Returns a random permutation of integers from 0 to n - 1."},
    {"arange", f_arange,
     "arange(start=0, end, step=1, *, out=None, dtype=None, layout=torch.strided, device=None, requires_grad=False) -> Tensor\n"
     "Returns a 1-D tensor of values from the interval [start, end) taken with common difference step beginning from start."},
    {"linspace", f_linspace,
     "linspace(start, end, steps, *, out=None, dtype=None, layout=torch.strided, device=None, requires_grad=False) -> Tensor\n"
     "Creates a one-dimensional tensor of size steps whose values are evenly spaced from start to end, inclusive."},
    {"logspace", f_logspace,
     "logspace(start, end, steps, base=10.0, *, out=None, dtype=None, layout=torch.strided, device=None, requires_grad=False) -> Tensor\n"
     "Creates a one-dimensional tensor of size steps whose values are evenly spaced from base**start to base**end, inclusive, on a logarithmic scale."},
    {"eye", f_eye,
     "eye(n, m=None, *, out=None, dtype=None, layout=torch.strided, device=None, requires_grad=False) -> Tensor\n"
     "Returns a 2-D tensor with ones on the diagonal and zeros elsewhere."},
    {"no_grad", f_no_grad,
     "no_grad()\n"
     "Context-manager that disabled gradient calculation."},
    {"enable_grad", f_enable_grad,
     "enable_grad()\n"
     "Context-manager that enables gradient calculation."},
    {"set_num_threads", repl_set_num_threads,
     "set_num_threads(int)\n"
     "Sets the number of threads used for intraop parallelism on CPU (OpenBLAS's included)."},
    {"get_num_threads", repl_get_num_threads,
     "get_num_threads() -> int\n"
     "Returns the number of threads used for parallelizing CPU operations."},
    {"is_grad_enabled", f_is_grad_enabled,
     "is_grad_enabled() -> bool\n"
     "Returns True if grad mode is currently enabled."},
    {"set_grad_enabled", f_set_grad_enabled,
     "set_grad_enabled(mode)\n"
     "Context-manager that sets gradient calculation to on or off."},
    {"set_printoptions", f_set_printoptions,
     "set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None)\n"
     "Set options for printing."},
    {"save", f_save,
     "save(obj, f, pickle_protocol=2)\n"
     "Saves an object (nested dicts, lists, tuples, numbers, str, tensors) to a file in PyTorch's format."},
    {"load", f_load,
     "load(f, map_location=None, *, weights_only=False)\n"
     "Loads an object saved with torch.save from a file (only tensors and plain containers are rebuilt)."},
    {"is_tensor", f_is_tensor,
     "is_tensor(obj)\n"
     "Returns True if obj is a PyTorch tensor."},
    {"numel", f_numel,
     "numel(input) -> int\n"
     "Returns the total number of elements in the input tensor."},
    {"device", f_device,
     "device(type, index=None)\n"
     "A torch.device: the device on which a tensor is or will be allocated."},
};

static int add_class(nn_object *ns, const repl_class_def *def)
{
    nn_object *c = repl_class_new(def);
    if (!c) return -1;
    int rc = repl_namespace_set(ns, def->name, c);
    NN_RELEASE(c);
    return rc;
}

static int set_owned(nn_object *ns, const char *name, nn_object *v)
{
    if (!v) return -1;
    int rc = repl_namespace_set(ns, name, v);
    NN_RELEASE(v);
    return rc;
}

static const repl_function_def cuda_functions[] = {
    {"is_available", f_false,
     "is_available()\n"
     "Returns a bool indicating if CUDA is currently available."},
    {"device_count", f_device_count,
     "device_count()\n"
     "Returns the number of GPUs available."},
    {"manual_seed", f_cuda_seed,
     "manual_seed(seed)\n"
     "Sets the seed for generating random numbers for the current GPU (nothing without CUDA)."},
    {"manual_seed_all", f_cuda_seed_all,
     "manual_seed_all(seed)\n"
     "Sets the seed for generating random numbers on all GPUs (nothing without CUDA)."},
};

static nn_object *make_cuda(void)
{
    nn_object *ns = repl_namespace_new("torch.cuda");
    if (!ns) return NULL;
    if (repl_namespace_add_fns(ns, cuda_functions, sizeof cuda_functions / sizeof cuda_functions[0])) {
        NN_RELEASE(ns);
        return NULL;
    }
    return ns;
}

/* The cached modules, by import name. */
enum {
    M_TORCH, M_NN, M_F, M_OPTIM, M_INIT, M_CUDA, M_MODULES_MODULE, M_PARAMETER, M_TORCHRL_DATA, M_TENSORDICT,
    M_FF_DARTS, M_FF_LABML, M_AUTOGRAD, M_SYS, M_NN_UTILS, M_NN_UTILS_RNN, M_RETURN_TYPES, M_COUNT
};
static nn_object *cache[M_COUNT];
static const char *const module_names[M_COUNT] = {
    "torch", "torch.nn", "torch.nn.functional", "torch.optim", "torch.nn.init", "torch.cuda",
    "torch.nn.modules.module", "torch.nn.parameter", "torchrl.data", "tensordict",
    "darts.models.components.feed_forward", "labml_nn.transformers.feed_forward", "torch.autograd", "sys",
    "torch.nn.utils", "torch.nn.utils.rnn", "torch.return_types",
};

static nn_object *make_torch(void)
{
    nn_object *t = repl_namespace_new("torch");
    if (!t) return NULL;
    static const struct {
        const char *name;
        nn_dtype dt;
    } dts[] = {
        {"float32", NN_FLOAT32}, {"float", NN_FLOAT32},  {"float64", NN_FLOAT64}, {"double", NN_FLOAT64},
        {"float16", NN_FLOAT16}, {"half", NN_FLOAT16},   {"bfloat16", NN_BFLOAT16}, {"int64", NN_INT64},
        {"long", NN_INT64},      {"int32", NN_INT32},    {"int", NN_INT32},     {"bool", NN_BOOL},
        {"uint8", NN_UINT8},     {"int8", NN_INT8},      {"int16", NN_INT16},   {"short", NN_INT16},
        {"complex64", NN_COMPLEX64}, {"cfloat", NN_COMPLEX64}, {"complex128", NN_COMPLEX128}, {"cdouble", NN_COMPLEX128},
    };
    for (size_t i = 0; i < sizeof dts / sizeof dts[0]; i++)
        if (repl_namespace_set(t, dts[i].name, repl_dtype_object(dts[i].dt))) goto fail;
    if (repl_namespace_add_fns(t, torch_functions, sizeof torch_functions / sizeof torch_functions[0])) goto fail;
    if (repl_torch_add_tensor_functions(t) || repl_math_add_functions(t) || repl_torch_add_constants(t) ||
        repl_random_add_functions(t) || repl_select_add_functions(t) || repl_ops_more_add_functions(t) ||
        repl_ops_extra_add_functions(t) || repl_numpy_add_torch_functions(t) || repl_special_add_functions(t) || repl_misc_ops_add_functions(t) ||
        repl_nn_lang_add_functions(t))
        goto fail;
    if (add_class(t, &tensor_class) || add_class(t, &size_class) || add_class(t, &dtype_class) || add_class(t, &repl_generator_class)) goto fail;
    if (set_owned(t, "__version__", nn_str_new("1.13.0"))) goto fail;
    if (repl_dtype_info_add_functions(t)) goto fail;
    if (repl_complex_add_functions(t)) goto fail;
    if (repl_tensor_more_add_functions(t)) goto fail; /* last: the aliases name what is there */
    return t;
fail:
    NN_RELEASE(t);
    return NULL;
}

static nn_object *make_simple_ns(const char *name, const char *attr, nn_object *value)
{
    if (!value) return NULL;
    nn_object *ns = repl_namespace_new(name);
    if (!ns || repl_namespace_set(ns, attr, value)) NN_SET(ns, NULL);
    NN_RELEASE(value);
    return ns;
}

static nn_object *make_module(int which)
{
    switch (which) {
    case M_TORCH: return make_torch();
    case M_NN: return repl_nn_namespace();
    case M_F: return repl_functional_namespace();
    case M_OPTIM: return repl_optim_namespace();
    case M_SYS: return repl_sys_namespace();
    case M_INIT: return repl_init_namespace();
    case M_CUDA: return make_cuda();
    case M_MODULES_MODULE: return repl_module_module_namespace();
    case M_PARAMETER: return repl_parameter_namespace();
    case M_NN_UTILS: return repl_nn_utils_namespace();
    case M_NN_UTILS_RNN: return repl_nn_utils_rnn_namespace();
    case M_RETURN_TYPES: return repl_return_types_namespace();
    case M_TORCHRL_DATA: {
        nn_object *c = repl_nn_extra_class("MultiStep");
        return make_simple_ns("torchrl.data", "MultiStep", c);
    }
    case M_AUTOGRAD: {
        static const repl_function_def variable = {
            "Variable", f_variable,
            "Variable(data, requires_grad=False) -> Tensor\n"
            "Deprecated since PyTorch 0.4: returns the tensor itself, with requires_grad set when given."};
        nn_object *ns = repl_namespace_new("torch.autograd");
        if (ns && (repl_namespace_add_fn(ns, &variable) || repl_autograd_add_functions(ns))) NN_SET(ns, NULL);
        return ns;
    }
    case M_TENSORDICT: {
        nn_object *c = repl_nn_extra_class("TensorDict");
        return make_simple_ns("tensordict", "TensorDict", c);
    }
    case M_FF_DARTS:
    case M_FF_LABML: {
        nn_object *c = repl_nn_extra_class("FeedForward");
        return make_simple_ns(module_names[which], "FeedForward", c);
    }
    }
    return NULL;
}

/* New reference to the cached module (made on first use). */
static nn_object *get_module(int which)
{
    if (!cache[which]) {
        nn_object *m = make_module(which);
        if (!m) return NULL;
        cache[which] = m;
        /* submodules as attributes of their parents */
        if (which == M_TORCH || which == M_NN || which == M_NN_UTILS) {
            static const struct {
                int parent, child;
                const char *attr;
            } links[] = {
                {M_TORCH, M_NN, "nn"}, {M_TORCH, M_OPTIM, "optim"}, {M_TORCH, M_CUDA, "cuda"},
                {M_TORCH, M_AUTOGRAD, "autograd"}, {M_TORCH, M_RETURN_TYPES, "return_types"},
                {M_NN, M_F, "functional"}, {M_NN, M_INIT, "init"}, {M_NN, M_PARAMETER, "parameter"},
                {M_NN, M_NN_UTILS, "utils"}, {M_NN_UTILS, M_NN_UTILS_RNN, "rnn"},
            };
            for (size_t i = 0; i < sizeof links / sizeof links[0]; i++) {
                if (links[i].parent != which) continue;
                nn_object *c = get_module(links[i].child);
                if (!c || repl_namespace_set(m, links[i].attr, c)) {
                    NN_RELEASE(c);
                    cache[which] = NULL;
                    NN_RELEASE(m);
                    return NULL;
                }
                NN_RELEASE(c);
            }
            if (which == M_NN) {
                /* torch.nn.modules.module as nn.modules.module */
                nn_object *mm = get_module(M_MODULES_MODULE);
                nn_object *modules = mm ? repl_namespace_new("torch.nn.modules") : NULL;
                int rc = modules ? repl_namespace_set(modules, "module", mm) : -1;
                if (!rc) rc = repl_namespace_set(m, "modules", modules);
                NN_RELEASE(mm);
                NN_RELEASE(modules);
                if (rc) {
                    cache[which] = NULL;
                    NN_RELEASE(m);
                    return NULL;
                }
            }
        }
    }
    return nn_retain(cache[which]);
}

nn_object *repl_bind_import(const char *dotted_name)
{
    for (int i = 0; i < M_COUNT; i++)
        if (!strcmp(dotted_name, module_names[i])) return get_module(i);
    /* torch's namespaces that are attributes of torch: import torch.fft, import torch.linalg */
    if (!strcmp(dotted_name, "torch.fft") || !strcmp(dotted_name, "torch.linalg")) {
        nn_object *torch = get_module(M_TORCH);
        nn_object *sub = torch ? repl_namespace_getattr(torch, dotted_name + 6) : NULL;
        NN_RELEASE(torch);
        return sub;
    }
    /* packages whose submodules are built in: torchrl, darts, labml_nn, torch.nn.modules */
    static const char *const packages[] = {"torchrl", "darts", "darts.models", "darts.models.components", "labml_nn",
                                           "labml_nn.transformers", "torch.nn.modules"};
    for (size_t i = 0; i < sizeof packages / sizeof packages[0]; i++)
        if (!strcmp(dotted_name, packages[i])) {
            /* a namespace whose attributes are its built-in children */
            nn_object *ns = repl_namespace_new(dotted_name);
            if (!ns) return NULL;
            size_t len = strlen(dotted_name);
            for (int j = 0; j < M_COUNT; j++) {
                const char *n = module_names[j];
                if (strncmp(n, dotted_name, len) || n[len] != '.') continue;
                const char *rest = n + len + 1;
                char first[64];
                size_t k = 0;
                while (rest[k] && rest[k] != '.' && k < sizeof first - 1) first[k] = rest[k], k++;
                first[k] = 0;
                char sub[160];
                snprintf(sub, sizeof sub, "%s.%s", dotted_name, first);
                nn_object *child = repl_bind_import(sub);
                if (!child || repl_namespace_set(ns, first, child)) {
                    NN_RELEASE(child);
                    NN_RELEASE(ns);
                    return NULL;
                }
                NN_RELEASE(child);
            }
            return ns;
        }
    return NULL;
}

nn_object *repl_bind_type_of(nn_object *obj)
{
    int which = -1;
    const char *name = NULL;
    nn_object *node_cls = repl_node_class_of(obj); /* type(t.grad_fn) */
    if (node_cls || nn_error_current()) return node_cls;
    if (nn_is_parameter(obj)) which = M_NN, name = "Parameter";
    else if (nn_is_tensor(obj)) which = M_TORCH, name = "Tensor";
    else if (nn_is_instance(obj, &repl_size_type)) which = M_TORCH, name = "Size";
    else if (repl_is_dtype(obj)) which = M_TORCH, name = "dtype";
    else if (nn_is_module(obj) && !NN_MODULE(obj)->cls->lang_class) which = M_NN, name = nn_module_name(NN_MODULE(obj));
    else if (nn_is_instance(obj, &nn_optimizer_type)) which = M_OPTIM, name = obj->type->name;
    else if (nn_is_tensordict(obj)) which = M_TENSORDICT, name = "TensorDict";
    else if (repl_return_type_id(obj) >= 0) which = M_RETURN_TYPES, name = obj->type->name;
    else if (repl_is_packed_sequence(obj)) which = M_NN_UTILS_RNN, name = "PackedSequence";
    if (which < 0) return NULL;
    if (nn_is_module(obj) && nn_module_is_a(obj, &nn_multistep_class)) which = M_TORCHRL_DATA;
    if (nn_is_module(obj) && nn_module_is_a(obj, &nn_feed_forward_class)) which = M_FF_LABML;
    nn_object *m = get_module(which);
    if (!m) return NULL;
    nn_object *r = repl_namespace_getattr(m, name);
    NN_RELEASE(m);
    if (!r) nn_error_clear();
    return r;
}

void repl_bindings_shutdown(void)
{
    for (int i = 0; i < M_COUNT; i++) NN_SET(cache[i], NULL);
    repl_node_classes_free();
}

/* ---------------------------------------------------------- native ops */

nn_object *repl_torch_other_getattr(nn_object *o, const char *name, bool *handled)
{
    if (o->type == &repl_generator_type) return repl_generator_getattr(o, name, handled);
    if (o->type == &gradctx_type) {
        *handled = true;
        nn_object *m = repl_method_lookup(gradctx_methods, name, o);
        if (!m && nn_error_current() == NN_OK)
            nn_error_set(NN_ERR_ATTRIBUTE, "'%s' object has no attribute '%s'",
                         ((gradctx *)o)->enable ? "enable_grad" : "no_grad", name);
        return m;
    }
    return NULL;
}

/* The private bases of core's classes and the modules of the language that write them (their
   classes of the same names; torch.nn.modules.batchnorm._BatchNorm ...). */
static const struct {
    const nn_module_class *k;
    const char *module;
} private_bases[] = {
    {&nn_norm_base_class, "torch.nn.modules.batchnorm"},     {&nn_batch_norm_base_class, "torch.nn.modules.batchnorm"},
    {&nn_instance_norm_base_class, "torch.nn.modules.instancenorm"}, {&nn_convnd_class, "torch.nn.modules.conv"},
    {&nn_conv_transposend_class, "torch.nn.modules.conv"},   {&nn_loss_base_class, "torch.nn.modules.loss"},
    {&nn_weighted_loss_base_class, "torch.nn.modules.loss"}, {&nn_max_poolnd_class, "torch.nn.modules.pooling"},
    {&nn_avg_poolnd_class, "torch.nn.modules.pooling"},
};

/* torch.nn's class object for core class k (nn.RNNBase for its core class), a
   language class's own, the language's class of a private base, or NULL without
   an error when torch.nn names none. New reference. */
static nn_object *nn_class_object(const nn_module_class *k)
{
    if (k->lang_class) return nn_retain(k->lang_class);
    for (size_t i = 0; i < sizeof private_bases / sizeof private_bases[0]; i++)
        if (k == private_bases[i].k) {
            nn_object *m = repl_stdlib_module(private_bases[i].module);
            nn_object *c = m ? repl_get_attr(m, k->name) : NULL;
            NN_RELEASE(m);
            return c;
        }
    nn_object *m = get_module(M_NN);
    nn_object *c = m ? nn_dict_get_str(repl_namespace_attrs(m), k == &repl_module_base_class ? "Module" : k->name) : NULL;
    if (c && (!repl_is_class(c) || repl_class_def_of(c)->module_class != k)) c = NULL;
    if (c) nn_retain(c);
    NN_RELEASE(m);
    return c;
}

bool repl_bind_chain_has_class(const nn_module_class *k, nn_object *cls)
{
    for (; k; k = k->base)
        for (size_t i = 0; i < sizeof private_bases / sizeof private_bases[0]; i++) {
            if (k != private_bases[i].k) continue;
            nn_object *c = nn_class_object(k);
            bool found = c == cls;
            NN_RELEASE(c);
            if (!c) nn_error_clear(); /* not importable: not that class */
            if (found) return true;
        }
    return false;
}

nn_object *repl_bind_class_mro(nn_object *cls)
{
    const nn_module_class *k = repl_bind_module_class_of(cls);
    if (!k) return NULL;
    nn_object *order[16] = {cls}, *t = NULL;
    int n = 1;
    for (const nn_module_class *b = k->base; b && n < 14; b = b->base)
        if (b != &repl_module_base_class && (order[n] = nn_class_object(b))) n++;
    if (k != &repl_module_base_class) order[n++] = nn_class_object(&repl_module_base_class);
    order[n++] = &repl_current->object_cls->ob;
    bool complete = true;
    for (int i = 0; i < n; i++) complete = complete && order[i];
    if (complete) t = nn_tuple_new((size_t)n);
    for (int i = 0; t && i < n; i++) nn_tuple_set(t, (size_t)i, nn_retain(order[i]));
    for (int i = 1; i < n - 1; i++) NN_RELEASE(order[i]);   /* cls and object are borrowed */
    if (!t && !nn_error_current()) nn_error_set(NN_ERR_MEMORY, "out of memory");
    return t;
}

static nn_object *native_mro_list(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *t = repl_bind_class_mro(nn_tuple_get(args, 0)), *l = t ? nn_list_new(0) : NULL;
    for (size_t i = 0; l && i < nn_tuple_len(t); i++)
        if (nn_list_append(l, nn_tuple_get(t, i)) < 0) NN_SET(l, NULL);
    NN_RELEASE(t);
    return l;
}

/* A native module class's __mro__, __bases__, __base__ and mro(); NULL without an
   error for other names and classes. */
static nn_object *native_class_order(nn_object *cls, const char *name)
{
    bool mro = !strcmp(name, "__mro__"), bases = !strcmp(name, "__bases__"), base = !strcmp(name, "__base__");
    if (!strcmp(name, "mro") && repl_bind_module_class_of(cls)) {
        nn_object *f = nn_cfunction_new("mro", native_mro_list, NULL, NULL);
        nn_object *m = f ? repl_method_new(f, cls) : NULL;
        NN_RELEASE(f);
        return m;
    }
    if (!mro && !bases && !base) return NULL;
    nn_object *t = repl_bind_class_mro(cls);
    if (!t || mro) return t;
    nn_object *r = bases ? nn_tuple_pack(1, nn_tuple_get(t, 1)) : nn_retain(nn_tuple_get(t, 1));
    NN_RELEASE(t);
    return r;
}

static nn_object *op_getattr(nn_object *o, const char *name)
{
    if (!strcmp(name, "__class__")) { /* type(x): Tensor, Parameter, Linear, AddBackward0 */
        nn_object *cls = repl_bind_type_of(o);
        if (cls || nn_error_current() || nn_is_tensor(o) || nn_is_module(o)) return cls;
    }
    if (nn_is_tensor(o)) return repl_tensor_getattr(NN_TENSOR(o), name);
    if (nn_is_module(o)) return repl_module_getattr(NN_MODULE(o), name);
    if (repl_is_namespace(o)) return repl_namespace_getattr(o, name);
    if (repl_is_dtype(o)) return repl_dtype_getattr(o, name);
    if (repl_is_device(o)) return repl_device_getattr(o, name);
    if (nn_is_instance(o, &nn_optimizer_type)) return repl_optim_getattr(o, name);
    if (repl_is_class(o)) {
        nn_object *r = native_class_order(o, name); /* nn.Conv2d.__mro__ */
        return r || nn_error_current() ? r : repl_class_getattr(o, name);
    }
    if (repl_is_native_function(o)) return repl_native_function_getattr(o, name);
    if (o->type == &nn_node_type || o->type == &nn_accumulate_grad_type) return repl_node_getattr(o, name);
    bool handled = false;
    nn_object *r = repl_torch_other_getattr(o, name, &handled);
    if (handled) return r;
    r = repl_size_getattr(o, name, &handled);
    if (handled) return r;
    r = repl_thandle_getattr(o, name, &handled);
    if (handled) return r;
    r = repl_return_type_getattr(o, name, &handled);
    if (handled) return r;
    r = repl_rnn_getattr(o, name, &handled);
    if (handled) return r;
    r = repl_nn_other_getattr(o, name, &handled);
    if (handled) return r;
    r = repl_dtype_info_getattr(o, name, &handled);
    if (handled) return r;
    r = repl_bytes_getattr(o, name, &handled);
    if (handled) return r;
    nn_error_set(NN_ERR_ATTRIBUTE, "'%s' object has no attribute '%s'", repl_type_name(o), name);
    return NULL;
}

static int op_setattr(nn_object *o, const char *name, nn_object *value)
{
    if (nn_is_tensor(o)) return repl_tensor_setattr(NN_TENSOR(o), name, value);
    if (nn_is_module(o)) return repl_module_setattr(NN_MODULE(o), name, value);
    if (repl_is_namespace(o)) return repl_namespace_set(o, name, value);
    return nn_error_set(NN_ERR_ATTRIBUTE, "'%s' object attribute '%s' is read-only", repl_type_name(o), name);
}

static nn_object *op_binary(repl_binop op, nn_object *a, nn_object *b)
{
    if (nn_is_tensor(a) || nn_is_tensor(b)) return repl_tensor_binary(op, a, b);
    bool handled;
    nn_object *r = repl_size_binary(op, a, b, &handled);
    if (handled) return r;
    r = repl_bytes_binary(op, a, b, &handled);
    if (handled) return r;
    if (nn_is_module(a) && nn_module_is_a(a, &nn_sequential_class)) {
        if (op == REPL_ADD) return (nn_object *)nn_sequential_add(NN_MODULE(a), b);
        if (op == REPL_MUL) return (nn_object *)nn_sequential_mul(NN_MODULE(a), b);
    }
    if (nn_is_module(b) && nn_module_is_a(b, &nn_sequential_class) && op == REPL_MUL && nn_is_int(a))
        return (nn_object *)nn_sequential_mul(NN_MODULE(b), a);
    if ((op == REPL_EQ || op == REPL_NE) && (repl_is_dtype(a) || repl_is_device(a) || repl_is_class(a))) {
        int eq = a == b || (repl_is_device(a) && repl_is_device(b) && nn_equal(a, b) == 1); /* devices: by type and index */
        return nn_bool_new(op == REPL_EQ ? eq : !eq);
    }
    return NULL;
}

static nn_object *op_unary(repl_unop op, nn_object *a)
{
    if (nn_is_tensor(a)) return repl_tensor_unary(op, NN_TENSOR(a));
    return NULL;
}

static nn_object *op_getitem(nn_object *o, nn_object *key)
{
    if (nn_is_tensor(o)) return repl_tensor_getitem(NN_TENSOR(o), key);
    if (nn_is_module(o)) return repl_module_getitem(NN_MODULE(o), key);
    if (nn_is_tensordict(o)) {
        nn_object *v = nn_tensordict_get(NN_TENSORDICT(o), key);
        return nn_retain(v);
    }
    bool handled;
    nn_object *r = repl_size_getitem(o, key, &handled);
    if (handled) return r;
    if (repl_is_bytes(o)) return repl_bytes_getitem(o, key);
    nn_error_set(NN_ERR_TYPE, "'%s' object is not subscriptable", repl_type_name(o));
    return NULL;
}

static int op_setitem(nn_object *o, nn_object *key, nn_object *value)
{
    if (nn_is_tensor(o)) return repl_tensor_setitem(NN_TENSOR(o), key, value);
    if (nn_is_module(o)) return repl_module_setitem(NN_MODULE(o), key, value);
    if (nn_is_tensordict(o)) return nn_tensordict_set(NN_TENSORDICT(o), key, value);
    if (repl_is_bytes(o)) return repl_bytes_setitem(o, key, value);
    return nn_error_set(NN_ERR_TYPE, "'%s' object does not support item assignment", repl_type_name(o));
}

static int op_len(nn_object *o, int64_t *out)
{
    if (nn_is_tensor(o)) {
        nn_tensor *t = NN_TENSOR(o);
        if (t->ndim == 0) return nn_error_set(NN_ERR_TYPE, "len() of a 0-d tensor");
        *out = t->sizes[0];
        return 0;
    }
    if (nn_is_module(o)) {
        int64_t n = nn_container_len(NN_MODULE(o));
        if (n < 0) return -1;
        *out = n;
        return 0;
    }
    if (nn_is_tensordict(o)) {
        *out = nn_tensordict_len(NN_TENSORDICT(o));
        return 0;
    }
    if (repl_is_bytes(o)) {
        *out = (int64_t)repl_bytes_len(o);
        return 0;
    }
    return nn_error_set(NN_ERR_TYPE, "object of type '%s' has no len()", repl_type_name(o));
}

static nn_object *op_iterate(nn_object *o)
{
    if (nn_is_tensor(o)) return repl_tensor_iterate(NN_TENSOR(o));
    if (nn_is_module(o)) return nn_container_iter(NN_MODULE(o));
    if (nn_is_tensordict(o)) return nn_tensordict_keys(NN_TENSORDICT(o), false, false);
    if (repl_is_bytes(o)) return repl_bytes_to_list(o);
    nn_error_set(NN_ERR_TYPE, "'%s' object is not iterable", repl_type_name(o));
    return NULL;
}

static int op_truth(nn_object *o)
{
    if (nn_is_tensor(o)) return repl_tensor_truth(NN_TENSOR(o));
    if (repl_is_bytes(o)) return repl_bytes_len(o) > 0;
    return 1;
}

static char *op_str(nn_object *o)
{
    if (!repl_is_device(o)) return NULL;
    /* str(torch.device("cpu")) is "cpu", str(torch.device("cuda", 1)) is "cuda:1" */
    nn_object *index = repl_device_getattr(o, "index");
    if (!index) return NULL;
    char buf[64];
    if (nn_is_int(index)) snprintf(buf, sizeof buf, "%s:%lld", repl_device_type(o), (long long)nn_int_value(index));
    else snprintf(buf, sizeof buf, "%s", repl_device_type(o));
    NN_RELEASE(index);
    return nn_strdup(buf);
}

static nn_object *op_import(const char *name) { return repl_bind_import(name); }

static const repl_native_ops bind_ops = {
    .import_module = op_import,
    .getattr = op_getattr,
    .setattr = op_setattr,
    .binary = op_binary,
    .inplace = repl_tensor_inplace,
    .unary = op_unary,
    .getitem = op_getitem,
    .setitem = op_setitem,
    .len = op_len,
    .iterate = op_iterate,
    .truth = op_truth,
    .str = op_str,
    .module_class_of = repl_bind_module_class_of,
};

const repl_native_ops *repl_bindings_ops(void) { return &bind_ops; }

void repl_bindings_install(void)
{
    repl_set_native_ops(&bind_ops);
    nn_module_set_version_lookup(repl_module_version_lookup);
    nn_module_set_override_lookup(repl_module_override_lookup);
}
