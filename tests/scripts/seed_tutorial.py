# The code examples of the torch.nn tutorial (/work/shared/seeds/004_c655416040d35927.txt):
# Parameter, the containers, the forward and backward hook examples, as written (the
# page lost its line breaks; they are restored), with a seeded stream. Replaced, because
# PyTorch 1.13 without CUDA rejects it: torch.device("cuda:1") becomes the CPU. Left out
# (nnscope lacks it): torch.cdouble. The seed's PyTorch 2 forms (prepend=, with_kwargs=,
# full backward pre-hooks) are in seed_tutorial_nnscope.py.
import torch
from torch.autograd import Variable
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

# Parameter: assigned as a module attribute it is registered; a plain tensor is not
class Cache(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(2))
        self.hidden = torch.zeros(2)
c = Cache()
print([n for n, _ in c.named_parameters()], c.w, c.hidden)

# containers
seq = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
mlist = nn.ModuleList([nn.Linear(2, 2) for i in range(2)])
mdict = nn.ModuleDict({'act': nn.ReLU(), 'lin': nn.Linear(2, 2)})
plist = nn.ParameterList([nn.Parameter(torch.ones(2)) for i in range(2)])
pdict = nn.ParameterDict({'a': nn.Parameter(torch.zeros(1))})
print(seq, mlist, mdict, plist, pdict, sep='\n')

# apply
@torch.no_grad()
def init_weights(m):
    print(m)
    if type(m) == nn.Linear:
        m.weight.fill_(1.0)
        print(m.weight)
net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2))
print(net.apply(init_weights))

# modules / named_modules
l = nn.Linear(2, 2)
net = nn.Sequential(l, l)
for idx, m in enumerate(net.modules()):
    print(idx, '->', m)
for idx, m in enumerate(net.named_modules()):
    print(idx, '->', m)

# register_backward_hook
def backward_hook(module, grad_input, grad_output):
    # grad_output: the loss's gradient with respect to out
    # grad_input: with respect to (2*x) and (3*y), which are equal
    print("以下是Grad Input:")
    print(grad_input)
    print("以下是Grad Output:")
    print(grad_output)
    print("以下是修改后的Grad Input:")
    new_grad_input_0 = grad_input[0] + 1000.0  #+ 1000.0
    new_grad_input_1 = grad_input[1] - 2000.0  #- 2000.0
    new_grad_input = (new_grad_input_0, new_grad_input_1)
    print(new_grad_input)
    return new_grad_input

class Model4cxq(nn.Module):
    def __init__(self):
        super(Model4cxq, self).__init__()
        self.register_backward_hook(backward_hook)

    def forward(self, x, y):
        return 2*x + 3*y

x = torch.tensor([2.0, 3.0], requires_grad=True)
y = torch.tensor([6.0, 4.0], requires_grad=True)
criterion = nn.MSELoss()
model = Model4cxq()
out = model(x, y)
target = torch.tensor([14.0, 12.0], requires_grad=True)
loss = criterion(out, target)
print('loss =', loss)
loss.backward()
print('backward()结束'.center(50, '-'))
print('out.grad:', out.grad)
print('x.grad:', x.grad)
print('y.grad:', y.grad)
print('target.grad:', target.grad)

# register_buffer
class BN(nn.Module):
    def __init__(self, num_features):
        super().__init__()
        self.register_buffer('running_mean', torch.zeros(num_features))
print(BN(4).state_dict()['running_mean'])  # an OrderedDict in PyTorch

# register_forward_hook
net1 = nn.Linear(4, 2)
net2 = nn.Linear(2, 1)
def hook_func(model, input, output):
    print("model:", model)
    print("input", input)
    print("output", output)
x = torch.tensor([[1., 2., 3., 4.]], requires_grad=True)
haddle1 = net1.register_forward_hook(hook_func)
y = net1(x)
print(y)

# state_dict / to
module = nn.Linear(2, 2)
print(list(module.state_dict().keys()))
linear = nn.Linear(2, 2)
print(linear.weight)
print(linear.to(torch.double))
print(linear.weight)
gpu1 = torch.device("cpu")
print(linear.to(gpu1, dtype=torch.half, non_blocking=True))
print(linear.weight)
cpu = torch.device("cpu")
print(linear.to(cpu))
print(linear.weight)
