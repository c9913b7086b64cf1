# Subclasses of built-in types that override some of the type's methods: the
# overrides serve their operation, the rest stays the built-in type's (CPython's
# fast paths: dict(d) and list(d) read a dict subclass's items as they are).
class Upper(dict):
    def __getitem__(self, k):
        return super().__getitem__(k.upper())
    def __setitem__(self, k, v):
        super().__setitem__(k.upper(), v)
    def __contains__(self, k):
        return super().__contains__(k.upper())
u = Upper()
u['a'] = 1
print(u, u['a'], 'a' in u, dict(u), list(u), u.get('a'), u.get('A'))
class Rev(list):
    def __iter__(self):
        return iter(self[::-1])
r = Rev([1, 2, 3])
print(list(r), [x for x in r], sum(r), r, len(r), tuple(r), sorted(r))
class Eq(list):
    def __eq__(self, o):
        return True
print(Eq([1]) == [2], [2] == Eq([1]), Eq([1]) != [1])
class Len(dict):
    def __len__(self):
        return 42
print(len(Len(a=1)), bool(Len()), Len(a=1))
class Key(str):
    def __hash__(self):
        return hash(self.lower())
    def __eq__(self, o):
        return self.lower() == o.lower()
d = {Key('A'): 1}
print(d[Key('a')], Key('A') == 'a', Key('x') in {Key('X')})
class Num(int):
    def __add__(self, o):
        return Num(int(self) + int(o) + 100)
print(Num(1) + 1, 1 + Num(1), type(Num(1) + 1).__name__, sum([Num(1), Num(2)]))

import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader
class Samples(list):
    pass
data = Samples([(torch.tensor([float(i)]), i % 2) for i in range(4)])
loader = DataLoader(data, batch_size=2)
for x, y in loader:
    print(x.shape, y)
class Cfg(dict):
    __getattr__ = dict.get
cfg = Cfg(hidden=4, layers=2)
net = nn.Sequential(*[nn.Linear(cfg.hidden, cfg.hidden) for _ in range(cfg.layers)])
print(net, cfg.missing)
class Shape(tuple):
    pass
print(torch.zeros(Shape((2, 1))).shape, torch.randn(2, 3).reshape(Shape((3, 2))).shape)
class Scale(float):
    pass
print(torch.ones(2) * Scale(2.0), Scale(0.5) * torch.ones(1), torch.full((1,), Scale(3.0)))
opt = torch.optim.SGD(net.parameters(), lr=Scale(0.1))
print(opt.param_groups[0]['lr'])
class Hist(dict):
    def __missing__(self, k):
        return 0
h = Hist()
for w in 'a b a'.split():
    h[w] = h[w] + 1
print(h)
