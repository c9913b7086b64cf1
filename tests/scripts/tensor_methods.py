# Tensor methods, properties and in-place operations
import torch

x = torch.arange(12.0).reshape(3, 4)
print(x.size(), x.dim(), x.ndim, x.numel(), x.shape)
print(x.tolist(), x[1, 2].item(), torch.tensor([[1, 2]]).tolist())
print(x.double().dtype, x.half(), x.bfloat16().dtype, x.long(), x.int(), x.bool().dtype, x.float().dtype)
print(x.cpu() is x, x.to(torch.float64).dtype, x.to("cpu").dtype, x.to(torch.zeros(1, dtype=torch.int64)).dtype)
print(x.is_floating_point(), x.long().is_floating_point(), x.is_contiguous(), x.t().is_contiguous())
print(x.requires_grad, x.is_leaf, x.grad_fn, x.grad, x.device)
print(x.get_device())  # -1: a CPU tensor
y = torch.zeros(2, 3)
y.add_(1.5)
y.sub_(0.5)
y.mul_(4)
y.div_(2)
print(y)
y.copy_(torch.arange(6.0).reshape(2, 3))
print(y)
y.zero_()
print(y)
y.fill_(2.25)
print(y)
torch.manual_seed(0)
print(torch.empty(2, 3).uniform_(), torch.empty(2, 2).uniform_(-1, 1))
print(torch.empty(3).normal_(), torch.empty(2).normal_(5.0, 0.1))
w = torch.ones(2)
print(w.requires_grad_(), w.requires_grad, w.is_leaf)
print(w.data, w.data.requires_grad)
z = x.t()
print(z.shape, x.T.shape, x.data.shape)
x.requires_grad = True
print(x.requires_grad)
g = torch.manual_seed(1)
print(g.initial_seed())
# item() of a tensor of several elements: PyTorch 1.13's ValueError
try:
    torch.ones(2).item()
except ValueError as e:
    print("ValueError:", e)
