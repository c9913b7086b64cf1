# float16 arrays (mixed-precision data, x.astype(np.float16)) through the functions whose
# torch CPU kernels have no float16 loop: NumPy 1.24 computes each element in float32 and
# rounds to float16 (clip, round, diag, std's sqrt); cumsum/cumprod round
# at every step; prod multiplies in float32; dot and matmul sum the products in float32 one
# after another. np.where keeps float16 with a Python scalar (value-based casting).
import numpy as np

h = np.array([0.1, 1.5, -2.25, 3.0, 0.333, -7.1, 12.5, 0.01], dtype=np.float16)
print(h + h, h * 3, h / 3, h - np.float16(1), h.sum(), h.mean(), h.var(), h.std(), h.std(ddof=1))
print(np.cumsum(h), np.cumprod(h[:5]), np.cumsum(h.reshape(2, 4), axis=1), np.prod(h), np.prod(h.reshape(2, 4), axis=0))
print(np.clip(h, 0, 1), h.clip(-1, 2), np.round(h, 1), np.round(h), np.around(h, -1), np.diag(h[:3]), np.diag(h.reshape(2, 4)))
m = h.reshape(2, 4)
print(h.dot(h), m @ m.T, m.T @ m[:, :2], np.dot(m, h[:4]), np.matmul(h[:2], m), np.var(m, axis=1), np.std(m, axis=0))
print(np.where(h > 0, h, 0), np.where(h > 0, h, 0.5).dtype, np.where(h > 1, 1, h), np.where(h > 0, h, np.float32(0)).dtype)
print(np.where(np.arange(3, dtype=np.int32) > 0, np.arange(3, dtype=np.int32), 0).dtype, np.where([True, False], 1, 2.5))
x = np.random.default_rng(0).standard_normal(50).astype(np.float16)
print(x.std(), x.var(), np.cumsum(x)[-5:], x @ x, np.clip(x, -0.5, 0.5)[:6], np.round(x, 2)[:6])
print(np.tril(m), np.triu(m, 1))
