# torch.nn.modules.pooling as PyTorch 1.13's: the private bases _MaxPoolNd, _AvgPoolNd,
# _AdaptiveAvgPoolNd, _AdaptiveMaxPoolNd, _MaxUnpoolNd and _LPPoolNd (core's pooling classes derive
# from them: __mro__, isinstance); a language subclass runs the code here.
from torch.nn import Module


class _MaxPoolNd(Module):
    __module__ = 'torch.nn.modules.pooling'
    __constants__ = ['kernel_size', 'stride', 'padding', 'dilation', 'return_indices', 'ceil_mode']

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def extra_repr(self):
        return 'kernel_size={}, stride={}, padding={}, dilation={}, ceil_mode={}'.format(
            self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode)


class _AvgPoolNd(Module):
    __module__ = 'torch.nn.modules.pooling'
    __constants__ = ['kernel_size', 'stride', 'padding', 'ceil_mode', 'count_include_pad']

    def extra_repr(self):
        return 'kernel_size={}, stride={}, padding={}'.format(self.kernel_size, self.stride, self.padding)


class _AdaptiveAvgPoolNd(Module):
    __module__ = 'torch.nn.modules.pooling'
    __constants__ = ['output_size']

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def extra_repr(self):
        return 'output_size={}'.format(self.output_size)


class _AdaptiveMaxPoolNd(Module):
    __module__ = 'torch.nn.modules.pooling'
    __constants__ = ['output_size', 'return_indices']

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def extra_repr(self):
        return 'output_size={}'.format(self.output_size)


class _MaxUnpoolNd(Module):
    __module__ = 'torch.nn.modules.pooling'

    def extra_repr(self):
        return 'kernel_size={}, stride={}, padding={}'.format(self.kernel_size, self.stride, self.padding)


class _LPPoolNd(Module):
    __module__ = 'torch.nn.modules.pooling'
    __constants__ = ['norm_type', 'kernel_size', 'stride', 'ceil_mode']

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def extra_repr(self):
        return 'norm_type={}, kernel_size={}, stride={}, ceil_mode={}'.format(
            self.norm_type, self.kernel_size, self.stride, self.ceil_mode)
