# gzip as CPython 3.11's: files made by CPython read back, the bytes it writes,
# its errors; the MNIST loading of PyTorch's "What is torch.nn really?" tutorial
# and a CIFAR-10 batch's (pickles of NumPy arrays).
import gzip
import io
import os
import pickle
import shutil
import tempfile
from pathlib import Path

import numpy as np
import torch

PATH = Path('../fixtures/gzip')
with gzip.open((PATH / 'mnist_like.pkl.gz').as_posix(), 'rb') as f:
    ((x_train, y_train), (x_valid, y_valid), _) = pickle.load(f, encoding='latin-1')
print(x_train.shape, x_train.dtype, y_train, y_valid)
x_train, y_train, x_valid, y_valid = map(torch.tensor, (x_train, y_train, x_valid, y_valid))
n, c = x_train.shape
print(n, c, x_train[0, :4], y_train.min(), y_train.max())

with open(PATH / 'cifar_like_batch', 'rb') as fo:
    batch = pickle.load(fo, encoding='bytes')
print(sorted(batch), batch[b'labels'], batch[b'data'].dtype, batch[b'data'].shape, batch[b'data'][0, :6])
print(repr(batch[b'mean']), repr(batch[b'count']), repr(batch[b'half']), repr(batch[b'kind']), batch[b'fortran'])
images = torch.from_numpy(batch[b'data']).float().div(255).view(-1, 3, 2, 2)
print(images.shape, images[0, 0])

with gzip.open(PATH / 'lines.txt.gz', 'rt', encoding='utf-8') as f:
    print([line for line in f])
with gzip.open(str(PATH / 'lines.txt.gz')) as f:
    print(f.readline(), f.read(6), f.tell(), f.seek(0), f.read(5), f.peek(3)[:3], f.readable(), f.writable())
print(gzip.open(PATH / 'lines.txt.gz', 'rt').read().splitlines())
print(gzip.decompress(open(PATH / 'members.gz', 'rb').read()), gzip.open(PATH / 'members.gz').read())
print(gzip.decompress((PATH / 'flags.gz').read_bytes()))

# what it writes is CPython's, byte for byte
print(gzip.compress(b'abc', mtime=0), gzip.compress(b'abc' * 50, 1, mtime=123), gzip.compress(b'', 5, mtime=0))
buf = io.BytesIO()
with gzip.GzipFile('x.txt.gz', 'wb', fileobj=buf, mtime=0) as f:
    print(f.write(b'hello '), f.write(bytearray(b'gzip')), f.writable())
print(buf.getvalue())
buf = io.BytesIO()
with gzip.GzipFile(fileobj=buf, mode='wb', compresslevel=1, mtime=7) as f:
    f.write(b'no name' * 3)
print(buf.getvalue(), gzip.decompress(buf.getvalue()))
d = tempfile.mkdtemp()
with gzip.open(os.path.join(d, 'w.txt.gz'), 'wt') as f:
    f.write('text ☕\n')
    print('more', file=f)
raw = open(os.path.join(d, 'w.txt.gz'), 'rb').read()
print(raw[:3], raw[3], raw[8:10], raw[10:16], gzip.decompress(raw))
state = {'w': torch.arange(6.).view(2, 3), 'step': 3}
with gzip.open(os.path.join(d, 'ckpt.pt.gz'), 'wb') as f:
    torch.save(state, f)
with gzip.open(os.path.join(d, 'ckpt.pt.gz'), 'rb') as f:
    back = torch.load(f)
print(back['w'], back['step'])
with gzip.open(os.path.join(d, 'raw.gz'), 'wb') as f:
    f.write(np.arange(4, dtype=np.int16).tobytes())
with gzip.open(os.path.join(d, 'raw.gz'), 'rb') as f:
    print(repr(np.frombuffer(f.read(), dtype=np.int16)))

# errors
for call in [lambda: gzip.decompress(b'xyz'), lambda: gzip.decompress(gzip.compress(b'abc')[:-3]),
             lambda: gzip.decompress(gzip.compress(b'abc', mtime=0)[:-8] + b'\x00' * 8),
             lambda: gzip.decompress(b'\x1f\x8b\x07' + b'\x00' * 20), lambda: gzip.open(PATH / 'nothing.gz'),
             lambda: gzip.open(PATH / 'lines.txt.gz', 'rtb'), lambda: gzip.open(PATH / 'lines.txt.gz', 'rb', encoding='utf-8'),
             lambda: gzip.open(3.5), lambda: gzip.GzipFile(PATH / 'lines.txt.gz').write(b'x'),
             lambda: gzip.open(PATH / 'lines.txt.gz', 'rt').read() + gzip.open(os.path.join(d, 'x.gz'), 'wb').read()]:
    try:
        print(call())
    except Exception as e:
        print(type(e).__name__, e)
print(issubclass(gzip.BadGzipFile, OSError))
shutil.rmtree(d)
