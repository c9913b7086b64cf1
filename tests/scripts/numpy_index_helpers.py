# NumPy 1.24's index helpers and ufunc methods as ML scripts use them: fill_diagonal (the
# masked-similarity idiom), unravel_index of an argmax, ravel_multi_index, ix_, tri /
# triu_indices / tril_indices / diag_indices, indices, array_equiv, select, lexsort,
# add.at (counts with repeated indices), add.reduce / maximum.reduce / add.accumulate /
# multiply.outer, repeat with a count per element, flatten('F').
import numpy as np

m = np.zeros((3, 3)); np.fill_diagonal(m, 2); print(m, np.eye(3) * 2 == m)
t = np.zeros((5, 3), dtype=int); np.fill_diagonal(t, [7, 8]); print(t)
t = np.zeros((5, 3)); np.fill_diagonal(t, 1, wrap=True); print(t)
c = np.zeros((2, 2, 2)); np.fill_diagonal(c, 4.5); print(c)
s = np.arange(16.0).reshape(4, 4); np.fill_diagonal(s, -np.inf); print(s, np.fill_diagonal(s, 0))
w = np.zeros((2, 4), dtype=np.int8); np.fill_diagonal(w, 3.7); print(w)

x = np.array([[0.1, 0.9, 0.3], [0.7, 0.2, 0.95]])
print(np.unravel_index(np.argmax(x), x.shape), np.unravel_index([1, 5, 3], (2, 3)), np.unravel_index(7, (2, 2, 2)))
print(np.unravel_index(5, (2, 3), order='F'), np.ravel_multi_index(([0, 1], [2, 0]), (2, 3)), np.ravel_multi_index((1, 1), (2, 3)))
print(np.ravel_multi_index(([3, -1], [0, 4]), (2, 3), mode='clip'), np.ravel_multi_index(([3], [4]), (2, 3), mode='wrap'))
a = np.arange(20).reshape(4, 5)
print(a[np.ix_([0, 2], [1, 3, 4])], np.ix_([1, 2], [0]), a[np.ix_([True, False, True, False], [0, 4])])
print(np.tri(3), np.tri(2, 4, 1, dtype=int), np.triu_indices(3), np.triu_indices(4, 1), np.tril_indices(3, -1), np.tril_indices(2, 0, 3))
iu = np.triu_indices(3, 1)
print(a[:3, :3][iu], np.diag_indices(3), np.indices((2, 3)), np.indices((2, 2), sparse=True))
print(np.array_equiv([1, 2], [[1, 2], [1, 2]]), np.array_equiv([1, 2], [1, 3]), np.array_equiv([1, 2], [1, 2, 3]))
y = np.array([0, 3, 1, 2, 5])
print(np.select([y < 1, y > 2], [y, y * 10], default=-1), np.select([y > 1], [y * 0.5]), np.lexsort(([1, 2, 1, 2], [3, 1, 2, 1])))
names_last = np.array([3, 1, 3, 2]); first = np.array([9, 4, 1, 4])
print(np.lexsort((first, names_last)))

counts = np.zeros(4, dtype=int); np.add.at(counts, [0, 2, 2, 3, 2], 1); print(counts)
acc = np.zeros((3, 2)); np.add.at(acc, [0, 0, 2], np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])); print(acc)
v = np.array([5, 1, 7]); np.maximum.at(v, [0, 1], [3, 9]); print(v)
print(np.add.reduce(np.arange(6).reshape(2, 3)), np.add.reduce(np.arange(6).reshape(2, 3), axis=1), np.maximum.reduce([1, 5, 2]))
print(np.multiply.reduce([1, 2, 3, 4]), np.logical_or.reduce([False, True]), np.logical_and.reduce(np.array([[True, False], [True, True]]), axis=1))
print(np.add.accumulate([1, 2, 3]), np.multiply.accumulate([1.0, 2.0, 3.0]), np.maximum.accumulate([1, 3, 2, 5, 4]), np.minimum.accumulate([3, 1, 2]))
print(np.multiply.outer([1, 2, 3], [1, 10]), np.add.outer(np.arange(2), np.arange(3)), np.subtract.outer([5.0], [1, 2]))
print(np.repeat(np.array([1, 2, 3]), [1, 0, 2]), np.repeat(np.array([[1, 2], [3, 4]]), [2, 1], axis=0))
b = np.arange(6).reshape(2, 3)
print(b.flatten('F'), b.ravel('F'), b.flatten(), b.T.flatten('F'))
for bad in ['np.fill_diagonal(np.zeros(3), 1)', 'np.fill_diagonal(np.zeros((2, 3, 2)), 1)', 'np.unravel_index(6, (2, 3))',
            'np.ravel_multi_index(([2], [0]), (2, 3))', 'np.ix_(np.zeros((2, 2)))', 'np.select([y > 1], [y, y])']:
    try:
        eval(bad)
    except ValueError as e:
        print(bad, '->', e)
print(np.broadcast_shapes((2, 1), (1, 3)), np.broadcast_shapes(3, (2, 1)), np.broadcast_shapes())
for bad in [((2,), (3,)), ((2, 1), (1, 3), (4, 1, 1), (5,))]:
    try:
        np.broadcast_shapes(*bad)
    except ValueError as e:
        print(e)
pairs = np.array([[1, 2], [3, 4], [1, 2], [0, 9], [3, 4], [1, 2]])
print(np.unique(pairs, axis=0), np.unique(pairs, axis=0, return_index=True, return_inverse=True, return_counts=True))
print(np.unique(np.array([[1, 0, 1], [2, 5, 2]]), axis=1), np.unique(np.array([[0.5, 1.0], [0.5, -1.0]]), axis=0))
