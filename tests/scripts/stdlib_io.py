# open() and io: text files read, written, appended, iterated; json.dump/json.load through them
import json, os
path = 'io_test.tmp'
with open(path, 'w') as f:
    print(f.write('line one\n'), f.closed, f.name, f.mode)
    f.writelines(['two\n', 'three'])
print(f.closed)
with open(path) as f:
    print(repr(f.read()))
with open(path) as f:
    print(f.readline(), end='')
    print(f.readlines())
with open(path, 'a') as f:
    f.write('\nfour\n')
for i, line in enumerate(open(path)):
    print(i, line.rstrip())
print(open(path).read(5), repr(open(path, 'r').readline(3)))
with open('cfg.tmp', 'w') as f:
    json.dump({'lr': 0.01, 'layers': [2, 3]}, f, indent=2)
with open('cfg.tmp') as f:
    print(json.load(f), repr(open('cfg.tmp').read()))
for args in [('nonexist_dir/x',), ('.',), (path, 'q'), (path, 'rw')]:
    try:
        open(*args)
    except (OSError, ValueError, TypeError) as e:
        print(type(e).__name__, e)
f = open(path); f.close()
try:
    f.read()
except ValueError as e:
    print('ValueError', e)
try:
    open(path).write('x')
except OSError as e:
    print(type(e).__name__, e)
import io
print(isinstance(f, io.TextIOWrapper), io.UnsupportedOperation.__mro__[1] if hasattr(io.UnsupportedOperation, '__mro__') else OSError)
os.remove(path); os.remove('cfg.tmp')
