# Private name mangling, as CPython 3.11's compiler does it: inside a class body
# every `__name` not ending in `__` reads `_Class__name` (attributes, names,
# parameters, nested functions, lambdas and comprehensions, imports, except
# and match targets, __slots__ entries), with the class name's leading
# underscores stripped.
import torch
from torch import nn


class Account:
    __rate = 2                       # a class attribute: _Account__rate

    def __init__(self, balance):
        self.__balance = balance     # _Account__balance

    def __grow(self, __by):          # a private method with a private parameter
        __scaled = __by * self.__rate
        return self.__balance + __scaled

    def total(self):
        return self.__grow(3)

    def nested(self):
        def inner():
            return self.__balance
        f = lambda __q: __q + self.__rate
        return inner(), f(1), [__i * self.__rate for __i in range(3)]

    def missing(self):
        return self.__nope

    def missing_name(self):
        return __nowhere


a = Account(10)
print(a.total(), a._Account__balance, Account._Account__rate)
print(a.nested())
print(sorted(k for k in vars(a)))
print(sorted(k for k in Account.__dict__ if "Account" in k))
print(hasattr(a, "__balance"), hasattr(Account, "__grow"))
print(Account._Account__grow.__name__, Account._Account__grow.__qualname__)
try:
    a.missing()
except AttributeError as e:
    print("AttributeError:", e)
try:
    a.missing_name()
except NameError as e:
    print("NameError:", e)
try:
    a.__balance
except AttributeError as e:
    print("AttributeError:", e)


class _Hidden:                       # leading underscores of the class name go
    __x = 1

    class __Inner:                   # the inner class binds _Hidden__Inner; its own body mangles with Inner
        __y = 2

        def get(self):
            return self.__y


print(_Hidden._Hidden__x, _Hidden._Hidden__Inner._Inner__y, _Hidden._Hidden__Inner().get())
print(_Hidden._Hidden__Inner.__name__)


class ___:                           # a class named only underscores mangles nothing
    __z = 3


print([k for k in ___.__dict__ if "z" in k])


class Keys:
    def f(self, *, __k=1):           # the keyword-only parameter is _Keys__k
        return __k

    def g(self):
        return self.f(__k=2)         # a call's keyword name is not mangled

    def h(self, __d=5):
        return __d


print(Keys.f.__kwdefaults__, Keys().f(), Keys().h(), Keys().h(7))
try:
    Keys().g()
except TypeError as e:
    print("TypeError:", e)


class Slotted:
    __slots__ = ("__s", "__d__", "p")

    def __init__(self):
        self.__s = 1
        self.p = 2

    def get(self):
        return self.__s


s = Slotted()
print(s.get(), s._Slotted__s, Slotted.__slots__)
try:
    s.__s = 4                        # outside the class: not a slot name
except AttributeError as e:
    print("AttributeError:", e)


class Imports:
    try:
        import __nomodule            # the module name is mangled too
    except ImportError as e:
        print(type(e).__name__, e)
    import os.path                   # dotted names are not mangled
    try:
        raise ValueError("v")
    except ValueError as __err:
        caught = str(__err)
    match [1, 2]:
        case [__first, *__rest]:
            pair = (__first, __rest)

    def share(self):
        global __shared
        __shared = "global"


Imports().share()
print(Imports.caught, Imports.pair, _Imports__shared, hasattr(Imports, "os"))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.__fc = nn.Linear(2, 1)

    def forward(self, x):
        return self.__fc(x)


net = Net()
print([name for name, _ in net.named_parameters()])
print(net(torch.ones(1, 2)).shape)
