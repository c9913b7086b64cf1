/*
 * nn_torch_file.h — PyTorch's own checkpoint format (torch.save / torch.load):
 * a zip archive holding `<name>/data.pkl` (a protocol-2 pickle whose tensors
 * point at storages by persistent id), one record `<name>/data/<key>` per
 * storage and `<name>/version`, as PyTorch 1.13 writes it (torch_file.c over
 * libzip, torch_pickle.c for the pickle). Included by nn.h.
 */
#ifndef NN_TORCH_FILE_H
#define NN_TORCH_FILE_H

/* torch.save(obj, path): obj (borrowed) is any nesting of dict, OrderedDict, list,
   tuple, str, int, float, bool, None, tensors and Parameters; tensors that share a
   storage (views, the same tensor twice) stay shared. The archive is written to a
   temporary file beside path and renamed over it, so a failure leaves no partial
   file. TypeError for a value PyTorch's format cannot hold here. 0 or -1. */
int nn_torch_save_file(nn_object *obj, const char *path);
/* The same archive in memory (torch.save to an io.BytesIO): *data (nn_malloc'd,
   the caller frees it with nn_free) and *len. 0 or -1. */
int nn_torch_save_bytes(nn_object *obj, void **data, size_t *len);

/* torch.load(path, map_location): a new reference to the object the file holds,
   read with a restricted unpickler: only the globals PyTorch's weights_only=True
   allows, any other is an UnpicklingError naming it; nothing from the file runs.
   map_location (borrowed) is NULL/None, a device string ("cpu", "cuda:0") or a
   dict of location strings ({"cuda:0": "cpu"}); each storage is placed as
   nn_restore_location says for its location so mapped, on the device's memory. A safetensors file (what nnscope's
   torch.save wrote before) loads as its ordered dict. Bad files are errors
   (UnpicklingError, RuntimeError), never more memory than the file holds. */
nn_object *nn_torch_load_file(const char *path, nn_object *map_location);
/* The same for an archive in memory (borrowed bytes). */
nn_object *nn_torch_load_bytes(const void *data, size_t len, nn_object *map_location);

/* Where torch.load puts a storage: cpu holds its elements as read from the file
   (a flat CPU tensor, borrowed), location is where it was saved ("cpu",
   "cuda:0"). Returns a new reference to the flat storage to use, of the same
   numel and dtype: cpu itself, or a copy on some device; NULL with an error. */
typedef nn_tensor *(*nn_restore_fn)(void *ud, nn_tensor *cpu, const char *location);
/* PyTorch 1.13's default_restore_location: "cpu" keeps cpu; "cuda" and "cuda:N"
   copy it to that device through its backend, RuntimeError in PyTorch's words when
   CUDA is not available ("Attempting to deserialize object on a CUDA device but
   torch.cuda.is_available() is False. ...") or N is not a device; any other
   location: "don't know how to restore data location of ...". */
nn_tensor *nn_restore_location(nn_tensor *cpu, const char *location);
/* torch.load(path) with map_location a function (PyTorch's callable form; the
   None/str/dict forms above are restore functions too). */
nn_object *nn_torch_load_file_with(const char *path, nn_restore_fn restore, void *ud);
nn_object *nn_torch_load_bytes_with(const void *data, size_t len, nn_restore_fn restore, void *ud);

/* ---- the pickle alone (torch_pickle.c), for the archive code and the tests */

/* A storage a pickle refers to: the tensor (retained) whose storage it is. */
typedef struct nn_pickle_storage {
    nn_tensor *tensor;
} nn_pickle_storage;

typedef struct nn_pickle_out {
    char *data;                   /* nn_malloc'd pickle bytes */
    size_t len;
    nn_pickle_storage *storages;  /* storage key i is "i" */
    size_t n_storages;
} nn_pickle_out;

/* Pickles obj (borrowed) as torch.save's data.pkl; 0 or -1 (out then empty). */
int nn_pickle_dump(nn_object *obj, nn_pickle_out *out);
void nn_pickle_out_free(nn_pickle_out *out);

/* Gives the storage record `key` as a new 1-D tensor of numel elements of dtype on
   the CPU, or NULL with an error (a missing or short record). */
typedef nn_tensor *(*nn_pickle_storage_fn)(void *ud, const char *key, nn_dtype dtype, int64_t numel,
                                           const char *location);
/* Unpickles data (borrowed, len bytes) with the restricted unpickler; storages come
   from load(ud, ...). A new reference or NULL with the error. */
nn_object *nn_pickle_load(const void *data, size_t len, nn_pickle_storage_fn load, void *ud);

/* Objects beyond tensors and containers (torch.save / torch.load of a whole module),
   supplied by the layer that knows them (repl/torch_pickle_objects.c). Core knows
   no classes: without hooks such objects are a TypeError on save and their globals
   an UnpicklingError on load, as above. */
typedef struct nn_pickle_hooks {
    void *ud;
    /* Save: obj (borrowed) is something else; *out = a new tuple (module str, name str,
       args tuple or None, state or None), written as GLOBAL module.name, then NEWOBJ
       with () when args is None (copyreg's __newobj__, as protocol 2 pickles classes)
       or REDUCE with args, then BUILD with state unless None; a fifth item, a dict,
       is written as the object's items (SETITEMS) before the BUILD, as CPython's
       dictitems (a defaultdict); or (module, name) alone:
       obj is that global itself (a function, pickled by reference). 0, or -1 with the error. */
    int (*reduce)(void *ud, nn_object *obj, nn_object **out);
    /* Load: a global the reader does not know: a new reference to what it names (a
       class; *is_value set for a function, which is then the value itself), or NULL
       with the error (UnpicklingError naming it for one refused). */
    nn_object *(*find_class)(void *ud, const char *module, const char *name, bool *is_value);
    /* NEWOBJ (newobj true: cls.__new__(cls, *args)) or REDUCE (cls(*args)) of such a
       global; a new reference or NULL with the error. */
    nn_object *(*call)(void *ud, nn_object *cls, nn_object *args, bool newobj);
    /* BUILD with state on an object made by call (borrowed both): 0 or -1. When the
       object is made whole only from its state (an optimizer from its param_groups),
       *replacement is set to a new reference that takes obj's place on the stack and
       in the memo (left NULL otherwise). */
    int (*build)(void *ud, nn_object *obj, nn_object *state, nn_object **replacement);
    /* SETITEM(S) on an object made by call that is not a dict (a defaultdict): the
       dict that holds its items (borrowed), or NULL when it has none. */
    nn_object *(*items)(void *ud, nn_object *obj);
} nn_pickle_hooks;
/* Sets the calling thread's hooks for the dumps and loads that follow (NULL: none);
   returns the previous ones. */
const nn_pickle_hooks *nn_pickle_set_hooks(const nn_pickle_hooks *hooks);

#endif
