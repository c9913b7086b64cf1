import reprlib
print(reprlib.repr(list(range(100))))
print(reprlib.repr(tuple(range(10))), reprlib.repr((1,)), reprlib.repr(set(range(20))), reprlib.repr(frozenset()))
print(reprlib.repr('a' * 100))
print(reprlib.repr({i: str(i) for i in range(10)}))
print(reprlib.repr(2 ** 200))
print(reprlib.repr([[[[[[[[1]]]]]]]]))
print(reprlib.repr(object)[:20])
r = reprlib.Repr(); r.maxlist = 2; r.maxstring = 10
print(r.repr([1, 2, 3]), r.repr('hello world foo'))
from collections import deque
print(reprlib.repr(deque(range(10))))
class Node:
    def __init__(self): self.children = []
    @reprlib.recursive_repr()
    def __repr__(self): return 'Node(%r)' % self.children
n = Node(); n.children.append(n)
print(repr(n), Node.__repr__.__name__)
print(reprlib.repr(3.14159), reprlib.repr(None), reprlib.repr(b'x' * 50))
