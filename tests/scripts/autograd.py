# autograd: grad modes, retain_grad, tensor hooks, grad_fn, is_leaf, detach
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x * x).sum()
print(y.grad_fn.name(), y.is_leaf, x.is_leaf, y.requires_grad)
y.backward()
print(x.grad)
x.grad = None
print(torch.is_grad_enabled())
with torch.no_grad():
    print(torch.is_grad_enabled(), (x * 2).requires_grad)
    with torch.enable_grad():
        print(torch.is_grad_enabled(), (x * 2).requires_grad)
torch.set_grad_enabled(False)
print(torch.is_grad_enabled(), (x + 1).requires_grad)
torch.set_grad_enabled(True)
with torch.set_grad_enabled(False):
    print((x + 1).requires_grad)
print(torch.is_grad_enabled())

@torch.no_grad()
def doubled(t):
    return t * 2

print(doubled(x).requires_grad)
h = x * 3
h.retain_grad()
seen = []
handle = h.register_hook(lambda g: seen.append(g.clone()))
def scale(g):
    return g * 10
x.register_hook(scale)
(h ** 2).sum().backward()
print(h.grad, seen, x.grad)
handle.remove()
d = h.detach()
print(d.requires_grad, d.is_leaf, d.grad_fn)
a = torch.ones(2, 2, requires_grad=True)
out = (a.mean() * 2).exp()
out.backward()
print(out.grad_fn.name(), a.grad)
