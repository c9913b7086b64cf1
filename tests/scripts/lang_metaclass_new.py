# Metaclasses written in the language: their __new__ and __init__ at class
# creation (class statements and Meta(name, bases, ns)), __call__ at instance
# creation (singletons), registries, class attributes reached through the
# metaclass, super() into type.
class Meta(type):
    registry = []

    def __new__(mcs, name, bases, ns):
        ns['tag'] = name.lower()
        cls = super().__new__(mcs, name, bases, ns)
        return cls

    def __init__(cls, name, bases, ns):
        super().__init__(name, bases, ns)
        Meta.registry.append(name)


class A(metaclass=Meta):
    def hello(self):
        return 'hello from ' + self.tag


class B(A):
    def hello(self):
        return super().hello() + '!'


print(A.tag, B.tag, Meta.registry, type(A).__name__, type(B) is Meta, isinstance(B, Meta), isinstance(A, type))
print(A().hello(), B().hello(), B.__mro__)


class Singleton(type):
    _instances = {}

    def __call__(cls, *args, **kwargs):
        if cls not in cls._instances:
            cls._instances[cls] = super().__call__(*args, **kwargs)
        return cls._instances[cls]


class Config(metaclass=Singleton):
    def __init__(self, v=1):
        self.v = v


c1 = Config(5)
c2 = Config(7)
print(c1 is c2, c1.v, Config._instances == {Config: c1})


class RegMeta(type):
    classes = {}

    def __init__(cls, name, bases, ns):
        super().__init__(name, bases, ns)
        if bases:
            RegMeta.classes[name] = cls


class Base(metaclass=RegMeta):
    pass


class P1(Base):
    pass


class P2(Base):
    x = 1


print(sorted(RegMeta.classes), RegMeta.classes['P2'].x, RegMeta.classes['P1'] is P1)

X = Meta('X', (), {'y': 2})
print(X.y, X.tag, type(X).__name__, Meta.registry)


class Plain(type):
    pass


Y = Plain('Y', (), {'z': 3})
print(Y.z, type(Y).__name__, Y().z)


class Upper(type):
    def __new__(mcs, name, bases, ns):
        up = {k if k.startswith('__') else k.upper(): v for k, v in ns.items()}
        return super().__new__(mcs, name, bases, up)


class U(metaclass=Upper):
    foo = 1

    def bar(self):
        return 2


print(hasattr(U, 'foo'), U.FOO, U().BAR())


class Counted(type):
    def __call__(cls, *args, **kwargs):
        cls.made = getattr(cls, 'made', 0) + 1
        return super().__call__(*args, **kwargs)

    def describe(cls):
        return cls.__name__ + ' made ' + str(cls.made)


class Thing(metaclass=Counted):
    def __init__(self, n):
        self.n = n


t = Thing(1)
Thing(2)
print(t.n, Thing.made, Thing.describe())


class Checked(type):
    def __new__(mcs, name, bases, ns):
        if 'run' not in ns and bases:
            raise TypeError(name + ' must define run')
        return super().__new__(mcs, name, bases, ns)


class Job(metaclass=Checked):
    pass


try:
    class Bad(Job):
        pass
except TypeError as e:
    print('TypeError:', e)
try:
    Meta('Z')
except TypeError as e:
    print('TypeError:', e)


# the explicit forms: type.__new__, type.__init__, type.__call__
class Explicit(type):
    def __new__(mcs, name, bases, attrs):
        attrs['added'] = True
        return type.__new__(mcs, name, bases, attrs)
    def __init__(cls, name, bases, attrs):
        type.__init__(cls, name, bases, attrs)
        cls.inited = name
    def __call__(cls, *args, **kwargs):
        obj = type.__call__(cls, *args, **kwargs)
        obj.called = True
        return obj
class EA(metaclass=Explicit):
    def __init__(self, x=0):
        self.x = x
a = EA(3)
print(EA.added, EA.inited, a.x, a.called, type(EA).__name__)
EB = Explicit("EB", (EA,), {})
print(EB.added, EB.inited, EB(1).x)
print(type.__new__(Explicit, 'C', (), {}).__name__, type(type.__new__(Explicit, 'C', (), {})).__name__)
