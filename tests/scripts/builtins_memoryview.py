# memoryview over bytes and bytearray as CPython 3.11's: views, slices, writes through, tobytes/tolist/hex, errors, release
b = bytearray(b'hello world')
m = memoryview(b)
print(m[0], m[-1], len(m), m.tobytes(), bytes(m[0:5]), m[::2].tobytes(), m.tolist()[:3], m.hex(), m.readonly, m.nbytes)
m[0] = 72
print(b)
m[6:11] = b'WORLD'
print(b, m[6:].tobytes(), bytes(m[1:4][1:]))
s = m[2:8]
s[0] = ord('L')
print(b, s.obj is b, s.format, s.itemsize, s.ndim, s.shape, s.strides)
r = memoryview(b'abc')
print(r.readonly, r == b'abc', r == memoryview(b'abc'), list(r), hash(r) == hash(b'abc'), bytearray(r))
for bad in [lambda: r.__setitem__(0, 1), lambda: m.__setitem__(0, 300), lambda: m.__setitem__(slice(0, 2), b'xyz'),
            lambda: memoryview('str'), lambda: m[20], lambda: hash(m)]:
    try:
        bad()
    except (TypeError, ValueError, IndexError) as e:
        print(type(e).__name__, e)
with memoryview(b'xy') as mv:
    print(mv.tobytes())
try:
    len(mv)
except ValueError as e:
    print('ValueError', e)
print(type(memoryview(b'')).__name__, memoryview(m).tobytes())
