/*
 * bind_int.h — what the bind_*.c files share: the argument parser and its typed
 * converters, bound methods, namespace (built-in module) objects, native class
 * objects, dtype/Size/device values, and each file's getattr/ops entry points.
 * Private to repl/bind_*.c; the public face is bind.h.
 */
#ifndef REPL_BIND_INT_H
#define REPL_BIND_INT_H

#include "bind.h"
#include "native.h"

/* ------------------------------------------------------------ arguments */

/* Parses (args tuple, kwargs dict or NULL; both borrowed) against spec, a
   comma-separated list of parameter names: "input, dim=, keepdim=, *, dtype=".
   A trailing '=' marks an optional parameter; '*' starts the keyword-only ones;
   a leading "self, " is counted in Python's "takes N positional arguments"
   messages but not parsed. out[i] receives a borrowed object per parameter, or
   NULL when it was not given. 0, or -1 with Python's TypeError ("f() missing 1
   required positional argument: 'x'", "f() got an unexpected keyword argument
   'y'", "f() takes 2 positional arguments but 3 were given"). fname is the
   function's name as messages print it ("sum", "Linear.__init__"). */
int repl_parse_args(const char *fname, const char *spec, nn_object *args, nn_object *kwargs, nn_object **out);
/* The same with the first `skip` positional arguments left out (already consumed). */
int repl_parse_args_from(const char *fname, const char *spec, nn_object *args, size_t skip, nn_object *kwargs,
                         nn_object **out);

/* Typed conversions of a parsed argument (borrowed; NULL or None where allowed
   means "absent" and leaves *out as the caller's default). Errors are PyTorch's
   "sum(): argument 'dim' (position 2) must be int, not float" (TypeError).
   pos is the 1-based position for the message (0 leaves it out). 0 or -1. */
int repl_arg_tensor(const char *fname, const char *name, int pos, nn_object *o, nn_tensor **out);
int repl_arg_int(const char *fname, const char *name, int pos, nn_object *o, int64_t *out);
/* A dim of a tensor with ndim dims (-1: not known yet): repl_arg_int, then one
   past int's range is PyTorch's IndexError (not known: held at int's limit, for
   core to refuse), so a dim never wraps. */
int repl_arg_dim(const char *fname, const char *name, int pos, nn_object *o, int ndim, int64_t *out);
int repl_arg_double(const char *fname, const char *name, int pos, nn_object *o, double *out);
/* repl_arg_double with PyTorch's "float" parameter wording: "(position N)" only when
   the value came positionally (args holds at least pos values) */
int repl_arg_float(const char *fname, const char *name, int pos, nn_object *args, nn_object *o, double *out);
int repl_arg_bool(const char *fname, const char *name, int pos, nn_object *o, bool *out);
int repl_arg_str(const char *fname, const char *name, int pos, nn_object *o, const char **out);
/* torch.save/torch.load's f (torch_file_arg.c): a str, an os.PathLike's __fspath__(), or the name of a
   binary file object from open(), as a new str; NULL with TypeError. */
nn_object *repl_torch_file_path(const char *fname, nn_object *f);
/* Whether f is a file-like object torch.save / torch.load use through its methods
   (io.BytesIO, a user's class) rather than by path; then repl_torch_stream_write
   writes the archive (f.write(bytes), f.flush(); 0 or -1) and repl_torch_stream_read
   gives the bytes from f's position (a new bytes; NULL with PyTorch's
   AttributeError for an unseekable f, EOFError "Ran out of input" at its end). */
bool repl_torch_file_is_stream(nn_object *f);
int repl_torch_stream_write(nn_object *f, const void *data, size_t len);
nn_object *repl_torch_stream_read(nn_object *f);
/* dtype: a dtype object (None leaves *out); *out is an nn_dtype or -1. */
int repl_arg_dtype(const char *fname, const char *name, int pos, nn_object *o, int *out);
/* dims: an int or a tuple/list of ints, into dims[NN_MAX_DIMS]; *n = 0 for None. */
int repl_arg_dims(const char *fname, const char *name, int pos, nn_object *o, int *n, int *dims);
/* A shape from a tuple/list/Size of ints into sizes[NN_MAX_DIMS]. */
int repl_arg_shape(const char *fname, const char *name, nn_object *o, int *ndim, int64_t *sizes);
/* A shape given as varargs (torch.zeros(2, 3)) or one sequence (torch.zeros((2, 3))):
   the first `count` positional arguments of args from `skip`. */
int repl_shape_from_args(const char *fname, nn_object *args, size_t skip, size_t count, int *ndim,
                         int64_t *sizes);
/* Number of leading positional arguments from skip that are ints (a varargs shape). */
size_t repl_count_int_args(nn_object *args, size_t skip);
/* Python's type name of o for messages ("int", "Tensor", "Linear"). Borrowed. */
const char *repl_type_name(const nn_object *o);

/* The factories torch.zeros/ones/full/empty/rand/randn(*size, *, dtype=None,
   requires_grad=False, ...) with the shape as varargs or one sequence (full: the
   sequence then fill_value); default_dtype applies when no dtype= is given (-1:
   float32, or full's from fill_value). New reference. (bind_torch.c) */
typedef enum repl_factory {
    REPL_ZEROS, REPL_ONES, REPL_FULL, REPL_EMPTY, REPL_RAND, REPL_RANDN
} repl_factory;
nn_object *repl_tensor_factory(const char *fname, nn_object *args, nn_object *kwargs, repl_factory which,
                               int default_dtype);
/* The same as like's methods x.new_zeros(...) & co.: like's dtype and device unless
   dtype= and device= say otherwise. */
nn_object *repl_tensor_factory_like(const char *fname, nn_object *args, nn_object *kwargs, repl_factory which,
                                    const nn_tensor *like);

/* A number into a wrapped 0-dim tensor (int/float/bool), a tensor retained, or
   NULL without error for other objects. New reference. */
nn_tensor *repl_as_tensor(nn_object *o);

/* ------------------------------------------------------------ functions */

/* Docstrings: every function, class and method the bindings define carries one,
   next to its definition: its signature as PyTorch documents it, a newline, and
   one line ("randn(*size, *, generator=None, dtype=None, requires_grad=False) ->
   Tensor\nReturns a tensor filled with random numbers from a normal distribution
   with mean 0 and variance 1."). Methods are documented as bound (no self).
   help() prints them; repl_signature() takes the first line; tests/repl/test_docs.c
   fails naming every entry without one. */

/* A C method: self borrowed, args tuple, kwargs dict or NULL; new reference. */
typedef nn_object *(*repl_method_fn)(nn_object *self, nn_object *args, nn_object *kwargs);
typedef struct repl_method_def {
    const char *name;
    repl_method_fn fn;
    const char *doc;
} repl_method_def;
/* A module function (torch.randn) in a table of functions. */
typedef struct repl_function_def {
    const char *name;
    nn_cfunc fn;
    const char *doc;
} repl_function_def;
/* x.name for a method def (borrowed, static): calling it calls def->fn(self, args,
   kwargs); self retained. New reference. */
nn_object *repl_bound_method(const repl_method_def *def, nn_object *self);
/* Looks name up in a NULL-terminated table and binds it; NULL without error if absent. */
nn_object *repl_method_lookup(const repl_method_def *table, const char *name, nn_object *self);
/* x.name for a torch function (borrowed, static) that takes self first: calls
   def->fn((self, *args), kwargs) — torch.sum as x.sum. New reference. */
nn_object *repl_bound_function(const repl_function_def *def, nn_object *self);

/* The bindings' function objects (type builtin_function_or_method): module
   functions, bound methods and classes' unbound methods. */
bool repl_is_native_function(const nn_object *o);
/* __name__, __qualname__, __doc__, __module__, __self__ of one; new reference or
   NULL with AttributeError. */
nn_object *repl_native_function_getattr(nn_object *fn, const char *name);

/* ---------------------------------------------------- built-in modules */

/* A namespace object (type "module"): repr "<module 'torch'>", attributes in a dict.
   New reference. */
nn_object *repl_namespace_new(const char *name);
/* Adds attribute name = value (borrowed). 0 or -1. */
int repl_namespace_set(nn_object *ns, const char *name, nn_object *value);
/* Adds a C function (def borrowed, static) as attribute def->name. 0 or -1. */
int repl_namespace_add_fn(nn_object *ns, const repl_function_def *def);
/* Adds every function of a table of n defs. 0 or -1. */
int repl_namespace_add_fns(nn_object *ns, const repl_function_def *defs, size_t n);
bool repl_is_namespace(const nn_object *o);
/* ns.name: new reference or NULL with AttributeError "module 'torch' has no attribute 'x'". */
nn_object *repl_namespace_getattr(nn_object *ns, const char *name);
/* The namespace's name ("torch.nn"), borrowed. */
const char *repl_namespace_name(const nn_object *ns);
/* The namespace's attributes: a dict name -> value, borrowed (walked by tests/repl/test_docs.c). */
nn_object *repl_namespace_attrs(nn_object *ns);

/* ---------------------------------------------------- native classes */

struct repl_class_def;
/* The i-th method of a class's instances into *out; false past the end. Gives
   Class.method (an unbound method) and help(Class)'s list. */
typedef bool (*repl_method_at_fn)(const struct repl_class_def *cls, size_t i, repl_method_doc *out);

/* A class object: callable (constructor), usable in isinstance. repr
   "<class 'qualname'>". Exactly one of instance_type / module_class says
   what its instances are (NULL both: isinstance is always false). */
typedef struct repl_class_def {
    const char *name;                      /* "Linear" */
    const char *qualname;                  /* "torch.nn.modules.linear.Linear" */
    nn_cfunc ctor;                         /* may be NULL: not callable */
    const nn_type *instance_type;
    const nn_module_class *module_class;
    const char *doc;                       /* the constructor's signature "Linear(in_features, ...)" + one line */
    repl_method_at_fn method_at;           /* NULL: no methods */
} repl_class_def;
/* A new class object for def (borrowed, static). */
nn_object *repl_class_new(const repl_class_def *def);
bool repl_is_class(const nn_object *o);
const repl_class_def *repl_class_def_of(const nn_object *cls);
/* Class.name: the unbound method (callable with an instance first, as
   torch.Tensor.add(x, 1)), __name__, __qualname__, __module__ or __doc__; a new
   reference or NULL with AttributeError. */
nn_object *repl_class_getattr(nn_object *cls, const char *name);
/* method_at over NULL-terminated method tables (a helper for repl_method_at_fn's):
   the i-th entry of the tables in order. */
bool repl_tables_method_at(const repl_method_def *const *tables, size_t i, repl_method_doc *out);
/* nn.Module's class: isinstance(x, nn.Module) holds for every module; the base of
   classes the language derives from nn.Module. */
extern const nn_module_class repl_module_base_class;

/* ---------------------------------------------------------- small values */

/* The dtype object of dt (borrowed singleton). */
nn_object *repl_dtype_object(nn_dtype dt);
bool repl_is_dtype(const nn_object *o);
extern const nn_type repl_dtype_type; /* torch.float32 and the others */
nn_dtype repl_dtype_value(const nn_object *o);
nn_object *repl_dtype_getattr(nn_object *dtype, const char *name); /* new reference */
/* Gives tuple (a new one, owned by the caller) type, a tuple subtype with its
   own name and repr: type's dealloc, hash and equal are the tuple's (copied on
   first use: they are not constant initializers). Returns tuple. */
nn_object *repl_tuple_as(nn_object *tuple, nn_type *type);
/* torch.Size of sizes: a tuple subtype (repl_size_type; its tuple slots are
   filled in by the first repl_size_new); new reference. */
extern nn_type repl_size_type;
nn_object *repl_size_new(int ndim, const int64_t *sizes);
/* bind_size.c: Size + tuple, Size * n, Size[slice] (Sizes, as PyTorch's) and
   size.numel(); *handled false for other operands (NULL, no error). */
nn_object *repl_size_binary(repl_binop op, nn_object *a, nn_object *b, bool *handled);
nn_object *repl_size_getitem(nn_object *size, nn_object *key, bool *handled);
nn_object *repl_size_getattr(nn_object *size, const char *name, bool *handled);
/* device(type='cpu'): borrowed singleton. */
nn_object *repl_cpu_device(void);
bool repl_is_device(const nn_object *o);
/* torch.device("cuda:1") / torch.device("cuda", 1): index -1 for none; new reference
   or NULL with PyTorch's RuntimeError for an unknown type. */
nn_object *repl_device_new(const char *spec, int64_t index);
/* "cpu", "cuda", ... (borrowed) */
const char *repl_device_type(const nn_object *device);
nn_object *repl_device_getattr(nn_object *device, const char *name); /* new reference */
/* Checks a `device=` argument (None, a str or a torch.device) of fname (bind_device.c):
   0 for the CPU; -1 with AssertionError "Torch not compiled with CUDA enabled" for
   CUDA (PyTorch's CPU build), RuntimeError for a bad string or another type. Borrows o. */
int repl_arg_device(const char *fname, nn_object *o);
/* The same, giving the device (the default device when o is None or absent). */
int repl_arg_device_to(const char *fname, nn_object *o, nn_device *out);
/* The factories' default device: the CPU, or the loopback stand-in for CUDA
   under NNSCOPE_TEST_DEVICE=loopback (which this registers). */
nn_device repl_default_device(void);
/* t (taken) on device d: t itself when already there; NULL passes through. */
nn_tensor *repl_tensor_on(nn_tensor *t, nn_device d);
/* torch.cuda.is_available(): a CUDA backend (or its loopback stand-in) is registered. */
bool repl_cuda_available(void);
/* Tensor.cuda(device=None, non_blocking=False): the CPU build's AssertionError. */
nn_object *repl_tensor_cuda(nn_object *self, nn_object *args, nn_object *kwargs);
/* x.device: the torch.device of nn_device_of(x); new reference. */
nn_object *repl_tensor_device(const nn_tensor *t);
/* torch.set_num_threads(int) / torch.get_num_threads(): core's one thread budget
   (nn_set_num_threads), OpenBLAS's included. */
nn_object *repl_set_num_threads(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_get_num_threads(void *ud, nn_object *args, nn_object *kwargs);

/* ---------------------------------------------------------- per file */

/* bind_tensor.c */
nn_object *repl_tensor_getattr(nn_tensor *t, const char *name);
int repl_tensor_setattr(nn_tensor *t, const char *name, nn_object *value);
nn_object *repl_tensor_binary(repl_binop op, nn_object *a, nn_object *b);
/* bind_inplace.c: t OP= x written into the tensor t (native ops' inplace) */
nn_object *repl_tensor_inplace(repl_binop op, nn_object *a, nn_object *b);
nn_object *repl_tensor_unary(repl_unop op, nn_tensor *a);
/* bind_inplace.c: the result r of an op written into a, as `a += b` writes it
   (PyTorch's checks first: r's shape must be a's, r's dtype must cast to a's;
   autograd records the write as CopySlices, r carrying the op's history).
   0 or -1. And "[2, 3]" as PyTorch's messages print t's shape, into buf. */
int repl_tensor_write_result(nn_tensor *a, nn_tensor *r);
const char *repl_shape_text(const nn_tensor *t, char *buf, size_t n);
/* bind_tensor_more.c: aliases, in-place forms, view_as & co. (see there):
   t.name, or NULL without error when it is not one of them */
nn_object *repl_tensor_more_method(nn_tensor *t, const char *name);
nn_object *repl_tensor_lib_method(nn_tensor *t, const char *name); /* tensor_lib.c */
int repl_tensor_more_add_functions(nn_object *torch); /* 0 or -1 */
/* bind_complex.c: torch.complex, view_as_real, ... (0 or -1); t.real, t.imag, t.angle, ...
   (NULL without error when name is none of them); the Python complex at index of a
   complex tensor (new reference) */
int repl_complex_add_functions(nn_object *torch);
nn_object *repl_complex_method(nn_tensor *t, const char *name);
nn_object *repl_complex_scalar(const nn_tensor *t, const int64_t *index);
/* t.fill_(value), a Python complex: 0 or -1 */
int repl_fill_complex(nn_tensor *t, nn_object *value);
/* 0, or -1 with NotImplementedError when a complex tensor (self, an argument, or in a
   list or tuple argument) reaches a function or method that does not support them */
int repl_complex_check(const char *name, nn_object *self, nn_object *args, nn_object *kwargs);
/* torch.iinfo, finfo, promote_types, result_type, can_cast (bind_dtype_info.c): 0 or -1 */
int repl_dtype_info_add_functions(nn_object *torch);
/* iinfo/finfo attributes: *handled set for those objects. New reference. */
nn_object *repl_dtype_info_getattr(nn_object *o, const char *name, bool *handled);
/* type(node) for an autograd node (bind_node_type.c): the class named as the node
   (AddBackward0), one per name; new reference, or NULL without error for other objects.
   repl_node_classes_free drops them (at the bindings' shutdown). */
nn_object *repl_node_class_of(nn_object *obj);
void repl_node_classes_free(void);
nn_object *repl_tensor_getitem(nn_tensor *t, nn_object *key);
int repl_tensor_setitem(nn_tensor *t, nn_object *key, nn_object *value);
nn_object *repl_tensor_iterate(nn_tensor *t);
int repl_tensor_truth(nn_tensor *t);
/* Adds the tensor functions of torch (torch.sum, ...) to the namespace. 0 or -1. */
int repl_torch_add_tensor_functions(nn_object *torch);
/* torch.Tensor's methods (repl_method_at_fn). */
/* x.storage(), x.data_ptr(), x.set_() (repl/mod_torch_storage.c); NULL without an error for another name. */
nn_object *repl_storage_tensor_method(nn_tensor *t, const char *name);
bool repl_tensor_method_at(const repl_class_def *cls, size_t i, repl_method_doc *out);
/* Other objects' getattr handled by bind_tensor.c (grad_fn nodes); NULL without error if not one. */
nn_object *repl_node_getattr(nn_object *node, const char *name);
/* getattr on a custom Function node: the ctx's attribute (bind_function.c); NULL for other nodes. */
nn_object *repl_custom_node_getattr(nn_object *node, const char *name);
/* print(optimizer) from the param_groups dicts the language holds (bind_optim_repr.c). */
char *repl_optim_repr(nn_optimizer *opt);
/* getattr on a tensor hook's handle; *handled set when o is one. */
nn_object *repl_thandle_getattr(nn_object *o, const char *name, bool *handled);

/* bind_nn.c */
nn_object *repl_nn_namespace(void);         /* torch.nn, new reference */
nn_object *repl_functional_namespace(void); /* torch.nn.functional */
nn_object *repl_init_namespace(void);       /* torch.nn.init */
nn_object *repl_module_module_namespace(void); /* torch.nn.modules.module */
nn_object *repl_parameter_namespace(void);  /* torch.nn.parameter */
nn_object *repl_nn_utils_namespace(void);   /* torch.nn.utils (bind_nn_utils.c) */
nn_object *repl_module_getattr(nn_module *m, const char *name);
int repl_module_setattr(nn_module *m, const char *name, nn_object *value);
nn_object *repl_module_getitem(nn_module *m, nn_object *key);
int repl_module_setitem(nn_module *m, nn_object *key, nn_object *value);
/* getattr on other objects of bind_nn.c (hook handles, load results); NULL without error if not one. */
nn_object *repl_nn_other_getattr(nn_object *o, const char *name, bool *handled);
/* The class objects of MultiStep, FeedForward and TensorDict (other import
   paths); a new reference, or NULL (no error) for another name. */
nn_object *repl_nn_extra_class(const char *name);

/* bind_optim.c */
nn_object *repl_optim_namespace(void);      /* torch.optim, new reference */
nn_object *repl_optim_getattr(nn_object *opt, const char *name);
/* optimizer.state_dict() / load_state_dict(sd) / .state in PyTorch's layout (bind_optim_state.c). */
nn_object *repl_optim_state_dict(nn_optimizer *opt);
int repl_optim_load_state_dict(nn_optimizer *opt, nn_object *sd);
nn_object *repl_optim_state(nn_optimizer *opt);
/* Adds grad and backward to the torch.autograd namespace (bind_autograd.c). 0 or -1. */
int repl_autograd_add_functions(nn_object *ns);
/* The hooks with which torch.save / torch.load pickle whole modules and class instances
   (torch_pickle_objects.c); static. */
const nn_pickle_hooks *repl_torch_pickle_hooks(void);
/* Module._version of a module whose class is written in the language and sets one
   (state_dict's _metadata): core's nn_module_version_fn. */
int repl_module_version_lookup(nn_module *m, int64_t *version);
/* module_state_override.c: core's nn_module_override_fn for language classes, and
   Module._load_from_state_dict / Module._save_to_state_dict as methods */
int repl_module_override_lookup(nn_module *m, const char *name, nn_object **method);
nn_object *repl_module_load_from_state_dict(nn_object *self, nn_object *args, nn_object *kwargs);
nn_object *repl_module_save_to_state_dict(nn_object *self, nn_object *args, nn_object *kwargs);
/* torch_pickle_numpy.c: NumPy arrays, scalars, dtypes and bytes in torch.save/torch.load,
   as CPython's protocol-2 pickle of NumPy 1.x writes them; for the hooks above.
   reduce: 1 with *out (the hooks' reduce tuple), 0 when o is none of these, -1 error. */
int repl_np_pickle_reduce(nn_object *o, nn_object **out);
/* find: the global module.name when it is one of NumPy's (*handled), else NULL, !*handled */
nn_object *repl_np_pickle_find(const char *module, const char *name, bool *is_value, bool *handled);
/* call (REDUCE) of a global find gave (*handled), else NULL, !*handled */
nn_object *repl_np_pickle_call(nn_object *fn, nn_object *args, bool *handled);
/* build: 1 done, 0 not a NumPy object, -1 error */
int repl_np_pickle_build(nn_object *obj, nn_object *state);
/* torch_pickle_optim.c: optimizer objects and collections.defaultdict, the same way
   (reduce/find/call/build as above; build may make a *replacement); items: the dict
   that holds a defaultdict's items (borrowed) for SETITEMS, else NULL. */
int repl_optim_pickle_reduce(nn_object *o, nn_object **out);
nn_object *repl_optim_pickle_find(const char *module, const char *name, bool *is_value, bool *handled);
nn_object *repl_optim_pickle_call(nn_object *cls, nn_object *args, bool newobj, bool *handled);
int repl_optim_pickle_build(nn_object *obj, nn_object *state, nn_object **replacement);
nn_object *repl_optim_pickle_items(nn_object *obj);
/* tensor.backward(gradient, retain_graph, create_graph, inputs=...) as torch.autograd.backward's
   inputs (bind_autograd.c): 0, or -1 with the error set. */
int repl_tensor_backward_inputs(nn_tensor *self, nn_tensor *gradient, bool retain, bool create, nn_object *inputs);

/* bind_sys.c */
nn_object *repl_sys_namespace(void);        /* sys, new reference */

/* bind_torch.c */
nn_object *repl_torch_other_getattr(nn_object *o, const char *name, bool *handled);

/* bind_nn_more.c: the torch.nn surface of tutorials (pooling, more
   activations and losses) and the legacy loss arguments */
/* PyTorch's _Reduction.legacy_get_string: when size_average or reduce (borrowed,
   NULL or None = absent) is given, *red becomes 'mean', 'sum' or 'none' from
   them and PyTorch's deprecation warning goes through the warnings module, placed at
   torch/nn/_reduction.py:42 as 1.13's; else *red is left alone. 0, or -1 when a
   filter turns the warning into an error. */
int repl_legacy_reduction(nn_object *size_average, nn_object *reduce, const char **red);
int repl_nn_more_classes(nn_object *nn);         /* adds to torch.nn; 0 or -1 */
int repl_nn_more_functional(nn_object *fns);     /* adds to torch.nn.functional */
/* nn.Module's methods for a class def (bind_nn.c's table) */
bool repl_module_method_at(const repl_class_def *cls, size_t i, repl_method_doc *out);

/* bind_misc_ops.c: sgn, copysign, heaviside, gcd, lcm, logcumsumexp, renorm, the trapezoid
   rules, select/slice/diagonal_scatter, the window functions; clamp with tensor bounds */
int repl_misc_ops_add_functions(nn_object *torch); /* 0 or -1 */
nn_object *repl_misc_ops_method(nn_tensor *t, const char *name); /* new reference, or NULL without error */
/* clamp(x, min, max) where a bound (borrowed, NULL or None: absent) is a tensor; args and
   kwargs the call's, for PyTorch's message when the other is a number */
nn_object *repl_clamp_tensor_bounds(nn_tensor *x, nn_object *min, nn_object *max, nn_object *args, nn_object *kwargs);
/* clamp_min (is_min) or clamp_max with a tensor bound */
nn_object *repl_clamp_one_tensor(nn_tensor *x, nn_tensor *bound, bool is_min);
/* bind_math.c: torch.sin ... torch.logsumexp and the tensor methods */
int repl_math_add_functions(nn_object *torch); /* 0 or -1 */
/* torch.convolution and the grad_fn naming of layers written in the language (bind_nn_lang.c): 0 or -1 */
int repl_nn_lang_add_functions(nn_object *torch);
/* bind_consts.c: torch.pi, torch.e, torch.inf, torch.nan; 0 or -1 */
int repl_torch_add_constants(nn_object *torch);
/* t.name for those functions and their in-place methods (sin_, ...): a new
   reference, or NULL without error when name is not one */
nn_object *repl_math_method(nn_tensor *t, const char *name);
/* bind_special.c: lgamma, digamma, polygamma, mvlgamma, i0, sinc and torch._special_* on
   the torch namespace; the tensor methods and in-place methods (NULL: no such name) */
int repl_special_add_functions(nn_object *torch);
nn_object *repl_special_method(nn_tensor *t, const char *name);

/* bind_random.c: torch.Generator, generator=, multinomial, normal, bernoulli */
extern const nn_type repl_generator_type;
extern const repl_class_def repl_generator_class;
nn_object *repl_generator_getattr(nn_object *o, const char *name, bool *handled);
/* generator= (borrowed; NULL or None: *out NULL, the current one); 0 or -1 (TypeError) */
int repl_arg_generator(const char *fname, nn_object *o, nn_generator **out);
/* Runs body with generator= (gen_arg) as the generator draws come from; returns
   NULL from the caller when gen_arg is not a Generator. */
#define REPL_WITH_GENERATOR(fname, gen_arg, body)                                                                      \
    do {                                                                                                               \
        nn_generator *g__ = NULL;                                                                                      \
        if (repl_arg_generator(fname, gen_arg, &g__)) return NULL;                                                     \
        nn_generator *prev__ = nn_generator_use(g__ ? g__ : nn_current_generator());                                  \
        body;                                                                                                          \
        nn_generator_use(prev__);                                                                                      \
    } while (0)
int repl_random_add_functions(nn_object *torch); /* 0 or -1 */
/* t.multinomial, bernoulli, bernoulli_, exponential_, random_: new reference or NULL without error */
nn_object *repl_random_method(nn_tensor *t, const char *name);

/* bind_select.c: sort, topk, cumsum, flip, gather, scatter, chunk, ..., F.one_hot */
int repl_select_add_functions(nn_object *torch);  /* 0 or -1 */
int repl_select_functional(nn_object *fns);       /* adds to torch.nn.functional */
/* t.sort, t.flip, t.scatter_, ...: new reference or NULL without error */
nn_object *repl_select_method(nn_tensor *t, const char *name);
/* 0 for an absent or None out=, else NotImplementedError "f: out= is not supported" */
int repl_no_out(const char *f, nn_object *o);

/* bind_return_types.c: torch.return_types (the list: return_types.def) */
typedef enum repl_return_id {
#define RETURN_TYPE(name, ...) REPL_RETURN_##name, REPL_RETURN_##name##_out,
#include "return_types.def"
#undef RETURN_TYPE
    REPL_RETURN_COUNT
} repl_return_id;
/* tuple (taken; NULL passes through) as the return type id */
nn_object *repl_return_tuple(repl_return_id id, nn_object *tuple);
/* the n tensors of items (taken) as the return type id; NULL when rc < 0 (all released) */
nn_object *repl_return_tensors(int rc, size_t n, nn_tensor **items, repl_return_id id);
nn_object *repl_return_pair(int rc, nn_tensor *first, nn_tensor *second, repl_return_id id);
/* o's return type id, or -1 when o is none */
int repl_return_type_id(const nn_object *o);
/* r.values, r.indices, ...: *handled when o is a return type */
nn_object *repl_return_type_getattr(nn_object *o, const char *name, bool *handled);
nn_object *repl_return_types_namespace(void);

/* bind_act.c: ReLU6, Hardtanh, Hardswish, ..., Softmin and their F. forms */
int repl_act_classes(nn_object *nn);     /* adds to torch.nn; 0 or -1 */
int repl_act_functional(nn_object *fns); /* adds to torch.nn.functional */
/* bind_modules_more.c: SELU, GLU, RReLU, Softmax2d, Unflatten, channel/alpha dropout, padding */
int repl_modules_more_classes(nn_object *nn);
int repl_modules_more_functional(nn_object *fns);
/* bind_norm_conv.c: GroupNorm, InstanceNorm, Conv1d, ConvTranspose, Upsample, MaxUnpool2d */
int repl_norm_conv_classes(nn_object *nn);
int repl_norm_conv_functional(nn_object *fns);
/* bind_nn_more.c: a class object for each of defs[0..n) set in namespace ns; 0 or -1 */
int repl_namespace_add_classes(nn_object *ns, const repl_class_def *defs, size_t n);
/* bind_loss.c: BCELoss, BCEWithLogitsLoss, NLLLoss, SmoothL1Loss, ... and their F. forms */
int repl_loss_classes(nn_object *nn);     /* adds to torch.nn (CrossEntropyLoss replaced); 0 or -1 */
int repl_loss_functional(nn_object *fns); /* adds to torch.nn.functional (cross_entropy replaced) */

/* bind_rnn.c: RNN, LSTM, GRU and their cells; MultiheadAttention, Transformer*; torch.nn.utils.rnn */
int repl_rnn_classes(nn_object *nn);            /* adds to torch.nn; 0 or -1 */
int repl_rnn_functional(nn_object *fns);        /* adds to torch.nn.functional; 0 or -1 */
/* rnn.reset_parameters, flatten_parameters: new reference or NULL without error */
nn_object *repl_rnn_method(nn_module *m, const char *name);
nn_object *repl_nn_utils_rnn_namespace(void);   /* torch.nn.utils.rnn */
/* PackedSequence's fields (.data, .batch_sizes, ...): *handled when o is one */
nn_object *repl_rnn_getattr(nn_object *o, const char *name, bool *handled);
bool repl_is_packed_sequence(const nn_object *o); /* a torch.nn.utils.rnn.PackedSequence */

/* bind_ops_more.c: prod, amax/amin, median, mode, diag*, index_add, outer,
   nonzero, unique, bincount, histc, histogram, einsum, ...; the legacy typed
   constructors torch.FloatTensor, ... */
int repl_ops_more_add_functions(nn_object *torch); /* 0 or -1 */
/* mod_numpy.c: Tensor.numpy() (NULL without error for other names), torch.from_numpy and
   torch.as_tensor (0 or -1), an ndarray's tensor (borrowed; NULL when o is no ndarray) and
   the ndarray over a tensor's memory (new reference, or NULL with the error). */
nn_object *repl_numpy_method(nn_tensor *t, const char *name);
int repl_numpy_add_torch_functions(nn_object *torch);
nn_tensor *repl_numpy_tensor_of(nn_object *o);
/* An ndarray whose dtype torch has no tensor of (uint16, uint32): -1 with PyTorch's
   TypeError "can't convert np.ndarray of type numpy.uint16. ..."; else 0. */
int repl_numpy_unconvertible(nn_object *o);
/* The legacy constructors (torch.Tensor(a), torch.FloatTensor(a)) of an ndarray o: false when o
   is none; else true with *r the tensor in dtype dt (sharing a's memory when a has that dtype,
   as PyTorch's) or NULL with the error. */
bool repl_numpy_legacy_new(nn_object *o, nn_dtype dt, nn_object **r);
/* np_scalar.c: a new reference to the 0-d tensor of a NumPy scalar (np.float32(1.5),
   a[0], a.sum()), of its dtype; NULL for anything else (an error set if it failed). */
nn_tensor *repl_numpy_scalar_tensor(nn_object *o);
/* Whether o is a NumPy scalar (an instance of numpy.generic's types). */
bool repl_numpy_is_scalar(nn_object *o);
nn_object *repl_numpy_from_tensor(nn_tensor *t);
/* t.prod, t.index_add_, ...: new reference or NULL without error */
nn_object *repl_ops_more_method(nn_tensor *t, const char *name);
/* The tensors of args from skip: varargs, or one list/tuple of them (ts[] borrowed, at most max). 0 or -1. */
int repl_tensor_list(const char *f, nn_object *args, size_t skip, nn_tensor **ts, int max, int *n);
/* bind_ops_extra.c: fmod, logit, nansum, rot90, take, cummax, cross, kron, tensordot, diff,
   atleast_Nd, dstack, searchsorted, torch.linalg, ...; the same shape as the ops_more entries */
int repl_ops_extra_add_functions(nn_object *torch); /* 0 or -1 */
nn_object *repl_ops_extra_method(nn_tensor *t, const char *name);
/* bind_linalg.c: adds torch.linalg's functions to the namespace; tensor methods (x.det()) */
int repl_linalg_add_functions(nn_object *linalg);
int repl_linalg_add_torch_functions(nn_object *torch);
nn_object *repl_linalg_method(nn_tensor *t, const char *name);
/* torch.NAME(..., out=t) for the functions that take out= here: true when it
   handled the call (*result the out tensor, or NULL with the error); false
   when out= is absent or None, or NAME is not one (call fn as usual). */
bool repl_out_call(const char *name, nn_cfunc fn, nn_object *args, nn_object *kwargs, nn_object **result);
/* scatter(x, dim, index, src (tensor or number), reduce=reduce): new reference or NULL. */
nn_object *repl_scatter_reduce(nn_tensor *x, int64_t dim, nn_tensor *index, nn_object *src, nn_object *reduce);
/* The dtype of a legacy class object (torch.FloatTensor: float32), or -1 for any other object. */
int repl_legacy_class_dtype(const nn_object *cls);
/* bind_div_mode.c: whether a call names rounding_mode=, and the call made by the language's
   torch._div_mode (self NULL: torch.div's args; else self.div_'s). */
bool repl_div_has_mode(nn_object *kwargs);
nn_object *repl_div_mode(nn_object *self, nn_object *args, nn_object *kwargs);
/* bind_lazy.c: UninitializedParameter / UninitializedBuffer into namespace ns (0 or -1), and
   torch._nnscope_materialize / torch._nnscope_module_become (the Lazy modules' C side) */
int repl_lazy_add_classes(nn_object *ns);
nn_object *repl_lazy_materialize(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_lazy_module_become(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_lazy_mute_warnings(void *ud, nn_object *args, nn_object *kwargs);
/* torch_arg_errors.c: a TypeError that the argument parser raised for torch's C function or Tensor
   method name (self: the method's tensor, NULL for torch's function; args: the call's, from skip on
   without self) reworded as PyTorch 1.13's parser words it; any other error is left alone */
void repl_torch_arg_error(const char *name, nn_object *self, nn_object *args, size_t skip, nn_object *kwargs);
/* torch._nnscope_frombuffer (bind_ops_more.c), under torch.frombuffer (repl/lib/torch._frombuffer.py) */
nn_object *repl_nnscope_frombuffer(void *ud, nn_object *args, nn_object *kwargs);
/* native_module_init.c: NativeClass.__init__ as a function of (self, *args) for a module class of
   core (not nn.Module); NULL without an error for any other class. A new reference. */
nn_object *repl_native_module_init(nn_object *cls);
/* torch.norm(x, p='nuc' or another string) as 1.13's: linalg.matrix_norm over dims (every dim when n
   is 0), bind_linalg.c */
nn_tensor *repl_matrix_norm_str(nn_tensor *x, const char *ord, int n, const int *dims, bool keepdim);
/* x.nonzero(as_tuple=True), also torch.where(condition) (bind_ops_more.c): a new tuple */
nn_object *repl_nonzero_tuple(nn_tensor *x);
/* ... a class method written in the language (Embedding.from_pretrained), bound to cls; NULL without
   an error when there is none of that name */
nn_object *repl_native_classmethod(nn_object *cls, const char *name);
/* ... and NativeClass.forward as a function of (self, *args): the class's own forward */
nn_object *repl_native_module_forward(nn_object *cls);
/* native_module_init.c: nn.MultiheadAttention with add_bias_kv / add_zero_attn (the language's subclass) */
nn_object *repl_mha_with_bias_kv(nn_object *args, nn_object *kwargs);

#endif
