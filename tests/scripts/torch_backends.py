# torch.backends of a CPU-only build: the device checks pasted tutorials start with (repl/mod_torch_backends.c).
import torch
print(torch.backends.mps.is_available(), torch.backends.cudnn.is_available(), torch.backends.cudnn.enabled)
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False
print(torch.backends.cudnn.deterministic, torch.backends.mps.is_built())
import torch.backends
