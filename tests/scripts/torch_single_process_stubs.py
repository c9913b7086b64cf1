# What PyTorch 1.13's CPU-only build does in one process, for the imports and calls of
# nanoGPT's train.py: torch.distributed without a process group, nn.DataParallel (which
# calls its module), DistributedDataParallel's error, torch.cuda.amp.GradScaler(enabled=False)
# passing everything through, torch.backends.cuda.matmul's flags.
import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.distributed import init_process_group, destroy_process_group
import torch.distributed as dist
print(dist.is_available(), dist.is_initialized())
torch.manual_seed(0)
m = nn.DataParallel(nn.Linear(3, 2))
print(m)
print(m(torch.ones(1, 3)))
print(list(m.state_dict().keys()), type(m).__name__, m.module.weight.shape)
for bad in [lambda: DDP(nn.Linear(2, 2)), lambda: dist.get_rank(), lambda: dist.get_world_size()]:
    try:
        bad()
    except RuntimeError as e:
        print('RuntimeError:', e)
s = torch.cuda.amp.GradScaler(enabled=False)
print(s.is_enabled(), s.get_scale(), s.state_dict())
lin = nn.Linear(2, 1)
opt = torch.optim.SGD(lin.parameters(), lr=0.1)
loss = lin(torch.ones(1, 2)).sum()
print(s.scale(loss) is loss)
s.scale(loss).backward()
s.unscale_(opt)
print(s.step(opt))
s.update()
print(lin.weight)
torch.backends.cuda.matmul.allow_tf32 = True
torch.backends.cudnn.allow_tf32 = True
print(torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32)
