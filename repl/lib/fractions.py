# fractions, written in the language: Fraction, rational numbers of any size, with
# CPython 3.11's constructors, arithmetic (mixed with int, float and complex),
# comparisons, hashing (equal to the int or float a fraction equals), rounding,
# limit_denominator, reprs and errors.

import math
import numbers
import re

__all__ = ['Fraction']

_HASH_MODULUS = 2 ** 61 - 1
_HASH_INF = 314159

_RATIONAL = re.compile(r'\A\s*(?P<sign>[-+]?)(?=\d|\.\d)(?P<num>\d*|\d+(_\d+)*)'
                       r'(?:(?:/(?P<denom>\d+(_\d+)*))?|'
                       r'(?:\.(?P<decimal>d*|\d+(_\d+)*))?(?:E(?P<exp>[-+]?\d+(_\d+)*))?)\s*\Z',
                       re.IGNORECASE)


def _ratio_of(x):
    # an int, a Fraction or a numbers.Rational: (numerator, denominator)
    if type(x) is int or type(x) is bool:
        return int(x), 1
    return x.numerator, x.denominator


class Fraction(numbers.Rational):
    __slots__ = ('_numerator', '_denominator')

    def __new__(cls, numerator=0, denominator=None, *, _normalize=True):
        self = object.__new__(cls)
        if denominator is None:
            if type(numerator) is int or type(numerator) is bool:
                self._numerator = int(numerator)
                self._denominator = 1
                return self
            elif isinstance(numerator, numbers.Rational):
                self._numerator = numerator.numerator
                self._denominator = numerator.denominator
                return self
            elif isinstance(numerator, float) or type(numerator).__name__ == 'Decimal':
                self._numerator, self._denominator = numerator.as_integer_ratio()
                return self
            elif isinstance(numerator, str):
                m = _RATIONAL.match(numerator)
                if m is None:
                    raise ValueError('Invalid literal for Fraction: %r' % numerator)
                numerator = int(m.group('num') or '0')
                denom = m.group('denom')
                if denom:
                    denominator = int(denom)
                else:
                    denominator = 1
                    decimal = m.group('decimal')
                    if decimal:
                        decimal = decimal.replace('_', '')
                        scale = 10 ** len(decimal)
                        numerator = numerator * scale + int(decimal)
                        denominator *= scale
                    exp = m.group('exp')
                    if exp:
                        exp = int(exp)
                        if exp >= 0:
                            numerator *= 10 ** exp
                        else:
                            denominator *= 10 ** -exp
                if m.group('sign') == '-':
                    numerator = -numerator
            else:
                raise TypeError("argument should be a string or a Rational instance")
        elif type(numerator) is int is type(denominator):
            pass
        elif isinstance(numerator, numbers.Rational) and isinstance(denominator, numbers.Rational):
            n1, d1 = _ratio_of(numerator)
            n2, d2 = _ratio_of(denominator)
            numerator, denominator = n1 * d2, d1 * n2
        else:
            raise TypeError("both arguments should be Rational instances")
        numerator = int(numerator)
        denominator = int(denominator)
        if denominator == 0:
            raise ZeroDivisionError('Fraction(%s, 0)' % numerator)
        if _normalize:
            g = math.gcd(numerator, denominator)
            if denominator < 0:
                g = -g
            numerator //= g
            denominator //= g
        self._numerator = numerator
        self._denominator = denominator
        return self

    @classmethod
    def from_float(cls, f):
        if isinstance(f, numbers.Integral):
            return cls(f)
        elif not isinstance(f, float):
            raise TypeError("%s.from_float() only takes floats, not %r (%s)" % (cls.__name__, f, type(f).__name__))
        return cls(*f.as_integer_ratio())

    @classmethod
    def from_decimal(cls, dec):
        if isinstance(dec, numbers.Integral):
            return cls(int(dec))
        elif type(dec).__name__ != 'Decimal':
            raise TypeError("%s.from_decimal() only takes Decimals, not %r (%s)"
                            % (cls.__name__, dec, type(dec).__name__))
        return cls(*dec.as_integer_ratio())

    def as_integer_ratio(self):
        return (self._numerator, self._denominator)

    def limit_denominator(self, max_denominator=1000000):
        if max_denominator < 1:
            raise ValueError("max_denominator should be at least 1")
        if self._denominator <= max_denominator:
            return Fraction(self)
        p0, q0, p1, q1 = 0, 1, 1, 0
        n, d = self._numerator, self._denominator
        while True:
            a = n // d
            q2 = q0 + a * q1
            if q2 > max_denominator:
                break
            p0, q0, p1, q1 = p1, q1, p0 + a * p1, q2
            n, d = d, n - a * d
        k = (max_denominator - q0) // q1
        if 2 * d * (q0 + k * q1) <= self._denominator:
            return Fraction(p1, q1, _normalize=False)
        else:
            return Fraction(p0 + k * p1, q0 + k * q1, _normalize=False)

    @property
    def numerator(a):
        return a._numerator

    @property
    def denominator(a):
        return a._denominator

    def __repr__(self):
        return '%s(%s, %s)' % (self.__class__.__name__, self._numerator, self._denominator)

    def __str__(self):
        if self._denominator == 1:
            return str(self._numerator)
        return '%s/%s' % (self._numerator, self._denominator)

    # arithmetic: with a Rational exactly, with a float or complex as that type

    def _operate(a, b, exact, inexact):
        if isinstance(b, (int, Fraction)) or isinstance(b, numbers.Rational):
            return exact(a, b if isinstance(b, Fraction) else Fraction(b))
        if isinstance(b, float):
            return inexact(float(a), b)
        if isinstance(b, complex):
            return inexact(complex(float(a)), b)
        return NotImplemented

    def _roperate(b, a, exact, inexact):
        if isinstance(a, numbers.Rational):
            return exact(Fraction(a), b)
        if isinstance(a, float):
            return inexact(a, float(b))
        if isinstance(a, complex):
            return inexact(a, complex(float(b)))
        return NotImplemented

    def _add(a, b):
        return Fraction(a._numerator * b._denominator + b._numerator * a._denominator,
                        a._denominator * b._denominator)

    def _sub(a, b):
        return Fraction(a._numerator * b._denominator - b._numerator * a._denominator,
                        a._denominator * b._denominator)

    def _mul(a, b):
        return Fraction(a._numerator * b._numerator, a._denominator * b._denominator)

    def _div(a, b):
        n, d = a._numerator * b._denominator, a._denominator * b._numerator
        if d == 0:
            raise ZeroDivisionError('Fraction(%s, 0)' % n)
        return Fraction(n, d)

    def _floordiv(a, b):
        return (a._numerator * b._denominator) // (b._numerator * a._denominator)

    def _divmod(a, b):
        da, db = a._denominator, b._denominator
        div, n_mod = divmod(a._numerator * db, da * b._numerator)
        return div, Fraction(n_mod, da * db)

    def _mod(a, b):
        da, db = a._denominator, b._denominator
        return Fraction((a._numerator * db) % (b._numerator * da), da * db)

    def __add__(a, b):
        return a._operate(b, Fraction._add, lambda x, y: x + y)

    def __radd__(b, a):
        return b._roperate(a, Fraction._add, lambda x, y: x + y)

    def __sub__(a, b):
        return a._operate(b, Fraction._sub, lambda x, y: x - y)

    def __rsub__(b, a):
        return b._roperate(a, Fraction._sub, lambda x, y: x - y)

    def __mul__(a, b):
        return a._operate(b, Fraction._mul, lambda x, y: x * y)

    def __rmul__(b, a):
        return b._roperate(a, Fraction._mul, lambda x, y: x * y)

    def __truediv__(a, b):
        return a._operate(b, Fraction._div, lambda x, y: x / y)

    def __rtruediv__(b, a):
        return b._roperate(a, Fraction._div, lambda x, y: x / y)

    def __floordiv__(a, b):
        return a._operate(b, Fraction._floordiv, lambda x, y: x // y)

    def __rfloordiv__(b, a):
        return b._roperate(a, Fraction._floordiv, lambda x, y: x // y)

    def __divmod__(a, b):
        return a._operate(b, Fraction._divmod, divmod)

    def __rdivmod__(b, a):
        return b._roperate(a, Fraction._divmod, divmod)

    def __mod__(a, b):
        return a._operate(b, Fraction._mod, lambda x, y: x % y)

    def __rmod__(b, a):
        return b._roperate(a, Fraction._mod, lambda x, y: x % y)

    def __pow__(a, b):
        if isinstance(b, numbers.Rational):
            if b.denominator == 1:
                power = b.numerator
                if power >= 0:
                    return Fraction(a._numerator ** power, a._denominator ** power, _normalize=False)
                elif a._numerator >= 0:
                    return Fraction(a._denominator ** -power, a._numerator ** -power)
                else:
                    return Fraction((-a._denominator) ** -power, (-a._numerator) ** -power)
            else:
                return float(a) ** float(b)
        else:
            return float(a) ** b

    def __rpow__(b, a):
        if b._denominator == 1 and b._numerator >= 0:
            return a ** b._numerator
        if isinstance(a, numbers.Rational):
            return Fraction(a.numerator, a.denominator) ** b
        if b._denominator == 1:
            return a ** b._numerator
        return a ** float(b)

    def __pos__(a):
        return Fraction(a._numerator, a._denominator, _normalize=False)

    def __neg__(a):
        return Fraction(-a._numerator, a._denominator, _normalize=False)

    def __abs__(a):
        return Fraction(abs(a._numerator), a._denominator, _normalize=False)

    def __int__(a):
        if a._numerator < 0:
            return -(-a._numerator // a._denominator)
        return a._numerator // a._denominator

    def __trunc__(a):
        return a.__int__()

    def __float__(a):
        return a._numerator / a._denominator

    def __floor__(a):
        return a._numerator // a._denominator

    def __ceil__(a):
        return -(-a._numerator // a._denominator)

    def __round__(self, ndigits=None):
        if ndigits is None:
            floor, remainder = divmod(self._numerator, self._denominator)
            if remainder * 2 < self._denominator:
                return floor
            elif remainder * 2 > self._denominator:
                return floor + 1
            elif floor % 2 == 0:
                return floor
            else:
                return floor + 1
        shift = 10 ** abs(ndigits)
        if ndigits > 0:
            return Fraction(round(self * shift), shift)
        else:
            return Fraction(round(self / shift) * shift)

    def __hash__(self):
        try:
            dinv = pow(self._denominator, -1, _HASH_MODULUS)
        except ValueError:
            hash_ = _HASH_INF
        else:
            hash_ = hash(hash(abs(self._numerator)) * dinv)
        result = hash_ if self._numerator >= 0 else -hash_
        return -2 if result == -1 else result

    def __eq__(a, b):
        if type(b) is int or type(b) is bool:
            return a._numerator == b and a._denominator == 1
        if isinstance(b, numbers.Rational):
            return a._numerator == b.numerator and a._denominator == b.denominator
        if isinstance(b, complex) and b.imag == 0:
            b = b.real
        if isinstance(b, float):
            if math.isnan(b) or math.isinf(b):
                return 0.0 == b
            return a == a.from_float(b)
        return NotImplemented

    def _richcmp(self, other, op):
        if isinstance(other, numbers.Rational):
            return op(self._numerator * other.denominator, self._denominator * other.numerator)
        if isinstance(other, float):
            if math.isnan(other) or math.isinf(other):
                return op(0.0, other)
            return op(self, self.from_float(other))
        return NotImplemented

    def __lt__(a, b):
        return a._richcmp(b, lambda x, y: x < y)

    def __gt__(a, b):
        return a._richcmp(b, lambda x, y: x > y)

    def __le__(a, b):
        return a._richcmp(b, lambda x, y: x <= y)

    def __ge__(a, b):
        return a._richcmp(b, lambda x, y: x >= y)

    def __bool__(a):
        return bool(a._numerator)

    def __reduce__(self):
        return (self.__class__, (self._numerator, self._denominator))

    def __copy__(self):
        if type(self) == Fraction:
            return self
        return self.__class__(self._numerator, self._denominator)

    def __deepcopy__(self, memo):
        if type(self) == Fraction:
            return self
        return self.__class__(self._numerator, self._denominator)
