# Convolutions with padding='same' / 'valid' and padding_mode reflect / replicate /
# circular, as PyTorch 1.13 computes them: 'same' pads each dim by d * (k - 1), half on
# each side and, where that is odd (an even kernel, odd dilation), one more on the right
# by constant_pad_nd before convolving (ATen's _convolution_mode); a padding mode pads the
# input with F.pad by _reversed_padding_repeated_twice, then convolves without padding.
# Module reprs, attributes, _conv_forward (weight-standardized convolutions), errors, and
# the bits of results and gradients (md5 of their bytes) where nnscope's kernels give
# 1.13's bits (dilated, 3-d, and one-channel-per-group convolutions: rounded sums).
import hashlib
import struct

import torch
import torch.nn as nn
import torch.nn.functional as F


def md5(t):
    v = t.detach().flatten().tolist()
    fmt = "d" if t.dtype == torch.float64 else "f"
    return hashlib.md5(struct.pack("%d%s" % (len(v), fmt), *v)).hexdigest()[:12]


def approx(t):
    return round(float(t.detach().double().sum()), 2)


def names(t):
    out, fn = [], t.grad_fn
    while fn is not None:
        out.append(type(fn).__name__)
        nxt = [f for f, _ in fn.next_functions if f is not None and type(f).__name__ != "AccumulateGrad"]
        fn = nxt[0] if nxt else None
    return out


def show(label, f):
    try:
        print(label, f())
    except Exception as e:
        print(label, type(e).__name__, str(e).split(', should')[0])  # (then a set, in a salted order)


# one thread: with more, oneDNN splits the weight and bias gradients' batch (conv_exact_paths.py)
torch.set_num_threads(1)
torch.manual_seed(0)
mods = [
    nn.Conv1d(2, 3, 3, padding='same'),
    nn.Conv1d(2, 3, 4, padding='same', padding_mode='circular'),
    nn.Conv2d(2, 3, 3, padding='same'),
    nn.Conv2d(2, 3, 4, padding='same', dilation=2),
    nn.Conv2d(2, 3, (2, 3), padding='same', bias=False),
    nn.Conv2d(2, 3, 3, padding='valid'),
    nn.Conv2d(2, 4, 3, padding=1, padding_mode='reflect', groups=2),
    nn.Conv2d(2, 3, (3, 5), padding=(1, 2), padding_mode='replicate'),
    nn.Conv2d(2, 3, 3, padding=2, padding_mode='circular', dilation=2),
    nn.Conv2d(2, 3, (3, 4), padding='same', padding_mode='reflect'),
    nn.Conv3d(2, 3, 3, padding='same'),
    nn.Conv3d(2, 3, 2, padding=1, padding_mode='replicate'),
]
for m in mods:
    print(m)
    print(' ', m.padding, m.padding_mode, m._reversed_padding_repeated_twice)
    nd = m.weight.dim() - 2
    x = torch.randn(2, 2, *[6 + i for i in range(nd)], requires_grad=True)
    y = m(x)
    (y * torch.randn(y.shape)).sum().backward()
    exact = nd < 3 and m.dilation == (1,) * nd and m.groups == 1
    bits = md5 if exact else approx
    print(' ', tuple(y.shape), names(y), bits(y), bits(x.grad), bits(m.weight.grad),
          None if m.bias is None else bits(m.bias.grad))

# the functional forms: asymmetric 'same' (even kernels), unbatched input, float64
x = torch.randn(2, 5, 7, requires_grad=True)
w = torch.randn(3, 2, 2, 4, requires_grad=True)
y = F.conv2d(x, w, padding='same')
print(tuple(y.shape), names(y))
y.sum().backward()
print(md5(y), md5(x.grad), md5(w.grad))
xd = torch.randn(1, 2, 5, 6, dtype=torch.float64)
wd = torch.randn(3, 2, 3, 2, dtype=torch.float64)
print(approx(F.conv2d(xd, wd, torch.randn(3, dtype=torch.float64), padding='same', dilation=(1, 3))))
print(md5(F.conv1d(torch.randn(2, 2, 9), torch.randn(3, 2, 4), padding='same', dilation=1)))
print(approx(F.conv1d(torch.randn(2, 2, 9), torch.randn(3, 2, 4), padding='valid', stride=2)))
print(approx(F.conv3d(torch.randn(1, 2, 4, 5, 6), torch.randn(2, 2, 2, 3, 2), padding='same')))
print(md5(torch.conv2d(torch.randn(1, 2, 5, 5), torch.randn(2, 2, 3, 3), None, 1, 'same')))
print(torch.autograd.gradcheck(lambda a, b: F.conv2d(a, b, padding='same', dilation=(1, 3)),
                               (xd.requires_grad_(), wd.requires_grad_())))
mc = nn.Conv2d(2, 2, 3, padding=2, padding_mode='circular').double()
print(torch.autograd.gradcheck(mc, (torch.randn(1, 2, 4, 5, dtype=torch.double, requires_grad=True),)))


# weight standardization: a subclass's forward calls _conv_forward with its own weight
class WSConv2d(nn.Conv2d):
    def forward(self, x):
        w = self.weight
        mean = w.mean(dim=(1, 2, 3), keepdim=True)
        var = w.var(dim=(1, 2, 3), keepdim=True, unbiased=False)
        return self._conv_forward(x, (w - mean) / torch.sqrt(var + 1e-5), self.bias)


c = WSConv2d(3, 4, 3, padding=1, padding_mode='reflect', bias=False)
print(c, isinstance(c, nn.Conv2d))
x = torch.randn(2, 3, 6, 6, requires_grad=True)
y = c(x)
y.pow(2).sum().backward()
print(names(y), md5(y), md5(x.grad), md5(c.weight.grad))
c1 = nn.Conv1d(2, 2, 4, padding='same', padding_mode='circular')
z = torch.randn(1, 2, 7)
print(md5(c1._conv_forward(z, c1.weight * 2, None)))
c.reset_parameters()
c1.reset_parameters()
print(md5(c.weight), md5(c1.weight), md5(c1.bias))

# errors, as _ConvNd.__init__ and ATen raise them
show('stride', lambda: nn.Conv2d(2, 3, 3, stride=2, padding='same'))
show('string', lambda: nn.Conv1d(2, 3, 3, padding='full'))
show('transposed', lambda: nn.ConvTranspose2d(2, 3, 3, padding_mode='reflect'))
show('transposed1d', lambda: nn.ConvTranspose1d(2, 3, 3, padding_mode='circular'))
show('groups', lambda: nn.Conv2d(3, 3, 3, groups=2, padding='same'))
show('F stride', lambda: F.conv2d(torch.randn(1, 2, 5, 7), w, padding='same', stride=2))
show('F string', lambda: F.conv2d(torch.randn(1, 2, 5, 7), w, padding='full'))
show('F 1d string', lambda: F.conv1d(torch.randn(1, 2, 5), torch.randn(1, 2, 3), padding='foo'))
show('F dims', lambda: F.conv2d(torch.randn(2, 5), w, padding='same'))
show('F valid', lambda: tuple(F.conv2d(torch.randn(1, 2, 5, 7), w, padding='valid', stride=(1, 2)).shape))
show('reflect too big', lambda: nn.Conv2d(1, 1, 3, padding=4, padding_mode='reflect')(torch.randn(1, 1, 3, 3)))
