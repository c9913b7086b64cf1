# torch.Tensor's members looked up on the class (hasattr checks, unbound calls,
# monkey-patching code) and a few small Tensor methods: is_shared, is_inference,
# to_dense, put_/put, names, __array__.
import torch
t = torch.arange(6.).view(2, 3)
names = ['add', 'sum', 'addmm', 'type_as', 'view_as', 'expand_as', 'numpy', 'clip', 'divide', 'logit',
         'ravel', 'unflatten', 'index_fill_', 'random_', 'bernoulli_', 'is_leaf', 'shape', 'T', 'mT', 'grad',
         'requires_grad', 'dtype', 'device', 'data', 'ndim', 'is_cuda', 'nosuch', 'to_dense', 'put_']
print([n for n in names if hasattr(torch.Tensor, n)])
print([n for n in names if not hasattr(torch.Tensor, n)])
print(torch.Tensor.add, torch.Tensor.shape, torch.Tensor.T, torch.Tensor.addmm.__qualname__)
print(torch.Tensor.add(t, 1))
print(torch.Tensor.view_as(torch.ones(6), t))
print(torch.Tensor.clip(t, 1, 4))
f = torch.Tensor.mul
print(f(t, 2))
try:
    torch.Tensor.add()
except TypeError as e:
    print('TypeError', e)
try:
    torch.Tensor.add(3, 1)
except TypeError as e:
    print('TypeError', e)
try:
    torch.Tensor.nosuch
except AttributeError as e:
    print('AttributeError', e)
print(t.names, t.is_shared(), t.is_inference(), t.to_dense() is t)
u = t.clone()
print(u.put_(torch.tensor([0, 5]), torch.tensor([9., 8.])))
print(u.t().put(torch.tensor([1, 2]), torch.tensor([5., 6.])))
print(u.put_(torch.tensor([1, 1]), torch.tensor([1., 2.]), accumulate=True))
print(t.__array__(), t.__array__().dtype)
