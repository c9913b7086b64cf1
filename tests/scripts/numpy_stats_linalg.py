# NumPy 1.24's order statistics, histograms, covariances and numpy.linalg as a data-prep or
# fitting script calls them: percentile/quantile of float32 data are float64 (NumPy
# interpolates in float64), median keeps float32, histogram keeps float32 edges; cov /
# corrcoef; linalg lstsq/eig/eigvals/qr/cholesky/matrix_power/cond/norm (every ord), float32
# arrays computed in float64 and given back float32; einsum, kron, cross.
import numpy as np

rng = np.random.default_rng(3)
x = rng.standard_normal((7, 3))
xf = x.astype(np.float32)

print(np.percentile(xf[:, 0], [25, 50, 75]), np.percentile(xf[:, 0], 30), type(np.percentile(xf, 30)).__name__)
print(np.quantile(xf, 0.3, axis=0), np.quantile(xf, [0.1, 0.9], axis=1, keepdims=True).shape)
print(np.median(xf), np.median(xf[:6]), type(np.median(xf)).__name__, np.median(xf, axis=0), np.median([1, 2, 3, 4]))
print(np.median(np.array([3, 1, 2, 10])), np.median(xf, axis=1, keepdims=True).shape, np.median(np.float16([1, 2])))
print(np.percentile(np.arange(10), [0, 33, 100]), np.percentile(x, 40, axis=1), np.percentile(xf.astype(np.float16), 50))
for m in ['lower', 'higher', 'nearest', 'midpoint', 'linear']:
    print(m, np.percentile(np.arange(11) ** 2, 37, method=m), np.quantile(xf[:, 1], 0.61, method=m))
print(np.percentile([1.0, np.nan, 3.0], 50), np.median([1.0, np.nan, 3.0]), np.nanmedian([1.0, np.nan, 3.0, 8.0]))
print(np.nanpercentile(np.array([[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]]), 50, axis=1), np.nanquantile([np.nan, 1.0, 2.0], 0.25))
print(np.nanargmax([1.0, np.nan, 3.0]), np.nanargmin(np.array([[np.nan, 2.0], [1.0, 0.5]]), axis=1))
for bad in ['np.percentile(xf, 101)', 'np.quantile(xf, -0.1)', 'np.nanargmax([np.nan])', "np.percentile(xf, 5, method='nope')"]:
    try:
        eval(bad)
    except ValueError as e:
        print(bad, '->', e)

h, e = np.histogram(xf[:, 0], bins=4)
print(h, e, e.dtype)
print(np.histogram(xf, bins=3, range=(-1, 1)), np.histogram(xf[:, 1], bins=2, weights=xf[:, 2]))
print(np.histogram(np.arange(10), bins=3), np.histogram(x[:, 0], bins=[-2, 0, 0.5, 3], density=True))
for bad in ['np.histogram(xf, bins=0)', 'np.histogram(xf, range=(1, 0))', 'np.histogram(xf, bins=[1, 0])']:
    try:
        eval(bad)
    except ValueError as e:
        print(bad, '->', e)

print(np.cov(x.T), np.cov(x, rowvar=False).shape, np.cov(x[:, 0], x[:, 1]), np.cov(x[:, 0]), np.cov(xf[:, 0], bias=True))
print(np.corrcoef(x.T), np.corrcoef(x[:, 0], x[:, 2]), np.cov([1, 2, 4], ddof=0), np.corrcoef(xf, rowvar=False).dtype)

A = x[:, :2]
b = np.arange(7.0)
sol, res, rank, sv = np.linalg.lstsq(A, b, rcond=None)
print(sol, res, rank, type(rank).__name__, sv)
print(np.linalg.lstsq(xf, np.stack([b, b ** 2], axis=1).astype(np.float32), rcond=None))
print(np.linalg.lstsq(np.ones((3, 2)), np.arange(3.0), rcond=None), np.linalg.lstsq(x.T, b[:3], rcond=None)[1])
s = x.T @ x + np.eye(3)
w, v = np.linalg.eig(s)
print(w, v, np.linalg.eigvals(s), np.linalg.eigvals(s.astype(np.float32)))
q, r = np.linalg.qr(x)
print(q, r, np.linalg.qr(x, mode='r'), np.linalg.qr(x, mode='complete')[0].shape)
print(np.linalg.cholesky(s), np.linalg.cholesky(s.astype(np.float32)))
print(np.linalg.matrix_power(s, 2), np.linalg.matrix_power(np.array([[1, 1], [1, 0]]), 10), np.linalg.matrix_power(s, -1))
print(np.linalg.matrix_power(s, 0), np.linalg.cond(s), np.linalg.cond(s, 1), np.linalg.cond(s, 'fro'))
print(np.linalg.inv(s.astype(np.float32)), np.linalg.det(s.astype(np.float32)), np.linalg.solve(s.astype(np.float32), xf[0]))
print(np.linalg.svd(xf, compute_uv=False), np.linalg.pinv(xf), np.linalg.matrix_rank(xf), np.linalg.eigh(s.astype(np.float32))[0])
big = rng.standard_normal(1000)
print(np.linalg.norm(big), np.linalg.norm(big.astype(np.float32)), np.linalg.norm(x, axis=1), np.linalg.norm(x, axis=0, keepdims=True))
for o in [None, 1, -1, 2, -2, np.inf, -np.inf, 'fro', 'nuc']:
    print(o, np.linalg.norm(x, o), np.linalg.norm(xf, o))
for o in [None, 0, 1, 2, 3, 0.5, np.inf, -np.inf]:
    print(o, np.linalg.norm(x[0], o), np.linalg.norm(x, o, axis=1))
print(np.linalg.norm(np.arange(6).reshape(2, 3), keepdims=True), np.linalg.norm(x, 2, axis=(1, 0)))
for bad in ['np.linalg.cholesky(-np.eye(2))', 'np.linalg.lstsq(x, b[:3], rcond=None)', 'np.linalg.eig(np.ones(3))',
            'np.linalg.eig(np.ones((2, 3)))', "np.linalg.norm(x[0], 'fro')", 'np.linalg.norm(x, 3)', 'np.linalg.qr(x, mode="x")']:
    try:
        eval(bad)
    except (np.linalg.LinAlgError, ValueError) as e:
        print(bad, '->', type(e).__name__, e)

print(np.einsum('ij,jk->ik', np.arange(6).reshape(2, 3), np.arange(6).reshape(3, 2)), np.einsum('ii', np.eye(3) * 2))
print(np.einsum('i,i->', np.arange(3), np.arange(3)), np.einsum('ij->j', np.arange(6.0).reshape(2, 3)), np.einsum('bi,bj->bij', x[:2, :2], x[:2, :2]))
print(np.kron(np.eye(2), np.ones((2, 2))), np.kron([1, 2], [1, 10, 100]), np.kron(np.array([[1, 2]]), np.array([[1], [2]])))
print(np.cross([1, 0, 0], [0, 1, 0]), np.cross(x[:2], x[2:4]), np.cross([1, 2], [3, 4]), np.cross([1.5, 2], [3, 4, 5]))
