# torch.frombuffer as PyTorch 1.13's: a 1-d tensor over an object's buffer (bytes, bytearray,
# memoryview, array.array), count elements of dtype from offset bytes, sharing a writable buffer's
# memory (writes through the tensor reach the bytearray and back); a read-only buffer gives 1.13's
# warning, once. torch._nnscope_frombuffer does the checks and the tensor.
import warnings
import torch

_MISSING = object()
_warned = [False]


def _buffer_of(obj):
    # (the bytes or bytearray holding the memory, its first byte, the length in bytes, writable)
    if isinstance(obj, bytearray):
        return obj, 0, len(obj), True
    if isinstance(obj, bytes):
        return obj, 0, len(obj), False
    if isinstance(obj, memoryview):
        if not obj.contiguous:
            raise RuntimeError("could not retrieve buffer from object")
        return obj._obj, obj._start, obj.nbytes, not obj.readonly
    if type(obj).__name__ == 'array' and type(obj).__module__ == 'array':
        return obj._data, 0, len(obj._data), True
    raise ValueError("object does not implement Python buffer protocol.")


def frombuffer(*args, dtype=_MISSING, count=-1, offset=0, requires_grad=False):
    if len(args) > 1:
        raise TypeError("frombuffer() takes from 2 to 1 positional arguments but {} were given".format(len(args)))
    if not args:
        raise TypeError('frombuffer() missing 1 required positional arguments: "buffer"')
    if dtype is _MISSING:
        raise TypeError('frombuffer() missing 1 required positional arguments: "dtype"')
    obj, start, length, writable = _buffer_of(args[0])
    if not writable and not _warned[0]:
        _warned[0] = True
        warnings.warn("The given buffer is not writable, and PyTorch does not support non-writable tensors. This means "
                      "you can write to the underlying (supposedly non-writable) buffer using the tensor. You may want "
                      "to copy the buffer to protect its data or make it writable before converting it to a tensor. "
                      "This type of warning will be suppressed for the rest of this program. (Triggered internally at  "
                      "./torch/csrc/utils/tensor_new.cpp:1563.)", UserWarning, stacklevel=2)
    t = torch._nnscope_frombuffer(obj, start, length, dtype, count, offset)
    if requires_grad:
        t.requires_grad_(True)
    return t
