# torch names tutorials use that were missing or wrong: nn.Embedding.from_pretrained (and _weight=),
# torch.vander, torch.gradient (spacing as a number, per dim, coordinates; edge_order 1 and 2),
# torch.where(condition), torch.norm(x, 'nuc'), logaddexp2, signbit, nanmedian, index_put/index_put_,
# Tensor.tensor_split, set_printoptions resetting sci_mode; with 1.13's messages for bad arguments.
import torch
import torch.nn as nn

torch.manual_seed(0)
w = torch.tensor([[1., 2.], [3., 4.], [5., 6.]])
emb = nn.Embedding.from_pretrained(w)
print(emb, emb.weight, emb.weight.requires_grad, emb(torch.tensor([2, 0])))
print(emb.weight.data_ptr() == w.data_ptr())
emb2 = nn.Embedding.from_pretrained(w, freeze=False, padding_idx=1)
print(emb2, emb2.weight.requires_grad, emb2.padding_idx)
out = emb2(torch.tensor([1, 2])).sum()
out.backward()
print(emb2.weight.grad)
e3 = nn.Embedding(3, 2, _weight=torch.ones(3, 2))
print(e3.weight, torch.rand(1))
for bad in [lambda: nn.Embedding.from_pretrained(torch.ones(3)),
            lambda: nn.Embedding(4, 2, _weight=torch.ones(3, 2))]:
    try:
        bad()
    except AssertionError as e:
        print('AssertionError', e)

print(torch.vander(torch.tensor([1, 2, 3])), torch.vander(torch.tensor([1., 2., 3.]), N=4, increasing=True))
print(torch.vander(torch.tensor([2, 3]), N=0), torch.vander(torch.tensor([2, 3]), N=1))
try:
    torch.vander(torch.ones(2, 2))
except RuntimeError as e:
    print('RuntimeError', e)

x = torch.tensor([1., 4., 9., 16., 25.])
print(torch.gradient(x), torch.gradient(x, spacing=2.), torch.gradient(x, edge_order=2))
m = torch.arange(12.).reshape(3, 4) ** 2
print(torch.gradient(m), torch.gradient(m, dim=1), torch.gradient(m, spacing=[1., 0.5]))
coords = torch.tensor([0., 1., 1.5, 3.5, 4.])
print(torch.gradient(x, spacing=(coords,)), torch.gradient(x, spacing=(coords,), edge_order=2))
for kw in [dict(edge_order=3), dict(spacing=[1., 2.]), ]:
    try:
        torch.gradient(x, **kw)
    except RuntimeError as e:
        print('RuntimeError', e)
try:
    torch.gradient(torch.ones(2), edge_order=2)
except RuntimeError as e:
    print('RuntimeError', e)

c = torch.tensor([[0, 1], [2, 0]])
print(torch.where(c), torch.where(c > 0, c, -1))
a = torch.randn(3, 4)
print(torch.norm(a, p='nuc'), a.norm('nuc'), torch.norm(torch.randn(2, 3, 4), 'nuc', dim=(1, 2)))
print(torch.logaddexp2(torch.tensor([1., float('inf'), -float('inf'), 3.]), torch.tensor([2., float('inf'), -float('inf'), -1.])))
print(torch.signbit(torch.tensor([-0., 0., -1., 2.])), torch.tensor([-1, 2]).signbit())
n = torch.tensor([[1., float('nan'), 3., 2.], [4., 3., float('nan'), 2.]])
print(n.nanmedian(), torch.nanmedian(n, dim=1), torch.nanmedian(torch.tensor([float('nan')])))
print(torch.nanmedian(torch.tensor([[3., 1.], [2., 5.]]), 0, keepdim=True))
z = torch.zeros(3, 4)
print(z.index_put_((torch.tensor([0, 0, 2]), torch.tensor([1, 1, 3])), torch.tensor([1., 2, 3]), accumulate=True))
print(torch.index_put(torch.zeros(3), (torch.tensor([1]),), torch.tensor(5.)), z.index_put((torch.tensor([1]),), torch.tensor(7.)))
print(torch.arange(7).tensor_split(3), torch.arange(7).tensor_split([1, 5]))
# every set_printoptions call sets sci_mode (None unless given), as 1.13's
torch.set_printoptions(sci_mode=True)
print(torch.tensor([1.5, 20.]))
torch.set_printoptions(precision=3)
print(torch.tensor([1.5, 20.]))
torch.set_printoptions(profile='default')
print(torch.tensor([1.5, 20.]))
