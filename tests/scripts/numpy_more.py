# numpy with the rest of torch: .npy files (np.save / np.load, read back by
# NumPy byte for byte), tensor-op-array arithmetic giving tensors, a DataLoader
# over numpy data (collated as PyTorch's default_collate does), TensorDataset of
# from_numpy tensors.
import os
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, TensorDataset

a = np.arange(12).reshape(3, 4) / 8
np.save('numpy_more_a', a)
np.save('numpy_more_b.npy', np.array([[True, False]]))
np.save('numpy_more_c.npy', np.linspace(0, 1, 3, dtype=np.float32))
print(np.load('numpy_more_a.npy'), np.load('numpy_more_b.npy'), repr(np.load('numpy_more_c.npy')))
print(np.array_equal(np.load('numpy_more_a.npy'), a))
for f in ['numpy_more_a.npy', 'numpy_more_b.npy', 'numpy_more_c.npy']:
    os.remove(f)
try:
    np.load('numpy_more_missing.npy')
except FileNotFoundError as err:
    print('FileNotFoundError', err.filename)

t = torch.ones(2)
print(t * np.array([1.0, 2.0]), torch.tensor([2.0, 3.0]) + np.array([1, 2], dtype=np.float32), t - np.ones(2))
try:
    np.ones(2) - t
except TypeError:
    print('TypeError')


class Squares(Dataset):
    def __len__(self):
        return 6

    def __getitem__(self, i):
        return np.array([i, i * i], dtype=np.float32), np.float32(i) / 2, i


torch.manual_seed(0)
for x, y, z in DataLoader(Squares(), batch_size=4, shuffle=True):
    print(x, y, z)
np.random.seed(3)
xs = np.random.rand(5, 2).astype(np.float32)
ys = (xs.sum(axis=1) > 1).astype(np.int64)
ds = TensorDataset(torch.from_numpy(xs), torch.from_numpy(ys))
for xb, yb in DataLoader(ds, batch_size=2):
    print(xb, yb)
model = torch.nn.Linear(2, 1)
torch.manual_seed(1)
torch.nn.init.constant_(model.weight, 0.5)
out = model(torch.from_numpy(xs)).detach().numpy()
print(out.shape, out.dtype, np.round(out[:2], 4), (out > 0.5).sum())

# median, percentile, flip, diff, meshgrid, logspace, split, tril/triu, atleast_2d, ptp
m = np.array([[3.0, 1.0, 4.0], [1.0, 5.0, 9.0]])
print(np.median(m), np.median(m, axis=0), np.median([1, 2, 3, 4]), np.percentile(m, 25), np.percentile(m, [10, 90], axis=1))
print(np.flip(m), np.flip(m, 1), np.fliplr(m), np.flipud(m), np.diff([1, 4, 9, 16]), np.diff(m, axis=0), np.diff([1, 4, 9, 16], n=2))
xx, yy = np.meshgrid(np.arange(3), np.arange(2))
print(xx, yy)
xx, yy = np.meshgrid([1, 2], [3, 4, 5], indexing='ij')
print(xx, yy)
print(np.logspace(0, 2, 3), np.array_split(np.arange(7), 3), np.split(np.arange(6), 2), np.split(np.arange(6), [1, 4]))
print(np.tril(np.ones((3, 3))), np.triu(np.ones((3, 3)), 1), np.atleast_2d([1, 2]), np.ptp(m), np.ptp(m, axis=1))
