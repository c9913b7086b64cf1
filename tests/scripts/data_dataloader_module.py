# torch.utils.data.dataloader: the module PyTorch defines DataLoader in (karpathy/makemore
# imports it from there); its names are torch.utils.data's
import torch
import torch.utils.data
from torch.utils.data.dataloader import DataLoader, default_collate
import torch.utils.data.dataloader as dl

print(DataLoader is torch.utils.data.DataLoader, default_collate is torch.utils.data.default_collate)
print(dl.RandomSampler is torch.utils.data.RandomSampler, dl.get_worker_info())
torch.manual_seed(0)
ds = torch.utils.data.TensorDataset(torch.arange(10.), torch.arange(10))
sampler = dl.RandomSampler(ds, replacement=True, num_samples=int(1e10))
it = iter(DataLoader(ds, sampler=sampler, batch_size=4))
for _ in range(3):
    print(next(it))
print(default_collate([(1, 2.0), (3, 4.0)]))
try:
    from torch.utils.data.dataloader import NoSuchLoader
except ImportError as e:
    print('ImportError')
