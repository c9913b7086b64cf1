# io.TextIOWrapper over binary streams (BytesIO, files opened rb/wb, a BufferedReader) and
# io.BufferedReader / io.BufferedWriter over raw streams, as CPython 3.11.
import io
import os
import tempfile

raw = io.BytesIO('héllo\nwörld\r\nlast'.encode('utf-8'))
t = io.TextIOWrapper(raw, encoding='utf-8')
print(isinstance(t, io.TextIOWrapper), type(t).__name__, t.encoding, repr(t))
print(repr(t.readline()), repr(t.readline()), repr(t.read()), repr(t.read()))
t2 = io.TextIOWrapper(io.BytesIO(b'a\r\nb\rc\n'), encoding='utf-8', newline='')
print(list(t2))
t3 = io.TextIOWrapper(io.BytesIO(b'a\r\nb\rc\n'), encoding='utf-8', newline='\r\n')
print(list(t3))
t4 = io.TextIOWrapper(io.BytesIO(b'x\ny\n'), encoding='utf-8')
for line in t4:
    print(repr(line))
buf = io.BytesIO()
w = io.TextIOWrapper(buf, encoding='utf-8', newline='\r\n')
print(w.write('line one\nline two\n'), buf.getvalue())
w.flush()
print(buf.getvalue())
w.write('ünï')
b = w.detach()
print(b is buf, buf.getvalue(), w.buffer)
try:
    w.write('x')
except ValueError as e:
    print('ValueError', e)
lat = io.BytesIO()
wl = io.TextIOWrapper(lat, encoding='latin-1', line_buffering=True)
wl.write('café\n')
print(lat.getvalue(), wl.line_buffering)
try:
    wl.write(b'bytes')
except TypeError as e:
    print('TypeError', e)
wl.close()
print(wl.closed, lat.closed)
try:
    wl.write('x')
except ValueError as e:
    print('ValueError', e)
try:
    io.TextIOWrapper(io.BytesIO(), newline='x')
except ValueError as e:
    print('ValueError', e)
bad = io.TextIOWrapper(io.BytesIO(b'\xff\xfe'), encoding='utf-8')
try:
    bad.read()
except UnicodeDecodeError as e:
    print('UnicodeDecodeError', e)
print(io.TextIOWrapper(io.BytesIO(b'\xffok'), encoding='utf-8', errors='replace').read())
d = tempfile.mkdtemp()
path = os.path.join(d, 'f.txt')
with open(path, 'wb') as fb:
    tw = io.TextIOWrapper(fb, encoding='utf-8')
    tw.write('alpha\nbeta\n')
    tw.flush()
    tw.detach()
with open(path, 'rb') as fb:
    tr = io.TextIOWrapper(fb, encoding='utf-8')
    print(tr.readlines())
    tr.seek(0)
    print(repr(tr.read(3)), tr.readable(), tr.writable(), tr.seekable())
br = io.BufferedReader(io.BytesIO(b'one\ntwo\nthree'))
print(br.peek(3)[:3], br.read(4), br.readline(), list(br), br.read(), br.closed)
ba = bytearray(2)
br2 = io.BufferedReader(io.BytesIO(b'xyz'))
print(br2.readinto(ba), ba, br2.read1(5))
sink = io.BytesIO()
bw = io.BufferedWriter(sink)
print(bw.write(b'abc'), sink.getvalue())
bw.flush()
print(sink.getvalue(), bw.writable(), bw.raw is sink)
try:
    bw.write('s')
except TypeError as e:
    print('TypeError', e)
tb = io.TextIOWrapper(io.BufferedReader(io.BytesIO(b'p\nq\n')), encoding='utf-8')
print(tb.read().splitlines())
os.remove(path)
os.rmdir(d)
