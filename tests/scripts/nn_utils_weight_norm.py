# torch.nn.utils.weight_norm / remove_weight_norm: the _g and _v parameters, dims, training
# through them, errors.
import torch
import torch.nn as nn
from torch.nn.utils import weight_norm, remove_weight_norm
torch.manual_seed(0)
m = weight_norm(nn.Linear(20, 40), name='weight')
print(m)
print(m.weight_g.size(), m.weight_v.size())
print([n for n, _ in m.named_parameters()])
x = torch.randn(5, 20)
y = m(x)
print(y.sum())
y.sum().backward()
print(m.weight_g.grad.view(-1)[:5], m.weight_v.grad[0, :5])
c = weight_norm(nn.Conv1d(4, 6, 3), dim=None)
print(c.weight_g, c.weight_g.shape)
out = c(torch.randn(2, 4, 10))
print(out.shape, out.sum())
c2 = weight_norm(nn.Conv2d(3, 8, 3), dim=1)
print(c2.weight_g.shape, c2(torch.randn(1, 3, 5, 5)).sum())
try:
    weight_norm(m)
except RuntimeError as e:
    print(e)
remove_weight_norm(m)
print([n for n, _ in m.named_parameters()], type(m.weight).__name__)
try:
    remove_weight_norm(m)
except ValueError as e:
    print(e)
print(m.state_dict().keys())
opt = torch.optim.SGD(weight_norm(nn.Linear(3, 2)).parameters(), lr=0.1)
print(len(opt.param_groups[0]['params']))
