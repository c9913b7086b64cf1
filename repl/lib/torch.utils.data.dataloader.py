# torch.utils.data.dataloader, written in the language: the module PyTorch defines
# DataLoader in, which scripts import from (`from torch.utils.data.dataloader import
# DataLoader`, karpathy/makemore); its names are torch.utils.data's.
from torch.utils.data import (DataLoader, Dataset, IterableDataset, Sampler, SequentialSampler, RandomSampler,
                              BatchSampler, default_collate, default_convert, get_worker_info)
