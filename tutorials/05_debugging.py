# Debugging gradients: vanishing ones shown by hooks and the inspector, fixed by Kaiming init; exploding ones clipped; a NaN found with %break nan
#
# Lesson 5 of the nnscope course: `nnscope --lesson debugging`. The cells marked
# [nnscope] use nnscope's inspector (inspect() prints text tables without a
# terminal; %inspect model opens its full-screen view on one) and %break nan;
# the others print what PyTorch 1.13 prints.

# %% A deep Tanh network, initialised badly: every weight drawn with std 0.05
import torch
import torch.nn as nn
import torch.nn.functional as F


def deep_tanh(depth=8, width=32):
    layers = []
    for _ in range(depth):
        layers += [nn.Linear(width, width), nn.Tanh()]
    return nn.Sequential(*layers, nn.Linear(width, 1))


torch.manual_seed(0)
model = deep_tanh()
for m in model:
    if isinstance(m, nn.Linear):
        nn.init.normal_(m.weight, std=0.05)
        nn.init.zeros_(m.bias)
x = torch.randn(64, 32)
target = torch.randn(64, 1)

# %% Full backward hooks record the gradient arriving at each Linear layer
def grad_norms(net):
    norms = {}
    def hook(module, grad_input, grad_output):
        norms[module] = grad_output[0].norm().item()
    handles = [m.register_full_backward_hook(hook) for m in net if isinstance(m, nn.Linear)]
    net.zero_grad()
    F.mse_loss(net(x), target).backward()
    for h in handles:
        h.remove()
    return [norms[m] for m in net if isinstance(m, nn.Linear)]


bad = grad_norms(model)
for i, g in enumerate(bad):
    print(f"Linear {i}: gradient norm {g:.3e}")
print(f"the first layer gets {bad[0] / bad[-1]:.1e} of what the last one gets")

# %% [nnscope] The inspector's text tables: inspect() shows the parameters and starts recording the passes
inspect(model)

# %% One more forward and backward, recorded by the inspector
model.zero_grad()
F.mse_loss(model(x), target).backward()

# %% [nnscope] Now its tables show each layer's output spread (std) and gradients (grad_out), shrinking from the output back; Problems names the first layers, with the shrink per layer
inspect(model)

# %% [nnscope] Stop recording this model
%inspect off

# %% What vanishes is the gradient flowing back (grad_out); each weight's gradient is grad_out times the layer's input, which shrinks forward as fast
print("weight gradient norms:", " ".join(f"{m.weight.grad.norm().item():.1e}" for m in model if isinstance(m, nn.Linear)))

# %% Each Tanh layer multiplies the signal by about std * sqrt(width) = 0.05 * sqrt(32) = 0.28: it dies out
stds = []
with torch.no_grad():
    h = x
    for m in model:
        h = m(h)
        if isinstance(m, nn.Tanh):
            stds.append(h.std().item())
print("activation std per layer:", " ".join(f"{s:.1e}" for s in stds))

# %% The fix: Kaiming (He) initialisation scales each layer's weights by its fan-in (gain 5/3 for tanh)
torch.manual_seed(0)
fixed = deep_tanh()
for m in fixed:
    if isinstance(m, nn.Linear):
        nn.init.kaiming_normal_(m.weight, nonlinearity='tanh')
        nn.init.zeros_(m.bias)
good = grad_norms(fixed)
for i, (b, g) in enumerate(zip(bad, good)):
    print(f"Linear {i}: std 0.05 {b:.3e}   kaiming {g:.3e}")

# %% Exploding gradients: a deep ReLU network whose weights are too large
torch.manual_seed(0)
big = nn.Sequential(*[nn.Sequential(nn.Linear(32, 32), nn.ReLU()) for _ in range(8)], nn.Linear(32, 1))
for p in big.parameters():
    nn.init.normal_(p, std=0.5)
loss = F.mse_loss(big(x), target)
loss.backward()
print(f"loss {loss.item():.3e}")
print(f"gradient norm per layer: " + " ".join(f"{p.grad.norm().item():.1e}" for n, p in big.named_parameters() if n.endswith("weight")))

# %% clip_grad_norm_ scales all gradients together so that their total norm is at most max_norm
total = torch.nn.utils.clip_grad_norm_(big.parameters(), max_norm=1.0)
after = torch.norm(torch.stack([p.grad.norm() for p in big.parameters()]))
print(f"total norm before clipping {total.item():.3e}, after {after.item():.4f}")
opt = torch.optim.SGD(big.parameters(), lr=0.01)
opt.step()
print(f"after one clipped step the loss is {F.mse_loss(big(x), target).item():.3e}")

# %% A NaN: a layer that takes the log of its input gives NaN for negative values
class Log(nn.Module):
    def forward(self, x):
        return torch.log(x)


torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 4), Log(), nn.Linear(4, 1))
out = net(torch.randn(3, 4))
print(out)
print("NaN in the output:", torch.isnan(out).any().item(), "- but which layer made it?")

# %% [nnscope] %break nan: from now on a statement stops at the first module whose output or gradient holds NaN or Inf
%break nan net

# %% [nnscope] The forward stops at Log, the module that made the NaN
try:
    net(torch.randn(3, 4))
except RuntimeError as e:
    print("RuntimeError:", e)

# %% [nnscope]
%break off

# %% Gradients can go bad too: sqrt'(0) is infinite, and ReLU makes zeros
class Sqrt(nn.Module):
    def forward(self, x):
        return torch.sqrt(x)


net2 = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), Sqrt(), nn.Linear(4, 1))

# %% [nnscope] The breakpoint watches gradients as they flow back, and names the backward node that made the first Inf
%break nan net2

# %% [nnscope]
try:
    net2(torch.randn(8, 4)).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

# %% [nnscope]
%break off
