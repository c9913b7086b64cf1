# A warning PyTorch 1.13 raises from its own Python file is named by that file's
# absolute path, where Debian's python3-torch installs it, and shown with that
# file's source line at that place, as PyTorch prints it.
import warnings

import torch
import torch.nn.functional as F

p = [torch.nn.Parameter(torch.zeros(1))]
opt = torch.optim.SGD(p, lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, 1)
with warnings.catch_warnings(record=True) as ws:
    warnings.simplefilter("always")
    sched.step()
    F.upsample(torch.ones(1, 1, 2, 2), scale_factor=2)
    torch.nn.LSTM(2, 2, dropout=0.5)
    torch.meshgrid(torch.ones(2), torch.ones(3))
for w in ws:
    print(w.filename, w.lineno, w.category.__name__)
    shown = warnings.formatwarning(w.message, w.category, w.filename, w.lineno).splitlines()
    print(shown[0][:100])
    print(shown[-1])
