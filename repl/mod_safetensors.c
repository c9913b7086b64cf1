/*
 * mod_safetensors.c — the modules safetensors (safe_open, SafetensorError) and
 * safetensors.torch (save_file, load_file, save_model, load_model), as the
 * Hugging Face library's, written in the language over core's safetensors
 * code (core/safetensors.c, core/state_file.c) through the helpers below.
 * Key order as the library's: load_file and safe_open's offset_keys() in the
 * file's data order, keys() sorted. Its checks and messages: a dict of str to
 * tensors, no non-contiguous tensor, no two tensors sharing memory
 * (save_model drops the duplicates, as tied weights, and records them in the
 * metadata), load_model's missing/unexpected keys. A file that cannot be read
 * is FileNotFoundError; a malformed one is SafetensorError ("Error while
 * deserializing header: " and the library's reason for a header too large or
 * too small, a bad header length and data not fully covered; core's for others).
 * Not here: save()/load() of bytes (the language has no bytes), get_slice.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bind_int.h"
#include "stdlib_int.h"

#define ARGS(n) nn_object *a[n] = {0}

/* _load(path) -> (dict of tensors in file order, metadata dict or None) */
static nn_object *h_load(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    const char *path;
    if (repl_parse_args("_load", "path", args, kwargs, a) || repl_arg_str("_load", "path", 1, a[0], &path)) return NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT) repl_raise_exc(EXC_FileNotFoundError, "No such file or directory: %s", path);
        else repl_mod_os_error(errno, path);
        return NULL;
    }
    fclose(f);
    nn_object *meta = NULL, *d = nn_state_dict_load_file(path, &meta);
    if (!d) return NULL;
    /* no "__metadata__" is None, as the library's metadata() (an empty one reads as None too) */
    nn_object *r = nn_tuple_pack(2, d, meta && nn_dict_len(meta) ? meta : nn_none());
    NN_RELEASE(d);
    NN_RELEASE(meta);
    return r;
}

/* _save(tensors, path, metadata) */
static nn_object *h_save(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    const char *path;
    if (repl_parse_args("_save", "tensors, path, metadata", args, kwargs, a) ||
        repl_arg_str("save_file", "filename", 2, a[1], &path))
        return NULL;
    if (!nn_is_dict(a[0])) {
        repl_raise_exc(EXC_TypeError, "argument 'tensor_dict': '%s' object cannot be converted to 'PyDict'",
                       repl_type_name(a[0]));
        return NULL;
    }
    nn_object *meta = nn_is_none(a[2]) ? NULL : a[2];
    if (meta && !nn_is_dict(meta)) {
        repl_raise_exc(EXC_TypeError, "argument 'metadata': '%s' object cannot be converted to 'PyDict'",
                       repl_type_name(meta));
        return NULL;
    }
    return nn_state_dict_save_file(a[0], path, meta) ? NULL : nn_retain(nn_none());
}

/* _storage(t) -> (storage key, first byte, end byte, whether t covers its whole storage):
   what the library's storage_ptr/_end_ptr/_is_complete read */
static nn_object *h_storage(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    nn_tensor *t;
    if (repl_parse_args("_storage", "tensor", args, kwargs, a) || repl_arg_tensor("_storage", "tensor", 1, a[0], &t))
        return NULL;
    size_t item = nn_dtype_size(t->dtype), n = (size_t)nn_numel(t);
    /* addresses as numbers (the host contract's data_ptr), never dereferenced; 0 for an empty storage */
    uintptr_t first = nn_data_address(t), base = first ? first - (uintptr_t)t->offset * item : 0;
    uintptr_t begin = base + (uintptr_t)t->offset * item;
    uintptr_t end = n ? begin + n * item : begin;
    bool complete = begin == base && n * item == t->storage->nbytes;
    nn_object *k = nn_int_new((int64_t)(t->storage->nbytes ? base : 0)), *b = nn_int_new((int64_t)begin);
    nn_object *e = nn_int_new((int64_t)end), *c = nn_bool_new(complete);
    nn_object *r = k && b && e && c ? nn_tuple_pack(4, k, b, e, c) : NULL;
    NN_RELEASE(k);
    NN_RELEASE(b);
    NN_RELEASE(e);
    NN_RELEASE(c);
    return r;
}

static const repl_mod_fn helpers[] = {
    {"_load", h_load, NULL},
    {"_save", h_save, NULL},
    {"_storage", h_storage, NULL},
};

/* source: begin */
static const char source[] =
    "# safetensors and safetensors.torch, written in the language on core's\n"
    "# safetensors code (_load, _save): save_file, load_file, save, load,\n"
    "# save_model, load_model and safe_open, with the library's key order, checks\n"
    "# and messages.\n"
    "import torch\n"
    "\n"
    "\n"
    "class SafetensorError(Exception):\n"
    "    pass\n"
    "\n"
    "\n"
    "# core's reasons as the library words them (its SafeTensorError's Display), where they match\n"
    "_REASONS = [('bytes allowed', 'header too large'), ('for the 8-byte header length', 'header too small'),\n"
    "            ('goes past the end of the data', 'invalid header length'),\n"
    "            ('follow the last tensor', 'incomplete metadata, file not fully covered'),\n"
    "            ('the data is truncated', 'incomplete metadata, file not fully covered')]\n"
    "\n"
    "\n"
    "def _read(filename):\n"
    "    try:\n"
    "        return _load(str(filename))\n"
    "    except RuntimeError as e:\n"
    "        reason = str(e)\n"
    "        for part, said in _REASONS:\n"
    "            if part in reason:\n"
    "                reason = said\n"
    "        raise SafetensorError('Error while deserializing header: ' + reason)\n"
    "\n"
    "\n"
    "class safe_open:\n"
    "    def __init__(self, filename, framework, device='cpu'):\n"
    "        if framework not in ('pt', 'torch', 'pytorch', 'numpy', 'np'):\n"
    "            raise SafetensorError('framework {} is invalid'.format(framework))\n"
    "        self._tensors, self._metadata = _read(filename)\n"
    "        self._device = device\n"
    "\n"
    "    def __enter__(self):\n"
    "        return self\n"
    "\n"
    "    def __exit__(self, *args):\n"
    "        return False\n"
    "\n"
    "    def keys(self):\n"
    "        return sorted(self._tensors.keys())\n"
    "\n"
    "    def offset_keys(self):\n"
    "        return list(self._tensors.keys())\n"
    "\n"
    "    def metadata(self):\n"
    "        return self._metadata\n"
    "\n"
    "    def get_tensor(self, name):\n"
    "        if name not in self._tensors:\n"
    "            raise SafetensorError('File does not contain tensor {}'.format(name))\n"
    "        t = self._tensors[name].clone()\n"
    "        return t if self._device == 'cpu' else t.to(self._device)\n"
    "\n"
    "    def get_tensors(self):\n"
    "        return {k: self.get_tensor(k) for k in self.offset_keys()}\n";
static const char torch_source[] =
    "# safetensors.torch, written in the language (see the module safetensors).\n"
    "import torch\n"
    "from collections import defaultdict\n"
    "from safetensors import safe_open, SafetensorError, _save, _storage\n"
    "\n"
    "\n"
    "def _evaluate_tensors_for_save(tensors):\n"
    "    if not isinstance(tensors, dict):\n"
    "        raise ValueError('Expected a dict of [str, torch.Tensor] but received {}'.format(type(tensors)))\n"
    "    for k, v in tensors.items():\n"
    "        if not isinstance(v, torch.Tensor):\n"
    "            raise ValueError('Key `{}` is invalid, expected torch.Tensor but received {}'.format(k, type(v)))\n"
    "    failing = [names for names in _find_shared_tensors(tensors) if len(names) > 1]\n"
    "    if failing:\n"
    "        raise RuntimeError('\\n            Some tensors share memory, this will lead to duplicate memory on disk and '\n"
    "                           'potential differences when loading them again: {}.\\n            A potential way to '\n"
    "                           'correctly save your model is to use `save_model`.\\n            More information at '\n"
    "                           'https://huggingface.co/docs/safetensors/torch_shared_tensors\\n            '.format(failing))\n"
    "    for k, v in tensors.items():\n"
    "        if not isinstance(k, str):\n"
    "            raise TypeError(\"argument 'tensor_dict': 'int' object cannot be converted to 'PyString'\")\n"
    "        if not v.is_contiguous():\n"
    "            raise ValueError('You are trying to save a non contiguous tensor: `{}` which is not allowed. It either '\n"
    "                             'means you are trying to save tensors which are reference of each other in which case '\n"
    "                             \"it's recommended to save only the full tensors, and reslice at load time, or simply \"\n"
    "                             'call `.contiguous()` on your tensor to pack it before saving.'.format(k))\n"
    "\n"
    "\n"
    "def _find_shared_tensors(state_dict):\n"
    "    # names grouped by storage, then split where their byte ranges do not overlap\n"
    "    groups = defaultdict(list)\n"
    "    for k, v in state_dict.items():\n"
    "        key, begin, end, complete = _storage(v)\n"
    "        if key != 0 and end > begin:\n"
    "            groups[key].append(k)\n"
    "    result = []\n"
    "    for names in groups.values():\n"
    "        if len(names) < 2:\n"
    "            result.append(set(names))\n"
    "            continue\n"
    "        areas = sorted((_storage(state_dict[n])[1], _storage(state_dict[n])[2], n) for n in names)\n"
    "        _, last_stop, last_name = areas[0]\n"
    "        result.append({last_name})\n"
    "        for start, stop, name in areas[1:]:\n"
    "            if start >= last_stop:\n"
    "                result.append({name})\n"
    "            else:\n"
    "                result[-1].add(name)\n"
    "            last_stop = stop\n"
    "    return result\n"
    "\n"
    "\n"
    "def _remove_duplicate_names(state_dict, *, preferred_names=None, discard_names=None):\n"
    "    preferred_names = set(preferred_names or [])\n"
    "    discard_names = set(discard_names or [])\n"
    "    to_remove = defaultdict(list)\n"
    "    for shared in _find_shared_tensors(state_dict):\n"
    "        complete = set(name for name in shared if _storage(state_dict[name])[3])\n"
    "        if not complete:\n"
    "            raise RuntimeError('Error while trying to find names to remove to save state dict, but found no suitable '\n"
    "                               'name to keep for saving amongst: {}. None is covering the entire storage.Refusing to '\n"
    "                               'save/load the model since you could be storing much more memory than needed. Please '\n"
    "                               'refer to https://huggingface.co/docs/safetensors/torch_shared_tensors for more '\n"
    "                               'information. Or open an issue.'.format(shared))\n"
    "        keep_name = sorted(complete)[0]\n"
    "        preferred = complete.difference(discard_names)\n"
    "        if preferred:\n"
    "            keep_name = sorted(preferred)[0]\n"
    "        if preferred_names:\n"
    "            preferred = preferred_names.intersection(complete)\n"
    "            if preferred:\n"
    "                keep_name = sorted(preferred)[0]\n"
    "        for name in sorted(shared):\n"
    "            if name != keep_name:\n"
    "                to_remove[keep_name].append(name)\n"
    "    return to_remove\n"
    "\n"
    "\n"
    "def save_file(tensors, filename, metadata=None):\n"
    "    _evaluate_tensors_for_save(tensors)\n"
    "    # the library moves a tensor on another device to the CPU to write it\n"
    "    _save({k: v if v.device.type == 'cpu' else v.cpu() for k, v in tensors.items()}, str(filename), metadata)\n"
    "\n"
    "\n"
    "\n"
    "def load_file(filename, device='cpu'):\n"
    "    with safe_open(filename, framework='pt', device=device) as f:\n"
    "        return f.get_tensors()\n"
    "\n"
    "\n"
    "\n"
    "def save_model(model, filename, metadata=None, force_contiguous=True):\n"
    "    state_dict = model.state_dict()\n"
    "    for kept_name, names in _remove_duplicate_names(state_dict).items():\n"
    "        for name in names:\n"
    "            if metadata is None:\n"
    "                metadata = {}\n"
    "            if name not in metadata:\n"
    "                metadata[name] = kept_name\n"
    "            del state_dict[name]\n"
    "    if force_contiguous:\n"
    "        state_dict = {k: v.contiguous() for k, v in state_dict.items()}\n"
    "    try:\n"
    "        save_file(state_dict, filename, metadata=metadata)\n"
    "    except ValueError as e:\n"
    "        raise ValueError(str(e) + ' Or use save_model(..., force_contiguous=True), read the docs for potential caveats.')\n"
    "\n"
    "\n"
    "def load_model(model, filename, strict=True, device='cpu'):\n"
    "    state_dict = load_file(filename, device=device)\n"
    "    to_removes = _remove_duplicate_names(model.state_dict(), preferred_names=state_dict.keys())\n"
    "    missing, unexpected = model.load_state_dict(state_dict, strict=False)\n"
    "    missing = set(missing)\n"
    "    unexpected = list(unexpected)\n"
    "    for names in to_removes.values():\n"
    "        for name in names:\n"
    "            if name not in missing:\n"
    "                unexpected.append(name)\n"
    "            else:\n"
    "                missing.remove(name)\n"
    "    if strict and (missing or unexpected):\n"
    "        missing_keys = ', '.join(['\"{}\"'.format(k) for k in sorted(missing)])\n"
    "        unexpected_keys = ', '.join(['\"{}\"'.format(k) for k in sorted(unexpected)])\n"
    "        error = 'Error(s) in loading state_dict for {}:'.format(type(model).__name__)\n"
    "        if missing:\n"
    "            error += '\\n    Missing key(s) in state_dict: {}'.format(missing_keys)\n"
    "        if unexpected:\n"
    "            error += '\\n    Unexpected key(s) in state_dict: {}'.format(unexpected_keys)\n"
    "        raise RuntimeError(error)\n"
    "    return missing, unexpected\n";
/* source: end */

nn_object *repl_mod_safetensors(void)
{
    return repl_mod_from_source("safetensors", helpers, sizeof helpers / sizeof *helpers, source);
}

nn_object *repl_mod_safetensors_torch(void)
{
    return repl_mod_from_source("safetensors.torch", NULL, 0, torch_source);
}
