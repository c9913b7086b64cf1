# A language class's own _load_from_state_dict / _save_to_state_dict (called by
# load_state_dict / state_dict as PyTorch calls them, super() doing the default work),
# _register_load_state_dict_pre_hook, and the defaults called by hand.
import torch
import torch.nn as nn

torch.manual_seed(0)

class Renamed(nn.Module):
    _version = 2
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)
        self.scale = nn.Parameter(torch.ones(2))

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict,
                              missing_keys, unexpected_keys, error_msgs):
        print('load', repr(prefix), local_metadata, strict, sorted(state_dict.keys()))
        version = local_metadata.get('version', None)
        if version is None or version < 2:
            old = prefix + 'old_scale'
            if old in state_dict:
                state_dict[prefix + 'scale'] = state_dict.pop(old)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict,
                                      missing_keys, unexpected_keys, error_msgs)
        print('after', missing_keys, unexpected_keys, error_msgs)

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        super()._save_to_state_dict(destination, prefix, keep_vars)
        destination[prefix + 'extra'] = torch.tensor(7.0)
        print('save', repr(prefix), keep_vars, list(destination.keys()))

class Outer(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = Renamed()
        self.head = nn.Linear(2, 1)

m = Outer()
sd = m.state_dict()
print(list(sd.keys()))
print(sd._metadata)
old = {'inner.lin.weight': torch.zeros(2, 2), 'inner.lin.bias': torch.zeros(2),
       'inner.old_scale': torch.full((2,), 3.0), 'head.weight': torch.zeros(1, 2), 'head.bias': torch.zeros(1)}
r = m.load_state_dict(old, strict=False)
print(r)
print(m.inner.scale)
try:
    m.load_state_dict(old)
except RuntimeError as e:
    print('RuntimeError', e)

class Hooked(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(1, 1)
        self._register_load_state_dict_pre_hook(self._hook)
    def _hook(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs):
        print('hook', repr(prefix), local_metadata, strict)
        if prefix + 'w' in state_dict:
            state_dict[prefix + 'fc.weight'] = state_dict.pop(prefix + 'w')

h = Hooked()
print(h.load_state_dict({'w': torch.ones(1, 1), 'fc.bias': torch.zeros(1)}))
print(h.fc.weight)

def hook_with_module(module, state_dict, prefix, *args):
    print('with_module', type(module).__name__, repr(prefix), len(args))
h2 = nn.Sequential(nn.Linear(1, 1))
h2[0]._register_load_state_dict_pre_hook(hook_with_module, with_module=True)
print(h2.load_state_dict(h2.state_dict()))

class Child(nn.Linear):
    def _load_from_state_dict(self, *args, **kwargs):
        print('child load', args[1])
        return super()._load_from_state_dict(*args, **kwargs)
seq = nn.Sequential(Child(2, 2), nn.ReLU())
print(seq.load_state_dict(seq.state_dict()))
# direct call
lin = nn.Linear(2, 2)
missing, unexpected, errs = [], [], []
lin._load_from_state_dict({'p.weight': torch.ones(2, 2), 'p.zzz': torch.ones(1)}, 'p.', {}, True, missing, unexpected, errs)
print(lin.weight, missing, unexpected, errs)
d = {}
lin._save_to_state_dict(d, 'q.', False)
print(list(d.keys()))


# version upgrades, error_msgs, an override raising, a _save_to_state_dict override
# BatchNorm-style version upgrade in a user class; errors inside override; override raising
class Legacy(nn.Module):
    _version = 2
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.zeros(3))
        self.register_buffer('count', torch.tensor(0))
    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs):
        version = local_metadata.get("version", None)
        key = prefix + 'count'
        if (version is None or version < 2) and key not in state_dict:
            state_dict[key] = torch.tensor(5)
        if prefix + 'bad' in state_dict:
            error_msgs.append('bad key for ' + prefix)
        super(Legacy, self)._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)

net = nn.Sequential(nn.Linear(3, 3), Legacy())
sd = net.state_dict()
print(sd._metadata)
del sd['1.count']
try:
    net.load_state_dict(sd)
except RuntimeError as e:
    print(e)
sd._metadata['1']['version'] = 1
print(net.load_state_dict(sd), net[1].count)
plain = {k: v for k, v in net.state_dict().items() if k != '1.count'}
print(net.load_state_dict(plain))
plain['1.bad'] = torch.ones(1)
try:
    net.load_state_dict(plain)
except RuntimeError as e:
    print(e)
try:
    net.load_state_dict(plain, strict=False)
except RuntimeError as e:
    print(e)

class Raises(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.zeros(2, 2))
    def _load_from_state_dict(self, *args):
        raise ValueError('nope')
r = Raises()
before = r.weight.clone()
try:
    r.load_state_dict({'weight': torch.ones(2, 2), 'bias': torch.ones(2)})
except ValueError as e:
    print('ValueError', e)
print(torch.equal(before, r.weight))

class Saver(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(1, 1)
        self.register_buffer('b', torch.ones(1))
    def _save_to_state_dict(self, destination, prefix, keep_vars):
        for name, buf in self._buffers.items():
            destination[prefix + name + '_renamed'] = buf
torch.manual_seed(0)
s = Saver()
print(s.state_dict())
print(nn.Sequential(s).state_dict().keys())
