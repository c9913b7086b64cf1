# grad_fn names for the torch.nn functions written in the language: such a function ends in
# an op of its own (an add, a max, an index_add ...), and PyTorch's one op has a node of its own
# name. @grad_fn_name("EmbeddingBagBackward0") names the last node of the result (the first
# one of a tuple) so that y.grad_fn prints as PyTorch's; the gradients are unchanged. The name
# may be a function of the call's arguments, returning the name or None (leave it).
# torch._nnscope_name_grad_fn renames only a node made by the call (not one of an argument's).
import functools
import torch


def grad_fn_name(name):
    def wrap(fn):
        @functools.wraps(fn)
        def named(*args, **kwargs):
            out = fn(*args, **kwargs)
            first = out[0] if isinstance(out, tuple) else out
            label = name(*args, **kwargs) if callable(name) else name
            if label is not None and isinstance(first, torch.Tensor):
                torch._nnscope_name_grad_fn(first, label, *args, *kwargs.values())
            return out
        return named
    return wrap
