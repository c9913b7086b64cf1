# itertools: lazy iterators, as CPython 3.11
from itertools import *
import itertools
print(list(islice(count(), 5)), list(islice(count(10, 2), 3)), list(islice(cycle('ab'), 5)), list(repeat(3, 4)))
print(list(chain([1, 2], (3,), 'ab')), list(chain.from_iterable([[1], [2, 3]])))
print(list(islice(range(10), 2, 8, 2)), list(islice('abcdef', None)), list(islice('abc', 1, None)))
print(list(product('ab', range(2))), list(product([1, 2], repeat=2)), list(product()), list(product([], [1])))
print(list(permutations([1, 2, 3])), list(permutations('abc', 2)), list(permutations([], 0)))
print(list(combinations(range(4), 2)), list(combinations('abc', 0)), list(combinations('ab', 3)))
print(list(combinations_with_replacement('abc', 2)))
print(list(accumulate([1, 2, 3, 4])), list(accumulate([1, 2, 3], lambda a, b: a * b)), list(accumulate([1, 2], initial=10)))
print([(k, list(g)) for k, g in groupby('aaabbcdd')], [k for k, g in groupby([1, 1, 2, 3, 3])])
print([(k, list(g)) for k, g in groupby(range(10), key=lambda x: x // 3)])
print(list(zip_longest('abc', [1], fillvalue='-')), list(zip_longest()))
print(list(starmap(pow, [(2, 3), (3, 2)])), list(takewhile(lambda x: x < 3, [1, 2, 5, 1])), list(dropwhile(lambda x: x < 3, [1, 2, 5, 1])))
a, b = tee(range(4))
print(list(a), list(b), list(pairwise('abcd')), list(filterfalse(lambda x: x % 2, range(6))), list(compress('abcd', [1, 0, 1, 0])))
it = count()
print(next(it), next(it), next(it))
print(list(zip(count(1), 'abc')))
g = groupby('aabbb')
k1, g1 = next(g)
k2, g2 = next(g)
print(k1, k2, list(g1), list(g2))
print(sum(1 for _ in product(range(10), repeat=3)))
try:
    itertools.nosuch
except AttributeError as e:
    print(e)
try:
    list(islice([1], -1))
except ValueError as e:
    print(e)
try:
    list(combinations([1], -1))
except ValueError as e:
    print(e)
# lazy: an infinite source is fine
for i, (a, b) in zip(range(3), zip(count(), cycle([True, False]))):
    print(i, a, b)
evens = (x for x in count() if x % 2 == 0)
print(list(islice(evens, 4)), list(islice(repeat('x'), 3)))
print(next(chain('a', 'b')), list(accumulate(range(5), max)), type(chain()).__name__)
batches = list(zip_longest(*[iter(range(7))] * 3))
print(batches)
