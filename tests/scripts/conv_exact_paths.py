# Convolutions on more of PyTorch 1.13's CPU paths, bit for bit (each result the
# md5 of its bytes, so a last-bit difference shows):
# - conv_transpose1d/2d/3d (ATen's slow_conv_transpose2d/3d: per sample one GEMM
#   and col2im; the bias added after), with stride, padding, output_padding,
#   dilation and groups, and their input, weight and bias gradients;
# - dilated conv1d/conv2d, whose output and input gradient oneDNN's jit:avx2
#   sums in the same order as an undilated one (the weight and bias gradients
#   are oneDNN's GEMM: not printed here);
# - the weight and bias gradients with more than one thread: oneDNN splits the
#   batch over threads (jit:avx2 as its reduce_balancer_t decides, jit_dw over
#   the threads left when each block of 8 channels has one) and adds the parts,
#   so the bits depend on torch.set_num_threads, as PyTorch's do;
# - padding_mode 'circular' (ATen's _pad_circular: the last dim's borders first),
#   'reflect', 'replicate' and padding='same' with even kernels.
import hashlib
import struct
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

warnings.simplefilter("ignore")


def md5(t):
    v = t.detach().flatten().tolist()
    fmt = "d" if t.dtype == torch.float64 else "f"
    return hashlib.md5(struct.pack("%d%s" % (len(v), fmt), *v)).hexdigest()[:10]


def run(name, conv, x, weight_grads=True):
    x.requires_grad_(True)
    y = conv(x)
    (y * torch.randn(y.shape, dtype=y.dtype)).sum().backward()
    grads = [x.grad]
    if weight_grads:
        grads += [conv.weight.grad] + ([conv.bias.grad] if conv.bias is not None else [])
    print(name, tuple(y.shape), md5(y), *[md5(g) for g in grads])


torch.set_num_threads(1)
torch.manual_seed(0)
print("transposed")
for n, c, o, h, k, s, p, op, g, d, bias in [(2, 4, 6, 8, 3, 2, 1, 1, 1, 1, True), (2, 4, 6, 8, 3, 1, 0, 0, 1, 1, True),
                                           (4, 16, 8, 8, 4, 2, 1, 0, 1, 1, False), (4, 16, 8, 1, 4, 1, 0, 0, 1, 1, False),
                                           (1, 8, 3, 5, 3, 2, 1, 1, 1, 1, True), (3, 8, 8, 6, 3, 2, 2, 1, 2, 1, True),
                                           (2, 4, 6, 8, 3, 2, 0, 0, 2, 2, True), (2, 6, 8, 7, 5, 3, 2, 2, 1, 1, True),
                                           (2, 16, 32, 9, 2, 2, 0, 0, 8, 1, True)]:
    run("t2d", nn.ConvTranspose2d(c, o, k, s, p, op, g, bias, d), torch.randn(n, c, h, h))
for n, c, o, w, k, s, p, op in [(2, 4, 6, 10, 3, 2, 1, 1), (3, 16, 8, 12, 4, 2, 1, 0), (2, 8, 8, 9, 5, 1, 2, 0)]:
    run("t1d", nn.ConvTranspose1d(c, o, k, s, p, op), torch.randn(n, c, w))
run("t3d", nn.ConvTranspose3d(2, 4, 3, stride=2, padding=1, output_padding=1), torch.randn(2, 2, 4, 4, 4))
y = F.conv_transpose2d(torch.randn(2, 6, 5, 5), torch.randn(6, 4, 3, 3), torch.randn(4), stride=2, padding=1)
print("functional", md5(y))

print("dilated")
for n, c, o, h, k, s, p, d in [(2, 4, 6, 12, 3, 1, 1, 2), (2, 16, 16, 12, 3, 1, 2, 2), (4, 3, 8, 20, 3, 1, 0, 3),
                               (2, 5, 7, 15, 5, 1, 2, 2), (3, 16, 8, 11, 2, 1, 1, 3)]:
    run("d2d", nn.Conv2d(c, o, k, s, p, d), torch.randn(n, c, h, h), weight_grads=False)
run("d2d_hw", nn.Conv2d(8, 8, (3, 2), padding=(2, 1), dilation=(2, 3)), torch.randn(2, 8, 13, 10), weight_grads=False)
run("d1d", nn.Conv1d(4, 6, 3, dilation=2), torch.randn(2, 4, 20), weight_grads=False)
run("d1d_wavenet", nn.Conv1d(16, 16, 2, dilation=4, padding=2), torch.randn(4, 16, 30), weight_grads=False)

print("threads")
for threads in (1, 2, 3, 4):
    torch.set_num_threads(threads)
    torch.manual_seed(1)
    for n, c, o, h, k, p in [(8, 3, 8, 16, 5, 0), (8, 16, 16, 16, 3, 1), (5, 6, 16, 14, 5, 0), (3, 32, 8, 9, 3, 1),
                             (7, 8, 24, 10, 3, 1)]:
        run("t%d" % threads, nn.Conv2d(c, o, k, padding=p), torch.randn(n, c, h, h))
    run("t%d_1d" % threads, nn.Conv1d(4, 6, 4, padding="same"), torch.randn(6, 4, 9))
    for n, ch in [(4, 4), (6, 16), (3, 32)]:
        run("t%d_dw" % threads, nn.Conv2d(ch, ch, 3, padding=1, groups=ch), torch.randn(n, ch, 8, 8))
    run("t%d_g" % threads, nn.Conv2d(16, 32, 3, groups=2), torch.randn(5, 16, 9, 9))
torch.set_num_threads(1)

print("padding modes")
torch.manual_seed(2)
for mode, p in [("circular", 1), ("circular", 2), ("reflect", 1), ("replicate", 2), ("zeros", 1)]:
    run(mode, nn.Conv2d(4, 6, 3, padding=p, padding_mode=mode), torch.randn(2, 4, 9, 9))
    run(mode + "1d", nn.Conv1d(4, 6, 3, padding=p, padding_mode=mode), torch.randn(2, 4, 9))
run("circular_hw", nn.Conv2d(3, 4, (3, 5), padding=(1, 2), padding_mode="circular"), torch.randn(2, 3, 6, 8))
for k in (2, 4, (2, 3)):
    run("same", nn.Conv2d(4, 6, k, padding="same"), torch.randn(2, 4, 9, 9))
run("same_dil", nn.Conv2d(4, 6, 4, padding="same", dilation=2), torch.randn(2, 4, 11, 11), weight_grads=False)
x = torch.randn(2, 3, 6, 7, requires_grad=True)
y = F.pad(x, (1, 2, 2, 1), mode="circular")
y.backward(torch.randn(y.shape))
print("pad", md5(y), md5(x.grad))
x = torch.randn(2, 2, 4, 5, 6, requires_grad=True)
y = F.pad(x, (1, 2, 2, 1, 1, 1), mode="circular")
y.backward(torch.randn(y.shape))
print("pad3d", md5(y), md5(x.grad))
