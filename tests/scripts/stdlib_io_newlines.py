# Text-mode newline handling as CPython 3.11: open()'s universal newlines on read (\r\n and \r
# become \n; newline='' keeps them and splits at any; '\n', '\r', '\r\n' split only there),
# translation on write, f.newlines, readline/readlines/iteration/read(n), io.StringIO(newline=...)
# and io.TextIOWrapper over a binary buffer; the errors for a bad newline.
import csv
import io
import os

path = 'stdlib_io_newlines.tmp'
with open(path, 'wb') as f:
    f.write(b'a\r\nb\rc\nd\r')

for nl in [None, '', '\n', '\r', '\r\n']:
    with open(path, newline=nl) as f:
        print(repr(nl), f.newlines, f.readlines(), f.newlines)
    with open(path, newline=nl) as f:
        print('  read', repr(f.read()), f.newlines)
    with open(path, newline=nl) as f:
        print('  iter', [line for line in f])
    with open(path, newline=nl) as f:
        print('  read(n)', repr(f.read(2)), repr(f.read(3)), repr(f.readline()), repr(f.read()))

with open(path) as f:
    print(f.newlines, repr(f.readline()), f.newlines)

for nl in [None, '', '\n', '\r', '\r\n']:
    with open(path, 'w', newline=nl) as f:
        print(repr(nl), f.write('x\ny\r\nz\r'), end=' ')
    with open(path, 'rb') as f:
        print(f.read())

# a CSV written by csv.writer (\r\n line ends) and read back with a plain open()
with open(path, 'w', newline='') as f:
    w = csv.writer(f)
    w.writerow(['epoch', 'loss'])
    w.writerow([1, 0.5])
with open(path) as f:
    print(repr(f.read()))
with open(path, newline='') as f:
    print(list(csv.reader(f)))

# a long file: the \r\n pairs that straddle the read chunks
with open(path, 'wb') as f:
    f.write(b''.join(b'line %d\r\n' % i for i in range(3000)))
with open(path) as f:
    lines = f.readlines()
print(len(lines), lines[0], lines[-1], all(line.endswith('\n') and '\r' not in line for line in lines))
with open(path, newline='') as f:
    print(sum(1 for line in f if line.endswith('\r\n')))
with open(path) as f:
    print(len(f.read()))

for nl in [None, '', '\n', '\r', '\r\n']:
    s = io.StringIO('a\r\nb\rc\nd', newline=nl)
    print('StringIO', repr(nl), repr(s.getvalue()), s.readlines(), s.newlines)
    s = io.StringIO(newline=nl)
    print('  write', s.write('x\ny\r\nz\r'), repr(s.getvalue()), s.newlines)
    s.seek(0)
    print('  lines', s.readlines(), [line for line in io.StringIO(s.getvalue(), newline=nl)])
print(io.StringIO('a\nb').newlines, io.StringIO().newlines)

for nl in [None, '', '\n', '\r', '\r\n']:
    t = io.TextIOWrapper(io.BytesIO(b'a\r\nb\rc\nd'), encoding='utf-8', newline=nl)
    print('TextIOWrapper', repr(nl), t.readlines(), t.newlines)

for bad in [dict(newline='x'), dict(newline=3), dict(mode='rb', newline='')]:
    try:
        open(path, **bad)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
for bad in ['x', 3]:
    try:
        io.StringIO(newline=bad)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
os.remove(path)
