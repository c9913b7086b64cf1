# A realistic NumPy + torch script (encoding), written the way tutorials and notebooks use NumPy beside
# torch; compared with NumPy 1.24 and PyTorch 1.13 as a whole.
import numpy as np
import torch

# sinusoidal positional encoding, the Transformer-tutorial way
max_len, d = 6, 8
pos = np.arange(max_len)[:, np.newaxis]
div = np.exp(np.arange(0, d, 2) * -(np.log(10000.0) / d))
pe = np.zeros((max_len, d))
pe[:, 0::2] = np.sin(pos * div)
pe[:, 1::2] = np.cos(pos * div)
print(pe.round(4))
angle = pos / np.power(10000, (2 * (np.arange(d)[np.newaxis, :] // 2)) / np.float32(d))
print(angle.dtype, angle[1, :4])
pet = torch.FloatTensor(pe)
print(pet.dtype, pet.shape, torch.Tensor(pe[:2, :2]))
t = torch.tensor([1.5, 2.5])
print(np.asarray(t), np.array(t).dtype, np.array([torch.tensor(1.0), torch.tensor(2.0)]))
print(np.float32(2.0) * t, t * np.float64(2.0), (t + np.int64(1)).dtype)
print(torch.from_numpy(np.arange(4)).numpy().tolist(), type(t.numpy().tolist()[0]))
losses = [torch.tensor(0.5), torch.tensor(0.25)]
print(np.mean([l.item() for l in losses]), np.mean(torch.stack(losses).numpy()))
x = np.random.RandomState(0).normal(size=(2, 3)).astype(np.float32)
print(torch.as_tensor(x).sum(), x.sum(), torch.from_numpy(x).mean(0), x.mean(0))
imgs = np.random.RandomState(1).randint(0, 256, (2, 4, 4, 3), dtype=np.uint8)
tt = torch.from_numpy(imgs).permute(0, 3, 1, 2).float().div(255)
print(tt.shape, tt.mean().item(), imgs.mean(), (imgs / 255.0).mean())
print(np.moveaxis(imgs, -1, 1).shape, imgs.transpose(0, 3, 1, 2).strides)
print(np.clip(tt.numpy() * 1.2, 0, 1).max(), (tt.numpy() * 255).astype(np.uint8)[0, 0, 0])
grid = np.stack(np.meshgrid(np.linspace(-1, 1, 3), np.linspace(-1, 1, 2)), axis=-1)
print(grid.shape, grid[1])
print(torch.from_numpy(grid).float().unsqueeze(0).shape)
m = np.triu(np.ones((4, 4)), k=1).astype('uint8')
print(torch.from_numpy(m) == 0)
mask = torch.from_numpy(np.array([[True, False], [False, True]]))
print(mask, mask.dtype)
print(np.array([1, 2, 3])[torch.tensor(1)], np.arange(5)[torch.tensor([0, 2])])
arr = np.zeros(3); arr[torch.tensor(1)] = 5; print(arr)
print(float(np.float32(0.1)), np.float32(0.1).item(), int(np.int64(7)), np.float64(1/3))
print(f"{np.float32(3.14159):.2f} {np.int32(5):03d} {np.float64(2.0)}")
rs = np.random.RandomState(5)
print(rs.randint(0, 256, 10, dtype=np.uint8), rs.randint(-5, 5, 7, dtype=np.int8), rs.randint(0, 1000, 5, dtype=np.uint16))
print(rs.randint(0, 2, 40, dtype=bool).astype(int), rs.randint(3, 10, 4, dtype=np.int16), rs.randint(0, 7, 3, dtype=np.int32))
print(rs.randint(0, 2**16, 3, dtype=np.uint16), rs.randint(0, 5, dtype=np.uint8), type(rs.randint(0, 5, dtype=np.uint8)).__name__)
print(np.random.randint(0, 10, (2, 3), dtype=np.uint8).dtype, rs.randint(100, 200, 5, dtype='u1'))
print(torch.Tensor(np.arange(3, dtype=np.float32)), torch.Tensor(np.array([[1, 2]])))
