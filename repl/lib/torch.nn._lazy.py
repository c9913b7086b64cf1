# The Lazy modules of PyTorch 1.13 written in the language over LazyModuleMixin
# (torch.nn.modules.lazy.py): LazyConv1d/2d/3d, LazyConvTranspose1d/2d/3d, LazyBatchNorm1d/2d/3d,
# LazyInstanceNorm1d/2d/3d. Until the first forward their parameters (and running statistics) are
# UninitializedParameter / UninitializedBuffer and in_channels / num_features is 0; the first forward
# infers it from the input, materializes the placeholders, draws their values as PyTorch's
# reset_parameters does (kaiming_uniform_(a=sqrt(5)) and the bias bound for the convolutions; ones,
# zeros and reset running statistics for the norms), then the module becomes the non-lazy class.
import torch
from torch import nn
from torch.nn import init
from torch.nn.modules.lazy import LazyModuleMixin
from torch.nn.parameter import UninitializedParameter, UninitializedBuffer
from torch.nn.modules.utils import _single, _pair, _triple
from torch.nn._layers3d import _ConvNd

_tuples = {1: _single, 2: _pair, 3: _triple}


class _LazyConvXdMixin(LazyModuleMixin):
    __module__ = 'torch.nn.modules.conv'
    # As 1.13's: LazyConv2d(_LazyConvXdMixin, Conv2d), so a lazy convolution is a Conv2d (isinstance,
    # issubclass) before its first forward. The convolution is built with 0 channels and no bias, then
    # its weight and bias become placeholders.
    _nd = 2
    transposed = False

    def __init__(self, out_channels, kernel_size, stride, padding, dilation, groups, bias, padding_mode,
                 output_padding, dtype):
        tup = _tuples[self._nd]
        if groups <= 0:
            raise ValueError('groups must be a positive integer')
        if isinstance(padding, str):
            if padding not in ('valid', 'same'):
                raise ValueError("Invalid padding string {!r}, should be one of {}".format(
                    padding, {'same', 'valid'}))
            if padding == 'same' and any(s != 1 for s in tup(stride)):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode not in ('zeros', 'reflect', 'replicate', 'circular'):
            raise ValueError("padding_mode must be one of {}, but got padding_mode='{}'".format(
                "{'zeros', 'reflect', 'replicate', 'circular'}", padding_mode))
        if self.transposed:
            super().__init__(0, 0, kernel_size, stride, padding, output_padding, groups, False, dilation,
                             padding_mode, dtype=dtype)
        else:
            super().__init__(0, 0, kernel_size, stride, padding, dilation, groups, False, padding_mode,
                             dtype=dtype)
        self.weight = UninitializedParameter(dtype=dtype)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_channels != 0:
            _ConvNd.reset_parameters(self)     # PyTorch's draws: kaiming_uniform_, then the bias bound

    def _get_in_channels(self, input):
        n = self._nd + 1
        if input.dim() not in (n, n + 1):
            raise RuntimeError("Expected {}D (unbatched) or {}D (batched) input to {}, but got input of size: {}"
                               .format(n, n + 1, self.__class__.__name__, input.shape))
        return input.shape[1] if input.dim() == n + 1 else input.shape[0]

    def initialize_parameters(self, input):
        if self.has_uninitialized_params():
            self.in_channels = self._get_in_channels(input)
            if self.in_channels % self.groups != 0:
                raise ValueError('in_channels must be divisible by groups')
            if self.transposed:
                self.weight.materialize((self.in_channels, self.out_channels // self.groups) + self.kernel_size)
            else:
                self.weight.materialize((self.out_channels, self.in_channels // self.groups) + self.kernel_size)
            if self.bias is not None:
                self.bias.materialize((self.out_channels,))
            self.reset_parameters()

    def _template(self, cls):
        if self.transposed:
            return cls(self.in_channels, self.out_channels, self.kernel_size, self.stride, self.padding,
                       self.output_padding, self.groups, self.bias is not None, self.dilation, self.padding_mode,
                       dtype=self.weight.dtype)
        return cls(self.in_channels, self.out_channels, self.kernel_size, self.stride, self.padding, self.dilation,
                   self.groups, self.bias is not None, self.padding_mode, dtype=self.weight.dtype)


def _conv_init(self, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
               padding_mode='zeros', device=None, dtype=None):
    _LazyConvXdMixin.__init__(self, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                              padding_mode, 0, dtype)


def _conv_transpose_init(self, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                         bias=True, dilation=1, padding_mode='zeros', device=None, dtype=None):
    if padding_mode != 'zeros':
        raise ValueError('Only "zeros" padding mode is supported for {}'.format(self.__class__.__name__))
    _LazyConvXdMixin.__init__(self, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                              padding_mode, output_padding, dtype)


class LazyConv1d(_LazyConvXdMixin, nn.Conv1d):
    __module__ = 'torch.nn.modules.conv'
    _nd, cls_to_become = 1, nn.Conv1d
    __init__ = _conv_init


class LazyConv2d(_LazyConvXdMixin, nn.Conv2d):
    __module__ = 'torch.nn.modules.conv'
    _nd, cls_to_become = 2, nn.Conv2d
    __init__ = _conv_init


class LazyConv3d(_LazyConvXdMixin, nn.Conv3d):
    __module__ = 'torch.nn.modules.conv'
    _nd, cls_to_become = 3, nn.Conv3d
    __init__ = _conv_init


class LazyConvTranspose1d(_LazyConvXdMixin, nn.ConvTranspose1d):
    __module__ = 'torch.nn.modules.conv'
    _nd, cls_to_become = 1, nn.ConvTranspose1d
    transposed = True
    __init__ = _conv_transpose_init


class LazyConvTranspose2d(_LazyConvXdMixin, nn.ConvTranspose2d):
    __module__ = 'torch.nn.modules.conv'
    _nd, cls_to_become = 2, nn.ConvTranspose2d
    transposed = True
    __init__ = _conv_transpose_init


class LazyConvTranspose3d(_LazyConvXdMixin, nn.ConvTranspose3d):
    __module__ = 'torch.nn.modules.conv'
    _nd, cls_to_become = 3, nn.ConvTranspose3d
    transposed = True
    __init__ = _conv_transpose_init


class _LazyNormBase(LazyModuleMixin, nn.Module):
    __module__ = 'torch.nn.modules.batchnorm'
    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None):
        super().__init__()
        self.num_features = 0
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = UninitializedParameter(dtype=dtype)
            self.bias = UninitializedParameter(dtype=dtype)
        else:
            self.register_parameter('weight', None)
            self.register_parameter('bias', None)
        if track_running_stats:
            self.register_buffer('running_mean', UninitializedBuffer(dtype=dtype))
            self.register_buffer('running_var', UninitializedBuffer(dtype=dtype))
            self.register_buffer('num_batches_tracked', torch.tensor(0, dtype=torch.long))
        else:
            self.register_buffer('running_mean', None)
            self.register_buffer('running_var', None)
            self.register_buffer('num_batches_tracked', None)

    def extra_repr(self):
        return '{}, eps={}, momentum={}, affine={}, track_running_stats={}'.format(
            self.num_features, self.eps, self.momentum, self.affine, self.track_running_stats)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.num_features != 0:
            if self.track_running_stats:
                self.running_mean.zero_()
                self.running_var.fill_(1)
                self.num_batches_tracked.zero_()
            if self.affine:
                init.ones_(self.weight)
                init.zeros_(self.bias)

    def initialize_parameters(self, input):
        if self.has_uninitialized_params():
            self.num_features = input.shape[1]
            if self.affine:
                self.weight.materialize((self.num_features,))
                self.bias.materialize((self.num_features,))
            if self.track_running_stats:
                self.running_mean.materialize((self.num_features,))
                self.running_var.materialize((self.num_features,))
            self.reset_parameters()

    def _template(self, cls):
        like = self.weight if self.weight is not None else self.running_mean
        return cls(self.num_features, self.eps, self.momentum, self.affine, self.track_running_stats,
                   dtype=like.dtype if like is not None else None)


class LazyBatchNorm1d(_LazyNormBase):
    __module__ = 'torch.nn.modules.batchnorm'
    cls_to_become = nn.BatchNorm1d


class LazyBatchNorm2d(_LazyNormBase):
    __module__ = 'torch.nn.modules.batchnorm'
    cls_to_become = nn.BatchNorm2d


class LazyBatchNorm3d(_LazyNormBase):
    __module__ = 'torch.nn.modules.batchnorm'
    cls_to_become = nn.BatchNorm3d


class LazyInstanceNorm1d(_LazyNormBase):
    __module__ = 'torch.nn.modules.instancenorm'
    cls_to_become = nn.InstanceNorm1d


class LazyInstanceNorm2d(_LazyNormBase):
    __module__ = 'torch.nn.modules.instancenorm'
    cls_to_become = nn.InstanceNorm2d


class LazyInstanceNorm3d(_LazyNormBase):
    __module__ = 'torch.nn.modules.instancenorm'
    cls_to_become = nn.InstanceNorm3d
