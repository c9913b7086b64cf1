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
