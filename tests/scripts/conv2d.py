# nn.Conv2d and F.conv2d: repr, initialization, forward, gradients, stride/padding/dilation/groups, errors
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
c = nn.Conv2d(1, 20, 5)
print(c, c.weight.shape, c.bias[:3], c.weight[0, 0, 0])
x = torch.randn(2, 1, 12, 12)
y = c(x)
print(y.shape, y[0, 0, 0], y.grad_fn.name())
c2 = nn.Conv2d(4, 6, (3, 2), stride=2, padding=1, dilation=(2, 1), groups=2, bias=False)
print(c2)
z = torch.randn(1, 4, 7, 6, requires_grad=True)
out = c2(z)
out.sum().backward()
print(out.shape, out[0, 1], z.grad[0, 0], c2.weight.grad[0])
print(F.conv2d(torch.ones(3, 5, 5), torch.ones(2, 3, 3, 3), torch.tensor([1.0, -1.0]), padding="valid"))
print(nn.Conv2d(16, 33, 3, stride=2))
for bad in (lambda: c(torch.randn(2, 3, 12, 12)), lambda: c(torch.randn(1, 1, 3, 3)), lambda: c(torch.randn(12, 12)),
            lambda: nn.Conv2d(3, 4, 2, groups=2)):
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
