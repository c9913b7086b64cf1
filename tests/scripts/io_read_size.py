# f.read(n) reads no more than n bytes (characters in text mode) need: a device
# that never ends (/dev/urandom, /dev/zero), a text file read in parts, by line, to its end
import os
with open('/dev/urandom', 'rb') as f:
    a = f.read(16)
    b = f.read(5)
print(type(a).__name__, len(a), len(b), a != b)
with open('/dev/zero', 'rb') as f:
    print(f.read(4), f.read(0), f.read(3))
with open('io_read_size.tmp', 'w', encoding='utf-8') as f:
    f.write('héllo wörld ✓ 日本語\nsecond line\nthird\n')
with open('io_read_size.tmp') as f:
    print(repr(f.read(3)), repr(f.read(9)), repr(f.read(1)), repr(f.readline()), repr(f.read(4)), repr(f.read()), repr(f.read(2)))
with open('io_read_size.tmp', 'rb') as f:
    print(f.read(3), f.read(2), f.readline(), len(f.read()))
with open('io_read_size.tmp') as f:
    parts = []
    while True:
        c = f.read(5)
        if not c:
            break
        parts.append(c)
    print(len(parts), ''.join(parts) == open('io_read_size.tmp').read())
os.remove('io_read_size.tmp')
