# NumPy scalars and arrays in everyday training-script idioms: indexing lists and dicts
# with them, seeding with them, formatting means, sizes from np.prod, the legacy typed
# constructors of ndarrays (torch.FloatTensor(a) shares a float32 array's memory).
import random
import numpy as np
import torch

np.random.seed(np.int64(3))
a = np.arange(4)
lst = ['a', 'b', 'c', 'd']
print([lst[i] for i in a], [lst[i] for i in np.nonzero(a > 1)[0]])
probs = np.array([0.1, 0.7, 0.2])
idx_to_char = {0: 'x', 1: 'y', 2: 'z'}
print(idx_to_char[np.argmax(probs)], torch.LongTensor([np.argmax(probs)]), torch.tensor([np.argmax(probs)]))
losses = [0.5, 0.25, 0.125]
print('%.3f' % np.mean(losses), 'loss: {:.4f}'.format(np.mean(losses)), f'{np.std(losses):.3f}')
torch.manual_seed(np.random.randint(100)); print(torch.rand(1))
print(sorted(np.array([3, 1, 2])), list(np.array([1.5, 2.5])), max(np.array([1, 5, 2])), sum(np.array([1, 2])))
c = np.random.choice(3, p=probs); print(c, type(c).__name__)
x = torch.randn(5)
print(x[np.random.randint(5)], x.cpu().numpy()[np.int64(2)] == x[2].item())
total = 0
for v in np.array([0.1, 0.2]):
    total += v
print(total, type(total).__name__)
acc = (np.array([1, 2, 3]) == np.array([1, 0, 3])).mean(); print(acc, f'{acc:.2%}', type(acc).__name__)
n = np.prod((2, 3)); print(torch.zeros(n).shape, torch.ones(n, 2).shape, np.zeros((n, 2)).shape)
print(torch.tensor(np.array([1.0, 2.0])).dtype, torch.FloatTensor(np.array([1.0, 2.0])), torch.from_numpy(np.array([1, 2])) * np.float32(0.5))
print(int(np.float64(3.7)), float(np.int64(2)), bool(np.float32(0)), np.float64(3.0) == 3, np.isnan(np.float64('nan')))
print(np.clip(np.float64(5), 0, 3), np.sqrt(np.int64(16)), np.exp(np.float32(0)), np.maximum(np.int64(2), 3.5))
a = np.array([1., 2.], dtype=np.float32); t = torch.FloatTensor(a); t[0] = 5; print(a, torch.LongTensor(np.arange(3)), torch.DoubleTensor(np.ones(2, dtype=np.int16)))
b = np.array([1., 2.]); u = torch.FloatTensor(b); u[0] = 7; print(b, u)
