# print() follows sys.stdout once a script replaces it, as CPython's does:
# sys.stdout = io.StringIO(), contextlib.redirect_stdout / redirect_stderr (nested,
# restored on an exception), a file, a user class with write(); sys.__stdout__ keeps the
# original stream.
import contextlib
import io
import os
import sys
import tempfile

buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    print('hidden', 1, 2, sep='-')
    print('second line', end='!')
    sys.stdout.write('direct\n')
print(repr(buf.getvalue()))
old = sys.stdout
sys.stdout = io.StringIO()
print('captured')
v = sys.stdout.getvalue()
sys.stdout = old
print(repr(v), sys.stdout is sys.__stdout__)
outer, inner = io.StringIO(), io.StringIO()
with contextlib.redirect_stdout(outer):
    print('a')
    with contextlib.redirect_stdout(inner) as target:
        print('b', target is inner)
    print('c')
print(repr(outer.getvalue()), repr(inner.getvalue()))
try:
    with contextlib.redirect_stdout(io.StringIO()):
        raise KeyError('x')
except KeyError:
    pass
print('restored after an exception')
err = io.StringIO()
with contextlib.redirect_stderr(err):
    print('to stderr', file=sys.stderr)
print(repr(err.getvalue()))


class Collect:
    def __init__(self):
        self.parts = []

    def write(self, s):
        self.parts.append(s)
        return len(s)

    def flush(self):
        pass


c = Collect()
with contextlib.redirect_stdout(c):
    print('x', 'y')
    print()
print(c.parts)
path = os.path.join(tempfile.mkdtemp(), 'log.txt')
with open(path, 'w') as f, contextlib.redirect_stdout(f):
    print('into a file')
with open(path) as f:
    print(repr(f.read()))
os.remove(path)
print(sys.__stdout__ is not None, sys.__stderr__ is not None)
