# torch.random: the default generator's functions, and fork_rng, which restores the CPU
# stream's state when its block ends (there is no CUDA state to fork in this build).
import contextlib
import torch
from torch import manual_seed, seed, initial_seed, get_rng_state, set_rng_state

__all__ = ['set_rng_state', 'get_rng_state', 'manual_seed', 'seed', 'initial_seed', 'fork_rng']


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices"):
    if not enabled:
        yield
        return
    cpu_rng_state = torch.get_rng_state()
    try:
        yield
    finally:
        torch.set_rng_state(cpu_rng_state)
