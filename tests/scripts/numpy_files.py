# NumPy's raw files and buffers: ndarray.tofile / tobytes, np.fromfile (dtype=, count=,
# offset=, an open file), np.frombuffer, and np.memmap in its modes ('r' read-only,
# 'r+' and 'w+' writing back, 'c' copy-on-write) with slicing, as nanoGPT's
# prepare.py writes its tokens and train.py's get_batch reads them.
import os
import numpy as np
import torch

p = 'numpy_files_a.tmp'
ids = np.array([5, 7, 65535, 0, 12, 300, 9, 1000], dtype=np.uint16)
ids.tofile(p)
print(os.path.getsize(p), repr(np.fromfile(p, dtype=np.uint16)), repr(np.fromfile(p, dtype=np.uint8)[:6]))
print(repr(np.fromfile(p, dtype=np.uint16, count=3, offset=4)), repr(np.fromfile(p, dtype=np.int16)))
with open(p, 'rb') as f:
    f.read(2)
    print(repr(np.fromfile(f, dtype=np.uint16, count=2)))
data = np.memmap(p, dtype=np.uint16, mode='r')
print(repr(data), len(data), data.shape, data.dtype, data.mode, data.offset, data.filename == os.path.abspath(p))
print(repr(data[2:5]), type(data[2:5]).__name__, data[2], repr(data[::2]), type(data[[1, 2]]).__name__)
print(repr(np.array(data[1:4])), type(np.array(data[1:4])).__name__, repr(data[1:4].astype(np.int64)))
print(repr(data + 1), type(data + 1).__name__, data.sum(), repr(data.reshape(2, 4)))
try:
    data[0] = 1
except ValueError as err:
    print('ValueError:', err)
# get_batch as nanoGPT's train.py writes it
torch.manual_seed(0)
block_size, batch_size = 3, 2
ix = torch.randint(len(data) - block_size, (batch_size,))
x = torch.stack([torch.from_numpy((data[i:i + block_size]).astype(np.int64)) for i in ix])
y = torch.stack([torch.from_numpy((data[i + 1:i + 1 + block_size]).astype(np.int64)) for i in ix])
print(ix, x, y)
# w+ creates (zeros), r+ updates in place, c keeps its writes in memory
q = 'numpy_files_b.tmp'
w = np.memmap(q, dtype=np.float32, mode='w+', shape=(2, 3))
print(repr(w), os.path.getsize(q))
w[0] = 1.5
w[1, 2] = -2
w.flush()
print(repr(np.fromfile(q, dtype=np.float32)))
r = np.memmap(q, dtype=np.float32, mode='r+', offset=4, shape=(2,))
r[1] = 7
r += 1
print(repr(r), repr(np.fromfile(q, dtype=np.float32)))
c = np.memmap(q, dtype=np.float32, mode='c')
c[:] = 0
print(repr(c), repr(np.fromfile(q, dtype=np.float32)))
big = np.memmap(q, dtype=np.uint8, mode='r+', shape=(30,))
print(os.path.getsize(q), repr(big[24:]))
arr = np.memmap(q, dtype=np.uint16, mode='w+', shape=(6,))
arr[0:3] = np.array([1, 2, 3], dtype=np.uint16)
arr[3:6] = [4, 5, 6]
arr.flush()
print(repr(np.fromfile(q, dtype=np.uint16)))
# buffers
print(repr(np.frombuffer(b'\x01\x00\x02\x00', dtype=np.uint16)), np.arange(3, dtype=np.int16).tobytes())
print(repr(np.frombuffer(np.array([1.5, -2.0]).tobytes())), repr(np.frombuffer(b'abcd', dtype=np.uint8, count=2, offset=1)))
print(np.array([[1, 2], [3, 4]], dtype=np.int32).T.tobytes(), np.array([True, False]).tobytes())
t = 'numpy_files_c.tmp'
np.array([1.25, 2.5]).tofile(t, sep=',')
print(open(t).read())
for bad in [lambda: np.memmap(q, dtype=np.float32, mode='w+'), lambda: np.memmap('numpy_files_none.tmp', mode='r'),
            lambda: np.memmap(q, dtype=np.float64, mode='r', offset=4), lambda: np.memmap(q, mode='r', shape=(100,)),
            lambda: np.memmap(q, mode='x'), lambda: np.frombuffer(b'abc', dtype=np.uint16),
            lambda: np.frombuffer(b'abc', dtype=np.uint16, count=4), lambda: np.fromfile('numpy_files_none.tmp')]:
    try:
        bad()
    except (ValueError, FileNotFoundError) as err:
        print(type(err).__name__ + ':', err)
del data, w, r, c, big, arr
for f in [p, q, t]:
    os.remove(f)
