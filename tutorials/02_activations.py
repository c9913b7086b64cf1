# Activation functions: curves and derivatives, a value table, saturation, GELU's two forms, PReLU, dead ReLUs
#
# Lesson 2 of the nnscope course: `nnscope --lesson activations`. The cells marked
# [nnscope] draw with nnscope's plot(); every other cell is plain PyTorch and prints
# what PyTorch prints.

# %% The activations of the course: the source documents' seven and four more
import torch
import torch.nn as nn
import torch.nn.functional as F

acts = [nn.ReLU(), nn.LeakyReLU(0.1), nn.PReLU(), nn.ELU(), nn.GELU(), nn.SiLU(),
        nn.Softplus(), nn.Sigmoid(), nn.Tanh(), nn.Threshold(0.5, -1.0)]
for act in acts:
    print(act)

# %% [nnscope] Their curves, drawn in the terminal with plot()
plot([nn.ReLU(), nn.LeakyReLU(0.1), nn.ELU(), nn.GELU()], width=60, height=14)
plot([nn.Sigmoid(), nn.Tanh(), nn.Softplus(), nn.SiLU()], width=60, height=14)

# %% [nnscope] With grad=True, plot() draws each derivative (autograd's) beside its curve
plot([nn.GELU(), nn.Tanh()], grad=True, lo=-4, hi=4, width=60, height=14)

# %% A value table on torch.linspace(-3, 3, 7)
x = torch.linspace(-3, 3, 7)
print(f"{'x':>24}" + "".join(f"{v:8.2f}" for v in x.tolist()))
for act in acts:
    name = type(act).__name__
    with torch.no_grad():
        row = act(x)
    print(f"{name:>24}" + "".join(f"{v:8.4f}" for v in row.tolist()))

# %% The same table for the derivatives, each computed by autograd
print(f"{'d/dx at x':>24}" + "".join(f"{v:8.2f}" for v in x.tolist()))
for act in acts:
    xg = torch.linspace(-3, 3, 7, requires_grad=True)
    act(xg).sum().backward()
    print(f"{type(act).__name__:>24}" + "".join(f"{v:8.4f}" for v in xg.grad.tolist()))

# %% Saturation: far from 0, Sigmoid and Tanh go flat and their gradient vanishes
far = torch.tensor([0., 2., 5., 10., 20.], requires_grad=True)
for f in [torch.sigmoid, torch.tanh, F.softplus, F.gelu]:
    far.grad = None
    f(far).sum().backward()
    print(f"{f.__name__:>9}: gradient at {far.detach().tolist()} = {far.grad.tolist()}")
print("sigmoid'(x) < 1e-4 from x =", torch.arange(0., 20.)[torch.sigmoid(torch.arange(0., 20.)) * (1 - torch.sigmoid(torch.arange(0., 20.))) < 1e-4][0].item())

# %% GELU's exact form x * Phi(x) and its tanh approximation, side by side
t = torch.linspace(-3, 3, 7)
exact = F.gelu(t)
approx = F.gelu(t, approximate='tanh')
by_hand = 0.5 * t * (1 + torch.tanh((2 / torch.pi) ** 0.5 * (t + 0.044715 * t ** 3)))
print("exact: ", exact)
print("tanh:  ", approx)
print("by hand (tanh form):", torch.allclose(approx, by_hand))
print("exact by hand (erf):", torch.allclose(exact, 0.5 * t * (1 + torch.erf(t / 2 ** 0.5)), atol=1e-6))

# %% Their difference is small: largest where the curve bends
fine = torch.linspace(-6, 6, 1201)
diff = (F.gelu(fine) - F.gelu(fine, approximate='tanh')).abs()
k = diff.argmax()
print(f"largest |exact - tanh| = {diff.max().item():.3e} at x = {fine[k].item():.2f}")
print(f"mean |exact - tanh| = {diff.mean().item():.3e}")

# %% PReLU learns its negative slope: data made with slope 0.1, PReLU starts at 0.25
torch.manual_seed(0)
prelu = nn.PReLU()
data = torch.randn(64)
target = torch.where(data > 0, data, 0.1 * data)
opt = torch.optim.SGD(prelu.parameters(), lr=0.5)
for step in range(30):
    loss = F.mse_loss(prelu(data), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0 or step == 29:
        print(f"step {step:2d}  slope {prelu.weight.item():.4f}  loss {loss.item():.6f}")

# %% Dead ReLUs: a unit whose input is negative for every example outputs 0 and gets no gradient
torch.manual_seed(0)
layer = nn.Linear(10, 8)
with torch.no_grad():
    layer.bias[:3] = -10.0           # as a too-large update can leave them
inputs = torch.randn(256, 10)
h = F.relu(layer(inputs))
dead = (h == 0).all(dim=0)
print("dead units:", dead.sum().item(), "of", dead.numel(), dead.tolist())
h.sum().backward()
print("weight grad of each unit:", layer.weight.grad.abs().sum(dim=1))

# %% LeakyReLU keeps a small gradient flowing through the same units, so they can recover
layer.zero_grad()
F.leaky_relu(layer(inputs), 0.1).sum().backward()
print("with LeakyReLU:          ", layer.weight.grad.abs().sum(dim=1))
