# A realistic NumPy + torch script (regression), written the way tutorials and notebooks use NumPy beside
# torch; compared with NumPy 1.24 and PyTorch 1.13 as a whole.
import numpy as np
import torch
import torch.nn as nn

np.random.seed(0)
torch.manual_seed(0)
x = np.linspace(-np.pi, np.pi, 200)
y = np.sin(x) + 0.1 * np.random.randn(*x.shape)
print(x[:3], y[:3])
data = np.column_stack([x, y]).astype(np.float32)
np.random.shuffle(data)
print(data[:2], data.shape)
train, val = np.split(data, [160])
print(train.shape, val.shape)
batches = np.array_split(train, 5)
print([b.shape for b in batches])
xt = torch.from_numpy(train[:, :1])
yt = torch.from_numpy(train[:, 1:])
model = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
history = {'loss': [], 'val': []}
for epoch in range(30):
    for b in batches:
        xb = torch.from_numpy(b[:, :1]); yb = torch.from_numpy(b[:, 1:])
        loss = ((model(xb) - yb) ** 2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
    with torch.no_grad():
        vl = ((model(torch.from_numpy(val[:, :1])) - torch.from_numpy(val[:, 1:])) ** 2).mean().item()
    history['loss'].append(loss.item()); history['val'].append(vl)
    if epoch % 10 == 0:
        print(f"epoch {epoch:3d} loss {loss.item():.4f} val {vl:.4f}")
losses = np.array(history['loss'])
print(losses.shape, losses.dtype, losses.argmin(), np.min(history['val']))
smooth = np.convolve(losses, np.ones(5) / 5, mode='valid')
print(smooth.round(4))
print(np.cumsum(losses)[-1], np.diff(losses)[:3])
best = np.argsort(history['val'])[::-1][:5]
print(best, np.array(history['val'])[best])
with torch.no_grad():
    pred = model(torch.from_numpy(val[:, :1])).numpy().ravel()
err = pred - val[:, 1]
print(f"MAE {np.abs(err).mean():.4f} RMSE {np.sqrt((err ** 2).mean()):.4f} max {err.max():.3f}")
print('R2', 1 - np.sum(err ** 2) / np.sum((val[:, 1] - val[:, 1].mean()) ** 2))
coef = np.polyfit(x, y, 3)
print(coef, np.polyval(coef, 0.5))
print(np.isclose(pred[:4], val[:4, 1], atol=0.2), np.round(pred[:4], 3))
print('{:.3f} {}'.format(np.float32(1.23456), np.float64(2.5)), str(np.float32(0.1)), repr(np.int64(3)))
print(np.exp(np.log(np.array([0.2, 0.3, 0.5]))).sum(), np.log(np.clip(pred[:3], 1e-7, None)))
idx = np.random.choice(len(val), 5, replace=False)
print(idx, val[idx, 0])
m = np.stack([pred, val[:, 1]], axis=1)
print(m.shape, np.corrcoef(m.T)[0, 1].round(4))
print(np.mean(history['loss'][-5:]), np.std(history['val']))
w = model[0].weight.detach().numpy()
print(w.shape, w.dtype, np.linalg.norm(w).round(4), np.abs(w).max().round(4))
tot = sum(p.numel() for p in model.parameters())
print(tot, np.prod(w.shape))
