# torch.optim's Adamax, NAdam, RAdam, Rprop and ASGD: 12 steps each, the parameters' bits
# digested, state_dict keys, repr, load_state_dict, closures and errors, against 1.13.
import torch, torch.nn as nn
import hashlib
def dig(model):
    return hashlib.md5(' '.join(float(a).hex() for p in model.parameters() for a in p.detach().reshape(-1).tolist()).encode()).hexdigest()[:10]
for name, make in [('Adamax', lambda p: torch.optim.Adamax(p, lr=0.01)),
                   ('Adamax wd max', lambda p: torch.optim.Adamax(p, lr=0.01, weight_decay=0.1, maximize=True)),
                   ('NAdam', lambda p: torch.optim.NAdam(p, lr=0.01)),
                   ('NAdam wd', lambda p: torch.optim.NAdam(p, lr=0.01, weight_decay=0.01, momentum_decay=0.01)),
                   ('RAdam', lambda p: torch.optim.RAdam(p, lr=0.01)),
                   ('RAdam wd', lambda p: torch.optim.RAdam(p, lr=0.01, weight_decay=0.1, betas=(0.8, 0.9))),
                   ('Rprop', lambda p: torch.optim.Rprop(p, lr=0.01)),
                   ('Rprop max', lambda p: torch.optim.Rprop(p, lr=0.05, etas=(0.3, 1.5), step_sizes=(1e-3, 1), maximize=True)),
                   ('ASGD', lambda p: torch.optim.ASGD(p, lr=0.01)),
                   ('ASGD t0', lambda p: torch.optim.ASGD(p, lr=0.05, t0=3, lambd=0.01, weight_decay=0.01))]:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 2))
    opt = make(model.parameters())
    x, y = torch.randn(16, 5), torch.randn(16, 2)
    for i in range(12):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
    print(f'{name:14s} {loss.item():.6f} {dig(model)}')
    sd = opt.state_dict()
    print(sorted(sd['state'][0].keys()), {k: v for k, v in sd['param_groups'][0].items() if k != 'params'})
print(opt)
print(type(opt), torch.optim.NAdam.__module__)
opt2 = torch.optim.ASGD(model.parameters())
opt2.load_state_dict(sd)
print(opt2.state[model[0].weight]['eta'], opt2.state[model[0].weight]['mu'])
def closure():
    opt3.zero_grad()
    l = nn.functional.mse_loss(model(x), y)
    l.backward()
    return l
opt3 = torch.optim.RAdam(model.parameters())
print(opt3.step(closure))
for bad in [lambda: torch.optim.Adamax(model.parameters(), lr=-1), lambda: torch.optim.NAdam(model.parameters(), betas=(1.0, 0.9)),
            lambda: torch.optim.Rprop(model.parameters(), etas=(1.5, 1.2)), lambda: torch.optim.ASGD(model.parameters(), weight_decay=-1),
            lambda: torch.optim.NAdam(model.parameters(), momentum_decay=-1), lambda: torch.optim.RAdam(model.parameters(), eps=-1)]:
    try:
        bad()
    except ValueError as e:
        print(e)
