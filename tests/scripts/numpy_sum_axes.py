# np.sum/mean/std of float32 and float64 arrays over every set of axes, added in NumPy's order (through
# memory: pairwise over the trailing reduced axes, those sums one after another), hashed by their bytes;
# torch tensors indexed by NumPy arrays (int, bool and uint8 masks) as PyTorch does
import numpy as np, itertools, hashlib
rng = np.random.default_rng(3)
out = []
for shape in [(20, 8, 8, 3), (5, 3, 7, 9), (4, 1000), (3, 1, 5), (2, 3, 4, 5, 6), (7, 1), (1, 9), (130, 70)]:
    for dt in (np.float32, np.float64):
        x = (rng.standard_normal(shape) * 10).astype(dt)
        nd = len(shape)
        for r in range(1, nd):
            for ax in itertools.combinations(range(nd), r):
                s = x.sum(axis=ax)
                m = x.mean(axis=ax)
                v = x.std(axis=ax)
                out.append(hashlib.sha256(s.tobytes() + m.tobytes() + v.tobytes()).hexdigest()[:12] + ' ' + str(shape) + ' ' + dt.__name__ + ' ' + str(ax))
        k = x.sum(axis=(0,), keepdims=True)
        out.append(str(k.shape))
print('\n'.join(out))
import torch
t = torch.arange(10) * 10
print(t[np.array([1, 3, 5])], t[np.array([True, False] * 5)], t[np.arange(3)[::-1].copy()])
m = torch.arange(12.).reshape(3, 4)
print(m[np.array([0, 2])], m[:, np.array([1, 3])], m[np.array([0, 1]), np.array([2, 3])])
m[np.array([1])] = -1
print(m, m[np.array([[0, 1], [2, 0]])].shape)
