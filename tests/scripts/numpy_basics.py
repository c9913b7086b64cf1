# numpy's arrays: creation with NumPy's dtypes, arithmetic with broadcasting and
# NumPy's promotion, comparisons, indexing/slicing/masks, shape functions,
# reductions, elementwise functions, joining, conversions, and the errors.
import numpy as np

a = np.array([[1, 2, 3], [4, 5, 6]])
b = np.array([0.5, 1.5, 2.5])
print(a.shape, a.ndim, a.size, a.dtype, b.dtype, len(a), a.itemsize, a.nbytes)
print(a + b, a * 2, a / 2, a // 2, a % 4, a ** 2, -a)
print((a + 1.5).dtype, (a + 1).dtype, (a / a).dtype, (b * np.float32(2)).dtype)
f = np.array([1.0, 2.0], dtype=np.float32)
print((f + 1.5).dtype, (f + np.array([1.0, 2.0])).dtype, (f + np.array([1, 2])).dtype)
print((np.array([1, 2], dtype=np.int32) + np.array([1.5], dtype=np.float32)).dtype)
print(1 - b, 2 / b, 3 + a, 2 ** np.array([1, 2, 3]))
print(a > 2, a == 3, a != 3, b <= 1.5, 2 < b)
print((a > 2) & (a < 6), (a < 2) | (a > 5), ~(a > 2))
print(a[0], a[1, 2], a[:, 1], a[-1, ::-1], a[..., 0], a[:, None, 1].shape, b[np.newaxis].shape)
print(a[a > 2], a[[1, 0]], a[np.array([0, 0, 1])], b[b > 1])
c = np.zeros((3, 4))
c[1] = 5
c[:, 2] = np.array([1, 2, 3])
c[c > 4] = -1
c[0, 0] += 7
print(c)
print(a.reshape(3, 2), a.reshape((-1,)), a.T, a.transpose(), a.flatten(), a.ravel())
print(np.array([[1], [2]]).squeeze(), np.expand_dims(b, 0), np.squeeze(np.zeros((1, 2, 1))).shape)
print(a.sum(), a.sum(axis=0), a.sum(axis=1, keepdims=True), np.sum(a, axis=(0, 1)))
print(a.mean(), a.mean(axis=0), b.std(), b.var(), a.std(axis=1), np.var(a, ddof=1))
print(a.max(), a.min(axis=1), a.argmax(), a.argmin(axis=0), np.max(b), np.amin(a, axis=0, keepdims=True))
print(a.prod(), np.cumsum(a), np.any(a > 5), np.all(a > 0), a.any(axis=0))
print(np.exp(b), np.log(b), np.sqrt(a), np.sin(a), round(np.cos(0.5), 12), np.tanh(b), np.abs([-1, 2, -3]))
print(np.sqrt(f), np.abs(np.array([-1.5, 2])), np.floor(b), np.ceil(b), np.round(b * 1.1, 2))
print(np.clip(a, 2, 5), np.maximum(a, 3), np.minimum(b, 1), np.where(a > 3, a, 0), np.where(b > 1))
print(np.concatenate([a, a]), np.concatenate([a, a], axis=1), np.stack([b, b]), np.stack([b, b], axis=1))
print(np.vstack([b, b]), np.hstack([b, b]), np.hstack([a, a]))
print(np.dot(b, b), a.dot(b), np.matmul(a, a.T), a @ a.T, b @ b, np.dot(a, 2))
print(np.zeros(3), np.ones((2, 2), dtype=int), np.full((2, 2), 7), np.full(2, 0.5), np.zeros_like(a), np.ones_like(b))
print(np.arange(5), np.arange(1, 2, 0.25), np.arange(5, dtype=np.float32), np.arange(10, 0, -3))
print(np.linspace(0, 1, 5, endpoint=False), np.linspace(2, 3, 3, retstep=True), np.linspace(0, 10, 4))
print(a.astype(float), b.astype(int), b.astype(np.float32).dtype, a.tolist(), b.tolist(), a[:1, 0].item() + 1)
print(float(np.array([2.5])), int(np.array([[3]])), float(b[0]), bool(np.array([0])), b.item(1))
print([x for x in b], list(a), np.pi, np.e, np.inf, np.nan)
print(np.unique(np.array([3, 1, 2, 3, 1])), np.sort(np.array([3, 1, 2])), np.argsort(np.array([3, 1, 2])))
print(np.allclose(b, b + 1e-9), np.array_equal(a, a), np.isnan(np.array([1.0, np.nan])), np.count_nonzero(a > 2))
print(np.array([1, 2]) == np.array([1, 3]), np.mean([1, 2, 3, 4]), np.std([1.0, 2.0]), np.sum([0.1] * 10))
d = a.copy()
d[0, 0] = 100
e = a[0]
e[1] = 50
print(a, d)
g = np.array(b)
g += 1
g *= 2
print(g, b)
print(np.float32 == np.dtype('float32'), a.dtype == np.int64, b.dtype == float, np.dtype(float), str(b.dtype))
for bad in ['np.array([1, 2]) + np.array([1, 2, 3])', 'float(np.array([1, 2]))', 'bool(np.array([1, 2]))',
            'np.zeros(3)[5]', 'np.array([[1]]).reshape(2)', 'np.nonexistent', 'np.zeros(0).max()', 'len(np.array(1))',
            'np.array(1)[0]', 'np.dtype("nope")', '{np.zeros(2): 1}', 'np.squeeze(np.zeros((2, 1)), axis=0)',
            'np.random.nonexistent', 'np.zeros(-1)', 'np.eye(-1)', 'np.random.rand(-1)', 'np.percentile([1], 200)',
            'int(np.zeros(0))', 'np.split(np.arange(5), 2)', 'np.zeros(2).astype("x")', 'np.concatenate([])',
            'np.dot(np.zeros(2), np.zeros(3))', 'np.zeros((2, 2)) @ np.zeros(3)', 'np.load("numpy_basics.py")',
            'np.array([1, 2])[np.array([5])]', 'np.ones(3).sum(axis=4)', 'np.zeros(3)[1.5]']:
    try:
        eval(bad)
    except Exception as err:
        print(bad, '->', type(err).__name__)
