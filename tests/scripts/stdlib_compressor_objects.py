# bz2/lzma incremental compressor and decompressor objects as CPython 3.11's: data fed in
# pieces, the end of the stream, unused_data after it, the errors after a flush or the end;
# bz2.decompress of several streams and of a stream followed by bytes that are not one.
import bz2, lzma
for mod, C, D in ((bz2, bz2.BZ2Compressor, bz2.BZ2Decompressor), (lzma, lzma.LZMACompressor, lzma.LZMADecompressor)):
    c = C()
    data = c.compress(b'hello ' * 50)
    data += c.flush() + b'TRAILING'
    try:
        c.flush()
    except ValueError as e:
        print(e)
    try:
        c.compress(b'x')
    except ValueError as e:
        print(e)
    d = D()
    out = d.decompress(data[:10]) + d.decompress(data[10:])
    print(len(out), out[:12], d.eof, d.unused_data, d.needs_input)
    try:
        d.decompress(b'more')
    except EOFError as e:
        print('EOFError', e)
    try:
        D().decompress(b'garbage data here!')
    except Exception as e:
        print(type(e).__name__, e)
print(lzma.LZMADecompressor().check)
one = bz2.compress(b'first ') + bz2.compress(b'second')
print(bz2.decompress(one), bz2.decompress(one + b'not a stream'))
for bad in (b'not a stream', one[:20]):
    try:
        bz2.decompress(bad)
    except (OSError, ValueError) as e:
        print(type(e).__name__, e)
print(lzma.decompress(lzma.compress(b'abc') + lzma.compress(b'def')))
