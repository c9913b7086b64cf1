class A:
    def __init__(self):
        print('A.init')
        super().__init__()
    def who(self): return 'A'
class B(A):
    def __init__(self):
        print('B.init')
        super().__init__()
    def who(self): return 'B>' + super().who()
class C(A):
    def __init__(self):
        print('C.init')
        super().__init__()
    def who(self): return 'C>' + super().who()
class D(B, C):
    def __init__(self):
        print('D.init')
        super().__init__()
    def who(self): return 'D>' + super().who()
d = D()
print(d.who())
print([k.__name__ for k in D.__mro__])
print(D.mro() == list(D.__mro__), D.__bases__ == (B, C), D.__base__ is B)
print(isinstance(d, (int, C)), issubclass(D, (str, A)), issubclass(D, D), isinstance(d, object))
class Mixin:
    def greet(self): return 'hi from ' + type(self).__name__
class E(Mixin, D): pass
print(E().greet(), [k.__name__ for k in E.__mro__])
try:
    class Bad(A, B): pass
except TypeError as e:
    print(e)
class Temp:
    unit = 'C'
    count = 0
    def __init__(self, v):
        self._v = v
        Temp.count += 1
    @property
    def v(self): return self._v
    @v.setter
    def v(self, x):
        if x < -273: raise ValueError('too cold')
        self._v = x
    @v.deleter
    def v(self): print('deleting'); del self._v
    @classmethod
    def make(cls, v): return cls(v)
    @staticmethod
    def conv(x): return x * 9 / 5 + 32
t = Temp.make(5)
t.v = 10
print(t.v, Temp.conv(100), t.conv(0), Temp.count, t.unit)
try:
    t.v = -300
except ValueError as e:
    print('VE', e)
del t.v
print(hasattr(t, '_v'))
t.unit = 'F'
print(t.unit, Temp.unit)
class Vec:
    def __init__(self, *xs): self.xs = list(xs)
    def __add__(self, o): return Vec(*[a + b for a, b in zip(self.xs, o.xs)]) if isinstance(o, Vec) else Vec(*[a + o for a in self.xs])
    def __radd__(self, o): return self + o
    def __mul__(self, k): return Vec(*[a * k for a in self.xs])
    __rmul__ = __mul__
    def __eq__(self, o): return isinstance(o, Vec) and self.xs == o.xs
    def __hash__(self): return hash(tuple(self.xs))
    def __lt__(self, o): return sum(self.xs) < sum(o.xs)
    def __len__(self): return len(self.xs)
    def __getitem__(self, i): return self.xs[i]
    def __contains__(self, x): return x in self.xs
    def __call__(self, k): return self.xs[k] * 10
    def __repr__(self): return f'Vec{tuple(self.xs)}'
    def __neg__(self): return Vec(*[-a for a in self.xs])
    def __bool__(self): return any(self.xs)
v = Vec(1, 2)
print(v + Vec(3, 4), 1 + v, v + 1, 2 * v, v * 2, -v, v == Vec(1, 2), v != Vec(1, 2), len(v), v[1], 2 in v, v(0))
print(sorted([Vec(5), Vec(1), Vec(3)]), sum([Vec(1, 1), Vec(2, 2)], Vec(0, 0)), {v: 1}[Vec(1, 2)], list(v), v[::-1], bool(Vec(0)))
print(max([Vec(5), Vec(9)]), min(Vec(5), Vec(2)))
class Ctx:
    def __init__(self, name): self.name = name
    def __enter__(self): print('enter', self.name); return self
    def __exit__(self, et, ev, tb): print('exit', self.name, et.__name__ if et else None); return et is KeyError
with Ctx('a') as a, Ctx('b') as b:
    print('body', a.name, b.name)
with (Ctx('p') as p,
      Ctx('q') as q):
    raise KeyError('x')
print('after')
class Base:
    registry = []
    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        Base.registry.append(cls.__name__)
class S1(Base): pass
class S2(S1): pass
print(Base.registry)
print(type(d).__name__, type(d) is D, D.__name__, D.__qualname__, d.__class__.__name__, D.__module__)
print(Temp.__dict__['unit'], 'make' in Temp.__dict__, vars(t))
# explicit super(Class, self), nn.Module with mixins and multiple levels
import torch
import torch.nn as nn
class Old(A):
    def __init__(self):
        super(Old, self).__init__()
        print('Old.init')
Old()
class InitMixin:
    def describe(self): return type(self).__name__ + ' with ' + str(sum(p.numel() for p in self.parameters())) + ' params'
class Net(nn.Module, InitMixin):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 3)
    def forward(self, x): return self.fc(x)
class Deeper(Net):
    def __init__(self):
        super().__init__()
        self.out = nn.Linear(3, 1)
    def forward(self, x): return self.out(super().forward(x))
torch.manual_seed(0)
net = Deeper()
print(net.describe(), net(torch.ones(1, 2)).shape, isinstance(net, (nn.Module, InitMixin)), isinstance(net, Net))
print(net)
class Base2:
    @classmethod
    def create(cls): return cls.__name__
class Kid(Base2):
    @classmethod
    def create(cls): return 'kid:' + super().create()
print(Kid.create(), Kid().create())
class P1:
    def __init__(self, a, **kw):
        self.a = a
        super().__init__(**kw)
class P2:
    def __init__(self, b, **kw):
        self.b = b
        super().__init__(**kw)
class Both(P1, P2): pass
bo = Both(a=1, b=2)
print(bo.a, bo.b, [c.__name__ for c in Both.mro()])
class Desc:
    def __init__(self): self._x = 0
    def getx(self): return self._x
    def setx(self, v): self._x = v * 2
    x = property(getx, setx, doc='the x')
    y = property(fget=getx)
dsc = Desc(); dsc.x = 5
print(dsc.x, Desc.x.__doc__, Desc.y.fset)
for bad in [lambda: setattr(dsc, 'y', 1), lambda: delattr(dsc, 'y')]:
    try:
        bad()
    except AttributeError as e:
        print(e)
class Err(ValueError, InitMixin): pass
try:
    raise Err('mixed')
except ValueError as e:
    print(type(e).__name__, e, isinstance(e, InitMixin))
class X: pass
class Y(X): pass
try:
    class Z(X, Y): pass
except TypeError as e:
    print(e)
try:
    class W(X, X): pass
except TypeError as e:
    print(e)
class Plugin:
    def __init_subclass__(cls, tag='none', **kw):
        super().__init_subclass__(**kw)
        cls.tag = tag
class Audio(Plugin, tag='audio'): pass
class Video(Plugin): pass
print(Audio.tag, Video.tag)
