/*
 * native.h — the contract between the evaluator (eval*.c) and the bindings
 * (bind_*.c): how the language reaches core's objects (tensors, modules,
 * optimizers, dtypes, ...) and the built-in modules `torch`, `torch.nn`, ...
 * The evaluator owns language values (functions, classes, instances,
 * exceptions); everything else is a "native" object handled here.
 */
#ifndef REPL_NATIVE_H
#define REPL_NATIVE_H

#include "nn.h"

/* Binary and unary operators, as the evaluator dispatches them. */
typedef enum repl_binop {
    REPL_ADD, REPL_SUB, REPL_MUL, REPL_DIV, REPL_FLOORDIV, REPL_MOD, REPL_POW, REPL_MATMUL,
    REPL_LT, REPL_LE, REPL_GT, REPL_GE, REPL_EQ, REPL_NE,
    REPL_AND_BITS, REPL_OR_BITS, REPL_XOR_BITS,
} repl_binop;
typedef enum repl_unop { REPL_NEG, REPL_POS, REPL_INVERT } repl_unop;

/* The operations the bindings provide for native objects. Every slot may be NULL
   (the evaluator then raises the TypeError Python would). Results are new
   references; NULL without an error set means "not supported for these operands"
   (the evaluator tries the reflected operation or raises TypeError), NULL with
   an error set is that error. Arguments are borrowed. */
typedef struct repl_native_ops {
    /* import torch / import torch.nn as nn / from torch import nn: the module
       object for a dotted name, or NULL (no error) when it isn't a built-in module */
    nn_object *(*import_module)(const char *dotted_name);
    /* obj.name for a native obj (tensor methods and properties, module attributes
       and methods, dtype fields, ...); NULL with AttributeError when absent */
    nn_object *(*getattr)(nn_object *obj, const char *name);
    /* obj.name = value; -1 with the error (AttributeError, TypeError) */
    int (*setattr)(nn_object *obj, const char *name, nn_object *value);
    /* a OP b where a or b is native (the other may be an int, float, bool, ...) */
    nn_object *(*binary)(repl_binop op, nn_object *a, nn_object *b);
    /* a OP= b for a native a, written into a (Python's __iadd__ & co.): a new
       reference to a, or NULL without an error when a has no in-place form for
       these operands (the evaluator then rebinds to a OP b) */
    nn_object *(*inplace)(repl_binop op, nn_object *a, nn_object *b);
    /* OP a */
    nn_object *(*unary)(repl_unop op, nn_object *a);
    /* obj[key] and obj[key] = value; key is an int, slice, None, Ellipsis,
       tensor, or a tuple of those (the evaluator's slice and Ellipsis objects:
       see repl_slice_parts / repl_is_ellipsis below) */
    nn_object *(*getitem)(nn_object *obj, nn_object *key);
    int (*setitem)(nn_object *obj, nn_object *key, nn_object *value);
    /* len(obj) into *out: 0, or -1 with TypeError */
    int (*len)(nn_object *obj, int64_t *out);
    /* iter(obj): a list of the items (tensors iterate over dim 0, Sequential
       over its modules); NULL with TypeError when not iterable */
    nn_object *(*iterate)(nn_object *obj);
    /* bool(obj): 0/1, or -1 with the error (a tensor of several elements) */
    int (*truth)(nn_object *obj);
    /* str(obj) when it differs from repr (else NULL without error) */
    char *(*str)(nn_object *obj);
    /* the core class of a native module class object (nn.Module, nn.Linear, ...),
       so that `class Net(nn.Module)` makes core modules; NULL (no error) when
       native_class is not a module class. Borrowed result. */
    const nn_module_class *(*module_class_of)(nn_object *native_class);
} repl_native_ops;

/* Installs the bindings' operations (borrowed; must outlive the interpreter). */
void repl_set_native_ops(const repl_native_ops *ops);
const repl_native_ops *repl_get_native_ops(void);

/* Values the evaluator makes that natives receive as keys or arguments. */
/* a slice start:stop:step: each part a new reference to an int or None */
extern const nn_type repl_slice_type; /* slice(start, stop, step) objects */
bool repl_is_slice(const nn_object *o);
void repl_slice_parts(const nn_object *o, nn_object **start, nn_object **stop, nn_object **step);
bool repl_is_ellipsis(const nn_object *o);
/* a slice object (for bindings that build one); parts borrowed (NULL = None) */
nn_object *repl_slice_new(nn_object *start, nn_object *stop, nn_object *step);
nn_object *repl_ellipsis(void); /* borrowed singleton */
/* A generator over the items of list (borrowed), printed as
   <generator object QUALNAME at 0x...> (nn.Module.parameters() & co.); new reference. */
nn_object *repl_generator_from_list(nn_object *list, const char *qualname);
/* The items of any iterable (a generator, zip, ...) as a new list; NULL with
   TypeError when o is not iterable. */
nn_object *repl_iterable_to_list(nn_object *o);
/* Raises SystemExit(code) (sys.exit): code borrowed, NULL or None for SystemExit().
   Returns -1 (the caller returns NULL: the exception is pending). */
int repl_raise_system_exit(nn_object *code);
/* The arguments a native function receives: args (a tuple) with an instance
   of a subclass of a built-in type (class D(dict), class L(list)) replaced by
   its built-in value, as a new reference (args itself, retained, when none
   is); NULL with MemoryError. kwargs likewise (NULL stays NULL). */
nn_object *repl_native_args(nn_object *args);
nn_object *repl_native_kwargs(nn_object *kwargs);

#endif
