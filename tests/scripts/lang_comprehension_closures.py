# Lambdas made inside comprehensions close over the comprehension's variables,
# as CPython's cells do: late binding, nested comprehensions, sort keys, defaults.
import gc

fs = [lambda: i for i in range(3)]
print([f() for f in fs])                         # late binding: the last value
print([f() for f in [lambda i=i: i for i in range(3)]])  # the default-argument idiom


def apply(fn, x):
    return fn(x)


def scale(a, m):
    return a * m


print([apply(lambda a: scale(a, m), 2) for m in range(4)])
print({k: apply(lambda v: v + k, 10) for k in range(3)})
print({apply(lambda v: v * k, 3) for k in range(3)})
print(list(apply(lambda v: v - k, 0) for k in range(3)))

rows = [(3, 'c', 0.5), (1, 'a', 2.5), (2, 'b', 1.5)]
print([sorted(rows, key=lambda r: r[col]) for col in range(3)])
print([[apply(lambda v: v + x * y, 0) for y in range(3)] for x in range(3)])
print([apply(lambda v: [w * v for w in range(n)], 2) for n in range(3)])


def outer(base):
    return [apply(lambda v: v + base + j, 0) for j in range(3)]


print(outer(100))


class Table:
    widths = [apply(lambda v: v * 2, w) for w in range(3)]


print(Table.widths)

adders = {name: (lambda v: v + len(name)) for name in ['a', 'bb', 'ccc']}
print({k: f(1) for k, f in adders.items()})
del adders, fs
gc.collect()

try:
    [apply(lambda v: v + undefined_name, 0) for _ in range(1)]
except NameError as e:
    print('NameError:', e)
print([x for x in range(3) if apply(lambda v: v == x, 1)])
