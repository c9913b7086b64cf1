# slice is a type (isinstance, type(), its name) and a range is a sequence that
# torch.tensor and np.array read (found by tests/corpus/mz_504_batch_normalization.py and
# ex_time_sequence_prediction.py)
import numpy as np
import torch

s = slice(1, 5, 2)
print(slice, type(s), type(s) is slice, slice.__name__)
print(isinstance(s, slice), isinstance(3, slice), isinstance(s, (int, slice)))
print([1, 2, 3, 4, 5, 6][s], slice(3), slice(None, 2))


class Grid:
    def __getitem__(self, key):
        return [type(k).__name__ for k in key] if isinstance(key, tuple) else isinstance(key, slice)


g = Grid()
print(g[0, :], g[1:2], g[3])
print(torch.tensor(range(4)), torch.tensor(range(2, 11, 3), dtype=torch.float32), torch.tensor(range(0)))
print(np.array(range(5)), np.array(range(2, 8, 3)).dtype, np.array(range(3)) + np.random.RandomState(0).randint(0, 4, 3))
x = np.empty((2, 4), 'int64')
x[:] = np.array(range(4)) + np.array([[10], [20]])
print(x)
try:
    slice(1, 2, 3, 4)
except TypeError as e:
    print('TypeError', e)
