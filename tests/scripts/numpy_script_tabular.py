# A realistic NumPy + torch script (tabular), written the way tutorials and notebooks use NumPy beside
# torch; compared with NumPy 1.24 and PyTorch 1.13 as a whole.
import numpy as np
import torch
import torch.nn.functional as F

np.random.seed(7)
# tabular data preprocessing like a Kaggle notebook
n = 50
age = np.random.randint(18, 70, size=n)
income = np.random.normal(50000, 15000, size=n).round(2)
cat = np.random.choice([0, 1, 2], size=n, p=[0.5, 0.3, 0.2])
missing = np.random.rand(n) < 0.1
income[missing] = np.nan
print(np.isnan(income).sum(), np.nanmean(income).round(2), np.nanmedian(income))
income = np.where(np.isnan(income), np.nanmedian(income), income)
features = np.c_[age, income, cat]
print(features.shape, features.dtype, features[:2])
mins, maxs = features.min(0), features.max(0)
scaled = (features - mins) / (maxs - mins + 1e-8)
print(scaled[:3].round(3))
onehot = np.zeros((n, 3)); onehot[np.arange(n), cat] = 1
X = np.hstack([scaled[:, :2], onehot]).astype(np.float32)
print(X.shape, X.dtype, X.sum(axis=0))
target = (age > 40).astype(np.int64)
print(np.unique(target, return_counts=True), target.mean())
# stratified-ish split
pos, neg = np.flatnonzero(target == 1), np.flatnonzero(target == 0)
np.random.shuffle(pos); np.random.shuffle(neg)
test_idx = np.concatenate([pos[:5], neg[:5]])
train_idx = np.setdiff1d(np.arange(n), test_idx)
print(len(train_idx), sorted(test_idx.tolist()))
Xtr, ytr = torch.tensor(X[train_idx]), torch.tensor(target[train_idx])
w = torch.zeros(5, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
for step in range(100):
    logits = Xtr @ w + b
    loss = F.binary_cross_entropy_with_logits(logits, ytr.float())
    loss.backward()
    with torch.no_grad():
        w -= 0.5 * w.grad; b -= 0.5 * b.grad
        w.grad.zero_(); b.grad.zero_()
print(round(loss.item(), 5), w.detach().numpy().round(4))
p = torch.sigmoid(torch.from_numpy(X[test_idx]) @ w + b).detach().numpy()
yhat = (p > 0.5).astype(int)
yt = target[test_idx]
tp = np.sum((yhat == 1) & (yt == 1)); fp = np.sum((yhat == 1) & (yt == 0)); fn = np.sum((yhat == 0) & (yt == 1))
print(tp, fp, fn, type(tp).__name__)
precision = tp / (tp + fp) if tp + fp else 0.0
recall = tp / (tp + fn)
print(f'precision={precision:.3f} recall={recall:.3f}')
order = np.argsort(p)[::-1]
print(p[order].round(3), yt[order])
# ROC AUC by ranks
ranks = np.empty(len(p)); ranks[np.argsort(p)] = np.arange(1, len(p) + 1)
auc = (ranks[yt == 1].sum() - 5 * 6 / 2) / (5 * 5)
print('auc', auc)
print(np.round(np.quantile(p, [0.1, 0.5, 0.9]), 4), np.median(p))
print(np.array2string(p[:4], precision=2), np.mean(p > 0.5))
with np.printoptions(precision=3, suppress=True):
    print(X[:2])
print(np.tile(np.arange(3), (2, 1)), np.repeat([1, 2], 2))
print(np.triu(np.ones((3, 3)), 1), np.eye(2, dtype=bool))
table = np.zeros((2, 2), dtype=np.int64)
np.add.at(table, (yt, yhat), 1)
print(table, table.trace(), table.T)
print(np.einsum('ij,ij->i', X[:3], X[:3]).round(4))
print(np.maximum.reduce([1, 5, 3]), np.logical_and(yt, yhat).sum(), np.any(yhat), np.all(p < 1))
