# The slot methods of built-in values, as CPython has them per type: hasattr(x, "__iter__")
# tells a sequence from a scalar, [].__len__() and iter(x).__next__() call the operation,
# and a bound slot prints as a method-wrapper.
print([1].__len__())
print((1,2).__getitem__(1))
print({1:2}.__contains__(1))
print("ab".__add__("c"))
print(callable(len), hasattr(len,"__call__"))
print((5).__add__(2), (5).__hash__())
print(b"ab".__len__(), hasattr(b"x", "__iter__"), hasattr(5, "__iter__"), hasattr(5.0, "__and__"), hasattr(5, "__and__"))
it = iter([1, 2])
print(it.__next__(), next(it), hasattr(it, '__next__'), hasattr([], '__next__'))
try:
    it.__next__()
except StopIteration as e:
    print('stop', repr(e))
import re
print(re.sub('0x[0-9a-f]+', 'X', repr([].__len__)), re.sub('0x[0-9a-f]+', 'X', repr([].__getitem__)))
print(re.sub('0x[0-9a-f]+', 'X', repr({}.__contains__)), re.sub('0x[0-9a-f]+', 'X', repr((1,).__len__)))
print(hasattr(print, '__call__'), print.__call__('via call'))
def f(x): return x + 1
class A:
    def m(self, y): return y * 2
print(f.__call__(1), A().m.__call__(4), callable(f.__call__))
for o in [None, 1, 2.5, True, 'a', [1], (1,), {1: 2}, {1}, frozenset([1]), range(3), b'a', bytearray(b'a')]:
    print(type(o).__name__, [n for n in ['__getitem__', '__setitem__', '__delitem__', '__contains__', '__len__', '__iter__', '__next__', '__add__', '__mul__', '__mod__', '__or__', '__and__', '__sub__', '__pow__', '__hash__', '__eq__', '__lt__'] if hasattr(o, n)])
print([1,2].__add__([3]), 'a'.__mul__(3), {1}.__or__({2}), (3).__pow__(2), 'x'.__contains__('x'), [1].__eq__([1]))
print([n for n in ['__iter__', '__len__', '__getitem__', '__add__', '__and__'] if hasattr(int, n)],
      [n for n in ['__iter__', '__len__', '__getitem__', '__add__', '__and__'] if hasattr(float, n)],
      [n for n in ['__iter__', '__len__', '__getitem__', '__setitem__'] if hasattr(tuple, n)])
def flatten(x):
    # the idiom the slots serve: recurse into what iterates, except strings
    if hasattr(x, '__iter__') and not isinstance(x, str):
        return [y for item in x for y in flatten(item)]
    return [x]
print(flatten([1, (2, [3.5, 'ab']), {4: 0}, range(5, 7)]))
