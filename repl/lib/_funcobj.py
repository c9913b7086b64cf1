# _funcobj: a function's __code__ and __closure__ (repl/func_attrs.c calls code(f)
# and closure(f)), from the parts the evaluator knows (f.__nn_code_parts__,
# f.__nn_closure_parts__): the code object's co_* names as CPython 3.11 has them,
# and cells whose cell_contents is the value the enclosing function bound.


_CO_NAMES = ('co_name', 'co_qualname', 'co_filename', 'co_firstlineno', 'co_argcount', 'co_posonlyargcount',
             'co_kwonlyargcount', 'co_flags', 'co_varnames', 'co_freevars', 'co_cellvars')


class code:
    def __init__(self, *parts):
        for name, value in zip(_CO_NAMES, parts):
            setattr(self, name, value)
        self.co_nlocals = len(self.co_varnames)

    def __eq__(self, other):
        if not isinstance(other, code):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in _CO_NAMES)

    def __hash__(self):
        return hash((self.co_name, self.co_filename, self.co_firstlineno))

    def __repr__(self):
        return '<code object %s at 0x%x, file "%s", line %d>' % (self.co_name, id(self), self.co_filename,
                                                                 self.co_firstlineno)


_EMPTY = object()


class cell:
    def __init__(self, value=_EMPTY):
        self._value = value

    @property
    def cell_contents(self):
        if self._value is _EMPTY:
            raise ValueError('Cell is empty')
        return self._value

    def __eq__(self, other):
        if not isinstance(other, cell):
            return NotImplemented
        return self._value is other._value or self._value == other._value

    __hash__ = None

    def __repr__(self):
        if self._value is _EMPTY:
            return '<cell at 0x%x: empty>' % id(self)
        return '<cell at 0x%x: %s object at 0x%x>' % (id(self), type(self._value).__name__, id(self._value))


def code_of(f):
    return code(*f.__nn_code_parts__)


def closure_of(f):
    parts = f.__nn_closure_parts__
    if not parts:
        return None
    return tuple(cell(*p) for p in parts)
