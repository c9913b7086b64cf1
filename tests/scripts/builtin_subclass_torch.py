# Subclasses of built-in types handed to torch, nn, json and copy: a dict
# subclass as a state_dict and as nn.ModuleDict's argument, a list subclass
# as torch.tensor's data and a size, json.dumps of a config dict, deep copies.
import copy
import json
from collections import OrderedDict

import torch
import torch.nn as nn


class Config(dict):
    def __getattr__(self, k):
        try:
            return self[k]
        except KeyError:
            raise AttributeError(k)

    def __setattr__(self, k, v):
        self[k] = v


cfg = Config(lr=0.1, epochs=3)
cfg.batch = 32
print(cfg, cfg.lr, cfg.batch)
print(json.dumps(cfg, sort_keys=True), json.dumps({'cfg': cfg, 'l': [cfg.epochs]}))
try:
    cfg.missing
except AttributeError as e:
    print('AttributeError', e)


class MyList(list):
    pass


print(torch.tensor(MyList([1.0, 2.0, 3.0])))
print(torch.zeros(MyList([2, 3])).shape, torch.ones(2, 3).view(MyList([3, 2])).shape)
print(json.dumps(MyList([1, 'a'])))


class Count(int):
    pass


print(torch.arange(Count(4)), torch.zeros(Count(2)).shape, nn.Linear(Count(3), Count(1)))

torch.manual_seed(0)
model = nn.Linear(2, 1)


class StateDict(OrderedDict):
    pass


sd2 = StateDict((k, torch.ones_like(v)) for k, v in model.state_dict().items())
print(type(sd2).__name__, list(sd2.keys()))
print(model.load_state_dict(sd2))
print(model.weight, model.bias)
print(nn.ModuleDict(Config(a=nn.ReLU(), b=nn.Tanh())))
print(nn.Sequential(OrderedDict(StateDict(fc=nn.Linear(1, 1)))))

d = Config(x=[1])
d2 = copy.deepcopy(d)
d2['x'].append(2)
print(d, d2, type(d2).__name__)
l = MyList([1, [2]])
l2 = copy.copy(l)
l2.append(3)
print(l, l2, type(l2).__name__)


class Batch(dict):
    def to(self, device):
        return Batch({k: v.to(device) for k, v in self.items()})


b = Batch(x=torch.ones(2), y=torch.zeros(1)).to('cpu')
print(type(b).__name__, b['x'], sorted(b))
