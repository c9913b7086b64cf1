# nn.BatchNorm2d: training and eval numbers, running statistics (momentum and
# momentum=None's cumulative average), gradients, repr, state_dict, errors.
import torch
import torch.nn as nn

torch.manual_seed(0)
bn = nn.BatchNorm2d(3)
print(bn)
print([n for n, _ in bn.named_parameters()], [n for n, _ in bn.named_buffers()])
x = torch.randn(4, 3, 5, 5) * 2 + 1
y = bn(x)
print(y[0, :, :2, :2])
print(y.grad_fn.name())
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
xr = x.clone().requires_grad_(True)
out = bn(xr)
(out * torch.arange(100.0).view(1, 1, 10, 10).reshape(1, 1, 5, 20)[:, :, :, :5]).sum().backward()
print(xr.grad[1, :, :2, :2])
print(bn.weight.grad, bn.bias.grad)
bn.eval()
print(bn(x)[2, :, :2, :2])
cum = nn.BatchNorm2d(2, momentum=None, eps=1e-3, affine=False)
print(cum)
for i in range(3):
    cum(torch.randn(2, 2, 3, 3) + i)
print(cum.running_mean, cum.running_var, cum.num_batches_tracked)
print(list(cum.state_dict().keys()))
nt = nn.BatchNorm2d(2, track_running_stats=False)
print(nt, [n for n, b in nt.named_buffers()])
nt.eval()
print(nt(torch.randn(2, 2, 2, 2))[0])
d = nn.BatchNorm2d(2, dtype=torch.float64)
print(d(torch.randn(2, 2, 2, 2, dtype=torch.float64)).dtype)
bn.reset_parameters()
print(bn.running_mean, bn.num_batches_tracked)
try:
    bn(torch.randn(3, 3))
except ValueError as e:
    print("ValueError", e)
try:
    nn.BatchNorm2d(2).train()(torch.randn(1, 2, 1, 1))
except ValueError as e:
    print("ValueError", e)
