import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 3, 7, 6, requires_grad=True)
for m in [nn.MaxPool2d(2), nn.MaxPool2d(3, 2, 1, 2, True, True), nn.MaxPool2d((2, 3)), nn.AvgPool2d(2),
          nn.AvgPool2d(3, 2, 1, ceil_mode=True, count_include_pad=False), nn.AvgPool2d(3, 2, 1, divisor_override=5),
          nn.AdaptiveAvgPool2d((5, 4)), nn.AdaptiveAvgPool2d((None, 4)), nn.AdaptiveAvgPool2d(1), nn.AdaptiveMaxPool2d(3),
          nn.AdaptiveMaxPool2d((2, 4), return_indices=True)]:
    print(m)
    y = m(x)
    if isinstance(y, tuple):
        print(y[1])
        y = y[0]
    print(y.shape, y.grad_fn.name() if hasattr(y.grad_fn, 'name') else type(y.grad_fn).__name__)
    print(y)
    x.grad = None
    (y * torch.arange(y.numel()).reshape(y.shape)).sum().backward()
    print(x.grad)
x1 = torch.randn(2, 3, 9, requires_grad=True)
for m in [nn.MaxPool1d(2), nn.MaxPool1d(3, 2, 1, return_indices=True), nn.AvgPool1d(3, 2, 1), nn.AdaptiveAvgPool1d(4)]:
    print(m)
    y = m(x1)
    if isinstance(y, tuple):
        print(y[1])
        y = y[0]
    print(y)
    x1.grad = None
    y.sum().backward()
    print(x1.grad)
print(F.max_pool2d(x, 2, return_indices=True)[1])
print(F.avg_pool2d(x, (2, 3), stride=1))
print(F.adaptive_avg_pool2d(x, (3, 3)))
print(F.max_pool1d(x1, 2, stride=1))
for f in [lambda: F.max_pool2d(x, 2, padding=2), lambda: F.max_pool2d(x, 9), lambda: F.avg_pool2d(x, 9),
          lambda: F.max_pool2d(x.long(), 2), lambda: F.adaptive_avg_pool2d(torch.randn(5), 2)]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
print(F.avg_pool1d(x1, 2), F.adaptive_avg_pool1d(x1, 3))
out, idx = F.adaptive_max_pool2d(x, (2, 2), return_indices=True)
print(out, idx)
print(nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU(), nn.MaxPool2d(2), nn.AdaptiveAvgPool2d((1, 1))))
