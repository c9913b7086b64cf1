"""decimal: CPython 3.11's decimal module (the General Decimal Arithmetic
specification, as its libmpdec implements it), written over the language's
integers of any size. A finite Decimal is (sign, coefficient, exponent): the
value (-1)**sign * coefficient * 10**exponent; the special ones are 'F'
(Infinity), 'n' (NaN) and 'N' (sNaN), a NaN's payload in the coefficient.
Every operation collects its conditions as libmpdec's status bits, then the
context records them as flags and raises the first trapped signal, with the
list of trapped conditions as CPython's C module does."""

import math as _math
import numbers as _numbers
from collections import namedtuple as _namedtuple

__version__ = '1.70'
__libmpdec_version__ = '2.5.1'

ROUND_DOWN = 'ROUND_DOWN'
ROUND_HALF_UP = 'ROUND_HALF_UP'
ROUND_HALF_EVEN = 'ROUND_HALF_EVEN'
ROUND_CEILING = 'ROUND_CEILING'
ROUND_FLOOR = 'ROUND_FLOOR'
ROUND_UP = 'ROUND_UP'
ROUND_HALF_DOWN = 'ROUND_HALF_DOWN'
ROUND_05UP = 'ROUND_05UP'
_ROUNDINGS = (ROUND_UP, ROUND_DOWN, ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, ROUND_HALF_DOWN,
              ROUND_HALF_EVEN, ROUND_05UP)

MAX_PREC = 999999999999999999
MAX_EMAX = 999999999999999999
MIN_EMIN = -999999999999999999
MIN_ETINY = MIN_EMIN - (MAX_PREC - 1)
HAVE_THREADS = True
HAVE_CONTEXTVAR = True

_HASH_MODULUS = 2305843009213693951
_HASH_10INV = pow(10, _HASH_MODULUS - 2, _HASH_MODULUS)

DecimalTuple = _namedtuple('DecimalTuple', 'sign digits exponent', module='decimal')


class DecimalException(ArithmeticError):
    pass

class Clamped(DecimalException):
    pass

class InvalidOperation(DecimalException):
    pass

class ConversionSyntax(InvalidOperation):
    pass

class DivisionByZero(DecimalException, ZeroDivisionError):
    pass

class DivisionImpossible(InvalidOperation):
    pass

class DivisionUndefined(InvalidOperation, ZeroDivisionError):
    pass

class Inexact(DecimalException):
    pass

class InvalidContext(InvalidOperation):
    pass

class Rounded(DecimalException):
    pass

class Subnormal(DecimalException):
    pass

class Overflow(Inexact, Rounded):
    pass

class Underflow(Inexact, Rounded, Subnormal):
    pass

class FloatOperation(DecimalException, TypeError):
    pass


# libmpdec's status bits
_CLAMPED, _CONV, _DIVZERO, _DIVIMP, _DIVUNDEF, _FPU = 1, 2, 4, 8, 16, 32
_INEXACT, _INVCTX, _INVOP, _MALLOC, _FLOATOP = 64, 128, 256, 512, 1024
_OVERFLOW, _ROUNDED, _SUBNORMAL, _UNDERFLOW = 2048, 4096, 8192, 16384
_IEEE_INVALID = _CONV | _DIVIMP | _DIVUNDEF | _FPU | _INVCTX | _INVOP | _MALLOC
# the signals, in the order of the flags' dictionary and of the raised one's choice
_SIGNALS = ((InvalidOperation, _IEEE_INVALID), (FloatOperation, _FLOATOP), (DivisionByZero, _DIVZERO),
            (Overflow, _OVERFLOW), (Underflow, _UNDERFLOW), (Subnormal, _SUBNORMAL), (Inexact, _INEXACT),
            (Rounded, _ROUNDED), (Clamped, _CLAMPED))
_CONDITIONS = ((InvalidOperation, _INVOP), (ConversionSyntax, _CONV), (DivisionImpossible, _DIVIMP),
               (DivisionUndefined, _DIVUNDEF), (InvalidContext, _INVCTX))
# a context's repr names its bits in their order
_BIT_NAMES = ('Clamped', 'InvalidOperation', 'DivisionByZero', 'InvalidOperation', 'InvalidOperation',
              'InvalidOperation', 'Inexact', 'InvalidOperation', 'InvalidOperation', 'InvalidOperation',
              'FloatOperation', 'Overflow', 'Rounded', 'Subnormal', 'Underflow')


def _signal_mask(sig):
    for s, m in _SIGNALS:
        if s is sig:
            return m
    raise KeyError(sig)


def _mask_names(mask):
    names = []
    for i in range(len(_BIT_NAMES)):
        if mask & (1 << i) and _BIT_NAMES[i] not in names:
            names.append(_BIT_NAMES[i])
    return '[' + ', '.join(names) + ']'


def _mask_of(signals, dict_only=False):
    """A context's flags or traps given as a list of signals or a dict (only
    a dict when assigned to the attribute)."""
    mask = 0
    if dict_only and not isinstance(signals, (dict, _SignalDict)):
        raise TypeError('argument must be a signal dict')
    if isinstance(signals, dict) or isinstance(signals, _SignalDict):
        keys = [k for k in signals if signals[k]]
        if isinstance(signals, dict) and len(signals) != len(_SIGNALS):
            raise KeyError('invalid signal dict')
    else:
        keys = list(signals)
    for k in keys:
        mask |= _signal_mask(k)
    return mask


class _SignalDict:
    """A context's flags or traps as a dictionary of the signals."""
    __slots__ = ('_ctx', '_attr')

    def __init__(self, ctx, attr):
        self._ctx = ctx
        self._attr = attr

    def __getitem__(self, sig):
        return bool(getattr(self._ctx, self._attr) & _signal_mask(sig))

    def __setitem__(self, sig, value):
        m = _signal_mask(sig)
        v = getattr(self._ctx, self._attr)
        setattr(self._ctx, self._attr, (v | m) if value else (v & ~m))

    def __delitem__(self, sig):
        raise ValueError('signal keys cannot be deleted')

    def __iter__(self):
        return iter([s for s, m in _SIGNALS])

    def __len__(self):
        return len(_SIGNALS)

    def __contains__(self, sig):
        return any(s is sig for s, m in _SIGNALS)

    def keys(self):
        return [s for s, m in _SIGNALS]

    def values(self):
        return [self[s] for s, m in _SIGNALS]

    def items(self):
        return [(s, self[s]) for s, m in _SIGNALS]

    def get(self, sig, default=None):
        return self[sig] if sig in self else default

    def copy(self):
        return dict(self.items())

    def __eq__(self, other):
        if isinstance(other, _SignalDict) or isinstance(other, dict):
            return dict(self.items()) == dict(other.items())
        return NotImplemented

    def __repr__(self):
        return '{' + ', '.join('%r:%s' % (s, self[s]) for s, m in _SIGNALS) + '}'


def _ranged(name, lo, hi, message):
    """A context's integer attribute, checked as CPython's."""
    def get(self):
        return getattr(self, '_' + name)

    def set(self, v):
        if not isinstance(v, int):
            raise TypeError('an integer is required')
        if not lo <= v <= hi:
            raise ValueError(message)
        setattr(self, '_' + name, int(v))
    return property(get, set)


def _check_rounding(v):
    if not isinstance(v, str) or v not in _ROUNDINGS:
        raise TypeError('valid values for rounding are:\n  [ROUND_CEILING, ROUND_FLOOR, ROUND_UP, ROUND_DOWN,\n'
                        '   ROUND_HALF_UP, ROUND_HALF_DOWN, ROUND_HALF_EVEN,\n   ROUND_05UP]')
    return v


def _signals_property(mask_attr):
    """A context's flags or traps: a live dictionary over its bit mask, settable."""
    def get(self):
        return _SignalDict(self, mask_attr)

    def set(self, v):
        setattr(self, mask_attr, _mask_of(v, True))
    return property(get, set)


class Context:
    """The environment of the arithmetic: precision, rounding, exponent limits,
    flags and traps."""

    def __init__(self, prec=None, rounding=None, Emin=None, Emax=None, capitals=None, clamp=None,
                 flags=None, traps=None):
        t = DefaultContext if DefaultContext is not None else None
        self._prec, self._rounding = 28, ROUND_HALF_EVEN
        self._Emin, self._Emax, self._capitals, self._clamp = -999999, 999999, 1, 0
        self._flags = 0
        self._traps = _IEEE_INVALID | _DIVZERO | _OVERFLOW
        if t is not None:
            self._prec, self._rounding, self._Emin, self._Emax = t._prec, t._rounding, t._Emin, t._Emax
            self._capitals, self._clamp, self._traps = t._capitals, t._clamp, t._traps
        for name, v in (('prec', prec), ('rounding', rounding), ('Emin', Emin), ('Emax', Emax),
                        ('capitals', capitals), ('clamp', clamp)):
            if v is not None:
                setattr(self, name, v)
        if flags is not None:
            self._flags = _mask_of(flags)
        if traps is not None:
            self._traps = _mask_of(traps)

    prec = _ranged('prec', 1, MAX_PREC, 'valid range for prec is [1, MAX_PREC]')
    Emin = _ranged('Emin', MIN_EMIN, 0, 'valid range for Emin is [MIN_EMIN, 0]')
    Emax = _ranged('Emax', 0, MAX_EMAX, 'valid range for Emax is [0, MAX_EMAX]')
    capitals = _ranged('capitals', 0, 1, 'valid values for capitals are 0 or 1')
    clamp = _ranged('clamp', 0, 1, 'valid values for clamp are 0 or 1')

    @property
    def rounding(self):
        return self._rounding

    @rounding.setter
    def rounding(self, v):
        self._rounding = _check_rounding(v)

    flags = _signals_property('_flags')
    traps = _signals_property('_traps')

    def __repr__(self):
        return ('Context(prec=%d, rounding=%s, Emin=%d, Emax=%d, capitals=%d, clamp=%d, flags=%s, traps=%s)'
                % (self._prec, self._rounding, self._Emin, self._Emax, self._capitals, self._clamp,
                   _mask_names(self._flags), _mask_names(self._traps)))

    def __reduce__(self):
        return (Context, (self._prec, self._rounding, self._Emin, self._Emax, self._capitals, self._clamp,
                          [s for s, m in _SIGNALS if self._flags & m], [s for s, m in _SIGNALS if self._traps & m]))

    def copy(self):
        c = Context.__new__(Context)
        c._prec, c._rounding, c._Emin, c._Emax = self._prec, self._rounding, self._Emin, self._Emax
        c._capitals, c._clamp, c._flags, c._traps = self._capitals, self._clamp, self._flags, self._traps
        return c

    __copy__ = copy

    def clear_flags(self):
        self._flags = 0

    def clear_traps(self):
        self._traps = 0

    def Etiny(self):
        return self._Emin - self._prec + 1

    def Etop(self):
        return self._Emax - self._prec + 1

    def radix(self):
        return Decimal(10)

    def _raise(self, status):
        """Records status as flags; raises the first trapped signal."""
        if not status:
            return
        self._flags |= status
        hit = status & self._traps
        if hit:
            lst = [c for c, m in _CONDITIONS if hit & m] + [s for s, m in _SIGNALS[1:] if hit & m]
            for s, m in _SIGNALS:
                if hit & m:
                    raise s(lst)

    def create_decimal(self, num='0'):
        st = [0]
        d = _convert_value(num, self, st, True)
        if d._spec == 0:
            d = _fix(d._sign, d._int, d._exp, self, st)
        elif d._spec in 'nN' and len(str(d._int)) > self._prec - self._clamp and d._int:
            st[0] |= _CONV
            d = _NAN
        self._raise(st[0])
        return d

    def create_decimal_from_float(self, f):
        st = [0]
        d = Decimal.from_float(f)
        if d._spec == 0:
            d = _fix(d._sign, d._int, d._exp, self, st)
        self._raise(st[0])
        return d

    def _op(self, a, name, *rest):
        return getattr(_context_operand(a, self), name)(*rest, context=self)

    def abs(self, a): return self._op(a, '__abs__')
    def add(self, a, b): return self._op(a, '_add', _context_operand(b, self))
    def subtract(self, a, b): return self._op(a, '_sub', _context_operand(b, self))
    def multiply(self, a, b): return self._op(a, '_mul', _context_operand(b, self))
    def divide(self, a, b): return self._op(a, '_div', _context_operand(b, self))
    def divide_int(self, a, b): return self._op(a, '_floordiv', _context_operand(b, self))
    def remainder(self, a, b): return self._op(a, '_mod', _context_operand(b, self))
    def divmod(self, a, b): return self._op(a, '_divmod', _context_operand(b, self))
    def power(self, a, b, modulo=None): return self._op(a, '_pow', _context_operand(b, self), modulo)
    def compare(self, a, b): return self._op(a, 'compare', _context_operand(b, self))
    def max(self, a, b): return self._op(a, 'max', _context_operand(b, self))
    def min(self, a, b): return self._op(a, 'min', _context_operand(b, self))
    def fma(self, a, b, c): return self._op(a, 'fma', b, c)
    def minus(self, a): return self._op(a, '__neg__')
    def plus(self, a): return self._op(a, '__pos__')
    def sqrt(self, a): return self._op(a, 'sqrt')
    def exp(self, a): return self._op(a, 'exp')
    def ln(self, a): return self._op(a, 'ln')
    def log10(self, a): return self._op(a, 'log10')
    def logb(self, a): return self._op(a, 'logb')
    def scaleb(self, a, b): return self._op(a, 'scaleb', _context_operand(b, self))
    def normalize(self, a): return self._op(a, 'normalize')
    def quantize(self, a, b): return self._op(a, 'quantize', _context_operand(b, self))
    def remainder_near(self, a, b): return self._op(a, 'remainder_near', _context_operand(b, self))
    def to_integral_value(self, a): return self._op(a, 'to_integral_value', None)
    def to_integral_exact(self, a): return self._op(a, 'to_integral_exact', None)
    to_integral = to_integral_value
    def to_sci_string(self, a): return _context_operand(a, self)._to_str(self._capitals)
    def to_eng_string(self, a): return _context_operand(a, self).to_eng_string(self)
    def is_finite(self, a): return _context_operand(a, self).is_finite()
    def is_infinite(self, a): return _context_operand(a, self).is_infinite()
    def is_nan(self, a): return _context_operand(a, self).is_nan()
    def is_zero(self, a): return _context_operand(a, self).is_zero()
    def is_signed(self, a): return _context_operand(a, self).is_signed()
    def is_normal(self, a): return _context_operand(a, self).is_normal(self)
    def is_subnormal(self, a): return _context_operand(a, self).is_subnormal(self)
    def copy_abs(self, a): return _context_operand(a, self).copy_abs()
    def copy_negate(self, a): return _context_operand(a, self).copy_negate()
    def copy_sign(self, a, b): return _context_operand(a, self).copy_sign(_context_operand(b, self))
    def copy_decimal(self, a): return _context_operand(a, self)
    def number_class(self, a): return _context_operand(a, self).number_class(self)
    def same_quantum(self, a, b): return _context_operand(a, self).same_quantum(_context_operand(b, self))
    def compare_signal(self, a, b): return self._op(a, 'compare_signal', _context_operand(b, self))
    def compare_total(self, a, b): return _context_operand(a, self).compare_total(_context_operand(b, self))
    def compare_total_mag(self, a, b): return _context_operand(a, self).compare_total_mag(_context_operand(b, self))
    def max_mag(self, a, b): return self._op(a, 'max_mag', _context_operand(b, self))
    def min_mag(self, a, b): return self._op(a, 'min_mag', _context_operand(b, self))
    def next_plus(self, a): return self._op(a, 'next_plus')
    def next_minus(self, a): return self._op(a, 'next_minus')
    def next_toward(self, a, b): return self._op(a, 'next_toward', _context_operand(b, self))
    def logical_and(self, a, b): return self._op(a, 'logical_and', _context_operand(b, self))
    def logical_or(self, a, b): return self._op(a, 'logical_or', _context_operand(b, self))
    def logical_xor(self, a, b): return self._op(a, 'logical_xor', _context_operand(b, self))
    def logical_invert(self, a): return self._op(a, 'logical_invert')
    def rotate(self, a, b): return self._op(a, 'rotate', _context_operand(b, self))
    def shift(self, a, b): return self._op(a, 'shift', _context_operand(b, self))
    def is_qnan(self, a): return _context_operand(a, self).is_qnan()
    def is_snan(self, a): return _context_operand(a, self).is_snan()
    def is_canonical(self, a): return _decimal_argument(a).is_canonical()
    def canonical(self, a): return _decimal_argument(a).canonical()


def _decimal_argument(a):
    if not isinstance(a, Decimal):
        raise TypeError('argument must be a Decimal')
    return a


def _context_operand(a, ctx):
    if isinstance(a, Decimal):
        return a
    if isinstance(a, int):
        return _from_int(a)
    raise TypeError('conversion from %s to Decimal is not supported' % type(a).__name__)


DefaultContext = None
DefaultContext = Context()
BasicContext = Context(prec=9, rounding=ROUND_HALF_UP, traps=[Clamped, InvalidOperation, DivisionByZero,
                                                              Overflow, Underflow])
ExtendedContext = Context(prec=9, traps=[])
_current = None


def getcontext():
    global _current
    if _current is None:
        _current = DefaultContext.copy()
    return _current


def setcontext(context):
    global _current
    if not isinstance(context, Context):
        raise TypeError('argument must be a context')
    if context is DefaultContext or context is BasicContext or context is ExtendedContext:
        context = context.copy()
        context.clear_flags()
    _current = context


_CONTEXT_KEYS = ('prec', 'rounding', 'Emin', 'Emax', 'capitals', 'clamp', 'flags', 'traps')


class _ContextManager:
    def __init__(self, ctx):
        self.new_context = ctx

    def __enter__(self):
        self.saved_context = getcontext()
        setcontext(self.new_context)
        return self.new_context

    def __exit__(self, *exc):
        setcontext(self.saved_context)


def localcontext(ctx=None, **kwargs):
    if ctx is None:
        ctx = getcontext()
    elif not isinstance(ctx, Context):
        raise TypeError('optional argument must be a context')
    ctx = ctx.copy()
    for k, v in kwargs.items():
        if k not in _CONTEXT_KEYS:
            raise TypeError("'%s' is an invalid keyword argument for this function" % k)
        setattr(ctx, k, v)
    return _ContextManager(ctx)


def _ctx(context):
    if context is None:
        return getcontext()
    if not isinstance(context, Context):
        raise TypeError('optional argument must be a context')
    return context


# ---- construction -------------------------------------------------------

def _mk(sign, coef, exp, spec=0):
    d = object.__new__(Decimal)
    d._sign = sign
    d._int = coef
    d._exp = exp
    d._spec = spec
    return d


def _from_int(n):
    n = int(n)
    return _mk(1 if n < 0 else 0, -n if n < 0 else n, 0)


def _ndigits(c):
    return len(str(c)) if c else 1


_DIGITS = '0123456789'


def _parse(s):
    """(sign, coef, exp, spec) of a numeric string, or None."""
    # as CPython's C module: outer whitespace stripped, every underscore
    # dropped, Unicode decimal digits read as their ASCII ones
    s = s.strip().replace('_', '')
    if not s.isascii():
        import unicodedata
        s = ''.join(str(unicodedata.decimal(ch)) if ch.isdecimal() else ch for ch in s)
    sign = 0
    if s[:1] in ('+', '-'):
        sign = 1 if s[0] == '-' else 0
        s = s[1:]
    low = s.lower()
    if low in ('inf', 'infinity'):
        return (sign, 0, 'F', 'F')
    for pre, spec in (('nan', 'n'), ('snan', 'N')):
        if low.startswith(pre):
            pay = low[len(pre):]
            if pay and not all(ch in _DIGITS for ch in pay):
                return None
            return (sign, int(pay) if pay else 0, spec, spec)
    mant, e = low, 0
    k = low.find('e')
    if k >= 0:
        mant, es = low[:k], low[k + 1:]
        t = es[1:] if es[:1] in ('+', '-') else es
        if not t or not all(ch in _DIGITS for ch in t):
            return None
        e = int(es)
    ip, dot, fp = mant.partition('.')
    if not (ip or fp) or not all(ch in _DIGITS for ch in ip) or not all(ch in _DIGITS for ch in fp):
        return None
    return (sign, int(ip + fp), e - len(fp), 0)


def _convert_value(value, ctx, st, from_context=False):
    if isinstance(value, Decimal):
        return value
    if isinstance(value, str):
        r = _parse(value)
        if r is None:
            st[0] |= _CONV
            return _NAN
        return _mk(r[0], r[1], r[2], r[3])
    if isinstance(value, int):
        return _from_int(value)
    if isinstance(value, float):
        st[0] |= _FLOATOP
        return Decimal.from_float(value)
    if isinstance(value, (tuple, list)):
        return _from_tuple(value)
    raise TypeError('conversion from %s to Decimal is not supported' % type(value).__name__)


def _from_tuple(t):
    if len(t) != 3:
        raise ValueError('argument must be a sequence of length 3')
    sign, digits, exp = t
    if not (isinstance(sign, int) and sign in (0, 1)):
        raise ValueError('sign must be an integer with the value 0 or 1')
    if isinstance(exp, str):
        if exp not in ('F', 'n', 'N'):
            raise ValueError("string argument in the third position must be 'F', 'n' or 'N'")
        spec = exp
    elif isinstance(exp, int):
        spec = 0
    else:
        raise ValueError('exponent must be an integer')
    if not isinstance(digits, (tuple, list)):
        raise ValueError('coefficient must be a tuple of digits')
    coef = 0
    for dg in digits:
        if not isinstance(dg, int) or not 0 <= dg <= 9:
            raise ValueError('coefficient must be a tuple of digits')
        coef = coef * 10 + dg
    if spec == 'F':
        return _mk(sign, 0, 'F', 'F')
    return _mk(sign, coef, exp if spec == 0 else spec, spec)


# ---- rounding and the context's limits ----------------------------------

def _round_coef(coef, k, sign, rounding):
    """coef with its k last digits rounded away: (new coefficient, inexact)."""
    p = 10 ** k
    q, r = divmod(coef, p)
    if r == 0:
        return q, False
    if rounding == ROUND_HALF_EVEN:
        inc = 2 * r > p or (2 * r == p and q & 1)
    elif rounding == ROUND_HALF_UP:
        inc = 2 * r >= p
    elif rounding == ROUND_HALF_DOWN:
        inc = 2 * r > p
    elif rounding == ROUND_DOWN:
        inc = False
    elif rounding == ROUND_UP:
        inc = True
    elif rounding == ROUND_CEILING:
        inc = sign == 0
    elif rounding == ROUND_FLOOR:
        inc = sign == 1
    else:
        inc = q % 5 == 0
    return (q + 1 if inc else q), True


def _overflow(sign, ctx, st, rounding):
    st[0] |= _OVERFLOW | _INEXACT | _ROUNDED
    if rounding in (ROUND_HALF_UP, ROUND_HALF_EVEN, ROUND_HALF_DOWN, ROUND_UP) or \
            (rounding == ROUND_CEILING and sign == 0) or (rounding == ROUND_FLOOR and sign == 1):
        return _mk(sign, 0, 'F', 'F')
    return _mk(sign, 10 ** ctx._prec - 1, ctx._Emax - ctx._prec + 1)


def _fix(sign, coef, exp, ctx, st, rounding=None):
    """The finite value rounded to the context's precision and exponent range."""
    prec, Emax = ctx._prec, ctx._Emax
    Etiny, Etop = ctx._Emin - prec + 1, Emax - prec + 1
    if rounding is None:
        rounding = ctx._rounding
    if coef == 0:
        e = min(max(exp, Etiny), Etop if ctx._clamp else Emax)
        if e != exp:
            st[0] |= _CLAMPED
        return _mk(sign, 0, e)
    n = _ndigits(coef)
    adj = exp + n - 1
    if adj > Emax:
        return _overflow(sign, ctx, st, rounding)
    sub = adj < ctx._Emin
    new_exp = max(adj - prec + 1, Etiny)
    if exp < new_exp:
        coef, inexact = _round_coef(coef, new_exp - exp, sign, rounding)
        exp = new_exp
        st[0] |= _ROUNDED
        if _ndigits(coef) > prec:
            coef //= 10
            exp += 1
            if exp > Etop:
                return _overflow(sign, ctx, st, rounding)
        if inexact:
            st[0] |= _INEXACT
            if sub:
                st[0] |= _UNDERFLOW
                if coef == 0:
                    st[0] |= _CLAMPED
    if sub:
        st[0] |= _SUBNORMAL
    if ctx._clamp and exp > Etop and coef:
        coef *= 10 ** (exp - Etop)
        exp = Etop
        st[0] |= _CLAMPED
    return _mk(sign, coef, exp)


def _nan_result(a, b, st):
    """The NaN an operation on a NaN operand gives, or None."""
    for x in (a, b):
        if x is not None and x._spec == 'N':
            st[0] |= _INVOP
            return _mk(x._sign, x._int, 'n', 'n')
    for x in (a, b):
        if x is not None and x._spec == 'n':
            return x
    return None


def _invalid(st, bit=_INVOP):
    st[0] |= bit
    return _NAN


def _as_operand(other):
    if isinstance(other, Decimal):
        return other
    if isinstance(other, int):
        return _from_int(other)
    return None


def _operand(other):
    """other as a Decimal (an int converts), else the TypeError CPython raises."""
    o = _as_operand(other)
    if o is None:
        raise TypeError('conversion from %s to Decimal is not supported' % type(other).__name__)
    return o


_TOTAL_RANK = {0: 0, 'F': 1, 'N': 2, 'n': 3}


def _total_unsigned(a, b):
    """The total order of two Decimals of one sign, as if positive: finite numbers
    by value then exponent, below infinity, below sNaN, below NaN (by payload)."""
    ra, rb = _TOTAL_RANK[a._spec], _TOTAL_RANK[b._spec]
    if ra != rb:
        return (ra > rb) - (ra < rb)
    if ra == 0:
        c = a.copy_abs()._cmp(b.copy_abs())
        return c or (a._exp > b._exp) - (a._exp < b._exp)
    return 0 if ra == 1 else (a._int > b._int) - (a._int < b._int)


def _is_logical(d):
    return d._spec == 0 and d._sign == 0 and d._exp == 0 and set(str(d._int)) <= {'0', '1'}


def _prec_digits(coef, prec):
    """The coefficient's digits as exactly prec of them: zeros in front, or its last prec."""
    digits = str(coef)
    return digits[-prec:] if len(digits) > prec else '0' * (prec - len(digits)) + digits


def _type_error(op, a, b):
    def name(x):
        return 'decimal.Decimal' if isinstance(x, Decimal) else type(x).__name__
    return TypeError("unsupported operand type(s) for %s: '%s' and '%s'" % (op, name(a), name(b)))


def _builtin(x):
    return type(x).__module__ == 'builtins'


# ---- integer fixed-point functions for exp, ln, log10 and power ---------

def _atanh_inv(n, scale):
    """atanh(1/n) * scale."""
    total = term = scale // n
    n2 = n * n
    k = 1
    while term:
        term //= n2
        k += 2
        total += term // k
    return total


_LN_CACHE = {}


def _ln2_ln10(w):
    """(ln 2, ln 10) * 10**w, each within a few units."""
    r = _LN_CACHE.get(w)
    if r is None:
        s = 10 ** (w + 5)
        ln2 = 2 * _atanh_inv(3, s)
        ln10 = 3 * ln2 + 2 * _atanh_inv(9, s)
        r = (ln2 // 10 ** 5, ln10 // 10 ** 5)
        _LN_CACHE[w] = r
    return r


def _ln_fixed(coef, exp, w):
    """ln(coef * 10**exp) * 10**w, within 20 units."""
    nd = _ndigits(coef)
    E = exp + nd - 1
    g = 8 + len(str(abs(E)))
    W = w + g
    S = 10 ** W
    M = coef * S // 10 ** (nd - 1)              # the mantissa in [1, 10)
    j = 0
    while M >= 3 * S // 2:
        M //= 2
        j += 1
    # ln(M/S) = 2 atanh(z), z = (M - S) / (M + S), |z| <= 0.2
    neg = M < S
    Z = abs(M - S) * S // (M + S)
    Z2 = Z * Z // S
    total = term = Z
    k = 1
    while term:
        term = term * Z2 // S
        k += 2
        total += term // k
    if neg:
        total = -total
    ln2, ln10 = _ln2_ln10(W)
    return (2 * total + j * ln2 + E * ln10) // 10 ** g


def _exp_fixed(T, w):
    """exp(T / 10**w) as (M, e): M * 10**e within M / 10**(w-2) relative, M having about w digits."""
    ln2, ln10 = _ln2_ln10(w + 10)
    S = 10 ** (w + 10)
    T10 = T * 10 ** 10
    n = T10 // ln10
    r = T10 - n * ln10                          # in [0, ln 10)
    s = 12
    R = r >> s
    total = term = S
    k = 0
    while term:
        k += 1
        term = term * R // (S * k)
        total += term
    for i in range(s):
        total = total * total // S
    return total, n - (w + 10)


def _ziv(sign, M, err, exp, ctx, st, rounding=ROUND_HALF_EVEN):
    """The value M * 10**exp, known within err units, rounded for the
    context if the whole interval rounds alike, else None."""
    lo, hi = M - err, M + err
    if lo <= 0:
        return None
    t = [0]
    a = _fix(sign, lo, exp, ctx, t, rounding)
    b = _fix(sign, hi, exp, ctx, t, rounding)
    if a._spec != b._spec or a._int != b._int or a._exp != b._exp:
        return None
    return _fix(sign, M * 10 + 1, exp - 1, ctx, st, rounding)


# ---- the Decimal type ------------------------------------------------------

class Decimal:
    """Floating-point decimal number: Decimal('3.14'), Decimal(7), Decimal(0.1),
    Decimal((0, (3, 1, 4), -2))."""
    __slots__ = ('_sign', '_int', '_exp', '_spec')

    def __new__(cls, value='0', context=None):
        ctx = _ctx(context)
        st = [0]
        d = _convert_value(value, ctx, st)
        ctx._raise(st[0])
        if cls is Decimal:
            return d
        self = object.__new__(cls)
        self._sign, self._int, self._exp, self._spec = d._sign, d._int, d._exp, d._spec
        return self

    @classmethod
    def from_float(cls, f):
        if isinstance(f, int):
            d = _from_int(f)
        elif not isinstance(f, float):
            raise TypeError('argument must be int or float')
        elif f != f:
            d = _mk(1 if _math.copysign(1.0, f) < 0 else 0, 0, 'n', 'n')
        elif f in (float('inf'), float('-inf')):
            d = _mk(1 if f < 0 else 0, 0, 'F', 'F')
        else:
            sign = 1 if _math.copysign(1.0, f) < 0 else 0
            n, den = abs(f).as_integer_ratio()
            k = den.bit_length() - 1
            d = _mk(sign, n * 5 ** k, -k)
        return d if cls is Decimal else cls(d)

    # -- the value's parts
    def as_tuple(self):
        if self._spec == 'F':
            digits = (0,)
        else:
            digits = tuple(int(ch) for ch in str(self._int)) if (self._int or self._spec == 0) else ()
        return DecimalTuple(self._sign, digits, self._exp)

    def as_integer_ratio(self):
        if self._spec:
            if self._spec == 'F':
                raise OverflowError('cannot convert Infinity to integer ratio')
            raise ValueError('cannot convert NaN to integer ratio')
        if self._exp >= 0:
            n, d = self._int * 10 ** self._exp, 1
        else:
            n, d = self._int, 10 ** -self._exp
            g = _math.gcd(n, d)
            n, d = n // g, d // g
        return (-n if self._sign else n), d

    def adjusted(self):
        if self._spec:
            return 0
        return self._exp + _ndigits(self._int) - 1

    def canonical(self):
        return self

    def radix(self):
        return Decimal(10)

    def is_nan(self): return self._spec in ('n', 'N')
    def is_qnan(self): return self._spec == 'n'
    def is_snan(self): return self._spec == 'N'
    def is_infinite(self): return self._spec == 'F'
    def is_finite(self): return self._spec == 0
    def is_signed(self): return self._sign == 1
    def is_zero(self): return self._spec == 0 and self._int == 0
    def is_canonical(self): return True

    def is_normal(self, context=None):
        ctx = _ctx(context)
        return self._spec == 0 and self._int != 0 and self.adjusted() >= ctx._Emin

    def is_subnormal(self, context=None):
        ctx = _ctx(context)
        return self._spec == 0 and self._int != 0 and self.adjusted() < ctx._Emin

    def number_class(self, context=None):
        ctx = _ctx(context)
        if self._spec == 'N':
            return 'sNaN'
        if self._spec == 'n':
            return 'NaN'
        s = '-' if self._sign else '+'
        if self._spec == 'F':
            return s + 'Infinity'
        if self._int == 0:
            return s + 'Zero'
        return s + ('Subnormal' if self.adjusted() < ctx._Emin else 'Normal')

    def copy_abs(self): return _mk(0, self._int, self._exp, self._spec)
    def copy_negate(self): return _mk(1 - self._sign, self._int, self._exp, self._spec)

    def copy_sign(self, other, context=None):
        o = _as_operand(other)
        if o is None:
            raise TypeError('conversion from %s to Decimal is not supported' % type(other).__name__)
        return _mk(o._sign, self._int, self._exp, self._spec)

    def same_quantum(self, other, context=None):
        o = _as_operand(other)
        if self._spec or o._spec:
            return (self.is_nan() and o.is_nan()) or (self._spec == 'F' and o._spec == 'F')
        return self._exp == o._exp

    @property
    def real(self):
        return self

    @property
    def imag(self):
        return Decimal(0)

    def conjugate(self):
        return self

    # -- strings
    def _to_str(self, capitals, eng=False):
        sign = '-' if self._sign else ''
        if self._spec == 'F':
            return sign + 'Infinity'
        if self._spec:
            return sign + ('NaN' if self._spec == 'n' else 'sNaN') + (str(self._int) if self._int else '')
        digits = str(self._int)
        exp = self._exp
        leftdigits = exp + len(digits)
        if exp <= 0 and leftdigits > -6:
            dotplace = leftdigits
        elif not eng:
            dotplace = 1
        elif self._int == 0:
            dotplace = (leftdigits + 1) % 3 - 1
        else:
            dotplace = (leftdigits - 1) % 3 + 1
        if dotplace <= 0:
            intpart, frac = '0', '.' + '0' * -dotplace + digits
        elif dotplace >= len(digits):
            intpart, frac = digits + '0' * (dotplace - len(digits)), ''
        else:
            intpart, frac = digits[:dotplace], '.' + digits[dotplace:]
        e = leftdigits - dotplace
        ex = '' if e == 0 else ('E' if capitals else 'e') + ('%+d' % e)
        return sign + intpart + frac + ex

    def __str__(self, eng=False, context=None):
        return self._to_str(_ctx(context)._capitals, eng)

    def __repr__(self):
        return "Decimal('%s')" % self._to_str(getcontext()._capitals)

    def to_eng_string(self, context=None):
        return self._to_str(_ctx(context)._capitals, True)

    def __format__(self, spec, _localeconv=None):
        return _format(self, spec)

    # -- conversions
    def __bool__(self):
        return self._spec != 0 or self._int != 0

    def _check_int(self):
        if self._spec in ('n', 'N'):
            raise ValueError('cannot convert NaN to integer')
        if self._spec == 'F':
            raise OverflowError('cannot convert Infinity to integer')

    def __int__(self):
        self._check_int()
        v = self._int * 10 ** self._exp if self._exp >= 0 else self._int // 10 ** -self._exp
        return -v if self._sign else v

    __trunc__ = __int__

    def _integral(self, rounding):
        self._check_int()
        return int(self._rescale(0, rounding))

    def __floor__(self):
        return self._integral(ROUND_FLOOR)

    def __ceil__(self):
        return self._integral(ROUND_CEILING)

    def __round__(self, n=None):
        if n is not None:
            if not isinstance(n, int):
                raise TypeError('optional arg must be an integer')
            return self.quantize(_mk(0, 1, -n))
        if self._spec in ('n', 'N'):
            raise ValueError('cannot round a NaN')
        if self._spec == 'F':
            raise OverflowError('cannot round an infinity')
        return int(self._rescale(0, ROUND_HALF_EVEN))

    def __float__(self):
        if self._spec == 'N':
            raise ValueError('cannot convert signaling NaN to float')
        if self._spec == 'n':
            return float('-nan') if self._sign else float('nan')
        return float(self._to_str(1))

    def __complex__(self):
        return complex(float(self))

    def __reduce__(self):
        return (self.__class__, (str(self),))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __hash__(self):
        if self._spec:
            if self._spec == 'N':
                raise TypeError('Cannot hash a signaling NaN value')
            if self._spec == 'n':
                return object.__hash__(self)
            return -314159 if self._sign else 314159
        P = _HASH_MODULUS
        if self._exp >= 0:
            h = self._int * pow(10, self._exp, P) % P
        else:
            h = self._int * pow(_HASH_10INV, -self._exp, P) % P
        if self._sign:
            h = -h
        return -2 if h == -1 else h

    # -- rescaling
    def _rescale(self, exp, rounding):
        """The same value with exponent exp, rounded (no flags)."""
        if self._spec:
            return self
        if exp <= self._exp:
            return _mk(self._sign, self._int * 10 ** (self._exp - exp), exp)
        coef, inexact = _round_coef(self._int, exp - self._exp, self._sign, rounding)
        return _mk(self._sign, coef, exp)

    def quantize(self, exp, rounding=None, context=None):
        ctx = _ctx(context)
        o = _as_operand(exp)
        if o is None:
            raise TypeError('conversion from %s to Decimal is not supported' % type(exp).__name__)
        rounding = ctx._rounding if rounding is None else _check_rounding(rounding)
        st = [0]
        r = self._quantize(o, rounding, ctx, st)
        ctx._raise(st[0])
        return r

    def _quantize(self, o, rounding, ctx, st):
        n = _nan_result(self, o, st)
        if n is not None:
            return n
        if self._spec == 'F' or o._spec == 'F':
            if self._spec == 'F' and o._spec == 'F':
                return self
            return _invalid(st)
        e = o._exp
        if not (ctx._Emin - ctx._prec + 1 <= e <= ctx._Emax):
            return _invalid(st)
        if self._int == 0:
            return _mk(self._sign, 0, e)
        if self.adjusted() - e + 1 > ctx._prec:
            return _invalid(st)
        ans = self._rescale(e, rounding)
        if _ndigits(ans._int) > ctx._prec or (ans._int and ans.adjusted() > ctx._Emax):
            return _invalid(st)
        if ans._int and ans.adjusted() < ctx._Emin:
            st[0] |= _SUBNORMAL
        if ans._exp > self._exp:
            if ans._int * 10 ** (ans._exp - self._exp) != self._int:
                st[0] |= _INEXACT
            st[0] |= _ROUNDED
        return ans

    def to_integral_value(self, rounding=None, context=None):
        ctx = _ctx(context)
        st = [0]
        n = _nan_result(self, None, st)
        ctx._raise(st[0])
        if n is not None:
            return n
        if self._spec or self._exp >= 0:
            return self
        return self._rescale(0, rounding or ctx._rounding)

    to_integral = to_integral_value

    def to_integral_exact(self, rounding=None, context=None):
        ctx = _ctx(context)
        st = [0]
        n = _nan_result(self, None, st)
        if n is None and not self._spec and self._exp < 0:
            n = self._rescale(0, rounding or ctx._rounding)
            st[0] |= _ROUNDED
            if n._int * 10 ** -self._exp != self._int:
                st[0] |= _INEXACT
        ctx._raise(st[0])
        return self if n is None else n

    def normalize(self, context=None):
        ctx = _ctx(context)
        st = [0]
        n = _nan_result(self, None, st)
        if n is None:
            if self._spec:
                n = self
            else:
                d = _fix(self._sign, self._int, self._exp, ctx, st)
                if d._spec or d._int == 0:
                    n = d if d._spec else _mk(d._sign, 0, 0)
                else:
                    c, e = d._int, d._exp
                    top = ctx._Emax - ctx._prec + 1 if ctx._clamp else ctx._Emax
                    while c % 10 == 0 and e < top:
                        c //= 10
                        e += 1
                    n = _mk(d._sign, c, e)
        ctx._raise(st[0])
        return n

    # -- comparison
    def _cmp(self, o):
        """-1, 0 or 1 for two non-NaN Decimals."""
        if self._spec == 'F' or o._spec == 'F':
            a = 0 if self._spec != 'F' else (-1 if self._sign else 1)
            b = 0 if o._spec != 'F' else (-1 if o._sign else 1)
            return (a > b) - (a < b)
        if self._int == 0:
            if o._int == 0:
                return 0
            return 1 if o._sign else -1
        if o._int == 0:
            return -1 if self._sign else 1
        if self._sign != o._sign:
            return -1 if self._sign else 1
        s = -1 if self._sign else 1
        a, b = self.adjusted(), o.adjusted()
        if a != b:
            return s if a > b else -s
        m = min(self._exp, o._exp)
        x, y = self._int * 10 ** (self._exp - m), o._int * 10 ** (o._exp - m)
        return 0 if x == y else (s if x > y else -s)

    def _compare_operand(self, other, ordering):
        """other as a Decimal for comparing, or a (numerator, denominator)
        pair for a Rational, or NotImplemented."""
        if isinstance(other, Decimal):
            return other
        if isinstance(other, int):
            return _from_int(other)
        if isinstance(other, float):
            ctx = getcontext()
            ctx._flags |= _FLOATOP
            if ordering:
                ctx._raise(_FLOATOP)
            return Decimal.from_float(other)
        if isinstance(other, complex) and not ordering and other.imag == 0:
            return self._compare_operand(other.real, ordering)
        if isinstance(other, _numbers.Rational):
            return (other.numerator, other.denominator)
        return NotImplemented

    def _rich(self, other, ordering):
        o = self._compare_operand(other, ordering)
        if o is NotImplemented:
            return o
        if isinstance(o, tuple):
            if self._spec:
                return None if self._spec != 'F' else (-1 if self._sign else 1)
            n, d = self.as_integer_ratio()
            x, y = n * o[1], o[0] * d
            return (x > y) - (x < y)
        if self._spec in ('n', 'N') or o._spec in ('n', 'N'):
            if ordering or self._spec == 'N' or o._spec == 'N':
                getcontext()._raise(_INVOP)
            return None
        return self._cmp(o)

    def __eq__(self, other):
        c = self._rich(other, False)
        return c if c is NotImplemented else c == 0

    def __ne__(self, other):
        c = self._rich(other, False)
        return c if c is NotImplemented else c != 0

    def __lt__(self, other):
        c = self._rich(other, True)
        return c if c is NotImplemented else (c is not None and c < 0)

    def __le__(self, other):
        c = self._rich(other, True)
        return c if c is NotImplemented else (c is not None and c <= 0)

    def __gt__(self, other):
        c = self._rich(other, True)
        return c if c is NotImplemented else (c is not None and c > 0)

    def __ge__(self, other):
        c = self._rich(other, True)
        return c if c is NotImplemented else (c is not None and c >= 0)

    def compare(self, other, context=None):
        ctx = _ctx(context)
        o = _as_operand(other)
        st = [0]
        n = _nan_result(self, o, st)
        ctx._raise(st[0])
        if n is not None:
            return n
        return _from_int(self._cmp(o))

    def compare_signal(self, other, context=None):
        ctx = _ctx(context)
        o = _as_operand(other)
        if self.is_nan() or o.is_nan():
            ctx._raise(_INVOP)
            return _NAN
        return self.compare(o, ctx)

    def _minmax(self, other, context, want, magnitude=False):
        ctx = _ctx(context)
        o = _operand(other)
        st = [0]
        if self._spec == 'N' or o._spec == 'N':
            r = _nan_result(self, o, st)
        elif self.is_nan() and o.is_nan():
            r = self
        elif self.is_nan():
            r = o
        elif o.is_nan():
            r = self
        else:
            c = self.copy_abs()._cmp(o.copy_abs()) if magnitude else self._cmp(o)
            if c == 0:
                c = (o._sign - self._sign) or ((self._exp > o._exp) - (self._exp < o._exp)) * (-1 if self._sign else 1)
            r = self if c == want or c == 0 else o
        if r._spec == 0:
            r = _fix(r._sign, r._int, r._exp, ctx, st)
        ctx._raise(st[0])
        return r

    def max(self, other, context=None):
        return self._minmax(other, context, 1)

    def min(self, other, context=None):
        return self._minmax(other, context, -1)

    def max_mag(self, other, context=None):
        return self._minmax(other, context, 1, True)

    def min_mag(self, other, context=None):
        return self._minmax(other, context, -1, True)

    # -- the total order of the abstract representations (no context, no signals)
    def compare_total(self, other, context=None):
        o = _operand(other)
        if self._sign != o._sign:
            return _from_int(-1 if self._sign else 1)
        c = _total_unsigned(self, o)
        return _from_int(-c if self._sign else c)

    def compare_total_mag(self, other, context=None):
        return self.copy_abs().compare_total(_operand(other).copy_abs())

    # -- the neighbours in the context's set of numbers
    def _next(self, context, up):
        ctx = _ctx(context)
        st = [0]
        n = _nan_result(self, None, st)
        ctx._raise(st[0])
        if n is not None:
            return n
        if self._spec == 'F':
            if self._sign == (0 if up else 1):
                return self
            return _mk(self._sign, 10 ** ctx._prec - 1, ctx._Emax - ctx._prec + 1)
        nudge = ctx.copy()
        nudge._rounding = ROUND_CEILING if up else ROUND_FLOOR
        ignored = [0]  # the nudge's own conditions are not signalled
        r = _fix(self._sign, self._int, self._exp, nudge, ignored)
        if r._spec or r._cmp(self) != 0:
            return r
        tiny = _mk(0 if up else 1, 1, ctx._Emin - ctx._prec)
        return _plus(self, tiny, nudge, ignored)

    def next_plus(self, context=None):
        return self._next(context, True)

    def next_minus(self, context=None):
        return self._next(context, False)

    def next_toward(self, other, context=None):
        ctx = _ctx(context)
        o = _operand(other)
        st = [0]
        n = _nan_result(self, o, st)
        if n is None:
            c = self._cmp(o)
            if c == 0:
                return self.copy_sign(o)
            n = self._next(ctx, c < 0)
            if n._spec == 'F':
                st[0] |= _OVERFLOW | _INEXACT | _ROUNDED
            elif n.adjusted() < ctx._Emin:
                st[0] |= _UNDERFLOW | _SUBNORMAL | _INEXACT | _ROUNDED
                if n._int == 0:
                    st[0] |= _CLAMPED
        ctx._raise(st[0])
        return n

    # -- digit-wise operations on logical operands (finite, positive, exponent 0, digits 0 and 1)
    def _logical(self, other, context, bit):
        ctx = _ctx(context)
        o = self if other is None else _operand(other)
        if not (_is_logical(self) and _is_logical(o)):
            st = [_INVOP]
            ctx._raise(st[0])
            return _NAN
        a, b = _prec_digits(self._int, ctx._prec), _prec_digits(o._int, ctx._prec)
        digits = ''.join(str(bit(int(x), int(y))) for x, y in zip(a, b))
        return _mk(0, int(digits), 0)

    def logical_and(self, other, context=None):
        return self._logical(other, context, lambda x, y: x & y)

    def logical_or(self, other, context=None):
        return self._logical(other, context, lambda x, y: x | y)

    def logical_xor(self, other, context=None):
        return self._logical(other, context, lambda x, y: x ^ y)

    def logical_invert(self, context=None):
        return self._logical(None, context, lambda x, y: 1 - x)

    # -- moving the coefficient's digits within the context's precision
    def _move_digits(self, other, context, rotating):
        ctx = _ctx(context)
        o = _operand(other)
        st = [0]
        n = _nan_result(self, o, st)
        if n is None and (o._spec or o._exp != 0 or not -ctx._prec <= o._int <= ctx._prec):
            n = _invalid(st)
        ctx._raise(st[0])
        if n is not None:
            return n
        if self._spec == 'F':
            return self
        k, prec = -o._int if o._sign else o._int, ctx._prec
        digits = _prec_digits(self._int, prec)
        if rotating:
            moved = digits[k:] + digits[:k]
        else:
            moved = digits[:k] if k < 0 else (digits + '0' * k)[-prec:]
        return _mk(self._sign, int(moved or '0'), self._exp)

    def rotate(self, other, context=None):
        return self._move_digits(other, context, True)

    def shift(self, other, context=None):
        return self._move_digits(other, context, False)

    # -- arithmetic
    def _unary(self, context, sign):
        ctx = _ctx(context)
        st = [0]
        n = _nan_result(self, None, st)
        if n is None:
            if self._spec == 'F':
                n = _mk(sign, 0, 'F', 'F')
            else:
                if self._int == 0 and ctx._rounding != ROUND_FLOOR:
                    sign = 0
                n = _fix(sign, self._int, self._exp, ctx, st)
        ctx._raise(st[0])
        return n

    def __neg__(self, context=None):
        return self._unary(context, 1 - self._sign)

    def __pos__(self, context=None):
        return self._unary(context, self._sign)

    def __abs__(self, round=True, context=None):
        if not round:
            return self.copy_abs()
        return self._unary(context, 0)

    def _binary(self, other, fn, op, reflected, context=None):
        o = _as_operand(other)
        if o is None:
            if _builtin(other):
                raise _type_error(op, other, self) if reflected else _type_error(op, self, other)
            return NotImplemented
        a, b = (o, self) if reflected else (self, o)
        ctx = _ctx(context)
        st = [0]
        r = fn(a, b, ctx, st)
        ctx._raise(st[0])
        return r

    def _add(self, o, context=None): return self._binary(o, _plus, '+', False, context)
    def _sub(self, o, context=None): return self._binary(o, _minus, '-', False, context)
    def _mul(self, o, context=None): return self._binary(o, _mul, '*', False, context)
    def _div(self, o, context=None): return self._binary(o, _div, '/', False, context)
    def _floordiv(self, o, context=None): return self._binary(o, _floordiv, '//', False, context)
    def _mod(self, o, context=None): return self._binary(o, _mod, '%', False, context)
    def _divmod(self, o, context=None): return self._binary(o, _divmod, 'divmod()', False, context)

    def __add__(self, other, context=None): return self._binary(other, _plus, '+', False, context)
    def __radd__(self, other, context=None): return self._binary(other, _plus, '+', True, context)
    def __sub__(self, other, context=None): return self._binary(other, _minus, '-', False, context)
    def __rsub__(self, other, context=None): return self._binary(other, _minus, '-', True, context)
    def __mul__(self, other, context=None): return self._binary(other, _mul, '*', False, context)
    def __rmul__(self, other, context=None): return self._binary(other, _mul, '*', True, context)
    def __truediv__(self, other, context=None): return self._binary(other, _div, '/', False, context)
    def __rtruediv__(self, other, context=None): return self._binary(other, _div, '/', True, context)
    def __floordiv__(self, other, context=None): return self._binary(other, _floordiv, '//', False, context)
    def __rfloordiv__(self, other, context=None): return self._binary(other, _floordiv, '//', True, context)
    def __mod__(self, other, context=None): return self._binary(other, _mod, '%', False, context)
    def __rmod__(self, other, context=None): return self._binary(other, _mod, '%', True, context)
    def __divmod__(self, other, context=None): return self._binary(other, _divmod, 'divmod()', False, context)
    def __rdivmod__(self, other, context=None): return self._binary(other, _divmod, 'divmod()', True, context)

    def remainder_near(self, other, context=None):
        return self._binary(other, _remainder_near, 'remainder_near', False, context)

    def _pow(self, other, modulo=None, context=None):
        return self.__pow__(other, modulo, context)

    def __pow__(self, other, modulo=None, context=None):
        if modulo is not None:
            return self._binary(other, lambda a, b, ctx, st: _powmod(a, b, modulo, ctx, st), '** or pow()',
                                False, context)
        return self._binary(other, _pow, '** or pow()', False, context)

    def __rpow__(self, other, modulo=None, context=None):
        return self._binary(other, _pow, '** or pow()', True, context)

    def fma(self, other, third, context=None):
        ctx = _ctx(context)
        o, t = _as_operand(other), _as_operand(third)
        if o is None or t is None:
            raise TypeError('conversion from %s to Decimal is not supported'
                            % type(other if o is None else third).__name__)
        st = [0]
        n = _nan_result(self, o, st)
        if n is not None:
            r = n
        elif self._spec or o._spec:
            r = _mul(self, o, ctx, st)
            if not r.is_nan():
                r = _add(r, t, ctx, st, False)
        else:
            p = _mk(self._sign ^ o._sign, self._int * o._int, self._exp + o._exp)
            r = _add(p, t, ctx, st, False)
        ctx._raise(st[0])
        return r

    def scaleb(self, other, context=None):
        ctx = _ctx(context)
        o = _as_operand(other)
        st = [0]
        r = _nan_result(self, o, st)
        if r is None:
            if o._spec or o._exp != 0:
                r = _invalid(st)
            elif self._spec:
                r = self
            else:
                r = _fix(self._sign, self._int, self._exp + (-o._int if o._sign else o._int), ctx, st)
        ctx._raise(st[0])
        return r

    def logb(self, context=None):
        ctx = _ctx(context)
        st = [0]
        r = _nan_result(self, None, st)
        if r is None:
            if self._spec == 'F':
                r = _mk(0, 0, 'F', 'F')
            elif self._int == 0:
                st[0] |= _DIVZERO
                r = _mk(1, 0, 'F', 'F')
            else:
                adj = self.adjusted()
                r = _fix(1 if adj < 0 else 0, abs(adj), 0, ctx, st)
        ctx._raise(st[0])
        return r

    def sqrt(self, context=None):
        return self._unary_fn(_sqrt, context)

    def exp(self, context=None):
        return self._unary_fn(_exp, context)

    def ln(self, context=None):
        return self._unary_fn(_ln, context)

    def log10(self, context=None):
        return self._unary_fn(_log10, context)

    def _unary_fn(self, fn, context):
        ctx = _ctx(context)
        st = [0]
        r = _nan_result(self, None, st)
        if r is None:
            r = fn(self, ctx, st)
        ctx._raise(st[0])
        return r


_NAN = _mk(0, 0, 'n', 'n')

try:
    _numbers.Number.register(Decimal)
except Exception:
    pass


# ---- the operations on two operands (ctx: the context; st: the status box) --

def _add(a, b, ctx, st, negate):
    bs = 1 - b._sign if negate else b._sign
    n = _nan_result(a, b, st)
    if n is not None:
        return n
    if a._spec == 'F' or b._spec == 'F':
        if a._spec == 'F' and b._spec == 'F' and a._sign != bs:
            return _invalid(st)
        return a if a._spec == 'F' else _mk(bs, 0, 'F', 'F')
    asg, ac, ae, bc, be = a._sign, a._int, a._exp, b._int, b._exp
    if ac == 0 or bc == 0:
        if ac == 0 and bc == 0:
            sign = asg & bs if ctx._rounding != ROUND_FLOOR else asg | bs
            return _fix(sign, 0, min(ae, be), ctx, st)
    # shrink an operand far below the other one's rounding point to a sticky digit
    if ac and bc:
        if ae < be:
            big_adj, big_exp, small_adj = be + _ndigits(bc) - 1, be, ae + _ndigits(ac) - 1
        else:
            big_adj, big_exp, small_adj = ae + _ndigits(ac) - 1, ae, be + _ndigits(bc) - 1
        limit = min(big_exp, big_adj - ctx._prec) - 2
        if small_adj < limit:
            if ae < be:
                ac, ae = 1, limit - 1
            else:
                bc, be = 1, limit - 1
    e = min(ae, be)
    x = ac * 10 ** (ae - e)
    y = bc * 10 ** (be - e)
    s = (-x if asg else x) + (-y if bs else y)
    if s == 0:
        sign = 1 if ctx._rounding == ROUND_FLOOR else 0
        if asg and bs:
            sign = 1
        return _fix(sign, 0, e, ctx, st)
    return _fix(1 if s < 0 else 0, abs(s), e, ctx, st)


def _plus(a, b, ctx, st):
    return _add(a, b, ctx, st, False)


def _minus(a, b, ctx, st):
    return _add(a, b, ctx, st, True)


def _mul(a, b, ctx, st):
    n = _nan_result(a, b, st)
    if n is not None:
        return n
    sign = a._sign ^ b._sign
    if a._spec == 'F' or b._spec == 'F':
        if (a._spec == 0 and a._int == 0) or (b._spec == 0 and b._int == 0):
            return _invalid(st)
        return _mk(sign, 0, 'F', 'F')
    return _fix(sign, a._int * b._int, a._exp + b._exp, ctx, st)


def _div(a, b, ctx, st):
    n = _nan_result(a, b, st)
    if n is not None:
        return n
    sign = a._sign ^ b._sign
    if a._spec == 'F':
        if b._spec == 'F':
            return _invalid(st)
        return _mk(sign, 0, 'F', 'F')
    if b._spec == 'F':
        st[0] |= _CLAMPED
        return _mk(sign, 0, ctx._Emin - ctx._prec + 1)
    if b._int == 0:
        if a._int == 0:
            return _invalid(st, _DIVUNDEF)
        st[0] |= _DIVZERO
        return _mk(sign, 0, 'F', 'F')
    ideal = a._exp - b._exp
    if a._int == 0:
        return _fix(sign, 0, ideal, ctx, st)
    shift = _ndigits(b._int) - _ndigits(a._int) + ctx._prec + 1
    if shift >= 0:
        q, r = divmod(a._int * 10 ** shift, b._int)
    else:
        q, r = divmod(a._int, b._int * 10 ** -shift)
    exp = ideal - shift
    if r:
        if q % 5 == 0:
            q += 1
    else:
        while exp < ideal and q % 10 == 0:
            q //= 10
            exp += 1
    return _fix(sign, q, exp, ctx, st)


def _divide_integer(a, b, ctx, st, want='qr'):
    """(quotient, remainder) Decimals, or a NaN for both; want: whose
    rounding signals count ('q', 'r' or both)."""
    n = _nan_result(a, b, st)
    if n is not None:
        return n, n
    sign = a._sign ^ b._sign
    if a._spec == 'F':
        if b._spec == 'F':
            x = _invalid(st)
            return x, x
        return _mk(sign, 0, 'F', 'F'), _invalid(st)
    if b._spec == 'F':
        return _mk(sign, 0, 0), _fix(a._sign, a._int, a._exp, ctx, st if 'r' in want else [0])
    if b._int == 0:
        if a._int == 0:
            x = _invalid(st, _DIVUNDEF)
            return x, x
        st[0] |= _DIVZERO
        return _mk(sign, 0, 'F', 'F'), _invalid(st)
    e = min(a._exp, b._exp)
    if a._int and a.adjusted() - b.adjusted() > ctx._prec:
        x = _invalid(st, _DIVIMP)
        return x, x
    x = a._int * 10 ** (a._exp - e)
    y = b._int * 10 ** (b._exp - e)
    q, r = divmod(x, y)
    if _ndigits(q) > ctx._prec:
        x = _invalid(st, _DIVIMP)
        return x, x
    return _fix(sign, q, 0, ctx, st if 'q' in want else [0]), _fix(a._sign, r, e, ctx, st if 'r' in want else [0])


def _floordiv(a, b, ctx, st):
    # an infinite or zero operand: libmpdec's divint signals only what the quotient meets
    if a._spec == 'F' and b._spec == 0 or (b._spec == 0 and b._int == 0 and a._spec == 0 and a._int):
        if a._spec == 0:
            st[0] |= _DIVZERO
        return _mk(a._sign ^ b._sign, 0, 'F', 'F')
    return _divide_integer(a, b, ctx, st, 'q')[0]


def _mod(a, b, ctx, st):
    if a._spec == 'F' and b._spec == 0 or (b._spec == 0 and b._int == 0 and a._spec == 0 and a._int):
        return _invalid(st)
    return _divide_integer(a, b, ctx, st, 'r')[1]


def _divmod(a, b, ctx, st):
    return _divide_integer(a, b, ctx, st)


def _remainder_near(a, b, ctx, st):
    n = _nan_result(a, b, st)
    if n is not None:
        return n
    if a._spec == 'F' or (b._spec == 0 and b._int == 0):
        return _invalid(st, _DIVUNDEF if (a._spec == 0 and a._int == 0) else _INVOP)
    if b._spec == 'F':
        return _fix(a._sign, a._int, a._exp, ctx, st)
    e = min(a._exp, b._exp)
    x = a._int * 10 ** (a._exp - e)
    y = b._int * 10 ** (b._exp - e)
    q, r = divmod(x, y)
    if 2 * r > y or (2 * r == y and q & 1):
        r -= y
        q += 1
    if _ndigits(q) > ctx._prec:
        return _invalid(st, _DIVIMP)
    sign = a._sign
    if r < 0:
        sign, r = 1 - sign, -r
    return _fix(sign, r, e, ctx, st)


def _is_integral(d):
    if d._spec:
        return False
    if d._exp >= 0 or d._int == 0:
        return True
    return d._int % 10 ** -d._exp == 0


def _int_value(d):
    v = d._int * 10 ** d._exp if d._exp >= 0 else d._int // 10 ** -d._exp
    return -v if d._sign else v


def _pow(a, b, ctx, st):
    n = _nan_result(a, b, st)
    if n is not None:
        return n
    if b._spec == 0 and b._int == 0:
        if a._spec == 0 and a._int == 0:
            return _invalid(st)
        return _fix(0, 1, 0, ctx, st)
    b_int = _is_integral(b)
    sign = 0
    if a._sign:
        if b_int:
            sign = _int_value(b) & 1 if b._spec == 0 else 0
        elif not (a._spec == 0 and a._int == 0):
            return _invalid(st)
    if a._spec == 0 and a._int == 0:
        if b._sign:
            return _mk(sign, 0, 'F', 'F')
        return _mk(sign, 0, 0)
    if a._spec == 'F':
        if b._sign:
            return _mk(sign, 0, 0)
        return _mk(sign, 0, 'F', 'F')
    if b._spec == 'F':
        c = _mk(0, a._int, a._exp)._cmp(_mk(0, 1, 0))
        if c == 0:
            st[0] |= _INEXACT | _ROUNDED
            return _mk(0, 10 ** (ctx._prec - 1), 1 - ctx._prec)
        if (c < 0) != bool(b._sign):
            return _mk(0, 0, 0)
        return _mk(0, 0, 'F', 'F')
    if b_int:
        k = _int_value(b)
        if abs(k) * _ndigits(a._int) <= 4 * ctx._prec + 2000:
            c = a._int ** abs(k)
            if k > 0:
                return _fix(sign, c, a._exp * k, ctx, st)
            return _div(_mk(sign, 1, 0), _mk(0, c, a._exp * -k), ctx, st)
    return _pow_inexact(sign, a, b, ctx, st)


def _pow_inexact(sign, a, b, ctx, st):
    """a ** b as exp(b * ln|a|) (a > 0), correctly rounded but in a case
    exactly half-way between two results."""
    w = ctx._prec + 10
    bd = max(0, _ndigits(b._int) + b._exp)
    for tries in range(6):
        g = w + bd + 3
        L = _ln_fixed(a._int, a._exp, g)
        T = L * b._int * 10 ** b._exp if b._exp >= 0 else L * b._int // 10 ** -b._exp
        if b._sign:
            T = -T
        tf = T // 10 ** g
        if tf > 2.31 * (ctx._Emax + 2):
            return _fix(sign, 1, ctx._Emax + 1, ctx, st)
        if tf < -2.31 * (ctx._prec - ctx._Emin + 2):
            return _fix(sign, 1, ctx._Emin - ctx._prec - 2, ctx, st)
        M, e = _exp_fixed(T // 10 ** (g - w), w)
        r = _ziv(sign, M, M // 10 ** (w - 3) + 10, e, ctx, st, ctx._rounding)
        if r is not None:
            return r
        w += ctx._prec + 10
    return _fix(sign, M, e, ctx, st)


def _powmod(a, b, m, ctx, st):
    m = _as_operand(m)
    if m is None or not (_is_integral(a) and _is_integral(b) and _is_integral(m)) or b._sign or m._int == 0:
        return _invalid(st)
    v = pow(_int_value(a), _int_value(b), abs(_int_value(m)))
    if _int_value(a) < 0 and v:
        v = v - abs(_int_value(m)) if v else v
    return _fix(1 if v < 0 else 0, abs(v), 0, ctx, st)


# ---- the functions of one operand (NaN operands already handled) --------

def _sqrt(a, ctx, st):
    if a._spec == 'F':
        return _invalid(st) if a._sign else a
    if a._int == 0:
        return _fix(a._sign, 0, a._exp // 2, ctx, st)
    if a._sign:
        return _invalid(st)
    prec = ctx._prec
    ideal = a._exp // 2
    c, e = a._int, a._exp
    if e & 1:
        c *= 10
        e -= 1
    k = max(0, prec + 2 - (_ndigits(c) + 1) // 2)
    c *= 100 ** k
    r = _math.isqrt(c)
    exp = e // 2 - k
    if r * r != c:
        if r % 5 == 0:
            r += 1
    else:
        while exp < ideal and r % 10 == 0:
            r //= 10
            exp += 1
    return _fix(0, r, exp, ctx, st, ROUND_HALF_EVEN)


def _exp(a, ctx, st):
    if a._spec == 'F':
        return _mk(0, 0, 0) if a._sign else a
    if a._int == 0:
        return _fix(0, 1, 0, ctx, st)
    prec = ctx._prec
    if a.adjusted() < -(prec + 2):
        w = prec + 3
        return _fix(0, 10 ** w + (-1 if a._sign else 1), -w, ctx, st, ROUND_HALF_EVEN)
    if a.adjusted() > 20:
        xf = float('-inf') if a._sign else float('inf')
    else:
        xf = float(a)
    if xf > 2.31 * (ctx._Emax + 2):
        return _fix(0, 1, ctx._Emax + 1, ctx, st, ROUND_HALF_EVEN)
    if xf < -2.31 * (prec - ctx._Emin + 2):
        return _fix(0, 1, ctx._Emin - prec - 2, ctx, st, ROUND_HALF_EVEN)
    w = prec + 10
    while True:
        if a._exp + w >= 0:
            T = a._int * 10 ** (a._exp + w)
        else:
            T = a._int // 10 ** (-a._exp - w)
        if a._sign:
            T = -T
        M, e = _exp_fixed(T, w)
        r = _ziv(0, M, M // 10 ** (w - 3) + 10, e, ctx, st)
        if r is not None:
            return r
        w += prec + 10


def _ln(a, ctx, st):
    if a._spec == 'F':
        return _invalid(st) if a._sign else a
    if a._int == 0:
        return _mk(1, 0, 'F', 'F')
    if a._sign:
        return _invalid(st)
    if a._int * 10 ** a._exp == 1 if a._exp >= 0 else a._int == 10 ** -a._exp:
        return _fix(0, 0, 0, ctx, st)
    return _log_ziv(a, ctx, st, False)


def _log10(a, ctx, st):
    if a._spec == 'F':
        return _invalid(st) if a._sign else a
    if a._int == 0:
        return _mk(1, 0, 'F', 'F')
    if a._sign:
        return _invalid(st)
    s = str(a._int)
    if s[0] == '1' and s.count('0') == len(s) - 1:
        k = a._exp + len(s) - 1
        return _fix(1 if k < 0 else 0, abs(k), 0, ctx, st)
    return _log_ziv(a, ctx, st, True)


def _log_ziv(a, ctx, st, ten):
    prec = ctx._prec
    # near 1, ln a is about a - 1: as many more digits as a - 1 has zeros
    t = ctx.copy()
    t._traps = 0
    near = -_add(a, _mk(0, 1, 0), t, [0], True).adjusted()
    w = prec + 10 + max(0, near)
    for tries in range(6):
        if ten:
            L = _ln_fixed(a._int, a._exp, w + 10) * 10 ** w // _ln2_ln10(w + 10)[1]
        else:
            L = _ln_fixed(a._int, a._exp, w)
        sign = 1 if L < 0 else 0
        r = _ziv(sign, abs(L), 40, -w, ctx, st)
        if r is not None:
            return r
        w += prec + 10
    return _fix(sign, abs(L), -w, ctx, st, ROUND_HALF_EVEN)


# ---- format() ---------------------------------------------------------------

def _parse_spec(spec):
    """The fields of a format spec: fill, align, sign, z, zeropad, width, sep, precision, type."""
    i, n = 0, len(spec)
    fill, align = None, None
    if n >= 2 and spec[1] in '<>=^':
        fill, align = spec[0], spec[1]
        i = 2
    elif n >= 1 and spec[0] in '<>=^':
        align = spec[0]
        i = 1
    sign = '-'
    if i < n and spec[i] in '+- ':
        sign = spec[i]
        i += 1
    z = False
    if i < n and spec[i] == 'z':
        z = True
        i += 1
    zeropad = False
    if i < n and spec[i] == '0':
        zeropad = True
        i += 1
    j = i
    while i < n and spec[i] in _DIGITS:
        i += 1
    width = int(spec[j:i]) if i > j else 0
    sep = ''
    if i < n and spec[i] == ',':
        sep = ','
        i += 1
    prec = None
    if i < n and spec[i] == '.':
        j = i + 1
        i = j
        while i < n and spec[i] in _DIGITS:
            i += 1
        if i == j:
            raise ValueError('invalid format string')
        prec = int(spec[j:i])
    typ = None
    if i < n and spec[i] in 'eEfFgGn%':
        typ = spec[i]
        i += 1
    if i != n:
        raise ValueError('invalid format string')
    if zeropad and fill is None:
        fill = '0'
        if align is None:
            align = '='
    return fill, align, sign, z, zeropad, width, sep, prec, typ


def _align(sign, body, fill, align, width):
    if fill is None:
        fill = ' '
    if align is None:
        align = '>'
    pad = width - len(sign) - len(body)
    if pad <= 0:
        return sign + body
    if align == '<':
        return sign + body + fill * pad
    if align == '>':
        return fill * pad + sign + body
    if align == '=':
        return sign + fill * pad + body
    half = pad // 2
    return fill * half + sign + body + fill * (pad - half)


def _group(digits, sep, min_width):
    if not sep:
        return '0' * (min_width - len(digits)) + digits if min_width > len(digits) else digits
    groups = []
    while True:
        l = min(max(len(digits), min_width, 1), 3)
        groups.append('0' * (l - len(digits)) + digits[-l:] if len(digits) < l else digits[-l:])
        digits = digits[:-l]
        min_width -= l
        if not digits and min_width <= 0:
            break
        min_width -= len(sep)
    return sep.join(reversed(groups))


def _format(d, spec):
    fill, align, sgn, z, zeropad, width, sep, prec, typ = _parse_spec(spec)
    ctx = getcontext()
    negative = d._sign == 1
    if d._spec:
        sign = '-' if negative else ('' if sgn == '-' else sgn)
        body = d.copy_abs()._to_str(1)
        if typ == '%':
            body += '%'
        if zeropad and fill == '0':
            fill = ' '
            align = '>' if align == '=' else align
        return _align(sign, body, fill, align, width)
    if typ is None or typ == 'n':
        typ = ('G' if ctx._capitals else 'g') if typ is None else 'g'
    rounding = ctx._rounding
    if typ == '%':
        d = _mk(d._sign, d._int, d._exp + 2)
    if d._int == 0 and d._exp > 0 and typ in 'fF%':
        d = _mk(d._sign, 0, 0)          # a zero of positive exponent in fixed point: 0
    if prec is not None:
        if typ in 'eE':
            if d._int:
                d = _round_sig(d, prec + 1, rounding)
        elif typ in 'fF%':
            d = d._rescale(-prec, rounding)
        elif typ in 'gG' and _ndigits(d._int) > max(prec, 1):
            d = _round_sig(d, max(prec, 1), rounding)
    if prec == 0 and typ in 'gG':
        prec = 1
    digits = str(d._int)
    leftdigits = d._exp + len(digits)
    if typ in 'eE':
        dotplace = 1 - prec if (d._int == 0 and prec is not None) else 1
    elif typ in 'fF%':
        dotplace = leftdigits
    elif d._exp <= 0 and leftdigits > -6:
        dotplace = leftdigits
    else:
        dotplace = 1
    if dotplace < 0:
        intpart, frac = '0', '0' * -dotplace + digits
    elif dotplace > len(digits):
        intpart, frac = digits + '0' * (dotplace - len(digits)), ''
    else:
        intpart, frac = digits[:dotplace] or '0', digits[dotplace:]
    exp = leftdigits - dotplace
    if z and negative and d._int == 0:
        negative = False
    sign = '-' if negative else ('' if sgn == '-' else sgn)
    if frac:
        frac = '.' + frac
    if exp != 0 or typ in 'eE':
        frac += ('E' if typ in 'EG' else 'e') + '%+d' % exp
    if typ == '%':
        frac += '%'
    min_width = width - len(frac) - len(sign) if zeropad and fill == '0' and align == '=' else 0
    intpart = _group(intpart, sep, min_width)
    return _align(sign, intpart + frac, fill, align, width)


def _round_sig(d, places, rounding):
    """d rounded to exactly places significant digits (no flags)."""
    ans = d._rescale(d.adjusted() + 1 - places, rounding)
    if ans.adjusted() != d.adjusted():
        ans = ans._rescale(ans.adjusted() + 1 - places, rounding)
    return ans
