# decimal (repl/lib/decimal.py, written over the language's big integers: Debian 12 has
# no libmpdec) as CPython 3.11's: arithmetic, contexts, rounding, signals, formatting,
# conversions, and a seeded random sweep of operations in every rounding mode.
from decimal import Decimal, getcontext, localcontext, ROUND_HALF_UP, ROUND_DOWN, InvalidOperation, DivisionByZero, Context, FloatOperation, Inexact
import decimal
print(Decimal('1.1') + Decimal('2.2'), Decimal(1) / Decimal(7), Decimal('10') ** 20, Decimal(0.1))
print(repr(Decimal('3.14')), Decimal('1.2345').quantize(Decimal('0.01')), Decimal('2.675').quantize(Decimal('0.01'), rounding=ROUND_HALF_UP))
getcontext().prec = 6
print(Decimal(1) / Decimal(3), Decimal(2).sqrt(), Decimal(1).exp(), Decimal(10).ln(), Decimal(1000).log10())
with localcontext() as ctx:
    ctx.prec = 40
    print(Decimal(2).sqrt())
print(getcontext().prec)
try:
    Decimal(1) / Decimal(0)
except DivisionByZero as e:
    print(type(e).__name__, e)
try:
    Decimal('abc')
except InvalidOperation as e:
    print(type(e).__name__, e)
print(Decimal('-0'), Decimal('inf'), Decimal('nan'), Decimal('1e-10'), Decimal('123.4500').normalize())
print(Decimal('1.5').to_integral_value(), round(Decimal('2.5')), int(Decimal('7.9')), float(Decimal('0.5')))
print(Decimal('3.5').as_tuple(), Decimal.from_float(0.25), hash(Decimal(5)) == hash(5), Decimal('0.5') == 0.5)
print(f"{Decimal('1234.5678'):,.2f}", format(Decimal('0.000123'), '.2e'), f"{Decimal('12.5'):>10}")
print(sorted([Decimal('1.1'), Decimal('0.9'), Decimal('1.0')]), sum([Decimal('0.1')] * 10), Decimal('1.30') * 2)
print(Decimal(10) % 3, Decimal(-7) // 2, divmod(Decimal(17), 5), -Decimal('5'), abs(Decimal('-2.5')))
c = Context(prec=3, rounding=ROUND_DOWN)
print(c.divide(Decimal(2), Decimal(3)), c.flags[Inexact], decimal.MAX_PREC)
print(Decimal('1E+2').to_eng_string(), Decimal('12345678901234567890').adjusted(), Decimal(1).compare(Decimal(2)))

import random
rng = random.Random(1234)
modes = [decimal.ROUND_UP, decimal.ROUND_DOWN, decimal.ROUND_CEILING, decimal.ROUND_FLOOR, decimal.ROUND_HALF_UP,
         decimal.ROUND_HALF_DOWN, decimal.ROUND_HALF_EVEN, decimal.ROUND_05UP]


def rand_decimal():
    kind = rng.random()
    if kind < 0.05:
        return Decimal(rng.choice(['0', '-0', 'Infinity', '-Infinity', 'NaN']))
    digits = ''.join(rng.choice('0123456789') for _ in range(rng.randint(1, 25)))
    return Decimal((rng.randint(0, 1), tuple(int(d) for d in digits), rng.randint(-30, 20)))


lines = []
for i in range(400):
    ctx = Context(prec=rng.randint(1, 30), rounding=rng.choice(modes), traps=[])
    a, b = rand_decimal(), rand_decimal()
    op = rng.choice(['add', 'subtract', 'multiply', 'divide', 'divide_int', 'remainder', 'remainder_near', 'sqrt',
                     'exp', 'ln', 'log10', 'quantize', 'compare_total', 'max', 'min', 'fma', 'next_plus', 'power'])
    try:
        if op in ('sqrt', 'exp', 'ln', 'log10', 'next_plus'):
            if op in ('exp', 'ln', 'log10') and (a.adjusted() > 5 or ctx.prec > 20):
                a = a.scaleb(-a.adjusted()) if a.is_finite() and a else a
            r = getattr(ctx, op)(a)
        elif op == 'fma':
            r = ctx.fma(a, b, rand_decimal())
        elif op == 'quantize':
            r = ctx.quantize(a, Decimal((0, (1,), rng.randint(-10, 5))))
        elif op == 'power':
            r = ctx.power(a.scaleb(-a.adjusted()) if a.is_finite() and a else a, Decimal(rng.randint(-6, 6)))
        else:
            r = getattr(ctx, op)(a, b)
        flags = sorted(k.__name__ for k, v in ctx.flags.items() if v)
        lines.append(f"{i} {op} {a} {b} -> {r} {flags}")
    except Exception as e:
        lines.append(f"{i} {op} {a} {b} !! {type(e).__name__}")
print('\n'.join(lines))

# the total order, neighbours, logical and digit-moving operations
lines = []
for i in range(300):
    ctx = Context(prec=rng.randint(1, 12), rounding=rng.choice(modes), Emin=-rng.randint(1, 40),
                  Emax=rng.randint(1, 40), traps=[])
    a, b = rand_decimal(), rand_decimal()
    op = rng.choice(['compare_total', 'compare_total_mag', 'compare_signal', 'max_mag', 'min_mag', 'next_plus',
                     'next_minus', 'next_toward', 'logical_and', 'logical_or', 'logical_xor', 'logical_invert',
                     'rotate', 'shift'])
    if op.startswith('logical'):
        a = Decimal(''.join(rng.choice('01') for _ in range(rng.randint(1, 15))))
        b = Decimal(''.join(rng.choice('01') for _ in range(rng.randint(1, 15))))
        if rng.random() < 0.1:
            b = Decimal('12')
    if op in ('rotate', 'shift'):
        b = Decimal(rng.randint(-14, 14))
    if op in ('compare_total', 'compare_total_mag', 'max_mag', 'min_mag') and rng.random() < 0.3:
        b = Decimal((a.as_tuple().sign, a.as_tuple().digits + (0,), a.as_tuple().exponent - 1)) if a.is_finite() else a
    try:
        if op in ('next_plus', 'next_minus', 'logical_invert'):
            r = getattr(ctx, op)(a)
        else:
            r = getattr(ctx, op)(a, b)
        flags = sorted(k.__name__ for k, v in ctx.flags.items() if v)
        lines.append(f"{i} {op} {a} {b} -> {r} {flags}")
    except Exception as e:
        lines.append(f"{i} {op} {a} {b} !! {type(e).__name__}")
print('\n'.join(lines))
print(Decimal(1).compare_total(1.5) if False else Decimal('2.0').max_mag(Decimal('-3')), Decimal('1.0').compare_total(Decimal('1.00')))
for bad in ("Decimal(1).max(1.5)", "Decimal(1).rotate(1.5)", "getcontext().canonical(1)"):
    try:
        eval(bad)
    except TypeError as e:
        print(bad, 'TypeError', e)
