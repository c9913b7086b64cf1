# fmod, logit, nansum/nanmean, rot90, take, take_along_dim, cummax/cummin, cross,
# kron, tensordot, diff, atleast_1d/2d/3d, dstack, column_stack, searchsorted and
# bucketize as functions, methods and in place, with gradients, grad_fn names and
# errors (expected output from PyTorch 1.13).
import torch


def err(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + ":", e)


def grad_of(f, *xs):
    for x in xs:
        x.grad = None
    y = f()
    print(y.grad_fn.name())
    y.backward(torch.arange(1.0, y.numel() + 1).reshape(y.shape))
    for x in xs:
        print(x.grad)


a = torch.tensor([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]], requires_grad=True)
b = torch.tensor([[0.5, 1.0, -2.5], [2.0, -3.0, 1.5]], requires_grad=True)
n = torch.tensor([[1.0, float("nan"), 3.0], [float("nan"), float("nan"), -2.0]], requires_grad=True)

print("fmod")
print(torch.fmod(torch.tensor([-3.0, 3, 5.5, -7.25]), 2), torch.fmod(torch.tensor([-3, 3, 5]), 2))
print(torch.fmod(torch.tensor([-3, 3, 5]), 2.5), torch.fmod(torch.tensor([-3.0, 3, 5]), torch.tensor([0.0, -2, 2])))
print(torch.tensor([-3, 7, 5]).fmod(torch.tensor([2, -3, 5])), torch.remainder(torch.tensor([-3.0, 3]), 2))
err(lambda: torch.fmod(torch.tensor([-3, 3, 5]), 0))
err(lambda: torch.tensor([-3, 3, 5]).fmod_(2.5))
x = torch.tensor([-3.0, 3, 5])
print(x.fmod_(2), x)
grad_of(lambda: torch.fmod(a, 1.25), a)
grad_of(lambda: torch.fmod(a, b), a, b)

print("logit")
print(torch.logit(torch.tensor([0.0, 0.25, 1.0, 2.0])), torch.logit(torch.tensor([0.0, 0.25, 1.0, 2.0]), eps=0.1))
print(torch.logit(torch.tensor([1, 2])), torch.tensor([0.3, 0.9]).logit(1e-6))
p = torch.tensor([0.05, 0.3, 0.5, 0.97], requires_grad=True)
grad_of(lambda: p.logit(), p)
grad_of(lambda: torch.logit(p, eps=0.1), p)
y = torch.tensor([0.2, 0.6])
print(y.logit_(), y)

print("nansum / nanmean")
print(torch.nansum(n), n.nansum(1), torch.nansum(n, dim=0, keepdim=True), torch.nansum(torch.tensor([1, 2])))
print(torch.nanmean(n), n.nanmean(1), torch.nanmean(n, 0, True), torch.nansum(n, 1, dtype=torch.float64))
err(lambda: torch.nanmean(torch.tensor([1, 2])))
grad_of(lambda: torch.nansum(n, 1), n)
grad_of(lambda: n.nanmean(), n)

print("rot90")
m = torch.arange(6.0).reshape(2, 3).requires_grad_()
print(torch.rot90(m), m.rot90(2), torch.rot90(m, -1, (1, 0)), torch.rot90(m, 3, [0, 1]), torch.rot90(m, 4))
print(torch.rot90(m).is_contiguous(), torch.rot90(m).stride())
err(lambda: torch.rot90(m, 1, [0]))
err(lambda: torch.rot90(m, 1, [0, 0]))
err(lambda: torch.rot90(torch.ones(3)))
grad_of(lambda: torch.rot90(m), m)
grad_of(lambda: torch.rot90(m, 3), m)

print("take")
print(torch.take(m, torch.tensor([0, 5, -1])), m.take(torch.tensor([[0, -6], [2, 2]])))
err(lambda: torch.take(m, torch.tensor([0, 6])))
err(lambda: torch.take(m, torch.tensor([0, 1], dtype=torch.int32)))
grad_of(lambda: torch.take(m, torch.tensor([[1, 1], [-1, 0]])), m)
print(torch.take_along_dim(a, torch.tensor([[0], [2]]), dim=1), a.take_along_dim(torch.tensor([5, 0])))
idx = torch.argsort(a, dim=1)
print(torch.take_along_dim(a, idx, 1), torch.take_along_dim(a, torch.tensor([[1, 0, 1]]), 0))
err(lambda: torch.take_along_dim(a, torch.tensor([1]), 0))
err(lambda: torch.take_along_dim(a, torch.tensor([[1]], dtype=torch.int32), 0))
grad_of(lambda: torch.take_along_dim(a, torch.tensor([[0, 0], [2, 1]]), 1), a)

print("cummax / cummin")
c = torch.tensor([1.0, 3, 3, float("nan"), 2, float("nan"), 5])
print(torch.cummax(c, 0))
print(torch.cummin(torch.tensor([[1, 3, 0], [2, 2, -1]]), 1))
r = a.cummax(dim=1)
print(r.values, r.indices, r[0].grad_fn.name())
print(torch.cummax(torch.tensor(2.0), 0), torch.cummin(a, 0))
err(lambda: torch.cummax(a, 2))
grad_of(lambda: torch.cummax(a, 1)[0], a)
grad_of(lambda: torch.cummin(a, 0).values, a)

print("cross")
v = torch.tensor([[1.0, 2, 3], [-1, 0.5, 2]], requires_grad=True)
w = torch.tensor([[0.5, -1, 2], [3, 1, -2]], requires_grad=True)
print(torch.cross(v, w), v.cross(w, dim=1), torch.linalg.cross(v, w), torch.cross(v.t(), w.t()))
print(torch.linalg.cross(v, torch.tensor([[1.0, 0, 0]])))
err(lambda: torch.cross(v, torch.ones(3)))
err(lambda: torch.cross(v[:, :2], w[:, :2]))
err(lambda: torch.cross(v[:, :2], w[:, :2], dim=1))
err(lambda: torch.linalg.cross(v[:, :2], w[:, :2]))
grad_of(lambda: torch.cross(v, w, dim=1), v, w)
grad_of(lambda: torch.linalg.cross(v, w[:1]), v, w)

print("kron")
k1 = torch.tensor([[1.0, 2], [3, 4]], requires_grad=True)
k2 = torch.tensor([[0.0, 5], [6, 7], [1, -1]], requires_grad=True)
print(torch.kron(k1, k2), torch.kron(torch.tensor([1, 2]), torch.tensor([[1, 10], [100, 1000]])))
print(k1.kron(torch.tensor([1.0, -1])).shape, torch.kron(torch.ones(2, 1, 2), torch.ones(3, 2)).shape)
grad_of(lambda: torch.kron(k1, k2), k1, k2)

print("tensordot")
t1 = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
t2 = torch.arange(12.0).reshape(3, 4).requires_grad_()
print(torch.tensordot(t1, t2), torch.tensordot(t1, t2, dims=([1, 2], [0, 1])))
print(torch.tensordot(t1, t2.t(), dims=1).shape, torch.tensordot(t2, t1, dims=([0], [1])).shape, torch.tensordot(t2, t2, 0).shape)
err(lambda: torch.tensordot(t1, t2, dims=([0], [0])))
err(lambda: torch.tensordot(t1, t2, dims=1))
grad_of(lambda: torch.tensordot(t1, t2, dims=([1], [0])), t1, t2)

print("diff")
d = torch.tensor([1.0, 3, 6, 10, 15], requires_grad=True)
print(torch.diff(d), d.diff(n=2), torch.diff(d, prepend=torch.tensor([0.0]), append=torch.tensor([21.0, 28])))
print(torch.diff(a, dim=0), torch.diff(a, n=0), torch.diff(torch.tensor([True, False, False, True])), torch.diff(d, n=9))
print(torch.diff(torch.tensor([[1, 4], [9, 16]]), dim=-1))
err(lambda: torch.diff(torch.tensor(1.0)))
err(lambda: torch.diff(d, n=-1))
err(lambda: torch.diff(d, prepend=torch.tensor([[0.0]])))
grad_of(lambda: torch.diff(d, n=2), d)
grad_of(lambda: torch.diff(d, prepend=d[:1] * 2), d)

print("atleast / dstack / column_stack")
s = torch.tensor(5.0, requires_grad=True)
print(torch.atleast_1d(s), torch.atleast_2d(s), torch.atleast_3d(s), torch.atleast_2d(d).shape, torch.atleast_3d(d).shape)
print(torch.atleast_3d(a).shape, torch.atleast_1d(a) is a, torch.atleast_2d(s, d), torch.atleast_1d([s, d]))
print(torch.atleast_3d(a).grad_fn.name(), torch.atleast_2d(s).grad_fn.name())
print(torch.dstack([torch.tensor([1, 2, 3]), torch.tensor([4, 5, 6])]), torch.dstack((a, b)).shape)
print(torch.column_stack([torch.tensor([1, 2, 3]), torch.tensor([4, 5, 6])]), torch.column_stack((a.t(), d[:3], s.expand(3))).shape)
print(torch.dstack([a, b]).grad_fn.name(), torch.column_stack([d, d]).grad_fn.name())
err(lambda: torch.dstack([]))
err(lambda: torch.column_stack([]))

print("searchsorted / bucketize")
ss = torch.tensor([1, 3, 5, 7, 9])
vals = torch.tensor([[3, 6, 9], [3, 6, 0]])
print(torch.searchsorted(ss, vals), torch.searchsorted(ss, vals, right=True), torch.searchsorted(ss, vals, side="right"))
print(torch.searchsorted(ss, 5), torch.searchsorted(ss, torch.tensor([5.5, float("nan")])))
print(torch.searchsorted(torch.tensor([[1, 3, 5, 7, 9], [2, 4, 6, 8, 10]]), torch.tensor([[3, 6, 9], [3, 6, 9]])))
print(torch.searchsorted(torch.tensor([5, 1, 9, 3]), torch.tensor([4, 9]), sorter=torch.tensor([1, 3, 0, 2])))
print(torch.searchsorted(ss, vals, out_int32=True).dtype)
print(torch.bucketize(vals, ss), torch.bucketize(vals, ss, right=True), torch.bucketize(torch.tensor([0.5, 3.0, 9.5]), torch.tensor([1.0, 3.0, 9.0])))
err(lambda: torch.searchsorted(torch.tensor([[1, 3], [2, 4]]), torch.tensor([[1, 3]])))
err(lambda: torch.bucketize(vals, torch.tensor([[1, 2]])))
err(lambda: torch.searchsorted(ss, vals, side="middle"))
err(lambda: torch.searchsorted(ss, vals, side="left", right=True))
