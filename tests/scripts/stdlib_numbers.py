import numbers
from numbers import Number, Real, Integral
print(isinstance(3, Number), isinstance(2.5, Integral), isinstance(True, Integral), isinstance(2.5, Real), isinstance("a", Number), issubclass(int, numbers.Complex), numbers.Real)
