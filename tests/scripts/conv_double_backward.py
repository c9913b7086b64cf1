# Double backward through convolutions (conv1d/2d/3d, conv_transpose1d/2d/3d), through
# select/slicing and through embedding, as a gradient penalty (WGAN-GP) and gradgradcheck use them; the convolutions'
# backwards under create_graph=True are differentiable ops (core/conv_grad_graph.c).
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import gradcheck, gradgradcheck

torch.manual_seed(0)
torch.set_printoptions(precision=8)

# WGAN-GP's gradient penalty on a small convolutional critic
critic = nn.Sequential(nn.Conv2d(1, 4, 3, stride=2, padding=1), nn.LeakyReLU(0.2), nn.Conv2d(4, 2, 3, groups=2),
                       nn.Flatten(), nn.Linear(2 * 2 * 2, 1)).double()
real = torch.randn(3, 1, 8, 8, dtype=torch.float64)
fake = torch.randn(3, 1, 8, 8, dtype=torch.float64)
alpha = torch.rand(3, 1, 1, 1, dtype=torch.float64)
inter = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
out = critic(inter)
(grads,) = torch.autograd.grad(out, inter, grad_outputs=torch.ones_like(out), create_graph=True, retain_graph=True)
print(grads.requires_grad, grads.shape)
penalty = ((grads.view(grads.size(0), -1).norm(2, dim=1) - 1) ** 2).mean()
loss = critic(fake).mean() - critic(real).mean() + 10 * penalty
loss.backward()
print(round(penalty.item(), 8), round(loss.item(), 8))
for name, p in critic.named_parameters():
    print(name, p.grad.flatten()[:4])

# gradgradcheck through every convolution
x1 = torch.randn(2, 4, 7, dtype=torch.float64, requires_grad=True)
x2 = torch.randn(2, 4, 5, 6, dtype=torch.float64, requires_grad=True)
x3 = torch.randn(1, 2, 4, 3, 4, dtype=torch.float64, requires_grad=True)
w1 = torch.randn(6, 2, 3, dtype=torch.float64, requires_grad=True)
w2 = torch.randn(6, 2, 3, 2, dtype=torch.float64, requires_grad=True)
w3 = torch.randn(2, 2, 2, 2, 3, dtype=torch.float64, requires_grad=True)
t1 = torch.randn(4, 3, 3, dtype=torch.float64, requires_grad=True)
t2 = torch.randn(4, 1, 2, 3, dtype=torch.float64, requires_grad=True)
t3 = torch.randn(2, 1, 2, 2, 2, dtype=torch.float64, requires_grad=True)
b6 = torch.randn(6, dtype=torch.float64, requires_grad=True)
cases = [
    ("conv1d", lambda x, w, b: F.conv1d(x, w, b, stride=2, padding=1, groups=2), (x1, w1, b6)),
    ("conv2d", lambda x, w, b: F.conv2d(x, w, b, stride=(2, 1), padding=(1, 0), dilation=(1, 2), groups=2),
     (x2, w2, b6)),
    ("conv3d", lambda x, w: F.conv3d(x, w, stride=(1, 2, 1), padding=1), (x3, w3)),
    ("conv_transpose1d", lambda x, w: F.conv_transpose1d(x, w, stride=2, output_padding=1), (x1, t1)),
    ("conv_transpose2d", lambda x, w: F.conv_transpose2d(x, w, stride=(2, 1), padding=1, groups=4, dilation=(1, 2)),
     (x2, t2)),
    ("conv_transpose3d", lambda x, w: F.conv_transpose3d(x, w, stride=2, groups=2), (x3, t3)),
    ("fold", lambda x: F.fold(x, (3, 4), 2), (torch.randn(1, 4, 6, dtype=torch.float64, requires_grad=True),)),
    ("select and slices", lambda x: x[:, 1, 1:4:2, ::2] * x[0, 2, 0:2, 1:4], (x2,)),
    ("embedding", lambda w: F.embedding(torch.tensor([[1, 2, 0], [2, 2, 3]]), w).pow(2),
     (torch.randn(4, 3, dtype=torch.float64, requires_grad=True),)),
]
for name, f, args in cases:
    print(name, "gradcheck", gradcheck(f, args), "gradgradcheck", gradgradcheck(f, args))

# a second derivative through slicing, printed
s = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
(g,) = torch.autograd.grad(s[:, 1:].pow(3).sum() + s[1].pow(2).sum(), s, create_graph=True)
(h,) = torch.autograd.grad(g.sum(), s)
print(g.requires_grad, h)

# through embedding with padding_idx (its row gets no gradient, at any order)
ew = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
(g,) = torch.autograd.grad(F.embedding(torch.tensor([1, 2, 0, 2]), ew, padding_idx=2).pow(3).sum(), ew,
                           create_graph=True)
(h,) = torch.autograd.grad((g * torch.arange(12.0, dtype=torch.float64).view(4, 3)).sum(), ew)
print(g.requires_grad, g.detach(), h)
