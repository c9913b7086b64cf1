# torch.optim.LBFGS: the closure protocol, with and without the strong-Wolfe line
# search, float32 and float64 models, state_dict/load_state_dict, and its errors.
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(32, 3)
y = (x[:, :1] * 2 - x[:, 1:2] + 0.5 * x[:, 2:]).tanh()


def train(dtype, line_search_fn, steps=3, **kw):
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(3, 6), nn.Tanh(), nn.Linear(6, 1)).to(dtype)
    opt = torch.optim.LBFGS(model.parameters(), line_search_fn=line_search_fn, **kw)
    xs, ys = x.to(dtype), y.to(dtype)
    calls = [0]

    def closure():
        calls[0] += 1
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(xs), ys)
        loss.backward()
        return loss

    for i in range(steps):
        loss = opt.step(closure)
        print(dtype, line_search_fn, i, loss.item(), calls[0])
    return model, opt


for dtype in (torch.float32, torch.float64):
    for ls in (None, 'strong_wolfe'):
        model, opt = train(dtype, ls, lr=0.7 if ls is None else 1.3, max_iter=10, history_size=4)
        print(model[0].weight.tolist())
        print(model[2].bias.tolist())
        st = opt.state_dict()['state'][0]
        print(sorted(st), st['func_evals'], st['n_iter'], st['t'], st['H_diag'], len(st['old_dirs']))

print('== defaults and repr')
model, opt = train(torch.float32, None, steps=2)
print(opt)
print(opt.param_groups[0]['max_eval'], opt.defaults['tolerance_grad'])

print('== Rosenbrock with the line search')
p = torch.tensor([-1.5, 2.0], requires_grad=True)
opt = torch.optim.LBFGS([p], lr=1, max_iter=50, line_search_fn='strong_wolfe')


def rosen():
    opt.zero_grad()
    f = (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2
    f.backward()
    return f


for i in range(3):
    print(i, opt.step(rosen).item(), p.tolist())

print('== state_dict round trip')
model, opt = train(torch.float64, 'strong_wolfe', steps=1, max_iter=5)
sd = opt.state_dict()
opt2 = torch.optim.LBFGS(model.parameters(), line_search_fn='strong_wolfe', max_iter=5)
opt2.load_state_dict(sd)
st2 = opt2.state_dict()['state'][0]
print(st2['n_iter'], st2['func_evals'], torch.equal(st2['d'], sd['state'][0]['d']))

print('== stops at once when the gradient is zero')
q = torch.zeros(3, requires_grad=True)
opt = torch.optim.LBFGS([q])


def flat():
    opt.zero_grad()
    loss = (q * 0).sum()
    loss.backward()
    return loss


print(opt.step(flat), opt.state[q]['func_evals'], opt.state[q]['n_iter'])

print('== errors')
w = torch.ones(2, requires_grad=True)


def quadratic():
    w.grad = None
    loss = (w ** 2).sum()
    loss.backward()
    return loss


for make in (lambda: torch.optim.LBFGS([{'params': [w]}, {'params': [torch.zeros(1, requires_grad=True)]}]),
             lambda: torch.optim.LBFGS([w], line_search_fn='armijo').step(quadratic)):
    try:
        make()
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, e)

print('== memory formats')
from torch.optim.lbfgs import LBFGS
print(LBFGS is torch.optim.LBFGS)
print(torch.contiguous_format, torch.preserve_format, torch.channels_last)
t = torch.arange(6.).reshape(2, 3).t()
c = t.clone(memory_format=torch.contiguous_format)
print(c, c.is_contiguous(), t.contiguous(memory_format=torch.contiguous_format).stride())
