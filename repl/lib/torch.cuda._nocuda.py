# torch.cuda's functions in a build without CUDA, as PyTorch 1.13's CPU build answers
# them: the memory statistics are 0, empty_cache and seed do nothing, and whatever needs a
# device fails with its AssertionError "Torch not compiled with CUDA enabled".
# (repl/stdlib.c looks the names of __all__ up here when torch.cuda lacks them.)

__all__ = ['empty_cache', 'synchronize', 'memory_allocated', 'max_memory_allocated', 'memory_reserved',
           'max_memory_reserved', 'memory_cached', 'max_memory_cached', 'reset_peak_memory_stats',
           'reset_max_memory_allocated', 'current_device', 'get_device_name', 'get_device_capability',
           'get_device_properties', 'is_initialized', 'init', 'ipc_collect', 'set_device', 'current_stream',
           'default_stream', 'get_rng_state', 'set_rng_state', 'get_rng_state_all', 'set_rng_state_all', 'seed',
           'seed_all', 'initial_seed', 'get_arch_list', 'is_bf16_supported', 'memory_summary', 'memory_stats',
           'mem_get_info']


def _lazy_init():
    raise AssertionError("Torch not compiled with CUDA enabled")


def empty_cache():
    return None


def is_initialized():
    return False


def init():
    _lazy_init()


def _zero(device=None):
    return 0


memory_allocated = max_memory_allocated = memory_reserved = max_memory_reserved = _zero
memory_cached = max_memory_cached = _zero


def reset_peak_memory_stats(device=None):
    raise AttributeError("module 'torch._C' has no attribute '_cuda_resetPeakMemoryStats'")


def reset_max_memory_allocated(device=None):
    raise AttributeError("module 'torch._C' has no attribute '_cuda_resetPeakMemoryStats'")


def set_device(device):
    raise AttributeError("module 'torch._C' has no attribute '_cuda_setDevice'")


def memory_stats(device=None):
    return {}


def memory_summary(device=None, abbreviated=False):
    raise KeyError('allocated_bytes.all.current')


def synchronize(device=None):
    _lazy_init()


def current_device():
    _lazy_init()


def get_device_name(device=None):
    _lazy_init()


def get_device_capability(device=None):
    _lazy_init()


def get_device_properties(device):
    _lazy_init()


def ipc_collect():
    _lazy_init()


def current_stream(device=None):
    _lazy_init()


def default_stream(device=None):
    _lazy_init()


def get_rng_state(device='cuda'):
    _lazy_init()


def set_rng_state(new_state, device='cuda'):
    return None


def get_rng_state_all():
    return []


def set_rng_state_all(new_states):
    return None


def seed():
    return None


def seed_all():
    return None


def initial_seed():
    _lazy_init()


def get_arch_list():
    return []


def is_bf16_supported():
    _lazy_init()


def mem_get_info(device=None):
    _lazy_init()
