# Hooks: forward pre-hooks and forward hooks that read and replace values, full backward hooks, removing hooks, global hooks
#
# Lesson 4 of the nnscope course: `nnscope --lesson hooks`. The cells marked
# [nnscope] use nnscope's %hooks; the others print what PyTorch 1.13 prints.

# %% A small model to hook
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
x = torch.randn(5, 3)
print(model)

# %% A forward hook sees each module's input and output as the model runs
def show(module, inputs, output):
    print(f"{type(module).__name__:<7} in {tuple(inputs[0].shape)} out {tuple(output.shape)} mean {output.mean().item():+.4f}")


handles = [m.register_forward_hook(show) for m in model]
y = model(x)

# %% register_* returns a handle: remove() takes the hook off again
for h in handles:
    h.remove()
y = model(x)
print("no hook printed:", model[0]._forward_hooks)

# %% A forward pre-hook runs before forward; returning a value replaces the input
def clamp_input(module, inputs):
    print("pre-hook: input max", inputs[0].max().item())
    return (inputs[0].clamp(-1, 1),)


h = model[0].register_forward_pre_hook(clamp_input)
clamped = model(x)
h.remove()
print("changed the output:", not torch.equal(clamped, model(x)))
print("same as clamping by hand:", torch.equal(clamped, model(x.clamp(-1, 1))))

# %% A forward hook that returns a value replaces the output: here half the units are switched off
def drop_half(module, inputs, output):
    return output * torch.tensor([1., 0., 1., 0.])


h = model[1].register_forward_hook(drop_half)
features = {}
def keep(name):
    def hook(module, inputs, output):
        features[name] = output.detach()
    return hook


k = model[1].register_forward_hook(keep("tanh"))
model(x)
print(features["tanh"][:2])
h.remove()
k.remove()

# %% A full backward hook sees the gradients flowing through a module
def grads(module, grad_input, grad_output):
    print(f"{type(module).__name__:<7} grad_output norm {grad_output[0].norm().item():.4f}"
          f"  grad_input norm {grad_input[0].norm().item():.4f}")


handles = [m.register_full_backward_hook(grads) for m in model]
model(x.requires_grad_()).sum().backward()
for h in handles:
    h.remove()

# %% Returning new grad_input from a full backward hook changes what flows further back
x.grad = None
def double(module, grad_input, grad_output):
    return (grad_input[0] * 2,)


h = model[0].register_full_backward_hook(double)
model(x).sum().backward()
doubled = x.grad.clone()
h.remove()
x.grad = None
model(x).sum().backward()
print("the input's gradient doubled:", torch.allclose(doubled, 2 * x.grad))

# %% A tensor hook sees (and may replace) one tensor's gradient
w = torch.tensor([1., 2., 3.], requires_grad=True)
h = w.register_hook(lambda g: print("gradient of w:", g))
(w * w).sum().backward()
h.remove()
w.grad = None
h = w.register_hook(lambda g: g.clamp(max=3))
(w * w).sum().backward()
print("clamped:", w.grad)
h.remove()

# %% Global hooks fire for every module of every model
from torch.nn.modules.module import register_module_forward_hook, register_module_forward_pre_hook

calls = []
g1 = register_module_forward_pre_hook(lambda m, i: calls.append("pre " + type(m).__name__))
g2 = register_module_forward_hook(lambda m, i, o: calls.append("post " + type(m).__name__))
model(x)
nn.ReLU()(x)
g1.remove()
g2.remove()
print(calls)

# %% The order: pre-hooks, forward, forward hooks; then backward hooks from the output back
order = []
lin = nn.Linear(3, 1)
hooks = [
    lin.register_forward_pre_hook(lambda m, i: order.append("forward pre-hook")),
    lin.register_forward_hook(lambda m, i, o: order.append("forward hook")),
    lin.register_full_backward_hook(lambda m, gi, go: order.append("full backward hook")),
]
lin(torch.ones(2, 3, requires_grad=True)).sum().backward()
print(order)

# %% [nnscope] %hooks lists every hook still on a model (handle ids and the callables)
%hooks lin

# %%
for h in hooks:
    h.remove()
print("left on lin:", len(lin._forward_pre_hooks), len(lin._forward_hooks), len(lin._backward_hooks))
