# torch.nn.modules.dropout's _DropoutNd and torch.nn.modules.padding's _ConstantPadNd,
# _ReflectionPadNd and _ReplicationPadNd as PyTorch 1.13's: core's dropout and padding classes
# derive from them (__mro__, isinstance); a language subclass runs the code here.
from torch.nn import Module
import torch.nn.functional as F


class _DropoutNd(Module):
    __module__ = 'torch.nn.modules.dropout'
    __constants__ = ['p', 'inplace']

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError("dropout probability has to be between 0 and 1, but got {}".format(p))
        self.p = p
        self.inplace = inplace

    def extra_repr(self):
        return 'p={}, inplace={}'.format(self.p, self.inplace)


class _ConstantPadNd(Module):
    __module__ = 'torch.nn.modules.padding'
    __constants__ = ['padding', 'value']

    def __init__(self, value):
        super().__init__()
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, 'constant', self.value)

    def extra_repr(self):
        return 'padding={}, value={}'.format(self.padding, self.value)


class _ReflectionPadNd(Module):
    __module__ = 'torch.nn.modules.padding'
    __constants__ = ['padding']

    def forward(self, input):
        return F.pad(input, self.padding, 'reflect')

    def extra_repr(self):
        return '{}'.format(self.padding)


class _ReplicationPadNd(Module):
    __module__ = 'torch.nn.modules.padding'
    __constants__ = ['padding']

    def forward(self, input):
        return F.pad(input, self.padding, 'replicate')

    def extra_repr(self):
        return '{}'.format(self.padding)
