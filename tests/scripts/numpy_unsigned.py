# uint16, uint32 and uint64 arrays keep their dtype through NumPy's functions (where,
# clip, sort, concatenate, stack, reshaping, max/min, dot, matmul, outer, diff, ...),
# wrap as their arithmetic does; sums and products of unsigned ints are uint64, of
# small signed ints int64; sqrt/exp of small ints are float16/float32 as NumPy's loops;
# np.result_type / np.promote_types; np.save / np.load of every integer dtype.
import os
import numpy as np

names = ['uint8', 'int8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64', 'float32', 'float64']
for n in names:
    a = np.array([3, 1, 2], dtype=n)
    b = a.reshape(3, 1)
    rs = [np.add(a, a), np.add(a, 1), a * 2, a.sum(), np.sum(a), b.sum(axis=1), np.cumsum(a), a.prod(), a.mean(),
          a.max(), np.max(b, axis=0), np.amin(a), a.argmax(), np.maximum(a, a), np.minimum(a, 1), np.clip(a, 1, 2),
          np.where(a > 1, a, a), np.sort(a), np.unique(a), np.concatenate([a, a]), np.stack([a, a]), np.vstack([a, a]),
          np.tile(a, 2), np.repeat(a, 2), np.square(a), np.dot(a, a), b @ b.T, np.sqrt(a), np.flip(a), np.diff(np.sort(a)),
          a % 2, a // 2, a ** 2, np.copy(a), np.zeros_like(a), np.full_like(a, 1), np.transpose(b), np.ravel(b),
          np.squeeze(b), np.expand_dims(a, 0), a[[0, 2]], a[a > 1], np.hstack([a, a]), np.median(a), a.std(),
          np.ptp(a), np.cumprod(a), np.tril(b @ b.T), np.diag(a), np.outer(a, a), np.split(a, 3)[0],
          np.meshgrid(a, a)[0], np.argsort(a), np.linspace(0, 1, 3, dtype=n), np.arange(3, dtype=n), a.astype(np.uint64)]
    print(n, ' '.join(str(r.dtype) for r in rs))
    print(' ', ' '.join(repr(r).replace(' ', '').replace('\n', '') for r in rs if r.dtype != np.float32))
print(np.array([0, 1], dtype=np.uint16) - 1, np.array([70000], dtype=np.uint32) * 70000, np.dot(np.array([300, 300], dtype=np.uint16),
      np.array([300, 300], dtype=np.uint16)), np.diff(np.array([5, 3], dtype=np.uint32)))
for x, y in [(np.float32, 1.0), (np.int8, np.uint8), (np.array([1], dtype=np.uint8), -1), (np.array([1], dtype=np.int8), 300),
             (3, 4.0), (np.int64, np.uint64), (np.array([1, 2]), np.float32), (np.uint16, 'i2'), (np.uint32, np.float32),
             (np.array([1.5], dtype=np.float32), np.array(2.0)), (np.bool_, 1)]:
    print(np.result_type(x, y), end=' ')
print()
print(np.promote_types('f4', 'i8'), np.promote_types(np.uint16, np.int16), np.promote_types(np.uint64, np.int8), np.promote_types('u1', '?'))
print(repr(np.zeros(3, dtype=np.uint64)), np.array([1, 2], dtype=np.uint64) + 1, type(np.uint64(5)), np.uint64(5) + np.uint64(2),
      np.dtype('u8'), repr(np.iinfo(np.uint64)), np.iinfo(np.uint16).max, np.iinfo('u4').bits, np.uint is np.uint64)
for n in names + ['bool', 'float16']:
    a = np.arange(6).reshape(2, 3).astype(n)
    p = 'numpy_unsigned_%s.npy' % n
    np.save(p, a)
    b = np.load(p)
    with open(p, 'rb') as f:
        print(n, repr(b), b.dtype, f.read()[10:60])
    os.remove(p)
