# A function's __code__, __closure__ (cells), __globals__ and writable __defaults__ /
# __kwdefaults__, as CPython 3.11 has them (checked against it).
import inspect

def outer(a, b=2, *args, c, d=4, **kw):
    x = 1
    unused = 3
    def inner(y):
        return x + y + a
    return inner

f = outer(10, c=3)
print(len(f.__closure__), [c.cell_contents for c in f.__closure__])
print(type(f.__closure__[0]).__name__, outer.__closure__)
co = outer.__code__
print(co.co_name, co.co_qualname, co.co_argcount, co.co_kwonlyargcount, co.co_posonlyargcount, co.co_nlocals)
print(co.co_varnames, co.co_freevars, co.co_cellvars)
print(co.co_filename.endswith('.py'), co.co_firstlineno, type(co).__name__)
print(co.co_flags & 0x04, co.co_flags & 0x08, co.co_flags & 0x10, co.co_flags & 0x20)
print(f.__code__.co_name, f.__code__.co_qualname, f.__code__.co_freevars, f.__code__.co_varnames, f.__code__.co_flags & 0x10)
print(outer.__globals__ is globals(), outer.__globals__['outer'] is outer)
print(outer.__defaults__, outer.__kwdefaults__)


def g(a, b=1):
    return a, b


g.__defaults__ = (7,)
print(g(1), g.__defaults__, inspect.signature(g))
g.__defaults__ = (5, 6)
print(g(), inspect.signature(g))
g.__defaults__ = None
try:
    g(1)
except TypeError as e:
    print('TypeError:', e)
try:
    g.__defaults__ = [1]
except TypeError as e:
    print('TypeError:', e)


def h(*, k=1, m):
    return k, m


h.__kwdefaults__ = {'k': 9, 'm': 8}
print(h(), h.__kwdefaults__, inspect.signature(h))
h.__kwdefaults__ = None
try:
    h()
except TypeError as e:
    print('TypeError:', e)


def counter():
    count = 0
    def inc():
        nonlocal count
        count += 1
        return count
    return inc


inc = counter()
inc()
print(inc.__code__.co_freevars, counter.__code__.co_cellvars, inc.__closure__[0].cell_contents)


def gen():
    yield 1


print(gen.__code__.co_flags & 0x20, (lambda q, *r: q).__code__.co_varnames, (lambda: 0).__code__.co_name)


def deco(fn):
    return fn


@deco
def decorated(p, /, q):
    return [p * i for i in range(q)]


print(decorated.__code__.co_firstlineno, decorated.__code__.co_posonlyargcount, decorated.__code__.co_argcount)
print(decorated.__code__.co_varnames, decorated.__code__.co_cellvars)
print(repr(outer.__code__).startswith('<code object outer at 0x'))
print(inspect.getsource(g).splitlines()[0])
print(inspect.getsource(decorated), end='')


class Model:
    def forward(self, x,
                scale=2):
        # doubled
        return x * scale


print(inspect.getsource(Model.forward), end='')
print(inspect.getsourcelines(Model().forward)[1], inspect.getfile(g).endswith('lang_func_code.py'))
