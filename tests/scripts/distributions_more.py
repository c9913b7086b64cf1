# torch.distributions' Gamma, Chi2, Beta, Dirichlet, StudentT (sampled through ATen's gamma
# sampler), Poisson, Geometric, Binomial, MultivariateNormal (scale_tril, covariance,
# precision), LogNormal and TransformedDistribution with the common transforms: seeded
# samples as PyTorch 1.13 draws them, densities, moments, entropies, KL terms and errors.
import math
import torch
from torch.distributions import (Beta, Binomial, Chi2, Dirichlet, Gamma, Geometric, LogNormal, MultivariateNormal,
                                 Normal, Poisson, StudentT, TransformedDistribution, Uniform, kl_divergence)
from torch.distributions.transforms import (AffineTransform, ComposeTransform, ExpTransform, PowerTransform,
                                            SigmoidTransform, TanhTransform)


def r(t, d=6):
    return [round(v, d) for v in t.reshape(-1).tolist()]


torch.manual_seed(0)
g = Gamma(torch.tensor([0.5, 2.0, 7.5]), torch.tensor([1.0, 0.5, 3.0]))
s = g.sample((4,))
print(s.tolist())
print(r(g.log_prob(s)), r(g.mean), r(g.variance), r(g.entropy()), r(g.mode))
print(Gamma(2.0, 3.0).sample().item(), Gamma(2.0, 3.0).batch_shape)
c = Chi2(torch.tensor([1.0, 4.0]))
print(c.sample((3,)).tolist(), r(c.log_prob(torch.tensor([0.5, 3.0]))), r(c.df))
b = Beta(torch.tensor([0.5, 2.0, 5.0]), torch.tensor([0.5, 3.0, 1.0]))
x = b.sample((3,))
print(x.tolist())
print(r(b.log_prob(torch.tensor([0.2, 0.5, 0.9]))), r(b.mean), r(b.variance), r(b.entropy()))
print(Beta(2.0, 3.0).sample((2,)).tolist())
d = Dirichlet(torch.tensor([[1.0, 2.0, 3.0], [0.3, 0.3, 0.3]]))
y = d.sample()
print(y.tolist(), r(d.log_prob(torch.tensor([0.2, 0.3, 0.5]))), r(d.mean), r(d.variance), r(d.entropy()))
t = StudentT(torch.tensor([1.5, 3.0, 10.0]), torch.tensor([0.0, 1.0, -1.0]), torch.tensor([1.0, 2.0, 0.5]))
z = t.sample((2,))
print(z.tolist(), r(t.log_prob(torch.tensor([0.3, 1.2, -0.4]))), r(t.mean), r(t.variance), r(t.entropy()))
p = Poisson(torch.tensor([0.5, 4.0, 30.0]))
k = p.sample((3,))
print(k.tolist(), r(p.log_prob(torch.tensor([0.0, 3.0, 31.0]))), r(p.mean))
ge = Geometric(torch.tensor([0.2, 0.7]))
print(ge.sample((4,)).tolist(), r(ge.log_prob(torch.tensor([0.0, 3.0]))), r(ge.mean), r(ge.entropy()))
print(r(Geometric(logits=torch.tensor([0.3])).probs))
bi = Binomial(10, torch.tensor([0.2, 0.6]))
print(r(bi.log_prob(torch.tensor([3.0, 6.0]))), r(bi.mean), r(bi.variance), r(bi.entropy()), bi.enumerate_support().shape)

print('== multivariate normal')
loc = torch.tensor([1.0, -1.0, 0.5])
A = torch.tensor([[2.0, 0.3, 0.1], [0.3, 1.0, -0.2], [0.1, -0.2, 0.5]])
L = torch.linalg.cholesky(A)
for mvn in (MultivariateNormal(loc, scale_tril=L), MultivariateNormal(loc, covariance_matrix=A),
            MultivariateNormal(loc, precision_matrix=torch.inverse(A))):
    torch.manual_seed(1)
    v = mvn.sample((2,))
    print(r(v, 5), r(mvn.log_prob(v), 4), r(mvn.entropy(), 5), r(mvn.variance, 5), r(mvn.covariance_matrix, 4))
mvn = MultivariateNormal(torch.zeros(2, 3), scale_tril=L)
print(mvn.batch_shape, mvn.event_shape, mvn.rsample((4,)).shape, r(mvn.log_prob(torch.ones(3)), 4))
print(r(kl_divergence(MultivariateNormal(loc, A), MultivariateNormal(torch.zeros(3), torch.eye(3))), 4))
lw = torch.tensor([[1.0, 0.0], [0.5, 2.0]], requires_grad=True)
lp = MultivariateNormal(torch.zeros(2), scale_tril=lw).log_prob(torch.tensor([0.3, -0.7]))
lp.backward()
print(round(lp.item(), 4), r(lw.grad, 4))

print('== transformed')
torch.manual_seed(2)
ln = LogNormal(torch.tensor([0.0, 1.0]), torch.tensor([0.5, 0.25]))
v = ln.sample((3,))
print(v.tolist(), r(ln.log_prob(torch.tensor([1.2, 2.5]))), r(ln.mean), r(ln.variance), r(ln.entropy()))
base = Normal(torch.zeros(2), torch.ones(2))
for tr in ([SigmoidTransform()], [AffineTransform(1.0, 2.0), ExpTransform()], TanhTransform(),
           [ExpTransform(), PowerTransform(torch.tensor(2.0))]):
    td = TransformedDistribution(base, tr)
    torch.manual_seed(3)
    w = td.sample((2,))
    print(w.tolist(), r(td.log_prob(w), 5), td.batch_shape, td.event_shape)
u = TransformedDistribution(Uniform(torch.tensor(0.0), torch.tensor(1.0)), [SigmoidTransform().inv, AffineTransform(0, -1.0)])
torch.manual_seed(4)
print(u.sample((3,)).tolist(), r(u.cdf(torch.tensor([0.5, -1.0]))))
print(ExpTransform().inv, ComposeTransform([ExpTransform(), AffineTransform(0., 2.)]).inv(torch.tensor([2.0])))
print(kl_divergence(Gamma(2.0, 1.0), Gamma(3.0, 2.0)).item(), kl_divergence(Beta(2.0, 3.0), Beta(1.0, 1.0)).item())
print(kl_divergence(Poisson(torch.tensor(2.0)), Poisson(torch.tensor(3.0))).item())

print(MultivariateNormal(loc, scale_tril=L), MultivariateNormal(loc, A), Beta(2.0, 3.0), LogNormal(0.0, 1.0))
print(Gamma(torch.tensor([1.0, 2.0]), 1.0), Dirichlet(torch.ones(3)), StudentT(3.0), Poisson(2.0))
print('== binomial sampling (inversion below 10 expected successes, BTRS above)')
torch.manual_seed(5)
print(torch.binomial(torch.tensor([5.0, 20.0, 100.0, 1000.0, 0.0, 7.0]), torch.tensor([0.3, 0.5, 0.9, 0.02, 0.5, 1.0])).tolist())
print(torch.binomial(torch.tensor([5.0, 20.0, 100.0, 1000.0], dtype=torch.float64),
                     torch.tensor([0.3, 0.5, 0.9, 0.02], dtype=torch.float64)).tolist())
print(Binomial(torch.tensor([10.0, 50.0]), torch.tensor([0.25, 0.6])).sample((5,)).tolist())
big = torch.binomial(torch.full((500,), 80.0), torch.full((500,), 0.35))
print(big[:10].tolist(), big.sum().item(), torch.rand(1).item())
print('== errors')
for f in (lambda: Gamma(torch.tensor([-1.0]), torch.tensor([1.0])), lambda: Dirichlet(torch.tensor(1.0)),
          lambda: MultivariateNormal(loc, A, scale_tril=L), lambda: MultivariateNormal(torch.tensor(1.0), A),
          lambda: Beta(2.0, 3.0).log_prob(torch.tensor(1.5)), lambda: Geometric(torch.tensor([0.0])),
          lambda: TransformedDistribution(base, 3)):
    try:
        f()
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, str(e).split('\n')[0])
