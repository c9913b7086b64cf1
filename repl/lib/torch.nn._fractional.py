# nn.FractionalMaxPool2d/3d and F.fractional_max_pool2d/3d (Graham, "Fractional Max-Pooling"), written in
# the language as PyTorch 1.13 computes them: the samples drawn as torch.rand(N, C, 2 or 3) of the
# input's dtype when none are given, each window's start from ATen's interval rule in the input's
# float type (alpha = (in - k) / (out - 1); start_i = int((i + u) * alpha) - int(u * alpha), the last
# one in - k), the first maximum of each window in row-major order and its flat index in the plane.
# The windows are gathered through index arithmetic, so gradients flow through gather; the node is
# named FractionalMaxPool2DBackward0 / 3DBackward0 as PyTorch's.
import torch
from torch import nn
from torch.nn.modules.utils import _pair, _triple


def _starts(u, size, out, k, dtype):
    # u: the samples of one spatial dim, shape (N, C); the window starts, shape (N, C, out)
    last = torch.full(tuple(u.shape) + (1,), size - k, dtype=torch.long) if out > 0 else None
    if out <= 1:
        return last if out == 1 else torch.zeros(tuple(u.shape) + (0,), dtype=torch.long)
    alpha = torch.tensor(size - k, dtype=dtype) / torch.tensor(out - 1, dtype=dtype)
    i = torch.arange(out - 1, dtype=dtype)
    u = u.unsqueeze(-1)
    first = ((i + u) * alpha).long() - (u * alpha).long()
    return torch.cat([first, last], -1)


def _pool(nd, input, kernel_size, output_size, output_ratio, _random_samples):
    name = 'fractional_max_pool{}d'.format(nd)
    tuple_of = _pair if nd == 2 else _triple
    if output_size is None and output_ratio is None:
        raise ValueError(name + " requires specifying either an output_size or an output_ratio")
    if output_size is None:
        ratio = tuple_of(output_ratio)
        output_size = [int(input.size(d - nd) * ratio[d]) for d in range(nd)]
    if _random_samples is None:
        n = 1 if input.dim() == nd + 1 else input.size(0)
        _random_samples = torch.rand(n, input.size(-nd - 1), nd, dtype=input.dtype)
    ks = tuple_of(kernel_size)
    outs = tuple_of(output_size)
    if len(ks) != nd or any(not isinstance(k, int) for k in ks):
        raise RuntimeError("{}: kernel_size must either be a single Int or tuple of Ints".format(name))
    if len(outs) != nd or any(not isinstance(o, int) for o in outs):
        raise RuntimeError("{}: output_size must either be a single Int or tuple of Ints".format(name))
    if input.dim() not in (nd + 1, nd + 2):
        raise RuntimeError("{}(): Expected {}D or {}D tensor, but got: {}".format(
            name, nd + 1, nd + 2, list(input.shape)))
    for d in range(1, input.dim()):
        if input.size(d) == 0:
            raise RuntimeError("{}(): Expected input to have non-zero size for non-batch dimensions, but got{} "
                               "with dimension {} being empty.".format(name, list(input.shape), d))
    if not input.is_floating_point():
        raise RuntimeError('"{}_out_frame" not implemented for \'{}\''.format(
            name if nd == 2 else 'fractional_max_pool3d', _type_name(input.dtype)))
    if _random_samples.dtype != input.dtype:
        raise RuntimeError("expected scalar type {} but found {}".format(
            _type_name(input.dtype), _type_name(_random_samples.dtype)))
    sizes = list(input.shape[-nd:])
    words = ['height', 'width'] if nd == 2 else ['time', 'height', 'width']
    for d in range(nd):
        if (outs[d] + ks[d] - 1 > sizes[d]) if nd == 2 else (outs[d] + ks[d] - 1 >= sizes[d]):
            raise RuntimeError("{}(): pool {} {} too large relative to input {} {}".format(
                name if nd == 2 else 'fractional_max_pool3d_out', words[d], ks[d], words[d], sizes[d]))
    batched = input.dim() == nd + 2
    x = input if batched else input.unsqueeze(0)
    N, C = x.size(0), x.size(1)
    samples = _random_samples[:N, :C]
    # ATen's sample order: 2-d takes sample 0 for the width and 1 for the height, 3-d 0/1/2 for t/h/w
    which = [1, 0] if nd == 2 else [0, 1, 2]
    calc = torch.float32 if input.dtype in (torch.float16, torch.bfloat16) else input.dtype
    # flat in-plane index of every window element: shape (N, C, *outs, *ks)
    idx = torch.zeros((N, C) + (1,) * (2 * nd), dtype=torch.long)
    stride = 1
    for d in reversed(range(nd)):
        st = _starts(samples[:, :, which[d]].to(calc), sizes[d], outs[d], ks[d], calc)
        st = st.reshape((N, C) + tuple(outs[d] if e == d else 1 for e in range(nd)) + (1,) * nd)
        off = torch.arange(ks[d]).reshape(tuple(ks[d] if e == d else 1 for e in range(nd)))
        idx = idx + (st + off) * stride
        stride *= sizes[d]
    idx = idx.expand((N, C) + tuple(outs) + tuple(ks)).reshape(N, C, -1)
    window = 1
    for k in ks:
        window *= k
    vals = x.reshape(N, C, -1).gather(2, idx).reshape((N, C) + tuple(outs) + (window,))
    out, arg = vals.max(-1)
    indices = idx.reshape((N, C) + tuple(outs) + (window,)).gather(-1, arg.unsqueeze(-1)).squeeze(-1)
    if not batched:
        out, indices = out.squeeze(0), indices.squeeze(0)
    torch._nnscope_name_grad_fn(out, 'FractionalMaxPool{}DBackward0'.format(nd), input)
    return out, indices


def _type_name(dtype):
    return {torch.float32: 'Float', torch.float64: 'Double', torch.float16: 'Half', torch.bfloat16: 'BFloat16',
            torch.int64: 'Long', torch.int32: 'Int', torch.int16: 'Short', torch.int8: 'Char', torch.uint8: 'Byte',
            torch.bool: 'Bool'}.get(dtype, str(dtype))


def _functional(nd, with_indices):
    def fractional_max_pool(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                            _random_samples=None):
        r = _pool(nd, input, kernel_size, output_size, output_ratio, _random_samples)
        return r if with_indices or return_indices else r[0]

    fractional_max_pool.__name__ = 'fractional_max_pool{}d{}'.format(nd, '_with_indices' if with_indices else '')
    fractional_max_pool.__qualname__ = fractional_max_pool.__name__
    return fractional_max_pool


fractional_max_pool2d = _functional(2, False)
fractional_max_pool2d_with_indices = _functional(2, True)
fractional_max_pool3d = _functional(3, False)
fractional_max_pool3d_with_indices = _functional(3, True)


class _FractionalMaxPoolNd(nn.Module):
    _nd = 2

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                 _random_samples=None):
        super().__init__()
        nd = self._nd
        tuple_of = _pair if nd == 2 else _triple
        self.kernel_size = tuple_of(kernel_size)
        self.return_indices = return_indices
        self.register_buffer('_random_samples', _random_samples)
        self.output_size = tuple_of(output_size) if output_size is not None else None
        self.output_ratio = tuple_of(output_ratio) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError("FractionalMaxPool{}d requires specifying either an output size, or a pooling ratio"
                             .format(nd))
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None and not all(0 < r < 1 for r in self.output_ratio):
            raise ValueError("output_ratio must be between 0 and 1 (got {})".format(output_ratio))

    def forward(self, input):
        return _functional(self._nd, False)(input, self.kernel_size, self.output_size, self.output_ratio,
                                            self.return_indices, self._random_samples)


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    __module__ = 'torch.nn.modules.pooling'
    _nd = 2


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    __module__ = 'torch.nn.modules.pooling'
    _nd = 3
