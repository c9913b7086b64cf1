# torch.save / torch.load of a state dict, and the global module hooks of torch.nn.modules.module
import torch
import torch.nn as nn
from torch.nn.modules.module import (register_module_forward_pre_hook, register_module_forward_hook,
                                     register_module_full_backward_hook,
                                     register_module_backward_hook)
from torch.nn.parameter import is_lazy

torch.manual_seed(0)
lin = nn.Linear(3, 2)
path = "save_load_hooks.tmp"
torch.save(lin.state_dict(), path)
loaded = torch.load(path)
print(sorted(loaded.keys()), (loaded["weight"] == lin.weight).tolist())
other = nn.Linear(3, 2)
print(other.load_state_dict(loaded), (other.bias == lin.bias).tolist())
print(is_lazy(nn.LazyLinear(2).weight), is_lazy(lin.weight))

calls = []
handles = [
    register_module_forward_pre_hook(lambda m, i: calls.append("pre " + type(m).__name__)),
    register_module_forward_hook(lambda m, i, o: calls.append("fwd " + type(m).__name__)),
    register_module_full_backward_hook(lambda m, gi, go: calls.append("bwd " + type(m).__name__)),
]
lin(torch.ones(1, 3, requires_grad=True)).sum().backward()
print(calls)
for h in handles:
    h.remove()
calls.clear()
lin(torch.ones(1, 3)).sum()
print(calls)
# once a full backward hook was registered globally, an old-style global one is refused
h = torch.nn.modules.module.register_module_backward_hook(lambda m, gi, go: None)
