# First steps with nnscope: the code is PyTorch's, and so are the numbers.
# Run it with:  build/nnscope tutorials/first_steps.py   (or: make run)
import torch
import torch.nn as nn
import torch.nn.functional as F

# 1. Tensors: a seeded random stream gives PyTorch's exact values.
torch.manual_seed(0)
x = torch.randn(4, 3)
print("x =", x)
print("shape:", x.shape, "dtype:", x.dtype)
print("column means:", x.mean(dim=0))

# 2. A network, printed the way PyTorch prints it.
net = nn.Sequential(nn.Linear(3, 8), nn.GELU(approximate='tanh'), nn.Linear(8, 1))
print(net)
print("parameters:", sum(p.numel() for p in net.parameters()))

# 3. Watching activations with a forward hook.
def report(module, inputs, output):
    print(f"  {type(module).__name__:<6} out mean {output.mean().item():+.4f} std {output.std().item():.4f}")

handles = [m.register_forward_hook(report) for m in net]
print("forward with hooks:")
y = net(x)
for h in handles:
    h.remove()

# 4. A few steps of training.
target = torch.ones(4, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for step in range(3):
    loss = F.mse_loss(net(x), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step}: loss {loss.item():.6f}")

# 5. Gradients of an activation, as a teacher would show them.
t = torch.linspace(-2, 2, 5, requires_grad=True)
F.gelu(t).sum().backward()
print("d/dx gelu at", t.detach(), "=", t.grad)
