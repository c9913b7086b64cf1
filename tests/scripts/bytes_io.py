# open() in binary modes, io.BytesIO and io.StringIO, as CPython 3.11
import io
import os

path = 'bytes_io.tmp'
data = bytes(range(256)) + b'\nline two\n'
with open(path, 'wb') as f:
    print(f.write(data), f.writable(), f.readable(), f.mode)
with open(path, 'rb') as f:
    got = f.read()
print(got == data, len(got), type(got).__name__)
with open(path, 'rb') as f:
    print(f.read(4), f.readline()[-3:], f.readline(), f.read(), f.read())
with open(path, 'ab') as f:
    f.write(bytearray(b'tail'))
with open(path, 'rb') as f:
    print(f.readlines()[-1])
with open(path, 'r', encoding='latin-1') as f:
    pass
try:
    with open(path, 'wb') as f:
        f.write('text')
except TypeError as e:
    print('TypeError:', e)
try:
    open(path, 'rbt')
except ValueError as e:
    print('ValueError:', e)
os.remove(path)

b = io.BytesIO(b'abc\ndef\n')
print(b.read(2), b.tell(), b.readline(), b.readlines(), b.read(), b.getvalue())
b.seek(0)
b.write(b'XY')
print(b.getvalue(), b.tell(), b.seek(0, 2), b.write(b'!'), b.getvalue())
b.seek(12)
b.write(b'z')
print(b.getvalue())
print([line for line in io.BytesIO(b'1\n2\n3')])
with io.BytesIO() as m:
    m.write(b'hello ')
    m.write(bytearray(b'world'))
    print(m.getvalue(), m.closed)
print(m.closed)
try:
    m.getvalue()
except ValueError as e:
    print('ValueError:', e)
try:
    io.BytesIO('str')
except TypeError as e:
    print('TypeError:', e)

s = io.StringIO()
s.write('hello\n')
print('world', file=s)
print(repr(s.getvalue()), s.tell())
s.seek(0)
print(s.readline(), s.read(), repr(s.read()))
t = io.StringIO('a\nb\nc')
print(t.readlines(), list(io.StringIO('x\ny')))
try:
    io.StringIO(b'x')
except TypeError as e:
    print('TypeError:', e)
