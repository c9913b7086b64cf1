# double backward through indexing: x[mask], x[idx], x[mask] = v, masked_select, index_select, gather
# (gradgradcheck and the second derivatives against PyTorch 1.13)
import torch
torch.manual_seed(0)
d = torch.float64
x = torch.randn(3, 4, dtype=d, requires_grad=True)
m = x.detach() > 0
idx = torch.tensor([0, 2, 2])
cases = {
    'x[mask]': lambda a: a[m] ** 3,
    'x[idx]': lambda a: a[idx] ** 3,
    'x[:, idx]': lambda a: a[:, idx] ** 3,
    'x[mask2d rows]': lambda a: a[torch.tensor([True, False, True])] ** 3,
    'masked_select': lambda a: a.masked_select(m) ** 3,
    'index_select': lambda a: a.index_select(1, idx) ** 3,
    'gather': lambda a: a.gather(1, torch.tensor([[0, 2], [1, 1], [3, 0]])) ** 3,
}
for k, f in cases.items():
    try:
        print(k, torch.autograd.gradgradcheck(f, (x,)))
        g, = torch.autograd.grad(f(x).sum(), x, create_graph=True)
        print('  ', type(g.grad_fn).__name__ if k not in ('masked_select', 'index_select') else '', g.sum().item())
        h, = torch.autograd.grad((g ** 2).sum(), x)
        print('  ', h.tolist())
    except Exception as e:
        print(k, "ERR", type(e).__name__)
def put(a):
    b = a.clone()
    b[m] = a[m] * 2
    return b ** 3
try:
    print('x[mask] = v', torch.autograd.gradgradcheck(put, (x,)))
except Exception as e:
    print("x[mask] = v ERR", type(e).__name__)
print(torch.autograd.gradcheck(put, (x,), raise_exception=False))
y = put(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(type(g.grad_fn).__name__, g.tolist())
h, = torch.autograd.grad((g**2).sum(), x)
print(h.tolist())
