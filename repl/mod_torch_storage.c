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

static const repl_mod_fn helpers[] = {
    {"_bytes", h_bytes, NULL},
    {"_from_bytes", h_from_bytes, NULL},
};

/* source: begin */
static const char source[] =
    "# torch.storage: UntypedStorage, as torch.load hands one to a callable map_location\n"
    "# (PyTorch 1.13: the storage's bytes, on the CPU). Written in the language over two\n"
    "# helpers: _bytes(t), a tensor's elements as bytes (the host-access contract), and\n"
    "# _from_bytes(b, device), a flat uint8 tensor of those bytes on a device. The storage\n"
    "# keeps its elements in the dtype they were saved in (_t, flat), so what a\n"
    "# map_location returns goes back to torch.load without a copy.\n"
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
    "    def is_shared(self):\n"
    "        return False\n"
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
    "def _wrap(t):\n"
    "    return UntypedStorage(_tensor=t)\n"
    "\n"
    "\n"
    "def _unwrap(o):\n"
    "    return o._t if isinstance(o, UntypedStorage) else None\n"
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
