# np.partition / np.argpartition in NumPy 1.24's order (its introselect step for step: the
# elements on either side of kth come out where NumPy puts them), as top-k code uses them:
# np.argpartition(-scores, k)[:k], several kth at once, along an axis, with NaNs, in place.
import numpy as np

print(np.partition(np.array([5, 1, 4, 2, 3]), 2), np.argpartition(np.array([5, 1, 4, 2, 3]), 2))
rng = np.random.default_rng(5)
scores = rng.standard_normal(40)
k = 5
top = np.argpartition(-scores, k)[:k]
print(top, top[np.argsort(-scores[top])], np.argpartition(scores, -k)[-k:])
print(np.partition(scores, 20)[15:25], np.argpartition(scores, [3, 17, 30]), np.partition(scores, (0, -1))[[0, -1]])
ints = rng.integers(0, 50, size=300)
for kth in [0, 1, 2, 3, 7, 150, 298, 299, -1]:
    p = np.argpartition(ints, kth)
    print(kth, p[:8], p[-4:], np.partition(ints, kth)[:6])
print(np.argpartition(ints, list(range(0, 300, 37)))[:20])
m = rng.standard_normal((3, 12))
print(np.argpartition(m, 4), np.partition(m, 2, axis=0), np.argpartition(m, 1, axis=None)[:6])
nan = np.array([3.0, np.nan, 1.0, 7.0, np.nan, 2.0, 9.0, 0.5])
print(np.partition(nan, 2), np.argpartition(nan, -1), np.partition(nan, 5), np.argpartition(nan, (1, 6)))
killer = np.roll(np.arange(2000), 1000)
print(np.argpartition(killer, 1000)[995:1005], np.partition(killer, 1500)[1495:1505])
big = rng.standard_normal(5000)
print(np.argpartition(big, 2500)[:10], np.argpartition(big, [10, 4000])[4000:4005])
a = np.array([9, 3, 7, 1, 8])
a.partition(1)
print(a, np.array([0.5, 0.1, 0.9]).argpartition(1), np.partition(np.array([True, False, True, False]), 1))
for bad in ['np.partition(np.arange(5), 5)', 'np.argpartition(np.arange(5), -6)']:
    try:
        eval(bad)
    except ValueError as e:
        print(bad, '->', e)
