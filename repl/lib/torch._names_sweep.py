# torch functions and Tensor methods of PyTorch 1.13 that nnscope lacked (the sweep of dir(torch)
# against dir of 1.13's), written in the language over what nnscope computes, with 1.13's
# messages: adjoint, cdouble, cfloat, is_neg, resolve_neg, empty_strided / new_empty_strided,
# fill, detach_, split_with_sizes, cholesky_inverse, nuclear_norm, frobenius_norm, narrow_copy,
# as_strided_scatter, get_num_interop_threads / set_num_interop_threads, set_warn_always /
# is_warn_always_enabled. torch._aliases lists them.
import torch

_state = {"interop": None, "warn_always": False}


def adjoint(input):
    if input.dim() < 2:
        raise RuntimeError("tensor.adjoint() is only supported on matrices or batches of matrices. Got "
                           "{}-D tensor.".format(input.dim()))
    return input.transpose(-2, -1).conj()


def cdouble(self, memory_format=torch.preserve_format):
    return self.to(torch.complex128)


def cfloat(self, memory_format=torch.preserve_format):
    return self.to(torch.complex64)


def is_neg(input):
    return False


def resolve_neg(input):
    return input




def _strided_numel(size, stride):
    if any(s == 0 for s in size):
        return 0
    return 1 + sum((s - 1) * st for s, st in zip(size, stride))


def empty_strided(size, stride, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    t = torch.empty(_strided_numel(size, stride), dtype=dtype, device=device).as_strided(size, stride)
    return t.requires_grad_() if requires_grad else t


def new_empty_strided(self, size, stride, *, dtype=None, layout=None, device=None, requires_grad=False,
                      pin_memory=False):
    return empty_strided(size, stride, dtype=self.dtype if dtype is None else dtype, requires_grad=requires_grad)


def fill(input, value):
    return torch.full_like(input, value)


def detach_(input):
    return input.detach_()


def split_with_sizes(self, split_sizes, dim=0):
    sizes = list(split_sizes)
    if sum(sizes) != self.size(dim):
        raise RuntimeError("split_with_sizes expects split_sizes to sum exactly to {} (input tensor's size at dimension "
                           "{}), but got split_sizes={}".format(self.size(dim), dim, sizes))
    return self.split(sizes, dim)


def cholesky_inverse(input, upper=False, *, out=None):
    n = input.size(-1)
    eye = torch.eye(n, dtype=input.dtype).expand(input.shape)
    r = torch.cholesky_solve(eye, input, upper)
    if out is not None:
        out.resize_(r.shape).copy_(r)
        return out
    return r






def nuclear_norm(input, dim=None, keepdim=False, *, out=None):
    if isinstance(dim, bool):  # nuclear_norm(input, keepdim)
        dim, keepdim = None, dim
    r = torch.linalg.matrix_norm(input, 'nuc', dim=(-2, -1) if dim is None else dim, keepdim=keepdim)
    if out is not None:
        out.resize_(r.shape).copy_(r)
        return out
    return r


def frobenius_norm(input, dim=(-2, -1), keepdim=False, *, out=None):
    r = torch.norm(input, 'fro', dim, keepdim)
    if out is not None:
        out.resize_(r.shape).copy_(r)
        return out
    return r


def narrow_copy(self, dim, start, length):
    return self.narrow(dim, start, length).clone(memory_format=torch.contiguous_format)


def as_strided_scatter(input, src, size, stride, storage_offset=None):
    out = input.clone()
    out.as_strided(size, stride, storage_offset).copy_(src)
    return out


def get_num_interop_threads():
    return torch.get_num_threads() if _state["interop"] is None else _state["interop"]


def set_num_interop_threads(n):
    if _state["interop"] is not None:
        raise RuntimeError("Error: cannot set number of interop threads after parallel work has started or "
                           "set_num_interop_threads called")
    if n <= 0:
        raise RuntimeError("Expected positive number of threads")
    _state["interop"] = n


def set_warn_always(b):
    _state["warn_always"] = bool(b)


def is_warn_always_enabled():
    return _state["warn_always"]


_index_reduce_warned = [False]


def _index_reduce_into(out, dim, index, source, reduce, include_self):
    # PyTorch 1.13's index_reduce: source's slices reduced into out's rows picked by index
    # along dim; the same reduction as scatter_reduce with index spread over source's shape
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError("index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got "
                           "{}.".format(reduce))
    if not _index_reduce_warned[0]:
        _index_reduce_warned[0] = True
        import warnings
        warnings.warn("index_reduce() is in beta and the API may change at any time.", UserWarning, stacklevel=3)
    ndim = out.dim()
    if not -max(ndim, 1) <= dim < max(ndim, 1):
        raise IndexError("Dimension out of range (expected to be in range of [{}, {}], but got {})".format(
            -max(ndim, 1), max(ndim, 1) - 1, dim))
    dim %= max(ndim, 1)
    if index.dim() > 1:
        raise IndexError("index_reduce_(): Index is supposed to be a vector, but got dim: {} with type: {} and "
                         "size: {}".format(index.dim(), _scalar_name(index.dtype), list(index.shape)))
    if index.dtype not in (torch.int64, torch.int32):
        raise RuntimeError("index_reduce_(): Expected dtype int32/int64 for index but got: " + _scalar_name(index.dtype))
    if out.dtype != source.dtype:
        raise RuntimeError("index_reduce_(): self ({}) and source ({}) must have the same scalar type".format(
            _scalar_name(out.dtype), _scalar_name(source.dtype)))
    if dim != 0 and dim >= source.dim():
        raise IndexError("index_reduce_(): Indexing dim {} is out of bounds of the source tensor with dim {}".format(
            dim, source.dim()))
    count = source.size(dim) if source.dim() else 1
    if index.numel() != count:
        raise RuntimeError("index_reduce_(): Number of indices ({}) should be equal to source.size(dim): ({}), for "
                           "dim: {}".format(index.numel(), count, dim))
    own = [s for d, s in enumerate(out.shape) if d != dim]
    theirs = [s for d, s in enumerate(source.shape) if d != dim]
    for i in range(len(own) - 1, -1, -1):
        if i < len(theirs) and own[i] != theirs[i]:
            raise RuntimeError("The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton "
                               "dimension {}".format(own[i], theirs[i], i))
    if index.numel() and not bool(((index >= -out.size(dim)) & (index < out.size(dim))).all()):
        raise IndexError("index out of range in self")
    shape = [1] * source.dim()
    if shape:
        shape[dim] = -1
    spread = (index % out.size(dim)).long().view(shape).expand_as(source)
    return out.scatter_reduce_(dim, spread, source, reduce, include_self=include_self)


def _scalar_name(dtype):
    return {torch.float32: "Float", torch.float64: "Double", torch.float16: "Half", torch.bfloat16: "BFloat16",
            torch.int64: "Long", torch.int32: "Int", torch.int16: "Short", torch.int8: "Char",
            torch.uint8: "Byte", torch.bool: "Bool"}.get(dtype, str(dtype))


def index_reduce(input, dim, index, source, reduce, *, include_self=True, out=None):
    result = _index_reduce_into(input.clone(), dim, index, source, reduce, include_self)
    torch._nnscope_name_grad_fn(result, "IndexReduceBackward0", input, source)
    if out is not None:
        out.resize_(result.shape).copy_(result)
        return out
    return result


def index_reduce_(self, dim, index, source, reduce, *, include_self=True):
    _index_reduce_into(self, dim, index, source, reduce, include_self)
    torch._nnscope_name_grad_fn(self, "IndexReduceBackward0", source)
    return self


def _shift(name, input, other, left, out):
    # an integer shift as arithmetic: x * 2**k (wrapping as the dtype does) or floor(x / 2**k),
    # which is the arithmetic shift of a signed and the logical one of an unsigned dtype; a
    # shift by the width or more gives 0 (or -1 for a negative number shifted right)
    x = input if isinstance(input, torch.Tensor) else torch.as_tensor(input)
    k = other if isinstance(other, torch.Tensor) else torch.as_tensor(other)
    dtype = torch.result_type(input, other)
    if dtype.is_floating_point or dtype.is_complex or dtype == torch.bool:
        kernel = ("lshift_cpu" if left else "rshift_cpu") if dtype != torch.bool else name
        raise RuntimeError('"{}" not implemented for \'{}\''.format(kernel, _scalar_name(dtype)))
    bits = torch.iinfo(dtype).bits
    x, k = x.to(dtype), k.to(torch.int64)
    big = k >= bits
    power = torch.pow(torch.tensor(2, dtype=torch.int64), k.clamp(0, bits - 1))
    if left:
        result = torch.where(big, torch.zeros((), dtype=dtype), (x.to(torch.int64) * power).to(dtype))
    else:
        result = torch.where(big, torch.where(x < 0, -1, 0).to(dtype), torch.div(x.to(torch.int64), power,
                                                                                rounding_mode="floor").to(dtype))
    return result if out is None else out.resize_(result.shape).copy_(result)


def bitwise_left_shift(input, other, *, out=None):
    return _shift("bitwise_left_shift", input, other, True, out)


def bitwise_right_shift(input, other, *, out=None):
    return _shift("bitwise_right_shift", input, other, False, out)


def bitwise_left_shift_(self, other):
    return self.copy_(bitwise_left_shift(self, other))


def bitwise_right_shift_(self, other):
    return self.copy_(bitwise_right_shift(self, other))


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    # PyTorch 1.13's torch.asarray: a tensor or a NumPy array shares its memory unless a
    # dtype or device change (or copy=True) needs a copy; anything else is torch.tensor's
    import numpy
    if isinstance(obj, numpy.generic):  # a NumPy scalar goes through the buffer protocol: 1-d
        obj = numpy.array([obj])
    if isinstance(obj, numpy.ndarray):
        obj = torch.from_numpy(obj)
    if not isinstance(obj, torch.Tensor):
        t = torch.tensor(obj, dtype=dtype, device=device)
    else:
        t = obj
        wrong_dtype = dtype is not None and dtype != t.dtype
        wrong_device = device is not None and torch.device(device) != t.device
        if copy is False and wrong_dtype:
            raise ValueError("can't alias tensor with dtype '{}' into dtype '{}'.".format(
                _scalar_name(t.dtype), _scalar_name(dtype)))
        if copy is False and wrong_device:
            raise ValueError("can't alias tensor on device '{}' into device '{}'.".format(t.device, torch.device(device)))
        if wrong_dtype or wrong_device:
            t = t.to(device=device if device is not None else t.device, dtype=dtype if dtype is not None else t.dtype,
                     copy=bool(copy))
        elif copy:
            t = t.clone()
        if requires_grad and t.requires_grad:
            return t
        t = t.detach()
    if requires_grad:
        if not (t.is_floating_point() or t.is_complex()):
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t.requires_grad_(True)
    return t
