# Exception chaining as CPython 3.11: __cause__, __context__, __suppress_context__,
# __traceback__ (tb_lineno, tb_next), with_traceback, and the errors of raise ... from.
def inner():
    return 1 / 0


def middle():
    inner()


try:
    middle()
except ZeroDivisionError as e:
    tb = e.__traceback__
    lines = []
    while tb is not None:
        lines.append(tb.tb_lineno)
        tb = tb.tb_next
    print("entries", lines)
    print(type(e.__traceback__).__name__)
    print(e.__cause__, e.__context__, e.__suppress_context__)

# raise from: cause, suppressed context, the context still recorded
try:
    try:
        {}["k"]
    except KeyError as k:
        raise ValueError("converted") from k
except ValueError as v:
    print(repr(v.__cause__), repr(v.__context__), v.__suppress_context__)
    print(v.__cause__ is v.__context__)

# from None
try:
    try:
        int("x")
    except ValueError:
        raise RuntimeError("quiet") from None
except RuntimeError as r:
    print(r.__cause__, repr(r.__context__), r.__suppress_context__)

# an exception class as the cause is instantiated
try:
    raise ValueError("v") from KeyError
except ValueError as v:
    print(repr(v.__cause__), v.__cause__.__traceback__)

# implicit context, also inside a called function and a nested handler
def fail():
    raise TypeError("in function")


try:
    try:
        raise ValueError("first")
    except ValueError:
        fail()
except TypeError as t:
    print(repr(t.__context__), t.__suppress_context__)

try:
    raise ValueError("outer")
except ValueError:
    try:
        raise KeyError("nested")
    except KeyError as k:
        print("nested context:", repr(k.__context__))

# a finally block's exception has the pending one as context
try:
    try:
        raise ValueError("pending")
    finally:
        try:
            raise IndexError("in finally")
        except IndexError as i:
            print("finally context:", repr(i.__context__))
except ValueError as v:
    print("pending still raised:", repr(v))

# a core error (ZeroDivisionError from an operator) raised in a handler
try:
    try:
        raise KeyError("a")
    except KeyError:
        x = 1 // 0
except ZeroDivisionError as z:
    print(repr(z.__context__))

# re-raising the handled exception sets no context on itself
try:
    try:
        raise ValueError("same")
    except ValueError as s:
        raise s
except ValueError as s2:
    print(s2.__context__)

# cycles are cut: raising an earlier exception while handling a later one
try:
    try:
        raise ValueError("A")
    except ValueError as a:
        try:
            raise KeyError("B")
        except KeyError as b:
            raise a
except ValueError as a2:
    print(repr(a2.__context__), repr(a2.__context__.__context__))

# with_traceback
e = ValueError("w")
print(e.with_traceback(None) is e, e.__traceback__)
try:
    raise KeyError("t")
except KeyError as k:
    saved = k.__traceback__
e2 = ValueError("moved").with_traceback(saved)
print(e2.__traceback__ is saved, e2.__traceback__.tb_lineno)
try:
    e.with_traceback(5)
except TypeError as te:
    print("TypeError:", te)

# the attributes are writable
e3 = ValueError("x")
e3.__cause__ = KeyError("set")
e3.__context__ = IndexError("ctx")
print(repr(e3.__cause__), repr(e3.__context__))
print(e3.__dict__, ValueError("y", 2).__dict__)


class MyError(Exception):
    def __init__(self, msg, code):
        super().__init__(msg)
        self.code = code


print(MyError("m", 3).__dict__)

# raise ... from with something that is not an exception
try:
    raise ValueError("v") from 5
except TypeError as te:
    print("TypeError:", te, repr(te.__context__))

# __exit__ sees the traceback
class CM:
    def __enter__(self):
        return self

    def __exit__(self, t, v, tb):
        print("exit:", t.__name__, repr(v), tb is v.__traceback__, tb.tb_lineno)
        return True


with CM():
    raise ValueError("inside with")

# the traceback of an uncaught chain (stderr's last line is compared)
try:
    [][0]
except IndexError as ie:
    raise LookupError("chained") from ie
