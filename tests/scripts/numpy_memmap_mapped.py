# np.memmap maps its file: in modes 'r+' and 'w+' a write reaches the file at once (a
# second reader sees it before flush(), as with NumPy's mmap), flush() syncs it; 'r' is
# read-only and 'c' keeps its writes in memory; views (slices, reshape) share the mapping;
# an offset inside a page, and uint16 (kept in wider tensors, so read into memory) too.
import os
import numpy as np
import torch

p = 'numpy_memmap_mapped.tmp'
m = np.memmap(p, dtype=np.float32, mode='w+', shape=(3, 4))
print(os.path.getsize(p), repr(m[0]))
m[:] = np.arange(12, dtype=np.float32).reshape(3, 4)
m[1, 2] = -1
with open(p, 'rb') as f:
    print(np.frombuffer(f.read(), dtype=np.float32))  # seen before flush()
row = m[2]
row[1:3] = 7.5  # through a view
t = torch.from_numpy(m)  # and through a tensor over the same memory
t[0, 0] = 42
m.flush()
print(np.fromfile(p, dtype=np.float32))
del m, row, t
r = np.memmap(p, dtype=np.float32, mode='r', shape=(3, 4))
print(r)
print(r[1:, ::2], r.sum(), r.mean(axis=0))
try:
    r[0, 0] = 5
except ValueError as e:
    print('ValueError:', e)
c = np.memmap(p, dtype=np.float32, mode='c', shape=(12,))
c[0] = 99
print(c[:3], np.fromfile(p, dtype=np.float32)[:3])
rp = np.memmap(p, dtype=np.float32, mode='r+', offset=8, shape=(2,))
rp += 10
print(rp, np.fromfile(p, dtype=np.float32)[:5])
u = np.memmap(p, dtype=np.uint16, mode='r+', offset=2, shape=(3,))
u[0] = 7
print(repr(u), np.fromfile(p, dtype=np.uint16)[:4])
big = np.memmap(p, dtype=np.int64, mode='r')
print(big.shape, type(big[0]), big.dtype)
g = np.memmap(p, dtype=np.float32, mode='r+', shape=(14,))  # r+ past the end grows the file
g[13] = 1.5
print(os.path.getsize(p), np.fromfile(p, dtype=np.float32)[-3:])
