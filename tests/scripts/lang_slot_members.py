# Each __slots__ entry is a member descriptor in its class, as in CPython 3.11:
# C.x is <member 'x' of 'C' objects>, with __get__, __set__ and __delete__, and
# an empty slot raises AttributeError.
class C:
    __slots__ = ('x', 'y')


c = C()
print(C.x, type(C.x).__name__, C.__dict__['x'], 'y' in C.__dict__)
C.x.__set__(c, 5)
print(C.x.__get__(c), c.x, C.x.__get__(None, C) is C.x, C.x is C.x)
print(C.x.__name__, C.x.__objclass__, C.y.__qualname__, C.x.__doc__)
c.y = 3
del c.x
try:
    c.x
except AttributeError as e:
    print('AttributeError:', e)
try:
    del c.x
except AttributeError as e:
    print('AttributeError:', e)
print(hasattr(c, 'x'), hasattr(c, 'y'), getattr(c, 'x', 'default'), callable(C.x))

for call in ['C.x.__get__()', 'C.x.__set__(C())', 'C.x.__delete__()', 'C.x.__get__(C(), C, 3)',
             'C.x.__get__(None)', 'C.x.__get__(None, int)', 'C.x.__get__(C(), int)',
             'C.x.__delete__(C())', 'C.x.__set__(C(), 1, 2)', 'C.x.__set__(1, 2)', 'C.x.__get__(1)']:
    try:
        print(call, '->', eval(call))
    except Exception as e:
        print(call, '->', type(e).__name__, e)


class D(C):
    __slots__ = ('z',)


d = D()
d.x = 1
d.z = 2
print(D.x, D.z, d.x, d.z, C.x.__get__(d))


class E:
    __slots__ = '__p'

    def __init__(self):
        self.__p = 'private'


print(E._E__p, E._E__p.__get__(E()))

try:
    class F:
        __slots__ = ('v',)
        v = 1
except ValueError as e:
    print('ValueError:', e)

G = type('G', (), {'__slots__': ('a',)})
g = G()
G.a.__set__(g, 7)
print(G.a, g.a)
