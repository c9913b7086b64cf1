# fitting a 1-D Gaussian mixture by maximum likelihood with MixtureSameFamily, and a
# Gumbel-softmax (RelaxedOneHotCategorical) step, as notebooks do
import torch
import torch.distributions as D

torch.manual_seed(0)
true = D.MixtureSameFamily(D.Categorical(torch.tensor([0.3, 0.7])),
                           D.Normal(torch.tensor([-2.0, 1.5]), torch.tensor([0.5, 1.0])))
data = true.sample((500,))
print(data[:5], data.mean(), data.std())
logits = torch.zeros(2, requires_grad=True)
locs = torch.tensor([-1.0, 1.0], requires_grad=True)
log_scales = torch.zeros(2, requires_grad=True)
opt = torch.optim.Adam([logits, locs, log_scales], lr=0.05)
for step in range(60):
    opt.zero_grad()
    gmm = D.MixtureSameFamily(D.Categorical(logits=logits), D.Normal(locs, log_scales.exp()))
    nll = -gmm.log_prob(data).mean()
    nll.backward()
    opt.step()
    if step % 20 == 0:
        print(step, round(nll.item(), 4))
print(torch.softmax(logits, 0), locs, log_scales.exp())
temp = torch.tensor(0.5)
logits2 = torch.tensor([[1.0, 0.5, -1.0]], requires_grad=True)
y = D.RelaxedOneHotCategorical(temp, logits=logits2).rsample((4,))
print(y)
(y * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(logits2.grad)
w = D.Weibull(torch.tensor([2.0]), torch.tensor([1.5]))
print(w.sample((3,)), w.log_prob(torch.tensor([1.0])), D.kl_divergence(D.Cauchy(0.0, 1.0), D.Cauchy(0.5, 2.0)))
