# Set iteration order after bulk operations, as CPython 3.11's setobject.c lays out
# its table: a | b (copy then set_merge), a & b (the smaller walked), a - b (filtered,
# or copied then discarded with the dummies resized away), a ^ b (b copied, a's keys
# removed or added), their in-place forms on the set's own table (pop's finger kept),
# copy/set()/frozenset() of a set, and the methods with sets and other iterables.
# Random sequences of them printed after each step; checked against python3.
import random
random.seed(12345)
out = []
def show(tag, s):
    out.append(tag + ' ' + repr(s))
pool = list(range(-5, 40)) + [64, 65, 128, 1000, 1 << 20, -1, 2.5, (1, 2), (3,)]
for trial in range(40):
    a = set()
    b = set(random.sample(pool, random.randint(0, 12)))
    for step in range(15):
        r = random.random()
        x = random.choice(pool)
        if r < 0.3:
            a.add(x)
        elif r < 0.45:
            a.discard(x)
        elif r < 0.5 and a:
            a.pop()
        elif r < 0.55:
            a = a | b
        elif r < 0.6:
            a = a & b if random.random() < 0.5 else b & a
        elif r < 0.65:
            a = a - b if random.random() < 0.5 else b - a
        elif r < 0.7:
            a = a ^ b if random.random() < 0.5 else b ^ a
        elif r < 0.74:
            a |= b
        elif r < 0.78:
            a &= b
        elif r < 0.82:
            a -= b
        elif r < 0.86:
            a ^= b
        elif r < 0.89:
            a = a.copy()
        elif r < 0.92:
            a = set(a)
        elif r < 0.94:
            a.update(random.sample(pool, 3))
        elif r < 0.96:
            a.update(b)
        elif r < 0.98:
            b = set(random.sample(pool, random.randint(0, 12)))
        else:
            a = frozenset(a) | b
            a = set(a)
        show('%d.%d' % (trial, step), a)
print('\n'.join(out))


random.seed(777)
out = []
pool = list(range(-20, 200)) + [1 << 40, 2 ** 61 - 1, -2, 0.5, 7.0, (1, 2.5), (2, 3)]
for trial in range(40):
    a = set(random.sample(pool, random.randint(0, 30)))
    b = set(random.sample(pool, random.randint(0, 30)))
    for step in range(15):
        r = random.random()
        x = random.choice(pool)
        lst = random.sample(pool, random.randint(0, 8))
        if r < 0.2:
            a.add(x)
        elif r < 0.3:
            a.discard(x)
        elif r < 0.33 and a:
            a.pop()
        elif r < 0.36:
            a = a.union(lst, b)
        elif r < 0.39:
            a = a.intersection(b)
        elif r < 0.42:
            a = a.difference(lst)
        elif r < 0.45:
            a = a.symmetric_difference(lst)
        elif r < 0.48:
            a.update(lst, b)
        elif r < 0.51:
            a.intersection_update(b)
        elif r < 0.54:
            a.difference_update(lst)
        elif r < 0.57:
            a.symmetric_difference_update(b)
        elif r < 0.6:
            a = {v for v in a if v != x}
        elif r < 0.63:
            a = frozenset(a) ^ frozenset(b)
            a = set(a)
        elif r < 0.66:
            a = a - b
        elif r < 0.69:
            a -= set(lst)
        elif r < 0.72:
            a |= set(lst)
        elif r < 0.75:
            a = b | a
        elif r < 0.78:
            a = set(range(random.randint(0, 40))) & a
        elif r < 0.8:
            a.clear()
        elif r < 0.83 and x in a:
            a.remove(x)
        elif r < 0.86:
            b = set(lst) | {x}
        elif r < 0.9:
            a ^= a.copy()
            a |= b
        else:
            a = set(sorted(v for v in a if not isinstance(v, tuple))) | set(lst)
        out.append('%d.%d %r' % (trial, step, a))
print('\n'.join(out))
