# functools.cached_property, total_ordering, cmp_to_key and singledispatch as CPython
# 3.11's: computed once then read from the instance's __dict__; the missing comparison
# methods filled in from whichever one a class defines; sorting with a cmp function;
# dispatch on the first argument's class (register by class, by annotation, by MRO).
import functools


class Dataset:
    def __init__(self, n):
        self.n = n
        self.calls = 0

    @functools.cached_property
    def stats(self):
        """The expensive statistics."""
        self.calls += 1
        return {'n': self.n, 'mean': self.n / 2}


d = Dataset(10)
print(d.stats, d.stats, d.calls, 'stats' in d.__dict__)
del d.stats
print(d.stats['mean'], d.calls, type(Dataset.stats).__name__, Dataset.stats.__doc__)
d.stats = 'overridden'
print(d.stats)


@functools.total_ordering
class Version:
    def __init__(self, *parts):
        self.parts = parts

    def __eq__(self, other):
        return self.parts == other.parts

    def __lt__(self, other):
        return self.parts < other.parts

    def __repr__(self):
        return 'Version%r' % (self.parts,)


a, b = Version(1, 2), Version(1, 10)
print(a < b, a <= b, a > b, a >= b, a >= Version(1, 2), sorted([b, a, Version(0, 9)]), max(a, b))


@functools.total_ordering
class Score:
    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        return self.v == other.v

    def __gt__(self, other):
        return self.v > other.v


print(Score(1) < Score(2), Score(3) <= Score(3), Score(2) >= Score(5))
try:
    @functools.total_ordering
    class NoOrder:
        pass
except ValueError as e:
    print('ValueError:', e)


def by_length_then_reverse(x, y):
    if len(x) != len(y):
        return len(x) - len(y)
    return (x < y) - (x > y)


words = ['pear', 'fig', 'apple', 'kiwi', 'date']
print(sorted(words, key=functools.cmp_to_key(by_length_then_reverse)))
print(sorted([3, 1, 2], key=functools.cmp_to_key(lambda p, q: q - p)), min(words, key=functools.cmp_to_key(by_length_then_reverse)))


@functools.singledispatch
def describe(x):
    return 'object ' + repr(x)


@describe.register
def _(x: int):
    return 'int ' + str(x)


@describe.register(list)
@describe.register(tuple)
def _(x):
    return 'sequence of ' + str(len(x))


@describe.register(float)
def describe_float(x):
    return 'float %.2f' % x


print(describe(1), describe(True), describe('s'), describe([1, 2]), describe((1,)), describe(2.5))
print(describe.dispatch(bool) is describe.dispatch(int), describe.registry[float] is describe_float, sorted(t.__name__ for t in describe.registry))
try:
    describe()
except TypeError as e:
    print('TypeError:', e)
