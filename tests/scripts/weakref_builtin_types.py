# Weak references to functions, bound methods, classes, tensors, nn modules, sets
# and generators die with their object, as CPython's do (checked against PyTorch 1.13).
import gc
import weakref

import torch
import torch.nn as nn


def died(name):
    return lambda r: print(name, 'died')


def fn():
    return 1


r_fn = weakref.ref(fn, died('function'))
print(r_fn() is fn, weakref.getweakrefcount(fn))
del fn
print(r_fn())

t = torch.ones(3)
r_t = weakref.ref(t, died('tensor'))
print(r_t() is t, r_t().sum().item())
del t
print(r_t())

m = nn.Linear(2, 2)
r_m = weakref.ref(m, died('module'))
print(type(r_m()).__name__)
del m
print(r_m())


class Box:
    def get(self):
        return 2


C = type('C', (Box,), {})
r_c = weakref.ref(C, died('class'))
print(r_c() is C)
del C
gc.collect()
print(r_c())

s = {1, 2}
r_s = weakref.ref(s, died('set'))
del s
print(r_s())

# the module's hooks idiom: a weak reference back to the module breaks no cycle
net = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
cache = weakref.WeakValueDictionary()
cache['net'] = net
layers = weakref.WeakKeyDictionary()
layers[net[0]] = 'first'
seen = weakref.WeakSet([net[0], net[1]])
fin = weakref.finalize(net, print, 'net finalized')
print(len(cache), len(layers), len(seen), fin.alive)
del net
print(len(cache), len(layers), len(seen), fin.alive)

params = {}
p = torch.zeros(2, requires_grad=True)
params['p'] = weakref.ref(p)
print(params['p']() is p)
del p
print(params['p']())

b = Box()
wm = weakref.WeakMethod(b.get)
print(wm()())
del b
print(wm())

try:
    weakref.ref(3)
except TypeError as e:
    print('TypeError:', e)
