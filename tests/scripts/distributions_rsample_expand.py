# Distributions: rsample through Gamma/Chi2/Beta/Dirichlet/StudentT with PyTorch 1.13's implicit
# reparameterized gradients (torch._standard_gamma_grad, torch._dirichlet_grad), a seeded run's values and
# gradients; expand(batch_shape) for every distribution class; generator= on the samplers.
import torch
from torch.distributions import (Normal, Laplace, Uniform, Exponential, Gamma, Poisson, Geometric, Bernoulli, Binomial,
    Categorical, OneHotCategorical, Chi2, Dirichlet, Beta, StudentT, Independent, TransformedDistribution, LogNormal,
    MultivariateNormal)
from torch.distributions.transforms import ExpTransform, AffineTransform
torch.manual_seed(0)
# rsample through the gamma and Dirichlet samplers, with gradients
for dt in [torch.float32, torch.float64]:
    a = torch.tensor([0.3, 1.0, 2.5, 9.0, 40.0], dtype=dt, requires_grad=True)
    r = torch.tensor([1.0, 2.0, 0.5, 1.0, 3.0], dtype=dt, requires_grad=True)
    x = Gamma(a, r).rsample()
    x.sum().backward()
    print("Gamma", x, a.grad, r.grad)
    df = torch.tensor([0.5, 3.0, 12.0], dtype=dt, requires_grad=True)
    y = Chi2(df).rsample((2,))
    (y * torch.tensor([1., -1., 2.], dtype=dt)).sum().backward()
    print("Chi2", y, df.grad)
    c1 = torch.tensor([0.5, 2.0, 8.0], dtype=dt, requires_grad=True)
    c0 = torch.tensor([1.5, 2.0, 7.0], dtype=dt, requires_grad=True)
    b = Beta(c1, c0).rsample()
    b.pow(2).sum().backward()
    print("Beta", b, c1.grad, c0.grad, b.grad_fn.name())
    c = torch.tensor([[0.4, 1.0, 3.0], [7.0, 8.0, 0.2]], dtype=dt, requires_grad=True)
    d = Dirichlet(c).rsample((2,))
    (d * torch.arange(3, dtype=dt)).sum().backward()
    print("Dirichlet", d, c.grad)
    dft = torch.tensor([2.0, 5.0], dtype=dt, requires_grad=True)
    s = StudentT(dft, 1.0, 2.0).rsample()
    s.sum().backward()
    print("StudentT", s, dft.grad)
    k = torch.tensor(3.0, dtype=dt, requires_grad=True)
    z = torch._standard_gamma(k.expand(4))
    z.sum().backward()
    print("_standard_gamma", z, z.grad_fn.name(), k.grad)
# a variational objective: fit a Gamma to data by the reparameterized ELBO
torch.manual_seed(1)
log_a = torch.zeros(1, requires_grad=True)
log_b = torch.zeros(1, requires_grad=True)
opt = torch.optim.Adam([log_a, log_b], lr=0.1)
data = torch.tensor([2.0, 3.0, 2.5, 4.0])
for step in range(20):
    opt.zero_grad()
    q = Gamma(log_a.exp(), log_b.exp())
    rate = q.rsample((8,))
    loss = -(Exponential(rate).log_prob(data).sum(-1) + Gamma(1.0, 1.0).log_prob(rate).squeeze(-1) - q.log_prob(rate).squeeze(-1)).mean()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(step, round(loss.item(), 4), round(log_a.item(), 5), round(log_b.item(), 5))

# ---- expand
torch.manual_seed(0)
dists = [
    Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0])), Normal(0.0, 1.0), Laplace(torch.tensor([0.5]), 1.0),
    Uniform(torch.tensor([0.0, 1.0]), 2.0), Exponential(torch.tensor([1.0, 3.0])), Gamma(torch.tensor([2.0, 0.5]), 1.0),
    Poisson(torch.tensor([2.0, 7.0])), Geometric(torch.tensor([0.3, 0.6])), Geometric(logits=torch.tensor([0.1, -1.0])),
    Bernoulli(torch.tensor([0.2, 0.9])), Bernoulli(logits=torch.tensor([0.2, -0.9])), Binomial(10, torch.tensor([0.2, 0.7])),
    Categorical(torch.tensor([0.1, 0.2, 0.7])), Categorical(logits=torch.tensor([[0.1, 0.2, 0.7], [1.0, 0.0, -1.0]])),
    OneHotCategorical(torch.tensor([0.5, 0.25, 0.25])), Chi2(torch.tensor([3.0, 4.0])), Dirichlet(torch.tensor([1.0, 2.0, 0.5])),
    Beta(torch.tensor([2.0, 0.5]), torch.tensor([1.0, 3.0])), Beta(2.0, 3.0), StudentT(torch.tensor([3.0, 10.0])),
    Independent(Normal(torch.zeros(2, 3), torch.ones(2, 3)), 1),
    TransformedDistribution(Normal(torch.tensor([0.0, 1.0]), 1.0), [ExpTransform(), AffineTransform(1.0, 2.0)]),
    LogNormal(torch.tensor([0.0, 0.5]), 0.3),
    MultivariateNormal(torch.zeros(2), scale_tril=torch.tensor([[1.0, 0.0], [0.5, 2.0]])),
    MultivariateNormal(torch.ones(2), covariance_matrix=torch.tensor([[2.0, 0.3], [0.3, 1.0]])),
    MultivariateNormal(torch.ones(2), precision_matrix=torch.tensor([[2.0, 0.3], [0.3, 1.0]])),
]
for d in dists:
    shape = (3,) + tuple(d.batch_shape) if d.batch_shape else (4,)
    e = d.expand(shape)
    s = e.sample()
    print(type(e).__name__, e.batch_shape, e.event_shape, tuple(s.shape), e._validate_args == d._validate_args)
    print(s)
    print(e.log_prob(s))
    print(e.mean if not isinstance(e, (TransformedDistribution,)) or isinstance(e, LogNormal) else None)
    print(sorted(k for k, v in vars(e).items() if isinstance(v, torch.Tensor) and v.shape != getattr(d, k).shape and not k.startswith("_unb")))
e = Normal(torch.zeros(1), 1.0).expand([2, 3])
print(e, e.loc.stride(), e.rsample().shape)
try: Normal(torch.zeros(2), 1.0).expand((3,))
except Exception as ex: print(type(ex).__name__, ex)
class MyNormal(Normal):
    def __init__(self, loc):
        super().__init__(loc, 1.0)
try: MyNormal(torch.zeros(2)).expand((3, 2))
except Exception as ex: print(type(ex).__name__, ex)
class MyNormal2(Normal):
    pass
m = MyNormal2(torch.zeros(2), 1.0).expand((3, 2))
print(type(m).__name__, m.batch_shape)
try: torch.distributions.Distribution(validate_args=False).expand((2,))
except Exception as ex: print(type(ex).__name__, ex)
print(Categorical(torch.tensor([0.2, 0.8])).expand((2,)).logits)
print(Bernoulli(torch.tensor(0.3)).expand((2,)).logits)
b = Beta(torch.tensor([2.0]), torch.tensor([3.0])).expand((2,))
print(b.concentration1, b.concentration0)

# ---- generator=
g = torch.Generator().manual_seed(3)
def t(name, f):
    try:
        r = f(); print(name, r)
    except Exception as e: print(name, type(e).__name__, e)
x = torch.empty(4)
t("normal_", lambda: x.normal_(generator=g))
t("uniform_", lambda: x.uniform_(generator=g))
t("exponential_", lambda: x.exponential_(generator=g))
t("random_", lambda: x.random_(0, 10, generator=g))
t("bernoulli_", lambda: x.bernoulli_(0.5, generator=g))
t("bernoulli", lambda: torch.bernoulli(torch.full((4,), 0.5), generator=g))
t("bernoulli m", lambda: torch.full((4,), 0.5).bernoulli(generator=g))
t("multinomial", lambda: torch.multinomial(torch.ones(5), 3, generator=g))
t("randperm", lambda: torch.randperm(5, generator=g))
t("randint", lambda: torch.randint(0, 10, (4,), generator=g))
t("randint2", lambda: torch.randint(10, (4,), generator=g))
t("rand", lambda: torch.rand(3, generator=g))
t("randn", lambda: torch.randn(3, generator=g))
t("normal", lambda: torch.normal(torch.zeros(3), torch.ones(3), generator=g))
t("normal2", lambda: torch.normal(0., 1., (3,), generator=g))
t("normal3", lambda: torch.normal(torch.zeros(3), 1., generator=g))
t("poisson", lambda: torch.poisson(torch.ones(3) * 4, generator=g))
t("binomial", lambda: torch.binomial(torch.ones(3) * 10, torch.ones(3) * 0.3, generator=g))
t("_standard_gamma", lambda: torch._standard_gamma(torch.ones(3) * 2, generator=g))
t("_sample_dirichlet", lambda: torch._sample_dirichlet(torch.ones(2, 3), generator=g))
t("init", lambda: torch.nn.init.uniform_(torch.empty(2), generator=g) if False else None)
t("randn_like", lambda: torch.randn(2, 2, generator=g).shape)

# ---- the gradients' values, float32 and float64
torch.manual_seed(0)
for dt in [torch.float32, torch.float64]:
    a = torch.tensor([0.05, 0.3, 0.9, 1.0, 2.5, 7.0, 9.0, 30.0, 100.0], dtype=dt)
    x = torch._standard_gamma(a)
    print(x.tolist())
    print(torch._standard_gamma_grad(a, x).tolist())
    xs = torch.tensor([0.01, 0.5, 0.79, 0.81, 1.5, 3.0, 7.0, 9.0, 28.0, 31.0, 50.0, 100.0], dtype=dt)
    for al in [0.1, 0.5, 2.0, 6.5, 9.0, 29.0, 40.0]:
        print(al, torch._standard_gamma_grad(torch.full_like(xs, al), xs).tolist())
    xd = torch.tensor([0.001, 0.01, 0.1, 0.3, 0.5, 0.6, 0.9, 0.99, 0.999], dtype=dt)
    for al, tot in [(0.5, 1.0), (2.0, 3.0), (7.0, 15.0), (10.0, 20.0), (3.0, 30.0), (0.2, 50.0), (1.5, 4.5), (0.3, 0.5), (-0.5, 1.0), (50., 55.)]:
        print(al, tot, torch._dirichlet_grad(xd, torch.full_like(xd, al), torch.full_like(xd, tot)).tolist())
    print(torch._dirichlet_grad(torch.tensor([0.3, 0.7], dtype=dt), torch.tensor([1., 2.], dtype=dt), torch.tensor([3., 3.], dtype=dt)))
def t(f):
    try: print(f())
    except Exception as e: print(type(e).__name__, e)
t(lambda: torch._standard_gamma_grad(torch.ones(2), torch.ones(2, dtype=torch.float64)))
t(lambda: torch._standard_gamma_grad(torch.ones(2), torch.ones(3)))
t(lambda: torch._standard_gamma_grad(torch.ones(2,1), torch.ones(3)))
t(lambda: torch._standard_gamma_grad(torch.ones(2, dtype=torch.long), torch.ones(2, dtype=torch.long)))
t(lambda: torch._dirichlet_grad(torch.ones(2), torch.ones(3), torch.ones(2)))
t(lambda: torch._dirichlet_grad(torch.ones(2), torch.ones(2), torch.ones(2, dtype=torch.float64)))
t(lambda: torch._dirichlet_grad(torch.ones(2, dtype=torch.long), torch.ones(2, dtype=torch.long), torch.ones(2, dtype=torch.long)))
a = torch.tensor([0.5, 2.0], requires_grad=True)
t(lambda: torch._sample_dirichlet(a).sum().backward())

# ---- Tensor.cauchy_, geometric_, log_normal_ (seeded, generator=, errors)
torch.manual_seed(0)
x = torch.empty(6)
print(x.cauchy_().tolist()); print(x.geometric_(0.3).tolist()); print(x.log_normal_().tolist())
print(x.cauchy_(1.0, 2.0).tolist()); print(x.log_normal_(0.5, 0.25).tolist())
y = torch.empty(5, dtype=torch.float64)
print(y.cauchy_().tolist(), y.geometric_(0.7).tolist(), y.log_normal_().tolist())
print(torch.normal(0.0, 1.0, (3,), dtype=torch.float64).tolist())
print(y.log_normal_().tolist())
g = torch.Generator().manual_seed(5)
print(x.cauchy_(generator=g).tolist(), x.geometric_(0.5, generator=g).tolist(), x.log_normal_(generator=g).tolist())
z = torch.empty(3, dtype=torch.long)
for f in [lambda: z.geometric_(0.5), lambda: z.cauchy_(), lambda: z.log_normal_(), lambda: x.geometric_(1.5), lambda: x.geometric_(0), lambda: x.log_normal_(0, -1), lambda: x.cauchy_(0, -1), lambda: torch.empty(2, dtype=torch.int32).geometric_(0.2)]:
    try: print(f())
    except Exception as e: print(type(e).__name__, e)
w = torch.zeros(2, requires_grad=True)
try: w.cauchy_()
except Exception as e: print(type(e).__name__, e)
for f in [lambda: x.geometric_(p=0.25).shape, lambda: x.log_normal_(std=0.1, mean=0.0).shape, lambda: x[::2].cauchy_().shape]:
    print(f())
print(x)
