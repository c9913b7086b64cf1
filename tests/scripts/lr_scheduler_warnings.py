# The warnings of torch.optim.lr_scheduler, recorded (their text and category; both place them in
# lr_scheduler.py, see lr_scheduler_warn_once.py).
import warnings
import torch
import torch.nn as nn
from torch.optim import SGD, Adam
from torch.optim.lr_scheduler import StepLR, ExponentialLR, CyclicLR, OneCycleLR, CosineAnnealingWarmRestarts, LambdaLR

model = nn.Linear(2, 1)


def recorded(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        fn()
    for x in w:
        print(x.category.__name__, str(x.message)[:90])
    print(len(w), 'warning(s)')


opt = SGD(model.parameters(), lr=0.1)
s = StepLR(opt, step_size=2, gamma=0.5)
recorded(lambda: s.step())            # before any optimizer.step()
recorded(lambda: (opt.step(), s.step()))
opt2 = Adam(model.parameters(), lr=0.1)
e = ExponentialLR(opt2, gamma=0.9)
recorded(lambda: (opt2.step(), e.step(), opt2.step(), e.step()))
opt3 = SGD(model.parameters(), lr=0.1)
opt3.step()
e3 = ExponentialLR(opt3, gamma=0.9)   # a new scheduler counts the optimizer's steps from here
recorded(lambda: e3.step())
recorded(lambda: print(s.get_lr()))   # outside step()
recorded(lambda: print(s.get_last_lr()))
recorded(lambda: s.step(4))           # the epoch argument
print(s.last_epoch, s.get_last_lr())
opt4 = SGD(model.parameters(), lr=0.1, momentum=0.9)
c = CyclicLR(opt4, base_lr=0.01, max_lr=0.1, step_size_up=2)
recorded(lambda: c.get_lr())
o = OneCycleLR(opt4, max_lr=0.01, total_steps=4)
recorded(lambda: o.get_lr())
w = CosineAnnealingWarmRestarts(opt4, T_0=2)
recorded(lambda: w.get_lr())
recorded(lambda: (opt4.step(), w.step(0.5)))  # its own step(epoch): no warning
opt5 = SGD(model.parameters(), lr=0.1)
l = LambdaLR(opt5, lambda ep: 0.5 ** ep)
with warnings.catch_warnings():
    warnings.simplefilter('error')
    try:
        l.step()
    except UserWarning as err:
        print('UserWarning raised:', str(err)[:60])
print(l.last_epoch, l._step_count, l.get_last_lr())
with warnings.catch_warnings():
    warnings.simplefilter('ignore')
    l.step()
print(l.last_epoch, l.get_last_lr())
