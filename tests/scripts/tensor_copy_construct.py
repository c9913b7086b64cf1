# torch.tensor(a_tensor): a detached copy (PyTorch warns and copies; nnscope raised ValueError)
import warnings
import torch

x = torch.arange(6.).view(2, 3)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    y = torch.tensor(x)
print([str(m.message)[:50] for m in w], [m.category.__name__ for m in w])
print(y, y.dtype, y.requires_grad)
y[0, 0] = 100
print(x[0, 0].item())
warnings.simplefilter('ignore')
p = torch.ones(3, requires_grad=True)
q = torch.tensor(p * 2)
print(q, q.requires_grad, q.grad_fn)
print(torch.tensor(x, dtype=torch.int64))
r = torch.tensor(x.t(), requires_grad=True)
print(r, r.is_leaf)
print(torch.tensor(torch.tensor(7)), torch.tensor(x[1]).tolist())
try:
    torch.tensor([x, x])
except ValueError as e:
    print('ValueError:', e)
