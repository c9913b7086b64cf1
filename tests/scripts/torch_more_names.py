# Small torch names real scripts use (issue 16): get_default_dtype, broadcast_shapes/tensors,
# block_diag, cartesian_prod, combinations, tril/triu_indices, concat/concatenate, isin,
# argwhere, inner, vdot, tensor_split/hsplit/vsplit, Tensor.new/unflatten/mT/mH/H,
# torch.unflatten, F.relu_/elu_/leaky_relu_/hardtanh_, and their errors.
import torch
import torch.nn.functional as F


def attempt(f):
    try:
        print(f())
    except (RuntimeError, IndexError, TypeError) as e:
        print(type(e).__name__ + ":", e)


print(torch.get_default_dtype())
print(torch.broadcast_shapes((2, 1), (3,)), torch.broadcast_shapes((1, 4), (5, 1, 1), 4))
attempt(lambda: torch.broadcast_shapes((2,), (3,)))
a = torch.randn(2, 1, requires_grad=True)
b = torch.arange(3.)
ea, eb = torch.broadcast_tensors(a, b)
print(ea.shape, eb.shape, eb)
(ea * eb).sum().backward()
print(a.grad)

m = torch.ones(2, 2, requires_grad=True)
bd = torch.block_diag(m, torch.tensor(3.), torch.tensor([1., 2.]))
print(bd.detach())
(bd * torch.arange(20.).reshape(4, 5)).sum().backward()
print(m.grad)
print(torch.block_diag(torch.tensor([[1, 2]]), torch.tensor([[0.5], [1.5]])))
attempt(lambda: torch.block_diag(torch.ones(2, 2, 2)))

print(torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4, 5])))
print(torch.cartesian_prod(torch.tensor([1, 2])))
attempt(lambda: torch.cartesian_prod(torch.ones(2, 2)))
print(torch.combinations(torch.tensor([1, 2, 3])))
print(torch.combinations(torch.tensor([1., 2., 3.]), r=3, with_replacement=True).shape)
print(torch.combinations(torch.tensor([4, 5, 6, 7]), 3))
print(torch.combinations(torch.tensor([1, 2, 3]), r=0))

print(torch.tril_indices(3, 3), torch.tril_indices(4, 3, -1))
print(torch.triu_indices(3, 4, 1), torch.triu_indices(3, 3, dtype=torch.int32))

x = torch.arange(6.).reshape(2, 3)
print(torch.concat([x, x], 1), torch.concat((x, x)).shape, torch.concatenate([x, x], axis=0).shape)
print(torch.isin(torch.tensor([[1, 2], [3, 4]]), torch.tensor([2, 3])))
print(torch.isin(torch.tensor([1, 2]), 2, invert=True))
print(torch.argwhere(torch.tensor([[1, 0], [0, 1]])))
print(torch.inner(torch.arange(6.).reshape(2, 3), torch.arange(12.).reshape(4, 3)))
print(torch.inner(torch.tensor([1., 2.]), torch.tensor([3., 4.])), torch.inner(torch.tensor(2.), x))
attempt(lambda: torch.inner(torch.ones(2), torch.ones(3)))
print(torch.vdot(torch.tensor([1., 2.]), torch.tensor([3., 4.])))
attempt(lambda: torch.vdot(torch.tensor([1., 2.]), torch.tensor([3, 4])))
attempt(lambda: torch.vdot(torch.ones(2, 2), torch.ones(2)))

print(torch.tensor_split(torch.arange(7), 3))
print(torch.tensor_split(torch.arange(7), [1, 5]))
print(torch.tensor_split(torch.arange(7), [5, 2, 9]))
print(torch.tensor_split(torch.arange(12).reshape(3, 4), 3, dim=1))
print(torch.hsplit(torch.arange(12).reshape(3, 4), 2))
print(torch.vsplit(torch.arange(12).reshape(3, 4), [1]))
attempt(lambda: torch.hsplit(torch.arange(7), 2))
attempt(lambda: torch.vsplit(torch.arange(3), 1))
attempt(lambda: torch.tensor_split(torch.arange(3), 0))

y = torch.ones(2, 6, dtype=torch.float64, requires_grad=True)
print(y.unflatten(1, (2, -1)).shape, y.unflatten(-1, (3, 2)).grad_fn.name(), torch.unflatten(y, 0, (1, 2)).shape)
attempt(lambda: y.unflatten(1, (4, -1)))
attempt(lambda: y.unflatten(2, (1, 1)))
print(y.new(2, 3).shape, y.new(2, 3).dtype, y.new([1, 2]), y.new((2, 3)), y.new().shape, y.new(torch.Size([2])).shape)
z = torch.arange(6.).reshape(2, 3)
print(z.mT, z.mH, z.H, torch.tensor(2.).H, torch.ones(4, 2, 3).mT.shape)
attempt(lambda: torch.ones(3).mT)
attempt(lambda: torch.ones(3).H)
attempt(lambda: torch.ones(2, 2, 2).H)
attempt(lambda: torch.ones(3).mH)

v = torch.tensor([-2., -0.5, 0.5, 2.])
print(F.relu_(v.clone()), F.elu_(v.clone()), F.elu_(v.clone(), alpha=2.0))
print(F.leaky_relu_(v.clone()), F.leaky_relu_(v.clone(), 0.2))
print(F.hardtanh_(v.clone()), F.hardtanh_(v.clone(), -0.6, 0.6))
w = v.clone()
r = F.relu_(w)
print(r is w, w)
