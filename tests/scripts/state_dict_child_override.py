# A child module's own state_dict() is what its parent's state_dict() calls
# (PyTorch 1.13: module.state_dict(destination=..., prefix=..., keep_vars=...)),
# so an override that adds or drops entries shows in the parent's dict; and
# state_dict(destination=d) fills d itself and returns it.
from collections import OrderedDict

import torch
import torch.nn as nn


class Child(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        print("Child.state_dict", repr(prefix), type(destination).__name__, keep_vars)
        sd = super().state_dict(*args, destination=destination, prefix=prefix, keep_vars=keep_vars)
        sd[prefix + "scale"] = torch.tensor(2.0)
        return sd


class Slim(nn.Module):
    """Drops its bias from every state_dict."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(1, 1)

    def state_dict(self, destination=None, prefix="", keep_vars=False):
        sd = super().state_dict(destination=destination, prefix=prefix, keep_vars=keep_vars)
        del sd[prefix + "lin.bias"]
        return sd


class Parent(nn.Module):
    def __init__(self):
        super().__init__()
        self.child = Child()
        self.block = nn.Sequential(Child(), nn.ReLU())
        self.slim = Slim()


torch.manual_seed(0)
p = Parent()
sd = p.state_dict()
print(type(sd).__name__, list(sd.keys()))
print(list(sd._metadata.keys()))
print(sd["child.scale"], sd["block.0.scale"])
kv = p.state_dict(keep_vars=True)
print(kv["child.lin.weight"].requires_grad, sd["child.lin.weight"].requires_grad)

d = OrderedDict()
r = p.child.state_dict(destination=d, prefix="x.")
print(r is d, list(d.keys()))
print(list(p.slim.state_dict().keys()))
