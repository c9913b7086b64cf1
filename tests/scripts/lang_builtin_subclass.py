# Subclasses of the built-in types: dict, list, str, tuple, int, float, set,
# OrderedDict/defaultdict/Counter; their values through the base type's
# operations and methods, overrides, super(), __missing__, AttrDict, errors.
from collections import OrderedDict, defaultdict, Counter


class D(dict):
    pass


d = D(a=1, b=2)
print(d, len(d), type(d).__name__, isinstance(d, dict), isinstance(d, D), issubclass(D, dict))
d['c'] = 3
print(d['c'], 'a' in d, 'z' in d, list(d), sorted(d.keys()), d.get('z', 0), d.pop('a'), d)
print(d == {'b': 2, 'c': 3}, d != {}, bool(D()), dict(d), D.__mro__)
for k, v in d.items():
    print(k, v)
del d['b']
print(d, repr(d), str(d), f'{d}')


class AttrDict(dict):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.__dict__ = self


ad = AttrDict({'x': 1}, y=2)
ad.z = 3
print(ad, ad.x, ad['z'], ad.__dict__ is ad, hasattr(ad, 'nope'))
del ad.x
print(ad)


class DotDict(dict):
    __getattr__ = dict.__getitem__
    __setattr__ = dict.__setitem__
    __delattr__ = dict.__delitem__


dd = DotDict(p=1)
dd.q = 2
print(dd.p, dd, dd.q)
del dd.p
print(dd)
try:
    dd.missing
except KeyError as e:
    print('KeyError', e)


class Defaulting(dict):
    def __missing__(self, key):
        return key * 2


m = Defaulting(a='x')
print(m['a'], m[3], m.get(3), m)


class Logged(dict):
    def __setitem__(self, k, v):
        print('set', k, v)
        super().__setitem__(k, v * 10)

    def __getitem__(self, k):
        return super().__getitem__(k) + 1


lg = Logged()
lg['a'] = 1
print(lg['a'], lg, dict.__getitem__(lg, 'a'), lg.get('a'))


class Doubling(dict):
    def __init__(self, **kw):
        super().__init__()
        for k, v in kw.items():
            dict.__setitem__(self, k, v * 2)


db = Doubling(a=1, b=2)
print(db, db.items(), list(db.values()), {**db}, db | {'c': 3})


def kw(**k):
    return sorted(k.items())


print(kw(**db))


class Stack(list):
    def push(self, x):
        self.append(x)

    def peek(self):
        return self[-1]


s = Stack()
s.push(1)
s.push(2)
print(s, s.peek(), s.pop(), s, len(s), bool(s), bool(Stack()))
s += [5, 6]
print(s, type(s).__name__, s * 2, s + [0], sorted(Stack([3, 1, 2])), sum(Stack([1, 2])), s[1:], s[::-1])
s[0] = 9
s.extend(Stack([7]))
s.sort()
print(s, 7 in s, s.index(9), s.count(5), list(reversed(s)), isinstance(s, list), Stack.__mro__)
print(Stack([1, 2]) == [1, 2], [1, 2] == Stack([1, 2]), Stack([1]) < [2], max(Stack([4, 8, 1])))


class Name(str):
    def __new__(cls, value):
        return super().__new__(cls, value.strip())

    def shout(self):
        return self.upper() + '!'


n = Name('  bob ')
print(repr(n), n, n.shout(), n.title(), n == 'bob', len(n), 'b' in n, n in 'a bob', n[0], n.split('o'))
print(f'{n}!', '%s?' % n, n + '!', ','.join([n, n]), {n: 1}['bob'], {'bob': 2}[n], hash(n) == hash('bob'))
print(isinstance(n, str), type(n).__name__, n.startswith('b'), n * 2, sorted([Name('b'), Name('a')]))


class Tag(str):
    def __repr__(self):
        return 'Tag(' + str.__repr__(self) + ')'


print(Tag('x'), repr(Tag('x')), [Tag('y')], str(Tag('z')))


class Flag(int):
    def __str__(self):
        return 'Flag(%d)' % int(self)


fl = Flag(3)
print(fl, repr(fl), fl * 2, fl + 1, int(fl), fl == 3, range(fl), list(range(fl)), [10, 20, 30, 40][fl])
print(fl.bit_length(), abs(Flag(-2)), round(fl), isinstance(fl, int), f'{fl:04d}', '%d' % fl, hash(fl) == hash(3))
print(Flag('12') + 0, Flag(2.7), -fl, fl ** 2, divmod(Flag(7), 2), {3: 'three'}[fl], sorted([Flag(2), 1]))


class Celsius(float):
    def __repr__(self):
        return '%.1f C' % self


c = Celsius(21.5)
print(c, repr(c), c + 1, f'{c:.2f}', str(c), round(c), float(c), int(c), c > 20, c.is_integer(), abs(Celsius(-1.5)))


class Pair(tuple):
    def __new__(cls, a, b):
        return tuple.__new__(cls, (a, b))

    def __repr__(self):
        return 'Pair(%r, %r)' % self

    @property
    def first(self):
        return self[0]


p = Pair(1, 2)
x, y = p
print(p, p.first, x, y, p + (3,), len(p), p == (1, 2), hash(p) == hash((1, 2)), {p: 'v'}[(1, 2)], list(p), p[::-1])


class Point(tuple):
    def __new__(cls, x, y):
        return super().__new__(cls, (x, y))

    x = property(lambda self: self[0])
    y = property(lambda self: self[1])


pt = Point(3, 4)
print(pt, pt.x, pt.y, isinstance(pt, tuple), pt.count(3), pt.index(4), max(pt), tuple(pt))


class Bag(set):
    def add_all(self, *xs):
        for x in xs:
            self.add(x)


b = Bag([1])
b.add_all(2, 3)
print(sorted(b), len(b), 2 in b, isinstance(b, set), sorted(b | {9}), b == {1, 2, 3})


class Frozen(frozenset):
    pass


print(sorted(Frozen([1, 2])), len(Frozen('aab')), Frozen([1]), Bag(), Frozen())


class Ordered(OrderedDict):
    def last(self):
        return next(reversed(list(self.keys())))


od = Ordered()
od['x'] = 1
od['y'] = 2
od.move_to_end('x')
print(od, od.last(), list(od.items()), isinstance(od, OrderedDict), isinstance(od, dict))


class Vocab(defaultdict):
    pass


v = Vocab(int)
v['a'] += 1
v['a'] += 1
print(v['a'], v['b'], isinstance(v, defaultdict), sorted(v.items()))


class Hist(Counter):
    def top(self):
        return self.most_common(1)


h = Hist('aabbbc')
print(h.top(), h['b'], h['z'], isinstance(h, Counter))

print(dict.__repr__(D(a=1)), list.__len__(Stack([1])), str.upper(Name('x')), dict.get(D(k=1), 'k'))
print(dict.keys, dict.__getitem__, dict.__setitem__, list.append, str.upper, int.__add__)

for bad in ['dict.keys(5)', 'dict.__setitem__(5, 1, 2)', 'str.upper(Stack())', 'tuple.__new__(int)',
            'hash(Stack())', 'hash(D())', 'Flag("x")', 'Pair(1)', 'D()["nope"]', 'Stack()[3]',
            'type("X", (bool,), {})']:
    try:
        eval(bad)
    except (TypeError, KeyError, IndexError, ValueError) as e:
        print(type(e).__name__ + ':', e)
try:
    class B(bool):
        pass
except TypeError as e:
    print('TypeError:', e)
try:
    class LD(list, dict):
        pass
except TypeError as e:
    print('TypeError:', e)
