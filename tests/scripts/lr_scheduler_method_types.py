# OneCycleLR.anneal_func is the bound method self._annealing_cos (or _linear) and
# CyclicLR._scale_fn_ref a weakref.WeakMethod of its scale method, as PyTorch 1.13
# keeps them (their types and reprs, addresses masked), and both still compute.
import re

import torch


def masked(x):
    return re.sub(r"0x[0-9a-f]+", "0x...", repr(x))


p = [torch.nn.Parameter(torch.zeros(1))]
opt = torch.optim.SGD(p, lr=0.1, momentum=0.9)
for strategy in ("cos", "linear"):
    s = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=10, anneal_strategy=strategy)
    print(type(s.anneal_func), masked(s.anneal_func))
    print(s.anneal_func(1.0, 0.0, 0.25), s.anneal_func.__name__, s.anneal_func.__self__ is s)
    lrs = []
    for _ in range(5):
        opt.step()
        s.step()
        lrs.append(s.get_last_lr()[0])
    print(lrs)
    print(masked(s.state_dict()["anneal_func"]))
print(torch.optim.lr_scheduler.OneCycleLR._annealing_linear(None, 0.0, 4.0, 0.5))

for mode in ("triangular", "triangular2", "exp_range"):
    opt = torch.optim.SGD(p, lr=0.1, momentum=0.9)
    c = torch.optim.lr_scheduler.CyclicLR(opt, 0.1, 1.0, step_size_up=2, mode=mode, gamma=0.9)
    ref = c._scale_fn_ref
    print(type(ref), masked(ref), type(ref()), ref().__name__, c.scale_fn(3.0))
    for _ in range(5):
        opt.step()
        c.step()
    print(c.get_last_lr())
c = torch.optim.lr_scheduler.CyclicLR(opt, 0.1, 1.0, scale_fn=lambda x: 0.5)
print(c._scale_fn_ref, c.scale_fn(1.0))
print(hasattr(torch.optim.lr_scheduler, "WeakMethod"), hasattr(torch.optim.lr_scheduler, "_annealing_cos"))
