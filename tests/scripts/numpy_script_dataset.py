# A realistic NumPy + torch script (dataset), written the way tutorials and notebooks use NumPy beside
# torch; compared with NumPy 1.24 and PyTorch 1.13 as a whole.
import io
import pickle
import numpy as np
import torch
from torch.utils.data import Dataset, DataLoader, TensorDataset

rng = np.random.default_rng(0)
np.random.seed(1)
images = (np.random.rand(20, 8, 8, 3) * 255).astype(np.uint8)
labels = np.random.randint(0, 4, size=20)
print(images.dtype, images.shape, images[0, 0, 0], labels)

class NumpyDataset(Dataset):
    def __init__(self, x, y):
        self.x = x
        self.y = y
    def __len__(self):
        return len(self.x)
    def __getitem__(self, i):
        img = self.x[i].astype(np.float32) / 255.0
        img = np.transpose(img, (2, 0, 1))
        return img, self.y[i]

ds = NumpyDataset(images, labels)
img, lab = ds[0]
print(img.shape, img.dtype, type(lab).__name__, lab)
loader = DataLoader(ds, batch_size=6, shuffle=False)
for xb, yb in loader:
    print(xb.shape, xb.dtype, yb, yb.dtype)

# channel statistics
x = images.astype(np.float32) / 255.0
mean = x.mean(axis=(0, 1, 2))
std = x.std(axis=(0, 1, 2))
print(mean, std)
norm = (x - mean) / std
print(norm.shape, norm.dtype, round(float(norm.mean()), 5))
chw = np.ascontiguousarray(norm.transpose(0, 3, 1, 2))
print(chw.flags['C_CONTIGUOUS'], chw.strides)
t = torch.from_numpy(chw)
print(t.shape, t.is_contiguous())

# TensorDataset from numpy
tds = TensorDataset(torch.from_numpy(chw), torch.from_numpy(labels))
print(len(tds), tds[3][1])

# predictions gathered with np.concatenate
all_preds = []
for xb, yb in DataLoader(tds, batch_size=8):
    out = xb.mean(dim=(2, 3))
    all_preds.append(out.argmax(dim=1).numpy())
preds = np.concatenate(all_preds)
print(preds, (preds == labels).mean())

# save results
buf = io.BytesIO()
np.savez_compressed(buf, preds=preds, labels=labels)
buf.seek(0)
with np.load(buf) as data:
    print(data['preds'], data['labels'].dtype)
blob = pickle.dumps({'mean': mean, 'std': std, 'n': len(ds)})
state = pickle.loads(blob)
print(state['mean'], state['n'], len(blob))
f = io.BytesIO()
np.save(f, chw[:2])
f.seek(0)
print(np.load(f).shape)
print(np.clip(norm, -1, 1).min(), np.abs(norm).max())
print(np.round(np.corrcoef(x[..., 0].ravel(), x[..., 1].ravel()), 4))
