# torch.utils.checkpoint: the same values and gradients as the plain call, dropout's mask
# replayed from the saved random state, the warning and refusals of the reentrant form,
# checkpoint_sequential; torch.random.fork_rng.
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential
torch.manual_seed(0)
block = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.5), nn.Linear(8, 4))
x = torch.randn(3, 4, requires_grad=True)
y = checkpoint(block, x)
print(y.grad_fn.__class__.__name__, y.requires_grad)
y.sum().backward()
g1 = [p.grad.clone() for p in block.parameters()] + [x.grad.clone()]
torch.manual_seed(0)
block2 = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.5), nn.Linear(8, 4))
x2 = torch.randn(3, 4, requires_grad=True)
y2 = block2(x2)
y2.sum().backward()
g2 = [p.grad for p in block2.parameters()] + [x2.grad]
print(torch.equal(y, y2), all(torch.equal(a, b) for a, b in zip(g1, g2)))
print(x.grad)
# inputs without grad: a warning and no gradient for the parameters
z = checkpoint(block, torch.randn(2, 4))
print(z.requires_grad)
# use_reentrant=False
block.zero_grad()
w = checkpoint(block, torch.randn(2, 4), use_reentrant=False)
w.sum().backward()
print(block[0].weight.grad is not None)
# sequential
seq = nn.Sequential(*[nn.Linear(4, 4) for _ in range(6)])
inp = torch.randn(2, 4, requires_grad=True)
out = checkpoint_sequential(seq, 3, inp)
out.sum().backward()
print(out, inp.grad)
try:
    checkpoint(block, x, foo=1)
except ValueError as e:
    print(e)
try:
    o = checkpoint(block, torch.randn(2, 4, requires_grad=True))
    torch.autograd.grad(o.sum(), block[0].weight)
except RuntimeError as e:
    print(e)
print(torch.autograd._is_checkpoint_valid())
with torch.random.fork_rng():
    a = torch.rand(2)
b = torch.rand(2)
print(torch.equal(a, b), torch.random.initial_seed())
