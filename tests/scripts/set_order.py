# Set iteration order as CPython 3.11's hash table gives it (numbers, bools,
# tuples of them); checked against python3 by tests/fixtures/gen_scripts.py.
import random
from collections import namedtuple

random.seed(7)
print({3, 1, 2}, {8, 0}, set([10, 3, 17, 1]), {-1, -2, 5}, set(range(20, 0, -3)))
print({(1, 2), (0, 1), (3, 3)}, {1.5, 0.5, 2.0}, {10, 20, 30, 40, 50, 60}, {1.5, 2, 3.25, -1, (1, 2), True})
print(set([2**64, 2**61 - 1, -2**70, 7, 1e20, 0.25]), {True, 0, 2.0, -0.0})
for trial in range(30):
    n = random.randint(0, 40)
    items = [random.randint(-100, 1000) for _ in range(n)]
    s = set(items)
    print(s)
    for x in items[::3]:
        s.discard(x)
    s.add(trial * 17)
    s.add(-trial)
    print(s)
    if s:
        print(s.pop(), s.pop() if s else None, len(s))
    print(list(s)[:6], sorted(s)[:3], {x % 13 for x in items})
s = set()
for i in [100, 5, 33, 7, 64, 1, 2, 3]:
    s.add(i)
print(s)
s.discard(33)
s.add(40)
print(s)
out = []
while s:
    out.append(s.pop())
print(out)
print(frozenset([9, 8, 1]), dict.fromkeys({4, 2, 0}), tuple({31, 62, 93, 1, 32}))
print([hash(v) for v in [5, -1, -2, 2**61, 2**64 + 3, -2**100, 1.5, 0.1, -2.0, 1e300, float('inf'), -float('inf'), (1, 2), (1, (2, 3.5)), (), True, 0.0]])
a = set(range(0, 60, 7))
b = set(range(0, 60, 5))
print(a | b, a & b, a - b, b - a)
print(a.union(b), a.intersection(b), a.difference(b))
c = a.copy()
c |= {100, 200}
print(c)
d = set(a)
d &= b
print(d)
print(set({33: 1, 1: 2, 65: 3}), frozenset(a), set(a), set(frozenset([40, 8, 72])))
e = {x for x in [40, 8, 72, 3]}
e.update([104, 6])
print(e)
P = namedtuple("P", "x y")
p = P(1, 2)
print(hash(p) == hash((1, 2)), hash(p))
class A:
    def __hash__(self): return -1
class B:
    def __hash__(self): return 2**70
class C:
    def __hash__(self): return 'x'
print(hash(A()), hash(B()))
try: hash(C())
except TypeError as e: print(e)
s = {1, 2}; s.symmetric_difference_update([2, 3]); print(sorted(s), s)
s ^= {7, 1}; print(s)
