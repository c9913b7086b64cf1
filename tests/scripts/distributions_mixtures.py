# torch.distributions' MixtureSameFamily, RelaxedBernoulli, RelaxedOneHotCategorical, LogisticNormal,
# LowRankMultivariateNormal, LKJCholesky and Wishart (1.13's streams, densities, moments, KL terms), and
# the transforms StickBreaking, LowerCholesky, CorrCholesky, Reshape, Independent, Cat, Stack and
# CumulativeDistribution: values, inverses, log|det J|, shapes, domains; errors.
import torch
from torch.distributions import (MixtureSameFamily, Categorical, Normal, Independent, RelaxedBernoulli,
                                 RelaxedOneHotCategorical, LogisticNormal, LowRankMultivariateNormal,
                                 MultivariateNormal, LKJCholesky, Wishart, kl_divergence)
from torch.distributions.transforms import (StickBreakingTransform, LowerCholeskyTransform, CorrCholeskyTransform,
                                            ReshapeTransform, IndependentTransform, CatTransform, StackTransform,
                                            CumulativeDistributionTransform, ExpTransform, AffineTransform)


def r(t, d=5):
    return [round(v, d) for v in t.reshape(-1).tolist()]


torch.manual_seed(1)
mix = Categorical(torch.ones(5,))
comp = Normal(torch.randn(5,), torch.rand(5,))
gmm = MixtureSameFamily(mix, comp)
x = gmm.sample((4,))
print(gmm)
print(r(x), r(gmm.log_prob(x)), r(gmm.mean), r(gmm.variance), r(gmm.cdf(x)), gmm.support)
mix = Categorical(torch.rand(3, 5))
comp = Independent(Normal(torch.randn(3, 5, 2), torch.rand(3, 5, 2)), 1)
gmm = MixtureSameFamily(mix, comp)
x = gmm.sample((2,))
print(x.shape, r(x), r(gmm.log_prob(x), 4), r(gmm.mean), r(gmm.variance), gmm.batch_shape, gmm.event_shape)
print(gmm.expand((4, 3)).sample().shape)
rb = RelaxedBernoulli(torch.tensor([2.2]), torch.tensor([0.1, 0.2, 0.3, 0.99]))
x = rb.sample()
print(rb, r(x), r(rb.log_prob(x)), r(rb.rsample((2,))), rb.expand((2, 4)).sample().shape)
ro = RelaxedOneHotCategorical(torch.tensor([2.2]), torch.tensor([0.1, 0.2, 0.3, 0.4]))
x = ro.sample((2,))
print(ro, r(x), r(ro.log_prob(x)), ro.expand((3,)).sample().shape)
ro2 = RelaxedOneHotCategorical(torch.tensor(0.5), logits=torch.tensor([[0.1, -0.2, 0.3], [1.0, 2.0, 3.0]]))
x = ro2.rsample()
print(r(x), r(ro2.log_prob(x)))
ln = LogisticNormal(torch.tensor([0.0, 1.0, -1.0]), torch.tensor([1.0, 0.5, 2.0]))
x = ln.sample((2,))
print(ln, r(x), r(ln.log_prob(x)), ln.batch_shape, ln.event_shape, r(ln.loc), ln.expand((2,)).sample().shape)
print(LogisticNormal(0.0, 1.0).sample().shape)
loc = torch.tensor([1.0, -1.0, 0.5])
W = torch.tensor([[1.0, 0.2], [0.3, -0.5], [0.0, 0.4]])
D = torch.tensor([0.5, 1.0, 2.0])
lr = LowRankMultivariateNormal(loc, W, D)
x = lr.sample((3,))
print(lr, r(x), r(lr.log_prob(x)), r(lr.entropy()), r(lr.variance), r(lr.covariance_matrix), r(lr.scale_tril, 4),
      r(lr.precision_matrix, 4))
mvn = MultivariateNormal(loc, covariance_matrix=torch.eye(3) * 2)
print(r(kl_divergence(lr, mvn)), r(kl_divergence(mvn, lr)),
      r(kl_divergence(lr, LowRankMultivariateNormal(loc * 0, W * 2, D + 1))), lr.expand((2,)).sample().shape)
lkj = LKJCholesky(3, 0.5)
L = lkj.sample((2,))
print(lkj, r(L), r(lkj.log_prob(L), 3), r(lkj.log_prob(torch.linalg.cholesky(torch.tensor([[1.0, 0.3, 0.1], [0.3, 1.0, -0.2], [0.1, -0.2, 1.0]])))), lkj.support, LKJCholesky(4, torch.tensor([1.0, 3.0])).sample().shape)
wi = Wishart(torch.tensor(4.), covariance_matrix=torch.tensor([[2.0, 0.3], [0.3, 1.0]]))
S = wi.sample()
print(r(S), r(wi.log_prob(S)), r(wi.entropy()), r(wi.mean), r(wi.variance), r(wi.mode))
wi2 = Wishart(torch.tensor([3.0, 5.0]), scale_tril=torch.eye(2))
print(r(wi2.rsample((2,))), wi2.expand((3, 2)).batch_shape)
print('== transforms')
t = StickBreakingTransform()
x = torch.tensor([[0.3, -1.0, 2.0], [0.0, 0.0, 0.0]])
y = t(x)
print(t, r(y), r(t.inv(y)), r(t.log_abs_det_jacobian(x, y)), t.forward_shape(torch.Size([2, 3])), t.domain, t.codomain)
t = LowerCholeskyTransform()
x = torch.tensor([[0.5, 2.0], [-1.0, 0.3]])
print(r(t(x)), r(t.inv(t(x))), t.codomain)
t = CorrCholeskyTransform()
x = torch.tensor([0.3, -0.8, 1.5])
y = t(x)
print(r(y), r(t.inv(y)), r(t.log_abs_det_jacobian(x, y)), t.forward_shape((3,)), t.inverse_shape((4, 4)))
t = ReshapeTransform((2, 3), (6,))
x = torch.arange(12.).reshape(2, 2, 3)
print(t(x).shape, t.inv(t(x)).shape, r(t.log_abs_det_jacobian(x, t(x))), t.domain, t.codomain)
t = IndependentTransform(ExpTransform(), 1)
x = torch.tensor([[0.1, 0.2], [0.3, 0.4]])
print(t, r(t(x)), r(t.log_abs_det_jacobian(x, t(x))), t.domain, t.codomain)
t = CatTransform([ExpTransform(), AffineTransform(1., 2.)], dim=0, lengths=[2, 1])
x = torch.tensor([0.5, 1.0, 2.0])
print(r(t(x)), r(t.inv(t(x))), r(t.log_abs_det_jacobian(x, t(x))), t.domain, t.codomain.check(t(x)))
t = StackTransform([ExpTransform(), AffineTransform(1., 2.)], dim=1)
x = torch.tensor([[0.5, 1.0], [2.0, 3.0]])
print(r(t(x)), r(t.inv(t(x))), r(t.log_abs_det_jacobian(x, t(x))))
t = CumulativeDistributionTransform(Normal(0., 1.))
x = torch.tensor([-1.0, 0.5])
print(r(t(x)), r(t.inv(t(x))), r(t.log_abs_det_jacobian(x, t(x))), t.domain, t.codomain, t.sign)
for bad in (lambda: MixtureSameFamily(Normal(0., 1.), comp), lambda: MixtureSameFamily(Categorical(torch.ones(4)), Normal(torch.zeros(5), 1.)),
            lambda: LKJCholesky(1), lambda: ReshapeTransform((2,), (3,)), lambda: LowRankMultivariateNormal(loc, W[:2], D),
            lambda: Wishart(torch.tensor(0.5), covariance_matrix=torch.eye(2))):
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
