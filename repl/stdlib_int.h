/*
 * stdlib_int.h — the modules of Python's standard library that the language
 * defines (math, random, time, os, ...): one file per module (repl/mod_*.c),
 * each made on its first import and kept for the interpreter's life
 * (repl/stdlib.c holds the table of names and the cache). What the module files
 * share: a module built from a function table, and argument helpers with
 * CPython's messages. Private to repl/.
 */
#ifndef REPL_STDLIB_INT_H
#define REPL_STDLIB_INT_H

#include "eval_int.h"

/* A module function: its name, its C function (ud is unused) and its doc
   ("signature\none line", as the builtins' tables). */
typedef struct repl_mod_fn {
    const char *name;
    nn_cfunc fn;
    const char *doc;
} repl_mod_fn;

/* Adds each of the n functions as an attribute of module m (borrowed). 0 or -1. */
int repl_mod_add_fns(nn_object *m, const repl_mod_fn *fns, size_t n);
/* m.name = v; takes v (NULL: the failed allocation's error). 0 or -1. */
int repl_mod_set(nn_object *m, const char *name, nn_object *v);

/* Positional argument count check with CPython's messages for C functions
   ("sqrt() takes exactly one argument (2 given)", "log expected at most 2
   arguments, got 3"); keyword arguments are refused ("sqrt() takes no keyword
   arguments"). Returns the count, or -1 with TypeError. */
int repl_mod_nargs(const char *fname, nn_object *args, nn_object *kwargs, int min, int max);
/* n arguments given to fname, which takes min..max: 0, or -1 with CPython's TypeError raised */
int repl_check_arity(const char *fname, int n, int min, int max);
/* A real number argument (int, bool, float, or anything float() takes: a 0-dim
   tensor) into *out; TypeError "must be real number, not str". 0 or -1. */
int repl_mod_real(nn_object *o, double *out);
/* An integer argument (int, bool) into *out; TypeError "'float' object cannot
   be interpreted as an integer". 0 or -1. */
int repl_mod_int(nn_object *o, int64_t *out);
/* The keyword argument name of kwargs (a dict or NULL), borrowed, or NULL. */
nn_object *repl_mod_kwarg(nn_object *kwargs, const char *name);
/* Checks that kwargs holds only the names listed (NULL-terminated); TypeError
   "fname() got an unexpected keyword argument 'x'". 0 or -1. */
int repl_mod_kwargs_only(const char *fname, nn_object *kwargs, const char *const *names);

/* A class of a module (its __module__ is module, static) whose instances the
   C function ctor makes (called with ud = the class, the args tuple and kwargs;
   it returns a new instance, see repl_instance_new) and whose methods are the
   n C functions of methods, each called with the instance first (as a def's
   self). New reference or NULL. */
class_obj *repl_mod_class(const char *module, const char *name, nn_cfunc ctor, const repl_mod_fn *methods, size_t n);
/* The same deriving from base (borrowed); methods with a NULL name end the table early. */
class_obj *repl_mod_subclass(const char *module, const char *name, class_obj *base, nn_cfunc ctor,
                             const repl_mod_fn *methods, size_t n);
/* For classes whose state is their instances' attributes (mod_data.c, mod_lr_scheduler.c):
   self.name of an instance, borrowed, or NULL with AttributeError; and the check that a
   C method's args start with an instance (TypeError naming fname). */
nn_object *repl_mod_attr(nn_object *self, const char *name);
int repl_mod_check_self(const char *fname, nn_object *args);

/* Raises the OSError subclass for errno e (FileNotFoundError for ENOENT, ...)
   as CPython's: OSError(e, strerror(e), path) (path NULL: without a file name),
   "[Errno 2] No such file or directory: 'x'", with errno, strerror, filename and
   args (errno, strerror). Returns NULL. */
nn_object *repl_mod_os_error(int e, const char *path);

/* Whether `bytes` of memory could be had now, as a large malloc would get them
   (tried of the kernel, untouched, and given back): the probe before a
   MemoryError that CPython or NumPy raise where an allocation fails. */
bool repl_memory_room(size_t bytes);

/* A module written in the language: a new module named name (static), whose
   first attributes are the n C functions of helpers, running source (static)
   as its body (repl_exec_module_source; tracebacks name "<frozen name>").
   New reference, or NULL with the exception pending. */
nn_object *repl_mod_from_source(const char *name, const repl_mod_fn *helpers, size_t n, const char *source);
/* The source of repl/lib/NAME.py, a module written wholly in the language
   (pylib.c; static), or NULL when there is none. */
const char *repl_pylib_source(const char *name);

/* The module makers (new references, or NULL with the error). */
nn_object *repl_mod_abc(void);       /* mod_abc.c */
nn_object *repl_mod_builtins(void);  /* mod_builtins.c: the built-in names as a module */
nn_object *repl_mod_host(void);      /* mod_host.c: _host, under platform, socket, getpass */
nn_object *repl_mod_importlib(void); /* mod_importlib.c: importlib with importlib.util */
nn_object *repl_mod_nnimport(void);  /* mod_importlib.c: _nnimport, importlib's helpers */
nn_object *repl_mod_cmath(void);     /* mod_cmath.c */
nn_object *repl_mod_binascii(void);  /* mod_binascii.c: base64/hex conversions, crc32 */
nn_object *repl_mod_hashlib(void);   /* mod_hashlib.c, over nettle */
nn_object *repl_mod_pickle(void);    /* mod_pickle.c */
nn_object *repl_mod_unicodedata(void); /* mod_unicodedata.c, over libunistring (Unicode 14.0) */
nn_object *repl_mod_zlib(void);      /* mod_zlib.c, over zlib */
nn_object *repl_mod_bz2_c(void);     /* mod_bz2.c: _bz2, under bz2, over libbz2 */
nn_object *repl_mod_lzma_c(void);    /* mod_lzma.c: _lzma, under lzma, over liblzma */
nn_object *repl_mod_struct(void);    /* mod_struct.c */
nn_object *repl_mod_collections(void);
nn_object *repl_mod_copy(void);
/* copy.deepcopy(x) with a fresh memo (x borrowed); a new reference or NULL with the exception. */
nn_object *repl_deepcopy(nn_object *x);
nn_object *repl_mod_dataclasses(void);
nn_object *repl_mod_functools(void);
nn_object *repl_mod_green(void);     /* mod_green.c: green threads under threading */
nn_object *repl_mod_stdio(void);     /* bind_sys.c: the writes under sys.stdout and sys.stderr */
nn_object *repl_mod_weakref(void);   /* mod_weakref.c: weak references under weakref */
nn_object *repl_mod_gc(void);        /* mod_gc.c: the cycle collector's module */
nn_object *repl_mod_io(void);
nn_object *repl_mod_future(void);   /* __future__ */
nn_object *repl_mod_itertools(void);
nn_object *repl_mod_json(void);
nn_object *repl_mod_math(void);
nn_object *repl_mod_numpy(void); /* mod_numpy.c, mod_numpy_src.c */
nn_object *repl_mod_numpy_linalg(void); /* mod_numpy.c: numpy's objects np.linalg, np.random, np.fft */
nn_object *repl_mod_numpy_random(void);
nn_object *repl_mod_numpy_fft(void);
nn_object *repl_mod_os(void);
/* os.pipe, read, write, close, isatty, dup, mkfifo, fdopen onto os (mod_os_fd.c): 0 or -1 */
int repl_mod_os_fd_add(nn_object *os);
/* mod_os_stat.c: adds stat/lstat, scandir, walk, access, chmod, system, ... to os. 0 or -1. */
int repl_mod_os_stat_add(nn_object *os);
/* The names in directory p (readdir's order, without . and ..), as str, or with
   kinds as (name, kind) pairs: 'd' a directory, 'l' a symbolic link, 'f' anything
   else, '?' the file system did not say. A new list, or NULL with CPython's OSError. */
nn_object *repl_os_dir_entries(const char *p, bool kinds);
nn_object *repl_mod_subprocess(void); /* mod_subprocess.c: run() for exported !cmd lines */
nn_object *repl_mod_os_path(void); /* os.path (posixpath) */
nn_object *repl_mod_random(void);
nn_object *repl_mod_re(void);       /* mod_re.c, over PCRE2 */
nn_object *repl_mod_string(void);
nn_object *repl_mod_time(void);
nn_object *repl_mod_traceback(void);
nn_object *repl_mod_typing(void);
nn_object *repl_mod_warnings(void);
nn_object *repl_mod_lr_scheduler(void); /* torch.optim.lr_scheduler (mod_lr_scheduler.c) */
/* Runs the schedulers written in the language in module m (mod_lr_scheduler_more.c). 0 or -1. */
int repl_lr_scheduler_more(nn_object *m);
nn_object *repl_mod_safetensors(void);       /* safetensors (mod_safetensors.c) */
nn_object *repl_mod_safetensors_torch(void); /* safetensors.torch (mod_safetensors.c) */
nn_object *repl_mod_torch_storage(void);     /* torch.storage (mod_torch_storage.c) */
/* A torch.storage.UntypedStorage of t's elements (t flat, any dtype; retained); a new reference. */
nn_object *repl_storage_wrap(nn_tensor *t);
/* The elements of o when it is an UntypedStorage (*is_storage set; a new reference,
   NULL with an error), else NULL with *is_storage false and no error. */
nn_tensor *repl_storage_unwrap(nn_object *o, bool *is_storage);
/* torch.save/load of bare storages (the pickle hooks' storage and wrap_storage): the
   flat tensor of a TypedStorage or UntypedStorage o (a new reference; *untyped set
   for the latter), NULL without an error for anything else; and a TypedStorage over t. */
nn_tensor *repl_storage_tensor_of(nn_object *o, bool *untyped);
nn_object *repl_storage_wrap_typed(nn_tensor *t);
nn_object *repl_mod_optim_optimizer(void); /* torch.optim.optimizer: Optimizer, RMSprop, ... (bind_optim_more.c) */
nn_object *repl_mod_autograd_function(void); /* torch.autograd.function (bind_function.c) */
nn_object *repl_mod_matplotlib_term(void);  /* matplotlib._term (mod_matplotlib.c) */
nn_object *repl_mod_autocast_mode(void);     /* torch.amp.autocast_mode (bind_autocast.c) */
nn_object *repl_mod_anomaly_mode(void);      /* torch.autograd.anomaly_mode (bind_anomaly.c) */
nn_object *repl_mod_grad_mode(void);         /* torch.autograd.grad_mode's inference_mode (bind_anomaly.c) */
nn_object *repl_mod_torch_backends(void);    /* torch.backends: mps, cudnn, cuda of a CPU-only build (mod_torch_backends.c) */
nn_object *repl_mod_torch_backends_cudnn(void); /* import torch.backends.cudnn: torch.backends' own object */
nn_object *repl_mod_torch_backends_mps(void);
nn_object *repl_mod_torch_backends_cuda(void);
nn_object *repl_mod_data(void);         /* torch.utils.data (mod_data.c) */
int repl_mod_data_more(nn_object *m);   /* its classes written in the language (mod_data_more.c) */
/* lr_sched_warn.c: a scheduler's start zeroes its optimizer's step count; the warnings of
   scheduler.step() before optimizer.step(), of step(epoch), and of get_lr() outside step().
   Each returns 0, or -1 when the warning became an error. */
void repl_sched_zero_steps(nn_object *optimizer);
int repl_sched_warn_order(nn_object *optimizer);
int repl_sched_warn_epoch(void);
int repl_sched_warn_get_lr(nn_object *self);
nn_object *repl_mod_torch_utils(void);  /* torch.utils, holding data (mod_data.c) */

#endif
