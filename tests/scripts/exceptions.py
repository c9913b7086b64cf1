def check(fn):
    try:
        fn()
    except Exception as e:
        print(type(e).__name__ + ":", e)
check(lambda: 1 / 0)
check(lambda: 1 // 0)
check(lambda: 1 % 0)
check(lambda: 1.0 / 0)
check(lambda: 1.0 // 0.0)
check(lambda: [1, 2][5])
check(lambda: (1,)[3])
check(lambda: "ab"[9])
check(lambda: {"a": 1}["b"])
check(lambda: {}[(1, 2)])
check(lambda: undefined_name)
check(lambda: None.attr)
check(lambda: (1).nope)
check(lambda: "s".nope)
check(lambda: 1 + "a")
check(lambda: "a" + 1)
check(lambda: [1] + (2,))
check(lambda: 1 < "a")
check(lambda: len(5))
five = 5
check(lambda: five())
check(lambda: five[0])
check(lambda: int("abc"))
check(lambda: float("x1"))
check(lambda: [].pop())
check(lambda: [1].remove(2))
check(lambda: [1, 2].index(3))
check(lambda: {1: 2}.pop(3))
check(lambda: next(iter([])))
check(lambda: max([]))
check(lambda: {}.popitem())
check(lambda: set().pop())
check(lambda: hash([]))
check(lambda: {[1]: 2})
check(lambda: range(1, 2, 0))
check(lambda: "a" * "b")
check(lambda: -"a")
check(lambda: chr(-1))
check(lambda: "{} {}".format(1))
check(lambda: "%d" % "x")
check(lambda: sum(["a", "b"]))
check(lambda: round("x"))
def f2(a, b):
    return a + b
check(lambda: f2(1))
check(lambda: f2(1, 2, 3))
check(lambda: f2(1, c=3))
check(lambda: f2(1, a=3))
def f0():
    pass
check(lambda: f0(1))
def f3(a, b, c):
    pass
check(lambda: f3())
def fk(*, key):
    pass
check(lambda: fk())
def unpack2():
    a, b = [1, 2, 3]
check(unpack2)
def unpack3():
    a, b, c = [1, 2]
check(unpack3)
def unpack_int():
    a, b = 5
check(unpack_int)
def local_before():
    print(v)
    v = 1
check(local_before)
class Thing:
    pass
check(lambda: Thing().missing)
check(lambda: Thing(1))
check(lambda: Thing.missing)
def bad_assert():
    assert 1 == 2, "math is broken"
check(bad_assert)
def bare_assert():
    assert False
try:
    bare_assert()
except AssertionError as e:
    print("AssertionError", repr(e), e.args)
class MyError(Exception):
    pass
class DetailedError(MyError):
    def __init__(self, code, msg):
        super().__init__(f"[{code}] {msg}")
        self.code = code
try:
    raise DetailedError(42, "bad thing")
except MyError as e:
    print("caught", type(e).__name__, e, e.code, e.args, isinstance(e, Exception))
try:
    raise ValueError("v")
except (TypeError, ValueError) as e:
    print("tuple caught", repr(e))
try:
    raise KeyError("k")
except LookupError as e:
    print("lookup", e, repr(e), e.args)
try:
    try:
        raise IndexError("inner")
    finally:
        print("finally runs")
except IndexError as e:
    print("outer caught", e)
def finally_return():
    try:
        return "try"
    finally:
        print("cleanup")
print(finally_return())
for i in range(3):
    try:
        if i == 1:
            continue
        print("body", i)
    finally:
        print("fin", i)
try:
    pass
except Exception:
    print("never")
else:
    print("else runs")
finally:
    print("and finally")
try:
    raise RuntimeError("first")
except RuntimeError:
    try:
        raise
    except RuntimeError as e:
        print("reraised", e)
try:
    try:
        {}["x"]
    except KeyError as e:
        raise ValueError("converted") from e
except ValueError as e:
    print("from:", e)
try:
    raise NotImplementedError
except RuntimeError as e:
    print("NotImplementedError is a RuntimeError", repr(e))
print(issubclass(ZeroDivisionError, ArithmeticError), issubclass(KeyError, LookupError), issubclass(IndexError, LookupError))
print(issubclass(UnboundLocalError, NameError), issubclass(ModuleNotFoundError, ImportError), issubclass(RecursionError, RuntimeError))
print(issubclass(KeyboardInterrupt, Exception), issubclass(KeyboardInterrupt, BaseException), issubclass(OverflowError, ArithmeticError))
print(issubclass(IndentationError, SyntaxError), issubclass(StopIteration, Exception), issubclass(Exception, BaseException))
e = ValueError("a", 1)
print(e, repr(e), e.args, str(ValueError()), repr(TypeError()))
try:
    import not_a_module
except ImportError as e:
    print(type(e).__name__, e)
try:
    raise Exception("plain")
except:
    print("bare except")
def deep(n):
    return deep(n + 1)
try:
    deep(0)
except RecursionError as e:
    print("RecursionError", e)
print(deep.__name__)
class Resource:
    def __init__(self, name):
        self.name = name
    def __enter__(self):
        print("enter", self.name)
        return self
    def __exit__(self, typ, val, tb):
        print("exit", self.name, typ.__name__ if typ else None, val)
        return self.name == "swallow"
with Resource("a") as r:
    print("inside", r.name)
with Resource("swallow"):
    raise ValueError("hidden")
try:
    with Resource("b"), Resource("c"):
        raise KeyError("k")
except KeyError as e:
    print("propagated", e)
def with_return():
    with Resource("ret"):
        return "returned"
print(with_return())
