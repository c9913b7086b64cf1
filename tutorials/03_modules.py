# Modules: nn.Module subclasses, containers, parameters and buffers, state_dict, LazyLinear, FeedForward, MultiStep
#
# Lesson 3 of the nnscope course: `nnscope --lesson modules`. The cells marked
# [nnscope] use what PyTorch 1.13 alone cannot run here (nnscope's summary(), its
# built-in labml_nn and torchrl modules); the others print what PyTorch prints.

# %% A module is a class: layers made in __init__ are registered, forward says how they are used
import torch
import torch.nn as nn
import torch.nn.functional as F
from collections import OrderedDict


class TwoLayer(nn.Module):
    def __init__(self, d_in, d_hidden, d_out):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_hidden)
        self.fc2 = nn.Linear(d_hidden, d_out)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


torch.manual_seed(0)
net = TwoLayer(4, 8, 2)
print(net)
print(net(torch.randn(3, 4)))

# %% Its parameters were found by assignment: names, shapes, counts
for name, p in net.named_parameters():
    print(f"{name:<12} {str(tuple(p.shape)):<8} requires_grad={p.requires_grad}")
print("parameters:", sum(p.numel() for p in net.parameters()))

# %% [nnscope] summary() prints torchinfo's table from one forward pass
summary(net, (3, 4))

# %% Sequential runs its modules in order; names come from an OrderedDict or from positions
seq = nn.Sequential(OrderedDict([("fc1", nn.Linear(4, 8)), ("act", nn.GELU()), ("fc2", nn.Linear(8, 2))]))
print(seq)
print(seq.fc1 is seq[0], seq[1:])

# %% ModuleList holds modules you loop over yourself; ModuleDict looks them up by name
class Tower(nn.Module):
    def __init__(self, depth, width):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(width, width) for _ in range(depth)])
        self.acts = nn.ModuleDict({"relu": nn.ReLU(), "tanh": nn.Tanh()})

    def forward(self, x, act="relu"):
        for layer in self.layers:
            x = self.acts[act](layer(x))
        return x


tower = Tower(3, 4)
print(tower)
print(len(tower.layers), list(tower.acts.keys()), tower(torch.ones(1, 4), act="tanh").shape)

# %% A plain Python list would hide the layers: no parameters, nothing in state_dict
class Hidden(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Linear(4, 4), nn.Linear(4, 4)]


print("in a list:", len(list(Hidden().parameters())), " in a ModuleList:", len(list(tower.parameters())))

# %% Parameters are learned; buffers are state that is saved but not learned
bn = nn.BatchNorm1d(3)
print("parameters:", [n for n, _ in bn.named_parameters()])
print("buffers:   ", [n for n, _ in bn.named_buffers()])
bn(torch.randn(8, 3) * 2 + 5)
print("running_mean after one batch:", bn.running_mean)

# %% register_buffer: persistent buffers go in the state_dict, others do not
class Counter(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)
        self.register_buffer("steps", torch.zeros(()))
        self.register_buffer("scratch", torch.ones(2), persistent=False)

    def forward(self, x):
        self.steps += 1
        return self.lin(x)


counter = Counter()
counter(torch.ones(1, 2))
counter(torch.ones(1, 2))
print(list(counter.state_dict().keys()), counter.steps)

# %% state_dict() is an ordered dict of tensors; load_state_dict() copies them into another model
torch.manual_seed(1)
a = TwoLayer(4, 8, 2)
b = TwoLayer(4, 8, 2)
x = torch.randn(2, 4)
print("before:", torch.equal(a(x), b(x)))
print(b.load_state_dict(a.state_dict()))
print("after: ", torch.equal(a(x), b(x)))

# %% Its errors: missing and unexpected keys, and shapes that do not match
state = a.state_dict()
del state["fc2.bias"]
state["fc3.weight"] = torch.zeros(1)
try:
    b.load_state_dict(state)
except RuntimeError as e:
    print(e)
try:
    TwoLayer(4, 16, 2).load_state_dict(a.state_dict())
except RuntimeError as e:
    print(e)

# %% strict=False loads what matches and reports the rest
print(b.load_state_dict(state, strict=False))

# %% [nnscope] LazyLinear infers in_features at its first call (its warning is placed at torch/nn/modules/lazy.py:180 and printed as PyTorch prints it: its install path and the source line)
lazy = nn.LazyLinear(3)
print(lazy)
print(lazy.weight)
lazy(torch.ones(5, 7))
print(lazy, lazy.weight.shape)

# %% The source documents' FeedForward: two linear layers, an activation, and an optional gate
class FeedForward(nn.Module):
    def __init__(self, d_model, d_ff, dropout=0.1, activation=nn.ReLU(), is_gated=False,
                 bias1=True, bias2=True, bias_gate=True):
        super().__init__()
        self.layer1 = nn.Linear(d_model, d_ff, bias=bias1)
        self.layer2 = nn.Linear(d_ff, d_model, bias=bias2)
        self.dropout = nn.Dropout(dropout)
        self.activation = activation
        self.is_gated = is_gated
        if is_gated:
            self.linear_v = nn.Linear(d_model, d_ff, bias=bias_gate)

    def forward(self, x):
        g = self.activation(self.layer1(x))
        if self.is_gated:
            x = g * self.linear_v(x)
        else:
            x = g
        x = self.dropout(x)
        return self.layer2(x)


# %% With a GLU gate: sigmoid(x W1) * (x V), then W2 (Shazeer's GLU variants; GEGLU uses GELU, SwiGLU SiLU)
torch.manual_seed(0)
glu = FeedForward(4, 8, dropout=0.0, activation=nn.Sigmoid(), is_gated=True, bias1=False, bias2=False, bias_gate=False)
print(glu)
tokens = torch.randn(2, 3, 4)
out = glu(tokens)
print(out.shape)
by_hand = (torch.sigmoid(tokens @ glu.layer1.weight.T) * (tokens @ glu.linear_v.weight.T)) @ glu.layer2.weight.T
print("by hand:", torch.allclose(out, by_hand))

# %% [nnscope] nnscope has labml's FeedForward built in: loaded with the same weights, it computes the same
from labml_nn.transformers.feed_forward import FeedForward as LabmlFeedForward
builtin = LabmlFeedForward(4, 8, 0.0, nn.Sigmoid(), True, False, False, False)
print(builtin.load_state_dict(glu.state_dict()))
print("same output:", torch.equal(builtin(tokens), out))

# %% [nnscope] torchrl's MultiStep turns one-step rewards into n-step returns (torchrl and tensordict are built into nnscope)
from tensordict import TensorDict
from torchrl.data import MultiStep

done = torch.tensor([[[False], [False], [False], [False], [False], [True]]])
td = TensorDict({
    "obs": torch.arange(6.).reshape(1, 6, 1),
    "next": TensorDict({"obs": torch.arange(1., 7.).reshape(1, 6, 1), "reward": torch.ones(1, 6, 1), "done": done},
                       batch_size=[1, 6]),
}, batch_size=[1, 6])
multi = MultiStep(gamma=0.9, n_steps=3)
out = multi(td)
print("n-step return:   ", out["next", "reward"].squeeze())
print("by hand, step 0: ", 1 + 0.9 + 0.9 ** 2 + 0.9 ** 3)
print("steps to next obs:", out["steps_to_next_obs"].squeeze())
print("next obs:         ", out["next", "obs"].squeeze())
