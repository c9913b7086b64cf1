# print(optimizer) as PyTorch 1.13 once param_groups is read or a scheduler ran: the
# groups' keys sorted, extra keys (initial_lr, a script's own) included.
import torch
w = torch.nn.Parameter(torch.ones(2))
v = torch.nn.Parameter(torch.ones(3))
opt = torch.optim.SGD([{'params': [w]}, {'params': [v], 'lr': 0.5, 'momentum': 0.9}], lr=0.1)
print(opt)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
print(opt)
opt.param_groups[0]['note'] = 'hello'
opt.param_groups[1]['lr'] = 2
print(opt)
a = torch.optim.Adam([w], lr=1e-3, betas=(0.8, 0.99))
sched2 = torch.optim.lr_scheduler.ExponentialLR(a, gamma=0.9)
a.step()
sched2.step()
print(a)
b = torch.optim.AdamW([v])
b.param_groups[0]['initial_lr'] = 0.5
print(b)
