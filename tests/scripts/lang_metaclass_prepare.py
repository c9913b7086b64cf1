# a metaclass's __prepare__ gives the mapping a class body's names go to;
# locals() in a class body is the class namespace; __init_subclass__, __set_name__
from collections import OrderedDict


class NoDupes(dict):
    def __setitem__(self, key, value):
        if key in self and not key.startswith('__'):
            raise TypeError('duplicate name: ' + key)
        super().__setitem__(key, value)


class Strict(type):
    @classmethod
    def __prepare__(mcs, name, bases, **kwargs):
        print('prepare', mcs.__name__, name, [b.__name__ for b in bases], kwargs)
        return NoDupes()

    def __new__(mcs, name, bases, ns, **kwargs):
        print('new', type(ns).__name__, sorted(k for k in ns if not k.startswith('__')))
        return super().__new__(mcs, name, bases, dict(ns))


class A(metaclass=Strict):
    x = 1

    def f(self):
        return self.x


print(A().f(), type(A).__name__)
try:
    class B(metaclass=Strict):
        y = 1
        y = 2
except TypeError as e:
    print('TypeError', e)


class Recorder(type):
    @classmethod
    def __prepare__(mcs, name, bases, **kw):
        return OrderedDict()

    def __new__(mcs, name, bases, ns, **kw):
        cls = super().__new__(mcs, name, bases, dict(ns))
        cls._order = [k for k in ns if not k.startswith('__')]
        return cls


class Fields(metaclass=Recorder):
    zeta = 1
    alpha = 2
    mid = 3


print(Fields._order)


class Sub(Fields):
    b = 1
    a = 2


print(Sub._order)


class Local:
    p = 1
    q = p + 1
    names = sorted(k for k in locals() if not k.startswith('__'))
    has_q = 'q' in locals()


print(Local.names, Local.has_q)


class Base:
    registry = []

    def __init_subclass__(cls, tag=None, **kwargs):
        super().__init_subclass__(**kwargs)
        Base.registry.append((cls.__name__, tag))


class One(Base, tag='one'):
    pass


class Two(One):
    pass


print(Base.registry)


class Field:
    def __set_name__(self, owner, name):
        self.name = '_' + name
        print('set_name', owner.__name__, name)

    def __get__(self, obj, objtype=None):
        return getattr(obj, self.name, None) if obj is not None else self

    def __set__(self, obj, value):
        setattr(obj, self.name, value)


class Model:
    width = Field()
    height = Field()


m = Model()
m.width = 3
print(m.width, m.height, Model.width.name)
