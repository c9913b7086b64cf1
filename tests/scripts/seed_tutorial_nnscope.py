# expected: by hand — the seeds' PyTorch 2 Module API, which PyTorch 1.13 lacks
# (set_submodule, register_full_backward_pre_hook, prepend=, with_kwargs=, public
# register_state_dict_pre_hook/post_hook, register_load_state_dict_pre_hook, the global
# register_module_full_backward_pre_hook, Module.mtia); seed_tutorial_nnscope.expected was
# written from the signatures and firing order that /work/shared/seeds/004_c655416040d35927.txt
# and 000_b41b0117cd7011e8.txt give (hook(module, state_dict, prefix, local_metadata), global
# hooks before the module's own, ...), and checked line by line against them; the last
# line is nnscope's own message for a device it lacks.
import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
net.set_submodule("1", nn.Tanh())
print(net)
order = []
lin = nn.Linear(2, 1)
lin.register_forward_hook(lambda m, i, o: order.append("second"))
lin.register_forward_hook(lambda m, i, o: order.append("first"), prepend=True)
lin.register_forward_pre_hook(lambda m, args, kwargs: order.append("pre kwargs " + str(sorted(kwargs))), with_kwargs=True)
x = torch.ones(1, 2, requires_grad=True)
lin(x)
print(order)
order.clear()
lin.register_full_backward_pre_hook(lambda m, grad_output: order.append("backward pre " + str(grad_output[0].shape)))
lin(x).sum().backward()
print(order)
lin.register_state_dict_pre_hook(lambda m, prefix, keep_vars: print("state_dict pre", repr(prefix), keep_vars))
print(list(lin.state_dict().keys()))
lin.register_state_dict_post_hook(lambda m, sd, prefix, meta: print("state_dict post", list(sd.keys()), repr(prefix)))
lin.register_load_state_dict_pre_hook(
    lambda m, sd, prefix, meta, strict, missing, unexpected, errors: print("load pre", type(m).__name__, sorted(sd), strict))
lin.load_state_dict(lin.state_dict())
from torch.nn.modules.module import register_module_full_backward_pre_hook
order.clear()
h = register_module_full_backward_pre_hook(lambda m, grad_output: order.append("global backward pre " + type(m).__name__))
lin(x).sum().backward()
h.remove()
print(order)
# a device PyTorch 2 names and this machine lacks: nnscope's RuntimeError
try:
    lin.mtia()
except RuntimeError as e:
    print("RuntimeError", e)
