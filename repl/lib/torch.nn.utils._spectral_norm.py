# torch.nn.utils.spectral_norm / remove_spectral_norm as PyTorch 1.13 (the hook form,
# used by GAN discriminators): the parameter NAME becomes NAME_orig, two buffers NAME_u
# and NAME_v hold the power iteration's vectors, and a forward pre-hook sets
# NAME = NAME_orig / sigma before each call, iterating (and updating u, v in place)
# only in training mode. u and v start as normalized normal draws, u first, as 1.13's.
import torch
from torch.nn.functional import normalize

__all__ = ['SpectralNorm', 'SpectralNormLoadStateDictPreHook', 'SpectralNormStateDictHook', 'spectral_norm',
           'remove_spectral_norm']


class SpectralNorm:
    _version = 1

    def __init__(self, name='weight', n_power_iterations=1, dim=0, eps=1e-12):
        if n_power_iterations <= 0:
            raise ValueError('Expected n_power_iterations to be positive, but '
                             'got n_power_iterations={}'.format(n_power_iterations))
        self.name = name
        self.dim = dim
        self.n_power_iterations = n_power_iterations
        self.eps = eps

    def reshape_weight_to_matrix(self, weight):
        # dim first, the rest flattened into the columns
        if self.dim != 0:
            order = [self.dim] + [d for d in range(weight.dim()) if d != self.dim]
            weight = weight.permute(*order)
        return weight.reshape(weight.size(0), -1)

    def compute_weight(self, module, do_power_iteration):
        weight = getattr(module, self.name + '_orig')
        u = getattr(module, self.name + '_u')
        v = getattr(module, self.name + '_v')
        weight_mat = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with torch.no_grad():
                for _ in range(self.n_power_iterations):
                    # the buffers themselves are updated, as PyTorch's out= does
                    v.copy_(normalize(torch.mv(weight_mat.t(), u), dim=0, eps=self.eps))
                    u.copy_(normalize(torch.mv(weight_mat, v), dim=0, eps=self.eps))
                u = u.clone()
                v = v.clone()
        sigma = torch.dot(u, torch.mv(weight_mat, v))
        return weight / sigma

    def remove(self, module):
        with torch.no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        delattr(module, self.name)
        delattr(module, self.name + '_u')
        delattr(module, self.name + '_v')
        delattr(module, self.name + '_orig')
        module.register_parameter(self.name, torch.nn.Parameter(weight.detach()))

    def __call__(self, module, inputs):
        setattr(module, self.name, self.compute_weight(module, do_power_iteration=module.training))

    def _solve_v_and_rescale(self, weight_mat, u, target_sigma):
        # the v that gives target_sigma with this u (loading a checkpoint without v)
        v = torch.linalg.multi_dot([weight_mat.t().mm(weight_mat).pinverse(), weight_mat.t(),
                                    u.unsqueeze(1)]).squeeze(1)
        return v.mul_(target_sigma / torch.dot(u, torch.mv(weight_mat, v)))

    @staticmethod
    def apply(module, name, n_power_iterations, dim, eps):
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError("Cannot register two spectral_norm hooks on "
                                   "the same parameter {}".format(name))
        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]
        if weight is None:
            raise ValueError('`SpectralNorm` cannot be applied as parameter `{}` is None'.format(name))
        with torch.no_grad():
            h, w = fn.reshape_weight_to_matrix(weight).size()
            u = normalize(weight.new_empty(h).normal_(0, 1), dim=0, eps=fn.eps)
            v = normalize(weight.new_empty(w).normal_(0, 1), dim=0, eps=fn.eps)
        delattr(module, fn.name)
        module.register_parameter(fn.name + '_orig', weight)
        setattr(module, fn.name, weight.data)
        module.register_buffer(fn.name + '_u', u)
        module.register_buffer(fn.name + '_v', v)
        module.register_forward_pre_hook(fn)
        module._register_state_dict_hook(SpectralNormStateDictHook(fn))
        module._register_load_state_dict_pre_hook(SpectralNormLoadStateDictPreHook(fn))
        return fn


class SpectralNormLoadStateDictPreHook:
    # a checkpoint of a version without NAME_v: NAME_v solved from NAME_orig, NAME and NAME_u
    def __init__(self, fn):
        self.fn = fn

    def __call__(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs):
        fn = self.fn
        version = local_metadata.get('spectral_norm', {}).get(fn.name + '.version', None)
        if version is not None and version >= 1:
            return
        key = prefix + fn.name
        if version is None and all(key + s in state_dict for s in ('_orig', '_u', '_v')) and key not in state_dict:
            return
        missing = False
        for suffix in ('_orig', '', '_u'):
            if key + suffix not in state_dict:
                missing = True
                if strict:
                    missing_keys.append(key + suffix)
        if missing:
            return
        with torch.no_grad():
            weight_orig = state_dict[key + '_orig']
            weight = state_dict.pop(key)
            sigma = (weight_orig / weight).mean()
            weight_mat = fn.reshape_weight_to_matrix(weight_orig)
            state_dict[key + '_v'] = fn._solve_v_and_rescale(weight_mat, state_dict[key + '_u'], sigma)


class SpectralNormStateDictHook:
    # records the version in the state_dict's metadata
    def __init__(self, fn):
        self.fn = fn

    def __call__(self, module, state_dict, prefix, local_metadata):
        if 'spectral_norm' not in local_metadata:
            local_metadata['spectral_norm'] = {}
        key = self.fn.name + '.version'
        if key in local_metadata['spectral_norm']:
            raise RuntimeError("Unexpected key in metadata['spectral_norm']: {}".format(key))
        local_metadata['spectral_norm'][key] = self.fn._version


def spectral_norm(module, name='weight', n_power_iterations=1, eps=1e-12, dim=None):
    if dim is None:
        transposed = (torch.nn.ConvTranspose1d, torch.nn.ConvTranspose2d, torch.nn.ConvTranspose3d)
        dim = 1 if isinstance(module, transposed) else 0
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def _drop_hook(hooks, kind, name):
    for k, hook in hooks.items():
        if isinstance(hook, kind) and (hook.name if kind is SpectralNorm else hook.fn.name) == name:
            del hooks[k]
            return hook
    return None


def remove_spectral_norm(module, name='weight'):
    hook = _drop_hook(module._forward_pre_hooks, SpectralNorm, name)
    if hook is None:
        raise ValueError("spectral_norm of '{}' not found in {}".format(name, module))
    hook.remove(module)
    _drop_hook(module._state_dict_hooks, SpectralNormStateDictHook, name)
    _drop_hook(module._load_state_dict_pre_hooks, SpectralNormLoadStateDictPreHook, name)
    return module
