# PyTorch's lr_scheduler warnings are placed in its own torch/optim/lr_scheduler.py (the line
# 1.13 warns at), so the default filter shows each once per run however many user lines
# trigger it (nnscope's file name is the relative torch/optim/lr_scheduler.py).
import warnings
import torch
import torch.nn as nn
from torch.optim import SGD
from torch.optim.lr_scheduler import StepLR, ExponentialLR, CyclicLR, CosineAnnealingWarmRestarts, LambdaLR, OneCycleLR

model = nn.Linear(2, 1)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('default')
    for epoch in range(3):
        opt = SGD(model.parameters(), lr=0.1)
        s = StepLR(opt, step_size=2, gamma=0.5)
        s.step()          # before optimizer.step(): PyTorch warns once per run
        opt.step()
        s.get_lr()
    s.get_lr()
    for cls, kw in [(ExponentialLR, dict(gamma=0.9)), (CyclicLR, dict(base_lr=0.01, max_lr=0.1)),
                    (CosineAnnealingWarmRestarts, dict(T_0=2)), (LambdaLR, dict(lr_lambda=lambda e: 0.9)),
                    (OneCycleLR, dict(max_lr=0.1, total_steps=10))]:
        for i in range(2):
            o = SGD(model.parameters(), lr=0.1, momentum=0.9)
            sc = cls(o, **kw)
            sc.step()
            sc.get_lr()
    s.step(5)
    s.step(6)
for x in w:
    print(x.category.__name__, x.filename.endswith('torch/optim/lr_scheduler.py'), x.lineno, str(x.message)[:40])
