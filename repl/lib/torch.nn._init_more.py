# The torch.nn.init names that the built-in namespace (bind_nn.c, core/init.c) lacks, written in the
# language over the tensor ops as PyTorch 1.13's torch/nn/init.py computes them, so a seeded program
# draws PyTorch's stream: orthogonal_ (a QR of a normal matrix through LAPACK, signs fixed by R's
# diagonal), trunc_normal_ (inverse-CDF sampling of a uniform), eye_, dirac_, sparse_, and the
# deprecated spellings without the trailing underscore, which warn and call the new ones.
import math
import warnings
import torch
from torch.nn import init as _init


def _dims_ok(tensor, ok, message):
    if tensor.ndimension() not in ok:
        raise ValueError(message)


def trunc_normal_(tensor, mean=0., std=1., a=-2., b=2.):
    def norm_cdf(x):
        return (1. + math.erf(x / math.sqrt(2.))) / 2.

    if (mean < a - 2 * std) or (mean > b + 2 * std):
        warnings._warn_from("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
                            "The distribution of values may be incorrect.", UserWarning, 'torch.nn.init',
                            'torch/nn/init.py', 176)  # where PyTorch 1.13 warns
    with torch.no_grad():
        lo = norm_cdf((a - mean) / std)
        hi = norm_cdf((b - mean) / std)
        tensor.uniform_(2 * lo - 1, 2 * hi - 1)
        tensor.erfinv_()
        tensor.mul_(std * math.sqrt(2.))
        tensor.add_(mean)
        tensor.clamp_(min=a, max=b)
        return tensor


def eye_(tensor):
    _dims_ok(tensor, (2,), "Only tensors with 2 dimensions are supported")
    with torch.no_grad():
        tensor.zero_()
        n = min(tensor.size(0), tensor.size(1))
        if n:
            tensor.diagonal().fill_(1)
    return tensor


def dirac_(tensor, groups=1):
    dims = tensor.ndimension()
    _dims_ok(tensor, (3, 4, 5), "Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.size()
    if sizes[0] % groups != 0:
        raise ValueError('dim 0 must be divisible by groups')
    per_group = sizes[0] // groups
    with torch.no_grad():
        tensor.zero_()
        centre = tuple(s // 2 for s in sizes[2:])
        for g in range(groups):
            for d in range(min(per_group, sizes[1])):
                tensor[(g * per_group + d, d) + centre] = 1
    return tensor


def orthogonal_(tensor, gain=1):
    if tensor.ndimension() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    flat = tensor.new(rows, cols).normal_(0, 1)
    if rows < cols:
        flat.t_()
    q, r = torch.linalg.qr(flat)
    q *= torch.diag(r, 0).sign()     # Q uniform over the orthogonal group (Mezzadri 2006)
    if rows < cols:
        q.t_()
    with torch.no_grad():
        tensor.view_as(q).copy_(q)
        tensor.mul_(gain)
    return tensor


def sparse_(tensor, sparsity, std=0.01):
    _dims_ok(tensor, (2,), "Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    zeros = int(math.ceil(sparsity * rows))
    with torch.no_grad():
        tensor.normal_(0, std)
        for c in range(cols):
            tensor[torch.randperm(rows)[:zeros], c] = 0
    return tensor


def _deprecated(new):
    old_name = new.__name__[:-1]

    def deprecated_init(*args, **kwargs):
        warnings.warn("nn.init.{} is now deprecated in favor of nn.init.{}.".format(old_name, new.__name__),
                      stacklevel=2)
        return new(*args, **kwargs)

    deprecated_init.__name__ = old_name
    deprecated_init.__qualname__ = '_make_deprecate.<locals>.deprecated_init'
    return deprecated_init


uniform = _deprecated(_init.uniform_)
normal = _deprecated(_init.normal_)
constant = _deprecated(_init.constant_)
eye = _deprecated(eye_)
dirac = _deprecated(dirac_)
xavier_uniform = _deprecated(_init.xavier_uniform_)
xavier_normal = _deprecated(_init.xavier_normal_)
kaiming_uniform = _deprecated(_init.kaiming_uniform_)
kaiming_normal = _deprecated(_init.kaiming_normal_)
orthogonal = _deprecated(orthogonal_)
sparse = _deprecated(sparse_)
