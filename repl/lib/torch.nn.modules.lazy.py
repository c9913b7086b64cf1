# torch.nn.modules.lazy.LazyModuleMixin as PyTorch 1.13's: a module whose parameters are
# UninitializedParameter placeholders until its first forward, when a forward pre-hook calls
# initialize_parameters(*input), removes itself and the load hook, and turns the module into
# cls_to_become (nnscope's torch._nnscope_module_become: the class and its configuration, keeping the
# module's own parameters, buffers and hooks). Also the base of a user's own lazy modules.
import warnings
import torch
from torch.nn.parameter import is_lazy


class LazyModuleMixin:
    __module__ = 'torch.nn.modules.lazy'
    cls_to_become = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._load_hook = self._register_load_state_dict_pre_hook(self._lazy_load_hook)
        self._initialize_hook = self.register_forward_pre_hook(self._infer_parameters)
        warnings._warn_from('Lazy modules are a new feature under heavy development so changes to the API or '
                            'functionality can happen at any moment.', UserWarning, 'torch.nn.modules.lazy',
                            'torch/nn/modules/lazy.py', 180)  # where PyTorch 1.13 warns

    def _lazy_load_hook(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                        error_msgs):
        for name, param in list(self._parameters.items()) + list(self._buffers.items()):
            key = prefix + name
            if key in state_dict and param is not None:
                given = state_dict[key]
                if is_lazy(param) and not is_lazy(given):
                    with torch.no_grad():
                        param.materialize(given.shape)

    def initialize_parameters(self, *args, **kwargs):
        raise NotImplementedError('initialize_parameters is not implemented for {}'.format(self.__class__.__name__))

    def has_uninitialized_params(self):
        for p in list(self._parameters.values()) + list(self._buffers.values()):
            if is_lazy(p):
                return True
        return False

    def _infer_parameters(self, module, input):
        module.initialize_parameters(*input)
        if module.has_uninitialized_params():
            raise RuntimeError('module {} has not been fully initialized'.format(self._get_name()))
        module._initialize_hook.remove()
        module._load_hook.remove()
        delattr(module, '_initialize_hook')
        delattr(module, '_load_hook')
        if module.cls_to_become is not None:
            module._become(module.cls_to_become)

    def _become(self, cls):
        # module.__class__ = cls: the configuration comes from a module of cls built for it (its random
        # draws undone), the values stay the module's own
        state = torch.get_rng_state()
        muted = torch._nnscope_mute_warnings(True)     # not catch_warnings: that would show the lazy warning again
        try:
            template = self._template(cls)
        finally:
            torch._nnscope_mute_warnings(muted)
        torch.set_rng_state(state)
        torch._nnscope_module_become(self, template)

    def _replicate_for_data_parallel(self):
        raise RuntimeError("Modules with uninitialized parameters can't be used with `DataParallel`. "
                           "Run a dummy forward pass to correctly initialize the modules")
