# The code examples of the torch.nn.Module reference (/work/shared/seeds/001_dcf70d9b5d76b54e.txt),
# as written, with a seeded stream. Replaced, because PyTorch 1.13 without CUDA rejects them:
# torch.device("cuda:1") becomes the CPU, and dtype=torch.half moves on the CPU. Left out
# (nnscope lacks them): complex dtypes (torch.cdouble).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

# Module: submodules assigned as attributes
class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 20, 5)
        self.conv2 = nn.Conv2d(20, 20, 5)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        return F.relu(self.conv2(x))

model = Model()
print(model)
out = model(torch.randn(1, 1, 12, 12))
print(out.shape, out[0, :2, 0])

# get_submodule: A has net_b, which has net_c (with conv) and linear
A = nn.Module()
A.net_b = nn.Module()
A.net_b.net_c = nn.Module()
A.net_b.net_c.conv = nn.Conv2d(16, 33, 3, stride=2)
A.net_b.linear = nn.Linear(100, 200)
print(A)
print(A.get_submodule("net_b.linear"), A.get_submodule("net_b.net_c.conv"))

# apply
@torch.no_grad()
def init_weights(m):
    print(m)
    if type(m) == nn.Linear:
        m.weight.fill_(1.0)
        print(m.weight)
net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2))
print(net.apply(init_weights))

# buffers / named_buffers / parameters / named_parameters / named_children on a model
model = nn.Sequential(nn.Linear(5, 20), nn.BatchNorm1d(20))
for buf in model.buffers():
    print(type(buf), buf.size())
for name, buf in model.named_buffers():
    if name in ['1.running_var']:
        print(buf.size())
for param in model.parameters():
    print(type(param), param.size())
for name, param in model.named_parameters():
    if name in ['0.bias']:
        print(param.size())
for name, module in model.named_children():
    if name in ['1']:
        print(module)

# modules / named_modules
l = nn.Linear(2, 2)
net = nn.Sequential(l, l)
for idx, m in enumerate(net.modules()):
    print(idx, '->', m)
for idx, m in enumerate(net.named_modules()):
    print(idx, '->', m)

# register_buffer
class Norm(nn.Module):
    def __init__(self, num_features):
        super().__init__()
        self.register_buffer('running_mean', torch.zeros(num_features))
print(Norm(3).running_mean, list(Norm(3).state_dict().keys()))

# state_dict
module = nn.Linear(2, 2)
print(list(module.state_dict().keys()))  # an OrderedDict in PyTorch: its keys print as odict_keys

# to
linear = nn.Linear(2, 2)
print(linear.weight)
print(linear.to(torch.double))
print(linear.weight)
cpu1 = torch.device("cpu")
print(linear.to(cpu1, dtype=torch.half, non_blocking=True))
print(linear.weight)
cpu = torch.device("cpu")
print(linear.to(cpu))
print(linear.weight)
