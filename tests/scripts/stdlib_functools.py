# The module functools as CPython 3.11's: reduce, partial, lru_cache / cache, wraps.
import functools
from functools import reduce, partial, lru_cache, wraps

print(reduce(lambda a, b: a + b, [1, 2, 3, 4]), reduce(lambda a, b: a * b, range(1, 6), 10), reduce(max, [3, 9, 2]))
print(functools.reduce(lambda acc, s: acc + len(s), ["ab", "cde"], 0), reduce(lambda a, b: a + b, [], 7))
try:
    reduce(lambda a, b: a + b, [])
except TypeError as e:
    print("TypeError", e)

def power(base, exp, mod=None):
    return base ** exp if mod is None else base ** exp % mod
square = partial(power, exp=2)
cube = functools.partial(power, exp=3)
print(square(5), cube(2), square(3, mod=5), partial(power, 2)(10), partial(partial(power, 2), 3)())
p = partial(power, 2, mod=7)
print(p.func is power, p.args, p.keywords, p(5), type(p).__name__, callable(p))
try:
    partial(5)
except TypeError as e:
    print("TypeError", e)

calls = []
@lru_cache(maxsize=None)
def fib(n):
    calls.append(n)
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(30), len(calls), fib.cache_info())
fib.cache_clear()
print(fib.cache_info(), fib(10), fib.cache_info().misses, fib.__name__)

@lru_cache
def sq(x):
    return x * x
print(sq(4), sq(4), sq(5), sq.cache_info())

@functools.lru_cache(maxsize=2)
def ident(x, y=0):
    calls.append(x)
    return x + y
calls.clear()
print(ident(1), ident(2), ident(1), ident(3), ident(2), ident(1, y=5), calls, ident.cache_info())

@functools.cache
def slow(n):
    return n * 2
print(slow(21), slow(21), slow.cache_info().hits)

def trace(fn):
    @wraps(fn)
    def wrapper(*args, **kwargs):
        print("calling", fn.__name__)
        return fn(*args, **kwargs)
    return wrapper

@trace
def add(a, b):
    """Add two numbers."""
    return a + b
print(add(2, 3))
# (a def takes no attributes yet: wraps and update_wrapper name wrappers that are instances)
class Wrapper:
    def __call__(self, *args):
        return self.__wrapped__(*args)
def mul(a, b):
    """Multiply two numbers."""
    return a * b
w = functools.update_wrapper(Wrapper(), mul)
print(w.__name__, w.__doc__, w(3, 4), functools.wraps(mul)(Wrapper()).__name__)
