# collections.abc, written in the language: the abstract base classes of the
# containers as CPython 3.11's. isinstance/issubclass answer through ABCMeta's
# __instancecheck__/__subclasscheck__: a one-method ABC (Iterable, Sized,
# Callable, Hashable, ...) recognises a class defining that method
# (__subclasshook__), the built-in types are registered below (list is a
# MutableSequence, dict a MutableMapping, a generator a Generator), and a class
# deriving one of them gets its mixin methods (Mapping's keys/items/get/
# __contains__, MutableMapping's update/pop/setdefault, ...).

from abc import abstractmethod
import abc as _abc

__all__ = ['Awaitable', 'Coroutine', 'AsyncIterable', 'AsyncIterator', 'AsyncGenerator', 'Hashable', 'Iterable',
           'Iterator', 'Generator', 'Reversible', 'Sized', 'Container', 'Callable', 'Collection', 'Set',
           'MutableSet', 'Mapping', 'MutableMapping', 'MappingView', 'KeysView', 'ItemsView', 'ValuesView',
           'Sequence', 'MutableSequence', 'ByteString']

_version = [0]  # bumped by each register(): the caches below are then stale
_defining = [True]  # while this module defines its ABCs, each is listed under its bases


class ABCMeta(_abc.ABCMeta):
    __module__ = 'abc'
    _abc_meta = True

    def __instancecheck__(cls, instance):
        if cls is Callable:  # a class is callable whatever its metaclass here
            return callable(instance)
        return ABCMeta.__subclasscheck__(cls, type(instance))

    def __subclasscheck__(cls, subclass):
        if not isinstance(subclass, type):
            raise TypeError('issubclass() arg 1 must be a class')
        own = vars(cls)
        cache = own.get('_abc_cache')
        if cache is None or cache[0] != _version[0]:
            cache = (_version[0], {})
            cls._abc_cache = cache
        try:
            return cache[1][subclass]
        except (KeyError, TypeError):
            pass
        result = _subclass_check(cls, subclass)
        try:
            cache[1][subclass] = result
        except TypeError:
            pass
        return result


def _subclass_check(cls, subclass):
    hook = cls.__subclasshook__(subclass)
    if hook is not NotImplemented:
        return bool(hook)
    if cls in subclass.__mro__:
        return True
    if cls in vars(cls).get('_abc_own', ()):
        for registered in cls._abc_registry:
            if subclass is registered or registered in subclass.__mro__ or (
                    isinstance(registered, ABCMeta) and ABCMeta.__subclasscheck__(registered, subclass)):
                return True
    for sub in vars(cls).get('_abc_subs', ()):
        if ABCMeta.__subclasscheck__(sub, subclass):
            return True
    return False


def _unhashable_types():
    import collections as _c
    return (list, dict, set, bytearray, _c.deque, _c.OrderedDict, _c.defaultdict, _c.Counter, type({}.keys()),
            type({}.items()))


_unhashable = _unhashable_types()


def _check_methods(C, *methods):
    # NotImplemented unless every method is defined (not None) somewhere in C's MRO
    mro = C.__mro__
    for method in methods:
        for B in mro:
            if method in vars(B):
                if vars(B)[method] is None:
                    return NotImplemented
                break
        else:
            return NotImplemented
    return True


class _ABCBase(metaclass=ABCMeta):
    # records each ABC under its ABC bases, for their __subclasscheck__
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if not _defining[0]:
            return
        cls._abc_subs = []
        for base in cls.__bases__:
            if isinstance(base, ABCMeta) and '_abc_subs' in vars(base):
                base._abc_subs.append(cls)

    @classmethod
    def __subclasshook__(cls, C):
        if '_abc_methods' in vars(cls):  # the one-method ABCs (Iterable, Sized, ...), not their subclasses
            return _check_methods(C, *cls._abc_methods)
        return NotImplemented

    @classmethod
    def register(cls, subclass):
        if not isinstance(subclass, type):
            raise TypeError('Can only register classes')
        if cls not in vars(cls).get('_abc_own', ()):
            cls._abc_own = [cls]
            cls._abc_registry = []
        cls._abc_registry.append(subclass)
        _version[0] += 1
        return subclass


class Hashable(_ABCBase):
    __slots__ = ()

    @abstractmethod
    def __hash__(self):
        return 0

    @classmethod
    def __subclasshook__(cls, C):
        if cls is Hashable:
            for B in C.__mro__:
                if B in _unhashable:
                    return NotImplemented
                own = vars(B)
                if '__hash__' in own:
                    return True if own['__hash__'] is not None else NotImplemented
                if '__eq__' in own:  # __eq__ without __hash__ sets __hash__ to None
                    return NotImplemented
                if B is object:
                    return True
        return NotImplemented



class Awaitable(_ABCBase):
    __slots__ = ()

    @abstractmethod
    def __await__(self):
        yield

    _abc_methods = ('__await__',)



class Coroutine(Awaitable):
    __slots__ = ()

    _abc_methods = ('__await__', 'send', 'throw', 'close')


class AsyncIterable(_ABCBase):
    __slots__ = ()

    @abstractmethod
    def __aiter__(self):
        return AsyncIterator()

    _abc_methods = ('__aiter__',)



class AsyncIterator(AsyncIterable):
    __slots__ = ()

    _abc_methods = ('__anext__', '__aiter__')


class AsyncGenerator(AsyncIterator):
    __slots__ = ()


class Iterable(_ABCBase):
    __slots__ = ()

    @abstractmethod
    def __iter__(self):
        while False:
            yield None

    _abc_methods = ('__iter__',)

    def __class_getitem__(cls, item):
        return _alias(cls, item)



def _alias(cls, item):
    from types import GenericAlias
    return GenericAlias(cls, item)


class Iterator(Iterable):
    __slots__ = ()

    @abstractmethod
    def __next__(self):
        raise StopIteration

    def __iter__(self):
        return self

    _abc_methods = ('__iter__', '__next__')


class Reversible(Iterable):
    __slots__ = ()

    @abstractmethod
    def __reversed__(self):
        while False:
            yield None

    _abc_methods = ('__reversed__', '__iter__')


class Generator(Iterator):
    __slots__ = ()

    def __next__(self):
        return self.send(None)

    @abstractmethod
    def send(self, value):
        raise StopIteration

    @abstractmethod
    def throw(self, typ, val=None, tb=None):
        if val is None:
            if tb is None:
                raise typ
            val = typ()
        raise val

    def close(self):
        try:
            self.throw(GeneratorExit)
        except (GeneratorExit, StopIteration):
            pass
        else:
            raise RuntimeError('generator ignored GeneratorExit')

    _abc_methods = ('__iter__', '__next__', 'send', 'throw', 'close')


class Sized(_ABCBase):
    __slots__ = ()

    @abstractmethod
    def __len__(self):
        return 0

    _abc_methods = ('__len__',)



class Container(_ABCBase):
    __slots__ = ()

    @abstractmethod
    def __contains__(self, x):
        return False

    _abc_methods = ('__contains__',)



class Collection(Sized, Iterable, Container):
    __slots__ = ()

    _abc_methods = ('__len__', '__iter__', '__contains__')


class Callable(_ABCBase):
    __slots__ = ()

    @abstractmethod
    def __call__(self, *args, **kwds):
        return False

    _abc_methods = ('__call__',)



class Set(Collection):
    __slots__ = ()

    def __le__(self, other):
        if not isinstance(other, Set):
            return NotImplemented
        if len(self) > len(other):
            return False
        for elem in self:
            if elem not in other:
                return False
        return True

    def __lt__(self, other):
        if not isinstance(other, Set):
            return NotImplemented
        return len(self) < len(other) and self.__le__(other)

    def __gt__(self, other):
        if not isinstance(other, Set):
            return NotImplemented
        return len(self) > len(other) and self.__ge__(other)

    def __ge__(self, other):
        if not isinstance(other, Set):
            return NotImplemented
        if len(self) < len(other):
            return False
        for elem in other:
            if elem not in self:
                return False
        return True

    def __eq__(self, other):
        if not isinstance(other, Set):
            return NotImplemented
        return len(self) == len(other) and self.__le__(other)

    @classmethod
    def _from_iterable(cls, it):
        return cls(it)

    def __and__(self, other):
        if not isinstance(other, Iterable):
            return NotImplemented
        return self._from_iterable(value for value in other if value in self)

    __rand__ = __and__

    def isdisjoint(self, other):
        for value in other:
            if value in self:
                return False
        return True

    def __or__(self, other):
        if not isinstance(other, Iterable):
            return NotImplemented
        return self._from_iterable([e for s in (self, other) for e in s])

    __ror__ = __or__

    def __sub__(self, other):
        if not isinstance(other, Set):
            if not isinstance(other, Iterable):
                return NotImplemented
            other = self._from_iterable(other)
        return self._from_iterable(value for value in self if value not in other)

    def __rsub__(self, other):
        if not isinstance(other, Set):
            if not isinstance(other, Iterable):
                return NotImplemented
            other = self._from_iterable(other)
        return self._from_iterable(value for value in other if value not in self)

    def __xor__(self, other):
        if not isinstance(other, Set):
            if not isinstance(other, Iterable):
                return NotImplemented
            other = self._from_iterable(other)
        return (self - other) | (other - self)

    __rxor__ = __xor__

    def _hash(self):
        h = 0
        for x in self:
            h ^= hash(x)
        return h


class MutableSet(Set):
    __slots__ = ()

    @abstractmethod
    def add(self, value):
        raise NotImplementedError

    @abstractmethod
    def discard(self, value):
        raise NotImplementedError

    def remove(self, value):
        if value not in self:
            raise KeyError(value)
        self.discard(value)

    def pop(self):
        it = iter(self)
        try:
            value = next(it)
        except StopIteration:
            raise KeyError from None
        self.discard(value)
        return value

    def clear(self):
        try:
            while True:
                self.pop()
        except KeyError:
            pass

    def __ior__(self, it):
        for value in it:
            self.add(value)
        return self

    def __iand__(self, it):
        for value in [v for v in self if v not in it]:
            self.discard(value)
        return self

    def __ixor__(self, it):
        if it is self:
            self.clear()
        else:
            for value in it:
                if value in self:
                    self.discard(value)
                else:
                    self.add(value)
        return self

    def __isub__(self, it):
        if it is self:
            self.clear()
        else:
            for value in it:
                self.discard(value)
        return self


class Mapping(Collection):
    __slots__ = ()

    @abstractmethod
    def __getitem__(self, key):
        raise KeyError

    def get(self, key, default=None):
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key):
        try:
            self[key]
        except KeyError:
            return False
        else:
            return True

    def keys(self):
        return KeysView(self)

    def items(self):
        return ItemsView(self)

    def values(self):
        return ValuesView(self)

    def __eq__(self, other):
        if not isinstance(other, Mapping):
            return NotImplemented
        return dict(self.items()) == dict(other.items())

    __reversed__ = None


class MappingView(Sized):
    __slots__ = ('_mapping',)

    def __init__(self, mapping):
        self._mapping = mapping

    def __len__(self):
        return len(self._mapping)

    def __repr__(self):
        return '{0.__class__.__name__}({0._mapping!r})'.format(self)


class KeysView(MappingView, Set):
    __slots__ = ()

    @classmethod
    def _from_iterable(cls, it):
        return set(it)

    def __contains__(self, key):
        return key in self._mapping

    def __iter__(self):
        yield from self._mapping


class ItemsView(MappingView, Set):
    __slots__ = ()

    @classmethod
    def _from_iterable(cls, it):
        return set(it)

    def __contains__(self, item):
        key, value = item
        try:
            v = self._mapping[key]
        except KeyError:
            return False
        else:
            return v is value or v == value

    def __iter__(self):
        for key in self._mapping:
            yield (key, self._mapping[key])


class ValuesView(MappingView, Collection):
    __slots__ = ()

    def __contains__(self, value):
        for key in self._mapping:
            v = self._mapping[key]
            if v is value or v == value:
                return True
        return False

    def __iter__(self):
        for key in self._mapping:
            yield self._mapping[key]


_marker = object()


class MutableMapping(Mapping):
    __slots__ = ()

    @abstractmethod
    def __setitem__(self, key, value):
        raise KeyError

    @abstractmethod
    def __delitem__(self, key):
        raise KeyError

    def pop(self, key, default=_marker):
        try:
            value = self[key]
        except KeyError:
            if default is _marker:
                raise
            return default
        else:
            del self[key]
            return value

    def popitem(self):
        try:
            key = next(iter(self))
        except StopIteration:
            raise KeyError from None
        value = self[key]
        del self[key]
        return key, value

    def clear(self):
        try:
            while True:
                self.popitem()
        except KeyError:
            pass

    def update(self, other=(), /, **kwds):
        if isinstance(other, Mapping):
            for key in other:
                self[key] = other[key]
        elif hasattr(other, 'keys'):
            for key in other.keys():
                self[key] = other[key]
        else:
            for key, value in other:
                self[key] = value
        for key, value in kwds.items():
            self[key] = value

    def setdefault(self, key, default=None):
        try:
            return self[key]
        except KeyError:
            self[key] = default
        return default


class Sequence(Reversible, Collection):
    __slots__ = ()

    @abstractmethod
    def __getitem__(self, index):
        raise IndexError

    def __iter__(self):
        i = 0
        try:
            while True:
                v = self[i]
                yield v
                i += 1
        except IndexError:
            return

    def __contains__(self, value):
        for v in self:
            if v is value or v == value:
                return True
        return False

    def __reversed__(self):
        for i in reversed(range(len(self))):
            yield self[i]

    def index(self, value, start=0, stop=None):
        if start is not None and start < 0:
            start = max(len(self) + start, 0)
        if stop is not None and stop < 0:
            stop += len(self)
        i = start
        while stop is None or i < stop:
            try:
                v = self[i]
            except IndexError:
                break
            if v is value or v == value:
                return i
            i += 1
        raise ValueError

    def count(self, value):
        return sum(1 for v in self if v is value or v == value)


class ByteString(Sequence):
    __slots__ = ()


class MutableSequence(Sequence):
    __slots__ = ()

    @abstractmethod
    def __setitem__(self, index, value):
        raise IndexError

    @abstractmethod
    def __delitem__(self, index):
        raise IndexError

    @abstractmethod
    def insert(self, index, value):
        raise IndexError

    def append(self, value):
        self.insert(len(self), value)

    def clear(self):
        try:
            while True:
                self.pop()
        except IndexError:
            pass

    def reverse(self):
        n = len(self)
        for i in range(n // 2):
            self[i], self[n - i - 1] = self[n - i - 1], self[i]

    def extend(self, values):
        if values is self:
            values = list(values)
        for v in values:
            self.append(v)

    def pop(self, index=-1):
        v = self[index]
        del self[index]
        return v

    def remove(self, value):
        del self[self.index(value)]

    def __iadd__(self, values):
        self.extend(values)
        return self


def _register_builtins():
    import collections as _c
    import types as _t
    gen = type(x for x in ())
    views = type({}.keys()), type({}.values()), type({}.items())
    iterators = [type(iter(x)) for x in ([], (), '', b'', {}, set(), range(0), bytearray())]
    iterators += [type(zip()), type(map(len, ())), type(filter(None, ())), type(enumerate(())),
                  type(reversed([])), type(iter({}.values())), type(iter({}.items()))]
    for t in (int, float, str, bytes, tuple, frozenset, type(None), type, bool, range, slice,
              _t.FunctionType, type(len), type(object), gen):
        Hashable.register(t)
    for t in (_t.FunctionType, type(len), type):
        Callable.register(t)
    for t in iterators:
        Iterator.register(t)
        Hashable.register(t)
    Generator.register(gen)
    for t in (tuple, str, range, type(memoryview(b""))):
        Sequence.register(t)
    for t in (bytes,):
        ByteString.register(t)
    for t in (list, bytearray, _c.deque):
        MutableSequence.register(t)
    for t in (dict, _c.OrderedDict, _c.defaultdict, _c.Counter) + views:
        Reversible.register(t)
    for t in (_c.defaultdict, _c.Counter, _c.UserDict):
        MutableMapping.register(t)
    MutableSequence.register(_c.UserList)
    Sequence.register(_c.UserString)
    ByteString.register(bytearray)
    Set.register(frozenset)
    MutableSet.register(set)
    MutableMapping.register(dict)
    KeysView.register(views[0])
    ValuesView.register(views[1])
    ItemsView.register(views[2])


_defining[0] = False
_register_builtins()
