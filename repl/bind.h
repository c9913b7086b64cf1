/*
 * bind.h — the bindings: the built-in modules torch, torch.nn, torch.nn.functional,
 * torch.optim, torch.nn.init, torch.cuda, ... and the operations (getattr, operators,
 * indexing, len, iteration, truth) on core's objects that the evaluator reaches
 * through repl_native_ops (native.h).
 */
#ifndef REPL_BIND_H
#define REPL_BIND_H

#include "native.h"

/* Installs the bindings' repl_native_ops with repl_set_native_ops. Idempotent. */
void repl_bindings_install(void);
/* The operations themselves (static storage). */
const repl_native_ops *repl_bindings_ops(void);
/* import of a built-in module by dotted name: a new reference, or NULL without an
   error when the name is not a built-in module (NULL with MemoryError on failure). */
nn_object *repl_bind_import(const char *dotted_name);
/* isinstance(obj, cls) for a native class object cls (torch.Tensor, nn.Linear, ...):
   1 or 0; -1 (no error set) when cls is not a native class. Both borrowed. */
int repl_bind_isinstance(nn_object *obj, nn_object *cls);
/* type(obj) for a native obj: a new reference to its class object (torch.Tensor,
   nn.Parameter, nn.Linear, torch.optim.SGD, ...), or NULL without an error when it
   has none here (a module of a class written in the language, dtypes, ...). */
nn_object *repl_bind_type_of(nn_object *obj);
/* The core module class of a native module class object (nn.Linear), or NULL. */
const nn_module_class *repl_bind_module_class_of(nn_object *cls);
/* issubclass(cls, base) for native module classes (nn.LSTM, nn.RNNBase, nn.Module): 1 or 0 */
int repl_bind_module_issubclass(nn_object *cls, nn_object *base);
/* A native module class's __mro__ as far as nnscope models the classes (nn.LSTM:
   (LSTM, RNNBase, Module, object)): a new tuple, or NULL without an error when cls
   is not a native module class (NULL with the error when out of memory). */
nn_object *repl_bind_class_mro(nn_object *cls);
/* Whether the chain of core class k holds a private base (_BatchNorm, _ConvNd, _Loss, ...) whose
   class of the language is cls: isinstance(bn, nn.modules.batchnorm._BatchNorm), issubclass. */
bool repl_bind_chain_has_class(const nn_module_class *k, nn_object *cls);
/* What help() and repl_signature() know of a bindings' object. */
typedef enum repl_doc_kind {
    REPL_DOC_FUNCTION, /* a module function: torch.randn */
    REPL_DOC_BOUND,    /* a method bound to an instance: x.add */
    REPL_DOC_UNBOUND,  /* a class's method: torch.Tensor.add */
    REPL_DOC_CLASS,    /* a class: nn.Linear */
} repl_doc_kind;
typedef struct repl_doc_info {
    repl_doc_kind kind;
    const char *name;     /* "randn", "add", "Linear" */
    const char *doc;      /* "signature\none line" (see bind_int.h), or NULL when missing */
    const char *module;   /* module functions: "torch"; else NULL */
    const char *qualname; /* classes, and the class of a method: "torch.Tensor" (NULL: unknown) */
    const char *base;     /* classes: the base class's qualname ("torch.nn.modules.module.Module") */
    nn_object *self;      /* bound methods: the instance (borrowed) */
    bool self_first;      /* methods: see repl_method_doc */
} repl_doc_info;
/* Fills *out for a native function or class object o (borrowed); false (no
   error) when o is neither. Strings are borrowed from o or static. */
bool repl_bind_doc_of(nn_object *o, repl_doc_info *out);
/* A method of a class's instances as help() lists it. */
typedef struct repl_method_doc {
    const char *name, *doc; /* static */
    bool self_first;        /* doc is a torch function's whose first parameter is the instance
                               (x.sum is documented as sum(input, dim=None, ...)) */
} repl_method_doc;
/* The i-th method of a native class object's instances into *out; false past the end. */
bool repl_bind_class_method(nn_object *cls, size_t i, repl_method_doc *out);
/* For a built-in module object o (torch, torch.nn, ...): its name and its
   attributes (a dict, borrowed) for help(torch); false when o is not one. */
bool repl_bind_module_of(nn_object *o, const char **name, nn_object **attrs);
/* sys.argv's items: the script path (or "-c", "-") then its arguments, as python
   sets them; borrowed, they must outlive the interpreter (main's argv). Until
   called (the notebook), sys.argv is ['']. Call before the first import of sys. */
void repl_bind_set_argv(int argc, const char *const *argv);
/* Frees the cached built-in modules (for leak checks at exit). */
void repl_bindings_shutdown(void);

/* Reads NNSCOPE_TEST_DEVICE once (bind_device.c): "loopback" registers core's loopback
   test device in CUDA's place and makes it the default device. */
void repl_devices_init(void);

#endif
