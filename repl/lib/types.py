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
