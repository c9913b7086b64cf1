# np.mgrid / np.ogrid (slices with a step), np.r_ / np.c_ (the
# decision-grid idiom np.c_[xx.ravel(), yy.ravel()]), flatnonzero, setdiff1d /
# intersect1d / union1d, diagonal, hsplit / vsplit / dstack, fmod, copysign, signbit,
# isposinf / isneginf, as NumPy 1.24 gives them.
import numpy as np

print(np.mgrid[0:3, 0:2])
print(np.mgrid[0:1:0.5, 0:2:1.5])
print(np.mgrid[0:5:2], np.mgrid[-1:1:0.5], np.ogrid[0:3, 0:2])
xx, yy = np.mgrid[-1:1.5:1.0, -1:1.5:1.0]
grid = np.c_[xx.ravel(), yy.ravel()]
print(grid.shape, grid[:4])
print(np.r_[1:4, 0, 8, np.array([5, 6])], np.r_[np.array([1, 2]), np.array([3.5])], np.r_[0:1:0.25])
print(np.c_[np.array([1, 2, 3]), np.array([4, 5, 6])], np.c_[np.zeros((2, 2)), np.ones(2)])
x = np.array([[0, 3, 0], [5, 0, 7]])
print(np.flatnonzero(x), np.setdiff1d([5, 1, 3, 1, 9], [1, 9]), np.intersect1d([1, 3, 4, 3], [3, 1, 2, 1]), np.union1d([-1, 0, 1], [-2, 0, 2]))
m = np.arange(12).reshape(3, 4)
print(np.diagonal(m), np.diagonal(m, 1), m.T.diagonal())
print(np.hsplit(m, 2), np.vsplit(m, 3)[1], np.hsplit(np.arange(6), 3))
print(np.dstack([np.array([1, 2]), np.array([3, 4])]), np.dstack([m, m]).shape)
print(np.fmod(np.array([-3, -2, 5, 7]), 3), np.fmod(np.array([-3.5, 5.25]), 2), np.mod(np.array([-3, 5]), 3))
print(np.copysign(np.array([1.0, -2.0, 3.0]), -1), np.signbit(np.array([-0.0, 0.0, -2.0, 3.0])))
v = np.array([np.inf, -np.inf, 1.0, np.nan])
print(np.isposinf(v), np.isneginf(v))
