# torch.optim.swa_utils (AveragedModel, SWALR, update_bn) and a user subclass of _LRScheduler.
import torch, math
from torch.optim.lr_scheduler import _LRScheduler
torch.manual_seed(0)
class Warm(_LRScheduler):
    def __init__(self, optimizer, warmup, last_epoch=-1):
        self.warmup = warmup
        super().__init__(optimizer, last_epoch)
    def get_lr(self):
        if not self._get_lr_called_within_step:
            print('outside step')
        step = self._step_count
        return [base * min(1.0, step / self.warmup) for base in self.base_lrs]
m = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
s = Warm(opt, 4)
for i in range(6):
    opt.step(); s.step()
    print(s.get_last_lr(), opt.param_groups[0]['lr'], s.last_epoch, s._step_count)
from torch.optim.swa_utils import AveragedModel, SWALR, update_bn
swa_model = AveragedModel(m)
sw = SWALR(opt, swa_lr=0.05, anneal_epochs=3)
for i in range(5):
    opt.zero_grad()
    m(torch.randn(4, 2)).pow(2).mean().backward()
    opt.step()
    swa_model.update_parameters(m)
    sw.step()
    print(opt.param_groups[0]['lr'], swa_model.n_averaged)
print(swa_model.module.weight, swa_model)
print(list(swa_model.state_dict().keys()))
net = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4))
loader = [torch.randn(5, 3) for _ in range(3)]
update_bn(loader, net)
print(net[1].running_mean, net[1].running_var, net[1].momentum, net[1].num_batches_tracked)
sw2 = SWALR(torch.optim.SGD(m.parameters(), lr=1.0), swa_lr=[0.2], anneal_epochs=2, anneal_strategy='linear')
for i in range(3):
    sw2.optimizer.step()
    sw2.step()
    print(sw2.get_last_lr())
ema = AveragedModel(m, avg_fn=lambda avg, new, n: 0.9 * avg + 0.1 * new, use_buffers=True)
for i in range(3):
    with torch.no_grad():
        m.weight.add_(1.0)
    ema.update_parameters(m)
print(ema.module.weight, ema.n_averaged)
for bad in [lambda: SWALR(opt, swa_lr=0.1, anneal_strategy='exp'), lambda: SWALR(opt, swa_lr=0.1, anneal_epochs=-1),
            lambda: SWALR(opt, swa_lr=[0.1, 0.2])]:
    try:
        bad()
    except ValueError as e:
        print(e)
