# Ops whose computation moved behind core/kernels.def (issue 13's boundary), against
# PyTorch 1.13: integer linear (addmm) in every integer width, max_unpool2d and its
# errors, cumprod's backward through zeros, quantile's q checks, searchsorted of a
# number, half-precision conv2d (bfloat16) forward and backward. tests/run.sh runs it
# again on the poisoned loopback device.
import torch
import torch.nn.functional as F

a = torch.arange(-6, 6).reshape(3, 4) * 37
w = torch.arange(8).reshape(2, 4) * 29 - 50
b = torch.tensor([100, -7])
for dt in (torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8):
    print(dt, F.linear(a.to(dt), w.to(dt), b.to(dt)), F.linear(a.to(dt), w.to(dt)))
print(F.linear(torch.tensor([[1 << 62, 3]]), torch.tensor([[4, 5]]), torch.tensor([1 << 62])))

x = (torch.arange(32.) * 0.37 % 3 - 1).reshape(1, 2, 4, 4).requires_grad_()
o, i = F.max_pool2d(x, 2, stride=2, return_indices=True)
u = F.max_unpool2d(o, i, 2)
print(u, i)
(u * torch.arange(32.).reshape(1, 2, 4, 4)).sum().backward()
print(x.grad)
print(F.max_unpool2d(o.detach().double(), i, 2, output_size=(5, 5)))
print(F.max_unpool2d(o.detach()[0], i[0], 2))
for bad in (i * 10, i - 100):
    try:
        F.max_unpool2d(o, bad, 2)
    except RuntimeError as e:
        print("RuntimeError", e)

c = torch.tensor([[1.0, 0.0, 2.0, 3.0], [3.0, 4.0, 0.0, 0.0]], requires_grad=True)
(c.cumprod(1) * torch.tensor([1.0, -2.0, 0.5, 3.0])).sum().backward()
print(c.grad)
c = torch.tensor([[0.0, 2.0], [0.0, 5.0], [3.0, 0.0]], dtype=torch.float64, requires_grad=True)
c.cumprod(0).sum().backward()
print(c.grad)

v = torch.arange(12.).reshape(3, 4) * 1.5
print(torch.quantile(v, torch.tensor([0.25, 0.5]), dim=1), torch.quantile(v, 0.3), torch.nanquantile(v, 0.9, dim=0))
for q in (1.5, -0.25, torch.tensor([0.5, 2.0])):
    try:
        torch.quantile(v, q)
    except RuntimeError as e:
        print("RuntimeError", e)

s = torch.tensor([1.0, 2.0, 4.0, 8.0])
print(torch.searchsorted(s, 3.0), torch.searchsorted(s, 8, right=True), torch.bucketize(torch.tensor([3, 9]), s))

cx = (torch.arange(50.) % 7 - 3).reshape(1, 2, 5, 5).to(torch.bfloat16).requires_grad_()
cw = (torch.arange(54.) % 5 - 2).reshape(3, 2, 3, 3).to(torch.bfloat16).requires_grad_()
cb = torch.tensor([0.5, -1.0, 2.0]).to(torch.bfloat16).requires_grad_()
y = F.conv2d(cx, cw, cb, padding=1)
print(y)
(y * 0.25).sum().backward()
print(cx.grad, cw.grad, cb.grad)
