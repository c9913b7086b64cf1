/*
 * eval_int.h — private to the evaluator (eval.c, objects.c, builtins.c): the
 * interpreter state, the language's own object types (function, class,
 * instance, exception, set, range, iterator, module) and the helpers they share.
 * Not for the bindings: they see only native.h.
 */
#ifndef REPL_EVAL_INT_H
#define REPL_EVAL_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "nn.h"
#include "ast.h"
#include "native.h"
#include "repl.h"

/* ---------------------------------------------------------- name maps */

/* A hash map from C strings (copied) to objects (owned references). */
typedef struct nmap_entry {
    char *key;          /* NULL: empty slot */
    uint32_t hash;
    uint32_t seq;       /* insertion order */
    nn_object *value;   /* NULL: deleted (tombstone) */
} nmap_entry;
typedef struct nmap {
    nmap_entry *e;
    uint32_t cap, used, len; /* used counts tombstones too */
    uint32_t next_seq;
    uint64_t gen;       /* changes whenever entries move (0: no table): a key keeps its
                           slot while gen stays (deleting keeps it as a tombstone) */
} nmap;

/* Borrowed value or NULL (no error). */
nn_object *repl_nmap_get(const nmap *m, const char *key);
/* Borrows value (retains it). 0 or -1 with MemoryError. */
int repl_nmap_set(nmap *m, const char *key, nn_object *value);
/* The same, remembering in c (one per place in the code that names key) where
   key was found, so that the next lookup of that place goes straight to it. */
nn_object *repl_nmap_get_cached(const nmap *m, const char *key, repl_name_cache *c);
int repl_nmap_set_cached(nmap *m, const char *key, nn_object *value, repl_name_cache *c);
/* A plain lookup that takes only the hash from c (leaving its slot memo alone). */
nn_object *repl_nmap_get_hashed(const nmap *m, const char *key, repl_name_cache *c);
/* 1 when removed, 0 when absent. */
int repl_nmap_del(nmap *m, const char *key);
void repl_nmap_clear(nmap *m);
/* The keys in insertion order: a new nn_malloc'd array of m->len borrowed
   strings (NULL with MemoryError; NULL without error when empty). */
const char **repl_nmap_keys_ordered(const nmap *m);
/* Iteration: *pos starts at 0; false at the end; key and value borrowed. */
bool repl_nmap_next(const nmap *m, uint32_t *pos, const char **key, nn_object **value);

/* ---------------------------------------------------------- exceptions */

#define EXC_LIST(X) \
    X(BaseException, -1, -1) X(Exception, EXC_BaseException, -1) \
    X(ArithmeticError, EXC_Exception, -1) X(ZeroDivisionError, EXC_ArithmeticError, NN_ERR_ZERO_DIVISION) \
    X(OverflowError, EXC_ArithmeticError, NN_ERR_OVERFLOW) X(LookupError, EXC_Exception, -1) \
    X(IndexError, EXC_LookupError, NN_ERR_INDEX) X(KeyError, EXC_LookupError, NN_ERR_KEY) \
    X(RuntimeError, EXC_Exception, NN_ERR_RUNTIME) X(NotImplementedError, EXC_RuntimeError, NN_ERR_NOT_IMPLEMENTED) \
    X(RecursionError, EXC_RuntimeError, NN_ERR_RECURSION) X(ValueError, EXC_Exception, NN_ERR_VALUE) \
    X(TypeError, EXC_Exception, NN_ERR_TYPE) X(AttributeError, EXC_Exception, NN_ERR_ATTRIBUTE) \
    X(NameError, EXC_Exception, -1) X(UnboundLocalError, EXC_NameError, -1) \
    X(StopIteration, EXC_Exception, NN_ERR_STOP_ITERATION) X(AssertionError, EXC_Exception, NN_ERR_ASSERTION) \
    X(ImportError, EXC_Exception, -1) X(ModuleNotFoundError, EXC_ImportError, -1) \
    X(KeyboardInterrupt, EXC_BaseException, NN_ERR_KEYBOARD_INTERRUPT) X(MemoryError, EXC_Exception, NN_ERR_MEMORY) \
    X(SyntaxError, EXC_Exception, NN_ERR_SYNTAX) X(IndentationError, EXC_SyntaxError, NN_ERR_INDENTATION) \
    X(SystemExit, EXC_BaseException, -1) \
    X(OSError, EXC_Exception, -1) X(FileNotFoundError, EXC_OSError, -1) X(FileExistsError, EXC_OSError, -1) \
    X(NotADirectoryError, EXC_OSError, -1) X(IsADirectoryError, EXC_OSError, -1) X(PermissionError, EXC_OSError, -1) \
    X(TimeoutError, EXC_OSError, -1) X(ReferenceError, EXC_Exception, -1) \
    X(BlockingIOError, EXC_OSError, -1) X(ChildProcessError, EXC_OSError, -1) X(InterruptedError, EXC_OSError, -1) \
    X(ProcessLookupError, EXC_OSError, -1) X(ConnectionError, EXC_OSError, -1) \
    X(BrokenPipeError, EXC_ConnectionError, -1) X(ConnectionAbortedError, EXC_ConnectionError, -1) \
    X(ConnectionRefusedError, EXC_ConnectionError, -1) X(ConnectionResetError, EXC_ConnectionError, -1) \
    X(BufferError, EXC_Exception, -1) X(FloatingPointError, EXC_ArithmeticError, -1) \
    X(StopAsyncIteration, EXC_Exception, -1) \
    X(UnpicklingError, EXC_Exception, NN_ERR_UNPICKLING) X(GeneratorExit, EXC_BaseException, -1) \
    X(_LinAlgError, EXC_RuntimeError, NN_ERR_LINALG) \
    X(Warning, EXC_Exception, -1) X(UserWarning, EXC_Warning, -1) X(DeprecationWarning, EXC_Warning, -1) \
    X(PendingDeprecationWarning, EXC_Warning, -1) X(SyntaxWarning, EXC_Warning, -1) \
    X(RuntimeWarning, EXC_Warning, -1) X(FutureWarning, EXC_Warning, -1) X(ImportWarning, EXC_Warning, -1) \
    X(UnicodeWarning, EXC_Warning, -1) X(BytesWarning, EXC_Warning, -1) X(ResourceWarning, EXC_Warning, -1) \
    X(EncodingWarning, EXC_Warning, -1) \
    X(UnicodeError, EXC_ValueError, -1) X(UnicodeDecodeError, EXC_UnicodeError, -1) X(UnicodeEncodeError, EXC_UnicodeError, -1) \
    X(UnicodeTranslateError, EXC_UnicodeError, -1) \
    X(EOFError, EXC_Exception, NN_ERR_EOF) X(TabError, EXC_IndentationError, NN_ERR_TAB)

typedef enum exc_id {
#define X(name, parent, kind) EXC_##name,
    EXC_LIST(X)
#undef X
    EXC_COUNT
} exc_id;

/* ---------------------------------------------------------- objects */

typedef struct code_unit code_unit;   /* one parsed source: arena + text (refcounted) */
/* The text a unit was parsed from and its filename (borrowed; NULL for none). */
void repl_code_unit_text(const code_unit *u, const char **source, const char **filename);

typedef struct scope {
    nn_object ob;
    nmap map;
    struct scope *parent;   /* owned; enclosing function scope or NULL */
    nn_object *module;      /* owned: a module's scope (a module_obj): its names are the module's
                               dict, the globals of the functions defined under it; else NULL */
    /* scopes captured by closures are listed (weakly) so that the interpreter can
       break function <-> scope cycles when it is freed */
    struct scope **reg_head, *reg_prev, *reg_next;
} scope;

typedef struct func_obj {
    nn_object ob;
    const char *name;
    const repl_node *args;  /* arguments node */
    const repl_node *body_expr; /* lambda body, or NULL */
    const repl_node_list *body;  /* def body */
    code_unit *unit;        /* owned */
    nn_object **defaults;   /* owned; n_defaults for the last positional params */
    int n_defaults;
    nn_object **kwdefaults; /* owned; one per kwonly arg (NULL = required) */
    scope *env;             /* owned; enclosing scope or NULL */
    nmap locals;            /* names local to the function (values None) */
    nmap globals_decl;      /* names declared global */
    nn_object *owner;       /* borrowed: the class whose body defined it (super()) */
    bool is_gen;            /* its body yields: a call makes a generator */
    bool abstract;          /* marked by abc.abstractmethod (__isabstractmethod__) */
    /* func_attrs.c: owned, each NULL until there is one */
    nn_object *dict;        /* __dict__: the attributes set on it */
    nn_object *annotations; /* __annotations__ */
    nn_object *doc;         /* __doc__ once assigned */
    char *qualname;         /* __qualname__ when not its name */
    char *name_owned;       /* __name__ once assigned (name then points at it) */
} func_obj;

typedef struct class_obj {
    nn_object ob;
    char *name;
    struct class_obj *base;    /* owned; NULL for object */
    nn_object *native_base;    /* owned; a native class object (nn.Module) or NULL */
    nmap dict;
    const nn_type *ntype;      /* built-in value type it stands for (int, str, ...) or NULL */
    const char *module;        /* static: the module of a built-in type outside builtins
                                  ("collections" for OrderedDict), else NULL */
    nn_cfunc ctor;             /* built-in constructor for ntype classes */
    int exc;                   /* exc_id of a built-in exception class, or -1 */
    nn_module_class *mcls;     /* owned; core class when it derives from a native module class */
    struct class_obj **mro;    /* owned array: the method resolution order, the class first
                                  (the others retained); classes.c */
    int n_mro;
    nn_object *bases;          /* owned tuple of the bases when there are several, else NULL */
    struct class_obj *meta;    /* owned: the class metaclass= named (its own or a base's), or NULL */
    struct class_obj *vbase;   /* borrowed (it is in mro): the built-in type a subclass of one
                                  derives from (class D(dict)), whose value its instances carry;
                                  NULL otherwise (builtin_sub.c) */
    char *qualname;            /* owned, or NULL (then name): __qualname__ of a class nested in a
                                  class or function (Outer.Inner, f.<locals>.C) */
    char *tp_name;             /* owned, or NULL (then name): the name CPython's messages give an
                                  extension type's instances ("numpy.float64"), np_scalar.c */
    bool getattribute;         /* it or a base defines __getattribute__ (repl_class_init_subclass) */
} class_obj;

typedef struct instance_obj {
    nn_object ob;
    class_obj *cls;  /* owned */
    nmap attrs;
    nn_object *value;   /* owned: the built-in value of an instance of a subclass of a
                           built-in type (cls->vbase), as CPython lays out a subtype; else NULL */
    bool attrs_in_value; /* self.__dict__ = self on a dict subclass: attributes live in value */
    nn_object *dict;     /* owned or NULL: the dict that obj.__dict__ gave, kept equal to attrs'
                            visible names (instance_dict.c) */
    uint64_t dict_seen;  /* nn_dict_changes(dict) when attrs last took dict's contents */
    long weak;           /* 1 + its slot in mod_weakref.c's table when weak references to it exist, else 0 */
} instance_obj;

typedef struct method_obj {
    nn_object ob;
    nn_object *func, *self;   /* owned */
} method_obj;

extern const nn_type repl_function_type, repl_class_type, repl_instance_type, repl_method_type,
    repl_scope_type, repl_set_type, repl_range_type, repl_iter_type, repl_module_type, repl_super_type;
/* the getattr/setattr/delattr slots of the language's types (eval.c's attributes) */
nn_object *repl_instance_getattr(nn_object *obj, const char *name);
nn_object *repl_instance_generic_getattr(nn_object *obj, const char *name); /* object.__getattribute__ */
/* Whether the pending exception is an AttributeError: then cleared, else left pending. */
bool repl_clear_attribute_error(void);
int repl_instance_setattr(nn_object *obj, const char *name, nn_object *value);
int repl_instance_delattr(nn_object *obj, const char *name);
nn_object *repl_lang_class_getattr(nn_object *obj, const char *name);
int repl_lang_class_setattr(nn_object *obj, const char *name, nn_object *value);
int repl_lang_class_delattr(nn_object *obj, const char *name);
nn_object *repl_lang_module_getattr(nn_object *obj, const char *name);
int repl_lang_module_setattr(nn_object *obj, const char *name, nn_object *value);
int repl_lang_module_delattr(nn_object *obj, const char *name);
nn_object *repl_method_getattr(nn_object *obj, const char *name);

/* staticmethod, classmethod and property objects (descriptors.c). */
typedef struct desc_obj {
    nn_object ob;
    int kind;                /* DESC_* */
    nn_object *fget, *fset;  /* owned; fset may be NULL (and a property's fget) */
    nn_object *fdel;         /* owned; a property's deleter or NULL */
    nn_object *doc;          /* owned; a property's doc= or NULL */
    char *name;              /* owned: the name a class body gave a property, or NULL */
} desc_obj;
enum { DESC_STATIC, DESC_CLASS, DESC_PROPERTY };
extern const nn_type repl_desc_type;
/* The class (property, staticmethod, classmethod) and its name of a descriptor. */
class_obj *repl_desc_class(const nn_object *d);
const char *repl_desc_type_name(const nn_object *d);
/* The constructors and methods of the three classes (builtins.c's table). */
nn_object *repl_ctor_property(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_ctor_staticmethod(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_ctor_classmethod(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_property_getter(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_property_setter(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_property_deleter(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_desc_get(void *ud, nn_object *args, nn_object *kwargs); /* the three classes' __get__ */
nn_object *repl_property_set(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_property_delete(void *ud, nn_object *args, nn_object *kwargs);
/* property.__init__(self, ...) on a property made empty (a subclass's super().__init__) */
nn_object *repl_property_init(nn_object *self, nn_object *args, nn_object *kwargs);
int repl_descriptor_classes_init(repl_interp *in);

typedef struct range_obj {
    nn_object ob;
    int64_t start, stop, step;
} range_obj;

typedef struct set_obj {
    nn_object ob;
    nn_object *d; /* owned dict: element -> None */
    bool frozen;
    /* CPython's iteration order (set_order.c): a copy of its table, or for
       sets of other values the dict's keys, both borrowed from d */
    struct repl_set_table *table;
    nn_object **insertion_order;
    bool merged_display; /* a display of 3+ constants: CPython merges a frozenset */
} set_obj;
typedef struct repl_set_table repl_set_table;

/* The set's elements in the order CPython 3.11 iterates them (set_order.c):
   a new list (a snapshot: code run while walking it may change the set). */
nn_object *repl_set_elements(nn_object *set);
/* Removes key from the set (KeyError when missing), keeping the others where
   CPython's table keeps them: 0 or -1. */
int repl_set_discard(nn_object *set, nn_object *key);
/* set.pop(): the element CPython's pop takes; KeyError when empty. */
nn_object *repl_set_pop(nn_object *set);
/* Marks a new set made from a display of 3 or more constants, which CPython
   builds by merging a frozenset constant into an empty set. */
void repl_set_mark_constant_display(nn_object *set);
/* Frees the set's copy of CPython's table (set_dealloc). */
void repl_set_table_free(set_obj *s);
/* The table CPython 3.11 makes for a op b (op one of | & - ^; b NULL: a copy of a, as
   set(a) and a.copy()), or with inplace the one a op= b leaves in a; NULL (no error)
   when an operand's hashes are not deterministic. */
repl_set_table *repl_set_op_table(repl_binop op, nn_object *a, nn_object *b, bool inplace);
/* Makes t (may be NULL) set's table: set already holds t's elements. */
void repl_set_adopt_table(nn_object *set, repl_set_table *t);
/* After removals: the dummies resized away when over a quarter of the table, as
   CPython's set_difference_update_internal ends. */
void repl_set_compact(nn_object *set);
/* CPython's hash of a number, bool or tuple of them (process-independent,
   unlike its str hash): false for any other value. */
bool repl_cpython_hash(nn_object *o, uint64_t *h);

typedef struct module_obj {
    nn_object ob;
    char *name;
    nmap dict;
    nn_object *ns; /* owned: its dict's live view (globals(), __dict__), made on first use */
} module_obj;

/* The names of scope s: its own, or its module's dict for a module's scope. */
static inline nmap *repl_scope_names(scope *s) { return s->module ? &((module_obj *)s->module)->dict : &s->map; }

/* ---------------------------------------------------------- interpreter */

typedef struct tb_entry {
    code_unit *unit; /* owned */
    int line;
    char *name;      /* owned */
    /* where on the line it failed, for the ^^^ line (tb_carets.c): byte columns
       of the failing expression (col -1: none) and of CPython's anchors (-1: none) */
    int col, end_line, end_col, anchor_l, anchor_r;
    nn_object *sc;   /* owned: the frame's scope (a function's locals), NULL at module level (debug.c) */
} tb_entry;


typedef struct frame frame;

struct repl_interp {
    nmap globals, builtins;
    frame *top;
    int depth;
    nn_object *exc;       /* owned: the exception being raised */
    char *exc_msg;        /* owned: the message carried in the core error */
    tb_entry *tb;         /* entries of the exception being raised, innermost first */
    int n_tb, cap_tb;
    nn_object *tb_owner;  /* owned: the exception the entries belong to (NULL: a core error) */
    bool tb_stale;        /* the last exception was taken: the next raise starts afresh */
    const void *tb_skip;  /* the frame an exception was re-raised from, whose entry it has (exc_chain.c) */
    nn_object *handling;  /* owned: the exception an except block is handling */
    char *last_tb;        /* owned: text of the last uncaught exception */
    char *last_name;
    bool system_exit;     /* the last uncaught exception was a SystemExit (repl_system_exit) */
    int exit_status;      /* ... and the status it asks for; exit_message: print str(code) */
    bool exit_message;
    repl_write_fn write;
    void *write_ud;
    class_obj *exc_classes[EXC_COUNT];
    nn_object *no_memory; /* owned: a MemoryError made in advance, raised when even an
                             exception cannot be allocated */
    class_obj *object_cls, *type_cls, *int_cls, *float_cls, *str_cls, *bool_cls, *list_cls, *tuple_cls,
        *dict_cls, *set_cls, *frozenset_cls, *range_cls, *none_cls, *func_cls, *module_cls,
        *odict_cls; /* collections.OrderedDict: ordered dicts (nn_dict_is_ordered) */
    class_obj *slice_cls;
    /* built-in callables that are classes in CPython (builtins.c's table) */
    class_obj *enumerate_cls, *zip_cls, *map_cls, *filter_cls, *reversed_cls, *super_cls, *property_cls,
        *staticmethod_cls, *classmethod_cls;
    nmap type_cache;      /* nn_type name -> class_obj for other types */
    scope *captured;      /* weak list of scopes captured by closures */
    nn_object *globals_view;   /* owned: __main__'s globals() (globals_dict.c), made on first use */
    nn_object *module_classes; /* owned list: classes deriving from nn.Module live as long as the
                                  interpreter, since their modules point at their core class */
    nmap stdlib_modules;  /* the standard library's modules imported so far (stdlib.c), by name */
    tb_entry *pm;         /* the frames of the last uncaught exception, innermost first, kept for
                             the post-mortem debugger (%debug, debug.c) until the next one */
    int n_pm;
    scope *exec_scope;    /* borrowed: when set, repl_exec runs in this scope (a debugger's frame) */
};

/* The interpreter running now (type slots such as repr reach it through this). */
extern repl_interp *repl_current;

/* ---------------------------------------------------------- errors */

/* complex numbers (complex_num.c): the class `complex` installed as a builtin;
   an operator between a complex and a complex or real number (handled false:
   an operator complex lacks, the caller's TypeError), unary - + ~, abs(). */
int repl_complex_install(repl_interp *in);
bool repl_complex_operand(const nn_object *o);
nn_object *repl_complex_binary(repl_binop op, nn_object *a, nn_object *b, bool *handled);
nn_object *repl_complex_unary(repl_unop op, nn_object *v);
nn_object *repl_complex_abs(nn_object *v);
/* help()'s doc of the class (name NULL) or of one of its methods; NULL if none */
const char *repl_complex_doc(const char *name);

/* Raises a new instance of a built-in exception class with a formatted message.
   Always returns -1. */
int repl_raise_exc(exc_id id, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* v truncated to an int64 into *out, as Python's int(float) within 64 bits: 0, or -1
   with ValueError (NaN) or OverflowError (infinity, beyond the int64 range). */
int repl_double_to_int64(double v, int64_t *out);
/* Raises exc (borrowed): stores it as the pending exception and sets the core
   error. Returns -1. */
int repl_raise_object(nn_object *exc);
/* The pending exception as an instance (new reference), turning a core error
   into the class of its kind; clears the core error and the pending state. */
nn_object *repl_take_exception(void);
/* True when exc (an instance) is an instance of cls (a class object or tuple). */
bool repl_exc_matches(nn_object *exc, nn_object *cls);
/* SystemExit's code (exc an instance of it): None without args, the one arg, or
   the args tuple; a new reference. */
nn_object *repl_exit_code(nn_object *exc);
/* str(exception) as a new nn_malloc'd string. */
char *repl_exc_str(nn_object *exc);
/* The text a raise or a traceback shows for exc: str(exc), or CPython's
   "<exception str() failed>" when that raises; the raise in progress and the
   current error are left as they were. New nn_malloc'd string, or NULL with MemoryError. */
char *repl_exc_message(nn_object *exc);
bool repl_is_exception_class(const nn_object *o);
bool repl_is_exception(const nn_object *o);

/* Drops the traceback entries collected so far. */
void repl_tb_clear(repl_interp *in);
/* Releases n traceback entries and the array (the post-mortem frames, debug.c's copies). */
void repl_tb_entries_free(tb_entry *a, int n);
/* The frames for the debugger (debug.c) as a new array of *n entries, innermost
   first, each owning its unit, name and scope: of the last uncaught exception
   (live false; *n 0 when there is none), or the frames running now (live true,
   breakpoint()). 0, or -1 with MemoryError. */
int repl_debug_frames(repl_interp *in, bool live, tb_entry **out, int *n);
/* repl_exec in a frame's scope (sc NULL: __main__), leaving the post-mortem
   frames and the exception being handled as they were (a debugger command). */
int repl_exec_in_scope(repl_interp *in, nn_object *sc, const char *source, const char *filename,
                       repl_parse_mode mode, nn_object **result_out);

/* ---------------------------------------------------------- gc_objects.c */

/* The language types' slots for the cycle collector (core/nn_gc.h). */
void repl_scope_traverse(nn_object *self, nn_visit_fn visit, void *arg);
void repl_scope_clear(nn_object *self);
void repl_func_traverse(nn_object *self, nn_visit_fn visit, void *arg);
void repl_func_clear(nn_object *self);
void repl_class_traverse(nn_object *self, nn_visit_fn visit, void *arg);
void repl_instance_traverse(nn_object *self, nn_visit_fn visit, void *arg);
void repl_instance_clear(nn_object *self);
void repl_method_traverse(nn_object *self, nn_visit_fn visit, void *arg);
void repl_method_clear(nn_object *self);
void repl_set_traverse(nn_object *self, nn_visit_fn visit, void *arg);
void repl_module_traverse(nn_object *self, nn_visit_fn visit, void *arg);
void repl_module_clear(nn_object *self);

/* ---------------------------------------------------------- objects.c */

class_obj *repl_lang_class_new(const char *name, class_obj *base, int exc);
/* Class attribute lookup along the base chain: borrowed or NULL. */
nn_object *repl_class_lookup(const class_obj *c, const char *name);
/* c's __module__: the one its body set, its built-in module, "builtins" or "__main__" (static or c's) */
/* __qualname__: Outer.Inner, f.<locals>.C, else its name */
const char *repl_class_qualname(const class_obj *c);
const char *repl_class_module(const class_obj *c);
bool repl_class_is_subclass(const class_obj *c, const class_obj *base);
nn_object *repl_method_new(nn_object *func, nn_object *self);
nn_object *repl_instance_new(class_obj *cls);

/* The pending error, set aside while code runs from a dealloc (a generator
   closed, a weak reference's callback), which may happen while an exception
   propagates; generators.c. */
typedef struct repl_saved_error {
    nn_error_kind kind;
    char *msg, *exc_msg;
    nn_object *exc, *tb_owner;
    tb_entry *tb;
    int n_tb, cap_tb;
    bool stale;
} repl_saved_error;
void repl_error_save(repl_saved_error *s);
void repl_error_restore(repl_saved_error *s);
/* An instance with weak references (o->weak) is dying: its references go dead
   and their callbacks run (mod_weakref.c). */
void repl_weakref_dying(nn_object *o);
nn_object *repl_set_new(bool frozen);
int repl_set_add(nn_object *set, nn_object *item);
nn_object *repl_range_new(int64_t start, int64_t stop, int64_t step);
int64_t repl_range_len(const range_obj *r);
nn_object *repl_module_new(const char *name);
scope *repl_scope_new(scope *parent);
/* The class a value belongs to (borrowed); natives and others get a cached class. */
class_obj *repl_class_of(nn_object *o);
/* The metaclass method name of class object o (class C(metaclass=M): M's method,
   bound to C), or NULL without an error: how `for m in C`, `len(C)`, `C[k]`,
   repr(C) and C(...) reach a metaclass's __iter__, __len__, __getitem__,
   __repr__ and __call__. */
nn_object *repl_meta_method(nn_object *o, const char *name);
/* Calls the metaclass method name of class object o with args; NULL without an
   error when there is none (*found false). */
nn_object *repl_call_meta(nn_object *o, const char *name, nn_object *const *args, int n, bool *found);
/* v, found in class c, as self.name gives it: a function or C function bound to
   self, a property's value, a classmethod bound to c, a staticmethod's function. */
nn_object *repl_bind_class_attr(nn_object *v, nn_object *self, class_obj *c);
/* torch.optim.Optimizer (the language's, bind_optim_more.c): whether cls is it, and whether
   o is an optimizer (core's SGD/Adam/AdamW or an instance of a subclass of it). */
bool repl_optim_is_lang_base(nn_object *cls);
bool repl_optim_is_optimizer(nn_object *o);
/* For a language-defined module (nn_module with lang_class) its class, else NULL. */
class_obj *repl_module_lang_class(const nn_object *o);
/* Exception instance of a built-in class with args (a tuple, borrowed). */
nn_object *repl_exc_new(exc_id id, nn_object *args);
/* CPython's OSError: the subclass that OSError(errno, ...) makes for errno e
   (FileNotFoundError for ENOENT, ...; EXC_OSError when none), and the attributes
   an OSError instance takes from its args (errno, strerror, filename, filename2,
   from (errno, strerror[, filename[, winerror[, filename2]]]), else None; with a
   filename, args keeps the first two). 0 or -1 (MemoryError). */
exc_id repl_oserror_subclass(int64_t e);
int repl_oserror_init(nn_object *exc);
/* SyntaxError (exc_syntax.c): the class's fields (None), whether exc is one,
   whether name is one of its fields (not in its __dict__); the fields from its
   args (0, or -1 with CPython's TypeError); str(exc), "msg (file, line N)"; and,
   for an uncaught one (or any exception with print_file_and_line), CPython's
   File / text / caret lines into b: then its msg (borrowed), the value to print
   after the class name; NULL when exc is printed as other exceptions are. */
struct sbuf;
int repl_syntax_error_class_init(repl_interp *in);
bool repl_is_syntax_error(const nn_object *exc);
bool repl_syntax_error_field(const char *name);
/* Whether name is a field that exc's built-in class keeps outside its __dict__
   (SyntaxError's location, OSError's errno/strerror/filenames, ImportError's
   name/path), as CPython's C members. */
bool repl_exception_field(nn_object *exc, const char *name);
int repl_syntax_error_init(nn_object *exc);
char *repl_syntax_error_str(nn_object *exc);
nn_object *repl_syntax_error_block(struct sbuf *b, nn_object *exc);

/* iteration: an iterator object over o (new reference) */
nn_object *repl_get_iter(nn_object *o);
/* iter(o): as repl_get_iter, but an object's own iterator comes back itself (iter(it) is it) */
nn_object *repl_iter_builtin(nn_object *o);
/* 1 with *out a new reference, 0 at the end, -1 error */
int repl_iter_next(nn_object *it, nn_object **out);
/* A new list of the items of any iterable. */
nn_object *repl_to_list(nn_object *o);
/* The items of a tuple or of a tuple under another type (torch.Size, a return type) as a plain tuple (new reference). */
nn_object *repl_plain_tuple(nn_object *o);

/* ---------------------------------------------------------- match.c */

/* Evaluates an expression node in the frame (eval.c's eval). */
typedef nn_object *(*repl_match_eval_fn)(void *frame, const repl_node *n);
/* Whether the pattern matches subject (borrowed): 1 with its captures set in
   binds (a dict: name -> value), 0 when not, -1 with the error. */
int repl_match_pattern(repl_match_eval_fn eval, void *frame, const repl_node *pattern, nn_object *subject,
                       nn_object *binds);
/* Calls add(ctx, name) for each name the pattern binds (a function's locals). */
int repl_match_names(const repl_node *pattern, int (*add)(void *ctx, const char *name), void *ctx);

/* ---------------------------------------------------------- eval.c */

/* Calls callable with n positional args (borrowed) and kwargs (a dict or NULL). */
nn_object *repl_call_object(nn_object *callable, nn_object *const *args, int n, nn_object *kwargs);
nn_object *repl_call_method(nn_object *obj, const char *name, nn_object *const *args, int n);
nn_object *repl_get_attr(nn_object *obj, const char *name);
/* The built-in module of a dotted name (import NAME), a new reference, or NULL
   with ModuleNotFoundError as `import` raises it. */
nn_object *repl_import_by_name(const char *name);
/* bind_sys.c: print()'s target once a script replaced sys.stdout (new reference), else NULL */
nn_object *repl_sys_stdout_replacement(void);
/* bind_sys.c: whether sys.stdout.reconfigure(line_buffering=True) asked print() to flush */
bool repl_sys_stdout_line_buffered(void);
/* bind_sys.c: sys.stdout.flush() and sys.stderr.flush() of the streams a script put there
   (io.TextIOWrapper(sys.stdout.buffer, ...) keeps its writes until then), errors ignored. */
void repl_sys_flush_std_files(void);
int repl_set_attr(nn_object *obj, const char *name, nn_object *value);
/* del obj.name: 0 or -1 */
int repl_del_attr(nn_object *obj, const char *name);
/* 1 true, 0 false, -1 error */
int repl_truth(nn_object *o);
nn_object *repl_binary_op(repl_binop op, nn_object *a, nn_object *b);
/* ==: 1, 0 or -1 */
int repl_equal(nn_object *a, nn_object *b);
/* a < b: 1, 0 or -1 */
int repl_less(nn_object *a, nn_object *b);
/* len(o) into *n: 0 or -1 */
int repl_length(nn_object *o, int64_t *n);
nn_object *repl_get_item(nn_object *o, nn_object *key);
/* repr / str as new nn_malloc'd strings (language __repr__/__str__ honoured) */
char *repl_obj_repr(nn_object *o);
char *repl_obj_str(nn_object *o);
/* str(o) as a str object: a str's whole text, a NUL inside kept (the C string
   of repl_obj_str ends at it). New reference or NULL. */
nn_object *repl_obj_str_object(nn_object *o);
const char *repl_value_type_name(const nn_object *o);
void repl_interp_write(const char *s, size_t n);
int64_t repl_obj_hash(nn_object *o);

/* Adds staticmethod, classmethod and property to builtins. 0 or -1. */
/* super() with no arguments in the running method: a new reference. */
nn_object *repl_make_super(void);

/* ---------------------------------------------------------- builtin_sub.c */

/* The built-in value an instance of a subclass of a built-in type carries
   (borrowed), else NULL; repl_unwrap_value: that value, else o itself. */
static inline nn_object *repl_base_value(const nn_object *o)
{
    return o->type == &repl_instance_type ? ((const instance_obj *)o)->value : NULL;
}
nn_object *repl_unwrap_value(nn_object *o);
/* Once the built-ins are installed: the C methods of str, int and float and
   some built-in functions (chr, getattr's name, ...) unwrap such instances to
   their values (builtin_sub_args.c). 0, or -1 with an error. */
int repl_builtin_sub_wrap_natives(repl_interp *in);
/* The C functions of m, when it is one of the modules over bytes (zlib, hashlib,
   binascii, struct), behind the same wrapper: zlib.crc32(B(b'x')). 0 or -1. */
int repl_builtin_sub_wrap_module(nn_object *m);
/* o with every subclass instance in it, nested in lists and tuples, replaced by
   its built-in value (torch.tensor([P(1., 2.)]) of namedtuples); o itself
   (retained) when it holds none. A new reference, or NULL on error. */
nn_object *repl_deep_values(nn_object *o);
/* Whether a class statement may name b as a base (object, a language class, or
   a built-in type whose instances a subclass can carry). */
bool repl_builtin_sub_allowed(const class_obj *b);
/* Sets c->vbase from c's order once its bases are set: 0, or -1 with TypeError
   when two bases are different built-in types. */
int repl_builtin_sub_init_class(class_obj *c);
/* A new instance of c (c->vbase set) carrying a value: an immutable type's made
   from the arguments (its __new__), a mutable type's empty (its __init__ fills it). */
nn_object *repl_builtin_sub_new(class_obj *c, nn_object *const *args, int n, nn_object *kwargs);
bool repl_builtin_sub_mutable(const class_obj *c);
/* name through the order of c after start (NULL: from c itself) when a built-in
   type comes before any language class that defines it: its method bound to
   self's value, its slot (__getitem__, __init__, __eq__, ...) bound to self, or
   its __new__; NULL without an error otherwise. */
nn_object *repl_builtin_sub_lookup(class_obj *c, class_obj *start, nn_object *self, const char *name);
/* c.name for a class c that is or derives from a built-in type, when that type
   gives it: its method as a method descriptor, a slot, __new__; NULL without an
   error otherwise. */
nn_object *repl_builtin_sub_class_getattr(class_obj *c, const char *name);
/* self.name for a built-in value self when name is a slot its type has
   ([].__len__, iter(x).__next__), bound to self; NULL without an error otherwise. */
nn_object *repl_builtin_value_slot(nn_object *self, const char *name);
/* self.__dict__ = value: self's attributes become value's items (the value
   itself for self.__dict__ = self on a dict subclass: AttrDict). 0 or -1. */
int repl_instance_set_dict(instance_obj *self, nn_object *value);
/* instance_dict.c: obj.__dict__ (new reference), the same dict each time */
nn_object *repl_instance_dict(instance_obj *o);
/* attrs take the changes made to o's __dict__ since the last call (o->dict set) */
int repl_instance_dict_take(instance_obj *o);
/* Before reading or changing o's attributes: attrs take what was written to its __dict__. */
static inline int repl_instance_dict_sync(instance_obj *o) { return o->dict ? repl_instance_dict_take(o) : 0; }
/* After attrs[name] was set to value (NULL: deleted), after a sync: the __dict__ too. */
int repl_instance_dict_store(instance_obj *o, const char *name, nn_object *value);
/* o.name = value in o's attributes and its __dict__, no __setattr__ or descriptor asked */
int repl_instance_put(instance_obj *o, const char *name, nn_object *value);
/* obj.__dict__ = d for a dict d: d becomes its __dict__ and its attributes d's items. */
int repl_instance_dict_adopt(instance_obj *o, nn_object *d);
/* self.name from self's built-in value (i.real) when its class has no name:
   a new reference, or NULL with AttributeError naming self's class. */
nn_object *repl_builtin_sub_value_attr(nn_object *self, const char *name);
/* class_slots.c: whether an instance of c may not take attribute name (every
   class in c's order names __slots__, none name or '__dict__'); bool.__mro__,
   __bases__ and __base__ (under int), NULL without an error for other names. */
bool repl_slots_refuse(class_obj *c, const char *name);
/* whether a class in c's order lists name in its __slots__ */
bool repl_slots_has(class_obj *c, const char *name);
/* Puts a member descriptor for each entry of c's own __slots__ in its dict (a new
   class, after its body): 0, or -1 with CPython's error (a slot that is also a
   class variable, an entry that is not a str). */
int repl_slots_add_members(class_obj *c);
extern const nn_type repl_member_type;   /* <member 'x' of 'C' objects> */
/* builtins.memoryview as the class (repl/lib/_memoryview.py), which it then
   becomes: a new reference, or NULL with the error */
nn_object *repl_memoryview_type(void);
nn_object *repl_bool_class_attr(class_obj *c, const char *name);
/* self[key] through the built-in value; a dict subclass's __missing__ for a missing key. */
nn_object *repl_builtin_sub_getitem(nn_object *self, nn_object *key);
/* repr of an instance carrying a value: the value's (an OrderedDict subclass's names its class). */
char *repl_builtin_sub_repr(nn_object *self);
/* object's slot name (__setattr__, __delattr__, __getattribute__, __repr__,
   __str__, __hash__, __eq__, __ne__, __init__) as a new C function taking
   self first, or NULL without an error (object_slots.c). */
nn_object *repl_object_slot(const char *name);
/* object.__setattr__(obj, name, value): bypasses the class's __setattr__ (eval.c). 0 or -1. */
int repl_object_setattr(nn_object *obj, const char *name, nn_object *value);
/* __hash__ = None in c's namespace when it defines __eq__ and not __hash__. 0 or -1. */
int repl_class_hash_none(class_obj *c);
/* metaclass.c: classes deriving from type (their vbase is type_cls). */
bool repl_is_metaclass(const class_obj *c);
/* CPython's choice of c's metaclass: *meta (metaclass= or the first base's)
   becomes the most derived of it and the bases' metaclasses; 0, or -1 with
   TypeError "metaclass conflict: ..." when one derives from none of the others. */
int repl_meta_winner(const class_obj *c, class_obj **meta);
/* v.__set_name__(c, name) for each attribute v of a class statement's new class c
   whose class defines it (descriptors), as type.__new__ does: 0, or -1. */
int repl_class_set_names(class_obj *c);
/* Whether metaclass meta (deriving from type) has a def name of its own. */
bool repl_meta_defines(const class_obj *meta, const char *name);
/* A class statement whose metaclass meta defines __new__: meta.__new__(meta,
   name, bases, namespace) makes the class from c's body (c is left), then
   meta.__init__; the class made, or NULL. */
nn_object *repl_meta_class_statement(class_obj *c, class_obj *meta, nn_object *kwargs, nn_object *prepared);
/* meta.__prepare__(c's name, c's bases, **kwargs): the mapping a class body's names go to. */
nn_object *repl_meta_prepare(class_obj *c, class_obj *meta, nn_object *kwargs);
/* meta.__init__(c, name, bases, namespace) for a class statement. 0 or -1. */
int repl_meta_class_init(class_obj *c, class_obj *meta, nn_object *kwargs);
/* super().name in a method of metaclass start: type's __new__, __call__
   (bound to self) and __init__; NULL without an error for other names. */
nn_object *repl_meta_super_attr(class_obj *start, nn_object *self, const char *name);
/* type.__new__, type.__call__, type.__init__ as C functions taking the class
   first (new references); NULL without an error for other names. */
nn_object *repl_meta_type_attr(const char *name);
/* meta(name, bases, namespace): a class, made by meta's __new__ or type's. */
nn_object *repl_meta_instantiate(class_obj *meta, nn_object *const *args, int n, nn_object *kwargs);
/* type.__call__(c, *args, **kwargs): a new instance, __new__ then __init__ (eval.c). */
nn_object *repl_class_call_plain(class_obj *c, nn_object *const *args, int n, nn_object *kwargs);
/* globals_dict.c: globals(), a live view of the module's namespace. */
nn_object *repl_globals_dict(void);
/* The live namespace of module (a module_obj; NULL: __main__'s), as globals() gives it. */
nn_object *repl_namespace_dict(nn_object *module);
/* The module a namespace proxy stands for (borrowed), NULL for __main__'s. */
nn_object *repl_namespace_module(nn_object *proxy);
/* The module whose code runs now (borrowed), NULL for __main__. */
nn_object *repl_current_module(void);
/* eval.c: locals(), the running frame's names (the live globals() at module level). */
nn_object *repl_locals_dict(void);
bool repl_is_globals_dict(const nn_object *o);
/* The C function behind a method descriptor (help), else o. */
nn_object *repl_mdescr_func(nn_object *o);
/* For a method descriptor o bound to an object, how CPython's repr names it
   ("method-wrapper" for a slot, "built-in method") with *name its name; NULL
   when o is no method descriptor. */
const char *repl_mdescr_bound_kind(nn_object *o, const char **name);
extern const nn_type repl_mdescr_type;
/* The evaluator's item and membership operations (eval.c). */
int repl_set_item(nn_object *o, nn_object *key, nn_object *value);
int repl_del_item(nn_object *o, nn_object *key);
int repl_contains(nn_object *container, nn_object *x);

/* ---------------------------------------------------------- builtins.c */

/* A built-in that does nothing and returns None (object.__init__). */
nn_object *repl_builtin_noop(void *ud, nn_object *args, nn_object *kwargs);
/* dict views (d.keys(), d.values(), d.items()) */
extern const nn_type repl_dictview_type;
/* The view's items as a new list. */
nn_object *repl_dictview_list(nn_object *view);
/* 0 keys, 1 values, 2 items */
int repl_dictview_kind(const nn_object *view);
/* dictview_ops.c: a dict view's set operator (-, &, |, ^); *handled false when not one */
nn_object *repl_dictview_setop(repl_binop op, nn_object *a, nn_object *b, bool *handled);

int repl_builtins_init(repl_interp *in);
/* import of a module of Python's standard library that the language defines
   (collections): a new module object, or NULL without an error when name is
   none of them (NULL with MemoryError on failure). */
nn_object *repl_stdlib_module(const char *name);
/* Routes core's warnings (nn_warn) through the language's warnings module, imported
   at the first one (mod_warnings.c). */
void repl_warnings_install(void);
/* ns.name where a module of the language defines it (torch.autograd.Function):
   a new reference, or NULL (with the error set when the module failed). */
nn_object *repl_stdlib_alias(const char *ns, const char *name);
/* package.name when it is one of PyTorch's submodules that its package imports
   (torch.distributions.normal: stdlib.c's reexports), or, for such a submodule
   written in the language, a name its package exports: a new reference, or NULL
   (with the error set when it failed). */
nn_object *repl_stdlib_reexport(const char *package, const char *name);
/* module.name when name is an item of module's list list_name ("__all__"); NULL without
   an error otherwise. The module is a language module of the library (repl/lib). */
nn_object *repl_stdlib_listed(const char *module, const char *list_name, const char *name);
/* Whether name is an item of that list (the module loaded if it was not). */
bool repl_stdlib_lists(const char *module, const char *list_name, const char *name);
/* Runs source (a module written in the language; borrowed, filename names it in
   tracebacks) and sets each name it binds as an attribute of module (the
   module's attributes so far are its first names: C helpers). Its
   functions find each other through their closure scope, not __main__'s
   globals (so the source must not use `global`); its classes get static_name
   as their __module__. 0, or -1 with the exception pending. */
int repl_exec_module_source(nn_object *module, const char *static_name, const char *source, const char *filename);
/* import_file.c: the module of NAME.py (or NAME/__init__.py) beside the script,
   run once and cached; NULL without an error when there is no such file. */
nn_object *repl_import_user_file(const char *name);
/* The path of the file repl_import_user_file would run for name (nn_malloc'd), or NULL
   without an error when there is none (importlib.util.find_spec). */
char *repl_user_module_path(const char *name);
/* Runs the file at path as the body of module m (importlib's exec_module and
   reload): 0, or -1 with the error (OSError when it cannot be read). */
int repl_exec_file_in_module(nn_object *m, const char *path);
/* tensor_index_value.c: Tensor.__index__ (a one-element integer or bool tensor's
   value) into *out: 0, or -1 with PyTorch's TypeError. */
int repl_tensor_index(nn_tensor *t, int64_t *out);
/* The method of a built-in value (str, list, dict, set, ...) named name, bound
   to self (new reference), or NULL without error when there is none. */
nn_object *repl_builtin_method(nn_object *self, const char *name);
/* format(value, spec) as a new str object. */
nn_object *repl_format_value(nn_object *value, const char *spec);
/* ---------------------------------------------------------- classes.c */

/* c's order from its one base (repl_lang_class_new calls it). 0 or -1. */
int repl_class_init_mro(class_obj *c);
/* c's order from several bases by C3 (TypeError when there is none). 0 or -1. */
int repl_class_set_bases(class_obj *c, class_obj *const *bases, int n);
void repl_class_free_mro(class_obj *c);
/* c.__mro__ as a new tuple. */
nn_object *repl_class_mro_tuple(const class_obj *c);
/* __mro__, mro and (with several bases) __bases__ of c: new reference, or NULL
   without an error for other names. */
nn_object *repl_class_special_attr(class_obj *c, const char *name);
/* super(start, self).name: the class after start in self's order that defines
   name (*out its value, borrowed), or NULL (none, or an error). */
class_obj *repl_super_lookup(const class_obj *start, nn_object *self, const char *name, nn_object **out);
/* Calls the __init_subclass__ of c's bases with the class statement's keywords
   (a dict or NULL). 0 or -1. */
int repl_class_init_subclass(class_obj *c, nn_object *kwargs);
/* type(name, bases, dict): a new class (a new reference), or NULL with TypeError; type_new.c */
nn_object *repl_type_new(nn_object *name, nn_object *bases, nn_object *ns, nn_object *kwargs);
/* super(cls, obj) with explicit arguments: a new reference. */
nn_object *repl_make_super_of(nn_object *cls, nn_object *self);

/* ---------------------------------------------------------- mod_abc.c */

/* After a class statement made c (metaclass: the metaclass= keyword's value or
   NULL): when c is an abstract base class (abc.ABCMeta, or a base with
   __abstractmethods__), sets c.__abstractmethods__. 0 or -1. */
int repl_abc_class_init(class_obj *c, nn_object *metaclass);
/* Before instantiating c: TypeError "Can't instantiate abstract class C with
   abstract method(s) ..." when c has abstract methods left. 0 or -1. */
int repl_abc_check(class_obj *c);
/* Whether c is a virtual subclass of base: a subclass of a class registered with
   base.register(...) (or with one of those, in turn). */
bool repl_abc_registered(const class_obj *c, const class_obj *base);

/* ---------------------------------------------------------- strformat.c */

/* The %-operator of str: new str. */
nn_object *repl_str_percent(nn_object *fmt, nn_object *args);
/* ascii(o): repr with non-ASCII characters escaped (new nn_malloc'd string). */
char *repl_obj_ascii(nn_object *o);
/* format(t, spec) of a tensor as PyTorch's Tensor.__format__: a new str. */
nn_object *repl_format_tensor(nn_object *t, const char *spec);
/* the built-ins ascii() (strformat.c) and vars() (lang_builtins.c) */
nn_object *repl_bi_ascii(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_bi_vars(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_bi_import(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_bi_delattr(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_bi_hex(void *ud, nn_object *args, nn_object *kwargs); /* hex/oct/bin (lang_builtins.c) */
nn_object *repl_bi_oct(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_bi_bin(void *ud, nn_object *args, nn_object *kwargs);

/* ---------------------------------------------------------- lang_builtins.c, inplace.c */

/* Built-ins defined outside builtins.c (NotImplemented, ...), added last. 0 or -1. */
int repl_lang_builtins_init(repl_interp *in);
/* The built-in types' methods of builtin_methods_more.c, added to their classes. 0 or -1. */
int repl_builtin_methods_more(repl_interp *in);
/* The doc of one of those methods of class c ("signature\none line"), or NULL. */
const char *repl_builtin_methods_more_doc(repl_interp *in, const class_obj *c, const char *name);
bool repl_is_not_implemented(const nn_object *o);
/* open() (mod_io.c): io.open, the io module made on its first call. */
nn_object *repl_bi_open(void *ud, nn_object *args, nn_object *kwargs);
/* a OP= b for a list, set or dict a, written into a (a new reference to a), or
   NULL without an error when a has no in-place form for b. */
nn_object *repl_inplace_builtin(repl_binop op, nn_object *a, nn_object *b);

/* ---------------------------------------------------------- generators.c, coro.c */

/* Lazy iterators (generators, zip, map, ...) start with this header and have a
   type whose base is repl_lazy_base; repl_iter_next calls next. */
typedef struct repl_lazy {
    nn_object ob;
    int (*next)(struct repl_lazy *self, nn_object **out); /* as repl_iter_next */
} repl_lazy;
extern const nn_type repl_lazy_base;
static inline bool repl_is_lazy(const nn_object *o) { return o->type->base == &repl_lazy_base; }

/* A generator's frame and what it owns (eval.c; opaque to generators.c). */
typedef struct repl_gen_body repl_gen_body;
/* A new generator that runs body (taken, freed on failure) when iterated. */
nn_object *repl_gen_new(repl_gen_body *body, const char *qualname);
/* In a running generator's body: suspends it with value (borrowed) as next()'s
   result; returns the value sent in (new reference; None for next()), or NULL
   with the exception thrown in (throw(), close()). */
nn_object *repl_gen_yield(nn_object *gen, nn_object *value);
/* yield from iterable in the running generator gen: the subiterator's return value. */
nn_object *repl_gen_yield_from(nn_object *gen, nn_object *iterable);
/* Attributes of a lazy iterator (gen.send, __next__, ...): new reference or NULL with AttributeError. */
nn_object *repl_lazy_getattr(nn_object *o, const char *name);
/* StopIteration.value. 0 or -1. */
int repl_generators_init(repl_interp *in);
/* the classes of zip(), map(), filter(), enumerate(), reversed() objects */
extern const nn_type repl_zip_type, repl_map_type, repl_filter_type, repl_enumerate_type, repl_reversed_type;
nn_object *repl_bi_zip(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_bi_map(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_bi_filter(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_bi_enumerate(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_bi_reversed(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_bi_next(void *ud, nn_object *args, nn_object *kwargs);
/* eval.c's side: runs the body on the generator's stack (0 with *retval, or -1
   with the error and its traceback entry); enter/leave push and pop its frame
   around each resumption (enter fails with RecursionError). */
int repl_gen_body_run(repl_gen_body *b, nn_object **retval);
/* A generator expression's body has no stack of its own: repl_genexp_next gives
   its next item (1, 0 at the end, -1 with the error and its traceback entry). */
bool repl_gen_body_is_expr(const repl_gen_body *b);
int repl_genexp_next(repl_gen_body *b, nn_object **out);
int repl_gen_body_enter(repl_gen_body *b);
void repl_gen_body_leave(repl_gen_body *b);
void repl_gen_body_free(repl_gen_body *b);

/* A growable string (nn_malloc'd); failed marks an allocation failure. */
typedef struct sbuf {
    char *buf;
    size_t len, cap;
    bool failed;
} sbuf;
void repl_sb_add(sbuf *b, const char *s, size_t n);
/* n copies of c, with room made once; past REPL_STR_MAX in all it fails at
   once (MemoryError at repl_sb_finish) without allocating */
void repl_sb_fill(sbuf *b, char c, size_t n);
#define REPL_STR_MAX ((size_t)INT32_MAX) /* the longest string the language builds */
void repl_sb_puts(sbuf *b, const char *s);
void repl_sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* appends s and frees it (NULL marks failure) */
void repl_sb_take(sbuf *b, char *s);
/* new string or NULL (MemoryError) */
char *repl_sb_finish(sbuf *b);
/* the text as a str object of all b->len bytes (a NUL inside kept, where a C
   string would end), b finished: new reference or NULL (MemoryError) */
nn_object *repl_sb_str(sbuf *b);

/* ---------------------------------------------------------- exc_chain.c */

/* A copy of src into dst (its unit, name and scope owned anew; name NULL when out of memory). */
void repl_tb_entry_copy(tb_entry *dst, const tb_entry *src);
/* Releases what e owns (not e itself). */
void repl_tb_entry_release(tb_entry *e);
/* "Traceback (most recent call last):" and the n entries (innermost first) with their source lines. */
void repl_tb_format_entries(sbuf *b, const tb_entry *tb, int n);
/* The last line of a traceback: "ValueError: msg" (module-qualified for a module's class). */
void repl_tb_format_exc_line(sbuf *b, nn_object *exc);
/* The text CPython prints for exc caught earlier: its __traceback__'s entries
   and its line, after its __cause__/__context__ chain when chain is true; a new
   nn_malloc'd string or NULL (exc_chain.c). */
char *repl_exc_format(nn_object *exc, bool chain);
/* A traceback object's entries as the interpreter prints them, after the
   "Traceback (most recent call last):" line ("" for None); new string or NULL. */
char *repl_traceback_format(nn_object *tb);
/* The type of __traceback__ values (tb_next, tb_lineno). */
extern const nn_type repl_traceback_type;
nn_object *repl_traceback_getattr(nn_object *tb, const char *name);
/* The exception just caught (in->tb its entries): they become its __traceback__
   and in->tb is emptied. */
void repl_exc_keep_traceback(nn_object *exc);
/* exc raised anew: in->tb (empty) starts with the entries of its __traceback__. */
void repl_exc_seed_traceback(nn_object *exc);
/* exc raised while in->handling is handled: __context__ set to it, as CPython (cycles cut). */
void repl_exc_set_context(nn_object *exc);
/* The pending exception (a core error included) made an instance now, so that its
   __context__ is the exception handled at this moment; it stays pending. */
void repl_exc_note_context(void);
/* raise exc from cause: __cause__ (an exception, a class made one, or None) and
   __suppress_context__. 0, or -1 with TypeError. */
int repl_exc_set_cause(nn_object *exc, nn_object *cause);
/* The text of an uncaught exc: its chain (causes and contexts, first) and its own
   traceback from the n entries of tb (innermost first). */
void repl_exc_chain_format(sbuf *b, nn_object *exc, const tb_entry *tb, int n);
/* BaseException's __cause__, __context__, __suppress_context__, __traceback__ and with_traceback. 0 or -1. */
int repl_exc_chain_init(repl_interp *in);
/* The docstring of BaseException's method name (help()), or NULL. */
const char *repl_exc_method_doc(const char *name);

/* ---------------------------------------------------------- func_attrs.c, lang_exec.c */

/* fn's __annotations__ from def's parameters and return (evaluate(ctx, n) computes
   one; their source text after `from __future__ import annotations`). 0 or -1. */
int repl_func_set_annotations(func_obj *fn, const repl_node *def, const char *source,
                              nn_object *(*evaluate)(void *ctx, const repl_node *n), void *ctx);
/* fn's __qualname__: prefix, suffix, ".", name (prefix NULL: its name). 0 or -1. */
int repl_func_set_qualname(func_obj *fn, const char *prefix, const char *suffix);
const char *repl_func_qualname(const func_obj *fn);
/* The attributes func_attrs.c answers (new reference), or NULL without an error for others. */
nn_object *repl_func_getattr(func_obj *fn, const char *name);
int repl_func_setattr(func_obj *fn, const char *name, nn_object *value);
void repl_func_attrs_free(func_obj *fn);
/* Runs source (an expression when expr, *result its value; else statements) in the
   caller's namespaces, or in globals (a dict) and locals (a dict or NULL), whose
   names are updated after. 0, or -1 with the exception. */
int repl_run_source(const char *source, const char *filename, bool expr, nn_object *globals, nn_object *locals,
                    nn_object **result);
/* 0 when source parses, else -1 with CPython's SyntaxError for a string. */
int repl_check_source(const char *source, const char *filename, bool expr);
extern const nn_type repl_code_type;
int repl_exec_builtins_init(repl_interp *in);
const char *repl_exec_builtin_doc(const char *name);

/* ---------------------------------------------------------- tb_carets.c */
/* e's position from the failing expression n (NULL: none) of source. */
void repl_tb_locate(tb_entry *e, const repl_node *n, const char *source);
/* Appends the caret line of e under its source line, when CPython prints one. */
void repl_tb_carets(sbuf *b, const char *source, const tb_entry *e);

#endif
