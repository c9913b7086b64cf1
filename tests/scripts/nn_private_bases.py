import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.modules.loss import _Loss, _WeightedLoss
from torch.nn.modules.batchnorm import _BatchNorm, _NormBase
from torch.nn.modules.instancenorm import _InstanceNorm
from torch.nn.modules.pooling import _MaxPoolNd, _AvgPoolNd

torch.manual_seed(0)

class MyBN(_BatchNorm):
    def _check_input_dim(self, input):
        if input.dim() != 4:
            raise ValueError("expected 4D input (got {}D input)".format(input.dim()))

bn = MyBN(3)
print(bn)
x = torch.randn(4, 3, 5, 5)
y = bn(x)
print(y.shape, y.mean().item() < 1e-5)
print(bn.running_mean)
print(bn.num_batches_tracked)
try:
    bn(torch.randn(2, 3))
except ValueError as e:
    print("ValueError", e)
bn.eval()
print(bn(x)[0, 0, 0])
print(isinstance(nn.BatchNorm2d(3), _BatchNorm), isinstance(nn.BatchNorm1d(3), _NormBase))
print(isinstance(nn.InstanceNorm2d(3), _InstanceNorm), isinstance(nn.InstanceNorm2d(3), _BatchNorm))
print(isinstance(nn.MaxPool2d(2), _MaxPoolNd), isinstance(nn.AvgPool2d(2), _AvgPoolNd))
print(isinstance(nn.MSELoss(), _Loss), isinstance(nn.CrossEntropyLoss(), _WeightedLoss), isinstance(nn.MSELoss(), _WeightedLoss))
print(sorted(dict(bn.state_dict()).keys()))

class MyLoss(_Loss):
    def __init__(self, reduction='mean'):
        super().__init__(reduction=reduction)
    def forward(self, a, b):
        d = (a - b).abs()
        if self.reduction == 'mean':
            return d.mean()
        if self.reduction == 'sum':
            return d.sum()
        return d

a = torch.randn(3, 4, requires_grad=True)
b = torch.randn(3, 4)
l = MyLoss()
print(l, l.reduction)
print(MyLoss('sum')(a, b))
out = l(a, b)
out.backward()
print(a.grad)
print(MyLoss(reduction='none')(a, b).shape)
old = _Loss(size_average=False)
print(old.reduction)

class WL(_WeightedLoss):
    def forward(self, x, t):
        return F.cross_entropy(x, t, weight=self.weight, reduction=self.reduction)
w = WL(weight=torch.tensor([1., 2., 3.]))
print(w.weight, w.reduction)
print(w(torch.randn(4, 3), torch.tensor([0, 1, 2, 1])))

for m in nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU()).modules():
    if isinstance(m, nn.modules.batchnorm._BatchNorm):
        nn.init.constant_(m.weight, 1)
        print("bn init", type(m).__name__)

# retain_grad with hooks
x = torch.randn(3, requires_grad=True)
y = x * 2
y.retain_grad()
y.register_hook(lambda g: g * 10)
y.sum().backward()
print(y.grad, x.grad)

x = torch.randn(3, requires_grad=True)
y = x * 2
y.register_hook(lambda g: g * 10)
y.retain_grad()
y.sum().backward()
print(y.grad, x.grad)
