import torch
from torch.utils.data import Dataset, DataLoader, Sampler, TensorDataset, random_split, Subset
import torch.utils.data as data

class DictDS(Dataset):
    def __init__(self, n):
        self.n = n
    def __len__(self):
        return self.n
    def __getitem__(self, idx):
        if torch.is_tensor(idx):
            idx = idx.tolist()
        return {'image': torch.full((2, 2), float(idx)), 'landmarks': torch.tensor([idx, idx * 2]), 'name': 'img%d' % idx}

ds = DictDS(10)
torch.manual_seed(0)
dl = DataLoader(ds, batch_size=4, shuffle=True, num_workers=2, pin_memory=True)
for i_batch, sample_batched in enumerate(dl):
    print(i_batch, sample_batched['image'].size(), sample_batched['landmarks'].size(), sample_batched['name'])
    print(sample_batched['landmarks'])

class MySampler(Sampler):
    def __init__(self, data_source):
        self.data_source = data_source
    def __iter__(self):
        return iter(range(len(self.data_source) - 1, -1, -1))
    def __len__(self):
        return len(self.data_source)

dl2 = DataLoader(ds, batch_size=3, sampler=MySampler(ds))
for b in dl2:
    print(b['landmarks'][:, 0])
print(len(dl2), len(dl))

def my_collate(batch):
    data = [item['image'] for item in batch]
    target = [item['landmarks'] for item in batch]
    return [torch.stack(data), torch.stack(target)]

dl3 = DataLoader(ds, batch_size=5, collate_fn=my_collate)
for x, y in dl3:
    print(x.shape, y.tolist())

x = torch.arange(20, dtype=torch.float32).view(10, 2)
y = torch.arange(10)
tds = TensorDataset(x, y)
print(len(tds), tds[3])
g = torch.Generator().manual_seed(42)
a, b = random_split(tds, [7, 3], generator=g)
print(len(a), len(b), a.indices, b.indices)
for xb, yb in DataLoader(a, batch_size=3, shuffle=True, generator=torch.Generator().manual_seed(1)):
    print(xb, yb)
print(type(dl.sampler).__name__, type(dl.batch_sampler).__name__, dl.batch_size, dl.dataset is ds)
bs = data.BatchSampler(data.SequentialSampler(range(10)), batch_size=3, drop_last=False)
print(list(bs))
print(list(data.BatchSampler(data.RandomSampler(range(10), generator=torch.Generator().manual_seed(3)), batch_size=4, drop_last=True)))
print(list(data.SubsetRandomSampler([1, 5, 7], generator=torch.Generator().manual_seed(0))))
print(list(data.WeightedRandomSampler([0.1, 0.9, 0.4, 0.7], 5, replacement=True, generator=torch.Generator().manual_seed(0))))
cds = data.ConcatDataset([tds, tds])
print(len(cds), cds[12])
it = iter(DataLoader(tds, batch_size=4))
print(next(it)[1])
print(data.default_collate([(1, 2.0), (3, 4.0)]))
print(data.get_worker_info())
dl4 = DataLoader(tds, batch_size=4, drop_last=True)
print(len(dl4), [yb.tolist() for _, yb in dl4])
# WeightedRandomSampler, ChainDataset, DistributedSampler
w = data.WeightedRandomSampler(torch.tensor([1., 0., 3., 2.]), 6, generator=torch.Generator().manual_seed(5))
print(len(w), list(w), w.weights)
print(list(data.WeightedRandomSampler([1, 1, 1, 5], 3, replacement=False, generator=torch.Generator().manual_seed(2))))
for bad in [dict(weights=[1., 2.], num_samples=0), dict(weights=[1., 2.], num_samples=True),
            dict(weights=[[1., 2.]], num_samples=2), dict(weights=[1., 2.], num_samples=2, replacement=1)]:
    try:
        data.WeightedRandomSampler(**bad)
    except ValueError as e:
        print('ValueError:', e)
torch.manual_seed(7)
print([y.tolist() for _, y in DataLoader(tds, batch_size=4, sampler=data.WeightedRandomSampler([1.] * 10, 8))])

class Stream(data.IterableDataset):
    def __init__(self, a, b):
        self.a, self.b = a, b
    def __iter__(self):
        return iter(range(self.a, self.b))
    def __len__(self):
        return self.b - self.a
ch = data.ChainDataset([Stream(0, 3), Stream(10, 12)])
print(list(ch), len(ch))
print([b.tolist() for b in DataLoader(ch, batch_size=2)])
for rank in range(3):
    ds_ = data.DistributedSampler(range(10), num_replicas=3, rank=rank, seed=1)
    print(rank, len(ds_), list(ds_))
    ds_.set_epoch(1)
    print(rank, list(ds_))
print(list(data.DistributedSampler(range(10), num_replicas=3, rank=2, shuffle=False, drop_last=True)))
for bad in [dict(), dict(num_replicas=2, rank=2)]:
    try:
        data.DistributedSampler(range(4), **bad)
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, e)
# persistent workers: one base seed for the loader's life, as PyTorch keeps its first iterator
try:
    DataLoader(tds, persistent_workers=True)
except ValueError as e:
    print('ValueError:', e)
torch.manual_seed(3)
pl = DataLoader(tds, batch_size=5, shuffle=True, num_workers=2, persistent_workers=True)
for epoch in range(3):
    print(epoch, [y.tolist() for _, y in pl], torch.rand(1))
print(pl.persistent_workers, pl.pin_memory, pl.num_workers)
