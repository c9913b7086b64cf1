# the descriptor protocol on classes written in the language: __get__ (data and
# non-data descriptors), __set__, __delete__, __set_name__, class access
class Typed:
    def __init__(self, kind):
        self.kind = kind

    def __set_name__(self, owner, name):
        self.public = name
        self.private = '_' + name

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return getattr(obj, self.private, None)

    def __set__(self, obj, value):
        if not isinstance(value, self.kind):
            raise TypeError('%s must be %s, not %s' % (self.public, self.kind.__name__, type(value).__name__))
        setattr(obj, self.private, value)

    def __delete__(self, obj):
        print('delete', self.public)
        delattr(obj, self.private)


class Lazy:
    # a non-data descriptor: the value it stores in the instance hides it afterwards
    def __init__(self, fn):
        self.fn = fn
        self.name = fn.__name__

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        print('computing', self.name)
        value = self.fn(obj)
        obj.__dict__[self.name] = value
        return value


class Point:
    x = Typed(int)
    y = Typed(int)

    def __init__(self, x, y):
        self.x = x
        self.y = y

    @Lazy
    def norm2(self):
        return self.x * self.x + self.y * self.y


p = Point(3, 4)
print(p.x, p.y, p.norm2, p.norm2, type(Point.x).__name__, Point.x.private, Point.norm2.name)
p.x = 5
print(p.x, p.__dict__)
try:
    p.y = 'a'
except TypeError as e:
    print('TypeError', e)
del p.x
print(p.x, hasattr(p, '_x'))


class Const:
    def __get__(self, obj, objtype=None):
        return ('const', objtype.__name__, obj is None)


class Holder:
    c = Const()


h = Holder()
print(h.c, Holder.c)
h.c = 'shadow'
print(h.c, Holder().c)
