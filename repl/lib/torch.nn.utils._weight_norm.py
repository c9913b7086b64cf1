# torch.nn.utils.weight_norm / remove_weight_norm as PyTorch 1.13: the parameter NAME is
# replaced by NAME_g (its norm over every dim but `dim`) and NAME_v (its direction), and a
# forward pre-hook recomputes NAME = v * (g / ||v||) before each call.
import torch
from torch.nn.parameter import Parameter

__all__ = ['WeightNorm', 'weight_norm', 'remove_weight_norm']


def _norm_except_dim(v, dim):
    # the 2-norm of v over every dim but dim, shaped to broadcast against v
    if dim == -1:
        return v.norm(2)
    if dim == 0:
        return v.contiguous().view(v.size(0), -1).norm(2, 1).view((v.size(0),) + (1,) * (v.dim() - 1))
    if dim == v.dim() - 1:
        return v.contiguous().view(-1, v.size(-1)).norm(2, 0).view((1,) * (v.dim() - 1) + (v.size(-1),))
    return _norm_except_dim(v.transpose(0, dim), 0).transpose(0, dim)


class WeightNorm(object):
    def __init__(self, name, dim):
        if dim is None:
            dim = -1
        self.name = name
        self.dim = dim

    def compute_weight(self, module):
        g = getattr(module, self.name + '_g')
        v = getattr(module, self.name + '_v')
        return v * (g / _norm_except_dim(v, self.dim))

    @staticmethod
    def apply(module, name, dim):
        for k, hook in module._forward_pre_hooks.items():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError("Cannot register two weight_norm hooks on "
                                   "the same parameter {}".format(name))
        if dim is None:
            dim = -1
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        del module._parameters[name]
        module.register_parameter(name + '_g', Parameter(_norm_except_dim(weight, dim).data))
        module.register_parameter(name + '_v', Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module):
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + '_g']
        del module._parameters[self.name + '_v']
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module, inputs):
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module, name='weight', dim=0):
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module, name='weight'):
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module
    raise ValueError("weight_norm of '{}' not found in {}".format(name, module))
