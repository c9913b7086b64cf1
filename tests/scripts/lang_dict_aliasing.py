# obj.__dict__ is the instance's one dict: writes through it (aliased, vars(), update, del, pop, clear,
# setdefault, assignment of a new dict) change the attributes, and attribute writes show in it; a class's
# __dict__ is a read-only mappingproxy; __slots__ given as a dict
import copy
import functools
import json
import pickle
import types


class Config:
    kind = 'base'

    def __init__(self, **kw):
        self.lr = 0.1
        self.__dict__.update(kw)

    def __getstate__(self):
        state = self.__dict__.copy()
        state.pop('cache', None)
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.cache = {}


c = Config(epochs=3, name='run1')
d = c.__dict__
d['x'] = 10
print(c.x, vars(c) is c.__dict__, d is c.__dict__)
c.w = 7
print(d)
del d['x']
print(hasattr(c, 'x'), 'x' in vars(c))
print(d.pop('w'), hasattr(c, 'w'), d.setdefault('momentum', 0.9), c.momentum)
vars(c)['lr'] = 0.01
print(c.lr, sorted(vars(c)), len(c.__dict__))
print(json.dumps(vars(c), sort_keys=True))
print({**c.__dict__}, dict(c.__dict__) == c.__dict__)
c.cache = {'k': 1}
c2 = pickle.loads(pickle.dumps(c))
print(vars(c2))
c3 = copy.copy(c)
c3.__dict__['lr'] = 5
print(c.lr, c3.lr)
c4 = copy.deepcopy(c)
print(vars(c4) == vars(c), vars(c4) is vars(c))
d.clear()
print(vars(c), hasattr(c, 'lr'), c.kind)
new = {'fresh': 1}
c.__dict__ = new
new['later'] = 2
print(c.fresh, c.later, vars(c) is new)
c.after = 3
print(new)
del c.fresh
print(new, 'fresh' in dir(c))
for k, v in vars(c).items():
    print(k, v)
try:
    c.__dict__ = [1]
except TypeError as e:
    print('TypeError:', e)


class Model:
    def __init__(self):
        self.scale = 2

    @functools.cached_property
    def table(self):
        print('computing')
        return [i * self.scale for i in range(3)]


m = Model()
print(m.table, m.table, 'table' in m.__dict__)
del m.__dict__['table']
m.scale = 3
print(m.table)
ns = types.SimpleNamespace(a=1)
ns.__dict__['b'] = 2
print(ns, vars(ns))


class P:
    __slots__ = {'x': 'the x coordinate', 'y': 'the y coordinate'}

    def __init__(self):
        self.x, self.y = 1, 2


p = P()
print(p.x, p.y, sorted(P.__slots__), hasattr(p, '__dict__'))
try:
    p.z = 3
except AttributeError as e:
    print('AttributeError:', e)

print(type(Config.__dict__).__name__, Config.__dict__['kind'], 'kind' in Config.__dict__, Config.__dict__.get('nope', 0))
print(sorted(k for k in vars(Config) if not k.startswith('__')))
try:
    Config.__dict__['kind'] = 'other'
except TypeError as e:
    print('TypeError:', e)
mp = types.MappingProxyType({'a': 1, 'b': 2})
print(mp, mp['a'], len(mp), list(mp), mp.copy(), mp | {'c': 3}, mp == {'a': 1, 'b': 2})
try:
    types.MappingProxyType([1])
except TypeError as e:
    print('TypeError:', e)


class Err(Exception):
    def __init__(self, msg, code):
        super().__init__(msg)
        self.code = code


e = Err('bad', 4)
print(e.__dict__, vars(e))
e.__dict__['code'] = 5
print(e.code, e.args)
