# numbers: the numeric tower's abstract classes (PEP 3141). int and bool are
# Integral, float is Real; isinstance(x, numbers.Number) is what scripts test.
from abc import ABC

__all__ = ["Number", "Complex", "Real", "Rational", "Integral"]


class Number(ABC):
    __slots__ = ()
    __hash__ = None


class Complex(Number):
    __slots__ = ()


class Real(Complex):
    __slots__ = ()


class Rational(Real):
    __slots__ = ()


class Integral(Rational):
    __slots__ = ()


# each level lists the built-in types below it (registration does not climb
# the tower here)
for _cls, _types in ((Number, (int, bool, float)), (Complex, (int, bool, float)), (Real, (int, bool, float)),
                     (Rational, (int, bool)), (Integral, (int, bool))):
    for _t in _types:
        _cls.register(_t)
del _cls, _types, _t
