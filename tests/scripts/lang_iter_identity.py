# iter(x) is x for the built-in iterators and for subclasses of enumerate, zip, map,
# and filter, with or without their own __next__ (checked against CPython 3.11).
import itertools


class Numbered(enumerate):
    pass


class Pairs(zip):
    pass


class Strs(map):
    pass


class Kept(filter):
    pass


class Counting(enumerate):
    def __next__(self):
        i, x = super().__next__()
        return i * 10, x


for it in (Numbered('ab'), Pairs([1, 2], 'xy'), Strs(str, [1, 2]), Kept(None, [0, 1, 2]),
           Counting('ab')):
    print(type(it).__name__, iter(it) is it, next(it), list(it), list(it))

n = Numbered([5, 6, 7], start=1)
print(iter(iter(n)) is n, next(iter(n)), [x for x in n])

for it in (iter([1]), iter((1,)), iter('ab'), iter({1: 2}), iter({1}), iter(range(3)), map(str, [1]),
           filter(None, [1]), zip(), enumerate([]), reversed([1]), iter({}.values()), iter({}.items()),
           (x for x in []), itertools.count(), itertools.chain([1])):
    print(iter(it) is it, end=' ')
print()


class L(list):
    pass


print(iter(L([1])) is not None, list(iter(L([1, 2]))))
