# The legacy size_average= / reduce= arguments of the losses (PyTorch 1.13 honours
# them, with a deprecation warning on stderr) and full backward hooks returning lists.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.5]], requires_grad=True)
y = torch.tensor([[0.5, 2.5, 1.0], [4.0, 3.0, 7.0]])
for kw in [dict(size_average=False), dict(size_average=True), dict(reduce=False), dict(size_average=False, reduce=True),
           dict(size_average=True, reduce=False), dict(size_average=False, reduction='mean'), dict(reduction='sum')]:
    for cls in [nn.MSELoss, nn.L1Loss]:
        m = cls(**kw)
        print(cls.__name__, kw, m.reduction, m(x, y))
    print(F.mse_loss(x, y, **kw), F.l1_loss(x, y, **kw))
logits = torch.tensor([[1.0, 2.0, 0.5], [0.1, -1.0, 2.0]])
target = torch.tensor([1, 2])
print(nn.CrossEntropyLoss(size_average=False)(logits, target), nn.CrossEntropyLoss(reduce=False)(logits, target))
print(F.cross_entropy(logits, target, size_average=False), F.cross_entropy(logits, target, reduce=False))

lin = nn.Linear(3, 2)
torch.nn.init.constant_(lin.weight, 0.5)
torch.nn.init.zeros_(lin.bias)
seen = []


def as_list(module, grad_input, grad_output):
    seen.append(len(grad_input))
    return [g * 2 for g in grad_input]


def as_tuple(module, grad_input, grad_output):
    return tuple(g + 1 for g in grad_input)


h = lin.register_full_backward_hook(as_list)
inp = torch.ones(1, 3, requires_grad=True)
lin(inp).sum().backward()
print(seen, inp.grad)
h.remove()
inp.grad = None
h = lin.register_full_backward_hook(as_tuple)
lin(inp).sum().backward()
print(inp.grad)
h.remove()
