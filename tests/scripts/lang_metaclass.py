# A metaclass's methods serve the class object (class C(metaclass=M)): iteration, len, C[k], repr(C), C(...),
# inherited by subclasses; __class_getitem__; an object with __index__ as a list index; against CPython 3.11
class Registry(type):
    def __iter__(cls):
        return iter(sorted(cls.items))

    def __len__(cls):
        return len(cls.items)

    def __getitem__(cls, key):
        return cls.items[key]

    def __repr__(cls):
        return '<registry %s>' % cls.__name__


class Plugins(metaclass=Registry):
    items = {'b': 2, 'a': 1}


class More(Plugins):
    items = {'z': 26}


print(list(Plugins), len(Plugins), Plugins['a'], Plugins, More, list(More), 'a' in Plugins)


class Box:
    def __class_getitem__(cls, item):
        return '%s[%s]' % (cls.__name__, item.__name__)


print(Box[int])


class Idx:
    def __index__(self):
        return 2


print(['x', 'y', 'z'][Idx()], (1, 2, 3)[Idx()])
