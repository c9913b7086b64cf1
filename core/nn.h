/*
 * nn.h — the public API of libnnscope's core: objects, errors, allocation,
 * values, tensors, ops, autograd, randomness, optimizers, safetensors and
 * printing; it includes the module headers (nn_module.h and the modules').
 *
 * This is the one header that repl/, inspector/, sessions/ and C programs include.
 * core knows nothing of the language, the screen or the database.
 *
 * Conventions (see docs/architecture.md):
 *  - A function that fails returns NULL or -1 and sets the current error
 *    (nn_error_kind + message); nothing a user can cause aborts.
 *  - Every function taking or returning an object pointer says whether it
 *    *borrows*, *takes* or *returns a new reference*.  Getters borrow.
 *  - Shapes are written [a, b] in comments; "broadcast" means NumPy/PyTorch rules.
 */
#ifndef NN_H
#define NN_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NN_VERSION "0.1.0"
#define NN_MAX_DIMS 16

/* ------------------------------------------------------------------ errors */

typedef enum nn_error_kind {
    NN_OK = 0,
#define ERR(id, name) NN_ERR_##id,
#include "errors.def"
#undef ERR
    NN_ERR_KIND_COUNT
} nn_error_kind;

/* Sets the current error; the message is printf-formatted. Always returns -1,
   so `return nn_error_set(...)` reads naturally in int-returning functions. */
int nn_error_set(nn_error_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
nn_error_kind nn_error_current(void);
/* The current message; "" when there is none. Borrowed, valid until the next set/clear. */
const char *nn_error_message(void);
/* "RuntimeError", "ValueError", ... for a kind. */
const char *nn_error_kind_name(nn_error_kind kind);
void nn_error_clear(void);

/* Warnings (PyTorch's TORCH_WARN): core hands each one to the handler that the
   front end installed (the language's `warnings` module, which filters and
   shows it), or prints "UserWarning: message" on stderr when none is. The
   category is a Python warning class name ("UserWarning"). nn_warn returns 0,
   or -1 when the handler turned the warning into an error (set). */
typedef int (*nn_warning_handler)(const char *category, const char *message);
void nn_set_warning_handler(nn_warning_handler handler);
int nn_warn(const char *category, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A warning PyTorch raises from its own Python file, placed there (module
   "torch.nn.modules.rnn", file "torch/nn/modules/rnn.py", line 67) instead of at the
   caller's line, so the front end's default filter shows it once per run, as
   PyTorch's. Without a placed handler it goes to the plain one. */
typedef struct nn_warn_place {
    const char *module, *file;
    int line;
} nn_warn_place;
typedef int (*nn_placed_warning_handler)(const char *category, const char *message, const nn_warn_place *place);
void nn_set_placed_warning_handler(nn_placed_warning_handler handler);
int nn_warn_at(const nn_warn_place *place, const char *category, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Drop every warning while muted (code that PyTorch would not run: a base's reset_parameters that a
   subclass overrides); returns the previous setting. */
bool nn_set_warnings_muted(bool muted);

/* Ctrl-C: a signal handler sets this flag; core checks it between ops and
   long loops, raising KeyboardInterrupt. */
extern volatile int nn_interrupt_requested;
/* 0, or -1 with RecursionError when this thread's C stack is nearly used up:
   every walker whose recursion a user controls calls it first (guard.c). */
int nn_stack_check(void);
/* Sets the lowest address this thread's recursion may reach (a stack switched to,
   as the language's generators run on) and returns the previous one (0: not yet
   known, found again at the next check). */
uintptr_t nn_stack_set_floor(uintptr_t floor);
/* The nesting of the recursive walkers (comparison, repr, deepcopy, json), counted
   as CPython counts them against sys.getrecursionlimit(): nn_recursion_enter
   returns 0, or -1 with RecursionError "maximum recursion depth exceeded<where>"
   when the front end's depth (its Python calls) plus the walkers' nesting would
   pass the limit, or the C stack is nearly used up; each 0 is paired with one
   nn_recursion_leave. The front end tells its depth and limit once (guard.c). */
int nn_recursion_enter(const char *where);
void nn_recursion_leave(void);
void nn_set_recursion_base(int (*depth)(void), int limit);
/* Returns -1 with KeyboardInterrupt set (and clears the flag) if one was requested. */
int nn_check_interrupt(void);

/* -------------------------------------------------------------- allocation */

/* All allocation goes through one replaceable function with realloc's contract:
   fn(ud, NULL, n) allocates, fn(ud, p, n) resizes, fn(ud, p, 0) frees and returns NULL. */
typedef void *(*nn_alloc_fn)(void *ud, void *ptr, size_t nsize);
void nn_set_allocator(nn_alloc_fn fn, void *ud);
void nn_get_allocator(nn_alloc_fn *fn, void **ud);
/* Allocate; on failure set MemoryError and return NULL. n == 0 allocates 1 byte. */
void *nn_malloc(size_t n);
void *nn_calloc(size_t count, size_t size);
void *nn_realloc(void *p, size_t n);
void nn_free(void *p);
/* A copy of s in nn_malloc'd memory, or NULL with MemoryError. */
char *nn_strdup(const char *s);

/* ------------------------------------------------------------ object model */

typedef struct nn_object nn_object;
typedef struct nn_type nn_type;

struct nn_object {
    intptr_t refcount;
    const nn_type *type;
};

/* A type descriptor. Any slot may be NULL (the operation is then unsupported). */
struct nn_type {
    const char *name;                      /* "Tensor", "tuple", ... */
    void (*dealloc)(nn_object *self);      /* frees self; called when refcount hits 0 */
    char *(*repr)(nn_object *self);        /* returns a new nn_malloc'd string */
    char *(*str)(nn_object *self);         /* NULL: same as repr */
    /* Calls self(*args, **kwargs). args is a tuple (borrowed), kwargs a dict or NULL.
       Returns a new reference. */
    nn_object *(*call)(nn_object *self, nn_object *args, nn_object *kwargs);
    const nn_type *base;                   /* for isinstance-style checks */
    /* hash and equality for dict keys; NULL: by identity (core's value types
       are handled by nn_hash / nn_equal themselves). hash returns -1 with
       TypeError for unhashable values. */
    int64_t (*hash)(nn_object *self);
    int (*equal)(nn_object *a, nn_object *b); /* 1, 0, or -1 with an error */
    /* the cycle collector (nn_gc.h): traverse calls visit(child, arg) for every
       object self holds a reference to (never a borrowed one); clear drops those
       references and leaves self valid and empty. Both NULL: not a container. */
    void (*traverse)(nn_object *self, void (*visit)(nn_object *child, void *arg), void *arg);
    void (*clear)(nn_object *self);
    /* attribute access by name, for the layer that owns the type (core calls none
       of them): getattr returns a new reference, setattr and delattr 0; all three
       NULL or -1 with the current error set. NULL slot: that layer's generic lookup. */
    nn_object *(*getattr)(nn_object *self, const char *name);
    int (*setattr)(nn_object *self, const char *name, nn_object *value);
    int (*delattr)(nn_object *self, const char *name);
    /* equal takes an operand of any type (nn_equal calls it when the two types
       differ): the layer's instances that may stand for a value of another type */
    bool equal_any;
};
typedef void (*nn_visit_fn)(nn_object *child, void *arg);

static inline nn_object *nn_retain(nn_object *o)
{
    if (o) o->refcount++;
    return o;
}
void nn_object_dealloc(nn_object *o);
static inline void nn_release(nn_object *o)
{
    if (o && --o->refcount == 0) nn_object_dealloc(o);
}
#define NN_RETAIN(o) ((void)nn_retain((nn_object *)(o)))
#define NN_RELEASE(o) nn_release((nn_object *)(o))
/* Replace *slot with a new value (both may be NULL); takes the new reference. */
#define NN_SET(slot, value) do { void *old__ = (slot); (slot) = (value); NN_RELEASE(old__); } while (0)

/* Initialise a freshly allocated object header with refcount 1. */
void nn_object_init(nn_object *o, const nn_type *type);
/* True when o's type is t or derives from it. */
bool nn_is_instance(const nn_object *o, const nn_type *t);
/* repr(o) as a new nn_malloc'd string; "<name object at 0x...>" by default. */
char *nn_repr(nn_object *o);
char *nn_str(nn_object *o);
/* Calls a callable: args is a tuple (borrowed), kwargs may be NULL. Returns a new reference. */
nn_object *nn_call(nn_object *callable, nn_object *args, nn_object *kwargs);

/* None: a singleton. nn_none() returns a borrowed pointer. */
extern const nn_type nn_none_type;
nn_object *nn_none(void);
static inline bool nn_is_none(const nn_object *o) { return o == NULL || o->type == &nn_none_type; }

/* Tuples: fixed-size arrays of objects. */
extern const nn_type nn_tuple_type;
typedef struct nn_tuple {
    nn_object ob;
    size_t len;
    nn_object *items[];
} nn_tuple;
/* A new tuple of len slots, each None; returns a new reference. */
nn_object *nn_tuple_new(size_t len);
/* Sets slot i; takes the reference to item. */
void nn_tuple_set(nn_object *tuple, size_t i, nn_object *item);
/* Borrowed item. */
nn_object *nn_tuple_get(const nn_object *tuple, size_t i);
size_t nn_tuple_len(const nn_object *tuple);
/* A tuple of n borrowed objects (each retained); returns a new reference. */
nn_object *nn_tuple_pack(size_t n, ...);

/* ---- values: str, int, float, bool, list, dict (value.c) ----
   The value types core's APIs exchange (state_dict keys, hook kwargs, module
   attributes); the language uses the same objects. */
extern const nn_type nn_str_type, nn_int_type, nn_float_type, nn_bool_type, nn_list_type, nn_dict_type;
/* New references. */
nn_object *nn_str_new(const char *s);
nn_object *nn_str_from(const char *s, size_t len);
/* printf-style; a new str. */
nn_object *nn_str_format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *nn_str_cstr(const nn_object *s);   /* borrowed, NUL-terminated */
/* The test str's repr applies to code points past ASCII: false escapes them as
   \xNN, \uNNNN or \UNNNNNNNN (CPython's str.isprintable: the categories Cc Cf Cs
   Co Cn Zl Zp Zs). The language installs one from its Unicode tables; without one
   they are all printed as they are. */
typedef bool (*nn_printable_fn)(uint32_t cp);
void nn_set_str_printable(nn_printable_fn fn);
size_t nn_str_len(const nn_object *s);
nn_object *nn_int_new(int64_t v);
int64_t nn_int_value(const nn_object *o);      /* ints and bools */
nn_object *nn_float_new(double v);
double nn_float_value(const nn_object *o);     /* floats, ints and bools */
nn_object *nn_bool_new(bool v);                /* one of the two singletons, retained */
/* Python's complex (core/complex_value.c): repr as CPython's, hash and == agreeing
   with float's for a zero imaginary part. nn_complex_parts reads complex, float,
   int and bool values. */
extern const nn_type nn_complex_type;
nn_object *nn_complex_new(double re, double im);
void nn_complex_parts(const nn_object *o, double *re, double *im);
static inline bool nn_is_complex(const nn_object *o) { return o && o->type == &nn_complex_type; }
bool nn_is_true(const nn_object *o);           /* for bools; any other object: not None */
static inline bool nn_is_str(const nn_object *o) { return o && o->type == &nn_str_type; }
static inline bool nn_is_int(const nn_object *o) { return o && o->type == &nn_int_type; }
static inline bool nn_is_float(const nn_object *o) { return o && o->type == &nn_float_type; }
static inline bool nn_is_bool(const nn_object *o) { return o && o->type == &nn_bool_type; }

nn_object *nn_list_new(size_t capacity);
size_t nn_list_len(const nn_object *list);
nn_object *nn_list_get(const nn_object *list, size_t i);      /* borrowed */
int nn_list_append(nn_object *list, nn_object *item);         /* borrows item (retains it) */
void nn_list_set(nn_object *list, size_t i, nn_object *item); /* takes item */
int nn_list_insert(nn_object *list, size_t i, nn_object *item); /* borrows item */
nn_object *nn_list_pop(nn_object *list, size_t i);            /* returns the item's reference */
static inline bool nn_is_list(const nn_object *o) { return o && o->type == &nn_list_type; }

/* Dicts keep insertion order (as Python's and PyTorch's OrderedDicts). An
   ordered dict is a dict with a flag: every nn_dict_* function takes it; only
   its repr (OrderedDict([('a', 1)])) and the language's == (order-sensitive
   between two of them) differ. PyTorch's OrderedDicts (state_dict(), a
   module's _parameters, _modules, hook dicts) are ordered dicts. */
nn_object *nn_dict_new(void);
nn_object *nn_ordered_dict_new(void);
bool nn_dict_is_ordered(const nn_object *d);
/* An OrderedDict's own attributes (its instance __dict__: a state_dict's _metadata),
   a borrowed plain dict made on first use when create; NULL when it has none yet, or
   d is a plain dict (which has no attributes), or (create) out of memory. Copies
   (nn_dict_copy, OrderedDict(d)) do not carry them, as Python's. */
nn_object *nn_dict_attrs(nn_object *d, bool create);
/* A shallow copy (ordered when d is); new reference. */
nn_object *nn_dict_copy(nn_object *d);
size_t nn_dict_len(const nn_object *d);
/* Borrowed value, or NULL (no error set) when missing; NULL with an error for unhashable keys. */
nn_object *nn_dict_get(nn_object *d, nn_object *key);
nn_object *nn_dict_get_str(nn_object *d, const char *key);
/* The key object that d holds for key (an equal one, borrowed), or NULL as nn_dict_get. */
nn_object *nn_dict_stored_key(nn_object *d, nn_object *key);
/* Borrows key and value (retains both); replacing keeps the key's position. */
int nn_dict_set(nn_object *d, nn_object *key, nn_object *value);
int nn_dict_set_str(nn_object *d, const char *key, nn_object *value);
/* Removes key; -1 with KeyError when missing. */
int nn_dict_del(nn_object *d, nn_object *key);
int nn_dict_del_str(nn_object *d, const char *key);
/* Iteration: start with *pos = 0; returns false at the end; key/value borrowed. */
bool nn_dict_next(const nn_object *d, size_t *pos, nn_object **key, nn_object **value);
void nn_dict_clear(nn_object *d);
/* A number that changes whenever a key is added or removed or the keys' order
   changes (not when a value is replaced): caches of the keys compare it. */
uint64_t nn_dict_version(const nn_object *d);
/* A number that changes with every change of d, values included: a mirror of
   its contents compares it to know whether it is current. */
uint64_t nn_dict_changes(const nn_object *d);
/* Moves key to the last position (first when !last), as OrderedDict.move_to_end;
   KeyError when missing; d unchanged on failure. */
int nn_dict_move_to_end(nn_object *d, nn_object *key, bool last);
/* nn_dict_move_to_end(d, key, false). */
int nn_dict_move_to_front(nn_object *d, nn_object *key);
static inline bool nn_is_dict(const nn_object *o) { return o && o->type == &nn_dict_type; }

/* Hash and equality as Python's for core's value types, identity otherwise. */
int64_t nn_hash(nn_object *o);
/* CPython's hash of a number (as hash() gives it; nn_hash keeps its low 63 bits):
   of an int, a finite or infinite float, and of an integer of any size from its
   sign and its magnitude modulo 2**61 - 1. */
uint64_t nn_number_hash_int(int64_t v);
uint64_t nn_number_hash_double(double v);
uint64_t nn_number_hash_residue(bool negative, uint64_t magnitude_mod);
int nn_equal(nn_object *a, nn_object *b);

/* C functions as callables (C hooks and built-ins). */
typedef nn_object *(*nn_cfunc)(void *ud, nn_object *args, nn_object *kwargs);
extern const nn_type nn_cfunction_type;
/* A callable that calls fn(ud, args, kwargs); free_ud (may be NULL) runs on dealloc.
   Returns a new reference. */
nn_object *nn_cfunction_new(const char *name, nn_cfunc fn, void *ud, void (*free_ud)(void *));
/* For a C function whose ud holds objects (a closure, a hook adapter): the
   collector reaches them through traverse_ud(ud, visit, arg), which visits each
   object ud holds a reference to; clearing frees ud early (free_ud). Tracks f:
   0, or -1 with MemoryError. */
typedef void (*nn_ud_traverse_fn)(void *ud, void (*visit)(nn_object *child, void *arg), void *arg);
int nn_cfunction_set_traverse(nn_object *f, nn_ud_traverse_fn traverse_ud);

/* ------------------------------------------------------------------ dtypes */

typedef enum nn_dtype {
    NN_FLOAT32,
    NN_FLOAT64,
    NN_FLOAT16,
    NN_BFLOAT16,
    NN_INT64,
    NN_INT32,
    NN_BOOL,
    NN_UINT8, /* the small integer types come last, so the older values keep their numbers */
    NN_INT8,
    NN_INT16,
    NN_COMPLEX64, /* interleaved (real, imag) float32 pairs; NN_COMPLEX128 of float64 (core/complex.c) */
    NN_COMPLEX128,
    NN_DTYPE_COUNT
} nn_dtype;

size_t nn_dtype_size(nn_dtype dt);
const char *nn_dtype_name(nn_dtype dt);       /* "torch.float32" */
const char *nn_dtype_short_name(nn_dtype dt); /* "float32" */
const char *nn_dtype_scalar_name(nn_dtype dt); /* "Float": PyTorch's ScalarType name, as its messages print it */
bool nn_dtype_is_floating(nn_dtype dt);
/* complex64 / complex128; nn_dtype_to_complex: the complex dtype of a real floating
   one (complex64 for the 16- and 32-bit floats); nn_dtype_to_real: the reverse */
bool nn_dtype_is_complex(nn_dtype dt);
nn_dtype nn_dtype_to_complex(nn_dtype dt);
nn_dtype nn_dtype_to_real(nn_dtype dt);
/* The default floating dtype (torch.get_default_dtype): what factories without a
   dtype, Python floats in promotion and integer-to-float results give; float32
   until set. nn_set_default_dtype: 0, or -1 with TypeError for a dtype that is
   not floating (core/default_dtype.c). */
nn_dtype nn_default_dtype(void);
int nn_set_default_dtype(nn_dtype dt);
/* An integer dtype other than bool (uint8, int8, int16, int32, int64). */
bool nn_dtype_is_integer(nn_dtype dt);
/* The range of an integer dtype (torch.iinfo); bool is 0..1. */
void nn_dtype_int_range(nn_dtype dt, int64_t *min, int64_t *max);
/* c10's overflow check of a scalar going into an integer dtype dt (floats and bool
   pass): 0, or -1 with RuntimeError "value cannot be converted to type uint8_t
   without overflow" (cpp_name: the C++ type's name, as fill_ says it; else the
   dtype's, as torch.tensor says it). An unsigned type also takes -max..-1, which wrap.
   int64 is not checked here (a double cannot tell 2**63 - 1 from 2**63). */
int nn_check_int_value(double v, nn_dtype dt, bool cpp_name);
/* PyTorch's promote_types for two dtypes. */
nn_dtype nn_promote_types(nn_dtype a, nn_dtype b);
struct nn_tensor;
/* The dtype an arithmetic op of a and b gives (ATen's result_type: dimensioned
   tensors over 0-dim ones over wrapped numbers, unless of a higher kind). */
nn_dtype nn_result_type(const struct nn_tensor *a, const struct nn_tensor *b);
float nn_half_to_float(uint16_t h);
uint16_t nn_float_to_half(float f);
float nn_bfloat16_to_float(uint16_t b);
uint16_t nn_float_to_bfloat16(float f);

/* ----------------------------------------------------------------- devices */

typedef enum nn_device_type { NN_CPU, NN_CUDA } nn_device_type;
typedef struct nn_device {
    nn_device_type type;
    int index;
} nn_device;
#define NN_DEVICE_CPU ((nn_device){NN_CPU, 0})
static inline bool nn_same_device(nn_device a, nn_device b) { return a.type == b.type && a.index == b.index; }
/* "cpu" or "cuda:0" into buf. */
const char *nn_device_str(nn_device d, char *buf, size_t n);
/* Is a backend registered for the device type? (the CPU always; CUDA only in a
   CUDA build, or when a test registers its loopback stand-in) */
bool nn_device_available(nn_device_type type);

/* ----------------------------------------------------------------- tensors */

/* A reference-counted block of memory that tensors view. The version counter
   lives here, so every view of a storage shares it (as PyTorch's views do). */
typedef struct nn_storage {
    intptr_t refcount;
    void *data;
    size_t nbytes;
    nn_device device;
    uint64_t version;
    /* owned, or NULL: the storage whose memory this one shares under a version
       counter of its own (tensor.data, nn_data_alias); never itself an alias. As in
       PyTorch, where x.data shares x's StorageImpl, the alias follows its owner when
       the owner's memory is replaced (resize_, share_memory_): data and nbytes are
       kept equal to the owner's */
    struct nn_storage *owner;
    /* an owner's first alias, an alias's next one (not owned): the list that a
       replacement of the memory updates */
    struct nn_storage *alias_link;
    /* owned, or NULL: an owner whose memory was replaced holds the storage that
       memory belongs to (its own block stays until it goes) */
    struct nn_storage *held;
    /* data is a memory mapping of nbytes (a file's, torch.FloatStorage.from_file, or
       shared memory, share_memory_), unmapped on release; never an alias */
    bool mapped;
    /* or NULL: data is memory another object lends (torch.frombuffer's bytearray), given back
       by give_back(lender) on release; never an alias, not resizable */
    void (*give_back)(void *lender);
    void *lender;
} nn_storage;

typedef struct nn_node nn_node;
typedef struct nn_hook_list nn_hook_list;

typedef struct nn_tensor {
    nn_object ob;
    nn_storage *storage;
    int64_t offset; /* in elements */
    int ndim;
    nn_dtype dtype;
    int64_t sizes[NN_MAX_DIMS];
    int64_t strides[NN_MAX_DIMS]; /* in elements */
    /* autograd */
    bool requires_grad;       /* true for a leaf that requires grad or any result with a grad_fn */
    bool retains_grad;
    bool is_wrapped_number;   /* a Python scalar turned into a 0-dim tensor (type promotion) */
    int output_nr;            /* which output of grad_fn this is */
    struct nn_tensor *grad;   /* owned */
    nn_node *grad_fn;         /* owned; NULL for leaves */
    nn_hook_list *hooks;      /* tensor hooks of a leaf (non-leaf hooks live on grad_fn) */
    struct nn_tensor *base;   /* owned; the tensor this is a view of, or NULL */
    bool multi_output_view;   /* an output of unbind/split/chunk (or a view of one): PyTorch's
                                 CreationMeta::MULTI_OUTPUT_NODE, no in-place write under grad */
} nn_tensor;

extern const nn_type nn_tensor_type;
/* Parameter: a tensor subtype (repr "Parameter containing:"). */
extern const nn_type nn_parameter_type;

#define NN_TENSOR(o) ((nn_tensor *)(o))
static inline bool nn_is_tensor(const nn_object *o) { return o && nn_is_instance(o, &nn_tensor_type); }

int64_t nn_numel(const nn_tensor *t);
bool nn_is_contiguous(const nn_tensor *t);
/* (The address of a tensor's first element, nn_data_ptr, is private to core:
   core/nn_data.h. Other code uses the host-access contract below.) */
/* The device t's storage lives on. */
static inline nn_device nn_device_of(const nn_tensor *t) { return t->storage->device; }

/* Devices. nn_empty_on and nn_full_on allocate on a device (every factory has
   such an _on form, see Factories below; without _on they allocate on the
   default device; the _like ones keep their tensor's device).
   nn_to_device: t on device (t itself, retained, when already there), a copy
   that autograd sees through. nn_common_device: the device n tensors (NULLs
   skipped) share, 0-dim CPU tensors going anywhere by value; RuntimeError
   "Expected all tensors to be on the same device, but found at least two
   devices, cuda:0 and cpu!" otherwise. */
nn_tensor *nn_empty_on(nn_device device, int ndim, const int64_t *sizes, nn_dtype dtype);
/* The check of a new tensor's sizes that nn_empty makes, with PyTorch's errors
   (a negative dimension; a byte count beyond int64); the byte count in
   *nbytes (may be NULL). 0, or -1 with RuntimeError. */
int nn_check_new_sizes(int ndim, const int64_t *sizes, nn_dtype dtype, int64_t *nbytes);
nn_tensor *nn_full_on(nn_device device, int ndim, const int64_t *sizes, double value, nn_dtype dtype);
nn_tensor *nn_to_device(nn_tensor *t, nn_device device);
/* The device factories without one allocate on (PyTorch 2's torch.set_default_device):
   the CPU unless changed; tests set the loopback device to rerun on it. */
void nn_set_default_device(nn_device d);
nn_device nn_default_device(void);
int nn_common_device(int n, nn_tensor *const *ts, nn_device *out);
/* t (owned: released) on the op's device d that nn_common_device chose: t itself
   when already there, else (a 0-dim CPU operand, which nn_common_device lets
   differ) a copy moved there by value, outside autograd. New reference; NULL
   (with the error) when t is NULL or the move fails. */
nn_tensor *nn_to_op_device(nn_tensor *t, nn_device d);
/* The same check without the 0-dim CPU exception (ATen's generated device check of
   ops outside TensorIterator: gather, scatter, ...): NULLs skipped; 0, or -1 with that
   RuntimeError. */
int nn_same_device_all(int n, nn_tensor *const *ts);

/* Storages (core/storage_view.c). nn_storage_view: a flat 1-dim tensor over
   t's whole storage in t's dtype (offset 0, detached; new reference), what
   x.storage() wraps. nn_data_address: the address of t's first element as a
   number (0 for an empty storage), PyTorch's data_ptr(): an identity only
   (equal for tensors that share memory), never dereferenced. */
nn_tensor *nn_storage_view(nn_tensor *t);
/* A view of t's storage (t's dtype, detached) with these sizes, strides and
   offset: x.set_(storage, offset, size, stride); RuntimeError as PyTorch's
   setStorage when it reaches beyond the storage. */
nn_tensor *nn_storage_view_as(nn_tensor *t, int ndim, const int64_t *sizes, const int64_t *strides, int64_t offset);
uintptr_t nn_data_address(const nn_tensor *t);
/* A flat tensor over t's whole storage read as dtype dt (nbytes / its size elements,
   a trailing part left out; detached): TypedStorage(wrap_storage=, dtype=). */
nn_tensor *nn_storage_view_dtype(nn_tensor *t, nn_dtype dt);
/* x.view(dtype): t's memory read as dt, sharing t's storage (detached: PyTorch's
   view.dtype is not differentiable). For another element size the last dim
   (stride 1) splits or joins elements and the other strides and the offset
   scale; RuntimeError as PyTorch's view_dtype when the layout does not allow it. */
nn_tensor *nn_view_dtype(nn_tensor *t, nn_dtype dt);
/* storage.resize_(): t's storage (every tensor over it) now holds nbytes, the first
   bytes kept and the rest zero (PyTorch leaves them uninitialized); t, a flat view,
   gets the new length. Every tensor.data alias of the storage (and the storage they
   alias) sees the new memory. RuntimeError as PyTorch's for a negative size or a
   mapped storage; on any device. */
int nn_storage_resize(nn_tensor *t, int64_t nbytes);
/* t, a flat view of a whole storage (nn_storage_view / _dtype), takes the storage's
   current length (a resize_ through another view of it changed it), as PyTorch's
   storage objects, which all read one StorageImpl's size. */
void nn_storage_view_refit(nn_tensor *t);
/* from_file(filename, shared, size): a flat dt tensor over a mapping of the file's
   first nbytes (shared: MAP_SHARED, the file created or grown to nbytes; else a
   private copy-on-write mapping of a file at least that long); PyTorch's errors. */
nn_tensor *nn_storage_from_file(const char *path, bool shared, int64_t nbytes, nn_dtype dt);
/* share_memory_(): moves t's CPU storage into shared memory (a no-op when it is
   there or on another device), seen through every tensor.data alias as resize's
   memory is; is_shared(): whether it is in a mapping. */
int nn_storage_share(nn_tensor *t);
bool nn_storage_is_shared(const nn_tensor *t);
/* msync of t's storage when it is a memory mapping (a file's: its writes reach the file
   now); a no-op otherwise. 0, or -1 with RuntimeError. */
int nn_storage_sync(const nn_tensor *t);
/* (core/tensor.c) a flat dt tensor of nbytes / its size elements over data, a
   mapping of nbytes that the storage owns from here (munmap on release) */
nn_tensor *nn_tensor_over_mapping(void *data, size_t nbytes, nn_dtype dt);
/* (core/tensor.c) a flat dt tensor of nbytes / its size elements over data, memory that lender
   lends (CPU, aligned for dt) until the storage goes: then give_back(lender) runs. On failure
   give_back runs at once. */
nn_tensor *nn_tensor_over_lent(void *data, size_t nbytes, nn_dtype dt, void (*give_back)(void *), void *lender);

/* The host-access contract: the only way code outside core's kernels reads or
   writes a tensor's elements in bulk (printing, item()/tolist(), the inspector,
   plots, session snapshots, safetensors). nn_host_read returns t's elements,
   row-major and contiguous, in host memory: borrowed from t when t is a
   contiguous CPU tensor (*hold = NULL), else a copy that *hold owns (release it
   after use); NULL with an error. nn_host_write copies numel contiguous elements
   of t's dtype from host memory into t, wherever t lives; 0 or -1. Single
   elements: nn_get_double / nn_get_int64 / nn_item (they too work on any device). */
const void *nn_host_read(const nn_tensor *t, nn_tensor **hold);
int nn_host_write(nn_tensor *t, const void *data);
/* The whole storage t views (t->storage->nbytes bytes, as torch.save writes it)
   in host memory: borrowed when it lives on the CPU (*owned = NULL), else a copy
   made by its backend's to_host that *owned holds (nn_free it); NULL with an error. */
const void *nn_host_read_storage(const nn_tensor *t, void **owned);
/* The borrow half of the contract, for code that keeps its own data in CPU tensors
   (numpy's arrays) and writes them in place: the address of t's first element when
   t lives in host memory (the CPU), else NULL with RuntimeError. Never for a tensor
   that may be on a device: use nn_host_read / nn_host_write. */
void *nn_host_borrow(nn_tensor *t);
/* The bytes of t's element at index (one per dim) in host memory: its own
   address on the CPU, else a copy into buf (zeros when the transfer fails). */
const char *nn_host_element(const nn_tensor *t, const int64_t *index, char buf[8]);

/* The loopback test device (core/loopback/): the CPU's kernels over memory of
   its own, registered in CUDA's place, for tests only. poison: under
   AddressSanitizer its memory is poisoned outside its kernels and transfers,
   so host code that reads it without the contract above crashes. */
void nn_loopback_register(bool poison);
void nn_loopback_unregister(void);
bool nn_is_leaf(const nn_tensor *t);
/* A new reference to t's grad (or NULL, no error set, when there is none). */
nn_tensor *nn_grad(const nn_tensor *t);

/* Factories. All return new references or NULL with an error.
   sizes may be NULL when ndim == 0. dtype as given. Each has an _on form taking
   the device first (nn_empty_on, nn_zeros_on, nn_arange_on, nn_rand_on, ...),
   which allocates through that device's backend and fills it there; the form
   without _on is the _on form on nn_default_device(). The _like factories make
   their tensor on their argument's device. */
nn_tensor *nn_empty(int ndim, const int64_t *sizes, nn_dtype dtype);
nn_tensor *nn_zeros(int ndim, const int64_t *sizes, nn_dtype dtype);
nn_tensor *nn_ones(int ndim, const int64_t *sizes, nn_dtype dtype);
nn_tensor *nn_full(int ndim, const int64_t *sizes, double value, nn_dtype dtype);
nn_tensor *nn_zeros_on(nn_device device, int ndim, const int64_t *sizes, nn_dtype dtype);
nn_tensor *nn_ones_on(nn_device device, int ndim, const int64_t *sizes, nn_dtype dtype);
nn_tensor *nn_empty_like(const nn_tensor *t);
nn_tensor *nn_zeros_like(const nn_tensor *t);
nn_tensor *nn_ones_like(const nn_tensor *t);
nn_tensor *nn_full_like(const nn_tensor *t, double value);
/* A 0-dim CPU tensor holding v (a constant: it goes to any device by value, as
   PyTorch's CPU scalars); wrapped marks a Python number (for type promotion). */
nn_tensor *nn_scalar(double v, nn_dtype dtype);
nn_tensor *nn_wrapped_number(double v, bool is_integer);
/* Copies n values of the given dtype from data, shaped [sizes]. */
nn_tensor *nn_from_data(const void *data, int ndim, const int64_t *sizes, nn_dtype dtype);
nn_tensor *nn_from_data_on(nn_device device, const void *data, int ndim, const int64_t *sizes, nn_dtype dtype);
/* torch.tensor(data): data is a number, a 0-dim tensor or nested lists/tuples of them
   (borrowed). dtype < 0 infers as torch.tensor: bool, int64, else float32; an empty
   sequence is float32. ValueError for ragged data, TypeError for non-numbers. */
nn_tensor *nn_tensor_from_nested(nn_object *data, int dtype);
nn_tensor *nn_tensor_from_nested_on(nn_device device, nn_object *data, int dtype);
/* torch.arange(start, end, step): dtype int64 when all three are integers (is_integer), else float32;
   an explicit dtype (>= 0) overrides. */
nn_tensor *nn_arange(double start, double end, double step, bool is_integer, int dtype);
nn_tensor *nn_linspace(double start, double end, int64_t steps, nn_dtype dtype);
nn_tensor *nn_eye(int64_t n, int64_t m, nn_dtype dtype);
nn_tensor *nn_arange_on(nn_device device, double start, double end, double step, bool is_integer, int dtype);
nn_tensor *nn_linspace_on(nn_device device, double start, double end, int64_t steps, nn_dtype dtype);
/* torch.logspace: steps values base ** x, x evenly from start to end (PyTorch's CPU formula). */
nn_tensor *nn_logspace_on(nn_device device, double start, double end, int64_t steps, double base, nn_dtype dtype);
nn_tensor *nn_eye_on(nn_device device, int64_t n, int64_t m, nn_dtype dtype);

/* In-place fills; bump the version counter. Return 0 or -1. */
int nn_fill_(nn_tensor *t, double value);
int nn_zero_(nn_tensor *t);
/* dst[...] = src (broadcast to dst's shape, converting dtype). */
int nn_copy_(nn_tensor *dst, nn_tensor *src);

/* Element access (for printing, tests, item()). index has t->ndim entries, already in range. */
double nn_get_double(const nn_tensor *t, const int64_t *index);
int64_t nn_get_int64(const nn_tensor *t, const int64_t *index);
/* The single value of a one-element tensor; -1 with RuntimeError otherwise. */
int nn_item(const nn_tensor *t, double *out);
/* All elements as doubles in row-major order into out (numel entries). */
void nn_to_doubles(const nn_tensor *t, double *out);

/* Conversions (new references; no copy when nothing changes only where noted). */
nn_tensor *nn_contiguous(nn_tensor *t);        /* t itself (retained) if already contiguous */
nn_tensor *nn_clone(nn_tensor *t);
nn_tensor *nn_to_dtype(nn_tensor *t, nn_dtype dtype); /* t itself (retained) if same dtype */
nn_tensor *nn_detach(nn_tensor *t);            /* shares storage, no grad_fn */
/* tensor.data: as nn_detach, sharing t's memory, but under a version counter of its own
   (an in-place change through it is not seen by the autograd checks of t, as PyTorch's). */
nn_tensor *nn_data_alias(nn_tensor *t);
/* The storage whose memory s is (s itself unless s is an alias). */
static inline const nn_storage *nn_storage_root(const nn_storage *s) { return s->owner ? s->owner : s; }
/* t.data = src: t views src's storage, shape and dtype, keeping its autograd state (set_data.c). */
int nn_set_data(nn_tensor *t, nn_tensor *src);

/* ----------------------------------------------------------- views (view.c) */
/* All return new references sharing t's storage (reshape copies when it must). */
nn_tensor *nn_view(nn_tensor *t, int ndim, const int64_t *sizes); /* one size may be -1 */
nn_tensor *nn_reshape(nn_tensor *t, int ndim, const int64_t *sizes);
nn_tensor *nn_flatten(nn_tensor *t, int start_dim, int end_dim);
nn_tensor *nn_transpose(nn_tensor *t, int dim0, int dim1);
nn_tensor *nn_t(nn_tensor *t);                  /* 2-D transpose; <2-D returned as is */
nn_tensor *nn_T(nn_tensor *t);                  /* tensor.T: all dims reversed (a permute) */
nn_tensor *nn_permute(nn_tensor *t, int ndim, const int *dims);
nn_tensor *nn_unsqueeze(nn_tensor *t, int dim);
nn_tensor *nn_squeeze(nn_tensor *t);            /* all size-1 dims */
nn_tensor *nn_squeeze_dim(nn_tensor *t, int dim);
nn_tensor *nn_expand(nn_tensor *t, int ndim, const int64_t *sizes); /* -1 keeps a size */
nn_tensor *nn_select(nn_tensor *t, int dim, int64_t index);
/* Python slice semantics on one dim: start/stop clamp, step > 0. */
nn_tensor *nn_slice(nn_tensor *t, int dim, int64_t start, int64_t stop, int64_t step);
nn_tensor *nn_narrow(nn_tensor *t, int dim, int64_t start, int64_t length);
/* unbind / split / chunk: t's entries along dim (nn_unbind: t->sizes[dim] selects)
   or n consecutive pieces of lens[k] (nn_split_views; the lengths sum to the dim's
   size) into outs, views recorded as one node for all of them as PyTorch's
   (UnbindBackward0; SplitWithSizesBackward0 when with_sizes, else SplitBackward0,
   which chunk and split(int) give). 0, or -1 with nothing in outs. */
int nn_unbind(nn_tensor *t, int dim, nn_tensor **outs);
int nn_split_views(nn_tensor *t, int dim, int n, const int64_t *lens, bool with_sizes, nn_tensor **outs);
/* In-place view changes (view_inplace.c): t itself takes the shape, strides and
   offset of v, a view of t made by the out-of-place op (t.unsqueeze_(0) is
   nn_become_view_(t, nn_unsqueeze(t, 0))), and v's history when it has one;
   PyTorch's error for a leaf that requires grad. nn_detach_: t drops its
   history and requires_grad (t.detach_()). 0 or -1. */
int nn_become_view_(nn_tensor *t, nn_tensor *v);
int nn_detach_(nn_tensor *t);

/* Indexing: one index item per entry, as in x[0, 1:3, None, ...]. */
typedef enum nn_index_kind {
    NN_INDEX_INT,      /* an integer: selects, removes the dim */
    NN_INDEX_SLICE,    /* start:stop:step; has_start/has_stop say whether given */
    NN_INDEX_NONE,     /* None: new axis */
    NN_INDEX_ELLIPSIS, /* ... */
    NN_INDEX_TENSOR,   /* a bool or integer tensor (advanced indexing, one per expression) */
} nn_index_kind;
typedef struct nn_index_item {
    nn_index_kind kind;
    int64_t start, stop, step;  /* INT uses start */
    bool has_start, has_stop;
    nn_tensor *tensor;          /* borrowed */
} nn_index_item;
/* t[items]; a new reference. */
nn_tensor *nn_index(nn_tensor *t, int n, const nn_index_item *items);
/* t[items] = value (broadcast, dtype converted); 0 or -1; t unchanged on error. */
int nn_index_put_(nn_tensor *t, int n, const nn_index_item *items, nn_tensor *value);

/* --------------------------------------------------------------- ops */
/* Every op returns a new reference (or NULL + error) and records autograd when
   grad mode is on and an input requires grad. Inputs are borrowed. */

/* Elementwise binary, with broadcasting and type promotion. */
nn_tensor *nn_add(nn_tensor *a, nn_tensor *b);                 /* a + b */
nn_tensor *nn_add_scaled(nn_tensor *a, nn_tensor *b, double alpha); /* a + alpha*b */
nn_tensor *nn_sub(nn_tensor *a, nn_tensor *b);
nn_tensor *nn_mul(nn_tensor *a, nn_tensor *b);
nn_tensor *nn_div(nn_tensor *a, nn_tensor *b);
nn_tensor *nn_pow(nn_tensor *a, nn_tensor *b);
/* a & b, a | b, a ^ b of integer or bool tensors (bool with bool stays bool),
   broadcast and promoted as the arithmetic ops; ~a (nn_bitwise_not). Floating
   operands: PyTorch's RuntimeError "\"bitwise_and_cpu\" not implemented for
   'Float'". Not differentiable. */
nn_tensor *nn_bitwise_and(nn_tensor *a, nn_tensor *b);
nn_tensor *nn_bitwise_or(nn_tensor *a, nn_tensor *b);
nn_tensor *nn_bitwise_xor(nn_tensor *a, nn_tensor *b);
nn_tensor *nn_bitwise_not(nn_tensor *a);
nn_tensor *nn_pow_scalar(nn_tensor *a, double exponent);       /* a ** s */
nn_tensor *nn_rpow_scalar(double base, bool integer_base, nn_tensor *a); /* s ** a (an int s keeps an int a int) */
nn_tensor *nn_rsub_scalar(nn_tensor *a, double s);             /* s - a */
nn_tensor *nn_rsub(nn_tensor *a, nn_tensor *number);          /* number - a, number a wrapped Python number */
nn_tensor *nn_maximum(nn_tensor *a, nn_tensor *b);
nn_tensor *nn_minimum(nn_tensor *a, nn_tensor *b);
/* Scalar conveniences (the scalar is a wrapped number). */
nn_tensor *nn_add_scalar(nn_tensor *a, double s);
nn_tensor *nn_mul_scalar(nn_tensor *a, double s);
nn_tensor *nn_div_scalar(nn_tensor *a, double s);
/* a // b rounded toward -inf (torch.floor_divide, PyTorch 1.13's rounding); not
   differentiable. Integer operands with a zero divisor: RuntimeError "ZeroDivisionError". */
nn_tensor *nn_floor_divide(nn_tensor *a, nn_tensor *b);
/* a % b with the divisor's sign (torch.remainder); the same zero-divisor error. */
nn_tensor *nn_remainder(nn_tensor *a, nn_tensor *b);

/* Comparisons -> bool tensors (no autograd). */
typedef enum nn_cmp { NN_EQ, NN_NE, NN_LT, NN_LE, NN_GT, NN_GE } nn_cmp;
nn_tensor *nn_compare(nn_tensor *a, nn_tensor *b, nn_cmp op);
/* where(cond, a, b) with broadcasting. */
nn_tensor *nn_where(nn_tensor *cond, nn_tensor *a, nn_tensor *b);

/* In-place binary ops (a op= b); bump version; autograd-aware. 0 or -1. */
int nn_add_(nn_tensor *a, nn_tensor *b, double alpha);
int nn_sub_(nn_tensor *a, nn_tensor *b);
int nn_mul_(nn_tensor *a, nn_tensor *b);
int nn_div_(nn_tensor *a, nn_tensor *b);

/* Elementwise unary ops and activations (unary.c). */
nn_tensor *nn_neg(nn_tensor *a);
nn_tensor *nn_exp(nn_tensor *a);
nn_tensor *nn_log(nn_tensor *a);
nn_tensor *nn_sqrt(nn_tensor *a);
nn_tensor *nn_abs(nn_tensor *a);
nn_tensor *nn_tanh(nn_tensor *a);
nn_tensor *nn_sigmoid(nn_tensor *a);
nn_tensor *nn_relu(nn_tensor *a);
/* Step functions (zero gradient): floor, ceil, round (halves to even), sign. Integer
   inputs: a copy (sign: -1/0/1); bool and float16 are RuntimeErrors but for sign. */
nn_tensor *nn_floor(nn_tensor *a);
nn_tensor *nn_ceil(nn_tensor *a);
nn_tensor *nn_round(nn_tensor *a);
nn_tensor *nn_sign(nn_tensor *a);
typedef enum nn_gelu_approx { NN_GELU_NONE, NN_GELU_TANH } nn_gelu_approx;
nn_tensor *nn_gelu(nn_tensor *a, nn_gelu_approx approximate);
nn_tensor *nn_leaky_relu(nn_tensor *a, double negative_slope);
nn_tensor *nn_elu(nn_tensor *a, double alpha);
nn_tensor *nn_silu(nn_tensor *a);
nn_tensor *nn_softplus(nn_tensor *a, double beta, double threshold);
nn_tensor *nn_threshold(nn_tensor *a, double threshold, double value);
nn_tensor *nn_prelu(nn_tensor *a, nn_tensor *weight);
/* clamp(a, min, max); has_min/has_max say which bound is given. */
nn_tensor *nn_clamp(nn_tensor *a, double min, bool has_min, double max, bool has_max);

/* Matrix products (matmul.c). */
nn_tensor *nn_mm(nn_tensor *a, nn_tensor *b);      /* [n, k] @ [k, m] -> [n, m] */
nn_tensor *nn_bmm(nn_tensor *a, nn_tensor *b);     /* [B, n, k] @ [B, k, m] -> [B, n, m] */
nn_tensor *nn_matmul(nn_tensor *a, nn_tensor *b);  /* torch.matmul semantics */
nn_tensor *nn_dot(nn_tensor *a, nn_tensor *b);     /* [n] . [n] -> [] */
nn_tensor *nn_mv(nn_tensor *a, nn_tensor *x);      /* [n, k] @ [k] -> [n] */

/* Reductions (reduce.c). dims: n_dims entries (negative allowed); n_dims == 0 means all. */
nn_tensor *nn_sum(nn_tensor *a, int n_dims, const int *dims, bool keepdim);
nn_tensor *nn_mean(nn_tensor *a, int n_dims, const int *dims, bool keepdim);
nn_tensor *nn_var(nn_tensor *a, int n_dims, const int *dims, bool unbiased, bool keepdim);
nn_tensor *nn_std(nn_tensor *a, int n_dims, const int *dims, bool unbiased, bool keepdim);
/* torch.var_mean / std_mean: *var_out (or the std, take_sqrt) and *mean_out at once,
   both by Welford as ATen computes them (one VarMeanBackward0 node); 0 or -1. */
int nn_var_mean(nn_tensor *a, int n_dims, const int *dims, bool unbiased, bool keepdim, bool take_sqrt,
                nn_tensor **var_out, nn_tensor **mean_out);
/* Whole-tensor max/min (values only). */
nn_tensor *nn_max_all(nn_tensor *a);
nn_tensor *nn_min_all(nn_tensor *a);
/* max/min over dim: *values and *indices receive new references. */
int nn_max_dim(nn_tensor *a, int dim, bool keepdim, nn_tensor **values, nn_tensor **indices);
int nn_min_dim(nn_tensor *a, int dim, bool keepdim, nn_tensor **values, nn_tensor **indices);
/* argmax over dim, or over the flattened tensor when has_dim is false. */
nn_tensor *nn_argmax(nn_tensor *a, int dim, bool has_dim, bool keepdim);
/* argmin: the first index of the smallest (a NaN counts as the extremum) */
nn_tensor *nn_argmin(nn_tensor *a, int dim, bool has_dim, bool keepdim);
/* p-norm over dims (n_dims == 0: all). */
nn_tensor *nn_norm(nn_tensor *a, double p, int n_dims, const int *dims, bool keepdim);
/* torch.norm's default p="fro" over exactly two dims: sqrt(sum(x * x, dims)), as PyTorch 1.13
   computes it (its grad_fn SqrtBackward0); core/reduce_exact.c. */
nn_tensor *nn_frobenius_norm(nn_tensor *x, int n_dims, const int *dims, bool keepdim);

/* Neural-network functions (nnfunc.c). */
nn_tensor *nn_softmax(nn_tensor *a, int dim);
/* torch's _get_softmax_dim for dim=None (name: softmax, log_softmax, softmin): its
   UserWarning, then 0 for a 0-, 1- or 3-dim input, else 1; -1 if the warning failed. */
int nn_implicit_softmax_dim(const char *name, int ndim);
nn_tensor *nn_log_softmax(nn_tensor *a, int dim);
nn_tensor *nn_cat(int n, nn_tensor *const *ts, int dim);
nn_tensor *nn_stack(int n, nn_tensor *const *ts, int dim);
/* Dropout with p; draws from the default generator as PyTorch does. */
nn_tensor *nn_dropout(nn_tensor *a, double p, bool training);
typedef enum nn_reduction { NN_REDUCTION_NONE, NN_REDUCTION_MEAN, NN_REDUCTION_SUM } nn_reduction;
nn_tensor *nn_mse_loss(nn_tensor *input, nn_tensor *target, nn_reduction reduction);
nn_tensor *nn_l1_loss(nn_tensor *input, nn_tensor *target, nn_reduction reduction);
/* input [N, C] (or [C]) logits, target [N] int64 class indices. */
nn_tensor *nn_cross_entropy(nn_tensor *input, nn_tensor *target, nn_reduction reduction,
                            int64_t ignore_index, double label_smoothing);
/* Normalises over the last n_norm dims (normalized_shape); weight/bias may be NULL. */
nn_tensor *nn_layer_norm(nn_tensor *input, int n_norm, const int64_t *normalized_shape,
                         nn_tensor *weight, nn_tensor *bias, double eps);
/* weight [num, dim], indices int64 of any shape -> [..., dim]. padding_idx < 0: none. */
nn_tensor *nn_embedding(nn_tensor *weight, nn_tensor *indices, int64_t padding_idx);
/* F.embedding's max_norm (ATen's embedding_renorm_): each row of weight that indices name, once, in
   increasing order, scaled in place without autograd by max_norm / (norm + 1e-7) when its
   norm_type-norm exceeds max_norm; rows out of range are left to nn_embedding's error. 0 or -1. */
int nn_embedding_renorm_(nn_tensor *weight, const nn_tensor *indices, double max_norm, double norm_type);

/* ------------------------------------------------------------ randomness */

/* PyTorch's CPU generator: mt19937 plus its cached normal samples. */
typedef struct nn_generator {
    uint32_t state[624];
    int next;                  /* index into state */
    uint64_t seed;
    bool has_next_float_normal;
    float next_float_normal;
    bool has_next_double_normal;
    double next_double_normal;
} nn_generator;

/* The default generator, as torch.default_generator (borrowed). */
nn_generator *nn_default_generator(void);
void nn_generator_seed(nn_generator *g, uint64_t seed);  /* torch.manual_seed */
uint64_t nn_generator_initial_seed(const nn_generator *g);
uint32_t nn_generator_random(nn_generator *g);            /* 32 random bits */
uint64_t nn_generator_random64(nn_generator *g);          /* 64 random bits */
/* The generator sampling draws from (the default one unless nn_generator_use
   set another); nn_generator_use(g) makes g (borrowed; NULL: the default) the
   one and returns the previous, for the caller to restore. */
nn_generator *nn_current_generator(void);
/* 64 bits from /dev/urandom (torch.seed()'s and a fresh process's seed). */
uint64_t nn_nondeterministic_seed(void);
nn_generator *nn_generator_use(nn_generator *g);
/* at::uniform_real_distribution<double>(0, 1) / <float>(0, 1): one draw. */
double nn_generator_uniform(nn_generator *g);
float nn_generator_uniform_float(nn_generator *g);
/* State as bytes (for sessions): nn_generator_state_size() bytes. */
size_t nn_generator_state_size(void);
void nn_generator_get_state(const nn_generator *g, void *out);
int nn_generator_set_state(nn_generator *g, const void *in, size_t n);

/* Sampling into tensors from the default generator (as torch does).
   All return new references or NULL; the in-place ones return 0/-1. */
nn_tensor *nn_rand(int ndim, const int64_t *sizes, nn_dtype dtype);
nn_tensor *nn_randn(int ndim, const int64_t *sizes, nn_dtype dtype);
nn_tensor *nn_randint(int64_t low, int64_t high, int ndim, const int64_t *sizes, nn_dtype dtype);
nn_tensor *nn_randperm(int64_t n, nn_dtype dtype);
/* The same on a device (its backend's random kernel draws from the generator). */
nn_tensor *nn_rand_on(nn_device device, int ndim, const int64_t *sizes, nn_dtype dtype);
nn_tensor *nn_randn_on(nn_device device, int ndim, const int64_t *sizes, nn_dtype dtype);
nn_tensor *nn_randint_on(nn_device device, int64_t low, int64_t high, int ndim, const int64_t *sizes, nn_dtype dtype);
nn_tensor *nn_randperm_on(nn_device device, int64_t n, nn_dtype dtype);
int nn_uniform_(nn_tensor *t, double from, double to);
int nn_normal_(nn_tensor *t, double mean, double std);
/* t[i] = 1 with probability p else 0 (Bernoulli draws as torch's bernoulli_(p)). */
int nn_bernoulli_(nn_tensor *t, double p);
/* Tensor.random_(from, to): integers in [from, to) as torch's random_. */
int nn_random_(nn_tensor *t, int64_t from, int64_t to);
/* sampling.c: exponential_(lambd); bernoulli with a tensor of probabilities p
   (a new tensor of p's shape and dtype); multinomial (rows of a 1-d or 2-d
   probs, n_samples each, as torch's CPU kernels draw them: Gumbel-top-k
   without replacement or for one sample, else inverse CDF). */
int nn_exponential_(nn_tensor *t, double lambd);
nn_tensor *nn_bernoulli_tensor(nn_tensor *p);
nn_tensor *nn_multinomial(nn_tensor *probs, int64_t n_samples, bool replacement);
/* torch.normal with a tensor mean and/or std (NULL: the number beside it). */
nn_tensor *nn_normal_tensor(nn_tensor *mean, double mean_v, nn_tensor *std, double std_v);
/* t.bernoulli_(p) with a tensor p broadcast to t's shape. */
int nn_bernoulli_tensor_(nn_tensor *t, nn_tensor *p);

/* ---------------------------------------------------------------- threads */

/* The thread budget of the CPU kernels and of OpenBLAS together (core/parallel.c):
   torch.get_num_threads / torch.set_num_threads. The default is OMP_NUM_THREADS
   when it is a positive integer, else the number of cores. Setting n < 1 is a
   RuntimeError (-1); results never depend on the count. */
int nn_get_num_threads(void);
int nn_set_num_threads(int n);

/* --------------------------------------------------------------- autograd */

/* Grad mode (torch.no_grad / enable_grad). Returns the previous mode. */
bool nn_set_grad_enabled(bool enabled);
bool nn_grad_enabled(void);
/* Sets requires_grad on a leaf; -1 with RuntimeError for non-leaves set to false
   or for non-floating dtypes. */
int nn_set_requires_grad(nn_tensor *t, bool requires_grad);
/* tensor.backward(gradient, retain_graph, create_graph); gradient may be NULL for scalars.
   As in PyTorch, callers pass retain_graph = create_graph when the user gave none. */
int nn_backward(nn_tensor *t, nn_tensor *gradient, bool retain_graph, bool create_graph);
/* tensor.backward(gradient, inputs=leaves): nn_backward that accumulates into the
   .grad of the n_leaves listed leaf tensors only (no other leaf's .grad changes,
   nor do other leaves' hooks run), the graph not retained. */
int nn_backward_inputs(nn_tensor *t, nn_tensor *gradient, int n_leaves, nn_tensor *const *leaves);
/* The same with retain_graph and create_graph, and n_leaves < 0 for every leaf
   (torch.autograd.grad and torch.autograd.backward). */
int nn_backward_restricted(nn_tensor *t, nn_tensor *gradient, bool retain_graph, bool create_graph, int n_leaves,
                           nn_tensor *const *leaves);
/* torch.autograd.grad's run: nn_backward_restricted, except that with create_graph the
   gradients reaching the leaves and the retain_grad tensors are kept as made (no copy, so
   their grad_fn is the backward's own node, as PyTorch returns them). */
int nn_backward_capture(nn_tensor *t, nn_tensor *gradient, bool retain_graph, bool create_graph, int n_leaves,
                        nn_tensor *const *leaves);
/* nn_backward_capture that also captures the gradients of n_nonleaf tensors made by ops
   (nonleaf[i], each with a grad_fn): the gradient reaching nonleaf[i]'s output of its
   grad_fn is added into slots[i] (a new reference; left as it was when none comes), as
   PyTorch's autograd.grad captures it (before that tensor's hooks). As PyTorch, the walk
   runs only the nodes that lead to a wanted leaf or captured tensor: the graph above a
   captured tensor is neither run nor freed. raw: as nn_backward_capture (autograd.grad),
   else as nn_backward_restricted (backward(inputs=...)). */
int nn_backward_grad(nn_tensor *t, nn_tensor *gradient, bool retain_graph, bool create_graph, int n_leaves,
                     nn_tensor *const *leaves, int n_nonleaf, nn_tensor *const *nonleaf, nn_tensor **slots, bool raw);
/* Whether the backward now running on this thread walks only towards chosen tensors
   (torch.autograd.grad, backward(inputs=...)): a node's backward that runs a backward
   of its own to fill every leaf's .grad (a reentrant checkpoint) cannot serve such a walk. */
bool nn_backward_is_restricted(void);
/* An observer of every differentiable op (op_observer.c): called by each op after
   its forward computed the outputs, grad mode or not, with the op's name ("log",
   "mul", as ops.def) and its tensor inputs (NULLs allowed) and outputs, all
   borrowed. It must not fail the op: it keeps the current error as it found it.
   One at a time; NULL removes it. The inspector's NaN breakpoint uses it. */
typedef void (*nn_op_observer_fn)(void *ud, const char *op, int n_in, nn_tensor *const *inputs, int n_out,
                                  nn_tensor *const *outputs);
void nn_set_op_observer(nn_op_observer_fn fn, void *ud);
/* The observer now set (NULL when none) and its ud. */
nn_op_observer_fn nn_get_op_observer(void **ud);
/* An observer of every backward node (op_observer.c): called after a node's
   backward computed its results, with the node's name ("LogBackward0"), the
   gradients it received (one per output of its forward), the gradients it made
   (one per input) and the tensors it saved, all borrowed, NULLs allowed. It
   keeps the current error as it found it. One at a time; NULL removes it. The
   inspector's NaN breakpoint uses it to name the node that made a NaN. */
typedef void (*nn_backward_observer_fn)(void *ud, const char *node, int n_received, nn_tensor *const *received,
                                        int n_made, nn_tensor *const *made, int n_saved, nn_tensor *const *saved);
void nn_set_backward_observer(nn_backward_observer_fn fn, void *ud);
nn_backward_observer_fn nn_get_backward_observer(void **ud);
/* tensor.retain_grad() */
int nn_retain_grad(nn_tensor *t);
/* Registers hook(grad) -> new grad or None on t; returns a handle id (> 0) or -1. */
int64_t nn_tensor_register_hook(nn_tensor *t, nn_object *hook);
/* Removes a hook by handle id; no error when it is already gone. */
void nn_tensor_remove_hook(nn_tensor *t, int64_t handle);
/* The grad_fn's name ("AddBackward0"), or NULL for leaves. */
const char *nn_grad_fn_name(const nn_tensor *t);
extern const nn_type nn_node_type;
/* grad_fn.next_functions: a new tuple of (node, input_nr), (AccumulateGrad, 0) for a
   leaf, (None, 0) for an input needing no gradient (next_functions.c). */
nn_object *nn_node_next_functions(nn_object *node);
extern const nn_type nn_accumulate_grad_type;
nn_tensor *nn_accumulate_grad_variable(nn_object *o); /* its leaf, borrowed; NULL if o is not one */

/* ---- optimizers (optim.c) ---- */

/* torch.optim's SGD, Adam and AdamW with PyTorch 1.13's default (single-tensor,
   CPU) arithmetic, bit for bit. An optimizer is an object (repr as print(optimizer))
   holding new references to its parameters, in param groups with their own options,
   and per-parameter state. Parameters are stepped in float32 or float64. */
typedef struct nn_optimizer nn_optimizer; /* starts with an nn_object header */
extern const nn_type nn_optimizer_type;   /* base of the types "SGD", "Adam", "AdamW" */
typedef enum nn_optimizer_kind { NN_OPTIM_SGD, NN_OPTIM_ADAM, NN_OPTIM_ADAMW } nn_optimizer_kind;

/* Bits of the options' int_valued: numbers given as Python ints, which repr and
   messages print as "0", not "0.0" (PyTorch prints the value as given). */
enum {
    NN_OPT_LR = 1 << 0, NN_OPT_MOMENTUM = 1 << 1, NN_OPT_DAMPENING = 1 << 2, NN_OPT_WEIGHT_DECAY = 1 << 3,
    NN_OPT_BETA1 = 1 << 4, NN_OPT_BETA2 = 1 << 5, NN_OPT_EPS = 1 << 6,
};

typedef struct nn_sgd_options {
    double lr;           /* required: NAN (the default) means not given */
    double momentum;     /* 0 */
    double dampening;    /* 0 */
    double weight_decay; /* 0 */
    bool nesterov;       /* false */
    bool maximize;       /* false */
    unsigned int_valued; /* MOMENTUM | DAMPENING | WEIGHT_DECAY */
} nn_sgd_options;

/* Adam's and AdamW's options. */
typedef struct nn_adam_options {
    double lr;           /* 1e-3 */
    double beta1, beta2; /* 0.9, 0.999 */
    double eps;          /* 1e-8 */
    double weight_decay; /* Adam: 0 (an int); AdamW: 1e-2 */
    bool amsgrad;        /* false */
    bool maximize;       /* false */
    unsigned int_valued; /* Adam: WEIGHT_DECAY; AdamW: none */
} nn_adam_options;

/* Fill o with PyTorch's defaults. */
void nn_sgd_options_default(nn_sgd_options *o);
void nn_adam_options_default(nn_adam_options *o);
void nn_adamw_options_default(nn_adam_options *o);

/* torch.optim.SGD/Adam/AdamW(params, **o): validate o as PyTorch does (ValueError
   "Invalid learning rate: -1.0", ...) and make param group 0 of params[0..n)
   (borrowed, each retained); o (NULL: the defaults) is both that group's options
   and the optimizer's defaults. params NULL with n 0 makes an optimizer without
   groups (a list of dicts: add each with nn_optimizer_add_param_group); an empty
   list is ValueError "optimizer got an empty parameter list". New reference. */
nn_optimizer *nn_sgd_new(nn_tensor *const *params, size_t n, const nn_sgd_options *o);
nn_optimizer *nn_adam_new(nn_tensor *const *params, size_t n, const nn_adam_options *o);
nn_optimizer *nn_adamw_new(nn_tensor *const *params, size_t n, const nn_adam_options *o);
nn_optimizer_kind nn_optimizer_get_kind(const nn_optimizer *opt);
/* optimizer.add_param_group: params borrowed (retained); options an nn_sgd_options *
   or nn_adam_options * for the optimizer's kind, not validated (as in PyTorch), or
   NULL for the optimizer's defaults. ValueError for a non-leaf tensor, a parameter
   already in another group, or SGD without lr. 0, or -1 leaving opt unchanged. */
int nn_optimizer_add_param_group(nn_optimizer *opt, nn_tensor *const *params, size_t n, const void *options);
/* optimizer.step(): updates in place (version bumps as PyTorch's) every parameter
   that has a .grad, skipping the others, with grad mode off. 0 or -1. */
int nn_optimizer_step(nn_optimizer *opt);
/* An observer of optimizer steps (op_observer.c): fn(ud, opt) after each
   successful nn_optimizer_step (opt borrowed). It must not fail the step. One at a
   time; NULL removes it. The inspector counts training steps and reads the
   learning rates with it. */
typedef void (*nn_optimizer_observer_fn)(void *ud, nn_optimizer *opt);
void nn_set_optimizer_observer(nn_optimizer_observer_fn fn, void *ud);
nn_optimizer_observer_fn nn_get_optimizer_observer(void **ud);
/* optimizer.zero_grad(set_to_none): each .grad becomes NULL, or (false) is
   detached and zeroed in place. 0 or -1. */
int nn_optimizer_zero_grad(nn_optimizer *opt, bool set_to_none);

/* optimizer.defaults: an nn_sgd_options or nn_adam_options (borrowed). */
const void *nn_optimizer_defaults(const nn_optimizer *opt);
size_t nn_optimizer_num_groups(const nn_optimizer *opt);
/* Steps taken since the count was last set (PyTorch's optimizer._step_count, which a
   learning-rate scheduler zeroes when it is made and reads to warn of a wrong order). */
uint64_t nn_optimizer_step_count(const nn_optimizer *opt);
void nn_optimizer_set_step_count(nn_optimizer *opt, uint64_t n);
/* param_groups[group]'s options (nn_sgd_options * or nn_adam_options *): borrowed,
   writable as group[key] = value is (unvalidated). NULL with IndexError out of range. */
void *nn_optimizer_group_options(nn_optimizer *opt, size_t group);
/* param_groups[group]['lr'], for schedulers. -1 with IndexError out of range. */
int nn_optimizer_get_lr(const nn_optimizer *opt, size_t group, double *lr);
int nn_optimizer_set_lr(nn_optimizer *opt, size_t group, double lr);
/* A slot the language layer keeps its param_groups list in (core never reads it;
   a reference held there is released with the optimizer). Borrowed. */
nn_object **nn_optimizer_lang_slot(nn_optimizer *opt);
/* print(optimizer) by the language layer while its lang slot holds something:
   hook returns the text (nn_malloc'd), or NULL without an error for core's repr. */
void nn_optimizer_set_repr_hook(char *(*hook)(nn_optimizer *opt));
/* The group's parameters: count, and the i-th (borrowed; NULL when out of range). */
size_t nn_optimizer_group_size(const nn_optimizer *opt, size_t group);
nn_tensor *nn_optimizer_group_param(const nn_optimizer *opt, size_t group, size_t i);
/* optimizer.state[param]: its keys in PyTorch's order into keys[NN_OPTIM_MAX_STATE_KEYS]
   (borrowed strings); returns their count, 0 for no state. */
#define NN_OPTIM_MAX_STATE_KEYS 4
int nn_optimizer_state_keys(const nn_optimizer *opt, const nn_tensor *param, const char **keys);
/* optimizer.state[param][key] into *out: a new reference to the state tensor, or NULL
   for None (SGD's momentum_buffer without momentum). Keys: "step" (float32 []),
   "momentum_buffer", "exp_avg", "exp_avg_sq", "max_exp_avg_sq". 0, or -1 with
   KeyError when absent. */
int nn_optimizer_get_state(const nn_optimizer *opt, const nn_tensor *param, const char *key, nn_tensor **out);
/* optimizer.load_state_dict's writes: every parameter's state emptied; then
   state[param][key] = value (retained; NULL is None, SGD's momentum_buffer only).
   value must be a contiguous tensor of the parameter's shape and dtype ('step': a
   0-dim float32 tensor); KeyError for a key the optimizer does not keep,
   ValueError for a wrong tensor. 0 or -1 leaving the state unchanged. */
void nn_optimizer_clear_state(nn_optimizer *opt);
int nn_optimizer_set_state(nn_optimizer *opt, const nn_tensor *param, const char *key, nn_tensor *value);

/* ---- safetensors (safetensors.c) ---- */
/* State dicts as safetensors files: an 8-byte little-endian header length N, N bytes
   of JSON header, then the raw little-endian data. Malformed files fail with
   RuntimeError ("invalid safetensors file: ..."), bad arguments with ValueError. */

/* A named tensor of a state dict. */
typedef struct nn_named_tensor {
    char *name;        /* UTF-8 */
    nn_tensor *tensor;
} nn_named_tensor;

/* A loaded file. The struct owns everything in it (the strings and one reference
   per tensor); nn_safetensors_free releases it all. */
typedef struct nn_safetensors {
    nn_named_tensor *tensors; /* n new contiguous CPU tensors, in header order */
    size_t n;
    char **metadata;          /* "__metadata__" as 2*n_metadata strings key, value, key, value, ...
                                 in header order; NULL when there is none (non-NULL when empty) */
    size_t n_metadata;
} nn_safetensors;

/* The bytes safetensors.torch.save(tensors, metadata) gives for the n items (borrowed;
   CPU tensors of any layout, written row-major): data sorted by dtype alignment then
   name, compact JSON header padded with spaces to a multiple of 8. metadata_kv holds
   2*n_metadata strings (key, value, ...) written sorted by key (Hugging Face writes
   them in hash order); NULL writes no "__metadata__", non-NULL with n_metadata == 0
   an empty one. *out becomes a new nn_malloc'd buffer of *out_len bytes. 0 or -1. */
int nn_safetensors_serialize(const nn_named_tensor *items, size_t n, const char *const *metadata_kv,
                             size_t n_metadata, void **out, size_t *out_len);
/* The same bytes as pieces in file order, for a caller that writes them somewhere
   without a copy of the tensors' data (sessions' snapshots): pieces[0] is the 8-byte
   header length and the padded header; each later piece is one non-empty tensor's
   data, pointing into the tensor itself when it is contiguous, else into a row-major
   copy the struct owns. total is the file's length (the sum of the lengths). Tensor
   pieces stay valid while the items' tensors live and their data is unchanged.
   nn_safetensors_serialize is these pieces concatenated. 0 or -1 (nothing to free). */
typedef struct nn_safetensors_piece {
    const void *data;
    size_t len;
} nn_safetensors_piece;
typedef struct nn_safetensors_pieces {
    nn_safetensors_piece *pieces;
    size_t n;
    size_t total;
    void **owned; /* private: the header and the copies, freed by nn_safetensors_pieces_free */
    size_t n_owned;
} nn_safetensors_pieces;
int nn_safetensors_pieces_make(const nn_named_tensor *items, size_t n, const char *const *metadata_kv,
                               size_t n_metadata, nn_safetensors_pieces *out);
/* Frees what pieces owns and zeroes it; a zeroed struct (or NULL) is fine. */
void nn_safetensors_pieces_free(nn_safetensors_pieces *pieces);
/* Writes the same bytes to path through a temporary file in the same directory and
   rename(), so a failure never leaves a partial file. 0 or -1. */
int nn_safetensors_save_file(const char *path, const nn_named_tensor *items, size_t n,
                             const char *const *metadata_kv, size_t n_metadata);
/* Reads a file's bytes (borrowed) after checking all of them; returns a new result
   or NULL. Bool bytes other than 0 read as true. */
nn_safetensors *nn_safetensors_parse(const void *data, size_t len);
nn_safetensors *nn_safetensors_load_file(const char *path);
void nn_safetensors_free(nn_safetensors *st);
/* Lookups by name (borrowed results): NULL, no error set, when absent. */
nn_tensor *nn_safetensors_get(const nn_safetensors *st, const char *name);
const char *nn_safetensors_metadata_get(const nn_safetensors *st, const char *key);

/* State dicts (dict str -> tensor, borrowed) as safetensors (state_file.c); metadata
   is a dict str -> str or NULL. TypeError for other keys or values (extra state). */
int nn_state_dict_save_file(nn_object *state_dict, const char *path, nn_object *metadata);
int nn_state_dict_to_bytes(nn_object *state_dict, nn_object *metadata, void **out, size_t *out_len);
/* The same bytes as pieces (nn_safetensors_pieces_make); the state_dict must live,
   unchanged, as long as the pieces are used. */
int nn_state_dict_to_pieces(nn_object *state_dict, nn_object *metadata, nn_safetensors_pieces *out);
/* A new ordered dict of new tensors in file order; *metadata_out (when not NULL) a new dict. */
nn_object *nn_state_dict_load_file(const char *path, nn_object **metadata_out);
nn_object *nn_state_dict_from_bytes(const void *data, size_t len, nn_object **metadata_out);

/* ---------------------------------------------------------------- printing */

/* repr(t) exactly as PyTorch prints it; a new nn_malloc'd string. */
char *nn_tensor_repr(nn_tensor *t);
/* Print options (torch.set_printoptions). */
typedef struct nn_print_options {
    int precision;     /* 4 */
    int64_t threshold; /* 1000 */
    int edgeitems;     /* 3 */
    int linewidth;     /* 80 */
    int sci_mode;      /* -1: auto, 0: off, 1: on */
} nn_print_options;
nn_print_options *nn_print_options_get(void);

#include "nn_gc.h"
#include "nn_module.h"
#include "nn_init.h"
#include "nn_layers.h"
#include "nn_activations.h"
#include "nn_containers.h"
#include "nn_tensordict.h"
#include "nn_torch_file.h"
#include "nn_clip_grad.h"
#include "nn_pool.h"
#include "nn_math.h"
#include "nn_select.h"
#include "nn_act_more.h"
#include "nn_rnn.h"
#include "nn_complex.h"

#endif
