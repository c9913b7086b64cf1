# np.append / np.insert / np.delete / np.resize / np.ediff1d, diff with prepend= and append=,
# clip with array bounds, sort(kind=), lognormal draws (legacy and Generator), as data code
# grows and trims arrays; NumPy 1.24's results.
import numpy as np

a = np.arange(6).reshape(2, 3)
print(np.append(np.arange(3), [7, 8]), np.append(a, [[9, 9, 9]], axis=0), np.append(a, 1.5), np.append([], [1, 2]))
print(np.insert(np.arange(4), 1, 9), np.insert(np.arange(4), [1, 3], [7, 8]), np.insert(np.arange(4), -1, 5), np.insert(np.arange(4), 4, 6))
print(np.insert(a, 1, 5, axis=1), np.insert(a, 1, [1, 2, 3], axis=0), np.insert(a, [0, 2], 0, axis=1), np.insert(a, 2, 0))
print(np.insert(np.arange(5.0), [3, 1, 3], [10, 20, 30]), np.insert(np.arange(3), 1, 2.7))
print(np.delete(np.arange(5), [0, 2]), np.delete(a, 1, axis=1), np.delete(a, 0, axis=0), np.delete(np.arange(6), slice(1, 4)), np.delete(a, [True, False, True], axis=1))
print(np.resize(np.arange(3), 5), np.resize(np.arange(3), (2, 4)), np.resize(a, (3,)), np.ediff1d(np.array([1, 4, 9])), np.ediff1d([1, 2, 4], to_begin=0, to_end=[9, 9]))
print(np.diff(np.array([1, 4, 9]), prepend=0), np.diff(np.array([1, 4, 9]), append=10), np.diff(a, axis=0, prepend=0), np.diff(a, prepend=a[:, :1]))
x = np.array([0.12573022, -0.13210486, 0.64042265])
print(np.clip(x, [-0.1, -0.2, -0.3], 0.5), np.clip(np.arange(5), [1, 1, 1, 1, 1], [2, 3, 4, 5, 6]), np.sort(np.array([3, 1, 2]), kind='stable'))
np.random.seed(3)
print(np.random.lognormal(size=2), np.random.RandomState(0).lognormal(0, 1, 3), np.random.default_rng(0).lognormal(0.5, 0.25, 3), np.random.RandomState(2).lognormal())
for bad in ['np.delete(np.arange(3), 5)', 'np.insert(np.arange(3), 7, 1)']:
    try:
        eval(bad)
    except IndexError as e:
        print(bad, '->', e)
