# floor division and remainder on tensors (operators, functions, methods), masked_fill, repeat
import torch

a = torch.tensor([7.0, -7.0, 7.5, -0.5])
b = torch.tensor([2.0, 2.0, -2.0, 3.0])
print(a // b, a % b, a // 2, 7 // a, a % 2, 7 % a, -a % 1.5)
z = torch.tensor([0.5, 4.25], requires_grad=True)
print(z % 2, (z % 2).grad_fn.name(), (z % z).grad_fn.name())
print(torch.floor_divide(a, b), torch.remainder(a, b), a.floor_divide(2), a.remainder(-2))
i = torch.tensor([7, -7, 5])
print(i // 2, i % 3, i // torch.tensor([2, 2, -2]), i % -3, torch.tensor([7, -7]) // 2.5)
print(a // 0, a % 0)
for bad in (lambda: i // 0, lambda: i % torch.tensor([1, 0, 1])):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError", e)
x = torch.tensor([1.5, 2.5, -3.25], requires_grad=True)
y = torch.tensor([1.0, 2.0, 0.75], requires_grad=True)
r = x % y
print(r)
r.sum().backward()
print(x.grad, y.grad)
m = torch.arange(6.0).reshape(2, 3)
print(m.masked_fill(m > 2, -1.0), m.masked_fill(torch.tensor([True, False, True]), 0))
print(torch.arange(4).masked_fill(torch.arange(4) % 2 == 0, 9), m.masked_fill(m < 1, torch.tensor(5.0)))
w = torch.ones(2, 2, requires_grad=True)
w.masked_fill(torch.eye(2) == 1, 0.0).sum().backward()
print(w.grad)
print(m.repeat(2, 1), m.repeat(1, 2).shape, torch.tensor([1, 2]).repeat(2, 2), torch.tensor(3.0).repeat(3))
print(m.repeat((2, 1, 2)).shape, m.repeat(1, 1))
t = torch.tensor([1.0, 2.0], requires_grad=True)
t.repeat(3, 2).sum().backward()
print(t.grad)
try:
    m.repeat(2)
except RuntimeError as e:
    print("RuntimeError", e)
