# PyTorch's OrderedDicts: state_dict() (destination= keeps the given dict),
# _parameters, _buffers, _modules, the hook dicts, Sequential and ModuleDict built
# from an OrderedDict (and ParameterDict's order), load_state_dict of a dict or an
# OrderedDict, torch.load
import torch
import torch.nn as nn
from collections import OrderedDict

torch.manual_seed(0)
m = nn.Linear(2, 1)
sd = m.state_dict()
print(sd)
print(type(sd), type(sd).__name__, isinstance(sd, dict), isinstance(sd, OrderedDict))
print(m._parameters)
print(m._buffers, m._modules, m._forward_hooks, m._forward_pre_hooks, m._backward_hooks)
print(sd.keys(), list(sd.items())[1])

dest = {}
r = m.state_dict(destination=dest)
print(type(r).__name__, r is dest, list(dest))
dest = OrderedDict(first=None)
r = m.state_dict(destination=dest, prefix="lin.")
print(type(r).__name__, r is dest, list(dest))

h = m.register_forward_hook(lambda mod, inp, out: None)
print(type(m._forward_hooks).__name__, repr(m._forward_hooks).split(" at ")[0], list(m._forward_hooks.keys()))
h.remove()
print(m._forward_hooks)
m.register_buffer("running", torch.zeros(2))
print(m._buffers)
print(m._parameters.keys(), m.state_dict().keys())

net = nn.Sequential(OrderedDict([("fc1", nn.Linear(4, 3)), ("act", nn.ReLU()), ("fc2", nn.Linear(3, 1))]))
print(net)
print(net._modules)
print(net.fc1, net[2], list(net.state_dict().keys()))
md = nn.ModuleDict(OrderedDict([("b", nn.ReLU()), ("a", nn.Tanh())]))
print(md, list(md.keys()), md._modules)
# ParameterDict keeps an OrderedDict's order and sorts a plain dict's keys (PyTorch 1.13)
pd = nn.ParameterDict(OrderedDict([("b", nn.Parameter(torch.zeros(1))), ("a", nn.Parameter(torch.ones(1)))]))
pd.update({"d": nn.Parameter(torch.zeros(1)), "c": nn.Parameter(torch.ones(1))})
pd.update(OrderedDict([("f", nn.Parameter(torch.zeros(1))), ("e", nn.Parameter(torch.ones(1)))]))
print(list(pd.keys()), pd._parameters.keys())
seq = nn.Sequential(nn.Linear(1, 1), nn.ReLU())
seq.append(nn.Tanh())
print(seq._modules)

print(m.load_state_dict(m.state_dict()))
print(m.load_state_dict(dict(m.state_dict())))
print(m.load_state_dict(OrderedDict([("weight", torch.ones(1, 2)), ("bias", torch.zeros(1)), ("running", torch.ones(2))])))
print(m.state_dict())
zeros = OrderedDict((k, v * 0) for k, v in net.state_dict().items())
print(net.load_state_dict(zeros), net.state_dict()["fc2.weight"])

torch.save(m.state_dict(), "state_dict_print.tmp")
loaded = torch.load("state_dict_print.tmp")
print(type(loaded).__name__, sorted(loaded.keys()), loaded["weight"], loaded == OrderedDict(loaded))
print(m.load_state_dict(loaded))
