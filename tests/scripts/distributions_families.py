# torch.distributions' Cauchy, HalfCauchy, HalfNormal, Gumbel, Weibull, Pareto, Kumaraswamy,
# FisherSnedecor, NegativeBinomial, Multinomial, VonMises and ContinuousBernoulli: seeded samples as
# PyTorch 1.13 draws them, densities, cdf/icdf, moments, entropies, expand, reprs, supports, KL terms
# and validation errors.
import math
import torch
from torch.distributions import (Cauchy, HalfCauchy, HalfNormal, Gumbel, Weibull, Pareto, Kumaraswamy,
                                 FisherSnedecor, NegativeBinomial, Multinomial, VonMises, ContinuousBernoulli,
                                 kl_divergence, Normal)


def r(t, d=5):
    return [round(v, d) for v in t.reshape(-1).tolist()]


torch.manual_seed(0)
c = Cauchy(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))
x = c.sample((3,))
print(c, r(x), r(c.log_prob(x)), r(c.cdf(x)), r(c.icdf(torch.tensor([0.2, 0.7]))), r(c.entropy()), r(c.mean), r(c.variance))
print(Cauchy(0., 1.).rsample().shape, c.expand((3, 2)).batch_shape)
for D in (HalfCauchy, HalfNormal):
    d = D(torch.tensor([1.0, 2.5]))
    x = d.sample((2,))
    print(d, r(x), r(d.log_prob(x)), r(d.cdf(x)), r(d.icdf(torch.tensor([0.3, 0.9]))),
          r(d.entropy()), r(d.mean), r(d.variance), r(d.mode), d.support, d.expand((2, 2)).sample().shape)
g = Gumbel(torch.tensor([1.0, -2.0]), torch.tensor([2.0, 0.5]))
x = g.sample((3,))
print(g, r(x), r(g.log_prob(x)), r(g.mean), r(g.stddev), r(g.entropy()), g.expand((3, 2)).rsample().shape)
print(Gumbel(0.0, 1.0).sample((2,)).tolist())
w = Weibull(torch.tensor([1.0, 3.0]), torch.tensor([0.5, 2.0]))
x = w.sample((3,))
print(w, r(x), r(w.log_prob(x)), r(w.mean), r(w.variance), r(w.mode), r(w.entropy()), w.expand((2, 2)).sample().shape)
p = Pareto(torch.tensor([1.0, 2.0]), torch.tensor([0.5, 3.0]))
x = p.sample((3,))
print(p, r(x), r(p.log_prob(x)), r(p.mean), r(p.variance), r(p.entropy()), p.support, p.expand((1, 2)).batch_shape)
k = Kumaraswamy(torch.tensor([0.5, 2.0]), torch.tensor([3.0, 2.0]))
x = k.sample((3,))
print(k, r(x), r(k.log_prob(x)), r(k.mean), r(k.variance), r(k.mode), r(k.entropy()))
f = FisherSnedecor(torch.tensor([3.0, 10.0]), torch.tensor([5.0, 1.5]))
x = f.sample((3,))
print(f, r(x), r(f.log_prob(x)), r(f.mean), r(f.variance), r(f.mode))
nb = NegativeBinomial(torch.tensor([3.0, 10.0]), torch.tensor([0.2, 0.7]))
x = nb.sample((4,))
print(nb, r(x), r(nb.log_prob(x)), r(nb.mean), r(nb.variance), r(nb.mode), r(nb.logits))
nb2 = NegativeBinomial(5, logits=torch.tensor([0.3]))
print(nb2, r(nb2.sample((3,))), r(nb2.probs))
m = Multinomial(10, torch.tensor([0.2, 0.3, 0.5]))
x = m.sample((4,))
print(m, x.tolist(), r(m.log_prob(x)), r(m.mean), r(m.variance), r(m.entropy()), m.support)
m2 = Multinomial(4, logits=torch.tensor([[0.1, 0.2], [1.0, -1.0]]))
print(m2.sample().tolist(), m2.expand((3, 2)).sample().shape)
v = VonMises(torch.tensor([0.0, 1.0]), torch.tensor([0.5, 4.0]))
x = v.sample((5,))
print(v, r(x), r(v.log_prob(x)), r(v.mean), r(v.variance), v.expand((2, 2)).batch_shape)
cb = ContinuousBernoulli(torch.tensor([0.2, 0.5, 0.8]))
x = cb.sample((2,))
print(cb, r(x), r(cb.rsample()), r(cb.log_prob(x)), r(cb.mean), r(cb.variance), r(cb.entropy()), r(cb.cdf(x)),
      r(cb.icdf(torch.tensor([0.1, 0.5, 0.9]))))
cb2 = ContinuousBernoulli(logits=torch.tensor([-1.0, 2.0]))
print(cb2, r(cb2.probs), r(cb2.mean))
print(r(kl_divergence(Cauchy(0., 1.), Cauchy(1., 2.))), r(kl_divergence(g, Gumbel(0.0, 1.0))),
      r(kl_divergence(HalfNormal(torch.tensor([1.0])), HalfNormal(torch.tensor([2.0])))),
      r(kl_divergence(p, Pareto(torch.tensor([1.5, 1.0]), torch.tensor([1.0, 2.0])))),
      r(kl_divergence(cb, ContinuousBernoulli(torch.tensor([0.3, 0.6, 0.9])))), r(kl_divergence(g, Normal(0.0, 1.0))),
      r(kl_divergence(Normal(torch.tensor([0.5]), torch.tensor([1.0])), g)))
for bad in (lambda: Cauchy(0., -1.), lambda: Pareto(1., 0.), lambda: HalfNormal(torch.tensor([-1.0])),
            lambda: Multinomial(2.5, torch.tensor([0.5, 0.5])), lambda: HalfNormal(torch.tensor([1.0])).log_prob(torch.tensor([-1.0])),
            lambda: Multinomial(3, torch.tensor([0.5, 0.5])).log_prob(torch.tensor([1.0, 1.0]))):
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
