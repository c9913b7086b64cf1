/*
 * nn_module.h — the nn.Module API of core (module.c, module_call.c):
 * registration, traversal, lookup, state_dict, modes and dtypes, repr,
 * the one __call__ path with every kind of hook, and hook handles.
 * Included by nn.h; C programs use modules without the REPL.
 *
 * Lists that PyTorch yields from generators are returned here as list
 * objects: named_* functions give a list of (str, value) tuples.
 */
#ifndef NN_MODULE_H
#define NN_MODULE_H

typedef struct nn_module nn_module;

/* A module class: what `class Linear(Module)` is in PyTorch. Classes written
   in the language get one allocated by repl/, with `lang_class` its class object. */
typedef struct nn_module_class {
    const char *name;
    /* forward(self, args tuple, kwargs dict or NULL); returns a new reference */
    nn_object *(*forward)(nn_module *self, nn_object *args, nn_object *kwargs);
    /* extra_repr(self) as a new nn_malloc'd string; NULL slot means "" */
    char *(*extra_repr)(nn_module *self);
    /* get_extra_state / set_extra_state overrides (NULL: none, as Module's) */
    nn_object *(*get_extra_state)(nn_module *self);
    int (*set_extra_state)(nn_module *self, nn_object *state);
    /* runs before the first forward of a lazy module (LazyLinear); may be NULL */
    int (*before_forward)(nn_module *self, nn_object *args);
    const struct nn_module_class *base;
    nn_object *lang_class; /* borrowed: the language's class object, or NULL */
} nn_module_class;

struct nn_module {
    nn_object ob; /* ob.type == &nn_module_type */
    const nn_module_class *cls;
    bool training;
    /* dicts as PyTorch's: name -> value, in registration order */
    nn_object *parameters;     /* Parameter or None */
    nn_object *buffers;        /* Tensor or None */
    nn_object *non_persistent; /* names of buffers left out of state_dict (values None) */
    nn_object *modules;        /* Module or None */
    nn_object *attrs;          /* every other attribute (module config, language values) */
    /* hooks: handle id (int) -> callable; the *_with_kwargs / always_called dicts hold True per id */
    nn_object *forward_pre_hooks, *forward_pre_hooks_with_kwargs;
    nn_object *forward_hooks, *forward_hooks_with_kwargs, *forward_hooks_always_called;
    nn_object *backward_pre_hooks, *backward_hooks;
    int is_full_backward_hook; /* -1: no backward hook yet, 0: register_backward_hook, 1: full */
    nn_object *state_dict_pre_hooks, *state_dict_hooks;
    nn_object *load_state_dict_pre_hooks, *load_state_dict_post_hooks;
    /* name -> the value nn_module_getattr last computed for a name that a property of m's
       language class stands for (torch.nn.utils.parametrize's weight), or NULL */
    nn_object *computed;
};

extern const nn_type nn_module_type;
static inline bool nn_is_module(const nn_object *o) { return o && o->type == &nn_module_type; }
#define NN_MODULE(o) ((nn_module *)(o))

/* The class that provides a slot: cls or the first base with it set (a subclass
   inherits forward, extra_repr and the extra-state functions). NULL if none. */
#define NN_MODULE_SLOT(cls, slot) nn_module_class_slot_owner((cls), offsetof(nn_module_class, slot))
const nn_module_class *nn_module_class_slot_owner(const nn_module_class *cls, size_t slot_offset);
/* The class of core that m is (nn_linear_class ...): m's own, or for a module of a class of the
   language deriving from one (class L(nn.Linear)), that core base. */
const nn_module_class *nn_module_core_class(const nn_module *m);

/* A new module of cls in training mode, with empty dicts; new reference. */
nn_module *nn_module_new(const nn_module_class *cls);
/* The class name ("Linear"), as Module._get_name(). */
const char *nn_module_name(const nn_module *m);

/* Parameters: a Parameter made from data (shares its storage, requires_grad as given). */
nn_tensor *nn_parameter_new(nn_tensor *data, bool requires_grad);
static inline bool nn_is_parameter(const nn_object *o) { return o && nn_is_instance(o, &nn_parameter_type); }

/* ---- registration: 0, or -1 with PyTorch's KeyError/TypeError/ValueError.
   All borrow their object arguments (NULL registers None). */
int nn_module_register_parameter(nn_module *m, const char *name, nn_tensor *param);
int nn_module_register_buffer(nn_module *m, const char *name, nn_tensor *buffer, bool persistent);
int nn_module_add_module(nn_module *m, const char *name, nn_module *child);
/* Module.__setattr__: a Parameter registers, a Module becomes a child, a tensor
   (or None) replaces a buffer of that name, anything else goes to attrs. */
int nn_module_setattr(nn_module *m, const char *name, nn_object *value);
/* Module.__getattr__ (parameters, buffers, modules, then attrs): borrowed,
   or NULL with AttributeError "'Linear' object has no attribute 'x'". */
nn_object *nn_module_getattr(nn_module *m, const char *name);
/* Module.__delattr__. */
int nn_module_delattr(nn_module *m, const char *name);

/* ---- traversal: new list references */
nn_object *nn_module_children(nn_module *m);
nn_object *nn_module_named_children(nn_module *m);
nn_object *nn_module_modules(nn_module *m);
/* each module yielded once when remove_duplicate */
nn_object *nn_module_named_modules(nn_module *m, const char *prefix, bool remove_duplicate);
/* The same with PyTorch's memo: a dict used as a set of modules already seen
   (borrowed, updated); modules in it are skipped. */
nn_object *nn_module_named_modules_memo(nn_module *m, nn_object *memo, const char *prefix, bool remove_duplicate);
nn_object *nn_module_parameters(nn_module *m, bool recurse);
nn_object *nn_module_named_parameters(nn_module *m, const char *prefix, bool recurse, bool remove_duplicate);
nn_object *nn_module_buffers(nn_module *m, bool recurse);
nn_object *nn_module_named_buffers(nn_module *m, const char *prefix, bool recurse, bool remove_duplicate);

/* ---- lookup by dotted path: borrowed results, AttributeError naming the missing part */
nn_module *nn_module_get_submodule(nn_module *m, const char *target);
int nn_module_set_submodule(nn_module *m, const char *target, nn_module *child, bool strict);
nn_tensor *nn_module_get_parameter(nn_module *m, const char *target);
nn_tensor *nn_module_get_buffer(nn_module *m, const char *target);

/* ---- state: state_dict returns a new ordered dict (str -> tensor, detached unless keep_vars)
   whose _metadata attribute (nn_dict_attrs) is PyTorch's: an OrderedDict of
   prefix-without-dot -> {'version': V} per module, V its class's _version (1; 2 for
   the _NormBase classes; a language class's own _version through the lookup below). */
nn_object *nn_module_state_dict(nn_module *m, const char *prefix, bool keep_vars);
/* state_dict(destination=dest): m's entries into dest (a dict, borrowed; its
   _metadata, when it has one, gets m's and its children's). 0 or -1. */
int nn_module_state_dict_into(nn_module *m, nn_object *dest, const char *prefix, bool keep_vars);
/* The layer that knows language classes gives their _version: 1 with *version set
   when the class (or a base written in the language) defines one, else 0. */
typedef int (*nn_module_version_fn)(nn_module *m, int64_t *version);
void nn_module_set_version_lookup(nn_module_version_fn fn);
/* A language class's own _save_to_state_dict / _load_from_state_dict, which
   state_dict and load_state_dict call in place of the defaults below, and a
   child's own state_dict, which its parent's state_dict calls with
   destination=, prefix=, keep_vars= keywords, as PyTorch calls the methods: the layer that knows language classes sets *method to a new
   reference to m's bound method NAME and returns 1 when a language class of m
   defines it; 0 when none does; -1 with an error. */
typedef int (*nn_module_override_fn)(nn_module *m, const char *name, nn_object **method);
void nn_module_set_override_lookup(nn_module_override_fn fn);
/* Module._save_to_state_dict: m's own parameters, persistent buffers and extra
   state into dest (a dict, borrowed) under prefix, detached unless keep_vars. 0 or -1. */
int nn_module_save_to_state_dict(nn_module *m, nn_object *dest, const char *prefix, bool keep_vars);
/* Module._load_from_state_dict: m's load pre-hooks, then its own tensors from sd
   (borrowed, keys prefix + name); missing and unexpected keys appended to those
   lists when strict, messages to errors. Inside load_state_dict (the lists are
   its own) the copies wait until the whole load is checked; called by hand they
   are made now, as PyTorch's. 0 or -1. */
int nn_module_load_from_state_dict(nn_module *m, nn_object *sd, const char *prefix, nn_object *local_metadata,
                                   bool strict, nn_object *missing, nn_object *unexpected, nn_object *errors);
/* load_state_dict: returns a new (missing_keys, unexpected_keys) tuple of lists,
   or NULL with RuntimeError "Error(s) in loading state_dict for Linear: ...".
   Everything is checked before anything is copied: a failed load changes nothing.
   state_dict's _metadata, when it has one, gives each module's load pre-hooks their
   local_metadata (an empty dict for a module it does not name), as PyTorch's. */
nn_object *nn_module_load_state_dict(nn_module *m, nn_object *state_dict, bool strict, bool assign);

/* ---- modes, dtypes, devices. All return 0 or -1. */
int nn_module_train(nn_module *m, bool mode);
int nn_module_requires_grad_(nn_module *m, bool requires_grad);
int nn_module_zero_grad(nn_module *m, bool set_to_none);
/* Casts floating-point parameters and buffers (and their grads) to dtype, in place:
   the Parameter objects stay the same (as `param.data = ...`). */
int nn_module_to_dtype(nn_module *m, nn_dtype dtype);
/* Module.type(dst): every parameter and buffer, integer ones too. */
int nn_module_type_(nn_module *m, nn_dtype dtype);
/* to(device): CPU works; CUDA and other devices give RuntimeError while no backend is present.
   name is "cpu", "cuda", "cuda:0", "ipu", "xpu", "mtia", "meta". */
int nn_module_to_device(nn_module *m, const char *device);
int nn_module_to_memory_format(nn_module *m, nn_memory_format f); /* its 4-d and 5-d tensors */
/* to_empty(device): parameters and buffers replaced by uninitialized storage. */
int nn_module_to_empty(nn_module *m, const char *device);
/* share_memory(): PyTorch moves CPU storages into shared memory for worker
   processes; nnscope runs in one process, so this only checks the module is on
   the CPU (always) and returns 0. */
int nn_module_share_memory(nn_module *m);
/* apply(fn): fn(module) for every child (depth first), then self. */
int nn_module_apply(nn_module *m, nn_object *fn);

/* repr(module) in PyTorch's nested format; a new nn_malloc'd string. */
char *nn_module_repr(nn_module *m);

/* ---- calling: the one __call__ path (hooks included); returns a new reference */
nn_object *nn_module_call(nn_module *m, nn_object *args, nn_object *kwargs);
/* Convenience: m(x) for a single tensor; new reference. */
nn_tensor *nn_module_call1(nn_module *m, nn_tensor *x);

/* ---- hooks. Each returns a new handle object, or NULL with an error. */
typedef enum nn_hook_kind {
    NN_HOOK_FORWARD_PRE,      /* hook(module, args) or, with_kwargs, hook(module, args, kwargs) */
    NN_HOOK_FORWARD,          /* hook(module, args, output) or hook(module, args, kwargs, output) */
    NN_HOOK_BACKWARD_PRE,     /* hook(module, grad_output) -> new grad_output or None */
    NN_HOOK_FULL_BACKWARD,    /* hook(module, grad_input, grad_output) -> new grad_input or None */
    NN_HOOK_BACKWARD,         /* deprecated register_backward_hook */
    NN_HOOK_STATE_DICT_PRE,   /* hook(module, prefix, keep_vars) */
    NN_HOOK_STATE_DICT_POST,  /* hook(module, state_dict, prefix, local_metadata) */
    NN_HOOK_LOAD_PRE,         /* hook(module, state_dict, prefix, local_metadata, strict, missing, unexpected, errors) */
    NN_HOOK_LOAD_POST,        /* hook(module, incompatible_keys) */
} nn_hook_kind;
typedef struct nn_hook_options {
    bool prepend, with_kwargs, always_call;
} nn_hook_options;
/* m NULL: a global hook (register_module_*_hook; FORWARD_PRE, FORWARD,
   BACKWARD_PRE, FULL_BACKWARD and BACKWARD only), fired before modules' own. */
nn_object *nn_module_register_hook(nn_module *m, nn_hook_kind kind, nn_object *hook, nn_hook_options options);
/* Hook handles: remove() is idempotent. */
extern const nn_type nn_hook_handle_type;
int64_t nn_hook_handle_id(const nn_object *handle);
void nn_hook_handle_remove(nn_object *handle);

#endif
