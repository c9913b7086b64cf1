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
