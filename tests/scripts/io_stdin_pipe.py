# sys.stdin, os.pipe, open(fd), os.fdopen, file readline/iteration reading line by line
import os, sys, io
print(sys.stdin.name, sys.stdin.mode, sys.stdin.fileno(), type(sys.stdin).__name__, sys.stdin.readable())
r, w = os.pipe()
print(type(r), r != w, os.get_inheritable(r) if hasattr(os, 'get_inheritable') else False)
os.write(w, b'first line\n')
f = os.fdopen(r)
print(repr(f.readline()))  # must not wait for the writer to close
os.write(w, b'second\nthird\n')
print(repr(f.readline()), repr(f.readline()))
wf = open(w, 'w')
wf.write('fourth\n')
wf.flush()
print(repr(next(iter(f))))
wf.write('a\xe9b\nlast')
wf.close()
print(list(f), f.read(), f.isatty())
f.close()
try:
    os.close(r)
except OSError as e:
    print('OSError', e.errno, e)
r, w = os.pipe()
os.write(w, b'\x00\x01\x02rest')
print(os.read(r, 2), os.read(r, 100))
os.close(w)
print(os.read(r, 10))
os.close(r)
r, w = os.pipe()
os.write(w, b'alpha 1\nbeta 2\ngamma 3\n')
os.close(w)
os.dup2(r, 0)
os.close(r)
print(sys.stdin.readline().split())
for line in sys.stdin:
    name, n = line.split()
    print(name.upper(), int(n) * 10)
print(repr(sys.stdin.read()), sys.stdin.isatty())
r, w = os.pipe()
os.write(w, b'xyz\n12')
os.close(w)
with open(r, 'rb') as b:
    print(b.readline(), b.read(1), b.read())
r, w = os.pipe()
with os.fdopen(w, 'wb') as bw:
    bw.write(b'data')
print(os.read(r, 10))
os.close(r)
try:
    open(-1)
except ValueError as e:
    print('ValueError', e)
try:
    open(2.5)
except TypeError as e:
    print('TypeError', e)
try:
    os.read(r, 1)
except OSError as e:
    print('OSError', e)
try:
    os.write(1, 'text')
except TypeError as e:
    print('TypeError', e)
path = 'io_stdin_pipe.tmp'
with open(path, 'w') as out:
    out.write('one\ntwo\n' + 'x' * 20000 + '\nend')
with open(path) as src:
    print(src.readline(), len(src.readline()), len(src.readline()), src.readline(), repr(src.readline()))
with open(path) as src:
    print([len(l) for l in src])
os.remove(path)
r, w = os.pipe()
os.write(w, b'answer\nno newline')
os.close(w)
os.dup2(r, 0)
os.close(r)
print(repr(input()), repr(input('prompt> ')))
try:
    input()
except EOFError as e:
    print('EOFError', e)
