# __qualname__ of nested classes and functions (Outer.Inner, f.<locals>.g) in
# reprs and error messages, as CPython 3.11 shows them.
import re
from dataclasses import dataclass


def addr(s):
    return re.sub(r" at 0x[0-9a-f]+", " at 0x...", str(s))


class Outer:
    class Inner:
        class Deep:
            def m(self):
                pass

        def method(self, x):
            return x

    def make(self):
        class Local:
            pass

        def helper():
            def inner():
                pass
            return inner
        return Local, helper, lambda: 0


print(Outer.Inner.__qualname__, Outer.Inner.__name__, Outer.Inner.Deep.__qualname__)
print(Outer.Inner, Outer.Inner.Deep, Outer.Inner.Deep.m.__qualname__)
print(addr(Outer.Inner()), addr(Outer.Inner.method))
Local, helper, lam = Outer().make()
print(Local.__qualname__, Local, addr(Local()))
print(helper.__qualname__, helper().__qualname__, lam.__qualname__)
print(addr(helper), addr(helper()), addr(lam))


def factory():
    class Point:
        def __init__(self, x):
            self.x = x
    return Point


P = factory()
print(P.__qualname__, P, addr(P(1)))
try:
    Outer.Inner().method()
except TypeError as e:
    print(e)
try:
    P()
except TypeError as e:
    print(e)


class Config:
    @dataclass
    class Optim:
        lr: float = 0.1
        momentum: float = 0.9


print(Config.Optim(), repr(Config.Optim(lr=0.01)))
print(type(Config.Optim()).__qualname__)
