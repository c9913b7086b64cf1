# types, written in the language: SimpleNamespace, and the names of the
# built-in types that scripts test against.


import math as _math


class SimpleNamespace:
    def __init__(self, *args, **kwargs):
        if args:
            raise TypeError('no positional arguments expected')
        for key, value in kwargs.items():
            setattr(self, key, value)

    def __repr__(self):
        items = ('%s=%r' % (k, v) for k, v in vars(self).items())
        return '%s(%s)' % ('namespace' if type(self) is SimpleNamespace else type(self).__name__, ', '.join(items))

    def __eq__(self, other):
        if not isinstance(other, SimpleNamespace):
            return NotImplemented
        return vars(self) == vars(other)


def _f():
    pass


def _g():
    yield 1


FunctionType = type(_f)
LambdaType = FunctionType
GeneratorType = type(_g())
ModuleType = type(_math)


class mappingproxy:
    # a read-only view of a mapping, as a class's __dict__ gives one
    __module__ = 'builtins'
    __hash__ = None

    def __init__(self, mapping):
        if type(mapping) is not dict and (not hasattr(mapping, 'keys') or not hasattr(mapping, '__getitem__')
                                          or isinstance(mapping, (list, tuple))):
            raise TypeError('mappingproxy() argument must be a mapping, not %s' % type(mapping).__name__)
        object.__setattr__(self, '_mapping', mapping)

    def __getitem__(self, key):
        return self._mapping[key]

    def get(self, key, default=None):
        return self._mapping.get(key, default)

    def keys(self):
        return self._mapping.keys()

    def values(self):
        return self._mapping.values()

    def items(self):
        return self._mapping.items()

    def copy(self):
        return self._mapping.copy()

    def __contains__(self, key):
        return key in self._mapping

    def __iter__(self):
        return iter(self._mapping)

    def __reversed__(self):
        return reversed(self._mapping)

    def __len__(self):
        return len(self._mapping)

    def __eq__(self, other):
        return self._mapping == other

    def __or__(self, other):
        return dict(self._mapping) | other

    def __ror__(self, other):
        return other | dict(self._mapping)

    def __repr__(self):
        return 'mappingproxy(%r)' % (self._mapping,)

    def __str__(self):
        return str(self._mapping)

    def __setattr__(self, name, value):
        raise AttributeError("'mappingproxy' object has no attribute '%s'" % name)


MappingProxyType = mappingproxy
