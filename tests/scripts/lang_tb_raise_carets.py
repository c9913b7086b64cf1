# Traceback carets under a raise statement, as CPython 3.11: the raise's span, shown when it
# does not cover the whole stripped line (`def f(): raise X` on one line, `if x: raise X`),
# omitted when the raise is alone on its line. Printed with traceback.format_exc, the
# script's folder left out (the expected file must not depend on where the tree is).
import os
import traceback

HERE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def show():
    print(traceback.format_exc().replace(HERE, ""), end="")


def f(): raise IndexError("list index out of range")


def g():
    raise KeyError('k')


def h(x):
    if x: raise ValueError(x)


def k():
    try: 1 / 0
    except ZeroDivisionError as e: raise RuntimeError('wrapped') from e


class C:
    def m(self): raise TypeError('t')


def bare():
    try:
        raise OSError('first')
    except OSError: raise


for fn in (f, g, lambda: h(3), k, C().m, bare):
    try:
        fn()
    except Exception:
        show()
try: f()
except IndexError: show()
