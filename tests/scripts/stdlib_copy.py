# copy: copy/deepcopy of values, user classes, tensors and nn.Modules (PyTorch 1.13)
import copy
import torch
import torch.nn as nn
a = [1, [2, 3], {'k': [4]}]
b = copy.copy(a); c = copy.deepcopy(a)
a[1].append(9); a[2]['k'].append(8)
print(b, c, b[1] is a[1], c[1] is a[1])
t = (1, 2, 'x'); print(copy.deepcopy(t) is t, copy.copy(t) is t)
l = [1]; l.append(l); l2 = copy.deepcopy(l); print(l2[1] is l2, l2 is l)
class P:
    def __init__(self, x): self.x = x
    def __repr__(self): return 'P(%r)' % (self.x,)
p = P([1, 2]); q = copy.deepcopy(p); r = copy.copy(p)
p.x.append(3); print(p, q, r, q.x is p.x, r.x is p.x)
class H:
    def __init__(self): self.v = 1
    def __copy__(self): print('copy hook'); return H()
    def __deepcopy__(self, memo): print('deepcopy hook', type(memo).__name__); return H()
copy.copy(H()); copy.deepcopy(H()); copy.deepcopy([H()])
s = {1, 2}; print(copy.deepcopy(s), copy.copy(s))
d = {'a': [1], 'b': (2, [3])}; d2 = copy.deepcopy(d); d['b'][1].append(4); print(d, d2)
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1))
best = copy.deepcopy(model)
with torch.no_grad():
    for p in model.parameters(): p.add_(1.0)
print(best)
print(all((p1 - p2).abs().sum().item() > 0 for p1, p2 in zip(model.parameters(), best.parameters())))
print(best[0].weight is model[0].weight, type(best[0].weight).__name__, best[0].weight.requires_grad)
best.load_state_dict(model.state_dict())
print(torch.equal(best[0].weight, model[0].weight))
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.other = self.fc
        self.scale = 3
    def forward(self, x): return self.fc(x) * self.scale
n = Net(); n2 = copy.deepcopy(n)
print(n2, n2.scale, n2.other is n2.fc, n2.fc is n.fc, type(n2).__name__)
x = torch.ones(1, 2)
print(torch.equal(n(x), n2(x)))
t = torch.ones(2, requires_grad=True)
try: copy.deepcopy(t * 2)
except RuntimeError as e: print('RuntimeError', e)
t.grad = torch.zeros(2)
u = copy.deepcopy(t); print(u, u.grad, u.requires_grad, u is t)
pp = nn.Parameter(torch.ones(2)); print(copy.deepcopy(pp))
cc = copy.copy(t); print(cc, cc.grad)
try: copy.deepcopy(x for x in [])
except TypeError as e: print('TypeError', e)
sd = copy.deepcopy(model.state_dict()); print(list(sd.keys()), type(sd).__name__)
m2 = copy.copy(model[0]); print(m2.weight is model[0].weight)
opt_state = {'epoch': 3, 'best': None}; print(copy.deepcopy(opt_state))
