# array.array (typecodes, methods, errors) and memoryview over it, as CPython 3.11.
import array
from array import array as A

print(array.typecodes, A is array.ArrayType, A)
for tc in array.typecodes:
    a = A(tc)
    print(tc, a.itemsize, a.typecode, repr(a), len(a))
a = A('i', [1, 2, 3])
print(a, a[0], a[-1], a[1:], a[::-1], a[::2], list(a), a.tolist(), 2 in a, 7 in a)
a.append(4); a.extend([5, 6]); a.insert(0, 0); a.insert(-1, 99); a.insert(100, 7)
print(a, len(a), a.pop(), a.pop(0), a.index(99), a.count(2))
a.remove(99); a.reverse(); print(a)
a[0] = -5; a[1:3] = A('i', [10, 20, 30]); print(a)
del a[0]; del a[::2]; print(a)
b = A('h', b'\x01\x00\x02\x00'); print(b, b.tobytes(), bytes(b))
b.frombytes(b'\xff\xff'); print(b); b.byteswap(); print(b)
b.fromlist([7, 8]); print(b, b.buffer_info()[1])
f = A('f', [0.1, 2.5]); d = A('d', (0.1, 1e300)); print(f, d, f[0])
u = A('u', 'héllo'); print(u, u.tounicode(), u[1], u.itemsize); u.fromunicode('!'); print(u)
print(A('i', [1, 2]) + A('i', [3]), A('b', [1]) * 3, 2 * A('B', [9]))
print(A('i', [1, 2]) == A('i', [1, 2]), A('i', [1, 2]) == A('d', [1.0, 2.0]), A('i', [1]) < A('i', [2]), A('i') == [])
c = A('q', range(5)); c += A('q', [5]); c *= 2; print(c)
print(A('l', [2 ** 63 - 1]), A('Q', [2 ** 64 - 1]), A('B', bytearray(b'ab')), A('d', A('i', [1, 2])))
for tc, v in [('b', 128), ('b', -129), ('B', 256), ('B', -1), ('h', 2 ** 15), ('H', -1), ('i', 2 ** 31), ('I', -1),
              ('I', 2 ** 32), ('l', 2 ** 63), ('L', -1), ('L', 2 ** 64), ('q', -2 ** 63 - 1), ('Q', -1), ('Q', 2 ** 64),
              ('i', 1.5), ('d', 'x'), ('f', None), ('u', 1), ('u', 'ab'), ('i', '1')]:
    try:
        A(tc, [v])
        print(tc, v, 'ok')
    except (OverflowError, TypeError) as e:
        print(tc, v, type(e).__name__, e)
for bad in [lambda: A('z'), lambda: A(1), lambda: A('ii'), lambda: A('i', 'abc'), lambda: A('i', [1])[5],
            lambda: A('i').pop(), lambda: A('i', [1]).pop(3), lambda: A('i', [1]).remove(2),
            lambda: A('i', [1]).index(2), lambda: A('h', b'\x00'), lambda: A('i').fromlist((1,)),
            lambda: A('i', [1]) + A('d', [1.0]), lambda: A('i', [1]) + [2], lambda: A('i', [1]).tounicode(),
            lambda: A('i', [1]).extend(A('h', [1])), lambda: A('i', [1, 2]).__setitem__(slice(0, 1), [5]),
            lambda: A('i', [1, 2, 3]).__setitem__(slice(0, 3, 2), A('i', [1])),
            lambda: A('i', [1]).__setitem__(3, 1), lambda: A('i', [1])['x']]:
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__, e)
x = A('i', [1, 2, 3])
try:
    x.fromlist([4, 'a'])
except TypeError as e:
    print(e, x)
m = memoryview(x)
print(m.format, m.itemsize, m.shape, m.strides, m.nbytes, m.readonly, m.tolist(), m.obj is x, len(m))
m[0] = 100
print(x, m[1], m[-1], m[1:].tolist(), bytes(m[:1]))
x[2] = -7
print(m.tolist(), m.cast('B').tolist()[:4], m.tobytes())
with memoryview(A('d', [1.5, 2.5])) as md:
    print(md.format, md.tolist(), md[1])
print(repr(md)[:17])
mu = memoryview(A('u', 'ab'))
print(mu.format, mu.itemsize, mu.nbytes)
try:
    mu.tolist()
except NotImplementedError as e:
    print(e)
try:
    md.tolist()
except ValueError as e:
    print(e)
import copy
print(copy.copy(x), copy.deepcopy(x), x.__copy__() is x, sorted(A('i', [3, 1, 2])), sum(A('d', [0.5, 0.25])))
