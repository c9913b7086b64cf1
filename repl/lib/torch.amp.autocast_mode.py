# torch.amp.autocast_mode as PyTorch 1.13 defines it, over core's CPU autocast flag
# (repl/bind_autocast.c gives this module is_autocast_cpu_enabled, set_autocast_cpu_enabled,
# get_autocast_cpu_dtype and set_autocast_cpu_dtype). Inside an enabled CPU region the ops of
# 1.13's lists cast their floating inputs where they are dispatched (core/nn_autocast.h). This
# build has no CUDA: autocast('cuda') warns and disables itself, as 1.13's CPU-only build does;
# the GPU flags below are only kept. There is no weight cache (the casts are redone each call,
# with the same numbers); TorchScript's branches are left out.
import functools
import warnings

import torch

_gpu_enabled = False
_gpu_dtype = torch.float16
_cache_enabled = True
_nesting = 0


def is_autocast_enabled():
    return _gpu_enabled


def set_autocast_enabled(enabled):
    global _gpu_enabled
    _gpu_enabled = enabled


def get_autocast_gpu_dtype():
    return _gpu_dtype


def set_autocast_gpu_dtype(dtype):
    global _gpu_dtype
    _gpu_dtype = dtype


def is_autocast_cache_enabled():
    return _cache_enabled


def set_autocast_cache_enabled(enabled):
    global _cache_enabled
    _cache_enabled = enabled


def autocast_increment_nesting():
    global _nesting
    _nesting += 1
    return _nesting


def autocast_decrement_nesting():
    global _nesting
    _nesting -= 1
    return _nesting


def clear_autocast_cache():
    return None


def autocast_decorator(autocast_instance, func):
    @functools.wraps(func)
    def decorate_autocast(*args, **kwargs):
        with autocast_instance:
            return func(*args, **kwargs)
    return decorate_autocast


class autocast:
    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        self.device = device_type
        if self.device == 'cuda':
            self.fast_dtype = get_autocast_gpu_dtype()
        elif self.device == 'cpu':
            self.fast_dtype = get_autocast_cpu_dtype()
        else:
            raise RuntimeError('User specified autocast device_type must be \'cuda\' or \'cpu\'')
        self._cache_enabled = is_autocast_cache_enabled()
        if enabled and self.device == 'cuda':
            warnings.warn('User provided device_type of \'cuda\', but CUDA is not available. Disabling')
            enabled = False
        if dtype is not None:
            self.fast_dtype = dtype
        if cache_enabled is not None:
            self._cache_enabled = cache_enabled
        if self.device == 'cpu' and self.fast_dtype != torch.bfloat16:
            warnings.warn('In CPU autocast, but the target dtype is not supported. Disabling autocast.\n'
                          'CPU Autocast only supports dtype of torch.bfloat16 currently.')
            enabled = False
        if self.device == 'cuda' and self.fast_dtype == torch.bfloat16:
            raise AssertionError('Torch not compiled with CUDA enabled')  # torch.cuda.is_bf16_supported()
        self._enabled = enabled

    def __enter__(self):
        self.prev_cache_enabled = is_autocast_cache_enabled()
        if self.device == 'cpu':
            self.prev = is_autocast_cpu_enabled()
            self.prev_fastdtype = get_autocast_cpu_dtype()
            set_autocast_cpu_enabled(self._enabled)
            set_autocast_cpu_dtype(self.fast_dtype)
        else:
            self.prev = is_autocast_enabled()
            self.prev_fastdtype = get_autocast_gpu_dtype()
            set_autocast_gpu_dtype(self.fast_dtype)
            set_autocast_enabled(self._enabled)
        autocast_increment_nesting()
        set_autocast_cache_enabled(self._cache_enabled)

    def __exit__(self, exc_type, exc_val, exc_tb):
        if autocast_decrement_nesting() == 0:
            clear_autocast_cache()
        if self.device == 'cpu':
            set_autocast_cpu_enabled(self.prev)
            set_autocast_cpu_dtype(self.prev_fastdtype)
        else:
            set_autocast_enabled(self.prev)
            set_autocast_gpu_dtype(self.prev_fastdtype)
        set_autocast_cache_enabled(self.prev_cache_enabled)
        return False

    def __call__(self, func):
        return autocast_decorator(self, func)


def _lower(*tensors):
    # the inputs of an op of 1.13's CPU "lower precision" list written in the language, cast as
    # core casts its own (_cast: strides kept)
    return _cast(True, tensors) if is_autocast_cpu_enabled() else tensors


def _fp32(*tensors):
    # the inputs of an op of 1.13's CPU "fp32" list
    return _cast(False, tensors) if is_autocast_cpu_enabled() else tensors
