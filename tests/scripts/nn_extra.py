# F.normalize, CosineSimilarity / F.cosine_similarity, PairwiseDistance /
# F.pairwise_distance, PixelShuffle / PixelUnshuffle, LocalResponseNorm:
# values, gradients, grad_fn names, reprs, errors (against PyTorch 1.13).
import torch
import torch.nn as nn
import torch.nn.functional as F


def err(f):
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__ + ":", e)


torch.manual_seed(0)
a = torch.randn(3, 4, requires_grad=True)
b = torch.randn(3, 4)

n = F.normalize(a)
print(n, n.grad_fn.name())
n.sum().backward()
print(a.grad)
print(F.normalize(a.detach(), p=1, dim=0))
print(F.normalize(torch.zeros(2, 3)))

cs = nn.CosineSimilarity(dim=1, eps=1e-6)
print(cs, nn.PairwiseDistance(p=1.0, keepdim=True))
a.grad = None
c = cs(a, b)
print(c, c.grad_fn.name())
c.sum().backward()
print(a.grad)
print(F.cosine_similarity(a.detach(), b[0], dim=-1))
print(F.cosine_similarity(torch.zeros(2, 3), torch.ones(2, 3)))

a.grad = None
pd = nn.PairwiseDistance()(a, b)
print(pd, pd.grad_fn.name())
pd.sum().backward()
print(a.grad)
print(F.pairwise_distance(a.detach(), b, p=1.0, keepdim=True))
print(nn.PairwiseDistance(p=3.0)(a, b).detach())

ps = nn.PixelShuffle(2)
pu = nn.PixelUnshuffle(2)
print(ps, pu)
x = torch.arange(32.0).view(1, 8, 2, 2).requires_grad_(True)
y = ps(x)
print(y.shape, y[0, 1], y.grad_fn.name())
(y * torch.arange(32.0).view(1, 2, 4, 4)).sum().backward()
print(x.grad[0, :, 0, 0])
z = pu(y)
print(torch.equal(z, x), z.grad_fn.name())
print(F.pixel_shuffle(torch.arange(12.0).view(3, 4, 1, 1)[0], 2))
print(F.pixel_unshuffle(torch.arange(16.0).view(1, 4, 4), 2).shape)
err(lambda: ps(torch.zeros(1, 3, 2, 2)))
err(lambda: pu(torch.zeros(1, 3, 3, 2)))
err(lambda: F.pixel_shuffle(torch.zeros(4, 4), 2))

lrn = nn.LocalResponseNorm(3, alpha=0.1, beta=0.5, k=2.0)
print(lrn, nn.LocalResponseNorm(2))
img = (torch.arange(48.0).view(1, 4, 3, 4) / 10).requires_grad_(True)
o = lrn(img)
print(o[0, :, 1], o.grad_fn.name())
o.sum().backward()
print(img.grad[0, :, 0])
print(F.local_response_norm(torch.arange(12.0).view(1, 3, 4), 2)[0])
print(F.local_response_norm(torch.arange(24.0).view(1, 3, 2, 2, 2), 2, k=1.5)[0, 1])
err(lambda: lrn(torch.zeros(3, 4)))
