# out=(values, indices) on sort, topk, kthvalue, max/min with dim, median, mode,
# cummax/cummin, aminmax (torch.return_types.NAME_out, the resize warning, dtype errors);
# torch.poisson with PyTorch's seeded stream; torch.FloatTensor(2, 3)'s shape
# (expected output from PyTorch 1.13).
import warnings

import torch

warnings.simplefilter("always")


def err(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + ":", e)


x = torch.tensor([[3.0, 1, 2], [0, 5, 4]])
v = torch.empty(0)
i = torch.empty(0, dtype=torch.long)
print(torch.sort(x, out=(v, i)))
print(v, i)
r = torch.sort(x, 1, True, out=(v, i))
print(r.values is v, r.indices is i, r[0] is v)
print(torch.max(x, 1, out=(v, i)), v.shape)
print(torch.topk(x, 2, out=(v, i)))
print(torch.kthvalue(x, 2, out=(v, i)))
print(torch.median(x, 1, out=(v, i)))
print(torch.mode(x, 1, out=(v, i)))
print(torch.min(x, 1, out=(torch.ones(2, 3), torch.ones(2, dtype=torch.long))))
print(torch.sort(x, out=[v, i]))
print(torch.cummax(x, 1, out=(v, i)), torch.cummin(x, 0, out=(v, i)))
lo, hi = torch.empty(0), torch.empty(0)
r = torch.aminmax(x, dim=1, out=(lo, hi))
print(r, r.min is lo, r.max is hi)
print(torch.kthvalue(x, 1, 0, True, out=(v, i)))
err(lambda: torch.sort(x, out=(v,)))
err(lambda: torch.sort(x, out=(v, v)))
err(lambda: torch.aminmax(x, out=(v, i)))
err(lambda: torch.sort(x.clone().requires_grad_(), out=(v, i)))

print("poisson")
torch.manual_seed(0)
rates = torch.tensor([0.0, 0.5, 3.0, 9.9, 10.0, 25.0, 300.0, 1e4])
print(torch.poisson(rates))
print(torch.poisson(rates.double()))
g = torch.Generator().manual_seed(3)
print(torch.poisson(torch.full((2, 3), 4.0), generator=g))
p = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.poisson(p)
print(y)
y.sum().backward()
print(p.grad)
err(lambda: torch.poisson(torch.tensor([-1.0])))
err(lambda: torch.poisson(torch.tensor([1, 2])))
print(torch.rand(2))

print("FloatTensor")
t = torch.FloatTensor(2, 3)
print(t.shape, t.dtype, torch.DoubleTensor(4).shape, torch.LongTensor(2, 1, 2).shape)

print("scatter_reduce")
x = torch.tensor([[1.0, 2, 3], [4, 5, 6]])
idx = torch.tensor([[0, 1, 0], [1, 1, 0]])
src = torch.tensor([[10.0, 20, 30], [40, 50, 60]])
for r in ["sum", "prod", "mean", "amax", "amin"]:
    print(r, x.scatter_reduce(0, idx, src, r), x.scatter_reduce(0, idx, src, r, include_self=False))
print(torch.tensor([1, 2, 3]).scatter_reduce(0, torch.tensor([0, 0, 2]), torch.tensor([4, 5, 7]), "mean"))
print(torch.tensor([1, 2, 3]).scatter_reduce(0, torch.tensor([0, 0, 2]), torch.tensor([4, 5, 7]), "mean", include_self=False))
print(torch.scatter_reduce(x, 1, idx, src, reduce="amax"))
y = x.clone()
print(y.scatter_reduce_(1, idx, src, "sum"), y)
err(lambda: x.scatter_reduce(0, idx, src, "max"))
err(lambda: x.scatter_reduce(0, idx.int(), src, "sum"))
err(lambda: x.scatter_reduce(0, torch.tensor([[3]]), src, "sum"))
err(lambda: x.scatter_reduce(0, torch.tensor([0]), src, "sum"))
err(lambda: x.scatter_reduce(1, torch.tensor([[0, 0, 0, 0]]), src, "sum"))
err(lambda: x.scatter_reduce(0, idx, src.double(), "sum"))
a = x.clone().requires_grad_()
s = src.clone().requires_grad_()
for r in ["sum", "prod", "mean", "amax", "amin"]:
    for inc in [True, False]:
        a.grad = None
        s.grad = None
        o = a.scatter_reduce(0, idx, s, r, include_self=inc)
        o.backward(torch.arange(1.0, 7).reshape(2, 3))
        print(r, inc, o.grad_fn.name(), a.grad, s.grad)

print("cdist / cov / corrcoef")
a = torch.tensor([[0.0, 1, 2], [3, -1, 0.5], [1, 1, 1]], requires_grad=True)
b = torch.tensor([[1.0, 0, 2], [0.5, 2, -1]], requires_grad=True)
for p in [2.0, 1.0, 3.0, 0.0, float("inf")]:
    d = torch.cdist(a, b, p=p)
    print(p, d, d.grad_fn.name())
    a.grad = None
    b.grad = None
    d.backward(torch.arange(1.0, 7).reshape(3, 2))
    print(a.grad, b.grad)
big = (torch.arange(60.0).reshape(30, 2) / 7).requires_grad_()
d = torch.cdist(big, big[:3].detach())
print(d[:3], d.grad_fn.name(), d.shape)
print(torch.cdist(a[None], b[None]).shape)
err(lambda: torch.cdist(a, torch.ones(2, 2)))
err(lambda: torch.cdist(a, b, p=-1))
x = torch.tensor([[0.0, 1, 2, 4], [3, -1, 0.5, 2]], requires_grad=True)
c = torch.cov(x)
print(c, c.grad_fn.name())
print(torch.cov(x, correction=0), torch.cov(x[0]), torch.cov(torch.tensor([[1, 2, 4], [0, 3, 3]])))
print(torch.corrcoef(x), torch.corrcoef(x).grad_fn.name(), torch.corrcoef(x[0]))
print(torch.cov(torch.tensor([[1.0]])))
c.sum().backward()
print(x.grad)
print(x.cov(), x.corrcoef())

print("quantile / nanquantile")
a = torch.tensor([[0.0, 7, 2, 5], [3, -1, 0.5, float("nan")], [1, 1, 4, 2]], requires_grad=True)
b = a.detach()[[0, 2]]
print(torch.quantile(b, 0.3), torch.quantile(b, 0.3, dim=1))
print(torch.quantile(b, torch.tensor([0.25, 0.5, 1.0]), dim=0, keepdim=True))
print(torch.quantile(b, torch.tensor([0.25, 0.5])), b.quantile(0.5, 1, True, interpolation="lower"))
print([b.quantile(0.4, 1, interpolation=m) for m in ["linear", "lower", "higher", "midpoint", "nearest"]])
print(torch.quantile(a, 0.5, dim=1), torch.nanquantile(a, 0.5, dim=1), torch.nanquantile(a.detach(), 0.5))
print(torch.nanquantile(a.detach(), torch.tensor([0.1, 0.9]), dim=1))
err(lambda: torch.quantile(b, 1.5))
err(lambda: torch.quantile(b.long(), 0.5))
err(lambda: torch.quantile(b, 0.5, interpolation="x"))
err(lambda: torch.quantile(b, torch.tensor([[0.5]])))
x = b.clone().requires_grad_()
q = torch.quantile(x, 0.3, dim=1)
q.sum().backward()
print(q.grad_fn.name(), x.grad)
