# enumerate, zip, map, filter, reversed, super, property, staticmethod and classmethod
# are classes as in CPython 3.11: isinstance, type(), subclassing property, the
# descriptor methods (__get__/__set__, getter/setter, __func__) and their errors.
class classproperty(property):
    def __get__(self, obj, objtype=None):
        return self.fget(objtype)

class Config:
    _name = "cfg"
    @classproperty
    def name(cls):
        return cls._name.upper()
print(Config.name, Config().name)

class LoggedProperty(property):
    def __init__(self, fget, fset=None, doc=None):
        super().__init__(fget, fset, None, doc)
        self.label = fget.__name__
    def __set__(self, obj, value):
        print("setting", self.label, value)
        super().__set__(obj, value)

class Model:
    def __init__(self): self._lr = 0.1
    def _get(self): return self._lr
    def _set(self, v): self._lr = v
    lr = LoggedProperty(_get, _set, "learning rate")
m = Model(); m.lr = 0.5; print(m.lr, type(Model.__dict__['lr']).__name__)
print(isinstance(Model.__dict__['lr'], property), issubclass(LoggedProperty, property))

p = property(lambda s: 1)
print(type(p) is property, p.fset, p.fdel)
q = p.setter(lambda s, v: None)
print(q.fset is not None, q is p)
print(p.__get__(None, Model) is p)
class W:
    @staticmethod
    def s(x): return x * 2
    @classmethod
    def c(cls, x): return (cls.__name__, x)
sm = W.__dict__['s']; cm = W.__dict__['c']
print(sm.__func__(3), cm.__func__(W, 1), sm.__get__(None, W)(4), cm.__get__(None, W)(5))
print(isinstance(sm, staticmethod), isinstance(cm, classmethod), isinstance(sm, classmethod))
print(staticmethod.__name__, property.__name__, enumerate.__qualname__, type(enumerate), type(super))
print(enumerate, zip, map, filter, reversed, super, property, staticmethod, classmethod)
z = zip([1, 2], 'ab')
print(isinstance(z, zip), isinstance(z, map), type(z) is zip, type(z).__name__, list(z))
e = enumerate('xy', start=1)
print(isinstance(e, enumerate), next(e), list(e))
print(isinstance(map(str, [1]), map), isinstance(filter(None, [1]), filter), isinstance(reversed((1, 2)), reversed))
print(isinstance(reversed([1]), reversed))
import collections.abc
print(isinstance(zip(), collections.abc.Iterator))
try:
    staticmethod()
except TypeError as ex: print(ex)
try:
    classmethod(1, 2)
except TypeError as ex: print(ex)
try:
    property(1, 2, 3, 4, 5)
except TypeError as ex: print(ex)
try:
    enumerate()
except TypeError as ex: print(ex)
try:
    map(str)
except TypeError as ex: print(ex)
class Base:
    def hello(self): return "base"
class Child(Base):
    def hello(self): return "child+" + super().hello()
print(Child().hello(), isinstance(super(Child, Child()), super))
print(callable(zip), callable(property))
print(list(map(lambda x, y: x + y, [1, 2], [3, 4])), list(filter(lambda v: v > 1, [0, 1, 2, 3])))
print(sorted(zip([3, 1], [4, 5])), dict(zip('ab', range(2))))
class A2:
    @property
    def v(self):
        "the v"
        return 1
print(A2.v.__doc__, A2.v.fget.__name__)
try:
    A2().v = 3
except AttributeError as ex: print(ex)
s = slice(1, None, 2)
print(s.indices(10), slice(None, None, -1).indices(5), slice(-3, 100).indices(4), slice(5, 1).indices(3))
for bad in [lambda: s.indices(-1), lambda: s.indices('a'), lambda: slice(0, 1, 0).indices(3)]:
    try:
        bad()
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
