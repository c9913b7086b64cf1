# 3-D convolutions and pools, Fold/Unfold and ChannelShuffle, written in the language over
# the built-in ops (each of which runs its kernel behind core's kernel boundary):
#   conv3d            checks, 'same' padding, unbatched input; then torch.convolution, core's
#   conv_transpose3d  conv3d ops (vol2col + GEMM, core/conv3d.c; ConvolutionBackward0)
#   max/avg pools     windows gathered by index_select along each spatial dim, then
#                     max (with PyTorch's flat indices) or sum / divisor
#   unfold / fold     index_select / index_add over PyTorch's im2col / col2im positions
# Autograd comes from the ops they are made of, so every one is differentiable as
# PyTorch's is (their grad_fn names are those of the last op, not PyTorch's).
# Argument checks and messages are PyTorch 1.13's.
import math
import torch
import torch.amp.autocast_mode as _autocast
from torch import nn
import torch.nn.functional as F
from torch.nn._grad_names import grad_fn_name
from torch.nn._pool_bases import _MaxPoolNd, _AvgPoolNd, _AdaptiveAvgPoolNd, _AdaptiveMaxPoolNd

_TYPE_NAMES = {torch.float32: "Float", torch.float64: "Double", torch.float16: "Half",
               torch.bfloat16: "BFloat16", torch.int64: "Long", torch.int32: "Int",
               torch.int16: "Short", torch.int8: "Char", torch.uint8: "Byte", torch.bool: "Bool"}


def _tuple(v, n):
    if isinstance(v, (tuple, list)):
        return tuple(v)
    return (v,) * n


def _size_str(t):
    return "[" + ", ".join(str(s) for s in t.shape) + "]"


# ---------------------------------------------------------------- convolutions

def _conv_args(weight, stride, padding, dilation):
    k = weight.dim() - 2
    stride = list(_tuple(stride, 3))
    dilation = list(_tuple(dilation, 3))
    pad_str = padding if isinstance(padding, str) else None
    padding = [0] * 3 if pad_str is not None else list(_tuple(padding, 3))
    for name, v in (("stride", stride), ("padding", padding), ("dilation", dilation)):
        if len(v) != k and len(v) != 1:
            raise RuntimeError("expected {} to be a single integer value or a list of {} values to match the "
                               "convolution dimensions, but got {}={}".format(name, k, name, v))
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError("dilation should be greater than zero")
    return stride, padding, dilation, pad_str


def _check_dtypes(input, weight, bias):
    if input.dtype != weight.dtype:
        raise RuntimeError("expected scalar type {} but found {}".format(
            _TYPE_NAMES.get(input.dtype, str(input.dtype)), _TYPE_NAMES.get(weight.dtype, str(weight.dtype))))
    if bias is not None and bias.dtype != weight.dtype:
        raise RuntimeError("expected scalar type {} but found {}".format(
            _TYPE_NAMES.get(weight.dtype, str(weight.dtype)), _TYPE_NAMES.get(bias.dtype, str(bias.dtype))))


def _batched(input, name, sample_dims):
    # sample_dims: the rank of one sample; one more is a batch
    if input.dim() == sample_dims:
        return input.unsqueeze(0), False
    if input.dim() == sample_dims + 1:
        return input, True
    raise RuntimeError("Expected {}D (unbatched) or {}D (batched) input to {}, but got input of size: {}".format(
        sample_dims, sample_dims + 1, name, _size_str(input)))


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    x, batched = _batched(input, "conv3d", 4)
    stride, padding, dilation, pad_str = _conv_args(weight, stride, padding, dilation)
    if pad_str is not None and pad_str not in ("same", "valid"):
        raise RuntimeError("Invalid padding string: '{}'".format(pad_str))
    if pad_str == "same" and any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if weight.size(0) % groups != 0:
        raise RuntimeError("Given groups={}, expected weight to be divisible by {} at dimension 0, but got weight "
                           "of size [{}] instead".format(groups, groups, _size_str(weight)))
    if x.size(1) != weight.size(1) * groups:
        raise RuntimeError("Given groups={}, weight of size {}, expected input{} to have {} channels, but got {} "
                           "channels instead".format(groups, _size_str(weight), _size_str(x),
                                                     weight.size(1) * groups, x.size(1)))
    if bias is not None and (bias.dim() != 1 or bias.size(0) != weight.size(0)):
        raise RuntimeError("Given weight of size {}, expected bias to be 1-dimensional with {} elements, but got "
                           "bias of size {} instead".format(_size_str(weight), weight.size(0), _size_str(bias)))
    _check_dtypes(x, weight, bias)
    if pad_str is not None:  # ATen's _convolution_mode (core's, shared with conv1d and conv2d)
        out = torch._convolution_mode(x, weight, bias, stride, pad_str, dilation, groups)
        return out if batched else out.squeeze(0)
    kd, kh, kw = weight.shape[2:]
    N, C, D, H, W = x.shape
    sizes = [D + 2 * padding[0], H + 2 * padding[1], W + 2 * padding[2]]
    kernel = [dilation[0] * (kd - 1) + 1, dilation[1] * (kh - 1) + 1, dilation[2] * (kw - 1) + 1]
    if any(sizes[i] < kernel[i] for i in range(3)):
        raise RuntimeError("Calculated padded input size per channel: ({} x {} x {}). Kernel size: ({} x {} x {}). "
                           "Kernel size can't be greater than actual input size".format(*sizes, *kernel))
    out = torch.convolution(x, weight, bias, stride, padding, dilation, False, [0, 0, 0], groups)
    return out if batched else out.squeeze(0)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    x, batched = _batched(input, "conv_transpose3d", 4)
    if isinstance(padding, str):
        raise TypeError("conv_transpose3d(): argument 'padding' must be tuple of ints, not str")
    stride, padding, dilation, _ = _conv_args(weight, stride, padding, dilation)
    output_padding = list(_tuple(output_padding, 3))
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if weight.size(0) % groups != 0:
        raise RuntimeError("Given groups={}, expected weight to be divisible by {} at dimension 0, but got weight "
                           "of size [{}] instead".format(groups, groups, _size_str(weight)))
    if x.size(1) != weight.size(0):
        raise RuntimeError("Given transposed=1, weight of size {}, expected input{} to have {} channels, but got {} "
                           "channels instead".format(_size_str(weight), _size_str(x), weight.size(0), x.size(1)))
    cout = weight.size(1) * groups
    if bias is not None and (bias.dim() != 1 or bias.size(0) != cout):
        raise RuntimeError("Given transposed=1, weight of size {}, expected bias to be 1-dimensional with {} "
                           "elements, but got bias of size {} instead".format(_size_str(weight), cout,
                                                                              _size_str(bias)))
    if any(output_padding[i] >= stride[i] and output_padding[i] >= dilation[i] for i in range(3)):
        raise RuntimeError("output padding must be smaller than either stride or dilation, but got "
                           "output_padding_depth: {} output_padding_height: {} output_padding_width: {} "
                           "stride_depth: {} stride_height: {} stride_width: {} dilation_depth: {} "
                           "dilation_height: {} dilation_width: {}".format(*output_padding, *stride, *dilation))
    _check_dtypes(x, weight, bias)
    out = torch.convolution(x, weight, bias, stride, padding, dilation, True, output_padding, groups)
    return out if batched else out.squeeze(0)


class _ConvNd(nn.Module):
    __module__ = 'torch.nn.modules.conv'
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, transposed,
                 output_padding, groups, bias, padding_mode, device=None, dtype=None):
        super().__init__()
        if groups <= 0:
            raise ValueError('groups must be a positive integer')
        if in_channels % groups != 0:
            raise ValueError('in_channels must be divisible by groups')
        if out_channels % groups != 0:
            raise ValueError('out_channels must be divisible by groups')
        valid_padding_strings = {'same', 'valid'}
        if isinstance(padding, str):
            if padding not in valid_padding_strings:
                raise ValueError("Invalid padding string {!r}, should be one of {}".format(
                    padding, valid_padding_strings))
            if padding == 'same' and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        valid_padding_modes = {'zeros', 'reflect', 'replicate', 'circular'}
        if padding_mode not in valid_padding_modes:
            raise ValueError("padding_mode must be one of {}, but got padding_mode='{}'".format(
                valid_padding_modes, padding_mode))
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.transposed = transposed
        self.output_padding = output_padding
        self.groups = groups
        self.padding_mode = padding_mode
        rev = [0, 0] * len(kernel_size)
        if isinstance(padding, str):
            if padding == 'same':
                for d, k, i in zip(dilation, kernel_size, range(len(kernel_size) - 1, -1, -1)):
                    total = d * (k - 1)
                    rev[2 * i] = total // 2
                    rev[2 * i + 1] = total - total // 2
        else:
            for i in range(len(padding)):
                rev[2 * i] = rev[2 * i + 1] = padding[len(padding) - 1 - i]
            rev = tuple(rev)  # _reverse_repeat_tuple's
        self._reversed_padding_repeated_twice = rev
        if transposed:
            shape = (in_channels, out_channels // groups) + tuple(kernel_size)
        else:
            shape = (out_channels, in_channels // groups) + tuple(kernel_size)
        self.weight = nn.Parameter(torch.empty(shape, dtype=dtype))
        if bias:
            self.bias = nn.Parameter(torch.empty(out_channels, dtype=dtype))
        else:
            self.register_parameter('bias', None)
        self.reset_parameters()

    def reset_parameters(self):
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.weight.size(1)
            for k in self.weight.shape[2:]:
                fan_in *= k
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                nn.init.uniform_(self.bias, -bound, bound)

    def extra_repr(self):
        s = '{}, {}, kernel_size={}, stride={}'.format(self.in_channels, self.out_channels, self.kernel_size,
                                                     self.stride)
        if self.padding != (0,) * len(self.padding):
            s += ', padding={}'.format(self.padding)
        if self.dilation != (1,) * len(self.dilation):
            s += ', dilation={}'.format(self.dilation)
        if self.output_padding != (0,) * len(self.output_padding):
            s += ', output_padding={}'.format(self.output_padding)
        if self.groups != 1:
            s += ', groups={}'.format(self.groups)
        if self.bias is None:
            s += ', bias=False'
        if self.padding_mode != 'zeros':
            s += ', padding_mode={}'.format(self.padding_mode)
        return s


class Conv3d(_ConvNd):
    __module__ = 'torch.nn.modules.conv'
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode='zeros', device=None, dtype=None):
        kernel_size = _tuple(kernel_size, 3)
        stride = _tuple(stride, 3)
        padding = padding if isinstance(padding, str) else _tuple(padding, 3)
        dilation = _tuple(dilation, 3)
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, False, (0, 0, 0),
                         groups, bias, padding_mode, device, dtype)

    def _conv_forward(self, input, weight, bias):
        if self.padding_mode != 'zeros':
            return conv3d(F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode), weight,
                          bias, self.stride, 0, self.dilation, self.groups)
        return conv3d(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)


class _ConvTransposeNd(_ConvNd):
    __module__ = 'torch.nn.modules.conv'
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, transposed,
                 output_padding, groups, bias, padding_mode, device=None, dtype=None):
        if padding_mode != 'zeros':
            raise ValueError('Only "zeros" padding mode is supported for {}'.format(self.__class__.__name__))
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, transposed,
                         output_padding, groups, bias, padding_mode, device, dtype)


class ConvTranspose3d(_ConvTransposeNd):
    __module__ = 'torch.nn.modules.conv'
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode='zeros', device=None, dtype=None):
        super().__init__(in_channels, out_channels, _tuple(kernel_size, 3), _tuple(stride, 3),
                         _tuple(padding, 3), _tuple(dilation, 3), True, _tuple(output_padding, 3), groups, bias,
                         padding_mode, device, dtype)

    def _output_padding(self, input, output_size):
        if output_size is None:
            return self.output_padding
        lead = 2 if input.dim() == 5 else 1  # the batch and channel dims, or the channel dim alone
        if len(output_size) == lead + 3:
            output_size = output_size[lead:]
        if len(output_size) != 3:
            raise ValueError("ConvTranspose{}D: for {}D input, output_size must have {} or {} elements (got {})"
                             .format(3, input.dim(), 3, lead + 3, len(output_size)))
        mins, maxs = [], []
        for d in range(3):
            mins.append((input.size(d + lead) - 1) * self.stride[d] - 2 * self.padding[d] +
                        self.dilation[d] * (self.kernel_size[d] - 1) + 1)
            maxs.append(mins[d] + self.stride[d] - 1)
        for d in range(3):
            if output_size[d] < mins[d] or output_size[d] > maxs[d]:
                raise ValueError("requested an output size of {}, but valid sizes range from {} to {} (for an input "
                                 "of {})".format(output_size, mins, maxs, input.size()[2:]))
        return tuple(output_size[d] - mins[d] for d in range(3))

    def forward(self, input, output_size=None):
        return conv_transpose3d(input, self.weight, self.bias, self.stride, self.padding,
                                self._output_padding(input, output_size), self.groups, self.dilation)


# ---------------------------------------------------------------- 3-d pools

def _pool_len(size, k, s, p, d, ceil_mode):
    out = (size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out


def _pool_input(input, name):
    if input.dim() == 5 and all(s > 0 for s in input.shape[1:]):
        return input, True
    if input.dim() == 4 and all(s > 0 for s in input.shape):
        return input.unsqueeze(0), False
    raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")


def _pool_args(name, kernel_size, stride, padding, dilation):
    k = _tuple(kernel_size, 3)
    if len(k) != 3:
        raise RuntimeError("{}: kernel_size must either be a single int, or a tuple of three ints".format(name)
                           if name == "max_pool3d" else
                           "{}: kernel_size must be a single int, or a tuple of three ints".format(name))
    s = k if stride is None or (isinstance(stride, (tuple, list)) and len(stride) == 0) else _tuple(stride, 3)
    if len(s) != 3:
        raise RuntimeError("{}: stride must either be omitted, a single int, or a tuple of three ints".format(name))
    p = _tuple(padding, 3)
    if len(p) != 3:
        raise RuntimeError("{}: padding must either be a single int, or a tuple of three ints".format(name)
                           if name == "max_pool3d" else
                           "{}: padding must be a single int, or a tuple of three ints".format(name))
    d = _tuple(dilation, 3)
    if len(d) != 3:
        raise RuntimeError("max_pool3d: dilation must be either a single int, or a tuple of three ints")
    if any(v == 0 for v in s):
        raise RuntimeError("stride should not be zero")
    if any(v <= 0 for v in k):
        raise RuntimeError("kernel size should be greater than zero, but got kT: {} kH: {} kW: {}".format(*k))
    if any(v <= 0 for v in d):
        raise RuntimeError("dilation should be greater than zero, but got dilationT: {} dilationH: {} "
                           "dilationW: {}".format(*d))
    for i in range(3):
        if p[i] > k[i] // 2:
            raise RuntimeError("pad should be at most half of kernel size, but got pad={} and kernel_size={}"
                               .format(p[i], k[i]))
    return k, s, p, d


def _check_float(x, name):
    if not x.is_floating_point():
        raise RuntimeError('"{}" not implemented for \'{}\''.format(name, _TYPE_NAMES.get(x.dtype, str(x.dtype))))


def _windows(size, out, k, s, p, d):
    # rows of input positions, one row per output position; a position in the padding
    # repeats one of its window's own positions, so it changes neither a max nor its index
    rows = []
    for o in range(out):
        row = [o * s - p + j * d for j in range(k)]
        inside = [v for v in row if 0 <= v < size]
        fill = inside[0] if inside else 0
        rows.append([v if 0 <= v < size else fill for v in row])
    return rows


def _adaptive_windows(size, out):
    rows = []
    for o in range(out):
        start = (o * size) // out
        end = -((-(o + 1) * size) // out)
        rows.append(list(range(start, end)))
    return rows


def _max_over(x, rows3):
    # x [N, C, D, H, W]; rows3: three lists of rows of positions (each row padded to one length)
    N, C, D, H, W = x.shape
    iD = torch.tensor(rows3[0], dtype=torch.int64)
    iH = torch.tensor(rows3[1], dtype=torch.int64)
    iW = torch.tensor(rows3[2], dtype=torch.int64)
    OD, KD = iD.shape
    OH, KH = iH.shape
    OW, KW = iW.shape
    v = x.index_select(2, iD.reshape(-1)).reshape(N, C, OD, KD, H, W)
    v = v.index_select(4, iH.reshape(-1)).reshape(N, C, OD, KD, OH, KH, W)
    v = v.index_select(6, iW.reshape(-1)).reshape(N, C, OD, KD, OH, KH, OW, KW)
    v = v.permute(0, 1, 2, 4, 6, 3, 5, 7).reshape(N, C, OD, OH, OW, KD * KH * KW)
    values, arg = v.max(-1)
    flat = ((iD.reshape(OD, 1, 1, KD, 1, 1) * H + iH.reshape(1, OH, 1, 1, KH, 1)) * W +
            iW.reshape(1, 1, OW, 1, 1, KW)).reshape(1, 1, OD, OH, OW, KD * KH * KW).expand(N, C, OD, OH, OW,
                                                                                             KD * KH * KW)
    indices = flat.gather(5, arg.unsqueeze(5)).squeeze(5)
    return values, indices


def _pad_rows(rows):
    width = max(len(r) for r in rows)
    return [r + [r[0]] * (width - len(r)) for r in rows]


@grad_fn_name("MaxPool3DWithIndicesBackward0")
def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    input, = _autocast._fp32(input)  # 1.13's CPU autocast "fp32" list
    x, batched = _pool_input(input, "max_pool3d")
    k, s, p, d = _pool_args("max_pool3d", kernel_size, stride, padding, dilation)
    _check_float(x, "max_pool3d_with_indices_cpu")
    sizes = x.shape[2:]
    outs = [_pool_len(sizes[i], k[i], s[i], p[i], d[i], ceil_mode) for i in range(3)]
    if any(o < 1 for o in outs):
        raise RuntimeError("Given input size: ({}x{}x{}x{}). Calculated output size: ({}x{}x{}x{}). Output size "
                           "is too small".format(x.size(1), *sizes, x.size(1), *outs))
    rows = [_windows(sizes[i], outs[i], k[i], s[i], p[i], d[i]) for i in range(3)]
    values, indices = _max_over(x, rows)
    if not batched:
        values, indices = values.squeeze(0), indices.squeeze(0)
    return (values, indices) if return_indices else values


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def _sum_windows(x, dim, rows):
    # rows: windows of positions along dim, each padded with positions of a zero appended there
    idx = torch.tensor(rows, dtype=torch.int64)
    shape = list(x.shape)
    v = x.index_select(dim, idx.reshape(-1))
    return v.reshape(shape[:dim] + list(idx.shape) + shape[dim + 1:]).sum(dim + 1)


def _zero_padded_sums(x, rows3, sizes):
    # x [N, C, D, H, W]; each dim gets one zero appended at position sizes[i] for window entries outside
    for i in range(3):
        dim = 2 + i
        pad = [0, 0] * 3
        pad[2 * (2 - i) + 1] = 1
        x = _sum_windows(F.pad(x, pad), dim, rows3[i])
    return x


def _outer3(a, b, c, like):
    t = torch.tensor(a, dtype=like.dtype).reshape(-1, 1, 1) * torch.tensor(b, dtype=like.dtype).reshape(1, -1, 1)
    return t * torch.tensor(c, dtype=like.dtype).reshape(1, 1, -1)


@grad_fn_name("AvgPool3DBackward0")
def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    input, = _autocast._fp32(input)  # 1.13's CPU autocast "fp32" list
    x, batched = _pool_input(input, "avg_pool3d")
    k, s, p, _ = _pool_args("avg_pool3d", kernel_size, stride, padding, 1)
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    _check_float(x, "avg_pool3d_out_frame")
    sizes = list(x.shape[2:])
    if any(sizes[i] < k[i] for i in range(3)) and not any(p):
        raise RuntimeError("input image (T: {} H: {} W: {}) smaller than kernel size (kT: {} kH: {} kW: {})"
                           .format(*sizes, *k))
    outs = [_pool_len(sizes[i], k[i], s[i], p[i], 1, ceil_mode) for i in range(3)]
    if any(o < 1 for o in outs):
        raise RuntimeError("Given input size: ({}x{}x{}x{}). Calculated output size: ({}x{}x{}x{}). Output size "
                           "is too small".format(x.size(1), *sizes, x.size(1), *outs))
    rows, pools, counts = [], [], []
    for i in range(3):
        r, pl, cn = [], [], []
        for o in range(outs[i]):
            start = o * s[i] - p[i]
            end = min(start + k[i], sizes[i] + p[i])
            pl.append(end - start)
            cn.append(min(end, sizes[i]) - max(start, 0))
            r.append([j if 0 <= j < sizes[i] else sizes[i] for j in range(start, start + k[i])])
        rows.append(r)
        pools.append(pl)
        counts.append(cn)
    total = _zero_padded_sums(x, rows, sizes)
    if divisor_override is not None:
        out = total / divisor_override
    else:
        out = total / _outer3(*(pools if count_include_pad else counts), x)
    return out if batched else out.squeeze(0)


def _adaptive_sizes(name, output_size, sizes):
    o = _tuple(output_size, 3)
    if len(o) != 3:
        raise RuntimeError("adaptive_avg_pool3d: output_size must be 3" if name == "avg" else
                           "adaptive_max_pool3d(): internal error: output_size.size() must be 3")
    return [sizes[i] if o[i] is None else o[i] for i in range(3)]


@grad_fn_name(lambda input, output_size: "MeanBackward1" if _tuple(output_size, 3) == (1, 1, 1) else "AdaptiveAvgPool3DBackward0")
def adaptive_avg_pool3d(input, output_size):
    input, = _autocast._fp32(input)  # 1.13's CPU autocast "fp32" list
    if input.dim() not in (4, 5):
        raise RuntimeError("adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got {}".format(_size_str(input)))
    x = input if input.dim() == 5 else input.unsqueeze(0)
    sizes = list(x.shape[2:])
    outs = _adaptive_sizes("avg", output_size, sizes)
    _check_float(x, "adaptive_avg_pool3d_cpu")
    wins = [_adaptive_windows(sizes[i], outs[i]) for i in range(3)]
    rows = []
    for i in range(3):
        width = max(len(r) for r in wins[i]) if wins[i] else 1
        rows.append([r + [sizes[i]] * (width - len(r)) for r in wins[i]])
    total = _zero_padded_sums(x, rows, sizes)
    out = total / _outer3(*[[len(r) for r in wins[i]] for i in range(3)], x)
    return out if input.dim() == 5 else out.squeeze(0)


@grad_fn_name("AdaptiveMaxPool3DBackward0")
def adaptive_max_pool3d(input, output_size, return_indices=False):
    if input.dim() not in (4, 5):
        raise RuntimeError("adaptive_max_pool3d(): Expected 4D or 5D tensor, but got: {}".format(_size_str(input)))
    x = input if input.dim() == 5 else input.unsqueeze(0)
    sizes = list(x.shape[2:])
    outs = _adaptive_sizes("max", output_size, sizes)
    _check_float(x, "adaptive_max_pool3d_cpu")
    rows = [_pad_rows(_adaptive_windows(sizes[i], outs[i])) for i in range(3)]
    values, indices = _max_over(x, rows)
    if input.dim() == 4:
        values, indices = values.squeeze(0), indices.squeeze(0)
    return (values, indices) if return_indices else values


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    return adaptive_max_pool3d(input, output_size, True)


class MaxPool3d(_MaxPoolNd):
    __module__ = 'torch.nn.modules.pooling'
    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__(kernel_size, stride, padding, dilation, return_indices, ceil_mode)

    def forward(self, input):
        return max_pool3d(input, self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode,
                          self.return_indices)


class AvgPool3d(_AvgPoolNd):
    __module__ = 'torch.nn.modules.pooling'
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def extra_repr(self):
        return 'kernel_size={}, stride={}, padding={}'.format(self.kernel_size, self.stride, self.padding)

    def forward(self, input):
        return avg_pool3d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                          self.count_include_pad, self.divisor_override)


class AdaptiveAvgPool3d(_AdaptiveAvgPoolNd):
    __module__ = 'torch.nn.modules.pooling'
    def forward(self, input):
        return adaptive_avg_pool3d(input, self.output_size)


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    __module__ = 'torch.nn.modules.pooling'
    def forward(self, input):
        return adaptive_max_pool3d(input, self.output_size, self.return_indices)


# the 1-d form through the built-in 2-d pool over a height of 1 (its indices are the 1-d ones)
def adaptive_max_pool1d(input, output_size, return_indices=False):
    if input.dim() not in (2, 3):
        raise RuntimeError("Expected 2 to 3 dimensions, but got {}-dimensional tensor for argument #1 'self' (while "
                           "checking arguments for adaptive_max_pool1d)".format(input.dim()))
    if isinstance(output_size, (tuple, list)):
        if len(output_size) != 1:
            raise RuntimeError("adaptive_max_pool1d() argument 'output_size' should contain one int (got {})".format(
                len(output_size)))
        output_size = output_size[0]
    values, indices = F.adaptive_max_pool2d(input.unsqueeze(-2), (1, output_size), return_indices=True)
    values, indices = values.squeeze(-2), indices.squeeze(-2)
    return (values, indices) if return_indices else values


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    return adaptive_max_pool1d(input, output_size, True)



class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    __module__ = 'torch.nn.modules.pooling'
    def forward(self, input):
        return adaptive_max_pool1d(input, self.output_size, self.return_indices)


# ---------------------------------------------------------------- fold / unfold

def _fold_args(name, kernel_size, dilation, padding, stride):
    k, d, p, s = _tuple(kernel_size, 2), _tuple(dilation, 2), _tuple(padding, 2), _tuple(stride, 2)
    for what, v in (("kernel_size", k), ("dilation", d), ("padding", p), ("stride", s)):
        if len(v) != 2:
            raise RuntimeError("It is expected {} equals to 2, but got size {}".format(what, len(v)))
    if k[0] <= 0 or k[1] <= 0:
        raise RuntimeError("kernel size should be greater than zero, but got kernel_height: {} kernel_width: {}"
                           .format(*k))
    if d[0] <= 0 or d[1] <= 0:
        raise RuntimeError("dilation should be greater than zero, but got dilation_height: {} dilation_width: {}"
                           .format(*d))
    if p[0] < 0 or p[1] < 0:
        raise RuntimeError("padding should be non-negative, but got pad_height: {} pad_width: {}".format(*p))
    if s[0] <= 0 or s[1] <= 0:
        raise RuntimeError("stride should be greater than zero, but got stride_height: {} stride_width: {}"
                           .format(*s))
    return k, d, p, s


def _block_positions(hp_wp_w, k, d, s, blocks):
    # flat positions in the padded image (row width hp_wp_w) of every (ki, kj, i, j), in im2col's order
    rows = (torch.arange(k[0]) * d[0]).reshape(k[0], 1, 1, 1) + (torch.arange(blocks[0]) * s[0]).reshape(
        1, 1, blocks[0], 1)
    cols = (torch.arange(k[1]) * d[1]).reshape(1, k[1], 1, 1) + (torch.arange(blocks[1]) * s[1]).reshape(
        1, 1, 1, blocks[1])
    return (rows * hp_wp_w + cols).reshape(-1)


@grad_fn_name("Im2ColBackward0")
def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    k, d, p, s = _fold_args("unfold", kernel_size, dilation, padding, stride)
    if input.dim() not in (3, 4):
        if input.dim() < 3:
            raise IndexError("Dimension out of range (expected to be in range of [{}, {}], but got {})".format(
                -max(input.dim(), 1), max(input.dim(), 1) - 1, 2 if input.dim() == 2 else input.dim()))
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero "
                           "dimensions for input, but got: {}".format(_size_str(input)))
    x = input if input.dim() == 4 else input.unsqueeze(0)
    N, C, H, W = x.shape
    blocks = [(H + 2 * p[0] - (d[0] * (k[0] - 1) + 1)) // s[0] + 1,
              (W + 2 * p[1] - (d[1] * (k[1] - 1) + 1)) // s[1] + 1]
    if blocks[0] < 1 or blocks[1] < 1:
        raise RuntimeError("Given input with spatial size ({}, {}), kernel_size=({}, {}), dilation=({}, {}), "
                           "padding=({}, {}), calculated shape of the array of sliding blocks as ({}, {}), but its "
                           "components must be at least one.".format(H, W, *k, *d, *p, *blocks))
    if p[0] or p[1]:
        x = F.pad(x, (p[1], p[1], p[0], p[0]))
    Hp, Wp = H + 2 * p[0], W + 2 * p[1]
    idx = _block_positions(Wp, k, d, s, blocks)
    cols = x.reshape(N, C, Hp * Wp).index_select(2, idx).reshape(N, C * k[0] * k[1], blocks[0] * blocks[1])
    return cols if input.dim() == 4 else cols.squeeze(0)


@grad_fn_name("Col2ImBackward0")
def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    out = _tuple(output_size, 2)
    if len(out) != 2:
        raise RuntimeError("It is expected output_size equals to 2, but got size {}".format(len(out)))
    k, d, p, s = _fold_args("fold", kernel_size, dilation, padding, stride)
    if input.dim() not in (2, 3) or any(v == 0 for v in input.shape[1:]):
        raise RuntimeError("Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and "
                           "non-zero dimensions for input, but got: {}".format(_size_str(input)))
    x = input if input.dim() == 3 else input.unsqueeze(0)
    N, CK, L = x.shape
    kk = k[0] * k[1]
    if CK % kk != 0:
        raise RuntimeError("Expected size of input's dimension 1 to be divisible by the product of kernel_size, "
                           "but got input.size(1)={} and kernel_size=({}, {}).".format(CK, *k))
    blocks = [(out[0] + 2 * p[0] - (d[0] * (k[0] - 1) + 1)) // s[0] + 1,
              (out[1] + 2 * p[1] - (d[1] * (k[1] - 1) + 1)) // s[1] + 1]
    if blocks[0] < 1 or blocks[1] < 1:
        raise RuntimeError("Given output_size=({}, {}), kernel_size=({}, {}), dilation=({}, {}), padding=({}, {}), "
                           "calculated shape of the array of sliding blocks as ({}, {}), but its components must be "
                           "at least one.".format(*out, *k, *d, *p, *blocks))
    if L != blocks[0] * blocks[1]:
        raise RuntimeError("Given output_size=({}, {}), kernel_size=({}, {}), dilation=({}, {}), padding=({}, {}), "
                           "stride=({}, {}), expected size of input's dimension 2 to match the calculated number of "
                           "sliding blocks {} * {} = {}, but got input.size(2)={}.".format(
                               *out, *k, *d, *p, *s, blocks[0], blocks[1], blocks[0] * blocks[1], L))
    C = CK // kk
    Hp, Wp = out[0] + 2 * p[0], out[1] + 2 * p[1]
    idx = _block_positions(Wp, k, d, s, blocks)
    img = x.new_zeros(N, C, Hp * Wp).index_add(2, idx, x.reshape(N, C, kk * L)).reshape(N, C, Hp, Wp)
    img = img[:, :, p[0]:p[0] + out[0], p[1]:p[1] + out[1]].contiguous()
    return img if input.dim() == 3 else img.squeeze(0)


class Fold(nn.Module):
    __module__ = 'torch.nn.modules.fold'
    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size = output_size
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def extra_repr(self):
        return 'output_size={}, kernel_size={}, dilation={}, padding={}, stride={}'.format(
            self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)

    def forward(self, input):
        return fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)


class Unfold(nn.Module):
    __module__ = 'torch.nn.modules.fold'
    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def extra_repr(self):
        return 'kernel_size={}, dilation={}, padding={}, stride={}'.format(
            self.kernel_size, self.dilation, self.padding, self.stride)

    def forward(self, input):
        return unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)


# ---------------------------------------------------------------- channel shuffle

class _ChannelShuffle(torch.autograd.Function):
    # PyTorch 1.13 has no derivative for channel_shuffle: its node is NotImplemented and backward raises
    _node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, input, groups):
        return _shuffled(input, groups)

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for channel_shuffle is not implemented")


def _shuffled(input, groups):
    c = input.size(1)
    rest = list(input.shape[2:])
    n = input.size(0)
    return input.reshape([n, groups, c // groups] + rest).transpose(1, 2).reshape([n, c] + rest)


def channel_shuffle(input, groups):
    if input.dim() <= 2:
        raise RuntimeError("channel_shuffle expects input with > 2 dims, but got input with sizes {}".format(
            _size_str(input)))
    if groups <= 0:
        raise RuntimeError("Number of groups to divide channels in must be positive. Value of groups:{}".format(
            groups))
    c = input.size(1)
    if c % groups != 0:
        raise RuntimeError("Number of channels must be divisible by groups. Got {} channels and {} groups.".format(
            c, groups))
    if input.requires_grad and torch.is_grad_enabled():
        return _ChannelShuffle.apply(input, groups)
    return _shuffled(input, groups)


class ChannelShuffle(nn.Module):
    __module__ = 'torch.nn.modules.channelshuffle'
    def __init__(self, groups):
        super().__init__()
        self.groups = groups

    def extra_repr(self):
        return 'groups={}'.format(self.groups)

    def forward(self, input):
        return channel_shuffle(input, self.groups)
