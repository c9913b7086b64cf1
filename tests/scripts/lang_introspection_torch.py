# Introspection the way model code uses it: a registry through __init_subclass__ keywords and
# class C(*bases, **kw), a decorator reading __code__, closures of forward hooks, weak
# references to a model and its parameters, writable defaults (checked against PyTorch 1.13).
import functools, inspect, weakref, types
import torch
import torch.nn as nn

MODELS = {}

class Registrable:
    def __init_subclass__(cls, /, key=None, **kw):
        super().__init_subclass__(**kw)
        if key:
            MODELS[key] = cls

def configurable(fn):
    names = fn.__code__.co_varnames[:fn.__code__.co_argcount]
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        bound = dict(zip(names, args))
        bound.update(kwargs)
        print('calling', fn.__qualname__, 'with', sorted(bound))
        return fn(*args, **kwargs)
    return wrapper

class MLP(nn.Module, Registrable, key='mlp'):
    def __init__(self, d_in, d_hidden=8, d_out=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, d_hidden), nn.ReLU(), nn.Linear(d_hidden, d_out))
    def forward(self, x):
        return self.net(x)

opts = {'key': 'tiny'}
class Tiny(*(nn.Module, Registrable), **opts):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 1)
    def forward(self, x):
        return self.fc(x)

torch.manual_seed(0)
model = MODELS['mlp'](3, d_out=1)
print(sorted(MODELS), inspect.signature(MLP.__init__))
@configurable
def make(d_in, d_out=1, *rest):
    return MODELS['mlp'](d_in, d_out=d_out)
print(make.__wrapped__.__code__.co_varnames, make(3).net[0].in_features)

activations = {}
def save_to(name):
    def hook(module, inp, out):
        activations[name] = out.detach()
    return hook
handles = [m.register_forward_hook(save_to(n)) for n, m in model.named_modules() if isinstance(m, nn.Linear)]
print([h.__closure__ is None for h in [save_to('x')]], save_to('x').__code__.co_freevars)
x = torch.randn(4, 3)
y = model(x)
print(sorted(activations), tuple(y.shape))

refs = weakref.WeakValueDictionary()
refs['model'] = model
r = weakref.ref(model.net[0].weight)
print(len(refs), r() is model.net[0].weight)
for h in handles: h.remove()
del model, y, handles
import gc; gc.collect()
print(len(refs), r())

def lr_at(step, base=0.1, *, warmup=10):
    return base * min(1.0, step / warmup)
lr_at.__defaults__ = (0.5,)
lr_at.__kwdefaults__ = {'warmup': 2}
print(lr_at(1), inspect.signature(lr_at))
print(inspect.getsource(lr_at).splitlines()[0])
Cls = types.new_class('Dyn', (Registrable,), {'key': 'dyn'})
print(sorted(MODELS))
