# The "lr_scheduler.step() before optimizer.step()" warning for every optimizer, as
# 1.13's scheduler wraps optimizer.step with a counter: the optimizers written in the
# language (RMSprop, Adagrad, Adadelta) and a user's subclass of Optimizer too.
import warnings
import torch
from torch.optim.lr_scheduler import StepLR, ExponentialLR


class PlainSGD(torch.optim.Optimizer):
    def __init__(self, params, lr=0.1):
        super().__init__(params, dict(lr=lr))

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group['params']:
                if p.grad is not None:
                    p.add_(p.grad, alpha=-group['lr'])


def run(make, good_order):
    w = torch.nn.Parameter(torch.ones(2))
    opt = make([w])
    sched = StepLR(opt, step_size=1, gamma=0.5)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        for _ in range(2):
            opt.zero_grad()
            (w * w).sum().backward()
            if good_order:
                opt.step()
                sched.step()
            else:
                sched.step()
                opt.step()
    print(type(opt).__name__, good_order, [str(c.message)[:45] for c in caught], opt._step_count,
          [round(g['lr'], 4) for g in opt.param_groups], w.detach())


for make in [lambda p: torch.optim.RMSprop(p, lr=0.1), lambda p: torch.optim.Adagrad(p, lr=0.1),
             lambda p: torch.optim.Adadelta(p, lr=1.0), lambda p: PlainSGD(p), lambda p: torch.optim.SGD(p, lr=0.1)]:
    run(make, True)
    run(make, False)
# a second scheduler on the same optimizer does not wrap step twice
w = torch.nn.Parameter(torch.ones(2))
opt = torch.optim.RMSprop([w], lr=0.1)
s1 = StepLR(opt, step_size=1)
s2 = ExponentialLR(opt, gamma=0.9)
opt.step()
print(opt._step_count)
