# type(x) of PyTorch's classes as 1.13 prints them: each class's __module__ is the submodule that
# defines it (torch.distributions.normal.Normal, torch.utils.data.dataloader.DataLoader, ...).
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ds = TensorDataset(torch.ones(4, 2), torch.zeros(4))
loader = DataLoader(ds, batch_size=2)
objs = [torch.distributions.Normal(0., 1.), torch.distributions.Categorical(torch.ones(3)),
        torch.distributions.Bernoulli(0.5), torch.distributions.Uniform(0., 1.),
        torch.distributions.MultivariateNormal(torch.zeros(2), torch.eye(2)), torch.distributions.Beta(1., 2.),
        torch.distributions.StudentT(2.), torch.distributions.LowRankMultivariateNormal(
            torch.zeros(2), torch.ones(2, 1), torch.ones(2)),
        nn.Linear(2, 2), nn.MSELoss(), nn.LSTM(2, 2), torch.optim.SGD(nn.Linear(1, 1).parameters(), lr=0.1),
        ds, loader, iter(loader), torch.utils.data.RandomSampler(ds), torch.utils.data.BatchSampler(range(4), 2, False),
        torch.utils.data.random_split(ds, [2, 2])[0], torch.utils.data.ConcatDataset([ds, ds]),
        torch.utils.data.WeightedRandomSampler([0.5, 0.5], 2),
        torch.Generator(), torch.device('cpu'), torch.finfo(torch.float32), torch.iinfo(torch.int32),
        torch.no_grad(), torch.ones(1), torch.Size([1]), torch.float32]
for o in objs:
    t = type(o)
    print(t, t.__module__, t.__name__)
print(torch.distributions.Normal, torch.distributions.Distribution, torch.distributions.ExponentialFamily)
print(DataLoader, TensorDataset, torch.utils.data.Dataset, torch.utils.data.Sampler, torch.utils.data.SubsetRandomSampler)
