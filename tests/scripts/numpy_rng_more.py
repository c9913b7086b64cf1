# NumPy 1.24's Generator: binomial past n*min(p, 1-p) = 30 (the BTPE sampler, both
# sides of p = 0.5), dirichlet (gammas, and stick breaking with betas for small alpha),
# multivariate_normal (SVD by default, eigh and Cholesky), each stream NumPy's.
import numpy as np

rng = np.random.default_rng(12345)
print(rng.binomial(100, 0.5, size=10))
print(rng.binomial(1000, 0.3, size=8), rng.binomial(200, 0.9, size=6), rng.binomial(10**6, 0.01, size=4))
print(rng.binomial(60, 0.6), rng.binomial([40, 80, 20], [0.5, 0.75, 0.1]), rng.binomial(35, 0.999, size=3))
print(rng.binomial(10**9, 0.5, size=2), rng.binomial(31, 1.0, size=2), rng.binomial(100, 0.31, size=(2, 3)))
counts = rng.binomial(500, 0.4, size=20000)
print(counts.mean(), counts.var(), counts.min(), counts.max())
print(rng.dirichlet([1.0, 2.0, 3.0]))
print(rng.dirichlet([0.5, 0.5], size=3))
print(rng.dirichlet((10, 5, 3), size=(2, 2)))
print(rng.dirichlet([0.05, 0.02, 0.08], size=2))
print(rng.dirichlet([0.05, 0.2], size=2))
mean, cov = [1.0, -2.0], [[1.0, 0.5], [0.5, 2.0]]
print(rng.multivariate_normal(mean, cov))
print(rng.multivariate_normal(mean, cov, size=4))
print(rng.multivariate_normal([0, 0, 0], [[4.0, 1.2, 0.3], [1.2, 2.0, 0.5], [0.3, 0.5, 1.0]], size=(2, 2)))
print(rng.multivariate_normal(mean, cov, size=3, method='cholesky'))
print(rng.multivariate_normal(mean, cov, size=3, method='eigh'))
print(rng.multivariate_normal([0, 0], np.diag([2.0, 0.5]), 3))
x = rng.multivariate_normal(mean, cov, size=5000)
print(x.shape, x.mean(axis=0).round(2), np.round(x.std(axis=0), 2))
for bad in [lambda: rng.binomial(-1, 0.5), lambda: rng.binomial(5, 1.5), lambda: rng.dirichlet([1.0, 0.0]),
            lambda: rng.multivariate_normal([0, 0], [[1, 0], [0, 1], [0, 0]]),
            lambda: rng.multivariate_normal([0, 0, 0], [[1, 0], [0, 1]]),
            lambda: rng.multivariate_normal([[0, 0]], [[1, 0], [0, 1]]),
            lambda: rng.multivariate_normal([0, 0], [[1, 0], [0, 1]], method='qr'),
            lambda: rng.multivariate_normal([0, 0], [[1, 2], [2, 1]], check_valid='raise')]:
    try:
        bad()
    except ValueError as err:
        print('ValueError:', err)
print(rng.random())
# dtype=np.float32: NumPy's float32 ziggurat (32-bit draws, its own tables)
rng = np.random.default_rng(5)
z = rng.standard_normal(20000, dtype=np.float32)
print(repr(z[:4]), z.dtype, repr(z[18970:18976]), repr(rng.standard_normal(dtype=np.float32)))
print(repr(rng.standard_normal((2, 3), dtype='f4')), repr(rng.random(3, dtype=np.float32)), rng.standard_normal())
out = np.empty(3, dtype=np.float32)
print(repr(rng.standard_normal(dtype=np.float32, out=out)), repr(out))
try:
    rng.standard_normal(3, dtype=np.int64)
except TypeError as err:
    print('TypeError:', err)
