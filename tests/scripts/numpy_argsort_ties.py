# np.argsort's default kind, 'quicksort', is NumPy's introsort (not stable): the order of
# equal elements is its own, which a stable sort does not give (labels, rounded distances)
import numpy as np

rs = np.random.RandomState(0)
for n in (5, 17, 25, 100, 1000):
    a = rs.randint(0, 4, n)
    i = np.argsort(a)
    print(n, i[:20].tolist(), i[-5:].tolist(), bool((np.diff(a[i]) >= 0).all()))
f = np.round(rs.rand(40), 1)
f[[3, 9]] = np.nan
print(np.argsort(f).tolist())
print(np.argsort(f, kind='stable').tolist())
print(np.argsort(f, kind='heapsort').tolist())
m = rs.randint(0, 3, (4, 30))
print(np.argsort(m, axis=1)[:, :10].tolist(), np.argsort(m, axis=0)[:, :6].tolist(), m.argsort(axis=None)[:12].tolist())
xs = np.linspace(-1, 1, 5)
XX, YY = np.meshgrid(xs, xs)
Z = np.sqrt(XX ** 2 + YY ** 2)
print(np.argsort(Z.ravel())[:6], np.argsort(np.array([3, 1, 2, 1, 3, 1], dtype=np.uint8)), np.argsort([True, False, True]))
print(np.argsort(np.array([2 ** 64 - 1, 5, 2 ** 63, 5], dtype=np.uint64)), np.argsort(np.arange(40) % 3)[:15])
