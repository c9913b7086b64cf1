# conv2d's results carry PyTorch 1.13's bits on the paths it takes besides
# oneDNN's ungrouped jit:avx2 kernels (conv2d_onednn_bits.py): grouped
# convolutions of multiples of 8 channels per group (oneDNN's jit:avx2 runs each
# group on its own), and ATen's slow_conv2d, which takes float64, a 1x1 kernel
# without stride on a batch under 16, and a batch of one with a kernel of at
# most 3x3, and whose backward works one sample at a time (the weight gradient
# adds each sample's product in turn). Each result is the md5 of its bytes.
import hashlib
import struct

import torch
import torch.nn.functional as F


def md5(t):
    v = t.detach().flatten().tolist()
    fmt = "d" if t.dtype == torch.float64 else "f"
    return hashlib.md5(struct.pack("%d%s" % (len(v), fmt), *v)).hexdigest()[:12]


def run(conv, x, bias_grad=True):
    x.requires_grad_(True)
    y = conv(x)
    (y * torch.randn(y.shape, dtype=y.dtype)).sum().backward()
    grads = [x.grad, conv.weight.grad] + ([conv.bias.grad] if bias_grad else [])
    print(tuple(y.shape), md5(y), *[md5(g) for g in grads])


torch.manual_seed(0)
# groups: ResNeXt-like blocks, strides, a batch of one (groups always take oneDNN)
for n, c, o, h, k, s, p, g in [(2, 16, 32, 20, 3, 1, 1, 2), (1, 16, 16, 12, 3, 1, 1, 2), (2, 24, 48, 45, 3, 1, 1, 3),
                               (4, 32, 32, 14, 3, 2, 1, 4), (2, 64, 64, 9, 5, 1, 2, 8), (3, 16, 8, 11, 3, 2, 0, 1)]:
    run(torch.nn.Conv2d(c, o, k, stride=s, padding=p, groups=g), torch.randn(n, c, h, h))

# 1x1 kernels without stride (ResNet bottlenecks at a small batch), batch 1 with 3x3
run(torch.nn.Conv2d(16, 32, 1), torch.randn(4, 16, 14, 14))
run(torch.nn.Conv2d(64, 16, 1, bias=False), torch.randn(8, 64, 7, 7), bias_grad=False)
run(torch.nn.Conv2d(3, 8, 3, padding=1), torch.randn(1, 3, 20, 20))
run(torch.nn.Conv1d(4, 8, 3, padding=1), torch.randn(1, 4, 30))

# float64 (its bias gradient is a float64 sum over (0, 2, 3): not printed)
for n, c, o, h, k, s, p, g in [(4, 3, 8, 20, 3, 1, 1, 1), (4, 6, 16, 14, 5, 1, 0, 1), (2, 8, 8, 12, 3, 2, 1, 2),
                               (3, 16, 32, 7, 1, 1, 0, 1)]:
    conv = torch.nn.Conv2d(c, o, k, stride=s, padding=p, groups=g).double()
    run(conv, torch.randn(n, c, h, h, dtype=torch.float64), bias_grad=False)

# a functional grouped call
x = torch.randn(2, 16, 10, 10)
w = torch.randn(16, 8, 3, 3, requires_grad=True)
y = F.conv2d(x, w, groups=2, padding=1)
y.square().mean().backward()
print(md5(y), md5(w.grad))
