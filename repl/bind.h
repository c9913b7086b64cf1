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
/* Frees the cached built-in modules (for leak checks at exit). */
void repl_bindings_shutdown(void);

#endif
