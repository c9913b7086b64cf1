# Tensor.index_reduce / index_reduce_ / torch.index_reduce (prod, mean, amax, amin; include_self),
# their gradients and PyTorch 1.13's errors.
import torch
torch.manual_seed(0)
x = torch.empty(5, 3).fill_(2)
t = torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]], dtype=torch.float)
index = torch.tensor([0, 4, 2, 0])
for red in ['prod', 'mean', 'amax', 'amin']:
    print(red, x.index_reduce(0, index, t, red))
    print(red, x.index_reduce(0, index, t, red, include_self=False))
y = x.clone()
print(y.index_reduce_(0, index, t, 'prod') is y, y)
print(torch.index_reduce(x, 0, index, t, 'amax'))
print(torch.ones(3, 5).index_reduce(1, torch.tensor([1, 3, 1]), torch.arange(9.).view(3, 3), 'mean', include_self=False))
xi = torch.ones(3, 2, dtype=torch.int64)
print(xi.index_reduce(0, torch.tensor([0, 0, 2]), torch.tensor([[3, 4], [5, 6], [7, 8]]), 'mean'))
a = torch.rand(4, 3, requires_grad=True)
s = torch.rand(2, 3, requires_grad=True)
r = a.index_reduce(0, torch.tensor([1, 1]), s, 'prod')
print(r.grad_fn.name() if hasattr(r.grad_fn, 'name') else r.grad_fn)
r.sum().backward()
print(a.grad, s.grad)
for f in [lambda: x.index_reduce(0, index, t, 'sum'),
          lambda: x.index_reduce(0, index.float(), t, 'prod'),
          lambda: x.index_reduce(0, index.view(2, 2), t, 'prod'),
          lambda: x.index_reduce(0, index, t[:, :2], 'prod'),
          lambda: x.index_reduce(0, torch.tensor([0, 9, 1, 1]), t, 'prod'),
          lambda: x.index_reduce(0, index[:3], t, 'prod'),
          lambda: x.index_reduce(2, index, t, 'prod'),
          lambda: x.index_reduce(0, index, t.double(), 'prod'),
          ]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
