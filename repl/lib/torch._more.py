# Small torch functions that real scripts use, written in the language over nnscope's
# built-in ops as PyTorch 1.13 defines them: set_default_tensor_type, broadcast_shapes,
# broadcast_tensors, block_diag, cartesian_prod, combinations, tril_indices, triu_indices,
# concat/concatenate, isin, argwhere, inner, vdot, tensor_split, hsplit, vsplit, vander, gradient,
# logaddexp2, signbit, nanmedian, index_put/index_put_ (also as Tensor methods); and
# torch.nn.functional's relu_, elu_, leaky_relu_, hardtanh_.
# Gradients flow through the ops they are made of (block_diag's grad_fn is CopySlices,
# not PyTorch's BlockDiagBackward0).
import itertools
import torch


def set_default_tensor_type(t):
    # PyTorch's: a name is imported as a dotted path first
    if isinstance(t, str):
        if t.startswith("torch.cuda."):
            raise TypeError("type {} not available. Torch not compiled with CUDA enabled.".format(t))
        parts = t.split(".")
        if parts[0] != "torch":
            raise ModuleNotFoundError("No module named '{}'".format(parts[0]))
        t = torch
        for part in parts[1:]:
            t = getattr(t, part)
    torch._set_default_tensor_type(t)


def is_floating_point(input):
    return input.is_floating_point()


def broadcast_shapes(*shapes):
    out = []
    for shape in shapes:
        if isinstance(shape, int):
            shape = (shape,)
        shape = list(shape)
        n = max(len(out), len(shape))
        out = [1] * (n - len(out)) + out
        shape = [1] * (n - len(shape)) + shape
        for i in range(n):
            if shape[i] < 0:
                raise RuntimeError("Trying to create tensor with negative dimension {}: {}".format(shape[i], shape))
            if out[i] == 1:
                out[i] = shape[i]
            elif shape[i] != 1 and shape[i] != out[i]:
                raise RuntimeError("Shape mismatch: objects cannot be broadcast to a single shape")
    return torch.Size(out)


def broadcast_tensors(*tensors):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    shape = broadcast_shapes(*[t.shape for t in tensors])
    return tuple(t if t.shape == shape else t.expand(shape) for t in tensors)


def _as_2d(t):
    if t.dim() == 0:
        return t.reshape(1, 1)
    if t.dim() == 1:
        return t.reshape(1, -1)
    if t.dim() == 2:
        return t
    raise RuntimeError("torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {} has {} dimensions".format(0, t.dim()))


def block_diag(*tensors):
    for i, t in enumerate(tensors):
        if t.dim() > 2:
            raise RuntimeError("torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {} has {} dimensions".format(i, t.dim()))
    mats = [_as_2d(t) for t in tensors]
    if not mats:
        return torch.empty(1, 0)
    dtype = mats[0].dtype
    for m in mats[1:]:
        dtype = torch.promote_types(dtype, m.dtype)
    rows = sum(m.shape[0] for m in mats)
    cols = sum(m.shape[1] for m in mats)
    out = torch.zeros(rows, cols, dtype=dtype)
    r = 0
    c = 0
    for m in mats:
        out[r:r + m.shape[0], c:c + m.shape[1]] = m
        r += m.shape[0]
        c += m.shape[1]
    return out


def cartesian_prod(*tensors):
    for t in tensors:
        if t.dim() != 1:
            raise RuntimeError("Expect a 1D vector, but got shape {}".format(list(t.shape)))
    if len(tensors) == 1:
        return tensors[0]
    grids = torch.meshgrid(*tensors, indexing="ij")
    return torch.stack([g.flatten() for g in grids], 1)


def combinations(input, r=2, with_replacement=False):
    if input.dim() != 1:
        raise RuntimeError("Expect a 1D vector, but got shape {}".format(list(input.shape)))
    if r < 0:
        raise RuntimeError("Expect a non-negative number, but got {}".format(r))
    if r == 0:
        return torch.empty(0, dtype=input.dtype)
    n = input.shape[0]
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    idx = list(pick(range(n), r))
    if not idx:
        return torch.empty(0, r, dtype=input.dtype)
    return input[torch.tensor(idx)]


def _tri_indices(row, col, offset, lower, dtype):
    rows = []
    cols = []
    for i in range(row):
        for j in range(col):
            if (j - i <= offset) if lower else (j - i >= offset):
                rows.append(i)
                cols.append(j)
    return torch.tensor([rows, cols], dtype=dtype).reshape(2, len(rows))


def tril_indices(row, col, offset=0, dtype=torch.long, device=None, layout=None):
    return _tri_indices(row, col, offset, True, dtype)


def triu_indices(row, col, offset=0, dtype=torch.long, device=None, layout=None):
    return _tri_indices(row, col, offset, False, dtype)


def concat(tensors, dim=0, out=None):
    return torch.cat(tensors, dim)


def concatenate(tensors, axis=0, out=None):
    return torch.cat(tensors, axis)


def isin(elements, test_elements, assume_unique=False, invert=False):
    if not isinstance(elements, torch.Tensor):
        elements = torch.tensor(elements)
    if not isinstance(test_elements, torch.Tensor):
        test_elements = torch.tensor(test_elements)
    hit = (elements.unsqueeze(-1) == test_elements.flatten()).any(-1)
    return hit.logical_not() if invert else hit


def argwhere(input):
    return torch.nonzero(input)


def inner(input, other):
    if input.dim() == 0 or other.dim() == 0:
        return input * other
    if input.shape[-1] != other.shape[-1]:
        raise RuntimeError("inner() the last dimension must match on both input tensors but got shapes {} and {}".format(list(input.shape), list(other.shape)))
    n = input.shape[-1]
    out = input.reshape(-1, n).matmul(other.reshape(-1, n).t())
    return out.reshape(list(input.shape[:-1]) + list(other.shape[:-1]))


def vdot(input, other):
    if input.dim() != 1 or other.dim() != 1:
        raise RuntimeError("1D tensors expected, but got {}D and {}D tensors".format(input.dim(), other.dim()))
    if input.dtype != other.dtype:
        raise RuntimeError("dot : expected both vectors to have same dtype, but found {} and {}".format(
            _scalar_name(input.dtype), _scalar_name(other.dtype)))
    return torch.dot(input, other)


def _scalar_name(dtype):
    names = {torch.float32: "Float", torch.float64: "Double", torch.int64: "Long", torch.int32: "Int",
             torch.float16: "Half", torch.bool: "Bool", torch.int16: "Short", torch.int8: "Char",
             torch.uint8: "Byte"}
    return names.get(dtype, str(dtype))


def tensor_split(input, indices_or_sections, dim=0):
    size = input.shape[dim]
    if isinstance(indices_or_sections, torch.Tensor):
        indices_or_sections = indices_or_sections.tolist()
    if isinstance(indices_or_sections, int):
        k = indices_or_sections
        if k <= 0:
            raise RuntimeError("number of sections must be larger than 0, got {}".format(k))
        q = size // k
        extra = size % k
        bounds = []
        start = 0
        for i in range(k):
            n = q + 1 if i < extra else q
            bounds.append((start, n))
            start += n
    else:
        bounds = []
        start = 0
        for idx in list(indices_or_sections) + [size]:
            a = min(max(start, 0), size)
            b = min(max(idx, a), size)
            bounds.append((a, b - a))
            start = idx
    return tuple(input.narrow(dim, a, n) for a, n in bounds)


def _split_at(name, input, indices_or_sections, dim):
    if isinstance(indices_or_sections, int):
        size = input.shape[dim]
        if indices_or_sections == 0 or size % indices_or_sections != 0:
            raise RuntimeError("torch.{} attempted to split along dimension {}, but the size of the dimension {} is not divisible by the split_size {}!".format(
                name, dim, size, indices_or_sections))
    return tensor_split(input, indices_or_sections, dim)


def hsplit(input, indices_or_sections):
    if input.dim() < 1:
        raise RuntimeError("torch.hsplit requires a tensor with at least 1 dimension, but got a tensor with {} dimensions!".format(input.dim()))
    return _split_at("hsplit", input, indices_or_sections, 0 if input.dim() == 1 else 1)


def vsplit(input, indices_or_sections):
    if input.dim() < 2:
        raise RuntimeError("torch.vsplit requires a tensor with at least 2 dimension, but got a tensor with {} dimensions!".format(input.dim()))
    return _split_at("vsplit", input, indices_or_sections, 0)


def relu_(input):
    return input.relu_()


def elu_(input, alpha=1.0):
    return torch.nn.functional.elu(input, alpha, inplace=True)


def leaky_relu_(input, negative_slope=0.01):
    return torch.nn.functional.leaky_relu(input, negative_slope, inplace=True)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    return torch.nn.functional.hardtanh(input, min_val, max_val, inplace=True)


def vander(x, N=None, increasing=False):
    # ATen's vander: ones, then the cumulative products of x (long for integer x), flipped unless increasing
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.size(0)
    if N is not None:
        n = N
        if n < 0:
            raise RuntimeError("N must be non-negative.")
    dtype = torch.promote_types(x.dtype, torch.long)
    result = torch.empty((x.size(0), n), dtype=dtype)
    if n > 0:
        result.select(1, 0).fill_(1)
        if n > 1:
            result[:, 1:].copy_(x.unsqueeze(1))
            result[:, 1:].copy_(torch.cumprod(result[:, 1:], 1))
    return result if increasing else torch.flip(result, [1])


def _gradient_dims(input, spacing, dim, edge_order):
    if dim is None:
        dims = list(range(input.dim()))
    elif isinstance(dim, int):
        dims = [dim]
    else:
        dims = list(dim)
    if isinstance(spacing, (list, tuple)) and dim is None and len(spacing) != input.dim():
        raise RuntimeError("torch.gradient expected spacing to be unspecified, a scalar or a list of length {} but "
                           "got a list of length {}".format(input.dim(), len(spacing)))
    if isinstance(spacing, (list, tuple)) and len(spacing) != len(dims):
        raise RuntimeError("torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim "
                           "arguments to have the same length, but got a spacing argument of length {} and a dim "
                           "argument of length {}.".format(len(spacing), len(dims)))
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    for d in dims:
        if input.size(d) < edge_order + 1:
            raise RuntimeError("torch.gradient expected each dimension size to be at least edge_order+1")
    return [d % input.dim() for d in dims]


def gradient(input, *, spacing=1, dim=None, edge_order=1):
    # ATen's gradient: central differences inside, one-sided (edge_order 1 or 2) at the ends; spacing a
    # number, one number per dim, or one coordinate tensor per dim
    dims = _gradient_dims(input, spacing, dim, edge_order)
    if not isinstance(spacing, (list, tuple)):
        spacing = [spacing] * len(dims)
    out = []
    for d, h in zip(dims, spacing):
        n = input.size(d)
        def part(start, stop=None):
            stop = n if stop is None else (stop if stop >= 0 else n + stop)
            start = start if start >= 0 else n + start
            return input.narrow(d, start, stop - start)
        if isinstance(h, torch.Tensor) and h.dim() == 1:
            dx = h.diff(1, 0)
            shape = [1] * input.dim()
            shape[d] = -1
            dx1, dx2 = dx[:-1], dx[1:]
            a = (-dx2 / (dx1 * (dx1 + dx2))).reshape(shape)
            b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape)
            c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape)
            center = a * part(0, -2) + b * part(1, -1) + c * part(2)
            if edge_order == 1:
                prepend = (part(1, 2) - part(0, 1)) / dx[0]
                append = (part(-1) - part(-2, -1)) / dx[-1]
            else:
                a = -(2.0 * dx[0] + dx[1]) / (dx[0] * (dx[0] + dx[1]))
                b = (dx[0] + dx[1]) / (dx[0] * dx[1])
                c = (-dx[0]) / (dx[1] * (dx[0] + dx[1]))
                prepend = a * part(0, 1) + b * part(1, 2) + c * part(2, 3)
                a = dx[-1] / (dx[-2] * (dx[-1] + dx[-2]))
                b = -(dx[-1] + dx[-2]) / (dx[-1] * dx[-2])
                c = (2 * dx[-1] + dx[-2]) / (dx[-1] * (dx[-1] + dx[-2]))
                append = a * part(-3, -2) + b * part(-2, -1) + c * part(-1)
        else:
            if isinstance(h, torch.Tensor):
                h = h.item()
            center = (part(2) - part(0, -2)) / h / 2
            if edge_order == 1:
                prepend = (part(1, 2) - part(0, 1)) / h
                append = (part(-1) - part(-2, -1)) / h
            else:
                prepend = (part(0, 1) * -1.5 + part(1, 2) * 2 - part(2, 3) * 0.5) / h
                append = (part(-3, -2) * 0.5 + part(-2, -1) * -2 + part(-1) * 1.5) / h
        out.append(torch.cat([prepend, center, append], d))
    return tuple(out)


def logaddexp2(input, other):
    # ATen's: max + log2(1 + 2 ** -|a - b|), and a itself where both are the same infinity
    m = torch.maximum(input, other)
    d = -(input - other).abs()
    r = m + torch.log2(1 + torch.full_like(d, 2.).pow(d))
    return torch.where(torch.isinf(input) & (input == other), input, r)


def signbit(input):
    if input.is_floating_point():
        return torch.copysign(torch.ones_like(input), input) < 0
    return input < 0


def nanmedian(input, dim=None, keepdim=False):
    # the lower median of the values that are not NaN (NaN when there are none)
    if dim is None:
        flat = input.reshape(-1)
        kept = flat[~torch.isnan(flat)]
        if kept.numel() == 0:
            return torch.tensor(float('nan'), dtype=input.dtype)
        return kept.median()
    if not torch.isnan(input).any():
        return torch.return_types.nanmedian(torch.median(input, dim, keepdim))
    values, indices = torch.sort(input, dim)  # NaN last
    k = (~torch.isnan(input)).sum(dim, keepdim=True)
    pos = ((k - 1).clamp(min=0)) // 2
    v, i = values.gather(dim, pos), indices.gather(dim, pos)
    v = torch.where(k == 0, torch.full_like(v, float('nan')), v)
    if not keepdim:
        v, i = v.squeeze(dim), i.squeeze(dim)
    return torch.return_types.nanmedian((v, i))


def index_put_(input, indices, values, accumulate=False):
    indices = tuple(indices)
    if not accumulate:
        input[indices] = values
        return input
    shape = torch.broadcast_shapes(*[i.shape for i in indices])
    lead = input.shape[:len(indices)]
    flat = torch.zeros(shape, dtype=torch.long)
    for i, n in zip(indices, lead):
        flat = flat * n + torch.where(i < 0, i + n, i).expand(shape)
    rest = input.shape[len(indices):]
    input.view((-1,) + tuple(rest)).index_add_(0, flat.reshape(-1), values.expand(tuple(shape) + tuple(rest))
                                               .reshape((-1,) + tuple(rest)))
    return input


def index_put(input, indices, values, accumulate=False):
    return index_put_(input.clone(), indices, values, accumulate)
