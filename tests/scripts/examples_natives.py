# What pytorch/examples' dcgan, reinforcement_learning and super_resolution reach for:
# m.__class__ of torch.nn's layers (dcgan's weights_init reads m.__class__.__name__) and of
# tensors, the device-kind flags (input.is_xpu), torch.tensor of a collections.deque,
# np.finfo(np.float32).eps.item() and np.iinfo.
from collections import deque
import numpy as np
import torch
import torch.nn as nn


def weights_init(m):
    classname = m.__class__.__name__
    if classname.find('Conv') != -1:
        print('conv', classname)
    elif classname.find('BatchNorm') != -1:
        print('batchnorm', classname)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.ConvTranspose2d(4, 2, 4), nn.BatchNorm2d(2), nn.ReLU(True), nn.Conv2d(2, 1, 3))


net = Net()
net.apply(weights_init)
print(net.__class__.__name__, net.main[0].__class__, net.main[0].__class__ is nn.ConvTranspose2d)
x = torch.ones(2, requires_grad=True)
print(x.__class__, nn.Parameter(torch.ones(1)).__class__, isinstance(x, x.__class__))
print(x.is_xpu, x.is_mps, x.is_meta, x.is_sparse, x.is_quantized, x.is_nested, x.is_mkldnn)
returns = deque()
for r in [1.0, 0.5, 2.0]:
    returns.appendleft(r)
print(torch.tensor(returns), torch.tensor(deque([1, 2])).dtype)
eps = np.finfo(np.float32).eps.item()
print(eps, np.finfo(np.float32).max, np.finfo(np.float64).eps, np.finfo(np.float32).bits)
print(np.iinfo(np.int32).max, np.iinfo(np.int64).min, np.iinfo('int32').bits)
try:
    np.finfo(np.int32)
except ValueError as e:
    print('ValueError', e)
