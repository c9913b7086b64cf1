# Under create_graph, the gradient of index_select, sort, topk, median, kthvalue
# (over a dim) and the diagonal of a square matrix carries PyTorch 1.13's node
# (IndexAddBackward0, ScatterBackward0, DiagonalBackwardBackward0), and the
# second derivatives flow through it.
import torch

torch.manual_seed(0)
x = torch.randn(4, 3, requires_grad=True)
sq = torch.randn(3, 3, requires_grad=True)
idx = torch.tensor([0, 2, 2])
cases = [
    ('index_select', x, lambda x: x.index_select(0, idx)),
    ('sort', x, lambda x: x.sort(0)[0]),
    ('topk', x, lambda x: x.topk(2, 0)[0]),
    ('median', x, lambda x: x.median(0)[0]),
    ('kthvalue', x, lambda x: x.kthvalue(2, 0)[0]),
    ('diagonal', sq, lambda x: x.diagonal()),
    ('diagonal_off', sq, lambda x: x.diagonal(1)),
]
for name, t, f in cases:
    y = f(t)
    g = torch.ones_like(y, requires_grad=True)
    gx, = torch.autograd.grad((y ** 3).sum(), t, create_graph=True)
    gg, = torch.autograd.grad(y, t, g, create_graph=True)
    print(name, type(y.grad_fn).__name__, gg.grad_fn.name(),
          [type(n[0]).__name__ if n[0] else None for n in gg.grad_fn.next_functions])
    print(gx)
    print(torch.autograd.grad(gx.sum(), t)[0])
