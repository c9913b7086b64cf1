# torch.autograd.functional as its documentation's examples use it: jacobian, hessian, vjp, jvp,
# vhp, hvp (create_graph, strict, vectorize, tuples of inputs and outputs) and their errors.
import torch
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp
torch.manual_seed(0)
def exp_reducer(x):
    return x.exp().sum(dim=1)
inputs = torch.rand(2, 2)
print(jacobian(exp_reducer, inputs))
print(jacobian(exp_reducer, inputs, create_graph=True))
def exp_adder(x, y):
    return 2 * x.exp() + 3 * y
inputs = (torch.rand(2), torch.rand(2))
print(jacobian(exp_adder, inputs))
print(jacobian(exp_adder, inputs, vectorize=True))
def pow_reducer(x):
    return x.pow(3).sum()
inputs = torch.rand(2, 2)
print(hessian(pow_reducer, inputs))
print(hessian(pow_reducer, inputs, create_graph=True))
def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()
inputs = (torch.rand(2), torch.rand(2))
print(hessian(pow_adder_reducer, inputs))
v = torch.ones(4)
inputs = torch.rand(4, 4)
print(vjp(exp_reducer, inputs, v))
print(vjp(exp_reducer, inputs, v, create_graph=True))
def adder(x, y):
    return 2 * x + 3 * y
inputs = (torch.rand(2), torch.rand(2))
v = torch.ones(2)
print(vjp(adder, inputs, v))
def exp_reducer2(x):
    return x.exp().sum(dim=1)
inputs = torch.rand(4, 4)
v = torch.ones(4, 4)
print(jvp(exp_reducer2, inputs, v))
print(jvp(exp_reducer2, inputs, v, create_graph=True))
inputs = (torch.rand(2), torch.rand(2))
v = (torch.ones(2), torch.ones(2))
print(jvp(adder, inputs, v))
inputs = torch.rand(2, 2)
v = torch.ones(2, 2)
print(vhp(pow_reducer, inputs, v))
print(vhp(pow_reducer, inputs, v, create_graph=True))
print(hvp(pow_reducer, inputs, v))
inputs = (torch.rand(2), torch.rand(2))
v = (torch.zeros(2), torch.ones(2))
print(vhp(pow_adder_reducer, inputs, v))
print(hvp(pow_adder_reducer, inputs, v))
# a model's parameters as the input
lin = torch.nn.Linear(3, 2)
x = torch.randn(4, 3)
print(jacobian(lambda w: torch.tanh(x @ w.t()).sum(0), lin.weight))
print(torch.autograd.functional.jacobian(lambda a: a.sin(), torch.tensor(0.5)))
print(jacobian(lambda a: (a, a * 2), torch.tensor([1., 2.])))
print(jacobian(lambda a, b: a * 0 + 1.0, (torch.tensor([1., 2.]), torch.tensor([3.]))))
for bad in [lambda: jacobian(lambda a: a, [1, 2]),
            lambda: jacobian(lambda a: a, (torch.ones(2), 3)),
            lambda: vjp(lambda a: a * 2, torch.ones(3)),
            lambda: vjp(lambda a: a * 2, torch.ones(3), torch.ones(2)),
            lambda: vjp(lambda a: (a, a), torch.ones(3), (torch.ones(3),)),
            lambda: hessian(lambda a: a * 2, torch.ones(3)),
            lambda: hessian(lambda a: (a.sum(), a.sum()), torch.ones(3)),
            lambda: jacobian(lambda a: a * 2, torch.ones(2), strict=True),
            lambda: jacobian(lambda a, b: a * 2, (torch.ones(2), torch.ones(2)), strict=True),
            lambda: hessian(lambda a: (a * 2).sum(), torch.ones(2), strict=True),
            lambda: jacobian(lambda a: a.detach(), torch.ones(2), strict=True),
            lambda: jvp(lambda a: a * 2, torch.ones(3)),
            lambda: hvp(lambda a: a.sum(), torch.ones(3), torch.ones(2)),
            lambda: jacobian(lambda a: a, torch.ones(2), strategy='forward-mode'),
            lambda: jacobian(lambda a: a, torch.ones(2), strategy='sideways')]:
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__, e)
# the double-backward trick's graph: a gradient of a gradient through a saved output
x = torch.rand(4, 4, requires_grad=True)
y = x.exp().sum(dim=1)
go = torch.zeros_like(y, requires_grad=True)
gi, = torch.autograd.grad(y, x, go, create_graph=True)
print([type(f).__name__ for f, _ in gi.grad_fn.next_functions])
print([[type(f).__name__ for f, _ in n[0].next_functions] for n in gi.grad_fn.next_functions])
r, = torch.autograd.grad(gi, go, torch.ones(4, 4), create_graph=True)
print(r)
y2 = (x * 3).sum(dim=1)
gi2, = torch.autograd.grad(y2, x, go, create_graph=True)
print(type(gi2.grad_fn).__name__)
