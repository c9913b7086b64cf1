import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))

def show(module, args, output):
    print(type(module).__name__, tuple(output.shape))

handles = [m.register_forward_hook(show) for m in net]
net(torch.randn(5, 3))
for h in handles:
    h.remove()
net(torch.randn(5, 3))
print("hooks removed")
