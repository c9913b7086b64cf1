# Python object model as utility code uses it: a metaclass registry with __init_subclass__, a
# __slots__ vector with operators, property/cached_property, abc, generator send/return, closures,
# keyword-only/positional-only parameters, match, str/int/bytes methods, Fraction/Decimal,
# SimpleNamespace, weakref, exception chaining; checked against python3.
import sys, types, weakref, abc, inspect, functools
class Registry(type):
    classes = {}
    def __new__(mcs, name, bases, ns, **kw):
        cls = super().__new__(mcs, name, bases, ns)
        mcs.classes[name] = cls
        return cls
class Base(metaclass=Registry):
    def __init_subclass__(cls, key=None, **kw):
        super().__init_subclass__(**kw)
        cls.key = key
class A(Base, key='a'): pass
class B(A, key='b'): pass
print(sorted(Registry.classes), A.key, B.key, type(A).__name__, B.__mro__)

class Vec:
    __slots__ = ('x', 'y')
    def __init__(self, x, y): self.x, self.y = x, y
    def __add__(self, o): return Vec(self.x + o.x, self.y + o.y)
    def __mul__(self, k): return Vec(self.x * k, self.y * k)
    __rmul__ = __mul__
    def __neg__(self): return Vec(-self.x, -self.y)
    def __abs__(self): return (self.x ** 2 + self.y ** 2) ** 0.5
    def __eq__(self, o): return (self.x, self.y) == (o.x, o.y)
    def __hash__(self): return hash((self.x, self.y))
    def __repr__(self): return f'Vec({self.x!r}, {self.y!r})'
    def __iter__(self): yield self.x; yield self.y
    def __getitem__(self, i): return (self.x, self.y)[i]
    def __len__(self): return 2
    def __lt__(self, o): return abs(self) < abs(o)
v = Vec(3, 4)
print(v + v, 2 * v, -v, abs(v), list(v), v[1], len(v), {v, Vec(3, 4)}, sorted([Vec(5, 5), v]), max(v, Vec(1, 1)))
try: v.z = 1
except AttributeError as e: print('AttributeError', e)
x, y = v; print(x, y, *v, dict(a=v))

class Temp:
    def __init__(self): self._c = 0
    @property
    def f(self): return self._c * 9 / 5 + 32
    @f.setter
    def f(self, val): self._c = (val - 32) * 5 / 9
    @functools.cached_property
    def expensive(self): print('computing'); return 42
t = Temp(); t.f = 212; print(t._c, t.f, t.expensive, t.expensive)

class Shape(abc.ABC):
    @abc.abstractmethod
    def area(self): ...
try: Shape()
except TypeError as e: print(e)
class Sq(Shape):
    def __init__(self, s): self.s = s
    def area(self): return self.s ** 2
print(Sq(3).area(), isinstance(Sq(1), Shape))

def gen():
    total = 0
    while True:
        x = yield total
        if x is None: return total
        total += x
g = gen(); next(g); g.send(5); print(g.send(10))
try: g.send(None)
except StopIteration as e: print('stop', e.value)
def counter():
    n = 0
    def inc(k=1):
        nonlocal n
        n += k
        return n
    return inc
c = counter(); c(); c(5); print(c())
print(c.__name__, c.__qualname__, c.__defaults__)
def kw(a, /, b, *, c=3, **rest): return (a, b, c, rest)
print(kw(1, 2), kw(1, b=2, c=4, d=5))
try: kw(a=1, b=2)
except TypeError as e: print(e)
print(inspect.signature(kw))
data = [1, 5, 3]
if (n := len(data)) > 2: print('long', n)
def describe(p):
    match p:
        case {'x': 0, 'y': 0}: return 'origin'
        case {'x': x, 'y': 0}: return f'on x at {x}'
        case [a, b, *rest]: return f'seq {a} {b} +{len(rest)}'
        case Vec(x=0): return 'vec on y'
        case str() as s if s: return 'str ' + s
        case _: return 'other'
print([describe(p) for p in ({'x': 0, 'y': 0}, {'x': 2, 'y': 0}, [1, 2, 3, 4], 'hi', 5)])
print('a,b,,c'.split(','), 'a b  c'.split(), 'k=v=w'.partition('='), 'x.tar.gz'.rsplit('.', 1), '42'.zfill(5), 'ab'.center(6, '*'), 'ß'.upper(), 'Hello'.casefold(), '\tx'.expandtabs(4))
print((255).to_bytes(2, 'big'), int.from_bytes(b'\x01\x00', 'little'), (37).bit_length(), (1.5).hex(), divmod(-7, 2), -7 // 2, -7 % 2, pow(3, 4, 5), pow(2, -1, 7), 2 ** 100, complex(1, -2), 1j ** 2)
from fractions import Fraction
from decimal import Decimal
print(Fraction(3, 6), Fraction('0.25') + 1, Decimal('1.10') + Decimal('2.205'), Decimal(1) / Decimal(7), float(Fraction(1, 3)))
print(b'%s=%d' % (b'k', 5), 'é'.encode(), b'caf\xc3\xa9'.decode(), bytes(range(5)).hex(), bytearray(b'ab') + b'c', memoryview(b'abc')[1:].tobytes())
print({k: v for k, v in zip('abc', range(3)) if v}, {x % 3 for x in range(10)}, [[i * j for j in range(3)] for i in range(2)])
print(sorted([('b', 2), ('a', 2), ('c', 1)], key=lambda t: t[1]), list(reversed(range(5))), list(map(str.upper, 'ab')), list(filter(None, [0, 1, '', 'x'])))
print(any(x > 3 for x in range(5)), all([]), sum([[1], [2]], []), min('bca'), sorted('bca', reverse=True), list(zip(*[(1, 2), (3, 4)])))
obj = types.SimpleNamespace(a=1, b='x'); obj.c = [1]; print(obj, vars(obj))
class Node: pass
n = Node(); r = weakref.ref(n); print(r() is n); del n; print(r())
print(isinstance(True, int), issubclass(bool, int), type(None).__name__, callable(len), hasattr([], 'append'), getattr(1, 'real'), id(1) == id(1))
e = None
try:
    try: 1 / 0
    except ZeroDivisionError as err: raise ValueError('bad') from err
except ValueError as err: e = err
print(repr(e), repr(e.__cause__), e.__context__ is e.__cause__, e.__suppress_context__)
