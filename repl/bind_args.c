/*
 * bind_args.c — the bindings' plumbing: the argument parser with Python's and
 * PyTorch's TypeErrors, typed converters (int vs float vs bool, dtypes, shapes),
 * bound methods, namespace objects for built-in modules, native class objects,
 * and the dtype, torch.Size and device values.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind_int.h"
#include "bigint.h"

nn_object *repl_stdlib_module(const char *name); /* eval_int.h; the language's own modules */
nn_object *repl_stdlib_alias(const char *ns, const char *name); /* eval_int.h */

/* ------------------------------------------------------------ arguments */

#define MAX_PARAMS 24

typedef struct param_spec {
    char name[32];
    bool optional, kwonly;
} param_spec;

/* Splits spec into params; returns the count, sets *has_self. */
static int split_spec(const char *spec, param_spec *ps, bool *has_self)
{
    int n = 0;
    bool kwonly = false;
    *has_self = false;
    const char *p = spec;
    while (*p) {
        while (*p == ' ' || *p == ',') p++;
        if (!*p) break;
        const char *e = p;
        while (*e && *e != ',') e++;
        size_t len = (size_t)(e - p);
        while (len && p[len - 1] == ' ') len--;
        if (len == 1 && *p == '*') {
            kwonly = true;
        } else if (len == 4 && !strncmp(p, "self", 4) && n == 0 && !*has_self) {
            *has_self = true;
        } else if (n < MAX_PARAMS) {
            bool opt = len && p[len - 1] == '=';
            if (opt) len--;
            if (len >= sizeof ps[n].name) len = sizeof ps[n].name - 1;
            memcpy(ps[n].name, p, len);
            ps[n].name[len] = 0;
            ps[n].optional = opt;
            ps[n].kwonly = kwonly;
            n++;
        }
        p = e;
    }
    return n;
}

static int missing_error(const char *fname, const param_spec *ps, int n, nn_object **out, bool kwonly)
{
    const char *names[MAX_PARAMS];
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!out[i] && !ps[i].optional && ps[i].kwonly == kwonly) names[k++] = ps[i].name;
    char list[512] = "";
    size_t len = 0;
    for (int i = 0; i < k; i++) {
        const char *sep = i == 0 ? "" : (i == k - 1 ? (k == 2 ? " and " : ", and ") : ", ");
        len += (size_t)snprintf(list + len, len < sizeof list ? sizeof list - len : 0, "%s'%s'", sep, names[i]);
        if (len >= sizeof list) break;
    }
    return nn_error_set(NN_ERR_TYPE, "%s() missing %d required %s argument%s: %s", fname, k,
                        kwonly ? "keyword-only" : "positional", k == 1 ? "" : "s", list);
}

int repl_parse_args_from(const char *fname, const char *spec, nn_object *args, size_t skip, nn_object *kwargs,
                         nn_object **out)
{
    param_spec ps[MAX_PARAMS];
    bool has_self;
    int n = split_spec(spec, ps, &has_self);
    for (int i = 0; i < n; i++) out[i] = NULL;
    size_t nargs = args ? nn_tuple_len(args) : 0;
    size_t npos = nargs > skip ? nargs - skip : 0;
    int max_pos = 0, min_pos = 0;
    for (int i = 0; i < n; i++)
        if (!ps[i].kwonly) {
            max_pos++;
            if (!ps[i].optional) min_pos = max_pos;
        }
    if (npos > (size_t)max_pos) {
        int s = has_self ? 1 : 0;
        if (min_pos == max_pos)
            return nn_error_set(NN_ERR_TYPE, "%s() takes %d positional argument%s but %zu %s given", fname,
                                max_pos + s, max_pos + s == 1 ? "" : "s", npos + (size_t)s,
                                npos + (size_t)s == 1 ? "was" : "were");
        return nn_error_set(NN_ERR_TYPE, "%s() takes from %d to %d positional arguments but %zu were given", fname,
                            min_pos + s, max_pos + s, npos + (size_t)s);
    }
    for (size_t i = 0; i < npos; i++) out[i] = nn_tuple_get(args, skip + i);
    if (kwargs) {
        size_t pos = 0;
        nn_object *k, *v;
        while (nn_dict_next(kwargs, &pos, &k, &v)) {
            const char *key = nn_is_str(k) ? nn_str_cstr(k) : "";
            int found = -1;
            for (int i = 0; i < n; i++)
                if (!strcmp(ps[i].name, key)) found = i;
            /* PyTorch's numpy-style aliases: keepdims= for keepdim=, axis= for dim= */
            for (int i = 0; i < n && found < 0; i++)
                if ((!strcmp(key, "keepdims") && !strcmp(ps[i].name, "keepdim")) ||
                    (!strcmp(key, "axis") && !strcmp(ps[i].name, "dim")))
                    found = i;
            if (found < 0) return nn_error_set(NN_ERR_TYPE, "%s() got an unexpected keyword argument '%s'", fname, key);
            if (out[found])
                return nn_error_set(NN_ERR_TYPE, "%s() got multiple values for argument '%s'", fname, key);
            out[found] = v;
        }
    }
    for (int i = 0; i < n; i++)
        if (!out[i] && !ps[i].optional) return missing_error(fname, ps, n, out, ps[i].kwonly);
    return 0;
}

int repl_parse_args(const char *fname, const char *spec, nn_object *args, nn_object *kwargs, nn_object **out)
{
    return repl_parse_args_from(fname, spec, args, 0, kwargs, out);
}

const char *repl_type_name(const nn_object *o)
{
    if (!o || nn_is_none(o)) return "NoneType";
    if (nn_is_module(o)) return nn_module_name(NN_MODULE(o));
    return o->type->name;
}

static int arg_type_error(const char *fname, const char *name, int pos, const char *want, nn_object *o)
{
    if (repl_is_bigint(o)) return nn_error_set(NN_ERR_RUNTIME, "Overflow when unpacking long"); /* PyTorch's */
    if (pos > 0)
        return nn_error_set(NN_ERR_TYPE, "%s(): argument '%s' (position %d) must be %s, not %s", fname, name, pos,
                            want, repl_type_name(o));
    return nn_error_set(NN_ERR_TYPE, "%s(): argument '%s' must be %s, not %s", fname, name, want, repl_type_name(o));
}

int repl_arg_tensor(const char *fname, const char *name, int pos, nn_object *o, nn_tensor **out)
{
    if (!o) return 0;
    if (!nn_is_tensor(o)) return arg_type_error(fname, name, pos, "Tensor", o);
    *out = NN_TENSOR(o);
    return 0;
}

int repl_arg_int(const char *fname, const char *name, int pos, nn_object *o, int64_t *out)
{
    if (!o) return 0;
    if (nn_is_int(o) || nn_is_bool(o)) {
        *out = nn_int_value(o);
        return 0;
    }
    return arg_type_error(fname, name, pos, "int", o);
}

int repl_arg_double(const char *fname, const char *name, int pos, nn_object *o, double *out)
{
    if (!o) return 0;
    if (nn_is_int(o) || nn_is_bool(o) || nn_is_float(o)) {
        *out = nn_float_value(o);
        return 0;
    }
    if (nn_is_tensor(o) && nn_numel(NN_TENSOR(o)) == 1 && NN_TENSOR(o)->ndim == 0) return nn_item(NN_TENSOR(o), out);
    return arg_type_error(fname, name, pos, "Number", o);
}

int repl_arg_float(const char *fname, const char *name, int pos, nn_object *args, nn_object *o, double *out)
{
    if (!o) return 0;
    if (nn_is_int(o) || nn_is_bool(o) || nn_is_float(o)) {
        *out = nn_float_value(o);
        return 0;
    }
    if (nn_is_tensor(o) && nn_numel(NN_TENSOR(o)) == 1 && NN_TENSOR(o)->ndim == 0) return nn_item(NN_TENSOR(o), out);
    return arg_type_error(fname, name, args && (int)nn_tuple_len(args) >= pos ? pos : 0, "float", o);
}

int repl_arg_bool(const char *fname, const char *name, int pos, nn_object *o, bool *out)
{
    if (!o) return 0;
    if (nn_is_bool(o)) *out = nn_is_true(o);
    else if (nn_is_int(o)) *out = nn_int_value(o) != 0;
    else if (nn_is_float(o)) *out = nn_float_value(o) != 0;
    else if (nn_is_none(o)) *out = false;
    else if (nn_is_str(o)) *out = nn_str_len(o) != 0;
    else return arg_type_error(fname, name, pos, "bool", o);
    return 0;
}

int repl_arg_str(const char *fname, const char *name, int pos, nn_object *o, const char **out)
{
    if (!o || nn_is_none(o)) return 0;
    if (!nn_is_str(o)) return arg_type_error(fname, name, pos, "str", o);
    *out = nn_str_cstr(o);
    return 0;
}

int repl_arg_dtype(const char *fname, const char *name, int pos, nn_object *o, int *out)
{
    if (!o || nn_is_none(o)) return 0;
    if (!repl_is_dtype(o)) return arg_type_error(fname, name, pos, "torch.dtype", o);
    *out = (int)repl_dtype_value(o);
    return 0;
}

static bool is_sequence(const nn_object *o)
{
    return o && (nn_is_instance(o, &nn_tuple_type) || nn_is_list(o));
}

static size_t seq_len(const nn_object *o)
{
    return nn_is_list(o) ? nn_list_len(o) : nn_tuple_len(o);
}

static nn_object *seq_get(const nn_object *o, size_t i)
{
    return nn_is_list(o) ? nn_list_get(o, i) : nn_tuple_get(o, i);
}

/* a dim held in an int: one past int's range is out of range for every tensor */
static int dim_clamp(int64_t v) { return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int)v; }

int repl_arg_dim(const char *fname, const char *name, int pos, nn_object *o, int ndim, int64_t *out)
{
    if (repl_arg_int(fname, name, pos, o, out) < 0) return -1;
    if (*out == dim_clamp(*out)) return 0;
    if (ndim < 0) {
        *out = dim_clamp(*out);
        return 0;
    }
    int n = ndim > 0 ? ndim : 1;
    return nn_error_set(NN_ERR_INDEX, "Dimension out of range (expected to be in range of [%d, %d], but got %lld)", -n,
                        n - 1, (long long)*out);
}

int repl_arg_dims(const char *fname, const char *name, int pos, nn_object *o, int *n, int *dims)
{
    if (!o || nn_is_none(o)) {
        *n = 0;
        return 0;
    }
    if (nn_is_int(o) || nn_is_bool(o)) {
        *n = 1;
        dims[0] = dim_clamp(nn_int_value(o));
        return 0;
    }
    if (!is_sequence(o)) return arg_type_error(fname, name, pos, "tuple of ints", o);
    size_t len = seq_len(o);
    if (len > NN_MAX_DIMS) return nn_error_set(NN_ERR_RUNTIME, "%s(): too many dims", fname);
    for (size_t i = 0; i < len; i++) {
        nn_object *d = seq_get(o, i);
        if (!nn_is_int(d)) return arg_type_error(fname, name, pos, "tuple of ints", o);
        dims[i] = dim_clamp(nn_int_value(d));
    }
    *n = (int)len;
    return 0;
}

/* a size beyond int64: PyTorch 1.13's TypeError */
static int symint_error(const char *fname, const char *name, int pos)
{
    return nn_error_set(NN_ERR_TYPE, "%s(): argument '%s' must be tuple of SymInts, but found element of type int at pos %d",
                        fname, name, pos);
}

int repl_arg_shape(const char *fname, const char *name, nn_object *o, int *ndim, int64_t *sizes)
{
    if (!is_sequence(o)) return arg_type_error(fname, name, 1, "tuple of ints", o);
    size_t len = seq_len(o);
    if (len > NN_MAX_DIMS)
        return nn_error_set(NN_ERR_RUNTIME, "%s(): a tensor has at most %d dims", fname, NN_MAX_DIMS);
    for (size_t i = 0; i < len; i++) {
        nn_object *d = seq_get(o, i);
        if (repl_is_bigint(d)) return symint_error(fname, name, (int)i + 1);
        if (!nn_is_int(d) && !nn_is_bool(d)) return arg_type_error(fname, name, 1, "tuple of ints", o);
        sizes[i] = nn_int_value(d);
    }
    *ndim = (int)len;
    return 0;
}

size_t repl_count_int_args(nn_object *args, size_t skip)
{
    size_t n = nn_tuple_len(args), k = 0;
    for (size_t i = skip; i < n && (nn_is_int(nn_tuple_get(args, i)) || repl_is_bigint(nn_tuple_get(args, i))); i++) k++;
    return k;
}

int repl_shape_from_args(const char *fname, nn_object *args, size_t skip, size_t count, int *ndim, int64_t *sizes)
{
    if (count == 1 && is_sequence(nn_tuple_get(args, skip)))
        return repl_arg_shape(fname, "size", nn_tuple_get(args, skip), ndim, sizes);
    if (count > NN_MAX_DIMS)
        return nn_error_set(NN_ERR_RUNTIME, "%s(): a tensor has at most %d dims", fname, NN_MAX_DIMS);
    for (size_t i = 0; i < count; i++) {
        nn_object *d = nn_tuple_get(args, skip + i);
        if (repl_is_bigint(d)) return symint_error(fname, "size", (int)i + 1);
        if (!nn_is_int(d)) return arg_type_error(fname, "size", (int)(skip + i + 1), "tuple of ints", d);
        sizes[i] = nn_int_value(d);
    }
    *ndim = (int)count;
    return 0;
}

nn_tensor *repl_as_tensor(nn_object *o)
{
    if (nn_is_tensor(o)) return (nn_tensor *)nn_retain(o);
    if (nn_is_bool(o)) {
        nn_tensor *t = nn_full_on(NN_DEVICE_CPU, 0, NULL, nn_is_true(o) ? 1 : 0, NN_BOOL); /* a wrapped number */
        if (t) t->is_wrapped_number = true;
        return t;
    }
    if (nn_is_int(o)) return nn_wrapped_number((double)nn_int_value(o), true);
    if (nn_is_float(o)) return nn_wrapped_number(nn_float_value(o), false);
    if (nn_is_complex(o)) {
        double re, im;
        nn_complex_parts(o, &re, &im);
        return nn_wrapped_complex(re, im);
    }
    return NULL;
}

/* ------------------------------------------------------------ functions */

/* One object type for the bindings' C functions, carrying the docstring of the
   table entry it was made from: a module function (torch.randn: fn, module), a
   bound method (x.add: self with method or with fn taking self first) or an
   unbound method (torch.Tensor.add: cls; calling it looks the method up on its
   first argument). */
typedef struct native_fn {
    nn_object ob;
    char name[64];
    char module[64];          /* module functions: "torch"; else empty */
    const char *doc;          /* static; NULL: none */
    nn_object *self;          /* owned; bound methods */
    nn_object *cls;           /* owned; unbound methods: the class object */
    repl_method_fn method;    /* bound methods of a method table */
    nn_cfunc fn;              /* module functions; bound torch functions (self first) */
    bool self_first;          /* methods documented by a torch function's doc (see repl_method_doc) */
    bool attribute;           /* with cls: a data attribute of the instances (torch.Tensor.shape) */
} native_fn;

/* The class a method descriptor names: a tensor's methods are _TensorBase's in PyTorch. */
static const char *descriptor_owner(const repl_class_def *d)
{
    return d->instance_type == &nn_tensor_type ? "torch._C._TensorBase" : d->qualname;
}

static void native_fn_dealloc(nn_object *o)
{
    native_fn *f = (native_fn *)o;
    NN_RELEASE(f->self);
    NN_RELEASE(f->cls);
    nn_free(f);
}

static char *native_fn_repr(nn_object *o)
{
    native_fn *f = (native_fn *)o;
    char buf[256];
    if (f->self)
        snprintf(buf, sizeof buf, "<built-in method %s of %s object at %p>", f->name, repl_type_name(f->self),
                 (void *)f->self);
    else if (f->cls)
        snprintf(buf, sizeof buf, "<%s '%s' of '%s' objects>", f->attribute ? "attribute" : "method", f->name,
                 descriptor_owner(repl_class_def_of(f->cls)));
    else
        snprintf(buf, sizeof buf, "<built-in function %s>", f->name);
    return nn_strdup(buf);
}

/* Class.method(instance, *args, **kwargs): instance.method(*args, **kwargs). */
static nn_object *unbound_call(native_fn *f, nn_object *args, nn_object *kwargs)
{
    const repl_class_def *d = repl_class_def_of(f->cls);
    size_t n = nn_tuple_len(args);
    if (f->attribute) {
        nn_error_set(NN_ERR_TYPE, "'getset_descriptor' object is not callable");
        return NULL;
    }
    const char *owner = descriptor_owner(d);
    if (n == 0) {
        if (d->instance_type == &nn_tensor_type) /* a method of a C type, as CPython words it */
            nn_error_set(NN_ERR_TYPE, "unbound method _TensorBase.%s() needs an argument", f->name);
        else
            nn_error_set(NN_ERR_TYPE, "descriptor '%s' of '%s' object needs an argument", f->name, owner);
        return NULL;
    }
    nn_object *inst = nn_tuple_get(args, 0);
    if (repl_bind_isinstance(inst, f->cls) != 1) {
        nn_error_set(NN_ERR_TYPE, "descriptor '%s' for '%s' objects doesn't apply to a '%s' object", f->name,
                     owner, repl_type_name(inst));
        return NULL;
    }
    nn_object *bound = repl_bindings_ops()->getattr(inst, f->name);
    if (!bound) return NULL;
    nn_object *rest = nn_tuple_new(n - 1);
    for (size_t i = 1; rest && i < n; i++) nn_tuple_set(rest, i - 1, nn_retain(nn_tuple_get(args, i)));
    nn_object *r = rest ? nn_call(bound, rest, kwargs) : NULL;
    NN_RELEASE(rest);
    NN_RELEASE(bound);
    return r;
}

static nn_object *native_fn_call_values(nn_object *o, nn_object *args, nn_object *kwargs);

/* torch's functions and methods receive the built-in value of an instance of a
   subclass of dict, list, int, ... (model.load_state_dict(MyDict(...))) */
static nn_object *native_fn_call(nn_object *o, nn_object *args, nn_object *kwargs)
{
    const native_fn *f = (const native_fn *)o;
    if (!f->self && !f->cls && !strcmp(f->module, "torch") &&
        (!strcmp(f->name, "tensor") || !strcmp(f->name, "as_tensor") || !strcmp(f->name, "from_numpy")))
        return native_fn_call_values(o, args, kwargs); /* they take a NumPy scalar's dtype (repl_deep_values) */
    nn_object *a = repl_native_args(args), *k = a ? repl_native_kwargs(kwargs) : NULL;
    nn_object *r = a && (k || !kwargs) ? native_fn_call_values(o, a, k) : NULL;
    NN_RELEASE(a);
    NN_RELEASE(k);
    return r;
}

/* r, or NULL with PyTorch's error when the method wrote its inference tensor (version: before) */
static nn_object *inplace_checked(native_fn *f, uint64_t version, nn_object *r)
{
    if (r && nn_is_tensor(f->self) && NN_TENSOR(f->self)->storage->version != version &&
        nn_inference_inplace_check(NN_TENSOR(f->self)) < 0)
        NN_SET(r, NULL);
    return r;
}

static nn_object *native_fn_call_values(nn_object *o, nn_object *args, nn_object *kwargs)
{
    native_fn *f = (native_fn *)o;
    if (f->cls) return unbound_call(f, args, kwargs);
    if ((!f->module[0] || !strncmp(f->module, "torch", 5)) && repl_complex_check(f->name, f->self, args, kwargs) < 0)
        return NULL;
    bool of_tensor = f->self && nn_is_tensor(f->self), of_torch = !f->self && !strcmp(f->module, "torch");
    nn_object *r = NULL;
    /* an inference tensor's method that wrote it outside inference mode: PyTorch's error, after the
       write (its version bump raises it) */
    uint64_t version = of_tensor ? NN_TENSOR(f->self)->storage->version : 0;
    if (f->method) {
        r = f->method(f->self, args, kwargs);
        if (!r && of_tensor) repl_torch_arg_error(f->name, f->self, args, 0, kwargs);
        return inplace_checked(f, version, r);
    }
    if (of_torch && repl_out_call(f->name, f->fn, args, kwargs, &r)) return r;
    if (!f->self) {
        r = f->fn(NULL, args, kwargs);
        if (!r && of_torch) repl_torch_arg_error(f->name, NULL, args, 0, kwargs);
        return r;
    }
    size_t n = nn_tuple_len(args);
    nn_object *full = nn_tuple_new(n + 1);
    if (!full) return NULL;
    nn_tuple_set(full, 0, nn_retain(f->self));
    for (size_t i = 0; i < n; i++) nn_tuple_set(full, i + 1, nn_retain(nn_tuple_get(args, i)));
    r = f->fn(NULL, full, kwargs);
    if (!r && of_tensor) repl_torch_arg_error(f->name, f->self, full, 1, kwargs);
    NN_RELEASE(full);
    return inplace_checked(f, version, r);
}

static const nn_type native_fn_type = {.name = "builtin_function_or_method", .dealloc = native_fn_dealloc,
                                       .repr = native_fn_repr, .call = native_fn_call};

static native_fn *native_fn_new(const char *name, const char *doc)
{
    native_fn *f = nn_calloc(1, sizeof *f);
    if (!f) return NULL;
    nn_object_init(&f->ob, &native_fn_type);
    snprintf(f->name, sizeof f->name, "%s", name);
    f->doc = doc;
    return f;
}

bool repl_is_native_function(const nn_object *o) { return o && o->type == &native_fn_type; }

nn_object *repl_native_function_getattr(nn_object *o, const char *name)
{
    native_fn *f = (native_fn *)o;
    if (!strcmp(name, "__name__")) return nn_str_new(f->name);
    if (!strcmp(name, "__qualname__")) {
        if (f->cls) {
            const char *owner = descriptor_owner(repl_class_def_of(f->cls)), *dot = strrchr(owner, '.');
            return nn_str_format("%s.%s", dot ? dot + 1 : owner, f->name);
        }
        if (f->self) return nn_str_format("%s.%s", repl_type_name(f->self), f->name);
        return nn_str_new(f->name);
    }
    if (!strcmp(name, "__doc__")) return f->doc ? nn_str_new(f->doc) : nn_retain(nn_none());
    if (!strcmp(name, "__module__")) return f->module[0] ? nn_str_new(f->module) : nn_retain(nn_none());
    if (!strcmp(name, "__self__")) return nn_retain(f->self ? f->self : nn_none());
    nn_error_set(NN_ERR_ATTRIBUTE, "'builtin_function_or_method' object has no attribute '%s'", name);
    return NULL;
}

/* The qualname of the class d derives from, as help() prints it. */
static const char *class_base(const repl_class_def *d)
{
    if (d->module_class && d->module_class != &repl_module_base_class) return "torch.nn.modules.module.Module";
    if (d->instance_type == &nn_optimizer_type && d->ctor) return "torch.optim.optimizer.Optimizer";
    if (d->instance_type == &nn_parameter_type) return "torch.Tensor";
    if (d->instance_type == &nn_tensor_type) return "torch._C._TensorBase";
    return "builtins.object";
}

/* What help() knows of a native function, a class, or neither (false). */
bool repl_bind_doc_of(nn_object *o, repl_doc_info *out)
{
    memset(out, 0, sizeof *out);
    if (repl_is_class(o)) {
        const repl_class_def *d = repl_class_def_of(o);
        out->kind = REPL_DOC_CLASS;
        out->name = d->name;
        out->doc = d->doc;
        out->qualname = d->qualname;
        out->base = class_base(d);
        return true;
    }
    if (!repl_is_native_function(o)) return false;
    native_fn *f = (native_fn *)o;
    out->name = f->name;
    out->doc = f->doc;
    out->module = f->module[0] ? f->module : NULL;
    out->self = f->self;
    out->self_first = f->self_first;
    out->kind = f->self ? REPL_DOC_BOUND : f->cls ? REPL_DOC_UNBOUND : REPL_DOC_FUNCTION;
    if (f->cls) out->qualname = repl_class_def_of(f->cls)->qualname;
    if (f->self) {
        nn_object *cls = repl_bind_type_of(f->self);
        out->qualname = cls ? repl_class_def_of(cls)->qualname : NULL;
        NN_RELEASE(cls); /* the def is static */
    }
    return true;
}

bool repl_bind_class_method(nn_object *cls, size_t i, repl_method_doc *out)
{
    const repl_class_def *d = repl_is_class(cls) ? repl_class_def_of(cls) : NULL;
    return d && d->method_at && d->method_at(d, i, out);
}

nn_object *repl_bound_method(const repl_method_def *def, nn_object *self)
{
    native_fn *f = native_fn_new(def->name, def->doc);
    if (!f) return NULL;
    f->self = nn_retain(self);
    f->method = def->fn;
    return &f->ob;
}

nn_object *repl_bound_function(const repl_function_def *def, nn_object *self)
{
    native_fn *f = native_fn_new(def->name, def->doc);
    if (!f) return NULL;
    f->self = nn_retain(self);
    f->fn = def->fn;
    f->self_first = true;
    return &f->ob;
}

nn_object *repl_method_lookup(const repl_method_def *table, const char *name, nn_object *self)
{
    for (const repl_method_def *d = table; d->name; d++)
        if (!strcmp(d->name, name)) return repl_bound_method(d, self);
    return NULL;
}

/* ---------------------------------------------------- built-in modules */

typedef struct namespace_obj {
    nn_object ob;
    char name[64];
    nn_object *attrs; /* owned dict */
} namespace_obj;

static void namespace_dealloc(nn_object *self)
{
    namespace_obj *ns = (namespace_obj *)self;
    NN_RELEASE(ns->attrs);
    nn_free(ns);
}

static char *namespace_repr(nn_object *self)
{
    namespace_obj *ns = (namespace_obj *)self;
    nn_object *s = nn_str_format("<module '%s' (built-in)>", ns->name);
    char *r = s ? nn_strdup(nn_str_cstr(s)) : NULL;
    NN_RELEASE(s);
    return r;
}

/* del torch.nn.functional.name: AttributeError as CPython's module when it has none */
static int namespace_delattr(nn_object *self, const char *name)
{
    namespace_obj *ns = (namespace_obj *)self;
    if (nn_dict_get_str(ns->attrs, name)) return nn_dict_del_str(ns->attrs, name);
    return nn_error_set(NN_ERR_ATTRIBUTE, "module '%s' has no attribute '%s'", ns->name, name);
}

static const nn_type namespace_type = {.name = "module", .dealloc = namespace_dealloc, .repr = namespace_repr,
                                       .delattr = namespace_delattr};

nn_object *repl_namespace_new(const char *name)
{
    namespace_obj *ns = nn_malloc(sizeof *ns);
    if (!ns) return NULL;
    nn_object_init(&ns->ob, &namespace_type);
    snprintf(ns->name, sizeof ns->name, "%s", name);
    ns->attrs = nn_dict_new();
    if (!ns->attrs) {
        nn_free(ns);
        return NULL;
    }
    return &ns->ob;
}

bool repl_is_namespace(const nn_object *o) { return o && o->type == &namespace_type; }

int repl_namespace_set(nn_object *ns, const char *name, nn_object *value)
{
    return nn_dict_set_str(((namespace_obj *)ns)->attrs, name, value);
}

const char *repl_namespace_name(const nn_object *ns) { return ((const namespace_obj *)ns)->name; }
nn_object *repl_namespace_attrs(nn_object *ns) { return ((namespace_obj *)ns)->attrs; }

bool repl_bind_module_of(nn_object *o, const char **name, nn_object **attrs)
{
    if (!repl_is_namespace(o)) return false;
    *name = repl_namespace_name(o);
    *attrs = repl_namespace_attrs(o);
    return true;
}

int repl_namespace_add_fn(nn_object *ns, const repl_function_def *def)
{
    native_fn *f = native_fn_new(def->name, def->doc);
    if (!f) return -1;
    f->fn = def->fn;
    snprintf(f->module, sizeof f->module, "%s", repl_namespace_name(ns));
    int rc = repl_namespace_set(ns, def->name, &f->ob);
    NN_RELEASE(f);
    return rc;
}

int repl_namespace_add_fns(nn_object *ns, const repl_function_def *defs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (repl_namespace_add_fn(ns, &defs[i])) return -1;
    return 0;
}

/* getattr on a namespace: new reference or NULL with AttributeError. */
nn_object *repl_namespace_getattr(nn_object *o, const char *name)
{
    namespace_obj *ns = (namespace_obj *)o;
    nn_object *v = nn_dict_get_str(ns->attrs, name);
    if (v) return nn_retain(v);
    if (!strcmp(name, "__name__")) return nn_str_new(ns->name);
    /* a name a module of the language defines (torch.autograd.gradcheck, the function: it
       wins over the submodule of that name, as PyTorch's package attribute does) */
    if (nn_error_current() == NN_OK && (v = repl_stdlib_alias(ns->name, name))) return v;
    /* a submodule the language defines (torch.optim.lr_scheduler) */
    char sub[256];
    if (nn_error_current() == NN_OK && snprintf(sub, sizeof sub, "%s.%s", ns->name, name) < (int)sizeof sub &&
        (v = repl_stdlib_module(sub)))
        return v;
    if (nn_error_current() == NN_OK)
        nn_error_set(NN_ERR_ATTRIBUTE, "module '%s' has no attribute '%s'", ns->name, name);
    return NULL;
}

/* ---------------------------------------------------- native classes */

const nn_module_class repl_module_base_class = {.name = "Module"};

typedef struct class_obj {
    nn_object ob;
    const repl_class_def *def;
} class_obj;

static void class_dealloc(nn_object *self) { nn_free(self); }

static char *class_repr(nn_object *self)
{
    const repl_class_def *d = ((class_obj *)self)->def;
    size_t n = strlen(d->qualname) + 16;
    char *r = nn_malloc(n);
    if (r) snprintf(r, n, "<class '%s'>", d->qualname);
    return r;
}

static nn_object *class_call(nn_object *self, nn_object *args, nn_object *kwargs)
{
    const repl_class_def *d = ((class_obj *)self)->def;
    if (!d->ctor) {
        nn_error_set(NN_ERR_TYPE, "cannot create '%s' instances", d->qualname);
        return NULL;
    }
    nn_object *a = repl_native_args(args), *k = a ? repl_native_kwargs(kwargs) : NULL;
    nn_object *r = a && (k || !kwargs) ? d->ctor((void *)d, a, k) : NULL; /* nn.ModuleDict(MyDict(...)) */
    NN_RELEASE(a);
    NN_RELEASE(k);
    return r;
}

static const nn_type class_type = {.name = "type", .dealloc = class_dealloc, .repr = class_repr, .call = class_call};

nn_object *repl_class_new(const repl_class_def *def)
{
    class_obj *c = nn_malloc(sizeof *c);
    if (!c) return NULL;
    nn_object_init(&c->ob, &class_type);
    c->def = def;
    return &c->ob;
}

bool repl_is_class(const nn_object *o) { return o && o->type == &class_type; }
const repl_class_def *repl_class_def_of(const nn_object *cls) { return ((const class_obj *)cls)->def; }

bool repl_tables_method_at(const repl_method_def *const *tables, size_t i, repl_method_doc *out)
{
    for (; *tables; tables++)
        for (const repl_method_def *d = *tables; d->name; d++)
            if (i-- == 0) {
                *out = (repl_method_doc){d->name, d->doc, false};
                return true;
            }
    return false;
}

/* The method of cls's instances named name into *out; false if none. */
static bool class_method_doc(const repl_class_def *d, const char *name, repl_method_doc *out)
{
    for (size_t i = 0; d->method_at && d->method_at(d, i, out); i++)
        if (!strcmp(out->name, name)) return true;
    return false;
}

/* torch.Tensor.name for a name that the documented tables lack but a tensor has
   (the aliases, the methods of repl/lib): an unbound method, or for a data
   attribute (torch.Tensor.shape) its descriptor. A probe tensor answers which. */
static nn_object *tensor_class_member(nn_object *cls, const char *name)
{
    if (name[0] == '_' && name[1] == '_') return NULL;
    nn_tensor *probe = nn_zeros(2, (const int64_t[]){2, 2}, NN_FLOAT32); /* mT and H want a matrix */
    if (!probe) return NULL;
    nn_object *v = repl_bindings_ops()->getattr(&probe->ob, name);
    NN_RELEASE(probe);
    nn_error_kind failed = v ? NN_OK : nn_error_current();
    if (failed == NN_ERR_ATTRIBUTE || failed == NN_ERR_MEMORY) {
        if (failed == NN_ERR_ATTRIBUTE) nn_error_clear();
        return NULL;
    }
    nn_error_clear(); /* another error: a property that this probe cannot answer */
    bool callable = v && (v->type->call != NULL || repl_is_native_function(v));
    NN_RELEASE(v);
    native_fn *f = native_fn_new(name, NULL);
    if (!f) return NULL;
    f->cls = nn_retain(cls);
    f->attribute = !callable;
    return &f->ob;
}

nn_object *repl_class_getattr(nn_object *cls, const char *name)
{
    const repl_class_def *d = repl_class_def_of(cls);
    repl_method_doc m;
    nn_object *fwd = !strcmp(name, "forward") ? repl_native_module_forward(cls) : NULL; /* the class's own */
    if (fwd || nn_error_current()) return fwd;
    if (class_method_doc(d, name, &m)) {
        native_fn *f = native_fn_new(name, m.doc);
        if (!f) return NULL;
        f->cls = nn_retain(cls);
        f->self_first = m.self_first;
        return &f->ob;
    }
    if (!strcmp(name, "__name__") || !strcmp(name, "__qualname__")) return nn_str_new(d->name);
    if (!strcmp(name, "__module__")) {
        const char *dot = strrchr(d->qualname, '.');
        return nn_str_from(d->qualname, dot ? (size_t)(dot - d->qualname) : 0);
    }
    if (!strcmp(name, "__doc__")) return d->doc ? nn_str_new(d->doc) : nn_retain(nn_none());
    nn_object *init = !strcmp(name, "__init__") ? repl_native_module_init(cls) : NULL; /* nn.Linear.__init__ */
    if (init || nn_error_current()) return init;
    nn_object *cm = d->module_class ? repl_native_classmethod(cls, name) : NULL; /* Embedding.from_pretrained */
    if (cm || nn_error_current()) return cm;
    nn_object *member = d->instance_type == &nn_tensor_type ? tensor_class_member(cls, name) : NULL;
    if (member || nn_error_current()) return member;
    nn_error_set(NN_ERR_ATTRIBUTE, "type object '%s' has no attribute '%s'", d->name, name);
    return NULL;
}

int repl_bind_isinstance(nn_object *obj, nn_object *cls)
{
    if (!repl_is_class(cls)) return -1;
    const repl_class_def *d = repl_class_def_of(cls);
    if (d->module_class) {
        if (d->module_class == &repl_module_base_class) return nn_is_module(obj);
        return nn_module_is_a(obj, d->module_class);
    }
    if (d->instance_type == &nn_optimizer_type && strcmp(d->name, "Optimizer"))
        return obj && nn_is_instance(obj, &nn_optimizer_type) && !strcmp(obj->type->name, d->name);
    int legacy = repl_legacy_class_dtype(cls); /* isinstance(x, torch.FloatTensor) */
    if (legacy >= 0) return obj && nn_is_tensor(obj) && NN_TENSOR(obj)->dtype == (nn_dtype)legacy;
    if (d->instance_type) return obj && nn_is_instance(obj, d->instance_type);
    return 0;
}

const nn_module_class *repl_bind_module_class_of(nn_object *cls)
{
    if (!repl_is_class(cls)) return NULL;
    return repl_class_def_of(cls)->module_class;
}

int repl_bind_module_issubclass(nn_object *cls, nn_object *base)
{
    const nn_module_class *c = repl_bind_module_class_of(cls), *b = repl_bind_module_class_of(base);
    if (!c || !b) return 0;
    if (b == &repl_module_base_class) return 1;
    for (; c; c = c->base)
        if (c == b) return 1;
    return 0;
}

/* ---------------------------------------------------------- small values */

typedef struct dtype_obj {
    nn_object ob;
    nn_dtype dt;
} dtype_obj;

static char *dtype_repr(nn_object *self) { return nn_strdup(nn_dtype_name(((dtype_obj *)self)->dt)); }

const nn_type repl_dtype_type = {.name = "dtype", .repr = dtype_repr};

#define DT(d) {{1 << 30, &repl_dtype_type}, d}
static dtype_obj dtypes[NN_DTYPE_COUNT] = {DT(NN_FLOAT32), DT(NN_FLOAT64), DT(NN_FLOAT16), DT(NN_BFLOAT16),
                                           DT(NN_INT64),   DT(NN_INT32),   DT(NN_BOOL),
                                           DT(NN_UINT8),   DT(NN_INT8),    DT(NN_INT16),
                                           DT(NN_COMPLEX64), DT(NN_COMPLEX128)};
#undef DT

nn_object *repl_dtype_object(nn_dtype dt) { return &dtypes[dt].ob; }
bool repl_is_dtype(const nn_object *o) { return o && o->type == &repl_dtype_type; }
nn_dtype repl_dtype_value(const nn_object *o) { return ((const dtype_obj *)o)->dt; }

nn_object *repl_dtype_getattr(nn_object *o, const char *name)
{
    nn_dtype dt = repl_dtype_value(o);
    if (!strcmp(name, "is_floating_point")) return nn_bool_new(nn_dtype_is_floating(dt));
    if (!strcmp(name, "is_complex")) return nn_bool_new(nn_dtype_is_complex(dt));
    if (!strcmp(name, "itemsize")) return nn_int_new((int64_t)nn_dtype_size(dt));
    if (!strcmp(name, "is_signed")) return nn_bool_new(dt != NN_BOOL && dt != NN_UINT8);
    nn_error_set(NN_ERR_ATTRIBUTE, "'torch.dtype' object has no attribute '%s'", name);
    return NULL;
}

nn_object *repl_tuple_as(nn_object *tuple, nn_type *type)
{
    if (!type->dealloc) {
        type->dealloc = nn_tuple_type.dealloc;
        type->hash = nn_tuple_type.hash;
        type->equal = nn_tuple_type.equal;
        type->traverse = nn_tuple_type.traverse; /* tracked as the tuple it was */
        type->clear = nn_tuple_type.clear;
    }
    if (nn_tuple_len(tuple) == 0) { /* () is one shared object: an empty torch.Size is a new one */
        NN_RELEASE(tuple);
        nn_tuple *t = nn_malloc(sizeof *t);
        if (!t) return NULL;
        nn_object_init(&t->ob, &nn_tuple_type);
        t->len = 0;
        tuple = &t->ob;
    }
    tuple->type = type;
    return tuple;
}

/* torch.Size: the tuple's layout under another type whose repr differs. */
static char *size_repr(nn_object *self)
{
    size_t n = nn_tuple_len(self);
    size_t cap = 32 + n * 24;
    char *r = nn_malloc(cap);
    if (!r) return NULL;
    size_t len = (size_t)snprintf(r, cap, "torch.Size([");
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(r + len, cap - len, "%s%lld", i ? ", " : "",
                                (long long)nn_int_value(nn_tuple_get(self, i)));
    snprintf(r + len, cap - len, "])");
    return r;
}

nn_type repl_size_type = {.name = "Size", .repr = size_repr, .base = &nn_tuple_type};

nn_object *repl_size_new(int ndim, const int64_t *sizes)
{
    nn_object *t = nn_tuple_new((size_t)ndim);
    if (!t) return NULL;
    for (int i = 0; i < ndim; i++) {
        nn_object *v = nn_int_new(sizes[i]);
        if (!v) {
            NN_RELEASE(t);
            return NULL;
        }
        nn_tuple_set(t, (size_t)i, v);
    }
    return repl_tuple_as(t, &repl_size_type);
}

/* torch.device: a type ("cpu", "cuda", ...) and an index (-1: none). */
typedef struct device_obj {
    nn_object ob;
    char type[16];
    int index;
} device_obj;

static char *device_repr(nn_object *self)
{
    device_obj *d = (device_obj *)self;
    char buf[64];
    if (d->index >= 0) snprintf(buf, sizeof buf, "device(type='%s', index=%d)", d->type, d->index);
    else snprintf(buf, sizeof buf, "device(type='%s')", d->type);
    return nn_strdup(buf);
}

static char *device_str(nn_object *self)
{
    device_obj *d = (device_obj *)self;
    char buf[48];
    if (d->index >= 0) snprintf(buf, sizeof buf, "%s:%d", d->type, d->index);
    else snprintf(buf, sizeof buf, "%s", d->type);
    return nn_strdup(buf);
}

static void device_dealloc(nn_object *self) { nn_free(self); }

/* devices compare and hash by type and index, as PyTorch's do */
static int device_equal(nn_object *a, nn_object *b)
{
    const device_obj *x = (const device_obj *)a, *y = (const device_obj *)b;
    return a->type == b->type && x->index == y->index && !strcmp(x->type, y->type);
}

static int64_t device_hash(nn_object *self)
{
    const device_obj *d = (const device_obj *)self;
    uint64_t h = 1469598103934665603u;
    for (const char *p = d->type; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211u;
    h = (h ^ (uint64_t)(d->index + 1)) * 1099511628211u;
    return (int64_t)(h >> 2);
}

static const nn_type device_type = {.name = "device", .dealloc = device_dealloc, .repr = device_repr,
                                    .str = device_str, .hash = device_hash, .equal = device_equal};
static device_obj cpu_device = {{1 << 30, &device_type}, "cpu", -1};

nn_object *repl_cpu_device(void) { return &cpu_device.ob; }

bool repl_is_device(const nn_object *o) { return o && o->type == &device_type; }

nn_object *repl_device_new(const char *spec, int64_t index)
{
    static const char *const known[] = {"cpu", "cuda", "ipu", "xpu", "mtia", "meta", "mps"};
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    bool ok = false;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strlen(known[i]) == len && !strncmp(known[i], spec, len)) ok = true;
    if (!ok || len >= 16) {
        nn_error_set(NN_ERR_RUNTIME,
                     "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, ort, xla, "
                     "lazy, vulkan, mps, meta, hpu, privateuseone device type at start of device string: %s",
                     spec);
        return NULL;
    }
    if (colon) {
        char *end;
        long v = strtol(colon + 1, &end, 10);
        if (*end || end == colon + 1 || v < 0) {
            nn_error_set(NN_ERR_RUNTIME, "Invalid device string: '%s'", spec);
            return NULL;
        }
        index = v;
    }
    if (len == 3 && !strncmp(spec, "cpu", 3) && index < 0) return nn_retain(&cpu_device.ob);
    device_obj *d = nn_malloc(sizeof *d);
    if (!d) return NULL;
    nn_object_init(&d->ob, &device_type);
    memcpy(d->type, spec, len);
    d->type[len] = 0;
    d->index = (int)index;
    return &d->ob;
}

const char *repl_device_type(const nn_object *o) { return ((const device_obj *)o)->type; }

nn_object *repl_device_getattr(nn_object *o, const char *name)
{
    device_obj *d = (device_obj *)o;
    if (!strcmp(name, "type")) return nn_str_new(d->type);
    if (!strcmp(name, "index")) return d->index >= 0 ? nn_int_new(d->index) : nn_retain(nn_none());
    nn_error_set(NN_ERR_ATTRIBUTE, "'torch.device' object has no attribute '%s'", name);
    return NULL;
}
