# float16/bfloat16 where PyTorch 1.13's CPU build computes them (SGD, Adam/AdamW in
# bfloat16, selu, pooling, nearest interpolation in bfloat16) and where it raises
# (Adam in float16, nll_loss, histc, multinomial, bernoulli in float16) (issue 16)
import torch
import torch.nn as nn
import torch.nn.functional as F


def show(name, f):
    try:
        r = f()
        print(name, r)
    except Exception as e:
        print(name, type(e).__name__, e)


def train(dt, opt_cls, **kw):
    p = nn.Parameter(torch.tensor([1.0, -2.0, 3.0, 0.25, -0.7]).to(dt))
    o = opt_cls([p], lr=0.1, **kw)
    for _ in range(3):
        o.zero_grad()
        (p.float() ** 2).sum().backward()
        o.step()
    return p, o.state[p] if o.state else None


for dt in (torch.float16, torch.bfloat16):
    show(f"SGD {dt}", lambda: train(dt, torch.optim.SGD))
    show(f"SGD momentum {dt}", lambda: train(dt, torch.optim.SGD, momentum=0.9, weight_decay=0.1))
    show(f"SGD nesterov {dt}", lambda: train(dt, torch.optim.SGD, momentum=0.5, nesterov=True, dampening=0))
    show(f"Adam {dt}", lambda: train(dt, torch.optim.Adam))
    show(f"AdamW {dt}", lambda: train(dt, torch.optim.AdamW))
    show(f"Adam amsgrad {dt}", lambda: train(dt, torch.optim.Adam, amsgrad=True, weight_decay=0.1))

torch.manual_seed(0)
big = nn.Parameter((torch.randn(70) * 3).to(torch.bfloat16))  # bfloat16's vectorized add (the first 64)
opt = torch.optim.SGD([big], lr=0.1, momentum=0.9, weight_decay=0.01, nesterov=True)
for _ in range(4):
    opt.zero_grad()
    (big.float() ** 3).sum().backward()
    opt.step()
print("SGD bfloat16, 70 elements", big)
big = nn.Parameter((torch.randn(70) * 3).to(torch.bfloat16))
opt = torch.optim.AdamW([big], lr=0.1, weight_decay=0.1, amsgrad=True)
for _ in range(4):
    opt.zero_grad()
    (big.float() ** 3).sum().backward()
    opt.step()
print("AdamW bfloat16, 70 elements", big)
x = (torch.randn(2, 3, 6, 6) * 2).to(torch.bfloat16)
show("selu", lambda: F.selu(x[0, 0]))
show("elu", lambda: F.elu(x[0, 0, 0]))
show("max_pool2d", lambda: F.max_pool2d(x, 2))
show("max_pool2d indices", lambda: F.max_pool2d(x[0], 3, 2, 1, return_indices=True))
show("avg_pool2d", lambda: F.avg_pool2d(x, 3, 2, 1))
show("adaptive_avg_pool2d", lambda: F.adaptive_avg_pool2d(x[1], 4))
show("adaptive_max_pool2d", lambda: F.adaptive_max_pool2d(x[1], (2, 5)))
show("max_pool1d", lambda: F.max_pool1d(x[0, 0], 2))
show("avg_pool1d", lambda: F.avg_pool1d(x[0, 0], 3))
show("nearest", lambda: F.interpolate(x[:1, :1], scale_factor=2, mode="nearest"))
xr = x.clone().requires_grad_()
F.max_pool2d(xr, 2).sum().backward()
print("max_pool2d grad", xr.grad[0, 0], xr.grad.dtype)
xr.grad = None
F.avg_pool2d(xr, 2).sum().backward()
print("avg_pool2d grad", xr.grad[0, 0])
xr.grad = None
F.interpolate(xr, scale_factor=2, mode="nearest").sum().backward()
print("nearest grad", xr.grad[0, 0])

h = torch.tensor([[1., -2., 3.], [4., 5., -6.]], dtype=torch.float16)
show("norm dim", lambda: h.norm(dim=1))
show("norm p=1", lambda: torch.norm(h, p=1, dim=0))
show("nll_loss", lambda: F.nll_loss(h, torch.tensor([0, 2])))
show("nll_loss none", lambda: F.nll_loss(h, torch.tensor([0, 2]), reduction="none"))
show("nll_loss 4d", lambda: F.nll_loss(h.view(1, 2, 3, 1), torch.tensor([[[0], [1], [0]]])))
show("NLLLoss", lambda: nn.NLLLoss()(h, torch.tensor([0, 2])))
show("nll_loss bf16", lambda: F.nll_loss(h.bfloat16(), torch.tensor([0, 2])))
show("histc", lambda: torch.histc(h, bins=3))
show("histc range", lambda: torch.histc(h, bins=3, min=-6, max=6))
show("histc bf16", lambda: torch.histc(h.bfloat16(), bins=3))
show("multinomial", lambda: torch.multinomial(h.abs(), 1))
show("multinomial 1d", lambda: torch.multinomial(h.abs()[0], 2, True))
show("bernoulli", lambda: torch.bernoulli(torch.tensor([0.5], dtype=torch.float16)))
show("bernoulli p", lambda: torch.bernoulli(torch.tensor([0.5], dtype=torch.float16), 0.3))
show("bernoulli_", lambda: torch.zeros(2, dtype=torch.float16).bernoulli_(0.5))
show("bernoulli_ tensor", lambda: torch.zeros(2, dtype=torch.float16).bernoulli_(torch.tensor([0.5, 0.5])))
show("bernoulli_ half p", lambda: torch.zeros(2).bernoulli_(torch.tensor([0.5, 0.5], dtype=torch.float16)))
show("dropout", lambda: F.dropout(h, 0.5))
