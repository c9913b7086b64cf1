import torch
from torch.utils.data import Dataset, TensorDataset, IterableDataset, DataLoader, random_split, Subset
import torch.utils.data as tud
torch.manual_seed(0)
x = torch.arange(20, dtype=torch.float32).reshape(10, 2)
y = torch.arange(10)
ds = TensorDataset(x, y)
print(len(ds), ds[3])
for xb, yb in DataLoader(ds, batch_size=4):
    print(xb.tolist(), yb.tolist())
dl = DataLoader(ds, batch_size=3, shuffle=True)
print('len', len(dl))
for epoch in range(2):
    print('epoch', epoch, [yb.tolist() for _, yb in dl])
dl = DataLoader(ds, batch_size=3, shuffle=True, drop_last=True)
print('len drop', len(dl), [yb.tolist() for _, yb in dl])
print('after', torch.rand(2))
class Squares(Dataset):
    def __init__(self, n):
        self.n = n
    def __len__(self):
        return self.n
    def __getitem__(self, i):
        return {'x': float(i), 'y': i * i, 'name': 'item%d' % i, 'pair': (i, torch.tensor([i, -i]))}
for b in DataLoader(Squares(5), batch_size=2):
    print(b)
g = torch.manual_seed(42)  # the default generator (nnscope has no torch.Generator() of its own)
a, b = random_split(range(10), [3, 7], generator=g)
print(list(a), list(b), len(a), len(b))
torch.manual_seed(1)
parts = random_split(Squares(7), [0.5, 0.5])
print([len(p) for p in parts], [p.indices for p in parts])
print(Subset(ds, [1, 3])[1])
class Stream(IterableDataset):
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        for i in range(self.n):
            yield torch.tensor([i, i + 1])
print([b.tolist() for b in DataLoader(Stream(7), batch_size=3)])
print([b.tolist() for b in DataLoader(Stream(7), batch_size=3, drop_last=True)])
print(len(DataLoader(Squares(7), batch_size=3)), len(DataLoader(Squares(7), batch_size=3, drop_last=True)))
print([b for b in DataLoader([1, 2, 3, 4, 5], batch_size=2)])
print([b for b in DataLoader([1.5, 2.5, 3.5], batch_size=2)])
print([b for b in DataLoader(Squares(3), batch_size=None)][1])
torch.manual_seed(3)
print(list(tud.RandomSampler(range(6))))
print(list(tud.BatchSampler(tud.SequentialSampler(range(7)), 3, False)))
print(list(DataLoader(ds, sampler=tud.SequentialSampler(range(3)), batch_size=2))[1])
print(len(ds + ds), (ds + ds)[12])
torch.manual_seed(5)
print([yb.tolist() for _, yb in DataLoader(ds, batch_size=4, shuffle=True, collate_fn=lambda b: tud.default_collate(b))])
print([len(b) for b in DataLoader(ds, batch_size=4, collate_fn=lambda b: b)])
for bad in [lambda: DataLoader(ds, batch_size=0), lambda: DataLoader(ds, shuffle=True, sampler=[1, 2]),
            lambda: DataLoader(Stream(3), shuffle=True), lambda: TensorDataset(x, torch.ones(3)),
            lambda: list(DataLoader([None, None])), lambda: Dataset()[0],
            lambda: random_split(range(5), [2, 2])]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
print(torch.rand(1))
# a training loop over a shuffled loader, reached as torch.utils.data.X
torch.manual_seed(0)
model = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y.float().unsqueeze(1)), batch_size=4, shuffle=True)
for epoch in range(3):
    total = 0.0
    for xb, yb in loader:
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(xb), yb)
        loss.backward()
        opt.step()
        total += loss.item()
    print(epoch, round(total, 4))
print(model.weight.data, type(loader).__name__, type(iter(loader)).__name__)
# generator= objects: random_split, the samplers and the loader's base seed draw from them
torch.manual_seed(1)
ds = TensorDataset(torch.arange(10))
a, b = random_split(ds, [7, 3], generator=torch.Generator().manual_seed(42))
print(list(a.indices), list(b.indices))
print(list(tud.SubsetRandomSampler([3, 5, 7, 9], generator=torch.Generator().manual_seed(5))))
print(list(tud.RandomSampler(range(6), replacement=True, generator=torch.Generator().manual_seed(2))))
for x in DataLoader(ds, batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(3)):
    print(x)
print(torch.rand(2))
