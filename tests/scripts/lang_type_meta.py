# type(name, bases, dict), type(C) and isinstance(C, M) for a class with a metaclass, against CPython 3.11
class Base:
    def hello(self):
        return 'hello from ' + type(self).__name__

def init(self, x):
    self.x = x

X = type('X', (Base,), {'a': 1, '__init__': init, 'double': lambda self: self.x * 2,
                        'twice': staticmethod(lambda v: v + v)})
x = X(21)
print(X, X.__name__, X.__bases__, X.a, x.double(), x.hello(), X.twice(4))
print(isinstance(x, X), isinstance(x, Base), issubclass(X, Base), type(x) is X)
E = type('E', (), {})
print(E, E.__bases__, E.__mro__, type(E))

class Counted:
    made = []
    def __init_subclass__(cls, **kw):
        Counted.made.append(cls.__name__)
Y = type('Y', (Counted,), {})
print(Counted.made)

class Sized(type):
    def __len__(cls):
        return 3
class C(metaclass=Sized):
    pass
class D(C):
    pass
Z = type('Z', (D,), {})
print(type(C), type(D), type(Z), len(C), len(Z))
print(isinstance(C, Sized), isinstance(D, Sized), isinstance(C, type), isinstance(Base, Sized))
print(isinstance(Base, type), type(Base), type(type), isinstance(3, Sized))

for bad in [(1, (), {}), ('N', [], {}), ('N', (), [])]:
    try:
        type(*bad)
    except TypeError as e:
        print('TypeError:', e)
try:
    type('a', 'b')
except TypeError as e:
    print('TypeError:', e)

import abc, enum
class Color(enum.Enum):
    RED = 1
class Shape(abc.ABC):
    pass
print(type(Color), type(Shape), isinstance(Color, enum.EnumMeta), isinstance(Shape, abc.ABCMeta))
