# In-place methods that nnscope computes out of place (x.clamp_(), x.pow_(), x.log_(), ...) on tensors
# that autograd records: the op's own node becomes the tensor's grad_fn (its edge to the
# tensor's old history), what it saved stays valid, views get CopySlices; PyTorch 1.13's
# gradients and names.
import torch
torch.manual_seed(0)
cases = {
 'abs': (), 'ceil': (), 'clamp': (0.2, 0.8), 'clamp_max': (0.5,), 'clamp_min': (0.5,), 'exp': (), 'floor': (),
 'log': (), 'nan_to_num': (), 'neg': (), 'pow': (2,), 'relu': (), 'round': (), 'sigmoid': (), 'sign': (), 'sqrt': (),
 'square': (), 'tanh': (), 'xlogy': (2.0,), 'logit': (), 'sgn': (), 'atan2': (torch.rand(3),), 'hypot': (torch.rand(3),),
 'lerp': (torch.rand(3), 0.3), 'remainder': (0.3,), 'fmod': (0.3,), 'copysign': (-1.0,), 'addcmul': (torch.rand(3), torch.rand(3)),
 'addcdiv': (torch.rand(3), torch.rand(3) + 1), 'renorm': (2, 0, 0.5)
}
for name, args in cases.items():
    a = torch.rand(3, requires_grad=True) + 0.1
    a.retain_grad()
    b = a * 1.5
    try:
        getattr(b, name + '_')(*args)
        b.sum().backward()
        print(name, b.grad_fn.name(), a.grad)
    except Exception as e:
        print(name, type(e).__name__, str(e)[:100])
a = torch.rand(4, requires_grad=True)
b = a * 2
v = b[1:3]
v.clamp_(0.3, 0.9)
print(b.grad_fn.name(), v.grad_fn.name())
b.pow(2).sum().backward()
print(a.grad)
try:
    a.clamp_(0, 1)
except RuntimeError as e:
    print(e)
with torch.no_grad():
    a.clamp_(0.2, 0.5)
print(a, a.requires_grad, a.grad_fn)
c = torch.rand(3)
c.pow_(2)
print(c, c._version)
d = torch.rand(3, requires_grad=True) * 1
e = d
d.log_()
print(d is e, d.grad_fn.name(), d.grad_fn.next_functions[0][0].name(), d._version)
x = torch.rand(3)
w = torch.rand(3, requires_grad=True)
x.atan2_(w)
print(x.requires_grad, x.grad_fn.name())
x.sum().backward()
print(w.grad)
y = torch.zeros(3, dtype=torch.long)
try:
    y.sigmoid_()
except RuntimeError as err:
    print(err)
print(y)
a = torch.rand(4, 3, requires_grad=True)
s = torch.rand(2, 3, requires_grad=True)
idx = torch.tensor([[1, 1, 1], [1, 1, 1]])
for red in ['prod', 'mean', 'amax', 'sum']:
    b = a.clone()
    b.scatter_reduce_(0, idx, s, red)
    b.sum().backward()
    print(red, b.grad_fn.name(), a.grad, s.grad)
    a.grad = s.grad = None
