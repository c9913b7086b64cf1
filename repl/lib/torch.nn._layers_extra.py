# nn.Bilinear / F.bilinear and the F.*_with_indices spellings of the 1-d/2-d pools, written in the language over the built-in ops (matmul and the 2-d
# pools), as PyTorch 1.13 computes them; grad_fn names are those of the ops they are made of.
import math
import torch
from torch import nn
import torch.nn.functional as F


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
