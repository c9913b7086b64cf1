# torch functions and Tensor methods that PyTorch 1.13 has as other names of what nnscope
# already computes, or as a few ops put together (its own definitions in
# torch/functional.py and torch/_tensor.py): torch.conv2d and the other torch.nn.functional
# forms torch also exports, the in-place torch.xxx_(t) functions, float_power, ldexp,
# signbit, msort, logaddexp2, diagflat, dsplit, rsub, sum_to_size, fill_diagonal_, apply_,
# map_, the determinism and precision switches. Names listed in __all__ are looked up here
# when torch lacks them; those in __methods__ when a tensor does, and each name in
# __properties__ is the value of _property_NAME(tensor).
import math
import torch
import torch.nn.functional as F
from torch._names_sweep import (adjoint, cdouble, cfloat, is_neg, resolve_neg, empty_strided, new_empty_strided, fill,
                                detach_, split_with_sizes, cholesky_inverse, nuclear_norm, frobenius_norm, narrow_copy,
                                as_strided_scatter, get_num_interop_threads, set_num_interop_threads, set_warn_always,
                                is_warn_always_enabled, index_reduce, index_reduce_, bitwise_left_shift,
                                bitwise_right_shift, bitwise_left_shift_, bitwise_right_shift_, asarray)

_INPLACE = ['abs_', 'acos_', 'acosh_', 'asin_', 'asinh_', 'atan_', 'atanh_', 'arccos_', 'arccosh_', 'arcsin_',
            'arcsinh_', 'arctan_', 'arctanh_', 'ceil_', 'clamp_', 'clamp_max_', 'clamp_min_', 'clip_', 'cos_',
            'cosh_', 'deg2rad_', 'erf_', 'erfc_', 'exp2_', 'exp_', 'expm1_', 'fix_', 'floor_', 'frac_', 'gcd_',
            'lcm_', 'log10_', 'log1p_', 'log2_', 'log_', 'logit_', 'nan_to_num_', 'neg_', 'negative_',
            'rad2deg_', 'reciprocal_', 'relu_', 'round_', 'rsqrt_', 'sigmoid_', 'sin_', 'sinc_', 'sinh_',
            'sqrt_', 'square_', 'tan_', 'tanh_', 'trunc_', 'xlogy_', 'zero_', 'fill_', 'i0_']

__all__ = ['conv1d', 'conv2d', 'conv3d', 'conv_transpose1d', 'conv_transpose2d', 'conv_transpose3d',
           'max_pool1d', 'max_pool2d', 'max_pool1d_with_indices', 'avg_pool1d', 'adaptive_avg_pool1d',
           'adaptive_max_pool1d', 'cosine_similarity', 'pairwise_distance', 'pixel_shuffle', 'pixel_unshuffle',
           'prelu', 'selu_', 'celu_', 'rrelu_', 'threshold_', 'dropout_', 'alpha_dropout_',
           'feature_alpha_dropout_', 'float_power', 'ldexp', 'ldexp_', 'signbit', 'msort', 'row_stack',
           'scalar_tensor', 'is_nonzero', 'is_same_size', 'is_signed', 'isneginf', 'isposinf', 'isreal',
           'logaddexp2', 'positive', 'rsub', 'diagflat', 'dsplit', 'get_device', 'use_deterministic_algorithms',
           'are_deterministic_algorithms_enabled', 'is_deterministic_algorithms_warn_only_enabled', 'set_float32_matmul_precision',
           'get_float32_matmul_precision', 'set_flush_denormal', 'layout', 'strided', 'lu_solve',
           'adjoint', 'is_neg', 'resolve_neg', 'is_inference', 'empty_strided', 'fill', 'detach_', 'split_with_sizes',
           'cholesky_inverse', 'put', 'nuclear_norm', 'frobenius_norm', 'narrow_copy', 'as_strided_scatter',
           'get_num_interop_threads', 'set_num_interop_threads', 'set_warn_always', 'is_warn_always_enabled',
           'index_reduce', 'bitwise_left_shift', 'bitwise_right_shift', 'asarray'] + _INPLACE

__methods__ = ['float_power', 'float_power_', 'ldexp', 'ldexp_', 'signbit', 'msort', 'logaddexp2', 'positive',
               'isneginf', 'isposinf', 'isreal', 'diagflat', 'dsplit', 'hsplit', 'vsplit', 'tensor_split',
               'inner', 'vdot', 'argwhere', 'where', 'sum_to_size', 'fill_diagonal_', 'apply_', 'map_',
               'share_memory_', 'is_pinned', 'resize_as_', 'resize_', 'get_device', 'is_shared', 'is_inference',
               'to_dense', 'put_', 'put', '__array__', 'adjoint', 'cdouble', 'cfloat', 'is_neg', 'resolve_neg',
               'new_empty_strided', 'split_with_sizes', 'cholesky_inverse', 'narrow_copy', 'index_reduce', 'index_reduce_',
               'bitwise_left_shift', 'bitwise_right_shift', 'bitwise_left_shift_', 'bitwise_right_shift_']

__properties__ = ['is_cpu', 'layout', 'names']

conv1d = F.conv1d
conv2d = F.conv2d
conv3d = F.conv3d
conv_transpose1d = F.conv_transpose1d
conv_transpose2d = F.conv_transpose2d
conv_transpose3d = F.conv_transpose3d
max_pool1d = F.max_pool1d
max_pool2d = F.max_pool2d
avg_pool1d = F.avg_pool1d
adaptive_avg_pool1d = F.adaptive_avg_pool1d
cosine_similarity = F.cosine_similarity
pairwise_distance = F.pairwise_distance
pixel_shuffle = F.pixel_shuffle
pixel_unshuffle = F.pixel_unshuffle
prelu = F.prelu
row_stack = torch.vstack


def lu_solve(b, LU_data, LU_pivots, *, out=None):  # torch.lu_solve (torch.linalg.lu_solve's arguments reversed)
    from torch._linalg_solve import torch_lu_solve
    return torch_lu_solve(b, LU_data, LU_pivots, out=out)


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False):
    return F.max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode=ceil_mode, return_indices=True)


def adaptive_max_pool1d(input, output_size):
    # torch's form returns the indices too
    return F.adaptive_max_pool1d(input, output_size, return_indices=True)


def __getattr__(name):
    # torch.exp_(t) and the other in-place functions: the tensor's own method
    if name not in _INPLACE:
        raise AttributeError("module 'torch._aliases' has no attribute '{}'".format(name))

    def call(input, *args, **kwargs):
        return getattr(input, name)(*args, **kwargs)
    call.__name__ = name
    return call


def selu_(input):
    return F.selu(input, inplace=True)


def celu_(input, alpha=1.0):
    return F.celu(input, alpha, inplace=True)


def rrelu_(input, lower=1. / 8, upper=1. / 3, training=False, generator=None):
    return F.rrelu(input, lower, upper, training, inplace=True)


def threshold_(input, threshold, value):
    return F.threshold(input, threshold, value, inplace=True)


def dropout_(input, p, train):
    return F.dropout(input, p, train, inplace=True)


def alpha_dropout_(input, p, train):
    return F.alpha_dropout(input, p, train, inplace=True)


def feature_alpha_dropout_(input, p, train):
    return F.feature_alpha_dropout(input, p, train, inplace=True)


def _float_power_dtype(input, exponent):
    complex_ = (isinstance(input, torch.Tensor) and input.is_complex()) or isinstance(input, complex) or \
        (isinstance(exponent, torch.Tensor) and exponent.is_complex()) or isinstance(exponent, complex)
    return torch.complex128 if complex_ else torch.float64


def float_power(input, exponent):
    # pow computed in double (or complex double) whatever the operands' dtypes
    dtype = _float_power_dtype(input, exponent)
    input = input.to(dtype) if isinstance(input, torch.Tensor) else torch.tensor(input, dtype=dtype)
    if isinstance(exponent, torch.Tensor):
        exponent = exponent.to(dtype)
    return torch.pow(input, exponent)


def float_power_(self, exponent):
    dtype = _float_power_dtype(self, exponent)
    if self.dtype != dtype:
        raise RuntimeError("the base given to float_power_ has dtype {} but the operation's result requires dtype {}"
                           .format(_dtype_name(self.dtype), _dtype_name(dtype)))
    return self.pow_(exponent.to(dtype) if isinstance(exponent, torch.Tensor) else exponent)


def _dtype_name(dtype):
    return {torch.float32: 'Float', torch.float64: 'Double', torch.float16: 'Half', torch.bfloat16: 'BFloat16',
            torch.complex64: 'ComplexFloat', torch.complex128: 'ComplexDouble', torch.int64: 'Long',
            torch.int32: 'Int', torch.int16: 'Short', torch.int8: 'Char', torch.uint8: 'Byte',
            torch.bool: 'Bool'}[dtype]


def ldexp(input, other):
    return torch.mul(input, torch.pow(2.0, other))


def ldexp_(self, other):
    return self.mul_(torch.pow(2.0, other))


def signbit(input):
    if input.is_complex():
        raise RuntimeError("signbit is not implemented for complex tensors.")
    if input.dtype == torch.bool:
        return torch.zeros_like(input, dtype=torch.bool)
    if not input.is_floating_point():
        return input < 0
    # the sign bit itself: true for -0.0 and negative NaNs too
    return torch.copysign(torch.ones_like(input), input) < 0


def msort(input):
    return torch.sort(input, dim=0).values


def scalar_tensor(s, dtype=None, layout=None, device=None, pin_memory=None, requires_grad=False):
    if dtype is None:
        dtype = torch.get_default_dtype()
    return torch.tensor(s, dtype=dtype, device=device, requires_grad=requires_grad)


def is_nonzero(input):
    n = input.numel()
    if n == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if n > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(input.item() != 0)


def is_same_size(input, other):
    return input.size() == other.size()


def is_signed(input):
    return input.is_signed()


def isneginf(input):
    if input.is_complex():
        raise RuntimeError("isneginf does not support complex inputs.")
    if not input.is_floating_point():
        return torch.zeros_like(input, dtype=torch.bool)
    return input == -math.inf


def isposinf(input):
    if input.is_complex():
        raise RuntimeError("isposinf does not support complex inputs.")
    if not input.is_floating_point():
        return torch.zeros_like(input, dtype=torch.bool)
    return input == math.inf


def isreal(input):
    if not input.is_complex():
        return torch.ones_like(input, dtype=torch.bool)
    return input.imag == 0


def logaddexp2(input, other):
    # log2(2**a + 2**b), as 1.13's kernel: the larger plus log1p(2**-|a-b|) / ln 2
    m = torch.maximum(input, other)
    r = m + torch.log1p(torch.exp2(-(input - other).abs())) * (1.0 / math.log(2.0))
    same_inf = torch.isinf(input) & (input == other)
    return torch.where(same_inf, input, r)


def positive(input):
    if input.dtype == torch.bool:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


def rsub(input, other, alpha=1):
    return torch.sub(other, input, alpha=alpha) if isinstance(other, torch.Tensor) else other - alpha * input


def diagflat(input, offset=0):
    return torch.diag(input.flatten(), offset)


def dsplit(input, indices_or_sections):
    if input.dim() < 3:
        raise RuntimeError("torch.dsplit requires a tensor with at least 3 dimension, but got a tensor with {} "
                           "dimensions!".format(input.dim()))
    if isinstance(indices_or_sections, int) and input.size(2) % indices_or_sections != 0:
        raise RuntimeError("torch.dsplit attempted to split along dimension 2, but the size of the dimension {} is "
                           "not divisible by the split_size {}!".format(input.size(2), indices_or_sections))
    return torch.tensor_split(input, indices_or_sections, 2)


def hsplit(self, indices_or_sections):
    return torch.hsplit(self, indices_or_sections)


def vsplit(self, indices_or_sections):
    return torch.vsplit(self, indices_or_sections)


def tensor_split(self, indices_or_sections, dim=0):
    return torch.tensor_split(self, indices_or_sections, dim)


def inner(self, other):
    return torch.inner(self, other)


def vdot(self, other):
    return torch.vdot(self, other)


def argwhere(self):
    return torch.argwhere(self)


def where(self, condition, y):
    return torch.where(condition, self, y)


def get_device(input):
    return -1 if input.device.type == 'cpu' else input.device.index


def sum_to_size(self, *size):
    if len(size) == 1 and isinstance(size[0], (tuple, list, torch.Size)):
        size = tuple(size[0])
    shape = tuple(self.shape)
    lead = len(shape) - len(size)
    expandable = lead >= 0 and all(s == t or s == 1 for s, t in zip(size, shape[lead:]))
    if not expandable:
        raise RuntimeError("size {{[{}]}} is not expandable to size {{[{}]}}.".format(
            ', '.join(str(s) for s in size), ', '.join(str(s) for s in shape)))
    r = self
    if lead:
        r = r.sum(tuple(range(lead)))
    dims = tuple(i for i, (s, t) in enumerate(zip(size, shape[lead:])) if s == 1 and t != 1)
    if dims:
        r = r.sum(dims, keepdim=True)
    return r


def fill_diagonal_(self, fill_value, wrap=False):
    n = self.dim()
    if n < 2:
        raise RuntimeError("dimensions must larger than 1")
    height = self.size(0)
    if n > 2 and any(s != height for s in self.shape):
        raise RuntimeError("all dimensions of input must be of equal length")
    if n == 2:
        width = self.size(1)
        step = width + 1
        end = height * width if wrap and height > width + 1 else min(height, width) * width
    else:
        step = sum(height ** k for k in range(n))
        end = height ** n
    # the diagonal's elements in the flattened tensor, step apart
    with torch.no_grad():
        flat = self.view(-1) if self.is_contiguous() else None
        if flat is None:
            raise RuntimeError("fill_diagonal_ of a non-contiguous tensor is not supported")
        flat[0:end:step] = fill_value
    return self


def _check_cpu_callable(self, name):
    if self.requires_grad:
        raise RuntimeError("{} is only implemented on CPU tensors that do not require grad".format(name))


def apply_(self, callable):
    # the Python callable on each element, in place (CPU tensors only, as 1.13)
    _check_cpu_callable(self, 'apply_')
    values = [callable(v) for v in self.reshape(-1).tolist()]
    self.copy_(torch.tensor(values, dtype=self.dtype).view(self.shape))
    return self


def map_(self, tensor, callable):
    _check_cpu_callable(self, 'map_')
    other = tensor.expand_as(self).reshape(-1).tolist()
    values = [callable(a, b) for a, b in zip(self.reshape(-1).tolist(), other)]
    self.copy_(torch.tensor(values, dtype=self.dtype).view(self.shape))
    return self


def share_memory_(self):
    # one process: the memory is already the one everybody sees
    return self


def is_pinned(self, device=None):
    return False


def is_shared(self):
    return False


def is_inference(self):
    from torch.autograd.grad_mode import _is_inference
    return _is_inference(self)


def to_dense(self, dtype=None):
    # a strided tensor is already dense: PyTorch returns it as it is
    return self if dtype is None else self.to(dtype)


def put_(self, index, source, accumulate=False):
    # the tensor as if it were 1-D in row-major order
    if index.dtype != torch.int64:
        raise RuntimeError("put_(): Expected a long tensor for index, but got " + str(index.dtype)[6:].capitalize())
    n = self.numel()
    for i in index.reshape(-1).tolist():
        if i >= n or i < -n:
            raise IndexError("out of range: tried to access index {} on a tensor of {} elements.".format(i, n))
    if self.is_contiguous():
        self.view(-1).index_put_((index.reshape(-1),), source.reshape(-1), accumulate)
    else:
        flat = self.flatten()
        flat.index_put_((index.reshape(-1),), source.reshape(-1), accumulate)
        self.copy_(flat.view(self.shape))
    return self


def put(self, index, source, accumulate=False):
    return put_(self.clone(), index, source, accumulate)


def __array__(self, dtype=None):
    a = self.numpy()
    return a if dtype is None else a.astype(dtype)


def resize_(self, *sizes, memory_format=None):
    # the first elements keep their values, new ones are zeros (PyTorch leaves them unset)
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list, torch.Size)):
        sizes = tuple(sizes[0])
    with torch.no_grad():
        fresh = torch.zeros(sizes, dtype=self.dtype, device=self.device)
        n = min(fresh.numel(), self.numel())
        if n:
            fresh.view(-1)[:n] = self.reshape(-1)[:n]
        self.set_(fresh)
    return self


def resize_as_(self, the_template, memory_format=None):
    return resize_(self, the_template.size())


def _property_is_cpu(self):
    return self.device.type == 'cpu'


def _property_layout(self):
    return strided


def _property_names(self):
    return (None,) * self.dim()


class layout(object):
    __module__ = 'torch'

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return 'torch.' + self._name


strided = layout('strided')


_deterministic = {'mode': False, 'warn_only': False}


def use_deterministic_algorithms(mode, *, warn_only=False):
    # nnscope's CPU kernels are deterministic already: the switch is only remembered
    _deterministic['mode'] = bool(mode)
    _deterministic['warn_only'] = bool(warn_only)


def are_deterministic_algorithms_enabled():
    return _deterministic['mode']


def is_deterministic_algorithms_warn_only_enabled():
    return _deterministic['warn_only']


_matmul_precision = ['highest']


def set_float32_matmul_precision(precision):
    # float32 matrix products are always computed in full float32 here ('highest'); another
    # value is ignored (1.13 logs a C++ warning and keeps the setting)
    if precision in ('highest', 'high', 'medium'):
        _matmul_precision[0] = precision


def get_float32_matmul_precision():
    return _matmul_precision[0]


def set_flush_denormal(mode):
    # nnscope never flushes denormals: False, PyTorch's answer on a CPU that cannot
    return False
