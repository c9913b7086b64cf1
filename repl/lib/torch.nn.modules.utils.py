# torch.nn.modules.utils as PyTorch 1.13's: the tuple helpers that layer code imports
# (from torch.nn.modules.utils import _pair).
from itertools import repeat


def _ntuple(n, name="parse"):
    def parse(x):
        try:
            iter(x)             # collections.abc.Iterable
        except TypeError:
            return tuple(repeat(x, n))
        return tuple(x)

    parse.__name__ = name
    return parse


_single = _ntuple(1, "_single")
_pair = _ntuple(2, "_pair")
_triple = _ntuple(3, "_triple")
_quadruple = _ntuple(4, "_quadruple")


def _reverse_repeat_tuple(t, n):
    return tuple(x for x in reversed(t) for _ in range(n))


def _list_with_default(out_size, defaults):
    if isinstance(out_size, int):
        return out_size
    if len(defaults) <= len(out_size):
        raise ValueError("Input dimension should be at least {}".format(len(out_size) + 1))
    return [v if v is not None else d for v, d in zip(out_size, defaults[-len(out_size):])]
