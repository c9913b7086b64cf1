# masked_fill / masked_fill_ / torch.masked_fill as PyTorch 1.13 records them:
# MaskedFillBackward0 (number value, one edge) and MaskedFillBackward1 (0-dim tensor
# value, an edge to it), the input broadcast with the mask, first and second order
# gradients (the value's: the masked gradient summed), and 1.13's errors.
import torch


def names(y):
    return [(None if f is None else f.name(), i) for f, i in y.grad_fn.next_functions]


torch.manual_seed(0)
x = torch.randn(3, dtype=torch.float64, requires_grad=True)
m = torch.tensor([[True, False, True], [False, False, True]])
v = torch.tensor(5.0, dtype=torch.float64, requires_grad=True)

y = x.masked_fill(m[0], 2.0)
print("number", y.grad_fn.name(), names(y), y)
z = x * 1
z.masked_fill_(m[0], -1.5)
print("number in place", z.grad_fn.name(), names(z), z)
w = x.masked_fill(m, v)
print("tensor broadcast", w.grad_fn.name(), names(w), w)
u = x * 2
u.masked_fill_(m[1], v)
print("tensor in place", u.grad_fn.name(), names(u), u)
f = torch.masked_fill(x, m, 0.25)
print("torch.masked_fill", f.grad_fn.name(), names(f), f)
print("uint8 mask", x.masked_fill(torch.tensor([1, 0, 1], dtype=torch.uint8), 7.0).grad_fn.name())

weights = torch.arange(6., dtype=torch.float64).reshape(2, 3)
loss = (w * w * weights).sum() + (u ** 3).sum()
gx, gv = torch.autograd.grad(loss, (x, v), create_graph=True)
print(gx, gx.grad_fn.name())
print(gv, gv.grad_fn.name())
print(torch.autograd.grad(gx.sum() + gv, (x, v)))
# a value tensor without grad: no edge to it
print(names(x.masked_fill(m, torch.tensor(1., dtype=torch.float64))))

for bad in (lambda: x.detach().masked_fill_(m, 1.0),
            lambda: x.masked_fill(m, torch.ones(2)),
            lambda: x.detach().masked_fill_(m[0], torch.ones(1, dtype=torch.float64)),
            lambda: x.masked_fill(torch.tensor([1, 3, 0]), 1.0),
            lambda: x.masked_fill_(m[0], 1.0)):
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)
