# torch.autograd.grad(create_graph=True) returns the backward's own results, as PyTorch does
# (their grad_fn is the node that made them, not a copy's CloneBackward0); and
# default_collate of namedtuples keeps their class
import torch
from collections import namedtuple
from torch.utils.data import DataLoader, Dataset, default_collate

w = torch.tensor([1., 2.], requires_grad=True)
g, = torch.autograd.grad(w.exp().sum(), w, create_graph=True)
print(g, type(g.grad_fn).__name__)
g.sum().backward()
print(w.grad)
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
ga, gb = torch.autograd.grad((a * b).sum() + (a ** 3).sum(), [a, b], create_graph=True)
print(ga, gb, type(ga.grad_fn).__name__, type(gb.grad_fn).__name__)
(ga * gb).sum().backward()
print(a.grad, b.grad)
g2, = torch.autograd.grad((a * a).sum(), a)
print(g2, g2.grad_fn)

class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        r = i.exp()
        ctx.save_for_backward(r)
        return r
    @staticmethod
    def backward(ctx, grad_output):
        r, = ctx.saved_tensors
        return grad_output * r
z = torch.tensor([1., 2.], requires_grad=True)
g, = torch.autograd.grad(Exp.apply(z).sum(), z, create_graph=True)
print(g, type(g.grad_fn).__name__)

# a gradient penalty on a leaf (WGAN-GP's pattern)
torch.manual_seed(0)
D = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
interp = torch.randn(5, 3, requires_grad=True)
out = D(interp)
grads = torch.autograd.grad(outputs=out, inputs=interp, grad_outputs=torch.ones_like(out),
                            create_graph=True, retain_graph=True)[0]
gp = ((grads.norm(2, dim=1) - 1) ** 2).mean()
print(round(gp.item(), 5), grads.requires_grad)
gp.backward()
print(D[0].weight.grad.abs().sum().item() > 0, interp.grad.shape)

P = namedtuple('P', ['x', 'y'])
class DS(Dataset):
    def __len__(self):
        return 4
    def __getitem__(self, i):
        return P(torch.tensor([i, i]), float(i))
for batch in DataLoader(DS(), batch_size=2):
    print(batch, type(batch).__name__, batch.x.shape)
print(default_collate([P(1, 2.5), P(2, 3.5)]))
