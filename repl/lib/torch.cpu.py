# torch.cpu as PyTorch 1.13 has it for scripts: its amp submodule.
import torch.cpu.amp as amp
