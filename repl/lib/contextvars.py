# contextvars — CPython 3.11's ContextVar, Token, Context and copy_context.
# One context for the whole interpreter (threading's green threads share it;
# CPython gives each thread a context of its own); Context.run switches to another.
__all__ = ('Context', 'ContextVar', 'Token', 'copy_context')

_MISSING = object()


class _Missing:
    def __repr__(self):
        return '<Token.MISSING>'


class Context:
    __module__ = '_contextvars'

    def __init__(self):
        self._data = {}
        self._entered = False

    def run(self, callable, /, *args, **kwargs):
        global _current
        if self._entered:
            raise RuntimeError('cannot enter context: %r is already entered' % (self,))
        saved = _current
        self._entered = True
        _current = self
        try:
            return callable(*args, **kwargs)
        finally:
            _current = saved
            self._entered = False

    def copy(self):
        new = Context()
        new._data = dict(self._data)
        return new

    def __getitem__(self, var):
        if not isinstance(var, ContextVar):
            raise TypeError('a ContextVar key was expected, got %r' % (var,))
        return self._data[var]

    def get(self, var, default=None):
        if not isinstance(var, ContextVar):
            raise TypeError('a ContextVar key was expected, got %r' % (var,))
        return self._data.get(var, default)

    def __contains__(self, var):
        if not isinstance(var, ContextVar):
            raise TypeError('a ContextVar key was expected, got %r' % (var,))
        return var in self._data

    def __len__(self):
        return len(self._data)

    def __iter__(self):
        return iter(self._data)

    def keys(self):
        return self._data.keys()

    def values(self):
        return self._data.values()

    def items(self):
        return self._data.items()


_current = Context()


def copy_context():
    return _current.copy()


class Token:
    __module__ = '_contextvars'
    MISSING = _Missing()

    def __init__(self, context, var, old_value):
        self._context = context
        self._var = var
        self._old_value = old_value
        self._used = False

    @property
    def var(self):
        return self._var

    @property
    def old_value(self):
        return self._old_value

    def __repr__(self):
        return '<Token%s var=%r at 0x%x>' % (' used' if self._used else '', self._var, id(self))


class ContextVar:
    __module__ = '_contextvars'

    def __init__(self, name, *, default=_MISSING):
        if not isinstance(name, str):
            raise TypeError('context variable name must be a str')
        self._name = name
        self._default = default

    @property
    def name(self):
        return self._name

    def get(self, *args):
        if len(args) > 1:
            raise TypeError('get expected at most 1 argument, got %d' % len(args))
        if self in _current._data:
            return _current._data[self]
        if args:
            return args[0]
        if self._default is not _MISSING:
            return self._default
        raise LookupError(self)

    def set(self, value):
        old = _current._data.get(self, Token.MISSING)
        _current._data[self] = value
        return Token(_current, self, old)

    def reset(self, token):
        if not isinstance(token, Token):
            raise TypeError('expected an instance of Token, got %r' % (token,))
        if token._used:
            raise RuntimeError('%r has already been used once' % (token,))
        if token._var is not self:
            raise ValueError('%r was created by a different ContextVar' % (token,))
        if token._context is not _current:
            raise ValueError('%r was created in a different Context' % (token,))
        token._used = True
        if token._old_value is Token.MISSING:
            _current._data.pop(self, None)
        else:
            _current._data[self] = token._old_value

    def __repr__(self):
        d = '' if self._default is _MISSING else ' default=%r' % (self._default,)
        return '<ContextVar name=%r%s at 0x%x>' % (self._name, d, id(self))

    def __hash__(self):
        return id(self)
