# What the real-script corpus (tests/corpus) needed from the float32 math and a few
# behaviours, checked against PyTorch 1.13 to the last digit: sums over a whole tensor
# and over leading dims, means, x ** 2, x ** 3 and x ** -2, dot, zero_grad(set_to_none=False)
# keeping zeroed grads (the default, set_to_none=True, is the seeds' and PyTorch 2's), mse_loss's backward refusing a target of another dtype, a value with
# leading 1s assigned to a row, and the message of a non-tensor .grad.
import math
import torch
torch.manual_seed(0)
for n in (7, 10, 100, 1000, 6400, 20000):
    a = torch.randn(n) * 50
    print(n, a.sum().item(), a.mean().item(), a.pow(2).sum().item())
x = torch.randn(32, 200) * 3 + 1
print(x.sum(0)[:4].tolist(), x.mean(0)[:4].tolist(), x.sum().item())
y = torch.randn(32, 4, 68)
print(y.mean((0, 1))[:4].tolist(), y.sum(0).sum().item())
t = torch.linspace(-math.pi, math.pi, 2000)
print((t ** 3).sum().item(), t.pow(-2)[:3].tolist(), (t ** 2).sum().item())
print(torch.dot(t, t).item(), torch.matmul(t, t.pow(3)).item())
m = torch.nn.Linear(3, 2)
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
m(torch.randn(4, 3)).sum().backward()
opt.step()
opt.zero_grad(set_to_none=False)
print(m.weight.grad)
m.zero_grad(set_to_none=False)
print(m.bias.grad)
opt.step()
print(m.weight)
w = torch.randn(3, requires_grad=True)
for target in (torch.arange(3), torch.ones(3, dtype=torch.float64)):
    loss = torch.nn.functional.mse_loss(w, target)
    try:
        loss.backward()
    except RuntimeError as e:
        print(loss, e)
rows = torch.zeros(3, 4)
rows[1] = torch.ones(1, 1, 4)
rows[2, 1:3] = torch.tensor([[5., 6.]])
print(rows)
try:
    w.grad = 0.
except TypeError as e:
    print(e)
