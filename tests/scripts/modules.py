import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 8), nn.GELU(approximate='tanh'), nn.Linear(8, 1))
print(net)
print(list(net.state_dict().keys()))
x = torch.randn(3, 4)
out = net(x)
print(out)
for name, p in net.named_parameters():
    print(name, tuple(p.shape))
