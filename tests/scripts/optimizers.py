# torch.optim: SGD, Adam, AdamW, param_groups, add_param_group, zero_grad
import torch
import torch.nn as nn
from torch import optim

def train(opt_class, **kw):
    torch.manual_seed(0)
    model = nn.Linear(3, 1)
    opt = opt_class(model.parameters(), **kw)
    print(isinstance(opt, optim.Optimizer), type(opt).__name__)
    x = torch.randn(8, 3)
    y = torch.randn(8, 1)
    for step in range(3):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        print(step, round(loss.item(), 5))
    print(model.weight, model.bias)
    return opt

train(optim.SGD, lr=0.1)
train(optim.SGD, lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)
train(optim.Adam, lr=0.01)
train(optim.Adam, lr=0.01, betas=(0.8, 0.9), amsgrad=True)
opt = train(optim.AdamW, lr=0.01, weight_decay=0.1)
print(len(opt.param_groups), sorted(opt.param_groups[0].keys()))
print(opt.param_groups[0]["lr"], opt.param_groups[0]["betas"], opt.param_groups[0]["weight_decay"])
opt.param_groups[0]["lr"] = 0.5
print(opt.param_groups[0]["lr"])
extra = nn.Parameter(torch.ones(2))
opt.add_param_group({"params": [extra], "lr": 0.1})
print(len(opt.param_groups), opt.param_groups[1]["lr"], opt.param_groups[1]["weight_decay"])
extra.sum().backward()
opt.step()
print(extra)
opt.zero_grad(set_to_none=False)
print(extra.grad)
opt.zero_grad(set_to_none=True)
print(extra.grad)

# the lr written into param_groups is the one step() uses
w = nn.Parameter(torch.tensor([1.0]))
sgd = optim.SGD([w], lr=1.0)
sgd.param_groups[0]["lr"] = 0.01
(w * 2).sum().backward()
sgd.step()
print(w)

def closure():
    sgd.zero_grad()
    loss = (w * w).sum()
    loss.backward()
    return loss

print(sgd.step(closure), w)
