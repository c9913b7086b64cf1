# The private bases of torch.nn's pooling, dropout and padding modules, as user code subclasses
# them (a global-average-pool head, a custom pad, a custom dropout) and isinstance sees them.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.modules.pooling import _AdaptiveAvgPoolNd, _AdaptiveMaxPoolNd, _MaxUnpoolNd, _LPPoolNd
from torch.nn.modules.dropout import _DropoutNd
from torch.nn.modules.padding import _ReflectionPadNd, _ConstantPadNd, _ReplicationPadNd


class GlobalAvgPool(_AdaptiveAvgPoolNd):
    def forward(self, x):
        return F.adaptive_avg_pool2d(x, self.output_size).flatten(1)


m = GlobalAvgPool(1)
print(m, m(torch.arange(24.).view(2, 3, 2, 2)))
print(isinstance(nn.AdaptiveAvgPool2d(2), _AdaptiveAvgPoolNd), isinstance(nn.AdaptiveAvgPool1d(2), _AdaptiveAvgPoolNd),
      isinstance(nn.AdaptiveAvgPool3d(2), _AdaptiveAvgPoolNd))
print(isinstance(nn.AdaptiveMaxPool2d(2), _AdaptiveMaxPoolNd), isinstance(nn.AdaptiveMaxPool1d(2), _AdaptiveMaxPoolNd))
print(nn.AdaptiveMaxPool2d(2).__class__.__mro__)


class TopK(_AdaptiveMaxPoolNd):
    def forward(self, x):
        return F.adaptive_max_pool1d(x, self.output_size, self.return_indices)


print(TopK(2, return_indices=True)(torch.tensor([[[1., 5., 2., 4.]]])))
print(nn.MaxUnpool2d(2), isinstance(nn.MaxUnpool2d(2), _MaxUnpoolNd), isinstance(nn.MaxUnpool1d(2), _MaxUnpoolNd))
print(isinstance(nn.LPPool2d(2, 2), _LPPoolNd), nn.LPPool1d(2, 3), nn.AdaptiveAvgPool3d(2), nn.AdaptiveMaxPool1d(3))


class MyPad(_ReflectionPadNd):
    def __init__(self, p):
        super().__init__()
        self.padding = (p, p)


print(MyPad(1), MyPad(1)(torch.arange(4.).view(1, 1, 4)))


class HalfPad(_ConstantPadNd):
    def __init__(self):
        super().__init__(0.5)
        self.padding = (1, 0)


print(HalfPad(), HalfPad()(torch.ones(1, 2)))
print(isinstance(nn.ZeroPad2d(1), _ConstantPadNd), isinstance(nn.ReplicationPad2d(1), _ReplicationPadNd),
      isinstance(nn.ReflectionPad1d(1), _ReflectionPadNd), isinstance(nn.ConstantPad3d(1, 2.), _ConstantPadNd))
print(nn.ZeroPad2d.__mro__)


class MyDrop(_DropoutNd):
    def forward(self, x):
        return F.dropout(x, self.p, self.training, self.inplace)


d = MyDrop(0.0)
print(d, d(torch.ones(2)))
try:
    MyDrop(2)
except ValueError as e:
    print(e)
print(isinstance(nn.Dropout(), _DropoutNd), isinstance(nn.Dropout2d(), _DropoutNd), isinstance(nn.AlphaDropout(), _DropoutNd))
print(nn.Dropout.__mro__)
print(issubclass(nn.FeatureAlphaDropout, _DropoutNd), issubclass(nn.Linear, _DropoutNd))
