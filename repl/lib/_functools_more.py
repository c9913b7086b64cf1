# The parts of functools written in the language (repl/mod_functools.c copies
# them into the module): cached_property, total_ordering, cmp_to_key and
# singledispatch, as CPython 3.11's functools.py defines them.


class cached_property:
    def __init__(self, func):
        self.func = func
        self.attrname = None
        self.__doc__ = func.__doc__

    def __set_name__(self, owner, name):
        if self.attrname is None:
            self.attrname = name
        elif name != self.attrname:
            raise TypeError('Cannot assign the same cached_property to two different names '
                            '(%r and %r).' % (self.attrname, name))

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        name = self.attrname if self.attrname is not None else self.func.__name__
        val = self.func(instance)
        # into the instance's attributes (CPython writes its __dict__), which later reads find first
        object.__setattr__(instance, name, val)
        return val


def _gt_from_lt(self, other):
    op_result = type(self).__lt__(self, other)
    if op_result is NotImplemented:
        return op_result
    return not op_result and self != other


def _le_from_lt(self, other):
    op_result = type(self).__lt__(self, other)
    if op_result is NotImplemented:
        return op_result
    return op_result or self == other


def _ge_from_lt(self, other):
    op_result = type(self).__lt__(self, other)
    if op_result is NotImplemented:
        return op_result
    return not op_result


def _ge_from_le(self, other):
    op_result = type(self).__le__(self, other)
    if op_result is NotImplemented:
        return op_result
    return not op_result or self == other


def _lt_from_le(self, other):
    op_result = type(self).__le__(self, other)
    if op_result is NotImplemented:
        return op_result
    return op_result and self != other


def _gt_from_le(self, other):
    op_result = type(self).__le__(self, other)
    if op_result is NotImplemented:
        return op_result
    return not op_result


def _lt_from_gt(self, other):
    op_result = type(self).__gt__(self, other)
    if op_result is NotImplemented:
        return op_result
    return not op_result and self != other


def _ge_from_gt(self, other):
    op_result = type(self).__gt__(self, other)
    if op_result is NotImplemented:
        return op_result
    return op_result or self == other


def _le_from_gt(self, other):
    op_result = type(self).__gt__(self, other)
    if op_result is NotImplemented:
        return op_result
    return not op_result


def _le_from_ge(self, other):
    op_result = type(self).__ge__(self, other)
    if op_result is NotImplemented:
        return op_result
    return not op_result or self == other


def _gt_from_ge(self, other):
    op_result = type(self).__ge__(self, other)
    if op_result is NotImplemented:
        return op_result
    return op_result and self != other


def _lt_from_ge(self, other):
    op_result = type(self).__ge__(self, other)
    if op_result is NotImplemented:
        return op_result
    return not op_result


_convert = {
    '__lt__': [('__gt__', _gt_from_lt), ('__le__', _le_from_lt), ('__ge__', _ge_from_lt)],
    '__le__': [('__ge__', _ge_from_le), ('__lt__', _lt_from_le), ('__gt__', _gt_from_le)],
    '__gt__': [('__lt__', _lt_from_gt), ('__ge__', _ge_from_gt), ('__le__', _le_from_gt)],
    '__ge__': [('__le__', _le_from_ge), ('__gt__', _gt_from_ge), ('__lt__', _lt_from_ge)],
}


def total_ordering(cls):
    """Class decorator that fills in missing ordering methods"""
    roots = {op for op in _convert if op in cls.__dict__}
    if not roots:
        raise ValueError('must define at least one ordering operation: < > <= >=')
    root = max(roots)  # prefer __lt__ to __le__ to __gt__ to __ge__
    for opname, opfunc in _convert[root]:
        if opname not in roots:
            opfunc.__name__ = opname
            setattr(cls, opname, opfunc)
    return cls


def cmp_to_key(mycmp):
    """Convert a cmp= function into a key= function"""
    class K(object):
        __slots__ = ['obj']

        def __init__(self, obj):
            self.obj = obj

        def __lt__(self, other):
            return mycmp(self.obj, other.obj) < 0

        def __gt__(self, other):
            return mycmp(self.obj, other.obj) > 0

        def __eq__(self, other):
            return mycmp(self.obj, other.obj) == 0

        def __le__(self, other):
            return mycmp(self.obj, other.obj) <= 0

        def __ge__(self, other):
            return mycmp(self.obj, other.obj) >= 0

        __hash__ = None
    return K


def singledispatch(func):
    """Single-dispatch generic function decorator: the implementation is chosen by
    the type of the first argument (its class's MRO, nearest first)."""
    registry = {object: func}

    def dispatch(cls):
        for klass in cls.__mro__:
            if klass in registry and klass is not object:
                return registry[klass]
        for klass in registry:  # a built-in subtype (bool of int) whose __mro__ leaves its base out
            if klass is not object and issubclass(cls, klass):
                return registry[klass]
        return registry[object]

    def register(cls, func=None):
        if isinstance(cls, type):
            if func is None:
                return lambda f: register(cls, f)
        else:
            if func is not None:
                raise TypeError(f'Invalid first argument to `register()`. {cls!r} is not a class.')
            ann = getattr(cls, '__annotations__', {})
            if not ann:
                raise TypeError(f'Invalid first argument to `register()`: {cls!r}. Use either '
                                '`@register(some_class)` or plain `@register` on an annotated function.')
            func = cls
            argname, cls = next(iter(ann.items()))
            if not isinstance(cls, type):
                raise TypeError(f'Invalid annotation for {argname!r}. {cls!r} is not a class.')
        registry[cls] = func
        return func

    def wrapper(*args, **kw):
        if not args:
            raise TypeError(f'{funcname} requires at least 1 positional argument')
        return dispatch(args[0].__class__)(*args, **kw)

    funcname = getattr(func, '__name__', 'singledispatch function')
    wrapper.register = register
    wrapper.dispatch = dispatch
    wrapper.registry = registry
    wrapper.__name__ = funcname
    wrapper.__doc__ = getattr(func, '__doc__', None)
    wrapper.__wrapped__ = func
    return wrapper
