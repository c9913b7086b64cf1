# A leaf's tensor hooks run once per backward, on the sum of the gradients of
# all its uses (PyTorch's AccumulateGrad node), and what they return replaces
# that sum: a leaf used twice by one op, by two ops, by ops met at different
# depths, and a hook that runs its own backward inside.
import torch

w = torch.tensor([1., 2., 3.], requires_grad=True)
h = w.register_hook(lambda g: print("hook:", g))
(w * w).sum().backward()
print("grad:", w.grad)
h.remove()

w.grad = None
h = w.register_hook(lambda g: g.clamp(max=3))
(w * w).sum().backward()
print("clamped sum:", w.grad)
h.remove()

w.grad = None
seen = []
h = w.register_hook(lambda g: seen.append(g.clone()))
y = (w.exp().sum() + (w * 2).sum() + (w ** 2).sin().sum() * w.sum())
y.backward()
print(len(seen), torch.allclose(seen[0], w.grad), w.grad)
h.remove()

a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
ha = a.register_hook(lambda g: g * 10)
hb = b.register_hook(lambda g: print("b's hook:", g))
(a * b + a * a + b).backward()
print(a.grad, b.grad)
ha.remove()
hb.remove()

# the sum keeps adding into an existing .grad
a.grad = None
hc = a.register_hook(lambda g: print("a's hook:", g))
(a * a).backward()
(a * a * a).backward()
print(a.grad)
hc.remove()

# a hook that runs a backward of its own
c = torch.tensor([1., -1.], requires_grad=True)
d = torch.tensor([0.5, 0.5], requires_grad=True)
def nested(g):
    with torch.enable_grad():
        (d * 3).sum().backward()
    return g + 1
hn = c.register_hook(nested)
(c * c + c).sum().backward()
print(c.grad, d.grad)
hn.remove()
