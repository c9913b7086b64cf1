# eval(), exec() and compile(), and the attributes of functions, as CPython 3.11.
x = 10
print(eval("1 + 2"), eval("x * 2"), eval("  x - 1"))
print(eval("a + b", {"a": 1, "b": 2}))
print(eval("a + x", {"a": 1}, {"x": 5}))
print(eval("[i * i for i in range(n)]", {"n": 4}))
exec("y = 5\nprint('y is', y)")
print(y)
ns = {}
exec("def h(k=2):\n    return 40 + k\nz = h()", ns)
print(ns["z"], ns["h"](), sorted(k for k in ns if not k.startswith("__")))
loc = {}
exec("w = a * 3", {"a": 7}, loc)
print(loc)
exec("for i in range(3):\n    x += i")
print(x)


def in_function(v):
    return eval("v + 1"), eval("x")


print(in_function(41))
code = compile("3 * 4", "<calc>", "eval")
print(eval(code), type(code).__name__)
prog = compile("q = 99\nprint('q', q)", "<prog>", "exec")
exec(prog)
print(q, eval(prog))
# errors: the right exception, nothing changed
for bad in ["1 +", "x = (", "def f(:"]:
    try:
        eval(bad) if "=" not in bad and "def" not in bad else exec(bad)
    except SyntaxError as e:
        print("SyntaxError:", e)
try:
    eval("undefined_name_q")
except NameError as e:
    print("NameError:", e)
try:
    eval("1 / 0")
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)
for args in [(5,), ("1", 5), ("1", {}, 5)]:
    for fn in (eval, exec):
        try:
            fn(*args)
        except TypeError as e:
            print(fn.__name__, "TypeError:", e)
try:
    compile("1", "<s>", "bad")
except ValueError as e:
    print("ValueError:", e)
try:
    compile("1 +", "<s>", "eval")
except SyntaxError as e:
    print("SyntaxError:", e)
try:
    exec("return 5")
except SyntaxError as e:
    print("SyntaxError:", e)


# function attributes
def f(a: int, b: str = "x", *args: float, c: float = 1.5, d, **kw: dict) -> bool:
    "doc here"
    return True


print(f.__annotations__)
print(f.__name__, f.__qualname__, f.__doc__, f.__defaults__, f.__kwdefaults__, f.__module__)
f.custom = 3
print(f.custom, f.__dict__)
f.__dict__["other"] = 4
print(f.other)


class A:
    def m(self, x: "A") -> None:
        pass


print(A.m.__qualname__, A.m.__annotations__)


def outer():
    def inner():
        pass

    return inner


print(outer().__qualname__, outer.__annotations__, outer.__defaults__, outer.__kwdefaults__)
g = lambda x, y=2: x
print(g.__name__, g.__qualname__, g.__defaults__, g.__annotations__)
f.__name__ = "renamed"
f.__qualname__ = "Q.renamed"
f.__doc__ = "new doc"
print(f.__name__, f.__qualname__, f.__doc__)
for attr, value in [("__name__", 5), ("__annotations__", 1), ("__dict__", [])]:
    try:
        setattr(f, attr, value)
    except TypeError as e:
        print("TypeError:", e)
try:
    f.missing_attribute
except AttributeError as e:
    print("AttributeError:", e)

import functools


def deco(fn):
    @functools.wraps(fn)
    def wrapper(*a, **k):
        return fn(*a, **k)

    return wrapper


@deco
def documented(p):
    "the docs"
    return p


print(documented.__name__, documented.__qualname__, documented.__doc__, documented.__wrapped__.__name__)
eval("ghost + 1")
