# conv2d's results carry PyTorch 1.13's bits on the paths it takes besides
# oneDNN's ungrouped jit:avx2 kernels (conv2d_onednn_bits.py): grouped
# convolutions of multiples of 8 channels per group (oneDNN's jit:avx2 runs each
# group on its own); depthwise ones (oneDNN's jit_dw, the same sums); ATen's
# slow_conv2d, which takes float64, a 1x1 kernel without stride on a batch under
# 16, and a batch of one with a small kernel and input, and whose backward works
# one sample at a time (the weight gradient adds each sample's product in turn);
# and oneDNN's jit_1x1 kernels, which take a 1x1 kernel with a stride or on a
# batch of 16 or more (input channels summed in blocks of 128, output channels
# in blocks of 64 for the input gradient, output positions in chunks of 128 for
# the weight gradient, each block's sum added to the sum so far). Each result
# is the md5 of its bytes. Which path 1.13 takes for a 1x1 kernel depends on its
# thread count: one thread here.
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


torch.set_num_threads(1)
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

# depthwise (MobileNet's 3x3 blocks), oneDNN's jit_dw: the output and the input gradient;
# the weight and bias gradients too on planes of up to 28 rows (on larger ones jit_dw
# splits the weight gradient's sum, which nnscope does not follow)
for n, c, h, k, s, p in [(4, 32, 14, 3, 1, 1), (4, 32, 14, 3, 2, 1), (1, 32, 14, 3, 1, 1), (16, 24, 28, 3, 1, 1),
                         (3, 10, 9, 3, 1, 0)]:
    run(torch.nn.Conv2d(c, c, k, stride=s, padding=p, groups=c), torch.randn(n, c, h, h))
for n, c, h, k, s, p in [(2, 16, 56, 3, 1, 1), (2, 8, 112, 3, 2, 1), (2, 12, 20, 5, 1, 2), (2, 40, 7, 7, 1, 3)]:
    conv = torch.nn.Conv2d(c, c, k, stride=s, padding=p, groups=c)
    x = torch.randn(n, c, h, h, requires_grad=True)
    y = conv(x)
    (y * torch.randn(y.shape)).sum().backward()
    print(tuple(y.shape), md5(y), md5(x.grad))

# 1x1 kernels through oneDNN's jit_1x1: ResNet's downsampling and bottlenecks at batch 16
for n, c, o, h, s in [(4, 16, 32, 14, 2), (2, 256, 512, 28, 2), (16, 256, 64, 8, 1), (16, 64, 256, 20, 1),
                      (16, 13, 7, 5, 1), (16, 512, 300, 4, 1)]:
    run(torch.nn.Conv2d(c, o, 1, stride=s), torch.randn(n, c, h, h))

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
