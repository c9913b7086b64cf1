# import torch.backends.cudnn as cudnn (pytorch/examples' imagenet), and the other backends
import torch
import torch.backends.cudnn as cudnn
import torch.backends.mps
from torch.backends import cuda
cudnn.benchmark = True
print(torch.backends.cudnn.benchmark, cudnn.is_available(), cudnn is torch.backends.cudnn)
cudnn.deterministic = True
print(torch.backends.cudnn.deterministic)
print(torch.backends.mps.is_available(), cuda.is_built())
