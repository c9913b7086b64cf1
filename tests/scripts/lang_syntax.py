from __future__ import annotations
import math
x: int = 5
y: list[int]
def f(a: int, b: float = 2.0, *args: int, c: str = 'x', **kw: dict) -> float:
    return a + b
print(f(1))
if (n := 10) > 5:
    print(n)
data = [1, 2, 3, 4]
print([y for x in data if (y := x * 2) > 4])
a, *b = [1, 2, 3]
print(a, b)
*a, b = range(5)
print(a, b)
a, (b, *c), d = 1, (2, 3, 4), 5
print(a, b, c, d)
print([*data, *range(2)], (*data,), {*data, 9})
d1 = {'a': 1}
print({**d1, 'k': 1, **{'z': 2}})
def g(*args, **kw): return args, kw
print(g(*data, 7, *data, k=1, **d1, z=3))
def kwonly(a, *, b, c=3): return a, b, c
print(kwonly(1, b=2))
def posonly(a, b, /, c): return a, b, c
print(posonly(1, 2, c=3))
try:
    posonly(1, b=2, c=3)
except TypeError as e:
    print(e)
try:
    kwonly(1, 2)
except TypeError as e:
    print(e)
print(1 < 2 < 3, 1 < 3 < 2, 'yes' if 0 else 'no')
h = lambda x, y=2, *a, k=5, **kw: x + y + k
print(h(1), h(1, 1, k=0))
counter = 0
def inc():
    global counter
    counter += 1
inc(); inc(); print(counter)
def outer():
    v = 0
    def inner():
        nonlocal v
        v += 1
        return v
    inner(); inner()
    return v
print(outer())
# annotations at module level go to __annotations__; in a function they are not evaluated
z: float = 2.5
print(__annotations__)
def g2():
    local: UndefinedType = 3
    return local
print(g2())
class Cfg:
    lr: float = 0.1
    epochs: int = 3
    name: str
print(Cfg.__annotations__, Cfg.lr)
# walrus in while, comprehensions (binds in the enclosing scope) and calls
items = iter([3, 1, 4, 0, 5])
while (v := next(items)) != 0:
    print('got', v)
print([last := k for k in range(3)], last)
def scan(xs):
    if any((hit := x) > 2 for x in xs):
        return hit
print(scan([1, 5, 2]), print(w := 7) or w)
# parenthesised with items, several items
class CM:
    def __init__(self, n): self.n = n
    def __enter__(self): print('in', self.n); return self.n
    def __exit__(self, *a): print('out', self.n)
with (CM(1) as a1,
      CM(2) as a2,):
    print(a1 + a2)
with CM(3), CM(4) as a4:
    print(a4)
# star-unpacking everywhere
first, *mid, end = 'abcde'
print(first, mid, end)
(p, q), *r = [(1, 2), 3, 4]
print(p, q, r)
for i, (j, *k) in enumerate([(1, 2, 3), (4,)]):
    print(i, j, k)
print(*range(3), sep='-')
print({**{'a': 1}, **{'a': 2, 'b': 3}}, {*'ab', *'bc'} == {'a', 'b', 'c'})
# try/except/else/finally, assert with message, del
def trial(x):
    try:
        r = 10 // x
    except ZeroDivisionError as e:
        print('except', e)
    else:
        print('else', r)
    finally:
        print('finally')
trial(2); trial(0)
try:
    assert 1 > 2, f'bad {1}'
except AssertionError as e:
    print('assert', e)
lst = list(range(10))
del lst[1], lst[-1]
del lst[::3]
print(lst)
dd = {'a': 1, 'b': 2}
del dd['a']
print(dd)
class O: pass
o = O(); o.x = 1
del o.x
print(hasattr(o, 'x'))
# decorators with arguments, closures
def repeat(n):
    def deco(fn):
        def wrapper(*a, **k):
            return [fn(*a, **k) for _ in range(n)]
        return wrapper
    return deco
@repeat(2)
def hello(name, punct='!'):
    return 'hi ' + name + punct
print(hello('x'), hello('y', punct='?'))
def counter_factory():
    count = 0
    def step(by=1):
        nonlocal count
        count += by
        return count
    return step
st = counter_factory()
st(); st(5)
print(st())
print([(a, b) for a in range(3) if a for b in range(a) if b != 1])
print({k: v for k, v in zip('ab', (1, 2))}, {x % 3 for x in range(9)})
print((lambda *a, **k: (a, k))(1, x=2), (lambda x, y=2: x * y)(4))
print(1 if 0 else 2 if 0 else 3, 0 < 1 <= 1 < 2 != 3, not 1 < 0)
