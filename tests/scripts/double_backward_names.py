# Second-order graphs named as PyTorch 1.13's: the create_graph gradient of masked_select is one
# MaskedScatterBackward0 node (of index_select one IndexAddBackward0), their next_functions, the values
# of second derivatives through them; a convolution's bias gradient under create_graph is a
# ConvolutionBackwardBackward0 as its input and weight gradients; channel_shuffle has no derivative.
import torch
import torch.nn.functional as F


def names(fn):
    return [(type(f).__name__ if f is not None else None, i) for f, i in fn.next_functions]


torch.manual_seed(0)
x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
mask = x > 0
y = x.masked_select(mask)
g, = torch.autograd.grad((y ** 3).sum(), x, create_graph=True)
print(g.grad_fn.name(), names(g.grad_fn))
print(g)
gg, = torch.autograd.grad((g * torch.arange(12.).reshape(3, 4)).sum(), x)
print(gg)
m2 = torch.tensor([True, False, True, True])
y = torch.masked_select(x, m2)
g, = torch.autograd.grad((y ** 2).sum(), x, create_graph=True)
print(g.grad_fn.name(), g)
print(torch.autograd.gradgradcheck(lambda t: t.masked_select(t.detach() > 0) ** 2, (x,)))

y = torch.index_select(x, 1, torch.tensor([0, 2, 2]))
g, = torch.autograd.grad((y ** 3).sum(), x, create_graph=True)
print(g.grad_fn.name(), names(g.grad_fn))
print(g)
print(torch.autograd.grad(g.sum(), x)[0])
y = x.index_select(0, torch.tensor([2, 0]))
g, = torch.autograd.grad((y.exp()).sum(), x, create_graph=True)
print(g.grad_fn.name(), g.sum())
print(torch.autograd.gradgradcheck(lambda t: t.index_select(1, torch.tensor([3, 1])).sin(), (x,)))

inp = torch.randn(1, 2, 4, 4, dtype=torch.float64, requires_grad=True)
w = torch.randn(3, 2, 2, 2, dtype=torch.float64, requires_grad=True)
b = torch.randn(3, dtype=torch.float64, requires_grad=True)
for f, ww in [(lambda a, c, d: F.conv2d(a, c, d), w),
              (lambda a, c, d: F.conv1d(a[:, :, 0], c[:, :, 0], d), w),
              (lambda a, c, d: F.conv_transpose2d(a, c.transpose(0, 1), d), w),
              (lambda a, c, d: F.conv_transpose1d(a[:, :, 0], c[:, :, 0].transpose(0, 1), d), w)]:
    out = f(inp, ww, b)
    gi, gw, gb = torch.autograd.grad((out ** 2).sum(), (inp, ww, b), create_graph=True)
    print(gi.grad_fn.name(), gw.grad_fn.name(), gb.grad_fn.name(), gb)
    print(torch.autograd.grad(gb.sum(), b)[0])

x = torch.randn(1, 4, 2, 2, requires_grad=True)
y = F.channel_shuffle(x, 2)
print(y.grad_fn.name(), y.requires_grad, y.view(-1)[:4])
try:
    y.sum().backward()
except RuntimeError as e:
    print('RuntimeError', e)
print(torch.nn.ChannelShuffle(2)(x).grad_fn.name(), torch.channel_shuffle(x.detach(), 2).requires_grad)
with torch.no_grad():
    print(F.channel_shuffle(x, 2).grad_fn)
