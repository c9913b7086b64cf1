# Small torch names real scripts use that the built-in namespace lacks, written in the language over the
# built-in ops as PyTorch 1.13 defines them (nodes named as PyTorch's): torch.dist, deg2rad, rad2deg,
# fmax, fmin, masked_scatter (functions and methods, in-place forms), and the torch-level spellings of
# functional ops (torch.dropout, layer_norm, group_norm, batch_norm, instance_norm, embedding,
# pixel_shuffle, pixel_unshuffle, selu, celu, threshold, rrelu, hardshrink, alpha_dropout,
# feature_dropout) with their ATen argument lists. repl/tensor_lib.c binds the methods.
import math
import torch
import torch.nn.functional as F


def _named(r, name, *inputs):
    torch._nnscope_name_grad_fn(r, name, *inputs)
    return r


def dist(input, other, p=2):
    return _named(torch.norm(input - other, p), "DistBackward0", input, other)


def deg2rad(input):
    return _named(input * (math.pi / 180), "Deg2RadBackward0", input)


def rad2deg(input):
    return _named(input * (180 / math.pi), "Rad2DegBackward0", input)


def deg2rad_(self):
    return self.mul_(math.pi / 180)


def rad2deg_(self):
    return self.mul_(180 / math.pi)


def _fpick(input, other, greater, name):
    if not input.is_floating_point() and not other.is_floating_point():
        return torch.maximum(input, other) if greater else torch.minimum(input, other)
    keep = other.isnan() | ((input >= other) if greater else (input <= other))
    return _named(torch.where(keep, input, other), name, input, other)


def fmax(input, other):
    return _fpick(input, other, True, "FmaxBackward0")


def fmin(input, other):
    return _fpick(input, other, False, "FminBackward0")


def masked_scatter(input, mask, source):
    if mask.dtype != torch.bool:
        mask = mask != 0        # 1.13 takes an integer mask as its nonzero elements
    shape = torch.broadcast_shapes(input.shape, mask.shape)
    out = input.expand(shape).clone()
    m = mask.expand(shape)
    n = int(m.sum())
    if n > source.numel():
        raise RuntimeError("Number of elements of source < number of ones in mask")
    out[m] = source.reshape(-1)[:n].to(out.dtype)
    return _named(out, "MaskedScatterBackward0", input, source)


def masked_scatter_(self, mask, source):
    return self.copy_(masked_scatter(self, mask, source))


def dropout(input, p, train):
    return F.dropout(input, p, train)


def alpha_dropout(input, p, train):
    return F.alpha_dropout(input, p, train)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True):
    return F.layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    return F.group_norm(input, num_groups, weight, bias, eps)


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled):
    return F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, cudnn_enabled):
    return F.instance_norm(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps)


def embedding(weight, input, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    # ATen's argument order (weight first); padding_idx -1 is none
    return F.embedding(input, weight, padding_idx if padding_idx >= 0 else None, None, 2.0, scale_grad_by_freq,
                       sparse)


def pixel_shuffle(input, upscale_factor):
    return F.pixel_shuffle(input, upscale_factor)


def pixel_unshuffle(input, downscale_factor):
    return F.pixel_unshuffle(input, downscale_factor)


def selu(input):
    return F.selu(input)


def celu(input, alpha=1.0):
    return F.celu(input, alpha)


def threshold(input, threshold, value):
    return F.threshold(input, threshold, value)


def rrelu(input, lower=1. / 8, upper=1. / 3, training=False, generator=None):
    return F.rrelu(input, lower, upper, training)


def hardshrink(input, lambd=0.5):
    return F.hardshrink(input, lambd)
