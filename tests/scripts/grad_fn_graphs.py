# grad_fn names and graph shapes as PyTorch 1.13 records them: y.grad_fn.name(),
# next_functions (AccumulateGrad.name() included), one node shared by the outputs of
# unbind/split/chunk, single nodes for take, max(dim), repeat, trace, diagonal, in-place
# div_/index_copy_/index_fill_, conv2d's bias-less edge and its backward under
# create_graph (one ConvolutionBackwardBackward0 for the three gradients), and the
# gradients through them (first, second and third order) against PyTorch's values.
import torch


def names(y):
    return [(None if f is None else f.name(), i) for f, i in y.grad_fn.next_functions]


def show(label, y):
    print(label, y.grad_fn.name(), type(y.grad_fn).__name__, names(y))


torch.manual_seed(0)
x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
show("take", torch.take(x, torch.tensor([0, 5])))
show("max(dim)", x.max(1)[0])
show("max(dim, keepdim)", x.max(1, keepdim=True).values)
show("min(dim)", x.min(0)[0])
show("repeat", x.repeat(2, 1, 3))
show("trace", x.trace())
show("diagonal", x.diagonal(1))
show("diag", torch.diag(x, -1))

parts = {"unbind": x.unbind(1), "split": x.split(3, 1), "split sizes": torch.split(x, [1, 0, 2], 0),
         "chunk": x.chunk(2, 0)}
for label, ps in parts.items():
    print(label, len(ps), [p.grad_fn.name() for p in ps], all(p.grad_fn is ps[0].grad_fn for p in ps),
          [p.output_nr for p in ps], names(ps[0]))

# gradients: some pieces unused (their gradient is zeros), weights per position
w = torch.arange(12., dtype=torch.float64).reshape(3, 4)
loss = (x.unbind(1)[2] * 2).sum() + x.split(3, 1)[1].sum() * 3 + (torch.split(x, [1, 0, 2], 0)[2] ** 2).sum() \
    + x.chunk(2, 0)[0].sum() + (x.repeat(2, 1, 3) * torch.arange(72.).reshape(2, 3, 12)).sum() + x.trace() * 5
g, = torch.autograd.grad(loss, x, create_graph=True)
print(g)
gg, = torch.autograd.grad((g * w).sum(), x)
print(gg)
y = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
t = y.trace()
gt, = torch.autograd.grad(t, y, create_graph=True)
print(gt, gt.requires_grad)

# in place: one node as PyTorch's, edges to the old history and the source
for label, f in [("div_", lambda a: a.div_(2)), ("div_ tensor", lambda a: a.div_(torch.tensor(2., dtype=torch.float64))),
                 ("index_copy_", lambda a: a.index_copy_(0, torch.tensor([2, 0]), torch.ones(2, 4, dtype=torch.float64))),
                 ("index_fill_", lambda a: a.index_fill_(1, torch.tensor([1, 3]), -1.))]:
    a = x * 1
    show(label, f(a))
src = torch.full((2, 4), 0.5, dtype=torch.float64, requires_grad=True)
v = torch.tensor(3., dtype=torch.float64, requires_grad=True)
a = x * 1
a.index_copy_(0, torch.tensor([2, 0]), src * src)
b = x.index_fill(1, torch.tensor([0, 2]), v)
show("index_copy_ of a source with history", a)
show("index_fill with a tensor", b)
show("index_fill out of place", x.index_fill(1, torch.tensor([0]), 1.))
show("index_copy out of place", x.index_copy(1, torch.tensor([0]), torch.full((3, 1), 0.5, dtype=torch.float64, requires_grad=True)))
((a * w).sum() + (b * w).sum()).backward()
print(x.grad, src.grad, v.grad)
for bad in [lambda: x.index_fill_(0, torch.tensor([1]), 2.), lambda: x.index_copy_(0, torch.tensor([1]), src[:1])]:
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)

# conv2d: the bias's edge is None without one; create_graph: one node for the gradients
wt = torch.randn(4, 2, 2, 3, dtype=torch.float64, requires_grad=True)
inp = torch.randn(2, 4, 5, 4, dtype=torch.float64, requires_grad=True)
bias = torch.randn(4, dtype=torch.float64, requires_grad=True)
gout = torch.randn(2, 4, 3, 4, dtype=torch.float64, requires_grad=True)


def conv(a, k, c=None):
    return torch.nn.functional.conv2d(a, k, c, stride=(2, 1), padding=1, dilation=(2, 1), groups=2)


show("conv2d", conv(inp, wt))
show("conv2d with bias", conv(inp, wt, bias))
gx, gw, gb = torch.autograd.grad(conv(inp, wt, bias), (inp, wt, bias), gout, create_graph=True)
show("conv2d input grad", gx)
print(gw.grad_fn is gx.grad_fn, gb.grad_fn is gx.grad_fn, gx.grad_fn.name())
r = (gx * gx.detach().cos()).sum() + (gw ** 2).sum() + (gb * 3).sum()
dx, dw, dg = torch.autograd.grad(r, (inp, wt, gout), create_graph=True)
print([round(float(q.sum()), 6) for q in (dx, dw, dg)], dx.grad_fn.name(), dw.grad_fn.name(), dg.grad_fn.name())
(dw.sum() + dg.pow(2).sum() + dx.sum()).backward()
print([round(float(q.grad.sum()), 6) for q in (gout, wt, inp)])
gi, = torch.autograd.grad(conv(inp, wt).sum(), inp, create_graph=True)
show("conv2d input grad without bias", gi)
