# The shape by keyword, as d2l.ai writes it (torch.rand(size=(1, 1, 28, 28)), torch.randn(size=shape)):
# every factory, the new_* methods, and the shape methods' own keyword names (view(size=), reshape(shape=),
# expand(size=), permute(dims=), repeat(repeats=)); both forms at once is PyTorch's invalid-combination error.
import torch

for name in ['rand', 'randn', 'zeros', 'ones', 'empty']:
    f = getattr(torch, name)
    t = f(size=(2, 3))
    print(name, t.shape, t.dtype)
    t = f(size=[2], dtype=torch.float64, requires_grad=True)
    print(name, t.shape, t.dtype, t.requires_grad)
    t = f(size=torch.Size([1, 2]))
    print(name, t.shape)
    try:
        f((2,), size=(2, 3))
    except TypeError as e:
        print(name, 'TypeError', e)

torch.manual_seed(0)
a = torch.rand(size=(3,))
torch.manual_seed(0)
print(torch.equal(a, torch.rand(3)))
g = torch.Generator().manual_seed(1)
print(torch.randn(size=(2,), generator=g))
print(torch.full(size=(2,), fill_value=3.).tolist())
print(torch.randint(0, 5, size=(3,)).shape, torch.randint(high=5, size=(3,)).shape)
print(torch.normal(0, 1, size=(2,)).shape)

x = torch.ones(2, dtype=torch.float64)
print(x.new_zeros(size=(3,)), x.new_ones(size=(1,)), x.new_empty(size=(0,)).shape)
print(x.new_full(size=(2,), fill_value=2))

y = torch.arange(6.).reshape(2, 3)
print(y.view(size=(3, 2)))
print(y.reshape(shape=(3, 2)).shape, torch.reshape(y, shape=(6,)).shape, torch.reshape(input=y, shape=(1, 6)).shape)
print(y.expand(size=(2, 2, 3)).shape)
print(y.repeat(repeats=(2, 1)).shape)
print(y.permute(dims=(1, 0)).shape, torch.permute(y, dims=(1, 0)).shape)
for f in [lambda: y.reshape(shape=(3, 2), order='C'), lambda: y.repeat(2, repeats=(2,))]:
    try:
        f()
    except TypeError as e:
        print('TypeError', str(e).splitlines()[0])
