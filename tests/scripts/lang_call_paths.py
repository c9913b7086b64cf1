# Calls on the evaluator's fast paths (docs/performance.md, "A call without calls"):
# a def whose body is one `return value`, f(x, y) binding, names read and written
# through their lookup memos, in the ways training code uses small helpers.
import traceback
import torch


def scale(x, k=2.0):
    return x * k


def affine(x, w, b):
    return x @ w + b


def ratio(a, b):
    return a / b


def outer(n):
    def inner(m):
        return n * m + bias
    bias = 1
    return inner


def gen_return():
    return (yield 1)


class Meter:
    def __init__(self):
        self.total = 0.0
        self.count = 0

    def update(self, v, n=1):
        self.total += v * n
        self.count += n

    @property
    def avg(self):
        return self.total / max(self.count, 1)

    def __len__(self):
        return self.count


torch.manual_seed(0)
w, b = torch.randn(3, 2), torch.zeros(2)
m = Meter()
for step in range(5):
    x = torch.randn(4, 3)
    y = affine(scale(x), w, b)
    m.update(float(y.pow(2).mean()), n=x.shape[0])
print(round(m.avg, 4), len(m), scale(3), scale(3, k=0.5), scale(k=1, x=2))

f = outer(10)
print(f(2), f(m=3), [outer(i)(i) for i in range(4)])

g = gen_return()
print(next(g))
try:
    g.send('sent')
except StopIteration as e:
    print('StopIteration', e.value)

# the same memo slot across calls that bind different names, and recursion through it
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)


print(fact(20), [fact(i) for i in range(6)])

for call in [lambda: ratio(1, 0), lambda: ratio(1), lambda: ratio(1, 2, 3), lambda: scale(),
             lambda: affine(torch.ones(2, 2), w, b), lambda: outer(1)(undefined_m)]:
    try:
        call()
    except Exception as e:
        print(type(e).__name__ + ':', e)

try:
    ratio(torch.ones(2), 'x')
except TypeError:
    print(traceback.format_exc().splitlines()[-1])

try:
    ratio(1,
          0)
except ZeroDivisionError:
    tb = traceback.format_exc().splitlines()
    print('\n'.join(line for line in tb if not line.startswith('  File')))


def shadow(len):
    return len + 1


print(shadow(1), len([1, 2]))
ratio(1, 0)
