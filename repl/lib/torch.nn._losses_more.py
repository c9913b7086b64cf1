# The losses of torch.nn that core does not have (SoftMarginLoss, MultiLabelSoftMarginLoss,
# HingeEmbeddingLoss, PoissonNLLLoss, GaussianNLLLoss, MultiMarginLoss, MultiLabelMarginLoss,
# TripletMarginWithDistanceLoss) and the pools LPPool1d/2d and MaxUnpool1d/3d, with their F.
# forms, written in the language over the built-in ops as PyTorch 1.13 computes them (its
# formulas, argument checks, the legacy size_average=/reduce= with their warning); grad_fn
# names are those of the ops they are made of.
import math
import warnings
import torch
from torch import nn
import torch.nn.functional as F
from torch.nn._grad_names import grad_fn_name
from torch.nn._pool_bases import _LPPoolNd, _MaxUnpoolNd


def _legacy_reduction(size_average, reduce):
    if size_average is None:
        size_average = True
    if reduce is None:
        reduce = True
    if size_average and reduce:
        ret = "mean"
    elif reduce:
        ret = "sum"
    else:
        ret = "none"
    # placed in PyTorch 1.13's torch/nn/_reduction.py, as the built-in losses' (once per run)
    warnings._warn_from("size_average and reduce args will be deprecated, please use reduction='{}' instead.".format(ret),
                        UserWarning, "torch.nn._reduction", "torch/nn/_reduction.py", 42)
    return ret


def _reduce(loss, reduction):
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError("{} is not a valid value for reduction".format(reduction))


def _reduction_of(size_average, reduce, reduction):
    if size_average is not None or reduce is not None:
        return _legacy_reduction(size_average, reduce)
    return reduction


def _positive(z):
    # z where z > 0, else 0 (ATen's `if (z > 0)`: no gradient at z == 0)
    return torch.where(z > 0, z, torch.zeros_like(z))


@grad_fn_name("SoftMarginLossBackward0")
def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction_of(size_average, reduce, reduction)
    return _reduce(torch.log1p(torch.exp(-input * target)), reduction)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction_of(size_average, reduce, reduction)
    loss = -(target * F.logsigmoid(input) + (1 - target) * F.logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(dim=class_dim) / input.size(class_dim)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    return _reduce(loss, reduction)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction_of(size_average, reduce, reduction)
    zeros = torch.zeros_like(input)
    margin_clamp = (margin - input).clamp_min(0)
    output = torch.where(target != 1, margin_clamp, zeros) + torch.where(target != -1, input, zeros)
    return _reduce(output, reduction)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction="mean"):
    reduction = _reduction_of(size_average, reduce, reduction)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not a valid value for reduction")
    if log_input:
        loss = torch.exp(input) - target * input
    else:
        loss = input - target * torch.log(input + eps)
    if full:
        stirling = target * torch.log(target) - target + 0.5 * torch.log(2 * math.pi * target)
        loss = loss + stirling.masked_fill(target <= 1, 0)
    return _reduce(loss, reduction)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = torch.unsqueeze(var, -1)
        elif input.size()[:-1] == var.size()[:-1] and var.size(-1) == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction != 'none' and reduction != 'mean' and reduction != 'sum':
        raise ValueError(reduction + " is not valid")
    if torch.any(var < 0):
        raise ValueError("var has negative entry/entries")
    var = var.clone()
    with torch.no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (torch.log(var) + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


@grad_fn_name("MultiMarginLossBackward0")
def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction_of(size_average, reduce, reduction)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError("{} is not a valid value for reduction".format(reduction))
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    if input.dim() > 2:
        raise RuntimeError("Expected non-empty vector or matrix with optional 0-dim batch size, but got: {}".format(
            list(input.shape)))
    single = input.dim() <= 1
    x = input.reshape(1, -1) if single else input
    n, dim = x.size(0), x.size(1)
    y = target.reshape(-1)
    if y.numel() != n:
        raise RuntimeError("inconsistent target size, got: {}".format(list(target.shape)))
    if n and (y.min().item() < 0 or y.max().item() >= dim):
        raise RuntimeError("target out of range")
    xt = x.gather(1, y.unsqueeze(1))
    z = _positive(margin - xt + x)
    if p == 2:
        z = z * z
    if weight is not None:
        z = z * weight[y].unsqueeze(1)
    z = z * (1 - F.one_hot(y, dim).to(z.dtype))
    loss = z.sum(1) / dim
    if single and reduction == "none":
        loss = loss.reshape(target.shape) if target.dim() == 0 else loss
    return _reduce(loss, reduction)


@grad_fn_name("MultilabelMarginLossBackward0")
def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction_of(size_average, reduce, reduction)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError("{} is not a valid value for reduction".format(reduction))
    if input.dim() > 2 or target.shape != input.shape:
        raise RuntimeError("inconsistent size {} for argument #2 'target'".format(list(target.shape)))
    single = input.dim() <= 1
    x = input.reshape(1, -1) if single else input
    t = target.reshape(1, -1) if single else target
    dim = x.size(1)
    if t.numel() and (t.min().item() < -1 or t.max().item() >= dim):
        raise RuntimeError("multilabel_margin_loss: target out of range")
    valid = (t >= 0).long().cumprod(1) > 0  # the targets before the first -1
    tc = t.clamp(min=0)
    is_target = (F.one_hot(tc, dim) * valid.long().unsqueeze(2)).sum(1) > 0
    xt = x.gather(1, tc)
    z = 1 - xt.unsqueeze(2) + x.unsqueeze(1)  # [N, targets, classes]
    keep = valid.unsqueeze(2) & (~is_target).unsqueeze(1)
    loss = torch.where(keep, _positive(z), torch.zeros_like(z)).sum((1, 2)) / dim
    if single:
        loss = loss.reshape(())
    return _reduce(loss, reduction)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0, swap=False,
                                      reduction="mean"):
    distance_function = distance_function if distance_function is not None else F.pairwise_distance
    positive_dist = distance_function(anchor, positive)
    negative_dist = distance_function(anchor, negative)
    if swap:
        swap_dist = distance_function(positive, negative)
        negative_dist = torch.min(negative_dist, swap_dist)
    output = torch.clamp(positive_dist - negative_dist + margin, min=0.0)
    return _reduce(output, reduction)


class _Loss(nn.Module):
    __module__ = 'torch.nn.modules.loss'
    def __init__(self, size_average=None, reduce=None, reduction='mean'):
        super().__init__()
        if size_average is not None or reduce is not None:
            self.reduction = _legacy_reduction(size_average, reduce)
        else:
            self.reduction = reduction


class _WeightedLoss(_Loss):
    __module__ = 'torch.nn.modules.loss'
    def __init__(self, weight=None, size_average=None, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer('weight', weight)


class SoftMarginLoss(_Loss):
    __module__ = 'torch.nn.modules.loss'
    def forward(self, input, target):
        return soft_margin_loss(input, target, reduction=self.reduction)


class MultiLabelSoftMarginLoss(_WeightedLoss):
    __module__ = 'torch.nn.modules.loss'
    def forward(self, input, target):
        return multilabel_soft_margin_loss(input, target, weight=self.weight, reduction=self.reduction)


class HingeEmbeddingLoss(_Loss):
    __module__ = 'torch.nn.modules.loss'
    def __init__(self, margin=1.0, size_average=None, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input, target):
        return hinge_embedding_loss(input, target, margin=self.margin, reduction=self.reduction)


class PoissonNLLLoss(_Loss):
    __module__ = 'torch.nn.modules.loss'
    def __init__(self, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)
        self.log_input = log_input
        self.full = full
        self.eps = eps

    def forward(self, log_input, target):
        return poisson_nll_loss(log_input, target, log_input=self.log_input, full=self.full, eps=self.eps,
                                reduction=self.reduction)


class GaussianNLLLoss(_Loss):
    __module__ = 'torch.nn.modules.loss'
    def __init__(self, *, full=False, eps=1e-6, reduction='mean'):
        super().__init__(None, None, reduction)
        self.full = full
        self.eps = eps

    def forward(self, input, target, var):
        return gaussian_nll_loss(input, target, var, full=self.full, eps=self.eps, reduction=self.reduction)


class MultiMarginLoss(_WeightedLoss):
    __module__ = 'torch.nn.modules.loss'
    def __init__(self, p=1, margin=1., weight=None, size_average=None, reduce=None, reduction='mean'):
        super().__init__(weight, size_average, reduce, reduction)
        if p != 1 and p != 2:
            raise ValueError("only p == 1 and p == 2 supported")
        assert weight is None or weight.dim() == 1
        self.p = p
        self.margin = margin

    def forward(self, input, target):
        return multi_margin_loss(input, target, p=self.p, margin=self.margin, weight=self.weight,
                                 reduction=self.reduction)


class MultiLabelMarginLoss(_Loss):
    __module__ = 'torch.nn.modules.loss'
    def forward(self, input, target):
        return multilabel_margin_loss(input, target, reduction=self.reduction)


class TripletMarginWithDistanceLoss(_Loss):
    __module__ = 'torch.nn.modules.loss'
    def __init__(self, *, distance_function=None, margin=1.0, swap=False, reduction='mean'):
        super().__init__(size_average=None, reduce=None, reduction=reduction)
        self.distance_function = distance_function if distance_function is not None else nn.PairwiseDistance()
        self.margin = margin
        self.swap = swap

    def forward(self, anchor, positive, negative):
        return triplet_margin_with_distance_loss(anchor, positive, negative, distance_function=self.distance_function,
                                                 margin=self.margin, swap=self.swap, reduction=self.reduction)


# ---------------------------------------------------------------- LPPool, MaxUnpool1d/3d

def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    if stride is not None:
        out = F.avg_pool1d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = F.avg_pool1d(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (torch.sign(out) * F.relu(torch.abs(out))).mul(kernel_size).pow(1.0 / norm_type)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    kw, kh = kernel_size if isinstance(kernel_size, (tuple, list)) else (kernel_size, kernel_size)
    if stride is not None:
        out = F.avg_pool2d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = F.avg_pool2d(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (torch.sign(out) * F.relu(torch.abs(out))).mul(kw * kh).pow(1.0 / norm_type)


class LPPool1d(_LPPoolNd):
    __module__ = 'torch.nn.modules.pooling'
    def forward(self, input):
        return lp_pool1d(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)


class LPPool2d(_LPPoolNd):
    __module__ = 'torch.nn.modules.pooling'
    def forward(self, input):
        return lp_pool2d(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)


def _ntuple(v, n):
    return tuple(v) if isinstance(v, (tuple, list)) else (v,) * n


def _unpool_output_size(input, kernel_size, stride, padding, output_size):
    input_size = input.size()
    default_size = []
    for d in range(len(kernel_size)):
        default_size.append((input_size[-len(kernel_size) + d] - 1) * stride[d] + kernel_size[d] - 2 * padding[d])
    if output_size is None:
        return default_size
    if len(output_size) == len(kernel_size) + 2:
        output_size = output_size[2:]
    if len(output_size) != len(kernel_size):
        raise ValueError("output_size should be a sequence containing {} or {} elements, but it has a length of '{}'"
                         .format(len(kernel_size), len(kernel_size) + 2, len(output_size)))
    for d in range(len(kernel_size)):
        min_size = default_size[d] - stride[d]
        max_size = default_size[d] + stride[d]
        if not (min_size < output_size[d] < max_size):
            raise ValueError('invalid output_size "{}" (dim {} must be between {} and {})'.format(
                output_size, d, min_size, max_size))
    return output_size


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    kernel_size = _ntuple(kernel_size, 1)
    stride = _ntuple(stride, 1) if stride is not None else kernel_size
    padding = _ntuple(padding, 1)
    size = _unpool_output_size(input, kernel_size, stride, padding, output_size)
    return F.max_unpool2d(input.unsqueeze(-1), indices.unsqueeze(-1), (kernel_size[0], 1), (stride[0], 1),
                          (padding[0], 0), output_size=(size[0], 1)).squeeze(-1)


@grad_fn_name("MaxUnpool3DBackward0")
def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    kernel_size = _ntuple(kernel_size, 3)
    stride = _ntuple(stride, 3) if stride is not None else kernel_size
    padding = _ntuple(padding, 3)
    size = _unpool_output_size(input, kernel_size, stride, padding, output_size)
    if input.dim() not in (4, 5):
        raise RuntimeError("Input to max_unpooling3d should be a 4d or 5d Tensor, but got a tensor with {} "
                           "dimensions.".format(input.dim()))
    if indices.shape != input.shape:
        raise RuntimeError("Expected shape of indices to be same as that of the input tensor ({}) but got indices "
                           "tensor with shape: {}".format(list(input.shape), list(indices.shape)))
    x = input if input.dim() == 5 else input.unsqueeze(0)
    idx = indices if indices.dim() == 5 else indices.unsqueeze(0)
    n, c = x.size(0), x.size(1)
    plane = size[0] * size[1] * size[2]
    flat_idx = idx.reshape(n, c, -1)
    if flat_idx.numel() and (flat_idx.min().item() < 0 or flat_idx.max().item() >= plane):
        raise RuntimeError("Found an invalid max index: {} (output volumes are of size {}x{}x{}".format(
            flat_idx.max().item() if flat_idx.max().item() >= plane else flat_idx.min().item(), *size))
    out = x.new_zeros(n, c, plane).scatter(2, flat_idx, x.reshape(n, c, -1)).reshape(n, c, size[0], size[1],
                                                                                      size[2])
    return out if input.dim() == 5 else out.squeeze(0)


class MaxUnpool1d(_MaxUnpoolNd):
    __module__ = 'torch.nn.modules.pooling'
    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        self.kernel_size = _ntuple(kernel_size, 1)
        self.stride = _ntuple(stride if (stride is not None) else kernel_size, 1)
        self.padding = _ntuple(padding, 1)

    def forward(self, input, indices, output_size=None):
        return max_unpool1d(input, indices, self.kernel_size, self.stride, self.padding, output_size)


class MaxUnpool3d(_MaxUnpoolNd):
    __module__ = 'torch.nn.modules.pooling'
    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        self.kernel_size = _ntuple(kernel_size, 3)
        self.stride = _ntuple(stride if (stride is not None) else kernel_size, 3)
        self.padding = _ntuple(padding, 3)

    def forward(self, input, indices, output_size=None):
        return max_unpool3d(input, indices, self.kernel_size, self.stride, self.padding, output_size)


# ---------------------------------------------------------------- CTC

_CTC_NEG = -1e30  # stands for log 0: finite, so that the recursion's gradient has no 0 * inf


def _lengths(v, name):
    if isinstance(v, torch.Tensor):
        return [int(q) for q in v.reshape(-1).tolist()]
    if isinstance(v, int):
        return [v]
    return [int(q) for q in v]


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    # the forward (alpha) recursion of Graves et al. over the blank-extended target, in log space,
    # one sample at a time, each step over every extended position at once; its gradient comes from
    # the ops, plus exp(log_probs) (value 0) where PyTorch's ctc_loss backward adds it (its gradient
    # is the one w.r.t. the logits of a log_softmax), so that log_probs.grad is PyTorch's
    if reduction not in ("none", "mean", "sum"):
        raise ValueError("{} is not a valid value for reduction".format(reduction))
    batched = log_probs.dim() == 3
    lp = log_probs if batched else log_probs.unsqueeze(1)
    T, N, C = lp.shape
    il, tl = _lengths(input_lengths, "input_lengths"), _lengths(target_lengths, "target_lengths")
    if blank < 0 or blank >= C:
        raise RuntimeError("blank must be in label range")
    if len(il) != N:
        raise RuntimeError("input_lengths must be of size batch_size")
    if len(tl) != N:
        raise RuntimeError("target_lengths must be of size batch_size")
    concatenated = batched and targets.dim() == 1  # the targets one after another, else padded rows
    tg = targets if batched else targets.reshape(1, -1)
    offsets = []
    pos = 0
    for n in range(N):
        if il[n] > T:
            raise RuntimeError("Expected input_lengths to have value at most {}, but got value {} (while checking "
                               "arguments for ctc_loss_cpu)".format(T, il[n]))
        if concatenated:
            offsets.append(pos)
            pos += tl[n]
        elif tl[n] > tg.size(1):
            raise RuntimeError("Expected tensor to have size at least {} at dimension 1, but got size {} for argument "
                               "#2 'targets' (while checking arguments for ctc_loss_cpu)".format(tl[n], tg.size(1)))
    flat = tg.reshape(-1).tolist() if concatenated else None
    losses = []
    for n in range(N):
        lab = flat[offsets[n]:offsets[n] + tl[n]] if concatenated else tg[n, :tl[n]].tolist()
        ext = [blank]
        for c in lab:
            ext += [int(c), blank]
        L = len(ext)
        skip = torch.tensor([s >= 2 and ext[s] != blank and ext[s] != ext[s - 2] for s in range(L)])
        idx = torch.tensor(ext, dtype=torch.int64)
        neg = torch.full((L,), _CTC_NEG, dtype=lp.dtype)
        emit = lp[:, n].index_select(1, idx)  # [T, L]
        if il[n] == 0:
            total = torch.tensor(0.0 if L == 1 else float("inf"), dtype=lp.dtype)
            losses.append(total)
            continue
        alpha = torch.where(torch.arange(L) < 2, emit[0], neg)
        pad1 = torch.full((1,), _CTC_NEG, dtype=lp.dtype)
        pad2 = torch.full((2,), _CTC_NEG, dtype=lp.dtype)
        for t in range(1, il[n]):
            a1 = torch.cat([pad1, alpha[:-1]])
            a2 = torch.where(skip, torch.cat([pad2, alpha[:-2]]) if L > 1 else neg, neg)
            alpha = torch.logsumexp(torch.stack([alpha, a1, a2]), 0) + emit[t]
        ends = alpha[-2:] if L > 1 else alpha
        nll = -torch.logsumexp(ends, 0)
        feasible = nll.item() < 1e29
        if not feasible:
            nll = torch.where(torch.tensor(zero_infinity), torch.zeros_like(nll), nll * 0 + float("inf"))
        else:
            lpn = lp[:il[n], n]
            nll = nll + (lpn.exp() - lpn.exp().detach()).sum()
        losses.append(nll)
    loss = torch.stack(losses) if losses else lp.new_zeros(0)
    if zero_infinity:
        loss = torch.where(torch.isinf(loss), torch.zeros_like(loss), loss)
    if reduction == "mean":
        return (loss / torch.tensor(tl, dtype=loss.dtype).clamp(min=1)).mean()
    if reduction == "sum":
        return loss.sum()
    return loss if batched else loss.squeeze(0)


class CTCLoss(_Loss):
    __module__ = 'torch.nn.modules.loss'
    def __init__(self, blank=0, reduction='mean', zero_infinity=False):
        super().__init__(reduction=reduction)
        self.blank = blank
        self.zero_infinity = zero_infinity

    def forward(self, log_probs, targets, input_lengths, target_lengths):
        return ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction,
                        self.zero_infinity)
