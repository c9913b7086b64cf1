# bytes and bytearray as CPython 3.11: literals, repr, indexing, operators, methods, codecs
b = b'hello\x00\xff\n\t\'"\\'
print(b, len(b), type(b).__name__, b[0], b[-1], b[1:4], b[::-1][:3])
print(rb'a\x00\n', b'\101\x41\u0041', b'it\'s', b"it's", b'say "hi"', b'both \' and "')
print(b'ab' b'cd', repr(b''), bytes(), bytes(3), bytes([1, 2, 255]), bytes(range(65, 70)))
print(bytes('héllo', 'utf-8'), bytes('abc', encoding='ascii'), bytearray(b'xyz'), bytearray(2), bytearray([104, 105]))
x = b'abc'
print(x + b'def', x * 3, 2 * x, x * 0, x * -1, b'b' in x, 99 in x, 100 in x, b'' in x, b'ac' in x)
print(x == b'abc', x == 'abc', x != b'abd', x < b'abd', b'ab' < x, x > b'abc', x <= b'abc', x >= b'b')
print(x == bytearray(b'abc'), hash(b'abc') == hash(b'abc'), {b'k': 1}[b'k'], {b'k', b'k', b'j'} == {b'j', b'k'})
print(list(b'AZ'), [c for c in b'hi'], sorted(b'cab'), max(b'abc'), sum(b'\x01\x02'), bool(b''), bool(b'\x00'))
print(str(b'x'), f'{b"y"}', '%s' % b'z', '%r' % (b'w',), [b'1', b'2'], (b'a',), {'k': b'v'})
s = 'naïve ☃ 😀'
e = s.encode()
print(e, len(e), e.decode(), e.decode('utf-8') == s, s.encode('utf8'), s.encode('UTF-8') == e)
print('abc'.encode('ascii'), 'é'.encode('latin-1'), b'\xe9'.decode('latin1'), 'ab'.encode(encoding='latin_1'))
print(s.encode('ascii', 'ignore'), s.encode('ascii', 'replace'), s.encode('ascii', errors='backslashreplace'), s.encode('latin-1', 'xmlcharrefreplace'))
print(b'a\xffb\xe2\x82'.decode('utf-8', 'replace'), b'a\xffb'.decode('utf-8', 'ignore'), b'a\xffb'.decode('ascii', 'backslashreplace'))
for bad, enc in [(b'\xff', 'utf-8'), (b'ab\xe2\x82', 'utf-8'), (b'\xe2\x28\xa1', 'utf-8'), (b'a\x80', 'ascii')]:
    try:
        bad.decode(enc)
    except UnicodeDecodeError as err:
        print(type(err).__name__, err, isinstance(err, ValueError), isinstance(err, UnicodeError))
for text, enc in [('é', 'ascii'), ('aéè', 'ascii'), ('☃', 'latin-1')]:
    try:
        text.encode(enc)
    except UnicodeEncodeError as err:
        print(type(err).__name__, err)
try:
    'a'.encode('no-such-codec')
except LookupError as err:
    print('LookupError', err)
print(b'\x00\x0f\xab'.hex(), b'\x01\x02\x03\x04\x05'.hex(':'), b'\x01\x02\x03\x04\x05'.hex('-', 2), b'\x01\x02\x03'.hex(' ', -2))
print(bytes.fromhex('00 0f AB'), bytearray.fromhex('deadbeef'), bytes.fromhex(''))
h = b'  hello world  '
print(h.strip(), h.lstrip(), h.rstrip(), b'xxhixx'.strip(b'x'), h.split(), b'a,b,,c'.split(b','), b'a,b,c'.split(b',', 1))
print(b'a b  c '.rsplit(None, 1), b'a,b,c'.rsplit(b',', 1), b' '.join([b'a', b'b', b'c']), b''.join([]), b'-'.join((bytearray(b'x'), b'y')))
print(b'hello'.find(b'l'), b'hello'.rfind(b'l'), b'hello'.find(b'z'), b'hello'.index(b'e'), b'hello'.count(b'l'), b'hello'.find(108), b'hello'.count(b''))
print(b'hello'.startswith(b'he'), b'hello'.endswith((b'x', b'lo')), b'hello'.startswith(b'l', 2), b'hello'.replace(b'l', b'L'), b'hello'.replace(b'l', b'', 1))
print(b'Hello'.upper(), b'Hello'.lower(), b'Hello'.swapcase(), b'123'.isdigit(), b'abc'.isalpha(), b'a1'.isalnum(), b' \n'.isspace(), b''.isdigit())
print(b'a=b=c'.partition(b'='), b'a=b=c'.rpartition(b'='), b'abc'.partition(b'x'), b'l1\nl2\r\nl3'.splitlines(), b'l1\nl2\n'.splitlines(True))
print(b'ab'.ljust(5, b'*'), b'ab'.rjust(5), b'ab'.center(7, b'-'), b'-42'.zfill(6), b'42'.zfill(5))
print(b'%d items, %s, %5.2f, %x, %r' % (3, b'bytes', 2.5, 255, b'r'), b'%s' % b'one', b'100%%' % ())
a = bytearray(b'abc')
a[0] = 65
a.append(100)
a.extend(b'ef')
a.extend([103, 104])
a += b'!'
print(a, len(a), a[1], a[1:3], a.pop(), a.pop(0), a)
a[1:3] = b'XYZ'
print(a)
a.insert(0, 48)
a.remove(90)
del_ok = a.copy()
a.reverse()
print(a, del_ok, a == del_ok, bytes(a), bytearray(b'x') + b'y', b'y' + bytearray(b'x'))
a.clear()
print(a, len(a), repr(bytearray()))
print((1000).to_bytes(2, 'big'), (1000).to_bytes(4, byteorder='little'), (-1).to_bytes(2, 'big', signed=True), (255).to_bytes(1, 'big'))
print(int.from_bytes(b'\x03\xe8', 'big'), int.from_bytes(b'\xe8\x03', 'little'), int.from_bytes(b'\xff\xff', 'big', signed=True), int.from_bytes(b'\x01' * 12, 'big'))
print((2 ** 80).to_bytes(11, 'big'), int.from_bytes((2 ** 80 + 5).to_bytes(12, 'little'), 'little'))
print(isinstance(b'', bytes), isinstance(bytearray(), bytearray), isinstance(b'', bytearray), type(b'') is bytes, bytes is type(bytes(1)))
for bad in [lambda: b'a' + 'b', lambda: 'a' + b'b', lambda: b'abc'[3], lambda: bytes('abc'), lambda: bytes(-1), lambda: bytes([256]),
            lambda: bytes(['a']), lambda: b'x'.decode('utf-16x'), lambda: 'x' in b'abc', lambda: hash(bytearray(b'a')),
            lambda: b'x' < 'y', lambda: bytes.fromhex('zz'), lambda: b'abc'.index(b'z'), lambda: (256).to_bytes(1, 'big'),
            lambda: (-1).to_bytes(1, 'big'), lambda: bytearray().pop(), lambda: b'a'.foo, lambda: 256 in b'a', lambda: bytes(1.5)]:
    try:
        bad()
        print('no error')
    except Exception as err:
        print(type(err).__name__ + ':', err)
try:
    b = b'abc'
    b[0] = 1
except TypeError as err:
    print('TypeError:', err)
d = bytearray(b'0123456789')
del d[0]
del d[-1]
del d[::3]
del d[1:2]
print(d)
d = bytearray(b'abcdef')
del d[::-2]
print(d)
try:
    del d[10]
except IndexError as err:
    print('IndexError:', err)
try:
    bb = b'xy'
    del bb[0]
except TypeError as err:
    print('TypeError:', err)
