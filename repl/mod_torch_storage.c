/*
 * mod_torch_storage.c — the module torch.storage: UntypedStorage, the object a
 * callable map_location of torch.load receives (PyTorch 1.13 passes the
 * storage's bytes, on the CPU, and uses the storage it returns: None for the
 * default place). Written in the language over two helpers that reach a
 * tensor's elements only through the host-access contract (core/nn.h).
 * repl/bind_torch.c wraps each loaded storage in one (repl_storage_wrap) and
 * unwraps what map_location returns (repl_storage_unwrap).
 */
#include <string.h>

#include "bind_int.h"
#include "eval_int.h"
#include "bytes_int.h"
#include "stdlib_int.h"

#define ARGS(n) nn_object *a[n] = {0}

/* _bytes(t) -> bytes: t's elements as laid out in memory, row-major */
static nn_object *h_bytes(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    nn_tensor *t;
    if (repl_parse_args("_bytes", "t", args, kwargs, a) || repl_arg_tensor("_bytes", "t", 1, a[0], &t)) return NULL;
    nn_tensor *hold = NULL;
    size_t n = (size_t)nn_numel(t) * nn_dtype_size(t->dtype);
    const void *p = n ? nn_host_read(t, &hold) : "";
    nn_object *r = p ? repl_bytes_new(p, n, false) : NULL;
    NN_RELEASE(hold);
    return r;
}

/* _from_bytes(b, device) -> a flat uint8 tensor of b's bytes on device */
static nn_object *h_from_bytes(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_device d;
    if (repl_parse_args("_from_bytes", "b, device", args, kwargs, a) || repl_arg_device_to("_from_bytes", a[1], &d))
        return NULL;
    if (!repl_is_bytes(a[0])) return nn_error_set(NN_ERR_TYPE, "_from_bytes(): expected bytes"), NULL;
    int64_t n = (int64_t)repl_bytes_len(a[0]);
    nn_tensor *t = nn_empty_on(d, 1, &n, NN_UINT8);
    if (t && n && nn_host_write(t, repl_bytes_data(a[0])) < 0) NN_SET(t, NULL);
    return (nn_object *)t;
}

/* _view(t) -> a flat tensor over t's whole storage in t's dtype (what x.storage() wraps) */
static nn_object *h_view(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    nn_tensor *t;
    if (repl_parse_args("_view", "t", args, kwargs, a) || repl_arg_tensor("_view", "t", 1, a[0], &t)) return NULL;
    return (nn_object *)nn_storage_view(t);
}

/* _view_as(t, offset, size, stride) -> a view of t's storage (set_'s geometry) */
static nn_object *h_view_as(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_tensor *t;
    int64_t offset, sizes[NN_MAX_DIMS], strides[NN_MAX_DIMS];
    int nd, nd2;
    if (repl_parse_args("_view_as", "t, offset, size, stride", args, kwargs, a) ||
        repl_arg_tensor("_view_as", "t", 1, a[0], &t) || repl_arg_int("set_", "storage_offset", 2, a[1], &offset) ||
        repl_arg_shape("set_", "size", a[2], &nd, sizes) || repl_arg_shape("set_", "stride", a[3], &nd2, strides))
        return NULL;
    if (nd != nd2)
        return nn_error_set(NN_ERR_RUNTIME, "mismatch in length of strides and shape"), NULL;
    return (nn_object *)nn_storage_view_as(t, nd, sizes, strides, offset);
}

/* _data_ptr(t) -> int: the address of t's first element (PyTorch's data_ptr()) */
static nn_object *h_data_ptr(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    nn_tensor *t;
    if (repl_parse_args("_data_ptr", "t", args, kwargs, a) || repl_arg_tensor("_data_ptr", "t", 1, a[0], &t))
        return NULL;
    return nn_int_new((int64_t)nn_data_address(t));
}

/* _set(t, src): t takes src's storage, offset, sizes and strides (x.set_) */
static nn_object *h_set(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *t, *src;
    if (repl_parse_args("_set", "t, src", args, kwargs, a) || repl_arg_tensor("_set", "t", 1, a[0], &t) ||
        repl_arg_tensor("_set", "src", 2, a[1], &src))
        return NULL;
    if (t->requires_grad && !t->grad_fn && nn_grad_enabled())
        return nn_error_set(NN_ERR_RUNTIME, "a leaf Variable that requires grad is being used in an in-place operation."),
               NULL;
    if (nn_set_data(t, src) < 0) return NULL;
    NN_RETAIN(t);
    return &t->ob;
}

/* _view_dtype(t, dtype) -> a flat tensor over t's whole storage read as dtype */
static nn_object *h_view_dtype(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *t;
    int dt;
    if (repl_parse_args("_view_dtype", "t, dtype", args, kwargs, a) || repl_arg_tensor("_view_dtype", "t", 1, a[0], &t) ||
        repl_arg_dtype("_view_dtype", "dtype", 2, a[1], &dt))
        return NULL;
    return (nn_object *)nn_storage_view_dtype(t, (nn_dtype)dt);
}

/* _resize(t, nbytes): t's storage resized in place (storage.resize_) */
static nn_object *h_resize(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *t;
    int64_t n;
    if (repl_parse_args("_resize", "t, nbytes", args, kwargs, a) || repl_arg_tensor("_resize", "t", 1, a[0], &t) ||
        repl_arg_int("_resize", "nbytes", 2, a[1], &n))
        return NULL;
    return nn_storage_resize(t, n) < 0 ? NULL : nn_retain(nn_none());
}

/* _fit(t) -> t, a storage object's flat tensor, at its storage's current length */
static nn_object *h_fit(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    nn_tensor *t;
    if (repl_parse_args("_fit", "t", args, kwargs, a) || repl_arg_tensor("_fit", "t", 1, a[0], &t)) return NULL;
    nn_storage_view_refit(t);
    return nn_retain(a[0]);
}

/* _from_file(filename, shared, nbytes, dtype) -> a flat tensor over the file's mapping */
static nn_object *h_from_file(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    const char *path;
    bool shared;
    int64_t n;
    int dt;
    if (repl_parse_args("_from_file", "filename, shared, nbytes, dtype", args, kwargs, a) ||
        repl_arg_str("_from_file", "filename", 1, a[0], &path) || repl_arg_bool("_from_file", "shared", 2, a[1], &shared) ||
        repl_arg_int("_from_file", "nbytes", 3, a[2], &n) || repl_arg_dtype("_from_file", "dtype", 4, a[3], &dt))
        return NULL;
    return (nn_object *)nn_storage_from_file(path, shared, n, (nn_dtype)dt);
}

/* _share(t): t's storage into shared memory; _is_shared(t) -> bool */
static nn_object *h_share(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    nn_tensor *t;
    if (repl_parse_args("_share", "t", args, kwargs, a) || repl_arg_tensor("_share", "t", 1, a[0], &t)) return NULL;
    return nn_storage_share(t) < 0 ? NULL : nn_retain(nn_none());
}

static nn_object *h_is_shared(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    nn_tensor *t;
    if (repl_parse_args("_is_shared", "t", args, kwargs, a) || repl_arg_tensor("_is_shared", "t", 1, a[0], &t))
        return NULL;
    return nn_bool_new(nn_storage_is_shared(t));
}

static const repl_mod_fn helpers[] = {
    {"_view_dtype", h_view_dtype, NULL},
    {"_resize", h_resize, NULL},
    {"_fit", h_fit, NULL},
    {"_from_file", h_from_file, NULL},
    {"_share", h_share, NULL},
    {"_is_shared", h_is_shared, NULL},
    {"_bytes", h_bytes, NULL},
    {"_from_bytes", h_from_bytes, NULL},
    {"_view", h_view, NULL},
    {"_view_as", h_view_as, NULL},
    {"_data_ptr", h_data_ptr, NULL},
    {"_set", h_set, NULL},
};

/* source: begin */
static const char source[] =
    "# torch.storage: UntypedStorage, as torch.load hands one to a callable map_location\n"
    "# (PyTorch 1.13: the storage's bytes, on the CPU). Written in the language over two\n"
    "# helpers: _bytes(t), a tensor's elements as bytes (the host-access contract), and\n"
    "# _from_bytes(b, device), a flat uint8 tensor of those bytes on a device. The storage\n"
    "# keeps its elements in the dtype they were saved in (_t, flat), so what a\n"
    "# map_location returns goes back to torch.load without a copy. TypedStorage wraps an\n"
    "# UntypedStorage's memory read as its dtype (_view_dtype); resize_, from_file's\n"
    "# mappings and share_memory_ are core's (core/storage_view.c).\n"
    "import torch\n"
    "\n"
    "\n"
    "class UntypedStorage:\n"
    "    def __init__(self, *args, device=None, _tensor=None):\n"
    "        if _tensor is not None:\n"
    "            self._t = _tensor\n"
    "            return\n"
    "        if len(args) > 1:\n"
    "            raise TypeError(\"torch.UntypedStorage() received an invalid combination of arguments - got ({}), but \"\n"
    "                            \"expected one of:\\n * (*, int allocator, torch.device device)\\n * (int size, *, int \"\n"
    "                            \"allocator, torch.device device)\\n * (object sequence, *, int allocator, torch.device \"\n"
    "                            \"device)\\n\".format(\", \".join(type(a).__name__ for a in args)))\n"
    "        data = b\"\"\n"
    "        if len(args) == 1:\n"
    "            data = bytes(args[0])\n"
    "        self._t = _from_bytes(data, \"cpu\" if device is None else device)\n"
    "\n"
    "    @property\n"
    "    def device(self):\n"
    "        return self._t.device\n"
    "\n"
    "    @property\n"
    "    def is_cuda(self):\n"
    "        return self._t.is_cuda\n"
    "\n"
    "    @property\n"
    "    def is_sparse(self):\n"
    "        return False\n"
    "\n"
    "    def nbytes(self):\n"
    "        return self._t.numel() * self._t.element_size()\n"
    "\n"
    "    def size(self):\n"
    "        return self.nbytes()\n"
    "\n"
    "    def __len__(self):\n"
    "        return self.nbytes()\n"
    "\n"
    "    def element_size(self):\n"
    "        return 1\n"
    "\n"
    "    def type(self):\n"
    "        return \"torch.storage.UntypedStorage\"\n"
    "\n"
    "    def is_pinned(self):\n"
    "        return False\n"
    "\n"
    "    def cpu(self):\n"
    "        return self if not self._t.is_cuda else UntypedStorage(_tensor=self._t.cpu())\n"
    "\n"
    "    def cuda(self, device=None, non_blocking=False):\n"
    "        t = self._t.cuda() if device is None else self._t.cuda(device)\n"
    "        return self if t is self._t else UntypedStorage(_tensor=t)\n"
    "\n"
    "    def clone(self):\n"
    "        return UntypedStorage(_tensor=self._t.clone())\n"
    "\n"
    "    def tolist(self):\n"
    "        return list(_bytes(self._t))\n"
    "\n"
    "    def __iter__(self):\n"
    "        return iter(self.tolist())\n"
    "\n"
    "    def __getitem__(self, i):\n"
    "        if isinstance(i, slice):\n"
    "            return UntypedStorage(_tensor=_from_bytes(_bytes(self._t)[i], self._t.device))\n"
    "        n = self.nbytes()\n"
    "        if not isinstance(i, int):\n"
    "            raise TypeError(\"can't index a torch.UntypedStorage with \" + type(i).__name__)\n"
    "        if i < -n or i >= n:\n"
    "            raise IndexError(\"index {} out of range for storage of size {}\".format(i + n if i < 0 else i, n))\n"
    "        return _bytes(self._t)[i]\n"
    "\n"
    "    def __str__(self):\n"
    "        info = \"[torch.storage.UntypedStorage(device={}) of size {}]\".format(self.device, len(self))\n"
    "        return \" \" + \"\\n \".join(str(b) for b in _bytes(self._t)) + \"\\n\" + info\n"
    "\n"
    "    def __repr__(self):\n"
    "        return str(self)\n"
    "\n"
    "\n"
    "def _untyped_data_ptr(self):\n"
    "    return _data_ptr(self._t)\n"
    "\n"
    "\n"
    "UntypedStorage.data_ptr = _untyped_data_ptr\n"
    "\n"
    "\n"
    "def _untyped_copy_(self, source, non_blocking=None):\n"
    "    if len(source) != len(self):\n"
    "        raise RuntimeError(\"size does not match\")\n"
    "    if self._t.dtype == torch.uint8:\n"
    "        self._t.copy_(_from_bytes(_bytes(source._t), self._t.device))\n"
    "    elif source._t.dtype == self._t.dtype:\n"
    "        self._t.copy_(source._t)\n"
    "    else:\n"
    "        raise NotImplementedError(\"copy_ between storages of these element types\")\n"
    "    return self\n"
    "\n"
    "\n"
    "UntypedStorage.copy_ = _untyped_copy_\n"
    "\n"
    "\n"
    "def _check_resize(size):\n"
    "    if isinstance(size, bool) or not isinstance(size, int):\n"
    "        raise RuntimeError(\"resize_ expects an int, but got \" + type(size).__name__)\n"
    "\n"
    "\n"
    "def _untyped_resize_(self, size):\n"
    "    _check_resize(size)\n"
    "    _resize(self._t, size)\n"
    "    return self\n"
    "\n"
    "\n"
    "def _share_memory_(self):\n"
    "    _share(self._t)\n"
    "    return self\n"
    "\n"
    "\n"
    "def _storage_is_shared(self):\n"
    "    return _is_shared(self._t)\n"
    "\n"
    "\n"
    "def _get_device(self):\n"
    "    return self._t.device.index if self._t.is_cuda else None\n"
    "\n"
    "\n"
    "def _element_size(dtype):\n"
    "    return torch.empty(0, dtype=dtype).element_size()\n"
    "\n"
    "\n"
    "def _from_buffer(buf, byte_order, dtype, count, offset):\n"
    "    # the bytes of buf from offset, count elements of dtype (all that fit when count\n"
    "    # is -1) in byte_order: a flat uint8 tensor of the native layout, on the CPU\n"
    "    es = _element_size(dtype)\n"
    "    if byte_order is None and es > 1:\n"
    "        raise RuntimeError(\"function missing required argument 'byte_order' (pos 2)\")\n"
    "    if byte_order is not None and byte_order not in (\"big\", \"little\", \"native\"):\n"
    "        raise ValueError(\"invalid byte_order '{}' (expected 'big', 'little', or 'native')\".format(byte_order))\n"
    "    if isinstance(buf, str):\n"
    "        raise TypeError(\"a bytes-like object is required, not 'str'\")\n"
    "    data = bytes(buf)\n"
    "    n = len(data)\n"
    "    if offset < 0 or offset > n:\n"
    "        raise ValueError(\"offset must be non-negative and no greater than buffer length ({}) , but got {}\".format(\n"
    "            offset, n))\n"
    "    if count < 0:\n"
    "        if (n - offset) % es:\n"
    "            raise ValueError(\"buffer size ({}) must be a multiple of element size ({})\".format(n, es))\n"
    "        count = (n - offset) // es\n"
    "    if offset + count * es > n:\n"
    "        raise ValueError(\"buffer has only {} elements after offset {}, but specified a size of {}\".format(\n"
    "            n - offset, offset, count))\n"
    "    raw = data[offset:offset + count * es]\n"
    "    if byte_order == \"big\" and es > 1:\n"
    "        # reversed whole, each element's bytes are reversed and the elements too\n"
    "        return _view_dtype(_from_bytes(raw[::-1], \"cpu\"), dtype).flip(0)\n"
    "    return _from_bytes(raw, \"cpu\")\n"
    "\n"
    "\n"
    "def _typed_from_bytes(u8, dtype):\n"
    "    t = _view_dtype(u8, dtype) if u8.dtype == torch.uint8 else u8\n"
    "    return (t != 0) if dtype == torch.bool else t\n"
    "\n"
    "\n"
    "def _untyped_from_buffer(cls, *args, dtype=None, **kwargs):\n"
    "    if dtype is None:\n"
    "        raise RuntimeError(\"argument 'dtype' cannot be None\")\n"
    "    return UntypedStorage(_tensor=_buffer_tensor(args, kwargs, dtype))\n"
    "\n"
    "\n"
    "def _buffer_tensor(args, kwargs, dtype):\n"
    "    names = (\"buffer\", \"byte_order\", \"count\", \"offset\")\n"
    "    vals = dict(zip(names, args))\n"
    "    for k, v in kwargs.items():\n"
    "        if k not in names:\n"
    "            raise TypeError(\"from_buffer() got an unexpected keyword argument '{}'\".format(k))\n"
    "        vals[k] = v\n"
    "    if \"buffer\" not in vals:\n"
    "        raise RuntimeError(\"function missing required argument 'buffer' (pos 1)\")\n"
    "    return _typed_from_bytes(_from_buffer(vals[\"buffer\"], vals.get(\"byte_order\"), dtype, vals.get(\"count\", -1),\n"
    "                                          vals.get(\"offset\", 0)), dtype)\n"
    "\n"
    "\n"
    "def _check_file_args(filename, shared, size):\n"
    "    if not isinstance(filename, str):\n"
    "        raise TypeError(\"argument 1 must be str, not \" + type(filename).__name__)\n"
    "    for v in (shared, size):\n"
    "        if not isinstance(v, int):\n"
    "            raise TypeError(\"'{}' object cannot be interpreted as an integer\".format(type(v).__name__))\n"
    "\n"
    "\n"
    "def _untyped_from_file(cls, filename, shared=False, size=0):\n"
    "    _check_file_args(filename, shared, size)\n"
    "    return UntypedStorage(_tensor=_from_file(filename, bool(shared), size, torch.uint8))\n"
    "\n"
    "\n"
    "def _flat_get(self):\n"
    "    # the flat tensor at the storage's current length: a resize_ through another\n"
    "    # storage object of the same memory shows here too, as in PyTorch\n"
    "    return _fit(self._flat)\n"
    "\n"
    "\n"
    "def _flat_set(self, t):\n"
    "    self._flat = t\n"
    "\n"
    "\n"
    "UntypedStorage._t = property(_flat_get, _flat_set)\n"
    "UntypedStorage.resize_ = _untyped_resize_\n"
    "UntypedStorage.share_memory_ = _share_memory_\n"
    "UntypedStorage.is_shared = _storage_is_shared\n"
    "UntypedStorage.get_device = _get_device\n"
    "UntypedStorage.from_buffer = classmethod(_untyped_from_buffer)\n"
    "UntypedStorage.from_file = classmethod(_untyped_from_file)\n"
    "\n"
    "\n"
    "_LEGACY = {torch.float32: \"Float\", torch.float64: \"Double\", torch.float16: \"Half\", torch.bfloat16: \"BFloat16\",\n"
    "           torch.int64: \"Long\", torch.int32: \"Int\", torch.int16: \"Short\", torch.int8: \"Char\",\n"
    "           torch.uint8: \"Byte\", torch.bool: \"Bool\"}\n"
    "\n"
    "\n"
    "def _index_error(i, n):\n"
    "    return IndexError(\"index {} out of range for storage of size {}\".format(i, n))\n"
    "\n"
    "\n"
    "_TYPED_ARGS = (\"TypedStorage.__init__ received an invalid combination of arguments. Expected one of:\\n\"\n"
    "               \" * (*, torch.device device, torch.dtype dtype)\\n\"\n"
    "               \" * (int size, *, torch.device device, torch.dtype dtype)\\n\"\n"
    "               \" * (Sequence data, *, torch.device device, torch.dtype dtype)\\n\"\n"
    "               \" * (*, UntypedStorage wrap_storage, torch.dtype dtype)\")\n"
    "\n"
    "\n"
    "def _is_sequence(o):\n"
    "    # collections.abc.Sequence's test, as the storage constructors take one\n"
    "    return isinstance(o, (list, tuple, range, str, bytes, bytearray)) or (\n"
    "        not isinstance(o, dict) and hasattr(o, \"__getitem__\") and hasattr(o, \"__len__\"))\n"
    "\n"
    "\n"
    "def _typed_view(t, dtype):\n"
    "    # t's whole storage read as dtype (t itself when it is in dtype already)\n"
    "    return t if t.dtype == dtype else _view_dtype(t, dtype)\n"
    "\n"
    "\n"
    "class TypedStorage:\n"
    "    # x.storage(): _t is a flat view of x's whole storage in x's dtype, so that\n"
    "    # writes through the storage show in x and data_ptr() is x's storage's.\n"
    "    is_sparse = False\n"
    "\n"
    "    def __init__(self, *args, device=None, dtype=None, wrap_storage=None, _tensor=None):\n"
    "        if getattr(self, \"_t\", None) is not None:\n"
    "            return\n"
    "        if _tensor is not None:\n"
    "            self._t = _tensor\n"
    "            return\n"
    "        if wrap_storage is not None:\n"
    "            if args:\n"
    "                raise RuntimeError(_TYPED_ARGS + \"\\nNo positional arguments should be given when using 'wrap_storage'\")\n"
    "            if dtype is None:\n"
    "                raise RuntimeError(_TYPED_ARGS + \"\\nArgument 'dtype' must be specified\")\n"
    "            if not isinstance(dtype, torch.dtype):\n"
    "                raise TypeError(_TYPED_ARGS + \"\\nArgument 'dtype' must be torch.dtype, not {}\".format(type(dtype)))\n"
    "            if device is not None:\n"
    "                raise RuntimeError(_TYPED_ARGS + \"\\nArgument 'device' should not be specified when 'wrap_storage' is \"\n"
    "                                   \"given\")\n"
    "            if not isinstance(wrap_storage, UntypedStorage):\n"
    "                raise TypeError(_TYPED_ARGS + \"\\nArgument 'wrap_storage' must be UntypedStorage, but got {}\".format(\n"
    "                    type(wrap_storage)))\n"
    "            self._t = _typed_view(wrap_storage._t, dtype)\n"
    "            return\n"
    "        if dtype is None:\n"
    "            dtype = torch.get_default_dtype()\n"
    "        if len(args) > 1:\n"
    "            raise RuntimeError(_TYPED_ARGS + \"\\nToo many positional arguments\")\n"
    "        if not args:\n"
    "            self._t = torch.zeros(0, dtype=dtype, device=device)\n"
    "        elif isinstance(args[0], int):\n"
    "            if args[0] < 0:\n"
    "                raise RuntimeError(\"[enforce fail at alloc_cpu.cpp:52] ((ptrdiff_t)nbytes) >= 0. alloc_cpu() seems to \"\n"
    "                                   \"have been called with negative number: {}\".format(\n"
    "                                       2 ** 64 + args[0] * _element_size(dtype)))\n"
    "            self._t = torch.zeros(args[0], dtype=dtype, device=device)\n"
    "        elif _is_sequence(args[0]):\n"
    "            self._t = torch.tensor(list(args[0]), dtype=dtype, device=device)\n"
    "        else:\n"
    "            raise TypeError(_TYPED_ARGS + \"\\nArgument type not recognized: {}\".format(type(args[0])))\n"
    "\n"
    "    @property\n"
    "    def dtype(self):\n"
    "        return self._t.dtype\n"
    "\n"
    "    device = UntypedStorage.device  # the same properties: self._t's\n"
    "    is_cuda = UntypedStorage.is_cuda\n"
    "\n"
    "    def size(self):\n"
    "        return self._t.numel()\n"
    "\n"
    "    def __len__(self):\n"
    "        return self._t.numel()\n"
    "\n"
    "    def element_size(self):\n"
    "        return self._t.element_size()\n"
    "\n"
    "    def nbytes(self):\n"
    "        return self._t.numel() * self._t.element_size()\n"
    "\n"
    "    def data_ptr(self):\n"
    "        return _data_ptr(self._t)\n"
    "\n"
    "    def type(self, dtype=None, non_blocking=False):\n"
    "        if dtype is None:\n"
    "            return \"torch.\" + (\"cuda.\" if self._t.is_cuda else \"\") + _LEGACY[self._t.dtype] + \"Storage\"\n"
    "        return self._t.type(dtype).storage() if not isinstance(dtype, str) else TypedStorage(\n"
    "            _tensor=self._t.type(dtype.replace(\"Storage\", \"Tensor\")))\n"
    "\n"
    "    def tolist(self):\n"
    "        return self._t.tolist()\n"
    "\n"
    "    def __iter__(self):\n"
    "        return iter(self._t.tolist())\n"
    "\n"
    "    def _check(self, idx):\n"
    "        if isinstance(idx, slice):\n"
    "            raise RuntimeError(\"slices are only supported in UntypedStorage.__getitem__\")\n"
    "        if isinstance(idx, bool) or not isinstance(idx, int):\n"
    "            raise RuntimeError(\"can't index a {} with {}\".format(type(self), type(idx)))\n"
    "        n = self._t.numel()\n"
    "        if idx < -n or idx >= n:\n"
    "            raise _index_error(idx, n)\n"
    "        return idx\n"
    "\n"
    "    def __getitem__(self, idx):\n"
    "        return self._t[self._check(idx)].item()\n"
    "\n"
    "    def __setitem__(self, idx, value):\n"
    "        if isinstance(idx, slice):\n"
    "            self._t[idx] = value\n"
    "            return\n"
    "        self._t[self._check(idx)] = value\n"
    "\n"
    "    def copy_(self, source, non_blocking=None):\n"
    "        if len(source) != len(self):\n"
    "            raise RuntimeError(\"size does not match\")\n"
    "        self._t.copy_(source._t)\n"
    "        return self\n"
    "\n"
    "    def fill_(self, value):\n"
    "        self._t.fill_(value)\n"
    "        return self\n"
    "\n"
    "    def clone(self):\n"
    "        return TypedStorage(_tensor=self._t.clone())\n"
    "\n"
    "    def cpu(self):\n"
    "        return TypedStorage(_tensor=self._t.cpu())\n"
    "\n"
    "    def cuda(self, device=None, non_blocking=False):\n"
    "        return TypedStorage(_tensor=self._t.cuda() if device is None else self._t.cuda(device))\n"
    "\n"
    "    def untyped(self):\n"
    "        return UntypedStorage(_tensor=self._t)\n"
    "\n"
    "    is_shared = UntypedStorage.is_shared\n"
    "    is_pinned = UntypedStorage.is_pinned\n"
    "\n"
    "    share_memory_ = _share_memory_\n"
    "    get_device = _get_device\n"
    "\n"
    "    def resize_(self, size):\n"
    "        _check_resize(size)\n"
    "        _resize(self._t, size * self.element_size())\n"
    "\n"
    "    def pin_memory(self):\n"
    "        raise AssertionError(\"Torch not compiled with CUDA enabled\")\n"
    "\n"
    "    def pickle_storage_type(self):\n"
    "        return _LEGACY[self.dtype] + \"Storage\"\n"
    "\n"
    "    def _to(self, dtype):\n"
    "        if not isinstance(dtype, torch.dtype):\n"
    "            raise TypeError(\"Argument 'dtype' must be torch.dtype, not {}\".format(type(dtype)))\n"
    "        return TypedStorage(_tensor=self._t.clone() if dtype == self.dtype else self._t.to(dtype))\n"
    "\n"
    "    def double(self):\n"
    "        return self._to(torch.float64)\n"
    "\n"
    "    def float(self):\n"
    "        return self._to(torch.float32)\n"
    "\n"
    "    def half(self):\n"
    "        return self._to(torch.float16)\n"
    "\n"
    "    def bfloat16(self):\n"
    "        return self._to(torch.bfloat16)\n"
    "\n"
    "    def long(self):\n"
    "        return self._to(torch.int64)\n"
    "\n"
    "    def int(self):\n"
    "        return self._to(torch.int32)\n"
    "\n"
    "    def short(self):\n"
    "        return self._to(torch.int16)\n"
    "\n"
    "    def char(self):\n"
    "        return self._to(torch.int8)\n"
    "\n"
    "    def byte(self):\n"
    "        return self._to(torch.uint8)\n"
    "\n"
    "    def bool(self):\n"
    "        return self._to(torch.bool)\n"
    "\n"
    "    def complex_float(self):\n"
    "        return self._to(torch.complex64)\n"
    "\n"
    "    def complex_double(self):\n"
    "        return self._to(torch.complex128)\n"
    "\n"
    "    @classmethod\n"
    "    def from_buffer(cls, *args, dtype=None, device=None, **kwargs):\n"
    "        if cls is TypedStorage:\n"
    "            dtype = torch.get_default_dtype() if dtype is None else dtype\n"
    "            if device is not None and torch.device(device).type != \"cpu\":\n"
    "                raise RuntimeError(\"TypedStorage.from_buffer: Not available for device \" + torch.device(device).type)\n"
    "        else:\n"
    "            if dtype is not None or len(args) == 5:\n"
    "                raise RuntimeError(\"from_buffer: 'dtype' can only be specified in UntypedStorage.from_buffer and \"\n"
    "                                   \"TypedStorage.from_buffer\")\n"
    "            if device is not None:\n"
    "                raise RuntimeError(\"from_buffer: 'device' can only be specified in UntypedStorage.from_buffer and \"\n"
    "                                   \"TypedStorage.from_buffer\")\n"
    "            dtype = cls.dtype\n"
    "        return TypedStorage(_tensor=_buffer_tensor(args, kwargs, dtype))\n"
    "\n"
    "    @classmethod\n"
    "    def from_file(cls, filename, shared, size):\n"
    "        if cls is TypedStorage:\n"
    "            raise RuntimeError(\"from_file can only be called on derived classes\")\n"
    "        _check_file_args(filename, shared, size)\n"
    "        return TypedStorage(_tensor=_from_file(filename, bool(shared), size * _element_size(cls.dtype), cls.dtype))\n"
    "\n"
    "    def __str__(self):\n"
    "        info = \"[torch.storage.TypedStorage(dtype={}, device={}) of size {}]\".format(self.dtype, self.device, len(self))\n"
    "        return \" \" + \"\\n \".join(str(v) for v in self._t.tolist()) + \"\\n\" + info\n"
    "\n"
    "    def __repr__(self):\n"
    "        return str(self)\n"
    "\n"
    "    def __copy__(self):\n"
    "        return self.clone()\n"
    "\n"
    "    def __deepcopy__(self, memo):\n"
    "        return self.clone()\n"
    "\n"
    "\n"
    "TypedStorage._t = property(_flat_get, _flat_set)\n"
    "\n"
    "\n"
    "class _LegacyStorageMeta(type):\n"
    "    def __instancecheck__(cls, instance):\n"
    "        return type(instance) is TypedStorage and instance.dtype == cls.dtype and not instance.is_cuda\n"
    "\n"
    "\n"
    "class _LegacyStorage(TypedStorage, metaclass=_LegacyStorageMeta):\n"
    "    def __new__(cls, *args, wrap_storage=None, dtype=None, device=None):\n"
    "        if cls is _LegacyStorage:\n"
    "            raise RuntimeError(\"Only child classes of _LegacyStorage can be instantiated\")\n"
    "        msg = (\"{}.__new__ received an invalid combination of arguments. Expected one of:\\n * no arguments\\n\"\n"
    "               \" * (int size)\\n * (Sequence data)\\n * (*, UntypedStorage wrap_storage)\").format(cls)\n"
    "        if device is not None:\n"
    "            raise RuntimeError(msg + \"\\nKeyword argument 'device' cannot be specified\")\n"
    "        if dtype is not None:\n"
    "            raise RuntimeError(msg + \"\\nKeyword argument 'dtype' cannot be specified\")\n"
    "        if wrap_storage is None:\n"
    "            if len(args) > 1:\n"
    "                raise RuntimeError(msg + \"\\nToo many positional arguments\")\n"
    "            if len(args) == 1 and not isinstance(args[0], int) and not _is_sequence(args[0]):\n"
    "                raise TypeError(msg + \"\\nArgument type not recognized: {}\".format(type(args[0])))\n"
    "            return TypedStorage(*args, dtype=cls.dtype, device=\"cpu\")\n"
    "        if args:\n"
    "            raise RuntimeError(msg + \"\\nNo positional arguments should be given when using 'wrap_storage'\")\n"
    "        if not isinstance(wrap_storage, UntypedStorage):\n"
    "            raise TypeError(msg + \"\\nArgument 'wrap_storage' must be UntypedStorage, but got {}\".format(\n"
    "                type(wrap_storage)))\n"
    "        if wrap_storage.device.type != \"cpu\":\n"
    "            raise RuntimeError(msg + \"\\nDevice of 'wrap_storage' must be cpu, but got \" + wrap_storage.device.type)\n"
    "        return TypedStorage(wrap_storage=wrap_storage, dtype=cls.dtype)\n"
    "\n"
    "\n"
    "class FloatStorage(_LegacyStorage):\n"
    "    dtype = torch.float32\n"
    "\n"
    "\n"
    "class DoubleStorage(_LegacyStorage):\n"
    "    dtype = torch.float64\n"
    "\n"
    "\n"
    "class HalfStorage(_LegacyStorage):\n"
    "    dtype = torch.float16\n"
    "\n"
    "\n"
    "class BFloat16Storage(_LegacyStorage):\n"
    "    dtype = torch.bfloat16\n"
    "\n"
    "\n"
    "class LongStorage(_LegacyStorage):\n"
    "    dtype = torch.int64\n"
    "\n"
    "\n"
    "class IntStorage(_LegacyStorage):\n"
    "    dtype = torch.int32\n"
    "\n"
    "\n"
    "class ShortStorage(_LegacyStorage):\n"
    "    dtype = torch.int16\n"
    "\n"
    "\n"
    "class CharStorage(_LegacyStorage):\n"
    "    dtype = torch.int8\n"
    "\n"
    "\n"
    "class ByteStorage(_LegacyStorage):\n"
    "    dtype = torch.uint8\n"
    "\n"
    "\n"
    "class BoolStorage(_LegacyStorage):\n"
    "    dtype = torch.bool\n"
    "\n"
    "\n"
    "for _c in (FloatStorage, DoubleStorage, HalfStorage, BFloat16Storage, LongStorage, IntStorage, ShortStorage,\n"
    "           CharStorage, ByteStorage, BoolStorage):\n"
    "    _c.__module__ = \"torch\"  # PyTorch's classes are torch.FloatStorage, ...\n"
    "\n"
    "\n"
    "def typename(o):\n"
    "    if isinstance(o, torch.Tensor):\n"
    "        return o.type()\n"
    "    t = o if isinstance(o, type) else type(o)\n"
    "    module = getattr(t, \"__module__\", None)\n"
    "    prefix = \"\" if module in (None, \"builtins\", \"__builtin__\") else module + \".\"\n"
    "    return prefix + getattr(t, \"__qualname__\", t.__name__)\n"
    "\n"
    "\n"
    "def is_storage(obj):\n"
    "    return isinstance(obj, (TypedStorage, UntypedStorage))\n"
    "\n"
    "\n"
    "# Tensor methods (repl_storage_tensor_method binds them to the tensor)\n"
    "def storage(self):\n"
    "    return TypedStorage(_tensor=_view(self))\n"
    "\n"
    "\n"
    "def data_ptr(self):\n"
    "    return _data_ptr(self)\n"
    "\n"
    "\n"
    "def set_(self, source=None, storage_offset=0, size=None, stride=None):\n"
    "    if source is None:\n"
    "        return _set(self, torch.empty(0, dtype=self.dtype, device=self.device))\n"
    "    if isinstance(source, torch.Tensor):\n"
    "        if size is None:\n"
    "            return _set(self, source)\n"
    "        source = source.storage()\n"
    "    if not isinstance(source, TypedStorage):\n"
    "        raise TypeError(\"set_(): argument 'source' must be Storage or Tensor, not \" + type(source).__name__)\n"
    "    if source.dtype != self.dtype:\n"
    "        raise RuntimeError(\"Expected a Storage of type {} or an UntypedStorage, but got type {} for argument 1 \"\n"
    "                           \"'storage'\".format(_LEGACY[self.dtype].lower(), _LEGACY[source.dtype]))\n"
    "    if size is None:\n"
    "        return _set(self, source._t)\n"
    "    size = tuple(size)\n"
    "    if stride is None:\n"
    "        stride, acc = [], 1\n"
    "        for n in reversed(size):\n"
    "            stride.insert(0, acc)\n"
    "            acc *= max(n, 1)\n"
    "    return _set(self, _view_as(source._t, storage_offset, size, tuple(stride)))\n"
    "\n"
    "\n"
    "def _wrap(t):\n"
    "    return UntypedStorage(_tensor=t)\n"
    "\n"
    "\n"
    "def _unwrap(o):\n"
    "    return o._t if isinstance(o, UntypedStorage) else None\n"
    "\n"
    "\n"
    "def _tensor_of(o):\n"
    "    # what torch.save writes for a storage: (its flat tensor, whether untyped), or None\n"
    "    if isinstance(o, TypedStorage):\n"
    "        return (o._t, False)\n"
    "    if isinstance(o, UntypedStorage):\n"
    "        return (o._t, True)\n"
    "    return None\n"
    "\n"
    "\n"
    "def _wrap_typed(t):\n"
    "    return TypedStorage(_tensor=t)\n"
    "\n";
/* source: end */

nn_object *repl_mod_torch_storage(void)
{
    return repl_mod_from_source("torch.storage", helpers, sizeof helpers / sizeof *helpers, source);
}

/* calls torch.storage's fn(arg); a new reference */
static nn_object *call_lib(const char *fn, nn_object *arg)
{
    nn_object *m = repl_stdlib_module("torch.storage");
    nn_object *f = m ? repl_get_attr(m, fn) : NULL;
    NN_RELEASE(m);
    nn_object *r = f ? repl_call_object(f, &arg, 1, NULL) : NULL;
    NN_RELEASE(f);
    return r;
}

nn_object *repl_storage_wrap(nn_tensor *t) { return call_lib("_wrap", &t->ob); }

nn_tensor *repl_storage_unwrap(nn_object *o, bool *is_storage)
{
    *is_storage = false;
    nn_object *t = call_lib("_unwrap", o);
    if (!t || nn_is_none(t)) {
        NN_RELEASE(t);
        return NULL;
    }
    *is_storage = true;
    if (!nn_is_tensor(t)) NN_SET(t, NULL);
    return (nn_tensor *)t;
}

nn_tensor *repl_storage_tensor_of(nn_object *o, bool *untyped)
{
    *untyped = false;
    if (nn_is_tensor(o) || nn_is_none(o) || nn_is_int(o) || nn_is_float(o) || nn_is_str(o)) return NULL;
    nn_object *r = call_lib("_tensor_of", o);
    if (!r) {
        nn_error_clear(); /* not a storage */
        return NULL;
    }
    nn_tensor *t = NULL;
    if (r->type == &nn_tuple_type && nn_tuple_len(r) == 2 && nn_is_tensor(nn_tuple_get(r, 0))) {
        t = (nn_tensor *)nn_retain(nn_tuple_get(r, 0));
        *untyped = nn_is_true(nn_tuple_get(r, 1));
    }
    NN_RELEASE(r);
    return t;
}

nn_object *repl_storage_wrap_typed(nn_tensor *t) { return call_lib("_wrap_typed", &t->ob); }

/* x.storage(), x.data_ptr(), x.set_(...): torch.storage's functions bound to the
   tensor; a new reference, or NULL without an error for another name. */
nn_object *repl_storage_tensor_method(nn_tensor *t, const char *name)
{
    if (strcmp(name, "storage") != 0 && strcmp(name, "data_ptr") != 0 && strcmp(name, "set_") != 0) return NULL;
    nn_object *m = repl_stdlib_module("torch.storage");
    nn_object *f = m ? repl_get_attr(m, name) : NULL;
    NN_RELEASE(m);
    nn_object *r = f ? repl_method_new(f, &t->ob) : NULL;
    NN_RELEASE(f);
    return r;
}
