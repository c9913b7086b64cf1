# nn.Bilinear / F.bilinear, the F.*_with_indices spellings of the 1-d/2-d pools, F.gumbel_softmax,
# F.pdist, F.threshold_ and F.celu_, written in the language over the built-in ops (matmul and the 2-d
# pools), as PyTorch 1.13 computes them; grad_fn names are those of the ops they are made of.
import math
import warnings
import torch
from torch import nn
import torch.nn.functional as F
from torch.nn._grad_names import grad_fn_name


@grad_fn_name(lambda input1, input2, weight, bias=None: "ReshapeAliasBackward0" if bias is None else None)
def bilinear(input1, input2, weight, bias=None):
    # y[..., o] = sum_ij input1[..., i] * weight[o, i, j] * input2[..., j] + bias[o]
    out, in1, in2 = weight.shape
    if input1.size(-1) != in1:
        raise RuntimeError("bilinear(): input1 size does not match weight size: got {} but expected {}".format(
            input1.size(-1), in1))
    if input2.size(-1) != in2:
        raise RuntimeError("bilinear(): input2 size does not match weight size: got {} but expected {}".format(
            input2.size(-1), in2))
    if input1.dim() != input2.dim():
        raise RuntimeError("bilinear(): input dimensions do not match: got {} and {}".format(input1.dim(),
                                                                                           input2.dim()))
    for d in range(input1.dim() - 1):
        if input1.size(d) != input2.size(d):
            raise RuntimeError("bilinear(): input batch dimensions do not match at dim {}: got {} and {}".format(
                d, input1.size(d), input2.size(d)))
    if bias is not None and bias.size(-1) != out:
        raise RuntimeError("bilinear(): bias size does not match weight size: got {} but expected {}".format(
            bias.size(-1), out))
    t = input1.matmul(weight.permute(1, 0, 2).reshape(in1, out * in2))
    y = (t.reshape(list(input1.shape[:-1]) + [out, in2]) * input2.unsqueeze(-2)).sum(-1)
    return y + bias if bias is not None else y


class Bilinear(nn.Module):
    __module__ = 'torch.nn.modules.linear'
    def __init__(self, in1_features, in2_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        self.weight = nn.Parameter(torch.empty((out_features, in1_features, in2_features), dtype=dtype))
        if bias:
            self.bias = nn.Parameter(torch.empty(out_features, dtype=dtype))
        else:
            self.register_parameter('bias', None)
        self.reset_parameters()

    def reset_parameters(self):
        bound = 1 / math.sqrt(self.weight.size(1))
        nn.init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            nn.init.uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        return bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self):
        return 'in1_features={}, in2_features={}, out_features={}, bias={}'.format(
            self.in1_features, self.in2_features, self.out_features, self.bias is not None)


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    return F.adaptive_max_pool2d(input, output_size, return_indices=True)


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return F.max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode=ceil_mode, return_indices=True)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return F.max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode=ceil_mode, return_indices=True)


def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    # PyTorch 1.13's: Gumbel noise from exponential_ (its stream), a softmax at temperature tau, and
    # with hard=True the one-hot of the argmax carrying the soft sample's gradient
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.")
    gumbels = -torch.empty_like(logits).exponential_().log()
    gumbels = (logits + gumbels) / tau
    y_soft = gumbels.softmax(dim)
    if hard:
        index = y_soft.max(dim, keepdim=True)[1]
        y_hard = torch.zeros_like(logits).scatter_(dim, index, 1.0)
        return y_hard - y_soft.detach() + y_soft
    return y_soft


@grad_fn_name("PdistBackward0")
def pdist(input, p=2):
    # the p-norm distances of the rows, pairs i < j in row-major order
    if input.dim() != 2:
        raise RuntimeError("pdist only supports 2D tensors, got: {}D".format(input.dim()))
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    n = input.size(0)
    if n <= 1:
        return input.new_zeros(0)
    ij = torch.triu_indices(n, n, 1)
    return (input[ij[0]] - input[ij[1]]).norm(p, dim=1)


def threshold_(input, threshold, value):
    return F.threshold(input, threshold, value, inplace=True)


def celu_(input, alpha=1.0):
    return F.celu(input, alpha, inplace=True)
