# The module math as CPython 3.11's: constants, every function, its errors.
import math
from math import sqrt, pi, inf, nan

print(math.pi, math.e, math.tau, math.inf, -math.inf, math.nan)
print(pi == math.pi, sqrt(2), inf > 1e308, nan != nan)
print(math.floor(2.5), math.floor(-2.5), math.ceil(2.1), math.ceil(-2.1), math.trunc(-2.7), math.trunc(3))
print(type(math.floor(2.0)).__name__, math.floor(7), math.ceil(True))
print(math.sqrt(16), math.sqrt(2.0), math.exp(1), math.exp(-2.5), math.expm1(1e-10), math.log1p(1e-10))
print(math.log(10), math.log(8, 2), math.log(100, 10), math.log(2.718281828459045), math.log2(1024), math.log2(3))
print(math.log10(1000), math.log10(2), math.pow(2, 10), math.pow(2.5, -1.5), math.pow(-8, 1 / 3 * 3))
print(math.sin(1), math.cos(1), math.tan(1), math.asin(0.5), math.acos(0.5), math.atan(1), math.atan2(1, -1))
print(math.sinh(1), math.cosh(1), math.tanh(0.5), math.asinh(1), math.acosh(2), math.atanh(0.5))
print(math.hypot(3, 4), math.hypot(1, 2, 3), math.hypot(-5), math.hypot(), math.dist((0, 0), (3, 4)), math.dist([1, 2, 3], [4, 6, 8]))
print(math.degrees(math.pi), math.radians(180), math.degrees(1), math.radians(45))
print(math.isclose(1.0, 1.0 + 1e-10), math.isclose(1.0, 1.1), math.isclose(1, 1.05, rel_tol=0.1), math.isclose(0, 1e-12, abs_tol=1e-9))
print(math.isfinite(1.0), math.isfinite(inf), math.isinf(-inf), math.isinf(1), math.isnan(nan), math.isnan(0))
print(math.fabs(-3), math.fmod(7, 3), math.fmod(-7, 3), math.fmod(5.5, inf), math.copysign(3, -0.0), math.copysign(-2, 1))
print(math.remainder(7, 2), math.remainder(5, 2), math.frexp(8.0), math.frexp(0.0), math.ldexp(0.5, 4), math.modf(3.25), math.modf(-2.5))
print(math.factorial(0), math.factorial(5), math.factorial(20), math.gcd(12, 18), math.gcd(0, 0), math.gcd(-4, 6, 10), math.gcd())
print(math.lcm(4, 6), math.lcm(3, 5, 7), math.lcm(), math.lcm(0, 5))
print(math.comb(5, 2), math.comb(10, 0), math.comb(3, 5), math.comb(60, 30), math.perm(5, 2), math.perm(5), math.perm(4, 0))
print(math.isqrt(0), math.isqrt(15), math.isqrt(16), math.isqrt(10**18))
print(math.prod([1, 2, 3, 4]), math.prod([]), math.prod([0.5, 4]), math.prod(range(1, 6), start=2), math.prod([]))
print(math.fsum([0.1] * 10), sum([0.1] * 10), math.fsum([1e100, 1.0, -1e100, 1e-100]), math.fsum([]), math.fsum([inf, 1]))
print(math.erf(0.5), math.erfc(0.5), math.erf(-2), math.gamma(5), math.gamma(0.5), math.lgamma(10), math.lgamma(0.5))
print(math.gamma(-1.5), math.cbrt(27), math.cbrt(-8), math.exp2(10), math.ulp(1.0), math.nextafter(1.0, 2.0))
print(math.sqrt(True), math.floor(-0.0), math.exp(0), math.log(1))
# the errors CPython raises
checks = [
    ('math.sqrt(-1)', lambda: math.sqrt(-1)),
    ('math.log(0)', lambda: math.log(0)),
    ('math.log(-1, 2)', lambda: math.log(-1, 2)),
    ('math.log(5, 1)', lambda: math.log(5, 1)),
    ('math.exp(1000)', lambda: math.exp(1000)),
    ('math.pow(0, -1)', lambda: math.pow(0, -1)),
    ('math.pow(10, 400)', lambda: math.pow(10, 400)),
    ('math.fmod(1, 0)', lambda: math.fmod(1, 0)),
    ('math.acos(2)', lambda: math.acos(2)),
    ('math.atanh(1)', lambda: math.atanh(1)),
    ('math.gamma(0)', lambda: math.gamma(0)),
    ('math.gamma(-2)', lambda: math.gamma(-2)),
    ('math.gamma(200)', lambda: math.gamma(200)),
    ('math.lgamma(-1)', lambda: math.lgamma(-1)),
    ('math.floor(inf)', lambda: math.floor(inf)),
    ('math.ceil(nan)', lambda: math.ceil(nan)),
    ('math.factorial(-1)', lambda: math.factorial(-1)),
    ('math.factorial(2.5)', lambda: math.factorial(2.5)),
    ('math.gcd(2.0)', lambda: math.gcd(2.0)),
    ('math.comb(-1, 2)', lambda: math.comb(-1, 2)),
    ('math.comb(3, -1)', lambda: math.comb(3, -1)),
    ('math.perm(3, -1)', lambda: math.perm(3, -1)),
    ('math.isqrt(-1)', lambda: math.isqrt(-1)),
    ("math.sqrt('a')", lambda: math.sqrt('a')),
    ("math.floor('a')", lambda: math.floor('a')),
    ('math.sqrt(1, 2)', lambda: math.sqrt(1, 2)),
    ('math.sqrt(x=1)', lambda: math.sqrt(x=1)),
    ('math.pow(1)', lambda: math.pow(1)),
    ('math.log()', lambda: math.log()),
    ('math.log(1, 2, 3)', lambda: math.log(1, 2, 3)),
    ('math.atan2(1)', lambda: math.atan2(1)),
    ('math.isclose(1, 2, 3)', lambda: math.isclose(1, 2, 3)),
    ('math.isclose(1, 2, rel_tol=-1)', lambda: math.isclose(1, 2, rel_tol=-1)),
    ('math.fsum(3)', lambda: math.fsum(3)),
    ('math.prod(3)', lambda: math.prod(3)),
    ('math.fsum([inf, -inf])', lambda: math.fsum([inf, -inf])),
    ('math.dist((1,), (1, 2))', lambda: math.dist((1,), (1, 2))),
    ('math.ldexp(1.0, 5000)', lambda: math.ldexp(1.0, 5000)),
    ("math.hypot('a')", lambda: math.hypot('a')),
    ('math.ceil(None)', lambda: math.ceil(None)),
    ('math.tan(inf)', lambda: math.tan(inf)),
    ('math.nosuch', lambda: math.nosuch),
]
for text, f in checks:
    try:
        print(text, "->", f())
    except (ValueError, TypeError, OverflowError, ZeroDivisionError, AttributeError) as e:
        print(text, "->", type(e).__name__, e)
