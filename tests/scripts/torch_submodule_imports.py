# PyTorch's submodules that public code imports names from: each gives the object
# that the package itself exports (tests/fixtures/gen_submodules.py lists them)
import torch
import torch.nn as nn
from torch.nn.modules.loss import MSELoss, CrossEntropyLoss, BCEWithLogitsLoss
from torch.nn.modules.conv import Conv2d, ConvTranspose2d
from torch.nn.modules.activation import ReLU, MultiheadAttention
from torch.nn.modules.batchnorm import BatchNorm2d
from torch.nn.modules.container import Sequential, ModuleList
from torch.nn.modules.linear import Linear, Identity
from torch.nn.modules.pooling import MaxPool2d, AdaptiveAvgPool2d
from torch.nn.modules.rnn import LSTM, GRU
from torch.nn.modules.transformer import TransformerEncoderLayer
from torch.nn.utils.clip_grad import clip_grad_norm_
from torch.nn.utils.convert_parameters import parameters_to_vector, vector_to_parameters
from torch.optim.adam import Adam
from torch.optim.sgd import SGD
from torch.utils.data.dataset import Dataset, TensorDataset, random_split, Subset
from torch.utils.data.sampler import SubsetRandomSampler, WeightedRandomSampler, BatchSampler
from torch.utils.data._utils.collate import default_collate
from torch.distributions.normal import Normal
from torch.distributions.categorical import Categorical
from torch.distributions.kl import kl_divergence
from torch.distributions.multivariate_normal import MultivariateNormal
import torch.distributions.bernoulli
import torch.nn.modules.loss as losses
import torch.utils.data.sampler as samplers

print(MSELoss is nn.MSELoss, CrossEntropyLoss is nn.CrossEntropyLoss, BCEWithLogitsLoss is nn.BCEWithLogitsLoss)
print(Conv2d is nn.Conv2d, ConvTranspose2d is nn.ConvTranspose2d, ReLU is nn.ReLU, BatchNorm2d is nn.BatchNorm2d)
print(Sequential is nn.Sequential, Linear is nn.Linear, Identity is nn.Identity, LSTM is nn.LSTM, GRU is nn.GRU)
print(MaxPool2d is nn.MaxPool2d, MultiheadAttention is nn.MultiheadAttention, ModuleList is nn.ModuleList)
print(AdaptiveAvgPool2d is nn.AdaptiveAvgPool2d, TransformerEncoderLayer is nn.TransformerEncoderLayer)
print(clip_grad_norm_ is nn.utils.clip_grad_norm_, parameters_to_vector is nn.utils.parameters_to_vector)
print(Adam is torch.optim.Adam, SGD is torch.optim.SGD)
print(Dataset is torch.utils.data.Dataset, TensorDataset is torch.utils.data.TensorDataset,
      random_split is torch.utils.data.random_split, Subset is torch.utils.data.Subset)
print(SubsetRandomSampler is torch.utils.data.SubsetRandomSampler, BatchSampler is torch.utils.data.BatchSampler)
print(Normal is torch.distributions.Normal, Categorical is torch.distributions.Categorical,
      kl_divergence is torch.distributions.kl_divergence, MultivariateNormal is torch.distributions.MultivariateNormal)
print(torch.distributions.bernoulli.Bernoulli is torch.distributions.Bernoulli, losses.L1Loss is nn.L1Loss)
print(torch.distributions.normal.Normal is Normal, torch.nn.modules.conv.Conv1d is nn.Conv1d)
print(samplers.RandomSampler is torch.utils.data.RandomSampler)

# they work as the package's do
torch.manual_seed(0)
model = Sequential(Linear(3, 2), ReLU())
x = torch.randn(4, 3)
loss = MSELoss()(model(x), torch.zeros(4, 2))
loss.backward()
print(round(loss.item(), 4), round(clip_grad_norm_(model.parameters(), 1.0).item(), 4))
v = parameters_to_vector(model.parameters())
print(v.shape)
data = TensorDataset(torch.arange(10.).view(5, 2), torch.arange(5))
print(default_collate([data[0], data[1]]))
print(list(SubsetRandomSampler([3, 1, 4], generator=torch.Generator().manual_seed(1))))
d = Normal(torch.tensor(0.), torch.tensor(1.))
print(d.log_prob(torch.tensor(0.5)), kl_divergence(d, Normal(torch.tensor(1.), torch.tensor(2.))))
print(Categorical(probs=torch.tensor([0.2, 0.8])).entropy())

# the private bases that public code subclasses
from torch.nn.modules.loss import _Loss, _WeightedLoss
from torch.nn.modules.conv import _ConvNd


class FocalLoss(_Loss):
    def __init__(self, gamma=2.0, reduction='mean'):
        super().__init__(reduction=reduction)
        self.gamma = gamma

    def forward(self, logits, target):
        logp = torch.nn.functional.log_softmax(logits, -1).gather(1, target[:, None]).squeeze(1)
        loss = -((1 - logp.exp()) ** self.gamma) * logp
        return loss.mean() if self.reduction == 'mean' else loss.sum()


class WeightedMSE(_WeightedLoss):
    def forward(self, input, target):
        return (self.weight * (input - target) ** 2).mean()


logits, target = torch.randn(4, 3), torch.tensor([0, 2, 1, 2])
print(FocalLoss()(logits, target), FocalLoss(reduction='sum').reduction, isinstance(FocalLoss(), torch.nn.Module))
print(WeightedMSE(torch.tensor([1., 2.]))(torch.ones(2), torch.zeros(2)), WeightedMSE(None).weight)
print(_ConvNd.__name__, issubclass(_ConvNd, torch.nn.Module))

# a name the submodule does not have is CPython's ImportError
try:
    from torch.nn.modules.loss import NoSuchLoss
except ImportError as e:
    print(type(e).__name__, str(e).split(" (")[0], e.name)
try:
    import torch.nn.modules.no_such_module
except ImportError as e:
    print(type(e).__name__, e)
