# memoryview.cast to the native formats and shapes, format/itemsize/nbytes/shape/strides, tolist, slicing
# cast views, writing through typed views, CPython 3.11's errors; memoryview is a type from the start
import struct
print(memoryview, type(memoryview), memoryview.__name__, isinstance(memoryview, type))
buf = bytearray(struct.pack('<4i', 1, -2, 3, 40000))
m = memoryview(buf)
print(m.format, m.itemsize, m.nbytes, m.shape, m.strides, m.ndim, m.tolist()[:6])
mi = m.cast('i')
print(mi.format, mi.itemsize, mi.nbytes, mi.shape, mi.strides, mi.tolist(), mi[1], mi[-1], len(mi))
print(mi[1:3].tolist(), mi[::-1].tolist(), mi[::2].strides, list(mi), 3 in mi.tolist())
mi[0] = 7
print(buf[:4], mi.tolist())
mb = m.cast('b')
print(mb[4:8].tolist(), m.cast('B', (2, 8)).tolist(), m.cast('B', [4, 2, 2]).strides)
m2 = m.cast('B', (2, 8))
print(m2[1, 2], m2.shape, m2.strides, m2[0:1].tolist(), m2.cast('i').tolist(), m2.c_contiguous, m2.contiguous)
print(m.cast('h').tolist(), m.cast('H')[3], m.cast('q').tolist(), m.cast('Q').shape)
f = memoryview(bytearray(struct.pack('<2d', 1.5, -0.25)))
print(f.cast('d').tolist(), f.cast('f').tolist(), f.cast('d')[1])
fd = f.cast('d')
fd[0] = 3
fd[1] = 2.5
print(fd.tolist(), bytes(f) == struct.pack('<2d', 3.0, 2.5))
c = memoryview(b'abcd').cast('c')
print(c[1], c.tolist(), c.format, hash(c) == hash(b'abcd'))
print(memoryview(b'\x01\x00\x02\x00').cast('h') == memoryview(b'\x01\x00\x00\x00\x02\x00\x00\x00').cast('i'))
print(mi == m.cast('i'), mi.tobytes() == bytes(buf), mi.hex(), mi.cast('B').format)
print(memoryview(b'abc') == b'abc', memoryview(b'abc').cast('B') == bytearray(b'abc'))
for expr in ['m.cast("i").cast("f")', 'm[::2].cast("i")', 'm.cast("i", (3,))', 'm.cast("B", (2, 8))[0]',
             'list(m.cast("B", (2, 8)))', 'hash(memoryview(b"ab").cast("h"))', 'm.cast("q")[5]',
             'm.cast("x")', 'memoryview(b"abc").cast("i")', 'm.cast("i", (5,))', 'm.cast("B", (2, 8)).cast("i", (2, 2))',
             'mi.__setitem__(0, 1.5)', 'mi.__setitem__(0, 2 ** 40)', 'memoryview(b"abcd").cast("i").__setitem__(0, 1)',
             'm.cast("B", (0, 16))', 'm.cast(5)', 'memoryview(3)']:
    try:
        print(expr, '->', eval(expr))
    except Exception as e:
        print(expr, '->', type(e).__name__, e)
with memoryview(b'xyz').cast('B', (3,)) as v:
    print(v.tolist())
print(v.tolist.__name__)
try:
    v.tolist()
except ValueError as e:
    print('ValueError', e)
