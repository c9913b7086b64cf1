# 0-dim CPU tensors (what PyTorch makes of a Python number) mixed with tensors of
# another device go in by value, as PyTorch's TensorIterator allows: torch.where's
# condition and branches, mse_loss, binary ops, special functions. On the CPU every
# operand is local; tests/run.sh runs this again with the other tensors on the
# poisoned loopback device, where reading the CPU operand's memory from a device
# kernel would stop the run.
import torch
import torch.nn.functional as F

x = torch.linspace(-2, 2, 7)
s = torch.tensor(0.5, device='cpu')
c = torch.tensor(True, device='cpu')
print(torch.where(c, x, -x))
print(torch.where(~c, x, -x))
print(torch.where(x > 0, x, s))
print(torch.where(x > 0, s, x))
print(F.mse_loss(x.sum() + 1, torch.tensor(1.5, device='cpu')))
print(F.mse_loss(torch.tensor(1.5, device='cpu'), x.mean() - 2))
print(x + s, x * s, s - x, x / s, x ** s.double())
print(torch.maximum(x, s), torch.atan2(x, s))
print(torch.special.xlog1py(x.abs(), s), torch.special.xlog1py(s, x.abs()))
y = x.clone().requires_grad_()
(torch.where(c, y * 2, y) * s).sum().backward()
print(y.grad)
