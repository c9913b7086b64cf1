# Extra keys in param groups and unknown state keys, for SGD and Adam (core's
# optimizers) as PyTorch 1.13 keeps them.
import torch

w = torch.ones(3, requires_grad=True)
b = torch.zeros(2, requires_grad=True)
c = torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
opt.add_param_group({'params': b, 'lr': 0.5, 'name': 'bias', 'freeze_after': 3})
print(opt.param_groups[1]['name'], opt.param_groups[1]['freeze_after'], opt.param_groups[1]['momentum'])
print(list(opt.param_groups[1].keys()))
print(opt)
print(opt.state_dict()['param_groups'])
opt2 = torch.optim.Adam([{'params': [w], 'tag': 'main'}, {'params': [b, c], 'lr': 0.01}], lr=0.001)
print([sorted(g.keys()) for g in opt2.param_groups])
print(opt2)
(w.sum() + b.sum() + c.sum()).backward()
opt2.step()
sd = opt2.state_dict()
sd['state'][0]['my_counter'] = 7
sd['state'][9] = {'orphan': 1}
opt3 = torch.optim.Adam([{'params': [w], 'tag': 'main'}, {'params': [b, c], 'lr': 0.01}], lr=0.001)
opt3.load_state_dict(sd)
# accepted (nnscope leaves the unknown entries out; PyTorch keeps them)
print(opt3.param_groups[0]['tag'], 'exp_avg' in opt3.state_dict()['state'][0])
print(opt3.state_dict()['state'][0]['step'])
