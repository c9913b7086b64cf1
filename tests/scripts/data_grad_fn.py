# p.data get and set, grad_fn.next_functions and name(), keepdims= / axis= aliases (issue 16).
import torch
import torch.nn as nn

torch.manual_seed(0)
lin = nn.Linear(2, 3)
p = lin.weight
before = p.clone()
p.data += 1.0
print(torch.equal(p.data, before + 1.0), p.grad_fn, p.is_leaf)
p.data = torch.zeros(3, 2)
r = torch.zeros(2)
r.data = torch.ones(2, 2, dtype=torch.float64)
print(r, r.shape, r.dtype)
print(p, p.shape, p.requires_grad, p.is_leaf)
w = torch.ones(3)
q = torch.zeros(3, requires_grad=True)
q.data = w
w[0] = 5.0
print(q)
out = lin(torch.ones(1, 2)).sum()
out.backward()
print(p.grad)

x = torch.ones(2, 3, requires_grad=True)
y = (x * 2 + x.exp()).sum()
fn = y.grad_fn
print(fn.name(), len(fn.next_functions))
add = fn.next_functions[0][0]
print(add.name(), [(f.name() if f is not None else None, i) for f, i in add.next_functions])
mul = add.next_functions[0][0]
acc, nr = mul.next_functions[0]
print(type(acc).__name__, nr, acc.variable is x, mul.next_functions[1], acc.next_functions)
print(x.sum(1, keepdims=True), torch.sum(x, dim=0, keepdims=True), x.mean(1, keepdims=True))
print(torch.logsumexp(x, 1, keepdims=True), x.sum(axis=1))
