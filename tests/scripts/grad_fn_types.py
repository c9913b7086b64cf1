# type(t.grad_fn): each autograd node kind is its own class, named as the node (AddBackward0).
import torch
x = torch.ones(2, requires_grad=True)
y = (x + 1).sum()
t = type(y.grad_fn)
print(t, t.__name__, t.__qualname__, y.grad_fn.name())
z = x * 2
w = z.sum()
print(type(z.grad_fn), type(z.grad_fn.next_functions[0][0]), type(z.grad_fn.next_functions[0][0]).__name__)
print(type(y.grad_fn) is type((x + 3).sum().grad_fn), type(y.grad_fn) == type(y.grad_fn), type(y.grad_fn) is type(z.grad_fn))
names = []
def walk(fn):
    if fn is None:
        return
    names.append(type(fn).__name__)
    for nxt, _ in fn.next_functions:
        walk(nxt)
walk((torch.relu(x @ torch.ones(2, 3)) * 2).mean().grad_fn)
print(names)
print(isinstance(y.grad_fn, type(y.grad_fn)))
