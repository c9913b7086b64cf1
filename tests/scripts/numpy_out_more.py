# out= on np.clip / ndarray.clip, np.cumsum / ndarray.cumsum and np.dot / ndarray.dot
# as NumPy 1.24 takes it: the result written into out and out returned, clip and
# cumsum casting unsafely, dot wanting out's dtype and shape exactly; NumPy's errors.
import numpy as np

a = np.arange(6.).reshape(2, 3)
o = np.zeros((2, 3))
print(np.clip(a, 1, 4, out=o) is o, o)
print(a.clip(2, out=o) is o, o, a.clip(max=3))
oi = np.zeros((2, 3), dtype=np.int64)
print(np.clip(a + 0.5, 1, 4, out=oi), oi.dtype)
np.clip(a, 0, 3, out=a)
print(a)
c = np.zeros(6)
print(np.cumsum(np.arange(6.), out=c) is c, c)
ci = np.zeros(6, dtype=np.int64)
print(np.cumsum(np.arange(6.) + 0.5, out=ci), np.arange(6.).reshape(2, 3).cumsum(axis=1, out=np.zeros((2, 3))))
print(np.cumsum([1, 2, 3], dtype=np.float64))
m = np.arange(6.).reshape(2, 3)
d = np.zeros((2, 2))
print(np.dot(m, m.T, out=d) is d, d, m.dot(m.T, out=d) is d)
print(np.dot(np.arange(3.), np.arange(3.), out=np.zeros(())))
for bad in [lambda: np.clip(m, None, None), lambda: np.cumsum(m, out=np.zeros(5)),
            lambda: np.dot(m, m.T, out=np.zeros((2, 2), dtype=np.float32)),
            lambda: np.dot(m, m.T, out=np.zeros((3, 2))), lambda: np.dot(m, m.T, out=np.zeros(4)),
            lambda: np.clip(m, 0, 1, out=[1, 2])]:
    try:
        bad()
    except (ValueError, TypeError) as e:
        print(type(e).__name__ + ':', e)
