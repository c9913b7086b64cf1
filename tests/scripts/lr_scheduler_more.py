# CyclicLR, CosineAnnealingWarmRestarts, SequentialLR and ChainedScheduler:
# PyTorch's learning rates step for step, state_dict round trips, errors.
import torch
from torch.optim import lr_scheduler as S

w = torch.zeros(2, requires_grad=True)
b = torch.zeros(1, requires_grad=True)


def sgd(lr=0.1, **kw):
    return torch.optim.SGD([{'params': [w]}, {'params': [b], 'lr': lr * 2}], lr=lr, **kw)


def trace(opt, sched, n, *keys):
    for _ in range(n):
        opt.step()
        sched.step()
        print(sched.get_last_lr(), *[[g[k] for g in opt.param_groups] for k in keys])


def err(f):
    try:
        f()
    except Exception as e:
        print(type(e).__name__ + ':', e)


print('== CyclicLR')
opt = sgd(momentum=0.9)
s = S.CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=3)
print(s.get_last_lr(), [g['momentum'] for g in opt.param_groups])
trace(opt, s, 8, 'momentum')
opt = sgd(momentum=0.5)
s = S.CyclicLR(opt, base_lr=[0.001, 0.002], max_lr=0.05, step_size_up=2, step_size_down=3, mode='triangular2')
trace(opt, s, 12)
opt = sgd(momentum=0.5)
s = S.CyclicLR(opt, 0.001, 0.01, step_size_up=4, mode='exp_range', gamma=0.9, base_momentum=0.7, max_momentum=0.95)
trace(opt, s, 9, 'momentum')
opt = torch.optim.Adam([w], lr=0.1)
s = S.CyclicLR(opt, 0.001, 0.01, step_size_up=2, cycle_momentum=False, scale_fn=lambda x: 0.5 ** x,
               scale_mode='iterations')
trace(opt, s, 5)
print(sorted(k for k in s.state_dict().keys()))
err(lambda: S.CyclicLR(torch.optim.Adam([w]), 0.001, 0.01))
err(lambda: S.CyclicLR(sgd(momentum=0.9), 0.001, 0.01, mode='sine'))
err(lambda: S.CyclicLR(sgd(momentum=0.9), [0.001], 0.01))
err(lambda: S.CyclicLR(3, 0.001, 0.01))

print('== CosineAnnealingWarmRestarts')
opt = sgd()
s = S.CosineAnnealingWarmRestarts(opt, T_0=3)
trace(opt, s, 8)
opt = sgd()
s = S.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2, eta_min=0.001)
trace(opt, s, 10)
print(s.T_i, s.T_cur, s.last_epoch)
for e in [0.5, 1.25, 7, 13.5, 3]:
    s.step(e)
    print(e, s.get_last_lr(), s.T_i, s.T_cur, s.last_epoch)
sd = s.state_dict()
print(sorted(sd.keys()), sd['T_i'], sd['T_cur'])
err(lambda: S.CosineAnnealingWarmRestarts(sgd(), T_0=0))
err(lambda: S.CosineAnnealingWarmRestarts(sgd(), T_0=2.0))
err(lambda: S.CosineAnnealingWarmRestarts(sgd(), T_0=2, T_mult=0))
err(lambda: s.step(-1))

print('== SequentialLR')
opt = sgd()
s1 = S.ConstantLR(opt, factor=0.1, total_iters=2)
s2 = S.ExponentialLR(opt, gamma=0.9)
s = S.SequentialLR(opt, schedulers=[s1, s2], milestones=[2])
print(s.get_last_lr())
trace(opt, s, 6)
opt = sgd()
warm = S.LinearLR(opt, start_factor=0.25, total_iters=3)
cos = S.CosineAnnealingLR(opt, T_max=5)
step = S.StepLR(opt, step_size=2, gamma=0.5)
s = S.SequentialLR(opt, [warm, cos, step], milestones=[3, 6])
trace(opt, s, 10)
sd = s.state_dict()
print(sorted(sd.keys()), sd['last_epoch'], sd['_milestones'], len(sd['_schedulers']))
print(sorted(sd['_schedulers'][1].keys()))
opt2 = sgd()
t = S.SequentialLR(opt2, [S.LinearLR(opt2, start_factor=0.25, total_iters=3), S.CosineAnnealingLR(opt2, T_max=5),
                          S.StepLR(opt2, step_size=2, gamma=0.5)], milestones=[3, 6])
t.load_state_dict(sd)
print(t.last_epoch, t._schedulers[2].last_epoch, t.get_last_lr())
err(lambda: S.SequentialLR(opt, [s1, s2], milestones=[1, 2]))
err(lambda: S.SequentialLR(sgd(), [s1, s2], milestones=[1]))

print('== ChainedScheduler')
opt = sgd()
s = S.ChainedScheduler([S.ConstantLR(opt, factor=0.1, total_iters=2), S.ExponentialLR(opt, gamma=0.9)])
print(s.get_last_lr())
trace(opt, s, 5)
sd = s.state_dict()
print(sorted(sd.keys()), [sorted(x.keys()) for x in sd['_schedulers']])
opt = sgd()
c = S.ChainedScheduler([S.ConstantLR(opt, factor=0.1, total_iters=2), S.ExponentialLR(opt, gamma=0.9)])
c.load_state_dict(sd)
print(c._schedulers[1].last_epoch, c.get_last_lr())
err(lambda: S.ChainedScheduler([S.ExponentialLR(sgd(), gamma=0.9), S.ExponentialLR(sgd(), gamma=0.9)]))

print('== with RMSprop')
opt = torch.optim.RMSprop([w, b], lr=0.01, momentum=0.9)
s = S.CyclicLR(opt, 0.001, 0.01, step_size_up=2)
trace(opt, s, 4, 'momentum')
print(isinstance(s, S._LRScheduler), type(s).__name__)
