# In-place ops on views of tensors with history (x[0] += 1, x[:, 1].zero_(), y[1].mul_(w), a view's
# relu_/sigmoid_/fill_/div_): the base's grad_fn becomes CopySlices and the written view's
# AsStridedBackward0, with 1.13's edges and gradients; a base without history gains one (z[0].copy_(w)).
import torch
torch.manual_seed(0)
a = torch.randn(3, 4, requires_grad=True)
x = a * 2
v = x[0]; v.add_(1); print(v.grad_fn.name(), x.grad_fn.name(), [f.name() if f else None for f, _ in x.grad_fn.next_functions], [f.name() for f, _ in v.grad_fn.next_functions])
x[1] += 5; print(x.grad_fn.name(), [f.name() if f else None for f, _ in x.grad_fn.next_functions])
(x * torch.arange(12.).reshape(3, 4)).sum().backward(); print(a.grad)
a.grad = None
y = a * 2
y[:, 1].zero_(); print(y.grad_fn.name(), [f.name() for f, _ in y.grad_fn.next_functions])
y[:, 2].mul_(torch.tensor([1., 2., 3.])); print([f.name() if f else None for f, _ in y.grad_fn.next_functions])
(y * torch.arange(12.).reshape(3, 4)).sum().backward(); print(a.grad)
z = torch.zeros(2, 3); w = torch.ones(3, requires_grad=True)
z[0].copy_(w); print(z.grad_fn.name(), [f.name() if f else None for f, _ in z.grad_fn.next_functions], z.requires_grad)
(z * torch.tensor([[1., 2., 3.], [4., 5., 6.]])).sum().backward(); print(w.grad)
b = torch.randn(2, 3, 4, requires_grad=True)
u = b * 2
u[1].t()[2].relu_()
u.sum().backward(); print(b.grad)
b.grad = None
u = b * 2
u[:, 1:, ::2].sigmoid_()
(u * u).sum().backward(); print(b.grad)
e = torch.randn(3, requires_grad=True)
s = e.exp()
s[0].mul_(2)
try:
    s.sum().backward()
except RuntimeError as err:
    print(str(err)[:150])
c = torch.randn(4, 4, requires_grad=True)
m = c.clone()
m.diagonal().mul_(2)
m.view(2, 8)[1].div_(4)
m[2:, :2].fill_(torch.tensor(7., requires_grad=True))
m.sum().backward(); print(c.grad, m.grad_fn.name())
p = torch.randn(3, requires_grad=True)
with torch.no_grad():
    q = p * 1
q2 = q[1:]; q2.mul_(p[1:]); print(q.grad_fn.name(), q2.grad_fn.name())
q.sum().backward(); print(p.grad)
# a running update through views, as recurrent code writes it
h = torch.zeros(2, 4)
wx = torch.randn(3, 4, requires_grad=True)
for t in range(3):
    h[:, 1:] += torch.tanh(h[:, :-1] + wx[t, 1:])
h.pow(2).sum().backward()
print(h, wx.grad)
