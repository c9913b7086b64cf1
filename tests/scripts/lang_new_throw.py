# generator.throw(type, value, tb) as CPython 3.11, and classes with their own __new__ (object.__new__, singletons, a __new__ returning another type)
def g():
    try:
        yield 1
    except ValueError as e:
        print("caught", repr(e))
        yield 2
x = g(); print(next(x)); r = x.throw(ValueError, ValueError("v"), None); print(r)
x = g(); next(x); print(x.throw(ValueError("w")))
x = g(); next(x); print(x.throw(ValueError, "u"))
x = g(); next(x); print(x.throw(ValueError))
class A:
    def __new__(cls, v):
        o = object.__new__(cls); o.v = v; return o
print(A(3).v)
class S:
    _inst = None
    def __new__(cls, *a, **k):
        if cls._inst is None:
            cls._inst = super().__new__(cls)
        return cls._inst
    def __init__(self, x=0):
        self.x = x
s1 = S(1); s2 = S(2); print(s1 is s2, s1.x)
class Other:
    def __new__(cls):
        return 42
print(Other())
class P:
    @staticmethod
    def __new__(cls, a, b=2):
        self = object.__new__(cls)
        self.s = a + b
        return self
print(P(1).s, P(1, b=5).s)
class Q(A):
    def __init__(self, v):
        self.w = v * 2
q = Q(4); print(q.v, q.w, type(q).__name__)
try:
    object.__new__(3)
except TypeError as e:
    print("TypeError", e)
print(type(object.__new__(A)).__name__)
