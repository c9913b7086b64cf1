# torch.autograd.grad (grad_outputs, retain_graph, create_graph, allow_unused) and
# torch.autograd.backward, as PyTorch 1.13
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = (x ** 3 * w).sum()
gx, = torch.autograd.grad(y, x, create_graph=True)
print(gx.detach(), gx.requires_grad, x.grad, w.grad)
gxx, gxw = torch.autograd.grad(gx.sum(), [x, w])
print(gxx, gxw, x.grad, w.grad)
# .grad left as it was
x.grad = torch.ones(3)
z = (x * w).sum()
g = torch.autograd.grad(z, (x, w), retain_graph=True)
print(g, x.grad)
z.backward()
print(x.grad, w.grad)
# grad_outputs, a vector-Jacobian product
v = x * 2
print(torch.autograd.grad(v, x, grad_outputs=torch.tensor([1.0, 0.5, 0.25])))
# allow_unused
u = torch.tensor(1.0, requires_grad=True)
print(torch.autograd.grad((x * 3).sum(), [x, u], allow_unused=True))
try:
    torch.autograd.grad((x * 3).sum(), [x, u])
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.autograd.grad((x * 3).sum(), torch.ones(2))
except RuntimeError as e:
    print("RuntimeError", e)
# a gradient penalty as WGAN-GP writes it
torch.manual_seed(0)
D = torch.nn.Linear(3, 1)
inter = torch.rand(4, 3).requires_grad_(True)
out = D(inter)
grads = torch.autograd.grad(outputs=out, inputs=inter, grad_outputs=torch.ones_like(out), create_graph=True,
                            retain_graph=True)[0]
penalty = ((grads.norm(2, dim=1) - 1) ** 2).mean()
penalty.backward()
print(round(penalty.item(), 5), D.weight.grad, inter.grad is None)
# torch.autograd.backward
a = torch.tensor([1.0, 2.0], requires_grad=True)
torch.autograd.backward([(a * a).sum(), (a * 3).sum()])
print(a.grad)
torch.autograd.backward(a * 2, grad_tensors=torch.tensor([1.0, -1.0]))
print(a.grad)
