# NumPy's small integer dtypes (uint8, int8, int16, uint16, uint32) as arrays: creation,
# astype, wraparound arithmetic, NumPy 1.x's promotion (value-based for Python ints),
# reprs, and what torch takes of them (uint16 and uint32 have no tensor dtype).
import numpy as np
import torch

for d in [np.uint8, np.int8, np.int16, np.uint16, np.uint32, 'u1', 'i1', 'i2', 'u2', 'u4', '<u2', 'B', 'H']:
    a = np.array([1, 2, 3], dtype=d)
    print(repr(a), a.dtype, a.itemsize, a.nbytes, np.dtype(d), np.dtype(d).itemsize)
u = np.arange(10, dtype=np.uint16) * 7000
print(repr(u))
print(repr(u + 60000), repr(u - 1), repr(-u[:3]), repr(u * u))
b = np.arange(5, dtype=np.uint8)
b -= 3
print(repr(b), repr(b * 100), repr(b.astype(np.int8)), repr(b // 2), repr(b / 2))
print(repr(np.array([100, 120], dtype=np.int8) * 2), repr(np.array([-1, 70000]).astype(np.uint16)))
print(repr(np.array([-1, 2**32 + 5]).astype(np.uint32)), repr(np.array([1.5, 2.7]).astype(np.uint8)))
# promotion: arrays with arrays, and with Python ints (value-based)
names = ['uint8', 'int8', 'int16', 'uint16', 'int32', 'uint32', 'int64']
for x in names:
    row = [str((np.array([1], dtype=x) + np.array([1], dtype=y)).dtype) for y in names + ['float16', 'float32', 'bool']]
    vals = [str((np.array([1], dtype=x) + v).dtype) for v in [200, 300, 40000, 70000, 2**31, -1, -200, -40000, 1.5, True]]
    print(x, row, vals)
c = np.zeros(3, dtype=np.uint16)
c[1] = 65535
c[2:] = np.array([70000])
print(repr(c), repr(c.reshape(3, 1)), repr(c.copy()), repr(c[::-1]), repr(c.T), c.tolist())
print(repr(np.ones(2, dtype=np.uint16)), repr(np.full(2, 7, dtype=np.uint32)), repr(np.zeros_like(c)))
print(repr(np.arange(4, dtype=np.uint16)), repr(np.eye(2, dtype=np.uint16)), repr(np.empty(0, dtype=np.uint16)))
print(c == 65535, c.sum(), c.max(), int(c[1]), c[1] + 1, float(c[1]))
print(repr(np.array(c)), repr(np.asarray(c, dtype=np.int64)), repr(np.array([3, 4], dtype=np.uint8) > 3))
# with torch
for d in [np.uint8, np.int8, np.int16]:
    print(torch.from_numpy(np.arange(3, dtype=d)), torch.tensor(np.arange(3, dtype=d)))
print(torch.arange(3, dtype=torch.uint8).cpu().numpy().dtype, repr(torch.arange(3, dtype=torch.int16).cpu().numpy()))
print(torch.from_numpy(c.astype(np.int64)))
for f in [torch.from_numpy, torch.tensor, torch.as_tensor]:
    try:
        f(c)
    except TypeError as err:
        print('TypeError:', err)
try:
    np.dtype('u3')
except TypeError as err:
    print('TypeError:', err)
