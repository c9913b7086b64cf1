# types, written in the language: SimpleNamespace, the names of the built-in
# types that scripts test against, and dynamic class creation (new_class,
# prepare_class, resolve_bases) as CPython 3.11 does it.


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


def resolve_bases(bases):
    """The bases with each non-class's __mro_entries__(bases) spread in its place."""
    resolved = []
    changed = False
    for base in bases:
        entries = None if isinstance(base, type) else getattr(base, '__mro_entries__', None)
        if entries is None:
            resolved.append(base)
            continue
        spread = entries(bases)
        if not isinstance(spread, tuple):
            raise TypeError('__mro_entries__ must return a tuple')
        resolved.extend(spread)
        changed = True
    return tuple(resolved) if changed else bases


def _calculate_meta(meta, bases):
    winner = meta
    for base in bases:
        base_meta = type(base)
        if issubclass(winner, base_meta):
            continue
        if issubclass(base_meta, winner):
            winner = base_meta
            continue
        raise TypeError('metaclass conflict: the metaclass of a derived class must be a (non-strict) '
                        'subclass of the metaclasses of all its bases')
    return winner


def prepare_class(name, bases=(), kwds=None):
    """(metaclass, namespace, the keywords but metaclass) for a class name(*bases, **kwds)."""
    kwds = {} if kwds is None else dict(kwds)
    if 'metaclass' in kwds:
        meta = kwds.pop('metaclass')
    else:
        meta = type(bases[0]) if bases else type
    if isinstance(meta, type):
        meta = _calculate_meta(meta, bases)
    prepare = getattr(meta, '__prepare__', None)
    ns = prepare(name, bases, **kwds) if prepare is not None else {}
    return meta, ns, kwds


def new_class(name, bases=(), kwds=None, exec_body=None):
    """The class that `class name(*bases, **kwds)` makes, exec_body(ns) filling its namespace."""
    resolved = resolve_bases(bases)
    meta, ns, kwds = prepare_class(name, resolved, kwds)
    if exec_body is not None:
        exec_body(ns)
    if resolved is not bases:
        ns['__orig_bases__'] = bases
    return meta(name, resolved, ns, **kwds)
