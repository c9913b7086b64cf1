# torch.cuda.amp as PyTorch 1.13's CPU-only build runs it: GradScaler is disabled
# (it warns when asked to be enabled, as PyTorch does with no CUDA device), so
# scale() returns its argument, step() calls optimizer.step(), unscale_ and update do
# nothing; autocast (device 'cuda') warns and disables itself. nanoGPT's train.py
# makes a GradScaler(enabled=False) and calls it through its loop.

import warnings


class GradScaler:
    def __init__(self, init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000,
                 enabled=True):
        if enabled:
            warnings.warn('torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.')
        self._enabled = False
        self._init_scale = init_scale
        self._growth_factor = growth_factor
        self._backoff_factor = backoff_factor
        self._growth_interval = growth_interval

    def is_enabled(self):
        return self._enabled

    def scale(self, outputs):
        return outputs

    def unscale_(self, optimizer):
        return None

    def step(self, optimizer, *args, **kwargs):
        return optimizer.step(*args, **kwargs)

    def update(self, new_scale=None):
        return None

    def get_scale(self):
        return 1.0

    def get_growth_factor(self):
        return self._growth_factor

    def set_growth_factor(self, new_factor):
        self._growth_factor = new_factor

    def get_backoff_factor(self):
        return self._backoff_factor

    def set_backoff_factor(self, new_factor):
        self._backoff_factor = new_factor

    def get_growth_interval(self):
        return self._growth_interval

    def set_growth_interval(self, new_interval):
        self._growth_interval = new_interval

    def state_dict(self):
        return {}

    def load_state_dict(self, state_dict):
        return None


class autocast:
    def __init__(self, enabled=True, dtype=None, cache_enabled=True):
        if enabled:
            warnings.warn("User provided device_type of 'cuda', but CUDA is not available. Disabling")
        self._enabled = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __call__(self, func):
        return func
