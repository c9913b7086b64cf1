# complex64 / complex128 elementwise math as PyTorch 1.13 computes it on an AVX2 CPU:
# every bit checked through a digest of the parts' exact values, over 203 elements
# (ATen's vectorized body of 200 and its scalar tail) and a strided view (scalar loop)
import hashlib

import torch

vals = [0j, 1 + 0j, -1 + 0j, 1j, -2.5 + 0j, 0.5j]
s = 0.5
for i in range(197):
    s = (s * 7.31 + 0.917) % 1.0
    t = (s * 5.17 + 0.413) % 1.0
    scale = [0.1, 1.0, 3.0, 10.0][i % 4]
    vals.append(complex(round((2 * s - 1) * scale, 5), round((2 * t - 1) * scale, 5)))


def bits(t):
    r = torch.view_as_real(t) if t.is_complex() else t
    return hashlib.md5(repr(r.tolist()).encode()).hexdigest()[:12]


names = ['exp', 'log', 'log2', 'log10', 'sqrt', 'rsqrt', 'reciprocal', 'sin', 'cos', 'tan', 'sinh', 'cosh',
         'tanh', 'sigmoid', 'sgn', 'square', 'abs', 'angle']
for dt in (torch.complex64, torch.complex128):
    z = torch.tensor(vals, dtype=dt)
    for f in names:
        print(dt, f, bits(getattr(torch, f)(z)), bits(getattr(z, f)()), bits(getattr(torch, f)(z[::2])))
    for e in (2, 3, -2, 0.5, -0.5, -1, 0, 1, 2.5, -1.3, 1j, 0.5 + 2j):
        print(dt, 'pow', e, bits(z ** e), bits(torch.pow(z[::2], e)))
    print(dt, 'pow tensor', bits(z ** z.flip(0)), bits(2 ** z), bits((1 + 1j) ** z))

# as printed
z = torch.tensor([1 + 2j, -0.5 + 0.25j, 3 - 1j, 0j])
print(torch.sqrt(z), z.log(), torch.sin(z), z.tanh())
print(torch.sigmoid(z), z.reciprocal(), torch.sgn(z), z.square())
print(z ** 2, z ** 0.5, z.pow(-1), z ** 1j, torch.tensor([1.5, 2.0]) ** (1 + 1j))
print(torch.log10(z[:3]), torch.rsqrt(z[:3]), torch.cosh(z), torch.tan(z.to(torch.complex128)))

# classes and closeness
w = torch.tensor([1 + 1j, complex(float('nan'), 0), complex(float('inf'), 1), complex(1, float('-inf')), 0j])
print(w.isnan(), torch.isinf(w), torch.isfinite(w))
a = torch.tensor([1 + 1j, 2 - 1j])
b = torch.tensor([1 + 1.00001j, 2 - 1j])
print(torch.allclose(a, b), torch.isclose(a, b), torch.isclose(a, a + 1e-3), a.allclose(b, rtol=0, atol=0))
print(torch.isclose(w, w), torch.isclose(w, w, equal_nan=True))

# reductions with a real or complex result, polar
m = torch.tensor(vals[:180]).reshape(12, 15)
for dt in (torch.complex64, torch.complex128):
    x = m.to(dt)
    print(dt, 'var std', bits(x.var()), bits(x.std(unbiased=False)))
    print(dt, 'cumsum', bits(x.cumsum(1)), bits(torch.cumsum(x, 0)), bits(x[:, ::2].cumsum(0)))
print(bits(m.var(1)), bits(torch.std(m, 0, keepdim=True)), m[:2, :3].var(1), m[:2, :3].std(), torch.cumsum(m[0, :4], 0))
r = torch.tensor([[1.0], [2.0]])
th = torch.tensor([0.5, 1.0, 2.0])
print(torch.polar(r, th), torch.polar(r.double(), th.double()))
print(bits(torch.polar(torch.arange(203.) / 7, torch.arange(203.) / 3)))
for f in [lambda: torch.polar(torch.tensor([1, 2]), torch.tensor([1, 2])),
          lambda: torch.polar(torch.tensor([1.]), torch.tensor([1.], dtype=torch.float64))]:
    try:
        print(f())
    except RuntimeError as e:
        print('RuntimeError:', e)

# what PyTorch refuses for complex input, with its messages
z = torch.tensor([1 + 2j, 3 - 1j])
tries = [lambda: torch.sort(z), lambda: z.argsort(), lambda: z.topk(1), lambda: z.max(), lambda: torch.min(z),
         lambda: z.max(0), lambda: torch.min(z, dim=0), lambda: torch.max(z, z), lambda: z.argmax(), lambda: z.amin(),
         lambda: z.median(), lambda: z.clamp(0, 1), lambda: torch.clamp(z, min=0), lambda: torch.relu(z),
         lambda: z.floor(), lambda: z.sign(), lambda: z.round(), lambda: z.to(torch.complex128).cummax(0)]
for f in tries:
    try:
        print(f())
    except RuntimeError as e:
        print('RuntimeError:', e)
