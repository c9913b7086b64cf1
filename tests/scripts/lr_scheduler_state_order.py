# Every scheduler's state_dict() lists its keys in PyTorch 1.13's order with its values
# after three steps (the function-valued entries named only); MultiStepLR's milestones
# are a collections.Counter, kept by torch.save / torch.load and load_state_dict.
import io
import torch
from torch import nn, optim
from torch.optim import lr_scheduler as L

def opt():
    return optim.SGD(nn.Linear(1, 1).parameters(), lr=0.1, momentum=0.9)

def show(name, s):
    o = s.optimizer if hasattr(s, 'optimizer') else None
    for i in range(3):
        if o is not None:
            o.step()
        if name == 'ReduceLROnPlateau':
            s.step(1.0)
        else:
            s.step()
    sd = s.state_dict()
    print(name, list(sd.keys()))
    for k, v in sd.items():
        if k in ('lr_lambdas', 'anneal_func', '_scale_fn_ref', '_schedulers'):
            v = '(functions)'
        print('   ', k, v)

o = opt(); show('StepLR', L.StepLR(o, 3))
o = opt(); show('MultiStepLR', L.MultiStepLR(o, [2, 4]))
o = opt(); show('ExponentialLR', L.ExponentialLR(o, 0.9))
o = opt(); show('CosineAnnealingLR', L.CosineAnnealingLR(o, 10))
o = opt(); show('ReduceLROnPlateau', L.ReduceLROnPlateau(o))
o = opt(); show('OneCycleLR', L.OneCycleLR(o, 1.0, total_steps=10))
o = opt(); show('CyclicLR', L.CyclicLR(o, 0.01, 0.1))
o = opt(); show('LambdaLR', L.LambdaLR(o, lambda e: 0.9 ** e))
o = opt(); show('MultiplicativeLR', L.MultiplicativeLR(o, lambda e: 0.9))
o = opt(); show('LinearLR', L.LinearLR(o))
o = opt(); show('ConstantLR', L.ConstantLR(o))
o = opt(); show('SequentialLR', L.SequentialLR(o, [L.ConstantLR(o), L.ExponentialLR(o, 0.9)], milestones=[2]))
o = opt(); show('ChainedScheduler', L.ChainedScheduler([L.ConstantLR(o), L.ExponentialLR(o, 0.9)]))
o = opt(); show('CosineAnnealingWarmRestarts', L.CosineAnnealingWarmRestarts(o, 5))
o = opt(); show('PolynomialLR', L.PolynomialLR(o))


o = opt()
m = L.MultiStepLR(o, [3, 1, 3], gamma=0.5)
print(m.milestones, type(m.milestones).__name__)
for i in range(4):
    o.step()
    m.step()
    print(m.get_last_lr())
buf = io.BytesIO()
torch.save(m.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf)
print(sd)
m2 = L.MultiStepLR(opt(), [9])
m2.load_state_dict(sd)
print(m2.milestones, m2.last_epoch)
with open('lr_scheduler_state_order.tmp', 'wb') as f:
    f.write(buf.getvalue())
