# Autograd through complex tensors as PyTorch 1.13 does it (Wirtinger calculus: the
# gradient of a real loss is dL/d(re) + i dL/d(im)), the grad_fn names, complex
# parameters in SGD / Adam, FFT gradients, and the cast warning.
import torch

z = torch.tensor([1+2j, 3-1j], requires_grad=True)
w = torch.tensor([0.5-1j, 2+0.25j], requires_grad=True)
print(z)
for name, f in [("real", lambda: z.real), ("imag", lambda: z.imag), ("view_as_real", lambda: torch.view_as_real(z)),
                ("view_as_complex", lambda: torch.view_as_complex(torch.view_as_real(z))), ("abs", lambda: z.abs()),
                ("mul", lambda: z * w), ("conj", lambda: z.conj()), ("conj_physical", lambda: z.conj_physical()),
                ("angle", lambda: torch.angle(z)), ("exp", lambda: z.exp()), ("div", lambda: z / w),
                ("add", lambda: z + w), ("sum", lambda: z.sum()), ("mean", lambda: z.mean()),
                ("sum dim", lambda: z.sum(0)), ("pow", lambda: z ** 2), ("mm", lambda: z.view(1, 2) @ w.view(2, 1)),
                ("dot", lambda: z @ w), ("complex", lambda: torch.complex(z.real, z.imag)), ("mul number", lambda: z * 2),
                ("sgn", lambda: z.sgn()), ("square", lambda: z.square()), ("sqrt", lambda: z.sqrt()),
                ("polar", lambda: torch.polar(z.abs(), z.angle()))]:
    r = f()
    print(name, type(r.grad_fn).__name__, r.dtype)
print(z * w)

(z * w).abs().sum().backward()
print(z.grad, w.grad)
z.grad = None
w.grad = None
(z * w).sum().backward()          # 1.13 seeds a complex scalar output with 1
print(z.grad, w.grad)
(z * w).sum().backward()          # accumulates
print(z.grad)
try:
    (z * w).backward()
except RuntimeError as e:
    print("RuntimeError:", e)
z.grad = None
(z.conj() * z).real.sum().backward()
print(z.grad)

x = torch.tensor([1., 2.], requires_grad=True)
y = x * (1 + 2j)
print(y)
y.abs().sum().backward()
print(x.grad)
print(torch.autograd.grad(torch.angle(z).sum(), z))
print(torch.autograd.grad(z.exp().imag.sum(), z))
for fn in ["exp", "log", "log2", "log10", "sqrt", "rsqrt", "reciprocal", "sin", "cos", "tan", "sinh", "cosh", "tanh",
           "sigmoid", "sgn", "square", "neg", "abs", "angle"]:
    out = getattr(torch, fn)(z)
    loss = torch.view_as_real(out).sum() if out.is_complex() else out.sum()
    g, = torch.autograd.grad(loss, z)
    print(fn, g)
g, = torch.autograd.grad((z.conj() * w).abs().sum(), z)
print("conj", g)

r = torch.tensor([1.5, -0.5], requires_grad=True)
t = torch.tensor([0.3, 2.0], requires_grad=True)
p = torch.polar(r, t)
(p * torch.tensor([1-1j, 2+0.5j])).real.sum().backward()
print(r.grad, t.grad)
a = torch.tensor([[1+1j, 2-1j], [0.5j, 3]], requires_grad=True)
b = torch.tensor([[2-1j], [1+1j]], requires_grad=True)
(a @ b).abs().sum().backward()
print(a.grad, b.grad)
re = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
im = torch.tensor([0.5, -1.0], requires_grad=True)
c = torch.complex(re, im)
(c * c).abs().sum().backward()
print(re.grad, im.grad)

# hooks and retain_grad see complex gradients
h = z * w
h.retain_grad()
h.register_hook(lambda g: print("hook", g))
h.abs().sum().backward()
print(h.grad)

# a complex-valued linear layer trained with SGD, and Adam on a complex128 parameter
torch.manual_seed(0)
W = torch.randn(3, 4, dtype=torch.cfloat, requires_grad=True)
bias = torch.zeros(3, dtype=torch.cfloat, requires_grad=True)
xs = torch.randn(8, 4, dtype=torch.cfloat)
ys = torch.randn(8, 3, dtype=torch.cfloat)
opt = torch.optim.SGD([W, bias], lr=0.05, momentum=0.9)
for step in range(3):
    opt.zero_grad()
    out = xs @ W.t() + bias
    loss = (out - ys).abs().pow(2).mean()
    loss.backward()
    opt.step()
    print(step, loss.item())
print(W.grad)
print(bias)
print(opt.state[W]['momentum_buffer'].dtype)
W2 = torch.randn(2, 2, dtype=torch.cdouble, requires_grad=True)
opt = torch.optim.Adam([W2], lr=0.1)
for step in range(3):
    opt.zero_grad()
    loss = (W2 @ W2.conj().T).real.trace() + W2.angle().sum()
    loss.backward()
    opt.step()
print(W2)
print(opt.state[W2]['exp_avg_sq'])

# FFT gradients (pocketfft rounds in float32: numbers rounded here)
x = torch.randn(4, 6, requires_grad=True)
zz = torch.randn(4, 6, dtype=torch.cfloat, requires_grad=True)
for name, f in [("fft", lambda: torch.fft.fft(zz)), ("fft of real", lambda: torch.fft.fft(x, n=8)),
                ("ifft", lambda: torch.fft.ifft(zz, n=4, norm="ortho")), ("rfft", lambda: torch.fft.rfft(x, norm="forward")),
                ("irfft", lambda: torch.fft.irfft(zz, n=7)), ("irfft dim 0", lambda: torch.fft.irfft(zz, dim=0)),
                ("fft2", lambda: torch.fft.fft2(zz)), ("rfft2", lambda: torch.fft.rfft2(x)),
                ("irfft2", lambda: torch.fft.irfft2(zz, s=(4, 5))), ("fftn", lambda: torch.fft.fftn(x, s=(3, 8))),
                ("ifftn", lambda: torch.fft.ifftn(zz, dim=(0,)))]:
    y = f()
    wt = torch.linspace(-1, 1, y.numel()).reshape(y.shape)
    loss = (y.abs() * wt).sum() if y.is_complex() else (y * wt).sum()
    gx, gz = torch.autograd.grad(loss, (x, zz), allow_unused=True)
    print(name, type(y.grad_fn).__name__, None if gx is None else round(gx.sum().item(), 3),
          None if gz is None else round(gz.real.sum().item(), 3), None if gz is None else round(gz.imag.sum().item(), 3))

# an FFT filter learned by gradient descent
sig = torch.sin(torch.linspace(0, 6.0, 16)) + 0.1 * torch.randn(16)
filt = torch.ones(9, requires_grad=True)
opt = torch.optim.SGD([filt], lr=0.1)
for step in range(4):
    opt.zero_grad()
    out = torch.fft.irfft(torch.fft.rfft(sig) * filt, n=16)
    loss = (out - sig.roll(1)).pow(2).sum()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4))
print(filt.detach().mul(1000).round().div(1000))

# casting complex to real drops the imaginary part, with ATen's warning (once)
import warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(torch.tensor([1+2j, 3-1j]).to(torch.float32))
    print(torch.tensor([1+2j]).float())
print([str(c.message) for c in caught])
