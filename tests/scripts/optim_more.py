# RMSprop, Adagrad and Adadelta (trajectories, state_dict round trips, reprs,
# errors) and torch.optim.Optimizer subclassed in the script.
import torch
from torch import nn
from torch.optim.optimizer import Optimizer, required

torch.manual_seed(0)


class Model(nn.Module):
    # elementwise losses only, so that the gradients are PyTorch's bit for bit
    # and the trajectories test the optimizers' arithmetic
    def __init__(self):
        super().__init__()
        self.a = nn.Parameter(torch.randn(5, 7))
        self.b = nn.Parameter(torch.randn(5))
        self.c = nn.Parameter(torch.randn(3))

    def forward(self, t):
        return ((self.a - t) ** 2).sum() + (self.b * self.b * self.b).sum() + (self.c.sin() * 3).sum()


target = torch.randn(5, 7)


def run(make, steps=15, dtype=torch.float32):
    torch.manual_seed(1)
    model = Model().to(dtype)
    opt = make(model)
    for _ in range(steps):
        opt.zero_grad()
        loss = model(target.to(dtype))
        loss.backward()
        opt.step()
    return model, opt


def show(model):
    for name, p in model.named_parameters():
        print(name, [float(v) for v in p.detach().flatten()[:4]], float(p.detach().sum()))


cases = [
    ('RMSprop', lambda m: torch.optim.RMSprop(m.parameters())),
    ('RMSprop momentum', lambda m: torch.optim.RMSprop(m.parameters(), lr=0.01, momentum=0.9)),
    ('RMSprop centered', lambda m: torch.optim.RMSprop(m.parameters(), lr=0.005, alpha=0.9, centered=True)),
    ('RMSprop all', lambda m: torch.optim.RMSprop(m.parameters(), lr=0.003, alpha=0.95, eps=1e-6, weight_decay=0.01,
                                                  momentum=0.5, centered=True, maximize=True)),
    ('Adagrad', lambda m: torch.optim.Adagrad(m.parameters())),
    ('Adagrad all', lambda m: torch.optim.Adagrad(m.parameters(), lr=0.05, lr_decay=0.01, weight_decay=0.1,
                                                  initial_accumulator_value=0.1, eps=1e-8)),
    ('Adagrad maximize', lambda m: torch.optim.Adagrad(m.parameters(), lr=0.02, maximize=True)),
    ('Adadelta', lambda m: torch.optim.Adadelta(m.parameters())),
    ('Adadelta all', lambda m: torch.optim.Adadelta(m.parameters(), lr=0.5, rho=0.8, eps=1e-5, weight_decay=0.05,
                                                    maximize=True)),
    ('groups', lambda m: torch.optim.RMSprop([{'params': [m.a, m.b], 'lr': 0.02, 'momentum': 0.3},
                                              {'params': [m.c]}], lr=0.001)),
]
for name, make in cases:
    print('==', name)
    model, opt = run(make)
    show(model)
print('== float64')
show(run(lambda m: torch.optim.RMSprop(m.parameters(), momentum=0.9, centered=True), dtype=torch.float64)[0])
show(run(lambda m: torch.optim.Adagrad(m.parameters(), lr_decay=0.1), dtype=torch.float64)[0])
show(run(lambda m: torch.optim.Adadelta(m.parameters()), dtype=torch.float64)[0])

print('== reprs')
model, opt = run(lambda m: torch.optim.RMSprop(m.parameters(), lr=0.01, momentum=0.9, centered=True), steps=2)
print(opt)
print(opt.defaults)
print(type(opt).__name__, isinstance(opt, Optimizer), isinstance(opt, torch.optim.Optimizer))
print(isinstance(torch.optim.SGD(model.parameters(), lr=0.1), torch.optim.Optimizer))
print(torch.optim.Adagrad(model.parameters(), lr=1))
print(torch.optim.Adadelta(model.parameters()))
print(required)

print('== state')
for make in [lambda m: torch.optim.RMSprop(m.parameters(), momentum=0.9, centered=True),
             lambda m: torch.optim.Adagrad(m.parameters(), lr_decay=0.01),
             lambda m: torch.optim.Adadelta(m.parameters())]:
    model, opt = run(make, steps=3)
    st = opt.state[model.c]
    print(list(st.keys()), st['step'])
    sd = opt.state_dict()
    print(sorted(sd.keys()), list(sd['state'].keys()), sd['param_groups'])
    print(sd['state'][2])
    # the round trip: a fresh optimizer loaded from the state continues the same trajectory
    torch.save(sd, 'optim_more.tmp')
    loaded = torch.load('optim_more.tmp')
    model2 = Model()
    model2.load_state_dict(model.state_dict())
    opt2 = make(model2)
    opt2.load_state_dict(loaded)
    for m, o in [(model, opt), (model2, opt2)]:
        for _ in range(3):
            o.zero_grad()
            m(target).backward()
            o.step()
    print(torch.equal(model.a, model2.a), torch.equal(model.c, model2.c))
    print(opt2.state_dict()['state'][2]['step'], opt.state_dict()['state'][2]['step'])

print('== zero_grad and param groups')
w = torch.ones(3, requires_grad=True)
opt = torch.optim.RMSprop([w], lr=0.1)
(w * 2).sum().backward()
opt.zero_grad(set_to_none=False)
print(w.grad)
opt.zero_grad(set_to_none=True)  # nnscope's default, as PyTorch 2's (1.13 zeroes)
print(w.grad)
b = torch.zeros(2, requires_grad=True)
opt.add_param_group({'params': b, 'lr': 0.5, 'note': 'extra'})
print(len(opt.param_groups), opt.param_groups[1]['note'], opt.param_groups[1]['alpha'])
print(opt.state_dict()['param_groups'][1])

print('== errors')
def err(f):
    try:
        f()
    except Exception as e:
        print(type(e).__name__ + ':', e)

p = [torch.zeros(2, requires_grad=True)]
err(lambda: torch.optim.RMSprop(p, lr=-1))
err(lambda: torch.optim.RMSprop(p, alpha=-0.5))
err(lambda: torch.optim.RMSprop(p, momentum=-1))
err(lambda: torch.optim.RMSprop(p, eps=-1e-8))
err(lambda: torch.optim.Adagrad(p, lr_decay=-1))
err(lambda: torch.optim.Adagrad(p, initial_accumulator_value=-1))
err(lambda: torch.optim.Adagrad(p, weight_decay=-2))
err(lambda: torch.optim.Adadelta(p, rho=1.5))
err(lambda: torch.optim.Adadelta(p, lr=-0.1))
err(lambda: torch.optim.RMSprop([]))
err(lambda: torch.optim.RMSprop(torch.zeros(2)))
err(lambda: torch.optim.RMSprop([torch.zeros(2, requires_grad=True) * 2]))
kept = torch.zeros(2, requires_grad=True) * 2
kept.retain_grad()
print(kept.retains_grad, p[0].retains_grad, len(torch.optim.RMSprop([kept]).param_groups))
err(lambda: torch.optim.RMSprop([1.0]))
err(lambda: torch.optim.Adadelta([{'params': p}, {'params': p}]))
err(lambda: torch.optim.Adadelta([{'params': {p[0]}}]))
opt = torch.optim.RMSprop(p)
err(lambda: opt.load_state_dict({'state': {}, 'param_groups': []}))
err(lambda: opt.load_state_dict({'state': {}, 'param_groups': [{'params': [0, 1]}]}))
err(lambda: opt.add_param_group([p[0]]))
err(lambda: opt.add_param_group({'lr': 1}))
err(lambda: Optimizer(p, {}).step(None))

print('== a script\'s own optimizer')


class MySGD(Optimizer):
    def __init__(self, params, lr=required, momentum=0.0):
        if lr is not required and lr < 0.0:
            raise ValueError('Invalid learning rate: {}'.format(lr))
        super().__init__(params, dict(lr=lr, momentum=momentum))

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group['params']:
                if p.grad is None:
                    continue
                d = p.grad
                if group['momentum'] != 0:
                    state = self.state[p]
                    if 'buf' not in state:
                        state['buf'] = d.clone()
                    else:
                        state['buf'].mul_(group['momentum']).add_(d)
                    d = state['buf']
                p.add_(d, alpha=-group['lr'])
        return loss


model, opt = run(lambda m: MySGD(m.parameters(), lr=0.1, momentum=0.9), steps=5)
show(model)
print(opt)
print(list(opt.state_dict()['state'].keys()))
model2, opt2 = run(lambda m: torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9, dampening=0), steps=5)
print(torch.equal(model.a, model2.a))
err(lambda: MySGD(p))
err(lambda: MySGD(p, lr=-1))
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
for _ in range(4):
    opt.step()
    sched.step()
    print(sched.get_last_lr(), opt.param_groups[0]['lr'])


def closure():
    opt.zero_grad()
    loss = model(target)
    loss.backward()
    return loss


print(round(float(opt.step(closure)), 6))
opt = torch.optim.Adagrad(model.parameters())
print(round(float(opt.step(closure)), 6))
