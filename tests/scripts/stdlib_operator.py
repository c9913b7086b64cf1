# the operator module (repl/lib/), against CPython 3.11
import operator
from operator import itemgetter, attrgetter, methodcaller
data = [('b', 2, 'x'), ('a', 3, 'y'), ('c', 1, 'z')]
print(sorted(data, key=itemgetter(1)), sorted(data, key=itemgetter(0, 2)))
print(itemgetter(1)([5, 6]), itemgetter(slice(1, None))('abc'), repr(itemgetter(1, 'a')))
class P:
    def __init__(self, x): self.x = x; self.me = self
    def f(self, a, b=1): return self.x + a + b
print(attrgetter('x')(P(3)), attrgetter('me.x', 'x')(P(4)), repr(attrgetter('x', 'y')))
print(methodcaller('f', 1, b=2)(P(1)), repr(methodcaller('f', 1, b=2)))
import functools
print(functools.reduce(operator.mul, [1, 2, 3, 4]), functools.reduce(operator.add, ['a', 'b']))
print(operator.neg(3), operator.abs(-2.5), operator.truediv(1, 4), operator.floordiv(7, 2), operator.mod(-7, 3))
print(operator.eq(1, 1.0), operator.contains([1, 2], 2), operator.getitem({'k': 1}, 'k'), operator.not_(0), operator.truth([]))
l = [1]; print(operator.iadd(l, [2]), l, operator.concat([1], [2]), operator.countOf([1, 2, 1], 1), operator.indexOf('abc', 'c'))
print(list(map(operator.mul, [1, 2], [3, 4])), operator.index(5), operator.length_hint([1, 2]), operator.pow(2, 10))
print(operator.lt(1, 2), operator.ge(1, 2), operator.and_(6, 3), operator.or_(6, 3), operator.xor(6, 3), operator.lshift(1, 4))
d = {}; operator.setitem(d, 'a', 1); print(d); operator.delitem(d, 'a'); print(d)
