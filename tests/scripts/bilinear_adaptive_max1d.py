# nn.Bilinear / F.bilinear, nn.AdaptiveMaxPool1d / F.adaptive_max_pool1d and the F.*_with_indices
# spellings, F.gumbel_softmax (PyTorch's stream), F.pdist, F.threshold_ and F.celu_ against PyTorch
# 1.13: seeded weights, reprs, values, gradients, gradcheck, messages; and the double backward of
# F.max_unpool2d.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import gradcheck, gradgradcheck

torch.manual_seed(0)
torch.set_printoptions(precision=8)
bl = nn.Bilinear(3, 4, 2)
print(bl, nn.Bilinear(2, 2, 5, bias=False))
print(bl.weight.shape, bl.weight.flatten()[:5], bl.bias)
bl = bl.double()
a = torch.randn(5, 3, dtype=torch.float64, requires_grad=True)
b = torch.randn(5, 4, dtype=torch.float64, requires_grad=True)
y = bl(a, b)
print(y.detach())
y.pow(2).sum().backward()
print(a.grad, bl.weight.grad.flatten()[:6], bl.bias.grad)
print(F.bilinear(torch.randn(2, 3, 3, dtype=torch.float64), torch.randn(2, 3, 4, dtype=torch.float64), bl.weight).shape)
print("gradcheck bilinear", gradcheck(lambda p, q, w: F.bilinear(p, q, w, bl.bias), (a, b, bl.weight)))

x = torch.randn(2, 3, 10, dtype=torch.float64, requires_grad=True)
mp = nn.AdaptiveMaxPool1d(4)
print(mp, nn.AdaptiveMaxPool1d(1, return_indices=True))
print(mp(x).detach())
v, i = F.adaptive_max_pool1d(x, 3, return_indices=True)
print(v.detach(), i)
v.sum().backward()
print(x.grad[0])
print(F.adaptive_max_pool1d(x[0], (2,)).shape, F.adaptive_max_pool1d_with_indices(x, 5)[1][0])
print(F.max_pool1d_with_indices(x, 3)[1][0], F.max_pool2d_with_indices(x.view(2, 3, 2, 5), 2)[1][0])
print(F.adaptive_max_pool2d_with_indices(x.view(2, 3, 2, 5), (1, 2))[1][0])
print("gradcheck adaptive_max_pool1d", gradcheck(lambda t: F.adaptive_max_pool1d(t, 4), (x,)))
# a text CNN's global max pooling over time
torch.manual_seed(1)
emb = nn.Embedding(20, 6)
conv = nn.Conv1d(6, 4, 3)
pool = nn.AdaptiveMaxPool1d(1)
tokens = torch.tensor([[1, 5, 7, 2, 9, 3], [4, 4, 8, 0, 1, 2]])
feat = pool(torch.relu(conv(emb(tokens).transpose(1, 2)))).squeeze(-1)
torch.set_printoptions(precision=4)  # float32 conv1d over 6 channels: not PyTorch's last bits (docs/numerics.md)
print(feat.shape, feat.detach())
torch.set_printoptions(precision=8)

# double backward of max_unpool2d
xx = torch.randn(1, 2, 4, 4, dtype=torch.float64)
pv, pi = F.max_pool2d(xx, 2, return_indices=True)
pv = pv.detach().requires_grad_()
(g,) = torch.autograd.grad(F.max_unpool2d(pv, pi, 2).pow(2).sum(), pv, create_graph=True)
(h,) = torch.autograd.grad(g.pow(2).sum(), pv)
print(g.requires_grad, h)
print("gradgradcheck max_unpool2d", gradgradcheck(lambda t: F.max_unpool2d(t, pi, 2, output_size=(4, 4)), (pv,)))

# gumbel_softmax, pdist, threshold_, celu_
torch.manual_seed(0)
logits = torch.randn(3, 5, dtype=torch.float64, requires_grad=True)
y = F.gumbel_softmax(logits, tau=0.5)
print(y.detach())
yh = F.gumbel_softmax(logits, tau=1.0, hard=True)
print(yh.detach())
(yh * torch.arange(5.0, dtype=torch.float64)).sum().backward()
print(logits.grad)
print(F.gumbel_softmax(torch.zeros(2, 3), dim=0))
pts = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
d = F.pdist(pts)
print(d.detach(), F.pdist(pts, p=1).detach(), F.pdist(pts[:1]).shape)
d.sum().backward()
print(pts.grad)
t = torch.randn(6)
r = F.threshold_(t, 0.1, 20.0)
print(t, r is t)
c = torch.randn(4)
print(F.celu_(c, 0.5), c)


def err(f):
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__ + ":", e)


err(lambda: F.adaptive_max_pool1d(torch.randn(2, 3, 4, 5), 2))
err(lambda: F.adaptive_max_pool1d(torch.randn(3), 2))
err(lambda: F.adaptive_max_pool1d(torch.randn(2, 3, 7), (2, 3)))
err(lambda: F.bilinear(torch.randn(2, 3), torch.randn(2, 4), torch.randn(5, 3, 3)))
err(lambda: F.bilinear(torch.randn(2, 3), torch.randn(3, 4), torch.randn(5, 3, 4)))
err(lambda: F.bilinear(torch.randn(2, 3), torch.randn(2, 4), torch.randn(5, 3, 4), torch.randn(4)))
