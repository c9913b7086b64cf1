# Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict
import torch
import torch.nn as nn

torch.manual_seed(0)
seq = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
print(seq, len(seq), seq[0], seq[-1], seq[1:])
x = torch.randn(2, 3)
print(seq(x))
seq.append(nn.Tanh())
print(len(seq), seq[3])
ml = nn.ModuleList([nn.Linear(2, 2), nn.ReLU()])
ml.append(nn.Sigmoid())
ml.extend([nn.Tanh(), nn.Identity()])
ml.insert(0, nn.GELU())
print(ml, len(ml))
print(ml.pop(1))
for m in ml:
    print(type(m).__name__)
md = nn.ModuleDict({"act": nn.ReLU(), "lin": nn.Linear(2, 3)})
md["out"] = nn.Sigmoid()
md.update({"extra": nn.Tanh()})
print(md, len(md), "act" in md, list(md.keys()))
for k, v in md.items():
    print(k, v)
print(list(md.values())[0], md.pop("extra"), len(md))
pl = nn.ParameterList([nn.Parameter(torch.ones(2)), nn.Parameter(torch.zeros(3))])
pl.append(nn.Parameter(torch.full((1,), 5.0)))
print(pl, len(pl), pl[2])
pd = nn.ParameterDict({"a": nn.Parameter(torch.ones(2, 2))})
pd["b"] = nn.Parameter(torch.zeros(1))
print(pd, list(pd.keys()), pd["a"])
p = nn.Parameter(torch.tensor([1.0, 2.0]))
print(p, isinstance(p, torch.Tensor), p.requires_grad, nn.Parameter(torch.ones(1), requires_grad=False))
