# torch's elementwise math (issue 16): functions, methods, in-place methods,
# gradients and grad_fn names, against PyTorch 1.13.
import torch

torch.manual_seed(0)
x = torch.tensor([-0.9, -0.5, -0.1, 0.0, 0.2, 0.7, 0.95])
pos = torch.tensor([0.1, 0.5, 1.0, 2.0, 10.0, 1e-3])
big = torch.tensor([1.0, 1.5, 3.0, 20.0])
names = ["sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "atanh", "log1p", "expm1", "exp2",
         "erf", "erfc", "erfinv", "trunc", "frac", "reciprocal"]
for name in names:
    f = getattr(torch, name)
    print(name, f(x), getattr(x, name)())
    y = x.clone()
    getattr(y, name + "_")()
    print(y)
for name in ["log2", "log10", "rsqrt", "sqrt", "reciprocal"]:
    print(name, getattr(torch, name)(pos), getattr(pos, name)())
print(torch.acosh(big), big.acosh())
print(torch.sin(torch.tensor([1, 2, 3])), torch.trunc(torch.tensor([1, -2])), torch.sin(torch.tensor([1.0], dtype=torch.float64)))
print(torch.erfinv(torch.tensor([-1.0, 1.0, 1.5, 0.0])))
w = torch.linspace(-3, 3, 13, dtype=torch.float64)
print(torch.sin(w), torch.erf(w), torch.atan(w))
# float32 results are within one ulp of the float64 function rounded (SLEEF's u10 bound)
dense = torch.linspace(-4, 4, 10001)
for name in ["sin", "cos", "tan", "atan", "sinh", "cosh", "asinh", "erf", "erfc", "expm1", "exp2", "log1p"]:
    f = getattr(torch, name)
    arg = dense.abs() + 0.01 if name == "log1p" else dense
    ref = f(arg.double())
    got = f(arg)
    ulp = 2.0 ** -23 * ref.abs().float().clamp_min(2.0 ** -126)
    print(name, bool(((got.double() - ref).abs() <= ulp.double()).all()))

for name in names + ["log2", "log10", "rsqrt"]:
    t = (torch.rand(5) * 0.8 + 0.1).requires_grad_()
    out = getattr(torch, name)(t)
    out.sum().backward()
    print(name, out.grad_fn.name(), t.grad)
t = (torch.rand(4) + 1.5).requires_grad_()
torch.acosh(t).sum().backward()
print(t.grad)

a = torch.tensor([[1.0, -2.0, 3.0], [0.5, 0.0, -1.5]], requires_grad=True)
b = torch.tensor([2.0, -1.0, 0.5], requires_grad=True)
for fn in [torch.atan2, torch.hypot, torch.logaddexp]:
    out = fn(a, b)
    print(fn.__name__, out, out.grad_fn.name())
    out.sum().backward()
    print(a.grad, b.grad)
    a.grad = None
    b.grad = None
print(a.atan2(b), a.hypot(b), a.logaddexp(b))
p = torch.tensor([0.0, 1.0, 2.0, 3.0], requires_grad=True)
q = torch.tensor([0.5, 2.0, 0.0, 4.0], requires_grad=True)
out = torch.xlogy(p, q)
print(out, out.grad_fn.name(), torch.xlogy(p, 2.0), p.xlogy(q))

s = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
e = torch.tensor([10.0, 20.0, 30.0], requires_grad=True)
out = torch.lerp(s, e, 0.25)
print(out, out.grad_fn.name())
out.sum().backward()
print(s.grad, e.grad)
wt = torch.tensor([0.0, 0.5, 1.0], requires_grad=True)
out = s.lerp(e, wt)
print(out, out.grad_fn.name())
out.sum().backward()
print(wt.grad)

m = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 1000.0, 0.5]], requires_grad=True)
out = torch.logsumexp(m, 1)
print(out, out.grad_fn.name(), torch.logsumexp(m, dim=0, keepdim=True), m.logsumexp((0, 1)))
out.sum().backward()
print(m.grad)
print(torch.logsumexp(torch.tensor([[float("-inf"), float("-inf")]]), 1), torch.logsumexp(torch.tensor([[1, 2]]), 1))

c = torch.tensor([-2.0, -0.5, 0.5, 2.0], requires_grad=True)
for out in [torch.clamp_min(c, 0.0), torch.clamp_max(c, 0.5), c.clamp_min(-1), c.clamp_max(1)]:
    print(out, out.grad_fn.name())
    out.sum().backward()
    print(c.grad)
    c.grad = None
n = torch.tensor([float("nan"), float("inf"), -float("inf"), 1.5], requires_grad=True)
out = torch.nan_to_num(n)
print(out, out.grad_fn.name(), torch.nan_to_num(n, nan=0.5, posinf=9.0, neginf=-9.0), n.nan_to_num(posinf=1.0))
out.sum().backward()
print(n.grad)
print(torch.nan_to_num(n.detach().double()))

h = torch.tensor([0.5, 1.0], requires_grad=True)
g = h * 2
g.sin_()
print(g, g.grad_fn.name())
g.sum().backward()
print(h.grad)
for bad in [lambda: torch.tensor([1, 2]).sin_(), lambda: torch.frac(torch.tensor([1, 2])), lambda: torch.atan2(a, 2.0),
            lambda: torch.lerp(s, e.double(), 0.5), lambda: torch.ones(2, requires_grad=True).sin_(),
            lambda: torch.hypot(torch.ones(2), torch.ones(3))]:
    try:
        bad()
    except Exception as err:
        print(type(err).__name__, err)
# each by name: torch.f(x), x.f(), x.f_()
v = torch.tensor([0.25, 0.5, 0.75])
print(torch.sin(v), (v).sin(), (v).clone().sin_())
print(torch.cos(v), (v).cos(), (v).clone().cos_())
print(torch.tan(v), (v).tan(), (v).clone().tan_())
print(torch.asin(v), (v).asin(), (v).clone().asin_())
print(torch.acos(v), (v).acos(), (v).clone().acos_())
print(torch.atan(v), (v).atan(), (v).clone().atan_())
print(torch.sinh(v), (v).sinh(), (v).clone().sinh_())
print(torch.cosh(v), (v).cosh(), (v).clone().cosh_())
print(torch.asinh(v), (v).asinh(), (v).clone().asinh_())
print(torch.atanh(v), (v).atanh(), (v).clone().atanh_())
print(torch.log1p(v), (v).log1p(), (v).clone().log1p_())
print(torch.expm1(v), (v).expm1(), (v).clone().expm1_())
print(torch.exp2(v), (v).exp2(), (v).clone().exp2_())
print(torch.erf(v), (v).erf(), (v).clone().erf_())
print(torch.erfc(v), (v).erfc(), (v).clone().erfc_())
print(torch.erfinv(v), (v).erfinv(), (v).clone().erfinv_())
print(torch.trunc(v), (v).trunc(), (v).clone().trunc_())
print(torch.frac(v), (v).frac(), (v).clone().frac_())
print(torch.reciprocal(v), (v).reciprocal(), (v).clone().reciprocal_())
print(torch.log2(v), (v).log2(), (v).clone().log2_())
print(torch.log10(v), (v).log10(), (v).clone().log10_())
print(torch.rsqrt(v), (v).rsqrt(), (v).clone().rsqrt_())
print(torch.acosh(v + 1), (v + 1).acosh(), (v + 1).clone().acosh_())
