# the old-style global backward hook (torch.nn.modules.module.register_module_backward_hook) on its
# own: a process that registered a full global backward hook refuses it (see save_load_hooks.py)
import torch
import torch.nn as nn

calls = []
h = torch.nn.modules.module.register_module_backward_hook(
    lambda m, gi, go: calls.append((type(m).__name__, [g.shape for g in go])))
lin = nn.Linear(3, 2)
lin(torch.ones(4, 3, requires_grad=True)).sum().backward()
print(calls)
h.remove()
calls.clear()
lin(torch.ones(4, 3, requires_grad=True)).sum().backward()
print(calls)
