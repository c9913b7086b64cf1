# collections.abc as CPython 3.11: isinstance/issubclass of built-ins and structural checks, registering, the mixin methods of Mapping/MutableMapping/Sequence/MutableSequence/Set, typing's aliases
import collections.abc
from collections.abc import (Iterable, Iterator, Generator, Mapping, MutableMapping, Sequence, MutableSequence, Set,
                             MutableSet, Callable, Hashable, Sized, Container, Collection, Reversible, KeysView,
                             ItemsView, ValuesView)
import collections
def gen():
    yield 1
vals = [[1], (1,), 'ab', b'x', bytearray(b'x'), {1: 2}, {1}, frozenset(), range(3), gen(), iter([1]), 5, 2.5, None,
        len, gen, {}.keys(), {}.items(), {}.values(), collections.OrderedDict(), collections.defaultdict(int),
        collections.Counter(), collections.deque(), collections.UserDict(), collections.UserList(), zip(), map(str, []),
        enumerate([]), True]
abcs = [Iterable, Iterator, Generator, Mapping, MutableMapping, Sequence, MutableSequence, Set, MutableSet, Callable,
        Hashable, Sized, Container, Collection, Reversible, KeysView, ItemsView, ValuesView]
for v in vals:
    print(type(v).__name__ if not type(v).__name__.endswith('iterator') else 'iter', ''.join('1' if isinstance(v, a) else '.' for a in abcs))
for t in (list, dict, tuple, str, set, int):
    print(t.__name__, ''.join('1' if issubclass(t, a) else '.' for a in abcs))
class It:
    def __iter__(self):
        return self
    def __next__(self):
        raise StopIteration
class Sz:
    def __len__(self):
        return 0
class Cl:
    def __call__(self):
        pass
class NoHash:
    __hash__ = None
class Eq:
    def __eq__(self, o):
        return True
for c in (It, Sz, Cl, NoHash, Eq):
    print(c.__name__, ''.join('1' if isinstance(c(), a) else '.' for a in abcs), ''.join('1' if issubclass(c, a) else '.' for a in abcs))
class Registry(Mapping):
    def __init__(self, **kw):
        self._d = dict(kw)
    def __getitem__(self, k):
        return self._d[k]
    def __iter__(self):
        return iter(self._d)
    def __len__(self):
        return len(self._d)
r = Registry(a=1, b=2)
print(list(r.keys()), list(r.items()), list(r.values()), r.get('a'), r.get('z', 0), 'a' in r, 'z' in r, r == {'a': 1, 'b': 2}, len(r), dict(r))
print(repr(r.keys()).split('(')[0], isinstance(r.keys(), KeysView), ('a', 1) in r.items(), 2 in r.values(), r.keys() & {'a', 'q'}, sorted(r.keys() | {'c'}))
class Store(MutableMapping):
    def __init__(self):
        self._d = {}
    def __getitem__(self, k):
        return self._d[k.lower()]
    def __setitem__(self, k, v):
        self._d[k.lower()] = v
    def __delitem__(self, k):
        del self._d[k.lower()]
    def __iter__(self):
        return iter(self._d)
    def __len__(self):
        return len(self._d)
s = Store()
s['A'] = 1
s.update({'B': 2}, C=3)
s.update([('D', 4)])
print(dict(s), s.pop('a'), s.pop('zz', 'dflt'), s.setdefault('E', 5), s.setdefault('b', 9), s.popitem(), len(s), 'C' in s, dict(s))
s.clear()
print(len(s), isinstance(s, MutableMapping), isinstance(s, Mapping), isinstance(s, dict), issubclass(Store, Sized))
try:
    s.pop('nothing')
except KeyError as e:
    print('KeyError', e)
class Incomplete(Mapping):
    def __getitem__(self, k):
        return 1
try:
    Incomplete()
except TypeError as e:
    print('TypeError', e)
class Seq(Sequence):
    def __init__(self, n):
        self.n = n
    def __getitem__(self, i):
        if i >= self.n:
            raise IndexError(i)
        return i * i
    def __len__(self):
        return self.n
q = Seq(4)
print(list(q), 9 in q, q.index(4), q.count(1), list(reversed(q)), isinstance(q, Reversible))
class MyList(MutableSequence):
    def __init__(self):
        self._l = []
    def __getitem__(self, i):
        return self._l[i]
    def __setitem__(self, i, v):
        self._l[i] = v
    def __delitem__(self, i):
        del self._l[i]
    def __len__(self):
        return len(self._l)
    def insert(self, i, v):
        self._l.insert(i, v)
m = MyList()
m.append(1); m.extend([2, 3]); m += [4]; m.reverse(); print(list(m), m.pop(), m.pop(0), list(m)); m.remove(2); print(list(m))
class Bag(Set):
    def __init__(self, it=()):
        self._s = list(dict.fromkeys(it))
    def __contains__(self, x):
        return x in self._s
    def __iter__(self):
        return iter(self._s)
    def __len__(self):
        return len(self._s)
b1, b2 = Bag([1, 2, 3]), Bag([2, 3, 4])
print(sorted(b1 & b2), sorted(b1 | b2), sorted(b1 - b2), sorted(b1 ^ b2), b1 <= Bag([1, 2, 3, 5]), b1 == Bag([3, 2, 1]), b1.isdisjoint([9]))
class Reg: pass
Sequence.register(Reg)
print(isinstance(Reg(), Sequence), isinstance(Reg(), Iterable), issubclass(Reg, Collection), issubclass(Reg, Mapping))
print(Iterable, Mapping, collections.abc.Sequence, type(Mapping))
import typing
print(isinstance([1], typing.Iterable), isinstance({}, typing.Mapping), issubclass(dict, typing.MutableMapping), typing.Iterable[int])
print(isinstance(collections.UserDict(), MutableMapping), isinstance(collections.UserList(), MutableSequence))
def describe(x):
    if isinstance(x, Mapping):
        return 'mapping'
    if isinstance(x, str):
        return 'str'
    if isinstance(x, Sequence):
        return 'sequence'
    if isinstance(x, Iterable):
        return 'iterable'
    return 'scalar'
print([describe(x) for x in ({}, 'a', [1], (1,), {1}, gen(), 3, r, q)])
class TM(typing.Mapping):
    def __getitem__(self, k):
        return k * 2
    def __iter__(self):
        return iter([1, 2])
    def __len__(self):
        return 2
print(dict(TM()), TM().get(3), isinstance(TM(), Mapping), TM.__mro__[1], isinstance([], typing.List), issubclass(list, typing.Sequence))
try:
    isinstance([], typing.List[int])
except TypeError as e:
    print('TypeError', e)
print(isinstance(len, Callable), isinstance(TM, Callable), isinstance(print, typing.Callable), callable(TM))
