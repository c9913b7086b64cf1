# __slots__ refuses other attributes (CPython 3.11's AttributeError), with inheritance and '__dict__' in the
# slots; bool.__mro__ has int; the empty tuple is one object; __set_name__ at class creation
class P:
    __slots__ = ('x', 'y')

    def __init__(self):
        self.x = 1


p = P()
try:
    p.z = 3
except AttributeError as e:
    print('AttributeError', e)
try:
    print(p.y)
except AttributeError as e:
    print('AttributeError', e)
p.y = 2
print(p.x, p.y, hasattr(p, '__dict__'), P.__slots__, getattr(p, 'z', 'none'))
try:
    p.__dict__
except AttributeError as e:
    print('AttributeError', e)
del p.x
print(hasattr(p, 'x'))


class Q(P):
    pass


q = Q()
q.z = 5
print(q.z, q.x, q.__dict__)


class R(P):
    __slots__ = ('w',)


r = R()
try:
    r.k = 1
except AttributeError as e:
    print('AttributeError', e)
r.w = 3
r.x = 2
print(r.w, r.x)


class D:
    __slots__ = ('a', '__dict__')


d = D()
d.a = 1
d.b = 2
print(d.a, d.b, d.__dict__, vars(d))


class One:
    __slots__ = 'v'


o = One()
o.v = 9
try:
    o.q = 1
except AttributeError as e:
    print('AttributeError', e)
print(o.v)


class Point:
    __slots__ = ['x', 'y']

    def __init__(self, x, y):
        self.x, self.y = x, y

    def __repr__(self):
        return 'Point(%r, %r)' % (self.x, self.y)


pts = [Point(i, i * i) for i in range(3)]
print(pts, sorted(pts, key=lambda p: -p.y)[0])
try:
    pts[0].color = 'red'
except AttributeError as e:
    print('AttributeError', e)


class Prop:
    __slots__ = ('_v',)

    @property
    def v(self):
        return self._v

    @v.setter
    def v(self, value):
        self._v = value * 2


pp = Prop()
pp.v = 4
print(pp.v)
print(bool.__mro__, bool.__bases__, bool.__base__, int.__mro__, issubclass(bool, int), isinstance(True, int))
a = ()
b = tuple()
c = tuple([])
print(a is b, a is c, () == (), len(()), (1,)[1:] is ())


class Field:
    def __set_name__(self, owner, name):
        print('set_name', owner.__name__, name)
        self.name = name

    def __get__(self, obj, owner=None):
        return self if obj is None else obj.__dict__.get(self.name, 0)


class K:
    a = Field()
    b = Field()


print(K.a.name, K().b)
