import torch
from torch.optim.lr_scheduler import StepLR, MultiStepLR, ExponentialLR, CosineAnnealingLR, LambdaLR, LinearLR, OneCycleLR, ReduceLROnPlateau, ConstantLR, PolynomialLR, MultiplicativeLR
w = torch.nn.Parameter(torch.ones(3))
b = torch.nn.Parameter(torch.zeros(2))
def run(name, make, n=12, metric=None):
    opt = torch.optim.SGD([{'params': [w]}, {'params': [b], 'lr': 0.5}], lr=0.1, momentum=0.9)
    s = make(opt)
    out = []
    for e in range(n):
        opt.step()
        if metric: s.step(metric[e])
        else: s.step()
        out.append(s.get_last_lr() if hasattr(s, 'get_last_lr') else [g['lr'] for g in opt.param_groups])
    print(name)
    for o in out: print(' ', [repr(x) for x in o])
    sd = s.state_dict()
    print(' keys', list(sd.keys()))
    print(' groups', sorted(opt.param_groups[0].keys()))
run('StepLR', lambda o: StepLR(o, step_size=3, gamma=0.5))
run('MultiStepLR', lambda o: MultiStepLR(o, milestones=[2, 5, 5, 9], gamma=0.3))
run('ExponentialLR', lambda o: ExponentialLR(o, gamma=0.9))
run('CosineAnnealingLR', lambda o: CosineAnnealingLR(o, T_max=5, eta_min=0.001), n=16)
run('LambdaLR', lambda o: LambdaLR(o, lr_lambda=[lambda e: 0.95 ** e, lambda e: 1 / (e + 1)]))
run('MultiplicativeLR', lambda o: MultiplicativeLR(o, lr_lambda=lambda e: 0.97))
run('LinearLR', lambda o: LinearLR(o, start_factor=0.25, total_iters=4))
run('ConstantLR', lambda o: ConstantLR(o, factor=0.5, total_iters=3))
run('PolynomialLR', lambda o: PolynomialLR(o, total_iters=6, power=2.0))
run('OneCycleLR', lambda o: OneCycleLR(o, max_lr=[1.0, 2.0], total_steps=12))
run('OneCycleLR3', lambda o: OneCycleLR(o, max_lr=1.0, epochs=2, steps_per_epoch=6, three_phase=True, anneal_strategy='linear'))
run('Plateau', lambda o: ReduceLROnPlateau(o, patience=1, factor=0.5, cooldown=1), metric=[1.0, 0.9, 0.95, 0.95, 0.95, 0.8, 0.85, 0.85, 0.85, 0.85, 0.85, 0.85])
# Adam with OneCycle: betas cycle
opt = torch.optim.Adam([w], lr=0.01)
s = OneCycleLR(opt, max_lr=0.1, total_steps=5)
for i in range(4):
    opt.step(); s.step()
    print('adam', opt.param_groups[0]['betas'], s.get_last_lr())
# closed form via step(epoch)
opt = torch.optim.SGD([w], lr=0.1)
s = StepLR(opt, 2)
s.step(7)
print('closed', s.get_last_lr(), s.last_epoch)
# resume
sd = s.state_dict()
opt2 = torch.optim.SGD([w], lr=0.1)
s2 = StepLR(opt2, 2)
s2.load_state_dict(sd)
print('loaded', s2.last_epoch, s2.get_last_lr(), s2.base_lrs)
class Warm(torch.optim.lr_scheduler._LRScheduler):
    def __init__(self, optimizer, warm, last_epoch=-1):
        self.warm = warm
        super().__init__(optimizer, last_epoch)
    def get_lr(self):
        return [base * min(1.0, (self.last_epoch + 1) / self.warm) for base in self.base_lrs]
opt = torch.optim.SGD([w], lr=0.1)
s = Warm(opt, 4)
for i in range(5):
    opt.step(); s.step(); print('warm', s.get_last_lr())
print(type(s).__name__, isinstance(s, torch.optim.lr_scheduler._LRScheduler))
s = torch.optim.lr_scheduler.StepLR(opt, 1)
print(s.optimizer is opt)
# errors
for make in [lambda: StepLR(w, 2), lambda: LambdaLR(opt, [lambda e: 1.0, lambda e: 2.0]),
             lambda: LinearLR(opt, start_factor=2.0), lambda: OneCycleLR(opt, max_lr=0.1),
             lambda: OneCycleLR(opt, max_lr=0.1, total_steps=0), lambda: ReduceLROnPlateau(opt, factor=1.5),
             lambda: ReduceLROnPlateau(opt, mode='up'), lambda: StepLR(torch.optim.SGD([w], lr=0.1), 2, last_epoch=3)]:
    try:
        make()
    except Exception as e:
        print(type(e).__name__, e)
opt = torch.optim.SGD([w], lr=0.1)
s = OneCycleLR(opt, max_lr=0.1, total_steps=2)
try:
    for i in range(3):
        s.step()
except ValueError as e:
    print('ValueError', e)
