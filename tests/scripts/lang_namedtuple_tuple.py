import collections, copy, pickle, json
from collections import namedtuple
from typing import NamedTuple
import torch
P = namedtuple('P', 'x y', defaults=[0])
p = P(1, 2)
print(p, isinstance(p, tuple), isinstance(p, P), type(p), P.__bases__, P.__mro__)
print(p[0], p[-1], p[0:1], p + (3,), p * 2, len(p), list(p), tuple(p), p.x, p.y)
a, b = p
print(a, b, P(5), P._fields, P._field_defaults, p._asdict(), p._replace(y=9), P._make([3, 4]))
print(hash(p) == hash((1, 2)), {p: 'v'}[(1, 2)], {(1, 2): 'w'}[p], p == (1, 2), p < (1, 3), sorted([P(2, 1), P(1, 5)]))
q = pickle.loads(pickle.dumps(p)); print(q, type(q), q == p)
print(copy.copy(p), copy.deepcopy(P([1], [2])))
print(torch.tensor(p), torch.tensor([P(1.0, 2.0), P(3.0, 4.0)]))
print(json.dumps(p), str(p), '%s %s' % p, '{} {}'.format(*p), max(p), sum(p), 1 in p, p.count(1), p.index(2))
try:
    p.x = 5
except AttributeError as e:
    print('AttributeError', e)
try:
    P(1, 2, 3)
except TypeError as e:
    print('TypeError', e)
try:
    P._make([1, 2, 3])
except TypeError as e:
    print('TypeError', e)
class Q(NamedTuple):
    a: int
    b: float = 1.5
    def total(self):
        return self.a + self.b
q = Q(2)
print(q, isinstance(q, tuple), q.total(), q._replace(a=3), Q._fields, Q._field_defaults, q + q, Q.__annotations__)
class Out(torch.nn.Module):
    def forward(self, x):
        return P(x * 2, x + 1)
o = Out()(torch.ones(2))
print(o, o.x, o[1], isinstance(o, tuple))
class Sub(P):
    def norm(self):
        return (self.x ** 2 + self.y ** 2) ** 0.5
print(Sub(3, 4).norm(), Sub(3, 4))
x, *rest = P(1, 2)
print(x, rest, dict(a=p)['a'], [*p], (*p, 3), set([p, P(1, 2)]))
import time
print(isinstance(time.gmtime(0), tuple), time.gmtime(0)[:3])
