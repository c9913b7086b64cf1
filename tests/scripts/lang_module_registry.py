# registries: decorators, __init_subclass__ over an nn.Module base with super(), classmethod factories
# class-level registries, __init_subclass__, classmethods, properties, __call__
import torch, torch.nn as nn
REGISTRY = {}
def register(name):
    def deco(cls):
        REGISTRY[name] = cls
        return cls
    return deco
class Base(nn.Module):
    subclasses = []
    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        Base.subclasses.append(cls.__name__)
@register('mlp')
class MLP(Base):
    def __init__(self, d=2):
        super().__init__()
        self.fc = nn.Linear(d, 1)
    @classmethod
    def from_config(cls, cfg):
        return cls(**cfg)
    @property
    def n_params(self):
        return sum(p.numel() for p in self.parameters())
    @staticmethod
    def name():
        return 'mlp'
torch.manual_seed(0)
m = REGISTRY['mlp'].from_config({'d': 3})
print(Base.subclasses, m.n_params, MLP.name(), type(m).__name__, isinstance(m, Base))
class Scheduler:
    def __init__(self, base):
        self.base = base
    def __call__(self, step):
        return self.base * 0.5 ** (step // 2)
    def __repr__(self):
        return f'{type(self).__name__}(base={self.base})'
sch = Scheduler(1.0)
print([sch(i) for i in range(5)], sch, callable(sch))
