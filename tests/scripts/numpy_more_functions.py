# More of NumPy's functions as tutorial and data-loading code calls them: moveaxis (HWC
# images to CHW), roll, rot90, take, atleast_1d, broadcast_to, isin, searchsorted,
# digitize, average (weights=), the nan* reductions, nan_to_num, histogram, interp (a
# warmup schedule), hypot/cbrt/degrees/radians, errstate, savetxt/loadtxt (a CSV), and
# numpy.linalg's inv, solve, det, pinv, matrix_rank, svd, eigh.
import os
import numpy as np

img = np.arange(24, dtype=np.uint8).reshape(2, 3, 4)
print(np.moveaxis(img, -1, 0).shape, np.moveaxis(img, 0, -1).shape, np.moveaxis(img, [0, 1], [-1, -2]).shape)
print(np.moveaxis(img, -1, 0)[1])
x = np.arange(10)
print(np.roll(x, 2), np.roll(x, -3), np.roll(x.reshape(2, 5), 1, axis=1), np.roll(x.reshape(2, 5), 1))
print(np.rot90(x.reshape(2, 5)), np.rot90(x.reshape(2, 5), 2), np.rot90(x.reshape(2, 5), -1))
print(np.take(x, [2, 5]), np.take(x.reshape(2, 5), [0, 4], axis=1), np.take(x.reshape(2, 5), [[0, 1], [2, 3]]))
print(np.atleast_1d(3.0), np.atleast_1d(x[:2]), np.broadcast_to(np.array([1, 2, 3]), (2, 3)))
print(np.isin(x, [1, 3, 11]), np.isin(x.reshape(2, 5), np.array([4, 5]), invert=True))
edges = np.array([0.0, 0.5, 1.0, 2.5])
v = np.array([-1, 0, 0.5, 0.7, 2.5, 3])
print(np.searchsorted(edges, v), np.searchsorted(edges, v, side='right'), np.searchsorted([1, 2, 3], 2))
print(np.digitize(v, edges), np.digitize(v, edges, right=True), np.digitize(v, edges[::-1]))
w = np.array([1.0, 2.0, 3.0, 4.0])
m = np.arange(8.0).reshape(2, 4)
print(np.average(w), np.average(w, weights=[4, 3, 2, 1]), np.average(m, axis=1, weights=w), np.average(m, axis=0))
print(np.average(m, axis=1, weights=w, returned=True))
n = np.array([[1.0, np.nan, 3.0], [np.nan, 5.0, 6.0]])
print(np.nansum(n), np.nanmean(n), np.nanmean(n, axis=0), np.nanstd(n), np.nanvar(n, axis=1), np.nanmax(n), np.nanmin(n, axis=1))
print(np.nan_to_num(np.array([np.nan, np.inf, -np.inf, 1.5])), np.nan_to_num(np.array([np.nan, 2.0]), nan=-1.0))
rng = np.random.RandomState(0)
d = rng.randn(1000)
h, e = np.histogram(d)
print(h, e)
print(np.histogram(d, bins=4, range=(-2, 2)), np.histogram([1, 2, 1], bins=[0, 1, 2, 3]))
print(np.histogram(np.array([1.0, 2.0, 2.0, 4.0]), bins=3, density=True))
print(np.histogram(np.array([1, 2, 2, 4]), bins=2, weights=[0.5, 1.0, 1.0, 2.0]))
print(np.interp(2.5, [1, 2, 3], [3, 2, 0]), np.interp([0, 1, 1.5, 2.72, 3.14, 5], [1, 2, 3], [3, 2, 0]))
print(np.interp([0, 5], [1, 2, 3], [3, 2, 0], left=-1, right=9))
warmup = [np.interp(i, [0, 4], [0.0, 0.1]) for i in range(6)]
print(warmup, type(warmup[0]))
print(np.hypot(3, 4), np.hypot(np.array([3.0, 5.0]), 12), np.cbrt(np.array([27.0, -8.0, 2.0])), np.degrees(np.pi), np.radians(np.array([90, 180])))
with np.errstate(divide='ignore', invalid='ignore'):
    print(np.geterr()['divide'], np.log(np.array([1.0, 0.0])))
print(np.geterr()['divide'], np.seterr(all='ignore')['invalid'], np.seterr(**{'divide': 'warn', 'invalid': 'warn', 'over': 'warn', 'under': 'ignore'})['over'])
p = 'numpy_more_functions.csv'
data = np.array([[1.0, 2.5, 3.25], [4.0, -5.5, 6.125]])
np.savetxt(p, data, delimiter=',')
with open(p) as f:
    print(f.read())
np.savetxt(p, data, fmt='%.2f', delimiter=',', header='a,b,c')
with open(p) as f:
    print(f.read())
print(np.loadtxt(p, delimiter=','), np.loadtxt(p, delimiter=',', usecols=(0, 2)), np.loadtxt(p, delimiter=',', dtype=np.float32))
a, b, c = np.loadtxt(p, delimiter=',', unpack=True)
print(a, b, c)
np.savetxt(p, np.array([1, 2, 3]), fmt='%d')
with open(p) as f:
    print(repr(f.read()))
print(np.loadtxt(p), np.loadtxt(p, dtype=int), np.loadtxt(p, skiprows=1))
os.remove(p)
A = np.array([[4.0, 7.0], [2.0, 6.0]])
print(np.linalg.inv(A), np.linalg.solve(A, np.array([1.0, 2.0])), np.linalg.det(A), np.linalg.matrix_rank(A), np.linalg.slogdet(A))
print(np.linalg.det(np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 4.0], [2.0, 2.0, -7.5]])), np.linalg.det(np.eye(3) * 2))
print(np.linalg.pinv(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])))
u, s, vh = np.linalg.svd(np.array([[3.0, 0.0], [4.0, 5.0]]))
print(s, np.allclose(u @ np.diag(s) @ vh, [[3.0, 0.0], [4.0, 5.0]]), np.linalg.svd(A, compute_uv=False))
wv, vv = np.linalg.eigh(np.array([[2.0, 1.0], [1.0, 2.0]]))
print(wv, np.abs(vv), np.linalg.eigvalsh(np.array([[2.0, 1.0], [1.0, 2.0]])))
try:
    np.linalg.inv(np.array([[1.0, 2.0], [2.0, 4.0]]))
except np.linalg.LinAlgError as err:
    print('LinAlgError:', err)
try:
    np.linalg.inv(np.array([1.0, 2.0]))
except np.linalg.LinAlgError as err:
    print('LinAlgError:', err)
m2 = np.arange(6).reshape(2, 3)
print(np.pad(m2, 1), np.pad(m2, ((0, 1), (2, 0)), constant_values=-1), np.pad(np.arange(3.0), (2, 1), 'constant', constant_values=9))
for mode in ('edge', 'reflect', 'symmetric', 'wrap'):
    print(mode, np.pad(np.arange(1, 5), (3, 2), mode), np.pad(m2, 1, mode=mode).tolist())
print(np.pad(np.zeros((2, 2, 3), dtype=np.uint8), ((1, 1), (1, 1), (0, 0))).shape)
np.random.seed(7)
print(np.random.exponential(2.0, 4), np.random.standard_exponential((2, 2)), np.random.exponential())
print(np.random.multivariate_normal([0, 1], [[1.0, 0.5], [0.5, 2.0]], 3))
print(np.random.multivariate_normal(np.zeros(3), np.diag([1.0, 2.0, 3.0]), size=(2, 2)).shape, np.random.rand())
r2 = np.random.RandomState(3)
print(r2.multivariate_normal([1.0, -1.0], [[2.0, 0.3], [0.3, 0.5]]), r2.exponential(0.5, 2))
