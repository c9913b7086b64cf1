import torch
import torch.nn as nn
import torch.nn.functional as F

class Net(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc1 = nn.Linear(d, 8)
        self.act = nn.PReLU()
        self.fc2 = nn.Linear(8, 2)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))

torch.manual_seed(1)
net = Net(3)
print(net)
x = torch.randn(4, 3)
target = torch.tensor([0, 1, 1, 0])
loss = F.cross_entropy(net(x), target)
print(loss)
grads = {}
net.fc1.register_full_backward_hook(lambda m, gi, go: grads.update(fc1=go[0].norm().item()))
loss = F.cross_entropy(net(x), target)
loss.backward()
print(f"{grads['fc1']:.6f}", net.act.weight.grad)
sd = net.state_dict()
print(list(sd.keys()))
with torch.no_grad():
    net.fc2.weight.fill_(0.5)
print(net.fc2.weight)
