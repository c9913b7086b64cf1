import cmath, math
inf, nan = float('inf'), float('nan')
vals = [0j, 1, -1, 2.5, -0.5, 1j, -1j, 1 + 1j, -2 + 3j, 0.3 - 0.7j, 1e-310 + 1e-310j, 1e308 + 1e308j, -1e200 + 3j,
        0.9 + 0.4j, 1 + 1e-20j, -0.0 + 0j, 0 - 0.0j, 3e-8 + 2j, 710 + 1j, -710 + 0.5j, 1e160 + 1e-160j, 4]
# (nan+0j) and (-inf+nanj) left out: C99's and CPython's tables give NaN/zero parts other signs there
specials = [complex(inf, 0), complex(-inf, 1), complex(0, inf), complex(inf, inf), complex(1, nan),
            complex(nan, inf), complex(inf, -2)]
names = ['sqrt', 'exp', 'log', 'log10', 'acos', 'asin', 'atan', 'acosh', 'asinh', 'atanh', 'cos', 'sin', 'tan',
         'cosh', 'sinh', 'tanh', 'phase', 'polar', 'isfinite', 'isinf', 'isnan']
for name in names:
    f = getattr(cmath, name)
    out = []
    for v in vals + specials:
        try:
            out.append(repr(f(v)))
        except (ValueError, OverflowError) as e:
            out.append(type(e).__name__)
    print(name, ' '.join(out))
for a in [(2, 1), (8, 2), (1j, 1j), (0j, 2), (100, 10), (-1, 3 + 4j)]:
    try:
        print('log', a, cmath.log(*a))
    except ValueError as e:
        print('log', a, e)
for r, p in [(1, cmath.pi), (2, 0), (2, -0.0), (1, 1e-300), (inf, 0), (inf, 1), (-inf, 2), (0, inf), (1, inf), (nan, 0), (3, nan)]:
    try:
        print('rect', r, p, cmath.rect(r, p))
    except ValueError as e:
        print('rect', r, p, e)
print(cmath.isclose(1, 1 + 1e-10), cmath.isclose(1j, 1.001j, rel_tol=1e-2), cmath.isclose(0, 1e-10, abs_tol=1e-9), cmath.isclose(inf, inf))
for bad in ['cmath.sqrt("a")', 'cmath.isclose(1, 2, rel_tol=-1)', 'cmath.sqrt(2 ** 2000)', 'cmath.exp(1000)', 'cmath.sqrt()', 'cmath.sqrt(1, 2)']:
    try:
        eval(bad)
    except Exception as e:
        print(bad, type(e).__name__, e)
print(cmath.pi, cmath.e, cmath.tau, cmath.inf, cmath.infj, cmath.nan, cmath.nanj)
z = cmath.rect(*cmath.polar(3 + 4j)); print(z, abs(z))
