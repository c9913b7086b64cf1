# pickle and copy of instances of subclasses of built-in types (CPython's
# __reduce_ex__: the value as __getnewargs__, list and dict items, the state).
import pickle, copy
class D(dict):
    pass
class L(list):
    def __init__(self, *a):
        super().__init__(*a)
        self.tag = 't'
class S(str):
    def __str__(self): return 'S!'
class I(int): pass
class T(tuple): pass
class St(set): pass
class AD(dict):
    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.__dict__ = self
for o in [D(a=1), L([1, 2]), S('x'), I(5), T((1, 2)), St([3]), AD(q=1)]:
    r = pickle.loads(pickle.dumps(o))
    print(type(r).__name__, r, r == o, getattr(r, 'tag', None), copy.deepcopy(o) == o, type(copy.copy(o)).__name__)
ad = pickle.loads(pickle.dumps(AD(q=1)))
print(ad.q)
