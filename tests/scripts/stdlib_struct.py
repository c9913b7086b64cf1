# struct as CPython 3.11: pack/unpack/calcsize/iter_unpack/unpack_from/pack_into/Struct, errors
import struct

print(struct.pack('<i', 1), struct.pack('>I', 0xdeadbeef), struct.pack('<hHbB', -2, 65535, -128, 255))
print(struct.pack('<qQ', -1, 2 ** 64 - 1), struct.unpack('<qQ', struct.pack('<qQ', -5, 2 ** 63 + 7)))
print(struct.pack('<fd', 1.5, -0.1), struct.unpack('<fd', struct.pack('<fd', 0.1, 0.1)), struct.pack('>e', 1.5), struct.unpack('<e', b'\x00<'))
print(struct.pack('<e', 65504.0), struct.pack('<e', 5.96e-08), struct.pack('<e', 0.1), struct.unpack('>3e', struct.pack('>3e', 0.333, -2.5, 1e-7)))
print(struct.pack('@ci', b'x', 7), struct.pack('=ci', b'x', 7), struct.pack('!H', 258), struct.pack('4s', b'ab'), struct.pack('2s', b'abcd'), struct.pack('5p', b'abc'))
print(struct.pack('?x?', 5, 0), struct.unpack('?x?', b'\x01\x00\x00'), struct.pack('3B', 1, 2, 3), struct.pack('<2h i', 1, 2, 3))
for f in ['i', '<i', '@ci', '@ic', '<ci', 'q', 'iq', '5s2p', '0l', 'ci0l', 'x2xi', '', '3x', '<n' if False else 'n', 'P', 'e', '10s']:
    print(repr(f), struct.calcsize(f))
print(struct.unpack('<3H', b'\x01\x00\x02\x00\x03\x00'), struct.unpack('4s', b'ab\x00c'), struct.unpack('5p', b'\x03abcd'))
print(struct.unpack_from('<H', b'\x00\x01\x02\x03', 1), struct.unpack_from('<H', bytearray(b'\x00\x01\x02'), offset=-2))
print(list(struct.iter_unpack('<h', b'\x01\x00\x02\x00\xff\xff')))
buf = bytearray(8)
struct.pack_into('<I', buf, 2, 0x01020304)
print(buf)
s = struct.Struct('<2if')
print(s.size, s.format, s.pack(1, 2, 3.0), s.unpack(s.pack(1, 2, 3.0)), s.unpack_from(b'\x00' + s.pack(4, 5, 6.0), 1))
n = struct.pack('!Q', 2 ** 64 - 1)
print(n, struct.unpack('!Q', n)[0] == 2 ** 64 - 1, struct.unpack('<I', b'\xff\xff\xff\xff'), struct.unpack('<i', b'\xff\xff\xff\xff'))
tests = [('b', 300), ('B', 300), ('B', -1), ('h', 70000), ('H', -1), ('i', 2 ** 31), ('I', -1), ('l', 2 ** 63), ('L', -1),
         ('q', 2 ** 63), ('Q', -1), ('<b', 300), ('<B', -1), ('<h', 70000), ('<H', 70000), ('>H', -1), ('<i', 2 ** 31),
         ('<I', -1), ('<I', 2 ** 32), ('<l', 2 ** 31), ('<q', 2 ** 63), ('<Q', 2 ** 64), ('i', 1.5), ('f', 'x'),
         ('c', b'ab'), ('c', 'a'), ('s', 'x'), ('i', '3'), ('e', 1e10), ('<f', 1e300)]
for f, v in tests:
    try:
        print(f, v, struct.pack(f, v))
    except (struct.error, OverflowError) as e:
        print(f, v, type(e).__name__, e)
for args in [('z',), ('3',), ('i3',), ('<n',), ('<P',)]:
    try:
        struct.calcsize(*args)
    except struct.error as e:
        print(args, 'error:', e)
for args in [('i',), ('ii', 1), ('i', 1, 2)]:
    try:
        struct.pack(*args)
    except struct.error as e:
        print(args, 'error:', e)
bad = [lambda: struct.unpack('i', b'12'), lambda: struct.unpack('i', '1234'), lambda: struct.unpack_from('i', b'12345', 2),
       lambda: list(struct.iter_unpack('i', b'12345')), lambda: struct.iter_unpack('', b''), lambda: struct.pack(3),
       lambda: struct.pack_into('<I', bytearray(3), 0, 1), lambda: struct.unpack('>' + 'x' * 3 + 'q', b'\x00' * 10)]
for f in bad:
    try:
        f()
        print('no error')
    except Exception as e:
        print(type(e).__name__, e)
print(issubclass(struct.error, Exception), struct.error.__name__)
