# torch.var_mean / std_mean: values bit for bit (Welford for every reduction), dims/unbiased/keepdim, the shared VarMeanBackward0 node and its gradients, errors, against PyTorch 1.13
import torch
torch.manual_seed(0)
torch.set_printoptions(precision=8)
for size in [(10,), (1000,), (37, 53), (4, 5, 6)]:
    x = torch.randn(*size)
    print(torch.var_mean(x), torch.std_mean(x, unbiased=False))
    print(torch.var_mean(x, 0), torch.std_mean(x, -1, keepdim=True)[1].shape)
x = torch.randn(6, 7, dtype=torch.float64)
v, m = torch.var_mean(x, dim=1, unbiased=False, keepdim=True); print(v, m)
print(torch.var_mean(x.t(), 0)[1])
a = torch.randn(3, 4, requires_grad=True)
v, m = torch.var_mean(a, 1)
print(v.grad_fn.name(), m.grad_fn is v.grad_fn, type(torch.var_mean(a)).__name__)
(v.sum() * 2 + m.sum() * 3).backward(); print(a.grad)
a.grad = None
s, m = torch.std_mean(a); print(s.grad_fn.name()); (s + m).backward(); print(a.grad)
a.grad = None
m2 = torch.var_mean(a, 0)[1]; m2.sum().backward(); print(a.grad)
print(torch.var_mean(torch.tensor([1.0])), hasattr(torch.randn(2), 'var_mean'))
try:
    torch.var_mean(torch.tensor([1, 2]))
except RuntimeError as e:
    print('RuntimeError', e)
try:
    torch.std_mean(torch.tensor([1, 2]))
except RuntimeError as e:
    print("RuntimeError", e)
