# torch.amp: the autocast context manager (torch.amp.autocast_mode).
import torch.amp.autocast_mode as autocast_mode
from torch.amp.autocast_mode import autocast
