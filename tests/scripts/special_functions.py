# torch.lgamma/digamma/polygamma/mvlgamma/i0/sinc and torch.special: values with
# PyTorch's exact bits (repr of each float) over dense ranges in float32 and float64,
# gradients and their grad_fn names, the aliases, in-place methods and the errors.
import torch


def bits(t):
    return t.reshape(-1).tolist()


def close(t, digits=6):
    return ['{:.{}g}'.format(v, digits) for v in t.reshape(-1).tolist()]


for dt in (torch.float32, torch.float64):
    x = torch.linspace(-7.3, 12.1, 301, dtype=dt)
    p = torch.linspace(0.013, 25.5, 301, dtype=dt)
    u = torch.linspace(0.0005, 0.9995, 301, dtype=dt)
    w = torch.linspace(-40, 40, 301, dtype=dt)
    print(dt)
    print('lgamma', bits(torch.lgamma(x)))
    print('digamma', bits(torch.digamma(x)))
    print('polygamma 1', bits(torch.polygamma(1, x)))
    print('polygamma 2', bits(torch.polygamma(2, p)))
    print('polygamma 3', bits(x.polygamma(3)))
    print('mvlgamma', bits(torch.mvlgamma(p + 2, 3)))
    print('i0', bits(torch.i0(w)))
    print('i1', bits(torch.special.i1(w)))
    print('i1e', bits(torch.special.i1e(w)))
    print('ndtr', bits(torch.special.ndtr(w)))
    print('ndtri', bits(torch.special.ndtri(u)))
    print('log_ndtr x >= -1', bits(torch.special.log_ndtr(w[w >= -1])))
    print('sinc', bits(torch.sinc(x)))
    print('entr', bits(torch.special.entr(x)))
    print('xlog1py', bits(torch.special.xlog1py(x, p)))
    print('zeta', bits(torch.special.zeta(p + 1, p)))
    print('gammaln psi expit', bits(torch.special.gammaln(p[:5])), bits(torch.special.psi(p[:5])), bits(torch.special.expit(x[:5])))
    # not bit for bit: erfcx (PyTorch's table of Chebyshev fits), log_ndtr below -1 (through erfcx)
    # erfcx (and log_ndtr below -1, which uses it): nnscope's is computed in long double, PyTorch's from
    # a table of Chebyshev fits in the dtype; float32 i0e: PyTorch vectorizes its own series
    digits = 4 if dt == torch.float32 else 10
    print('erfcx', close(torch.special.erfcx(w[w > -26]), digits))
    print('log_ndtr x < -1', close(torch.special.log_ndtr(w[w < -1]), digits))
    print('i0e', close(torch.special.i0e(w), digits))

print('== float64 math through SLEEF (the vml kernels)')
y = torch.linspace(-5, 5, 101, dtype=torch.float64)
for name in ('sin', 'cos', 'atan', 'expm1', 'erf', 'erfc', 'sinh', 'cosh'):
    print(name, bits(getattr(torch, name)(y)))

print('== gradients')
for f, name in [(torch.lgamma, 'lgamma'), (torch.digamma, 'digamma'), (lambda t: torch.polygamma(2, t), 'polygamma'),
                (lambda t: torch.mvlgamma(t + 2, 2), 'mvlgamma'), (torch.i0, 'i0'), (torch.special.i0e, 'i0e'),
                (torch.special.i1, 'i1'), (torch.special.i1e, 'i1e'), (torch.special.ndtr, 'ndtr'),
                (torch.special.log_ndtr, 'log_ndtr'), (torch.sinc, 'sinc'), (torch.special.entr, 'entr'),
                (torch.special.erfcx, 'erfcx'), (lambda t: torch.special.xlog1py(t, t), 'xlog1py'),
                (lambda t: torch.special.xlog1py(t, 2.), 'xlog1py number'), (lambda t: torch.special.ndtri(t / 4), 'ndtri')]:
    t = torch.tensor([0.5, 1.25, 2.0, 3.5], dtype=torch.float64, requires_grad=True)
    out = f(t)
    g, = torch.autograd.grad(out.sum(), t)
    # ndtr's grad_fn is PyTorch's C++ Scalar product MulBackward1, which nnscope names MulBackward0
    print(name, out.grad_fn.name() if name != 'ndtr' else '', close(g, 10))
q = torch.tensor([0.7, 1.9], dtype=torch.float64, requires_grad=True)
z = torch.special.zeta(torch.tensor(3.0, dtype=torch.float64), q)
z.sum().backward()
print('zeta', z.grad_fn.name(), close(q.grad, 10))
t = torch.tensor([0.0, 1e-9, 2.0], dtype=torch.float64, requires_grad=True)
torch.special.i1(t).sum().backward()
print('i1 at 0', t.grad.tolist())
t = torch.tensor([0.0, 0.5], requires_grad=True)
torch.sinc(t).sum().backward()
print('sinc at 0', t.grad.tolist())
t = torch.tensor([1.5, 2.5], dtype=torch.float64, requires_grad=True)
g, = torch.autograd.grad(torch.lgamma(t).sum(), t, create_graph=True)
g2, = torch.autograd.grad(g.sum(), t)
print('second derivative of lgamma', close(g2, 10))

print('== dtypes, methods, in place')
i = torch.tensor([1, 2, 3])
print(torch.lgamma(i), torch.digamma(i).dtype, torch.special.ndtr(i))
v = torch.tensor([0.5, 1.5, 4.0])
print(v.lgamma(), v.digamma(), v.polygamma(1), v.mvlgamma(1), v.i0(), v.sinc())
w2 = v.clone()
print(w2.lgamma_(), w2)
w2 = v.clone()
print(w2.polygamma_(2), w2.clone().digamma_(), v.clone().mvlgamma_(1), v.clone().i0_(), v.clone().sinc_())
print(torch.special.multigammaln(v + 1, 2), torch.special.logit(torch.tensor([0.25, 0.5])), torch.special.xlogy(v, v))
print(torch.special.softmax(v, 0), torch.special.log_softmax(v, dim=0), torch.special.logsumexp(v, 0))
print(torch.special.xlog1py(0., v), torch.special.xlog1py(v, 1), torch.special.zeta(2., v), torch.special.zeta(v + 1, 1.))
print(torch.special.round(v), torch.special.exp2(v), torch.special.expm1(v), torch.special.log1p(v))

print('== errors')
for f in (lambda: torch.polygamma(-1, v), lambda: torch.mvlgamma(v, 2), lambda: torch.mvlgamma(v, 0),
          lambda: torch.lgamma([1.0]), lambda: torch.special.zeta(torch.tensor([2.0], requires_grad=True), v).sum().backward()):
    try:
        f()
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__, str(e).split('\n')[0])
