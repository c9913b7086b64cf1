# nn.FractionalMaxPool2d/3d and F.fractional_max_pool2d/3d: seeded samples drawn as PyTorch draws them,
# windows from ATen's interval rule, values, flat indices, gradients, output_ratio, _random_samples,
# unbatched input, float64, the grad_fn names, module reprs and buffers, PyTorch's messages.
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(2, 3, 7, 9, requires_grad=True)
y, idx = F.fractional_max_pool2d(x, 2, output_size=(4, 5), return_indices=True)
print(y)
print(idx)
print(y.grad_fn.name())
(y * torch.arange(y.numel()).reshape(y.shape)).sum().backward()
print(x.grad[1, 2])
print(F.fractional_max_pool2d(x, (3, 2), output_ratio=0.5).shape)
u = torch.rand(2, 3, 2)
a = F.fractional_max_pool2d(x, 3, output_size=4, _random_samples=u)
b = F.fractional_max_pool2d(x, 3, output_size=4, _random_samples=u)
print(torch.equal(a, b), a[0, 0])
print(F.fractional_max_pool2d(x[0], 2, output_size=3))
print(F.fractional_max_pool2d(x, 2, output_size=1)[1, 1], F.fractional_max_pool2d(x, 1, output_size=(7, 9)).equal(x))
x64 = torch.randn(1, 2, 10, 10, dtype=torch.float64)
print(F.fractional_max_pool2d(x64, 2, output_size=6, return_indices=True))
pool = nn.FractionalMaxPool2d(3, output_ratio=(0.5, 0.5))
print(pool, pool.kernel_size, pool.output_ratio, pool.output_size, dict(pool.named_buffers()))
print(type(pool), pool(torch.randn(1, 1, 8, 8)))
pool = nn.FractionalMaxPool2d(2, output_size=3, return_indices=True, _random_samples=torch.rand(1, 1, 2))
print(pool(torch.randn(1, 1, 6, 6)), list(pool.state_dict().keys()))

v = torch.randn(1, 2, 6, 7, 8, requires_grad=True)
y3, i3 = F.fractional_max_pool3d(v, 2, output_size=(3, 4, 5), return_indices=True)
print(y3[0, 1], i3[0, 1], y3.grad_fn.name())
y3.sum().backward()
print(v.grad.sum(), v.grad[0, 0, 2])
print(F.fractional_max_pool3d(v[0], (2, 3, 2), output_ratio=0.6).shape)
print(nn.FractionalMaxPool3d(2, output_ratio=0.5)(torch.randn(2, 1, 6, 6, 6)))
print(nn.FractionalMaxPool3d(2, output_size=(2, 3, 2)))

cases = [lambda: F.fractional_max_pool2d(x, 3, output_size=6),
         lambda: F.fractional_max_pool2d(x, 2, output_size=(8, 4)),
         lambda: F.fractional_max_pool2d(torch.randn(5, 5), 2, output_size=2),
         lambda: F.fractional_max_pool2d(x, 2),
         lambda: F.fractional_max_pool2d(x, 2, output_size=3, _random_samples=torch.rand(2, 3, 2, dtype=torch.float64)),
         lambda: F.fractional_max_pool2d(x, (2, 2, 2), output_size=3),
         lambda: F.fractional_max_pool2d(torch.ones(1, 2, 5, 5, dtype=torch.long), 2, output_size=3,
                                         _random_samples=torch.rand(1, 2, 2)),
         lambda: F.fractional_max_pool3d(torch.randn(1, 4, 4, 4), 2, output_size=3),
         lambda: F.fractional_max_pool3d(torch.randn(4, 4, 4), 2, output_size=3),
         lambda: F.fractional_max_pool3d(torch.randn(1, 1, 6, 6, 6), 2, output_size=(3, 5, 3)),
         lambda: F.fractional_max_pool2d(torch.randn(1, 0, 5, 5), 2, output_size=3),
         lambda: nn.FractionalMaxPool2d(2),
         lambda: nn.FractionalMaxPool2d(2, output_size=3, output_ratio=0.5),
         lambda: nn.FractionalMaxPool2d(2, output_ratio=1.5),
         lambda: nn.FractionalMaxPool3d(2, output_ratio=(0.5, 0.5, 1))]
for c in cases:
    try:
        r = c()
        print('ok', r.shape)
    except Exception as e:
        print(type(e).__name__, e)
