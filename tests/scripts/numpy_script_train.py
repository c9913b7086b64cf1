# A realistic NumPy + torch script (train), written the way tutorials and notebooks use NumPy beside
# torch; compared with NumPy 1.24 and PyTorch 1.13 as a whole.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

np.random.seed(42)
torch.manual_seed(0)

# synthetic 3-class data, like a tutorial's make_blobs
n_per = 100
centers = np.array([[0, 0], [3, 3], [0, 4]], dtype=np.float64)
X = np.vstack([np.random.randn(n_per, 2) * 0.8 + c for c in centers])
y = np.hstack([np.full(n_per, i) for i in range(3)])
print(X.shape, y.shape, X.dtype, y.dtype)
print(X[:3])
print(np.bincount(y))

# shuffle + train/test split
idx = np.random.permutation(len(X))
X, y = X[idx], y[idx]
split = int(0.8 * len(X))
X_train, X_test = X[:split], X[split:]
y_train, y_test = y[:split], y[split:]
print(X_train.shape, X_test.shape)

# normalisation with train statistics
mean = X_train.mean(axis=0)
std = X_train.std(axis=0)
print('mean', mean, 'std', std)
X_train = (X_train - mean) / std
X_test = (X_test - mean) / std
print(X_train.min(axis=0), X_train.max(axis=0))

# one-hot
one_hot = np.eye(3)[y_train]
print(one_hot[:4])
print(one_hot.sum(axis=0))

Xt = torch.from_numpy(X_train).float()
yt = torch.from_numpy(y_train).long()
Xv = torch.tensor(X_test, dtype=torch.float32)
yv = torch.as_tensor(y_test)
print(Xt.dtype, yt.dtype, Xv.shape, yv.dtype)

model = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
batch = 32
losses = []
for epoch in range(5):
    perm = np.random.permutation(len(Xt))
    for i in range(0, len(perm), batch):
        b = perm[i:i + batch]
        xb, yb = Xt[b], yt[b]
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    print(epoch, np.mean(losses[-8:]).round(4))

with torch.no_grad():
    logits = model(Xv)
probs = F.softmax(logits, dim=1).numpy()
pred = np.argmax(probs, axis=1)
print(probs[:3])
print(pred[:10], y_test[:10])
acc = np.mean(pred == y_test)
print('accuracy', acc, f'{acc:.2%}')
cm = np.zeros((3, 3), dtype=int)
for t, p in zip(y_test, pred):
    cm[t, p] += 1
print(cm)
print(cm.diagonal() / cm.sum(axis=1))
prec = np.diag(cm) / np.maximum(cm.sum(axis=0), 1)
print(np.round(prec, 3), prec.mean())
print(np.unique(pred, return_counts=True))
# batches with np.stack
batches = [X_test[i:i + 8] for i in range(0, 24, 8)]
stacked = np.stack(batches)
print(stacked.shape, stacked.dtype)
tb = torch.from_numpy(stacked)
print(tb.shape, tb.dtype, tb.sum().item())
back = tb.numpy()
back[0, 0, 0] = 99
print(stacked[0, 0, 0])
print(np.allclose(tb.numpy(), stacked), np.argsort(-probs[0]))
print(np.percentile(losses, [25, 50, 75]))
print(np.histogram(pred, bins=3))
print(np.where(pred != y_test)[0])
print(np.concatenate([pred[:5], y_test[:5]]).reshape(2, -1))
print(repr(np.linspace(0, 1, 5)), np.arange(0, 1, 0.25).tolist())
