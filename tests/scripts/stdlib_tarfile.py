# tarfile, bz2, lzma: archives written and read back (plain, gz, bz2, xz), byte-identical to CPython's; compress/decompress round trips and errors
import bz2
import io
import lzma
import os
import shutil
import tarfile
import tempfile

data = b'PyTorch checkpoints and datasets ' * 50
c = bz2.compress(data)
print(len(c), c[:10], bz2.decompress(c) == data, bz2.decompress(c + bz2.compress(b'x')) == data + b'x')
print(bz2.compress(b'', 1)[:4], bz2.decompress(bz2.compress(b'')))
try:
    bz2.decompress(b'not bz2 data')
except OSError as e:
    print('OSError', e)
try:
    bz2.decompress(c[:-5])
except ValueError as e:
    print('ValueError', e)
try:
    bz2.compress(b'x', 10)
except ValueError as e:
    print('ValueError', e)
x = lzma.compress(data)
print(len(x), x[:6], lzma.decompress(x) == data)
a = lzma.compress(data, format=lzma.FORMAT_ALONE)
print(len(a), a[:5], lzma.decompress(a) == data, lzma.decompress(x + x) == data + data)
print(len(lzma.compress(data, preset=1)), len(lzma.compress(data, check=lzma.CHECK_SHA256)))
try:
    lzma.decompress(b'not xz data')
except lzma.LZMAError as e:
    print('LZMAError', e)
try:
    lzma.decompress(x[:-8])
except lzma.LZMAError as e:
    print('LZMAError', e)
comp = bz2.BZ2Compressor()
comp.compress(b'abc')
print(bz2.decompress(comp.flush()))
d = lzma.LZMADecompressor()
print(d.decompress(x + b'tail') == data, d.eof, d.unused_data)

tmp = tempfile.mkdtemp()
os.makedirs(os.path.join(tmp, 'src', 'sub'))
for name, text in [('a.txt', 'alpha\n'), ('sub/b.txt', 'beta ' * 200)]:
    with open(os.path.join(tmp, 'src', name), 'w') as f:
        f.write(text)
with bz2.open(os.path.join(tmp, 'f.bz2'), 'wt') as f:
    f.write('text in bz2\n')
with bz2.open(os.path.join(tmp, 'f.bz2'), 'rt') as f:
    print(repr(f.read()))
with lzma.open(os.path.join(tmp, 'f.xz'), 'wb') as f:
    f.write(data)
with lzma.open(os.path.join(tmp, 'f.xz')) as f:
    print(f.read(10), f.readable())

def made(mode, name):
    path = os.path.join(tmp, name)
    with tarfile.open(path, mode) as tar:
        for ti_name, payload in [('model/weights.bin', b'\x00\x01' * 300), ('README', b'hello\n')]:
            ti = tarfile.TarInfo(ti_name)
            ti.size = len(payload)
            ti.mtime = 1700000000
            ti.uname = ti.gname = 'root'
            tar.addfile(ti, io.BytesIO(payload))
        d = tarfile.TarInfo('model')
        d.type = tarfile.DIRTYPE
        d.mode = 0o755
        d.mtime = 1700000000
        tar.addfile(d)
    with open(path, 'rb') as f:
        return f.read()

for mode, name in [('w', 'a.tar'), ('w:gz', 'a.tar.gz'), ('w:bz2', 'a.tar.bz2'), ('w:xz', 'a.tar.xz')]:
    raw = made(mode, name)
    print(mode, len(raw), raw[:4] if mode != 'w' else raw[:16])
    with tarfile.open(os.path.join(tmp, name)) as tar:
        print(tar.getnames(), [m.size for m in tar.getmembers()], tar.getmember('README').isfile(),
              tar.getmember('model').isdir(), tar.extractfile('README').read())
    print(tarfile.is_tarfile(os.path.join(tmp, name)))
plain = made('w', 'b.tar')
import hashlib
print(hashlib.md5(plain).hexdigest())
with tarfile.open(os.path.join(tmp, 'a.tar.gz'), 'r:gz') as tar:
    tar.extractall(os.path.join(tmp, 'out'))
print(sorted(os.listdir(os.path.join(tmp, 'out', 'model'))))
with open(os.path.join(tmp, 'out', 'README'), 'rb') as f:
    print(f.read())
with tarfile.open(os.path.join(tmp, 'src.tar'), 'w') as tar:
    tar.add(os.path.join(tmp, 'src'), arcname='src')
with tarfile.open(os.path.join(tmp, 'src.tar')) as tar:
    print(tar.getnames(), tar.extractfile('src/sub/b.txt').read()[:10])
long = 'd/' + 'x' * 120 + '.txt'
buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode='w') as tar:
    ti = tarfile.TarInfo(long)
    ti.size = 3
    tar.addfile(ti, io.BytesIO(b'abc'))
buf.seek(0)
with tarfile.open(fileobj=buf) as tar:
    print(tar.getnames() == [long], tar.extractfile(long).read())
print(len(buf.getvalue()))
with open(os.path.join(tmp, 'bad.tar'), 'wb') as f:
    f.write(b'garbage' * 100)
print(tarfile.is_tarfile(os.path.join(tmp, 'bad.tar')))
try:
    tarfile.open(os.path.join(tmp, 'bad.tar'))
except tarfile.ReadError as e:
    print('ReadError')
try:
    tarfile.open(os.path.join(tmp, 'a.tar')).getmember('nope')
except KeyError as e:
    print('KeyError', e)
shutil.rmtree(tmp)

# archives of real files: pax float mtimes, r:* / r|gz, append, list(), errors
tmp = tempfile.mkdtemp()
os.makedirs(os.path.join(tmp, 'data', 'train'))
for i in range(3):
    with open(os.path.join(tmp, 'data', 'train', 'x%d.txt' % i), 'w') as f:
        f.write('sample %d\n' % i * (i + 1))
arc = os.path.join(tmp, 'data.tar.gz')
with tarfile.open(arc, 'w:gz') as tar:
    tar.add(os.path.join(tmp, 'data'), arcname='data')
with tarfile.open(arc, 'r:*') as tar:
    for m in tar.getmembers():
        print(m.name, m.size, m.isfile(), m.isdir(), m.issym(), oct(m.mode & 0o777) if m.isdir() else '', type(m.mtime).__name__)
    print(repr(tar.getmember('data/train/x1.txt'))[:27])
    f = tar.extractfile('data/train/x2.txt')
    print(f.read(), f.name == arc)
    print(tar.extractfile('data') )
    tar.extractall(os.path.join(tmp, 'out'), members=[m for m in tar.getmembers() if m.name.endswith('x0.txt')])
print(sorted(os.listdir(os.path.join(tmp, 'out', 'data', 'train'))))
with tarfile.open(arc, 'r|gz') as tar:
    print([m.name for m in tar])
with tarfile.open(os.path.join(tmp, 'a.tar'), 'w') as tar:
    tar.add(os.path.join(tmp, 'data', 'train', 'x0.txt'), arcname='x0.txt')
with tarfile.open(os.path.join(tmp, 'a.tar'), 'a') as tar:
    tar.add(os.path.join(tmp, 'data', 'train', 'x1.txt'), arcname='x1.txt')
with tarfile.open(os.path.join(tmp, 'a.tar')) as tar:
    print(tar.getnames(), 'x1.txt' in tar.getnames())
    tar.list(verbose=False)
ti = tarfile.TarInfo('hello.txt')
print(ti.name, ti.size, ti.mode, ti.type, ti.isreg(), tarfile.REGTYPE, tarfile.DIRTYPE, tarfile.GNU_FORMAT, tarfile.PAX_FORMAT, tarfile.DEFAULT_FORMAT)
try:
    tarfile.open(os.path.join(tmp, 'missing.tar'))
except FileNotFoundError as e:
    print('FileNotFoundError', e.errno)
try:
    tarfile.open(arc, 'r:bz2')
except tarfile.ReadError as e:
    print('ReadError', e)
try:
    tarfile.open(arc, 'q')
except ValueError as e:
    print('ValueError', e)
print(issubclass(tarfile.ReadError, tarfile.TarError), issubclass(tarfile.TarError, Exception))
with bz2.BZ2File(os.path.join(tmp, 'x.bz2'), 'w') as f:
    f.write(b'abc' * 10)
with bz2.BZ2File(os.path.join(tmp, 'x.bz2')) as f:
    print(f.read())
with lzma.LZMAFile(os.path.join(tmp, 'x.xz'), 'w') as f:
    f.write(b'xyz')
print(lzma.open(os.path.join(tmp, 'x.xz')).read(), lzma.is_check_supported(lzma.CHECK_CRC64), lzma.CHECK_NONE, lzma.FORMAT_RAW)
shutil.rmtree(tmp)
