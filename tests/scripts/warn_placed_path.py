# A warning PyTorch 1.13 raises from its own Python file is named by that file's
# absolute path, where Debian's python3-torch installs it (the source line that
# follows it when shown depends on the file being there, so it is not printed here).
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
    print(warnings.formatwarning(w.message, w.category, w.filename, w.lineno, line="").splitlines()[0][:100])
