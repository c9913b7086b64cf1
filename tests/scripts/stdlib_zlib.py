# zlib as CPython 3.11's (same zlib library): checksums, compress/decompress with levels and wbits, the stream objects, zlib.error messages
import zlib
print(zlib.crc32(b'hello'), zlib.adler32(b'hello'), zlib.crc32(b'world', zlib.crc32(b'hello ')), zlib.crc32(b'hello world'))
data = b'hello world ' * 20
c = zlib.compress(data)
print(len(c), c)
print(zlib.decompress(c) == data, zlib.compress(data, 9) == c, len(zlib.compress(data, 0)), zlib.compress(b''))
print(zlib.compress(data, level=1), zlib.compress(data, wbits=-15)[:12], zlib.compress(data, wbits=31)[:12])
print(zlib.decompress(zlib.compress(data, wbits=31), wbits=31)[:11], zlib.decompress(zlib.compress(data, wbits=31), 47)[:5])
co = zlib.compressobj(6, zlib.DEFLATED, -15)
raw = co.compress(data[:100]) + co.compress(data[100:]) + co.flush()
print(raw == zlib.compress(data, wbits=-15), zlib.decompress(raw, -15) == data)
do = zlib.decompressobj()
out = do.decompress(c[:10]) + do.decompress(c[10:] + b'tail')
print(out == data, do.eof, do.unused_data, do.flush())
for bad in [b'garbage', c[:-5], b'']:
    try:
        zlib.decompress(bad)
    except zlib.error as e:
        print('zlib.error:', e)
try:
    zlib.compress(data, 12)
except zlib.error as e:
    print('zlib.error:', e)
try:
    zlib.crc32('str')
except TypeError as e:
    print('TypeError:', e)
print(zlib.MAX_WBITS, zlib.Z_BEST_COMPRESSION, zlib.DEFLATED, issubclass(zlib.error, Exception), zlib.ZLIB_VERSION[:2])
