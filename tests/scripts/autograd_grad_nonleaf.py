# torch.autograd.grad w.r.t. tensors made by ops (captured, the graph above not run),
# backward(inputs=...) with leaves and non-leaves, is_grads_batched, and the gradient of
# slice/select backward under create_graph (SliceBackwardBackward0).
import torch
torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
h = x * 2
y = (h ** 2).sum()
g, = torch.autograd.grad(y, h)
print(g)
print(x.grad)
# graph above h was not run nor freed: backward works after
y2 = (h ** 3).sum()
gh, gx = torch.autograd.grad(y2, [h, x], retain_graph=True)
print(gh, gx)
y2.backward()
print(x.grad)
# grad_outputs, nonleaf output as input
z = h.exp()
print(torch.autograd.grad(z, h, grad_outputs=torch.ones(3)))
print(torch.autograd.grad(z, z, grad_outputs=torch.full((3,), 2.0)))
# allow_unused
w = torch.randn(3, requires_grad=True)
u = w * 3
print(torch.autograd.grad((x * 5).sum(), [u, x], allow_unused=True))
try:
    torch.autograd.grad((x * 5).sum(), [u])
except RuntimeError as e:
    print("RuntimeError:", e)
# create_graph w.r.t. nonleaf
a = x.sin()
b = (a ** 3).sum()
ga, = torch.autograd.grad(b, a, create_graph=True)
print(ga)
ga.sum().backward()
print(x.grad)
# gradient penalty style
inp = torch.randn(4, 2)
net = torch.nn.Linear(2, 1)
feat = inp * 1.0
feat.requires_grad_(True)
hid = torch.tanh(feat @ torch.ones(2, 3))
out = net(hid[:, :2]).sum()
gp, = torch.autograd.grad(out, hid, create_graph=True)
print(gp)
# is_grads_batched
xx = torch.randn(3, requires_grad=True)
yy = xx * torch.arange(3.)
jac, = torch.autograd.grad(yy, xx, torch.eye(3), is_grads_batched=True)
print(jac)
hh = xx.exp()
yy2 = hh * 2
print(torch.autograd.grad(yy2, hh, torch.eye(3), is_grads_batched=True))
# retain_grad interplay and hooks on nonleaf
q = x * 4
q.register_hook(lambda g: g * 10)
r = (q * q).sum()
print(torch.autograd.grad(r, q, retain_graph=True))
print(torch.autograd.grad(r, x))
# multiple outputs
o1 = (h * 2).sum(); o2 = (h * 3).sum()
print(torch.autograd.grad([o1, o2], h))
(gp ** 2).sum().backward()
print(net.weight.grad, feat.grad)
s = torch.randn(4, 3, requires_grad=True)
wt = torch.randn(3, requires_grad=True)
o = (s[1] * wt).sum() + (s[:, 1:] ** 2).sum()
g1, = torch.autograd.grad(o, s, create_graph=True)
print(g1)
g1.pow(2).sum().backward()
print(s.grad, wt.grad)
w = torch.randn(2, requires_grad=True)
x = torch.randn(3, requires_grad=True)
o = (x[:2] * w).sum()
g, = torch.autograd.grad(o, x, create_graph=True)
print(g)
x2 = torch.randn(3, 3, requires_grad=True)
o = (x2[:, :2] * w).sum()
g, = torch.autograd.grad(o, x2, create_graph=True)
print(g)
torch.manual_seed(1)
x = torch.randn(3, requires_grad=True)
h = x * 2
y = (h ** 2).sum()
y.backward(inputs=[h])
print(h.grad, x.grad)
w = torch.ones(3, requires_grad=True)
y = (w * 3).sum()
torch.autograd.backward(y, inputs=[w])
print(w.grad)
a = torch.ones(2, requires_grad=True); b = torch.ones(2, requires_grad=True)
(a * b * 2).sum().backward(inputs=[a])
print(a.grad, b.grad)
(a * b * 2).sum().backward(inputs=a)
print(a.grad, b.grad)
try:
    (a * b).sum().backward(inputs=[])
except RuntimeError as e:
    print(e)
hh = a * 3
o = (hh * hh).sum()
o.backward(inputs=[hh, b], retain_graph=True)
print(hh.grad, a.grad, b.grad)
o.backward(inputs=[hh])
print(hh.grad)
