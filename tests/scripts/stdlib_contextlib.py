# the contextlib module (repl/lib/), against CPython 3.11
from contextlib import contextmanager, nullcontext, suppress, ExitStack, closing
@contextmanager
def tag(name):
    print("<%s>" % name)
    try:
        yield name.upper()
    finally:
        print("</%s>" % name)
with tag("a") as t:
    print("inside", t)
try:
    with tag("b"):
        raise ValueError("boom")
except ValueError as e:
    print("caught", e)
@contextmanager
def swallow():
    try:
        yield
    except KeyError:
        print("swallowed")
with swallow():
    {}["x"]
print("after")
with nullcontext(5) as v: print(v)
with suppress(ZeroDivisionError, KeyError):
    1 / 0
print("suppressed")
class R:
    def close(self): print("closed")
with closing(R()): pass
with ExitStack() as st:
    for n in "xy":
        st.enter_context(tag(n))
    st.callback(print, "cb")
@tag("deco")
def f(): print("in f")
f()
@contextmanager
def noyield():
    if False:
        yield
try:
    with noyield(): pass
except RuntimeError as e:
    print("RuntimeError", e)
