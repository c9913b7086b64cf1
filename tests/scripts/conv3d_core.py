# F.conv3d / F.conv_transpose3d as one ConvolutionBackward0 op (core/conv3d.c): float64 values and
# gradients bit for bit (printed as Python floats), double backward, torch.convolution, messages
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)


def show(name, t, exact=True):
    # exact: the bits (Python floats); else to 12 significant digits (PyTorch sums the bias gradient,
    # and a transposed convolution's input gradient, in another order)
    if exact:
        print(name, list(t.shape), t.flatten()[:6].tolist(), repr(t.sum().item()))
    else:
        print(name, list(t.shape), ["%.12g" % v for v in t.flatten()[:6].tolist()], "%.12g" % t.sum().item())


def run(name, f, x, w, b, transposed=False):
    x = x.clone().requires_grad_()
    w = w.clone().requires_grad_()
    b = b.clone().requires_grad_() if b is not None else None
    y = f(x, w, b)
    print(name, type(y.grad_fn).__name__)
    show("  y", y)
    g = torch.randn(y.shape, dtype=y.dtype)
    y.backward(g)
    show("  gx", x.grad, not transposed)
    show("  gw", w.grad)
    if b is not None:
        show("  gb", b.grad, False)


d = torch.float64
x = torch.randn(2, 4, 5, 6, 5, dtype=d)
run("conv3d", lambda x, w, b: F.conv3d(x, w, b), x, torch.randn(3, 4, 2, 3, 2, dtype=d), torch.randn(3, dtype=d))
run("conv3d stride/pad/dil/groups", lambda x, w, b: F.conv3d(x, w, b, (1, 2, 1), (1, 0, 2), (2, 1, 1), 2), x,
    torch.randn(6, 2, 2, 2, 3, dtype=d), torch.randn(6, dtype=d))
run("conv3d no bias, same", lambda x, w, b: F.conv3d(x, w, None, padding='same'), x, torch.randn(2, 4, 3, 2, 3, dtype=d),
    None)
run("conv_transpose3d", lambda x, w, b: F.conv_transpose3d(x, w, b), x, torch.randn(4, 3, 2, 2, 3, dtype=d),
    torch.randn(3, dtype=d), True)
run("conv_transpose3d stride/pad/outpad/groups/dil",
    lambda x, w, b: F.conv_transpose3d(x, w, b, (2, 1, 2), (1, 0, 1), (1, 0, 0), 2, (1, 2, 1)), x,
    torch.randn(4, 3, 2, 2, 3, dtype=d), torch.randn(6, dtype=d), True)

# modules, unbatched input, float32 (to 5 digits: PyTorch's float32 path is oneDNN's)
m = nn.Conv3d(2, 4, 3, stride=2, padding=1, dtype=d)
xu = torch.randn(2, 6, 7, 5, dtype=d, requires_grad=True)
yu = m(xu)
print(type(yu.grad_fn).__name__, list(yu.shape), repr(yu.sum().item()))
t = nn.ConvTranspose3d(4, 2, 3, stride=2, padding=1, output_padding=1, dtype=d)
print(type(t(yu).grad_fn).__name__, list(t(yu).shape), repr(t(yu).sum().item()))
print(list(t(yu, output_size=[5, 7, 5]).shape))
m32 = nn.Conv3d(3, 5, (2, 3, 3), padding=(0, 1, 1))
x32 = torch.randn(2, 3, 4, 8, 8)
y32 = m32(x32)
print(y32.grad_fn is not None, [round(v, 4) for v in y32.flatten()[:5].tolist()], round(y32.sum().item(), 3))
y32.pow(2).sum().backward()
print([round(v, 3) for v in m32.weight.grad.flatten()[:5].tolist()], round(m32.bias.grad.sum().item(), 3))
mt32 = nn.ConvTranspose3d(3, 2, 3, stride=2)
print([round(v, 4) for v in mt32(x32).flatten()[:5].tolist()], round(mt32(x32).sum().item(), 3))

# double backward: gradgradcheck and a gradient penalty
xs = torch.randn(1, 2, 4, 4, 3, dtype=d, requires_grad=True)
ws = torch.randn(4, 1, 2, 2, 2, dtype=d, requires_grad=True)
bs = torch.randn(4, dtype=d, requires_grad=True)
print(torch.autograd.gradcheck(lambda a, b, c: F.conv3d(a, b, c, 1, (1, 0, 1), (1, 2, 1), 2), (xs, ws, bs)))
print(torch.autograd.gradgradcheck(lambda a, b, c: F.conv3d(a, b, c, (2, 1, 1), 1, 1, 2), (xs, ws, bs)))
wt = torch.randn(2, 3, 2, 2, 2, dtype=d, requires_grad=True)
print(torch.autograd.gradcheck(lambda a, b: F.conv_transpose3d(a, b, None, 2, 1, 1), (xs, wt)))
print(torch.autograd.gradgradcheck(lambda a, b: F.conv_transpose3d(a, b, None, (1, 2, 1), 0, 0, 1, (2, 1, 1)), (xs, wt)))
critic = nn.Sequential(nn.Conv3d(2, 3, 2, dtype=d), nn.Tanh(), nn.Flatten(), nn.Linear(3 * 3 * 3 * 2, 1, dtype=d))
xi = torch.randn(2, 2, 4, 4, 3, dtype=d, requires_grad=True)
out = critic(xi)
gi, = torch.autograd.grad(out.sum(), xi, create_graph=True)
print(type(gi.grad_fn).__name__)
penalty = ((gi.flatten(1).norm(2, dim=1) - 1) ** 2).mean()
penalty.backward()
print(repr(penalty.item()), "%.12g" % critic[0].weight.grad.sum().item(), "%.12g" % critic[0].bias.grad.sum().item())

# torch.convolution, the entry under every F.conv*
x1 = torch.randn(2, 3, 7, dtype=d)
x2 = torch.randn(2, 3, 5, 6, dtype=d)
w1 = torch.randn(4, 3, 2, dtype=d)
print(torch.equal(torch.convolution(x1, w1, None, [2], [1], [1], False, [0], 1), F.conv1d(x1, w1, None, 2, 1)))
w2 = torch.randn(4, 3, 3, 2, dtype=d)
print(torch.equal(torch.convolution(x2, w2, None, [1, 1], [1, 0], [1, 1], False, [0, 0], 1), F.conv2d(x2, w2, None, 1, (1, 0))))
wt2 = torch.randn(3, 2, 2, 2, dtype=d)
print(torch.equal(torch.convolution(x2, wt2, None, [2, 2], [0, 0], [1, 1], True, [1, 0], 1),
                  F.conv_transpose2d(x2, wt2, None, 2, 0, (1, 0))))
w3 = torch.randn(2, 4, 2, 2, 2, dtype=d)
print(torch.equal(torch.convolution(x, w3, None, [1, 1, 1], [0, 0, 0], [1, 1, 1], False, [0, 0, 0], 1), F.conv3d(x, w3)))

# PyTorch's messages
bad = [
    lambda: F.conv3d(torch.randn(2, 3, 4, 4), torch.randn(2, 3, 2, 2, 2)),
    lambda: F.conv3d(torch.randn(1, 2, 3, 4, 4, 4), torch.randn(2, 2, 2, 2, 2)),
    lambda: F.conv3d(torch.randn(1, 3, 4, 4, 4), torch.randn(2, 2, 2, 2, 2)),
    lambda: F.conv3d(torch.randn(1, 2, 2, 4, 4), torch.randn(2, 2, 3, 2, 2)),
    lambda: F.conv3d(torch.randn(1, 2, 4, 4, 4), torch.randn(2, 2, 2, 2, 2), torch.randn(3)),
    lambda: F.conv3d(torch.randn(1, 2, 4, 4, 4), torch.randn(2, 2, 2, 2, 2, dtype=d)),
    lambda: F.conv3d(torch.randn(1, 2, 4, 4, 4), torch.randn(2, 2, 2, 2, 2), stride=0),
    lambda: F.conv_transpose3d(torch.randn(1, 2, 4, 4, 4), torch.randn(3, 2, 2, 2, 2)),
    lambda: F.conv_transpose3d(torch.randn(1, 2, 4, 4, 4), torch.randn(2, 2, 2, 2, 2), output_padding=1),
    lambda: F.conv_transpose3d(torch.randn(1, 2, 1, 1, 1), torch.randn(2, 2, 1, 1, 1), padding=1),
    lambda: torch.convolution(torch.randn(1, 2, 4, 4), torch.randn(2, 2, 2, 2, 2), None, [1], [0], [1], False, [0], 1),
    lambda: torch.convolution(x1, w1, None, 2, [1], [1], False, [0], 1),
]
for f in bad:
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)
