# torch.jit as tutorials use it: script and trace of modules and functions give objects that
# compute the original's numbers and print as PyTorch 1.13 prints them; the decorators; the flags.
import torch
import torch.nn as nn
from typing import List


class Net(nn.Module):
    scale: torch.jit.Final[float]

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)
        self.drop = nn.Dropout(0.5)
        self.block = nn.Sequential(nn.Linear(3, 3), nn.ReLU())
        self.register_buffer('offset', torch.full((3,), 0.5))
        self.scale = 2.0

    def forward(self, x):
        if torch.jit.is_tracing():
            print('tracing forward')
        return self.block(self.drop(self.fc(x))) * self.scale + self.offset

    @torch.jit.export
    def describe(self) -> str:
        return 'net'

    @torch.jit.ignore
    def debug(self, x):
        return x.shape

    @torch.jit.unused
    def unused_path(self, x):
        return x


torch.manual_seed(0)
net = Net()
x = torch.randn(2, 4)
print(torch.jit.is_scripting(), torch.jit.is_tracing())
net.eval()
ref = net(x)

scripted = torch.jit.script(net)
print(scripted)
print(type(scripted).__name__, isinstance(scripted, torch.jit.ScriptModule), isinstance(scripted, nn.Module))
print(torch.equal(scripted(x), ref), scripted(x).detach())  # (1.13's grad_fn is DifferentiableGraphBackward)
print([n for n, _ in scripted.named_parameters()])
print(list(scripted.state_dict().keys()))
print(scripted.fc, scripted.describe(), scripted.debug(x))

class Small(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)
        self.act = nn.Sequential(nn.Tanh())

    def forward(self, x):
        if torch.jit.is_tracing():
            print('tracing forward')
        return self.act(self.fc(x))


small = Small()
traced = torch.jit.trace(small, x)
print(traced)
print(type(traced).__name__, type(traced.fc).__name__, traced.fc)
print(torch.equal(traced(x), small(x)), traced(x).detach())
print(torch.jit.trace(small, x, check_trace=False).fc)

# train/eval belong to the scripted copy, as in PyTorch; the parameters are shared
scripted.train()
print(scripted.training, scripted.drop.training, net.training, net.drop.training)
torch.manual_seed(1)
a = scripted(x)
torch.manual_seed(1)
net.train()
b = net(x)
print(torch.equal(a, b))
with torch.no_grad():
    net.fc.bias.add_(1.0)
net.eval()
scripted.eval()
print(torch.equal(scripted(x), net(x)), scripted.fc.bias is net.fc.bias)


@torch.jit.script
def add_scaled(a, b, alpha: float = 2.0):
    return a + alpha * b


print(type(add_scaled).__name__, add_scaled.name, add_scaled(x, x))
print(repr(add_scaled).startswith('<torch.jit.ScriptFunction object at 0x'))


def double(t):
    return t * 2


td = torch.jit.trace(double, (x,))
print(type(td).__name__, td.name, torch.equal(td(x), x * 2))
print(torch.jit.trace(lambda t: t + 1, x).name)


@torch.jit.ignore
def helper(v: List[int]) -> int:
    return len(v)


print(helper([1, 2, 3]), torch.jit.annotate(List[int], []), torch.jit.Final)
print(torch.jit.freeze(scripted) is scripted, torch.jit.script(scripted) is scripted)
