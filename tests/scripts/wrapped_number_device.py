# Python numbers in binary ops with a tensor are wrapped as 0-dim CPU scalars (PyTorch's
# wrapped numbers), so CPU tensors mix with numbers whatever the default device is
# (tests/run.sh reruns this script with the loopback device as the default).
import torch

x = torch.arange(4.0, device='cpu')
i = torch.tensor([1, 2, 3], device='cpu')
print(x * 1.5, 2 + x, x - 0.5, x / 2, 1 / (x + 1), x ** 2, 2 ** x)
print(i * 2, i // 2, i % 2, -i + 1, i * 0.5, i > 1, x == 2.0, x.clamp(1, 2))
print(torch.where(x > 1, x, 0.0), torch.add(x, 3), x.add(1, alpha=2), x.mul(True))
y = (x * 2.5 + 1).sum()
print(y, y.device, (x * 1.5).device, (i * 2).dtype, (i * 0.5).dtype, (x > 1).device)
w = torch.ones(3, device='cpu', requires_grad=True)
loss = ((w * 3.0 - 1) ** 2).mean()
loss.backward()
print(loss, w.grad, w.grad.device)
z = torch.zeros(2, device='cpu')
z += 1
z *= 2.5
z.add_(0.5).div_(2)
print(z, z.device)
